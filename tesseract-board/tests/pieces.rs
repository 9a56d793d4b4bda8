//! The piece set: every drawing well-formed, self-contained and in its box, the roles told apart, the two
//! pawns different, and a whole 4D picture without colliding ids.
#![cfg(feature = "svg")]

use std::collections::HashSet;

use tesseract_board::pieces::{self, SIZE, piece_document, piece_group};
use tesseract_board::svg::{Picture, PieceStyle};
use tesseract_board::{Color, Piece, Role, start};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).unwrap_or_else(|e| panic!("not well-formed ({e}): {svg}"))
}

fn all_pieces() -> impl Iterator<Item = Piece> {
    Color::ALL.into_iter().flat_map(|color| Role::ALL.into_iter().map(move |role| Piece { color, role }))
}

/// The numbers of a path's data, in pairs of coordinates (absolute and relative alike).
fn numbers(d: &str) -> Vec<f64> {
    d.split(|c: char| !(c.is_ascii_digit() || c == '.' || c == '-'))
        .flat_map(|t| {
            // "1.5-1.5" holds two numbers.
            let mut out = Vec::new();
            let mut start = 0;
            for (i, c) in t.char_indices() {
                if c == '-' && i > start {
                    out.push(&t[start..i]);
                    start = i;
                }
            }
            out.push(&t[start..]);
            out
        })
        .filter(|t| !t.is_empty())
        .map(|t| t.parse().unwrap_or_else(|_| panic!("{t:?} in {d}")))
        .collect()
}

#[test]
fn every_document_is_well_formed_with_the_view_box_and_nothing_outside() {
    for dims in [2, 3, 4] {
        for piece in all_pieces() {
            let svg = piece_document(piece, dims);
            let doc = parse(&svg);
            let root = doc.root_element();
            assert_eq!(root.tag_name().name(), "svg");
            assert_eq!(root.tag_name().namespace(), Some("http://www.w3.org/2000/svg"));
            assert_eq!(root.attribute("viewBox"), Some("0 0 45 45"));
            assert_eq!(SIZE, 45);
            // Self-contained: no text (so no fonts), no ids, no links, no url(…) references.
            for bad in ["<text", " id=", "href", "url(", "<image", "<style", "<script"] {
                assert!(!svg.contains(bad), "{piece:?} in {dims}D: {bad}");
            }
            // The fragment is the document's only child.
            let g = piece_group(piece, dims);
            assert!(svg.contains(&g));
            assert_eq!(root.children().filter(|n| n.is_element()).count(), 1);
            let group = parse(&g);
            assert_eq!(group.root_element().tag_name().name(), "g");
            // Every path is made of numbers and path commands only, and starts inside the box.
            for path in group.descendants().filter(|n| n.has_tag_name("path")) {
                let d = path.attribute("d").unwrap();
                assert!(d.chars().all(|c| "MLHVCQAZmlhvcqaz0123456789.,- ".contains(c)), "{d}");
                let n = numbers(d);
                assert!(n.len() >= 2);
                assert!((0.0..=45.0).contains(&n[0]) && (0.0..=45.0).contains(&n[1]), "{d}");
            }
        }
    }
}

#[test]
fn absolute_paths_stay_in_the_box() {
    // Paths written with absolute commands only (no arcs, no relative moves): every number is a coordinate.
    for piece in all_pieces() {
        let g = piece_group(piece, 4);
        let doc = parse(&g);
        for path in doc.descendants().filter(|n| n.has_tag_name("path")) {
            let d = path.attribute("d").unwrap();
            if d.chars().any(|c| c.is_ascii_lowercase()) {
                continue;
            }
            for v in numbers(d) {
                assert!((0.0..=45.0).contains(&v), "{v} in {d}");
            }
        }
    }
}

#[test]
fn the_roles_and_colors_are_drawn_differently() {
    for color in Color::ALL {
        let drawings: Vec<String> = Role::ALL.iter().map(|&role| piece_group(Piece { color, role }, 4)).collect();
        let shapes: HashSet<String> = drawings.iter().map(|g| shape_of(g)).collect();
        assert_eq!(shapes.len(), 9, "the nine roles' outlines are pairwise distinct ({color})");
    }
    for role in Role::ALL {
        let w = piece_group(Piece { color: Color::White, role }, 4);
        let b = piece_group(Piece { color: Color::Black, role }, 4);
        assert_ne!(w, b);
        assert_eq!(shape_of(&w), shape_of(&b), "the same drawing in both colors ({role})");
    }
    // The two pawns differ in their head, not only in a detail.
    let head = |role: Role, dims: usize| {
        let g = piece_group(Piece { color: Color::White, role }, dims);
        parse(&g)
            .descendants()
            .filter(|n| n.has_tag_name("path"))
            .map(|p| p.attribute("d").unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let (y, w) = (head(Role::YPawn, 4), head(Role::WPawn, 4));
    assert_ne!(y, w);
    assert_ne!(
        shape_of(&piece_group(Piece { color: Color::White, role: Role::YPawn }, 4)),
        shape_of(&piece_group(Piece { color: Color::White, role: Role::WPawn }, 4))
    );
    // In 2D the Y-pawn is the plain pawn: the 4D Y-pawn's drawing less its arrow. In 3D it keeps the arrow.
    let plain = head(Role::YPawn, 2);
    assert_eq!(plain.len() + 1, y.len());
    assert!(plain.iter().all(|d| y.contains(d)));
    assert_eq!(head(Role::YPawn, 3), y);
    // The other roles do not depend on the board.
    for role in Role::ALL.into_iter().filter(|&r| r != Role::YPawn) {
        let p = Piece { color: Color::Black, role };
        assert_eq!(piece_group(p, 2), piece_group(p, 4));
    }
}

/// The filled shapes of a drawing (its outline), without colors and details.
fn shape_of(group: &str) -> String {
    let doc = parse(group);
    doc.descendants()
        .filter(|n| n.has_tag_name("path") && n.attribute("fill").is_none())
        .map(|n| n.attribute("d").unwrap())
        .collect::<Vec<_>>()
        .join("|")
}

#[test]
fn a_whole_4d_picture_has_unique_ids_and_every_piece() {
    let pos = start::tesseract(start::Army::Dense);
    for style in [PieceStyle::Glyphs, PieceStyle::Letters] {
        let svg = Picture::of(&pos).piece_style(style).to_svg();
        let doc = parse(&svg);
        let mut ids = HashSet::new();
        for id in doc.descendants().filter_map(|n| n.attribute("id")) {
            assert!(ids.insert(id), "the id {id} twice");
        }
        let drawn = doc.descendants().filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("piece "))).count();
        assert_eq!(drawn, pos.pieces().count());
        assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("board")).count(), 25);
    }
}

#[test]
fn the_sheet_names_every_piece() {
    let sheet = pieces::sheet();
    let doc = parse(&sheet);
    let names: Vec<&str> = doc.descendants().filter(|n| n.has_tag_name("text")).filter_map(|n| n.text()).collect();
    assert_eq!(
        names,
        ["king", "queen", "rook", "bishop", "knight", "unicorn", "dragon", "Y-pawn", "W-pawn", "pawn (2D)"]
    );
    assert_eq!(doc.descendants().filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("piece "))).count(), 20);
    for piece in all_pieces() {
        assert!(sheet.contains(&piece_group(piece, 4)[2..]), "{piece:?}");
    }
}
