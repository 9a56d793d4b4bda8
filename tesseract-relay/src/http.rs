//! The HTTP side: the routes, the WebSocket upgrade with its limits, `/health`, `/stats`, and the
//! optional static files.

use std::sync::Arc;
use std::sync::atomic::Ordering;

use axum::Router;
use axum::extract::State;
use axum::extract::ws::WebSocketUpgrade;
use axum::extract::ws::rejection::WebSocketUpgradeRejection;
use axum::http::{StatusCode, Uri, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use tower_http::services::ServeDir;

use crate::{Shared, conn, valid_match_id};

/// The read buffer of a connection: frames are small, and this buffer is allocated (and touched) for
/// each connection.
const READ_BUFFER: usize = 4096;
/// Outgoing messages are gathered up to this size before they are written (every batch is flushed).
const WRITE_BUFFER: usize = 8192;

pub(crate) fn router(shared: Arc<Shared>) -> Router {
    let router = Router::new()
        .route("/health", get(health))
        .route("/stats", get(stats))
        .route("/match", get(bad_id))
        .route("/match/", get(bad_id))
        .route("/match/{*id}", get(socket));
    let router = match &shared.config.static_dir {
        Some(dir) => router.fallback_service(ServeDir::new(dir)),
        None => router,
    };
    router.with_state(shared)
}

fn text(status: StatusCode, body: &'static str) -> Response {
    (status, [(header::CONTENT_TYPE, "text/plain; charset=utf-8")], body).into_response()
}

async fn health() -> Response {
    text(StatusCode::OK, "ok")
}

async fn stats(State(shared): State<Arc<Shared>>) -> Response {
    let snapshot = shared.hub.snapshot();
    let counters = &shared.hub.counters;
    let rss = crate::rss_bytes().map_or_else(|| "null".to_string(), |n| n.to_string());
    let body = format!(
        "{{\"matches\": {}, \"connections\": {}, \"frames_forwarded\": {}, \"bytes_forwarded\": {}, \"rss_bytes\": {}}}",
        snapshot.matches,
        snapshot.connections,
        counters.frames_forwarded.load(Ordering::Relaxed),
        counters.bytes_forwarded.load(Ordering::Relaxed),
        rss
    );
    ([(header::CONTENT_TYPE, "application/json")], body).into_response()
}

const BAD_ID: &str = "bad match id: expected /match/ID with ID 1 to 64 characters of A-Z a-z 0-9 _ -\n";

async fn bad_id() -> Response {
    text(StatusCode::BAD_REQUEST, BAD_ID)
}

async fn socket(
    State(shared): State<Arc<Shared>>,
    uri: Uri,
    upgrade: Result<WebSocketUpgrade, WebSocketUpgradeRejection>,
) -> Response {
    // The raw path, not the percent-decoded one: the allowed characters never need encoding.
    let id = uri.path().strip_prefix("/match/").unwrap_or_default();
    if !valid_match_id(id) {
        return text(StatusCode::BAD_REQUEST, BAD_ID);
    }
    let upgrade = match upgrade {
        Ok(upgrade) => upgrade,
        Err(rejection) => return rejection.into_response(),
    };
    let Some(slot) = shared.hub.reserve() else {
        return text(StatusCode::SERVICE_UNAVAILABLE, "too many connections\n");
    };
    if !shared.hub.room_for_match(id) {
        return text(StatusCode::SERVICE_UNAVAILABLE, "too many matches\n");
    }
    let max = shared.config.max_frame;
    let joined = conn::join(&shared, Arc::from(id)).await;
    upgrade
        .max_message_size(max)
        .max_frame_size(max)
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
        .max_write_buffer_size(WRITE_BUFFER + 2 * (max + 16))
        .on_upgrade(move |socket| conn::run(socket, joined, slot))
}
