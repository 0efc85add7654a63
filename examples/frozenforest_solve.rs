//! Frozen Forest solved from the start, and forced wins for Yuki in played games.
//!
//! ```text
//! cargo run --release --example frozenforest_solve -- start TREES [BUDGET [LOG2 [--exact]]]
//!     solves a small forest (Trees 4 to 7) from the start with the engine's exact
//!     solver (src/games/frozenforest/solve.rs): for each of Yuki's placements (one of
//!     each class of the square's symmetries when the forest is even, so centred),
//!     whether he wins against every placement of Mina's, and if not, a placement of
//!     hers that wins; with --exact, her fastest win and its plies from the start.
//!     BUDGET: nodes in all (default: no limit); LOG2: the table has 2^LOG2 entries
//!     of 16 bytes (default 26: 1 GiB)
//! cargo run --release --example frozenforest_solve -- games [depth] [budget] < games.txt
//!     for each game (its moves on one line, from the start of the full forest), marks
//!     every position with Yuki to move: W when he can force a win within `depth` of his
//!     moves, . when he cannot, ? when the node budget ran out
//! ```
//! `games` uses a depth-bounded AND-OR search of its own: Yuki needs one step that
//! wins, Mina's every slide must lose, fewest replies first. Its table is keyed by the
//! position's 64-bit hash (a collision could mislead it, which is acceptable for an
//! analysis tool; `start` uses exact keys).
//!
//! Measured with `games` (2026-11-23): in three games the engine lost as Yuki to the
//! 2-ply minimax Mina, no position had a forced win within 12 of his moves.

use std::collections::{BTreeSet, HashMap};
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::game::{Game, Player, Value};
use tabuleiro::games::frozenforest::sight::SIZE;
use tabuleiro::games::frozenforest::solve::{self, children_by_replies};
use tabuleiro::games::frozenforest::{Config, FrozenForest, Move};

/// The proof search with its table and node budget.
struct Prover {
    /// Hash → (depth searched in Yuki's moves, whether he wins within it).
    table: HashMap<u64, (u32, bool)>,
    nodes: u64,
    budget: u64,
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

fn solve_start(trees: u8, budget: u64, log2_entries: u32, exact: bool) {
    let start = FrozenForest::start(&Config { trees });
    let mut prover = solve::Prover::new(budget, log2_entries);
    let stop = AtomicBool::new(false);
    let mut placements = Vec::new();
    start.generate_moves(&mut placements);
    let all = placements.len();
    // An even forest sits in the middle of the board, so the eight symmetries of the
    // square map positions to positions of equal value: one placement of each class
    // is enough. An odd one is off the middle by half a cell: every placement counts.
    let symmetric = trees.is_multiple_of(2);
    if symmetric {
        placements.retain(|&placement| images(placement).iter().all(|&image| image >= placement.0));
    }
    let (mut yuki_wins, mut unknown, mut covered) = (0, 0, 0);
    for &placement in &placements {
        let class = if symmetric {
            images(placement).iter().collect::<BTreeSet<_>>().len()
        } else {
            1
        };
        covered += class;
        let (nodes_before, started) = (prover.nodes(), Instant::now());
        let mut placed = start;
        placed.play(placement);
        let mut answers = Vec::new();
        placed.generate_moves(&mut answers);
        let text = if exact {
            // Mina to place: her value, and the placement that keeps it.
            match prover.solve(&placed, &stop) {
                Ok(solved) => {
                    let answer = solved
                        .best
                        .map_or(String::from("-"), |m| placed.format_move(m));
                    match solved.value {
                        Value::Win(plies) => format!(
                            "Mina wins with {answer}, {} plies from the start",
                            plies + 1
                        ),
                        value => {
                            yuki_wins += 1;
                            format!("Yuki wins ({value:?} for Mina after {answer})")
                        }
                    }
                }
                Err(_) => {
                    unknown += 1;
                    String::from("unknown (out of budget)")
                }
            }
        } else {
            let mut verdict = Verdict::YukiWins;
            for &answer in &answers {
                let mut position = placed;
                position.play(answer);
                verdict = match prover.mover_wins(&position, &stop) {
                    Ok(true) => continue,
                    Ok(false) => Verdict::MinaWins(placed.format_move(answer)),
                    Err(_) => Verdict::OutOfBudget,
                };
                break;
            }
            match verdict {
                Verdict::YukiWins => {
                    yuki_wins += 1;
                    String::from("Yuki wins against every placement")
                }
                Verdict::MinaWins(answer) => format!("Mina wins with {answer}"),
                Verdict::OutOfBudget => {
                    unknown += 1;
                    String::from("unknown (out of budget)")
                }
            }
        };
        let class_text = if symmetric {
            format!(", {class} by symmetry")
        } else {
            String::new()
        };
        println!(
            "Yuki on {} ({} placements for Mina{class_text}): {text}; {} nodes, {:.1} s",
            start.format_move(placement),
            answers.len(),
            prover.nodes() - nodes_before,
            started.elapsed().as_secs_f64()
        );
    }
    println!(
        "Trees {trees}: Yuki wins from {yuki_wins} of {all} placements ({} searched, covering \
         {covered}), {unknown} unknown; {} nodes",
        placements.len(),
        prover.nodes()
    );
}

/// The cells of `placement` under the eight symmetries of the square board.
fn images(placement: Move) -> [u8; 8] {
    let last = SIZE as u8 - 1;
    let (rank, file) = (placement.0 / SIZE as u8, placement.0 % SIZE as u8);
    let cell = |rank: u8, file: u8| rank * SIZE as u8 + file;
    [
        cell(rank, file),
        cell(rank, last - file),
        cell(last - rank, file),
        cell(last - rank, last - file),
        cell(file, rank),
        cell(file, last - rank),
        cell(last - file, rank),
        cell(last - file, last - rank),
    ]
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
            if !(4..=7).contains(&trees) {
                eprintln!("the solver takes Trees 4 to 7");
                std::process::exit(2);
            }
            let exact = args.iter().any(|a| a == "--exact");
            let log2_entries = number(3, 26) as u32;
            solve_start(trees as u8, number(2, u64::MAX), log2_entries, exact);
        }
        Some("games") => solve_games(number(1, 8) as u32, number(2, 2_000_000)),
        _ => {
            eprintln!(
                "usage: frozenforest_solve start TREES [BUDGET [LOG2 [--exact]]] | games [depth] [budget]"
            );
            std::process::exit(2);
        }
    }
}
