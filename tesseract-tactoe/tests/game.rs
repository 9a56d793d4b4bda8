//! Claims, scoring, errors, undo, the end of the game, and the text forms.

mod common;

use common::{c, play};

use tesseract_board::Cell;
use tesseract_tactoe::{CENTRE, ClaimError, Game, Outcome, Player, TextError, cell_name, parse_cell, random_opening};

#[test]
fn one_claim_can_score_several_lines() {
    // X holds both ends of four lines through 2221: along x, y, and the two diagonals of the w=1, z=2 board.
    let mut game =
        play(&["1221", "3221", "2121", "2321", "1121", "3321"], &["1333", "3333", "1133", "3133", "1313", "3313"]);
    assert_eq!(game.scores(), [0, 0]);
    let claim = game.claim(c("2221")).unwrap();
    assert_eq!(claim.player, Player::X);
    assert_eq!(claim.points(), 3, "x, y and one diagonal: {:?}", claim.lines);
    assert_eq!(game.scores(), [3, 0]);
    let mut names: Vec<String> =
        claim.lines.iter().map(|&id| tesseract_tactoe::Lines::get().line(id).to_string()).collect();
    names.sort();
    assert_eq!(names, ["1121-2221-3321", "1221-2221-3221", "2121-2221-2321"]);
}

#[test]
fn claim_errors_leave_the_game_unchanged() {
    let mut game = play(&["1111"], &[]);
    let before = game.clone();
    assert_eq!(game.claim(CENTRE), Err(ClaimError::Centre));
    assert_eq!(game.claim(c("1111")), Err(ClaimError::Taken { cell: c("1111"), owner: Player::X }));
    assert_eq!(game.claim(Cell::new(81)), Err(ClaimError::OffBoard(81)));
    assert_eq!(game.claim(Cell::new(u16::MAX)), Err(ClaimError::OffBoard(65535)));
    assert_eq!(game, before);
    assert_eq!(ClaimError::Centre.to_string(), "the centre 2222 can never be claimed");
    assert_eq!(
        ClaimError::Taken { cell: c("1111"), owner: Player::X }.to_string(),
        "cell 1111 is already claimed by X"
    );
    assert!(!game.can_claim(CENTRE));
    assert!(game.can_claim(c("3333")));
    assert_eq!(game.owner(Cell::new(200)), None);
}

#[test]
fn the_game_ends_after_eighty_claims() {
    let mut game = Game::new();
    let mut n = 0;
    while let Some(cell) = game.free_cells().next() {
        assert_eq!(game.outcome(), None);
        game.claim(cell).unwrap();
        n += 1;
    }
    assert_eq!(n, 80);
    assert!(game.is_over());
    assert_eq!(game.claimed(), 80);
    assert_eq!(game.claim(c("1111")), Err(ClaimError::GameOver));
    let [x, o] = game.scores();
    let expected = match x.cmp(&o) {
        std::cmp::Ordering::Greater => Outcome::Win(Player::X),
        std::cmp::Ordering::Less => Outcome::Win(Player::O),
        std::cmp::Ordering::Equal => Outcome::Draw,
    };
    assert_eq!(game.outcome(), Some(expected));
    assert!(game.text().ends_with(" -"));
    assert_eq!(Game::from_text(&game.text()).unwrap().scores(), game.scores());
}

#[test]
fn outcomes_of_finished_games() {
    assert_eq!(Outcome::Win(Player::O).to_string(), "O wins");
    assert_eq!(Outcome::Draw.to_string(), "draw");
    assert_eq!(Outcome::Draw.winner(), None);
    // Over seeded random games, the outcome always agrees with the scores.
    for seed in 0..20 {
        let game = Game::replay(random_opening(seed, 80)).unwrap();
        let [x, o] = game.scores();
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.winner() == Some(Player::X), x > o);
        assert_eq!(outcome.winner() == Some(Player::O), o > x);
        assert_eq!(outcome == Outcome::Draw, x == o);
    }
}

#[test]
fn undo_takes_back_claims_and_points() {
    let mut game = play(&["1111", "2111"], &["1333", "3333"]);
    let text = game.text();
    let claim = game.claim(c("3111")).unwrap();
    assert_eq!(claim.points(), 1);
    assert_eq!(game.undo(), Some(claim));
    assert_eq!(game.text(), text);
    assert_eq!(game.scores(), [0, 0]);
    while game.undo().is_some() {}
    assert_eq!(game, Game::new());
    assert_eq!(game.undo(), None);
    // A game read from text has nothing to undo.
    let mut read = Game::from_text(&text).unwrap();
    assert_eq!(read.undo(), None);
    assert_eq!(read.text(), text);
}

#[test]
fn record_and_replay() {
    let game = Game::replay(random_opening(3, 30)).unwrap();
    let record = game.record();
    let cells: Vec<Cell> = record.split(' ').map(c).collect();
    let again = Game::replay(cells).unwrap();
    assert_eq!(again, game);
    assert_eq!(
        Game::replay([c("1111"), c("1111")]).unwrap_err(),
        (1, ClaimError::Taken { cell: c("1111"), owner: Player::X })
    );
}

#[test]
fn cell_names() {
    for cell in tesseract_tactoe::geometry().all_cells() {
        assert_eq!(parse_cell(&cell_name(cell)), Ok(cell));
    }
    assert_eq!(parse_cell("1,3,2,3"), parse_cell("1323"));
    assert_eq!(parse_cell(" 1 3 2 3 "), parse_cell("1323"));
    for bad in ["", "111", "11111", "1411", "0111", "abcd", "1é11", "２２２２", "1;11"] {
        assert!(parse_cell(bad).is_err(), "{bad:?}");
    }
    assert_eq!(cell_name(CENTRE), "2222");
    assert_eq!(cell_name(Cell::new(81)), "#81");
}

