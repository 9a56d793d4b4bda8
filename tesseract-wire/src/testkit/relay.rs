//! An in-memory relay that misbehaves on purpose, and a driver that plays a whole match through it.
//!
//! [`FaultyRelay`] drops, duplicates, reorders, corrupts and injects frames with seeded probabilities;
//! [`duel`] plays two [`AutoPlayer`]s through it, retransmitting after silences as a real client would,
//! and reports what each side saw. The property the tests check over many seeds: the two boards never
//! silently disagree — every fault is either harmless (the match completes and both sides hold the same
//! position and result) or detected and reported. Damaged, forged and replayed frames are dropped (and
//! counted) and the match goes on, healed by retransmission; only a violation by the authenticated peer
//! aborts a side with a typed error.

use std::collections::VecDeque;
use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::Color;

use super::{AutoPlayer, Mover};
use crate::{Error, Event, GameResult, Phase, Session};

/// Fault probabilities, each in per-mille (0 to 1000) per frame sent.
///
/// # Examples
/// ```
/// use tesseract_wire::testkit::Faults;
/// let f: Faults = "drop=100,dup=50,reorder=50,corrupt=5,inject=5".parse()?;
/// assert_eq!(f.drop, 100);
/// assert_eq!("".parse::<Faults>()?, Faults::NONE);
/// # Ok::<_, String>(())
/// ```
#[derive(Copy, Clone, Debug, PartialEq, Eq, Default)]
pub struct Faults {
    /// The frame is lost.
    pub drop: u16,
    /// The frame is delivered twice (the copy possibly later).
    pub duplicate: u16,
    /// The frame overtakes the one queued before it.
    pub reorder: u16,
    /// One bit of the frame is flipped.
    pub corrupt: u16,
    /// A forged frame is injected before it (random bytes, a replayed or truncated old frame).
    pub inject: u16,
}

impl Faults {
    /// No faults: a perfect relay.
    pub const NONE: Faults = Faults { drop: 0, duplicate: 0, reorder: 0, corrupt: 0, inject: 0 };

    /// Only harmless faults (drops, duplicates, and reordering of identical copies in practice): a match
    /// through them completes.
    pub const LOSSY: Faults = Faults { drop: 150, duplicate: 150, reorder: 0, corrupt: 0, inject: 0 };
}

impl std::str::FromStr for Faults {
    type Err = String;
    fn from_str(s: &str) -> Result<Faults, String> {
        let mut f = Faults::NONE;
        for part in s.split(',').filter(|p| !p.is_empty()) {
            let (name, value) = part.split_once('=').ok_or_else(|| format!("{part:?}: expected name=per-mille"))?;
            let v: u16 = value
                .parse()
                .ok()
                .filter(|v| *v <= 1000)
                .ok_or_else(|| format!("{part:?}: expected a number 0..=1000"))?;
            match name {
                "drop" => f.drop = v,
                "dup" | "duplicate" => f.duplicate = v,
                "reorder" => f.reorder = v,
                "corrupt" => f.corrupt = v,
                "inject" => f.inject = v,
                _ => return Err(format!("{name:?}: expected drop, dup, reorder, corrupt or inject")),
            }
        }
        Ok(f)
    }
}

/// One fault the relay committed.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Fault {
    /// A frame was lost.
    Dropped,
    /// A frame was delivered twice.
    Duplicated,
    /// A frame overtook the one before it.
    Reordered,
    /// A bit was flipped at this byte offset.
    Corrupted(usize),
    /// A forged frame was injected.
    Injected,
}

impl Fault {
    /// The fault's kind by name: `dropped`, `duplicated`, `reordered`, `corrupted` or `injected`.
    pub const fn name(&self) -> &'static str {
        match self {
            Fault::Dropped => "dropped",
            Fault::Duplicated => "duplicated",
            Fault::Reordered => "reordered",
            Fault::Corrupted(_) => "corrupted",
            Fault::Injected => "injected",
        }
    }
}

impl fmt::Display for Fault {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Fault::Dropped => f.write_str("dropped"),
            Fault::Duplicated => f.write_str("duplicated"),
            Fault::Reordered => f.write_str("reordered"),
            Fault::Corrupted(at) => write!(f, "corrupted byte {at}"),
            Fault::Injected => f.write_str("injected a forged frame"),
        }
    }
}

/// An in-memory relay between White and Black that commits [`Faults`] with a seeded generator.
///
/// # Examples
/// ```
/// use tesseract_board::Color;
/// use tesseract_wire::testkit::{FaultyRelay, Faults};
/// let mut relay = FaultyRelay::new(1, Faults::NONE);
/// relay.send(Color::Black, b"frame".to_vec());
/// assert_eq!(relay.deliver(Color::Black), Some(b"frame".to_vec()));
/// assert_eq!(relay.deliver(Color::Black), None);
/// ```
#[derive(Clone, Debug)]
pub struct FaultyRelay {
    rng: ChaCha8Rng,
    faults: Faults,
    queues: [VecDeque<Vec<u8>>; 2],
    seen: Vec<Vec<u8>>,
    log: Vec<(Color, Fault)>,
}

