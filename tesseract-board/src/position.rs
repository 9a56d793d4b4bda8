//! [`Position`]: a validated position with a padded mailbox, piece lists and an incremental hash.

use crate::bitboard::Bitboards;
use crate::geometry::LINE_LEAP;
use crate::mailbox::{self, EMPTY, OFFBOARD};
use crate::setup::{PositionError, PositionErrorKind};
use crate::zobrist::Zobrist;
use crate::{Cell, Color, Geometry, Move, Piece, Role, Setup, Shape};

/// The most moves any legal position of a supported shape can have, and the capacity of move lists.
///
/// Worked out: a side has at most [`Position::max_pieces`] pieces, and no piece has more moves than a
/// queen in the middle of the board (a promoting pawn has at most 5 destinations × 6 pieces = 30). On the
/// 5⁴ board a queen has at most 8·2 + 24·2 + 32·2 + 16·2 = 160 moves, and the piece limit there is
/// 10,240 / 160 = 64 a side (the dense army has 42). Every shape's limit is derived the same way from its
/// own queen, so this bound holds for every valid position of every shape.
pub const MAX_MOVES: usize = 10_240;

/// Which rook a castling right belongs to, by side of the king.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingSide {
    /// Toward file a (O-O-O).
    Queen = 0,
    /// Toward the last file (O-O).
    King = 1,
}

impl CastlingSide {
    /// The king's file after castling (c or g on 8×8).
    pub const fn king_to_file(self, side: u8) -> u8 {
        match self {
            CastlingSide::Queen => 3,
            CastlingSide::King => side - 1,
        }
    }

    /// The rook's file after castling (d or f on 8×8).
    pub const fn rook_to_file(self, side: u8) -> u8 {
        match self {
            CastlingSide::Queen => 4,
            CastlingSide::King => side - 2,
        }
    }
}

/// How castling is written: the classic way or the Chess960 way (RULES.md §4, §6).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum CastlingMode {
    /// Classic chess: castling moves as the king's two-step (`e1g1`), rights as `KQkq`.
    #[default]
    Standard,
    /// Chess960: castling as king takes own rook (`e1h1`), rights in X-FEN (or Shredder-FEN on request).
    Chess960,
}

/// The castling rooks that keep their rights: at most one per color and side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Default)]
pub struct Castling {
    rooks: [[Option<Cell>; 2]; 2],
}

impl Castling {
    /// The rook of `color` on `side` that may still castle.
    #[inline]
    pub fn rook(&self, color: Color, side: CastlingSide) -> Option<Cell> {
        self.rooks[color.index()][side as usize]
    }

    /// Whether no right remains.
    pub fn is_empty(&self) -> bool {
        self.rooks.iter().flatten().all(Option::is_none)
    }

    /// Every rook cell with a right, in cell order.
    pub fn cells(&self) -> Vec<Cell> {
        let mut v: Vec<Cell> = self.rooks.iter().flatten().flatten().copied().collect();
        v.sort();
        v
    }
}

/// The en passant state after a double step: the cell passed over and the pawn that may be taken.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct EnPassant {
    /// The cell passed over, where a capturing pawn lands.
    pub target: Cell,
    /// The cell of the pawn that double-stepped, removed by the capture.
    pub victim: Cell,
}

/// What [`Position::make`] hands back so that [`Position::unmake`] can restore the position exactly.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Undo {
    moved: u8,
    captured: u8,
    captured_at: u16,
    castled: bool,
    en_passant: Option<EnPassant>,
    castling: Castling,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
}

/// A valid position on a board of any supported shape.
///
/// Built from a [`Setup`] by [`Position::from_setup`] (which checks it), from text by
/// [`Position::from_fen`], or from the start positions in [`crate::start`]. Fields are private: a
/// `Position` is always valid, and every way to change it keeps it so when given moves that its legal
/// move generator produced.
///
/// Internally the board is a padded mailbox (see [`crate::geometry`]), each side keeps a list of its
/// pieces' mailbox indices, and the Zobrist hash is updated incrementally by [`Position::make`] and
/// restored by [`Position::unmake`]. Move generation lives in the `tesseract-movegen` crate; this type
/// gives it the raw tables through [`Position::mailbox`] and [`Position::piece_list`].
pub struct Position {
    geo: &'static Geometry,
    keys: &'static Zobrist,
    mailbox: Box<[u8]>,
    lists: [Vec<u16>; 2],
    list_index: Box<[u16]>,
    kings: [u16; 2],
    turn: Color,
    castling: Castling,
    en_passant: Option<EnPassant>,
    halfmove: u32,
    fullmove: u32,
    hash: u64,
    mode: CastlingMode,
    /// The 8×8 board's cell sets, `None` on every other shape (see [`Position::bitboards`]).
    bb: Option<Bitboards>,
}

impl Clone for Position {
    fn clone(&self) -> Position {
        Position {
            geo: self.geo,
            keys: self.keys,
            mailbox: self.mailbox.clone(),
            lists: self.lists.clone(),
            list_index: self.list_index.clone(),
            kings: self.kings,
            turn: self.turn,
            castling: self.castling,
            en_passant: self.en_passant,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
            mode: self.mode,
            bb: self.bb,
        }
    }

