//! The relay in this process on a free loopback port, with real WebSocket clients: the binding
//! (forwarding, `joined`, match ids) and every limit.

mod common;

use std::time::{Duration, Instant};

use common::*;
use futures_util::{SinkExt, StreamExt};
use tesseract_relay::Config;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;

/// Two clients of one match exchange frames both ways, unchanged and in order (sizes 0 to 1024, every
/// byte value); nobody gets their own frame back; a connection of another match receives nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_clients_exchange_frames_both_ways_unchanged_and_in_order() {
    let server = Server::start(config()).await;
    let mut other = server.join("another-match").await;
    let mut a = server.join("m1").await;
    let mut b = server.join("m1").await;
    expect_joined(&mut a).await;
    let sizes = [0usize, 1, 4, 100, 256, 1023, 1024];
    for (n, &len) in sizes.iter().enumerate() {
        send(&mut a, &frame(n as u32, len)).await;
    }
    let every_byte: Vec<u8> = (0..=255).collect();
    send(&mut b, &every_byte).await;
    for (n, &len) in sizes.iter().enumerate() {
        send(&mut b, &frame(1000 + n as u32, len)).await;
    }
    for (n, &len) in sizes.iter().enumerate() {
        expect_frame(&mut b, &frame(n as u32, len)).await;
    }
    expect_frame(&mut a, &every_byte).await;
    for (n, &len) in sizes.iter().enumerate() {
        expect_frame(&mut a, &frame(1000 + n as u32, len)).await;
    }
    expect_silence(&mut a, Duration::from_millis(300)).await;
    expect_silence(&mut b, Duration::from_millis(10)).await;
    expect_silence(&mut other, Duration::from_millis(10)).await;
    server.stop().await;
}

/// `joined` goes to every other connection of the match when one joins, never to the joiner, never to
/// another match; at once when the connection had none for a second, and otherwise one `joined` for
/// all the joins of that second, at its end.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn joined_goes_to_the_others_of_the_match_at_most_once_a_second() {
    let server = Server::start(Config { max_per_match: 8, ..config() }).await;
    let mut a = server.join("j").await;
    let mut x = server.join("j2").await;
    expect_silence(&mut a, Duration::from_millis(100)).await;
    let joining = Instant::now();
    let mut b = server.join("j").await;
    expect_joined(&mut a).await;
    assert!(joining.elapsed() < JOINED_EVERY, "the first joined comes at once: {:?}", joining.elapsed());
    let told = Instant::now();
    let mut c = server.join("j").await;
    expect_joined(&mut b).await;
    expect_joined(&mut a).await;
    assert!(told.elapsed() >= JOINED_EVERY - Duration::from_millis(50), "a's second joined waited out the second");
    expect_silence(&mut c, Duration::from_millis(200)).await;
    expect_silence(&mut x, Duration::from_millis(10)).await;
    // Three joins within the second after a joined: one joined for all three, at the end of the second.
    let told = Instant::now();
    let mut more = Vec::new();
    for _ in 0..3 {
        more.push(server.join("j").await);
    }
    assert!(told.elapsed() < JOINED_EVERY / 2, "the joins were quick enough for this test: {:?}", told.elapsed());
    expect_joined(&mut c).await;
    assert_eq!(expect_joined_settled(&mut a).await, 1, "one joined for three joins");
    // A reconnection: b leaves and comes back; a and c are told.
    b.close(None).await.unwrap();
    drop(b);
    let _b = server.join("j").await;
    expect_joined(&mut a).await;
    expect_joined_settled(&mut c).await;
    drop(more);
    server.stop().await;
}

/// A message over `--max-frame` closes the sender's connection with 1009, and only it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_oversized_frame_closes_only_its_connection() {
    let server = Server::start(config()).await;
    let mut a = server.join("big").await;
    let mut b = server.join("big").await;
    expect_joined(&mut a).await;
    send(&mut a, &frame(1, 1025)).await;
    assert_eq!(expect_close(&mut a).await.0, 1009);
    expect_silence(&mut b, Duration::from_millis(200)).await;
    // The relay serves on: the match's other connection, and new ones.
    let mut c = server.join("big").await;
    expect_joined(&mut b).await;
    send(&mut c, &frame(2, 1024)).await;
    expect_frame(&mut b, &frame(2, 1024)).await;
    assert_eq!(server.get("/health").await, (200, "ok".to_string()));
    server.stop().await;
}

