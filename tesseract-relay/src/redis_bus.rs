//! Redis mode: frames and `joined` events cross between relay processes over Redis pub/sub.
//!
//! Each frame a client sends is delivered at once to the other connections of its match in the same
//! process, and PUBLISHed on `tesseract-relay:{match id}` in an envelope naming the origin process and
//! connection. Each process subscribes to the channels of the matches it has connections for, and
//! delivers what it receives to its local connections, except what it published itself (those it has
//! delivered already): every other connection gets each frame exactly once.
//!
//! Envelope (binary): `version 0x01 ‖ kind u8 (0x00 frame, 0x01 joined) ‖ origin[16] ‖ connection u64
//! (big-endian) ‖ frame` (no frame for `joined`).
//!
//! If the subscription connection is lost (or a health ping gets no answer within five seconds), every
//! connection of this process is closed with 1011 and new ones are closed with 1011 right after joining,
//! while a background task reconnects (backoff 0.1 s doubling to 5 s) and subscribes again.

use std::collections::HashSet;
use std::hash::{BuildHasher, Hasher};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Bytes;
use futures_util::StreamExt;
use redis::aio::{MultiplexedConnection, PubSubSink, PubSubStream};
use tokio::sync::mpsc;
use tokio::time::{Instant, timeout};

use crate::hub::{Close, ConnId, Hub, Out, SubCmd, lock};

/// The close code and reason of connections cut off by the loss of Redis.
pub(crate) const UNAVAILABLE: Close = (1011, "redis unavailable");

/// The channel prefix; the channel of a match is the prefix followed by the match id.
pub const CHANNEL_PREFIX: &str = "tesseract-relay:";

const VERSION: u8 = 1;
const KIND_FRAME: u8 = 0;
const KIND_JOINED: u8 = 1;
const HEADER: usize = 2 + 16 + 8;

/// How long a connection attempt, a command or a health ping may take.
const REDIS_TIMEOUT: Duration = Duration::from_secs(5);
const HEALTH_EVERY: Duration = Duration::from_secs(5);
const BACKOFF_MIN: Duration = Duration::from_millis(100);
const BACKOFF_MAX: Duration = Duration::from_secs(5);

/// The Redis side of one relay process.
pub(crate) struct Bus {
    client: redis::Client,
    origin: [u8; 16],
    publisher: Mutex<Option<MultiplexedConnection>>,
    up: AtomicBool,
}

impl std::fmt::Debug for Bus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bus").field("up", &self.up.load(Ordering::Relaxed)).finish_non_exhaustive()
    }
}

/// The connections of one session with Redis.
pub(crate) struct Link {
    sink: PubSubSink,
    stream: PubSubStream,
    publisher: MultiplexedConnection,
}

/// A random process identity (std's hasher keys are drawn from the operating system's randomness).
fn random_origin() -> [u8; 16] {
    let mut origin = [0u8; 16];
    for (i, half) in origin.chunks_mut(8).enumerate() {
        let mut h = std::collections::hash_map::RandomState::new().build_hasher();
        h.write_usize(i);
        h.write_u32(std::process::id());
        if let Ok(t) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) {
            h.write_u128(t.as_nanos());
        }
        half.copy_from_slice(&h.finish().to_be_bytes());
    }
    origin
}

/// The channel of a match.
pub(crate) fn channel(match_id: &str) -> String {
    format!("{CHANNEL_PREFIX}{match_id}")
}

impl Bus {
    /// Opens the first session with Redis at `url`.
    ///
    /// # Errors
    /// A bad URL, or Redis not answering.
    pub(crate) async fn connect(url: &str) -> Result<(Bus, Link), String> {
        let client = redis::Client::open(url).map_err(|e| format!("bad Redis URL {url}: {e}"))?;
        let bus = Bus { client, origin: random_origin(), publisher: Mutex::new(None), up: AtomicBool::new(false) };
        let link = bus.link().await.map_err(|e| format!("cannot reach Redis at {url}: {e}"))?;
        Ok((bus, link))
    }

    async fn link(&self) -> Result<Link, String> {
        let config = redis::AsyncConnectionConfig::new()
            .set_connection_timeout(Some(REDIS_TIMEOUT))
            .set_response_timeout(Some(REDIS_TIMEOUT));
        let publisher = self.client.get_multiplexed_async_connection_with_config(&config).await;
        let publisher = publisher.map_err(|e| e.to_string())?;
        let pubsub = timeout(REDIS_TIMEOUT, self.client.get_async_pubsub()).await;
        let pubsub = pubsub.map_err(|_| "timed out".to_string())?.map_err(|e| e.to_string())?;
        let (sink, stream) = pubsub.split();
        Ok(Link { sink, stream, publisher })
    }

    /// Whether the relay has a working session with Redis now (subscribed, and its pings answered).
    pub(crate) fn is_up(&self) -> bool {
        self.up.load(Ordering::Acquire)
    }

