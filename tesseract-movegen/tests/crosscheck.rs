//! The fast and the naive generators against each other, and the position's invariants, over trees and
//! over positions reached by seeded random play.

use std::collections::BTreeSet;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{Move, Position, Setup, fen::CastlingNotation, start};
use tesseract_movegen::{Legal, empty_board_moves, legal_moves, naive, perft};

fn sorted(moves: impl IntoIterator<Item = Move>) -> Vec<Move> {
    let mut v: Vec<Move> = moves.into_iter().collect();
    v.sort();
    v
}

/// Compares the two generators at `pos`, and every child position made by the fast path (make) with the
/// one made by the naive path (play on plain data). Returns the number of moves.
fn compare_node(pos: &mut Position) -> usize {
    let setup = pos.to_setup();
    let fast = sorted(legal_moves(pos));
    let slow = sorted(naive::legal_moves(&setup));
    if fast != slow {
        let f: BTreeSet<_> = fast.iter().collect();
        let s: BTreeSet<_> = slow.iter().collect();
        panic!(
            "generators disagree at {}\n  only fast: {:?}\n  only naive: {:?}",
            pos.fen(),
            f.difference(&s).collect::<Vec<_>>(),
            s.difference(&f).collect::<Vec<_>>()
        );
    }
    for &m in &fast {
        let before = pos.clone();
        let undo = pos.make(m);
        let expected = Position::from_setup(naive::play(&setup, m), pos.castling_mode())
            .unwrap_or_else(|e| panic!("naive child of {} by {m:?} is invalid: {e}", before.fen()));
        assert_eq!(*pos, expected, "make and naive play differ after {m:?} from {}", before.fen());
        assert_eq!(pos.hash(), expected.hash(), "incremental hash differs from scratch");
        pos.unmake(m, undo);
        assert_eq!(*pos, before, "unmake did not restore the position");
        assert_eq!(pos.hash(), before.hash(), "unmake did not restore the hash");
    }
    fast.len()
}

#[test]
fn empty_board_constants_of_rules_section_2() {
    use tesseract_board::{Role, Shape};
    let expected = [
        (Role::Rook, 10_000),
        (Role::Bishop, 18_000),
        (Role::Unicorn, 16_000),
        (Role::Dragon, 5_664),
        (Role::Queen, 49_664),
        (Role::King, 27_936),
        (Role::Knight, 14_400),
    ];
    for (role, count) in expected {
        assert_eq!(empty_board_moves(Shape::TESSERACT, role), count, "{role}");
    }
}

#[test]
fn generators_agree_at_every_node_of_perft_2_from_the_three_starts() {
    for army in start::Army::ALL {
        let mut pos = start::tesseract(army);
        let mut nodes = 0;
        let root_moves = legal_moves(&pos);
        compare_node(&mut pos);
        for &m in &root_moves {
            let undo = pos.make(m);
            nodes += compare_node(&mut pos);
            pos.unmake(m, undo);
        }
        assert_eq!(nodes as u64, army.perft()[1], "{army:?}");
    }
}

#[test]
fn perft_of_the_three_starts_in_4d() {
    for army in start::Army::ALL {
        let counts = army.perft();
        let mut pos = start::tesseract(army);
        let depths = if cfg!(debug_assertions) { 2 } else { 3 };
        for d in 1..=depths {
            assert_eq!(perft(&mut pos, d as u32), counts[d - 1], "{army:?} perft({d})");
        }
    }
}

/// What a sample of positions contains.
#[derive(Default, Debug)]
struct Features {
    positions: usize,
    checks: usize,
    double_checks: usize,
    pins: usize,
    en_passant: usize,
    promotions: usize,
    castling: usize,
    mates_or_stalemates: usize,
}

/// Whether a piece of the side to move is pinned: lifting it off the board puts its king in check.
fn has_pin(pos: &Position) -> bool {
    if pos.is_check() {
        return false;
    }
    let us = pos.turn();
    let setup = pos.to_setup();
    pos.pieces().filter(|(_, p)| p.color == us && p.role != tesseract_board::Role::King).any(|(cell, _)| {
        let mut s: Setup = setup.clone();
        s.board[cell.index()] = None;
        s.en_passant = None;
        Position::from_setup(s, pos.castling_mode()).is_ok_and(|p| p.is_check())
    })
}