/// A frame header announcing a gigabyte is refused by its header: the close comes at once, without the
/// relay waiting for (or holding) the payload.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_huge_frame_is_refused_by_its_header() {
    let server = Server::start(config()).await;
    let mut tcp = raw_join(server.addr, "huge").await;
    // FIN + binary, masked, 64-bit length 2^30, a mask, and a few bytes of payload.
    let mut header = vec![0x82, 0xff];
    header.extend_from_slice(&(1u64 << 30).to_be_bytes());
    header.extend_from_slice(&[1, 2, 3, 4]);
    header.extend_from_slice(&[0; 64]);
    tcp.write_all(&header).await.unwrap();
    let mut answer = [0u8; 4];
    tokio::time::timeout(Duration::from_secs(2), tcp.read_exact(&mut answer))
        .await
        .expect("an answer at once")
        .unwrap();
    assert_eq!(answer[0], 0x88, "a close frame");
    assert_eq!(u16::from_be_bytes([answer[2], answer[3]]), 1009);
    let stats = server.stats().await;
    assert!(stats["rss_bytes"].as_u64().unwrap() < 512 << 20, "{stats}");
    server.stop().await;
}

/// A text message closes its connection with 1003; the others are unaffected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_text_message_closes_its_connection_1003() {
    let server = Server::start(config()).await;
    let mut a = server.join("t").await;
    let mut b = server.join("t").await;
    expect_joined(&mut a).await;
    a.send(Message::text("hello")).await.unwrap();
    assert_eq!(expect_close(&mut a).await.0, 1003);
    expect_silence(&mut b, Duration::from_millis(200)).await;
    let mut c = server.join("t").await;
    expect_joined(&mut b).await;
    send(&mut b, b"still here").await;
    expect_frame(&mut c, b"still here").await;
    server.stop().await;
}

/// Bad match ids get HTTP 400 with a one-line reason, before any upgrade; a 64-character id is fine.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_match_ids_get_400() {
    let server = Server::start(config()).await;
    let long = "x".repeat(65);
    let bad = [
        "/match",
        "/match/",
        "/match/a/b",
        "/match/a.b",
        "/match/%41",
        "/match/caf%C3%A9",
        "/match/a%2Fb",
        "/match/a+b",
    ];
    for path in bad.iter().copied().chain([format!("/match/{long}").as_str()]) {
        let (status, _, body) = http(server.addr, "GET", path, &UPGRADE).await;
        assert_eq!(status, 400, "{path}");
        assert_eq!(body.lines().count(), 1, "{path}: {body:?}");
        assert!(body.starts_with("bad match id"), "{path}: {body:?}");
    }
    let good = "A-z_09".repeat(10) + "abcd";
    assert_eq!(good.len(), 64);
    let mut a = server.join(&good).await;
    let mut b = server.join(&good).await;
    expect_joined(&mut a).await;
    send(&mut b, b"ok").await;
    expect_frame(&mut a, b"ok").await;
    server.stop().await;
}

/// A ninth connection to one match, when eight addresses hold one place each, is closed with 4008
/// `match full` (and counted); the eight are untouched; when one leaves, a new one joins.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_match_cap() {
    let server = Server::start(config()).await;
    let mut first = server.join("cap").await;
    let mut rest = Vec::new();
    for _ in 0..7 {
        rest.push(server.join("cap").await);
    }
    let mut ninth = server.join("cap").await;
    let (code, reason) = expect_close(&mut ninth).await;
    assert_eq!((code, reason.as_str()), (4008, "match full"));
    assert_eq!(server.stats().await["refused_match_full"], 1);
    expect_joined_settled(&mut first).await;
    send(&mut first, b"all eight").await;
    for ws in &mut rest {
        expect_frame_past_joined(ws, b"all eight").await;
    }
    // Another match is not affected.
    let mut elsewhere = server.join("cap2").await;
    let _elsewhere2 = server.join("cap2").await;
    expect_joined(&mut elsewhere).await;
    // One leaves; its place is free again.
    let mut leaving = rest.pop().unwrap();
    leaving.close(None).await.unwrap();
    while next(&mut leaving).await.is_some() {}
    server.wait_for_stat("connections", 9).await;
    let _again = server.join("cap").await;
    expect_joined(&mut first).await;
    assert_eq!(server.stats().await["replaced_over_share"], 0);
    server.stop().await;
}

