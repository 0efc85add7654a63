//! In-process Talpa matches: evaluation variants against each other and against a
//! 1-ply greedy player.
//!
//! ```text
//! cargo run --release --example talpa_match -- A B [games] [movetime_ms] [size] [opening_plies]
//! ```
//! `A` and `B` are `greedy`, `random`, or `search:<variant>` with a variant name from
//! [`VARIANTS`] (e.g. `search:default`). Games come in pairs: each pair starts from
//! the same random opening (`opening_plies` random moves, default 2), once with A as
//! red and once with A as blue. The search gets `movetime_ms` per move (default 100)
//! through the engine's own searcher, time limit as in `go movetime`.
//!
//! The greedy player looks one ply ahead: it plays a winning move if it has one,
//! avoids moves that lose on the spot, and otherwise maximises its own longest empty
//! region: the empty component spanning the most ranks (red) or files (blue), ties
//! broken by the component's size, then at random.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Outcome, Player};
use tabuleiro::games::talpa::{EvalParams, Move, Talpa, TalpaEval, TalpaOracle};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::time::Budget;
use tabuleiro::search::{Policy, SearchLimits};

/// Evaluation variants, by name. `default` is the engine's.
const VARIANTS: [(&str, EvalParams); 11] = [
    ("default", EvalParams::DEFAULT),
    (
        "material",
        EvalParams {
            material: 10,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "enemy2",
        EvalParams {
            enemy_cost: 2,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "walls",
        EvalParams {
            removal_walls: true,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "none",
        EvalParams {
            enemy_cost: 1,
            separation: 0,
            material: 0,
            tempo: 0,
            safe: 0,
            removal_walls: false,
            touching: 0,
            walled: 0,
            safe_captures: 0,
            late_from: 0,
            late_touching: 0,
            late_safe_captures: 0,
            late_contact: 0,
        },
    ),
    (
        "safe",
        EvalParams {
            safe: 30,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "base",
        EvalParams {
            touching: 0,
            material: 10,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "walled",
        EvalParams {
            walled: 40,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "basewalled",
        EvalParams {
            touching: 0,
            material: 10,
            walled: 40,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "touch40",
        EvalParams {
            touching: 40,
            ..EvalParams::DEFAULT
        },
    ),
    (
        "nocontact",
        EvalParams {
            late_contact: 0,
            ..EvalParams::DEFAULT
        },
    ),
];

trait Agent {
    fn choose(&mut self, position: &Talpa, rng: &mut Xorshift) -> Move;
    fn new_game(&mut self) {}
}

/// How long a search may run: a time per move or a node count (`20000n`), the latter
/// deterministic whatever the load of the machine.
#[derive(Clone, Copy, Debug)]
enum Limit {
    Time(Duration),
    Nodes(u64),
}

struct SearchAgent {
    searcher: Policy<Talpa, TalpaEval>,
    movetime: Limit,
    depths: Vec<u32>,
}

impl Agent for SearchAgent {
    fn choose(&mut self, position: &Talpa, _rng: &mut Xorshift) -> Move {
        let root = *position;
        let limits = match self.movetime {
            Limit::Time(t) => SearchLimits {
                budget: Budget {
                    soft: Some(t),
                    hard: Some(t),
                },
                ..SearchLimits::default()
            },
            Limit::Nodes(n) => SearchLimits {
                nodes: Some(n),
                ..SearchLimits::default()
            },
        };
        let result = self.searcher.search(
            &root,
            &[root.hash()],
            limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        self.depths.push(result.depth);
        result.best.expect("a move while the game goes on")
    }

    fn new_game(&mut self) {
        self.searcher.clear();
    }
}

/// Size of the longest empty region of `player`: (span on its axis, squares).
fn longest_region(position: &Talpa, player: Player) -> (u32, u32) {
    let g = position.geometry();
    let size = g.size;
    let mut empty = position.empty();
    let mut best = (0, 0);
    while empty != 0 {
        let seed = empty & empty.wrapping_neg();
        let region = g.flood(seed, empty);
        empty &= !region;
        let mut lines = 0;
        for line in 0..size {
            let mask = match player {
                Player::P1 => g.bottom << (line * size),
                Player::P2 => g.left << line,
            };
            if region & mask != 0 {
                lines += 1;
            }
        }
        best = best.max((lines, region.count_ones()));
    }
    best
}

struct Greedy;

impl Agent for Greedy {
    fn choose(&mut self, position: &Talpa, rng: &mut Xorshift) -> Move {
        let us = position.side_to_move();
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        let mut best: Vec<Move> = Vec::new();
        let mut best_key = (i32::MIN, 0, 0);
        for &mv in &moves {
            let mut child = *position;
            child.play(mv);
            let key = match child.outcome() {
                Some(Outcome::Win(p)) if p == us => (2, 0, 0),
                Some(_) => (0, 0, 0),
                None => {
                    let (span, squares) = longest_region(&child, us);
                    (1, span, squares)
                }
            };
            if key > best_key {
                best_key = key;
                best.clear();
            }
            if key == best_key {
                best.push(mv);
            }
        }
        best[rng.index(best.len())]
    }
}

struct RandomAgent;

impl Agent for RandomAgent {
    fn choose(&mut self, position: &Talpa, rng: &mut Xorshift) -> Move {
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        moves[rng.index(moves.len())]
    }
}

fn search_agent(params: EvalParams, movetime: Limit) -> Box<dyn Agent> {
    let mut searcher = Policy::new(64, TalpaEval(params), Arc::new(TalpaOracle::default()));
    searcher.prepare();
    Box::new(SearchAgent {
        searcher,
        movetime,
        depths: Vec::new(),
    })
}

fn agent(name: &str, movetime: Limit) -> Box<dyn Agent> {
    match name {
        "greedy" => return Box::new(Greedy),
        "random" => return Box::new(RandomAgent),
        _ => {}
    }
    let variant = name
        .strip_prefix("search:")
        .and_then(|v| VARIANTS.iter().position(|(n, _)| *n == v))
        .unwrap_or_else(|| {
            let names: Vec<&str> = VARIANTS.iter().map(|(n, _)| *n).collect();
            panic!("unknown player '{name}': greedy, random or search:{names:?}")
        });
    search_agent(VARIANTS[variant].1, movetime)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() < 3 {
        eprintln!("usage: talpa_match A B [games] [movetime_ms] [size] [opening_plies]");
        std::process::exit(2);
    }
    let arg = |i: usize, default: u64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    let games = arg(3, 100) as usize;
    let movetime = match args.get(4) {
        Some(text) if text.ends_with('n') => {
            Limit::Nodes(text.trim_end_matches('n').parse().expect("a node count"))
        }
        _ => Limit::Time(Duration::from_millis(arg(4, 100))),
    };
    let size = arg(5, 8) as i64;
    let opening = arg(6, 2) as usize;
    let config = tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", size.to_string())])
        .unwrap_or_else(|e| panic!("{e}"));
    let mut a = agent(&args[1], movetime);
    let mut b = agent(&args[2], movetime);

    let verbose = std::env::var_os("TALPA_VERBOSE").is_some();
    let started = Instant::now();
    // [A as red, A as blue]: (A wins, games).
    let mut score = [(0u32, 0u32); 2];
    let mut lengths = 0u64;
    for game in 0..games {
        let pair = game / 2;
        let a_is_red = game % 2 == 0;
        // The same opening for both games of a pair.
        let mut opening_rng =
            Xorshift::new(0x9e37_79b9 ^ (pair as u64 + 1).wrapping_mul(0x1234_5677));
        let mut position = Talpa::start(&config);
        for _ in 0..opening {
            if position.outcome().is_some() {
                break;
            }
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            position.play(moves[opening_rng.index(moves.len())]);
        }
        let mut rng =
            Xorshift::new(0xdead_beef ^ (game as u64 + 1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        a.new_game();
        b.new_game();
        let mut removal_from = None;
        let outcome = loop {
            if let Some(outcome) = position.outcome() {
                break outcome;
            }
            if removal_from.is_none() && !position.in_capture_phase() {
                removal_from = Some(position.plies());
            }
            let red_to_move = position.side_to_move() == Player::P1;
            let mover = if red_to_move == a_is_red {
                &mut a
            } else {
                &mut b
            };
            let mv = mover.choose(&position, &mut rng);
            position.play(mv);
        };
        lengths += u64::from(position.plies());
        if verbose {
            eprintln!(
                "game {game}: {outcome} after {} plies, removals from ply {removal_from:?}: {}",
                position.plies(),
                position.fen()
            );
        }
        let a_player = if a_is_red { Player::P1 } else { Player::P2 };
        let slot = &mut score[usize::from(!a_is_red)];
        slot.1 += 1;
        if outcome == Outcome::Win(a_player) {
            slot.0 += 1;
        }
        if (game + 1) % 20 == 0 || game + 1 == games {
            let wins = score[0].0 + score[1].0;
            eprintln!(
                "{}/{games}: {} {wins} - {} {} ({:.0} s)",
                game + 1,
                args[1],
                game + 1 - wins as usize,
                args[2],
                started.elapsed().as_secs_f64()
            );
        }
    }
    let wins = score[0].0 + score[1].0;
    println!(
        "size {size}, {games} games, {movetime:?} per move, {opening} random opening plies: {} scores {wins}/{games} = {:.1}% against {} (as red {}/{}, as blue {}/{}), {:.1} plies/game",
        args[1],
        100.0 * f64::from(wins) / games as f64,
        args[2],
        score[0].0,
        score[0].1,
        score[1].0,
        score[1].1,
        lengths as f64 / games as f64
    );
}
