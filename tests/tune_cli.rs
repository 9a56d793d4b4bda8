//! tesseract-search's `tune` example as people run it: the same arguments give the same output whatever
//! the threads playing the games, `--only` picks the parameters that may move, samples written to a file
//! fit again to the same weights, and arguments and files it cannot use are refused with a message and
//! exit code 2.

mod common;

use common::{member_example, run_within};
use std::process::Command;
use std::time::Duration;

fn tune(args: &[&str]) -> std::process::Output {
    let mut command = Command::new(member_example("tesseract-search", "tune"));
    command.args(args);
    run_within(command, Vec::new(), Duration::from_secs(300))
}

const SMALL: [&str; 10] = ["--start", "classic", "--games", "6", "--nodes", "60", "--max-plies", "80", "--passes", "2"];

#[test]
fn the_output_does_not_depend_on_the_threads() {
    let one = tune(&[&SMALL[..], &["--threads", "1", "--only", "value"]].concat());
    let three = tune(&[&SMALL[..], &["--threads", "3", "--only", "value"]].concat());
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    assert_eq!(one.stdout, three.stdout);
    let text = String::from_utf8(one.stdout).unwrap();
    assert!(text.starts_with("games 6 ("), "{text}");
    // Values moved, and nothing else.
    let moved: Vec<&str> = text.lines().filter(|l| l.contains(" -> ") && !l.starts_with("scale")).collect();
    assert!(!moved.is_empty(), "{text}");
    assert!(moved.iter().all(|l| l.starts_with("value.")), "{text}");
    assert!(text.lines().last().unwrap().starts_with("Weights { values: ["), "{text}");
}

#[test]
fn unusable_arguments_are_refused() {
    for (args, says) in [
        (vec!["--only", "nosuch"], "no parameter of this board"),
        // A typo beside a good prefix, or an empty one, is refused too.
        (vec!["--only", "value,mobilty"], "\"mobilty\": no parameter"),
        (vec!["--only", "value,"], "\"\": no parameter"),
        (vec!["--start", "nosuch"], "--start nosuch: unknown start"),
        (vec!["--threads", "0"], "--threads"),
    ] {
        let out = tune(&[&SMALL[2..], &args[..]].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty() && !stderr.contains("panicked"), "{args:?}");
    }
}

/// A fresh scratch folder of this test's (`common::scratch`).
fn temp_dir() -> std::path::PathBuf {
    common::scratch("tune-samples")
}

