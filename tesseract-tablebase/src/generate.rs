//! Retrograde analysis: every position of a table solved, by distance to mate.
//!
//! # The method
//!
//! Values are plies to mate from the side to move's point of view: 0 is "checkmated", an odd number is a
//! win, an even one a loss. The solver finds them in order of distance, one pass over the table per ply:
//!
//! 1. **Initialisation.** Every index is checked: two pieces on one cell, a placement that is not the
//!    canonical one of its orbit, or the side *not* to move in check make it "not a position". For the
//!    others the legal moves are generated: none is mate (loss in 0) or stalemate (draw). Captures leave
//!    the table for a smaller one (solved first): the best capture is noted as a pending win (the shortest
//!    capture into a lost position), and a position whose every move is a capture into a won position as
//!    a pending loss.
//! 2. **Pass L** (L = 1, 2, …) reads every position decided at ply L−1 and walks its *predecessors* (the
//!    positions one move earlier: a piece of the side that just moved taken back along its own move
//!    pattern, onto an empty cell; pawnless moves are reversible, and uncaptures are not needed since a
//!    capture leaves the table). If the position is lost in L−1, each undecided predecessor is won in L.
//!    If it is won in L−1, each undecided predecessor is checked move by move: when every move leads to a
//!    position the opponent wins, it is lost in one more than the longest of those wins (now, or pending
//!    if a capture makes it longer). Pending values whose ply is L are settled in the same pass.
//! 3. When a pass settles nothing and nothing is pending, every undecided position is a draw.
//!
//! Every value settled at ply L is final: all wins of fewer plies were settled by earlier passes (a win
//! in L needs a loss in L−1, all of which pass L−1 found), so no shorter mate can turn up later. The
//! result does not depend on the order in which threads visit positions, so two runs give the same
//! table, byte for byte.
//!
//! The 50- and 75-move rules and repetition are ignored, as in every DTM table: a value is the distance
//! to mate with best play on both sides when nobody claims a draw.

use std::sync::atomic::{AtomicBool, AtomicU8, AtomicU32, AtomicU64, Ordering};

use tesseract_board::{Color, Role};

use crate::layout::Layout;
use crate::space::Sq;
use crate::table::{Tablebase, entry};

/// What the generator reports while it works, to draw a progress bar.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Progress {
    /// 0 while positions are set up, then the ply being settled.
    pub pass: u32,
    /// Indices visited in this pass.
    pub done: u64,
    /// Indices in the table (both sides to move).
    pub total: u64,
}

/// How many threads a generation uses, and what it reports.
#[derive(Clone, Debug)]
pub struct GenerateOptions {
    /// Worker threads (at least 1). Default: the number of cores.
    pub threads: usize,
}

impl Default for GenerateOptions {
    fn default() -> GenerateOptions {
        GenerateOptions { threads: std::thread::available_parallelism().map_or(1, |n| n.get()) }
    }
}

/// A position while it is not settled.
const UNKNOWN: u8 = 0;
/// A stalemate: a draw that no pass may change (it has no moves, so it is nobody's predecessor; the mark
/// only makes that explicit). It is written as a draw in the finished table.
const STALEMATE: u8 = 254;

/// A capture out of this table: the smaller table it leads to and how its pieces line up.
struct Exit<'a> {
    table: &'a Tablebase,
    /// For each piece of the smaller table in its order, the index of that piece among ours.
    order: Vec<usize>,
    /// Whether the smaller table is stored with the colors swapped.
    swap: bool,
}

/// The solver's shared state.
struct Solver<'a> {
    layout: &'a Layout,
    /// Per side to move (White, Black): the value of each index.
    values: [Vec<AtomicU8>; 2],
    /// Per side to move: the pending value of each index (0 for none).
    pending: [Vec<AtomicU8>; 2],
    /// Per removed piece (index in table order), the table its capture leads to.
    exits: Vec<Option<Exit<'a>>>,
    /// The largest pending ply.
    last_pending: AtomicU32,
}

/// A successor of a position: a position of this table, or a capture into a smaller one.
enum Next {
    Here(u64),
    Out(u8),
}

impl<'a> Solver<'a> {
    fn color(&self, i: usize) -> Color {
        self.layout.pieces[i].0
    }

    fn role(&self, i: usize) -> Role {
        self.layout.pieces[i].1
    }

