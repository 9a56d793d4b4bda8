//! Standard algebraic notation (SAN) for display and game records, and its readable long form on boards
//! of one, three and four axes (RULES.md §4).
//!
//! - **2D** (classic chess, Chess960, any 2D board of side up to 9): SAN as the PGN standard and
//!   python-chess write it. A piece letter (none for a pawn), the from file, rank or both only where another
//!   piece of the same kind could also move to the destination (file first, then rank, then both), `x` for a
//!   capture (a pawn capture names its file: `exd6`), the destination, `=Q` for a promotion, then `+` for
//!   check or `#` for mate. Castling is `O-O` (with the rook on the king's right, toward file h) or `O-O-O`,
//!   in Chess960 too, whatever the start files.
//! - **3D and 4D**: there are too many lines through a cell for short SAN to stay readable, so moves are
//!   written in a long form: the piece letter (pawns too: `Y` or `W`), the from cell's digits, `-` or `x`
//!   for a capture (en passant included), the to cell's digits, `=Q` for a promotion, `+` or `#`:
//!   `Y2213-2313`, `N3111-4131`, `Y2413x3513=D+`. The long form names both cells, so it never needs
//!   disambiguation.
//! - **Boards of one axis** are written in the same long form, one digit a cell: `R2-3`, `R3x5#`. Short
//!   SAN would need a file letter, which a board of one axis does not have.
//!
//! Parsing accepts what python-chess accepts in PGN movetext: check marks, annotations (`!`, `?`, `!?` …),
//! `0-0` for `O-O`, promotions with or without `=` and in either case (`e8=Q`, `e8Q`, `e8q`),
//! over-specified moves (`Ngf3`, `Ng1f3`, `Ng1-f3`) and fully specified ones without a piece letter
//! (`e2e4`, `g1f3`, castling as `e1g1` or `e1h1`). As in python-chess, the capture mark and the check mark
//! are not checked against the position; the piece, the squares and the promotion are, and a move that
//! names no legal move or more than one is a [`SanError`] that says what is wrong. No text makes it panic.
//!
//! # Examples
//!
//! ```
//! use tesseract_board::start;
//! use tesseract_movegen::san::{self, San, SanPlus};
//! use tesseract_movegen::Legal;
//!
//! let mut pos = start::chess();
//! let m = san::parse_move(&pos, "Nf3")?;
//! assert_eq!(SanPlus::from_move(&pos, m).to_string(), "Nf3");
//! for text in ["e4", "a6", "e5", "d5"] {
//!     pos.play(san::parse_move(&pos, text)?)?;
//! }
//! // The pawn on e5 takes the one that passed d6, en passant.
//! let m = "exd6".parse::<San>()?.to_move(&pos)?;
//! assert_eq!(San::from_move(&pos, m).to_string(), "exd6");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! The readable long form in 4D, and the eight-digit move text it stands for:
//! ```
//! use tesseract_board::{start, TextMove};
//! use tesseract_movegen::san::{self, SanPlus};
//!
//! let pos = start::tesseract(start::Army::Standard);
//! let m = san::parse_move(&pos, "Y2213-2313")?;
//! assert_eq!(TextMove::from_move(m, &pos).to_string(), "22132313");
//! assert_eq!(SanPlus::from_move(&pos, m).to_string(), "Y2213-2313");
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use tesseract_board::{CastlingSide, Move, Position, Role, TextMove};

use crate::fast::{MoveFilter, MoveList, count, legal_moves_matching, with_move_list};

/// A move in algebraic notation, without its check mark: parsed without a position, or written for one.
///
/// # Examples
/// ```
/// use tesseract_board::{CastlingSide, Role};
/// use tesseract_movegen::san::San;
/// assert_eq!("O-O-O".parse::<San>()?, San::Castle(CastlingSide::Queen));
/// let san: San = "Nbd7".parse()?;
/// assert!(matches!(san, San::Normal { role: Role::Knight, file: Some(2), rank: None, .. }));
/// assert_eq!(san.to_string(), "Nbd7");
/// # Ok::<_, tesseract_movegen::san::ParseSanError>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A move on a 2D board other than castling.
    Normal {
        /// The moving piece ([`Role::YPawn`] for a pawn, written without a letter). A pawn move with both
        /// `file` and `rank` (`e2e4`, `g1f3`) is read as a fully specified move of whatever piece stands
        /// there, as python-chess does.
        role: Role,
        /// The from file (1 = a), when written.
        file: Option<u8>,
        /// The from rank (1-based), when written.
        rank: Option<u8>,
        /// Whether the text marks a capture (`x`).
        capture: bool,
        /// The destination, (file, rank), 1-based.
        to: (u8, u8),
        /// The promotion piece.
        promotion: Option<Role>,
    },
    /// Castling on a 2D board: `O-O` toward the last file, `O-O-O` toward file a.
    Castle(CastlingSide),
    /// The long form of boards of one, three and four axes: piece letter, both cells, capture mark.
    Long {
        /// The moving piece.
        role: Role,
        /// Whether the text marks a capture (`x` rather than `-`).
        capture: bool,
        /// The from and to cells and the promotion piece.
        text: TextMove,
    },
}

