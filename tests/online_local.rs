//! The `online` example without a server: both players in one process through the fault-injecting relay,
//! key files, game links, and exit code 2 with a message on stderr for malformed arguments.

mod common;

use std::process::Output;

use common::stdout;

fn run(args: &[&str]) -> Output {
    common::run_example("online", args, "")
}

/// Runs the example with raw bytes on its standard input (which need not be UTF-8).
fn run_with_input(args: &[&str], input: &[u8]) -> Output {
    common::run_example("online", args, input)
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
    let mut dropped = 0;
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
        // Damaged and injected frames are dropped (protocol version 2): every match completes.
        assert!(text.contains("verdict: completed: both boards agree"), "seed {seed}: {text}");
        dropped += text
            .lines()
            .filter_map(|l| l.strip_suffix(" frames dropped")?.rsplit(' ').next()?.parse::<u64>().ok())
            .sum::<u64>();
    }
    assert!(dropped > 0, "the relay's damaged and injected frames were dropped");
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

/// A relay nobody answers at: the player retries until `--timeout`, then ends with the final line (not
/// an error without one), reason `relaylost`, exit code 1.
#[test]
fn an_unreachable_relay_ends_with_a_final_line_after_the_timeout() {
    let started = std::time::Instant::now();
    let out = run(&[
        "--redis",
        "redis://127.0.0.1:1",
        "--match",
        "00112233445566778899aabbccddeeff",
        "--color",
        "white",
        "--invite",
        &"00".repeat(32),
        "--auto",
        "--timeout",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(1));
    let text = stdout(&out);
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("final result=* reason=relaylost ply=0 hash="), "{text}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("relay unreachable") && err.contains("unreachable for 2 s: giving up"), "{err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30));
}

/// Human input: a line that is not UTF-8 and a line of 5,000 bytes are answered and skipped, and the lines
/// after them are still read (here `draw`, answered while the relay is away, then `abort`).
#[test]
fn human_input_goes_on_after_a_non_utf8_line_and_an_overlong_line() {
    let mut input = b"\xff\xfe e2e4\n".to_vec();
    input.extend(std::iter::repeat_n(b'x', 5000));
    input.extend(b"\n");
    // A `\r\n` ending is not counted in the length (old: 6001).
    input.extend(std::iter::repeat_n(b'y', 6000));
    input.extend(b"\r\ndraw\nabort\n");
    let out = run_with_input(
        &[
            "--redis",
            "redis://127.0.0.1:1",
            "--match",
            "00112233445566778899aabbccddeeff",
            "--color",
            "white",
            "--invite",
            &"00".repeat(32),
            "--timeout",
            "60",
        ],
        &input,
    );
    let text = stdout(&out);
    let at = |needle: &str| text.find(needle).unwrap_or_else(|| panic!("no {needle:?} in {text}"));
    let bad = at("That line is not UTF-8 text: ignored.");
    let long = at("That line has 5000 bytes, more than 4096: ignored.");
    let crlf = at("That line has 6000 bytes, more than 4096: ignored.");
    let draw = at("not now: the handshake is not complete");
    assert!(bad < long && long < crlf && crlf < draw, "{text}");
    assert!(text.lines().last().unwrap_or_default().starts_with("final result=* reason=aborted ply=0"), "{text}");
    assert_eq!(out.status.code(), Some(1));
}

/// `--state FILE` is written before anything is sent, readable by its owner only; a state of another
/// match is refused with exit code 2 (and left as it was).
#[test]
fn the_state_file_is_private_and_tied_to_its_match() {
    let dir = std::env::temp_dir().join(format!("tesseract-online-state-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (key, state) = (dir.join("me.key"), dir.join("me.state"));
    let (key, state) = (key.to_str().unwrap(), state.to_str().unwrap());
    let invite = "00".repeat(32);
    let args = |id: &'static str| {
        let mut a = vec!["--redis", "redis://127.0.0.1:1", "--color", "black", "--auto", "--timeout", "1"];
        a.extend(["--match", id, "--invite", &invite, "--key", key, "--state", state]);
        a.into_iter().map(str::to_string).collect::<Vec<_>>()
    };
    let first = args("00112233445566778899aabbccddeeff");
    let out = run(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(stdout(&out).contains("reason=relaylost"), "{}", stdout(&out));
    let saved = std::fs::read(dir.join("me.state")).unwrap();
    assert!(saved.starts_with(b"TWS\x02\x02"), "format 2, version 2");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(std::fs::metadata(dir.join("me.state")).unwrap().permissions().mode() & 0o777, 0o600);
    }
    // The same match again: resumed (the Hello of the first run, not a new one).
    let out = run(&first.iter().map(String::as_str).collect::<Vec<_>>());
    assert!(stdout(&out).contains("resumed ply=0"), "{}", stdout(&out));
    assert!(!String::from_utf8_lossy(&out.stderr).contains("warning"), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(std::fs::read(dir.join("me.state")).unwrap(), saved);
    // A state file others may read: resumed, with a warning.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(dir.join("me.state"), std::fs::Permissions::from_mode(0o644)).unwrap();
        let out = run(&first.iter().map(String::as_str).collect::<Vec<_>>());
        assert!(stdout(&out).contains("resumed ply=0"), "{}", stdout(&out));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("online: warning: --state {state}: mode 644, others than its owner may read")),
            "{err}"
        );
        std::fs::set_permissions(dir.join("me.state"), std::fs::Permissions::from_mode(0o600)).unwrap();
    }
    // Another match: refused, the file untouched.
    let other = args("ffeeddccbbaa99887766554433221100");
    let out = run(&other.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("the session state is for another match id: the state has 00112233445566778899aabbccddeeff"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("me.state")).unwrap(), saved);
    let _ = std::fs::remove_dir_all(dir);
}

