//! Solves Talpa from the start position (or a FEN): the value for the side to move,
//! the plies to the end under best play, the nodes, the time and a principal variation.
//!
//! `cargo run --release --example talpa_solve SIZE [--fen FEN] [--table LOG2] [--moves]`
//!
//! - `SIZE`: 4, 6 or 8 (8×8 from a late position: `--fen`).
//! - `--fen FEN`: solve this position instead of the start.
//! - `--table LOG2`: 2^LOG2 table entries of 16 bytes (default 22, 64 MiB).
//! - `--moves`: solve each first move of the position instead (one line each, the
//!   moves that a half turn of the board maps onto an earlier one left out when the
//!   position is the start), then the position from what the table holds.
//! - `--seconds N`: give up after N seconds (each first move with `--moves`).
//! - `--pn`: only win or loss, by proof-number search (no plies, no variation).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Value};
use tabuleiro::games::talpa::Talpa;
use tabuleiro::games::talpa::solve::Solver;

fn describe(value: Value) -> String {
    format!("{} in {} plies", value.word(), value.plies())
}

/// Sets `stop` after `seconds` (none: never).
fn timer(seconds: Option<u64>) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    if let Some(seconds) = seconds {
        let flag = Arc::clone(&stop);
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_secs(seconds));
            flag.store(true, Ordering::Relaxed);
        });
    }
    stop
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut size = 4usize;
    let mut fen = None;
    let mut log2 = 22u32;
    let mut per_move = false;
    let mut seconds = None;
    let mut proof_numbers = false;
    let mut i = 0;
    while i < args.len() {
        match args[i].as_str() {
            "--fen" => {
                i += 1;
                fen = args.get(i).cloned();
            }
            "--table" => {
                i += 1;
                log2 = args
                    .get(i)
                    .and_then(|a| a.parse().ok())
                    .expect("--table LOG2");
            }
            "--seconds" => {
                i += 1;
                seconds = Some(
                    args.get(i)
                        .and_then(|a| a.parse().ok())
                        .expect("--seconds N"),
                );
            }
            "--moves" => per_move = true,
            "--pn" => proof_numbers = true,
            other => size = other.parse().expect("SIZE: 4, 6 or 8"),
        }
        i += 1;
    }
    let config = tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", size.to_string())])
        .expect("an even size");
    let state = match &fen {
        Some(text) => Talpa::from_fen(&config, text).unwrap_or_else(|e| panic!("{e}")),
        None => Talpa::start(&config),
    };
    let size = state.size();
    let mut solver = Solver::new(size, log2).unwrap_or_else(|e| panic!("{e}"));
    println!(
        "Talpa {size}x{size}: {}, table {} MiB",
        state.fen(),
        (16u64 << log2) >> 20
    );
    let started = Instant::now();
    if per_move {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut seen = Vec::new();
        for mv in moves {
            let mut child = state;
            child.play(mv);
            // The start is symmetric under the half turn: skip the images of moves done.
            let turned = Talpa::from_parts(
                size,
                child.pieces(tabuleiro::game::Player::P1).reverse_bits() >> (128 - size * size),
                child.pieces(tabuleiro::game::Player::P2).reverse_bits() >> (128 - size * size),
                child.side_to_move(),
                child.plies(),
            );
            if fen.is_none() && seen.contains(&turned.fen()) {
                continue;
            }
            seen.push(child.fen());
            let stop = timer(seconds);
            let t = Instant::now();
            let before = solver.nodes();
            if proof_numbers {
                match solver.prove_by(&child, &stop, None) {
                    Ok((wins, nodes)) => println!(
                        "{}: {} for the mover, {} nodes, {:.1} s",
                        state.format_move(mv),
                        if wins { "loss" } else { "win" },
                        nodes,
                        t.elapsed().as_secs_f64()
                    ),
                    Err(_) => println!(
                        "{}: not proven within {} s ({} nodes)",
                        state.format_move(mv),
                        seconds.unwrap_or(0),
                        solver.nodes() - before
                    ),
                }
                continue;
            }
            match solver.solve(&child, &stop) {
                Ok(solved) => println!(
                    "{}: {} for the mover, {} nodes, {:.1} s",
                    state.format_move(mv),
                    describe(solved.value.parent()),
                    solved.nodes,
                    t.elapsed().as_secs_f64()
                ),
                Err(_) => println!(
                    "{}: not solved within {} s ({} nodes)",
                    state.format_move(mv),
                    seconds.unwrap_or(0),
                    solver.nodes() - before
                ),
            }
        }
    }
    let stop = timer(seconds);
    if proof_numbers {
        match solver.prove_by(&state, &stop, None) {
            Ok((wins, nodes)) => println!(
                "value: {} for the side to move, {} nodes, {} in all, {:.2} s",
                if wins { "win" } else { "loss" },
                nodes,
                solver.nodes(),
                started.elapsed().as_secs_f64()
            ),
            Err(_) => println!(
                "not proven within {} s ({} nodes)",
                seconds.unwrap_or(0),
                solver.nodes()
            ),
        }
        return;
    }
    match solver.solve_line(&state, &stop) {
        Ok(solved) => {
            let mut position = state;
            let pv: Vec<String> = solved
                .pv
                .iter()
                .map(|&mv| {
                    let text = position.format_move(mv);
                    position.play(mv);
                    text
                })
                .collect();
            println!(
                "value: {} for the side to move ({})",
                describe(solved.value),
                if state.side_to_move() == tabuleiro::game::Player::P1 {
                    "red"
                } else {
                    "blue"
                }
            );
            println!(
                "nodes {} time {:.2} s",
                solver.nodes(),
                started.elapsed().as_secs_f64()
            );
            println!("pv {}", pv.join(" "));
            println!("end {}", position.fen());
        }
        Err(_) => println!(
            "not solved within {} s ({} nodes)",
            seconds.unwrap_or(0),
            solver.nodes()
        ),
    }
}
