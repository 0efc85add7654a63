//! The part of an [`crate::search::Oracle`] that holds an exact solver: made before
//! `readyok` (or on first use), kept with what its table learnt, shared behind a lock,
//! off with the `Tablebase` option, and asked with the deadline of a move on the clock.

use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard};
use std::time::Instant;

use super::negamax::{Exact, Solver};
use crate::game::Game;
use crate::search::{Solution, Switch};

/// A solver an oracle keeps, or none for the configurations it does not solve.
pub struct SolverCell<S> {
    /// The solver, made by [`SolverCell::prepare`] or on first use; `None` outside.
    slot: Option<Mutex<Option<S>>>,
    /// How to make it (`None`: the system refused its memory).
    make: Box<dyn Fn() -> Option<S> + Send + Sync>,
    /// The `Tablebase` option.
    switch: Switch,
}

impl<S> Default for SolverCell<S> {
    /// A cell that solves nothing.
    fn default() -> Self {
        SolverCell {
            slot: None,
            make: Box::new(|| None),
            switch: Switch::default(),
        }
    }
}

impl<S> SolverCell<S> {
    /// A cell that makes its solver with `make` when `active` (the configuration is one
    /// it solves), else solves nothing.
    pub fn new(active: bool, make: impl Fn() -> Option<S> + Send + Sync + 'static) -> Self {
        SolverCell {
            slot: active.then(|| Mutex::new(None)),
            make: Box::new(make),
            switch: Switch::default(),
        }
    }

    /// Whether the `Tablebase` option is on.
    pub fn on(&self) -> bool {
        self.switch.on()
    }

    /// [`crate::search::Oracle::set_options`]: the `Tablebase` option.
    pub fn set_options(&self, options: &crate::game::Params) {
        self.switch.set_options(options);
    }

    /// Makes the solver now (before `readyok`, not on a move's clock), if the cell is
    /// active and on.
    pub fn prepare(&self) {
        if self.on() {
            let _ = self.solver();
        }
    }

    /// The solver, made if need be; `None` when inactive, off, refused or poisoned.
    fn solver(&self) -> Option<MutexGuard<'_, Option<S>>> {
        if !self.on() {
            return None;
        }
        let mut slot = self.slot.as_ref()?.lock().ok()?;
        if slot.is_none() {
            *slot = Some((self.make)()?);
        }
        Some(slot)
    }

    /// `f` on the solver, or `None` when there is none.
    pub fn with<R>(&self, f: impl FnOnce(&mut S) -> R) -> Option<R> {
        let mut slot = self.solver()?;
        Some(f(slot.as_mut()?))
    }
}

impl<E: Exact> SolverCell<Solver<E>> {
    /// The solver's value of `state` with a move that keeps it, given up at `deadline`
    /// if any, or once `stop` is raised (the table keeps what was proven).
    pub fn solve_until(
        &self,
        state: &E::Game,
        stop: &AtomicBool,
        deadline: Option<Instant>,
    ) -> Option<Solution<<E::Game as Game>::Move>> {
        self.with(|solver| {
            let before = solver.nodes();
            solver.set_deadline(deadline);
            let solved = solver.solve(state, stop);
            solver.set_deadline(None);
            log::debug!(
                "exact solver: {} after {} nodes",
                if solved.is_ok() { "solved" } else { "gave up" },
                solver.nodes() - before
            );
            solved.ok()
        })?
    }
}
