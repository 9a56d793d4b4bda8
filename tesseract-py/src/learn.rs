//! The write-up's twelve mate studies and eight tutorial lessons, as tesseract-verify ships and proves them
//! and as the page and `play --study N` / `play --lesson N` play them (`tesseract_verify::tutor`):
//! `studies()`, `lessons()`, `lesson_solution(number)`, and the classes `Study` and `Lesson`.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tesseract_board::{Move, Position, TextMove};
use tesseract_movegen::san::{self, SanPlus};
use tesseract_movegen::{Legal, MoveError};
use tesseract_verify::lesson::{self, Goal, Lesson as LessonData};
use tesseract_verify::study::{self, Study as StudyData};
use tesseract_verify::tutor::{LessonPlay, StudyPlay, StudyReply};

use crate::errors::{check_move_len, move_error};
use crate::stack;

fn all_studies() -> Vec<StudyData> {
    study::shipped().expect("the shipped studies are read by tesseract-verify's own tests")
}

fn all_lessons() -> Vec<LessonData> {
    lesson::shipped().expect("the shipped lessons are read by tesseract-verify's own tests")
}

/// The index of study or lesson `number` (from 1) of `len`, or a ValueError.
fn pick(number: i64, len: usize, what: &str) -> PyResult<usize> {
    usize::try_from(number)
        .ok()
        .filter(|n| (1..=len).contains(n))
        .map(|n| n - 1)
        .ok_or_else(|| PyValueError::new_err(format!("there are {len} {what}, numbered 1 to {len}; not {number}")))
}

/// The texts of `moves` played in turn from `start`.
fn texts(start: &Position, moves: &[Move]) -> Vec<String> {
    let mut pos = start.clone();
    moves
        .iter()
        .map(|&m| {
            let t = TextMove::from_move(m, &pos).to_string();
            pos.make(m);
            t
        })
        .collect()
}

/// A move text of RULES.md §4 (`54155455`) or the long form (`R5415-5455`) in `pos`, as a legal move.
fn parse(pos: &Position, text: &str) -> PyResult<Move> {
    check_move_len(text)?;
    match stack::ample(|| pos.parse_move(text)) {
        Ok(m) => Ok(m),
        Err(e @ MoveError::Text { .. }) => stack::ample(|| san::parse_move(pos, text)).map_err(|_| move_error(&e)),
        Err(e) => Err(move_error(&e)),
    }
}

fn goal_parts(goal: &Goal, pos: &Position) -> (&'static str, Option<String>) {
    match goal {
        Goal::CaptureAll => ("capture", None),
        Goal::Reach(c) => ("reach", Some(pos.geometry().cell_name(*c))),
        Goal::Check => ("check", None),
        Goal::Promote => ("promote", None),
    }
}

/// The twelve studies, in order: dicts with `number` (from 1), `name`, `title`, `n` (White mates in n),
/// `fen` (TFEN), `idea`, `key` (the key's move text) and `line` (the proven main line, as move texts).
#[pyfunction]
pub(crate) fn studies(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    all_studies()
        .iter()
        .enumerate()
        .map(|(i, s)| {
            let d = PyDict::new(py);
            d.set_item("number", i + 1)?;
            d.set_item("name", &s.name)?;
            d.set_item("title", &s.title)?;
            d.set_item("n", s.n)?;
            d.set_item("fen", s.position.fen())?;
            d.set_item("idea", &s.idea)?;
            d.set_item("key", s.text(s.key))?;
            d.set_item("line", texts(&s.position, &s.line))?;
            Ok(d)
        })
        .collect()
}

/// The eight lessons, in order: dicts with `number` (from 1), `name`, `title`, `teaches` (the piece's
/// name), `fen` (TFEN), `pieces` (the taught pieces' cells, as names), `goal` (`capture`, `reach`,
/// `check` or `promote`), `target` (the cell to reach, or None), `bound` (the par: the moves given) and
/// `explain`.
#[pyfunction]
pub(crate) fn lessons(py: Python<'_>) -> PyResult<Vec<Bound<'_, PyDict>>> {
    all_lessons()
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let g = l.position.geometry();
            let (goal, target) = goal_parts(&l.goal, &l.position);
            let d = PyDict::new(py);
            d.set_item("number", i + 1)?;
            d.set_item("name", &l.name)?;
            d.set_item("title", &l.title)?;
            d.set_item("teaches", l.teaches.name_in(4))?;
            d.set_item("fen", l.position.fen())?;
            d.set_item("pieces", l.pieces.iter().map(|&c| g.cell_name(c)).collect::<Vec<_>>())?;
            d.set_item("goal", goal)?;
            d.set_item("target", target)?;
            d.set_item("bound", l.bound)?;
            d.set_item("explain", &l.explain)?;
            Ok(d)
        })
        .collect()
}

