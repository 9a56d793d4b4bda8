//! [`Bitboards`]: the 8×8 board as 64-bit sets, kept by [`crate::Position`] beside its mailbox.
//!
//! Bit `i` of a set stands for the cell of index `i`, which on 8×8 is `x + 8·y` from 0 (a1 = 0, h1 = 7,
//! a8 = 56): the usual square numbering of chess programs. Only positions on the 8×8 board keep them
//! ([`crate::Position::bitboards`]); on other boards a cell set would not fit 64 bits.

use std::sync::OnceLock;

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

impl Bitboards {
    /// Whether a piece of `by` attacks the cell of index `sq` (whatever stands on it): the leapers through
    /// their tables, then each enemy slider on one of the cell's lines with nothing between.
    #[inline]
    pub(crate) fn is_attacked(&self, sq: usize, by: Color) -> bool {
        let t = Lines::get();
        let sq = sq & 63;
        let them = self.by_color(by);
        if them
            & ((t.knight[sq] & self.by_role(Role::Knight))
                | (t.king[sq] & self.by_role(Role::King))
                | (t.pawn[by.other().index()][sq] & self.by_role(Role::YPawn)))
            != 0
        {
            return true;
        }
        let queens = self.by_role(Role::Queen);
        let mut sliders = them
            & ((t.orth[sq] & (self.by_role(Role::Rook) | queens))
                | (t.diag[sq] & (self.by_role(Role::Bishop) | queens)));
        let occ = self.occupied();
        while sliders != 0 {
            let s = sliders.trailing_zeros() as usize;
            sliders &= sliders - 1;
            if t.between[sq << 6 | s] & occ == 0 {
                return true;
            }
        }
        false
    }
}

/// The 8×8 tables of [`Bitboards::is_attacked`], built once.
struct Lines {
    knight: [u64; 64],
    king: [u64; 64],
    /// Per color and cell: the cells a pawn of that color standing on the cell captures onto (so
    /// `pawn[by.other()][sq]` holds the cells from which a pawn of `by` attacks `sq`).
    pawn: [[u64; 64]; 2],
    /// Per cell: the cells on its rank and file, and on its diagonals (the empty board's rook and bishop).
    orth: [u64; 64],
    diag: [u64; 64],
    /// Per pair of cells (`64·a + b`): the cells strictly between them on a line.
    between: Vec<u64>,
}

impl Lines {
    fn get() -> &'static Lines {
        static LINES: OnceLock<Lines> = OnceLock::new();
        LINES.get_or_init(Lines::build)
    }

    fn build() -> Lines {
        let on = |x: i32, y: i32| (0..8).contains(&x) && (0..8).contains(&y);
        let bit = |x: i32, y: i32| 1u64 << (x + 8 * y);
        let mut t = Lines {
            knight: [0; 64],
            king: [0; 64],
            pawn: [[0; 64]; 2],
            orth: [0; 64],
            diag: [0; 64],
            between: vec![0; 64 * 64],
        };
        for sq in 0..64 {
            let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
            for (dx, dy) in [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)] {
                if on(x + dx, y + dy) {
                    t.knight[sq] |= bit(x + dx, y + dy);
                }
            }
            for (i, color) in Color::ALL.into_iter().enumerate() {
                let fy = y + color.forward() as i32;
                for dx in [1, -1] {
                    if on(x + dx, fy) {
                        t.pawn[i][sq] |= bit(x + dx, fy);
                    }
                }
            }
            for dx in -1..=1 {
                for dy in -1..=1 {
                    if (dx, dy) == (0, 0) {
                        continue;
                    }
                    if on(x + dx, y + dy) {
                        t.king[sq] |= bit(x + dx, y + dy);
                    }
                    let (mut cx, mut cy, mut passed) = (x + dx, y + dy, 0u64);
                    while on(cx, cy) {
                        if dx == 0 || dy == 0 {
                            t.orth[sq] |= bit(cx, cy);
                        } else {
                            t.diag[sq] |= bit(cx, cy);
                        }
                        t.between[sq << 6 | (cx + 8 * cy) as usize] = passed;
                        passed |= bit(cx, cy);
                        cx += dx;
                        cy += dy;
                    }
                }
            }
        }
        t
    }
}
