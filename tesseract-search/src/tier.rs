//! The four difficulty tiers.

use std::time::Duration;

use tesseract_board::Shape;

use crate::search::{Limits, Options};

/// A difficulty tier, weakest first, defined by deterministic budgets.
///
/// A tier is a depth cap, a node budget (a hard limit checked on entry to every node, and a soft limit
/// past which no new iteration starts), a transposition table size and an evaluation noise. Node counts
/// do not depend on the machine, and the search clears its table before each move, so a tier's move is a
/// pure function of the game (start, moves, seed): a game record replays to the same moves anywhere. (The
/// UCI engine's master on a clock keeps its table between moves: there the clock usually binds first, so
/// its moves may depend on the timing anyway; `tesseract-uci`'s README.)
///
/// The budgets depend on the board ([`Tier::settings_on`]): a node of the 5×5×5×5 board costs several
/// times one of the 8×8 board, and the 2D tiers must stay apart on a chess clock, where a GUI or match
/// runner plays them.
///
/// **4D** (and boards of three axes; [`Tier::settings`]): the write-up's tiers. The wall-clock guard is a
/// safety net only: it caps the thinking time (3.5 s for the master, as in the write-up) on a machine too
/// slow or too busy to spend the node budget in time. The budgets of the three lower tiers are chosen so
/// that this machine, unloaded, stays well inside it. The master's hard budget of 1.4 M nodes was chosen
/// so that it completes depth 7 from the standard start for the seeds 0 to 8 (up to 1.26 M nodes); over
/// seeds 0 to 39 it did for 33 (the README says why not for the other seven). Measured before the 4D
/// passed pawns; with them it completes depth 7 for 8 of the seeds 0 to 9. Its longest moves can reach
/// the guard, natively on a busy machine and more often in a browser, where WebAssembly runs at about a
/// third of native speed. A move cut short by the guard is the one case that is not reproducible, and the
/// search says so ([`StopReason::Time`](crate::StopReason::Time)).
///
/// | tier | depth cap | soft nodes | hard nodes | table | noise | guard |
/// |---|---|---|---|---|---|---|
/// | beginner | 4 | 10,000 | 30,000 | 1 MB | ±150 cp | 2 s |
/// | club | 8 | 15,000 | 40,000 | 4 MB | ±12 cp | 3 s |
/// | expert | 20 | 60,000 | 150,000 | 8 MB | 0 | 3.5 s |
/// | master | 40 | 300,000 | 1,400,000 | 16 MB | 0 | 3.5 s |
///
/// **2D** (chess, Chess960; [`Tier::settings_on`] with a board of two axes): the three lower tiers are
/// held by their own budgets far below what a blitz clock allows (about 1,200, 2,300 and 8,600 nodes a
/// move in the calibration games: milliseconds), so that on a clock their moves still depend on the game
/// alone and only the master thinks by the clock (its node budget binds at slow clocks only). Each tier
/// searches about a quarter of the nodes of the one above, and the beginner three plies with the same
/// noise as in 4D. The tables and guards are the 4D ones.
///
/// | tier | depth cap | soft nodes | hard nodes | table | noise | guard |
/// |---|---|---|---|---|---|---|
/// | beginner | 3 | 1,000 | 3,000 | 1 MB | ±150 cp | 2 s |
/// | club | 8 | 1,500 | 5,000 | 4 MB | ±12 cp | 3 s |
/// | expert | 40 | 6,000 | 20,000 | 8 MB | 0 | 3.5 s |
/// | master | 40 | 300,000 | 1,400,000 | 16 MB | 0 | 3.5 s |
///
/// The figures the budgets were chosen for (thinking time per move, the depth the master reaches from the
/// standard start, each tier's score against the one below, and in chess against Stockfish on a clock)
/// are measured in the README and in `tesseract-uci`'s.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize), serde(rename_all = "lowercase"))]
pub enum Tier {
    /// An instant opponent (tens of milliseconds) with a deliberately noisy evaluation.
    Beginner,
    /// A casual club player.
    Club,
    /// A strong player.
    Expert,
    /// The full engine: a 16 MB table, usually depth seven from the start, at most 3.5 s a move.
    Master,
}

/// The budgets of a tier; see [`Tier`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TierSettings {
    /// The deepest iteration.
    pub depth: u32,
    /// No new iteration starts past this many nodes.
    pub soft_nodes: u64,
    /// The search stops at this many nodes.
    pub nodes: u64,
    /// Whether the soft limit is paced by the iterations ([`Limits::paced`]). No tier paces it: at the
    /// chess master's budget, pacing showed no gain against Stockfish (the README's "A paced soft node
    /// limit (2D), tried"); set it to search a tier's budget paced.
    pub paced: bool,
    /// Transposition table size in megabytes.
    pub hash_mb: usize,
    /// Evaluation noise in centipawns (each way).
    pub noise: i32,
    /// The wall-clock safety guard.
    pub time_guard: Duration,
}

