//! Four Tac Toe (being written).
#![deny(missing_docs)]
