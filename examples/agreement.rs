//! How often the search alone keeps a position's exact value, in every game that has
//! exact knowledge (issue 34).
//!
//! ```text
//! cargo run --release --example agreement -- --set connect4 --movetime 100
//! cargo run --release --example agreement -- --set rowclear5x5 --movetime 1000 --positions 200
//! cargo run --release --example agreement -- --set neutreeko --nodes 150000 --sources random,sound
//! cargo run --release --example agreement -- --set talpa4 --movetime 100 --verbose
//! ```
//!
//! Sets (`--set`): `connect4` (Linetris 6×7, `RowClear false`: the Connect Four
//! solver), `rowclear5x5` and `rowclear4x6` (Linetris with the row clear: the
//! retrograde tables), `talpa4` (Talpa 4×4: its solver), `talpa6` (Talpa 6×6 late
//! middle games that the solver proves within `--solve-ms`), `trees5` (Frozen Forest
//! Trees 5: its prover), `neutreeko` (the tablebase).
//!
//! Positions are drawn from games from the start, each stopped at a random ply of the
//! set's range (finished positions skipped), the same for the same `--seed`: `random`
//! games (every move random), `selfplay` games (the engine, exact knowledge off, at
//! `SELFPLAY_NODES` nodes a move; one ply in `BLUNDER` any random move) and, for cheap
//! truths, `sound` games (a random move that keeps the value, one ply in `BLUNDER` any
//! random move; the games of the first Neutreeko figure). The game's exact knowledge
//! gives each position its value (positions it does not prove within `--solve-ms` are
//! skipped and counted); the engine chooses a move through the library, as `go` does
//! (`Policy::search`, one thread, 16 MiB table cleared before each position), with the
//! `Tablebase` option off, at `--movetime MS` (the budget `go movetime MS` gets with
//! the default `MoveOverhead`) or `--nodes N` (repeatable on a busy machine); the truth
//! then judges the move. A move keeps the value when from a won position it reaches a
//! position won for the mover (the win may take longer), and from a drawn one a draw;
//! kept wins are also counted when they keep the fastest win. From a lost position any
//! move keeps the loss: those are counted apart, with the share that resists longest.
//! Every figure is given by role (the side to move: Yuki and Mina in Frozen Forest).
//! Positions met again in the same source are counted (`met again`), and judged again
//! unless `--distinct`.
//!
//! Each wrong move is also put in a class: `short` when the win it gives up or the loss
//! it walks into ends within the depth the search reached (a tactic the search should
//! have seen: a pruning or evaluation error), `long` when beyond it (a horizon).

use std::collections::{BTreeMap, HashSet};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Outcome, Player, Value};
use tabuleiro::games::frozenforest::FrozenForest;
use tabuleiro::games::frozenforest::solve::Prover;
use tabuleiro::games::linetris::{Linetris, LinetrisOracle};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::games::neutreeko::tablebase::Table;
use tabuleiro::games::talpa::Talpa;
use tabuleiro::games::talpa::solve::Solver as TalpaSolver;
use tabuleiro::options::config_from_pairs;
use tabuleiro::rng::Xorshift;
use tabuleiro::search::time::{Clock, budget};
use tabuleiro::search::{Oracle, Policy, SearchLimits, Strategy};

/// The engine's default `MoveOverhead`, for `--movetime`.
const MOVE_OVERHEAD_MS: u64 = tabuleiro::session::OVERHEAD_DEFAULT as u64;
/// In self-play and sound games, one ply in this many plays any random move.
const BLUNDER: u64 = 10;
/// The engine's nodes a move in self-play games (a few milliseconds).
const SELFPLAY_NODES: u64 = 2_000;
/// The engine's table, MiB (the default `Hash`).
const HASH_MIB: usize = 16;

