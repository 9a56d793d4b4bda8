//! `play --study N` and `play --lesson N` end to end, driven through scripted stdin. The keys and the
//! solutions come from tesseract-verify (the studies and lessons the program plays), never from the
//! program's own output.

mod common;

use std::process::Output;

use common::stdout;
use tesseract::board::TextMove;
use tesseract::movegen::legal_moves;
use tesseract::verify::{lesson, study};

fn play(args: &[&str], input: &str) -> Output {
    common::run_example("play", args, input)
}

/// Study 1's key as a move text, and a legal first move that is not the key.
fn study_1_moves() -> (String, String) {
    let study = &study::shipped().unwrap()[0];
    let key = study.text(study.key);
    let wrong = legal_moves(&study.position).into_iter().find(|&m| m != study.key).expect("another legal move");
    (key, study.text(wrong))
}

#[test]
fn study_1_is_solved_by_its_key() {
    let study = &study::shipped().unwrap()[0];
    let (key, _) = study_1_moves();
    let out = play(&["--study", "1", "--no-color"], &format!("hint\n{key}\nquit\n"));
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("Study 1 of 12: {}", study.title)), "{text}");
    assert!(text.contains("White to move mates in 1."), "{text}");
    // The board, drawn as in `play`.
    assert!(text.contains("  w=1          w=2          w=3          w=4          w=5"), "{text}");
    let from = study.position.geometry().cell_name(study.key.from);
    assert!(text.contains(&format!(" on {from} (type moves {from} for its moves)")), "{text}");
    assert!(text.contains("checking…"), "{text}");
    assert!(text.contains(&format!("Solved in 1! {}", study.idea)), "{text}");
}

#[test]
fn a_wrong_move_is_refuted_then_taken_back() {
    let (key, wrong) = study_1_moves();
    let out = play(&["--study", "1", "--no-color"], &format!("{wrong}\n{key}\nback\n{key}\nquit\n"));
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let refuted = text.find("Take back (back) and try again.").expect(&text);
    assert!(text.contains("This try is over: type back"), "{text}");
    let back = text.find("Taken back.").expect(&text);
    let solved = text.find("Solved in 1!").expect(&text);
    assert!(refuted < back && back < solved, "{text}");
}

#[test]
fn a_mate_in_2_names_black_s_defence() {
    let study = study::shipped().unwrap().into_iter().find(|s| s.n == 2).expect("a mate in 2");
    let number = study::shipped().unwrap().iter().position(|s| *s == study).unwrap() + 1;
    let texts = study.line_text();
    // White's moves of the main line; Black's are the program's.
    let script = format!("{}\n{}\nquit\n", texts[0], texts[2]);
    let out = play(&["--study", &number.to_string(), "--no-color"], &script);
    let text = stdout(&out);
    assert!(text.contains("Black defends with "), "{text}");
    assert!(text.contains("Solved in 2!"), "{text}");
}

#[test]
fn lesson_1_is_done_with_its_solution() {
    let lessons = lesson::shipped().unwrap();
    let first = &lessons[0];
    let solution = lesson::verify(first, lesson::LessonCheck::Fast).solution;
    assert!(!solution.is_empty());
    let script = format!("{}\nnext\nquit\n", solution.join("\n"));
    let out = play(&["--lesson", "1", "--no-color"], &script);
    let text = stdout(&out);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(text.contains(&format!("Lesson 1 of 8: {}", first.title)), "{text}");
    assert!(text.contains(&first.explain), "{text}");
    assert!(text.contains(&format!("Par: {} moves.", first.bound)), "{text}");
    assert!(text.contains(&format!("Done in {} moves.", solution.len())), "{text}");
    // `next` opens lesson 2.
    assert!(text.contains(&format!("Lesson 2 of 8: {}", lessons[1].title)), "{text}");
}

#[test]
fn a_piece_the_lesson_does_not_teach_is_refused() {
    let first = &lesson::shipped().unwrap()[0];
    let other = legal_moves(&first.position)
        .into_iter()
        .find(|m| !first.pieces.contains(&m.from))
        .expect("a legal move of a piece not taught");
    let text_move = TextMove::from_move(other, &first.position).to_string();
    let out = play(&["--lesson", "1", "--no-color"], &format!("{text_move}\nfen\nquit\n"));
    let text = stdout(&out);
    assert!(text.contains("Only the taught pieces move in this lesson"), "{text}");
    // Nothing was played.
    assert!(text.contains(&first.position.fen()), "{text}");
    assert!(!text.contains("so far; par"), "{text}");
}

#[test]
fn numbers_out_of_range_exit_2() {
    for args in [
        &["--study", "13"][..],
        &["--study", "0"],
        &["--lesson", "9"],
        &["--lesson", "one"],
        &["--study", "1", "--lesson", "1"],
        &["--study", "1", "--two-players"],
    ] {
        let out = play(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.is_empty(), "{args:?}");
        if args == ["--study", "13"] {
            assert!(err.contains("there are 12 studies, numbered 1 to 12"), "{err}");
        }
    }
}