impl FaultyRelay {
    /// A relay with these fault rates.
    pub fn new(seed: u64, faults: Faults) -> FaultyRelay {
        FaultyRelay {
            rng: ChaCha8Rng::seed_from_u64(seed),
            faults,
            queues: [VecDeque::new(), VecDeque::new()],
            seen: Vec::new(),
            log: Vec::new(),
        }
    }

    fn roll(&mut self, per_mille: u16) -> bool {
        per_mille > 0 && (self.rng.next_u32() % 1000) < u32::from(per_mille)
    }

    /// Takes a frame for `to`, committing faults as the dice say.
    pub fn send(&mut self, to: Color, frame: Vec<u8>) {
        self.seen.push(frame.clone());
        if self.roll(self.faults.inject) {
            let forged = self.forge();
            self.queues[to.index()].push_back(forged);
            self.log.push((to, Fault::Injected));
        }
        if self.roll(self.faults.drop) {
            self.log.push((to, Fault::Dropped));
            return;
        }
        let mut frame = frame;
        if self.roll(self.faults.corrupt) && !frame.is_empty() {
            let at = (self.rng.next_u32() as usize) % frame.len();
            frame[at] ^= 1 << (self.rng.next_u32() % 8);
            self.log.push((to, Fault::Corrupted(at)));
        }
        let q = &mut self.queues[to.index()];
        if self.faults.reorder > 0 && !q.is_empty() && (self.rng.next_u32() % 1000) < u32::from(self.faults.reorder) {
            let at = q.len() - 1;
            q.insert(at, frame.clone());
            self.log.push((to, Fault::Reordered));
        } else {
            q.push_back(frame.clone());
        }
        if self.roll(self.faults.duplicate) {
            self.queues[to.index()].push_back(frame);
            self.log.push((to, Fault::Duplicated));
        }
    }

    fn forge(&mut self) -> Vec<u8> {
        match self.rng.next_u32() % 3 {
            0 if !self.seen.is_empty() => {
                let i = (self.rng.next_u32() as usize) % self.seen.len();
                self.seen[i].clone()
            }
            1 if !self.seen.is_empty() => {
                let i = (self.rng.next_u32() as usize) % self.seen.len();
                let f = &self.seen[i];
                f[..(self.rng.next_u32() as usize) % f.len().max(1)].to_vec()
            }
            _ => {
                let len = (self.rng.next_u32() % 300) as usize;
                let mut b = vec![0; len];
                self.rng.fill_bytes(&mut b);
                if len >= 4 && self.rng.next_u32().is_multiple_of(2) {
                    b[..3].copy_from_slice(&[b'T', b'W', crate::VERSION]);
                }
                b
            }
        }
    }

    /// The next frame for `to`, if any.
    pub fn deliver(&mut self, to: Color) -> Option<Vec<u8>> {
        self.queues[to.index()].pop_front()
    }

    /// Whether no frame is in flight.
    pub fn is_idle(&self) -> bool {
        self.queues.iter().all(VecDeque::is_empty)
    }

    /// Every fault committed so far, with the side it was aimed at.
    pub fn log(&self) -> &[(Color, Fault)] {
        &self.log
    }
}

/// What one side of a [`duel`] ended with.
#[derive(Clone, Debug)]
pub struct SideReport {
    /// The session's final phase.
    pub phase: Phase,
    /// The result, if the match is over for this side.
    pub result: Option<GameResult>,
    /// The failure that aborted it, if any: an authenticated violation detected and reported.
    pub failure: Option<Error>,
    /// The frames it dropped because they did not authenticate (damaged, forged or replayed on the way).
    pub dropped: u64,
    /// Its final position hash.
    pub hash: u64,
    /// Its final position.
    pub fen: String,
    /// Its moves.
    pub moves: Vec<String>,
}

/// What a [`duel`] ended with.
#[derive(Clone, Debug)]
pub struct DuelReport {
    /// White's side.
    pub white: SideReport,
    /// Black's side.
    pub black: SideReport,
    /// The faults the relay committed.
    pub faults: Vec<(Color, Fault)>,
    /// Rounds played.
    pub rounds: usize,
    /// A line per event, for demonstrations.
    pub log: Vec<String>,
}

impl DuelReport {
    /// Whether both sides completed the match normally.
    pub fn completed(&self) -> bool {
        matches!((self.white.phase, self.black.phase), (Phase::Closed(_), Phase::Closed(_)))
    }

