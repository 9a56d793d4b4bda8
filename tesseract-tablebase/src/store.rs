//! A set of tables: generated or loaded, probed by position, and the moves of perfect play.

use std::collections::BTreeMap;
use std::path::Path;

use tesseract_board::{Color, Move, Position, Role, Shape};
use tesseract_movegen::legal_moves;

use crate::generate::{GenerateError, GenerateOptions, Progress, solve};
use crate::layout::Layout;
use crate::table::{Probe, TableError, Tablebase, Wdl};
use crate::{MAX_PIECES, Material};

/// Tables by board and material: what an engine or a program loads, probes and plays from.
///
/// # Examples
/// ```
/// use tesseract_board::{Position, Shape};
/// use tesseract_tablebase::{Tablebases, Wdl};
/// let mut tables = Tablebases::new();
/// tables.generate(Shape::CHESS, &"KQK".parse()?, &Default::default(), &|_| {})?;
/// let pos: Position = "8/8/8/4k3/8/8/8/KQ6 w - - 0 1".parse()?;
/// let probe = tables.probe(&pos).unwrap();
/// assert_eq!(probe.wdl, Wdl::Win);
/// let (best, _) = tables.best_move(&pos).unwrap();
/// let line = tables.mating_line(&pos);
/// assert_eq!(line.len() as u32, probe.plies.unwrap());
/// assert_eq!(line[0], best);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct Tablebases {
    tables: BTreeMap<(Shape, Material), Tablebase>,
}

/// Why a folder of tables cannot be loaded.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LoadError {
    /// The folder cannot be listed.
    #[error("cannot read the folder {path}: {source}")]
    Folder {
        /// The folder.
        path: String,
        /// Why.
        source: std::io::Error,
    },
    /// A table file is damaged or not a table.
    #[error("{path}: {source}")]
    Table {
        /// The file.
        path: String,
        /// What is wrong with it.
        source: TableError,
    },
}

impl Tablebases {
    /// No tables.
    pub fn new() -> Tablebases {
        Tablebases::default()
    }

    /// The number of tables.
    pub fn len(&self) -> usize {
        self.tables.len()
    }

    /// Whether there is no table.
    pub fn is_empty(&self) -> bool {
        self.tables.is_empty()
    }

    /// Every table, by board then material.
    pub fn iter(&self) -> impl Iterator<Item = &Tablebase> {
        self.tables.values()
    }

    /// The table of a material (either coloring) on a board, if present.
    pub fn get(&self, shape: Shape, material: &Material) -> Option<&Tablebase> {
        self.tables.get(&(shape, material.normalized().0))
    }

    /// Adds a table (replacing one of the same board and material).
    pub fn insert(&mut self, table: Tablebase) {
        self.tables.insert((table.shape(), table.material().clone()), table);
    }

