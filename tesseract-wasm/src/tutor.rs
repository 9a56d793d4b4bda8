//! [`StudyGame`] and [`LessonGame`]: the twelve studies and the eight lessons of `tesseract-verify`, played
//! as a learner plays them ([`tesseract_verify::tutor`]), in the shape of the JavaScript classes `Study`
//! and `Lesson`. The studies and lessons are the crate's own (`study::shipped`, `lesson::shipped`): the
//! page has no copy of them.
#![forbid(unsafe_code)]

use serde_json::{Value, json};
use tesseract_board::{Cell, Move, Position, TextMove};
use tesseract_movegen::Legal;
use tesseract_movegen::san::SanPlus;
use tesseract_verify::lesson::{self, Goal, Lesson};
use tesseract_verify::study::{self, Study};
use tesseract_verify::tutor::{self, LessonPlay, Soundness, StudyPlay, StudyReply};

use crate::args;
use crate::chess::move_entry;

fn studies() -> Vec<Study> {
    study::shipped().expect("the shipped studies are read by tesseract-verify's own tests")
}

fn lessons() -> Vec<Lesson> {
    lesson::shipped().expect("the shipped lessons are read by tesseract-verify's own tests")
}

/// The long form of a move (RULES.md §4) where it is played.
fn readable(pos: &Position, m: Move) -> String {
    SanPlus::from_move(pos, m).to_string()
}

/// The studies as a JSON array, in order: `{"number", "name", "title", "n", "idea", "fen", "key", "line",
/// "lineText"}` (`key` and `line` in the long form, `lineText` as move texts: the proven main line).
pub fn study_list() -> String {
    Value::Array(studies().iter().enumerate().map(|(i, s)| study_json(json!(i + 1), s)).collect()).to_string()
}

/// One study's entry of [`study_list`], numbered `number`.
fn study_json(number: Value, s: &Study) -> Value {
    let mut pos = s.position.clone();
    let (line, texts): (Vec<String>, Vec<String>) = s
        .line
        .iter()
        .map(|&m| {
            let t = (readable(&pos, m), TextMove::from_move(m, &pos).to_string());
            pos.make(m);
            t
        })
        .unzip();
    json!({
        "number": number, "name": s.name, "title": s.title, "n": s.n, "idea": s.idea,
        "fen": s.position.fen(), "key": line[0], "line": line, "lineText": texts,
    })
}

/// The puzzle of the day `date` (`YYYYMMDD`), [`tesseract_verify::tutor::daily`]: a mate in 2 (even dates)
/// or 3 (odd), composed from the date, as an entry of [`study_list`] numbered `"daily:YYYYMMDD"`.
/// Composing takes milliseconds for a mate in 2 and seconds for a mate in 3: call it in a worker.
///
/// # Errors
/// A number that is not a date `YYYYMMDD` from 2000 to 2999.
pub fn daily_puzzle(date: f64) -> Result<String, String> {
    let date = date_of(date)?;
    let study = tutor::daily(date).map_err(|e| e.to_string())?;
    Ok(study_json(json!(format!("daily:{date}")), &study).to_string())
}

fn date_of(date: f64) -> Result<u32, String> {
    args::whole_below(date, 30_000_000).map(|d| d as u32).ok_or_else(|| format!("{date} is not a date YYYYMMDD"))
}

/// The lessons as a JSON array, in order: `{"number", "name", "title", "teaches", "explain", "goal",
/// "target", "bound", "fen", "pieces"}`: `goal` is `capture`, `reach`, `check` or `promote`, `target` the
/// cell to reach (or `null`), `pieces` the taught pieces' cells.
pub fn lesson_list() -> String {
    let list: Vec<Value> = lessons()
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let (goal, target) = goal_parts(&l.goal);
            json!({
                "number": i + 1, "name": l.name, "title": l.title, "teaches": l.teaches.name_in(4),
                "explain": l.explain, "goal": goal, "target": target, "bound": l.bound, "fen": l.position.fen(),
                "pieces": l.pieces.iter().map(|c| c.index()).collect::<Vec<_>>(),
            })
        })
        .collect();
    Value::Array(list).to_string()
}

fn goal_parts(goal: &Goal) -> (&'static str, Option<usize>) {
    match goal {
        Goal::CaptureAll => ("capture", None),
        Goal::Reach(c) => ("reach", Some(c.index())),
        Goal::Check => ("check", None),
        Goal::Promote => ("promote", None),
    }
}

/// The shortest way through lesson `number` (1 to 8), as move texts: the solution tesseract-verify's
/// proof of the lesson finds (about a second: every state of the lesson is explored).
///
/// # Errors
/// A number that is not one of the lessons'.
pub fn lesson_solution(number: f64) -> Result<String, String> {
    let all = lessons();
    let i = pick(number, all.len(), "lesson")?;
    let report = lesson::verify(&all[i], lesson::LessonCheck::Fast);
    Ok(json!(report.solution).to_string())
}

