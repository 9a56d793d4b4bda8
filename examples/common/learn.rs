//! The write-up's mate studies and tutorial lessons in the terminal: `play --study N` and `play --lesson N`.
//!
//! The studies and lessons are `tesseract-verify`'s own (`study::shipped`, `lesson::shipped`), played
//! through `tesseract_verify::tutor` as on the page: in a study the person plays White's moves, each
//! judged by the mate solver and answered by Black's longest defence, or by a refutation (then `back`
//! takes the pair back); in a lesson only the taught pieces move and the other side passes, until the
//! goal is met.

use std::io::{IsTerminal, Stdout, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tesseract::board::picture::Diagram;
use tesseract::board::{Cell, Move, Position, TextMove};
use tesseract::movegen::{Legal, MoveError, legal_moves, san};
use tesseract::verify::lesson::{self, Goal, Lesson};
use tesseract::verify::study::{self, Study};
use tesseract::verify::tutor::{LessonPlay, StudyPlay, StudyReply, TutorError};

use crate::input::{Input, is_quit};
use crate::lines::{Line, MAX_LINE};
use crate::{move_forms, out, plural};

const STUDY_HELP: &str = "\
Commands:
  MOVE              play White's move: 8 digits from-xyzw to-xyzw (22132313, promotion 24132513Q) or the
                    long form (Y2213-2313); Black answers with its longest defence
  back              take back White's last move and Black's answer
  hint              name the piece that moves next in a solution
  moves CELL        list and highlight the moves of the piece on CELL (xyzw digits); `moves` lists them all
  restart           start the study again
  next              the next study
  board             draw the board again
  fen               print the position's text
  help              this list
  quit              leave";

const LESSON_HELP: &str = "\
Commands:
  MOVE              move a taught piece: 8 digits from-xyzw to-xyzw (11111141) or the long form
                    (R1111-1141); the other side passes
  moves             list the taught pieces' moves; `moves CELL` lists and highlights one piece's
  restart           start the lesson again
  next              the next lesson
  board             draw the board again
  fen               print the position's text
  help              this list
  quit              leave";

/// What `--study N` or `--lesson N` opens (N from 1).
#[derive(Clone, Copy, Debug)]
pub enum Topic {
    /// A study, numbered from 1.
    Study(usize),
    /// A lesson, numbered from 1.
    Lesson(usize),
}

fn studies() -> Vec<Study> {
    study::shipped().expect("the shipped studies are read by tesseract-verify's own tests")
}

fn lessons() -> Vec<Lesson> {
    lesson::shipped().expect("the shipped lessons are read by tesseract-verify's own tests")
}

/// The value of `--study`: a number from 1 to the number of studies (clap's value parser).
pub fn study_number(text: &str) -> Result<usize, String> {
    number(text, studies().len(), "studies")
}

/// The value of `--lesson`: a number from 1 to the number of lessons (clap's value parser).
pub fn lesson_number(text: &str) -> Result<usize, String> {
    number(text, lessons().len(), "lessons")
}

fn number(text: &str, len: usize, what: &str) -> Result<usize, String> {
    match text.trim().parse::<usize>() {
        Ok(n) if (1..=len).contains(&n) => Ok(n),
        _ => Err(format!("there are {len} {what}, numbered 1 to {len}")),
    }
}

/// The study or lesson under way.
enum Current {
    Study { number: usize, play: Box<StudyPlay> },
    Lesson { number: usize, play: Box<LessonPlay> },
}

struct Learn {
    current: Current,
    color: bool,
    out: Stdout,
    input: Input,
}

/// Plays `topic` and what `next` leads to, reading commands from standard input until `quit` or its end.
pub fn run(topic: Topic, color: bool) {
    // No engine searches here: the stop flag that `quit` would raise stops nothing.
    let input = Input::stdin(Arc::new(AtomicBool::new(false)));
    let mut learn = Learn { current: open(topic), color, out: std::io::stdout(), input };
    learn.introduce();
    loop {
        let prompt = match &learn.current {
            Current::Study { number, .. } => format!("study {number}> "),
            Current::Lesson { number, .. } => format!("lesson {number}> "),
        };
        out::check(write!(learn.out, "{prompt}").and_then(|()| learn.out.flush()));
        let line = match learn.input.next() {
            Some(Line::Text(line)) => line,
            Some(bad @ (Line::NotUtf8 | Line::TooLong(_))) => {
                learn.say(&bad.complaint(MAX_LINE).unwrap_or_default());
                continue;
            }
            None => {
                learn.say("");
                return;
            }
        };
        let line = line.trim();
        if !std::io::stdin().is_terminal() {
            // Echo scripted input, so that a transcript reads like a session.
            learn.say(line);
        }
        let mut words = line.split_whitespace();
        let Some(cmd) = words.next() else { continue };
        let arg = words.next();
        match cmd {
            word if is_quit(word) => return,
            "help" | "?" => {
                let help = if matches!(learn.current, Current::Study { .. }) { STUDY_HELP } else { LESSON_HELP };
                learn.say(help);
            }
            "board" | "b" => learn.show(None, &[]),
            "fen" => {
                let fen = learn.position().fen();
                learn.say(&fen);
            }
            "moves" | "m" => learn.list_moves(arg),
            "restart" => {
                learn.current = open(learn.topic());
                learn.introduce();
            }
            "next" => learn.next(),
            "back" | "undo" | "u" => learn.take_back(),
            "hint" => learn.hint(),
            _ if arg.is_some() => learn.say(&format!("Unknown command {cmd:?}; type help for the commands.")),
            text => learn.play(text),
        }
    }
}

fn open(topic: Topic) -> Current {
    match topic {
        Topic::Study(number) => {
            let study = studies().swap_remove(number - 1);
            Current::Study { number, play: Box::new(StudyPlay::new(study)) }
        }
        Topic::Lesson(number) => {
            let lesson = lessons().swap_remove(number - 1);
            Current::Lesson { number, play: Box::new(LessonPlay::new(lesson)) }
        }
    }
}

/// `N moves`, `1 move`.
fn moves_word(n: usize) -> String {
    plural(n, "move")
}

/// A piece's description: `the white rook on 1111`.
fn piece_on(pos: &Position, cell: Cell) -> String {
    match pos.piece_at(cell) {
        Some(p) => format!("the {} {} on {}", p.color, p.role.name_in(4), pos.geometry().cell_name(cell)),
        None => format!("the empty cell {}", pos.geometry().cell_name(cell)),
    }
}

/// What the learner is asked to do in a lesson.
fn goal_text(goal: &Goal, pos: &Position) -> String {
    let other = pos.turn().other();
    match goal {
        Goal::CaptureAll => format!("capture every {other} piece but the king"),
        Goal::Reach(cell) => format!("bring the piece to {} (marked *)", pos.geometry().cell_name(*cell)),
        Goal::Check => format!("give check to the {other} king"),
        Goal::Promote => "promote every pawn".to_string(),
    }
}

/// The legal move that `text` names in `pos`: the move text of RULES.md §4 or the long form; otherwise
/// what to say.
fn parse(pos: &Position, text: &str) -> Result<Move, String> {
    if text.len() > 32 {
        return Err("A move text has at most 32 characters.".to_string());
    }
    match pos.parse_move(text) {
        Ok(m) => Ok(m),
        Err(MoveError::Text { source, .. }) => san::parse_move(pos, text).map_err(|e| {
            if pos.geometry().parse_cell(text).is_some() {
                format!(
                    "{text:?} names a cell, not a move: a move names its from cell and then its to cell, written as \
                     {}. Type `moves {text}` to list the moves of the piece on {text}.",
                    move_forms(4)
                )
            } else if matches!(e, san::SanError::Syntax(_)) {
                format!(
                    "{text:?} is not a move or a command ({source}). Moves are written as {}; type help for the \
                     commands.",
                    move_forms(4)
                )
            } else {
                format!("Illegal move: {e}. Type `moves CELL` to list a piece's moves.")
            }
        }),
        Err(e) => Err(format!("Illegal move: {e}. Type `moves CELL` to list a piece's moves.")),
    }
}

/// The from cell that `text` names, if it is a move text of this board (legal or not).
fn from_cell(pos: &Position, text: &str) -> Option<Cell> {
    if let Ok(m) = san::parse_move(pos, text) {
        return Some(m.from);
    }
    let parsed = TextMove::parse_for(text, pos.geometry()).ok()?;
    pos.geometry().cell(parsed.from())
}

impl Learn {
    /// Prints `text` and a line ending; a closed standard output ends the program (`out::fail`).
    fn say(&mut self, text: &str) {
        out::check(writeln!(self.out, "{text}").and_then(|()| self.out.flush()));
    }

    fn topic(&self) -> Topic {
        match &self.current {
            Current::Study { number, .. } => Topic::Study(*number),
            Current::Lesson { number, .. } => Topic::Lesson(*number),
        }
    }

    fn position(&self) -> &Position {
        match &self.current {
            Current::Study { play, .. } => play.position(),
            Current::Lesson { play, .. } => play.position(),
        }
    }

    /// Draws the board: the last move marked, `selected` and `targets` highlighted (a lesson's target cell
    /// always).
    fn show(&mut self, selected: Option<Cell>, targets: &[Cell]) {
        let (last, mut marks) = match &self.current {
            Current::Study { play, .. } => (play.moves().last().copied(), Vec::new()),
            Current::Lesson { play, .. } => {
                let target = match play.lesson().goal {
                    Goal::Reach(cell) => vec![cell],
                    _ => Vec::new(),
                };
                (play.moves().last().copied(), target)
            }
        };
        marks.extend_from_slice(targets);
        let pos = self.position();
        let mut text = Diagram::new(pos).selected(selected).targets(marks).last_move(last).ansi(self.color).to_string();
        text.push_str(
            "x runs left to right and y bottom to top inside each board; z picks the row of boards, w the column",
        );
        self.say(&text);
    }

    /// Prints what the study or lesson is, and its board.
    fn introduce(&mut self) {
        match &self.current {
            Current::Study { number, play } => {
                let s = play.study();
                let text = format!(
                    "Study {number} of {}: {}\nWhite to move mates in {}.\nType White's moves as eight digits \
                     from-xyzw to-xyzw (like 22132313) or in the long form (like Y2213-2313); Black answers with its \
                     longest defence. Commands: hint, back, restart, next, help, quit.",
                    studies().len(),
                    s.title,
                    s.n
                );
                self.say(&text);
            }
            Current::Lesson { number, play } => {
                let l = play.lesson();
                let pos = play.position();
                let pieces: Vec<String> = play.pieces().iter().map(|&c| piece_on(pos, c)).collect();
                let text = format!(
                    "Lesson {number} of {}: {}\n{}\nGoal: {}. Par: {}.\nOnly {} moves; {} passes. Commands: moves, \
                     restart, next, help, quit.",
                    lessons().len(),
                    l.title,
                    l.explain,
                    goal_text(&l.goal, pos),
                    moves_word(l.bound as usize),
                    pieces.join(", "),
                    capitalized(&pos.turn().other().to_string())
                );
                self.say(&text);
            }
        }
        self.show(None, &[]);
    }

    fn next(&mut self) {
        let topic = match self.topic() {
            Topic::Study(n) if n < studies().len() => Topic::Study(n + 1),
            Topic::Lesson(n) if n < lessons().len() => Topic::Lesson(n + 1),
            Topic::Study(_) => return self.say("That was the last study."),
            Topic::Lesson(_) => return self.say("That was the last lesson."),
        };
        self.current = open(topic);
        self.introduce();
    }

    /// The moves the person may play now, by piece: all legal moves in a study, the taught pieces' in a
    /// lesson.
    fn allowed(&self) -> Vec<Move> {
        match &self.current {
            Current::Study { play, .. } if play.is_solved() || play.is_failed() => Vec::new(),
            Current::Study { play, .. } => legal_moves(play.position()),
            Current::Lesson { play, .. } => play.legal_moves(),
        }
    }

    fn list_moves(&mut self, arg: Option<&str>) {
        let pos = self.position().clone();
        let moves = self.allowed();
        let text_of = |m: &Move| TextMove::from_move(*m, &pos).to_string();
        let Some(name) = arg else {
            if moves.is_empty() {
                return self.say("No moves now: take back (back) or restart.");
            }
            let mut cells: Vec<Cell> = moves.iter().map(|m| m.from).collect();
            cells.dedup();
            cells.sort();
            cells.dedup();
            let mut text = format!("{}:", plural(moves.len(), "move"));
            for cell in cells {
                let list: Vec<String> = moves.iter().filter(|m| m.from == cell).map(text_of).collect();
                text.push_str(&format!("\n  {}: {}", piece_on(&pos, cell), list.join(" ")));
            }
            return self.say(&text);
        };
        let Some(cell) = pos.geometry().parse_cell(name) else {
            return self.say(&format!("{name:?} is not a cell of this board: write it like 2213 (x y z w)"));
        };
        let mine: Vec<Move> = moves.iter().copied().filter(|m| m.from == cell).collect();
        if mine.is_empty() {
            let why = self.refusal(&pos, cell).unwrap_or_else(|| format!("{} has no move now.", piece_on(&pos, cell)));
            return self.say(&capitalized(&why));
        }
        self.show(Some(cell), &mine.iter().map(|m| m.to).collect::<Vec<_>>());
        let list: Vec<String> = mine.iter().map(text_of).collect();
        self.say(&capitalized(&format!(
            "{} has {}: {}",
            piece_on(&pos, cell),
            plural(list.len(), "move"),
            list.join(" ")
        )));
    }

    /// Why the piece on `cell` may not move here, if it may not: an empty cell, the other side's piece, a
    /// piece the lesson does not teach.
    fn refusal(&self, pos: &Position, cell: Cell) -> Option<String> {
        let piece = pos.piece_at(cell);
        match &self.current {
            _ if piece.is_none() => Some(format!("there is no piece on {}.", pos.geometry().cell_name(cell))),
            _ if piece.is_some_and(|p| p.color != pos.turn()) => {
                Some(format!("{} is not yours: you play {}.", piece_on(pos, cell), pos.turn()))
            }
            Current::Lesson { play, .. } if !play.pieces().contains(&cell) => {
                let taught: Vec<String> = play.pieces().iter().map(|&c| piece_on(pos, c)).collect();
                Some(format!(
                    "only the taught pieces move in this lesson, and {} is not one of them: move {}.",
                    piece_on(pos, cell),
                    taught.join(" or ")
                ))
            }
            _ => None,
        }
    }

    fn play(&mut self, text: &str) {
        // Over first: after a refutation Black may be to move, and a move text would be read for Black.
        match &self.current {
            Current::Study { play, .. } if play.is_solved() || play.is_failed() => {
                return self.say("This try is over: type back to take the last move back, restart, or next.");
            }
            Current::Lesson { play, .. } if play.is_done() => {
                return self.say("The goal is met: type next for the next lesson, or restart.");
            }
            _ => {}
        }
        let pos = self.position().clone();
        let lesson = matches!(self.current, Current::Lesson { .. });
        // In a lesson, a move of a piece that is not taught is refused for that reason first, legal or not.
        if lesson {
            if let Some(why) = from_cell(&pos, text).and_then(|cell| self.refusal(&pos, cell)) {
                return self.say(&capitalized(&why));
            }
        }
        let m = match parse(&pos, text) {
            Ok(m) => m,
            Err(why) => return self.say(&why),
        };
        match &mut self.current {
            Current::Study { .. } => self.play_study(&pos, m),
            Current::Lesson { .. } => self.play_lesson(&pos, m),
        }
    }

    fn play_study(&mut self, pos: &Position, m: Move) {
        let Current::Study { play, .. } = &self.current else { return };
        let n = play.study().n;
        let white = san::to_san(pos, m);
        self.say(&format!("White plays {white}; checking…"));
        let Current::Study { play, .. } = &mut self.current else { return };
        let reply = play.play(m);
        let after_white = {
            let mut p = pos.clone();
            p.make(m);
            p
        };
        let idea = play.study().idea.clone();
        let left = play.moves_left();
        let message = match reply {
            Ok(StudyReply::Solved { moves }) => format!("Solved in {moves}! {idea}"),
            Ok(StudyReply::Defence(d)) => format!(
                "Black defends with {}. White to mate in {}.",
                san::to_san(&after_white, d),
                moves_word(left as usize)
            ),
            Ok(StudyReply::Refuted { defence: Some(d) }) => format!(
                "Black answers {}, and there is no mate in {n} any more. Take back (back) and try again.",
                san::to_san(&after_white, d)
            ),
            Ok(StudyReply::Refuted { defence: None }) => {
                format!("That does not mate in {n}. Take back (back) and try again.")
            }
            Err(e) => return self.say(&capitalized(&format!("{e}."))),
        };
        self.show(None, &[]);
        self.say(&message);
    }

    fn play_lesson(&mut self, pos: &Position, m: Move) {
        let Current::Lesson { play, .. } = &mut self.current else { return };
        match play.play(m) {
            Ok(done) => {
                let count = play.moves().len();
                let bound = play.lesson().bound as usize;
                let name = san::to_san(pos, m);
                self.say(&format!("{} plays {name}.", capitalized(&pos.turn().to_string())));
                self.show(None, &[]);
                if done {
                    let over = if count <= bound { String::new() } else { format!(" (it can be done in {bound})") };
                    self.say(&format!(
                        "Done in {}{over}. Type next for the next lesson, restart to try again, or quit.",
                        moves_word(count)
                    ));
                } else {
                    self.say(&format!("{} so far; par {bound}.", moves_word(count)));
                }
            }
            Err(TutorError::Over) => self.say("The goal is met: type next for the next lesson, or restart."),
            Err(TutorError::NotAllowed(text)) => self.say(&format!(
                "{text} would attack the {} king before the goal is met, and here the other side only passes: \
                 try another move.",
                pos.turn().other()
            )),
            Err(e) => self.say(&capitalized(&format!("{e}."))),
        }
    }

    fn take_back(&mut self) {
        let Current::Study { play, .. } = &mut self.current else {
            return self.say("A lesson has no take back: restart starts it again.");
        };
        if play.take_back() {
            self.say("Taken back.");
            self.show(None, &[]);
            let Current::Study { play, .. } = &self.current else { return };
            let left = play.moves_left();
            self.say(&format!("White to mate in {}.", moves_word(left as usize)));
        } else {
            self.say("Nothing to take back.");
        }
    }

    fn hint(&mut self) {
        let Current::Study { play, .. } = &mut self.current else {
            return self.say("Hints are for the studies; type moves to list the taught pieces' moves.");
        };
        // Off the study's main line the solver looks for a mating move: that can take a moment.
        if !play.study().line.starts_with(play.moves()) && !play.is_solved() && !play.is_failed() {
            self.say("checking…");
        }
        let Current::Study { play, .. } = &mut self.current else { return };
        match play.hint() {
            Ok(cell) => {
                let pos = self.position().clone();
                self.show(Some(cell), &[]);
                self.say(&format!("Hint: move {} (type moves {} for its moves).", piece_on(&pos, cell), {
                    pos.geometry().cell_name(cell)
                }));
            }
            Err(TutorError::Over) => self.say("This try is over: type back to take the last move back, or restart."),
            Err(e) => self.say(&capitalized(&format!("{e}."))),
        }
    }
}

/// `text` with its first letter in capitals.
fn capitalized(text: &str) -> String {
    let mut chars = text.chars();
    match chars.next() {
        Some(c) => c.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
