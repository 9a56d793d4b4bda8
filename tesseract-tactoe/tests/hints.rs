//! Hints on hand-built positions, one test per case of RULES.md §7.

mod common;

use common::{c, play};

use tesseract_board::Cell;
use tesseract_tactoe::{CENTRE, Game, Hints, LineId, Lines, Player};

/// The line through these three cells (in any order).
fn line(names: [&str; 3]) -> LineId {
    let mut want = names.map(c);
    want.sort();
    Lines::get()
        .all()
        .iter()
        .find(|l| {
            let mut cells = l.cells();
            cells.sort();
            cells == want
        })
        .unwrap_or_else(|| panic!("{names:?} is not a line"))
        .id()
}

fn ids(hints: &Hints) -> Vec<LineId> {
    hints.lines.iter().map(|h| h.line).collect()
}

fn held(hints: &Hints, id: LineId) -> Option<u8> {
    hints.lines.iter().find(|h| h.line == id).map(|h| h.held)
}

#[test]
fn empty_cell_on_an_empty_board_shows_every_playable_line() {
    let game = Game::new();
    let corner = c("1111");
    let hints = game.hints(corner, Player::X);
    assert_eq!(hints.player, Player::X);
    assert_eq!(ids(&hints), Lines::get().playable_through(corner));
    assert_eq!(hints.lines.len(), 14, "15 lines through a corner, one through the centre");
    assert!(hints.lines.iter().all(|h| h.held == 0));
    // A cell next to the centre: 14 lines through it, 1 through the centre.
    assert_eq!(game.hints(c("2221"), Player::O).lines.len(), 13);
}

#[test]
fn empty_cell_hides_lines_the_opponent_blocks() {
    // X at 1111, O at 2111: for X, the free cell 3111 keeps its lines except 1111-2111-3111 (blocked by O).
    let game = play(&["1111"], &["2111"]);
    let x_line = line(["1111", "2111", "3111"]);
    let hints = game.hints(c("3111"), Player::X);
    assert_eq!(hints.player, Player::X);
    assert!(!ids(&hints).contains(&x_line));
    assert_eq!(hints.lines.len(), 13);
    // Viewed by O, the same free cell shows O's lines: 1111-2111-3111 is blocked by X for O too.
    let for_o = game.hints(c("3111"), Player::O);
    assert_eq!(for_o.player, Player::O);
    assert!(!ids(&for_o).contains(&x_line));
    // 3111-3211-3311 is open to both; X holds none of it.
    let open = line(["3111", "3211", "3311"]);
    assert_eq!(held(&hints, open), Some(0));
}

#[test]
fn empty_cell_counts_the_viewers_cells() {
    // X holds 1111 and 2111: 3111 completes the line, shown as held 2 of 3.
    let game = play(&["1111", "2111"], &["3333", "3332"]);
    let hints = game.hints(c("3111"), Player::X);
    assert_eq!(held(&hints, line(["1111", "2111", "3111"])), Some(2));
    // For O the same free cell does not show X's line.
    let for_o = game.hints(c("3111"), Player::O);
    assert_eq!(held(&for_o, line(["1111", "2111", "3111"])), None);
}

#[test]
fn own_cell_shows_own_live_lines_but_not_completed_or_blocked_ones() {
    // X: 1111, 2111, 3111 (a completed line) and 1211; O: 1311 blocks 1111-1211-1311, and 3333, 3323.
    let game = play(&["1111", "2111", "3111", "1211"], &["1311", "3333", "3323"]);
    assert_eq!(game.score(Player::X), 1);
    let hints = game.hints(c("1111"), Player::X);
    assert_eq!(hints.player, Player::X);
    let got = ids(&hints);
    assert!(!got.contains(&line(["1111", "2111", "3111"])), "completed lines are dead");
    assert!(!got.contains(&line(["1111", "1211", "1311"])), "blocked lines are dead");
    assert_eq!(held(&hints, line(["1111", "2211", "3311"])), Some(1));
    assert_eq!(hints.lines.len(), 12);
    assert!(hints.lines.iter().all(|h| h.held >= 1), "the viewer holds the cell itself");
}

#[test]
fn opponents_cell_shows_the_opponents_lines() {
    // O holds 2111 and 2211; X holds 1111 and 3333. X looks at O's cell 2111: O's lines.
    let game = play(&["1111", "3333", "3332"], &["2111", "2211"]);
    let hints = game.hints(c("2111"), Player::X);
    assert_eq!(hints.player, Player::O);
    let got = ids(&hints);
    assert!(!got.contains(&line(["1111", "2111", "3111"])), "X blocks this one for O");
    assert_eq!(held(&hints, line(["2111", "2211", "2311"])), Some(2));
    assert!(hints.lines.iter().all(|h| h.held >= 1));
    // O looking at its own cell sees the same lines.
    assert_eq!(game.hints(c("2111"), Player::O), hints);
}

#[test]
fn dead_lines_blocked_for_both_are_never_shown() {
    // Line 1111-2111-3111 holds one X and one O: dead. Neither the free cell 3111 nor the two claimed
    // cells show it, whoever looks.
    let game = play(&["1111"], &["2111"]);
    let dead = line(["1111", "2111", "3111"]);
    for cell in ["1111", "2111", "3111"] {
        for viewer in Player::BOTH {
            assert!(!ids(&game.hints(c(cell), viewer)).contains(&dead), "{cell} seen by {viewer}");
        }
    }
}

#[test]
fn the_centre_and_cells_off_the_board_have_no_hints() {
    let game = play(&["1111"], &[]);
    assert!(game.hints(CENTRE, Player::X).lines.is_empty());
    assert!(game.hints(Cell::new(81), Player::O).lines.is_empty());
    assert!(game.hints(Cell::new(u16::MAX), Player::O).lines.is_empty());
}

#[test]
fn a_full_board_has_no_live_lines() {
    let mut game = Game::new();
    while let Some(cell) = game.free_cells().next() {
        game.claim(cell).unwrap();
    }
    for cell in tesseract_tactoe::geometry().all_cells() {
        assert!(game.hints(cell, Player::X).lines.is_empty());
    }
}

#[test]
fn the_hint_picture_marks_the_lines() {
    let game = play(&["1111", "2111"], &["3333"]);
    let hints = game.hints(c("3111"), Player::X);
    let picture = game.hint_picture(&hints);
    assert!(picture.contains(".*"), "{picture}");
    assert!(picture.contains(&format!("{} live lines of X through 3111", hints.lines.len())), "{picture}");
    assert!(picture.contains("1111-2111-3111  X holds 2 of 3"), "{picture}");
}
