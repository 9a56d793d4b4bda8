//! Helpers the test files share: cells by name, and games built from lists of claims.

use tesseract_board::Cell;
use tesseract_tactoe::{Game, parse_cell};

/// The cell of a name such as `2221`.
pub fn c(name: &str) -> Cell {
    parse_cell(name).unwrap()
}

/// X claims `xs` and O claims `os`, alternately, X first.
pub fn play(xs: &[&str], os: &[&str]) -> Game {
    assert!(xs.len() == os.len() || xs.len() == os.len() + 1);
    let mut game = Game::new();
    for (i, x) in xs.iter().enumerate() {
        game.claim(c(x)).unwrap();
        if let Some(o) = os.get(i) {
            game.claim(c(o)).unwrap();
        }
    }
    game
}
