//! Start positions: Tesseract's three armies (RULES.md §3), classic chess (§5), the 960 Chess960
//! positions (§6), by Scharnagl number or by Bodlaender's dice, and a Raumschach-like 3D start (§8).

use crate::position::CastlingMode;
use crate::{Cell, Color, Piece, Position, Role, Setup, Shape};

/// The three Tesseract armies, which differ in the width of the pawn band.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Army {
    /// Pawns on z = 3: 22 pieces a side.
    Light,
    /// Pawns on z = 1 and z = 5: 32 pieces a side, as in classic chess.
    Standard,
    /// Pawns on z = 1, 3 and 5: 42 pieces a side.
    Dense,
}

impl Army {
    /// All three, lightest first.
    pub const ALL: [Army; 3] = [Army::Light, Army::Standard, Army::Dense];

    /// The z values of the pawn band.
    pub const fn band(self) -> &'static [u8] {
        match self {
            Army::Light => &[3],
            Army::Standard => &[1, 5],
            Army::Dense => &[1, 3, 5],
        }
    }

    /// Pieces a side: 12 majors and 10 pawns per band row.
    pub const fn pieces_per_side(self) -> usize {
        12 + 10 * self.band().len()
    }

    /// `light`, `standard` or `dense`.
    pub const fn name(self) -> &'static str {
        match self {
            Army::Light => "light",
            Army::Standard => "standard",
            Army::Dense => "dense",
        }
    }
}

/// The perft figures of the three armies' starts (RULES.md §3), as the text of
/// `data/tesseract.perft`: `<tfen> ;D1 n ;D2 n ;D3 n` lines after `#` comments.
pub const TESSERACT_PERFT: &str = include_str!("../data/tesseract.perft");

impl Army {
    /// The contract's perft(1), perft(2) and perft(3) of this army's start (RULES.md §3, from an
    /// independent reference generator), read from [`TESSERACT_PERFT`]: the one place these figures are
    /// written, for every test, self-check and bench.
    ///
    /// ```
    /// use tesseract_board::start::Army;
    /// assert_eq!(Army::Standard.perft(), [226, 50_420, 11_715_134]);
    /// ```
    pub fn perft(self) -> [u64; 3] {
        let tfen = tesseract(self).fen();
        let line = TESSERACT_PERFT
            .lines()
            .find_map(|l| l.strip_prefix(tfen.as_str())?.strip_prefix(" ;"))
            .expect("data/tesseract.perft has a line for every army");
        let mut out = [0; 3];
        for (i, field) in line.split(" ;").enumerate() {
            let (depth, count) = field.split_once(' ').expect("`D<depth> <count>`");
            assert_eq!(depth, format!("D{}", i + 1), "depths 1, 2, 3 in order");
            out[i] = count.parse().expect("a count");
        }
        out
    }
}

/// A text that names no army.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown army {0:?}: expected light, standard or dense")]
pub struct ParseArmyError(pub String);

impl std::str::FromStr for Army {
    type Err = ParseArmyError;
    fn from_str(s: &str) -> Result<Army, ParseArmyError> {
        Army::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| ParseArmyError(s.chars().take(40).collect()))
    }
}

/// Why [`by_name`] names no start position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum StartNameError {
    /// Not one of the names.
    #[error("unknown start {0:?}: expected light, standard, dense, raumschach, classic or chess960:N")]
    Unknown(String),
    /// `chess960:` followed by something that is not a number.
    #[error("chess960:{0}: {0:?} is not a number 0..959")]
    NotANumber(String),
    /// A Chess960 number out of range.
    #[error(transparent)]
    Chess960(#[from] Chess960Error),
}

/// White's majors on the plate y = 1, w = 1: rows z = 1, 2, 3; x = 1..5 left to right (RULES.md §3).
const MAJORS: [[Option<Role>; 5]; 3] = {
    use Role::*;
    [
        [Some(Rook), Some(Knight), Some(King), Some(Knight), Some(Rook)],
        [Some(Unicorn), Some(Bishop), Some(Queen), Some(Bishop), Some(Unicorn)],
        [None, Some(Dragon), None, Some(Dragon), None],
    ]
};

