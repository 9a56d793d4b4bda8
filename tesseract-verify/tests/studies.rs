//! The twelve studies pass their three machine checks, and a verifier that passes them also fails
//! broken studies: a wrong key, a cook, a defence that escapes, a stalemate, a wrong N, a wrong main line.

use tesseract_board::{CastlingMode, Color, Move, Piece, Position, Role, Setup, Shape};
use tesseract_movegen::{Legal, legal_moves};
use tesseract_verify::mate::{MateSolver, ProofCheck, ProofFailure};
use tesseract_verify::records::DataError;
use tesseract_verify::study::{self, SetFault, Study, StudyFault};

/// A position from (cell, letter) pairs, `turn` to move.
fn position(pieces: &[(&str, char)], turn: Color) -> Position {
    let g = Shape::TESSERACT.geometry();
    let mut setup = Setup::empty(Shape::TESSERACT);
    for &(cell, letter) in pieces {
        let c = g.parse_cell(cell).expect("a cell");
        setup.board[c.index()] = Some(Piece::from_char(letter, 4).expect("a piece letter"));
    }
    setup.turn = turn;
    Position::from_setup(setup, CastlingMode::Standard).expect("a valid position")
}

/// A study built in code, its main line the given moves.
fn study(pos: Position, n: u32, line: &[&str], mate: Role) -> Study {
    let mut p = pos.clone();
    let moves: Vec<Move> = line
        .iter()
        .map(|t| {
            let m = p.parse_move(t).expect("a legal move");
            p.make(m);
            m
        })
        .collect();
    Study {
        name: "test".into(),
        source_line: 1,
        title: "test".into(),
        position: pos,
        n,
        key: moves[0],
        line: moves,
        mate,
        idea: "test".into(),
    }
}

/// Black king in the corner, White king and queen: the queen on 2222, guarded, covers all fifteen flights.
fn corner_queen() -> Position {
    position(&[("1111", 'k'), ("3222", 'Q'), ("3333", 'K')], Color::White)
}

#[test]
fn the_shipped_file_reads_and_the_set_is_as_the_issue_asks() {
    let studies = study::shipped().expect("the shipped studies read");
    assert_eq!(studies.len(), 12);
    let faults = study::verify_set(&studies, 12);
    assert!(faults.is_empty(), "{faults:?}");
    // Every study round-trips through the file format.
    for s in &studies {
        let again = study::parse(&s.to_record_text()).expect("a record reads back");
        assert_eq!(again[0], Study { source_line: 1, ..s.clone() });
        assert!(s.position.turn() == Color::White, "study {}: White mates", s.name);
    }
}

/// Verifies every shipped study of `n` moves in `range`.
fn verify_shipped(range: std::ops::RangeInclusive<u32>) -> usize {
    let mut verified = 0;
    for s in study::shipped().expect("the shipped studies read").into_iter().filter(|s| range.contains(&s.n)) {
        let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Fast);
        println!("{report}");
        assert!(report.passed(), "{report}");
        assert_eq!(report.shortest, Some(s.n));
        assert_eq!(report.keys, [s.text(s.key)]);
        let proof = report.proof.expect("a proof tree");
        assert!(proof.mates >= 1);
        verified += 1;
    }
    verified
}

#[test]
fn every_shipped_study_of_up_to_three_moves_is_correct_unique_and_forced() {
    assert_eq!(verify_shipped(1..=3), 11);
}

#[test]
#[ignore = "the mate in 4 takes about 20 s in a debug build: scripts/test.sh runs it in the optimised pass (--ignored)"]
fn every_shipped_study_of_four_moves_or_more_is_correct_unique_and_forced() {
    assert_eq!(verify_shipped(4..=study::MAX_N), 1);
}

#[test]
#[ignore = "slow in a debug build: scripts/test.sh runs it in the optimised pass (cargo test --profile ci -- --ignored)"]
fn every_proof_tree_is_confirmed_by_the_naive_generator() {
    for s in study::shipped().expect("the shipped studies read") {
        let stats = MateSolver::new().prove(&s.position, s.key, s.n, ProofCheck::Naive).expect("the proof holds");
        assert_eq!(stats.naive_nodes, stats.defender_nodes, "study {}", s.name);
    }
}

#[test]
fn a_correct_mate_in_one_passes() {
    let pos = corner_queen();
    let s = study(pos, 1, &["32222222"], Role::Queen);
    let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Naive);
    assert!(report.passed(), "{report}");
    assert_eq!(report.keys, ["32222222"]);
}

