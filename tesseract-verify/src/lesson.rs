//! Tutorial lessons, and the proof that none of them can be failed.
//!
//! A lesson is a position, the taught piece (or pieces: the pawns lesson has a Y-pawn and a W-pawn),
//! a goal and a move bound. Only the taught pieces move; the other side, and the taught side's other
//! pieces, stay where they are. After each move of the learner the other side passes: the position is
//! rebuilt with the learner to move again, as plain data ([`tesseract_board::Setup`]) validated by the
//! board crate, and the learner's next moves are the legal moves of the taught pieces that the real
//! move generator (`tesseract_movegen::legal_moves`) gives there. So the lesson is played by the rules,
//! with the learner's own king, pins and all.
//!
//! [`verify`] explores *every* state reachable by any sequence of such moves (a breadth-first search
//! over positions, keyed by their Zobrist hash and the cells of the taught pieces), then computes,
//! backwards from the states where the goal is met, how many moves each state still needs. It proves:
//! - the goal is reachable from the start within the bound (the shortest solution, the *par*, is at most
//!   the bound);
//! - the goal stays reachable from every reachable state: there is no dead end, so a learner who wanders
//!   may take longer than the bound but can never get stuck;
//! - the other king is never attacked before the goal is met (a lesson where it could be would force the
//!   other side to answer, and that side does not move in a lesson).
//!
//! Goals ([`Goal`]): capture every piece of the other side but its king; bring a taught piece to a marked
//! cell; give check (the lesson ends there); promote every taught pawn (a pawn that promotes leaves the
//! lesson: it is no longer a pawn).
//!
//! # Examples
//! ```
//! use tesseract_verify::lesson;
//! let lessons = lesson::shipped()?;
//! assert_eq!(lessons.len(), 8);
//! let report = lesson::verify(&lessons[0], lesson::LessonCheck::Fast);
//! assert!(report.passed(), "{report}");
//! # Ok::<_, tesseract_verify::records::DataError>(())
//! ```

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::time::Duration;

use tesseract_board::{CastlingMode, Cell, Color, Move, Position, Role, TextMove};
use tesseract_movegen::{legal_moves, naive};

use crate::records::{self, DataError, Field, Record};

/// The eight shipped lessons, as text (`tesseract-verify/data/lessons.txt`).
pub const LESSONS_TXT: &str = include_str!("../data/lessons.txt");

/// The fields of a lesson record, the header first.
pub const FIELDS: [&str; 8] = ["lesson", "title", "fen", "piece", "goal", "bound", "explain", "teaches"];

/// The most states a lesson may have (a lesson is small; this stops a broken one from running away).
pub const MAX_STATES: usize = 2_000_000;

/// What the learner must do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Goal {
    /// Capture every piece of the other side but its king (`capture`).
    CaptureAll,
    /// Bring a taught piece to this cell (`reach 3333`).
    Reach(Cell),
    /// Give check to the other king (`check`); the lesson ends with the check.
    Check,
    /// Promote every taught pawn (`promote`).
    Promote,
}

impl Goal {
    fn text(&self, pos: &Position) -> String {
        match self {
            Goal::CaptureAll => "capture".into(),
            Goal::Reach(c) => format!("reach {}", pos.geometry().cell_name(*c)),
            Goal::Check => "check".into(),
            Goal::Promote => "promote".into(),
        }
    }
}

/// A lesson, as read from a data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lesson {
    /// The record's name (the `lesson:` value).
    pub name: String,
    /// The line of the record's header in its file.
    pub source_line: usize,
    /// The title.
    pub title: String,
    /// The kind of piece the lesson teaches (the pawns lesson names the Y-pawn and teaches both pawns).
    pub teaches: Role,
    /// The position; the side to move is the learner's.
    pub position: Position,
    /// The cells of the taught pieces.
    pub pieces: Vec<Cell>,
    /// The goal.
    pub goal: Goal,
    /// The moves the learner is given to reach the goal (the par must not exceed it).
    pub bound: u32,
    /// The explanation shown to the learner.
    pub explain: String,
}

