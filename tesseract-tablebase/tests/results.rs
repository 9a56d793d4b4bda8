//! The published results of the README, recomputed: every row of `data/results-*.txt` whose run took
//! under five seconds is generated again and its summary line compared with the file (the longest mate,
//! wins and draws with the stronger side to move, and the same counts with the weaker side to move).

use tesseract_board::{Color, Shape};
use tesseract_tablebase::{GenerateOptions, Tablebases};

/// (board, material, the stats lines of the block, seconds it took).
fn blocks(text: &str) -> Vec<(String, String, Vec<String>, f64)> {
    text.split("== ")
        .skip(1)
        .map(|block| {
            let mut lines = block.lines();
            let head: Vec<&str> = lines.next().unwrap().split_whitespace().collect();
            let body: Vec<String> = lines.map(str::to_string).collect();
            let stats =
                body.iter().filter(|l| l.contains("positions,") || l.starts_with("longest ")).cloned().collect();
            let time = body
                .iter()
                .find_map(|l| l.strip_prefix("time ").and_then(|t| t.split(' ').next()).and_then(|t| t.parse().ok()))
                .unwrap();
            (head[0].to_string(), head[1].to_string(), stats, time)
        })
        .collect()
}

fn recompute(file: &str, shape: Shape) {
    let text = std::fs::read_to_string(format!("{}/data/{file}", env!("CARGO_MANIFEST_DIR"))).unwrap();
    let mut checked = 0;
    for (_, material, stats, seconds) in blocks(&text) {
        if seconds > 5.0 {
            continue;
        }
        let mut tables = Tablebases::new();
        let t = tables.generate(shape, &material.parse().unwrap(), &GenerateOptions::default(), &|_| {}).unwrap();
        let mut lines = Vec::new();
        for stm in Color::ALL {
            let s = t.stats(stm);
            let who = if stm == Color::White { "stronger side (White) to move" } else { "weaker side (Black) to move" };
            lines.push(format!("{who}: {s}"));
        }
        let s = t.stats(Color::White);
        lines.push(format!("longest {} wins {} draws {}", s.longest_moves(), s.wins, s.draws));
        assert_eq!(lines, stats, "{file}: {material}");
        checked += 1;
    }
    assert!(checked >= 5, "{file}: only {checked} rows recomputed");
}

#[test]
#[ignore = "seconds in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn chess_rows() {
    recompute("results-chess.txt", Shape::CHESS);
}

#[test]
#[ignore = "a minute in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn raumschach_rows() {
    recompute("results-raumschach.txt", Shape::RAUMSCHACH);
}

#[test]
#[ignore = "half a minute in an optimised build; scripts/test.sh runs it in its optimised pass (-- --ignored)"]
fn tesseract_rows() {
    recompute("results-tesseract.txt", Shape::TESSERACT);
}
