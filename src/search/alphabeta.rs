//! Iterative-deepening principal-variation search, generic over the game.
//!
//! Turns do not always alternate in every game, so a child's score is negated only
//! when the side to move changed. Positions repeated on the path (including the
//! game's history) score as draws in games with a repetition rule. A count of
//! heuristic leaves tells which values are proven: a subtree that met none is an
//! exact game value, stored in the table as such and trusted at any depth.
//!
//! The searcher judges leaves and orders moves with an [`Evaluator`] it owns, and
//! trusts an [`Oracle`]'s exact values inside the tree. Which searcher plays a root,
//! and the root answers of solvers and tables, are [`super::policy`]'s business.

use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use super::eval::{Evaluator, Selectivity};
use super::level::LevelState;
use super::oracle::Oracle;
use super::time;
use super::tt::{Bound, PROVEN, TableError, Tt};
use super::{INFINITY, Info, MATE, MATE_BOUND, MAX_PLY, Score, SearchLimits, SearchResult};
use crate::game::{Game, MoveCode, Outcome, Value};

/// The root's upper bound below full strength, above every score plus bonus.
const LEVEL_BETA: i32 = 1 << 28;
/// Killer moves kept per ply.
const KILLERS: usize = 2;
/// How often (in nodes) the searcher reads the clock itself, behind the watchdog
/// (which may not be running, or may be starved on a busy machine).
const CLOCK_INTERVAL: u64 = 256;
/// Moves picked one at a time at a node before the rest are sorted.
const LAZY_PICKS: usize = 3;
/// Whether a leaf facing a threat searches its replies (measured: it costs more than it
/// finds at 1 s a game move).
const EXTEND_THREATS: bool = false;
/// Whether the root has a forcing pass ([`Evaluator::forced_win`]): before the first
/// iteration, a forced win of the side to move is found (and played unless the search
/// finds a faster one); a root move about to become the best is first checked for a
/// forced win of the opponent, and a move so refuted scores as that loss from then on.
/// Off: in games at 1 s + 10 ms it has not won (docs/experiments/fabrik.md).
const ROOT_FORCING: bool = false;
/// Nodes of one forcing search at the root (the clock may stop it sooner).
const ROOT_FORCING_NODES: u64 = 500;
/// The share of the move's time (the soft budget, else the hard limit) the root's
/// forcing searches may take in all, and the share of it the search for a win of the
/// side to move may take.
const ROOT_FORCING_SHARE: f64 = 0.1;
const ROOT_WIN_SHARE: f64 = 0.5;
/// Whether the root pass checks root moves for the opponent's forced win (else it only
/// looks for a forced win of the side to move).
const ROOT_REFUTE: bool = true;

/// Slots of the history table of quiet moves' cut-offs (a power of two), indexed by a
/// hash of the move code.
const HISTORY_SLOTS: usize = 1 << 14;
/// The bound of a history value (the gravity formula keeps it inside).
const HISTORY_MAX: i32 = 1 << 14;
/// A cut-off's history bonus at remaining depth 1 (it grows with the depth's square).
const HISTORY_STEP: i32 = 64;
/// An ordering key from which a move is no longer quiet for pruning (Fabrik's hint of
/// a stone that cuts a line one short of a win).
const PRUNE_KEY: i32 = 100_000;

/// Slots of a team's table of positions being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;
/// The least remaining depth at which threads defer each other's busy moves: below
/// it a subtree costs less than the detour.
const BUSY_DEPTH: i32 = 2;

/// What the threads of one search share besides the table: their nodes, and the
/// deepest iteration any of them completed, which the others then leave off searching
/// (the main thread adopts its result).
pub struct Team<M> {
    /// The helpers' nodes, added in batches.
    pub nodes: AtomicU64,
    /// The depth of `completed`, read at every node; 0 before any.
    depth: AtomicU32,
    completed: Mutex<Option<Iteration<M>>>,
    /// The best root move a helper found in an iteration it has not completed: one
    /// that beat its first move there (its `proven` is unused).
    partial: Mutex<Option<Iteration<M>>>,
    /// Positions some thread is searching now (simplified ABDADA): a thread defers a
    /// move whose position is here to the end of its node, by when the other thread's
    /// result is usually in the table. Empty for a search alone.
    busy: Box<[AtomicU64]>,
}

/// A completed iteration at the root.
#[derive(Clone, Debug)]
struct Iteration<M> {
    depth: u32,
    score: i32,
    pv: Vec<M>,
    proven: bool,
}

impl<M: Clone> Team<M> {
    pub fn new() -> Self {
        Team {
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            ..Self::alone()
        }
    }

    /// A team of one: no table of busy positions.
    fn alone() -> Self {
        Team {
            nodes: AtomicU64::new(0),
            depth: AtomicU32::new(0),
            completed: Mutex::new(None),
            partial: Mutex::new(None),
            busy: Box::new([]),
        }
    }

    fn busy_slot(&self, hash: u64) -> &AtomicU64 {
        &self.busy[(hash as usize) & (BUSY_SLOTS - 1)]
    }

    fn is_busy(&self, hash: u64) -> bool {
        self.busy_slot(hash).load(Ordering::Relaxed) == hash
    }

    fn mark_busy(&self, hash: u64) {
        self.busy_slot(hash).store(hash, Ordering::Relaxed);
    }

    fn unmark_busy(&self, hash: u64) {
        let _ =
            self.busy_slot(hash)
                .compare_exchange(hash, 0, Ordering::Relaxed, Ordering::Relaxed);
    }

    /// Records `iteration` unless one as deep is recorded already.
    fn publish(&self, iteration: Iteration<M>) {
        let mut completed = self
            .completed
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        if completed
            .as_ref()
            .is_none_or(|done| done.depth < iteration.depth)
        {
            self.depth.store(iteration.depth, Ordering::Relaxed);
            *completed = Some(iteration);
        }
    }

    /// Records a helper's root move that beat its first one in an iteration not yet
    /// complete, if it is deeper than the one recorded or as deep and better.
    fn publish_partial(&self, found: Iteration<M>) {
        let mut partial = self.partial.lock().unwrap_or_else(PoisonError::into_inner);
        if partial
            .as_ref()
            .is_none_or(|known| (known.depth, known.score) < (found.depth, found.score))
        {
            *partial = Some(found);
        }
    }

