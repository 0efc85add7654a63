//! Frozen Forest's exact solver (`src/games/frozenforest/solve.rs`) against a second
//! method: a plain minimax over the naive rules of `tests/common/naive/frozenforest.rs`
//! (2D arrays, sight walked cell by cell; nothing shared with the engine but the move
//! names), with a memo of solved positions and nothing else: no pruning, no ordering.

#[path = "common/naive.rs"]
mod naive;

use std::sync::atomic::AtomicBool;

use naive::Memo;
use naive::frozenforest::Naive;
use tabuleiro::game::{Game, Player, Value};
use tabuleiro::games::frozenforest::solve::Prover;
use tabuleiro::games::frozenforest::{Config, FrozenForest};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::Oracle;

/// The same random game in both rule sets, `plies` long (shorter if it ends).
fn random_game(trees: u8, plies: u32, rng: &mut Xorshift) -> (FrozenForest, Naive) {
    let mut engine = FrozenForest::start(&Config { trees });
    let mut plain = Naive::start(usize::from(trees));
    for _ in 0..plies {
        let moves = plain.moves();
        if moves.is_empty() {
            break;
        }
        let mv = moves[(rng.next_u64() % moves.len() as u64) as usize];
        let parsed = engine
            .parse_move(&Naive::name(mv))
            .expect("a naive move parses");
        engine.play(parsed);
        plain.play(mv);
    }
    (engine, plain)
}

#[test]
fn the_solver_agrees_with_plain_minimax_on_random_small_forests() {
    let mut rng = Xorshift::new(20_261_125);
    let mut prover = Prover::default();
    let stop = AtomicBool::new(false);
    let mut memo = Memo::new();
    let (mut wins, mut losses) = (0, 0);
    for sample in 0..40 {
        // Trees 4 after a few moves of each, Trees 5 from further in (the plain
        // minimax visits every position it can reach).
        let (trees, plies) = if sample % 4 == 3 {
            (5, 16 + (rng.next_u64() % 8) as u32)
        } else {
            (4, 7 + (rng.next_u64() % 8) as u32)
        };
        let (engine, plain) = random_game(trees, plies, &mut rng);
        let expected = naive::minimax(&plain, &mut memo);
        let solved = prover.solve(&engine, &stop).expect("no budget");
        assert_eq!(solved.value, expected, "{}", engine.fen());
        match expected {
            Value::Win(_) => wins += 1,
            _ => losses += 1,
        }
        // The move keeps the value: one ply less, the winner unchanged.
        if let Some(best) = solved.best {
            let mut child = engine;
            child.play(best);
            let mut plain_child = plain.clone();
            let name = engine.format_move(best);
            let naive_move = plain
                .moves()
                .into_iter()
                .find(|&m| Naive::name(m) == name)
                .expect("the solver's move is legal in the naive rules");
            plain_child.play(naive_move);
            let after = naive::minimax(&plain_child, &mut memo);
            let keeps = match (expected, after) {
                (Value::Win(p), Value::Loss(q)) | (Value::Loss(p), Value::Win(q)) => q + 1 == p,
                _ => false,
            };
            assert!(
                keeps,
                "{}: {name} gives {after:?} after {expected:?}",
                engine.fen()
            );
        }
    }
    assert!(wins > 5 && losses > 5, "{wins} wins, {losses} losses");
}

#[test]
fn trees_4_is_a_loss_in_26_plies_for_yuki_from_the_start() {
    let start = FrozenForest::start(&Config { trees: 4 });
    let mut prover = Prover::default();
    let stop = AtomicBool::new(false);
    let solved = prover.solve(&start, &stop).expect("no budget");
    assert_eq!(solved.value, Value::Loss(26));
    // His slowest loss starts in a corner of the forest.
    let best = solved.best.map(|m| start.format_move(m));
    assert!(
        ["d4", "d7", "g4", "g7"].contains(&best.as_deref().unwrap_or("")),
        "{best:?}"
    );
    // The engine's `go solve` asks the same solver.
    let oracle = <FrozenForest as tabuleiro::search::Strategy>::Oracle::new(&Config { trees: 4 });
    let solution = oracle.solve(&start, &stop).expect("Trees 4 is solved");
    assert_eq!(solution.value, Value::Loss(26));
    assert!(solution.nodes > 0);
    let big = <FrozenForest as tabuleiro::search::Strategy>::Oracle::new(&Config { trees: 10 });
    assert!(
        big.solve(&FrozenForest::start(&Config { trees: 10 }), &stop)
            .is_none()
    );
}

