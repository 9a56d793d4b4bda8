//! [`Chess`]: a game of 4D Tesseract, classic chess or Chess960 over [`tesseract_search::Game`], in the shape
//! of the JavaScript class `Chess`.
#![forbid(unsafe_code)]

use serde_json::{Value, json};
use tesseract_board::{CastlingMode, Cell, Move, Position, Shape, TextMove, fen::CastlingNotation, start};
use tesseract_movegen::pgn::read_games;
use tesseract_movegen::san::SanPlus;
use tesseract_movegen::{legal_moves, moves_from};
use tesseract_search::{Game, GameRecord, Player};

use crate::args;

/// The longest move text [`Chess::play`] reads: eight digits and a promotion letter, with room to spare.
/// Longer input is refused without being echoed back.
const MAX_MOVE_TEXT: usize = 32;

/// A game of chess in any of the workspace's forms: 4D Tesseract (5⁴ board), classic chess and Chess960
/// (8×8), with its start, moves, seed and the rules' claims (repetition, 50-move rule).
///
/// Every method is the JavaScript method of the same name in camelCase (see the crate docs); an `Err`
/// is thrown there as an `Error` with the same message. A method that fails changes nothing.
#[derive(Clone, Debug)]
pub struct Chess {
    game: Game,
}

impl Chess {
    /// A new game from a named start: `light`, `standard`, `dense` (the 4D armies), `classic`, or
    /// `chess960:N` with N from 0 to 959 (Scharnagl numbering; 518 is the classic arrangement).
    ///
    /// # Errors
    /// An unknown name, a start on a board other than 8×8 or 5⁴ (the board crate's 3D `raumschach`,
    /// which this API does not offer), or a seed that is not a whole number from 0 to 2⁵³ − 1.
    pub fn start(name: &str, seed: f64) -> Result<Chess, String> {
        let seed = args::seed(seed)?;
        let pos = start::by_name(name).map_err(|e| e.to_string())?;
        played_here(&pos)?;
        Ok(Chess { game: Game::new(pos, seed) })
    }

    /// A new game from a position text: FEN in 2D (classic or Chess960 castling, as
    /// [`Position::from_fen`] reads them), TFEN in 4D (RULES.md §4).
    ///
    /// # Errors
    /// The reason the text is not a valid position, a board other than 8×8 or 5⁴ (the board crate reads
    /// other shapes, which this API does not offer), or a seed out of range.
    pub fn from_text(text: &str, seed: f64) -> Result<Chess, String> {
        let seed = args::seed(seed)?;
        let pos = Position::from_fen(text).map_err(|e| format!("not a valid position text: {e}"))?;
        played_here(&pos)?;
        Ok(Chess { game: Game::new(pos, seed) })
    }

    /// The game a record describes: the JSON of [`GameRecord`] (`start`, `seed`, `white`, `black`,
    /// `moves`), as [`Chess::record`] and the `play` example write it. Each move is checked for legality;
    /// engine moves are not re-thought (that is [`GameRecord::verify`], too slow for a page).
    ///
    /// # Errors
    /// JSON that is not a record (with serde's line and column), a move that is not legal where it stands
    /// (with its number), a start on a board other than 8×8 or 5⁴, or a seed above 2⁵³ − 1, which
    /// [`Chess::seed`] could not return exactly.
    pub fn from_record(json: &str) -> Result<Chess, String> {
        let record: GameRecord = serde_json::from_str(json).map_err(|e| format!("not a game record: {e}"))?;
        if record.seed > args::MAX_SEED {
            return Err(format!(
                "the record's seed {} is above 2^53 - 1, the largest integer a JavaScript number holds exactly",
                record.seed
            ));
        }
        played_here(&record.start).map_err(|e| format!("the record's start: {e}"))?;
        let game = Game::from_record(&record).map_err(|e| format!("the record does not replay: {e}"))?;
        Ok(Chess { game })
    }

