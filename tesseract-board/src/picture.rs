//! Text pictures of positions: [`Diagram`], with marks for a board UI in a terminal, and
//! [`std::fmt::Display`] for [`Position`] (the diagram without marks, then whose turn it is).
//!
//! A 4D position is drawn as the write-up draws it: a 5×5 grid of 5×5 boards, x and y inside each board
//! (x left to right, y bottom to top), z choosing the row of boards (z = 5 at the top) and w the column
//! (w = 1 on the left). Every 4D line, a rook's ray or a dragon's 4-agonal, is then a straight run of cells
//! in the picture. A 3D position is one row of boards (z left to right); a 2D position is the usual
//! diagram with files a–h and ranks 1–8. [`Diagram::from_side`] turns the picture for Black: the whole
//! picture by 180°, so every axis runs the other way (in 2D rank 1 at the top and file h on the left, as
//! Black sees the board; in 4D also the grid of boards, z = 1 at the top and w = 5 on the left).

use std::fmt::{self, Write as _};

use crate::{Cell, Color, Move, Position};

/// A text diagram of a position, with the marks a terminal board shows: the selected piece, the cells its
/// moves reach, the last move; plain text or with ANSI colours.
///
/// Every cell is two characters, a mark and the piece letter (`.` for an empty cell). In plain text the
/// mark is `>` on the selected piece, `*` before a piece that can be captured and `*` in place of the dot
/// on an empty target; with [`Diagram::ansi`] the marks are background colours (blue the selected piece,
/// red a capture, green an empty target, grey the last move's cells) and White's pieces are bright white,
/// Black's bright red. Without marks and colours the diagram is the position's [`Display`](fmt::Display)
/// picture without its last line.
///
/// # Examples
/// ```
/// use tesseract_board::picture::Diagram;
/// use tesseract_board::start;
/// let pos = start::chess();
/// let g = pos.geometry();
/// let (e2, e3, e4) = (g.parse_cell("e2").unwrap(), g.parse_cell("e3").unwrap(), g.parse_cell("e4").unwrap());
/// let text = Diagram::new(&pos).selected(Some(e2)).targets([e3, e4]).to_string();
/// assert!(text.contains("\n4 . . . . * . . .\n"));
/// assert!(text.contains("\n2 P P P P>P P P P\n"));
/// ```
#[derive(Clone, Debug)]
pub struct Diagram<'a> {
    pos: &'a Position,
    selected: Option<Cell>,
    targets: Vec<Cell>,
    last: Option<Move>,
    ansi: bool,
    /// Drawn from Black's side: every axis reversed.
    turned: bool,
}

impl<'a> Diagram<'a> {
    /// The diagram of `pos`, without marks, in plain text.
    pub fn new(pos: &'a Position) -> Diagram<'a> {
        Diagram { pos, selected: None, targets: Vec::new(), last: None, ansi: false, turned: false }
    }

    /// Draws the board as `side` sees it: White's side is the usual picture, Black's the same picture
    /// turned by 180° (every axis reversed, the labels with it).
    ///
    /// ```
    /// use tesseract_board::picture::Diagram;
    /// use tesseract_board::{start, Color};
    /// let pos = start::chess();
    /// let black = Diagram::new(&pos).from_side(Color::Black).to_string();
    /// assert!(black.starts_with("1 R N B K Q B N R\n"));
    /// assert!(black.ends_with("\n8 r n b k q b n r\n  h g f e d c b a\n"));
    /// ```
    #[must_use]
    pub fn from_side(mut self, side: Color) -> Diagram<'a> {
        self.turned = side == Color::Black;
        self
    }

    /// The coordinates 1..=n in the order the picture shows them along an axis drawn left to right (or,
    /// with `down`, top to bottom from n to 1), turned when the diagram is.
    fn order(&self, down: bool) -> Vec<u8> {
        let n = self.pos.geometry().side() as u8;
        let mut v: Vec<u8> = (1..=n).collect();
        if down != self.turned {
            v.reverse();
        }
        v
    }

