//! The bitboard back end of the fast generator, for the 8×8 board (classic chess and Chess960).
//!
//! A position on 8×8 keeps 64-bit cell sets beside its mailbox ([`Position::bitboards`]); this module
//! generates from them. Per node:
//! - the checkers are the enemy pieces in the king's attack sets (knight, pawn, king tables; bishop and
//!   rook attacks from the king's cell for sliders); the check mask is the checker and the cells between
//!   it and the king (every cell when not in check); in double check only the king moves;
//! - the pinned pieces are found from the enemy sliders that see the king on an empty board: when the
//!   cells between such a slider and the king hold exactly one piece and it is ours, it is pinned and may
//!   move only along the line through the king and itself;
//! - a king move is kept when no enemy piece attacks its destination with the king lifted off the
//!   occupancy (so a slider's ray through the king's old cell counts);
//! - en passant is kept when, with both pawns lifted and the target filled, no enemy piece but the victim
//!   attacks the king: this covers the capture along a rank that uncovers a rook;
//! - castling (written king takes own rook, as [`Position::make`] reads it) follows the Chess960 rule
//!   as the mailbox generator does: every cell between the king, the rook and their destinations empty
//!   but for those two, and no cell from the king's to its destination attacked with both lifted.
//!
//! Slider attacks come from magic bitboards ("fancy" magics with one shared table of 107,648 sets, built at
//! first use through a `OnceLock`). The magic numbers are constants made by our own search (`find_magic`,
//! sparse candidates from a fixed-seed SplitMix64): a test finds them again, the table's build refuses a
//! number that maps two occupancies with different attacks to one slot, and a test checks every entry
//! against a ray walk. (Finding them at first use cost about 0.1 s a process.)
//!
//! **Order.** The moves come out in exactly the mailbox generator's order: the king first (directions in
//! the geometry's order, then castling king side before queen side), then each piece in
//! [`Position::piece_list`] order; a slider's moves direction by direction in the geometry's order and
//! outward along each ray (a ray of increasing cell index read lowest bit first, a decreasing one highest
//! bit first), a knight's in leap order, a pawn's push, double step, then the captures toward +x and −x,
//! one move per promotion piece (queen, rook, bishop, knight). The count ([`count`], the last ply of
//! perft) needs no order: it sums population counts, with the unpinned pawns counted set-wise.

use std::ops::ControlFlow;
use std::sync::OnceLock;

use tesseract_board::mailbox;
use tesseract_board::{Bitboards, CastlingSide, Cell, Color, Move, Position, Role, Shape};

use crate::fast::{AllMoves, GenMode, MoveFilter, PieceMoves};

/// A magic entry: `((occupancy & mask) * magic) >> shift`, plus `offset`, indexes the shared table.
#[derive(Clone, Copy, Debug, Default)]
struct Magic {
    mask: u64,
    magic: u64,
    shift: u32,
    offset: usize,
}

/// The attack and line tables of the 8×8 board, built once.
pub(crate) struct Tables8 {
    knight: [u64; 64],
    king: [u64; 64],
    /// Per color and cell: the cells a pawn of that color standing there captures onto.
    pawn_attacks: [[u64; 64]; 2],
    /// Per cell and direction (the geometry's order): the cells along the ray to the edge.
    rays: [[u64; 8]; 64],
    /// Per direction: whether it increases the cell index (its ray is read lowest bit first).
    up: [bool; 8],
    /// The directions a rook and a bishop slide along, in the geometry's order.
    rook_dirs: [usize; 4],
    bishop_dirs: [usize; 4],
    /// Per pair of cells (`64·a + b`): the cells strictly between them on a line, 0 if not on one.
    between: Vec<u64>,
    /// Per pair of cells: the whole line through both (edge to edge), 0 if they share none.
    line: Vec<u64>,
    /// Per cell: the king's destinations in direction order, and how many.
    king_list: [[u8; 8]; 64],
    king_len: [u8; 64],
    /// Per cell: the knight's destinations in leap order, and how many.
    knight_list: [[u8; 8]; 64],
    knight_len: [u8; 64],
    /// Per cell: what a rook and a bishop there attack on the empty board.
    rook_empty: [u64; 64],
    bishop_empty: [u64; 64],
    rook_magic: [Magic; 64],
    bishop_magic: [Magic; 64],
    slider_table: Vec<u64>,
}

/// SplitMix64: the fixed-seed generator of the magic search (deterministic on every platform).
#[cfg(test)]
struct SplitMix(u64);

#[cfg(test)]
impl SplitMix {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number with few bits set, as magic candidates should be.
    fn sparse(&mut self) -> u64 {
        self.next() & self.next() & self.next()
    }
}