impl Lesson {
    /// Reads one record (see [`FIELDS`]).
    ///
    /// # Errors
    /// [`DataError`] naming the line and field of the first problem: a missing field, an invalid
    /// position, a taught cell that is off the board or holds no piece of the side to move, a taught piece
    /// of another kind than `teaches`, an unknown goal, a bound out of range, an empty text.
    pub fn from_record(record: &Record) -> Result<Lesson, DataError> {
        let fen = record.require("fen")?;
        let position = Position::from_fen(&fen.value).map_err(|e| fen.error(e.to_string()))?;
        let teaches_field = record.require("teaches")?;
        let teaches = crate::study::parse_role(teaches_field)?;
        let piece_field = record.require("piece")?;
        let pieces = parse_pieces(&position, piece_field, teaches)?;
        let goal_field = record.require("goal")?;
        let goal = parse_goal(&position, goal_field)?;
        if goal == Goal::Promote && pieces.iter().any(|&c| position.piece_at(c).is_some_and(|p| !p.role.is_pawn())) {
            return Err(goal_field.error("only pawns can be asked to promote"));
        }
        Ok(Lesson {
            name: record.label().to_string(),
            source_line: record.start,
            title: record.require("title")?.text()?,
            teaches,
            position,
            pieces,
            goal,
            bound: record.require("bound")?.number(1..=50)?,
            explain: record.require("explain")?.text()?,
        })
    }

    /// The goal as written in the data file.
    pub fn goal_text(&self) -> String {
        self.goal.text(&self.position)
    }
}

fn parse_pieces(pos: &Position, field: &Field, teaches: Role) -> Result<Vec<Cell>, DataError> {
    let g = pos.geometry();
    let mut cells = Vec::new();
    for text in field.value.split_whitespace() {
        let cell = g.parse_cell(text).ok_or_else(|| field.error(format!("{text:?} is not a cell of this board")))?;
        let piece = pos.piece_at(cell);
        match piece {
            Some(p) if p.color == pos.turn() => {
                let same = p.role == teaches || (teaches.is_pawn() && p.role.is_pawn());
                if !same {
                    return Err(field.error(format!("{text} holds a {}, but the lesson teaches the {teaches}", p.role)));
                }
            }
            _ => return Err(field.error(format!("{text} holds no piece of the side to move"))),
        }
        if cells.contains(&cell) {
            return Err(field.error(format!("{text} is named twice")));
        }
        cells.push(cell);
    }
    if cells.is_empty() {
        return Err(field.error("name the cell of at least one taught piece"));
    }
    cells.sort();
    Ok(cells)
}

fn parse_goal(pos: &Position, field: &Field) -> Result<Goal, DataError> {
    let mut words = field.value.split_whitespace();
    let goal = match (words.next(), words.next(), words.next()) {
        (Some("capture"), None, _) => Goal::CaptureAll,
        (Some("check"), None, _) => Goal::Check,
        (Some("promote"), None, _) => Goal::Promote,
        (Some("reach"), Some(cell), None) => Goal::Reach(
            pos.geometry()
                .parse_cell(cell)
                .ok_or_else(|| field.error(format!("{cell:?} is not a cell of this board")))?,
        ),
        _ => {
            return Err(field.error(format!(
                "expected `capture`, `check`, `promote` or `reach CELL`, found {:?}",
                records::cut(&field.value)
            )));
        }
    };
    Ok(goal)
}

/// Reads every lesson of a data file.
///
/// # Errors
/// [`DataError`] naming the line and field of the first problem.
pub fn parse(text: &str) -> Result<Vec<Lesson>, DataError> {
    records::parse(text, "lesson", &FIELDS)?.iter().map(Lesson::from_record).collect()
}

/// The shipped lessons ([`LESSONS_TXT`]).
///
/// # Errors
/// Never for the shipped file (a test reads it); the signature keeps the library free of panics.
pub fn shipped() -> Result<Vec<Lesson>, DataError> {
    parse(LESSONS_TXT)
}

/// How the learner's moves are generated in [`verify`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum LessonCheck {
    /// The fast generator, the engine's.
    #[default]
    Fast,
    /// The fast generator, and at every state the naive generator must give the taught pieces exactly the
    /// same destinations.
    Naive,
}

