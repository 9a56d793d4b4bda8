//! What the relay refuses or cuts off, counted for `/stats` and told on standard error: the first event
//! of a kind at once, then at most one line of that kind every ten seconds with the number since the
//! last line (so a flood writes a few lines, not one per socket).

use std::fmt::Write;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::time::Instant;

use crate::hub::lock;

/// The shortest time between two lines of one kind.
pub(crate) const LOG_EVERY: Duration = Duration::from_secs(10);

/// A kind of event.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Event {
    /// A WebSocket upgrade over `--connect-rate-per-address` (HTTP 429).
    ConnectRate,
    /// A socket over `--max-connections-per-address` (HTTP 429).
    AddressCap,
    /// A socket over `--max-connections` (HTTP 503).
    Full,
    /// A socket that sent no complete request head within `--header-timeout`.
    HeaderTimeout,
    /// `accept` failed (such as out of file descriptors).
    AcceptFailed,
    /// A WebSocket refused by a full match (4008): every place held by a different address.
    MatchFull,
    /// A connection whose address held the most places of a full match, replaced by a newcomer of an
    /// address holding at least two fewer (4009).
    OverShare,
}

const KINDS: usize = 7;

impl Event {
    const ALL: [Event; KINDS] = [
        Event::ConnectRate,
        Event::AddressCap,
        Event::Full,
        Event::HeaderTimeout,
        Event::AcceptFailed,
        Event::MatchFull,
        Event::OverShare,
    ];

    fn index(self) -> usize {
        self as usize
    }

    /// The key of its counter in `/stats`.
    pub(crate) fn stats_key(self) -> &'static str {
        match self {
            Event::ConnectRate => "refused_connect_rate",
            Event::AddressCap => "refused_per_address",
            Event::Full => "refused_full",
            Event::HeaderTimeout => "header_timeouts",
            Event::AcceptFailed => "accept_errors",
            Event::MatchFull => "refused_match_full",
            Event::OverShare => "replaced_over_share",
        }
    }

    fn describe(self, n: u64) -> String {
        let s = if n == 1 { "" } else { "s" };
        match self {
            Event::ConnectRate => {
                format!("refused {n} WebSocket connection{s} over --connect-rate-per-address (HTTP 429)")
            }
            Event::AddressCap => format!("refused {n} connection{s} over --max-connections-per-address (HTTP 429)"),
            Event::Full => format!("refused {n} connection{s} over --max-connections (HTTP 503)"),
            Event::HeaderTimeout => {
                format!("closed {n} connection{s} that sent no complete request head within --header-timeout")
            }
            Event::AcceptFailed => format!("accepting a connection failed {n} time{s}"),
            Event::MatchFull => format!("refused {n} WebSocket connection{s} to a full match (4008)"),
            Event::OverShare => {
                format!("replaced {n} connection{s} of an address holding the most places of a full match (4009)")
            }
        }
    }
}

#[derive(Debug, Default)]
struct Line {
    /// The count when the last line was written.
    told: u64,
    at: Option<Instant>,
    /// The source address (or the error) of the latest event.
    last: String,
}

/// The counters and the state of the lines.
#[derive(Debug, Default)]
pub(crate) struct Events {
    counts: [AtomicU64; KINDS],
    lines: Mutex<[Line; KINDS]>,
}

impl Events {
    /// Counts an event; `last` names its source (an address) or cause (an error).
    pub(crate) fn note(&self, event: Event, last: impl std::fmt::Display) {
        let count = self.counts[event.index()].fetch_add(1, Ordering::Relaxed) + 1;
        let mut lines = lock(&self.lines);
        let line = &mut lines[event.index()];
        line.last.clear();
        let _ = write!(line.last, "{last}");
        if line.at.is_none_or(|at| at.elapsed() >= LOG_EVERY) {
            tell(event, line, count);
        }
    }

    /// Writes the line of every kind with events not yet told, unless one was written in the last
    /// [`LOG_EVERY`]; with `all`, writes them regardless (when the relay stops).
    pub(crate) fn flush(&self, all: bool) {
        let mut lines = lock(&self.lines);
        for event in Event::ALL {
            let count = self.counts[event.index()].load(Ordering::Relaxed);
            let line = &mut lines[event.index()];
            if count > line.told && (all || line.at.is_none_or(|at| at.elapsed() >= LOG_EVERY)) {
                tell(event, line, count);
            }
        }
    }

    /// The number of events of a kind so far.
    pub(crate) fn count(&self, event: Event) -> u64 {
        self.counts[event.index()].load(Ordering::Relaxed)
    }

    /// Every kind, for `/stats`.
    pub(crate) fn all() -> [Event; KINDS] {
        Event::ALL
    }
}

fn tell(event: Event, line: &mut Line, count: u64) {
    let what = event.describe(count - line.told);
    let last = if event == Event::AcceptFailed { "the last error:" } else { "the last from" };
    eprintln!("tesseract-relay: {what}; {last} {}", line.last);
    line.told = count;
    line.at = Some(Instant::now());
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test(start_paused = true)]
    async fn the_first_at_once_then_one_line_in_ten_seconds() {
        let events = Events::default();
        events.note(Event::ConnectRate, "192.0.2.1");
        assert_eq!(lock(&events.lines)[0].told, 1, "the first is told at once");
        for _ in 0..50 {
            events.note(Event::ConnectRate, "192.0.2.1");
        }
        events.flush(false);
        assert_eq!(lock(&events.lines)[0].told, 1, "no second line within ten seconds");
        tokio::time::advance(LOG_EVERY).await;
        events.flush(false);
        assert_eq!(lock(&events.lines)[0].told, 51);
        assert_eq!(events.count(Event::ConnectRate), 51);
        assert_eq!(events.count(Event::Full), 0);
        assert_eq!(Event::describe(Event::Full, 1), "refused 1 connection over --max-connections (HTTP 503)");
    }
}
