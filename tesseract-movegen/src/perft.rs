//! Perft (the number of leaf nodes of the legal move tree to a depth) and divide, on one thread. The
//! parallel perft with its shared table is in `parallel.rs` (feature `parallel`).

use tesseract_board::{Move, Position};

use crate::fast::{MoveList, count, legal_moves, legal_moves_into};

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
        _ => perft_interior(pos, depth),
    }
}

/// Perft at depth 2 and more. Apart from [`perft`] so that the last ply's calls do not set up the
/// move list's frame (60 KB, whose pages the stack probe touches at every call: a fifth of the 8×8 perft's
/// time when the last ply went through here).
#[inline(never)]
fn perft_interior(pos: &mut Position, depth: u32) -> u64 {
    let mut moves = MoveList::new();
    legal_moves_into(pos, &mut moves);
    let mut nodes = 0;
    for &m in &moves {
        let undo = pos.make(m);
        nodes += if depth == 2 { count(pos) as u64 } else { perft_interior(pos, depth - 1) };
        pos.unmake(m, undo);
    }
    nodes
}

/// Perft split by first move: each legal move with the leaves below it, in generation order.
pub fn divide(pos: &mut Position, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    legal_moves(pos)
        .iter()
        .map(|&m| {
            let undo = pos.make(m);
            let n = perft(pos, depth - 1);
            pos.unmake(m, undo);
            (m, n)
        })
        .collect()
}