    fn best_partial(&self) -> Option<Iteration<M>> {
        self.partial
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    fn deepest(&self) -> Option<Iteration<M>> {
        self.completed
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }
}

impl<M: Clone> Default for Team<M> {
    fn default() -> Self {
        Self::alone()
    }
}

/// Which part a searcher plays in a search with several threads.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Role {
    /// Decides the move, keeps the time, reports.
    Main,
    /// Searches the same root to fill the shared table and split the work; its
    /// number picks the point from which it takes the root's moves. It stops only
    /// when told.
    Helper(usize),
}

/// An alpha-beta searcher for one game. It keeps its transposition table between
/// searches; the table may be shared with other searchers (threads of one search).
pub struct AlphaBeta<G: Game, E: Evaluator<G>, O: Oracle<G>> {
    eval: E,
    oracle: Arc<O>,
    tt: Arc<Tt>,
    hash_mib: usize,
    /// Whether `tt` has been allocated at `hash_mib` yet.
    table_ready: bool,
    // Per search:
    role: Role,
    /// The threads of this search: helpers add their nodes in batches, the main thread
    /// counts them in its limits and reports; each publishes its completed iterations.
    team: Arc<Team<G::Move>>,
    /// Alone: no team to read or publish to.
    solo: bool,
    /// The depth of the iteration under way.
    iteration_depth: u32,
    /// The iteration was abandoned because another thread completed its depth.
    overtaken: bool,
    /// The score of the best root move of the iteration under way (−∞ before one).
    root_score: i32,
    /// The best move of this thread's last completed iteration: searched first at the
    /// root whatever the table holds (its entry for the root may have been replaced),
    /// so that the best move of an iteration the clock cuts is that move or beat it.
    root_first: Option<G::Move>,
    /// A helper's nodes already added to `team_nodes`; the main thread's last reading
    /// of it.
    team_mark: u64,
    stop: Arc<AtomicBool>,
    /// Raised by the watchdog at the hard time limit.
    time_up: Arc<AtomicBool>,
    stopped: bool,
    /// Late-move reductions on (off when proving: `go solve`).
    reductions: bool,
    started: Instant,
    hard: Option<Duration>,
    node_limit: u64,
    nodes: u64,
    seldepth: usize,
    /// Leaves scored by the evaluation (or by a path's repetition): a subtree that
    /// adds none is proven.
    heuristic_leaves: u64,
    path: Vec<u64>,
    move_buffers: Vec<Vec<G::Move>>,
    order_buffers: Vec<Vec<(i32, G::Move)>>,
    /// Per ply, the indices of moves left for a second pass (busy elsewhere).
    deferred_buffers: Vec<Vec<usize>>,
    killers: Vec<[Option<G::Move>; KILLERS]>,
    pv_table: Vec<Vec<G::Move>>,
    /// `Level` below full strength: root scores and the random choice (level.rs).
    level: LevelState<G::Move>,
    /// Whether the oracle's `probe` is used (not below full strength).
    probing: bool,
    /// The root's forcing pass: on for this search, and the move's time it is a share of.
    forcing: bool,
    forcing_until: Option<Duration>,
    /// Root moves checked for a forced win of the opponent, and those it refuted with
    /// their (proven) root score.
    checked: Vec<G::Move>,
    refuted: Vec<(G::Move, i32)>,
    /// This search's selectivity (the evaluator's, or none when proving). A weakened
    /// level searches the same tree as the full search, its root bonuses aside.
    select: Selectivity,
    /// Quiet moves' cut-offs, by [`history_slot`] (kept between searches, halved).
    history: Vec<i32>,
}

impl<G: Game, E: Evaluator<G>, O: Oracle<G>> AlphaBeta<G, E, O> {
    /// A searcher judging by `eval`, trusting `oracle`, with a transposition table of
    /// `hash_mib` MiB allocated on the first search or by [`AlphaBeta::prepare`] (so
    /// that creating one is cheap).
    pub fn new(hash_mib: usize, eval: E, oracle: Arc<O>) -> Self {
        AlphaBeta {
            eval,
            oracle,
            tt: Arc::new(Tt::new(0)),
            hash_mib,
            table_ready: false,
            role: Role::Main,
            team: Arc::new(Team::new()),
            solo: true,
            iteration_depth: 0,
            overtaken: false,
            root_score: -INFINITY,
            root_first: None,
            team_mark: 0,
            stop: Arc::new(AtomicBool::new(false)),
            time_up: Arc::new(AtomicBool::new(false)),
            stopped: false,
            reductions: true,
            started: Instant::now(),
            hard: None,
            node_limit: u64::MAX,
            nodes: 0,
            seldepth: 0,
            heuristic_leaves: 0,
            path: Vec::new(),
            move_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            order_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            deferred_buffers: (0..=MAX_PLY).map(|_| Vec::new()).collect(),
            killers: vec![[None; KILLERS]; MAX_PLY + 1],
            pv_table: (0..=MAX_PLY + 1).map(|_| Vec::new()).collect(),
            level: LevelState::new(),
            probing: true,
            forcing: false,
            forcing_until: None,
            checked: Vec::new(),
            refuted: Vec::new(),
            select: Selectivity::NONE,
            history: Vec::new(),
        }
    }

    /// Changes the table size, allocating the new table now (the contents are lost).
    /// When the system refuses the memory the error says so and the previous table
    /// stays, contents and all.
    pub fn set_hash(&mut self, mib: usize) -> Result<(), TableError> {
        let tt = Tt::try_new(mib)?;
        self.hash_mib = mib;
        self.tt = Arc::new(tt);
        self.table_ready = true;
        Ok(())
    }

    /// Forgets what earlier searches learnt (a new game).
    pub fn clear(&mut self) {
        self.tt.clear();
        self.killers.iter_mut().for_each(|k| *k = [None; KILLERS]);
        self.history.iter_mut().for_each(|h| *h = 0);
    }

    /// Makes the random choices of levels below full strength repeatable.
    pub fn seed_level(&mut self, seed: u64) {
        self.level.seed(seed);
    }

    /// Allocates the transposition table now rather than on the first search: the
    /// session does it before `readyok`, so that no clocked search pays for it.
    pub fn prepare(&mut self) {
        self.ensure_table();
    }

    /// Allocates the table at `hash_mib` if it is not yet. Should the system refuse the
    /// memory (a new game's table while the last one's is still held), a table of half
    /// the size is tried, and so on: a smaller table, never an abort.
    fn ensure_table(&mut self) {
        if self.table_ready {
            return;
        }
        let mut mib = self.hash_mib.max(1);
        loop {
            match Tt::try_new(mib) {
                Ok(tt) => {
                    self.tt = Arc::new(tt);
                    break;
                }
                Err(error) if mib > 1 => {
                    log::warn!("{error}; trying {} MiB", mib / 2);
                    mib /= 2;
                }
                Err(error) => {
                    // The placeholder table stays (it is allocated already).
                    log::warn!("{error}; keeping the smallest table");
                    break;
                }
            }
        }
        self.hash_mib = mib;
        self.table_ready = true;
    }

