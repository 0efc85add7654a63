//! The session: the line loop that turns commands into calls on the engine of the
//! current game, and owns the search worker.
//!
//! - Input is read on a thread of its own ([`run`]), which stamps every line with its
//!   arrival time (a `go`'s clock runs from there) and sends it down one channel; a
//!   task (a search, `bench`) sends its end down the same channel. So input is read
//!   whatever runs, and what waited for a task runs the moment it ends.
//! - A task runs on its own thread with an atomic stop flag. `stop` reaches it at once,
//!   `isready` is answered at once; every other line waits in a queue, in order, until
//!   the task ends (a `go infinite` or bare `go` is stopped for it), except that a
//!   `query`, `d`, `help` or an error with nothing queued before it is answered at once.
//!   So each command sees the effect of every command before it, as if each `go` had
//!   been waited for, and every `go` gets exactly one `bestmove`.
//! - `stop` ends every task asked for before it: the running one now, a queued one as
//!   soon as it starts. `quit` and the end of input let a `go` with limits finish; `quit`
//!   stops everything else (`go perft`, `go solve`, `bench`); see [`Task`].
//! - Errors become `info string error: …` and leave the previous state as it was
//!   (except an illegal move inside `position`, SPEC §3).
//! - Preparation (the transposition table, a game's tables) is done when an option or
//!   the game is set, and `isready` while idle answers once it is complete.

pub mod engine;
mod light;
pub mod output;

use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, IsTerminal};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::thread::JoinHandle;
use std::time::Instant;

use engine::DefaultOptions;
pub use engine::{BuildEngine, Engine, GameOptions, GoSettings};
pub use output::Output;

use crate::game::{OptionError, OptionKind, OptionSpec, OptionValue, Params, quote};
use crate::games::{self, GameVisitor};
use crate::options::{self, ResolveError};
use crate::protocol::response::{OptionLine, Response};
use crate::protocol::{Command, Go, parse_command};
use crate::search::threads::MAX_THREADS;
use crate::search::{Level, Strategy};

/// The engine's name and author for the handshake.
pub const ENGINE_NAME: &str = concat!("tabuleiro ", env!("CARGO_PKG_VERSION"));
pub const ENGINE_AUTHOR: &str = "the tabuleiro developers";

/// Transposition table size, MiB.
const HASH_DEFAULT: i64 = 16;
const HASH_MAX: i64 = 16_384;
/// One thread by default, so that `bench` and `go nodes` stay deterministic.
const THREADS_DEFAULT: i64 = 1;
/// Time lost between engine and arena per move, ms (`MoveOverhead`'s default).
pub const OVERHEAD_DEFAULT: i64 = 20;
const OVERHEAD_MAX: i64 = 5_000;
/// Input lines longer than this are rejected (the rest of the line is skipped).
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The option that chooses the game (a combo of [`games::NAMES`]; `game NAME` too).
const GAME: &str = "Game";
/// The session's own options beside `Game`, resolved as the games' are; `ugi` shows
/// each at its current value.
const HASH: OptionSpec = OptionSpec::spin("Hash", 1, HASH_MAX, HASH_DEFAULT);
const THREADS: OptionSpec = OptionSpec::spin("Threads", 1, MAX_THREADS as i64, THREADS_DEFAULT);
const MOVE_OVERHEAD: OptionSpec =
    OptionSpec::spin("MoveOverhead", 0, OVERHEAD_MAX, OVERHEAD_DEFAULT);
/// Playing strength, by default the full strength, [`Level::MAX`] (search/level.rs).
const LEVEL: OptionSpec = OptionSpec::spin(
    "Level",
    Level::MIN as i64,
    Level::MAX as i64,
    Level::MAX as i64,
);
const SESSION_OPTIONS: &[OptionSpec] = &[HASH, THREADS, MOVE_OVERHEAD, LEVEL];

/// Whether the session goes on after a line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Flow {
    Continue,
    Quit,
}

/// What a running task is, for the commands that arrive while it runs.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Task {
    /// A `go` with a depth, node or time limit: it ends by itself, and every command
    /// (`quit` and the end of input included) waits for it.
    Bounded,
    /// `go perft`, `go solve`, `bench`: they end by themselves, and other commands and
    /// the end of input wait for them, but `quit` stops them at once.
    Finite,
    /// `go infinite` or a bare `go`: never ends by itself; a command that waits for it,
    /// `quit` and the end of input stop it.
    Unbounded,
}

/// What the session's loop receives, in the order it arrived.
#[derive(Debug)]
pub enum Event {
    /// An input line and when it arrived.
    Line(String, Instant),
    /// An input line that could not be read as text; the message says why.
    Bad(String),
    /// The end of input.
    End,
    /// The task with this number has ended: its last line is out.
    Finished(u64),
}

