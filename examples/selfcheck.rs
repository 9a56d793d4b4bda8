//! Runs the engine's self-checks, and optionally verifies the studies and the lessons.
//!
//! ```text
//! cargo run --release --example selfcheck -- [--depth N] [--studies] [--lessons] [--naive]
//!     [--studies-file PATH] [--lessons-file PATH] [--script-file PATH]
//! ```
//!
//! Prints one line per check, `ok` or `FAILED`, the figure it establishes and its time, with the reasons
//! of a failure on the lines below; then a last line `passed P of C`. Exit code 0 when every check passes,
//! 1 when one fails, 2 for malformed arguments or an unreadable data file (with a message on stderr).
//!
//! The four self-checks always run (see `tesseract_verify::selfcheck`). `--studies` also verifies the
//! twelve shipped studies (correctness, uniqueness, forcedness, main line) and the set as a whole;
//! `--lessons` proves the eight lessons winnable with no dead end; `--naive` re-checks every node of the
//! study proofs and every lesson state with the naive generator. `--studies-file`, `--lessons-file` and
//! `--script-file` verify your own data files instead of the shipped ones.

#[macro_use]
#[path = "common/out.rs"]
mod out;

use std::process::ExitCode;

#[path = "common/files.rs"]
mod files;

use clap::Parser;
use tesseract::verify::lesson::{self, LessonCheck};
use tesseract::verify::mate::{MateSolver, ProofCheck};
use tesseract::verify::selfcheck::{self, SelfCheck};
use tesseract::verify::study;

#[derive(Parser, Debug)]
#[command(about = "Tesseract self-checks, studies and lessons, each verified by the machine")]
struct Args {
    /// Plies to which the fast and the naive generators are compared from each start.
    #[arg(long, default_value_t = selfcheck::AGREE_DEPTH, value_parser = clap::value_parser!(u32).range(1..=3))]
    depth: u32,
    /// Also verify the twelve shipped studies.
    #[arg(long)]
    studies: bool,
    /// Also prove the eight shipped lessons.
    #[arg(long)]
    lessons: bool,
    /// Re-check study proofs and lesson states with the naive generator.
    #[arg(long)]
    naive: bool,
    /// Verify the studies of this file instead of the shipped ones (implies --studies).
    #[arg(long, value_name = "PATH")]
    studies_file: Option<std::path::PathBuf>,
    /// Prove the lessons of this file instead of the shipped ones (implies --lessons).
    #[arg(long, value_name = "PATH")]
    lessons_file: Option<std::path::PathBuf>,
    /// Replay this script file instead of the shipped one.
    #[arg(long, value_name = "PATH")]
    script_file: Option<std::path::PathBuf>,
}

/// A data file's text, at most [`files::MAX_FILE`] bytes (far more than any studies, lessons or script).
fn read(path: &std::path::Path) -> Result<String, String> {
    files::read_text(path).map_err(|e| format!("{}: {e}", path.display()))
}

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(2)
        }
    }
}

/// Runs every requested check; `Ok(passed)`, or `Err` for unreadable input.
fn run(args: &Args) -> Result<bool, String> {
    // Read every input first, so that a bad file fails before any work.
    let script = match &args.script_file {
        Some(path) => Some(selfcheck::parse_script(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?),
        None => None,
    };
    let studies = match &args.studies_file {
        Some(path) => Some(study::parse(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?),
        None if args.studies => Some(study::shipped().map_err(|e| format!("the shipped studies: {e}"))?),
        None => None,
    };
    let lessons = match &args.lessons_file {
        Some(path) => Some(lesson::parse(&read(path)?).map_err(|e| format!("{}: {e}", path.display()))?),
        None if args.lessons => Some(lesson::shipped().map_err(|e| format!("the shipped lessons: {e}"))?),
        None => None,
    };

    let (mut passed, mut total) = (0, 0);
    let mut tally = |ok: bool| {
        total += 1;
        if ok {
            passed += 1;
        }
    };
    let checks: Vec<SelfCheck> = vec![
        selfcheck::empty_board_constants(),
        selfcheck::start_theorem(),
        selfcheck::generators_agree(args.depth),
        match &script {
            Some(s) => selfcheck::check_script(s),
            None => selfcheck::frozen_script(),
        },
    ];
    for check in &checks {
        outln!("{check}");
        tally(check.passed());
    }
    if let Some(studies) = &studies {
        let proof = if args.naive { ProofCheck::Naive } else { ProofCheck::Fast };
        for s in studies {
            // A fresh table per study: each proof stands on its own.
            let report = study::verify(s, &mut MateSolver::new(), proof);
            outln!("{report}");
            tally(report.passed());
        }
        let expected = if args.studies_file.is_some() { studies.len() } else { 12 };
        let faults = study::verify_set(studies, expected);
        let status = if faults.is_empty() { "ok    " } else { "FAILED" };
        let ns: Vec<String> = studies.iter().map(|s| s.n.to_string()).collect();
        let maters: Vec<&str> = studies.iter().map(|s| s.mate.name()).collect();
        outln!("{status} study set: {} studies, N = {}, mates by {}", studies.len(), ns.join(" "), maters.join(", "));
        for f in &faults {
            outln!("       - {f}");
        }
        tally(faults.is_empty());
    }
    if let Some(lessons) = &lessons {
        let check = if args.naive { LessonCheck::Naive } else { LessonCheck::Fast };
        for l in lessons {
            let report = lesson::verify(l, check);
            outln!("{report}");
            tally(report.passed());
        }
        let faults = if args.lessons_file.is_some() { Vec::new() } else { lesson::verify_set(lessons) };
        let status = if faults.is_empty() { "ok    " } else { "FAILED" };
        let kinds: Vec<&str> = lessons.iter().map(|l| l.name.as_str()).collect();
        outln!("{status} lesson set: {} lessons: {}", lessons.len(), kinds.join(", "));
        for f in &faults {
            outln!("       - {f}");
        }
        tally(faults.is_empty());
    }
    outln!("passed {passed} of {total}");
    Ok(passed == total)
}
