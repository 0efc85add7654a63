//! Balanced opening suites: `tabuleiro openings` makes them, and `match` plays the
//! game's shipped suite when it is given no openings.
//!
//! A suite is positions a few plies from the start, distinct up to the board's
//! symmetries ([`crate::game::symmetry`]), each judged balanced: by its exact value where the
//! game's oracle knows it (the Neutreeko tablebase, the Linetris row-clear tables,
//! the Connect Four solver within a time budget), which must be a draw (or, for
//! Connect Four, a win that comes no earlier than `close` plies before the board is
//! full); else by a search of fixed depth whose score is within a margin. Candidates
//! are random walks from the start (SplitMix64, so a seed repeats a suite on any
//! machine). The output is an openings file ([`super::openings`]) of `startpos moves
//! …` lines after `#` lines saying how it was made.
//!
//! The shipped suites (`data/openings/GAME.txt`) are built into the binary and hold
//! for the game's default options only: with other options `match` starts from the
//! start position, as before.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::openings::{Opening, SplitMix64};
pub use crate::game::symmetry::{Symmetry, canonical_key, symmetries, transformed_fen};
use crate::game::{Game, Record, Value};
use crate::games::{self, GameVisitor};
use crate::options;
use crate::search::{Oracle, Policy, Score, SearchLimits, Strategy};

/// The shipped suites: game name and text.
const SHIPPED: &[(&str, &str)] = &[
    ("linetris", include_str!("../../data/openings/linetris.txt")),
    ("talpa", include_str!("../../data/openings/talpa.txt")),
    ("fabrik", include_str!("../../data/openings/fabrik.txt")),
    (
        "frozenforest",
        include_str!("../../data/openings/frozenforest.txt"),
    ),
    (
        "neutreeko",
        include_str!("../../data/openings/neutreeko.txt"),
    ),
];

/// The shipped suite of `game` when `game_options` leave every option at its
/// default (the suites were made for those), else `None`.
pub fn shipped(game: &str, game_options: &[(String, String)]) -> Option<&'static str> {
    let text = SHIPPED.iter().find(|(name, _)| *name == game)?.1;
    struct Defaults<'a>(&'a [(String, String)]);
    impl GameVisitor for Defaults<'_> {
        type Output = bool;
        fn visit<G: Strategy>(self) -> bool {
            options::params_from_pairs::<G>(self.0).is_ok_and(|params| params.is_default())
        }
    }
    games::visit(game, Defaults(game_options))
        .unwrap_or(false)
        .then_some(text)
}

/// The summary's line for a match that plays the shipped suite.
pub fn describe(config: &super::MatchConfig) -> String {
    match shipped(config.game, &config.game_options) {
        Some(text) => {
            let count = text
                .lines()
                .filter(|line| !line.trim().is_empty() && !line.starts_with('#'))
                .count();
            format!(
                "Openings: the {} suite (data/openings/{}.txt, {count} positions, in order)",
                config.game, config.game
            )
        }
        None => "Openings: the start position (no suite for these options)".to_string(),
    }
}

/// How a suite is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteSpec {
    pub count: usize,
    pub plies: u32,
    pub seed: u64,
    /// The depth of the search that judges positions without an exact value; `None`:
    /// the game's bench depth less 2 (at least 1).
    pub depth: Option<u32>,
    /// The largest score (centi-units, either side) a balanced position may have.
    pub margin: i32,
    /// Time the exact solver may spend on a position, ms (0: tables only).
    pub solve_ms: u64,
    /// Connect Four: a win or loss counts as close (balanced) when it comes no earlier
    /// than this many plies before the board is full (0: draws only).
    pub close: u32,
    /// Random walks tried before giving up.
    pub tries: usize,
}

impl Default for SuiteSpec {
    fn default() -> SuiteSpec {
        SuiteSpec {
            count: 500,
            plies: 4,
            seed: 1,
            depth: None,
            margin: 50,
            solve_ms: 200,
            close: 0,
            tries: 0,
        }
    }
}

