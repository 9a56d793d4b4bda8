//! The HTTP side: the routes, the WebSocket upgrade with its limits, `/health`, `/stats`, and the
//! optional static files.

use std::fmt::Write;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use axum::Router;
use axum::extract::{Extension, Request, State};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, Version, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use hyper_util::rt::TokioIo;
use tokio_tungstenite::WebSocketStream;
use tower::ServiceExt;
use tower_http::services::ServeDir;
use tungstenite::protocol::{Role, WebSocketConfig};

use crate::events::Event;
use crate::hub::lock;
use crate::limits::Admitted;
use crate::meter::{Frames, Metered};
use crate::{Shared, conn, valid_match_id};

/// The read buffer of a connection: frames are small, and this buffer is allocated (and touched) for
/// each connection.
const READ_BUFFER: usize = 4096;
/// Outgoing messages are gathered up to this size before they are written (every batch is flushed).
const WRITE_BUFFER: usize = 8192;

/// What the server tells the routes of the socket a request came on: its peer and its place in the
/// socket counts, which an upgrade takes along into the WebSocket's task.
#[derive(Debug, Clone)]
pub(crate) struct Peer {
    pub(crate) ip: std::net::IpAddr,
    pub(crate) admitted: Arc<Mutex<Option<Admitted>>>,
}

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let router = Router::new()
        .route("/health", get(health))
        .route("/stats", get(stats))
        .route("/match", get(bad_id))
        .route("/match/", get(bad_id))
        .route("/match/{*id}", get(socket));
    let router = match &shared.config.static_dir {
        Some(dir) => {
            let files = ServeDir::new(dir);
            router.fallback(move |request: Request| static_file(files.clone(), request))
        }
        None => router,
    };
    router.with_state(shared)
}

