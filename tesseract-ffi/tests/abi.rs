//! The C ABI called as C calls it (raw pointers, NUL-terminated strings, caller buffers), on the edges a
//! C caller meets: NULL everywhere, invalid UTF-8, buffers too small by one byte, finished games, and a
//! search polled, stopped and freed while it thinks.

use std::ffi::{CStr, CString, c_char};
use std::ptr::{null, null_mut};

use tesseract_ffi::*;

fn text(buf: &[c_char]) -> String {
    // SAFETY: the library NUL-terminates what it writes; the buffers here start zeroed.
    unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap().to_owned()
}

fn game(start: &str) -> *mut tess_game {
    let start = CString::new(start).unwrap();
    let mut err = [0 as c_char; 256];
    // SAFETY: valid string and buffer.
    let g = unsafe { tess_game_new(start.as_ptr(), err.as_mut_ptr(), err.len()) };
    assert!(!g.is_null(), "{}", text(&err));
    g
}

fn play(g: *mut tess_game, mv: &str) -> (i32, String) {
    let mv = CString::new(mv).unwrap();
    let mut err = [0 as c_char; 256];
    // SAFETY: a live game, valid string and buffer.
    let code = unsafe { tess_play(g, mv.as_ptr(), err.as_mut_ptr(), err.len()) };
    (code, text(&err))
}

fn fen(g: *const tess_game) -> String {
    let mut buf = [0 as c_char; 1024];
    // SAFETY: a live game and a buffer.
    assert!(unsafe { tess_fen(g, buf.as_mut_ptr(), buf.len()) } > 0);
    text(&buf)
}

#[test]
fn start_names_and_texts_make_games_and_anything_else_an_error_text() {
    for (start, perft2) in
        [("classic", 400), ("chess960:518", 400), ("light", 47_754), ("8/8/8/8/8/8/8/K6k w - - 0 1", 9)]
    {
        let g = game(start);
        // SAFETY: a live game, freed once.
        unsafe {
            assert_eq!(tess_perft(g, 2), perft2, "{start}");
            assert_eq!(tess_perft(g, 0), 1);
            assert_eq!(tess_perft(null(), 1), TESS_PERFT_ERROR);
            tess_game_free(g);
        }
    }
    let mut err = [0 as c_char; 256];
    for bad in [&b"medium\0"[..], b"chess960:960\0", b"rnbqkbnr/pppppppp w\0", b"\xff\xfe\0"] {
        // SAFETY: NUL-terminated bytes and a buffer.
        let g = unsafe { tess_game_new(bad.as_ptr().cast(), err.as_mut_ptr(), err.len()) };
        assert!(g.is_null());
        assert!(!text(&err).is_empty(), "{bad:?}");
    }
    assert!(text(&err).contains("UTF-8 at byte 0"), "{}", text(&err));
    // NULL start, NULL error buffer: NULL, no crash; a tiny error buffer gets a cut, terminated text.
    // SAFETY: NULL is allowed; the buffer is 5 bytes.
    unsafe {
        assert!(tess_game_new(null(), null_mut(), 0).is_null());
        let mut small = [1 as c_char; 5];
        assert!(tess_game_new(c"medium".as_ptr(), small.as_mut_ptr(), small.len()).is_null());
        assert_eq!(text(&small), "unkn");
    }
}

#[test]
fn an_error_text_is_cut_at_a_character_boundary() {
    let g = game("classic");
    // "é" is two bytes: a 3-byte buffer cannot end inside it.
    let mv = CString::new("é2e4").unwrap();
    for len in 1..12 {
        let mut err = vec![1 as c_char; len];
        // SAFETY: a live game, a valid string and buffer.
        assert_eq!(unsafe { tess_play(g, mv.as_ptr(), err.as_mut_ptr(), len) }, TESS_E_MOVE);
        let cut = text(&err);
        assert!(cut.len() < len);
    }
    // SAFETY: freed once.
    unsafe { tess_game_free(g) };
}

#[test]
fn legal_moves_ask_for_the_size_they_need_to_the_byte() {
    let g = game("classic");
    // SAFETY: a live game; buffers of the stated sizes.
    unsafe {
        let needed = tess_legal_moves(g, null_mut(), 0);
        assert!(needed < 0);
        let size = (-needed) as usize;
        let mut buf = vec![1 as c_char; size];
        assert_eq!(tess_legal_moves(g, buf.as_mut_ptr(), size - 1), needed, "one byte short");
        assert_eq!(buf[0], 0, "a short buffer holds the empty string");
        assert_eq!(tess_legal_moves(g, buf.as_mut_ptr(), size), 20);
        let moves = text(&buf);
        assert_eq!(moves.len() + 1, size);
        assert_eq!(moves.split(' ').count(), 20);
        assert!(moves.split(' ').any(|m| m == "g1f3"));
        assert_eq!(tess_legal_moves(null(), buf.as_mut_ptr(), size), TESS_E_INVALID);
        assert_eq!(tess_fen(null(), buf.as_mut_ptr(), size), TESS_E_INVALID);
        tess_game_free(g);
    }
}

