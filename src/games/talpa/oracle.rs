//! Talpa's exact knowledge: on 4×4 boards, `go solve` asks the exact solver
//! ([`super::solve`]), which proves any 4×4 position with its distance in well under a
//! second (the start: 74,627 nodes), and on the clock plays every 4×4 position it proves
//! within half the move's time. Larger boards are left to the generic proving search:
//! 6×6 from the start is out of the solver's reach in a `go solve`'s time. With the
//! `Tablebase` option off the solver is neither made nor used. The solver consults a
//! built-in 4×4 book if there is one ([`crate::book::game::EMBEDDED`]; none is: the
//! solver needs none).

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::solve::{Solver, book_options};
use super::{Config, Talpa};
use crate::search::exact::SolverCell;
use crate::search::{Oracle, Solution};

/// The board size the oracle solves.
const SOLVED_SIZE: usize = 4;
/// Table entries of the 4×4 solver (16 bytes each: 1 MiB).
const LOG2_ENTRIES: u32 = 16;

/// The default oracle solves nothing, for searchers that never `go solve`.
#[derive(Default)]
pub struct TalpaOracle {
    /// On 4×4 boards: the solver, made by [`Oracle::prepare`] or on first use and kept
    /// (its table keeps what it learnt), with the `Tablebase` option.
    solver: SolverCell<Solver>,
}

impl Oracle<Talpa> for TalpaOracle {
    fn new(config: &Config) -> Self {
        TalpaOracle {
            solver: SolverCell::new(config.size == SOLVED_SIZE, || {
                let mut solver = Solver::new(SOLVED_SIZE, LOG2_ENTRIES).ok()?;
                solver.use_embedded_book(&book_options(SOLVED_SIZE));
                Some(solver)
            }),
        }
    }

    fn set_options(&self, options: &crate::game::Params) {
        self.solver.set_options(options);
    }

    fn solve(&self, state: &Talpa, stop: &AtomicBool) -> Option<Solution<super::Move>> {
        self.solve_until(state, stop, None)
    }

    /// On the clock too: a 4×4 position takes the solver a few milliseconds at most.
    fn solve_on_clock(
        &self,
        state: &Talpa,
        stop: &AtomicBool,
        deadline: Instant,
    ) -> Option<Solution<super::Move>> {
        self.solve_until(state, stop, Some(deadline))
    }

    /// The solver is made before `readyok`, not on a move's clock.
    fn prepare(&self) {
        self.solver.prepare();
    }

    fn wait(&self, _stop: &AtomicBool, _deadline: Option<Instant>) {
        self.prepare();
    }
}

impl TalpaOracle {
    /// The solver's value of `state`, given up at `deadline` if any.
    fn solve_until(
        &self,
        state: &Talpa,
        stop: &AtomicBool,
        deadline: Option<Instant>,
    ) -> Option<Solution<super::Move>> {
        if state.size() != SOLVED_SIZE {
            return None;
        }
        self.solver.solve_until(state, stop, deadline)
    }
}