    /// Copies `source` into this position's own buffers: no allocation when both are of one shape (and the
    /// piece lists have room), for a caller that copies positions in a loop.
    fn clone_from(&mut self, source: &Position) {
        self.geo = source.geo;
        self.keys = source.keys;
        self.mailbox.clone_from(&source.mailbox);
        self.lists[0].clone_from(&source.lists[0]);
        self.lists[1].clone_from(&source.lists[1]);
        self.list_index.clone_from(&source.list_index);
        self.kings = source.kings;
        self.turn = source.turn;
        self.castling = source.castling;
        self.en_passant = source.en_passant;
        self.halfmove = source.halfmove;
        self.fullmove = source.fullmove;
        self.hash = source.hash;
        self.mode = source.mode;
        self.bb = source.bb;
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Position")
            .field("fen", &self.fen())
            .field("mode", &self.mode)
            .field("hash", &format_args!("{:#018x}", self.hash))
            .finish()
    }
}

/// Two positions are equal when their boards, side to move, castling rights, en passant state and clocks
/// are; the castling mode counts only while a castling right remains (it changes nothing else).
impl PartialEq for Position {
    fn eq(&self, other: &Position) -> bool {
        self.geo.shape() == other.geo.shape()
            && self.mailbox == other.mailbox
            && self.turn == other.turn
            && self.castling == other.castling
            && self.en_passant == other.en_passant
            && self.halfmove == other.halfmove
            && self.fullmove == other.fullmove
            && (self.mode == other.mode || self.castling.is_empty())
    }
}

impl Eq for Position {}

impl Position {
    /// Checks a setup and builds the position, or reports every reason it is not valid.
    ///
    /// An en passant cell is kept only when a pawn of the side to move stands where it could capture onto
    /// it (as modern FEN writers do), so that equal positions hash equally.
    ///
    /// # Errors
    /// [`PositionError`] lists every [`PositionErrorKind`] found and hands the setup back.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{CastlingMode, Color, Piece, Position, Role, Setup, Shape};
    /// let mut setup = Setup::empty(Shape::TESSERACT);
    /// setup.put(&[3, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    /// let err = Position::from_setup(setup.clone(), CastlingMode::Standard).unwrap_err();
    /// assert_eq!(err.to_string(), "invalid position: black has no king");
    /// setup.put(&[3, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    /// let pos = Position::from_setup(setup, CastlingMode::Standard)?;
    /// assert_eq!(pos.pieces().count(), 2);
    /// # Ok::<_, tesseract_board::PositionError>(())
    /// ```
    pub fn from_setup(setup: Setup, mode: CastlingMode) -> Result<Position, PositionError> {
        let shape = setup.shape;
        let geo = shape.geometry();
        let mut errors = Vec::new();
        if setup.board.len() != shape.cells() {
            errors.push(PositionErrorKind::BoardSize { shape, expected: shape.cells(), found: setup.board.len() });
            return Err(PositionError { errors, setup: Box::new(setup) });
        }
        let dims = shape.dims();
        let n = shape.side() as u8;
        let mut kings: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
        let mut counts = [0usize; 2];
        for cell in geo.all_cells() {
            let Some(piece) = setup.piece(cell) else { continue };
            counts[piece.color.index()] += 1;
            if !piece.role.exists_in(dims) {
                errors.push(PositionErrorKind::RoleNotOnBoard { cell: geo.cell_name(cell), role: piece.role, dims });
                continue;
            }
            if piece.role == Role::King {
                kings[piece.color.index()].push(cell);
            }
            if let Some(axis) = piece.role.pawn_axis() {
                let c = geo.coord(cell, axis);
                let (last, behind) = match piece.color {
                    Color::White => (c == n, c < 2),
                    Color::Black => (c == 1, c > n - 1),
                };
                if last {
                    errors.push(PositionErrorKind::PawnOnPromotionCell {
                        cell: geo.cell_name(cell),
                        color: piece.color,
                        pawn: piece.role.name_in(dims),
                    });
                } else if behind {
                    errors.push(PositionErrorKind::PawnBehindStart {
                        cell: geo.cell_name(cell),
                        color: piece.color,
                        pawn: piece.role.name_in(dims),
                    });
                }
            }
        }
        let max = Position::max_pieces(shape);
        for color in Color::ALL {
            match kings[color.index()].len() {
                0 => errors.push(PositionErrorKind::MissingKing { color }),
                1 => {}
                count => errors.push(PositionErrorKind::TooManyKings { color, count }),
            }
            if counts[color.index()] > max {
                errors.push(PositionErrorKind::TooManyPieces { color, count: counts[color.index()], max });
            }
        }
        if setup.fullmove == 0 {
            errors.push(PositionErrorKind::FullmoveZero);
        }
        let castling = validate_castling(&setup, &kings, mode, &mut errors);
        let en_passant = validate_en_passant(&setup, &mut errors);
        if !errors.is_empty() {
            return Err(PositionError { errors, setup: Box::new(setup) });
        }

        let keys = Zobrist::of(shape);
        let mut pos = Position {
            geo,
            keys,
            mailbox: build_empty_mailbox(geo),
            lists: [Vec::new(), Vec::new()],
            list_index: vec![0u16; geo.padded_len()].into(),
            kings: [0, 0],
            turn: setup.turn,
            castling,
            en_passant,
            halfmove: setup.halfmove,
            fullmove: setup.fullmove,
            hash: 0,
            mode,
            bb: (shape == Shape::CHESS).then(Bitboards::default),
        };
        for cell in geo.all_cells() {
            if let Some(piece) = setup.piece(cell) {
                let p = geo.padded(cell);
                pos.mailbox[p] = piece.code();
                pos.add_to_list(piece.color, p);
                if piece.role == Role::King {
                    pos.kings[piece.color.index()] = p as u16;
                }
                if let Some(bb) = &mut pos.bb {
                    bb.toggle(piece.color, piece.role, cell.index());
                }
            }
        }
        let them = setup.turn.other();
        if pos.is_attacked(pos.king(them), setup.turn) {
            return Err(PositionError {
                errors: vec![PositionErrorKind::OppositeCheck { color: them }],
                setup: Box::new(setup),
            });
        }
        if let Some(ep) = pos.en_passant {
            if !pos.could_capture_en_passant(ep.target, setup.turn) {
                pos.en_passant = None;
            } else if setup.en_passant_pawn.is_none() && en_passant_candidates(&setup, ep.target).len() > 1 {
                return Err(PositionError {
                    errors: vec![PositionErrorKind::EnPassant {
                        cell: geo.cell_name(ep.target),
                        reason: "a Y-pawn and a W-pawn could both have passed over it and a pawn can capture there: \
                                 name the pawn too",
                    }],
                    setup: Box::new(setup),
                });
            }
        }
        pos.hash = pos.hash_from_scratch();
        Ok(pos)
    }