struct RunningSearch {
    /// The task's number, as its [`Event::Finished`] gives it.
    id: u64,
    stop: Arc<AtomicBool>,
    task: Task,
    handle: Option<JoinHandle<()>>,
}

/// Sends [`Event::Finished`] when dropped: a task's output holds it, so it is dropped
/// when the task's thread has let go of its output (after the `bestmove`), also if the
/// task panicked.
struct FinishedToken {
    id: u64,
    events: Sender<Event>,
}

impl Drop for FinishedToken {
    fn drop(&mut self) {
        let _ = self.events.send(Event::Finished(self.id));
    }
}

/// A line in the queue: it waits there while a task runs.
struct Waiting {
    item: Item,
    /// When it arrived; a `go` that waited for a task starts its clock when it starts
    /// instead (the time it waited was the task's, not its own).
    received: Instant,
    /// It came while a task ran.
    waited: bool,
    /// A `stop` came after it: a task it starts is stopped at once.
    stopped: bool,
}

/// An input line, understood or not.
enum Item {
    Command(Command),
    Error(String),
}

impl Waiting {
    /// Whether it needs nothing of the state a waiting command may change, so that at
    /// the head of the queue it is answered while a task runs.
    fn answers_at_once(&self) -> bool {
        matches!(
            self.item,
            Item::Error(_) | Item::Command(Command::Query(_) | Command::Display | Command::Help)
        )
    }

    fn starts_task(&self) -> bool {
        matches!(
            self.item,
            Item::Command(Command::Go(_) | Command::Bench { .. })
        )
    }
}

/// How the session ends once nothing is left to wait for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ending {
    Quit,
    EndOfInput,
}

/// One protocol session.
pub struct Session {
    out: Output,
    engine: Box<dyn Engine>,
    /// The options of every game, kept when another game is played.
    options: HashMap<&'static str, GameOptions>,
    hash_mib: usize,
    /// The `Threads` option: threads per search.
    threads: usize,
    move_overhead_ms: u64,
    /// The `Level` option: playing strength, 10 = full (search/level.rs).
    level: Level,
    search: Option<RunningSearch>,
    /// Lines waiting for the running task, in order (empty when nothing runs).
    queue: VecDeque<Waiting>,
    /// `quit` or the end of input came: the session ends when nothing is left.
    ending: Option<Ending>,
    /// The session's channel: input lines (from [`run`]'s reader) and tasks' ends.
    events: Sender<Event>,
    inbox: Receiver<Event>,
    /// The number of the next task.
    next_task: u64,
}

/// The option specs of a game (for the option list and validation).
struct Specs;
impl GameVisitor for Specs {
    type Output = &'static [OptionSpec];
    fn visit<G: Strategy>(self) -> Self::Output {
        G::option_specs()
    }
}

/// Checks a game's options against its cross-constraints without building anything.
struct CheckConfig(Params);
impl GameVisitor for CheckConfig {
    type Output = Result<(), OptionError>;
    fn visit<G: Strategy>(self) -> Self::Output {
        G::config(&self.0).map(|_| ())
    }
}

fn specs_of(game: &str) -> &'static [OptionSpec] {
    games::visit(game, Specs).unwrap_or(&[])
}

/// Every game's options at their defaults, by game.
fn defaults() -> HashMap<&'static str, GameOptions> {
    games::NAMES
        .iter()
        .filter_map(|&name| Some((name, games::visit(name, DefaultOptions)?)))
        .collect()
}

impl Session {
    /// A session on `game` (a name from [`games::NAMES`]).
    pub fn new(out: Output, game: &str) -> Result<Session, String> {
        Session::with_options(out, game, defaults(), HASH_DEFAULT as usize)
    }

    /// A session on `game` with these games' options and table size (the one place a
    /// session is put together: [`Session::new`] and the light session of `light.rs`).
    fn with_options(
        out: Output,
        game: &str,
        options: HashMap<&'static str, GameOptions>,
        hash_mib: usize,
    ) -> Result<Session, String> {
        let name = games::canonical(game).ok_or_else(|| unknown_game(game))?;
        let engine = build(name, &options, hash_mib, THREADS_DEFAULT as usize)?;
        let (events, inbox) = mpsc::channel();
        Ok(Session {
            out,
            engine,
            options,
            hash_mib,
            threads: THREADS_DEFAULT as usize,
            move_overhead_ms: OVERHEAD_DEFAULT as u64,
            level: Level::FULL,
            search: None,
            queue: VecDeque::new(),
            ending: None,
            events,
            inbox,
            next_task: 0,
        })
    }

