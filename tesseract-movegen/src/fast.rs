//! The fast legal move generator.
//!
//! Per node it scans out from the side to move's king once, along every direction and knight leap, and
//! records the checkers and the pinned pieces with their pin rays. Then:
//! - in double check only king moves are generated;
//! - in single check every other move must capture the checker or land between it and the king;
//! - a pinned piece moves only along its pin ray (a pinned knight not at all);
//! - a king move is kept when its destination is not attacked with the king lifted off the board (so a
//!   slider's ray through the king's old cell counts);
//! - en passant, which removes two pieces from their cells, is checked by playing it on a scratch copy of
//!   the mailbox, so a capture that exposes the king along any ray is refused;
//! - castling (2D) follows the Chess960 rule, which includes classic chess.
//!
//! Moves are handed out piece by piece ([`generate`]), so a caller that only counts them ([`count`], the
//! last ply of perft) never builds a full list; [`legal_moves`] collects them.
//!
//! # Two back ends
//!
//! The scan above is the padded-mailbox generator: it serves every shape. On the 8×8 board (classic chess
//! and Chess960), where [`Position::bitboards`] is `Some`, every public function here ([`generate`],
//! [`generate_until`], [`legal_moves`], [`legal_moves_into`], [`noisy_moves`], [`moves_from`], [`count`],
//! and through them perft and the engine) uses a bitboard back end instead:
//! - checks and pins come from the enemy sliders that share a line with the king on the empty board
//!   (nothing between: a checker; exactly one piece between and it is ours: pinned, free to move only
//!   along that line) and from the knight and pawn tables; the check mask is the checker and the cells
//!   between it and the king;
//! - slider attacks are magic bitboard lookups (one shared "fancy" table; the magic numbers were made by
//!   our own search from a fixed seed, and tests find them again and check every entry against a ray walk);
//! - a king destination is tested with the king lifted off the occupancy; en passant by the full test of
//!   the king with both pawns lifted and the target filled (the rank case included); castling by the same
//!   Chess960 rule as here;
//! - [`count`] adds up population counts piece by piece, the unpinned pawns set-wise.
//!
//! **Both back ends give the same moves in the same order** (the king's in direction order then castling,
//! then each piece in [`Position::piece_list`] order; along each direction outward; knights in leap order;
//! pawns push, double step, captures), so the engine's bench signature, recorded games and seeded random
//! games do not depend on which one ran. `tests/bitboard.rs` compares them move for move, piece by piece, in
//! both modes, at every node of the chess suites' trees, on random games from all 960 Chess960 starts
//! and on positions made for en passant pins, castling through check and promotions; the mailbox path stays
//! reachable on 8×8 for it through the hidden [`generate_until_mailbox`] and [`count_mailbox`].

use std::ops::ControlFlow;

use arrayvec::ArrayVec;
use tesseract_board::mailbox::{self, EMPTY, OFFBOARD};
use tesseract_board::{CastlingSide, Cell, Color, MAX_MOVES, Move, Position, Role};

use crate::board8;
use crate::tables::{LEAP, PROMOTES, PROMOTES_TWICE, PawnSteps, START_ROW, Tables, pawn_bit};

/// A list of moves with room for the most moves any valid position can have ([`MAX_MOVES`], worked out
/// in `tesseract_board`).
pub type MoveList = ArrayVec<Move, MAX_MOVES>;

/// Runs `f` with an empty [`MoveList`] of this thread's: a list on the stack is 60 KB, whose pages a
/// function that holds one touches at every call (stack probes), where the few moves of a SAN or a
/// legality check need only a handful of cache lines.
pub(crate) fn with_move_list<T>(f: impl FnOnce(&mut MoveList) -> T) -> T {
    thread_local! {
        static POOL: std::cell::RefCell<Vec<Box<MoveList>>> = const { std::cell::RefCell::new(Vec::new()) };
    }
    let mut list = POOL.with(|pool| pool.borrow_mut().pop()).unwrap_or_default();
    list.clear();
    let out = f(&mut list);
    // Back to the pool (unless the thread is ending).
    let _ = POOL.try_with(|pool| pool.borrow_mut().push(list));
    out
}

/// The most moves one piece can have on a supported board: a queen in the middle of a 9⁴ board reaches
/// 4 cells along each of 80 directions (320); a promoting pawn has at most 5 destinations × 6 pieces.
pub const MAX_PIECE_MOVES: usize = 320;

