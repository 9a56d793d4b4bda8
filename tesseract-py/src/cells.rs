//! Cells as Python arguments: an index, a tuple of coordinates, or a name.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyString, PyTuple};
use tesseract_board::{Cell, Geometry};

/// The longest cell name echoed back in an error message.
const ECHO: usize = 16;

/// Reads a cell of the board `g` from a Python value: an `int` index (RULES.md §1: `(x−1) + n(y−1) +
/// n²(z−1) + n³(w−1)`), a tuple or list of 1-based coordinates (one per axis), or a name (`"e4"` in 2D,
/// one digit per axis otherwise, `"2313"`).
///
/// # Errors
/// `ValueError` for a cell off the board or a malformed name, `TypeError` for any other kind of value.
pub(crate) fn cell_arg(g: &Geometry, value: &Bound<'_, PyAny>) -> PyResult<Cell> {
    let cells = g.cells();
    if let Ok(s) = value.cast::<PyString>() {
        let s = s.to_cow()?;
        return g.parse_cell(&s).ok_or_else(|| {
            let shown: String = s.chars().take(ECHO).collect();
            let more = if s.chars().count() > ECHO { "..." } else { "" };
            let like = if g.dims() == 2 { "a1" } else { &"1".repeat(g.dims()) };
            PyValueError::new_err(format!("{shown:?}{more} is not a cell name of this board (like {like})"))
        });
    }
    if value.is_instance_of::<PyInt>() {
        let out_of_range =
            || PyValueError::new_err(format!("cell index out of range: this board has cells 0 to {}", cells - 1));
        let index: i64 = value.extract().map_err(|_| out_of_range())?;
        return usize::try_from(index)
            .ok()
            .filter(|&i| i < cells)
            .map(|i| Cell::new(i as u16))
            .ok_or_else(out_of_range);
    }
    if value.is_instance_of::<PyTuple>() || value.is_instance_of::<PyList>() {
        let n = g.side() as i64;
        let wrong = || PyValueError::new_err(format!("a cell is {} coordinates from 1 to {n} on this board", g.dims()));
        let items: Vec<Bound<'_, PyAny>> = value.try_iter()?.collect::<PyResult<_>>()?;
        if items.len() != g.dims() {
            return Err(wrong());
        }
        let mut coords = Vec::with_capacity(items.len());
        for item in &items {
            if !item.is_instance_of::<PyInt>() {
                return Err(wrong());
            }
            let c: i64 = item.extract().map_err(|_| wrong())?;
            if !(1..=n).contains(&c) {
                return Err(wrong());
            }
            coords.push(c as u8);
        }
        return g.cell(&coords).ok_or_else(wrong);
    }
    Err(PyTypeError::new_err(format!(
        "a cell is an int index, a tuple of coordinates or a name (str), not {}",
        value.get_type().name()?
    )))
}
