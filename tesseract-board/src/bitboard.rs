//! [`Bitboards`]: the 8×8 board as 64-bit sets, kept by [`crate::Position`] beside its mailbox.
//!
//! Bit `i` of a set stands for the cell of index `i`, which on 8×8 is `x + 8·y` from 0 (a1 = 0, h1 = 7,
//! a8 = 56): the usual square numbering of chess programs. Only positions on the 8×8 board keep them
//! ([`crate::Position::bitboards`]); on other boards a cell set would not fit 64 bits.

use crate::{Color, Role};

/// The pieces of an 8×8 position as 64-bit sets, by color and by role, updated with every move.
///
/// Every role has a set, indexed by [`Role::index`]; those that cannot stand on a 2D board (unicorn,
/// dragon, W-pawn, refused by [`crate::Position::from_setup`] and never promoted to there) stay empty.
///
/// # Examples
/// ```
/// use tesseract_board::{start, Color, Role};
/// let pos = start::chess();
/// let bb = pos.bitboards().expect("an 8×8 board");
/// assert_eq!(bb.by_color(Color::White), 0xffff);
/// assert_eq!(bb.by_role(Role::YPawn), 0x00ff_0000_0000_ff00);
/// assert_eq!(bb.occupied().count_ones(), 32);
/// assert!(tesseract_board::start::tesseract(tesseract_board::start::Army::Standard).bitboards().is_none());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Bitboards {
    by_color: [u64; 2],
    by_role: [u64; 9],
}

impl Bitboards {
    /// The cells of the pieces of `color`.
    #[inline]
    pub fn by_color(&self, color: Color) -> u64 {
        self.by_color[color.index()]
    }

    /// The cells of the pieces of `role`, of both colors.
    #[inline]
    pub fn by_role(&self, role: Role) -> u64 {
        self.by_role[role.index()]
    }

    /// The cells of the pieces of `color` and `role`.
    #[inline]
    pub fn pieces(&self, color: Color, role: Role) -> u64 {
        self.by_color[color.index()] & self.by_role[role.index()]
    }

    /// Every occupied cell.
    #[inline]
    pub fn occupied(&self) -> u64 {
        self.by_color[0] | self.by_color[1]
    }

    /// Puts or lifts (the same toggle) a piece on the cell of index `cell`.
    #[inline]
    pub(crate) fn toggle(&mut self, color: Color, role: Role, cell: usize) {
        let bit = 1u64 << (cell & 63);
        self.by_color[color.index()] ^= bit;
        self.by_role[role.index()] ^= bit;
    }

    /// Moves a piece from one cell to another (or back: the same toggles).
    #[inline]
    pub(crate) fn shift(&mut self, color: Color, from_role: Role, to_role: Role, from: usize, to: usize) {
        let (f, t) = (1u64 << (from & 63), 1u64 << (to & 63));
        self.by_color[color.index()] ^= f ^ t;
        self.by_role[from_role.index()] ^= f;
        self.by_role[to_role.index()] ^= t;
    }
}
