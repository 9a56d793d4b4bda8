//! The piece set (feature `svg`): one drawing per piece, for the SVG pictures of [`svg`](crate::svg), web
//! pages and documentation, drawn for this project in a 45 × 45 box.
//!
//! Every piece stands on the same plinth. The five pieces of chess have their usual silhouettes: the king
//! a crowned body under a cross, the queen a crown of five points, the rook a tower with battlements, the
//! bishop a mitre with its slit, the knight a horse's head. The pieces that chess does not have:
//!
//! - the **unicorn** (slides along class 3, three axes at once) is the knight's head with a long horn;
//! - the **dragon** (slides along class 4, all four axes) is a beast's head with open jaws and a horn swept
//!   back, a bat's wing spread behind it, so its outline is pointed where the knight's is round;
//! - the **Y-pawn** (advances along y) is the usual pawn, a round head, carrying a vertical double arrow:
//!   y is the vertical axis of every board in the pictures;
//! - the **W-pawn** (advances along w) has a wide head pointed left and right, carrying a horizontal double
//!   arrow: w is the horizontal axis of the grid of boards. Round head and narrow against wide head and
//!   pointed, the two pawns are told apart at a glance even at 20 pixels.
//!
//! The arrows have two heads because they show the pawn's axis, not its direction: a white pawn advances
//! by +1, a black one by −1, and a picture may be turned. On a board of two dimensions or fewer (chess,
//! Chess960), where the Y-pawn is the only pawn and is written `P`, it is drawn as the plain pawn, without
//! the arrow; on 3D boards it keeps the arrow, as it keeps its letter `Y`.
//!
//! White's pieces are light with a dark outline and dark details; Black's are dark, their details (the
//! seams between the parts, eyes, the slit) light, so both read on light and dark squares.
//!
//! The drawings are plain paths, with no text, no fonts, no ids and no references, so a fragment may be
//! embedded any number of times in one document ([`piece_group`]) and a document may serve as an image
//! on its own ([`piece_document`]):
//!
//! ```
//! use tesseract_board::{Color, Piece, Role};
//! use tesseract_board::pieces;
//!
//! let knight = Piece { color: Color::White, role: Role::Knight };
//! let svg = pieces::piece_document(knight, 4);
//! assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
//! assert!(svg.contains("viewBox=\"0 0 45 45\""));
//! // As a data URL, for an <img> or a canvas:
//! let url = format!("data:image/svg+xml;charset=utf-8,{}", svg.replace('#', "%23"));
//! # assert!(!url.contains('#'));
//! // The same drawing as a fragment, for a bigger picture: the 45 × 45 box at the origin.
//! let g = pieces::piece_group(knight, 4);
//! assert!(g.starts_with("<g ") && g.ends_with("</g>"));
//! assert!(!g.contains(" id="));
//! ```
//!
//! [`sheet`] draws every piece of both colors with its name (`tesseract-board/docs/pieces.svg`).
//!
//! The drawings are this project's own, under the project's license.

use std::fmt::Write as _;

use crate::{Color, Piece, Role};

/// The side of the box every piece is drawn in: the document's `viewBox` is `0 0 45 45`, and a fragment
/// from [`piece_group`] covers (0, 0) to (45, 45) in its own coordinates.
pub const SIZE: u32 = 45;

