//! How the engine plays a game, beside its rules: the evaluation, the exact knowledge,
//! which searcher suits a position, and the game's extra engine options.
//!
//! [`crate::game::Game`] is the rulebook; [`Strategy`] is the engine's playbook for
//! it. Each game implements both in its own module; the generic layers (search,
//! session, bench) ask `Strategy` and never name a game.

use super::eval::Evaluator;
use super::oracle::Oracle;
use crate::game::{Game, OptionSpec};

/// Which searcher plays a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Method {
    /// Iterative-deepening alpha-beta ([`super::alphabeta`]).
    AlphaBeta,
    /// Monte-Carlo tree search ([`super::mcts`]), where it was measured to play better.
    Mcts,
}

/// The engine's side of a game.
pub trait Strategy: Game {
    /// The evaluation the engine plays with.
    type Eval: Evaluator<Self> + Default;
    /// The game's exact knowledge (solvers, tables), or [`super::NoOracle`].
    type Oracle: Oracle<Self>;

    /// The search depth `bench` uses for this game's positions.
    const BENCH_DEPTH: u32 = 6;

    /// Positions (FEN, default rules) that `bench` searches after those its playout
    /// reaches: a game whose early positions never meet the terms that decide its middle
    /// game names some here, so that a change to those terms changes the signature.
    const BENCH_FENS: &'static [&'static str] = &[];

    /// How many more moves the side to move is assumed to play when the clock gives no
    /// `movestogo`: each move's soft budget is about the clock's share for one of them
    /// ([`super::time::budget_for`]). Shorter games spend more of the clock a move.
    const MOVES_TO_GO: u64 = super::time::DEFAULT_MOVES_TO_GO;

    /// [`Self::MOVES_TO_GO`] in this position: a game whose length is told by how far
    /// it has come may say fewer as it goes on.
    fn moves_to_go(&self) -> u64 {
        Self::MOVES_TO_GO
    }

    /// A move on the clock may run to 1/`hard_share` of the usable clock (plus half the
    /// increment; [`super::time::budget_for`]), where an iteration still running is cut.
    /// A game whose last moves cost nothing (a proving search plays them at once) may say
    /// less, so that the clock goes to the moves before.
    fn hard_share(&self) -> u64 {
        super::time::DEFAULT_HARD_SHARE
    }

    /// Engine options of this game beyond the session's own (Hash, Level, …) and the
    /// rules' ([`Game::option_specs`]): they tune the engine, not the game, so changing
    /// one keeps the position. The oracle reads them by name ([`super::Oracle::set_options`]).
    fn engine_options() -> &'static [OptionSpec] {
        &[]
    }

    /// The searcher for this position when nothing else decides (a fixed depth, a
    /// proof or a weakened level always use alpha-beta).
    fn method(&self) -> Method {
        Method::AlphaBeta
    }
}
