//! Long calls that Ctrl-C interrupts.
//!
//! Python runs its signal handlers (the one that raises `KeyboardInterrupt` for SIGINT among them) on the
//! main thread, between bytecodes or when C code calls `PyErr_CheckSignals`. A count or a search that ran
//! on the calling thread without the GIL would never let them run, and only SIGTERM could end it. So the
//! work runs on a thread of its own (with the stack it needs), and the calling thread, without the GIL,
//! waits for it and every [`POLL`] takes the GIL to run the handlers. When one raises, the work's stop
//! flag is raised, the work returns at its next poll (milliseconds), and the handler's exception is
//! raised in place of the result; the board and the module are as before the call.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often a waiting call runs Python's signal handlers.
const POLL: Duration = Duration::from_millis(20);

/// Runs `work` on a new thread with `stack` bytes of stack, without the GIL, and returns its result,
/// unless a Python signal handler raises meanwhile: then `stop` (which `work` must poll) is raised, and
/// once `work` has returned, the handler's exception (`KeyboardInterrupt` for Ctrl-C) is returned.
///
/// Signal handlers run on Python's main thread only: a call from another thread waits for its work.
pub(crate) fn run<T: Send>(
    py: Python<'_>,
    stack: usize,
    stop: &AtomicBool,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    py.detach(|| {
        std::thread::scope(|scope| {
            let (done, result) = mpsc::sync_channel(1);
            let worker = std::thread::Builder::new()
                .name("tesseract-work".into())
                .stack_size(stack)
                .spawn_scoped(scope, move || {
                    // The receiver waits until this is sent: the send cannot fail.
                    let _ = done.send(work());
                })
                .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread for the work: {e}")))?;
            let mut interrupted: Option<PyErr> = None;
            loop {
                match result.recv_timeout(POLL) {
                    Ok(value) => return interrupted.map_or(Ok(value), Err),
                    Err(RecvTimeoutError::Timeout) => {
                        if interrupted.is_none() {
                            interrupted = Python::attach(|py| py.check_signals()).err();
                        }
                        // Raised at every poll until the work returns: a search lowers its flag as it starts.
                        if interrupted.is_some() {
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                    Err(RecvTimeoutError::Disconnected) => break,
                }
            }
            // The work panicked before it could send its result: pass the panic on (PyO3 turns it into
            // a PanicException).
            match worker.join() {
                Err(panic) => std::panic::resume_unwind(panic),
                Ok(()) => Err(PyRuntimeError::new_err("the work ended without a result")),
            }
        })
    })
}
