//! One WebSocket connection: joins its match, reads the client's messages (limits: size, idle; the
//! frame limits are in [`crate::meter`]) and forwards its frames, and writes the frames of the match's
//! other connections from a bounded queue, and `joined` at most once a second.

use std::net::IpAddr;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use axum::body::Bytes;
use futures_util::stream::{SplitSink, SplitStream};
use futures_util::{SinkExt, StreamExt};
use hyper::upgrade::Upgraded;
use hyper_util::rt::TokioIo;
use tokio::io::AsyncReadExt;
use tokio::sync::mpsc;
use tokio::time::{Instant, MissedTickBehavior, timeout};
use tokio_tungstenite::WebSocketStream;
use tungstenite::protocol::CloseFrame;
use tungstenite::{Message, Utf8Bytes};

use crate::Shared;
use crate::events::Event;
use crate::hub::{Close, ConnId, Control, Joining, Out, Peer};
use crate::limits::Admitted;
use crate::meter::Metered;
use crate::places::{Address, MATCH_FULL, Replaced};

/// An upgraded connection's WebSocket, its incoming bytes metered.
pub(crate) type Socket = WebSocketStream<Metered<TokioIo<Upgraded>>>;

/// How long the relay waits for its close frame to be written, and then for the client's answer.
const CLOSE_WAIT: Duration = Duration::from_secs(1);

/// At most this many queued messages are written before one flush.
const WRITE_BATCH: usize = 32;

/// A connection is sent `joined` at most this often: the joins that come sooner are told by one
/// `joined` when this time is up.
pub(crate) const JOINED_EVERY: Duration = Duration::from_secs(1);

/// The close of a message over `--max-frame`.
const TOO_BIG: Close = (1009, "message too big");

/// How a connection ends.
#[derive(Debug)]
enum End {
    /// The relay closes it with this code and reason, then waits briefly for the client's close.
    Close(Close),
    /// The relay closes it with this code and reason, and reads no further message: the incoming
    /// stream cannot be parsed any more (a protocol error, a message over the size limit refused by its
    /// header, a frame over a limit of [`crate::meter`]). It drains the socket briefly instead.
    CloseNow(Close),
    /// The client closed it, or it broke: nothing more to say.
    Gone,
}

/// A connection joined to its match, before and after its upgrade; dropping it leaves the match (also
/// when the upgrade never completes).
pub(crate) struct Joined {
    shared: Arc<Shared>,
    match_id: Arc<str>,
    id: ConnId,
    control: Arc<Control>,
    rx: mpsc::Receiver<Bytes>,
}

impl Drop for Joined {
    fn drop(&mut self) {
        self.shared.hub.leave(&self.match_id, self.id);
    }
}

