//! Static exchange evaluation: what a capture wins once every piece bearing on its cell has had the
//! chance to recapture, least valuable first, each side free to stop.
//!
//! It works on the padded mailbox of every board shape: the attackers of the cell are found by walking
//! out from it along every direction (a slider behind a piece that has captured joins in, an X-ray) and by
//! looking at the knight leaps and the cells a pawn would capture from. Pins and checks are ignored, as
//! usual: the figure guides ordering and pruning, it does not decide legality.
//!
//! On 8×8 the attackers are read from the position's bitboards and the generator's attack tables
//! ([`Attacks8`]) instead, choosing among equal pieces the one the walk would find first (the same
//! exchange, so the same figure: a test compares the two on positions of many games).

use arrayvec::ArrayVec;
use std::sync::OnceLock;
use tesseract_board::mailbox::{self, EMPTY, OFFBOARD};

use tesseract_board::{Bitboards, Color, Move, Position, Role, Shape};
use tesseract_movegen::Attacks8;

use crate::eval::Tables;

/// The value given to a king in an exchange: capturing with it is only good when nothing recaptures.
const KING_VALUE: i32 = 20_000;

/// The longest exchange followed: more pieces than this bearing on one cell end the count (the swap of
/// the pieces counted so far stands).
const MAX_EXCHANGE: usize = 32;

/// The material `m` wins for the side to move (negative: it loses material), in centipawns, if both
/// sides recapture on its cell with their least valuable piece for as long as it pays. A quiet move
/// scores the loss of the moved piece if the cell is attacked, 0 otherwise.
pub(crate) fn see(t: &Tables, pos: &Position, m: Move) -> i32 {
    match pos.bitboards() {
        Some(bb) => see_by(t, pos, m, Board8 { bb, attacks: Attacks8::get(), order: order8() }),
        None => see_by(t, pos, m, Walk),
    }
}

/// How [`see_by`] finds the least valuable attacker of a cell, the cells of `removed` counting as empty:
/// its padded cell and mailbox code.
trait Attackers {
    fn least_valuable(
        &self,
        t: &Tables,
        pos: &Position,
        at: usize,
        side: Color,
        removed: &[usize],
    ) -> Option<(usize, u8)>;
}

/// The walk of the padded mailbox, on every board: [`least_valuable_attacker`].
struct Walk;

impl Attackers for Walk {
    #[inline]
    fn least_valuable(
        &self,
        t: &Tables,
        pos: &Position,
        at: usize,
        side: Color,
        removed: &[usize],
    ) -> Option<(usize, u8)> {
        least_valuable_attacker(t, pos, at, side, removed)
    }
}

/// The 8×8 bitboards.
#[derive(Copy, Clone)]
struct Board8<'a> {
    bb: &'a Bitboards,
    attacks: Attacks8,
    order: &'static [u8; 64 * 64],
}

/// `order[64 · at + from]`: the place of the step from `at` to `from` in the walk's order, the knight leaps
/// (in the geometry's order) and then the directions (likewise, every cell along the ray): the walk
/// keeps, among equally valuable attackers, the first it meets.
fn order8() -> &'static [u8; 64 * 64] {
    static ORDER: OnceLock<Box<[u8; 64 * 64]>> = OnceLock::new();
    ORDER.get_or_init(|| {
        let g = Shape::CHESS.geometry();
        let mut order = Box::new([u8::MAX; 64 * 64]);
        for at in g.all_cells() {
            for (i, l) in g.leaps().iter().enumerate() {
                if let Some(to) = g.offset(at, &l.delta) {
                    order[64 * at.index() + to.index()] = i as u8;
                }
            }
            for (i, d) in g.directions().iter().enumerate() {
                let mut cell = g.offset(at, &d.delta);
                while let Some(to) = cell {
                    order[64 * at.index() + to.index()] = 8 + i as u8;
                    cell = g.offset(to, &d.delta);
                }
            }
        }
        order
    })
}