/// A shortest way through lesson `number` (1 to 8), as move texts: the solution of tesseract-verify's
/// proof of the lesson (every state of the lesson explored, about a second; without the GIL).
#[pyfunction]
pub(crate) fn lesson_solution(py: Python<'_>, number: i64) -> PyResult<Vec<String>> {
    let all = all_lessons();
    let i = pick(number, all.len(), "lessons")?;
    let lesson = &all[i];
    Ok(py.detach(|| stack::deep(|| lesson::verify(lesson, lesson::LessonCheck::Fast).solution)))
}

/// A study being solved: White's moves are played with `play`, each judged by the mate solver and
/// answered by Black's longest defence, or by a refutation (`failed`; `take_back` and try again).
#[pyclass(module = "tesseract", name = "Study")]
pub(crate) struct Study {
    number: usize,
    play: StudyPlay,
}

#[pymethods]
impl Study {
    /// Study `number` (1 to 12) at its start, White to move.
    #[new]
    fn new(number: i64) -> PyResult<Study> {
        let mut all = all_studies();
        let i = pick(number, all.len(), "studies")?;
        Ok(Study { number: i + 1, play: StudyPlay::new(all.swap_remove(i)) })
    }

    /// The study's number (from 1).
    #[getter]
    fn number(&self) -> usize {
        self.number
    }

    /// The title.
    #[getter]
    fn title(&self) -> String {
        self.play.study().title.clone()
    }

    /// White mates in this many moves.
    #[getter]
    fn n(&self) -> u32 {
        self.play.study().n
    }

    /// The idea, in one line, shown once the study is solved.
    #[getter]
    fn idea(&self) -> String {
        self.play.study().idea.clone()
    }

    /// The position now, as TFEN.
    #[getter]
    fn fen(&self) -> String {
        self.play.position().fen()
    }

    /// The move texts played so far, White's and Black's.
    #[getter]
    fn moves(&self) -> Vec<String> {
        texts(&self.play.study().position, self.play.moves())
    }

    /// White's moves left to mate in.
    #[getter]
    fn moves_left(&self) -> u32 {
        self.play.moves_left()
    }

    /// Whether White has mated in time.
    #[getter]
    fn solved(&self) -> bool {
        self.play.is_solved()
    }

    /// Whether the last move was refuted (take it back with `take_back`).
    #[getter]
    fn failed(&self) -> bool {
        self.play.is_failed()
    }

    /// Plays White's move (a move text, `54155455`, or the long form, `R5415-5455`) and Black's answer:
    /// a dict `{"reply": "solved" | "defence" | "refuted", "white": the move's text, "defence": Black's
    /// answer as a move text or None, "defence_name": it in the long form or None, "moves": White's moves
    /// played}`. The mate solver judges the move without the GIL (a wrong first move of a mate in 4 takes
    /// up to a few seconds). Raises InvalidMoveError or IllegalMoveError for text that is not a legal
    /// move, ValueError when the study is over (solved or refuted: take back first) or the solver ran out
    /// of nodes; nothing is played then.
    fn play<'py>(&mut self, py: Python<'py>, text: &str) -> PyResult<Bound<'py, PyDict>> {
        if self.play.is_solved() || self.play.is_failed() {
            return Err(PyValueError::new_err("this is over: take the last move back or start again"));
        }
        let before = self.play.position().clone();
        let m = parse(&before, text)?;
        let play = &mut self.play;
        let reply = py.detach(|| stack::deep(|| play.play(m))).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let mut after = before.clone();
        after.make(m);
        let (kind, defence) = match reply {
            StudyReply::Solved { .. } => ("solved", None),
            StudyReply::Defence(d) => ("defence", Some(d)),
            StudyReply::Refuted { defence } => ("refuted", defence),
        };
        let d = PyDict::new(py);
        d.set_item("reply", kind)?;
        d.set_item("white", TextMove::from_move(m, &before).to_string())?;
        d.set_item("defence", defence.map(|d| TextMove::from_move(d, &after).to_string()))?;
        d.set_item("defence_name", defence.map(|d| SanPlus::from_move(&after, d).to_string()))?;
        d.set_item("moves", self.play.white_moves())?;
        Ok(d)
    }

    /// The cell (its name, `5415`) of the piece that moves next in a solution. Raises ValueError when the
    /// study is over or the solver ran out of nodes.
    fn hint(&mut self, py: Python<'_>) -> PyResult<String> {
        let play = &mut self.play;
        let cell = py.detach(|| stack::deep(|| play.hint())).map_err(|e| PyValueError::new_err(e.to_string()))?;
        Ok(self.play.position().geometry().cell_name(cell))
    }

    /// Takes back White's last move and Black's answer to it; False when none was played.
    fn take_back(&mut self) -> bool {
        self.play.take_back()
    }

    /// Starts the study again.
    fn restart(&mut self) {
        self.play = StudyPlay::new(self.play.study().clone());
    }

    fn __repr__(&self) -> String {
        format!(
            "<Study {} {:?}: mate in {}, {} moves played>",
            self.number,
            self.title(),
            self.n(),
            self.play.moves().len()
        )
    }
}

