//! The session: the line loop that turns commands into calls on the engine of the
//! current game, and owns the search worker.
//!
//! - [`Session::handle_line`] carries out one input line; errors become
//!   `info string error: …` and leave the previous state as it was (except an illegal
//!   move inside `position`, SPEC §3).
//! - A search (and `bench`) runs on its own thread with an atomic stop flag, so
//!   `isready`, `query`, `d` and `stop` are answered while it thinks. Any other command
//!   first lets a task that ends by itself finish, or stops one that never would
//!   (`go infinite`, a bare `go`), so every `go` gets exactly one `bestmove`.
//! - `quit` and the end of input let a `go` with limits finish; `quit` stops
//!   everything else at once (`go perft`, `go solve`, `bench`); see [`Task`].
//! - Preparation (the transposition table, a game's tables) is done when an option or
//!   the game is set, and `isready` answers once it is complete.
//! - [`run`] reads standard input on the session's own thread and stamps every line
//!   with its arrival time (a `go`'s clock runs from there).

pub mod engine;
mod light;
pub mod output;

use std::collections::HashMap;
use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::Instant;

pub use engine::{BuildEngine, Engine, GoSettings};
pub use output::Output;

use crate::game::{OptionError, OptionKind, OptionSpec, quote};
use crate::games::{self, GameVisitor};
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
    /// (`quit` and the end of input included) lets it finish.
    Bounded,
    /// `go perft`, `go solve`, `bench`: they end by themselves, and other commands and
    /// the end of input wait for them, but `quit` stops them at once.
    Finite,
    /// `go infinite` or a bare `go`: never ends by itself; every command stops it.
    Unbounded,
}

struct RunningSearch {
    stop: Arc<AtomicBool>,
    task: Task,
    handle: Option<JoinHandle<()>>,
}

/// One protocol session.
pub struct Session {
    out: Output,
    engine: Box<dyn Engine>,
    /// The option values of every game, in the order of its `option_specs`.
    game_values: HashMap<&'static str, Vec<i64>>,
    /// The engine option values of every game, in the order of its `engine_options`.
    engine_values: HashMap<&'static str, Vec<i64>>,
    hash_mib: usize,
    /// The `Threads` option: threads per search.
    threads: usize,
    move_overhead_ms: u64,
    /// The `Level` option: playing strength, 10 = full (search/level.rs).
    level: Level,
    search: Option<RunningSearch>,
}

/// The option specs of a game (for the option list and validation).
struct Specs;
impl GameVisitor for Specs {
    type Output = &'static [OptionSpec];
    fn visit<G: Strategy>(self) -> Self::Output {
        G::option_specs()
    }
}

/// The engine option specs of a game (such as a table's on/off switch).
struct EngineSpecs;
impl GameVisitor for EngineSpecs {
    type Output = &'static [OptionSpec];
    fn visit<G: Strategy>(self) -> Self::Output {
        G::engine_options()
    }
}

/// Checks option values against a game's cross-constraints without building anything.
struct CheckConfig(Vec<i64>);
impl GameVisitor for CheckConfig {
    type Output = Result<(), OptionError>;
    fn visit<G: Strategy>(self) -> Self::Output {
        G::config(&self.0).map(|_| ())
    }
}

fn specs_of(game: &str) -> &'static [OptionSpec] {
    games::visit(game, Specs).unwrap_or(&[])
}

fn engine_specs_of(game: &str) -> &'static [OptionSpec] {
    games::visit(game, EngineSpecs).unwrap_or(&[])
}

