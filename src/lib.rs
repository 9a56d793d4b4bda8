//! Tesseract: chess in more than two dimensions (facade over the `tesseract-*` crates).
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub use tesseract_board as board;
pub use tesseract_tactoe as tactoe;
