//! The `tablebase` example's command-line contract: its last line is `longest N wins W draws D`; bad
//! arguments give a message and exit code 2; `--out` and `--save-dir` write tables that load back.

mod common;

use common::{run_example, stdout};
use tesseract::board::{Color, Shape};
use tesseract::tablebase::{Tablebase, Tablebases};

fn last_line(text: &str) -> &str {
    text.lines().last().unwrap_or("")
}

#[test]
fn krk_and_kqk_of_chess_end_with_the_contract_line() {
    // The longest mates are the published figures (16 and 10 moves). The counts pin this table's orbits
    // of the square's 8 symmetries, every one of them checked move by move in tesseract-tablebase's tests.
    for (material, line) in [("KRK", "longest 16 wins 21959 draws 0"), ("KQK", "longest 10 wins 18081 draws 0")] {
        let out = run_example("tablebase", &["--board", "chess", "--material", material], "");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert_eq!(last_line(&stdout(&out)), line);
    }
}

#[test]
fn the_weaker_side_first_is_normalized_and_files_load_back() {
    let dir = std::env::temp_dir().join(format!("tablebase-cli-{}", std::process::id()));
    let file = dir.join("one.ttb");
    std::fs::create_dir_all(&dir).unwrap();
    let args = ["--board", "raumschach", "--material", "KKQ", "--out", file.to_str().unwrap(), "--save-dir"];
    let out = run_example("tablebase", &[&args[..], &[dir.join("all").to_str().unwrap(), "--line"]].concat(), "");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = stdout(&out);
    assert!(String::from_utf8_lossy(&out.stderr).contains("KKQ is generated as KQK"));
    assert!(text.contains("  line: "), "{text}");
    let table = Tablebase::read(&mut std::fs::File::open(&file).unwrap()).unwrap();
    let stats = table.stats(Color::White);
    assert_eq!(
        last_line(&text),
        format!("longest {} wins {} draws {}", stats.longest_moves(), stats.wins, stats.draws)
    );
    let all = Tablebases::load_dir(dir.join("all")).unwrap();
    assert_eq!(all.len(), 2, "KQK and KK");
    assert!(all.get(Shape::RAUMSCHACH, &"KQK".parse().unwrap()).is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_arguments_exit_2_with_a_message() {
    for (args, says) in [
        (&["--board", "hexagon", "--material", "KQK"][..], "not a board"),
        (&["--board", "chess", "--material", "KPK"], "pawns are not supported"),
        (&["--board", "chess", "--material", "KQRKR"], "at most 4"),
        (&["--board", "chess", "--material", "KUK"], "does not exist on a board of 2 axes"),
        (&["--board", "chess"], "--material"),
    ] {
        let out = run_example("tablebase", args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}

#[test]
fn out_follows_a_link_and_refuses_a_missing_folder() {
    let dir = std::env::temp_dir().join(format!("tablebase-cli-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("real.ttb"), b"old").unwrap();
    #[cfg(unix)]
    std::os::unix::fs::symlink("real.ttb", dir.join("link.ttb")).unwrap();
    #[cfg(unix)]
    {
        let link = dir.join("link.ttb");
        let out =
            run_example("tablebase", &["--board", "chess", "--material", "KQK", "--out", link.to_str().unwrap()], "");
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(std::fs::symlink_metadata(&link).unwrap().file_type().is_symlink(), "the link stays a link");
        assert!(Tablebase::read(&mut std::fs::File::open(dir.join("real.ttb")).unwrap()).is_ok());
    }
    let missing = dir.join("no-such-folder").join("t.ttb");
    let out =
        run_example("tablebase", &["--board", "chess", "--material", "KQK", "--out", missing.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("does not exist"));
    assert!(out.stdout.is_empty(), "refused before generating");
    std::fs::remove_dir_all(&dir).unwrap();
}