    /// The transposition table (allocated if it was not), to share with helpers.
    pub fn table(&mut self) -> Arc<Tt> {
        self.ensure_table();
        Arc::clone(&self.tt)
    }

    /// Readies the table for a new search under `limits`: a new age, or an empty
    /// table for a proof. Done before helpers start on it.
    fn begin_table(&mut self, limits: &SearchLimits) {
        self.ensure_table();
        self.tt.new_search();
        if limits.solve {
            // Entries of earlier searches were made with reductions: their depths
            // overstate what they saw, so a proof starts from a clean table.
            self.tt.clear();
        }
    }

    /// The share of the transposition table in use, per mille.
    pub fn hashfull(&self) -> u32 {
        self.tt.hashfull()
    }

    /// The move the ordering likes best: what to play if time runs out before any
    /// move is searched.
    fn fallback(&mut self, root: &G, moves: &[G::Move]) -> Option<G::Move> {
        let eval = &mut self.eval;
        moves
            .iter()
            .copied()
            .enumerate()
            .max_by_key(|&(index, mv)| (eval.order_hint(root, mv), std::cmp::Reverse(index)))
            .map(|(_, mv)| mv)
    }

    /// Searches `root` whose game so far had the position hashes `history` (the root's
    /// own hash last), reporting each completed iteration to `report`. It ends at once
    /// when `stop` or `time_up` (raised by the caller's watchdog at the hard limit) is.
    pub fn search(
        &mut self,
        root: &G,
        history: &[u64],
        limits: SearchLimits,
        stop: Arc<AtomicBool>,
        time_up: Arc<AtomicBool>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        self.begin_table(&limits);
        self.search_as_main(root, history, limits, stop, time_up, None, report)
    }

    /// Readies the table for a search under `limits` (see [`AlphaBeta::search_as_main`])
    /// and returns it, for the helpers to share.
    pub fn begin_search(&mut self, limits: &SearchLimits) -> Arc<Tt> {
        self.begin_table(limits);
        Arc::clone(&self.tt)
    }

