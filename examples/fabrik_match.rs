//! Strength of the Fabrik engine against simple players, in-process.
//!
//! `cargo run --release --example fabrik_match -- [random|greedy] [games] [movetime-ms] [seed]`
//!
//! The engine (the generic alpha-beta searcher at a fixed time per move) plays
//! `games` games against the opponent, alternating colours: even games as black (p1),
//! odd ones as white. Opponents:
//! - `random`: a uniformly random legal move;
//! - `greedy`: the move that leaves its longest own line longest (ties at random).
//!
//! Prints the score per colour, the average game length and the engine's average depth.
//!
//! `cargo run --release --example fabrik_match -- ab VARIANT [pairs] [nodes] [seed]`
//! plays the shipped evaluation (variant 0) against an experimental one
//! (`Terms::experiment`), both searching a fixed number of nodes per move (repeatable and
//! independent of the machine's load), over `pairs` random 4-ply openings, each played
//! twice with colours swapped.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng, rngs::StdRng};
use tabuleiro::game::{Game, Outcome, Player, default_config};
use tabuleiro::games::fabrik::eval::Terms;
use tabuleiro::games::fabrik::geometry::geometry;
use tabuleiro::games::fabrik::{Fabrik, FabrikEval, Move, MoveKind};
use tabuleiro::search::time::Budget;
use tabuleiro::search::{NoOracle, Policy, SearchLimits};

#[derive(Clone, Copy, PartialEq, Eq)]
enum Opponent {
    Random,
    Greedy,
}

/// The longest line of `player`'s stones through `square`.
fn line_through(state: &Fabrik, square: usize, player: Player) -> u32 {
    let g = geometry();
    let own = state.stones(player);
    (0..4)
        .map(|d| 1 + g.run(square, d, own) + g.run(square, d + 4, own))
        .max()
        .unwrap_or(0)
}

/// The longest line of `player` on the board.
fn longest_line(state: &Fabrik, player: Player) -> u32 {
    let mut stones = state.stones(player);
    let mut best = 0;
    while stones != 0 {
        let square = stones.trailing_zeros() as usize;
        stones &= stones - 1;
        best = best.max(line_through(state, square, player));
    }
    best
}

fn opponent_move(kind: Opponent, state: &Fabrik, rng: &mut StdRng) -> Move {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    if kind == Opponent::Random {
        return moves[rng.random_range(0..moves.len())];
    }
    let us = state.side_to_move();
    let before = longest_line(state, us);
    let mut best = Vec::new();
    let mut best_length = 0;
    for &mv in &moves {
        let length = match mv.kind() {
            MoveKind::Place | MoveKind::Relocate => {
                let mut child = *state;
                child.play(mv);
                before.max(line_through(&child, mv.square(), us))
            }
            _ => 0,
        };
        if length > best_length {
            best_length = length;
            best.clear();
        }
        if length == best_length {
            best.push(mv);
        }
    }
    best[rng.random_range(0..best.len())]
}

/// One A/B game from `state`: `variants[p]` evaluates for player `p`. Returns the winner.
fn ab_game(mut state: Fabrik, variants: [u8; 2], nodes: u64) -> (Player, u32) {
    let searcher = |variant| {
        Policy::new(
            32,
            FabrikEval::with_terms(Terms::experiment(variant)),
            Arc::new(NoOracle),
        )
    };
    let mut searchers = [searcher(variants[0]), searcher(variants[1])];
    let limits = SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    };
    let mut history = vec![state.hash()];
    loop {
        if let Some(Outcome::Win(winner)) = state.outcome() {
            return (winner, state.plies());
        }
        let side = state.side_to_move().index();
        let stop = Arc::new(AtomicBool::new(false));
        let result = searchers[side].search(&state, &history, limits, stop, &mut |_| {});
        state.play(result.best.expect("a move while the game goes on"));
        history.push(state.hash());
    }
}

