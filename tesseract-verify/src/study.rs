//! Mate-in-N studies: the data file, and the three machine checks every study must pass.
//!
//! A study is a position, a number N, a key move, a main line, the kind of piece that gives mate at its
//! end, a title and its idea in one line. [`verify`] proves, with the exhaustive [`MateSolver`]:
//!
//! 1. **Correctness.** Iterative deepening from one move up to N finds the first mate at exactly N: no mate
//!    in fewer, a mate in N. A mate in N moves is 2N−1 plies, so this is a full-width search of 2N plies,
//!    twice the announced depth; and the key is one of the first moves that achieve it.
//! 2. **Uniqueness.** Every legal first move is searched: none but the key mates in N or fewer (a second
//!    one is a *cook*).
//! 3. **Forcedness.** After the key, *every* defence is played and the mate is followed to the end, each
//!    defence again enumerated at every later defender node, and each final position inspected: no legal
//!    move and the king in check. Nothing is taken from a score or from the table
//!    ([`MateSolver::prove`]); with [`ProofCheck::Naive`] every node of that tree is re-checked by the
//!    independent naive generator.
//!
//! Then the main line given in the file is checked move by move: the defences in it resist longest, the
//! attacking moves mate as fast as possible, it ends in mate, and the last move is made by the piece kind
//! the file names (for a promotion, the pawn).
//!
//! # Examples
//! ```
//! use tesseract_verify::mate::{MateSolver, ProofCheck};
//! use tesseract_verify::study;
//! let studies = study::shipped()?;
//! assert_eq!(studies.len(), 12);
//! let first = &studies[0];
//! let report = study::verify(first, &mut MateSolver::new(), ProofCheck::Fast);
//! assert!(report.passed(), "{report}");
//! # Ok::<_, tesseract_verify::records::DataError>(())
//! ```

use std::collections::BTreeSet;
use std::fmt;
use std::time::{Duration, Instant};

use tesseract_board::{Move, Position, Role, TextMove};
use tesseract_movegen::{Legal, text_line};

use crate::mate::{MAX_MATE, MateSolver, ProofCheck, ProofFailure, ProofStats, SearchAborted};
use crate::records::{self, DataError, Field, Record};

/// The twelve shipped studies, as text (`tesseract-verify/data/studies.txt`).
pub const STUDIES_TXT: &str = include_str!("../data/studies.txt");

/// The fields of a study record, the header first.
pub const FIELDS: [&str; 8] = ["study", "title", "fen", "n", "key", "line", "mate", "idea"];

/// The longest mate a data file may announce.
pub const MAX_N: u32 = 8;

/// A mate-in-N study, as read from a data file (its moves resolved against its position).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Study {
    /// The record's name (the `study:` value).
    pub name: String,
    /// The line of the record's header in its file.
    pub source_line: usize,
    /// The title.
    pub title: String,
    /// The position; the side to move mates.
    pub position: Position,
    /// Mate in `n` moves of the side to move.
    pub n: u32,
    /// The key: the only first move that mates in `n`.
    pub key: Move,
    /// The main line: the key, the longest defence, and so on to mate (2n − 1 moves).
    pub line: Vec<Move>,
    /// The kind of the piece that makes the last move of the main line (a pawn for a promotion).
    pub mate: Role,
    /// The idea, in one line, for the learner.
    pub idea: String,
}

impl Study {
    /// A move's text in this study's position.
    pub fn text(&self, m: Move) -> String {
        TextMove::from_move(m, &self.position).to_string()
    }

    /// The main line as text, each move written in the position it is played in.
    pub fn line_text(&self) -> Vec<String> {
        let mut pos = self.position.clone();
        self.line
            .iter()
            .map(|&m| {
                let t = TextMove::from_move(m, &pos).to_string();
                pos.make(m);
                t
            })
            .collect()
    }

    /// The study as a record of the data file.
    pub fn to_record_text(&self) -> String {
        format!(
            "study: {}\ntitle: {}\nfen: {}\nn: {}\nkey: {}\nline: {}\nmate: {}\nidea: {}\n",
            self.name,
            self.title,
            self.position.fen(),
            self.n,
            self.text(self.key),
            self.line_text().join(" "),
            self.mate.upper_char(4),
            self.idea
        )
    }