/// The Tesseract start position of an army: White as RULES.md §3 fixes it, Black its point reflection.
///
/// ```text
/// White majors on y = 1, w = 1        White pawns, for every x and every z in the band:
///   z=3  .  D  .  D  .                  Y-pawn on (x, 2, z, 3)
///   z=2  U  B  Q  B  U                  W-pawn on (x, 3, z, 2)
///   z=1  R  N  K  N  R
///       x=1 2  3  4  5                Black: σ(p) = 6 − p on every axis, color swapped
/// ```
///
/// # Examples
/// ```
/// use tesseract_board::start::{tesseract, Army};
/// let pos = tesseract(Army::Standard);
/// assert_eq!(pos.pieces().count(), 64);
/// ```
pub fn tesseract(army: Army) -> Position {
    let mut setup = Setup::empty(Shape::TESSERACT);
    let mut put = |coords: [u8; 4], color: Color, role: Role| {
        let c = match color {
            Color::White => coords,
            Color::Black => coords.map(|v| 6 - v),
        };
        setup.put(&c, Some(Piece::new(color, role)));
    };
    for color in Color::ALL {
        for (zi, row) in MAJORS.iter().enumerate() {
            for (xi, role) in row.iter().enumerate() {
                if let Some(role) = *role {
                    put([xi as u8 + 1, 1, zi as u8 + 1, 1], color, role);
                }
            }
        }
        for &z in army.band() {
            for x in 1..=5 {
                put([x, 2, z, 3], color, Role::YPawn);
                put([x, 3, z, 2], color, Role::WPawn);
            }
        }
    }
    Position::from_setup(setup, CastlingMode::Standard).expect("the Tesseract starts are valid")
}

/// White's pieces of the Raumschach-like start on the 5×5×5 board: for each level z = 1, 2, the piece row
/// on y = 1 (x = 1..5) and a row of Y-pawns on y = 2 (RULES.md §8).
const RAUMSCHACH_LEVELS: [[Role; 5]; 2] = {
    use Role::*;
    [[Rook, Knight, King, Knight, Rook], [Bishop, Unicorn, Queen, Bishop, Unicorn]]
};

/// A Raumschach-like start on the 5×5×5 board ([`Shape::RAUMSCHACH`]), after Ferdinand Maack's
/// Raumschach (1907), in this project's 3D rules (RULES.md §8): Y-pawns only, advancing along y and
/// capturing along x or z.
///
/// ```text
/// White, level z = 1 (Raumschach's A)    White, level z = 2 (B)
///   y=2  Y  Y  Y  Y  Y                     y=2  Y  Y  Y  Y  Y
///   y=1  R  N  K  N  R                     y=1  B  U  Q  B  U
///       x=1 2  3  4  5                         x=1 2  3  4  5
/// Black: the same pieces on the same files, mirrored through y and z: (x, y, z) → (x, 6 − y, 6 − z),
/// so the black king stands on (3, 5, 5), the queen on (3, 5, 4), the pawns on y = 4 of levels 5 and 4.
/// ```
///
/// As in Raumschach, Black is White turned a half turn about the x axis (the files keep their order), not
/// the point reflection of the 4D starts; either way each side has one bishop on each color of cells and
/// the same moves. Unlike the 4D starts, some pieces attack enemy pawns at move zero (the queen on
/// (3, 1, 2) sees the pawn on (3, 4, 5) along a diagonal through the empty middle level), as in the
/// original game; every such pawn is defended.
///
/// # Examples
/// ```
/// use tesseract_board::{start, Shape};
/// let pos = start::raumschach();
/// assert_eq!(pos.shape(), Shape::RAUMSCHACH);
/// assert_eq!(pos.pieces().count(), 40);
/// assert_eq!(start::by_name("raumschach")?, pos);
/// # Ok::<_, start::StartNameError>(())
/// ```
pub fn raumschach() -> Position {
    let mut setup = Setup::empty(Shape::RAUMSCHACH);
    for color in Color::ALL {
        // White's (y, z) and Black's image (6 − y, 6 − z); x is kept.
        let at = |x: u8, y: u8, z: u8| match color {
            Color::White => [x, y, z],
            Color::Black => [x, 6 - y, 6 - z],
        };
        for (zi, row) in RAUMSCHACH_LEVELS.iter().enumerate() {
            let z = zi as u8 + 1;
            for (xi, &role) in row.iter().enumerate() {
                let x = xi as u8 + 1;
                setup.put(&at(x, 1, z), Some(Piece::new(color, role)));
                setup.put(&at(x, 2, z), Some(Piece::new(color, Role::YPawn)));
            }
        }
    }
    Position::from_setup(setup, CastlingMode::Standard).expect("the Raumschach start is valid")
}

