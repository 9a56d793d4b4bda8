//! One solved table: its values, probing, statistics, and its file format.

use std::io::{Read, Write};

use sha2::{Digest, Sha256};
use tesseract_board::{Color, Position, Shape};

use crate::Material;
use crate::layout::Layout;
use crate::space::Sq;

/// The one-byte entries of a table.
pub(crate) mod entry {
    /// A draw.
    pub const DRAW: u8 = 0;
    /// An index that is not a position (overlapping pieces, the side not to move in check, or not the
    /// canonical placement of its orbit).
    pub const NONE: u8 = 255;
    /// The longest distance stored, in plies.
    pub const MAX_PLIES: u8 = 252;

    /// The entry of a mate distance in plies (0: checkmated).
    #[inline]
    pub const fn of_plies(plies: u8) -> u8 {
        plies + 1
    }

    /// The mate distance of an entry in plies, `None` for a draw or no position.
    #[inline]
    pub const fn plies(v: u8) -> Option<u8> {
        match v {
            DRAW | NONE => None,
            v => Some(v - 1),
        }
    }
}

/// Win, draw or loss, for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Wdl {
    /// The side to move is mated with best play.
    Loss,
    /// Neither side can force mate.
    Draw,
    /// The side to move mates with best play.
    Win,
}

/// What a table says of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Probe {
    /// The result with best play, for the side to move.
    pub wdl: Wdl,
    /// Plies to mate with best play (the winner mating as fast as it can, the loser delaying): odd for a
    /// win, even for a loss (0: the side to move is checkmated), `None` for a draw.
    pub plies: Option<u32>,
}

impl Probe {
    fn from_entry(v: u8) -> Option<Probe> {
        match v {
            entry::NONE => None,
            entry::DRAW => Some(Probe { wdl: Wdl::Draw, plies: None }),
            v => {
                let p = u32::from(v - 1);
                Some(Probe { wdl: if p % 2 == 1 { Wdl::Win } else { Wdl::Loss }, plies: Some(p) })
            }
        }
    }

    /// Distance to mate in moves, as players count it: the winner's moves until mate (a win in 1 ply is
    /// mate in 1), or the loser's moves until mated (0 when checkmated now). `None` for a draw.
    pub fn moves(&self) -> Option<u32> {
        self.plies.map(|p| p.div_ceil(2))
    }
}

impl std::fmt::Display for Probe {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match (self.wdl, self.moves()) {
            (Wdl::Win, Some(n)) => write!(f, "win, mate in {n}"),
            (Wdl::Loss, Some(0)) => write!(f, "checkmated"),
            (Wdl::Loss, Some(n)) => write!(f, "loss, mated in {n}"),
            _ => write!(f, "draw"),
        }
    }
}

/// Counts over the positions of one side to move (each symmetry orbit and each set of interchangeable
/// pieces once).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SideStats {
    /// Positions won by the side to move.
    pub wins: u64,
    /// Positions drawn.
    pub draws: u64,
    /// Positions lost by the side to move.
    pub losses: u64,
    /// The longest win, in plies (0 when there is none).
    pub longest_plies: u32,
    /// How many positions win in exactly that many plies.
    pub at_longest: u64,
    /// The index of the first of them.
    pub(crate) longest_index: Option<u64>,
    /// The longest loss, in plies (0 when the side never loses).
    pub longest_loss_plies: u32,
    /// How many positions lose in exactly that many plies.
    pub at_longest_loss: u64,
}

impl SideStats {
    /// Every position.
    pub fn positions(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The longest mate in moves (0 when the side never wins).
    pub fn longest_moves(&self) -> u32 {
        self.longest_plies.div_ceil(2)
    }
}

impl std::fmt::Display for SideStats {
    /// `N positions, W won (w%), D drawn (d%), L lost`, percentages to two decimals.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let percent = |x: u64| 100.0 * x as f64 / self.positions().max(1) as f64;
        write!(
            f,
            "{} positions, {} won ({:.2}%), {} drawn ({:.2}%), {} lost",
            self.positions(),
            self.wins,
            percent(self.wins),
            self.draws,
            percent(self.draws),
            self.losses
        )
    }
}

/// A solved table: every position of one material on one board, with its distance to mate.
///
/// Build one with [`crate::Tablebases::generate`] or read one from a file ([`Tablebase::read`]). A table
/// stores the normalized material ([`Material::normalized`], the stronger side as White) and answers for
/// both colorings: [`Tablebase::probe`] swaps colors when the position has them the other way round.
#[derive(Clone)]
pub struct Tablebase {
    pub(crate) layout: Layout,
    /// The entries with White to move, and with Black to move.
    pub(crate) values: [Vec<u8>; 2],
}

impl std::fmt::Debug for Tablebase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Tablebase")
            .field("board", &self.shape())
            .field("material", &self.layout.material.to_string())
            .finish_non_exhaustive()
    }
}

