//! Checked play: legality, resolving text moves, playing untrusted moves, game outcomes.

use tesseract_board::{Cell, Color, Move, Position, Role, TextMove, TextMoveError, Undo, mailbox};

use crate::fast::{count, legal_moves};

/// Why a text move cannot be played in a position.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum MoveError {
    /// The text is not a move text at all (RULES.md §4).
    #[error("{text:?} is not a move: {source}")]
    Text {
        /// The text, as typed.
        text: String,
        /// What is wrong with it, and where.
        source: TextMoveError,
    },
    /// The text is written for a board with another number of axes.
    #[error("the move is written for a board of {found} axes, but this board has {expected}")]
    WrongDims {
        /// The board's axes.
        expected: usize,
        /// The text's axes.
        found: usize,
    },
    /// A coordinate is off this board.
    #[error("{which} cell {text:?} is not on this board")]
    OffBoard {
        /// `from` or `to`.
        which: &'static str,
        /// The move text.
        text: String,
    },
    /// A [`Move`] names a cell index outside the board.
    #[error("the move's {which} cell (index {index}) is not on this board of {cells} cells")]
    CellOffBoard {
        /// `from` or `to`.
        which: &'static str,
        /// The cell's index.
        index: usize,
        /// The board's number of cells.
        cells: usize,
    },
    /// The text names no legal move here.
    #[error("{text} is not a legal move here: {reason}")]
    Illegal {
        /// The move text.
        text: String,
        /// What is wrong.
        reason: &'static str,
    },
}

/// Whether the game is over, and how (RULES.md §2).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "snake_case"))]
pub enum Outcome {
    /// The side to move is checkmated; the winner is named.
    Checkmate {
        /// The side that gave mate.
        winner: Color,
    },
    /// The side to move has no legal move and is not in check.
    Stalemate,
    /// A dead position by material: kings alone on any board; on the 8×8 board also a king and one
    /// knight or bishop against a king, and kings with bishops all on squares of one color (FIDE).
    DeadDraw,
}

/// The text of each move of a line (RULES.md §4), each written in the position it is played from
/// (castling as that position's mode writes it). It stops before the first move that is not legal in
/// turn, so a line from an untrusted source or a stale table never corrupts anything.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_movegen::{Legal, text_line};
/// let pos = start::chess();
/// let e4 = pos.parse_move("e2e4")?;
/// let line = text_line(&pos, &[e4]);
/// assert_eq!(line.iter().map(ToString::to_string).collect::<Vec<_>>(), ["e2e4"]);
/// assert!(text_line(&pos, &[e4, e4]).len() == 1, "e2e4 twice is not a line");
/// # Ok::<_, tesseract_movegen::MoveError>(())
/// ```
pub fn text_line(pos: &Position, line: &[Move]) -> Vec<TextMove> {
    let mut p = pos.clone();
    let mut out = Vec::with_capacity(line.len());
    for &m in line {
        let g = p.geometry();
        if !g.contains(m.from) || !g.contains(m.to) {
            break;
        }
        let text = TextMove::from_move(m, &p);
        if p.play(m).is_err() {
            break;
        }
        out.push(text);
    }
    out
}