#[test]
fn a_wrong_key_fails_correctness_and_forcedness_and_names_the_real_key() {
    let pos = corner_queen();
    // 32224222 is a legal queen move that does not mate.
    let s = study(pos, 1, &["32224222"], Role::Queen);
    let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Fast);
    assert!(!report.passed());
    assert!(report.faults.contains(&StudyFault::KeyDoesNotMate { key: "32224222".into() }), "{report}");
    assert!(report.faults.contains(&StudyFault::Cook { moves: vec!["32222222".into()] }), "{report}");
    assert!(report.faults.iter().any(|f| matches!(f, StudyFault::Escape { .. })), "{report}");
}

#[test]
fn a_cook_fails_uniqueness_only() {
    // Two queens can each land on 2222 guarded by the king: two keys.
    let pos = position(&[("1111", 'k'), ("3222", 'Q'), ("2322", 'Q'), ("3333", 'K')], Color::White);
    let s = study(pos, 1, &["32222222"], Role::Queen);
    let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Fast);
    assert_eq!(report.shortest, Some(1));
    assert!(report.proof.is_some(), "the key itself is sound: {report}");
    let cooks: Vec<&StudyFault> = report.faults.iter().collect();
    assert_eq!(cooks.len(), 1, "{report}");
    match cooks[0] {
        StudyFault::Cook { moves } => assert!(moves.contains(&"23222222".to_string()), "{moves:?}"),
        other => panic!("expected a cook, found {other}"),
    }
}

#[test]
fn a_defence_that_escapes_is_named_by_the_proof() {
    let pos = corner_queen();
    let mut solver = MateSolver::new();
    // A quiet king move: Black escapes mate in one.
    let key = pos.parse_move("33333334").unwrap();
    match solver.prove(&pos, key, 1, ProofCheck::Fast) {
        Err(ProofFailure::Escape { line, remaining }) => {
            assert_eq!(line, [key]);
            assert_eq!(remaining, 0);
        }
        other => panic!("expected an escape, found {other:?}"),
    }
    // With two moves claimed after a key that does not mate in two, the proof names a defence after
    // which White has no mate in the remaining move, and that defence really escapes.
    let key = legal_moves(&pos)
        .into_iter()
        .find(|&m| {
            let mut p = pos.clone();
            p.make(m);
            !MateSolver::new().mated_within(&p, 1).unwrap()
        })
        .expect("a first move that does not mate in two");
    let Err(ProofFailure::Escape { line, remaining }) = solver.prove(&pos, key, 2, ProofCheck::Naive) else {
        panic!("expected an escape");
    };
    assert_eq!((line.len(), remaining), (2, 1));
    let mut after = pos.clone();
    for &m in &line {
        after.play(m).expect("the line is legal");
    }
    assert!(!MateSolver::new().mates_within(&after, 1).unwrap(), "the named defence escapes");
}

#[test]
fn a_stalemating_key_fails_forcedness() {
    // The black king in its corner, its two pawns blocked by the king itself; the queen's move takes the
    // last flight cells without giving check. (A lone cornered king cannot be stalemated by king and queen
    // in 4D: a search of every such position found none.)
    let pos = position(&[("1111", 'k'), ("1211", 'y'), ("1112", 'w'), ("3111", 'K'), ("1321", 'Q')], Color::White);
    let s = study(pos, 1, &["13211232"], Role::Queen);
    let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Naive);
    assert!(report.faults.contains(&StudyFault::Stalemate { line: vec!["13211232".into()] }), "{report}");
    assert!(report.faults.iter().any(|f| matches!(f, StudyFault::KeyDoesNotMate { .. })), "{report}");
}

#[test]
fn a_wrong_n_fails_correctness() {
    // Announced as a mate in 2: there is a mate in 1.
    let mut s = study(corner_queen(), 1, &["32222222"], Role::Queen);
    s.n = 2;
    let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Fast);
    assert!(report.faults.contains(&StudyFault::ShorterMate { n: 2, found: 1 }), "{report}");
    // A shipped mate in 2 or more, announced as a mate in 1: no mate within 1.
    let mut s = study::shipped().unwrap().into_iter().find(|s| s.n >= 2).expect("a longer study");
    s.n = 1;
    s.line.truncate(1);
    let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Fast);
    assert!(report.faults.contains(&StudyFault::NoMate { n: 1 }), "{report}");
}

#[test]
fn a_wrong_mating_piece_is_caught() {
    let s = study(corner_queen(), 1, &["32222222"], Role::Rook);
    let report = study::verify(&s, &mut MateSolver::new(), ProofCheck::Fast);
    assert_eq!(report.faults, [StudyFault::MatingPiece { declared: Role::Rook, found: Role::Queen }]);
}