/// The cells a slider on `sq` attacks along the (dx, dy) steps, stopping at the first occupied cell.
fn slide(sq: usize, steps: &[(i32, i32)], occ: u64) -> u64 {
    let mut att = 0;
    for &(dx, dy) in steps {
        let (mut x, mut y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
        while (0..8).contains(&x) && (0..8).contains(&y) {
            let b = 1u64 << (x + 8 * y);
            att |= b;
            if occ & b != 0 {
                break;
            }
            x += dx;
            y += dy;
        }
    }
    att
}

/// The occupancy cells that matter to a slider on `sq`: its empty-board rays without their last cell.
fn relevant_mask(sq: usize, steps: &[(i32, i32)]) -> u64 {
    let mut mask = 0;
    for &(dx, dy) in steps {
        let (mut x, mut y) = ((sq % 8) as i32 + dx, (sq / 8) as i32 + dy);
        while (0..8).contains(&(x + dx)) && (0..8).contains(&(y + dy)) {
            mask |= 1u64 << (x + 8 * y);
            x += dx;
            y += dy;
        }
    }
    mask
}

/// The rooks' magic numbers by cell, found by [`find_magic`] from [`MAGIC_SEED`] (the test
/// `the_embedded_magics_are_those_our_finder_makes` finds them again; [`fill_magic`] checks them at every
/// start).
const ROOK_MAGICS: [u64; 64] = [
    0x0080001880624002,
    0x01c0001002412000,
    0x0100102000400900,
    0x0100081001000421,
    0x0080040080080002,
    0x0280020001040080,
    0x0400083012110084,
    0x020004022e004181,
    0x0000800080400020,
    0x0000400040201000,
    0x0001004100200010,
    0x0000800800801000,
    0x0004800400800800,
    0x0202000410080200,
    0x0821010200040100,
    0x0206000200508401,
    0x0080208000804002,
    0x0022020021004091,
    0x0400808020001002,
    0x0080210010000900,
    0x4903030008001004,
    0x4085010008020400,
    0x3040040041083210,
    0x020102000841a504,
    0x8000802180004004,
    0x0680810100204000,
    0x8101001100402000,
    0x0108008080081004,
    0x1001001100080004,
    0x008c000202000810,
    0x00001004001802b1,
    0x4001041200104081,
    0x2440400030800081,
    0x4800200080804000,
    0x0400100080802000,
    0x018200400a001220,
    0x1018000901001004,
    0x0000800400800200,
    0x1900580204008110,
    0x4000800040800100,
    0x00e0208040008000,
    0x2000400020008080,
    0x0150040028002000,
    0x0208001000808008,
    0x0426110008010004,
    0x2002000410020008,
    0x0105a80110640002,
    0x000041084092000c,
    0x0102250a80004100,
    0x9100400080200080,
    0x0440104100200100,
    0x3130220810010100,
    0x0002820400080080,
    0x0082000804100200,
    0x4040100201080400,
    0x0002086410810200,
    0x0100950180620042,
    0x4240108021020042,
    0x0808200500400811,
    0x400a700101148821,
    0x0029000402080011,
    0xc101000400080201,
    0xa000020081281044,
    0x0008010020804412,
];

/// The bishops' magic numbers by cell, found after the rooks' from the same generator.
const BISHOP_MAGICS: [u64; 64] = [
    0x0190210801041224,
    0x00c3020202020420,
    0x1810840082208002,
    0x0008208020000202,
    0x000405a024840a41,
    0x0048900420440000,
    0x0300809010101101,
    0x0410210048244014,
    0x08014104012a0200,
    0x0500221421040100,
    0x8000042800810020,
    0x4180090401081210,
    0x440001104004c300,
    0x0000020104220300,
    0x0802008804100401,
    0x08a10200a4093800,
    0x3a10004010028894,
    0x0804020208020410,
    0x0210004800882008,
    0x484c080801411020,
    0x0080800408a00300,
    0x0040804300600200,
    0x0242200500b00410,
    0x0000810822180244,
    0x0104100220021090,
    0x0008480020010100,
    0x80040200105802c0,
    0x05840040d4010002,
    0x0001010004104004,
    0x8008004202004200,
    0x40020c0486108280,
    0x20890506a2004150,
    0x8208441048400242,
    0x81180110b4088200,
    0x2001080100680044,
    0x1801010800090040,
    0x40141840102c0100,
    0x0002124200a10284,
    0x0010188220010102,
    0x0608210055202200,
    0x00080104208a9000,
    0x810c008848c40421,
    0x4420084410088202,
    0x4000204204800800,
    0x8340081901100406,
    0x1002201141000182,
    0x0028123084010200,
    0x6808080040482286,
    0x0001042282400089,
    0x4200262a02200008,
    0x4c00802412080010,
    0x4080160104090084,
    0x0040002004340000,
    0x8204200410408000,
    0x0020608441085001,
    0x0002040102020400,
    0x0800211108014000,
    0x251a010412010402,
    0x0442028216030c00,
    0x9404400801842402,
    0x1018421410a02200,
    0x0040400410022200,
    0x0201100228080088,
    0xa122048808004a80,
];

/// The seed of the magic search: "tesserac".
#[cfg(test)]
const MAGIC_SEED: u64 = 0x7465_7373_6572_6163;

const ROOK_STEPS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_STEPS: [(i32, i32); 4] = [(1, 1), (-1, 1), (1, -1), (-1, -1)];

/// Every subset of the relevant mask of a slider on `sq` (carry-rippler order) with its attack set.
fn subsets(sq: usize, steps: &[(i32, i32)]) -> (u64, Vec<(u64, u64)>) {
    let mask = relevant_mask(sq, steps);
    let mut occs = Vec::with_capacity(1 << mask.count_ones());
    let mut sub = 0u64;
    loop {
        occs.push((sub, slide(sq, steps, sub)));
        sub = sub.wrapping_sub(mask) & mask;
        if sub == 0 {
            break;
        }
    }
    (mask, occs)
}

/// Fills the table slots of the embedded magic number `magic` for a slider on `sq` and returns its entry.
///
/// # Panics
/// When two occupancies with different attack sets share a slot: the number is not a magic for `sq`
/// (the embedded constants are checked here at every start, not trusted).
fn fill_magic(sq: usize, steps: &[(i32, i32)], magic: u64, table: &mut Vec<u64>) -> Magic {
    let (mask, occs) = subsets(sq, steps);
    let shift = 64 - mask.count_ones();
    let offset = table.len();
    table.resize(offset + (1 << mask.count_ones()), 0);
    let mut used = vec![false; 1 << mask.count_ones()];
    for (occ, att) in occs {
        let i = (occ.wrapping_mul(magic) >> shift) as usize;
        assert!(!used[i] || table[offset + i] == att, "{magic:#x} is no magic for cell {sq}");
        used[i] = true;
        table[offset + i] = att;
    }
    Magic { mask, magic, shift, offset }
}

/// Finds a magic number for `sq` with the fixed-seed generator `rng`: how the embedded constants
/// ([`ROOK_MAGICS`], [`BISHOP_MAGICS`]) were made, and how a test checks that they still are.
#[cfg(test)]
fn find_magic(sq: usize, steps: &[(i32, i32)], rng: &mut SplitMix, table: &mut Vec<u64>) -> Magic {
    let (mask, occs) = subsets(sq, steps);
    let bits = mask.count_ones();
    let shift = 64 - bits;
    let size = 1usize << bits;
    let mut slots = vec![0u64; size];
    let mut epoch = vec![0u32; size];
    let mut attempt = 0u32;
    loop {
        let magic = rng.sparse();
        if (mask.wrapping_mul(magic) >> 56).count_ones() < 6 {
            continue;
        }
        attempt += 1;
        let ok = occs.iter().all(|&(occ, att)| {
            let i = (occ.wrapping_mul(magic) >> shift) as usize;
            if epoch[i] != attempt {
                epoch[i] = attempt;
                slots[i] = att;
                true
            } else {
                slots[i] == att
            }
        });
        if ok {
            let offset = table.len();
            // Slots no subset reaches are never read; they keep whatever the last attempt left.
            table.extend_from_slice(&slots);
            return Magic { mask, magic, shift, offset };
        }
    }
}

impl Tables8 {
    pub(crate) fn get() -> &'static Tables8 {
        static TABLES: OnceLock<Tables8> = OnceLock::new();
        TABLES.get_or_init(Tables8::build)
    }

    fn build() -> Tables8 {
        let geo = Shape::CHESS.geometry();
        let on = |x: i32, y: i32| (0..8).contains(&x) && (0..8).contains(&y);
        let dirs: Vec<(i32, i32)> = geo.directions().iter().map(|d| (d.delta[0] as i32, d.delta[1] as i32)).collect();
        let leaps: Vec<(i32, i32)> = geo.leaps().iter().map(|l| (l.delta[0] as i32, l.delta[1] as i32)).collect();
        assert!(dirs.len() == 8 && leaps.len() == 8, "the 8×8 board has 8 directions and 8 leaps");
        let mut t = Tables8 {
            knight: [0; 64],
            king: [0; 64],
            pawn_attacks: [[0; 64]; 2],
            rays: [[0; 8]; 64],
            up: [false; 8],
            rook_dirs: [0; 4],
            bishop_dirs: [0; 4],
            between: vec![0; 64 * 64],
            line: vec![0; 64 * 64],
            king_list: [[0; 8]; 64],
            king_len: [0; 64],
            knight_list: [[0; 8]; 64],
            knight_len: [0; 64],
            rook_empty: std::array::from_fn(|sq| slide(sq, &ROOK_STEPS, 0)),
            bishop_empty: std::array::from_fn(|sq| slide(sq, &BISHOP_STEPS, 0)),
            rook_magic: [Magic::default(); 64],
            bishop_magic: [Magic::default(); 64],
            slider_table: Vec::new(),
        };
        let (mut r, mut b) = (0, 0);
        for (i, &(dx, dy)) in dirs.iter().enumerate() {
            t.up[i] = dx + 8 * dy > 0;
            if dx == 0 || dy == 0 {
                t.rook_dirs[r] = i;
                r += 1;
            } else {
                t.bishop_dirs[b] = i;
                b += 1;
            }
        }
        for sq in 0..64 {
            let (x, y) = ((sq % 8) as i32, (sq / 8) as i32);
            for (i, &(dx, dy)) in dirs.iter().enumerate() {
                if on(x + dx, y + dy) {
                    let to = (x + dx + 8 * (y + dy)) as u8;
                    t.king[sq] |= 1 << to;
                    t.king_list[sq][t.king_len[sq] as usize] = to;
                    t.king_len[sq] += 1;
                }
                t.rays[sq][i] = slide(sq, &[(dx, dy)], 0);
            }
            for &(dx, dy) in &leaps {
                if on(x + dx, y + dy) {
                    let to = (x + dx + 8 * (y + dy)) as u8;
                    t.knight[sq] |= 1 << to;
                    t.knight_list[sq][t.knight_len[sq] as usize] = to;
                    t.knight_len[sq] += 1;
                }
            }
            for color in Color::ALL {
                let fy = y + color.forward() as i32;
                for dx in [1, -1] {
                    if on(x + dx, fy) {
                        t.pawn_attacks[color.index()][sq] |= 1 << (x + dx + 8 * fy);
                    }
                }
            }
        }
        for a in 0..64 {
            for (i, &(dx, dy)) in dirs.iter().enumerate() {
                let ray = t.rays[a][i];
                let back = slide(a, &[(-dx, -dy)], 0);
                let mut bs = ray;
                while bs != 0 {
                    let bsq = bs.trailing_zeros() as usize;
                    bs &= bs - 1;
                    t.line[64 * a + bsq] = ray | back | 1 << a;
                    t.between[64 * a + bsq] = ray & slide(bsq, &[(-dx, -dy)], 0) & !(1 << bsq);
                }
            }
        }
        let mut table = Vec::new();
        for (sq, &magic) in ROOK_MAGICS.iter().enumerate() {
            t.rook_magic[sq] = fill_magic(sq, &ROOK_STEPS, magic, &mut table);
        }
        for (sq, &magic) in BISHOP_MAGICS.iter().enumerate() {
            t.bishop_magic[sq] = fill_magic(sq, &BISHOP_STEPS, magic, &mut table);
        }
        t.slider_table = table;
        t
    }

    #[inline(always)]
    fn lookup(&self, m: &Magic, occ: u64) -> u64 {
        self.slider_table[m.offset + ((occ & m.mask).wrapping_mul(m.magic) >> m.shift) as usize]
    }

    /// The cells a rook on `sq` attacks with the cells of `occ` occupied.
    #[inline(always)]
    pub(crate) fn rook(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.rook_magic[sq & 63], occ)
    }

    /// The cells a bishop on `sq` attacks with the cells of `occ` occupied.
    #[inline(always)]
    pub(crate) fn bishop(&self, sq: usize, occ: u64) -> u64 {
        self.lookup(&self.bishop_magic[sq & 63], occ)
    }

    #[inline(always)]
    fn between(&self, a: usize, b: usize) -> u64 {
        self.between[(a & 63) << 6 | (b & 63)]
    }

    #[inline(always)]
    fn line(&self, a: usize, b: usize) -> u64 {
        self.line[(a & 63) << 6 | (b & 63)]
    }

    /// Whether a knight, king or pawn of `by` attacks `sq`.
    #[inline(always)]
    fn attacked_by_leaper(&self, bb: &Bitboards, sq: usize, by: Color) -> bool {
        bb.by_color(by)
            & ((self.knight[sq] & bb.by_role(Role::Knight))
                | (self.king[sq] & bb.by_role(Role::King))
                | (self.pawn_attacks[by.other().index()][sq] & bb.by_role(Role::YPawn)))
            != 0
    }

    /// Whether a piece of `by` attacks `sq` with the cells of `occ` occupied: the leapers first, then a
    /// slider lookup only where an enemy slider stands on one of the cell's lines.
    #[inline(always)]
    fn attacked(&self, bb: &Bitboards, sq: usize, by: Color, occ: u64) -> bool {
        let sq = sq & 63;
        if self.attacked_by_leaper(bb, sq, by) {
            return true;
        }
        let (diag, orth) = sliders(bb, by);
        (self.bishop_empty[sq] & diag != 0 && self.bishop(sq, occ) & diag != 0)
            || (self.rook_empty[sq] & orth != 0 && self.rook(sq, occ) & orth != 0)
    }

    /// As [`Tables8::attacked`], a slider's attack found by the cells between it and `sq` (the small
    /// between table) rather than a magic lookup: for a single cell asked about while a text is read, when
    /// the large slider table is mostly out of the cache.
    #[inline(always)]
    fn attacked_by_lines(&self, bb: &Bitboards, sq: usize, by: Color, occ: u64) -> bool {
        let sq = sq & 63;
        if self.attacked_by_leaper(bb, sq, by) {
            return true;
        }
        let (diag, orth) = sliders(bb, by);
        let mut snipers = (self.bishop_empty[sq] & diag) | (self.rook_empty[sq] & orth);
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            if self.between(sq, s) & occ == 0 {
                return true;
            }
        }
        false
    }
}