/// What the command line asks for.
#[derive(Clone)]
pub struct Args {
    pub set: String,
    pub positions: usize,
    pub seed: u64,
    pub nodes: Option<u64>,
    pub movetime: Option<u64>,
    pub sources: Vec<String>,
    /// How long the truth may take to prove one position, ms.
    pub solve_ms: Option<u64>,
    /// Skip a position already judged in the same source (self-play games, which
    /// differ only by their random plies, meet the same positions again).
    pub distinct: bool,
    pub verbose: bool,
}

impl Args {
    /// The arguments of `words` (without the program name); `Err` says what is wrong.
    pub fn parse(words: &[String]) -> Result<Args, String> {
        let mut args = Args {
            set: String::new(),
            positions: 1000,
            seed: 1,
            nodes: None,
            movetime: None,
            sources: vec!["random".to_string(), "selfplay".to_string()],
            solve_ms: None,
            distinct: false,
            verbose: false,
        };
        let mut words = words.iter();
        while let Some(word) = words.next() {
            let mut value = |name: &str| {
                words
                    .next()
                    .cloned()
                    .ok_or_else(|| format!("{name} wants a value"))
            };
            let number = |text: String, name: &str| {
                text.parse::<u64>()
                    .map_err(|_| format!("{name} wants a number, not {text:?}"))
            };
            match word.as_str() {
                "--set" => args.set = value("--set")?,
                "--positions" => {
                    args.positions = number(value("--positions")?, "--positions")? as usize
                }
                "--seed" => args.seed = number(value("--seed")?, "--seed")?,
                "--nodes" => args.nodes = Some(number(value("--nodes")?, "--nodes")?),
                "--movetime" => args.movetime = Some(number(value("--movetime")?, "--movetime")?),
                "--solve-ms" => args.solve_ms = Some(number(value("--solve-ms")?, "--solve-ms")?),
                "--sources" => {
                    args.sources = value("--sources")?.split(',').map(str::to_string).collect();
                    if let Some(bad) = args
                        .sources
                        .iter()
                        .find(|s| !["random", "selfplay", "sound"].contains(&s.as_str()))
                    {
                        return Err(format!("unknown source {bad:?} (random, selfplay, sound)"));
                    }
                }
                "--verbose" => args.verbose = true,
                "--distinct" => args.distinct = true,
                other => {
                    return Err(format!(
                        "unknown argument {other:?} (--set S, --positions N, --seed S, --nodes N, \
                         --movetime MS, --sources random,selfplay,sound, --solve-ms MS, --distinct, --verbose)"
                    ));
                }
            }
        }
        if args.nodes.is_none() && args.movetime.is_none() {
            args.movetime = Some(100);
        }
        Ok(args)
    }
}

/// A game's exact knowledge, as the judge.
trait Truth<G: Game> {
    /// The exact value of `position` (not over) for its side to move, or `None` when it
    /// is not proven in the time allowed.
    fn value(&mut self, position: &G) -> Option<Value>;
}

/// A set: its game's options, the plies its games stop at, and how long its truth may
/// take a position by default.
struct Set {
    name: &'static str,
    options: &'static [(&'static str, &'static str)],
    plies: (u64, u64),
    solve_ms: u64,
}

const SETS: &[Set] = &[
    Set {
        name: "connect4",
        options: &[("Rows", "6"), ("Cols", "7"), ("RowClear", "false")],
        // From ply 10 (at most 32 empty cells) the solver takes about 0.1 s at most;
        // earlier positions take it seconds to minutes each.
        plies: (10, 36),
        solve_ms: 5_000,
    },
    Set {
        name: "rowclear5x5",
        options: &[("Rows", "5"), ("Cols", "5"), ("RowClear", "true")],
        plies: (1, 60),
        solve_ms: 1_000,
    },
    Set {
        name: "rowclear4x6",
        options: &[("Rows", "4"), ("Cols", "6"), ("RowClear", "true")],
        plies: (1, 60),
        solve_ms: 1_000,
    },
    Set {
        name: "talpa4",
        options: &[("Size", "4")],
        plies: (1, 24),
        solve_ms: 10_000,
    },
    Set {
        name: "talpa6",
        options: &[("Size", "6")],
        plies: (10, 30),
        solve_ms: 3_000,
    },
    Set {
        name: "trees5",
        options: &[("Trees", "5")],
        plies: (2, 40),
        solve_ms: 3_000,
    },
    Set {
        name: "neutreeko",
        options: &[],
        plies: (1, 40),
        solve_ms: 1_000,
    },
];

