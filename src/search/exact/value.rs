//! The one value-and-distance type of the engine ([`Value`]) and its arithmetic: one
//! ply up or down the tree, to and from the integer scores that alpha-beta compares
//! (`WIN − plies` for a win, `plies − WIN` for a loss, 0 for a draw), and between
//! scores counted from the root and scores counted from the position itself (what a
//! table stores, so an entry holds wherever the position is met).

use crate::game::{Outcome, Player};

/// The score of a win at ply 0 in the exact solvers: a win in `p` plies scores
/// `WIN − p`, a loss in `p` plies `p − WIN`. Above the length of any game they solve.
pub const WIN: i32 = 1000;
/// Beyond every score of [`WIN`]'s scale: the open end of a window or a bound.
pub const INF: i32 = WIN + 1;

/// The proven value of a position for the side to move, with the number of plies to
/// the end of the game under best play (fastest win, slowest loss).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Value {
    Win(u32),
    Loss(u32),
    /// A draw, reached after the given number of plies (0 where that is not known,
    /// such as a draw by endless play).
    Draw(u32),
}

impl Value {
    /// The value of a finished game for `side`: its end, 0 plies away.
    pub fn of_outcome(outcome: Outcome, side: Player) -> Value {
        match outcome {
            Outcome::Draw => Value::Draw(0),
            Outcome::Win(p) if p == side => Value::Win(0),
            Outcome::Win(_) => Value::Loss(0),
        }
    }

    /// The protocol words of `info string solved …`: `win`, `loss` or `draw`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win(_) => "win",
            Value::Loss(_) => "loss",
            Value::Draw(_) => "draw",
        }
    }

    pub fn plies(self) -> u32 {
        match self {
            Value::Win(n) | Value::Loss(n) | Value::Draw(n) => n,
        }
    }

    /// The value one ply up, for the side that moved into a position of this value:
    /// the winner and loser swap, one ply further from the end. A draw of unknown
    /// distance (`Draw(0)`) stays one.
    pub fn parent(self) -> Value {
        match self {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw(0) => Value::Draw(0),
            Value::Draw(n) => Value::Draw(n + 1),
        }
    }

    /// The value a child must have for its parent to have this one (the inverse of
    /// [`Value::parent`]); `None` for a finished game or a draw of unknown distance.
    pub fn child(self) -> Option<Value> {
        match self {
            Value::Win(n) if n > 0 => Some(Value::Loss(n - 1)),
            Value::Loss(n) if n > 0 => Some(Value::Win(n - 1)),
            Value::Draw(n) if n > 1 => Some(Value::Draw(n - 1)),
            _ => None,
        }
    }

    /// The score on [`WIN`]'s scale.
    pub fn score(self) -> i32 {
        self.score_on(WIN)
    }

    /// The score on the scale of `win` (a win at ply 0).
    pub fn score_on(self, win: i32) -> i32 {
        match self {
            Value::Win(n) => win - n as i32,
            Value::Loss(n) => n as i32 - win,
            Value::Draw(_) => 0,
        }
    }

    /// The value of a score on [`WIN`]'s scale (a draw's distance is not in it: 0).
    pub fn of_score(score: i32) -> Value {
        Value::of_score_on(score, WIN)
    }

    /// The value of a score on the scale of `win`.
    pub fn of_score_on(score: i32, win: i32) -> Value {
        match score {
            s if s > 0 => Value::Win((win - s) as u32),
            s if s < 0 => Value::Loss((win + s) as u32),
            _ => Value::Draw(0),
        }
    }
}

/// A score counted from the root, met `ply` plies below it, as a score counted from
/// its own position (a win there is `ply` plies nearer). Draws and the open ends at
/// and beyond `±INF` stay.
pub fn to_relative(score: i32, ply: i32) -> i32 {
    match score {
        s if s.abs() >= INF || s == 0 => s,
        s if s > 0 => s + ply,
        s => s - ply,
    }
}

/// The inverse of [`to_relative`]: a score counted from a position `ply` plies below
/// the root, counted from the root.
pub fn from_relative(score: i32, ply: i32) -> i32 {
    match score {
        s if s.abs() >= INF || s == 0 => s,
        s if s > 0 => s - ply,
        s => s + ply,
    }
}

/// The parent's score (relative to each position) when its move leads to a child of
/// `score`: negated, one ply further from the end. Draws stay 0.
pub fn parent_score(score: i32) -> i32 {
    match score {
        s if s > 0 => 1 - s,
        s if s < 0 => -s - 1,
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_arithmetic_round_trips() {
        for value in [
            Value::Win(1),
            Value::Win(37),
            Value::Loss(0),
            Value::Loss(12),
            Value::Draw(0),
        ] {
            assert_eq!(Value::of_score(value.score()), value);
            assert_eq!(Value::of_score_on(value.score_on(100), 100), value);
            if value != Value::Draw(0) {
                assert_eq!(value.parent().child(), Some(value));
            }
            assert_eq!(parent_score(value.score()), value.parent().score());
            for ply in [0, 1, 9] {
                // A score counted from a node `ply` deep, and back.
                let from_root = from_relative(value.score(), ply);
                assert_eq!(to_relative(from_root, ply), value.score());
            }
        }
        assert_eq!(Value::Win(3).parent(), Value::Loss(4));
        assert_eq!(Value::Draw(4).parent(), Value::Draw(5));
        assert_eq!(Value::Win(0).child(), None);
        // A win 5 plies from a node 2 plies deep is a win 7 plies from the root.
        assert_eq!(to_relative(WIN - 7, 2), WIN - 5);
        assert_eq!(to_relative(-INF, 3), -INF);
    }
}
