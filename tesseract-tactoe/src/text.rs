//! Text: cell names, the compact text form of a game state, and pictures.
//!
//! # The text form
//!
//! Two fields separated by one space, `placement side`, as in the TFEN of RULES.md §4:
//!
//! - placement: the board written as TFEN writes a 4D board of side 3, with `X` and `O` for the players'
//!   cells: w = 3..1 separated by `///`, inside each z = 3..1 separated by `//`, inside each y = 3..1
//!   separated by `/`, inside each row x = 1..3, a digit 1..3 standing for a run of free cells (the centre
//!   is always free). Runs are written whole, so every state has exactly one text.
//! - side: `X` or `O` for the player to claim next (it must agree with the counts: X has as many cells as O,
//!   or one more), `-` once all 80 cells are claimed.
//!
//! The scores are not written: every completed line counts for its owner, so they follow from the board.
//! The empty board is
//! `3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3 X`.
//!
//! # Pictures
//!
//! The board is drawn as the write-up draws it: a 3×3 grid of 3×3 boards. Inside each board x runs left to
//! right and y bottom to top; z picks the row of boards (z = 3 at the top) and w the column (w = 1 on the
//! left), as the board crate draws 4D positions. Every line is then a straight run of cells in the picture,
//! possibly jumping from board to board. The centre is drawn `#`.

use std::fmt::{self, Write as _};

use tesseract_board::Cell;

use crate::game::{Board, Game, Player};
use crate::hints::Hints;
use crate::lines::{CELLS, CENTRE, CLAIMABLE, bit, cell_name, geometry};

/// Why a cell name was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CellNameError {
    /// Not four characters.
    #[error("a cell is named by its four coordinates xyzw, each 1 to 3 (like 1323); {0:?} has {1} characters")]
    Length(String, usize),
    /// A character that is not 1, 2 or 3.
    #[error("a cell is named by its four coordinates xyzw, each 1 to 3 (like 1323); {0:?} has {1:?}")]
    Coordinate(String, char),
}

/// The cell named by its four coordinates `xyzw`, each 1..3 (`"1323"` is x=1, y=3, z=2, w=3). Spaces and
/// commas between the digits are allowed (`"1,3,2,3"`).
///
/// # Errors
/// [`CellNameError`] for anything else.
///
/// # Examples
/// ```
/// use tesseract_tactoe::{cell_name, parse_cell};
/// let cell = parse_cell("1323")?;
/// assert_eq!(cell.index(), 0 + 3 * 2 + 9 * 1 + 27 * 2);
/// assert_eq!(cell_name(cell), "1323");
/// assert!(parse_cell("1423").is_err());
/// # Ok::<_, tesseract_tactoe::CellNameError>(())
/// ```
pub fn parse_cell(text: &str) -> Result<Cell, CellNameError> {
    let digits: Vec<char> = text.trim().chars().filter(|c| !matches!(c, ' ' | ',')).collect();
    if let Some(&bad) = digits.iter().find(|c| !matches!(c, '1'..='3')) {
        return Err(CellNameError::Coordinate(text.to_string(), bad));
    }
    if digits.len() != 4 {
        return Err(CellNameError::Length(text.to_string(), digits.len()));
    }
    let coords = digits.iter().map(|&c| c as u8 - b'0').collect::<Vec<u8>>();
    geometry().cell(&coords).ok_or(CellNameError::Coordinate(text.to_string(), digits[0]))
}

/// Why a text form was refused. Each variant says what was wrong and where.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextError {
    /// Not exactly two fields separated by one space.
    #[error("a game state is two fields, placement and side to move, separated by one space; found {0} fields")]
    Fields(usize),
    /// A block does not have three slices.
    #[error("{what} has {found} parts separated by {separator:?}, expected 3")]
    Slices {
        /// Which block: "the placement", "w=2", "z=1 w=3"…
        what: String,
        /// The separator between its slices.
        separator: &'static str,
        /// How many parts it has.
        found: usize,
    },
    /// A row of three cells is malformed.
    #[error("row y={y} z={z} w={w} ({row:?}): {reason}")]
    Row {
        /// Its y.
        y: u8,
        /// Its z.
        z: u8,
        /// Its w.
        w: u8,
        /// Its text.
        row: String,
        /// What is wrong with it.
        reason: &'static str,
    },
    /// The centre is written as claimed.
    #[error("the centre 2222 is written as claimed by {0}, but it can never be claimed")]
    Centre(Player),
    /// The numbers of cells do not fit X claiming first.
    #[error("X holds {x} cells and O {o}: X claims first, so X holds as many as O or one more")]
    Counts {
        /// X's cells.
        x: usize,
        /// O's cells.
        o: usize,
    },
    /// The side field is not `X`, `O` or `-`.
    #[error("the side to move is X, O or - (game over), not {0:?}")]
    Side(String),
    /// The side field contradicts the counts.
    #[error("the side to move is written {found:?} but the counts of cells say {expected:?}")]
    WrongSide {
        /// What the counts say: `X`, `O` or `-`.
        expected: &'static str,
        /// What was written.
        found: String,
    },
}

