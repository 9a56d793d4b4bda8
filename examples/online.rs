//! Plays a match online through Redis pub/sub, one process per player, with the authenticated protocol of
//! `tesseract-wire` (PROTOCOL.md); or both players in one process through a fault-injecting relay.
//!
//! ```text
//! # once per player: a long-term key, and the identity to give the peer
//! cargo run --release --example online -- --key alice.key --print-identity
//! # a game link: a match id and an invitation secret, to share privately
//! cargo run --release --example online -- --new-link
//! # each player, in their own terminal
//! cargo run --release --example online -- --redis redis://127.0.0.1:6379 --match ID --color white \
//!     --key alice.key --peer BOB_IDENTITY [--auto --seed 1]
//! cargo run --release --example online -- --redis redis://127.0.0.1:6379 --match ID --color black \
//!     --key bob.key --peer ALICE_IDENTITY [--auto --seed 2]
//! # both players in one process, through a relay that drops, duplicates, reorders, corrupts and injects
//! cargo run --release --example online -- --local --faults drop=100,dup=100,reorder=50,corrupt=10,inject=10 --seed 7
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
//! **Channels.** Each side publishes its frames on `tesseract-wire:<match>:<its colour>` and subscribes to
//! the peer's channel. A side retransmits its unacknowledged frames after `--retransmit-ms` of silence (a
//! Redis subscriber that was not yet listening misses what was published), and gives up after
//! `--timeout` seconds without progress (an automatic player at any time, a human only during the
//! handshake: a human opponent may think for long).
//!
//! **Automatic play.** `--auto` plays with the engine when `--tier beginner|club|expert|master` is given
//! (`tesseract_search`, plugged in through the `tesseract_wire::Mover` trait; its noise seeded by
//! `--seed`), otherwise with a deterministic seeded mover (a ChaCha-seeded choice among the legal moves,
//! preferring captures; `tesseract_wire::SeededMover`). `--local` plays both sides the same way. At
//! `--cap` plies (300 by default) the side to move offers a draw and an automatic peer accepts it: the
//! match then ends as a draw by agreement.
//!
//! **Human play.** Without `--auto`, type moves in the text of RULES.md §4 (`22132313`, `e2e4`), or
//! `draw`, `accept`, `decline`, `claim`, `resign`, `abort`. The board is printed as the board crate's text
//! picture; once the workspace's `play` example exists, its terminal board can take its place here.
//!
//! **Output.** `identity <hex>`, `established peer=<hex> safety=<hex>`, one line `move <ply> <colour>
//! <text>` per move (unless `--quiet`), and a last line `final result=<score> reason=<reason> ply=<n>
//! hash=<016x> fen=<fen>`. Exit code 0 when the match ended normally, 1 if it was aborted (a fault
//! detected: the reason is printed on stderr) or timed out, 2 for malformed arguments.

use std::io::{BufRead, Write};
use std::path::Path;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use clap::Parser;
use tesseract::board::{Color, Move, Position, start};
use tesseract::search::{Searcher, Tier};
use tesseract::wire::{
    Action, AutoPlayer, EndReason, EphemeralKey, Event, Faults, FaultyRelay, Identity, IdentityKey, InvitationSecret,
    MatchConfig, MatchId, Mover, Phase, SeededMover, Session, duel,
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
    /// This player's colour: white or black.
    #[arg(long)]
    color: Option<String>,
    /// The start position: light, standard, dense (4D), classic or chess960:N.
    #[arg(long, default_value = "standard")]
    start: String,
    /// This player's long-term key file (created if missing, readable by its owner only).
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
        println!("--match {} --invite {}", MatchId::random(), InvitationSecret::random().to_hex().as_str());
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
        println!("identity {}", me.identity());
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
    println!("identity {}", me.identity());
    let session = match Session::new(config, &me, EphemeralKey::random()) {
        Ok(s) => s,
        Err(e) => return usage(e),
    };
    match online(&args, session, faults) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("online: {e}");
            ExitCode::from(1)
        }
    }
}

