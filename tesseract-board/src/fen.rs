//! Position text: FEN, generalised to any number of axes (TFEN in 4D), RULES.md §4.
//!
//! Six fields separated by single spaces: `placement side castling en-passant halfmove fullmove` (the last
//! two may be left out together; they default to `0 1`). A d-dimensional placement lists its n slices along
//! the highest axis from coordinate n down to 1, separated by d−1 slashes; a row lists x = 1..n, a letter per
//! piece and a digit per run of empty cells. So 2D is FEN exactly, and the shape is read from the text: the
//! longest run of slashes gives the number of axes, the first row's length the side.
//!
//! The en passant field is `-` or the cell passed over (`e3`, `2313`). In 4D a Y-pawn and a W-pawn can, rarely,
//! both have passed over the same cell (a Y-pawn on (x,4,z,3) and a W-pawn on (x,3,z,4) both pass (x,3,z,3));
//! the four digits then cannot say which pawn may be taken, so that case alone is written with eight digits,
//! the target and then the pawn's cell (`13331334`). Every other text has the four digits of RULES.md §4.
//! Four digits in that case are read when no pawn of the side to move can capture there (which pawn passed
//! cannot matter; the field is dropped), and refused when one can.
//!
//! Castling rights (on the 8×8 board only) are read in any of the three usual forms, `KQkq`, X-FEN and Shredder-FEN, and
//! written as X-FEN (which is `KQkq` for classic positions) or, on request, Shredder-FEN.

use std::fmt::Write as _;

use crate::position::{CastlingMode, CastlingSide};
use crate::setup::PositionError;
use crate::{Cell, Color, Piece, Position, Setup, Shape};

/// Why a text is not a position text. Each variant names the field and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FenError {
    /// The text is empty.
    #[error("empty position text")]
    Empty,
    /// A byte that is not printable ASCII.
    #[error("byte {byte:#04x} at offset {offset} is not printable ASCII")]
    NotAscii {
        /// The offset.
        offset: usize,
        /// The byte.
        byte: u8,
    },
    /// Fields not separated by single spaces, or leading/trailing blanks.
    #[error("fields must be separated by single spaces, with no leading or trailing blanks")]
    Spacing,
    /// Not 4, 5 or 6 fields.
    #[error(
        "expected 6 fields (placement side castling en-passant halfmove fullmove; the last one or two may be left out), found {0}"
    )]
    FieldCount(usize),
    /// The placement's slashes do not describe a board.
    #[error("placement: {0}")]
    Placement(String),
    /// The side field is not `w` or `b`.
    #[error("side to move: expected 'w' or 'b', found {0:?}")]
    Side(String),
    /// The castling field is malformed.
    #[error("castling: {0}")]
    Castling(String),
    /// The en passant field is malformed.
    #[error("en passant: {0}")]
    EnPassant(String),
    /// The halfmove clock is not a number.
    #[error("halfmove clock: expected a number from 0 to 4294967295, found {0:?}")]
    Halfmove(String),
    /// The fullmove number is not a number.
    #[error("fullmove number: expected a number from 1 to 4294967295, found {0:?}")]
    Fullmove(String),
}

/// A text that is not a valid position: either malformed, or well-formed but not valid.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FromFenError {
    /// The text is malformed.
    #[error(transparent)]
    Fen(#[from] FenError),
    /// The text describes an invalid position.
    #[error(transparent)]
    Position(#[from] PositionError),
}

/// How castling rights are written.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum CastlingNotation {
    /// X-FEN: `KQkq` for the outermost rooks, a file letter only to disambiguate.
    #[default]
    XFen,
    /// Shredder-FEN: always the rook's file letter (`HAha` for the classic start).
    Shredder,
}

fn placement_err(msg: impl Into<String>) -> FenError {
    FenError::Placement(msg.into())
}