/// What is wrong with a lesson.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum LessonFault {
    /// The goal is already met at the start.
    GoalAtStart,
    /// The goal cannot be reached at all from the start.
    Unwinnable,
    /// The shortest solution is longer than the bound.
    OverBound {
        /// The shortest solution.
        par: u32,
        /// The bound.
        bound: u32,
    },
    /// After these moves the goal can no longer be reached.
    DeadEnd {
        /// The moves from the start.
        line: Vec<String>,
    },
    /// After these moves the other king is attacked before the goal is met.
    Check {
        /// The moves from the start.
        line: Vec<String>,
    },
    /// The two generators give the taught pieces different moves after these moves.
    Generators {
        /// The moves from the start.
        line: Vec<String>,
    },
    /// More than [`MAX_STATES`] states.
    TooManyStates,
}

impl fmt::Display for LessonFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let line = |l: &Vec<String>| if l.is_empty() { "the start".to_string() } else { l.join(" ") };
        match self {
            LessonFault::GoalAtStart => write!(f, "the goal is met before any move"),
            LessonFault::Unwinnable => write!(f, "the goal cannot be reached from the start"),
            LessonFault::OverBound { par, bound } => {
                write!(f, "the shortest solution takes {par} moves, the bound is {bound}")
            }
            LessonFault::DeadEnd { line: l } => {
                write!(f, "dead end: after {} the goal can no longer be reached", line(l))
            }
            LessonFault::Check { line: l } => {
                write!(f, "after {} the other king is attacked before the goal is met", line(l))
            }
            LessonFault::Generators { line: l } => {
                write!(f, "after {} the generators give the taught pieces different moves", line(l))
            }
            LessonFault::TooManyStates => write!(f, "more than {MAX_STATES} states"),
        }
    }
}

/// The result of [`verify`].
#[derive(Clone, Debug)]
pub struct LessonReport {
    /// The lesson's name.
    pub name: String,
    /// Reachable states, the start and the goal states included.
    pub states: usize,
    /// Moves explored (edges of the state graph).
    pub moves: usize,
    /// Reachable states where the goal is met.
    pub goal_states: usize,
    /// The shortest solution from the start.
    pub par: Option<u32>,
    /// The bound from the file.
    pub bound: u32,
    /// The most moves any reachable state still needs (the worst a wandering learner can leave).
    pub worst: u32,
    /// A shortest solution, as text.
    pub solution: Vec<String>,
    /// Every fault (at most one of each kind); empty when the lesson passes.
    pub faults: Vec<LessonFault>,
    /// Wall time (zero in a web page: see [`verify`]'s clock).
    pub elapsed: Duration,
}

impl LessonReport {
    /// Whether the lesson passed.
    pub fn passed(&self) -> bool {
        self.faults.is_empty()
    }
}

impl fmt::Display for LessonReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = if self.passed() { "ok" } else { "FAILED" };
        write!(
            f,
            "lesson {}: {status}, {} states, {} moves, {} goal states, par {} (bound {}), worst state {} moves from the goal, {:.2?}",
            self.name,
            self.states,
            self.moves,
            self.goal_states,
            self.par.map_or("none".to_string(), |p| p.to_string()),
            self.bound,
            self.worst,
            self.elapsed
        )?;
        for fault in &self.faults {
            write!(f, "\n  - {fault}")?;
        }
        Ok(())
    }
}

/// One state: the learner to move (or, for a goal state, the position just after the winning move).
struct State {
    pos: Position,
    pieces: Vec<Cell>,
    parent: Option<(usize, Move)>,
    goal: bool,
    next: Vec<usize>,
}

/// Whether the goal is met just after a move of the learner (`pos` has the other side to move).
pub(crate) fn goal_met(goal: &Goal, pos: &Position, pieces: &[Cell]) -> bool {
    match goal {
        Goal::CaptureAll => pos.pieces().all(|(_, p)| p.color == pos.turn().other() || p.role == Role::King),
        Goal::Reach(cell) => pieces.contains(cell),
        Goal::Check => pos.is_check(),
        Goal::Promote => pieces.is_empty(),
    }
}

/// The learner's position after the other side passes: `pos` with the learner to move again, rebuilt and
/// validated from plain data. `None` if that is not a valid position (the other king is attacked).
pub(crate) fn pass(pos: &Position, learner: Color) -> Option<Position> {
    let mut setup = pos.to_setup();
    setup.turn = learner;
    setup.en_passant = None;
    setup.en_passant_pawn = None;
    Position::from_setup(setup, CastlingMode::Standard).ok()
}

