//! The `selfcheck` and `compose` examples' command-line contracts: a line per check and a last line
//! `passed P of C`, exit code 1 when a check fails; every key one per line then `keys K`; candidates in the
//! studies file format then `candidates K tries T`; exit code 2 with a message on stderr for malformed
//! input.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::stdout;
use tesseract::verify::study;

fn run(name: &str, args: &[&str]) -> Output {
    common::run_example(name, args, "")
}

/// A file in the system's temporary directory, removed when dropped.
struct TempFile(PathBuf);

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let path = std::env::temp_dir().join(format!("tesseract-verify-cli-{}-{name}", std::process::id()));
        std::fs::write(&path, text).expect("a writable temporary directory");
        TempFile(path)
    }

    fn arg(&self) -> &str {
        self.0.to_str().expect("a UTF-8 path")
    }
}

impl Drop for TempFile {
    fn drop(&mut self) {
        let _ = std::fs::remove_file(&self.0);
    }
}

#[test]
fn selfcheck_prints_each_check_with_its_figure() {
    let out = run("selfcheck", &["--depth", "1", "--lessons"]);
    let text = stdout(&out);
    assert!(out.status.success(), "{text}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("ok     empty-board constants: rook 10,000, bishop 18,000"), "{text}");
    assert!(lines[1].starts_with("ok     start-position theorem: light 22+22 pieces, 220 moves"), "{text}");
    assert!(lines[2].starts_with("ok     generators agree: depth 1:"), "{text}");
    assert!(
        lines[3].starts_with(
            "ok     frozen script: 40 half-moves from the standard start replay to hash 0x497dfccc8924c215"
        ),
        "{text}"
    );
    assert_eq!(lines.iter().filter(|l| l.starts_with("lesson ")).count(), 8, "{text}");
    assert!(lines.iter().any(|l| l.starts_with("ok     lesson set: 8 lessons")), "{text}");
    assert_eq!(*lines.last().unwrap(), "passed 13 of 13");
}

#[test]
fn selfcheck_fails_with_exit_1_on_a_broken_study_or_script() {
    // A study announced one move longer than its main line: rejected when read, exit 2.
    let first = study::shipped().unwrap().remove(0);
    let longer = first.to_record_text().replace(&format!("\nn: {}\n", first.n), &format!("\nn: {}\n", first.n + 1));
    let file = TempFile::new("studies-bad-line.txt", &longer);
    let out = run("selfcheck", &["--depth", "1", "--studies-file", file.arg()]);
    assert_eq!(out.status.code(), Some(2), "{}", stdout(&out));
    assert!(String::from_utf8_lossy(&out.stderr).contains("field `line`"));

    // A script whose hash is wrong: read, replayed, and the check fails: exit 1.
    let script =
        tesseract::verify::selfcheck::SCRIPT_TXT.replace("hash: 0x497dfccc8924c215", "hash: 0x497dfccc8924c216");
    let file = TempFile::new("script-bad-hash.txt", &script);
    let out = run("selfcheck", &["--depth", "1", "--script-file", file.arg()]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    assert!(text.contains("FAILED frozen script"), "{text}");
    assert_eq!(text.lines().last(), Some("passed 3 of 4"));
}

#[test]
fn selfcheck_verifies_a_study_file() {
    // One shipped study of one move, verified from a file; the set check counts the file's studies.
    let one = study::shipped().unwrap().into_iter().find(|s| s.n == 1).expect("a mate in one");
    let file = TempFile::new("studies-one.txt", &one.to_record_text());
    let out = run("selfcheck", &["--depth", "1", "--studies-file", file.arg(), "--naive"]);
    let text = stdout(&out);
    assert!(text.contains(&format!("study {} (mate in 1): ok, keys 1", one.name)), "{text}");
    // A single study cannot cover the set's range and pieces: the set check fails, exit 1.
    assert!(text.contains("FAILED study set"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

#[test]
fn compose_solves_a_position_listing_every_key() {
    for s in study::shipped().unwrap().into_iter().filter(|s| s.n <= 2) {
        let fen = s.position.fen();
        let n = s.n.to_string();
        let out = run("compose", &["--solve", "--fen", &fen, "--n", &n]);
        assert!(out.status.success());
        assert_eq!(stdout(&out), format!("{}\nkeys 1\n", s.text(s.key)), "study {}", s.name);
    }
    // --svg draws the position with an arrow per key, from the key's cell to its target.
    let s = study::shipped().unwrap().into_iter().find(|s| s.n == 1).unwrap();
    let path = std::env::temp_dir().join(format!("tesseract-solve-{}.svg", std::process::id()));
    let n = s.n.to_string();
    let out = run("compose", &["--solve", "--fen", &s.position.fen(), "--n", &n, "--svg", path.to_str().unwrap()]);
    assert!(out.status.success());
    let svg = std::fs::read_to_string(&path).unwrap();
    std::fs::remove_file(&path).ok();
    let picture = tesseract::board::svg::Picture::of(&s.position);
    let ((x1, y1), (x2, y2)) = (picture.centre(s.key.from), picture.centre(s.key.to));
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1, "{svg}");
    assert!(svg.contains(&format!("x1=\"{x1}\" y1=\"{y1}\" x2=\"{x2}\" y2=\"{y2}\"")), "the key's arrow");
    assert_eq!(svg.matches("class=\"piece ").count(), s.position.pieces().count());
    // The standard start has no mate in one.
    let start = tesseract::board::start::tesseract(tesseract::board::start::Army::Standard).fen();
    assert_eq!(stdout(&run("compose", &["--solve", "--fen", &start, "--n", "1"])), "keys 0\n");
}

#[test]
fn compose_prints_candidates_that_verify() {
    let args =
        ["--n", "1", "--seed", "11", "--tries", "3000", "--count", "2", "--corner", "--reach", "4", "--fill", "90"];
    let out = run("compose", &args);
    assert!(out.status.success());
    let text = stdout(&out);
    let last = text.lines().last().unwrap();
    assert!(last.starts_with("candidates 2 tries "), "{text}");
    let records = &text[..text.len() - last.len() - 1];
    let studies = study::parse(records).expect("candidates are records of the studies file");
    assert_eq!(studies.len(), 2);
    for s in &studies {
        let report = study::verify(s, &mut tesseract::verify::mate::MateSolver::new(), Default::default());
        assert!(report.passed(), "{report}");
    }
    // The same arguments give the same candidates.
    assert_eq!(stdout(&run("compose", &args)), text);
}

#[test]
fn malformed_input_exits_2_with_a_message() {
    for (name, args) in [
        ("selfcheck", &["--depth", "0"][..]),
        ("selfcheck", &["--depth", "x"]),
        ("selfcheck", &["--studies-file", "/nonexistent/studies.txt"]),
        ("selfcheck", &["--bogus"]),
        ("compose", &["--n", "0"]),
        ("compose", &["--n", "9"]),
        ("compose", &[]),
        ("compose", &["--solve", "--n", "1"]),
        ("compose", &["--solve", "--fen", "not a position", "--n", "1"]),
        ("compose", &["--solve", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1", "--n", "1"]),
        ("compose", &["--solve", "--fen", "4k3/8/8/8/8/8/8/4K3 w - - 0 1", "--n", "1"]),
        ("compose", &["--n", "1", "--mate", "K"]),
        ("compose", &["--n", "1", "--white", "RX"]),
        ("compose", &["--n", "1", "--fill", "101"]),
    ] {
        let out = run(name, args);
        assert_eq!(out.status.code(), Some(2), "{name} {args:?}");
        assert!(out.stdout.is_empty(), "{name} {args:?}");
        assert!(!out.stderr.is_empty(), "{name} {args:?}");
    }
}

#[test]
fn compose_ends_after_its_tries_when_no_position_can_stand() {
    // Issue 11 item 6: a recipe that can never give a valid position spun forever. Sixteen queens within
    // one cell of a king in a corner (fifteen cells) can never be placed: each try gives up after its
    // draws, and `--tries` ends the run.
    let args = ["--n", "1", "--tries", "3", "--corner", "--reach", "1", "--white", "QQQQQQQQQQQQQQQQ"];
    let mut command = std::process::Command::new(common::example("compose"));
    command.args(args);
    let out = common::run_within(command, Vec::new(), std::time::Duration::from_secs(120));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    assert_eq!(stdout(&out), "candidates 0 tries 3\n");
    assert!(stderr.contains("3 tries, 0 abandoned at the node limit, 3 without a valid position"), "{stderr}");
    // Recipes that can never mate, or never stand, are refused at once.
    let queens = "Q".repeat(100);
    for (white, message) in [
        ("", "the attacker needs a piece besides its king"),
        (&queens[..], "the attacker has 100 pieces besides its king; a side may have at most 63"),
    ] {
        let mut command = std::process::Command::new(common::example("compose"));
        command.args(["--n", "1", "--tries", "3", "--white", white]);
        let out = common::run_within(command, Vec::new(), std::time::Duration::from_secs(120));
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{white:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{white:?}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
    }
}

/// The data files are read with a cap: `/dev/zero` under a 100 MB address-space limit is refused at once
/// with a one-line error and exit code 2 (old: read until memory ran out).
#[test]
fn selfcheck_reads_its_files_with_a_cap() {
    for flag in ["--studies-file", "--lessons-file", "--script-file"] {
        let command = common::example_under_shell("selfcheck", "ulimit -v 100000", &[flag, "/dev/zero"]);
        let out = common::run_within(command, Vec::new(), std::time::Duration::from_secs(30));
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{flag}: {err}");
        assert_eq!(err, "error: /dev/zero: the file is larger than 16 MiB, the most read here\n", "{flag}");
        assert!(out.stdout.is_empty(), "{flag}");
    }
}

#[test]
fn compose_svg_takes_a_dash_and_refuses_a_folder_before_any_work() {
    let s = study::shipped().unwrap().into_iter().find(|s| s.n == 1).unwrap();
    let fen = s.position.fen();
    // `--svg -`: standard output holds the picture alone, the keys go to stderr.
    let out = run("compose", &["--solve", "--fen", &fen, "--n", "1", "--svg", "-"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let svg = stdout(&out);
    assert!(svg.starts_with("<svg") && svg.trim_end().ends_with("</svg>"), "{svg}");
    assert_eq!(svg.matches("class=\"arrow\"").count(), 1);
    assert_eq!(String::from_utf8_lossy(&out.stderr), format!("{}\nkeys 1\n", s.text(s.key)));
    // A folder is refused before the search, and `-` when composing (one picture per candidate).
    let dir = common::scratch("compose-svg");
    let folder = dir.to_str().unwrap();
    for (args, message) in [
        (
            vec!["--solve", "--fen", &fen, "--n", "1", "--svg", folder],
            format!("error: --svg {folder}: a folder, not a file"),
        ),
        (
            vec!["--n", "1", "--tries", "1", "--svg", "-"],
            "error: --svg -: composing writes one picture per candidate".into(),
        ),
    ] {
        let out = run("compose", &args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty() && stderr.starts_with(&message), "{args:?}: {stderr}");
    }
    assert!(common::names(&dir).is_empty());
    std::fs::remove_dir_all(&dir).ok();
}