/// Names the row with index `i` (0 = the first row written) of a board of `d` axes and side `n`.
fn row_name(i: usize, d: usize, n: usize) -> String {
    let y = n - i % n;
    let z = n - (i / n) % n;
    let w = n - (i / (n * n)) % n;
    match d {
        1 => "the row".to_string(),
        2 => format!("rank {y}"),
        3 => format!("row y={y} of board z={z}"),
        _ => format!("row y={y} of board z={z}, w={w}"),
    }
}

fn parse_placement(text: &str) -> Result<(Shape, Vec<Option<Piece>>), FenError> {
    // Rows, each with the number of slashes that follow it.
    let mut rows: Vec<(&str, usize)> = Vec::new();
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'/' {
            let row = &text[start..i];
            let mut run = 0;
            while i < bytes.len() && bytes[i] == b'/' {
                run += 1;
                i += 1;
            }
            rows.push((row, run));
            start = i;
        } else {
            i += 1;
        }
    }
    rows.push((&text[start..], 0));
    let max_run = rows.iter().map(|r| r.1).max().unwrap_or(0);
    let d = max_run + 1;
    if d > crate::geometry::MAX_DIMS {
        return Err(placement_err(format!(
            "a run of {max_run} slashes means {d} axes; at most {} are supported",
            crate::geometry::MAX_DIMS
        )));
    }
    // The side is the length of the first row.
    let n = row_len(rows[0].0).map_err(|e| placement_err(format!("{}: {e}", row_name(0, d, 9))))?;
    let shape = Shape::new(d, n).map_err(|e| placement_err(format!("the first row has {n} cells: {e}")))?;
    let expected_rows = n.pow((d - 1) as u32);
    if rows.len() != expected_rows {
        return Err(placement_err(format!("{} rows, but a {shape} board has {expected_rows}", rows.len())));
    }
    let g = shape.geometry();
    let mut board = vec![None; shape.cells()];
    for (i, &(row, run)) in rows.iter().enumerate() {
        let name = row_name(i, d, n);
        let expect_run = if i + 1 == rows.len() {
            0
        } else {
            let mut level = 1;
            let mut k = i + 1;
            while level < d - 1 && k % n == 0 {
                level += 1;
                k /= n;
            }
            level
        };
        if run != expect_run {
            return Err(placement_err(format!(
                "after {name}: expected a separator of {expect_run} slash(es), found {run}"
            )));
        }
        let y = n - i % n;
        let z = n - (i / n) % n;
        let w = n - (i / (n * n)) % n;
        let mut x = 0usize;
        let mut last_digit = false;
        for c in row.chars() {
            if let Some(v) = c.to_digit(10) {
                if v == 0 {
                    return Err(placement_err(format!("{name}: '0' is not a run of empty cells")));
                }
                if last_digit {
                    return Err(placement_err(format!("{name}: two digits in a row; write one run of empty cells")));
                }
                last_digit = true;
                x += v as usize;
            } else if let Some(piece) = Piece::from_char(c, d) {
                last_digit = false;
                x += 1;
                if x <= n {
                    let coords = [x as u8, y as u8, z as u8, w as u8];
                    let cell = g.cell(&coords[..d]).expect("inside the board");
                    board[cell.index()] = Some(piece);
                }
            } else if c.is_ascii_alphabetic() {
                return Err(placement_err(format!("{name}: '{c}' is not a piece on a board of {d} axes")));
            } else {
                return Err(placement_err(format!("{name}: unexpected character {c:?}")));
            }
        }
        if x != n {
            return Err(placement_err(format!("{name} has {x} cells, expected {n}")));
        }
    }
    Ok((shape, board))
}

/// The number of cells a row text covers (digits as runs), without checking the letters.
fn row_len(row: &str) -> Result<usize, String> {
    if row.is_empty() {
        return Err("empty row".into());
    }
    let mut len = 0usize;
    for c in row.chars() {
        len += match c.to_digit(10) {
            Some(v) => v as usize,
            None => 1,
        };
    }
    Ok(len)
}