/// The key of a learner-to-move position in the table, whose keys are positions with the other side to
/// move (taken right after the learner's move): the same hash with the side flipped.
fn start_key(pos: &Position) -> u64 {
    let keys = tesseract_board::zobrist::Zobrist::of(pos.shape());
    pos.hash() ^ keys.side()
}

/// The texts of the moves leading to state `i`.
fn line_to(states: &[State], mut i: usize) -> Vec<String> {
    let mut line = Vec::new();
    while let Some((p, m)) = states[i].parent {
        line.push(TextMove::from_move(m, &states[p].pos).to_string());
        i = p;
    }
    line.reverse();
    line
}

/// The taught pieces' legal moves at `pos`, by the naive generator, as (from, to, promotion) sorted.
fn naive_moves(pos: &Position, pieces: &[Cell]) -> Vec<Move> {
    let setup = pos.to_setup();
    let mut v: Vec<Move> = naive::legal_moves(&setup).into_iter().filter(|m| pieces.contains(&m.from)).collect();
    v.sort();
    v
}

/// A stopwatch for [`LessonReport::elapsed`]. On `wasm32-unknown-unknown` (a web page), where
/// `std::time::Instant` panics, it reads zero.
fn clock() -> impl Fn() -> Duration {
    #[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
    {
        let start = std::time::Instant::now();
        move || start.elapsed()
    }
    #[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
    {
        || Duration::ZERO
    }
}

