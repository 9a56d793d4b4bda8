//! The game: players, claims, scoring, undo, the end and its outcome.

use std::fmt;

use tesseract_board::Cell;

use crate::lines::{CELLS, CENTRE, CLAIMABLE, CLAIMABLE_MASK, LineId, Lines, bit, cell_name};

/// One of the two players. X claims first.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player.
    X,
    /// The second player.
    O,
}

impl Player {
    /// Both players, X first.
    pub const BOTH: [Player; 2] = [Player::X, Player::O];

    /// The other player.
    #[inline]
    pub const fn other(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for X, 1 for O.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `'X'` or `'O'`.
    #[inline]
    pub const fn char(self) -> char {
        match self {
            Player::X => 'X',
            Player::O => 'O',
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// How a finished game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// This player has the higher score.
    Win(Player),
    /// Equal scores.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    pub fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    /// `X wins`, `O wins` or `draw`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// One claim made in a game: who claimed which cell, and the lines it completed (each scores one point).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Claim {
    /// The cell claimed.
    pub cell: Cell,
    /// Who claimed it.
    pub player: Player,
    /// The lines this claim completed, in [`LineId`] order; empty if it scored nothing.
    pub lines: Vec<LineId>,
}

impl Claim {
    /// The points the claim scored: one per completed line.
    #[inline]
    pub fn points(&self) -> u32 {
        self.lines.len() as u32
    }
}

/// Why a cell cannot be claimed. Nothing changes when [`Game::claim`] returns one.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClaimError {
    /// The cell's index is not one of the 81 cells of the board.
    #[error("cell #{0} is not on the 3×3×3×3 board (cells are numbered 0 to 80)")]
    OffBoard(usize),
    /// The game is over: all 80 claimable cells are taken.
    #[error("the game is over: all {CLAIMABLE} cells are claimed")]
    GameOver,
    /// The centre (2,2,2,2) can never be claimed.
    #[error("the centre 2222 can never be claimed")]
    Centre,
    /// The cell already belongs to a player.
    #[error("cell {} is already claimed by {owner}", cell_name(*.cell))]
    Taken {
        /// The cell asked for.
        cell: Cell,
        /// Who holds it.
        owner: Player,
    },
}

/// The marks of both players and their scores: the state the search walks with make/unmake.
///
/// The scores follow from the marks (every completed line counts for its owner), so equal marks mean equal
/// boards; the side to move follows from the number of marks (X moves when both have as many).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Board {
    /// The cells of X and of O, bit `i` for cell index `i`.
    pub(crate) marks: [u128; 2],
    /// The points of X and of O.
    pub(crate) scores: [u16; 2],
}

impl Board {
    pub(crate) const EMPTY: Board = Board { marks: [0, 0], scores: [0, 0] };

    /// A board with these marks (disjoint, centre free), its scores counted from scratch.
    pub(crate) fn from_marks(marks: [u128; 2]) -> Board {
        let mut scores = [0u16; 2];
        for mask in Lines::get().playable_masks() {
            for p in 0..2 {
                if marks[p] & mask == *mask {
                    scores[p] += 1;
                }
            }
        }
        Board { marks, scores }
    }

    #[inline]
    pub(crate) fn occupied(&self) -> u128 {
        self.marks[0] | self.marks[1]
    }

    #[inline]
    pub(crate) fn empty(&self) -> u128 {
        CLAIMABLE_MASK & !self.occupied()
    }

    #[inline]
    pub(crate) fn claimed(&self) -> usize {
        self.occupied().count_ones() as usize
    }

    #[inline]
    pub(crate) fn mover(&self) -> Player {
        if self.claimed() % 2 == 0 { Player::X } else { Player::O }
    }

    #[inline]
    pub(crate) fn owner(&self, index: usize) -> Option<Player> {
        let b = bit(index);
        if self.marks[0] & b != 0 {
            Some(Player::X)
        } else if self.marks[1] & b != 0 {
            Some(Player::O)
        } else {
            None
        }
    }

    /// The playable lines through the cell that `player` holds entirely.
    #[inline]
    fn completed_through(&self, index: usize, player: Player) -> u16 {
        let mine = self.marks[player.index()];
        let mut n = 0;
        for &m in Lines::get().cell_masks(index) {
            n += u16::from(m != 0 && mine & m == m);
        }
        n
    }

