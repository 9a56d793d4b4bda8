//! Playing the studies and the lessons: what a page, a terminal game or a binding needs to let a person
//! solve a study or follow a lesson, with every answer from the same code that proves them.
//!
//! - [`StudyPlay`]: the learner plays White's moves of a [`Study`]; each move is checked by the mate
//!   solver ([`MateSolver`]): a move that still mates within the moves left is answered by the longest
//!   defence (the study's own main line where it is one of them), a move that does not is answered by a
//!   refutation (a defence after which no mate comes in time), shown to the learner, who may take the
//!   pair back and try again. [`StudyPlay::hint`] names the piece that moves next in a solution.
//! - [`daily`]: the puzzle of a day, a mate in 2 or 3 composed from the date (the same for everyone).
//! - [`judge`]: a composer's check of any position: is it a sound mate in N (mate in exactly N, one key)?
//! - [`LessonPlay`]: the learner moves the taught pieces of a [`Lesson`], the other side passes, as
//!   [`crate::lesson::verify`] explores it; the goal is checked after each move.
//!
//! # Examples
//! ```
//! use tesseract_verify::{study, tutor::{StudyPlay, StudyReply}};
//! let studies = study::shipped()?;
//! let mut play = StudyPlay::new(studies[0].clone());
//! let key = studies[0].key;
//! assert_eq!(play.hint()?, key.from);
//! assert_eq!(play.play(key)?, StudyReply::Solved { moves: 1 });
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use tesseract_board::{Cell, Color, Move, Position};
use tesseract_movegen::legal_moves;

use crate::compose::{Composer, main_line};
use crate::lesson::{Lesson, goal_met, pass};
use crate::mate::{MateSolver, SearchAborted};
use crate::study::{MAX_N, Study};

/// The solver's node budget for one answer: enough for every shipped study's wrong first moves (mate in
/// at most 4), small enough that a page answers in seconds.
pub const ANSWER_NODES: u64 = 20_000_000;

/// Why a move of the learner was not taken.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TutorError {
    /// The move is not a legal move of the learner here (or not a move of a taught piece, in a lesson).
    #[error("{0} is not a move you can play here")]
    NotAllowed(String),
    /// The study or lesson is already over (solved, failed, or the goal met): take back or start again.
    #[error("this is over: take the last move back or start again")]
    Over,
    /// The solver reached its node limit before it could answer.
    #[error("too hard to decide here: {0}")]
    TooHard(SearchAborted),
}

impl From<SearchAborted> for TutorError {
    fn from(e: SearchAborted) -> TutorError {
        TutorError::TooHard(e)
    }
}

/// The answer to a move of the learner in a study.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StudyReply {
    /// The move mates: the study is solved in `moves` moves of White.
    Solved {
        /// White's moves played, this one included.
        moves: u32,
    },
    /// The move keeps the mate in time; Black plays this defence (already on the board).
    Defence(Move),
    /// The move lets Black escape: this defence (already on the board) avoids mate within the moves left,
    /// or, when `defence` is `None`, the moves are used up without mate (or Black is stalemated).
    Refuted {
        /// Black's answer, played on the board; `None` when Black has no move or no move is needed.
        defence: Option<Move>,
    },
}

/// A study being solved: the position, the moves played, and the solver that judges them.
#[derive(Debug)]
pub struct StudyPlay {
    study: Study,
    pos: Position,
    moves: Vec<Move>,
    failed: bool,
    solved: bool,
    solver: MateSolver,
}

impl StudyPlay {
    /// The study at its start, White to move.
    pub fn new(study: Study) -> StudyPlay {
        let pos = study.position.clone();
        StudyPlay {
            study,
            pos,
            moves: Vec::new(),
            failed: false,
            solved: false,
            solver: MateSolver::with_node_limit(ANSWER_NODES),
        }
    }

    /// The study.
    pub fn study(&self) -> &Study {
        &self.study
    }

    /// The position on the board now.
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played, White's and Black's, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// White's moves played so far.
    pub fn white_moves(&self) -> u32 {
        self.moves.len().div_ceil(2) as u32
    }

