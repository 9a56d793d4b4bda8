//! Texel tuning of the piece values: a logistic fit of the static evaluation to game results.
//!
//! Each [`Sample`] is a position from a played game and the game's result for White (1, ½ or 0). The
//! evaluation is linear in the piece values (a piece's value stands in both its middlegame and endgame
//! piece-square entries, which the taper blends back to the value; no other term reads the values), so a
//! sample keeps the evaluation without its material, `rest`, and the material balance by role: the
//! evaluation under other values is `rest + Σ balance[role] · value[role]`, with no search and no
//! evaluation run again. It is exact under the engine's values, and within a centipawn under others (the
//! taper's division truncates toward zero, and other values may change the sign of what it divides). The fit minimises
//! the mean squared error between the results and `σ(k · eval / 400)`, `σ(x) = 1 / (1 + 10^−x)`: in each
//! pass, the scale `k` under the current values ([`fit_scale`]), then each value in turn by steps while
//! the error falls ([`tune_values`]), the pawn held at 100 as the unit (which the scale then fits).
//!
//! Only positions whose evaluation the endgame knowledge leaves whole are sampled (pawns on both sides),
//! and none in check. The fit works in floating point, as a tool run offline; the values it gives are
//! integers, and the engine stays integer-only and deterministic. The `tune` example generates the samples
//! by seeded playouts and prints the fit (`cargo run --release -p tesseract-search --example tune --
//! --help`).
//!
//! # Examples
//! ```
//! use tesseract_board::{Position, Role};
//! use tesseract_search::eval::VALUES_2D;
//! use tesseract_search::tune::Sample;
//! let pos = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1")?;
//! let sample = Sample::of(&pos, 1.0).unwrap();
//! assert_eq!(sample.balance[Role::Rook.index()], 1);
//! assert_eq!(sample.balance[Role::YPawn.index()], 0);
//! // Under the engine's values, the engine's evaluation (so `rest` is defined); a rook worth 50 more
//! // adds 50, the one rook of balance.
//! let mut values = VALUES_2D;
//! values[Role::Rook.index()] += 50;
//! assert_eq!(sample.eval(&values), sample.eval(&VALUES_2D) + 50);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use crate::eval::{evaluate_white, piece_value};
use tesseract_board::{Color, Position, Role};

/// A position of a played game, reduced to what the fit needs.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Sample {
    /// The static evaluation (White's view) less its material: `Σ balance · value` under the engine's values.
    pub rest: i32,
    /// White's pieces less Black's, by [`Role::index`].
    pub balance: [i32; 9],
    /// The game's result for White: 1 a win, 0.5 a draw, 0 a loss.
    pub result: f64,
}

impl Sample {
    /// The sample of `pos` in a game that ended `result` for White; `None` in check, or when a side has
    /// no pawns (where the endgame knowledge may scale the evaluation, which is then not linear in the
    /// values).
    pub fn of(pos: &Position, result: f64) -> Option<Sample> {
        if pos.is_check() {
            return None;
        }
        let dims = pos.geometry().dims();
        let mut balance = [0i32; 9];
        let mut pawns = [0; 2];
        for (_, piece) in pos.pieces() {
            let sign = if piece.color == Color::White { 1 } else { -1 };
            balance[piece.role.index()] += sign;
            if piece.role.is_pawn() {
                pawns[piece.color.index()] += 1;
            }
        }
        if pawns[0] == 0 || pawns[1] == 0 {
            return None;
        }
        let material: i32 = Role::ALL.iter().map(|&r| balance[r.index()] * piece_value(dims, r)).sum();
        Some(Sample { rest: evaluate_white(pos) - material, balance, result })
    }

    /// The evaluation under `values` (by [`Role::index`]).
    pub fn eval(&self, values: &[i32; 9]) -> i32 {
        self.rest + self.balance.iter().zip(values).map(|(b, v)| b * v).sum::<i32>()
    }
}

/// The expected score of an evaluation `eval` (centipawns, White's view) under the scale `k`.
pub fn expected(eval: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(eval) / 400.0))
}

/// The mean squared error of the samples' results against their expected scores under `values` and `k`.
pub fn error(samples: &[Sample], values: &[i32; 9], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.iter().map(|s| (s.result - expected(s.eval(values), k)).powi(2)).sum();
    sum / samples.len() as f64
}