/// A check or mate mark.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`: the move gives check.
    Check,
    /// `#`: the move gives mate.
    Checkmate,
}

impl Suffix {
    /// The mark a move that leads to `after` gets: `#` for mate, `+` for check, `None` otherwise.
    pub fn of(after: &Position) -> Option<Suffix> {
        if !after.is_check() {
            None
        } else if count(after) == 0 {
            Some(Suffix::Checkmate)
        } else {
            Some(Suffix::Check)
        }
    }

    /// `+` or `#`.
    pub const fn char(self) -> char {
        match self {
            Suffix::Check => '+',
            Suffix::Checkmate => '#',
        }
    }
}

/// A move in algebraic notation with its check mark: what a game record shows (`e8=Q+`, `Qxf7#`).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// Its check or mate mark.
    pub suffix: Option<Suffix>,
}

/// A text that is not algebraic notation at all (whatever the position).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{text:?} is not a move in algebraic notation: {reason}")]
pub struct ParseSanError {
    /// The text (escaped for display if it holds control characters).
    pub text: String,
    /// What is wrong.
    pub reason: &'static str,
}

/// Why a text names no legal move in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum SanError {
    /// The text is not algebraic notation.
    #[error(transparent)]
    Syntax(#[from] ParseSanError),
    /// Short SAN on a board that is not 2D, or the long form on a board of another number of axes.
    #[error("{san} is written for a board of {found} axes, but this board has {expected}")]
    WrongBoard {
        /// The move as written.
        san: String,
        /// The board's axes.
        expected: usize,
        /// The axes the notation is for.
        found: usize,
    },
    /// No legal move matches.
    #[error("{san} is not a legal move here: {reason}")]
    Illegal {
        /// The move as written.
        san: String,
        /// What is wrong.
        reason: String,
    },
    /// More than one legal move matches.
    #[error("{san} is ambiguous here: it could be {}", candidates.join(" or "))]
    Ambiguous {
        /// The move as written.
        san: String,
        /// The matching moves, as move texts (UCI in 2D), sorted.
        candidates: Vec<String>,
    },
}

/// The legal moves of `pos` that `filter` keeps (a few pieces' moves, not the whole list), in `list`: a
/// list the caller's frame holds, since moving one copies all its room.
fn matching<'a>(pos: &Position, filter: MoveFilter, list: &'a mut MoveList) -> &'a mut MoveList {
    legal_moves_matching(pos, &filter, list);
    list
}

/// Whether `m` is a castling move in `pos` (the king moving onto its own rook).
fn is_castling(pos: &Position, m: Move) -> bool {
    match (pos.piece_at(m.from), pos.piece_at(m.to)) {
        (Some(k), Some(r)) => k.role == Role::King && r.role == Role::Rook && k.color == r.color,
        _ => false,
    }
}

/// The side of a castling move: toward the last file (king side) or toward file a.
fn castling_side(pos: &Position, m: Move) -> CastlingSide {
    let g = pos.geometry();
    if g.coord(m.to, 0) > g.coord(m.from, 0) { CastlingSide::King } else { CastlingSide::Queen }
}

/// Whether `m` captures in `pos`: an enemy piece on the destination, or a pawn leaving its own axis
/// (en passant). Castling is not a capture.
fn is_capture(pos: &Position, m: Move) -> bool {
    let Some(piece) = pos.piece_at(m.from) else { return false };
    if pos.piece_at(m.to).is_some_and(|p| p.color != piece.color) {
        return true;
    }
    match piece.role.pawn_axis() {
        Some(axis) => {
            let g = pos.geometry();
            let (a, b) = (g.coords(m.from), g.coords(m.to));
            (0..g.dims()).any(|k| k != axis && a[k] != b[k])
        }
        None => false,
    }
}