/// Every option of every game at its default, by game.
fn defaults(specs: fn(&str) -> &'static [OptionSpec]) -> HashMap<&'static str, Vec<i64>> {
    games::NAMES
        .iter()
        .map(|&name| {
            let values = specs(name)
                .iter()
                .map(|spec| spec.kind.default_value())
                .collect();
            (name, values)
        })
        .collect()
}

impl Session {
    /// A session on `game` (a name from [`games::NAMES`]).
    pub fn new(out: Output, game: &str) -> Result<Session, String> {
        let name = games::canonical(game).ok_or_else(|| unknown_game(game))?;
        let game_values = defaults(specs_of);
        let engine_values = defaults(engine_specs_of);
        let engine = build(
            name,
            &game_values,
            &engine_values,
            HASH_DEFAULT as usize,
            THREADS_DEFAULT as usize,
        )?;
        Ok(Session {
            out,
            engine,
            game_values,
            engine_values,
            hash_mib: HASH_DEFAULT as usize,
            threads: THREADS_DEFAULT as usize,
            move_overhead_ms: OVERHEAD_DEFAULT as u64,
            level: Level::FULL,
            search: None,
        })
    }

    /// The name of the current game.
    pub fn game(&self) -> &'static str {
        self.engine.game_name()
    }

    /// Carries out one input line that arrived now.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.handle_line_at(line, Instant::now())
    }

    /// Carries out one input line that arrived at `received` (a `go`'s clock starts
    /// then, not when the session gets to it).
    pub fn handle_line_at(&mut self, line: &str, received: Instant) -> Flow {
        log::debug!("< {line}");
        let command = match parse_command(line) {
            Ok(Some(command)) => command,
            Ok(None) => return Flow::Continue,
            Err(error) => {
                self.out.send(Response::Error(error.to_string()));
                return Flow::Continue;
            }
        };
        self.reap_finished_search();
        match command {
            Command::IsReady => {
                // Ready means prepared: a game's tables are started if need be and
                // awaited here. The transposition table was allocated when the game or
                // `Hash` was set.
                self.engine.await_tables();
                self.out.send(Response::ReadyOk);
            }
            Command::Stop => self.stop_search(),
            Command::Quit => {
                self.quit();
                return Flow::Quit;
            }
            Command::Query(query) => self.reply(self.engine.query(&query).map(Response::Answer)),
            Command::Display => self.out.send(Response::Text(self.engine.display())),
            other => {
                // Everything else changes state or starts work: not during a search. A
                // search with limits is let finish (so piped scripts run every `go` in
                // full); `go infinite` is stopped.
                self.finish_search();
                self.execute(other, received);
            }
        }
        Flow::Continue
    }

    /// Stops a running search and waits for its `bestmove`.
    pub fn stop_search(&mut self) {
        if let Some(mut search) = self.search.take() {
            search.stop.store(true, Ordering::Relaxed);
            if let Some(handle) = search.handle.take() {
                let _ = handle.join();
            }
        }
    }

    /// Lets a task that ends by itself finish; stops one that never would.
    pub fn finish_search(&mut self) {
        match self.search.as_ref().map(|search| search.task) {
            Some(Task::Unbounded) => self.stop_search(),
            Some(Task::Bounded | Task::Finite) => self.wait_for_search(),
            None => {}
        }
    }

    /// What `quit` does before the session ends: a `go` with limits has its say (so
    /// that a piped script's last `go` runs in full); anything else is stopped.
    pub fn quit(&mut self) {
        match self.search.as_ref().map(|search| search.task) {
            Some(Task::Bounded) => self.wait_for_search(),
            Some(_) => self.stop_search(),
            None => {}
        }
    }

    /// Waits for a running search to end by itself.
    pub fn wait_for_search(&mut self) {
        if let Some(handle) = self
            .search
            .take()
            .and_then(|mut search| search.handle.take())
        {
            let _ = handle.join();
        }
    }

    fn reap_finished_search(&mut self) {
        if let Some(search) = &self.search
            && search.handle.as_ref().is_none_or(|h| h.is_finished())
        {
            self.wait_for_search();
        }
    }

    fn reply(&self, result: Result<Response, String>) {
        match result {
            Ok(response) => self.out.send(response),
            Err(error) => self.out.send(Response::Error(error)),
        }
    }

    fn execute(&mut self, command: Command, received: Instant) {
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
            Command::Go(go) => self.go(go, received),
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
                self.bench(depth);
            }
            Command::IsReady
            | Command::Stop
            | Command::Quit
            | Command::Query(_)
            | Command::Display => {}
        }
    }

    fn go(&mut self, go: Go, received: Instant) {
        let infinite = matches!(&go, Go::Search(limits) if limits.infinite);
        let task = match &go {
            Go::Search(limits) if infinite || !limits.has_limit() => Task::Unbounded,
            Go::Search(_) => Task::Bounded,
            Go::Perft(_) | Go::Solve => Task::Finite,
        };
        let stop = Arc::new(AtomicBool::new(false));
        let settings = GoSettings {
            received,
            move_overhead_ms: self.move_overhead_ms,
            infinite,
            level: self.level,
        };
        let handle = self
            .engine
            .go(go, settings, Arc::clone(&stop), self.out.clone());
        self.search = Some(RunningSearch { stop, task, handle });
    }

    /// `bench` on the worker thread, like a search: `isready` is answered meanwhile,
    /// `stop` and `quit` end it (without the summary line, which would be no signature).
    fn bench(&mut self, depth: Option<u32>) {
        let stop = Arc::new(AtomicBool::new(false));
        let out = self.out.clone();
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

    /// Every option: the engine's own, then each game option once (an option that
    /// several games share, such as `Size`, shows the current game's bounds if it has
    /// it, else the first game's that does).
    pub fn option_lines(&self) -> Vec<OptionLine> {
        let mut lines = vec![
            OptionLine::Combo {
                name: "Game".to_string(),
                default: self.game().to_string(),
                vars: games::NAMES.iter().map(|s| s.to_string()).collect(),
            },
            OptionLine::Spin {
                name: "Hash".to_string(),
                default: self.hash_mib as i64,
                min: 1,
                max: HASH_MAX,
            },
            OptionLine::Spin {
                name: "Threads".to_string(),
                default: self.threads as i64,
                min: 1,
                max: MAX_THREADS as i64,
            },
            OptionLine::Spin {
                name: "MoveOverhead".to_string(),
                default: self.move_overhead_ms as i64,
                min: 0,
                max: OVERHEAD_MAX,
            },
            // Level: playing strength (search/level.rs).
            OptionLine::Spin {
                name: "Level".to_string(),
                default: i64::from(self.level.get()),
                min: i64::from(Level::MIN),
                max: i64::from(Level::MAX),
            },
        ];
        // The games' engine options (a table's on/off switch), each once.
        let mut seen: Vec<&str> = Vec::new();
        for &game in games::NAMES {
            for (index, spec) in engine_specs_of(game).iter().enumerate() {
                if seen.iter().any(|s| s.eq_ignore_ascii_case(spec.name)) {
                    continue;
                }
                seen.push(spec.name);
                let value = self.engine_values[game].get(index).copied();
                lines.push(option_line(
                    spec,
                    value.unwrap_or(spec.kind.default_value()),
                ));
            }
        }
        let mut seen: Vec<&str> = Vec::new();
        let order = std::iter::once(self.game()).chain(games::NAMES.iter().copied());
        let mut found: Vec<(&str, OptionSpec, i64)> = Vec::new();
        for game in order {
            for (index, spec) in specs_of(game).iter().enumerate() {
                if seen.iter().any(|s| s.eq_ignore_ascii_case(spec.name)) {
                    continue;
                }
                seen.push(spec.name);
                let value = self.game_values[game].get(index).copied();
                found.push((game, *spec, value.unwrap_or(spec.kind.default_value())));
            }
        }
        // Keep a stable order: by the game list, whatever the current game.
        found.sort_by_key(|(game, _, _)| games::NAMES.iter().position(|g| g == game));
        for (_, spec, value) in found {
            lines.push(option_line(&spec, value));
        }
        lines
    }

    fn select_game(&mut self, name: &str) -> Result<(), String> {
        let name = games::canonical(name).ok_or_else(|| unknown_game(name))?;
        self.engine = build(
            name,
            &self.game_values,
            &self.engine_values,
            self.hash_mib,
            self.threads,
        )?;
        // A game chosen is a game to be played: its tables start building now, and
        // the next `isready` waits for them. (The game a process starts with waits for
        // the first `isready`, so that an arena that switches games at once never
        // builds a table it does not need while its first games are played.)
        self.engine.prepare_tables();
        Ok(())
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> Result<(), String> {
        let value_text = value.ok_or_else(|| format!("option {} needs a value", quote(name)))?;
        match name.to_ascii_lowercase().as_str() {
            "game" => return self.select_game(value_text),
            "hash" => {
                let mib = spin("Hash", value_text, 1, HASH_MAX)?;
                self.hash_mib = mib as usize;
                self.engine.set_hash(self.hash_mib);
                return Ok(());
            }
            "threads" => {
                let threads = spin("Threads", value_text, 1, MAX_THREADS as i64)? as usize;
                self.threads = self.engine.set_threads(threads);
                if self.threads < threads {
                    return Err(format!(
                        "Threads: only {} of {threads} threads could be started",
                        self.threads
                    ));
                }
                return Ok(());
            }
            "moveoverhead" => {
                self.move_overhead_ms = spin("MoveOverhead", value_text, 0, OVERHEAD_MAX)? as u64;
                return Ok(());
            }
            // Level: playing strength (search/level.rs).
            "level" => {
                let (min, max) = (i64::from(Level::MIN), i64::from(Level::MAX));
                let n = spin("Level", value_text, min, max)?;
                self.level = u8::try_from(n)
                    .ok()
                    .and_then(Level::new)
                    .ok_or_else(|| format!("bad value for Level: {n}"))?;
                return Ok(());
            }
            _ => {}
        }
        if self.set_engine_option(name, value_text)? {
            return Ok(());
        }
        // A game option: it belongs to the current game if that game has it; else it
        // is kept for every game that has it and accepts the value.
        let current = self.game();
        let owners: Vec<&'static str> = if specs_of(current)
            .iter()
            .any(|s| s.name.eq_ignore_ascii_case(name))
        {
            vec![current]
        } else {
            games::NAMES
                .iter()
                .copied()
                .filter(|g| {
                    specs_of(g)
                        .iter()
                        .any(|s| s.name.eq_ignore_ascii_case(name))
                })
                .collect()
        };
        if owners.is_empty() {
            return Err(format!("unknown option {}", quote(name)));
        }
        let mut accepted = Vec::new();
        let mut last_error = String::new();
        for game in owners {
            match self.checked_values(game, name, value_text) {
                Ok(values) => accepted.push((game, values)),
                Err(error) => last_error = error,
            }
        }
        if accepted.is_empty() {
            return Err(last_error);
        }
        let resets_current = accepted.iter().any(|(game, _)| *game == current);
        for (game, values) in accepted {
            self.game_values.insert(game, values);
        }
        if resets_current {
            self.engine = build(
                current,
                &self.game_values,
                &self.engine_values,
                self.hash_mib,
                self.threads,
            )?;
        }
        Ok(())
    }

    /// Sets an engine option of the games that have one called `name`, the current
    /// game's engine at once (and starts its tables, if the option turned them on).
    /// `Ok(false)` when no game has such an engine option.
    fn set_engine_option(&mut self, name: &str, text: &str) -> Result<bool, String> {
        let mut found = false;
        for &game in games::NAMES {
            let specs = engine_specs_of(game);
            let Some(index) = specs.iter().position(|s| s.name.eq_ignore_ascii_case(name)) else {
                continue;
            };
            let spec = specs[index];
            let value = spec
                .kind
                .parse_value(text)
                .map_err(|why| format!("bad value for {}: {why}", spec.name))?;
            if let Some(values) = self.engine_values.get_mut(game) {
                values[index] = value;
            }
            if game == self.game() {
                self.engine.set_engine_option(index, value);
                self.engine.prepare_tables();
            }
            found = true;
        }
        Ok(found)
    }

    /// The values of `game` with option `name` set to `text`, if valid.
    fn checked_values(&self, game: &str, name: &str, text: &str) -> Result<Vec<i64>, String> {
        let specs = specs_of(game);
        let index = specs
            .iter()
            .position(|s| s.name.eq_ignore_ascii_case(name))
            .ok_or_else(|| format!("unknown option {}", quote(name)))?;
        let spec = specs[index];
        let value = spec
            .kind
            .parse_value(text)
            .map_err(|why| format!("bad value for {} of {game}: {why}", spec.name))?;
        let mut values = self.game_values[game].clone();
        values[index] = value;
        games::visit(game, CheckConfig(values.clone()))
            .unwrap_or(Ok(()))
            .map_err(|why| format!("bad value for {} of {game}: {why}", spec.name))?;
        Ok(values)
    }
}

fn spin(name: &str, text: &str, min: i64, max: i64) -> Result<i64, String> {
    OptionKind::Spin {
        min,
        max,
        default: min,
    }
    .parse_value(text)
    .map_err(|why| format!("bad value for {name}: {why}"))
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
    values: &HashMap<&'static str, Vec<i64>>,
    engine_values: &HashMap<&'static str, Vec<i64>>,
    hash_mib: usize,
    threads: usize,
) -> Result<Box<dyn Engine>, String> {
    let builder = BuildEngine {
        values: values.get(game).cloned().unwrap_or_default(),
        engine_values: engine_values.get(game).cloned().unwrap_or_default(),
        hash_mib,
        threads,
    };
    games::visit(game, builder).unwrap_or_else(|| Err(unknown_game(game)))
}

/// The `option` line of an option at `value`.
fn option_line(spec: &OptionSpec, value: i64) -> OptionLine {
    match spec.kind {
        OptionKind::Spin { min, max, .. } => OptionLine::Spin {
            name: spec.name.to_string(),
            default: value,
            min,
            max,
        },
        OptionKind::Check { .. } => OptionLine::Check {
            name: spec.name.to_string(),
            default: value != 0,
        },
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.stop_search();
    }
}

/// One line of input as the reader thread sends it.
enum Input {
    /// A line and when it arrived.
    Line(String, Instant),
    /// A line that could not be read as text; the message says why.
    Bad(String),
}

/// Speaks the protocol on standard input and output until `quit` or the end of input.
///
/// The session reads standard input itself: a search runs on its own thread, so the
/// session is free to read while it thinks. A reader thread handing lines over would add
/// one more thread to wake between the arrival of `go` and the search, and on a busy
/// machine every wake-up may wait for a time slice of another process.
pub fn run(game: &str) -> Result<(), String> {
    let mut session = Session::new(Output::stdout(), game)?;
    let stdin = std::io::stdin();
    let mut reader = stdin.lock();
    while let Some(input) = read_line(&mut reader) {
        let flow = match input {
            Input::Line(line, received) => session.handle_line_at(&line, received),
            Input::Bad(why) => {
                session.out.send(Response::Error(why));
                Flow::Continue
            }
        };
        if flow == Flow::Quit {
            return Ok(());
        }
    }
    // The end of input means quit, once a task that ends by itself has had its say.
    session.finish_search();
    Ok(())
}

/// Reads one line (bytes, so that bad UTF-8 and huge lines are reported, not fatal);
/// `None` at the end of input or on a read error.
fn read_line(reader: &mut impl BufRead) -> Option<Input> {
    let mut line = Vec::new();
    let mut too_long = false;
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(_) => return None,
        };
        if buffer.is_empty() {
            if line.is_empty() && !too_long {
                return None;
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
    Some(if too_long {
        Input::Bad(format!(
            "line longer than {MAX_LINE_BYTES} bytes ignored (it began {})",
            quote(&String::from_utf8_lossy(&line[..line.len().min(40)]))
        ))
    } else {
        match String::from_utf8(line) {
            Ok(text) => Input::Line(text, received),
            Err(error) => Input::Bad(format!(
                "line is not valid UTF-8 (byte {} is bad): {}",
                error.utf8_error().valid_up_to(),
                quote(&String::from_utf8_lossy(error.as_bytes()))
            )),
        }
    })
}
