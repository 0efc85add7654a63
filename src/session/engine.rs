//! The engine for one game, behind one object-safe trait: the session makes one
//! dynamic call per command, and everything below is compiled per game.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::output::Output;
use crate::game::{Game, Outcome, Params, Player, Record, Scoring, Value, quote};
use crate::games::GameVisitor;
use crate::perft;
use crate::protocol::response::{InfoLine, InfoScore, Response};
use crate::protocol::{Go, Query, StartPosition};
use crate::search::{Evaluator, Info, Level, Oracle, Policy, Score, SearchLimits, Strategy, time};

/// What the session needs from the engine of the current game.
pub trait Engine: Send {
    /// The game's protocol name.
    fn game_name(&self) -> &'static str;
    /// Sets the position. On a bad FEN nothing changes; on an illegal move the position
    /// becomes the legal prefix, forfeited by the side that tried the move (SPEC §3).
    /// Either way the error text is returned.
    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), String>;
    /// Answers a `query`.
    fn query(&self, query: &Query) -> Result<String, String>;
    /// The `d` text: diagram, FEN and state.
    fn display(&self) -> String;
    /// Forgets what earlier searches learnt (clears the table now, not at the next `go`).
    fn new_game(&mut self);
    /// Resizes the transposition table, allocating it now; when the system refuses
    /// the memory, the error and the previous table kept.
    fn set_hash(&mut self, mib: usize) -> Result<(), String>;
    /// Searches on `threads` threads from now on, started here; the number running
    /// (fewer only if the system refused threads).
    fn set_threads(&mut self, threads: usize) -> usize;
    /// Hands the game's engine options ([`Strategy::engine_options`]) to its oracle.
    fn set_engine_options(&mut self, options: &Params);
    /// Starts building the game's tables in the background, if it has any (see
    /// [`Oracle::prepare`]).
    fn prepare_tables(&self);
    /// Waits until the tables `prepare_tables` started are ready (or off, or failed):
    /// `isready` answers only then.
    fn await_tables(&self);
    /// Starts `go` on a worker thread that prints its `info` lines and exactly one
    /// `bestmove` (none for perft) to `out`. Returns the thread, or runs the job on the
    /// calling thread and returns `None` if no thread could be started.
    fn go(
        &mut self,
        go: Go,
        settings: GoSettings,
        stop: Arc<AtomicBool>,
        out: Output,
    ) -> Option<JoinHandle<()>>;
}

/// Engine settings that a `go` needs besides its limits.
#[derive(Clone, Copy, Debug)]
pub struct GoSettings {
    /// When the `go` line arrived: the clock runs from here.
    pub received: Instant,
    pub move_overhead_ms: u64,
    /// Whether `go` was `go infinite`: the bestmove then waits for `stop`.
    pub infinite: bool,
    /// The `Level` option (playing strength; search/level.rs).
    pub level: Level,
}

/// The engine of game `G`: the game's record, its searchers and its oracle.
pub struct GameEngine<G: Strategy> {
    config: G::Config,
    record: Record<G>,
    policy: Arc<Mutex<Policy<G>>>,
    /// The policy's oracle, held here too: `isready` and option changes reach it while
    /// a search holds the policy's lock.
    oracle: Arc<G::Oracle>,
}

impl<G: Strategy> GameEngine<G> {
    /// The engine at the start position with the game's engine options
    /// ([`Strategy::engine_options`]) at `engine_options`, its transposition table
    /// allocated, so that no clocked search pays for it. The game's own tables are
    /// started by the session ([`Engine::prepare_tables`]) when the game is chosen, or
    /// by the first `isready`.
    pub fn new(
        config: G::Config,
        hash_mib: usize,
        threads: usize,
        engine_options: &Params,
    ) -> Self {
        let record = Record::new(G::start(&config));
        let oracle = Arc::new(G::Oracle::new(&config));
        oracle.set_options(engine_options);
        let mut policy = Policy::new(hash_mib, G::Eval::default(), Arc::clone(&oracle));
        policy.prepare();
        policy.set_threads(threads);
        warm_up(record.state());
        GameEngine {
            config,
            record,
            policy: Arc::new(Mutex::new(policy)),
            oracle,
        }
    }

    pub fn record(&self) -> &Record<G> {
        &self.record
    }
}