impl San {
    /// The notation of a legal move `m` in `pos`.
    ///
    /// # Panics
    /// If `m` is not a legal move in `pos` (see [`San::try_from_move`]).
    pub fn from_move(pos: &Position, m: Move) -> San {
        San::try_from_move(pos, m).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The notation of `m` in `pos`, or an error if `m` is not a legal move there.
    ///
    /// # Errors
    /// [`SanError::Illegal`] for a move not in the legal move list.
    pub fn try_from_move(pos: &Position, m: Move) -> Result<San, SanError> {
        let g = pos.geometry();
        let on_board = g.contains(m.from) && g.contains(m.to);
        // The moves of the piece's kind to the destination: the move's legality, and the other pieces
        // that a disambiguation must tell apart, in one call.
        with_move_list(|reaching| {
            if let Some(piece) = pos.piece_at(m.from).filter(|p| on_board && p.color == pos.turn()) {
                matching(pos, MoveFilter { role: Some(piece.role), from: None, to: Some(m.to) }, reaching);
            }
            if !reaching.contains(&m) {
                let text = if on_board { TextMove::from_move(m, pos).to_string() } else { format!("{m:?}") };
                return Err(SanError::Illegal { san: text, reason: "not in the legal move list".into() });
            }
            Ok(San::of_legal(pos, m, reaching))
        })
    }

    /// The notation of `m`, a legal move of `pos`; `reaching` holds the legal moves of its piece's kind to
    /// its destination.
    fn of_legal(pos: &Position, m: Move, reaching: &[Move]) -> San {
        let g = pos.geometry();
        let role = pos.piece_at(m.from).expect("a legal move starts on a piece").role;
        let capture = is_capture(pos, m);
        if g.dims() != 2 {
            return San::Long { role, capture, text: TextMove::from_move(m, pos) };
        }
        if is_castling(pos, m) {
            return San::Castle(castling_side(pos, m));
        }
        let (ff, fr) = (g.coord(m.from, 0), g.coord(m.from, 1));
        let to = (g.coord(m.to, 0), g.coord(m.to, 1));
        let (mut file, mut rank) = (None, None);
        if role == Role::YPawn {
            if capture {
                file = Some(ff);
            }
        } else {
            // Other pieces of the same kind that can also reach the destination (python-chess's rule:
            // the file if it tells them apart, else the rank, else both).
            let (mut others, mut same_rank, mut same_file) = (false, false, false);
            for o in reaching.iter().filter(|o| o.from != m.from && !is_castling(pos, **o)) {
                others = true;
                same_rank |= g.coord(o.from, 1) == fr;
                same_file |= g.coord(o.from, 0) == ff;
            }
            if others && (same_rank || !same_file) {
                file = Some(ff);
            }
            if same_file {
                rank = Some(fr);
            }
        }
        San::Normal { role, file, rank, capture, to, promotion: m.promotion }
    }

    /// Parses algebraic notation without check marks or annotations (see [`SanPlus::parse`] for those).
    ///
    /// # Errors
    /// [`ParseSanError`] for a text that is not algebraic notation.
    pub fn parse(text: &str) -> Result<San, ParseSanError> {
        let err = |reason| ParseSanError { text: text.escape_debug().to_string(), reason };
        if text.is_empty() {
            return Err(err("empty text"));
        }
        match text {
            "O-O" | "0-0" => return Ok(San::Castle(CastlingSide::King)),
            "O-O-O" | "0-0-0" => return Ok(San::Castle(CastlingSide::Queen)),
            _ => {}
        }
        if !text.is_ascii() {
            return Err(err("a character that is not ASCII"));
        }
        let b = text.as_bytes();
        if is_long_form(b) {
            return parse_long(b).map_err(err);
        }
        parse_short(b).map_err(err)
    }

    /// The legal move this notation names in `pos`.
    ///
    /// # Errors
    /// [`SanError::WrongBoard`] for notation of another board, [`SanError::Illegal`] when no legal move
    /// matches (with the reason), [`SanError::Ambiguous`] when several do.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        self.resolve_as(pos, &self.to_string())
    }

    /// As [`San::to_move`], naming the move `written` in errors.
    fn resolve_as(&self, pos: &Position, written: &str) -> Result<Move, SanError> {
        with_move_list(|list| self.resolve_in(pos, written, list))
    }

