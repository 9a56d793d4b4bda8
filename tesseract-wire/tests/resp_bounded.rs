//! The bounded Redis reader never holds an oversize payload: a 64 MiB message published on the channel
//! is skipped through the reader's buffer while the heap stays small (a counting allocator measures it),
//! and the message after it is read normally.

use std::alloc::{GlobalAlloc, Layout, System};
use std::io::{BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};

use tesseract_wire::MAX_FRAME;
use tesseract_wire::resp::{self, Message, Payload};

struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator; only counts.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let now = LIVE.fetch_add(layout.size(), Ordering::SeqCst) + layout.size();
        PEAK.fetch_max(now, Ordering::SeqCst);
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::SeqCst);
        // SAFETY: the caller's pointer and layout, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// A relay stream made up on the fly: a message whose payload has `huge` bytes, then a small message.
struct Relay {
    head: Vec<u8>,
    huge: u64,
    tail: Vec<u8>,
    at: u64,
}

impl Read for Relay {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let (head, huge) = (self.head.len() as u64, self.huge);
        let n = if self.at < head {
            let s = &self.head[self.at as usize..];
            let n = s.len().min(buf.len());
            buf[..n].copy_from_slice(&s[..n]);
            n
        } else if self.at < head + huge {
            let n = (head + huge - self.at).min(buf.len() as u64) as usize;
            buf[..n].fill(0x54);
            n
        } else {
            let s = &self.tail[(self.at - head - huge).min(self.tail.len() as u64) as usize..];
            let n = s.len().min(buf.len());
            buf[..n].copy_from_slice(&s[..n]);
            n
        };
        self.at += n as u64;
        Ok(n)
    }
}

#[test]
fn a_huge_payload_is_refused_without_being_read_into_memory() {
    const HUGE: u64 = 64 << 20;
    let relay = Relay {
        head: format!("*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n${HUGE}\r\n").into_bytes(),
        huge: HUGE,
        tail: b"\r\n*3\r\n$7\r\nmessage\r\n$2\r\nch\r\n$2\r\nTW\r\n".to_vec(),
        at: 0,
    };
    let mut reader = BufReader::with_capacity(8192, relay);
    let before = LIVE.load(Ordering::SeqCst);
    PEAK.store(before, Ordering::SeqCst);
    let first = resp::read_reply(&mut reader, MAX_FRAME).unwrap().into_message().unwrap();
    let peak = PEAK.load(Ordering::SeqCst) - before;
    assert_eq!(first, Message { channel: b"ch".to_vec(), payload: Payload::Oversize(HUGE) });
    assert!(peak < 64 << 10, "reading the oversize message took {peak} bytes of heap");
    let second = resp::read_reply(&mut reader, MAX_FRAME).unwrap().into_message().unwrap();
    assert_eq!(second.payload, Payload::Bytes(b"TW".to_vec()));
}