/// A lesson being followed: only the taught pieces move (`legal_moves`), the other side passes; `done`
/// once the goal is met.
#[pyclass(module = "tesseract", name = "Lesson")]
pub(crate) struct Lesson {
    number: usize,
    play: LessonPlay,
}

#[pymethods]
impl Lesson {
    /// Lesson `number` (1 to 8) at its start.
    #[new]
    fn new(number: i64) -> PyResult<Lesson> {
        let mut all = all_lessons();
        let i = pick(number, all.len(), "lessons")?;
        Ok(Lesson { number: i + 1, play: LessonPlay::new(all.swap_remove(i)) })
    }

    /// The lesson's number (from 1).
    #[getter]
    fn number(&self) -> usize {
        self.number
    }

    /// The title.
    #[getter]
    fn title(&self) -> String {
        self.play.lesson().title.clone()
    }

    /// The explanation shown to the learner.
    #[getter]
    fn explain(&self) -> String {
        self.play.lesson().explain.clone()
    }

    /// The goal: `capture`, `reach`, `check` or `promote`.
    #[getter]
    fn goal(&self) -> &'static str {
        goal_parts(&self.play.lesson().goal, self.play.position()).0
    }

    /// The cell to reach (a name), or None.
    #[getter]
    fn target(&self) -> Option<String> {
        goal_parts(&self.play.lesson().goal, self.play.position()).1
    }

    /// The par: the moves the learner is given.
    #[getter]
    fn bound(&self) -> u32 {
        self.play.lesson().bound
    }

    /// The position now, as TFEN (the learner to move, or just after the move that met the goal).
    #[getter]
    fn fen(&self) -> String {
        self.play.position().fen()
    }

    /// The taught pieces' cells now, as names.
    #[getter]
    fn pieces(&self) -> Vec<String> {
        let g = self.play.position().geometry();
        self.play.pieces().iter().map(|&c| g.cell_name(c)).collect()
    }

    /// The number of moves played.
    #[getter]
    fn count(&self) -> usize {
        self.play.moves().len()
    }

    /// Whether the goal is met.
    #[getter]
    fn done(&self) -> bool {
        self.play.is_done()
    }

    /// The moves the learner may play now, as move texts: the taught pieces' legal moves (none once done).
    fn legal_moves(&self) -> Vec<String> {
        let pos = self.play.position();
        stack::ample(|| self.play.legal_moves()).into_iter().map(|m| TextMove::from_move(m, pos).to_string()).collect()
    }

    /// Plays the learner's move (a move text or the long form); returns whether the goal is met. Raises
    /// InvalidMoveError or IllegalMoveError for text that is not a legal move, ValueError for a move of a
    /// piece the lesson does not teach, one that would attack the other king, or a lesson already done;
    /// nothing is played then.
    fn play(&mut self, text: &str) -> PyResult<bool> {
        if self.play.is_done() {
            return Err(PyValueError::new_err("this is over: the goal is met; restart to play it again"));
        }
        let m = parse(self.play.position(), text)?;
        if !self.play.pieces().contains(&m.from) {
            let cell = self.play.position().geometry().cell_name(m.from);
            return Err(PyValueError::new_err(format!(
                "only the taught pieces move in this lesson, and the piece on {cell} is not one of them"
            )));
        }
        stack::ample(|| self.play.play(m)).map_err(|e| PyValueError::new_err(e.to_string()))
    }

    /// Starts the lesson again.
    fn restart(&mut self) {
        self.play.restart();
    }

    fn __repr__(&self) -> String {
        format!("<Lesson {} {:?}: {} moves played>", self.number, self.title(), self.play.moves().len())
    }
}
