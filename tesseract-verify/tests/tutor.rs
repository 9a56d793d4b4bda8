//! Playing the shipped studies and lessons as a learner does, each answer checked by an independent
//! query: a fresh solver without a node limit, or the lesson's own proof.

use tesseract_board::{Move, Position};
use tesseract_movegen::{Legal, legal_moves};
use tesseract_verify::lesson::{self, LessonCheck};
use tesseract_verify::mate::MateSolver;
use tesseract_verify::study;
use tesseract_verify::tutor::{LessonPlay, StudyPlay, StudyReply, TutorError};

fn parse(pos: &Position, text: &str) -> Move {
    pos.parse_move(text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn every_study_solved_along_its_main_line_with_its_own_defences() {
    for s in study::shipped().unwrap() {
        let mut play = StudyPlay::new(s.clone());
        assert_eq!(play.hint().unwrap(), s.key.from, "study {}: the hint lights the key's piece", s.name);
        for (i, pair) in s.line.chunks(2).enumerate() {
            let reply = play.play(pair[0]).unwrap();
            match pair.get(1) {
                Some(&d) => assert_eq!(reply, StudyReply::Defence(d), "study {} move {}", s.name, i + 1),
                None => assert_eq!(reply, StudyReply::Solved { moves: s.n }, "study {}", s.name),
            }
        }
        assert!(play.is_solved());
        assert_eq!(play.play(s.key), Err(TutorError::Over));
    }
}

#[test]
fn a_wrong_first_move_is_refuted_by_a_defence_a_fresh_solver_confirms() {
    for s in study::shipped().unwrap() {
        let wrong = legal_moves(&s.position).into_iter().find(|&m| m != s.key).expect("more than one move");
        let mut play = StudyPlay::new(s.clone());
        let reply = play.play(wrong).unwrap();
        assert!(play.is_failed(), "study {}: {reply:?}", s.name);
        let StudyReply::Refuted { defence } = reply else { panic!("study {}: {reply:?}", s.name) };
        // Independently: after the wrong move and the refutation, White cannot mate within n − 1.
        let mut pos = s.position.clone();
        pos.make(wrong);
        if let Some(d) = defence {
            pos.make(d);
            assert!(
                !MateSolver::new().mates_within(&pos, s.n - 1).unwrap(),
                "study {}: the refutation is no refutation",
                s.name
            );
        }
        // Taken back, the study starts again and the key solves it.
        assert!(play.take_back());
        assert_eq!(play.position().fen(), s.position.fen());
        assert!(!play.is_failed() && play.moves().is_empty());
        assert!(matches!(play.play(s.key).unwrap(), StudyReply::Defence(_) | StudyReply::Solved { .. }));
    }
}

#[test]
fn an_illegal_move_is_refused_and_changes_nothing() {
    let s = study::shipped().unwrap().remove(0);
    let mut play = StudyPlay::new(s.clone());
    let illegal = Move::new(s.key.to, s.key.from);
    assert!(matches!(play.play(illegal), Err(TutorError::NotAllowed(_))));
    assert!(play.moves().is_empty());
    assert!(!play.take_back());
}

#[test]
fn every_lesson_followed_to_its_goal_by_its_proven_solution() {
    for l in lesson::shipped().unwrap() {
        let report = lesson::verify(&l, LessonCheck::Fast);
        assert!(report.passed(), "{report}");
        let mut play = LessonPlay::new(l.clone());
        let legal = play.legal_moves();
        assert!(!legal.is_empty() && legal.iter().all(|m| l.pieces.contains(&m.from)), "lesson {}", l.name);
        // A move of a piece the lesson does not teach is refused.
        if let Some(other) = legal_moves(&l.position).into_iter().find(|m| !l.pieces.contains(&m.from)) {
            assert!(matches!(play.play(other), Err(TutorError::NotAllowed(_))), "lesson {}", l.name);
        }
        for (i, text) in report.solution.iter().enumerate() {
            let m = parse(play.position(), text);
            let done = play.play(m).unwrap();
            assert_eq!(done, i + 1 == report.solution.len(), "lesson {} move {}", l.name, i + 1);
        }
        assert!(play.is_done() && play.legal_moves().is_empty());
        assert!(play.moves().len() as u32 <= l.bound);
        play.restart();
        assert_eq!(play.position().fen(), l.position.fen());
    }
}

#[test]
fn the_composers_check_on_the_studies_and_their_variations() {
    use tesseract_verify::tutor::{Soundness, judge};
    for s in study::shipped().unwrap().into_iter().filter(|s| s.n <= 2) {
        // Each study is sound with its own key and main line.
        assert_eq!(
            judge(&s.position, s.n, 50_000_000).unwrap(),
            Soundness::Sound { key: s.key, line: s.line.clone() },
            "study {}",
            s.name
        );
        // Asked one move more, it mates faster than asked.
        assert_eq!(judge(&s.position, s.n + 1, 50_000_000).unwrap(), Soundness::Shorter { n: s.n }, "study {}", s.name);
    }
    // Two moves on from study 1's key (mated): no mate for the mated side.
    let s = &study::shipped().unwrap()[0];
    let mut mated = s.position.clone();
    mated.make(s.key);
    assert_eq!(judge(&mated, 1, 1_000_000).unwrap(), Soundness::NoMate);
    // A cooked mate in 1 on the 8×8 board: Ra8# and Rb8# both mate.
    let cooked: Position = "6k1/8/6K1/8/8/8/8/RR6 w - - 0 1".parse().unwrap();
    let Soundness::Cooked { keys } = judge(&cooked, 1, 1_000_000).unwrap() else { panic!("not cooked") };
    let independent: Vec<Move> = legal_moves(&cooked)
        .into_iter()
        .filter(|&m| {
            let mut p = cooked.clone();
            p.make(m);
            p.is_check() && legal_moves(&p).is_empty()
        })
        .collect();
    assert_eq!(keys, independent);
    assert_eq!(keys.len(), 2);
    assert!(judge(&cooked, 0, 1).is_err() && judge(&cooked, 9, 1).is_err());
}

#[test]
fn the_daily_puzzle_is_a_proven_study_and_the_same_for_a_date() {
    use tesseract_verify::mate::ProofCheck;
    use tesseract_verify::tutor::daily;
    // A mate in 3 takes seconds to compose in an optimised build, minutes in a debug one: the debug run
    // checks an even date (a mate in 2), the optimised run (scripts/test.sh runs both) an odd one too.
    let dates: &[u32] = if cfg!(debug_assertions) { &[20261204] } else { &[20261203, 20261204] };
    for &date in dates {
        let puzzle = daily(date).unwrap();
        assert_eq!(puzzle.n, if date % 2 == 0 { 2 } else { 3 });
        assert_eq!(daily(date).unwrap().position.fen(), puzzle.position.fen(), "the same for everyone");
        // The studies' own proof: mate in exactly n, a unique key, every defence played out.
        let report = study::verify(&puzzle, &mut MateSolver::new(), ProofCheck::Fast);
        assert!(report.passed(), "{report}");
        // Playable as a study.
        let mut play = StudyPlay::new(puzzle.clone());
        for pair in puzzle.line.chunks(2) {
            play.play(pair[0]).unwrap();
        }
        assert!(play.is_solved());
    }
    assert_ne!(daily(20261206).unwrap().position.fen(), daily(20261204).unwrap().position.fen());
    for bad in [0, 19991231, 20261301, 20261200, 30000101] {
        assert!(daily(bad).is_err(), "{bad}");
    }
}