    /// Claims a free, claimable cell for the side to move; returns the points scored.
    #[inline]
    pub(crate) fn make(&mut self, index: usize) -> u16 {
        debug_assert!(self.empty() & bit(index) != 0, "cell {index} is not free");
        let p = self.mover();
        self.marks[p.index()] |= bit(index);
        let points = self.completed_through(index, p);
        self.scores[p.index()] += points;
        points
    }

    /// Takes back the last claim, which was of this cell.
    #[inline]
    pub(crate) fn unmake(&mut self, index: usize) {
        let p = self.owner(index).expect("unmake of a free cell");
        // Claims are taken back last first, so every line through the cell that its owner holds entirely
        // was completed by this claim.
        let points = self.completed_through(index, p);
        self.scores[p.index()] -= points;
        self.marks[p.index()] &= !bit(index);
    }
}

/// A game of Four Tac Toe: the board, the scores, and the claims made since it started.
///
/// # Examples
/// ```
/// use tesseract_tactoe::{parse_cell, Game, Player};
/// let mut game = Game::new();
/// for name in ["1111", "3111", "2111", "3211", "1211", "3311"] {
///     game.claim(parse_cell(name)?)?;
/// }
/// // X holds 1111, 2111 and 1211; 3111-3211-3311 is O's: O scored one point.
/// assert_eq!(game.scores(), [0, 1]);
/// let claim = game.claim(parse_cell("1311")?)?; // completes 1111-1211-1311
/// assert_eq!((claim.player, claim.points()), (Player::X, 1));
/// game.undo();
/// assert_eq!(game.score(Player::X), 0);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    board: Board,
    claims: Vec<Claim>,
}

impl Default for Game {
    fn default() -> Game {
        Game::new()
    }
}

impl Game {
    /// An empty board, X to claim.
    pub fn new() -> Game {
        Game { board: Board::EMPTY, claims: Vec::new() }
    }

    pub(crate) fn from_board(board: Board) -> Game {
        Game { board, claims: Vec::new() }
    }

    pub(crate) fn board(&self) -> &Board {
        &self.board
    }

    /// Who claims next; after the last claim, who would (always X, since 80 is even).
    #[inline]
    pub fn to_move(&self) -> Player {
        self.board.mover()
    }

    /// Who holds `cell`, if anyone (`None` for a free cell, the centre, or a cell off the board).
    #[inline]
    pub fn owner(&self, cell: Cell) -> Option<Player> {
        if cell.index() >= CELLS { None } else { self.board.owner(cell.index()) }
    }

    /// The points of each player, X first.
    #[inline]
    pub fn scores(&self) -> [u32; 2] {
        self.board.scores.map(u32::from)
    }

    /// The points of one player.
    #[inline]
    pub fn score(&self, player: Player) -> u32 {
        u32::from(self.board.scores[player.index()])
    }

    /// How many cells are claimed (0 to 80).
    #[inline]
    pub fn claimed(&self) -> usize {
        self.board.claimed()
    }

    /// Whether all 80 claimable cells are taken.
    #[inline]
    pub fn is_over(&self) -> bool {
        self.board.claimed() == CLAIMABLE
    }

    /// The outcome once the game is over (the higher score wins, equal scores draw); `None` before.
    pub fn outcome(&self) -> Option<Outcome> {
        if !self.is_over() {
            return None;
        }
        let [x, o] = self.board.scores;
        Some(match x.cmp(&o) {
            std::cmp::Ordering::Greater => Outcome::Win(Player::X),
            std::cmp::Ordering::Less => Outcome::Win(Player::O),
            std::cmp::Ordering::Equal => Outcome::Draw,
        })
    }

    /// Whether `cell` can be claimed now: on the board, not the centre, free.
    pub fn can_claim(&self, cell: Cell) -> bool {
        self.check(cell).is_ok()
    }

    fn check(&self, cell: Cell) -> Result<(), ClaimError> {
        let index = cell.index();
        if index >= CELLS {
            return Err(ClaimError::OffBoard(index));
        }
        if self.is_over() {
            return Err(ClaimError::GameOver);
        }
        if cell == CENTRE {
            return Err(ClaimError::Centre);
        }
        if let Some(owner) = self.board.owner(index) {
            return Err(ClaimError::Taken { cell, owner });
        }
        Ok(())
    }

