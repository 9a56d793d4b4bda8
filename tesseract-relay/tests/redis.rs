//! Redis mode: several relay processes serve one match over Redis pub/sub.
//!
//! These tests need `redis-server` listening on 127.0.0.1:6379 (or `TESSERACT_REDIS_URL`), and the
//! `redis-server` program for the test that starts a server of its own on a free loopback port (to kill
//! and restart it); they are ignored by default and run by `scripts/test.sh`'s optimised pass:
//! `cargo test --profile ci -p tesseract-relay --test redis -- --include-ignored`.

mod common;

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use common::*;
use tesseract_relay::Config;
use tokio_tungstenite::tungstenite::Message;

fn redis_url() -> String {
    std::env::var("TESSERACT_REDIS_URL").unwrap_or_else(|_| "redis://127.0.0.1:6379/".to_string())
}

/// A match id no other run uses (the shared Redis may serve other tests at the same time).
fn fresh_id(name: &str) -> String {
    let nanos = SystemTime::now().duration_since(UNIX_EPOCH).unwrap().as_nanos();
    format!("{name}-{}-{nanos}", std::process::id())
}

fn redis_config(url: &str) -> Config {
    Config { redis: Some(url.to_string()), stats_traffic: true, ..config() }
}

/// Two relays in this process on the Redis at `url`.
async fn two_relays(url: &str) -> (Server, Server) {
    (Server::start(redis_config(url)).await, Server::start(redis_config(url)).await)
}

/// How many subscribers the channel of `match_id` has.
fn subscribers(url: &str, match_id: &str) -> i64 {
    let client = redis::Client::open(url).unwrap();
    let mut con = client.get_connection().unwrap();
    let channel = format!("{}{match_id}", tesseract_relay::CHANNEL_PREFIX);
    let (_, n): (String, i64) = redis::cmd("PUBSUB").arg("NUMSUB").arg(&channel).query(&mut con).unwrap();
    n
}

