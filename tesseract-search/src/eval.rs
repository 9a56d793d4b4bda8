//! Static evaluation: integers only, for every board shape, symmetric under color flipping.
//!
//! The score is the sum, for White minus for Black, of ten terms, each with a middlegame and an endgame
//! weight blended by the material left on the board (a "tapered" evaluation):
//!
//! 1. **Material** ([`piece_value`]); see the table and its derivation below.
//! 2. **Mobility**: for every knight and slider, the cells it could move to (empty or enemy), found by
//!    walking its rays in the padded mailbox (on 8×8 read from the bitboards: see below), minus half its
//!    average empty-board mobility, times a weight;
//!    the cells an enemy pawn attacks add a second weight each ([`Weights::mobility_unsafe`]).
//! 3. **Centrality**: `Σ min(c − 1, n − c)` over the axes of the cell (0 on a corner of the 5⁴ board, 8 in
//!    its centre; 0 to 6 on 8×8), times a weight per piece. The king is pushed to the edge in the
//!    middlegame and drawn to the centre in the endgame. On 8×8 boards a correction by role and square
//!    ([`Weights::square`], fitted by the tuner) is added, in the same tables: development, the castled
//!    king and rook, the knight's outposts.
//! 4. **Pawn advancement** along the pawn's own axis (y for Y-pawns and 2D pawns, w for W-pawns), rising
//!    steeply near the promotion cell, more in the endgame.
//! 5. **King safety**: every cell a knight or slider attacks in the enemy king's zone (the cells one king
//!    step away: 80 in 4D, 8 in 2D) adds attack units by attacker (in 4D queen 4, rook 3, others 2; on
//!    8×8, fitted, queen 28, rook 14, bishop 16, knight 16); the king's
//!    side pays `units² / 64` (at most 500, halved for a lone attacker) in the middlegame. Own pieces in the
//!    king's zone earn a shelter bonus.
//! 6. **Passed pawns**: a pawn that no enemy pawn can block or capture on its way to promotion earns a
//!    bonus rising with its advance; in the endgame, more the farther the enemy king and the nearer the
//!    own king are from the cell in front of it, and a large bonus when the enemy has only king and pawns
//!    and its king cannot catch it (the rule of the square). A piece on the cell in front of it (blocked)
//!    adds a weight of its own times its advance. On 8×8 "passed" is the classic rule (no enemy
//!    pawn ahead on its file or a neighbouring one); in 4D a Y-pawn can also be stopped by the enemy
//!    W-pawns whose paths cross its own, and the other way round (`pawn_stops`). Boards of three and
//!    more axes share the weights measured on 5⁴.
//! 7. **Pawn structure and the pieces' lines** (`pawn_structure`): a pawn defended by an own pawn earns a
//!    bonus, the rear of two own pawns of a kind on one line and a pawn with no own pawn of its kind on the
//!    lines next to it (one cell off along an axis of capture) pay; a rook on a line along a pawn's axis
//!    with no own pawn on it earns a bonus, more when no pawn is there at all; two bishops earn the bishop
//!    pair. On 8×8 these are the classic protected, doubled and isolated pawns, the rook on a semi-open
//!    or open file and the bishop pair, weighted on every board of two axes (the weights of chess); on
//!    boards of three and more axes their weights are 0 (tried on 5⁴, not adopted).
//! 8. **Threats**: a piece (not a king or pawn) that an enemy pawn attacks earns the pawn's side a bonus
//!    by the piece's role ([`Weights::threat_pawn`]), and one that an enemy knight or slider worth less
//!    attacks earns the attacker's side one for each such attacker ([`Weights::threat_piece`]), found on
//!    the mobility term's walk. Fitted on 8×8; 0 on boards of three and more axes (not tried there).
//! 9. **The king's cover** (boards of two axes, middlegame; `king_cover`): own pawns one or two rows in
//!    front of the king on its file and the neighbouring ones (the shield), and those files with no own
//!    pawn (open files by the king).
//! 10. **Pawns and outposts on boards of two axes** (`pawns_2d`; the engine's weights are 0, tried and not
//!     adopted: tesseract-search's README, "Pawns, outposts and trapped pieces (2D), tried"): two own pawns
//!     side by side (a phalanx), a backward pawn (its neighbours all ahead of it, the cell in front
//!     attacked by an enemy pawn), the enemy pawns one to three rows in front of the king (the storm,
//!     middlegame), a knight or bishop on an outpost (fourth to sixth rank, defended by an own pawn, out of
//!     every enemy pawn's reach); and, on the mobility term's walk, a trapped piece (at most one cell no
//!     enemy pawn attacks). With weights of 0 they are not computed.
//!
//! **On 8×8** the pieces' reach (mobility, threats, king attacks), the passed pawns and the pawn structure
//! are read from the position's bitboards ([`tesseract_board::Bitboards`], with the generator's
//! [`Attacks8`]) instead of walking the mailbox: the same cells as bit sets, so the same value, which a
//! test checks against the walk on the positions of random games (under the engine's weights and with
//! every term of these on). Together with the exchange count on bitboards (the `see` module) it takes about a fifth
//! off the time of a 2D search (the crate README, "Speed, measured").
//!
//! Then **endgame knowledge** from the material (`known`) scales the sum: dead positions score 0, the side
//! ahead is scaled toward zero where it cannot win, and K+B+N against K on 8×8 is scored by its mating
//! pattern instead (`kbnk`). The facts of the 5³ and 5⁴ boards are those of tesseract-tablebase's tables.
//!
//! The side to move gets a small tempo bonus. [`evaluate_white`] gives the score from White's point of
//! view; it is exactly antisymmetric under the point reflection σ that swaps the colors
//! (`Setup::mirrored`): every table is indexed through σ for Black, and integer division truncates toward
//! zero, so `evaluate_white(σ(p)) == −evaluate_white(p)` for every position (a tested property).
//!
//! # Material
//!
//! Classic chess has the values fitted by the tuner (`tune`) to Stockfish's judgement of the engine's
//! positions, with the pawn as the unit: pawn 100, knight 440, bishop 480, rook 775, queen 1495 (the
//! classic 320, 330, 500 and 900 until fitted values played better in matches: 470, 485, 805 and 1585
//! fitted alone to the results of the engine's games, then 455, 485, 820 and 1610 with every other
//! weight, then 440, 485, 785 and 1540 fitted to Stockfish's judgement; tesseract-search's README, "Pawn
//! structure and the fitted values (2D), measured", "The other 8×8 weights, fitted again", "Threats (2D),
//! fitted and measured", "Fitted to Stockfish's judgement (2D)" and "The king's cover, unsafe mobility
//! and blocked passed pawns (2D)"). A pawn also earns its advance (up to 200 more in the middlegame and
//! 86 in the endgame on the seventh rank) and, when passed, the passed-pawn terms; the
//! piece-square corrections then add a middlegame and an endgame value by square.
//!
//! In 4D nobody has played enough games to know the values, so they are derived. The starting hint is each piece's average mobility on the empty 5⁴ board (RULES.md §2's
//! constants divided by 625 cells): rook 16.0, bishop 28.8, unicorn 25.6, dragon 9.06, knight 23.0,
//! queen 79.5. Two corrections:
//!
//! - **Binding.** A bishop changes two coordinates by ±1, so the parity of `x+y+z+w` never changes: it
//!   sees half the board. A dragon changes all four, so the parity of every coordinate flips together:
//!   it sees two of the sixteen parity classes, 72 to 97 of the 625 cells (about an eighth). Rooks,
//!   unicorns and knights reach every cell. Bound pieces are discounted, 10% for the bishop, 25% for the dragon.
//! - **A floor.** Mobility is not the whole value of a piece (it also guards, blocks and takes part in
//!   mates), so value grows linearly from a floor of one pawn: `v = (100 + 14·m) · binding`.
//!
//! | piece | mobility m | binding | value |
//! |---|---|---|---|
//! | pawn (Y, W) | — | — | 100 |
//! | dragon | 9.06 | 0.75 | 170 |
//! | rook | 16.0 | 1 | 325 |
//! | knight | 23.0 | 1 | 425 |
//! | bishop | 28.8 | 0.9 | 455 |
//! | unicorn | 25.6 | 1 | 460 |
//! | queen | 79.5 | 1 | 1210 |
//!
//! The slope 14 keeps the minor pieces at four to five pawns: a 4D pawn attacks 4 of 625 cells where a 2D
//! pawn attacks 2 of 64, so pieces are worth relatively more pawns than in 2D. These values have not been
//! tuned by self-play yet (the README's matches measure the tiers, not the values).

use std::ops::RangeInclusive;
use std::sync::{Mutex, OnceLock};

use tesseract_board::geometry::{Geometry, MAX_DIMS};
use tesseract_board::mailbox::{self, EMPTY, OFFBOARD};
use tesseract_board::{Bitboards, Cell, Color, Position, Role, Shape};
use tesseract_movegen::Attacks8;

/// Piece values in centipawns on boards of three or more axes, indexed by [`Role::index`] (the king's
/// value is 0: it is never captured).
pub const VALUES_4D: [i32; 9] = [0, 1210, 325, 455, 425, 460, 170, 100, 100];

/// Piece values in centipawns in classic chess and Chess960, indexed by [`Role::index`].
pub const VALUES_2D: [i32; 9] = [0, 1495, 775, 480, 440, 0, 0, 100, 0];

/// The value of a piece in centipawns on a board of `dims` axes.
///
/// # Examples
/// ```
/// use tesseract_board::Role;
/// use tesseract_search::eval::piece_value;
/// assert_eq!(piece_value(2, Role::Rook), 775);
/// assert_eq!(piece_value(4, Role::Queen), 1210);
/// ```
pub fn piece_value(dims: usize, role: Role) -> i32 {
    if dims == 2 { VALUES_2D[role.index()] } else { VALUES_4D[role.index()] }
}

/// The weights of the evaluation's terms: the integers the [module](self)'s ten terms multiply by, for one
/// family of boards ([`Weights::of`]: chess and Chess960, or the boards of three and more axes). Roles are
/// indexed by [`Role::index`]; a pair is (middlegame, endgame).
///
/// The engine evaluates with [`Weights::of`]; an [`Evaluator`] evaluates with any weights, which is how
/// the tuner ([`crate::tune`]) tries others, and a search with those of its
/// [`Options::weights`](crate::Options::weights). As text, weights are lines `name value`
/// ([`Weights::to_text`], [`Weights::parse`]). Not here, and fixed: the game phase's weights by role, the
/// king danger's curve (`units² / 64`, at most 500), the shelter's cap and the endgame knowledge.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Weights {
    /// Material, in centipawns (the king's is 0).
    pub values: [i32; 9],
    /// Centrality weight per unit.
    pub centre: [(i32, i32); 9],
    /// Mobility weight per reachable cell.
    pub mobility: [(i32, i32); 9],
    /// Pawn advancement bonus by steps advanced (0 = on the start row).
    pub advance: [(i32, i32); 8],
    /// King-attack units per attacked cell of the enemy king's zone.
    pub attack: [i32; 9],
    /// Middlegame bonus for each own piece in the king's zone, counted up to [`SHELTER_CAP`] pieces.
    pub shelter: i32,
    /// The side to move's bonus.
    pub tempo: i32,
    /// Passed-pawn bonus by steps advanced from the start row.
    pub passed: [(i32, i32); 8],
    /// Endgame bonus per cell of king distance to the cell in front of a passed pawn, times the pawn's
    /// steps: the enemy king's distance counts for the pawn (the first), the own king's against (the
    /// second).
    pub passed_king: (i32, i32),
    /// The endgame bonus of a passed pawn that the enemy king cannot catch when the enemy has nothing but
    /// king and pawns ("the rule of the square").
    pub unstoppable: i32,
    /// The bonus for having two bishops or more.
    pub bishop_pair: (i32, i32),
    /// Per pawn that an own pawn defends (one that would capture on its cell).
    pub protected: (i32, i32),
    /// Per pawn with an own pawn of its kind ahead of it on its line: the rear one of doubled pawns.
    pub doubled: (i32, i32),
    /// Per pawn with no own pawn of its kind on the lines next to its own (one cell off along an axis
    /// of capture: on 8×8 the neighbouring files), which no pawn of its kind can ever defend.
    pub isolated: (i32, i32),
    /// Per rook and line through it along a pawn's axis (on 8×8 its file) with no own pawn on it: `[0]`
    /// when an enemy pawn stands there (semi-open), `[1]` when no pawn does (open).
    pub rook_line: [(i32, i32); 2],
    /// Per piece of the role (not a king or pawn) that an enemy pawn attacks: the attacking side's bonus.
    pub threat_pawn: [(i32, i32); 9],
    /// Per piece of the role that an enemy knight or slider worth less ([`Weights::values`]) attacks, each
    /// attacker counted: the attacking side's bonus.
    pub threat_piece: [(i32, i32); 9],
    /// Per cell a knight or slider of the role could move to (counted by the mobility term) that an enemy
    /// pawn attacks: added to the mobility weight there (a cell an enemy pawn attacks weighs
    /// `mobility + mobility_unsafe`).
    pub mobility_unsafe: [(i32, i32); 9],
    /// On boards of two axes only: middlegame bonus per own pawn in front of the king, on its file or a
    /// neighbouring one, one row ahead (`[0]`) or two (`[1]`): the pawn shield.
    pub shield: [i32; 2],
    /// On boards of two axes only: middlegame bonus per file among the king's and its neighbours with no
    /// own pawn on it (a penalty when negative).
    pub king_open_file: i32,
    /// Per passed pawn whose cell in front holds a piece (of either color, an own pawn too), times the
    /// pawn's steps.
    pub passed_blocked: (i32, i32),
    /// On boards of two axes only: per pair of own pawns side by side on one rank (a phalanx).
    pub phalanx: (i32, i32),
    /// On boards of two axes only: per backward pawn, one whose neighbouring files hold own pawns, all
    /// ahead of it (none can defend it), and whose cell in front an enemy pawn attacks.
    pub backward: (i32, i32),
    /// On boards of two axes only: middlegame bonus per enemy pawn on the king's file or a neighbouring
    /// one, one row ahead of the king (`[0]`), two (`[1]`) or three (`[2]`): the pawn storm.
    pub storm: [i32; 3],
    /// On boards of two axes only: per knight (`[0]`) or bishop (`[1]`) on an outpost, a cell on the
    /// fourth to sixth rank (from its side) that an own pawn defends and no enemy pawn can ever attack.
    pub outpost: [(i32, i32); 2],
    /// On boards of two axes only: per knight or slider that can move to at most one cell no enemy pawn
    /// attacks (a trapped piece; with every [`Weights::mobility_unsafe`] 0 the pawns' attacks are not
    /// looked at, and it is a piece with at most one cell).
    pub trapped: (i32, i32),
    /// On the 8×8 board only (chess, Chess960): a correction by role and square, added to the piece's
    /// material, centrality and advance there. Indexed `[role][square_slot(file, rank)]`
    /// ([`square_slot`]: from White's side, the files folded so that a and h share an entry, b and g, c
    /// and f, d and e), and read through the point reflection σ for Black, as every table is (so the
    /// evaluation stays antisymmetric under σ). The folding makes Black's g8 mean what White's g1 does
    /// (σ alone would read it as b1): the board's left and right are alike, and the starts score level.
    /// Unused on other boards.
    pub square: [[(i32, i32); SQUARE_SLOTS]; 9],
}

/// The entries of a role's table in [`Weights::square`]: 8 ranks of 4 folded files.
pub const SQUARE_SLOTS: usize = 32;

/// The entry of [`Weights::square`] for the 8×8 square (`file`, `rank`), both from 0 on White's side:
/// `rank · 4 + min(file, 7 − file)`. A black piece's entry is that of its point reflection, (7 − file, 7 −
/// rank).
///
/// # Panics
/// When `file` or `rank` is 8 or more (in a debug build; the slot is meaningless otherwise).
///
/// ```
/// use tesseract_search::eval::square_slot;
/// assert_eq!(square_slot(0, 0), 0); // a1
/// assert_eq!(square_slot(7, 0), 0); // h1, a1's mirror
/// assert_eq!(square_slot(4, 3), 15); // e4, as d4
/// ```
pub const fn square_slot(file: u8, rank: u8) -> usize {
    debug_assert!(file < 8 && rank < 8, "a square of the 8×8 board");
    let folded = if file < 4 { file } else { 7 - file };
    rank as usize * 4 + folded as usize
}

/// Whether [`Weights::square`] counts on boards of `shape`: 8×8 boards of two axes.
pub fn has_squares(shape: Shape) -> bool {
    shape.geometry().dims() == 2 && shape.geometry().side() == 8
}

const WEIGHTS_4D: Weights = Weights {
    values: VALUES_4D,
    //        K         Q       R       B       N       U       D       Y       W
    centre: [(-6, 8), (1, 2), (2, 1), (3, 2), (5, 3), (3, 2), (3, 2), (2, 0), (2, 0)],
    mobility: [(0, 0), (1, 2), (3, 4), (2, 3), (3, 3), (2, 3), (3, 3), (0, 0), (0, 0)],
    advance: [(0, 0), (15, 30), (50, 110), (90, 160), (120, 200), (160, 260), (200, 320), (240, 380)],
    attack: [0, 4, 3, 2, 2, 2, 2, 0, 0],
    shelter: 6,
    tempo: TEMPO,
    // Measured on 5⁴ (three steps); on larger boards the bonus keeps rising, unmeasured.
    passed: [(10, 20), (40, 80), (100, 200), (150, 300), (200, 400), (250, 500), (300, 600), (350, 700)],
    passed_king: (5, 2),
    unstoppable: 500,
    // Tried at the 8×8 weights and not adopted (the README's "Pawn structure in 4D, tried").
    bishop_pair: (0, 0),
    protected: (0, 0),
    doubled: (0, 0),
    isolated: (0, 0),
    rook_line: [(0, 0), (0, 0)],
    threat_pawn: [(0, 0); 9],
    threat_piece: [(0, 0); 9],
    // Not tried on boards of three and more axes (the shield, the open files, the phalanx, backward pawn,
    // storm, outposts and trapped pieces count on two only).
    mobility_unsafe: [(0, 0); 9],
    shield: [0, 0],
    king_open_file: 0,
    passed_blocked: (0, 0),
    phalanx: (0, 0),
    backward: (0, 0),
    storm: [0, 0, 0],
    outpost: [(0, 0), (0, 0)],
    trapped: (0, 0),
    square: [[(0, 0); SQUARE_SLOTS]; 9],
};

