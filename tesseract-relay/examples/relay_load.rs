//! Load test of the relay on loopback: N matches at once, each a pair of WebSocket clients
//! ping-ponging M frames, through relays running in child processes (this program started again with
//! `--serve-relay`, so each relay's memory is its own).
//!
//! ```text
//! cargo run --release -p tesseract-relay --example relay_load -- --matches 200 --frames 200
//! cargo run --release -p tesseract-relay --example relay_load -- --matches 200 --frames 200 \
//!     --redis redis://127.0.0.1:6379/ --relays 2
//! ```
//!
//! Prints the frames forwarded per second, the round-trip latency (p50, p99) seen by the first client of
//! each pair, and each relay's resident memory from `/stats` before, with every connection open after
//! the exchange, and after the clients left. Exits 1 if any pair fails or `--timeout` passes.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::SocketAddr;
use std::process::{Child, Command, ExitCode, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use clap::Parser;
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

/// `println!` inside [`run`]: a failed write ends the run with an error (after which the relays it started
/// are stopped), never with a panic; see [`output_error`].
macro_rules! say {
    ($($arg:tt)*) => {
        writeln!(std::io::stdout(), $($arg)*).map_err(output_error)?
    };
}

/// Raised when standard output's reader went away (`relay_load | head -1`).
static STDOUT_CLOSED: AtomicBool = AtomicBool::new(false);

/// The run's error after a failed write to standard output; a reader gone away is remembered, so that the
/// program ends quietly with exit code 141 (128 + SIGPIPE, as a shell reports a Unix tool killed by
/// SIGPIPE) instead of the error's line and exit code 1.
fn output_error(error: std::io::Error) -> String {
    if error.kind() == std::io::ErrorKind::BrokenPipe {
        STDOUT_CLOSED.store(true, Ordering::Relaxed);
    }
    format!("cannot write the output: {error}")
}

/// Load test of tesseract-relay on loopback.
#[derive(Parser, Debug)]
#[command(about)]
struct Args {
    /// Matches at once (two clients each).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=5_000))]
    matches: u32,
    /// Frames each pair exchanges (ping-pong: the first client sends, the second answers; half each).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(2..=1_000_000))]
    frames: u32,
    /// Bytes per frame.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u16).range(8..=1024))]
    size: u16,
    /// Redis URL: the relays use Redis pub/sub.
    #[arg(long, value_name = "URL")]
    redis: Option<String>,
    /// Relay processes (more than one needs --redis); the first client of each pair connects to the
    /// first relay, the second to the last.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=8))]
    relays: u32,
    /// Gives up after this many seconds.
    #[arg(long, default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    timeout: u64,
    /// (Internal) run one relay and print its line: how the test starts its relay processes.
    #[arg(long, hide = true)]
    serve_relay: bool,
}

/// A relay child process.
struct RelayProcess {
    child: Child,
    addr: SocketAddr,
}

impl Drop for RelayProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn start_relay(redis: Option<&str>) -> RelayProcess {
    let mut command = Command::new(std::env::current_exe().expect("this program's path"));
    command.arg("--serve-relay");
    if let Some(url) = redis {
        command.args(["--redis", url]);
    }
    let mut child = command.stdout(Stdio::piped()).spawn().expect("the relay process starts");
    let mut line = String::new();
    BufReader::new(child.stdout.take().unwrap()).read_line(&mut line).expect("the relay's line");
    let addr = line
        .trim()
        .strip_prefix("relay listening on http://")
        .and_then(|r| r.strip_suffix('/'))
        .unwrap_or_else(|| panic!("unexpected line from the relay: {line:?}"))
        .parse()
        .unwrap();
    RelayProcess { child, addr }
}

/// The relay of a child process: the library with the binary's defaults, but a rate limit far above
/// what loopback ping-pong reaches, and per-address limits that let every client connect at once (they
/// all come from 127.0.0.1).
async fn serve_relay(redis: Option<String>) -> ExitCode {
    let config = tesseract_relay::Config {
        listen: "127.0.0.1:0".parse().unwrap(),
        rate: 1_000_000,
        max_connections_per_address: 1_000_000,
        connect_rate_per_address: 1_000_000,
        redis,
        ..tesseract_relay::Config::default()
    };
    let relay = match tesseract_relay::Relay::bind(config).await {
        Ok(relay) => relay,
        Err(e) => {
            eprintln!("relay_load: {e}");
            return ExitCode::FAILURE;
        }
    };
    // The parent reads this line; it is gone only when the parent is.
    if writeln!(std::io::stdout(), "relay listening on http://{}/", relay.local_addr()).is_err() {
        return ExitCode::FAILURE;
    }
    match relay.serve(std::future::pending()).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("relay_load: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `GET /stats` of a relay: its `rss_bytes` (0 if unknown).
fn rss(addr: SocketAddr) -> u64 {
    let mut stream = std::net::TcpStream::connect(addr).expect("the relay answers");
    write!(stream, "GET /stats HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n").unwrap();
    let mut answer = String::new();
    stream.read_to_string(&mut answer).unwrap();
    answer
        .split("\"rss_bytes\": ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse().ok())
        .unwrap_or(0)
}

/// The CPU time a process has used so far (Linux: `/proc/PID/stat`, at 100 ticks a second), if known.
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    // The fields after the command name (which ends at the last ')'): utime and stime are the 12th and
    // 13th of them.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks: u64 = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(ticks as f64 / 100.0)
}

fn mib(bytes: u64) -> String {
    format!("{:.1} MiB", bytes as f64 / (1 << 20) as f64)
}

type Ws = tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

async fn connect(addr: SocketAddr, id: &str) -> Result<Ws, String> {
    let (ws, _) = tokio_tungstenite::connect_async(format!("ws://{addr}/match/{id}"))
        .await
        .map_err(|e| format!("connect {id}: {e}"))?;
    Ok(ws)
}

/// The next binary frame (pings are answered by the library while reading).
async fn next_frame(ws: &mut Ws) -> Result<Vec<u8>, String> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Binary(frame))) => return Ok(frame.to_vec()),
            Some(Ok(Message::Text(_) | Message::Ping(_) | Message::Pong(_))) => continue,
            other => return Err(format!("connection ended: {other:?}")),
        }
    }
}

