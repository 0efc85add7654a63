//! Linetris's exact knowledge: the Connect Four solver ([`super::solver`]) for positions
//! under plain Connect Four rules (RowClear off), for `go solve` and, on positions with
//! few empty cells, as a probe inside the search; and with RowClear on, the retrograde
//! table ([`super::retro`]) of the board when it has one, for `go solve`, probes and the
//! root move.
//!
//! The retrograde table is made in the background by [`Oracle::prepare`] (`isready`
//! waits for it): loaded from its cache file ([`retro::cache`]) when there is one, of
//! any board; else built, for boards whose build needs at most [`RETRO_BUILD_BYTES`]
//! (4 × 4 to 7 × 4, 4 × 5, 5 × 5, 4 × 6: 0.1 s to half a minute), and saved to the
//! cache file when it has at least [`RETRO_CACHE_ENTRIES`] entries (7 × 4, 5 × 5, 4 × 6,
//! the ones that take seconds). A bad cache file is logged and rebuilt over. Dropping
//! the oracle (another board chosen) cancels a build under way.
//!
//! The oracle owns its solvers (their tables are large: 42 MB for boards that fit 64
//! bits), made on first use or by [`Oracle::prepare`] and kept for the engine's life.
//! Search threads share it, so each solver sits behind a lock; a probe does not wait
//! for a solver another thread is using.
//!
//! With the `Tablebase` option off, none of this is made or used: the engine plays
//! Connect Four and the row clear by its search alone.

use std::path::PathBuf;
use std::sync::atomic::AtomicBool;
use std::sync::{Mutex, MutexGuard, PoisonError, TryLockError};
use std::time::Instant;

use super::retro::{self, Table, cache};
use super::solver::{self, Solver};
use super::{Config, Linetris, Move, PROBE_EMPTIES};
use crate::game::{Game, Outcome, Value};
use crate::search::exact::Background;
use crate::search::{Oracle, RootProbe, Solution, Switch};

/// On the clock, Connect Four positions with at most this many empty cells go to the
/// solver first. On the standard board it solves 28 empty cells in about 10 ms and 32
/// in about 100 (docs/solved.md), so at 32 it often runs out of time; still 32 played
/// better than 28, and 36 no better than 32 (docs/experiments/linetris.md).
const CLOCK_EMPTIES: u32 = 32;

/// The largest retrograde table the oracle builds when no cache file has it (memory
/// during the build, two bytes an entry): 4 × 5 17 MiB, 7 × 4 126 MiB, 5 × 5 291 MiB,
/// 4 × 6 302 MiB. Boards beyond it (8 × 4 takes 1 GiB, 6 × 5 5 GiB) are built only by
/// hand (`cargo run --release --example linetris_retro 8 4 --save`); the engine loads
/// their cache file when there is one.
pub const RETRO_BUILD_BYTES: u64 = 512 << 20;

/// Tables of at least this many entries are saved to the cache file once built: they
/// take seconds to build (7 × 4, 5 × 5, 4 × 6). Smaller ones (6 × 4 and 4 × 5, about a
/// second) are built on every start.
pub const RETRO_CACHE_ENTRIES: u64 = 1 << 24;

/// Where a retrograde table came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TableSource {
    Loaded,
    Built,
}

/// The solvers of one engine.
pub struct LinetrisOracle {
    /// Whether the config is plain Connect Four (RowClear off), and its board.
    connect_four: bool,
    rows: u32,
    cols: u32,
    small: Mutex<Option<Solver<u64>>>,
    large: Mutex<Option<Solver<u128>>>,
    /// With RowClear on and a board that has a table, its retrograde table (dropping
    /// the oracle cancels a build under way).
    retro: Option<Background<(Table, TableSource)>>,
    /// The directory of the cache files, if any.
    cache_dir: Option<PathBuf>,
    /// The `Tablebase` option.
    switch: Switch,
}

impl LinetrisOracle {
    pub fn new(config: &Config) -> Self {
        Self::with_cache_dir(config, cache::dir())
    }

    /// The oracle with its cache files in `dir` (`None`: no cache).
    pub fn with_cache_dir(config: &Config, dir: Option<PathBuf>) -> Self {
        let (rows, cols) = (config.rows, config.cols);
        // A board gets a table when the engine may build it, or a cache file has it.
        let retro = config.row_clear
            && retro::fits(rows, cols)
            && (retro::build_bytes(rows, cols) <= RETRO_BUILD_BYTES
                || dir
                    .as_ref()
                    .is_some_and(|dir| cache::path(dir, rows, cols).is_file()));
        LinetrisOracle {
            connect_four: !config.row_clear,
            rows,
            cols,
            small: Mutex::new(None),
            large: Mutex::new(None),
            retro: retro.then(Background::new),
            cache_dir: dir,
            switch: Switch::default(),
        }
    }

