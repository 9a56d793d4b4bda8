//! Plays a match online through Redis pub/sub, one process per player, with the authenticated protocol of
//! `tesseract-wire` (PROTOCOL.md); or both players in one process through a fault-injecting relay.
//!
//! ```text
//! # once per player: a long-term key, and the identity to give the peer
//! cargo run --release --features redis --example online -- --key alice.key --print-identity
//! # a game link: a match id and an invitation secret, to share privately
//! cargo run --release --features redis --example online -- --new-link
//! # each player, in their own terminal
//! cargo run --release --features redis --example online -- --redis redis://127.0.0.1:6379 --match ID --color white \
//!     --key alice.key --peer BOB_IDENTITY [--state alice.state] [--auto --seed 1]
//! cargo run --release --features redis --example online -- --redis redis://127.0.0.1:6379 --match ID --color black \
//!     --key bob.key --peer ALICE_IDENTITY [--auto --seed 2]
//! # both players in one process, through a relay that drops, duplicates, reorders, corrupts and injects
//! cargo run --release --features redis --example online -- --local --faults drop=100,dup=100,reorder=50,corrupt=10,inject=10 --seed 7
//! ```
//!
//! **Authenticating the peer.** The relay (Redis and anyone who can publish on it) is not trusted, so each
//! player must know who the other is before the match: either pin the peer's identity with `--peer` (32 hex
//! digits that the peer printed with `--print-identity` and gave you over a channel you trust: in person,
//! by phone, in a signed message), or share a game link (`--new-link`: a match id and an invitation secret)
//! over such a channel and start both sides with `--invite`. Both can be combined. Without either, the
//! program refuses to play. After the handshake both sides print the same safety number (the start of the
//! transcript hash), which the players may compare.
//!
//! **Channels.** Each side publishes its frames on `tesseract-wire:<match>:<its color>` and subscribes to
//! the peer's channel. A side retransmits its unacknowledged frames after `--retransmit-ms` of silence (a
//! Redis subscriber that was not yet listening misses what was published), and gives up after
//! `--timeout` seconds without progress (an automatic player at any time, a human only during the
//! handshake: a human opponent may think for long). Replies of the relay are read with every size
//! bounded (`tesseract_wire::resp`): a payload longer than a frame (256 bytes) is skipped unread and
//! refused by its length, whatever its size.
//!
//! **The library.** The reconnecting link and the state file's saving policy are
//! `tesseract_wire::redis` (`RedisRelay`, `StateSaver`; feature `redis`): this file parses the arguments,
//! chooses who moves, and prints.
//!
//! **A lost relay.** When the connection to Redis fails (a restart, a network cut) the player reconnects,
//! waiting 100 ms, then twice as long after each failure up to 2 s, sends its unacknowledged frames again
//! and goes on: the retransmission heals what was lost meanwhile. After `--timeout` seconds without the
//! relay (also for a human player) it gives up with `reason=relaylost` in the final line (exit code 1);
//! the match is not aborted, so a player started again with the same `--state` resumes it.
//!
//! **Resuming.** `--state FILE` (with `--key`) saves the session (keys, chain, moves, unacknowledged
//! frames: `tesseract_wire::Session::save_state`, format in PROTOCOL.md §11) after every change and
//! before sending what the change queued, atomically (a temporary file in the same folder, renamed over
//! FILE; a symbolic link is followed first, so the file it names is replaced and the link kept, and a
//! FIFO or a character device is written straight through). If FILE exists at the start, the player resumes the match it holds instead of starting a new
//! handshake (it prints `resumed ply=<n>`, and the `established` line again once the handshake was
//! done); a state of another match id, color, start, key, peer or invitation is refused (exit code 2).
//! When the state cannot be saved (a full disk, a lost folder) nothing is sent: the frames stay queued
//! and the save is tried again every 200 ms; after 10 failed attempts in a row the player gives up with
//! `reason=unsaved` in the final line (exit code 1), and the file holds the last state saved, from which
//! a restart resumes (the peer has seen nothing newer). **The file is secret** (it holds the match's
//! keys): it is written readable by its owner only, like the key file, and a warning is printed when an
//! existing one is open to others. Both files are read with a cap (the key file 1 KiB, the state 4 MiB).
//!
//! **Automatic play.** `--auto` plays with the engine when `--tier beginner|club|expert|master` is given
//! (`tesseract_search`, plugged in through the `tesseract_wire::testkit::Mover` trait; its noise seeded by
//! `--seed`), otherwise with a deterministic seeded mover (a ChaCha-seeded choice among the legal moves,
//! preferring captures; `tesseract_wire::testkit::SeededMover`). `--local` plays both sides the same way. At
//! `--cap` plies (300 by default) the side to move offers a draw and an automatic peer accepts it: the
//! match then ends as a draw by agreement. `--auto --script "MOVES"` plays a fixed line instead (the whole
//! game's moves; each side plays its own at its turns, never claims or offers a draw:
//! `tesseract_wire::testkit::ScriptedPlayer`), so that the line's own end (a mate, a fifth repetition,
//! the 75-move rule) ends the match: the tests play one game per automatic end this way.
//!
//! **Strangers.** Anyone who can publish on the relay can send frames on a player's channel. A frame that
//! does not authenticate as the peer's next one is dropped (PROTOCOL.md §7): the match goes on, and a
//! warning goes to stderr (`online: warning: dropped a frame that does not authenticate (N so far): ...`,
//! the first ten one by one, then one per hundred). Only the authenticated peer can end the match; but a
//! stranger who floods the handshake with valid-looking Hellos faster than its round trip can delay it
//! (each one pushed out unproven counts as dropped), and a player then gives up after `--timeout` seconds
//! without progress (`--timeout 0` waits for ever).
//!
//! **Human play.** Without `--auto`, type moves in the text of RULES.md §4 (`22132313`, `e2e4`), or
//! `draw`, `accept`, `decline`, `claim`, `resign`, `abort`. A line that is not UTF-8, or longer than
//! 4 KiB, is answered and ignored, and input goes on. The board is printed as the board crate's text
//! picture, from the player's side (turned for Black).
//!
//! **Output.** `identity <hex>`, `established peer=<hex> safety=<hex>`, one line `move <ply> <color>
//! <text>` per move (unless `--quiet`), and a last line `final result=<score> reason=<reason> ply=<n>
//! hash=<016x> fen=<fen>`, in every ending. Exit code 0 when the match ended normally, 1 if it was
//! aborted (a fault detected: the reason is printed on stderr), timed out, lost the relay or could not
//! save its state, 2 for malformed arguments.

