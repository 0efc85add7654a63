//! Monte-Carlo tree search (`search::mcts`) on positions whose value is known by brute
//! force (Neutreeko, with the naive rules of `tests/common/naive.rs`), and its use for
//! Frozen Forest's Yuki through the ordinary searcher.

#[path = "common/naive.rs"]
mod naive;
#[path = "common/neutreeko_positions.rs"]
mod neutreeko_positions;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use naive::Naive;
use neutreeko_positions::{fen, naive_after, nodes, random_position};
use tabuleiro::game::{Game, Player};
use tabuleiro::games::frozenforest::{Config, FrozenForest};
use tabuleiro::games::linetris::Linetris;
use tabuleiro::options::config_from_pairs;
use tabuleiro::rng::Xorshift;
use tabuleiro::search::mcts::{Mcts, win_rate_to_cp};
use tabuleiro::search::time::Budget;
use tabuleiro::search::{Info, Policy, Score, SearchLimits, SearchResult, Strategy};

fn run<G: Strategy>(
    mcts: &mut Mcts<G, G::Eval>,
    root: &G,
    limits: SearchLimits,
) -> (SearchResult<G::Move>, Vec<Info<G::Move>>) {
    let mut infos = Vec::new();
    let stop = Arc::new(AtomicBool::new(false));
    let time_up = AtomicBool::new(false);
    let result = mcts.search(root, limits, stop, &time_up, &mut |info| {
        infos.push(info.clone())
    });
    (result, infos)
}

#[test]
fn plays_a_win_in_one_and_proves_it() {
    // Black b1, d1, c3: c3c1 completes b1 c1 d1.
    let root = fen("w3w/5/2b2/5/1b1bw b 10");
    let (result, infos) = run(&mut Mcts::new(1, Default::default()), &root, nodes(10_000));
    let best = result.best.expect("a move");
    assert_eq!(root.format_move(best), "c3c1");
    assert_eq!(result.score, Score::Mate(1));
    assert_eq!(result.proven, Some(tabuleiro::game::Value::Win(1)));
    // A proof ends the search early.
    assert!(result.nodes < 10_000, "{} playouts", result.nodes);
    assert_eq!(
        infos.last().map(|i| i.pv.first().copied()),
        Some(Some(best))
    );
}

#[test]
fn finds_the_only_forced_win_in_three() {
    // Checked by brute force in tests/search.rs too: only a3a1 wins in 3 plies.
    let text = "1w2b/1w1b1/b3w/5/5 b 21";
    let naive = Naive::from_fen(text);
    assert!(!naive.wins_within(1) && naive.wins_within(3));
    let root = fen(text);
    let (result, _) = run(&mut Mcts::new(7, Default::default()), &root, nodes(200_000));
    let best = result.best.expect("a move");
    assert_eq!(root.format_move(best), "a3a1");
    assert!(naive_after(&root, best).loses_within(2));
    assert_eq!(result.score, Score::Mate(3));
}

#[test]
fn avoids_the_moves_that_lose_at_once() {
    // Of black's 18 moves only d2c1 stops every immediate white win (tests/search.rs).
    let text = "5/1b3/b4/1w1b1/ww3 b 30";
    let root = fen(text);
    for seed in [1, 2, 3] {
        let (result, _) = run(
            &mut Mcts::new(seed, Default::default()),
            &root,
            nodes(30_000),
        );
        let best = result.best.expect("a move");
        assert_eq!(root.format_move(best), "d2c1", "seed {seed}");
        assert!(!matches!(result.score, Score::Mate(n) if n < 0));
    }
}

#[test]
fn proven_values_on_random_positions_are_true() {
    // Whatever the tree proves must hold by brute force: a win in n is a win within n
    // plies and the move keeps it; a loss in n is a loss within n plies.
    let mut rng = Xorshift::new(0x0dd_ba11_cafe);
    let (mut wins, mut losses) = (0, 0);
    for _ in 0..120 {
        let Some(naive) = random_position(|| rng.next_u64()) else {
            continue;
        };
        let root = fen(&naive.fen());
        let (result, _) = run(
            &mut Mcts::new(rng.next_u64(), Default::default()),
            &root,
            nodes(20_000),
        );
        match result.score {
            Score::Mate(n) if (1..=5).contains(&n) => {
                let n = n as u32;
                assert!(naive.wins_within(n), "{}: no win in {n}", naive.fen());
                let after = naive_after(&root, result.best.expect("a move"));
                assert!(
                    after.winner() == Some('b') || after.loses_within(n - 1),
                    "{}: the move does not keep the win",
                    naive.fen()
                );
                wins += 1;
            }
            Score::Mate(n) if (-4..0).contains(&n) => {
                let n = n.unsigned_abs();
                assert!(naive.loses_within(n), "{}: no loss in {n}", naive.fen());
                losses += 1;
            }
            _ => {}
        }
    }
    assert!(
        wins > 20 && losses > 5,
        "{wins} wins and {losses} losses proven"
    );
}