/// Joins a new connection of a client at `ip` to `match_id`, before its upgrade, so that when the
/// client sees its WebSocket open it is in the match (in Redis mode: subscribed, and its `joined`
/// published). Frames sent to it meanwhile wait in its queue. `Err` is the close code and reason of a
/// refusal. A refusal for a full match, and a connection replaced for another address, are counted and
/// told on standard error.
pub(crate) async fn join(shared: &Arc<Shared>, match_id: Arc<str>, ip: IpAddr) -> Result<Joined, Close> {
    let id = shared.next_conn_id();
    let control = Arc::new(Control::default());
    let (tx, rx) = mpsc::channel(shared.config.queue);
    let peer = Peer { id, tx, control: control.clone(), address: Address::of(ip) };
    let Joining { ack, replaced } = shared.hub.join(&match_id, peer).inspect_err(|&close| {
        if close == MATCH_FULL {
            shared.events.note(Event::MatchFull, ip);
        }
    })?;
    if let Some((Replaced::OverShare, victim)) = replaced {
        shared.events.note(Event::OverShare, victim.ip);
    }
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

/// Runs one upgraded connection to its end: `joined` its place in the match, or the refusal to send;
/// `verdict` the frame limits' reason to stop. `admitted` is its place in the socket counts.
pub(crate) async fn run(
    socket: Socket,
    verdict: Arc<OnceLock<Close>>,
    joined: Result<Joined, Close>,
    admitted: Admitted,
) {
    let _admitted = admitted;
    let (mut sink, mut stream) = socket.split();
    let end = match joined {
        Err(close) => End::Close(close),
        Ok(mut joined) => {
            let Joined { shared, match_id, id, control, rx } = &mut joined;
            let end = tokio::select! {
                end = read(shared, match_id, *id, &mut stream, &verdict) => end,
                end = write(shared.config.idle_timeout / 4, &mut sink, rx, control) => end,
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
async fn read(
    shared: &Shared,
    match_id: &Arc<str>,
    id: u64,
    stream: &mut SplitStream<Socket>,
    verdict: &OnceLock<Close>,
) -> End {
    loop {
        let message = match timeout(shared.config.idle_timeout, stream.next()).await {
            Err(_) => return End::Close((1001, "idle timeout")),
            Ok(None) => return End::Gone,
            Ok(Some(Err(e))) => return read_error(&e, verdict.get().copied()),
            Ok(Some(Ok(message))) => message,
        };
        match message {
            Message::Binary(frame) => {
                if frame.len() > shared.config.max_frame {
                    // The WebSocket limits refuse it first; this is a second line.
                    return End::Close(TOO_BIG);
                }
                shared.hub.forward(match_id, Some(id), &Out::Frame(frame.clone()));
                if let Some(bus) = &shared.bus
                    && bus.publish(match_id, id, Some(&frame)).await.is_err()
                {
                    return End::Close(crate::redis_bus::UNAVAILABLE);
                }
            }
            Message::Text(_) => return End::Close((1003, "binary messages only")),
            Message::Ping(_) | Message::Pong(_) | Message::Frame(_) => {}
            // The library has queued the answering close frame; `finish` flushes it.
            Message::Close(_) => return End::Gone,
        }
    }
}

/// How a read error ends the connection: by the frame limits' verdict if they stopped the reading,
/// else by the library's error.
fn read_error(error: &tungstenite::Error, verdict: Option<Close>) -> End {
    use tungstenite::error::{CapacityError, ProtocolError};
    if let Some(close) = verdict {
        return End::CloseNow(close);
    }
    match error {
        tungstenite::Error::Capacity(CapacityError::MessageTooLong { .. }) => End::CloseNow(TOO_BIG),
        // The socket ended without a close frame: nobody to tell.
        tungstenite::Error::Protocol(ProtocolError::ResetWithoutClosingHandshake) => End::Gone,
        tungstenite::Error::Protocol(_) => End::CloseNow((1002, "protocol error")),
        tungstenite::Error::Utf8(_) => End::CloseNow((1007, "invalid UTF-8")),
        _ => End::Gone,
    }
}

/// Writes the queued frames (several per flush when they pile up), the `joined` owed (at most one every
/// [`JOINED_EVERY`]) and a ping every `ping_every`.
async fn write(
    ping_every: Duration,
    sink: &mut SplitSink<Socket, Message>,
    rx: &mut mpsc::Receiver<Bytes>,
    control: &Control,
) -> End {
    let ping_every = ping_every.max(Duration::from_millis(10));
    let mut ping = tokio::time::interval_at(Instant::now() + ping_every, ping_every);
    ping.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut next_joined = Instant::now();
    loop {
        let result = tokio::select! {
            frame = rx.recv() => {
                // The hub drops the sender only after asking for a close (a replacement, the
                // shutdown): that close is the end, not the empty queue.
                let Some(frame) = frame else { return End::Close(control.closed().await) };
                write_batch(sink, rx, frame).await
            }
            // Waits out the time since the last `joined` first, so taking the one owed is the last step.
            () = async {
                tokio::time::sleep_until(next_joined).await;
                control.owed_joined().await;
            } => {
                next_joined = Instant::now() + JOINED_EVERY;
                sink.send(Message::Text(Utf8Bytes::from_static("joined"))).await
            }
            _ = ping.tick() => sink.send(Message::Ping(Bytes::new())).await,
        };
        if result.is_err() {
            return End::Gone;
        }
    }
}

async fn write_batch(
    sink: &mut SplitSink<Socket, Message>,
    rx: &mut mpsc::Receiver<Bytes>,
    first: Bytes,
) -> Result<(), tungstenite::Error> {
    sink.feed(Message::Binary(first)).await?;
    for _ in 1..WRITE_BATCH {
        match rx.try_recv() {
            Ok(frame) => sink.feed(Message::Binary(frame)).await?,
            Err(_) => break,
        }
    }
    sink.flush().await
}

/// Sends the close frame if the relay ends the connection, and lets the client answer.
async fn finish(end: End, mut sink: SplitSink<Socket, Message>, mut stream: SplitStream<Socket>) {
    let (code, reason) = match end {
        End::Gone => {
            // Flushes the close frame the library queued in answer to the client's.
            let _ = timeout(CLOSE_WAIT, sink.close()).await;
            return;
        }
        End::CloseNow(close) | End::Close(close) => close,
    };
    let frame = CloseFrame { code: code.into(), reason: Utf8Bytes::from_static(reason) };
    if timeout(CLOSE_WAIT, sink.send(Message::Close(Some(frame)))).await.is_err() {
        return;
    }
    // Reading on until the client's close frame (or the end) ends the handshake cleanly and leaves no
    // unread bytes behind that would turn the socket's close into a reset.
    if matches!(end, End::Close(_)) {
        let _ = timeout(CLOSE_WAIT, async { while let Some(Ok(_)) = stream.next().await {} }).await;
    } else if let Ok(socket) = stream.reunite(sink) {
        // The messages cannot be parsed any more: the bytes are drained unread, until the client closes.
        let mut metered = socket.into_inner();
        let raw = metered.inner_mut();
        // On the heap: an array here would be part of every connection's task, drained or not.
        let mut buf = vec![0u8; 4096];
        let _ = timeout(CLOSE_WAIT, async { while matches!(raw.read(&mut buf).await, Ok(n) if n > 0) {} }).await;
    }
}
