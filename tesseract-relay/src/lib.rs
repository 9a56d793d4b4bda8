//! A WebSocket relay for online Tesseract matches between browsers.
//!
//! Two players' browsers play a match signed with the `tesseract-wire` protocol (frames of at most 256
//! bytes, authenticated end to end) through this relay. The relay knows no keys: it forwards opaque frames
//! between the connections of one match id, and stores nothing; the protocol's retransmission heals what
//! a reconnection loses.
//!
//! The binding (the crate's README has it in full, with the flags and the Redis mode):
//!
//! - `GET /match/{id}` upgrades to a WebSocket; `id` is 1 to 64 characters of `[A-Za-z0-9_-]`, anything
//!   else gets HTTP 400. Each binary message of a client is one frame, forwarded unchanged as one binary
//!   message to every *other* connection of the match. When a connection joins, the match's other
//!   connections receive the text message `joined`. A connection is joined before its upgrade is answered,
//!   so a client whose socket is open receives every frame sent after that. A text message closes the
//!   sender's connection (1003).
//! - Limits: message size (1009), rate (1008), idle time, connections per match (4008 `match full`),
//!   matches and connections in all (HTTP 503 before the upgrade, or 1013 after it).
//! - With a Redis URL the frames cross between relay processes over Redis pub/sub
//!   (channel `tesseract-relay:{match id}`), so several processes serve one match.
//! - `GET /health` answers `ok`, `GET /stats` a JSON object of counters; optionally a directory of static
//!   files is served at `/`.
//!
//! ```no_run
//! # async fn demo() -> Result<(), tesseract_relay::Error> {
//! use tesseract_relay::{Config, Relay};
//! let relay = Relay::bind(Config { listen: "127.0.0.1:0".parse().unwrap(), ..Config::default() }).await?;
//! println!("relay listening on http://{}/", relay.local_addr());
//! relay.serve(async { let _ = tokio::signal::ctrl_c().await; }).await?;
//! # Ok(())
//! # }
//! ```
#![forbid(unsafe_code)]

use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::mpsc;

mod conn;
mod http;
mod hub;
mod redis_bus;

pub use redis_bus::CHANNEL_PREFIX;

/// The settings of a relay. [`Config::default`] gives the binary's defaults.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to listen on (port 0: any free port; [`Relay::local_addr`] says which).
    pub listen: SocketAddr,
    /// The largest message a client may send, in bytes: a longer one is refused by its header, before
    /// it is read, and closes its connection with 1009.
    pub max_frame: usize,
    /// Messages a second each connection may send (every message counts, pings and pongs too), in bursts
    /// of up to twice as many; going over closes the connection with 1008. At least 1.
    pub rate: u32,
    /// A connection that sends nothing at all (no pong either) for this long is closed (1001); the relay
    /// pings every connection every quarter of it.
    pub idle_timeout: Duration,
    /// Connections per match id in this process; a further one is closed with 4008 `match full`.
    pub max_per_match: usize,
    /// Match ids with connections in this process; a connection that would open one more is refused.
    pub max_matches: usize,
    /// WebSocket connections of this process; a further one is refused with HTTP 503.
    pub max_connections: usize,
    /// Messages waiting to be written to one client; a connection whose queue is full (a client that
    /// does not read) is closed (1008) rather than slowing anybody else.
    pub queue: usize,
    /// A Redis URL (`redis://host:port/db`): frames cross between relay processes over its pub/sub.
    pub redis: Option<String>,
    /// A directory whose files are served read-only at `/`.
    pub static_dir: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            listen: SocketAddr::from(([127, 0, 0, 1], 8090)),
            max_frame: 1024,
            rate: 20,
            idle_timeout: Duration::from_secs(120),
            max_per_match: 4,
            max_matches: 10_000,
            max_connections: 20_000,
            queue: 128,
            redis: None,
            static_dir: None,
        }
    }
}

