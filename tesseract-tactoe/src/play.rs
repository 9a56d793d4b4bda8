//! Players and matches: the [`Strategy`] trait, a seeded random player, whole games and seeded matches.
//!
//! Every random choice comes from a ChaCha8 generator seeded with the seed given, so the same seed plays
//! the same games on every machine.

use std::fmt;

use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use tesseract_board::Cell;

use crate::engine::{Engine, Strength};
use crate::game::{ClaimError, Game, Outcome, Player};

/// Something that picks cells to claim: the engine, a random player, a person at a terminal.
pub trait Strategy {
    /// The cell to claim in `game`, where it is this strategy's turn; `None` only when the game is over.
    fn choose(&mut self, game: &Game) -> Option<Cell>;
}

impl Strategy for Engine {
    fn choose(&mut self, game: &Game) -> Option<Cell> {
        self.best_move(game)
    }
}

/// A uniform integer in `0..n` (n > 0) from the generator, without modulo bias.
fn uniform(rng: &mut ChaCha8Rng, n: u64) -> u64 {
    let zone = u64::MAX - (u64::MAX % n + 1) % n;
    loop {
        let v = rng.next_u64();
        if v <= zone {
            return v % n;
        }
    }
}

/// A free cell chosen uniformly, or `None` if the game is over.
fn random_cell(rng: &mut ChaCha8Rng, game: &Game) -> Option<Cell> {
    let free: Vec<Cell> = game.free_cells().collect();
    if free.is_empty() {
        return None;
    }
    Some(free[uniform(rng, free.len() as u64) as usize])
}

/// A player that claims a free cell chosen uniformly at random, from a seeded ChaCha8 generator.
#[derive(Clone, Debug)]
pub struct RandomPlayer {
    rng: ChaCha8Rng,
}

impl RandomPlayer {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer { rng: ChaCha8Rng::seed_from_u64(seed) }
    }
}

impl Strategy for RandomPlayer {
    fn choose(&mut self, game: &Game) -> Option<Cell> {
        random_cell(&mut self.rng, game)
    }
}

/// The cells of a random opening of `plies` claims, following from `seed`.
///
/// # Examples
/// ```
/// use tesseract_tactoe::{random_opening, Game};
/// let opening = random_opening(7, 4);
/// assert_eq!(opening, random_opening(7, 4));
/// assert_eq!(Game::replay(opening).unwrap().claimed(), 4);
/// ```
pub fn random_opening(seed: u64, plies: usize) -> Vec<Cell> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new();
    let mut cells = Vec::new();
    while cells.len() < plies {
        let Some(cell) = random_cell(&mut rng, &game) else { break };
        game.claim(cell).expect("a free cell can be claimed");
        cells.push(cell);
    }
    cells
}

/// Plays a whole game: the `opening` cells in turn, then `x` and `o` choosing until all 80 cells are claimed.
///
/// # Errors
/// The first claim refused: an opening cell that cannot be claimed, or a strategy's bad choice (a strategy
/// returning `None` before the end is reported as [`ClaimError::GameOver`]).
pub fn play_game(x: &mut dyn Strategy, o: &mut dyn Strategy, opening: &[Cell]) -> Result<Game, ClaimError> {
    let mut game = Game::new();
    for &cell in opening {
        game.claim(cell)?;
    }
    while !game.is_over() {
        let strategy: &mut dyn Strategy = match game.to_move() {
            Player::X => &mut *x,
            Player::O => &mut *o,
        };
        let cell = strategy.choose(&game).ok_or(ClaimError::GameOver)?;
        game.claim(cell)?;
    }
    Ok(game)
}

/// Random claims that open every game of [`selfplay`] and [`play_match`]: one for each player.
pub const OPENING_PLIES: usize = 2;

/// The engine at `strength` plays itself from a random opening of [`OPENING_PLIES`] claims drawn from `seed`.
///
/// # Examples
/// ```
/// use tesseract_tactoe::{selfplay, Strength};
/// let game = selfplay(Strength::level(1).unwrap(), 3);
/// assert!(game.is_over());
/// assert_eq!(game.record(), selfplay(Strength::level(1).unwrap(), 3).record());
/// ```
pub fn selfplay(strength: Strength, seed: u64) -> Game {
    let mut x = Engine::new(strength);
    let mut o = Engine::new(strength);
    play_game(&mut x, &mut o, &random_opening(seed, OPENING_PLIES)).expect("the engine claims free cells")
}

/// One side of a match.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Contestant {
    /// The engine at this strength.
    Engine(Strength),
    /// A uniformly random player.
    Random,
}

impl Contestant {
    fn strategy(self, seed: u64) -> Box<dyn Strategy> {
        match self {
            Contestant::Engine(s) => Box::new(Engine::new(s)),
            Contestant::Random => Box::new(RandomPlayer::new(seed)),
        }
    }
}

impl fmt::Display for Contestant {
    /// `engine depth 3 nodes 30000` or `random`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Contestant::Engine(s) if s.nodes() == u64::MAX => write!(f, "engine depth {}", s.depth()),
            Contestant::Engine(s) => write!(f, "engine depth {} nodes {}", s.depth(), s.nodes()),
            Contestant::Random => f.write_str("random"),
        }
    }
}

/// The result of a match between A and B.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct MatchResult {
    /// Games played.
    pub games: u32,
    /// Games A won.
    pub a_wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games B won.
    pub b_wins: u32,
    /// A's points, summed over the games.
    pub a_points: u64,
    /// B's points, summed over the games.
    pub b_points: u64,
}

impl fmt::Display for MatchResult {
    /// `games 20 A-wins 18 draws 1 B-wins 1 A-points 412 B-points 175`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "games {} A-wins {} draws {} B-wins {} A-points {} B-points {}",
            self.games, self.a_wins, self.draws, self.b_wins, self.a_points, self.b_points
        )
    }
}

/// A seeded match of `pairs` pairs of games between A and B. Each pair opens with the same random
/// [`OPENING_PLIES`] claims, A playing X in the first game and O in the second. Openings and random
/// players draw from ChaCha8 generators seeded from `seed` (one stream for openings, one per random side),
/// so the same arguments give the same result.
///
/// # Examples
/// ```
/// use tesseract_tactoe::{play_match, Contestant, Strength};
/// let a = Contestant::Engine(Strength::level(1).unwrap());
/// let result = play_match(a, Contestant::Random, 1, 5);
/// assert_eq!(result.games, 2);
/// assert_eq!(result.a_wins, 2);
/// ```
pub fn play_match(a: Contestant, b: Contestant, pairs: u32, seed: u64) -> MatchResult {
    let mut openings = ChaCha8Rng::seed_from_u64(seed);
    let mut sa = a.strategy(seed.wrapping_add(1));
    let mut sb = b.strategy(seed.wrapping_add(2));
    let mut result = MatchResult::default();
    for _ in 0..pairs {
        let opening = random_opening(openings.next_u64(), OPENING_PLIES);
        for a_plays in Player::BOTH {
            let game = match a_plays {
                Player::X => play_game(&mut *sa, &mut *sb, &opening),
                Player::O => play_game(&mut *sb, &mut *sa, &opening),
            }
            .expect("engines and random players claim free cells");
            result.games += 1;
            result.a_points += u64::from(game.score(a_plays));
            result.b_points += u64::from(game.score(a_plays.other()));
            match game.outcome() {
                Some(Outcome::Win(p)) if p == a_plays => result.a_wins += 1,
                Some(Outcome::Win(_)) => result.b_wins += 1,
                _ => result.draws += 1,
            }
        }
    }
    result
}
