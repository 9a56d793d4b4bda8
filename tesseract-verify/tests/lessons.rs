//! The eight lessons are winnable within their bounds and cannot be failed; the proof also catches broken
//! lessons: a bound below the par, a dead end, a check the other side would have to answer, a goal already
//! met, an unreachable goal.

use tesseract_board::{CastlingMode, Color, Piece, Position, Setup, Shape};
use tesseract_verify::lesson::{self, Goal, Lesson, LessonCheck, LessonFault};

/// A lesson record in the file format, around a position built from (cell, letter) pairs.
fn record(pieces: &[(&str, char)], taught: &str, goal: &str, bound: u32, teaches: char) -> String {
    let g = Shape::TESSERACT.geometry();
    let mut setup = Setup::empty(Shape::TESSERACT);
    for &(cell, letter) in pieces {
        let c = g.parse_cell(cell).expect("a cell");
        setup.board[c.index()] = Some(Piece::from_char(letter, 4).expect("a piece letter"));
    }
    setup.turn = Color::White;
    let fen = Position::from_setup(setup, CastlingMode::Standard).expect("a valid position").fen();
    format!(
        "lesson: test\ntitle: A test\nteaches: {teaches}\nfen: {fen}\npiece: {taught}\ngoal: {goal}\nbound: {bound}\nexplain: Test.\n"
    )
}

fn one(text: &str) -> Lesson {
    lesson::parse(text).expect("the record reads").remove(0)
}

#[test]
fn the_shipped_lessons_read_and_cover_every_piece_kind() {
    let lessons = lesson::shipped().expect("the shipped lessons read");
    assert_eq!(lessons.len(), 8);
    assert!(lesson::verify_set(&lessons).is_empty(), "{:?}", lesson::verify_set(&lessons));
    for l in &lessons {
        assert!(!l.explain.is_empty() && !l.title.is_empty());
    }
}

#[test]
fn every_shipped_lesson_is_winnable_within_its_bound_with_no_dead_end() {
    for l in lesson::shipped().unwrap() {
        let report = lesson::verify(&l, LessonCheck::Fast);
        println!("{report}");
        assert!(report.passed(), "{report}");
        let par = report.par.expect("winnable");
        assert!(par >= 1 && par <= l.bound);
        assert_eq!(report.solution.len(), par as usize);
        assert!(report.goal_states >= 1);
    }
}

#[test]
#[ignore = "slow in a debug build: scripts/test.sh runs it in the optimised pass (cargo test --profile ci -- --ignored)"]
fn the_naive_generator_gives_the_taught_pieces_the_same_moves_in_every_state() {
    for l in lesson::shipped().unwrap() {
        let report = lesson::verify(&l, LessonCheck::Naive);
        assert!(report.passed(), "{report}");
    }
}

#[test]
fn a_bound_below_the_par_fails() {
    let text =
        record(&[("1111", 'R'), ("3131", 'K'), ("5554", 'k'), ("1114", 'w'), ("1414", 'y')], "1111", "capture", 1, 'R');
    // Unguarded rook and king: some reachable rook cell attacks the king too.
    let report = lesson::verify(&one(&text), LessonCheck::Fast);
    assert!(report.faults.contains(&LessonFault::OverBound { par: 2, bound: 1 }), "{report}");
    assert!(report.faults.iter().any(|f| matches!(f, LessonFault::Check { .. })), "{report}");
}

#[test]
fn a_dead_end_is_found_with_the_line_that_leads_there() {
    // The Y-pawn can take the target only from 3333; a double step to 3433 passes it for good.
    let text = record(&[("3233", 'Y'), ("4433", 'n'), ("5111", 'K'), ("1155", 'k')], "3233", "capture", 2, 'Y');
    let report = lesson::verify(&one(&text), LessonCheck::Naive);
    assert_eq!(report.par, Some(2));
    let dead = report.faults.iter().find_map(|f| match f {
        LessonFault::DeadEnd { line } => Some(line.clone()),
        _ => None,
    });
    let line = dead.expect("a dead end");
    assert!(line[0] == "32333433" || line.len() >= 2, "{line:?}");
}

#[test]
fn a_check_on_the_other_king_is_a_fault() {
    let text = record(&[("1111", 'Q'), ("3131", 'K'), ("5555", 'k'), ("3333", 'y')], "1111", "capture", 3, 'Q');
    let report = lesson::verify(&one(&text), LessonCheck::Fast);
    assert!(report.faults.iter().any(|f| matches!(f, LessonFault::Check { .. })), "{report}");
}

#[test]
fn a_goal_met_at_the_start_or_never_met_is_a_fault() {
    let text = record(&[("1111", 'B'), ("1515", 'K'), ("5554", 'k')], "1111", "capture", 3, 'B');
    let report = lesson::verify(&one(&text), LessonCheck::Fast);
    assert_eq!(report.faults, [LessonFault::GoalAtStart], "nothing to capture");
    let text = record(&[("1111", 'B'), ("1515", 'K'), ("5554", 'k')], "1111", "reach 1111", 3, 'B');
    assert_eq!(lesson::verify(&one(&text), LessonCheck::Fast).faults, [LessonFault::GoalAtStart]);
    // The bishop keeps the parity of x+y+z+w: 2111 is out of its reach.
    let text = record(&[("1111", 'B'), ("1515", 'K'), ("5554", 'k')], "1111", "reach 2111", 3, 'B');
    let report = lesson::verify(&one(&text), LessonCheck::Fast);
    assert!(report.faults.contains(&LessonFault::Unwinnable), "{report}");
    let text = record(&[("1111", 'B'), ("1515", 'K'), ("5554", 'k')], "1111", "reach 3311", 3, 'B');
    let report = lesson::verify(&one(&text), LessonCheck::Fast);
    assert!(report.passed(), "{report}");
    assert_eq!(report.par, Some(1));
}

#[test]
fn goals_and_pieces_are_read_and_checked() {
    let pieces = [("1111", 'B'), ("2222", 'R'), ("1515", 'K'), ("5554", 'k')];
    let l = one(&record(&pieces, "1111", "reach 3311", 3, 'B'));
    assert_eq!(l.goal_text(), "reach 3311");
    assert!(matches!(l.goal, Goal::Reach(_)));
    for (taught, goal, teaches, expected) in [
        ("1112", "capture", 'B', "field `piece`: 1112 holds no piece of the side to move"),
        ("5554", "capture", 'B', "field `piece`: 5554 holds no piece"),
        ("2222", "capture", 'B', "holds a rook, but the lesson teaches the bishop"),
        ("1111 1111", "capture", 'B', "named twice"),
        ("", "capture", 'B', "field `piece`"),
        ("9999", "capture", 'B', "not a cell of this board"),
        ("1111", "mate", 'B', "field `goal`: expected `capture`"),
        ("1111", "reach 6111", 'B', "field `goal`: \"6111\" is not a cell"),
        ("1111", "promote", 'B', "only pawns can be asked to promote"),
        ("1111", "capture", 'X', "field `teaches`"),
    ] {
        let err = lesson::parse(&record(&pieces, taught, goal, 3, teaches)).expect_err(expected);
        assert!(err.to_string().contains(expected), "{err} does not say {expected:?}");
    }
    let err = lesson::parse(&record(&pieces, "1111", "capture", 0, 'B')).unwrap_err();
    assert!(err.to_string().contains("field `bound`: 0 is out of range"), "{err}");
}

#[test]
fn no_input_makes_the_parser_panic() {
    let text = lesson::LESSONS_TXT;
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)).step_by(5) {
        let _ = lesson::parse(&text[..end]);
    }
}