pub(crate) const WEIGHTS_2D: Weights = Weights {
    values: VALUES_2D,
    // Fitted by the tuner (all but the pawn's value and the piece-square corrections, 4 passes) to
    // Stockfish's judgement of the engine's positions (`scripts/label_samples.py`): tesseract-search's
    // README, "Fitted to Stockfish's judgement (2D)", then again with the king's cover, the unsafe
    // mobility and the blocked passed pawn: "The king's cover, unsafe mobility and blocked passed pawns
    // (2D)". The phalanx, backward pawn, storm, outposts and trapped pieces weigh 0: fitted likewise, they
    // did not measure better ("Pawns, outposts and trapped pieces (2D), tried").
    //        K         Q        R        B        N        U       D       P       -
    centre: [(-17, 20), (3, 15), (-3, 11), (4, 0), (27, 1), (0, 0), (0, 0), (9, 3), (0, 0)],
    mobility: [(0, 0), (7, 7), (9, 6), (14, 8), (5, 7), (0, 0), (0, 0), (0, 0), (0, 0)],
    advance: [(0, 0), (-23, 5), (0, -3), (23, 14), (17, 42), (200, 86), (90, 160), (110, 200)],
    attack: [0, 28, 14, 16, 16, 0, 0, 0, 0],
    shelter: 2,
    tempo: 38,
    passed: [(-25, 33), (-4, 12), (-27, 44), (18, 54), (66, 109), (89, 119), (80, 160), (100, 200)],
    passed_king: (11, 5),
    unstoppable: 405,
    bishop_pair: (105, 43),
    protected: (16, 11),
    doubled: (-14, -14),
    isolated: (-19, -18),
    rook_line: [(9, 31), (57, 0)],
    threat_pawn: [(0, 0), (93, 15), (107, 56), (110, 79), (119, 67), (0, 0), (0, 0), (0, 0), (0, 0)],
    threat_piece: [(0, 0), (112, 36), (102, 60), (85, 42), (0, 0), (0, 0), (0, 0), (0, 0), (0, 0)],
    mobility_unsafe: [(0, 0), (-11, 14), (-11, -8), (-5, -1), (-16, 1), (0, 0), (0, 0), (0, 0), (0, 0)],
    shield: [26, 12],
    king_open_file: -26,
    passed_blocked: (-8, -14),
    phalanx: (0, 0),
    backward: (0, 0),
    storm: [0, 0, 0],
    outpost: [(0, 0), (0, 0)],
    trapped: (0, 0),
    square: SQUARES_2D,
};

/// The 8×8 piece-square corrections of [`Weights::square`] (the engine's): fitted by the `tune` example
/// (`--squares --ridge 1e-8 --epochs 150`, after the other weights) to Stockfish's judgement of the
/// engine's positions (tesseract-search's README, "The king's cover, unsafe mobility and blocked passed
/// pawns (2D)" and "Fitted to Stockfish's judgement (2D)"; the first fit, to game results: "Piece-square
/// corrections (2D), fitted and measured").
#[rustfmt::skip]
const SQUARES_2D: [[(i32, i32); SQUARE_SLOTS]; 9] = [
    // King: ranks 1 to 8, files a to d (e to h their mirrors).
    [
        (-15, -38), (13, -13), (1, -23), (6, -42),
        (11, 0), (6, 14), (-3, 4), (-16, -3),
        (-12, -4), (11, 0), (1, -6), (-3, -10),
        (-8, -8), (-2, -1), (0, -17), (-1, -10),
        (-9, -15), (1, 25), (3, -3), (-6, -5),
        (1, 17), (2, 29), (7, 41), (-1, 2),
        (1, 5), (3, 15), (6, 20), (4, 18),
        (0, -4), (1, 4), (-1, -2), (1, 7),
    ],
    // Queen: ranks 1 to 8, files a to d (e to h their mirrors).
    [
        (-6, -4), (-20, -15), (13, -11), (5, -18),
        (-16, -1), (2, -12), (9, -7), (12, -27),
        (-27, -4), (-6, 10), (0, -8), (-12, -8),
        (5, 4), (-6, -5), (-12, 2), (-7, -5),
        (8, 9), (-8, 6), (-2, 4), (-11, 7),
        (6, 10), (14, 4), (27, 10), (-1, 13),
        (4, 1), (-7, -4), (15, 14), (-10, 3),
        (17, 8), (1, 2), (4, 5), (6, 3),
    ],
    // Rook: ranks 1 to 8, files a to d (e to h their mirrors).
    [
        (-32, -5), (-18, 1), (0, -26), (14, -45),
        (-53, 7), (-15, -4), (-42, -14), (-26, -16),
        (-31, -11), (-18, -3), (-21, -8), (-23, -17),
        (-17, 7), (-8, 3), (-20, 7), (-18, -10),
        (-11, 34), (8, 11), (-9, 3), (7, 10),
        (14, 43), (16, 21), (17, 22), (15, 11),
        (23, 41), (24, 33), (25, 24), (20, 18),
        (10, 39), (8, 36), (9, 24), (10, 9),
    ],
    // Bishop: ranks 1 to 8, files a to d (e to h their mirrors).
    [
        (15, -89), (27, -28), (-9, -1), (5, -21),
        (35, -15), (18, -17), (11, -21), (-1, -12),
        (-5, 1), (24, -2), (23, -11), (-5, 3),
        (4, -2), (-2, -2), (-14, 16), (0, 2),
        (0, 0), (14, 1), (8, -6), (38, -14),
        (2, 7), (-2, 11), (10, 3), (19, 8),
        (-31, -3), (-21, 11), (-30, 6), (-13, 11),
        (-13, 6), (-2, 2), (-11, 0), (-9, -8),
    ],
    // Knight: ranks 1 to 8, files a to d (e to h their mirrors).
    [
        (9, -22), (6, -27), (10, -18), (-6, -16),
        (-6, -9), (13, 5), (3, -31), (-2, -20),
        (-19, -18), (-2, -6), (-15, -3), (-10, 0),
        (7, 1), (19, 0), (9, 3), (-14, 6),
        (17, -7), (11, 7), (46, 10), (-4, 15),
        (1, 10), (21, 9), (5, -6), (22, 5),
        (-22, -19), (-12, -2), (13, 2), (4, 12),
        (-28, -23), (0, -4), (-9, 2), (-4, -13),
    ],
    [(0, 0); SQUARE_SLOTS], // Unicorn
    [(0, 0); SQUARE_SLOTS], // Dragon
    // YPawn: ranks 1 to 8, files a to d (e to h their mirrors).
    [
        (0, 0), (0, 0), (0, 0), (0, 0),
        (-4, 10), (12, 5), (-11, 30), (-16, 24),
        (-6, 14), (7, 3), (-20, 11), (-7, 0),
        (-24, 19), (-23, 7), (-1, 6), (-1, -13),
        (-11, 9), (-29, 18), (3, -7), (11, -10),
        (-4, -1), (12, -14), (5, 14), (-6, -5),
        (-5, -25), (3, 20), (10, 3), (-1, -9),
        (0, 0), (0, 0), (0, 0), (0, 0),
    ],
    [(0, 0); SQUARE_SLOTS], // WPawn
];

/// The largest evaluation either way, in centipawns: far above any real position's (a queen and a
/// half's worth of mobility in 4D is a few thousand), far below the search's table wins and mates.
pub const MAX_EVAL: i32 = 20_000;

/// Game phase weight by role: the phase is their sum over the board (at most 24 on 2D boards, 32 on
/// others), 0 the endgame.
pub(crate) const PHASE: [i32; 9] = [0, 4, 2, 1, 1, 1, 1, 0, 0];

/// The most own pieces in the king's zone that earn [`Weights::shelter`].
pub const SHELTER_CAP: i32 = 8;
/// The side to move's bonus under the engine's weights of boards of three and more axes (8×8 has its
/// own, fitted: `WEIGHTS_2D.tempo`).
const TEMPO: i32 = 12;

impl Weights {
    /// The engine's weights on a board of `dims` axes.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::Role;
    /// use tesseract_search::eval::Weights;
    /// assert_eq!(Weights::of(2).values[Role::Rook.index()], 775);
    /// ```
    pub fn of(dims: usize) -> Weights {
        if dims == 2 { WEIGHTS_2D } else { WEIGHTS_4D }
    }

    /// The weights that count on boards of `shape`, each named and mutable: the tuner's parameters. Left
    /// out are those that multiply nothing there (roles absent from the board, the pawn terms on boards
    /// without pawns, the king's mobility and material, the pawns' mobility and attack, the advance and
    /// passed-pawn entries past the farthest step a pawn stands on, `side − 3`), the pawn's value (the
    /// unit) and the advance of a pawn on its start row (the base of the others).
    ///
    /// Names: `value.Rook`, `centre.Knight.mg`, `mobility.Queen.eg`, `advance.3.mg`, `attack.Rook`,
    /// `shelter`, `tempo`, `passed.5.eg`, `passed_king.enemy`, `passed_king.own`, `unstoppable`,
    /// `protected.mg`, `doubled.eg`, `isolated.mg`, `rook_semi_open.mg`, `rook_open.eg`,
    /// `threat_pawn.Knight.mg` (on boards with pawns), `threat_piece.Queen.eg`, `bishop_pair.mg`,
    /// `mobility_unsafe.Knight.mg` and `passed_blocked.eg` (on boards with pawns), `shield.1`, `shield.2`,
    /// `king_open_file`, `phalanx.mg`, `backward.eg`, `storm.1` to `storm.3`, `outpost.Knight.mg`,
    /// `outpost.Bishop.eg` and `trapped.mg` (on boards of two axes with pawns), and on 8×8 boards the piece-square corrections, `square.Knight.d4.mg` (files a to d, each standing
    /// for its mirror too; a pawn's from the second rank to the seventh).
    pub fn named(&mut self, shape: Shape) -> Vec<(String, &mut i32)> {
        let dims = shape.geometry().dims();
        // A pawn stands from its start row (step 0) to the row before its promotion (step side − 3).
        let steps = shape.geometry().side().saturating_sub(2);
        let exists = |i: usize| Role::ALL[i].exists_in(dims);
        let moves = |i: usize| exists(i) && Role::ALL[i] != Role::King && !Role::ALL[i].is_pawn();
        let name = |i: usize| format!("{:?}", Role::ALL[i]);
        // A (middlegame, endgame) pair as two parameters, `<name>.mg` and `<name>.eg`.
        fn pair<'a>(out: &mut Vec<(String, &'a mut i32)>, name: String, mg: &'a mut i32, eg: &'a mut i32) {
            out.push((format!("{name}.mg"), mg));
            out.push((format!("{name}.eg"), eg));
        }
        let mut out: Vec<(String, &mut i32)> = Vec::new();
        for (i, v) in self.values.iter_mut().enumerate() {
            if moves(i) {
                out.push((format!("value.{}", name(i)), v));
            }
        }
        for (i, (m, e)) in self.centre.iter_mut().enumerate() {
            if exists(i) {
                pair(&mut out, format!("centre.{}", name(i)), m, e);
            }
        }
        for (i, (m, e)) in self.mobility.iter_mut().enumerate() {
            if moves(i) {
                pair(&mut out, format!("mobility.{}", name(i)), m, e);
            }
        }
        let pawns = !shape.geometry().pawn_roles().is_empty();
        for (i, (m, e)) in self.advance.iter_mut().enumerate().take(if pawns { steps } else { 0 }).skip(1) {
            pair(&mut out, format!("advance.{i}"), m, e);
        }
        for (i, a) in self.attack.iter_mut().enumerate() {
            if moves(i) {
                out.push((format!("attack.{}", name(i)), a));
            }
        }
        out.push(("shelter".to_string(), &mut self.shelter));
        out.push(("tempo".to_string(), &mut self.tempo));
        if pawns {
            for (i, (m, e)) in self.passed.iter_mut().enumerate().take(steps) {
                pair(&mut out, format!("passed.{i}"), m, e);
            }
            out.push(("passed_king.enemy".to_string(), &mut self.passed_king.0));
            out.push(("passed_king.own".to_string(), &mut self.passed_king.1));
            out.push(("unstoppable".to_string(), &mut self.unstoppable));
            pair(&mut out, "protected".to_string(), &mut self.protected.0, &mut self.protected.1);
            pair(&mut out, "doubled".to_string(), &mut self.doubled.0, &mut self.doubled.1);
            pair(&mut out, "isolated".to_string(), &mut self.isolated.0, &mut self.isolated.1);
            if exists(Role::Rook.index()) {
                let [(sm, se), (om, oe)] = &mut self.rook_line;
                pair(&mut out, "rook_semi_open".to_string(), sm, se);
                pair(&mut out, "rook_open".to_string(), om, oe);
            }
        }
        for (i, (m, e)) in self.threat_pawn.iter_mut().enumerate() {
            if pawns && moves(i) {
                pair(&mut out, format!("threat_pawn.{}", name(i)), m, e);
            }
        }
        for (i, (m, e)) in self.threat_piece.iter_mut().enumerate() {
            if moves(i) {
                pair(&mut out, format!("threat_piece.{}", name(i)), m, e);
            }
        }
        if exists(Role::Bishop.index()) {
            pair(&mut out, "bishop_pair".to_string(), &mut self.bishop_pair.0, &mut self.bishop_pair.1);
        }
        if pawns {
            for (i, (m, e)) in self.mobility_unsafe.iter_mut().enumerate() {
                if moves(i) {
                    pair(&mut out, format!("mobility_unsafe.{}", name(i)), m, e);
                }
            }
            pair(&mut out, "passed_blocked".to_string(), &mut self.passed_blocked.0, &mut self.passed_blocked.1);
            if dims == 2 {
                let [one, two] = &mut self.shield;
                out.push(("shield.1".to_string(), one));
                out.push(("shield.2".to_string(), two));
                out.push(("king_open_file".to_string(), &mut self.king_open_file));
                pair(&mut out, "phalanx".to_string(), &mut self.phalanx.0, &mut self.phalanx.1);
                pair(&mut out, "backward".to_string(), &mut self.backward.0, &mut self.backward.1);
                for (i, w) in self.storm.iter_mut().enumerate() {
                    out.push((format!("storm.{}", i + 1), w));
                }
                let [(nm, ne), (bm, be)] = &mut self.outpost;
                pair(&mut out, "outpost.Knight".to_string(), nm, ne);
                pair(&mut out, "outpost.Bishop".to_string(), bm, be);
                pair(&mut out, "trapped".to_string(), &mut self.trapped.0, &mut self.trapped.1);
            }
        }
        if has_squares(shape) {
            for (i, table) in self.square.iter_mut().enumerate() {
                if !exists(i) {
                    continue;
                }
                for (slot, (m, e)) in table.iter_mut().enumerate() {
                    let (file, rank) = (slot % 4, slot / 4);
                    // A pawn never stands on the first or the last rank.
                    if !(Role::ALL[i].is_pawn() && (rank == 0 || rank == 7)) {
                        let square = format!("{}{}", char::from(b'a' + file as u8), rank + 1);
                        pair(&mut out, format!("square.{}.{square}", name(i)), m, e);
                    }
                }
            }
        }
        out
    }

    /// The range a named weight ([`Weights::named`]) may take in a weights text ([`Weights::parse`]):
    /// 0 to 4,000 for a value, −100 to 100 for a mobility (safe or not), king-attack, king-distance or
    /// blocked passed-pawn weight, −1,000 to
    /// 1,000 for the others. Within them no sum of the evaluation overflows, on any board and with as many
    /// pieces as a position holds; the engine's own weights are well inside.
    pub fn bounds(name: &str) -> RangeInclusive<i32> {
        if name.starts_with("value.") {
            0..=4_000
        } else if ["mobility.", "mobility_unsafe.", "attack.", "passed_king.", "passed_blocked."]
            .iter()
            .any(|p| name.starts_with(p))
        {
            -100..=100
        } else {
            -1_000..=1_000
        }
    }

    /// The weights that count on boards of `shape` as text, one a line: the name ([`Weights::named`]), a
    /// space and the value. [`Weights::parse`] reads it back.
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::Shape;
    /// use tesseract_search::eval::Weights;
    /// let text = Weights::of(2).to_text(Shape::CHESS);
    /// assert!(text.starts_with("value.Queen 1495\nvalue.Rook 775\n"));
    /// assert_eq!(Weights::parse(Shape::CHESS, &text), Ok(Weights::of(2)));
    /// ```
    pub fn to_text(&self, shape: Shape) -> String {
        let mut copy = *self;
        copy.named(shape).into_iter().map(|(name, value)| format!("{name} {value}\n")).collect()
    }

    /// The engine's weights for boards of `shape` ([`Weights::of`]) with the changes of `text`: a line
    /// `name value` sets the weight of that name ([`Weights::named`]) to a whole number within its
    /// [bounds](Weights::bounds); blank lines and everything after a `#` are skipped. A name given twice,
    /// a name that does not count on this board, a value out of bounds or a line of another form is an
    /// error naming the line; the weights are then not given.
    ///
    /// # Errors
    /// [`WeightsError`], with the line's number (from 1).
    ///
    /// # Examples
    /// ```
    /// use tesseract_board::{Role, Shape};
    /// use tesseract_search::eval::{Weights, WeightsError};
    /// let w = Weights::parse(Shape::CHESS, "value.Rook 520  # a little more\ntempo 10\n")?;
    /// assert_eq!((w.values[Role::Rook.index()], w.tempo), (520, 10));
    /// assert!(matches!(
    ///     Weights::parse(Shape::CHESS, "\nvalue.Unicorn 400"),
    ///     Err(WeightsError::Unknown { line: 2, .. })
    /// ));
    /// # Ok::<_, WeightsError>(())
    /// ```
    pub fn parse(shape: Shape, text: &str) -> Result<Weights, WeightsError> {
        let mut weights = Weights::of(shape.geometry().dims());
        let mut given: Vec<String> = Vec::new();
        let mut named = weights.named(shape);
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or_default().trim();
            if content.is_empty() {
                continue;
            }
            let mut words = content.split_whitespace();
            let (Some(name), Some(value), None) = (words.next(), words.next(), words.next()) else {
                return Err(WeightsError::Malformed { line, found: shorten(content) });
            };
            let Some((_, slot)) = named.iter_mut().find(|(n, _)| n == name) else {
                return Err(WeightsError::Unknown { line, name: shorten(name) });
            };
            if given.iter().any(|g| g == name) {
                return Err(WeightsError::Repeated { line, name: name.to_string() });
            }
            let bounds = Weights::bounds(name);
            match value.parse::<i32>() {
                Ok(v) if bounds.contains(&v) => **slot = v,
                _ => {
                    return Err(WeightsError::Value {
                        line,
                        name: name.to_string(),
                        value: shorten(value),
                        min: *bounds.start(),
                        max: *bounds.end(),
                    });
                }
            }
            given.push(name.to_string());
        }
        drop(named);
        Ok(weights)
    }
}

