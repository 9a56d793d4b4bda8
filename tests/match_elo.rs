//! The match example's Elo estimate (`examples/common/elo.rs`): a 100% or 0% score gives a one-sided bound
//! from the exact binomial bound, not the `+1200 [+1200, +1200]` of a clamped score; all draws give the
//! exact interval; every other match keeps the normal interval, whose end beyond the possible scores is
//! open (`+inf`). The figures were computed apart from the code under test (Python's `statistics.stdev`
//! and `math.log10`, as `scripts/test_selfplay_uci.py` checks for the script's copy).

#[path = "../examples/common/elo.rs"]
mod elo;

use elo::Estimate;

fn shown(scores: &[f64]) -> String {
    Estimate::of(scores).expect("games").to_string()
}

#[test]
fn every_game_won_or_lost_is_a_one_sided_bound() {
    // 0.05^(1/n): the lowest expected score that wins n in a row with probability 5%.
    assert_eq!(shown(&[1.0; 10]), "Elo > +183 (95%, one-sided)");
    assert_eq!(shown(&[1.0; 40]), "Elo > +444 (95%, one-sided)");
    // Two wins prove little: a weaker player wins two in a row more than 5% of the time.
    assert_eq!(shown(&[1.0; 2]), "Elo > -216 (95%, one-sided)");
    assert_eq!(shown(&[1.0]), "Elo > -512 (95%, one-sided)");
    assert_eq!(shown(&[0.0; 10]), "Elo < -183 (95%, one-sided)");
    assert_eq!(shown(&[0.0; 2]), "Elo < +216 (95%, one-sided)");
}

#[test]
fn every_game_drawn_is_the_exact_interval() {
    assert_eq!(shown(&[0.5; 10]), "Elo +0 [95%: -111, +111]");
    assert_eq!(shown(&[0.5; 40]), "Elo +0 [95%: -31, +31]");
    assert_eq!(shown(&[0.5; 2]), "Elo +0 [95%: -427, +427]");
}

#[test]
fn other_matches_keep_the_normal_interval_open_where_it_leaves_the_scores() {
    let mut mixed = vec![1.0; 30];
    mixed.extend([0.0; 10]);
    mixed.extend([0.5; 20]);
    assert_eq!(shown(&mixed), "Elo +120 [95%: +50, +202]");
    let mut nine_and_a_draw = vec![1.0; 9];
    nine_and_a_draw.push(0.5);
    assert_eq!(shown(&nine_and_a_draw), "Elo +512 [95%: +304, +inf]");
    let mut lost_and_a_draw = vec![0.0; 9];
    lost_and_a_draw.push(0.5);
    assert_eq!(shown(&lost_and_a_draw), "Elo -512 [95%: -inf, -304]");
    assert_eq!(shown(&[1.0, 0.0, 0.5, 1.0]), "Elo +89 [95%: -293, +inf]");
    assert_eq!(shown(&[1.0, 0.0]), "Elo +0 [95%: -inf, +inf]");
    assert_eq!(Estimate::of(&[]), None);
}