    /// Reads one record (see [`FIELDS`]).
    ///
    /// # Errors
    /// [`DataError`] naming the line and field of the first problem: a missing field, a position that is
    /// not valid TFEN, a number out of range, a move that is not legal where it is played, a main line of
    /// the wrong length or not starting with the key, an unknown piece letter, an empty text.
    pub fn from_record(record: &Record) -> Result<Study, DataError> {
        let fen = record.require("fen")?;
        let position = Position::from_fen(&fen.value).map_err(|e| fen.error(e.to_string()))?;
        let n_field = record.require("n")?;
        let n = n_field.number(1..=MAX_N)?;
        let key_field = record.require("key")?;
        let key = parse_move(&position, &key_field.value).map_err(|e| key_field.error(e))?;
        let line_field = record.require("line")?;
        let line = parse_line(&position, line_field)?;
        if line.len() != 2 * n as usize - 1 {
            return Err(line_field.error(format!(
                "a mate in {n} has {} moves in its main line, found {}",
                2 * n - 1,
                line.len()
            )));
        }
        if line[0] != key {
            return Err(line_field.error("the main line must start with the key"));
        }
        let mate_field = record.require("mate")?;
        let mate = parse_role(mate_field)?;
        Ok(Study {
            name: record.label().to_string(),
            source_line: record.start,
            title: record.require("title")?.text()?,
            position,
            n,
            key,
            line,
            mate,
            idea: record.require("idea")?.text()?,
        })
    }
}

/// Moves separated by spaces, each legal where it is played.
pub(crate) fn parse_line(start: &Position, field: &Field) -> Result<Vec<Move>, DataError> {
    let mut pos = start.clone();
    let mut out = Vec::new();
    for (i, text) in field.value.split_whitespace().enumerate() {
        let m = parse_move(&pos, text).map_err(|e| field.error(format!("move {}: {e}", i + 1)))?;
        pos.make(m);
        out.push(m);
    }
    if out.is_empty() {
        return Err(field.error("no moves"));
    }
    Ok(out)
}

/// A move text resolved in `pos`. Move texts are ASCII; anything else is refused here, before the board
/// crate's parser sees it.
pub(crate) fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    if !text.is_ascii() {
        return Err(format!("{:?} is not a move text (RULES.md section 4)", records::cut(text)));
    }
    pos.parse_move(text).map_err(|e| e.to_string())
}

/// A piece letter of 4D (K Q R B N U D Y W), either case.
pub(crate) fn parse_role(field: &Field) -> Result<Role, DataError> {
    let mut chars = field.value.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Role::from_upper_char(c.to_ascii_uppercase(), 4)
            .ok_or_else(|| field.error(format!("{c:?} is not a piece letter (K Q R B N U D Y W)"))),
        _ => Err(field.error(format!("expected one piece letter, found {:?}", records::cut(&field.value)))),
    }
}

/// Reads every study of a data file.
///
/// # Errors
/// [`DataError`] naming the line and field of the first problem.
///
/// # Examples
/// ```
/// let err = tesseract_verify::study::parse("study: x\nn: 2\n").unwrap_err();
/// assert_eq!(err.to_string(), "line 1: the record `x` has no field `fen`");
/// ```
pub fn parse(text: &str) -> Result<Vec<Study>, DataError> {
    records::parse(text, "study", &FIELDS)?.iter().map(Study::from_record).collect()
}

/// The shipped studies ([`STUDIES_TXT`]).
///
/// # Errors
/// Never for the shipped file (a test reads it); the signature keeps the library free of panics.
pub fn shipped() -> Result<Vec<Study>, DataError> {
    parse(STUDIES_TXT)
}