/// The node budget of a composer's check on a page: about ten seconds of the worker at worst (the 4D start
/// asked for a mate in 8 ran 96 s in node under 30 M nodes, so about 3 M is ten seconds).
pub const JUDGE_NODES: u64 = 3_000_000;

/// A composer's check: is the position `fen` (FEN or TFEN, the side to move mating) a sound mate in `n`?
/// JSON `{"verdict": "sound" | "cooked" | "shorter" | "none", "text": a sentence for people, "key": the
/// long form or null, "keys": [the long forms of every key], "line": [the main line, long form], "n":
/// the fewest moves for "shorter"}`, from [`tesseract_verify::tutor::judge`].
///
/// # Errors
/// A text that is not a position, `n` outside 1 to 8, or a check that needs more than [`JUDGE_NODES`].
pub fn judge(fen: &str, n: f64) -> Result<String, String> {
    if fen.len() > 4096 {
        return Err("a position text has at most 4096 characters".to_string());
    }
    let pos = Position::from_fen(fen.trim()).map_err(|e| format!("not a valid position text: {e}"))?;
    let n = args::count(n, "number of moves")?;
    let n = u32::try_from(n).map_err(|_| format!("a composition is a mate in 1 to 8, not {n}"))?;
    let names = |moves: &[Move]| -> Vec<String> { moves.iter().map(|&m| readable(&pos, m)).collect() };
    let side = pos.turn();
    let value = match tutor::judge(&pos, n, JUDGE_NODES).map_err(|e| e.to_string())? {
        Soundness::NoMate => json!({"verdict": "none", "text": format!("No: {side} has no mate in {n}.")}),
        Soundness::Shorter { n: fewer } => json!({
            "verdict": "shorter", "n": fewer,
            "text": format!("No: {side} mates in {fewer} already, and a mate in {n} must take exactly {n}."),
        }),
        Soundness::Sound { line, .. } => {
            let mut p = pos.clone();
            let line: Vec<String> = line
                .iter()
                .map(|&m| {
                    let t = readable(&p, m);
                    p.make(m);
                    t
                })
                .collect();
            json!({
                "verdict": "sound", "key": line[0], "keys": [line[0]], "line": line,
                "text": format!("Sound: mate in {n} with the unique key {}.", line[0]),
            })
        }
        Soundness::Cooked { keys } => {
            let keys = names(&keys);
            json!({
                "verdict": "cooked", "keys": keys,
                "text": format!("Cooked: {} first moves mate in {n}: {}.", keys.len(), keys.join(", ")),
            })
        }
    };
    Ok(value.to_string())
}

/// The study or lesson numbered `number` (from 1) of `len`.
fn pick(number: f64, len: usize, what: &str) -> Result<usize, String> {
    args::whole_below(number - 1.0, len)
        .ok_or_else(|| format!("there are {len} {what}s, numbered 1 to {len}; not {number}"))
}

/// A move text of the learner in `pos`, checked for form; legality is the tutor's to judge.
fn parse(pos: &Position, text: &str) -> Result<Move, String> {
    if text.len() > 32 {
        return Err("a move text has at most 32 characters".to_string());
    }
    pos.parse_move(text).map_err(|e| e.to_string())
}

/// A study being solved (see [`StudyPlay`]).
#[derive(Debug)]
pub struct StudyGame {
    play: StudyPlay,
}

impl StudyGame {
    /// Study `number` (1 to 12) at its start.
    ///
    /// # Errors
    /// A number that is not one of the studies'.
    pub fn new(number: f64) -> Result<StudyGame, String> {
        let mut all = studies();
        let i = pick(number, all.len(), "study")?;
        Ok(StudyGame { play: StudyPlay::new(all.swap_remove(i)) })
    }

    /// The puzzle of the day `date` (`YYYYMMDD`, see [`daily_puzzle`]) at its start.
    ///
    /// # Errors
    /// A number that is not a date.
    pub fn daily(date: f64) -> Result<StudyGame, String> {
        let study = tutor::daily(date_of(date)?).map_err(|e| e.to_string())?;
        Ok(StudyGame { play: StudyPlay::new(study) })
    }

    /// The study as an entry of [`study_list`] (its `number` null): for a page that composed the puzzle
    /// of the day in a worker and shows it without composing it twice.
    pub fn entry(&self) -> String {
        study_json(Value::Null, self.play.study()).to_string()
    }

    /// The position now, as TFEN.
    pub fn fen(&self) -> String {
        self.play.position().fen()
    }

