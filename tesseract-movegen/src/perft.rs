//! Perft (the number of leaf nodes of the legal move tree to a depth) and divide, on one thread. The
//! parallel perft with its shared table is in `parallel.rs` (feature `parallel`).

use std::sync::atomic::{AtomicBool, Ordering};

use tesseract_board::{Move, Position};

use crate::fast::{MoveList, count, legal_moves, legal_moves_into};

/// What a count polls, at every node two plies or more above the leaves, to know whether to give up.
pub(crate) trait Stop: Sync {
    /// Whether the count should stop now.
    fn stopped(&self) -> bool;
}

/// The counts that never stop: [`perft`], [`divide`], the parallel perft (the check compiles away).
pub(crate) struct Never;

impl Stop for Never {
    #[inline(always)]
    fn stopped(&self) -> bool {
        false
    }
}

impl Stop for AtomicBool {
    #[inline]
    fn stopped(&self) -> bool {
        self.load(Ordering::Relaxed)
    }
}

/// The number of leaves of the legal move tree of `pos` at `depth` plies. The last ply is counted
/// without being played.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// let mut pos = start::chess();
/// assert_eq!(tesseract_movegen::perft(&mut pos, 3), 8_902);
/// ```
pub fn perft(pos: &mut Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => count(pos) as u64,
        _ => perft_interior(pos, depth, &Never),
    }
}

/// Perft at depth 2 and more. Apart from [`perft`] so that the last ply's calls do not set up the
/// move list's frame (60 KB, whose pages the stack probe touches at every call: a fifth of the 8×8 perft's
/// time when the last ply went through here). Once `stop` says so it returns at once, with a count that
/// is too small: the caller that asked for a stop throws it away.
#[inline(never)]
fn perft_interior<S: Stop>(pos: &mut Position, depth: u32, stop: &S) -> u64 {
    if stop.stopped() {
        return 0;
    }
    let mut moves = MoveList::new();
    legal_moves_into(pos, &mut moves);
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make(m);
        nodes += if depth == 2 { count(pos) as u64 } else { perft_interior(pos, depth - 1, stop) };
        pos.unmake(m, undo);
    }
    nodes
}

/// [`perft`] polling `stop`.
pub(crate) fn perft_until<S: Stop>(pos: &mut Position, depth: u32, stop: &S) -> u64 {
    match depth {
        0 | 1 => perft(pos, depth),
        _ => perft_interior(pos, depth, stop),
    }
}

/// Perft split by first move: each legal move with the leaves below it, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    divide_until(pos, depth, &Never)
}

/// [`divide`] that gives up when `stop` is raised (by another thread: a user's interrupt, a deadline),
/// polled at every node two plies or more above the leaves, so it stops within a few milliseconds of
/// counting; `None` then. The flag is only read.
///
/// # Examples
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tesseract_board::start;
/// use tesseract_movegen::divide_with_stop;
/// let mut pos = start::chess();
/// let counts = divide_with_stop(&mut pos, 3, &AtomicBool::new(false)).unwrap();
/// assert_eq!(counts.iter().map(|&(_, n)| n).sum::<u64>(), 8_902);
/// assert_eq!(divide_with_stop(&mut pos, 3, &AtomicBool::new(true)), None);
/// ```
pub fn divide_with_stop(pos: &mut Position, depth: u32, stop: &AtomicBool) -> Option<Vec<(Move, u64)>> {
    let counts = divide_until(pos, depth, stop);
    (!stop.stopped()).then_some(counts)
}

fn divide_until<S: Stop>(pos: &mut Position, depth: u32, stop: &S) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    legal_moves(pos)
        .iter()
        .map(|&m| {
            let undo = pos.make(m);
            let n = perft_until(pos, depth - 1, stop);
            pos.unmake(m, undo);
            (m, n)
        })
        .collect()
}
