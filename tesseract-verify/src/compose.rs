//! The composer: seeded random sparse positions, kept when they are mate in exactly N with a unique key.
//!
//! Each try draws a position from a seeded [`ChaCha8Rng`]: the defending king near the edge of the board
//! (each coordinate is 1 or 5 with probability 0.7; always in a corner with [`Composer::corner`]), a few
//! of its own men next to it, the attacking king within three cells, and one to three attacking pieces
//! within [`Composer::reach`] cells of the defending king (the pieces of both sides drawn at random, or
//! fixed by a [`Recipe`]); pawns only where pawns may stand. With [`Composer::fill`], each flight cell of
//! the defending king that no attacker covers then receives one of its own men with that probability: 4D
//! mates with few pieces need such self-blocks, since a lone king in a corner still has fifteen flight
//! cells. The position must be valid with the attacker to move, neither king in check; a try draws again
//! until it is, at most [`MAX_DRAWS`] times, and a try that finds none is counted in
//! [`Composer::no_position`] (so a recipe that can never stand still ends each try). Then the
//! [`MateSolver`], with a node limit so that no try takes long, asks for the shortest mate; a position is a *candidate* when it is mate in exactly N and
//! exactly one first move achieves it. The candidate comes with its main line (the longest defence
//! against the fastest mate), the kind of piece that gives the final mate, and the themes found in it
//! ([`Theme`]), so a person can write the title and the idea from what the solution really does.
//!
//! The same seed gives the same positions in the same order, so a run can be repeated exactly.
//!
//! # Examples
//! ```
//! use tesseract_verify::compose::{Composer, Recipe};
//! let mut composer = Composer::new(7, 1);
//! composer.recipe = Some(Recipe::parse("Q", "")?);
//! let found = (0..200).find_map(|_| composer.try_one());
//! let c = found.expect("a queen mate in one among 200 tries");
//! assert_eq!(c.n, 1);
//! # Ok::<_, String>(())
//! ```

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::{CastlingMode, Color, Move, Piece, Position, Role, Setup, Shape, TextMove};
use tesseract_movegen::{Legal, naive};

use crate::mate::{MateSolver, SearchAborted};
use tesseract_movegen::legal_moves;

/// The pieces of one side besides its king.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Recipe {
    /// The attacker's pieces.
    pub attackers: Vec<Role>,
    /// The defender's pieces.
    pub defenders: Vec<Role>,
}

impl Recipe {
    /// Reads two strings of 4D piece letters (`Q R B N U D Y W`, either case; no kings), for the attacker
    /// and the defender.
    ///
    /// # Errors
    /// A message naming the letter that is not a piece (or is a king); or saying that the attacker has no
    /// piece (a lone king cannot mate), or that a side has more pieces than a position may hold
    /// ([`Position::max_pieces`], the king included).
    pub fn parse(attackers: &str, defenders: &str) -> Result<Recipe, String> {
        let roles = |text: &str| -> Result<Vec<Role>, String> {
            text.chars()
                .filter(|c| !c.is_whitespace() && *c != ',')
                .map(|c| match Role::from_upper_char(c.to_ascii_uppercase(), 4) {
                    Some(Role::King) | None => Err(format!("{c:?} is not a piece letter (Q R B N U D Y W)")),
                    Some(r) => Ok(r),
                })
                .collect()
        };
        let recipe = Recipe { attackers: roles(attackers)?, defenders: roles(defenders)? };
        if recipe.attackers.is_empty() {
            return Err("the attacker needs a piece besides its king: a lone king cannot mate".to_string());
        }
        let max = Position::max_pieces(Shape::TESSERACT) - 1;
        for (side, count) in [("attacker", recipe.attackers.len()), ("defender", recipe.defenders.len())] {
            if count > max {
                return Err(format!("the {side} has {count} pieces besides its king; a side may have at most {max}"));
            }
        }
        Ok(recipe)
    }
}

