//! The engine: negamax alpha-beta on the score difference, with a transposition table, move ordering and
//! iterative deepening to a budget of depth and nodes.
//!
//! - **Value.** A finished game is worth [`POINT`] per point of score difference, from the side to move's
//!   view. At the depth limit the value is the same difference plus a count of the live lines: a line only
//!   one player has entered is worth a little to that player, more when it holds two of their cells.
//! - **Ordering.** The move the table remembers first; then cells by what they do at once: complete a line,
//!   block the opponent's two, extend one's own lines; ties go to the lower cell index. One ply from the
//!   horizon every child costs one evaluation, less than ordering them, so there only the table's move comes
//!   first.
//! - **Table.** Keyed by a Zobrist hash of the two players' cells (which also fixes the side to move and the
//!   scores); always-replace, 2¹⁷ entries. It is cleared at the start of every search, so a search is a
//!   function of the game state and the strength alone.
//! - **Budget.** Depth 1, 2, … up to the strength's depth; a deeper iteration stops as soon as the node
//!   count reaches the strength's budget (a node one ply from the horizon first finishes its children, at
//!   most 80), and the engine plays the best move found so far. Nodes, not time: the same position and
//!   strength give the same move on every machine.

use std::sync::OnceLock;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::Cell;

use crate::game::{Board, Game};
use crate::lines::{CELLS, Lines, MAX_LINES_PER_CELL, bit};

/// The value of one point of score difference.
pub const POINT: i32 = 100;

/// Above any value a position can have.
const INF: i32 = 1_000_000;

/// The value of a line only one player has entered, by how many of its cells that player holds (a complete
/// line is counted in the score instead). Chosen by seeded matches at depths 2 and 3: at depth 3 they won
/// 39 games of 40 (one draw) against the first guess, 4 and 40 for the side to move and 4 and 25 for the
/// other.
const LIVE: [i32; 4] = [0, 24, 50, 0];

/// How hard the engine searches: a maximum depth in plies and a node budget.
///
/// # Examples
/// ```
/// use tesseract_tactoe::Strength;
/// let s = Strength::level(2).unwrap();
/// assert_eq!(s.depth(), 2);
/// assert!(Strength::level(0).is_none());
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Strength {
    depth: u8,
    nodes: u64,
}

impl Strength {
    /// The weakest level.
    pub const MIN_LEVEL: u8 = 1;
    /// The strongest level.
    pub const MAX_LEVEL: u8 = 5;

    /// The preset levels, 1 to 5: depth 1, 2 and 3; depth 4 within 300,000 nodes; depth 6 within 500,000
    /// nodes.
    const LEVELS: [Strength; 5] = [
        Strength { depth: 1, nodes: u64::MAX },
        Strength { depth: 2, nodes: u64::MAX },
        Strength { depth: 3, nodes: u64::MAX },
        Strength { depth: 4, nodes: 300_000 },
        Strength { depth: 6, nodes: 500_000 },
    ];

    /// The preset level `level`, 1 ([`Strength::MIN_LEVEL`]) to 5 ([`Strength::MAX_LEVEL`]); `None` otherwise.
    pub fn level(level: u8) -> Option<Strength> {
        Strength::LEVELS.get(usize::from(level).checked_sub(1)?).copied()
    }

    /// A custom strength: search at most `depth` plies deep (at least 1), and start no iteration deeper
    /// than the first once `nodes` nodes are spent.
    pub const fn new(depth: u8, nodes: u64) -> Strength {
        Strength { depth: if depth == 0 { 1 } else { depth }, nodes }
    }

    /// The maximum depth, in plies.
    #[inline]
    pub const fn depth(self) -> u8 {
        self.depth
    }

    /// The node budget.
    #[inline]
    pub const fn nodes(self) -> u64 {
        self.nodes
    }
}

impl Default for Strength {
    /// Level 3.
    fn default() -> Strength {
        Strength::LEVELS[2]
    }
}

/// What a search found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Search {
    /// The cell to claim.
    pub best: Cell,
    /// Its value for the side to move, in hundredths of a point ([`POINT`] = 100).
    pub value: i32,
    /// The deepest iteration that finished (the best move may come from a deeper, unfinished one).
    pub depth: u8,
    /// Nodes visited.
    pub nodes: u64,
}

#[derive(Copy, Clone, Debug, Default)]
struct Entry {
    key: u64,
    value: i32,
    depth: u8,
    bound: Bound,
    best: u8,
}

#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
enum Bound {
    #[default]
    Empty,
    Exact,
    Lower,
    Upper,
}

// A table entry is 16 bytes, so the table is 2 MiB.
const _: () = assert!(std::mem::size_of::<Entry>() == 16);
const TT_BITS: u32 = 17;
const NO_MOVE: u8 = u8::MAX;

/// Zobrist keys, one per (player, cell), from ChaCha8 seeded with a fixed phrase.
fn keys() -> &'static [[u64; CELLS]; 2] {
    static KEYS: OnceLock<[[u64; CELLS]; 2]> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut rng = ChaCha8Rng::from_seed(*b"Four Tac Toe Zobrist keys, v1...");
        let mut keys = [[0u64; CELLS]; 2];
        for row in keys.iter_mut() {
            for k in row.iter_mut() {
                *k = rng.next_u64();
            }
        }
        keys
    })
}

