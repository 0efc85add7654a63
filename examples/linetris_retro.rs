//! Linetris with the row clear (RowClear on) solved by retrograde analysis.
//!
//! `cargo run --release --example linetris_retro ROWS COLS [--check]`
//!
//! Builds the table of the board (see `src/games/linetris/retro.rs`) and prints the
//! value of the start for p1, the plies under best play, the counts of wins, losses
//! and draws (for the side to move) over every state and over the states reachable
//! from the start, the build time and the memory. With `--check`, also checks every
//! state's value against its children's by the engine's own rules (`Linetris::play`).

use std::time::Instant;

use tabuleiro::game::{Game, Outcome, Value};
use tabuleiro::games::linetris::retro::{self, Table};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let check = args.iter().any(|a| a == "--check");
    let [rows, cols] = numbers[..] else {
        eprintln!("usage: linetris_retro ROWS COLS [--check]");
        std::process::exit(2);
    };
    if !retro::fits(rows, cols) {
        eprintln!("{rows} x {cols} is too large for the table");
        std::process::exit(2);
    }
    let bytes = retro::build_bytes(rows, cols);
    println!(
        "Linetris {rows} x {cols}, RowClear on: table of {} entries, {:.2} GiB to build",
        bytes / 2,
        bytes as f64 / (1u64 << 30) as f64
    );
    let started = Instant::now();
    let table = Table::build(rows, cols);
    let build = started.elapsed().as_secs_f64();
    let start = table.start();
    let value = table.value(&start);
    let line = table.line(&start, 200);
    let line: String = line
        .iter()
        .map(|mv| (u32::from(mv.0) + 1).to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let all = table.counts();
    let started = Instant::now();
    let reachable = table.reachable();
    let reach_time = started.elapsed().as_secs_f64();
    println!("start: {} for p1", describe(value));
    if !matches!(value, Value::Draw(_)) {
        println!("best play: {line}");
    }
    println!(
        "all states:       {} (wins {}, losses {}, draws {})",
        all.total(),
        all.wins,
        all.losses,
        all.draws
    );
    println!(
        "reachable states: {} (wins {}, losses {}, draws {})",
        reachable.total(),
        reachable.wins,
        reachable.losses,
        reachable.draws
    );
    println!(
        "longest win or loss: {} plies; build {build:.1} s, reachable count {reach_time:.1} s",
        table.max_dist
    );
    if check {
        let started = Instant::now();
        let checked = check_all(&table);
        println!(
            "check: {checked} states agree with their children by Linetris::play ({:.1} s)",
            started.elapsed().as_secs_f64()
        );
    }
}

fn describe(value: Value) -> String {
    match value {
        Value::Win(d) => format!("win in {d} plies"),
        Value::Loss(d) => format!("loss in {d} plies"),
        Value::Draw(_) => "draw".to_string(),
    }
}

/// The preference among values: fastest win, draw, slowest loss.
fn rank(value: Value) -> i64 {
    match value {
        Value::Win(d) => 1_000_000 - i64::from(d),
        Value::Draw(_) => 0,
        Value::Loss(d) => -1_000_000 + i64::from(d),
    }
}

/// Checks every state against its children by the engine's rules; returns the count.
fn check_all(table: &Table) -> u64 {
    let mut checked = 0;
    let mut moves = Vec::new();
    for index in 0..table.len() {
        let Some(pos) = table.decode(index) else {
            continue;
        };
        let state = table.state_of(&pos);
        moves.clear();
        state.generate_moves(&mut moves);
        let best = moves
            .iter()
            .map(|&mv| {
                let mut next = state;
                next.play(mv);
                match next.outcome() {
                    Some(Outcome::Win(_)) => Value::Win(1),
                    Some(Outcome::Draw) => panic!("a draw by the rules without a ply limit"),
                    None => match table.probe(&next).expect("a child is a state") {
                        Value::Win(d) => Value::Loss(d + 1),
                        Value::Loss(d) => Value::Win(d + 1),
                        draw => draw,
                    },
                }
            })
            .max_by_key(|v| rank(*v))
            .expect("a state has a move");
        assert_eq!(best, table.value(&pos), "{}", state.fen());
        checked += 1;
    }
    checked
}