/// What making a suite found.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SuiteReport {
    pub openings: Vec<Opening>,
    /// Distinct positions (up to symmetry) judged.
    pub judged: usize,
    /// Accepted by their exact value, and by the search.
    pub by_value: usize,
    pub by_search: usize,
    /// Rejected: decided (exact value) and out of the margin (search).
    pub decided: usize,
    pub unbalanced: usize,
    /// Random walks tried, and repeats of a position already judged.
    pub tries: usize,
    pub repeats: usize,
    /// The search depth used.
    pub depth: u32,
    /// Whether the solver was given up (it timed out on every one of the first
    /// positions).
    pub solver_given_up: bool,
}

/// Solver attempts that must all time out before the solver is given up for the run.
const SOLVER_PROBATION: usize = 20;

/// Makes a suite of `G` under `config`.
pub fn generate<G: Strategy>(config: &G::Config, spec: &SuiteSpec) -> SuiteReport {
    let depth = spec
        .depth
        .unwrap_or_else(|| G::BENCH_DEPTH.saturating_sub(2).max(1));
    let mut report = SuiteReport {
        depth,
        ..SuiteReport::default()
    };
    let tries = if spec.tries == 0 {
        spec.count.saturating_mul(200).max(1000)
    } else {
        spec.tries
    };
    let mut searcher = Policy::<G>::standard(16, config);
    let oracle = Arc::clone(searcher.oracle());
    oracle.wait(&AtomicBool::new(false), None);
    let mut seen = HashSet::new();
    let mut solver_on = spec.solve_ms > 0;
    let mut solver_failures = 0;
    let mut solver_tries = 0;
    let mut rng = SplitMix64::new(spec.seed);
    while report.openings.len() < spec.count && report.tries < tries {
        report.tries += 1;
        let Some((record, moves)) = walk::<G>(config, spec.plies, &mut rng) else {
            continue;
        };
        let state = record.state();
        if !seen.insert(canonical_key(state)) {
            report.repeats += 1;
            continue;
        }
        report.judged += 1;
        let mut value = oracle.probe(state);
        if value.is_none() && solver_on {
            solver_tries += 1;
            value = solve_within(&*oracle, state, Duration::from_millis(spec.solve_ms));
            if value.is_none() {
                solver_failures += 1;
                if solver_tries == SOLVER_PROBATION && solver_failures == SOLVER_PROBATION {
                    solver_on = false;
                    report.solver_given_up = true;
                }
            }
        }
        let balanced = match value {
            Some(value) => {
                let ok = is_close::<G>(state, value, spec.close);
                if ok {
                    report.by_value += 1;
                } else {
                    report.decided += 1;
                }
                ok
            }
            None => {
                searcher.clear();
                let limits = SearchLimits {
                    depth: Some(depth),
                    ..SearchLimits::default()
                };
                let stop = Arc::new(AtomicBool::new(false));
                let result = searcher.search(state, record.history(), limits, stop, &mut |_| {});
                let ok = match (result.proven, result.score) {
                    (Some(value), _) => is_close::<G>(state, value, spec.close),
                    (None, Score::Cp(cp)) => cp.abs() <= spec.margin,
                    (None, Score::Mate(_)) => false,
                };
                if ok {
                    report.by_search += 1;
                } else {
                    report.unbalanced += 1;
                }
                ok
            }
        };
        if balanced {
            report.openings.push(Opening { fen: None, moves });
        }
    }
    report
}

/// A random walk of `plies` legal moves from the start that leaves the game going.
fn walk<G: Game>(
    config: &G::Config,
    plies: u32,
    rng: &mut SplitMix64,
) -> Option<(Record<G>, Vec<String>)> {
    let mut record = Record::new(G::start(config));
    let mut moves = Vec::new();
    for _ in 0..plies {
        let legal = record.legal_moves();
        if legal.is_empty() {
            return None;
        }
        let mv = legal[rng.below(legal.len())];
        moves.push(record.state().format_move(mv));
        record.play(mv);
        if record.outcome().is_some() {
            return None;
        }
    }
    Some((record, moves))
}

