//! Machine-checked studies and lessons for Tesseract, and the engine's self-checks (to come): mate-in-N
//! studies verified for correctness, uniqueness and forcedness, tutorial lessons proven winnable, and the
//! start-position and perft theorems. It builds on `tesseract-board`, `tesseract-movegen` and
//! `tesseract-search`.
//!
//! This crate holds no code yet; its issue is open.
#![deny(missing_docs)]
#![forbid(unsafe_code)]
