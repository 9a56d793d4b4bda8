//! The local registry: which connections of this process are joined to which match (in the order they
//! joined), the limits on both (the places of a match: [`crate::places`]), and the fan-out of a frame
//! to the other connections of its match.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use axum::body::Bytes;
use tokio::sync::{Notify, mpsc, oneshot};

use crate::limits::Source;
use crate::places::{Address, Caps, MATCH_FULL, Place, Replaced};

/// The number of a connection, unique within one process.
pub(crate) type ConnId = u64;

/// What the hub hands to the other connections of a match.
#[derive(Debug, Clone)]
pub(crate) enum Out {
    /// A frame of another connection of the match: queued, and written as one binary message.
    Frame(Bytes),
    /// Another connection joined the match: the writer owes its client the text message `joined`
    /// ([`Control::joined`]); it takes no place in the queue.
    Joined,
}

/// Why the relay closes a connection: a WebSocket close code and its reason.
pub(crate) type Close = (u16, &'static str);

/// A request to close one connection, from outside its task (a full queue, Redis lost, shutdown), and
/// the pending `joined` of the connection.
#[derive(Debug, Default)]
pub(crate) struct Control {
    notify: Notify,
    close: Mutex<Option<Close>>,
    joined: AtomicBool,
    joined_notify: Notify,
}

impl Control {
    /// Asks the connection to close with `close` (the first request wins).
    pub(crate) fn close(&self, close: Close) {
        lock(&self.close).get_or_insert(close);
        self.notify.notify_one();
    }

    /// Resolves when a close was requested.
    pub(crate) async fn closed(&self) -> Close {
        loop {
            if let Some(close) = *lock(&self.close) {
                return close;
            }
            // `notify_one` stores a permit when nobody waits, so no request is missed.
            self.notify.notified().await;
        }
    }

    /// Another connection joined: the writer owes its client a `joined`. However many joins come
    /// before the writer sends it, the client gets one (the joins of a stranger who opens and closes
    /// sockets on the match id cost the players one `joined`, not one each).
    pub(crate) fn joined(&self) {
        if !self.joined.swap(true, Ordering::AcqRel) {
            self.joined_notify.notify_one();
        }
    }

    /// Resolves (taking it) when a `joined` is owed. Cancel-safe: it takes the flag in the same poll as
    /// it returns.
    pub(crate) async fn owed_joined(&self) {
        loop {
            if self.joined.swap(false, Ordering::AcqRel) {
                return;
            }
            self.joined_notify.notified().await;
        }
    }
}

/// One joined connection, as the hub sees it.
#[derive(Debug)]
pub(crate) struct Peer {
    pub(crate) id: ConnId,
    pub(crate) tx: mpsc::Sender<Bytes>,
    pub(crate) control: Arc<Control>,
    /// Its client's address.
    pub(crate) address: Address,
}

/// A subscription change for the Redis task, sent in the order of the hub's own changes.
#[derive(Debug)]
pub(crate) enum SubCmd {
    /// A connection joined `match_id`; `first` when it is the process's first one there (subscribe).
    /// `ack` gets `true` once the subscription is in place (also when it already was).
    Join { match_id: Arc<str>, first: bool, ack: oneshot::Sender<bool> },
    /// The process's last connection of `match_id` left (unsubscribe).
    Leave { match_id: Arc<str> },
}

#[derive(Debug, Default)]
struct Inner {
    /// The connections of each match, oldest first.
    matches: HashMap<Arc<str>, Vec<Peer>>,
    connections: usize,
    shutting_down: bool,
}

/// The counters of `/stats` that are not read from the registry itself.
#[derive(Debug, Default)]
pub(crate) struct Counters {
    pub(crate) frames_forwarded: AtomicU64,
    pub(crate) bytes_forwarded: AtomicU64,
}

/// The registry of the matches and connections of this process.
#[derive(Debug)]
pub(crate) struct Hub {
    inner: Mutex<Inner>,
    caps: Caps,
    max_matches: usize,
    /// Set in Redis mode: subscription changes, sent while the registry is locked so they keep its order.
    subs: Option<mpsc::UnboundedSender<SubCmd>>,
    pub(crate) counters: Counters,
}

/// A connection joined to its match (its place taken).
#[derive(Debug)]
pub(crate) struct Joining {
    /// In Redis mode, the receiver of the subscription's acknowledgement.
    pub(crate) ack: Option<oneshot::Receiver<bool>>,
    /// The connection whose place it took, closed with 4009: why, and its address.
    pub(crate) replaced: Option<(Replaced, Address)>,
}

/// A snapshot of the registry for `/stats`.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Snapshot {
    pub(crate) matches: usize,
    pub(crate) connections: usize,
}

/// Locks a mutex, ignoring poisoning (no code that holds one of these locks can panic, and the data stay
/// consistent at every step anyway).
pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

