//! Colors, piece kinds ([`Role`]) and pieces.

use std::fmt;

/// A side: White moves first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Color {
    /// Moves first; upper-case letters.
    White = 0,
    /// Lower-case letters.
    Black = 1,
}

impl Color {
    /// Both colors, White first.
    pub const ALL: [Color; 2] = [Color::White, Color::Black];

    /// The other color.
    #[inline]
    #[must_use]
    pub const fn other(self) -> Color {
        match self {
            Color::White => Color::Black,
            Color::Black => Color::White,
        }
    }

    /// 0 for White, 1 for Black.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// +1 for White, −1 for Black: the direction in which its pawns advance.
    #[inline]
    pub const fn forward(self) -> i8 {
        match self {
            Color::White => 1,
            Color::Black => -1,
        }
    }

    /// `w` or `b`, as in the side field of FEN.
    pub const fn char(self) -> char {
        match self {
            Color::White => 'w',
            Color::Black => 'b',
        }
    }
}

/// A text that names no color.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0:?} is not a color: expected white, black, w or b")]
pub struct ParseColorError(pub String);

impl std::str::FromStr for Color {
    type Err = ParseColorError;

    /// `white` or `black` (any case), or FEN's `w` or `b`.
    ///
    /// ```
    /// use tesseract_board::Color;
    /// assert_eq!("Black".parse::<Color>(), Ok(Color::Black));
    /// assert_eq!("w".parse::<Color>(), Ok(Color::White));
    /// assert!("green".parse::<Color>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Color, ParseColorError> {
        if s.eq_ignore_ascii_case("white") || s == "w" {
            Ok(Color::White)
        } else if s.eq_ignore_ascii_case("black") || s == "b" {
            Ok(Color::Black)
        } else {
            Err(ParseColorError(s.chars().take(40).collect()))
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::White => "white",
            Color::Black => "black",
        })
    }
}

/// A kind of piece (RULES.md §2).
///
/// Which kinds exist depends on the board: a unicorn needs three axes, a dragon and a W-pawn four
/// ([`Role::min_dims`]). On a 2D board the Y-pawn is the ordinary pawn, written `P`.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Role {
    /// One step along any direction.
    King = 0,
    /// Slides along every direction.
    Queen = 1,
    /// Slides along class 1 (one axis moves).
    Rook = 2,
    /// Slides along class 2 (two axes move).
    Bishop = 3,
    /// Leaps (±2, ±1) on any ordered pair of axes.
    Knight = 4,
    /// Slides along class 3 (three axes move); from Raumschach.
    Unicorn = 5,
    /// Slides along class 4 (all four axes move).
    Dragon = 6,
    /// A pawn that advances along y (the only pawn of 2D chess).
    YPawn = 7,
    /// A pawn that advances along w.
    WPawn = 8,
}

impl Role {
    /// Every role, in index order.
    pub const ALL: [Role; 9] = [
        Role::King,
        Role::Queen,
        Role::Rook,
        Role::Bishop,
        Role::Knight,
        Role::Unicorn,
        Role::Dragon,
        Role::YPawn,
        Role::WPawn,
    ];

    /// The pieces a pawn may promote to, in the order generators list them.
    pub const PROMOTIONS: [Role; 6] =
        [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::Unicorn, Role::Dragon];

    /// 0..9, the order of [`Role::ALL`].
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The fewest axes a board needs for this piece to exist there.
    pub const fn min_dims(self) -> usize {
        match self {
            Role::King | Role::Queen | Role::Rook | Role::Knight => 1,
            Role::Bishop | Role::YPawn => 2,
            Role::Unicorn => 3,
            Role::Dragon | Role::WPawn => 4,
        }
    }

    /// Whether the piece exists on a board of `dims` axes.
    #[inline]
    pub const fn exists_in(self, dims: usize) -> bool {
        self.min_dims() <= dims
    }

    /// Whether this is one of the two pawns.
    #[inline]
    pub const fn is_pawn(self) -> bool {
        matches!(self, Role::YPawn | Role::WPawn)
    }