/// Something a solution does, found by looking at it (for writing the idea of a study).
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Theme {
    /// The key gives check.
    CheckingKey,
    /// The key neither checks nor captures.
    QuietKey,
    /// The key captures.
    CaptureKey,
    /// The key promotes a pawn.
    PromotionKey,
    /// A defence can take the piece the key moved.
    Sacrifice,
    /// The key is quiet and threatens nothing: if the defender could pass, there would be no mate in N−1;
    /// it loses because it must move.
    Zugzwang,
    /// The main line's last move promotes.
    PromotionMate,
    /// The piece that moves last does not itself give check: the mate is discovered.
    DiscoveredMate,
    /// Two pieces give check at the end of the main line.
    DoubleCheckMate,
    /// At the end of the main line a defender's man stands next to its king, blocking a flight cell.
    SelfBlock,
}

impl fmt::Display for Theme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Theme::CheckingKey => "checking key",
            Theme::QuietKey => "quiet key",
            Theme::CaptureKey => "capturing key",
            Theme::PromotionKey => "promotion key",
            Theme::Sacrifice => "sacrifice",
            Theme::Zugzwang => "zugzwang",
            Theme::PromotionMate => "promotion mate",
            Theme::DiscoveredMate => "discovered mate",
            Theme::DoubleCheckMate => "double-check mate",
            Theme::SelfBlock => "self-block",
        })
    }
}

/// A position that is mate in exactly `n` with a unique key, and its solution.
#[derive(Clone, Debug)]
pub struct Candidate {
    /// The position (the side to move mates).
    pub position: Position,
    /// Mate in exactly `n`.
    pub n: u32,
    /// The only first move that mates in `n`.
    pub key: Move,
    /// The key, the longest defence, the fastest mate, … (2n − 1 moves).
    pub line: Vec<Move>,
    /// The kind of the piece that makes the last move of the line.
    pub mate: Role,
    /// Themes found in the solution.
    pub themes: Vec<Theme>,
    /// Legal defences after the key.
    pub defences: usize,
}

impl Candidate {
    /// The candidate as a record of the studies file, with a placeholder title and an idea listing the
    /// themes (to be rewritten by hand from the solution).
    pub fn to_record_text(&self, name: &str) -> String {
        let mut pos = self.position.clone();
        let line: Vec<String> = self
            .line
            .iter()
            .map(|&m| {
                let t = TextMove::from_move(m, &pos).to_string();
                pos.make(m);
                t
            })
            .collect();
        let themes: Vec<String> = self.themes.iter().map(Theme::to_string).collect();
        format!(
            "study: {name}\ntitle: candidate {name}\nfen: {}\nn: {}\nkey: {}\nline: {}\nmate: {}\nidea: mate in {}: mate by the {}; {}\n",
            self.position.fen(),
            self.n,
            line[0],
            line.join(" "),
            self.mate.upper_char(4),
            self.n,
            self.mate,
            if themes.is_empty() { "no special theme".to_string() } else { themes.join(", ") },
        )
    }
}

/// Draws random positions and keeps the mates in exactly `n` with a unique key (see the module docs).
#[derive(Debug)]
pub struct Composer {
    rng: ChaCha8Rng,
    /// Mate in exactly this many moves.
    pub n: u32,
    /// Fixed pieces for both sides; `None`: drawn at random per try.
    pub recipe: Option<Recipe>,
    /// Solver nodes allowed per try.
    pub node_limit: u64,
    /// Keep only candidates whose main line ends with a move of this kind of piece (either pawn for a
    /// pawn); `None`: any.
    pub mater: Option<Role>,
    /// Put the defending king in a corner, always.
    pub corner: bool,
    /// How far from the defending king the attacking pieces (not the king) may stand (Chebyshev distance).
    pub reach: u8,
    /// After the pieces are placed, each empty flight cell of the defending king that no attacker covers
    /// receives a defending man with this probability, in percent (0: none): positions where the king is
    /// boxed in by its own men, which is how most 4D mates look.
    pub fill: u32,
    /// Keep only positions where the attacker mates in exactly N by checks alone (searched first, with
    /// a checks-only solver, which is fast) before the exhaustive search decides exactness and
    /// uniqueness over every move.
    pub checks_first: bool,
    /// Tries made so far.
    pub tries: u64,
    /// Tries abandoned at the node limit.
    pub aborted: u64,
    /// Tries that drew no valid position within [`MAX_DRAWS`] draws.
    pub no_position: u64,
}

/// The most setups [`Composer::random_position`] draws for one position (one try): far more than a
/// workable recipe needs (a few draws as a rule, a few dozen at most in our runs), few enough that a
/// recipe that can never stand ends its try quickly, so `tries` bounds a run.
pub const MAX_DRAWS: u32 = 1_000;