fn main() {
    let words: Vec<String> = std::env::args().skip(1).collect();
    let args = match Args::parse(&words) {
        Ok(args) => args,
        Err(why) => {
            eprintln!("agreement: {why}");
            std::process::exit(2);
        }
    };
    if let Err(why) = run(&args) {
        eprintln!("agreement: {why}");
        std::process::exit(1);
    }
}

/// Runs the set `args.set` and prints its figures.
pub fn run(args: &Args) -> Result<(), String> {
    let set = SETS.iter().find(|s| s.name == args.set).ok_or_else(|| {
        let names: Vec<&str> = SETS.iter().map(|s| s.name).collect();
        format!("unknown set {:?} (--set {})", args.set, names.join(", "))
    })?;
    let solve = Duration::from_millis(args.solve_ms.unwrap_or(set.solve_ms));
    match set.name {
        "connect4" | "rowclear5x5" | "rowclear4x6" => {
            let config = config::<Linetris>(set)?;
            if config.row_clear {
                let oracle = LinetrisOracle::new(&config);
                let started = Instant::now();
                oracle.wait(&AtomicBool::new(false), None);
                oracle
                    .retro_table()
                    .ok_or("the retrograde table could not be made")?;
                println!(
                    "retrograde table ready in {:.1} s",
                    started.elapsed().as_secs_f64()
                );
                measure_set(set, args, &config, &mut RetroTruth(oracle), &["p1", "p2"])
            } else {
                let oracle = LinetrisOracle::with_cache_dir(&config, None);
                let mut truth = ConnectFourTruth { oracle, solve };
                measure_set(set, args, &config, &mut truth, &["p1", "p2"])
            }
        }
        "talpa4" | "talpa6" => {
            let config = config::<Talpa>(set)?;
            let size = Talpa::start(&config).size();
            let log2 = if size == 4 { 16 } else { 22 };
            let solver = TalpaSolver::new(size, log2)?;
            let mut truth = TalpaTruth { solver, solve };
            measure_set(set, args, &config, &mut truth, &["p1", "p2"])
        }
        "trees5" => {
            let config = config::<FrozenForest>(set)?;
            let prover = Prover::try_new(u64::MAX, 22).ok_or("no memory for the prover")?;
            let mut truth = ForestTruth { prover, solve };
            measure_set(set, args, &config, &mut truth, &["Yuki", "Mina"])
        }
        "neutreeko" => {
            let table = Table::build(1)?;
            measure_set(set, args, &(), &mut NeutreekoTruth(table), &["p1", "p2"])
        }
        _ => unreachable!("every set is matched"),
    }
}

fn config<G: Game>(set: &Set) -> Result<G::Config, String> {
    let pairs: Vec<(String, String)> = set
        .options
        .iter()
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    config_from_pairs::<G>(&pairs)
}

struct NeutreekoTruth(Table);

impl Truth<Neutreeko> for NeutreekoTruth {
    fn value(&mut self, position: &Neutreeko) -> Option<Value> {
        self.0.probe(position)
    }
}

struct ConnectFourTruth {
    oracle: LinetrisOracle,
    solve: Duration,
}

impl Truth<Linetris> for ConnectFourTruth {
    fn value(&mut self, position: &Linetris) -> Option<Value> {
        let never = AtomicBool::new(false);
        let deadline = Instant::now() + self.solve;
        self.oracle
            .solve_connect_four(position, &never, true, Some(deadline))
            .map(|solution| solution.value)
    }
}

