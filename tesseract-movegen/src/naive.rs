//! The naive generator (being written).
