//! The exhaustive mate prover: AND-OR search over every legal move, with a transposition table.
//!
//! A mate-in-N claim is a statement about a finite game tree: *the side to move has a move such that
//! every reply leaves it a mate in N−1*. This module decides such statements exactly, by walking the
//! tree: at an attacker node one move that wins suffices (OR), at a defender node every legal reply must
//! lose (AND). No evaluation, no pruning that could be wrong, no score: a result is `true` only when
//! every defence has been refuted move by move, and `false` only when a defence has been found that
//! survives every attacking try.
//!
//! Why not the engine (`tesseract-search`)? An alpha-beta search with null-move pruning, late-move
//! reductions and futility pruning is built to *guess well fast*; its mate scores are sound only as far
//! as its pruning is, and a zugzwang (a quiet key after which the defender is lost only because it must
//! move) is exactly what null-move pruning gets wrong. Studies are published on the strength of a proof,
//! so the prover is this small, separate, exhaustive search.
//!
//! What makes it fast enough on a board where a king has 80 moves:
//! - **Only checks can mate in one.** At the last attacker move, quiet moves are not searched.
//! - **Checks first, and the defence that refuted a sibling first** (a killer per ply): most tries die on
//!   the first defence tried.
//! - **A transposition table** keyed by the Zobrist hash (which includes the side to move and the en
//!   passant cell) and storing, per position, the fewest moves known to win and the most moves known not
//!   to: "mates within n" is monotone in n, so one entry answers every depth. Move order matters little
//!   in sparse positions and transpositions are everywhere (king and piece moves commute).
//! - Draw claims (repetition, the 50-move rule) are ignored: a mate within a few moves never needs them,
//!   and ignoring them makes every result depend on the position alone, which the table requires.
//!
//! The table is a cache, never a witness: [`MateSolver::prove`] re-walks the solution tree explicitly,
//! every defence enumerated and every final position inspected for mate, and can re-check each of those
//! nodes with the independent naive generator.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

use tesseract_board::{Move, Position, Role};
use tesseract_movegen::{AllMoves, count, generate, legal_moves, naive};

/// The longest mate the prover accepts (moves of the attacking side).
pub const MAX_MATE: u32 = 32;

/// A search that stopped because it reached its node limit ([`MateSolver::with_node_limit`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("the mate search reached its limit of {limit} nodes")]
pub struct SearchAborted {
    /// The node limit.
    pub limit: u64,
}

/// The Zobrist hash is already uniform: use it as the table's hash as is.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, v: u64) {
        self.0 = v;
    }
}

/// What is known about one position: the statement ("the attacker mates within c" at an attacker node,
/// "the defender is mated within c" at a defender node) holds for every c ≥ `holds_from` and fails for
/// every c ≤ `fails_to`.
#[derive(Copy, Clone, Debug)]
struct Bounds {
    holds_from: u8,
    fails_to: i8,
}

impl Bounds {
    const UNKNOWN: Bounds = Bounds { holds_from: u8::MAX, fails_to: -1 };
}

/// How a proof is checked as it is walked ([`MateSolver::prove`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub enum ProofCheck {
    /// Defences from the fast generator; mate inspected with it.
    #[default]
    Fast,
    /// As `Fast`, and at every defender node the naive generator must list exactly the same defences, and
    /// at every mate it must find no move and the king attacked (see `tesseract_movegen::naive`).
    Naive,
}

/// The size of a proof tree walked by [`MateSolver::prove`].
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    /// Attacker moves in the tree (one chosen per attacker node).
    pub attacker_moves: u64,
    /// Defender nodes: positions where every legal defence was enumerated.
    pub defender_nodes: u64,
    /// Defences enumerated, summed over the defender nodes.
    pub defences: u64,
    /// Checkmates at the leaves, each inspected directly.
    pub mates: u64,
    /// Defender nodes re-checked with the naive generator.
    pub naive_nodes: u64,
}

