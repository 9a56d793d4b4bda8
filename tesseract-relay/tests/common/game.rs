//! Two players of a match as the pages play it through the relay (a ping-pong of moves, the protocol's
//! retransmissions, reconnections after a drop), and a stranger who holds places of their match.

use std::collections::BTreeMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

use super::*;

/// How a player loses its connection for a while, right after sending one of its moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Loss {
    /// It closes the socket (the relay sees the close) and connects again.
    Clean,
    /// The socket goes silent, as on a network change: left open, never read again (the relay keeps
    /// it until it times out or is replaced), and the player connects again.
    Stale,
}

/// One player: where it connects from, and the game it plays.
#[derive(Debug, Clone)]
pub struct Player {
    pub from: IpAddr,
    pub relay: SocketAddr,
    pub id: String,
    /// Whether it makes the even moves, the first one included.
    pub first: bool,
    /// The moves of the game, both players' (`frame(n, 100)` for n in `0..moves`).
    pub moves: u32,
    /// The pause before each of its moves.
    pub pause: Duration,
    /// Its losses: after sending its move `n`, the loss.
    pub losses: Vec<(u32, Loss)>,
    /// It goes on listening (answering `joined`) until this time, once the game is over.
    pub until: Instant,
}

/// The two players of match `id`, each from a loopback address of its own, a (the first mover) on the
/// relay at `relay_a`, b on `relay_b`, in a game of 40 moves with a pause of 40 ms before each: a closes
/// its socket after its move 10 and leaves it stale after its move 30, b leaves its socket stale after
/// its move 21; each connects again (to its relay, from its address).
pub fn players_with_drops(relay_a: SocketAddr, relay_b: SocketAddr, id: &str) -> (Player, Player) {
    let a = Player {
        from: client_address(),
        relay: relay_a,
        id: id.to_string(),
        first: true,
        moves: 40,
        pause: Duration::from_millis(40),
        losses: vec![(10, Loss::Clean), (30, Loss::Stale)],
        until: Instant::now(),
    };
    let b =
        Player { from: client_address(), relay: relay_b, first: false, losses: vec![(21, Loss::Stale)], ..a.clone() };
    (a, b)
}

/// What a player saw.
#[derive(Debug, Default)]
pub struct Seen {
    pub joined: u32,
    pub duplicates: u32,
    pub reconnections: u32,
}

/// A player at the end of its game: its connection, the stale sockets it left, what it saw.
#[derive(Debug)]
pub struct Ended {
    pub ws: Ws,
    pub stale: Vec<Ws>,
    pub seen: Seen,
}

/// Plays `player`'s part on `ws` (already joined): it sends its moves, each after the peer's previous
/// one and a pause; it answers every `joined` as the page does, by sending its unacknowledged move again
/// (twice: the protocol's worst case, two unacknowledged frames), and sends it again on each new
/// connection; it ignores a copy of the last move it accepted and refuses anything else out of order.
/// After a loss it connects again from its address (a refusal is a failure). It returns once both
/// players (`finished` counts them) have all the moves and `until` has come. Any close by the relay is
/// a failure.
pub async fn play(player: Player, mut ws: Ws, finished: Arc<AtomicUsize>) -> Result<Ended, String> {
    let mut seen = Seen::default();
    let mut stale = Vec::new();
    let mut unacknowledged: Option<Vec<u8>> = None;
    let mut last_accepted: Option<Vec<u8>> = None;
    let mut next_own = if player.first { 0 } else { 1 };
    let mut next_peer = if player.first { 1 } else { 0 };
    let mut done = false;
    let mut last_message = Instant::now();
    if player.first {
        move_on(&player, &mut ws, &mut next_own, &mut unacknowledged, &mut stale, &mut seen).await?;
    }
    loop {
        if !done && next_peer >= player.moves && next_own >= player.moves {
            done = true;
            finished.fetch_add(1, Ordering::SeqCst);
        }
        if done && finished.load(Ordering::SeqCst) == 2 && Instant::now() >= player.until {
            return Ok(Ended { ws, stale, seen });
        }
        let message = match tokio::time::timeout(Duration::from_millis(50), next_message(&mut ws)).await {
            Err(_) if done || last_message.elapsed() < PATIENCE => continue,
            Err(_) => return Err(format!("nothing came for {PATIENCE:?}; waiting for move {next_peer}")),
            Ok(message) => message,
        };
        last_message = Instant::now();
        match message {
            Some(Message::Text(text)) if text.as_str() == "joined" => {
                seen.joined += 1;
                retransmit(&mut ws, &unacknowledged).await?;
            }
            Some(Message::Binary(got)) => {
                if last_accepted.as_deref() == Some(&got[..]) {
                    seen.duplicates += 1;
                    continue;
                }
                if got[..] != frame(next_peer, 100)[..] {
                    return Err(format!("expected move {next_peer}, got {:?}", &got[..4.min(got.len())]));
                }
                last_accepted = Some(got.to_vec());
                unacknowledged = None;
                next_peer += 2;
                if next_own < player.moves {
                    tokio::time::sleep(player.pause).await;
                    move_on(&player, &mut ws, &mut next_own, &mut unacknowledged, &mut stale, &mut seen).await?;
                }
            }
            other => return Err(format!("the player's connection ended: {other:?}")),
        }
    }
}