/// The version of the rules a table is computed under, written in its header.
pub const RULES_VERSION: &str =
    "tesseract-rules-1 (RULES.md; pawnless, no castling; repetition and the 50/75-move rules ignored)";

/// The first bytes of a table file.
pub const MAGIC: &[u8; 8] = b"TESSTB1\n";

/// Why a table file cannot be read.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum TableError {
    /// Reading failed.
    #[error("cannot read the table: {0}")]
    Io(#[from] std::io::Error),
    /// The file does not start with [`MAGIC`].
    #[error("not a tablebase file (it does not start with {:?})", String::from_utf8_lossy(MAGIC))]
    Magic,
    /// The header is not what this version writes.
    #[error("bad header: {0}")]
    Header(String),
    /// The number of entries does not match the header's board and material.
    #[error("the file holds {found} entries where board {board} with {material} needs {expected}")]
    Length {
        /// The board.
        board: String,
        /// The material.
        material: String,
        /// Entries the layout needs.
        expected: u64,
        /// Entries found.
        found: u64,
    },
    /// An entry holds a value the format never writes.
    #[error("entry {index} holds {value}, which no table has")]
    Entry {
        /// Its place in the file's entries (White to move first).
        index: u64,
        /// The byte.
        value: u8,
    },
    /// The SHA-256 checksum at the end does not match the contents.
    #[error("checksum mismatch: the file is damaged")]
    Checksum,
}

impl Tablebase {
    pub(crate) fn new(layout: Layout, values: [Vec<u8>; 2]) -> Tablebase {
        Tablebase { layout, values }
    }

    /// The board.
    pub fn shape(&self) -> Shape {
        self.layout.space.shape
    }

    /// The material, the stronger side as White.
    pub fn material(&self) -> &Material {
        &self.layout.material
    }

    /// The number of symmetries of the board the table is reduced by: `d!·2^d` (8, 48, 384).
    pub fn symmetries(&self) -> usize {
        self.layout.space.group_len
    }

    /// Indices per side to move (positions and non-positions: the size of the stored table is twice this).
    pub fn entries_per_side(&self) -> u64 {
        self.layout.per_side
    }

    /// The entry of a placement given in this table's order, `stm` to move.
    #[inline]
    pub(crate) fn entry_at(&self, cells: &[Sq], stm: Color) -> u8 {
        self.values[stm.index()][self.layout.canonical(cells) as usize]
    }

    /// The cells of a position's pieces in this table's order and the side to move as the table sees it,
    /// or `None` when the position has other material, castling rights, or another board.
    pub(crate) fn placement(&self, pos: &Position) -> Option<([Sq; 4], Color)> {
        if pos.shape() != self.shape() || !pos.castling().is_empty() || pos.en_passant().is_some() {
            return None;
        }
        let (material, swap) = Material::of(pos).ok()?.normalized();
        if material != self.layout.material {
            return None;
        }
        let flip = |c: Color| if swap { c.other() } else { c };
        let mut cells = [0 as Sq; 4];
        let mut used = [false; 4];
        for (cell, piece) in pos.pieces() {
            let want = (flip(piece.color), piece.role);
            let slot = (0..self.layout.len()).find(|&i| !used[i] && self.layout.pieces[i] == want)?;
            used[slot] = true;
            cells[slot] = cell.index() as Sq;
        }
        Some((cells, flip(pos.turn())))
    }

