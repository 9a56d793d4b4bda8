//! SVG pictures of boards of any shape (feature `svg`): positions with highlighted cells, arrows, a last-move
//! mark and coordinates, and bare grids with marks (Four Tac Toe).
//!
//! The layout is the write-up's, the same as the text picture's and the web page's: a 4D board is a grid of
//! boards, x and y inside each board (x left to right, y bottom to top), z choosing the row of boards
//! (z = n at the top) and w the column (w = 1 on the left). The map from a cell to the picture,
//! `X = (w − 1)·PITCH + (x − 1)·CELL`, `Y = (n − z)·PITCH + (n − y)·CELL` (plus a margin), is affine in all
//! four coordinates, so every 4D line (a rook's ray, a unicorn's triagonal, a dragon's 4-agonal) is drawn as
//! a straight line of cells, and an arrow along it passes over the cells between. A 3D board is one row of
//! boards (z left to right), a 2D board a single diagram with files a.. and ranks 1.., a 1D board a row.
//!
//! Pieces are drawn with the project's piece set, [`pieces`](crate::pieces), scaled to the cell: each one a
//! group `<g class="piece white knight" transform="translate(x,y)">` centred on its cell (the role's name in
//! lower case: `y-pawn`, `w-pawn`). With [`PieceStyle::Letters`], a high-contrast style, they are discs with
//! their letter instead, and the pieces that only 4D has get shapes of their own, so they are told apart at
//! a glance: the unicorn a hexagon, the dragon a diamond, the Y-pawn (and the 2D pawn) a small disc, the
//! W-pawn a small square; White's light with dark letters, Black's dark with light letters.
//!
//! ```
//! use tesseract_board::start;
//! use tesseract_board::svg::{Highlight, Picture};
//!
//! let pos = start::tesseract(start::Army::Standard);
//! let queen = pos.geometry().cell(&[3, 1, 2, 1]).unwrap();
//! let svg = Picture::of(&pos).highlight(queen, Highlight::Selected).to_svg();
//! assert!(svg.starts_with("<svg"));
//! assert_eq!(svg.matches("class=\"piece ").count(), 64);
//! ```
//!
//! The output is deterministic (integer coordinates, a fixed element order), so pictures can be committed
//! and checked for staleness.

use std::fmt::Write as _;

use crate::pieces::{css_name, format_scale, write_group};
use crate::{Cell, Color, Piece, Position, Role, Shape};

/// How pieces are drawn.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum PieceStyle {
    /// The drawings of [`pieces`](crate::pieces) (the default).
    #[default]
    Glyphs,
    /// High contrast: a disc (or for the pieces only 4D has, a shape of their own) with the piece's letter.
    Letters,
}

/// How a cell is highlighted.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Highlight {
    /// The selected piece's cell (gold).
    Selected,
    /// A cell a move may go to (a blue dot).
    Target,
    /// A capture a move may make (a red ring).
    Capture,
    /// A king in check (red).
    Check,
    /// A cell of interest (green), for diagrams.
    Mark,
}

/// What a cell holds besides pieces: the signs of grid games such as Four Tac Toe.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Sign {
    /// A cross (the first player).
    Cross,
    /// A ring (the second player).
    Ring,
    /// A cell nobody may use (grey).
    Blocked,
}

/// The color of a line drawn across the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stroke {
    /// Red: the first player's, or an arrow.
    Red,
    /// Blue: the second player's.
    Blue,
    /// Green: an alternative.
    Green,
}

impl Stroke {
    fn color(self) -> &'static str {
        match self {
            Stroke::Red => "#c0392b",
            Stroke::Blue => "#2563a8",
            Stroke::Green => "#2e8b57",
        }
    }
}

/// A picture to draw: a board's shape, the pieces and signs on it, highlights, arrows and lines.
#[derive(Clone, Debug)]
pub struct Picture {
    shape: Shape,
    pieces: Vec<(Cell, Piece)>,
    signs: Vec<(Cell, Sign)>,
    highlights: Vec<(Cell, Highlight)>,
    arrows: Vec<(Cell, Cell, Stroke)>,
    lines: Vec<(Cell, Cell, Stroke)>,
    last_move: Option<(Cell, Cell)>,
    coordinates: bool,
    style: PieceStyle,
    cell: u32,
}

