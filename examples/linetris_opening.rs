//! Makes the Linetris opening table (`data/linetris/opening-6x7.book`, read by
//! `src/games/linetris/opening.rs`): for every position 0 to PLIES plies from the start
//! of 6 × 7 with the row clear (one per mirror pair), the move of a long search of the
//! engine itself (`go movetime MS` from a fresh table, one thread, `Tablebase` off so
//! that the table in the binary plays no part).
//!
//! `cargo run --release --example linetris_opening [--plies P] [--from F] [--ms MS]
//! [--hash MIB] [--merge TABLE] > T` (defaults 3, 0, 3000, 64) searches the positions of
//! F to P plies; `--merge` adds the entries of an earlier table (its searches kept, the
//! header's `movetime` the least of both). A line of progress a position goes to stderr
//! (the moves that reach it, the move found, its score and completed depth); the table
//! goes to stdout.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::game::{Game, Params, default_config};
use tabuleiro::games::linetris::{Linetris, LinetrisEval, LinetrisOracle, opening};
use tabuleiro::search::{Oracle, Policy, SearchLimits, TABLEBASE};

fn usage() -> ! {
    eprintln!(
        "usage: linetris_opening [--plies P] [--from F] [--ms MS] [--hash MIB] [--merge TABLE]"
    );
    std::process::exit(2);
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut plies, mut from, mut ms, mut hash) = (3u32, 0u32, 3000u64, 64usize);
    let mut merge = None;
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).unwrap_or_else(|| usage());
        match args[i].as_str() {
            "--plies" => plies = value.parse().unwrap_or_else(|_| usage()),
            "--from" => from = value.parse().unwrap_or_else(|_| usage()),
            "--merge" => merge = Some(value.clone()),
            "--ms" => ms = value.parse().unwrap_or_else(|_| usage()),
            "--hash" => hash = value.parse().unwrap_or_else(|_| usage()),
            _ => usage(),
        }
        i += 2;
    }
    let config = default_config::<Linetris>();
    // Every position up to `plies`, one per mirror pair, with the moves that reach it.
    let mut todo: BTreeMap<u128, (Linetris, String)> = BTreeMap::new();
    let mut frontier = vec![(Linetris::start(&config), String::new())];
    for ply in 0..=plies {
        let mut next = Vec::new();
        for (state, line) in frontier {
            if state.outcome().is_some() {
                continue;
            }
            if ply >= from {
                todo.entry(opening::canonical_key(&state))
                    .or_insert((state, line.clone()));
            }
            if ply < plies {
                let mut moves = Vec::new();
                state.generate_moves(&mut moves);
                for mv in moves {
                    let mut child = state;
                    child.play(mv);
                    next.push((child, format!("{line}{}", mv.0 + 1)));
                }
            }
        }
        frontier = next;
    }
    eprintln!("{} positions, {ms} ms each", todo.len());
    let started = Instant::now();
    let mut entries = Vec::new();
    let mut least_ms = ms;
    if let Some(file) = merge {
        let earlier = std::fs::read_to_string(&file)
            .map_err(|e| e.to_string())
            .and_then(|text| opening::Table::parse(&text).map(|t| (text, t)));
        match earlier {
            Ok((text, table)) => {
                least_ms = least_ms.min(opening::movetime_of(&text).unwrap_or(0));
                plies = plies.max(table.plies);
                entries.extend(table.entries());
            }
            Err(why) => {
                eprintln!("linetris_opening: {file}: {why}");
                std::process::exit(1);
            }
        }
    }
    for (n, (key, (state, line))) in todo.iter().enumerate() {
        // `Tablebase` off: the search alone, never the table being made.
        let oracle = LinetrisOracle::new(&config);
        if let Ok(off) = Params::defaults(TABLEBASE).with("Tablebase", "false") {
            oracle.set_options(&off);
        }
        let mut policy = Policy::new(hash, LinetrisEval::default(), Arc::new(oracle));
        let limits = SearchLimits::movetime(ms);
        let stop = Arc::new(AtomicBool::new(false));
        let result = policy.search(state, &[state.hash()], limits, stop, &mut |_| {});
        let Some(best) = result.best else {
            eprintln!("{line}: no move");
            continue;
        };
        // The table holds the move of the canonical orientation.
        let stored = opening::orient(state, best);
        entries.push((*key, i64::from(stored.0) + 1));
        eprintln!(
            "[{}/{}] {:<4} {} score {:?} depth {} at {:.0} s",
            n + 1,
            todo.len(),
            if line.is_empty() { "-" } else { line },
            best.0 + 1,
            result.score,
            result.depth,
            started.elapsed().as_secs_f64()
        );
    }
    print!("{}", opening::text(plies, least_ms, &entries));
}