/// Why a weights text was refused ([`Weights::parse`]); `line` counts from 1.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum WeightsError {
    /// A line that is not a name and a value.
    #[error("line {line}: expected a weight's name and its value (like `value.Rook 500`), found {found:?}")]
    Malformed {
        /// The line.
        line: usize,
        /// What it holds (its first 40 characters).
        found: String,
    },
    /// A name that is no weight of this board's.
    #[error("line {line}: no weight is named {name:?} on this board")]
    Unknown {
        /// The line.
        line: usize,
        /// The name (its first 40 characters).
        name: String,
    },
    /// A weight given a second time.
    #[error("line {line}: {name} is given a second time")]
    Repeated {
        /// The line.
        line: usize,
        /// The weight's name.
        name: String,
    },
    /// A value that is not a whole number within the weight's bounds.
    #[error("line {line}: {name} {value:?}: expected a whole number from {min} to {max}")]
    Value {
        /// The line.
        line: usize,
        /// The weight's name.
        name: String,
        /// The value given (its first 40 characters).
        value: String,
        /// The lowest value allowed.
        min: i32,
        /// The highest value allowed.
        max: i32,
    },
}

/// The first 40 characters of `text`, for an error message.
fn shorten(text: &str) -> String {
    text.chars().take(40).collect()
}

/// The evaluation under weights of the caller's, for one board shape: what [`evaluate_white`] computes
/// with [`Weights::of`], computed with others (the tuner's trials).
///
/// # Examples
/// ```
/// use tesseract_board::Position;
/// use tesseract_search::eval::{Evaluator, Weights, evaluate_white};
/// let pos = Position::from_fen("4k3/pppp4/8/8/8/8/PPPP4/R3K3 w - - 0 1")?;
/// let mut weights = Weights::of(2);
/// assert_eq!(Evaluator::new(pos.shape(), &weights).evaluate_white(&pos), evaluate_white(&pos));
/// weights.tempo += 10;
/// assert_eq!(Evaluator::new(pos.shape(), &weights).evaluate_white(&pos), evaluate_white(&pos) + 10);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
pub struct Evaluator {
    shape: Shape,
    tables: Tables,
}

impl Evaluator {
    /// The evaluation of `shape`'s positions under `weights`.
    pub fn new(shape: Shape, weights: &Weights) -> Evaluator {
        Evaluator { shape, tables: Tables::build(shape, weights) }
    }

    /// [`evaluate_white`] under this evaluator's weights.
    ///
    /// # Panics
    /// When `pos` is not on the evaluator's board shape.
    pub fn evaluate_white(&self, pos: &Position) -> i32 {
        assert_eq!(pos.shape(), self.shape, "a position of another board shape");
        evaluate_with(&self.tables, pos)
    }
}

/// The tables one board shape needs, built once per shape.
pub(crate) struct Tables {
    cells: usize,
    padded_len: usize,
    values: [i32; 9],
    /// Piece-square values for White, `[role][cell]` flattened, (mg, eg) including material.
    psq: Vec<(i32, i32)>,
    to_cell: &'static [u16],
    /// The padded mailbox index of every cell.
    padded_of: Vec<u16>,
    /// Slide offsets per role (empty for non-sliders).
    slides: [Vec<i32>; 9],
    /// The offsets of each knight and slider whose first step from a cell stays on the board, in the order
    /// of `slides` (or the leaps): `ray_offsets[a..b]` with `(a, b) = rays_from[role * cells + cell]`.
    /// The evaluation walks these only: a step off the board counts for nothing.
    ray_offsets: Vec<i32>,
    rays_from: Vec<(u32, u32)>,
    /// `near[d + padded_len]` is true when `d` is the mailbox offset of one king step.
    near: Vec<bool>,
    /// Mobility weights, and half the average empty-board mobility subtracted from the count.
    mobility: [(i32, i32); 9],
    mobility_base: [i32; 9],
    attack: [i32; 9],
    shelter: i32,
    tempo: i32,
    passed: [(i32, i32); 8],
    passed_king: (i32, i32),
    unstoppable: i32,
    /// The coordinates of every cell, for the passed pawns' king distances.
    coords: Vec<[i8; MAX_DIMS]>,
    /// The mailbox offset of one step along each axis.
    strides: [i32; MAX_DIMS],
    dims: usize,
    /// What stops a pawn, for the passed-pawn term: `pawn_stops[a..b]`, with `(a, b) = stops_from[(color
    /// · 2 + kind) · cells + cell]` (kind 0 the Y-pawn, 1 the W-pawn), are the (padded cell, mailbox code)
    /// of the enemy pawns that would block it or could capture it on its way; see [`pawn_stops`].
    pawn_stops: &'static [(u16, u8)],
    stops_from: &'static [(u32, u32)],
    phase_max: i32,
    /// On 2D boards, the (file, rank) of every cell, both from 0, for the endgame knowledge; empty on
    /// other boards.
    file_rank: Vec<(u8, u8)>,
    /// The board's side.
    side: i32,
    bishop_pair: (i32, i32),
    protected: (i32, i32),
    doubled: (i32, i32),
    isolated: (i32, i32),
    rook_line: [(i32, i32); 2],
    /// Whether a weight of [`pawn_structure`] is not zero (else it is skipped).
    structure: bool,
    threat_pawn: [(i32, i32); 9],
    threat_piece: [(i32, i32); 9],
    /// Whether a weight of [`Weights::threat_pawn`] is not zero (else the pawns' attacks are not looked at).
    pawn_threats: bool,
    mobility_unsafe: [(i32, i32); 9],
    /// Whether a weight of [`Weights::mobility_unsafe`] is not zero (else the cells are not looked at).
    safe_mobility: bool,
    shield: [i32; 2],
    king_open_file: i32,
    passed_blocked: (i32, i32),
    phalanx: (i32, i32),
    backward: (i32, i32),
    storm: [i32; 3],
    outpost: [(i32, i32); 2],
    trapped: (i32, i32),
    /// Whether a weight of [`pawns_2d`] is not zero (else it is skipped).
    pawns_2d: bool,
    /// The pawn kinds of the board (0 the Y-pawn, 1 the W-pawn).
    pawn_kinds: Vec<usize>,
    /// The pawns' lines and defenders of the board ([`PawnLines`]).
    pawn_lines: &'static PawnLines,
    /// What the endgame tables and the rules say of this board's pawnless endings (see [`Known`]).
    knowledge: Knowledge,
    /// On 8×8, the pawn terms' cell lists as bit sets ([`PawnMasks8`]).
    masks8: Option<Box<PawnMasks8>>,
}

/// The cells the passed-pawn and rook-file terms read on 8×8, as 64-bit sets made from the lists of
/// [`pawn_stops`] and [`PawnLines`] (so the same cells), for the evaluation on bitboards.
struct PawnMasks8 {
    /// `stops[color][cell]`: where an enemy pawn stops a pawn of `color` on `cell` (it is not passed).
    stops: [[u64; 64]; 2],
    /// The cells of the cell's file, the cell left out.
    file: [u64; 64],
}

impl PawnMasks8 {
    fn of(g: &Geometry, stops: &PawnStops, lines: &PawnLines, to_cell: &[u16]) -> PawnMasks8 {
        let cells = g.cells();
        let set = |padded: &mut dyn Iterator<Item = u16>| padded.fold(0u64, |s, q| s | 1 << to_cell[q as usize]);
        let mut m = PawnMasks8 { stops: [[0; 64]; 2], file: [0; 64] };
        for cell in 0..64 {
            for ci in 0..2 {
                let (a, b) = stops.1[ci * 2 * cells + cell];
                m.stops[ci][cell] = set(&mut stops.0[a as usize..b as usize].iter().map(|&(q, _)| q));
            }
            let (a, b) = lines.lines_from[cell];
            m.file[cell] = set(&mut lines.lines[a as usize..b as usize].iter().copied());
        }
        m
    }
}

/// Which material facts hold on a board: the rules' dead positions of 8×8, the endgame tables' results of
/// the 5³ and 5⁴ boards (tesseract-tablebase's README), none elsewhere.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Knowledge {
    None,
    Chess,
    Raumschach,
    Tesseract,
}

impl Tables {
    fn build(shape: Shape, w: &Weights) -> Tables {
        let g = shape.geometry();
        let dims = g.dims();
        let n = g.side() as i32;
        let cells = g.cells();
        let values = w.values;
        let mut slides: [Vec<i32>; 9] = Default::default();
        for role in Role::ALL {
            for class in 1..=dims {
                if role.slide_classes() & (1 << class) != 0 {
                    slides[role.index()].extend(g.directions_of_class(class).iter().map(|d| d.offset));
                }
            }
        }
        let leaps: Vec<i32> = g.leaps().iter().map(|l| l.offset).collect();
        let padded_len = g.padded_len();
        let mut near = vec![false; 2 * padded_len];
        for d in g.directions() {
            near[(d.offset + padded_len as i32) as usize] = true;
        }
        let mut psq = vec![(0, 0); 9 * cells];
        for role in Role::ALL {
            for cell in g.all_cells() {
                let c = g.coords(cell);
                let centrality: i32 = (0..dims).map(|a| (c[a] as i32 - 1).min(n - c[a] as i32)).sum();
                let (cm, ce) = w.centre[role.index()];
                let (mut mg, mut eg) = (values[role.index()] + cm * centrality, values[role.index()] + ce * centrality);
                if let Some(axis) = role.pawn_axis() {
                    let steps = (c[axis] as usize).saturating_sub(2).min(7);
                    mg += w.advance[steps].0;
                    eg += w.advance[steps].1;
                }
                if has_squares(shape) {
                    let (sm, se) = w.square[role.index()][square_slot(c[0] - 1, c[1] - 1)];
                    mg += sm;
                    eg += se;
                }
                psq[role.index() * cells + cell.index()] = (mg, eg);
            }
        }
        let mut board = vec![OFFBOARD; padded_len];
        for cell in g.all_cells() {
            board[g.padded(cell)] = EMPTY;
        }
        let mut ray_offsets = Vec::new();
        let mut rays_from = vec![(0, 0); 9 * cells];
        for role in Role::ALL {
            let offsets: &[i32] = if role == Role::Knight { &leaps } else { &slides[role.index()] };
            for cell in g.all_cells() {
                let p = g.padded(cell) as i32;
                let start = ray_offsets.len() as u32;
                ray_offsets.extend(offsets.iter().filter(|&&off| board[(p + off) as usize] != OFFBOARD));
                rays_from[role.index() * cells + cell.index()] = (start, ray_offsets.len() as u32);
            }
        }
        // Half the average empty-board mobility of each knight and slider.
        let mut mobility_base = [0; 9];
        for role in Role::ALL {
            let offsets: &[i32] = if role == Role::Knight { &leaps } else { &slides[role.index()] };
            if offsets.is_empty() || !role.exists_in(dims) {
                continue;
            }
            let mut total = 0usize;
            for cell in g.all_cells() {
                let p = g.padded(cell) as i32;
                for &off in offsets {
                    let mut q = p + off;
                    while board[q as usize] == EMPTY {
                        total += 1;
                        if role == Role::Knight {
                            break;
                        }
                        q += off;
                    }
                }
            }
            mobility_base[role.index()] = (total / (2 * cells)) as i32;
        }
        let stops = pawn_stops_of(shape);
        let (pawn_stops, stops_from) = (stops.0.as_slice(), stops.1.as_slice());
        let masks8 = (dims == 2 && n == 8)
            .then(|| Box::new(PawnMasks8::of(g, stops, pawn_lines_of(shape), g.padded_to_cell_table())));
        let structure =
            [w.protected, w.doubled, w.isolated, w.rook_line[0], w.rook_line[1]].iter().any(|&p| p != (0, 0));
        Tables {
            cells,
            padded_len,
            values,
            psq,
            to_cell: g.padded_to_cell_table(),
            padded_of: g.all_cells().map(|cell| g.padded(cell) as u16).collect(),
            slides,
            ray_offsets,
            rays_from,
            near,
            mobility: w.mobility,
            mobility_base,
            attack: w.attack,
            shelter: w.shelter,
            tempo: w.tempo,
            passed: w.passed,
            passed_king: w.passed_king,
            unstoppable: w.unstoppable,
            coords: g.all_cells().map(|cell| g.coords(cell).map(|c| c as i8)).collect(),
            strides: std::array::from_fn(|axis| if axis < dims { g.stride(axis) } else { 0 }),
            dims,
            pawn_stops,
            stops_from,
            phase_max: if dims == 2 { 24 } else { 32 },
            file_rank: if dims == 2 {
                g.all_cells().map(|cell| (g.coords(cell)[0] - 1, g.coords(cell)[1] - 1)).collect()
            } else {
                Vec::new()
            },
            side: n,
            bishop_pair: w.bishop_pair,
            protected: w.protected,
            doubled: w.doubled,
            isolated: w.isolated,
            rook_line: w.rook_line,
            structure,
            threat_pawn: w.threat_pawn,
            threat_piece: w.threat_piece,
            pawn_threats: w.threat_pawn.iter().any(|&p| p != (0, 0)),
            mobility_unsafe: w.mobility_unsafe,
            safe_mobility: w.mobility_unsafe.iter().any(|&p| p != (0, 0)),
            // The shield and the open files are read on boards of two axes only.
            shield: if dims == 2 { w.shield } else { [0, 0] },
            king_open_file: if dims == 2 { w.king_open_file } else { 0 },
            passed_blocked: w.passed_blocked,
            // The terms of `pawns_2d` and the trapped pieces count on boards of two axes only.
            phalanx: if dims == 2 { w.phalanx } else { (0, 0) },
            backward: if dims == 2 { w.backward } else { (0, 0) },
            storm: if dims == 2 { w.storm } else { [0; 3] },
            outpost: if dims == 2 { w.outpost } else { [(0, 0); 2] },
            trapped: if dims == 2 { w.trapped } else { (0, 0) },
            pawns_2d: dims == 2
                && (w.phalanx != (0, 0) || w.backward != (0, 0) || w.storm != [0; 3] || w.outpost != [(0, 0); 2]),
            pawn_kinds: g.pawn_roles().iter().map(|&r| usize::from(r == Role::WPawn)).collect(),
            pawn_lines: pawn_lines_of(shape),
            knowledge: match shape {
                Shape::CHESS => Knowledge::Chess,
                Shape::RAUMSCHACH => Knowledge::Raumschach,
                Shape::TESSERACT => Knowledge::Tesseract,
                _ => Knowledge::None,
            },
            masks8,
        }
    }

    /// The tables of `shape`, built on first use.
    pub(crate) fn of(shape: Shape) -> &'static Tables {
        static TESSERACT: OnceLock<Tables> = OnceLock::new();
        static CHESS: OnceLock<Tables> = OnceLock::new();
        static OTHERS: Mutex<Vec<(Shape, &'static Tables)>> = Mutex::new(Vec::new());
        if shape == Shape::TESSERACT {
            return TESSERACT.get_or_init(|| Tables::build(shape, &WEIGHTS_4D));
        }
        if shape == Shape::CHESS {
            return CHESS.get_or_init(|| Tables::build(shape, &WEIGHTS_2D));
        }
        let mut others = OTHERS.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&(_, t)) = others.iter().find(|(s, _)| *s == shape) {
            return t;
        }
        let t: &'static Tables = Box::leak(Box::new(Tables::build(shape, &Weights::of(shape.geometry().dims()))));
        others.push((shape, t));
        t
    }

    /// The tables of `shape` under `weights`: those of [`Tables::of`] for the engine's own weights, else
    /// built on first use and kept for the process's life, once for each shape and set of weights.
    pub(crate) fn with(shape: Shape, weights: &Weights) -> &'static Tables {
        static CUSTOM: Mutex<Vec<(Shape, Weights, &'static Tables)>> = Mutex::new(Vec::new());
        if *weights == Weights::of(shape.geometry().dims()) {
            return Tables::of(shape);
        }
        let mut custom = CUSTOM.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some(&(_, _, t)) = custom.iter().find(|(s, w, _)| *s == shape && w == weights) {
            return t;
        }
        let t: &'static Tables = Box::leak(Box::new(Tables::build(shape, weights)));
        custom.push((shape, *weights, t));
        t
    }

    /// The value of the piece with mailbox code `code` (0 for an empty cell).
    #[inline]
    pub(crate) fn value_of_code(&self, code: u8) -> i32 {
        if mailbox::is_piece(code) { self.values[mailbox::role(code).index()] } else { 0 }
    }

    /// The padded mailbox index of the cell of index `cell`.
    #[inline]
    pub(crate) fn padded_of(&self, cell: usize) -> usize {
        usize::from(self.padded_of[cell])
    }

    /// The value of a role.
    #[inline]
    pub(crate) fn value(&self, role: Role) -> i32 {
        self.values[role.index()]
    }
}

/// The static evaluation of `pos` in centipawns from the point of view of the side to move (positive: good
/// for the side to move), as negamax search wants it.
///
/// # Examples
/// ```
/// use tesseract_board::start;
/// use tesseract_search::eval::evaluate;
/// // The starts are symmetric: only the tempo bonus remains.
/// let pos = start::tesseract(start::Army::Standard);
/// assert!(evaluate(&pos) > 0 && evaluate(&pos) < 20);
/// ```
pub fn evaluate(pos: &Position) -> i32 {
    let v = evaluate_white(pos);
    if pos.turn() == Color::White { v } else { -v }
}

