//! The four self-checks pass, the frozen script is what its seed generates, and a tampered script or a
//! malformed script file is caught.

use tesseract_board::start;
use tesseract_verify::selfcheck::{self, SCRIPT_TXT};

#[test]
fn empty_board_constants_by_both_generators() {
    let check = selfcheck::empty_board_constants();
    assert!(check.passed(), "{check}");
    assert_eq!(
        check.figure,
        "rook 10,000, bishop 18,000, unicorn 16,000, dragon 5,664, queen 49,664, king 27,936, knight 14,400"
    );
}

#[test]
fn the_start_position_theorem_for_all_three_armies() {
    let check = selfcheck::start_theorem();
    assert!(check.passed(), "{check}");
    assert!(check.figure.contains("standard 32+32 pieces, 226 moves"), "{}", check.figure);
}

#[test]
fn the_generators_agree_node_for_node() {
    // Depth 2 compares 685 nodes and makes 152,238 children both ways: seconds in release, longer in
    // debug, where depth 1 still compares every child of the three starts.
    let depth = if cfg!(debug_assertions) { 1 } else { selfcheck::AGREE_DEPTH };
    let check = selfcheck::generators_agree(depth);
    assert!(check.passed(), "{check}");
    if depth == 2 {
        assert_eq!(check.figure, "depth 2: 685 nodes compared, leaves light 47,754, standard 50,420, dense 55,064");
    }
}

#[test]
fn the_frozen_script_replays_to_its_committed_hash_by_both_paths() {
    let check = selfcheck::frozen_script();
    assert!(check.passed(), "{check}");
    let script = selfcheck::parse_script(SCRIPT_TXT).unwrap();
    assert_eq!(script.moves.len(), 40);
    assert_eq!(script.hash, 0x497d_fccc_8924_c215);
    let fast = selfcheck::replay_fast(&script).unwrap();
    let naive = selfcheck::replay_naive(&script).unwrap();
    assert_eq!(fast, naive);
    assert_eq!(fast.hash(), naive.hash());
    assert_eq!(fast.hash(), fast.hash_from_scratch());
}

#[test]
fn the_frozen_script_is_what_its_seed_generates() {
    let script = selfcheck::parse_script(SCRIPT_TXT).unwrap();
    let start = start::by_name(&script.start).unwrap();
    assert_eq!(selfcheck::random_script(&start, 40, script.seed), script.moves);
}

#[test]
fn a_tampered_script_fails() {
    let script = selfcheck::parse_script(SCRIPT_TXT).unwrap();
    let mut wrong_hash = script.clone();
    wrong_hash.hash ^= 1;
    let check = selfcheck::check_script(&wrong_hash);
    assert!(!check.passed());
    assert!(check.failures.iter().any(|f| f.contains("checked play reaches hash")), "{check}");
    assert!(check.failures.iter().any(|f| f.contains("naive play reaches hash")), "{check}");
    // A move that is not legal at its ply.
    let mut illegal = script.clone();
    illegal.moves[5] = illegal.moves[4].clone();
    let check = selfcheck::check_script(&illegal);
    assert!(check.failures.iter().any(|f| f.contains("move 6")), "{check}");
    // One move short: another side to move, another hash.
    let mut short = script.clone();
    short.moves.pop();
    assert!(!selfcheck::check_script(&short).passed());
    // White's first two moves swapped: a transposition, the same position, the same hash.
    let mut swapped = script.clone();
    swapped.moves.swap(0, 2);
    assert!(selfcheck::check_script(&swapped).passed());
}

#[test]
fn malformed_script_files_are_reported_by_line_and_field() {
    for (from, to, expected) in [
        ("start: standard", "start: huge", "field `start`"),
        ("seed: 40", "seed: forty", "field `seed`: expected a number"),
        ("hash: 0x", "hash: 0xg", "field `hash`"),
        ("moves: 11111112", "moves: 1111111", "field `moves`: move 1"),
        ("fen: ", "color: red\nfen: ", "unknown field `color`"),
    ] {
        let text = SCRIPT_TXT.replacen(from, to, 1);
        let err = selfcheck::parse_script(&text).expect_err(expected);
        assert!(err.to_string().contains(expected), "{err} does not say {expected:?}");
    }
    let two = format!("{SCRIPT_TXT}\nscript: again\n");
    assert!(selfcheck::parse_script(&two).unwrap_err().to_string().contains("one script"));
}

#[test]
fn thousands_separators() {
    assert_eq!(selfcheck::thousands(0), "0");
    assert_eq!(selfcheck::thousands(999), "999");
    assert_eq!(selfcheck::thousands(1_000), "1,000");
    assert_eq!(selfcheck::thousands(11_715_134), "11,715,134");
}
