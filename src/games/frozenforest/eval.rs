//! Frozen Forest evaluation, for both roles.
//!
//! Everything is first scored from Yuki's side and then given the sign of the side to
//! move. Yuki wants many trees he can step to from which Mina stays visible (his
//! mobility), food around him for later, and a short distance to Mina; Mina wants
//! many hidden destinations (her mobility) and to keep Yuki's reachable trees few.
//! The weights live in [`Weights`] so that variants can be played against each other
//! (see `examples/frozenforest_match.rs`); [`Weights::DEFAULT`] is the one that won.
//!
//! [`seed_heuristic`] is the reference opponent's evaluation from the issue
//! (100·reachable trees + 50·trees around − 10·distance − opponent's move count),
//! kept here so that the benchmark harness and the tests use one definition.

use super::sight::{Cells, bit, tables};
use super::{FrozenForest, Move, Phase};
use crate::game::{Game, Player};

/// Weights of the evaluation terms, all from Yuki's point of view.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Weights {
    /// Per tree Yuki can step to now (Mina visible from it).
    pub yuki_moves: i32,
    /// Per hidden destination Mina has against Yuki's current cell (subtracted).
    pub mina_moves: i32,
    /// Per tree next to Yuki.
    pub trees_around: i32,
    /// Per king step between them (subtracted).
    pub distance: i32,
    /// Per tree two steps out that Yuki could still reach through a legal step now
    /// (his reach one turn later, ignoring Mina's reply).
    pub yuki_reach2: i32,
}

impl Weights {
    /// The weights in use.
    pub const DEFAULT: Weights = Weights {
        yuki_moves: 40,
        mina_moves: 12,
        trees_around: 10,
        distance: 4,
        yuki_reach2: 0,
    };

    /// The seed's heuristic as weights (without the reach term).
    pub const SEED: Weights = Weights {
        yuki_moves: 100,
        mina_moves: 1,
        trees_around: 50,
        distance: 10,
        yuki_reach2: 0,
    };
}

/// The evaluation with the given weights, from the side to move's point of view.
pub fn evaluate_with(position: &FrozenForest, w: &Weights) -> i32 {
    let (Some(yuki), Some(mina)) = (position.yuki(), position.mina()) else {
        // The two placement plies: nothing to weigh yet; the search looks ahead.
        return 0;
    };
    let t = tables();
    let trees = position.trees();
    let steps = position.yuki_steps(yuki, mina);
    let slides = position.mina_slides(yuki, mina);
    let mut score = w.yuki_moves * steps.count_ones() as i32
        - w.mina_moves * slides.count_ones() as i32
        + w.trees_around * (t.king[yuki] & trees).count_ones() as i32
        - w.distance * i32::from(t.distance[yuki][mina]);
    if w.yuki_reach2 != 0 {
        let mut reach = 0u128;
        for step in Cells(steps) {
            reach |= t.king[step];
        }
        reach &= trees & !steps & !bit(yuki);
        score += w.yuki_reach2 * reach.count_ones() as i32;
    }
    match position.side_to_move() {
        Player::P1 => score,
        Player::P2 => -score,
    }
}

/// The evaluation in use.
pub fn evaluate(position: &FrozenForest) -> i32 {
    evaluate_with(position, &Weights::DEFAULT)
}

/// The seed's heuristic, from the side to move's point of view:
/// 100·reachable trees + 50·trees around − 10·distance − opponent's move count, all
/// measured for Yuki (reachable trees: his legal steps; trees around: trees next to
/// him; distance: king steps to Mina; the opponent's move count: Mina's hidden
/// destinations), negated when Mina is to move.
pub fn seed_heuristic(position: &FrozenForest) -> i32 {
    evaluate_with(position, &Weights::SEED)
}

/// Move ordering: for Yuki, steps with food around and close to Mina; for Mina,
/// destinations that leave Yuki the fewest steps; placements: no preference.
pub fn order_hint(position: &FrozenForest, mv: Move) -> i32 {
    let to = mv.0 as usize;
    let (Some(yuki), Some(mina)) = (position.yuki(), position.mina()) else {
        return 0;
    };
    let t = tables();
    match (position.phase(), position.side_to_move()) {
        (Phase::Play, Player::P1) => {
            let food = (t.king[to] & position.trees() & !bit(to)).count_ones() as i32;
            4 * food - i32::from(t.distance[to][mina])
        }
        (Phase::Play, Player::P2) => {
            -(position.yuki_steps(yuki, to).count_ones() as i32) * 8
                + i32::from(t.distance[yuki][to])
        }
        _ => 0,
    }
}