/// Why a proof walk failed: the line of moves (from the proof's root) to the node that broke it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProofFailure {
    /// After these moves the attacker, to move, has no mate within the remaining count: the last move of
    /// the line is a defence that escapes.
    Escape {
        /// The moves from the root, the escaping defence last.
        line: Vec<Move>,
        /// Attacker moves that remained.
        remaining: u32,
    },
    /// After these moves the defender has no legal move and is not in check: stalemate.
    Stalemate {
        /// The moves from the root.
        line: Vec<Move>,
    },
    /// The two generators disagree at the end of this line (only with [`ProofCheck::Naive`]).
    Generators {
        /// The moves from the root.
        line: Vec<Move>,
        /// What differs.
        detail: String,
    },
    /// The search hit its node limit.
    Aborted(SearchAborted),
}

/// The exhaustive mate prover. Reuse one solver for many queries on related positions: its table keeps
/// what it learnt.
///
/// # Examples
///
/// A king and queen against a king in the corner: the queen steps next to the king, guarded, and covers
/// all fifteen flight cells at once.
/// ```
/// use tesseract_board::{Position, TextMove};
/// use tesseract_verify::mate::MateSolver;
/// // Black king on 1111, white queen on 3222, white king on 3333.
/// let mut setup = tesseract_board::Setup::empty(tesseract_board::Shape::TESSERACT);
/// use tesseract_board::{Color::*, Piece, Role::*};
/// setup.put(&[1, 1, 1, 1], Some(Piece::new(Black, King)));
/// setup.put(&[3, 2, 2, 2], Some(Piece::new(White, Queen)));
/// setup.put(&[3, 3, 3, 3], Some(Piece::new(White, King)));
/// let pos = Position::from_setup(setup, Default::default())?;
/// let mut solver = MateSolver::new();
/// assert_eq!(solver.shortest_mate(&pos, 3)?, Some(1));
/// let keys: Vec<String> = solver.keys(&pos, 1)?.iter().map(|&m| TextMove::from_move(m, &pos).to_string()).collect();
/// assert!(keys.contains(&"32222222".to_string()));
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub struct MateSolver {
    table: HashMap<u64, Bounds, BuildHasherDefault<KeyHasher>>,
    lists: Vec<Vec<Move>>,
    killers: Vec<Option<Move>>,
    nodes: u64,
    limit: Option<u64>,
    max_entries: usize,
    checks_only: bool,
}

impl Default for MateSolver {
    fn default() -> MateSolver {
        MateSolver::new()
    }
}

impl std::fmt::Debug for MateSolver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MateSolver")
            .field("entries", &self.table.len())
            .field("nodes", &self.nodes)
            .field("limit", &self.limit)
            .finish()
    }
}

/// Which side of the AND-OR tree a node is on.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Side {
    Attacker,
    Defender,
}

impl MateSolver {
    /// A solver without a node limit (its queries never return [`SearchAborted`]).
    pub fn new() -> MateSolver {
        MateSolver {
            table: HashMap::default(),
            lists: Vec::new(),
            killers: Vec::new(),
            nodes: 0,
            limit: None,
            max_entries: 1 << 23,
            checks_only: false,
        }
    }

    /// A solver that gives up, with [`SearchAborted`], once it has visited `limit` nodes in total (for the
    /// composer, which tries many random positions and wants none of them to take long).
    pub fn with_node_limit(limit: u64) -> MateSolver {
        MateSolver { limit: Some(limit), ..MateSolver::new() }
    }

    /// A solver whose attacker may only give check (at every move, not only the last). Its "mate within
    /// n" means "mate within n by checks alone", which implies a mate within n but not the converse, and its
    /// [`MateSolver::keys`] lists only checking keys: it proves nothing about uniqueness. The composer uses
    /// it as a fast filter (the defender's replies to a check are few) before the exhaustive solver
    /// decides.
    pub fn checks_only(limit: u64) -> MateSolver {
        MateSolver { limit: Some(limit), checks_only: true, ..MateSolver::new() }
    }

    /// Nodes visited so far (every position entered, at either side of the tree).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Forgets the table and resets the node count.
    pub fn clear(&mut self) {
        self.table.clear();
        self.nodes = 0;
    }

    fn check_n(n: u32) {
        assert!(n <= MAX_MATE, "mates longer than {MAX_MATE} moves are not supported");
    }

    /// Whether the side to move mates within `n` of its moves, whatever the defence.
    ///
    /// # Errors
    /// [`SearchAborted`] if the node limit is reached.
    ///
    /// # Panics
    /// If `n` exceeds [`MAX_MATE`].
    pub fn mates_within(&mut self, pos: &Position, n: u32) -> Result<bool, SearchAborted> {
        Self::check_n(n);
        if n == 0 {
            return Ok(false);
        }
        let mut pos = pos.clone();
        self.search(&mut pos, Side::Attacker, n, 0)
    }