impl Attackers for Board8<'_> {
    #[inline]
    fn least_valuable(
        &self,
        t: &Tables,
        pos: &Position,
        at: usize,
        side: Color,
        removed: &[usize],
    ) -> Option<(usize, u8)> {
        let (bb, a) = (self.bb, self.attacks);
        let to_cell = pos.geometry().padded_to_cell_table();
        let sq = usize::from(to_cell[at]);
        let gone = removed.iter().fold(0u64, |s, &p| s | 1 << to_cell[p]);
        let occ = bb.occupied() & !gone;
        let ours = bb.by_color(side) & occ;
        let mb = pos.mailbox();
        let padded = |s: usize| t.padded_of(s);
        // Pawns first, the one toward +x before the one toward −x (the walk's order).
        let pawns = a.pawn(side.other(), sq) & ours & bb.by_role(Role::YPawn);
        if pawns != 0 {
            let p = padded(63 - pawns.leading_zeros() as usize);
            return Some((p, mb[p]));
        }
        let queens = bb.by_role(Role::Queen);
        let candidates = ours
            & ((a.knight(sq) & bb.by_role(Role::Knight))
                | (a.bishop(sq, occ) & (bb.by_role(Role::Bishop) | queens))
                | (a.rook(sq, occ) & (bb.by_role(Role::Rook) | queens))
                | (a.king(sq) & bb.by_role(Role::King)));
        let mut best: Option<(i32, u8, usize)> = None;
        let mut rest = candidates;
        while rest != 0 {
            let from = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let key = (value(t, mb[padded(from)]), self.order[64 * sq + from], from);
            if best.is_none_or(|b| (key.0, key.1) < (b.0, b.1)) {
                best = Some(key);
            }
        }
        best.map(|(_, _, from)| (padded(from), mb[padded(from)]))
    }
}

/// [`see`] with the attackers found by `attackers`.
#[inline]
fn see_by(t: &Tables, pos: &Position, m: Move, attackers: impl Attackers) -> i32 {
    let g = pos.geometry();
    let mb = pos.mailbox();
    let at = g.padded(m.to);
    let from = g.padded(m.from);
    let mut removed: ArrayVec<usize, { MAX_EXCHANGE + 2 }> = ArrayVec::new();
    removed.push(from);
    let mover = mb[from];
    let target = mb[at];
    if target != EMPTY && mailbox::color(target) == pos.turn() {
        // Castling, written as the king taking its own rook: nothing changes hands.
        return 0;
    }
    let mut gain: ArrayVec<i32, { MAX_EXCHANGE + 1 }> = ArrayVec::new();
    let captured = if target != EMPTY {
        t.value_of_code(target)
    } else if let Some(ep) = pos.en_passant().filter(|ep| ep.target == m.to && is_pawn_capture(pos, m)) {
        removed.push(g.padded(ep.victim));
        t.value_of_code(mb[g.padded(ep.victim)])
    } else {
        0
    };
    let mut on_cell = match m.promotion {
        Some(p) => {
            gain.push(captured + t.value(p) - t.value(Role::YPawn));
            t.value(p)
        }
        None => {
            gain.push(captured);
            value(t, mover)
        }
    };
    let mut side = pos.turn().other();
    while gain.len() <= MAX_EXCHANGE {
        let Some((cell, code)) = attackers.least_valuable(t, pos, at, side, &removed) else {
            break;
        };
        let previous = *gain.last().expect("one gain at least");
        gain.push(on_cell - previous);
        removed.push(cell);
        on_cell = value(t, code);
        side = side.other();
    }
    // Each side chooses between the balance before its capture and the capture's outcome.
    while gain.len() > 1 {
        let last = gain.pop().expect("two gains at least");
        let before = gain.last_mut().expect("one gain at least");
        *before = -(-*before).max(last);
    }
    gain[0]
}

/// Whether `m` moves a pawn sideways along a capture axis: onto the en passant cell, a capture (in 4D
/// a pawn of the other kind may push straight onto it).
fn is_pawn_capture(pos: &Position, m: Move) -> bool {
    let g = pos.geometry();
    if !mailbox::role(pos.mailbox()[g.padded(m.from)]).is_pawn() {
        return false;
    }
    let (a, b) = (g.coords(m.from), g.coords(m.to));
    g.capture_axes().iter().any(|&k| a[k] != b[k])
}

/// The exchange value of a piece's mailbox code.
#[inline]
fn value(t: &Tables, code: u8) -> i32 {
    if mailbox::role(code) == Role::King { KING_VALUE } else { t.value_of_code(code) }
}