/// The row-clear table, through the oracle's probe (which applies the ply limit).
struct RetroTruth(LinetrisOracle);

impl Truth<Linetris> for RetroTruth {
    fn value(&mut self, position: &Linetris) -> Option<Value> {
        self.0.probe(position)
    }
}

struct TalpaTruth {
    solver: TalpaSolver,
    solve: Duration,
}

impl Truth<Talpa> for TalpaTruth {
    fn value(&mut self, position: &Talpa) -> Option<Value> {
        let never = AtomicBool::new(false);
        self.solver.set_deadline(Some(Instant::now() + self.solve));
        let solved = self.solver.solve(position, &never);
        self.solver.set_deadline(None);
        solved.ok().map(|s| s.value)
    }
}

struct ForestTruth {
    prover: Prover,
    solve: Duration,
}

impl Truth<FrozenForest> for ForestTruth {
    fn value(&mut self, position: &FrozenForest) -> Option<Value> {
        let never = AtomicBool::new(false);
        self.prover.set_deadline(Some(Instant::now() + self.solve));
        let solved = self.prover.solve(position, &never);
        self.prover.set_deadline(None);
        solved.ok().map(|s| s.value)
    }
}

/// The value for the side to move in `position` of playing `mv`, by the truth.
fn value_after<G: Game>(truth: &mut dyn Truth<G>, position: &G, mv: G::Move) -> Option<Value> {
    let mut child = position.clone();
    child.play(mv);
    let me = position.side_to_move();
    Some(match child.outcome() {
        Some(Outcome::Win(p)) if p == me => Value::Win(1),
        Some(Outcome::Win(_)) => Value::Loss(1),
        Some(Outcome::Draw) => Value::Draw(1),
        None => {
            let value = truth.value(&child)?;
            match (value, child.side_to_move() == me) {
                (Value::Win(n), true) => Value::Win(n + 1),
                (Value::Loss(n), true) => Value::Loss(n + 1),
                (Value::Win(n), false) => Value::Loss(n + 1),
                (Value::Loss(n), false) => Value::Win(n + 1),
                (Value::Draw(n), _) => Value::Draw(n + 1),
            }
        }
    })
}

fn same_kind(a: Value, b: Value) -> bool {
    matches!(
        (a, b),
        (Value::Win(_), Value::Win(_))
            | (Value::Loss(_), Value::Loss(_))
            | (Value::Draw(_), Value::Draw(_))
    )
}

/// A random legal move of `position` that keeps its value by the truth (any random
/// move when none is judged to).
fn sound_move<G: Game>(truth: &mut dyn Truth<G>, position: &G, random: &mut Xorshift) -> G::Move {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    if let Some(value) = truth.value(position) {
        let keeping: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&mv| value_after(truth, position, mv).is_some_and(|v| same_kind(v, value)))
            .collect();
        if !keeping.is_empty() {
            moves = keeping;
        }
    }
    moves[random.index(moves.len())]
}

/// Candidate positions of `source`: one from each game, stopped at a random ply of the
/// set's range; `None` for a game that ended first.
fn candidate<G: Strategy>(
    source: &str,
    config: &G::Config,
    plies: (u64, u64),
    random: &mut Xorshift,
    player: &mut Policy<G>,
    truth: &mut dyn Truth<G>,
) -> Option<G> {
    let stop_at = plies.0 + random.below(plies.1 - plies.0 + 1);
    let mut position = G::start(config);
    let mut moves = Vec::new();
    let mut history = vec![position.hash()];
    player.clear();
    for _ in 0..stop_at {
        moves.clear();
        position.generate_moves(&mut moves);
        if moves.is_empty() || position.outcome().is_some() {
            return None;
        }
        // Random games draw nothing but their moves (the first Neutreeko figure's
        // games, move for move).
        let blunder = source != "random" && random.below(BLUNDER) == 0;
        let mv = match source {
            "selfplay" if !blunder => {
                let limits = SearchLimits {
                    nodes: Some(SELFPLAY_NODES),
                    ..SearchLimits::default()
                };
                let stop = Arc::new(AtomicBool::new(false));
                let result = player.search(&position, &history, limits, stop, &mut |_| {});
                result.best.unwrap_or(moves[0])
            }
            "sound" if !blunder => sound_move(truth, &position, random),
            _ => moves[random.index(moves.len())],
        };
        position.play(mv);
        history.push(position.hash());
    }
    position.outcome().is_none().then_some(position)
}