    /// What the table says of `pos`, or `None` if `pos` is not of this table (another board or material,
    /// castling rights). The halfmove clock is ignored: distances assume nobody claims a draw.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{Position, Shape};
    /// use tesseract_tablebase::{Tablebases, Wdl};
    /// let mut tables = Tablebases::new();
    /// let krk = tables.generate(Shape::CHESS, &"KRK".parse()?, &Default::default(), &|_| {})?;
    /// let pos: Position = "8/8/8/8/8/2k5/8/K6R b - - 0 1".parse()?;
    /// let probe = krk.probe(&pos).unwrap();
    /// assert_eq!(probe.wdl, Wdl::Loss);
    /// # Ok::<_, Box<dyn std::error::Error>>(())
    /// ```
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        let (cells, stm) = self.placement(pos)?;
        Probe::from_entry(self.entry_at(&cells[..self.layout.len()], stm))
    }

    /// The counts of one side to move.
    pub fn stats(&self, stm: Color) -> SideStats {
        let mut s = SideStats::default();
        for (idx, &v) in self.values[stm.index()].iter().enumerate() {
            match Probe::from_entry(v) {
                None => {}
                Some(Probe { wdl: Wdl::Draw, .. }) => s.draws += 1,
                Some(Probe { wdl: Wdl::Loss, plies }) => {
                    s.losses += 1;
                    let p = plies.unwrap_or(0);
                    if p > s.longest_loss_plies || s.at_longest_loss == 0 {
                        s.longest_loss_plies = p;
                        s.at_longest_loss = 0;
                    }
                    if p == s.longest_loss_plies {
                        s.at_longest_loss += 1;
                    }
                }
                Some(Probe { wdl: Wdl::Win, plies: Some(p) }) => {
                    s.wins += 1;
                    if p > s.longest_plies {
                        s.longest_plies = p;
                        s.at_longest = 0;
                        s.longest_index = Some(idx as u64);
                    }
                    if p == s.longest_plies {
                        s.at_longest += 1;
                    }
                }
                Some(_) => {}
            }
        }
        s
    }

    /// The position at `index` with `stm` to move, as a [`Position`] of this table's material (White the
    /// stronger side), or `None` if the index is not a position.
    pub fn position_at(&self, index: u64, stm: Color) -> Option<Position> {
        let v = *self.values[stm.index()].get(usize::try_from(index).ok()?)?;
        if v == entry::NONE {
            return None;
        }
        let mut cells = [0 as Sq; 4];
        self.layout.decode(index, &mut cells);
        let mut setup = tesseract_board::Setup::empty(self.shape());
        for (i, &(color, role)) in self.layout.pieces.iter().enumerate() {
            setup.board[cells[i] as usize] = Some(tesseract_board::Piece::new(color, role));
        }
        setup.turn = stm;
        Position::from_setup(setup, tesseract_board::CastlingMode::Standard).ok()
    }

    /// A position of the longest win with `stm` to move (the first by index), if the side ever wins.
    pub fn longest_example(&self, stm: Color) -> Option<Position> {
        self.position_at(self.stats(stm).longest_index?, stm)
    }

    /// Every position of one side to move with its value: (index, probe).
    pub fn positions(&self, stm: Color) -> impl Iterator<Item = (u64, Probe)> + '_ {
        self.values[stm.index()].iter().enumerate().filter_map(|(i, &v)| Probe::from_entry(v).map(|p| (i as u64, p)))
    }

    /// The file name this table is saved under: `KQK.5x5x5x5.ttb`.
    pub fn file_name(&self) -> String {
        file_name(self.shape(), self.material())
    }

    fn header(&self) -> String {
        let shape = self.shape();
        format!(
            "board: {}\nmaterial: {}\nrules: {RULES_VERSION}\ngenerator: tesseract-tablebase {}\nencoding: one byte per index, White to move then Black; 0 draw, 255 not a position, else 1 + plies to mate (odd plies: the side to move wins)\nentries: {}\n\n",
            board_text(shape),
            self.material(),
            env!("CARGO_PKG_VERSION"),
            self.layout.per_side
        )
    }

    /// Writes the table: [`MAGIC`], a text header (board, material, rules and generator versions, the
    /// encoding, the entries per side), the entries, and the SHA-256 of everything before it.
    ///
    /// # Errors
    /// The writer's.
    pub fn write(&self, out: &mut impl Write) -> std::io::Result<()> {
        let mut hasher = Sha256::new();
        let header = self.header();
        for part in [&MAGIC[..], header.as_bytes(), &self.values[0], &self.values[1]] {
            hasher.update(part);
            out.write_all(part)?;
        }
        out.write_all(&hasher.finalize())?;
        Ok(())
    }

    /// The table as bytes ([`Tablebase::write`]).
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(2 * self.values[0].len() + 512);
        self.write(&mut out).expect("writing to memory");
        out
    }

    /// Reads a table written by [`Tablebase::write`], checking every field, every entry and the checksum.
    /// The header is read and checked first (a file that is not a table is refused after its first
    /// bytes), then the entries go straight into the table: memory is the table's size, not twice it.
    ///
    /// # Errors
    /// [`TableError`]: what is wrong with the file.
    pub fn read(input: &mut impl Read) -> Result<Tablebase, TableError> {
        let mut hasher = Sha256::new();
        let mut magic = [0u8; MAGIC.len()];
        input.read_exact(&mut magic).map_err(|e| match e.kind() {
            std::io::ErrorKind::UnexpectedEof => TableError::Magic,
            _ => TableError::Io(e),
        })?;
        if &magic != MAGIC {
            return Err(TableError::Magic);
        }
        hasher.update(magic);
        // The header: text up to a blank line, at most MAX_HEADER bytes.
        let mut header = Vec::new();
        while !header.ends_with(b"\n\n") {
            if header.len() >= MAX_HEADER {
                return Err(TableError::Header(format!(
                    "no blank line ends the header in its first {MAX_HEADER} bytes"
                )));
            }
            let mut byte = [0u8];
            match input.read(&mut byte)? {
                0 => return Err(TableError::Header("the file ends inside its header".into())),
                _ => header.push(byte[0]),
            }
        }
        hasher.update(&header);
        let header = std::str::from_utf8(&header).map_err(|_| TableError::Header("not UTF-8".into()))?;
        let field = |key: &str| {
            header
                .lines()
                .find_map(|l| l.strip_prefix(key).and_then(|v| v.strip_prefix(": ")))
                .ok_or_else(|| TableError::Header(format!("no {key:?} line")))
        };
        let board = field("board")?;
        let shape = parse_board(board).ok_or_else(|| TableError::Header(format!("unknown board {board:?}")))?;
        let material_text = field("material")?;
        let material: Material =
            material_text.parse().map_err(|e: crate::MaterialError| TableError::Header(e.to_string()))?;
        if material.normalized().0 != material || !material.exists_in(shape.dims()) {
            return Err(TableError::Header(format!("material {material_text:?} is not a table of board {board}")));
        }
        let rules = field("rules")?;
        if rules != RULES_VERSION {
            return Err(TableError::Header(format!("rules {rules:?}, this version reads {RULES_VERSION:?}")));
        }
        // The size, from the board and material alone: nothing is built for a file until it is known to
        // be consistent.
        let expected = entries_per_side(shape, material.count())
            .ok_or_else(|| TableError::Header(format!("board {board} with {material} is too large a table")))?;
        let declared: u64 =
            field("entries")?.parse().map_err(|_| TableError::Header("entries is not a number".into()))?;
        let length = |found: u64| TableError::Length {
            board: board.to_string(),
            material: material.to_string(),
            expected: 2 * expected,
            found,
        };
        if declared != expected {
            return Err(length(2 * declared));
        }
        let per_side = usize::try_from(expected).map_err(|_| length(2 * declared))?;
        let mut values = [Vec::new(), Vec::new()];
        for (side, v) in values.iter_mut().enumerate() {
            v.try_reserve_exact(per_side).map_err(|_| {
                TableError::Io(std::io::Error::new(std::io::ErrorKind::OutOfMemory, "no memory for the table"))
            })?;
            let got = input.by_ref().take(expected).read_to_end(v)?;
            if got as u64 != expected {
                return Err(length(side as u64 * expected + got as u64));
            }
            hasher.update(&v[..]);
            if let Some(at) = v.iter().position(|&e| e == entry::NONE - 1) {
                return Err(TableError::Entry { index: side as u64 * expected + at as u64, value: v[at] });
            }
        }
        let mut sum = Vec::with_capacity(32);
        input.read_to_end(&mut sum)?;
        if sum.len() != 32 {
            // Entries and checksum together hold another number of bytes than the header says.
            return Err(length((2 * expected + sum.len() as u64).saturating_sub(32)));
        }
        if hasher.finalize()[..] != sum[..] {
            return Err(TableError::Checksum);
        }
        Ok(Tablebase { layout: Layout::new(shape, &material), values })
    }

    /// [`Tablebase::read`] from bytes in memory.
    ///
    /// # Errors
    /// [`TableError`].
    pub fn from_bytes(mut bytes: &[u8]) -> Result<Tablebase, TableError> {
        Tablebase::read(&mut bytes)
    }
}

