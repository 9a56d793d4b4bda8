//! SVG pictures: well-formed for every shape, pieces and marks where the layout says, 4D lines straight,
//! and (ignored, run by scripts/test.sh's optimised pass) what headless chromium actually draws.
#![cfg(feature = "svg")]

use tesseract_board::svg::{Highlight, Picture, PieceStyle, Sign, Stroke};
use tesseract_board::{Cell, Color, Shape, start};

fn parse(svg: &str) -> roxmltree::Document<'_> {
    roxmltree::Document::parse(svg).expect("well-formed XML")
}

/// The centres at which the SVG places its pieces, from the `translate(x,y)` of each piece group.
fn drawn_pieces(svg: &str) -> Vec<(String, (u32, u32))> {
    let doc = parse(svg);
    doc.descendants()
        .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("piece ")))
        .map(|n| {
            let t = n.attribute("transform").unwrap();
            let inner = t.strip_prefix("translate(").unwrap().strip_suffix(')').unwrap();
            let (x, y) = inner.split_once(',').unwrap();
            (n.attribute("class").unwrap().to_string(), (x.parse().unwrap(), y.parse().unwrap()))
        })
        .collect()
}

#[test]
fn every_shape_gives_a_well_formed_picture_with_its_cells() {
    for dims in 1..=4 {
        for side in 3..=9 {
            let shape = Shape::new(dims, side).unwrap();
            let svg = Picture::new(shape).to_svg();
            let doc = parse(&svg);
            let boards = doc.descendants().filter(|n| n.attribute("class") == Some("board")).count();
            let want = match dims {
                4 => side * side,
                3 => side,
                _ => 1,
            };
            assert_eq!(boards, want, "{dims}D side {side}");
        }
    }
}

#[test]
fn pieces_are_drawn_at_their_cells_with_a_shape_per_kind() {
    for pos in [start::tesseract(start::Army::Dense), start::chess(), start::chess960(0).unwrap()] {
        let pic = Picture::of(&pos);
        let svg = pic.to_svg();
        let drawn = drawn_pieces(&svg);
        let mut want: Vec<(String, (u32, u32))> = pos
            .pieces()
            .map(|(cell, p)| {
                let color = if p.color == Color::White { "white" } else { "black" };
                (format!("piece {color} {}", p.role.name().to_ascii_lowercase()), pic.centre(cell))
            })
            .collect();
        let mut got = drawn.clone();
        want.sort();
        got.sort();
        assert_eq!(got, want);
    }
    // Each piece is the piece set's drawing, scaled to the cell (40 px by default: 40/45) and centred.
    let pos = start::tesseract(start::Army::Standard);
    let svg = Picture::of(&pos).to_svg();
    let doc = parse(&svg);
    for kind in ["king", "queen", "rook", "bishop", "knight", "unicorn", "dragon", "y-pawn", "w-pawn"] {
        let g = doc.descendants().find(|n| n.attribute("class") == Some(&format!("piece black {kind}"))).unwrap();
        let inner = g.first_element_child().unwrap();
        assert_eq!(inner.attribute("transform"), Some("translate(-20,-20) scale(0.8889)"), "{kind}");
        assert!(inner.children().filter(|n| n.has_tag_name("path")).count() >= 3, "{kind}");
    }
    assert!(!svg.contains("<text y="), "no letters");
    // High contrast: letters, and the kinds only 4D has told apart by their outline, not only by their letter.
    let svg = Picture::of(&pos).piece_style(PieceStyle::Letters).to_svg();
    let doc = parse(&svg);
    assert_eq!(drawn_pieces(&svg), drawn_pieces(&Picture::of(&pos).to_svg()), "the same places");
    let outline = |kind: &str| {
        let g = doc.descendants().find(|n| n.attribute("class") == Some(&format!("piece white {kind}"))).unwrap();
        g.first_element_child().unwrap().tag_name().name().to_string()
    };
    assert_eq!(outline("unicorn"), "polygon");
    assert_eq!(outline("dragon"), "polygon");
    assert_eq!(outline("w-pawn"), "rect");
    assert_eq!(outline("y-pawn"), "circle");
    assert_eq!(outline("queen"), "circle");
    let points = |kind: &str| {
        let g = doc.descendants().find(|n| n.attribute("class") == Some(&format!("piece white {kind}"))).unwrap();
        g.first_element_child().unwrap().attribute("points").unwrap().split(' ').count()
    };
    assert_eq!((points("unicorn"), points("dragon")), (6, 4), "hexagon and diamond");
}