/// Which moves a generator call produces, chosen at compile time.
pub trait GenMode {
    /// Whether quiet moves (neither captures nor promotions) are produced.
    const QUIETS: bool;
}

/// Every legal move.
#[derive(Debug, Clone, Copy)]
pub struct AllMoves;
impl GenMode for AllMoves {
    const QUIETS: bool = true;
}

/// Captures (en passant included) and promotions only, for quiescence search.
#[derive(Debug, Clone, Copy)]
pub struct Noisy;
impl GenMode for Noisy {
    const QUIETS: bool = false;
}

/// The legal moves of one piece, handed to the callback of [`generate`].
#[derive(Debug, Clone, Copy)]
pub struct PieceMoves<'a> {
    /// The piece's cell.
    pub from: Cell,
    /// The piece's kind.
    pub role: Role,
    /// Its legal moves (one per promotion piece for a promoting pawn).
    pub moves: &'a [Move],
}

type Buf = ArrayVec<Move, MAX_PIECE_MOVES>;

/// Where generated moves go: a buffer of moves, or a counter when only the number matters (the last
/// ply of perft), which then never builds a move.
trait Sink {
    /// A move from `from` to mailbox index `q`.
    fn push(&mut self, from: Cell, q: usize, to_cell: &[u16]);
    /// One move per promotion piece.
    fn push_promotions(&mut self, from: Cell, q: usize, to_cell: &[u16], roles: &[Role]);
}

impl Sink for Buf {
    #[inline]
    fn push(&mut self, from: Cell, q: usize, to_cell: &[u16]) {
        ArrayVec::push(self, Move::new(from, Cell::new(to_cell[q])));
    }

    #[inline]
    fn push_promotions(&mut self, from: Cell, q: usize, to_cell: &[u16], roles: &[Role]) {
        let to = Cell::new(to_cell[q]);
        for &r in roles {
            ArrayVec::push(self, Move::with_promotion(from, to, Some(r)));
        }
    }
}

/// Counts moves without building them.
struct Counter(usize);

impl Sink for Counter {
    #[inline]
    fn push(&mut self, _: Cell, _: usize, _: &[u16]) {
        self.0 += 1;
    }

    #[inline]
    fn push_promotions(&mut self, _: Cell, _: usize, _: &[u16], roles: &[Role]) {
        self.0 += roles.len();
    }
}

/// What the king scan found.
struct Node<'a> {
    t: &'static Tables,
    pos: &'a Position,
    mb: &'a [u8],
    to_cell: &'a [u16],
    us: Color,
    them: Color,
    king: usize,
    checkers: usize,
    /// Cells that answer a single check: the checker and the cells between it and the king.
    targets: ArrayVec<u16, 16>,
    /// Pinned pieces and the offset of their pin ray: at most one per line through the king, so at most
    /// as many as directions, 3⁴ − 1 = 80 on the largest boards (a small node is cheap to build).
    pins: ArrayVec<(u16, i32), 80>,
}

/// The set bits of a direction mask, lowest first. The mask is walked as two 64-bit halves: taking the
/// lowest bit of a 128-bit number costs about twice the instructions, once per direction of every piece.
struct Bits {
    lo: u64,
    hi: u64,
}

impl Bits {
    #[inline]
    fn of(mask: u128) -> Bits {
        Bits { lo: mask as u64, hi: (mask >> 64) as u64 }
    }
}

impl Iterator for Bits {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.lo != 0 {
            let i = self.lo.trailing_zeros() as usize;
            self.lo &= self.lo - 1;
            Some(i)
        } else if self.hi != 0 {
            let i = self.hi.trailing_zeros() as usize;
            self.hi &= self.hi - 1;
            Some(64 + i)
        } else {
            None
        }
    }
}

/// `1 << i` for a direction mask, read from a table: a 128-bit shift by a variable amount takes about
/// ten instructions, paid for every neighbour of the king at every node.
#[inline]
fn bit(i: usize) -> u128 {
    const BIT: [u128; 128] = {
        let mut table = [0u128; 128];
        let mut i = 0;
        while i < 128 {
            table[i] = 1 << i;
            i += 1;
        }
        table
    };
    BIT[i]
}

#[inline]
fn step(p: usize, off: i32) -> usize {
    (p as isize + off as isize) as usize
}