/// The least valuable piece of `side` attacking the padded cell `at`, the cells in `removed` counting as
/// empty: its padded cell and mailbox code.
fn least_valuable_attacker(
    t: &Tables,
    pos: &Position,
    at: usize,
    side: Color,
    removed: &[usize],
) -> Option<(usize, u8)> {
    let g = pos.geometry();
    let mb = pos.mailbox();
    let code_at = |p: usize| if removed.contains(&p) { EMPTY } else { mb[p] };
    let mut best: Option<(usize, u8, i32)> = None;
    let consider = |p: usize, code: u8, best: &mut Option<(usize, u8, i32)>| {
        let v = value(t, code);
        if best.is_none_or(|(_, _, b)| v < b) {
            *best = Some((p, code, v));
        }
    };
    // Pawns first: nothing is worth less.
    for &role in g.pawn_roles() {
        let axis = role.pawn_axis().expect("a pawn");
        let back = at as isize - side.forward() as isize * g.stride(axis) as isize;
        let code = mailbox::code(side, role);
        for &k in g.capture_axes() {
            let s = g.stride(k) as isize;
            for p in [back + s, back - s] {
                if code_at(p as usize) == code {
                    return Some((p as usize, code));
                }
            }
        }
    }
    let knight = mailbox::code(side, Role::Knight);
    for l in g.leaps() {
        let p = (at as isize + l.offset as isize) as usize;
        if code_at(p) == knight {
            consider(p, knight, &mut best);
            break;
        }
    }
    for dir in g.directions() {
        let mut p = at as isize + dir.offset as isize;
        let mut dist = 1;
        loop {
            let code = code_at(p as usize);
            if code == EMPTY {
                p += dir.offset as isize;
                dist += 1;
                continue;
            }
            if code != OFFBOARD && mailbox::color(code) == side {
                let role = mailbox::role(code);
                if role.slide_classes() & (1 << dir.class) != 0 || (dist == 1 && role == Role::King) {
                    consider(p as usize, code, &mut best);
                }
            }
            break;
        }
    }
    best.map(|(p, code, _)| (p, code))
}

#[cfg(test)]
mod tests {
    use tesseract_board::Position;
    use tesseract_movegen::san::parse_move;

    use super::*;

    // The 8×8 values: the pawn, knight, rook and queen.
    const P: i32 = 100;
    const N: i32 = crate::eval::VALUES_2D[4];
    const R: i32 = crate::eval::VALUES_2D[2];
    const Q: i32 = crate::eval::VALUES_2D[1];

    fn see_of(fen: &str, san: &str) -> i32 {
        let pos = Position::from_fen(fen).expect("a FEN");
        let m = parse_move(&pos, san).expect("a legal move");
        see(Tables::of(pos.shape()), &pos, m)
    }

    #[test]
    fn an_undefended_piece_is_won_whole() {
        assert_eq!(see_of("1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1", "Rxe5"), 100);
    }

    #[test]
    fn a_defended_pawn_taken_by_a_knight_loses_the_knight_for_a_pawn() {
        // The chessprogramming wiki's second example: Nxe5 wins a pawn, loses the knight to the bishop or
        // knight, and the rook's X-ray behind does not change it.
        assert_eq!(see_of("1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1", "Nxe5"), P - N);
    }

    #[test]
    fn x_rays_join_the_exchange() {
        // Rooks doubled on the e-file against a rook behind the pawn: after R×p, R×R, R×R Black is a
        // rook down, so Black does not recapture and the pawn is won.
        assert_eq!(see_of("4r1k1/8/8/4p3/8/8/4R3/4R1K1 w - - 0 1", "Rxe5"), 100);
        // Without the second rook the recapture wins the rook for the pawn.
        assert_eq!(see_of("4r1k1/8/8/4p3/8/8/4R3/6K1 w - - 0 1", "Rxe5"), P - R);
        // A rook taking a pawn that a pawn defends loses the rook for two pawns.
        assert_eq!(see_of("4k3/8/3p4/4p3/8/8/4R3/4R1K1 w - - 0 1", "Rxe5"), P - R + P);
    }

    #[test]
    fn each_side_may_stop_the_exchange() {
        // Qxd5 takes a defended pawn: the queen is lost for a pawn, the rook behind does not save it.
        assert_eq!(see_of("3r2k1/8/8/3p4/8/8/3Q4/3R2K1 w - - 0 1", "Qxd5"), P - Q + R);
        // The king recaptures only where nothing takes it back: not on f7 with the bishop on c4.
        assert_eq!(see_of("6k1/5p2/8/8/2B5/8/8/5RK1 w - - 0 1", "Rxf7"), 100);
        assert_eq!(see_of("6k1/5p2/8/8/8/8/8/5RK1 w - - 0 1", "Rxf7"), P - R);
    }

    /// On random positions of every board the search plays (4D armies, chess, Chess960): the first
    /// recapture the exchange finds exists exactly when the board's own attack test
    /// ([`Position::is_attacked`], separate code) says the cell is attacked after the capture, and a
    /// capture nobody takes back wins its victim whole.
    #[test]
    fn the_first_recapture_agrees_with_the_attack_test() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{Rng, SeedableRng};
        use tesseract_board::start::{self, Army};
        use tesseract_movegen::legal_moves;