    /// White's moves left to give mate in (`n` less those played).
    pub fn moves_left(&self) -> u32 {
        self.study.n.saturating_sub(self.white_moves())
    }

    /// Whether the study is solved (White has mated in time).
    pub fn is_solved(&self) -> bool {
        self.solved
    }

    /// Whether the last move was refuted (take it back with [`StudyPlay::take_back`]).
    pub fn is_failed(&self) -> bool {
        self.failed
    }

    /// Whether the moves played so far are the study's main line.
    fn on_main_line(&self) -> bool {
        self.study.line.starts_with(&self.moves)
    }

    /// The cell of the piece that moves next in a solution: the main line's where the game follows it,
    /// else the first move the solver finds that still mates in time.
    ///
    /// # Errors
    /// [`TutorError::Over`] when the study is solved or failed, [`TutorError::TooHard`] when the solver
    /// runs out of nodes.
    pub fn hint(&mut self) -> Result<Cell, TutorError> {
        if self.solved || self.failed {
            return Err(TutorError::Over);
        }
        if self.on_main_line() {
            if let Some(m) = self.study.line.get(self.moves.len()) {
                return Ok(m.from);
            }
        }
        self.solver.clear();
        let keys = self.solver.keys(&self.pos, self.moves_left())?;
        keys.first().map(|m| m.from).ok_or(TutorError::Over)
    }

    /// Plays White's move `m` and Black's answer (see [`StudyReply`]).
    ///
    /// # Errors
    /// [`TutorError::NotAllowed`] for a move that is not legal, [`TutorError::Over`] after a mate or a
    /// refutation, [`TutorError::TooHard`] if the solver runs out of nodes (nothing is played then).
    pub fn play(&mut self, m: Move) -> Result<StudyReply, TutorError> {
        if self.solved || self.failed {
            return Err(TutorError::Over);
        }
        if !legal_moves(&self.pos).contains(&m) {
            return Err(TutorError::NotAllowed(tesseract_board::TextMove::from_move(m, &self.pos).to_string()));
        }
        let left = self.moves_left() - 1; // White's moves after this one
        let main_line = self.on_main_line();
        let mut after = self.pos.clone();
        after.make(m);
        let replies = legal_moves(&after);
        if replies.is_empty() {
            let mate = after.is_check();
            self.commit(m, None);
            if mate {
                self.solved = true;
                return Ok(StudyReply::Solved { moves: self.white_moves() });
            }
            self.failed = true;
            return Ok(StudyReply::Refuted { defence: None });
        }
        if left == 0 {
            self.commit(m, None);
            self.failed = true;
            return Ok(StudyReply::Refuted { defence: None });
        }
        self.solver.clear();
        let defences = self.solver.defences(&after, left)?;
        // A defence that escapes mate in time refutes the move; else the longest defence is played, the
        // study's own where it is one of the longest.
        if let Some(&(d, _)) = defences.iter().find(|(_, len)| len.is_none()) {
            self.commit(m, Some(d));
            self.failed = true;
            return Ok(StudyReply::Refuted { defence: Some(d) });
        }
        let longest = defences.iter().filter_map(|(_, len)| *len).max().unwrap_or(0);
        let planned = main_line.then(|| self.study.line.get(self.moves.len() + 1).copied()).flatten();
        let d = planned
            .filter(|p| defences.iter().any(|(d, len)| d == p && *len == Some(longest)))
            .or_else(|| defences.iter().find(|(_, len)| *len == Some(longest)).map(|(d, _)| *d))
            .expect("a position with legal moves has a defence");
        self.commit(m, Some(d));
        Ok(StudyReply::Defence(d))
    }

    fn commit(&mut self, m: Move, defence: Option<Move>) {
        self.pos.make(m);
        self.moves.push(m);
        if let Some(d) = defence {
            self.pos.make(d);
            self.moves.push(d);
        }
    }

