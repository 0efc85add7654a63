//! Talpa's exact solver (`src/games/talpa/solve.rs`) against a second method: a plain
//! minimax over the naive rules of `tests/common/naive/talpa.rs` (grids of cells, moves
//! as text, paths by breadth-first search; nothing shared with the engine but the FEN
//! text), with a memo of solved positions and nothing else: no pruning, no symmetry.

#[path = "common/naive.rs"]
mod naive;

use std::sync::atomic::AtomicBool;

use naive::Memo;
use naive::talpa::Naive;
use tabuleiro::game::{Game, Outcome, Player, Value};
use tabuleiro::games::talpa::Talpa;
use tabuleiro::games::talpa::solve::Solver;
use tabuleiro::options::config_from_pairs;
use tabuleiro::rng::Xorshift;

fn config(size: usize) -> <Talpa as Game>::Config {
    config_from_pairs::<Talpa>(&[("Size", size.to_string())]).expect("even size")
}

/// Checks the solver's value of `state` against minimax, and that its principal
/// variation is legal and ends the game as the value says.
fn check(solver: &mut Solver, memo: &mut Memo, state: &Talpa) -> Value {
    let expected = naive::minimax(&Naive::from_fen(&state.fen()), memo);
    let never = AtomicBool::new(false);
    let solved = solver.solve_line(state, &never).expect("not stopped");
    assert_eq!(solved.value, expected, "{}", state.fen());
    assert_eq!(solved.pv.len() as u32, expected.plies(), "{}", state.fen());
    let mut position = *state;
    for &mv in &solved.pv {
        let text = position.format_move(mv);
        position
            .legal_move(&text)
            .unwrap_or_else(|e| panic!("pv of {}: {e}", state.fen()));
        position.play(mv);
    }
    let mover = state.side_to_move();
    let winner = match expected {
        Value::Win(_) => mover,
        _ => mover.other(),
    };
    assert_eq!(
        position.outcome(),
        Some(Outcome::Win(winner)),
        "{}",
        state.fen()
    );
    expected
}

#[test]
fn the_4x4_start_is_a_red_win_in_11_plies_by_both_methods() {
    let start = Talpa::start(&config(4));
    let mut solver = Solver::new(4, 16).unwrap();
    let mut memo = Memo::new();
    assert_eq!(check(&mut solver, &mut memo, &start), Value::Win(11));
    // Every first move too, with the solver's per-move values.
    let never = AtomicBool::new(false);
    let values = solver.move_values(&start, &never).unwrap();
    assert_eq!(values.len(), 24);
    for (mv, value) in values {
        let mut child = start;
        child.play(mv);
        let naive = naive::minimax(&Naive::from_fen(&child.fen()), &mut memo);
        let parent = match naive {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw(n) => Value::Draw(n + 1),
        };
        assert_eq!(value, parent, "{}", start.format_move(mv));
    }
}

/// Positions reached by random play from the start, each solved by a fresh solver and
/// by one that keeps its table from the earlier positions.
fn random_positions(size: usize, plies: std::ops::Range<usize>, count: usize, seed: u64) {
    let mut rng = Xorshift::new(seed);
    let mut shared = Solver::new(size, 18).unwrap();
    let mut memo = Memo::new();
    let (mut wins, mut losses) = (0, 0);
    let mut checked = 0;
    while checked < count {
        let mut state = Talpa::start(&config(size));
        let target = plies.start + rng.index(plies.len());
        let mut moves = Vec::new();
        while state.plies() < target as u32 && state.outcome().is_none() {
            moves.clear();
            state.generate_moves(&mut moves);
            state.play(moves[rng.index(moves.len())]);
        }
        let value = check(&mut shared, &mut memo, &state);
        let mut fresh = Solver::new(size, 12).unwrap();
        assert_eq!(check(&mut fresh, &mut memo, &state), value);
        match value {
            Value::Win(_) => wins += 1,
            _ => losses += 1,
        }
        checked += 1;
    }
    // Both kinds of value were met.
    assert!(wins > 0 && losses > 0, "{wins} wins, {losses} losses");
}

#[test]
fn random_4x4_positions_agree_with_minimax() {
    random_positions(4, 1..12, 200, 21);
}

#[test]
fn late_random_6x6_positions_agree_with_minimax() {
    random_positions(6, 18..26, 30, 6);
}

#[test]
fn blue_to_move_and_finished_positions() {
    let mut solver = Solver::new(4, 12).unwrap();
    let mut memo = Memo::new();
    let c = config(4);
    // Blue to move (the key transposes it); a finished position (red's file b is open).
    for fen in ["rbrb/b1br/rbrb/brbr b 1", "r1rb/b1br/r1rb/b1br b 4"] {
        let state = Talpa::from_fen(&c, fen).unwrap();
        check(&mut solver, &mut memo, &state);
    }
    let over = Talpa::from_fen(&c, "r1rb/b1br/r1rb/b1br b 4").unwrap();
    assert_eq!(over.outcome(), Some(Outcome::Win(Player::P1)));
}