    /// Generates the table of `material` on `shape`, and first every smaller table a capture leads to
    /// that is not present yet; all of them are kept. `progress` hears from the worker threads (the
    /// largest table's progress only, the smaller ones being quick).
    ///
    /// # Errors
    /// [`GenerateError`]: a piece that does not exist on the board, a mate too long for the format, a
    /// table too large for the address space.
    pub fn generate(
        &mut self,
        shape: Shape,
        material: &Material,
        options: &GenerateOptions,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<&Tablebase, GenerateError> {
        let (material, _) = material.normalized();
        if !material.exists_in(shape.dims()) {
            return Err(GenerateError::PieceNotOnBoard { material: material.to_string(), dims: shape.dims() });
        }
        if !self.tables.contains_key(&(shape, material.clone())) {
            for sub in material.after_captures() {
                self.generate(shape, &sub, options, &|_| {})?;
            }
            let layout = Layout::new(shape, &material);
            let exits = (0..layout.len())
                .map(|j| {
                    if j < 2 {
                        return None;
                    }
                    // The material after piece j is captured, and how its pieces line up with ours.
                    let rest: Vec<(Color, Role)> =
                        layout.pieces.iter().enumerate().filter(|&(i, _)| i != j).map(|(_, &p)| p).collect();
                    let white: Vec<Role> = rest[2..].iter().filter(|p| p.0 == Color::White).map(|p| p.1).collect();
                    let black: Vec<Role> = rest[2..].iter().filter(|p| p.0 == Color::Black).map(|p| p.1).collect();
                    let (sub, swap) = Material::new(&white, &black).expect("fewer pieces").normalized();
                    let table = &self.tables[&(shape, sub)];
                    let flip = |c: Color| if swap { c.other() } else { c };
                    let mut used = vec![false; rest.len()];
                    let order = table
                        .layout
                        .pieces
                        .iter()
                        .map(|&(color, role)| {
                            let t = (0..rest.len())
                                .find(|&t| !used[t] && (flip(rest[t].0), rest[t].1) == (color, role))
                                .expect("the smaller table has the same pieces");
                            used[t] = true;
                            t
                        })
                        .collect();
                    Some((table, order, swap))
                })
                .collect();
            let values = solve(&layout, exits, options, progress)?;
            self.insert(Tablebase::new(layout, values));
        }
        Ok(&self.tables[&(shape, material)])
    }

    /// Loads every `*.ttb` file of a folder.
    ///
    /// # Errors
    /// [`LoadError`]: the folder cannot be read, or a file in it is damaged (nothing is loaded then).
    pub fn load_dir(path: impl AsRef<Path>) -> Result<Tablebases, LoadError> {
        let path = path.as_ref();
        let folder = |source| LoadError::Folder { path: path.display().to_string(), source };
        let mut files: Vec<_> = std::fs::read_dir(path)
            .map_err(folder)?
            .map(|e| e.map(|e| e.path()))
            .collect::<Result<_, _>>()
            .map_err(folder)?;
        files.retain(|p| p.extension().is_some_and(|e| e == "ttb"));
        files.sort();
        let mut out = Tablebases::new();
        for file in files {
            let table = std::fs::File::open(&file)
                .map_err(TableError::Io)
                .and_then(|mut f| Tablebase::read(&mut std::io::BufReader::new(&mut f)))
                .map_err(|source| LoadError::Table { path: file.display().to_string(), source })?;
            out.insert(table);
        }
        Ok(out)
    }

    /// Writes every table into a folder, each under [`Tablebase::file_name`].
    ///
    /// # Errors
    /// The file system's.
    pub fn save_dir(&self, path: impl AsRef<Path>) -> std::io::Result<()> {
        std::fs::create_dir_all(&path)?;
        for table in self.iter() {
            let mut file = std::io::BufWriter::new(std::fs::File::create(path.as_ref().join(table.file_name()))?);
            table.write(&mut file)?;
            std::io::Write::flush(&mut file)?;
        }
        Ok(())
    }

    /// What the tables say of `pos`: `None` when no loaded table has its board and material (pawns,
    /// more than four pieces, castling rights). Two kings alone are a draw without a table.
    pub fn probe(&self, pos: &Position) -> Option<Probe> {
        let pieces = pos.piece_list(Color::White).len() + pos.piece_list(Color::Black).len();
        if pieces > MAX_PIECES {
            return None;
        }
        if pos.is_kings_only() {
            return Some(Probe { wdl: Wdl::Draw, plies: None });
        }
        let material = Material::of(pos).ok()?;
        self.get(pos.shape(), &material)?.probe(pos)
    }

    /// The move of perfect play and what the tables say of the position after it: the fastest mate when
    /// winning, the longest resistance when losing, a move that keeps the draw when drawn (the first such
    /// in the generator's order). `None` when the position is not in the tables, when it is over, or when a
    /// table needed to judge a capture is missing.
    pub fn best_move(&self, pos: &Position) -> Option<(Move, Probe)> {
        let here = self.probe(pos)?;
        let mut best: Option<(Move, Probe)> = None;
        for m in legal_moves(pos) {
            let mut next = pos.clone();
            next.make(m);
            let Some(after) = self.probe(&next) else {
                // Without this table the choice could be wrong.
                return None;
            };
            let better = match best {
                None => true,
                Some((_, b)) => rank(after) > rank(b),
            };
            if better {
                best = Some((m, after));
            }
        }
        let (m, after) = best?;
        // The move keeps the table's verdict: won positions stay won with one ply fewer, lost ones too,
        // drawn ones drawn. A table that says otherwise (a file made to lie: the checksum only proves it
        // undamaged) gives no move rather than a wrong one.
        let expected = match here.plies {
            Some(p) => Some(p.checked_sub(1)?),
            None => None,
        };
        (after.plies == expected).then_some((m, after))
    }

    /// The line of perfect play from `pos` until mate (empty when drawn, not in the tables, or over): the
    /// winner's moves mate as fast as possible, the loser's hold out as long as possible.
    pub fn mating_line(&self, pos: &Position) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = pos.clone();
        if self.probe(&pos).is_none_or(|p| p.wdl == Wdl::Draw) {
            return line;
        }
        // Each move lowers the distance by one ply (best_move checks it), so the line ends.
        while let Some((m, _)) = self.best_move(&pos) {
            line.push(m);
            pos.make(m);
        }
        line
    }
}

/// How good a successor is for the player choosing it (its value is the opponent's): an opponent's loss
/// beats a draw beats an opponent's win; a quicker opponent loss and a slower opponent win are better.
fn rank(after: Probe) -> (u8, i64) {
    match (after.wdl, after.plies) {
        (Wdl::Loss, Some(p)) => (2, -i64::from(p)),
        (Wdl::Win, Some(p)) => (0, i64::from(p)),
        _ => (1, 0),
    }
}
