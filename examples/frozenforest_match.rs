//! In-process games of Frozen Forest between players: the engine's search with any
//! evaluation weights, a random player, and a 2-ply minimax on the seed's heuristic.
//!
//! ```text
//! cargo run --release --example frozenforest_match -- vs A B [games] [nodes]
//!     variant A against variant B with a node limit per move, from random
//!     placements (ply 1 and 2), each opening played twice with the roles swapped
//! cargo run --release --example frozenforest_match -- final [games] [limit] [variant] [opponents]
//!     the engine (default weights) at `limit` per move (`100ms`, the default, or
//!     `20000n` nodes) against the random player and the 2-ply minimax player
//!     (`opponents`: random, minimax2 or all, optionally with `,yuki-only` or
//!     `,mina-only`), `games` games in each role against each; variant `engine` is the
//!     engine exactly as the protocol runs it (Monte-Carlo tree search for Yuki,
//!     alpha-beta with the default weights for Mina, a 16 MiB Hash); with both
//!     roles, game i as Yuki and game i as Mina also make pair i, scored as the
//!     SPEC scores Frozen Forest matches (trees eaten break a 1-1 tie)
//! ```
//! Variants: see `VARIANTS` below (name, weights), or `w:` and the eight weights in
//! the order of `Weights`' fields. `FF_THREADS=2` gives variant `engine` two threads
//! (the `Threads` option); `FF_YUKI_START=a1` forces Yuki's placement;
//! `FF_TRACE=1` prints every game (moves, engine scores, final board) to stderr.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::arena::stats::{PairGame, PairReason, Tally, score_pair};
use tabuleiro::game::{Game, Outcome, Player};
use tabuleiro::games::frozenforest::{
    Config, FrozenForest, FrozenForestEval, Move, Weights, seed_heuristic,
};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::time::Budget;
use tabuleiro::search::{AlphaBeta, NoOracle, Policy, SearchLimits};

const VARIANTS: &[(&str, Weights)] = &[
    ("default", Weights::DEFAULT),
    ("seed", Weights::SEED),
    (
        "reach",
        Weights {
            yuki_reach2: 8,
            ..Weights::DEFAULT
        },
    ),
    (
        "mobility",
        Weights {
            trees_around: 0,
            distance: 0,
            ..Weights::DEFAULT
        },
    ),
    (
        "hider",
        Weights {
            yuki_moves: 20,
            mina_moves: 20,
            trees_around: 5,
            distance: 2,
            ..Weights::DEFAULT
        },
    ),
    (
        "old",
        Weights {
            yuki_moves: 40,
            mina_moves: 12,
            trees_around: 10,
            distance: 4,
            ..Weights::DEFAULT
        },
    ),
    (
        "squeeze2",
        Weights {
            yuki_moves: 40,
            mina_moves: 60,
            trees_around: 5,
            distance: 8,
            ..Weights::DEFAULT
        },
    ),
    (
        "food",
        Weights {
            food: 4,
            ..Weights::DEFAULT
        },
    ),
    (
        "kills",
        Weights {
            kills: 30,
            ..Weights::DEFAULT
        },
    ),
    (
        "both",
        Weights {
            food: 4,
            kills: 30,
            ..Weights::DEFAULT
        },
    ),
];

enum Contestant {
    /// Alpha-beta for both roles with the given weights.
    Engine {
        searcher: Box<AlphaBeta<FrozenForest, FrozenForestEval, NoOracle>>,
        limits: SearchLimits,
    },
    Random,
    Minimax2,
    /// The engine exactly as the protocol runs it: the searcher on the game itself, so
    /// Monte-Carlo tree search for Yuki and alpha-beta with the default weights for Mina.
    Full {
        searcher: Box<Policy<FrozenForest>>,
        limits: SearchLimits,
    },
}