#[test]
fn a_refused_move_leaves_the_game_as_it_was_and_undo_takes_a_move_back() {
    let g = game("classic");
    let before = fen(g);
    for bad in ["e2e5", "e7e5", "zz", "", "e2e4 e7e5", "22132313"] {
        let (code, err) = play(g, bad);
        assert_eq!(code, TESS_E_MOVE, "{bad}");
        assert!(!err.is_empty());
        assert_eq!(fen(g), before);
    }
    // SAFETY: NULL pointers and invalid UTF-8 are refused; the game is live until freed.
    unsafe {
        assert_eq!(tess_play(g, null(), null_mut(), 0), TESS_E_NULL);
        assert_eq!(tess_play(g, c"\xc3".as_ptr(), null_mut(), 0), TESS_E_UTF8);
        assert_eq!(tess_play(null_mut(), c"e2e4".as_ptr(), null_mut(), 0), TESS_E_NULL);
        assert_eq!(tess_undo(g), TESS_E_MOVE);
        assert_eq!(play(g, "e2e4").0, TESS_OK);
        assert_eq!(tess_ply(g), 1);
        assert_eq!(tess_side_to_move(g), 1);
        assert_eq!(tess_undo(g), TESS_OK);
        assert_eq!(fen(g), before);
        assert_eq!(tess_undo(null_mut()), TESS_E_NULL);
        tess_game_free(g);
        tess_game_free(null_mut());
    }
}

#[test]
fn status_names_every_end() {
    let cases = [
        ("classic", TESS_ONGOING, ""),
        ("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1", TESS_CHECKMATE, "checkmate, white wins"),
        ("7k/8/6QK/8/8/8/8/8 b - - 0 1", TESS_STALEMATE, "stalemate, a draw"),
        ("7k/8/6NK/8/8/8/8/8 b - - 0 1", TESS_DRAW, "insufficient material, a draw"),
        ("7k/8/8/8/8/8/R7/K7 b - - 100 80", TESS_DRAW, "50-move rule, a draw"),
    ];
    for (start, status, words) in cases {
        let g = game(start);
        let mut buf = [0 as c_char; 64];
        // SAFETY: a live game and a buffer.
        unsafe {
            assert_eq!(tess_status(g), status, "{start}");
            assert_eq!(tess_status_text(g, buf.as_mut_ptr(), buf.len()), words.len() as i32);
            assert_eq!(text(&buf), words);
            // An ended game (a draw by rule too) takes no move and has none to find.
            let over = status != TESS_ONGOING;
            let mut mv = [0 as c_char; TESS_MOVE_TEXT_MAX];
            let best = tess_best_move(g, 100, mv.as_mut_ptr(), mv.len());
            assert_eq!(best, if over { TESS_E_GAME_OVER } else { TESS_OK }, "{start}");
            let mut err = [0 as c_char; 128];
            let search = tess_search_start(g, 100, 0, err.as_mut_ptr(), err.len());
            assert_eq!(search.is_null(), over);
            if over {
                assert_eq!(text(&err), format!("the game is over: {words}"));
                let before = fen(g);
                let moves = tess_legal_moves(g, null_mut(), 0);
                if status == TESS_DRAW && moves < -1 {
                    // A draw by rule leaves legal moves, but the game is over: refused, unchanged.
                    let mut list = vec![0 as c_char; (-moves) as usize];
                    tess_legal_moves(g, list.as_mut_ptr(), list.len());
                    let first = text(&list).split(' ').next().unwrap().to_owned();
                    let (code, reason) = play(g, &first);
                    assert_eq!((code, reason), (TESS_E_GAME_OVER, format!("the game is over: {words}")));
                    assert_eq!(fen(g), before);
                }
            }
            tess_search_free(search);
            tess_game_free(g);
        }
    }
    // SAFETY: NULL is refused.
    unsafe { assert_eq!(tess_status(null()), TESS_E_NULL) };
}

#[test]
fn best_move_is_deterministic_and_needs_a_buffer_for_one_move() {
    let g = game("standard");
    let mut a = [0 as c_char; TESS_MOVE_TEXT_MAX];
    let mut b = [0 as c_char; TESS_MOVE_TEXT_MAX];
    // SAFETY: a live game and buffers of the stated sizes.
    unsafe {
        assert_eq!(tess_best_move(g, 3000, a.as_mut_ptr(), a.len()), TESS_OK);
        assert_eq!(tess_best_move(g, 3000, b.as_mut_ptr(), b.len()), TESS_OK);
        assert_eq!(text(&a), text(&b));
        assert_eq!(text(&a).len(), 8, "a 4D move text: {}", text(&a));
        assert_eq!(tess_best_move(g, 3000, a.as_mut_ptr(), 8), TESS_E_BUFFER);
        assert_eq!(tess_best_move(g, 3000, null_mut(), 0), TESS_E_BUFFER);
        assert_eq!(tess_best_move(null(), 3000, a.as_mut_ptr(), a.len()), TESS_E_NULL);
        tess_game_free(g);
    }
}

