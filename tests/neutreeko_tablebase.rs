//! The Neutreeko tablebase: values checked against an independent alpha-beta search,
//! the whole table checked position by position against the rules, pinned counts, and
//! table-driven play against the engine's search.
//!
//! The table is built once for the whole file (a fraction of a second). The check of
//! every position takes some seconds in the default test profile. The searchers here
//! have an oracle of their own that is never prepared, so they play without a table.

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use tabuleiro::game::{Game, Outcome, Player, Record, Value, default_config};
use tabuleiro::games::neutreeko::tablebase::Table;
use tabuleiro::games::neutreeko::{Move, Neutreeko, is_three_in_a_row};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::exact::Counts;
use tabuleiro::search::{Policy, SearchLimits};

fn table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table::build(2).expect("the table builds"))
}

fn start() -> Neutreeko {
    Neutreeko::start(&default_config::<Neutreeko>())
}

fn moves_of(state: &Neutreeko) -> Vec<Move> {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves
}

fn after(state: &Neutreeko, mv: Move) -> Neutreeko {
    let mut child = *state;
    child.play(mv);
    child
}

// ---------------------------------------------------------------------------------
// An independent search: plain negamax with alpha-beta, no table, no hashing.

const WIN: i32 = 1000;

/// Negamax to `depth` plies: `WIN - plies` for a forced win within the horizon,
/// `-(WIN - plies)` for a forced loss, 0 when the horizon hides the end.
fn negamax(state: &Neutreeko, depth: u32, ply: i32, mut alpha: i32, beta: i32) -> i32 {
    if let Some(outcome) = state.outcome() {
        return match outcome {
            Outcome::Win(p) if p == state.side_to_move() => WIN - ply,
            Outcome::Win(_) => -(WIN - ply),
            Outcome::Draw => 0,
        };
    }
    if depth == 0 {
        return 0;
    }
    let mut best = -WIN - 1;
    for mv in moves_of(state) {
        let score = -negamax(&after(state, mv), depth - 1, ply + 1, -beta, -alpha);
        best = best.max(score);
        alpha = alpha.max(score);
        if alpha >= beta {
            break;
        }
    }
    best
}

/// The value the search proves within `depth` plies, if it proves one.
fn search_value(state: &Neutreeko, depth: u32) -> Option<Value> {
    let score = negamax(state, depth, 0, -WIN - 1, WIN + 1);
    match score {
        s if s > 0 => Some(Value::Win((WIN - s) as u32)),
        s if s < 0 => Some(Value::Loss((WIN + s) as u32)),
        _ => None,
    }
}

/// The table and the search agree: the search proves exactly the values within its
/// horizon, and proves nothing else.
fn assert_agrees(state: &Neutreeko, depth: u32) {
    let tabled = table().probe(state).expect("a valid position");
    let searched = search_value(state, depth);
    let expected = match tabled {
        Value::Win(n) | Value::Loss(n) if n <= depth => Some(tabled),
        _ => None,
    };
    assert_eq!(
        searched,
        expected,
        "{}: table {tabled:?}, search to depth {depth} {searched:?}",
        state.fen()
    );
}

#[test]
fn start_position_is_a_draw() {
    assert_eq!(table().probe(&start()), Some(Value::Draw(0)));
}

#[test]
fn first_moves_agree_with_an_independent_search() {
    let start = start();
    let moves = moves_of(&start);
    assert_eq!(moves.len(), 14);
    let mut values = Vec::new();
    for mv in moves {
        let child = after(&start, mv);
        // Depth 7 proves the losses in 2, 4 and 6 and must prove nothing else.
        assert_agrees(&child, 7);
        // The value for black, who made the move.
        let value = table().probe(&child).expect("valid").parent();
        values.push((start.format_move(mv), value));
    }
    // The values for black, pinned: two moves keep the draw, all others lose.
    let expected: Vec<(&str, Value)> = vec![
        ("b1c1", Value::Draw(0)),
        ("b1a1", Value::Loss(6)),
        ("b1b4", Value::Loss(22)),
        ("b1a2", Value::Loss(10)),
        ("d1e1", Value::Loss(6)),
        ("d1c1", Value::Draw(0)),
        ("d1d4", Value::Loss(22)),
        ("d1e2", Value::Loss(10)),
        ("c4e4", Value::Loss(2)),
        ("c4a4", Value::Loss(2)),
        ("c4c5", Value::Loss(4)),
        ("c4c3", Value::Loss(4)),
        ("c4e2", Value::Loss(2)),
        ("c4a2", Value::Loss(2)),
    ];
    let expected: Vec<(String, Value)> = expected
        .into_iter()
        .map(|(mv, v)| (mv.to_string(), v))
        .collect();
    assert_eq!(values, expected);
}

