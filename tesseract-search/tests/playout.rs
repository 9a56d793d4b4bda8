//! The playouts: the same seed gives the same game, the statistics agree with the game replayed through
//! the checked path and recounted with the naive generator, the result is the final position's status,
//! the policies' text, and (with the features) JSON and CSV.

use tesseract_board::{Color, Position, start};
use tesseract_movegen::naive;
use tesseract_search::playout::{
    EndReason, GameResult, GameStats, Playout, Policy, PolicyError, game_seed, play_random,
};
use tesseract_search::{Game, Termination, Tier};

/// Replays the playout's game from its start through the checked path ([`Game::play`]) and recounts every
/// statistic, the legal moves with the naive generator (which shares no code with the fast one).
fn check_consistent(start: &Position, game: &Game, stats: &GameStats, max_plies: usize) {
    assert_eq!(stats.plies, game.moves().len());
    assert!(stats.plies <= max_plies);
    let mut replay = Game::new(start.clone(), game.seed());
    let (mut branching, mut max_branching, mut captures, mut promotions, mut checks) = (0usize, 0, 0, 0, 0);
    for &m in game.moves() {
        let setup = replay.position().to_setup();
        let legal = naive::legal_moves(&setup);
        assert!(legal.contains(&m));
        assert_eq!(replay.status(), None, "the game went on after it ended");
        branching += legal.len();
        max_branching = max_branching.max(legal.len());
        let pieces = |s: &tesseract_board::Setup| s.board.iter().flatten().count();
        captures += usize::from(pieces(&naive::play(&setup, m)) < pieces(&setup));
        promotions += usize::from(m.promotion.is_some());
        replay.play(m).expect("a legal move");
        checks += usize::from(replay.position().is_check());
    }
    assert_eq!(replay.position(), game.position());
    let mean = if stats.plies == 0 { 0.0 } else { branching as f64 / stats.plies as f64 };
    assert_eq!(stats.mean_branching, mean);
    assert_eq!(stats.max_branching, max_branching);
    assert_eq!((stats.captures, stats.promotions, stats.checks), (captures, promotions, checks));
    let count = |c: Color| replay.position().pieces().filter(|(_, p)| p.color == c).count();
    assert_eq!((stats.white_pieces, stats.black_pieces), (count(Color::White), count(Color::Black)));
    // The result and the reason are the final position's status (or the cap).
    match replay.status() {
        Some(end) => {
            assert_eq!(stats.reason, EndReason::from(end));
            assert_eq!(stats.result, GameResult::from_winner(end.winner()));
        }
        None => {
            assert_eq!(stats.reason, EndReason::PlyCap);
            assert_eq!(stats.plies, max_plies);
            assert_eq!(stats.result, GameResult::Draw);
        }
    }
    if stats.reason == EndReason::Rules(Termination::Checkmate) {
        // The mated side is to move.
        assert_eq!(stats.result.winner(), Some(replay.position().turn().other()));
    }
}

#[test]
fn random_games_are_consistent_and_end_by_the_rules() {
    let mut reasons = std::collections::BTreeSet::new();
    let starts = [
        start::tesseract(start::Army::Light),
        start::tesseract(start::Army::Standard),
        start::raumschach(),
        start::chess(),
        start::chess960(17).unwrap(),
    ];
    let mut playout = Playout::new(Policy::Random, Policy::Random);
    for (i, start) in starts.iter().enumerate() {
        for seed in 0..4 {
            let (game, stats) = playout.play_game(start, game_seed(i as u64, seed));
            check_consistent(start, &game, &stats, Playout::DEFAULT_MAX_PLIES);
            assert_eq!((stats.white, stats.black, stats.engine_nodes), (Policy::Random, Policy::Random, 0));
            reasons.insert(stats.reason);
        }
    }
    // Random games end by the rules, not by the generous default cap.
    assert!(!reasons.contains(&EndReason::PlyCap), "{reasons:?}");
    // A cap: the game stops there, a draw.
    let start = start::tesseract(start::Army::Dense);
    let mut capped = Playout::new(Policy::Random, Policy::Random).with_max_plies(37);
    let (game, stats) = capped.play_game(&start, 5);
    check_consistent(&start, &game, &stats, 37);
    assert_eq!((stats.plies, stats.reason, stats.result), (37, EndReason::PlyCap, GameResult::Draw));
    // A cap of 0: no move, no branching.
    let stats = play_random(&start, 5, 0);
    assert_eq!((stats.plies, stats.mean_branching, stats.max_branching), (0, 0.0, 0));
}