#[path = "common/files.rs"]
mod files;
#[macro_use]
#[path = "common/out.rs"]
mod out;
#[path = "common/lines.rs"]
mod lines;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Parser;
use lines::{Line, MAX_LINE, stdin_lines};
use tesseract::board::picture::Diagram;
use tesseract::board::{Color, Move, Position, start};
use tesseract::search::{Searcher, Tier};
use tesseract::wire::redis::{RedisRelay, RelayEvent, SaveOutcome, StateSaver, Target};
use tesseract::wire::testkit::{AutoPlayer, Faults, FaultyRelay, Mover, ScriptedPlayer, SeededMover, duel};
use tesseract::wire::{
    Action, EndReason, EphemeralKey, Event, Identity, IdentityKey, InvitationSecret, MAX_STATE, MatchConfig, MatchId,
    Phase, Session, Zeroizing,
};

#[derive(Parser, Debug)]
#[command(about = "Tesseract (4D chess) and chess online through Redis pub/sub, with authenticated moves")]
struct Args {
    /// Redis server.
    #[arg(long, default_value = "redis://127.0.0.1:6379")]
    redis: String,
    /// The match id: 32 hex digits, the same for both players.
    #[arg(long = "match", value_name = "ID")]
    match_id: Option<String>,
    /// This player's color: white or black.
    #[arg(long)]
    color: Option<String>,
    /// The start position: light, standard, dense (4D), classic or chess960:N.
    #[arg(long, default_value = "standard")]
    start: String,
    /// This player's long-term key file (created if missing, readable by its owner only; through a
    /// dangling link, where the link points).
    #[arg(long, value_name = "FILE")]
    key: Option<String>,
    /// The peer's identity to pin (32 hex digits).
    #[arg(long, value_name = "IDENTITY")]
    peer: Option<String>,
    /// The invitation secret of the game link (64 hex digits).
    #[arg(long, value_name = "SECRET")]
    invite: Option<String>,
    /// Play automatically (with the engine at --tier, or else a seeded mover).
    #[arg(long)]
    auto: bool,
    /// With --auto: play this line instead (the whole game's moves, both sides', separated by spaces; this
    /// player plays its own at its turns, never claims or offers a draw, and declines offers).
    #[arg(long, value_name = "MOVES", requires = "auto", conflicts_with = "tier")]
    script: Option<String>,
    /// The engine's tier for automatic play: beginner, club, expert or master.
    #[arg(long)]
    tier: Option<Tier>,
    /// Seed of the automatic mover (and of the relay with --local).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Move cap in plies for automatic players: then a draw is offered and accepted.
    #[arg(long, default_value_t = 300)]
    cap: u32,
    /// Seconds without progress before giving up (0: never; for a human player, only during the handshake).
    #[arg(long, default_value_t = 60)]
    timeout: u64,
    /// Milliseconds of silence before resending unacknowledged frames.
    #[arg(long, default_value_t = 500)]
    retransmit_ms: u64,
    /// Faults on outgoing frames (per mille): drop=N,dup=N,reorder=N,corrupt=N,inject=N.
    #[arg(long, default_value = "")]
    faults: String,
    /// Print only the identity, the handshake and the final line.
    #[arg(long)]
    quiet: bool,
    /// Print this player's identity (creating the key file if missing) and exit.
    #[arg(long)]
    print_identity: bool,
    /// Print a new game link (match id and invitation secret) and exit.
    #[arg(long)]
    new_link: bool,
    /// Play both sides in this process through the fault-injecting in-memory relay.
    #[arg(long)]
    local: bool,
    /// Save the session to FILE after every change (secret: readable by its owner only) and, if FILE
    /// exists, resume the match it holds instead of starting a new one. Needs --key.
    #[arg(long, value_name = "FILE", conflicts_with = "local", requires = "key")]
    state: Option<PathBuf>,
}