/// The hash of a board, as the search keeps it incrementally.
fn hash_of(board: &Board) -> u64 {
    let keys = keys();
    let mut h = 0;
    for (p, row) in keys.iter().enumerate() {
        for (i, k) in row.iter().enumerate() {
            if board.marks[p] & bit(i) != 0 {
                h ^= k;
            }
        }
    }
    h
}

/// Per player, the sum of [`LIVE`] over the lines only that player has entered, counted from scratch.
fn line_terms_of(board: &Board) -> [i32; 2] {
    let mut terms = [0; 2];
    for &m in Lines::get().playable_masks() {
        let counts = board.marks.map(|marks| (marks & m).count_ones() as usize);
        for p in 0..2 {
            if counts[1 - p] == 0 {
                terms[p] += LIVE[counts[p]];
            }
        }
    }
    terms
}

/// The engine: a strength and its transposition table.
///
/// # Examples
/// ```
/// use tesseract_tactoe::{parse_cell, Engine, Game, Strength};
/// let mut game = Game::new();
/// for name in ["1111", "3333", "2111", "1233"] {
///     game.claim(parse_cell(name)?)?;
/// }
/// // X to claim: 3111 completes 1111-2111-3111.
/// let mut engine = Engine::new(Strength::level(2).unwrap());
/// assert_eq!(engine.best_move(&game), Some(parse_cell("3111")?));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct Engine {
    strength: Strength,
    tt: Vec<Entry>,
}

impl Engine {
    /// An engine of this strength. Allocates its table (2 MiB).
    pub fn new(strength: Strength) -> Engine {
        Engine { strength, tt: vec![Entry::default(); 1 << TT_BITS] }
    }

    /// Its strength.
    pub fn strength(&self) -> Strength {
        self.strength
    }

    /// The cell the engine claims in `game`; `None` when the game is over.
    pub fn best_move(&mut self, game: &Game) -> Option<Cell> {
        self.search(game).map(|s| s.best)
    }

    /// Searches `game` within the strength's budget; `None` when the game is over.
    pub fn search(&mut self, game: &Game) -> Option<Search> {
        let board = *game.board();
        let empties = board.empty().count_ones() as u8;
        if empties == 0 {
            return None;
        }
        self.tt.fill(Entry::default());
        let mut s = Searcher {
            lines: Lines::get(),
            terms: line_terms_of(&board),
            keys: keys(),
            hash: hash_of(&board),
            board,
            tt: &mut self.tt,
            nodes: 0,
            budget: self.strength.nodes,
            abortable: false,
            aborted: false,
        };
        let mut best: Option<(u8, i32)> = None;
        let mut completed = 0;
        for depth in 1..=self.strength.depth.min(empties) {
            s.abortable = depth > 1;
            let found = s.root(depth, best.map(|b| b.0));
            if let Some(found) = found {
                best = Some(found);
            }
            if s.aborted {
                break;
            }
            completed = depth;
        }
        let (cell, value) = best.expect("depth 1 always finishes");
        Some(Search { best: Cell::new(u16::from(cell)), value, depth: completed, nodes: s.nodes })
    }
}

struct Searcher<'a> {
    lines: &'static Lines,
    /// Per player, the sum of [`LIVE`] over the lines only that player has entered.
    terms: [i32; 2],
    keys: &'static [[u64; CELLS]; 2],
    board: Board,
    hash: u64,
    tt: &'a mut [Entry],
    nodes: u64,
    budget: u64,
    abortable: bool,
    aborted: bool,
}

/// The free cells in the order to search them; at most 80.
struct Moves {
    cells: [u8; CELLS],
    len: usize,
}