/// `--max-per-match-per-address`: a third connection from one address takes the place of that
/// address's oldest connection of the match, which is closed with 4009; the other address's connection
/// and other matches are untouched, and the newest two of the address get the frames.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_match_per_address_cap() {
    let server = Server::start(config()).await;
    let (home, other) = (client_address(), client_address());
    let mut peer = join_from(other, server.addr, "home").await;
    let mut first = join_from(home, server.addr, "home").await;
    let mut second = join_from(home, server.addr, "home").await;
    let mut elsewhere = join_from(home, server.addr, "home-2").await;
    let mut third = join_from(home, server.addr, "home").await;
    assert_eq!(close_past_messages(&mut first).await, (4009, REPLACED_SAME.to_string()));
    server.wait_for_stat("connections", 4).await;
    send(&mut peer, b"to the newest two").await;
    expect_frame_past_joined(&mut second, b"to the newest two").await;
    expect_frame_past_joined(&mut third, b"to the newest two").await;
    // The next replaces the oldest left, `second`.
    let _fourth = join_from(home, server.addr, "home").await;
    assert_eq!(close_past_messages(&mut second).await, (4009, REPLACED_SAME.to_string()));
    send(&mut third, b"still in").await;
    expect_frame_past_joined(&mut peer, b"still in").await;
    expect_silence(&mut elsewhere, Duration::from_millis(200)).await;
    let stats = server.stats().await;
    assert_eq!((stats["refused_match_full"].as_u64(), stats["replaced_over_share"].as_u64()), (Some(0), Some(0)));
    server.stop().await;
}

/// Over `--rate` (with its burst of twice the rate) the connection is closed with 1008; the frames
/// within the burst went through.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_rate_limit() {
    let server = Server::start(Config { rate: 5, ..config() }).await;
    let mut a = server.join("rate").await;
    let mut b = server.join("rate").await;
    expect_joined(&mut a).await;
    // At the rate: 12 frames over 2.4 s, fine.
    for n in 0..12 {
        send(&mut a, &frame(n, 10)).await;
        expect_frame(&mut b, &frame(n, 10)).await;
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    // A burst of 40: the bucket (10 frames) runs out.
    for n in 0..40 {
        if a.send(Message::binary(frame(100 + n, 10))).await.is_err() {
            break;
        }
    }
    let mut got = 0;
    while let Ok(Some(Ok(message))) = tokio::time::timeout(Duration::from_millis(500), b.next()).await {
        if let Message::Binary(_) = message {
            got += 1;
        }
    }
    // The bucket held about 10 tokens, refilled at 5 a second while the burst arrived.
    assert!((8..40).contains(&got), "the burst's first frames went through, not all of it: {got}");
    assert_eq!(expect_close_after_frames(&mut a).await, 1008);
    server.stop().await;
}

/// Skips frames until a close frame: its code.
async fn expect_close_after_frames(ws: &mut Ws) -> u16 {
    loop {
        match next(ws).await {
            Some(Message::Binary(_) | Message::Text(_)) => continue,
            Some(Message::Close(Some(frame))) => return u16::from(frame.code),
            other => panic!("expected a close frame, got {other:?}"),
        }
    }
}

