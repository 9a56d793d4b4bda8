//! The transposition table.
//!
//! **Layout.** Buckets of four 16-byte entries, 64 bytes each (not aligned to cache lines: a bucket
//! aligned to 64 bytes measured no faster in a 2D search). A position's bucket is the
//! high half of the 128-bit product of its Zobrist hash and the bucket count (so any size in megabytes
//! works, not only powers of two); its low 32 bits are kept in the entry to tell positions of one bucket
//! apart. An entry holds the best move (packed in 32 bits), the score (mate scores relative to the node),
//! the static evaluation, the draft, the bound (exact, lower, upper) and the search generation.
//!
//! **Replacement scheme.** A store overwrites the entry of the same position if the bucket has one (keeping
//! its move when the new result has none), unless that entry is from the same search and more than two
//! plies deeper and the new result is not exact; otherwise it takes the bucket's least valuable entry: an empty
//! one, else the one with the smallest `draft − 8 · age`, where age is how many searches ago it was
//! written. Deep results survive, and stale ones make room. (Depth-preferred with aging.)
//!
//! Only the table's size in megabytes and the positions searched decide what it holds, never the machine
//! (no pointer-sized arithmetic in the indexing), so node counts are the same everywhere.

use tesseract_board::{Cell, Move, Role};

/// What a stored score says about the true score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true score is at most the stored one (no move reached alpha).
    Upper = 1,
    /// The true score is at least the stored one (a move reached beta).
    Lower = 2,
    /// The stored score is exact.
    Exact = 3,
}

impl Bound {
    /// What a search's result `best` says, given the window it searched (`original_alpha`, `beta`) and
    /// the alpha it raised to: a cutoff is a lower bound, a raised alpha an exact score, else an upper bound.
    #[inline]
    pub(crate) fn of(best: i32, original_alpha: i32, alpha: i32, beta: i32) -> Bound {
        if best >= beta {
            Bound::Lower
        } else if alpha > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        }
    }
}

#[derive(Copy, Clone, Debug, Default)]
#[repr(C)]
struct Slot {
    key: u32,
    mv: u32,
    score: i16,
    eval: i16,
    depth: u8,
    /// Bound in the low 2 bits (0: empty), generation in the high 6.
    flags: u8,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16);
const BUCKET: usize = 4;

/// One entry read from the table.
#[derive(Copy, Clone, Debug)]
pub(crate) struct Entry {
    pub mv: Option<Move>,
    pub score: i32,
    pub eval: i32,
    pub depth: i32,
    pub bound: Bound,
}

/// A transposition table of a fixed size in megabytes; see the [module](self) docs.
#[derive(Debug)]
pub struct TranspositionTable {
    buckets: Vec<[Slot; BUCKET]>,
    generation: u8,
}

/// The memory for a table of this size could not be had.
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot allocate a transposition table of {megabytes} MB")]
pub struct TableAllocError {
    /// The size asked for.
    pub megabytes: usize,
}

