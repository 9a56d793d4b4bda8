//! One WebSocket connection: joins its match, reads the client's frames (limits: size, rate, idle) and
//! forwards them, and writes the frames of the match's other connections from a bounded queue.

use std::sync::Arc;
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket};
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior, timeout};

use crate::Shared;
use crate::hub::{Close, ConnId, Control, Out, Peer, Slot};

/// How long the relay waits for its close frame to be written, and then for the client's answer.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// At most this many queued messages are written before one flush.
const WRITE_BATCH: usize = 32;

/// How a connection ends.
#[derive(Debug)]
enum End {
    /// The relay closes it with this code and reason, then waits briefly for the client's close.
    Close(Close),
    /// The relay closes it with this code and reason and drops it at once: the incoming stream cannot be
    /// read any further (a message over the size limit was refused by its header).
    CloseNow(Close),
    /// The client closed it, or it broke: nothing more to say.
    Gone,
}

/// A token bucket: `rate` messages a second, bursts of twice that.
struct Bucket {
    tokens: f64,
    capacity: f64,
    rate: f64,
    at: Instant,
}

impl Bucket {
    fn new(rate: u32) -> Bucket {
        let rate = f64::from(rate);
        Bucket { tokens: 2.0 * rate, capacity: 2.0 * rate, rate, at: Instant::now() }
    }

