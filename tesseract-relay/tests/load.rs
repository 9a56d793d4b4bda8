//! A short run of the load test (`examples/relay_load.rs`), so it keeps working: a few seconds at most.
//! The figures of the README come from the long runs its docs show.

use std::path::PathBuf;
use std::process::Command;

/// The example's binary, which `cargo test` builds next to the test binaries (built here if a target
/// filter skipped it).
fn relay_load() -> PathBuf {
    let mut dir = std::env::current_exe().expect("the test binary's path");
    dir.pop();
    if dir.ends_with("deps") {
        dir.pop();
    }
    let path = dir.join("examples").join("relay_load");
    if !path.exists() {
        let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
        let mut build = Command::new(cargo);
        build.current_dir(env!("CARGO_MANIFEST_DIR")).args(["build", "--quiet", "--example", "relay_load"]);
        if let Some(profile) = dir.file_name().and_then(|n| n.to_str()).filter(|&n| n != "debug") {
            build.args(["--profile", profile]);
        }
        assert!(build.status().expect("cargo runs").success() && path.exists(), "could not build relay_load");
    }
    path
}

fn run(args: &[&str]) -> String {
    let out = Command::new(relay_load()).args(args).output().expect("relay_load runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(out.status.success(), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
    for line in ["connected 40 clients", "forwarded 800 frames in ", "round trip (two frames) p50 ", "relay 0 rss: "] {
        assert!(stdout.contains(line), "{line:?} in {stdout}");
    }
    if cfg!(target_os = "linux") {
        // The relay's memory, read from its /stats: never 0 on Linux.
        assert!(!stdout.contains("relay 0 rss: 0.0 MiB"), "{stdout}");
    }
    stdout
}

#[test]
fn a_short_load_run() {
    let out = run(&["--matches", "20", "--frames", "40", "--timeout", "60"]);
    assert!(out.contains("in-process channel"), "{out}");
}

#[test]
#[ignore = "needs redis-server on 127.0.0.1:6379: run by scripts/test.sh"]
fn a_short_load_run_over_redis_with_two_relays() {
    let url = std::env::var("TESSERACT_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379/".to_string());
    let out = run(&["--matches", "20", "--frames", "40", "--redis", &url, "--relays", "2", "--timeout", "60"]);
    assert!(out.contains("relay 1 rss: "), "{out}");
}