#[test]
fn a_search_polls_without_blocking_cuts_its_line_to_whole_moves_and_stops() {
    let g = game("classic");
    let mut err = [0 as c_char; 128];
    // SAFETY: live objects, buffers of the stated sizes, each object freed once.
    unsafe {
        // A node budget: the final move is tess_best_move's.
        let s = tess_search_start(g, 20_000, 0, err.as_mut_ptr(), err.len());
        assert!(!s.is_null(), "{}", text(&err));
        let mut info = tess_search_info::default();
        let mut line = [0 as c_char; 256];
        while tess_search_poll(s, &mut info, line.as_mut_ptr(), line.len()) == TESS_THINKING {
            assert_eq!(info.is_final, 0);
            std::thread::sleep(std::time::Duration::from_micros(100));
        }
        assert_eq!((info.is_final, info.nodes > 0), (1, true));
        let full = text(&line);
        let mut best = [0 as c_char; TESS_MOVE_TEXT_MAX];
        assert_eq!(tess_best_move(g, 20_000, best.as_mut_ptr(), best.len()), TESS_OK);
        assert_eq!(full.split(' ').next(), Some(text(&best).as_str()));
        // A buffer for the first two moves and a bit: the two moves; too small for one: an error.
        let moves: Vec<&str> = full.split(' ').collect();
        assert!(moves.len() >= 3, "{full}");
        let two = moves[..2].join(" ");
        let mut cut = vec![0 as c_char; two.len() + 3];
        assert_eq!(tess_search_poll(s, null_mut(), cut.as_mut_ptr(), cut.len()), TESS_OK);
        assert_eq!(text(&cut), two);
        assert_eq!(tess_search_poll(s, null_mut(), cut.as_mut_ptr(), 4), TESS_E_BUFFER);
        assert_eq!(tess_search_poll(s, null_mut(), null_mut(), 0), TESS_OK);
        tess_search_free(s);

        // No limits: it thinks until stopped; the game may be freed meanwhile.
        let copy = tess_game_clone(g);
        let s = tess_search_start(copy, 0, 0, null_mut(), 0);
        tess_game_free(copy);
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert_eq!(tess_search_poll(s, &mut info, null_mut(), 0), TESS_THINKING);
        assert_eq!(tess_search_stop(s, &mut info, line.as_mut_ptr(), line.len()), TESS_OK);
        assert_eq!(info.is_final, 1);
        assert!(!text(&line).is_empty());
        tess_search_free(s);
        // Freed while thinking: stopped and joined.
        tess_search_free(tess_search_start(g, 0, 0, null_mut(), 0));
        assert_eq!(tess_search_poll(null_mut(), null_mut(), null_mut(), 0), TESS_E_NULL);
        assert_eq!(tess_search_stop(null_mut(), null_mut(), null_mut(), 0), TESS_E_NULL);
        assert!(tess_search_start(null(), 0, 0, err.as_mut_ptr(), err.len()).is_null());
        assert_eq!(text(&err), "the game is NULL");
        tess_game_free(g);
    }
}

#[test]
fn strings_with_a_length_need_no_nul() {
    let mut err = [0 as c_char; 128];
    // SAFETY: the pointers are valid for the lengths given; each game is freed once.
    unsafe {
        let start = b"classicGARBAGE";
        let g = tess_game_new_n(start.as_ptr().cast(), 7, err.as_mut_ptr(), err.len());
        assert!(!g.is_null(), "{}", text(&err));
        assert_eq!(tess_play_n(g, b"e2e4e7e5".as_ptr().cast(), 4, err.as_mut_ptr(), err.len()), TESS_OK);
        assert_eq!(tess_play_n(g, b"e7\xffe5".as_ptr().cast(), 5, err.as_mut_ptr(), err.len()), TESS_E_UTF8);
        assert_eq!(text(&err), "move: the text is not UTF-8 at byte 2");
        assert_eq!(tess_play_n(g, null(), 0, err.as_mut_ptr(), err.len()), TESS_E_MOVE, "the empty move");
        assert_eq!(tess_play_n(g, null(), 4, err.as_mut_ptr(), err.len()), TESS_E_NULL);
        assert_eq!(tess_play_n(g, c"e7e5".as_ptr(), usize::MAX, err.as_mut_ptr(), err.len()), TESS_E_ARGUMENT);
        assert_eq!(tess_ply(g), 1);
        tess_game_free(g);
        assert!(tess_game_new_n(b"classic".as_ptr().cast(), 6, err.as_mut_ptr(), err.len()).is_null());
        assert!(text(&err).contains("\"classi\""), "{}", text(&err));
    }
}

#[test]
fn the_version_is_the_crates() {
    // SAFETY: a static NUL-terminated string.
    let version = unsafe { CStr::from_ptr(tess_version()) };
    assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}
