//! The search of one `go`: which searcher, or which table, answers a position.
//!
//! In order: a proof (`go solve`) asks the game's exact solver first; at full strength
//! a table that knows the root answers it (the oracle's own root choice, else a probe of
//! every move); on the clock, a solver that proves the root within half the move's
//! time plays its move (the fastest win, the slowest loss); a position the game prefers
//! to play by Monte-Carlo tree search, with no depth, proof or level asking for
//! alpha-beta's terms, goes to MCTS; everything else to alpha-beta. The policy also
//! owns the watchdog of the hard time limit, so every searcher stops on the same flag,
//! and the helper threads ([`super::threads`]) that search beside the main one when
//! `Threads` is above 1.

use std::borrow::Cow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::alphabeta::{AlphaBeta, Team};
use super::eval::Evaluator;
use super::mcts::Mcts;
use super::oracle::{Oracle, Solution};
use super::strategy::{Method, Strategy};
use super::threads::{Helpers, TeamFlags};
use super::time::Watchdog;
use super::tt::TableError;
use super::{Info, MATE, MAX_PLY, Score, SearchLimits, SearchResult, value_to_score};
use crate::game::Outcome;

/// How long a search on the clock waits for the MCTS helpers' trees after it ends (a
/// helper stops within an iteration, unless the machine gives it no CPU).
const HELPER_PATIENCE: Duration = Duration::from_millis(2);

/// The searchers of one game and the oracle they trust. It keeps the transposition
/// table between searches.
pub struct Policy<G: Strategy, E: Evaluator<G> = <G as Strategy>::Eval> {
    alphabeta: AlphaBeta<G, E, G::Oracle>,
    mcts: Mcts<G, E>,
    oracle: Arc<G::Oracle>,
    hash_mib: usize,
    /// The evaluation new helpers clone.
    eval: E,
    helpers: Helpers<G>,
}

impl<G: Strategy> Policy<G> {
    /// The game's own evaluation and a fresh oracle for `config` (never prepared: no
    /// table is built unless [`Oracle::prepare`] is called).
    pub fn standard(hash_mib: usize, config: &G::Config) -> Self {
        Policy::new(
            hash_mib,
            G::Eval::default(),
            Arc::new(G::Oracle::new(config)),
        )
    }
}

impl<G: Strategy, E: Evaluator<G>> Policy<G, E> {
    /// Searchers judging by `eval` and trusting `oracle`, with a transposition table of
    /// `hash_mib` MiB (allocated on the first search or by [`Policy::prepare`]).
    pub fn new(hash_mib: usize, eval: E, oracle: Arc<G::Oracle>) -> Self {
        Policy {
            alphabeta: AlphaBeta::new(hash_mib, eval.clone(), Arc::clone(&oracle)),
            mcts: Mcts::new(super::mcts::DEFAULT_SEED, eval.clone()),
            oracle,
            hash_mib,
            eval,
            helpers: Helpers::none(),
        }
    }

    /// Searches on `threads` threads from now on (the calling one and `threads − 1`
    /// helpers, started here); the number actually running.
    pub fn set_threads(&mut self, threads: usize) -> usize {
        let wanted = threads.clamp(1, super::threads::MAX_THREADS) - 1;
        if wanted != self.helpers.len() {
            // The old helpers end when their channels drop.
            self.helpers = Helpers::none();
            self.helpers = Helpers::new(wanted, &self.eval, &self.oracle);
        }
        self.helpers.len() + 1
    }

    /// The threads a search uses.
    pub fn threads(&self) -> usize {
        self.helpers.len() + 1
    }

    pub fn oracle(&self) -> &Arc<G::Oracle> {
        &self.oracle
    }

