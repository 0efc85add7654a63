//! Labels 6 × 7 row-clear positions by a long search, for `linetris_tune --labelled`
//! (issue 34: the evaluation's weights were fitted on 5 × 5, where the tables give exact
//! values; on 6 × 7 a search beyond the clock's horizon is the best label there is).
//!
//! `cargo run --release --example linetris_label -- [--positions N] [--ms MS] [--seed S] > F`
//! (defaults 1000, 500, 1). Each position comes from its own game: 2 or 3 random plies,
//! then each side searches to a depth drawn per game and side (2 to 8; depth 2 is the
//! two-ply player) and plays a random move one ply in six; one position is kept at a ply
//! drawn from 8 to 21. It is labelled by `go movetime MS` of the engine from a fresh
//! table, `Tablebase` off. Output, a line a position: the FEN, a tab, and `cp N` or
//! `mate N` (for the side to move).
//!
//! `--from F` labels the positions of `F` instead (the first `--positions` of them): a
//! line a position, the moves from the start separated by spaces (positions of the
//! engine's own games, cut from `match --out` records; see
//! docs/experiments/linetris.md, "Twelfth pass").

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::game::{Game, Params, default_config};
use tabuleiro::games::linetris::{Linetris, LinetrisEval, LinetrisOracle};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Oracle, Policy, Score, SearchLimits, TABLEBASE};

fn usage() -> ! {
    eprintln!("usage: linetris_label [--positions N] [--ms MS] [--seed S] [--from F]");
    std::process::exit(2);
}

fn policy(config: &<Linetris as Game>::Config) -> Policy<Linetris> {
    let oracle = LinetrisOracle::new(config);
    if let Ok(off) = Params::defaults(TABLEBASE).with("Tablebase", "false") {
        oracle.set_options(&off);
    }
    Policy::new(16, LinetrisEval::default(), Arc::new(oracle))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut positions, mut ms, mut seed) = (1000usize, 500u64, 1u64);
    let mut from = None;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).unwrap_or_else(|| usage());
        match args[i].as_str() {
            "--positions" => positions = value.parse().unwrap_or_else(|_| usage()),
            "--ms" => ms = value.parse().unwrap_or_else(|_| usage()),
            "--seed" => seed = value.parse().unwrap_or_else(|_| usage()),
            "--from" => from = Some(value.clone()),
            _ => usage(),
        }
        i += 2;
    }
    let config = default_config::<Linetris>();
    let mut rng = Xorshift::new(seed);
    let mut player = policy(&config);
    let mut labeller = policy(&config);
    let started = Instant::now();
    let mut done = 0;
    if let Some(file) = from {
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| {
            eprintln!("linetris_label: {file}: {e}");
            std::process::exit(1);
        });
        for (n, line) in text.lines().take(positions).enumerate() {
            let mut state = Linetris::start(&config);
            let mut legal = Vec::new();
            for word in line.split_whitespace() {
                legal.clear();
                state.generate_moves(&mut legal);
                match state.parse_move(word) {
                    Ok(mv) if state.outcome().is_none() && legal.contains(&mv) => state.play(mv),
                    _ => {
                        eprintln!("linetris_label: {file}:{}: bad move {word:?}", n + 1);
                        std::process::exit(1);
                    }
                }
            }
            if state.outcome().is_some() {
                continue;
            }
            println!("{}\t{}", state.fen(), label(&mut labeller, &state, ms));
            done += 1;
            if done % 50 == 0 {
                eprintln!("{done} at {:.0} s", started.elapsed().as_secs_f64());
            }
        }
        return;
    }
    while done < positions {
        let random = 2 + rng.below(2) as u32;
        let depths = [2 + rng.below(7) as u32, 2 + rng.below(7) as u32];
        let keep_at = 8 + rng.below(14) as u32;
        let mut state = Linetris::start(&config);
        let mut moves = Vec::new();
        player.clear();
        for ply in 0..keep_at {
            moves.clear();
            state.generate_moves(&mut moves);
            if state.outcome().is_some() || moves.is_empty() {
                break;
            }
            let mv = if ply < random || rng.below(6) == 0 {
                moves[rng.index(moves.len())]
            } else {
                let limits = SearchLimits {
                    depth: Some(depths[(ply % 2) as usize]),
                    ..SearchLimits::default()
                };
                let stop = Arc::new(AtomicBool::new(false));
                let result = player.search(&state, &[state.hash()], limits, stop, &mut |_| {});
                result.best.unwrap_or(moves[0])
            };
            state.play(mv);
        }
        if state.outcome().is_some() || state.plies() != keep_at {
            continue;
        }
        println!("{}\t{}", state.fen(), label(&mut labeller, &state, ms));
        done += 1;
        if done % 50 == 0 {
            eprintln!(
                "{done}/{positions} at {:.0} s",
                started.elapsed().as_secs_f64()
            );
        }
    }
}

/// `cp N` or `mate N`: a search of `ms` from a fresh table.
fn label(labeller: &mut Policy<Linetris>, state: &Linetris, ms: u64) -> String {
    labeller.clear();
    let limits = SearchLimits::movetime(ms);
    let stop = Arc::new(AtomicBool::new(false));
    let result = labeller.search(state, &[state.hash()], limits, stop, &mut |_| {});
    match result.score {
        Score::Cp(cp) => format!("cp {cp}"),
        Score::Mate(n) => format!("mate {n}"),
    }
}
