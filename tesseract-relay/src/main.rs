//! `tesseract-relay`: the WebSocket relay for online Tesseract matches (see the crate's README).

use std::io::Write;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use clap::builder::RangedU64ValueParser;
use tesseract_relay::{Config, Relay};

/// A WebSocket relay for online Tesseract matches between browsers.
///
/// `GET /match/{id}` upgrades to a WebSocket (id: 1 to 64 characters of A-Z a-z 0-9 _ -). Each binary
/// message is one frame, forwarded unchanged to every other connection of the same match id; a joining
/// connection makes the others receive the text message `joined` (at most one a second each). The relay
/// knows no keys: frames are authenticated end to end by the players. `GET /health` answers `ok` (503
/// while Redis is unreachable in Redis mode), `GET /stats` a JSON object of aggregate counts. Prints
/// `relay listening on http://ADDR/` once it listens; stops on SIGINT or SIGTERM.
#[derive(Parser, Debug)]
#[command(version, about, long_about)]
struct Args {
    /// The address to listen on (port 0: any free port, printed at start).
    #[arg(long, value_name = "ADDR", default_value = "127.0.0.1:8090")]
    listen: SocketAddr,

    /// The largest message a client may send (256 to 1048576 bytes); a larger one is refused by its
    /// header, before it is read, and closes the sender's connection with 1009.
    #[arg(long, value_name = "BYTES", default_value_t = 1024,
          value_parser = RangedU64ValueParser::<usize>::new().range(256..=1_048_576))]
    max_frame: usize,

    /// Frames a second each connection may send (1 to 1000000), in bursts of up to twice as many (every
    /// frame counts: each fragment of a message, pings and pongs); going over closes the connection
    /// with 1008.
    #[arg(long, value_name = "FRAMES_PER_SECOND", default_value_t = 20,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    rate: u32,

    /// A connection that sends nothing at all (no pong either) for this long is closed with 1001
    /// (1 to 86400 seconds); the relay pings every connection every quarter of it.
    #[arg(long, value_name = "SECS", default_value_t = 120, value_parser = clap::value_parser!(u64).range(1..=86_400))]
    idle_timeout: u64,

    /// Connections per match id (2 to 64). When they are all open, a newcomer takes the place of the
    /// oldest connection of the address holding the most places, if it holds two more than the
    /// newcomer's (closed with 4009), else of its own address's oldest (4009), else it is closed with
    /// 4008 `match full`. Each frame goes to every other connection of its match: this also bounds the
    /// fan-out.
    #[arg(long, value_name = "N", default_value_t = 8,
          value_parser = RangedU64ValueParser::<usize>::new().range(2..=64))]
    max_per_match: usize,

    /// Connections per match id from one source address (an IPv4 address, or an IPv6 /64; 1 to 64: a
    /// player, and its stale socket while it reconnects, or two players behind one address); a further
    /// one takes the place of that address's oldest connection there, which is closed with 4009.
    #[arg(long, value_name = "N", default_value_t = 2,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=64))]
    max_per_match_per_address: usize,

    /// Match ids with connections at once (1 to 10000000); a connection that would open one more is
    /// refused with HTTP 503 (or closed with 1013 if the last place went during its upgrade).
    #[arg(long, value_name = "N", default_value_t = 10_000,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000_000))]
    max_matches: usize,

    /// Client sockets at once, HTTP and WebSocket, counted from their accept (1 to 10000000); a further
    /// one is answered HTTP 503 and closed at once. Each takes a file descriptor: if `ulimit -n` is too
    /// low for this many, the relay lowers it to fit, and says so on stderr.
    #[arg(long, value_name = "N", default_value_t = 20_000,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000_000))]
    max_connections: usize,

    /// Client sockets at once from one source address (an IPv4 address, or an IPv6 /64; 1 to 10000000);
    /// a further one is answered HTTP 429 and closed at once. Behind a reverse proxy every client has
    /// the proxy's address: raise it there.
    #[arg(long, value_name = "N", default_value_t = 32,
          value_parser = RangedU64ValueParser::<usize>::new().range(1..=10_000_000))]
    max_connections_per_address: usize,

    /// New WebSocket connections a second from one source address (1 to 1000000), in bursts of up to
    /// twice as many; an upgrade over it is answered HTTP 429.
    #[arg(long, value_name = "PER_SECOND", default_value_t = 10,
          value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    connect_rate_per_address: u32,

    /// A socket that has not sent a complete request head within this time (1 to 3600 seconds) after it
    /// connected, or after its last answer when kept alive, is closed; so is a WebSocket whose message in
    /// fragments has not ended within it (1008).
    #[arg(long, value_name = "SECS", default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3_600))]
    header_timeout: u64,

    /// Also report the frames and bytes forwarded in `/stats`. Off by default: they change with every
    /// frame, so whoever reads them can time the moves of a match that is alone on the relay.
    #[arg(long)]
    stats_traffic: bool,

    /// Redis URL (redis://HOST:PORT/DB): relay processes sharing it serve the same matches, frames
    /// crossing over Redis pub/sub on channel `tesseract-relay:{id}`. Without it, frames stay in this
    /// process.
    #[arg(long, value_name = "URL", value_parser = redis_url)]
    redis: Option<String>,

    /// Also serve the files of DIR read-only at `/` (index.html for directories; GET and HEAD only), so
    /// one command serves the page and its relay on one origin.
    #[arg(long = "static", value_name = "DIR", value_parser = directory)]
    static_dir: Option<PathBuf>,
}