/// Parses a position text into a [`Setup`] (not yet validated).
///
/// # Errors
/// [`FenError`], naming the field and what is wrong.
///
/// # Examples
/// ```
/// use tesseract_board::{fen, Shape};
/// let setup = fen::parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1")?;
/// assert_eq!(setup.shape, Shape::CHESS);
/// let err = fen::parse("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBN b KQkq - 0 1").unwrap_err();
/// assert_eq!(err.to_string(), "placement: rank 1 has 7 cells, expected 8");
/// # Ok::<_, fen::FenError>(())
/// ```
pub fn parse(text: &str) -> Result<Setup, FenError> {
    if text.is_empty() {
        return Err(FenError::Empty);
    }
    if let Some((offset, &byte)) =
        text.as_bytes().iter().enumerate().find(|(_, b)| !(b.is_ascii_graphic() || **b == b' '))
    {
        return Err(FenError::NotAscii { offset, byte });
    }
    let fields: Vec<&str> = text.split(' ').collect();
    if fields.iter().any(|f| f.is_empty()) {
        return Err(FenError::Spacing);
    }
    if !(4..=6).contains(&fields.len()) {
        return Err(FenError::FieldCount(fields.len()));
    }
    let (shape, board) = parse_placement(fields[0])?;
    let g = shape.geometry();
    let turn = match fields[1] {
        "w" => Color::White,
        "b" => Color::Black,
        other => return Err(FenError::Side(other.to_string())),
    };
    let mut setup = Setup {
        shape,
        board,
        turn,
        castling: Vec::new(),
        en_passant: None,
        en_passant_pawn: None,
        halfmove: 0,
        fullmove: 1,
    };
    setup.castling = parse_castling(fields[2], &setup)?;
    if fields[3] != "-" {
        let field = fields[3];
        let bad = || FenError::EnPassant(format!("{field:?} is not '-' or a cell of a {shape} board"));
        // In 3D and 4D, twice as many digits name the target and then the pawn that passed over it.
        let (target, pawn) = match field.split_at_checked(g.dims()) {
            Some((t, p)) if g.dims() > 2 && p.len() == g.dims() => (t, Some(p)),
            _ => (field, None),
        };
        setup.en_passant = Some(g.parse_cell(target).ok_or_else(bad)?);
        setup.en_passant_pawn = match pawn {
            Some(p) => Some(g.parse_cell(p).ok_or_else(bad)?),
            None => None,
        };
    }
    // Four fields (EPD), five (the fullmove number left out, as some programs write) or six.
    if let Some(field) = fields.get(4) {
        setup.halfmove = parse_number(field).ok_or_else(|| FenError::Halfmove(field.to_string()))?;
    }
    if let Some(field) = fields.get(5) {
        setup.fullmove = parse_number(field).ok_or_else(|| FenError::Fullmove(field.to_string()))?;
    }
    Ok(setup)
}

fn parse_number(s: &str) -> Option<u32> {
    if s.is_empty() || !s.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    s.parse().ok()
}

fn parse_castling(field: &str, setup: &Setup) -> Result<Vec<Cell>, FenError> {
    if field == "-" {
        return Ok(Vec::new());
    }
    let g = setup.shape.geometry();
    if g.dims() != 2 || g.side() != 8 {
        return Err(FenError::Castling(format!(
            "expected '-': there is no castling on a {} board (only on 8×8)",
            g.shape()
        )));
    }
    let n = g.side() as u8;
    let mut cells = Vec::new();
    for c in field.chars() {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let rank = if color == Color::White { 1 } else { n };
        let king_file = g
            .all_cells()
            .find(|&cell| g.coord(cell, 1) == rank && setup.piece(cell) == Some(Piece::new(color, crate::Role::King)))
            .map(|cell| g.coord(cell, 0));
        let rook_at = |file: u8| g.cell(&[file, rank]).expect("on the board");
        let is_rook = |file: u8| setup.piece(rook_at(file)) == Some(Piece::new(color, crate::Role::Rook));
        let file = match c.to_ascii_uppercase() {
            'K' => {
                let kf = king_file.unwrap_or(1);
                (kf + 1..=n).rev().find(|&f| is_rook(f)).unwrap_or(n)
            }
            'Q' => {
                let kf = king_file.unwrap_or(n);
                (1..kf).find(|&f| is_rook(f)).unwrap_or(1)
            }
            f @ 'A'..='Z' if (f as u8 - b'A') < n => f as u8 - b'A' + 1,
            _ => return Err(FenError::Castling(format!("{c:?} is not K, Q, k, q or a file letter of this board"))),
        };
        let cell = rook_at(file);
        if cells.contains(&cell) {
            return Err(FenError::Castling(format!("the right {c:?} is given twice")));
        }
        cells.push(cell);
    }
    cells.sort();
    Ok(cells)
}

