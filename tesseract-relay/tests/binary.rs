//! The `tesseract-relay` binary itself: its one line on standard output, a match through it, SIGTERM,
//! and the argument parser's refusals.

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::*;

fn relay() -> Command {
    Command::new(env!("CARGO_BIN_EXE_tesseract-relay"))
}

/// Starts the binary with `args`; returns it, its address (from its line) and its other stdout lines.
fn spawn(args: &[&str]) -> (Child, SocketAddr, std::thread::JoinHandle<Vec<String>>) {
    spawn_command(relay().args(args))
}

/// [`spawn`] for any command that runs the binary.
fn spawn_command(command: &mut Command) -> (Child, SocketAddr, std::thread::JoinHandle<Vec<String>>) {
    let mut child = command.stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
    let mut lines = BufReader::new(child.stdout.take().unwrap()).lines();
    let line = lines.next().expect("a line").unwrap();
    let addr = line
        .strip_prefix("relay listening on http://")
        .and_then(|rest| rest.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
        .parse()
        .unwrap();
    let rest = std::thread::spawn(move || lines.map_while(Result::ok).collect());
    (child, addr, rest)
}

/// Waits for the child at most `limit`.
fn wait(child: &mut Child, limit: Duration) -> std::process::ExitStatus {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            panic!("the relay did not stop within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

fn sigterm(child: &Child) {
    let status = Command::new("kill").args(["-TERM", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
}

/// The binary prints exactly its one line (with the real port), relays a match, and on SIGTERM closes
/// its connections with 1001 and exits 0.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_binary_relays_and_stops_on_sigterm() {
    let (mut child, addr, rest) = spawn(&["--listen", "127.0.0.1:0", "--stats-traffic"]);
    assert_ne!(addr.port(), 0);
    let mut a = join(addr, "bin").await;
    let mut b = join(addr, "bin").await;
    expect_joined(&mut a).await;
    send(&mut a, &frame(1, 200)).await;
    expect_frame(&mut b, &frame(1, 200)).await;
    send(&mut b, &frame(2, 256)).await;
    expect_frame(&mut a, &frame(2, 256)).await;
    let (status, _, body) = http(addr, "GET", "/stats", &[]).await;
    assert_eq!(status, 200);
    let stats: serde_json::Value = serde_json::from_str(&body).unwrap();
    assert_eq!((stats["connections"].as_u64(), stats["frames_forwarded"].as_u64()), (Some(2), Some(2)), "{stats}");
    assert!(stats["rss_bytes"].as_u64().unwrap() > 0);
    sigterm(&child);
    assert_eq!(expect_close(&mut a).await, (1001, "relay shutting down".to_string()));
    assert_eq!(expect_close(&mut b).await.0, 1001);
    let status = wait(&mut child, Duration::from_secs(10));
    assert!(status.success(), "{status:?}");
    assert!(rest.join().unwrap().is_empty(), "exactly one line on standard output");
    assert!(std::net::TcpStream::connect(addr).is_err(), "the port is closed");
}

/// Values out of range are refused by the argument parser: its message, exit code 2.
#[test]
fn bad_arguments_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (&["--rate", "0"], "--rate"),
        (&["--rate", "1000001"], "--rate"),
        (&["--max-frame", "255"], "--max-frame"),
        (&["--max-frame", "1048577"], "--max-frame"),
        (&["--idle-timeout", "0"], "--idle-timeout"),
        (&["--max-per-match", "1"], "--max-per-match"),
        (&["--max-per-match", "65"], "--max-per-match"),
        (&["--max-per-match-per-address", "0"], "--max-per-match-per-address"),
        (&["--max-per-match-per-address", "65"], "--max-per-match-per-address"),
        (&["--max-matches", "0"], "--max-matches"),
        (&["--max-connections", "x"], "--max-connections"),
        (&["--max-connections", "10000001"], "--max-connections"),
        (&["--listen", "localhost"], "--listen"),
        (&["--redis", "http://127.0.0.1/"], "--redis"),
        (&["--static", "/nonexistent/tesseract-relay"], "--static"),
        (&["--max-connections-per-address", "0"], "--max-connections-per-address"),
        (&["--connect-rate-per-address", "0"], "--connect-rate-per-address"),
        (&["--connect-rate-per-address", "1000001"], "--connect-rate-per-address"),
        (&["--header-timeout", "0"], "--header-timeout"),
        (&["--header-timeout", "3601"], "--header-timeout"),
        (&["--stats-traffic", "yes"], "yes"),
        (&["--frobnicate"], "--frobnicate"),
    ];
    for (args, flag) in cases {
        let out = relay().args(*args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.starts_with("error: ") && err.contains(flag), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// `--help` documents every flag and its default.
#[test]
fn help_documents_the_flags() {
    let out = relay().arg("--help").output().unwrap();
    assert!(out.status.success());
    let help = String::from_utf8(out.stdout).unwrap();
    for (flag, default) in [
        ("--listen", "127.0.0.1:8090"),
        ("--max-frame", "1024"),
        ("--rate", "20"),
        ("--idle-timeout", "120"),
        ("--max-per-match", "8"),
        ("--max-per-match-per-address", "2"),
        ("--max-matches", "10000"),
        ("--max-connections", "20000"),
        ("--max-connections-per-address", "32"),
        ("--connect-rate-per-address", "10"),
        ("--header-timeout", "10"),
        ("--stats-traffic", ""),
        ("--redis", ""),
        ("--static", ""),
    ] {
        assert!(help.contains(flag), "{flag}");
        assert!(help.contains(&format!("[default: {default}]")) || default.is_empty(), "{flag} {default}");
    }
}

/// An address in use: one line on stderr, exit code 1, nothing on stdout.
#[test]
fn an_address_in_use_is_an_error() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    let out = relay().args(["--listen", &addr]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&format!("cannot listen on {addr}")), "{err}");
    assert!(out.stdout.is_empty());
}

/// Reads the child's standard error on a thread: its lines arrive on the channel.
fn stderr_lines(child: &mut Child) -> std::sync::mpsc::Receiver<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    let stderr = child.stderr.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            let _ = tx.send(line);
        }
    });
    rx
}