/// The diagonal (bishops and queens) and orthogonal (rooks and queens) sliders of `by`.
#[inline(always)]
fn sliders(bb: &Bitboards, by: Color) -> (u64, u64) {
    let them = bb.by_color(by);
    let queens = bb.by_role(Role::Queen);
    (them & (bb.by_role(Role::Bishop) | queens), them & (bb.by_role(Role::Rook) | queens))
}

/// Where the moves go: a list, a per-piece buffer, or a counter.
pub(crate) trait Out {
    fn push(&mut self, m: Move);
    /// One move per promotion piece (queen, rook, bishop, knight on 8×8).
    #[inline(always)]
    fn promotions(&mut self, from: Cell, to: Cell) {
        for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            self.push(Move::with_promotion(from, to, Some(r)));
        }
    }
}

impl<const N: usize> Out for arrayvec::ArrayVec<Move, N> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        arrayvec::ArrayVec::push(self, m);
    }
}

impl Out for Vec<Move> {
    #[inline(always)]
    fn push(&mut self, m: Move) {
        Vec::push(self, m);
    }
}

/// Counts moves without building them (the pinned pieces of [`count`]).
struct Counter(usize);

impl Out for Counter {
    #[inline(always)]
    fn push(&mut self, _: Move) {
        self.0 += 1;
    }
    #[inline(always)]
    fn promotions(&mut self, _: Cell, _: Cell) {
        self.0 += 4;
    }
}

