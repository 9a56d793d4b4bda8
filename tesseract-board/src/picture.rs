//! Text pictures of positions ([`std::fmt::Display`] for [`Position`]).
//!
//! A 4D position is drawn as the write-up draws it: a 5×5 grid of 5×5 boards, x and y inside each board
//! (x left to right, y bottom to top), z choosing the row of boards (z = 5 at the top) and w the column
//! (w = 1 on the left). Every 4D line, a rook's ray or a dragon's 4-agonal, is then a straight run of cells
//! in the picture. A 3D position is one row of boards (z left to right); a 2D position is the usual
//! diagram with files a–h and ranks 1–8.

use std::fmt::{self, Write as _};

use crate::{Cell, Position};

fn cell_char(pos: &Position, cell: Cell) -> char {
    pos.piece_at(cell).map_or('.', |p| p.char(pos.geometry().dims()))
}

/// Writes the boards in one grid row: `boards` gives the fixed outer coordinates (z, w) of each.
fn board_row(pos: &Position, out: &mut String, label: &str, boards: &[(u8, u8)]) {
    let g = pos.geometry();
    let d = g.dims();
    let n = g.side() as u8;
    for y in (1..=n).rev() {
        let margin = if y == n { label } else { "" };
        write!(out, "{margin:<6}").expect("write to String");
        for (b, &(z, w)) in boards.iter().enumerate() {
            if b > 0 {
                out.push_str("  ");
            }
            write!(out, "{y} ").expect("write to String");
            for x in 1..=n {
                let coords = [x, y, z, w];
                let cell = g.cell(&coords[..d]).expect("on the board");
                out.push(cell_char(pos, cell));
                if x < n {
                    out.push(' ');
                }
            }
        }
        out.push('\n');
    }
    out.push_str("      ");
    for b in 0..boards.len() {
        if b > 0 {
            out.push_str("  ");
        }
        out.push_str("  ");
        for x in 1..=n {
            write!(out, "{x}").expect("write to String");
            if x < n {
                out.push(' ');
            }
        }
    }
    out.push('\n');
}

impl fmt::Display for Position {
    /// Draws the position as the 5×5 grid of 5×5 boards (in 4D), then says whose turn it is.
    ///
    /// ```
    /// use tesseract_board::start;
    /// let picture = start::chess().to_string();
    /// assert!(picture.starts_with("8 r n b q k b n r\n"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geometry();
        let n = g.side() as u8;
        let mut out = String::new();
        match g.dims() {
            1 | 2 => {
                let d = g.dims();
                let ranks: Vec<u8> = if d == 1 { vec![1] } else { (1..=n).rev().collect() };
                for y in ranks {
                    if d == 2 {
                        write!(out, "{y} ").expect("write to String");
                    }
                    for x in 1..=n {
                        let coords = [x, y];
                        out.push(cell_char(self, g.cell(&coords[..d]).expect("on the board")));
                        if x < n {
                            out.push(' ');
                        }
                    }
                    out.push('\n');
                }
                if d == 2 {
                    out.push_str("  ");
                    for x in 0..n {
                        out.push((b'a' + x) as char);
                        if x + 1 < n {
                            out.push(' ');
                        }
                    }
                    out.push('\n');
                }
            }
            3 => {
                let boards: Vec<(u8, u8)> = (1..=n).map(|z| (z, 0)).collect();
                out.push_str("      ");
                for z in 1..=n {
                    write!(out, "{:<width$}", format!("  z={z}"), width = 2 * n as usize + 3).expect("write to String");
                }
                let trimmed = out.trim_end().len();
                out.truncate(trimmed);
                out.push('\n');
                board_row(self, &mut out, "", &boards);
            }
            _ => {
                out.push_str("      ");
                for w in 1..=n {
                    write!(out, "{:<width$}", format!("  w={w}"), width = 2 * n as usize + 3).expect("write to String");
                }
                let trimmed = out.trim_end().len();
                out.truncate(trimmed);
                out.push('\n');
                for z in (1..=n).rev() {
                    let boards: Vec<(u8, u8)> = (1..=n).map(|w| (z, w)).collect();
                    board_row(self, &mut out, &format!("z={z}"), &boards);
                    if z > 1 {
                        out.push('\n');
                    }
                }
            }
        }
        write!(out, "{} to move", self.turn()).expect("write to String");
        f.write_str(&out)
    }
}
