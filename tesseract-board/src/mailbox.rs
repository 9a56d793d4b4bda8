//! The byte codes of a padded mailbox, shared by the position and the generators.
//!
//! Every mailbox entry is one byte: [`EMPTY`], [`OFFBOARD`] on the padding, or a piece code
//! `1 + role + 16·color` ([`crate::Piece::code`]). So a code below [`OFFBOARD`] and nonzero is a piece,
//! bit 4 is its color, and the low four bits minus one its role.

use crate::{Color, Role};

/// An empty cell.
pub const EMPTY: u8 = 0;
/// A padding entry, off the board.
pub const OFFBOARD: u8 = 0x80;

/// Whether a code is a piece (neither empty nor off the board).
#[inline]
pub const fn is_piece(code: u8) -> bool {
    code != EMPTY && code < OFFBOARD
}

/// The color of a piece code (meaningless for other codes).
#[inline]
pub const fn color(code: u8) -> Color {
    if code & 16 != 0 { Color::Black } else { Color::White }
}

/// The role of each code's low five bits, built at compile time.
const ROLES: [Role; 32] = {
    let mut table = [Role::King; 32];
    let mut i = 0;
    while i < 32 {
        let low = i & 15;
        if low >= 1 && low <= 9 {
            table[i] = Role::ALL[low - 1];
        }
        i += 1;
    }
    table
};

/// The role of a piece code (meaningless for other codes).
#[inline]
pub const fn role(code: u8) -> Role {
    ROLES[(code & 31) as usize]
}

/// The code of a piece of `color` and `role`.
#[inline]
pub const fn code(color: Color, role: Role) -> u8 {
    1 + role as u8 + 16 * color as u8
}
