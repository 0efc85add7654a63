//! Levels below full strength cost no more than the full search at the same depth.
//!
//! They once did not: an exact score for every near-best root move made Fabrik's
//! `go depth 3` at Level 8 search 5.2 M nodes where Level 10 searched 67 k.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabuleiro::bench;
use tabuleiro::game::{Game, Record, default_config};
use tabuleiro::games::fabrik::Fabrik;
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::search::{Level, Policy, SearchLimits, Strategy};

/// Nodes of a fixed-depth search of `root` at `level` (seeded, so repeatable).
fn nodes<G: Strategy>(root: &G, history: &[u64], depth: u32, level: u8, seed: u64) -> u64 {
    let mut searcher = Policy::<G>::standard(16, &default_config::<G>());
    searcher.seed_level(seed);
    let limits = SearchLimits {
        depth: Some(depth),
        level: Level::new(level).expect("a level"),
        ..SearchLimits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    searcher
        .search(root, history, limits, stop, &mut |_| {})
        .nodes
}

/// The most a weaker level may cost, as a multiple of the full search: the random
/// bonuses make the root's first moves worse guesses than the full search's, which
/// costs re-searches (up to 3.1 times the nodes on the bench positions, Neutreeko at
/// Level 9), but never a tree of another order. Below 2,000 nodes nothing is measured.
const SLACK: f64 = 3.5;

#[test]
fn the_reported_fabrik_position_is_not_slower_below_level_10() {
    let mut record = Record::new(Fabrik::start(&tabuleiro::game::default_config::<Fabrik>()));
    for text in ["b5", "a5", "pass", "b6"] {
        record.play_text(text).expect("a legal move");
    }
    let full = nodes(record.state(), record.history(), 3, 10, 1);
    for level in 1..10 {
        for seed in 0..3 {
            let weak = nodes(record.state(), record.history(), 3, level, seed);
            assert!(
                weak as f64 <= full as f64 * SLACK,
                "level {level} seed {seed}: {weak} nodes, level 10: {full}"
            );
        }
    }
}

#[test]
fn every_level_of_every_game_stays_near_the_full_search() {
    struct Check;
    impl GameVisitor for Check {
        type Output = ();
        fn visit<G: Strategy>(self) {
            for root in bench::positions::<G>() {
                let history = [root.hash()];
                let depth = G::BENCH_DEPTH.min(6);
                let full = nodes(&root, &history, depth, 10, 1);
                for level in [3, 6, 8, 9] {
                    let weak = nodes(&root, &history, depth, level, 5);
                    assert!(
                        weak as f64 <= (full as f64 * SLACK).max(2_000.0),
                        "{} level {level}: {weak} nodes, level 10: {full}",
                        G::NAME
                    );
                }
            }
        }
    }
    for name in games::NAMES {
        games::visit(name, Check);
    }
}
