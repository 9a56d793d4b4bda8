//! The bench signature: a fixed list of positions searched to fixed depths; the total node count
//! identifies the engine's behaviour (see the crate docs).

use tesseract_board::{Position, start};

use crate::search::{Features, Limits, Options, Searcher};

/// The transposition table size of each bench search, in megabytes.
pub const HASH_MB: usize = 16;

/// The total node count of [`run`]. A change that alters it alters the engine's behaviour: update it in
/// the same commit and say so in the commit message.
pub const SIGNATURE: u64 = 1_289_130;

/// The bench positions (FEN or TFEN, or a start name) and their depths.
pub const POSITIONS: &[(&str, u32)] = &[
    ("standard", 6),
    ("light", 5),
    ("dense", 5),
    // standard, after 10 plies of engine self-play
    (
        "r1k1r/5/5/5/5//ubqb1/5/5/5/5//3d1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/wwwww/5/5//5/2d2/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/w1www/5/5///2n2/yyyyy/5/YYnYY/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/1yUyy/5/YYYYY/5///5/5/WWWWW/5/5//5/5/5/1u3/5//5/5/5/5/5//5/5/5/2Q2/5//5/5/WWWWW/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/1D1D1//5/5/5/5/UB1B1//5/5/5/5/RNKNR w - - 1 6",
        5,
    ),
    // standard, after 24 plies of engine self-play
    (
        "r3r/5/2n2/5/5//ub3/5/5/5/5//1d1U1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/wwwww/5/1U3//1k3/5/5/2Q2/5//5/5/5/5/5//5/5/5/5/5//5/5/wwwww/5/5///2n2/yyyyy/5/YYYYY/5//5/5/5/5/5//2N2/5/5/5/5//5/5/5/5/5//5/yy1yy/5/YYYYY/5///5/5/WWWWW/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/WWWWW/2B2/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/2bD1//5/5/5/5/1q3//5/5/5/5/R1K1R w - - 2 13",
        5,
    ),
    // standard, after 40 plies of engine self-play
    (
        "r3r/5/5/5/5//3b1/5/5/5/5//2bd1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/2k2/wwwww/5/5//5/2d2/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/4w/5/5///5/yyNyy/5/YYYYY/5//1n3/5/5/5/5//5/5/5/5/5//5/5/2U2/2u2/5//5/y1Y1y/5/YY2Y/5///5/5/WW1WW/5/5//5/5/5/1u3/5//5/5/5/5/5//5/5/5/5/5//5/5/W1W1W/5/5///5/5/5/5/5//5/5/3U1/5/5//5/5/5/5/5//5/5/5/5/1B3//5/5/5/5/RNK1R w - - 0 21",
        5,
    ),
    // light, after 16 plies of engine self-play
    (
        "r1knr/5/5/5/5//1b1bu/5/5/5/5//1d1d1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/UwUww/5/5//5/5/5/5/5//5/5/5/5/5///5/1n3/5/5/5//5/5/5/5/5//5/yyyyy/5/YY1YY/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/2u2/5/5/5//5/5/WWW1W/5/5//5/5/5/2D2/3K1//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/5/1B1B1//5/5/5/5/RN1NR w - - 2 9",
        5,
    ),
    // light, after 36 plies of engine self-play
    (
        "rn2r/5/5/5/5//1b3/5/5/5/5//3d1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/2k2/5/5/5//5/5/ww1w1/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/yy1y1/2wYW/1YY2/5//5/5/5/5/5//5/5/5/3N1/5///5/5/5/5/5//5/5/5/5/5//5/5/WWW1W/5/5//5/5/1K3/2D2/5//5/5/2U2/5/5///5/5/5/5/5//5/b4/5/5/5//5/5/5/5/2N2//5/2n2/5/2B2/1u3//5/5/5/5/R3R w - - 0 19",
        5,
    ),
    // dense, after 14 plies of engine self-play
    (
        "rnknr/5/5/5/5//1b1bu/5/5/5/5//3d1/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/wwwww/5/5//5/2q2/5/5/5//5/5/ww1W1/5/5//5/1U3/5/5/5//5/5/wwwww/5/5///5/yyyyy/5/YYYYY/5//5/5/5/5/5//5/yyyyy/5/YY1Y1/5//5/5/5/5/5//5/yyyyy/5/YYYYY/5///5/5/WWWWW/5/5//5/5/5/3u1/5//5/5/WW1WW/5/5//5/5/5/2d1D/5//5/5/WWWWW/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/1D3//5/5/5/5/UB1B1//5/5/5/5/RNKNR w - - 0 8",
        5,
    ),
    // dense, after 30 plies of engine self-play
    (
        "rnknr/5/5/5/5//5/2b2/5/5/5//1d3/5/5/5/5//5/5/5/5/5//5/5/5/5/5///5/5/wwwww/5/5//5/2d2/5/5/5//5/5/w2Qw/5/5//5/5/5/5/5//5/5/w1w1w/5/5///5/yyyyy/5/YYYYY/5//5/5/5/5/5//5/yyyyy/5/YYYYY/5//5/5/5/5/2q2//5/y1y1y/2Y2/4Y/5///5/5/WWWWW/5/5//5/5/5/3b1/5//5/5/WWWWW/5/5//5/5/5/5/5//5/5/W3W/5/5///5/5/5/5/5//5/5/5/5/5//5/5/5/5/1D1D1//5/5/5/5/1BKB1//5/5/5/5/RN1NR w - - 1 16",
        5,
    ),
    // standard, after 60 plies of engine self-play
    (
        "r3r/5/5/5/5//1k3/5/5/5/5//5/5/5/5/5//5/5/2u2/5/5//5/5/5/5/5///5/5/w1w1w/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/2d2/5//5/5/ww1w1/5/5///5/y3y/5/Y1y1Y/5//5/2n2/3b1/5/1B3//5/5/5/5/5//5/5/5/5/5//5/RN1y1/5/YY1Y1/5///5/5/W1W1W/5/5//5/5/5/5/5//5/5/5/5/5//5/5/5/3B1/5//5/5/WW3/5/5///5/5/5/5/5//5/5/5/5/5//5/5/1D3/5/5//5/5/5/5/5//5/5/5/5/2K1R w - - 2 31",
        5,
    ),
    // light, after 70 plies of engine self-play
    (
        "4r/5/5/5/5//5/5/5/5/5//5/5/r4/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/3Wk/5/5//5/5/5/3B1/5//5/5/5/5/5///5/5/5/5/5//5/5/5/2n2/5//5/5/y1y1w/Y3Y/5//5/5/5/5/3K1//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/W1N2/5/5//5/5/5/5/5//5/5/5/5/5///5/5/5/5/5//5/5/5/5/5//5/5/2n2/5/5//5/5/5/5/5//5/5/5/5/R3R w - - 4 36",
        5,
    ),
    // classic, after 16 plies of engine self-play
    ("r2qk2r/1pp2pp1/2n1pn2/p2p1b1p/Pb1P1B1P/2NBPN2/1PP2PP1/R2QK2R w KQkq - 1 9", 9),
    // classic, after 40 plies of engine self-play
    ("r3r1k1/1p3ppp/1q3n2/pN1p4/P4bPP/3P4/1P1N1P2/2RQ1RK1 w - - 1 21", 9),
    // chess960:100, after 12 plies of engine self-play
    ("qbbnrnkr/p5p1/1pp2p2/3pp2p/P2PP3/BPP5/5PPP/QB1NRNKR w KQkq - 0 7", 9),
    // chess960:700, after 30 plies of engine self-play
    ("r2kn3/1pbpp2p/3q2p1/1Pp5/2P1pP2/2Q3P1/3P3P/3KN1BR w Kq - 1 16", 9),
    ("classic", 9),
    ("chess960:0", 9),
];

