//! Perft figures for Linetris: `cargo run --release --example linetris_perft [ROWS COLS ROWCLEAR DEPTH]...`
//!
//! Without arguments, prints the cases pinned in tests/data/perft_linetris.txt (as
//! `rows cols rowclear depth count` lines) with the leaves per second of each.

use std::time::Instant;

use tabuleiro::game::Game;
use tabuleiro::games::linetris::{Config, Linetris};
use tabuleiro::perft::perft;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let cases: Vec<(u32, u32, bool, u32)> = if args.len() >= 4 {
        args.chunks(4)
            .filter(|c| c.len() == 4)
            .map(|c| {
                (
                    c[0].parse().expect("rows"),
                    c[1].parse().expect("cols"),
                    c[2] == "true",
                    c[3].parse().expect("depth"),
                )
            })
            .collect()
    } else {
        let mut cases: Vec<(u32, u32, bool, u32)> = (1..=8).map(|d| (6, 7, false, d)).collect();
        cases.extend((1..=8).map(|d| (4, 4, true, d)));
        cases.extend([
            (6, 7, true, 8),
            (4, 4, false, 8),
            (5, 4, true, 8),
            (4, 5, true, 8),
            (4, 10, true, 6),
            (10, 4, true, 8),
            (10, 10, true, 5),
            (7, 6, false, 7),
        ]);
        cases
    };
    for (rows, cols, row_clear, depth) in cases {
        let config = Config {
            rows,
            cols,
            row_clear,
            max_plies: 0,
        };
        let start = Linetris::start(&config);
        let t = Instant::now();
        let count = perft(&start, depth);
        let secs = t.elapsed().as_secs_f64();
        println!("{rows} {cols} {row_clear} {depth} {count}");
        eprintln!(
            "  {:.3} s, {:.1} M leaves/s",
            secs,
            count as f64 / secs.max(1e-9) / 1e6
        );
    }
}
