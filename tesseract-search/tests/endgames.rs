//! Endgame knowledge of the evaluation, judged by an exact oracle: the endgame tables of
//! tesseract-tablebase (retrograde analysis, a code base the engine shares nothing with but the rules).
//!
//! - Dead positions score 0 (on 8×8, 5³ and 5⁴) and the engine says so on 8×8 (`score cp 0`; on 5⁴,
//!   `tests/search.rs`); so does the wrong bishop's draw; the side that cannot win is scaled toward 0.
//! - KBNK: from 40 seeded positions that are long wins (White to move, mate in 21 or more moves with best
//!   play, the bishop on light squares in half of them, dark in the other half), the engine at 20,000 nodes
//!   a move mates the table's longest defence every time, before the fifty-move rule. The table is
//!   generated in the test (about 4 s optimised), so the test is `#[ignore]`d, run by the optimised pass of
//!   scripts/test.sh (`-- --ignored`); alone: `cargo test --release -p tesseract-search --test endgames --
//!   --include-ignored`.

use std::sync::Arc;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{Color, Position, Role, Shape};
use tesseract_movegen::{Legal, Outcome};
use tesseract_search::eval::{evaluate_white, piece_value};
use tesseract_search::{Limits, Options, Score, Searcher};
use tesseract_tablebase::{Tablebases, Wdl};

fn fen(pos: &str) -> Position {
    Position::from_fen(pos).unwrap()
}

/// A 5⁴ position, White to move: `first_row` is the row x = 1..5 of y = z = w = 1, the black king on the
/// far corner (5,5,5,5).
fn tesseract(first_row: &str) -> Position {
    // Slices from w = 5 down to 1 ("///"), in each z = 5 down to 1 ("//"), rows y = 5 down to 1 ("/").
    let slice = |top: &str, bottom: &str| {
        (0..5)
            .map(|z| {
                let rows: Vec<&str> = (0..5)
                    .map(|y| {
                        if z == 0 && y == 0 {
                            top
                        } else if z == 4 && y == 4 {
                            bottom
                        } else {
                            "5"
                        }
                    })
                    .collect();
                rows.join("/")
            })
            .collect::<Vec<_>>()
            .join("//")
    };
    let slices: Vec<String> =
        (0..5).map(|w| slice(if w == 0 { "4k" } else { "5" }, if w == 4 { first_row } else { "5" })).collect();
    fen(&format!("{} w - - 0 1", slices.join("///")))
}

/// A 5³ position, White to move: `first_row` is the row x = 1..5 of y = z = 1, the black king on the far
/// corner (5,5,5).
fn raumschach(first_row: &str) -> Position {
    // Slices from z = 5 down to 1 ("//"), rows y = 5 down to 1 ("/").
    let slices: Vec<String> = (0..5)
        .map(|z| {
            let rows: Vec<&str> = (0..5)
                .map(|y| {
                    if z == 0 && y == 0 {
                        "4k"
                    } else if z == 4 && y == 4 {
                        first_row
                    } else {
                        "5"
                    }
                })
                .collect();
            rows.join("/")
        })
        .collect();
    fen(&format!("{} w - - 0 1", slices.join("//")))
}

/// The engine's score of a position at a small fixed budget.
fn score(pos: &Position) -> Score {
    let limits = Limits { nodes: Some(20_000), ..Limits::default() };
    Searcher::new(1).search(pos, &[], &limits, &Options::default(), |_| {}).score
}