/// The exact value by the game's solver, if it finds it within `budget`.
pub(crate) fn solve_within<G: Strategy>(
    oracle: &G::Oracle,
    state: &G,
    budget: Duration,
) -> Option<Value> {
    let stop = AtomicBool::new(false);
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let end = Instant::now() + budget;
            while !done.load(Ordering::Relaxed) && Instant::now() < end {
                std::thread::sleep(Duration::from_millis(1));
            }
            stop.store(true, Ordering::Relaxed);
        });
        let solution = oracle.solve(state, &stop);
        done.store(true, Ordering::Relaxed);
        // A solver stopped early may answer `None` or nothing sound: only trust an
        // answer that came before the stop.
        solution.map(|s| s.value)
    })
}

/// Whether an exact value is balanced: a draw; or, for Connect Four (Linetris without
/// the row clear, where every move fills a cell), a win or loss on one of the last
/// `close` plies the board leaves.
fn is_close<G: Game>(state: &G, value: Value, close: u32) -> bool {
    match value {
        Value::Draw(_) => true,
        Value::Win(plies) | Value::Loss(plies) => {
            if close == 0 || G::NAME != "linetris" || state.repetition_rule() {
                return false;
            }
            let empties = state
                .board()
                .iter()
                .flatten()
                .filter(|c| c.is_none())
                .count() as u32;
            plies + close > empties
        }
    }
}

/// The suite as an openings file: `#` lines saying how it was made, then one
/// `startpos moves …` line per position.
pub fn render<G: Game>(
    spec: &SuiteSpec,
    game_options: &[(String, String)],
    report: &SuiteReport,
) -> String {
    let mut out = String::new();
    let mut command = format!(
        "# tabuleiro openings --game {} --count {} --plies {} --seed {} --depth {} --margin {} --solve-ms {}",
        G::NAME,
        spec.count,
        spec.plies,
        spec.seed,
        report.depth,
        spec.margin,
        spec.solve_ms
    );
    if spec.close > 0 {
        command.push_str(&format!(" --close {}", spec.close));
    }
    for (name, value) in game_options {
        command.push_str(&format!(" --option {name}={value}"));
    }
    out.push_str(&command);
    out.push('\n');
    out.push_str(&format!("# {}\n", summary_line(report)));
    for opening in &report.openings {
        out.push_str(&format!("startpos moves {}\n", opening.moves.join(" ")));
    }
    out
}

/// One line on what was found.
pub fn summary_line(report: &SuiteReport) -> String {
    let mut text = format!(
        "{} openings: {} by exact value, {} by a depth {} search; rejected {} decided, {} \
         out of the margin; {} distinct positions of {} walks ({} repeats up to symmetry)",
        report.openings.len(),
        report.by_value,
        report.by_search,
        report.depth,
        report.decided,
        report.unbalanced,
        report.judged,
        report.tries,
        report.repeats
    );
    if report.solver_given_up {
        text.push_str(&format!(
            "; the solver found no value within its time in the first {SOLVER_PROBATION} \
             positions and was given up"
        ));
    }
    text
}