impl Contestant {
    fn engine(weights: &'static Weights, limits: SearchLimits) -> Contestant {
        let eval = FrozenForestEval(*weights);
        let mut searcher = Box::new(AlphaBeta::new(16, eval, Arc::new(NoOracle)));
        searcher.prepare();
        Contestant::Engine { searcher, limits }
    }

    fn new_game(&mut self) {
        match self {
            Contestant::Engine { searcher, .. } => searcher.clear(),
            Contestant::Full { searcher, .. } => searcher.clear(),
            _ => {}
        }
    }

    fn choose(&mut self, position: &FrozenForest, history: &[u64], rng: &mut Xorshift) -> Move {
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        match self {
            Contestant::Random => moves[rng.index(moves.len())],
            Contestant::Minimax2 => minimax2(position, &moves, rng),
            Contestant::Full { searcher, limits } => {
                let stop = Arc::new(AtomicBool::new(false));
                let outcome = searcher.search(position, history, *limits, stop, &mut |_| {});
                if std::env::var_os("FF_TRACE").is_some() {
                    eprint!("[{:?} n{}] ", outcome.score, outcome.nodes);
                }
                outcome.best.unwrap_or(moves[0])
            }
            Contestant::Engine { searcher, limits } => {
                let stop = Arc::new(AtomicBool::new(false));
                let time_up = Arc::new(AtomicBool::new(false));
                let outcome =
                    searcher.search(position, history, *limits, stop, time_up, &mut |_| {});
                if std::env::var_os("FF_TRACE").is_some() {
                    eprint!("[{:?} d{}] ", outcome.score, outcome.depth);
                }
                outcome.best.unwrap_or(moves[0])
            }
        }
    }
}

const WIN: i32 = 1_000_000;

/// Two plies of minimax on the seed's heuristic, ties broken at random.
fn minimax2(position: &FrozenForest, moves: &[Move], rng: &mut Xorshift) -> Move {
    let mut best = Vec::new();
    let mut best_value = i32::MIN;
    let mut replies = Vec::new();
    for &mv in moves {
        let mut child = *position;
        child.play(mv);
        replies.clear();
        child.generate_moves(&mut replies);
        let value = if replies.is_empty() {
            WIN
        } else {
            replies
                .iter()
                .map(|&reply| {
                    let mut grandchild = child;
                    grandchild.play(reply);
                    if grandchild.count_moves() == 0 {
                        -WIN
                    } else {
                        // The side to move in the grandchild is the root player.
                        seed_heuristic(&grandchild)
                    }
                })
                .min()
                .unwrap_or(WIN)
        };
        if value > best_value {
            best_value = value;
            best.clear();
        }
        if value == best_value {
            best.push(mv);
        }
    }
    best[rng.index(best.len())]
}

/// Plays one game from `position`; returns the winner and the trees eaten.
fn play_game(
    mut position: FrozenForest,
    yuki: &mut Contestant,
    mina: &mut Contestant,
    rng: &mut Xorshift,
) -> (Player, u32) {
    yuki.new_game();
    mina.new_game();
    let mut history = vec![position.hash()];
    let trace = std::env::var_os("FF_TRACE").is_some();
    while position.outcome().is_none() {
        let mover = match position.side_to_move() {
            Player::P1 => &mut *yuki,
            Player::P2 => &mut *mina,
        };
        let forced = (position.plies() == 0)
            .then(|| std::env::var("FF_YUKI_START").ok())
            .flatten()
            .and_then(|text| position.legal_move(&text).ok());
        let mv = match forced {
            Some(mv) => mv,
            None => mover.choose(&position, &history, rng),
        };
        if trace {
            eprint!("{} ", position.format_move(mv));
        }
        position.play(mv);
        history.push(position.hash());
    }
    if trace {
        eprintln!("\n{}{}", position.diagram(), position.fen());
    }
    (position.side_to_move().other(), position.trees_eaten())
}