/// [`text_line`] as one string, the texts separated by spaces (`e2e4 e7e5 g1f3`).
pub fn text_line_string(pos: &Position, line: &[Move]) -> String {
    text_line(pos, line).iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// Legal-move methods on [`Position`]: import this trait to call them.
pub trait Legal {
    /// Whether `m` is a legal move here (it must come from this position's legal move list).
    fn is_legal(&self, m: Move) -> bool;

    /// Plays `m` if it is legal and returns its undo; otherwise changes nothing.
    ///
    /// # Errors
    /// [`MoveError::CellOffBoard`] for a move naming a cell outside the board, [`MoveError::Illegal`] for a
    /// move not in the legal list.
    fn play(&mut self, m: Move) -> Result<Undo, MoveError>;

    /// Resolves a text move into the legal move it names here.
    ///
    /// # Errors
    /// [`MoveError`] saying why no legal move matches.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{start, TextMove};
    /// use tesseract_movegen::Legal;
    /// let mut pos = start::tesseract(start::Army::Standard);
    /// let m = pos.resolve(&"22132313".parse::<TextMove>()?)?;
    /// pos.play(m)?;
    /// let err = pos.resolve(&"22132313".parse::<TextMove>()?).unwrap_err();
    /// assert_eq!(err.to_string(), "22132313 is not a legal move here: no piece of the side to move stands on the from cell");
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    fn resolve(&self, text: &TextMove) -> Result<Move, MoveError>;

    /// The legal move of the piece on `from` to the cell `to` (with `promotion` for a pawn that promotes),
    /// as a board GUI reads a click: `to` is the cell the piece lands on, or for castling either the
    /// king's destination (the two-step click, e1g1) or its own rook's cell (e1h1), in classic chess and
    /// Chess960 alike. When an ordinary king move lands on the same cell as castling would (Chess960, king
    /// on f1 and rook on h1: g1), the ordinary move is meant; castling is then the click on the rook.
    ///
    /// # Errors
    /// [`MoveError::CellOffBoard`] for a cell outside the board, [`MoveError::Illegal`] when no legal move
    /// matches.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::Position;
    /// use tesseract_movegen::Legal;
    /// let pos = Position::from_fen("4k3/8/8/8/8/8/8/4K2R w K - 0 1")?;
    /// let cell = |name| pos.geometry().parse_cell(name).unwrap();
    /// let two_step = pos.move_between(cell("e1"), cell("g1"), None)?;
    /// let onto_rook = pos.move_between(cell("e1"), cell("h1"), None)?;
    /// assert_eq!(two_step, onto_rook);
    /// assert_eq!(pos.castling_king_to(two_step), Some(cell("g1")));
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    fn move_between(&self, from: Cell, to: Cell, promotion: Option<Role>) -> Result<Move, MoveError>;

    /// Parses and resolves a move text in one step.
    ///
    /// # Errors
    /// As [`Legal::resolve`], and [`MoveError::Text`] for text that is not a move, its source saying what
    /// this board expects (`TextMove::parse_for`: a cell alone, a count of digits not the board's).
    fn parse_move(&self, text: &str) -> Result<Move, MoveError>;

    /// The outcome if the game is over by the rules of the board (mate, stalemate, dead position); the
    /// rules that depend on the game's history (repetitions, the 50- and 75-move rules) are
    /// [`Game`](crate::Game)'s.
    fn outcome(&self) -> Option<Outcome>;

    /// Whether no sequence of legal moves can mate, by the material alone: kings alone on every board
    /// (RULES.md §2; no other material is declared insufficient in 4D, where whether K+Q v K always wins
    /// is open), and on the 8×8 board FIDE's dead positions by material: K+N v K, K+B v K, and kings with
    /// any number of bishops all standing on squares of one color.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::Position;
    /// use tesseract_movegen::Legal;
    /// let dead: Position = "8/8/4k3/8/8/2B5/8/4K3 w - - 0 1".parse()?;
    /// assert!(dead.is_insufficient_material());
    /// let alive: Position = "8/8/4k3/8/8/2N5/8/3NK3 w - - 0 1".parse()?;
    /// assert!(!alive.is_insufficient_material());
    /// # Ok::<_, tesseract_board::FromFenError>(())
    /// ```
    fn is_insufficient_material(&self) -> bool;
}

impl Legal for Position {
    fn is_legal(&self, m: Move) -> bool {
        // The moves of the one piece between the two cells, not the whole list.
        let g = self.geometry();
        if !g.contains(m.from) || !g.contains(m.to) {
            return false;
        }
        let filter = crate::MoveFilter { role: None, from: Some(m.from), to: Some(m.to) };
        crate::fast::with_move_list(|list| {
            crate::legal_moves_matching(self, &filter, list);
            list.contains(&m)
        })
    }

    fn play(&mut self, m: Move) -> Result<Undo, MoveError> {
        let g = self.geometry();
        for (which, cell) in [("from", m.from), ("to", m.to)] {
            if !g.contains(cell) {
                return Err(MoveError::CellOffBoard { which, index: cell.index(), cells: g.cells() });
            }
        }
        if !self.is_legal(m) {
            return Err(MoveError::Illegal {
                text: TextMove::from_move(m, self).to_string(),
                reason: "not in the legal move list",
            });
        }
        Ok(self.make(m))
    }

    fn resolve(&self, text: &TextMove) -> Result<Move, MoveError> {
        let g = self.geometry();
        if text.dims() != g.dims() {
            return Err(MoveError::WrongDims { expected: g.dims(), found: text.dims() });
        }
        let from = g.cell(text.from()).ok_or_else(|| MoveError::OffBoard { which: "from", text: text.to_string() })?;
        let to = g.cell(text.to()).ok_or_else(|| MoveError::OffBoard { which: "to", text: text.to_string() })?;
        let illegal = |reason| MoveError::Illegal { text: text.to_string(), reason };
        match self.piece_at(from) {
            Some(p) if p.color == self.turn() => {}
            _ => return Err(illegal("no piece of the side to move stands on the from cell")),
        }
        let moves = legal_moves(self);
        // Candidates are compared in text form, not by cells: a castling move is encoded king-takes-rook
        // (`Move::to` is the rook's cell), while its text is king-to-destination in classic mode (e1g1)
        // and king-takes-rook in Chess960 mode (e1h1); `TextMove::from_move` knows which one to write.
        let found = moves.iter().copied().find(|&m| {
            m.from == from && m.promotion == text.promotion() && TextMove::from_move(m, self).to() == text.to()
        });
        if let Some(m) = found {
            return Ok(m);
        }
        let reaches = moves.iter().any(|m| m.from == from && TextMove::from_move(*m, self).to() == text.to());
        Err(illegal(match (reaches, text.promotion()) {
            (true, None) => "the move promotes: add the promotion piece",
            (true, Some(_)) => "this promotion piece is not allowed here",
            (false, _) if to == from => "a piece cannot stay where it is",
            (false, _) => "that piece cannot move there",
        }))
    }

    fn move_between(&self, from: Cell, to: Cell, promotion: Option<Role>) -> Result<Move, MoveError> {
        let g = self.geometry();
        for (which, cell) in [("from", from), ("to", to)] {
            if !g.contains(cell) {
                return Err(MoveError::CellOffBoard { which, index: cell.index(), cells: g.cells() });
            }
        }
        let moves = legal_moves(self);
        let candidates = || moves.iter().copied().filter(|m| m.from == from && m.promotion == promotion);
        if let Some(m) = candidates().find(|m| m.to == to) {
            return Ok(m);
        }
        if let Some(m) = candidates().find(|&m| self.castling_king_to(m) == Some(to)) {
            return Ok(m);
        }
        let text = format!("{}{}", g.cell_name(from), g.cell_name(to));
        let reaches = moves.iter().any(|m| m.from == from && (m.to == to || self.castling_king_to(*m) == Some(to)));
        Err(MoveError::Illegal {
            text,
            reason: match (reaches, promotion) {
                (true, None) => "the move promotes: add the promotion piece",
                (true, Some(_)) => "this promotion piece is not allowed here",
                (false, _) if self.piece_at(from).is_none_or(|p| p.color != self.turn()) => {
                    "no piece of the side to move stands on the from cell"
                }
                (false, _) => "that piece cannot move there",
            },
        })
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let parsed = TextMove::parse_for(text, self.geometry())
            .map_err(|source| MoveError::Text { text: text.to_string(), source })?;
        self.resolve(&parsed)
    }

    fn is_insufficient_material(&self) -> bool {
        if self.is_kings_only() {
            return true;
        }
        let g = self.geometry();
        if g.dims() != 2 || g.side() != 8 {
            return false;
        }
        // Every piece but the kings is a bishop or a knight, and there is one knight alone or only
        // bishops on one color of squares.
        let mut minors = 0;
        let mut knights = 0;
        let mut bishop_colors = [false; 2];
        // From the piece lists, not the board's cells: the search asks this at its nodes.
        let (mb, to_cell) = (self.mailbox(), g.padded_to_cell_table());
        for &p in self.piece_list(Color::White).iter().chain(self.piece_list(Color::Black)) {
            match mailbox::role(mb[usize::from(p)]) {
                Role::King => {}
                Role::Knight => {
                    minors += 1;
                    knights += 1;
                }
                Role::Bishop => {
                    minors += 1;
                    let c = g.coords(Cell::new(to_cell[usize::from(p)]));
                    bishop_colors[usize::from((c[0] + c[1]) % 2)] = true;
                }
                _ => return false,
            }
        }
        minors <= 1 || (knights == 0 && !(bishop_colors[0] && bishop_colors[1]))
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.is_insufficient_material() {
            return Some(Outcome::DeadDraw);
        }
        if count(self) > 0 {
            return None;
        }
        Some(if self.is_check() { Outcome::Checkmate { winner: self.turn().other() } } else { Outcome::Stalemate })
    }
}
