//! How well a Fabrik position's value is told, before the game decides it: by the static
//! evaluation, by a fixed-depth search, and by the share of safe playouts the side to move
//! wins (issue 33, twentieth pass; docs/experiments/fabrik.md).
//!
//! `cargo run --release --example fabrik_playouts -- FILE.jsonl... [--plies 50,60,70]
//! [--playouts 1000] [--depth 4] [--seed 1] [--dump FILE.tsv]`
//!
//! For each game of the `match` records (11×11, lines of 5) and each ply P it lasted past,
//! the position after P plies is scored three ways from the side to move's view, and
//! labelled by whether that side went on to win. A playout plays a win now if there is
//! one (a line in reach or a walling in: `threats::win_now`), else the first of four
//! random moves after which the opponent has no win now, else the first of them; it runs
//! to the end of the game. Prints, for each ply, the number of positions won and lost and
//! each predictor's AUC: the chance that a position the side to move won ranks above one
//! it lost (0.5 is a coin; ties count half). Two more columns split the playouts by how
//! they ended: the side to move's share of playouts won by a line less its share lost by
//! a line, and the same for walling in. `--depth 0` leaves the search out (its column is
//! then the static evaluation's). `--dump` also writes one line per position: the record
//! file, the game's index in it, the ply, the FEN, whether the side to move won (1 or 0),
//! and the playouts', lines', walls', static and search columns, tab-separated (the
//! labels for fitting an evaluation to playout shares).

use std::io::Write;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use rand::{RngExt, SeedableRng, rngs::StdRng};
use tabuleiro::arena::record;
use tabuleiro::arena::replay::replay;
use tabuleiro::game::{Game, Outcome, Player, default_config};
use tabuleiro::games::fabrik::{Fabrik, FabrikEval, Move, threats};
use tabuleiro::search::{Evaluator, Policy, Score, SearchLimits};

/// How many random moves a playout move draws before it takes one that allows a win now.
const DRAWS: usize = 4;

/// The value after an option, or the usage of that option.
fn value<T: std::str::FromStr>(arg: Option<&String>, usage: &str) -> T {
    arg.and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("{usage}"))
}

/// How a playout ended.
#[derive(Clone, Copy, PartialEq, Eq)]
enum End {
    Line(Player),
    WalledIn(Player),
}

/// One playout from `start` to the end of the game: its winner, and how.
fn playout(start: &Fabrik, rng: &mut StdRng, moves: &mut Vec<Move>) -> End {
    let mut state = *start;
    let mut by_line = false;
    loop {
        if let Some(outcome) = state.outcome() {
            // Fabrik has no draws.
            let Outcome::Win(winner) = outcome else {
                unreachable!("a Fabrik game ended in a draw")
            };
            return if by_line {
                End::Line(winner)
            } else {
                End::WalledIn(winner)
            };
        }
        if let Some(win) = threats::win_now(&state) {
            by_line = threats::line_threats(&state, state.side_to_move()) != 0;
            state.play(win);
            continue;
        }
        moves.clear();
        state.generate_moves(moves);
        let draws: Vec<Move> = (0..DRAWS)
            .map(|_| moves[rng.random_range(0..moves.len())])
            .collect();
        let safe = draws.iter().copied().find(|&mv| {
            let mut child = state;
            child.play(mv);
            child.outcome().is_some() || threats::win_now(&child).is_none()
        });
        state.play(safe.unwrap_or(draws[0]));
    }
}

/// The chance that a won position's value ranks above a lost one's (ties half).
fn auc(won: &[f64], lost: &[f64]) -> f64 {
    if won.is_empty() || lost.is_empty() {
        return f64::NAN;
    }
    let mut sum = 0.0;
    for w in won {
        for l in lost {
            sum += if w > l {
                1.0
            } else if w == l {
                0.5
            } else {
                0.0
            };
        }
    }
    sum / (won.len() * lost.len()) as f64
}

/// A search score as one number, mates beyond every centipawn score.
fn score_value(score: Score) -> f64 {
    match score {
        Score::Cp(cp) => f64::from(cp),
        Score::Mate(n) if n > 0 => 1e6 - f64::from(n),
        Score::Mate(n) => -1e6 - f64::from(n),
    }
}

