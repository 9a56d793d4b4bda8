//! Endgame tables of tesseract-tablebase: `Tablebases` (generated or loaded from a folder, probed, their
//! best move), which `engine_play` and `engine_analyse` take as `tablebases=`.

use std::sync::Arc;

use pyo3::exceptions::{PyKeyError, PyOSError, PyValueError};
use pyo3::prelude::*;
use tesseract_board::Shape;
use tesseract_tablebase::{LoadError, Material, Probe, Wdl};

use crate::board::Board;
use crate::moves::PyMove;
use crate::stack;

/// The boards `Tablebases.generate` names.
const BOARDS: [(&str, Shape); 3] =
    [("chess", Shape::CHESS), ("raumschach", Shape::RAUMSCHACH), ("tesseract", Shape::TESSERACT)];

/// Endgame tables: every pawnless ending of up to four pieces of the materials they hold, with the distance
/// to mate, on chess, the 3D Raumschach board or the 4D Tesseract board.
#[pyclass(module = "tesseract", name = "Tablebases", frozen)]
#[derive(Clone, Debug)]
pub(crate) struct PyTablebases {
    pub(crate) tables: Arc<tesseract_tablebase::Tablebases>,
}

/// (wdl, dtm) of a probe: wdl 1 win, 0 draw, -1 loss for the side to move; dtm in plies, positive when
/// the side to move mates, negative when it is mated (0 for a draw and for a side checkmated now), as
/// python-chess's Gaviota probes count.
fn wdl_dtm(p: Probe) -> (i32, i32) {
    let plies = p.plies.unwrap_or(0) as i32;
    match p.wdl {
        Wdl::Win => (1, plies),
        Wdl::Draw => (0, 0),
        Wdl::Loss => (-1, -plies),
    }
}

impl PyTablebases {
    fn probe_of(&self, board: &Board) -> Option<Probe> {
        self.tables.probe(board.pos())
    }
}

#[pymethods]
impl PyTablebases {
    /// Loads every table file (`*.ttb`) of a folder, as the tablebase example's `--save-dir` writes them.
    /// Raises OSError when the folder cannot be read, ValueError when a file in it is damaged.
    #[staticmethod]
    fn load(py: Python<'_>, path: std::path::PathBuf) -> PyResult<PyTablebases> {
        let tables = py.detach(|| tesseract_tablebase::Tablebases::load_dir(&path)).map_err(|e| match e {
            LoadError::Folder { .. } => PyOSError::new_err(e.to_string()),
            _ => PyValueError::new_err(e.to_string()),
        })?;
        Ok(PyTablebases { tables: Arc::new(tables) })
    }

    /// Generates the tables of `material` (`"KRK"`, or a list such as `["KQK", "KRK"]`) on `board`
    /// (`"chess"`, `"raumschach"` or `"tesseract"`), with every smaller table a capture leads to, without
    /// the GIL, on every core. Chess tables take a fraction of a second; the 4D KQK about 20 s. Raises
    /// ValueError for an unknown board or material, or a piece the board does not have.
    #[staticmethod]
    fn generate(py: Python<'_>, board: &str, material: MaterialArg) -> PyResult<PyTablebases> {
        let shape =
            BOARDS.iter().find(|(name, _)| name.eq_ignore_ascii_case(board)).map(|&(_, s)| s).ok_or_else(|| {
                PyValueError::new_err(format!("board {board:?}: expected chess, raumschach or tesseract"))
            })?;
        let texts = match material {
            MaterialArg::One(m) => vec![m],
            MaterialArg::Many(ms) => ms,
        };
        let materials: Vec<Material> = texts
            .iter()
            .map(|t| t.parse::<Material>().map_err(|e| PyValueError::new_err(format!("material {t:?}: {e}"))))
            .collect::<PyResult<_>>()?;
        let tables = py.detach(|| {
            let mut tables = tesseract_tablebase::Tablebases::new();
            for m in &materials {
                tables.generate(shape, m, &Default::default(), &|_| {}).map_err(|e| e.to_string())?;
            }
            Ok::<_, String>(tables)
        });
        Ok(PyTablebases { tables: Arc::new(tables.map_err(PyValueError::new_err)?) })
    }

    /// Writes every table into a folder (created if missing), one file each. Raises OSError.
    fn save(&self, py: Python<'_>, path: std::path::PathBuf) -> PyResult<()> {
        py.detach(|| self.tables.save_dir(&path)).map_err(|e| PyOSError::new_err(format!("{}: {e}", path.display())))
    }

    /// The tables, as `(board, material)` pairs: board as its sides (`8x8`, `5x5x5x5`), material such as
    /// `KRK`.
    fn tables(&self) -> Vec<(String, String)> {
        self.tables.iter().map(|t| (tesseract_tablebase::board_text(t.shape()), t.material().to_string())).collect()
    }

    /// `(wdl, dtm)` for the side to move, or None when no table covers the position: wdl 1 (win), 0
    /// (draw) or -1 (loss); dtm the plies to mate with best play, negative when the side to move is mated
    /// (0 for a draw).
    fn probe(&self, board: &Board) -> Option<(i32, i32)> {
        self.probe_of(board).map(wdl_dtm)
    }

    /// 1, 0 or -1 (win, draw, loss for the side to move); KeyError when no table covers the position.
    fn probe_wdl(&self, board: &Board) -> PyResult<i32> {
        self.probe(board).map(|p| p.0).ok_or_else(|| PyKeyError::new_err("no table covers this position"))
    }

    /// Plies to mate, negative when the side to move is mated (0: a draw); KeyError when no table covers
    /// the position.
    fn probe_dtm(&self, board: &Board) -> PyResult<i32> {
        self.probe(board).map(|p| p.1).ok_or_else(|| PyKeyError::new_err("no table covers this position"))
    }

    /// As `probe_wdl`, None instead of KeyError.
    fn get_wdl(&self, board: &Board) -> Option<i32> {
        self.probe(board).map(|p| p.0)
    }

    /// As `probe_dtm`, None instead of KeyError.
    fn get_dtm(&self, board: &Board) -> Option<i32> {
        self.probe(board).map(|p| p.1)
    }

    /// The move of perfect play (the fastest mate when winning, the longest resistance when losing, a move
    /// that keeps the draw), or None when no table covers the position or the game is over.
    fn best_move(&self, board: &Board) -> Option<PyMove> {
        let pos = board.pos();
        stack::ample(|| self.tables.best_move(pos)).map(|(m, _)| PyMove::new(m, pos))
    }

    fn __len__(&self) -> usize {
        self.tables.len()
    }

    fn __repr__(&self) -> String {
        let names: Vec<String> = self.tables().into_iter().map(|(b, m)| format!("{m} {b}")).collect();
        format!("<Tablebases {}>", names.join(", "))
    }
}

/// A material, or a list of them.
#[derive(FromPyObject)]
pub(crate) enum MaterialArg {
    /// One material.
    One(String),
    /// Several.
    Many(Vec<String>),
}
