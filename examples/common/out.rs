//! Standard output for the examples: a reader that goes away (`example | head -1`) ends the program
//! quietly, from any thread, instead of the panic of `println!` ("failed printing to stdout: Broken pipe",
//! exit code 101 and a backtrace).
//!
//! Every line goes through [`outln!`] (or [`check`] for a writer of the caller's own on stdout). When a
//! write fails because the reader closed the pipe, the process ends at once with exit code
//! [`CLOSED_PIPE`], 141, nothing on stderr: the status a shell reports for a Unix tool that `SIGPIPE`
//! killed (128 + 13), so that a script under `set -o pipefail` sees a cut-short run as it would see
//! `seq 1 1000000 | head -1`, never as a complete one. Any other failure to write (a full disk behind
//! `> file`) ends it with one line on stderr and exit code 1.
//!
//! [`to_stderr`] sends the lines to standard error instead, for a run whose standard output holds a
//! file (`--csv -`).

// Each example uses a subset of these helpers.
#![allow(dead_code, unused_macros)]

use std::fmt;
use std::io::{self, Write};
use std::sync::atomic::{AtomicBool, Ordering};

/// The exit code after standard output was closed by its reader: 128 + `SIGPIPE` (13).
pub const CLOSED_PIPE: i32 = 141;

/// Whether [`outln!`] writes to standard error (see [`to_stderr`]).
static DIVERTED: AtomicBool = AtomicBool::new(false);
/// Raised by the first thread that ends the process, so that a second one does not call `exit` too.
static ENDING: AtomicBool = AtomicBool::new(false);

/// Prints a line to standard output (or to standard error after [`to_stderr`]); see the [module](self)
/// docs for what a failed write does.
macro_rules! outln {
    () => {
        $crate::out::write(format_args!(""), true)
    };
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), true)
    };
}

/// [`outln!`] without the line ending (for text that ends with its own).
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::out::write(format_args!($($arg)*), false)
    };
}

/// Writes `args`, and a line ending if `newline`, as one write of the locked stream, and flushes it;
/// ends the process when that fails.
pub fn write(args: fmt::Arguments<'_>, newline: bool) {
    let mut text = args.to_string();
    if newline {
        text.push('\n');
    }
    let written = if DIVERTED.load(Ordering::Relaxed) {
        io::stderr().lock().write_all(text.as_bytes())
    } else {
        let mut out = io::stdout().lock();
        out.write_all(text.as_bytes()).and_then(|()| out.flush())
    };
    check(written);
}

/// From now on [`outln!`] writes to standard error: standard output is left to a file written there.
pub fn to_stderr() {
    DIVERTED.store(true, Ordering::Relaxed);
}

/// The value of a write to standard output, or the end of the process when it failed (see [`fail`]).
pub fn check<T>(written: io::Result<T>) -> T {
    written.unwrap_or_else(|e| fail(&e))
}

/// Ends the process after a failed write to standard output: quietly with [`CLOSED_PIPE`] when the
/// reader went away, otherwise with a line on stderr and exit code 1. Safe to call from several threads
/// at once: the first one ends the process, the others wait for it.
pub fn fail(error: &io::Error) -> ! {
    if ENDING.swap(true, Ordering::SeqCst) {
        loop {
            std::thread::park();
        }
    }
    if error.kind() == io::ErrorKind::BrokenPipe {
        std::process::exit(CLOSED_PIPE);
    }
    // Standard error may be gone too: nothing more can be said then.
    let _ = writeln!(io::stderr(), "error: cannot write the output: {error}");
    std::process::exit(1);
}
