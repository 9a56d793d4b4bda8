//! A stranger who knows a match id (from an invitation link shared carelessly) holds as many of its
//! places as it can, from one address, from two, and from more, before the players join and while they
//! play. The players connect, reconnect after a drop (a closed socket, and a stale one left open) and
//! exchange every move; the stranger's sockets get the documented closes (4009 `replaced …`, 4008
//! `match full`). Each client address is a loopback address of its own (Linux routes all of
//! 127.0.0.0/8 to the loopback interface).

mod common;

use std::net::IpAddr;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::SeqCst;
use std::time::{Duration, Instant};

use common::game::*;
use common::*;

/// How often the stranger opens another socket while the players play (under the default
/// `--connect-rate-per-address`, so that every attempt is upgraded).
const CHURN_EVERY: Duration = Duration::from_millis(150);
const SHUTDOWN: &str = "relay shutting down";

/// How the players' sockets ended (after the relay stopped): their last, then their stale ones.
async fn player_closes(a: Ended, b: Ended) -> Vec<(u16, String)> {
    let mut closes = Vec::new();
    for mut ws in [a.ws, b.ws].into_iter().chain(a.stale).chain(b.stale) {
        closes.push(close_past_messages(&mut ws).await);
    }
    closes
}

/// A stranger of `addresses` addresses opens six sockets from each before the players come: past the
/// second of an address, each takes the place of that address's oldest (4009), so it holds two places
/// an address. While the players play it opens one more every 150 ms, in turn from its addresses, each
/// replacing its address's oldest again. The players join (8 places: no refusal, nobody of theirs
/// replaced), reconnect after their drops and exchange every move; with two stranger addresses the
/// players' stale sockets fill the match, and the stranger still only replaces its own.
async fn a_stranger_of_few_addresses(addresses: usize) {
    let server = Server::start(config()).await;
    let from: Vec<IpAddr> = (0..addresses).map(|_| client_address()).collect();
    let mut stranger = Stranger::new(server.addr, "few");
    for _ in 0..6 {
        for &address in &from {
            stranger.open(address).await;
        }
    }
    assert_eq!(server.stats().await["connections"], 2 * addresses as u64);
    let stop = Arc::new(AtomicBool::new(false));
    let churn = tokio::spawn(stranger.keep_opening(from, CHURN_EVERY, stop.clone()));
    let start = Instant::now();
    let (a, b) = players_with_drops(server.addr, server.addr, "few");
    let (a, b) = game(a, b).await;
    let took = start.elapsed();
    stop.store(true, SeqCst);
    let stranger = churn.await.unwrap();
    assert!(stranger.refusals.is_empty(), "{:?}", stranger.refusals);
    let upgrades = stranger.upgrades();
    eprintln!(
        "{addresses} stranger address(es): {upgrades} sockets; the game took {took:?}, a {:?}, b {:?}",
        a.seen, b.seen
    );
    assert_eq!((a.seen.reconnections, b.seen.reconnections), (2, 1));
    let stats = server.stats().await;
    // The stranger's two an address, the players' last sockets and their stale ones (a's second, b's).
    assert_eq!(stats["connections"], 2 * addresses as u64 + 4, "{stats}");
    assert_eq!((stats["refused_match_full"].as_u64(), stats["replaced_over_share"].as_u64()), (Some(0), Some(0)));
    server.stop().await;
    let kept = 2 * addresses;
    assert_eq!(stranger.closes().await, tally(&[(4009, REPLACED_SAME, upgrades - kept), (1001, SHUTDOWN, kept)]));
    for close in player_closes(a, b).await {
        assert_eq!(close, (1001, SHUTDOWN.to_string()));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_of_one_address_holds_two_places() {
    a_stranger_of_few_addresses(1).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_of_two_addresses_holds_four_places() {
    a_stranger_of_few_addresses(2).await;
}

/// A stranger of four addresses, two places each, fills the match before the players come (a ninth
/// socket of its first address replaces that address's oldest). Each player takes the place of the
/// oldest connection of an address holding two (4009, its fair share exceeded); so do two more stranger
/// addresses; then every place is held by a different address, and a seventh stranger address is
/// refused (4008). While the players play, the stranger opens sockets from its six addresses in turn
/// (each replacing its own, or taking the place a player's drop leaves, which the player's
/// reconnection takes back); the players' stale sockets give their places to the players' own
/// reconnections (4009). Every move arrives.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stranger_filling_the_match_gives_way_to_the_players() {
    let server = Server::start(config()).await;
    let from: Vec<IpAddr> = (0..7).map(|_| client_address()).collect();
    let mut stranger = Stranger::new(server.addr, "many");
    for _ in 0..2 {
        for &address in &from[..4] {
            stranger.open(address).await;
        }
    }
    stranger.open(from[0]).await;
    assert_eq!(server.stats().await["connections"], 8);
    let (a, b) = players_with_drops(server.addr, server.addr, "many");
    let (ws_a, ws_b) = join_both(&a, &b).await;
    assert_eq!(server.stats().await["replaced_over_share"], 2);
    for &address in &from[4..] {
        stranger.open(address).await;
    }
    stranger.open(from[0]).await;
    let stats = server.stats().await;
    assert_eq!((stats["replaced_over_share"].as_u64(), stats["refused_match_full"].as_u64()), (Some(4), Some(1)));
    assert_eq!(stats["connections"], 8);
    let before = stranger.upgrades();
    let stop = Arc::new(AtomicBool::new(false));
    let churn = tokio::spawn(stranger.keep_opening(from[..6].to_vec(), CHURN_EVERY, stop.clone()));
    let (a, b) = play_both(a, ws_a, b, ws_b).await;
    stop.store(true, SeqCst);
    let stranger = churn.await.unwrap();
    assert!(stranger.refusals.is_empty(), "{:?}", stranger.refusals);
    let upgrades = stranger.upgrades();
    eprintln!("{upgrades} stranger sockets ({before} before the game); a {:?}, b {:?}", a.seen, b.seen);
    let stats = server.stats().await;
    assert_eq!(stats["connections"], 8, "{stats}");
    assert_eq!(stats["refused_match_full"], 1, "{stats}");
    // A drop of player a leaves a place that a stranger address may take (holding two again); a's
    // reconnection then takes it back.
    let over_share = stats["replaced_over_share"].as_u64().unwrap() as usize;
    assert!((4..=5).contains(&over_share), "{stats}");
    server.stop().await;
    let closes = stranger.closes().await;
    let same = upgrades - over_share - 1 - 6;
    assert_eq!(
        closes,
        tally(&[
            (4009, REPLACED_SAME, same),
            (4009, REPLACED_OVER_SHARE, over_share),
            (4008, "match full", 1),
            (1001, SHUTDOWN, 6)
        ])
    );
    let closes = player_closes(a, b).await;
    let (shutdown, replaced) = ((1001, SHUTDOWN.to_string()), (4009, REPLACED_SAME.to_string()));
    assert_eq!(closes, [shutdown.clone(), shutdown, replaced.clone(), replaced], "last sockets, then stale ones");
}