/// Touches what a game builds on first use (sight and geometry tables), so that the
/// first `go` does not pay for it: one move generated, played and evaluated.
fn warm_up<G: Strategy>(start: &G) {
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    if let Some(&mv) = moves.first() {
        let mut child = start.clone();
        child.play(mv);
        let mut replies = Vec::new();
        child.generate_moves(&mut replies);
        std::hint::black_box(G::Eval::default().evaluate(&child));
    }
}

/// The options of one game as a session keeps them, by name.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct GameOptions {
    /// The rules' ([`Game::option_specs`]): a new value makes a new engine.
    pub rules: Params,
    /// The engine's ([`Strategy::engine_options`]): handed to its oracle as they change.
    pub engine: Params,
}

impl GameOptions {
    /// `G`'s options at their defaults.
    pub fn defaults<G: Strategy>() -> GameOptions {
        GameOptions {
            rules: Params::defaults(G::option_specs()),
            engine: Params::defaults(G::engine_options()),
        }
    }
}

/// A game's options at their defaults (for [`crate::games::visit`]).
pub struct DefaultOptions;

impl GameVisitor for DefaultOptions {
    type Output = GameOptions;
    fn visit<G: Strategy>(self) -> GameOptions {
        GameOptions::defaults::<G>()
    }
}

/// Builds the engine of a game from its options (for [`crate::games::visit`]).
pub struct BuildEngine {
    pub options: GameOptions,
    pub hash_mib: usize,
    pub threads: usize,
}

impl GameVisitor for BuildEngine {
    type Output = Result<Box<dyn Engine>, String>;
    fn visit<G: Strategy>(self) -> Self::Output {
        let config = G::config(&self.options.rules)?;
        Ok(Box::new(GameEngine::<G>::new(
            config,
            self.hash_mib,
            self.threads,
            &self.options.engine,
        )))
    }
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    match mutex.lock() {
        Ok(guard) => guard,
        Err(poisoned) => poisoned.into_inner(),
    }
}

fn side_name(player: Player) -> &'static str {
    match player {
        Player::P1 => "p1",
        Player::P2 => "p2",
    }
}

/// The moves of a line as text, each formatted in the position it is played from.
pub fn line_text<G: Game>(root: &G, line: &[G::Move]) -> Vec<String> {
    let mut state = root.clone();
    line.iter()
        .map(|&mv| {
            let text = state.format_move(mv);
            state.play(mv);
            text
        })
        .collect()
}

/// An `info` line for one search report.
pub fn info_line<G: Game>(root: &G, info: &Info<G::Move>) -> Response {
    let time_ms = info.time.as_millis() as u64;
    let nps = if info.time > Duration::ZERO {
        (info.nodes as f64 / info.time.as_secs_f64()) as u64
    } else {
        0
    };
    Response::Info(InfoLine {
        depth: info.depth,
        seldepth: info.seldepth,
        score: match info.score {
            Score::Cp(cp) => InfoScore::Cp(cp),
            Score::Mate(plies) => InfoScore::Mate(plies),
        },
        nodes: info.nodes,
        nps,
        time_ms,
        hashfull: info.hashfull,
        pv: line_text(root, &info.pv),
    })
}