impl Tier {
    /// Every tier, weakest first.
    pub const ALL: [Tier; 4] = [Tier::Beginner, Tier::Club, Tier::Expert, Tier::Master];

    /// `beginner`, `club`, `expert` or `master`.
    pub const fn name(self) -> &'static str {
        match self {
            Tier::Beginner => "beginner",
            Tier::Club => "club",
            Tier::Expert => "expert",
            Tier::Master => "master",
        }
    }

    /// The tier's budgets in 4D (and on boards of three axes): see [`Tier`]. A board of two axes has its
    /// own ([`Tier::settings_on`]).
    pub const fn settings(self) -> TierSettings {
        match self {
            Tier::Beginner => TierSettings {
                depth: 4,
                soft_nodes: 10_000,
                nodes: 30_000,
                paced: false,
                hash_mb: 1,
                noise: 150,
                time_guard: Duration::from_secs(2),
            },
            Tier::Club => TierSettings {
                depth: 8,
                soft_nodes: 15_000,
                nodes: 40_000,
                paced: false,
                hash_mb: 4,
                noise: 12,
                time_guard: Duration::from_secs(3),
            },
            Tier::Expert => TierSettings {
                depth: 20,
                soft_nodes: 60_000,
                nodes: 150_000,
                paced: false,
                hash_mb: 8,
                noise: 0,
                time_guard: Duration::from_millis(3_500),
            },
            Tier::Master => TierSettings {
                depth: 40,
                soft_nodes: 300_000,
                nodes: 1_400_000,
                paced: false,
                hash_mb: 16,
                noise: 0,
                time_guard: Duration::from_millis(3_500),
            },
        }
    }

    /// The tier's budgets on a board of this shape: the 2D ones on a board of two axes (chess, Chess960),
    /// else [`Tier::settings`] (see the tables of [`Tier`]).
    ///
    /// ```
    /// use tesseract_board::Shape;
    /// use tesseract_search::Tier;
    /// assert_eq!(Tier::Expert.settings_on(Shape::TESSERACT), Tier::Expert.settings());
    /// assert_eq!(Tier::Expert.settings_on(Shape::CHESS).nodes, 20_000);
    /// ```
    pub const fn settings_on(self, shape: Shape) -> TierSettings {
        if shape.dims() == 2 { self.chess_settings() } else { self.settings() }
    }

    /// The budgets on a board of two axes.
    const fn chess_settings(self) -> TierSettings {
        let s = self.settings();
        match self {
            Tier::Beginner => TierSettings { depth: 3, soft_nodes: 1_000, nodes: 3_000, ..s },
            Tier::Club => TierSettings { depth: 8, soft_nodes: 1_500, nodes: 5_000, ..s },
            Tier::Expert => TierSettings { depth: 40, soft_nodes: 6_000, nodes: 20_000, ..s },
            Tier::Master => s,
        }
    }

    /// The tier's search limits in 4D: its budget and its wall-clock guard ([`TierSettings::limits`] of
    /// [`Tier::settings`]).
    pub fn limits(self) -> Limits {
        self.settings().limits()
    }

    /// The tier's deterministic budget in 4D, without the wall-clock guard ([`TierSettings::budget`] of
    /// [`Tier::settings`]).
    pub fn budget(self) -> Limits {
        self.settings().budget()
    }

    /// The tier's search options for a game with this seed (the noise is the same on every board).
    pub fn options(self, seed: u64) -> Options {
        self.settings().options(seed)
    }
}

impl TierSettings {
    /// The search limits: the budget and the wall-clock guard.
    pub fn limits(&self) -> Limits {
        Limits { time: Some(self.time_guard), ..self.budget() }
    }

    /// The deterministic budget alone, without the wall-clock guard: the limits under which a move is a
    /// pure function of the game, used to verify a record and to measure strength.
    pub fn budget(&self) -> Limits {
        Limits {
            depth: Some(self.depth),
            nodes: Some(self.nodes),
            soft_nodes: Some(self.soft_nodes),
            paced: self.paced,
            time: None,
            root_moves: None,
        }
    }

    /// The search options for a game with this seed: the noise.
    pub fn options(&self, seed: u64) -> Options {
        Options { seed, noise: self.noise, ..Options::default() }
    }
}

impl std::fmt::Display for Tier {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// A text that names no tier.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("unknown tier {0:?}: expected beginner, club, expert or master")]
pub struct ParseTierError(pub String);

impl std::str::FromStr for Tier {
    type Err = ParseTierError;

    fn from_str(s: &str) -> Result<Tier, ParseTierError> {
        Tier::ALL.into_iter().find(|t| t.name() == s).ok_or_else(|| ParseTierError(s.chars().take(40).collect()))
    }
}
