//! Where an 8×8 Talpa game was lost: the engine's lost games of `match` records walked
//! back from the end with the dedicated solver (`Solver::wins`, one null-window proof a
//! position, from a fresh table, given up after `--seconds`), to the last position
//! where the engine, to move, still had a forced win (a won game thrown away: its move
//! there is the error) or to the first it could not decide (the game was lost from
//! there or earlier, or decided beyond the solver's reach).
//!
//! `cargo run --release --example talpa_walkback -- FILE.jsonl... [--engine NAME]
//! [--seconds S] [--table LOG2]`
//!
//! One line a lost game: `FILE game G as p1|p2, N plies: ...`, then a summary.

use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::arena::record;
use tabuleiro::arena::replay::replay;
use tabuleiro::game::{Game, Player};
use tabuleiro::games::talpa::Talpa;
use tabuleiro::games::talpa::solve::Solver;

/// The value after an option, or the usage of that option.
fn value<T: std::str::FromStr>(arg: Option<&String>, usage: &str) -> T {
    arg.and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("{usage}"))
}

/// Whether the side to move wins (`Some(true)`), loses, or is not proven in time.
fn prove(solver: &mut Solver, state: &Talpa, seconds: f64) -> (Option<bool>, f64) {
    solver.clear();
    let never = AtomicBool::new(false);
    solver.set_deadline(Some(Instant::now() + Duration::from_secs_f64(seconds)));
    let started = Instant::now();
    let result = solver.wins(state, &never).ok();
    solver.set_deadline(None);
    (result, started.elapsed().as_secs_f64() * 1000.0)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut files = Vec::new();
    let mut engine = "engine".to_string();
    let mut seconds = 3.0;
    let mut log2 = 22u32;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--engine" => engine = value(rest.next(), "--engine NAME"),
            "--seconds" => seconds = value(rest.next(), "--seconds S"),
            "--table" => log2 = value(rest.next(), "--table LOG2"),
            other => files.push(other.to_string()),
        }
    }
    let config =
        tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", "8".to_string())]).expect("8x8");
    let mut solver = Solver::new(8, log2).unwrap_or_else(|e| panic!("{e}"));
    let (mut thrown, mut undecided, mut lost_games) = (Vec::new(), Vec::new(), 0);
    for file in &files {
        let records = record::read_file(Path::new(file)).unwrap_or_else(|e| panic!("{e}"));
        for record in &records {
            let seat = if record.p1 == engine {
                Player::P1
            } else if record.p2 == engine {
                Player::P2
            } else {
                continue;
            };
            let lost = record.winner.as_deref().is_some_and(|w| w != engine);
            if !lost {
                continue;
            }
            lost_games += 1;
            let game_moves = replay::<Talpa>(&config, record).unwrap_or_else(|e| panic!("{e}"));
            let mut state = match &game_moves.fen {
                Some(fen) => Talpa::from_fen(&config, fen).unwrap_or_else(|e| panic!("{e}")),
                None => Talpa::start(&config),
            };
            let mut positions = Vec::new();
            for (index, (side, text)) in game_moves.moves.iter().enumerate() {
                if index >= game_moves.opening_plies && *side == seat {
                    positions.push((state, text.as_str(), index - game_moves.opening_plies));
                }
                let mv = state.legal_move(text).unwrap_or_else(|e| panic!("{e}"));
                state.play(mv);
            }
            let game = record.game;
            let side = if seat == Player::P1 { "p1" } else { "p2" };
            let mut verdict = "lost from the engine's first move on".to_string();
            let mut proofs = Vec::new();
            for (position, mv, index) in positions.iter().rev() {
                let (result, ms) = prove(&mut solver, position, seconds);
                let empty = position.empty().count_ones();
                let clock = record.move_ms.get(*index).copied().unwrap_or(0);
                proofs.push(format!(
                    "{}:{}",
                    position.plies(),
                    match result {
                        Some(true) => "W",
                        Some(false) => "L",
                        None => "?",
                    }
                ));
                match result {
                    Some(true) => {
                        verdict = format!(
                            "won at ply {} ({empty} empty), thrown away by {mv} \
                             ({clock} ms; proof {ms:.0} ms)",
                            position.plies()
                        );
                        thrown.push(empty);
                        break;
                    }
                    Some(false) => {}
                    None => {
                        verdict = format!(
                            "lost from ply {} ({empty} empty) or earlier: not decided in {seconds} s",
                            position.plies()
                        );
                        undecided.push(empty);
                        break;
                    }
                }
            }
            println!(
                "{file} game {game} as {side}, {} plies: {verdict} [{}]",
                state.plies(),
                proofs.join(" ")
            );
        }
    }
    println!(
        "lost games {lost_games}: a win thrown away in {} (at empty squares {:?}); \
         lost beyond the solver's reach in {} (lost from {:?} empty or earlier)",
        thrown.len(),
        thrown,
        undecided.len(),
        undecided
    );
}
