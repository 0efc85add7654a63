//! `bench`: a deterministic node count over fixed positions of every game.
//!
//! For each game: the start position, positions a fixed pseudo-random playout
//! reaches, and the game's own middle games if it names some (`Strategy::BENCH_FENS`:
//! a playout of a few plies never meets what decides some games), each searched from
//! a cleared table to the game's `BENCH_DEPTH` (or the depth given). The total node
//! count is the engine's signature: it changes only when search or move generation
//! behaviour changes. Each search has an oracle of its own that is never prepared, so
//! no table built in the background takes part: the signature must not depend on how
//! far a build has got.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::game::default_config;
use crate::games::{self, GameVisitor};
use crate::rng::Xorshift;
use crate::search::{Policy, SearchLimits, Strategy};

/// The depths `bench` accepts, on the command line and over UGI.
pub const DEPTHS: std::ops::RangeInclusive<u32> = 1..=64;
/// Plies of the playouts that give each game's bench positions.
const PLAYOUT_PLIES: [u32; 4] = [0, 3, 6, 11];
/// Transposition table for bench, MiB.
const BENCH_HASH_MIB: usize = 16;

/// The totals of a bench run.
#[derive(Clone, Copy, Debug, Default)]
pub struct BenchReport {
    pub nodes: u64,
    pub elapsed: Duration,
}

impl BenchReport {
    pub fn nps(&self) -> u64 {
        (self.nodes as f64 / self.elapsed.as_secs_f64().max(1e-9)) as u64
    }

    /// The closing line: `N nodes M nps`.
    pub fn summary(&self) -> String {
        format!("{} nodes {} nps", self.nodes, self.nps())
    }
}

/// What bench found for one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GamePart {
    pub game: &'static str,
    pub positions: usize,
    pub depth: u32,
    pub nodes: u64,
}

impl std::fmt::Display for GamePart {
    /// `bench <game>: 4 positions, depth 10, 123 nodes`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "bench {}: {} positions, depth {}, {} nodes",
            self.game, self.positions, self.depth, self.nodes
        )
    }
}

/// The bench positions of game `G`.
pub fn positions<G: Strategy>() -> Vec<G> {
    let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let config = default_config::<G>();
    let mut result = Vec::new();
    let mut state = G::start(&config);
    let mut played = 0;
    let mut moves = Vec::new();
    for &target in &PLAYOUT_PLIES {
        while played < target {
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let pick = (rng.next_u64() % moves.len() as u64) as usize;
            state.play(moves[pick]);
            played += 1;
        }
        if state.outcome().is_none() {
            result.push(state.clone());
        }
    }
    for fen in G::BENCH_FENS {
        match G::from_fen(&config, fen) {
            Ok(state) if state.outcome().is_none() => result.push(state),
            // Pinned by the tests below; a bad one would change the signature too.
            _ => log::error!("bench: {} position {fen:?} is not a game in play", G::NAME),
        }
    }
    result
}

struct BenchGame<'a> {
    depth: Option<u32>,
    stop: &'a Arc<AtomicBool>,
    report: &'a dyn Fn(GamePart),
}

impl GameVisitor for BenchGame<'_> {
    type Output = Option<BenchReport>;
    fn visit<G: Strategy>(self) -> Option<BenchReport> {
        let mut total = BenchReport::default();
        let depth = self.depth.unwrap_or(G::BENCH_DEPTH);
        let positions = positions::<G>();
        let config = default_config::<G>();
        for state in &positions {
            let mut searcher = Policy::<G>::standard(BENCH_HASH_MIB, &config);
            searcher.prepare();
            let limits = SearchLimits {
                depth: Some(depth),
                ..SearchLimits::default()
            };
            let started = Instant::now();
            let outcome = searcher.search(
                state,
                &[state.hash()],
                limits,
                Arc::clone(self.stop),
                &mut |_| {},
            );
            if self.stop.load(Ordering::Relaxed) {
                return None;
            }
            total.elapsed += started.elapsed();
            total.nodes += outcome.nodes;
        }
        (self.report)(GamePart {
            game: G::NAME,
            positions: positions.len(),
            depth,
            nodes: total.nodes,
        });
        Some(total)
    }
}

/// Runs bench over every game, reporting a line per game to `report`.
pub fn run(depth: Option<u32>, report: &dyn Fn(GamePart)) -> BenchReport {
    let stop = Arc::new(AtomicBool::new(false));
    run_until(depth, &stop, report).unwrap_or_default()
}

/// Runs bench over every game until `stop` is raised; `None` if it was.
pub fn run_until(
    depth: Option<u32>,
    stop: &Arc<AtomicBool>,
    report: &dyn Fn(GamePart),
) -> Option<BenchReport> {
    let mut total = BenchReport::default();
    for name in games::NAMES {
        let part = games::visit(
            name,
            BenchGame {
                depth,
                stop,
                report,
            },
        )??;
        total.nodes += part.nodes;
        total.elapsed += part.elapsed;
    }
    Some(total)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct NamedPositions;

    impl GameVisitor for NamedPositions {
        type Output = ();
        fn visit<G: Strategy>(self) {
            let config = default_config::<G>();
            for fen in G::BENCH_FENS {
                let state = G::from_fen(&config, fen)
                    .unwrap_or_else(|e| panic!("{}: {fen}: {e:?}", G::NAME));
                assert!(state.outcome().is_none(), "{}: {fen} is over", G::NAME);
                assert_eq!(&state.fen(), fen, "{}: the FEN is not canonical", G::NAME);
            }
            let all = positions::<G>();
            let named = all.len().saturating_sub(G::BENCH_FENS.len());
            assert!(named >= 1, "{}: no playout position", G::NAME);
            let searched: Vec<String> = all[named..].iter().map(|s| s.fen()).collect();
            assert_eq!(searched, G::BENCH_FENS, "{}: not searched last", G::NAME);
        }
    }

    /// Every game's named bench positions parse, are in play, and are searched.
    #[test]
    fn named_positions_are_games_in_play() {
        for name in games::NAMES {
            assert!(games::visit(name, NamedPositions).is_some(), "{name}");
        }
    }
}