fn usage(msg: impl std::fmt::Display) -> ExitCode {
    eprintln!("online: {msg}");
    ExitCode::from(2)
}

/// A move chooser of either kind (closures are movers).
type BoxedMover = Box<dyn FnMut(&Position) -> Option<Move>>;

/// The automatic player's move chooser: the engine at `tier`, or the seeded stand-in without one.
///
/// The wire's mover sees positions only, so the engine's repetition history holds the positions it was
/// asked to move in (the positions at its own turns), which is where a repetition can be claimed.
fn mover(tier: Option<Tier>, seed: u64) -> BoxedMover {
    match tier {
        None => {
            let mut seeded = SeededMover::new(seed);
            Box::new(move |pos: &Position| seeded.choose(pos))
        }
        Some(tier) => {
            let mut searcher = Searcher::new(tier.settings().hash_mb);
            let mut seen = Vec::new();
            Box::new(move |pos: &Position| {
                searcher.clear();
                let result = searcher.search(pos, &seen, &tier.limits(), &tier.options(seed), |_| {});
                seen.push(pos.hash());
                result.best_move
            })
        }
    }
}

fn main() -> ExitCode {
    let args = Args::parse();
    let faults: Faults = match args.faults.parse() {
        Ok(f) => f,
        Err(e) => return usage(format!("--faults: {e}")),
    };
    let start = match start::by_name(&args.start) {
        Ok(p) => p,
        Err(e) => return usage(format!("--start: {e}")),
    };
    if args.new_link {
        outln!("--match {} --invite {}", MatchId::random(), InvitationSecret::random().to_hex().as_str());
        return ExitCode::SUCCESS;
    }
    if args.local {
        return local(&args, start, faults);
    }
    let me = match &args.key {
        Some(path) => match load_or_create_key(Path::new(path)) {
            Ok(k) => k,
            Err(e) => return usage(format!("--key {path}: {e}")),
        },
        None if args.print_identity => return usage("--print-identity needs --key FILE"),
        None => IdentityKey::random(),
    };
    if args.print_identity {
        outln!("identity {}", me.identity());
        return ExitCode::SUCCESS;
    }
    let Some(match_id) = args.match_id.as_deref() else {
        return usage("--match ID is required (or --local, --new-link, --print-identity)");
    };
    let match_id: MatchId = match match_id.parse() {
        Ok(m) => m,
        Err(e) => return usage(format!("--match: {e}")),
    };
    let color = match args.color.as_deref() {
        Some("white") => Color::White,
        Some("black") => Color::Black,
        Some(other) => return usage(format!("--color {other:?}: expected white or black")),
        None => return usage("--color white|black is required"),
    };
    let mut config = MatchConfig::new(match_id, color, start);
    if let Some(peer) = &args.peer {
        match peer.parse::<Identity>() {
            Ok(id) => config = config.pin_peer(id),
            Err(e) => return usage(format!("--peer: {e}")),
        }
    }
    if let Some(secret) = &args.invite {
        match secret.parse::<InvitationSecret>() {
            Ok(s) => config = config.invitation(s),
            Err(e) => return usage(format!("--invite: {e}")),
        }
    }
    if config.peer.is_none() && config.invitation.is_none() {
        return usage(
            "pin the peer with --peer IDENTITY or use the game link's --invite SECRET: otherwise the relay could play man in the middle",
        );
    }
    let target = match Target::from_url(&args.redis) {
        Ok(t) => t,
        Err(e) => return usage(format!("--redis {}: {e}", args.redis)),
    };
    let saved = match &args.state {
        Some(path) => match read_state(path) {
            Ok(saved) => saved,
            Err(e) => return usage(format!("--state {}: {e}", path.display())),
        },
        None => None,
    };
    let session = match (&saved, &args.state) {
        (Some(bytes), Some(path)) => match Session::resume(config, &me, bytes) {
            Ok(s) => s,
            Err(e) => return usage(format!("--state {}: {e}", path.display())),
        },
        _ => match Session::new(config, &me, EphemeralKey::random()) {
            Ok(s) => s,
            Err(e) => return usage(e),
        },
    };
    outln!("identity {}", me.identity());
    if saved.is_some() {
        outln!("resumed ply={}", session.ply());
        if let (Some(peer), Some(_)) = (session.peer_identity(), session.transcript_hash()) {
            outln!("established peer={peer} safety={}", safety(&session));
        }
    }
    let state = args.state.clone().map(|path| state_saver(path, saved));
    online(&args, session, target, state, faults)
}