    /// Changes the table size, allocating it now (its contents are lost); on an error
    /// (no memory) nothing changes.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), TableError> {
        self.alphabeta.set_hash(mib)?;
        self.hash_mib = mib;
        Ok(())
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.helpers.settle();
        self.alphabeta.clear();
    }

    /// Makes the random choices of levels below full strength repeatable.
    pub fn seed_level(&mut self, seed: u64) {
        self.alphabeta.seed_level(seed);
    }

    /// Allocates the transposition table now rather than on the first search.
    pub fn prepare(&mut self) {
        self.alphabeta.prepare();
    }

    /// Searches `root` whose game so far had the position hashes `history` (the root's
    /// own hash last), reporting progress to `report`.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: SearchLimits,
        stop: Arc<AtomicBool>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let started = limits.started.unwrap_or_else(Instant::now);
        let limits = SearchLimits {
            started: Some(started),
            ..limits
        };
        let time_up = Arc::new(AtomicBool::new(false));
        let _watchdog = limits
            .budget
            .hard
            .and_then(|hard| Watchdog::start(started + hard, Arc::clone(&time_up)));

        if root.outcome().is_none() {
            if limits.solve
                && let Some(result) = self.solve(root, &stop, started, report)
            {
                return result;
            }
            if limits.level.is_full()
                && let Some(result) = self.probe_root(root, history, started, report)
            {
                return result;
            }
            // On the clock, a solver that proves the position in half the move's
            // time plays it perfectly; the search has the rest when it does not.
            if limits.level.is_full()
                && !limits.solve
                && limits.nodes.is_none()
                && limits.depth.is_none()
                && let Some(spend) = limits.budget.spend()
                && let Some(result) =
                    self.solve_on_clock(root, &stop, started, started + spend / 2, report)
            {
                return result;
            }
            if limits.level.is_full()
                && !limits.solve
                && limits.nodes.is_none()
                && limits.depth.is_none()
                && limits.budget.spend().is_some()
                && let Some(best) = self.oracle.opening_move(root)
            {
                let mut result = SearchResult::fallback(Some(best));
                result.pv = vec![best];
                result.depth = 1;
                result.note = Some("opening table".to_string());
                report(&self.info(&result, started));
                return result;
            }
            let mcts = root.method() == Method::Mcts
                && !limits.solve
                && limits.depth.is_none()
                && limits.level.is_full();
            if mcts {
                return self.search_mcts(root, limits, &stop, time_up, report);
            }
        }
        // A proof clears the table: no helper of the last search may still write to it
        // then. Otherwise a helper still finishing the last search (its stop flag is
        // up) only adds entries, and the move's clock does not wait for it.
        if limits.solve {
            self.helpers.settle();
        }
        // Below full strength the one thread's random choice is the level.
        if self.helpers.is_empty() || !limits.level.is_full() {
            return self
                .alphabeta
                .search(root, history, limits, stop, time_up, report);
        }
        let flags = TeamFlags::new(time_up);
        let team = Arc::new(Team::new());
        let table = self.alphabeta.begin_search(&limits);
        self.helpers
            .start_alphabeta(&table, root, history, limits, &flags, &team);
        let mut result = self.alphabeta.search_as_main(
            root,
            history,
            limits,
            stop,
            Arc::clone(&flags.time_up),
            Some(Arc::clone(&team)),
            report,
        );
        // The main thread's result stands alone: the helpers are not waited for.
        flags.stop.store(true, Ordering::Relaxed);
        self.helpers.collect(Some(Duration::ZERO));
        result.nodes = self.alphabeta.nodes() + team.nodes.load(Ordering::Relaxed);
        result
    }

    /// Monte-Carlo tree search of `root`, on one tree per thread.
    fn search_mcts(
        &mut self,
        root: &G,
        limits: SearchLimits,
        stop: &AtomicBool,
        time_up: Arc<AtomicBool>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        // The trees share the memory the `Hash` option gives.
        let threads = self.threads();
        let memory = (self.hash_mib / threads).max(1);
        self.mcts.set_memory(memory);
        // Seeded by the position: the same `go nodes N` gives the same move.
        self.mcts.seed(root.hash());
        let flags = TeamFlags::new(time_up);
        let team = Arc::new(Team::new());
        self.helpers
            .start_mcts(root, root.hash(), memory, &flags, &team);
        self.mcts
            .search_as_main(root, limits, stop, &flags.time_up, &team.nodes, report);
        flags.stop.store(true, Ordering::Relaxed);
        // On the clock, the trees of helpers that answer within a moment; without
        // one, all of them.
        let patience = limits.budget.hard.map(|_| HELPER_PATIENCE);
        let trees = self.helpers.collect(patience);
        self.mcts
            .conclude(root, limits, &team.nodes, &trees, report)
    }

    /// The game's exact solver, when it has one for this position.
    fn solve(
        &mut self,
        root: &G,
        stop: &AtomicBool,
        started: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        let solution = self.oracle.solve(root, stop)?;
        Some(self.solved(solution, started, report))
    }

    /// The game's exact solver on the clock, when it finds the value by `deadline`.
    fn solve_on_clock(
        &mut self,
        root: &G,
        stop: &AtomicBool,
        started: Instant,
        deadline: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        let solution = self.oracle.solve_on_clock(root, stop, deadline);
        log::debug!(
            "solver on the clock: {} after {:?}",
            if solution.is_some() {
                "solved"
            } else {
                "gave up"
            },
            started.elapsed()
        );
        let solution = solution?;
        // A solution without a move (a finished game is never searched) is no answer.
        solution.best?;
        Some(self.solved(solution, started, report))
    }

    /// The result of a solver's `solution`, reported.
    fn solved(
        &mut self,
        solution: Solution<G::Move>,
        started: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let mut result = SearchResult::fallback(solution.best);
        result.proven = Some(solution.value);
        result.nodes = solution.nodes;
        result.score = Score::from_internal(value_to_score(solution.value, 0));
        result.pv = result.best.into_iter().collect();
        result.depth = solution.value.plies();
        report(&self.info(&result, started));
        result
    }

    /// The root decided by a table: the oracle's own choice (with the repetition rule
    /// and its preferences), else the best of every move's probed value.
    fn probe_root(
        &mut self,
        root: &G,
        history: &[u64],
        started: Instant,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> Option<SearchResult<G::Move>> {
        // The session's history ends with the root already; only a caller's that does
        // not is copied to add it.
        let path: Cow<'_, [u64]> = if history.last() == Some(&root.hash()) {
            Cow::Borrowed(history)
        } else {
            Cow::Owned(history.iter().copied().chain([root.hash()]).collect())
        };
        let result = match self.oracle.probe_root(root, &path) {
            Some(choice) => SearchResult {
                best: Some(choice.best),
                score: Score::from_internal(value_to_score(choice.value, 0)),
                pv: choice.pv,
                proven: Some(choice.value),
                nodes: choice.nodes,
                depth: 1,
                note: choice.note,
            },
            None => self.probe_every_move(root, &path)?,
        };
        report(&self.info(&result, started));
        Some(result)
    }

    fn probe_every_move(&self, root: &G, path: &[u64]) -> Option<SearchResult<G::Move>> {
        let value = self.oracle.probe(root)?;
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        let mut nodes = 0;
        let mut best: Option<(i32, G::Move)> = None;
        for mv in moves {
            let mut child = root.clone();
            child.play(mv);
            nodes += 1;
            let score = match child.outcome() {
                Some(Outcome::Draw) => 0,
                Some(Outcome::Win(p)) if p == root.side_to_move() => MATE - 1,
                Some(Outcome::Win(_)) => -(MATE - 1),
                None => {
                    let inner = value_to_score(self.oracle.probe(&child)?, 1);
                    if child.side_to_move() == root.side_to_move() {
                        inner
                    } else {
                        -inner
                    }
                }
            };
            // Repeating a position is never better than the draw it may become.
            let repeats = root.repetition_rule() && path.contains(&child.hash());
            let score = if repeats { score.min(0) } else { score };
            if best.is_none_or(|(s, _)| score > s) {
                best = Some((score, mv));
            }
        }
        let (score, mv) = best?;
        Some(SearchResult {
            best: Some(mv),
            score: Score::from_internal(score),
            pv: vec![mv],
            proven: Some(value),
            nodes,
            depth: 1,
            note: None,
        })
    }

    fn info(&self, result: &SearchResult<G::Move>, started: Instant) -> Info<G::Move> {
        Info {
            depth: result.depth,
            seldepth: result.depth.clamp(1, MAX_PLY as u32),
            score: result.score,
            nodes: result.nodes,
            time: started.elapsed(),
            hashfull: self.alphabeta.hashfull(),
            pv: result.pv.clone(),
        }
    }
}