/// A random placement of three pieces each, black or white to move, where the game
/// is not over.
fn random_position(rng: &mut Xorshift) -> Neutreeko {
    loop {
        let mut taken = 0u32;
        let mut sets = [0u32; 2];
        for set in &mut sets {
            while set.count_ones() < 3 {
                let square = rng.index(25);
                if taken & (1 << square) == 0 {
                    taken |= 1 << square;
                    *set |= 1 << square;
                }
            }
        }
        let side = if rng.index(2) == 0 {
            Player::P1
        } else {
            Player::P2
        };
        let position = Neutreeko::from_parts(sets[0], sets[1], side, 0);
        if position.outcome().is_none() {
            return position;
        }
    }
}

#[test]
fn random_positions_agree_with_an_independent_search() {
    let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
    let mut proven = 0;
    for _ in 0..400 {
        let position = random_position(&mut rng);
        assert_agrees(&position, 5);
        if search_value(&position, 5).is_some() {
            proven += 1;
        }
    }
    // Most random positions are short wins: the check must have bitten often.
    assert!(proven > 200, "only {proven} of 400 positions proven");
}

/// Every placement (black to move, as the table serves both colours), with the rules
/// applied by the game's own move generator.
#[test]
fn every_position_is_consistent_with_its_moves() {
    let table = table();
    let mut counts = Counts::default();
    let mut moves = Vec::new();
    let sets: Vec<u32> = (0u32..1 << 25).filter(|b| b.count_ones() == 3).collect();
    assert_eq!(sets.len(), 2300);
    for &mover in &sets {
        for &opponent in &sets {
            if mover & opponent != 0 {
                continue;
            }
            let position = Neutreeko::from_parts(mover, opponent, Player::P1, 0);
            let value = table.probe(&position).expect("valid");
            if is_three_in_a_row(mover) {
                // Not reachable; the rules give it to whoever just moved.
                let expected = if is_three_in_a_row(opponent) {
                    Value::Loss(0)
                } else {
                    Value::Win(0)
                };
                assert_eq!(value, expected);
                continue;
            }
            moves.clear();
            position.generate_moves(&mut moves);
            let expected = if is_three_in_a_row(opponent) || moves.is_empty() {
                Value::Loss(0)
            } else {
                let mut fastest_loss: Option<u32> = None;
                let mut slowest_win = 0;
                let mut all_wins = true;
                for &mv in &moves {
                    match table.probe(&after(&position, mv)).expect("valid") {
                        Value::Loss(n) => fastest_loss = Some(fastest_loss.map_or(n, |f| f.min(n))),
                        Value::Win(n) => slowest_win = slowest_win.max(n),
                        Value::Draw(_) => all_wins = false,
                    }
                }
                match fastest_loss {
                    // A win has a move to a loss one ply shorter, and none shorter.
                    Some(n) => Value::Win(n + 1),
                    // A loss has only moves to wins, the slowest one ply shorter.
                    None if all_wins => Value::Loss(slowest_win + 1),
                    // A draw has no move to a loss and, not being a loss, one to a draw.
                    None => Value::Draw(0),
                }
            };
            assert_eq!(value, expected, "{}", position.fen());
            counts.add(value, 1);
        }
    }
    assert_eq!(table.counts(), counts);
    // Pinned figures of the solved game.
    assert_eq!(
        counts,
        Counts {
            wins: 2_473_028,
            losses: 890_392,
            draws: 104_660,
            longest_win: 51,
            longest_loss: 50,
        }
    );
    assert_eq!(counts.total(), 2252 * 1540);
}