fn redis_url(s: &str) -> Result<String, String> {
    if !s.starts_with("redis://") {
        return Err("expected a URL redis://HOST:PORT/DB".to_string());
    }
    redis::Client::open(s).map(|_| s.to_string()).map_err(|e| e.to_string())
}

fn directory(s: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(s);
    if path.is_dir() { Ok(path) } else { Err("not a directory".to_string()) }
}

/// File descriptors kept for other uses than client sockets: standard streams, the listener, the
/// runtime's own, Redis, static files being read.
const SPARE_DESCRIPTORS: u64 = 64;

/// `max_connections`, lowered (with a line on stderr) when the soft limit on open files (Linux:
/// `/proc/self/limits`) leaves fewer descriptors for client sockets; a relay out of descriptors could no
/// longer accept even to refuse.
fn fit_descriptors(max_connections: usize) -> usize {
    let Some(limit) = open_files_limit() else { return max_connections };
    let room = usize::try_from(limit.saturating_sub(SPARE_DESCRIPTORS).max(1)).unwrap_or(usize::MAX);
    if room >= max_connections {
        return max_connections;
    }
    eprintln!(
        "tesseract-relay: --max-connections {max_connections} lowered to {room}: the limit on open files \
         (ulimit -n) is {limit}, {SPARE_DESCRIPTORS} of them kept for other uses"
    );
    room
}

/// The soft limit on open files of this process, where the system says it.
fn open_files_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    line.trim_start_matches("Max open files").split_whitespace().next()?.parse().ok()
}

/// A future that resolves on SIGINT or (on Unix) SIGTERM. The handlers are installed at once, so a
/// signal that comes before the future is first polled is not lost (nor kills the process).
fn signal() -> std::io::Result<impl std::future::Future<Output = ()>> {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{SignalKind, signal};
        let mut term = signal(SignalKind::terminate())?;
        let mut int = signal(SignalKind::interrupt())?;
        Ok(async move {
            tokio::select! {
                _ = int.recv() => {}
                _ = term.recv() => {}
            }
        })
    }
    #[cfg(not(unix))]
    {
        Ok(async {
            let _ = tokio::signal::ctrl_c().await;
        })
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let config = Config {
        listen: args.listen,
        max_frame: args.max_frame,
        rate: args.rate,
        idle_timeout: Duration::from_secs(args.idle_timeout),
        max_per_match: args.max_per_match,
        max_per_match_per_address: args.max_per_match_per_address,
        max_matches: args.max_matches,
        max_connections: fit_descriptors(args.max_connections),
        max_connections_per_address: args.max_connections_per_address,
        connect_rate_per_address: args.connect_rate_per_address,
        header_timeout: Duration::from_secs(args.header_timeout),
        stats_traffic: args.stats_traffic,
        redis: args.redis,
        static_dir: args.static_dir,
        ..Config::default()
    };
    let runtime = match tokio::runtime::Builder::new_multi_thread().enable_all().build() {
        Ok(runtime) => runtime,
        Err(e) => {
            eprintln!("tesseract-relay: cannot start the runtime: {e}");
            return ExitCode::FAILURE;
        }
    };
    runtime.block_on(async {
        let stop = match signal() {
            Ok(stop) => stop,
            Err(e) => {
                eprintln!("tesseract-relay: cannot install the signal handlers: {e}");
                return ExitCode::FAILURE;
            }
        };
        let relay = match Relay::bind(config).await {
            Ok(relay) => relay,
            Err(e) => {
                eprintln!("tesseract-relay: {e}");
                return ExitCode::FAILURE;
            }
        };
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "relay listening on http://{}/", relay.local_addr());
        let _ = out.flush();
        drop(out);
        match relay.serve(stop).await {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tesseract-relay: {e}");
                ExitCode::FAILURE
            }
        }
    })
}
