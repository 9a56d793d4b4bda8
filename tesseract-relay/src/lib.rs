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
//!   connections receive the text message `joined` (at most one a second each: joins that come sooner
//!   are told by one `joined` at the end of that second). A connection is joined before its upgrade is
//!   answered, so a client whose socket is open receives every frame sent after that. A text message
//!   closes the sender's connection (1003).
//! - Limits, each falling on the client that goes over it: message size (1009), frames a second (every
//!   frame counts, fragments too) and fragments a message (1008, 1009), idle time; places in a match, in
//!   all and per address, a newcomer replacing the oldest connection of its own address or of an
//!   address over its share (4009 `replaced …`) or refused (4008 `match full`); sockets in all and per source address, and new WebSocket connections a second
//!   per source address (HTTP 503 or 429 before the upgrade); matches in all (HTTP 503, or 1013 after
//!   the upgrade); the time to send a request head (the socket is closed). Every close the relay starts
//!   carries a close code and a reason.
//! - With a Redis URL the frames cross between relay processes over Redis pub/sub
//!   (channel `tesseract-relay:{match id}`), so several processes serve one match.
//! - `GET /health` answers `ok` (503 while Redis is unreachable in Redis mode), `GET /stats` a JSON
//!   object of aggregate counts; optionally a directory of static files (no dotfiles) is served at `/`.
//!
//! # Design
//!
//! The relay cannot tell a player from a stranger who knows the match id, so no limit may let one
//! client's behaviour be charged to another. Each limit counts what its client sends (its frames, its
//! sockets, its upgrades); what the relay sends a player because of others (frames, `joined`) never
//! counts against that player, and `joined`, which players answer by retransmitting, is sent to each at
//! most once a second however fast others join. The places of a match go by address for the same
//! reason: an address gets its share, and a newcomer takes a place only from its own address or from
//! one holding at least two more, so a stranger from a few addresses cannot keep the players out
//! (`places`). The WebSocket library hands out whole messages only, so the frame limits read the frame
//! headers as the bytes pass (`meter`); the socket limits count from the accept, before a byte is read,
//! and its own accept loop gives each HTTP connection a header timeout, which axum's server does not.
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

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::mpsc;

mod conn;
mod events;
mod http;
mod hub;
mod limits;
mod meter;
mod places;
mod redis_bus;
mod server;

pub use redis_bus::CHANNEL_PREFIX;

/// The settings of a relay. [`Config::default`] gives the binary's defaults.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to listen on (port 0: any free port; [`Relay::local_addr`] says which).
    pub listen: SocketAddr,
    /// The largest message a client may send, in bytes: a longer one is refused by its header, before
    /// it is read, and closes its connection with 1009.
    pub max_frame: usize,
    /// Frames a second each connection may send (every frame counts: each fragment of a message, pings
    /// and pongs; not its close), in bursts of up to twice as many; going over closes the connection
    /// with 1008. At least 1.
    pub rate: u32,
    /// A connection that sends nothing at all (no pong either) for this long is closed (1001); the relay
    /// pings every connection every quarter of it.
    pub idle_timeout: Duration,
    /// Connections per match id in this process. A newcomer to a full match takes the place of the
    /// oldest connection of the address holding the most places, if it holds two more than the
    /// newcomer's address (closed with 4009), else of the oldest of its own address, if it holds one
    /// (4009); else it is closed with 4008 `match full`. At least 1.
    pub max_per_match: usize,
    /// Connections per match id from one source address (an IPv4 address, or an IPv6 /64) in this
    /// process; a further one takes the place of that address's oldest connection of the match, which
    /// is closed with 4009. At least 1.
    pub max_per_match_per_address: usize,
    /// Match ids with connections in this process; a connection that would open one more is refused.
    pub max_matches: usize,
    /// Client sockets of this process, HTTP and WebSocket, counted from their accept (one still sending
    /// its request counts too); a further one is answered HTTP 503 and closed at once.
    pub max_connections: usize,
    /// Client sockets from one source address (an IPv4 address, or an IPv6 /64), counted like
    /// `max_connections`; a further one is answered HTTP 429 and closed at once.
    pub max_connections_per_address: usize,
    /// New WebSocket connections a second from one source address, in bursts of up to twice as many; an
    /// upgrade over it is answered HTTP 429. At least 1.
    pub connect_rate_per_address: u32,
    /// A socket that has not sent a complete request head this long after it connected (or after its
    /// last answer, when kept alive) is closed. A WebSocket message in fragments must also end within it
    /// (1008).
    pub header_timeout: Duration,
    /// Whether `/stats` also reports the frames and bytes forwarded, which change with every frame of
    /// every match (whoever reads them can time the moves of a match that is alone on the relay).
    pub stats_traffic: bool,
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
            max_per_match: 8,
            max_per_match_per_address: 2,
            max_matches: 10_000,
            max_connections: 20_000,
            max_connections_per_address: 32,
            connect_rate_per_address: 10,
            header_timeout: Duration::from_secs(10),
            stats_traffic: false,
            queue: 288,
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
    limits: Arc<limits::Limits>,
    events: events::Events,
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

impl Relay {
    /// Opens the listening socket (and in Redis mode the connections to Redis).
    ///
    /// # Errors
    /// The address cannot be bound, a setting is out of range, the static directory is not a directory,
    /// or Redis cannot be reached.
    pub async fn bind(config: Config) -> Result<Relay, Error> {
        if config.rate == 0 || config.max_frame == 0 || config.queue == 0 || config.connect_rate_per_address == 0 {
            return Err(Error::Config("rate, max_frame, queue and connect_rate_per_address must be at least 1"));
        }
        if config.idle_timeout.is_zero()
            || config.header_timeout.is_zero()
            || config.max_per_match == 0
            || config.max_per_match_per_address == 0
            || config.max_connections == 0
            || config.max_connections_per_address == 0
        {
            return Err(Error::Config(
                "idle_timeout, header_timeout, max_per_match, max_per_match_per_address, max_connections and \
                 max_connections_per_address must be above 0",
            ));
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
        let caps = places::Caps { per_match: config.max_per_match, per_address: config.max_per_match_per_address };
        let hub = Arc::new(hub::Hub::new(caps, config.max_matches, subs));
        let limits = Arc::new(limits::Limits::new(
            config.max_connections,
            config.max_connections_per_address,
            config.connect_rate_per_address,
        ));
        let (bus, supervisor) = match bus {
            Some((bus, link, rx)) => {
                let task = bus.clone().supervise(Arc::downgrade(&hub), config.max_frame, rx, link);
                (Some(bus), Some(tokio::spawn(task)))
            }
            None => (None, None),
        };
        let events = events::Events::default();
        let shared = Arc::new(Shared { config, hub, bus, limits, events, next_conn: AtomicU64::new(0) });
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
    /// every WebSocket with 1001, lets the HTTP connections finish their request, and waits at most five
    /// seconds for all of them to end (dropping what is left).
    ///
    /// # Errors
    /// None at present (accept errors such as running out of file descriptors are told on standard
    /// error and survived); the `Result` leaves room for them.
    pub async fn serve(self, shutdown: impl Future<Output = ()> + Send + 'static) -> Result<(), Error> {
        let Relay { listener, shared, supervisor } = self;
        server::serve(listener, shared, shutdown).await;
        if let Some(task) = supervisor {
            task.abort();
        }
        Ok(())
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