fn record(pos: &Position, f: &mut Features) {
    let moves = legal_moves(pos);
    f.positions += 1;
    f.checks += pos.is_check() as usize;
    f.pins += has_pin(pos) as usize;
    f.mates_or_stalemates += moves.is_empty() as usize;
    let checkers = pos.pieces().filter(|&(c, p)| {
        p.color != pos.turn() && {
            let mut s = pos.to_setup();
            s.board[c.index()] = None;
            s.en_passant = None;
            Position::from_setup(s, pos.castling_mode()).is_ok_and(|q| !q.is_check())
        }
    });
    f.double_checks += (pos.is_check() && checkers.count() == 0) as usize;
    if let Some(ep) = pos.en_passant() {
        f.en_passant +=
            moves.iter().any(|m| m.to == ep.target && pos.piece_at(m.from).is_some_and(|p| p.role.is_pawn())) as usize;
    }
    f.promotions += moves.iter().any(|m| m.promotion.is_some()) as usize;
    f.castling += moves.iter().any(|m| pos.piece_at(m.to).is_some_and(|p| p.color == pos.turn())) as usize;
}

/// Plays `plies` random legal moves, three times in four choosing among captures and pawn moves when
/// there are any, so that the sample reaches checks, en passant and promotions.
fn random_walk(pos: &mut Position, rng: &mut ChaCha8Rng, plies: usize, mut visit: impl FnMut(&mut Position)) {
    for _ in 0..plies {
        visit(pos);
        let moves = legal_moves(pos);
        if moves.is_empty() {
            return;
        }
        let lively: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| pos.piece_at(m.to).is_some() || pos.piece_at(m.from).is_some_and(|p| p.role.is_pawn()))
            .collect();
        let pool: &[Move] = if !lively.is_empty() && rng.next_u64() % 4 != 0 { &lively } else { &moves };
        let m = pool[(rng.next_u64() % pool.len() as u64) as usize];
        pos.play(m).expect("a legal move");
    }
}

#[test]
fn generators_agree_on_random_positions_with_checks_pins_en_passant_and_promotions() {
    let mut rng = ChaCha8Rng::seed_from_u64(0x7e55_e4ac7);
    let mut features = Features::default();
    let walks = if cfg!(debug_assertions) { 4 } else { 12 };
    for army in start::Army::ALL {
        for _ in 0..walks {
            let mut pos = start::tesseract(army);
            let mut plies = 0;
            random_walk(&mut pos, &mut rng, 200, |p| {
                plies += 1;
                record(p, &mut features);
                if plies % 3 == 0 {
                    compare_node(p);
                }
            });
        }
    }
    println!("{features:?}");
    assert!(features.positions >= 300, "{features:?}");
    assert!(
        features.checks > 0 && features.pins > 0 && features.en_passant > 0 && features.promotions > 0,
        "{features:?}"
    );
}

#[test]
fn generators_agree_on_random_2d_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut features = Features::default();
    for game in 0..40 {
        let mut pos =
            if game % 2 == 0 { start::chess() } else { start::chess960((rng.next_u64() % 960) as u32).unwrap() };
        random_walk(&mut pos, &mut rng, 120, |p| {
            record(p, &mut features);
            compare_node(p);
        });
    }
    println!("{features:?}");
    assert!(features.positions >= 1000, "{features:?}");
    assert!(
        features.checks > 0
            && features.pins > 0
            && features.en_passant > 0
            && features.promotions > 0
            && features.castling > 0,
        "{features:?}"
    );
}

#[test]
fn text_round_trips_on_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut checked = 0;
    for game in 0..30 {
        let mut pos = match game % 5 {
            0 => start::chess(),
            1 => start::chess960((rng.next_u64() % 960) as u32).unwrap(),
            2 => start::tesseract(start::Army::Light),
            3 => start::tesseract(start::Army::Standard),
            _ => start::tesseract(start::Army::Dense),
        };
        random_walk(&mut pos, &mut rng, 100, |p| {
            checked += 1;
            let text = p.fen();
            let back = Position::from_fen_with_mode(&text, p.castling_mode()).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(back, *p, "{text}");
            assert_eq!(back.hash(), p.hash());
            let shredder = p.fen_with(CastlingNotation::Shredder);
            assert_eq!(Position::from_fen_with_mode(&shredder, p.castling_mode()).unwrap(), *p, "{shredder}");
            // Every legal move's text resolves back to the move.
            for m in legal_moves(p) {
                let text = tesseract_board::TextMove::from_move(m, p);
                assert_eq!(p.resolve(&text), Ok(m), "{text} in {}", p.fen());
            }
        });
    }
    assert!(checked > 1000);
}