    /// The retrograde table, once loaded or built.
    pub fn retro_table(&self) -> Option<&Table> {
        self.retro.as_ref()?.get().map(|(table, _)| table)
    }

    /// Whether the retrograde table was loaded from its cache file or built.
    pub fn retro_source(&self) -> Option<TableSource> {
        self.retro.as_ref()?.get().map(|(_, source)| *source)
    }

    /// The value of a RowClear position under the rules, from the table's value, which
    /// ignores the ply limit. A draw stays a draw under any limit. A win or loss in n
    /// plies stands when it ends by the limit; when it does not, the position is a
    /// draw, ended by the limit: n is the fastest win the winner can force, so no win
    /// comes sooner, and the loser, who cannot force a win without a limit, cannot
    /// with one either (a win by the limit is a win without it).
    fn retro_probe(table: &Table, state: &Linetris) -> Option<Value> {
        let value = table.probe(state)?;
        let (plies, limit) = (u64::from(state.plies), u64::from(state.rules.limit));
        Some(match value {
            Value::Draw(_) => Value::Draw(0),
            v if plies + u64::from(v.plies()) <= limit => v,
            _ => Value::Draw(limit.saturating_sub(plies) as u32),
        })
    }

    /// `go solve` from the table: the value and the best move (fastest win, a draw,
    /// slowest loss), repetition aside.
    fn retro_solve(table: &Table, state: &Linetris) -> Option<Solution<Move>> {
        if let Some(done) = finished(state) {
            return Some(done);
        }
        let value = Self::retro_probe(table, state)?;
        let pos = table.pos_of(state)?;
        let (best, _) = table.best(&pos)?;
        Some(Solution {
            value,
            best: Some(best),
            pv: vec![best],
            nodes: table.children(&pos).len() as u64 + 1,
        })
    }

    /// The root move from the table with the repetition rule: the fastest win that
    /// repeats nothing (a repeating one only if there is no other), else a draw (new
    /// positions first), else the slowest loss (a threefold repetition, a draw, first
    /// of all, then moves back to earlier positions).
    fn retro_root(table: &Table, state: &Linetris, history: &[u64]) -> Option<RootProbe<Move>> {
        if state.outcome().is_some() {
            return None;
        }
        table.pos_of(state)?;
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        // The preference key of the best move so far, the move, its value and child.
        type Pick = ((i64, i64, i64), Move, Value, Linetris);
        let mut best: Option<Pick> = None;
        for &mv in &moves {
            let mut child = *state;
            child.play(mv);
            let seen = history.iter().filter(|&&h| h == child.hash()).count() as i64;
            let value = match child.outcome() {
                Some(Outcome::Win(_)) => Value::Win(1),
                Some(Outcome::Draw) => Value::Draw(1),
                None if seen >= 2 => Value::Draw(1),
                None => Self::retro_probe(table, &child)?.parent(),
            };
            let key = match value {
                Value::Win(n) => (3, -seen.min(1), -i64::from(n)),
                Value::Draw(_) => (2, -seen, 0),
                Value::Loss(n) => (1, i64::from(n), seen),
            };
            if best.as_ref().is_none_or(|(k, ..)| key > *k) {
                best = Some((key, mv, value, child));
            }
        }
        let (_, mv, value, child) = best?;
        let mut pv = vec![mv];
        if !matches!(value, Value::Draw(_))
            && let Some(pos) = table.pos_of(&child)
        {
            pv.extend(table.line(&pos, value.plies() as usize));
        }
        Some(RootProbe {
            best: mv,
            value,
            pv,
            nodes: moves.len() as u64,
            note: matches!(value, Value::Draw(_)).then(|| "tablebase draw".to_string()),
        })
    }

    /// Starts loading or building the retrograde table on a background thread, unless
    /// there is none for this board or it is ready or under way.
    fn prepare_retro(&self) {
        let Some(build) = &self.retro else {
            return;
        };
        let (rows, cols) = (self.rows, self.cols);
        let dir = self.cache_dir.clone();
        build.start("linetris retrograde table", move |cancel| {
            load_or_build(rows, cols, dir, cancel)
        });
    }