/// The static evaluation of `pos` in centipawns from White's point of view; see the [module](self) docs.
///
/// Exactly antisymmetric: for the color-flipped point reflection σ of a position (`Setup::mirrored`),
/// `evaluate_white(σ(p)) == −evaluate_white(p)`.
pub fn evaluate_white(pos: &Position) -> i32 {
    evaluate_with(Tables::of(pos.shape()), pos)
}

/// [`evaluate_white`] with the shape's tables at hand.
///
/// On 8×8 the pieces' reach (mobility, threats, attacks near the enemy king) is read from the position's
/// bitboards and the fast generator's attack tables ([`Attacks8`]) rather than by walking the mailbox: the
/// same sets, so the same value (a test compares the two on positions of many games).
#[inline]
pub(crate) fn evaluate_with(t: &Tables, pos: &Position) -> i32 {
    if pos.bitboards().is_some() { evaluate_impl::<true>(t, pos) } else { evaluate_impl::<false>(t, pos) }
}

/// The evaluation of every board, reading the 8×8 bitboards when `BITBOARDS` (and the position has them).
fn evaluate_impl<const BITBOARDS: bool>(t: &Tables, pos: &Position) -> i32 {
    let bits = if BITBOARDS { pos.bitboards().map(|bb| (bb, Attacks8::get())) } else { None };
    let mb = pos.mailbox();
    let kings = [pos.king_padded(Color::White), pos.king_padded(Color::Black)];
    let mut mg = [0i32; 2];
    let mut eg = [0i32; 2];
    let mut units = [0i32; 2];
    let mut attackers = [0i32; 2];
    let mut shelter = [0i32; 2];
    // The threats of each color: (middlegame, endgame).
    let mut threats = [(0i32, 0i32); 2];
    let mut phase = 0;
    // The material: pieces by color and role, and (on 2D boards) the colors of the bishops' squares.
    let mut material = Material::default();
    for color in Color::ALL {
        let ci = color.index();
        // `near_own[p]`: p is one king step from the own king; `near_enemy[q]`: from the enemy king.
        let near_own = &t.near[t.padded_len - kings[ci]..];
        let near_enemy = &t.near[t.padded_len - kings[1 - ci]..];
        let enemy_bit = (1 - ci as u8) * 16;
        let enemy_pawns = [mailbox::code(color.other(), Role::YPawn), mailbox::code(color.other(), Role::WPawn)];
        // Whether an enemy pawn attacks the padded cell `q` (it defends it, from the enemy's side).
        let pawn_attacked = |q: usize| {
            t.pawn_kinds.iter().any(|&k| {
                t.pawn_lines.defenders[1 - ci][k].iter().any(|&d| mb[(q as i32 + d) as usize] == enemy_pawns[k])
            })
        };
        // On 8×8: the occupancy, own and enemy pieces, the cells the enemy pawns attack and the ring
        // around the enemy king, as bit sets.
        let sets = bits.map(|(bb, a)| {
            let pawn_attacks = a.pawns(color.other(), bb.pieces(color.other(), Role::YPawn));
            let ring = a.king(usize::from(t.to_cell[kings[1 - ci]]));
            (bb.occupied(), bb.by_color(color), bb.by_color(color.other()), pawn_attacks, ring)
        });
        // One piece's terms: its padded cell, its cell on the board, its kind.
        let mut piece = |p: usize, board_cell: usize, role: Role| {
            let ri = role.index();
            let cell = if ci == 0 { board_cell } else { t.cells - 1 - board_cell };
            let (m, e) = t.psq[ri * t.cells + cell];
            mg[ci] += m;
            eg[ci] += e;
            phase += PHASE[ri];
            if role == Role::King {
                if !t.file_rank.is_empty() {
                    material.kings[ci] = t.file_rank[board_cell];
                }
                return;
            }
            material.count[ci][ri] += 1;
            if !t.file_rank.is_empty() {
                let (f, r) = t.file_rank[board_cell];
                if role.is_pawn() {
                    material.pawn_files[ci] |= 1 << f;
                } else if role == Role::Bishop {
                    material.bishop_squares[ci] |= 1 << ((f + r) % 2);
                }
            }
            if near_own[p] {
                shelter[ci] += 1;
            }
            // A pawn has no reach: the rest is the pieces'.
            if role.is_pawn() {
                return;
            }
            let pawn_attacked_here = || match sets {
                Some((_, _, _, pawn_attacks, _)) => pawn_attacks & 1 << board_cell != 0,
                None => pawn_attacked(p),
            };
            if t.pawn_threats && pawn_attacked_here() {
                let (m, e) = t.threat_pawn[ri];
                threats[1 - ci].0 += m;
                threats[1 - ci].1 += e;
            }
            // A piece worth more than this one that it attacks.
            let value = t.values[ri];
            let threat = |sum: &mut (i32, i32), c: u8| {
                let victim = mailbox::role(c).index();
                if t.values[victim] > value {
                    sum.0 += t.threat_piece[victim].0;
                    sum.1 += t.threat_piece[victim].1;
                }
            };
            let mut reach = 0i32;
            let mut unsafe_cells = 0i32;
            let mut hits = 0i32;
            let (a, b) = t.rays_from[ri * t.cells + board_cell];
            let rays = &t.ray_offsets[a as usize..b as usize];
            if let (Some((_, attacks)), Some((occ, own, enemy, pawn_attacks, ring))) = (bits, sets) {
                let sq = board_cell;
                let reached = match role {
                    Role::Knight => attacks.knight(sq),
                    Role::Bishop => attacks.bishop(sq, occ),
                    Role::Rook => attacks.rook(sq, occ),
                    Role::Queen => attacks.queen(sq, occ),
                    _ => 0,
                };
                let mobile = reached & !own;
                reach = mobile.count_ones() as i32;
                if t.safe_mobility {
                    unsafe_cells = (mobile & pawn_attacks).count_ones() as i32;
                }
                hits = (reached & ring).count_ones() as i32;
                let mut victims = reached & enemy;
                while victims != 0 {
                    let q = t.padded_of[victims.trailing_zeros() as usize] as usize;
                    victims &= victims - 1;
                    threat(&mut threats[ci], mb[q]);
                }
            } else if role == Role::Knight {
                for &off in rays {
                    let q = (p as i32 + off) as usize;
                    let c = mb[q];
                    if c == EMPTY {
                        reach += 1;
                        unsafe_cells += i32::from(t.safe_mobility && pawn_attacked(q));
                    } else if c != OFFBOARD && c & 16 == enemy_bit {
                        reach += 1;
                        unsafe_cells += i32::from(t.safe_mobility && pawn_attacked(q));
                        threat(&mut threats[ci], c);
                    }
                    if c != OFFBOARD && near_enemy[q] {
                        hits += 1;
                    }
                }
            } else {
                for &off in rays {
                    let mut q = (p as i32 + off) as usize;
                    loop {
                        let c = mb[q];
                        if c == OFFBOARD {
                            break;
                        }
                        if near_enemy[q] {
                            hits += 1;
                        }
                        if c != EMPTY {
                            if c & 16 == enemy_bit {
                                reach += 1;
                                unsafe_cells += i32::from(t.safe_mobility && pawn_attacked(q));
                                threat(&mut threats[ci], c);
                            }
                            break;
                        }
                        reach += 1;
                        unsafe_cells += i32::from(t.safe_mobility && pawn_attacked(q));
                        q = (q as i32 + off) as usize;
                    }
                }
            }
            if !t.slides[ri].is_empty() || role == Role::Knight {
                let (wm, we) = t.mobility[ri];
                let r = reach - t.mobility_base[ri];
                let (um, ue) = t.mobility_unsafe[ri];
                mg[ci] += wm * r + um * unsafe_cells;
                eg[ci] += we * r + ue * unsafe_cells;
                if t.trapped != (0, 0) && reach - unsafe_cells <= 1 {
                    mg[ci] += t.trapped.0;
                    eg[ci] += t.trapped.1;
                }
            }
            if hits > 0 {
                units[ci] += hits * t.attack[ri];
                attackers[ci] += 1;
            }
        };
        match bits {
            // On 8×8 the pieces come from the bitboards, kind by kind.
            Some((bb, _)) => {
                for role in [Role::YPawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King] {
                    let mut set = bb.pieces(color, role);
                    while set != 0 {
                        let sq = set.trailing_zeros() as usize;
                        set &= set - 1;
                        piece(t.padded_of[sq] as usize, sq, role);
                    }
                }
            }
            None => {
                for &p in pos.piece_list(color) {
                    let p = p as usize;
                    piece(p, t.to_cell[p] as usize, mailbox::role(mb[p]));
                }
            }
        }
    }
    // King safety: units[c] are c's attacks on the other king.
    for ci in 0..2 {
        // Squared from at most 179 units, past which the danger is 500 anyway: no overflow under any
        // weights the tuner tries.
        let u = units[1 - ci].abs().min(179);
        let mut danger = (u * u / 64).min(500);
        if attackers[1 - ci] < 2 {
            danger /= 2;
        }
        mg[ci] += t.shelter * shelter[ci].min(SHELTER_CAP) - danger;
    }
    for ci in 0..2 {
        mg[ci] += threats[ci].0;
        eg[ci] += threats[ci].1;
    }
    if t.shield != [0, 0] || t.king_open_file != 0 {
        king_cover(t, pos, kings, &material, &mut mg);
    }
    if t.pawns_2d {
        pawns_2d(t, pos, &material, &mut mg, &mut eg);
    }
    let masks = if BITBOARDS { t.masks8.as_deref().zip(bits) } else { None };
    material.passers = passed_pawns(t, pos, kings, masks.map(|(m, (bb, _))| (m, bb)), &mut mg, &mut eg);
    if t.structure {
        match masks {
            Some((m, (bb, attacks))) => pawn_structure_8x8(t, m, bb, attacks, &mut mg, &mut eg),
            None => pawn_structure(t, pos, &mut mg, &mut eg),
        }
    }
    for ci in 0..2 {
        if material.count[ci][Role::Bishop.index()] >= 2 {
            mg[ci] += t.bishop_pair.0;
            eg[ci] += t.bishop_pair.1;
        }
    }
    let phase = i64::from(phase.min(t.phase_max));
    let (mgv, egv) = (i64::from(mg[0] - mg[1]), i64::from(eg[0] - eg[1]));
    let tempo = if pos.turn() == Color::White { t.tempo } else { -t.tempo };
    // Blended in 64 bits: the weights' bounds keep each color's sums within `i32` on every board, not
    // their product with the phase. Clamped (to keep below the search's table wins and mates).
    let phase_max = i64::from(t.phase_max);
    let blend = (mgv * phase + egv * (phase_max - phase)) / phase_max + i64::from(tempo);
    let v = blend.clamp(-i64::from(MAX_EVAL), i64::from(MAX_EVAL)) as i32;
    match known(t, &material) {
        Known::Scale(scale) => {
            // The side ahead's score, scaled (toward zero: the evaluation stays antisymmetric).
            let ahead = if v > 0 { 0 } else { 1 };
            v * scale[ahead] / SCALE_WHOLE
        }
        Known::Kbnk { strong } => {
            let v = kbnk(t, kings, strong, material.bishop_squares[strong]);
            if strong == 0 { v } else { -v }
        }
    }
}

/// The material on the board, counted by the evaluation's pass over the pieces.
#[derive(Default)]
struct Material {
    /// Pieces other than kings, by color and [`Role::index`].
    count: [[u16; 9]; 2],
    /// On 2D boards, by color: bit `(file + rank) % 2` set for each color of square a bishop stands on.
    bishop_squares: [u8; 2],
    /// On 2D boards, by color: bit `file` set for each file a pawn stands on.
    pawn_files: [u16; 2],
    /// On 2D boards, the (file, rank) of each color's king.
    kings: [(u8, u8); 2],
    /// Passed pawns, by color ([`passed_pawns`]).
    passers: [u16; 2],
}

impl Material {
    fn pawns(&self, ci: usize) -> u16 {
        self.count[ci][Role::YPawn.index()] + self.count[ci][Role::WPawn.index()]
    }

    /// The number of pieces other than king and pawns.
    fn pieces(&self, ci: usize) -> u16 {
        self.count[ci].iter().sum::<u16>() - self.pawns(ci)
    }

    /// The value of the pieces other than king and pawns.
    fn piece_value(&self, values: &[i32; 9], ci: usize) -> i32 {
        Role::ALL
            .iter()
            .filter(|r| !r.is_pawn())
            .map(|&r| i32::from(self.count[ci][r.index()]) * values[r.index()])
            .sum()
    }

    /// Whether `ci` has exactly these pieces besides its king (role, count), and no others.
    fn is(&self, ci: usize, pieces: &[(Role, u16)]) -> bool {
        Role::ALL.iter().all(|r| self.count[ci][r.index()] == pieces.iter().find(|p| p.0 == *r).map_or(0, |p| p.1))
    }
}

/// The classic piece values of chess (pawn 1, knight 3.2, bishop 3.3, rook 5, queen 9), by which [`known`]
/// judges a lead in pieces: the rule stays the same whatever the evaluation's values.
const CLASSIC_VALUES: [i32; 9] = [0, 900, 500, 330, 320, 0, 0, 100, 0];

/// The whole of a score: [`Known::Scale`] gives 64ths of it.
const SCALE_WHOLE: i32 = 64;

/// What the material says of the outcome.
enum Known {
    /// The evaluation times `scale[c] / 64` when color `c` is ahead: 64 when the material says nothing, 0
    /// when that side cannot win.
    Scale([i32; 2]),
    /// King, bishop and knight against a lone king on 8×8, the stronger side's color index given: a won
    /// ending whose technique the general terms do not know (see [`kbnk`]).
    Kbnk { strong: usize },
}

/// What the material says of the outcome.
///
/// - **Dead positions** score 0 for both sides: on 8×8 those of the rules (kings with at most one knight
///   or bishop between them, or bishops all on squares of one color: RULES.md §2, the game's automatic
///   draw); on the 5³ and 5⁴ boards those the endgame tables prove have no checkmate at all (a lone rook,
///   bishop, knight, unicorn or dragon against a lone king; on 5⁴ also two rooks, bishops, knights or
///   dragons; on 5³ two unicorns), and on 5³ two knights against a lone king, whose only mates are in one
///   move walked into: no forced win.
/// - **Cannot win**, scaled toward zero for the side ahead when it has no pawns (the other side may have
///   some), on 8×8: two knights against a lone king (0); a lead of at most a bishop's value in pieces, by
///   the classic values ([`CLASSIC_VALUES`]), 0 with less than a rook's value (a minor piece against
///   pawns), else a quarter (rook against minor, rook and minor against rook, queen against two minor
///   pieces or against rook and minor). On 5³, two rooks or two bishops against a lone king win from under 1%
///   of the positions: an eighth. A side with pawns is not scaled (but for the wrong bishop and the
///   opposite-colored bishops below), and neither is anything on other boards or with pawns on 5³ and 5⁴.
/// - **Opposite-colored bishops** on 8×8: each side a bishop and pawns alone, the bishops on squares of
///   opposite colors: the side ahead scaled to `(18 + 4 · its passed pawns) / 64`
///   ([`opposite_bishops_alone`]), or to 0 when it has no pawns (a bishop against a bishop).
/// - **The wrong bishop** on 8×8: a bishop and pawns all on one rook's file against a lone king that stands
///   on or next to the pawns' promotion square, which the bishop does not see (it is of the other color): a
///   draw (0), as every endgame book has it.
/// - **KBNK** on 8×8: the mating pattern, [`kbnk`].
fn known(t: &Tables, m: &Material) -> Known {
    const WHOLE: [i32; 2] = [SCALE_WHOLE; 2];
    let pawns = [m.pawns(0), m.pawns(1)];
    let chess = t.knowledge == Knowledge::Chess;
    if chess && opposite_bishops_alone(m) {
        // A side without pawns has a bishop alone against a bishop: it cannot win.
        let scale = |ci: usize| {
            if m.pawns(ci) == 0 { 0 } else { (OCB_BASE + OCB_PER_PASSER * i32::from(m.passers[ci])).min(SCALE_WHOLE) }
        };
        return Known::Scale([scale(0), scale(1)]);
    }
    // Otherwise a side with pawns is never scaled: with pawns on both sides (most positions), nothing is
    // known.
    if t.knowledge == Knowledge::None || pawns[0] > 0 && pawns[1] > 0 || !chess && pawns[0] + pawns[1] > 0 {
        return Known::Scale(WHOLE);
    }
    let mut scale = WHOLE;
    for (ci, s) in scale.iter_mut().enumerate() {
        let weak = 1 - ci;
        if m.pawns(ci) > 0 {
            if chess && wrong_bishop(m, ci) {
                *s = 0;
            }
            continue;
        }
        let bare = m.pieces(weak) == 0 && m.pawns(weak) == 0;
        let one_kind = |r: Role| m.pieces(ci) == 2 && m.count[ci][r.index()] == 2;
        *s = match t.knowledge {
            Knowledge::Chess => {
                if bare && m.is(ci, &[(Role::Bishop, 1), (Role::Knight, 1)]) {
                    return Known::Kbnk { strong: ci };
                }
                // By the classic values, whatever the evaluation's (a rule of endgame theory, not a weight).
                let v = &CLASSIC_VALUES;
                let lead = m.piece_value(v, ci) - m.piece_value(v, weak);
                if bare && one_kind(Role::Knight) {
                    0
                } else if lead <= v[Role::Bishop.index()] {
                    if m.piece_value(v, ci) < v[Role::Rook.index()] { 0 } else { SCALE_WHOLE / 4 }
                } else {
                    SCALE_WHOLE
                }
            }
            _ if !bare || m.count[ci][Role::Queen.index()] > 0 => SCALE_WHOLE,
            Knowledge::Raumschach if one_kind(Role::Rook) || one_kind(Role::Bishop) => SCALE_WHOLE / 8,
            Knowledge::Raumschach => {
                if m.pieces(ci) <= 1 || one_kind(Role::Unicorn) || one_kind(Role::Knight) {
                    0
                } else {
                    SCALE_WHOLE
                }
            }
            Knowledge::Tesseract => {
                let pair = [Role::Rook, Role::Bishop, Role::Knight, Role::Dragon].into_iter().any(one_kind);
                if m.pieces(ci) <= 1 || pair { 0 } else { SCALE_WHOLE }
            }
            Knowledge::None => SCALE_WHOLE,
        };
    }
    // The rules' dead positions of 8×8: nobody can win.
    if t.knowledge == Knowledge::Chess && m.pawns(0) + m.pawns(1) == 0 {
        let minors_only =
            (0..2).all(|ci| m.pieces(ci) == m.count[ci][Role::Bishop.index()] + m.count[ci][Role::Knight.index()]);
        let (knights, pieces) =
            (0..2).fold((0, 0), |(k, p), ci| (k + m.count[ci][Role::Knight.index()], p + m.pieces(ci)));
        let one_square_color = (m.bishop_squares[0] | m.bishop_squares[1]).count_ones() <= 1;
        if minors_only && (pieces <= 1 || knights == 0 && one_square_color) {
            scale = [0, 0];
        }
    }
    Known::Scale(scale)
}