/// `--write-samples` keeps a run's samples and `--samples` fits them again without the games: the same fit,
/// line for line after the first. A file that is not a samples file (or holds none), one of another board,
/// a missing one, or `--samples` beside the games' arguments is refused with exit code 2, with a message
/// that says what and where; a path `--write-samples` cannot write (a missing folder, a folder) is refused
/// at once, before any game; a symbolic link is written through to its file, the link kept.
#[test]
fn samples_are_written_and_fitted_again() {
    let dir = temp_dir();
    let path = |name: &str| dir.join(name);
    let file = path("samples.txt");
    let played = tune(&[&SMALL[..], &["--only", "value", "--write-samples", file.to_str().unwrap()]].concat());
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let played = String::from_utf8(played.stdout).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let count = text.lines().count();
    assert!(count > 10 && text.lines().all(|l| l.starts_with("1 ") || l.starts_with("0.5 ") || l.starts_with("0 ")));
    assert!(played.lines().next().unwrap().ends_with(&format!("samples {count}")), "{played}");
    let fit_again = |file: &std::path::Path| {
        tune(&["--start", "classic", "--passes", "2", "--only", "value", "--samples", file.to_str().unwrap()])
    };
    let again = fit_again(&file);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let again = String::from_utf8(again.stdout).unwrap();
    assert_eq!(again.lines().next().unwrap(), format!("samples {count} (from {})", file.display()));
    assert_eq!(played.lines().skip(1).collect::<Vec<_>>(), again.lines().skip(1).collect::<Vec<_>>());
    // With a byte-order mark before it (as an editor may save it), the same file reads the same.
    let marked = path("marked.txt");
    std::fs::write(&marked, format!("\u{feff}{text}")).unwrap();
    let out = fit_again(&marked);
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().lines().skip(1).collect::<Vec<_>>(),
        again.lines().skip(1).collect::<Vec<_>>()
    );

    // Through a symbolic link: the file it names is written, the link kept.
    #[cfg(unix)]
    {
        let (link, target) = (path("link.txt"), path("target.txt"));
        std::fs::write(&target, "old").unwrap();
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let out = tune(&[&SMALL[..], &["--only", "value", "--write-samples", link.to_str().unwrap()]].concat());
        assert!(out.status.success(), "{out:?}");
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
        assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
    }
    // A path that cannot be written is refused before the games (no "games" line).
    for (target, says) in [(path("no-such-folder").join("samples.txt"), "No such file"), (dir.clone(), "a folder")] {
        let out = tune(&[&SMALL[..], &["--write-samples", target.to_str().unwrap()]].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{target:?}: {stderr}");
        assert!(
            stderr.contains(&format!("--write-samples {}: ", target.display())) && stderr.contains(says),
            "{stderr}"
        );
        assert!(out.stdout.is_empty());
    }

    let bad = path("bad.txt");
    // The start of Raumschach is a sample (pawns on both sides, no check) of the 5×5×5 board.
    let raumschach = path("raumschach.txt");
    let cube = tesseract::board::start::by_name("raumschach").unwrap();
    std::fs::write(&raumschach, format!("0.5 {}\n", cube.fen())).unwrap();
    let long = "1 ".repeat(5000);
    let cases: [(&[u8], &str); 10] = [
        (b"2 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n", "line 1: the result \"2\" is not a number from 0 to 1"),
        (
            b"0.25 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n1.5 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n",
            "line 2: the result \"1.5\"",
        ),
        (b"-0.1 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n", "line 1: the result \"-0.1\""),
        (b"NaN 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n", "line 1: the result \"NaN\""),
        (b"1 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n1 not a position\n", "line 2: the position"),
        (b"# a comment\n\n1 4k3/8/8/8/8/8/PPPP4/R3K3 w - - 0 1\n", "line 3: the position is no sample"),
        ("1 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1 \u{fffd}\n".as_bytes(), "line 1: the position"),
        (&[b'1', b' ', 0xff, b'\n'], "line 1: not UTF-8"),
        (long.as_bytes(), "line 1: longer than 4096 bytes"),
        (b"# comments alone\n\n", "the file holds no samples"),
    ];
    for (contents, says) in cases {
        std::fs::write(&bad, contents).unwrap();
        let out = tune(&["--start", "classic", "--samples", bad.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{says}: {stderr}");
        assert!(
            stderr.contains(&format!("--samples {}: ", bad.display())) && stderr.contains(says),
            "{says}: {stderr}"
        );
        assert!(!stderr.contains("panicked"));
    }
    // Samples of one board, fitted for another.
    let out = tune(&["--start", "classic", "--samples", raumschach.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the samples are on the 5×5×5 board"), "{out:?}");
    let out = tune(&["--start", "raumschach", "--passes", "1", "--samples", raumschach.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let none = path("none.txt");
    let out = tune(&["--start", "classic", "--samples", none.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains(&format!("--samples {}: ", none.display())), "{out:?}");
    for beside in [["--games", "3"], ["--write-samples", "x.txt"]] {
        let out = tune(&[&["--start", "classic", "--samples", file.to_str().unwrap()][..], &beside[..]].concat());
        assert_eq!(out.status.code(), Some(2), "{beside:?}");
        assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"), "{out:?}");
    }
    let _ = std::fs::remove_dir_all(dir);
}

/// `--squares` fits the 8×8 piece-square corrections from a samples file: every step's error, the
/// corrections that moved, the error on `--check`'s samples, and `--write-weights` writes a weights text
/// that reads back to the fitted weights (only corrections changed). Games opened by `--random-plies`
/// give the same samples whatever the threads. Boards other than 8×8, the fit's arguments without it and
/// paths it cannot use are refused with exit code 2, before any game.
#[test]
fn squares_are_fitted_checked_and_written() {
    use tesseract::board::Shape;
    use tesseract::search::eval::Weights;
    let dir = common::scratch("tune-squares");
    let path = |name: &str| dir.join(name);
    let (samples, weights) = (path("samples.txt"), path("weights.txt"));
    let random = ["--random-plies", "4", "--only", "value", "--write-samples"];
    let one = tune(&[&SMALL[..], &random[..], &[samples.to_str().unwrap(), "--threads", "1"]].concat());
    assert!(one.status.success(), "{}", String::from_utf8_lossy(&one.stderr));
    let text = std::fs::read_to_string(&samples).unwrap();
    let two = tune(&[&SMALL[..], &random[..], &[path("two.txt").to_str().unwrap(), "--threads", "2"]].concat());
    assert_eq!((one.stdout, text.clone()), (two.stdout, std::fs::read_to_string(path("two.txt")).unwrap()));
    // The random openings differ from the engine's own (its games from one start repeat).
    let own = path("own.txt");
    assert!(
        tune(&[&SMALL[..], &["--only", "value", "--write-samples", own.to_str().unwrap()]].concat()).status.success()
    );
    assert_ne!(std::fs::read_to_string(&own).unwrap(), text);

    let fit = |extra: &[&str]| {
        let args = ["--start", "classic", "--samples", samples.to_str().unwrap(), "--squares", "--epochs", "5"];
        tune(&[&args[..], extra].concat())
    };
    let out = fit(&["--check", samples.to_str().unwrap(), "--write-weights", weights.to_str().unwrap()]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let printed = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = printed.lines().collect();
    assert!(lines[0].starts_with("samples ") && lines[1].starts_with("epoch 1: error "), "{printed}");
    assert!(lines.iter().any(|l| l.starts_with("epoch 5: error ")), "{printed}");
    let moved: Vec<&str> = lines
        .iter()
        .copied()
        .filter(|l| l.contains(" -> ") && !l.starts_with("scale") && !l.starts_with("check"))
        .collect();
    assert!(!moved.is_empty() && moved.iter().all(|l| l.starts_with("square.")), "{printed}");
    // The fit's own samples as the check: the error falls there too, from the same figure.
    let errors = |line: &str| -> Vec<f64> { line.split(' ').filter_map(|w| w.parse().ok()).collect() };
    let fitted = lines.iter().find(|l| l.starts_with("scale ")).unwrap();
    let check = lines.iter().find(|l| l.starts_with("check: ")).unwrap();
    let (f, c) = (errors(fitted), errors(check));
    assert!(f[1] <= f[0], "{fitted}");
    assert!(c[2] <= c[1] && check.contains(&format!("check: {} samples", text.lines().count())), "{check}");
    let written = Weights::parse(Shape::CHESS, &std::fs::read_to_string(&weights).unwrap()).unwrap();
    assert_ne!(written, Weights::of(2));
    assert_eq!(Weights { square: Weights::of(2).square, ..written }, Weights::of(2));
    for line in &moved {
        let (name, change) = line.split_once(' ').unwrap();
        let now = change.rsplit(' ').next().unwrap();
        assert!(std::fs::read_to_string(&weights).unwrap().contains(&format!("{name} {now}\n")), "{line}");
    }

    for (args, says) in [
        (vec!["--start", "standard", "--games", "1", "--squares"], "count on the 8×8 board only"),
        (vec!["--start", "classic", "--games", "1", "--epochs", "5"], "--squares"),
        (vec!["--start", "classic", "--games", "1", "--squares", "--only", "value"], "cannot be used with"),
        (vec!["--start", "classic", "--games", "1", "--squares", "--ridge", "2"], "--ridge"),
        (vec!["--start", "classic", "--games", "1", "--write-weights", dir.to_str().unwrap()], "a folder"),
        (vec!["--start", "classic", "--games", "1", "--check", path("none.txt").to_str().unwrap()], "--check "),
    ] {
        let out = tune(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(says) && out.stdout.is_empty() && !stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    // A file read is not written over: the run is refused and the file kept.
    let s = samples.to_str().unwrap();
    for (flag, other) in [("--samples", "--write-weights"), ("--check", "--write-samples")] {
        let args = match flag {
            "--samples" => vec!["--start", "classic", "--samples", s, "--squares", other, s],
            _ => vec!["--start", "classic", "--games", "1", flag, s, other, s],
        };
        let out = tune(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains(&format!("the file {flag} reads")), "{stderr}");
        assert_eq!(std::fs::read_to_string(&samples).unwrap(), text);
    }
    let _ = std::fs::remove_dir_all(dir);
}