/// The next message but pings and pongs; `None` when the connection ended. Cancel-safe.
async fn next_message(ws: &mut Ws) -> Option<Message> {
    loop {
        match ws.next().await {
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
            Some(Ok(message)) => return Some(message),
            Some(Err(_)) | None => return None,
        }
    }
}

/// Sends the unacknowledged move, if any, twice.
async fn retransmit(ws: &mut Ws, unacknowledged: &Option<Vec<u8>>) -> Result<(), String> {
    if let Some(f) = unacknowledged {
        for _ in 0..2 {
            ws.send(Message::binary(f.clone())).await.map_err(|e| format!("retransmitting: {e}"))?;
        }
    }
    Ok(())
}

/// Sends the player's next move; then the loss that follows it, if any: the player connects again and
/// sends its unacknowledged move on the new connection.
async fn move_on(
    player: &Player,
    ws: &mut Ws,
    next_own: &mut u32,
    unacknowledged: &mut Option<Vec<u8>>,
    stale: &mut Vec<Ws>,
    seen: &mut Seen,
) -> Result<(), String> {
    let f = frame(*next_own, 100);
    send(ws, &f).await;
    *unacknowledged = Some(f);
    let loss = player.losses.iter().find(|(at, _)| at == next_own).map(|&(_, loss)| loss);
    *next_own += 2;
    let Some(loss) = loss else { return Ok(()) };
    if loss == Loss::Clean {
        // Closed, and the relay's answer read: the relay has let go of it.
        let _ = ws.close(None).await;
        while next_message(ws).await.is_some() {}
    }
    let new = try_join_from(player.from, player.relay, &player.id)
        .await
        .map_err(|refusal| format!("reconnecting after move {}: {refusal:?}", *next_own - 2))?;
    let old = std::mem::replace(ws, new);
    if loss == Loss::Stale {
        stale.push(old);
    }
    seen.reconnections += 1;
    retransmit(ws, unacknowledged).await
}

/// Joins `a` then `b` to their match, each from its address.
pub async fn join_both(a: &Player, b: &Player) -> (Ws, Ws) {
    (join_from(a.from, a.relay, &a.id).await, join_from(b.from, b.relay, &b.id).await)
}

/// Plays a game between `a` (the first mover) on `ws_a` and `b` on `ws_b`: what each ended with.
pub async fn play_both(a: Player, ws_a: Ws, b: Player, ws_b: Ws) -> (Ended, Ended) {
    let finished = Arc::new(AtomicUsize::new(0));
    let a = tokio::spawn(play(a, ws_a, finished.clone()));
    let b = tokio::spawn(play(b, ws_b, finished));
    (a.await.unwrap().expect("player a"), b.await.unwrap().expect("player b"))
}

/// Joins `a` and `b` and plays their game.
pub async fn game(a: Player, b: Player) -> (Ended, Ended) {
    let (ws_a, ws_b) = join_both(&a, &b).await;
    play_both(a, ws_a, b, ws_b).await
}

/// A stranger who knows a match id and opens WebSockets on it, reading none of them.
#[derive(Debug)]
pub struct Stranger {
    pub relay: SocketAddr,
    pub id: String,
    sockets: Vec<Ws>,
    /// The HTTP refusals of its attempts.
    pub refusals: Vec<(u16, String)>,
}

impl Stranger {
    pub fn new(relay: SocketAddr, id: &str) -> Stranger {
        Stranger { relay, id: id.to_string(), sockets: Vec::new(), refusals: Vec::new() }
    }

    /// One more WebSocket from `from` (kept), or its refusal (recorded).
    pub async fn open(&mut self, from: IpAddr) {
        match try_join_from(from, self.relay, &self.id).await {
            Ok(ws) => self.sockets.push(ws),
            Err(refusal) => self.refusals.push(refusal),
        }
    }

    /// The WebSockets it got so far.
    pub fn upgrades(&self) -> usize {
        self.sockets.len()
    }

    /// Opens a WebSocket every `every`, from each of `from` in turn, until `stop` is raised.
    pub async fn keep_opening(mut self, from: Vec<IpAddr>, every: Duration, stop: Arc<AtomicBool>) -> Stranger {
        for &address in from.iter().cycle() {
            if stop.load(Ordering::SeqCst) {
                break;
            }
            self.open(address).await;
            tokio::time::sleep(every).await;
        }
        self
    }

    /// How each of its WebSockets ended (read past the frames and `joined` they got): the number of
    /// each close code and reason. For the sockets still open, stop the relay first.
    pub async fn closes(self) -> BTreeMap<(u16, String), usize> {
        let mut tally = BTreeMap::new();
        for mut ws in self.sockets {
            *tally.entry(close_past_messages(&mut ws).await).or_default() += 1;
        }
        tally
    }
}

/// A tally of closes, from `(code, reason, count)` triples (counts of 0 left out).
pub fn tally(closes: &[(u16, &str, usize)]) -> BTreeMap<(u16, String), usize> {
    closes.iter().filter(|c| c.2 > 0).map(|&(code, reason, n)| ((code, reason.to_string()), n)).collect()
}
