//! The dedicated solver on the 8×8 horizon set (`tests/data/talpa_horizon.jsonl`): for
//! each position, before the game's (bad) move and after it, the time and nodes of a
//! win-or-loss proof (df-pn, `--pn`), of one null-window search (`--wins`) and of the
//! exact value with its distance (`--exact`), each from a fresh table and given up after
//! `--seconds`.
//!
//! `cargo run --release --example talpa_horizon_proofs -- [FILE] [--pn] [--wins] [--exact]
//! [--seconds S] [--table LOG2] [--first N]`
//!
//! One line a position and method: `ply P before|after METHOD: RESULT nodes N ms T`.
//! RESULT is the value for the side to move there (`win`/`loss`, with plies for
//! `--exact`) or `-` when not proven in time. Ends with a summary per method.

use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Value};
use tabuleiro::games::talpa::Talpa;
use tabuleiro::games::talpa::solve::Solver;

#[derive(Clone, Copy, PartialEq)]
enum Method {
    Pn,
    Wins,
    Exact,
}

impl Method {
    fn name(self) -> &'static str {
        match self {
            Method::Pn => "pn",
            Method::Wins => "wins",
            Method::Exact => "exact",
        }
    }
}

/// Per method and side of the bad move: method, side, proven, positions, ms of the
/// proven, nodes of the proven.
type Tally = (Method, &'static str, usize, usize, Vec<f64>, u64);

/// (proven, nodes, ms) of one method on one position, from a fresh table.
fn run(solver: &mut Solver, state: &Talpa, method: Method, seconds: f64) -> (String, u64, f64) {
    solver.clear();
    let never = AtomicBool::new(false);
    solver.set_deadline(Some(Instant::now() + Duration::from_secs_f64(seconds)));
    let started = Instant::now();
    let result = match method {
        Method::Pn => solver
            .prove_by(state, &never, None)
            .map(|(wins, _)| if wins { "win" } else { "loss" }.to_string()),
        Method::Wins => solver
            .wins(state, &never)
            .map(|wins| if wins { "win" } else { "loss" }.to_string()),
        Method::Exact => solver.value(state, &never).map(|v: Value| match v {
            Value::Win(n) => format!("win {n}"),
            Value::Loss(n) => format!("loss {n}"),
            Value::Draw(n) => format!("draw {n}"),
        }),
    };
    solver.set_deadline(None);
    let ms = started.elapsed().as_secs_f64() * 1000.0;
    (
        result.unwrap_or_else(|_| "-".to_string()),
        solver.nodes(),
        ms,
    )
}

/// The value after an option, or the usage of that option.
fn value<T: std::str::FromStr>(arg: Option<&String>, usage: &str) -> T {
    arg.and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("{usage}"))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut path = "tests/data/talpa_horizon.jsonl".to_string();
    let mut methods = Vec::new();
    let mut seconds = 5.0;
    let mut log2 = 22u32;
    let mut first = usize::MAX;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--pn" => methods.push(Method::Pn),
            "--wins" => methods.push(Method::Wins),
            "--exact" => methods.push(Method::Exact),
            "--seconds" => seconds = value(rest.next(), "--seconds S"),
            "--table" => log2 = value(rest.next(), "--table LOG2"),
            "--first" => first = value(rest.next(), "--first N"),
            other => path = other.to_string(),
        }
    }
    if methods.is_empty() {
        methods = vec![Method::Pn, Method::Exact];
    }
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let config =
        tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", "8".to_string())]).expect("8x8");
    let mut solver = Solver::new(8, log2).unwrap_or_else(|e| panic!("{e}"));
    let mut summary: Vec<Tally> = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(first) {
        let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let ply = record["ply"].as_u64().unwrap_or(0);
        let mut state = Talpa::start(&config);
        for mv in record["moves"].as_array().expect("moves") {
            let mv = state
                .legal_move(mv.as_str().expect("a move"))
                .unwrap_or_else(|e| panic!("{e}"));
            state.play(mv);
        }
        let mut after = state;
        let bad = after
            .legal_move(record["bad"][0].as_str().expect("bad"))
            .unwrap_or_else(|e| panic!("{e}"));
        after.play(bad);
        for (which, position) in [("before", &state), ("after", &after)] {
            for &method in &methods {
                let (result, nodes, ms) = run(&mut solver, position, method, seconds);
                println!(
                    "ply {ply} {which} {}: {result} nodes {nodes} ms {ms:.0}",
                    method.name()
                );
                let entry = match summary
                    .iter_mut()
                    .position(|e| e.0 == method && e.1 == which)
                {
                    Some(index) => &mut summary[index],
                    None => {
                        summary.push((method, which, 0, 0, Vec::new(), 0));
                        summary.last_mut().expect("just pushed")
                    }
                };
                entry.3 += 1;
                if result != "-" {
                    entry.2 += 1;
                    entry.4.push(ms);
                    entry.5 += nodes;
                }
            }
        }
    }
    for (method, which, proven, total, mut times, nodes) in summary {
        times.sort_by(f64::total_cmp);
        let at = |q: f64| {
            times
                .get(((times.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0.0)
        };
        println!(
            "{} {which}: proven {proven}/{total} in {seconds} s; ms of the proven: median {:.0}, 90% {:.0}, max {:.0}; nodes of the proven {nodes}",
            method.name(),
            at(0.5),
            at(0.9),
            at(1.0)
        );
    }
}