/// The attack sets of the 8×8 board's pieces, as 64-bit cell sets (bit `i` the cell of index `i`, a1 = 0,
/// h1 = 7, a8 = 56, as in [`tesseract_board::Bitboards`]): the tables and magic bitboards of the fast
/// generator's 8×8 back end, for evaluations and exchange counts that work on bitboards.
///
/// A cell index `sq` is taken modulo 64 (callers pass 0..64; an index of 64 or more is not a cell of the
/// board). The handle is a reference to tables built once per process (at the first call of [`Attacks8::get`] or
/// of the generator on an 8×8 board); keep it rather than call `get` in a hot loop.
///
/// # Examples
/// ```
/// use tesseract_board::Color;
/// use tesseract_movegen::Attacks8;
/// let a = Attacks8::get();
/// let (a1, b1, e4) = (0, 1, 28);
/// assert_eq!(a.knight(b1).count_ones(), 3); // a3, c3, d2
/// assert_eq!(a.rook(a1, 0).count_ones(), 14);
/// assert_eq!(a.rook(a1, 1 << b1), (1 << b1) | 0x0101_0101_0101_0100); // stops on b1, the a-file
/// assert_eq!(a.queen(e4, 0).count_ones(), 27);
/// assert_eq!(a.pawn(Color::White, e4), (1 << 35) | (1 << 37)); // d5, f5
/// ```
#[derive(Copy, Clone, Debug)]
pub struct Attacks8(&'static Tables8);

impl std::fmt::Debug for Tables8 {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Tables8")
    }
}

impl Attacks8 {
    /// The cells of the a-file (a1 = bit 0, b1 = bit 1, …, a2 = bit 8), as a bit set: a shift of a set of
    /// cells by one file must leave out the cells of this file (or of [`Attacks8::FILE_H`]) that would wrap
    /// around to the next rank.
    pub const FILE_A: u64 = 0x0101_0101_0101_0101;
    /// The cells of the h-file, as a bit set.
    pub const FILE_H: u64 = Attacks8::FILE_A << 7;

    /// The tables, built on first use.
    pub fn get() -> Attacks8 {
        Attacks8(Tables8::get())
    }

    /// The cells a knight on `sq` attacks.
    #[inline(always)]
    pub fn knight(self, sq: usize) -> u64 {
        self.0.knight[sq & 63]
    }

    /// The cells a king on `sq` attacks.
    #[inline(always)]
    pub fn king(self, sq: usize) -> u64 {
        self.0.king[sq & 63]
    }

    /// The cells a pawn of `color` on `sq` attacks (captures onto). So the pawns of `by` that attack a cell
    /// `sq` stand on `pawn(by.other(), sq)`.
    #[inline(always)]
    pub fn pawn(self, color: Color, sq: usize) -> u64 {
        self.0.pawn_attacks[color.index()][sq & 63]
    }

    /// The cells the pawns of `color` on the cells of `pawns` attack together: the union of [`Attacks8::pawn`]
    /// over them, by two shifts of the whole set.
    ///
    /// ```
    /// use tesseract_board::Color;
    /// use tesseract_movegen::Attacks8;
    /// let a = Attacks8::get();
    /// let (a2, e4, h7) = (8, 28, 55);
    /// let pawns = (1u64 << a2) | (1 << e4) | (1 << h7);
    /// assert_eq!(a.pawns(Color::White, pawns), a.pawn(Color::White, a2) | a.pawn(Color::White, e4) | a.pawn(Color::White, h7));
    /// assert_eq!(a.pawns(Color::Black, 1 << e4), (1 << 19) | (1 << 21)); // d3, f3
    /// ```
    #[inline(always)]
    pub fn pawns(self, color: Color, pawns: u64) -> u64 {
        match color {
            Color::White => ((pawns & !Self::FILE_A) << 7) | ((pawns & !Self::FILE_H) << 9),
            Color::Black => ((pawns & !Self::FILE_A) >> 9) | ((pawns & !Self::FILE_H) >> 7),
        }
    }

    /// The cells a rook on `sq` attacks with the cells of `occ` occupied (up to and including the first
    /// occupied cell of each line).
    #[inline(always)]
    pub fn rook(self, sq: usize, occ: u64) -> u64 {
        self.0.rook(sq, occ)
    }

    /// The cells a bishop on `sq` attacks with the cells of `occ` occupied.
    #[inline(always)]
    pub fn bishop(self, sq: usize, occ: u64) -> u64 {
        self.0.bishop(sq, occ)
    }

    /// The cells a queen on `sq` attacks with the cells of `occ` occupied.
    #[inline(always)]
    pub fn queen(self, sq: usize, occ: u64) -> u64 {
        self.0.rook(sq, occ) | self.0.bishop(sq, occ)
    }

    /// The cells strictly between `a` and `b` when they share a rank, file or diagonal, else none.
    #[inline(always)]
    pub fn between(self, a: usize, b: usize) -> u64 {
        self.0.between(a, b)
    }
}

#[inline(always)]
pub(crate) fn cell(sq: usize) -> Cell {
    Cell::new(sq as u16)
}

