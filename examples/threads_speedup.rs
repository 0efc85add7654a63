//! Time to depth on 1 and 2 (or more) threads: the bench positions of every game,
//! each searched from a cold table to a fixed depth, on each thread count in turn.
//!
//! `cargo run --release --example threads_speedup [ROUNDS] [THREADS] [GAME=DEPTH ...]`
//! (default 3 rounds, 2 threads, depths below). Each round searches every position
//! once with 1 thread and once with THREADS, alternating which goes first, so that a
//! machine's drift hits both alike. Prints, per game, the total wall time of each, their
//! ratio (the speed-up), and the nodes, which with helpers include theirs. Run it on
//! an otherwise idle machine: a helper thread needs a core of its own.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::bench;
use tabuleiro::game::default_config;
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::search::{Policy, SearchLimits, Strategy};

/// Depths at which one thread takes roughly a second or two per bench position here.
const DEPTHS: [(&str, u32); 5] = [
    ("linetris", 18),
    ("talpa", 8),
    ("fabrik", 4),
    ("frozenforest", 12),
    ("neutreeko", 16),
];

/// The hash table of every search (MiB).
const HASH_MIB: usize = 64;

struct Measure {
    threads: usize,
    depth: u32,
    rounds: u32,
}

#[derive(Default)]
struct Tally {
    time: Duration,
    nodes: u64,
}

/// Every bench position of `G` searched once to `depth` on `threads` threads.
fn run<G: Strategy>(threads: usize, depth: u32, tally: &mut Tally) {
    let config = default_config::<G>();
    for state in bench::positions::<G>() {
        let mut policy = Policy::<G>::standard(HASH_MIB, &config);
        policy.prepare();
        policy.set_threads(threads);
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let started = Instant::now();
        let result = policy.search(&state, &[state.hash()], limits, stop, &mut |_| {});
        tally.time += started.elapsed();
        tally.nodes += result.nodes;
    }
}

impl GameVisitor for Measure {
    type Output = (Tally, Tally);
    fn visit<G: Strategy>(self) -> (Tally, Tally) {
        let (mut one, mut many) = (Tally::default(), Tally::default());
        for round in 0..self.rounds {
            if round % 2 == 0 {
                run::<G>(1, self.depth, &mut one);
                run::<G>(self.threads, self.depth, &mut many);
            } else {
                run::<G>(self.threads, self.depth, &mut many);
                run::<G>(1, self.depth, &mut one);
            }
        }
        (one, many)
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args.first().and_then(|a| a.parse().ok()).unwrap_or(3);
    let threads = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(2);
    let mut depths = DEPTHS.to_vec();
    for arg in args.iter().skip(2) {
        let Some((game, depth)) = arg.split_once('=') else {
            eprintln!("expected GAME=DEPTH, got {arg}");
            std::process::exit(2);
        };
        let Some(depth) = depth.parse().ok() else {
            eprintln!("bad depth in {arg}");
            std::process::exit(2);
        };
        depths.retain(|(g, _)| *g != game);
        if let Some(name) = games::canonical(game) {
            depths.push((name, depth));
        }
    }
    println!(
        "{:<13} {:>5} {:>10} {:>10} {:>8} {:>12} {:>12}",
        "game",
        "depth",
        "1 thread",
        format!("{threads} threads"),
        "speed-up",
        "nodes 1",
        "nodes N"
    );
    for (game, depth) in depths {
        let measure = Measure {
            threads,
            depth,
            rounds,
        };
        let Some((one, many)) = games::visit(game, measure) else {
            continue;
        };
        println!(
            "{:<13} {:>5} {:>9.2}s {:>9.2}s {:>7.2}x {:>12} {:>12}",
            game,
            depth,
            one.time.as_secs_f64(),
            many.time.as_secs_f64(),
            one.time.as_secs_f64() / many.time.as_secs_f64().max(1e-9),
            one.nodes,
            many.nodes
        );
    }
}