impl Hub {
    pub(crate) fn new(caps: Caps, max_matches: usize, subs: Option<mpsc::UnboundedSender<SubCmd>>) -> Hub {
        Hub { inner: Mutex::new(Inner::default()), caps, max_matches, subs, counters: Counters::default() }
    }

    /// Whether a connection to `match_id` could join now as far as `--max-matches` goes (the check
    /// before the upgrade; [`Hub::join`] checks again).
    pub(crate) fn room_for_match(&self, match_id: &str) -> bool {
        let inner = lock(&self.inner);
        inner.matches.contains_key(match_id) || inner.matches.len() < self.max_matches
    }

    /// Joins `peer` to `match_id`, in the place [`Caps::place`] gives it (the connection it replaces
    /// is taken out of the match at once and told to close), and sends `joined` to the match's other
    /// connections.
    pub(crate) fn join(&self, match_id: &Arc<str>, peer: Peer) -> Result<Joining, Close> {
        let mut inner = lock(&self.inner);
        if inner.shutting_down {
            return Err((1001, "relay shutting down"));
        }
        let first = !inner.matches.contains_key(match_id.as_ref());
        if first && inner.matches.len() >= self.max_matches {
            return Err((1013, "too many matches"));
        }
        // A new match has a free place: no empty entry is left behind by a refusal.
        let peers = inner.matches.entry(match_id.clone()).or_default();
        let held: Vec<Source> = peers.iter().map(|p| p.address.source).collect();
        let replaced = match self.caps.place(&held, peer.address.source) {
            Place::Free => None,
            Place::Full => return Err(MATCH_FULL),
            Place::Replace(at, why) => {
                let victim = peers.remove(at);
                victim.control.close(why.close());
                Some((why, victim.address))
            }
        };
        for other in peers.iter() {
            deliver(other, Out::Joined, &self.counters);
        }
        peers.push(peer);
        if replaced.is_none() {
            inner.connections += 1;
        }
        let ack = self.subs.as_ref().map(|subs| {
            let (ack, rx) = oneshot::channel();
            // The receiver lives as long as the hub; if it is gone the acknowledgement never comes and
            // the joiner sees a closed channel.
            let _ = subs.send(SubCmd::Join { match_id: match_id.clone(), first, ack });
            rx
        });
        Ok(Joining { ack, replaced })
    }

    /// Removes connection `id` from `match_id` (nothing if it is not there: a replaced connection left
    /// when it was replaced). The others keep their order.
    pub(crate) fn leave(&self, match_id: &Arc<str>, id: ConnId) {
        let mut inner = lock(&self.inner);
        let Some(peers) = inner.matches.get_mut(match_id.as_ref()) else { return };
        let Some(at) = peers.iter().position(|p| p.id == id) else { return };
        peers.remove(at);
        let last = peers.is_empty();
        inner.connections -= 1;
        if last {
            inner.matches.remove(match_id.as_ref());
            if let Some(subs) = &self.subs {
                let _ = subs.send(SubCmd::Leave { match_id: match_id.clone() });
            }
        }
    }

    /// Hands `out` to every connection of `match_id` but `from`. A connection whose queue is full is
    /// told to close (it reads too slowly); nobody waits for it.
    pub(crate) fn forward(&self, match_id: &str, from: Option<ConnId>, out: &Out) {
        let inner = lock(&self.inner);
        if let Some(peers) = inner.matches.get(match_id) {
            for peer in peers.iter().filter(|p| Some(p.id) != from) {
                deliver(peer, out.clone(), &self.counters);
            }
        }
    }

    /// Asks every connection to close with `close`; with `shutdown`, also refuses every later join.
    pub(crate) fn close_all(&self, close: Close, shutdown: bool) {
        let mut inner = lock(&self.inner);
        inner.shutting_down |= shutdown;
        for peer in inner.matches.values().flatten() {
            peer.control.close(close);
        }
    }

    pub(crate) fn snapshot(&self) -> Snapshot {
        let inner = lock(&self.inner);
        Snapshot { matches: inner.matches.len(), connections: inner.connections }
    }
}

fn deliver(peer: &Peer, out: Out, counters: &Counters) {
    let frame = match out {
        Out::Frame(frame) => frame,
        Out::Joined => return peer.control.joined(),
    };
    let bytes = frame.len() as u64;
    match peer.tx.try_send(frame) {
        Ok(()) => {
            counters.frames_forwarded.fetch_add(1, Ordering::Relaxed);
            counters.bytes_forwarded.fetch_add(bytes, Ordering::Relaxed);
        }
        Err(mpsc::error::TrySendError::Full(_)) => peer.control.close((1008, "too slow")),
        Err(mpsc::error::TrySendError::Closed(_)) => {}
    }
}
