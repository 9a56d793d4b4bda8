//! Symmetric positions and color-swapped positions probe alike: the reduction loses nothing.

mod common;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{CastlingMode, Color, Piece, Position, Setup, Shape};
use tesseract_tablebase::Tablebases;

/// `setup` with its axes permuted by `perm` and the axes in `flips` reflected (coordinates from 1).
fn transformed(setup: &Setup, perm: &[usize], flips: u32) -> Setup {
    let g = setup.shape.geometry();
    let n = setup.shape.side() as u8;
    let mut out = setup.clone();
    out.board = vec![None; setup.board.len()];
    for cell in g.all_cells() {
        if let Some(p) = setup.piece(cell) {
            let c = g.coords(cell);
            let mut t = [0u8; 4];
            for axis in 0..g.dims() {
                let v = c[perm[axis]];
                t[axis] = if flips >> axis & 1 == 1 { n + 1 - v } else { v };
            }
            out.board[g.cell(&t[..g.dims()]).unwrap().index()] = Some(p);
        }
    }
    out
}

#[test]
fn every_symmetry_and_the_color_swap_keep_the_value() {
    check(&[(Shape::CHESS, "KRKN"), (Shape::RAUMSCHACH, "KRK")]);
}

#[test]
#[ignore = "seconds in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn every_symmetry_of_the_4d_board_keeps_the_value() {
    check(&[(Shape::TESSERACT, "KRK")]);
}

fn check(cases: &[(Shape, &str)]) {
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_203);
    for &(shape, material) in cases {
        let mut tables = Tablebases::new();
        let table = common::generate(&mut tables, shape, material);
        let d = shape.dims();
        let mut tried = 0;
        while tried < 300 {
            // A random position of the table's material, either side to move.
            let mut setup = Setup::empty(shape);
            for &(color, role) in &table.material().layout() {
                loop {
                    let cell = rng.next_u32() as usize % shape.cells();
                    if setup.board[cell].is_none() {
                        setup.board[cell] = Some(Piece::new(color, role));
                        break;
                    }
                }
            }
            setup.turn = if rng.next_u32() % 2 == 0 { Color::White } else { Color::Black };
            let Ok(pos) = Position::from_setup(setup.clone(), CastlingMode::Standard) else { continue };
            tried += 1;
            let value = tables.probe(&pos).expect("in the table");
            let mut perm: Vec<usize> = (0..d).collect();
            for i in (1..d).rev() {
                perm.swap(i, rng.next_u32() as usize % (i + 1));
            }
            let flips = rng.next_u32() % (1 << d);
            let image = Position::from_setup(transformed(&setup, &perm, flips), CastlingMode::Standard).unwrap();
            assert_eq!(tables.probe(&image), Some(value), "{} vs its image {}", pos.fen(), image.fen());
            // Colors swapped (and the board reflected, as Setup::mirrored does): the same value.
            let swapped = Position::from_setup(setup.mirrored(), CastlingMode::Standard).unwrap();
            assert_eq!(tables.probe(&swapped), Some(value), "{} vs {}", pos.fen(), swapped.fen());
        }
    }
}