impl TranspositionTable {
    /// A table of `mb` megabytes (2²⁰ bytes), at least one bucket.
    ///
    /// # Panics
    /// If the memory cannot be allocated; [`TranspositionTable::try_new`] reports it instead.
    pub fn new(mb: usize) -> TranspositionTable {
        TranspositionTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of `mb` megabytes, or an error if the allocator refuses the memory (a size taken from
    /// a user should go through here, after a check against the workspace's one cap on table sizes,
    /// [`tesseract_movegen::MAX_TABLE_MB`], as every front end does).
    ///
    /// # Errors
    /// [`TableAllocError`] when the memory cannot be allocated, or `mb` megabytes overflow `usize`.
    pub fn try_new(mb: usize) -> Result<TranspositionTable, TableAllocError> {
        let error = TableAllocError { megabytes: mb };
        let bytes = mb.max(1).checked_mul(1 << 20).ok_or(error)?;
        let count = (bytes / std::mem::size_of::<[Slot; BUCKET]>()).max(1);
        let mut buckets = Vec::new();
        buckets.try_reserve_exact(count).map_err(|_| error)?;
        buckets.resize(count, [Slot::default(); BUCKET]);
        Ok(TranspositionTable { buckets, generation: 0 })
    }

    /// The size in megabytes.
    pub fn megabytes(&self) -> usize {
        (self.buckets.len() * std::mem::size_of::<[Slot; BUCKET]>()) >> 20
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.buckets.fill([Slot::default(); BUCKET]);
        self.generation = 0;
    }

    /// Starts a new search: older entries age.
    pub fn new_search(&mut self) {
        self.generation = (self.generation + 1) & 63;
    }

    /// How full the table is, in permille, from a sample of its first thousand buckets.
    pub fn hashfull(&self) -> u32 {
        let sample = self.buckets.len().min(1000);
        let used: usize = self.buckets[..sample].iter().map(|b| b.iter().filter(|s| s.flags & 3 != 0).count()).sum();
        (used * 1000 / (sample * BUCKET)) as u32
    }

    #[inline]
    fn index(&self, hash: u64) -> usize {
        ((hash as u128 * self.buckets.len() as u128) >> 64) as usize
    }

    /// Prefetch-free probe: the entry for `hash`, if stored.
    #[inline]
    pub(crate) fn probe(&self, hash: u64) -> Option<Entry> {
        let key = hash as u32;
        let bucket = &self.buckets[self.index(hash)];
        let slot = bucket.iter().find(|s| s.key == key && s.flags & 3 != 0)?;
        let bound = match slot.flags & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        Some(Entry {
            mv: unpack(slot.mv),
            score: slot.score as i32,
            eval: slot.eval as i32,
            depth: slot.depth as i32,
            bound,
        })
    }

    /// Stores a result (see the replacement scheme in the [module](self) docs).
    #[inline]
    pub(crate) fn store(&mut self, hash: u64, mv: Option<Move>, score: i32, eval: i32, depth: i32, bound: Bound) {
        let key = hash as u32;
        let generation = self.generation;
        let index = self.index(hash);
        let bucket = &mut self.buckets[index];
        let i = match bucket.iter().position(|s| s.key == key && s.flags & 3 != 0) {
            // A shallower result of this search does not overwrite a deeper one (a quiescence store
            // would otherwise replace the entry of a full search), unless it is exact.
            Some(i) => {
                let s = &bucket[i];
                if bound != Bound::Exact && s.flags >> 2 == generation && depth + 2 < s.depth as i32 {
                    return;
                }
                i
            }
            None => {
                let worth = |s: &Slot| {
                    if s.flags & 3 == 0 {
                        return i32::MIN;
                    }
                    let age = (generation.wrapping_sub(s.flags >> 2) & 63) as i32;
                    s.depth as i32 - 8 * age
                };
                (0..BUCKET).min_by_key(|&i| worth(&bucket[i])).expect("a bucket has slots")
            }
        };
        let slot = &mut bucket[i];
        let packed = mv.map_or(0, pack);
        let keep_move = packed == 0 && slot.key == key;
        *slot = Slot {
            key,
            mv: if keep_move { slot.mv } else { packed },
            score: score.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            eval: eval.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            depth: depth.clamp(0, 255) as u8,
            flags: (generation << 2) | bound as u8,
        };
    }
}

/// Packs a move in 32 bits: 13 bits per cell (boards up to 9⁴ = 6,561 cells), 4 for the promotion. Never
/// 0, since a move's two cells differ.
#[inline]
pub(crate) fn pack(m: Move) -> u32 {
    m.from.index() as u32 | (m.to.index() as u32) << 13 | m.promotion.map_or(0, |r| r.index() as u32 + 1) << 26
}

#[inline]
pub(crate) fn unpack(v: u32) -> Option<Move> {
    if v == 0 {
        return None;
    }
    let promotion = match v >> 26 {
        0 => None,
        r => Some(Role::ALL[(r - 1) as usize]),
    };
    Some(Move::with_promotion(Cell::new((v & 0x1fff) as u16), Cell::new((v >> 13 & 0x1fff) as u16), promotion))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_too_large_is_an_error() {
        assert_eq!(TranspositionTable::try_new(usize::MAX).unwrap_err(), TableAllocError { megabytes: usize::MAX });
        assert_eq!(TranspositionTable::try_new(3).unwrap().megabytes(), 3);
    }

    #[test]
    fn pack_round_trip() {
        let m = Move::with_promotion(Cell::new(624), Cell::new(6560), Some(Role::Dragon));
        assert_eq!(unpack(pack(m)), Some(m));
        let m = Move::new(Cell::new(0), Cell::new(1));
        assert_eq!(unpack(pack(m)), Some(m));
    }

    #[test]
    fn store_and_replace() {
        let mut tt = TranspositionTable::new(1);
        assert_eq!(tt.megabytes(), 1);
        let m = Move::new(Cell::new(3), Cell::new(4));
        tt.store(42, Some(m), 17, 5, 6, Bound::Exact);
        let e = tt.probe(42).unwrap();
        assert_eq!((e.mv, e.score, e.eval, e.depth, e.bound), (Some(m), 17, 5, 6, Bound::Exact));
        // A result without a move keeps the stored move.
        tt.store(42, None, -3, 5, 5, Bound::Upper);
        assert_eq!(tt.probe(42).unwrap().mv, Some(m));
        assert_eq!(tt.probe(42).unwrap().score, -3);
        // In the same search, a bound more than two plies shallower leaves a deeper entry alone; an exact
        // result replaces it; so does anything after a new search starts.
        tt.store(42, Some(m), 40, 5, 8, Bound::Lower);
        tt.store(42, None, -60, 5, 0, Bound::Upper);
        assert_eq!((tt.probe(42).unwrap().score, tt.probe(42).unwrap().depth), (40, 8));
        tt.store(42, None, 12, 5, 1, Bound::Exact);
        assert_eq!((tt.probe(42).unwrap().score, tt.probe(42).unwrap().depth), (12, 1));
        tt.store(42, None, 40, 5, 8, Bound::Lower);
        tt.new_search();
        tt.store(42, None, -60, 5, 0, Bound::Upper);
        assert_eq!((tt.probe(42).unwrap().score, tt.probe(42).unwrap().depth), (-60, 0));
        // Five positions in one bucket: the shallowest goes.
        let mut tt = TranspositionTable::new(1);
        for (i, depth) in [9, 3, 7, 8, 5].into_iter().enumerate() {
            tt.store(i as u64 + 1, None, 0, 0, depth, Bound::Lower);
        }
        assert!(tt.probe(2).is_none());
        assert!([1, 3, 4, 5].iter().all(|&h| tt.probe(h).is_some()));
        tt.clear();
        assert!(tt.probe(1).is_none());
    }
}
