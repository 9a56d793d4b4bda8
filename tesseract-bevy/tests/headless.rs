//! The plugin driven headless (`MinimalPlugins`, no window): engine games to their end, determinism,
//! people's moves and their rejection, and frames that go on while the engine thinks.

use std::time::{Duration, Instant};

use bevy::ecs::message::MessageCursor;
use bevy::prelude::*;
use tesseract_bevy::{
    ChessGame, EngineError, GameOver, MovePlayed, MoveRejected, PlayMove, Side, TesseractPlugin, Thinking,
};
use tesseract_board::{Color, Position, TextMove, start};
use tesseract_search::Game;

/// An app with the plugin, and cursors that see every message it writes.
struct Harness {
    app: App,
    played: MessageCursor<MovePlayed>,
    rejected: MessageCursor<MoveRejected>,
    over: MessageCursor<GameOver>,
    errors: MessageCursor<EngineError>,
    moves: Vec<MovePlayed>,
    rejections: Vec<MoveRejected>,
    ends: Vec<GameOver>,
}

impl Harness {
    fn new(plugin: TesseractPlugin) -> Harness {
        let mut app = App::new();
        app.add_plugins((MinimalPlugins, plugin));
        let world = app.world();
        Harness {
            played: world.resource::<Messages<MovePlayed>>().get_cursor(),
            rejected: world.resource::<Messages<MoveRejected>>().get_cursor(),
            over: world.resource::<Messages<GameOver>>().get_cursor(),
            errors: world.resource::<Messages<EngineError>>().get_cursor(),
            app,
            moves: Vec::new(),
            rejections: Vec::new(),
            ends: Vec::new(),
        }
    }

    /// One frame, then collects its messages (read every frame, so none is dropped).
    fn update(&mut self) {
        self.app.update();
        let world = self.app.world();
        self.moves.extend(self.played.read(world.resource::<Messages<MovePlayed>>()).cloned());
        self.rejections.extend(self.rejected.read(world.resource::<Messages<MoveRejected>>()).cloned());
        self.ends.extend(self.over.read(world.resource::<Messages<GameOver>>()).cloned());
        let errors: Vec<_> = self.errors.read(world.resource::<Messages<EngineError>>()).cloned().collect();
        assert!(errors.is_empty(), "engine errors: {errors:?}");
    }

    /// Frames until the game is over and a few more (to see that `GameOver` comes once), at most `frames`.
    fn run_to_end(&mut self, frames: usize) {
        for _ in 0..frames {
            self.update();
            if !self.ends.is_empty() {
                for _ in 0..5 {
                    self.update();
                }
                return;
            }
            std::thread::sleep(Duration::from_micros(200));
        }
        panic!("no game over within {frames} frames ({} moves played)", self.moves.len());
    }

    fn chess(&self) -> &ChessGame {
        self.app.world().resource::<ChessGame>()
    }

    fn send(&mut self, text: &str) {
        self.app.world_mut().write_message(PlayMove(text.to_string()));
    }
}

/// Replays the messages' moves from `start`, checking each was legal where it was played, with the
/// right text, side and number; returns the game.
fn replay(start: &Position, seed: u64, moves: &[MovePlayed]) -> Game {
    let mut game = Game::new(start.clone(), seed);
    for (i, played) in moves.iter().enumerate() {
        assert_eq!(played.ply, i + 1, "{played:?}");
        assert_eq!(played.by, game.position().turn(), "{played:?}");
        assert!(tesseract_movegen::legal_moves(game.position()).contains(&played.mv), "illegal: {played:?}");
        assert_eq!(played.text, TextMove::from_move(played.mv, game.position()).to_string());
        assert!(game.status().is_none(), "a move after the end: {played:?}");
        game.play(played.mv).unwrap();
    }
    game
}

fn engine_game(seed: u64, nodes: u64) -> Harness {
    let plugin = TesseractPlugin::new(start::chess())
        .with_seed(seed)
        .with_white(Side::EngineNodes(nodes))
        .with_black(Side::EngineNodes(nodes))
        .with_hash_mb(1);
    let mut harness = Harness::new(plugin);
    harness.run_to_end(200_000);
    harness
}