/// A variant by name, or given as `w:yuki_moves,mina_moves,trees_around,distance,
/// yuki_reach2,food,kills,traps`.
fn variant(name: &str) -> &'static Weights {
    if let Some(list) = name.strip_prefix("w:") {
        let numbers: Vec<i32> = list.split(',').filter_map(|n| n.parse().ok()).collect();
        if let [
            yuki_moves,
            mina_moves,
            trees_around,
            distance,
            yuki_reach2,
            food,
            kills,
            traps,
        ] = numbers[..]
        {
            return Box::leak(Box::new(Weights {
                yuki_moves,
                mina_moves,
                trees_around,
                distance,
                yuki_reach2,
                food,
                kills,
                traps,
            }));
        }
        eprintln!("w: needs 8 integers");
        std::process::exit(2);
    }
    match VARIANTS.iter().find(|(n, _)| *n == name) {
        Some((_, w)) => w,
        None => {
            let names: Vec<&str> = VARIANTS.iter().map(|(n, _)| *n).collect();
            eprintln!("unknown variant '{name}'; known: {names:?}");
            std::process::exit(2);
        }
    }
}

fn nodes_limits(nodes: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    }
}

fn time_limits(ms: u64) -> SearchLimits {
    let budget = Duration::from_millis(ms);
    SearchLimits {
        budget: Budget {
            soft: Some(budget),
            hard: Some(budget),
        },
        ..SearchLimits::default()
    }
}

/// Random placements for both (ply 1 and 2).
fn random_opening(rng: &mut Xorshift) -> FrozenForest {
    let mut position = FrozenForest::start(&Config { trees: 10 });
    for _ in 0..2 {
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        position.play(moves[rng.index(moves.len())]);
    }
    position
}

fn versus(a: &str, b: &str, games: usize, nodes: u64) {
    let (wa, wb) = (variant(a), variant(b));
    let mut pa = Contestant::engine(wa, nodes_limits(nodes));
    let mut pb = Contestant::engine(wb, nodes_limits(nodes));
    let mut rng = Xorshift::new(0x00f0_e57f_0e57);
    // [a as Yuki wins, a as Mina wins], out of games/2 each.
    let mut a_wins = [0, 0];
    let pairs = games.div_ceil(2);
    let clock = Instant::now();
    for _ in 0..pairs {
        let opening = random_opening(&mut rng);
        if play_game(opening, &mut pa, &mut pb, &mut rng).0 == Player::P1 {
            a_wins[0] += 1;
        }
        if play_game(opening, &mut pb, &mut pa, &mut rng).0 == Player::P2 {
            a_wins[1] += 1;
        }
    }
    let total = a_wins[0] + a_wins[1];
    println!(
        "{a} vs {b}: {a} scores {total}/{} ({:.1}%): as Yuki {}/{pairs}, as Mina {}/{pairs} \
         [{nodes} nodes/move, {:.0} s]",
        2 * pairs,
        100.0 * total as f64 / (2 * pairs) as f64,
        a_wins[0],
        a_wins[1],
        clock.elapsed().as_secs_f64()
    );
}

/// `100ms` or `20000n`.
fn limits(text: &str) -> SearchLimits {
    if let Some(ms) = text.strip_suffix("ms").and_then(|n| n.parse().ok()) {
        time_limits(ms)
    } else if let Some(nodes) = text.strip_suffix('n').and_then(|n| n.parse().ok()) {
        nodes_limits(nodes)
    } else {
        eprintln!("a limit is like 100ms or 20000n, not '{text}'");
        std::process::exit(2);
    }
}

