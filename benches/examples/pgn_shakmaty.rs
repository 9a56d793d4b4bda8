//! Reads a PGN file with shakmaty 0.30 + pgn-reader 0.29 as the `pgn` bench does (moves resolved and
//! played, variations skipped, tags and comments not kept), for `scripts/compare_pgn.py`: the same work as
//! `pgn read FILE --threads 1 --top 0` of the workspace, timed from outside.
//!
//! ```text
//! cargo run --release -p tesseract-benches --example pgn_shakmaty -- FILE
//! ```
//!
//! Prints `errors N` (games with a move that is not legal) and last `games N` (the games read whole).

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;

use pgn_reader::{Reader, SanPlus, Skip, Visitor};
use shakmaty::{Chess, Position as _};

/// `println!` that ends the program through [`fail`] when standard output is closed, never with a panic.
macro_rules! say {
    ($($arg:tt)*) => {
        if let Err(e) = writeln!(std::io::stdout(), $($arg)*) {
            fail(&e)
        }
    };
}

struct Moves;

impl Visitor for Moves {
    type Tags = ();
    type Movetext = Chess;
    type Output = bool;

    fn begin_tags(&mut self) -> ControlFlow<bool> {
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, (): ()) -> ControlFlow<bool, Chess> {
        ControlFlow::Continue(Chess::default())
    }

    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<bool> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(false),
        }
    }

    fn begin_variation(&mut self, _: &mut Chess) -> ControlFlow<bool, Skip> {
        ControlFlow::Continue(Skip(true))
    }

    fn end_game(&mut self, _: Chess) -> bool {
        true
    }
}

fn main() -> ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        eprintln!("usage: pgn_shakmaty FILE");
        return ExitCode::from(2);
    };
    let file = match std::fs::File::open(&path) {
        Ok(file) => file,
        Err(e) => {
            eprintln!("pgn_shakmaty: {path}: {e}");
            return ExitCode::from(2);
        }
    };
    let mut reader = Reader::new(file);
    let (mut games, mut errors) = (0u64, 0u64);
    loop {
        match reader.read_game(&mut Moves) {
            Ok(Some(true)) => games += 1,
            Ok(Some(false)) => errors += 1,
            Ok(None) => break,
            Err(e) => {
                eprintln!("pgn_shakmaty: {path}: {e}");
                return ExitCode::from(2);
            }
        }
    }
    say!("errors {errors}");
    say!("games {games}");
    ExitCode::SUCCESS
}

/// Ends the program after a failed write to standard output: at once and quietly with exit code 141 when
/// the reader went away (`| head -1`; 128 + SIGPIPE, as a shell reports a Unix tool killed by SIGPIPE),
/// otherwise with a line on stderr and exit code 1.
fn fail(error: &std::io::Error) -> ! {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    eprintln!("pgn_shakmaty: cannot write the output: {error}");
    std::process::exit(1);
}
