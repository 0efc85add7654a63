//! Playing strength below full: the `Level` option (1–10, 10 = full strength).
//!
//! A level below 10 changes three things, and nothing else:
//! - the search depth is capped ([`Level::depth_cap`]);
//! - table probes (`Game::probe`) are not used, so a game with a tablebase does not
//!   play perfectly at a beginner's level;
//! - the root keeps an exact score for every move within a margin of the best
//!   ([`Level::margin`], in centi-units, wider as the level falls), and the move
//!   played is drawn at random among them, better moves more likely
//!   ([`choose`]). Wins and losses are thousands of centi-units apart from any
//!   heuristic score, so from level 2 up an immediate win is never passed over.
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

/// The searcher's per-level state: the root scores and the random generator.
pub struct LevelState<M> {
    /// The margin of the running search (0: not collecting root scores).
    pub(super) margin: i32,
    /// Exact scores of the root moves of the running iteration.
    pub(super) current: Vec<(M, i32)>,
    /// Exact scores of the root moves of the last completed iteration.
    completed: Vec<(M, i32)>,
    rng: Option<SmallRng>,
}

impl<M: Copy> LevelState<M> {
    pub fn new() -> Self {
        LevelState {
            margin: 0,
            current: Vec::new(),
            completed: Vec::new(),
            rng: None,
        }
    }

    /// Makes the random choices repeatable from now on.
    pub fn seed(&mut self, seed: u64) {
        self.rng = Some(SmallRng::seed_from_u64(seed));
    }

    /// Prepares for a search at `level`.
    pub(super) fn begin(&mut self, level: Level) {
        self.margin = level.margin();
        self.current.clear();
        self.completed.clear();
    }

    /// Notes the exact score of a root move in the running iteration.
    pub(super) fn record(&mut self, mv: M, score: i32) {
        self.current.push((mv, score));
    }

    /// The running iteration completed: its scores are the ones to choose from.
    pub(super) fn complete_iteration(&mut self) {
        std::mem::swap(&mut self.current, &mut self.completed);
        self.current.clear();
    }

    /// Starts a new iteration (drops the scores of one that was cut short).
    pub(super) fn begin_iteration(&mut self) {
        self.current.clear();
    }

    /// The move to play and its score, drawn among the last completed iteration's
    /// near-best moves; `None` at full strength or when no iteration completed.
    pub(super) fn choose(&mut self) -> Option<(M, i32)> {
        if self.margin == 0 || self.completed.is_empty() {
            return None;
        }
        let rng = self.rng.get_or_insert_with(entropy_rng);
        choose(&self.completed, self.margin, rng)
    }
}

impl<M: Copy> Default for LevelState<M> {
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

/// Draws a move among those scoring at most `margin` below the best, each with a
/// weight that falls linearly from `margin + 1` (the best) to 1 (at the margin).
pub fn choose<M: Copy>(scores: &[(M, i32)], margin: i32, rng: &mut SmallRng) -> Option<(M, i32)> {
    let best = scores.iter().map(|&(_, score)| score).max()?;
    let weight = |score: i32| -> u64 {
        let gap = i64::from(best) - i64::from(score);
        (i64::from(margin) - gap + 1).max(0) as u64
    };
    let total: u64 = scores.iter().map(|&(_, score)| weight(score)).sum();
    if total == 0 {
        return None;
    }
    let mut pick = rng.random_range(0..total);
    for &(mv, score) in scores {
        let w = weight(score);
        if pick < w {
            return Some((mv, score));
        }
        pick -= w;
    }
    None
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
    fn choices_stay_within_the_margin_and_favour_the_best() {
        let scores = [(0, 100), (1, 60), (2, 0), (3, -29_000)];
        let mut rng = SmallRng::seed_from_u64(7);
        let mut counts = [0; 4];
        for _ in 0..2_000 {
            let (mv, score) = choose(&scores, 50, &mut rng).unwrap();
            assert_eq!(scores[mv].1, score);
            counts[mv] += 1;
        }
        // Weights 51 and 11: the best is chosen about 82% of the time.
        assert_eq!(counts[2] + counts[3], 0);
        assert!(counts[0] > 1_500 && counts[1] > 250, "{counts:?}");
        // An unlimited margin takes in everything, nearly uniformly.
        let mut counts = [0; 4];
        for _ in 0..4_000 {
            counts[choose(&scores, UNLIMITED, &mut rng).unwrap().0] += 1;
        }
        assert!(counts.iter().all(|&c| c > 800), "{counts:?}");
        assert_eq!(choose::<u8>(&[], 10, &mut rng), None);
    }

    #[test]
    fn a_seed_repeats_the_choices() {
        let scores: Vec<(usize, i32)> = (0..20).map(|i| (i, i as i32)).collect();
        let draw = |seed| {
            let mut rng = SmallRng::seed_from_u64(seed);
            (0..10)
                .map(|_| choose(&scores, 30, &mut rng).unwrap().0)
                .collect::<Vec<_>>()
        };
        assert_eq!(draw(3), draw(3));
    }
}