/// What the per-node analysis found.
struct Node8<'a> {
    t: &'static Tables8,
    pos: &'a Position,
    bb: &'a Bitboards,
    us: Color,
    them: Color,
    king: usize,
    occ: u64,
    ours: u64,
    theirs: u64,
    checkers: u64,
    /// The cells a non-king move must land on: every cell, or the checker and the cells between it and
    /// the king.
    check_mask: u64,
    pinned: u64,
}

impl<'a> Node8<'a> {
    #[inline(always)]
    fn new(pos: &'a Position, bb: &'a Bitboards) -> Node8<'a> {
        let t = Tables8::get();
        let us = pos.turn();
        let them = us.other();
        let occ = bb.occupied();
        let ours = bb.by_color(us);
        let theirs = bb.by_color(them);
        let king = (bb.by_role(Role::King) & ours).trailing_zeros() as usize & 63;
        // Knights and pawns check from their tables; the enemy sliders on a line with the king (on the
        // empty board) check when nothing stands between, and pin a lone piece of ours between. No
        // slider attack is looked up.
        let mut checkers = theirs
            & ((t.knight[king] & bb.by_role(Role::Knight))
                | (t.pawn_attacks[us.index()][king] & bb.by_role(Role::YPawn)));
        let diag = bb.by_role(Role::Bishop) | bb.by_role(Role::Queen);
        let orth = bb.by_role(Role::Rook) | bb.by_role(Role::Queen);
        let mut snipers = theirs & ((t.bishop_empty[king] & diag) | (t.rook_empty[king] & orth));
        let mut pinned = 0;
        while snipers != 0 {
            let s = snipers.trailing_zeros() as usize;
            snipers &= snipers - 1;
            let b = t.between(king, s) & occ;
            if b == 0 {
                checkers |= 1 << s;
            } else if b & (b - 1) == 0 {
                pinned |= b & ours;
            }
        }
        let check_mask = match checkers.count_ones() {
            0 => !0,
            1 => checkers | t.between(king, checkers.trailing_zeros() as usize),
            _ => 0,
        };
        Node8 { t, pos, bb, us, them, king, occ, ours, theirs, checkers, check_mask, pinned }
    }

    /// The king's legal destinations among `cands`.
    #[inline(always)]
    fn king_targets(&self, mut cands: u64) -> u64 {
        let occ = self.occ & !(1u64 << self.king);
        let mut ok = 0;
        while cands != 0 {
            let q = cands.trailing_zeros() as usize;
            cands &= cands - 1;
            if !self.t.attacked(self.bb, q, self.them, occ) {
                ok |= 1 << q;
            }
        }
        ok
    }

    #[inline(always)]
    fn king_moves<M: GenMode, O: Out>(&self, out: &mut O) {
        let t = self.t;
        let k = self.king;
        let cands = t.king[k] & if M::QUIETS { !self.ours } else { self.theirs };
        if cands == 0 {
            return;
        }
        let ok = self.king_targets(cands);
        if ok == 0 {
            return;
        }
        let from = cell(k);
        for &q in &t.king_list[k][..t.king_len[k] as usize] {
            if ok & (1 << q) != 0 {
                out.push(Move::new(from, cell(q as usize)));
            }
        }
    }

    fn castling_moves<O: Out>(&self, out: &mut O) {
        let castling = self.pos.castling();
        if castling.is_empty() || self.checkers != 0 {
            return;
        }
        let k = self.king;
        let (kf, rank) = (k % 8, k / 8 * 8);
        for side in [CastlingSide::King, CastlingSide::Queen] {
            let Some(rook) = castling.rook(self.us, side) else { continue };
            let r = rook.index();
            let rf = r % 8;
            let kt = side.king_to_file(8) as usize - 1;
            let rt = side.rook_to_file(8) as usize - 1;
            let lo = kf.min(kt).min(rf).min(rt);
            let hi = kf.max(kt).max(rf).max(rt);
            let span = ((1u64 << (hi - lo + 1)) - 1) << (rank + lo);
            let lifted = (1u64 << k) | (1u64 << r);
            if span & self.occ & !lifted != 0 {
                continue;
            }
            let occ = self.occ & !lifted;
            let (a, b) = (kf.min(kt), kf.max(kt));
            let safe = (a..=b).all(|f| !self.t.attacked(self.bb, rank + f, self.them, occ));
            if safe {
                out.push(Move::new(cell(k), rook));
            }
        }
    }

    /// Emits `from`'s moves to the cells of `targets` along the slider directions `dirs`, in order.
    #[inline(always)]
    fn emit_rays<O: Out>(&self, from: usize, targets: u64, dirs: &[usize], out: &mut O) {
        let t = self.t;
        let f = cell(from);
        for &i in dirs {
            let mut bits = targets & t.rays[from & 63][i];
            if t.up[i] {
                while bits != 0 {
                    let q = bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    out.push(Move::new(f, cell(q)));
                }
            } else {
                while bits != 0 {
                    let q = 63 - bits.leading_zeros() as usize;
                    bits ^= 1 << q;
                    out.push(Move::new(f, cell(q)));
                }
            }
        }
    }

    /// The cells a non-king piece on `s` may land on as far as checks, pins and own pieces go.
    #[inline(always)]
    fn piece_mask<M: GenMode>(&self, s: usize) -> u64 {
        let base = if M::QUIETS { !self.ours } else { self.theirs } & self.check_mask;
        if self.pinned & (1 << s) != 0 { base & self.t.line(self.king, s) } else { base }
    }

    #[inline(always)]
    fn slider_moves<M: GenMode, O: Out>(&self, s: usize, role: Role, out: &mut O) {
        let t = self.t;
        let mask = self.piece_mask::<M>(s);
        match role {
            Role::Rook => self.emit_rays(s, t.rook(s, self.occ) & mask, &t.rook_dirs, out),
            Role::Bishop => self.emit_rays(s, t.bishop(s, self.occ) & mask, &t.bishop_dirs, out),
            _ => {
                let att = (t.rook(s, self.occ) | t.bishop(s, self.occ)) & mask;
                self.emit_rays(s, att, &[0, 1, 2, 3, 4, 5, 6, 7], out)
            }
        }
    }

    #[inline(always)]
    fn knight_moves<M: GenMode, O: Out>(&self, s: usize, out: &mut O) {
        if self.pinned & (1 << s) != 0 {
            return;
        }
        let t = self.t;
        let targets = t.knight[s] & self.piece_mask::<M>(s);
        if targets == 0 {
            return;
        }
        let f = cell(s);
        for &q in &t.knight_list[s][..t.knight_len[s] as usize] {
            if targets & (1 << q) != 0 {
                out.push(Move::new(f, cell(q as usize)));
            }
        }
    }

    #[inline(always)]
    fn pawn_move<O: Out>(from: usize, to: usize, promote: bool, out: &mut O) {
        if promote {
            out.promotions(cell(from), cell(to));
        } else {
            out.push(Move::new(cell(from), cell(to)));
        }
    }

    /// The legal pawn moves onto `q` (one per promotion piece when they promote), as [`Node8::pawn_moves`]
    /// makes them: a push from the cell behind `q` or a double step from the one behind that, onto an
    /// empty cell; a capture from the cells whose pawns attack `q`, of an enemy piece there or en passant.
    #[inline]
    fn pawn_moves_to<O: Out>(&self, q: usize, out: &mut O) {
        let white = self.us == Color::White;
        let pawns = self.ours & self.bb.by_role(Role::YPawn);
        let promote = if white { q >= 56 } else { q < 8 };
        let qb = 1u64 << q;
        // A pinned pawn moves along its pin alone.
        let free = |s: usize| self.pinned & (1 << s) == 0 || self.t.line(self.king, s) & qb != 0;
        let attackers = self.t.pawn_attacks[self.them.index()][q] & pawns;
        if self.theirs & qb != 0 {
            if self.check_mask & qb == 0 {
                return;
            }
            let mut from = attackers;
            while from != 0 {
                let s = from.trailing_zeros() as usize;
                from &= from - 1;
                if free(s) {
                    Self::pawn_move(s, q, promote, out);
                }
            }
            return;
        }
        if self.occ & qb != 0 {
            return;
        }
        if self.check_mask & qb != 0 {
            let behind = |c: usize| if white { c.checked_sub(8) } else { Some(c + 8).filter(|&c| c < 64) };
            if let Some(s) = behind(q) {
                if pawns & (1 << s) != 0 {
                    if free(s) {
                        Self::pawn_move(s, q, promote, out);
                    }
                } else if self.occ & (1 << s) == 0 && q / 8 == if white { 3 } else { 4 } {
                    // A double step onto the fourth rank (the fifth for Black), over an empty cell.
                    if let Some(s2) = behind(s).filter(|&s2| pawns & (1 << s2) != 0 && free(s2)) {
                        Self::pawn_move(s2, q, false, out);
                    }
                }
            }
        }
        if let Some(ep) = self.pos.en_passant().filter(|ep| ep.target.index() == q) {
            let mut from = attackers;
            while from != 0 {
                let s = from.trailing_zeros() as usize;
                from &= from - 1;
                if self.en_passant_is_legal(s, q, ep.victim.index()) {
                    out.push(Move::new(cell(s), cell(q)));
                }
            }
        }
    }

    /// Whether the en passant capture from `s` onto `to` leaves our king safe.
    #[inline]
    fn en_passant_is_legal(&self, s: usize, to: usize, victim: usize) -> bool {
        let occ = (self.occ & !(1u64 << s) & !(1u64 << victim)) | 1u64 << to;
        let bb = self.bb;
        let t = self.t;
        let k = self.king;
        let theirs = self.theirs & !(1u64 << victim);
        let diag = (bb.by_role(Role::Bishop) | bb.by_role(Role::Queen)) & theirs;
        let orth = (bb.by_role(Role::Rook) | bb.by_role(Role::Queen)) & theirs;
        let others = theirs
            & ((t.knight[k] & bb.by_role(Role::Knight))
                | (t.king[k] & bb.by_role(Role::King))
                | (t.pawn_attacks[self.us.index()][k] & bb.by_role(Role::YPawn)));
        others == 0 && t.bishop(k, occ) & diag == 0 && t.rook(k, occ) & orth == 0
    }

    fn pawn_moves<M: GenMode, O: Out>(&self, s: usize, out: &mut O) {
        let white = self.us == Color::White;
        let (x, y) = (s % 8, s / 8);
        let push = if white { s + 8 } else { s - 8 };
        let promote = if white { y == 6 } else { y == 1 };
        let allowed = if self.pinned & (1 << s) != 0 { self.t.line(self.king, s) } else { !0 };
        if self.occ & (1 << push) == 0 && allowed & (1 << push) != 0 {
            if (M::QUIETS || promote) && self.check_mask & (1 << push) != 0 {
                Self::pawn_move(s, push, promote, out);
            }
            if M::QUIETS && y == if white { 1 } else { 6 } {
                let q2 = if white { push + 8 } else { push - 8 };
                if self.occ & (1 << q2) == 0 && self.check_mask & (1 << q2) != 0 {
                    Self::pawn_move(s, q2, false, out);
                }
            }
        }
        let ep = self.pos.en_passant();
        for (dx, ok) in [(1, x < 7), (-1isize, x > 0)] {
            if !ok {
                continue;
            }
            let q = (push as isize + dx) as usize;
            let b = 1u64 << q;
            if self.occ & b != 0 {
                if self.theirs & b & allowed & self.check_mask != 0 {
                    Self::pawn_move(s, q, promote, out);
                }
            } else if let Some(ep) = ep {
                if ep.target.index() == q && self.en_passant_is_legal(s, q, ep.victim.index()) {
                    Self::pawn_move(s, q, promote, out);
                }
            }
        }
    }

    /// Generates piece by piece into `out`, calling `done` after each piece (the king first), in the
    /// mailbox generator's order.
    #[inline(always)]
    fn each_piece<M: GenMode, O: Out>(
        &self,
        out: &mut O,
        mut done: impl FnMut(&mut O, usize, Role) -> ControlFlow<()>,
    ) {
        self.king_moves::<M, O>(out);
        if M::QUIETS {
            self.castling_moves(out);
        }
        if done(out, self.king, Role::King).is_break() || self.checkers & self.checkers.wrapping_sub(1) != 0 {
            return;
        }
        let to_cell = self.pos.geometry().padded_to_cell_table();
        let mb = self.pos.mailbox();
        for &p in self.pos.piece_list(self.us) {
            let p = p as usize;
            let role = mailbox::role(mb[p]);
            let s = to_cell[p] as usize & 63;
            match role {
                Role::King => continue,
                Role::Knight => self.knight_moves::<M, O>(s, out),
                Role::YPawn => self.pawn_moves::<M, O>(s, out),
                _ => {
                    debug_assert!(matches!(role, Role::Queen | Role::Rook | Role::Bishop), "{role:?} on 8×8");
                    self.slider_moves::<M, O>(s, role, out);
                }
            }
            if done(out, s, role).is_break() {
                return;
            }
        }
    }

    /// The number of legal moves, without order: population counts, unpinned pawns set-wise.
    fn count(&self) -> usize {
        let t = self.t;
        let k = self.king;
        let mut n = self.king_targets(t.king[k] & !self.ours).count_ones() as usize;
        let mut counter = Counter(0);
        self.castling_moves(&mut counter);
        n += counter.0;
        if self.checkers & self.checkers.wrapping_sub(1) != 0 {
            return n;
        }
        let bb = self.bb;
        let us = self.ours;
        let target = !us & self.check_mask;
        let occ = self.occ;
        let free = us & !self.pinned;
        let mut knights = bb.by_role(Role::Knight) & free;
        while knights != 0 {
            let s = knights.trailing_zeros() as usize;
            knights &= knights - 1;
            n += (t.knight[s] & target).count_ones() as usize;
        }
        let queens = bb.by_role(Role::Queen);
        let mut diag = (bb.by_role(Role::Bishop) | queens) & us;
        while diag != 0 {
            let s = diag.trailing_zeros() as usize;
            diag &= diag - 1;
            let mut att = t.bishop(s, occ) & target;
            if self.pinned & (1 << s) != 0 {
                att &= t.line(k, s);
            }
            n += att.count_ones() as usize;
        }
        let mut orth = (bb.by_role(Role::Rook) | queens) & us;
        while orth != 0 {
            let s = orth.trailing_zeros() as usize;
            orth &= orth - 1;
            let mut att = t.rook(s, occ) & target;
            if self.pinned & (1 << s) != 0 {
                att &= t.line(k, s);
            }
            n += att.count_ones() as usize;
        }
        let pawns = bb.by_role(Role::YPawn) & us;
        // Pinned pawns one by one, en passant included.
        let mut pinned = pawns & self.pinned;
        let mut pinned_moves = Counter(0);
        while pinned != 0 {
            let s = pinned.trailing_zeros() as usize;
            pinned &= pinned - 1;
            self.pawn_moves::<crate::fast::AllMoves, Counter>(s, &mut pinned_moves);
        }
        n += pinned_moves.0;
        let p = pawns & !self.pinned;
        let empty = !occ;
        let (single, double, left, right, last) = if self.us == Color::White {
            let single = (p << 8) & empty;
            let double = ((single & 0x0000_0000_00ff_0000) << 8) & empty;
            (
                single,
                double,
                ((p & !Attacks8::FILE_A) << 7) & self.theirs,
                ((p & !Attacks8::FILE_H) << 9) & self.theirs,
                0xffu64 << 56,
            )
        } else {
            let single = (p >> 8) & empty;
            let double = ((single & 0x0000_ff00_0000_0000) >> 8) & empty;
            (
                single,
                double,
                ((p & !Attacks8::FILE_A) >> 9) & self.theirs,
                ((p & !Attacks8::FILE_H) >> 7) & self.theirs,
                0xff,
            )
        };
        let cm = self.check_mask;
        let (single, left, right) = (single & cm, left & cm, right & cm);
        n += (single.count_ones() + left.count_ones() + right.count_ones() + (double & cm).count_ones()) as usize;
        if (single | left | right) & last != 0 {
            // Three more moves per promotion (one per piece).
            n += 3 * ((single & last).count_ones() + (left & last).count_ones() + (right & last).count_ones()) as usize;
        }
        if let Some(ep) = self.pos.en_passant() {
            let to = ep.target.index();
            let mut takers = t.pawn_attacks[self.them.index()][to] & p;
            while takers != 0 {
                let s = takers.trailing_zeros() as usize;
                takers &= takers - 1;
                if self.en_passant_is_legal(s, to, ep.victim.index()) {
                    n += 1;
                }
            }
        }
        n
    }
}