    /// The game as a [`GameRecord`] in JSON, with who played each side: `human`, `beginner`, `club`,
    /// `expert` or `master`.
    ///
    /// # Errors
    /// A player name that is none of these.
    pub fn record(&self, white: &str, black: &str) -> Result<String, String> {
        let white: Player = white.parse().map_err(|e| format!("white: {e}"))?;
        let black: Player = black.parse().map_err(|e| format!("black: {e}"))?;
        serde_json::to_string(&self.game.record(white, black)).map_err(|e| format!("cannot write the record: {e}"))
    }

    /// The number of axes: 2 or 4.
    pub fn dims(&self) -> u32 {
        self.pos().geometry().dims() as u32
    }

    /// The side of the board: 8 or 5.
    pub fn side(&self) -> u32 {
        self.pos().geometry().side() as u32
    }

    /// One character per cell in index order (RULES.md §1): the piece's letter as in FEN/TFEN (upper
    /// case for White) or `.` for an empty cell.
    pub fn board(&self) -> String {
        let pos = self.pos();
        let g = pos.geometry();
        g.all_cells().map(|c| pos.piece_at(c).map_or('.', |p| p.char(g.dims()))).collect()
    }

    /// Which game this is: `tesseract` (5⁴), `chess` (8×8, classic castling) or `chess960` (8×8,
    /// Chess960 castling; a position set from a Shredder-FEN text is one too).
    pub fn variant(&self) -> String {
        let pos = self.pos();
        match (pos.geometry().dims(), pos.castling_mode()) {
            (4, _) => "tesseract",
            (_, CastlingMode::Chess960) => "chess960",
            _ => "chess",
        }
        .to_string()
    }

    /// The side to move: `w` or `b`.
    pub fn turn(&self) -> String {
        self.pos().turn().char().to_string()
    }

    /// The current position as FEN (2D) or TFEN (4D). A Chess960 game writes its castling rights in
    /// Shredder-FEN (file letters), so that [`Chess::from_text`] reads the text back in Chess960 mode.
    pub fn text(&self) -> String {
        let pos = self.pos();
        match pos.castling_mode() {
            CastlingMode::Standard => pos.fen(),
            CastlingMode::Chess960 => pos.fen_with(CastlingNotation::Shredder),
        }
    }

    /// Whether the side to move is in check.
    pub fn in_check(&self) -> bool {
        self.pos().is_check()
    }

    /// The cell of the side to move's king when it is in check, else −1.
    pub fn king_in_check(&self) -> i32 {
        let pos = self.pos();
        if pos.is_check() { pos.king(pos.turn()).index() as i32 } else { -1 }
    }

    /// The legal moves as a JSON array of `{"from", "to", "text", "promotion", "kingTo"}`; see
    /// [`Chess::moves_from`] for the fields.
    pub fn legal_moves(&self) -> String {
        self.entries(&legal_moves(self.pos()))
    }

    /// The legal moves of the piece on `cell`, as a JSON array of objects:
    ///
    /// - `from`, `to`: cell indices; `to` is the cell the move text names, so in Chess960 mode a castling
    ///   move's `to` is its rook's cell (king takes own rook);
    /// - `text`: the move text of RULES.md §4 (eight digits and an optional promotion letter in 4D, UCI in
    ///   2D);
    /// - `promotion`: the upper-case letter of the promotion piece, or `null`;
    /// - `kingTo`: for a castling move only, the cell where the king ends (g or c file), else `null`.
    ///
    /// # Errors
    /// `cell` is not a cell index of this board.
    pub fn moves_from(&self, cell: f64) -> Result<String, String> {
        let cell = args::cell(cell, self.pos().geometry().cells())?;
        // Every cell index fits a u16 (at most 9⁴ cells).
        Ok(self.entries(&moves_from(self.pos(), Cell::new(cell as u16))))
    }

    /// `moves` as the JSON array of [`Chess::legal_moves`].
    fn entries(&self, moves: &[Move]) -> String {
        let pos = self.pos();
        Value::Array(moves.iter().map(|&m| move_entry(pos, m)).collect()).to_string()
    }

    /// The texts of the moves played, as a JSON array of strings.
    pub fn history(&self) -> String {
        let texts: Vec<Value> = self.game.move_texts().iter().map(|t| Value::String(t.to_string())).collect();
        Value::Array(texts).to_string()
    }