/// The longest header a file may have.
const MAX_HEADER: usize = 4096;

/// Indices per side to move of a table of `pieces` pieces on `shape` (`None` beyond `u64`), without
/// building the board's tables: White's king on the fundamental domain (the cells whose coordinates are
/// in the lower half, counting the middle, and in increasing order: multisets of `d` values among
/// `⌈n/2⌉`), every other piece anywhere.
pub(crate) fn entries_per_side(shape: Shape, pieces: usize) -> Option<u64> {
    let (d, half) = (shape.dims() as u64, shape.side().div_ceil(2) as u64);
    // C(half + d − 1, d), exactly, in integers.
    let mut domain = 1u64;
    for i in 0..d {
        domain = domain * (half + i) / (i + 1);
    }
    (1..pieces).try_fold(domain, |acc, _| acc.checked_mul(shape.cells() as u64))
}

/// How a board is written in file names and headers: its sides joined by `x` (`8x8`, `5x5x5x5`).
pub fn board_text(shape: Shape) -> String {
    vec![shape.side().to_string(); shape.dims()].join("x")
}

/// The board a [`board_text`] names.
pub fn parse_board(text: &str) -> Option<Shape> {
    let sides: Vec<usize> = text.split('x').map(|s| s.parse().ok()).collect::<Option<_>>()?;
    if sides.iter().any(|&s| s != sides[0]) {
        return None;
    }
    Shape::new(sides.len(), sides[0]).ok()
}

/// The file name of a table: `KQK.5x5x5x5.ttb`.
pub fn file_name(shape: Shape, material: &Material) -> String {
    format!("{}.{}.ttb", material.normalized().0, board_text(shape))
}