impl<G: Strategy> Engine for GameEngine<G> {
    fn game_name(&self) -> &'static str {
        G::NAME
    }

    fn set_position(&mut self, start: &StartPosition, moves: &[String]) -> Result<(), String> {
        let state = match start {
            StartPosition::StartPos => G::start(&self.config),
            StartPosition::Fen(fen) => {
                G::from_fen(&self.config, fen).map_err(|e| format!("position: {e}"))?
            }
        };
        let mut record = Record::new(state);
        for (index, text) in moves.iter().enumerate() {
            if let Err(error) = record.play_text(text) {
                let over = record.outcome().is_some();
                let mover = side_name(record.state().side_to_move());
                if !over {
                    record.forfeit_by_side_to_move();
                }
                self.record = record;
                let consequence = if over {
                    "the position is the legal prefix".to_string()
                } else {
                    format!("the position is the legal prefix and {mover} loses the game")
                };
                return Err(format!(
                    "position: move {} ({text}): {error}; {consequence}",
                    index + 1
                ));
            }
        }
        self.record = record;
        Ok(())
    }

    fn query(&self, query: &Query) -> Result<String, String> {
        let state = self.record.state();
        Ok(match query {
            Query::GameOver => self.record.outcome().is_some().to_string(),
            Query::P1Turn => (state.side_to_move() == Player::P1).to_string(),
            Query::Result => self
                .record
                .outcome()
                .map_or("none", Outcome::as_str)
                .to_string(),
            Query::Moves => {
                let moves = self.record.legal_moves();
                let texts: Vec<String> = moves.iter().map(|&mv| state.format_move(mv)).collect();
                texts.join(" ")
            }
            Query::Fen => state.fen(),
            // A game scored by pairs answers its tie-break count by name.
            Query::Other(what) => match G::SCORING {
                Scoring::Pairs(tiebreak) if tiebreak.name == what.as_str() => {
                    state.tiebreak_count().to_string()
                }
                _ => {
                    return Err(format!(
                        "query: unknown subject {} for {}",
                        quote(what),
                        G::NAME
                    ));
                }
            },
        })
    }

    fn display(&self) -> String {
        let state = self.record.state();
        let status = match self.record.outcome() {
            Some(outcome) => format!("game over: {outcome}"),
            None => format!("{} to move", side_name(state.side_to_move())),
        };
        format!(
            "{}\nFen: {}\nGame: {}, ply {}, {status}, hash {:016x}",
            state.diagram().trim_end(),
            state.fen(),
            G::NAME,
            state.plies(),
            state.hash()
        )
    }

    fn new_game(&mut self) {
        lock(&self.policy).clear();
    }

    fn set_hash(&mut self, mib: usize) -> Result<(), String> {
        lock(&self.policy)
            .set_hash(mib)
            .map_err(|error| format!("Hash: {error}; the table of before is kept"))
    }

    fn set_threads(&mut self, threads: usize) -> usize {
        lock(&self.policy).set_threads(threads)
    }

    fn set_engine_options(&mut self, options: &Params) {
        self.oracle.set_options(options);
    }

    fn prepare_tables(&self) {
        self.oracle.prepare();
    }

    fn await_tables(&self) {
        self.oracle.wait(&AtomicBool::new(false), None);
    }

    fn go(
        &mut self,
        go: Go,
        settings: GoSettings,
        stop: Arc<AtomicBool>,
        out: Output,
    ) -> Option<JoinHandle<()>> {
        let record = self.record.clone();
        let policy = Arc::clone(&self.policy);
        let oracle = Arc::clone(&self.oracle);
        let budget = match &go {
            Go::Search(limits) if !limits.infinite => {
                let side = record.state().side_to_move();
                time::budget_for(
                    &clock_of(limits, side),
                    settings.move_overhead_ms,
                    record.state().moves_to_go(),
                    record.state().hard_share(),
                )
            }
            _ => time::Budget::default(),
        };
        // A search of a few milliseconds runs on the session's own thread: starting a
        // thread is one more wake-up before the search, and on a machine whose cores are
        // all busy each wake-up may wait for another process's time slice (3-4 ms here),
        // which a 100 ms game cannot afford on every move. `isready` then waits that
        // long at most.
        let inline = budget.hard.is_some_and(|hard| hard <= INLINE_SEARCH);
        let job = move || match go {
            Go::Perft(depth) => run_perft(&record, depth, &stop, &out),
            Go::Search(limits) => {
                let search_limits = SearchLimits {
                    depth: limits.depth,
                    nodes: limits.nodes,
                    budget,
                    started: Some(settings.received),
                    solve: false,
                    level: settings.level,
                };
                // A table still being built (only when `go` came without the `isready`
                // that waits for it) is waited for: by a search without a clock in full,
                // so that its result does not depend on how far the build got; by one
                // on the clock for half its hard limit at most, after which it searches
                // without the table rather than lose on time.
                let deadline = budget.hard.map(|hard| settings.received + hard / 2);
                oracle.wait(&stop, deadline);
                run_search(&record, &policy, search_limits, settings, &stop, &out);
            }
            Go::Solve => {
                oracle.wait(&stop, None);
                let search_limits = SearchLimits {
                    solve: true,
                    started: Some(settings.received),
                    ..SearchLimits::default()
                };
                run_search(&record, &policy, search_limits, settings, &stop, &out);
            }
        };
        if inline {
            job();
            return None;
        }
        spawn_worker("search", job)
    }
}

/// Runs `job` on a worker thread named `name` (with room for deep recursion), or on
/// the calling thread if no thread can be started; the handle when it is a thread.
pub fn spawn_worker(
    name: &str,
    job: impl FnOnce() + Send + Clone + 'static,
) -> Option<JoinHandle<()>> {
    match std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(64 * 1024 * 1024)
        .spawn(job.clone())
    {
        Ok(handle) => Some(handle),
        Err(error) => {
            log::warn!("could not start a {name} thread ({error}); running it inline");
            job();
            None
        }
    }
}

