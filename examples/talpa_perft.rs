//! Perft speed for Talpa:
//! `cargo run --release --example talpa_perft -- [size] [depth] [full_depth]`.
//!
//! Prints, for each depth up to the given one, the leaf count, the time and the
//! leaves per second (bulk counting at the last ply, as `go perft` does), then the
//! same without bulk counting at `full_depth` (default: depth, at most 4), where every
//! leaf is played, so every leaf costs a move and a path test.

use std::time::Instant;

use tabuleiro::game::Game;
use tabuleiro::games::talpa::Talpa;
use tabuleiro::perft::{perft, perft_full};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: i64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let depth: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(4);
    let config = match Talpa::config(&[size]) {
        Ok(config) => config,
        Err(why) => {
            eprintln!("{why}");
            std::process::exit(2);
        }
    };
    let start = Talpa::start(&config);
    for d in 1..=depth {
        let t = Instant::now();
        let n = perft(&start, d);
        let secs = t.elapsed().as_secs_f64();
        println!(
            "size {size} perft {d}: {n} leaves in {secs:.3} s = {:.1} M leaves/s (bulk)",
            n as f64 / secs.max(1e-9) / 1e6
        );
    }
    let full_depth: u32 = args
        .get(3)
        .and_then(|a| a.parse().ok())
        .unwrap_or(depth.min(4));
    let t = Instant::now();
    let n = perft_full(&start, full_depth);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "size {size} perft_full {full_depth}: {n} leaves in {secs:.3} s = {:.1} M leaves/s (every leaf played)",
        n as f64 / secs.max(1e-9) / 1e6
    );
}
