//! Texel tuning of the evaluation's weights: a logistic fit of the static evaluation to game results.
//!
//! Each [`Sample`] is a quiet position from a played game and the game's result for White (1, ½ or 0), or
//! an expected score between them (a stronger engine's judgement of the position:
//! `scripts/label_samples.py`).
//! The fit minimises the mean squared error between the results and `σ(k · eval / 400)`, `σ(x) = 1 / (1 +
//! 10^−x)`, where `eval` is the static evaluation under the weights tried ([`Evaluator`]): in each pass,
//! the scale `k` under the current weights ([`fit_scale`]), then each parameter in turn
//! ([`Weights::named`], or those the caller picks) moved by steps while the error falls ([`tune`]). The
//! pawn's value stays 100, the unit, which the scale then fits.
//!
//! The 8×8 piece-square corrections ([`Weights::square`], 368 parameters) are fitted together instead,
//! by [`fit_squares`]: they enter the evaluation linearly, so each sample's terms are computed once and
//! every step moves all of them.
//!
//! Only positions whose evaluation the endgame knowledge leaves whole are sampled (pawns on both sides),
//! and none in check. The fit works in floating point, as a tool run offline; the weights it gives are
//! integers, and the engine stays integer-only and deterministic. The `tune` example generates the samples
//! by seeded playouts and prints the fit (`cargo run --release -p tesseract-search --example tune --
//! --help`).
//!
//! # Examples
//! ```
//! use tesseract_board::Position;
//! use tesseract_search::eval::{Evaluator, Weights};
//! use tesseract_search::tune::{Sample, error, fit_scale};
//! let pos = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1")?;
//! let samples = vec![Sample::of(&pos, 1.0).unwrap()];
//! let weights = Weights::of(2);
//! let evaluator = Evaluator::new(pos.shape(), &weights);
//! // A rook up and White won: the larger the scale, the better the fit (up to the search's bound).
//! let k = fit_scale(&samples, &evaluator);
//! assert!(k > 2.9);
//! assert!(error(&samples, &evaluator, k) < error(&samples, &evaluator, 1.0));
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```

use std::io::{self, BufRead, Read, Write};

use crate::eval::{Evaluator, PHASE, SQUARE_SLOTS, Weights, has_squares, square_slot};
use crate::game::Game;
use tesseract_board::{Color, Position, Shape};
use tesseract_movegen::Legal;

/// A quiet position of a played game and the game's result.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position.
    pub position: Position,
    /// The game's result for White: 1 a win, 0.5 a draw, 0 a loss (or an expected score between them).
    pub result: f64,
}

impl Sample {
    /// The sample of `pos` in a game that ended `result` for White; `None` in check, or when a side has
    /// no pawns (where the endgame knowledge may scale the evaluation or replace it). The endings of
    /// opposite-colored bishops on 8×8, which that knowledge scales with pawns on both sides, are kept
    /// (rare: 329 of the 28,245 samples of tesseract-search's README, "Opposite-colored bishops"): there
    /// [`fit_squares`]' model counts a correction in full where the evaluation scales it (to 18/64 to
    /// 50/64), so their pull on the fit is overstated; [`tune`], and the final error of [`fit_squares`], use
    /// the evaluation itself.
    pub fn of(pos: &Position, result: f64) -> Option<Sample> {
        if pos.is_check() {
            return None;
        }
        let mut pawns = [0; 2];
        for (_, piece) in pos.pieces() {
            if piece.role.is_pawn() {
                pawns[piece.color.index()] += 1;
            }
        }
        if pawns[Color::White.index()] == 0 || pawns[Color::Black.index()] == 0 {
            return None;
        }
        Some(Sample { position: pos.clone(), result })
    }
}

/// The samples of a played game that ended `result` for White: its quiet positions (neither reached by a
/// capture nor left by one, since an exchange half made misstates the material; a promotion counts as
/// quiet) from ply `skip` on, one every `every` plies (at least 1), each as [`Sample::of`] takes it.
///
/// # Panics
/// When a move of `game` is not legal in its position (a [`Game`] holds legal moves only).
pub fn samples_of_game(game: &Game, result: f64, skip: usize, every: usize) -> Vec<Sample> {
    let pieces = |pos: &Position| pos.piece_list(Color::White).len() + pos.piece_list(Color::Black).len();
    let every = every.max(1);
    let mut samples = Vec::new();
    let mut pos = game.start().clone();
    let mut captured = false;
    for (ply, &m) in game.moves().iter().enumerate() {
        let mut next = pos.clone();
        next.play(m).expect("a game's moves are legal");
        let captures = pieces(&next) < pieces(&pos);
        if ply >= skip && (ply - skip).is_multiple_of(every) && !captured && !captures {
            samples.extend(Sample::of(&pos, result));
        }
        (pos, captured) = (next, captures);
    }
    samples
}

/// The longest line of a samples file [`read_samples`] reads: 4 KiB, several times a 4D position's text.
pub const MAX_SAMPLE_LINE: usize = 4 << 10;

/// Writes `samples` as text, one a line: the result for White (`1`, `0.5`, `0` or a fraction), a space,
/// and the position's FEN (TFEN on other boards), which [`read_samples`] reads back (a sample whose result
/// is outside 0 to 1 is written, but not read back). A run's samples can so be
/// kept and fitted again without replaying its games.
///
/// # Errors
/// The error of writing to `out`.
///
/// # Examples
/// ```
/// use tesseract_board::Position;
/// use tesseract_search::tune::{Sample, read_samples, write_samples};
/// let pos = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1")?;
/// let mut text = Vec::new();
/// write_samples(&mut text, &[Sample::of(&pos, 1.0).unwrap()])?;
/// assert_eq!(text, b"1 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n");
/// let back = read_samples(&text[..])?;
/// assert_eq!((back[0].position.fen(), back[0].result), (pos.fen(), 1.0));
/// // An expected score (a judge's, as `scripts/label_samples.py` writes) reads as it is.
/// let judged = read_samples(&b"0.8125 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n"[..])?;
/// assert_eq!(judged[0].result, 0.8125);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub fn write_samples(out: &mut impl Write, samples: &[Sample]) -> io::Result<()> {
    for sample in samples {
        writeln!(out, "{} {}", sample.result, sample.position.fen())?;
    }
    Ok(())
}