/// Why a [`Setup`] cannot be written as position text: the text would read back as another setup.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SetupTextError {
    /// The board vector does not have one entry per cell.
    #[error("the board has {found} entries, but a {shape} board has {expected} cells")]
    BoardSize {
        /// The board's shape.
        shape: Shape,
        /// Its number of cells.
        expected: usize,
        /// The entries given.
        found: usize,
    },
    /// A castling right that the castling field cannot say.
    #[error("castling right {cell}: {reason}")]
    Castling {
        /// The rook's cell (its index when off the board).
        cell: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// An en passant state that the en passant field cannot say.
    #[error("en passant: {0}")]
    EnPassant(&'static str),
}

impl Setup {
    /// The position text of this setup, castling rights written in `notation`: a text that reads back
    /// ([`Setup::from_str`](std::str::FromStr)) to this very setup. Castling rights that the chosen notation
    /// would name ambiguously (a `K` with no rook on its side, say) are written as file letters, which
    /// always read back to the same rook cells.
    ///
    /// # Errors
    /// [`SetupTextError`] for a setup no text can carry: a board vector of the wrong length, castling
    /// rights off the 8×8 board's back ranks or given twice, an en passant cell or pawn off the board, or an
    /// en passant pawn without a cell or on a 2D board (where the text has no room for it).
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{Setup, fen::CastlingNotation};
    /// let mut setup: Setup = "4k3/8/8/8/8/8/8/4K3 w - - 0 1".parse()?;
    /// // A right for a rook on c1 that is not there: `Q` would read back as a1, so the file letter is written.
    /// setup.castling = vec![setup.shape.geometry().parse_cell("c1").unwrap()];
    /// let text = setup.fen_with(CastlingNotation::XFen)?;
    /// assert_eq!(text, "4k3/8/8/8/8/8/8/4K3 w C - 0 1");
    /// assert_eq!(text.parse::<Setup>()?, setup);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn fen_with(&self, notation: CastlingNotation) -> Result<String, SetupTextError> {
        self.check_writable()?;
        let text = self.write(notation);
        let castling_field = text.split(' ').nth(2).expect("six fields");
        match parse_castling(castling_field, self) {
            Ok(cells) if cells == self.castling => Ok(text),
            _ => Ok(self.write(CastlingNotation::Shredder)),
        }
    }

    /// The position text, castling rights in X-FEN (`KQkq` for classic positions); see
    /// [`Setup::fen_with`].
    ///
    /// # Errors
    /// As [`Setup::fen_with`].
    pub fn fen(&self) -> Result<String, SetupTextError> {
        self.fen_with(CastlingNotation::XFen)
    }

    fn check_writable(&self) -> Result<(), SetupTextError> {
        let g = self.shape.geometry();
        if self.board.len() != g.cells() {
            return Err(SetupTextError::BoardSize { shape: self.shape, expected: g.cells(), found: self.board.len() });
        }
        let n = g.side() as u8;
        for (i, &rook) in self.castling.iter().enumerate() {
            let err = |reason| SetupTextError::Castling {
                cell: if g.contains(rook) { g.cell_name(rook) } else { rook.to_string() },
                reason,
            };
            if self.shape != Shape::CHESS {
                return Err(err("there is no castling on this board (only on 8×8)"));
            }
            if !g.contains(rook) {
                return Err(err("the cell is not on the board"));
            }
            if g.coord(rook, 1) != 1 && g.coord(rook, 1) != n {
                return Err(err("a castling rook stands on its back rank"));
            }
            if self.castling[..i].contains(&rook) || self.castling.get(i + 1).is_some_and(|&next| next < rook) {
                return Err(err("the rights must be distinct and in cell order"));
            }
        }
        match (self.en_passant, self.en_passant_pawn) {
            (Some(target), _) if !g.contains(target) => Err(SetupTextError::EnPassant("the cell is not on the board")),
            (_, Some(pawn)) if !g.contains(pawn) => Err(SetupTextError::EnPassant("the pawn is not on the board")),
            (None, Some(_)) => Err(SetupTextError::EnPassant("a pawn is named but no en passant cell")),
            (Some(_), Some(_)) if g.dims() < 3 => {
                Err(SetupTextError::EnPassant("a 2D text names the en passant cell only, not the pawn"))
            }
            _ => Ok(()),
        }
    }

    /// Writes the text of a setup that [`Setup::check_writable`] accepts (or of a valid position).
    pub(crate) fn write(&self, notation: CastlingNotation) -> String {
        let g = self.shape.geometry();
        let d = g.dims();
        let n = g.side();
        let mut out = String::new();
        let rows = n.pow((d - 1) as u32);
        for i in 0..rows {
            let y = n - i % n;
            let z = n - (i / n) % n;
            let w = n - (i / (n * n)) % n;
            let mut empty = 0;
            for x in 1..=n {
                let coords = [x as u8, y as u8, z as u8, w as u8];
                let cell = g.cell(&coords[..d]).expect("on the board");
                match self.piece(cell) {
                    Some(p) => {
                        if empty > 0 {
                            write!(out, "{empty}").expect("write to String");
                            empty = 0;
                        }
                        out.push(p.char(d));
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                write!(out, "{empty}").expect("write to String");
            }
            if i + 1 < rows {
                let mut level = 1;
                let mut k = i + 1;
                while level < d - 1 && k % n == 0 {
                    level += 1;
                    k /= n;
                }
                out.extend(std::iter::repeat_n('/', level));
            }
        }
        out.push(' ');
        out.push(self.turn.char());
        out.push(' ');
        out.push_str(&self.castling_text(notation));
        out.push(' ');
        match self.en_passant {
            Some(c) => {
                out.push_str(&g.cell_name(c));
                // The pawn too when it is named (a position names it only where the cell alone is ambiguous).
                if let Some(pawn) = self.en_passant_pawn {
                    out.push_str(&g.cell_name(pawn));
                }
            }
            None => out.push('-'),
        }
        write!(out, " {} {}", self.halfmove, self.fullmove).expect("write to String");
        out
    }

    fn castling_text(&self, notation: CastlingNotation) -> String {
        let g = self.shape.geometry();
        if self.castling.is_empty() || g.dims() != 2 {
            return "-".into();
        }
        let n = g.side() as u8;
        let mut out = String::new();
        for color in Color::ALL {
            let rank = if color == Color::White { 1 } else { n };
            let king_file = g
                .all_cells()
                .find(|&c| g.coord(c, 1) == rank && self.piece(c) == Some(Piece::new(color, crate::Role::King)))
                .map(|c| g.coord(c, 0))
                .unwrap_or(0);
            let mut mine: Vec<Cell> = self.castling.iter().copied().filter(|&c| g.coord(c, 1) == rank).collect();
            // King side first, then queen side.
            mine.sort_by_key(|&c| std::cmp::Reverse(g.coord(c, 0)));
            for rook in mine {
                let file = g.coord(rook, 0);
                let side = if file > king_file { CastlingSide::King } else { CastlingSide::Queen };
                let outermost = match side {
                    CastlingSide::King => (file + 1..=n).all(|f| !self.is_rook(color, f, rank)),
                    CastlingSide::Queen => (1..file).all(|f| !self.is_rook(color, f, rank)),
                };
                let c = if notation == CastlingNotation::XFen && outermost {
                    if side == CastlingSide::King { 'K' } else { 'Q' }
                } else {
                    (b'A' + file - 1) as char
                };
                out.push(if color == Color::White { c } else { c.to_ascii_lowercase() });
            }
        }
        out
    }

    fn is_rook(&self, color: Color, file: u8, rank: u8) -> bool {
        let g = self.shape.geometry();
        g.cell(&[file, rank]).is_some_and(|c| self.piece(c) == Some(Piece::new(color, crate::Role::Rook)))
    }
}

impl std::str::FromStr for Setup {
    type Err = FenError;
    fn from_str(s: &str) -> Result<Setup, FenError> {
        parse(s)
    }
}

impl std::str::FromStr for Position {
    type Err = FromFenError;

    /// [`Position::from_fen`]: `"8/8/4k3/8/8/8/8/4K3 w - - 0 1".parse::<Position>()`.
    fn from_str(text: &str) -> Result<Position, FromFenError> {
        Position::from_fen(text)
    }
}

impl Position {
    /// Parses and validates a position text. The castling mode is Chess960 when the rights are written
    /// with file letters or name rooks or a king off their classic cells, and classic otherwise.
    ///
    /// # Errors
    /// [`FromFenError::Fen`] for a malformed text, [`FromFenError::Position`] for a well-formed text
    /// that is not a valid position.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Position};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// assert_eq!(pos.fen(), "4k3/8/8/8/8/8/8/4K2R w K - 0 1");
    /// let tfen = start::tesseract(start::Army::Light).fen();
    /// assert_eq!(Position::from_fen(&tfen)?, start::tesseract(start::Army::Light));
    /// # Ok::<_, tesseract_board::FromFenError>(())
    /// ```
    pub fn from_fen(text: &str) -> Result<Position, FromFenError> {
        let setup = parse(text)?;
        let mode = if castling_is_classic(&setup, text) { CastlingMode::Standard } else { CastlingMode::Chess960 };
        Ok(Position::from_setup(setup, mode)?)
    }

    /// Parses and validates a position text in a given castling mode.
    ///
    /// The text has six fields, or five (fullmove number 1) or four (the EPD position: clocks 0 and 1).
    ///
    /// # Errors
    /// As [`Position::from_fen`].
    pub fn from_fen_with_mode(text: &str, mode: CastlingMode) -> Result<Position, FromFenError> {
        Ok(Position::from_setup(parse(text)?, mode)?)
    }

    /// The position text: FEN in 2D (castling in X-FEN, which is `KQkq` for classic positions), TFEN in 4D.
    pub fn fen(&self) -> String {
        self.fen_with(CastlingNotation::XFen)
    }

    /// The position text with castling rights in the chosen notation.
    pub fn fen_with(&self, notation: CastlingNotation) -> String {
        self.to_setup().write(notation)
    }
}

fn castling_is_classic(setup: &Setup, text: &str) -> bool {
    let castling_field = text.split(' ').nth(2).unwrap_or("-");
    if castling_field.chars().any(|c| !matches!(c, 'K' | 'Q' | 'k' | 'q' | '-')) {
        return false;
    }
    let g = setup.shape.geometry();
    setup.castling.iter().all(|&rook| {
        let rank = g.coord(rook, 1);
        let file = g.coord(rook, 0);
        let king = g.cell(&[5, rank]);
        g.side() == 8
            && (file == 1 || file == 8)
            && king.and_then(|k| setup.piece(k)).is_some_and(|p| p.role == crate::Role::King)
    })
}