/// One match's exchange: `a` sends frame 0, `b` answers frame 1, and so on; the round-trip times seen
/// by `a`.
async fn exchange(mut a: Ws, mut b: Ws, frames: u32, size: usize) -> Result<(Vec<Duration>, Ws, Ws), String> {
    let mut rtts = Vec::with_capacity(frames as usize / 2);
    let mut n = 0;
    while n < frames {
        let mut frame = vec![0u8; size];
        frame[..4].copy_from_slice(&n.to_be_bytes());
        let sent = Instant::now();
        a.send(Message::binary(frame.clone())).await.map_err(|e| e.to_string())?;
        let got = next_frame(&mut b).await?;
        if got != frame {
            return Err(format!("frame {n} changed"));
        }
        n += 1;
        if n == frames {
            break;
        }
        frame[..4].copy_from_slice(&n.to_be_bytes());
        b.send(Message::binary(frame.clone())).await.map_err(|e| e.to_string())?;
        let got = next_frame(&mut a).await?;
        if got != frame {
            return Err(format!("frame {n} changed"));
        }
        rtts.push(sent.elapsed());
        n += 1;
    }
    Ok((rtts, a, b))
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

async fn run(args: Args) -> Result<(), String> {
    if args.relays > 1 && args.redis.is_none() {
        return Err("--relays above 1 needs --redis".to_string());
    }
    let relays: Vec<RelayProcess> = (0..args.relays).map(|_| start_relay(args.redis.as_deref())).collect();
    let first = relays[0].addr;
    let last = relays[relays.len() - 1].addr;
    let mode = match &args.redis {
        Some(url) => format!("Redis pub/sub at {url}"),
        None => "in-process channel".to_string(),
    };
    say!(
        "relay_load: {} matches x {} frames of {} bytes (ping-pong), {} relay process(es), {mode}",
        args.matches,
        args.frames,
        args.size,
        args.relays
    );
    let before: Vec<u64> = relays.iter().map(|r| rss(r.addr)).collect();

    // Connect every pair (at most 64 connections in progress at once), then start every exchange at once.
    let tag = std::process::id();
    let gate = Arc::new(tokio::sync::Semaphore::new(64));
    let start = Instant::now();
    let mut pairs = Vec::new();
    for m in 0..args.matches {
        let gate = gate.clone();
        pairs.push(tokio::spawn(async move {
            let _permit = gate.acquire().await.map_err(|e| e.to_string())?;
            let id = format!("load-{tag}-{m}");
            let mut a = connect(first, &id).await?;
            // Wait for b's `joined` at a: from then on both are joined. With Redis, a's subscription may
            // not be in place yet when b's `joined` is published: then b connects again.
            for _ in 0..10 {
                let b = connect(last, &id).await?;
                match tokio::time::timeout(Duration::from_secs(1), a.next()).await {
                    Ok(Some(Ok(Message::Text(t)))) if t.as_str() == "joined" => return Ok((a, b)),
                    Err(_) => continue,
                    Ok(other) => return Err(format!("{id}: expected joined, got {other:?}")),
                }
            }
            Err(format!("{id}: no joined"))
        }));
    }
    let mut connected = Vec::new();
    for pair in pairs {
        connected.push(pair.await.map_err(|e| e.to_string())??);
    }
    say!("connected {} clients in {:.2} s", 2 * args.matches, start.elapsed().as_secs_f64());

    let cpu_before: Vec<Option<f64>> = relays.iter().map(|r| cpu_seconds(r.child.id())).collect();
    let start = Instant::now();
    let (frames, size) = (args.frames, usize::from(args.size));
    let runs: Vec<_> = connected.into_iter().map(|(a, b)| tokio::spawn(exchange(a, b, frames, size))).collect();
    let mut rtts = Vec::new();
    let mut sockets = Vec::new();
    for run in runs {
        let (times, a, b) = run.await.map_err(|e| e.to_string())??;
        rtts.extend(times);
        sockets.push((a, b));
    }
    let elapsed = start.elapsed();
    let total = u64::from(args.matches) * u64::from(args.frames);
    rtts.sort();
    say!(
        "forwarded {total} frames in {:.2} s: {:.0} frames/s",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64()
    );
    say!(
        "round trip (two frames) p50 {:.2} ms, p99 {:.2} ms, over {} round trips",
        percentile(&rtts, 0.50).as_secs_f64() * 1e3,
        percentile(&rtts, 0.99).as_secs_f64() * 1e3,
        rtts.len()
    );
    for (i, (relay, before)) in relays.iter().zip(&cpu_before).enumerate() {
        if let (Some(before), Some(now)) = (before, cpu_seconds(relay.child.id())) {
            say!("relay {i} cpu during the exchange: {:.2} s", now - before);
        }
    }
    let during: Vec<u64> = relays.iter().map(|r| rss(r.addr)).collect();
    for (a, b) in &mut sockets {
        let _ = a.close(None).await;
        let _ = b.close(None).await;
    }
    drop(sockets);
    tokio::time::sleep(Duration::from_millis(500)).await;
    let after: Vec<u64> = relays.iter().map(|r| rss(r.addr)).collect();
    for (i, ((b, d), a)) in before.iter().zip(&during).zip(&after).enumerate() {
        say!(
            "relay {i} rss: {} before, {} with {} connections open after the exchange, {} after they closed",
            mib(*b),
            mib(*d),
            if args.relays == 1 { 2 * args.matches } else { args.matches },
            mib(*a)
        );
    }
    Ok(())
}

fn main() -> ExitCode {
    let args = Args::parse();
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build().expect("a runtime");
    if args.serve_relay {
        return runtime.block_on(serve_relay(args.redis));
    }
    let limit = Duration::from_secs(args.timeout);
    match runtime.block_on(async { tokio::time::timeout(limit, run(args)).await }) {
        Ok(Ok(())) => ExitCode::SUCCESS,
        Ok(Err(_)) if STDOUT_CLOSED.load(Ordering::Relaxed) => ExitCode::from(141),
        Ok(Err(e)) => {
            eprintln!("relay_load: {e}");
            ExitCode::FAILURE
        }
        Err(_) => {
            eprintln!("relay_load: gave up after {limit:?}");
            ExitCode::FAILURE
        }
    }
}