/// The most a key file may hold: 64 hex digits and a line ending take 65 bytes or 66.
const MAX_KEY_FILE: usize = 1024;

fn load_or_create_key(path: &Path) -> Result<IdentityKey, String> {
    // Room for the cap read in place: no copy of the key is left behind by a reallocation.
    let mut read = Zeroizing::new(Vec::with_capacity(MAX_KEY_FILE + 1));
    match files::read_capped(path, MAX_KEY_FILE, &mut read) {
        Ok(()) => {
            let text = std::str::from_utf8(&read).map_err(|_| "expected 64 hex digits")?;
            return IdentityKey::from_hex(text).map_err(|e| e.to_string());
        }
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(format!("larger than {MAX_KEY_FILE} bytes: a key file holds 64 hex digits"));
        }
        Err(e) => return Err(e.to_string()),
    }
    let key = IdentityKey::random();
    // Through a dangling link, the file is created where the link points.
    let hex = key.to_hex();
    // Room for the line ending: no copy of the key is left behind by a reallocation.
    let mut text = Zeroizing::new(Vec::with_capacity(hex.as_str().len() + 1));
    text.extend_from_slice(hex.as_str().as_bytes());
    text.push(b'\n');
    files::create_secret(path, &text).map_err(|e| e.to_string())?;
    Ok(key)
}

