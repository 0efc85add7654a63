//! Linetris with the row clear (RowClear on) solved by retrograde analysis.
//!
//! `cargo run --release --example linetris_retro ROWS COLS [--check] [--prove-start]
//! [--save | --load]`
//!
//! Builds the table of the board (see `src/games/linetris/retro.rs`) and prints the
//! value of the start for p1, the plies under best play, the counts of wins, losses
//! and draws (for the side to move) over every state and over the states reachable
//! from the start, the build time and the memory, and what a probe costs. With
//! `--check`, also checks every state's value against its children's by the engine's
//! own rules (`Linetris::play`); `--prove-start` proves the start's value by a plain
//! bounded search. `--save` writes the table to the engine's cache file (the directory
//! of `$TABULEIRO_CACHE`, `$XDG_CACHE_HOME/tabuleiro` or `~/.cache/tabuleiro`), which
//! the engine then loads instead of building; `--load` reads the table from there
//! instead of building it.

use std::collections::HashMap;
use std::time::Instant;

use tabuleiro::game::{Game, Outcome, Value};
use tabuleiro::games::linetris::Linetris;
use tabuleiro::games::linetris::retro::{self, Child, Table, cache};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let numbers: Vec<u32> = args.iter().filter_map(|a| a.parse().ok()).collect();
    let check = args.iter().any(|a| a == "--check");
    let prove = args.iter().any(|a| a == "--prove-start");
    let save = args.iter().any(|a| a == "--save");
    let load = args.iter().any(|a| a == "--load");
    let [rows, cols] = numbers[..] else {
        eprintln!("usage: linetris_retro ROWS COLS [--check] [--prove-start] [--save | --load]");
        std::process::exit(2);
    };
    if !retro::fits(rows, cols) {
        eprintln!("{rows} x {cols} is too large for the table");
        std::process::exit(2);
    }
    let bytes = retro::build_bytes(rows, cols);
    println!(
        "Linetris {rows} x {cols}, RowClear on: table of {} entries, {:.0} MiB to build",
        bytes / 2,
        bytes as f64 / (1u64 << 20) as f64
    );
    let dir = cache::dir();
    let started = Instant::now();
    let table = if load {
        let Some(dir) = &dir else {
            eprintln!("no cache directory: set TABULEIRO_CACHE");
            std::process::exit(2);
        };
        match cache::load(dir, rows, cols) {
            Ok(Some(table)) => table,
            Ok(None) => {
                eprintln!("no file {}", cache::path(dir, rows, cols).display());
                std::process::exit(1);
            }
            Err(why) => {
                eprintln!("cannot load the table: {why}");
                std::process::exit(1);
            }
        }
    } else {
        Table::build(rows, cols)
    };
    let build = started.elapsed().as_secs_f64();
    if save {
        let Some(dir) = &dir else {
            eprintln!("no cache directory: set TABULEIRO_CACHE");
            std::process::exit(2);
        };
        match cache::save(&table, dir) {
            Ok(path) => println!(
                "saved {} ({} bytes)",
                path.display(),
                std::fs::metadata(&path).map_or(0, |m| m.len())
            ),
            Err(why) => {
                eprintln!("cannot save the table in {}: {why}", dir.display());
                std::process::exit(1);
            }
        }
    }
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
        "longest win or loss: {} plies; {} {build:.1} s, reachable count {reach_time:.1} s",
        table.max_dist,
        if load { "load" } else { "build" }
    );
    println!("probe: {:.0} ns", probe_cost(&table));
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
        let checked = table
            .check()
            .unwrap_or_else(|why| panic!("the table disagrees with the rules: {why}"));
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

/// The mean time of a probe (`Table::probe` of a Linetris position) over positions
/// of random games from the start, in nanoseconds.
fn probe_cost(table: &Table) -> f64 {
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut states = Vec::new();
    while states.len() < 100_000 {
        let mut pos = table.start();
        for _ in 0..60 {
            let children = table.children(&pos);
            if children.is_empty() {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            match children[(seed >> 33) as usize % children.len()].1 {
                Child::Pos(next) => pos = next,
                Child::Won => break,
            }
            states.push(table.state_of(&pos));
        }
    }
    let rounds = 10;
    let started = Instant::now();
    let mut known = 0u64;
    for _ in 0..rounds {
        for state in &states {
            known += u64::from(table.probe(state).is_some());
        }
    }
    assert_eq!(known, (rounds * states.len()) as u64);
    started.elapsed().as_secs_f64() * 1e9 / (rounds * states.len()) as f64
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
