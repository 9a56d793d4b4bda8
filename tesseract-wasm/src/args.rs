//! Checks of the numbers that come from JavaScript: a JS number is an `f64`, so a cell, a seed or a level
//! may arrive as `-1`, `2.5`, `NaN` or `1e300`. Each check names the argument and the accepted range.
#![forbid(unsafe_code)]

/// The largest integer a JavaScript number holds exactly: 2⁵³ − 1 (`Number.MAX_SAFE_INTEGER`).
pub const MAX_SEED: u64 = (1 << 53) - 1;

/// A seed: a whole number from 0 to [`MAX_SEED`].
pub(crate) fn seed(value: f64) -> Result<u64, String> {
    if value.fract() == 0.0 && (0.0..=MAX_SEED as f64).contains(&value) {
        Ok(value as u64)
    } else {
        Err(format!(
            "the seed must be a whole number from 0 to {MAX_SEED} (2^53 - 1, the largest integer a JavaScript \
             number holds exactly); got {value}"
        ))
    }
}

/// A count (a ply, a number of moves): a whole number from 0 to [`MAX_SEED`], named `what` in the error.
pub(crate) fn count(value: f64, what: &str) -> Result<usize, String> {
    if value.fract() == 0.0 && (0.0..=MAX_SEED as f64).contains(&value) {
        Ok(value as usize)
    } else {
        Err(format!("the {what} must be a whole number from 0 to {MAX_SEED}; got {value}"))
    }
}

/// A cell index of a board of `cells` cells: a whole number from 0 to `cells - 1`.
pub(crate) fn cell(value: f64, cells: usize) -> Result<usize, String> {
    whole_below(value, cells).ok_or_else(|| {
        format!("cell {value} is not on this board: cells are numbered 0 to {} (index order of RULES.md §1)", cells - 1)
    })
}

/// `value` as an index below `len`, if it is one.
pub(crate) fn whole_below(value: f64, len: usize) -> Option<usize> {
    (value.fract() == 0.0 && value >= 0.0 && value < len as f64).then_some(value as usize)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_that_are_not_indices_are_refused() {
        for bad in [-1.0, 0.5, 81.0, f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 1e300] {
            assert!(cell(bad, 81).is_err(), "{bad}");
        }
        assert_eq!(cell(0.0, 81), Ok(0));
        assert_eq!(cell(80.0, 81), Ok(80));
        assert_eq!(cell(-0.0, 81), Ok(0));
    }

    #[test]
    fn seeds_are_whole_and_exact_in_javascript() {
        assert_eq!(seed(0.0), Ok(0));
        assert_eq!(seed(9_007_199_254_740_991.0), Ok(9_007_199_254_740_991));
        for bad in [-1.0, 1.5, 9_007_199_254_740_992.0, f64::NAN, f64::INFINITY] {
            let err = seed(bad).unwrap_err();
            assert!(err.starts_with("the seed must be a whole number"), "{err}");
        }
    }
}