/// Waits for a line of standard error that contains `text`.
fn expect_line(lines: &std::sync::mpsc::Receiver<String>, text: &str) -> String {
    let deadline = Instant::now() + PATIENCE;
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        match lines.recv_timeout(left) {
            Ok(line) if line.contains(text) => return line,
            Ok(_) => continue,
            Err(_) => panic!("no line with {text:?} on standard error"),
        }
    }
}

/// The refusals and timeouts are told on standard error at once (the first of each kind), with the
/// address of the client.
#[cfg(unix)]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_and_timeouts_are_told_on_stderr() {
    let (mut child, addr, _rest) =
        spawn(&["--listen", "127.0.0.1:0", "--connect-rate-per-address", "1", "--header-timeout", "1"]);
    let lines = stderr_lines(&mut child);
    // A burst of two upgrades, then 429.
    let _a = join(addr, "told").await;
    let _b = join(addr, "told").await;
    let (status, _, _) = http(addr, "GET", "/match/told", &UPGRADE).await;
    assert_eq!(status, 429);
    let line = expect_line(&lines, "--connect-rate-per-address");
    assert_eq!(
        line,
        "tesseract-relay: refused 1 WebSocket connection over --connect-rate-per-address (HTTP 429); the last from 127.0.0.1"
    );
    // A socket that sends nothing is closed after a second, and told.
    let mut silent = tokio::net::TcpStream::connect(addr).await.unwrap();
    closed_by_relay(&mut silent, PATIENCE).await;
    let line = expect_line(&lines, "--header-timeout");
    assert_eq!(
        line,
        "tesseract-relay: closed 1 connection that sent no complete request head within --header-timeout; the last from 127.0.0.1"
    );
    sigterm(&child);
    assert!(wait(&mut child, Duration::from_secs(10)).success());
}

/// Under a low limit on open files the binary lowers `--max-connections` to fit (and says so), so a
/// crowd of idle sockets meets a 503 rather than a relay that can no longer accept.
#[cfg(target_os = "linux")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn max_connections_fits_the_open_files_limit() {
    let mut command = Command::new("sh");
    command.args(["-c", "ulimit -n 128 && exec \"$0\" \"$@\"", env!("CARGO_BIN_EXE_tesseract-relay")]);
    command.args(["--listen", "127.0.0.1:0", "--max-connections", "1000", "--max-connections-per-address", "1000"]);
    let (mut child, addr, _rest) = spawn_command(&mut command);
    let lines = stderr_lines(&mut child);
    let line = expect_line(&lines, "--max-connections");
    assert_eq!(
        line,
        "tesseract-relay: --max-connections 1000 lowered to 64: the limit on open files (ulimit -n) is 128, 64 of them kept for other uses"
    );
    let mut idle = Vec::new();
    for _ in 0..64 {
        idle.push(tokio::net::TcpStream::connect(addr).await.unwrap());
    }
    let (status, _, body) = http(addr, "GET", "/health", &[]).await;
    assert_eq!((status, body.as_str()), (503, "too many connections\n"));
    drop(idle);
    let deadline = Instant::now() + PATIENCE;
    while http(addr, "GET", "/health", &[]).await.0 != 200 {
        assert!(Instant::now() < deadline, "served again once the sockets closed");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    sigterm(&child);
    assert!(wait(&mut child, Duration::from_secs(10)).success());
}