    /// The name of the current game.
    pub fn game(&self) -> &'static str {
        self.engine.game_name()
    }

    /// A sender into the session's channel, for a thread that reads its input.
    pub fn sender(&self) -> Sender<Event> {
        self.events.clone()
    }

    /// Carries out one input line that arrived now, after the ends of tasks that have
    /// come meanwhile (for sessions driven in-process, whose lines do not go through
    /// the channel).
    pub fn handle_line(&mut self, line: &str) -> Flow {
        if self.poll() == Flow::Quit {
            return Flow::Quit;
        }
        self.handle_line_at(line, Instant::now())
    }

    /// Carries out one input line that arrived at `received` (a `go`'s clock starts
    /// then, not when the session gets to it): at once, or queued behind a task.
    pub fn handle_line_at(&mut self, line: &str, received: Instant) -> Flow {
        // The transcripts' convention: `>` what the engine was sent, `<` what it says.
        log::debug!("> {line}");
        let item = match parse_command(line) {
            Ok(Some(command)) => Item::Command(command),
            Ok(None) => return self.progress(),
            Err(error) => Item::Error(error.to_string()),
        };
        self.accept(item, received)
    }

    /// Handles one event of the session's channel.
    pub fn handle_event(&mut self, event: Event) -> Flow {
        match event {
            Event::Line(line, received) => self.handle_line_at(&line, received),
            Event::Bad(why) => self.accept(Item::Error(why), Instant::now()),
            Event::End => {
                self.ending.get_or_insert(Ending::EndOfInput);
                self.progress()
            }
            Event::Finished(id) => {
                if self.search.as_ref().is_some_and(|search| search.id == id) {
                    self.reap();
                }
                self.progress()
            }
        }
    }

    /// Handles the events already in the channel, without waiting.
    fn poll(&mut self) -> Flow {
        let mut flow = Flow::Continue;
        while let Ok(event) = self.inbox.try_recv() {
            flow = self.handle_event(event);
        }
        flow
    }

    /// Waits until no task runs and no line waits, handling the tasks' ends as they
    /// come (for sessions driven in-process). Waits for ever on a `go infinite`.
    pub fn wait_for_search(&mut self) {
        while self.search.is_some() || !self.queue.is_empty() {
            match self.inbox.recv() {
                Ok(event) => {
                    self.handle_event(event);
                }
                Err(_) => return,
            }
        }
    }

    /// Stops the running task and every queued one (as `stop` does), and waits until
    /// nothing runs or waits.
    pub fn stop_search(&mut self) {
        self.stop_all();
        self.wait_for_search();
    }

    fn accept(&mut self, item: Item, received: Instant) -> Flow {
        match item {
            Item::Command(Command::Stop) => self.stop_all(),
            Item::Command(Command::IsReady) => self.ready(),
            _ if self.ending.is_some() => {
                log::debug!("ignored: it came after quit or the end of input");
            }
            Item::Command(Command::Quit) => self.ending = Some(Ending::Quit),
            item => self.queue.push_back(Waiting {
                item,
                received,
                waited: self.search.is_some(),
                stopped: false,
            }),
        }
        self.progress()
    }

    /// Moves on: with nothing running, runs the queued lines in order until one starts
    /// a task; with a task running, answers what needs no state at the head of the
    /// queue, and stops the task if what waits for it would stop it. `Flow::Quit` once
    /// `quit` or the end of input has nothing left to wait for.
    fn progress(&mut self) -> Flow {
        loop {
            if let Some(search) = &self.search {
                if self.queue.front().is_some_and(Waiting::answers_at_once) {
                    if let Some(waiting) = self.queue.pop_front() {
                        self.run_waiting(waiting);
                    }
                    continue;
                }
                if self.stops(search.task, !self.queue.is_empty()) {
                    search.stop.store(true, Ordering::Relaxed);
                }
                return Flow::Continue;
            }
            match self.queue.pop_front() {
                Some(waiting) => self.run_waiting(waiting),
                None if self.ending.is_some() => return Flow::Quit,
                None => return Flow::Continue,
            }
        }
    }

    /// `stop`: the running task stops now, a queued one as soon as it starts; returns
    /// once their last lines are out (so that a reply to a later line comes after the
    /// `bestmove`), having run what waited for them.
    fn stop_all(&mut self) {
        for waiting in &mut self.queue {
            waiting.stopped |= waiting.starts_task();
        }
        while let Some(search) = &self.search {
            search.stop.store(true, Ordering::Relaxed);
            // Its `Event::Finished` then finds no such task and is ignored.
            self.reap();
            if self.progress() == Flow::Quit {
                return;
            }
        }
    }

    /// `isready`: at once while a task runs (UCI); when idle, once the current game's
    /// tables are ready (started here if need be).
    fn ready(&mut self) {
        if self.search.is_none() {
            self.engine.await_tables();
        }
        self.out.send(Response::ReadyOk);
    }

    /// Joins the task that has ended.
    fn reap(&mut self) {
        if let Some(handle) = self
            .search
            .take()
            .and_then(|mut search| search.handle.take())
        {
            let _ = handle.join();
        }
    }

    fn run_waiting(&mut self, waiting: Waiting) {
        match waiting.item {
            Item::Error(error) => self.out.send(Response::Error(error)),
            Item::Command(command) => {
                let received = if waiting.waited {
                    Instant::now()
                } else {
                    waiting.received
                };
                self.execute(command, received, waiting.stopped);
            }
        }
    }

    /// Whether a running `task` is to stop for what is pending: a line waiting for it
    /// (`waiting`), `quit` or the end of input (the table of protocol.md, Searching).
    fn stops(&self, task: Task, waiting: bool) -> bool {
        match task {
            Task::Unbounded => waiting || self.ending.is_some(),
            Task::Finite => self.ending == Some(Ending::Quit),
            Task::Bounded => false,
        }
    }

    /// A stop flag for a task about to start: raised already if a `stop` came after its
    /// line, or if `quit` or the end of input would stop it.
    fn stop_flag(&self, task: Task, stopped: bool) -> Arc<AtomicBool> {
        Arc::new(AtomicBool::new(stopped || self.stops(task, false)))
    }

    /// A task's number and the output it writes to, which says when the task ends.
    fn task_output(&mut self) -> (u64, Output) {
        let id = self.next_task;
        self.next_task += 1;
        let token = FinishedToken {
            id,
            events: self.events.clone(),
        };
        (id, self.out.holding(token))
    }

    fn reply(&self, result: Result<Response, String>) {
        match result {
            Ok(response) => self.out.send(response),
            Err(error) => self.out.send(Response::Error(error)),
        }
    }

    fn execute(&mut self, command: Command, received: Instant, stopped: bool) {
        match command {
            Command::Ugi => self.handshake(Response::UgiOk),
            Command::Uci => self.handshake(Response::UciOk),
            Command::NewGame => self.engine.new_game(),
            Command::SetOption { name, value } => {
                let result = self.set_option(&name, value.as_deref());
                if let Err(error) = result {
                    self.out
                        .send(Response::Error(format!("setoption: {error}")));
                }
            }
            Command::Game(name) => {
                if let Err(error) = self.select_game(&name) {
                    self.out.send(Response::Error(format!("game: {error}")));
                }
            }
            Command::Position { start, moves } => {
                if let Err(error) = self.engine.set_position(&start, &moves) {
                    self.out.send(Response::Error(error));
                }
            }
            Command::Go(go) => self.go(go, received, stopped),
            Command::Bench { depth } => {
                let depths = crate::bench::DEPTHS;
                if let Some(depth) = depth.filter(|d| !depths.contains(d)) {
                    self.out.send(Response::Error(format!(
                        "bench: depth {depth} is outside {}..{}",
                        depths.start(),
                        depths.end()
                    )));
                    return;
                }
                self.bench(depth, stopped);
            }
            Command::Query(query) => self.reply(self.engine.query(&query).map(Response::Answer)),
            Command::Display => self.out.send(Response::Text(self.engine.display())),
            Command::Help => self.out.send(Response::Text(help())),
            // Never queued: `accept` carries them out.
            Command::IsReady | Command::Stop | Command::Quit => {}
        }
    }

    fn go(&mut self, go: Go, received: Instant, stopped: bool) {
        let infinite = matches!(&go, Go::Search(limits) if limits.infinite);
        let task = match &go {
            Go::Search(limits) if infinite || !limits.has_limit() => Task::Unbounded,
            Go::Search(_) => Task::Bounded,
            Go::Perft(_) | Go::Solve => Task::Finite,
        };
        let stop = self.stop_flag(task, stopped);
        let (id, out) = self.task_output();
        let settings = GoSettings {
            received,
            move_overhead_ms: self.move_overhead_ms,
            infinite,
            level: self.level,
        };
        // A search short enough to run on this thread has ended when `go` returns; its
        // end is in the channel all the same.
        let handle = self.engine.go(go, settings, Arc::clone(&stop), out);
        self.search = Some(RunningSearch {
            id,
            stop,
            task,
            handle,
        });
    }

    /// `bench` on the worker thread, like a search: `isready` is answered meanwhile,
    /// `stop` and `quit` end it (without the summary line, which would be no signature).
    fn bench(&mut self, depth: Option<u32>, stopped: bool) {
        let stop = self.stop_flag(Task::Finite, stopped);
        let (id, out) = self.task_output();
        let flag = Arc::clone(&stop);
        let job = move || {
            let report = crate::bench::run_until(depth, &flag, &|part| {
                out.send(Response::InfoString(part.to_string()));
            });
            match report {
                Some(report) => out.send(Response::Text(report.summary())),
                None => out.send(Response::InfoString("bench stopped".to_string())),
            }
        };
        let handle = engine::spawn_worker("bench", job);
        self.search = Some(RunningSearch {
            id,
            stop,
            task: Task::Finite,
            handle,
        });
    }

    fn handshake(&self, ok: Response) {
        self.out.send(Response::IdName(ENGINE_NAME.to_string()));
        self.out.send(Response::IdAuthor(ENGINE_AUTHOR.to_string()));
        for option in self.option_lines() {
            self.out.send(Response::Option(option));
        }
        self.out.send(ok);
    }

    /// Every option: the engine's own, then each game option once. An option of one
    /// game shows that game's bounds and value; a number that several games share
    /// (`Size`) shows the union of their bounds with 0 as its minimum and default: 0
    /// sets each game to its own default (see [`shared_spin`]).
    pub fn option_lines(&self) -> Vec<OptionLine> {
        let mut lines = vec![
            OptionLine::Combo {
                name: GAME.to_string(),
                default: self.game().to_string(),
                vars: games::NAMES.iter().map(|s| s.to_string()).collect(),
            },
            option_line(&HASH, OptionValue::Spin(self.hash_mib as i64)),
            option_line(&THREADS, OptionValue::Spin(self.threads as i64)),
            option_line(
                &MOVE_OVERHEAD,
                OptionValue::Spin(self.move_overhead_ms as i64),
            ),
            option_line(&LEVEL, OptionValue::Spin(i64::from(self.level.get()))),
        ];
        // The games' engine options (a table's on/off switch), each once.
        let engine = self.each_once(games::NAMES.iter().copied(), |options| &options.engine);
        for (_, spec, value) in engine {
            lines.push(option_line(&spec, value));
        }
        // The games' options, each at the current game's value if it has it.
        let order = std::iter::once(self.game()).chain(games::NAMES.iter().copied());
        let mut found = self.each_once(order, |options| &options.rules);
        // Keep a stable order: by the game list, whatever the current game.
        found.sort_by_key(|(game, _, _)| games::NAMES.iter().position(|g| g == game));
        for (_, spec, value) in found {
            lines.push(match shared_spin(spec.name) {
                Some(max) => OptionLine::Spin {
                    name: spec.name.to_string(),
                    default: 0,
                    min: 0,
                    max,
                },
                None => option_line(&spec, value),
            });
        }
        lines
    }

    /// Each option of `which` of the games in `order` once, with the first game that
    /// has it and that game's value.
    fn each_once<'a>(
        &self,
        order: impl Iterator<Item = &'a str>,
        which: fn(&GameOptions) -> &Params,
    ) -> Vec<(&'a str, OptionSpec, OptionValue)> {
        let mut seen: Vec<OptionSpec> = Vec::new();
        let mut found = Vec::new();
        for game in order {
            let Some(options) = self.options.get(game) else {
                continue;
            };
            for (spec, value) in which(options).iter() {
                if options::find(&seen, spec.name).is_none() {
                    seen.push(*spec);
                    found.push((game, *spec, value));
                }
            }
        }
        found
    }

    fn select_game(&mut self, name: &str) -> Result<(), String> {
        let name = games::canonical(name).ok_or_else(|| unknown_game(name))?;
        self.engine = build(name, &self.options, self.hash_mib, self.threads)?;
        // A game chosen is a game to be played: its tables start building now, and
        // the next `isready` waits for them. (The game a process starts with waits for
        // the first `isready`, so that an arena that switches games at once never
        // builds a table it does not need while its first games are played.)
        self.engine.prepare_tables();
        Ok(())
    }

    /// `setoption`: the name is resolved against the session's own options, then the
    /// games' engine options, then the games' options ([`options::resolve`] for all).
    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value_text = value.ok_or_else(|| format!("option {} needs a value", quote(name)))?;
        if name.eq_ignore_ascii_case(GAME) {
            return self.select_game(value_text);
        }
        match options::resolve(SESSION_OPTIONS, name, value_text) {
            Ok((spec, value)) => return self.set_session_option(*spec, value.as_i64()),
            Err(ResolveError::Unknown(_)) => {}
            Err(bad) => return Err(bad.to_string()),
        }
        if self.set_engine_option(name, value_text)? {
            return Ok(());
        }
        self.set_game_option(name, value_text)
    }

    /// Sets one of [`SESSION_OPTIONS`] to a value within its bounds.
    fn set_session_option(&mut self, spec: OptionSpec, value: i64) -> Result<(), String> {
        match spec {
            HASH => {
                let mib = value as usize;
                self.engine.set_hash(mib)?;
                self.hash_mib = mib;
            }
            THREADS => {
                let threads = value as usize;
                self.threads = self.engine.set_threads(threads);
                if self.threads < threads {
                    return Err(format!(
                        "Threads: only {} of {threads} threads could be started",
                        self.threads
                    ));
                }
            }
            MOVE_OVERHEAD => self.move_overhead_ms = value as u64,
            LEVEL => {
                self.level = u8::try_from(value)
                    .ok()
                    .and_then(Level::new)
                    .ok_or_else(|| format!("bad value for Level: {value}"))?;
            }
            _ => return Err(format!("unknown option {}", quote(spec.name))),
        }
        Ok(())
    }

    /// A game option: kept for every game that has it and accepts the value, so that
    /// each game's values of a shared option (`Size`) can be set whatever the current
    /// game and in any order; the current game restarts with it.
    fn set_game_option(&mut self, name: &str, value_text: &str) -> Result<(), String> {
        let current = self.game();
        let owners: Vec<&'static str> = games::NAMES
            .iter()
            .copied()
            .filter(|g| options::find(specs_of(g), name).is_some())
            .collect();
        if owners.is_empty() {
            return Err(ResolveError::Unknown(name.to_string()).to_string());
        }
        let mut accepted = Vec::new();
        let mut refused_by_current = None;
        let mut last_error = String::new();
        for game in owners {
            match self.checked_options(game, name, value_text) {
                Ok(rules) => accepted.push((game, rules)),
                Err(error) if game == current => refused_by_current = Some(error),
                Err(error) => last_error = error,
            }
        }
        if accepted.is_empty() {
            return Err(refused_by_current.unwrap_or(last_error));
        }
        if let Some(why) = refused_by_current {
            let kept_for: Vec<&str> = accepted.iter().map(|(game, _)| *game).collect();
            self.out.send(Response::InfoString(format!(
                "setoption: {} {} is kept for {}; {current} keeps its value ({why})",
                quote(name),
                quote(value_text),
                kept_for.join(", ")
            )));
        }
        let resets_current = accepted.iter().any(|(game, _)| *game == current);
        for (game, rules) in accepted {
            if let Some(options) = self.options.get_mut(game) {
                options.rules = rules;
            }
        }
        if resets_current {
            self.engine = build(current, &self.options, self.hash_mib, self.threads)?;
        }
        Ok(())
    }

    /// Sets an engine option of the games that have one called `name`, the current
    /// game's engine at once (and starts its tables, if the option turned them on).
    /// `Ok(false)` when no game has such an engine option.
    fn set_engine_option(&mut self, name: &str, text: &str) -> Result<bool, String> {
        let current = self.game();
        let mut found = false;
        for game in games::NAMES {
            let Some(options) = self.options.get_mut(game) else {
                continue;
            };
            match options.engine.set(name, text) {
                Ok(_) => found = true,
                Err(ResolveError::Unknown(_)) => continue,
                Err(bad) => return Err(bad.to_string()),
            }
            if *game == current {
                self.engine.set_engine_options(&options.engine);
                self.engine.prepare_tables();
            }
        }
        Ok(found)
    }

    /// The options of `game` with option `name` set to `text`, if valid.
    fn checked_options(&self, game: &str, name: &str, text: &str) -> Result<Params, String> {
        let mut rules = match self.options.get(game) {
            Some(options) => options.rules.clone(),
            None => return Err(unknown_game(game)),
        };
        // 0 for an option several games share: this game's own default.
        let set = if shared_spin(name).is_some() && is_zero(text) {
            rules.reset(name)
        } else {
            rules.set(name, text)
        };
        let spec = set.map_err(|error| match error {
            ResolveError::BadValue { name, why } => {
                format!("bad value for {name} of {game}: {why}")
            }
            unknown => unknown.to_string(),
        })?;
        games::visit(game, CheckConfig(rules.clone()))
            .unwrap_or(Ok(()))
            .map_err(|why| format!("bad value for {} of {game}: {why}", spec.name))?;
        Ok(rules)
    }
}