/// A client that sends nothing, not even the pong its library answers to pings while it reads, is
/// closed after the idle timeout (1001); a client that reads (and so answers the pings) stays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_idle_timeout() {
    let server = Server::start(Config { idle_timeout: Duration::from_millis(600), ..config() }).await;
    let start = Instant::now();
    let mut silent = server.join("idle").await;
    let mut alive = server.join("idle-2").await;
    let reader = tokio::spawn(async move {
        // Reads (answering pings) until the connection ends.
        let mut pings = 0;
        while let Some(Ok(message)) = alive.next().await {
            if let Message::Ping(_) = message {
                pings += 1;
            }
            if let Message::Close(_) = message {
                return (pings, true);
            }
        }
        (pings, false)
    });
    // The silent one: pings were sent, never answered, and then the close (read while the relay still
    // waits a second for the answering close frame: a read later would answer the pings on a closed
    // socket, an error).
    tokio::time::sleep(Duration::from_millis(900)).await;
    let (code, reason) = expect_close(&mut silent).await;
    assert_eq!((code, reason.as_str()), (1001, "idle timeout"));
    assert!(start.elapsed() >= Duration::from_millis(600));
    drop(silent);
    tokio::time::sleep(Duration::from_millis(1100)).await;
    assert_eq!(server.stats().await["connections"], 1);
    assert!(!reader.is_finished(), "the reading client is still connected");
    server.stop().await;
    let (pings, closed) = reader.await.unwrap();
    assert!(pings >= 4, "pings every quarter of the idle timeout: {pings}");
    assert!(closed);
}

/// The aggregate counts of `/stats` by default: no figure that changes with the frames of a match.
const AGGREGATE_KEYS: [&str; 11] = [
    "matches",
    "connections",
    "sockets",
    "rss_bytes",
    "refused_connect_rate",
    "refused_per_address",
    "refused_full",
    "header_timeouts",
    "accept_errors",
    "refused_match_full",
    "replaced_over_share",
];

/// `/health`, and `/stats`: by default aggregate counts only, whatever the matches send.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn health_and_stats_by_default() {
    let server = Server::start(config()).await;
    assert_eq!(server.get("/health").await, (200, "ok".to_string()));
    let before = server.stats().await;
    let keys: Vec<&str> = before.as_object().unwrap().keys().map(String::as_str).collect();
    let mut expected = AGGREGATE_KEYS.to_vec();
    expected.sort_unstable();
    assert_eq!(keys, expected, "{before}");
    assert_eq!((before["matches"].as_u64(), before["connections"].as_u64()), (Some(0), Some(0)), "{before}");
    assert_eq!(before["sockets"], 1, "the socket of this request: {before}");
    if cfg!(target_os = "linux") {
        assert!(before["rss_bytes"].as_u64().unwrap() > 1 << 20, "{before}");
    }
    let mut a = server.join("s1").await;
    let mut b = server.join("s1").await;
    expect_joined(&mut a).await;
    for n in 0..10 {
        send(&mut a, &frame(n, 100)).await;
        expect_frame(&mut b, &frame(n, 100)).await;
    }
    let stats = server.stats().await;
    assert_eq!((stats["matches"].as_u64(), stats["connections"].as_u64()), (Some(1), Some(2)), "{stats}");
    assert_eq!(stats["sockets"], 3, "two WebSockets and this request: {stats}");
    for key in &AGGREGATE_KEYS[4..] {
        assert_eq!(stats[key], 0, "{key}: {stats}");
    }
    assert!(stats.get("frames_forwarded").is_none() && stats.get("bytes_forwarded").is_none(), "{stats}");
    server.stop().await;
}

/// `--stats-traffic`: `/stats` also counts the frames and bytes forwarded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn stats_traffic() {
    let server = Server::start(Config { stats_traffic: true, ..config() }).await;
    let mut a = server.join("s1").await;
    let mut b = server.join("s1").await;
    let mut c = server.join("s1").await;
    let _d = server.join("s2").await;
    expect_joined_settled(&mut a).await;
    expect_joined_settled(&mut b).await;
    send(&mut a, &frame(1, 100)).await; // to b and c: two frames, 200 bytes
    expect_frame(&mut b, &frame(1, 100)).await;
    send(&mut b, &frame(2, 50)).await; // to a and c: two frames, 100 bytes
    expect_frame(&mut c, &frame(1, 100)).await;
    expect_frame(&mut c, &frame(2, 50)).await;
    expect_frame(&mut a, &frame(2, 50)).await;
    let stats = server.stats().await;
    assert_eq!(stats["matches"], 2, "{stats}");
    assert_eq!(stats["connections"], 4, "{stats}");
    assert_eq!(stats["frames_forwarded"], 4, "{stats}");
    assert_eq!(stats["bytes_forwarded"], 300, "{stats}");
    let keys: Vec<&String> = stats.as_object().unwrap().keys().collect();
    assert_eq!(keys.len(), AGGREGATE_KEYS.len() + 2, "{stats}");
    server.stop().await;
}

