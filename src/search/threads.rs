//! The helper threads of a search (the `Threads` option).
//!
//! The threads live as long as the engine of a game, each owning an alpha-beta
//! searcher and a Monte-Carlo searcher with its own evaluator, and wait for jobs on a
//! channel. A search with helpers works in one of two ways:
//!
//! - **Alpha-beta: lazy SMP with simplified ABDADA.** Every helper searches the same
//!   root to the same depth on the main thread's transposition table (lock-free,
//!   [`super::tt`]). At a node with depth to spare, a move whose position another
//!   thread is searching now waits for a second pass at the end of the node, by when
//!   its value is mostly in the table (Kerrigan's simplification of ABDADA: a small
//!   shared table of busy positions, no flags in the transposition table); a helper
//!   also takes the root's moves after the first from another point on. So the
//!   threads split a node's moves rather than search the same ones in step. The
//!   helpers report nothing and keep no clock: the main thread decides the move,
//!   keeps the time and reports, and the helpers stop when it ends. The first thread
//!   to complete an iteration ends that depth for all, and the main thread takes it
//!   as its own; when time ends an iteration no thread completed, a root move a
//!   helper found better than its first one there is played if it beats the main
//!   thread's own choice at that depth.
//! - **Monte-Carlo tree search: root parallelism.** Every helper grows a tree of its
//!   own from another seed; at the end the main thread adds the helpers' root
//!   statistics to its own and chooses from the sum. It needs no lock and no virtual
//!   loss, and it played stronger here than one tree shared under a lock with virtual
//!   loss (docs/strength.md, Threads), as Chaslot, Winands and van den Herik found
//!   ("Parallel Monte-Carlo Tree Search", 2008).
//!
//! Every move played or reported comes from a move list some thread generated itself
//! at the same root (a helper's principal variation too is built from its own lists),
//! never from the table, so an entry torn by concurrent writes can only misorder
//! moves.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError, channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::SearchLimits;
use super::alphabeta::{AlphaBeta, Team};
use super::eval::Evaluator;
use super::mcts::{Mcts, RootChild};
use super::oracle::Oracle;
use super::tt::Tt;
use crate::game::Game;
use crate::hash::mix;

/// The most threads the `Threads` option accepts.
pub const MAX_THREADS: usize = 256;

/// The flags that end the helpers' jobs.
#[derive(Clone)]
pub struct TeamFlags {
    /// Raised by the main thread when it is done: the helpers stop.
    pub stop: Arc<AtomicBool>,
    /// Raised by the watchdog at the hard time limit.
    pub time_up: Arc<AtomicBool>,
}

impl TeamFlags {
    /// A team's flags: its own stop flag, and the watchdog's `time_up`.
    pub fn new(time_up: Arc<AtomicBool>) -> Self {
        TeamFlags {
            stop: Arc::new(AtomicBool::new(false)),
            time_up,
        }
    }
}

/// A job for a helper.
enum Job<G: Game> {
    AlphaBeta {
        table: Arc<Tt>,
        root: G,
        history: Arc<[u64]>,
        limits: SearchLimits,
        flags: TeamFlags,
        team: Arc<Team<G::Move>>,
    },
    Mcts {
        root: G,
        seed: u64,
        memory_mib: usize,
        flags: TeamFlags,
        team: Arc<Team<G::Move>>,
    },
}

/// What a helper hands back when its job is done.
enum Done<M> {
    AlphaBeta,
    Mcts(Vec<RootChild<M>>),
}

struct Worker<G: Game> {
    jobs: Sender<Job<G>>,
    done: Receiver<Done<G::Move>>,
    /// A job was sent and its report not yet received.
    busy: bool,
    /// That job is the latest search's (a helper still finishing an earlier job when
    /// a search starts gets none in it).
    current: bool,
    /// Dropping the job channel ends the thread; nothing waits for it.
    _handle: JoinHandle<()>,
}

/// The helper threads of one engine: `Threads − 1` of them.
pub struct Helpers<G: Game> {
    workers: Vec<Worker<G>>,
}

impl<G: Game> Helpers<G> {
    /// No helpers: a search on one thread.
    pub fn none() -> Self {
        Helpers {
            workers: Vec::new(),
        }
    }

    /// `count` helpers judging by clones of `eval` and trusting `oracle`, their
    /// threads started now. Fewer if the system refuses threads (logged).
    pub fn new<E: Evaluator<G>, O: Oracle<G>>(count: usize, eval: &E, oracle: &Arc<O>) -> Self {
        let mut workers = Vec::with_capacity(count);
        for index in 0..count {
            let (jobs, job_queue) = channel::<Job<G>>();
            let (done_sender, done) = channel();
            let eval = eval.clone();
            let oracle = Arc::clone(oracle);
            let spawned = std::thread::Builder::new()
                .name(format!("helper {}", index + 1))
                .stack_size(64 * 1024 * 1024)
                .spawn(move || work(index, eval, oracle, job_queue, done_sender));
            match spawned {
                Ok(handle) => workers.push(Worker {
                    jobs,
                    done,
                    busy: false,
                    current: false,
                    _handle: handle,
                }),
                Err(error) => {
                    log::warn!("could not start helper thread {}: {error}", index + 1);
                    break;
                }
            }
        }
        Helpers { workers }
    }