/// The table byte per position of an index does not depend on the thread count, and the
/// forward-pass solver finds the same table (slow: run by hand).
#[test]
#[ignore]
fn forward_passes_and_thread_counts_give_the_same_table() {
    let one = Table::build(1).expect("builds");
    assert_eq!(one.bytes(), table().bytes());
    let forward = Table::build_forward(2).expect("builds");
    assert_eq!(forward.bytes(), table().bytes());
}

#[test]
fn colours_are_symmetric() {
    // The same placement with colours swapped and the other side to move.
    let mut rng = Xorshift::new(77);
    for _ in 0..200 {
        let p = random_position(&mut rng);
        let swapped = Neutreeko::from_parts(
            p.pieces(Player::P2),
            p.pieces(Player::P1),
            p.side_to_move().other(),
            0,
        );
        assert_eq!(table().probe(&p), table().probe(&swapped));
    }
}

// ---------------------------------------------------------------------------------
// Play.

/// Plays `record` to its end: the table on `table_side`, the search at `depth` on the
/// other side. Returns the outcome (a draw after 300 plies).
fn play_out(record: &mut Record<Neutreeko>, table_side: Player, depth: u32) -> Outcome {
    play_plies(record, table_side, depth, 300);
    record.outcome().unwrap_or(Outcome::Draw)
}

/// Plays up to `plies` plies of `record` (as [`play_out`]).
fn play_plies(record: &mut Record<Neutreeko>, table_side: Player, depth: u32, plies: usize) {
    let mut searcher = Policy::<Neutreeko>::standard(4, &());
    let stop = Arc::new(AtomicBool::new(false));
    for _ in 0..plies {
        if record.outcome().is_some() {
            return;
        }
        let state = *record.state();
        let mv = if state.side_to_move() == table_side {
            let choice = table()
                .choose(&state, record.history())
                .expect("a move while the game goes on");
            assert_eq!(choice.pv.first(), Some(&choice.best));
            choice.best
        } else {
            let limits = SearchLimits {
                depth: Some(depth),
                ..SearchLimits::default()
            };
            searcher
                .search(
                    &state,
                    record.history(),
                    limits,
                    Arc::clone(&stop),
                    &mut |_| {},
                )
                .best
                .expect("a move while the game goes on")
        };
        record.play(mv);
    }
}

#[test]
fn table_play_never_loses_against_the_search() {
    let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let mut wins = 0;
    for game in 0..16 {
        // From a random position, or from a few random moves after the start.
        let position = if game % 2 == 0 {
            random_position(&mut rng)
        } else {
            let mut state = start();
            for _ in 0..rng.index(6) {
                let moves = moves_of(&state);
                state.play(moves[rng.index(moves.len())]);
            }
            if state.outcome().is_some() {
                continue;
            }
            state
        };
        let table_side = if rng.index(2) == 0 {
            Player::P1
        } else {
            Player::P2
        };
        let mut record = Record::new(position);
        if position.side_to_move() != table_side {
            // The search moves first.
            play_plies(&mut record, table_side, 4, 1);
        }
        if record.outcome().is_some() {
            continue;
        }
        // The value for the table's side when it first moves.
        let value = table().probe(record.state()).expect("valid");
        let outcome = play_out(&mut record, table_side, 4);
        if !matches!(value, Value::Loss(_)) {
            assert_ne!(
                outcome,
                Outcome::Win(table_side.other()),
                "the table lost from {} ({value:?}): {:?}",
                position.fen(),
                record.moves()
            );
        }
        if let Value::Win(n) = value {
            assert_eq!(outcome, Outcome::Win(table_side), "from {}", position.fen());
            let n = n + (position.side_to_move() != table_side) as u32;
            // The fastest win, no repetition: n plies at most (fewer if the search
            // does not lose as slowly as it could).
            assert!(record.moves().len() as u32 <= n, "from {}", position.fen());
        }
        if outcome == Outcome::Win(table_side) {
            wins += 1;
        }
    }
    assert!(wins > 0, "the table never won");
}

