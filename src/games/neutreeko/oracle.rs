//! Neutreeko's exact knowledge: the complete table ([`super::tablebase`]), built in
//! the background when the engine is prepared, probed inside the search and used to
//! choose the root move.
//!
//! The oracle owns its table: the engine object of the session holds it, so two
//! engines (two sessions in one test, two players of an A/B match) have their own. The
//! engine option `Tablebase` turns it off: then it is neither built nor used (a table
//! already built stays in memory, unused).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use super::tablebase::Table;
use super::{Move, Neutreeko};
use crate::game::{OptionSpec, Value};
use crate::search::{Oracle, RootProbe, TABLEBASE};

/// The state of one table's build, shared with the thread that builds it.
#[derive(Debug, Default)]
struct Build {
    table: OnceLock<Table>,
    started: AtomicBool,
    failed: AtomicBool,
}

/// The Neutreeko table of one engine.
#[derive(Debug)]
pub struct NeutreekoOracle {
    /// The `Tablebase` option.
    enabled: AtomicBool,
    build: Arc<Build>,
}

impl Default for NeutreekoOracle {
    fn default() -> Self {
        Self::new()
    }
}

impl NeutreekoOracle {
    /// The engine options: `Tablebase`, on by default.
    pub const OPTIONS: &'static [OptionSpec] = TABLEBASE;

    /// An oracle with the table on, not built yet.
    pub fn new() -> Self {
        NeutreekoOracle {
            enabled: AtomicBool::new(true),
            build: Arc::new(Build::default()),
        }
    }

    pub fn enabled(&self) -> bool {
        self.enabled.load(Ordering::Relaxed)
    }

    /// The table, when it is on and built.
    pub fn ready(&self) -> Option<&Table> {
        if self.enabled() {
            self.build.table.get()
        } else {
            None
        }
    }
}

/// Threads the background build uses: one. A second thread does not pay on this 2-core
/// machine (0.32 s wall with one thread, 0.40 s with two, machine loaded; see the
/// example `neutreeko_tablebase`), and one leaves a core to a search running meanwhile.
const BUILD_THREADS: usize = 1;

impl Oracle<Neutreeko> for NeutreekoOracle {
    fn new(_config: &()) -> Self {
        NeutreekoOracle::new()
    }

    fn set_options(&self, options: &crate::game::Params) {
        if let Some(on) = crate::search::oracle::tablebase_on(options) {
            self.enabled.store(on, Ordering::SeqCst);
        }
    }

    /// Starts building the table on a background thread, unless it is off, built, or
    /// being built.
    fn prepare(&self) {
        if !self.enabled() || self.build.started.swap(true, Ordering::SeqCst) {
            return;
        }
        let build = Arc::clone(&self.build);
        let spawned = std::thread::Builder::new()
            .name("tablebase".to_string())
            .spawn(move || {
                let started = Instant::now();
                // `isready` waits for the table: a build that panicked must still say it
                // failed, or it would wait for ever.
                let built = std::panic::catch_unwind(|| Table::build(BUILD_THREADS))
                    .unwrap_or_else(|_| Err("the build panicked".to_string()));
                match built {
                    Ok(table) => {
                        log::debug!("neutreeko tablebase built in {:?}", started.elapsed());
                        let _ = build.table.set(table);
                    }
                    Err(why) => {
                        log::warn!("neutreeko tablebase: {why}");
                        build.failed.store(true, Ordering::SeqCst);
                    }
                }
            });
        if let Err(why) = spawned {
            log::warn!("neutreeko tablebase: cannot start the build thread: {why}");
            self.build.failed.store(true, Ordering::SeqCst);
        }
    }

    fn wait(&self, stop: &AtomicBool, deadline: Option<Instant>) {
        self.prepare();
        while self.enabled()
            && self.build.table.get().is_none()
            && !self.build.failed.load(Ordering::SeqCst)
            && !stop.load(Ordering::Relaxed)
            && deadline.is_none_or(|end| Instant::now() < end)
        {
            std::thread::sleep(Duration::from_millis(2));
        }
    }

    fn probe(&self, state: &Neutreeko) -> Option<Value> {
        self.ready()?.probe(state)
    }

    fn probe_root(&self, state: &Neutreeko, history: &[u64]) -> Option<RootProbe<Move>> {
        self.ready()?.choose(state, history)
    }
}
