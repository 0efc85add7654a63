//! Talpa evaluation: the race between the two paths.
//!
//! - *Separation*: for each side, the fewest pieces still standing between its two
//!   edges: a shortest path where empty squares cost 0 and pieces cost 1 (or, with
//!   `enemy_cost` 2, the opponent's pieces cost 2: only the opponent can take them off
//!   the board for good). Computed on bitboards, one flood fill per cost layer
//!   ([`separation`]). The side closer to its path is better off, but only as long as
//!   its own moves do not open the opponent's path first.
//! - *Material*: each own piece is a removal the side can still make; in the removal
//!   phase the side that runs out of harmless removals first must open a path.
//! - *Tempo*: in the removal phase, the side to move is the one that must spend a
//!   removal now.

use super::{Geometry, Move, Talpa};
use crate::game::{Game, Player};

/// Weights of the evaluation terms (tunable; compared by playing games).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EvalParams {
    /// Cost of crossing an enemy piece in the separation (own pieces cost 1).
    pub enemy_cost: u32,
    /// Score per unit of separation difference.
    pub separation: i32,
    /// Score per piece of material difference.
    pub material: i32,
    /// Score for the side to move in the removal phase (negative: a burden).
    pub tempo: i32,
}

impl EvalParams {
    pub const DEFAULT: EvalParams = EvalParams {
        enemy_cost: 1,
        separation: 100,
        material: 10,
        tempo: 0,
    };
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams::DEFAULT
    }
}

/// The fewest pieces `player` needs gone to have a path, where crossing one of
/// `player`'s own pieces costs 1 and an enemy piece `enemy_cost` (1 or 2). 0 means
/// the path exists.
pub fn separation(position: &Talpa, player: Player, enemy_cost: u32) -> u32 {
    let g: &Geometry = position.geometry();
    let empty = position.empty();
    let own = position.pieces(player);
    let enemy = position.pieces(player.other());
    let (cheap, dear) = if enemy_cost >= 2 {
        (own, enemy)
    } else {
        (own | enemy, 0)
    };
    let (start, goal) = g.edges(player);
    let mut reach = g.flood(start, empty);
    let mut pending = 0u128;
    let mut cost = 0;
    while reach & goal == 0 {
        let touched = (g.grow(reach) | start) & g.board & !reach;
        let entering = (touched & cheap) | pending;
        pending = touched & dear & !entering;
        reach = g.flood(reach | entering, empty | reach | entering);
        cost += 1;
        if cost > 2 * g.size as u32 + 2 {
            break; // cannot happen: every square is reachable
        }
    }
    cost
}

/// Evaluation from the side to move's point of view, with the default weights.
pub fn evaluate(position: &Talpa) -> i32 {
    evaluate_with(position, &EvalParams::DEFAULT)
}

/// Evaluation from the side to move's point of view.
pub fn evaluate_with(position: &Talpa, params: &EvalParams) -> i32 {
    let us = position.side_to_move();
    let them = us.other();
    let ours = separation(position, us, params.enemy_cost) as i32;
    let theirs = separation(position, them, params.enemy_cost) as i32;
    let material =
        position.pieces(us).count_ones() as i32 - position.pieces(them).count_ones() as i32;
    let mut score = params.separation * (theirs - ours) + params.material * material;
    if !position.in_capture_phase() {
        score += params.tempo;
    }
    score
}

/// Ordering hint: empty squares next to existing empty regions first (they grow the
/// regions that become paths), then the centre.
pub fn order_hint(position: &Talpa, mv: Move) -> i32 {
    let g = position.geometry();
    let square = mv.emptied();
    let bit = 1u128 << square;
    let neighbours = (g.grow(bit) & !bit & position.empty()).count_ones() as i32;
    let size = g.size as i32;
    let (file, rank) = (square as i32 % size, square as i32 / size);
    let centre = -((2 * file - size + 1).abs() + (2 * rank - size + 1).abs());
    neighbours * 16 + centre
}