/// What is wrong with a samples file ([`read_samples`]).
#[derive(Debug, thiserror::Error)]
pub enum SamplesError {
    /// A line that is not a sample, with its number (the first is 1) and what is wrong.
    #[error("line {line}: {what}")]
    Line {
        /// The line's number, the first 1.
        line: usize,
        /// What is wrong with it.
        what: String,
    },
    /// The error of reading the file.
    #[error("{0}")]
    Io(#[from] io::Error),
}

/// Reads samples written by [`write_samples`]: one a line, the result (`1`, `0.5`, `0`, or an expected
/// score between 0 and 1), a space, the
/// position's text; empty lines, lines starting with `#` and a byte-order mark at the start are skipped. Every position must be a sample
/// ([`Sample::of`]: not in check, pawns on both sides) on the first one's board.
///
/// # Errors
/// [`SamplesError::Line`] for the first line that is not a sample (longer than [`MAX_SAMPLE_LINE`], not
/// UTF-8, a result that is no number from 0 to 1, a position text that does not read, a position that is no
/// sample, a board other than the first line's), [`SamplesError::Io`] for an error of reading.
pub fn read_samples(mut input: impl BufRead) -> Result<Vec<Sample>, SamplesError> {
    let mut samples: Vec<Sample> = Vec::new();
    let mut bytes = Vec::new();
    for line in 1.. {
        bytes.clear();
        // At most a line's cap, its line end and one byte read, whatever the input (`/dev/zero`).
        if input.by_ref().take(MAX_SAMPLE_LINE as u64 + 2).read_until(b'\n', &mut bytes)? == 0 {
            break;
        }
        let bad = |what: String| SamplesError::Line { line, what };
        if bytes.strip_suffix(b"\n").unwrap_or(&bytes).len() > MAX_SAMPLE_LINE {
            return Err(bad(format!("longer than {MAX_SAMPLE_LINE} bytes")));
        }
        let text = std::str::from_utf8(&bytes).map_err(|_| bad("not UTF-8 text".to_string()))?;
        // A byte-order mark before the first line, as an editor may write one.
        let text = if line == 1 { text.strip_prefix('\u{feff}').unwrap_or(text) } else { text }.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let (result, fen) = text.split_once(' ').unwrap_or((text, ""));
        // A game's result, or an expected score between them (`scripts/label_samples.py` writes those).
        let result = match result.parse::<f64>() {
            Ok(r) if (0.0..=1.0).contains(&r) => r,
            _ => return Err(bad(format!("the result {result:?} is not a number from 0 to 1"))),
        };
        let pos = Position::from_fen(fen.trim()).map_err(|e| bad(format!("the position {fen:?}: {e}")))?;
        if let Some(first) = samples.first()
            && first.position.shape() != pos.shape()
        {
            return Err(bad(format!(
                "a position of the {} board where the first is of the {}",
                pos.shape(),
                first.position.shape()
            )));
        }
        let sample = Sample::of(&pos, result)
            .ok_or_else(|| bad("the position is no sample (in check, or a side without pawns)".to_string()))?;
        samples.push(sample);
    }
    Ok(samples)
}

/// The expected score of an evaluation `eval` (centipawns, White's view) under the scale `k`.
pub fn expected(eval: i32, k: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-k * f64::from(eval) / 400.0))
}

