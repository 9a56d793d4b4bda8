//! Shared helpers of the root integration tests.

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The path of an example binary, which `cargo test` builds next to the test binaries
/// (`target/<profile>/examples/`).
///
/// # Panics
/// When the example is missing: a target filter such as `--test NAME` skips building examples.
pub fn example(name: &str) -> PathBuf {
    let mut dir = std::env::current_exe().expect("the test binary's path");
    dir.pop();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir.join("examples").join(name);
    assert!(
        path.exists(),
        "{} is missing: `cargo test` builds the examples (a filter such as --test skips that)",
        path.display()
    );
    path
}

/// Runs an example with `args`, feeding `stdin`, and waits for it.
pub fn run_example(name: &str, args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(example(name))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the example starts");
    child.stdin.take().expect("piped stdin").write_all(stdin.as_bytes()).expect("write stdin");
    child.wait_with_output().expect("the example finishes")
}

/// Standard output as text.
pub fn stdout(output: &Output) -> String {
    String::from_utf8(output.stdout.clone()).expect("UTF-8 output")
}
