//! The exact solvers `tabuleiro solve` uses, behind one small trait: Talpa's
//! (`games/talpa/solve.rs`) and Frozen Forest's (`games/frozenforest/solve.rs`), both
//! the shared solver of `search/exact/` over the game's rules. The one place of this
//! command that names a game's solver.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use crate::game::{Game, Value};
use crate::games::frozenforest::{self, FrozenForest};
use crate::games::talpa::{self, Talpa};
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

/// A game with an exact solver: the shared solver of `search/exact/` over its rules.
pub trait Exact: Game + Clone {
    /// The game as the shared solver sees it.
    type Rules: exact::Exact<Game = Self>;
    /// A solver for positions of `config`, with a table of 2^`log2_entries` entries.
    fn solver(config: &Self::Config, log2_entries: u32) -> Result<SolverOf<Self>, String>;
    /// The options of `config` as a book's header writes them (what a book given to
    /// the solver must name).
    fn book_options(config: &Self::Config) -> String;
}

/// The solver of a game `solve` takes.
pub type SolverOf<G> = exact::Solver<<G as Exact>::Rules>;

impl Exact for Talpa {
    type Rules = talpa::solve::Rules;

    fn solver(config: &Self::Config, log2_entries: u32) -> Result<SolverOf<Self>, String> {
        talpa::solve::Solver::new(config.size, log2_entries)
    }

    fn book_options(config: &Self::Config) -> String {
        talpa::solve::book_options(config.size)
    }
}

impl Exact for FrozenForest {
    type Rules = frozenforest::solve::Rules;

    fn solver(_config: &Self::Config, log2_entries: u32) -> Result<SolverOf<Self>, String> {
        frozenforest::solve::Prover::try_new(u64::MAX, log2_entries)
            .ok_or_else(|| format!("no memory for a table of 2^{log2_entries} entries"))
    }

    fn book_options(config: &Self::Config) -> String {
        frozenforest::solve::book_options(config)
    }
}

/// One solve of `state` within `deadline`.
pub fn solve<G: Exact>(
    solver: &mut SolverOf<G>,
    state: &G,
    deadline: Option<Instant>,
) -> Solved<G::Move> {
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