/// Whether `text` is the number 0 (`0`, `00`).
fn is_zero(text: &str) -> bool {
    let text = text.trim();
    !text.is_empty() && text.bytes().all(|b| b == b'0')
}

/// For a number option that several games have (`Size`: Talpa 4–10, Fabrik 7–11), the
/// largest maximum among them; `None` for any other option. Such an option is
/// advertised as `default 0 min 0 max <that>`, 0 meaning each game's own default: every
/// value of every game is within what `ugi` says, and an arena that sends back the
/// advertised default changes no game.
fn shared_spin(name: &str) -> Option<i64> {
    let owners: Vec<&OptionSpec> = games::NAMES
        .iter()
        .filter_map(|game| options::find(specs_of(game), name))
        .collect();
    if owners.len() < 2 {
        return None;
    }
    owners
        .iter()
        .map(|spec| match spec.kind {
            OptionKind::Spin { max, .. } => Some(max),
            OptionKind::Check { .. } => None,
        })
        .try_fold(i64::MIN, |top, max| Some(top.max(max?)))
}

fn unknown_game(name: &str) -> String {
    format!(
        "unknown game {} (the games are: {})",
        quote(name),
        games::NAMES.join(", ")
    )
}

fn build(
    game: &str,
    options: &HashMap<&'static str, GameOptions>,
    hash_mib: usize,
    threads: usize,
) -> Result<Box<dyn Engine>, String> {
    let options = options
        .get(game)
        .cloned()
        .ok_or_else(|| unknown_game(game))?;
    let builder = BuildEngine {
        options,
        hash_mib,
        threads,
    };
    games::visit(game, builder).unwrap_or_else(|| Err(unknown_game(game)))
}