#[test]
fn trees_5_is_won_by_mina_against_every_placement() {
    let start = FrozenForest::start(&Config { trees: 5 });
    let mut prover = Prover::default();
    let stop = AtomicBool::new(false);
    let mut placements = Vec::new();
    start.generate_moves(&mut placements);
    assert_eq!(placements.len(), 25);
    for placement in placements {
        let mut placed = start;
        placed.play(placement);
        assert_eq!(placed.side_to_move(), Player::P2);
        assert!(
            prover.mover_wins(&placed, &stop).expect("no budget"),
            "Yuki on {}",
            start.format_move(placement)
        );
    }
}

#[test]
fn a_stopped_solve_gives_no_answer() {
    let start = FrozenForest::start(&Config { trees: 6 });
    let stop = AtomicBool::new(true);
    assert!(Prover::default().solve(&start, &stop).is_err());
    // Beyond Trees 7 the keys would not be exact: no answer either.
    let large = FrozenForest::start(&Config { trees: 8 });
    assert!(
        Prover::default()
            .solve(&large, &AtomicBool::new(false))
            .is_err()
    );
    assert!(
        Prover::new(1000, 16)
            .solve(&start, &AtomicBool::new(false))
            .is_err()
    );
}

#[test]
fn the_trees_5_opening_table_holds_every_placement_and_agrees_with_the_solver() {
    use tabuleiro::games::frozenforest::TREES_5_START;
    let config = Config { trees: 5 };
    let start = FrozenForest::start(&config);
    let mut placements = Vec::new();
    start.generate_moves(&mut placements);
    let mut named: Vec<String> = placements.iter().map(|&m| start.format_move(m)).collect();
    let mut listed: Vec<String> = TREES_5_START.iter().map(|e| e.0.to_string()).collect();
    named.sort();
    listed.sort();
    assert_eq!(named, listed);
    for &(placement, reply, plies) in &TREES_5_START {
        let mut placed = start;
        placed.play(start.parse_move(placement).expect("a placement"));
        let mut replies = Vec::new();
        placed.generate_moves(&mut replies);
        let reply = placed.parse_move(reply).expect("a reply");
        assert!(replies.contains(&reply), "{placement} {reply:?}");
        assert!(
            plies % 2 == 0 && plies > 2,
            "{placement}: Mina's win ends on her move"
        );
    }
    // The engine's `go solve` answers the first two plies from the table.
    let stop = AtomicBool::new(false);
    let oracle = <FrozenForest as tabuleiro::search::Strategy>::Oracle::new(&config);
    let longest = TREES_5_START.iter().map(|e| e.2).max().expect("25 entries");
    let at_start = oracle.solve(&start, &stop).expect("Trees 5 is solved");
    assert_eq!(at_start.value, Value::Loss(longest));
    let first = at_start.best.expect("a placement");
    let entry = TREES_5_START
        .iter()
        .find(|e| e.0 == start.format_move(first))
        .expect("the placement is in the table");
    assert_eq!(entry.2, longest);
    let mut placed = start;
    placed.play(first);
    let answer = oracle.solve(&placed, &stop).expect("Trees 5 is solved");
    assert_eq!(answer.value, Value::Win(longest - 1));
    assert_eq!(
        answer.best.map(|m| placed.format_move(m)).as_deref(),
        Some(entry.1)
    );
    // Every reply wins for Mina (Yuki, to move after it, loses).
    let mut prover = Prover::new(u64::MAX, 24);
    for &(placement, reply, _) in &TREES_5_START {
        let mut position = start;
        position.play(start.parse_move(placement).expect("a placement"));
        position.play(position.parse_move(reply).expect("a reply"));
        assert!(
            !prover.mover_wins(&position, &stop).expect("no budget"),
            "{placement} {reply}"
        );
    }
    // One entry solved again from an empty table, distance and reply.
    let &(placement, reply, plies) = TREES_5_START
        .iter()
        .find(|e| e.0 == "e7")
        .expect("e7 is a placement");
    let mut placed = start;
    placed.play(start.parse_move(placement).expect("a placement"));
    let solved = Prover::new(u64::MAX, 24)
        .solve(&placed, &stop)
        .expect("no budget");
    assert_eq!(solved.value, Value::Win(plies - 1));
    assert_eq!(
        solved.best.map(|m| placed.format_move(m)).as_deref(),
        Some(reply)
    );
}

