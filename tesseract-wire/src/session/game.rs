//! The game part of a session: the board as this side knows it, the moves, the draw offers and the end
//! by rule; and the checks of a move text (RULES.md §4).

use tesseract_board::{Color, Move, Position, TextMove};
use tesseract_movegen::{Claims, Legal, Termination};

use super::{EndReason, GameResult};
use crate::Error;

/// The game's state.
pub(super) struct Game {
    /// The board and its history, by the rules-level game of tesseract-movegen: repetitions, the
    /// automatic ends and the claimable draws have one definition for the engine, saved games and the wire.
    rules: tesseract_movegen::Game,
    /// Half-moves played in this match.
    pub(super) ply: u32,
    /// The move texts played, in order.
    pub(super) moves: Vec<String>,
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
        let rules = tesseract_movegen::Game::new(start);
        Game { over: rule_result(&rules), rules, ply: 0, moves: Vec::new(), offer: None, offer_blocked: None }
    }

    /// The board.
    pub(super) fn pos(&self) -> &Position {
        self.rules.position()
    }

    /// Replaces the board with another one (the desync attack's bug on one side).
    #[cfg(test)]
    pub(super) fn set_board(&mut self, pos: Position) {
        self.rules = tesseract_movegen::Game::new(pos);
    }

    /// The draw the side to move may claim now: threefold repetition first, then the 50-move rule.
    pub(super) fn claimable(&self) -> Option<EndReason> {
        let claims = self.rules.claimable();
        if claims.contains(Claims::THREEFOLD) {
            Some(EndReason::Rules(Termination::Threefold))
        } else if claims.contains(Claims::FIFTY_MOVES) {
            Some(EndReason::Rules(Termination::FiftyMoves))
        } else {
            None
        }
    }

    /// Whether the side to move may claim a draw for `reason` now.
    pub(super) fn may_claim(&self, reason: EndReason) -> bool {
        let claims = self.rules.claimable();
        match reason {
            EndReason::Rules(Termination::Threefold) => claims.contains(Claims::THREEFOLD),
            EndReason::Rules(Termination::FiftyMoves) => claims.contains(Claims::FIFTY_MOVES),
            _ => false,
        }
    }

    /// Goes on after a checked move (ours or the peer's): its ply, its text; a move withdraws any draw
    /// offer and lifts the block on offers.
    pub(super) fn advance(&mut self, m: Move, ply: u32, text: String) {
        self.rules.play_unchecked(m);
        self.ply = ply;
        self.moves.push(text);
        self.offer = None;
        self.offer_blocked = None;
        self.over = rule_result(&self.rules);
    }
}

/// The end of the game by a rule that needs no claim (mate, stalemate, dead position, fivefold
/// repetition, the 75-move rule), if it is over.
fn rule_result(rules: &tesseract_movegen::Game) -> Option<GameResult> {
    rules.outcome().map(|end| GameResult { winner: end.winner(), reason: end.into() })
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