/// A Raumschach-size (5³) position: the generators were written for any shape, so 3D needs no new code.
#[test]
fn generators_agree_on_a_3d_board() {
    use tesseract_board::{CastlingMode, Color, Piece, Role, Shape};
    let mut setup = Setup::empty(Shape::RAUMSCHACH);
    let back = [Role::Rook, Role::Knight, Role::King, Role::Knight, Role::Rook];
    let second = [Role::Bishop, Role::Unicorn, Role::Queen, Role::Bishop, Role::Unicorn];
    for x in 1..=5u8 {
        for color in Color::ALL {
            let flip = |c: [u8; 3]| if color == Color::White { c } else { c.map(|v| 6 - v) };
            setup.put(&flip([x, 1, 1]), Some(Piece::new(color, back[x as usize - 1])));
            setup.put(&flip([x, 1, 2]), Some(Piece::new(color, second[x as usize - 1])));
            setup.put(&flip([x, 2, 1]), Some(Piece::new(color, Role::YPawn)));
            setup.put(&flip([x, 2, 2]), Some(Piece::new(color, Role::YPawn)));
        }
    }
    let mut pos = Position::from_setup(setup, CastlingMode::Standard).expect("a valid 3D position");
    let fast = perft(&mut pos, 3);
    assert_eq!(fast, naive::perft(&pos.to_setup(), 3));
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut compared = 0;
    for _ in 0..6 {
        let mut p = pos.clone();
        random_walk(&mut p, &mut rng, 80, |q| {
            compared += 1;
            compare_node(q);
        });
    }
    assert!(compared > 200);
}

/// The Raumschach-like start (RULES.md §8): its perft figures, counted by each generator on its own
/// (they share no code, and no outside reference exists for this position), and the two generators
/// compared move for move, and make against naive play, at every node of perft(2).
#[test]
fn perft_of_the_raumschach_start_by_both_generators() {
    const COUNTS: [u64; 3] = [66, 4_230, 298_923];
    let mut pos = start::raumschach();
    let setup = pos.to_setup();
    for (d, &want) in COUNTS.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(perft(&mut pos, depth), want, "fast perft({depth})");
        assert_eq!(naive::perft(&setup, depth), want, "naive perft({depth})");
    }
    let mut nodes = 0;
    compare_node(&mut pos);
    for m in legal_moves(&pos) {
        let undo = pos.make(m);
        nodes += compare_node(&mut pos);
        pos.unmake(m, undo);
    }
    assert_eq!(nodes as u64, COUNTS[1]);
}

/// perft(4) of the Raumschach-like start by both generators (RULES.md §8): a second or two for the fast
/// one, about half a minute for the naive one in release.
#[test]
#[ignore = "about 30 s in release; run with --release -- --ignored"]
fn perft_4_of_the_raumschach_start_by_both_generators() {
    let mut pos = start::raumschach();
    assert_eq!(perft(&mut pos, 4), 21_077_252);
    assert_eq!(naive::perft(&pos.to_setup(), 4), 21_077_252);
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(24))]

    /// make/unmake of every legal move restores the position and its hash, and the incremental hash of
    /// every child equals the hash computed from scratch, on positions reached by seeded random play.
    #[test]
    fn make_unmake_restores_everything(seed in proptest::prelude::any::<u64>(), plies in 0usize..60, which in 0usize..5) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut pos = match which {
            0 => start::chess(),
            1 => start::chess960((seed % 960) as u32).unwrap(),
            2 => start::tesseract(start::Army::Light),
            3 => start::tesseract(start::Army::Standard),
            _ => start::tesseract(start::Army::Dense),
        };
        random_walk(&mut pos, &mut rng, plies, |_| {});
        let before = pos.clone();
        for m in legal_moves(&pos) {
            let undo = pos.make(m);
            proptest::prop_assert_eq!(pos.hash(), pos.hash_from_scratch());
            pos.unmake(m, undo);
            proptest::prop_assert_eq!(&pos, &before);
            proptest::prop_assert_eq!(pos.hash(), before.hash());
        }
        let text = pos.fen();
        proptest::prop_assert_eq!(Position::from_fen_with_mode(&text, pos.castling_mode()).unwrap(), pos);
    }
}
