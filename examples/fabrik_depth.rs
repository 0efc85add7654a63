//! Time to depth on pinned Fabrik middle games (issue 20's speed measure).
//!
//! `cargo run --release --example fabrik_depth [depth]` runs `go depth N` (default 4) from
//! a cold 64 MiB table on each position of `tests/data/fabrik_middlegames.txt` and prints
//! the time, nodes and best move of each, then the median and total time. A second
//! argument picks an experimental evaluation variant (`Terms::experiment`; 0 as shipped),
//! a third the number of search threads (default 1).
//!
//! `cargo run --release --example fabrik_depth -- generate [games] [nodes] [seed]` plays
//! engine self-play games (default 40 games at 20,000 nodes a move, seed 1) from random
//! 4-ply openings on 11×11 and prints one middle-game position of each game that has one:
//! the first position at ply 20 or later with 500 or more legal moves. The data file holds
//! the first 20 positions of `generate 40 20000 1`.
//!
//! `cargo run --release --example fabrik_depth -- walls [rounds]` times `wall_in_move`
//! against `wall_in_move_by_generation` (its slower reference) on the pinned middle games
//! and the tactical suite's positions (`tests/data/fabrik_tactics.txt`, cramped late
//! games), each with every position one move after it, and checks that they agree.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::{RngExt, SeedableRng, rngs::StdRng};
use tabuleiro::game::{Game, default_config};
use tabuleiro::games::fabrik::eval::{Terms, wall_in_move, wall_in_move_by_generation};
use tabuleiro::games::fabrik::{Config, Fabrik, FabrikEval, MoveKind};
use tabuleiro::search::{NoOracle, Policy, SearchLimits};

const DATA: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/data/fabrik_middlegames.txt"
);
const SUITE_PATH: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fabrik_tactics.txt");
const MIDDLE: &str = "tests/data/fabrik_middlegames.txt";
const SUITE: &str = "tests/data/fabrik_tactics.txt";

fn generate(args: &[String]) {
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(40);
    let nodes: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = StdRng::seed_from_u64(seed);
    let config = default_config::<Fabrik>();
    let mut searcher = Policy::<Fabrik>::standard(32, &config);
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut state = Fabrik::start(&config);
        while state.plies() < 4 {
            moves.clear();
            state.generate_moves(&mut moves);
            moves.retain(|mv| mv.kind() != MoveKind::Pass);
            state.play(moves[rng.random_range(0..moves.len())]);
        }
        let mut history = vec![state.hash()];
        searcher.clear();
        while state.outcome().is_none() {
            moves.clear();
            state.generate_moves(&mut moves);
            if state.plies() >= 20 && moves.len() >= 500 {
                println!("{}", state.fen());
                break;
            }
            let stop = Arc::new(AtomicBool::new(false));
            let result = searcher.search(&state, &history, limits, stop, &mut |_| {});
            state.play(result.best.expect("a move while the game goes on"));
            history.push(state.hash());
        }
    }
}

/// The positions of a data file and every position one move after them: the middle
/// games (one FEN a line, 11×11 with lines of 5) or the tactical suite (`;` fields).
fn positions_and_children(text: &str) -> Vec<Fabrik> {
    let mut positions = Vec::new();
    let mut moves = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let (config, fen) = if fields.len() == 7 {
            let config = Config {
                size: fields[1].parse().expect("a size in the suite"),
                line_length: fields[2].parse().expect("a line length in the suite"),
            };
            (config, fields[5])
        } else {
            (default_config::<Fabrik>(), line.trim())
        };
        let state = Fabrik::from_fen(&config, fen).expect("a valid FEN in the data file");
        positions.push(state);
        moves.clear();
        state.generate_moves(&mut moves);
        for &mv in &moves {
            let mut child = state;
            child.play(mv);
            if child.outcome().is_none() {
                positions.push(child);
            }
        }
    }
    positions
}

/// `walls [rounds]`: the time of `wall_in_move` and of its reference on each set.
fn walls(args: &[String]) {
    let rounds: u32 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(5);
    let sets = [
        ("middle games + children", MIDDLE, DATA),
        ("tactical suite + children", SUITE, SUITE_PATH),
    ];
    for (name, text, path) in sets {
        let text = std::fs::read_to_string(path).unwrap_or_else(|_| panic!("{text}"));
        let positions = positions_and_children(&text);
        let found = positions
            .iter()
            .filter(|p| wall_in_move(p).is_some())
            .count();
        for p in &positions {
            assert_eq!(
                wall_in_move(p),
                wall_in_move_by_generation(p),
                "{}",
                p.fen()
            );
        }
        let time = |f: fn(&Fabrik) -> Option<tabuleiro::games::fabrik::Move>| {
            let clock = Instant::now();
            let mut some = 0;
            for _ in 0..rounds {
                some += positions
                    .iter()
                    .filter(|p| std::hint::black_box(f(p)).is_some())
                    .count();
            }
            std::hint::black_box(some);
            clock.elapsed().as_secs_f64() * 1e6 / (f64::from(rounds) * positions.len() as f64)
        };
        let by_generation = time(wall_in_move_by_generation);
        let fast = time(wall_in_move);
        println!(
            "{name}: {} positions, {found} with a walling-in move; wall_in_move {fast:.2} µs, by generation {by_generation:.2} µs a position",
            positions.len()
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("generate") {
        generate(&args);
        return;
    }
    if args.first().map(String::as_str) == Some("walls") {
        walls(&args);
        return;
    }
    let depth: u32 = args.first().and_then(|a| a.parse().ok()).unwrap_or(4);
    let variant: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(0);
    let threads: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(1);
    let text = std::fs::read_to_string(DATA).expect("tests/data/fabrik_middlegames.txt");
    let config = default_config::<Fabrik>();
    let mut times = Vec::new();
    let mut total_nodes = 0;
    let mut moves = Vec::new();
    for fen in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let state = Fabrik::from_fen(&config, fen).expect("a valid FEN in the data file");
        moves.clear();
        state.generate_moves(&mut moves);
        let mut searcher = Policy::new(
            64,
            FabrikEval::with_terms(Terms::experiment(variant)),
            Arc::new(NoOracle),
        );
        searcher.prepare();
        searcher.set_threads(threads);
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        let clock = Instant::now();
        let result = searcher.search(&state, &[state.hash()], limits, stop, &mut |_| {});
        let seconds = clock.elapsed().as_secs_f64();
        times.push(seconds);
        total_nodes += result.nodes;
        println!(
            "{seconds:7.3} s {:>10} nodes {:>4} moves  best {:<8} {:?}  {fen}",
            result.nodes,
            moves.len(),
            result
                .best
                .map(|mv| state.format_move(mv))
                .unwrap_or_default(),
            result.score,
        );
    }
    let total: f64 = times.iter().sum();
    times.sort_by(f64::total_cmp);
    let median = if times.is_empty() {
        0.0
    } else if times.len() % 2 == 1 {
        times[times.len() / 2]
    } else {
        (times[times.len() / 2 - 1] + times[times.len() / 2]) / 2.0
    };
    println!(
        "depth {depth}: {} positions, median {median:.3} s, total {total:.1} s, {total_nodes} nodes",
        times.len()
    );
}
