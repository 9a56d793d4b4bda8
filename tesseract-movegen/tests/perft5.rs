//! Perft(5) of the Tesseract starts, divided by first move (`tests/data/tesseract-<army>-perft5.divide`,
//! counted by the hashed parallel perft; the file says how, when and on what), and perft(6) of the 3D start
//! (`tests/data/raumschach-perft6.divide`, counted by tesseract.distributed's units and by the hashed
//! parallel perft): each file names exactly the legal first moves, its counts add up to its total, and in
//! optimised builds the unhashed count after two of the first moves gives the same counts.

use tesseract_board::start::{self, Army};
use tesseract_board::{Position, TextMove};
use tesseract_movegen::{Legal, legal_moves};

/// Perft(6) of the 3D start divided by first move.
const RAUMSCHACH_PERFT6: &str = include_str!("data/raumschach-perft6.divide");

/// The divide files shipped, by army.
const FILES: [(Army, &str); 3] = [
    (Army::Light, include_str!("data/tesseract-light-perft5.divide")),
    (Army::Standard, include_str!("data/tesseract-standard-perft5.divide")),
    (Army::Dense, include_str!("data/tesseract-dense-perft5.divide")),
];

/// The `(move, count)` lines and the total of a divide file.
fn parse(text: &str) -> (Vec<(String, u64)>, u64) {
    let mut lines = Vec::new();
    let mut total = None;
    for line in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let (name, count) = line.split_once(' ').expect("`<move> <count>`");
        let count: u64 = count.parse().expect("a count");
        if name == "total" {
            total = Some(count);
        } else {
            lines.push((name.to_string(), count));
        }
    }
    (lines, total.expect("a total line"))
}

#[test]
fn the_divide_files_name_every_first_move_and_add_up() {
    for (army, text) in FILES {
        let (lines, total) = parse(text);
        let pos = start::tesseract(army);
        let mut legal: Vec<String> =
            legal_moves(&pos).into_iter().map(|m| TextMove::from_move(m, &pos).to_string()).collect();
        let mut named: Vec<String> = lines.iter().map(|(m, _)| m.clone()).collect();
        legal.sort();
        named.sort();
        assert_eq!(named, legal, "{army:?}: the first moves");
        assert_eq!(lines.iter().map(|(_, c)| c).sum::<u64>(), total, "{army:?}: the counts add up");
        assert_eq!(legal.len() as u64, army.perft()[0]);
    }
    let (lines, total) = parse(RAUMSCHACH_PERFT6);
    let pos = start::raumschach();
    let mut legal: Vec<String> =
        legal_moves(&pos).into_iter().map(|m| TextMove::from_move(m, &pos).to_string()).collect();
    let mut named: Vec<String> = lines.iter().map(|(m, _)| m.clone()).collect();
    legal.sort();
    named.sort();
    assert_eq!(named, legal, "3D: the first moves");
    assert_eq!(lines.iter().map(|(_, c)| c).sum::<u64>(), total, "3D: the counts add up");
    assert_eq!(total, 120_504_239_582);
}

/// Two first moves of each file recounted without a table: about 5.6 billion leaves per army.
#[test]
#[ignore = "about 15 s per army in release, minutes in debug: scripts/test.sh runs it in the optimised pass"]
fn two_first_moves_recounted_unhashed() {
    for (army, text) in FILES {
        let (lines, _) = parse(text);
        for (text, count) in [&lines[0], &lines[lines.len() / 2]] {
            let mut pos: Position = start::tesseract(army);
            let m = pos.parse_move(text).unwrap();
            pos.play(m).unwrap();
            assert_eq!(recount(&mut pos, 4), *count, "{army:?} {text}");
        }
    }
    // The 3D perft(6): about 3.6 billion leaves for the two.
    let (lines, _) = parse(RAUMSCHACH_PERFT6);
    for (text, count) in [&lines[0], &lines[lines.len() / 2]] {
        let mut pos = start::raumschach();
        let m = pos.parse_move(text).unwrap();
        pos.play(m).unwrap();
        assert_eq!(recount(&mut pos, 5), *count, "3D {text}");
    }
}

#[cfg(feature = "parallel")]
fn recount(pos: &mut Position, depth: u32) -> u64 {
    tesseract_movegen::perft_parallel(pos, depth, 0)
}

#[cfg(not(feature = "parallel"))]
fn recount(pos: &mut Position, depth: u32) -> u64 {
    tesseract_movegen::perft(pos, depth)
}
