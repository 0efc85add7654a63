//! Exact knowledge of a game, beside the search: solvers and tables.
//!
//! An [`Oracle`] is a value the engine owns (one per engine object, shared with its
//! search threads): a game's exact solver for `go solve`, its tablebase probe inside
//! the search, its choice of the root move from a table, and the preparation of those
//! tables before `readyok`. A game without any uses [`NoOracle`]. Nothing here is a
//! global: two engines in one process (a test, an A/B match) have their own tables.
//!
//! Every game with exact knowledge declares the one engine option [`TABLEBASE`]; off
//! ([`Switch`]), its oracle knows nothing and the engine plays by its search alone (to
//! measure a search against the truth, or to play a fallible engine).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use crate::game::{Game, OptionKind, OptionSpec, Params, Value};

/// The engine options ([`super::Strategy::engine_options`]) of every game with exact
/// knowledge: `Tablebase`, on by default; off, no solver, table or probe is used (nor
/// built).
pub const TABLEBASE: &[OptionSpec] = &[OptionSpec {
    name: TABLEBASE_NAME,
    kind: OptionKind::Check { default: true },
}];

const TABLEBASE_NAME: &str = "Tablebase";

/// The [`TABLEBASE`] switch in a game's engine options, if they have one.
pub fn tablebase_on(options: &Params) -> Option<bool> {
    options.check(TABLEBASE_NAME).ok()
}

/// The state of the [`TABLEBASE`] option in an oracle: on until set off.
#[derive(Debug)]
pub struct Switch(AtomicBool);

impl Default for Switch {
    fn default() -> Self {
        Switch(AtomicBool::new(true))
    }
}

impl Switch {
    pub fn on(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// [`Oracle::set_options`] for an oracle whose only option is [`TABLEBASE`].
    pub fn set_options(&self, options: &Params) {
        if let Some(on) = tablebase_on(options) {
            self.0.store(on, Ordering::SeqCst);
        }
    }
}

/// What an exact solver found: the one result type of every solver and table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Solution<M> {
    pub value: Value,
    /// A move that keeps the value (none when the game is over).
    pub best: Option<M>,
    /// Best play from the position: `best` and what follows, as far as the solver
    /// gives it (often `best` alone, empty when the game is over).
    pub pv: Vec<M>,
    /// Positions visited to prove it.
    pub nodes: u64,
}

impl<M: Copy> Solution<M> {
    /// A solution whose line is its move alone.
    pub fn with_move(value: Value, best: Option<M>, nodes: u64) -> Self {
        Solution {
            value,
            best,
            pv: best.into_iter().collect(),
            nodes,
        }
    }
}

/// A root move chosen from a table (see [`Oracle::probe_root`]).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RootProbe<M> {
    pub best: M,
    /// The value of the position when `best` is played, repetition included.
    pub value: Value,
    /// `best` and the best play that follows.
    pub pv: Vec<M>,
    /// Positions probed.
    pub nodes: u64,
    /// A remark for an `info string` line (`tablebase draw`).
    pub note: Option<String>,
}

/// A game's exact knowledge. Every method has a "knows nothing" default.
///
/// Shared between the session and search threads, so it takes `&self`; an oracle
/// with state of its own (a table being built, a solver's cache) guards it inside.
pub trait Oracle<G: Game>: Send + Sync + 'static {
    /// The oracle of an engine playing under `config`. Cheap: heavy preparation waits
    /// for [`Oracle::prepare`].
    fn new(config: &G::Config) -> Self
    where
        Self: Sized;

    /// Takes the values of the engine options the game declares
    /// ([`super::Strategy::engine_options`]), each read by name and already checked
    /// against its kind and bounds.
    fn set_options(&self, _options: &Params) {}

    /// Starts the heavy preparation (building a table) in the background, if there is
    /// any and it is not under way or done. The engine calls it when the game is
    /// chosen, on `isready` and on `go`, never earlier (UGI: no heavy work before the
    /// first `isready`). Searches that were never prepared simply find no table.
    fn prepare(&self) {}

    /// Starts the preparation if need be and waits until it is done (or off, or
    /// failed), until `stop` is set, or until `deadline`. `isready` answers only then,
    /// and a search with fixed depth or node limits waits too, so that its result does
    /// not depend on how far a background build has got; a search on the clock waits
    /// only as long as its clock allows.
    fn wait(&self, _stop: &AtomicBool, _deadline: Option<Instant>) {}

    /// An exact solver for `go solve`, or `None` to let the generic search prove the
    /// value. It must return promptly with `None` once `stop` is set. The repetition
    /// rule is the solver's business: under that rule it returns `None` where it cannot
    /// honour it.
    fn solve(&self, _state: &G, _stop: &AtomicBool) -> Option<Solution<G::Move>> {
        None
    }

    /// On the clock: the exact value of `state` and a move that keeps it (the fastest
    /// win, the slowest loss), if the game's solver finds them by `deadline` (a part of
    /// the move's time); `None` otherwise, promptly once `stop` is raised or the
    /// deadline passes, and the search plays with the time left. What the solver
    /// learnt meanwhile may serve the next move. A game whose solver is never fast
    /// enough to play by leaves it `None`.
    fn solve_on_clock(
        &self,
        _state: &G,
        _stop: &AtomicBool,
        _deadline: Instant,
    ) -> Option<Solution<G::Move>> {
        None
    }

    /// The exact value of a position when a table (or a fast solver) knows it; the
    /// search trusts it in place of searching. Repetition is ignored.
    fn probe(&self, _state: &G) -> Option<Value> {
        None
    }

    /// The move to play from a table, with the repetition rule and the game's own
    /// preferences among equal values (fastest win, slowest loss, traps in a draw), or
    /// `None` to let the search pick. `history` holds the hashes of the game's
    /// positions, this one last.
    fn probe_root(&self, _state: &G, _history: &[u64]) -> Option<RootProbe<G::Move>> {
        None
    }

    /// On the clock at full strength: the move of the game's opening table (a long
    /// search's choice made beforehand, no proof), or `None` to search.
    fn opening_move(&self, _state: &G) -> Option<G::Move> {
        None
    }
}

/// The oracle of a game with no exact knowledge beyond its rules.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoOracle;

impl<G: Game> Oracle<G> for NoOracle {
    fn new(_config: &G::Config) -> Self {
        NoOracle
    }
}