/// Whether each side has a bishop and pawns alone, the two bishops on squares of opposite colors (on
/// 8×8): the ending of opposite-colored bishops, in which the defending bishop holds a blockade on the
/// squares the other cannot reach, so that one or two extra pawns rarely win.
fn opposite_bishops_alone(m: &Material) -> bool {
    (0..2).all(|ci| m.pieces(ci) == 1 && m.count[ci][Role::Bishop.index()] == 1)
        && m.bishop_squares[0] != m.bishop_squares[1]
}

/// The scale of the side ahead in [`opposite_bishops_alone`]'s endings, in 64ths: a base, and more for
/// each of its passed pawns (a passed pawn on each wing stretches the defence), at most the whole. After
/// Stockfish's classical values (18 + 4 a passed pawn), a rule of endgame theory rather than a weight the
/// tuner fits; unlike Stockfish's, it scales the whole score rather than its endgame part (nearly all of
/// it in these endings), and it counts both of two passed pawns on one file ([`passed_pawns`]' count).
const OCB_BASE: i32 = 18;
const OCB_PER_PASSER: i32 = 4;

/// Whether `ci`'s bishop and rook's-file pawns against a lone king are the wrong bishop's draw (see
/// [`known`]); on 8×8.
fn wrong_bishop(m: &Material, ci: usize) -> bool {
    let weak = 1 - ci;
    let file: u8 = match m.pawn_files[ci] {
        0b1 => 0,
        0b1000_0000 => 7,
        _ => return false,
    };
    let rank: u8 = if ci == 0 { 7 } else { 0 };
    let (kf, kr) = m.kings[weak];
    m.pieces(weak) == 0
        && m.pawns(weak) == 0
        && m.is(ci, &[(Role::Bishop, 1), (Role::YPawn, m.pawns(ci))])
        && m.bishop_squares[ci] & (1 << ((file + rank) % 2)) == 0
        && kf.abs_diff(file) <= 1
        && kr.abs_diff(rank) <= 1
}

/// King, bishop and knight against a lone king, from the stronger side's point of view: a won ending
/// (worth more than the pieces, so that no exchange looks better) in which the lone king is driven to a
/// corner of the bishop's square color, where alone it can be mated, and the kings close in.
///
/// `bishop_squares` is the bit of the bishop's square color ((file + rank) % 2: 0 for a1's).
fn kbnk(t: &Tables, kings: [usize; 2], strong: usize, bishop_squares: u8) -> i32 {
    let at = |p: usize| {
        let (f, r) = t.file_rank[t.to_cell[p] as usize];
        (i32::from(f), i32::from(r))
    };
    let (own, lone) = (at(kings[strong]), at(kings[1 - strong]));
    let last = t.side - 1;
    // a1 and h8 are of a1's square color; h1 and a8 of the other.
    let corners = if bishop_squares & 1 != 0 { [(0, 0), (last, last)] } else { [(last, 0), (0, last)] };
    let to_corner = corners.iter().map(|c| (lone.0 - c.0).abs() + (lone.1 - c.1).abs()).min().unwrap_or(0);
    let to_edge = lone.0.min(last - lone.0).min(lone.1).min(last - lone.1);
    let kings_apart = (own.0 - lone.0).abs().max((own.1 - lone.1).abs());
    KBNK_BASE + KBNK_CORNER * (last - to_corner) - KBNK_EDGE * to_edge - KBNK_CLOSE * kings_apart
}

/// [`kbnk`]'s weights: the base (with the terms, 4 to 8.7 pawns: below what the same pieces with a pawn
/// besides score, so that giving the pawn away gains nothing, and far above the draw of giving a piece
/// away), per step of the lone king nearer the right corner, per step off the edge, per step between the
/// kings.
const KBNK_BASE: i32 = 600;
const KBNK_CORNER: i32 = 40;
const KBNK_EDGE: i32 = 30;
const KBNK_CLOSE: i32 = 15;

/// [`pawn_stops`]'s lists: the stops, and for each (color, kind, cell) its range of them.
type PawnStops = (Vec<(u16, u8)>, Vec<(u32, u32)>);

/// What `build` makes of `shape`'s board, made on first use and kept in `cache`: for the tables that
/// depend on the board alone, not on the weights, so that every [`Tables`] of a board (the tuner builds
/// one for each trial) shares them.
fn per_shape<T>(
    cache: &'static Mutex<Vec<(Shape, &'static T)>>,
    shape: Shape,
    build: fn(&Geometry) -> T,
) -> &'static T {
    let mut all = cache.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
    if let Some(&(_, made)) = all.iter().find(|(s, _)| *s == shape) {
        return made;
    }
    let made: &'static T = Box::leak(Box::new(build(shape.geometry())));
    all.push((shape, made));
    made
}

/// [`pawn_stops`] of `shape`'s board ([`per_shape`]).
fn pawn_stops_of(shape: Shape) -> &'static PawnStops {
    static ALL: Mutex<Vec<(Shape, &'static PawnStops)>> = Mutex::new(Vec::new());
    per_shape(&ALL, shape, pawn_stops)
}

/// [`PawnLines::of`] `shape`'s board ([`per_shape`]).
fn pawn_lines_of(shape: Shape) -> &'static PawnLines {
    static ALL: Mutex<Vec<(Shape, &'static PawnLines)>> = Mutex::new(Vec::new());
    per_shape(&ALL, shape, PawnLines::of)
}

/// What stops each pawn, on every cell, for each color and kind: the enemy pawns that would block it or
/// could capture it on its way to promotion, as (padded cell, mailbox code) lists for [`Tables`]. A pawn
/// with none of them on the board is passed.
///
/// An enemy pawn stops a pawn when it stands on the pawn's path (the cells ahead of it, to the promotion
/// row) or could reach one by its own moves forward, or when, there or on any cell it can reach, it
/// attacks the pawn's cell or a cell of its path. On 2D boards this is the classic rule: an enemy pawn
/// ahead on the pawn's file or a neighbouring one. In 4D a Y-pawn is also stopped by the enemy W-pawns
/// whose paths cross its own (and the other way round). Captures en passant are not looked at.
fn pawn_stops(g: &Geometry) -> PawnStops {
    let cells = g.cells();
    let mut stops = Vec::new();
    let mut from = vec![(0, 0); 4 * cells];
    let mut seen = vec![usize::MAX; 2 * cells];
    let step = |axis: usize, by: i8| {
        let mut d = [0i8; MAX_DIMS];
        d[axis] = by;
        d
    };
    // (order, padded cell, code): see the sort below.
    let mut found: Vec<((bool, u8), u16, u8)> = Vec::new();
    for (ci, color) in Color::ALL.into_iter().enumerate() {
        // White's pawns advance up their axis, Black's down; an enemy pawn's cells behind it are so
        // further in the direction of the pawn's own advance, along the enemy pawn's axis.
        let dir: i8 = if ci == 0 { 1 } else { -1 };
        for &role in g.pawn_roles() {
            let axis = role.pawn_axis().expect("a pawn role");
            let kind = usize::from(role == Role::WPawn);
            for cell in g.all_cells() {
                let stamp = (ci * 2 + kind) * cells + cell.index();
                let mut targets = vec![cell];
                while let Some(next) = g.offset(targets[targets.len() - 1], &step(axis, dir)) {
                    targets.push(next);
                }
                found.clear();
                for &enemy in g.pawn_roles() {
                    let b = enemy.pawn_axis().expect("a pawn role");
                    let enemy_kind = usize::from(enemy == Role::WPawn);
                    let code = mailbox::code(color.other(), enemy);
                    // `from` and the cells behind it, from which the enemy pawn walks to it; `facing` when
                    // they are the pawn's own line and the enemy pawn of its kind.
                    let mut add = |from: Cell, facing: bool| {
                        let mut at = Some(from);
                        while let Some(c) = at {
                            let key = enemy_kind * cells + c.index();
                            if seen[key] != stamp {
                                seen[key] = stamp;
                                let along = g.coord(c, axis).abs_diff(g.coord(cell, axis));
                                found.push(((!facing, along), g.padded(c) as u16, code));
                            }
                            at = g.offset(c, &step(b, dir));
                        }
                    };
                    for (k, &target) in targets.iter().enumerate() {
                        if k > 0 {
                            add(target, enemy == role);
                        }
                        // The cells from which an enemy pawn captures on `target`.
                        for &x in g.capture_axes() {
                            for side in [-1, 1] {
                                let mut d = step(b, dir);
                                d[x] = side;
                                if let Some(attacker) = g.offset(target, &d) {
                                    add(attacker, false);
                                }
                            }
                        }
                    }
                }
                // The enemy pawns facing it first (the likeliest to stop it), then the others, each by
                // distance along the pawn's axis, so that the test of a stopped pawn ends early.
                found.sort_by_key(|f| f.0);
                let start = stops.len() as u32;
                stops.extend(found.iter().map(|&(_, padded, code)| (padded, code)));
                from[stamp] = (start, stops.len() as u32);
            }
        }
    }
    (stops, from)
}

/// Whether the pawn `role` of color index `ci` on `cell` is passed: no enemy pawn of [`pawn_stops`] is on
/// the mailbox `mb`.
#[inline]
fn is_passed(t: &Tables, mb: &[u8], ci: usize, role: Role, cell: usize) -> bool {
    let (a, b) = t.stops_from[(ci * 2 + usize::from(role == Role::WPawn)) * t.cells + cell];
    !t.pawn_stops[a as usize..b as usize].iter().any(|&(q, code)| mb[q as usize] == code)
}

/// Adds the king's cover on boards of two axes, in the middlegame: [`Weights::shield`] for each own pawn
/// one or two rows in front of the king on its file or a neighbouring one, and [`Weights::king_open_file`]
/// for each of those files (on the board) with no own pawn at all.
fn king_cover(t: &Tables, pos: &Position, kings: [usize; 2], material: &Material, mg: &mut [i32; 2]) {
    let mb = pos.mailbox();
    let (file, rank) = (t.strides[0], t.strides[1]);
    for ci in 0..2 {
        let pawn = mailbox::code(Color::ALL[ci], Role::YPawn);
        let ahead = if ci == 0 { rank } else { -rank };
        let k = kings[ci] as i32;
        let mut cover = 0;
        for (row, weight) in t.shield.iter().enumerate() {
            let centre = k + (row as i32 + 1) * ahead;
            // Two rows ahead of a king on the last row is in the padding (two cells wide): never a pawn.
            let pawns = [-file, 0, file].iter().filter(|&&f| mb[(centre + f) as usize] == pawn).count();
            cover += weight * pawns as i32;
        }
        let king_file = i32::from(material.kings[ci].0);
        let open = (king_file - 1..=king_file + 1)
            .filter(|&f| (0..t.side).contains(&f) && material.pawn_files[ci] & (1 << f) == 0)
            .count();
        mg[ci] += cover + t.king_open_file * open as i32;
    }
}

/// Adds the pawn terms of boards of two axes ([`Weights::phalanx`], [`Weights::backward`],
/// [`Weights::storm`] in the middlegame, [`Weights::outpost`]) for both colors. Ranks are counted from
/// each color's own side, so the terms are the same for Black under the point reflection.
fn pawns_2d(t: &Tables, pos: &Position, material: &Material, mg: &mut [i32; 2], eg: &mut [i32; 2]) {
    let mb = pos.mailbox();
    let side = t.side as usize;
    // ranks[c][f]: the ranks (bits, from c's own side) of c's pawns on file f.
    let mut ranks = [[0u16; 16]; 2];
    for color in Color::ALL {
        let ci = color.index();
        for &p in pos.piece_list(color) {
            if mailbox::role(mb[p as usize]).is_pawn() {
                let (f, r) = t.file_rank[t.to_cell[p as usize] as usize];
                let r = if ci == 0 { r as usize } else { side - 1 - r as usize };
                ranks[ci][f as usize] |= 1 << r;
            }
        }
    }
    // The bits of `mask` seen from the other side: rank r becomes side − 1 − r.
    let flip = |mask: u16| (0..side).filter(|&r| mask & (1 << r) != 0).fold(0u16, |m, r| m | 1 << (side - 1 - r));
    let neighbours = |f: usize| [f.checked_sub(1), (f + 1 < side).then_some(f + 1)].into_iter().flatten();
    for ci in 0..2 {
        let (own, enemy) = (&ranks[ci], &ranks[1 - ci]);
        let enemy_here: [u16; 16] = std::array::from_fn(|f| if f < side { flip(enemy[f]) } else { 0 });
        let (mut m, mut e) = (0, 0);
        for f in 0..side {
            if f + 1 < side {
                let pairs = (own[f] & own[f + 1]).count_ones() as i32;
                m += t.phalanx.0 * pairs;
                e += t.phalanx.1 * pairs;
            }
            let mut pawns = own[f];
            while pawns != 0 {
                let r = pawns.trailing_zeros() as usize;
                pawns &= pawns - 1;
                // Own pawns on the neighbouring files, and those of them level with or behind this one.
                let beside = neighbours(f).fold(0u16, |b, g| b | own[g]);
                let behind = beside & ((2u16 << r) - 1);
                // The cell in front is attacked by an enemy pawn two rows ahead on a neighbouring file.
                let attacked = r + 2 < side && neighbours(f).any(|g| enemy_here[g] & (1 << (r + 2)) != 0);
                if beside != 0 && behind == 0 && attacked {
                    m += t.backward.0;
                    e += t.backward.1;
                }
            }
        }
        // The storm: enemy pawns one to three rows in front of the king, on its file and the neighbours.
        let (kf, kr) = material.kings[ci];
        let kr = if ci == 0 { kr as usize } else { side - 1 - kr as usize };
        for g in neighbours(kf as usize).chain([kf as usize]) {
            for (d, w) in t.storm.iter().enumerate() {
                if kr + d + 1 < side && enemy_here[g] & (1 << (kr + d + 1)) != 0 {
                    m += w;
                }
            }
        }
        // Outposts: a knight or bishop on the fourth to sixth rank, defended by an own pawn, that no enemy
        // pawn on a neighbouring file can ever attack (none is ahead of it there).
        for &p in pos.piece_list(Color::ALL[ci]) {
            let role = mailbox::role(mb[p as usize]);
            let kind = match role {
                Role::Knight => 0,
                Role::Bishop => 1,
                _ => continue,
            };
            let (f, r) = t.file_rank[t.to_cell[p as usize] as usize];
            let (f, r) = (f as usize, if ci == 0 { r as usize } else { side - 1 - r as usize });
            if !(3..=5).contains(&r) {
                continue;
            }
            let defended = neighbours(f).any(|g| own[g] & (1 << (r - 1)) != 0);
            let ahead = !((2u16 << r) - 1);
            let safe = !neighbours(f).any(|g| enemy_here[g] & ahead != 0);
            if defended && safe {
                m += t.outpost[kind].0;
                e += t.outpost[kind].1;
            }
        }
        mg[ci] += m;
        eg[ci] += e;
    }
}

/// The axis a Y-pawn moves along (the only pawn kind of 8×8).
const Y_PAWN_AXIS: usize = match Role::YPawn.pawn_axis() {
    Some(axis) => axis,
    None => 1,
};

/// Adds the passed-pawn terms of both colors: a pawn is passed when no enemy pawn stops it ([`pawn_stops`]).
/// It earns `Weights::passed[steps]`; in the endgame `steps · (enemy · d(enemy king) − own · d(own king))`
/// more (`Weights::passed_king`), the distances in king moves to the cell in front of it; `steps ·
/// Weights::passed_blocked` when a piece (of either color, an own pawn too) stands on that cell; and `Weights::unstoppable` when the enemy
/// has nothing but king and pawns and its king cannot reach the promotion cell in time (the rule of the
/// square). A heuristic, as in most engines: each such pawn earns it (two runners twice), pieces standing
/// farther along the pawn's path other than its own pawns are not looked at, and neither is an enemy pawn
/// that would promote first.
///
/// With `masks` (on 8×8), whether a pawn is passed is read from the bitboards. Returns the passed pawns'
/// count by color.
fn passed_pawns(
    t: &Tables,
    pos: &Position,
    kings: [usize; 2],
    masks: Option<(&PawnMasks8, &Bitboards)>,
    mg: &mut [i32; 2],
    eg: &mut [i32; 2],
) -> [u16; 2] {
    let mut passers = [0u16; 2];
    let mb = pos.mailbox();
    let at = |p: usize| &t.coords[t.to_cell[p] as usize];
    let dist =
        |a: &[i8; MAX_DIMS], b: &[i8; MAX_DIMS]| (0..t.dims).map(|i| i32::from(a[i].abs_diff(b[i]))).max().unwrap_or(0);
    for ci in 0..2 {
        let (color, enemy) = (Color::ALL[ci], 1 - ci);
        let (own_king, enemy_king) = (at(kings[ci]), at(kings[enemy]));
        // Whether the enemy has only king and pawns, asked once there is a passed pawn.
        let mut enemy_bare = None;
        let enemy_to_move = pos.turn().index() == enemy;
        let own_pawns = [mailbox::code(color, Role::YPawn), mailbox::code(color, Role::WPawn)];
        // White's pawns go up their axis, Black's down.
        let (dir, last) = if ci == 0 { (1, t.side) } else { (-1, 1) };
        // Each passed pawn (its padded cell and axis) earns its terms.
        let mut score = |p: usize, axis: usize| {
            passers[ci] += 1;
            let cell = t.to_cell[p] as usize;
            let coord = i32::from(t.coords[cell][axis]);
            let steps = if ci == 0 { coord - 2 } else { t.side - 1 - coord }.clamp(0, 7);
            let (pm, pe) = t.passed[steps as usize];
            mg[ci] += pm;
            eg[ci] += pe;
            let stride = dir * t.strides[axis];
            let front_cell = (p as i32 + stride) as usize;
            let front = at(front_cell);
            eg[ci] += steps * (t.passed_king.0 * dist(enemy_king, front) - t.passed_king.1 * dist(own_king, front));
            if mb[front_cell] != EMPTY {
                mg[ci] += steps * t.passed_blocked.0;
                eg[ci] += steps * t.passed_blocked.1;
            }
            if *enemy_bare.get_or_insert_with(|| !has_pieces(pos, Color::ALL[enemy])) {
                let mut promotion = t.coords[cell];
                promotion[axis] = last as i8;
                let cells_to_go = (last - coord).abs();
                // From the start row the first step may be a double one (on a board of side 3 the start
                // row is the one before the last, and there is none).
                let moves_to_go = if steps == 0 && cells_to_go >= 2 { cells_to_go - 1 } else { cells_to_go };
                let own_pawn_ahead =
                    (1..=cells_to_go).any(|k| own_pawns.contains(&mb[(p as i32 + k * stride) as usize]));
                if !own_pawn_ahead && moves_to_go < dist(enemy_king, &promotion) - i32::from(enemy_to_move) {
                    eg[ci] += t.unstoppable;
                }
            }
        };
        match masks {
            // On 8×8 the pawns come from the bitboards.
            Some((m, bb)) => {
                let enemy_pawns = bb.pieces(Color::ALL[enemy], Role::YPawn);
                let mut pawns = bb.pieces(color, Role::YPawn);
                while pawns != 0 {
                    let sq = pawns.trailing_zeros() as usize;
                    pawns &= pawns - 1;
                    if m.stops[ci][sq] & enemy_pawns == 0 {
                        score(t.padded_of[sq] as usize, Y_PAWN_AXIS);
                    }
                }
            }
            None => {
                for &p in pos.piece_list(color) {
                    let p = p as usize;
                    let role = mailbox::role(mb[p]);
                    if let Some(axis) = role.pawn_axis() {
                        if is_passed(t, mb, ci, role, t.to_cell[p] as usize) {
                            score(p, axis);
                        }
                    }
                }
            }
        }
    }
    passers
}