/// Every line of the 4D board, in each of the 80 directions from every cell, is drawn straight and at
/// equal steps: the picture's map is affine.
#[test]
fn lines_of_the_4d_board_are_straight_in_the_picture() {
    let shape = Shape::new(4, 5).unwrap();
    let geo = shape.geometry();
    let pic = Picture::new(shape);
    let mut lines = 0;
    for start in geo.all_cells() {
        let c = geo.coords(start);
        for d in geo.directions() {
            let cells: Vec<Cell> = (0..5)
                .map_while(|k| {
                    let to: Vec<i32> = (0..4).map(|a| i32::from(c[a]) + k * i32::from(d.delta[a])).collect();
                    to.iter()
                        .all(|&v| (1..=5).contains(&v))
                        .then(|| geo.cell(&to.iter().map(|&v| v as u8).collect::<Vec<_>>()).unwrap())
                })
                .collect();
            if cells.len() < 3 {
                continue;
            }
            let p: Vec<(i64, i64)> = cells.iter().map(|&x| pic.centre(x)).map(|(x, y)| (x as i64, y as i64)).collect();
            let step = (p[1].0 - p[0].0, p[1].1 - p[0].1);
            for (k, q) in p.iter().enumerate() {
                assert_eq!((q.0 - p[0].0, q.1 - p[0].1), (k as i64 * step.0, k as i64 * step.1));
            }
            lines += 1;
        }
    }
    assert!(lines > 10_000, "{lines} lines checked");
}

#[test]
fn highlights_arrows_signs_and_lines_are_drawn() {
    let pos = start::chess();
    let geo = pos.geometry();
    let e2 = geo.cell(&[5, 2]).unwrap();
    let e4 = geo.cell(&[5, 4]).unwrap();
    let svg = Picture::of(&pos)
        .highlight(e2, Highlight::Selected)
        .highlight(e4, Highlight::Target)
        .arrow(e2, e4)
        .last_move(e2, e4)
        .to_svg();
    let doc = parse(&svg);
    let arrow = doc.descendants().find(|n| n.attribute("class") == Some("arrow")).unwrap();
    let at = |name: &str| arrow.attribute(name).unwrap().parse::<u32>().unwrap();
    let pic = Picture::of(&pos);
    assert_eq!((at("x1"), at("y1")), pic.centre(e2));
    assert_eq!((at("x2"), at("y2")), pic.centre(e4));
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("last-move")).count(), 2);
    assert!(svg.contains(">a</text>") && svg.contains(">8</text>"), "files and ranks");

    // Four Tac Toe's grid: signs, a blocked centre, a completed line.
    let shape = Shape::new(4, 3).unwrap();
    let g = shape.geometry();
    let a = g.cell(&[1, 1, 1, 1]).unwrap();
    let b = g.cell(&[3, 1, 1, 1]).unwrap();
    let svg = Picture::new(shape)
        .sign(a, Sign::Cross)
        .sign(b, Sign::Ring)
        .sign(g.cell(&[2, 2, 2, 2]).unwrap(), Sign::Blocked)
        .line(a, b, Stroke::Red)
        .to_svg();
    let doc = parse(&svg);
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("sign cross")).count(), 1);
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("sign ring")).count(), 1);
    assert_eq!(doc.descendants().filter(|n| n.attribute("class") == Some("blocked")).count(), 1);
    assert!(svg.contains(">w3</text>") && svg.contains(">z1</text>"));
}