fn load_or_create_key(path: &Path) -> Result<IdentityKey, String> {
    if path.exists() {
        let text = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
        let bytes: [u8; 32] = (0..32)
            .map(|i| text.trim().get(2 * i..2 * i + 2).and_then(|h| u8::from_str_radix(h, 16).ok()))
            .collect::<Option<Vec<u8>>>()
            .filter(|_| text.trim().len() == 64)
            .and_then(|v| v.try_into().ok())
            .ok_or("expected 64 hex digits")?;
        return IdentityKey::from_bytes(&bytes).map_err(|e| e.to_string());
    }
    let key = IdentityKey::random();
    let hex: String = key.to_bytes().iter().map(|b| format!("{b:02x}")).collect();
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path).map_err(|e| e.to_string())?;
    writeln!(file, "{hex}").map_err(|e| e.to_string())?;
    Ok(key)
}

fn final_line(s: &Session) -> String {
    let (score, reason) = match s.result() {
        Some(r) => {
            let text = r.to_string();
            (text.split(' ').next().unwrap_or("*").to_string(), format!("{:?}", r.reason).to_lowercase())
        }
        None => ("*".to_string(), "unfinished".to_string()),
    };
    format!(
        "final result={score} reason={reason} ply={} hash={:016x} fen={}",
        s.ply(),
        s.position().hash(),
        s.position().fen()
    )
}