#[test]
fn malformed_arguments_exit_2() {
    let cases: [&[&str]; 9] = [
        &["--bogus"],
        &["--match", "xyz", "--color", "white", "--invite", &"00".repeat(32)],
        &["--match", "00112233445566778899aabbccddeeff", "--color", "purple", "--invite", &"00".repeat(32)],
        &["--match", "00112233445566778899aabbccddeeff", "--color", "white"],
        &["--match", "00112233445566778899aabbccddeeff", "--color", "white", "--peer", "123"],
        &["--local", "--faults", "drop=2000"],
        &["--local", "--start", "hexagonal"],
        &["--local", "--tier", "wizard"],
        // A saved state needs the key it was saved with.
        &[
            "--match",
            "00112233445566778899aabbccddeeff",
            "--color",
            "white",
            "--invite",
            &"00".repeat(32),
            "--state",
            "s",
        ],
    ];
    for args in cases {
        let out = run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(!out.stderr.is_empty(), "{args:?}: a message on stderr");
    }
}

/// A state that cannot be saved (no file may grow past 0 bytes: `ulimit -f 0`, which binds root too) holds
/// every frame back, and after its attempts the player gives up with the final line, `reason=unsaved`,
/// exit code 1 (old: the error was printed and the frames sent anyway, until the relay's timeout).
#[test]
fn a_state_that_cannot_be_saved_sends_nothing_and_ends_with_the_final_line() {
    let dir = std::env::temp_dir().join(format!("tesseract-online-unsaved-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let (key, state) = (dir.join("me.key"), dir.join("me.state"));
    assert!(run(&["--key", key.to_str().unwrap(), "--print-identity"]).status.success());
    let invite = "00".repeat(32);
    let args = [
        "--redis",
        "redis://127.0.0.1:1",
        "--match",
        "00112233445566778899aabbccddeeff",
        "--color",
        "white",
        "--invite",
        &invite,
        "--auto",
        "--timeout",
        "60",
        "--key",
        key.to_str().unwrap(),
        "--state",
        state.to_str().unwrap(),
    ];
    let command = common::example_under_shell("online", "trap '' XFSZ; ulimit -f 0", &args);
    let started = std::time::Instant::now();
    let out = common::run_within(command, Vec::new(), std::time::Duration::from_secs(50));
    let text = stdout(&out);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{text}{err}");
    let last = text.lines().last().unwrap_or_default();
    assert!(last.starts_with("final result=* reason=unsaved ply=0 hash="), "{text}");
    assert!(err.contains(&format!("online: --state {}: not saved: ", state.display())), "{err}");
    assert!(err.contains("not saved after 10 attempts: giving up"), "{err}");
    assert_eq!(err.matches("not saved: ").count(), 1, "reported once: {err}");
    assert!(started.elapsed() < std::time::Duration::from_secs(30), "gave up before the relay's timeout");
    let names: Vec<String> =
        std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names, ["me.key"], "no state and no temporary file is left");
    let _ = std::fs::remove_dir_all(dir);
}

/// `--key` reads at most 1 KiB: `/dev/zero` under a 100 MB address-space limit is refused at once with a
/// one-line error and exit code 2 (old: read until memory ran out).
#[test]
fn a_key_file_is_read_with_a_cap() {
    let command =
        common::example_under_shell("online", "ulimit -v 100000", &["--key", "/dev/zero", "--print-identity"]);
    let out = common::run_within(command, Vec::new(), std::time::Duration::from_secs(30));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert_eq!(err, "online: --key /dev/zero: larger than 1024 bytes: a key file holds 64 hex digits\n");
    assert!(out.stdout.is_empty());
}

#[test]
fn a_key_file_is_created_through_a_dangling_link_where_it_points() {
    use std::os::unix::fs::{PermissionsExt, symlink};
    let (dir, here, there) = common::scratch_here_there("online-key-link");
    let link = here.join("me.key");
    symlink("../there/alice.key", &link).unwrap();
    let first = run(&["--key", link.to_str().unwrap(), "--print-identity"]);
    assert!(first.status.success(), "{}", String::from_utf8_lossy(&first.stderr));
    assert!(common::is_link(&link), "the link was replaced by a file");
    let real = there.join("alice.key");
    assert_eq!(std::fs::read_to_string(&real).unwrap().trim().len(), 64);
    assert_eq!(std::fs::metadata(&real).unwrap().permissions().mode() & 0o777, 0o600);
    // Read back through the link: the same identity.
    let again = run(&["--key", link.to_str().unwrap(), "--print-identity"]);
    assert_eq!(stdout(&first), stdout(&again));
    assert_eq!(common::names(&here), ["me.key"]);
    std::fs::remove_dir_all(&dir).ok();
}