    /// The exact value of a Connect Four position (RowClear off), or `None` when the
    /// rules in force are not plain Connect Four up to a full board, or when `stop` was
    /// raised. With `value_only`, no best move (and no node count) is reported, and
    /// `None` too when another thread holds the solver.
    pub fn solve_connect_four(
        &self,
        state: &Linetris,
        stop: &AtomicBool,
        value_only: bool,
        deadline: Option<Instant>,
    ) -> Option<Solution<Move>> {
        if state.rules.row_clear {
            return None;
        }
        let geo = &state.rules.geo;
        let empties = (geo.board & !state.occupied()).count_ones();
        if let Some(done) = finished(state) {
            return Some(done);
        }
        // The ply limit must not be able to end the game before the board is full.
        if state.plies + empties > state.rules.limit {
            return None;
        }
        let own = state.pieces[state.side.index()];
        let mask = state.occupied();
        let (rows, cols) = (state.rows(), state.cols());
        // Runs `$body` with this engine's solver for the board (u64 when it fits).
        macro_rules! with_solver {
            (|$solver:ident, $own:ident, $mask:ident| $body:expr) => {
                if solver::fits_u64(rows, cols) {
                    let mut slot = lock(&self.small, value_only)?;
                    let $solver = solver_in(&mut slot, rows, cols)?;
                    $solver.resize(rows, cols);
                    $solver.set_deadline(deadline);
                    let ($own, $mask) = (own as u64, mask as u64);
                    let answer = $body;
                    $solver.set_deadline(None);
                    answer
                } else {
                    let mut slot = lock(&self.large, value_only)?;
                    let $solver = solver_in(&mut slot, rows, cols)?;
                    $solver.resize(rows, cols);
                    $solver.set_deadline(deadline);
                    let ($own, $mask) = (own, mask);
                    let answer = $body;
                    $solver.set_deadline(None);
                    answer
                }
            };
        }
        let solution = if value_only {
            with_solver!(|solver, own, mask| solver
                .solve_value(own, mask, stop)
                .map(|value| (value, None, 0)))
        } else {
            with_solver!(|solver, own, mask| solver.solve_with_move(own, mask, stop))
        };
        solution.map(|(value, best, nodes)| Solution {
            value,
            best: best.map(|col| Move(col as u8)),
            pv: best.map(|col| Move(col as u8)).into_iter().collect(),
            nodes,
        })
    }

    /// Clears the solvers' transposition tables (benchmarks measure each solve from a
    /// cleared table).
    pub fn clear(&self) {
        if let Some(mut guard) = lock(&self.small, false)
            && let Some(solver) = guard.as_mut()
        {
            solver.clear();
        }
        if let Some(mut guard) = lock(&self.large, false)
            && let Some(solver) = guard.as_mut()
        {
            solver.clear();
        }
    }
}

/// The solution of a game that is over: its value, and no move.
fn finished(state: &Linetris) -> Option<Solution<Move>> {
    state.outcome().map(|outcome| Solution {
        value: Value::of_outcome(outcome, state.side),
        best: None,
        pv: Vec::new(),
        nodes: 0,
    })
}

/// The table of a board: from the cache file in `dir` when it has a good one, else
/// built (if the board is within [`RETRO_BUILD_BYTES`]) and saved there (if it has
/// [`RETRO_CACHE_ENTRIES`]). `None` when there is none, or `cancel` was set.
fn load_or_build(
    rows: u32,
    cols: u32,
    dir: Option<PathBuf>,
    cancel: &AtomicBool,
) -> Option<(Table, TableSource)> {
    let started = Instant::now();
    if let Some(dir) = &dir {
        match cache::load(dir, rows, cols) {
            Ok(Some(table)) => {
                log::info!(
                    "linetris {rows}x{cols} retrograde table loaded from {} in {:?}",
                    cache::path(dir, rows, cols).display(),
                    started.elapsed()
                );
                return Some((table, TableSource::Loaded));
            }
            Ok(None) => {}
            Err(why) => log::warn!("linetris retrograde table: ignoring the cache file {why}"),
        }
    }
    if retro::build_bytes(rows, cols) > RETRO_BUILD_BYTES {
        log::warn!("linetris {rows}x{cols}: no retrograde table (too large to build here)");
        return None;
    }
    log::info!("linetris {rows}x{cols}: building the retrograde table");
    let Some(table) = Table::build_until(rows, cols, cancel) else {
        log::debug!("linetris {rows}x{cols} retrograde table: build cancelled");
        return None;
    };
    log::info!(
        "linetris {rows}x{cols} retrograde table built in {:?}",
        started.elapsed()
    );
    // Saved before it is used, so that a `quit` right after `readyok` never cuts a
    // write short.
    if let Some(dir) = dir.filter(|_| table.len() as u64 >= RETRO_CACHE_ENTRIES) {
        match cache::save(&table, &dir) {
            Ok(path) => log::info!("linetris retrograde table saved to {}", path.display()),
            Err(why) => log::warn!(
                "linetris retrograde table: cannot save it in {}: {why}",
                dir.display()
            ),
        }
    }
    Some((table, TableSource::Built))
}

