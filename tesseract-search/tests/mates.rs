//! Mate safety (`Features::mate_safety`) at the master tier's budget on the mates of Win at Chess
//! (`tests/data/wac.epd`, with its source): the shortest mate, found and played; and on a mate in two
//! ending in a knight promotion, which is not from the suite.

use tesseract_board::epd::Epd;
use tesseract_board::{Position, Role};
use tesseract_movegen::{Legal, Outcome};
use tesseract_search::{Score, Searcher, Tier};

const WAC: &str = include_str!("data/wac.epd");

fn wac(id: &str) -> Epd {
    let line = WAC.lines().find(|l| l.contains(&format!("id \"{id}\""))).unwrap_or_else(|| panic!("{id} in the suite"));
    Epd::parse(line).unwrap()
}

/// Whether the master tier, with or without mate safety, plays a `bm` move and reports the mate at the
/// distance the suite gives (`dm`).
fn plays_the_shortest_mate(epd: &Epd, mate_safety: bool) -> bool {
    let pos = &epd.position;
    let best: Vec<_> = epd.operands("bm").unwrap().iter().map(|t| pos.parse_move(t).unwrap()).collect();
    let dm: i32 = epd.operands("dm").unwrap()[0].parse().unwrap();
    let mut options = Tier::Master.options(0);
    options.features.mate_safety = mate_safety;
    let result =
        Searcher::new(Tier::Master.settings().hash_mb).search(pos, &[], &Tier::Master.budget(), &options, |_| {});
    result.best_move.is_some_and(|m| best.contains(&m)) && result.score == Score::Mate(dm)
}

/// The positions where mate safety makes the difference at the master budget (the plain search plays a
/// longer mate or none; `cargo run --release --example epd -- --file tesseract-search/tests/data/wac.epd
/// --max-mate 12 [--no-mate-safety]` lists them, and the crate README has the comparison): with it, the
/// shortest mate is played.
#[test]
#[ignore = "master-tier searches: run in release (scripts/test.sh does)"]
fn mate_safety_plays_the_shortest_mate_where_the_plain_search_did_not() {
    for id in ["WAC.049", "WAC.051", "WAC.055", "WAC.138"] {
        assert!(plays_the_shortest_mate(&wac(id), true), "{id} with mate safety");
        // If the plain search finds it too, the list (and the README's comparison) is out of date.
        assert!(!plays_the_shortest_mate(&wac(id), false), "{id} is found by the plain search too");
    }
}

/// Every mate in 2 or 3 of the suite (38 positions).
#[test]
#[ignore = "master-tier searches: run in release (scripts/test.sh does)"]
fn every_mate_in_two_or_three_is_played_at_its_shortest() {
    let mut count = 0;
    for line in WAC.lines().filter(|l| !l.starts_with('#')) {
        let epd = Epd::parse(line).unwrap();
        if epd.operands("dm").is_some_and(|d| d[0] == "2" || d[0] == "3") {
            count += 1;
            let id = &epd.operands("id").unwrap()[0];
            assert!(plays_the_shortest_mate(&epd, true), "{id}");
        }
    }
    assert_eq!(count, 38);
}

/// A mate whose last move is a knight promotion with check, at a node away from the principal variation
/// (after the key, the line the search tries first is another): mate safety keeps that under-promotion,
/// which the rule pruning under-promotions would otherwise skip. The position came from a random search
/// for mates in two ending in a knight promotion (Stockfish agreed: mate in 2); the line is checked here
/// by the move generator.
#[test]
#[ignore = "master-tier searches: run in release (scripts/test.sh does)"]
fn a_knight_promotion_that_mates_is_not_pruned() {
    let pos = Position::from_fen("2k5/P2rP3/8/K7/b7/8/8/8 w - - 0 1").unwrap();
    let search = |mate_safety: bool| {
        let mut options = Tier::Master.options(0);
        options.features.mate_safety = mate_safety;
        Searcher::new(Tier::Master.settings().hash_mb).search(&pos, &[], &Tier::Master.budget(), &options, |_| {})
    };
    let result = search(true);
    assert_eq!(result.score, Score::Mate(2));
    assert_eq!(result.best_move, Some(pos.parse_move("a7a8q").unwrap()));
    let mut end = pos.clone();
    for &m in &result.pv {
        end.play(m).unwrap();
    }
    assert_eq!(result.pv.len(), 3);
    assert_eq!(result.pv[2].promotion, Some(Role::Knight));
    assert!(matches!(end.outcome(), Some(Outcome::Checkmate { .. })), "{:?}", end.outcome());
    // Without mate safety the knight promotion is pruned there, and the search plays e7e8q, a mate in 6
    // (so did mate safety before it kept checking knight promotions).
    assert_eq!(search(false).score, Score::Mate(6));
}
