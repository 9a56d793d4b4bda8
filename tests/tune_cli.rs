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

/// A unique path in the temporary folder for this test run.
fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tesseract-tune-{}-{name}", std::process::id()))
}

/// `--write-samples` keeps a run's samples and `--samples` fits them again without the games: the same fit,
/// line for line after the first. A file that is not a samples file, one of another board, a missing one,
/// or `--samples` beside the games' arguments is refused with exit code 2; a symbolic link is written
/// through to its file, and a folder that does not exist is an error that says so.
#[test]
fn samples_are_written_and_fitted_again() {
    let file = temp("samples.txt");
    let played = tune(&[&SMALL[..], &["--only", "value", "--write-samples", file.to_str().unwrap()]].concat());
    assert!(played.status.success(), "{}", String::from_utf8_lossy(&played.stderr));
    let played = String::from_utf8(played.stdout).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let count = text.lines().count();
    assert!(count > 10 && text.lines().all(|l| l.starts_with("1 ") || l.starts_with("0.5 ") || l.starts_with("0 ")));
    assert!(played.lines().next().unwrap().ends_with(&format!("samples {count}")), "{played}");
    let again = tune(&["--start", "classic", "--passes", "2", "--only", "value", "--samples", file.to_str().unwrap()]);
    assert!(again.status.success(), "{}", String::from_utf8_lossy(&again.stderr));
    let again = String::from_utf8(again.stdout).unwrap();
    assert_eq!(again.lines().next().unwrap(), format!("samples {count} (from {})", file.display()));
    assert_eq!(played.lines().skip(1).collect::<Vec<_>>(), again.lines().skip(1).collect::<Vec<_>>());

    // Through a symbolic link: the file it names is written, the link kept.
    let link = temp("link.txt");
    let target = temp("target.txt");
    std::fs::write(&target, "old").unwrap();
    let _ = std::fs::remove_file(&link);
    std::os::unix::fs::symlink(&target, &link).unwrap();
    let out = tune(&[&SMALL[..], &["--only", "value", "--write-samples", link.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{out:?}");
    assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), text);
    let missing = temp("no-such-folder").join("samples.txt");
    let out = tune(&[&SMALL[..], &["--only", "value", "--write-samples", missing.to_str().unwrap()]].concat());
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--write-samples"), "{out:?}");

    let bad = temp("bad.txt");
    // The start of Raumschach is a sample (pawns on both sides, no check) of the 5×5×5 board.
    let raumschach = temp("raumschach.txt");
    let cube = tesseract::board::start::by_name("raumschach").unwrap();
    std::fs::write(&raumschach, format!("0.5 {}\n", cube.fen())).unwrap();
    for (contents, says) in [
        ("2 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n", "line 1: the result \"2\""),
        ("1 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1\n1 not a position\n", "line 2: the position"),
        ("# a comment\n\n1 4k3/8/8/8/8/8/PPPP4/R3K3 w - - 0 1\n", "line 3: the position is no sample"),
        ("1 4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1 \u{fffd}\n", "line 1: the position"),
    ] {
        std::fs::write(&bad, contents).unwrap();
        let out = tune(&["--start", "classic", "--samples", bad.to_str().unwrap()]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{contents:?}: {stderr}");
        assert!(stderr.contains(says), "{contents:?}: {stderr}");
        assert!(!stderr.contains("panicked"));
    }
    std::fs::write(&bad, [b'1', b' ', 0xff, b'\n']).unwrap();
    let out = tune(&["--start", "classic", "--samples", bad.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1: not UTF-8"), "{out:?}");
    std::fs::write(&bad, "1 ".repeat(5000)).unwrap();
    let out = tune(&["--start", "classic", "--samples", bad.to_str().unwrap()]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 1: longer than 4096 bytes"), "{out:?}");
    // Samples of one board, fitted for another.
    let out = tune(&["--start", "classic", "--samples", raumschach.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("the samples are on the 5×5×5 board"), "{out:?}");
    let out = tune(&["--start", "raumschach", "--passes", "1", "--samples", raumschach.to_str().unwrap()]);
    assert!(out.status.success(), "{out:?}");
    let out = tune(&["--start", "classic", "--samples", temp("none.txt").to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let out = tune(&["--start", "classic", "--games", "3", "--samples", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot be used with"), "{out:?}");
    for f in [file, link, target, bad, raumschach] {
        let _ = std::fs::remove_file(f);
    }
}