fn side_text(board: &Board) -> &'static str {
    if board.claimed() == CLAIMABLE {
        "-"
    } else {
        match board.mover() {
            Player::X => "X",
            Player::O => "O",
        }
    }
}

fn at(x: u8, y: u8, z: u8, w: u8) -> usize {
    (x - 1) as usize + 3 * (y - 1) as usize + 9 * (z - 1) as usize + 27 * (w - 1) as usize
}

fn split3<'a>(
    text: &'a str,
    separator: &'static str,
    what: impl FnOnce() -> String,
) -> Result<[&'a str; 3], TextError> {
    let parts: Vec<&str> = text.split(separator).collect();
    match parts.as_slice() {
        [a, b, c] => Ok([a, b, c]),
        _ => Err(TextError::Slices { what: what(), separator, found: parts.len() }),
    }
}

fn parse_row(row: &str, y: u8, z: u8, w: u8, marks: &mut [u128; 2]) -> Result<(), TextError> {
    let err = |reason| TextError::Row { y, z, w, row: row.to_string(), reason };
    let mut x = 0u8;
    let mut after_digit = false;
    for c in row.chars() {
        match c {
            '1'..='3' => {
                if after_digit {
                    return Err(err("two run lengths in a row; write one digit per run"));
                }
                x += c as u8 - b'0';
                after_digit = true;
            }
            'X' | 'O' => {
                x += 1;
                if x <= 3 {
                    let p = if c == 'X' { 0 } else { 1 };
                    marks[p] |= bit(at(x, y, z, w));
                }
                after_digit = false;
            }
            _ => return Err(err("cells are X, O or a digit 1 to 3 for a run of free cells")),
        }
        if x > 3 {
            return Err(err("more than 3 cells"));
        }
    }
    if x < 3 {
        return Err(err("fewer than 3 cells"));
    }
    Ok(())
}

impl Game {
    /// The compact text form of the state: placement and side to move (see [`crate::text`]). The claims
    /// made so far are not part of it; [`Game::record`] writes them.
    ///
    /// # Examples
    /// ```
    /// use tesseract_tactoe::{parse_cell, Game};
    /// let mut game = Game::new();
    /// game.claim(parse_cell("1111")?)?;
    /// game.claim(parse_cell("3333")?)?;
    /// let text = game.text();
    /// assert_eq!(text, "2O/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/X2 X");
    /// assert_eq!(Game::from_text(&text)?.text(), text);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn text(&self) -> String {
        let board = self.board();
        let mut out = String::with_capacity(80);
        for w in (1..=3u8).rev() {
            for z in (1..=3u8).rev() {
                for y in (1..=3u8).rev() {
                    let mut run = 0;
                    for x in 1..=3u8 {
                        match board.owner(at(x, y, z, w)) {
                            None => run += 1,
                            Some(p) => {
                                if run > 0 {
                                    out.push((b'0' + run) as char);
                                    run = 0;
                                }
                                out.push(p.char());
                            }
                        }
                    }
                    if run > 0 {
                        out.push((b'0' + run) as char);
                    }
                    if y > 1 {
                        out.push('/');
                    }
                }
                if z > 1 {
                    out.push_str("//");
                }
            }
            if w > 1 {
                out.push_str("///");
            }
        }
        out.push(' ');
        out.push_str(side_text(board));
        out
    }

    /// Reads a state written by [`Game::text`]. The game has no claims to undo; its scores are counted from
    /// the board.
    ///
    /// # Errors
    /// [`TextError`], saying what is wrong and where, for anything but a valid state.
    pub fn from_text(text: &str) -> Result<Game, TextError> {
        let fields: Vec<&str> = text.split(' ').collect();
        let [placement, side] = fields.as_slice() else {
            return Err(TextError::Fields(fields.len()));
        };
        let mut marks = [0u128; 2];
        let ws = split3(placement, "///", || "the placement".to_string())?;
        for (wi, wtext) in ws.iter().enumerate() {
            let w = 3 - wi as u8;
            let zs = split3(wtext, "//", || format!("w={w}"))?;
            for (zi, ztext) in zs.iter().enumerate() {
                let z = 3 - zi as u8;
                let ys = split3(ztext, "/", || format!("z={z} w={w}"))?;
                for (yi, row) in ys.iter().enumerate() {
                    parse_row(row, 3 - yi as u8, z, w, &mut marks)?;
                }
            }
        }
        for p in Player::BOTH {
            if marks[p.index()] & bit(CENTRE.index()) != 0 {
                return Err(TextError::Centre(p));
            }
        }
        let (x, o) = (marks[0].count_ones() as usize, marks[1].count_ones() as usize);
        if x != o && x != o + 1 {
            return Err(TextError::Counts { x, o });
        }
        let board = Board::from_marks(marks);
        let expected = side_text(&board);
        if !matches!(*side, "X" | "O" | "-") {
            return Err(TextError::Side(side.to_string()));
        }
        if *side != expected {
            return Err(TextError::WrongSide { expected, found: side.to_string() });
        }
        Ok(Game::from_board(board))
    }

    /// The board drawn with `hints` marked: each hint line gets a letter (`a`, `b`, …, in the order of
    /// `hints.lines`) written after the mark of each of its cells; the hinted cell itself is marked `*`.
    /// Below the picture, one line per hint line: its letter, its cells, and how many its player holds.
    pub fn hint_picture(&self, hints: &Hints) -> String {
        let lines = crate::Lines::get();
        let mut tags = [' '; CELLS];
        for (i, hint) in hints.lines.iter().enumerate() {
            let letter = letter(i);
            for c in lines.line(hint.line).cells() {
                tags[c.index()] = letter;
            }
        }
        if hints.cell.index() < CELLS {
            tags[hints.cell.index()] = '*';
        }
        let mut out = draw(|i| format!("{}{}", self.cell_char(i), tags[i]));
        let _ = writeln!(
            out,
            "{} live line{} of {} through {}",
            hints.lines.len(),
            if hints.lines.len() == 1 { "" } else { "s" },
            hints.player,
            cell_name(hints.cell),
        );
        for (i, hint) in hints.lines.iter().enumerate() {
            let _ =
                writeln!(out, "  {} {}  {} holds {} of 3", letter(i), lines.line(hint.line), hints.player, hint.held);
        }
        out
    }

    fn cell_char(&self, index: usize) -> char {
        if index == CENTRE.index() { '#' } else { self.board().owner(index).map_or('.', Player::char) }
    }
}