fn ab_match(args: &[String]) {
    let variant: u8 = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(1);
    let pairs: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(50);
    let nodes: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(3000);
    let seed: u64 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = StdRng::seed_from_u64(seed);
    let config = default_config::<Fabrik>();
    // Wins of the variant [as black, as white].
    let mut wins = [0; 2];
    let mut plies = 0;
    for _ in 0..pairs {
        // A random opening: both workers, then two stones (no pass).
        let mut opening = Fabrik::start(&config);
        let mut moves = Vec::new();
        while opening.plies() < 4 {
            moves.clear();
            opening.generate_moves(&mut moves);
            moves.retain(|mv| mv.kind() != MoveKind::Pass);
            opening.play(moves[rng.random_range(0..moves.len())]);
        }
        for variant_side in [Player::P1, Player::P2] {
            let mut variants = [0, 0];
            variants[variant_side.index()] = variant;
            let (winner, length) = ab_game(opening, variants, nodes);
            plies += length;
            if winner == variant_side {
                wins[variant_side.index()] += 1;
            }
        }
    }
    let games = 2 * pairs;
    let total = wins[0] + wins[1];
    println!(
        "variant {variant} vs variant 0: {total}/{games} ({:.1}%) — as black {}/{pairs}, \
         as white {}/{pairs}; {:.1} plies per game, {nodes} nodes per move",
        100.0 * total as f64 / games as f64,
        wins[0],
        wins[1],
        plies as f64 / games as f64
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("ab") {
        ab_match(&args);
        return;
    }
    let opponent = match args.first().map(String::as_str) {
        Some("greedy") => Opponent::Greedy,
        _ => Opponent::Random,
    };
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let movetime: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100);
    let seed: u64 = args.get(3).and_then(|a| a.parse().ok()).unwrap_or(1);
    let mut rng = StdRng::seed_from_u64(seed);
    let config = default_config::<Fabrik>();
    let mut searcher = Policy::<Fabrik>::standard(64, &config);
    searcher.prepare();
    let limits = SearchLimits {
        budget: Budget {
            soft: Some(Duration::from_millis(movetime)),
            hard: Some(Duration::from_millis(movetime)),
        },
        ..SearchLimits::default()
    };
    // [engine as black, engine as white]: (wins, games)
    let mut score = [(0, 0); 2];
    let (mut plies_total, mut depth_total, mut searches) = (0u64, 0u64, 0u64);
    let clock = Instant::now();
    for game in 0..games {
        let engine = if game % 2 == 0 {
            Player::P1
        } else {
            Player::P2
        };
        let mut state = Fabrik::start(&config);
        let mut history = vec![state.hash()];
        searcher.clear();
        let outcome = loop {
            if let Some(outcome) = state.outcome() {
                break outcome;
            }
            let mv = if state.side_to_move() == engine {
                let stop = Arc::new(AtomicBool::new(false));
                let result = searcher.search(&state, &history, limits, stop, &mut |_| {});
                depth_total += u64::from(result.depth);
                searches += 1;
                result.best.expect("a move while the game goes on")
            } else {
                opponent_move(opponent, &state, &mut rng)
            };
            state.play(mv);
            history.push(state.hash());
        };
        plies_total += u64::from(state.plies());
        let slot = &mut score[engine.index()];
        slot.1 += 1;
        if outcome == Outcome::Win(engine) {
            slot.0 += 1;
        } else if std::env::var_os("FABRIK_SHOW_LOSSES").is_some() {
            println!("lost as {engine:?}: {}", state.fen());
        }
    }
    let wins = score[0].0 + score[1].0;
    println!(
        "engine vs {}: {wins}/{games} ({:.1}%) — as black {}/{}, as white {}/{}; \
         {:.1} plies per game, engine depth {:.2} on average, {movetime} ms per move, {:.0} s",
        if opponent == Opponent::Greedy {
            "greedy"
        } else {
            "random"
        },
        100.0 * wins as f64 / games as f64,
        score[0].0,
        score[0].1,
        score[1].0,
        score[1].1,
        plies_total as f64 / games as f64,
        depth_total as f64 / searches.max(1) as f64,
        clock.elapsed().as_secs_f64()
    );
}