impl<'a> Node<'a> {
    /// Builds the node of `pos` and hands it to `f`. The node lives in this frame and is never moved:
    /// returning it (a constructor) copied its pin and target lists, 752 bytes, at every node of perft.
    #[inline(always)]
    fn with<R>(pos: &'a Position, f: impl FnOnce(&Node<'a>) -> R) -> R {
        let t = Tables::of(pos.shape());
        let us = pos.turn();
        let them = us.other();
        let mb = pos.mailbox();
        let king = pos.king_padded(us);
        let mut node = Node {
            t,
            pos,
            mb,
            to_cell: t.geo.padded_to_cell_table(),
            us,
            them,
            king,
            checkers: 0,
            targets: ArrayVec::new(),
            pins: ArrayVec::new(),
        };
        node.scan();
        f(&node)
    }

    /// Finds the checkers and the pinned pieces.
    fn scan(&mut self) {
        let (t, pos, mb, us, them, king) = (self.t, self.pos, self.mb, self.us, self.them, self.king);
        // Every enemy piece that lines up with the king is a checker (nothing between), a pinner (one of
        // ours between) or harmless; the relation table says in one load whether and along which line.
        for &s in pos.piece_list(them) {
            let s = s as usize;
            let rel = t.relation(s, king);
            if rel == 0 {
                continue;
            }
            let c = mb[s];
            if rel == LEAP {
                if mailbox::role(c) == Role::Knight {
                    self.add_checker(s, 0);
                }
                continue;
            }
            let i = (rel - 1) as usize;
            let off = t.dirs[i];
            if t.slides[c as usize] & (1 << t.dir_class[i]) != 0 {
                let mut q = step(s, off);
                let mut blocker = usize::MAX;
                let mut blocked = false;
                while q != king {
                    let cq = mb[q];
                    if cq != EMPTY {
                        if blocker == usize::MAX && mailbox::color(cq) == us {
                            blocker = q;
                        } else {
                            blocked = true;
                            break;
                        }
                    }
                    q = step(q, off);
                }
                if blocked {
                    continue;
                }
                if blocker == usize::MAX {
                    self.add_checker(s, off);
                } else {
                    self.pins.push((blocker as u16, off));
                }
            } else if step(s, off) == king && t.pawn_captures_along[them.index()][i] & pawn_bit(mailbox::role(c)) != 0 {
                self.add_checker(s, 0);
            }
        }
    }

    /// Records a checker at `s`; `off` is the step from it toward the king for a slider (0 otherwise),
    /// so the cells it passes are the interpositions.
    fn add_checker(&mut self, s: usize, off: i32) {
        self.checkers += 1;
        if self.checkers == 1 {
            let mut q = s;
            loop {
                self.targets.push(q as u16);
                if off == 0 {
                    break;
                }
                q = step(q, off);
                if q == self.king {
                    break;
                }
            }
        }
    }

    /// Which of the king's neighbours in `cand` (bit `i`: the neighbour along direction `i`) an enemy
    /// piece attacks with our king lifted off the board. Each enemy piece costs one load of the zone
    /// table, which names the few neighbours it lines up with (a slider) or stands a step or a leap from
    /// (another piece), usually none; only those are checked. Asking every enemy slider and every piece
    /// near the king about each destination instead cost a third of perft's time in 4D, where kings often
    /// have twenty destinations. (Skipping the neighbours already found attacked, or stopping when all
    /// are, cost more than it saved: the checks are few, the pieces many.)
    fn attacked_neighbours(&self, cand: u128) -> u128 {
        let t = self.t;
        let mut attacked = 0u128;
        for &s in self.pos.piece_list(self.them) {
            let s = s as usize;
            let zone = t.zone(s, self.king);
            let reach = if t.slides[self.mb[s] as usize] != 0 { zone[0] } else { zone[1] };
            for i in Bits::of(reach & cand) {
                if self.attacks(s, step(self.king, t.dirs[i])) {
                    attacked |= 1 << i;
                }
            }
        }
        attacked
    }

    /// Whether the enemy piece at `s` attacks `q` with our king lifted off the board, through the relation
    /// table: one load for a piece not on a line with `q`.
    #[inline]
    fn attacks(&self, s: usize, q: usize) -> bool {
        let t = self.t;
        if s == q {
            return false;
        }
        let rel = t.relation(s, q);
        if rel == 0 {
            return false;
        }
        let c = self.mb[s];
        if rel == LEAP {
            return mailbox::role(c) == Role::Knight;
        }
        let i = (rel - 1) as usize;
        let off = t.dirs[i];
        if t.slides[c as usize] & (1 << t.dir_class[i]) != 0 {
            let mut r = step(s, off);
            while r != q && (self.mb[r] == EMPTY || r == self.king) {
                r = step(r, off);
            }
            r == q
        } else if step(s, off) == q {
            let role = mailbox::role(c);
            role == Role::King || t.pawn_captures_along[self.them.index()][i] & pawn_bit(role) != 0
        } else {
            false
        }
    }

    #[inline]
    fn cell(&self, p: usize) -> Cell {
        Cell::new(self.to_cell[p])
    }

    /// Whether a non-king piece may land on `q` as far as check goes.
    #[inline]
    fn answers_check(&self, q: usize) -> bool {
        self.checkers == 0 || self.targets.contains(&(q as u16))
    }

    #[inline]
    fn pin_of(&self, p: usize) -> Option<i32> {
        self.pins.iter().find(|&&(q, _)| q as usize == p).map(|&(_, off)| off)
    }

    fn king_moves<M: GenMode, S: Sink>(&self, buf: &mut S) {
        let from = self.cell(self.king);
        // The destinations a king move could have (on the board, not our own piece), then those attacked.
        let mut cand = 0u128;
        for i in Bits::of(self.t.dir_mask[from.index()]) {
            let c = self.mb[step(self.king, self.t.dirs[i])];
            if (c == EMPTY && M::QUIETS) || (c != EMPTY && c != OFFBOARD && mailbox::color(c) == self.them) {
                cand |= bit(i);
            }
        }
        if cand == 0 {
            return;
        }
        // In direction order, as before: the search sees the moves in the same order.
        for i in Bits::of(cand & !self.attacked_neighbours(cand)) {
            buf.push(from, step(self.king, self.t.dirs[i]), self.to_cell);
        }
    }

    fn slider_moves<M: GenMode, S: Sink>(&self, p: usize, role: Role, buf: &mut S) {
        let from = self.cell(p);
        let pin = self.pin_of(p);
        // Only the directions whose first step stays on the board, and that this piece slides along.
        let dirs = Bits::of(self.t.dir_mask[from.index()] & self.t.role_dirs[role.index()]);
        if pin.is_none() && self.checkers == 0 {
            // The common case, without the tests of pins and checks, in a loop of its own: a third of the
            // generator's time is spent here, much of it at the ends of rays.
            for i in dirs {
                let off = self.t.dirs[i];
                let mut q = step(p, off);
                let mut c = self.mb[q];
                while c == EMPTY {
                    if M::QUIETS {
                        buf.push(from, q, self.to_cell);
                    }
                    q = step(q, off);
                    c = self.mb[q];
                }
                if c != OFFBOARD && mailbox::color(c) == self.them {
                    buf.push(from, q, self.to_cell);
                }
            }
            return;
        }
        for i in dirs {
            let off = self.t.dirs[i];
            if let Some(po) = pin {
                if off != po && off != -po {
                    continue;
                }
            }
            let mut q = step(p, off);
            loop {
                let c = self.mb[q];
                if c == EMPTY {
                    if M::QUIETS && self.answers_check(q) {
                        buf.push(from, q, self.to_cell);
                    }
                    q = step(q, off);
                    continue;
                }
                if c != OFFBOARD && mailbox::color(c) == self.them && self.answers_check(q) {
                    buf.push(from, q, self.to_cell);
                }
                break;
            }
        }
    }

    fn knight_moves<M: GenMode, S: Sink>(&self, p: usize, buf: &mut S) {
        if self.pin_of(p).is_some() {
            return;
        }
        let from = self.cell(p);
        let mut mask = self.t.leap_mask[from.index()];
        while mask != 0 {
            let off = self.t.leaps[mask.trailing_zeros() as usize];
            mask &= mask - 1;
            let q = step(p, off);
            let c = self.mb[q];
            let ok = if c == EMPTY { M::QUIETS } else { c != OFFBOARD && mailbox::color(c) == self.them };
            if ok && self.answers_check(q) {
                buf.push(from, q, self.to_cell);
            }
        }
    }

    #[inline]
    fn push_pawn_move<S: Sink>(&self, from: Cell, q: usize, promote: bool, buf: &mut S) {
        if promote {
            buf.push_promotions(from, q, self.to_cell, &self.t.promotions);
        } else {
            buf.push(from, q, self.to_cell);
        }
    }

    fn pawn_moves<M: GenMode, S: Sink>(&self, p: usize, steps: &PawnSteps, buf: &mut S) {
        let g = self.t.geo;
        let from = self.cell(p);
        let row = steps.rows[p];
        let pin = self.pin_of(p);
        let along_pin = |off: i32| pin.is_none_or(|po| off == po || off == -po);
        let q = step(p, steps.push);
        let promote = row & PROMOTES != 0;
        if self.mb[q] == EMPTY && along_pin(steps.push) {
            if (M::QUIETS || promote) && self.answers_check(q) {
                self.push_pawn_move(from, q, promote, buf);
            }
            if row & START_ROW != 0 {
                // On a side of 4 the double step lands on the last row, and promotes.
                let q2 = step(q, steps.push);
                let promote2 = row & PROMOTES_TWICE != 0;
                if (M::QUIETS || promote2) && self.mb[q2] == EMPTY && self.answers_check(q2) {
                    self.push_pawn_move(from, q2, promote2, buf);
                }
            }
        }
        let ep = self.pos.en_passant();
        for &off in &steps.captures {
            let q = step(p, off);
            let c = self.mb[q];
            if c != EMPTY {
                if c != OFFBOARD && mailbox::color(c) == self.them && along_pin(off) && self.answers_check(q) {
                    self.push_pawn_move(from, q, promote, buf);
                }
            } else if let Some(ep) = ep {
                if self.cell(q) == ep.target && self.en_passant_is_legal(p, q, g.padded(ep.victim)) {
                    self.push_pawn_move(from, q, promote, buf);
                }
            }
        }
    }

    /// Whether the en passant capture leaves the king safe: the king's attackers are sought with the
    /// pawn's cell and the victim's cell empty and the target cell filled.
    fn en_passant_is_legal(&self, from: usize, to: usize, victim: usize) -> bool {
        !attacked(self.t, self.mb, self.king, self.them, [from, victim], to)
    }

    fn castling_moves<S: Sink>(&self, buf: &mut S) {
        let castling = self.pos.castling();
        if castling.is_empty() || self.checkers > 0 {
            return;
        }
        let g = self.t.geo;
        let n = g.side() as u8;
        let king_cell = self.cell(self.king);
        let rank = g.coord(king_cell, 1);
        let kf = g.coord(king_cell, 0);
        for side in [CastlingSide::King, CastlingSide::Queen] {
            let Some(rook) = castling.rook(self.us, side) else { continue };
            let rf = g.coord(rook, 0);
            let (kt, rt) = (side.king_to_file(n), side.rook_to_file(n));
            let rook_p = g.padded(rook);
            let at = |file: u8| g.padded(g.cell(&[file, rank]).expect("on the board"));
            let lo = kf.min(kt).min(rf).min(rt);
            let hi = kf.max(kt).max(rf).max(rt);
            let blocked = (lo..=hi).any(|f| {
                let p = at(f);
                p != self.king && p != rook_p && self.mb[p] != EMPTY
            });
            if blocked {
                continue;
            }
            let (a, b) = (kf.min(kt), kf.max(kt));
            let safe = (a..=b).all(|f| !attacked(self.t, self.mb, at(f), self.them, [self.king, rook_p], usize::MAX));
            if safe {
                buf.push(king_cell, rook_p, self.to_cell);
            }
        }
    }
}

