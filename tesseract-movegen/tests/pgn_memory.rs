//! The PGN reader's memory is bounded by its per-game cap, whatever the input: a game with a 64 MiB
//! comment (the outside review: a 100 MB comment took 589 MB) is reported and read past while the heap
//! never grows by more than the 1 MiB cap and a little; a game just under the cap is read in about twice its
//! size. The heap is measured by a counting allocator, so
//! this file holds one test alone (tests of one binary share the allocator).

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};

use tesseract_movegen::pgn::{PgnErrorKind, PgnReader};

/// The system allocator, counting the bytes in use and their peak.
struct Counting;

static IN_USE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(size: usize) {
    let now = IN_USE.fetch_add(size, Ordering::Relaxed) + size;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `System` unchanged; the counters only watch.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        // SAFETY: as the caller promised for `layout`.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        IN_USE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: `ptr` came from `alloc` or `realloc` above with this layout.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            grew(new_size - layout.size());
        } else {
            IN_USE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: as the caller promised for `ptr`, `layout` and `new_size`.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// A PGN text made on the fly, never held whole: a short game, a game whose comment is `comment` bytes
/// (on one line, or in lines of 80), and a short game.
struct Generated {
    head: Vec<u8>,
    comment: usize,
    lines: bool,
    tail: Vec<u8>,
    at: usize,
}

impl Generated {
    fn new(comment: usize, lines: bool) -> Generated {
        Generated {
            head: b"[Event \"one\"]\n\n1. e4 e5 *\n\n[Event \"long\"]\n\n1. e4 {".to_vec(),
            comment,
            lines,
            tail: b"} e5 *\n\n[Event \"three\"]\n\n1. d4 d5 2. c4 *\n".to_vec(),
            at: 0,
        }
    }
}

impl Read for Generated {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let (head, body) = (self.head.len(), self.comment);
        let mut n = 0;
        while n < buf.len() {
            let i = self.at;
            buf[n] = if i < head {
                self.head[i]
            } else if i < head + body {
                if self.lines && (i - head) % 81 == 80 { b'\n' } else { b'x' }
            } else if i < head + body + self.tail.len() {
                self.tail[i - head - body]
            } else {
                break;
            };
            self.at += 1;
            n += 1;
        }
        Ok(n)
    }
}

#[test]
fn a_game_far_over_the_cap_is_read_past_in_bounded_memory() {
    const COMMENT: usize = 64 << 20;
    // The tables built once on first use (geometry, move generation) are not the reader's: build them first.
    assert!(tesseract_movegen::pgn::read_games("1. e4 e5 *").all(|g| g.is_ok()));
    // Two caps, 1 MiB and 8 MiB, so that the count is seen to follow the cap (it measures the buffer).
    for (cap, lines) in [(1 << 20, false), (1 << 20, true), (8 << 20, false)] {
        let before = IN_USE.load(Ordering::Relaxed);
        PEAK.store(before, Ordering::Relaxed);
        let reader = PgnReader::new(BufReader::new(Generated::new(COMMENT, lines))).max_game_bytes(cap);
        let games: Vec<_> = reader.collect();
        let peak = PEAK.load(Ordering::Relaxed) - before;
        println!("comment of {COMMENT} bytes (lines: {lines}), cap {cap}: peak heap growth {peak} bytes");
        assert_eq!(games.len(), 3, "{games:?}");
        assert_eq!(games[0].as_ref().unwrap().tag("Event"), Some("one"));
        let err = games[1].as_ref().unwrap_err();
        assert_eq!((err.game, &err.kind), (2, &PgnErrorKind::GameTooLong { max_bytes: cap }));
        let third = games[2].as_ref().unwrap();
        assert_eq!((third.tag("Event"), third.moves.len()), (Some("three"), 3));
        // The cap once and a little: a reader that kept the game would have taken 64 MiB at least.
        assert!(peak > cap && peak < cap + cap / 4, "peak heap growth {peak} bytes with a cap of {cap}");
    }
    // A game just under the cap is read: its text and its comment's copy, about twice the game.
    let (cap, comment) = (1 << 20, (1 << 20) - 200);
    let before = IN_USE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let games: Vec<_> = PgnReader::new(BufReader::new(Generated::new(comment, false))).max_game_bytes(cap).collect();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    println!("comment of {comment} bytes, cap {cap}: peak heap growth {peak} bytes");
    assert_eq!(games.len(), 3, "{games:?}");
    assert_eq!(games[1].as_ref().unwrap().moves[0].comments[0].len(), comment);
    assert!(peak < 3 * cap, "peak heap growth {peak} bytes with a cap of {cap}");
}
