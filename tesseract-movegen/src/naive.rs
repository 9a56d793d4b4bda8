//! The naive reference generator: deliberately slow, deliberately plain.
//!
//! This module exists to cross-check the fast generator. It computes everything from the rules of
//! RULES.md (§1, §2, §5, §6) by coordinate arithmetic on a plain [`Setup`]:
//!
//! - directions are enumerated as the nonzero vectors of {−1,0,1}^d and classed by how many axes move;
//!   knight leaps are (±2, ±1) on every ordered pair of axes; pawn moves come from the pawn's own axis
//!   and the capture axes;
//! - rays are walked one cell at a time, converting coordinates to indices and back on every step;
//! - every pseudo-legal move is played on a fresh copy of the [`Setup`] ([`play`]) and kept only if the
//!   mover's king is not attacked afterwards;
//! - [`is_attacked`] does not walk rays out from the target: it asks each enemy piece, by the geometry of
//!   the vector from that piece to the target, whether it attacks it (so attack detection and move
//!   generation are two different computations that check each other).
//!
//! **What it shares with the fast generator:** only the plain data types of `tesseract-board`
//! ([`Setup`], [`Shape`], [`Cell`], [`Move`], [`Piece`], [`Color`], [`Role`]). It does not use `Position`,
//! the padded mailbox, piece lists, make/unmake, nor any precomputed table of the board crate (directions,
//! leaps, pawn roles, capture axes): a bug in a shared table would otherwise show up identically in both
//! generators and never be caught. Move *encoding* is shared by contract (a castling move is the king moving
//! onto its own rook; one move per promotion piece), so that move lists can be compared directly.
//!
//! Nothing here is fast: a perft walks the tree with a full copy of the board at every node.

use tesseract_board::{Cell, Color, Move, Piece, Role, Setup, Shape};

/// The axis along which a Y-pawn advances (y).
const Y_AXIS: usize = 1;
/// The axis along which a W-pawn advances (w).
const W_AXIS: usize = 3;

/// Coordinates of a cell: 1-based on the first `dims` axes, 0 on the unused ones.
type Coords = [i32; 4];

/// The shape, as the two numbers the arithmetic needs.
#[derive(Copy, Clone, Debug)]
struct Board {
    dims: usize,
    side: i32,
}

impl Board {
    fn of(shape: Shape) -> Board {
        Board { dims: shape.dims(), side: shape.side() as i32 }
    }

    /// 1-based coordinates from the index `(x−1) + n·(y−1) + n²·(z−1) + n³·(w−1)`.
    fn coords(self, cell: Cell) -> Coords {
        let mut rest = cell.index() as i32;
        let mut c = [0; 4];
        for v in c.iter_mut().take(self.dims) {
            *v = rest % self.side + 1;
            rest /= self.side;
        }
        c
    }

    /// The cell at these coordinates, or `None` off the board.
    fn cell(self, c: Coords) -> Option<Cell> {
        let mut index = 0;
        let mut stride = 1;
        for (axis, &v) in c.iter().enumerate() {
            if axis < self.dims {
                if v < 1 || v > self.side {
                    return None;
                }
                index += (v - 1) * stride;
                stride *= self.side;
            } else if v != 0 {
                return None;
            }
        }
        Some(Cell::new(index as u16))
    }

    /// The cell `k` steps of `delta` away from `cell`, or `None` off the board.
    fn step(self, cell: Cell, delta: Coords, k: i32) -> Option<Cell> {
        let c = self.coords(cell);
        self.cell([c[0] + k * delta[0], c[1] + k * delta[1], c[2] + k * delta[2], c[3] + k * delta[3]])
    }

    /// Every nonzero vector of {−1,0,1}^dims.
    fn directions(self) -> Vec<Coords> {
        let mut out = Vec::new();
        for k in 0..3_i32.pow(self.dims as u32) {
            let mut v = [0; 4];
            let mut rest = k;
            for x in v.iter_mut().take(self.dims) {
                *x = rest % 3 - 1;
                rest /= 3;
            }
            if v != [0; 4] {
                out.push(v);
            }
        }
        out
    }

