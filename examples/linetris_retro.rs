//! Linetris with the row clear (RowClear on) solved by retrograde analysis.
//!
//! `cargo run --release --example linetris_retro ROWS COLS [--check]`
//!
//! Builds the table of the board (see `src/games/linetris/retro.rs`) and prints the
//! value of the start for p1, the plies under best play, the counts of wins, losses
//! and draws (for the side to move) over every state and over the states reachable
//! from the start, the build time and the memory. With `--check`, also checks every
//! state's value against its children's by the engine's own rules (`Linetris::play`).

use std::collections::HashMap;
use std::time::Instant;

use tabuleiro::game::{Game, Outcome, Value};
use tabuleiro::games::linetris::Linetris;
use tabuleiro::games::linetris::retro::{self, Table};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let check = args.iter().any(|a| a == "--check");
    let prove = args.iter().any(|a| a == "--prove-start");
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
    if prove {
        let started = Instant::now();
        let state = table.state_of(&start);
        let mut bounds = Bounds::default();
        let proved = match value {
            Value::Win(d) => {
                bounds.wins_within(&state, d) && (d < 3 || !bounds.wins_within(&state, d - 2))
            }
            Value::Loss(d) => {
                bounds.loses_within(&state, d) && (d < 4 || !bounds.loses_within(&state, d - 2))
            }
            Value::Draw(_) => !bounds.wins_within(&state, 59) && !bounds.loses_within(&state, 60),
        };
        println!(
            "prove-start: {} by a plain bounded search ({} positions, {:.1} s)",
            if proved { "confirmed" } else { "CONTRADICTED" },
            bounds.known.len(),
            started.elapsed().as_secs_f64()
        );
        assert!(proved);
    }
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

/// Proven bounds per position (by its hash): the side to move forces a win within
/// `win_at` plies and not within `no_win`; it loses within `loss_at` whatever it
/// does, and not within `no_loss`.
#[derive(Default)]
struct Bounds {
    known: HashMap<u64, [u32; 4]>,
}

const WIN_AT: usize = 0;
const NO_WIN: usize = 1;
const LOSS_AT: usize = 2;
const NO_LOSS: usize = 3;

impl Bounds {
    fn get(&self, state: &Linetris) -> [u32; 4] {
        self.known
            .get(&state.hash())
            .copied()
            .unwrap_or([u32::MAX, 0, u32::MAX, 1])
    }

    fn set(&mut self, state: &Linetris, which: usize, d: u32) {
        let entry = self
            .known
            .entry(state.hash())
            .or_insert([u32::MAX, 0, u32::MAX, 1]);
        entry[which] = if which == WIN_AT || which == LOSS_AT {
            entry[which].min(d)
        } else {
            entry[which].max(d)
        };
    }

    /// Whether the side to move can force its win within `d` plies.
    fn wins_within(&mut self, state: &Linetris, d: u32) -> bool {
        let known = self.get(state);
        if d >= known[WIN_AT] {
            return true;
        }
        if d <= known[NO_WIN] {
            return false;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut won = false;
        for &mv in &moves {
            let mut child = *state;
            child.play(mv);
            if child.outcome() == Some(Outcome::Win(state.side_to_move())) {
                won = true;
                break;
            }
        }
        if !won && d >= 3 {
            for &mv in &moves {
                let mut child = *state;
                child.play(mv);
                if self.loses_within(&child, d - 1) {
                    won = true;
                    break;
                }
            }
        }
        self.set(state, if won { WIN_AT } else { NO_WIN }, d);
        won
    }

    /// Whether the side to move loses within `d` plies whatever it does.
    fn loses_within(&mut self, state: &Linetris, d: u32) -> bool {
        let known = self.get(state);
        if d >= known[LOSS_AT] {
            return true;
        }
        if d <= known[NO_LOSS] {
            return false;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut lost = true;
        for &mv in &moves {
            let mut child = *state;
            child.play(mv);
            if child.outcome().is_some() || !self.wins_within(&child, d - 1) {
                lost = false;
                break;
            }
        }
        self.set(state, if lost { LOSS_AT } else { NO_LOSS }, d);
        lost
    }
}
