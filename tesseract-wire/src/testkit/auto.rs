//! Automatic players for tests and demonstrations: a [`Mover`] picks moves, an [`AutoPlayer`] answers for
//! a session (moves, draw offers at the move cap, draw claims).
//!
//! [`SeededMover`] is a deterministic stand-in, not an engine: a ChaCha-seeded choice among the legal
//! moves that prefers captures. A real engine plugs in by implementing [`Mover`] (or passing a closure).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{Move, Position};
use tesseract_movegen::{legal_moves, noisy_moves};

use crate::{Action, Error, Session};

/// Chooses a move in a position (`None` if it has none).
///
/// Closures `FnMut(&Position) -> Option<Move>` are movers too.
pub trait Mover {
    /// A legal move of `pos`, or `None` if there is none.
    fn choose(&mut self, pos: &Position) -> Option<Move>;
}

impl<F: FnMut(&Position) -> Option<Move>> Mover for F {
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        self(pos)
    }
}

/// A deterministic mover: with a ChaCha8 generator seeded by a number, it picks a capture (or promotion)
/// three times in four when there is one, otherwise any legal move, uniformly.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_wire::testkit::{Mover, SeededMover};
/// let pos = start::tesseract(start::Army::Standard);
/// let a = SeededMover::new(7).choose(&pos);
/// let b = SeededMover::new(7).choose(&pos);
/// assert_eq!(a, b);
/// assert!(a.is_some());
/// ```
#[derive(Clone, Debug)]
pub struct SeededMover {
    rng: ChaCha8Rng,
}

impl SeededMover {
    /// A mover seeded with `seed`.
    pub fn new(seed: u64) -> SeededMover {
        SeededMover { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    fn pick(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }
}

impl Mover for SeededMover {
    fn choose(&mut self, pos: &Position) -> Option<Move> {
        let noisy = noisy_moves(pos);
        if !noisy.is_empty() && !self.rng.next_u32().is_multiple_of(4) {
            return Some(noisy[self.pick(noisy.len())]);
        }
        let all = legal_moves(pos);
        if all.is_empty() {
            return None;
        }
        Some(all[self.pick(all.len())])
    }
}

/// Plays a session automatically: moves with its [`Mover`], claims draws when it can, offers a draw once
/// the match reaches `cap` plies and accepts the peer's offer from then on (declining it before).
///
/// # Examples
/// ```
/// use tesseract_wire::testkit::{AutoPlayer, SeededMover};
/// let player = AutoPlayer::new(SeededMover::new(1), 300);
/// assert_eq!(player.cap(), 300);
/// ```
#[derive(Clone, Debug)]
pub struct AutoPlayer<M> {
    mover: M,
    cap: u32,
}

impl<M: Mover> AutoPlayer<M> {
    /// An automatic player with a move cap in plies.
    pub fn new(mover: M, cap: u32) -> AutoPlayer<M> {
        AutoPlayer { mover, cap }
    }

    /// The move cap.
    pub fn cap(&self) -> u32 {
        self.cap
    }

    /// Does what the session asks of the local player, if anything. Returns whether it acted.
    ///
    /// # Errors
    /// What the session's local calls return (only [`Error::CounterExhausted`] in practice).
    pub fn act(&mut self, session: &mut Session) -> Result<bool, Error> {
        match session.action() {
            Action::Move => {
                if let Some(reason) = session.claimable() {
                    session.claim_draw(reason)?;
                } else if session.ply() >= self.cap && session.offer_draw().is_ok() {
                    // offered
                } else {
                    match self.mover.choose(session.position()) {
                        Some(m) => session.play(m)?,
                        // No legal move means the game ended by rule: the session has already sent its End.
                        None => return Ok(false),
                    }
                }
                Ok(true)
            }
            Action::AnswerDraw => {
                if session.ply() >= self.cap {
                    session.accept_draw()?;
                } else {
                    session.decline_draw()?;
                }
                Ok(true)
            }
            Action::Wait | Action::Done => Ok(false),
        }
    }
}

/// Plays a fixed line: at its turn, the move of the line at the match's current ply (the line is the whole
/// game's, both sides' moves). It never claims, offers or accepts a draw (it declines offers), so that the
/// line's own end — a mate, a fifth repetition, the 75-move rule — is what ends the match. Past the end
/// of the line it does nothing.
///
/// # Examples
/// ```
/// use tesseract_wire::testkit::ScriptedPlayer;
/// let fools_mate = ScriptedPlayer::new("f2f3 e7e5 g2g4 d8h4".split(' '));
/// assert_eq!(fools_mate.len(), 4);
/// ```
#[derive(Clone, Debug)]
pub struct ScriptedPlayer {
    line: Vec<String>,
}

impl ScriptedPlayer {
    /// A player of `line` (move texts of RULES.md §4, from the match's start).
    pub fn new<S: Into<String>>(line: impl IntoIterator<Item = S>) -> ScriptedPlayer {
        ScriptedPlayer { line: line.into_iter().map(Into::into).collect() }
    }

    /// The number of plies in the line.
    pub fn len(&self) -> usize {
        self.line.len()
    }

    /// Whether the line is empty.
    pub fn is_empty(&self) -> bool {
        self.line.is_empty()
    }

    /// Does what the session asks of the local player, if the line says what. Returns whether it acted.
    ///
    /// # Errors
    /// [`Error::IllegalLocalMove`] for a move of the line that is not legal where it comes (the session is
    /// unchanged), or what the session's local calls return.
    pub fn act(&mut self, session: &mut Session) -> Result<bool, Error> {
        match session.action() {
            Action::Move => match self.line.get(session.ply() as usize) {
                Some(text) => session.play_text(text).map(|()| true),
                None => Ok(false),
            },
            Action::AnswerDraw => session.decline_draw().map(|()| true),
            Action::Wait | Action::Done => Ok(false),
        }
    }
}
