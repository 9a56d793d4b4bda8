//! The game part of a session: the board as this side knows it, the moves, the draw offers and the end
//! by rule; and the checks of a move text (RULES.md §4).

use tesseract_board::{Color, Move, Position, TextMove};
use tesseract_movegen::{Legal, Outcome};

use super::{EndReason, GameResult};
use crate::Error;

/// The game's state.
pub(super) struct Game {
    /// The board.
    pub(super) pos: Position,
    /// Half-moves played in this match.
    pub(super) ply: u32,
    /// The move texts played, in order.
    pub(super) moves: Vec<String>,
    /// The repetition key of every position so far, the start first.
    pub(super) repetition: Vec<String>,
    /// The side whose draw offer waits for an answer.
    pub(super) offer: Option<Color>,
    /// The side that may not offer a draw again before a move (its offer was declined).
    pub(super) offer_blocked: Option<Color>,
    /// The end by rule reached on the board, not yet confirmed by an End message.
    pub(super) over: Option<GameResult>,
}

impl Game {
    /// The game at its start position.
    pub(super) fn new(start: Position) -> Game {
        Game {
            repetition: vec![repetition_key(&start)],
            over: rule_result(&start),
            pos: start,
            ply: 0,
            moves: Vec::new(),
            offer: None,
            offer_blocked: None,
        }
    }

    /// How many times the current position has occurred.
    pub(super) fn repetitions(&self) -> usize {
        let now = self.repetition.last();
        self.repetition.iter().filter(|k| Some(*k) == now).count()
    }

    /// Goes on to the position after a checked move (ours or the peer's): its ply, its text, a new
    /// repetition key; a move withdraws any draw offer and lifts the block on offers.
    pub(super) fn advance(&mut self, next: Position, ply: u32, text: String) {
        self.pos = next;
        self.ply = ply;
        self.moves.push(text);
        self.repetition.push(repetition_key(&self.pos));
        self.offer = None;
        self.offer_blocked = None;
        self.over = rule_result(&self.pos);
    }
}

/// The key of a position for repetitions: its text without the move counters.
pub(super) fn repetition_key(pos: &Position) -> String {
    let fen = pos.fen();
    fen.rsplitn(3, ' ').nth(2).unwrap_or(&fen).to_string()
}

/// The end of the game by rule in `pos` (mate, stalemate, kings alone), if it is over.
pub(super) fn rule_result(pos: &Position) -> Option<GameResult> {
    Some(match pos.outcome()? {
        Outcome::Checkmate { winner } => GameResult { winner: Some(winner), reason: EndReason::Checkmate },
        Outcome::Stalemate => GameResult { winner: None, reason: EndReason::Stalemate },
        Outcome::DeadDraw => GameResult { winner: None, reason: EndReason::DeadDraw },
    })
}

/// Whether `text` follows the move grammar of the board's shape, byte by byte (RULES.md §4): in 4D
/// `^[1-5]{8}[QRBNUD]?$`, in 2D UCI `^[a-h][1-8][a-h][1-8][qrbn]?$`; other shapes alike with their sizes.
fn grammar(pos: &Position, text: &[u8]) -> bool {
    let g = pos.geometry();
    let (d, n) = (g.dims(), g.side() as u8);
    let (coords, promo) = if d == 2 { (4, text.get(4)) } else { (2 * d, text.get(2 * d)) };
    if text.len() != coords && text.len() != coords + 1 {
        return false;
    }
    let coords_ok = text[..coords].iter().enumerate().all(|(i, &c)| {
        if d == 2 && i % 2 == 0 { (b'a'..b'a' + n).contains(&c) } else { (b'1'..b'1' + n).contains(&c) }
    });
    let promo_ok = match promo {
        None => true,
        Some(c) if d == 2 => b"qrbn".contains(c),
        Some(c) => b"QRBNUD".contains(c),
    };
    coords_ok && promo_ok
}

/// The one legal move `text` names here, if `text` is its canonical text.
pub(super) fn check_move_text(pos: &Position, text: &str) -> Result<Move, Error> {
    if !grammar(pos, text.as_bytes()) {
        return Err(Error::NonCanonical(text.escape_debug().to_string()));
    }
    let parsed = TextMove::parse(text).map_err(|_| Error::NonCanonical(text.to_string()))?;
    let m = pos.resolve(&parsed).map_err(Error::IllegalMove)?;
    if TextMove::from_move(m, pos).to_string() != text {
        return Err(Error::NonCanonical(text.to_string()));
    }
    Ok(m)
}