fn letter(i: usize) -> char {
    (b'a' + (i % 26) as u8) as char
}

/// Draws the 3×3 grid of 3×3 boards, each cell written by `cell` (all of one width).
fn draw(cell: impl Fn(usize) -> String) -> String {
    let width = cell(0).chars().count();
    let board_width = 2 + 3 * (width + 1) - 1;
    let mut out = String::new();
    out.push_str("     ");
    for w in 1..=3 {
        let label = format!("w={w}");
        let _ = write!(out, "{label:^board_width$}   ");
    }
    out.truncate(out.trim_end().len());
    out.push('\n');
    for z in (1..=3u8).rev() {
        for y in (1..=3u8).rev() {
            let margin = if y == 3 { format!("z={z}") } else { String::new() };
            let _ = write!(out, "{margin:<5}");
            for w in 1..=3u8 {
                if w > 1 {
                    out.push_str("   ");
                }
                let _ = write!(out, "{y} ");
                for x in 1..=3u8 {
                    out.push_str(&cell(at(x, y, z, w)));
                    if x < 3 {
                        out.push(' ');
                    }
                }
            }
            out.truncate(out.trim_end().len());
            out.push('\n');
        }
        out.push_str("     ");
        for w in 1..=3 {
            if w > 1 {
                out.push_str("   ");
            }
            out.push_str("  ");
            for x in 1..=3 {
                let _ = write!(out, "{x:<width$}");
                if x < 3 {
                    out.push(' ');
                }
            }
        }
        out.truncate(out.trim_end().len());
        out.push('\n');
    }
    out
}

impl fmt::Display for Game {
    /// The picture (see [`crate::text`]), then the scores and whose turn it is or how the game ended.
    ///
    /// ```
    /// use tesseract_tactoe::Game;
    /// let picture = Game::new().to_string();
    /// assert!(picture.contains("z=2  3 . . .   3 . . .   3 . . .\n     2 . . .   2 . # .   2 . . .\n"));
    /// assert!(picture.ends_with("X 0  O 0  X to claim\n"));
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&draw(|i| self.cell_char(i).to_string()))?;
        let [x, o] = self.scores();
        write!(f, "X {x}  O {o}  ")?;
        match self.outcome() {
            Some(outcome) => writeln!(f, "game over: {outcome}"),
            None => writeln!(f, "{} to claim", self.to_move()),
        }
    }
}
