//! Playing strength below full: the `Level` option (1–10, 10 = full strength).
//!
//! A level below 10 changes three things, and nothing else:
//! - the search depth is capped ([`Level::depth_cap`]);
//! - table probes (`Oracle::probe`) are not used, so a game with a tablebase does not
//!   play perfectly at a beginner's level;
//! - every root move gets a random bonus, drawn uniformly from 0 to a margin
//!   ([`Level::margin`], in centi-units, wider as the level falls) once per search,
//!   and the root plays the move with the best score plus bonus: a move up to the
//!   margin below the best may be played, a better one more likely. Searching each
//!   root move against the window shifted by its bonus keeps the tree about as narrow
//!   as at full strength (at most 3.5 times its nodes at the same depth, checked by
//!   `tests/level.rs`; exact scores for every near-best move cost up to 80 times). Wins
//!   and losses are thousands of centi-units apart from any heuristic score, so from
//!   level 2 up an immediate win is never passed over.
//!
//! Level 1 searches one ply and draws uniformly among all legal moves: a random mover.
//! Levels 3–4 see 2 plies ahead. Level 10 is the full search, exactly: the root code
//! path, the depth, the probes and the node counts are those of a search without levels.
//!
//! The random generator is seeded from the operating system's entropy on first use;
//! [`LevelState::seed`] makes the choices repeatable (tests).

use rand::rngs::{SmallRng, SysRng};
use rand::{RngExt, SeedableRng};

/// A playing strength, 1 (a random mover) to 10 (full strength).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Level(u8);

/// Depth cap and score margin (centi-units) of levels 1–9.
const TABLE: [(u32, i32); 9] = [
    (1, UNLIMITED),
    (1, 400),
    (2, 250),
    (2, 120),
    (3, 80),
    (4, 50),
    (5, 30),
    (7, 15),
    (10, 6),
];

/// A margin that takes in every move, mates included.
const UNLIMITED: i32 = 1_000_000;

impl Level {
    pub const MIN: u8 = 1;
    pub const MAX: u8 = 10;
    /// Full strength: the search as it is without levels.
    pub const FULL: Level = Level(10);

    /// The level `n`, if it is within 1..=10.
    pub fn new(n: u8) -> Option<Level> {
        (Self::MIN..=Self::MAX).contains(&n).then_some(Level(n))
    }

    pub fn get(self) -> u8 {
        self.0
    }

    pub fn is_full(self) -> bool {
        self.0 >= Self::MAX
    }

    /// The deepest iteration this level searches, `None` at full strength.
    pub fn depth_cap(self) -> Option<u32> {
        self.entry().map(|(depth, _)| depth)
    }

    /// How far below the best root score a move may be and still be chosen; 0 at
    /// full strength (the root is then searched as usual).
    pub fn margin(self) -> i32 {
        self.entry().map_or(0, |(_, margin)| margin)
    }

    fn entry(self) -> Option<(u32, i32)> {
        if self.is_full() {
            None
        } else {
            TABLE.get(usize::from(self.0.max(1)) - 1).copied()
        }
    }
}

impl Default for Level {
    fn default() -> Self {
        Level::FULL
    }
}

/// The searcher's per-level state: each root move's bonus and the random generator.
pub struct LevelState<M> {
    /// The bonus of every root move of the running search (empty at full strength).
    bonuses: Vec<(M, i32)>,
    margin: i32,
    rng: Option<SmallRng>,
}

impl<M: Copy + PartialEq> LevelState<M> {
    pub fn new() -> Self {
        LevelState {
            bonuses: Vec::new(),
            margin: 0,
            rng: None,
        }
    }

    /// Makes the random choices repeatable from now on.
    pub fn seed(&mut self, seed: u64) {
        self.rng = Some(SmallRng::seed_from_u64(seed));
    }

    /// Prepares a search at `level` from a root with `moves`: below full strength each
    /// move gets a bonus drawn uniformly from 0 to the level's margin, kept for the
    /// whole search.
    pub(super) fn begin(&mut self, level: Level, moves: &[M]) {
        self.bonuses.clear();
        let margin = level.margin();
        self.margin = margin;
        if margin == 0 {
            return;
        }
        let rng = self.rng.get_or_insert_with(entropy_rng);
        self.bonuses
            .extend(moves.iter().map(|&mv| (mv, rng.random_range(0..=margin))));
    }

    /// The margin of the running search (0 at full strength).
    pub(super) fn margin(&self) -> i32 {
        self.margin
    }

    /// Whether the running search is below full strength.
    pub(super) fn is_weakened(&self) -> bool {
        !self.bonuses.is_empty()
    }

    /// The bonus of root move `mv` (0 at full strength).
    pub(super) fn bonus(&self, mv: M) -> i32 {
        self.bonuses
            .iter()
            .find(|&&(m, _)| m == mv)
            .map_or(0, |&(_, bonus)| bonus)
    }
}

impl<M: Copy + PartialEq> Default for LevelState<M> {
    fn default() -> Self {
        Self::new()
    }
}

/// A generator seeded from the operating system, or from the clock if that fails.
fn entropy_rng() -> SmallRng {
    match SmallRng::try_from_rng(&mut SysRng) {
        Ok(rng) => rng,
        Err(error) => {
            log::warn!("no system entropy ({error}); seeding Level from the clock");
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            SmallRng::seed_from_u64(nanos ^ u64::from(std::process::id()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_and_their_limits() {
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(11), None);
        assert_eq!(Level::default(), Level::FULL);
        let full = Level::FULL;
        assert_eq!((full.depth_cap(), full.margin()), (None, 0));
        let one = Level::new(1).unwrap();
        assert_eq!(one.depth_cap(), Some(1));
        assert!(one.margin() > 2 * super::super::INFINITY);
        // Weaker levels never search deeper or choose more narrowly.
        for n in 1..9 {
            let (a, b) = (Level::new(n).unwrap(), Level::new(n + 1).unwrap());
            assert!(a.depth_cap() <= b.depth_cap());
            assert!(a.margin() >= b.margin());
        }
    }

    #[test]
    fn bonuses_stay_within_the_margin_and_spread_over_it() {
        let moves: Vec<u32> = (0..2_000).collect();
        let mut state = LevelState::new();
        state.seed(7);
        state.begin(Level::FULL, &moves);
        assert!(!state.is_weakened());
        assert_eq!(state.bonus(5), 0);
        let level = Level::new(6).unwrap();
        state.begin(level, &moves);
        assert!(state.is_weakened());
        let bonuses: Vec<i32> = moves.iter().map(|&mv| state.bonus(mv)).collect();
        assert!(bonuses.iter().all(|&b| (0..=level.margin()).contains(&b)));
        let mean = bonuses.iter().map(|&b| f64::from(b)).sum::<f64>() / bonuses.len() as f64;
        let half = f64::from(level.margin()) / 2.0;
        assert!((mean - half).abs() < half / 5.0, "{mean}");
    }

    #[test]
    fn a_seed_repeats_the_bonuses() {
        let moves: Vec<u32> = (0..20).collect();
        let draw = |seed| {
            let mut state = LevelState::new();
            state.seed(seed);
            state.begin(Level::new(3).unwrap(), &moves);
            moves.iter().map(|&mv| state.bonus(mv)).collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
        assert_ne!(draw(3), draw(4));
    }
}