#[test]
fn a_main_line_with_a_short_defence_is_caught() {
    // In a shipped study of three moves, replace the main line's first defence by one that is
    // mated sooner than the longest.
    let mut solver = MateSolver::new();
    for s in study::shipped().unwrap().into_iter().filter(|s| s.n == 3) {
        let mut after = s.position.clone();
        after.make(s.key);
        let defences = solver.defences(&after, s.n - 1).unwrap();
        let longest = defences.iter().filter_map(|&(_, l)| l).max();
        let Some(&(short, _)) = defences.iter().find(|&&(_, l)| l < longest) else { continue };
        let mut broken = s.clone();
        broken.line[1] = short;
        broken.line.truncate(2);
        let report = study::verify(&broken, &mut solver, ProofCheck::Fast);
        assert!(report.faults.iter().any(|f| matches!(f, StudyFault::MainLine { ply: 2, .. })), "{report}");
        return;
    }
    panic!("no shipped study has a defence shorter than the longest");
}

#[test]
fn the_set_check_catches_duplicates_gaps_and_missing_maters() {
    let studies = study::shipped().unwrap();
    let mut set = studies[..11].to_vec();
    set.push(studies[0].clone());
    let faults = study::verify_set(&set, 12);
    assert!(faults.iter().any(|f| matches!(f, SetFault::SamePosition { .. })), "{faults:?}");
    assert!(faults.iter().any(|f| matches!(f, SetFault::SameText { .. })), "{faults:?}");
    let no_long: Vec<Study> = studies.iter().filter(|s| s.n < 4).cloned().collect();
    let faults = study::verify_set(&no_long, no_long.len());
    assert!(faults.iter().any(|f| matches!(f, SetFault::Range { .. })), "{faults:?}");
    let no_knight: Vec<Study> = studies.iter().filter(|s| s.mate != Role::Knight).cloned().collect();
    let faults = study::verify_set(&no_knight, 12);
    assert!(faults.contains(&SetFault::MissingMater { role: Role::Knight }), "{faults:?}");
    assert!(faults.iter().any(|f| matches!(f, SetFault::Count { expected: 12, .. })), "{faults:?}");
}

#[test]
fn malformed_files_are_reported_by_line_and_field() {
    let good = study::STUDIES_TXT;
    let first = study::shipped().unwrap().remove(0);
    let record = first.to_record_text();
    let cases: Vec<(String, &str)> = vec![
        (record.replace("\nn: ", "\nn: x"), "field `n`: expected a number"),
        (record.replace("\nn: ", "\nn: 9"), "field `n`"),
        (record.replace("key: ", "key: é"), "field `key`"),
        (record.replace("fen: ", "fen: 5/5 "), "field `fen`"),
        (record.replace("key: ", "key: 1111"), "field `key`"),
        (record.replace("mate: ", "mate: K"), "field `mate`"),
        (record.replace("idea: ", "color: red\nidea: "), "unknown field `color`"),
        (record.replace("idea: ", "title: again\nidea: "), "field `title` appears twice"),
        (record.lines().filter(|l| !l.starts_with("line:")).collect::<Vec<_>>().join("\n"), "no field `line`"),
        (format!("{record}\n{record}"), "a record named"),
        ("title: orphan\n".into(), "before the first `study:` line"),
        ("just words\n".into(), "line 1: expected `field: value`"),
        ("# only a comment\n".into(), "no `study:` record"),
    ];
    for (text, expected) in cases {
        let err: DataError = study::parse(&text).expect_err(expected);
        assert!(err.to_string().contains(expected), "{err} does not say {expected:?}");
    }
    assert!(study::parse(good).is_ok());
}

#[test]
fn no_input_makes_the_parser_panic() {
    // Every prefix of the shipped file, and every single-byte corruption of its first record.
    let text = study::STUDIES_TXT;
    for end in (0..text.len()).filter(|&i| text.is_char_boundary(i)).step_by(7) {
        let _ = study::parse(&text[..end]);
    }
    let record = study::shipped().unwrap()[0].to_record_text();
    for i in (0..record.len()).filter(|&i| record.is_char_boundary(i)) {
        for replacement in [" ", ":", "9", "\n", "é", "/", "Q"] {
            let mut t = record.clone();
            let next = (i + 1..=t.len()).find(|&j| t.is_char_boundary(j)).unwrap_or(t.len());
            t.replace_range(i..next, replacement);
            let _ = study::parse(&t);
        }
    }
}