    /// The move texts played so far (White's and Black's), as a JSON array.
    pub fn moves(&self) -> String {
        let mut pos = self.play.study().position.clone();
        let texts: Vec<Value> = self
            .play
            .moves()
            .iter()
            .map(|&m| {
                let t = TextMove::from_move(m, &pos).to_string();
                pos.make(m);
                Value::String(t)
            })
            .collect();
        Value::Array(texts).to_string()
    }

    /// White's moves left to mate in.
    pub fn moves_left(&self) -> u32 {
        self.play.moves_left()
    }

    /// Plays White's move and Black's answer: JSON `{"reply": "defence" | "solved" | "refuted", "white":
    /// text, "defence": text | null, "defenceName": the long form | null, "moves": White's moves played}`.
    ///
    /// # Errors
    /// Text that is not a move, a move that is not legal, a study already over (take back first), or
    /// a move the solver could not judge within its node budget; nothing is played then.
    pub fn play(&mut self, text: &str) -> Result<String, String> {
        let m = parse(self.play.position(), text)?;
        let white = TextMove::from_move(m, self.play.position()).to_string();
        let mut after = self.play.position().clone();
        after.make(m);
        let reply = self.play.play(m).map_err(|e| e.to_string())?;
        let (kind, defence) = match reply {
            StudyReply::Solved { .. } => ("solved", None),
            StudyReply::Defence(d) => ("defence", Some(d)),
            StudyReply::Refuted { defence } => ("refuted", defence),
        };
        Ok(json!({
            "reply": kind,
            "white": white,
            "defence": defence.map(|d| TextMove::from_move(d, &after).to_string()),
            "defenceName": defence.map(|d| readable(&after, d)),
            "moves": self.play.white_moves(),
        })
        .to_string())
    }

    /// The cell of the piece to move next in a solution.
    ///
    /// # Errors
    /// The study is over, or the solver ran out of nodes.
    pub fn hint(&mut self) -> Result<u32, String> {
        self.play.hint().map(|c| c.index() as u32).map_err(|e| e.to_string())
    }

    /// Takes back White's last move and Black's answer; false when none was played.
    pub fn take_back(&mut self) -> bool {
        self.play.take_back()
    }

    /// Whether the study is solved.
    pub fn solved(&self) -> bool {
        self.play.is_solved()
    }

    /// Whether the last move was refuted.
    pub fn failed(&self) -> bool {
        self.play.is_failed()
    }
}

/// A lesson being followed (see [`LessonPlay`]).
#[derive(Clone, Debug)]
pub struct LessonGame {
    play: LessonPlay,
}

impl LessonGame {
    /// Lesson `number` (1 to 8) at its start.
    ///
    /// # Errors
    /// A number that is not one of the lessons'.
    pub fn new(number: f64) -> Result<LessonGame, String> {
        let mut all = lessons();
        let i = pick(number, all.len(), "lesson")?;
        Ok(LessonGame { play: LessonPlay::new(all.swap_remove(i)) })
    }

    /// The position now, as TFEN (the learner to move, or just after the move that met the goal).
    pub fn fen(&self) -> String {
        self.play.position().fen()
    }

    /// The moves of the taught piece on `cell`, as the JSON array of `Chess.movesFrom`.
    ///
    /// # Errors
    /// `cell` is not a cell of the 5⁴ board.
    pub fn moves_from(&self, cell: f64) -> Result<String, String> {
        let pos = self.play.position();
        let cell = args::cell(cell, pos.geometry().cells())?;
        let from = Cell::new(cell as u16);
        let list: Vec<Value> =
            self.play.legal_moves().into_iter().filter(|m| m.from == from).map(|m| move_entry(pos, m)).collect();
        Ok(Value::Array(list).to_string())
    }

    /// The taught pieces' cells now, as a JSON array.
    pub fn pieces(&self) -> String {
        json!(self.play.pieces().iter().map(|c| c.index()).collect::<Vec<_>>()).to_string()
    }

    /// Plays the learner's move; returns whether the goal is met.
    ///
    /// # Errors
    /// Text that is not a move, a move that is not a legal move of a taught piece, or a lesson already
    /// done; nothing is played then.
    pub fn play(&mut self, text: &str) -> Result<bool, String> {
        let m = parse(self.play.position(), text)?;
        self.play.play(m).map_err(|e| e.to_string())
    }

    /// The moves played.
    pub fn count(&self) -> u32 {
        self.play.moves().len() as u32
    }

    /// Whether the goal is met.
    pub fn done(&self) -> bool {
        self.play.is_done()
    }

    /// Starts again.
    pub fn restart(&mut self) {
        self.play.restart();
    }
}
