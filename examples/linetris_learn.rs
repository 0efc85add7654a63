//! Learns moves from lost games of 6 × 7 with the row clear: the table of
//! `data/linetris/learned-6x7.book` (read by `src/games/linetris/opening.rs`).
//!
//! `cargo run --release --example linetris_learn -- [--ms MS] [--hash MIB]
//! [--merge TABLE …] < GAMES > T` (defaults 120000 and 256; `--merge` again for more
//! tables; with no games, only the tables are merged). Each line of GAMES is a game
//! from the start position, its columns separated by spaces (`#` starts a comment), that
//! ended in a win; the loser is the side that did not make the last move. The game is
//! walked back from its end over the loser's positions. At each, every move but the
//! game's (lost already: every later position of the loser is) is proven by the
//! engine's own proof search (`go solve` in process, `Tablebase` off, at most MS each):
//! a move after which the winner wins by force is lost. Where every move is lost, the
//! position was lost already and the walk goes on back. The first position found
//! with a move that is not proven lost, other than the game's, is where the game was
//! lost: the game's move there is lost (every later position of the loser was), and
//! the table learns the best of the others (a proven win, else the least score for the
//! winner). A game whose every position is lost teaches nothing.
//!
//! The proofs and the verdict of each game go to stderr; the table (with the entries of
//! `--merge`, the header's `movetime` the least of all) to stdout.

use std::io::BufRead;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabuleiro::game::{Game, Outcome, Params, default_config};
use tabuleiro::games::linetris::{Linetris, LinetrisEval, LinetrisOracle, Move, opening};
use tabuleiro::search::{Oracle, Policy, Score, SearchLimits, TABLEBASE};

fn usage() -> ! {
    eprintln!("usage: linetris_learn [--ms MS] [--hash MIB] [--merge TABLE …] < GAMES > TABLE");
    std::process::exit(2);
}

/// What a proof of one move found.
#[derive(Clone, Copy, Debug)]
enum Verdict {
    /// The mover wins at once or by force.
    Won,
    /// The opponent wins by force.
    Lost,
    /// Not proven: the score for the opponent, to move after it.
    Open(i32),
}

/// Proves `mv` in `state` for the side to move, with `ms` milliseconds.
fn prove(state: &Linetris, mv: Move, ms: u64, hash: usize) -> (Verdict, String) {
    let mut child = *state;
    child.play(mv);
    if let Some(outcome) = child.outcome() {
        let verdict = match outcome {
            Outcome::Win(winner) if winner == state.side_to_move() => Verdict::Won,
            Outcome::Win(_) => Verdict::Lost,
            Outcome::Draw => Verdict::Open(0),
        };
        return (verdict, "game over".to_string());
    }
    let config = default_config::<Linetris>();
    let oracle = LinetrisOracle::new(&config);
    if let Ok(off) = Params::defaults(TABLEBASE).with("Tablebase", "false") {
        oracle.set_options(&off);
    }
    let mut policy = Policy::new(hash, LinetrisEval::default(), Arc::new(oracle));
    let limits = SearchLimits {
        solve: true,
        ..SearchLimits::movetime(ms)
    };
    let stop = Arc::new(AtomicBool::new(false));
    let result = policy.search(&child, &[child.hash()], limits, stop, &mut |_| {});
    let verdict = match result.score {
        Score::Mate(n) if n > 0 => Verdict::Lost,
        Score::Mate(_) => Verdict::Won,
        Score::Cp(cp) => Verdict::Open(cp),
    };
    (
        verdict,
        format!("{:?} depth {}", result.score, result.depth),
    )
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut ms, mut hash) = (120_000u64, 256usize);
    let mut merge = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).unwrap_or_else(|| usage());
        match args[i].as_str() {
            "--ms" => ms = value.parse().unwrap_or_else(|_| usage()),
            "--hash" => hash = value.parse().unwrap_or_else(|_| usage()),
            "--merge" => merge.push(value.clone()),
            _ => usage(),
        }
        i += 2;
    }
    let mut entries = Vec::new();
    let mut least_ms = ms;
    for file in merge {
        let earlier = std::fs::read_to_string(&file)
            .map_err(|e| e.to_string())
            .and_then(|text| opening::Table::parse_learned(&text).map(|t| (text, t)));
        match earlier {
            Ok((text, table)) => {
                least_ms = least_ms.min(opening::movetime_of(&text).unwrap_or(0));
                entries.extend(table.entries());
            }
            Err(why) => {
                eprintln!("linetris_learn: {file}: {why}");
                std::process::exit(1);
            }
        }
    }
    let config = default_config::<Linetris>();
    for (n, line) in std::io::stdin().lock().lines().enumerate() {
        let Ok(line) = line else { break };
        let text = line.split('#').next().unwrap_or("").trim();
        if text.is_empty() {
            continue;
        }
        // Replay the game, keeping the position before each move.
        let mut state = Linetris::start(&config);
        let mut before = Vec::new();
        for word in text.split_whitespace() {
            let Ok(mv) = state.legal_move(word) else {
                eprintln!("line {}: `{word}` is no legal move here", n + 1);
                std::process::exit(1);
            };
            before.push((state, mv));
            state.play(mv);
        }
        let Some(Outcome::Win(winner)) = state.outcome() else {
            eprintln!("line {}: the game is not won", n + 1);
            continue;
        };
        let loser = winner.other();
        eprintln!("game {}: {text}", n + 1);
        let mut learned = false;
        for (ply, (position, played)) in before.iter().enumerate().rev() {
            if position.side_to_move() != loser {
                continue;
            }
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            let rank = |v: Verdict| match v {
                Verdict::Won => i64::MIN,
                Verdict::Open(cp) => i64::from(cp),
                Verdict::Lost => i64::MAX,
            };
            let mut best: Option<(Move, Verdict)> = None;
            // The game's move is lost already (every later position of the loser is):
            // only the others are proven.
            for &mv in moves.iter().filter(|&&mv| mv != *played) {
                let (verdict, what) = prove(position, mv, ms, hash);
                eprintln!("  ply {} move {}: {verdict:?} ({what})", ply + 1, mv.0 + 1);
                if !matches!(verdict, Verdict::Lost)
                    && best.is_none_or(|(_, b)| rank(verdict) < rank(b))
                {
                    best = Some((mv, verdict));
                }
            }
            if let Some((mv, verdict)) = best {
                let stored = opening::orient(position, mv);
                entries.push((opening::canonical_key(position), i64::from(stored.0) + 1));
                eprintln!(
                    "  learned: at ply {} play {} ({verdict:?}), not {}",
                    ply + 1,
                    mv.0 + 1,
                    played.0 + 1
                );
                learned = true;
                break;
            }
        }
        if !learned {
            eprintln!("  nothing learned: every position of the loser is lost");
        }
    }
    // One move a position: the first (merged tables first, in order) is kept; a
    // different one is reported.
    entries.sort_by_key(|e| e.0);
    for pair in entries.windows(2) {
        if pair[0].0 == pair[1].0 && pair[0].1 != pair[1].1 {
            eprintln!(
                "position {:x}: column {} kept, {} dropped",
                pair[0].0, pair[0].1, pair[1].1
            );
        }
    }
    entries.dedup_by_key(|e| e.0);
    print!("{}", opening::learned_text(least_ms, &entries));
}