/// What is wrong with a study.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StudyFault {
    /// Correctness: no mate within the announced number of moves.
    NoMate {
        /// The announced number.
        n: u32,
    },
    /// Correctness: a mate in fewer moves than announced.
    ShorterMate {
        /// The announced number.
        n: u32,
        /// The shortest mate found.
        found: u32,
    },
    /// Correctness: the key does not mate in N.
    KeyDoesNotMate {
        /// The key's text.
        key: String,
    },
    /// Uniqueness: other first moves mate in N or fewer.
    Cook {
        /// Their texts.
        moves: Vec<String>,
    },
    /// Forcedness: after these moves the defender escapes.
    Escape {
        /// The line from the key to the escaping defence.
        line: Vec<String>,
        /// Attacker moves that remained.
        remaining: u32,
    },
    /// Forcedness: this line ends in stalemate.
    Stalemate {
        /// The line from the key.
        line: Vec<String>,
    },
    /// The generators disagree on a node of the proof.
    Generators {
        /// The line from the key.
        line: Vec<String>,
        /// What differs.
        detail: String,
    },
    /// The main line is not a longest defence against a fastest mate.
    MainLine {
        /// The move number (1-based ply) that is wrong.
        ply: usize,
        /// What is wrong.
        reason: String,
    },
    /// The last move of the main line is made by another kind of piece than the file says.
    MatingPiece {
        /// What the file says.
        declared: Role,
        /// What the line does.
        found: Role,
    },
    /// The search hit its node limit.
    Aborted(SearchAborted),
}

impl fmt::Display for StudyFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StudyFault::NoMate { n } => write!(f, "correctness: no mate within {n} (a full search of {} plies)", 2 * n),
            StudyFault::ShorterMate { n, found } => {
                write!(f, "correctness: mate in {found}, fewer than the {n} announced")
            }
            StudyFault::KeyDoesNotMate { key } => write!(f, "correctness: the key {key} does not mate in N"),
            StudyFault::Cook { moves } => write!(f, "uniqueness: other first moves also mate: {}", moves.join(" ")),
            StudyFault::Escape { line, remaining } => {
                write!(f, "forcedness: after {} the defender escapes ({remaining} moves left)", line.join(" "))
            }
            StudyFault::Stalemate { line } => write!(f, "forcedness: {} ends in stalemate", line.join(" ")),
            StudyFault::Generators { line, detail } => {
                write!(f, "the generators disagree after {}: {detail}", line.join(" "))
            }
            StudyFault::MainLine { ply, reason } => write!(f, "main line, move {ply}: {reason}"),
            StudyFault::MatingPiece { declared, found } => {
                write!(f, "the main line ends with a {found} move, the file says {declared}")
            }
            StudyFault::Aborted(e) => write!(f, "{e}"),
        }
    }
}

/// The result of [`verify`]: what was found, and every fault.
#[derive(Clone, Debug)]
pub struct StudyReport {
    /// The study's name.
    pub name: String,
    /// The announced N.
    pub n: u32,
    /// The shortest mate found by iterative deepening up to N (`None`: none within N).
    pub shortest: Option<u32>,
    /// Every first move that mates within N, as text.
    pub keys: Vec<String>,
    /// The proof tree walked after the key (when the key mates).
    pub proof: Option<ProofStats>,
    /// Every fault found; empty when the study passes.
    pub faults: Vec<StudyFault>,
    /// Nodes the solver visited for this study.
    pub nodes: u64,
    /// Wall time.
    pub elapsed: Duration,
}

impl StudyReport {
    /// Whether the study passed every check.
    pub fn passed(&self) -> bool {
        self.faults.is_empty()
    }
}

impl fmt::Display for StudyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let status = if self.passed() { "ok" } else { "FAILED" };
        write!(f, "study {} (mate in {}): {status}", self.name, self.n)?;
        if let Some(p) = &self.proof {
            write!(
                f,
                ", keys {}, proof: {} defender nodes, {} defences, {} mates",
                self.keys.len(),
                p.defender_nodes,
                p.defences,
                p.mates
            )?;
            if p.naive_nodes > 0 {
                write!(f, " ({} nodes re-checked by the naive generator)", p.naive_nodes)?;
            }
        }
        write!(f, ", {} solver nodes, {:.2?}", self.nodes, self.elapsed)?;
        for fault in &self.faults {
            write!(f, "\n  - {fault}")?;
        }
        Ok(())
    }
}