    /// Whether the king of `color` is attacked (by the pieces of the other color) on `cells`.
    fn in_check(&self, cells: &[Sq], color: Color) -> bool {
        let king = cells[color.index()];
        (0..cells.len())
            .any(|i| self.color(i) != color && self.layout.space.attacks(self.role(i), cells[i], king, cells))
    }

    /// Calls `f` with each legal move's result, the side `stm` to move on `cells` (a valid position),
    /// until `f` returns `false`. A move within the table is given by its index when `index_quiet`,
    /// else as `Next::Here(u64::MAX)` (saving the work of finding its index). Returns the number of legal
    /// moves seen.
    fn successors(&self, cells: &[Sq], stm: Color, index_quiet: bool, mut f: impl FnMut(Next) -> bool) -> usize {
        let k = cells.len();
        let space = &self.layout.space;
        let mut legal = 0;
        let mut stopped = false;
        for i in 0..k {
            if self.color(i) != stm {
                continue;
            }
            space.for_each_target(self.role(i), cells[i], cells, |to| {
                if stopped {
                    return;
                }
                let victim = (0..k).find(|&j| cells[j] == to);
                if victim.is_some_and(|j| self.color(j) == stm) {
                    return;
                }
                let mut after = [0 as Sq; 4];
                after[..k].copy_from_slice(cells);
                after[i] = to;
                match victim {
                    None => {
                        if !self.in_check(&after[..k], stm) {
                            legal += 1;
                            let index = if index_quiet { self.layout.canonical(&after[..k]) } else { u64::MAX };
                            stopped = !f(Next::Here(index));
                        }
                    }
                    Some(j) => {
                        // Remove the captured piece (a king is never capturable in a valid position).
                        let mut rest = [0 as Sq; 4];
                        let mut m = 0;
                        for (t, &c) in after[..k].iter().enumerate() {
                            if t != j {
                                rest[m] = c;
                                m += 1;
                            }
                        }
                        if self.in_check_without(&rest[..m], j, stm) {
                            return;
                        }
                        legal += 1;
                        let exit = self.exits[j].as_ref().expect("every capture has a smaller table");
                        let mut sub = [0 as Sq; 4];
                        for (t, &from) in exit.order.iter().enumerate() {
                            sub[t] = rest[from];
                        }
                        let side = if exit.swap { stm } else { stm.other() };
                        stopped = !f(Next::Out(exit.table.entry_at(&sub[..m], side)));
                    }
                }
            });
        }
        legal
    }

    /// [`Self::in_check`] on the placement without piece `removed` (its cells `rest` in table order).
    fn in_check_without(&self, rest: &[Sq], removed: usize, color: Color) -> bool {
        let king = rest[color.index()];
        (0..rest.len()).any(|t| {
            let i = if t >= removed { t + 1 } else { t };
            self.color(i) != color && self.layout.space.attacks(self.role(i), rest[t], king, rest)
        })
    }

    /// Calls `f` with the index of each position one move before `cells` (the side `stm` to move there,
    /// so the other side moved last). Some may not be positions (marked so in the table).
    fn predecessors(&self, cells: &[Sq], stm: Color, mut f: impl FnMut(u64)) {
        let k = cells.len();
        let mover = stm.other();
        for i in 0..k {
            if self.color(i) != mover {
                continue;
            }
            self.layout.space.for_each_target(self.role(i), cells[i], cells, |from| {
                if cells[..k].contains(&from) {
                    return;
                }
                let mut before = [0 as Sq; 4];
                before[..k].copy_from_slice(cells);
                before[i] = from;
                f(self.layout.canonical(&before[..k]));
            });
        }
    }