/// A position's label and predictors, from the side to move's view.
#[derive(Clone, Copy)]
struct Sample {
    /// The side to move went on to win the game.
    won: bool,
    /// Its share of the playouts won.
    playouts: f64,
    /// Its share of playouts won by a line, less its share lost by a line.
    lines: f64,
    /// The same for walling in.
    walls: f64,
    static_score: f64,
    search_score: f64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut files = Vec::new();
    let mut plies = vec![50, 60, 70];
    let mut playouts = 1000u32;
    let mut depth = 4u32;
    let mut seed = 1u64;
    let mut dump: Option<std::io::BufWriter<std::fs::File>> = None;
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "--plies" => {
                let list: String = value(rest.next(), "--plies P,P,...");
                plies = list
                    .split(',')
                    .map(|p| p.parse().expect("--plies P,P,..."))
                    .collect();
            }
            "--playouts" => playouts = value(rest.next(), "--playouts K"),
            "--depth" => depth = value(rest.next(), "--depth D"),
            "--seed" => seed = value(rest.next(), "--seed S"),
            "--dump" => {
                let path: String = value(rest.next(), "--dump FILE");
                let file = std::fs::File::create(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                dump = Some(std::io::BufWriter::new(file));
            }
            other => files.push(other.to_string()),
        }
    }
    let config = default_config::<Fabrik>();
    let mut rng = StdRng::seed_from_u64(seed);
    let mut eval = FabrikEval::default();
    let mut searcher = Policy::<Fabrik>::standard(32, &config);
    let limits = SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    };
    let mut moves = Vec::new();
    let mut samples: Vec<Vec<Sample>> = vec![Vec::new(); plies.len()];
    for file in &files {
        let records = record::read_file(Path::new(file)).unwrap_or_else(|e| panic!("{e}"));
        for (index, record) in records.iter().enumerate() {
            if !record.options.is_empty() {
                continue;
            }
            let Some(winner) = record.winner.as_deref() else {
                continue;
            };
            let winner = if winner == record.p1 {
                Player::P1
            } else {
                Player::P2
            };
            let game = replay::<Fabrik>(&config, record).unwrap_or_else(|e| panic!("{e}"));
            // The game's first position: the opening's FEN, if it had one.
            let start = match &game.fen {
                Some(fen) => Fabrik::from_fen(&config, fen).unwrap_or_else(|e| panic!("{e}")),
                None => Fabrik::start(&config),
            };
            for (slot, &ply) in plies.iter().enumerate() {
                // Positions the game went on from by at least two plies.
                if ply + 2 > game.moves.len() {
                    continue;
                }
                let mut state = start;
                for (_, text) in &game.moves[..ply] {
                    state.play(state.parse_move(text).unwrap_or_else(|e| panic!("{e}")));
                }
                let mover = state.side_to_move();
                let (mut wins, mut lines, mut walls) = (0i32, 0i32, 0i32);
                for _ in 0..playouts {
                    match playout(&state, &mut rng, &mut moves) {
                        End::Line(w) if w == mover => (wins, lines) = (wins + 1, lines + 1),
                        End::Line(_) => lines -= 1,
                        End::WalledIn(w) if w == mover => (wins, walls) = (wins + 1, walls + 1),
                        End::WalledIn(_) => walls -= 1,
                    }
                }
                let share = |count: i32| f64::from(count) / f64::from(playouts.max(1));
                let static_score = f64::from(eval.evaluate(&state));
                let search_score = if depth == 0 {
                    static_score
                } else {
                    searcher.clear();
                    let stop = Arc::new(AtomicBool::new(false));
                    let history = [state.hash()];
                    let found = searcher.search(&state, &history, limits, stop, &mut |_| {});
                    score_value(found.score)
                };
                let sample = Sample {
                    won: mover == winner,
                    playouts: share(wins),
                    lines: share(lines),
                    walls: share(walls),
                    static_score,
                    search_score,
                };
                if let Some(out) = dump.as_mut() {
                    writeln!(
                        out,
                        "{file}\t{index}\t{ply}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                        state.fen(),
                        u8::from(sample.won),
                        sample.playouts,
                        sample.lines,
                        sample.walls,
                        sample.static_score,
                        sample.search_score
                    )
                    .unwrap_or_else(|e| panic!("--dump: {e}"));
                }
                samples[slot].push(sample);
            }
        }
    }
    println!("ply  won lost  playouts  lines  walls  static  depth {depth}");
    for (slot, &ply) in plies.iter().enumerate() {
        let set = &samples[slot];
        let column = |pick: fn(&Sample) -> f64| {
            let won: Vec<f64> = set.iter().filter(|s| s.won).map(pick).collect();
            let lost: Vec<f64> = set.iter().filter(|s| !s.won).map(pick).collect();
            auc(&won, &lost)
        };
        let won = set.iter().filter(|s| s.won).count();
        println!(
            "{ply:3} {won:4} {:4}  {:8.2}  {:5.2}  {:5.2}  {:6.2}  {:7.2}",
            set.len() - won,
            column(|s| s.playouts),
            column(|s| s.lines),
            column(|s| s.walls),
            column(|s| s.static_score),
            column(|s| s.search_score)
        );
    }
}
