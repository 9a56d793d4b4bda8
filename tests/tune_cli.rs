//! tesseract-search's `tune` example as people run it: the same arguments give the same output whatever
//! the threads playing the games, `--only` picks the parameters that may move, and arguments it cannot use
//! are refused with a message and exit code 2.

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
