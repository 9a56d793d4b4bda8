//! The Elo difference of a match, from its game scores (1, ½ or 0 from one player's point of view), with
//! how sure it is at 95%.
//!
//! The usual case is a normal approximation over the game scores: the Elo of the mean score, and of the
//! mean plus or minus 1.96 standard errors; an end of that interval beyond the scores that can be (below 0
//! or above 1) bounds nothing on its side, and shows as `-inf` or `+inf`. When every game has the same
//! score the games' spread is zero and that interval would be a point (a 100% score used to print
//! `+1200 [+1200, +1200]`, the clamp of the score), so exact binomial bounds stand in:
//!
//! - every game won, n games: the expected score s of the player is at least 0.05^(1/n) with 95%
//!   confidence (one-sided): no player whose score is lower wins n games in a row with probability 5% or
//!   more (of all the ways to score s, winning every game is likeliest when the games are wins and losses
//!   only, with probability s^n). Printed `Elo > +N (95%, one-sided)`; every game lost, the mirror, `Elo < -N`.
//! - every game drawn: at most 2·min(s, 1 − s) of the games of a player of expected score s can be draws,
//!   so n draws in a row have probability at most (2·min(s, 1 − s))^n, and s lies between
//!   ½·0.025^(1/n) and 1 − ½·0.025^(1/n) (95%, 2.5% in each tail). Printed `Elo +0 [95%: -N, +N]`.
//!
//! `scripts/selfplay_uci.py` computes the same figures (its own test is `scripts/test_selfplay_uci.py`).

use std::fmt;

/// The Elo difference of an expected score `p` (strictly between 0 and 1).
pub fn elo(p: f64) -> f64 {
    // `+ 0.0` turns the -0 of an even score into 0.
    -400.0 * (1.0 / p - 1.0).log10() + 0.0
}

/// The Elo difference of a match, and how sure it is at 95%: see the [module](self) docs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Estimate {
    /// The Elo of the mean score, and the ends of its 95% interval (`None`: unbounded on that side).
    Interval {
        /// The Elo of the mean score.
        elo: f64,
        /// The lower end, if the interval has one.
        low: Option<f64>,
        /// The upper end, if the interval has one.
        high: Option<f64>,
    },
    /// Every game won: the Elo difference is above this, at 95% (one-sided).
    Above(f64),
    /// Every game lost: the Elo difference is below this, at 95% (one-sided).
    Below(f64),
}

impl Estimate {
    /// The estimate of a match whose games scored `scores` (each 1, 0.5 or 0), or `None` for no game.
    pub fn of(scores: &[f64]) -> Option<Estimate> {
        let first = *scores.first()?;
        let n = scores.len() as f64;
        if scores.iter().all(|&s| s == first) {
            let one_sided = elo(0.05f64.powf(1.0 / n));
            return Some(if first == 1.0 {
                Estimate::Above(one_sided)
            } else if first == 0.0 {
                Estimate::Below(-one_sided)
            } else {
                let edge = 0.5 * 0.025f64.powf(1.0 / n);
                Estimate::Interval { elo: elo(first), low: Some(elo(edge)), high: Some(elo(1.0 - edge)) }
            });
        }
        let mean = scores.iter().sum::<f64>() / n;
        let var = scores.iter().map(|s| (s - mean) * (s - mean)).sum::<f64>() / (n - 1.0);
        let half = 1.96 * (var / n).sqrt();
        let (lo, hi) = (mean - half, mean + half);
        Some(Estimate::Interval { elo: elo(mean), low: (lo > 0.0).then(|| elo(lo)), high: (hi < 1.0).then(|| elo(hi)) })
    }
}

impl fmt::Display for Estimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Estimate::Interval { elo, low, high } => {
                let end = |e: Option<f64>, none: &str| e.map_or_else(|| none.to_string(), |e| format!("{e:+.0}"));
                write!(f, "Elo {elo:+.0} [95%: {}, {}]", end(low, "-inf"), end(high, "+inf"))
            }
            Estimate::Above(e) => write!(f, "Elo > {e:+.0} (95%, one-sided)"),
            Estimate::Below(e) => write!(f, "Elo < {e:+.0} (95%, one-sided)"),
        }
    }
}
