//! Clients that misbehave, over real loopback sockets: a stranger churning connections on a match id,
//! too many connections from one address, unfinished HTTP requests, and frames that break the
//! WebSocket rules (fragments without end, protocol errors). Each limit falls on the client that goes
//! over it, never on the players of the match; every close the relay starts has a code and a reason.
//! Clients of other addresses are other loopback addresses (127.0.0.2, ...), as Linux routes all of
//! 127.0.0.0/8 to the loopback interface.

mod common;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::time::{Duration, Instant};

use common::game::*;
use common::*;
use futures_util::SinkExt;
use tesseract_relay::Config;
use tokio::io::AsyncWriteExt;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::{Bytes, Message};

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

/// A stranger opening WebSockets on match `id` from `from` and dropping them at once, as fast as it
/// can, on `loops` connections at a time, for `time`: how many upgrades it got, and the refusals (HTTP
/// status and body) it got.
async fn churn(
    addr: std::net::SocketAddr,
    from: IpAddr,
    id: &'static str,
    loops: usize,
    time: Duration,
) -> (u32, Vec<(u16, String)>) {
    let upgrades = Arc::new(AtomicU32::new(0));
    let stop = Arc::new(AtomicBool::new(false));
    let mut tasks = Vec::new();
    for _ in 0..loops {
        let (upgrades, stop) = (upgrades.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            let mut refusals = Vec::new();
            while !stop.load(Ordering::Relaxed) {
                match try_join_from(from, addr, id).await {
                    Ok(ws) => {
                        upgrades.fetch_add(1, Ordering::Relaxed);
                        drop(ws);
                    }
                    Err(refusal) => refusals.push(refusal),
                }
            }
            refusals
        }));
    }
    tokio::time::sleep(time).await;
    stop.store(true, Ordering::Relaxed);
    let mut refusals = Vec::new();
    for task in tasks {
        refusals.extend(task.await.unwrap());
    }
    (upgrades.load(Ordering::Relaxed), refusals)
}

/// A stranger churns WebSockets on the match id of two players as fast as it can for three seconds,
/// the per-address limits raised so that every one of its connections joins the match (taking the
/// place of its address's oldest when two are still open); the players exchange moves at the default
/// rate limit and answer each `joined` with retransmissions. Both stay connected, receive every move in
/// order, and get at most one `joined` a second each: the stranger's joins cost them nothing near their
/// limits.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn churn_by_a_stranger_never_reaches_the_players() {
    const CHURN: Duration = Duration::from_secs(3);
    let unlimited = Config { max_connections_per_address: 1_000_000, connect_rate_per_address: 1_000_000, ..config() };
    let server = Server::start(unlimited).await;
    let start = Instant::now();
    let a = Player {
        from: client_address(),
        relay: server.addr,
        id: "churned".to_string(),
        first: true,
        moves: 30, // a move every 100 ms: three seconds
        pause: Duration::from_millis(100),
        losses: Vec::new(),
        until: start + CHURN + Duration::from_secs(2),
    };
    let b = Player { from: client_address(), first: false, ..a.clone() };
    let (mut ws_a, ws_b) = join_both(&a, &b).await;
    expect_joined(&mut ws_a).await;
    let game = tokio::spawn(play_both(a, ws_a, b, ws_b));
    let (upgrades, refusals) = churn(server.addr, ip("127.0.0.1"), "churned", 2, CHURN).await;
    let (mut a, b) = game.await.unwrap();
    let (mut b, seen_a, seen_b) = (b.ws, a.seen, b.seen);
    let elapsed = start.elapsed();
    eprintln!("{upgrades} stranger connections in {CHURN:?}; player a {seen_a:?}, player b {seen_b:?}");
    assert!(upgrades >= 100, "the stranger churned hundreds of connections: {upgrades}");
    assert!(refusals.iter().all(|(status, _)| *status != 429), "{refusals:?}");
    let bound = elapsed.as_secs() as u32 + 2;
    assert!(seen_a.joined >= 1 && seen_a.joined <= bound, "at most one joined a second: {seen_a:?} in {elapsed:?}");
    assert!(seen_b.joined >= 1 && seen_b.joined <= bound, "at most one joined a second: {seen_b:?} in {elapsed:?}");
    // Still connected, in a match of two, and never closed.
    let stats = server.stats().await;
    assert_eq!((stats["matches"].as_u64(), stats["connections"].as_u64()), (Some(1), Some(2)), "{stats}");
    send(&mut a.ws, b"after the churn").await;
    expect_frame(&mut b, b"after the churn").await;
    server.stop().await;
}

