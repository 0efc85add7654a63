//! A table made in the background, once: the build runs on a thread of its own, and
//! whoever needs the table waits on a condition variable, woken the moment the build
//! ends. A build that panics is caught and counts as failed, so nobody waits for ever
//! (`isready` waits for the tables). Dropping the [`Background`] (its oracle replaced)
//! raises the cancel flag the build was given. The Linetris and Neutreeko oracles make
//! their tables with it.
//!
//! The stop flag of a waiter (raised by `stop` or `quit`) signals nobody, so a wait
//! looks at it every [`STOP_CHECK`]; the end of the build wakes it at once.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::time::{Duration, Instant};

/// How often a waiter looks at its stop flag.
pub const STOP_CHECK: Duration = Duration::from_millis(5);

/// Where a build is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Not started.
    Idle,
    Running,
    /// Done: the table is there.
    Ready,
    /// Done without a table (refused, cancelled, panicked, or no thread).
    Failed,
}

struct Shared<T> {
    table: OnceLock<T>,
    phase: Mutex<Phase>,
    ended: Condvar,
    cancel: AtomicBool,
}

impl<T> Shared<T> {
    fn phase(&self) -> MutexGuard<'_, Phase> {
        self.phase.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn end(&self, phase: Phase) {
        *self.phase() = phase;
        self.ended.notify_all();
    }
}

/// One table, built once in the background (see the module doc).
pub struct Background<T> {
    shared: Arc<Shared<T>>,
}

impl<T> Default for Background<T> {
    fn default() -> Self {
        Background {
            shared: Arc::new(Shared {
                table: OnceLock::new(),
                phase: Mutex::new(Phase::Idle),
                ended: Condvar::new(),
                cancel: AtomicBool::new(false),
            }),
        }
    }
}

impl<T> std::fmt::Debug for Background<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Background({:?})", *self.shared.phase())
    }
}

impl<T> Drop for Background<T> {
    fn drop(&mut self) {
        self.shared.cancel.store(true, Ordering::SeqCst);
    }
}

impl<T: Send + Sync + 'static> Background<T> {
    pub fn new() -> Self {
        Self::default()
    }

    /// Starts `make` on a thread named `name`, unless a build was started before;
    /// whether it started one. `make` gets the cancel flag, which it should look at
    /// now and then, and returns the table or `None` (having logged why). A panic or a
    /// thread the system refuses is logged here, as a failed build.
    pub fn start(
        &self,
        name: &str,
        make: impl FnOnce(&AtomicBool) -> Option<T> + Send + 'static,
    ) -> bool {
        {
            let mut phase = self.shared.phase();
            if *phase != Phase::Idle {
                return false;
            }
            *phase = Phase::Running;
        }
        let shared = Arc::clone(&self.shared);
        let label = name.to_string();
        let spawned = std::thread::Builder::new()
            .name(name.to_string())
            .spawn(move || {
                let made = catch_unwind(AssertUnwindSafe(|| make(&shared.cancel)));
                let phase = match made {
                    Ok(Some(table)) => {
                        let _ = shared.table.set(table);
                        Phase::Ready
                    }
                    Ok(None) => Phase::Failed,
                    Err(_) => {
                        log::warn!("{label}: the build panicked");
                        Phase::Failed
                    }
                };
                shared.end(phase);
            });
        if let Err(why) = spawned {
            log::warn!("{name}: cannot start the build thread: {why}");
            self.shared.end(Phase::Failed);
        }
        true
    }

    /// The table, once built.
    pub fn get(&self) -> Option<&T> {
        self.shared.table.get()
    }

    pub fn phase(&self) -> Phase {
        *self.shared.phase()
    }

    /// Waits while the build runs, until `stop` is raised or `deadline` passes; the
    /// table if it is built. Returns at once when no build was started.
    pub fn wait(&self, stop: &AtomicBool, deadline: Option<Instant>) -> Option<&T> {
        let mut phase = self.shared.phase();
        while *phase == Phase::Running && !stop.load(Ordering::Relaxed) {
            let slice = match deadline {
                None => STOP_CHECK,
                Some(end) => {
                    let left = end.saturating_duration_since(Instant::now());
                    if left.is_zero() {
                        break;
                    }
                    left.min(STOP_CHECK)
                }
            };
            phase = self
                .shared
                .ended
                .wait_timeout(phase, slice)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
        drop(phase);
        self.get()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc;

    #[test]
    fn a_build_is_waited_for_once_and_started_once() {
        let build = Background::new();
        assert_eq!(build.phase(), Phase::Idle);
        let never = AtomicBool::new(false);
        assert_eq!(build.wait(&never, None), None, "nothing started");
        let (go, gate) = mpsc::channel::<()>();
        assert!(build.start("test build", move |_| {
            gate.recv().ok()?;
            Some(42)
        }));
        assert!(!build.start("test build", |_| Some(7)));
        assert_eq!(build.phase(), Phase::Running);
        // A deadline and a raised stop end the wait while the build runs.
        let soon = Instant::now() + Duration::from_millis(20);
        assert_eq!(build.wait(&never, Some(soon)), None);
        assert!(Instant::now() >= soon);
        assert_eq!(build.wait(&AtomicBool::new(true), None), None);
        go.send(()).unwrap();
        assert_eq!(build.wait(&never, None), Some(&42));
        assert_eq!(build.phase(), Phase::Ready);
    }

    #[test]
    fn a_panic_or_a_refusal_is_a_failed_build() {
        let panics = Background::<u32>::new();
        panics.start("test build", |_| panic!("on purpose"));
        assert_eq!(panics.wait(&AtomicBool::new(false), None), None);
        assert_eq!(panics.phase(), Phase::Failed);
        let refuses = Background::<u32>::new();
        refuses.start("test build", |_| None);
        assert_eq!(refuses.wait(&AtomicBool::new(false), None), None);
        assert_eq!(refuses.phase(), Phase::Failed);
    }

    #[test]
    fn dropping_it_cancels_the_build() {
        let (tell, told) = mpsc::channel();
        let build = Background::<u32>::new();
        build.start("test build", move |cancel| {
            while !cancel.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(1));
            }
            tell.send(()).ok()?;
            None
        });
        drop(build);
        assert!(told.recv_timeout(Duration::from_secs(10)).is_ok());
    }
}
