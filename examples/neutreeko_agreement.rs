//! How often Neutreeko's search without its table keeps a position's value.
//!
//! ```text
//! cargo run --release --example neutreeko_agreement                      # 1,000 positions, 150,000 nodes a move
//! cargo run --release --example neutreeko_agreement -- --movetime 100    # 100 ms a move instead
//! cargo run --release --example neutreeko_agreement -- --positions 200 --seed 5 --nodes 50000 --verbose
//! ```
//!
//! Builds the table (exact values with distances), draws random reachable positions
//! that are not over (random games from the start, each stopped at a random ply from 1
//! to `MAX_PLY`; the same positions for the same `--seed`), and lets the engine's
//! alpha-beta search choose a move with the table off: `--nodes N` (the default,
//! repeatable on a busy machine) or `--movetime MS` (the budget `go movetime MS` gets
//! with the default `MoveOverhead`). The table then judges the move: from a won
//! position it must reach a position lost for the opponent, from a drawn one a draw
//! (a move into a loss for the opponent cannot happen there). From a lost position any
//! move is as good; those are counted apart. The start position is searched the same
//! way and its move judged too.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use tabuleiro::game::{Game, Value, default_config};
use tabuleiro::games::neutreeko::tablebase::Table;
use tabuleiro::games::neutreeko::{Neutreeko, NeutreekoOracle};
use tabuleiro::search::time::{Clock, budget};
use tabuleiro::search::{Oracle, Policy, SearchLimits};

#[path = "neutreeko_common/mod.rs"]
mod common;
use common::{BLUNDER, MAX_PLY, random_positions, same_kind, value_after};

/// The engine's default `MoveOverhead`, for `--movetime`.
const MOVE_OVERHEAD_MS: u64 = tabuleiro::session::OVERHEAD_DEFAULT as u64;
/// The default node budget: about 100 ms of search on the 2-core machine of the
/// project (see docs/strength.md for the measured rate).
const DEFAULT_NODES: u64 = 150_000;

struct Args {
    positions: usize,
    seed: u64,
    nodes: Option<u64>,
    movetime: Option<u64>,
    verbose: bool,
}

fn parse_args() -> Args {
    let mut args = Args {
        positions: 1000,
        seed: 1,
        nodes: None,
        movetime: None,
        verbose: false,
    };
    let mut words = std::env::args().skip(1);
    while let Some(word) = words.next() {
        let mut number = |name: &str| -> u64 {
            words
                .next()
                .and_then(|w| w.parse().ok())
                .unwrap_or_else(|| panic!("{name} wants a number"))
        };
        match word.as_str() {
            "--positions" => args.positions = number("--positions") as usize,
            "--seed" => args.seed = number("--seed"),
            "--nodes" => args.nodes = Some(number("--nodes")),
            "--movetime" => args.movetime = Some(number("--movetime")),
            "--verbose" => args.verbose = true,
            other => panic!(
                "unknown argument {other:?} (--positions N, --seed S, --nodes N, --movetime MS, --verbose)"
            ),
        }
    }
    if args.nodes.is_none() && args.movetime.is_none() {
        args.nodes = Some(DEFAULT_NODES);
    }
    args
}

#[derive(Default)]
struct Tally {
    kept: usize,
    total: usize,
}

impl Tally {
    fn add(&mut self, kept: bool) {
        self.total += 1;
        self.kept += usize::from(kept);
    }

    fn show(&self) -> String {
        let share = if self.total == 0 {
            0.0
        } else {
            100.0 * self.kept as f64 / self.total as f64
        };
        format!("{:>4} / {:>4} = {share:5.1} %", self.kept, self.total)
    }
}