/// The cells of `set` and every cell above one of them on its file (toward the eighth rank).
fn fill_up(mut set: u64) -> u64 {
    set |= set << 8;
    set |= set << 16;
    set | set << 32
}

/// The cells of `set` and every cell below one of them on its file.
fn fill_down(mut set: u64) -> u64 {
    set |= set >> 8;
    set |= set >> 16;
    set | set >> 32
}

/// [`pawn_structure`] on 8×8, from the bitboards: the rooks' files from [`PawnMasks8`], the pawns' terms
/// counted over whole sets by shifts and file fills (the same pawns: tested against the mailbox walk).
fn pawn_structure_8x8(
    t: &Tables,
    m: &PawnMasks8,
    bb: &Bitboards,
    attacks: Attacks8,
    mg: &mut [i32; 2],
    eg: &mut [i32; 2],
) {
    for (ci, color) in Color::ALL.into_iter().enumerate() {
        let (own, enemy) = (bb.pieces(color, Role::YPawn), bb.pieces(color.other(), Role::YPawn));
        let (mut sum_mg, mut sum_eg) = (0, 0);
        let mut add = |(a, b): (i32, i32)| {
            sum_mg += a;
            sum_eg += b;
        };
        let mut rooks = bb.pieces(color, Role::Rook);
        while rooks != 0 {
            let sq = rooks.trailing_zeros() as usize;
            rooks &= rooks - 1;
            if m.file[sq] & own == 0 {
                add(t.rook_line[usize::from(m.file[sq] & enemy == 0)]);
            }
        }
        // Each pawn's terms, counted over the whole set: those an own pawn defends, those with an own pawn
        // in front on their file, those with no own pawn on a file next to theirs.
        let protected = own & attacks.pawns(color, own);
        let doubled = own & if ci == 0 { fill_down(own >> 8) } else { fill_up(own << 8) };
        let files = fill_down(fill_up(own));
        let isolated = own & !(((files & !Attacks8::FILE_H) << 1) | ((files & !Attacks8::FILE_A) >> 1));
        for (set, (a, b)) in [(protected, t.protected), (doubled, t.doubled), (isolated, t.isolated)] {
            let n = set.count_ones() as i32;
            add((n * a, n * b));
        }
        mg[ci] += sum_mg;
        eg[ci] += sum_eg;
    }
}

/// The cells [`pawn_structure`] reads on one board.
struct PawnLines {
    /// `defenders[color][kind]`: the mailbox offsets `d` such that an own pawn of that kind on `p + d`
    /// defends `p`.
    defenders: [[Vec<i32>; 2]; 2],
    /// The padded cells of the line through a cell along a pawn kind's axis, the cell left out:
    /// `lines[a..b]` with `(a, b) = lines_from[kind · cells + cell]`.
    lines: Vec<u16>,
    lines_from: Vec<(u32, u32)>,
    /// Likewise the padded cells of the lines next to it (one cell off along an axis of capture).
    neighbours: Vec<u16>,
    neighbours_from: Vec<(u32, u32)>,
}

impl PawnLines {
    fn of(g: &Geometry) -> PawnLines {
        let cells = g.cells();
        let mut out = PawnLines {
            defenders: Default::default(),
            lines: Vec::new(),
            lines_from: vec![(0, 0); 2 * cells],
            neighbours: Vec::new(),
            neighbours_from: vec![(0, 0); 2 * cells],
        };
        let coords: Vec<_> = g.all_cells().map(|c| g.coords(c)).collect();
        for &role in g.pawn_roles() {
            let axis = role.pawn_axis().expect("a pawn role");
            let kind = usize::from(role == Role::WPawn);
            // A pawn of this kind captures one step forward along its axis and one aside along an axis
            // of capture: it defends the cells so placed from it.
            for (ci, dir) in [(0, 1), (1, -1)] {
                for &x in g.capture_axes() {
                    for side in [-1, 1] {
                        out.defenders[ci][kind].push(-dir * g.stride(axis) - side * g.stride(x));
                    }
                }
            }
            for cell in g.all_cells() {
                let c = coords[cell.index()];
                let start = out.lines.len() as u32;
                let start_near = out.neighbours.len() as u32;
                for other in g.all_cells().filter(|&o| o != cell) {
                    let o = coords[other.index()];
                    // The coordinates in which `other` differs from the cell, the pawn's axis left out.
                    let mut differ = (0..g.dims()).filter(|&a| a != axis && o[a] != c[a]);
                    match (differ.next(), differ.next()) {
                        (None, _) => out.lines.push(g.padded(other) as u16),
                        (Some(x), None) if g.capture_axes().contains(&x) && o[x].abs_diff(c[x]) == 1 => {
                            out.neighbours.push(g.padded(other) as u16);
                        }
                        _ => {}
                    }
                }
                out.lines_from[kind * cells + cell.index()] = (start, out.lines.len() as u32);
                out.neighbours_from[kind * cells + cell.index()] = (start_near, out.neighbours.len() as u32);
            }
        }
        out
    }
}

/// Adds the pawn-structure terms of both colors ([`Weights::protected`], [`Weights::doubled`],
/// [`Weights::isolated`]) and the rooks' lines ([`Weights::rook_line`]). On 8×8 they are the classic
/// terms: a pawn defended by a pawn, the rear of two pawns on a file, a pawn with no own pawn on the
/// files next to it, a rook on a file without own pawns.
fn pawn_structure(t: &Tables, pos: &Position, mg: &mut [i32; 2], eg: &mut [i32; 2]) {
    let mb = pos.mailbox();
    let l = t.pawn_lines;
    for ci in 0..2 {
        let color = Color::ALL[ci];
        let own = [mailbox::code(color, Role::YPawn), mailbox::code(color, Role::WPawn)];
        let enemy = [mailbox::code(color.other(), Role::YPawn), mailbox::code(color.other(), Role::WPawn)];
        let dir = if ci == 0 { 1 } else { -1 };
        let (mut m, mut e) = (0, 0);
        let mut add = |(a, b): (i32, i32)| {
            m += a;
            e += b;
        };
        for &p in pos.piece_list(color) {
            let p = p as usize;
            let role = mailbox::role(mb[p]);
            let cell = t.to_cell[p] as usize;
            if role == Role::Rook {
                for &kind in &t.pawn_kinds {
                    let (a, b) = l.lines_from[kind * t.cells + cell];
                    let line = &l.lines[a as usize..b as usize];
                    if !line.iter().any(|&q| own.contains(&mb[q as usize])) {
                        let open = !line.iter().any(|&q| enemy.contains(&mb[q as usize]));
                        add(t.rook_line[usize::from(open)]);
                    }
                }
                continue;
            }
            let Some(axis) = role.pawn_axis() else { continue };
            let kind = usize::from(role == Role::WPawn);
            let defended =
                t.pawn_kinds.iter().any(|&k| l.defenders[ci][k].iter().any(|&d| mb[(p as i32 + d) as usize] == own[k]));
            if defended {
                add(t.protected);
            }
            let stride = dir * t.strides[axis];
            let mut q = p as i32 + stride;
            while mb[q as usize] != OFFBOARD {
                if mb[q as usize] == own[kind] {
                    add(t.doubled);
                    break;
                }
                q += stride;
            }
            let (a, b) = l.neighbours_from[kind * t.cells + cell];
            if !l.neighbours[a as usize..b as usize].iter().any(|&q| mb[q as usize] == own[kind]) {
                add(t.isolated);
            }
        }
        mg[ci] += m;
        eg[ci] += e;
    }
}