    /// Takes back White's last move and Black's answer to it; false when no move was played.
    pub fn take_back(&mut self) -> bool {
        if self.moves.is_empty() {
            return false;
        }
        let keep = (self.white_moves() as usize - 1) * 2;
        self.moves.truncate(keep);
        self.pos = self.study.position.clone();
        for &m in &self.moves {
            self.pos.make(m);
        }
        self.failed = false;
        self.solved = false;
        true
    }
}

/// A lesson being followed: the learner's moves of the taught pieces, the other side passing.
#[derive(Clone, Debug)]
pub struct LessonPlay {
    lesson: Lesson,
    pos: Position,
    pieces: Vec<Cell>,
    moves: Vec<Move>,
    done: bool,
}

impl LessonPlay {
    /// The lesson at its start.
    pub fn new(lesson: Lesson) -> LessonPlay {
        let pos = lesson.position.clone();
        let pieces = lesson.pieces.clone();
        LessonPlay { lesson, pos, pieces, moves: Vec::new(), done: false }
    }

    /// The lesson.
    pub fn lesson(&self) -> &Lesson {
        &self.lesson
    }

    /// The position on the board now (after the goal is met, the position just after the last move).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The cells of the taught pieces now.
    pub fn pieces(&self) -> &[Cell] {
        &self.pieces
    }

    /// The moves played.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Whether the goal is met.
    pub fn is_done(&self) -> bool {
        self.done
    }

    /// The moves the learner may play now: the legal moves of the taught pieces (none once done).
    pub fn legal_moves(&self) -> Vec<Move> {
        if self.done {
            return Vec::new();
        }
        legal_moves(&self.pos).into_iter().filter(|m| self.pieces.contains(&m.from)).collect()
    }

    /// Plays the learner's move; returns whether the goal is met.
    ///
    /// # Errors
    /// [`TutorError::NotAllowed`] for a move that is not a legal move of a taught piece (or one that
    /// would attack the other king before the goal, which the lesson's proof rules out),
    /// [`TutorError::Over`] once the goal is met.
    pub fn play(&mut self, m: Move) -> Result<bool, TutorError> {
        if self.done {
            return Err(TutorError::Over);
        }
        let text = tesseract_board::TextMove::from_move(m, &self.pos).to_string();
        if !self.legal_moves().contains(&m) {
            return Err(TutorError::NotAllowed(text));
        }
        let learner: Color = self.pos.turn();
        let mut pos = self.pos.clone();
        pos.make(m);
        let mut pieces: Vec<Cell> = self.pieces.iter().copied().filter(|&c| c != m.from).collect();
        if m.promotion.is_none() {
            pieces.push(m.to);
            pieces.sort();
        }
        let done = goal_met(&self.lesson.goal, &pos, &pieces);
        let next = if done { Some(pos) } else { pass(&pos, learner) };
        let Some(next) = next else { return Err(TutorError::NotAllowed(text)) };
        self.pos = next;
        self.pieces = pieces;
        self.moves.push(m);
        self.done = done;
        Ok(done)
    }

    /// Starts the lesson again.
    pub fn restart(&mut self) {
        *self = LessonPlay::new(self.lesson.clone());
    }
}

impl fmt::Display for StudyReply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StudyReply::Solved { moves } => write!(f, "solved in {moves}"),
            StudyReply::Defence(_) => f.write_str("defence"),
            StudyReply::Refuted { .. } => f.write_str("refuted"),
        }
    }
}

/// The verifier's answer to "is this a sound mate in N?" ([`judge`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Soundness {
    /// The side to move has no mate within N moves.
    NoMate,
    /// It mates, but in fewer moves than N: a mate in N must be exact.
    Shorter {
        /// The fewest moves that mate.
        n: u32,
    },
    /// Mate in exactly N with one key: a sound problem, with its main line (the longest defences).
    Sound {
        /// The only first move that mates in N.
        key: Move,
        /// The key, the longest defence, the fastest mate, ... (2N − 1 moves).
        line: Vec<Move>,
    },
    /// Mate in exactly N, but more than one first move mates in N: every such move (the cooks).
    Cooked {
        /// The first moves that mate within N, in generation order.
        keys: Vec<Move>,
    },
}

