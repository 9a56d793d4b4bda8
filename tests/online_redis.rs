//! Engine against engine over a real Redis server: the `online` example runs twice, one process per
//! player, and both must report the same final position.
//!
//! These tests need `redis-server` listening on 127.0.0.1:6379 (or `TESSERACT_REDIS_URL`); they are
//! ignored by default and run by `scripts/test.sh`:
//! `cargo test --release --test online_redis -- --ignored`.

mod common;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Output, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

fn redis_url() -> String {
    std::env::var("TESSERACT_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379".to_string())
}

/// The example's binary, built with the tests (or built here if a target filter skipped it).
fn online_binary() -> PathBuf {
    common::example("online")
}

/// A fresh temporary directory and a fresh match id.
fn scratch(name: &str) -> (PathBuf, String) {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    let dir = std::env::temp_dir().join(format!("tesseract-online-{name}-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let id = format!("{:016x}{:016x}", nanos as u64, u64::from(std::process::id()) << 20 ^ name.len() as u64);
    (dir, id)
}

fn identity(bin: &Path, key: &Path) -> String {
    let out = Command::new(bin).arg("--key").arg(key).arg("--print-identity").output().unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap().trim().strip_prefix("identity ").expect("identity line").to_string()
}

fn spawn(bin: &Path, args: &[&str]) -> Child {
    Command::new(bin).args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().expect("the example starts")
}

/// Waits for a child, killing it after `limit`.
fn finish(mut child: Child, limit: Duration) -> Output {
    let start = Instant::now();
    while child.try_wait().unwrap().is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            panic!("the player did not finish in {limit:?}: {}", String::from_utf8_lossy(&out.stderr));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    child.wait_with_output().unwrap()
}

fn final_line(out: &Output) -> String {
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines()
        .rev()
        .find(|l| l.starts_with("final "))
        .unwrap_or_else(|| panic!("no final line in {text}"))
        .to_string()
}

fn field<'a>(line: &'a str, name: &str) -> &'a str {
    line.split(' ')
        .find_map(|f| f.strip_prefix(name).and_then(|r| r.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {name} in {line}"))
}

fn play_pair(white: &[&str], black: &[&str]) -> (Output, Output) {
    let bin = online_binary();
    let w = spawn(&bin, white);
    let b = spawn(&bin, black);
    (finish(w, Duration::from_secs(240)), finish(b, Duration::from_secs(240)))
}

/// A full game to its end (mate, stalemate, kings alone, a claimed draw, or the 300-ply cap's draw by
/// agreement), identities pinned from key files: both processes end on the same position.
#[test]
#[ignore = "needs redis-server on 127.0.0.1:6379: run by scripts/test.sh"]
fn engine_vs_engine_over_redis_full_game() {
    let bin = online_binary();
    let (dir, id) = scratch("pinned");
    let (wk, bk) = (dir.join("white.key"), dir.join("black.key"));
    let (wid, bid) = (identity(&bin, &wk), identity(&bin, &bk));
    let url = redis_url();
    let common = ["--redis", url.as_str(), "--match", id.as_str(), "--auto", "--cap", "300", "--quiet"];
    let (wk, bk) = (wk.to_str().unwrap(), bk.to_str().unwrap());
    let white: Vec<&str> =
        common.iter().copied().chain(["--color", "white", "--key", wk, "--peer", &bid, "--seed", "1"]).collect();
    let black: Vec<&str> =
        common.iter().copied().chain(["--color", "black", "--key", bk, "--peer", &wid, "--seed", "2"]).collect();
    let (w, b) = play_pair(&white, &black);
    assert!(w.status.success(), "white: {}", String::from_utf8_lossy(&w.stderr));
    assert!(b.status.success(), "black: {}", String::from_utf8_lossy(&b.stderr));
    let (fw, fb) = (final_line(&w), final_line(&b));
    assert_eq!(fw, fb, "the two boards disagree");
    assert_eq!(field(&fw, "hash"), field(&fb, "hash"));
    let reason = field(&fw, "reason");
    assert!(["checkmate", "stalemate", "deaddraw", "threefold", "fiftymoves", "drawagreed"].contains(&reason), "{fw}");
    let ply: u32 = field(&fw, "ply").parse().unwrap();
    assert!(ply > 0 && ply <= 300, "{fw}");
    let _ = std::fs::remove_dir_all(dir);
}

/// Chess through a game link (invitation secret, no pinned identity), with both processes dropping and
/// duplicating their own outgoing frames: retransmission makes the faults harmless.
#[test]
#[ignore = "needs redis-server on 127.0.0.1:6379: run by scripts/test.sh"]
fn engine_vs_engine_over_redis_with_invitation_and_faults() {
    let bin = online_binary();
    let link = Command::new(&bin).arg("--new-link").output().unwrap();
    let link = String::from_utf8(link.stdout).unwrap();
    let parts: Vec<&str> = link.split_whitespace().collect();
    assert_eq!((parts[0], parts[2]), ("--match", "--invite"));
    let url = redis_url();
    let common = [
        "--redis",
        url.as_str(),
        "--match",
        parts[1],
        "--invite",
        parts[3],
        "--start",
        "classic",
        "--auto",
        "--cap",
        "200",
        "--faults",
        "drop=100,dup=100",
        "--retransmit-ms",
        "100",
        "--quiet",
    ];
    let white: Vec<&str> = common.iter().copied().chain(["--color", "white", "--seed", "3"]).collect();
    let black: Vec<&str> = common.iter().copied().chain(["--color", "black", "--seed", "4"]).collect();
    let (w, b) = play_pair(&white, &black);
    assert!(
        w.status.success() && b.status.success(),
        "{}\n{}",
        String::from_utf8_lossy(&w.stderr),
        String::from_utf8_lossy(&b.stderr)
    );
    assert_eq!(final_line(&w), final_line(&b));
}

/// A player who pinned someone else's identity refuses the real peer's keys and stops: nobody plays
/// against an unauthenticated party.
#[test]
#[ignore = "needs redis-server on 127.0.0.1:6379: run by scripts/test.sh"]
fn wrong_pinned_identity_over_redis_is_refused() {
    let bin = online_binary();
    let (dir, id) = scratch("mitm");
    let (wk, bk, ck) = (dir.join("white.key"), dir.join("black.key"), dir.join("carol.key"));
    let (wid, bid, cid) = (identity(&bin, &wk), identity(&bin, &bk), identity(&bin, &ck));
    let url = redis_url();
    let common = ["--redis", url.as_str(), "--match", id.as_str(), "--auto", "--quiet", "--timeout", "5"];
    let (wk, bk) = (wk.to_str().unwrap(), bk.to_str().unwrap());
    let white: Vec<&str> = common.iter().copied().chain(["--color", "white", "--key", wk, "--peer", &bid]).collect();
    // Black expects Carol.
    let black: Vec<&str> = common.iter().copied().chain(["--color", "black", "--key", bk, "--peer", &cid]).collect();
    let _ = wid;
    let (w, b) = play_pair(&white, &black);
    assert_eq!(b.status.code(), Some(1));
    let err = String::from_utf8_lossy(&b.stderr);
    assert!(err.contains(&format!("but {cid} was pinned")), "{err}");
    assert_eq!(w.status.code(), Some(1), "white cannot finish the handshake and gives up");
    let _ = std::fs::remove_dir_all(dir);
}