/// Where a picture puts things: the affine map of the module docs.
#[derive(Copy, Clone, Debug)]
struct Layout {
    dims: usize,
    n: u32,
    cell: u32,
    pitch: u32,
    margin: u32,
    /// Boards across and down the grid.
    across: u32,
    down: u32,
}

impl Layout {
    fn new(shape: Shape, cell: u32) -> Layout {
        let dims = shape.dims();
        let n = shape.side() as u32;
        let gap = if dims > 2 { cell / 2 } else { 0 };
        let (across, down) = match dims {
            4 => (n, n),
            3 => (n, 1),
            _ => (1, 1),
        };
        Layout { dims, n, cell, pitch: n * cell + gap, margin: cell, across, down }
    }

    /// The size of the whole picture.
    fn size(&self) -> (u32, u32) {
        let rows = if self.dims == 1 { 1 } else { self.n };
        let w = 2 * self.margin + (self.across - 1) * self.pitch + self.n * self.cell;
        let h = 2 * self.margin + (self.down - 1) * self.pitch + rows * self.cell;
        (w, h)
    }

    /// The 1-based coordinates of a cell, padded with 1s to four.
    fn coords(&self, cell: Cell) -> [u32; 4] {
        let mut c = [1u32; 4];
        let mut i = cell.index() as u32;
        for slot in c.iter_mut().take(self.dims) {
            *slot = i % self.n + 1;
            i /= self.n;
        }
        c
    }

    /// The top-left corner of a cell.
    fn corner(&self, cell: Cell) -> (u32, u32) {
        let [x, y, z, w] = self.coords(cell);
        let (n, c, p, m) = (self.n, self.cell, self.pitch, self.margin);
        match self.dims {
            1 => (m + (x - 1) * c, m),
            2 => (m + (x - 1) * c, m + (n - y) * c),
            3 => (m + (z - 1) * p + (x - 1) * c, m + (n - y) * c),
            _ => (m + (w - 1) * p + (x - 1) * c, m + (n - z) * p + (n - y) * c),
        }
    }

    /// The centre of a cell (cell sizes are even, so centres are whole pixels).
    fn centre(&self, cell: Cell) -> (u32, u32) {
        let (x, y) = self.corner(cell);
        (x + self.cell / 2, y + self.cell / 2)
    }
}

impl Picture {
    /// An empty board of `shape`.
    pub fn new(shape: Shape) -> Picture {
        Picture {
            shape,
            pieces: Vec::new(),
            signs: Vec::new(),
            highlights: Vec::new(),
            arrows: Vec::new(),
            lines: Vec::new(),
            last_move: None,
            coordinates: true,
            style: PieceStyle::Glyphs,
            cell: 40,
        }
    }

    /// The pieces of `pos`, with its king marked when in check.
    pub fn of(pos: &Position) -> Picture {
        let mut p = Picture::new(pos.shape());
        p.pieces = pos.pieces().collect();
        if pos.is_check() {
            p.highlights.push((pos.king(pos.turn()), Highlight::Check));
        }
        p
    }

    /// Puts `piece` on `cell`.
    #[must_use]
    pub fn piece(mut self, cell: Cell, piece: Piece) -> Picture {
        self.pieces.retain(|&(c, _)| c != cell);
        self.pieces.push((cell, piece));
        self
    }

    /// Puts a sign on `cell`.
    #[must_use]
    pub fn sign(mut self, cell: Cell, sign: Sign) -> Picture {
        self.signs.push((cell, sign));
        self
    }

    /// Highlights `cell`.
    #[must_use]
    pub fn highlight(mut self, cell: Cell, how: Highlight) -> Picture {
        self.highlights.push((cell, how));
        self
    }

    /// An arrow from the centre of `from` to the centre of `to` (a move), in red.
    #[must_use]
    pub fn arrow(self, from: Cell, to: Cell) -> Picture {
        self.arrow_in(from, to, Stroke::Red)
    }

    /// An arrow in the color given.
    #[must_use]
    pub fn arrow_in(mut self, from: Cell, to: Cell, stroke: Stroke) -> Picture {
        self.arrows.push((from, to, stroke));
        self
    }

    /// A line through the centres of `from` and `to` (a completed line of a grid game).
    #[must_use]
    pub fn line(mut self, from: Cell, to: Cell, stroke: Stroke) -> Picture {
        self.lines.push((from, to, stroke));
        self
    }

    /// Marks the cells of the last move.
    #[must_use]
    pub fn last_move(mut self, from: Cell, to: Cell) -> Picture {
        self.last_move = Some((from, to));
        self
    }

