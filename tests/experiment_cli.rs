//! The experiment example's command line: small runs write a CSV with its header and one row a game and
//! a JSON that parses to the same games, the same seed gives the same output whatever the threads, and
//! bad arguments are refused with exit code 2 before any game.

mod common;

use std::path::PathBuf;
use std::process::Output;

use common::stdout;

fn run(args: &[&str]) -> Output {
    common::run_example("experiment", args, "")
}

/// A fresh folder of this test process.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tesseract-experiment-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

const HEADER: &str = "start,game,seed,white,black,plies,result,reason,mean_branching,max_branching,captures,\
promotions,checks,white_pieces,black_pieces,engine_nodes";

/// The output without its `time` line, which is the only one that changes from run to run.
fn without_time(text: &str) -> String {
    text.lines().filter(|l| !l.starts_with("time ")).collect::<Vec<_>>().join("\n")
}

#[test]
fn a_small_run_writes_csv_json_and_a_summary() {
    let dir = temp_dir("small");
    let (csv, json) = (dir.join("out.csv"), dir.join("out.json"));
    let out = run(&[
        "--games",
        "3",
        "--armies",
        "light,raumschach,classic",
        "--max-plies",
        "60",
        "--seed",
        "5",
        "--csv",
        csv.to_str().unwrap(),
        "--json",
        json.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(*lines.last().unwrap(), "games 9", "{text}");
    assert!(lines[lines.len() - 2].starts_with("time "), "{text}");
    assert!(lines[1].starts_with("start ") && lines[1].contains("ply_cap"), "{text}");
    for name in ["light", "raumschach", "classic"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("{name} ")) && l.contains(" 3 ")), "{name}: {text}");
    }

    let table = std::fs::read_to_string(&csv).unwrap();
    let rows: Vec<&str> = table.lines().collect();
    assert_eq!(rows[0], HEADER);
    assert_eq!(rows.len(), 1 + 9);
    for (i, row) in rows[1..].iter().enumerate() {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(fields.len(), 16, "{row}");
        assert_eq!(fields[0], ["light", "raumschach", "classic"][i / 3]);
        assert_eq!(fields[1], (i % 3).to_string());
        assert_eq!(&fields[3..5], ["random", "random"]);
        let plies: usize = fields[5].parse().unwrap();
        assert!(plies <= 60 && (fields[7] != "ply_cap" || plies == 60), "{row}");
    }

    let report: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    assert_eq!(report["seed"], 5);
    assert_eq!(report["max_plies"], 60);
    assert_eq!(report["starts"], serde_json::json!(["light", "raumschach", "classic"]));
    let games = report["games"].as_array().unwrap();
    assert_eq!(games.len(), 9);
    // The JSON's games are the CSV's rows.
    for (game, row) in games.iter().zip(&rows[1..]) {
        let fields: Vec<&str> = row.split(',').collect();
        assert_eq!(game["start"], fields[0]);
        assert_eq!(game["seed"].as_u64().unwrap().to_string(), fields[2]);
        assert_eq!(game["plies"].as_u64().unwrap().to_string(), fields[5]);
        assert_eq!(game["reason"], fields[7]);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_gives_the_same_output_whatever_the_threads() {
    let dir = temp_dir("same");
    let mut outputs = Vec::new();
    for (i, (seed, threads)) in [("7", "1"), ("7", "2"), ("8", "2")].into_iter().enumerate() {
        let csv = dir.join(format!("{i}.csv"));
        let out = run(&[
            "--games",
            "4",
            "--armies",
            "standard,chess960:100",
            "--max-plies",
            "80",
            "--seed",
            seed,
            "--threads",
            threads,
            "--csv",
            csv.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        outputs.push((without_time(&stdout(&out)), std::fs::read(&csv).unwrap()));
    }
    assert_eq!(outputs[0], outputs[1]);
    assert_ne!(outputs[0].1, outputs[2].1);
    // Game 2 of the run, played alone, is the same game.
    let csv = dir.join("alone.csv");
    let args = ["--games", "1", "--first-game", "2", "--armies", "standard", "--max-plies", "80", "--seed", "7"];
    let out = run(&[&args[..], &["--csv", csv.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let alone = std::fs::read_to_string(&csv).unwrap();
    let full = String::from_utf8(outputs[0].1.clone()).unwrap();
    assert_eq!(alone.lines().nth(1), full.lines().nth(3));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engines_play_too() {
    let out =
        run(&["--games", "1", "--armies", "light", "--white", "beginner", "--black", "nodes=300", "--max-plies", "4"]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(text.contains("white beginner, black nodes=300"), "{text}");
    assert!(text.ends_with("games 1\n"), "{text}");
}

#[test]
fn bad_arguments_exit_2_before_any_game() {
    let dir = temp_dir("bad");
    let same = dir.join("same.out");
    let same = same.to_str().unwrap();
    let missing = dir.join("no-such-folder").join("out.csv");
    let folder = dir.to_str().unwrap();
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--games", "0"], "0 is not in 1..=1000000"),
        (vec!["--games", "1000001"], "is not in 1..=1000000"),
        (vec!["--games", "18446744073709551616"], "--games"),
        (vec!["--games", "-1"], "'-1'"),
        (vec!["--first-game", "1000001"], "is not in 0..=1000000"),
        (vec!["--max-plies", "0"], "0 is not in 1..=1000000"),
        (vec!["--threads", "0"], "0 is not in 1..=1024"),
        (vec!["--threads", "1025"], "is not in 1..=1024"),
        (vec!["--seed", "x"], "--seed"),
        (vec!["--white", "grandmaster"], "unknown player \"grandmaster\""),
        (vec!["--black", "nodes=0"], "expected a node budget from 1 to 1000000000"),
        (vec!["--black", "nodes=1000000001"], "expected a node budget"),
        (vec!["--armies", "medium"], "--armies: unknown start \"medium\""),
        (vec!["--armies", ""], "--armies: unknown start \"\""),
        (vec!["--armies", "light,"], "--armies: unknown start \"\""),
        (vec!["--armies", "chess960:960"], "--armies: "),
        (vec!["--armies", "classic,classic"], "\"classic\" is named twice"),
        (vec!["--csv", missing.to_str().unwrap()], "does not exist"),
        (vec!["--json", folder], "a folder, not a file"),
        (vec!["--csv", same, "--json", same], "the same file"),
        (vec!["--bogus"], "--bogus"),
    ];
    for (args, message) in cases {
        // A small run, should the refusal fail: the base flags the case does not set itself.
        let mut all: Vec<&str> = Vec::new();
        for (flag, value) in [("--games", "1"), ("--max-plies", "2")] {
            if !args.contains(&flag) {
                all.extend([flag, value]);
            }
        }
        all.extend(&args);
        let out = run(&all);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: no game may start");
        assert!(stderr.starts_with("error: "), "{args:?}: {stderr}");
        assert!(stderr.contains(message), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    }
    assert!(!std::path::Path::new(same).exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// The README's figure: the summary of 100 random games from each army, seed 1, line for line (the games
/// are the same on every machine; only the time differs).
#[test]
#[ignore = "300 whole games, half a minute in debug: scripts/test.sh runs it in the optimised pass"]
fn the_readme_summary_of_random_games() {
    let dir = temp_dir("readme");
    let csv = dir.join("out.csv");
    let out = run(&[
        "--games",
        "100",
        "--armies",
        "light,standard,dense",
        "--white",
        "random",
        "--black",
        "random",
        "--seed",
        "1",
        "--csv",
        csv.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let expected = "\
experiment: 100 games from each of light,standard,dense, white random, black random, seed 1, first game 0, max plies 10000
start      games      plies branching  white   draw  black   checkmate   stalemate   dead_draw    fivefold seventy_five_moves   threefold fifty_moves     ply_cap
light        100      828.6     223.0      2     91      7        9.0%        0.0%        0.0%        0.0%               0.0%        0.0%       91.0%        0.0%
standard     100     1163.2     236.1      9     88      3       12.0%        0.0%        0.0%        0.0%               0.0%        0.0%       88.0%        0.0%
dense        100     1286.9     242.6      7     83     10       17.0%        0.0%        0.0%        0.0%               0.0%        0.0%       83.0%        0.0%
games 300";
    assert_eq!(without_time(&stdout(&out)), expected);
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 301);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn outputs_follow_links_write_fifos_through_and_take_a_dash_for_stdout() {
    use std::os::unix::fs::{FileTypeExt, symlink};
    let (dir, here, there) = common::scratch_here_there("experiment-targets");
    // --csv through a link to a file in another folder, --json into a FIFO that this test reads.
    let real = there.join("real.csv");
    std::fs::write(&real, "old").unwrap();
    let link = here.join("out.csv");
    symlink(&real, &link).unwrap();
    let fifo = here.join("out.json");
    common::mkfifo(&fifo);
    let reader = common::read_fifo(&fifo);
    let small = ["--games", "1", "--armies", "classic", "--max-plies", "4"];
    let out = run(&[&small[..], &["--csv", link.to_str().unwrap(), "--json", fifo.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).ends_with("games 1\n"), "{}", stdout(&out));
    assert!(common::is_link(&link), "the link was replaced by a file");
    let csv = std::fs::read_to_string(&real).unwrap();
    assert_eq!(csv.lines().next(), Some(HEADER), "the file the link names has the CSV");
    assert!(std::fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo(), "the FIFO was replaced");
    let report: serde_json::Value = serde_json::from_slice(&reader.contents()).unwrap();
    assert_eq!(report["games"].as_array().unwrap().len(), 1);
    assert_eq!(common::names(&here), ["out.csv", "out.json"]);
    assert_eq!(common::names(&there), ["real.csv"]);

    // `--csv -`: standard output holds the CSV alone, the table goes to stderr.
    let out = run(&[&small[..], &["--csv", "-"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout(&out), csv, "the same CSV as in the file");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("experiment: 1 games from each of classic") && stderr.ends_with("games 1\n"),
        "{stderr}"
    );
    // Both to standard output, a link to the other file, or a socket: refused before any game.
    let socket = here.join("socket");
    let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
    let json = there.join("real.json");
    for (args, message) in [
        (vec!["--csv", "-", "--json", "-"], "--csv and --json name the same file".to_string()),
        (vec!["--csv", real.to_str().unwrap(), "--json", link.to_str().unwrap()], "the same file".to_string()),
        (vec!["--json", socket.to_str().unwrap()], format!("--json: {}: a socket, not a file", socket.display())),
    ] {
        let out = run(&[&small[..], &args].concat());
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty() && stderr.contains(&message), "{args:?}: {stderr}");
    }
    assert!(!json.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_file_that_cannot_be_written_at_the_end_still_leaves_the_table() {
    // No regular file may grow past 0 bytes (`ulimit -f 0`, which binds root too): the start check passes
    // (the folder is there), and the CSV fails when it is written after the games. The JSON goes into a
    // FIFO (not a regular file, so not limited) and is still written; the table is printed; then the
    // failed file is reported, with exit code 1.
    let dir = common::scratch("experiment-failed-file");
    let (csv, fifo) = (dir.join("out.csv"), dir.join("out.json"));
    common::mkfifo(&fifo);
    let reader = common::read_fifo(&fifo);
    let args = ["--games", "2", "--armies", "light,classic", "--max-plies", "6", "--csv", csv.to_str().unwrap()];
    let args = [&args[..], &["--json", fifo.to_str().unwrap()]].concat();
    let command = common::example_under_shell("experiment", "trap '' XFSZ; ulimit -f 0", &args);
    let out = common::run_within(command, Vec::new(), std::time::Duration::from_secs(60));
    let (text, stderr) = (stdout(&out), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(1), "{text}{stderr}");
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[1].starts_with("start ") && lines[2].starts_with("light ") && lines[3].starts_with("classic "));
    assert_eq!(lines.last(), Some(&"games 4"), "{text}");
    assert_eq!(stderr, format!("error: --csv: {}: File too large (os error 27)\n", csv.display()));
    let report: serde_json::Value = serde_json::from_slice(&reader.contents()).unwrap();
    assert_eq!(report["games"].as_array().unwrap().len(), 4, "the other file is written");
    assert_eq!(common::names(&dir), ["out.json"], "no file, nor a temporary one, is left for the CSV");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engines_whose_tables_do_not_fit_are_refused_before_any_game() {
    let refused = |args: &[&str]| {
        let out = run(args);
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}: no game may start");
        stderr
    };
    // Each thread makes a master (16 MB) for each side: 4 threads take 128 MB.
    let masters = ["--white", "master", "--black", "master", "--armies", "light", "--max-plies", "1", "--games", "4"];
    assert_eq!(
        refused(&[&masters[..], &["--threads", "4", "--memory", "100"]].concat()),
        "error: 4 threads' engines take 128 MB of tables (16 MB for white, 16 MB for black, in each thread), more \
         than the 100 MB that --memory allows: the tables of at most 3 threads fit (--threads 3)\n"
    );
    let stderr = refused(&[&masters[..], &["--threads", "2", "--memory", "40"]].concat());
    assert!(stderr.ends_with("more than the 40 MB that --memory allows: only one thread's tables fit (--threads 1)\n"));
    // A node budget sizes its table (nodes=10: 1 MB).
    let stderr = refused(&["--white", "master", "--black", "nodes=10", "--threads", "1", "--memory", "10"]);
    assert!(stderr.contains("one thread's engines take 17 MB of tables (16 MB for white, 1 MB for black"), "{stderr}");
    assert!(stderr.ends_with("not even one thread's tables fit\n"), "{stderr}");
    // The limit is within the one cap on table sizes.
    for memory in ["0", "65537"] {
        let stderr = refused(&["--games", "1", "--memory", memory]);
        assert!(stderr.contains(&format!("{memory} is not in 1..=65536")), "{stderr}");
    }
    // No more threads start than there are games: one game from one start is one thread's tables, which
    // fit exactly (the random white plays the only ply; black's master is made all the same).
    let one = ["--white", "random", "--black", "master", "--armies", "light", "--games", "1", "--max-plies", "1"];
    let out = run(&[&one[..], &["--threads", "4", "--memory", "16"]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(stdout(&out).ends_with("games 1\n"));
    // Without --memory, the limit is the memory available (Linux's MemAvailable): 1,024 threads of two
    // masters take 32 GiB.
    let meminfo = std::fs::read_to_string("/proc/meminfo").unwrap();
    let kb: u64 = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemAvailable:"))
        .unwrap()
        .trim()
        .trim_end_matches(" kB")
        .parse()
        .unwrap();
    if kb / 1024 < 32 * 1024 {
        let stderr = refused(&[
            "--white",
            "master",
            "--black",
            "master",
            "--armies",
            "light",
            "--games",
            "1024",
            "--threads",
            "1024",
        ]);
        assert!(stderr.starts_with("error: 1024 threads' engines take 32768 MB of tables"), "{stderr}");
        assert!(
            stderr.contains("MB available (MemAvailable in /proc/meminfo; --memory MB sets another limit)"),
            "{stderr}"
        );
    } else {
        eprintln!("note: {} MB available, more than 1,024 threads of masters take: that case was not run", kb / 1024);
    }
}