    /// The moves played as people read them, as a JSON array of strings: SAN with its check mark in 2D
    /// (`Nf3`, `O-O`, `e8=Q#`), the long form of RULES.md §4 elsewhere (`Y2213-2313`, `N1111x3211+`).
    pub fn notation(&self) -> String {
        let mut pos = self.game.start().clone();
        let mut texts = Vec::with_capacity(self.game.moves().len());
        for &m in self.game.moves() {
            // Every move of the game was legal where it was played, so it has a notation.
            match SanPlus::from_move_and_play(&mut pos, m) {
                Ok(san) => texts.push(Value::String(san.to_string())),
                Err(_) => break,
            }
        }
        Value::Array(texts).to_string()
    }

    /// The game as it stood after its first `ply` moves (the start for 0; the whole game for `ply` at or
    /// past its length): the same start and seed, so the move list can be stepped through.
    ///
    /// # Errors
    /// `ply` is not a whole number from 0 to 2⁵³ − 1.
    pub fn at(&self, ply: f64) -> Result<Chess, String> {
        let ply = args::count(ply, "ply")?;
        let mut game = self.game.clone();
        while game.moves().len() > ply {
            game.undo();
        }
        Ok(Chess { game })
    }

    /// The game in PGN, with who played each side (`human` or a tier) in the `White` and `Black` tags,
    /// the seed in a `Seed` tag and the result (`*` while the game goes on); [`Chess::record_from_pgn`]
    /// reads it back.
    ///
    /// # Errors
    /// A player name that is not `human`, `beginner`, `club`, `expert` or `master`.
    pub fn pgn(&self, white: &str, black: &str) -> Result<String, String> {
        let white: Player = white.parse().map_err(|e| format!("white: {e}"))?;
        let black: Player = black.parse().map_err(|e| format!("black: {e}"))?;
        self.game.to_pgn(white, black).to_pgn().map_err(|e| format!("cannot write the PGN: {e}"))
    }

    /// The result as PGN writes it: `1-0`, `0-1`, `1/2-1/2`, or `*` while the game goes on.
    pub fn result(&self) -> String {
        self.game.status().map_or("*", |end| end.score()).to_string()
    }

    /// The first game of a PGN text as the record JSON [`Chess::from_record`] reads: its start (the `FEN`
    /// tag or the standard start), its main line, the players named by its `White` and `Black` tags (a
    /// name that is not `human` or a tier is a human) and its `Seed` tag (0 without one).
    ///
    /// # Errors
    /// No game in the text, a PGN syntax error or an illegal move (with where), or a board other than 8×8
    /// or 5⁴.
    pub fn record_from_pgn(text: &str) -> Result<String, String> {
        let pgn = read_games(text)
            .next()
            .ok_or_else(|| "no game in this PGN text".to_string())?
            .map_err(|e| format!("not a PGN game: {e}"))?;
        played_here(&pgn.start).map_err(|e| format!("the game's start: {e}"))?;
        let record = GameRecord::from_pgn(&pgn).map_err(|e| format!("the game does not replay: {e}"))?;
        if record.seed > args::MAX_SEED {
            return Err(format!("the game's Seed tag {} is above 2^53 - 1", record.seed));
        }
        serde_json::to_string(&record).map_err(|e| format!("cannot write the record: {e}"))
    }

    /// The last move played as JSON `{"from", "to"}` (`to` as in [`Chess::moves_from`]), or `null`.
    pub fn last_move(&self) -> String {
        let (Some(&m), Some(text)) = (self.game.moves().last(), self.game.move_texts().pop()) else {
            return "null".to_string();
        };
        let g = self.pos().geometry();
        let to = g.cell(text.to()).unwrap_or(m.to);
        json!({"from": m.from.index(), "to": to.index()}).to_string()
    }

    /// Plays a move given as text (RULES.md §4) after checking it is legal. A finished game is no error:
    /// only illegal moves are refused.
    ///
    /// # Errors
    /// Text that is not a move, or a move that is not legal here, saying why; the game is unchanged.
    pub fn play(&mut self, text: &str) -> Result<(), String> {
        if text.len() > MAX_MOVE_TEXT {
            return Err(format!(
                "a move text has at most {MAX_MOVE_TEXT} characters (like e2e4 or 22132313); this one has {}",
                text.len()
            ));
        }
        self.game.play_text(text).map(|_| ()).map_err(|e| e.to_string())
    }

