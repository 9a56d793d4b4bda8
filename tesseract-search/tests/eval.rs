//! The evaluation's symmetry: a position and its color-flipped point reflection σ score equal and
//! opposite, on positions from seeded random play in 4D (all three armies), classic chess and Chess960
//! (there also under weights for the 8×8 terms the engine weighs 0).

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{CastlingMode, Position, Role, Shape, start};
use tesseract_movegen::legal_moves;
use tesseract_search::eval::{Evaluator, Weights, evaluate, evaluate_white, piece_value};

fn mirrored(pos: &Position) -> Position {
    // In 2D the reflection puts the king on the d-file: castling rights then need the Chess960 rules.
    let mode = if pos.geometry().dims() == 2 { CastlingMode::Chess960 } else { pos.castling_mode() };
    Position::from_setup(pos.to_setup().mirrored(), mode).expect("the reflection of a valid position is valid")
}

/// Positions along seeded random games from `start`.
fn walk(start: Position, seed: u64, plies: usize) -> Vec<Position> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = start;
    let mut out = vec![pos.clone()];
    for _ in 0..plies {
        let moves = legal_moves(&pos);
        if moves.is_empty() {
            break;
        }
        // Prefer captures half of the time, so that material becomes unbalanced.
        let captures: Vec<_> = moves.iter().copied().filter(|m| pos.piece_at(m.to).is_some()).collect();
        let m = if !captures.is_empty() && rng.next_u32() % 2 == 0 {
            captures[(rng.next_u64() % captures.len() as u64) as usize]
        } else {
            moves[(rng.next_u64() % moves.len() as u64) as usize]
        };
        pos.make(m);
        out.push(pos.clone());
    }
    out
}

#[test]
fn mirror_image_scores_opposite() {
    let starts = [
        start::tesseract(start::Army::Light),
        start::tesseract(start::Army::Standard),
        start::tesseract(start::Army::Dense),
        start::chess(),
        start::chess960(123).unwrap(),
        start::chess960(777).unwrap(),
    ];
    // The 8×8 terms the engine weighs 0 (tried, not adopted), given weights: the same symmetry.
    let mut tried = Weights::of(2);
    (tried.phalanx, tried.backward, tried.storm) = ((13, 7), (-25, -1), [30, -18, -3]);
    (tried.outpost, tried.trapped) = ([(28, 20), (31, 3)], (-16, -33));
    let tried = Evaluator::new(Shape::CHESS, &tried);
    let mut checked = 0;
    for (i, s) in starts.into_iter().enumerate() {
        for seed in 0..4 {
            for pos in walk(s.clone(), 100 * i as u64 + seed, 80) {
                let flipped = mirrored(&pos);
                assert_eq!(evaluate_white(&flipped), -evaluate_white(&pos), "{}", pos.fen());
                // From the side to move's point of view the two are the same.
                assert_eq!(evaluate(&flipped), evaluate(&pos), "{}", pos.fen());
                if pos.geometry().dims() == 2 {
                    assert_eq!(tried.evaluate_white(&flipped), -tried.evaluate_white(&pos), "{}", pos.fen());
                }
                checked += 1;
            }
        }
    }
    assert!(checked > 1500);
}

#[test]
fn material_counts() {
    // A queen up is worth about a queen.
    let pos = Position::from_fen("4k3/8/8/8/8/8/8/3QK3 w - - 0 1").unwrap();
    let v = evaluate_white(&pos);
    let queen = piece_value(2, Role::Queen);
    assert!((queen - 200..queen + 300).contains(&v), "{v}");
    // The documented 4D values.
    let values: Vec<i32> =
        [Role::YPawn, Role::Dragon, Role::Rook, Role::Knight, Role::Bishop, Role::Unicorn, Role::Queen]
            .iter()
            .map(|&r| piece_value(4, r))
            .collect();
    assert_eq!(values, [100, 170, 325, 425, 455, 460, 1210]);
}

#[test]
fn pawns_gain_as_they_advance() {
    let back = Position::from_fen("4k3/8/8/8/8/8/P7/4K3 w - - 0 1").unwrap();
    let forward = Position::from_fen("4k3/P7/8/8/8/8/8/4K3 w - - 0 1").unwrap();
    assert!(evaluate_white(&forward) > evaluate_white(&back) + 100);
}