#[test]
fn the_same_seed_gives_the_same_game() {
    let start = start::tesseract(start::Army::Standard);
    let mut a = Playout::new(Policy::Random, Policy::Random).with_max_plies(300);
    let mut b = Playout::new(Policy::Random, Policy::Random).with_max_plies(300);
    let (ga, sa) = a.play_game(&start, 99);
    let (gb, sb) = b.play_game(&start, 99);
    assert_eq!(ga.moves(), gb.moves());
    assert_eq!(sa, sb);
    // A playout reused for other games still plays the same game for the same seed.
    let _ = a.play(&start, 100);
    assert_eq!(a.play(&start, 99), sa);
    assert_eq!(play_random(&start, 99, 300), sa);
    // Other seeds, other games.
    let others: Vec<Vec<_>> = (0..4).map(|s| a.play_game(&start, s).0.moves().to_vec()).collect();
    assert!(others.iter().all(|m| m != ga.moves()));
}

/// Pinned games: the same on every machine. These move when the fast generator's move order, the
/// seeding or the rules change; such a change must update them and say why.
#[test]
fn pinned_random_games() {
    // (start, plies, reason, captures, promotions, checks, mean branching), seed 1, all drawn.
    let cases = [
        ("standard", 1265, EndReason::Rules(Termination::FiftyMoves), 46, 13, 59, 239.6403162055336),
        ("raumschach", 487, EndReason::Rules(Termination::FiftyMoves), 30, 11, 34, 66.43121149897331),
        // Until FIDE's dead positions by material were a rule this game went on to the 50-move claim at
        // ply 651; the same moves reach a dead position (a minor piece against a king) at ply 551.
        ("classic", 551, EndReason::Rules(Termination::DeadDraw), 29, 2, 28, 22.406533575317603),
    ];
    for (name, plies, reason, captures, promotions, checks, branching) in cases {
        let s = play_random(&start::by_name(name).unwrap(), 1, Playout::DEFAULT_MAX_PLIES);
        assert_eq!(
            (s.plies, s.reason, s.result, s.captures, s.promotions, s.checks, s.mean_branching),
            (plies, reason, GameResult::Draw, captures, promotions, checks, branching),
            "{name}"
        );
    }
}

#[test]
fn engine_policies_play_deterministically() {
    let start = start::tesseract(start::Army::Light);
    for (white, black) in [
        (Policy::Tier(Tier::Beginner), Policy::Random),
        (Policy::Random, Policy::Nodes(300)),
        (Policy::Nodes(500), Policy::Tier(Tier::Beginner)),
    ] {
        let mut playout = Playout::new(white, black).with_max_plies(6);
        let (game, stats) = playout.play_game(&start, 11);
        check_consistent(&start, &game, &stats, 6);
        assert!(stats.engine_nodes > 0);
        assert_eq!((stats.white, stats.black), (white, black));
        let (again, again_stats) = Playout::new(white, black).with_max_plies(6).play_game(&start, 11);
        assert_eq!(again.moves(), game.moves(), "{white} vs {black}");
        assert_eq!(again_stats, stats);
    }
    // A tier's moves are the ones Game::think_unguarded chooses.
    let mut playout = Playout::new(Policy::Tier(Tier::Beginner), Policy::Tier(Tier::Beginner)).with_max_plies(3);
    let (game, _) = playout.play_game(&start, 4);
    let mut replay = Game::new(start.clone(), 4);
    let mut searcher = tesseract_search::Searcher::new(1);
    for &m in game.moves() {
        let best = replay.think_unguarded(&mut searcher, Tier::Beginner, |_| {}).best_move;
        assert_eq!(best, Some(m));
        replay.play(m).unwrap();
    }
}

/// Random opening plies: the first moves are those of random play from the same seed, then the engine's;
/// the same seed gives the same game, and the engine's games from one start differ by more than it alone.
#[test]
fn random_plies_open_the_engines_games() {
    let start = start::chess();
    let engine = Policy::Nodes(200);
    let play = |random: usize, seed: u64| {
        Playout::new(engine, engine).with_max_plies(12).with_random_plies(random).play_game(&start, seed)
    };
    for seed in 0..4 {
        let (game, stats) = play(4, seed);
        check_consistent(&start, &game, &stats, 12);
        let (random, _) = Playout::new(Policy::Random, Policy::Random).with_max_plies(4).play_game(&start, seed);
        assert_eq!(&game.moves()[..4], random.moves(), "seed {seed}");
        assert_eq!(play(4, seed).0.moves(), game.moves());
        assert!(stats.engine_nodes > 0);
    }
    let openings = |random: usize| {
        let mut firsts: Vec<_> = (0..8).map(|seed| play(random, seed).0.moves()[..4].to_vec()).collect();
        firsts.sort_by_key(|m| format!("{m:?}"));
        firsts.dedup();
        firsts.len()
    };
    assert!(openings(4) > openings(0), "{} {}", openings(4), openings(0));
}