#[test]
fn an_engine_game_is_played_to_its_end_and_its_end_is_told_once() {
    let harness = engine_game(3, 1_000);
    let game = replay(&start::chess(), 3, &harness.moves);
    let end = game.status().expect("the replayed game is over");
    assert_eq!(harness.ends, vec![GameOver { end }], "one GameOver, the game's end");
    let chess = harness.chess();
    assert_eq!(chess.status(), Some(end));
    assert_eq!(chess.moves(), game.moves(), "the resource holds the moves of the messages");
    assert!(harness.rejections.is_empty());
    let thinking = harness.app.world().resource::<Thinking>();
    assert_eq!((thinking.color, &thinking.best), (None, &None), "no search after the end");
    assert!(thinking.last.as_ref().is_some_and(|last| last.best_move == *game.moves().last().unwrap()));
}

#[test]
fn a_node_budget_plays_the_same_game_twice() {
    let first = engine_game(11, 600);
    let second = engine_game(11, 600);
    assert!(first.moves.len() > 1);
    assert_eq!(first.moves, second.moves);
    assert_eq!(first.ends, second.ends);
    // Another seed breaks ties otherwise: the game changes (a check that the seed reaches the engine).
    let other = engine_game(12, 600);
    assert_ne!(first.moves, other.moves);
}

#[test]
fn people_play_by_messages_and_a_bad_move_changes_nothing() {
    let mut h = Harness::new(TesseractPlugin::new(start::chess()));
    h.send("f2f3");
    h.update();
    assert_eq!(h.moves.len(), 1);
    assert_eq!((h.moves[0].text.as_str(), h.moves[0].by, h.moves[0].ply), ("f2f3", Color::White, 1));

    // Not legal, not a move, the other side's pawn: rejected, and the game is as it was.
    let before = h.chess().game().clone();
    for bad in ["e2e4", "e7e4", "hello", "", "e7e5e5e5", "z9z9"] {
        h.send(bad);
        h.update();
        let rejection = h.rejections.last().expect("a rejection");
        assert_eq!(rejection.text, bad);
        assert!(!rejection.reason.is_empty());
        assert_eq!(h.chess().game(), &before, "{bad} changed the game");
    }
    assert_eq!((h.moves.len(), h.rejections.len()), (1, 6));

    // Several moves in one frame are played in order; the fool's mate ends the game.
    for text in ["e7e5", "g2g4", "d8h4"] {
        h.send(text);
    }
    h.update();
    let texts: Vec<_> = h.moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(texts, ["f2f3", "e7e5", "g2g4", "d8h4"]);
    let end = h.chess().status().expect("mate");
    assert_eq!(end.winner(), Some(Color::Black));
    assert_eq!(h.ends, vec![GameOver { end }]);

    // After the end, a move is rejected, and the end is not told again.
    h.send("a2a3");
    h.update();
    h.update();
    assert!(h.rejections.last().unwrap().reason.contains("over"));
    assert_eq!((h.moves.len(), h.ends.len()), (4, 1));

    // A new game plays again, and tells its own end.
    h.app.world_mut().resource_mut::<ChessGame>().restart(start::chess(), 0);
    for text in ["f2f3", "e7e5", "g2g4", "d8h4"] {
        h.send(text);
    }
    h.update();
    assert_eq!((h.moves.len(), h.ends.len()), (8, 2));
}

#[test]
fn a_person_against_the_engine_waits_for_its_turn() {
    let plugin = TesseractPlugin::new(start::chess()).with_seed(5).with_black(Side::EngineNodes(500)).with_hash_mb(1);
    let mut h = Harness::new(plugin);
    h.send("e2e4");
    // The engine's move comes some frames later; meanwhile a person's Black move is refused.
    h.send("e7e5");
    h.update();
    // The engine starts in the same frame; on a busy machine its 500 nodes may even be done and played.
    assert!((1..=2).contains(&h.moves.len()), "{:?}", h.moves);
    assert!(h.rejections[0].reason.contains("engine"), "{:?}", h.rejections);
    for _ in 0..10_000 {
        if h.moves.len() == 2 {
            break;
        }
        h.update();
        std::thread::sleep(Duration::from_micros(200));
    }
    assert_eq!(h.moves.len(), 2, "the engine answered");
    assert_eq!(h.moves[1].by, Color::Black);
    h.send("d2d4");
    h.update();
    assert_eq!(h.moves.len(), 3);
    replay(&start::chess(), 5, &h.moves);
}