/// The `option` line of an option at `value`.
fn option_line(spec: &OptionSpec, value: OptionValue) -> OptionLine {
    match spec.kind {
        OptionKind::Spin { min, max, .. } => OptionLine::Spin {
            name: spec.name.to_string(),
            default: value.as_i64(),
            min,
            max,
        },
        OptionKind::Check { .. } => OptionLine::Check {
            name: spec.name.to_string(),
            default: value.as_i64() != 0,
        },
    }
}

impl Drop for Session {
    /// Stops the running task and waits for it; queued lines are dropped.
    fn drop(&mut self) {
        if let Some(search) = &self.search {
            search.stop.store(true, Ordering::Relaxed);
        }
        self.reap();
    }
}

/// The line printed first when standard input is a terminal (never in a pipe).
fn banner(game: &str) -> String {
    format!(
        "{ENGINE_NAME}: a UGI engine for Linetris, Talpa, Fabrik, Frozen Forest and \
         Neutreeko (now {game}). Type 'help' for the commands, 'quit' to leave."
    )
}

/// The reply to `help`: plain lines, like `d`'s.
fn help() -> String {
    let games = games::NAMES.join(", ");
    format!(
        "Commands (one a line; protocol.md describes them all):
  ugi                          the options, then ugiok
  isready                      readyok once the engine is prepared
  game NAME                    play NAME: {games}
  setoption name N value V     set an option ('ugi' lists them)
  uginewgame                   forget what earlier searches learnt
  position startpos|fen F [moves M1 M2 ...]
  go [depth D] [nodes N] [movetime MS] [p1time MS p2time MS] [infinite]
  go solve | go perft N        prove the value | count the move sequences
  stop                         end the search now: its bestmove
  query fen|moves|p1turn|gameover|result
  d                            the board
  bench [DEPTH]                the search's node-count signature
  quit"
    )
}

