//! The `online` example without a server: both players in one process through the fault-injecting relay,
//! key files, game links, and exit code 2 with a message on stderr for malformed arguments.

mod common;

use std::process::Output;

use common::stdout;

fn run(args: &[&str]) -> Output {
    common::run_example("online", args, "")
}

#[test]
fn local_match_through_a_lossy_relay_completes_with_both_boards_equal() {
    let out = run(&["--local", "--quiet", "--seed", "3", "--faults", "drop=150,dup=150", "--start", "classic"]);
    assert!(out.status.success());
    let text = stdout(&out);
    assert!(text.contains("verdict: completed: both boards agree"), "{text}");
    let hashes: Vec<&str> = text.lines().filter_map(|l| l.split("hash ").nth(1)).collect();
    assert_eq!(hashes.len(), 2);
    assert_eq!(hashes[0], hashes[1]);
}

#[test]
fn local_match_between_engines() {
    let moves = |extra: &[&str]| {
        let mut args = vec!["--local", "--seed", "5", "--faults", "drop=100", "--start", "classic", "--cap", "12"];
        args.extend_from_slice(extra);
        let out = run(&args);
        assert!(out.status.success(), "{args:?}");
        let text = stdout(&out);
        assert!(text.contains("verdict: completed: both boards agree"), "{text}");
        text.lines().filter(|l| l.contains(": plays ")).map(str::to_string).collect::<Vec<_>>()
    };
    let engine = moves(&["--tier", "beginner"]);
    let seeded = moves(&[]);
    assert!(engine.len() >= 12, "{engine:?}");
    assert_ne!(engine, seeded, "--tier plays the engine, not the seeded mover");
}

#[test]
fn local_match_through_a_hostile_relay_never_disagrees_silently() {
    for seed in ["1", "2", "3", "4", "5", "6"] {
        let out = run(&[
            "--local",
            "--quiet",
            "--seed",
            seed,
            "--faults",
            "drop=100,dup=100,reorder=100,corrupt=30,inject=30",
        ]);
        assert!(out.status.success(), "seed {seed}");
        let text = stdout(&out);
        assert!(!text.contains("SILENT DISAGREEMENT"), "{text}");
        assert!(text.contains("verdict: "), "{text}");
    }
}

#[test]
fn key_files_and_game_links() {
    let dir = std::env::temp_dir().join(format!("tesseract-online-local-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let key = dir.join("me.key");
    let _ = std::fs::remove_file(&key);
    let first = run(&["--key", key.to_str().unwrap(), "--print-identity"]);
    let again = run(&["--key", key.to_str().unwrap(), "--print-identity"]);
    assert!(first.status.success());
    assert_eq!(stdout(&first), stdout(&again), "the key file gives the same identity");
    let line = stdout(&first);
    let id = line.trim().strip_prefix("identity ").unwrap();
    assert_eq!(id.len(), 32);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(&key).unwrap().permissions().mode() & 0o777, 0o600);
    }
    let link = stdout(&run(&["--new-link"]));
    let parts: Vec<&str> = link.split_whitespace().collect();
    assert_eq!(parts.len(), 4);
    assert_eq!((parts[0], parts[1].len(), parts[2], parts[3].len()), ("--match", 32, "--invite", 64));
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn malformed_arguments_exit_2() {
    let cases: [&[&str]; 8] = [
        &["--bogus"],
        &["--match", "xyz", "--color", "white", "--invite", &"00".repeat(32)],
        &["--match", "00112233445566778899aabbccddeeff", "--color", "purple", "--invite", &"00".repeat(32)],
        &["--match", "00112233445566778899aabbccddeeff", "--color", "white"],
        &["--match", "00112233445566778899aabbccddeeff", "--color", "white", "--peer", "123"],
        &["--local", "--faults", "drop=2000"],
        &["--local", "--start", "hexagonal"],
        &["--local", "--tier", "wizard"],
    ];
    for args in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}: a message on stderr");
    }
}