/// The last line of every ending. `reason` replaces the session's own (for a lost relay, when the match
/// is neither over nor aborted).
fn final_line(s: &Session, reason: Option<&str>) -> String {
    let (score, own) = match s.result() {
        Some(r) => (r.score().to_string(), r.reason.name().to_string()),
        None => ("*".to_string(), "unfinished".to_string()),
    };
    format!(
        "final result={score} reason={} ply={} hash={:016x} fen={}",
        reason.unwrap_or(&own),
        s.ply(),
        s.position().hash(),
        s.position().fen()
    )
}

/// Reads the `--state` file, if it exists (at most the crate's limit is read, into a buffer allocated
/// once and wiped on drop). Warns when others than the owner may read or change the file.
fn read_state(path: &Path) -> Result<Option<Zeroizing<Vec<u8>>>, String> {
    let mut bytes = Zeroizing::new(Vec::with_capacity(MAX_STATE + 1));
    match files::read_capped(path, MAX_STATE, &mut bytes) {
        Ok(()) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) if e.kind() == std::io::ErrorKind::FileTooLarge => {
            return Err(format!("larger than {MAX_STATE} bytes, the limit of a session state"));
        }
        Err(e) => return Err(e.to_string()),
    }
    #[cfg(unix)]
    if let Ok(meta) = std::fs::metadata(path) {
        let mode = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o777;
        if mode & 0o077 != 0 {
            eprintln!(
                "online: warning: --state {}: mode {mode:03o}, others than its owner may read the match's keys (chmod 600 it)",
                path.display()
            );
        }
    }
    Ok(Some(bytes))
}

/// The `--state` file's saver: the session's state written atomically, readable by its owner only.
type Saver = StateSaver<Box<dyn FnMut(&[u8]) -> std::io::Result<()>>>;

fn state_saver(path: PathBuf, written: Option<Zeroizing<Vec<u8>>>) -> (PathBuf, Saver) {
    let target = path.clone();
    (path, StateSaver::new(Box::new(move |bytes: &[u8]| files::write_secret(&target, bytes)), written))
}

/// How a player's loop ended.
enum Ending {
    /// The match is over (or aborted by a check or by a player).
    Over,
    /// No progress for `--timeout` seconds: we aborted.
    NoProgress,
    /// The relay could not be reached for `--timeout` seconds.
    RelayLost,
    /// A local failure (the message counter's end).
    Failed(tesseract::wire::Error),
    /// The state file could not be written [`Saver::ATTEMPTS`] times in a row.
    Unsaved,
}

/// Who makes this player's moves.
enum Hands {
    /// The engine at a tier, or the seeded stand-in.
    Auto(AutoPlayer<BoxedMover>),
    /// A fixed line (`--script`).
    Script(ScriptedPlayer),
    /// A person at the terminal.
    Human(mpsc::Receiver<Line>),
}

/// How many dropped frames are reported one by one; after that, one line per hundred.
const DROPS_REPORTED: u64 = 10;

/// One player through Redis pub/sub: the session, the reconnecting relay, the outgoing fault injector and
/// the state file.
struct Player<'a> {
    args: &'a Args,
    session: Session,
    relay: RedisRelay,
    faults: FaultyRelay,
    state: Option<(PathBuf, Saver)>,
}