/// Locks a solver; `None` when `try_only` and another thread holds it.
/// The solver in `slot`, made if need be; `None` when the system refuses its table
/// (then positions are searched, and the next call tries again).
fn solver_in<B: super::bits::Bits>(
    slot: &mut Option<Solver<B>>,
    rows: u32,
    cols: u32,
) -> Option<&mut Solver<B>> {
    if slot.is_none() {
        *slot = Solver::try_new(rows, cols);
    }
    slot.as_mut()
}

fn lock<T>(solver: &Mutex<T>, try_only: bool) -> Option<MutexGuard<'_, T>> {
    if try_only {
        match solver.try_lock() {
            Ok(guard) => Some(guard),
            Err(TryLockError::Poisoned(poisoned)) => Some(poisoned.into_inner()),
            Err(TryLockError::WouldBlock) => None,
        }
    } else {
        Some(solver.lock().unwrap_or_else(PoisonError::into_inner))
    }
}

impl Oracle<Linetris> for LinetrisOracle {
    fn new(config: &Config) -> Self {
        LinetrisOracle::new(config)
    }

    fn set_options(&self, options: &crate::game::Params) {
        self.switch.set_options(options);
    }

    /// Makes the solver of the board now, so that no clocked search pays for its table.
    fn prepare(&self) {
        if !self.switch.on() {
            return;
        }
        if !self.connect_four {
            self.prepare_retro();
            return;
        }
        let (rows, cols) = (self.rows, self.cols);
        if solver::fits_u64(rows, cols) {
            if let Some(mut slot) = lock(&self.small, false) {
                solver_in(&mut slot, rows, cols);
            }
        } else if let Some(mut slot) = lock(&self.large, false) {
            solver_in(&mut slot, rows, cols);
        }
    }

    fn wait(&self, stop: &AtomicBool, deadline: Option<Instant>) {
        self.prepare();
        if let Some(build) = &self.retro
            && self.switch.on()
        {
            build.wait(stop, deadline);
        }
    }

    fn solve(&self, state: &Linetris, stop: &AtomicBool) -> Option<Solution<Move>> {
        if !self.switch.on() {
            return None;
        }
        if state.rules.row_clear {
            return Self::retro_solve(self.retro_table()?, state);
        }
        self.solve_connect_four(state, stop, false, None)
    }

    /// Connect Four from [`CLOCK_EMPTIES`] empty cells down, by the solver within the
    /// time given.
    fn solve_on_clock(
        &self,
        state: &Linetris,
        stop: &AtomicBool,
        deadline: Instant,
    ) -> Option<Solution<Move>> {
        if (state.rules.geo.board & !state.occupied()).count_ones() > CLOCK_EMPTIES
            || !self.switch.on()
        {
            return None;
        }
        self.solve_connect_four(state, stop, false, Some(deadline))
    }

    fn probe_root(&self, state: &Linetris, history: &[u64]) -> Option<RootProbe<Move>> {
        if !self.switch.on() {
            return None;
        }
        Self::retro_root(self.retro_table()?, state, history)
    }

    /// 6 × 7 with the row clear: in the first plies the opening table's move, later a
    /// move learned from a lost game.
    fn opening_move(&self, state: &Linetris) -> Option<Move> {
        if !self.switch.on() {
            return None;
        }
        let table = super::opening::embedded().and_then(|t| t.get(state));
        table.or_else(|| super::opening::learned()?.get(state))
    }

    /// Connect Four positions with few empty cells are solved outright (a few
    /// microseconds each), so the search plays endgames perfectly.
    fn probe(&self, state: &Linetris) -> Option<Value> {
        if !self.switch.on() {
            return None;
        }
        if state.rules.row_clear {
            return Self::retro_probe(self.retro_table()?, state);
        }
        if (state.rules.geo.board & !state.occupied()).count_ones() > PROBE_EMPTIES {
            return None;
        }
        let never = AtomicBool::new(false);
        self.solve_connect_four(state, &never, true, None)
            .map(|solution| solution.value)
    }
}