/// Whether a wrong move (from `value` to `after`) was decided within `depth` plies:
/// the win given up, or the loss walked into, ends within the search's depth.
fn is_short(value: Value, after: Value, depth: u32) -> bool {
    let won_within = matches!(value, Value::Win(n) if n <= depth);
    let lost_within = matches!(after, Value::Loss(m) if m <= depth);
    won_within || lost_within
}

/// Counts of one role: moves judged in won, drawn and lost positions.
#[derive(Default, Clone)]
struct Tally {
    won: usize,
    won_kept: usize,
    fastest: usize,
    drawn: usize,
    drawn_kept: usize,
    lost: usize,
    slowest: usize,
    /// Wrong moves whose lost value is decided within the search's depth / beyond it.
    short: usize,
    long: usize,
}

fn share(part: usize, whole: usize) -> String {
    if whole == 0 {
        "   –   ".to_string()
    } else {
        format!("{:5.1} %", 100.0 * part as f64 / whole as f64)
    }
}

impl Tally {
    fn merge(&mut self, other: &Tally) {
        self.won += other.won;
        self.won_kept += other.won_kept;
        self.fastest += other.fastest;
        self.drawn += other.drawn;
        self.drawn_kept += other.drawn_kept;
        self.lost += other.lost;
        self.slowest += other.slowest;
        self.short += other.short;
        self.long += other.long;
    }

    fn show(&self, label: &str) {
        let kept = self.won_kept + self.drawn_kept;
        let total = self.won + self.drawn;
        println!(
            "  {label:<5} won {:>4}/{:<4} {}  fastest {} of kept | drawn {:>4}/{:<4} {} | both {:>4}/{:<4} {} | lost {:>4} (longest {}) | errors {} short, {} long",
            self.won_kept,
            self.won,
            share(self.won_kept, self.won),
            share(self.fastest, self.won_kept),
            self.drawn_kept,
            self.drawn,
            share(self.drawn_kept, self.drawn),
            kept,
            total,
            share(kept, total),
            self.lost,
            share(self.slowest, self.lost),
            self.short,
            self.long,
        );
    }
}