/// The same churn from another address under the default limits: past its burst, its upgrades are
/// refused with HTTP 429 (`--connect-rate-per-address`, 10 a second) and counted; the players (of
/// other addresses), and a new connection from 127.0.0.1, are not affected.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_churning_address_is_refused_with_429() {
    const CHURN: Duration = Duration::from_secs(2);
    let server = Server::start(config()).await;
    let mut a = server.join("refused").await;
    let mut b = server.join("refused").await;
    expect_joined(&mut a).await;
    let stranger = tokio::spawn(churn(server.addr, ip("127.0.0.2"), "refused", 2, CHURN));
    tokio::time::sleep(CHURN / 2).await;
    // Mid-churn: the players exchange frames, and one of them connects once more.
    for n in 0..10 {
        send(&mut a, &frame(n, 100)).await;
        expect_frame_past_joined(&mut b, &frame(n, 100)).await;
    }
    let again = try_join_from(ip("127.0.0.1"), server.addr, "refused-too").await;
    assert!(again.is_ok(), "another address is not limited: {:?}", again.err());
    let (upgrades, refusals) = stranger.await.unwrap();
    eprintln!("{upgrades} upgrades and {} refusals for the stranger in {CHURN:?}", refusals.len());
    // A burst of 20, then 10 a second.
    assert!(upgrades <= 20 + 10 * (CHURN.as_secs() as u32 + 1), "{upgrades}");
    assert!(!refusals.is_empty());
    for (status, body) in &refusals {
        assert_eq!((*status, body.as_str()), (429, "too many new connections from this address\n"));
    }
    let stats = server.stats().await;
    assert_eq!(stats["refused_connect_rate"], refusals.len() as u64, "{stats}");
    send(&mut b, b"still here").await;
    expect_frame_past_joined(&mut a, b"still here").await;
    server.stop().await;
}

/// `--max-connections-per-address`: past it, a socket of that address is answered HTTP 429 at once
/// (before its request is read, so before any upgrade); other addresses are served; when one of its
/// sockets closes, its place is free again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_per_address_cap() {
    let server = Server::start(Config { max_connections_per_address: 3, ..config() }).await;
    let crowd = ip("127.0.0.3");
    let mut idle = Vec::new();
    for _ in 0..3 {
        idle.push(connect_from(crowd, server.addr).await);
    }
    server.wait_for_stat("sockets", 4).await; // and the request asking
    let (status, headers, body) =
        http_on(connect_from(crowd, server.addr).await, server.addr, "GET", "/health", &[]).await;
    assert_eq!((status, body.as_str()), (429, "too many connections from this address\n"));
    assert!(headers.contains(&("connection".to_string(), "close".to_string())), "{headers:?}");
    assert_eq!(
        try_join_from(crowd, server.addr, "cap").await.err(),
        Some((429, "too many connections from this address\n".to_string()))
    );
    // Another address is served.
    let mut other = try_join_from(ip("127.0.0.4"), server.addr, "cap").await.expect("another address joins");
    // One of the crowd's sockets closes: its place is free.
    drop(idle.pop());
    let deadline = Instant::now() + PATIENCE;
    let mut crowd_ws = loop {
        match try_join_from(crowd, server.addr, "cap").await {
            Ok(ws) => break ws,
            Err(refusal) => {
                assert!(Instant::now() < deadline, "the place never came back: {refusal:?}");
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        }
    };
    expect_joined(&mut other).await;
    send(&mut crowd_ws, b"hello").await;
    expect_frame(&mut other, b"hello").await;
    let stats = server.stats().await;
    assert!(stats["refused_per_address"].as_u64().unwrap() >= 2, "{stats}");
    server.stop().await;
}

/// Sockets that never finish a request head (silent ones, half heads, an idle kept-alive connection)
/// count toward `--max-connections` while they are open, so a further client is refused with 503, not
/// left without answer; after `--header-timeout` the relay closes them (and counts them), and serves
/// again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unfinished_requests_are_counted_and_timed_out() {
    let timeout = Duration::from_secs(1);
    let server = Server::start(Config { max_connections: 6, header_timeout: timeout, ..config() }).await;
    let start = Instant::now();
    let mut slow: Vec<TcpStream> = Vec::new();
    for _ in 0..2 {
        slow.push(TcpStream::connect(server.addr).await.unwrap());
    }
    for part in ["GET /match/x HTTP/1.1\r\nHost: a\r\n", "GET /health HTTP/1.1\r\n", "G"] {
        let mut tcp = TcpStream::connect(server.addr).await.unwrap();
        tcp.write_all(part.as_bytes()).await.unwrap();
        slow.push(tcp);
    }
    // A complete request on a kept-alive connection, then nothing.
    let mut kept = TcpStream::connect(server.addr).await.unwrap();
    kept.write_all(format!("GET /health HTTP/1.1\r\nHost: {}\r\n\r\n", server.addr).as_bytes()).await.unwrap();
    let mut answer = [0u8; 12];
    tokio::io::AsyncReadExt::read_exact(&mut kept, &mut answer).await.unwrap();
    assert_eq!(&answer, b"HTTP/1.1 200");
    slow.push(kept);
    // Full: the next client is refused at once.
    let refused = try_join_from(ip("127.0.0.1"), server.addr, "x").await;
    assert_eq!(refused.err(), Some((503, "too many connections\n".to_string())));
    // Each is closed by the relay, not before the timeout.
    for tcp in &mut slow {
        closed_by_relay(tcp, PATIENCE).await;
    }
    let took = start.elapsed();
    assert!(took >= timeout - Duration::from_millis(100), "{took:?}");
    let mut a = server.join("x").await;
    let mut b = server.join("x").await;
    expect_joined(&mut a).await;
    send(&mut b, b"served").await;
    expect_frame(&mut a, b"served").await;
    let stats = server.stats().await;
    assert_eq!(stats["header_timeouts"], 6, "{stats}");
    assert_eq!(stats["refused_full"], 1, "{stats}");
    server.stop().await;
}