    /// Whether the side to move is checkmated within `k` moves of the other side, whatever it plays
    /// (`k = 0`: it is checkmated now).
    ///
    /// # Errors
    /// [`SearchAborted`] if the node limit is reached.
    ///
    /// # Panics
    /// If `k` exceeds [`MAX_MATE`].
    pub fn mated_within(&mut self, pos: &Position, k: u32) -> Result<bool, SearchAborted> {
        Self::check_n(k);
        let mut pos = pos.clone();
        self.search(&mut pos, Side::Defender, k, 0)
    }

    /// The fewest moves in which the side to move forces mate, searched by iterative deepening up to
    /// `max_n` moves (`None` if there is no mate within `max_n`). A result of `Some(n)` means mate in
    /// exactly `n`: no mate in fewer.
    ///
    /// # Errors
    /// [`SearchAborted`] if the node limit is reached.
    ///
    /// # Panics
    /// If `max_n` exceeds [`MAX_MATE`].
    pub fn shortest_mate(&mut self, pos: &Position, max_n: u32) -> Result<Option<u32>, SearchAborted> {
        Self::check_n(max_n);
        for n in 1..=max_n {
            if self.mates_within(pos, n)? {
                return Ok(Some(n));
            }
        }
        Ok(None)
    }

    /// Every first move that mates within `n` moves (the move itself counted), in generation order;
    /// empty if there is none. Every legal first move is searched, so the list is complete.
    ///
    /// # Errors
    /// [`SearchAborted`] if the node limit is reached.
    ///
    /// # Panics
    /// If `n` exceeds [`MAX_MATE`].
    pub fn keys(&mut self, pos: &Position, n: u32) -> Result<Vec<Move>, SearchAborted> {
        Self::check_n(n);
        if n == 0 {
            return Ok(Vec::new());
        }
        let mut pos = pos.clone();
        let mut keys = Vec::new();
        for m in legal_moves(&pos) {
            let undo = pos.make(m);
            let wins = self.search(&mut pos, Side::Defender, n - 1, 1);
            pos.unmake(m, undo);
            if wins? {
                keys.push(m);
            }
        }
        Ok(keys)
    }

    /// With the defender to move: each legal defence and the fewest attacker moves that mate after it
    /// (`None`: no mate within `max_n`), in generation order.
    ///
    /// # Errors
    /// [`SearchAborted`] if the node limit is reached.
    ///
    /// # Panics
    /// If `max_n` exceeds [`MAX_MATE`].
    pub fn defences(&mut self, pos: &Position, max_n: u32) -> Result<Vec<(Move, Option<u32>)>, SearchAborted> {
        let mut pos = pos.clone();
        let mut out = Vec::new();
        for d in legal_moves(&pos) {
            let undo = pos.make(d);
            let len = self.shortest_mate(&pos, max_n);
            pos.unmake(d, undo);
            out.push((d, len?));
        }
        Ok(out)
    }

    /// Walks the whole solution tree of "after `first`, the side that played it mates within `n − 1` more
    /// moves" explicitly: at every defender node *every* legal defence is played (none is skipped on the
    /// strength of the table), at every attacker node the solver picks one move that still wins, and
    /// every leaf is inspected for checkmate. With [`ProofCheck::Naive`] every defender node and every mate
    /// is re-checked by the independent naive generator.
    ///
    /// `first` must be a legal move of `pos`, and `n ≥ 1`.
    ///
    /// # Errors
    /// [`ProofFailure`] with the line that breaks the claim: a defence that escapes, a stalemate, a
    /// generator disagreement, or the node limit.
    ///
    /// # Panics
    /// If `n` is 0 or exceeds [`MAX_MATE`].
    pub fn prove(
        &mut self,
        pos: &Position,
        first: Move,
        n: u32,
        check: ProofCheck,
    ) -> Result<ProofStats, ProofFailure> {
        assert!(n >= 1, "a mate in 0 has no first move");
        Self::check_n(n);
        let mut pos = pos.clone();
        let mut stats = ProofStats { attacker_moves: 1, ..ProofStats::default() };
        let mut line = vec![first];
        let undo = pos.make(first);
        let result = self.walk_defender(&mut pos, n - 1, check, &mut line, &mut stats);
        pos.unmake(first, undo);
        result.map(|()| stats)
    }

