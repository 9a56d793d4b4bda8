//! Standard input for `play`, read by a thread of its own so that a game between two engines can notice
//! `quit` and the end of input while it plays, and cut a search short.

use std::collections::VecDeque;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver};

use crate::lines::{Line, stdin_lines};

/// Standard input, read by a thread of its own so that a game between two engines can notice `quit` and
/// the end of input while it plays. `None` stands for the end of input (or a read error). At most
/// [`READ_AHEAD`] lines wait in the channel and as many in `pending`, so memory stays bounded whatever
/// comes in (a `quit` behind more lines than that is seen once the game ends).
pub struct Input {
    lines: Receiver<Option<Line>>,
    /// Lines received but not yet taken, in order.
    pending: VecDeque<Option<Line>>,
    /// Raised while an engine searches in a game between two engines: the reading thread then raises
    /// the searcher's stop flag as soon as it reads a `quit` or the end of input.
    pub watching: Arc<AtomicBool>,
}

/// Lines read ahead of the game, at most (in each of the channel and the queue).
const READ_AHEAD: usize = 64;

impl Input {
    /// Reads standard input; `stop` is the flag that stops the searcher's running search.
    pub fn stdin(stop: Arc<AtomicBool>) -> Input {
        let (send, lines) = mpsc::sync_channel(READ_AHEAD);
        let watching = Arc::new(AtomicBool::new(false));
        let watch = Arc::clone(&watching);
        std::thread::spawn(move || {
            let mut reader = stdin_lines();
            loop {
                let line = reader.next_line().ok().flatten();
                if watch.load(Ordering::SeqCst) && stops_engines(&line) {
                    // Cut the search short now, not after its iteration.
                    stop.store(true, Ordering::SeqCst);
                }
                let end = line.is_none();
                if send.send(line).is_err() || end {
                    return;
                }
            }
        });
        Input { lines, pending: VecDeque::new(), watching }
    }

    /// The next line, waiting for it; `None` at the end of input (and ever after).
    pub fn next(&mut self) -> Option<Line> {
        match self.pending.pop_front() {
            Some(line) => line,
            None => self.lines.recv().ok().flatten(),
        }
    }

    /// Whether a `quit` (or the end of input) has come in and waits to be taken; does not wait.
    pub fn quit_pending(&mut self) -> bool {
        while self.pending.len() < READ_AHEAD {
            match self.lines.try_recv() {
                Ok(line) => self.pending.push_back(line),
                Err(_) => break,
            }
        }
        self.pending.iter().any(stops_engines)
    }
}

/// Whether a command word ends the session.
pub fn is_quit(word: &str) -> bool {
    matches!(word, "quit" | "exit" | "q")
}

/// Whether a line of input (`None`: the end of input) stops a game between two engines.
fn stops_engines(line: &Option<Line>) -> bool {
    match line {
        None => true,
        Some(Line::Text(text)) => text.split_whitespace().next().is_some_and(is_quit),
        Some(_) => false,
    }
}
