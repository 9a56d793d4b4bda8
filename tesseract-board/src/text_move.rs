//! Moves as text, independent of any position (RULES.md §4).
//!
//! - 1D, 3D and 4D: one digit per coordinate of the from cell, then of the to cell, then an optional
//!   upper-case promotion letter: `22132313`, `24132513Q` (in 4D, `^[1-5]{8}[QRBNUD]?$` on a 5⁴ board),
//!   `121131` in 3D, `23` on a board of one axis (which has no pawns: a position refuses a promotion there).
//! - 2D: UCI long algebraic, `e2e4`, `e7e8q`. Castling is the king's two-step (`e1g1`) in classic mode and
//!   king-takes-own-rook (`e1h1`) in Chess960 mode.
//!
//! Every text [`TextMove`]'s `Display` writes, [`TextMove::parse`] reads back to the same value, on every
//! shape (boards of one axis too: RULES.md §4 says why they get a text rather than a refusal). `0000`, UCI's null move, is refused with its own error ([`TextMoveError::NullMove`]): it is no
//! move of the rules.
//!
//! A [`TextMove`] is only well-formed text: whether it is a legal move is for a position to say
//! (`tesseract-movegen` resolves it into a [`crate::Move`] or a typed error).

use std::fmt;

use crate::geometry::{Geometry, MAX_DIMS};
use crate::position::CastlingMode;
use crate::{Move, Position, Role};

/// A move as text, not yet checked against any position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct TextMove {
    dims: u8,
    from: [u8; MAX_DIMS],
    to: [u8; MAX_DIMS],
    promotion: Option<Role>,
}

/// Why a text is not a move.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum TextMoveError {
    /// Empty text.
    #[error("empty move text")]
    Empty,
    /// A character that does not belong at that place.
    #[error("unexpected {found:?} at offset {offset} of the move text: {expected}")]
    Unexpected {
        /// The offset of the character.
        offset: usize,
        /// What was found.
        found: char,
        /// What belongs there.
        expected: &'static str,
    },
    /// A 2D move text (it starts with a file letter) of the wrong length, in characters.
    #[error("move text of {0} characters: a 2D move text has 4 (e2e4) or 5 with a promotion (e7e8q)")]
    Length(usize),
    /// A move text of digits with a number of them that fits no board, or that belongs to the file
    /// letters of 2D (4 digits): the count of leading digits.
    #[error(
        "{count} coordinate digit{plural}: one per axis of the from cell and then of the to cell, so 2 on a board of one \
         axis (23), 6 in 3D (121131) or 8 in 4D (22132313); a 2D move text starts with a file letter (e2e4)",
        count = .0,
        plural = if *.0 == 1 { "" } else { "s" }
    )]
    Digits(usize),
    /// `0000`, UCI's null move ("no move"): not a move of the rules, so not a move text.
    #[error("0000 is a null move (UCI's \"no move\"), not a move of the rules")]
    NullMove,
    /// A cell of the board in use where a move was expected (`2213` on the 5⁴ board, `e4` on 8×8): a move
    /// names two cells. Only [`TextMove::parse_for`], which knows the board, says so.
    #[error(
        "it names one cell; a move names two, the from cell and then the to cell ({example})",
        example = example_move(*dims)
    )]
    Cell {
        /// The board's number of axes.
        dims: usize,
    },
    /// A move text of digits whose count is not the board's (one digit per axis of the from cell, then of
    /// the to cell): the count of leading digits, and the board's axes. Only [`TextMove::parse_for`],
    /// which knows the board, says so; [`TextMoveError::Digits`] is the same without a board.
    #[error(
        "{count} coordinate digit{plural}, but a move on this board has {expected}: {dims} for the from cell, \
         then {dims} for the to cell ({example})",
        plural = if *count == 1 { "" } else { "s" },
        expected = 2 * *dims,
        example = example_move(*dims)
    )]
    DigitCount {
        /// The number of leading digits in the text.
        count: usize,
        /// The board's number of axes.
        dims: usize,
    },
}

/// A move text for a board of `dims` axes, for error messages (any side of 3 or more has its cells).
fn example_move(dims: usize) -> &'static str {
    match dims {
        1 => "23",
        2 => "e2e4",
        3 => "121131",
        _ => "22132313",
    }
}

impl TextMove {
    /// A text move from 1-based coordinates (one per axis, 1 to 4 axes) and an optional promotion.
    ///
    /// # Panics
    /// If the two cells have different numbers of axes, or more than four.
    pub fn new(from: &[u8], to: &[u8], promotion: Option<Role>) -> TextMove {
        assert!(
            from.len() == to.len() && !from.is_empty() && from.len() <= MAX_DIMS,
            "from and to need 1..=4 coordinates each"
        );
        let mut f = [0; MAX_DIMS];
        let mut t = [0; MAX_DIMS];
        f[..from.len()].copy_from_slice(from);
        t[..to.len()].copy_from_slice(to);
        TextMove { dims: from.len() as u8, from: f, to: t, promotion }
    }

