//! Material: which pieces stand on the board, written as text (`KQK`, `KRKN`, `KUUK`).

use std::fmt;

use tesseract_board::{Color, Position, Role};

/// The most pieces, kings included, that a table may hold.
pub const MAX_PIECES: usize = 4;

/// The pieces of a pawnless ending: a king for each side and up to two more pieces in all.
///
/// Written as in endgame literature: White's king and pieces, then Black's king and pieces, pieces in the
/// order Q, R, B, N, U, D (`KQKR`: White has a queen, Black a rook). A table is always built for the
/// *normalized* material, the stronger side as White ([`Material::normalized`]); probing a position where
/// Black is the stronger side swaps the colors.
///
/// # Examples
/// ```
/// use tesseract_tablebase::Material;
/// let m: Material = "KRKQ".parse()?;
/// assert_eq!(m.to_string(), "KRKQ");
/// assert_eq!(m.normalized().0.to_string(), "KQKR");
/// assert!("KPK".parse::<Material>().is_err());
/// # Ok::<_, tesseract_tablebase::MaterialError>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Material {
    white: Vec<Role>,
    black: Vec<Role>,
}

/// Why a text names no material this crate can build a table for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MaterialError {
    /// The text is empty.
    #[error("empty material: write it like KQK or KRKN")]
    Empty,
    /// The text does not start with White's king.
    #[error("material {text:?} must start with White's king K")]
    NoWhiteKing {
        /// The text.
        text: String,
    },
    /// There is no second `K` for Black's king, or more than two.
    #[error("material {text:?} needs exactly two kings (K...K...), found {kings}")]
    Kings {
        /// The text.
        text: String,
        /// How many `K` it has.
        kings: usize,
    },
    /// A letter is not a piece.
    #[error("material {text:?}: {letter:?} at position {at} is not a piece (K Q R B N U D)")]
    Letter {
        /// The text.
        text: String,
        /// The letter.
        letter: char,
        /// Its position in the text (0-based, in characters).
        at: usize,
    },
    /// A pawn: tables here are for pawnless endings.
    #[error("material {text:?}: pawns are not supported (pawnless endings only), found {letter:?} at position {at}")]
    Pawn {
        /// The text.
        text: String,
        /// The letter.
        letter: char,
        /// Its position in the text.
        at: usize,
    },
    /// More pieces than [`MAX_PIECES`].
    #[error("material {text:?} has {count} pieces; tables hold at most {MAX_PIECES}, kings included")]
    TooMany {
        /// The text.
        text: String,
        /// The number of pieces.
        count: usize,
    },
}

impl Material {
    /// Material from the non-king pieces of each side (any order).
    ///
    /// # Errors
    /// [`MaterialError::Pawn`] for a pawn or a king among them, [`MaterialError::TooMany`] beyond
    /// [`MAX_PIECES`] in all.
    pub fn new(white: &[Role], black: &[Role]) -> Result<Material, MaterialError> {
        let mut m = Material { white: white.to_vec(), black: black.to_vec() };
        m.white.sort();
        m.black.sort();
        if let Some((at, &role)) = white.iter().chain(black).enumerate().find(|(_, r)| r.is_pawn() || **r == Role::King)
        {
            return Err(MaterialError::Pawn { text: m.to_string(), letter: role.upper_char(4), at });
        }
        if m.count() > MAX_PIECES {
            return Err(MaterialError::TooMany { text: m.to_string(), count: m.count() });
        }
        Ok(m)
    }

    /// The material of a position (as it stands, not normalized).
    ///
    /// # Errors
    /// [`MaterialError::Pawn`] when it has pawns, [`MaterialError::TooMany`] beyond [`MAX_PIECES`].
    pub fn of(pos: &Position) -> Result<Material, MaterialError> {
        let mut sides: [Vec<Role>; 2] = [Vec::new(), Vec::new()];
        for (_, piece) in pos.pieces() {
            if piece.role != Role::King {
                sides[piece.color.index()].push(piece.role);
            }
        }
        Material::new(&sides[0], &sides[1])
    }