/// A client that never reads does not stall the others: two clients of its match ping-pong 64 KiB
/// frames past it; its queue fills, it is dropped, and the two get every frame in order.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_never_reads_does_not_stall_the_others() {
    const ROUNDS: u32 = 400;
    const SIZE: usize = 64 << 10;
    let server = Server::start(Config { max_frame: SIZE, rate: 1_000_000, ..config() }).await;
    let mut a = server.join("slow").await;
    let mut b = server.join("slow").await;
    let stuck = server.join("slow").await; // never reads
    expect_joined_settled(&mut a).await;
    expect_joined_settled(&mut b).await;
    let start = Instant::now();
    let mut dropped_at = None;
    for n in 0..ROUNDS {
        send(&mut a, &frame(2 * n, SIZE)).await;
        expect_frame(&mut b, &frame(2 * n, SIZE)).await;
        send(&mut b, &frame(2 * n + 1, SIZE)).await;
        expect_frame(&mut a, &frame(2 * n + 1, SIZE)).await;
        if dropped_at.is_none() && n % 10 == 0 && server.stats().await["connections"] == 2 {
            dropped_at = Some(n);
        }
    }
    let elapsed = start.elapsed();
    let deadline = Instant::now() + PATIENCE;
    while dropped_at.is_none() && server.stats().await["connections"] != 2 {
        assert!(Instant::now() < deadline, "the stuck client is dropped");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    eprintln!("{ROUNDS} round trips of 64 KiB frames past a stuck client in {elapsed:?}, dropped after {dropped_at:?}");
    assert!(dropped_at.is_some(), "the stuck client was dropped during the exchange");
    drop(stuck);
    server.stop().await;
}

/// `--max-connections` and `--max-matches`: HTTP 503 before the upgrade.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_and_match_caps_answer_503() {
    let server = Server::start(Config { max_connections: 3, max_matches: 2, ..config() }).await;
    let _a = server.join("c1").await;
    let _b = server.join("c2").await;
    let (status, _, body) = http(server.addr, "GET", "/match/c3", &UPGRADE).await;
    assert_eq!((status, body.as_str()), (503, "too many matches\n"));
    let _c = server.join("c1").await;
    let (status, _, body) = http(server.addr, "GET", "/match/c1", &UPGRADE).await;
    assert_eq!((status, body.as_str()), (503, "too many connections\n"));
    server.stop().await;
}

/// The relay stops (its clients get 1001), a new one starts on the same port, the clients reconnect and
/// exchange frames again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relay_restart_on_the_same_port() {
    let server = Server::start(config()).await;
    let addr = server.addr;
    let mut a = server.join("restart").await;
    let mut b = server.join("restart").await;
    expect_joined(&mut a).await;
    send(&mut a, b"before").await;
    expect_frame(&mut b, b"before").await;
    server.stop().await;
    assert_eq!(expect_close(&mut a).await, (1001, "relay shutting down".to_string()));
    assert_eq!(expect_close(&mut b).await.0, 1001);
    let server = Server::start(Config { listen: addr, ..config() }).await;
    let mut a = server.join("restart").await;
    let mut b = server.join("restart").await;
    expect_joined(&mut a).await;
    send(&mut a, b"after").await;
    expect_frame(&mut b, b"after").await;
    send(&mut b, b"and back").await;
    expect_frame(&mut a, b"and back").await;
    server.stop().await;
}