    /// Parses a move text. The form tells the board: a letter first means 2D UCI, digits mean one digit per
    /// coordinate (two digits on one axis, six in 3D, eight in 4D).
    ///
    /// # Errors
    /// [`TextMoveError`] saying where the text goes wrong.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{Role, TextMove, TextMoveError};
    /// let m: TextMove = "24132513Q".parse()?;
    /// assert_eq!(m.from(), &[2, 4, 1, 3]);
    /// assert_eq!(m.promotion(), Some(Role::Queen));
    /// assert_eq!("e7e8q".parse::<TextMove>()?.to_string(), "e7e8q");
    /// assert!("22132313\n".parse::<TextMove>().is_err());
    /// assert_eq!("23".parse::<TextMove>()?.to(), &[3]); // a board of one axis
    /// assert_eq!("0000".parse::<TextMove>(), Err(TextMoveError::NullMove));
    /// # Ok::<_, tesseract_board::TextMoveError>(())
    /// ```
    pub fn parse(text: &str) -> Result<TextMove, TextMoveError> {
        let bytes = text.as_bytes();
        if bytes.is_empty() {
            return Err(TextMoveError::Empty);
        }
        let unexpected = |offset: usize, expected| {
            // The offset is a byte offset and may fall inside a multi-byte character.
            let found = text.get(offset..).and_then(|rest| rest.chars().next()).unwrap_or(char::REPLACEMENT_CHARACTER);
            TextMoveError::Unexpected { offset, found, expected }
        };
        // A move text is ASCII: from here on a length in bytes is a length in characters.
        if let Some(i) = bytes.iter().position(|b| !b.is_ascii()) {
            return Err(unexpected(i, "an ASCII letter or digit"));
        }
        if text == "0000" {
            return Err(TextMoveError::NullMove);
        }
        if bytes[0].is_ascii_lowercase() {
            if !(4..=5).contains(&bytes.len()) {
                return Err(TextMoveError::Length(bytes.len()));
            }
            for (i, expected) in [(0, "a file letter a..i"), (2, "a file letter a..i")] {
                if !(b'a'..=b'i').contains(&bytes[i]) {
                    return Err(unexpected(i, expected));
                }
            }
            for i in [1, 3] {
                if !(b'1'..=b'9').contains(&bytes[i]) {
                    return Err(unexpected(i, "a rank digit 1..9"));
                }
            }
            let promotion = match bytes.get(4) {
                None => None,
                Some(&b) => match Role::from_upper_char((b as char).to_ascii_uppercase(), 2) {
                    Some(r) if b.is_ascii_lowercase() && Role::PROMOTIONS.contains(&r) => Some(r),
                    _ => return Err(unexpected(4, "a lower-case promotion letter q, r, b or n")),
                },
            };
            return Ok(TextMove::new(
                &[bytes[0] - b'a' + 1, bytes[1] - b'0'],
                &[bytes[2] - b'a' + 1, bytes[3] - b'0'],
                promotion,
            ));
        }
        let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
        if digits == 0 {
            return Err(unexpected(0, "a file letter (2D) or a coordinate digit"));
        }
        if digits % 2 == 1 && digits < bytes.len() {
            // The from and to cells have as many digits each: an odd count stops one digit short.
            return Err(unexpected(digits, "a coordinate digit"));
        }
        let dims = digits / 2;
        if digits % 2 == 1 || dims == 2 || dims > MAX_DIMS {
            return Err(TextMoveError::Digits(digits));
        }
        if let Some(i) = bytes[..digits].iter().position(|&b| b == b'0') {
            return Err(unexpected(i, "a coordinate digit 1..9"));
        }
        let promotion = match &bytes[digits..] {
            [] => None,
            [b] => match Role::from_upper_char(*b as char, dims) {
                Some(r) if Role::PROMOTIONS.contains(&r) => Some(r),
                _ => return Err(unexpected(digits, "an upper-case promotion letter Q, R, B, N, U or D")),
            },
            _ => return Err(unexpected(digits + 1, "the end of the move text")),
        };
        let coords: Vec<u8> = bytes[..digits].iter().map(|b| b - b'0').collect();
        Ok(TextMove::new(&coords[..dims], &coords[dims..], promotion))
    }