#[test]
fn the_same_seed_and_playouts_give_the_same_search() {
    let root = fen("1w1w1/2b2/5/2w2/1b1b1 b");
    let fingerprint = |seed| {
        let (result, infos) = run(
            &mut Mcts::new(seed, Default::default()),
            &root,
            nodes(5_000),
        );
        let last = infos.last().cloned().expect("a report");
        (
            result.best,
            result.score,
            result.pv,
            last.nodes,
            last.seldepth,
        )
    };
    assert_eq!(fingerprint(11), fingerprint(11));
    let (result, _) = run(&mut Mcts::new(11, Default::default()), &root, nodes(5_000));
    assert_eq!(result.nodes, 5_000);
}

#[test]
fn a_time_budget_and_the_stop_flag_end_the_search() {
    let root = fen("1w1w1/2b2/5/2w2/1b1b1 b");
    let limits = SearchLimits {
        budget: Budget {
            soft: Some(Duration::from_millis(50)),
            hard: Some(Duration::from_millis(50)),
        },
        ..SearchLimits::default()
    };
    let started = Instant::now();
    let (result, _) = run(&mut Mcts::new(3, Default::default()), &root, limits);
    assert!(result.best.is_some());
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    // Stopped before it starts: one batch of playouts, still a legal move.
    let stop = Arc::new(AtomicBool::new(true));
    let result = Mcts::new(3, tabuleiro::games::neutreeko::NeutreekoEval).search(
        &root,
        SearchLimits::default(),
        stop,
        &AtomicBool::new(false),
        &mut |_| {},
    );
    let mut moves = Vec::new();
    root.generate_moves(&mut moves);
    assert!(moves.contains(&result.best.expect("a move")));
    assert!(result.nodes < 1_000, "{}", result.nodes);
}

/// Neutreeko's evaluator, but every finished game is worth a quarter to black.
#[derive(Clone, Debug)]
struct QuarterToBlack;

impl tabuleiro::search::Evaluator<tabuleiro::games::neutreeko::Neutreeko> for QuarterToBlack {
    fn evaluate(&mut self, state: &tabuleiro::games::neutreeko::Neutreeko) -> i32 {
        tabuleiro::games::neutreeko::NeutreekoEval.evaluate(state)
    }

    fn playout_result(
        &self,
        _end: &tabuleiro::games::neutreeko::Neutreeko,
        _winner: Option<Player>,
    ) -> f64 {
        0.25
    }
}

#[test]
fn every_node_is_credited_with_what_the_game_says_an_ending_is_worth() {
    // The start: black to move, so the root's children are black's moves.
    let root = fen("1w1w1/2b2/5/2w2/1b1b1 b");
    let mut mcts = Mcts::new(5, QuarterToBlack);
    let result = mcts.search(
        &root,
        nodes(3_000),
        Arc::new(AtomicBool::new(false)),
        &AtomicBool::new(false),
        &mut |_| {},
    );
    assert!(result.best.is_some());
    let children = mcts.root_children();
    assert!(children.iter().map(|c| c.visits).sum::<u32>() >= 2_000);
    for child in children.iter().filter(|c| c.visits > 0) {
        let share = child.reward / f64::from(child.visits);
        assert!((share - 0.25).abs() < 1e-9, "{share}");
    }
}

#[test]
fn a_finished_position_has_no_move() {
    let root = fen("5/5/bbb2/5/w1w1w w 9");
    let (result, _) = run(&mut Mcts::new(1, Default::default()), &root, nodes(100));
    assert_eq!(result.best, None);
}

#[test]
fn win_rates_read_as_centi_units() {
    assert_eq!(win_rate_to_cp(0.5), 0);
    assert!(win_rate_to_cp(0.75) > 150 && win_rate_to_cp(0.75) < 250);
    assert_eq!(win_rate_to_cp(0.25), -win_rate_to_cp(0.75));
    assert!(win_rate_to_cp(1.0) > win_rate_to_cp(0.9));
}

