//! What the table tests share: generating tables, and the two independent checks of a table.
#![allow(dead_code)]

use tesseract_board::{Color, Position, Shape};
use tesseract_movegen::{Legal, Outcome, legal_moves};
use tesseract_tablebase::{GenerateOptions, Probe, Tablebase, Tablebases, Wdl};
use tesseract_verify::mate::MateSolver;

/// Generates `material` on `shape` (and its smaller tables) into `tables`, and returns a copy of it.
pub fn generate(tables: &mut Tablebases, shape: Shape, material: &str) -> Tablebase {
    tables.generate(shape, &material.parse().unwrap(), &GenerateOptions::default(), &|_| {}).unwrap().clone()
}

/// The full consistency check of one position against the library's legal move generator (which shares
/// no code with the tables' own move rules): a win in p plies has a move into a loss in p − 1 and none
/// into a shorter loss; a loss in p plies has every move into a win, the longest in p − 1 (a loss in 0 is
/// checkmate); a draw has no move into a loss and some move not into a win (or is stalemate). A table
/// that passes this for every position is the exact distance to mate: the plies strictly decrease along
/// the chosen moves, so every win is a forced mate in that many plies, and every loss and draw is
/// justified move by move.
pub fn check_position(tables: &Tablebases, pos: &Position, probe: Probe) {
    let moves = legal_moves(pos);
    let mut after: Vec<Probe> = Vec::with_capacity(moves.len());
    for &m in &moves {
        let mut next = pos.clone();
        next.make(m);
        after.push(tables.probe(&next).unwrap_or_else(|| panic!("no table for {} after {m:?}", next.fen())));
    }
    let fen = pos.fen();
    let losses = after.iter().filter(|p| p.wdl == Wdl::Loss).map(|p| p.plies.unwrap());
    let shortest_loss = losses.clone().min();
    let all_win = after.iter().all(|p| p.wdl == Wdl::Win);
    match (probe.wdl, probe.plies) {
        (Wdl::Win, Some(p)) => assert_eq!(shortest_loss, Some(p - 1), "{fen}: win in {p} plies"),
        (Wdl::Loss, Some(0)) => {
            assert!(moves.is_empty() && pos.is_check(), "{fen}: said checkmated");
            assert!(matches!(pos.outcome(), Some(Outcome::Checkmate { .. })));
        }
        (Wdl::Loss, Some(p)) => {
            assert!(all_win, "{fen}: loss in {p} plies with a move that does not lose");
            assert_eq!(after.iter().map(|a| a.plies.unwrap()).max(), Some(p - 1), "{fen}: loss in {p} plies");
        }
        (Wdl::Draw, None) => {
            assert_eq!(shortest_loss, None, "{fen}: drawn but a move wins");
            assert!(moves.is_empty() && !pos.is_check() || !all_win, "{fen}: drawn but every move loses");
        }
        other => panic!("{fen}: impossible probe {other:?}"),
    }
}

/// [`check_position`] for every `stride`-th position of both sides to move; returns how many were checked.
pub fn check_table(tables: &Tablebases, table: &Tablebase, stride: usize) -> usize {
    let mut checked = 0;
    for stm in Color::ALL {
        for (index, probe) in table.positions(stm).step_by(stride) {
            let pos = table.position_at(index, stm).expect("a position");
            assert_eq!(tables.probe(&pos), Some(probe), "{}: probing its own position", pos.fen());
            check_position(tables, &pos, probe);
            checked += 1;
        }
    }
    checked
}

/// The verifier's exhaustive mate search against the table on every `stride`-th position, of both sides
/// to move, among those drawn or whose distance is at most `max_moves` (wins: mate in exactly that many moves and not fewer; losses:
/// mated within exactly that many; draws: no mate within `max_moves`). Returns how many were checked.
pub fn check_by_mate_search(table: &Tablebase, stride: usize, max_moves: u32) -> usize {
    let mut solver = MateSolver::new();
    let mut checked = 0;
    for stm in Color::ALL {
        let near = table.positions(stm).filter(|(_, p)| p.moves().is_none_or(|m| m <= max_moves));
        for (index, probe) in near.step_by(stride) {
            let pos = table.position_at(index, stm).unwrap();
            let fen = pos.fen();
            match (probe.wdl, probe.moves()) {
                (Wdl::Win, Some(n)) => {
                    assert_eq!(solver.shortest_mate(&pos, n).unwrap(), Some(n), "{fen}: table says mate in {n}");
                }
                (Wdl::Loss, Some(k)) => {
                    assert!(solver.mated_within(&pos, k).unwrap(), "{fen}: table says mated in {k}");
                    assert!(k == 0 || !solver.mated_within(&pos, k - 1).unwrap(), "{fen}: mated sooner than {k}");
                }
                _ => {
                    assert!(
                        !solver.mates_within(&pos, max_moves).unwrap(),
                        "{fen}: drawn, yet a mate within {max_moves}"
                    );
                    assert!(
                        !solver.mated_within(&pos, max_moves).unwrap(),
                        "{fen}: drawn, yet mated within {max_moves}"
                    );
                }
            }
            solver.clear();
            checked += 1;
        }
    }
    checked
}