    /// [`AlphaBeta::search`] as the main thread of a `team` whose helpers search the
    /// same root on the same table (readied by [`AlphaBeta::begin_search`]): their
    /// nodes count in the node limit and in the reports, and an iteration one of them
    /// completes first is taken as if this thread had (`None`: alone).
    #[allow(clippy::too_many_arguments)]
    pub fn search_as_main(
        &mut self,
        root: &G,
        history: &[u64],
        limits: SearchLimits,
        stop: Arc<AtomicBool>,
        time_up: Arc<AtomicBool>,
        team: Option<Arc<Team<G::Move>>>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let root_moves = self.setup(root, history, &limits, stop, time_up, Role::Main, team);
        if root_moves.is_empty() {
            return SearchResult::fallback(None);
        }
        let fallback = self.fallback(root, &root_moves);
        let mut result = SearchResult::fallback(fallback);

        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32)
            .min(limits.level.depth_cap().unwrap_or(MAX_PLY as u32))
            .clamp(1, MAX_PLY as u32);
        let single_reply = root_moves.len() == 1 && limits.depth.is_none() && !limits.solve;
        // A forced win by threats, played unless the search finds a faster one.
        let mut forced_win = None;
        if self.forcing && !single_reply {
            let mut stop = self.forcing_stop(ROOT_WIN_SHARE);
            forced_win = self.eval.forced_win(root, ROOT_FORCING_NODES, &mut stop);
            self.nodes += self.eval.forced_nodes();
        }
        let mut depth = 1;
        while depth <= max_depth {
            let iteration_started = Instant::now();
            let leaves_before = self.heuristic_leaves;
            self.iteration_depth = depth;
            self.root_score = -INFINITY;
            let score = self.negamax(root, depth as i32, 0, -INFINITY, INFINITY);
            let weakened = self.level.is_weakened();
            let (mut completed, exact) = if self.stopped {
                // Another thread completed this depth first: take its iteration.
                match self.overtaken.then(|| self.team.deepest()).flatten() {
                    Some(iteration) => {
                        self.stopped = false;
                        self.overtaken = false;
                        (iteration, false)
                    }
                    None => {
                        // A partial iteration searches the last best move first
                        // (`root_first`), and takes another only on a full score: its
                        // PV's first move is the best found so far.
                        let mut partial = None;
                        if !self.pv_table[0].is_empty() {
                            partial = Some((self.root_score, self.pv_table[0].clone()));
                        }
                        // A helper may have found a better move in the part of the
                        // root it searched, as deep or deeper.
                        if let Some(found) = self.helper_partial(result.depth) {
                            partial = Some((found.score, found.pv));
                        }
                        if let Some((score, pv)) = partial
                            && self.refuted_score(0, pv[0]).is_none()
                        {
                            self.adopt_partial(&mut result, score, pv, report);
                        }
                        break;
                    }
                }
            } else {
                // Below full strength the root score carries the chosen move's bonus.
                let pv = self.pv_table[0].clone();
                let best = pv.first().copied().or(result.best);
                let score = score - best.map_or(0, |mv| self.level.bonus(mv));
                // Only a tree without heuristic leaves proves the value. A mate score
                // alone proves a win, but not its distance: a faster mate may hide below
                // a reduced move or behind a table entry from an earlier search.
                let exact = self.heuristic_leaves == leaves_before;
                // Below full strength the move played need not be the best: its score
                // proves nothing of the position, but no deeper search changes it.
                let proven = self.proves(&limits, exact, score, depth) && !weakened;
                let iteration = Iteration {
                    depth,
                    score,
                    pv,
                    proven,
                };
                if !self.solo {
                    self.team.publish(iteration.clone());
                }
                (iteration, exact)
            };
            // A helper may have completed a deeper iteration meanwhile.
            if let Some(deeper) = self.team_deeper_than(completed.depth) {
                completed = deeper;
            }
            self.adopt(&mut result, completed, report);
            self.root_first = result.best;
            if result.proven.is_some() || single_reply || (weakened && exact) {
                break;
            }
            // With a forced win in hand, the search goes on only for a faster one.
            if forced_win.is_some_and(|(plies, _)| result.depth + 1 >= plies) {
                break;
            }
            depth = result.depth + 1;
            // Time: a new iteration starts while less than half the soft budget has
            // passed (`time::next_iteration`), the hard limit cutting it if need be.
            // Without a soft budget (a fixed time per move) the hard limit is the time to
            // use: the iterations go on until it stops one, whose best move is played if
            // it beat the last.
            let this_iteration = iteration_started.elapsed();
            let elapsed = self.started.elapsed();
            if let Some(why) = time::next_iteration(&limits.budget, elapsed) {
                log::debug!(
                    "no iteration {depth}: {why:?} at {elapsed:?} (last {this_iteration:?}; \
                     soft {:?}, hard {:?})",
                    limits.budget.soft,
                    limits.budget.hard
                );
                break;
            }
        }
        // A helper may have completed an iteration deeper than this thread's last.
        if let Some(deeper) = self.team_deeper_than(result.depth) {
            self.adopt(&mut result, deeper, report);
        }
        if let Some((plies, mv)) = forced_win {
            let score = MATE - plies as i32;
            let faster = matches!(result.score, Score::Mate(n) if n > 0 && n <= plies as i32);
            if !faster {
                let iteration = Iteration {
                    depth: result.depth.max(1),
                    score,
                    pv: vec![mv],
                    proven: false,
                };
                self.adopt(&mut result, iteration, report);
            }
        }
        result.nodes = self.team_total();
        result
    }

    /// A helper's root move from an iteration no thread completed, if it is deeper
    /// than the last completed one (`completed_depth`) and beats this thread's own
    /// best move of its unfinished iteration (by depth, then score).
    fn helper_partial(&self, completed_depth: u32) -> Option<Iteration<G::Move>> {
        if self.solo {
            return None;
        }
        let found = self.team.best_partial()?;
        let own = if self.pv_table[0].is_empty() {
            (completed_depth, INFINITY)
        } else {
            (self.iteration_depth, self.root_score)
        };
        (found.depth > completed_depth && (found.depth, found.score) > own && !found.pv.is_empty())
            .then_some(found)
    }

    /// The team's deepest completed iteration if it is deeper than `depth` (the depth
    /// is read first: the iteration is copied only when it is taken).
    fn team_deeper_than(&self, depth: u32) -> Option<Iteration<G::Move>> {
        if self.solo || self.team.depth.load(Ordering::Relaxed) <= depth {
            return None;
        }
        self.team.deepest().filter(|deeper| deeper.depth > depth)
    }

    /// Makes a completed iteration (this thread's or a helper's) the result, and
    /// reports it.
    fn adopt(
        &self,
        result: &mut SearchResult<G::Move>,
        iteration: Iteration<G::Move>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) {
        result.best = iteration.pv.first().copied().or(result.best);
        result.score = Score::from_internal(iteration.score);
        result.depth = iteration.depth;
        if iteration.proven {
            result.proven = Some(self.value_of(iteration.score, &iteration.pv));
        }
        result.pv = iteration.pv;
        report(&self.info(result.depth, result.score, &result.pv));
    }

    /// Takes the best move of an iteration the limits cut short (`pv`, scoring `score`
    /// at the iteration's depth) when it is not the move already chosen, and reports
    /// it, so that the last `info` line's PV starts with the move played. The depth
    /// and any proof stay the last completed iteration's.
    fn adopt_partial(
        &self,
        result: &mut SearchResult<G::Move>,
        score: i32,
        pv: Vec<G::Move>,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) {
        let Some(&first) = pv.first() else {
            return;
        };
        if result.pv.first() == Some(&first) {
            return;
        }
        result.best = Some(first);
        // Below full strength a root score carries a bonus and is no score of the
        // position: the last completed one stands.
        if !self.level.is_weakened() {
            result.score = Score::from_internal(score);
        }
        result.pv = pv;
        report(&self.info(self.iteration_depth, result.score, &result.pv));
    }

    /// Searches `root` as helper number `index` (0 for the first) of a team: on the
    /// main thread's `table`, iterating over the depths its number leaves it, without
    /// reports or clock, until `stop` or `time_up` is raised, the depth limit is reached
    /// or the root is proven. Its nodes go to `team_nodes`.
    #[allow(clippy::too_many_arguments)]
    pub fn search_as_helper(
        &mut self,
        index: usize,
        table: Arc<Tt>,
        root: &G,
        history: &[u64],
        limits: SearchLimits,
        stop: Arc<AtomicBool>,
        time_up: Arc<AtomicBool>,
        team: Arc<Team<G::Move>>,
    ) {
        self.tt = table;
        self.table_ready = true;
        let limits = SearchLimits {
            nodes: None,
            budget: Default::default(),
            ..limits
        };
        let role = Role::Helper(index);
        if self
            .setup(root, history, &limits, stop, time_up, role, Some(team))
            .is_empty()
        {
            return;
        }
        let max_depth = limits
            .depth
            .unwrap_or(MAX_PLY as u32)
            .clamp(1, MAX_PLY as u32);
        let mut depth = 0;
        loop {
            // The next depth no thread has completed.
            depth = (depth + 1).max(self.team.depth.load(Ordering::Relaxed) + 1);
            if depth > max_depth {
                break;
            }
            let leaves_before = self.heuristic_leaves;
            self.iteration_depth = depth;
            self.root_score = -INFINITY;
            let score = self.negamax(root, depth as i32, 0, -INFINITY, INFINITY);
            if self.stopped {
                if std::mem::take(&mut self.overtaken) && !self.must_stop() {
                    self.stopped = false;
                    continue;
                }
                break;
            }
            let exact = self.heuristic_leaves == leaves_before;
            let proven = self.proves(&limits, exact, score, depth);
            self.root_first = self.pv_table[0].first().copied();
            self.team.publish(Iteration {
                depth,
                score,
                pv: self.pv_table[0].clone(),
                proven,
            });
            if proven {
                break;
            }
        }
        self.flush_nodes();
        // The table is the main thread's: not kept alive past its search.
        self.tt = Arc::new(Tt::new(0));
    }

    /// The nodes this searcher visited in its last search (its own, without a team's).
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether an iteration to `depth` that scored `score` proves the root's value:
    /// `exact` (no heuristic leaf below it), or, when proving (nothing is reduced: a
    /// full-width search to depth d finds every mate within d plies), a mate no deeper
    /// than the depth, which is then the fastest.
    fn proves(&self, limits: &SearchLimits, exact: bool, score: i32, depth: u32) -> bool {
        exact || (limits.solve && score.abs() > MATE_BOUND && MATE - score.abs() <= depth as i32)
    }

    /// The per-search state: flags, limits, counters, the path, the root's moves.
    #[allow(clippy::too_many_arguments)]
    fn setup(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &SearchLimits,
        stop: Arc<AtomicBool>,
        time_up: Arc<AtomicBool>,
        role: Role,
        team: Option<Arc<Team<G::Move>>>,
    ) -> Vec<G::Move> {
        self.role = role;
        self.solo = team.is_none();
        self.team = team.unwrap_or_default();
        self.team_mark = 0;
        self.overtaken = false;
        self.iteration_depth = 0;
        self.root_first = None;
        self.time_up = time_up;
        self.stop = stop;
        self.stopped = false;
        self.reductions = !limits.solve;
        self.started = limits.started.unwrap_or_else(Instant::now);
        self.hard = limits.budget.hard;
        self.node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        self.nodes = 0;
        self.seldepth = 0;
        self.heuristic_leaves = 0;
        self.path.clear();
        self.path.extend_from_slice(history);
        if self.path.last() != Some(&root.hash()) {
            self.path.push(root.hash());
        }
        self.killers.iter_mut().for_each(|k| *k = [None; KILLERS]);
        self.probing = limits.level.is_full();
        self.forcing =
            ROOT_FORCING && role == Role::Main && self.reductions && limits.level.is_full();
        self.forcing_until = limits.budget.soft.or(limits.budget.hard);
        self.checked.clear();
        self.refuted.clear();
        self.select = if self.reductions {
            self.eval.selectivity()
        } else {
            Selectivity::NONE
        };
        if self.select.history > 0 {
            self.history.resize(HISTORY_SLOTS, 0);
            self.history.iter_mut().for_each(|h| *h /= 2);
        }

        let mut root_moves = Vec::new();
        if root.outcome().is_none() {
            root.generate_moves(&mut root_moves);
        }
        self.level.begin(limits.level, &root_moves);
        root_moves
    }

    /// A helper adds its nodes since the last call to the team's count.
    fn flush_nodes(&mut self) {
        if let Role::Helper(_) = self.role {
            self.team
                .nodes
                .fetch_add(self.nodes - self.team_mark, Ordering::Relaxed);
            self.team_mark = self.nodes;
        }
    }

    /// Nodes of the whole team as far as this thread knows.
    fn team_total(&self) -> u64 {
        match self.role {
            Role::Main => self.nodes + self.team.nodes.load(Ordering::Relaxed),
            Role::Helper(_) => self.nodes,
        }
    }

    /// The value of a proven root score: wins and losses carry their distance; a draw
    /// carries the length of its principal variation.
    fn value_of(&self, score: i32, pv: &[G::Move]) -> Value {
        if score > MATE_BOUND {
            Value::Win((MATE - score) as u32)
        } else if score < -MATE_BOUND {
            Value::Loss((MATE + score) as u32)
        } else {
            Value::Draw(pv.len() as u32)
        }
    }

    fn info(&self, depth: u32, score: Score, pv: &[G::Move]) -> Info<G::Move> {
        Info {
            depth,
            seldepth: (self.seldepth as u32).max(depth.min(MAX_PLY as u32)),
            score,
            nodes: self.team_total(),
            time: self.started.elapsed(),
            hashfull: self.tt.hashfull(),
            pv: pv.to_vec(),
        }
    }

    fn check_limits(&mut self) {
        if self.nodes.is_multiple_of(CLOCK_INTERVAL) {
            match self.role {
                Role::Main => self.team_mark = self.team.nodes.load(Ordering::Relaxed),
                Role::Helper(_) => self.flush_nodes(),
            }
        }
        if self.must_stop() {
            self.stopped = true;
        } else if !self.solo && self.team.depth.load(Ordering::Relaxed) >= self.iteration_depth {
            // Another thread completed this iteration's depth: this one is wasted.
            self.overtaken = true;
            self.stopped = true;
        }
    }

    /// Whether a limit of the search (not a teammate) ends it.
    fn must_stop(&self) -> bool {
        let team_nodes = match self.role {
            Role::Main => self.team_mark,
            Role::Helper(_) => 0,
        };
        self.nodes + team_nodes >= self.node_limit
            || self.stop.load(Ordering::Relaxed)
            || self.time_up.load(Ordering::Relaxed)
            || (self.nodes.is_multiple_of(CLOCK_INTERVAL)
                && self.hard.is_some_and(|hard| self.started.elapsed() >= hard))
    }

    fn negamax(&mut self, state: &G, depth: i32, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        if depth > 0 {
            // The table is probed below, after the checks of the position: start the
            // read of its slot now.
            self.tt.prefetch(state.hash());
        }
        self.pv_table[ply].clear();
        self.nodes += 1;
        self.seldepth = self.seldepth.max(ply);
        self.check_limits();
        if self.stopped {
            return 0;
        }
        let us = state.side_to_move();
        if let Some(outcome) = state.outcome() {
            return match outcome {
                Outcome::Draw => 0,
                Outcome::Win(p) if p == us => MATE - ply as i32,
                Outcome::Win(_) => -(MATE - ply as i32),
            };
        }
        let hash = state.hash();
        if ply > 0 {
            if state.repetition_rule() && self.repeats(hash) {
                // A draw by the path taken, not by the position: never a proof, so
                // nothing above it is stored as proven.
                self.heuristic_leaves += 1;
                return 0;
            }
            if self.probing
                && let Some(value) = self.oracle.probe(state)
            {
                return super::value_to_score(value, ply);
            }
        }
        if ply >= MAX_PLY {
            self.heuristic_leaves += 1;
            return self.eval.evaluate(state);
        }
        let mut depth = depth;
        let mut checked_win = false;
        if depth <= 0 {
            // A leaf the game knows more of: a win on the spot is exact, and a side
            // facing a threat to win at once searches its replies (few, or none: then
            // the node is lost) rather than trust a static score.
            if EXTEND_THREATS && ply < self.extension_limit() && self.eval.threatened(state) {
                checked_win = self.eval.win_now(state).is_none();
                if !checked_win {
                    return MATE - ply as i32 - 1;
                }
                depth = 1;
            } else {
                let score = self.eval.evaluate(state);
                if self.eval.is_win_now(score) {
                    return MATE - ply as i32 - 1;
                }
                // A leaf the game does not trust (a forced reply, say) searches on.
                if ply < self.extension_limit() && self.eval.search_on(state) {
                    depth = 1;
                } else {
                    self.heuristic_leaves += 1;
                    return score;
                }
            }
        }

        // Mate distance pruning: no score here can beat a win on the spot.
        let alpha_floor = -(MATE - ply as i32);
        let beta_ceiling = MATE - ply as i32 - 1;
        let (alpha_in, beta) = (alpha.max(alpha_floor), beta.min(beta_ceiling));
        alpha = alpha_in;
        if alpha >= beta {
            return alpha;
        }
        // Scores with a level's bonus may pass any real score: no cut-off at the root.
        let weakened = ply == 0 && self.level.is_weakened();
        let beta = if weakened { LEVEL_BETA } else { beta };

        let mut tt_move = None;
        if let Some(entry) = self.tt.probe(hash) {
            tt_move = entry.mv;
            let score = score_from_tt(i32::from(entry.score), ply);
            let deep_enough = entry.depth == PROVEN || i32::from(entry.depth) >= depth;
            if ply > 0 && deep_enough {
                let cut = match entry.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    if entry.depth != PROVEN && score.abs() <= MATE_BOUND {
                        self.heuristic_leaves += 1;
                    }
                    return score;
                }
            }
        }

        // The root searches the last completed iteration's best move first.
        if ply == 0
            && let Some(first) = self.root_first
        {
            tt_move = Some(first.code());
        }

        // A win on the spot (the game can tell without a search): exact.
        if !weakened
            && !checked_win
            && let Some(mv) = self.eval.win_now(state)
        {
            let score = MATE - ply as i32 - 1;
            self.pv_table[ply].push(mv);
            let entry = score_to_tt(score, ply);
            self.tt
                .store(hash, Some(mv.code()), entry, PROVEN, Bound::Exact);
            return score;
        }

        let leaves_before = self.heuristic_leaves;
        let original_alpha = alpha;
        let mut moves = std::mem::take(&mut self.move_buffers[ply]);
        let mut ordered = std::mem::take(&mut self.order_buffers[ply]);
        moves.clear();
        ordered.clear();
        let killers = self.killers[ply];
        // Facing a threat to win at once, only the moves that stop it (the others lose
        // at once); with none, the node is lost in two plies (the root still plays one).
        let forced = self.eval.forced_replies(state, &mut moves);
        if forced && moves.is_empty() && ply > 0 {
            self.move_buffers[ply] = moves;
            self.order_buffers[ply] = ordered;
            let score = -(MATE - ply as i32 - 2);
            self.tt
                .store(hash, None, score_to_tt(score, ply), PROVEN, Bound::Exact);
            return score;
        }
        // Standing pat: where the game says a move rarely makes the mover's position
        // worse, a quiet node near the leaves whose static score already beats beta
        // cuts off without a move searched (a null move's reasoning, at no cost).
        if !forced && ply > 0 && depth <= self.eval.stand_pat_depth() && !weakened {
            let score = self.eval.evaluate(state);
            if score >= beta {
                self.move_buffers[ply] = moves;
                self.order_buffers[ply] = ordered;
                self.heuristic_leaves += 1;
                return score;
            }
        }
        // Staged: where the game checks a move's legality, the table's move and the
        // killers are tried before the moves are generated at all (most nodes cut off
        // on one of them).
        let staged = !forced && self.eval.checks_legality();
        let mut generated = !staged;
        let mut unscored = 0;
        if staged {
            if let Some(code) = tt_move
                && let Some(mv) = self.eval.legal_move(state, code)
            {
                ordered.push((1 << 30, mv));
            }
            if ply > 0 {
                for &killer in killers.iter().flatten() {
                    if !ordered.iter().any(|&(_, mv)| mv == killer)
                        && self.eval.legal_move(state, killer.code()).is_some()
                    {
                        ordered.push((1 << 24, killer));
                    }
                }
            }
            unscored = ordered.len();
        } else {
            if moves.is_empty() {
                state.generate_moves(&mut moves);
            }
            if moves.is_empty() {
                self.move_buffers[ply] = moves;
                self.order_buffers[ply] = ordered;
                // Cannot happen for games that report no-move losses in `outcome`.
                return -(MATE - ply as i32);
            }
            // The table's move comes first, then the killers (in the order generated),
            // and they are tried before the others are scored: where one cuts off, as
            // one mostly does, ordering the rest is never paid for.
            ordered.extend(moves.iter().map(|&mv| (0, mv)));
            if let Some(code) = tt_move
                && let Some(i) = moves.iter().position(|mv| mv.code() == code)
            {
                ordered[..=i].rotate_right(1);
                ordered[0].0 = 1 << 30;
                unscored = 1;
            }
            if ply > 0 && killers[0].is_some() {
                let first_killer = unscored;
                for i in first_killer..ordered.len() {
                    if killers.contains(&Some(ordered[i].1)) {
                        ordered[unscored..=i].rotate_right(1);
                        ordered[unscored].0 = 1 << 24;
                        unscored += 1;
                    }
                }
            }
        }

        let mut best_score = -INFINITY;
        let mut best_move = None;
        // With a team, moves after the first whose positions another thread is
        // searching wait for a second pass (simplified ABDADA).
        let share = depth >= BUSY_DEPTH && !self.team.busy.is_empty();
        let mut deferred = std::mem::take(&mut self.deferred_buffers[ply]);
        deferred.clear();
        let mut first_pass = ordered.len();
        let mut step = 0;
        // Selectivity (the game's): late quiet moves near the leaves left out, and at
        // depth 1 all quiet moves but the first when the static score is far below alpha.
        let select = self.select;
        let prunes = ply > 0 && !forced && !weakened && (1..=2).contains(&depth);
        let late_moves = if prunes {
            select.late_moves[depth as usize - 1]
        } else {
            0
        };
        let mut futile = None;
        let mut pruned = false;
        self.path.push(hash);
        loop {
            if !generated && step == ordered.len() {
                // The moves tried before generating did not cut off: now the rest.
                generated = true;
                state.generate_moves(&mut moves);
                let tried = ordered.len();
                for &mv in &moves {
                    if !ordered[..tried].iter().any(|&(_, done)| done == mv) {
                        ordered.push((0, mv));
                    }
                }
                first_pass = ordered.len();
                if ordered.is_empty() {
                    // Cannot happen for games that report no-move losses in `outcome`.
                    best_score = -(MATE - ply as i32);
                    break;
                }
            }
            let (index, second_pass) = if step < first_pass {
                (step, false)
            } else if let Some(&index) = deferred.get(step - first_pass) {
                (index, true)
            } else {
                break;
            };
            step += 1;
            if !second_pass && index == unscored {
                self.eval.order_hints(state, &mut ordered[unscored..]);
                if select.history > 0 && ply > 0 {
                    for entry in &mut ordered[unscored..] {
                        let h = self.history[history_slot(entry.1.code())];
                        entry.0 += h * select.history / HISTORY_MAX;
                    }
                }
                if ply == 0 {
                    self.order_root(&mut ordered, unscored, weakened);
                }
                if prunes && depth == 1 && select.futility > 0 {
                    let score = self.eval.evaluate(state) + select.futility;
                    futile = (score <= alpha).then_some(score);
                }
            }
            if ply > 0 && index >= unscored && !second_pass {
                // Inside the tree most nodes cut off after a move or two: the first few
                // moves are picked one at a time (the first best each time, so the order
                // is the stable sort's), and the rest sorted only if the node goes on.
                if index < unscored + LAZY_PICKS {
                    let rest = &mut ordered[index..];
                    let mut pick = 0;
                    for (i, entry) in rest.iter().enumerate().skip(1) {
                        if entry.0 > rest[pick].0 {
                            pick = i;
                        }
                    }
                    rest[..=pick].rotate_right(1);
                } else if index == unscored + LAZY_PICKS {
                    ordered[index..].sort_by_key(|&(key, _)| std::cmp::Reverse(key));
                }
            }
            let (key, mv) = ordered[index];
            if prunes
                && !second_pass
                && index >= unscored
                && key < PRUNE_KEY
                && best_score > -MATE_BOUND
            {
                if late_moves > 0 && index >= late_moves {
                    pruned = true;
                    if deferred.is_empty() {
                        break;
                    }
                    continue;
                }
                if let Some(score) = futile
                    && index > 0
                {
                    pruned = true;
                    best_score = best_score.max(score);
                    if deferred.is_empty() {
                        break;
                    }
                    continue;
                }
            }
            let mut child = state.clone();
            child.play(mv);
            let mut marked = None;
            if share && index > 0 && !second_pass {
                let child_hash = child.hash();
                if self.team.is_busy(child_hash) {
                    deferred.push(index);
                    continue;
                }
                self.team.mark_busy(child_hash);
                marked = Some(child_hash);
            }
            let flips = child.side_to_move() != us;
            let quiet = key < 1 << 24;
            // Late moves in deep nodes are first searched one ply shallower; where the
            // game asks, not a move that threatens to win next turn (reduced, its win
            // would fall below the horizon and the move look quiet).
            let reduction = if self.reductions
                && index >= 3
                && depth >= select.reduce_from
                && quiet
                && !(select.full_depth_threats && self.eval.threatened(&child))
            {
                if select.reduce_more_from > 0 && index >= select.reduce_more_from && depth >= 4 {
                    2
                } else {
                    1
                }
            } else {
                0
            };
            // Below full strength each root move's score counts with its random bonus
            // (level.rs): the move is searched against the window shifted by it, so the
            // tree is as narrow as a full-strength one.
            let bonus = if weakened { self.level.bonus(mv) } else { 0 };
            let (low, high) = (alpha - bonus, beta - bonus);
            let mut score;
            if let Some(lost) = self.refuted_score(ply, mv) {
                // Refuted by the root's forcing pass: a proven loss, not searched.
                score = lost;
            } else if index == 0 {
                score = self.child_score(&child, flips, depth - 1, ply + 1, low, high);
            } else {
                score =
                    self.child_score(&child, flips, depth - 1 - reduction, ply + 1, low, low + 1);
                if score > low && reduction > 0 && !self.stopped {
                    score = self.child_score(&child, flips, depth - 1, ply + 1, low, low + 1);
                }
                if score > low && score < high && !self.stopped {
                    // Below full strength a move that beats the best by a bonus is
                    // usually within the margin of it: first look for its score there.
                    let top = if weakened {
                        high.min(low.saturating_add(self.level.margin() + 1))
                    } else {
                        high
                    };
                    score = self.child_score(&child, flips, depth - 1, ply + 1, low, top);
                    if top < high && score >= top && !self.stopped {
                        score = self.child_score(&child, flips, depth - 1, ply + 1, low, high);
                    }
                }
            }
            if let Some(child_hash) = marked {
                self.team.unmark_busy(child_hash);
            }
            if self.stopped {
                break;
            }
            let mut score = score + bonus;
            if ply == 0 && score > best_score && self.refute(state, mv) {
                // About to be the best move, it loses by force: it scores that loss.
                score = self.refuted_score(0, mv).unwrap_or(score);
            }
            if score > best_score {
                best_score = score;
                best_move = Some(mv);
                if score > alpha {
                    alpha = score;
                    let (head, tail) = self.pv_table.split_at_mut(ply + 1);
                    head[ply].clear();
                    head[ply].push(mv);
                    head[ply].extend_from_slice(&tail[0]);
                    if ply == 0 && !weakened {
                        self.root_score = score;
                        if index > 0 && matches!(self.role, Role::Helper(_)) {
                            self.team.publish_partial(Iteration {
                                depth: self.iteration_depth,
                                score,
                                pv: self.pv_table[0].clone(),
                                proven: false,
                            });
                        }
                    }
                }
                if alpha >= beta {
                    if quiet && !killers.contains(&Some(mv)) {
                        let slot = &mut self.killers[ply];
                        slot[1] = slot[0];
                        slot[0] = Some(mv);
                    }
                    if quiet && select.history > 0 && ply > 0 && !second_pass {
                        // This move's cut-off counts for it, against the quiet moves
                        // tried before it here.
                        let bonus = HISTORY_STEP * depth.max(1) * depth.max(1);
                        self.add_history(mv.code(), bonus);
                        for &(key, tried) in &ordered[..index] {
                            if key < 1 << 24 {
                                self.add_history(tried.code(), -bonus);
                            }
                        }
                    }
                    break;
                }
            }
        }
        self.path.pop();
        if pruned {
            // Moves left out: whatever the rest met, this score is no proof.
            self.heuristic_leaves += 1;
        }
        self.move_buffers[ply] = moves;
        self.order_buffers[ply] = ordered;
        self.deferred_buffers[ply] = deferred;
        if self.stopped {
            return 0;
        }

        let bound = if best_score >= beta {
            Bound::Lower
        } else if best_score > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        if weakened {
            // A root score with a bonus in it is no score of the position.
            return best_score;
        }
        let stored_depth = if self.heuristic_leaves == leaves_before {
            PROVEN
        } else {
            depth.clamp(0, i32::from(PROVEN) - 1) as u8
        };
        self.tt.store(
            hash,
            best_move.map(MoveCode::code),
            score_to_tt(best_score, ply),
            stored_depth,
            bound,
        );
        best_score
    }

    /// How deep (in plies from the root) a leaf facing a threat is still searched on:
    /// twice the iteration's depth, so that chains of threats end.
    fn extension_limit(&self) -> usize {
        (2 * self.iteration_depth as usize + 2).min(MAX_PLY - 1)
    }

    /// The test the root's forcing searches read: the search's stop flags, and the end
    /// of the share of the move's time they may take.
    fn forcing_stop(&self, share: f64) -> impl FnMut() -> bool + use<G, E, O> {
        let (stop, time_up) = (Arc::clone(&self.stop), Arc::clone(&self.time_up));
        let started = self.started;
        let until = self.forcing_until.map(|time| time.mul_f64(share));
        move || {
            stop.load(Ordering::Relaxed)
                || time_up.load(Ordering::Relaxed)
                || until.is_some_and(|until| started.elapsed() >= until)
        }
    }

    /// Checks root move `mv` (once a search) for a forced win of the opponent after it;
    /// when one is found, the move is refuted: it scores as that loss at the root from
    /// now on, and the table holds the child's proof. Returns whether it was.
    fn refute(&mut self, root: &G, mv: G::Move) -> bool {
        if !ROOT_REFUTE || !self.forcing || self.checked.contains(&mv) {
            return false;
        }
        self.checked.push(mv);
        let mut child = root.clone();
        child.play(mv);
        if child.outcome().is_some() || child.side_to_move() == root.side_to_move() {
            return false;
        }
        let mut stop = self.forcing_stop(ROOT_FORCING_SHARE);
        let found = self.eval.forced_win(&child, ROOT_FORCING_NODES, &mut stop);
        self.nodes += self.eval.forced_nodes();
        let Some((plies, reply)) = found else {
            return false;
        };
        // The opponent wins `plies` plies after the child (ply 1).
        let child_score = MATE - 1 - plies as i32;
        self.tt.store(
            child.hash(),
            Some(reply.code()),
            score_to_tt(child_score, 1),
            PROVEN,
            Bound::Exact,
        );
        self.refuted.push((mv, -child_score));
        true
    }

    /// The root score of a move the forcing pass refuted (`None` elsewhere).
    fn refuted_score(&self, ply: usize, mv: G::Move) -> Option<i32> {
        if ply > 0 || self.refuted.is_empty() {
            return None;
        }
        self.refuted
            .iter()
            .find(|&&(refuted, _)| refuted == mv)
            .map(|&(_, score)| score)
    }

    /// Orders the root's moves from `from` on (those before are the table's move):
    /// by key, or below full strength by bonus; a helper rotates them.
    fn order_root(&self, ordered: &mut [(i32, G::Move)], from: usize, weakened: bool) {
        if weakened {
            // The best move of the last iteration first, then by bonus: a later move
            // must beat an earlier one by more than its bonus is smaller, so few do,
            // and few need a second search.
            let level = &self.level;
            ordered[from..].sort_by_cached_key(|&(key, mv)| {
                std::cmp::Reverse((key >= 1 << 30, level.bonus(mv), key))
            });
        } else {
            ordered[from..].sort_by_key(|&(key, _)| std::cmp::Reverse(key));
            if let Role::Helper(index) = self.role
                && ordered.len() > 2
            {
                // A helper takes the root's moves after the first from another point
                // on: behind the first move, most fail low at about the same cost in any
                // order, so the threads cover different moves, and the main thread finds
                // the helper's in the table.
                let rest = ordered.len() - 1;
                let offset = ((index as f64 + 1.0) * 0.618_034).fract() * rest as f64;
                ordered[1..].rotate_left(offset as usize % rest);
            }
        }
    }

    fn child_score(
        &mut self,
        child: &G,
        flips: bool,
        depth: i32,
        ply: usize,
        alpha: i32,
        beta: i32,
    ) -> i32 {
        if flips {
            -self.negamax(child, depth, ply, -beta, -alpha)
        } else {
            self.negamax(child, depth, ply, alpha, beta)
        }
    }

    /// Moves the history of the move of `code` by `bonus` (the gravity formula: the
    /// value stays within ±[`HISTORY_MAX`], and a large one moves less).
    fn add_history(&mut self, code: u32, bonus: i32) {
        let h = &mut self.history[history_slot(code)];
        *h += bonus - *h * bonus.abs() / HISTORY_MAX;
    }

    /// Whether `hash` occurred earlier in the game or on the search path.
    fn repeats(&self, hash: u64) -> bool {
        self.path.iter().rev().any(|&h| h == hash)
    }
}