    /// Draws coordinates around the boards (on by default).
    #[must_use]
    pub fn coordinates(mut self, on: bool) -> Picture {
        self.coordinates = on;
        self
    }

    /// How pieces are drawn: the piece set (the default) or letters in discs ([`PieceStyle`]).
    #[must_use]
    pub fn piece_style(mut self, style: PieceStyle) -> Picture {
        self.style = style;
        self
    }

    /// The side of a cell in pixels, 8 to 400, rounded down to an even number (40 by default).
    #[must_use]
    pub fn cell_size(mut self, px: u32) -> Picture {
        self.cell = px.clamp(8, 400) & !1;
        self
    }

    /// The centre of `cell` in the picture, in pixels from its top-left corner: where the SVG draws it.
    pub fn centre(&self, cell: Cell) -> (u32, u32) {
        Layout::new(self.shape, self.cell).centre(cell)
    }

    /// The SVG document.
    pub fn to_svg(&self) -> String {
        let l = Layout::new(self.shape, self.cell);
        let (width, height) = l.size();
        let c = l.cell;
        let mut s = String::with_capacity(64 * 1024);
        let _ = writeln!(
            s,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{width}\" height=\"{height}\" \
             viewBox=\"0 0 {width} {height}\" font-family=\"DejaVu Sans, Arial, sans-serif\">"
        );
        s.push_str(
            "<defs><marker id=\"head\" viewBox=\"0 0 10 10\" refX=\"5\" refY=\"5\" markerWidth=\"4\" \
             markerHeight=\"4\" orient=\"auto-start-reverse\"><path d=\"M0,0 L10,5 L0,10 z\" \
             fill=\"context-stroke\"/></marker></defs>\n",
        );
        let _ = writeln!(s, "<rect width=\"{width}\" height=\"{height}\" fill=\"#ffffff\"/>");

        // Squares: dark where the coordinates sum to an even number (a1 is dark). Each board is one
        // rectangle filled with a two-by-two checker pattern, the dark cell first or second.
        let rows = if l.dims == 1 { 1 } else { l.n };
        let _ = writeln!(
            s,
            "<defs>{}{}</defs>",
            checker("dark-first", c, "#b9c98f", "#eeeed2"),
            checker("light-first", c, "#eeeed2", "#b9c98f")
        );
        s.push_str("<g class=\"squares\">\n");
        let geo = self.shape.geometry();
        for cell in geo.all_cells() {
            // One board per top-left cell: x = 1 and y = n (the first row drawn).
            let k = l.coords(cell);
            if k[0] != 1 || (l.dims >= 2 && k[1] != rows) {
                continue;
            }
            let (x, y) = l.corner(cell);
            let sum: u32 = k[..l.dims].iter().sum();
            let pattern = if sum % 2 == 0 { "dark-first" } else { "light-first" };
            let _ = writeln!(
                s,
                "<rect class=\"board\" transform=\"translate({x},{y})\" width=\"{}\" height=\"{}\" fill=\"url(#{pattern})\"/>",
                l.n * c,
                rows * c
            );
        }
        for &(cell, sign) in &self.signs {
            if sign == Sign::Blocked {
                let (x, y) = l.corner(cell);
                let _ = writeln!(
                    s,
                    "<rect class=\"blocked\" x=\"{x}\" y=\"{y}\" width=\"{c}\" height=\"{c}\" fill=\"#8a8a8a\"/>"
                );
            }
        }
        s.push_str("</g>\n");
        if self.coordinates {
            self.coordinates_svg(&l, &mut s);
        }

        // Marks under the pieces.
        s.push_str("<g class=\"highlights\">\n");
        if let Some((from, to)) = self.last_move {
            for cell in [from, to] {
                let (x, y) = l.corner(cell);
                let _ = writeln!(
                    s,
                    "<rect class=\"last-move\" x=\"{x}\" y=\"{y}\" width=\"{c}\" height=\"{c}\" fill=\"#f7ec6e\" \
                     fill-opacity=\"0.6\"/>"
                );
            }
        }
        for &(cell, how) in &self.highlights {
            let (x, y) = l.corner(cell);
            let fill = match how {
                Highlight::Selected => "#ffd700",
                Highlight::Check => "#e03131",
                Highlight::Mark => "#51cf66",
                Highlight::Target | Highlight::Capture => continue,
            };
            let _ = writeln!(
                s,
                "<rect class=\"highlight\" x=\"{x}\" y=\"{y}\" width=\"{c}\" height=\"{c}\" fill=\"{fill}\" \
                 fill-opacity=\"0.8\"/>"
            );
        }
        s.push_str("</g>\n");

        s.push_str("<g class=\"pieces\">\n");
        for &(cell, piece) in &self.pieces {
            match self.style {
                PieceStyle::Glyphs => glyph_svg(&mut s, l.centre(cell), c, piece, l.dims),
                PieceStyle::Letters => letter_svg(&mut s, l.centre(cell), c, piece, l.dims),
            }
        }
        for &(cell, sign) in &self.signs {
            sign_svg(&mut s, l.centre(cell), c, sign);
        }
        s.push_str("</g>\n");

        // Targets on top of the pieces, then lines and arrows on top of everything.
        s.push_str("<g class=\"targets\">\n");
        for &(cell, how) in &self.highlights {
            let (x, y) = l.centre(cell);
            match how {
                Highlight::Target => {
                    let _ = writeln!(
                        s,
                        "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"#1e6ec8\" fill-opacity=\"0.7\"/>",
                        c / 6
                    );
                }
                Highlight::Capture => {
                    let _ = writeln!(
                        s,
                        "<circle cx=\"{x}\" cy=\"{y}\" r=\"{}\" fill=\"none\" stroke=\"#c8321e\" stroke-width=\"{}\"/>",
                        c * 45 / 100,
                        (c / 10).max(2)
                    );
                }
                _ => {}
            }
        }
        s.push_str("</g>\n");
        for &(from, to, stroke) in &self.lines {
            let ((x1, y1), (x2, y2)) = (l.centre(from), l.centre(to));
            let _ = writeln!(
                s,
                "<line class=\"line\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"{}\" \
                 stroke-linecap=\"round\" stroke-opacity=\"0.85\"/>",
                stroke.color(),
                (c / 8).max(2)
            );
        }
        for &(from, to, stroke) in &self.arrows {
            let ((x1, y1), (x2, y2)) = (l.centre(from), l.centre(to));
            let _ = writeln!(
                s,
                "<line class=\"arrow\" x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\" stroke=\"{}\" stroke-width=\"{}\" \
                 stroke-opacity=\"0.8\" marker-end=\"url(#head)\"/>",
                stroke.color(),
                (c / 8).max(2)
            );
        }
        s.push_str("</svg>\n");
        s
    }