/// The bitboard [`crate::fast::legal_moves_matching`]: the pieces the filter names, and of those only the
/// ones whose empty-board reach holds its `to` cell.
pub(crate) fn moves_matching<const N: usize>(
    pos: &Position,
    bb: &Bitboards,
    filter: &MoveFilter,
    list: &mut arrayvec::ArrayVec<Move, N>,
) {
    let node = Node8::new(pos, bb);
    let t = node.t;
    if filter.picks(Role::King, cell(node.king)) {
        let start = list.len();
        match filter.to {
            // The one step to `to`, its safety alone looked up.
            Some(to) => {
                let q = to.index() & 63;
                // The king's own cell counts as empty: a slider's ray through it goes on.
                let occ = node.occ & !(1u64 << node.king);
                if node.t.king[node.king] & !node.ours & (1 << q) != 0
                    && !node.t.attacked_by_lines(bb, q, node.them, occ)
                {
                    list.push(Move::new(cell(node.king), to));
                }
            }
            None => node.king_moves::<AllMoves, _>(list),
        }
        node.castling_moves(list);
        filter.keep_tail(list, start);
    }
    if node.checkers & node.checkers.wrapping_sub(1) != 0 {
        return;
    }
    // A kind and a destination (what SAN names): the pieces of that kind that reach it, from the bitboards.
    if let (Some(role), Some(to), None) = (filter.role, filter.to, filter.from) {
        if role != Role::King {
            let q = to.index() & 63;
            let ours = node.ours & bb.by_role(role);
            // Our sliders on a line with `to` and nothing between: the small between table rather than a
            // magic lookup, whose large table is mostly out of the cache while a text is read.
            let sliders = |lines: u64| {
                let (mut on_line, mut seeing) = (lines & ours, 0u64);
                while on_line != 0 {
                    let s = on_line.trailing_zeros() as usize;
                    on_line &= on_line - 1;
                    if t.between(q, s) & node.occ == 0 {
                        seeing |= 1 << s;
                    }
                }
                seeing
            };
            let mut from = match role {
                Role::Knight => t.knight[q] & ours & !node.pinned,
                Role::Bishop => sliders(t.bishop_empty[q]),
                Role::Rook => sliders(t.rook_empty[q]),
                Role::Queen => sliders(t.bishop_empty[q] | t.rook_empty[q]),
                // Kinds that 8×8 does not have.
                Role::Unicorn | Role::Dragon | Role::WPawn | Role::King => 0,
                Role::YPawn => {
                    node.pawn_moves_to(q, list);
                    0
                }
            };
            while from != 0 {
                let s = from.trailing_zeros() as usize;
                from &= from - 1;
                if node.piece_mask::<AllMoves>(s) & (1 << q) != 0 {
                    list.push(Move::new(cell(s), to));
                }
            }
        }
        return;
    }
    let to_cell = pos.geometry().padded_to_cell_table();
    let mb = pos.mailbox();
    // With a destination: the pieces that attack it now (a knight's leap, a slider's ray with the board's
    // occupancy), whose one move there is legal when the check and pin masks allow it; a pawn, which moves
    // otherwise than it attacks, has its moves generated when it stands where it could reach the cell.
    let target = filter.to.map(|c| c.index() & 63);
    // Only the lookups the filter's piece needs: a slider table entry is often a cache miss.
    let attackers = target.map_or(!0, |q| match filter.role {
        Some(Role::Knight) => t.knight[q],
        Some(Role::Bishop) => t.bishop(q, node.occ),
        Some(Role::Rook) => t.rook(q, node.occ),
        Some(Role::Queen) => t.bishop(q, node.occ) | t.rook(q, node.occ),
        Some(_) => 0,
        None => {
            t.knight[q] & bb.by_role(Role::Knight)
                | t.bishop(q, node.occ) & (bb.by_role(Role::Bishop) | bb.by_role(Role::Queen))
                | t.rook(q, node.occ) & (bb.by_role(Role::Rook) | bb.by_role(Role::Queen))
        }
    });
    for &p in pos.piece_list(node.us) {
        let p = p as usize;
        let role = mailbox::role(mb[p]);
        let s = to_cell[p] as usize & 63;
        if role == Role::King || !filter.picks(role, cell(s)) {
            continue;
        }
        match (role, target) {
            (Role::YPawn, Some(q)) => {
                let ahead = |steps: isize| {
                    let q = s as isize + steps * if node.us == Color::White { 8 } else { -8 };
                    if (0..64).contains(&q) { 1u64 << q } else { 0 }
                };
                // The captures, the push and the double step.
                if (t.pawn_attacks[node.us.index()][s] | ahead(1) | ahead(2)) & (1 << q) != 0 {
                    let start = list.len();
                    node.pawn_moves::<AllMoves, _>(s, list);
                    filter.keep_tail(list, start);
                }
            }
            (_, Some(q)) => {
                let knight_pinned = role == Role::Knight && node.pinned & (1 << s) != 0;
                if attackers & (1 << s) != 0 && !knight_pinned && node.piece_mask::<AllMoves>(s) & (1 << q) != 0 {
                    list.push(Move::new(cell(s), cell(q)));
                }
            }
            (_, None) => match role {
                Role::Knight => node.knight_moves::<AllMoves, _>(s, list),
                Role::YPawn => node.pawn_moves::<AllMoves, _>(s, list),
                _ => node.slider_moves::<AllMoves, _>(s, role, list),
            },
        }
    }
}

