//! The engine's judgement in words, for people: [`describe`].
//!
//! Front ends show a player "White is better by about 1.7 pawns, looking 6 moves ahead" rather than
//! `cp 170 depth 6`; the terminal game (`play`) prints it after each engine move, and the page can show the
//! same words through its bindings. The numbers stay in [`Score`] and [`SearchResult`](crate::SearchResult)
//! for those who want them.

use tesseract_board::Color;

use crate::search::Score;

/// Below this many centipawns either way a score reads "about even": a quarter of a pawn, less than the
/// evaluation's own noise at the weak tiers and less than one tempo is worth in most openings.
pub const EVEN_CP: i32 = 25;

/// A search's score in words, naming the side that stands better.
///
/// `score` is from the point of view of `side_to_move` (as [`Score`] always is: the side to move in the
/// position searched), and `depth` is the search's last finished iteration in plies, which the words call
/// moves ahead (one move of one side each, as the engine counts them). The words are:
///
/// - `about even, looking 6 moves ahead` when the score is within [`EVEN_CP`] of zero;
/// - `White is better by about 1.7 pawns, looking 6 moves ahead` otherwise (a pawn is 100 centipawns,
///   rounded to a tenth);
/// - `White mates in 3` for a mate found, by whichever side gives it (full moves, as [`Score::Mate`]
///   counts them), and `Black has given mate` for the side to move already mated.
///
/// A depth of 0 (no iteration finished) leaves out the `looking … ahead` part.
///
/// # Examples
/// ```
/// use tesseract_board::Color;
/// use tesseract_search::{Score, describe};
/// assert_eq!(
///     describe(Score::Cp(170), 6, Color::White),
///     "White is better by about 1.7 pawns, looking 6 moves ahead"
/// );
/// // The score is the side to move's: +40 for Black to move is Black's advantage.
/// assert_eq!(
///     describe(Score::Cp(40), 6, Color::Black),
///     "Black is better by about 0.4 pawns, looking 6 moves ahead"
/// );
/// assert_eq!(describe(Score::Cp(-12), 1, Color::White), "about even, looking 1 move ahead");
/// assert_eq!(describe(Score::Mate(3), 5, Color::White), "White mates in 3");
/// assert_eq!(describe(Score::Mate(-2), 4, Color::White), "Black mates in 2");
/// ```
pub fn describe(score: Score, depth: u32, side_to_move: Color) -> String {
    let ahead = match depth {
        0 => String::new(),
        1 => ", looking 1 move ahead".to_string(),
        d => format!(", looking {d} moves ahead"),
    };
    match score {
        Score::Cp(v) if v.unsigned_abs() < EVEN_CP.unsigned_abs() => format!("about even{ahead}"),
        Score::Cp(v) => {
            let better = if v > 0 { side_to_move } else { side_to_move.other() };
            // Tenths of a pawn, rounded half up, in integers: the same text on every target.
            let tenths = (v.unsigned_abs() + 5) / 10;
            format!("{} is better by about {}.{} pawns{ahead}", name(better), tenths / 10, tenths % 10)
        }
        Score::Mate(m) if m > 0 => format!("{} mates in {m}", name(side_to_move)),
        Score::Mate(0) => format!("{} has given mate", name(side_to_move.other())),
        Score::Mate(m) => format!("{} mates in {}", name(side_to_move.other()), m.unsigned_abs()),
    }
}

/// The side's name at the start of a sentence.
fn name(color: Color) -> &'static str {
    match color {
        Color::White => "White",
        Color::Black => "Black",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_side_that_stands_better_is_named_from_either_side_to_move() {
        let white = describe(Score::Cp(170), 6, Color::White);
        assert_eq!(white, "White is better by about 1.7 pawns, looking 6 moves ahead");
        // The same position seen by the other side: the words do not change.
        assert_eq!(describe(Score::Cp(-170), 6, Color::Black), white);
        assert_eq!(
            describe(Score::Cp(-1234), 9, Color::White),
            "Black is better by about 12.3 pawns, looking 9 moves ahead"
        );
    }

    #[test]
    fn small_scores_are_about_even_and_the_rest_round_to_a_tenth() {
        for v in [0, 1, -1, 24, -24] {
            assert_eq!(describe(Score::Cp(v), 3, Color::White), "about even, looking 3 moves ahead", "{v}");
        }
        assert_eq!(
            describe(Score::Cp(25), 3, Color::White),
            "White is better by about 0.3 pawns, looking 3 moves ahead"
        );
        assert_eq!(
            describe(Score::Cp(-25), 3, Color::White),
            "Black is better by about 0.3 pawns, looking 3 moves ahead"
        );
        assert_eq!(
            describe(Score::Cp(100), 3, Color::Black),
            "Black is better by about 1.0 pawns, looking 3 moves ahead"
        );
        assert_eq!(
            describe(Score::Cp(104), 3, Color::White),
            "White is better by about 1.0 pawns, looking 3 moves ahead"
        );
        assert_eq!(
            describe(Score::Cp(105), 3, Color::White),
            "White is better by about 1.1 pawns, looking 3 moves ahead"
        );
        // Extreme values neither overflow nor panic.
        assert!(
            describe(Score::Cp(i32::MIN), 3, Color::White).starts_with("Black is better by about 21474836.5 pawns")
        );
        assert!(
            describe(Score::Cp(i32::MAX), 3, Color::White).starts_with("White is better by about 21474836.5 pawns")
        );
    }

    #[test]
    fn mates_name_the_side_that_mates_and_leave_out_the_depth() {
        assert_eq!(describe(Score::Mate(3), 7, Color::White), "White mates in 3");
        assert_eq!(describe(Score::Mate(1), 2, Color::Black), "Black mates in 1");
        assert_eq!(describe(Score::Mate(-2), 7, Color::White), "Black mates in 2");
        assert_eq!(describe(Score::Mate(-4), 7, Color::Black), "White mates in 4");
        assert_eq!(describe(Score::Mate(0), 0, Color::White), "Black has given mate");
        assert_eq!(describe(Score::Mate(i32::MIN), 1, Color::White), "Black mates in 2147483648");
    }

    #[test]
    fn the_depth_reads_in_the_singular_and_is_left_out_at_zero() {
        assert_eq!(describe(Score::Cp(0), 1, Color::White), "about even, looking 1 move ahead");
        assert_eq!(describe(Score::Cp(0), 0, Color::White), "about even");
        assert_eq!(describe(Score::Cp(300), 0, Color::Black), "Black is better by about 3.0 pawns");
    }
}