/// The share of moves `choose` picks in `positions` that keep the value, printed.
fn measure(
    title: &str,
    positions: &[Neutreeko],
    table: &Table,
    choose: &mut dyn FnMut(&Neutreeko) -> Choice,
    verbose: bool,
) {
    println!("{title}");
    let (mut wins, mut draws, mut losses) = (Tally::default(), Tally::default(), Tally::default());
    let (mut nodes, mut depths, mut open, mut open_nodes) = (0u64, 0u64, 0u64, 0u64);
    let started = Instant::now();
    for position in positions {
        let value = table.probe(position).expect("a valid position");
        let choice = choose(position);
        nodes += choice.nodes;
        depths += u64::from(choice.depth);
        if !choice.proven {
            open += 1;
            open_nodes += choice.nodes;
        }
        let after = value_after(table, position, choice.mv);
        let kept = same_kind(value, after);
        match value {
            Value::Win(_) => wins.add(kept),
            Value::Draw(_) => draws.add(kept),
            Value::Loss(_) => losses.add(kept),
        }
        if verbose && !kept && !matches!(value, Value::Loss(_)) {
            println!(
                "  {}  {value:?} -> {} gives {after:?} (depth {})",
                position.fen(),
                position.format_move(choice.mv),
                choice.depth
            );
        }
    }
    let elapsed = started.elapsed();
    let overall = Tally {
        kept: wins.kept + draws.kept,
        total: wins.total + draws.total,
    };
    println!("  won positions:   {}", wins.show());
    println!("  drawn positions: {}", draws.show());
    println!("  won or drawn:    {}", overall.show());
    println!(
        "  lost positions:  {:>4} (any move keeps a loss)",
        losses.total
    );
    let searched = positions.len().max(1) as u64;
    println!(
        "  mean {} nodes (unproven searches: {open}, mean {} nodes), mean depth {:.1}, {:.0} nodes/s, {:.1} s",
        nodes / searched,
        open_nodes / open.max(1),
        depths as f64 / searched as f64,
        nodes as f64 / elapsed.as_secs_f64().max(1e-9),
        elapsed.as_secs_f64()
    );
}

/// A search's move and what it cost.
struct Choice {
    mv: <Neutreeko as Game>::Move,
    nodes: u64,
    depth: u32,
    proven: bool,
}

fn main() {
    let args = parse_args();
    let table = Table::build(1).expect("the table builds");
    let mut policy = Policy::<Neutreeko>::standard(16, &default_config::<Neutreeko>());
    // The `Tablebase` option off: the oracle is never built nor probed.
    policy.oracle().set_option(0, 0);
    let oracle: &NeutreekoOracle = policy.oracle();
    assert!(!oracle.enabled());
    let limits = SearchLimits {
        nodes: args.nodes,
        budget: budget(
            &Clock {
                movetime: args.movetime,
                ..Clock::default()
            },
            MOVE_OVERHEAD_MS,
        ),
        ..SearchLimits::default()
    };
    let mode = match (args.nodes, args.movetime) {
        (Some(nodes), _) => format!("{nodes} nodes"),
        (None, Some(ms)) => format!("movetime {ms} ms"),
        _ => unreachable!(),
    };
    println!(
        "neutreeko agreement: {} positions a set (seed {}, plies 1..={MAX_PLY}), {mode} a move, table off",
        args.positions, args.seed
    );

    let mut choose = |position: &Neutreeko| {
        policy.clear();
        let stop = Arc::new(AtomicBool::new(false));
        let limits = SearchLimits {
            started: Some(Instant::now()),
            ..limits
        };
        let result = policy.search(position, &[position.hash()], limits, stop, &mut |_| {});
        Choice {
            mv: result.best.expect("a move"),
            nodes: result.nodes,
            depth: result.depth,
            proven: result.proven.is_some(),
        }
    };

    let random = random_positions(args.positions, args.seed, None);
    measure(
        "random games (every move random):",
        &random,
        &table,
        &mut choose,
        args.verbose,
    );
    let sound = random_positions(args.positions, args.seed, Some(&table));
    measure(
        &format!("sound games (moves keep the value, one in {BLUNDER} random):"),
        &sound,
        &table,
        &mut choose,
        args.verbose,
    );

    let start = Neutreeko::start(&default_config::<Neutreeko>());
    let choice = choose(&start);
    let after = value_after(&table, &start, choice.mv);
    let value = table.probe(&start).expect("a valid position");
    println!(
        "start position ({value:?}): {} gives {after:?} (depth {}): {}",
        start.format_move(choice.mv),
        choice.depth,
        if same_kind(value, after) {
            "keeps the draw"
        } else {
            "does not keep the draw"
        }
    );
}
