//! Frozen Forest's exact knowledge: in forests of at most [`SOLVED_TREES`] a side,
//! `go solve` asks the exact solver ([`super::solve`]), which proves any position of
//! them with its distance (Trees 4 from the start: about 1.2 million nodes, under a
//! second here). Trees 5 from the start takes the solver most of an hour, so its first
//! two plies answer from a table the solver made ([`TREES_5_START`]); later positions
//! are the solver's again (seconds to minutes). The solver consults the built-in book
//! of the forest, if there is one ([`crate::book::game::EMBEDDED`]). Larger forests are left to the generic
//! proving search. With the `Tablebase` option off the solver is neither made nor used.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::solve::{Prover, book_options};
use super::{Config, FrozenForest, Move};
use crate::game::{Game, Value};
use crate::search::exact::SolverCell;
use crate::search::{Oracle, Solution};

/// The largest forest the oracle solves.
pub const SOLVED_TREES: u8 = 5;

/// Trees 5 from the start, by `cargo run --release --example frozenforest_solve -- start
/// 5 18446744073709551615 26 --exact`: for each placement of Yuki's, Mina's placement
/// that wins fastest and the plies of the whole game from the start.
pub const TREES_5_START: [(&str, &str, u32); 25] = [
    ("c4", "e4", 38),
    ("d4", "f4", 36),
    ("e4", "g4", 36),
    ("f4", "c4", 36),
    ("g4", "c4", 38),
    ("c5", "c7", 36),
    ("d5", "f7", 36),
    ("e5", "e7", 34),
    ("f5", "d7", 36),
    ("g5", "g7", 36),
    ("c6", "c4", 36),
    ("d6", "f6", 34),
    ("e6", "c4", 36),
    ("f6", "c6", 34),
    ("g6", "g4", 36),
    ("c7", "c4", 36),
    ("d7", "g4", 36),
    ("e7", "e4", 34),
    ("f7", "c4", 36),
    ("g7", "g4", 36),
    ("c8", "c4", 38),
    ("d8", "f8", 36),
    ("e8", "e4", 36),
    ("f8", "c8", 36),
    ("g8", "c4", 38),
];

/// On the clock the solver is tried from this many trees down: with more, it rarely
/// proves a position in the time of a move (at 1 s + 10 ms: always with 12 trees,
/// half the time with 16, never with 19 or more), and the search would lose the time.
const CLOCK_TREES: u32 = 18;

/// The solver's table: 2^22 entries of 16 bytes, 64 MiB.
const TABLE_LOG2: u32 = 22;

/// The value of the start of Trees 5 or of Mina's placement after it, from
/// [`TREES_5_START`].
fn opening(state: &FrozenForest) -> Option<Solution<Move>> {
    let config = state.options();
    if config.trees != 5 {
        return None;
    }
    let start = FrozenForest::start(&config);
    let parse = |position: &FrozenForest, text: &str| position.parse_move(text).ok();
    if *state == start {
        // Yuki's slowest loss (the first in the table's order).
        let &(placement, _, plies) = TREES_5_START.iter().rev().max_by_key(|entry| entry.2)?;
        return Some(Solution::with_move(
            Value::Loss(plies),
            Some(parse(&start, placement)?),
            1,
        ));
    }
    TREES_5_START.iter().find_map(|&(placement, reply, plies)| {
        let mut placed = start;
        placed.play(parse(&start, placement)?);
        (*state == placed)
            .then(|| Solution::with_move(Value::Win(plies - 1), parse(&placed, reply), 1))
    })
}

/// The default oracle solves nothing, for searchers that never `go solve`.
#[derive(Default)]
pub struct FrozenForestOracle {
    /// In small forests: the prover, made by [`Oracle::prepare`] or on first use (its
    /// table is 64 MiB: [`TABLE_LOG2`]) and kept (the table keeps what it learnt), with
    /// the `Tablebase` option.
    prover: SolverCell<Prover>,
}

impl Oracle<FrozenForest> for FrozenForestOracle {
    fn new(config: &Config) -> Self {
        let config = *config;
        FrozenForestOracle {
            // A table the system refuses is no prover: positions are searched.
            prover: SolverCell::new(config.trees <= SOLVED_TREES, move || {
                let mut prover = Prover::try_new(u64::MAX, TABLE_LOG2)?;
                prover.use_embedded_book(&book_options(&config));
                Some(prover)
            }),
        }
    }

    fn set_options(&self, options: &crate::game::Params) {
        self.prover.set_options(options);
    }

    /// The prover of a small forest, with its 64 MiB table, is made here (before
    /// `readyok`), not on a move's clock.
    fn prepare(&self) {
        self.prover.prepare();
    }

    fn wait(&self, _stop: &AtomicBool, _deadline: Option<Instant>) {
        self.prepare();
    }

    fn solve(&self, state: &FrozenForest, stop: &AtomicBool) -> Option<Solution<Move>> {
        self.solve_until(state, stop, None)
    }

    fn solve_on_clock(
        &self,
        state: &FrozenForest,
        stop: &AtomicBool,
        deadline: Instant,
    ) -> Option<Solution<Move>> {
        if state.trees().count_ones() > CLOCK_TREES {
            return None;
        }
        self.solve_until(state, stop, Some(deadline))
    }
}

impl FrozenForestOracle {
    /// The value of `state` from the opening table or the prover, which gives up at
    /// `deadline` (the table keeps what it learnt).
    fn solve_until(
        &self,
        state: &FrozenForest,
        stop: &AtomicBool,
        deadline: Option<Instant>,
    ) -> Option<Solution<Move>> {
        if state.options().trees > SOLVED_TREES || !self.prover.on() {
            return None;
        }
        if let Some(solution) = opening(state) {
            return Some(solution);
        }
        self.prover.solve_until(state, stop, deadline)
    }
}
