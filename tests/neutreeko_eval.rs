//! Neutreeko played by the search alone (the `Tablebase` option off): from the start
//! only `b1c1` and `d1c1` draw (every other move loses; `b1b4` and `d1d4` in 22 plies,
//! beyond the search's horizon), and the evaluation must lead the search to one of them
//! at the depths a search of 100 ms to 1 s reaches. Nothing in the engine knows the
//! start position: this guards the evaluation's square weights (`eval.rs`).

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabuleiro::game::{Game, Params, default_config};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::search::{Oracle, Policy, SearchLimits, TABLEBASE};

#[test]
fn the_search_without_the_table_draws_from_the_start() {
    let start = Neutreeko::start(&default_config::<Neutreeko>());
    let mut policy = Policy::<Neutreeko>::standard(16, &default_config::<Neutreeko>());
    let off = Params::defaults(TABLEBASE).with("Tablebase", "false");
    policy.oracle().set_options(&off.expect("an engine option"));
    for depth in [8, 10, 12] {
        policy.clear();
        let limits = SearchLimits {
            depth: Some(depth),
            ..SearchLimits::default()
        };
        let result = policy.search(
            &start,
            &[start.hash()],
            limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        let best = start.format_move(result.best.expect("a move"));
        assert!(
            best == "b1c1" || best == "d1c1",
            "depth {depth}: {best} loses (only b1c1 and d1c1 draw)"
        );
    }
}
