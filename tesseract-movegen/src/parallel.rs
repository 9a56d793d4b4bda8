//! The parallel perft (feature `parallel`, on by default): first moves shared out by rayon, with a
//! lock-free transposition table shared by every thread for deep counts.

use std::sync::atomic::{AtomicU64, Ordering};

use rayon::prelude::*;
use tesseract_board::{Move, Position};

use crate::fast::{MoveList, legal_moves, legal_moves_into};
use crate::perft::perft;

/// The shared table of the parallel perft: lock-free, each entry (key XOR count, count), so a torn write
/// never yields a false hit. Build one with [`PerftTable::try_new`] and count with [`divide_with_table`].
pub struct PerftTable {
    entries: Vec<[AtomicU64; 2]>,
    mask: usize,
}

/// A perft table that cannot be had.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum PerftTableError {
    /// The memory could not be allocated (or the size does not fit this machine's address space).
    #[error("cannot allocate a perft table of {megabytes} MB")]
    Alloc {
        /// The size asked for.
        megabytes: usize,
    },
}

impl PerftTable {
    /// A table of at most `megabytes` megabytes (at least one entry; the largest power of two of 16-byte
    /// entries that fits).
    ///
    /// # Errors
    /// [`PerftTableError::Alloc`] when the memory cannot be had, instead of aborting the process.
    pub fn try_new(megabytes: usize) -> Result<PerftTable, PerftTableError> {
        let err = PerftTableError::Alloc { megabytes };
        let bytes = megabytes.max(1).checked_mul(1 << 20).ok_or(err.clone())?;
        let want = bytes / 16;
        let len = if want.is_power_of_two() { want } else { want.next_power_of_two() / 2 };
        let mut entries = Vec::new();
        entries.try_reserve_exact(len).map_err(|_| err)?;
        entries.extend((0..len).map(|_| [AtomicU64::new(0), AtomicU64::new(0)]));
        Ok(PerftTable { entries, mask: len - 1 })
    }

    fn key(hash: u64, depth: u32) -> u64 {
        hash ^ (depth as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn probe(&self, key: u64) -> Option<u64> {
        let e = &self.entries[key as usize & self.mask];
        let check = e[0].load(Ordering::Relaxed);
        let count = e[1].load(Ordering::Relaxed);
        (check ^ count == key && count != 0).then_some(count)
    }

    fn store(&self, key: u64, count: u64) {
        let e = &self.entries[key as usize & self.mask];
        e[0].store(key ^ count, Ordering::Relaxed);
        e[1].store(count, Ordering::Relaxed);
    }
}

fn perft_hashed(pos: &mut Position, depth: u32, table: &PerftTable) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    perft_hashed_interior(pos, depth, table)
}

/// [`perft_hashed`] at depth 2 and more, apart so that the calls of depth 1 do not set up the move list's
/// 60 KB frame (whose pages the stack probe touches at every call).
#[inline(never)]
fn perft_hashed_interior(pos: &mut Position, depth: u32, table: &PerftTable) -> u64 {
    let key = PerftTable::key(pos.hash(), depth);
    if let Some(n) = table.probe(key) {
        return n;
    }
    let mut nodes = 0;
    let mut moves = MoveList::new();
    legal_moves_into(pos, &mut moves);
    for &m in &moves {
        let undo = pos.make(m);
        nodes += perft_hashed(pos, depth - 1, table);
        pos.unmake(m, undo);
    }
    table.store(key, nodes);
    nodes
}

/// Perft on every core, first moves shared out by rayon, with a transposition table of `hash_mb`
/// megabytes shared by all threads (0 for none).
///
/// # Panics
/// As [`divide_parallel`].
///
/// The table keys are 64-bit Zobrist hashes mixed with the depth: a collision between two different
/// positions is possible in principle (about one in 2⁶⁴ per probe), so deep figures are confirmed with the
/// table off or by the naive generator where that is feasible.
pub fn perft_parallel(pos: &Position, depth: u32, hash_mb: usize) -> u64 {
    divide_parallel(pos, depth, hash_mb).iter().map(|&(_, n)| n).sum()
}

/// [`divide`](crate::divide) on every core, with the shared table of [`perft_parallel`].
///
/// # Panics
/// When a table of `hash_mb` megabytes cannot be allocated; use [`PerftTable::try_new`] and
/// [`divide_with_table`] to get an error instead.
pub fn divide_parallel(pos: &Position, depth: u32, hash_mb: usize) -> Vec<(Move, u64)> {
    match hash_mb {
        0 => divide_on_every_core(pos, depth, None),
        mb => divide_with_table(pos, depth, &PerftTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))),
    }
}

/// [`divide`](crate::divide) on every core, the threads sharing `table` (which may be reused for further counts: its
/// entries stay valid across positions).
pub fn divide_with_table(pos: &Position, depth: u32, table: &PerftTable) -> Vec<(Move, u64)> {
    divide_on_every_core(pos, depth, Some(table))
}

fn divide_on_every_core(pos: &Position, depth: u32, table: Option<&PerftTable>) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves: Vec<Move> = legal_moves(pos).to_vec();
    moves
        .par_iter()
        .map(|&m| {
            let mut child = pos.clone();
            let _ = child.make(m);
            let n = match table {
                Some(t) => perft_hashed(&mut child, depth - 1, t),
                None => perft(&mut child, depth - 1),
            };
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use tesseract_board::{Position, start};

    use super::{PerftTable, divide_with_table};

    /// The hashed parallel perft gives the published figures, the table shared across positions.
    #[test]
    fn the_hashed_perft_gives_the_published_figures() {
        let table = PerftTable::try_new(4).unwrap();
        let kiwipete =
            Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        for (pos, depth, figure) in [
            (start::chess(), 4, 197_281),
            (kiwipete, 3, 97_862),
            (start::tesseract(start::Army::Standard), 2, start::Army::Standard.perft()[1]),
        ] {
            let total: u64 = divide_with_table(&pos, depth, &table).iter().map(|&(_, n)| n).sum();
            assert_eq!(total, figure, "{}", pos.fen());
        }
    }
}