    fn coordinates_svg(&self, l: &Layout, s: &mut String) {
        let font = (l.cell * 2 / 5).max(8);
        let (_, height) = l.size();
        let below = height - l.margin / 3;
        let left = l.margin / 2;
        let _ = writeln!(s, "<g class=\"coordinates\" font-size=\"{font}\" fill=\"#555\" text-anchor=\"middle\">");
        let geo = self.shape.geometry();
        let cell_at = |coords: [u8; 4]| geo.cell(&coords[..l.dims]).expect("on the board");
        let n = l.n as u8;
        let mid = n.div_ceil(2);
        match l.dims {
            1 | 2 => {
                for k in 1..=n {
                    let (x, _) = l.centre(cell_at([k, 1, 1, 1]));
                    let file = if l.dims == 2 { char::from(b'a' + k - 1).to_string() } else { k.to_string() };
                    let _ = writeln!(s, "<text x=\"{x}\" y=\"{below}\">{file}</text>");
                    if l.dims == 2 {
                        let (_, y) = l.centre(cell_at([1, k, 1, 1]));
                        let _ = writeln!(s, "<text x=\"{left}\" y=\"{}\">{k}</text>", y + font / 3);
                    }
                }
            }
            3 => {
                for k in 1..=n {
                    let (x, _) = l.centre(cell_at([mid, 1, k, 1]));
                    let _ = writeln!(s, "<text x=\"{x}\" y=\"{below}\">z{k}</text>");
                }
            }
            _ => {
                for k in 1..=n {
                    let (x, _) = l.centre(cell_at([mid, 1, 1, k]));
                    let _ = writeln!(s, "<text x=\"{x}\" y=\"{below}\">w{k}</text>");
                    let (_, y) = l.centre(cell_at([1, mid, k, 1]));
                    let _ = writeln!(s, "<text x=\"{left}\" y=\"{}\">z{k}</text>", y + font / 3);
                }
            }
        }
        s.push_str("</g>\n");
    }
}