    /// Every knight leap: ±2 on one axis and ±1 on another.
    fn knight_leaps(self) -> Vec<Coords> {
        let mut out = Vec::new();
        for a in 0..self.dims {
            for b in 0..self.dims {
                if a == b {
                    continue;
                }
                for sa in [-2, 2] {
                    for sb in [-1, 1] {
                        let mut v = [0; 4];
                        v[a] = sa;
                        v[b] = sb;
                        out.push(v);
                    }
                }
            }
        }
        out
    }

    /// The axes along which pawns capture sideways: the axes along which no pawn advances.
    fn capture_axes(self) -> Vec<usize> {
        match self.dims {
            2 => vec![0],
            _ => vec![0, 2],
        }
    }

    /// The vector moving `amount` along `axis` and nothing along the other axes.
    fn unit(axis: usize, amount: i32) -> Coords {
        let mut v = [0; 4];
        v[axis] = amount;
        v
    }
}

/// The number of axes a direction moves along (its class).
fn class_of(v: Coords) -> usize {
    v.iter().filter(|&&x| x != 0).count()
}

/// Whether a piece of `role` slides along directions of `class`.
fn slides_along(role: Role, class: usize) -> bool {
    match role {
        Role::Queen => true,
        Role::Rook => class == 1,
        Role::Bishop => class == 2,
        Role::Unicorn => class == 3,
        Role::Dragon => class == 4,
        _ => false,
    }
}

/// The axis a pawn advances along.
fn pawn_axis(role: Role) -> Option<usize> {
    match role {
        Role::YPawn => Some(Y_AXIS),
        Role::WPawn => Some(W_AXIS),
        _ => None,
    }
}

/// +1 for White, −1 for Black.
fn forward(color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => -1,
    }
}

/// The pieces a pawn may promote to on this board: Q R B N in 2D, plus U (3+ axes) and D (4 axes).
fn promotion_roles(board: Board) -> Vec<Role> {
    if board.dims == 2 {
        return vec![Role::Queen, Role::Rook, Role::Bishop, Role::Knight];
    }
    Role::PROMOTIONS.into_iter().filter(|r| r.exists_in(board.dims)).collect()
}

/// The coordinate of the last cell along a pawn's axis: n for White, 1 for Black.
fn last_row(board: Board, color: Color) -> i32 {
    match color {
        Color::White => board.side,
        Color::Black => 1,
    }
}

/// The coordinate of a pawn's start cell along its axis: 2 for White, n−1 for Black.
fn start_row(board: Board, color: Color) -> i32 {
    match color {
        Color::White => 2,
        Color::Black => board.side - 1,
    }
}

/// The back rank (y) of a side in 2D: 1 for White, n for Black.
fn back_rank(board: Board, color: Color) -> i32 {
    match color {
        Color::White => 1,
        Color::Black => board.side,
    }
}

fn piece_at(setup: &Setup, cell: Cell) -> Option<Piece> {
    setup.board[cell.index()]
}

fn all_cells(setup: &Setup) -> impl Iterator<Item = Cell> + use<> {
    (0..setup.shape.cells()).map(|i| Cell::new(i as u16))
}

/// The pawn that double-stepped over `target`, if it can be taken en passant by the side to move.
///
/// The side that just moved ("doubler") advanced a pawn from `target − forward` to `target + forward`
/// along that pawn's axis. A Y-pawn is looked for first, then a W-pawn. The target and the pawn's start
/// cell must be empty.
fn en_passant_victim(setup: &Setup, target: Cell) -> Option<Cell> {
    let board = Board::of(setup.shape);
    let doubler = setup.turn.other();
    let f = forward(doubler);
    if piece_at(setup, target).is_some() {
        return None;
    }
    if let Some(pawn) = setup.en_passant_pawn {
        // The text named the pawn (needed in 4D when a Y-pawn and a W-pawn could both have passed).
        return piece_at(setup, pawn).is_some_and(|p| p.color == doubler && p.role.is_pawn()).then_some(pawn);
    }
    for role in [Role::YPawn, Role::WPawn] {
        if !role.exists_in(board.dims) {
            continue;
        }
        let axis = pawn_axis(role).expect("a pawn");
        let Some(victim) = board.step(target, Board::unit(axis, f), 1) else { continue };
        let Some(origin) = board.step(target, Board::unit(axis, -f), 1) else { continue };
        if piece_at(setup, victim) == Some(Piece::new(doubler, role)) && piece_at(setup, origin).is_none() {
            return Some(victim);
        }
    }
    None
}