/// Speaks the protocol on standard input and output until `quit` or the end of input.
///
/// A thread reads standard input, stamps each line with its arrival time and sends it
/// down the session's channel, so that input is read whatever the session does (a
/// `go` started on this thread, a table awaited). It costs one wake-up between the
/// arrival of a line and the session; the clock of a `go` runs from the arrival.
pub fn run(game: &str) -> Result<(), String> {
    let mut session = Session::new(Output::stdout(), game)?;
    let stdin = std::io::stdin();
    if stdin.is_terminal() {
        session.out.send(Response::Text(banner(session.game())));
    }
    let events = session.sender();
    std::thread::Builder::new()
        .name("input".to_string())
        .spawn(move || {
            let mut reader = stdin.lock();
            loop {
                let event = read_line(&mut reader);
                let end = matches!(event, Event::End);
                if events.send(event).is_err() || end {
                    return;
                }
            }
        })
        .map_err(|error| format!("cannot start the thread that reads input: {error}"))?;
    // The session holds a sender of its own, so the channel never closes.
    while let Ok(event) = session.inbox.recv() {
        if session.handle_event(event) == Flow::Quit {
            break;
        }
    }
    Ok(())
}

/// Reads one line (bytes, so that bad UTF-8 and huge lines are reported, not fatal),
/// stamped with its arrival; [`Event::End`] at the end of input or on a read error.
fn read_line(reader: &mut impl BufRead) -> Event {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return Event::End,
        };
        if buffer.is_empty() {
            if line.is_empty() && !too_long {
                return Event::End;
            }
            break;
        }
        let (chunk, done) = match buffer.iter().position(|&b| b == b'\n') {
            Some(end) => (&buffer[..end], Some(end + 1)),
            None => (buffer, None),
        };
        if line.len() + chunk.len() <= MAX_LINE_BYTES {
            line.extend_from_slice(chunk);
        } else {
            too_long = true;
        }
        let used = done.unwrap_or(buffer.len());
        reader.consume(used);
        if done.is_some() {
            break;
        }
    }
    let received = Instant::now();
    if too_long {
        Event::Bad(format!(
            "line longer than {MAX_LINE_BYTES} bytes ignored (it began {})",
            quote(&String::from_utf8_lossy(&line[..line.len().min(40)]))
        ))
    } else {
        match String::from_utf8(line) {
            Ok(text) => Event::Line(text, received),
            Err(error) => Event::Bad(format!(
                "line is not valid UTF-8 (byte {} is bad): {}",
                error.utf8_error().valid_up_to(),
                quote(&String::from_utf8_lossy(error.as_bytes()))
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn session(game: &str) -> Session {
        let (out, _) = Output::capture();
        Session::new(out, game).expect("a game")
    }

    /// The spin bounds and default `ugi` advertises for `name`.
    fn advertised(session: &Session, name: &str) -> (i64, i64, i64) {
        session
            .option_lines()
            .into_iter()
            .find_map(|line| match line {
                OptionLine::Spin {
                    name: found,
                    default,
                    min,
                    max,
                } if found == name => Some((default, min, max)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("{name} is not advertised"))
    }

    #[test]
    fn only_size_is_shared() {
        assert_eq!(shared_spin("Size"), Some(11));
        assert_eq!(shared_spin("size"), Some(11));
        for name in ["Rows", "Cols", "MaxPlies", "LineLength", "Trees", "Hash"] {
            assert_eq!(shared_spin(name), None, "{name}");
        }
        assert!(is_zero("0") && is_zero(" 00 ") && !is_zero("") && !is_zero("+0"));
    }

    /// Issue 32.4: whatever game a session starts on, every value of every game's
    /// options is within what the first `ugi` advertises, and is accepted.
    #[test]
    fn every_value_of_every_game_is_advertised_and_settable() {
        for &start in games::NAMES {
            let first = session(start);
            for &game in games::NAMES {
                for spec in specs_of(game) {
                    let OptionKind::Spin { min, max, .. } = spec.kind else {
                        continue;
                    };
                    let (default, low, high) = advertised(&first, spec.name);
                    assert!(low <= default && default <= high, "{}", spec.name);
                    assert!(
                        low <= min && max <= high,
                        "{game} {} from {start}",
                        spec.name
                    );
                }
            }
            for &game in games::NAMES {
                let mut session = session(start);
                for spec in specs_of(game) {
                    let OptionKind::Spin { min, max, .. } = spec.kind else {
                        continue;
                    };
                    for value in min..=max {
                        // A value the game's own rules refuse (Talpa's odd sizes) is
                        // checked by the game, not by the advertised range.
                        if session
                            .checked_options(game, spec.name, &value.to_string())
                            .is_err()
                        {
                            continue;
                        }
                        let result = session.set_option(spec.name, Some(&value.to_string()));
                        assert!(result.is_ok(), "{game} {} {value}: {result:?}", spec.name);
                        assert_eq!(
                            session.options[game].rules.spin(spec.name),
                            Ok(value),
                            "{game} from {start}"
                        );
                    }
                }
            }
        }
    }

    /// An arena that sends back every advertised default changes no game.
    #[test]
    fn echoing_the_advertised_defaults_changes_no_game() {
        for &game in games::NAMES {
            let mut session = session(game);
            let echoed: Vec<(String, String)> = session
                .option_lines()
                .into_iter()
                .filter_map(|line| match line {
                    OptionLine::Spin { name, default, .. } => Some((name, default.to_string())),
                    OptionLine::Check { name, default } => Some((name, default.to_string())),
                    OptionLine::Combo { .. } => None,
                })
                .collect();
            for (name, value) in &echoed {
                let result = session.set_option(name, Some(value));
                assert!(result.is_ok(), "{game}: {name} {value}: {result:?}");
            }
            assert_eq!(session.options, defaults(), "{game}");
            assert_eq!(session.game(), game);
        }
    }
}
