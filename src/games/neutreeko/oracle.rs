//! Neutreeko's exact knowledge: the complete table ([`super::tablebase`]), built in
//! the background when the engine is prepared, probed inside the search and used to
//! choose the root move.
//!
//! The oracle owns its table: the engine object of the session holds it, so two
//! engines (two sessions in one test, two players of an A/B match) have their own. The
//! engine option `Tablebase` turns it off: then it is neither built nor used (a table
//! already built stays in memory, unused).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::tablebase::Table;
use super::{Move, Neutreeko};
use crate::game::{OptionSpec, Value};
use crate::search::exact::Background;
use crate::search::{Oracle, RootProbe, TABLEBASE};

/// The Neutreeko table of one engine.
#[derive(Debug)]
pub struct NeutreekoOracle {
    /// The `Tablebase` option.
    enabled: AtomicBool,
    build: Background<Table>,
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
            build: Background::new(),
        }
    }

    pub fn enabled(&self) -> bool {
        self.enabled.load(Ordering::Relaxed)
    }

    /// The table, when it is on and built.
    pub fn ready(&self) -> Option<&Table> {
        if self.enabled() {
            self.build.get()
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
        if !self.enabled() {
            return;
        }
        self.build.start("neutreeko tablebase", |_| {
            let started = Instant::now();
            match Table::build(BUILD_THREADS) {
                Ok(table) => {
                    log::debug!("neutreeko tablebase built in {:?}", started.elapsed());
                    Some(table)
                }
                Err(why) => {
                    log::warn!("neutreeko tablebase: {why}");
                    None
                }
            }
        });
    }

    fn wait(&self, stop: &AtomicBool, deadline: Option<Instant>) {
        self.prepare();
        if self.enabled() {
            self.build.wait(stop, deadline);
        }
    }

    fn probe(&self, state: &Neutreeko) -> Option<Value> {
        self.ready()?.probe(state)
    }

    fn probe_root(&self, state: &Neutreeko, history: &[u64]) -> Option<RootProbe<Move>> {
        self.ready()?.choose(state, history)
    }
}
