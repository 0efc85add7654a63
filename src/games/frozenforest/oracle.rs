//! Frozen Forest's exact knowledge: in forests of at most [`SOLVED_TREES`] a side,
//! `go solve` asks the exact solver ([`super::solve`]), which proves any position of
//! them with its distance (Trees 4 from the start: about 0.9 million nodes, under a
//! second here). Larger forests are left to the generic proving search: the solver
//! takes seconds to minutes on Trees 5 and 6, more than a `go solve` should wait.

use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use super::solve::Prover;
use super::{Config, FrozenForest, Move};
use crate::search::{Oracle, Solution};

/// The largest forest the oracle solves.
pub const SOLVED_TREES: u8 = 4;

/// The default oracle solves nothing, for searchers that never `go solve`.
#[derive(Default)]
pub struct FrozenForestOracle {
    /// In small forests: the prover, made on first use (its table is 16 MiB) and kept
    /// (the table keeps what it learnt).
    prover: Option<Mutex<Option<Prover>>>,
}

impl Oracle<FrozenForest> for FrozenForestOracle {
    fn new(config: &Config) -> Self {
        FrozenForestOracle {
            prover: (config.trees <= SOLVED_TREES).then(|| Mutex::new(None)),
        }
    }

    fn solve(&self, state: &FrozenForest, stop: &AtomicBool) -> Option<Solution<Move>> {
        if state.options().trees > SOLVED_TREES {
            return None;
        }
        let mut slot = self.prover.as_ref()?.lock().ok()?;
        let prover = slot.get_or_insert_with(Prover::default);
        let before = prover.nodes();
        let solved = prover.solve(state, stop).ok()?;
        Some(Solution {
            value: solved.value,
            best: solved.best,
            nodes: prover.nodes() - before,
        })
    }
}