/// `--static DIR`: its files at `/` with their content types, index.html for directories, no listing,
/// nothing outside DIR, GET and HEAD only; the relay's own routes still answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn static_files() {
    let dir = std::env::temp_dir().join(format!("tesseract-relay-static-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("sub")).unwrap();
    std::fs::create_dir_all(dir.join("plain")).unwrap();
    std::fs::write(dir.join("index.html"), "<!doctype html><title>t</title>").unwrap();
    std::fs::write(dir.join("app.wasm"), b"\0asm\x01\0\0\0").unwrap();
    std::fs::write(dir.join("main.js"), "export {}").unwrap();
    std::fs::write(dir.join("sub/index.html"), "sub").unwrap();
    std::fs::write(dir.join("plain/file.txt"), "x").unwrap();
    std::fs::create_dir_all(dir.join(".git")).unwrap();
    std::fs::write(dir.join(".git/config"), "secret").unwrap();
    std::fs::write(dir.join(".env"), "secret").unwrap();
    std::fs::write(dir.join("sub/.hidden"), "secret").unwrap();
    std::fs::create_dir_all(dir.join(".dir")).unwrap();
    std::fs::write(dir.join(".dir/index.html"), "secret").unwrap();
    let server = Server::start(Config { static_dir: Some(dir.clone()), ..config() }).await;
    let header = |h: &[(String, String)], name: &str| h.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let (status, h, body) = http(server.addr, "GET", "/", &[]).await;
    assert_eq!((status, body.as_str()), (200, "<!doctype html><title>t</title>"));
    assert!(header(&h, "content-type").unwrap().starts_with("text/html"));
    let (status, h, _) = http(server.addr, "GET", "/app.wasm", &[]).await;
    assert_eq!((status, header(&h, "content-type").as_deref()), (200, Some("application/wasm")));
    let (status, h, _) = http(server.addr, "GET", "/main.js", &[]).await;
    assert_eq!(status, 200);
    assert!(header(&h, "content-type").unwrap().contains("javascript"));
    assert_eq!(http(server.addr, "GET", "/sub/", &[]).await.2, "sub");
    assert_eq!(http(server.addr, "GET", "/plain/", &[]).await.0, 404, "no listing");
    for path in ["/../Cargo.toml", "/sub/../../Cargo.toml", "/%2e%2e/Cargo.toml", "/sub/%2e%2e/%2e%2e/etc/passwd"] {
        let (status, _, body) = http(server.addr, "GET", path, &[]).await;
        assert!(status == 404 || status == 400, "{path}: {status} {body}");
    }
    // Dotfiles and dot-directories: 404, however the dot is written.
    for path in [
        "/.env",
        "/.git/config",
        "/sub/.hidden",
        "/.dir/",
        "/.dir/index.html",
        "/%2egit/config",
        "/%2Eenv",
        "/sub/%2ehidden",
    ] {
        for method in ["GET", "HEAD"] {
            let (status, _, body) = http(server.addr, method, path, &[]).await;
            assert_eq!(status, 404, "{method} {path}");
            assert!(!body.contains("secret"), "{method} {path}: {body}");
        }
    }
    let (status, _, body) = http(server.addr, "HEAD", "/index.html", &[]).await;
    assert_eq!((status, body.as_str()), (200, ""));
    for method in ["POST", "PUT", "DELETE"] {
        assert_eq!(http(server.addr, method, "/index.html", &[]).await.0, 405, "{method}");
    }
    assert_eq!(server.get("/health").await, (200, "ok".to_string()));
    let mut a = server.join("with-static").await;
    let _b = server.join("with-static").await;
    expect_joined(&mut a).await;
    server.stop().await;
    let _ = std::fs::remove_dir_all(dir);
}

/// Garbage instead of HTTP, a request that stops half-way, a WebSocket that breaks mid-frame: the relay
/// answers the others as before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn garbage_does_not_hurt() {
    let server = Server::start(config()).await;
    let mut junk = TcpStream::connect(server.addr).await.unwrap();
    junk.write_all(&[0xff; 4096]).await.unwrap();
    let mut half = TcpStream::connect(server.addr).await.unwrap();
    half.write_all(b"GET /match/x HTTP/1.1\r\nHost: a\r\nUpgr").await.unwrap();
    let mut ws = server.join("g").await;
    let mut other = server.join("g").await;
    expect_joined(&mut ws).await;
    // A frame header, then the connection drops mid-frame.
    let mut raw = TcpStream::connect(server.addr).await.unwrap();
    let request = format!("GET /match/g HTTP/1.1\r\nHost: a\r\n{}\r\n\r\n", UPGRADE.join("\r\n"));
    raw.write_all(request.as_bytes()).await.unwrap();
    raw.write_all(&[0x82, 0x85, 1, 2, 3, 4, 9]).await.unwrap();
    drop(raw);
    expect_joined(&mut ws).await;
    expect_joined(&mut other).await;
    // An unmasked frame from a client (a protocol error) ends only that connection, unforwarded, with
    // a close frame 1002.
    let mut raw = raw_join(server.addr, "g").await;
    expect_joined(&mut ws).await;
    expect_joined(&mut other).await;
    raw.write_all(&raw_frame(0x82, b"abc", false)).await.unwrap();
    assert_eq!(raw_close(&mut raw).await, Some((1002, "protocol error".to_string())));
    send(&mut ws, b"fine").await;
    expect_frame(&mut other, b"fine").await;
    assert_eq!(server.get("/health").await, (200, "ok".to_string()));
    // The half request is still open: stopping waits for it at most the drain time (five seconds).
    let stopping = Instant::now();
    server.stop().await;
    assert!(stopping.elapsed() < Duration::from_secs(8), "{:?}", stopping.elapsed());
    drop((junk, half));
}