    /// As [`San::resolve_as`], with an empty list to fill.
    fn resolve_in(&self, pos: &Position, written: &str, list: &mut MoveList) -> Result<Move, SanError> {
        let g = pos.geometry();
        let illegal = |reason: String| SanError::Illegal { san: written.to_string(), reason };
        let notation_dims = match self {
            San::Long { text, .. } => text.dims(),
            _ => 2,
        };
        if notation_dims != g.dims() {
            return Err(SanError::WrongBoard { san: written.to_string(), expected: g.dims(), found: notation_dims });
        }
        match *self {
            San::Castle(side) => {
                let king = MoveFilter { role: Some(Role::King), from: Some(pos.king(pos.turn())), to: None };
                let moves = matching(pos, king, list);
                let found = moves.iter().copied().find(|&m| is_castling(pos, m) && castling_side(pos, m) == side);
                found.ok_or_else(|| {
                    let right = pos.castling().rook(pos.turn(), side).is_some();
                    illegal(
                        if right {
                            "castling that way is not allowed now (a piece in between, or the king in check or \
                             passing an attacked square)"
                        } else {
                            "no castling right on that side"
                        }
                        .to_string(),
                    )
                })
            }
            San::Long { role, text, .. } => {
                let from = g.cell(text.from()).ok_or_else(|| illegal("the from cell is not on this board".into()))?;
                let to = g.cell(text.to()).ok_or_else(|| illegal("the to cell is not on this board".into()))?;
                let dims = g.dims();
                match pos.piece_at(from) {
                    Some(p) if p.color == pos.turn() && p.role == role => {}
                    Some(p) if p.color == pos.turn() => {
                        return Err(illegal(format!(
                            "the piece on {} is a {}, not a {}",
                            g.cell_name(from),
                            p.role.name_in(dims),
                            role.name_in(dims)
                        )));
                    }
                    _ => {
                        return Err(illegal(format!("no {} piece stands on {}", pos.turn(), g.cell_name(from))));
                    }
                }
                let reaching = matching(pos, MoveFilter { role: None, from: Some(from), to: Some(to) }, list);
                promotion_match(reaching, text.promotion(), dims).map_err(illegal)
            }
            San::Normal { role, file, rank, to: (tf, tr), promotion, .. } => {
                if promotion == Some(Role::King) {
                    return Err(illegal("a pawn cannot promote to a king".into()));
                }
                let to = g.cell(&[tf, tr]).ok_or_else(|| illegal("the destination is not on this board".into()))?;
                if let (Role::YPawn, Some(f), Some(r)) = (role, file, rank) {
                    // Fully specified (`e2e4`, `g1f3`, `e1g1`, `e1h1`): whatever piece stands there.
                    let from = g.cell(&[f, r]).ok_or_else(|| illegal("the from square is not on this board".into()))?;
                    match pos.piece_at(from) {
                        Some(p) if p.color == pos.turn() => {}
                        _ => return Err(illegal(format!("no {} piece stands on {}", pos.turn(), g.cell_name(from)))),
                    }
                    let reaching = matching(pos, MoveFilter { role: None, from: Some(from), to: None }, list);
                    let straight = reaching.iter().any(|m| m.to == to);
                    // Castling written as the king's two-step, when no move goes there.
                    reaching.retain(|m| {
                        if straight {
                            m.to == to
                        } else {
                            is_castling(pos, *m) && castling_side(pos, *m).king_to_file(g.side() as u8) == tf && r == tr
                        }
                    });
                    return promotion_match(reaching, promotion, 2).map_err(illegal);
                }
                let candidates = matching(pos, MoveFilter { role: Some(role), from: None, to: Some(to) }, list);
                candidates.retain(|m| {
                    let m = *m;
                    // Castling is written O-O, not as a king move (only a king's moves can be castling).
                    (role != Role::King || !is_castling(pos, m))
                            && file.is_none_or(|f| g.coord(m.from, 0) == f)
                            && rank.is_none_or(|r| g.coord(m.from, 1) == r)
                            // A pawn names its file when it captures: without one, it moves straight.
                            && (role != Role::YPawn || file.is_some() || g.coord(m.from, 0) == tf)
                });
                let mut exact = candidates.iter().copied().filter(|m| m.promotion == promotion);
                let (first, second) = (exact.next(), exact.next());
                match (first, second) {
                    (Some(m), None) => Ok(m),
                    (None, _) if candidates.is_empty() => {
                        let name = role.name_in(2);
                        let square = g.cell_name(to);
                        Err(illegal(if file.is_some() || rank.is_some() {
                            format!("no {name} from that square can move to {square}")
                        } else {
                            format!("no {name} can move to {square}")
                        }))
                    }
                    (None, _) => Err(illegal(match promotion {
                        None => "the move promotes: add the promotion piece (=Q, =R, =B or =N)".into(),
                        Some(_) if candidates.iter().all(|m| m.promotion.is_none()) => {
                            "the move does not promote".into()
                        }
                        Some(_) => "that promotion piece is not allowed here".into(),
                    })),
                    (Some(_), Some(_)) => {
                        let mut candidates: Vec<String> = candidates
                            .iter()
                            .filter(|m| m.promotion == promotion)
                            .map(|&m| TextMove::from_move(m, pos).to_string())
                            .collect();
                        candidates.sort();
                        Err(SanError::Ambiguous { san: written.to_string(), candidates })
                    }
                }
            }
        }
    }
}

