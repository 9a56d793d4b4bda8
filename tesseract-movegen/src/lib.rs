//! Legal move generation.
#![deny(missing_docs)]

pub mod naive;
