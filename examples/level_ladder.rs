//! How strong is each `Level`? Every level plays pairs of games (once as p1, once as
//! p2) against full strength at a fixed node count, in every game on the registry.
//!
//! `cargo run --release --example level_ladder [PAIRS] [NODES]` (default 4 pairs,
//! 20000 nodes a move for level 10). Prints the level's points (win 1, draw ½) out
//! of the games played, per game.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::game::{Outcome, Player, Record, default_config};
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::search::{Level, Policy, SearchLimits, Strategy};

struct Ladder {
    pairs: u32,
    nodes: u64,
}

fn game<G: Strategy>(level: Level, side: Player, seed: u64, nodes: u64) -> f64 {
    let mut weak = Policy::<G>::standard(16, &default_config::<G>());
    weak.seed_level(seed);
    let mut strong = Policy::<G>::standard(16, &default_config::<G>());
    let mut record = Record::new(G::start(&default_config::<G>()));
    while record.outcome().is_none() && record.moves().len() < 600 {
        let mover = record.state().side_to_move();
        let (searcher, limits) = if mover == side {
            let limits = SearchLimits {
                level,
                nodes: Some(nodes),
                ..SearchLimits::default()
            };
            (&mut weak, limits)
        } else {
            let limits = SearchLimits {
                nodes: Some(nodes),
                ..SearchLimits::default()
            };
            (&mut strong, limits)
        };
        let state = record.state().clone();
        let history = record.history().to_vec();
        let stop = Arc::new(AtomicBool::new(false));
        match searcher
            .search(&state, &history, limits, stop, &mut |_| {})
            .best
        {
            Some(mv) => record.play(mv),
            None => break,
        }
    }
    match record.outcome() {
        Some(Outcome::Win(p)) if p == side => 1.0,
        Some(Outcome::Win(_)) => 0.0,
        _ => 0.5,
    }
}

impl GameVisitor for Ladder {
    type Output = ();
    fn visit<G: Strategy>(self) {
        let started = Instant::now();
        let mut line = format!("{:>13}:", G::NAME);
        for n in [1u8, 2, 3, 4, 5, 6, 7, 8, 9, 10] {
            let Some(level) = Level::new(n) else { continue };
            let mut points = 0.0;
            for pair in 0..self.pairs {
                let seed = 100 + u64::from(pair);
                points += game::<G>(level, Player::P1, seed, self.nodes);
                points += game::<G>(level, Player::P2, seed, self.nodes);
            }
            line.push_str(&format!("  L{n} {points}/{}", 2 * self.pairs));
        }
        println!("{line}   ({:.0} s)", started.elapsed().as_secs_f64());
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pairs = args.first().and_then(|a| a.parse().ok()).unwrap_or(4);
    let nodes = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(20_000);
    println!("points of each level against level 10 at {nodes} nodes a move, {pairs} pairs");
    for name in games::NAMES {
        games::visit(name, Ladder { pairs, nodes });
    }
}
