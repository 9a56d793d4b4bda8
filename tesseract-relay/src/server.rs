//! The accept loop and the HTTP connections: each socket is counted from its accept (refused at once,
//! with a short HTTP answer written without reading its request, when a count is full), must send a
//! complete request head within `--header-timeout`, and is served by hyper with the routes of
//! [`crate::http`]; a WebSocket upgrade takes the socket's place in the counts along.

use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::Router;
use axum::body::Body;
use hyper::body::Incoming;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::watch;
use tower::ServiceExt;

use crate::Shared;
use crate::events::{Event, LOG_EVERY};
use crate::hub::lock;
use crate::limits::{Refusal, Source};

/// How long a stopping relay waits for its connections to close.
const DRAIN: Duration = Duration::from_secs(5);

/// How long the accept loop pauses after an error such as running out of file descriptors.
const ACCEPT_PAUSE: Duration = Duration::from_millis(100);

/// What the HTTP connections are told.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Phase {
    Serving,
    /// Finish the request under way, then close.
    Draining,
    /// Close now.
    Stopped,
}

/// Serves `listener` until `shutdown` resolves; then stops accepting, closes every WebSocket with 1001,
/// lets the HTTP connections finish, waits at most [`DRAIN`] for all of them, and drops what is left.
pub(crate) async fn serve(listener: TcpListener, shared: Arc<Shared>, shutdown: impl Future<Output = ()>) {
    let router = crate::http::router(shared.clone());
    let (phase, phase_rx) = watch::channel(Phase::Serving);
    let mut shutdown = pin!(shutdown);
    let mut flush = tokio::time::interval(LOG_EVERY);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            _ = flush.tick() => shared.events.flush(false),
            accepted = listener.accept() => match accepted {
                Ok((stream, peer)) => accept(stream, peer, &shared, &router, &phase_rx),
                Err(e) if is_per_connection(&e) => {}
                Err(e) => {
                    shared.events.note(Event::AcceptFailed, &e);
                    tokio::time::sleep(ACCEPT_PAUSE).await;
                }
            },
        }
    }
    drop(listener);
    shared.hub.close_all((1001, "relay shutting down"), true);
    let _ = phase.send(Phase::Draining);
    let deadline = tokio::time::Instant::now() + DRAIN;
    while shared.limits.open() > 0 && tokio::time::Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let _ = phase.send(Phase::Stopped);
    shared.events.flush(true);
}

/// Errors of `accept` that concern one connection only (it went before it was accepted).
fn is_per_connection(e: &std::io::Error) -> bool {
    use std::io::ErrorKind::{ConnectionAborted, ConnectionRefused, ConnectionReset};
    matches!(e.kind(), ConnectionRefused | ConnectionAborted | ConnectionReset)
}

/// Counts a new socket and serves it in a task of its own, or refuses it at once.
fn accept(stream: TcpStream, peer: SocketAddr, shared: &Arc<Shared>, router: &Router, phase: &watch::Receiver<Phase>) {
    let admitted = match shared.limits.admit(Source::of(peer.ip())) {
        Ok(admitted) => admitted,
        Err(refusal) => {
            let (event, answer) = match refusal {
                Refusal::Full => (Event::Full, FULL),
                Refusal::AddressCap => (Event::AddressCap, ADDRESS_CAP),
            };
            shared.events.note(event, peer.ip());
            refuse_at_once(stream, answer);
            return;
        }
    };
    let _ = stream.set_nodelay(true);
    let ip = peer.ip();
    let peer = crate::http::Peer { ip, admitted: Arc::new(Mutex::new(Some(admitted))) };
    let place = peer.admitted.clone();
    let router = router.clone();
    let service = hyper::service::service_fn(move |mut request: hyper::Request<Incoming>| {
        request.extensions_mut().insert(peer.clone());
        router.clone().oneshot(request.map(Body::new))
    });
    let mut builder = http1::Builder::new();
    builder.timer(TokioTimer::new()).header_read_timeout(shared.config.header_timeout);
    let shared = shared.clone();
    let mut phase = phase.clone();
    tokio::spawn(async move {
        let connection = builder.serve_connection(TokioIo::new(stream), service).with_upgrades();
        let mut connection = pin!(connection);
        let mut draining = false;
        let result = loop {
            tokio::select! {
                result = connection.as_mut() => break Some(result),
                changed = phase.changed() => {
                    let now = *phase.borrow_and_update();
                    if changed.is_err() || now == Phase::Stopped {
                        break None;
                    }
                    if now == Phase::Draining && !draining {
                        draining = true;
                        connection.as_mut().graceful_shutdown();
                    }
                }
            }
        };
        if let Some(Err(e)) = result
            && e.is_timeout()
        {
            shared.events.note(Event::HeaderTimeout, ip);
        }
        // Unless an upgrade took it, the socket's place is given back now.
        let place = lock(&place).take();
        drop(place);
    });
}

/// The answer to a socket over `--max-connections`.
const FULL: &[u8] = b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n\
    content-length: 21\r\nconnection: close\r\nretry-after: 5\r\n\r\ntoo many connections\n";
/// The answer to a socket over `--max-connections-per-address`.
const ADDRESS_CAP: &[u8] = b"HTTP/1.1 429 Too Many Requests\r\ncontent-type: text/plain; charset=utf-8\r\n\
    content-length: 39\r\nconnection: close\r\nretry-after: 5\r\n\r\ntoo many connections from this address\n";

/// Writes `answer` to a socket just accepted and closes it, without waiting for anything: it holds no
/// descriptor past this call. What its request already sent is read first (without waiting), so that
/// the close is an orderly one rather than a reset, in the usual case. (The socket is taken out of the
/// runtime first: the runtime would not try a write before its first readiness event.)
fn refuse_at_once(stream: TcpStream, answer: &[u8]) {
    use std::io::{Read, Write};
    let Ok(mut stream) = stream.into_std() else { return };
    let _ = stream.write(answer);
    let mut buf = [0u8; 2048];
    while matches!(stream.read(&mut buf), Ok(n) if n > 0) {}
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_answers_say_their_length() {
        for answer in [FULL, ADDRESS_CAP] {
            let text = std::str::from_utf8(answer).unwrap();
            let (head, body) = text.split_once("\r\n\r\n").unwrap();
            let length: usize =
                head.split("content-length: ").nth(1).unwrap().split('\r').next().unwrap().parse().unwrap();
            assert_eq!(length, body.len(), "{text}");
        }
    }
}