    /// Takes one token; `false` when the bucket is empty.
    fn take(&mut self) -> bool {
        let now = Instant::now();
        self.tokens = (self.tokens + now.duration_since(self.at).as_secs_f64() * self.rate).min(self.capacity);
        self.at = now;
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

/// A connection joined to its match, before and after its upgrade; dropping it leaves the match (also
/// when the upgrade never completes).
pub(crate) struct Joined {
    shared: Arc<Shared>,
    match_id: Arc<str>,
    id: ConnId,
    control: Arc<Control>,
    rx: mpsc::Receiver<Out>,
}

impl Drop for Joined {
    fn drop(&mut self) {
        self.shared.hub.leave(&self.match_id, self.id);
    }
}

/// Joins a new connection to `match_id`, before its upgrade, so that when the client sees its WebSocket
/// open it is in the match (in Redis mode: subscribed, and its `joined` published). Frames sent to it
/// meanwhile wait in its queue. `Err` is the close code and reason of a refusal.
pub(crate) async fn join(shared: &Arc<Shared>, match_id: Arc<str>) -> Result<Joined, Close> {
    let id = shared.next_conn_id();
    let control = Arc::new(Control::default());
    let (tx, rx) = mpsc::channel(shared.config.queue);
    let peer = Peer { id, tx, control: control.clone() };
    let (_first, ack) = shared.hub.join(&match_id, peer)?;
    let joined = Joined { shared: shared.clone(), match_id, id, control, rx };
    if let (Some(ack), Some(bus)) = (ack, &shared.bus) {
        // Subscribed before `joined` goes out, so the answers to it (retransmissions) reach us.
        let subscribed = tokio::select! {
            ok = ack => ok.unwrap_or(false),
            close = joined.control.closed() => return Err(close),
        };
        if !subscribed || bus.publish(&joined.match_id, id, None).await.is_err() {
            return Err(crate::redis_bus::UNAVAILABLE);
        }
    }
    Ok(joined)
}

/// Runs one upgraded connection to its end: `joined` its place in the match, or the refusal to send.
/// `slot` is its `--max-connections` place.
pub(crate) async fn run(socket: WebSocket, joined: Result<Joined, Close>, slot: Slot) {
    let _slot = slot;
    let (mut sink, mut stream) = socket.split();
    let end = match joined {
        Err(close) => End::Close(close),
        Ok(mut joined) => {
            let Joined { shared, match_id, id, control, rx } = &mut joined;
            let end = tokio::select! {
                end = read(shared, match_id, *id, &mut stream) => end,
                end = write(shared.config.idle_timeout / 4, &mut sink, rx) => end,
                close = control.closed() => End::Close(close),
            };
            // Leaves the match before the goodbye, so no more frames are queued for it.
            drop(joined);
            end
        }
    };
    finish(end, sink, stream).await;
}

/// Reads the client's messages and forwards its frames, until the client or a limit ends it.
async fn read(shared: &Shared, match_id: &Arc<str>, id: u64, stream: &mut SplitStream<WebSocket>) -> End {
    let mut bucket = Bucket::new(shared.config.rate);
    loop {
        let message = match timeout(shared.config.idle_timeout, stream.next()).await {
            Err(_) => return End::Close((1001, "idle timeout")),
            Ok(None) => return End::Gone,
            Ok(Some(Err(e))) => return if too_big(e) { End::CloseNow((1009, "message too big")) } else { End::Gone },
            Ok(Some(Ok(message))) => message,
        };
        if !bucket.take() {
            return End::Close((1008, "rate limit"));
        }
        match message {
            Message::Binary(frame) => {
                if frame.len() > shared.config.max_frame {
                    // The WebSocket limits refuse it first; this is a second line.
                    return End::Close((1009, "message too big"));
                }
                shared.hub.forward(match_id, Some(id), &Out::Frame(frame.clone()));
                if let Some(bus) = &shared.bus
                    && bus.publish(match_id, id, Some(&frame)).await.is_err()
                {
                    return End::Close(crate::redis_bus::UNAVAILABLE);
                }
            }
            Message::Text(_) => return End::Close((1003, "binary messages only")),
            Message::Ping(_) | Message::Pong(_) => {}
            // The library has queued the answering close frame; `finish` flushes it.
            Message::Close(_) => return End::Gone,
        }
    }
}

/// Whether a read error is the refusal of a message over the size limit.
fn too_big(error: axum::Error) -> bool {
    matches!(
        error.into_inner().downcast_ref::<tungstenite::Error>(),
        Some(tungstenite::Error::Capacity(tungstenite::error::CapacityError::MessageTooLong { .. }))
    )
}

/// Writes the queued messages (several per flush when they pile up) and a ping every `ping_every`.
async fn write(ping_every: Duration, sink: &mut SplitSink<WebSocket, Message>, rx: &mut mpsc::Receiver<Out>) -> End {
    let ping_every = ping_every.max(Duration::from_millis(10));
    let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        let result = tokio::select! {
            out = rx.recv() => {
                let Some(out) = out else { return End::Gone };
                write_batch(sink, rx, out).await
            }
            _ = ping.tick() => sink.send(Message::Ping(Bytes::new())).await,
        };
        if result.is_err() {
            return End::Gone;
        }
    }
}

async fn write_batch(
    sink: &mut SplitSink<WebSocket, Message>,
    rx: &mut mpsc::Receiver<Out>,
    first: Out,
) -> Result<(), axum::Error> {
    sink.feed(message(first)).await?;
    for _ in 1..WRITE_BATCH {
        match rx.try_recv() {
            Ok(out) => sink.feed(message(out)).await?,
            Err(_) => break,
        }
    }
    sink.flush().await
}

fn message(out: Out) -> Message {
    match out {
        Out::Frame(frame) => Message::Binary(frame),
        Out::Joined => Message::Text(Utf8Bytes::from_static("joined")),
    }
}

/// Sends the close frame if the relay ends the connection, and lets the client answer.
async fn finish(end: End, mut sink: SplitSink<WebSocket, Message>, mut stream: SplitStream<WebSocket>) {
    match end {
        End::Gone => {
            // Flushes the close frame the library queued in answer to the client's.
            let _ = timeout(CLOSE_WAIT, sink.close()).await;
        }
        End::CloseNow((code, reason)) | End::Close((code, reason)) => {
            let frame = CloseFrame { code, reason: Utf8Bytes::from_static(reason) };
            if timeout(CLOSE_WAIT, sink.send(Message::Close(Some(frame)))).await.is_err() {
                return;
            }
            if matches!(end, End::Close(_)) {
                // Reading on until the client's close frame (or the end) ends the handshake cleanly and
                // leaves no unread bytes behind that would turn the socket's close into a reset.
                let _ = timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = stream.next().await {} }).await;
            }
        }
    }
}