    fn walk_defender(
        &mut self,
        pos: &mut Position,
        k: u32,
        check: ProofCheck,
        line: &mut Vec<Move>,
        stats: &mut ProofStats,
    ) -> Result<(), ProofFailure> {
        stats.defender_nodes += 1;
        let defences = legal_moves(pos);
        if check == ProofCheck::Naive {
            stats.naive_nodes += 1;
            naive_agrees(pos, &defences).map_err(|detail| ProofFailure::Generators { line: line.clone(), detail })?;
        }
        if defences.is_empty() {
            if pos.is_check() {
                stats.mates += 1;
                return Ok(());
            }
            return Err(ProofFailure::Stalemate { line: line.clone() });
        }
        if k == 0 {
            // The defender still has a move after the attacker's last one: not mate.
            return Err(ProofFailure::Escape { line: line.clone(), remaining: 0 });
        }
        for d in defences {
            stats.defences += 1;
            line.push(d);
            let undo = pos.make(d);
            let result = self.walk_attacker(pos, k, check, line, stats);
            pos.unmake(d, undo);
            result?;
            line.pop();
        }
        Ok(())
    }

    fn walk_attacker(
        &mut self,
        pos: &mut Position,
        n: u32,
        check: ProofCheck,
        line: &mut Vec<Move>,
        stats: &mut ProofStats,
    ) -> Result<(), ProofFailure> {
        // Pick the fastest mating move (shortest first), so the tree stays small.
        for within in 1..=n {
            for m in ordered_attacks(pos, within == 1) {
                let undo = pos.make(m);
                let wins = self.search(pos, Side::Defender, within - 1, line.len() + 1);
                let wins = match wins {
                    Ok(w) => w,
                    Err(e) => {
                        pos.unmake(m, undo);
                        return Err(ProofFailure::Aborted(e));
                    }
                };
                if wins {
                    stats.attacker_moves += 1;
                    line.push(m);
                    let result = self.walk_defender(pos, within - 1, check, line, stats);
                    pos.unmake(m, undo);
                    result?;
                    line.pop();
                    return Ok(());
                }
                pos.unmake(m, undo);
            }
        }
        Err(ProofFailure::Escape { line: line.clone(), remaining: n })
    }

    fn probe(&self, hash: u64, c: u32) -> Option<bool> {
        let b = self.table.get(&hash)?;
        if c >= u32::from(b.holds_from) {
            Some(true)
        } else if (c as i32) <= i32::from(b.fails_to) {
            Some(false)
        } else {
            None
        }
    }

    fn store(&mut self, hash: u64, c: u32, result: bool) {
        if self.table.len() >= self.max_entries {
            self.table.clear();
        }
        let b = self.table.entry(hash).or_insert(Bounds::UNKNOWN);
        if result {
            b.holds_from = b.holds_from.min(c as u8);
        } else {
            b.fails_to = b.fails_to.max(c as i8);
        }
    }

    fn tick(&mut self) -> Result<(), SearchAborted> {
        self.nodes += 1;
        match self.limit {
            Some(limit) if self.nodes > limit => Err(SearchAborted { limit }),
            _ => Ok(()),
        }
    }

    /// The AND-OR search. Attacker node: whether the side to move mates within `c` moves. Defender node:
    /// whether the side to move is mated within `c` moves of the other side.
    fn search(&mut self, pos: &mut Position, side: Side, c: u32, ply: usize) -> Result<bool, SearchAborted> {
        self.tick()?;
        let hash = pos.hash();
        if let Some(r) = self.probe(hash, c) {
            return Ok(r);
        }
        let result = match side {
            Side::Attacker => self.attack(pos, c, ply)?,
            Side::Defender => self.defend(pos, c, ply)?,
        };
        self.store(hash, c, result);
        Ok(result)
    }

    fn take_list(&mut self, ply: usize) -> Vec<Move> {
        if self.lists.len() <= ply {
            self.lists.resize_with(ply + 1, Vec::new);
            self.killers.resize(ply + 1, None);
        }
        let mut list = std::mem::take(&mut self.lists[ply]);
        list.clear();
        list
    }

