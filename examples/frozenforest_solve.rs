//! Forced wins for Yuki in Frozen Forest: a proof search over every reply of Mina's.
//!
//! ```text
//! cargo run --release --example frozenforest_solve -- start [trees] [budget]
//!     solves a small forest from the start: for each of Yuki's placements, whether he
//!     wins against every placement of Mina's (exact: a game lasts at most as many of
//!     his moves as there are trees)
//! cargo run --release --example frozenforest_solve -- games [depth] [budget] < games.txt
//!     for each game (its moves on one line, from the start of the full forest), marks
//!     every position with Yuki to move: W when he can force a win within `depth` of his
//!     moves, . when he cannot, ? when the node budget ran out
//! ```
//! The search is an AND-OR depth-first search: Yuki needs one step that wins, Mina's
//! every slide must lose. Yuki's steps are tried fewest hidden cells for Mina first,
//! Mina's slides fewest steps for Yuki first. A table keyed by the position's 64-bit
//! hash remembers each result with the depth it was searched to (a hash collision
//! could mislead it, which is acceptable for an analysis tool).
//!
//! Measured with it (2026-11-23): Trees 4 and Trees 5 are won by Mina from every
//! placement of Yuki's; in three games the engine lost as Yuki to the 2-ply minimax
//! Mina, no position had a forced win within 12 of his moves.

use std::collections::HashMap;

use tabuleiro::game::{Game, Player};
use tabuleiro::games::frozenforest::{Config, FrozenForest};

/// The proof search with its table and node budget.
struct Prover {
    /// Hash → (depth searched in Yuki's moves, whether he wins within it).
    table: HashMap<u64, (u32, bool)>,
    nodes: u64,
    budget: u64,
}

/// Each move's position after it, sorted by how many replies the opponent has there.
fn children_by_replies(position: &FrozenForest) -> Vec<(u64, FrozenForest)> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let mut children: Vec<(u64, FrozenForest)> = moves
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            (child.count_moves(), child)
        })
        .collect();
    children.sort_by_key(|&(replies, _)| replies);
    children
}

impl Prover {
    fn new(budget: u64) -> Self {
        Prover {
            table: HashMap::new(),
            nodes: 0,
            budget,
        }
    }

    /// Yuki to move: can he win within `depth` of his moves? `None`: out of budget.
    fn yuki_wins(&mut self, position: &FrozenForest, depth: u32) -> Option<bool> {
        if depth == 0 {
            return Some(false);
        }
        if let Some(&(searched, wins)) = self.table.get(&position.hash())
            && (wins || searched >= depth)
        {
            return Some(wins);
        }
        self.nodes += 1;
        if self.nodes > self.budget {
            return None;
        }
        let mut wins = false;
        for (replies, child) in children_by_replies(position) {
            // No hidden cell left for Mina: she has lost.
            if replies == 0 || (depth > 1 && self.mina_loses(&child, depth - 1)?) {
                wins = true;
                break;
            }
        }
        self.table.insert(position.hash(), (depth, wins));
        Some(wins)
    }

    /// Mina to move: does every slide of hers lose within `depth` of Yuki's moves?
    fn mina_loses(&mut self, position: &FrozenForest, depth: u32) -> Option<bool> {
        for (steps, child) in children_by_replies(position) {
            // No step left for Yuki: he has lost.
            if steps == 0 || !self.yuki_wins(&child, depth)? {
                return Some(false);
            }
        }
        Some(true)
    }
}

/// What the search says about one placement of Yuki's.
enum Verdict {
    YukiWins,
    /// Mina's placement that beats it.
    MinaWins(String),
    OutOfBudget,
}

fn solve_start(trees: u8, budget: u64) {
    let start = FrozenForest::start(&Config { trees });
    // Yuki makes at most one move per tree, so this depth is exact.
    let depth = u32::from(trees) * u32::from(trees);
    let mut prover = Prover::new(budget);
    let mut placements = Vec::new();
    start.generate_moves(&mut placements);
    let (mut yuki_wins, mut unknown) = (0, 0);
    for &placement in &placements {
        let mut placed = start;
        placed.play(placement);
        let mut answers = Vec::new();
        placed.generate_moves(&mut answers);
        let mut verdict = Verdict::YukiWins;
        for &answer in &answers {
            let mut position = placed;
            position.play(answer);
            verdict = match prover.yuki_wins(&position, depth) {
                Some(true) => continue,
                Some(false) => Verdict::MinaWins(placed.format_move(answer)),
                None => Verdict::OutOfBudget,
            };
            break;
        }
        let text = match verdict {
            Verdict::YukiWins => {
                yuki_wins += 1;
                String::from("Yuki wins against every placement")
            }
            Verdict::MinaWins(answer) => format!("Mina wins with {answer}"),
            Verdict::OutOfBudget => {
                unknown += 1;
                String::from("unknown (out of budget)")
            }
        };
        println!(
            "Yuki on {} ({} placements for Mina): {text}",
            start.format_move(placement),
            answers.len()
        );
    }
    println!(
        "Trees {trees}: Yuki wins from {yuki_wins} of {} placements, {unknown} unknown; \
         {} nodes",
        placements.len(),
        prover.nodes
    );
}

fn solve_games(depth: u32, budget: u64) {
    for line in std::io::stdin().lines().map_while(Result::ok) {
        let mut position = FrozenForest::start(&Config { trees: 10 });
        let mut marks = Vec::new();
        let mut plies = 0;
        for text in line.split_whitespace() {
            if position.side_to_move() == Player::P1 && position.mina().is_some() {
                let mut prover = Prover::new(budget);
                let mark = match prover.yuki_wins(&position, depth) {
                    Some(true) => 'W',
                    Some(false) => '.',
                    None => '?',
                };
                marks.push(format!("{plies}{mark}"));
            }
            match position.parse_move(text) {
                Ok(mv) => position.play(mv),
                Err(error) => {
                    eprintln!("ply {plies}: {text}: {error:?}");
                    break;
                }
            }
            plies += 1;
        }
        let result = match position.outcome() {
            Some(_) => format!("{:?} won", position.side_to_move().other()),
            None => String::from("unfinished"),
        };
        println!("{result} after {plies} plies: {}", marks.join(" "));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("start") => {
            let trees = number(1, 4);
            if !(4..=10).contains(&trees) {
                eprintln!("Trees is 4 to 10");
                std::process::exit(2);
            }
            solve_start(trees as u8, number(2, 100_000_000));
        }
        Some("games") => solve_games(number(1, 8) as u32, number(2, 2_000_000)),
        _ => {
            eprintln!("usage: frozenforest_solve start [trees] [budget] | games [depth] [budget]");
            std::process::exit(2);
        }
    }
}