fn final_match(games: usize, limit: &str, variant_name: &str, opponents: &str) {
    let mut rng = Xorshift::new(0x5eed_0000_0001);
    let mut engine = if variant_name == "engine" {
        let mut searcher = Box::new(Policy::standard(16, &Config { trees: 10 }));
        if let Some(threads) = std::env::var("FF_THREADS")
            .ok()
            .and_then(|t| t.parse().ok())
        {
            searcher.set_threads(threads);
        }
        searcher.prepare();
        Contestant::Full {
            searcher,
            limits: limits(limit),
        }
    } else {
        Contestant::engine(variant(variant_name), limits(limit))
    };
    for (name, mut opponent) in [
        ("random", Contestant::Random),
        ("minimax2", Contestant::Minimax2),
    ] {
        if !opponents.contains(name) && opponents != "all" {
            continue;
        }
        let clock = Instant::now();
        let mut wins = [0usize, 0];
        let mut eaten = [0u32, 0];
        let mut pairs = Tally::default();
        let mut tie_breaks = Tally::default();
        for _ in 0..games {
            let start = FrozenForest::start(&Config { trees: 10 });
            let mut played = Vec::new();
            if !opponents.contains("mina-only") {
                let (winner, trees) = play_game(start, &mut engine, &mut opponent, &mut rng);
                wins[0] += usize::from(winner == Player::P1);
                eaten[0] += trees;
                played.push(pair_game(true, winner, trees));
            }
            if !opponents.contains("yuki-only") {
                let (winner, trees) = play_game(start, &mut opponent, &mut engine, &mut rng);
                wins[1] += usize::from(winner == Player::P2);
                eaten[1] += trees;
                played.push(pair_game(false, winner, trees));
            }
            if let [yuki_game, mina_game] = played[..] {
                let result = score_pair([yuki_game, mina_game]);
                if std::env::var_os("FF_TRACE").is_some() {
                    eprintln!(
                        "pair: {:?}, {}",
                        result.score,
                        result.reason.describe("engine", name, "trees eaten")
                    );
                }
                pairs.add(result.score);
                if !matches!(result.reason, PairReason::Points(_)) {
                    tie_breaks.add(result.score);
                }
            }
        }
        println!(
            "engine {variant_name} {limit}/move vs {name}: as Yuki {}/{games} ({:.1}%, {:.1} trees eaten on \
             average), as Mina {}/{games} ({:.1}%, {:.1} trees eaten by {name}); total {}/{} \
             ({:.1}%) [{:.0} s]",
            wins[0],
            100.0 * wins[0] as f64 / games as f64,
            eaten[0] as f64 / games as f64,
            wins[1],
            100.0 * wins[1] as f64 / games as f64,
            eaten[1] as f64 / games as f64,
            wins[0] + wins[1],
            2 * games,
            100.0 * (wins[0] + wins[1]) as f64 / (2 * games) as f64,
            clock.elapsed().as_secs_f64()
        );
        if let Some(score) = pairs.score() {
            println!(
                "  scored as SPEC pairs (one game in each role, trees eaten break a 1-1 tie): \
                 {} of {} pairs ({:.1}%) {}; {} pairs went to the tie-break, {}",
                score * f64::from(pairs.total()),
                pairs.total(),
                100.0 * score,
                pairs.short(),
                tie_breaks.total(),
                tie_breaks.short()
            );
        }
    }
}

/// One game as the pair scoring sees it, from the engine's side.
fn pair_game(engine_is_yuki: bool, winner: Player, trees: u32) -> PairGame {
    PairGame {
        a_is_p1: engine_is_yuki,
        outcome: Outcome::Win(winner),
        count: trees,
        forfeit: false,
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("vs") if args.len() >= 3 => versus(
            &args[1],
            &args[2],
            number(3, 100) as usize,
            number(4, 20_000),
        ),
        Some("final") => final_match(
            number(1, 100) as usize,
            args.get(2).map_or("100ms", String::as_str),
            args.get(3).map_or("default", String::as_str),
            args.get(4).map_or("all", String::as_str),
        ),
        _ => {
            eprintln!(
                "usage: frozenforest_match vs A B [games] [nodes] | final [games] [limit] [variant] [opponents]"
            );
            std::process::exit(2);
        }
    }
}