/// The pieces drawn when no recipe is fixed, with their weights.
const ATTACKER_POOL: [(Role, u32); 8] = [
    (Role::Queen, 2),
    (Role::Rook, 3),
    (Role::Bishop, 3),
    (Role::Knight, 3),
    (Role::Unicorn, 3),
    (Role::Dragon, 3),
    (Role::YPawn, 2),
    (Role::WPawn, 2),
];
const DEFENDER_POOL: [(Role, u32); 7] = [
    (Role::YPawn, 4),
    (Role::WPawn, 4),
    (Role::Knight, 1),
    (Role::Bishop, 1),
    (Role::Rook, 1),
    (Role::Unicorn, 1),
    (Role::Dragon, 1),
];

impl Composer {
    /// A composer for mates in exactly `n`, seeded with `seed`, with random recipes and a limit of
    /// 2,000,000 solver nodes per try.
    pub fn new(seed: u64, n: u32) -> Composer {
        Composer {
            rng: ChaCha8Rng::seed_from_u64(seed),
            n,
            recipe: None,
            mater: None,
            corner: false,
            fill: 0,
            checks_first: false,
            reach: 3,
            node_limit: 2_000_000,
            tries: 0,
            aborted: 0,
            no_position: 0,
        }
    }

    fn below(&mut self, n: u32) -> u32 {
        (self.rng.next_u64() % u64::from(n)) as u32
    }

    fn pick(&mut self, pool: &[(Role, u32)]) -> Role {
        let total: u32 = pool.iter().map(|&(_, w)| w).sum();
        let mut r = self.below(total);
        for &(role, w) in pool {
            if r < w {
                return role;
            }
            r -= w;
        }
        pool[pool.len() - 1].0
    }

    fn edge_coord(&mut self) -> u8 {
        match self.below(20) {
            0..=6 => 1,
            7..=13 => 5,
            r => 2 + (r % 3) as u8,
        }
    }

    fn near(&mut self, center: [u8; 4], radius: u8) -> [u8; 4] {
        center.map(|c| {
            let lo = c.saturating_sub(radius).max(1);
            let hi = (c + radius).min(5);
            lo + self.below(u32::from(hi - lo + 1)) as u8
        })
    }

    /// Draws one valid position: attacker (White) to move, neither king in check, the game not over.
    /// Draws again while the drawn setup is not such a position, at most [`MAX_DRAWS`] times in all;
    /// `None` when none of them was (as for a recipe that can never stand so, e.g. a hundred queens).
    pub fn random_position(&mut self) -> Option<Position> {
        for _ in 0..MAX_DRAWS {
            let recipe = match &self.recipe {
                Some(r) => r.clone(),
                None => {
                    let a = 1 + [0, 0, 0, 1, 1, 1, 1, 1, 2, 2][self.below(10) as usize];
                    let d = [0, 0, 0, 1, 1, 1, 1, 2, 2, 3][self.below(10) as usize];
                    Recipe {
                        attackers: (0..a).map(|_| self.pick(&ATTACKER_POOL)).collect(),
                        defenders: (0..d).map(|_| self.pick(&DEFENDER_POOL)).collect(),
                    }
                }
            };
            let mut setup = Setup::empty(Shape::TESSERACT);
            let bk = if self.corner {
                [0; 4].map(|_| if self.below(2) == 0 { 1 } else { 5 })
            } else {
                [self.edge_coord(), self.edge_coord(), self.edge_coord(), self.edge_coord()]
            };
            let reach = self.reach;
            setup.put(&bk, Some(Piece::new(Color::Black, Role::King)));
            let mut ok = self.place(&mut setup, bk, 3, Piece::new(Color::White, Role::King));
            for &role in &recipe.defenders {
                ok &= self.place(&mut setup, bk, 1, Piece::new(Color::Black, role));
            }
            for &role in &recipe.attackers {
                ok &= self.place(&mut setup, bk, reach, Piece::new(Color::White, role));
            }
            if !ok {
                continue;
            }
            if self.fill > 0 {
                self.fill_flights(&mut setup, bk);
            }
            if let Ok(pos) = Position::from_setup(setup, CastlingMode::Standard) {
                if !pos.is_check() && pos.outcome().is_none() && !pos.is_attacked(pos.king(Color::White), Color::Black)
                {
                    return Some(pos);
                }
            }
        }
        None
    }