/// Whether `color` has a piece other than its king and pawns (null-move pruning is off otherwise).
pub(crate) fn has_pieces(pos: &Position, color: Color) -> bool {
    let mb = pos.mailbox();
    pos.piece_list(color).iter().any(|&p| {
        let role = mailbox::role(mb[p as usize]);
        role != Role::King && !role.is_pawn()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tesseract_board::{CastlingMode, Piece, Setup, start};

    #[test]
    fn starts_are_balanced() {
        for pos in [start::tesseract(start::Army::Standard), start::chess(), start::chess960(0).unwrap()] {
            assert_eq!(evaluate_white(&pos), Weights::of(pos.geometry().dims()).tempo, "{}", pos.fen());
        }
    }

    /// The color-flipped point reflection of `pos` (castling by the Chess960 rules, since the reflection
    /// puts a king on d).
    fn color_flipped(pos: &Position) -> Position {
        Position::from_setup(pos.to_setup().mirrored(), CastlingMode::Chess960).unwrap()
    }

    #[test]
    fn mirror_is_opposite() {
        let pos = Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap();
        let mirrored = color_flipped(&pos);
        assert_eq!(evaluate_white(&mirrored), -evaluate_white(&pos));
    }

    /// The passed-pawn terms of `fen` alone, as (mg, eg) for White and for Black, under the engine's
    /// 8×8 weights with the passed-pawn weights of these sums: (5, 10), (5, 15), (10, 25), (20, 45)
    /// for the steps 0 to 3, the king distances (5, 2).
    fn passed_terms(fen: &str) -> ([i32; 2], [i32; 2]) {
        let pos = Position::from_fen(fen).unwrap();
        let kings = [pos.king_padded(Color::White), pos.king_padded(Color::Black)];
        let (mut mg, mut eg) = ([0; 2], [0; 2]);
        let mut w = Weights::of(2);
        w.passed[..4].copy_from_slice(&[(5, 10), (5, 15), (10, 25), (20, 45)]);
        w.passed_king = (5, 2);
        passed_pawns(&Tables::build(pos.shape(), &w), &pos, kings, None, &mut mg, &mut eg);
        (mg, eg)
    }

    /// The material of `fen` as the evaluation counts it, passed pawns included.
    fn material_of(fen: &str) -> (Material, &'static Tables) {
        let pos = Position::from_fen(fen).unwrap();
        let t = Tables::of(pos.shape());
        let kings = [pos.king_padded(Color::White), pos.king_padded(Color::Black)];
        let mut m = Material::default();
        for (ci, color) in Color::ALL.into_iter().enumerate() {
            for &p in pos.piece_list(color) {
                let role = mailbox::role(pos.mailbox()[p as usize]);
                if role != Role::King {
                    m.count[ci][role.index()] += 1;
                }
                if role == Role::Bishop {
                    let (f, r) = t.file_rank[t.to_cell[p as usize] as usize];
                    m.bishop_squares[ci] |= 1 << ((f + r) % 2);
                }
            }
        }
        m.passers = passed_pawns(t, &pos, kings, None, &mut [0; 2], &mut [0; 2]);
        (m, t)
    }

    fn scale_of(fen: &str) -> Option<[i32; 2]> {
        let (m, t) = material_of(fen);
        match known(t, &m) {
            Known::Scale(s) => Some(s),
            Known::Kbnk { .. } => None,
        }
    }

    #[test]
    fn opposite_colored_bishops_scale_by_passed_pawns() {
        // White's bishop on f1 (light), Black's on d6 (dark); no passed pawn on either side.
        assert_eq!(scale_of("4k3/pp6/3b4/8/8/8/PPP5/4KB2 w - - 0 1"), Some([18, 18]));
        // White's g- and h-pawns are passed (two), not its c-pawn nor Black's b-pawn (each stops the other).
        assert_eq!(scale_of("4k3/1p6/3b4/8/7P/8/2P3P1/4KB2 w - - 0 1"), Some([26, 18]));
        // A side without pawns cannot win: a bishop against a bishop.
        assert_eq!(scale_of("4k3/8/3b4/8/8/8/PP6/4KB2 b - - 0 1"), Some([26, 0]));
        // Bishops of one color (Black's on d7, light), or another piece besides: not this ending.
        assert_eq!(scale_of("4k3/pp1b4/8/8/8/8/PPP5/4KB2 w - - 0 1"), Some([SCALE_WHOLE; 2]));
        assert_eq!(scale_of("4k3/pp6/3b4/8/8/8/PPP5/3RKB2 w - - 0 1"), Some([SCALE_WHOLE; 2]));
        assert_eq!(scale_of("4k3/pp6/3b4/8/8/8/PPP5/3NKB2 w - - 0 1"), Some([SCALE_WHOLE; 2]));
        assert_eq!(scale_of("4k3/pp6/3b4/8/8/8/PPP5/2B1KB2 w - - 0 1"), Some([SCALE_WHOLE; 2]));
    }

    #[test]
    fn opposite_colored_bishops_a_pawn_up_are_nearly_level() {
        // A pawn up with bishops of opposite colors (Black's on d6, dark) against the same with Black's
        // bishop on a light square (c8): the first is scaled to 18/64.
        let ocb = evaluate_white(&Position::from_fen("4k3/pp6/3b4/8/8/8/PPP5/4KB2 w - - 0 1").unwrap());
        let same = evaluate_white(&Position::from_fen("2b1k3/pp6/8/8/8/8/PPP5/4KB2 w - - 0 1").unwrap());
        assert!(same > 60 && ocb > 0 && ocb < same / 2, "opposite {ocb}, same {same}");
        // The color-flipped reflection scores exactly the opposite (its scales swap with the colors).
        for fen in [
            "4k3/pp6/3b4/8/8/8/PPP5/4KB2 w - - 0 1",
            "4k3/1p6/3b4/8/7P/8/2P3P1/4KB2 b - - 0 1",
            "4k3/8/3b4/8/8/8/PP6/4KB2 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = color_flipped(&pos);
            assert_eq!(evaluate_white(&mirrored), -evaluate_white(&pos), "{fen}");
        }
    }

    #[test]
    fn passed_pawns_by_hand() {
        // d5 is passed, three steps from d2: `passed[3]` = (20, 45); the cell in front, d6, is 2 from the
        // black king on e8 and 5 from the white king on e1: 3 · (5·2 − 2·5) = 0. The black king reaches
        // d8 at once: not unstoppable.
        assert_eq!(passed_terms("4k3/8/8/3P4/8/8/8/4K3 w - - 0 1"), ([20, 0], [45, 0]));
        // A black pawn on c6 stops d5, and d5 is ahead of c6 on a neighbouring file: neither is passed.
        assert_eq!(passed_terms("4k3/8/2p5/3P4/8/8/8/4K3 w - - 0 1"), ([0, 0], [0, 0]));
        // On e6, the other neighbouring file: the same.
        assert_eq!(passed_terms("4k3/8/4p3/3P4/8/8/8/4K3 w - - 0 1"), ([0, 0], [0, 0]));
        // On f6 both are passed. Black's f6 is one step from f7: `passed[1]` = (5, 15); in front, f5 is
        // 4 from the white king on e1 and 3 from the black king: 1 · (5·4 − 2·3) = 14. White's d5 as
        // above.
        assert_eq!(passed_terms("4k3/8/5p2/3P4/8/8/8/4K3 w - - 0 1"), ([20, 5], [45, 29]));
    }

    /// The pawn-structure terms alone ([`pawn_structure`]), (mg, eg) by color, under `weights`.
    fn structure_terms(pos: &Position, weights: &Weights) -> [(i32, i32); 2] {
        let (mut mg, mut eg) = ([0; 2], [0; 2]);
        pawn_structure(&Tables::build(pos.shape(), weights), pos, &mut mg, &mut eg);
        [(mg[0], eg[0]), (mg[1], eg[1])]
    }

    #[test]
    fn pawn_structure_by_hand() {
        // The weights of these sums (the engine's of before the 8×8 refit).
        let w = Weights {
            protected: (8, 8),
            doubled: (-10, -20),
            isolated: (-10, -10),
            rook_line: [(10, 5), (20, 10)],
            ..Weights::of(2)
        };
        let terms = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            let terms = structure_terms(&pos, &w);
            // The color-flipped reflection gives the same terms to the other side.
            let mirrored = Position::from_setup(pos.to_setup().mirrored(), CastlingMode::Standard).unwrap();
            assert_eq!(structure_terms(&mirrored, &w), [terms[1], terms[0]], "{fen}");
            terms
        };
        // c3 is defended by b2 and d2 (once protected); b2, c3 and d2 each have a pawn on a file next to
        // theirs: none isolated.
        assert_eq!(terms("4k3/8/8/8/8/2P5/1P1P4/4K3 w - - 0 1"), [(8, 8), (0, 0)]);
        // a2 behind a3 (one doubled), both isolated; the rook on a1 has own pawns on its file.
        assert_eq!(terms("4k3/8/8/8/8/P7/P7/R3K3 w - - 0 1"), [(-30, -40), (0, 0)]);
        // The rook on a1 on a file with a black pawn only (semi-open), on h1 on a file without pawns
        // (open); Black's a7 is isolated. A rook and a pawn of its own color on the h-file: not open.
        assert_eq!(terms("4k3/p7/8/8/8/8/8/R3K2R w - - 0 1"), [(30, 15), (-10, -10)]);
        assert_eq!(terms("4k3/p7/8/8/8/8/7P/R3K2R w - - 0 1"), [(0, -5), (-10, -10)]);
        // Pawns side by side defend nothing; one ahead of the other on the next file is defended.
        assert_eq!(terms("4k3/8/8/8/8/8/3PP3/4K3 w - - 0 1"), [(0, 0), (0, 0)]);
        assert_eq!(terms("4k3/8/8/8/8/4P3/3P4/4K3 w - - 0 1"), [(8, 8), (0, 0)]);
        // Black's pawns defend downwards: d6 defends e5.
        assert_eq!(terms("4k3/8/3p4/4p3/8/8/8/4K3 w - - 0 1"), [(0, 0), (8, 8)]);
    }

    #[test]
    fn pawn_structure_in_4d() {
        use Role::{WPawn, YPawn};
        let mut w = Weights::of(4);
        (w.protected, w.doubled, w.isolated) = ((1, 0), (10, 0), (100, 0));
        let terms = |white: &[(Role, [u8; 4])]| {
            let (pos, mirrored) = kings_and_pieces_4d(white, &[]);
            let terms = structure_terms(&pos, &w);
            assert_eq!(structure_terms(&mirrored, &w), [terms[1], terms[0]], "{white:?}");
            assert_eq!(terms[1], (0, 0));
            terms[0].0
        };
        // A Y-pawn walks y and captures one step on along y and one aside along x or z; a W-pawn likewise
        // along w. (3,3,3,3) alone: isolated.
        let y = (YPawn, [3, 3, 3, 3]);
        assert_eq!(terms(&[y]), 100);
        // Defended from (2,2,3,3) (x) or (3,2,4,3) (z) by a Y-pawn, from (2,3,3,2) by a W-pawn; the
        // defender is isolated unless it stands on a line next to the pawn's (one off along x or z).
        assert_eq!(terms(&[y, (YPawn, [2, 2, 3, 3])]), 1);
        assert_eq!(terms(&[y, (YPawn, [3, 2, 4, 3])]), 1);
        assert_eq!(terms(&[y, (WPawn, [2, 3, 3, 2])]), 1 + 200);
        // Not defended from along w by a Y-pawn, nor from (2,2,4,3), two aside; the lines next to the
        // pawn's are one off along x or z only (not diagonally, nor along w).
        assert_eq!(terms(&[y, (YPawn, [3, 2, 3, 2])]), 200);
        assert_eq!(terms(&[y, (YPawn, [2, 2, 4, 3])]), 200);
        // Two Y-pawns on one line: the rear is doubled, both isolated; a W-pawn ahead is of another kind.
        assert_eq!(terms(&[y, (YPawn, [3, 4, 3, 3])]), 10 + 200);
        assert_eq!(terms(&[y, (WPawn, [3, 4, 3, 3])]), 200);
        // A W-pawn behind a W-pawn along w.
        assert_eq!(terms(&[(WPawn, [3, 3, 3, 2]), (WPawn, [3, 3, 3, 4])]), 10 + 200);
    }

    #[test]
    fn what_stops_a_pawn_on_8x8_is_the_classic_rule() {
        // An enemy pawn on the pawn's file or a neighbouring one, strictly ahead of it, and nothing else.
        let g = Shape::CHESS.geometry();
        let t = Tables::of(Shape::CHESS);
        for (ci, color) in Color::ALL.into_iter().enumerate() {
            let enemy_pawn = mailbox::code(color.other(), Role::YPawn);
            for cell in g.all_cells() {
                let (f, r) = (g.coords(cell)[0] as i32, g.coords(cell)[1] as i32);
                let ahead = |rank: i32| if ci == 0 { rank > r } else { rank < r };
                let mut expected: Vec<(u16, u8)> = g
                    .all_cells()
                    .filter(|&c| (g.coords(c)[0] as i32 - f).abs() <= 1 && ahead(g.coords(c)[1] as i32))
                    .map(|c| (g.padded(c) as u16, enemy_pawn))
                    .collect();
                let (a, b) = t.stops_from[ci * 2 * t.cells + cell.index()];
                let mut table = t.pawn_stops[a as usize..b as usize].to_vec();
                expected.sort_unstable();
                table.sort_unstable();
                assert_eq!(table, expected, "{color:?} pawn on {}", g.cell_name(cell));
            }
        }
    }

    /// Whether a white pawn `role` on `at` is passed among black pieces `black` on the 5⁴ board (kings on
    /// 1111 and 5555); asserts that a black pawn is passed alike in the color-flipped reflection.
    /// A 5⁴ position of the white king on 1111, the black king on 5555 and these pieces, White to move,
    /// and its color-flipped reflection.
    fn kings_and_pieces_4d(white: &[(Role, [u8; 4])], black: &[(Role, [u8; 4])]) -> (Position, Position) {
        let mut setup = Setup::empty(Shape::TESSERACT);
        setup.put(&[1, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
        setup.put(&[5, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
        for (color, pieces) in [(Color::White, white), (Color::Black, black)] {
            for (r, c) in pieces {
                setup.put(c, Some(Piece::new(color, *r)));
            }
        }
        let mirrored = Position::from_setup(setup.mirrored(), CastlingMode::Standard).unwrap();
        (Position::from_setup(setup, CastlingMode::Standard).unwrap(), mirrored)
    }

    fn passed_in_4d(role: Role, at: [u8; 4], black: &[(Role, [u8; 4])]) -> bool {
        let g = Shape::TESSERACT.geometry();
        let t = Tables::of(Shape::TESSERACT);
        // The color-flipped reflection: a black pawn on the reflected cell among white pieces.
        let (pos, mirrored) = kings_and_pieces_4d(&[(role, at)], black);
        let white = is_passed(t, pos.mailbox(), 0, role, g.cell(&at).unwrap().index());
        let reflected = at.map(|c| 6 - c);
        let black = is_passed(t, mirrored.mailbox(), 1, role, g.cell(&reflected).unwrap().index());
        assert_eq!(white, black, "{role:?} on {at:?} and its reflection");
        white
    }

    #[test]
    fn what_stops_a_pawn_in_4d() {
        use Role::{Knight, WPawn, YPawn};
        // A white Y-pawn on (3,2,3,3) walks y up to (3,5,3,3); its capture axes are x and z.
        let y = [3, 2, 3, 3];
        assert!(passed_in_4d(YPawn, y, &[]));
        // Black Y-pawns: ahead on its line (blocks), ahead one step along x or z (captures), behind or
        // two steps aside (neither).
        assert!(!passed_in_4d(YPawn, y, &[(YPawn, [3, 4, 3, 3])]));
        assert!(!passed_in_4d(YPawn, y, &[(YPawn, [4, 3, 3, 3])]));
        assert!(!passed_in_4d(YPawn, y, &[(YPawn, [3, 4, 2, 3])]));
        assert!(passed_in_4d(YPawn, y, &[(YPawn, [4, 2, 3, 3])]));
        assert!(passed_in_4d(YPawn, y, &[(YPawn, [5, 4, 3, 3])]));
        assert!(passed_in_4d(YPawn, y, &[(YPawn, [4, 4, 4, 3])]));
        // Not on the pawn's hyperplane w = 3: a black Y-pawn never changes w.
        assert!(passed_in_4d(YPawn, y, &[(YPawn, [3, 4, 3, 4])]));
        // Black W-pawns walk w down and capture along x or z: one on (3,3,3,4) or (3,5,3,4) steps onto
        // the path ((3,3,3,3), the promotion cell (3,5,3,3)); one on (2,3,3,4) or (3,4,4,4) captures on it
        // ((3,3,3,3), (3,4,3,3)); one on (3,4,3,2) has passed w = 3, and one on (1,3,3,4) or (2,3,3,3)
        // never attacks a cell of the path.
        assert!(!passed_in_4d(YPawn, y, &[(WPawn, [3, 3, 3, 4])]));
        assert!(!passed_in_4d(YPawn, y, &[(WPawn, [3, 5, 3, 4])]));
        assert!(!passed_in_4d(YPawn, y, &[(WPawn, [2, 3, 3, 4])]));
        assert!(!passed_in_4d(YPawn, y, &[(WPawn, [3, 4, 4, 4])]));
        assert!(passed_in_4d(YPawn, y, &[(WPawn, [3, 4, 3, 2])]));
        assert!(passed_in_4d(YPawn, y, &[(WPawn, [1, 3, 3, 4])]));
        assert!(passed_in_4d(YPawn, y, &[(WPawn, [2, 3, 3, 3])]));
        // Pieces do not stop it.
        assert!(passed_in_4d(YPawn, y, &[(Knight, [3, 3, 3, 3])]));
        // A white W-pawn on (2,3,4,2) walks w; black Y-pawns on (2,4,4,4) (steps onto (2,3,4,4)) and
        // (3,4,4,3) (captures on (2,3,4,3)) stop it, one on (2,2,4,4) (past y = 3) does not.
        let w = [2, 3, 4, 2];
        assert!(passed_in_4d(WPawn, w, &[]));
        assert!(!passed_in_4d(WPawn, w, &[(YPawn, [2, 4, 4, 4])]));
        assert!(!passed_in_4d(WPawn, w, &[(YPawn, [3, 4, 4, 3])]));
        assert!(passed_in_4d(WPawn, w, &[(YPawn, [2, 2, 4, 4])]));
    }

    #[test]
    fn passed_pawn_positions_score_opposite_mirrored() {
        for fen in [
            "4k3/8/5p2/3P4/8/8/8/4K3 w - - 0 1",
            "8/6k1/8/8/8/P7/P7/K7 b - - 0 1",
            "8/6k1/8/8/8/8/P7/K7 w - - 0 1",
            "8/1p4k1/8/8/8/8/P4P2/K7 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = color_flipped(&pos);
            assert_eq!(evaluate_white(&mirrored), -evaluate_white(&pos), "{fen}");
        }
    }

    #[test]
    fn rule_of_the_square() {
        // a2 needs five moves (a double step first); the black king on g7 is 6 from a8. With White to
        // move the pawn queens first; with Black to move the king catches it. So the unstoppable bonus
        // counts with White to move only (no pieces: the endgame weight is whole). Against the same
        // weights without it, not against the other side to move: with Black to move the tempo may put
        // the bare king ahead, and a side that cannot win is scaled to 0.
        let without = Evaluator::new(Shape::CHESS, &Weights { unstoppable: 0, ..WEIGHTS_2D });
        let bonus = |fen: &str| {
            let pos = Position::from_fen(fen).unwrap();
            evaluate_white(&pos) - without.evaluate_white(&pos)
        };
        assert_eq!(bonus("8/6k1/8/8/8/8/P7/K7 w - - 0 1"), WEIGHTS_2D.unstoppable);
        assert_eq!(bonus("8/6k1/8/8/8/8/P7/K7 b - - 0 1"), 0);
        // On a board of side 3 a pawn on its start rank has no double step: a2 needs one move, and the
        // black king on c3 is two from a3, so the bonus goes with White to move only (a double step
        // counted there would give it both ways).
        let white = evaluate_white(&Position::from_fen("2k/P2/K2 w - - 0 1").unwrap());
        let black = evaluate_white(&Position::from_fen("2k/P2/K2 b - - 0 1").unwrap());
        assert_eq!(white - black, 2 * WEIGHTS_2D.tempo + WEIGHTS_2D.unstoppable);
        // A pawn of its own ahead takes the bonus away: a2 has none, a3 (five moves, one step from
        // the start) has it with White to move only.
        let white = evaluate_white(&Position::from_fen("8/6k1/8/8/8/P7/P7/K7 w - - 0 1").unwrap());
        let black = evaluate_white(&Position::from_fen("8/6k1/8/8/8/P7/P7/K7 b - - 0 1").unwrap());
        assert_eq!(white - black, 2 * WEIGHTS_2D.tempo + WEIGHTS_2D.unstoppable);
    }

    #[test]
    fn threats_by_hand() {
        // From none, each threat weight the same in both phases: the score moves by it exactly. Both sides
        // keep a rook and two pawns, so that no material knowledge scales the score.
        let none = Weights { threat_pawn: [(0, 0); 9], threat_piece: [(0, 0); 9], ..Weights::of(2) };
        let own = Evaluator::new(Shape::CHESS, &none);
        let mut w = none;
        w.threat_pawn[Role::Knight.index()] = (7, 7);
        w.threat_pawn[Role::Queen.index()] = (10, 10);
        w.threat_piece[Role::Rook.index()] = (11, 11);
        w.threat_piece[Role::Bishop.index()] = (5, 5);
        // Never counted (a pawn is no victim of a pawn's threat): a term that counted it would show.
        w.threat_pawn[Role::YPawn.index()] = (13, 13);
        w.threat_piece[Role::Queen.index()] = (100, 100);
        let threats = Evaluator::new(Shape::CHESS, &w);
        for (fen, change) in [
            // The e4 pawn attacks the d5 knight, whoever is to move.
            ("r5k1/pp6/8/3n4/4P3/8/PP6/R5K1 w - - 0 1", 7),
            ("r5k1/pp6/8/3n4/4P3/8/PP6/R5K1 b - - 0 1", 7),
            // Not from behind, and not a pawn attacking a pawn.
            ("r5k1/pp6/8/8/4P3/3n4/PP6/R5K1 w - - 0 1", 0),
            // (two pawns on one: counted per pawn attacked, a pawn's threat on a pawn would show).
            ("r5k1/pp6/8/3p4/2P1P3/8/PP6/R5K1 w - - 0 1", 0),
            // The d5 pawn attacks the e4 knight: Black's.
            ("r5k1/pp6/8/3p4/4N3/8/PP6/R5K1 w - - 0 1", -7),
            // The b3 bishop attacks the d5 rook (worth more); the rook does not attack it.
            ("r5k1/pp6/8/3r4/8/1B6/PP6/R5K1 w - - 0 1", 11),
            // Not through a piece between them (the c4 pawn's threat on the rook weighs 0 here).
            ("r5k1/pp6/8/3r4/2P5/1B6/PP6/R5K1 w - - 0 1", 0),
            // A rook attacking a bishop is no threat (not worth less); a knight attacking one is (440 <
            // 480); two knights attacking the queen count twice, and the pawn attacking it once more.
            ("r5k1/pp6/8/3b4/8/8/PP6/R2R2K1 w - - 0 1", 0),
            ("r5k1/pp6/8/3b4/8/2N5/PP6/R5K1 w - - 0 1", 5),
            ("r5k1/pp6/8/3q4/1N2P3/2N5/PP6/R5K1 w - - 0 1", 2 * 100 + 10),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(threats.evaluate_white(&pos), own.evaluate_white(&pos) + change, "{fen}");
        }
        // Worth the same is no threat: with the knight valued as the bishop, the c3 knight's attack on the
        // d5 bishop counts for nothing.
        let mut values = w.values;
        values[Role::Knight.index()] = values[Role::Bishop.index()];
        let pos = Position::from_fen("r5k1/pp6/8/3b4/8/2N5/PP6/R5K1 w - - 0 1").unwrap();
        let (own, threats) = (Weights { values, ..none }, Weights { values, ..w });
        assert_eq!(
            Evaluator::new(Shape::CHESS, &threats).evaluate_white(&pos),
            Evaluator::new(Shape::CHESS, &own).evaluate_white(&pos)
        );
        // Every weight different: the evaluation stays exactly antisymmetric, in 2D and in 4D.
        for (shape, positions) in [
            (
                Shape::CHESS,
                [
                    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
                    "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
                ]
                .map(|fen| Position::from_fen(fen).unwrap())
                .to_vec(),
            ),
            (Shape::TESSERACT, vec![start::tesseract(start::Army::Dense), start::tesseract(start::Army::Standard)]),
        ] {
            // And the positions of a few plies chosen by a fixed rule from each, pieces in contact.
            let mut positions = positions;
            for i in 0..positions.len() {
                let mut pos = positions[i].clone();
                for ply in 0..24 {
                    let moves = tesseract_movegen::legal_moves(&pos);
                    if moves.is_empty() {
                        break;
                    }
                    pos.make(moves[(ply * 7 + i * 3) % moves.len()]);
                    positions.push(pos.clone());
                }
            }
            let mut w = Weights::of(shape.geometry().dims());
            for i in 0..9 {
                w.threat_pawn[i] = (3 + i as i32, 20 - i as i32);
                w.threat_piece[i] = (13 * i as i32 % 7, 5 + i as i32);
                w.mobility_unsafe[i] = (i as i32 - 5, 3 - 2 * i as i32);
            }
            (w.shield, w.king_open_file, w.passed_blocked) = ([9, 5], -13, (-7, -3));
            (w.phalanx, w.backward, w.storm) = ((4, -3), (-6, -2), [-5, -9, -2]);
            (w.outpost, w.trapped) = ([(7, 3), (5, 1)], (-30, -10));
            let all = Evaluator::new(shape, &w);
            let own = Evaluator::new(shape, &Weights::of(shape.geometry().dims()));
            let mut differ = 0;
            for pos in positions {
                let mirrored = color_flipped(&pos);
                assert_eq!(all.evaluate_white(&mirrored), -all.evaluate_white(&pos), "{}", pos.fen());
                differ += usize::from(all.evaluate_white(&pos) != own.evaluate_white(&pos));
            }
            assert!(differ >= 10, "{differ} positions with threats");
        }
    }

    /// How much the 8×8 evaluation of `fen` (for White) moves from weights `from` to weights `to`.
    fn change_8x8(from: &Weights, to: &Weights, fen: &str) -> i32 {
        let pos = Position::from_fen(fen).unwrap();
        Evaluator::new(Shape::CHESS, to).evaluate_white(&pos) - Evaluator::new(Shape::CHESS, from).evaluate_white(&pos)
    }

    #[test]
    fn cover_safe_mobility_and_blocked_passers_by_hand() {
        // From none, each weight alone. The king's cover counts in the middlegame only: its positions keep
        // both full armies (the phase is the middlegame's, so the score moves by the weights exactly). The
        // other weights are the same in both phases.
        let none = Weights {
            mobility_unsafe: [(0, 0); 9],
            shield: [0, 0],
            king_open_file: 0,
            passed_blocked: (0, 0),
            ..Weights::of(2)
        };
        let change = |w: &Weights, fen: &str| change_8x8(&none, w, fen);
        let cover = Weights { shield: [10, 4], king_open_file: -20, ..none };
        for (fen, expected) in [
            // Castled kings behind f, g and h pawns on the row in front of them: level.
            ("r1bq1rk1/pppppppp/2n2n2/2b5/2B5/2N2N2/PPPPPPPP/R1BQ1RK1 w - - 0 1", 0),
            // White's h-pawn on h3: two pawns one row ahead and one two rows ahead (24 against 30).
            ("r1bq1rk1/pppppppp/2n2n2/2b5/2B5/2N2N1P/PPPPPPP1/R1BQ1RK1 w - - 0 1", 24 - 30),
            // White's g-pawn gone: f2 and h2, and the g-file open (0 against 30).
            ("r1bq1rk1/pppppppp/2n2n2/2b5/2B5/2N2N2/PPPPPP1P/R1BQ1RK1 b - - 0 1", 20 - 20 - 30),
            // Black's king in the corner, where only the g- and h-files count: g7 one row ahead, h6 two
            // (14); its g-pawn on g3 is no shield of White's, whose g-file is open (20 − 20).
            ("r1bq1r1k/pppp1pp1/2n2n1p/2b5/2B5/2N2Np1/PPPPPP1P/R1BQ1RK1 w - - 0 1", 20 - 20 - 14),
        ] {
            assert_eq!(change(&cover, fen), expected, "{fen}");
        }
        let mut safe = none;
        safe.mobility_unsafe[Role::Knight.index()] = (-3, -3);
        safe.mobility_unsafe[Role::Rook.index()] = (-5, -5);
        for (fen, expected) in [
            // Of the d4 knight's eight cells, c6 and e6 are attacked by Black's pawns (c6 by two, counted
            // once); of the a1 rook's ten, a6 is.
            ("4k3/1p1p1p2/8/8/3N4/8/8/R3K3 w - - 0 1", 2 * -3 - 5),
            // Black's c6 knight: b4, and d4 where it would take White's knight, are attacked by the c3 pawn.
            // No cell of White's knight or of either rook is attacked by a pawn (e5 attacks d4 and f4).
            ("r3k3/8/2n5/4p3/3N4/2P5/8/R3K3 w - - 0 1", -(2 * -3)),
        ] {
            assert_eq!(change(&safe, fen), expected, "{fen}");
        }
        let blocked = Weights { passed_blocked: (-6, -6), ..none };
        for (fen, expected) in [
            // White's passed e6 pawn (4 steps) is blocked by the e7 bishop; the passed a2 pawn is not
            // blocked; the h-pawns are not passed.
            ("4k3/4b3/4P3/8/8/7p/P6P/4K3 w - - 0 1", 4 * -6),
            // Black's a3 pawn (4 steps) is blocked by White's king.
            ("4k3/8/8/8/8/p7/K7/8 w - - 0 1", -(4 * -6)),
        ] {
            assert_eq!(change(&blocked, fen), expected, "{fen}");
        }
        // Every new weight different: the evaluation stays exactly antisymmetric.
        let w = Weights {
            mobility_unsafe: std::array::from_fn(|i| (i as i32 - 5, 3 - 2 * i as i32)),
            shield: [9, 5],
            king_open_file: -13,
            passed_blocked: (-7, -3),
            phalanx: (4, -3),
            backward: (-6, -2),
            storm: [-5, -9, -2],
            outpost: [(7, 3), (5, 1)],
            trapped: (-30, -10),
            ..Weights::of(2)
        };
        let all = Evaluator::new(Shape::CHESS, &w);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r1bq1r1k/pppp1pp1/2n2n1p/2b5/2B5/2N2Np1/PPPPPP1P/R1BQ1RK1 w - - 0 1",
            "4k3/4b3/4P3/8/8/7p/P6P/4K3 b - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = color_flipped(&pos);
            assert_eq!(all.evaluate_white(&mirrored), -all.evaluate_white(&pos), "{fen}");
            assert_ne!(all.evaluate_white(&pos), Evaluator::new(Shape::CHESS, &Weights::of(2)).evaluate_white(&pos));
        }
    }

    #[test]
    fn phalanx_backward_storm_outposts_and_trapped_pieces_by_hand() {
        // From none, each weight alone, the same in both phases (the storm's positions keep both full
        // armies: the middlegame's phase).
        let none = Weights {
            phalanx: (0, 0),
            backward: (0, 0),
            storm: [0; 3],
            outpost: [(0, 0); 2],
            trapped: (0, 0),
            ..Weights::of(2)
        };
        let change = |w: &Weights, fen: &str| change_8x8(&none, w, fen);
        let cases: [(Weights, &str, i32); 6] = [
            // White's d4-e4 and e4-f4 against Black's b6-c6.
            (Weights { phalanx: (5, 5), ..none }, "4k3/8/1pp5/8/3PPP2/8/8/4K3 w - - 0 1", 2 * 5 - 5),
            // White's d3: its neighbours c4 and e4 are both ahead of it and Black's e5 attacks d4. Black's
            // e5 has no neighbour (an isolated pawn, not a backward one); c4 and e4 have d3 behind them.
            (Weights { backward: (-7, -7), ..none }, "4k3/8/8/4p3/2P1P3/3P4/8/4K3 w - - 0 1", -7),
            // Black's h3 two rows in front of White's g1 king, its g4 three rows.
            (
                Weights { storm: [10, 20, 30], ..none },
                "r1bq1rk1/pppppp2/2n2n2/2b5/2B3p1/2N2N1p/PPPPPPPP/R1BQ1RK1 w - - 0 1",
                20 + 30,
            ),
            // White's d5 knight defended by c4, no black pawn that could attack it (c5 is level with it);
            // Black's d4 bishop defended by c5, and c4 is no threat to it either.
            (Weights { outpost: [(11, 11), (13, 13)], ..none }, "4k3/8/8/2pN4/2Pb4/8/8/4K3 w - - 0 1", 11 - 13),
            // A knight on d4 (the fourth rank) defended by c3: Black's e6 pawn can still drive it away.
            (Weights { outpost: [(11, 11), (13, 13)], ..none }, "4k3/8/4p3/8/3N4/2P5/8/4K3 w - - 0 1", 0),
            // The h1 bishop behind its g2 pawn cannot move; the rooks have three cells each.
            (Weights { trapped: (-20, -20), ..none }, "r3k3/pppp4/8/8/8/8/PPPP2P1/R3K2B w - - 0 1", -20),
        ];
        for (w, fen, expected) in cases {
            assert_eq!(change(&w, fen), expected, "{fen}");
        }
        // On the 5⁴ board the weights count for nothing.
        let mut w4 = Weights::of(4);
        (w4.phalanx, w4.backward, w4.storm, w4.outpost, w4.trapped) =
            ((5, 5), (-7, -7), [10, 20, 30], [(11, 11), (13, 13)], (-20, -20));
        let pos = tesseract_board::start::tesseract(tesseract_board::start::Army::Standard);
        assert_eq!(Evaluator::new(Shape::TESSERACT, &w4).evaluate_white(&pos), evaluate_white(&pos));
    }

    #[test]
    fn square_corrections_count_on_8x8_only_and_keep_the_symmetry() {
        // From none: the engine's corrections 0.
        let none = Weights { square: [[(0, 0); SQUARE_SLOTS]; 9], ..Weights::of(2) };
        let own = Evaluator::new(Shape::CHESS, &none);
        let mut w = none;
        // The knight on g1 from White's side, b1 its mirror; Black's on g8 and b8 by the reflection.
        w.square[Role::Knight.index()][square_slot(6, 0)] = (40, 40);
        let knight = Evaluator::new(Shape::CHESS, &w);
        for (fen, change) in [
            ("4k3/pppp4/8/8/8/8/PPPP4/4K1N1 w - - 0 1", 40),
            ("4k3/pppp4/8/8/8/8/PPPP4/1N2K3 w - - 0 1", 40),
            ("4k1n1/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", -40),
            ("1n2k3/pppp4/8/8/8/8/PPPP4/4K3 w - - 0 1", -40),
            ("4k3/pppp4/8/8/8/8/PPPP4/2N1K3 w - - 0 1", 0),
        ] {
            let pos = Position::from_fen(fen).unwrap();
            assert_eq!(knight.evaluate_white(&pos), own.evaluate_white(&pos) + change, "{fen}");
        }
        // Every entry different: the evaluation stays exactly antisymmetric.
        let mut w = none;
        for (r, table) in w.square.iter_mut().enumerate() {
            for (slot, entry) in table.iter_mut().enumerate() {
                let x = (r * 37 + slot * 11) as i32 % 61 - 30;
                *entry = (x, 2 * x - 7);
            }
        }
        let all = Evaluator::new(Shape::CHESS, &w);
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2",
            "8/5pk1/6p1/8/3P4/2K5/P7/8 w - - 0 1",
        ] {
            let pos = Position::from_fen(fen).unwrap();
            let mirrored = color_flipped(&pos);
            assert_ne!(all.evaluate_white(&pos), own.evaluate_white(&pos), "{fen}");
            assert_eq!(all.evaluate_white(&mirrored), -all.evaluate_white(&pos), "{fen}");
        }
        // Elsewhere the table counts for nothing, and names nothing.
        let mut w4 = Weights::of(4);
        w4.square = w.square;
        for pos in [start::tesseract(start::Army::Standard), start::raumschach()] {
            let shape = pos.shape();
            assert_eq!(Evaluator::new(shape, &w4).evaluate_white(&pos), evaluate_white(&pos));
            assert!(!w4.named(shape).iter().any(|(n, _)| n.starts_with("square.")));
        }
        let mut names = Weights::of(2);
        let names: Vec<String> = names.named(Shape::CHESS).into_iter().map(|(n, _)| n).collect();
        assert!(names.iter().any(|n| n == "square.Knight.b1.mg") && names.iter().any(|n| n == "square.King.d8.eg"));
        assert!(!names.iter().any(|n| n.starts_with("square.YPawn.a1") || n.starts_with("square.YPawn.d8")));
        assert!(!names.iter().any(|n| n.starts_with("square.Knight.e")), "files e to h are a to d's mirrors");
    }

    #[test]
    fn weights_as_text() {
        let line = Shape::new(1, 5).unwrap();
        for shape in [Shape::CHESS, Shape::RAUMSCHACH, Shape::TESSERACT, line] {
            let own = Weights::of(shape.geometry().dims());
            assert_eq!(Weights::parse(shape, &own.to_text(shape)), Ok(own));
            // Every weight of the engine's own is within its bounds.
            let mut copy = own;
            for (name, value) in copy.named(shape) {
                assert!(Weights::bounds(&name).contains(value), "{name} {value}");
            }
        }
        let parse = |text: &str| Weights::parse(Shape::CHESS, text);
        let mut w = Weights::of(2);
        w.tempo = -5;
        w.values[Role::Queen.index()] = 4_000;
        assert_eq!(parse("  tempo   -5 # comment\n\n# value.Queen 1\nvalue.Queen 4000"), Ok(w));
        assert_eq!(parse("tempo"), Err(WeightsError::Malformed { line: 1, found: "tempo".into() }));
        assert_eq!(parse("\ntempo 1 2"), Err(WeightsError::Malformed { line: 2, found: "tempo 1 2".into() }));
        assert_eq!(parse("value.Pawn 90"), Err(WeightsError::Unknown { line: 1, name: "value.Pawn".into() }));
        assert_eq!(parse("tempo 1\ntempo 1"), Err(WeightsError::Repeated { line: 2, name: "tempo".into() }));
        let value =
            |v: &str, min, max| WeightsError::Value { line: 1, name: "value.Rook".into(), value: v.into(), min, max };
        assert_eq!(parse("value.Rook 4001"), Err(value("4001", 0, 4_000)));
        assert_eq!(parse("value.Rook -1"), Err(value("-1", 0, 4_000)));
        assert_eq!(parse("value.Rook 5.5"), Err(value("5.5", 0, 4_000)));
        assert_eq!(parse(&format!("value.Rook {}", "9".repeat(60))), Err(value(&"9".repeat(40), 0, 4_000)));
        assert_eq!(
            parse("value.Rook 1e3").unwrap_err().to_string(),
            "line 1: value.Rook \"1e3\": expected a whole number from 0 to 4000"
        );
    }

    #[test]
    fn tables_built_for_other_weights_evaluate_as_the_engines_own() {
        // Weights that differ only where no pawn of these boards stands (the passed bonus of step 7) are
        // other weights, so they get tables of their own, built anew; every evaluation must be the same.
        let positions = [
            start::chess(),
            Position::from_fen("r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1").unwrap(),
            Position::from_fen("8/6k1/5p2/3P4/8/8/P7/K7 b - - 0 1").unwrap(),
            start::tesseract(start::Army::Light),
            start::tesseract(start::Army::Standard),
            start::tesseract(start::Army::Dense),
        ];
        for pos in positions {
            let shape = pos.shape();
            let mut other = Weights::of(shape.geometry().dims());
            other.passed[7].1 += 1;
            let (own, built) = (Tables::of(shape), Tables::with(shape, &other));
            assert!(!std::ptr::eq(own, built));
            assert!(std::ptr::eq(built, Tables::with(shape, &other)), "built once");
            assert!(std::ptr::eq(own, Tables::with(shape, &Weights::of(shape.geometry().dims()))));
            for &m in tesseract_movegen::legal_moves(&pos).iter().take(20) {
                let mut p = pos.clone();
                p.make(m);
                assert_eq!(evaluate_with(built, &p), evaluate_with(own, &p), "{}", p.fen());
            }
        }
    }

    #[test]
    fn the_8x8_bitboard_reach_evaluates_as_the_mailbox_walk() {
        // Random games from the classic start and Chess960 starts (promotions, castling, en passant, bare
        // kings): every position is evaluated through the bitboards and through the mailbox walk of the
        // other boards, under the engine's weights and under weights with every term of the reach and the
        // pawns on.
        use rand_chacha::ChaCha8Rng;
        use rand_core::{Rng, SeedableRng};
        let mut all_on = WEIGHTS_2D;
        all_on.rook_line[1].1 = 13;
        all_on.trapped = (-41, -17);
        for r in [Role::Queen, Role::Rook, Role::Bishop, Role::Knight] {
            all_on.mobility_unsafe[r.index()] = (-3 - r.index() as i32, -2);
            all_on.threat_piece[r.index()] = (20 + r.index() as i32, 7);
            all_on.threat_pawn[r.index()] = (30, 11 + r.index() as i32);
        }
        let tables = [Tables::of(Shape::CHESS), Tables::with(Shape::CHESS, &all_on)];
        let mut rng = ChaCha8Rng::seed_from_u64(34);
        let mut positions = 0;
        for game in 0..120u32 {
            let mut pos = if game % 2 == 0 { start::chess() } else { start::chess960(game * 7 % 960).unwrap() };
            for _ in 0..300 {
                for t in tables {
                    assert_eq!(evaluate_impl::<true>(t, &pos), evaluate_impl::<false>(t, &pos), "{}", pos.fen());
                }
                positions += 1;
                let moves = tesseract_movegen::legal_moves(&pos);
                if moves.is_empty() {
                    break;
                }
                pos.make(moves[(rng.next_u32() as usize) % moves.len()]);
            }
        }
        assert!(positions > 20_000, "{positions} positions");
    }

    #[test]
    fn no_sum_overflows_within_the_bounds() {
        // Every weight at the bound that makes a term largest, and the most pieces a side may have (64):
        // the king, 25 passed pawns one step from promotion and 38 queens, against a lone king. The
        // evaluation is clamped, not wrapped (a debug build would panic on an overflow).
        let shape = Shape::TESSERACT;
        let mut w = Weights::of(4);
        for (name, value) in w.named(shape) {
            *value = *Weights::bounds(&name).end();
        }
        let mut setup = Setup::empty(shape);
        let g = shape.geometry();
        let mut queens = 0;
        for cell in g.all_cells() {
            let c = g.coords(cell);
            if c[1] == 4 && c[3] == 3 {
                setup.put(&c[..4], Some(Piece::new(Color::White, Role::YPawn)));
            } else if c[1] <= 2 && queens < 38 && c[..4] != [1, 1, 1, 1] {
                setup.put(&c[..4], Some(Piece::new(Color::White, Role::Queen)));
                queens += 1;
            }
        }
        setup.put(&[1, 1, 1, 1], Some(Piece::new(Color::White, Role::King)));
        setup.put(&[5, 5, 5, 5], Some(Piece::new(Color::Black, Role::King)));
        setup.turn = Color::Black;
        let pos = Position::from_setup(setup, CastlingMode::Standard).unwrap();
        assert_eq!(Evaluator::new(shape, &w).evaluate_white(&pos), MAX_EVAL);
        // 8×8, every weight at the bound that makes a term largest, the king's cover, the unsafe cells and
        // a blocked passed pawn counting: sixteen queens against pawns.
        let mut w = Weights::of(2);
        for (name, value) in w.named(Shape::CHESS) {
            *value = *Weights::bounds(&name).end();
        }
        let pos = Position::from_fen("QQQQQQQQ/QQQQQQQQ/4P3/pppp1ppp/8/8/PPPPPPPP/K6k w - - 0 1").unwrap();
        assert_eq!(Evaluator::new(Shape::CHESS, &w).evaluate_white(&pos), MAX_EVAL);
    }

    #[test]
    fn mobility_bases() {
        let t = Tables::of(Shape::TESSERACT);
        // Empty-board totals of RULES.md §2 divided by 2·625, rounded down.
        assert_eq!(t.mobility_base[Role::Rook.index()], 10_000 / 1250);
        assert_eq!(t.mobility_base[Role::Bishop.index()], 18_000 / 1250);
        assert_eq!(t.mobility_base[Role::Dragon.index()], 5_664 / 1250);
        assert_eq!(t.mobility_base[Role::Knight.index()], 14_400 / 1250);
        assert_eq!(t.mobility_base[Role::Queen.index()], 49_664 / 1250);
    }
}