#[test]
fn dead_material_scores_zero() {
    // The rules' dead positions of 8×8: a lone minor piece, bishops on squares of one color.
    for dead in [
        "8/8/8/3k4/8/8/8/2B1K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/2N1K3 b - - 0 1",
        "8/8/1b6/3k4/8/8/8/2B1K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/B1B1K3 w - - 0 1",
    ] {
        let pos = fen(dead);
        assert!(pos.is_insufficient_material(), "{dead}");
        assert_eq!(evaluate_white(&pos), 0, "{dead}");
        assert_eq!(score(&pos), Score::Cp(0), "{dead}");
    }
    // Two knights cannot force mate; a rook against a minor piece, nor mostly (a quarter of the score); a
    // minor piece against pawns, never (the white king stands in the knight's check here: White to move).
    assert_eq!(evaluate_white(&fen("8/8/8/3k4/8/8/8/1N2KN2 w - - 0 1")), 0);
    // A quarter of the lead and a little of the position's (the classic values decide what is scaled,
    // whatever the evaluation's: a queen against two minor pieces is scaled too).
    let value = |r: Role| piece_value(2, r);
    let rook_v_knight = evaluate_white(&fen("8/8/8/3k4/8/5n2/8/R3K3 w - - 0 1"));
    assert!((0..(value(Role::Rook) - value(Role::Knight)) / 4 + 40).contains(&rook_v_knight), "{rook_v_knight}");
    let queen_v_minors = evaluate_white(&fen("8/8/8/3k4/8/3bn3/8/Q3K3 w - - 0 1"));
    let lead = value(Role::Queen) - value(Role::Bishop) - value(Role::Knight);
    assert!((0..lead / 4 + 40).contains(&queen_v_minors), "{queen_v_minors}");
    assert_eq!(evaluate_white(&fen("8/6p1/8/3k4/8/8/8/2B1K3 w - - 0 1")), 0);
    assert_eq!(evaluate_white(&fen("8/8/8/3k4/8/5n2/8/1B2K3 w - - 0 1")), 0);
    // A queen against a rook is not scaled.
    assert!(evaluate_white(&fen("8/8/8/3k4/8/5r2/8/Q3K3 w - - 0 1")) > 250);
    // Not dead: bishops on both colors, bishop and knight, a pawn.
    for alive in
        ["8/8/8/3k4/8/8/8/BB2K3 w - - 0 1", "8/8/8/3k4/8/8/8/BN2K3 w - - 0 1", "8/8/8/3k4/8/8/P7/B3K3 w - - 0 1"]
    {
        assert!(evaluate_white(&fen(alive)) > 300, "{alive}");
    }
    // 5⁴: a lone rook, or two dragons, cannot mate a lone king (the tables find no checkmate at all);
    // a queen can.
    assert_eq!(evaluate_white(&tesseract("K3R")), 0);
    assert_eq!(evaluate_white(&tesseract("KDD2")), 0);
    assert!(evaluate_white(&tesseract("K2Q1")) > 1000);
    // A unicorn pair is not known: its table is not computed on 5⁴.
    assert!(evaluate_white(&tesseract("KUU2")) > 500);
    // 5³: a lone unicorn, two unicorns and two knights score 0; two rooks an eighth; a queen in full.
    assert_eq!(evaluate_white(&raumschach("K3U")), 0);
    assert_eq!(evaluate_white(&raumschach("KUU2")), 0);
    assert_eq!(evaluate_white(&raumschach("KNN2")), 0);
    let rooks = evaluate_white(&raumschach("KRR2"));
    assert!(rooks > 0 && rooks < 200, "{rooks}");
    assert!(evaluate_white(&raumschach("K2Q1")) > 1000);
}

#[test]
fn the_wrong_bishop_is_a_draw() {
    // The a-pawn promotes on a8, a light square: the dark-squared bishop on c1 never controls it, and the
    // black king on a8 or b7 holds the draw.
    for drawn in ["k7/8/8/8/8/8/P7/2B1K3 w - - 0 1", "8/1k6/8/8/P7/P7/8/2B1K3 b - - 0 1"] {
        assert_eq!(evaluate_white(&fen(drawn)), 0, "{drawn}");
    }
    // Black's h-pawn promotes on h1, light: a dark-squared bishop, the white king on g2.
    assert_eq!(evaluate_white(&fen("4k3/8/8/2b5/8/7p/6K1/8 w - - 0 1")), 0);
    // Not the draw: the right bishop (b1, light), the king too far (e5), a pawn on another file, a knight.
    for won in [
        "k7/8/8/8/8/8/P7/1B2K3 w - - 0 1",
        "8/8/8/4k3/8/8/P7/2B1K3 w - - 0 1",
        "k7/8/8/8/8/8/PP6/2B1K3 w - - 0 1",
        "k7/8/8/8/8/8/P7/2B1KN2 w - - 0 1",
    ] {
        assert!(evaluate_white(&fen(won)) > 300, "{won}");
    }
    // The engine agrees: nothing better than a draw.
    assert_eq!(score(&fen("k7/8/8/8/8/8/P7/2B1K3 w - - 0 1")), Score::Cp(0));
}

#[test]
fn dead_material_is_antisymmetric() {
    use tesseract_board::CastlingMode;
    for text in [
        "8/8/8/3k4/8/5n2/8/R3K3 w - - 0 1",
        "8/8/8/3k4/8/8/8/BN2K3 b - - 0 1",
        "8/8/8/3k4/8/8/8/1N2KN2 w - - 0 1",
        "k7/8/8/8/8/8/P7/1B2K3 b - - 0 1",
        "8/6p1/8/3k4/8/8/8/2B1K3 w - - 0 1",
    ] {
        let pos = fen(text);
        let mirrored = Position::from_setup(pos.to_setup().mirrored(), CastlingMode::Chess960).unwrap();
        assert_eq!(evaluate_white(&mirrored), -evaluate_white(&pos), "{text}");
    }
}

