//! Where a lost Fabrik game became a forced loss that the forcing search sees, and
//! whether the loser could still have escaped it (issue 33, twenty-fourth pass;
//! docs/experiments/fabrik.md).
//!
//! `cargo run --release --example fabrik_escapes -- LOSER NODES FILE.jsonl...`
//!
//! For each game of the `match` records (11×11, lines of 5) that the player named
//! `LOSER` lost by the rules, the positions are replayed from ply 20 on, and
//! the first one where the winner is to move and the forcing search
//! (`forcing::Forcing`, 15 plies, `NODES` nodes, a fresh table) proves a win is the
//! game's *first forced win*. Then, for the loser's moves 1, 3 and 5 plies before it:
//! how many of its legal moves the forcing search (same budget, one table kept through
//! the run) does not refute, and how many plies and nodes the refutation of the move
//! played took (0 plies: not refuted). A loser with moves left unrefuted 1 ply before
//! had an escape from that line; with none, the game was lost earlier, by a quiet move
//! the forcing search does not see. Prints one line per game and a summary.

use std::path::Path;

use tabuleiro::arena::record;
use tabuleiro::arena::replay::replay;
use tabuleiro::game::{Game, default_config};
use tabuleiro::games::fabrik::Fabrik;
use tabuleiro::games::fabrik::forcing::Forcing;

/// The longest forcing line looked for, in plies.
const PLIES: u32 = 15;
/// The first ply looked at (before it, games are rarely lost by force).
const FROM_PLY: usize = 20;

/// The loser's moves looked at: so many plies before the first forced win.
const BACK: [usize; 3] = [1, 3, 5];

/// What the forcing search found at one of the loser's moves.
struct Look {
    back: usize,
    unrefuted: usize,
    legal: usize,
    played: String,
    refutation_plies: u32,
    refutation_nodes: u64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: fabrik_escapes LOSER NODES FILE.jsonl...";
    let (Some(loser), Some(nodes)) = (args.first(), args.get(1)) else {
        panic!("{usage}");
    };
    let nodes: u64 = nodes.parse().unwrap_or_else(|_| panic!("{usage}"));
    let config = default_config::<Fabrik>();
    let mut shared = Forcing::new();
    let (mut games, mut escapes, mut earlier) = (0, 0, 0);
    let mut escape_nodes = Vec::new();
    for file in &args[2..] {
        let records = record::read_file(Path::new(file)).unwrap_or_else(|e| panic!("{e}"));
        for rec in &records {
            // Games ended by the rules (not on time): the winner moved last.
            let lost = rec.winner.as_deref().is_some_and(|w| w != loser)
                && (rec.p1 == *loser || rec.p2 == *loser)
                && rec.reason == "rules";
            if !lost {
                continue;
            }
            let game = replay::<Fabrik>(&config, rec).unwrap_or_else(|e| panic!("{e}"));
            let start = match &game.fen {
                Some(fen) => Fabrik::from_fen(&config, fen).unwrap_or_else(|e| panic!("{e}")),
                None => Fabrik::start(&config),
            };
            let mut states = vec![start];
            for (_, text) in &game.moves {
                let mut next = *states.last().expect("the start");
                next.play(next.parse_move(text).unwrap_or_else(|e| panic!("{e}")));
                states.push(next);
            }
            let winner = states[states.len() - 2].side_to_move();
            let first = (FROM_PLY..states.len() - 1).find_map(|ply| {
                if states[ply].side_to_move() != winner {
                    return None;
                }
                let mut fresh = Forcing::new();
                let (plies, _) = fresh.win(&states[ply], PLIES, nodes)?;
                Some((ply, plies, fresh.nodes()))
            });
            games += 1;
            let Some((ply, plies, proof_nodes)) = first else {
                println!("{file} game {}: no forced win found", rec.game);
                continue;
            };
            let mut looks = Vec::new();
            for back in BACK.into_iter().filter(|&back| back <= ply) {
                let before = &states[ply - back];
                let mut moves = Vec::new();
                before.generate_moves(&mut moves);
                let unrefuted = moves
                    .iter()
                    .filter(|&&mv| {
                        let mut child = *before;
                        child.play(mv);
                        child.outcome().is_some() || shared.win(&child, PLIES, nodes).is_none()
                    })
                    .count();
                let mut fresh = Forcing::new();
                let refutation = fresh.win(&states[ply - back + 1], PLIES, nodes);
                looks.push(Look {
                    back,
                    unrefuted,
                    legal: moves.len(),
                    played: game.moves[ply - back].1.clone(),
                    refutation_plies: refutation.map_or(0, |(plies, _)| plies),
                    refutation_nodes: fresh.nodes(),
                });
            }
            if let Some(last) = looks.first() {
                if last.unrefuted > 0 {
                    escapes += 1;
                    escape_nodes.push(last.refutation_nodes);
                } else {
                    earlier += 1;
                }
            }
            let mut line = format!(
                "{file} game {}: {} plies, first forced win at ply {ply} ({plies} plies, {proof_nodes} nodes)",
                rec.game,
                states.len() - 1
            );
            for look in &looks {
                line += &format!(
                    " | -{}: {}/{} unrefuted, played {} refuted in {} plies ({} nodes)",
                    look.back,
                    look.unrefuted,
                    look.legal,
                    look.played,
                    look.refutation_plies,
                    look.refutation_nodes
                );
            }
            println!("{line}");
        }
    }
    escape_nodes.sort_unstable();
    let median = escape_nodes
        .get(escape_nodes.len() / 2)
        .copied()
        .unwrap_or(0);
    println!(
        "{games} games lost by {loser}: an escape 1 ply before the first forced win in \
         {escapes} (the move played refuted in a median {median} nodes), none in {earlier}"
    );
}