/// The one move of `reaching` (the legal moves between two given cells) with promotion `promotion`.
fn promotion_match(reaching: &[Move], promotion: Option<Role>, dims: usize) -> Result<Move, String> {
    if let Some(&m) = reaching.iter().find(|m| m.promotion == promotion) {
        return Ok(m);
    }
    Err(if reaching.is_empty() {
        "that piece cannot move there".into()
    } else if promotion.is_none() {
        let letters: Vec<String> =
            reaching.iter().filter_map(|m| m.promotion).map(|r| r.upper_char(dims).to_string()).collect();
        format!("the move promotes: add the promotion piece ({})", letters.join(", "))
    } else if reaching.iter().all(|m| m.promotion.is_none()) {
        "the move does not promote".into()
    } else {
        "that promotion piece is not allowed here".into()
    })
}

/// The role a promotion letter names on a 2D board (either case; `K` too, refused later).
fn promotion_role_2d(b: u8) -> Option<Role> {
    match b.to_ascii_uppercase() {
        b'Q' => Some(Role::Queen),
        b'R' => Some(Role::Rook),
        b'B' => Some(Role::Bishop),
        b'N' => Some(Role::Knight),
        b'K' => Some(Role::King),
        _ => None,
    }
}

fn is_file(b: u8) -> bool {
    (b'a'..=b'i').contains(&b)
}

fn is_rank(b: u8) -> bool {
    (b'1'..=b'9').contains(&b)
}

/// Short SAN: `[KQRBN]? [a-i]? [1-9]? [-x]? [a-i][1-9] (=?[QRBNK])?`, either case for the promotion.
fn parse_short(b: &[u8]) -> Result<San, &'static str> {
    let (role, mut body) = match b[0] {
        b'K' => (Role::King, &b[1..]),
        b'Q' => (Role::Queen, &b[1..]),
        b'R' => (Role::Rook, &b[1..]),
        b'B' => (Role::Bishop, &b[1..]),
        b'N' => (Role::Knight, &b[1..]),
        c if is_file(c) => (Role::YPawn, b),
        _ => return Err("expected a piece letter K, Q, R, B or N, a file letter or O-O"),
    };
    let mut promotion = None;
    if let [rest @ .., r, p] = body {
        if is_rank(*r) || *r == b'=' {
            if let Some(role) = promotion_role_2d(*p) {
                // `b8b` is b8 promoting to a bishop; a lone `b8` is not a promotion.
                promotion = Some(role);
                body = if *r == b'=' { rest } else { &body[..body.len() - 1] };
            }
        }
    }
    if promotion.is_some() && role != Role::YPawn {
        return Err("only a pawn promotes");
    }
    let [rest @ .., f, r] = body else { return Err("expected a destination square such as e4") };
    if !is_file(*f) || !is_rank(*r) {
        return Err("expected a destination square such as e4");
    }
    let to = (f - b'a' + 1, r - b'0');
    let mut rest = rest;
    let mut capture = false;
    if let [head @ .., sep] = rest {
        if *sep == b'x' || *sep == b'-' {
            capture = *sep == b'x';
            rest = head;
        }
    }
    let (file, rank) = match rest {
        [] => (None, None),
        [f] if is_file(*f) => (Some(f - b'a' + 1), None),
        [r] if is_rank(*r) => (None, Some(r - b'0')),
        [f, r] if is_file(*f) && is_rank(*r) => (Some(f - b'a' + 1), Some(r - b'0')),
        _ => return Err("unexpected characters before the destination square"),
    };
    Ok(San::Normal { role, file, rank, capture, to, promotion })
}