/// A checker pattern of cells of side `c`: `first` at the top-left and bottom-right, `second` elsewhere.
fn checker(id: &str, c: u32, first: &str, second: &str) -> String {
    format!(
        "<pattern id=\"{id}\" width=\"{w}\" height=\"{w}\" patternUnits=\"userSpaceOnUse\">\
         <rect width=\"{w}\" height=\"{w}\" fill=\"{second}\"/><rect width=\"{c}\" height=\"{c}\" fill=\"{first}\"/>\
         <rect x=\"{c}\" y=\"{c}\" width=\"{c}\" height=\"{c}\" fill=\"{first}\"/></pattern>",
        w = 2 * c
    )
}

/// A piece of the piece set, its 45 × 45 box scaled to the cell and centred on it.
fn glyph_svg(s: &mut String, (x, y): (u32, u32), c: u32, piece: Piece, dims: usize) {
    let color = if piece.color == Color::White { "white" } else { "black" };
    let _ = write!(s, "<g class=\"piece {color} {}\" transform=\"translate({x},{y})\">", css_name(piece.role));
    let half = c / 2;
    let inner = format!(" transform=\"translate(-{half},-{half}) scale({})\"", format_scale(c));
    write_group(s, piece, dims, &inner);
    s.push_str("</g>\n");
}

fn letter_svg(s: &mut String, (x, y): (u32, u32), c: u32, piece: Piece, dims: usize) {
    let white = piece.color == Color::White;
    let (fill, ink) = if white { ("#fdfdfd", "#111111") } else { ("#2b2b2b", "#f4f4f4") };
    let color = if white { "white" } else { "black" };
    let _ = write!(s, "<g class=\"piece {color} {}\" transform=\"translate({x},{y})\">", css_name(piece.role));
    let r = i64::from(c) * 2 / 5;
    let outline = "stroke=\"#222222\" stroke-width=\"1.5\"";
    let small = r * 3 / 4;
    match piece.role {
        Role::Unicorn => {
            // A hexagon, pointy side up.
            let h = r * 866 / 1000;
            let _ = write!(
                s,
                "<polygon points=\"0,{} {h},{} {h},{} 0,{r} {},{} {},{}\" fill=\"{fill}\" {outline}/>",
                -r,
                -r / 2,
                r / 2,
                -h,
                r / 2,
                -h,
                -r / 2
            );
        }
        Role::Dragon => {
            let _ = write!(s, "<polygon points=\"0,{} {r},0 0,{r} {},0\" fill=\"{fill}\" {outline}/>", -r, -r);
        }
        Role::WPawn => {
            let _ = write!(
                s,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{fill}\" {outline}/>",
                -small,
                -small,
                2 * small,
                2 * small
            );
        }
        Role::YPawn => {
            let _ = write!(s, "<circle r=\"{small}\" fill=\"{fill}\" {outline}/>");
        }
        _ => {
            let _ = write!(s, "<circle r=\"{r}\" fill=\"{fill}\" {outline}/>");
        }
    }
    let letter = piece.char(dims).to_ascii_uppercase();
    let pawn = matches!(piece.role, Role::YPawn | Role::WPawn);
    let size = if pawn { c * 2 / 5 } else { c / 2 };
    let _ = writeln!(
        s,
        "<text y=\"{}\" font-size=\"{size}\" font-weight=\"bold\" fill=\"{ink}\" text-anchor=\"middle\">{letter}</text></g>",
        size * 35 / 100
    );
}

fn sign_svg(s: &mut String, (x, y): (u32, u32), c: u32, sign: Sign) {
    let r = c * 3 / 10;
    let width = (c / 9).max(2);
    match sign {
        Sign::Cross => {
            let _ = writeln!(
                s,
                "<path class=\"sign cross\" d=\"M{} {} L{} {} M{} {} L{} {}\" stroke=\"#c0392b\" stroke-width=\"{width}\" \
                 stroke-linecap=\"round\"/>",
                x - r,
                y - r,
                x + r,
                y + r,
                x + r,
                y - r,
                x - r,
                y + r
            );
        }
        Sign::Ring => {
            let _ = writeln!(
                s,
                "<circle class=\"sign ring\" cx=\"{x}\" cy=\"{y}\" r=\"{r}\" fill=\"none\" stroke=\"#2563a8\" \
                 stroke-width=\"{width}\"/>"
            );
        }
        Sign::Blocked => {}
    }
}