/// The classic chess start.
pub fn chess() -> Position {
    Position::from_fen("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1").expect("the chess start is valid")
}

/// A Chess960 back rank, files a..h.
pub type BackRank = [Role; 8];

/// A Chess960 number out of range, or dice out of range.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Chess960Error {
    /// Scharnagl numbers run 0..=959.
    #[error("Chess960 positions are numbered 0 to 959, not {0}")]
    Number(u32),
    /// Dice sequence numbers run 1..=1920.
    #[error("dice sequences are numbered 1 to 1920, not {0}")]
    DiceNumber(u32),
    /// A die out of its range.
    #[error("die {index} shows {value}, expected 1 to {max}")]
    Die {
        /// Which die, 1..=5.
        index: usize,
        /// What it shows.
        value: u8,
        /// Its largest value.
        max: u8,
    },
}

const LIGHT_FILES: [usize; 4] = [1, 3, 5, 7]; // b, d, f, h
const DARK_FILES: [usize; 4] = [0, 2, 4, 6]; // a, c, e, g
/// The knight pairs among five empty squares, in Scharnagl's order NN---, N-N--, …, ---NN.
const KNIGHT_PAIRS: [(usize, usize); 10] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The back rank of Chess960 position `number` in Scharnagl's numbering (518 is classic chess).
///
/// # Errors
/// [`Chess960Error::Number`] outside 0..=959.
pub fn chess960_back_rank(number: u32) -> Result<BackRank, Chess960Error> {
    if number > 959 {
        return Err(Chess960Error::Number(number));
    }
    let mut n = number as usize;
    let mut rank: [Option<Role>; 8] = [None; 8];
    rank[LIGHT_FILES[n % 4]] = Some(Role::Bishop);
    n /= 4;
    rank[DARK_FILES[n % 4]] = Some(Role::Bishop);
    n /= 4;
    place_nth_empty(&mut rank, n % 6, Role::Queen);
    n /= 6;
    let (a, b) = KNIGHT_PAIRS[n];
    let empties: Vec<usize> = (0..8).filter(|&f| rank[f].is_none()).collect();
    rank[empties[a]] = Some(Role::Knight);
    rank[empties[b]] = Some(Role::Knight);
    Ok(finish_rank(rank))
}

fn place_nth_empty(rank: &mut [Option<Role>; 8], nth: usize, role: Role) {
    let file = (0..8).filter(|&f| rank[f].is_none()).nth(nth).expect("enough empty squares");
    rank[file] = Some(role);
}

/// Rook, king, rook on the three squares left, from a to h.
fn finish_rank(mut rank: [Option<Role>; 8]) -> BackRank {
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_nth_empty(&mut rank, 0, role);
    }
    rank.map(|r| r.expect("every square filled"))
}