/// The SAN of nearly every move of a game on an 8×8 board (`e4`, `exd5`, `Nf3`, `Nbd7`, `R1e2`, `Qxe7+`,
/// `e8=Q#`) read straight from its bytes, and its one legal move: `None` for any other text, or when the
/// text names no legal move or several, which the full reading ([`SanPlus::parse`], [`San::to_move`]) then
/// tells. It reads what the full reading reads, the same way.
pub(crate) fn quick_move(pos: &Position, text: &[u8]) -> Option<Move> {
    let g = pos.geometry();
    if g.dims() != 2 || g.side() != 8 {
        return None;
    }
    let text = match text {
        [rest @ .., b'+' | b'#'] => rest,
        _ => text,
    };
    let (role, body) = match *text.first()? {
        b'K' => (Role::King, &text[1..]),
        b'Q' => (Role::Queen, &text[1..]),
        b'R' => (Role::Rook, &text[1..]),
        b'B' => (Role::Bishop, &text[1..]),
        b'N' => (Role::Knight, &text[1..]),
        b'a'..=b'h' => (Role::YPawn, text),
        _ => return None,
    };
    let (body, promotion) = match body {
        [rest @ .., b'=', p] if role == Role::YPawn => {
            (rest, Some(promotion_role_2d(*p).filter(|r| *r != Role::King && p.is_ascii_uppercase())?))
        }
        _ => (body, None),
    };
    let [head @ .., tf @ b'a'..=b'h', tr @ b'1'..=b'8'] = body else { return None };
    let (tf, tr) = (tf - b'a' + 1, tr - b'0');
    let head = match head {
        [rest @ .., b'x'] => rest,
        _ => head,
    };
    // A pawn names its file alone (with a rank too, the text is a fully specified move of any piece).
    let (file, rank) = match *head {
        [] => (None, None),
        [f @ b'a'..=b'h'] => (Some(f - b'a' + 1), None),
        [r @ b'1'..=b'8'] if role != Role::YPawn => (None, Some(r - b'0')),
        [f @ b'a'..=b'h', r @ b'1'..=b'8'] if role != Role::YPawn => (Some(f - b'a' + 1), Some(r - b'0')),
        _ => return None,
    };
    let bb = pos.bitboards()?;
    // The cells of 8×8 are numbered file first: a1 = 0, b1 = 1 … h8 = 63.
    let to = crate::board8::cell(usize::from(tf - 1) + 8 * usize::from(tr - 1));
    // Room for the moves of the few pieces that reach one square (a pawn's are all made, then filtered).
    let mut list = arrayvec::ArrayVec::<Move, 64>::new();
    crate::board8::moves_matching(pos, bb, &MoveFilter { role: Some(role), from: None, to: Some(to) }, &mut list);
    let mut found = None;
    for &m in &list {
        let (from_file, from_rank) = ((m.from.index() % 8) as u8 + 1, (m.from.index() / 8) as u8 + 1);
        let named = m.promotion == promotion
            && file.is_none_or(|f| from_file == f)
            && rank.is_none_or(|r| from_rank == r)
            // Without a file, a pawn moves straight.
            && (role != Role::YPawn || file.is_some() || from_file == tf)
            // Castling is written O-O.
            && (role != Role::King || !is_castling(pos, m));
        if named {
            if found.is_some() {
                return None;
            }
            found = Some(m);
        }
    }
    found
}

/// Whether a text is the long form rather than short SAN: a piece letter, then digits, three or more of
/// them or one or two followed by `-` or `x` and a digit. Short SAN has at most one digit (a rank) before
/// the destination, and the destination starts with a file letter (`R1a1`, `R1xa1`); the long form on a
/// board of one axis is `R2-3`.
fn is_long_form(b: &[u8]) -> bool {
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    b[0].is_ascii_uppercase()
        && digits >= 1
        && (digits >= 3
            || (matches!(b.get(1 + digits), Some(b'-' | b'x')) && b.get(2 + digits).is_some_and(u8::is_ascii_digit)))
}

/// The long form: `[KQRBNUDYW] digits [-x] digits (=?[QRBNUD])?`, as many digits on each side, one per
/// axis: 1 (a board of one axis), 3 or 4.
fn parse_long(b: &[u8]) -> Result<San, &'static str> {
    let digits = b[1..].iter().take_while(|c| c.is_ascii_digit()).count();
    if !matches!(digits, 1 | 3 | 4) {
        return Err("the long form names cells of 1 digit (a board of one axis), 3 (3D) or 4 (4D)");
    }
    let role = Role::from_upper_char(b[0] as char, digits)
        .filter(|r| r.exists_in(digits))
        .ok_or("expected a piece letter K, Q, R, B, N, U, D, Y or W")?;
    let sep = b.get(1 + digits).copied();
    let capture = match sep {
        Some(b'-') => false,
        Some(b'x') => true,
        _ => return Err("expected - or x between the two cells"),
    };
    let to_start = 2 + digits;
    let to = b.get(to_start..to_start + digits).filter(|t| t.iter().all(u8::is_ascii_digit));
    let Some(to) = to else { return Err("expected the to cell, as many digits as the from cell") };
    let promotion = match &b[to_start + digits..] {
        [] => None,
        [p] | [b'=', p] => match Role::from_upper_char(*p as char, digits) {
            Some(r) if Role::PROMOTIONS.contains(&r) && r.exists_in(digits) => Some(r),
            _ => return Err("expected a promotion piece Q, R, B, N, U or D"),
        },
        _ => return Err("unexpected characters after the to cell"),
    };
    if promotion.is_some() && !role.is_pawn() {
        return Err("only a pawn promotes");
    }
    let coords = |d: &[u8]| -> Result<Vec<u8>, &'static str> {
        if d.contains(&b'0') {
            return Err("a coordinate digit is 1..9");
        }
        Ok(d.iter().map(|c| c - b'0').collect())
    };
    let from = coords(&b[1..1 + digits])?;
    let to = coords(to)?;
    Ok(San::Long { role, capture, text: TextMove::new(&from, &to, promotion) })
}