    /// The number of pieces, kings included.
    pub fn count(&self) -> usize {
        2 + self.white.len() + self.black.len()
    }

    /// The non-king pieces of one side, in the order Q, R, B, N, U, D.
    pub fn pieces(&self, color: Color) -> &[Role] {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// Every piece in table order: White's king, Black's king, White's pieces, Black's pieces.
    pub fn layout(&self) -> Vec<(Color, Role)> {
        let mut out = vec![(Color::White, Role::King), (Color::Black, Role::King)];
        out.extend(self.white.iter().map(|&r| (Color::White, r)));
        out.extend(self.black.iter().map(|&r| (Color::Black, r)));
        out
    }

    /// The same material with the colors swapped.
    #[must_use]
    pub fn swapped(&self) -> Material {
        Material { white: self.black.clone(), black: self.white.clone() }
    }

    /// The material with the stronger side as White, and whether the colors were swapped to get it.
    ///
    /// The stronger side is the one with more pieces, then the one whose pieces, in the order Q, R, B, N,
    /// U, D, come first; with equal material (`KQKQ`) White stays White.
    pub fn normalized(&self) -> (Material, bool) {
        let key = |side: &[Role]| (std::cmp::Reverse(side.len()), side.to_vec());
        if key(&self.black) < key(&self.white) { (self.swapped(), true) } else { (self.clone(), false) }
    }

    /// Whether every piece exists on a board of `dims` axes (a unicorn needs 3, a dragon 4).
    pub fn exists_in(&self, dims: usize) -> bool {
        self.white.iter().chain(&self.black).all(|r| r.exists_in(dims))
    }

    /// The materials one capture leads to (a non-king piece of either side removed), each once.
    pub fn after_captures(&self) -> Vec<Material> {
        let mut out = Vec::new();
        for i in 0..self.white.len() {
            let mut m = self.clone();
            m.white.remove(i);
            out.push(m);
        }
        for i in 0..self.black.len() {
            let mut m = self.clone();
            m.black.remove(i);
            out.push(m);
        }
        out.sort();
        out.dedup();
        out
    }
}

impl fmt::Display for Material {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("K")?;
        for r in &self.white {
            write!(f, "{}", r.upper_char(4))?;
        }
        f.write_str("K")?;
        for r in &self.black {
            write!(f, "{}", r.upper_char(4))?;
        }
        Ok(())
    }
}

impl std::str::FromStr for Material {
    type Err = MaterialError;

    fn from_str(text: &str) -> Result<Material, MaterialError> {
        if text.is_empty() {
            return Err(MaterialError::Empty);
        }
        let owned = || text.to_string();
        if !text.starts_with('K') {
            return Err(MaterialError::NoWhiteKing { text: owned() });
        }
        let kings = text.chars().filter(|&c| c == 'K').count();
        if kings != 2 {
            return Err(MaterialError::Kings { text: owned(), kings });
        }
        let mut sides: [Vec<Role>; 2] = [Vec::new(), Vec::new()];
        let mut side = 0;
        for (at, c) in text.chars().enumerate().skip(1) {
            if c == 'K' {
                side = 1;
                continue;
            }
            match c {
                'P' | 'Y' | 'W' => return Err(MaterialError::Pawn { text: owned(), letter: c, at }),
                _ => match Role::from_upper_char(c, 4) {
                    Some(role) => sides[side].push(role),
                    None => return Err(MaterialError::Letter { text: owned(), letter: c, at }),
                },
            }
        }
        let count = 2 + sides[0].len() + sides[1].len();
        if count > MAX_PIECES {
            return Err(MaterialError::TooMany { text: owned(), count });
        }
        Material::new(&sides[0], &sides[1])
    }
}