/// A part of a drawing.
#[derive(Copy, Clone)]
enum Part {
    /// A filled shape with the piece's outline.
    Body(&'static str),
    /// A line in the detail color (dark on White, light on Black).
    Line(&'static str),
    /// A shape filled with the detail color (eyes, nostrils).
    Dot(&'static str),
}

use Part::{Body, Dot, Line};

/// The plinth every piece stands on, from y = 35 to 40.5, and its top seam.
const PLINTH: [Part; 2] = [
    Body("M10,40.5a1.5,1.5 0 0 1-1.5-1.5v-2a2,2 0 0 1 2-2h24a2,2 0 0 1 2,2v2a1.5,1.5 0 0 1-1.5,1.5z"),
    Line("M11,35H34"),
];

const KING: &[Part] = &[
    Body("M13,35C14.5,29 15.5,25 15.5,21H29.5C29.5,25 30.5,29 32,35z"),
    Body(
        "M14,21.5a1.5,1.5 0 0 1-1.5-1.5v-1.5a1.5,1.5 0 0 1 1.5-1.5h17a1.5,1.5 0 0 1 1.5,1.5v1.5a1.5,1.5 0 0 1-1.5,1.5z",
    ),
    Body("M15,17C15,10.5 30,10.5 30,17z"),
    Body("M20.5,2.5h4v3h3v4h-3v3h-4v-3h-3v-4h3z"),
    Line("M16.5,29.5h12M14,21.5H31M16,17H29"),
];

const QUEEN: &[Part] = &[
    Body("M13,35C14,31 14,29.5 13.5,27H31.5C31,29.5 31,31 32,35z"),
    Body("M13.5,27L9.5,12.5L16.5,20.5L18.5,9.5L22.5,19L26.5,9.5L28.5,20.5L35.5,12.5L31.5,27z"),
    Body("M7.2,11a2.3,2.3 0 1 0 4.6,0a2.3,2.3 0 1 0-4.6,0z"),
    Body("M16.2,8a2.3,2.3 0 1 0 4.6,0a2.3,2.3 0 1 0-4.6,0z"),
    Body("M24.2,8a2.3,2.3 0 1 0 4.6,0a2.3,2.3 0 1 0-4.6,0z"),
    Body("M33.2,11a2.3,2.3 0 1 0 4.6,0a2.3,2.3 0 1 0-4.6,0z"),
    Body("M20.5,17.5a2,2 0 1 0 4,0a2,2 0 1 0-4,0z"),
    Line("M14.5,27H30.5M15,31h15"),
];

const ROOK: &[Part] = &[
    Body("M12,35L14.5,31.5H30.5L33,35z"),
    Body("M14.5,31.5V18.5H30.5V31.5z"),
    Body("M12,18.5V9h4.5v3.5h4V9h4v3.5h4V9H33V18.5z"),
    Line("M14.5,18.5h16M14.5,31.5h16M19,25h7"),
];

const BISHOP: &[Part] = &[
    Body("M12,35C14.5,33.5 16,31.5 16.5,28.5H28.5C29,31.5 30.5,33.5 33,35z"),
    Body("M15,28.5a1.5,1.5 0 0 1-1.5-1.5v-1a1.5,1.5 0 0 1 1.5-1.5h15a1.5,1.5 0 0 1 1.5,1.5v1a1.5,1.5 0 0 1-1.5,1.5z"),
    Body("M16,24.5C13.5,19 16,13.5 22.5,9C29,13.5 31.5,19 29,24.5z"),
    Body("M20,6.5a2.5,2.5 0 1 0 5,0a2.5,2.5 0 1 0-5,0z"),
    Line("M25.5,13.5L21,19.5M15,24.5H30M15,28.5H30"),
];

/// The horse's head, shared by the knight and the unicorn.
const HORSE: Part = Body(
    "M13,35C12.5,29.5 15.5,27 20,24L19.5,21.5C16,23.5 13,25 10.5,24.5C8,24 7.5,21.5 8.5,19.5L15.5,11.5\
     L16.5,6.5L20.5,9.5C28,8.5 33.5,14 33.5,22C33.5,28 32.5,31.5 33,35z",
);
const HORSE_DETAILS: [Part; 3] = [
    Dot("M15.2,15a1.3,1.3 0 1 0 2.6,0a1.3,1.3 0 1 0-2.6,0z"),
    Dot("M9.9,21.3a0.9,0.9 0 1 0 1.8,0a0.9,0.9 0 1 0-1.8,0z"),
    Line("M23,11.5C28.5,13 31,18 30.5,25"),
];

const KNIGHT: &[Part] = &[HORSE, HORSE_DETAILS[0], HORSE_DETAILS[1], HORSE_DETAILS[2]];

const UNICORN: &[Part] = &[
    HORSE,
    Body("M15.5,12.5L6,2.5L19,10z"),
    Line("M9.5,5.5l2.5-0.5M12,8l2.5-0.5"),
    HORSE_DETAILS[0],
    HORSE_DETAILS[1],
    HORSE_DETAILS[2],
];

const DRAGON: &[Part] = &[
    // The wing first, behind the head.
    Body("M25.5,21L41,2.5C39,7 38.5,10 41.5,12.5C38,13.5 37,16.5 40,20C36.5,20.5 35,23.5 36.5,27.5L31,29z"),
    Line("M29.5,18.5L39.5,8M31,23L38,16.5"),
    Body(
        "M13,35C12.5,30 15,27 19,24.5L17,22.5L8.5,25L12.5,20.5L6.5,18.5L14.5,12L21.5,4L20.5,10\
         C26,11 29,15 29,20C29,26 31,30 33,35z",
    ),
    Dot("M14.7,15.5a1.3,1.3 0 1 0 2.6,0a1.3,1.3 0 1 0-2.6,0z"),
];

/// The pawn's body and collar, under its head.
const PAWN_BODY: [Part; 3] = [
    Body("M12.5,35C15,33.5 17,29.5 17.5,24.5H27.5C28,29.5 30,33.5 32.5,35z"),
    Body("M16,25a1.5,1.5 0 0 1-1.5-1.5v-0.5a1.5,1.5 0 0 1 1.5-1.5h13a1.5,1.5 0 0 1 1.5,1.5v0.5a1.5,1.5 0 0 1-1.5,1.5z"),
    Line("M16,25H29"),
];
const ROUND_HEAD: Part = Body("M16.5,15.5a6,6 0 1 0 12,0a6,6 0 1 0-12,0z");

const PAWN: &[Part] = &[PAWN_BODY[0], PAWN_BODY[1], PAWN_BODY[2], ROUND_HEAD];

const Y_PAWN: &[Part] = &[
    PAWN_BODY[0],
    PAWN_BODY[1],
    PAWN_BODY[2],
    ROUND_HEAD,
    Line("M22.5,11.5V19.5M20.5,13.5L22.5,11.5L24.5,13.5M20.5,17.5L22.5,19.5L24.5,17.5"),
];

const W_PAWN: &[Part] = &[
    PAWN_BODY[0],
    PAWN_BODY[1],
    PAWN_BODY[2],
    Body("M11.5,15.5L17.5,10H27.5L33.5,15.5L27.5,21H17.5z"),
    Line("M18,15.5H27M20,13.5L18,15.5L20,17.5M25,13.5L27,15.5L25,17.5"),
];

/// The parts of `role`'s drawing above the plinth, on a board of `dims` axes.
fn parts(role: Role, dims: usize) -> &'static [Part] {
    match role {
        Role::King => KING,
        Role::Queen => QUEEN,
        Role::Rook => ROOK,
        Role::Bishop => BISHOP,
        Role::Knight => KNIGHT,
        Role::Unicorn => UNICORN,
        Role::Dragon => DRAGON,
        Role::YPawn if dims <= 2 => PAWN,
        Role::YPawn => Y_PAWN,
        Role::WPawn => W_PAWN,
    }
}

/// The fill, outline and detail colors of a side.
fn colors(color: Color) -> (&'static str, &'static str, &'static str) {
    match color {
        Color::White => ("#f9f7f2", "#1c1c1c", "#1c1c1c"),
        Color::Black => ("#2b2b2b", "#111111", "#ececec"),
    }
}

/// Appends the drawing of `piece` to `out` as one `<g>`, with `attributes` (such as a class or a
/// transform, with a leading space, or empty) on the group.
pub(crate) fn write_group(out: &mut String, piece: Piece, dims: usize, attributes: &str) {
    let (fill, outline, ink) = colors(piece.color);
    let _ = write!(
        out,
        "<g{attributes} fill=\"{fill}\" stroke=\"{outline}\" stroke-width=\"1.5\" stroke-linejoin=\"round\" \
         stroke-linecap=\"round\">"
    );
    // The plinth's seam is drawn after the bodies, over the joint between the plinth and what stands on it.
    for part in [PLINTH[0]].iter().chain(parts(piece.role, dims)).chain([PLINTH[1]].iter()) {
        let _ = match *part {
            Body(d) => write!(out, "<path d=\"{d}\"/>"),
            Line(d) => write!(out, "<path d=\"{d}\" fill=\"none\" stroke=\"{ink}\"/>"),
            Dot(d) => write!(out, "<path d=\"{d}\" fill=\"{ink}\" stroke=\"none\"/>"),
        };
    }
    out.push_str("</g>");
}

/// The drawing of `piece` as an SVG fragment: one `<g>` element in the 45 × 45 box at the origin (scale
/// and translate it to place it), with no ids, so that it may be embedded any number of times.
///
/// `dims` is the number of axes of the board: on two or fewer the Y-pawn is drawn as the plain pawn of
/// chess (see the module docs).
pub fn piece_group(piece: Piece, dims: usize) -> String {
    let mut s = String::with_capacity(1024);
    write_group(&mut s, piece, dims, "");
    s
}

/// The drawing of `piece` as a standalone SVG document (`viewBox="0 0 45 45"`, 45 × 45 pixels unless
/// scaled), with no external references and no text: usable as the source of an `<img>` or of a canvas
/// image. `dims` as for [`piece_group`].
pub fn piece_document(piece: Piece, dims: usize) -> String {
    let mut s = String::with_capacity(1200);
    let _ = write!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{SIZE}\" height=\"{SIZE}\" viewBox=\"0 0 {SIZE} {SIZE}\">"
    );
    write_group(&mut s, piece, dims, "");
    s.push_str("</svg>\n");
    s
}

/// A sheet of every drawing: the nine roles of the 4D board and the pawn of chess, White's row above
/// Black's, each on a light and a dark square with its name underneath (`tesseract-board/docs/pieces.svg`).
pub fn sheet() -> String {
    const CELL: u32 = 60;
    const LABEL: u32 = 34;
    let columns: Vec<(Role, usize, &str)> =
        Role::ALL.iter().map(|&r| (r, 4, r.name())).chain([(Role::YPawn, 2, "pawn (2D)")]).collect();
    let width = columns.len() as u32 * CELL;
    let height = 2 * CELL + LABEL;
    let mut s = String::with_capacity(32 * 1024);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" viewBox=\"0 0 {width} {height}\" \
         font-family=\"DejaVu Sans, Arial, sans-serif\">"
    );
    let _ = writeln!(s, "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>");
    let scale = format_scale(CELL);
    for (i, &(role, dims, name)) in columns.iter().enumerate() {
        let x = i as u32 * CELL;
        for (row, color) in Color::ALL.into_iter().enumerate() {
            let y = row as u32 * CELL;
            let square = if (i + row) % 2 == 0 { "#eeeed2" } else { "#b9c98f" };
            let _ = write!(s, "<rect x=\"{x}\" y=\"{y}\" width=\"{CELL}\" height=\"{CELL}\" fill=\"{square}\"/>");
            let at =
                format!(" class=\"piece {color} {}\" transform=\"translate({x},{y}) scale({scale})\"", css_name(role));
            write_group(&mut s, Piece { color, role }, dims, &at);
            s.push('\n');
        }
        let _ = writeln!(
            s,
            "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#333\" text-anchor=\"middle\">{name}</text>",
            x + CELL / 2,
            2 * CELL + 20
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The name of a role in a class attribute: `knight`, `y-pawn`.
pub(crate) fn css_name(role: Role) -> String {
    role.name().to_ascii_lowercase()
}

/// `px / 45` with at most four decimals, trailing zeros dropped: the scale that draws a piece `px` wide.
pub(crate) fn format_scale(px: u32) -> String {
    let tenths_of_thousandths = (u64::from(px) * 10_000 + u64::from(SIZE) / 2) / u64::from(SIZE);
    let mut s = format!("{}.{:04}", tenths_of_thousandths / 10_000, tenths_of_thousandths % 10_000);
    while s.ends_with('0') {
        s.pop();
    }
    if s.ends_with('.') {
        s.pop();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::format_scale;

    #[test]
    fn scales() {
        assert_eq!(format_scale(45), "1");
        assert_eq!(format_scale(90), "2");
        assert_eq!(format_scale(40), "0.8889");
        assert_eq!(format_scale(24), "0.5333");
        assert_eq!(format_scale(9), "0.2");
    }
}