#[test]
fn frames_go_on_while_the_engine_thinks_and_dropping_the_app_stops_it() {
    // An unreachable node budget on the 4D board: the search would run for hours.
    let plugin = TesseractPlugin::new(start::tesseract(start::Army::Standard))
        .with_white(Side::EngineNodes(u64::MAX))
        .with_hash_mb(1);
    let mut h = Harness::new(plugin);
    let started = Instant::now();
    let mut frames = 0u64;
    let mut slowest = Duration::ZERO;
    // Frames until the engine has a first line (depth 1 of 226 moves), at least 50 of them.
    loop {
        let frame = Instant::now();
        h.update();
        slowest = slowest.max(frame.elapsed());
        frames += 1;
        let thinking = h.app.world().resource::<Thinking>();
        assert_eq!(thinking.color, Some(Color::White), "the engine thinks for White");
        assert_eq!(thinking.frames, frames, "every frame looked at the search");
        if frames >= 50 && thinking.best.is_some() {
            break;
        }
        assert!(started.elapsed() < Duration::from_secs(120), "no line after {frames} frames");
        std::thread::sleep(Duration::from_millis(1));
    }
    let best = h.app.world().resource::<Thinking>().best.clone().unwrap();
    assert!(best.depth >= 1 && !best.is_final() && best.pv.first() == Some(&best.best_move));
    assert!(h.moves.is_empty(), "no move while thinking");
    // A frame only looks: far quicker than any search of this budget (generous for a loaded machine).
    assert!(slowest < Duration::from_secs(1), "a frame took {slowest:?}");
    // Dropping the app stops and joins the search thread. A drop that did not stop it would never return:
    // a watchdog then ends the test process with a failure instead of letting it hang.
    let (dropped, watched) = std::sync::mpsc::channel::<()>();
    std::thread::spawn(move || {
        if watched.recv_timeout(Duration::from_secs(60)).is_err() {
            eprintln!("dropping the app did not stop the engine's search within 60 s");
            std::process::exit(1);
        }
    });
    drop(h);
    let _ = dropped.send(());
}

#[test]
fn a_side_that_stops_being_the_engine_stops_its_search() {
    let plugin = TesseractPlugin::new(start::tesseract(start::Army::Standard))
        .with_white(Side::EngineNodes(u64::MAX))
        .with_hash_mb(1);
    let mut h = Harness::new(plugin);
    h.update();
    assert_eq!(h.app.world().resource::<Thinking>().color, Some(Color::White));
    h.app.world_mut().resource_mut::<ChessGame>().set_side(Color::White, Side::Human);
    h.update();
    assert_eq!(h.app.world().resource::<Thinking>().color, None);
    assert!(h.moves.is_empty());
    // Now a person plays White.
    let text = TextMove::from_move(tesseract_movegen::legal_moves(h.chess().position())[0], h.chess().position());
    h.send(&text.to_string());
    h.update();
    assert_eq!(h.moves.len(), 1);
}

#[test]
fn an_engine_without_its_table_says_so_once_and_changes_nothing() {
    let plugin = TesseractPlugin::new(start::chess()).with_white(Side::EngineNodes(100)).with_hash_mb(usize::MAX);
    let mut app = App::new();
    app.add_plugins((MinimalPlugins, plugin));
    let mut errors = app.world().resource::<Messages<EngineError>>().get_cursor();
    let mut seen = Vec::new();
    // The table is allocated on the search thread, so its failure shows some frames later: frames until
    // an error comes (or 10 s), then 20 more, in which no second error may come.
    let mut frames = |app: &mut App, seen: &mut Vec<EngineError>| {
        let before = seen.len();
        let started = std::time::Instant::now();
        let mut after = 0;
        while after < 20 {
            app.update();
            seen.extend(errors.read(app.world().resource::<Messages<EngineError>>()).cloned());
            if seen.len() > before || started.elapsed() > Duration::from_secs(10) {
                after += 1;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
    };
    frames(&mut app, &mut seen);
    assert_eq!(seen.len(), 1, "{seen:?}");
    assert!(seen[0].reason.contains("table"), "{seen:?}");
    assert!(app.world().resource::<ChessGame>().moves().is_empty());
    assert_eq!(app.world().resource::<Thinking>().color, None);
    // A change of the game's players is a new try, which fails the same way.
    app.world_mut().resource_mut::<ChessGame>().set_side(Color::White, Side::EngineNodes(200));
    frames(&mut app, &mut seen);
    assert_eq!(seen.len(), 2, "{seen:?}");
}