/// A deadline ends a solve as `stop` does, and the prover answers again once it is
/// lifted.
#[test]
fn a_solve_past_its_deadline_gives_no_answer() {
    let config = Config { trees: 5 };
    let mut position = FrozenForest::start(&config);
    for mv in ["e5", "e7"] {
        position.play(position.parse_move(mv).expect("a placement"));
    }
    let stop = AtomicBool::new(false);
    let mut prover = Prover::new(u64::MAX, 16);
    prover.set_deadline(Some(std::time::Instant::now()));
    assert!(prover.solve(&position, &stop).is_err());
    prover.set_deadline(None);
    let mut small = FrozenForest::start(&Config { trees: 4 });
    for mv in ["d4", "f4"] {
        small.play(small.parse_move(mv).expect("a placement"));
    }
    assert_eq!(
        prover.solve(&small, &stop).map(|s| s.value),
        Ok(Value::Loss(24))
    );
}

/// On the clock, a small forest's position is played as the solver proves it: the
/// fastest win or the slowest loss, reported as a mate.
#[test]
fn on_the_clock_a_small_forest_is_played_by_the_solver() {
    use std::sync::Arc;
    use std::time::Duration;
    use tabuleiro::search::time::Budget;
    use tabuleiro::search::{Policy, Score, SearchLimits};

    let config = Config { trees: 4 };
    // The search returns as soon as the solver has proven the position: a long budget
    // costs nothing, and keeps a busy machine from turning the test into a search.
    let limits = SearchLimits {
        budget: Budget {
            soft: Some(Duration::from_secs(20)),
            hard: Some(Duration::from_secs(40)),
        },
        ..SearchLimits::default()
    };
    let mut policy: Policy<FrozenForest> = Policy::standard(4, &config);
    policy.prepare();
    let mut rng = Xorshift::new(0xc10c);
    let (mut wins, mut losses) = (0, 0);
    while wins < 4 || losses < 4 {
        let (position, _) = random_game(4, 6 + rng.below(6) as u32, &mut rng);
        if position.outcome().is_some() {
            continue;
        }
        let stop = AtomicBool::new(false);
        let solved = Prover::default()
            .solve(&position, &stop)
            .expect("no budget");
        let result = policy.search(
            &position,
            &[position.hash()],
            limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        assert_eq!(result.proven, Some(solved.value), "{position:?}");
        let best = result.best.expect("a move");
        // The solver's answer, not a search's: the move alone, no line.
        assert_eq!(result.pv, vec![best], "{position:?}");
        let mut next = position;
        next.play(best);
        let after = Prover::default().solve(&next, &stop).expect("no budget");
        // The fastest win leaves a loss one ply shorter; the slowest loss a win.
        match solved.value {
            Value::Win(plies) => {
                wins += 1;
                assert_eq!(result.score, Score::Mate(plies as i32));
                assert_eq!(after.value, Value::Loss(plies - 1), "{position:?}");
            }
            Value::Loss(plies) => {
                losses += 1;
                assert_eq!(result.score, Score::Mate(-(plies as i32)));
                assert_eq!(after.value, Value::Win(plies - 1), "{position:?}");
            }
            Value::Draw(_) => unreachable!("Frozen Forest has no draws"),
        }
    }
}