/// The scale `k` (0.1 to 3) under which `values` fit the samples best, to within 0.001.
pub fn fit_scale(samples: &[Sample], values: &[i32; 9]) -> f64 {
    // The error is unimodal in k: a golden-section search.
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 0.001 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error(samples, values, a) <= error(samples, values, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The values [`tune_values`] keeps a piece within, in centipawns: no piece is worth less than nothing,
/// nor more than a hundred pawns (a fit that runs off either way has samples that do not tell).
pub const VALUE_BOUNDS: std::ops::RangeInclusive<i32> = 0..=10_000;

/// What [`tune_values`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The values, by [`Role::index`].
    pub values: [i32; 9],
    /// The scale the last pass fitted.
    pub scale: f64,
    /// The error under them and that scale.
    pub error: f64,
    /// Passes over the roles made.
    pub passes: usize,
}

/// The values of `roles` fitted from `start`: in each pass (at most `max_passes`), the scale fitted to
/// the values ([`fit_scale`]), then each role's value moved by `step` centipawns at a time, in both
/// directions, while the error falls, within [`VALUE_BOUNDS`]. Roles not named keep their values (the
/// pawn, the unit, should be among them). Stops after a pass that moves no value.
pub fn tune_values(samples: &[Sample], start: [i32; 9], roles: &[Role], step: i32, max_passes: usize) -> Fit {
    let mut values = start;
    let mut scale = fit_scale(samples, &values);
    let mut best = error(samples, &values, scale);
    let mut passes = 0;
    while passes < max_passes {
        passes += 1;
        let mut improved = false;
        for &role in roles {
            for delta in [step, -step] {
                loop {
                    let mut tried = values;
                    tried[role.index()] = tried[role.index()].saturating_add(delta);
                    if !VALUE_BOUNDS.contains(&tried[role.index()]) {
                        break;
                    }
                    let e = error(samples, &tried, scale);
                    if e < best {
                        (values, best, improved) = (tried, e, true);
                    } else {
                        break;
                    }
                }
            }
        }
        scale = fit_scale(samples, &values);
        best = error(samples, &values, scale);
        if !improved {
            break;
        }
    }
    Fit { values, scale, error: best, passes }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};

    /// Synthetic samples whose results follow `truth` exactly: the fit finds it again.
    #[test]
    fn the_fit_recovers_the_values_that_made_the_results() {
        let mut truth = [0; 9];
        truth[Role::Knight.index()] = 300;
        truth[Role::Rook.index()] = 480;
        truth[Role::YPawn.index()] = 100;
        let k = 1.2;
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut samples = Vec::new();
        for _ in 0..4000 {
            let mut balance = [0; 9];
            for r in [Role::Knight, Role::Rook, Role::YPawn] {
                balance[r.index()] = (rng.next_u32() % 5) as i32 - 2;
            }
            let rest = (rng.next_u32() % 101) as i32 - 50;
            let mut s = Sample { rest, balance, result: 0.0 };
            // The result drawn with the probability the model gives, so that the fit is the truth on average.
            let p = expected(s.eval(&truth), k);
            s.result = if f64::from(rng.next_u32()) / f64::from(u32::MAX) < p { 1.0 } else { 0.0 };
            samples.push(s);
        }
        let mut start = truth;
        start[Role::Knight.index()] = 400;
        start[Role::Rook.index()] = 380;
        let before = error(&samples, &start, fit_scale(&samples, &start));
        let fit = tune_values(&samples, start, &[Role::Knight, Role::Rook], 5, 50);
        assert!(fit.error < before);
        // Within the sampling noise of 4,000 results.
        assert!((fit.values[Role::Knight.index()] - 300).abs() <= 40, "{:?}", fit.values);
        assert!((fit.values[Role::Rook.index()] - 480).abs() <= 40, "{:?}", fit.values);
        assert!((fit.scale - k).abs() < 0.25, "{}", fit.scale);
    }

    /// The `tune` example's pipeline, small: seeded engine games give samples, and the fit lowers their
    /// error.
    #[test]
    fn playouts_give_samples_and_a_fit() {
        use crate::playout::{GameResult, Playout, Policy};
        use tesseract_movegen::Legal;
        let start = tesseract_board::start::chess();
        let mut playout = Playout::new(Policy::Nodes(60), Policy::Nodes(60)).with_max_plies(120);
        let mut samples = Vec::new();
        for seed in 0..4 {
            let (game, stats) = playout.play_game(&start, seed);
            let result = match stats.result {
                GameResult::White => 1.0,
                GameResult::Draw => 0.5,
                GameResult::Black => 0.0,
            };
            let mut pos = start.clone();
            for &m in game.moves() {
                samples.extend(Sample::of(&pos, result));
                pos.play(m).unwrap();
            }
        }
        assert!(samples.len() > 100, "{}", samples.len());
        let values: [i32; 9] = std::array::from_fn(|i| piece_value(2, Role::ALL[i]));
        let before = error(&samples, &values, fit_scale(&samples, &values));
        let roles = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
        let fit = tune_values(&samples, values, &roles, 10, 3);
        assert!(fit.error <= before);
        assert!(fit.values.iter().all(|v| VALUE_BOUNDS.contains(v)));
    }

    #[test]
    fn samples_leave_out_checks_and_pawnless_sides() {
        assert!(Sample::of(&Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1").unwrap(), 1.0).is_some());
        assert!(Sample::of(&Position::from_fen("4k3/8/8/8/8/8/PPPP4/R3K3 w - - 0 1").unwrap(), 1.0).is_none());
        assert!(Sample::of(&Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K2r w - - 0 1").unwrap(), 0.0).is_none());
    }
}