#[test]
fn text_form_of_the_empty_board_and_a_position() {
    let empty = "3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3 X";
    assert_eq!(Game::new().text(), empty);
    assert_eq!(Game::from_text(empty).unwrap(), Game::new());
    let game = play(&["1111", "2111", "3111"], &["3333", "1231"]);
    let text = game.text();
    // w=1 comes last: z=3 holds O at 1231 (row y=2), z=1 ends with the row y=1: X X X.
    assert!(text.ends_with("///3/O2/3//3/3/3//3/3/XXX O"), "{text}");
    assert!(text.starts_with("2O/3/3//"), "{text}");
    let read = Game::from_text(&text).unwrap();
    assert_eq!(read.scores(), [1, 0]);
    assert_eq!(read.to_move(), Player::O);
    assert_eq!(read.text(), text);
}

#[test]
fn text_errors_say_what_is_wrong() {
    let ok = "3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3///3/3/3//3/3/3//3/3/3";
    type Check = fn(&TextError) -> bool;
    let cases: Vec<(String, Check)> = vec![
        (ok.to_string(), |e| matches!(e, TextError::Fields(1))),
        (format!("{ok} X extra"), |e| matches!(e, TextError::Fields(3))),
        (format!("{ok}  X"), |e| matches!(e, TextError::Fields(3))),
        (format!("{ok} x"), |e| matches!(e, TextError::Side(_))),
        (format!("{ok} O"), |e| matches!(e, TextError::WrongSide { expected: "X", .. })),
        (format!("{ok} -"), |e| matches!(e, TextError::WrongSide { .. })),
        ("3/3/3//3/3/3 X".to_string(), |e| matches!(e, TextError::Slices { found: 1, .. })),
        (ok.replacen("3/3/3//", "3/3//", 1) + " X", |e| matches!(e, TextError::Slices { .. })),
        (ok.replacen('3', "4", 1) + " X", |e| matches!(e, TextError::Row { .. })),
        (ok.replacen('3', "2", 1) + " X", |e| matches!(e, TextError::Row { reason: "fewer than 3 cells", .. })),
        (ok.replacen('3', "12", 1) + " X", |e| matches!(e, TextError::Row { .. })),
        (ok.replacen('3', "XXXX", 1) + " X", |e| matches!(e, TextError::Row { reason: "more than 3 cells", .. })),
        (ok.replacen('3', "x2", 1) + " X", |e| matches!(e, TextError::Row { .. })),
        (ok.replacen('3', "XX1", 1) + " O", |e| matches!(e, TextError::Counts { x: 2, o: 0 })),
        (ok.replacen('3', "O2", 1) + " X", |e| matches!(e, TextError::Counts { x: 0, o: 1 })),
    ];
    for (text, check) in cases {
        let err = Game::from_text(&text).unwrap_err();
        assert!(check(&err), "{text:?} gave {err:?}");
        assert!(!err.to_string().is_empty());
    }
    // The centre: w=2 is the middle slice, z=2 its middle block, y=2 its middle row.
    let centre = "3/3/3//3/3/3//3/3/3///3/3/3//3/1X1/3//3/3/3///3/3/3//3/3/3//3/3/3 O";
    assert_eq!(Game::from_text(centre), Err(TextError::Centre(Player::X)));
    let err = Game::from_text(&(ok.replacen('3', "3a", 1) + " X")).unwrap_err();
    assert_eq!(err.to_string(), "row y=3 z=3 w=3 (\"3a\"): cells are X, O or a digit 1 to 3 for a run of free cells");
}

#[test]
fn malformed_text_never_panics() {
    let alphabet = ['X', 'O', '1', '2', '3', '4', '0', '/', ' ', '-', 'x', 'é'];
    let base = Game::replay(random_opening(9, 11)).unwrap().text();
    let chars: Vec<char> = base.chars().collect();
    for i in 0..chars.len() {
        for &a in &alphabet {
            let mut v = chars.clone();
            v[i] = a;
            let text: String = v.iter().collect();
            if let Ok(game) = Game::from_text(&text) {
                assert_eq!(game.text(), text);
            }
            let mut w = chars.clone();
            w.remove(i);
            let _ = Game::from_text(&w.iter().collect::<String>());
        }
    }
}

#[test]
fn the_picture_is_a_grid_of_boards() {
    let game = play(&["1111", "3333"], &["1223"]);
    let picture = game.to_string();
    let expected = [
        "       w=1       w=2       w=3",
        "z=3  3 . . .   3 . . .   3 . . X",
        "     2 . . .   2 . . .   2 . . .",
        "     1 . . .   1 . . .   1 . . .",
        "       1 2 3     1 2 3     1 2 3",
        "z=2  3 . . .   3 . . .   3 . . .",
        "     2 . . .   2 . # .   2 O . .",
        "     1 . . .   1 . . .   1 . . .",
        "       1 2 3     1 2 3     1 2 3",
        "z=1  3 . . .   3 . . .   3 . . .",
        "     2 . . .   2 . . .   2 . . .",
        "     1 X . .   1 . . .   1 . . .",
        "       1 2 3     1 2 3     1 2 3",
        "X 0  O 0  O to claim",
        "",
    ]
    .join("\n");
    assert_eq!(picture, expected);
}