/// Runs the three machine checks and the main-line check on `study` (see the module docs).
pub fn verify(study: &Study, solver: &mut MateSolver, check: ProofCheck) -> StudyReport {
    let started = Instant::now();
    let nodes_before = solver.nodes();
    let mut report = StudyReport {
        name: study.name.clone(),
        n: study.n,
        shortest: None,
        keys: Vec::new(),
        proof: None,
        faults: Vec::new(),
        nodes: 0,
        elapsed: Duration::ZERO,
    };
    if let Err(e) = run_checks(study, solver, check, &mut report) {
        report.faults.push(StudyFault::Aborted(e));
    }
    report.nodes = solver.nodes() - nodes_before;
    report.elapsed = started.elapsed();
    report
}

fn run_checks(
    study: &Study,
    solver: &mut MateSolver,
    check: ProofCheck,
    report: &mut StudyReport,
) -> Result<(), SearchAborted> {
    let n = study.n.min(MAX_MATE);
    let pos = &study.position;
    // 1. Correctness: the first mate found by deepening is at N.
    report.shortest = solver.shortest_mate(pos, n)?;
    match report.shortest {
        None => report.faults.push(StudyFault::NoMate { n }),
        Some(found) if found < n => report.faults.push(StudyFault::ShorterMate { n, found }),
        Some(_) => {}
    }
    // 2. Uniqueness: every first move that mates within N.
    let keys = solver.keys(pos, n)?;
    report.keys = keys.iter().map(|&m| study.text(m)).collect();
    if !keys.contains(&study.key) {
        report.faults.push(StudyFault::KeyDoesNotMate { key: study.text(study.key) });
    }
    let cooks: Vec<String> = keys.iter().filter(|&&m| m != study.key).map(|&m| study.text(m)).collect();
    if !cooks.is_empty() {
        report.faults.push(StudyFault::Cook { moves: cooks });
    }
    // 3. Forcedness: the explicit proof tree after the key.
    match solver.prove(pos, study.key, n, check) {
        Ok(stats) => report.proof = Some(stats),
        Err(failure) => {
            let text = |line: &[Move]| text_line(pos, line).iter().map(ToString::to_string).collect::<Vec<_>>();
            report.faults.push(match failure {
                ProofFailure::Escape { line, remaining } => StudyFault::Escape { line: text(&line), remaining },
                ProofFailure::Stalemate { line } => StudyFault::Stalemate { line: text(&line) },
                ProofFailure::Generators { line, detail } => StudyFault::Generators { line: text(&line), detail },
                ProofFailure::Aborted(e) => StudyFault::Aborted(e),
            });
        }
    }
    if report.faults.is_empty() {
        check_main_line(study, solver, report)?;
    }
    Ok(())
}

/// The texts of a line of moves played from `start`.
fn check_main_line(study: &Study, solver: &mut MateSolver, report: &mut StudyReport) -> Result<(), SearchAborted> {
    let mut pos = study.position.clone();
    let n = study.n;
    for (ply, &m) in study.line.iter().enumerate() {
        let fault = |reason: String| StudyFault::MainLine { ply: ply + 1, reason };
        if ply % 2 == 0 {
            // An attacking move: it must mate in exactly the moves that remain, the fastest possible.
            let remaining = n - (ply / 2) as u32;
            if solver.shortest_mate(&pos, remaining)? != Some(remaining) {
                report.faults.push(fault(format!("the attacker no longer mates in exactly {remaining}")));
                return Ok(());
            }
            let undo = pos.make(m);
            let mates = solver.mated_within(&pos, remaining - 1)?;
            if !mates {
                pos.unmake(m, undo);
                report.faults.push(fault(format!("this move does not mate in {remaining}")));
                return Ok(());
            }
        } else {
            // A defence: it must resist longest.
            let remaining = n - (ply / 2) as u32 - 1;
            let lengths = solver.defences(&pos, remaining)?;
            let best = lengths.iter().filter_map(|&(_, l)| l).max();
            let this = lengths.iter().find(|&&(d, _)| d == m).and_then(|&(_, l)| l);
            if this.is_none() || this != best {
                report
                    .faults
                    .push(fault(format!("this defence is mated in {this:?} moves, a longest defence in {best:?}",)));
                return Ok(());
            }
            pos.make(m);
        }
    }
    if pos.outcome() != Some(tesseract_movegen::Outcome::Checkmate { winner: study.position.turn() }) {
        report
            .faults
            .push(StudyFault::MainLine { ply: study.line.len(), reason: "the line does not end in mate".into() });
        return Ok(());
    }
    let last = *study.line.last().expect("a main line has a move");
    let mut before = study.position.clone();
    for &m in &study.line[..study.line.len() - 1] {
        before.make(m);
    }
    let found = before.piece_at(last.from).map(|p| p.role);
    if let Some(found) = found {
        if found != study.mate {
            report.faults.push(StudyFault::MatingPiece { declared: study.mate, found });
        }
    }
    Ok(())
}

