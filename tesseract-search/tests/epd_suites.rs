//! The chess test suites shipped in `tests/data/suites` (their sources in that folder's README): every
//! line is a position this workspace reads, with a best move (`bm`) or a move to avoid (`am`) that is
//! legal there, given in SAN as published, and each suite holds the positions its source counts. The
//! suites are run by the `epd` example and by `scripts/suites_uci.py` (this crate's README, "The test
//! suites at 200,000 nodes").

use std::collections::HashSet;

use tesseract_board::epd::Epd;
use tesseract_movegen::san;
use tesseract_movegen::{Legal, legal_moves};

/// Each suite with the positions it holds and, of them, the ones given by a move to avoid.
const SUITES: [(&str, &str, usize, usize); 6] = [
    ("pet.epd", include_str!("data/suites/pet.epd"), 48, 6),
    ("eet.epd", include_str!("data/suites/eet.epd"), 100, 13),
    ("bt2630.epd", include_str!("data/suites/bt2630.epd"), 30, 0),
    ("ecmgcp.epd", include_str!("data/suites/ecmgcp.epd"), 183, 0),
    ("arasan21.epd", include_str!("data/suites/arasan21.epd"), 200, 2),
    ("iq4.epd", include_str!("data/suites/iq4.epd"), 183, 0),
];

#[test]
fn every_suite_position_is_read_with_legal_moves_in_san() {
    for (name, text, positions, avoid_only) in SUITES {
        let (mut read, mut avoided) = (0, 0);
        let mut ids = HashSet::new();
        for (i, line) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            let at = format!("{name}:{}", i + 1);
            let epd = Epd::parse(line).unwrap_or_else(|e| panic!("{at}: {e}"));
            let pos = &epd.position;
            assert!(!legal_moves(pos).is_empty(), "{at}: no legal move");
            // One line of arasan21.epd names its id `od`, as published (that folder's README).
            let id = epd.operands("id").or(epd.operands("od")).and_then(|o| o.first());
            let id = id.unwrap_or_else(|| panic!("{at}: no id"));
            assert!(ids.insert(id.clone()), "{at}: id {id} given twice");
            let moves = |opcode: &str| -> Vec<_> {
                let operands = epd.operands(opcode).unwrap_or(&[]);
                for text in operands {
                    // As published: SAN, not UCI text.
                    assert!(pos.parse_move(text).is_err(), "{at}: {opcode} {text} reads as UCI text");
                }
                operands
                    .iter()
                    .map(|t| san::parse_move(pos, t).unwrap_or_else(|e| panic!("{at}: {opcode} {t}: {e}")))
                    .collect()
            };
            let (best, avoid) = (moves("bm"), moves("am"));
            assert!(best.is_empty() != avoid.is_empty(), "{at}: a best move or a move to avoid, one of them");
            // Each move given once, and none both best and to avoid.
            assert_eq!(best.iter().chain(&avoid).collect::<HashSet<_>>().len(), best.len() + avoid.len(), "{at}");
            avoided += usize::from(best.is_empty());
            read += 1;
        }
        assert_eq!((read, avoided), (positions, avoid_only), "{name}");
    }
}

#[test]
fn a_suite_move_resolves_to_the_move_its_san_names() {
    // Hand-checked against each source's first position: the SAN resolves to the move its notation says.
    let first = |text: &str| Epd::parse(text.lines().next().unwrap()).unwrap();
    let cases = [
        ("pet.epd", "e3e4"),
        ("eet.epd", "d5c6"),
        ("bt2630.epd", "f5g7"),
        ("ecmgcp.epd", "c8g4"),
        ("arasan21.epd", "g2g4"),
        ("iq4.epd", "f5f1"),
    ];
    for ((name, text, ..), (expected_name, uci)) in SUITES.iter().zip(cases) {
        assert_eq!(*name, expected_name);
        let epd = first(text);
        let best = epd.operands("bm").unwrap();
        assert_eq!(best.len(), 1, "{name}");
        let m = san::parse_move(&epd.position, &best[0]).unwrap();
        assert_eq!(m, epd.position.parse_move(uci).unwrap(), "{name}: {}", best[0]);
    }
}
