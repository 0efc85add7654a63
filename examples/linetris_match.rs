//! Strength matches for Linetris evaluations: the threat evaluation (variant 0)
//! against a lines-only baseline (variant 1), with the engine's own search.
//!
//! `cargo run --release --example linetris_match [ROWCLEAR NODES [A B [PLIES]]]`
//!
//! Every opening of PLIES plies (default 2: 49 on 6×7) is played twice, colours
//! swapped; each move is a search of NODES nodes. Prints wins, draws and losses of
//! variant A and its score.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabuleiro::game::{Game, Outcome, Player, Record};
use tabuleiro::games::linetris::{Config, Linetris, LinetrisEval, LinetrisOracle, Move};
use tabuleiro::search::{Policy, SearchLimits};

/// Variant 0 is the shipped evaluation, 1 leaves out the threat analysis, 2 the
/// bottom-row discount, 3 the fitted row-clear weights (the lines and the discount
/// instead).
fn variant(number: u32) -> LinetrisEval {
    LinetrisEval {
        threats: number != 1,
        bottom_discount: number != 2,
        fitted: number != 3,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let row_clear = args.first().is_none_or(|a| a == "true");
    let nodes: u64 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    let a: u32 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(0);
    let b: u32 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let plies: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(2);
    let config = Config {
        row_clear,
        ..Config::default()
    };
    let oracle = Arc::new(LinetrisOracle::new(&config));
    let mut searchers = [a, b].map(|v| Policy::new(16, variant(v), Arc::clone(&oracle)));
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    let cols = config.cols as u8;
    for opening in 0..u32::from(cols).pow(plies) {
        {
            for a_plays in [Player::P1, Player::P2] {
                let mut record = Record::new(Linetris::start(&config));
                let mut code = opening;
                for _ in 0..plies {
                    record.play(Move((code % u32::from(cols)) as u8));
                    code /= u32::from(cols);
                }
                for s in &mut searchers {
                    s.clear();
                }
                while record.outcome().is_none() {
                    let side = record.state().side_to_move();
                    let who = usize::from(side != a_plays);
                    let limits = SearchLimits {
                        nodes: Some(nodes),
                        ..SearchLimits::default()
                    };
                    let stop = Arc::new(AtomicBool::new(false));
                    let result = searchers[who].search(
                        record.state(),
                        record.history(),
                        limits,
                        stop,
                        &mut |_| {},
                    );
                    let Some(mv) = result.best else { break };
                    record.play(mv);
                }
                match record.outcome() {
                    Some(Outcome::Win(p)) if p == a_plays => wins += 1,
                    Some(Outcome::Win(_)) => losses += 1,
                    _ => draws += 1,
                }
            }
        }
    }
    let games = wins + draws + losses;
    println!(
        "RowClear {row_clear}, {nodes} nodes/move: variant {a} vs {b}: +{wins} ={draws} -{losses} \
         of {games}, score {:.1}%",
        100.0 * (wins as f64 + draws as f64 / 2.0) / games as f64
    );
}