impl Player<'_> {
    /// Saves the state, then sends what the session queued (through the fault injector); returns
    /// whether a frame was sent. When the state cannot be saved nothing is sent: the frames stay queued
    /// until a later call saves it (the peer must never see a frame of a state that a restart would not
    /// resume). Frames sent while the relay is away are lost; the session keeps them for retransmission.
    fn flush(&mut self) -> bool {
        if let Some((path, saver)) = &mut self.state {
            let outcome = saver.save(&self.session);
            match &outcome {
                SaveOutcome::Saved { again: true } => eprintln!("online: --state {}: saved", path.display()),
                SaveOutcome::Failed { first: true, error } => {
                    eprintln!("online: --state {}: not saved: {error}; nothing is sent until it is", path.display())
                }
                _ => {}
            }
            if !outcome.is_saved() {
                return false;
            }
        }
        let peer = self.session.color().other();
        let mut sent = false;
        while let Some(frame) = self.session.poll_transmit() {
            sent = true;
            self.faults.send(peer, frame);
            while let Some(f) = self.faults.deliver(peer) {
                if let Err(e) = self.relay.publish(&f) {
                    if e != "not connected" {
                        eprintln!("online: relay lost: {e}; reconnecting");
                    }
                }
            }
        }
        sent
    }

    /// This player's move or answer, if it has one now; `prompted` says whether a person was already
    /// shown the board for this turn.
    fn act(&mut self, hands: &mut Hands, prompted: &mut bool) -> Result<(), tesseract::wire::Error> {
        let session = &mut self.session;
        match hands {
            Hands::Auto(player) => player.act(session).map(drop),
            Hands::Script(line) => line.act(session).map(drop),
            Hands::Human(rx) => {
                if matches!(session.action(), Action::Move | Action::AnswerDraw) && !*prompted {
                    // The board from this player's side (turned for Black).
                    outln!("{}", Diagram::new(session.position()).from_side(session.color()));
                    let offer =
                        if session.draw_offered() { " (the peer offers a draw: accept or decline)" } else { "" };
                    outln!("{} to play{offer}: a move, draw, claim, resign or abort", session.color());
                    *prompted = true;
                }
                match rx.try_recv() {
                    Ok(Line::Text(line)) => match human_command(session, line.trim()) {
                        Ok(()) => *prompted = false,
                        Err(e) => outln!("{e}"),
                    },
                    Ok(bad) => outln!("{}", bad.complaint(MAX_LINE).unwrap_or_default()),
                    Err(_) => {}
                }
                Ok(())
            }
        }
    }

    /// Hands what the relay delivered to the session and prints what happened. Returns whether it was
    /// progress: a new frame accepted (a dropped frame or a copy is not: PROTOCOL.md §6's silence).
    fn take(&mut self, event: RelayEvent, prompted: &mut bool) -> bool {
        let received = match event {
            RelayEvent::Connected { again } => {
                if again {
                    eprintln!("online: reconnected to the relay");
                }
                // Whatever was sent while the relay was away is lost: send it again.
                self.session.retransmit();
                return false;
            }
            RelayEvent::Unreachable(e) => {
                eprintln!("online: relay unreachable: {e}; retrying");
                return false;
            }
            RelayEvent::Lost(e) => {
                eprintln!("online: relay lost: {e}; reconnecting");
                return false;
            }
            RelayEvent::Frame(bytes) => self.session.receive(&bytes),
            RelayEvent::Oversize(len) => self.session.receive_oversize(len),
            _ => return false,
        };
        let quiet = self.args.quiet;
        let mut progress = false;
        match received {
            Ok(events) => {
                for e in events {
                    progress |= !matches!(e, Event::Duplicate | Event::Dropped { .. });
                    match e {
                        Event::Established { peer } => {
                            outln!("established peer={peer} safety={}", safety(&self.session));
                        }
                        Event::Moved { color, text, .. } if !quiet => {
                            outln!("move {} {} {text}", self.session.ply(), color);
                            *prompted = false;
                        }
                        Event::DrawOffered if !quiet => outln!("draw offered by the peer"),
                        Event::DrawDeclined if !quiet => outln!("draw declined by the peer"),
                        Event::GameOver(r) if !quiet => outln!("game over: {r}"),
                        Event::Dropped { error } => {
                            let n = self.session.dropped();
                            if n <= DROPS_REPORTED || n.is_multiple_of(100) {
                                eprintln!(
                                    "online: warning: dropped a frame that does not authenticate ({n} so far): {error}; someone other than the peer may be writing to this match, which cannot change it"
                                );
                            }
                        }
                        _ => {}
                    }
                }
            }
            Err(e) if self.session.phase() == Phase::Aborted => eprintln!("online: refused a frame: {e}"),
            Err(_) => {} // after the end: stray frames
        }
        progress
    }

    /// Plays until the match ends, the relay is lost or nothing moves for `--timeout` seconds.
    fn run(&mut self, mut hands: Hands) -> Ending {
        let args = self.args;
        let me = self.session.color();
        let retransmit = Duration::from_millis(args.retransmit_ms.max(1));
        let timeout = Duration::from_secs(args.timeout);
        let (mut last_progress, mut last_send) = (Instant::now(), Instant::now());
        let mut prompted = false;
        loop {
            // Local moves.
            let before = self.session.moves().len();
            if let Err(e) = self.act(&mut hands, &mut prompted) {
                return Ending::Failed(e);
            }
            if self.session.moves().len() > before {
                last_progress = Instant::now();
                if !args.quiet {
                    outln!("move {} {} {}", self.session.ply(), me, self.session.moves()[before]);
                }
            }
            if self.flush() {
                last_send = Instant::now();
            }
            if let Some((path, _)) = self.state.as_ref().filter(|(_, saver)| saver.given_up()) {
                eprintln!(
                    "online: --state {}: not saved after {} attempts: giving up (the file holds the last state saved)",
                    path.display(),
                    Saver::ATTEMPTS
                );
                return Ending::Unsaved;
            }
            if matches!(self.session.phase(), Phase::Closed(_) | Phase::Aborted) {
                // Linger: the peer may still need our last frames.
                for _ in 0..3 {
                    std::thread::sleep(Duration::from_millis(150));
                    self.session.retransmit();
                    self.flush();
                }
                return Ending::Over;
            }
            // Frames from the peer.
            let was_down = !self.relay.is_connected();
            if let Some(event) = self.relay.poll(Duration::from_millis(20)) {
                if self.take(event, &mut prompted) {
                    last_progress = Instant::now();
                }
            }
            if was_down && self.relay.is_connected() {
                // The outage is not the peer's silence.
                last_progress = Instant::now();
            }
            if last_send.elapsed() >= retransmit
                && last_progress.elapsed() >= retransmit
                && !self.session.unacknowledged().is_empty()
            {
                self.session.retransmit();
                last_send = Instant::now();
            }
            if args.timeout > 0 {
                if self.relay.unreachable_for().is_some_and(|t| t >= timeout) {
                    eprintln!("online: the relay was unreachable for {} s: giving up", args.timeout);
                    return Ending::RelayLost;
                }
                // A human may think for long: without --auto the timeout only covers the handshake.
                let human = matches!(hands, Hands::Human(_));
                if self.relay.is_connected()
                    && last_progress.elapsed() >= timeout
                    && (!human || self.session.phase() == Phase::Handshake)
                {
                    eprintln!("online: no progress for {} s: giving up", args.timeout);
                    return Ending::NoProgress;
                }
            }
        }
    }
}