/// Whether a pawn move from `from` to `to` is a capture-shaped move (it changes a coordinate other than
/// the pawn's own axis).
fn is_sideways(board: Board, from: Cell, to: Cell, axis: usize) -> bool {
    let a = board.coords(from);
    let b = board.coords(to);
    (0..4).any(|i| i != axis && a[i] != b[i])
}

/// Pushes one move per promotion piece if `to` is on the pawn's last row, else one plain move.
fn push_pawn_move(board: Board, color: Color, axis: usize, from: Cell, to: Cell, out: &mut Vec<Move>) {
    if board.coords(to)[axis] == last_row(board, color) {
        for role in promotion_roles(board) {
            out.push(Move { from, to, promotion: Some(role) });
        }
    } else {
        out.push(Move { from, to, promotion: None });
    }
}

/// The pseudo-legal moves of the piece on `from` (no castling; check is ignored).
fn pseudo_moves_from(setup: &Setup, from: Cell, out: &mut Vec<Move>) {
    let board = Board::of(setup.shape);
    let Some(piece) = piece_at(setup, from) else { return };
    let us = piece.color;
    let add = |to: Cell, out: &mut Vec<Move>| out.push(Move { from, to, promotion: None });
    match piece.role {
        Role::King => {
            for d in board.directions() {
                if let Some(to) = board.step(from, d, 1) {
                    if piece_at(setup, to).is_none_or(|p| p.color != us) {
                        add(to, out);
                    }
                }
            }
        }
        Role::Knight => {
            for l in board.knight_leaps() {
                if let Some(to) = board.step(from, l, 1) {
                    if piece_at(setup, to).is_none_or(|p| p.color != us) {
                        add(to, out);
                    }
                }
            }
        }
        Role::Queen | Role::Rook | Role::Bishop | Role::Unicorn | Role::Dragon => {
            for d in board.directions() {
                if !slides_along(piece.role, class_of(d)) {
                    continue;
                }
                let mut k = 1;
                while let Some(to) = board.step(from, d, k) {
                    match piece_at(setup, to) {
                        None => add(to, out),
                        Some(p) => {
                            if p.color != us {
                                add(to, out);
                            }
                            break;
                        }
                    }
                    k += 1;
                }
            }
        }
        Role::YPawn | Role::WPawn => {
            let axis = pawn_axis(piece.role).expect("a pawn");
            let f = forward(us);
            if let Some(one) = board.step(from, Board::unit(axis, f), 1) {
                if piece_at(setup, one).is_none() {
                    push_pawn_move(board, us, axis, from, one, out);
                    if board.coords(from)[axis] == start_row(board, us) {
                        if let Some(two) = board.step(from, Board::unit(axis, f), 2) {
                            if piece_at(setup, two).is_none() {
                                push_pawn_move(board, us, axis, from, two, out);
                            }
                        }
                    }
                }
            }
            for cap_axis in board.capture_axes() {
                for s in [-1, 1] {
                    let mut v = Board::unit(axis, f);
                    v[cap_axis] = s;
                    let Some(to) = board.step(from, v, 1) else { continue };
                    match piece_at(setup, to) {
                        Some(p) if p.color != us => push_pawn_move(board, us, axis, from, to, out),
                        Some(_) => {}
                        None => {
                            if setup.en_passant == Some(to) && en_passant_victim(setup, to).is_some() {
                                push_pawn_move(board, us, axis, from, to, out);
                            }
                        }
                    }
                }
            }
        }
    }
}

/// The cells the piece on `cell` can move to, ignoring check and castling (one entry per destination,
/// however many promotion pieces it has). Empty if the cell is empty.
///
/// Pawn destinations include the en passant target when a capture lands on it.
pub fn piece_destinations(setup: &Setup, cell: Cell) -> Vec<Cell> {
    let mut moves = Vec::new();
    pseudo_moves_from(setup, cell, &mut moves);
    let mut cells: Vec<Cell> = moves.into_iter().map(|m| m.to).collect();
    cells.sort();
    cells.dedup();
    cells
}