/// Runs `tabuleiro openings`: makes the suite `spec` of game `name` under `options`
/// and writes it to `out` (default: stdout), its summary line to stderr.
pub fn run(
    name: &str,
    options: &[(String, String)],
    spec: &SuiteSpec,
    out: Option<&Path>,
) -> Result<(), String> {
    struct Make<'a> {
        options: &'a [(String, String)],
        spec: &'a SuiteSpec,
    }
    impl GameVisitor for Make<'_> {
        type Output = Result<String, String>;
        fn visit<G: Strategy>(self) -> Self::Output {
            let Make { options, spec } = self;
            let config = options::config_from_pairs::<G>(options)?;
            let report = generate::<G>(&config, spec);
            eprintln!("tabuleiro openings: {}", summary_line(&report));
            if report.openings.is_empty() {
                return Err(format!(
                    "no balanced opening found ({})",
                    summary_line(&report)
                ));
            }
            Ok(render::<G>(spec, options, &report))
        }
    }
    let text = games::visit(name, Make { options, spec })
        .unwrap_or_else(|| Err(format!("unknown game '{name}'")))?;
    match out {
        Some(path) => std::fs::write(path, text)
            .map_err(|e| format!("cannot write '{}': {e}", path.display())),
        None => {
            use std::io::Write;
            let mut stdout = std::io::stdout().lock();
            let _ = stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush());
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::default_config;
    use crate::games::neutreeko::Neutreeko;
    use crate::rng::Xorshift;

    /// Each declared symmetry maps positions to positions of the same game with the
    /// same move counts two plies deep and the same outcome.
    struct CheckSymmetries;
    impl GameVisitor for CheckSymmetries {
        type Output = ();
        fn visit<G: Strategy>(self) {
            let config = default_config::<G>();
            let mut rng = Xorshift::new(11);
            for game in 0..12 {
                let mut state = G::start(&config);
                for _ in 0..(game % 6) + 1 {
                    let mut moves = Vec::new();
                    state.generate_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    state.play(moves[rng.index(moves.len())]);
                }
                for &symmetry in symmetries(G::NAME) {
                    let fen = transformed_fen(&state, symmetry);
                    let image = G::from_fen(&config, &fen)
                        .unwrap_or_else(|e| panic!("{} {symmetry:?}: {fen}: {e}", G::NAME));
                    assert_eq!(image.outcome(), state.outcome(), "{} {fen}", G::NAME);
                    assert_eq!(
                        crate::perft::perft(&image, 2),
                        crate::perft::perft(&state, 2),
                        "{} {symmetry:?}: {} against {fen}",
                        G::NAME,
                        state.fen()
                    );
                    assert_eq!(canonical_key(&image), canonical_key(&state));
                }
            }
        }
    }

    #[test]
    fn symmetries_keep_the_rules() {
        for name in games::NAMES {
            games::visit(name, CheckSymmetries);
        }
    }

    #[test]
    // Neutreeko's config is `()`; the test keeps the shape every game needs.
    #[allow(clippy::let_unit_value)]
    fn neutreeko_suites_are_tablebase_draws_distinct_and_repeatable() {
        let config = default_config::<Neutreeko>();
        let spec = SuiteSpec {
            count: 30,
            ..SuiteSpec::default()
        };
        let report = generate::<Neutreeko>(&config, &spec);
        assert_eq!(report.openings.len(), 30, "{}", summary_line(&report));
        assert_eq!(report.by_value, 30);
        assert_eq!(generate::<Neutreeko>(&config, &spec), report);
        let table = crate::games::neutreeko::tablebase::Table::build(1).expect("the table");
        let mut keys = HashSet::new();
        for opening in &report.openings {
            let record = opening.record::<Neutreeko>(&config).expect("legal");
            assert!(matches!(table.probe(record.state()), Some(Value::Draw(_))));
            assert!(keys.insert(canonical_key(record.state())));
        }
        let text = render::<Neutreeko>(&spec, &[], &report);
        let back = super::super::openings::parse_file::<Neutreeko>(&config, &text).unwrap();
        assert_eq!(back, report.openings);
    }

    /// Every shipped suite reads, holds at least 500 openings, distinct up to symmetry.
    struct CheckShipped;
    impl GameVisitor for CheckShipped {
        type Output = ();
        fn visit<G: Strategy>(self) {
            let config = default_config::<G>();
            let text = shipped(G::NAME, &[]).expect("a suite");
            let openings = super::super::openings::parse_file::<G>(&config, text)
                .unwrap_or_else(|e| panic!("{}: {e}", G::NAME));
            assert!(openings.len() >= 500, "{}: {}", G::NAME, openings.len());
            let mut keys = HashSet::new();
            for opening in &openings {
                let record = opening.record::<G>(&config).expect("legal");
                assert!(keys.insert(canonical_key(record.state())), "{}", G::NAME);
            }
        }
    }

    #[test]
    fn every_game_ships_a_suite_of_distinct_openings() {
        for name in games::NAMES {
            games::visit(name, CheckShipped);
        }
    }

    #[test]
    fn shipped_suites_hold_for_default_options_only() {
        assert!(shipped("neutreeko", &[]).is_some());
        let rows = [("Rows".to_string(), "6".to_string())];
        assert!(shipped("linetris", &rows).is_some());
        let rows = [("Rows".to_string(), "5".to_string())];
        assert!(shipped("linetris", &rows).is_none());
        assert!(shipped("chess", &[]).is_none());
    }
}