/// The proof-number search (win or loss only) agrees with the solver on the 4×4 start
/// and each position after a first move; a filter that keeps no move proves nothing.
#[test]
fn proof_numbers_agree_with_the_solver() {
    let start = Talpa::start(&config(4));
    let never = AtomicBool::new(false);
    let mut solver = Solver::new(4, 16).unwrap();
    let mut proofs = Solver::new(4, 16).unwrap();
    let mut moves = Vec::new();
    start.generate_moves(&mut moves);
    for state in std::iter::once(start).chain(moves.iter().map(|&mv| {
        let mut child = start;
        child.play(mv);
        child
    })) {
        let value = solver.value(&state, &never).unwrap();
        let (wins, _) = proofs.prove_by(&state, &never, None).unwrap();
        assert_eq!(wins, matches!(value, Value::Win(_)), "{}", state.fen());
    }
    let none = |_: &_, _: &_| false;
    let (wins, _) = proofs.prove_by(&start, &never, Some(&none)).unwrap();
    assert!(!wins);
}

#[test]
fn larger_boards_are_refused() {
    assert!(Solver::new(8, 12).is_ok());
    assert!(Solver::new(10, 12).is_err());
    assert!(Solver::new(5, 12).is_err());
}

/// The position of a line of the 8×8 horizon set (`tests/data/talpa_horizon.jsonl`)
/// before its game move, and after it.
fn horizon_position(line: &str) -> (Talpa, Talpa, serde_json::Value) {
    let record: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
    let mut state = Talpa::start(&config(8));
    for mv in record["moves"].as_array().expect("moves") {
        let mv = state.legal_move(mv.as_str().expect("text")).expect("legal");
        state.play(mv);
    }
    let mut after = state;
    let bad = after
        .legal_move(record["bad"][0].as_str().expect("text"))
        .expect("legal");
    after.play(bad);
    (state, after, record)
}

/// On 8×8 the dedicated solver agrees with the generic proving search (`go solve`,
/// whose results the horizon set records: "win plies N" for the side to move) on
/// positions of the set it proves quickly: the value and its distance, and the winner
/// by its one null-window search and by proof numbers.
#[test]
fn the_8x8_horizon_set_agrees_with_the_generic_proofs() {
    let text = std::fs::read_to_string("tests/data/talpa_horizon.jsonl").expect("the set");
    let lines: Vec<&str> = text.lines().collect();
    let never = AtomicBool::new(false);
    let mut solver = Solver::new(8, 20).unwrap();
    // (line, after the game move or before it): each proven in under 110,000 nodes.
    for (index, after_move) in [
        (9, true),
        (9, false),
        (10, true),
        (17, true),
        (17, false),
        (39, true),
    ] {
        let (before, after, record) = horizon_position(lines[index]);
        let (state, recorded) = if after_move {
            (after, &record["after"])
        } else {
            (before, &record["before"])
        };
        let recorded = recorded.as_str().expect("a proof");
        let plies: u32 = recorded
            .strip_prefix("win plies ")
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("line {index}: {recorded}"));
        solver.clear();
        assert_eq!(
            solver.value(&state, &never).unwrap(),
            Value::Win(plies),
            "line {index}"
        );
        solver.clear();
        assert!(solver.wins(&state, &never).unwrap(), "line {index}");
        solver.clear();
        assert!(
            solver.prove_by(&state, &never, None).unwrap().0,
            "line {index}"
        );
    }
}

/// On the clock, every 4×4 position the solver proves is played as it proves it: the
/// value, the fastest win or slowest loss, the move alone as the line.
#[test]
fn on_the_clock_4x4_is_played_by_the_solver() {
    use std::sync::Arc;
    use std::time::Duration;
    use tabuleiro::search::time::Budget;
    use tabuleiro::search::{Policy, SearchLimits};

    // The search returns as soon as the solver has proven the position: a long budget
    // costs nothing, and keeps a busy machine from turning the test into a search.
    let limits = SearchLimits {
        budget: Budget {
            soft: Some(Duration::from_secs(20)),
            hard: Some(Duration::from_secs(40)),
        },
        ..SearchLimits::default()
    };
    let mut policy: Policy<Talpa> = Policy::standard(4, &config(4));
    policy.prepare();
    let mut solver = Solver::new(4, 16).expect("4x4");
    let stop = AtomicBool::new(false);
    let mut rng = Xorshift::new(0x7a1);
    let mut seen = [0; 2];
    while seen[0] < 4 || seen[1] < 4 {
        let mut state = Talpa::start(&config(4));
        for _ in 0..rng.below(6) {
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            if state.outcome().is_some() || moves.is_empty() {
                break;
            }
            state.play(moves[rng.below(moves.len() as u64) as usize]);
        }
        if state.outcome().is_some() {
            continue;
        }
        let solved = solver.solve(&state, &stop).expect("not stopped");
        let result = policy.search(
            &state,
            &[state.hash()],
            limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        assert_eq!(result.proven, Some(solved.value), "{}", state.fen());
        let best = result.best.expect("a move");
        assert_eq!(result.pv, vec![best], "{}", state.fen());
        let mut next = state;
        next.play(best);
        let after = match next.outcome() {
            Some(Outcome::Win(winner)) if winner == next.side_to_move() => Value::Win(0),
            Some(_) => Value::Loss(0),
            None => solver.solve(&next, &stop).expect("not stopped").value,
        };
        match solved.value {
            Value::Win(plies) => {
                seen[0] += 1;
                assert_eq!(after, Value::Loss(plies - 1), "{}", state.fen());
            }
            Value::Loss(plies) => {
                seen[1] += 1;
                assert_eq!(after, Value::Win(plies - 1), "{}", state.fen());
            }
            Value::Draw(_) => unreachable!("Talpa has no draws"),
        }
    }
}