impl Searcher<'_> {
    #[inline]
    fn make(&mut self, index: usize) {
        let p = self.board.mover().index();
        self.line_terms(index, p, 1);
        self.board.make(index);
        self.hash ^= self.keys[p][index];
    }

    #[inline]
    fn unmake(&mut self, index: usize) {
        let p = self.board.owner(index).expect("unmake of a claimed cell").index();
        self.board.unmake(index);
        self.line_terms(index, p, -1);
        self.hash ^= self.keys[p][index];
    }

    /// Adds (`sign` 1) or removes (−1) the change that `p` claiming the free cell `index` makes to the
    /// live-line terms. Called with the cell free: before a claim, after taking it back.
    #[inline]
    fn line_terms(&mut self, index: usize, p: usize, sign: i32) {
        let q = 1 - p;
        let (mine, theirs) = (self.board.marks[p], self.board.marks[q]);
        for &m in self.lines.cell_masks(index) {
            if m == 0 {
                break;
            }
            let a = (mine & m).count_ones() as usize;
            let b = (theirs & m).count_ones() as usize;
            if b == 0 {
                // p's line grows from a to a + 1 cells.
                self.terms[p] += sign * (LIVE[a + 1] - LIVE[a]);
            } else if a == 0 {
                // q's line dies.
                self.terms[q] -= sign * LIVE[b];
            }
        }
    }

    /// The score difference and the live lines, for the side to move.
    #[inline]
    fn eval(&self) -> i32 {
        let me = self.board.mover().index();
        let diff = i32::from(self.board.scores[me]) - i32::from(self.board.scores[1 - me]);
        POINT * diff + self.terms[me] - self.terms[1 - me]
    }

    /// How promising a cell looks for the side to move, before searching it.
    fn order_key(&self, index: usize) -> i32 {
        let me = self.board.mover().index();
        let (mine, theirs) = (self.board.marks[me], self.board.marks[1 - me]);
        let masks: &[u128; MAX_LINES_PER_CELL] = self.lines.cell_masks(index);
        let mut key = 0;
        for &m in masks {
            if m == 0 {
                break;
            }
            let a = (mine & m).count_ones();
            let b = (theirs & m).count_ones();
            key += match (a, b) {
                (2, 0) => 1000,
                (1, 0) => 20,
                (0, 0) => 3,
                (0, 2) => 500,
                (0, 1) => 10,
                _ => 0,
            };
        }
        key
    }

    /// The free cells, best first: `first` (if free), then by [`Searcher::order_key`], ties by index.
    fn ordered(&self, first: Option<u8>) -> Moves {
        let mut moves = Moves { cells: [0; CELLS], len: 0 };
        let mut keys = [0i32; CELLS];
        let mut empty = self.board.empty();
        while empty != 0 {
            let i = empty.trailing_zeros() as usize;
            empty &= empty - 1;
            let key = if first == Some(i as u8) { i32::MAX } else { self.order_key(i) };
            // Insertion sort, descending, stable.
            let mut j = moves.len;
            while j > 0 && keys[j - 1] < key {
                keys[j] = keys[j - 1];
                moves.cells[j] = moves.cells[j - 1];
                j -= 1;
            }
            keys[j] = key;
            moves.cells[j] = i as u8;
            moves.len += 1;
        }
        moves
    }

    /// The free cells, `first` (if free) first, then by index: one ply from the horizon, ordering costs more
    /// than it saves.
    fn unordered(&self, first: Option<u8>) -> Moves {
        let mut moves = Moves { cells: [0; CELLS], len: 0 };
        if let Some(f) = first {
            if self.board.empty() & bit(usize::from(f)) != 0 {
                moves.cells[0] = f;
                moves.len = 1;
            }
        }
        let mut empty = self.board.empty();
        while empty != 0 {
            let i = empty.trailing_zeros() as u8;
            empty &= empty - 1;
            if Some(i) != first {
                moves.cells[moves.len] = i;
                moves.len += 1;
            }
        }
        moves
    }

    fn terminal_value(&self) -> i32 {
        let me = self.board.mover().index();
        POINT * (i32::from(self.board.scores[me]) - i32::from(self.board.scores[1 - me]))
    }

    /// The root: every move with a full window on the first, then bounded by the best so far. Returns the
    /// best move and value found before any abort.
    fn root(&mut self, depth: u8, first: Option<u8>) -> Option<(u8, i32)> {
        let moves = self.ordered(first);
        let mut best: Option<(u8, i32)> = None;
        let mut alpha = -INF;
        for &m in &moves.cells[..moves.len] {
            self.make(m as usize);
            let v = -self.negamax(depth - 1, -INF, -alpha);
            self.unmake(m as usize);
            if self.aborted {
                break;
            }
            if best.is_none() || v > alpha {
                alpha = v;
                best = Some((m, v));
            }
        }
        best
    }

    fn negamax(&mut self, depth: u8, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if self.board.empty() == 0 {
            return self.terminal_value();
        }
        if depth == 0 {
            debug_assert_eq!(self.terms, line_terms_of(&self.board), "incremental line terms drifted");
            return self.eval();
        }
        if self.abortable && self.nodes >= self.budget {
            self.aborted = true;
            return 0;
        }
        let slot = (self.hash & ((1 << TT_BITS) - 1)) as usize;
        let entry = self.tt[slot];
        let mut first = None;
        if entry.bound != Bound::Empty && entry.key == self.hash {
            if entry.best != NO_MOVE {
                first = Some(entry.best);
            }
            if entry.depth >= depth {
                match entry.bound {
                    Bound::Exact => return entry.value,
                    Bound::Lower if entry.value >= beta => return entry.value,
                    Bound::Upper if entry.value <= alpha => return entry.value,
                    _ => {}
                }
            }
        }
        let alpha0 = alpha;
        let moves = if depth == 1 { self.unordered(first) } else { self.ordered(first) };
        let mut best = -INF;
        let mut best_move = NO_MOVE;
        for &m in &moves.cells[..moves.len] {
            self.make(m as usize);
            let v = -self.negamax(depth - 1, -beta, -alpha);
            self.unmake(m as usize);
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                best_move = m;
                if v > alpha {
                    alpha = v;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        self.tt[slot] = Entry { key: self.hash, value: best, depth, bound, best: best_move };
        best
    }
}
