//! Benchmark of the Neutreeko tablebase build, and the figures of the solved game.
//!
//! ```text
//! cargo run --release --example neutreeko_tablebase            # retrograde, 1 and 2 threads
//! cargo run --release --example neutreeko_tablebase -- forward # also forward passes
//! ```
//!
//! Prints the build time of each method (best of a few runs), the table's memory, the
//! peak resident memory of the process, and the counts of won, lost and drawn positions.

use std::time::{Duration, Instant};

use tabuleiro::game::{Game, default_config};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::games::neutreeko::tablebase::{POSITIONS, Table};

/// The best wall time and the best CPU time (all threads) over `runs` builds.
fn timed(runs: usize, build: impl Fn() -> Table) -> (Duration, Duration, Table) {
    let mut best = Duration::MAX;
    let mut best_cpu = Duration::MAX;
    let mut table = None;
    for _ in 0..runs {
        let cpu = cpu_time();
        let started = Instant::now();
        let built = build();
        best = best.min(started.elapsed());
        best_cpu = best_cpu.min(cpu_time().saturating_sub(cpu));
        table = Some(built);
    }
    (best, best_cpu, table.expect("at least one run"))
}

/// CPU time of this process so far (user + system, all threads), from /proc (Linux;
/// 10 ms resolution), or zero where that is not available.
fn cpu_time() -> Duration {
    let ticks = std::fs::read_to_string("/proc/self/stat")
        .ok()
        .and_then(|stat| {
            // The fields after the command name (which is in parentheses).
            let rest = stat.rsplit_once(')')?.1.to_string();
            let fields: Vec<&str> = rest.split_whitespace().collect();
            let utime: u64 = fields.get(11)?.parse().ok()?;
            let stime: u64 = fields.get(12)?.parse().ok()?;
            Some(utime + stime)
        })
        .unwrap_or(0);
    Duration::from_millis(ticks * 10)
}

/// The peak resident set size of this process, from /proc (Linux), in KiB.
fn peak_rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn main() {
    let forward = std::env::args().any(|a| a == "forward");
    let build = |threads| Table::build(threads).expect("the table fits a byte per position");
    let (one, one_cpu, _) = timed(3, || build(1));
    println!(
        "retrograde (unmoves), 1 thread:  {:>8.1} ms wall, {:>8.1} ms cpu",
        ms(one),
        ms(one_cpu)
    );
    let (two, two_cpu, table) = timed(5, || build(2));
    println!(
        "retrograde (unmoves), 2 threads: {:>8.1} ms wall, {:>8.1} ms cpu",
        ms(two),
        ms(two_cpu)
    );
    if forward {
        let (time, cpu, forward_table) = timed(1, || {
            Table::build_forward(2).expect("the table fits a byte per position")
        });
        println!(
            "forward passes, 2 threads:       {:>8.1} ms wall, {:>8.1} ms cpu",
            ms(time),
            ms(cpu)
        );
        let same = forward_table.bytes() == table.bytes();
        println!("forward passes give the same table: {same}");
        assert!(same, "the two builds disagree");
    }
    println!(
        "placements {POSITIONS} per side to move, table {} bytes ({:.2} MiB), peak RSS {} KiB",
        table.memory(),
        table.memory() as f64 / (1024.0 * 1024.0),
        peak_rss_kib().map_or("?".to_string(), |k| k.to_string())
    );
    let counts = table.counts();
    println!(
        "side to move (placements without its own line: {}): won {}, lost {}, drawn {}",
        counts.total(),
        counts.wins,
        counts.losses,
        counts.draws
    );
    println!(
        "longest win {} plies, longest loss {} plies",
        counts.longest_win, counts.longest_loss
    );
    let start = Neutreeko::start(&default_config::<Neutreeko>());
    let value = table.probe(&start).expect("a valid position");
    println!("start position: {value:?}");
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    for mv in moves {
        let mut child = start;
        child.play(mv);
        let for_black = table.probe(&child).expect("a valid position").parent();
        println!("  {}: {for_black:?}", start.format_move(mv));
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}
