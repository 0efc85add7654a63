//! A CPU hog for tests that must hold on a busy machine: one busy thread per core.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;

/// Busy threads, one per core, stopped and joined when dropped (also on a panic).
pub struct Hog {
    stop: Arc<AtomicBool>,
    threads: Vec<JoinHandle<u64>>,
}

impl Hog {
    pub fn start() -> Hog {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..cores)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    let mut spins = 0u64;
                    while !stop.load(Ordering::Relaxed) {
                        spins = std::hint::black_box(spins.wrapping_add(1));
                    }
                    spins
                })
            })
            .collect();
        Hog { stop, threads }
    }
}

impl Drop for Hog {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for thread in self.threads.drain(..) {
            let _ = thread.join();
        }
    }
}