/// A request to `/match/ID` that is not a WebSocket upgrade the relay takes: 400 (not an upgrade, no
/// key, not HTTP/1.1), 426 with the version it speaks (another WebSocket version), 405 (not GET); the
/// accept key of a good one is RFC 6455's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn requests_that_are_not_upgrades() {
    let server = Server::start(config()).await;
    let header = |h: &[(String, String)], name: &str| h.iter().find(|(k, _)| k == name).map(|(_, v)| v.clone());
    let (status, _, body) = http(server.addr, "GET", "/match/m", &[]).await;
    assert_eq!((status, body.as_str()), (400, "not a WebSocket upgrade\n"));
    let no_key = &UPGRADE[..3];
    let (status, _, body) = http(server.addr, "GET", "/match/m", no_key).await;
    assert_eq!((status, body.as_str()), (400, "no Sec-WebSocket-Key\n"));
    let old = ["Upgrade: websocket", "Connection: keep-alive, Upgrade", "Sec-WebSocket-Version: 8", UPGRADE[3]];
    let (status, h, body) = http(server.addr, "GET", "/match/m", &old).await;
    assert_eq!((status, body.as_str()), (426, "WebSocket version 13 only\n"));
    assert_eq!(header(&h, "sec-websocket-version").as_deref(), Some("13"));
    assert_eq!(http(server.addr, "POST", "/match/m", &UPGRADE).await.0, 405);
    // HTTP/1.0 has no upgrade.
    let mut tcp = TcpStream::connect(server.addr).await.unwrap();
    let request = format!("GET /match/m HTTP/1.0\r\n{}\r\n\r\n", UPGRADE.join("\r\n"));
    tcp.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    tcp.read_to_string(&mut answer).await.unwrap();
    assert!(answer.starts_with("HTTP/1.0 400"), "{answer}");
    // The example of RFC 6455 §1.3 (the key of UPGRADE).
    let mut tcp = TcpStream::connect(server.addr).await.unwrap();
    let request = format!("GET /match/m HTTP/1.1\r\nHost: a\r\n{}\r\n\r\n", UPGRADE.join("\r\n"));
    tcp.write_all(request.as_bytes()).await.unwrap();
    let head = read_head(&mut tcp).await.to_ascii_lowercase();
    assert!(head.starts_with("http/1.1 101"), "{head}");
    assert!(head.contains("sec-websocket-accept: s3pplmbitxaq9kygzzhzrbk+xoo="), "{head}");
    server.stop().await;
}