/// What is wrong with a set of studies as a whole.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SetFault {
    /// Not the expected number of studies.
    Count {
        /// Expected.
        expected: usize,
        /// Found.
        found: usize,
    },
    /// Two studies share a position.
    SamePosition {
        /// The first study.
        first: String,
        /// The second.
        second: String,
    },
    /// Two studies share a title or an idea.
    SameText {
        /// The first study.
        first: String,
        /// The second.
        second: String,
    },
    /// The range of N is too narrow.
    Range {
        /// The smallest N.
        min: u32,
        /// The largest N.
        max: u32,
    },
    /// No study ends with a mate by this kind of piece (pawns count together).
    MissingMater {
        /// The kind.
        role: Role,
    },
}

impl fmt::Display for SetFault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetFault::Count { expected, found } => write!(f, "{found} studies, expected {expected}"),
            SetFault::SamePosition { first, second } => write!(f, "studies {first} and {second} share a position"),
            SetFault::SameText { first, second } => {
                write!(f, "studies {first} and {second} share a title or an idea")
            }
            SetFault::Range { min, max } => write!(f, "N runs from {min} to {max}; it must run from 1 to at least 4"),
            SetFault::MissingMater { role } => write!(f, "no study is mated by a {role}"),
        }
    }
}

/// The kinds of piece whose mates the set must show (a pawn of either kind counts for the pawns).
pub const REQUIRED_MATERS: [Role; 7] =
    [Role::Rook, Role::Bishop, Role::Unicorn, Role::Dragon, Role::Queen, Role::Knight, Role::YPawn];

/// Checks what the issue asks of the set as a whole: `expected` studies, pairwise distinct positions,
/// titles and ideas, N from 1 to at least 4, and a mate by each of rook, bishop, unicorn, dragon, queen,
/// knight and a pawn.
pub fn verify_set(studies: &[Study], expected: usize) -> Vec<SetFault> {
    let mut faults = Vec::new();
    if studies.len() != expected {
        faults.push(SetFault::Count { expected, found: studies.len() });
    }
    for (i, a) in studies.iter().enumerate() {
        for b in &studies[i + 1..] {
            if a.position == b.position {
                faults.push(SetFault::SamePosition { first: a.name.clone(), second: b.name.clone() });
            }
            if a.title == b.title || a.idea == b.idea {
                faults.push(SetFault::SameText { first: a.name.clone(), second: b.name.clone() });
            }
        }
    }
    let min = studies.iter().map(|s| s.n).min().unwrap_or(0);
    let max = studies.iter().map(|s| s.n).max().unwrap_or(0);
    if min != 1 || max < 4 {
        faults.push(SetFault::Range { min, max });
    }
    let maters: BTreeSet<Role> =
        studies.iter().map(|s| if s.mate == Role::WPawn { Role::YPawn } else { s.mate }).collect();
    for role in REQUIRED_MATERS {
        if !maters.contains(&role) {
            faults.push(SetFault::MissingMater { role });
        }
    }
    faults
}