/// Why a relay could not start.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The listening socket could not be opened.
    #[error("cannot listen on {0}: {1}")]
    Listen(SocketAddr, #[source] std::io::Error),
    /// The static directory is not a readable directory.
    #[error("--static {0}: not a readable directory")]
    Static(PathBuf),
    /// A setting is out of range (such as a rate of 0).
    #[error("bad setting: {0}")]
    Config(&'static str),
    /// Redis could not be reached (at start; later losses are survived, see the README).
    #[error("{0}")]
    Redis(String),
    /// Serving failed.
    #[error("serving: {0}")]
    Serve(#[from] std::io::Error),
}

/// Whether `id` is a valid match id: 1 to 64 characters of `[A-Za-z0-9_-]`.
///
/// ```
/// assert!(tesseract_relay::valid_match_id("a1_-Z"));
/// assert!(!tesseract_relay::valid_match_id(""));
/// assert!(!tesseract_relay::valid_match_id("a/b"));
/// assert!(!tesseract_relay::valid_match_id(&"x".repeat(65)));
/// ```
pub fn valid_match_id(id: &str) -> bool {
    (1..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// What every connection task shares.
#[derive(Debug)]
pub(crate) struct Shared {
    config: Config,
    hub: Arc<hub::Hub>,
    bus: Option<Arc<redis_bus::Bus>>,
    next_conn: AtomicU64,
}

impl Shared {
    fn next_conn_id(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }
}

/// A relay bound to its address, ready to [`serve`](Relay::serve).
#[derive(Debug)]
pub struct Relay {
    listener: TcpListener,
    shared: Arc<Shared>,
    supervisor: Option<tokio::task::JoinHandle<()>>,
}

/// How long a stopping relay waits for its connections to close.
const DRAIN: Duration = Duration::from_secs(5);

impl Relay {
    /// Opens the listening socket (and in Redis mode the connections to Redis).
    ///
    /// # Errors
    /// The address cannot be bound, a setting is out of range, the static directory is not a directory,
    /// or Redis cannot be reached.
    pub async fn bind(config: Config) -> Result<Relay, Error> {
        if config.rate == 0 || config.max_frame == 0 || config.queue == 0 {
            return Err(Error::Config("rate, max_frame and queue must be at least 1"));
        }
        if config.idle_timeout.is_zero() || config.max_per_match == 0 {
            return Err(Error::Config("idle_timeout and max_per_match must be above 0"));
        }
        if let Some(dir) = &config.static_dir
            && std::fs::read_dir(dir).is_err()
        {
            return Err(Error::Static(dir.clone()));
        }
        let (bus, subs) = match &config.redis {
            Some(url) => {
                let (bus, link) = redis_bus::Bus::connect(url).await.map_err(Error::Redis)?;
                let (tx, rx) = mpsc::unbounded_channel();
                (Some((Arc::new(bus), link, rx)), Some(tx))
            }
            None => (None, None),
        };
        let listener = TcpListener::bind(config.listen).await.map_err(|e| Error::Listen(config.listen, e))?;
        let hub = Arc::new(hub::Hub::new(config.max_per_match, config.max_matches, config.max_connections, subs));
        let (bus, supervisor) = match bus {
            Some((bus, link, rx)) => {
                let task = bus.clone().supervise(Arc::downgrade(&hub), config.max_frame, rx, link);
                (Some(bus), Some(tokio::spawn(task)))
            }
            None => (None, None),
        };
        let shared = Arc::new(Shared { config, hub, bus, next_conn: AtomicU64::new(0) });
        Ok(Relay { listener, shared, supervisor })
    }

    /// The address the relay listens on.
    ///
    /// # Panics
    /// Never in practice (a bound socket has an address).
    pub fn local_addr(&self) -> SocketAddr {
        self.listener.local_addr().expect("a bound socket has an address")
    }

    /// Serves until `shutdown` resolves, then stops accepting (the listening socket is closed), closes
    /// every WebSocket with 1001 and waits for the connections to end (at most five seconds for the HTTP
    /// ones, then at most five for the WebSocket ones).
    ///
    /// # Errors
    /// The server's I/O errors.
    pub async fn serve(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), Error> {
        let Relay { listener, shared, supervisor } = self;
        let hub = shared.hub.clone();
        let app = http::router(shared.clone());
        let stopping = hub.clone();
        let (stopped, stop_seen) = tokio::sync::oneshot::channel::<()>();
        let server = axum::serve(listener, app).with_graceful_shutdown(async move {
            shutdown.await;
            stopping.close_all((1001, "relay shutting down"), true);
            let _ = stopped.send(());
        });
        // The server returns once its listener is closed and every HTTP connection has ended; one that
        // never finishes its request is not waited for longer than the drain time.
        let served = tokio::select! {
            served = server.into_future() => served,
            () = async {
                let _ = stop_seen.await;
                tokio::time::sleep(DRAIN).await;
            } => Ok(()),
        };
        // The listener is closed; the WebSocket connections are closing.
        let deadline = tokio::time::Instant::now() + DRAIN;
        while hub.open_slots() > 0 && tokio::time::Instant::now() < deadline {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
        if let Some(task) = supervisor {
            task.abort();
        }
        served.map_err(Error::Serve)
    }
}

/// The resident memory of this process in bytes (Linux: `/proc/self/statm` times the page size), or
/// `None` elsewhere.
pub fn rss_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * page_size())
}

/// The page size, from the auxiliary vector (`AT_PAGESZ`), or 4096.
fn page_size() -> u64 {
    const AT_PAGESZ: u64 = 6;
    let Ok(auxv) = std::fs::read("/proc/self/auxv") else { return 4096 };
    let word = std::mem::size_of::<usize>();
    let read = |b: &[u8]| -> u64 {
        let mut v = [0u8; 8];
        v[..word].copy_from_slice(b);
        if cfg!(target_endian = "little") { u64::from_le_bytes(v) } else { u64::from_be_bytes(v) >> (64 - 8 * word) }
    };
    auxv.chunks_exact(2 * word).find(|pair| read(&pair[..word]) == AT_PAGESZ).map_or(4096, |pair| read(&pair[word..]))
}

// The README's Rust examples are compiled and run as doctests.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;