fn colour_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// One player through Redis pub/sub.
fn online(args: &Args, mut session: Session, faults: Faults) -> Result<ExitCode, Box<dyn std::error::Error>> {
    let me = session.color();
    let channel = |c: Color| format!("tesseract-wire:{}:{}", session.match_id(), colour_name(c));
    let (mine, theirs) = (channel(me), channel(me.other()));
    let client = redis::Client::open(args.redis.as_str())?;
    let mut publisher = client.get_connection_with_timeout(Duration::from_secs(5))?;
    let mut subscriber = client.get_connection_with_timeout(Duration::from_secs(5))?;
    let mut pubsub = subscriber.as_pubsub();
    pubsub.subscribe(&theirs)?;
    pubsub.set_read_timeout(Some(Duration::from_millis(20)))?;
    // Faults, if any, are committed on the way out, by the same relay the tests use.
    let mut relay = FaultyRelay::new(args.seed ^ 0x5eed, faults);
    let mut publish = |frame: Vec<u8>, publisher: &mut redis::Connection| -> redis::RedisResult<()> {
        relay.send(me.other(), frame);
        while let Some(f) = relay.deliver(me.other()) {
            redis::cmd("PUBLISH").arg(&mine).arg(&f[..]).query::<i64>(publisher)?;
        }
        Ok(())
    };
    let mut player = AutoPlayer::new(mover(args.tier, args.seed), args.cap);
    let human = (!args.auto).then(|| {
        let (tx, rx) = mpsc::channel::<String>();
        std::thread::spawn(move || {
            for line in std::io::stdin().lock().lines().map_while(Result::ok) {
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        rx
    });
    let retransmit = Duration::from_millis(args.retransmit_ms.max(1));
    let timeout = Duration::from_secs(args.timeout);
    let (mut last_progress, mut last_send) = (Instant::now(), Instant::now());
    let mut prompted = false;
    loop {
        // Local moves.
        let before = session.moves().len();
        match &human {
            None => {
                player.act(&mut session)?;
            }
            Some(rx) => {
                if matches!(session.action(), Action::Move | Action::AnswerDraw) && !prompted {
                    println!("{}", session.position());
                    println!(
                        "{} to play{}: a move, draw, claim, resign or abort",
                        colour_name(me),
                        if session.draw_offered() { " (the peer offers a draw: accept or decline)" } else { "" }
                    );
                    prompted = true;
                }
                if let Ok(line) = rx.try_recv() {
                    let line = line.trim();
                    let r = match line {
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
                    };
                    match r {
                        Ok(()) => prompted = false,
                        Err(e) => println!("{e}"),
                    }
                }
            }
        }
        if session.moves().len() > before {
            last_progress = Instant::now();
            if !args.quiet {
                println!("move {} {} {}", session.ply(), colour_name(me), session.moves()[before]);
            }
        }
        while let Some(f) = session.poll_transmit() {
            publish(f, &mut publisher)?;
            last_send = Instant::now();
        }
        if matches!(session.phase(), Phase::Closed(_) | Phase::Aborted) {
            // Linger: the peer may still need our last frames.
            for _ in 0..3 {
                std::thread::sleep(Duration::from_millis(150));
                session.retransmit();
                while let Some(f) = session.poll_transmit() {
                    publish(f, &mut publisher)?;
                }
            }
            if let Some(e) = session.failure() {
                eprintln!("online: match aborted: {e}");
            }
            println!("{}", final_line(&session));
            return Ok(
                if session.phase() == Phase::Aborted || session.result().is_some_and(|r| r.reason == EndReason::Aborted)
                {
                    ExitCode::from(1)
                } else {
                    ExitCode::SUCCESS
                },
            );
        }
        // Frames from the peer.
        match pubsub.get_message() {
            Ok(msg) => {
                let bytes = msg.get_payload_bytes().to_vec();
                match session.receive(&bytes) {
                    Ok(events) => {
                        for e in events {
                            last_progress = Instant::now();
                            match e {
                                Event::Established { peer } => {
                                    let th = session.transcript_hash().unwrap_or_default();
                                    let safety: String = th[..8].iter().map(|b| format!("{b:02x}")).collect();
                                    println!("established peer={peer} safety={safety}");
                                }
                                Event::Moved { color, text, .. } if !args.quiet => {
                                    println!("move {} {} {text}", session.ply(), colour_name(color));
                                    prompted = false;
                                }
                                Event::DrawOffered if !args.quiet => println!("draw offered by the peer"),
                                Event::DrawDeclined if !args.quiet => println!("draw declined by the peer"),
                                Event::GameOver(r) if !args.quiet => println!("game over: {r}"),
                                _ => {}
                            }
                        }
                    }
                    Err(e) if session.phase() == Phase::Aborted => eprintln!("online: refused a frame: {e}"),
                    Err(_) => {} // after the end: stray frames
                }
            }
            Err(e) if e.is_timeout() => {}
            Err(e) => return Err(e.into()),
        }
        if last_send.elapsed() >= retransmit
            && last_progress.elapsed() >= retransmit
            && !session.unacknowledged().is_empty()
        {
            session.retransmit();
            last_send = Instant::now();
        }
        // A human may think for long: without --auto the timeout only covers the handshake.
        if args.timeout > 0 && last_progress.elapsed() >= timeout && (args.auto || session.phase() == Phase::Handshake)
        {
            eprintln!("online: no progress for {} s: giving up", args.timeout);
            session.abort();
            while let Some(f) = session.poll_transmit() {
                let _ = publish(f, &mut publisher);
            }
            println!("{}", final_line(&session));
            return Ok(ExitCode::from(1));
        }
    }
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
            println!("{line}");
        }
    }
    let mut counts = std::collections::BTreeMap::new();
    for (_, f) in &report.faults {
        let name = f.to_string();
        let name = name.split(' ').next().unwrap_or("").to_string();
        *counts.entry(name).or_insert(0) += 1;
    }
    println!("faults committed by the relay: {counts:?}");
    for (c, side) in [("white", &report.white), ("black", &report.black)] {
        let result = side.result.map_or("none".to_string(), |r| r.to_string());
        match &side.failure {
            Some(e) => println!("{c}: detected a fault and aborted: {e}"),
            None => println!("{c}: {result} after {} plies, hash {:016x}", side.moves.len(), side.hash),
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
    println!("verdict: {verdict}");
    if report.consistent() { ExitCode::SUCCESS } else { ExitCode::from(1) }
}
