//! Benchmark of the Connect Four solver (Linetris, RowClear off) on the L3 test set.
//!
//! `cargo run --release --example linetris_solve [FILE] [STRIP...]`
//!
//! For each position of FILE (default: the shared `Test_L3_R1`), and for each STRIP
//! (default 0 4 8 12: that many last moves removed, for harder positions), clears the
//! transposition table (not timed), then times the exact score (as Pons' solver
//! reports it) and counts the nodes. Prints the mean and worst time and nodes per
//! position; for STRIP 0 it also times the full `Oracle::solve` (score and best move)
//! and checks the scores against the file.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::game::Game;
use tabuleiro::games::linetris::solver::{Solver, value_to_score};
use tabuleiro::games::linetris::{Config, Linetris, LinetrisOracle};
use tabuleiro::search::Oracle;

/// The shared test set beside the repository (`../shared/data`, as the project's
/// checkouts have it); pass FILE to use another copy.
fn default_path() -> String {
    let manifest = env!("CARGO_MANIFEST_DIR");
    format!("{manifest}/../shared/data/connect4/Test_L3_R1")
}

/// The position after the columns `moves` (`"4453"`), as the test file writes them.
fn after_columns(config: &Config, moves: &str) -> Linetris {
    let mut state = Linetris::start(config);
    for c in moves.chars() {
        let mv = state
            .legal_move(&c.to_string())
            .expect("legal move in file");
        state.play(mv);
    }
    state
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (path, strips): (String, Vec<usize>) = match args.split_first() {
        Some((first, rest)) if first.parse::<usize>().is_err() => (
            first.clone(),
            rest.iter().filter_map(|a| a.parse().ok()).collect(),
        ),
        _ => (
            default_path(),
            args.iter().filter_map(|a| a.parse().ok()).collect(),
        ),
    };
    let strips = if strips.is_empty() {
        vec![0, 4, 8, 12]
    } else {
        strips
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => {
            eprintln!(
                "linetris_solve: cannot read the test set {path}: {e} (pass FILE: Pons' Test_L3_R1)"
            );
            std::process::exit(2);
        }
    };
    let lines: Vec<(String, i32)> = text
        .lines()
        .filter_map(|line| {
            let (moves, score) = line.split_once(' ')?;
            Some((moves.to_string(), score.trim().parse().ok()?))
        })
        .collect();
    let config = Config::connect_four(6, 7);
    let stop = AtomicBool::new(false);
    let mut solver = Solver::<u64>::new(6, 7);
    // Knobs for tuning: LT_TABLE_MIN, LT_MIRROR_MIN (empty cells), LT_REPEAT.
    let knob = |name: &str| std::env::var(name).ok().and_then(|v| v.parse::<u32>().ok());
    if let Some(v) = knob("LT_TABLE_MIN") {
        solver.table_min_empties = v;
    }
    if let Some(v) = knob("LT_NEAR_MAX") {
        solver.near_max_empties = v;
    }
    if let Some(v) = knob("LT_MIRROR_MIN") {
        solver.mirror_min_empties = v;
    }
    let repeat = knob("LT_REPEAT").unwrap_or(5).max(1);
    println!(
        "table from {} empties (small table up to {}), mirror keys from {} empties; \
         {repeat} passes over the set, each position from a cleared table, the fastest \
         of its passes kept (the machine is shared); first pass alone in brackets",
        solver.table_min_empties, solver.near_max_empties, solver.mirror_min_empties
    );
    println!("{path}: {} positions", lines.len());
    for &strip in &strips {
        // The positions (own pieces, all pieces, stones, expected score when exact).
        let mut positions = Vec::new();
        for (moves, expected) in &lines {
            let keep = moves.len().saturating_sub(strip);
            let state = after_columns(&config, &moves[..keep]);
            if state.outcome().is_some() {
                continue;
            }
            let side = state.side_to_move();
            let own = state.pieces(side) as u64;
            let mask = (state.pieces(side) | state.pieces(side.other())) as u64;
            positions.push((solver.position(own, mask), keep, *expected));
        }
        let count = positions.len();
        let mut best_ns = vec![u128::MAX; count];
        let mut first_ns = 0u128;
        let mut nodes = vec![0u64; count];
        let mut mismatches = 0;
        for pass in 0..repeat {
            for (i, &(p, _, expected)) in positions.iter().enumerate() {
                solver.clear();
                solver.reset_nodes();
                let start = Instant::now();
                let score = solver.solve_score(p, &stop).expect("not stopped");
                let ns = start.elapsed().as_nanos();
                best_ns[i] = best_ns[i].min(ns);
                nodes[i] = solver.nodes();
                if pass == 0 {
                    first_ns += ns;
                    if strip == 0 && score != expected {
                        mismatches += 1;
                    }
                }
            }
        }
        let stones: usize = positions.iter().map(|&(_, keep, _)| keep).sum();
        let total_ns: u128 = best_ns.iter().sum();
        let total_nodes: u64 = nodes.iter().sum();
        let mut sorted = best_ns.clone();
        sorted.sort_unstable();
        println!(
            "strip {strip:2}: {count} positions, mean {:.1} stones; score: mean {:.2} us \
             ({:.2} us), median {:.2} us, worst {:.1} us; mean {:.1} nodes, worst {} nodes{}",
            stones as f64 / count as f64,
            total_ns as f64 / count as f64 / 1000.0,
            first_ns as f64 / count as f64 / 1000.0,
            sorted[count / 2] as f64 / 1000.0,
            sorted[count - 1] as f64 / 1000.0,
            total_nodes as f64 / count as f64,
            nodes.iter().max().copied().unwrap_or(0),
            if strip == 0 {
                format!(", {mismatches} mismatches with the file")
            } else {
                String::new()
            }
        );
    }
    let oracle = LinetrisOracle::new(&config);
    // Warm up the engine's solver (allocating its table) before timing it.
    // (The first position of the file; the empty board would take far too long.)
    if let Some((moves, _)) = lines.first() {
        let state = after_columns(&config, moves);
        let _ = oracle.solve(&state, &stop);
    }
    // The whole `Oracle::solve` (score, best move, conversion to plies) on the set.
    let mut total_ns = 0u128;
    let mut total_nodes = 0u64;
    let mut mismatches = 0;
    for (moves, expected) in &lines {
        let state = after_columns(&config, moves);
        let mut best_ns = u128::MAX;
        let mut solution = None;
        for _ in 0..repeat {
            oracle.clear();
            let start = Instant::now();
            solution = oracle.solve(&state, &stop);
            best_ns = best_ns.min(start.elapsed().as_nanos());
        }
        let solution = solution.expect("RowClear off");
        total_ns += best_ns;
        total_nodes += solution.nodes;
        if value_to_score(solution.value, 42 - moves.len() as u32) != *expected {
            mismatches += 1;
        }
    }
    println!(
        "Oracle::solve (value in plies + best move): mean {:.2} us, mean {:.1} nodes, {mismatches} mismatches",
        total_ns as f64 / lines.len() as f64 / 1000.0,
        total_nodes as f64 / lines.len() as f64
    );
}