/// Judges `pos` as a mate in `n` for the side to move, with the solver of the studies' proofs under a node
/// limit: no mate, a shorter mate, sound (the unique key and its main line) or cooked (every key).
///
/// # Errors
/// [`TutorError::NotAllowed`] for `n` outside 1 to [`MAX_N`], [`TutorError::TooHard`] when the solver
/// reaches `node_limit`.
///
/// # Examples
/// ```
/// use tesseract_verify::{study, tutor::{judge, Soundness}};
/// let s = &study::shipped()?[0];
/// assert!(matches!(judge(&s.position, s.n, 1_000_000)?, Soundness::Sound { key, .. } if key == s.key));
/// assert_eq!(judge(&s.position, 2, 1_000_000)?, Soundness::Shorter { n: 1 });
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn judge(pos: &Position, n: u32, node_limit: u64) -> Result<Soundness, TutorError> {
    if !(1..=MAX_N).contains(&n) {
        return Err(TutorError::NotAllowed(format!("a mate in {n} (a composition is a mate in 1 to {MAX_N})")));
    }
    let mut solver = MateSolver::with_node_limit(node_limit);
    match solver.shortest_mate(pos, n)? {
        None => return Ok(Soundness::NoMate),
        Some(m) if m < n => return Ok(Soundness::Shorter { n: m }),
        Some(_) => {}
    }
    let keys = solver.keys(pos, n)?;
    if let [key] = keys[..] {
        let line = main_line(&mut solver, pos, n, key)?;
        return Ok(Soundness::Sound { key, line });
    }
    Ok(Soundness::Cooked { keys })
}

/// The most tries [`daily`] makes (each a random position judged by the solver under a node limit);
/// every date tried so far found its puzzle within a few hundred.
pub const DAILY_TRIES: u64 = 100_000;

/// The puzzle of the day `date` (written `YYYYMMDD`, e.g. `20261203`): a mate in 2 on even dates and in 3
/// on odd ones, on the 4D board, composed by [`Composer`] seeded with the date (the composer's recipe of
/// the shipped studies: kings near a corner, pieces within reach, 85% fill), so every copy of this
/// version of the library draws the same puzzle for a date. The composer keeps only mates in exactly N
/// with a unique key; the puzzle is returned as a [`Study`] (title `Puzzle of YYYY-MM-DD`, its idea the
/// themes found), to be played with [`StudyPlay`]. A mate in 2 takes milliseconds, a mate in 3 a few
/// seconds natively.
///
/// # Errors
/// [`TutorError::NotAllowed`] for a number that is not a date from 2000 to 2999, or (not seen) no
/// puzzle within [`DAILY_TRIES`].
pub fn daily(date: u32) -> Result<Study, TutorError> {
    let (year, month, day) = (date / 10_000, date / 100 % 100, date % 100);
    if !(2000..=2999).contains(&year) || !(1..=12).contains(&month) || !(1..=31).contains(&day) {
        return Err(TutorError::NotAllowed(format!("{date} as a date YYYYMMDD")));
    }
    let n = if date % 2 == 0 { 2 } else { 3 };
    let mut composer = Composer::new(u64::from(date), n);
    composer.corner = true;
    composer.reach = 4;
    composer.fill = 85;
    composer.node_limit = if n == 2 { 500_000 } else { 1_000_000 };
    while composer.tries < DAILY_TRIES {
        let Some(candidate) = composer.try_one() else { continue };
        let name = format!("{year:04}-{month:02}-{day:02}");
        let record = candidate.to_record_text(&name);
        let mut study = crate::study::parse(&record)
            .ok()
            .and_then(|mut list| list.pop())
            .expect("a candidate's record reads back (the composer's own tests)");
        study.title = format!("Puzzle of {name}");
        return Ok(study);
    }
    Err(TutorError::NotAllowed(format!("a puzzle for {date}: none in {DAILY_TRIES} tries")))
}