    /// Marks the selected piece's cell.
    #[must_use]
    pub fn selected(mut self, cell: Option<Cell>) -> Diagram<'a> {
        self.selected = cell;
        self
    }

    /// Marks the cells the selected piece can reach.
    #[must_use]
    pub fn targets(mut self, cells: impl IntoIterator<Item = Cell>) -> Diagram<'a> {
        self.targets = cells.into_iter().collect();
        self
    }

    /// Marks the last move's two cells (with colours only: plain text has no mark for them).
    #[must_use]
    pub fn last_move(mut self, m: Option<Move>) -> Diagram<'a> {
        self.last = m;
        self
    }

    /// Draws with ANSI colour escapes (for a terminal) instead of plain marks.
    #[must_use]
    pub fn ansi(mut self, on: bool) -> Diagram<'a> {
        self.ansi = on;
        self
    }

    fn paint(&self, out: &mut String, text: &str, code: &str) {
        if self.ansi {
            write!(out, "\x1b[{code}m{text}\x1b[0m").expect("write to String");
        } else {
            out.push_str(text);
        }
    }

    /// One cell: a mark (or space) and the piece letter (or `.`).
    fn cell(&self, out: &mut String, cell: Cell) {
        let piece = self.pos.piece_at(cell);
        let ch = piece.map_or('.', |p| p.char(self.pos.geometry().dims()));
        let target = self.targets.contains(&cell);
        let selected = self.selected == Some(cell);
        if !self.ansi {
            let (mark, ch) = match (selected, target, piece) {
                (true, _, _) => ('>', ch),
                (_, true, None) => (' ', '*'),
                (_, true, Some(_)) => ('*', ch),
                _ => (' ', ch),
            };
            out.push(mark);
            out.push(ch);
            return;
        }
        let last = self.last.is_some_and(|m| m.from == cell || m.to == cell);
        let fg = match piece {
            Some(p) if p.color == Color::White => "1;97",
            Some(_) => "1;91",
            None => "2",
        };
        let bg = match (selected, target, piece.is_some(), last) {
            (true, ..) => ";44",
            (_, true, true, _) => ";41",
            (_, true, false, _) => ";42",
            (.., true) => ";100",
            _ => "",
        };
        let ch = if target && piece.is_none() { '*' } else { ch };
        out.push(' ');
        self.paint(out, &ch.to_string(), &format!("{fg}{bg}"));
    }

    /// A header line of board labels (`w=1`, `z=1`, …), one per board, trimmed.
    fn header(&self, out: &mut String, axis: char) {
        let n = self.pos.geometry().side() as u8;
        let mut line = String::from("      ");
        for k in self.order(false) {
            write!(line, "{:<width$}", format!("  {axis}={k}"), width = 2 * n as usize + 3).expect("write to String");
        }
        self.paint(out, line.trim_end(), "1");
        out.push('\n');
    }

    /// The boards of one grid row: `boards` gives the fixed outer coordinates (z, w) of each.
    fn board_row(&self, out: &mut String, label: &str, boards: &[(u8, u8)]) {
        let g = self.pos.geometry();
        let d = g.dims();
        let (ys, xs) = (self.order(true), self.order(false));
        for &y in &ys {
            let margin = if y == ys[0] { label } else { "" };
            self.paint(out, &format!("{margin:<6}"), "1");
            for (b, &(z, w)) in boards.iter().enumerate() {
                if b > 0 {
                    out.push_str("  ");
                }
                self.paint(out, &y.to_string(), "2");
                for &x in &xs {
                    let coords = [x, y, z, w];
                    self.cell(out, g.cell(&coords[..d]).expect("on the board"));
                }
            }
            out.push('\n');
        }
        out.push_str("      ");
        let xs: Vec<String> = xs.iter().map(|x| x.to_string()).collect();
        for b in 0..boards.len() {
            out.push_str(if b > 0 { "    " } else { "  " });
            self.paint(out, &xs.join(" "), "2");
        }
        out.push('\n');
    }
}

impl fmt::Display for Diagram<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.pos.geometry();
        let mut out = String::new();
        match g.dims() {
            1 => {
                for x in self.order(false) {
                    self.cell(&mut out, g.cell(&[x]).expect("on the board"));
                }
                // No label before the row: an unmarked first cell starts with its letter.
                if out.starts_with(' ') {
                    out.remove(0);
                }
                out.push('\n');
            }
            2 => {
                for y in self.order(true) {
                    self.paint(&mut out, &y.to_string(), "2");
                    for x in self.order(false) {
                        self.cell(&mut out, g.cell(&[x, y]).expect("on the board"));
                    }
                    out.push('\n');
                }
                out.push_str("  ");
                let files: Vec<String> =
                    self.order(false).iter().map(|x| ((b'a' + x - 1) as char).to_string()).collect();
                self.paint(&mut out, &files.join(" "), "2");
                out.push('\n');
            }
            3 => {
                self.header(&mut out, 'z');
                let boards: Vec<(u8, u8)> = self.order(false).iter().map(|&z| (z, 0)).collect();
                self.board_row(&mut out, "", &boards);
            }
            _ => {
                self.header(&mut out, 'w');
                let zs = self.order(true);
                for (i, &z) in zs.iter().enumerate() {
                    let boards: Vec<(u8, u8)> = self.order(false).iter().map(|&w| (z, w)).collect();
                    self.board_row(&mut out, &format!("z={z}"), &boards);
                    if i + 1 < zs.len() {
                        out.push('\n');
                    }
                }
            }
        }
        f.write_str(&out)
    }
}

impl fmt::Display for Position {
    /// Draws the position as the 5×5 grid of 5×5 boards (in 4D), then says whose turn it is: the
    /// [`Diagram`] without marks.
    ///
    /// ```
    /// use tesseract_board::start;
    /// let picture = start::chess().to_string();
    /// assert!(picture.starts_with("8 r n b q k b n r\n"));
    /// assert!(picture.ends_with("\n  a b c d e f g h\nwhite to move"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{} to move", Diagram::new(self), self.turn())
    }
}