/// Explores every state of `lesson` and proves it winnable within its bound and free of dead ends (see
/// the module docs).
pub fn verify(lesson: &Lesson, check: LessonCheck) -> LessonReport {
    let started = clock();
    let learner = lesson.position.turn();
    let mut report = LessonReport {
        name: lesson.name.clone(),
        states: 0,
        moves: 0,
        goal_states: 0,
        par: None,
        bound: lesson.bound,
        worst: 0,
        solution: Vec::new(),
        faults: Vec::new(),
        elapsed: Duration::ZERO,
    };
    let met_at_start = match &lesson.goal {
        Goal::CaptureAll => lesson.position.pieces().all(|(_, p)| p.color == learner || p.role == Role::King),
        Goal::Reach(cell) => lesson.pieces.contains(cell),
        Goal::Check | Goal::Promote => false,
    };
    if met_at_start {
        report.faults.push(LessonFault::GoalAtStart);
        report.states = 1;
        report.elapsed = started();
        return report;
    }
    let mut states: Vec<State> = vec![State {
        pos: lesson.position.clone(),
        pieces: lesson.pieces.clone(),
        parent: None,
        goal: false,
        next: Vec::new(),
    }];
    let mut index: HashMap<(u64, Vec<Cell>, bool), usize> = HashMap::new();
    // The start is keyed as if the other side had just passed: its hash with the other side to move.
    index.insert((start_key(&lesson.position), lesson.pieces.clone(), false), 0);
    let mut queue = VecDeque::from([0usize]);
    let mut check_fault = false;
    let mut generator_fault = false;
    while let Some(i) = queue.pop_front() {
        if states[i].goal {
            continue;
        }
        let pos = states[i].pos.clone();
        let pieces = states[i].pieces.clone();
        let mut moves: Vec<Move> = legal_moves(&pos).into_iter().filter(|m| pieces.contains(&m.from)).collect();
        moves.sort();
        if check == LessonCheck::Naive && !generator_fault && naive_moves(&pos, &pieces) != moves {
            generator_fault = true;
            report.faults.push(LessonFault::Generators { line: line_to(&states, i) });
        }
        let mut pos = pos;
        for m in moves {
            report.moves += 1;
            let undo = pos.make(m);
            let mut next_pieces: Vec<Cell> = pieces.iter().copied().filter(|&c| c != m.from).collect();
            if m.promotion.is_none() {
                next_pieces.push(m.to);
                next_pieces.sort();
            }
            let goal = goal_met(&lesson.goal, &pos, &next_pieces);
            if !goal && pos.is_check() {
                pos.unmake(m, undo);
                if !check_fault {
                    check_fault = true;
                    let mut line = line_to(&states, i);
                    line.push(TextMove::from_move(m, &pos).to_string());
                    report.faults.push(LessonFault::Check { line });
                }
                continue;
            }
            // The key is taken before the other side passes: the same position, the other side to move.
            let key = (pos.hash(), next_pieces, goal);
            let j = match index.get(&key) {
                Some(&j) => j,
                None => {
                    let j = states.len();
                    if j >= MAX_STATES {
                        report.faults.push(LessonFault::TooManyStates);
                        report.states = states.len();
                        report.elapsed = started();
                        return report;
                    }
                    let next_pos = if goal { Some(pos.clone()) } else { pass(&pos, learner) };
                    let Some(next_pos) = next_pos else {
                        // Not reached: a position whose other king is not attacked is always valid.
                        pos.unmake(m, undo);
                        continue;
                    };
                    let next_pieces = key.1.clone();
                    index.insert(key, j);
                    states.push(State {
                        pos: next_pos,
                        pieces: next_pieces,
                        parent: Some((i, m)),
                        goal,
                        next: Vec::new(),
                    });
                    queue.push_back(j);
                    j
                }
            };
            pos.unmake(m, undo);
            states[i].next.push(j);
        }
    }
    report.states = states.len();
    report.goal_states = states.iter().filter(|s| s.goal).count();
    // Distances to the goal, backwards from the goal states.
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); states.len()];
    for (i, s) in states.iter().enumerate() {
        for &j in &s.next {
            preds[j].push(i);
        }
    }
    let mut dist: Vec<Option<u32>> = states.iter().map(|s| s.goal.then_some(0)).collect();
    let mut queue: VecDeque<usize> = (0..states.len()).filter(|&i| states[i].goal).collect();
    while let Some(j) = queue.pop_front() {
        let d = dist[j].expect("queued states have a distance") + 1;
        for &i in &preds[j] {
            if dist[i].is_none() {
                dist[i] = Some(d);
                queue.push_back(i);
            }
        }
    }
    report.par = dist[0];
    report.worst = dist.iter().flatten().copied().max().unwrap_or(0);
    match report.par {
        None => report.faults.push(LessonFault::Unwinnable),
        Some(par) if par > lesson.bound => report.faults.push(LessonFault::OverBound { par, bound: lesson.bound }),
        Some(_) => {}
    }
    if let Some(dead) = (1..states.len()).find(|&i| dist[i].is_none()) {
        report.faults.push(LessonFault::DeadEnd { line: line_to(&states, dead) });
    }
    // A shortest solution: follow decreasing distances from the start.
    if let Some(mut d) = report.par {
        let mut i = 0;
        while d > 0 {
            let Some(&j) = states[i].next.iter().find(|&&j| dist[j] == Some(d - 1)) else { break };
            report.solution.push(
                TextMove::from_move(states[j].parent.expect("a child has a parent").1, &states[i].pos).to_string(),
            );
            i = j;
            d -= 1;
        }
    }
    report.elapsed = started();
    report
}

/// Checks the set of lessons as the issue asks: one lesson for each of rook, bishop, unicorn, dragon,
/// queen, king, knight and the pawns (Y and W together), returning the kinds that are missing or taught
/// twice, as messages.
pub fn verify_set(lessons: &[Lesson]) -> Vec<String> {
    let kinds =
        [Role::Rook, Role::Bishop, Role::Unicorn, Role::Dragon, Role::Queen, Role::King, Role::Knight, Role::YPawn];
    let norm = |r: Role| if r == Role::WPawn { Role::YPawn } else { r };
    let mut faults = Vec::new();
    for kind in kinds {
        let n = lessons.iter().filter(|l| norm(l.teaches) == kind).count();
        if n != 1 {
            faults.push(format!("{n} lessons teach the {}", if kind == Role::YPawn { "pawns" } else { kind.name() }));
        }
    }
    if let Some(l) = lessons.iter().find(|l| norm(l.teaches) == Role::YPawn) {
        let roles: Vec<Role> = l.pieces.iter().filter_map(|&c| l.position.piece_at(c)).map(|p| p.role).collect();
        if !(roles.contains(&Role::YPawn) && roles.contains(&Role::WPawn)) {
            faults.push(format!("the pawns lesson `{}` must teach a Y-pawn and a W-pawn together", l.name));
        }
    }
    faults
}