        let starts = [
            start::tesseract(Army::Light),
            start::tesseract(Army::Standard),
            start::tesseract(Army::Dense),
            start::raumschach(),
            start::chess(),
            start::chess960(518).expect("a Chess960 start"),
        ];
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let mut captures = 0;
        for start in &starts {
            for _ in 0..8 {
                let mut pos = start.clone();
                for _ in 0..60 {
                    let moves = legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    for &m in &moves {
                        let g = pos.geometry();
                        let target = pos.mailbox()[g.padded(m.to)];
                        let en_passant =
                            pos.en_passant().is_some_and(|ep| ep.target == m.to && is_pawn_capture(&pos, m));
                        let capture = (target != EMPTY && mailbox::color(target) != pos.turn()) || en_passant;
                        if !capture || m.promotion.is_some() {
                            continue;
                        }
                        captures += 1;
                        let t = Tables::of(pos.shape());
                        let mut removed = vec![g.padded(m.from)];
                        if en_passant {
                            removed.push(g.padded(pos.en_passant().expect("en passant").victim));
                        }
                        let first = least_valuable_attacker(t, &pos, g.padded(m.to), pos.turn().other(), &removed);
                        let mut after = pos.clone();
                        after.make(m);
                        assert_eq!(first.is_some(), after.is_attacked(m.to, pos.turn().other()), "{m:?} in {pos:?}");
                        let victim = if en_passant {
                            t.value_of_code(pos.mailbox()[g.padded(pos.en_passant().expect("en passant").victim)])
                        } else {
                            t.value_of_code(target)
                        };
                        let value = see(t, &pos, m);
                        assert!(value <= victim, "{m:?} in {pos:?}");
                        if first.is_none() {
                            assert_eq!(value, victim, "{m:?} in {pos:?}");
                        }
                    }
                    let m = moves[rng.next_u32() as usize % moves.len()];
                    pos.make(m);
                }
            }
        }
        assert!(captures > 1000, "{captures} captures checked");
    }

    /// Every move of the positions of random games from the classic and Chess960 starts (quiet moves too:
    /// the search asks their exchange): the bitboards' exchange is the walk's, under the engine's values
    /// and under values where a knight is worth a bishop and a rook a queen (ties the order must settle).
    #[test]
    fn the_8x8_bitboard_exchange_is_the_walks() {
        use rand_chacha::ChaCha8Rng;
        use rand_core::{Rng, SeedableRng};
        use tesseract_board::start;

        use crate::eval::{WEIGHTS_2D, Weights};
        let mut ties: Weights = WEIGHTS_2D;
        ties.values[Role::Knight.index()] = ties.values[Role::Bishop.index()];
        ties.values[Role::Rook.index()] = ties.values[Role::Queen.index()];
        let tables = [Tables::of(Shape::CHESS), Tables::with(Shape::CHESS, &ties)];
        let mut rng = ChaCha8Rng::seed_from_u64(35);
        let mut moves_seen = 0;
        for game in 0..60u32 {
            let mut pos = if game % 2 == 0 { start::chess() } else { start::chess960(game * 13 % 960).unwrap() };
            for _ in 0..250 {
                let moves = tesseract_movegen::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                let board = Board8 { bb: pos.bitboards().unwrap(), attacks: Attacks8::get(), order: order8() };
                let g = pos.geometry();
                for &m in &moves {
                    for t in tables {
                        assert_eq!(see_by(t, &pos, m, Walk), see_by(t, &pos, m, board), "{m:?} in {}", pos.fen());
                        // The attackers themselves, one by one as the exchange takes them, for both sides.
                        for side in Color::ALL {
                            let (at, mut removed) = (g.padded(m.to), vec![g.padded(m.from)]);
                            loop {
                                let walk = Walk.least_valuable(t, &pos, at, side, &removed);
                                assert_eq!(walk, board.least_valuable(t, &pos, at, side, &removed), "{}", pos.fen());
                                match walk {
                                    Some((cell, _)) => removed.push(cell),
                                    None => break,
                                }
                            }
                        }
                    }
                    moves_seen += 1;
                }
                pos.make(moves[rng.next_u32() as usize % moves.len()]);
            }
        }
        assert!(moves_seen > 200_000, "{moves_seen} moves");
    }

    #[test]
    fn en_passant_and_promotion_count() {
        assert_eq!(see_of("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", "exd6"), 100);
        // A promotion on a guarded cell: the new queen is taken back, a pawn lost.
        assert_eq!(see_of("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "c8=Q"), -P);
        // Castling (the king takes its own rook, whose cell the rook on h8 attacks) changes no material.
        assert_eq!(see_of("4k2r/8/8/8/8/8/8/4K2R w K - 0 1", "O-O"), 0);
        // Taking the rook with promotion, then losing the queen to the king.
        assert_eq!(see_of("3rk3/2P5/8/8/8/8/8/4K3 w - - 0 1", "cxd8=Q+"), R + (Q - P) - Q);
    }
}
