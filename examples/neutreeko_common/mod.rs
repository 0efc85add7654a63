//! What the Neutreeko examples that judge by the table share: the table's value after a
//! move, and the random and sound positions they are measured on.

use tabuleiro::game::{Game, Outcome, Value, default_config};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::games::neutreeko::tablebase::Table;
use tabuleiro::rng::Xorshift;

/// Random games stop at a ply drawn from `1..=MAX_PLY`.
pub const MAX_PLY: u64 = 40;
/// In sound games, one ply in this many plays any random move.
pub const BLUNDER: u64 = 10;

/// The value of `position` for its side to move after `mv`, by the table.
pub fn value_after(table: &Table, position: &Neutreeko, mv: <Neutreeko as Game>::Move) -> Value {
    let mut child = *position;
    child.play(mv);
    match child.outcome() {
        Some(Outcome::Win(p)) if p == position.side_to_move() => Value::Win(1),
        Some(Outcome::Win(_)) => Value::Loss(1),
        Some(Outcome::Draw) => Value::Draw(1),
        None => match table.probe(&child).expect("a valid position") {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw(_) => Value::Draw(0),
        },
    }
}

/// Whether two values are both wins, both losses or both draws.
pub fn same_kind(a: Value, b: Value) -> bool {
    matches!(
        (a, b),
        (Value::Win(_), Value::Win(_))
            | (Value::Loss(_), Value::Loss(_))
            | (Value::Draw(_), Value::Draw(_))
    )
}

/// Random reachable positions that are not over. With `table`, the games are *sound*:
/// each ply plays a random move that keeps the value (by the table), except one ply in
/// `BLUNDER` that plays any random move; without it every move is random.
pub fn random_positions(count: usize, seed: u64, table: Option<&Table>) -> Vec<Neutreeko> {
    let mut random = Xorshift::new(seed);
    let start = Neutreeko::start(&default_config::<Neutreeko>());
    let mut positions = Vec::with_capacity(count);
    let mut moves = Vec::new();
    while positions.len() < count {
        let plies = 1 + random.below(MAX_PLY);
        let mut position = start;
        let mut over = false;
        for _ in 0..plies {
            moves.clear();
            position.generate_moves(&mut moves);
            if moves.is_empty() {
                over = true;
                break;
            }
            if let Some(table) = table
                && random.below(BLUNDER) != 0
            {
                let value = table.probe(&position).expect("a valid position");
                let before = moves.clone();
                moves.retain(|&mv| same_kind(value, value_after(table, &position, mv)));
                if moves.is_empty() {
                    moves = before;
                }
            }
            position.play(moves[random.index(moves.len())]);
        }
        if !over && position.outcome().is_none() {
            positions.push(position);
        }
    }
    positions
}
