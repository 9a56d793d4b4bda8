//! `Outcome` and `Termination`: how a game ended, as python-chess names it.

use pyo3::prelude::*;
use tesseract_board::Color;
use tesseract_movegen::{GameEnd, Termination as Rule};

/// Why a game ended, with python-chess's names for the ends the library knows.
#[pyclass(module = "tesseract", name = "Termination", frozen, eq, eq_int, hash, rename_all = "SCREAMING_SNAKE_CASE")]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Termination {
    /// The side to move is mated.
    Checkmate = 1,
    /// The side to move has no legal move and is not in check.
    Stalemate = 2,
    /// A dead position by material: kings alone; on 8×8 also K+N v K, K+B v K and bishops of one color.
    InsufficientMaterial = 3,
    /// 150 plies without a capture or a pawn move: drawn without a claim.
    SeventyfiveMoves = 4,
    /// The position occurred for the fifth time: drawn without a claim.
    FivefoldRepetition = 5,
    /// 100 plies without a capture or a pawn move.
    FiftyMoves = 6,
    /// The position occurred for the third time.
    ThreefoldRepetition = 7,
}

#[pymethods]
impl Termination {
    /// The member's name, `CHECKMATE` for example (as `enum.Enum.name`).
    #[getter]
    fn name(&self) -> &'static str {
        match self {
            Termination::Checkmate => "CHECKMATE",
            Termination::Stalemate => "STALEMATE",
            Termination::InsufficientMaterial => "INSUFFICIENT_MATERIAL",
            Termination::SeventyfiveMoves => "SEVENTYFIVE_MOVES",
            Termination::FivefoldRepetition => "FIVEFOLD_REPETITION",
            Termination::FiftyMoves => "FIFTY_MOVES",
            Termination::ThreefoldRepetition => "THREEFOLD_REPETITION",
        }
    }

    /// The member's number, as in python-chess's `Termination`.
    #[getter]
    fn value(&self) -> u8 {
        *self as u8
    }
}

/// How a game ended: the termination and the winner (True for White, False for Black, None for a draw).
#[pyclass(module = "tesseract", name = "Outcome", frozen, eq, hash)]
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Outcome {
    termination: Termination,
    winner: Option<bool>,
}

impl Outcome {
    /// The outcome of a game end (tesseract-movegen's `GameEnd`).
    pub(crate) fn of(end: GameEnd) -> Outcome {
        let termination = match end.termination() {
            Rule::Checkmate => Termination::Checkmate,
            Rule::Stalemate => Termination::Stalemate,
            Rule::DeadDraw => Termination::InsufficientMaterial,
            Rule::SeventyFiveMoves => Termination::SeventyfiveMoves,
            Rule::Fivefold => Termination::FivefoldRepetition,
            Rule::FiftyMoves => Termination::FiftyMoves,
            Rule::Threefold => Termination::ThreefoldRepetition,
        };
        Outcome { termination, winner: end.winner().map(|c| c == Color::White) }
    }
}

#[pymethods]
impl Outcome {
    /// Why the game ended.
    #[getter]
    fn termination(&self) -> Termination {
        self.termination
    }

    /// True when White won, False when Black won, None for a draw.
    #[getter]
    fn winner(&self) -> Option<bool> {
        self.winner
    }

    /// `1-0`, `0-1` or `1/2-1/2`.
    fn result(&self) -> &'static str {
        match self.winner {
            Some(true) => "1-0",
            Some(false) => "0-1",
            None => "1/2-1/2",
        }
    }

    fn __repr__(&self) -> String {
        let winner = match self.winner {
            Some(true) => "True",
            Some(false) => "False",
            None => "None",
        };
        format!("Outcome(termination=Termination.{}, winner={winner})", self.termination.name())
    }
}