    /// Whether a side detected a fault and reported it.
    pub fn detected(&self) -> bool {
        self.white.failure.is_some() || self.black.failure.is_some()
    }

    /// The property: the two sides never silently disagree. Either one of them reported a failure, or their
    /// move lists are one a prefix of the other (the same game so far), and if both completed, they hold
    /// the same position, hash and result.
    pub fn consistent(&self) -> bool {
        if self.detected() {
            return true;
        }
        let (w, b) = (&self.white.moves, &self.black.moves);
        let prefix = if w.len() <= b.len() { b.starts_with(w) } else { w.starts_with(b) };
        if !prefix {
            return false;
        }
        !self.completed()
            || (self.white.hash == self.black.hash
                && self.white.fen == self.black.fen
                && self.white.result == self.black.result)
    }
}

fn side(s: &Session) -> SideReport {
    SideReport {
        phase: s.phase(),
        result: s.result(),
        failure: s.failure().cloned(),
        dropped: s.dropped(),
        hash: s.position().hash(),
        fen: s.position().fen(),
        moves: s.moves().to_vec(),
    }
}

/// Plays a match between two sessions and two automatic players through a relay, for at most `rounds`
/// rounds. A round: each side sends what it has queued; the relay delivers at most one frame to each side;
/// each side acts if it is its turn; after `patience` rounds without any frame delivered, the sides
/// retransmit their unacknowledged frames (as a client does after a timeout). The match stops when both
/// sides are done (closed or aborted), or when one aborted and the relay is idle.
///
/// After every round the sides' move lists are checked against each other: if they ever diverge without a
/// reported failure, the report says so ([`DuelReport::consistent`] is false).
pub fn duel<A: Mover, B: Mover>(
    mut white: Session,
    mut black: Session,
    white_player: &mut AutoPlayer<A>,
    black_player: &mut AutoPlayer<B>,
    relay: &mut FaultyRelay,
    rounds: usize,
) -> DuelReport {
    let mut log = Vec::new();
    let mut quiet = 0;
    let patience = 3;
    let mut diverged = false;
    let mut played = 0;
    for round in 0..rounds {
        played = round + 1;
        for (s, to) in [(&mut white, Color::Black), (&mut black, Color::White)] {
            while let Some(f) = s.poll_transmit() {
                relay.send(to, f);
            }
        }
        // Progress is a new frame accepted: dropped ones (damaged, forged, replayed) and copies do not end a
        // silence, or a stranger who keeps sending junk or replays would keep the players from ever
        // retransmitting what the relay lost.
        let mut delivered = false;
        for (s, c) in [(&mut white, Color::White), (&mut black, Color::Black)] {
            if let Some(f) = relay.deliver(c) {
                match s.receive(&f) {
                    Ok(events) => {
                        // An answered Hello (no event) is not progress either: nothing proved it.
                        delivered |= events.iter().any(|e| !matches!(e, Event::Dropped { .. } | Event::Duplicate));
                        for e in events.into_iter().filter(|e| *e != Event::Duplicate) {
                            log.push(format!("{c}: {e:?}"));
                        }
                    }
                    Err(e) if s.phase() == Phase::Aborted && s.failure() == Some(&e) => {
                        log.push(format!("{c}: detected and aborted: {e}"))
                    }
                    Err(e) => log.push(format!("{c}: refused ({e})")),
                }
            }
        }
        for (s, c) in [(&mut white, Color::White), (&mut black, Color::Black)] {
            let before = s.moves().len();
            match c {
                Color::White => drop(white_player.act(s)),
                Color::Black => drop(black_player.act(s)),
            }
            if s.moves().len() > before {
                log.push(format!("{c}: plays {}", s.moves()[before]));
            }
        }
        let (w, b) = (white.moves(), black.moves());
        let prefix = if w.len() <= b.len() { b.starts_with(w) } else { w.starts_with(b) };
        if !prefix && white.failure().is_none() && black.failure().is_none() {
            diverged = true;
        }
        let done = |s: &Session| matches!(s.phase(), Phase::Closed(_) | Phase::Aborted);
        if done(&white) && done(&black) && relay.is_idle() {
            break;
        }
        if (white.phase() == Phase::Aborted || black.phase() == Phase::Aborted) && relay.is_idle() {
            break;
        }
        quiet = if delivered { 0 } else { quiet + 1 };
        if quiet >= patience {
            quiet = 0;
            for s in [&mut white, &mut black] {
                if !matches!(s.phase(), Phase::Aborted) {
                    s.retransmit();
                }
            }
        }
    }
    let mut report =
        DuelReport { white: side(&white), black: side(&black), faults: relay.log().to_vec(), rounds: played, log };
    if diverged {
        // Make the divergence visible to `consistent` even if the lists later realigned.
        report.white.moves.push("<diverged>".into());
        report.black.moves.push("<diverged!>".into());
    }
    report
}