#[test]
fn an_engine_mates_and_the_stats_say_so() {
    // White mates in one (Qh5-f7 style): the engine finds it, the game ends at once.
    let start = Position::from_fen("r1bqkb1r/pppp1ppp/2n2n2/4p2Q/2B1P3/8/PPPP1PPP/RNB1K1NR w KQkq - 4 4").unwrap();
    let stats = Playout::new(Policy::Nodes(20_000), Policy::Random).play(&start, 1);
    assert_eq!(
        (stats.plies, stats.reason, stats.result),
        (1, EndReason::Rules(Termination::Checkmate), GameResult::White)
    );
    assert_eq!((stats.captures, stats.checks, stats.black_pieces), (1, 1, 15));
    // A finished game plays no move.
    let mated = Position::from_fen("r1bqkb1r/pppp1Qpp/2n2n2/4p3/2B1P3/8/PPPP1PPP/RNB1K1NR b KQkq - 0 4").unwrap();
    let stats = play_random(&mated, 1, 100);
    assert_eq!(
        (stats.plies, stats.reason, stats.result),
        (0, EndReason::Rules(Termination::Checkmate), GameResult::White)
    );
    let kings = Position::from_fen("8/8/4k3/8/8/3K4/8/8 w - - 0 1").unwrap();
    assert_eq!(play_random(&kings, 1, 100).reason, EndReason::Rules(Termination::DeadDraw));
}

#[test]
fn policy_text() {
    for (text, policy) in [
        ("random", Policy::Random),
        ("beginner", Policy::Tier(Tier::Beginner)),
        ("master", Policy::Tier(Tier::Master)),
        ("nodes=1", Policy::Nodes(1)),
        ("nodes=1000000000", Policy::Nodes(1_000_000_000)),
    ] {
        assert_eq!(text.parse::<Policy>(), Ok(policy));
        assert_eq!(policy.to_string(), text);
    }
    for bad in ["", "Random", "human", "nodes=", "nodes=0", "nodes=1000000001", "nodes=-1", "nodes=+5", "nodes=1e3"] {
        let err = bad.parse::<Policy>().unwrap_err();
        let nodes = bad.starts_with("nodes=");
        assert_eq!(matches!(err, PolicyError::Nodes(_)), nodes, "{bad:?}: {err}");
    }
    assert_eq!(
        "bad\nname".parse::<Policy>().unwrap_err().to_string(),
        "unknown player \"bad\\nname\": expected random, beginner, club, expert, master or nodes=N"
    );
    assert_eq!(Policy::Random.table_mb(), 0);
    assert_eq!(Policy::Tier(Tier::Club).table_mb(), Tier::Club.settings().hash_mb);
    assert_eq!([1, 32_768, 32_769, 100_000, u64::MAX].map(|n| Policy::Nodes(n).table_mb()), [1, 1, 2, 4, 64]);
}

#[test]
fn game_seeds_are_splitmix64() {
    // SplitMix64 from state 1234567: its published first outputs.
    let expected = [6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423];
    for (i, &want) in expected.iter().enumerate() {
        assert_eq!(game_seed(1_234_567, i as u64), want);
    }
}

#[cfg(feature = "serde")]
#[test]
fn stats_round_trip_through_json() {
    let stats = Playout::new(Policy::Random, Policy::Nodes(50)).with_max_plies(4).play(&start::chess(), 3);
    let json = serde_json::to_string(&stats).unwrap();
    assert!(json.contains(r#""white":"random","black":"nodes=50""#), "{json}");
    assert!(json.contains(r#""result":"draw","reason":"ply_cap""#), "{json}");
    let back: GameStats = serde_json::from_str(&json).unwrap();
    assert_eq!(back, stats);
    assert!(serde_json::from_str::<Policy>(r#""nodes=0""#).is_err());
}

#[cfg(feature = "csv")]
#[test]
fn csv_rows_are_quoted_and_match_the_header() {
    use tesseract_search::playout::CsvWriter;
    let stats = play_random(&start::chess(), 8, 20);
    let mut csv = CsvWriter::new(Vec::new()).unwrap();
    csv.write("plain", 0, &stats).unwrap();
    csv.write("a \"quoted\", label\nwith a line break", 1, &stats).unwrap();
    let text = String::from_utf8(csv.into_inner().unwrap()).unwrap();
    let mut lines = text.split_terminator('\n');
    assert_eq!(lines.next().unwrap(), CsvWriter::<Vec<u8>>::HEADER.join(","));
    let row = lines.next().unwrap();
    assert_eq!(row.split(',').count(), CsvWriter::<Vec<u8>>::HEADER.len());
    assert!(row.starts_with(&format!("plain,0,8,random,random,{},draw,", stats.plies)), "{row}");
    assert!(row.contains(&format!(",{},", stats.mean_branching)), "{row}");
    assert!(text.contains("\n\"a \"\"quoted\"\", label\nwith a line break\",1,8,"), "{text}");
}