    /// The value and pending value of one index at the start.
    fn initial(&self, idx: u64, stm: Color) -> (u8, u8) {
        let k = self.layout.len();
        let mut buf = [0 as Sq; 4];
        self.layout.decode(idx, &mut buf);
        let cells = &buf[..k];
        if self.layout.overlaps(cells) || self.layout.canonical(cells) != idx || self.in_check(cells, stm.other()) {
            return (entry::NONE, 0);
        }
        let mut best_win: Option<u8> = None;
        let mut longest_loss = 0u8;
        let mut all_captures_lose = true;
        let legal = self.successors(cells, stm, false, |next| {
            match next {
                Next::Here(_) => all_captures_lose = false,
                Next::Out(v) => match entry::plies(v) {
                    Some(p) if p % 2 == 0 => best_win = Some(best_win.map_or(p + 1, |w| w.min(p + 1))),
                    Some(p) => longest_loss = longest_loss.max(p + 1),
                    None => all_captures_lose = false,
                },
            }
            true
        });
        if legal == 0 {
            return (if self.in_check(cells, stm) { entry::of_plies(0) } else { STALEMATE }, 0);
        }
        match best_win {
            Some(p) => (UNKNOWN, entry::of_plies(p)),
            None if all_captures_lose => (UNKNOWN, entry::of_plies(longest_loss)),
            None => (UNKNOWN, 0),
        }
    }

    /// If every move from `cells` leads to a position the opponent wins, the longest of those wins in plies.
    fn longest_if_all_lose(&self, cells: &[Sq], stm: Color) -> Option<u8> {
        let mut longest = 0u8;
        let mut all = true;
        let other = stm.other().index();
        let legal = self.successors(cells, stm, true, |next| {
            let v = match next {
                Next::Here(idx) => self.values[other][idx as usize].load(Ordering::Relaxed),
                Next::Out(v) => v,
            };
            match entry::plies(v) {
                Some(p) if p % 2 == 1 && v != STALEMATE => longest = longest.max(p),
                _ => all = false,
            }
            all
        });
        (all && legal > 0).then_some(longest)
    }

    /// One pass: settle ply `ply`. Returns whether anything was settled.
    fn pass_chunk(&self, stm: Color, range: std::ops::Range<u64>, ply: u8, settled: &AtomicBool) {
        let k = self.layout.len();
        let s = stm.index();
        let o = stm.other().index();
        let prev = entry::of_plies(ply - 1);
        let now = entry::of_plies(ply);
        let mut buf = [0 as Sq; 4];
        let mut any = false;
        for idx in range {
            let v = self.values[s][idx as usize].load(Ordering::Relaxed);
            if v == prev {
                self.layout.decode(idx, &mut buf);
                let cells = &buf[..k];
                self.predecessors(cells, stm, |before| {
                    let slot = &self.values[o][before as usize];
                    if slot.load(Ordering::Relaxed) != UNKNOWN {
                        return;
                    }
                    if ply % 2 == 1 {
                        // This position is lost: whoever can move into it wins.
                        any |= slot.compare_exchange(UNKNOWN, now, Ordering::Relaxed, Ordering::Relaxed).is_ok();
                    } else {
                        let mut b = [0 as Sq; 4];
                        self.layout.decode(before, &mut b);
                        if let Some(longest) = self.longest_if_all_lose(&b[..k], stm.other()) {
                            let p = longest + 1;
                            if p == ply {
                                any |=
                                    slot.compare_exchange(UNKNOWN, now, Ordering::Relaxed, Ordering::Relaxed).is_ok();
                            } else if p > ply {
                                self.pending[o][before as usize].store(entry::of_plies(p), Ordering::Relaxed);
                                self.last_pending.fetch_max(u32::from(p), Ordering::Relaxed);
                            }
                        }
                    }
                });
            } else if v == UNKNOWN && self.pending[s][idx as usize].load(Ordering::Relaxed) == now {
                any |= self.values[s][idx as usize]
                    .compare_exchange(UNKNOWN, now, Ordering::Relaxed, Ordering::Relaxed)
                    .is_ok();
            }
        }
        if any {
            settled.store(true, Ordering::Relaxed);
        }
    }
}

/// Why a table could not be generated.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum GenerateError {
    /// A piece of the material does not exist on the board.
    #[error("material {material} has a piece that does not exist on a board of {dims} axes")]
    PieceNotOnBoard {
        /// The material.
        material: String,
        /// The board's axes.
        dims: usize,
    },
    /// A mate is longer than the format stores (126 moves).
    #[error("material {material}: a mate is longer than {max} plies, more than the format stores")]
    TooDeep {
        /// The material.
        material: String,
        /// The longest storable distance.
        max: u32,
    },
    /// The system refused the memory the generation needs (four bytes per index and side to move).
    #[error(
        "material {material} on {board}: the memory for {entries} indices per side to move (4 bytes each, both sides) was refused"
    )]
    TooLarge {
        /// The material.
        material: String,
        /// The board.
        board: String,
        /// Positions per side to move.
        entries: u64,
    },
}