/// The history table's slot of a move code (a multiplicative hash).
fn history_slot(code: u32) -> usize {
    (code.wrapping_mul(0x9E37_79B1) >> (32 - HISTORY_SLOTS.trailing_zeros())) as usize
}

/// Mate scores are stored relative to the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn busy_positions_are_marked_and_released_by_their_own_hash() {
        let team: Team<u32> = Team::new();
        let (a, b) = (0x1234_5678_9abc_def0_u64, 0x0fed_cba9_8765_4321_u64);
        assert!(!team.is_busy(a));
        team.mark_busy(a);
        assert!(team.is_busy(a) && !team.is_busy(b));
        // A position in the same slot replaces it; releasing the first leaves the second.
        let c = a ^ ((BUSY_SLOTS as u64) << 3);
        assert!(std::ptr::eq(team.busy_slot(a), team.busy_slot(c)));
        team.mark_busy(c);
        team.unmark_busy(a);
        assert!(team.is_busy(c) && !team.is_busy(a));
        team.unmark_busy(c);
        assert!(!team.is_busy(c));
        // A search alone keeps no such table.
        assert!(Team::<u32>::default().busy.is_empty());
    }

    #[test]
    fn partial_results_keep_the_deepest_then_the_best() {
        let team: Team<u32> = Team::new();
        let found = |depth, score, mv| Iteration {
            depth,
            score,
            pv: vec![mv],
            proven: false,
        };
        team.publish_partial(found(4, 10, 1));
        team.publish_partial(found(4, 5, 2));
        assert_eq!(team.best_partial().map(|p| p.pv), Some(vec![1]));
        team.publish_partial(found(5, -20, 3));
        assert_eq!(team.best_partial().map(|p| p.pv), Some(vec![3]));
        team.publish_partial(found(4, 50, 4));
        assert_eq!(team.best_partial().map(|p| p.pv), Some(vec![3]));
    }
}