/// Whether the piece `piece` on `from` attacks `target`, decided from the vector between the two cells
/// (and, for sliders, the emptiness of the cells in between).
fn attacks(setup: &Setup, from: Cell, piece: Piece, target: Cell) -> bool {
    let board = Board::of(setup.shape);
    let a = board.coords(from);
    let b = board.coords(target);
    let delta: Coords = [b[0] - a[0], b[1] - a[1], b[2] - a[2], b[3] - a[3]];
    if delta == [0; 4] {
        return false;
    }
    let mut sizes: Vec<i32> = delta.iter().filter(|&&x| x != 0).map(|x| x.abs()).collect();
    sizes.sort();
    match piece.role {
        Role::King => sizes.iter().all(|&s| s == 1),
        Role::Knight => sizes == [1, 2],
        Role::YPawn | Role::WPawn => {
            let axis = pawn_axis(piece.role).expect("a pawn");
            if delta[axis] != forward(piece.color) {
                return false;
            }
            let others: Vec<usize> = (0..4).filter(|&i| i != axis && delta[i] != 0).collect();
            others.len() == 1 && board.capture_axes().contains(&others[0]) && delta[others[0]].abs() == 1
        }
        Role::Queen | Role::Rook | Role::Bishop | Role::Unicorn | Role::Dragon => {
            let k = sizes[sizes.len() - 1];
            if sizes.iter().any(|&s| s != k) || !slides_along(piece.role, sizes.len()) {
                return false;
            }
            let dir: Coords = delta.map(|x| x / k);
            (1..k).all(|i| piece_at(setup, board.step(from, dir, i).expect("between two cells")).is_none())
        }
    }
}

/// Whether any piece of `by` attacks `cell` (a king attacks its neighbours, a pawn its capture cells
/// whether or not they are occupied, a slider along an unobstructed line of its classes).
pub fn is_attacked(setup: &Setup, cell: Cell, by: Color) -> bool {
    all_cells(setup).any(|from| match piece_at(setup, from) {
        Some(p) if p.color == by => attacks(setup, from, p, cell),
        _ => false,
    })
}

/// Whether some king of `color` is attacked by the other side (false if it has no king).
fn king_attacked(setup: &Setup, color: Color) -> bool {
    all_cells(setup)
        .filter(|&c| piece_at(setup, c) == Some(Piece::new(color, Role::King)))
        .any(|c| is_attacked(setup, c, color.other()))
}

/// For a castling with the king on file `king_file` and the rook on `rook_file`: the files the king and
/// the rook end on (g and f if the rook is on the king's right, c and d if on its left).
fn castling_targets(king_file: i32, rook_file: i32) -> (i32, i32) {
    if rook_file > king_file { (7, 6) } else { (3, 4) }
}

/// The castling moves of the side to move that are fully legal (2D only; empty on other boards).
fn castling_moves(setup: &Setup, out: &mut Vec<Move>) {
    let board = Board::of(setup.shape);
    if board.dims != 2 {
        return;
    }
    let us = setup.turn;
    let rank = back_rank(board, us);
    let Some(king) = (1..=board.side)
        .map(|x| board.cell([x, rank, 0, 0]).expect("on the board"))
        .find(|&c| piece_at(setup, c) == Some(Piece::new(us, Role::King)))
    else {
        return;
    };
    let king_file = board.coords(king)[0];
    for &rook in &setup.castling {
        let rc = board.coords(rook);
        if rc[1] != rank || piece_at(setup, rook) != Some(Piece::new(us, Role::Rook)) {
            continue;
        }
        let rook_file = rc[0];
        let (king_to, rook_to) = castling_targets(king_file, rook_file);
        let at = |x: i32| board.cell([x, rank, 0, 0]).expect("on the board");
        let span = |a: i32, b: i32| a.min(b)..=a.max(b);
        let clear = span(king_file, king_to)
            .chain(span(rook_file, rook_to))
            .all(|x| at(x) == king || at(x) == rook || piece_at(setup, at(x)).is_none());
        if !clear {
            continue;
        }
        // The king may not be in check, nor cross or land on an attacked cell (judged on the board as it
        // is); the landing cell is judged again after the move by the caller, on the board as it will be.
        if span(king_file, king_to).any(|x| is_attacked(setup, at(x), us.other())) {
            continue;
        }
        out.push(Move { from: king, to: rook, promotion: None });
    }
}

/// Every pseudo-legal move of the side to move, castling included (castling is only generated when legal).
fn pseudo_moves(setup: &Setup) -> Vec<Move> {
    let mut out = Vec::new();
    for from in all_cells(setup) {
        if piece_at(setup, from).is_some_and(|p| p.color == setup.turn) {
            pseudo_moves_from(setup, from, &mut out);
        }
    }
    castling_moves(setup, &mut out);
    out
}