    /// Parses a move text typed for a board of `geometry`'s shape: as [`TextMove::parse`], but a text that
    /// is no move at all gets an error that says what this board expects: [`TextMoveError::Cell`] for one
    /// of its cells alone (`2213` on the 5⁴ board, `e4` on 8×8), [`TextMoveError::DigitCount`] for a count
    /// of digits that fits no board (on boards of 1, 3 or 4 axes), and [`TextMoveError::Unexpected`] at
    /// offset 0 for a text of the other kind (a file letter first on a board of digits, digits first in
    /// 2D), naming the form of this board's moves.
    ///
    /// The text is only read, not checked against the board: a text well formed for another board (six
    /// digits on the 5⁴ board) is returned as it is, and resolving it in a position says that its axes
    /// differ (tesseract-movegen's `MoveError::WrongDims`).
    ///
    /// # Errors
    /// [`TextMoveError`] saying where the text goes wrong, for this board.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, TextMove, TextMoveError};
    /// let board = start::tesseract(start::Army::Standard);
    /// let g = board.geometry();
    /// assert_eq!(TextMove::parse_for("22132313", g)?.to(), &[2, 3, 1, 3]);
    /// let err = TextMove::parse_for("2213", g).unwrap_err();
    /// assert_eq!(err, TextMoveError::Cell { dims: 4 });
    /// assert_eq!(err.to_string(), "it names one cell; a move names two, the from cell and then the to cell (22132313)");
    /// let err = TextMove::parse_for("221323", g).map(|m| m.dims());
    /// assert_eq!(err, Ok(3)); // well formed, for a 3D board
    /// assert_eq!(TextMove::parse_for("2213231", g), Err(TextMoveError::DigitCount { count: 7, dims: 4 }));
    /// let err = TextMove::parse_for("foo", g).unwrap_err();
    /// assert!(matches!(err, TextMoveError::Unexpected { offset: 0, found: 'f', .. }));
    /// # Ok::<_, TextMoveError>(())
    /// ```
    pub fn parse_for(text: &str, geometry: &Geometry) -> Result<TextMove, TextMoveError> {
        TextMove::parse(text).map_err(|e| {
            let dims = geometry.dims();
            if geometry.parse_cell(text).is_some() {
                return TextMoveError::Cell { dims };
            }
            // A text shaped for the other kind of board (a file letter first on a board of digits, digits
            // first in 2D) goes wrong at its first character, whatever the other kind would say of it.
            let first = text.chars().next().unwrap_or(char::REPLACEMENT_CHARACTER);
            let at_first = |expected| TextMoveError::Unexpected { offset: 0, found: first, expected };
            match e {
                TextMoveError::Digits(count) if dims != 2 => TextMoveError::DigitCount { count, dims },
                TextMoveError::Digits(_) => at_first("a file letter: a move on this board is written like e2e4"),
                _ if dims != 2 && first.is_ascii_lowercase() => at_first(match dims {
                    1 => "a coordinate digit: a move on this board is written like 23",
                    3 => "a coordinate digit: a move on this board is written like 121131",
                    _ => "a coordinate digit: a move on this board is written like 22132313",
                }),
                e => e,
            }
        })
    }

    /// The number of axes of the board the text is written for.
    #[inline]
    pub fn dims(&self) -> usize {
        self.dims as usize
    }

    /// The from cell's coordinates.
    #[inline]
    pub fn from(&self) -> &[u8] {
        &self.from[..self.dims()]
    }

    /// The to cell's coordinates.
    #[inline]
    pub fn to(&self) -> &[u8] {
        &self.to[..self.dims()]
    }

    /// The promotion piece.
    #[inline]
    pub fn promotion(&self) -> Option<Role> {
        self.promotion
    }

    /// The text of a move in `pos`: in 2D, castling is written as the king's two-step in classic mode and
    /// as king-takes-rook in Chess960 mode.
    pub fn from_move(m: Move, pos: &Position) -> TextMove {
        let g = pos.geometry();
        let d = g.dims();
        let from = g.coords(m.from);
        let mut to = g.coords(m.to);
        if d == 2 && pos.castling_mode() == CastlingMode::Standard {
            let king = pos.piece_at(m.from);
            let rook = pos.piece_at(m.to);
            if let (Some(k), Some(r)) = (king, rook) {
                if k.role == Role::King && r.role == Role::Rook && k.color == r.color {
                    to[0] = if to[0] > from[0] { 7 } else { 3 };
                }
            }
        }
        TextMove::new(&from[..d], &to[..d], m.promotion)
    }
}

impl std::str::FromStr for TextMove {
    type Err = TextMoveError;
    fn from_str(s: &str) -> Result<TextMove, TextMoveError> {
        TextMove::parse(s)
    }
}

impl fmt::Display for TextMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.dims == 2 {
            write!(
                f,
                "{}{}{}{}",
                (b'a' + self.from[0] - 1) as char,
                self.from[1],
                (b'a' + self.to[0] - 1) as char,
                self.to[1]
            )?;
            if let Some(p) = self.promotion {
                write!(f, "{}", p.upper_char(2).to_ascii_lowercase())?;
            }
        } else {
            for c in self.from().iter().chain(self.to()) {
                write!(f, "{c}")?;
            }
            if let Some(p) = self.promotion {
                write!(f, "{}", p.upper_char(self.dims()))?;
            }
        }
        Ok(())
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for TextMove {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for TextMove {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<TextMove, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        TextMove::parse(&s).map_err(serde::de::Error::custom)
    }
}

#[cfg(feature = "serde")]
impl serde::Serialize for Position {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Chess960 positions in Shredder-FEN, so that the file letters bring the mode back.
        let notation = match self.castling_mode() {
            CastlingMode::Standard => crate::fen::CastlingNotation::XFen,
            CastlingMode::Chess960 => crate::fen::CastlingNotation::Shredder,
        };
        s.serialize_str(&self.fen_with(notation))
    }
}

#[cfg(feature = "serde")]
impl<'de> serde::Deserialize<'de> for Position {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Position, D::Error> {
        let s = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Position::from_fen(&s).map_err(serde::de::Error::custom)
    }
}