async fn wait_for_subscribers(url: &str, match_id: &str, n: i64) {
    let deadline = Instant::now() + PATIENCE;
    while subscribers(url, match_id) != n {
        assert!(Instant::now() < deadline, "{match_id} never had {n} subscribers");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
}

/// Two relays on one Redis, one client on each: `joined` crosses, frames cross both ways exactly once
/// and in order; a third client on the first relay gets each frame of both others exactly once. Each
/// process subscribes while it has connections of the match, and unsubscribes when the last leaves.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server on 127.0.0.1:6379: run by scripts/test.sh"]
async fn two_relays_share_a_match() {
    let url = redis_url();
    let (one, two) = two_relays(&url).await;
    let id = fresh_id("share");
    let mut a = one.join(&id).await;
    wait_for_subscribers(&url, &id, 1).await;
    let mut b = two.join(&id).await;
    expect_joined(&mut a).await;
    wait_for_subscribers(&url, &id, 2).await;
    for n in 0..20 {
        send(&mut a, &frame(n, 100 + n as usize)).await;
    }
    for n in 0..20 {
        expect_frame(&mut b, &frame(n, 100 + n as usize)).await;
        send(&mut b, &frame(1000 + n, 256)).await;
    }
    for n in 0..20 {
        expect_frame(&mut a, &frame(1000 + n, 256)).await;
    }
    expect_silence(&mut a, Duration::from_millis(300)).await;
    expect_silence(&mut b, Duration::from_millis(10)).await;

    let mut c = one.join(&id).await;
    expect_joined(&mut a).await; // local
    expect_joined(&mut b).await; // over Redis
    send(&mut b, b"from b").await;
    expect_frame(&mut a, b"from b").await;
    expect_frame(&mut c, b"from b").await;
    send(&mut a, b"from a").await;
    expect_frame(&mut c, b"from a").await;
    expect_frame(&mut b, b"from a").await;
    expect_silence(&mut a, Duration::from_millis(300)).await;
    expect_silence(&mut b, Duration::from_millis(10)).await;
    expect_silence(&mut c, Duration::from_millis(10)).await;
    assert_eq!(
        one.stats().await["frames_forwarded"],
        23,
        "20 from b to a, then one from b to a and c, one from a to c"
    );
    assert_eq!(two.stats().await["frames_forwarded"], 21, "20 from a, then one from a to b");

    // The last connection of a process leaves: that process unsubscribes.
    b.close(None).await.unwrap();
    wait_for_subscribers(&url, &id, 1).await;
    for mut ws in [a, c] {
        ws.close(None).await.unwrap();
        while next(&mut ws).await.is_some() {}
    }
    wait_for_subscribers(&url, &id, 0).await;
    one.stop().await;
    two.stop().await;
}

/// Places are per process: a stranger holding all eight places of a match on one relay (four
/// addresses, two each) gives way there to player a (its oldest connection of an address holding two is
/// replaced, 4009), and holds at most two places an address on the other relay too (a third replaces
/// its oldest), where player b joins. The players play across the two relays, reconnecting after drops
/// (a: a closed socket, then a stale one, which its reconnection replaces in the full match; b: a stale
/// one), and exchange every move.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server on 127.0.0.1:6379: run by scripts/test.sh"]
async fn places_are_per_relay_process() {
    use common::game::*;
    let url = redis_url();
    let (one, two) = two_relays(&url).await;
    let id = fresh_id("places");
    let from: Vec<std::net::IpAddr> = (0..4).map(|_| client_address()).collect();
    let mut stranger_one = Stranger::new(one.addr, &id);
    let mut stranger_two = Stranger::new(two.addr, &id);
    for _ in 0..2 {
        for &address in &from {
            stranger_one.open(address).await;
        }
    }
    for _ in 0..3 {
        stranger_two.open(from[0]).await;
    }
    assert_eq!(one.stats().await["connections"], 8);
    assert_eq!(two.stats().await["connections"], 2);
    let (a, b) = players_with_drops(one.addr, two.addr, &id);
    let (a, b) = game(a, b).await;
    assert_eq!((a.seen.reconnections, b.seen.reconnections), (2, 1));
    let (stats_one, stats_two) = (one.stats().await, two.stats().await);
    assert_eq!((stats_one["connections"].as_u64(), stats_two["connections"].as_u64()), (Some(8), Some(4)));
    assert_eq!(stats_one["replaced_over_share"], 1, "{stats_one}");
    assert_eq!(stats_two["replaced_over_share"], 0, "{stats_two}");
    one.stop().await;
    two.stop().await;
    let shutdown = "relay shutting down";
    assert_eq!(stranger_one.closes().await, tally(&[(4009, REPLACED_OVER_SHARE, 1), (1001, shutdown, 7)]));
    assert_eq!(stranger_two.closes().await, tally(&[(4009, REPLACED_SAME, 1), (1001, shutdown, 2)]));
    let mut stale_a = a.stale;
    assert_eq!(close_past_messages(&mut stale_a[0]).await, (4009, REPLACED_SAME.to_string()));
}

/// The binary with `--redis` and a relay in this process: a match across both.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs redis-server on 127.0.0.1:6379: run by scripts/test.sh"]
async fn the_binary_in_redis_mode() {
    let url = redis_url();
    let mut child = Command::new(env!("CARGO_BIN_EXE_tesseract-relay"))
        .args(["--listen", "127.0.0.1:0", "--redis", &url])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let line = BufReader::new(child.stdout.take().unwrap()).lines().next().unwrap().unwrap();
    let addr: SocketAddr =
        line.strip_prefix("relay listening on http://").unwrap().strip_suffix('/').unwrap().parse().unwrap();
    let here = Server::start(redis_config(&url)).await;
    let id = fresh_id("binary");
    let mut a = join(addr, &id).await;
    wait_for_subscribers(&url, &id, 1).await;
    let mut b = here.join(&id).await;
    expect_joined(&mut a).await;
    send(&mut a, b"over the binary").await;
    expect_frame(&mut b, b"over the binary").await;
    send(&mut b, b"and back").await;
    expect_frame(&mut a, b"and back").await;
    expect_silence(&mut a, Duration::from_millis(200)).await;
    expect_silence(&mut b, Duration::from_millis(10)).await;
    let _ = child.kill();
    let _ = child.wait();
    here.stop().await;
}

/// A `redis-server` on a free loopback port, stopped when dropped.
struct OwnRedis {
    port: u16,
    child: Option<Child>,
}

impl OwnRedis {
    /// Starts one on a free port below the ephemeral range (32768 and up on Linux), so that no relay of a
    /// test running meanwhile (on port 0) can be given the port between its choice and the server's bind.
    fn start() -> OwnRedis {
        let first = 20_000 + (std::process::id() % 10_000) as u16;
        let port = (first..32_768)
            .chain(10_000..first)
            .find(|&port| std::net::TcpListener::bind(("127.0.0.1", port)).is_ok())
            .expect("a free port below 32768");
        let mut redis = OwnRedis { port, child: None };
        redis.restart();
        redis
    }

    fn url(&self) -> String {
        format!("redis://127.0.0.1:{}/", self.port)
    }

    fn restart(&mut self) {
        let port = self.port.to_string();
        let child = Command::new("redis-server")
            .args(["--port", &port, "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("redis-server is installed (scripts/test.sh installs it)");
        self.child = Some(child);
        // Ready when it answers PING (not merely when something accepts on the port).
        let start = Instant::now();
        let pong = || -> redis::RedisResult<String> {
            let mut con = redis::Client::open(self.url())?.get_connection()?;
            redis::cmd("PING").query(&mut con)
        };
        while pong().ok().as_deref() != Some("PONG") {
            assert!(start.elapsed() < Duration::from_secs(10), "redis-server did not start on port {port}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Kills the server at once, as a crash would.
    fn kill(&mut self) {
        if let Some(mut c) = self.child.take() {
            let _ = c.kill();
            let _ = c.wait();
        }
    }
}

impl Drop for OwnRedis {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Redis dies: the relays keep running and close their match connections with 1011 (new ones too,
/// right after joining), and `/health` answers 503 `redis unavailable`; Redis comes back: they
/// reconnect, `/health` is `ok` again, and a match across both works again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "starts its own redis-server: run by scripts/test.sh"]
async fn losing_redis_closes_with_1011_and_the_relays_recover() {
    let mut redis = OwnRedis::start();
    let url = redis.url();
    let (one, two) = two_relays(&url).await;
    let mut a = one.join("lost").await;
    wait_for_subscribers(&url, "lost", 1).await;
    let mut b = two.join("lost").await;
    expect_joined(&mut a).await;
    send(&mut a, b"1").await;
    expect_frame(&mut b, b"1").await;
    assert_eq!(one.get("/health").await, (200, "ok".to_string()));
    redis.kill();
    assert_eq!(expect_close(&mut a).await, (1011, "redis unavailable".to_string()));
    assert_eq!(expect_close(&mut b).await.0, 1011);
    assert_eq!(one.get("/health").await, (503, "redis unavailable".to_string()));
    assert_eq!(two.get("/health").await, (503, "redis unavailable".to_string()));
    let mut early = one.join("lost").await;
    assert_eq!(expect_close(&mut early).await.0, 1011, "no Redis yet");
    redis.restart();
    // The relays reconnect within their backoff (at most five seconds); clients retry until then.
    let deadline = Instant::now() + Duration::from_secs(20);
    let (mut a, mut b) = loop {
        assert!(Instant::now() < deadline, "the relays did not recover");
        let mut a = one.join("back").await;
        let mut b = two.join("back").await;
        match next(&mut a).await {
            Some(Message::Text(t)) if t.as_str() == "joined" => break (a, b),
            _ => {
                let _ = b.close(None).await;
                tokio::time::sleep(Duration::from_millis(200)).await;
            }
        }
    };
    assert_eq!(one.get("/health").await, (200, "ok".to_string()));
    assert_eq!(two.get("/health").await, (200, "ok".to_string()));
    send(&mut b, b"2").await;
    expect_frame(&mut a, b"2").await;
    send(&mut a, b"3").await;
    expect_frame(&mut b, b"3").await;
    one.stop().await;
    two.stop().await;
}
