//! Enough stack for the generator, whatever thread Python calls from.
//!
//! A move list is 61 KB (10,240 moves) and lives on the stack; perft holds one per ply of its recursion,
//! and the engine recurses up to 100 plies. Python threads may have small stacks (`threading.stack_size`
//! accepts 32 KiB; musl's default is 128 KiB), so every short call into the generator checks the stack
//! left and, when it is short, runs on a fresh segment ([`stacker::maybe_grow`]: a few nanoseconds when
//! the stack is ample, as on Python's main thread and its default threads); counts and searches run on a
//! thread of their own ([`crate::interrupt`]) with the stack sized here.

/// Below this much stack left, a call into the generator moves to a new segment.
const RED_ZONE: usize = 1 << 20;
/// The size of that segment.
const SEGMENT: usize = 4 << 20;
/// The stack of the thread an engine search runs on (at most 100 plies of search and quiescence frames,
/// with room to spare).
pub(crate) const SEARCH: usize = 16 << 20;

/// Runs `f`, a call into the generator that does not recurse, with at least [`RED_ZONE`] of stack.
pub(crate) fn ample<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(RED_ZONE, SEGMENT, || apart(f))
}

/// Runs `f`, a call that recurses a few dozen plies (the mate solver of the studies, a lesson's proof),
/// with at least [`SEARCH`] of stack.
pub(crate) fn deep<T>(f: impl FnOnce() -> T) -> T {
    stacker::maybe_grow(SEARCH, SEARCH, || apart(f))
}

/// Calls `f` in a frame of its own. Were `f` inlined into [`stacker::maybe_grow`]'s caller, its locals
/// (a 61 KB move list) would be part of the caller's frame, taken on the old stack before any switch.
#[inline(never)]
fn apart<T>(f: impl FnOnce() -> T) -> T {
    f()
}

/// The stack of a thread that counts perft `depth` plies deep: 128 KiB a ply (a move list of 61 KB and
/// the frames, with room for an unoptimised build) and 1 MiB to spare.
pub(crate) fn for_perft(depth: u32) -> usize {
    (1 << 20) + depth as usize * (128 << 10)
}
