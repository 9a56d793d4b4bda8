//! Mate safety (`Features::mate_safety`) at the master tier's budget on the mates of Win at Chess
//! (`tests/data/wac.epd`, with its source): the shortest mate, found and played.

use tesseract_board::epd::Epd;
use tesseract_movegen::Legal;
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
    for id in ["WAC.049", "WAC.051", "WAC.055", "WAC.096"] {
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
