//! Perft speed of Frozen Forest: `cargo run --release --example frozenforest_perft -- [depth] [trees]`.
//!
//! Prints, for each depth up to `depth` (default 5) from the start position with the
//! given `Trees` option (default 10), the leaf count, the time and leaves per second.

use std::time::Instant;

use tabuleiro::game::Game;
use tabuleiro::games::frozenforest::{Config, FrozenForest};
use tabuleiro::perft::perft;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let depth: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(5);
    let trees: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(10);
    if !(4..=10).contains(&trees) {
        eprintln!("Trees must be within 4..10");
        std::process::exit(2);
    }
    let start = FrozenForest::start(&Config { trees });
    for d in 1..=depth {
        let clock = Instant::now();
        let leaves = perft(&start, d);
        let seconds = clock.elapsed().as_secs_f64();
        println!(
            "trees {trees} depth {d}: {leaves} leaves in {seconds:.3} s, {:.0} leaves/s",
            leaves as f64 / seconds.max(1e-9)
        );
    }
}
