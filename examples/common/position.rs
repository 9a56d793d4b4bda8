//! The position arguments that the command-line examples share: `--fen TEXT` or `--start NAME`.

use clap::Args;
use tesseract::board::{Position, start};

/// `--fen TEXT | --start NAME`, exactly one of them.
#[derive(Args, Debug)]
pub struct PositionArgs {
    /// The position as FEN (2D) or TFEN (4D).
    #[arg(long, conflicts_with = "start", required_unless_present = "start")]
    pub fen: Option<String>,
    /// A start position: light, standard, dense, raumschach (3D), classic or chess960:N (N in 0..=959).
    #[arg(long)]
    pub start: Option<String>,
}

impl PositionArgs {
    /// The position the arguments name, or a message that says which argument was wrong and why.
    pub fn position(&self) -> Result<Position, String> {
        match (&self.fen, &self.start) {
            (Some(text), _) => Position::from_fen(text).map_err(|e| format!("--fen: {e}")),
            (None, Some(name)) => start::by_name(name).map_err(|e| format!("--start: {e}")),
            (None, None) => Err("give --fen or --start".to_string()),
        }
    }
}