/// The bitboard [`crate::fast::generate_until`].
pub(crate) fn generate_until<M: GenMode, B>(
    pos: &Position,
    bb: &Bitboards,
    mut f: impl FnMut(PieceMoves<'_>) -> ControlFlow<B>,
) -> Option<B> {
    let node = Node8::new(pos, bb);
    let mut buf = arrayvec::ArrayVec::<Move, 32>::new();
    let mut stopped = None;
    node.each_piece::<M, _>(&mut buf, |buf, s, role| crate::fast::hand_over(&mut f, &mut stopped, cell(s), role, buf));
    stopped
}

/// Every legal move (or only the noisy ones) appended to `out`, in order.
#[inline]
pub(crate) fn moves_into<M: GenMode, O: Out>(pos: &Position, bb: &Bitboards, out: &mut O) {
    Node8::new(pos, bb).each_piece::<M, O>(out, |_, _, _| ControlFlow::Continue(()));
}

/// The number of legal moves.
#[inline]
pub(crate) fn count(pos: &Position, bb: &Bitboards) -> usize {
    Node8::new(pos, bb).count()
}

#[cfg(test)]
mod tests {
    use super::{
        BISHOP_MAGICS, BISHOP_STEPS, MAGIC_SEED, ROOK_MAGICS, ROOK_STEPS, SplitMix, Tables8, find_magic, slide,
    };

    /// Every magic entry gives the attack set a ray walk gives, for every subset of its mask: the
    /// tables are re-verified, not trusted.
    #[test]
    fn the_magic_tables_agree_with_a_ray_walk() {
        let t = Tables8::get();
        for sq in 0..64 {
            for (rook, steps, magic) in
                [(true, &ROOK_STEPS, &t.rook_magic[sq]), (false, &BISHOP_STEPS, &t.bishop_magic[sq])]
            {
                let mut sub = 0u64;
                loop {
                    let want = slide(sq, steps, sub);
                    let got = if rook { t.rook(sq, sub) } else { t.bishop(sq, sub) };
                    assert_eq!(got, want, "square {sq}, occupancy {sub:#x}");
                    // Cells outside the mask do not matter.
                    assert_eq!(t.lookup(magic, sub | !magic.mask), slide(sq, steps, sub | !magic.mask));
                    sub = sub.wrapping_sub(magic.mask) & magic.mask;
                    if sub == 0 {
                        break;
                    }
                }
            }
        }
    }

    /// The pawns' attacks by shifts are the union of the table's, for every color and many sets.
    #[test]
    fn the_shifted_pawn_attacks_are_the_tables() {
        let a = super::Attacks8::get();
        let mut rng = SplitMix(7);
        for k in 0..2000 {
            // Sparse and dense sets, the edges included.
            let set = match k {
                0 => !0,
                1 => 0,
                _ => (rng.next() & rng.next()) | if k % 3 == 0 { rng.next() } else { 0 },
            };
            for color in tesseract_board::Color::ALL {
                let mut want = 0;
                for sq in 0..64 {
                    if set >> sq & 1 == 1 {
                        want |= a.pawn(color, sq);
                    }
                }
                assert_eq!(a.pawns(color, set), want, "{color:?} pawns on {set:#x}");
            }
        }
    }

    /// The embedded magic numbers are those our own search finds from the fixed seed (rooks, then
    /// bishops, one generator), so they can be made again; on a mismatch the message lists the numbers found.
    #[test]
    fn the_embedded_magics_are_those_our_finder_makes() {
        let mut rng = SplitMix(MAGIC_SEED);
        let mut table = Vec::new();
        for (steps, embedded) in [(&ROOK_STEPS, &ROOK_MAGICS), (&BISHOP_STEPS, &BISHOP_MAGICS)] {
            let found: Vec<u64> = (0..64).map(|sq| find_magic(sq, steps, &mut rng, &mut table).magic).collect();
            assert_eq!(&found[..], &embedded[..], "found: {found:#018x?}");
        }
        // The fancy table is filled the same way from the embedded numbers.
        assert_eq!(table.len(), Tables8::get().slider_table.len());
    }
}