/// A fragmented message counts one frame per fragment against `--rate`: a message of twelve frames at
/// a rate of 5 (a burst of 10) closes the sender with 1008, and nothing of it is forwarded.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn fragments_count_against_the_rate() {
    let server = Server::start(Config { rate: 5, ..config() }).await;
    let mut a = server.join("frag").await;
    let mut b = server.join("frag").await;
    expect_joined(&mut a).await;
    a.send(fragment(OpCode::Data(Data::Binary), b"x", false)).await.unwrap();
    for n in 0..11 {
        let _ = a.send(fragment(OpCode::Data(Data::Continue), b"y", n == 10)).await;
    }
    assert_eq!(expect_close(&mut a).await, (1008, "rate limit".to_string()));
    expect_silence(&mut b, Duration::from_millis(300)).await;
    server.stop().await;
}

fn fragment(opcode: OpCode, payload: &[u8], fin: bool) -> Message {
    Message::Frame(Frame::message(Bytes::copy_from_slice(payload), opcode, fin))
}

/// A message whose fragments never end is cut off: at its seventeenth frame (1009 `too many
/// fragments`), or at its first frame after `--header-timeout` (1008); a message of a few fragments is
/// forwarded whole, and its size is that of all its fragments.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_that_never_ends_is_cut_off() {
    let server = Server::start(Config { header_timeout: Duration::from_secs(1), ..config() }).await;
    let mut a = server.join("endless").await;
    let mut b = server.join("endless").await;
    expect_joined(&mut a).await;
    // Three fragments: one message.
    a.send(fragment(OpCode::Data(Data::Binary), b"one ", false)).await.unwrap();
    a.send(fragment(OpCode::Data(Data::Continue), b"two ", false)).await.unwrap();
    a.send(fragment(OpCode::Data(Data::Continue), b"three", true)).await.unwrap();
    expect_frame(&mut b, b"one two three").await;
    // Empty continuations without end.
    a.send(fragment(OpCode::Data(Data::Binary), b"", false)).await.unwrap();
    for _ in 0..20 {
        let _ = a.send(fragment(OpCode::Data(Data::Continue), b"", false)).await;
    }
    assert_eq!(expect_close(&mut a).await, (1009, "too many fragments".to_string()));
    // A message begun, then only pings after the time allowed.
    let mut c = server.join("endless").await;
    expect_joined(&mut b).await;
    c.send(fragment(OpCode::Data(Data::Binary), b"begun", false)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let _ = c.send(Message::Ping(Bytes::from_static(b"still here"))).await;
    assert_eq!(expect_close(&mut c).await, (1008, "message not finished in time".to_string()));
    // Fragments adding up to more than --max-frame (1024 bytes).
    let mut d = server.join("endless").await;
    expect_joined(&mut b).await;
    let half = [1u8; 600];
    d.send(fragment(OpCode::Data(Data::Binary), &half, false)).await.unwrap();
    let _ = d.send(fragment(OpCode::Data(Data::Continue), &half, true)).await;
    assert_eq!(expect_close(&mut d).await, (1009, "message too big".to_string()));
    expect_silence(&mut b, Duration::from_millis(300)).await;
    server.stop().await;
}

/// Every close the relay starts for a broken frame carries its code: 1002 for a protocol error (an
/// unmasked frame, reserved bits, a continuation without a message), 1007 for a text message that is
/// not UTF-8.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn protocol_errors_close_with_their_code() {
    let server = Server::start(config()).await;
    let mut peer = server.join("broken").await;
    let cases: [(Vec<u8>, (u16, &str)); 5] = [
        (raw_frame(0x82, b"abc", false), (1002, "protocol error")),
        (raw_frame(0xc2, b"abc", true), (1002, "protocol error")),
        (raw_frame(0x80, b"abc", true), (1002, "protocol error")),
        (raw_frame(0x8b, b"abc", true), (1002, "protocol error")),
        (raw_frame(0x81, &[0xff, 0xfe], true), (1007, "invalid UTF-8")),
    ];
    for (bytes, (code, reason)) in cases {
        let mut raw = raw_join(server.addr, "broken").await;
        expect_joined(&mut peer).await;
        raw.write_all(&bytes).await.unwrap();
        assert_eq!(raw_close(&mut raw).await, Some((code, reason.to_string())), "{bytes:02x?}");
    }
    expect_silence(&mut peer, Duration::from_millis(200)).await;
    server.stop().await;
}