/// What a line typed by a human player asks of the session.
fn human_command(session: &mut Session, line: &str) -> Result<(), tesseract::wire::Error> {
    match line {
        "draw" => session.offer_draw(),
        "accept" => session.accept_draw(),
        "decline" => session.decline_draw(),
        "resign" => session.resign(),
        "abort" => {
            session.abort();
            Ok(())
        }
        "claim" => match session.claimable() {
            Some(reason) => session.claim_draw(reason),
            None => Err(tesseract::wire::Error::NotNow("no draw to claim")),
        },
        "" => Ok(()),
        text => session.play_text(text),
    }
}

/// The start of the transcript hash, which both players see.
fn safety(s: &Session) -> String {
    let th = s.transcript_hash().unwrap_or_default();
    th[..8].iter().map(|b| format!("{b:02x}")).collect()
}

/// One player through Redis pub/sub; prints the final line in every ending.
fn online(args: &Args, session: Session, target: Target, state: Option<(PathBuf, Saver)>, faults: Faults) -> ExitCode {
    let hands = if let Some(line) = &args.script {
        Hands::Script(ScriptedPlayer::new(line.split_whitespace()))
    } else if args.auto {
        Hands::Auto(AutoPlayer::new(mover(args.tier, args.seed), args.cap))
    } else {
        let (tx, rx) = mpsc::channel::<Line>();
        std::thread::spawn(move || {
            let mut stdin = stdin_lines();
            while let Ok(Some(line)) = stdin.next_line() {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Hands::Human(rx)
    };
    let relay = RedisRelay::new(target, session.match_id(), session.color());
    let mut player = Player {
        args,
        session,
        relay,
        // Faults, if any, are committed on the way out, by the same relay the tests use.
        faults: FaultyRelay::new(args.seed ^ 0x5eed, faults),
        state,
    };
    let ending = player.run(hands);
    let session = &mut player.session;
    let reason = match ending {
        Ending::Over => {
            if let Some(e) = session.failure() {
                eprintln!("online: match aborted: {e}");
            }
            None
        }
        Ending::NoProgress => {
            session.abort();
            player.flush();
            None
        }
        // The session is neither over nor aborted: with --state, a restart resumes it.
        Ending::RelayLost => Some("relaylost"),
        // Nothing unsaved was sent: a restart with the same --state resumes from the last state saved.
        Ending::Unsaved => Some("unsaved"),
        Ending::Failed(e) => {
            eprintln!("online: {e}");
            player.flush();
            None
        }
    };
    let session = &player.session;
    outln!("{}", final_line(session, reason));
    let aborted = session.phase() == Phase::Aborted || session.result().is_none_or(|r| r.reason == EndReason::Aborted);
    if aborted { ExitCode::from(1) } else { ExitCode::SUCCESS }
}

/// Both players in one process through the fault-injecting in-memory relay.
fn local(args: &Args, start: Position, faults: Faults) -> ExitCode {
    let (alice, bob) = (IdentityKey::random(), IdentityKey::random());
    let id = MatchId::from_bytes([args.seed as u8; 16]);
    let config = |c: Color, peer: Identity| MatchConfig::new(id, c, start.clone()).pin_peer(peer);
    let (white, black) = match (
        Session::new(config(Color::White, bob.identity()), &alice, EphemeralKey::random()),
        Session::new(config(Color::Black, alice.identity()), &bob, EphemeralKey::random()),
    ) {
        (Ok(w), Ok(b)) => (w, b),
        (Err(e), _) | (_, Err(e)) => return usage(e),
    };
    let mut relay = FaultyRelay::new(args.seed, faults);
    let mut wp = AutoPlayer::new(mover(args.tier, args.seed), args.cap);
    let mut bp = AutoPlayer::new(mover(args.tier, args.seed.wrapping_add(1)), args.cap);
    let report = duel(white, black, &mut wp, &mut bp, &mut relay, 200_000);
    if !args.quiet {
        for line in &report.log {
            outln!("{line}");
        }
    }
    let mut counts = std::collections::BTreeMap::new();
    for (_, f) in &report.faults {
        *counts.entry(f.name()).or_insert(0) += 1;
    }
    let counts: Vec<String> = counts.iter().map(|(name, n)| format!("{name}={n}")).collect();
    outln!("faults committed by the relay: {}", counts.join(" "));
    for (c, side) in [("white", &report.white), ("black", &report.black)] {
        let result = side.result.map_or("none".to_string(), |r| r.to_string());
        match &side.failure {
            Some(e) => outln!("{c}: detected a fault and aborted: {e}"),
            None => outln!(
                "{c}: {result} after {} plies, hash {:016x}, {} frames dropped",
                side.moves.len(),
                side.hash,
                side.dropped
            ),
        }
    }
    let verdict = if !report.consistent() {
        "SILENT DISAGREEMENT (a bug)"
    } else if report.detected() {
        "a fault was detected and reported"
    } else if report.completed() {
        "completed: both boards agree"
    } else {
        "unfinished"
    };
    outln!("verdict: {verdict}");
    if report.consistent() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