/// The back rank from Bodlaender's five dice: light bishop (1–4 on b, d, f, h), dark bishop (1–4 on
/// a, c, e, g), queen (1–6 among the empty squares), first knight (1–5), second knight (1–4), then rook,
/// king, rook on the three squares left.
///
/// # Errors
/// [`Chess960Error::Die`] for a die out of its range.
pub fn chess960_dice(rolls: [u8; 5]) -> Result<BackRank, Chess960Error> {
    const MAX: [u8; 5] = [4, 4, 6, 5, 4];
    for (i, (&v, &max)) in rolls.iter().zip(&MAX).enumerate() {
        if v == 0 || v > max {
            return Err(Chess960Error::Die { index: i + 1, value: v, max });
        }
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    rank[LIGHT_FILES[rolls[0] as usize - 1]] = Some(Role::Bishop);
    rank[DARK_FILES[rolls[1] as usize - 1]] = Some(Role::Bishop);
    place_nth_empty(&mut rank, rolls[2] as usize - 1, Role::Queen);
    place_nth_empty(&mut rank, rolls[3] as usize - 1, Role::Knight);
    place_nth_empty(&mut rank, rolls[4] as usize - 1, Role::Knight);
    Ok(finish_rank(rank))
}

/// The five dice of sequence number 1..=1920 in mixed radix (4, 4, 6, 5, 4), the last die fastest:
/// 1 → 1,1,1,1,1; 2 → 1,1,1,1,2; 5 → 1,1,1,2,1.
///
/// # Errors
/// [`Chess960Error::DiceNumber`] outside 1..=1920.
pub fn dice_of_number(number: u32) -> Result<[u8; 5], Chess960Error> {
    if !(1..=1920).contains(&number) {
        return Err(Chess960Error::DiceNumber(number));
    }
    let mut k = number - 1;
    let mut rolls = [0u8; 5];
    for (i, radix) in [(4, 4), (3, 5), (2, 6), (1, 4), (0, 4)] {
        rolls[i] = (k % radix) as u8 + 1;
        k /= radix;
    }
    Ok(rolls)
}

/// The Scharnagl number (0..=959) of a Chess960 back rank, or `None` if it is not one.
pub fn scharnagl_number(rank: &BackRank) -> Option<u32> {
    (0..960).find(|&n| chess960_back_rank(n).is_ok_and(|r| &r == rank))
}

/// The Chess960 start position with this back rank (Black mirrors White; castling with both rooks).
pub fn chess960_position(rank: &BackRank) -> Position {
    let mut setup = Setup::empty(Shape::CHESS);
    for (f, &role) in rank.iter().enumerate() {
        let file = f as u8 + 1;
        setup.put(&[file, 1], Some(Piece::new(Color::White, role)));
        setup.put(&[file, 2], Some(Piece::new(Color::White, Role::YPawn)));
        setup.put(&[file, 7], Some(Piece::new(Color::Black, Role::YPawn)));
        setup.put(&[file, 8], Some(Piece::new(Color::Black, role)));
    }
    let g = Shape::CHESS.geometry();
    setup.castling = rank
        .iter()
        .enumerate()
        .filter(|(_, r)| **r == Role::Rook)
        .flat_map(|(f, _)| [g.cell(&[f as u8 + 1, 1]), g.cell(&[f as u8 + 1, 8])])
        .flatten()
        .collect::<Vec<Cell>>();
    setup.castling.sort();
    Position::from_setup(setup, CastlingMode::Chess960).expect("every Chess960 start is valid")
}

/// Chess960 start position `number` (Scharnagl, 0..=959), in Chess960 castling mode.
///
/// # Errors
/// [`Chess960Error::Number`] outside 0..=959.
///
/// # Examples
/// ```
/// use tesseract_board::{fen::CastlingNotation, start};
/// let pos = start::chess960(518)?;
/// assert_eq!(pos.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
/// assert_eq!(pos.fen_with(CastlingNotation::Shredder), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1");
/// # Ok::<_, start::Chess960Error>(())
/// ```
pub fn chess960(number: u32) -> Result<Position, Chess960Error> {
    Ok(chess960_position(&chess960_back_rank(number)?))
}

/// A start position named as on the command line: `light`, `standard`, `dense` (Tesseract, 4D),
/// `raumschach` (3D, [`raumschach`]), `classic` or `chess960:N` (N in 0..=959).
///
/// # Errors
/// [`StartNameError`] saying what is wrong with the name.
pub fn by_name(name: &str) -> Result<Position, StartNameError> {
    if let Ok(army) = name.parse::<Army>() {
        return Ok(tesseract(army));
    }
    if name == "classic" {
        return Ok(chess());
    }
    if name == "raumschach" {
        return Ok(raumschach());
    }
    if let Some(n) = name.strip_prefix("chess960:") {
        let number: u32 = n.parse().map_err(|_| StartNameError::NotANumber(n.chars().take(40).collect()))?;
        return Ok(chess960(number)?);
    }
    Err(StartNameError::Unknown(name.chars().take(40).collect()))
}