    /// The most pieces a side may have on `shape`: what keeps every move list within [`MAX_MOVES`].
    pub fn max_pieces(shape: Shape) -> usize {
        // No piece has more moves than a queen at its best cell, or than a promoting pawn (30).
        let per_piece = shape.geometry().queen_reach().max(30);
        (MAX_MOVES / per_piece).min(shape.cells())
    }

    /// The shape of the board.
    #[inline]
    pub fn shape(&self) -> Shape {
        self.geo.shape()
    }

    /// The tables of the board's shape.
    #[inline]
    pub fn geometry(&self) -> &'static Geometry {
        self.geo
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// How castling is written for this position.
    #[inline]
    pub fn castling_mode(&self) -> CastlingMode {
        self.mode
    }

    /// The castling rights.
    #[inline]
    pub fn castling(&self) -> Castling {
        self.castling
    }

    /// The en passant state, when a pawn of the side to move could capture en passant (pseudo-legally).
    #[inline]
    pub fn en_passant(&self) -> Option<EnPassant> {
        self.en_passant
    }

    /// Plies since the last capture or pawn move (for the 50-move rule).
    #[inline]
    pub fn halfmove_clock(&self) -> u32 {
        self.halfmove
    }

    /// The fullmove number.
    #[inline]
    pub fn fullmove_number(&self) -> u32 {
        self.fullmove
    }

    /// The Zobrist hash ([`crate::zobrist`]).
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The piece on `cell` (`None` also for a cell outside the board).
    #[inline]
    pub fn piece_at(&self, cell: Cell) -> Option<Piece> {
        let p = *self.geo.cell_to_padded_table().get(cell.index())?;
        Piece::from_code(self.mailbox[p as usize])
    }

