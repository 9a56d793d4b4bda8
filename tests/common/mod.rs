//! Shared helpers of the root integration tests.

// Each test binary uses a subset of these helpers.
#![allow(dead_code)]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The path of an example binary, which `cargo test` builds next to the test binaries
/// (`target/<profile>/examples/`).
///
/// A target filter such as `--test NAME` skips building examples; a missing example is then built here.
///
/// # Panics
/// When the example cannot be built.
pub fn example(name: &str) -> PathBuf {
    let mut dir = std::env::current_exe().expect("the test binary's path");
    dir.pop();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir.join("examples").join(name);
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.current_dir(env!("CARGO_MANIFEST_DIR")).args(["build", "--quiet", "--example", name]);
        // target/debug is the dev profile; any other folder is named after its profile.
        if let Some(profile) = dir.file_name().and_then(|n| n.to_str()).filter(|&n| n != "debug") {
            build.args(["--profile", profile]);
        }
        let status = build.status().expect("cargo runs");
        assert!(status.success() && path.exists(), "could not build the example {name}");
    }
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