    /// Fills uncovered flight cells of the king on `bk` with its own men (see [`Composer::fill`]).
    fn fill_flights(&mut self, setup: &mut Setup, bk: [u8; 4]) {
        let g = Shape::TESSERACT.geometry();
        let flights: Vec<[u8; 4]> = g
            .all_cells()
            .map(|c| {
                let v = g.coords(c);
                [v[0], v[1], v[2], v[3]]
            })
            .filter(|c| c != &bk && (0..4).all(|i| c[i].abs_diff(bk[i]) <= 1))
            .collect();
        let snapshot = setup.clone();
        for c in flights {
            let cell = g.cell(&c).expect("on the board");
            if snapshot.piece(cell).is_some() || naive::is_attacked(&snapshot, cell, Color::White) {
                continue;
            }
            if self.below(100) >= self.fill {
                continue;
            }
            let mut roles: Vec<Role> = Vec::new();
            if (2..=4).contains(&c[1]) {
                roles.push(Role::YPawn);
            }
            if (2..=4).contains(&c[3]) {
                roles.push(Role::WPawn);
            }
            let role = if !roles.is_empty() && self.below(4) != 0 {
                roles[self.below(roles.len() as u32) as usize]
            } else {
                [Role::Knight, Role::Bishop, Role::Rook, Role::Unicorn, Role::Dragon][self.below(5) as usize]
            };
            setup.put(&c, Some(Piece::new(Color::Black, role)));
        }
    }

    /// Puts `piece` on a random empty cell within `radius` of `center`; false after 20 failed draws.
    fn place(&mut self, setup: &mut Setup, center: [u8; 4], radius: u8, piece: Piece) -> bool {
        let g = Shape::TESSERACT.geometry();
        for _ in 0..20 {
            let c = self.near(center, radius);
            let cell = g.cell(&c).expect("on the board");
            if setup.piece(cell).is_some() {
                continue;
            }
            if let Some(axis) = piece.role.pawn_axis() {
                let v = c[axis];
                if v == 1 || v == 5 {
                    continue;
                }
            }
            setup.put(&c, Some(piece));
            return true;
        }
        false
    }

    /// One try: a random position, kept if it is mate in exactly `n` with a unique key.
    pub fn try_one(&mut self) -> Option<Candidate> {
        self.tries += 1;
        let Some(pos) = self.random_position() else {
            self.no_position += 1;
            return None;
        };
        if self.checks_first {
            let mut filter = MateSolver::checks_only(self.node_limit);
            if !matches!(filter.shortest_mate(&pos, self.n), Ok(Some(found)) if found == self.n) {
                return None;
            }
        }
        let mut solver = MateSolver::with_node_limit(self.node_limit);
        let pawn = |r: Role| if r == Role::WPawn { Role::YPawn } else { r };
        match examine(&mut solver, &pos, self.n) {
            Ok(Some(c)) if self.mater.is_some_and(|m| pawn(m) != pawn(c.mate)) => None,
            Ok(found) => found,
            Err(_) => {
                self.aborted += 1;
                None
            }
        }
    }
}

/// Whether `pos` is mate in exactly `n` with a unique key; if so, the candidate with its main line and
/// themes.
///
/// # Errors
/// [`SearchAborted`] at the solver's node limit.
pub fn examine(solver: &mut MateSolver, pos: &Position, n: u32) -> Result<Option<Candidate>, SearchAborted> {
    if solver.shortest_mate(pos, n)? != Some(n) {
        return Ok(None);
    }
    let keys = solver.keys(pos, n)?;
    let [key] = keys[..] else { return Ok(None) };
    let line = main_line(solver, pos, n, key)?;
    let mut before_last = pos.clone();
    for &m in &line[..line.len() - 1] {
        before_last.make(m);
    }
    let last = line[line.len() - 1];
    let mate = before_last.piece_at(last.from).expect("the last move has a piece").role;
    let themes = themes(solver, pos, n, key, &line)?;
    let mut after_key = pos.clone();
    after_key.make(key);
    Ok(Some(Candidate { position: pos.clone(), n, key, line, mate, themes, defences: legal_moves(&after_key).len() }))
}