/// The picture as chromium draws it: pixels sampled where the layout puts things.
#[test]
#[ignore = "needs Debian's chromium (scripts/test.sh installs it); run in the optimised pass"]
fn chromium_draws_what_the_layout_says() {
    let pos = start::tesseract(start::Army::Standard);
    let geo = pos.geometry();
    let dragon = geo.cell(&[2, 1, 3, 1]).unwrap(); // a white dragon
    let target = geo.cell(&[4, 3, 5, 3]).unwrap();
    let black_king = geo.cell(&[3, 5, 5, 5]).unwrap();
    let empty_dark = geo.cell(&[1, 1, 1, 5]).unwrap(); // coordinates sum 8: a dark square
    let pic = Picture::of(&pos).highlight(dragon, Highlight::Selected).arrow(dragon, target);
    let svg = pic.to_svg();
    let png = render(&svg, "4d");
    let pixel = |(x, y): (u32, u32)| png.pixel(x, y);
    let near = |got: [u8; 3], want: [u8; 3], what: &str| {
        let d = got.iter().zip(want).map(|(&a, b)| (i32::from(a) - i32::from(b)).abs()).max().unwrap();
        assert!(d <= 24, "{what}: pixel {got:?}, expected about {want:?}");
    };
    // Inside the king's body, left of its middle and below its band: the piece's color.
    let beside = |cell: Cell, dx: i32, dy: i32| {
        let (x, y) = pic.centre(cell);
        ((x as i32 + dx) as u32, (y as i32 + dy) as u32)
    };
    let white_king = geo.cell(&[3, 1, 1, 1]).unwrap();
    near(pixel(beside(black_king, -2, 3)), [0x2b, 0x2b, 0x2b], "the black king's body");
    near(pixel(beside(white_king, -2, 3)), [0xf9, 0xf7, 0xf2], "the white king's body");
    // Beside the king, still in its cell: the square shows.
    near(pixel(beside(white_king, -15, 0)), [0xb9, 0xc9, 0x8f], "beside the white king");
    // The high-contrast style: inside a disc, away from its letter.
    let letters = render(&pic.clone().piece_style(PieceStyle::Letters).to_svg(), "4d-letters");
    let letter_pixel = |(x, y): (u32, u32)| letters.pixel(x, y);
    near(letter_pixel(beside(black_king, -11, 0)), [0x2b, 0x2b, 0x2b], "the black king's disc");
    near(letter_pixel(beside(white_king, -11, 0)), [0xfd, 0xfd, 0xfd], "the white king's disc");
    // An empty dark square, its centre.
    near(pixel(pic.centre(empty_dark)), [0xb9, 0xc9, 0x8f], "an empty dark square");
    // Light and dark squares alternate along every axis, across boards too.
    for (c, dark) in [
        ([2, 1, 1, 5], false),
        ([1, 2, 1, 5], false),
        ([1, 1, 2, 5], false),
        ([1, 1, 1, 4], false),
        ([2, 2, 2, 4], true),
        ([2, 2, 2, 2], true),
        ([5, 5, 4, 4], true),
    ] {
        let cell = geo.cell(&c).unwrap();
        let want = if dark { [0xb9, 0xc9, 0x8f] } else { [0xee, 0xee, 0xd2] };
        near(pixel(pic.centre(cell)), want, &format!("the square {c:?}"));
    }
    // The selected dragon's cell, in its top-left corner (left of its horn, above its snout): gold over the square.
    let (cx, cy) = pic.centre(dragon);
    let corner = pixel((cx - 17, cy - 17));
    assert!(corner[0] > 200 && corner[1] > 170 && corner[2] < 120, "selected cell is gold: {corner:?}");
    // The arrow: red at a point a third of the way, in the gap between boards or over squares.
    let (tx, ty) = pic.centre(target);
    let third = ((2 * cx + tx) / 3, (2 * cy + ty) / 3);
    let p = pixel(third);
    assert!(p[0] > 150 && p[1] < 120 && p[2] < 120, "the arrow is red at {third:?}: {p:?}");
}

struct Rgb {
    width: u32,
    data: Vec<u8>,
}

impl Rgb {
    fn pixel(&self, x: u32, y: u32) -> [u8; 3] {
        let i = ((y * self.width + x) * 3) as usize;
        [self.data[i], self.data[i + 1], self.data[i + 2]]
    }
}

/// Renders an SVG with headless chromium at scale 1 and decodes the screenshot.
fn render(svg: &str, name: &str) -> Rgb {
    let dir = std::env::temp_dir().join(format!("tesseract-svg-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.svg"));
    let shot = dir.join(format!("{name}.png"));
    std::fs::write(&file, svg).unwrap();
    let chromium = std::env::var("CHROMIUM").unwrap_or_else(|_| "/usr/bin/chromium".into());
    let status = std::process::Command::new(&chromium)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--hide-scrollbars",
            "--force-device-scale-factor=1",
            "--window-size=1200,1200",
        ])
        .arg(format!("--user-data-dir={}", dir.join("profile").display()))
        .arg(format!("--screenshot={}", shot.display()))
        .arg(format!("file://{}", file.display()))
        .stderr(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|e| panic!("{chromium}: {e} (install Debian's chromium, or set CHROMIUM)"));
    assert!(status.success(), "{chromium} failed");
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(&shot).unwrap()));
    let mut reader = decoder.read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    let data: Vec<u8> = buf[..info.buffer_size()].chunks(channels).flat_map(|p| [p[0], p[1], p[2]]).collect();
    Rgb { width: info.width, data }
}