impl std::str::FromStr for San {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<San, ParseSanError> {
        San::parse(s)
    }
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle(CastlingSide::King) => f.write_str("O-O"),
            San::Castle(CastlingSide::Queen) => f.write_str("O-O-O"),
            San::Normal { role, file, rank, capture, to, promotion } => {
                if role != Role::YPawn {
                    write!(f, "{}", role.upper_char(2))?;
                }
                if let Some(file) = file {
                    write!(f, "{}", (b'a' + file - 1) as char)?;
                }
                if let Some(rank) = rank {
                    write!(f, "{rank}")?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{}{}", (b'a' + to.0 - 1) as char, to.1)?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char(2))?;
                }
                Ok(())
            }
            San::Long { role, capture, text } => {
                let dims = text.dims();
                write!(f, "{}", role.upper_char(dims))?;
                for c in text.from() {
                    write!(f, "{c}")?;
                }
                f.write_str(if capture { "x" } else { "-" })?;
                for c in text.to() {
                    write!(f, "{c}")?;
                }
                if let Some(p) = text.promotion() {
                    write!(f, "={}", p.upper_char(dims))?;
                }
                Ok(())
            }
        }
    }
}

impl SanPlus {
    /// The notation of a legal move `m` in `pos`, with `+` or `#` when it gives check or mate.
    ///
    /// # Panics
    /// If `m` is not a legal move in `pos` (see [`SanPlus::try_from_move`]).
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        SanPlus::try_from_move(pos, m).unwrap_or_else(|e| panic!("{e}"))
    }

    /// The notation of `m` in `pos` with its check mark, or an error if `m` is not legal there.
    ///
    /// # Errors
    /// [`SanError::Illegal`] for a move not in the legal move list.
    pub fn try_from_move(pos: &Position, m: Move) -> Result<SanPlus, SanError> {
        let san = San::try_from_move(pos, m)?;
        Ok(SanPlus { san, suffix: suffix_after(pos, m) })
    }

    /// The notation of the legal move `m`, which it then plays on `pos`: as [`SanPlus::from_move`]
    /// without copying the position, for writing whole games.
    ///
    /// # Errors
    /// [`SanError::Illegal`] for a move not in the legal move list (`pos` is then unchanged).
    pub fn from_move_and_play(pos: &mut Position, m: Move) -> Result<SanPlus, SanError> {
        let san = San::try_from_move(pos, m)?;
        let _ = pos.make(m);
        Ok(SanPlus { san, suffix: Suffix::of(pos) })
    }

    /// Parses algebraic notation with an optional check mark (`+`, `#`), kept as read, and an optional
    /// annotation (`!`, `?`, `!!`, `??`, `!?`, `?!`), dropped (a PGN reader keeps it as a NAG).
    ///
    /// # Errors
    /// [`ParseSanError`] for a text that is not algebraic notation.
    ///
    /// # Examples
    /// ```
    /// use tesseract_movegen::san::{SanPlus, Suffix};
    /// let san: SanPlus = "e8=Q+!?".parse()?;
    /// assert_eq!(san.suffix, Some(Suffix::Check));
    /// assert_eq!(san.to_string(), "e8=Q+");
    /// assert!("e9=Q+".parse::<SanPlus>().is_ok()); // a square of a 9×9 board: the position decides
    /// assert!("Pe4".parse::<SanPlus>().is_err());
    /// # Ok::<_, tesseract_movegen::san::ParseSanError>(())
    /// ```
    pub fn parse(text: &str) -> Result<SanPlus, ParseSanError> {
        let mut body = text.trim_end_matches(['!', '?']);
        if text.len() - body.len() > 2 {
            return Err(ParseSanError { text: text.escape_debug().to_string(), reason: "more than two ! or ? marks" });
        }
        let suffix = if let Some(rest) = body.strip_suffix('#') {
            body = rest;
            Some(Suffix::Checkmate)
        } else if let Some(rest) = body.strip_suffix('+') {
            body = rest;
            Some(Suffix::Check)
        } else {
            None
        };
        let san = San::parse(body).map_err(|e| ParseSanError { text: text.escape_debug().to_string(), ..e })?;
        Ok(SanPlus { san, suffix })
    }

    /// The legal move this notation names in `pos` (the check mark is not checked, as in python-chess).
    ///
    /// # Errors
    /// As [`San::to_move`].
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        self.san.resolve_as(pos, &self.to_string())
    }
}