/// Whether `by` attacks mailbox index `sq` on the board changed so that the two cells of `empty` are empty
/// and the cell `filled` holds a piece of the other side (`usize::MAX` for none).
pub(crate) fn attacked(t: &Tables, mb: &[u8], sq: usize, by: Color, empty: [usize; 2], filled: usize) -> bool {
    for (i, &off) in t.dirs.iter().enumerate() {
        let mut q = step(sq, off);
        let mut c = mb[q];
        while q != filled && (c == EMPTY || q == empty[0] || q == empty[1]) {
            q = step(q, off);
            c = mb[q];
        }
        if q == filled || c == OFFBOARD || mailbox::color(c) != by {
            continue;
        }
        if t.slides[c as usize] & (1 << t.dir_class[i]) != 0 {
            return true;
        }
        if q == step(sq, off) {
            let role = mailbox::role(c);
            if role == Role::King || t.pawn_checks[by.index()][i] & pawn_bit(role) != 0 {
                return true;
            }
        }
    }
    let knight = mailbox::code(by, Role::Knight);
    t.leaps.iter().any(|&off| {
        let q = step(sq, off);
        mb[q] == knight && q != empty[0] && q != empty[1] && q != filled
    })
}

/// Hands the legal moves of `pos` to `f`, one piece at a time, in the mode `M`.
///
/// This is the push-model fast path: a caller that only needs counts sums `moves.len()` and never builds
/// a full list.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_movegen::{generate, AllMoves};
/// let pos = start::tesseract(start::Army::Standard);
/// let mut total = 0;
/// generate::<AllMoves>(&pos, |piece| total += piece.moves.len());
/// assert_eq!(total, 226);
/// ```
pub fn generate<M: GenMode>(pos: &Position, mut f: impl FnMut(PieceMoves<'_>)) {
    let _: Option<()> = generate_until::<M, ()>(pos, |piece| {
        f(piece);
        ControlFlow::Continue(())
    });
}

/// [`generate`] that stops as soon as `f` says so: `f` returns `ControlFlow::Break(value)` to stop (the
/// pieces after it are not generated at all) and the call returns `Some(value)`; `None` when every piece
/// was handed over.
///
/// # Examples
/// ```
/// use std::ops::ControlFlow;
/// use tesseract_board::{start, Role};
/// use tesseract_movegen::{generate_until, AllMoves};
/// let pos = start::chess();
/// // The first knight with a move, without generating the rest.
/// let knight = generate_until::<AllMoves, _>(&pos, |piece| {
///     if piece.role == Role::Knight { ControlFlow::Break(piece.from) } else { ControlFlow::Continue(()) }
/// });
/// assert!(knight.is_some());
/// ```
pub fn generate_until<M: GenMode, B>(pos: &Position, f: impl FnMut(PieceMoves<'_>) -> ControlFlow<B>) -> Option<B> {
    match pos.bitboards() {
        Some(bb) => board8::generate_until::<M, B>(pos, bb, f),
        None => generate_until_mailbox::<M, B>(pos, f),
    }
}

/// [`generate_until`] by the mailbox generator whatever the board, also on 8×8 where the public functions
/// use the bitboard back end: for tests that compare the two move for move.
#[doc(hidden)]
pub fn generate_until_mailbox<M: GenMode, B>(
    pos: &Position,
    mut f: impl FnMut(PieceMoves<'_>) -> ControlFlow<B>,
) -> Option<B> {
    Node::with(pos, |node| {
        let mut buf = Buf::new();
        let mut stopped = None;
        node.each_piece::<M, Buf>(&mut buf, |buf, p, role| hand_over(&mut f, &mut stopped, node.cell(p), role, buf));
        stopped
    })
}

/// Hands one piece's moves in `buf` (if any) to the callback of [`generate_until`] and empties `buf`; a
/// break is kept in `stopped` and stops the generation. Both back ends call it after each piece.
#[inline]
pub(crate) fn hand_over<B, const N: usize>(
    f: &mut impl FnMut(PieceMoves<'_>) -> ControlFlow<B>,
    stopped: &mut Option<B>,
    from: Cell,
    role: Role,
    buf: &mut ArrayVec<Move, N>,
) -> ControlFlow<()> {
    if buf.is_empty() {
        return ControlFlow::Continue(());
    }
    let flow = f(PieceMoves { from, role, moves: buf });
    buf.clear();
    match flow {
        ControlFlow::Continue(()) => ControlFlow::Continue(()),
        ControlFlow::Break(b) => {
            *stopped = Some(b);
            ControlFlow::Break(())
        }
    }
}

/// The legal moves of the piece on `cell` (none for an empty cell, an enemy piece or a cell off the
/// board): a GUI's highlight of one piece, without listing every piece's moves.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// let pos = start::chess();
/// let g1 = pos.geometry().parse_cell("g1").unwrap();
/// assert_eq!(tesseract_movegen::moves_from(&pos, g1).len(), 2);
/// ```
pub fn moves_from(pos: &Position, cell: Cell) -> Vec<Move> {
    if !pos.geometry().contains(cell) || pos.piece_at(cell).is_none_or(|p| p.color != pos.turn()) {
        return Vec::new();
    }
    generate_until::<AllMoves, Vec<Move>>(pos, |piece| {
        if piece.from == cell { ControlFlow::Break(piece.moves.to_vec()) } else { ControlFlow::Continue(()) }
    })
    .unwrap_or_default()
}

impl Node<'_> {
    /// Generates piece by piece into `sink`, calling `done` after each piece (the king first).
    #[inline]
    fn each_piece<M: GenMode, S: Sink>(
        &self,
        sink: &mut S,
        mut done: impl FnMut(&mut S, usize, Role) -> ControlFlow<()>,
    ) {
        self.king_moves::<M, S>(sink);
        if M::QUIETS {
            self.castling_moves(sink);
        }
        if done(sink, self.king, Role::King).is_break() || self.checkers >= 2 {
            return;
        }
        let pawn_steps = &self.t.pawns[self.us.index()];
        for &p in self.pos.piece_list(self.us) {
            let p = p as usize;
            let role = mailbox::role(self.mb[p]);
            match role {
                Role::King => continue,
                Role::Knight => self.knight_moves::<M, S>(p, sink),
                Role::YPawn | Role::WPawn => {
                    self.pawn_moves::<M, S>(p, &pawn_steps[self.t.pawn_slot[role.index()]], sink);
                }
                _ => self.slider_moves::<M, S>(p, role, sink),
            }
            if done(sink, p, role).is_break() {
                return;
            }
        }
    }
}

/// Which moves [`legal_moves_matching`] keeps: those of a piece of `role`, from `from`, to `to`, each
/// when given (castling is the king's move onto its own rook: `to` is the rook's cell).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct MoveFilter {
    /// The moving piece's kind.
    pub role: Option<Role>,
    /// The cell it moves from.
    pub from: Option<Cell>,
    /// The cell it moves to.
    pub to: Option<Cell>,
}

impl MoveFilter {
    /// Whether a piece of `role` on `from` is one whose moves the filter may keep.
    #[inline]
    pub(crate) fn picks(&self, role: Role, from: Cell) -> bool {
        self.role.is_none_or(|r| r == role) && self.from.is_none_or(|c| c == from)
    }

    /// Keeps, of the moves `list[start..]`, those that go to the filter's cell (all when it names none).
    #[inline]
    pub(crate) fn keep_tail<const N: usize>(&self, list: &mut ArrayVec<Move, N>, start: usize) {
        let Some(to) = self.to else { return };
        let mut kept = start;
        for i in start..list.len() {
            if list[i].to == to {
                list[kept] = list[i];
                kept += 1;
            }
        }
        list.truncate(kept);
    }
}

/// Appends to `list` the legal moves of `pos` that `filter` keeps: the moves of [`legal_moves_into`] that
/// pass it, in an order of their own. Only the pieces the filter names are generated, and on 8×8 with a
/// kind and a destination only those that attack the destination (by the attack tables), so that finding
/// the move a notation names (`Nf3`: the knights that reach f3) costs a few pieces rather than the whole
/// list. Checks and pins are found once, as for the whole list.
///
/// # Examples
/// ```
/// use tesseract_board::{start, Role};
/// use tesseract_movegen::{legal_moves_matching, MoveFilter, MoveList};
/// let pos = start::chess();
/// let g = pos.geometry();
/// let mut list = MoveList::new();
/// let filter = MoveFilter { role: Some(Role::Knight), to: g.parse_cell("f3"), ..MoveFilter::default() };
/// legal_moves_matching(&pos, &filter, &mut list);
/// assert_eq!(list.len(), 1);
/// assert_eq!(list[0].from, g.parse_cell("g1").unwrap());
/// ```
pub fn legal_moves_matching(pos: &Position, filter: &MoveFilter, list: &mut MoveList) {
    let g = pos.geometry();
    // A cell off the board is no move's.
    if filter.from.is_some_and(|c| !g.contains(c)) || filter.to.is_some_and(|c| !g.contains(c)) {
        return;
    }
    match pos.bitboards() {
        Some(bb) => board8::moves_matching(pos, bb, filter, list),
        None => Node::with(pos, |node| node.moves_matching(filter, list)),
    }
}

impl Node<'_> {
    /// The moves of [`legal_moves_matching`] on any board.
    fn moves_matching(&self, filter: &MoveFilter, list: &mut MoveList) {
        let mut buf = Buf::new();
        let keep = |buf: &mut Buf, list: &mut MoveList| {
            let start = list.len();
            list.extend(buf.drain(..));
            filter.keep_tail(list, start);
        };
        if filter.picks(Role::King, self.cell(self.king)) {
            self.king_moves::<AllMoves, Buf>(&mut buf);
            self.castling_moves(&mut buf);
            keep(&mut buf, list);
        }
        if self.checkers >= 2 {
            return;
        }
        let to = filter.to.map(|c| self.t.geo.padded(c));
        let pawn_steps = &self.t.pawns[self.us.index()];
        for &p in self.pos.piece_list(self.us) {
            let p = p as usize;
            let role = mailbox::role(self.mb[p]);
            if role == Role::King || !filter.picks(role, self.cell(p)) {
                continue;
            }
            // A piece reaches a cell only along a line or a leap from it.
            if to.is_some_and(|q| q == p || self.t.relation(p, q) == 0) {
                continue;
            }
            match role {
                Role::Knight => self.knight_moves::<AllMoves, Buf>(p, &mut buf),
                Role::YPawn | Role::WPawn => {
                    self.pawn_moves::<AllMoves, Buf>(p, &pawn_steps[self.t.pawn_slot[role.index()]], &mut buf);
                }
                _ => self.slider_moves::<AllMoves, Buf>(p, role, &mut buf),
            }
            keep(&mut buf, list);
        }
    }
}

/// Every legal move of `pos`, in a vector of just their number ([`legal_moves_into`] fills a
/// fixed-capacity [`MoveList`] the caller keeps, without allocating).
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// assert_eq!(tesseract_movegen::legal_moves(&start::chess()).len(), 20);
/// ```
pub fn legal_moves(pos: &Position) -> Vec<Move> {
    let mut list = Vec::new();
    match pos.bitboards() {
        Some(bb) => board8::moves_into::<AllMoves, _>(pos, bb, &mut list),
        None => generate::<AllMoves>(pos, |piece| list.extend_from_slice(piece.moves)),
    }
    list
}

/// Appends the legal moves of `pos` to `list` (which has room for any position's moves when it starts
/// empty): the way to fill a list that lives in the caller's frame without moving it.
pub fn legal_moves_into(pos: &Position, list: &mut MoveList) {
    match pos.bitboards() {
        Some(bb) => board8::moves_into::<AllMoves, _>(pos, bb, list),
        None => generate::<AllMoves>(pos, |piece| list.extend(piece.moves.iter().copied())),
    }
}

/// The legal captures and promotions of `pos`.
pub fn noisy_moves(pos: &Position) -> Vec<Move> {
    let mut list = Vec::new();
    match pos.bitboards() {
        Some(bb) => board8::moves_into::<Noisy, _>(pos, bb, &mut list),
        None => generate::<Noisy>(pos, |piece| list.extend_from_slice(piece.moves)),
    }
    list
}

/// The number of legal moves of `pos`, without building a list.
pub fn count(pos: &Position) -> usize {
    match pos.bitboards() {
        Some(bb) => board8::count(pos, bb),
        None => count_mailbox(pos),
    }
}

/// [`count`] by the mailbox generator whatever the board (see [`generate_until_mailbox`]).
#[doc(hidden)]
pub fn count_mailbox(pos: &Position) -> usize {
    let mut counter = Counter(0);
    Node::with(pos, |node| node.each_piece::<AllMoves, Counter>(&mut counter, |_, _, _| ControlFlow::Continue(())));
    counter.0
}

/// Sums, over every cell of an empty board of `shape`, the moves of one piece of `role` standing there
/// alone (ignoring check: there is no king). These are the empty-board constants of RULES.md §2, counted by
/// the same ray and leap loops the generator uses; pawns are not counted (returns 0).
pub fn empty_board_moves(shape: tesseract_board::Shape, role: Role) -> u64 {
    let t = Tables::of(shape);
    let g = t.geo;
    let mut mb = vec![OFFBOARD; g.padded_len()];
    for cell in g.all_cells() {
        mb[g.padded(cell)] = EMPTY;
    }
    let mut total = 0u64;
    for cell in g.all_cells() {
        let p = g.padded(cell);
        let offsets: &[i32] = match role {
            Role::Knight => &t.leaps,
            Role::King => &t.dirs,
            Role::YPawn | Role::WPawn => return 0,
            _ => &t.slide_dirs[role.index()],
        };
        let slides = !matches!(role, Role::Knight | Role::King);
        for &off in offsets {
            let mut q = step(p, off);
            while mb[q] == EMPTY {
                total += 1;
                if !slides {
                    break;
                }
                q = step(q, off);
            }
        }
    }
    total
}