/// The legal moves of the side to move, in no particular order.
///
/// Pseudo-legal moves are generated by coordinate arithmetic, each is played on a copy of the setup, and
/// it is kept if the mover's king is not attacked afterwards. A promotion is one move per promotion piece
/// (Q R B N in 2D; also U with 3+ axes and D with 4); castling (2D) is the king moving onto its own rook.
pub fn legal_moves(setup: &Setup) -> Vec<Move> {
    pseudo_moves(setup).into_iter().filter(|&m| !king_attacked(&play(setup, m), setup.turn)).collect()
}

/// The setup after the legal move `m` (played on a copy).
///
/// Handles captures, en passant (the pawn that double-stepped over the target is removed), promotion,
/// castling (king onto its own rook: king to g/c, rook to f/d), the en passant target (set after every
/// double step, cleared otherwise), castling rights (lost for a side whose king moves and for every rook
/// cell a move leaves or lands on), the halfmove clock and the fullmove number.
///
/// # Panics
/// If `from` is empty.
pub fn play(setup: &Setup, m: Move) -> Setup {
    let board = Board::of(setup.shape);
    let mut next = setup.clone();
    let piece = piece_at(setup, m.from).expect("a piece on the move's from cell");
    let us = piece.color;
    let target = piece_at(setup, m.to);
    let mut resets_clock = piece.role.is_pawn();
    next.en_passant = None;
    next.en_passant_pawn = None;

    let castling = piece.role == Role::King && target == Some(Piece::new(us, Role::Rook));
    if castling {
        let rank = board.coords(m.from)[1];
        let (king_to, rook_to) = castling_targets(board.coords(m.from)[0], board.coords(m.to)[0]);
        next.board[m.from.index()] = None;
        next.board[m.to.index()] = None;
        next.board[board.cell([king_to, rank, 0, 0]).expect("on the board").index()] = Some(piece);
        next.board[board.cell([rook_to, rank, 0, 0]).expect("on the board").index()] = Some(Piece::new(us, Role::Rook));
    } else {
        if target.is_some() {
            resets_clock = true;
        }
        if let Some(axis) = pawn_axis(piece.role) {
            let from_c = board.coords(m.from);
            let to_c = board.coords(m.to);
            if target.is_none() && setup.en_passant == Some(m.to) && is_sideways(board, m.from, m.to, axis) {
                if let Some(victim) = en_passant_victim(setup, m.to) {
                    next.board[victim.index()] = None;
                }
            }
            // A double step that promotes (a side of 4) leaves no pawn behind to be taken en passant.
            if (to_c[axis] - from_c[axis]).abs() == 2 && m.promotion.is_none() {
                next.en_passant = board.step(m.from, Board::unit(axis, forward(us)), 1);
                next.en_passant_pawn = Some(m.to);
            }
        }
        next.board[m.from.index()] = None;
        next.board[m.to.index()] = Some(match m.promotion {
            Some(role) => Piece::new(us, role),
            None => piece,
        });
    }

    if piece.role == Role::King && board.dims == 2 {
        let rank = back_rank(board, us);
        next.castling.retain(|&c| board.coords(c)[1] != rank);
    }
    next.castling.retain(|&c| c != m.from && c != m.to);

    next.halfmove = if resets_clock { 0 } else { setup.halfmove.saturating_add(1) };
    if us == Color::Black {
        next.fullmove = setup.fullmove.saturating_add(1);
    }
    next.turn = setup.turn.other();
    next
}

/// The number of leaf nodes of the legal move tree `depth` plies deep (`perft(_, 0) == 1`), making every
/// move on a copy at every ply.
pub fn perft(setup: &Setup, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    legal_moves(setup).into_iter().map(|m| perft(&play(setup, m), depth - 1)).sum()
}

/// Perft split by first move: each legal move and the perft of `depth − 1` after it, sorted by move.
/// The counts add up to [`perft`]`(setup, depth)` (for `depth == 0` the list is empty).
pub fn divide(setup: &Setup, depth: u32) -> Vec<(Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let mut out: Vec<(Move, u64)> =
        legal_moves(setup).into_iter().map(|m| (m, perft(&play(setup, m), depth - 1))).collect();
    out.sort();
    out
}
