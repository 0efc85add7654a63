//! The exact solvers `tabuleiro solve` uses, behind one small trait: Talpa's
//! (`games/talpa/solve.rs`) and Frozen Forest's (`games/frozenforest/solve.rs`), both
//! the shared solver of `search/exact/` over the game's rules. The one place of this
//! command that names a game's solver.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::book::game::{Consult, GameBook};
use crate::game::{Game, Value};
use crate::games::frozenforest::FrozenForest;
use crate::games::frozenforest::solve::Prover;
use crate::games::talpa::Talpa;
use crate::games::talpa::solve::Solver as TalpaSolver;
use crate::search::exact;

/// The games `solve` takes.
pub const GAMES: &[&str] = &["talpa", "frozenforest"];

/// What one solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved<M> {
    /// For the side to move; `None` when the solve gave up (deadline, or a position the
    /// solver cannot take).
    pub value: Option<Value>,
    /// A move that keeps the value (none when the game is over).
    pub best: Option<M>,
    /// Nodes visited, solved or not.
    pub nodes: u64,
}

/// A game with an exact solver.
pub trait Exact: Game + Clone {
    type Solver;
    /// A solver for positions of `config`, with a table of 2^`log2_entries` entries.
    fn solver(config: &Self::Config, log2_entries: u32) -> Result<Self::Solver, String>;
    /// The exact value of `state` with a move that keeps it (no value when `deadline`
    /// passed first or the solver cannot take the position).
    fn solve(
        solver: &mut Self::Solver,
        state: &Self,
        deadline: Option<Instant>,
    ) -> Solved<Self::Move>;
    /// Makes the solver consult `book` (an error, naming both, for a book of another
    /// game or options).
    fn set_book(
        solver: &mut Self::Solver,
        config: &Self::Config,
        book: Arc<GameBook>,
    ) -> Result<(), String>;
    /// The book the solver consults, with its hits and misses so far.
    fn book(solver: &Self::Solver) -> Option<&Consult>;
}

impl Exact for Talpa {
    type Solver = TalpaSolver;

    fn solver(config: &Self::Config, log2_entries: u32) -> Result<TalpaSolver, String> {
        TalpaSolver::new(config.size, log2_entries)
    }

    fn solve(
        solver: &mut TalpaSolver,
        state: &Talpa,
        deadline: Option<Instant>,
    ) -> Solved<Self::Move> {
        solve_with(solver, state, deadline)
    }

    fn set_book(
        solver: &mut TalpaSolver,
        _config: &Self::Config,
        book: Arc<GameBook>,
    ) -> Result<(), String> {
        solver.set_book(Some(book))
    }

    fn book(solver: &TalpaSolver) -> Option<&Consult> {
        solver.book()
    }
}

impl Exact for FrozenForest {
    type Solver = Prover;

    fn solver(_config: &Self::Config, log2_entries: u32) -> Result<Prover, String> {
        Prover::try_new(u64::MAX, log2_entries)
            .ok_or_else(|| format!("no memory for a table of 2^{log2_entries} entries"))
    }

    fn solve(
        solver: &mut Prover,
        state: &FrozenForest,
        deadline: Option<Instant>,
    ) -> Solved<Self::Move> {
        solve_with(solver, state, deadline)
    }

    fn set_book(
        solver: &mut Prover,
        config: &Self::Config,
        book: Arc<GameBook>,
    ) -> Result<(), String> {
        solver.set_book(config, Some(book))
    }

    fn book(solver: &Prover) -> Option<&Consult> {
        solver.book()
    }
}

/// One solve by the shared solver of `search/exact/`, within `deadline`.
fn solve_with<R: exact::Exact>(
    solver: &mut exact::Solver<R>,
    state: &R::Game,
    deadline: Option<Instant>,
) -> Solved<<R::Game as Game>::Move> {
    let never = AtomicBool::new(false);
    let before = solver.nodes();
    solver.set_deadline(deadline);
    let solved = solver.solve(state, &never).ok();
    solver.set_deadline(None);
    Solved {
        value: solved.as_ref().map(|s| s.value),
        best: solved.and_then(|s| s.best),
        nodes: solver.nodes() - before,
    }
}

/// Generic code to run for one game of [`GAMES`].
pub trait ExactVisitor {
    type Output;
    fn visit<G: Exact>(self) -> Self::Output;
}

/// Runs `visitor` for the game `name`; an error for a game without an exact solver here.
pub fn visit<V: ExactVisitor>(name: &str, visitor: V) -> Result<V::Output, String> {
    match name {
        "talpa" => Ok(visitor.visit::<Talpa>()),
        "frozenforest" => Ok(visitor.visit::<FrozenForest>()),
        _ => Err(format!("solve takes {}, not {name}", GAMES.join(" and "))),
    }
}