fn text(status: StatusCode, body: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

/// `ok`, or in Redis mode while the relay has no working link to Redis, 503 `redis unavailable`.
async fn health(State(shared): State<Arc<Shared>>) -> Response {
    match &shared.bus {
        Some(bus) if !bus.is_up() => text(StatusCode::SERVICE_UNAVAILABLE, "redis unavailable"),
        _ => text(StatusCode::OK, "ok"),
    }
}

async fn stats(State(shared): State<Arc<Shared>>) -> Response {
    let snapshot = shared.hub.snapshot();
    let rss = crate::rss_bytes().map_or_else(|| "null".to_string(), |n| n.to_string());
    let mut body = format!(
        "{{\"matches\": {}, \"connections\": {}, \"sockets\": {}, \"rss_bytes\": {rss}",
        snapshot.matches,
        snapshot.connections,
        shared.limits.open(),
    );
    for event in crate::events::Events::all() {
        let _ = write!(body, ", \"{}\": {}", event.stats_key(), shared.events.count(event));
    }
    if shared.config.stats_traffic {
        let counters = &shared.hub.counters;
        let _ = write!(
            body,
            ", \"frames_forwarded\": {}, \"bytes_forwarded\": {}",
            counters.frames_forwarded.load(Ordering::Relaxed),
            counters.bytes_forwarded.load(Ordering::Relaxed)
        );
    }
    body.push('}');
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// A file of `--static`, unless a segment of its path starts with a dot (`.git`, `.env`, and `..`,
/// also percent-encoded): those are 404.
async fn static_file(files: ServeDir, request: Request) -> Response {
    let hidden = request
        .uri()
        .path()
        .split('/')
        .any(|segment| percent_encoding::percent_decode_str(segment).next().is_some_and(|first| first == b'.'));
    if hidden {
        return text(StatusCode::NOT_FOUND, "not found\n");
    }
    match files.oneshot(request).await {
        Ok(response) => response.into_response(),
        Err(never) => match never {},
    }
}

const BAD_ID: &str = "bad match id: expected /match/ID with ID 1 to 64 characters of A-Z a-z 0-9 _ -\n";

async fn bad_id() -> Response {
    text(StatusCode::BAD_REQUEST, BAD_ID)
}

/// Whether a header's comma-separated values include `token` (case-insensitive).
fn has_token(headers: &HeaderMap, name: HeaderName, token: &str) -> bool {
    headers
        .get_all(name)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').any(|t| t.trim().eq_ignore_ascii_case(token)))
}

/// Why a request to `/match/{id}` is not a WebSocket upgrade the relay takes.
#[derive(Debug, Clone, Copy)]
enum NotUpgrade {
    /// Not HTTP/1.1 with `Connection: upgrade` and `Upgrade: websocket`: 400.
    Request,
    /// Not `Sec-WebSocket-Version: 13`: 426, saying which version.
    Version,
    /// No `Sec-WebSocket-Key`: 400.
    Key,
}

impl IntoResponse for NotUpgrade {
    fn into_response(self) -> Response {
        match self {
            NotUpgrade::Request => text(StatusCode::BAD_REQUEST, "not a WebSocket upgrade\n"),
            NotUpgrade::Version => {
                let mut refusal = text(StatusCode::UPGRADE_REQUIRED, "WebSocket version 13 only\n");
                refusal.headers_mut().insert(header::SEC_WEBSOCKET_VERSION, HeaderValue::from_static("13"));
                refusal
            }
            NotUpgrade::Key => text(StatusCode::BAD_REQUEST, "no Sec-WebSocket-Key\n"),
        }
    }
}

/// Checks a WebSocket upgrade request (RFC 6455 §4.2.1): the value of `Sec-WebSocket-Accept` to
/// answer, or why not.
fn handshake(request: &Request) -> Result<HeaderValue, NotUpgrade> {
    let headers = request.headers();
    if request.version() != Version::HTTP_11
        || !has_token(headers, header::CONNECTION, "upgrade")
        || !has_token(headers, header::UPGRADE, "websocket")
    {
        return Err(NotUpgrade::Request);
    }
    if headers.get(header::SEC_WEBSOCKET_VERSION).is_none_or(|v| v != "13") {
        return Err(NotUpgrade::Version);
    }
    let key = headers.get(header::SEC_WEBSOCKET_KEY).ok_or(NotUpgrade::Key)?;
    let accept = tungstenite::handshake::derive_accept_key(key.as_bytes());
    Ok(HeaderValue::from_str(&accept).expect("base64 is a valid header value"))
}

/// An answer that also closes the HTTP connection.
fn refuse(status: StatusCode, body: &'static str) -> Response {
    let mut response = text(status, body);
    response.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    response.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    response
}

async fn socket(State(shared): State<Arc<Shared>>, Extension(peer): Extension<Peer>, mut request: Request) -> Response {
    // The raw path, not the percent-decoded one: the allowed characters never need encoding.
    let id = request.uri().path().strip_prefix("/match/").unwrap_or_default();
    if !valid_match_id(id) {
        return text(StatusCode::BAD_REQUEST, BAD_ID);
    }
    let match_id: Arc<str> = Arc::from(id);
    let accept = match handshake(&request) {
        Ok(accept) => accept,
        Err(refusal) => return refusal.into_response(),
    };
    // The socket's place in the counts goes with the WebSocket (a refused request leaves it with the
    // HTTP connection); an HTTP connection upgrades once at most.
    let admitted = {
        let mut place = lock(&peer.admitted);
        let Some(admitted) = place.as_ref() else {
            return NotUpgrade::Request.into_response();
        };
        if !shared.limits.allow_upgrade(admitted) {
            drop(place);
            shared.events.note(Event::ConnectRate, peer.ip);
            return refuse(StatusCode::TOO_MANY_REQUESTS, "too many new connections from this address\n");
        }
        if !shared.hub.room_for_match(&match_id) {
            return refuse(StatusCode::SERVICE_UNAVAILABLE, "too many matches\n");
        }
        place.take().expect("present: checked above")
    };
    let on_upgrade = hyper::upgrade::on(&mut request);
    let joined = conn::join(&shared, match_id, peer.ip).await;
    let max = shared.config.max_frame;
    let config = WebSocketConfig::default()
        .max_message_size(Some(max))
        .max_frame_size(Some(max))
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(WRITE_BUFFER + 2 * (max + 16));
    let frames = Frames::new(shared.config.rate, shared.config.header_timeout);
    tokio::spawn(async move {
        // An upgrade that never completes drops its place in the match and the counts.
        let Ok(upgraded) = on_upgrade.await else { return };
        let metered = Metered::new(TokioIo::new(upgraded), frames);
        let verdict = metered.verdict();
        let socket = WebSocketStream::from_raw_socket(metered, Role::Server, Some(config)).await;
        conn::run(socket, verdict, joined, admitted).await;
    });
    let mut response = StatusCode::SWITCHING_PROTOCOLS.into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONNECTION, HeaderValue::from_static("upgrade"));
    headers.insert(header::UPGRADE, HeaderValue::from_static("websocket"));
    headers.insert(header::SEC_WEBSOCKET_ACCEPT, accept);
    response
}
