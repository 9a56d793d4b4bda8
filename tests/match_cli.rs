//! The match example's command line: out-of-range counts are refused (exit code 2, one line on stderr),
//! and a short match between random players prints its games and its summary.

mod common;

use std::process::Output;

use common::stdout;

fn run(args: &[&str]) -> Output {
    common::run_example("match", args, "")
}

/// A quick match: random players, short games.
const QUICK: [&str; 6] = ["--a", "random", "--b", "random", "--max-plies", "4"];

#[test]
fn out_of_range_counts_are_refused() {
    // Issue 11 item 8: `--games 18446744073709551615` wrapped to 0 games (a NaN score), `--first-game`
    // wrapped; a negative `--adjudicate` overflowed when negated.
    for (flag, value) in [
        ("--games", "18446744073709551615"),
        ("--games", "1000001"),
        ("--games", "0"),
        ("--first-game", "18446744073709551615"),
        ("--first-game", "1000001"),
        ("--adjudicate", "-2147483648"),
        ("--adjudicate", "0"),
        ("--opening-plies", "1001"),
    ] {
        let arg = format!("{flag}={value}");
        let mut args = QUICK.to_vec();
        if flag != "--games" {
            args.extend(["--games", "2"]);
        }
        args.push(&arg);
        let out = run(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{arg}: {stderr}");
        assert!(out.stdout.is_empty(), "{arg}");
        // clap's message, checked by the argument's declaration.
        let first = stderr.lines().next().unwrap_or_default();
        assert!(first.starts_with(&format!("error: invalid value '{value}' for '{flag} <")), "{arg}: {stderr}");
        assert!(first.contains(&format!(": {value} is not in ")), "{arg}: {stderr}");
    }
    // The ends of each range are accepted.
    for (flag, value) in [("--games", "1"), ("--first-game", "0"), ("--opening-plies", "1000"), ("--adjudicate", "1")] {
        let arg = format!("{flag}={value}");
        let mut args = QUICK.to_vec();
        args.push(&arg);
        if flag != "--games" {
            args.extend(["--games", "2"]);
        }
        let out = run(&args);
        assert!(out.status.success(), "{arg}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn the_highest_first_game_plays() {
    let mut args = QUICK.to_vec();
    args.extend(["--games", "1", "--first-game", "1000000", "--threads", "64"]);
    let out = run(&args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains("game 1000001: random - random: 1/2-1/2 (draw after 4 plies, 4 plies)"), "{text}");
    assert!(text.contains("game 1000002: random - random: "), "{text}");
    assert!(text.contains("random vs random: 2 games, +0 =2 -0, score 50.0%, Elo +0"), "{text}");
    assert!(!text.contains("NaN"), "{text}");
}

#[test]
fn a_table_over_the_cap_is_refused() {
    // The workspace's one cap on table sizes (tesseract_movegen::MAX_TABLE_MB), as for every front end.
    let out = run(&["--a", "beginner,hash=65537", "--b", "random", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert_eq!(
        String::from_utf8_lossy(&out.stderr),
        "error: beginner,hash=65537: hash=65537: expected a number from 1 to 65536\n"
    );
}

#[test]
fn a_match_won_lost_or_drawn_throughout_gives_a_bound_not_a_point() {
    // The engine at a small budget against random moves, adjudicated at 200 centipawns: it wins both games
    // of this seed (and loses both with the sides swapped); random players held to four plies draw all.
    let summary = |args: &[&str]| {
        let out = run(args);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let text = stdout(&out);
        text.lines().find(|l| l.contains(" games, ")).map(str::to_string).unwrap_or_else(|| panic!("{text}"))
    };
    let engine = "beginner,nodes=300,depth=2";
    let common = ["--start", "classic", "--games", "2", "--adjudicate", "200", "--seed", "1", "--quiet"];
    let won = summary(&[&["--a", engine, "--b", "random"][..], &common].concat());
    assert!(won.contains(": 2 games, +2 =0 -0, score 100.0%, Elo > -216 (95%, one-sided) ("), "{won}");
    let lost = summary(&[&["--a", "random", "--b", engine][..], &common].concat());
    assert!(lost.contains(": 2 games, +0 =0 -2, score 0.0%, Elo < +216 (95%, one-sided) ("), "{lost}");
    let mut drawn = QUICK.to_vec();
    drawn.extend(["--games", "10", "--quiet"]);
    let drawn = summary(&drawn);
    assert!(drawn.contains(": 10 games, +0 =10 -0, score 50.0%, Elo +0 [95%: -111, +111] ("), "{drawn}");
    for line in [&won, &lost, &drawn] {
        assert!(!line.contains("1200"), "{line}");
    }
}

#[test]
fn a_weights_file_changes_the_evaluation_and_a_bad_one_is_refused() {
    let dir = common::scratch("match-weights");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("a scratch file");
        path.to_string_lossy().into_owned()
    };
    // The engine's own 2D weights, as `Weights::to_text` writes them, play the same games as no file; a
    // queen valued at nothing plays others.
    let own = write("own.txt", &tesseract::search::eval::Weights::of(2).to_text(tesseract::board::Shape::CHESS));
    let no_queen = write("no-queen.txt", "# the queen is worth nothing\nvalue.Queen 0\n");
    let games = |a: &str| {
        let out = run(&["--a", a, "--b", "expert,nodes=300", "--start", "classic", "--games", "4", "--threads", "1"]);
        assert!(out.status.success(), "{a}: {}", String::from_utf8_lossy(&out.stderr));
        // The results and openings, without the players' labels.
        stdout(&out)
            .lines()
            .filter(|l| l.starts_with("game "))
            .map(|l| l.rsplit(": ").next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    let plain = games("expert,nodes=300");
    assert_eq!(games(&format!("expert,nodes=300,weights={own}")), plain);
    assert_ne!(games(&format!("expert,nodes=300,weights={no_queen}")), plain);

    // A name that counts only on other boards, a value out of bounds, a file that is not there: exit code 2
    // and one line that names the file and the line, before any game.
    let unicorn = write("unicorn.txt", "\nvalue.Unicorn 400\n");
    let huge = write("huge.txt", "mobility.Queen.mg 101\n");
    let missing = dir.join("missing.txt").to_string_lossy().into_owned();
    for (file, start, says) in [
        (&unicorn, "classic", "line 2: no weight is named \"value.Unicorn\" on this board"),
        (&unicorn, "standard,classic", "line 2: no weight is named \"value.Unicorn\" on this board"),
        (&huge, "classic", "line 1: mobility.Queen.mg \"101\": expected a whole number from -100 to 100"),
        (&missing, "classic", "No such file"),
    ] {
        let a = format!("expert,nodes=300,weights={file}");
        let out = run(&["--a", &a, "--b", "random", "--start", start, "--games", "2"]);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{a}: {stderr}");
        assert!(out.stdout.is_empty(), "{a}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.starts_with(&format!("error: {a}: {file}: ")) && stderr.contains(says), "{stderr}");
    }
    // The unicorn's value counts in 4D.
    let a = format!("expert,nodes=300,weights={unicorn}");
    let out = run(&["--a", &a, "--b", "random", "--start", "standard", "--games", "2", "--max-plies", "6"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
}

/// `paced` and `unpaced` over a tier's own pacing: no tier paces its soft node limit (the same games with
/// `unpaced` as without), `paced` plays others; an unknown word is refused.
#[test]
fn paced_and_unpaced_soft_limits() {
    let games = |a: &str| {
        let out = run(&[
            "--a",
            a,
            "--b",
            "expert,nodes=300",
            "--start",
            "classic",
            "--games",
            "2",
            "--max-plies",
            "24",
            "--threads",
            "1",
        ]);
        assert!(out.status.success(), "{a}: {}", String::from_utf8_lossy(&out.stderr));
        stdout(&out)
            .lines()
            .filter_map(|l| match l.split_once(" ms/move, ") {
                // A player's line: its depth and nodes a move (not its time).
                Some((_, searched)) => Some(searched.to_string()),
                None => l.starts_with("game ").then(|| l.rsplit(": ").next().unwrap().to_string()),
            })
            .collect::<Vec<_>>()
    };
    let master = games("master,nodes=4000,soft=1500");
    assert_eq!(games("master,nodes=4000,soft=1500,unpaced"), master);
    assert_ne!(games("master,nodes=4000,soft=1500,paced"), master);
    let out = run(&["--a", "master,pacd", "--b", "random", "--games", "2"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("unknown option \"pacd\""));
}

/// A weights file of the README (`scripts/weights/`), read for boards of `shape`.
fn readme_weights(shape: tesseract::board::Shape, name: &str) -> tesseract::search::eval::Weights {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/weights").join(name);
    let text = std::fs::read_to_string(path).expect("a weights file of the README");
    tesseract::search::eval::Weights::parse(shape, &text).expect("weights of the board")
}

/// `w` with the pawn structure, rook-line and bishop-pair weights of `from`, each pair passed through `f`.
fn with_structure_of(
    w: tesseract::search::eval::Weights,
    from: &tesseract::search::eval::Weights,
    f: impl Fn((i32, i32)) -> (i32, i32),
) -> tesseract::search::eval::Weights {
    tesseract::search::eval::Weights {
        protected: f(from.protected),
        doubled: f(from.doubled),
        isolated: f(from.isolated),
        rook_line: from.rook_line.map(&f),
        bishop_pair: f(from.bishop_pair),
        ..w
    }
}

#[test]
fn the_weights_files_of_the_readme_fit_the_5x5x5x5_board() {
    use tesseract::board::Shape;
    use tesseract::search::eval::Weights;
    let read = |name: &str| readme_weights(Shape::TESSERACT, name);
    let own = Weights::of(4);
    let none = read("4d-no-passed.txt");
    // A 5⁴ pawn stands on steps 0 to 2 only: the files set those.
    assert_eq!((&none.passed[..3], none.passed_king, none.unstoppable), (&[(0, 0); 3][..], (0, 0), 0));
    assert_eq!(Weights { passed: own.passed, passed_king: own.passed_king, unstoppable: own.unstoppable, ..none }, own);
    for (name, times) in [("4d-passed-half.txt", (1, 2)), ("4d-passed-double.txt", (2, 1))] {
        let w = read(name);
        for (a, b) in w.passed[..3].iter().zip(own.passed) {
            assert_eq!((a.0 * times.1, a.1 * times.1), (b.0 * times.0, b.1 * times.0), "{name}");
        }
        assert_eq!(Weights { passed: own.passed, ..w }, own, "{name}");
    }
    // The 8×8 pawn structure tried on 5⁴, whole and the protected pawn alone, at the 8×8 weights of then
    // (before they were fitted again).
    let two_d = readme_weights(Shape::CHESS, "2d-before-refit.txt");
    assert_eq!(read("4d-protected.txt"), Weights { protected: two_d.protected, ..own });
    assert_eq!(read("4d-structure.txt"), with_structure_of(own, &two_d, |p| p));
}

#[test]
fn the_weights_files_of_the_readme_fit_the_8x8_board() {
    use tesseract::board::Shape;
    use tesseract::search::eval::Weights;
    let read = |name: &str| readme_weights(Shape::CHESS, name);
    let own = Weights::of(2);
    let classic = [0, 900, 500, 330, 320, 0, 0, 100, 0];
    // The engine before the fit to Stockfish's judgement (a9b5960's): other weights than the engine's,
    // every group of them moved.
    let before_sf = read("2d-before-sf.txt");
    assert_ne!(before_sf.values, own.values);
    assert_ne!(before_sf.square, own.square);
    assert_ne!(before_sf.threat_pawn, own.threat_pawn);
    assert_ne!(before_sf.tempo, own.tempo);
    // The engine before the king's cover, unsafe mobility and blocked passed pawns (fcf8051's): those terms
    // at 0, and other weights than the engine's in every group, the piece-square corrections too.
    let before_cover = read("2d-before-cover.txt");
    let no_cover = |w: Weights| Weights {
        mobility_unsafe: [(0, 0); 9],
        shield: [0, 0],
        king_open_file: 0,
        passed_blocked: (0, 0),
        ..w
    };
    assert_eq!(before_cover, no_cover(before_cover));
    assert_ne!(own, no_cover(own));
    // The phalanx, backward pawn, storm, outposts and trapped pieces, tried: the engine weighs them 0, the
    // fit does not, and moved the values, the piece-square corrections and the shield too.
    let no_pawns_2d = |w: Weights| Weights {
        phalanx: (0, 0),
        backward: (0, 0),
        storm: [0; 3],
        outpost: [(0, 0); 2],
        trapped: (0, 0),
        ..w
    };
    assert_eq!(own, no_pawns_2d(own));
    let pawns_fit = read("2d-pawns-fit.txt");
    assert!(pawns_fit.storm.iter().all(|&s| s != 0) && pawns_fit.outpost.iter().all(|&(m, _)| m != 0));
    assert_ne!(pawns_fit.values, own.values);
    assert_ne!(pawns_fit.square, own.square);
    assert_ne!(pawns_fit.shield, own.shield);
    // Its control: the same refit without those terms.
    let control = read("2d-pawns-control.txt");
    assert_eq!(control, no_pawns_2d(control));
    assert_ne!(control.values, own.values);
    assert_ne!(control.square, own.square);
    assert_ne!(control.shield, own.shield);
    assert_ne!(control, no_pawns_2d(pawns_fit));
    assert_ne!(before_cover.values, own.values);
    assert_ne!(before_cover.square, own.square);
    assert_ne!(before_cover.threat_pawn, own.threat_pawn);
    assert_ne!(before_cover, before_sf);
    // The engine before the threat terms (8d363eb's): a9b5960's piece-square corrections, no threats.
    let no_threats = |w: Weights| Weights { threat_pawn: [(0, 0); 9], threat_piece: [(0, 0); 9], ..w };
    let before_threats = read("2d-before-threats.txt");
    assert_eq!(before_threats, no_threats(before_threats));
    assert_eq!(before_threats.square, before_sf.square);
    assert_ne!(before_threats, no_threats(before_sf));
    // The threat fit's start: those weights, the threats guessed.
    let guessed = read("2d-threats-start.txt");
    assert_eq!(no_threats(guessed), before_threats);
    assert_ne!(guessed, before_threats);
    // Every 8×8 file is written out whole: each weight of the board named once, so that a change of the
    // engine's weights changes none of them.
    let names = Weights::of(2).named(Shape::CHESS).len();
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/weights");
    for entry in std::fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if !file.starts_with("2d-") {
            continue;
        }
        let text = std::fs::read_to_string(dir.join(&file)).unwrap();
        let lines = text.lines().filter(|l| !l.split('#').next().unwrap_or("").trim().is_empty()).count();
        assert_eq!(lines, names, "{file}");
        if ["2d-pawns-fit.txt", "2d-pawns-control.txt"].contains(&file.as_str()) {
            continue;
        }
        assert_eq!(read(&file), no_pawns_2d(read(&file)), "{file}: no phalanx, backward, storm, outpost or trapped");
        assert_eq!(read(&file), no_cover(read(&file)), "{file}: none of the cover, unsafe mobility or blocked pawns");
        if !["2d-threats-start.txt", "2d-before-sf.txt", "2d-before-cover.txt"].contains(&file.as_str()) {
            assert_eq!(read(&file), no_threats(read(&file)), "{file}: no threats before them");
        }
    }
    // The engine before its other weights were fitted again (4ed040d's), with its piece-square corrections.
    let old = read("2d-before-refit.txt");
    assert_ne!(old, own);
    assert_ne!(old.square, [[(0, 0); tesseract::search::eval::SQUARE_SLOTS]; 9]);
    // No piece-square corrections: the evaluation before they were fitted (3a6dfd0's), and the files
    // measured with it or before, written out whole.
    let no_squares = Weights { square: [[(0, 0); tesseract::search::eval::SQUARE_SLOTS]; 9], ..old };
    assert_eq!(read("2d-no-squares.txt"), no_squares);
    assert_eq!(read("2d-values-classic.txt"), Weights { values: classic, ..no_squares });
    assert_eq!(
        read("2d-eval-0046c87.txt"),
        with_structure_of(Weights { values: classic, ..no_squares }, &old, |_| (0, 0))
    );
    let double = with_structure_of(no_squares, &old, |(m, e)| (2 * m, 2 * e));
    assert_eq!(read("2d-structure-double.txt"), double);
    // King activity: the king's endgame centrality at twice and three times the engine's of then.
    for (name, times) in [("2d-king-20.txt", 2), ("2d-king-30.txt", 3)] {
        let mut centre = old.centre;
        centre[tesseract::board::Role::King.index()].1 *= times;
        assert_eq!(read(name), Weights { centre, ..no_squares }, "{name}");
    }
}