/// One bench position: its text, depth and node count.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchLine {
    /// The position's text as listed in [`POSITIONS`].
    pub position: &'static str,
    /// The search depth.
    pub depth: u32,
    /// The nodes searched.
    pub nodes: u64,
}

/// The position a bench entry names.
///
/// # Panics
/// If the entry is neither a start name nor a valid FEN/TFEN (the list is fixed and tested).
pub fn position(text: &str) -> Position {
    start::by_name(text)
        .or_else(|_| Position::from_fen(text).map_err(|e| e.to_string()))
        .expect("a valid bench position")
}

/// Searches every bench position to its depth with a fresh table and no noise; returns each position's
/// node count (their sum is the signature).
pub fn run(on_line: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    run_with(Features::default(), on_line)
}

/// [`run`] with other search features (to see what one costs in nodes; only the default features give
/// [`SIGNATURE`]).
pub fn run_with(features: Features, mut on_line: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    let options = Options { features, ..Options::default() };
    let mut searcher = Searcher::new(HASH_MB);
    POSITIONS
        .iter()
        .map(|&(text, depth)| {
            searcher.clear();
            let pos = position(text);
            let limits = Limits { depth: Some(depth), ..Limits::default() };
            let result = searcher.search(&pos, &[], &limits, &options, |_| {});
            let line = BenchLine { position: text, depth, nodes: result.nodes };
            on_line(&line);
            line
        })
        .collect()
}