    /// Every piece with its cell, in cell order.
    pub fn pieces(&self) -> impl Iterator<Item = (Cell, Piece)> + '_ {
        self.geo.all_cells().filter_map(|c| self.piece_at(c).map(|p| (c, p)))
    }

    /// The cell of the king of `color`.
    #[inline]
    pub fn king(&self, color: Color) -> Cell {
        Cell::new(self.geo.padded_to_cell_table()[self.kings[color.index()] as usize])
    }

    /// The pieces as 64-bit cell sets (bit `i`: the cell of index `i`, a1 = 0, h1 = 7, a8 = 56), on the
    /// 8×8 board only; `None` on every other shape.
    ///
    /// They are updated with the mailbox by every [`Position::make`] and [`Position::unmake`], for move
    /// generators (`tesseract-movegen`'s 8×8 back end) and evaluation; [`Position::check_validity`]
    /// compares them with the mailbox in debug builds.
    #[inline]
    pub fn bitboards(&self) -> Option<&Bitboards> {
        self.bb.as_ref()
    }

    /// The padded mailbox: one byte per entry (see [`crate::mailbox`]), for move generators.
    #[inline]
    pub fn mailbox(&self) -> &[u8] {
        &self.mailbox
    }

    /// The mailbox indices of the pieces of `color`, in no particular order, for move generators.
    #[inline]
    pub fn piece_list(&self, color: Color) -> &[u16] {
        &self.lists[color.index()]
    }

    /// The mailbox index of the king of `color`.
    #[inline]
    pub fn king_padded(&self, color: Color) -> usize {
        self.kings[color.index()] as usize
    }

    /// The same position as plain data (the en passant pawn named only where the cell is ambiguous, as
    /// in the text).
    pub fn to_setup(&self) -> Setup {
        let mut setup = Setup::empty(self.shape());
        for (cell, piece) in self.pieces() {
            setup.board[cell.index()] = Some(piece);
        }
        setup.turn = self.turn;
        setup.castling = self.castling.cells();
        setup.en_passant = self.en_passant.map(|ep| ep.target);
        // The pawn is named only where the cell alone cannot say which pawn passed (as the text does).
        setup.en_passant_pawn =
            self.en_passant.filter(|ep| en_passant_candidates(&setup, ep.target).len() > 1).map(|ep| ep.victim);
        setup.halfmove = self.halfmove;
        setup.fullmove = self.fullmove;
        setup
    }

    /// Whether the side to move is in check.
    pub fn is_check(&self) -> bool {
        self.is_attacked(self.king(self.turn), self.turn.other())
    }

    /// Whether a piece of color `by` attacks `cell` (whatever stands on it). Works on any position, before
    /// any move generator exists: on 8×8 from the bitboards, on sides up to 5 by asking each piece of `by`
    /// through a line table, on other shapes by scanning out from the cell along every direction and leap.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, Color};
    /// let pos = start::tesseract(start::Army::Standard);
    /// let g = pos.geometry();
    /// assert!(!g.all_cells().any(|c| pos.piece_at(c).is_some_and(|p| pos.is_attacked(c, p.color.other()))));
    /// ```
    ///
    /// A cell outside the board is attacked by nothing (false).
    pub fn is_attacked(&self, cell: Cell, by: Color) -> bool {
        if let Some(bb) = &self.bb {
            // 8×8: the leaper tables and the lines of the bitboards (the scan is the test's reference).
            return cell.index() < 64 && bb.is_attacked(cell.index(), by);
        }
        match self.geo.cell_to_padded_table().get(cell.index()) {
            Some(&p) => self.attacked_padded(p as usize, by),
            None => false,
        }
    }

    fn attacked_padded(&self, at: usize, by: Color) -> bool {
        if self.geo.line(at, at).is_some() { self.attacked_from_pieces(at, by) } else { self.attacked_by_scan(at, by) }
    }

    /// [`Position::attacked_padded`] by scanning out from the cell along every direction and leap: for the
    /// shapes without a line table and other than 8×8 (sides of 6 and more in 1 to 3 dimensions, where
    /// it is cheap: a 2D board has 8 directions).
    fn attacked_by_scan(&self, at: usize, by: Color) -> bool {
        let mb = &self.mailbox;
        for dir in self.geo.directions() {
            let mut p = at as isize + dir.offset as isize;
            let mut dist = 1;
            loop {
                let code = mb[p as usize];
                if code == EMPTY {
                    p += dir.offset as isize;
                    dist += 1;
                    continue;
                }
                if code != OFFBOARD && mailbox::color(code) == by {
                    let role = mailbox::role(code);
                    if role.slide_classes() & (1 << dir.class) != 0 {
                        return true;
                    }
                    if dist == 1 {
                        if role == Role::King {
                            return true;
                        }
                        if let Some(axis) = role.pawn_axis() {
                            // The pawn stands at `at + dir`; it captures along `-dir`.
                            if pawn_captures_along(self.geo, axis, by, &dir.delta.map(|v| -v)) {
                                return true;
                            }
                        }
                    }
                }
                break;
            }
        }
        let knight = mailbox::code(by, Role::Knight);
        self.geo.leaps().iter().any(|l| mb[(at as isize + l.offset as isize) as usize] == knight)
    }

    /// [`Position::attacked_padded`] by asking each piece of `by` through the geometry's line table: one
    /// load for a piece on no line with the cell. In 4D, scanning out from the cell along 80 directions
    /// cost the search an eighth of its instructions (its check test); an army has 20 to 42 pieces.
    fn attacked_from_pieces(&self, at: usize, by: Color) -> bool {
        let g = self.geo;
        let mb = &self.mailbox;
        for &s in &self.lists[by.index()] {
            let s = s as usize;
            // A piece standing on the cell does not attack it (the scan out from the cell never sees it).
            let rel = match g.line(s, at) {
                Some(rel) if s != at && rel != 0 => rel,
                _ => continue,
            };
            let role = mailbox::role(mb[s]);
            if rel == LINE_LEAP {
                if role == Role::Knight {
                    return true;
                }
                continue;
            }
            let dir = &g.directions()[rel as usize - 1];
            let step = dir.offset as isize;
            if role.slide_classes() & (1 << dir.class) != 0 {
                let mut p = s as isize + step;
                while p as usize != at && mb[p as usize] == EMPTY {
                    p += step;
                }
                if p as usize == at {
                    return true;
                }
            } else if s as isize + step == at as isize {
                if role == Role::King {
                    return true;
                }
                // The pawn captures along `dir`, toward the cell.
                if let Some(axis) = role.pawn_axis() {
                    if pawn_captures_along(g, axis, by, &dir.delta) {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// Whether a pawn of `color` stands where it could capture onto `target` (pseudo-legally).
    fn could_capture_en_passant(&self, target: Cell, color: Color) -> bool {
        let g = self.geo;
        let t = g.padded(target) as isize;
        g.pawn_roles().iter().any(|&role| {
            let axis = role.pawn_axis().expect("a pawn");
            let back = t - color.forward() as isize * g.stride(axis) as isize;
            let code = mailbox::code(color, role);
            g.capture_axes().iter().any(|&k| {
                let s = g.stride(k) as isize;
                self.mailbox[(back + s) as usize] == code || self.mailbox[(back - s) as usize] == code
            })
        })
    }

    /// Whether the position is a dead draw by material: kings alone (RULES.md §2; no other material is
    /// declared insufficient on these boards).
    pub fn is_kings_only(&self) -> bool {
        self.lists[0].len() == 1 && self.lists[1].len() == 1
    }

    /// The Zobrist hash computed from scratch (the incremental one must always equal it).
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = 0u64;
        for color in Color::ALL {
            for &p in &self.lists[color.index()] {
                let piece = Piece::from_code(self.mailbox[p as usize]).expect("listed cells hold pieces");
                h ^= self.keys.piece(piece, self.cell_of(p as usize));
            }
        }
        if self.turn == Color::Black {
            h ^= self.keys.side();
        }
        if let Some(ep) = self.en_passant {
            h ^= self.keys.en_passant(ep.target);
        }
        for cell in self.castling.cells() {
            let color = if self.geo.coord(cell, 1) == 1 { Color::White } else { Color::Black };
            h ^= self.keys.castling(color, self.geo.coord(cell, 0));
        }
        h
    }

    #[inline]
    fn cell_of(&self, padded: usize) -> Cell {
        Cell::new(self.geo.padded_to_cell_table()[padded])
    }

    #[inline]
    fn add_to_list(&mut self, color: Color, p: usize) {
        let list = &mut self.lists[color.index()];
        self.list_index[p] = list.len() as u16;
        list.push(p as u16);
    }

    #[inline]
    fn remove_from_list(&mut self, color: Color, p: usize) {
        let list = &mut self.lists[color.index()];
        let i = self.list_index[p] as usize;
        let last = list.pop().expect("a listed piece");
        if i < list.len() {
            list[i] = last;
            self.list_index[last as usize] = i as u16;
        }
    }

    #[inline]
    fn move_in_list(&mut self, color: Color, from: usize, to: usize) {
        let i = self.list_index[from];
        self.lists[color.index()][i as usize] = to as u16;
        self.list_index[to] = i;
    }

    #[inline]
    fn toggle_castling_hash(&mut self, color: Color, cell: Cell) {
        self.hash ^= self.keys.castling(color, self.geo.coord(cell, 0));
    }

    /// Plays `m`, which must be legal in this position, and returns what [`Position::unmake`] needs.
    ///
    /// This is the fast, unchecked path for search and perft: it trusts the move. Play moves that come from
    /// users or the network through the legal generator of `tesseract-movegen` (`play`, `is_legal`).
    ///
    /// # Panics
    /// May panic, or leave a position that breaks the rules, when `m` is not a legal move here; never
    /// undefined behaviour. In debug builds every call ends with a validity check.
    pub fn make(&mut self, m: Move) -> Undo {
        let g = self.geo;
        let keys = self.keys;
        let us = self.turn;
        let them = us.other();
        let from = g.padded(m.from);
        let to = g.padded(m.to);
        let code = self.mailbox[from];
        debug_assert!(
            mailbox::is_piece(code) && mailbox::color(code) == us,
            "no piece of the side to move on the from cell"
        );
        let role = mailbox::role(code);
        let mut undo = self.undo_record(code, to);
        let target = self.mailbox[to];
        self.halfmove = self.halfmove.saturating_add(1);
        if role == Role::King && target == mailbox::code(us, Role::Rook) {
            undo.castled = true;
            let (king_to, rook_to) = self.castling_destinations(m);
            let (kt, rt) = (g.padded(king_to), g.padded(rook_to));
            let (ik, ir) = (self.list_index[from], self.list_index[to]);
            self.mailbox[from] = EMPTY;
            self.mailbox[to] = EMPTY;
            self.mailbox[kt] = code;
            self.mailbox[rt] = target;
            self.lists[us.index()][ik as usize] = kt as u16;
            self.lists[us.index()][ir as usize] = rt as u16;
            self.list_index[kt] = ik;
            self.list_index[rt] = ir;
            self.kings[us.index()] = kt as u16;
            let king = Piece::new(us, Role::King);
            let rook = Piece::new(us, Role::Rook);
            self.hash ^= keys.piece(king, m.from)
                ^ keys.piece(king, king_to)
                ^ keys.piece(rook, m.to)
                ^ keys.piece(rook, rook_to);
            if let Some(bb) = &mut self.bb {
                bb.shift(us, Role::King, Role::King, m.from.index(), king_to.index());
                bb.shift(us, Role::Rook, Role::Rook, m.to.index(), rook_to.index());
            }
        } else {
            if mailbox::is_piece(target) {
                undo.captured = target;
                self.remove_from_list(them, to);
                self.hash ^= keys.piece(Piece::new(them, mailbox::role(target)), m.to);
                self.halfmove = 0;
                if let Some(bb) = &mut self.bb {
                    bb.toggle(them, mailbox::role(target), m.to.index());
                }
            } else if role.is_pawn() && undo.en_passant.is_some_and(|ep| ep.target == m.to) && !is_straight(g, role, m)
            {
                let victim = undo.en_passant.expect("checked").victim;
                let vp = g.padded(victim);
                undo.captured = self.mailbox[vp];
                undo.captured_at = vp as u16;
                self.remove_from_list(them, vp);
                self.mailbox[vp] = EMPTY;
                self.hash ^= keys.piece(Piece::new(them, mailbox::role(undo.captured)), victim);
                if let Some(bb) = &mut self.bb {
                    bb.toggle(them, mailbox::role(undo.captured), victim.index());
                }
            }
            self.mailbox[from] = EMPTY;
            let placed = match m.promotion {
                Some(promo) => mailbox::code(us, promo),
                None => code,
            };
            self.mailbox[to] = placed;
            self.move_in_list(us, from, to);
            self.hash ^=
                keys.piece(Piece::new(us, role), m.from) ^ keys.piece(Piece::new(us, mailbox::role(placed)), m.to);
            if let Some(bb) = &mut self.bb {
                bb.shift(us, role, mailbox::role(placed), m.from.index(), m.to.index());
            }
            if role == Role::King {
                self.kings[us.index()] = to as u16;
            } else if let Some(axis) = role.pawn_axis() {
                self.halfmove = 0;
                let step = g.stride(axis) as isize * us.forward() as isize;
                // A double step that promotes (on a side of 4) leaves no pawn to take en passant.
                if to as isize - from as isize == 2 * step && m.promotion.is_none() {
                    let passed = self.cell_of((from as isize + step) as usize);
                    if self.could_capture_en_passant(passed, them) {
                        self.en_passant = Some(EnPassant { target: passed, victim: m.to });
                        self.hash ^= keys.en_passant(passed);
                    }
                }
            }
        }
        if !self.castling.is_empty() {
            self.update_castling_rights(role, us, m);
        }
        if us == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.turn = them;
        self.hash ^= keys.side();
        #[cfg(debug_assertions)]
        self.check_validity();
        undo
    }

    /// Saves what unmake restores, and clears the en passant state (and its hash key): every move and the
    /// null move start so.
    fn undo_record(&mut self, moved: u8, captured_at: usize) -> Undo {
        let undo = Undo {
            moved,
            captured: EMPTY,
            captured_at: captured_at as u16,
            castled: false,
            en_passant: self.en_passant,
            castling: self.castling,
            halfmove: self.halfmove,
            fullmove: self.fullmove,
            hash: self.hash,
        };
        if let Some(ep) = self.en_passant.take() {
            self.hash ^= self.keys.en_passant(ep.target);
        }
        undo
    }

    /// Takes back `m`, which [`Position::make`] played and returned `undo` for, restoring the position and
    /// its hash exactly.
    ///
    /// # Panics
    /// May panic, or corrupt the position, if `m` and `undo` are not the last move made and its undo.
    pub fn unmake(&mut self, m: Move, undo: Undo) {
        let g = self.geo;
        let them = self.turn;
        let us = them.other();
        let from = g.padded(m.from);
        let to = g.padded(m.to);
        if undo.castled {
            let (king_to, rook_to) = self.castling_destinations(m);
            let (kt, rt) = (g.padded(king_to), g.padded(rook_to));
            let (ik, ir) = (self.list_index[kt], self.list_index[rt]);
            self.mailbox[kt] = EMPTY;
            self.mailbox[rt] = EMPTY;
            self.mailbox[from] = mailbox::code(us, Role::King);
            self.mailbox[to] = mailbox::code(us, Role::Rook);
            self.lists[us.index()][ik as usize] = from as u16;
            self.lists[us.index()][ir as usize] = to as u16;
            self.list_index[from] = ik;
            self.list_index[to] = ir;
            self.kings[us.index()] = from as u16;
            if let Some(bb) = &mut self.bb {
                bb.shift(us, Role::King, Role::King, m.from.index(), king_to.index());
                bb.shift(us, Role::Rook, Role::Rook, m.to.index(), rook_to.index());
            }
        } else {
            let code = undo.moved;
            let placed = self.mailbox[to];
            self.mailbox[from] = code;
            self.mailbox[to] = EMPTY;
            self.move_in_list(us, to, from);
            if mailbox::role(code) == Role::King {
                self.kings[us.index()] = from as u16;
            }
            if let Some(bb) = &mut self.bb {
                bb.shift(us, mailbox::role(code), mailbox::role(placed), m.from.index(), m.to.index());
            }
            if undo.captured != EMPTY {
                let at = undo.captured_at as usize;
                self.mailbox[at] = undo.captured;
                self.add_to_list(them, at);
                if let Some(bb) = &mut self.bb {
                    bb.toggle(them, mailbox::role(undo.captured), g.padded_to_cell_table()[at] as usize);
                }
            }
        }
        self.turn = us;
        self.fullmove = undo.fullmove;
        self.en_passant = undo.en_passant;
        self.castling = undo.castling;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
        #[cfg(debug_assertions)]
        self.check_validity();
    }

    /// Passes the turn (a "null move", for null-move pruning in search); returns what
    /// [`Position::unmake_null`] needs.
    ///
    /// # Panics
    /// Debug builds panic when the side to move is in check: passing then leaves a king en prise.
    pub fn make_null(&mut self) -> Undo {
        debug_assert!(!self.is_check(), "a null move in check");
        let undo = self.undo_record(EMPTY, 0);
        if self.turn == Color::Black {
            self.fullmove = self.fullmove.saturating_add(1);
        }
        self.halfmove = self.halfmove.saturating_add(1);
        self.turn = self.turn.other();
        self.hash ^= self.keys.side();
        undo
    }

    /// Takes back a null move.
    pub fn unmake_null(&mut self, undo: Undo) {
        self.turn = self.turn.other();
        self.fullmove = undo.fullmove;
        self.en_passant = undo.en_passant;
        self.halfmove = undo.halfmove;
        self.hash = undo.hash;
    }

    /// Where the king lands if `m` is a castling move here (the king moving onto its own rook that still
    /// has its castling right: `Move::to` is the rook's cell), else `None`: the g or c file of its rank
    /// on 8×8, in classic chess and in Chess960 alike (whether the move is legal is the generator's
    /// question). A GUI lights this cell as well as the rook's for a two-step king click.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{Move, Position};
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// let g = pos.geometry();
    /// let castle = Move { from: g.parse_cell("e1").unwrap(), to: g.parse_cell("h1").unwrap(), promotion: None };
    /// assert_eq!(pos.castling_king_to(castle), g.parse_cell("g1"));
    /// # Ok::<_, tesseract_board::FromFenError>(())
    /// ```
    pub fn castling_king_to(&self, m: Move) -> Option<Cell> {
        if self.shape() != Shape::CHESS || !self.geo.contains(m.from) || !self.geo.contains(m.to) {
            return None;
        }
        let king = self.piece_at(m.from).filter(|k| k.role == Role::King)?;
        let side =
            if self.geo.coord(m.to, 0) > self.geo.coord(m.from, 0) { CastlingSide::King } else { CastlingSide::Queen };
        (self.castling.rook(king.color, side) == Some(m.to)).then(|| self.castling_destinations(m).0)
    }

    /// Where king and rook land for a castling move written king-takes-rook.
    fn castling_destinations(&self, m: Move) -> (Cell, Cell) {
        let g = self.geo;
        let side = if g.coord(m.to, 0) > g.coord(m.from, 0) { CastlingSide::King } else { CastlingSide::Queen };
        let rank = g.coord(m.from, 1);
        let n = g.side() as u8;
        let king_to = g.cell(&[side.king_to_file(n), rank]).expect("on the board");
        let rook_to = g.cell(&[side.rook_to_file(n), rank]).expect("on the board");
        (king_to, rook_to)
    }

    fn update_castling_rights(&mut self, role: Role, us: Color, m: Move) {
        for color in Color::ALL {
            for side in [CastlingSide::Queen, CastlingSide::King] {
                let Some(rook) = self.castling.rooks[color.index()][side as usize] else { continue };
                let king_moved = color == us && role == Role::King;
                if king_moved || rook == m.from || rook == m.to {
                    self.castling.rooks[color.index()][side as usize] = None;
                    self.toggle_castling_hash(color, rook);
                }
            }
        }
    }

    /// Checks the internal invariants: piece lists agree with the mailbox, kings are where recorded, the
    /// bitboards (8×8) hold exactly the mailbox's pieces, and the incremental hash equals the hash from
    /// scratch. Runs after every make and unmake in debug builds.
    ///
    /// # Panics
    /// When an invariant is broken.
    pub fn check_validity(&self) {
        for color in Color::ALL {
            for (i, &p) in self.lists[color.index()].iter().enumerate() {
                let code = self.mailbox[p as usize];
                assert!(
                    mailbox::is_piece(code) && mailbox::color(code) == color,
                    "piece list of {color} names an entry without its piece"
                );
                assert_eq!(self.list_index[p as usize] as usize, i, "piece list index out of step");
            }
            assert_eq!(
                self.mailbox[self.kings[color.index()] as usize],
                mailbox::code(color, Role::King),
                "{color} king not where recorded"
            );
        }
        assert_eq!(self.bb.is_some(), self.shape() == Shape::CHESS, "bitboards kept exactly on 8×8");
        if let Some(bb) = &self.bb {
            let mut expected = Bitboards::default();
            for (cell, piece) in self.pieces() {
                expected.toggle(piece.color, piece.role, cell.index());
            }
            assert_eq!(*bb, expected, "bitboards differ from the mailbox");
        }
        assert_eq!(self.hash, self.hash_from_scratch(), "incremental hash differs from the hash from scratch");
    }
}

/// Whether a pawn of `color` advancing along `axis` captures along `delta` (one step forward on its axis
/// and one step along a capture axis).
fn pawn_captures_along(g: &Geometry, axis: usize, color: Color, delta: &[i8; crate::geometry::MAX_DIMS]) -> bool {
    if delta[axis] != color.forward() {
        return false;
    }
    let sideways: Vec<usize> = (0..g.dims()).filter(|&a| a != axis && delta[a] != 0).collect();
    sideways.len() == 1 && g.capture_axes().contains(&sideways[0])
}

/// Whether a pawn move goes straight along the pawn's own axis (a push, never a capture).
fn is_straight(g: &Geometry, role: Role, m: Move) -> bool {
    let axis = role.pawn_axis().expect("a pawn");
    let (a, b) = (g.coords(m.from), g.coords(m.to));
    (0..g.dims()).all(|k| k == axis || a[k] == b[k])
}

/// The pawns of the side that just moved that could have passed over `target` with a double step (the
/// target and the pawn's start cell empty): at most one per pawn kind.
pub(crate) fn en_passant_candidates(setup: &Setup, target: Cell) -> Vec<EnPassant> {
    let g = setup.shape.geometry();
    let mover = setup.turn.other();
    let passed_coord = match mover {
        Color::White => 3,
        Color::Black => g.side() as u8 - 2,
    };
    let mut found = Vec::new();
    if setup.piece(target).is_some() {
        return found;
    }
    for &role in g.pawn_roles() {
        let axis = role.pawn_axis().expect("a pawn");
        if g.coord(target, axis) != passed_coord {
            continue;
        }
        let mut fwd = [0i8; crate::geometry::MAX_DIMS];
        fwd[axis] = mover.forward();
        let back = fwd.map(|v| -v);
        let (Some(victim), Some(origin)) = (g.offset(target, &fwd), g.offset(target, &back)) else { continue };
        if setup.piece(origin).is_none() && setup.piece(victim) == Some(Piece::new(mover, role)) {
            found.push(EnPassant { target, victim });
        }
    }
    found
}

fn build_empty_mailbox(g: &Geometry) -> Box<[u8]> {
    let mut mb = vec![OFFBOARD; g.padded_len()];
    for cell in g.all_cells() {
        mb[g.padded(cell)] = EMPTY;
    }
    mb.into()
}

fn validate_castling(
    setup: &Setup,
    kings: &[Vec<Cell>; 2],
    mode: CastlingMode,
    errors: &mut Vec<PositionErrorKind>,
) -> Castling {
    let g = setup.shape.geometry();
    let mut castling = Castling::default();
    let n = g.side() as u8;
    for &rook in &setup.castling {
        let err = |reason| PositionErrorKind::Castling {
            cell: if rook.index() < g.cells() { g.cell_name(rook) } else { rook.to_string() },
            reason,
        };
        if g.dims() != 2 || n != 8 {
            errors.push(err("there is no castling on this board (only on 8×8)"));
            continue;
        }
        if rook.index() >= g.cells() {
            errors.push(err("the cell is not on the board"));
            continue;
        }
        let rank = g.coord(rook, 1);
        let color = match rank {
            1 => Color::White,
            r if r == n => Color::Black,
            _ => {
                errors.push(err("a castling rook must stand on its back rank"));
                continue;
            }
        };
        if setup.piece(rook) != Some(Piece::new(color, Role::Rook)) {
            errors.push(err("no rook of that side stands there"));
            continue;
        }
        let [king] = kings[color.index()][..] else { continue };
        if g.coord(king, 1) != rank {
            errors.push(err("the king is not on its back rank"));
            continue;
        }
        let (kf, rf) = (g.coord(king, 0), g.coord(rook, 0));
        let side = if rf > kf { CastlingSide::King } else { CastlingSide::Queen };
        if mode == CastlingMode::Standard && (kf != 5 || n != 8 || (rf != 1 && rf != 8)) {
            errors.push(err("classic castling needs the king on e and the rook in the corner (use Chess960 mode)"));
            continue;
        }
        let slot = &mut castling.rooks[color.index()][side as usize];
        if slot.is_some() {
            errors.push(err("two castling rooks on the same side of the king"));
            continue;
        }
        *slot = Some(rook);
    }
    castling
}

fn validate_en_passant(setup: &Setup, errors: &mut Vec<PositionErrorKind>) -> Option<EnPassant> {
    let target = setup.en_passant?;
    let g = setup.shape.geometry();
    let name = |c: Cell| if c.index() < g.cells() { g.cell_name(c) } else { c.to_string() };
    if target.index() >= g.cells() {
        errors.push(PositionErrorKind::EnPassant { cell: name(target), reason: "the cell is not on the board" });
        return None;
    }
    let candidates = en_passant_candidates(setup, target);
    let err = |reason| PositionErrorKind::EnPassant { cell: name(target), reason };
    match (setup.en_passant_pawn, &candidates[..]) {
        (_, []) => errors.push(err("no double step of the side that just moved could have passed over it")),
        (None, [one]) => return Some(*one),
        // Which pawn passed matters only if a pawn of the side to move can capture there; `from_setup`
        // refuses the text then, and drops the field otherwise.
        (None, [first, ..]) => return Some(*first),
        (Some(pawn), _) => match candidates.iter().find(|c| c.victim == pawn) {
            Some(c) => return Some(*c),
            None => errors.push(err("the named pawn could not have passed over it")),
        },
    }
    None
}

#[cfg(test)]
mod tests {
    use super::Position;
    use crate::{CastlingMode, Color, Piece, Role, Setup, Shape};

    /// On every shape with a line table, on random positions, asking each piece whether it attacks a cell
    /// agrees with scanning out from the cell, for every cell and both colours.
    #[test]
    fn attacks_found_from_the_pieces_agree_with_the_scan_from_the_cell() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let mut checked = 0;
        for d in 1..=4 {
            for n in 3..=5 {
                let shape = Shape::new(d, n).unwrap();
                let g = shape.geometry();
                assert!(g.line(0, 0).is_some(), "{shape} has a line table");
                let roles: Vec<Role> = Role::ALL.iter().copied().filter(|r| r.exists_in(d)).collect();
                for _ in 0..200 {
                    let mut setup = Setup::empty(shape);
                    let cells: Vec<_> = g.all_cells().collect();
                    for (i, color) in Color::ALL.into_iter().enumerate() {
                        let king = cells[next(cells.len())];
                        setup.board[king.index()] = Some(Piece::new(color, Role::King));
                        for _ in 0..(1 + next(shape.cells() / 4 + 1)) {
                            let cell = cells[next(cells.len())];
                            if setup.board[cell.index()].is_none() {
                                let role = roles[next(roles.len())];
                                if role != Role::King {
                                    setup.board[cell.index()] = Some(Piece::new(Color::ALL[i], role));
                                }
                            }
                        }
                    }
                    let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard) else { continue };
                    for cell in g.all_cells() {
                        let at = g.padded(cell);
                        for by in Color::ALL {
                            assert_eq!(
                                pos.attacked_from_pieces(at, by),
                                pos.attacked_by_scan(at, by),
                                "{shape}, {}, cell {}, by {by}",
                                pos.fen(),
                                g.cell_name(cell)
                            );
                        }
                    }
                    checked += 1;
                }
            }
        }
        assert!(checked > 300, "only {checked} random positions were valid");
    }

    /// On 8×8, where `is_attacked` asks the bitboards, it agrees with the scan out from the cell for every
    /// cell and both colours, on random positions (with every piece of chess, pawns included).
    #[test]
    fn attacks_found_from_the_bitboards_agree_with_the_scan_on_8x8() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move |below: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % below as u64) as usize
        };
        let shape = Shape::CHESS;
        let g = shape.geometry();
        let roles = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight, Role::YPawn];
        let mut checked = 0;
        for _ in 0..2000 {
            let mut setup = Setup::empty(shape);
            for color in Color::ALL {
                setup.board[next(64)] = Some(Piece::new(color, Role::King));
            }
            for _ in 0..(2 + next(24)) {
                let cell = next(64);
                let rank = cell / 8;
                let role = roles[next(roles.len())];
                if setup.board[cell].is_none() && (role != Role::YPawn || (1..7).contains(&rank)) {
                    setup.board[cell] = Some(Piece::new(Color::ALL[next(2)], role));
                }
            }
            let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard) else { continue };
            assert!(pos.bitboards().is_some());
            for cell in g.all_cells() {
                for by in Color::ALL {
                    assert_eq!(
                        pos.is_attacked(cell, by),
                        pos.attacked_by_scan(g.padded(cell), by),
                        "{}, cell {}, by {by}",
                        pos.fen(),
                        g.cell_name(cell)
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 500, "only {checked} random positions were valid");
    }
}