/// The samples' evaluations (White's view) under `evaluator`.
fn evaluations(samples: &[Sample], evaluator: &Evaluator) -> Vec<i32> {
    samples.iter().map(|s| evaluator.evaluate_white(&s.position)).collect()
}

/// The mean squared error of the results against the expected scores of `evals` under `k`.
fn error_of(samples: &[Sample], evals: &[i32], k: f64) -> f64 {
    if samples.is_empty() {
        return 0.0;
    }
    let sum: f64 = samples.iter().zip(evals).map(|(s, &e)| (s.result - expected(e, k)).powi(2)).sum();
    sum / samples.len() as f64
}

/// The mean squared error of the samples' results against their expected scores under `evaluator` and
/// `k`.
///
/// # Panics
/// When a sample is not on the evaluator's board shape.
pub fn error(samples: &[Sample], evaluator: &Evaluator, k: f64) -> f64 {
    error_of(samples, &evaluations(samples, evaluator), k)
}

/// The scale `k` (0.1 to 3) under which `evaluator` fits the samples best, to within 0.001.
///
/// # Panics
/// When a sample is not on the evaluator's board shape.
pub fn fit_scale(samples: &[Sample], evaluator: &Evaluator) -> f64 {
    scale_of(samples, &evaluations(samples, evaluator))
}