    /// The axis a pawn advances along (1 = y, 3 = w); `None` for other pieces.
    #[inline]
    pub const fn pawn_axis(self) -> Option<usize> {
        match self {
            Role::YPawn => Some(1),
            Role::WPawn => Some(3),
            _ => None,
        }
    }

    /// The direction classes the piece slides along, as a bit set (bit c for class c).
    #[inline]
    pub const fn slide_classes(self) -> u8 {
        match self {
            Role::Queen => 0b11110,
            Role::Rook => 0b00010,
            Role::Bishop => 0b00100,
            Role::Unicorn => 0b01000,
            Role::Dragon => 0b10000,
            _ => 0,
        }
    }

    /// The upper-case letter of the piece on a board of `dims` axes (`P` for the 2D pawn).
    pub const fn upper_char(self, dims: usize) -> char {
        match self {
            Role::King => 'K',
            Role::Queen => 'Q',
            Role::Rook => 'R',
            Role::Bishop => 'B',
            Role::Knight => 'N',
            Role::Unicorn => 'U',
            Role::Dragon => 'D',
            Role::YPawn if dims == 2 => 'P',
            Role::YPawn => 'Y',
            Role::WPawn => 'W',
        }
    }

    /// The role an upper-case letter names on a board of `dims` axes, whether or not it exists there
    /// (check [`Role::exists_in`]); `P` is the pawn only in 2D, `Y` only off 2D.
    pub const fn from_upper_char(c: char, dims: usize) -> Option<Role> {
        Some(match c {
            'K' => Role::King,
            'Q' => Role::Queen,
            'R' => Role::Rook,
            'B' => Role::Bishop,
            'N' => Role::Knight,
            'U' => Role::Unicorn,
            'D' => Role::Dragon,
            'P' if dims == 2 => Role::YPawn,
            'Y' if dims != 2 => Role::YPawn,
            'W' => Role::WPawn,
            _ => return None,
        })
    }

    /// The English name on a board of `dims` axes: "pawn" for the 2D pawn, else [`Role::name`].
    pub const fn name_in(self, dims: usize) -> &'static str {
        match self {
            Role::YPawn if dims == 2 => "pawn",
            _ => self.name(),
        }
    }

    /// The English name.
    pub const fn name(self) -> &'static str {
        match self {
            Role::King => "king",
            Role::Queen => "queen",
            Role::Rook => "rook",
            Role::Bishop => "bishop",
            Role::Knight => "knight",
            Role::Unicorn => "unicorn",
            Role::Dragon => "dragon",
            Role::YPawn => "Y-pawn",
            Role::WPawn => "W-pawn",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A piece: a color and a role.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub role: Role,
}

impl Piece {
    /// A piece of `color` and `role`.
    pub const fn new(color: Color, role: Role) -> Piece {
        Piece { color, role }
    }

    /// The letter of the piece on a board of `dims` axes: upper case for White.
    pub const fn char(self, dims: usize) -> char {
        let c = self.role.upper_char(dims);
        match self.color {
            Color::White => c,
            Color::Black => c.to_ascii_lowercase(),
        }
    }

    /// The piece a letter names on a board of `dims` axes (see [`Role::from_upper_char`]).
    pub const fn from_char(c: char, dims: usize) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        match Role::from_upper_char(c.to_ascii_uppercase(), dims) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }

    /// The code of this piece in a mailbox (see [`crate::mailbox`]).
    #[inline]
    pub const fn code(self) -> u8 {
        1 + self.role as u8 + 16 * self.color as u8
    }

    /// The piece a mailbox code names, or `None` for empty and off-board codes.
    #[inline]
    pub const fn from_code(code: u8) -> Option<Piece> {
        if code == 0 || code >= crate::mailbox::OFFBOARD {
            return None;
        }
        let color = if code & 16 != 0 { Color::Black } else { Color::White };
        let role = Role::ALL[((code & 15) - 1) as usize];
        Some(Piece { color, role })
    }
}
