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
    let mut child = relay().args(args).stdout(Stdio::piped()).stderr(Stdio::piped()).spawn().unwrap();
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
    let (mut child, addr, rest) = spawn(&["--listen", "127.0.0.1:0"]);
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
        (&["--max-matches", "0"], "--max-matches"),
        (&["--max-connections", "x"], "--max-connections"),
        (&["--max-connections", "10000001"], "--max-connections"),
        (&["--listen", "localhost"], "--listen"),
        (&["--redis", "http://127.0.0.1/"], "--redis"),
        (&["--static", "/nonexistent/tesseract-relay"], "--static"),
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
        ("--max-per-match", "4"),
        ("--max-matches", "10000"),
        ("--max-connections", "20000"),
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