    fn attack(&mut self, pos: &mut Position, n: u32, ply: usize) -> Result<bool, SearchAborted> {
        debug_assert!(n >= 1);
        let mut list = self.take_list(ply);
        generate::<AllMoves>(pos, |piece| list.extend_from_slice(piece.moves));
        // Checks first (at the last move, checks only): a stable partition keeps generation order within.
        // A cheap geometric test rules most moves out before the move is made to look for check.
        let filter = CheckFilter::new(pos);
        let mut checks = 0;
        for i in 0..list.len() {
            let m = list[i];
            if !filter.may_check(pos, m) {
                continue;
            }
            let undo = pos.make(m);
            let gives_check = pos.is_check();
            pos.unmake(m, undo);
            if gives_check {
                list[checks..=i].rotate_right(1);
                checks += 1;
            }
        }
        let tries = if n == 1 || self.checks_only { checks } else { list.len() };
        let mut result = Ok(false);
        for &m in &list[..tries] {
            let undo = pos.make(m);
            let r = if n == 1 {
                self.tick().map(|()| count(pos) == 0)
            } else {
                self.search(pos, Side::Defender, n - 1, ply + 1)
            };
            pos.unmake(m, undo);
            match r {
                Ok(true) => {
                    result = Ok(true);
                    break;
                }
                Ok(false) => {}
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.lists[ply] = list;
        result
    }

    fn defend(&mut self, pos: &mut Position, k: u32, ply: usize) -> Result<bool, SearchAborted> {
        let mut list = self.take_list(ply);
        generate::<AllMoves>(pos, |piece| list.extend_from_slice(piece.moves));
        if list.is_empty() {
            self.lists[ply] = list;
            return Ok(pos.is_check());
        }
        if k == 0 {
            self.lists[ply] = list;
            return Ok(false);
        }
        // The defence that refuted a sibling first, then captures.
        let mut front = 0;
        if let Some(killer) = self.killers[ply] {
            if let Some(i) = list.iter().position(|&m| m == killer) {
                list.swap(0, i);
                front = 1;
            }
        }
        let first_quiet = front;
        for i in first_quiet..list.len() {
            if pos.piece_at(list[i].to).is_some() {
                list.swap(front, i);
                front += 1;
            }
        }
        let mut result = Ok(true);
        for &d in &list {
            let undo = pos.make(d);
            let r = self.search(pos, Side::Attacker, k, ply + 1);
            pos.unmake(d, undo);
            match r {
                Ok(true) => {}
                Ok(false) => {
                    self.killers[ply] = Some(d);
                    result = Ok(false);
                    break;
                }
                Err(e) => {
                    result = Err(e);
                    break;
                }
            }
        }
        self.lists[ply] = list;
        result
    }
}

/// A necessary condition for a move of the side to move to give check, from the geometry alone: the
/// moved piece (promoted, if it promotes) stands in line with the enemy king in a way its kind attacks,
/// ignoring what stands between; or it leaves a cell in line with that king along any of the 80
/// directions (a discovered check); or the move is one of the rare kinds that move a second piece
/// (castling, en passant), which are always examined. A move that fails the test cannot give check, so
/// it is never made just to look; a move that passes is made and the position asked.
struct CheckFilter {
    king: [i8; 4],
    capture_axes: &'static [usize],
}

impl CheckFilter {
    fn new(pos: &Position) -> CheckFilter {
        let g = pos.geometry();
        let k = g.coords(pos.king(pos.turn().other()));
        CheckFilter { king: [0, 1, 2, 3].map(|i| k.get(i).map_or(0, |&v| v as i8)), capture_axes: g.capture_axes() }
    }

    /// The vector from `cell` to the king.
    fn to_king(&self, pos: &Position, cell: tesseract_board::Cell) -> [i8; 4] {
        let c = pos.geometry().coords(cell);
        [0, 1, 2, 3].map(|i| self.king[i] - c.get(i).map_or(0, |&v| v as i8))
    }

    fn may_check(&self, pos: &Position, m: Move) -> bool {
        let Some(piece) = pos.piece_at(m.from) else { return true };
        if piece.role == Role::King && pos.piece_at(m.to).is_some_and(|p| p.color == piece.color) {
            return true; // castling: the rook moves too
        }
        if piece.role.is_pawn() && pos.en_passant().is_some() {
            return true; // en passant removes a pawn from a third cell
        }
        if on_a_line(&self.to_king(pos, m.from)) {
            return true; // the piece may uncover a line to the king
        }
        let d = self.to_king(pos, m.to);
        let role = m.promotion.unwrap_or(piece.role);
        let mut sizes = [0u8; 4];
        let mut count = 0;
        for v in d {
            if v != 0 {
                sizes[count] = v.unsigned_abs();
                count += 1;
            }
        }
        let equal = count > 0 && sizes[..count].iter().all(|&s| s == sizes[0]);
        match role {
            Role::King => false,
            Role::Knight => count == 2 && sizes[0] + sizes[1] == 3 && sizes[0] * sizes[1] == 2,
            Role::YPawn | Role::WPawn => {
                let axis = role.pawn_axis().expect("a pawn");
                count == 2
                    && d[axis] == piece.color.forward()
                    && self.capture_axes.iter().any(|&a| d[a].unsigned_abs() == 1)
            }
            Role::Queen => equal,
            Role::Rook | Role::Bishop | Role::Unicorn | Role::Dragon => {
                equal && role.slide_classes() & (1 << count) != 0
            }
        }
    }
}

/// Whether a nonzero vector points along one of the 80 directions (its nonzero components all equal in
/// size).
fn on_a_line(d: &[i8; 4]) -> bool {
    let mut size = 0;
    for &v in d {
        if v != 0 {
            if size != 0 && v.unsigned_abs() != size {
                return false;
            }
            size = v.unsigned_abs();
        }
    }
    size != 0
}

/// The attacker's moves, checks first; only checks when `checks_only`.
fn ordered_attacks(pos: &mut Position, checks_only: bool) -> Vec<Move> {
    let mut checks = Vec::new();
    let mut quiet = Vec::new();
    for m in legal_moves(pos) {
        let undo = pos.make(m);
        let gives_check = pos.is_check();
        pos.unmake(m, undo);
        if gives_check {
            checks.push(m);
        } else if !checks_only {
            quiet.push(m);
        }
    }
    checks.extend(quiet);
    checks
}

/// Whether the naive generator lists exactly `moves` at `pos`, and, when there are none, agrees on
/// whether the king is attacked.
fn naive_agrees(pos: &Position, moves: &[Move]) -> Result<(), String> {
    let setup = pos.to_setup();
    let mut fast = moves.to_vec();
    fast.sort();
    let mut slow = naive::legal_moves(&setup);
    slow.sort();
    if fast != slow {
        return Err(format!("at {}: fast lists {} moves, naive {}", pos.fen(), fast.len(), slow.len()));
    }
    let king = pos.king(pos.turn());
    if naive::is_attacked(&setup, king, pos.turn().other()) != pos.is_check() {
        return Err(format!("at {}: the generators disagree on check", pos.fen()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compose::Composer;
    use tesseract_board::start;
    use tesseract_movegen::legal_moves;

    /// The filter never rules out a move that gives check.
    fn filter_is_sound(pos: &Position) -> usize {
        let filter = CheckFilter::new(pos);
        let mut checks = 0;
        for m in legal_moves(pos) {
            let mut p = pos.clone();
            p.make(m);
            if p.is_check() {
                checks += 1;
                assert!(filter.may_check(pos, m), "{} at {}", tesseract_board::TextMove::from_move(m, pos), pos.fen());
            }
        }
        checks
    }

    #[test]
    fn the_check_filter_never_misses_a_check() {
        let mut checks = 0;
        let mut composer = Composer::new(1, 1);
        composer.corner = true;
        composer.reach = 4;
        composer.fill = 80;
        for _ in 0..300 {
            checks += filter_is_sound(&composer.random_position().expect("the random recipes stand"));
        }
        // Positions of a random game from the standard start, and the classic start for 2D.
        let mut pos = start::tesseract(start::Army::Standard);
        for seed in 0..60u64 {
            checks += filter_is_sound(&pos);
            let moves = legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let m = moves[(seed as usize * 7919) % moves.len()];
            pos.make(m);
        }
        assert!(checks > 100, "{checks} checks seen");
    }
}