#[test]
fn a_winning_side_never_repeats_and_a_losing_side_takes_a_threefold_draw() {
    let table = table();
    // White to move wins in 21 after black's b1b4.
    let mut state = start();
    state.play(state.parse_move("b1b4").expect("syntax"));
    assert_eq!(table.probe(&state), Some(Value::Win(21)));
    let plain = table.choose(&state, &[state.hash()]).expect("a move");
    assert_eq!(plain.value, Value::Win(21));
    assert_eq!(plain.pv.len(), 21);

    // A won position with two winning moves: the fastest is avoided when its position
    // has occurred before (the winner never repeats), the other taken instead.
    let mut rng = Xorshift::new(11);
    let (state, fastest, other) = loop {
        let p = random_position(&mut rng);
        if !matches!(table.probe(&p), Some(Value::Win(n)) if n >= 5) {
            continue;
        }
        let winning: Vec<Move> = moves_of(&p)
            .into_iter()
            .filter(|&mv| matches!(table.probe(&after(&p, mv)), Some(Value::Loss(_))))
            .collect();
        if winning.len() >= 2 {
            let best = table.choose(&p, &[p.hash()]).expect("a move").best;
            let other: Vec<Move> = winning.into_iter().filter(|&m| m != best).collect();
            break (p, best, other);
        }
    };
    let history = [after(&state, fastest).hash(), state.hash()];
    let choice = table.choose(&state, &history).expect("a move");
    assert_ne!(choice.best, fastest);
    assert!(other.contains(&choice.best));
    assert!(matches!(choice.value, Value::Win(_)), "{:?}", choice.value);

    // The losing side: white to move in a lost position prefers a move to a position
    // that occurred twice (a draw by threefold repetition) to any loss.
    let mut rng = Xorshift::new(5);
    let lost = loop {
        let p = random_position(&mut rng);
        if matches!(table.probe(&p), Some(Value::Loss(n)) if n >= 4) {
            break p;
        }
    };
    let moves = moves_of(&lost);
    let target = after(&lost, moves[moves.len() - 1]);
    let history = [target.hash(), target.hash(), lost.hash()];
    let choice = table.choose(&lost, &history).expect("a move");
    assert_eq!(choice.best, moves[moves.len() - 1]);
    assert!(matches!(choice.value, Value::Draw(_)));
    assert_eq!(choice.note.as_deref(), Some("tablebase draw"));
}

#[test]
fn drawn_positions_keep_the_draw_and_set_traps() {
    let table = table();
    let start = start();
    let choice = table.choose(&start, &[start.hash()]).expect("a move");
    assert_eq!(choice.value, Value::Draw(0));
    assert!(["b1c1", "d1c1"].contains(&start.format_move(choice.best).as_str()));
    // Traps: in drawn positions the move chosen (to a new position) leaves the opponent
    // the most replies that lose, among the moves that keep the draw.
    let losing_replies = |child: &Neutreeko| {
        moves_of(child)
            .into_iter()
            .filter(|&r| matches!(table.probe(&after(child, r)), Some(Value::Win(_))))
            .count()
    };
    let mut rng = Xorshift::new(99);
    let mut checked = 0;
    while checked < 30 {
        let p = random_position(&mut rng);
        if table.probe(&p) != Some(Value::Draw(0)) {
            continue;
        }
        checked += 1;
        let choice = table.choose(&p, &[p.hash()]).expect("a move");
        let most = moves_of(&p)
            .into_iter()
            .map(|mv| after(&p, mv))
            .filter(|c| matches!(table.probe(c), Some(Value::Draw(_))))
            .map(|c| losing_replies(&c))
            .max()
            .expect("a draw has a move that keeps it");
        assert_eq!(losing_replies(&after(&p, choice.best)), most, "{}", p.fen());
    }
    // Along a game of table against table, every move keeps the draw.
    let mut record = Record::new(start);
    while record.outcome().is_none() && record.moves().len() < 200 {
        let state = *record.state();
        let choice = table.choose(&state, record.history()).expect("a move");
        assert!(matches!(choice.value, Value::Draw(_)), "{:?}", choice.value);
        let child = after(&state, choice.best);
        assert!(
            matches!(table.probe(&child), Some(Value::Draw(_))),
            "{} does not keep the draw",
            state.format_move(choice.best)
        );
        record.play(choice.best);
    }
    assert_eq!(record.outcome(), Some(Outcome::Draw), "ends by repetition");
}