    /// The cells that can be claimed now, in index order.
    pub fn free_cells(&self) -> impl Iterator<Item = Cell> + use<> {
        let empty = self.board.empty();
        (0..CELLS).filter(move |&i| empty & bit(i) != 0).map(|i| Cell::new(i as u16))
    }

    /// The side to move claims `cell`, scoring one point per line the claim completes (several at once are
    /// possible).
    ///
    /// # Errors
    /// [`ClaimError`] when the cell is off the board, the centre or taken, or the game is over; the game is
    /// then unchanged.
    pub fn claim(&mut self, cell: Cell) -> Result<Claim, ClaimError> {
        self.check(cell)?;
        let player = self.board.mover();
        self.board.make(cell.index());
        let mine = self.board.marks[player.index()];
        let lines = Lines::get();
        let completed = lines
            .playable_through(cell)
            .iter()
            .copied()
            .filter(|&id| {
                let m = lines.line(id).mask();
                mine & m == m
            })
            .collect();
        let claim = Claim { cell, player, lines: completed };
        self.claims.push(claim.clone());
        Ok(claim)
    }

    /// Takes back the last claim made in this game and returns it; `None` when there is none (a new game, or
    /// a game read from text, starts with no claims to take back).
    pub fn undo(&mut self) -> Option<Claim> {
        let claim = self.claims.pop()?;
        self.board.unmake(claim.cell.index());
        Some(claim)
    }

    /// The claims made in this game (since [`Game::new`] or [`Game::from_text`]), first first.
    #[inline]
    pub fn claims(&self) -> &[Claim] {
        &self.claims
    }

    /// The claimed cells in order, as names separated by spaces (`1111 2222 …`): the record of the game,
    /// which [`Game::replay`] plays again.
    pub fn record(&self) -> String {
        self.claims.iter().map(|c| cell_name(c.cell)).collect::<Vec<_>>().join(" ")
    }

    /// A new game with these cells claimed in turn, X first.
    ///
    /// # Errors
    /// The first claim that fails, with its place in `cells`.
    pub fn replay(cells: impl IntoIterator<Item = Cell>) -> Result<Game, (usize, ClaimError)> {
        let mut game = Game::new();
        for (i, cell) in cells.into_iter().enumerate() {
            game.claim(cell).map_err(|e| (i, e))?;
        }
        Ok(game)
    }

    /// The grid as a picture (feature `svg`): crosses for X, rings for O, the centre blocked, each completed
    /// line drawn through its three cells in its owner's color, the last claim marked.
    ///
    /// ```
    /// use tesseract_tactoe::{parse_cell, Game};
    /// let mut game = Game::new();
    /// for name in ["1111", "3333", "2111", "3332", "3111"] {
    ///     game.claim(parse_cell(name)?)?;
    /// }
    /// let svg = game.picture().to_svg();
    /// assert_eq!(svg.matches("class=\"line\"").count(), 1); // 1111-2111-3111
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    #[cfg(feature = "svg")]
    pub fn picture(&self) -> tesseract_board::svg::Picture {
        use tesseract_board::svg::{Picture, Sign, Stroke};
        let mut picture = Picture::new(crate::geometry().shape()).sign(crate::CENTRE, Sign::Blocked);
        for claim in &self.claims {
            let sign = if claim.player == Player::X { Sign::Cross } else { Sign::Ring };
            picture = picture.sign(claim.cell, sign);
        }
        for (id, player) in self.completed_lines() {
            let cells = Lines::get().line(id).cells();
            let stroke = if player == Player::X { Stroke::Red } else { Stroke::Blue };
            picture = picture.line(cells[0], cells[2], stroke);
        }
        if let Some(last) = self.claims.last() {
            picture = picture.last_move(last.cell, last.cell);
        }
        picture
    }

    /// Every completed line with its owner, found from the board alone (not from the claims), in line order.
    pub fn completed_lines(&self) -> Vec<(LineId, Player)> {
        let mut out = Vec::new();
        for line in Lines::get().playable() {
            for p in Player::BOTH {
                if self.board.marks[p.index()] & line.mask() == line.mask() {
                    out.push((line.id(), p));
                }
            }
        }
        out
    }
}
