//! The parallel perft (feature `parallel`, on by default): first moves shared out by rayon, with a
//! lock-free transposition table shared by every thread for deep counts.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;
use tesseract_board::{Move, Position};

use crate::fast::{MoveList, legal_moves, legal_moves_into};
use crate::perft::{Never, Stop, perft, perft_until};

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

fn perft_hashed<S: Stop>(pos: &mut Position, depth: u32, table: &PerftTable, stop: &S) -> u64 {
    if depth <= 1 {
        return perft(pos, depth);
    }
    perft_hashed_interior(pos, depth, table, stop)
}

/// [`perft_hashed`] at depth 2 and more, apart so that the calls of depth 1 do not set up the move list's
/// 60 KB frame (whose pages the stack probe touches at every call). A count cut short by `stop` is not
/// stored: the table stays exact for later counts.
#[inline(never)]
fn perft_hashed_interior<S: Stop>(pos: &mut Position, depth: u32, table: &PerftTable, stop: &S) -> u64 {
    if stop.stopped() {
        return 0;
    }
    let key = PerftTable::key(pos.hash(), depth);
    if let Some(n) = table.probe(key) {
        return n;
    }
    let mut nodes = 0;
    let mut moves = MoveList::new();
    legal_moves_into(pos, &mut moves);
    for &m in &moves {
        let undo = pos.make(m);
        nodes += perft_hashed(pos, depth - 1, table, stop);
        pos.unmake(m, undo);
    }
    // A stop is never lowered during a count: raised now if any count below was cut short.
    if stop.stopped() {
        return 0;
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
        0 => divide_on_every_core(pos, depth, None, &Never),
        mb => divide_with_table(pos, depth, &PerftTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))),
    }
}

/// [`divide`](crate::divide) on every core, the threads sharing `table` (which may be reused for further counts: its
/// entries stay valid across positions).
pub fn divide_with_table(pos: &Position, depth: u32, table: &PerftTable) -> Vec<(Move, u64)> {
    divide_on_every_core(pos, depth, Some(table), &Never)
}

/// [`divide_parallel`] with an optional shared table (see [`divide_with_table`]) that gives up when `stop`
/// is raised, as [`divide_with_stop`](crate::divide_with_stop) does: `None` then, and no count cut short
/// is stored in the table. The flag is only read.
///
/// # Examples
/// ```
/// use std::sync::atomic::AtomicBool;
/// use tesseract_board::start;
/// use tesseract_movegen::divide_parallel_with_stop;
/// let counts = divide_parallel_with_stop(&start::chess(), 3, None, &AtomicBool::new(false)).unwrap();
/// assert_eq!(counts.iter().map(|&(_, n)| n).sum::<u64>(), 8_902);
/// assert_eq!(divide_parallel_with_stop(&start::chess(), 3, None, &AtomicBool::new(true)), None);
/// ```
pub fn divide_parallel_with_stop(
    pos: &Position,
    depth: u32,
    table: Option<&PerftTable>,
    stop: &AtomicBool,
) -> Option<Vec<(Move, u64)>> {
    let counts = divide_on_every_core(pos, depth, table, stop);
    (!stop.stopped()).then_some(counts)
}

fn divide_on_every_core<S: Stop>(pos: &Position, depth: u32, table: Option<&PerftTable>, stop: &S) -> Vec<(Move, u64)> {
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
                Some(t) => perft_hashed(&mut child, depth - 1, t, stop),
                None => perft_until(&mut child, depth - 1, stop),
            };
            (m, n)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};

    use tesseract_board::{Position, start};

    use super::{PerftTable, divide_parallel_with_stop, divide_with_table};
    use crate::divide_with_stop;

    const KIWIPETE: &str = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";

    /// Raises `stop` after `delay` while `count` runs on this thread; returns its answer and how long it
    /// took to give up after the flag was raised.
    fn stopped_after<T: Send>(delay: Duration, stop: &AtomicBool, count: impl FnOnce() -> T + Send) -> (T, Duration) {
        std::thread::scope(|s| {
            let raiser = s.spawn(|| {
                std::thread::sleep(delay);
                stop.store(true, Ordering::Relaxed);
                Instant::now()
            });
            let answer = count();
            let end = Instant::now();
            let raised = raiser.join().expect("the raiser");
            (answer, end.saturating_duration_since(raised))
        })
    }

    /// A stop raised during a count ends it within a second (at once, in fact) with `None`, and a table
    /// shared with the stopped count still gives the exact figure: nothing cut short was stored.
    #[test]
    fn a_stopped_count_gives_up_and_leaves_the_table_exact() {
        // The chess start's perft(5) takes about half a second in a debug build (perft(6) in a release
        // build): stopped well before its end, then counted again with the same table, which it probes at
        // the same keys.
        let (depth, figure) = if cfg!(debug_assertions) { (5, 4_865_609) } else { (6, 119_060_324) };
        let start = start::chess();
        let table = PerftTable::try_new(16).unwrap();
        let stop = AtomicBool::new(false);
        let (answer, late) = stopped_after(Duration::from_millis(40), &stop, || {
            divide_parallel_with_stop(&start, depth, Some(&table), &stop)
        });
        assert_eq!(answer, None);
        assert!(late < Duration::from_secs(1), "{late:?} after the stop");
        let again = divide_parallel_with_stop(&start, depth, Some(&table), &AtomicBool::new(false)).unwrap();
        assert_eq!(again.iter().map(|&(_, n)| n).sum::<u64>(), figure);
        // Kiwipete perft(5) takes minutes in a debug build on one thread, without a table.
        let pos = Position::from_fen(KIWIPETE).unwrap();
        let stop = AtomicBool::new(false);
        let mut single = pos.clone();
        let (answer, late) =
            stopped_after(Duration::from_millis(100), &stop, || divide_with_stop(&mut single, 5, &stop));
        assert_eq!(answer, None);
        assert!(late < Duration::from_secs(1), "{late:?} after the stop");
        assert_eq!(single, pos, "the position is restored");
    }

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
