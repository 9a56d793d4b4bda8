//! Zobrist keys: one random 64-bit key per (piece, cell), side to move, en passant cell and castling rook.
//!
//! The keys are drawn from `ChaCha8Rng` (crate `rand_chacha`) seeded with the 32 bytes of [`SEED`] and
//! set to stream `256·dims + side`, so every shape has its own keys, and the same position hashes to the
//! same value in every build, on every platform, forever: a test pins a few hashes. Keys are drawn in this
//! order: pieces (color White then Black, role in [`Role::ALL`] order, cell in index order), then the
//! side-to-move key, then one key per en passant cell (cell order), then one per castling rook (color,
//! then file 1..=side).
//!
//! A Zobrist hash is a fast fingerprint for tables and repetition, not a cryptographic digest: never use it
//! where an attacker chooses the positions.

use std::sync::OnceLock;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};

use crate::geometry::{MAX_DIMS, MAX_SIDE, MIN_SIDE};
use crate::{Cell, Color, Piece, Role, Shape};

/// The seed of the key generator: these 32 ASCII bytes.
pub const SEED: [u8; 32] = *b"Tesseract Zobrist keys, seed v1.";

/// The keys of one shape.
#[derive(Debug)]
pub struct Zobrist {
    cells: usize,
    pieces: Box<[u64]>,
    side: u64,
    en_passant: Box<[u64]>,
    castling: Box<[u64]>,
    n: usize,
}

impl Zobrist {
    /// The keys of `shape`, computed on first use.
    pub fn of(shape: Shape) -> &'static Zobrist {
        const SLOTS: usize = MAX_DIMS * (MAX_SIDE - MIN_SIDE + 1) as usize;
        static KEYS: [OnceLock<Zobrist>; SLOTS] = [const { OnceLock::new() }; SLOTS];
        let slot = (shape.dims() - 1) * (MAX_SIDE - MIN_SIDE + 1) as usize + shape.side() - MIN_SIDE as usize;
        KEYS[slot].get_or_init(|| Zobrist::build(shape))
    }

    fn build(shape: Shape) -> Zobrist {
        let mut rng = ChaCha8Rng::from_seed(SEED);
        rng.set_stream((256 * shape.dims() + shape.side()) as u64);
        let cells = shape.cells();
        let n = shape.side();
        let pieces = (0..2 * Role::ALL.len() * cells).map(|_| rng.next_u64()).collect();
        let side = rng.next_u64();
        let en_passant = (0..cells).map(|_| rng.next_u64()).collect();
        let castling = (0..2 * n).map(|_| rng.next_u64()).collect();
        Zobrist { cells, pieces, side, en_passant, castling, n }
    }

    /// The key of `piece` on `cell`.
    #[inline]
    pub fn piece(&self, piece: Piece, cell: Cell) -> u64 {
        self.pieces[(piece.color.index() * Role::ALL.len() + piece.role.index()) * self.cells + cell.index()]
    }

    /// The key XORed in when Black is to move.
    #[inline]
    pub fn side(&self) -> u64 {
        self.side
    }

    /// The key of an en passant cell.
    #[inline]
    pub fn en_passant(&self, cell: Cell) -> u64 {
        self.en_passant[cell.index()]
    }

    /// The key of a castling right of `color` with the rook on `file` (1-based).
    #[inline]
    pub fn castling(&self, color: Color, file: u8) -> u64 {
        self.castling[color.index() * self.n + file as usize - 1]
    }
}
