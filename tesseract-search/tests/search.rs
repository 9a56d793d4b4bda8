//! The search: mates, draws by the rules, limits, determinism, the stop flag and the tiers.

use std::sync::atomic::Ordering;
use std::time::Duration;

use tesseract_board::{CastlingMode, Color, Piece, Position, Role, Setup, Shape, TextMove, start};
use tesseract_movegen::Legal;
use tesseract_search::{Limits, MATE, Options, Score, Searcher, StopReason, Tier};

fn search(fen: &str, depth: u32, history: &[u64]) -> (tesseract_search::SearchResult, Position) {
    let pos = Position::from_fen(fen).expect("valid position");
    let mut searcher = Searcher::new(4);
    let limits = Limits { depth: Some(depth), ..Limits::default() };
    (searcher.search(&pos, history, &limits, &Options::default(), |_| {}), pos)
}

fn best_text(result: &tesseract_search::SearchResult, pos: &Position) -> String {
    TextMove::from_move(result.best_move.expect("a best move"), pos).to_string()
}

#[test]
fn mate_in_one_2d() {
    let (r, pos) = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", 3, &[]);
    assert_eq!(best_text(&r, &pos), "a1a8");
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn mate_in_two_2d() {
    // 1. Qd8+ Bxd8 2. Re8#.
    let (r, pos) = search("r1b2k1r/ppp1bppp/8/1B1Q4/5q2/2P5/PPP2PPP/R3R1K1 w - - 1 1", 5, &[]);
    assert_eq!(best_text(&r, &pos), "d5d8");
    assert_eq!(r.score, Score::Mate(2));
}

#[test]
fn mate_in_one_4d() {
    // Black king in the corner (1,1,1,1); a white queen and rook; exactly one move mates.
    let fen = "4K/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/2R2//5/5/5/2Q2/k4 w - - 0 1";
    let (r, pos) = search(fen, 2, &[]);
    assert_eq!(r.score, Score::Mate(1));
    let mut after = pos.clone();
    after.play(r.best_move.unwrap()).unwrap();
    assert!(matches!(after.outcome(), Some(tesseract_movegen::Outcome::Checkmate { .. })));
}

#[test]
fn no_legal_move() {
    // Checkmated, and stalemated: no best move.
    let (r, _) = search("R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1", 4, &[]);
    assert_eq!(r.best_move, None);
    assert_eq!(r.stop, StopReason::Forced);
    let (r, _) = search("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", 4, &[]);
    assert_eq!(r.best_move, None);
    assert_eq!(r.score, Score::Cp(0));
}

#[test]
fn fifty_move_rule() {
    // A queen up, but the next quiet move is the 100th ply without a capture or pawn move: a draw.
    // At every depth, the horizon included.
    for depth in 1..=4 {
        let (r, _) = search("8/8/8/4k3/8/8/8/1Q2K3 w - - 99 80", depth, &[]);
        assert_eq!(r.score, Score::Cp(0), "depth {depth}");
    }
    // A mate on that ply still counts.
    let (r, _) = search("6k1/5ppp/8/8/8/8/8/R5K1 w - - 99 80", 3, &[]);
    assert_eq!(r.score, Score::Mate(1));
}

#[test]
fn repetition_is_a_draw() {
    // Black, a queen down, can repeat the position: Kh8-g8 brings back a position of the game.
    let start = "7k/8/8/8/8/8/8/1Q2K3 b - - 10 20";
    let mut pos = Position::from_fen(start).unwrap();
    let mut history = Vec::new();
    for m in ["h8g8", "b1c1", "g8h8", "c1b1"] {
        history.push(pos.hash());
        let mv = pos.parse_move(m).unwrap();
        pos.play(mv).unwrap();
    }
    assert_eq!(pos.hash(), Position::from_fen(start).unwrap().hash());
    // At every depth, the horizon included (the repeating move leads straight into quiescence at depth 1).
    for depth in [1, 2, 6] {
        let (r, p) = search(&pos.fen(), depth, &history);
        assert_eq!(r.score, Score::Cp(0), "depth {depth}");
        assert_eq!(best_text(&r, &p), "h8g8", "depth {depth}");
    }
    let (r, _) = search(&pos.fen(), 6, &[]);
    assert!(matches!(r.score, Score::Cp(v) if v < -500) || matches!(r.score, Score::Mate(m) if m < 0), "{:?}", r.score);
}

#[test]
fn takes_a_hanging_queen_in_4d() {
    let mut setup = Setup::empty(Shape::TESSERACT);
    setup.put(&[1, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
    setup.put(&[5, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
    setup.put(&[2, 2, 2, 2], Some(Piece::new(Color::White, Role::Knight)));
    setup.put(&[4, 3, 2, 2], Some(Piece::new(Color::Black, Role::Queen)));
    let pos = Position::from_setup(setup.clone(), CastlingMode::Standard).unwrap();
    let (r, after) = search(&pos.fen(), 3, &[]);
    assert_eq!(best_text(&r, &after), "22224322");
    // The knight left alone against a king cannot mate on 5⁴ (the endgame tables find no mate at all): the
    // capture saves the game, and the game is a draw.
    assert_eq!(r.score, Score::Cp(0));
    // With a pawn besides, the capture wins.
    setup.put(&[3, 2, 1, 1], Some(Piece::new(Color::White, Role::YPawn)));
    let pos = Position::from_setup(setup, CastlingMode::Standard).unwrap();
    let (r, after) = search(&pos.fen(), 3, &[]);
    assert_eq!(best_text(&r, &after), "22224322");
    assert!(r.score.value() > 300, "{:?}", r.score);
}

#[test]
fn node_limit_and_determinism() {
    let pos = start::tesseract(start::Army::Light);
    let limits = Limits { nodes: Some(5_000), ..Limits::default() };
    let options = Options { seed: 9, noise: 30, ..Options::default() };
    let mut a = Searcher::new(2);
    let ra = a.search(&pos, &[], &limits, &options, |_| {});
    assert_eq!(ra.stop, StopReason::Nodes);
    assert_eq!(ra.nodes, 5_000);
    let mut b = Searcher::new(2);
    let rb = b.search(&pos, &[], &limits, &options, |_| {});
    assert_eq!(ra, rb);
    // The same searcher, cleared, repeats itself too.
    a.clear();
    assert_eq!(a.search(&pos, &[], &limits, &options, |_| {}), ra);
}

#[test]
fn soft_limit_and_iterations() {
    let pos = start::chess();
    let limits = Limits { soft_nodes: Some(2_000), ..Limits::default() };
    let mut searcher = Searcher::new(1);
    let mut depths = Vec::new();
    let r = searcher.search(&pos, &[], &limits, &Options::default(), |info| {
        depths.push(info.depth);
        assert!(!info.pv.is_empty());
        assert!(info.nodes > 0 && info.depth >= 1);
    });
    assert_eq!(r.stop, StopReason::SoftNodes);
    assert_eq!(depths, (1..=r.depth).collect::<Vec<_>>());
    assert_eq!(r.pv.first(), r.best_move.as_ref());
    // Every PV is a line of legal moves.
    let mut p = pos.clone();
    for &m in &r.pv {
        p.play(m).expect("a legal PV move");
    }
}

/// A paced soft limit is the soft limit times `Stability`'s factor of the iterations finished so far:
/// here the stop is worked out from the iterations of a search that is not stopped (the same iterations,
/// since a soft limit only decides whether the next one starts) and compared with the paced search's.
#[test]
fn a_paced_soft_limit_follows_the_iterations() {
    let soft = 20_000;
    let mut differs = false;
    for pos in [
        start::chess(),
        "r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP3PPP/R2QKB1R w KQ - 0 9".parse().unwrap(),
        "8/5pk1/6p1/3P4/2K5/8/5PPP/8 w - - 0 40".parse().unwrap(),
        start::tesseract(start::Army::Light),
    ] {
        let options = Options::default();
        let mut iterations = Vec::new();
        Searcher::new(4).search(&pos, &[], &Limits { nodes: Some(10 * soft), ..Limits::default() }, &options, |i| {
            iterations.push((i.depth, i.nodes, i.pv.first().copied(), i.score));
        });
        let mut stability = tesseract_search::Stability::default();
        let mut expected = None;
        for &(depth, nodes, best, score) in &iterations {
            stability.update(best, score);
            if nodes >= soft * u64::from(stability.soft_permille()) / 1000 {
                expected = Some((depth, nodes));
                break;
            }
        }
        let (depth, nodes) = expected.expect("the unstopped search goes past every paced limit");
        let paced = Limits { soft_nodes: Some(soft), paced: true, ..Limits::default() };
        let r = Searcher::new(4).search(&pos, &[], &paced, &options, |_| {});
        assert_eq!((r.stop, r.depth, r.nodes), (StopReason::SoftNodes, depth, nodes), "{pos}");
        let plain = Searcher::new(4).search(&pos, &[], &Limits { paced: false, ..paced }, &options, |_| {});
        differs |= plain.depth != r.depth;
    }
    assert!(differs, "pacing changed no search here");
}

#[test]
fn stop_flag_and_time_guard() {
    let pos = start::tesseract(start::Army::Standard);
    let mut searcher = Searcher::new(1);
    let flag = searcher.stop_flag();
    let handle = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        flag.store(true, Ordering::Relaxed);
    });
    let r = searcher.search(&pos, &[], &Limits::default(), &Options::default(), |_| {});
    handle.join().unwrap();
    assert_eq!(r.stop, StopReason::Stopped);
    assert!(r.best_move.is_some());
    let limits = Limits { time: Some(Duration::from_millis(50)), ..Limits::default() };
    let r = searcher.search(&pos, &[], &limits, &Options::default(), |_| {});
    assert_eq!(r.stop, StopReason::Time);
}

#[test]
fn scores() {
    assert_eq!(Score::from_value(MATE - 1), Score::Mate(1));
    assert_eq!(Score::from_value(MATE - 3), Score::Mate(2));
    assert_eq!(Score::from_value(-MATE + 2), Score::Mate(-1));
    assert_eq!(Score::from_value(57), Score::Cp(57));
    assert_eq!(Score::Mate(2).to_string(), "mate 2");
    assert_eq!(Score::Cp(-12).to_string(), "cp -12");
    for v in [MATE - 1, MATE - 4, -MATE + 2, -MATE + 6] {
        assert_eq!(Score::from_value(v).value(), Score::from_value(Score::from_value(v).value()).value());
    }
}

#[test]
fn mate_scores_through_the_table() {
    // A mate in three found by a search that reuses its table between iterations (and between two
    // searches of the same position): the stored mate distances are relative to the node, so the
    // second search, from a full table, reports the same distance and a line that mates.
    let pos = Position::from_fen("8/8/8/8/2k5/8/7q/K7 b - - 0 1").unwrap();
    let mut searcher = Searcher::new(4);
    let limits = Limits { depth: Some(9), ..Limits::default() };
    let first = searcher.search(&pos, &[], &limits, &Options::default(), |_| {});
    let again = searcher.search(&pos, &[], &limits, &Options::default(), |_| {});
    assert!(matches!(first.score, Score::Mate(m) if m > 0), "{:?}", first.score);
    assert_eq!(again.score, first.score);
    let Score::Mate(m) = again.score else { unreachable!() };
    let mut p = pos.clone();
    for &mv in again.pv.iter().take(2 * m as usize - 1) {
        p.play(mv).unwrap();
    }
    assert!(matches!(p.outcome(), Some(tesseract_movegen::Outcome::Checkmate { .. })), "{}", p.fen());
}

#[test]
fn tiers_grow() {
    for shape in [Shape::CHESS, Shape::TESSERACT] {
        for pair in Tier::ALL.windows(2) {
            let (a, b) = (pair[0].settings_on(shape), pair[1].settings_on(shape));
            assert!(a.nodes < b.nodes && a.soft_nodes < b.soft_nodes && a.hash_mb <= b.hash_mb && a.noise >= b.noise);
            assert!(a.depth <= b.depth && a.soft_nodes < a.nodes, "{shape:?} {pair:?}");
        }
    }
    assert_eq!(Tier::Master.settings().hash_mb, 16);
    assert_eq!("expert".parse::<Tier>(), Ok(Tier::Expert));
    assert!("grandmaster".parse::<Tier>().is_err());
}

#[test]
fn searches_random_positions() {
    use rand_chacha::ChaCha8Rng;
    use rand_core::{Rng, SeedableRng};
    // Positions from seeded random play, deep enough for promotions, en passant and bare kings; each
    // searched under a small node budget (debug builds check the position after every make and unmake).
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    let mut searcher = Searcher::new(1);
    let mut searched = 0;
    for start in [
        start::tesseract(start::Army::Light),
        start::tesseract(start::Army::Dense),
        start::chess(),
        start::chess960(311).unwrap(),
    ] {
        for _ in 0..12 {
            let mut pos = start.clone();
            let plies = 20 + rng.next_u32() as usize % 180;
            for _ in 0..plies {
                let moves = tesseract_movegen::legal_moves(&pos);
                if moves.is_empty() || pos.is_kings_only() {
                    break;
                }
                pos.make(moves[(rng.next_u64() % moves.len() as u64) as usize]);
            }
            let limits = Limits { nodes: Some(1_500), ..Limits::default() };
            let options = Options { seed: rng.next_u64(), noise: 20, ..Options::default() };
            let r = searcher.search(&pos, &[], &limits, &options, |_| {});
            match r.best_move {
                Some(m) => assert!(pos.is_legal(m), "{}", pos.fen()),
                None => assert!(tesseract_movegen::legal_moves(&pos).is_empty()),
            }
            searched += 1;
        }
    }
    assert_eq!(searched, 48);
}

/// `Limits::root_moves` (UCI's `go searchmoves`): the best move is one of the list, even when a mate is
/// left out; a list of every legal move is the search without one (same moves, nodes and score); a list
/// with no legal move searches them all; one move alone is searched, not answered at once.
#[test]
fn root_moves_restrict_the_search() {
    let fen = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1";
    let pos = Position::from_fen(fen).unwrap();
    let m = |t: &str| pos.parse_move(t).unwrap();
    let run = |root_moves: Option<Vec<tesseract_board::Move>>| {
        let limits = Limits { depth: Some(4), root_moves, ..Limits::default() };
        Searcher::new(2).search(&pos, &[], &limits, &Options::default(), |_| {})
    };
    let free = run(None);
    assert_eq!(free.best_move, Some(m("a1a8")));
    let kept = run(Some(vec![m("a1a2"), m("g1f1")]));
    assert!([m("a1a2"), m("g1f1")].contains(&kept.best_move.unwrap()), "{kept:?}");
    assert!(matches!(kept.score, Score::Cp(_)), "no mate without a1a8: {kept:?}");
    let all: Vec<_> = tesseract_movegen::legal_moves(&pos).into_iter().collect();
    assert_eq!(run(Some(all)), free);
    assert_eq!(run(Some(vec![m("a1a8"), m("g1f1")])).best_move, Some(m("a1a8")));
    let black = Position::from_fen("6k1/5ppp/8/8/8/8/8/R5K1 b - - 0 1").unwrap();
    let illegal = vec![m("a1a8")];
    let limits = Limits { depth: Some(3), root_moves: Some(illegal), ..Limits::default() };
    let r = Searcher::new(2).search(&black, &[], &limits, &Options::default(), |_| {});
    assert!(black.is_legal(r.best_move.unwrap()), "an illegal list searches every move");
    let one = run(Some(vec![m("g1f1")]));
    assert_eq!(one.best_move, Some(m("g1f1")));
    assert_ne!(one.stop, StopReason::Forced);
    assert!(one.depth >= 1 && one.nodes > 0, "{one:?}");
}

/// Each tier's depth cap, soft and hard nodes and noise on a board of this shape, weakest first.
fn budgets(shape: Shape) -> Vec<(u32, u64, u64, i32)> {
    Tier::ALL.iter().map(|t| t.settings_on(shape)).map(|s| (s.depth, s.soft_nodes, s.nodes, s.noise)).collect()
}

#[test]
fn each_board_has_its_tiers() {
    // 4D (and boards of three axes) keep the write-up's budgets, pinned here: the replay record and the
    // 4D ladder were played with them.
    assert_eq!(
        budgets(Shape::TESSERACT),
        [(4, 10_000, 30_000, 150), (8, 15_000, 40_000, 12), (20, 60_000, 150_000, 0), (40, 300_000, 1_400_000, 0)]
    );
    for t in Tier::ALL {
        assert_eq!(t.settings_on(Shape::TESSERACT), t.settings());
        assert_eq!(t.settings_on(Shape::new(3, 4).unwrap()), t.settings());
        assert_eq!(t.budget(), t.settings().budget());
        assert_eq!(t.limits(), Limits { time: Some(t.settings().time_guard), ..t.budget() });
    }
    // Chess: the three lower tiers held far below a blitz clock, the master as in 4D.
    assert_eq!(
        budgets(Shape::CHESS),
        [(3, 1_000, 3_000, 150), (8, 1_500, 5_000, 12), (40, 6_000, 20_000, 0), (40, 300_000, 1_400_000, 0)]
    );
    // No tier paces its soft limit by the iterations (tesseract-search's README, "A paced soft node limit
    // (2D), tried"); a tier's settings paced give a paced budget.
    for shape in [Shape::CHESS, Shape::TESSERACT] {
        assert!(Tier::ALL.iter().all(|t| !t.settings_on(shape).paced && !t.settings_on(shape).budget().paced));
    }
    let paced = tesseract_search::TierSettings { paced: true, ..Tier::Master.settings_on(Shape::CHESS) };
    assert_eq!(paced.budget(), Limits { paced: true, ..Tier::Master.settings_on(Shape::CHESS).budget() });
    // A game's engine move uses its board's budget: the expert from the chess start stops within 20,000
    // nodes (with 4D's budget it would go on to the soft limit of 60,000).
    let mut searcher = Searcher::new(1);
    let game = tesseract_search::Game::new(start::chess(), 3);
    let r = game.think_unguarded(&mut searcher, Tier::Expert, |_| {});
    assert!(r.nodes <= 20_000 && r.stop != StopReason::Time, "{r:?}");
    assert_eq!(r, game.think(&mut searcher, Tier::Expert, |_| {}));
    let mut unbounded = Searcher::new(Tier::Expert.settings().hash_mb);
    let four_d_budget =
        unbounded.search(game.position(), &[], &Tier::Expert.budget(), &Tier::Expert.options(3), |_| {});
    assert!(four_d_budget.nodes > 20_000, "{four_d_budget:?}");
}

/// Static-exchange pruning and continuation history change the 2D search and leave the 4D one as it was
/// (they are 2D only, whatever their switches).
#[test]
fn exchange_pruning_and_continuation_history_are_2d_only() {
    let nodes_to_depth = |pos: &Position, depth: u32, see: bool, cont: bool| {
        let mut options = Options::default();
        options.features.see_pruning = see;
        options.features.continuation_history = cont;
        let limits = Limits { depth: Some(depth), ..Limits::default() };
        Searcher::new(4).search(pos, &[], &limits, &options, |_| {}).nodes
    };
    let chess = Position::from_fen("r1bq1rk1/pp2bppp/2n1pn2/3p4/2PP4/2N1PN2/PP2BPPP/R2QK2R w KQ - 0 9")
        .expect("valid position");
    let both = nodes_to_depth(&chess, 8, true, true);
    assert_ne!(both, nodes_to_depth(&chess, 8, false, true), "exchange pruning changes the 2D search");
    assert_ne!(both, nodes_to_depth(&chess, 8, true, false), "continuation history changes the 2D search");
    let tesseract = start::tesseract(start::Army::Light);
    let both = nodes_to_depth(&tesseract, 4, true, true);
    assert_eq!(both, nodes_to_depth(&tesseract, 4, false, false), "the 4D search is the same");
}