#[test]
fn yuki_is_searched_by_mcts_and_mina_by_alpha_beta() {
    let start = FrozenForest::start(&Config { trees: 10 });
    let mut position = start;
    let mut searcher = Policy::<FrozenForest>::standard(4, &Config { trees: 10 });
    let stop = Arc::new(AtomicBool::new(false));
    let mut search = |root: &FrozenForest, limits| {
        let mut infos = Vec::new();
        let result = searcher.search(root, &[root.hash()], limits, Arc::clone(&stop), &mut |i| {
            infos.push(i.clone())
        });
        (result, infos)
    };
    // Yuki with a playout limit: MCTS counts exactly that many playouts and reports once.
    let (result, infos) = search(&position, nodes(3_000));
    assert_eq!(result.nodes, 3_000);
    assert_eq!(infos.len(), 1);
    position.play(result.best.expect("a placement"));
    // Mina: alpha-beta's iterations, one report per depth.
    let (result, infos) = search(&position, nodes(3_000));
    assert!(infos.len() > 1, "{} reports", infos.len());
    assert_eq!(
        infos.iter().map(|i| i.depth).collect::<Vec<_>>(),
        (1..=infos.len() as u32).collect::<Vec<_>>()
    );
    position.play(result.best.expect("a placement"));
    // Yuki with a fixed depth keeps alpha-beta (its depth means plies).
    let depth = SearchLimits {
        depth: Some(3),
        ..SearchLimits::default()
    };
    let (_, infos) = search(&position, depth);
    assert_eq!(infos.len(), 3);
}

/// The steps of Yuki's that leave Mina without a hidden cell (he wins at once).
fn winning_steps(root: &FrozenForest) -> Vec<<FrozenForest as Game>::Move> {
    let mut steps = Vec::new();
    root.generate_moves(&mut steps);
    steps
        .into_iter()
        .filter(|&mv| {
            let mut child = *root;
            child.play(mv);
            child.outcome().is_some()
        })
        .collect()
}

#[test]
fn yuki_plays_the_step_that_leaves_mina_nowhere_to_hide() {
    // Positions from random games where Yuki has several steps and exactly one wins
    // at once: the searcher (MCTS for Yuki) must find it every time.
    let mut rng = Xorshift::new(0x5eed_f0e5);
    let mut found = 0;
    for _ in 0..400 {
        let mut position = FrozenForest::start(&Config { trees: 10 });
        while position.outcome().is_none() {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            if position.side_to_move() == Player::P1 && moves.len() >= 3 && position.plies() > 2 {
                let winning = winning_steps(&position);
                if winning.len() == 1 {
                    let mut searcher = Policy::<FrozenForest>::standard(4, &Config { trees: 10 });
                    let stop = Arc::new(AtomicBool::new(false));
                    let result = searcher.search(
                        &position,
                        &[position.hash()],
                        nodes(2_000),
                        stop,
                        &mut |_| {},
                    );
                    assert_eq!(result.best, Some(winning[0]), "{}", position.fen());
                    assert_eq!(result.score, Score::Mate(1), "{}", position.fen());
                    found += 1;
                    break;
                }
            }
            let pick = rng.below(moves.len() as u64) as usize;
            position.play(moves[pick]);
        }
        if found == 10 {
            break;
        }
    }
    assert_eq!(found, 10, "positions with a single winning step");
}

#[test]
fn drawn_endings_score_half_and_never_stall_the_search() {
    // Connect Four on 4x4 (no row clears) often fills up without a line: a drawn leaf
    // has no children and no proof, and the tree must walk past it. Random positions,
    // each searched to a playout limit: a legal move every time, the limit respected.
    let config =
        config_from_pairs::<Linetris>(&[("Rows", "4"), ("Cols", "4"), ("RowClear", "false")])
            .expect("4x4 Connect Four");
    let mut rng = Xorshift::new(0xd4a3);
    let mut draws_seen = 0;
    for _ in 0..40 {
        let mut position = Linetris::start(&config);
        let plies = rng.below(14);
        for _ in 0..plies {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            if moves.is_empty() || position.outcome().is_some() {
                break;
            }
            position.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        if position.outcome().is_some() {
            continue;
        }
        let (result, _) = run(
            &mut Mcts::new(rng.next_u64(), Default::default()),
            &position,
            nodes(3_000),
        );
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        assert!(
            moves.contains(&result.best.expect("a move")),
            "{}",
            position.fen()
        );
        assert!(result.nodes <= 3_000);
        if matches!(result.score, Score::Cp(0)) || result.proven.is_none() && plies >= 12 {
            draws_seen += 1;
        }
    }
    assert!(draws_seen > 0, "no position near a drawn end");
}