/// Moves sorted by their text, for choices that do not depend on generation order.
fn by_text(pos: &Position, mut moves: Vec<Move>) -> Vec<Move> {
    moves.sort_by_key(|&m| TextMove::from_move(m, pos).to_string());
    moves
}

/// The main line of a mate in `n` starting with `key`: at each defender node the defence that resists
/// longest, at each attacker node the fastest mate; ties go to the first move in text order.
///
/// # Errors
/// [`SearchAborted`] at the solver's node limit.
///
/// # Panics
/// If `key` does not mate in `n`.
pub fn main_line(solver: &mut MateSolver, pos: &Position, n: u32, key: Move) -> Result<Vec<Move>, SearchAborted> {
    let mut pos = pos.clone();
    let mut line = vec![key];
    pos.make(key);
    let mut remaining = n - 1;
    while remaining > 0 {
        let defences = solver.defences(&pos, remaining)?;
        let longest = defences.iter().filter_map(|&(_, l)| l).max().expect("the key mates, so a defence exists");
        let d = by_text(&pos, defences.iter().filter(|&&(_, l)| l == Some(longest)).map(|&(d, _)| d).collect())[0];
        line.push(d);
        pos.make(d);
        remaining = longest;
        let mut chosen = None;
        for m in by_text(&pos, legal_moves(&pos)) {
            let undo = pos.make(m);
            let mates = solver.mated_within(&pos, remaining - 1);
            pos.unmake(m, undo);
            if mates? {
                chosen = Some(m);
                break;
            }
        }
        let m = chosen.expect("a mate in the remaining moves exists");
        line.push(m);
        pos.make(m);
        remaining -= 1;
    }
    Ok(line)
}

/// The attacker's pieces that attack the defending king at `pos` (defender to move).
fn checkers(pos: &Position) -> usize {
    let setup = pos.to_setup();
    let king = pos.king(pos.turn());
    pos.pieces()
        .filter(|(_, p)| p.color != pos.turn())
        .filter(|&(cell, _)| naive::piece_destinations(&setup, cell).contains(&king))
        .count()
}

fn themes(
    solver: &mut MateSolver,
    start: &Position,
    n: u32,
    key: Move,
    line: &[Move],
) -> Result<Vec<Theme>, SearchAborted> {
    let mut themes = Vec::new();
    let mut pos = start.clone();
    let captures = pos.piece_at(key.to).is_some();
    pos.make(key);
    let checks = pos.is_check();
    if checks {
        themes.push(Theme::CheckingKey);
    }
    if captures {
        themes.push(Theme::CaptureKey);
    }
    if key.promotion.is_some() {
        themes.push(Theme::PromotionKey);
    }
    if !checks && !captures && key.promotion.is_none() {
        themes.push(Theme::QuietKey);
    }
    if legal_moves(&pos).iter().any(|d| d.to == key.to) {
        themes.push(Theme::Sacrifice);
    }
    if !checks && n >= 2 {
        let undo = pos.make_null();
        let threat = solver.mates_within(&pos, n - 1)?;
        pos.unmake_null(undo);
        if !threat {
            themes.push(Theme::Zugzwang);
        }
    }
    let mut end = start.clone();
    for &m in &line[..line.len() - 1] {
        end.make(m);
    }
    let last = line[line.len() - 1];
    if last.promotion.is_some() {
        themes.push(Theme::PromotionMate);
    }
    end.make(last);
    let king = end.king(end.turn());
    let mover_checks = {
        let setup = end.to_setup();
        naive::piece_destinations(&setup, last.to).contains(&king)
    };
    let count = checkers(&end);
    if count >= 2 {
        themes.push(Theme::DoubleCheckMate);
    } else if !mover_checks {
        themes.push(Theme::DiscoveredMate);
    }
    let g = end.geometry();
    let kc = g.coords(king);
    let blocked = end.pieces().any(|(cell, p)| {
        let c = g.coords(cell);
        p.color == end.turn() && p.role != Role::King && (0..4).all(|i| c[i].abs_diff(kc[i]) <= 1)
    });
    if blocked {
        themes.push(Theme::SelfBlock);
    }
    Ok(themes)
}
