//! Hints: the lines through a cell that are still alive, filtered as RULES.md §7 says.
//!
//! Looking at a cell from one player's side (the viewer):
//! - a free cell, or one the viewer holds: the lines through it that the *viewer* could still complete;
//! - a cell the opponent holds: the lines through it that the *opponent* could still complete;
//! - never a dead line: one blocked for both, one already completed, or one through the centre.
//!
//! "Could still complete" means the line holds no cell of the other player and is not complete yet.

use tesseract_board::Cell;

use crate::game::{Game, Player};
use crate::lines::{LineId, Lines};

/// One line of a hint, and how far its player has got along it.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Hint {
    /// The line.
    pub line: LineId,
    /// How many of its three cells the hinted player already holds (0 to 2).
    pub held: u8,
}

/// The live lines through one cell, for one player.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Hints {
    /// The cell looked at.
    pub cell: Cell,
    /// Whose lines these are: the viewer's, or the opponent's for a cell the opponent holds.
    pub player: Player,
    /// The lines, in [`LineId`] order.
    pub lines: Vec<Hint>,
}

impl Game {
    /// The hint lines through `cell` as `viewer` sees them (RULES.md §7; see [`crate::hints`]).
    ///
    /// The centre and a cell off the board have no live lines: their hints are empty.
    ///
    /// # Examples
    /// ```
    /// use tesseract_tactoe::{parse_cell, Game, Player};
    /// let mut game = Game::new();
    /// let corner = parse_cell("1111")?;
    /// // On an empty board all 14 playable lines through a corner are open to X.
    /// assert_eq!(game.hints(corner, Player::X).lines.len(), 14);
    /// game.claim(corner)?; // X takes it
    /// game.claim(parse_cell("2111")?)?; // O blocks the line along x
    /// let hints = game.hints(corner, Player::O); // O looks at X's cell: X's lines
    /// assert_eq!(hints.player, Player::X);
    /// assert_eq!(hints.lines.len(), 13);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn hints(&self, cell: Cell, viewer: Player) -> Hints {
        let player = match self.owner(cell) {
            Some(owner) if owner != viewer => owner,
            _ => viewer,
        };
        let lines = Lines::get();
        let board = self.board();
        let mine = board.marks[player.index()];
        let theirs = board.marks[player.other().index()];
        let hints = lines
            .playable_through(cell)
            .iter()
            .filter_map(|&id| {
                let m = lines.line(id).mask();
                let held = (mine & m).count_ones();
                (theirs & m == 0 && held < 3).then_some(Hint { line: id, held: held as u8 })
            })
            .collect();
        Hints { cell, player, lines: hints }
    }
}