/// A random KBNK position, White to move, the bishop on `light` squares or dark ones; `None` when the
/// placement is not a legal position.
fn kbnk(rng: &mut ChaCha8Rng, light: bool) -> Option<Position> {
    let mut cells = [0usize; 4];
    for c in &mut cells {
        *c = (rng.next_u32() % 64) as usize;
    }
    let [wk, wb, wn, bk] = cells;
    let distinct = (0..4).all(|i| (i + 1..4).all(|j| cells[i] != cells[j]));
    // a1 is dark: (file + rank) even.
    if !distinct || ((wb % 8 + wb / 8) % 2 == 1) != light {
        return None;
    }
    let mut board = [None; 64];
    board[wk] = Some('K');
    board[wb] = Some('B');
    board[wn] = Some('N');
    board[bk] = Some('k');
    let ranks: Vec<String> = (0..8)
        .rev()
        .map(|r| {
            let mut s = String::new();
            let mut empty = 0;
            for f in 0..8 {
                match board[r * 8 + f] {
                    Some(p) => {
                        if empty > 0 {
                            s.push_str(&empty.to_string());
                            empty = 0;
                        }
                        s.push(p);
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                s.push_str(&empty.to_string());
            }
            s
        })
        .collect();
    Position::from_fen(&format!("{} w - - 0 1", ranks.join("/"))).ok()
}

/// Plays the engine (White, `nodes` a move, the game's history given) against the table's longest
/// defence from `start`: the number of moves to mate, or `None` when no mate came before the fifty-move
/// rule (or the position died).
fn convert(tables: &Arc<Tablebases>, start: &Position, nodes: u64) -> Option<u32> {
    let mut pos = start.clone();
    let mut searcher = Searcher::new(16);
    let limits = Limits { nodes: Some(nodes), ..Limits::default() };
    let mut history = Vec::new();
    let mut moves = 0;
    loop {
        match pos.outcome() {
            Some(Outcome::Checkmate { winner: Color::White }) => return Some(moves),
            Some(_) => return None,
            None => {}
        }
        if pos.halfmove_clock() >= 100 {
            return None;
        }
        let m = if pos.turn() == Color::White {
            moves += 1;
            searcher.search(&pos, &history, &limits, &Options::default(), |_| {}).best_move.unwrap()
        } else {
            tables.best_move(&pos).unwrap().0
        };
        history.push(pos.hash());
        pos.play(m).unwrap();
    }
}

/// The KBNK run: `count` seeded long wins (half with a light-squared bishop), the engine at `nodes` a move
/// against the longest defence; the starts not mated before the fifty-move rule, and the moves played over
/// the shortest mates by those that were.
fn kbnk_run(seed: u64, count: usize, nodes: u64) -> (Vec<String>, u32) {
    let mut tables = Tablebases::new();
    tables.generate(Shape::CHESS, &"KBNK".parse().unwrap(), &Default::default(), &|_| {}).unwrap();
    let tables = Arc::new(tables);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut starts = Vec::new();
    while starts.len() < count {
        let light = starts.len() % 2 == 0;
        let Some(pos) = kbnk(&mut rng, light) else { continue };
        let probe = tables.probe(&pos).unwrap();
        // Mate in 21 moves or more with best play.
        if probe.wdl == Wdl::Win && probe.plies.unwrap() >= 41 {
            starts.push((pos, probe.plies.unwrap().div_ceil(2)));
        }
    }
    let mut failed = Vec::new();
    let mut extra = 0;
    for (pos, best) in &starts {
        match convert(&tables, pos, nodes) {
            Some(moves) => {
                assert!(moves >= *best, "mated sooner than the table's best play: {}", pos.fen());
                extra += moves - best;
            }
            None => failed.push(pos.fen()),
        }
    }
    eprintln!(
        "KBNK, seed {seed}, {nodes} nodes a move: {}/{count} mated, {extra} moves over the shortest mates in all",
        count - failed.len()
    );
    (failed, extra)
}

#[test]
#[ignore = "generates the KBNK table (about 4 s optimised, minutes in debug) and plays 40 games: about 25 s optimised"]
fn kbnk_is_mated_against_the_longest_defence() {
    let (failed, _) = kbnk_run(34, 40, 20_000);
    assert!(failed.is_empty(), "not mated before the fifty-move rule: {failed:#?}");
}

/// The same run with other settings, to measure: `TESSERACT_KBNK="SEED COUNT NODES" cargo test --release
/// -p tesseract-search --test endgames -- --ignored --nocapture kbnk_measure`.
#[test]
#[ignore = "a measurement: set TESSERACT_KBNK=\"SEED COUNT NODES\""]
fn kbnk_measure() {
    let Ok(settings) = std::env::var("TESSERACT_KBNK") else { return };
    let v: Vec<u64> = settings.split_whitespace().map(|x| x.parse().expect("SEED COUNT NODES")).collect();
    let (failed, _) = kbnk_run(v[0], v[1] as usize, v[2]);
    eprintln!("not mated: {failed:#?}");
}