/// Draws each source's positions, judges the engine's move in each and prints the
/// tallies by role.
fn measure_set<G: Strategy>(
    set: &Set,
    args: &Args,
    config: &G::Config,
    truth: &mut dyn Truth<G>,
    roles: &[&str; 2],
) -> Result<(), String> {
    let mode = match (args.nodes, args.movetime) {
        (Some(nodes), _) => format!("{nodes} nodes"),
        (None, Some(ms)) => format!("movetime {ms} ms"),
        _ => unreachable!("parse sets one"),
    };
    println!(
        "agreement {}: {} positions a source (seed {}, plies {}..={}), {mode} a move, Tablebase off",
        set.name, args.positions, args.seed, set.plies.0, set.plies.1
    );
    // The engine judged, and the one that plays the self-play games: exact knowledge off.
    let engine = || {
        let policy = Policy::<G>::standard(HASH_MIB, config);
        let off = tabuleiro::game::Params::defaults(tabuleiro::search::TABLEBASE)
            .with("Tablebase", "false")
            .expect("Tablebase takes false");
        policy.oracle().set_options(&off);
        policy
    };
    let mut policy = engine();
    let mut player = engine();
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
    let mut all = [Tally::default(), Tally::default()];
    for source in &args.sources {
        let mut random = Xorshift::new(args.seed);
        let mut tallies = [Tally::default(), Tally::default()];
        let (mut judged, mut unproven, mut drawn_games, mut nodes, mut depths) =
            (0, 0, 0, 0u64, 0u64);
        let mut errors: BTreeMap<String, usize> = BTreeMap::new();
        let mut seen: HashSet<u64> = HashSet::new();
        let mut repeated = 0;
        let started = Instant::now();
        let mut tries = 0;
        while judged < args.positions {
            tries += 1;
            if tries > 50 * args.positions.max(1) {
                return Err(format!(
                    "{source}: too few positions proven ({judged} in {tries} games)"
                ));
            }
            let Some(position) =
                candidate(source, config, set.plies, &mut random, &mut player, truth)
            else {
                drawn_games += 1;
                continue;
            };
            if !seen.insert(position.hash()) {
                repeated += 1;
                if args.distinct {
                    continue;
                }
            }
            let Some(value) = truth.value(&position) else {
                unproven += 1;
                continue;
            };
            policy.clear();
            let stop = Arc::new(AtomicBool::new(false));
            let limits = SearchLimits {
                started: Some(Instant::now()),
                ..limits
            };
            let result = policy.search(&position, &[position.hash()], limits, stop, &mut |_| {});
            let Some(mv) = result.best else {
                return Err(format!("no move in {}", position.fen()));
            };
            let Some(after) = value_after(truth, &position, mv) else {
                unproven += 1;
                continue;
            };
            judged += 1;
            nodes += result.nodes;
            depths += u64::from(result.depth);
            let role = usize::from(position.side_to_move() == Player::P2);
            let tally = &mut tallies[role];
            let kept = same_kind(value, after);
            match value {
                Value::Win(n) => {
                    tally.won += 1;
                    tally.won_kept += usize::from(kept);
                    tally.fastest += usize::from(kept && after.plies() == n);
                }
                Value::Draw(_) => {
                    tally.drawn += 1;
                    tally.drawn_kept += usize::from(kept);
                }
                Value::Loss(n) => {
                    tally.lost += 1;
                    tally.slowest += usize::from(after.plies() == n);
                }
            }
            if !kept && !matches!(value, Value::Loss(_)) {
                let short = is_short(value, after, result.depth);
                if short {
                    tally.short += 1;
                } else {
                    tally.long += 1;
                }
                let class = format!("{} {} -> {}", roles[role], value.word(), after.word());
                *errors.entry(class).or_default() += 1;
                if args.verbose {
                    println!(
                        "    {}  {value:?} -> {} gives {after:?} (depth {}, {})",
                        position.fen(),
                        position.format_move(mv),
                        result.depth,
                        if short { "short" } else { "long" }
                    );
                }
            }
        }
        let elapsed = started.elapsed().as_secs_f64();
        println!(
            "{source} games: {judged} positions judged ({unproven} not proven in time and skipped, {drawn_games} games over before their ply, {repeated} met again{}), mean {} nodes, mean depth {:.1}, {elapsed:.0} s",
            if args.distinct { " and skipped" } else { "" },
            nodes / judged.max(1) as u64,
            depths as f64 / judged.max(1) as f64,
        );
        for (role, tally) in tallies.iter().enumerate() {
            tally.show(roles[role]);
            all[role].merge(tally);
        }
        let mut both = tallies[0].clone();
        both.merge(&tallies[1]);
        both.show("all");
        if !errors.is_empty() {
            let list: Vec<String> = errors.iter().map(|(k, v)| format!("{k}: {v}")).collect();
            println!("  errors by class: {}", list.join(", "));
        }
    }
    if args.sources.len() > 1 {
        println!("all sources:");
        for (role, tally) in all.iter().enumerate() {
            tally.show(roles[role]);
        }
        let mut both = all[0].clone();
        both.merge(&all[1]);
        both.show("all");
    }
    Ok(())
}