    /// Publishes a frame (`Some`) or a `joined` event (`None`) of connection `conn` on the match's
    /// channel.
    pub(crate) async fn publish(&self, match_id: &str, conn: ConnId, frame: Option<&[u8]>) -> Result<(), ()> {
        let Some(mut publisher) = lock(&self.publisher).clone() else { return Err(()) };
        let mut envelope = Vec::with_capacity(HEADER + frame.map_or(0, <[u8]>::len));
        envelope.push(VERSION);
        envelope.push(if frame.is_some() { KIND_FRAME } else { KIND_JOINED });
        envelope.extend_from_slice(&self.origin);
        envelope.extend_from_slice(&conn.to_be_bytes());
        envelope.extend_from_slice(frame.unwrap_or_default());
        let sent: redis::RedisResult<i64> =
            redis::cmd("PUBLISH").arg(channel(match_id)).arg(envelope).query_async(&mut publisher).await;
        sent.map(|_| ()).map_err(|_| ())
    }

    /// Hands a message of Redis to the local connections of its match, unless this process sent it.
    fn dispatch(&self, hub: &Hub, max_frame: usize, message: &redis::Msg) {
        let Some(match_id) = message.get_channel_name().strip_prefix(CHANNEL_PREFIX) else { return };
        let payload = message.get_payload_bytes();
        if payload.len() < HEADER || payload[0] != VERSION || payload[2..18] == self.origin {
            return;
        }
        let body = &payload[HEADER..];
        let out = match payload[1] {
            KIND_FRAME if body.len() <= max_frame => Out::Frame(Bytes::copy_from_slice(body)),
            KIND_JOINED if body.is_empty() => Out::Joined,
            _ => return,
        };
        hub.forward(match_id, None, &out);
    }

    /// Keeps the session with Redis: applies subscription changes in order, dispatches messages, and
    /// after a loss closes every connection (1011) and reconnects. Runs until the hub is dropped.
    pub(crate) async fn supervise(
        self: Arc<Bus>,
        hub: std::sync::Weak<Hub>,
        max_frame: usize,
        mut cmds: mpsc::UnboundedReceiver<SubCmd>,
        first: Link,
    ) {
        let mut channels: HashSet<Arc<str>> = HashSet::new();
        let mut link = Some(first);
        let mut backoff = BACKOFF_MIN;
        loop {
            if let Some(Link { mut sink, mut stream, publisher }) = link.take() {
                let mut ok = true;
                for match_id in &channels {
                    ok = ok && matches!(timeout(REDIS_TIMEOUT, sink.subscribe(channel(match_id))).await, Ok(Ok(())));
                }
                if ok {
                    *lock(&self.publisher) = Some(publisher);
                    self.up.store(true, Ordering::Release);
                    if backoff > BACKOFF_MIN {
                        eprintln!("tesseract-relay: connected to Redis again");
                    }
                    backoff = BACKOFF_MIN;
                    let mut health = tokio::time::interval_at(Instant::now() + HEALTH_EVERY, HEALTH_EVERY);
                    loop {
                        tokio::select! {
                            cmd = cmds.recv() => {
                                let Some(cmd) = cmd else { return };
                                if !apply(&mut channels, cmd, Some(&mut sink)).await {
                                    break;
                                }
                            }
                            message = stream.next() => {
                                let Some(message) = message else { break };
                                let Some(hub) = hub.upgrade() else { return };
                                self.dispatch(&hub, max_frame, &message);
                            }
                            _ = health.tick() => {
                                let pong: Result<redis::RedisResult<Vec<Vec<u8>>>, _> = timeout(REDIS_TIMEOUT, sink.ping()).await;
                                if !matches!(pong, Ok(Ok(_))) {
                                    break;
                                }
                            }
                        }
                    }
                    self.up.store(false, Ordering::Release);
                    *lock(&self.publisher) = None;
                }
                eprintln!("tesseract-relay: lost Redis; closing this relay's connections (1011), reconnecting");
                let Some(hub) = hub.upgrade() else { return };
                hub.close_all(UNAVAILABLE, false);
            }
            // Down: joins are refused until the next session; leaves are still recorded.
            let until = Instant::now() + backoff;
            backoff = (backoff * 2).min(BACKOFF_MAX);
            loop {
                tokio::select! {
                    cmd = cmds.recv() => {
                        let Some(cmd) = cmd else { return };
                        apply(&mut channels, cmd, None).await;
                    }
                    _ = tokio::time::sleep_until(until) => break,
                }
            }
            link = self.link().await.ok();
        }
    }
}

/// Applies one subscription change; `sink` is `None` while Redis is down. Returns `false` when Redis
/// failed to answer.
async fn apply(channels: &mut HashSet<Arc<str>>, cmd: SubCmd, sink: Option<&mut PubSubSink>) -> bool {
    match cmd {
        SubCmd::Join { match_id, first, ack } => {
            let Some(sink) = sink else {
                if first {
                    channels.insert(match_id);
                }
                let _ = ack.send(false);
                return true;
            };
            let ok = !first || matches!(timeout(REDIS_TIMEOUT, sink.subscribe(channel(&match_id))).await, Ok(Ok(())));
            if first {
                channels.insert(match_id);
            }
            let _ = ack.send(ok);
            ok
        }
        SubCmd::Leave { match_id } => {
            channels.remove(&match_id);
            match sink {
                Some(sink) => matches!(timeout(REDIS_TIMEOUT, sink.unsubscribe(channel(&match_id))).await, Ok(Ok(()))),
                None => true,
            }
        }
    }
}
