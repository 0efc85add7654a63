//! Depth and speed at a fixed time a move, per game (docs/strength.md, "Depth and speed").
//!
//! `cargo run --release --example depth_at_movetime [MS] [ROUNDS]` (default 1000 ms, 1
//! round) searches each `bench` position of every game (the start and three positions of
//! a fixed random playout) as `go movetime MS` does, from a cleared 16 MiB table, and
//! prints per game the completed depth (least, median, most), the mean nodes and the
//! nodes per second. Neutreeko searches without its table (an unprepared oracle): with
//! it, every search is a probe. Frozen Forest is Mina's alpha-beta when Mina moves and
//! Yuki's Monte-Carlo search when Yuki does; Yuki reports no depth.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::bench;
use tabuleiro::game::default_config;
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::search::time::{self, Clock};
use tabuleiro::search::{Policy, SearchLimits, Strategy};

/// `MoveOverhead`'s default, as the session uses it.
const OVERHEAD_MS: u64 = tabuleiro::session::OVERHEAD_DEFAULT as u64;

struct Measure {
    movetime: u64,
    rounds: u32,
}

impl GameVisitor for Measure {
    type Output = ();
    fn visit<G: Strategy>(self) {
        let config = default_config::<G>();
        let mut depths = Vec::new();
        let (mut nodes, mut seconds, mut searches) = (0u64, 0f64, 0u32);
        for _ in 0..self.rounds {
            for state in bench::positions::<G>() {
                let mut policy = Policy::<G>::standard(16, &config);
                // A first search of one ply allocates the table; the measured one starts
                // from it cleared.
                let warm = SearchLimits {
                    depth: Some(1),
                    ..SearchLimits::default()
                };
                let stop = Arc::new(AtomicBool::new(false));
                policy.search(
                    &state,
                    &[state.hash()],
                    warm,
                    Arc::clone(&stop),
                    &mut |_| {},
                );
                policy.clear();
                let clock = Clock {
                    movetime: Some(self.movetime),
                    ..Clock::default()
                };
                let started = Instant::now();
                let limits = SearchLimits {
                    budget: time::budget(&clock, OVERHEAD_MS),
                    started: Some(started),
                    ..SearchLimits::default()
                };
                let result = policy.search(&state, &[state.hash()], limits, stop, &mut |_| {});
                seconds += started.elapsed().as_secs_f64();
                nodes += result.nodes;
                searches += 1;
                if result.depth > 0 {
                    depths.push(result.depth);
                }
            }
        }
        depths.sort_unstable();
        let depth = match (depths.first(), depths.last()) {
            (Some(least), Some(most)) => {
                format!("{least} / {} / {most}", depths[depths.len() / 2])
            }
            _ => "-".to_string(),
        };
        println!(
            "{:<13} {:>9} {:>13} {:>12.0} {:>12.0}",
            G::NAME,
            searches,
            depth,
            nodes as f64 / f64::from(searches.max(1)),
            nodes as f64 / seconds.max(1e-9),
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let movetime = args.first().and_then(|a| a.parse().ok()).unwrap_or(1000);
    let rounds = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    println!("go movetime {movetime} on the bench positions, {rounds} round(s)");
    println!(
        "{:<13} {:>9} {:>13} {:>12} {:>12}",
        "game", "searches", "depth l/m/h", "nodes", "nps"
    );
    for name in games::NAMES {
        games::visit(name, Measure { movetime, rounds });
    }
}
