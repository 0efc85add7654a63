//! The Connect Four solver (Linetris, RowClear off, 6×7) on positions read from stdin,
//! in the format of Pascal Pons' solver, for side-by-side timing
//! (`scripts/connect-four-vs-pons`).
//!
//! `cargo run --release --example connect_four_stdin < positions`
//!
//! Each input line is a position as the columns played from the empty board, `1` to
//! `7` (`4453`), optionally followed by other words, which are ignored. Each output
//! line is `moves score nodes ns`: the exact score as Pons' solver gives it (positive:
//! the side to move wins, `22 - ` its stones at its winning move; negative: it loses;
//! 0: a draw), the solver's nodes, and the nanoseconds of the solve alone. The table
//! is cleared before each position, outside the timing; no opening book is used (as
//! Pons' solver is timed without his). A line that is no position
//! (an illegal move, a game already over) prints `moves invalid`.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::game::Game;
use tabuleiro::games::linetris::solver::Solver;
use tabuleiro::games::linetris::{Config, Linetris};

/// The position after the columns `moves`, or `None` if a move is not legal or the
/// game is over.
fn after_columns(config: &Config, moves: &str) -> Option<Linetris> {
    let mut state = Linetris::start(config);
    for c in moves.chars() {
        if state.outcome().is_some() {
            return None;
        }
        let mv = state.legal_move(&c.to_string()).ok()?;
        state.play(mv);
    }
    state.outcome().is_none().then_some(state)
}

fn main() {
    let config = Config::connect_four(6, 7);
    let stop = AtomicBool::new(false);
    let mut solver = Solver::<u64>::without_book(6, 7);
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    for line in std::io::stdin().lock().lines() {
        let line = line.expect("stdin");
        let Some(moves) = line.split_whitespace().next() else {
            continue;
        };
        let Some(state) = after_columns(&config, moves) else {
            writeln!(out, "{moves} invalid").expect("stdout");
            continue;
        };
        let side = state.side_to_move();
        let own = state.pieces(side) as u64;
        let mask = (state.pieces(side) | state.pieces(side.other())) as u64;
        let p = solver.position(own, mask);
        solver.clear();
        solver.reset_nodes();
        let start = Instant::now();
        let score = solver.solve_score(p, &stop).expect("never stopped");
        let ns = start.elapsed().as_nanos();
        writeln!(out, "{moves} {score} {} {ns}", solver.nodes()).expect("stdout");
    }
}