fn scale_of(samples: &[Sample], evals: &[i32]) -> f64 {
    // The error is unimodal in k: a golden-section search.
    let (mut lo, mut hi) = (0.1f64, 3.0f64);
    let ratio = (5f64.sqrt() - 1.0) / 2.0;
    while hi - lo > 0.001 {
        let a = hi - ratio * (hi - lo);
        let b = lo + ratio * (hi - lo);
        if error_of(samples, evals, a) <= error_of(samples, evals, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// The bounds [`tune`] keeps a parameter within: those of a weights text, [`Weights::bounds`], so that
/// every fit can be written and read back (a fit that runs off further has samples that do not tell).
pub fn bounds(name: &str) -> std::ops::RangeInclusive<i32> {
    Weights::bounds(name)
}

/// What [`tune`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit {
    /// The weights.
    pub weights: Weights,
    /// The scale the last pass fitted.
    pub scale: f64,
    /// The error under them and that scale.
    pub error: f64,
    /// Passes over the parameters made.
    pub passes: usize,
}

/// The weights of `shape`'s samples fitted from `start`: in each pass (at most `max_passes`), the scale
/// fitted to the weights ([`fit_scale`]), then each parameter of [`Weights::named`] that `pick` accepts
/// moved by a step at a time, in both directions, while the error falls, within [`bounds`]. The step is
/// `value_step` centipawns for the pieces' values, 1 for the other weights. Parameters not picked keep
/// their weights. Stops after a pass that moves none. `on_pass` hears the pass, the scale and the error
/// after each.
///
/// # Panics
/// When a sample is not on `shape`.
pub fn tune(
    samples: &[Sample],
    shape: Shape,
    start: Weights,
    pick: impl Fn(&str) -> bool,
    value_step: i32,
    max_passes: usize,
    mut on_pass: impl FnMut(usize, f64, f64),
) -> Fit {
    let error_under = |weights: &Weights, k: f64| error(samples, &Evaluator::new(shape, weights), k);
    let mut weights = start;
    let names: Vec<String> = weights.named(shape).into_iter().map(|(n, _)| n).filter(|n| pick(n)).collect();
    let mut scale = fit_scale(samples, &Evaluator::new(shape, &weights));
    let mut best = error_under(&weights, scale);
    let mut passes = 0;
    while passes < max_passes {
        passes += 1;
        let mut improved = false;
        for name in &names {
            let step = if name.starts_with("value.") { value_step } else { 1 };
            for delta in [step, -step] {
                loop {
                    let mut tried = weights;
                    let moved = tried.named(shape).into_iter().find(|(n, _)| n == name).map(|(_, w)| {
                        *w = w.saturating_add(delta);
                        *w
                    });
                    if !moved.is_some_and(|w| bounds(name).contains(&w)) {
                        break;
                    }
                    let e = error_under(&tried, scale);
                    if e < best {
                        (weights, best, improved) = (tried, e, true);
                    } else {
                        break;
                    }
                }
            }
        }
        let evals = evaluations(samples, &Evaluator::new(shape, &weights));
        scale = scale_of(samples, &evals);
        best = error_of(samples, &evals, scale);
        on_pass(passes, scale, best);
        if !improved {
            break;
        }
    }
    Fit { weights, scale, error: best, passes }
}

/// The features of one sample for [`fit_squares`]: its evaluation under the start weights, its game
/// phase as a fraction of the whole (1 the middlegame), and for each piece its entry of the piece-square
/// tables (`role · SQUARE_SLOTS + slot`) with +1 for White and −1 for Black.
struct SquareFeatures {
    base: f64,
    phase: f64,
    entries: Vec<(u16, f64)>,
}

impl SquareFeatures {
    fn of(sample: &Sample, evaluator: &Evaluator) -> SquareFeatures {
        let pos = &sample.position;
        let g = pos.geometry();
        let mut phase = 0;
        let mut entries = Vec::with_capacity(32);
        for (cell, piece) in pos.pieces() {
            let c = g.coords(cell);
            let (file, rank) = (c[0] - 1, c[1] - 1);
            let ri = piece.role.index();
            phase += PHASE[ri];
            let (slot, sign) = match piece.color {
                Color::White => (square_slot(file, rank), 1.0),
                Color::Black => (square_slot(7 - file, 7 - rank), -1.0),
            };
            entries.push(((ri * SQUARE_SLOTS + slot) as u16, sign));
        }
        SquareFeatures {
            base: f64::from(evaluator.evaluate_white(pos)),
            phase: f64::from(phase.min(24)) / 24.0,
            entries,
        }
    }
}

/// What [`fit_squares`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct SquaresFit {
    /// The start weights with the fitted piece-square corrections, rounded to whole centipawns.
    pub weights: Weights,
    /// The error of the samples under the start weights and the scale.
    pub error_before: f64,
    /// The error under the fitted weights (evaluated by the engine's evaluation, as rounded) and the scale.
    pub error: f64,
}

/// The 8×8 piece-square corrections ([`Weights::square`]) fitted to `samples` from `start`'s, by
/// damped Gauss-Newton steps on the mean squared error of [`tune`] at the scale `k` (the corrections
/// enter the evaluation linearly: each piece adds its entry, the middlegame one weighted by the phase and
/// the endgame one by the rest). Every step moves all the entries at once, each by its gradient over its
/// curvature; `ridge` pulls each entry toward its start (a penalty `ridge · change² / 2` a sample), so that
/// an entry few samples touch stays near it. `epochs` steps; `on_epoch` hears each with the error of the
/// unrounded corrections. The other weights stay: their terms are the start's evaluation, computed once.
///
/// # Panics
/// When a sample is not on the 8×8 board.
pub fn fit_squares(
    samples: &[Sample],
    start: Weights,
    k: f64,
    ridge: f64,
    epochs: usize,
    mut on_epoch: impl FnMut(usize, f64),
) -> SquaresFit {
    let shape = Shape::CHESS;
    assert!(samples.iter().all(|s| has_squares(s.position.shape())), "a sample not on the 8×8 board");
    let evaluator = Evaluator::new(shape, &start);
    let features: Vec<SquareFeatures> = samples.iter().map(|s| SquareFeatures::of(s, &evaluator)).collect();
    let params = 9 * SQUARE_SLOTS * 2;
    let slope = k * std::f64::consts::LN_10 / 400.0;
    let n = samples.len().max(1) as f64;
    // The expected score of each sample under a change of the entries ((middlegame, endgame) interleaved).
    let expected_under = |f: &SquareFeatures, change: &[f64]| {
        let e = f.base
            + f.entries
                .iter()
                .map(|&(i, sign)| {
                    let i = usize::from(i) * 2;
                    sign * (f.phase * change[i] + (1.0 - f.phase) * change[i + 1])
                })
                .sum::<f64>();
        1.0 / (1.0 + 10f64.powf(-k * e / 400.0))
    };
    // Half the ridge times the squared changes: its gradient and curvature are `ridge · change` and
    // `ridge`, as the steps below take them.
    let penalty = |change: &[f64]| ridge / 2.0 * change.iter().map(|c| c * c).sum::<f64>();
    let mean_error = |change: &[f64]| {
        features.iter().zip(samples).map(|(f, s)| (expected_under(f, change) - s.result).powi(2)).sum::<f64>() / n
    };
    let mut change = vec![0.0f64; params];
    let mut step = 1.0f64;
    for epoch in 1..=epochs {
        let mut gradient = vec![0.0f64; params];
        let mut curvature = vec![0.0f64; params];
        let mut sum = 0.0;
        for (f, s) in features.iter().zip(samples) {
            let x = expected_under(f, &change);
            let miss = x - s.result;
            sum += miss * miss;
            let d = x * (1.0 - x) * slope;
            let (g, h) = (2.0 * miss * d, 2.0 * d * d);
            for &(i, sign) in &f.entries {
                let i = usize::from(i) * 2;
                gradient[i] += g * sign * f.phase;
                gradient[i + 1] += g * sign * (1.0 - f.phase);
                curvature[i] += h * f.phase * f.phase;
                curvature[i + 1] += h * (1.0 - f.phase) * (1.0 - f.phase);
            }
        }
        on_epoch(epoch, sum / n);
        // Each entry's Newton step alone; the entries move together, so the step along them all is cut
        // by halves until the objective falls.
        let direction: Vec<f64> = (0..params)
            .map(|i| {
                let h = curvature[i] / n + ridge;
                if h > 0.0 { -(gradient[i] / n + ridge * change[i]) / h } else { 0.0 }
            })
            .collect();
        let now = sum / n + penalty(&change);
        step = (step * 2.0).min(1.0);
        loop {
            let tried: Vec<f64> = change.iter().zip(&direction).map(|(c, d)| c + step * d).collect();
            if mean_error(&tried) + penalty(&tried) < now {
                change = tried;
                break;
            }
            step /= 2.0;
            if step < 1e-6 {
                break;
            }
        }
    }
    let mut weights = start;
    for (role, table) in weights.square.iter_mut().enumerate() {
        for (slot, (m, e)) in table.iter_mut().enumerate() {
            let i = (role * SQUARE_SLOTS + slot) * 2;
            let bounds = Weights::bounds("square");
            *m = m.saturating_add(change[i].round() as i32).clamp(*bounds.start(), *bounds.end());
            *e = e.saturating_add(change[i + 1].round() as i32).clamp(*bounds.start(), *bounds.end());
        }
    }
    SquaresFit {
        weights,
        error_before: error(samples, &evaluator, k),
        error: error(samples, &Evaluator::new(shape, &weights), k),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::evaluate_white;
    use tesseract_board::Role;

    /// Positions whose results follow a known rook value: a fit from a wrong value finds it again.
    #[test]
    fn the_fit_recovers_the_value_that_made_the_results() {
        // The same pawns each time; White has a rook more or less, or a knight or two (whose value stays,
        // and so sets the scale). The results are what the engine's weights give at scale 1, as fractions
        // (the error is quadratic, so a fractional result is an average of whole ones).
        let fens = [
            "4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1",
            "r3k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1",
            "4k3/pppp4/8/8/8/8/PPPP4/RR2K3 w - - 0 1",
            "4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1",
            "1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1",
            "4k3/pppp4/8/8/8/8/PPPP4/1N2K1N1 w - - 0 1",
        ];
        let truth = Weights::of(2);
        let samples: Vec<Sample> = fens
            .iter()
            .map(|f| {
                let pos = Position::from_fen(f).unwrap();
                let result = expected(evaluate_white(&pos), 1.0);
                Sample::of(&pos, result).unwrap()
            })
            .collect();
        let mut start = truth;
        let rook = truth.values[Role::Rook.index()];
        start.values[Role::Rook.index()] = rook - 150;
        let fit = tune(&samples, Shape::CHESS, start, |n| n == "value.Rook", 5, 100, |_, _, _| {});
        assert!((fit.weights.values[Role::Rook.index()] - rook).abs() <= 10, "{:?}", fit.weights.values);
        assert!((fit.scale - 1.0).abs() < 0.05, "{}", fit.scale);
        // Nothing else moved.
        let mut rest = fit.weights;
        rest.values = truth.values;
        assert_eq!(rest, truth);
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
        let weights = Weights::of(2);
        let before = error(
            &samples,
            &Evaluator::new(Shape::CHESS, &weights),
            fit_scale(&samples, &Evaluator::new(Shape::CHESS, &weights)),
        );
        let mut passes = 0;
        let picked = |n: &str| n.starts_with("value.") || n == "tempo";
        let fit = tune(&samples, Shape::CHESS, weights, picked, 10, 2, |p, _, _| passes = p);
        assert!(fit.error <= before);
        assert_eq!(passes, fit.passes);
        // Only the picked parameters may have moved.
        let (mut was, mut now) = (weights, fit.weights);
        for ((name, a), (_, b)) in was.named(Shape::CHESS).into_iter().zip(now.named(Shape::CHESS)) {
            assert!(a == b || picked(&name), "{name} moved: {a} -> {b}");
        }
    }

    /// A game's samples: none past its end, none in check, both sides to move when every ply is
    /// sampled, and White alone with an even skip and step (the tempo caveat of the `tune` example).
    #[test]
    fn a_games_samples() {
        use crate::playout::{Playout, Policy};
        let start = tesseract_board::start::chess();
        let (game, _) = Playout::new(Policy::Nodes(60), Policy::Nodes(60)).with_max_plies(80).play_game(&start, 3);
        let every_ply = samples_of_game(&game, 0.5, 0, 1);
        assert!(!every_ply.is_empty() && every_ply.len() <= game.moves().len());
        assert!(every_ply.iter().all(|s| !s.position.is_check() && s.result == 0.5));
        assert!(every_ply.iter().any(|s| s.position.turn() == Color::Black));
        let even = samples_of_game(&game, 0.5, 8, 2);
        assert!(!even.is_empty() && even.iter().all(|s| s.position.turn() == Color::White));
        assert!(samples_of_game(&game, 0.5, game.moves().len(), 1).is_empty());
    }

    /// Results made by a known piece-square correction: the fit from none finds it again, and the rounded
    /// fit's error is the one reported.
    #[test]
    fn the_square_fit_recovers_the_correction_that_made_the_results() {
        use crate::eval::{SQUARE_SLOTS, square_slot};
        use crate::playout::{Playout, Policy};
        let start = tesseract_board::start::chess();
        // The engine's weights without their corrections, then one.
        let none = Weights { square: [[(0, 0); SQUARE_SLOTS]; 9], ..Weights::of(2) };
        let mut truth = none;
        let knight = (Role::Knight.index(), square_slot(5, 2)); // f3 (and c3)
        truth.square[knight.0][knight.1] = (60, 20);
        let evaluator = Evaluator::new(Shape::CHESS, &truth);
        let mut playout = Playout::new(Policy::Random, Policy::Random).with_max_plies(300);
        let mut samples = Vec::new();
        for seed in 0..200 {
            let (game, _) = playout.play_game(&start, seed);
            for s in samples_of_game(&game, 0.5, 0, 1) {
                let result = expected(evaluator.evaluate_white(&s.position), 1.0);
                samples.push(Sample { result, ..s });
            }
        }
        assert!(samples.len() > 5_000, "{}", samples.len());
        let fit = fit_squares(&samples, none, 1.0, 1e-9, 200, |_, _| {});
        let (mg, eg) = fit.weights.square[knight.0][knight.1];
        assert!((mg - 60).abs() <= 6 && (eg - 20).abs() <= 6, "{:?}", (mg, eg));
        assert!(fit.error < fit.error_before / 4.0, "{} -> {}", fit.error_before, fit.error);
        // The rest stays near nothing; only the corrections moved.
        let largest =
            fit.weights.square.iter().flatten().enumerate().filter(|&(i, _)| i != knight.0 * SQUARE_SLOTS + knight.1);
        assert!(largest.clone().all(|(_, &(m, e))| m.abs() <= 6 && e.abs() <= 6), "{:?}", largest.collect::<Vec<_>>());
        assert_eq!(Weights { square: none.square, ..fit.weights }, none);
    }

    #[test]
    fn samples_leave_out_checks_and_pawnless_sides() {
        assert!(Sample::of(&Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1").unwrap(), 1.0).is_some());
        assert!(Sample::of(&Position::from_fen("4k3/8/8/8/8/8/PPPP4/R3K3 w - - 0 1").unwrap(), 1.0).is_none());
        assert!(Sample::of(&Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/4K2r w - - 0 1").unwrap(), 0.0).is_none());
    }

    #[test]
    fn the_parameters_are_named_once_and_only_where_they_count() {
        // 8×8: 4 values, 6 roles' centrality, 4 mobilities, advances 1 to 5, 4 attacks, shelter, tempo,
        // passed-pawn steps 0 to 5, 2 king distances, the unstoppable pawn, the protected, doubled and
        // isolated pawn, the rook's semi-open and open line, the bishop pair, 4 roles' threats by a pawn and
        // by a piece, 4 roles' unsafe mobility, the blocked passed pawn, the two shield rows and the king's
        // open files, the phalanx, the backward pawn, 3 storm rows, 2 outposts and the trapped piece, pairs
        // counted twice. 5⁴: 6 values, 9 centralities, 6 mobilities, advances 1 and 2, 6
        // attacks, shelter, tempo, passed-pawn steps 0 to 2, 2 king distances, the unstoppable pawn, the
        // same 6 pairs of pawn structure, rook lines and bishops, 6 roles' two threats and unsafe
        // mobility, the blocked passed pawn (no shield, open files or the terms after them: two axes only). 5¹ (king, queen,
        // rook and knight, no pawns): 3 values, 4 centralities, 3 mobilities, 3 attacks, shelter, tempo, 3
        // roles' threats by a piece.
        let line = Shape::new(1, 5).unwrap();
        let counts = [
            // With the piece-square corrections on 8×8: 5 roles' 32 squares and the pawn's 24, twice.
            (Shape::CHESS, 4 + 12 + 8 + 10 + 4 + 2 + 12 + 2 + 1 + 12 + 16 + 8 + 2 + 3 + 13 + 2 * (5 * 32 + 24)),
            (Shape::TESSERACT, 6 + 18 + 12 + 4 + 6 + 2 + 6 + 2 + 1 + 12 + 24 + 12 + 2),
            (line, 3 + 8 + 6 + 3 + 2 + 6),
        ];
        for (shape, count) in counts {
            let dims = shape.geometry().dims();
            let mut w = Weights::of(dims);
            let names: Vec<String> = w.named(shape).into_iter().map(|(n, _)| n).collect();
            assert_eq!(names.len(), count, "{names:?}");
            let mut unique = names.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), names.len());
            assert!(!names.iter().any(|n| n == "value.King" || n.starts_with("value.YPawn")));
            assert_eq!(names.iter().any(|n| n.starts_with("passed")), dims >= 2);
            assert_eq!(names.iter().any(|n| n.starts_with("advance")), dims >= 2);
            assert_eq!(names.iter().any(|n| n.starts_with("isolated")), dims >= 2);
            assert_eq!(names.iter().any(|n| n.contains("Unicorn")), dims == 4);
            assert_eq!(names.iter().any(|n| n.starts_with("threat_pawn.")), dims >= 2);
            assert!(names.iter().any(|n| n == "threat_piece.Queen.mg"));
            assert_eq!(names.iter().any(|n| n.starts_with("mobility_unsafe.")), dims >= 2);
            assert_eq!(names.iter().any(|n| n.starts_with("shield.")), dims == 2);
            assert_eq!(names.iter().any(|n| n.starts_with("outpost.Knight.")), dims == 2);
        }
    }
}