/// Solves the table of `layout`, the tables of every capture already in `exits` (indexed by the
/// captured piece's place in table order). Returns the values of the White-to-move and the Black-to-move
/// indices.
pub(crate) fn solve(
    layout: &Layout,
    exits: Vec<Option<(&Tablebase, Vec<usize>, bool)>>,
    options: &GenerateOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<[Vec<u8>; 2], GenerateError> {
    let too_large = || GenerateError::TooLarge {
        material: layout.material.to_string(),
        board: layout.space.shape.to_string(),
        entries: layout.per_side,
    };
    let n = usize::try_from(layout.per_side).map_err(|_| too_large())?;
    // Four bytes per index and side to move are reserved before anything is computed, so that a table
    // too large for this machine is an error at once (where the system refuses reservations it cannot
    // back) rather than a failure hours later.
    let mut arrays: Vec<Vec<AtomicU8>> = Vec::with_capacity(4);
    for _ in 0..4 {
        let mut v = Vec::new();
        v.try_reserve_exact(n).map_err(|_| too_large())?;
        arrays.push(v);
    }
    for v in &mut arrays {
        v.resize_with(n, || AtomicU8::new(0));
    }
    let [white, black, white_pending, black_pending]: [Vec<AtomicU8>; 4] = arrays.try_into().expect("four arrays");
    let solver = Solver {
        layout,
        values: [white, black],
        pending: [white_pending, black_pending],
        exits: exits.into_iter().map(|e| e.map(|(table, order, swap)| Exit { table, order, swap })).collect(),
        last_pending: AtomicU32::new(0),
    };
    let total = 2 * layout.per_side;
    let threads = options.threads.max(1);
    const CHUNK: u64 = 1 << 14;
    // Runs `work` over every (side, chunk) on all threads, reporting progress.
    let run = |pass: u32, work: &(dyn Fn(Color, std::ops::Range<u64>) + Sync)| {
        let next = AtomicU64::new(0);
        let done = AtomicU64::new(0);
        let chunks_per_side = layout.per_side.div_ceil(CHUNK);
        std::thread::scope(|scope| {
            for _ in 0..threads {
                scope.spawn(|| {
                    loop {
                        let c = next.fetch_add(1, Ordering::Relaxed);
                        if c >= 2 * chunks_per_side {
                            break;
                        }
                        let (side, c) =
                            if c < chunks_per_side { (Color::White, c) } else { (Color::Black, c - chunks_per_side) };
                        let start = c * CHUNK;
                        let end = (start + CHUNK).min(layout.per_side);
                        work(side, start..end);
                        let d = done.fetch_add(end - start, Ordering::Relaxed) + end - start;
                        progress(Progress { pass, done: d, total });
                    }
                });
            }
        });
    };
    run(0, &|side, range| {
        let s = side.index();
        for idx in range {
            let (v, p) = solver.initial(idx, side);
            solver.values[s][idx as usize].store(v, Ordering::Relaxed);
            if p != 0 {
                solver.pending[s][idx as usize].store(p, Ordering::Relaxed);
                solver.last_pending.fetch_max(u32::from(entry::plies(p).unwrap_or(0)), Ordering::Relaxed);
            }
        }
    });
    let mut ply: u32 = 1;
    loop {
        if ply > u32::from(entry::MAX_PLIES) {
            return Err(GenerateError::TooDeep {
                material: layout.material.to_string(),
                max: u32::from(entry::MAX_PLIES),
            });
        }
        let settled = AtomicBool::new(false);
        run(ply, &|side, range| solver.pass_chunk(side, range, ply as u8, &settled));
        if !settled.load(Ordering::Relaxed) && solver.last_pending.load(Ordering::Relaxed) <= ply {
            break;
        }
        ply += 1;
    }
    let Solver { values: [white, black], pending, .. } = solver;
    drop(pending);
    // In place: an atomic byte and a byte share their layout, so no second copy is made.
    let finish = |side: Vec<AtomicU8>| -> Vec<u8> {
        side.into_iter()
            .map(|v| match v.into_inner() {
                UNKNOWN | STALEMATE => entry::DRAW,
                v => v,
            })
            .collect()
    };
    Ok([finish(white), finish(black)])
}