    pub fn len(&self) -> usize {
        self.workers.len()
    }

    pub fn is_empty(&self) -> bool {
        self.workers.is_empty()
    }

    /// Waits for every helper still finishing an earlier job (its team's stop flag
    /// is up, so not for long): a table is cleared only when no helper can still
    /// write to it.
    pub fn settle(&mut self) {
        for worker in &mut self.workers {
            if worker.busy {
                let _ = worker.done.recv();
                worker.busy = false;
            }
            worker.current = false;
        }
    }

    /// Takes, without waiting, the reports of earlier jobs that have ended (they are
    /// stale: a new search is starting) and marks the helpers now free as in the new
    /// search. A helper the machine has not yet given the CPU to end its last job (its
    /// stop flag is up) sits this search out rather than make the new one wait: on a
    /// busy machine that wait was several milliseconds of the move's clock. Its late
    /// writes to the shared table are entries like any other (each verified by its
    /// key).
    fn claim_free(&mut self) {
        for worker in &mut self.workers {
            if worker.busy {
                match worker.done.try_recv() {
                    Ok(_) | Err(TryRecvError::Disconnected) => worker.busy = false,
                    Err(TryRecvError::Empty) => {}
                }
            }
            worker.current = !worker.busy;
            worker.busy = true;
        }
    }

    /// Starts every free helper on an alpha-beta search of `root` on `table`, in `team`.
    pub fn start_alphabeta(
        &mut self,
        table: &Arc<Tt>,
        root: &G,
        history: &[u64],
        limits: SearchLimits,
        flags: &TeamFlags,
        team: &Arc<Team<G::Move>>,
    ) {
        let history: Arc<[u64]> = history.into();
        self.claim_free();
        for worker in self.workers.iter().filter(|w| w.current) {
            let _ = worker.jobs.send(Job::AlphaBeta {
                table: Arc::clone(table),
                root: root.clone(),
                history: Arc::clone(&history),
                limits,
                flags: flags.clone(),
                team: Arc::clone(team),
            });
        }
    }

    /// Starts every free helper on a tree of its own of `root`, each from a seed drawn from
    /// `seed` and its number, within `memory_mib` MiB, counting playouts in `team`.
    pub fn start_mcts(
        &mut self,
        root: &G,
        seed: u64,
        memory_mib: usize,
        flags: &TeamFlags,
        team: &Arc<Team<G::Move>>,
    ) {
        self.claim_free();
        for (index, worker) in self.workers.iter().filter(|w| w.current).enumerate() {
            let _ = worker.jobs.send(Job::Mcts {
                root: root.clone(),
                seed: mix(seed ^ (index as u64 + 1)),
                memory_mib,
                flags: flags.clone(),
                team: Arc::clone(team),
            });
        }
    }

    /// The reports of this search's helpers that finish their jobs within `patience`
    /// (the caller raised the team's stop flag; `None` waits for all): the root
    /// statistics of their trees after an MCTS job. A helper that the machine has not
    /// yet given the CPU to finish stays busy, and its report is dropped when it comes:
    /// the `bestmove` does not wait for a thread that may wake milliseconds later on a
    /// busy machine.
    pub fn collect(&mut self, patience: Option<Duration>) -> Vec<Vec<RootChild<G::Move>>> {
        let deadline = patience.map(|p| Instant::now() + p);
        let mut trees = Vec::new();
        for worker in &mut self.workers {
            if !(worker.busy && worker.current) {
                continue;
            }
            let report = match deadline {
                None => worker
                    .done
                    .recv()
                    .map_err(|_| RecvTimeoutError::Disconnected),
                Some(deadline) => worker
                    .done
                    .recv_timeout(deadline.saturating_duration_since(Instant::now())),
            };
            match report {
                Ok(done) => {
                    worker.busy = false;
                    worker.current = false;
                    if let Done::Mcts(children) = done {
                        trees.push(children);
                    }
                }
                // Gone: nothing to wait for.
                Err(RecvTimeoutError::Disconnected) => {
                    worker.busy = false;
                    worker.current = false;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
        trees
    }
}

/// A helper thread: one job at a time until its engine drops the channel.
fn work<G: Game, E: Evaluator<G>, O: Oracle<G>>(
    index: usize,
    eval: E,
    oracle: Arc<O>,
    jobs: Receiver<Job<G>>,
    done: Sender<Done<G::Move>>,
) {
    // The table is always the main thread's: this one's own stays at the minimum.
    let mut alphabeta = AlphaBeta::new(0, eval.clone(), oracle);
    let mut mcts = Mcts::new(0, eval);
    while let Ok(job) = jobs.recv() {
        let report = match job {
            Job::AlphaBeta {
                table,
                root,
                history,
                limits,
                flags,
                team,
            } => {
                alphabeta.search_as_helper(
                    index,
                    table,
                    &root,
                    &history,
                    limits,
                    flags.stop,
                    flags.time_up,
                    team,
                );
                Done::AlphaBeta
            }
            Job::Mcts {
                root,
                seed,
                memory_mib,
                flags,
                team,
            } => {
                mcts.seed(seed);
                mcts.set_memory(memory_mib);
                mcts.search_as_helper(&root, &flags.stop, &flags.time_up, &team.nodes);
                Done::Mcts(mcts.root_children())
            }
        };
        if done.send(report).is_err() {
            break;
        }
    }
}