/// The check mark of the legal move `m` of `pos`, from the position after it: made on a copy this thread
/// keeps for the purpose, copied into its own buffers ([`Position::clone_from`]) so that writing SAN
/// allocates nothing.
fn suffix_after(pos: &Position, m: Move) -> Option<Suffix> {
    thread_local! {
        static AFTER: std::cell::RefCell<Option<Position>> = const { std::cell::RefCell::new(None) };
    }
    AFTER.with(|slot| {
        let Ok(mut slot) = slot.try_borrow_mut() else {
            let mut after = pos.clone();
            let _ = after.make(m);
            return Suffix::of(&after);
        };
        let after = match slot.as_mut() {
            Some(after) => {
                after.clone_from(pos);
                after
            }
            None => slot.insert(pos.clone()),
        };
        let _ = after.make(m);
        Suffix::of(after)
    })
}

impl std::str::FromStr for SanPlus {
    type Err = ParseSanError;
    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::parse(s)
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)?;
        if let Some(s) = self.suffix {
            write!(f, "{}", s.char())?;
        }
        Ok(())
    }
}

/// Parses a move in algebraic notation (with optional check mark and annotation) and finds the legal
/// move it names in `pos`.
///
/// # Errors
/// [`SanError`]: not algebraic notation, written for another board, illegal (with the reason) or
/// ambiguous (with the candidates).
///
/// # Examples
/// ```
/// use tesseract_board::Position;
/// use tesseract_movegen::san::{parse_move, SanError};
/// let pos = Position::from_fen("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1")?;
/// assert!(parse_move(&pos, "O-O-O").is_ok());
/// let pos = Position::from_fen("4k3/8/8/8/8/8/4K3/R6R w - - 0 1")?;
/// let err = parse_move(&pos, "Rd1").unwrap_err();
/// assert!(matches!(err, SanError::Ambiguous { .. }));
/// assert_eq!(err.to_string(), "Rd1 is ambiguous here: it could be a1d1 or h1d1");
/// assert_eq!(parse_move(&pos, "Nf3").unwrap_err().to_string(), "Nf3 is not a legal move here: no knight can move to f3");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, SanError> {
    if let Some(m) = quick_move(pos, text.as_bytes()) {
        return Ok(m);
    }
    let san = SanPlus::parse(text)?;
    san.san.resolve_as(pos, text)
}

/// The notation of the legal move `m` in `pos` with its check mark, as text (`Nf3`, `O-O`, `e8=Q+`,
/// `Y2213-2313` in 4D).
///
/// # Panics
/// If `m` is not a legal move in `pos`.
pub fn to_san(pos: &Position, m: Move) -> String {
    SanPlus::from_move(pos, m).to_string()
}

/// The moves of a game from `start`, numbered as a reader writes them down: `1. e4 e5 2. Nf3` in SAN on 2D
/// boards, the long form elsewhere (`1. Y2213-2313 Y2453-2353`); a game that starts with Black to move
/// begins `1... e5` (the start's own move number, not always 1). The terminal's `history` and the page's
/// move list write the same text.
///
/// # Errors
/// [`SanError`] for a move that is not legal where it comes (nothing is written).
///
/// # Examples
/// ```
/// use tesseract_board::{start, Position};
/// use tesseract_movegen::Legal;
/// use tesseract_movegen::san::{numbered, parse_move};
/// let pos = start::chess();
/// let mut moves = Vec::new();
/// let mut p = pos.clone();
/// for text in ["e4", "e5", "Nf3"] {
///     let m = parse_move(&p, text)?;
///     p.play(m)?;
///     moves.push(m);
/// }
/// assert_eq!(numbered(&pos, &moves)?, "1. e4 e5 2. Nf3");
/// let black_first: Position = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".parse()?;
/// assert_eq!(numbered(&black_first, &[parse_move(&black_first, "c5")?])?, "1... c5");
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn numbered(start: &Position, moves: &[Move]) -> Result<String, SanError> {
    let mut pos = start.clone();
    let mut out = String::new();
    for (i, &m) in moves.iter().enumerate() {
        let white = pos.turn() == tesseract_board::Color::White;
        if white || i == 0 {
            if i > 0 {
                out.push(' ');
            }
            out.push_str(&pos.fullmove_number().to_string());
            out.push_str(if white { ". " } else { "... " });
        } else {
            out.push(' ');
        }
        out.push_str(&SanPlus::from_move_and_play(&mut pos, m)?.to_string());
    }
    Ok(out)
}