    /// Takes back the last move and returns its text; `None` when no move was played.
    pub fn undo(&mut self) -> Option<String> {
        let text = self.game.move_texts().pop()?;
        self.game.undo();
        Some(text.to_string())
    }

    /// `None` while the game goes on; else how it ended, as [`tesseract_search::GameEnd`] writes it
    /// (`checkmate, white wins`, `stalemate, a draw`, `threefold repetition, a draw`, ...).
    pub fn status(&self) -> Option<String> {
        self.game.status().map(|end| end.to_string())
    }

    /// `w` or `b` when that side gave checkmate, else `None`.
    pub fn winner(&self) -> Option<String> {
        self.game.status().and_then(|end| end.winner()).map(|c| c.char().to_string())
    }

    /// The game's seed (exact: seeds are at most 2⁵³ − 1).
    pub fn seed(&self) -> f64 {
        self.game.seed() as f64
    }

    /// The name of a cell: algebraic (`e4`) in 2D, the digits xyzw (`2313`) in 4D.
    ///
    /// # Errors
    /// `cell` is not a cell index of this board.
    pub fn cell_name(&self, cell: f64) -> Result<String, String> {
        let g = self.pos().geometry();
        let cell = args::cell(cell, g.cells())?;
        Ok(g.cell_name(tesseract_board::Cell::new(cell as u16)))
    }

    /// The game, for the engine.
    pub fn game(&self) -> &Game {
        &self.game
    }

    fn pos(&self) -> &Position {
        self.game.position()
    }
}

/// The picture of the piece whose FEN/TFEN letter is `letter` (upper case for White) on a board of `dims`
/// axes: a standalone SVG document of 45×45 from the board crate's piece set
/// ([`tesseract_board::pieces::piece_document`]; on a 2D board the pawn `P` is the plain pawn).
///
/// # Errors
/// `dims` is not 2 or 4, or `letter` is not one piece letter of that board.
pub fn piece_svg(letter: &str, dims: f64) -> Result<String, String> {
    let dims = match dims {
        2.0 => 2,
        4.0 => 4,
        _ => return Err(format!("the board has 2 or 4 axes, not {dims}")),
    };
    let mut chars = letter.chars();
    let piece = match (chars.next(), chars.next()) {
        (Some(c), None) => tesseract_board::Piece::from_char(c, dims),
        _ => None,
    };
    let piece = piece.ok_or_else(|| format!("{letter:?} is not a piece letter of a board of {dims} axes"))?;
    Ok(tesseract_board::pieces::piece_document(piece, dims))
}

/// Whether the API plays on `pos`'s board: 8×8 (chess, Chess960) or 5⁴ (Tesseract). The board crate reads
/// texts of other shapes too (1 to 4 axes of side 3 to 9), but pages are written for these two.
fn played_here(pos: &Position) -> Result<(), String> {
    let shape = pos.shape();
    if shape == Shape::CHESS || shape == Shape::TESSERACT {
        return Ok(());
    }
    Err(format!(
        "the position is on a board of {} axes of side {}: this API plays chess on 8x8 (2 axes) and Tesseract on \
         5x5x5x5 (4 axes)",
        shape.dims(),
        shape.side()
    ))
}

/// The JSON object of a legal move `m` of `pos`.
pub(crate) fn move_entry(pos: &Position, m: Move) -> Value {
    let g = pos.geometry();
    let text = TextMove::from_move(m, pos);
    let to = g.cell(text.to()).unwrap_or(m.to);
    let promotion = m.promotion.map(|r| r.upper_char(g.dims()).to_string());
    let king_to = pos.castling_king_to(m).map(|c| c.index());
    json!({
        "from": m.from.index(),
        "to": to.index(),
        "text": text.to_string(),
        "promotion": promotion,
        "kingTo": king_to,
    })
}
