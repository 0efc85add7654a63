//! Search, generic over the game: nothing here names one.
//!
//! - [`strategy`]: what a game tells the engine beside its rules ([`Strategy`]): its
//!   [`eval`]uation ([`Evaluator`]), its exact knowledge ([`oracle`], [`Oracle`]),
//!   which searcher suits a position, its extra engine options.
//! - [`policy`]: the search of one `go` ([`Policy`]): a solver or a table where they
//!   know the answer, else alpha-beta or MCTS as the game prefers; the watchdog.
//! - [`alphabeta`]: iterative-deepening PVS (transposition table, killers,
//!   repetition draws inside the search, mate distances, proofs for `go solve`).
//! - [`mcts`]: Monte-Carlo tree search, for the games (or roles) where it plays better.
//! - [`threads`]: helper threads (lazy SMP for alpha-beta, root parallelism for MCTS).
//! - [`tt`]: the lock-free transposition table; [`time`]: soft and hard budgets from a clock;
//!   [`level`]: playing strength below full.
//!
//! Nothing here prints: searchers report each iteration through a callback with an
//! [`Info`], and the session turns it into protocol text.

pub mod alphabeta;
pub mod eval;
pub mod exact;
pub mod level;
pub mod mcts;
pub mod oracle;
pub mod policy;
pub mod strategy;
pub mod threads;
pub mod time;
pub mod tt;

use std::time::{Duration, Instant};

pub use alphabeta::AlphaBeta;
pub use eval::Evaluator;
pub use level::Level;
pub use mcts::Mcts;
pub use oracle::{NoOracle, Oracle, RootProbe, Solution, Switch, TABLEBASE};
pub use policy::Policy;
pub use strategy::{Method, Strategy};

use crate::game::Value;

/// Scores above this (in absolute value) are wins or losses at a known distance.
pub const MATE: i32 = 30_000;
/// The smallest score that still means a forced win.
pub const MATE_BOUND: i32 = MATE - 2_000;
/// Beyond every score.
pub const INFINITY: i32 = 31_000;
/// The deepest the search ever goes, in plies from the root.
pub const MAX_PLY: usize = 250;

/// A score as the protocol reports it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// Centi-units from the side to move's point of view.
    Cp(i32),
    /// A forced end in this many plies: positive when the side to move wins.
    Mate(i32),
}

impl Score {
    /// Converts an internal score (mates as `MATE - plies`).
    pub fn from_internal(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate(MATE - score)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score))
        } else {
            Score::Cp(score)
        }
    }
}

/// The internal score of a proven value, seen from `ply` plies below the root: the
/// exact layer's score on the scale of a mate at that ply.
pub fn value_to_score(value: Value, ply: usize) -> i32 {
    value.score_on(MATE - ply as i32)
}

/// What one iteration (or a final summary) found, for `info` lines.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Info<M> {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub time: Duration,
    pub hashfull: u32,
    pub pv: Vec<M>,
}

/// The limits of one search, in the searcher's terms.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct SearchLimits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub budget: time::Budget,
    /// When the clock started: the budget counts from here (the arrival of `go`);
    /// `None` means the start of the search.
    pub started: Option<Instant>,
    /// Search until the root value is proven (`go solve`).
    pub solve: bool,
    /// Playing strength; [`Level::FULL`] (the default) is the plain search.
    pub level: Level,
}

impl SearchLimits {
    /// The limits of `go movetime ms` with no overhead kept back, the clock started now:
    /// a timed search of the examples that label positions or make tables.
    pub fn movetime(ms: u64) -> Self {
        let clock = time::Clock {
            movetime: Some(ms),
            ..time::Clock::default()
        };
        SearchLimits {
            budget: time::budget(&clock, 0),
            started: Some(Instant::now()),
            ..SearchLimits::default()
        }
    }
}

/// The result of a search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SearchResult<M> {
    /// The move to play; `None` only when the game is over.
    pub best: Option<M>,
    /// The last reported score.
    pub score: Score,
    /// The principal variation of the last completed iteration.
    pub pv: Vec<M>,
    /// The exact value when the search proved it.
    pub proven: Option<Value>,
    pub nodes: u64,
    pub depth: u32,
    /// A remark from a game's table for an `info string` line (`tablebase draw`).
    pub note: Option<String>,
}

impl<M> SearchResult<M> {
    /// A result with nothing found yet but `best` (a fallback move).
    pub fn fallback(best: Option<M>) -> Self {
        SearchResult {
            best,
            score: Score::Cp(0),
            pv: Vec::new(),
            proven: None,
            nodes: 0,
            depth: 0,
            note: None,
        }
    }
}
