//! Linetris's exact knowledge: the Connect Four solver ([`super::solver`]) for positions
//! under plain Connect Four rules (RowClear off), for `go solve` and, on positions with
//! few empty cells, as a probe inside the search.
//!
//! The oracle owns its solvers (their tables are large: 42 MB for boards that fit 64
//! bits), made on first use or by [`Oracle::prepare`] and kept for the engine's life.
//! Search threads share it, so each solver sits behind a lock; a probe does not wait
//! for a solver another thread is using.

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};

use super::solver::{self, Solver};
use super::{Config, Linetris, Move, PROBE_EMPTIES};
use crate::game::{Game, Outcome, Value};
use crate::search::{Oracle, Solution};

/// The solvers of one engine.
pub struct LinetrisOracle {
    /// Whether the config is plain Connect Four (RowClear off), and its board.
    connect_four: bool,
    rows: u32,
    cols: u32,
    small: Mutex<Option<Solver<u64>>>,
    large: Mutex<Option<Solver<u128>>>,
}

impl LinetrisOracle {
    pub fn new(config: &Config) -> Self {
        LinetrisOracle {
            connect_four: !config.row_clear,
            rows: config.rows,
            cols: config.cols,
            small: Mutex::new(None),
            large: Mutex::new(None),
        }
    }

    /// The exact value of a Connect Four position (RowClear off), or `None` when the
    /// rules in force are not plain Connect Four up to a full board, or when `stop` was
    /// raised. With `value_only`, no best move (and no node count) is reported, and
    /// `None` too when another thread holds the solver.
    pub fn solve_connect_four(
        &self,
        state: &Linetris,
        stop: &AtomicBool,
        value_only: bool,
    ) -> Option<Solution<Move>> {
        if state.rules.row_clear {
            return None;
        }
        let geo = &state.rules.geo;
        let empties = (geo.board & !state.occupied()).count_ones();
        if let Some(outcome) = state.outcome() {
            let value = match outcome {
                Outcome::Draw => Value::Draw(0),
                Outcome::Win(p) if p == state.side => Value::Win(0),
                Outcome::Win(_) => Value::Loss(0),
            };
            return Some(Solution {
                value,
                best: None,
                nodes: 0,
            });
        }
        // The ply limit must not be able to end the game before the board is full.
        if state.plies + empties > state.rules.limit {
            return None;
        }
        let own = state.pieces[state.side.index()];
        let mask = state.occupied();
        let (rows, cols) = (state.rows(), state.cols());
        // Runs `$body` with this engine's solver for the board (u64 when it fits).
        macro_rules! with_solver {
            (|$solver:ident, $own:ident, $mask:ident| $body:expr) => {
                if solver::fits_u64(rows, cols) {
                    let mut slot = lock(&self.small, value_only)?;
                    let $solver = slot.get_or_insert_with(|| Solver::new(rows, cols));
                    $solver.resize(rows, cols);
                    let ($own, $mask) = (own as u64, mask as u64);
                    $body
                } else {
                    let mut slot = lock(&self.large, value_only)?;
                    let $solver = slot.get_or_insert_with(|| Solver::new(rows, cols));
                    $solver.resize(rows, cols);
                    let ($own, $mask) = (own, mask);
                    $body
                }
            };
        }
        let solution = if value_only {
            with_solver!(|solver, own, mask| solver
                .solve_value(own, mask, stop)
                .map(|value| (value, None, 0)))
        } else {
            with_solver!(|solver, own, mask| solver.solve_with_move(own, mask, stop))
        };
        solution.map(|(value, best, nodes)| Solution {
            value,
            best: best.map(|col| Move(col as u8)),
            nodes,
        })
    }

    /// Clears the solvers' transposition tables (benchmarks measure each solve from a
    /// cleared table).
    pub fn clear(&self) {
        if let Some(mut guard) = lock(&self.small, false)
            && let Some(solver) = guard.as_mut()
        {
            solver.clear();
        }
        if let Some(mut guard) = lock(&self.large, false)
            && let Some(solver) = guard.as_mut()
        {
            solver.clear();
        }
    }
}

/// Locks a solver; `None` when `try_only` and another thread holds it.
fn lock<T>(solver: &Mutex<T>, try_only: bool) -> Option<MutexGuard<'_, T>> {
    if try_only {
        match solver.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    } else {
        Some(solver.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Oracle<Linetris> for LinetrisOracle {
    fn new(config: &Config) -> Self {
        LinetrisOracle::new(config)
    }

    /// Makes the solver of the board now, so that no clocked search pays for its table.
    fn prepare(&self) {
        if !self.connect_four {
            return;
        }
        let (rows, cols) = (self.rows, self.cols);
        if solver::fits_u64(rows, cols) {
            if let Some(mut slot) = lock(&self.small, false) {
                slot.get_or_insert_with(|| Solver::new(rows, cols));
            }
        } else if let Some(mut slot) = lock(&self.large, false) {
            slot.get_or_insert_with(|| Solver::new(rows, cols));
        }
    }

    fn wait(&self, _stop: &AtomicBool) {
        self.prepare();
    }

    fn solve(&self, state: &Linetris, stop: &AtomicBool) -> Option<Solution<Move>> {
        self.solve_connect_four(state, stop, false)
    }

    /// Connect Four positions with few empty cells are solved outright (a few
    /// microseconds each), so the search plays endgames perfectly.
    fn probe(&self, state: &Linetris) -> Option<Value> {
        if state.rules.row_clear
            || (state.rules.geo.board & !state.occupied()).count_ones() > PROBE_EMPTIES
        {
            return None;
        }
        let never = AtomicBool::new(false);
        self.solve_connect_four(state, &never, true)
            .map(|solution| solution.value)
    }
}