/// The longest search run on the session's thread rather than a thread of its own.
const INLINE_SEARCH: Duration = Duration::from_millis(5);

/// The clock of `side` in the `go` limits, in the time manager's terms.
fn clock_of(limits: &crate::protocol::GoLimits, side: Player) -> time::Clock {
    let (mine, theirs) = match side {
        Player::P1 => ((limits.p1time, limits.p1inc), (limits.p2time, limits.p2inc)),
        Player::P2 => ((limits.p2time, limits.p2inc), (limits.p1time, limits.p1inc)),
    };
    // A clock given for the other side only is taken as the mover's too: a time
    // control applies to both, and a search must not run on without one.
    let (time, inc) = if mine.0.is_none() && mine.1.is_none() {
        theirs
    } else {
        mine
    };
    time::Clock {
        time,
        inc,
        moves_to_go: limits.movestogo,
        movetime: limits.movetime,
    }
}

fn run_search<G: Strategy>(
    record: &Record<G>,
    policy: &Mutex<Policy<G>>,
    limits: SearchLimits,
    settings: GoSettings,
    stop: &Arc<AtomicBool>,
    out: &Output,
) {
    let root = record.state();
    let mut best = None;
    if let Some(outcome) = record.outcome() {
        if limits.solve {
            let value = Value::of_outcome(outcome, root.side_to_move());
            out.send(solved_line(value));
        }
    } else {
        let mut policy = lock(policy);
        let started = Instant::now();
        let mut last: Option<Info<G::Move>> = None;
        let result = policy.search(
            root,
            record.history(),
            limits,
            Arc::clone(stop),
            &mut |info| {
                out.send(info_line(root, info));
                last = Some(info.clone());
            },
        );
        // The last `info` line's PV starts with the move played: a searcher that
        // changed its mind after its last report (a search cut short) is reported once
        // more, with the result's line.
        if let Some(mv) = result.best
            && last
                .as_ref()
                .is_none_or(|info| info.pv.first() != Some(&mv))
        {
            let pv = if result.pv.first() == Some(&mv) {
                result.pv.clone()
            } else {
                vec![mv]
            };
            let info = Info {
                depth: result.depth,
                seldepth: last.as_ref().map_or(1, |info| info.seldepth),
                score: result.score,
                nodes: result.nodes,
                time: limits.started.unwrap_or(started).elapsed(),
                hashfull: last.as_ref().map_or(0, |info| info.hashfull),
                pv,
            };
            out.send(info_line(root, &info));
        }
        log::debug!(
            "search: {} nodes, depth {}, {:?}",
            result.nodes,
            result.depth,
            started.elapsed()
        );
        best = result.best;
        if let Some(note) = result.note {
            out.send(Response::InfoString(note));
        }
        if limits.solve
            && let Some(value) = result.proven
            && !stop.load(Ordering::Relaxed)
        {
            out.send(solved_line(value));
        }
    }
    if settings.infinite {
        while !stop.load(Ordering::Relaxed) {
            std::thread::sleep(Duration::from_millis(1));
        }
    }
    let text = best.map_or_else(|| "0000".to_string(), |mv| root.format_move(mv));
    out.send(Response::BestMove(text));
}

fn solved_line(value: Value) -> Response {
    Response::InfoString(format!("solved {} plies {}", value.word(), value.plies()))
}

fn run_perft<G: Game>(record: &Record<G>, depth: u32, stop: &AtomicBool, out: &Output) {
    let root = record.state();
    let started = Instant::now();
    let mut split = perft::divide(root, depth);
    let mut total = 0u64;
    while let Some(next) = split.next_until(stop) {
        let Ok((mv, count)) = next else {
            out.send(Response::InfoString("perft stopped".to_string()));
            return;
        };
        total += count;
        out.send(Response::Text(format!("{}: {count}", root.format_move(mv))));
    }
    if depth == 0 {
        total = 1;
    }
    let elapsed = started.elapsed();
    let nps = (total as f64 / elapsed.as_secs_f64().max(1e-9)) as u64;
    out.send(Response::Text(format!("total: {total}")));
    out.send(Response::InfoString(format!(
        "perft {depth} nodes {total} time {} nps {nps}",
        elapsed.as_millis()
    )));
}
