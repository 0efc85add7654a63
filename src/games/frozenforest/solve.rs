//! Frozen Forest's exact solver: who wins a position under best play, and in how
//! many plies (the winner as fast as it can, the loser as slow as it can).
//!
//! The search is the exact-solving layer's ([`crate::search::exact`]: negamax on
//! distance scores with a bound table, the winner decided by a null-window search
//! around 0, then the distance by bisection); this file gives it what suits the game
//! ([`Rules`]). A game is finite (every move of Yuki's, his placement included, eats a
//! tree, and the sides alternate), so the search runs to the ends, and lasts at most
//! two plies a tree and two for the placements.
//! - Ordering: every move is tried fewest replies for the opponent first (a move that
//!   leaves none wins at once and ends the node).
//! - The key: the trees of the forest's block, one bit a cell (at most 49 for Trees
//!   7), both cells and the side to move, in 64 bits. In the table a new position
//!   replaces the entry with the fewest trees (the smallest subtree, the cheapest to
//!   search again).
//! - A book ([`crate::book::game`]) is looked up only at its ply, which a position
//!   tells by the trees eaten (one a ply of Yuki's, placement included) and the side
//!   to move.
//!
//! The solver takes forests up to Trees 7 ([`MAX_TREES`]); it is fast on small ones
//! (docs/solved.md has the figures of Trees 4, 5 and 6).

use super::sight::SIZE;
use super::{Config, FrozenForest, Move, NONE};
use crate::game::{Game, Player, Value};
use crate::search::exact::bound::NO_MOVE;
use crate::search::exact::{self, Child, Exact, Expansion, Key};
use std::sync::atomic::AtomicBool;

pub use crate::search::exact::Interrupted;

/// The largest forest whose positions the table's keys hold exactly.
pub const MAX_TREES: u8 = 7;

/// The game as the exact solver sees it: the rules, and a buffer for the moves.
#[derive(Clone, Debug, Default)]
pub struct Rules {
    moves: Vec<Move>,
}

/// The options of a forest of `config` as a book's header writes them.
pub fn book_options(config: &Config) -> String {
    format!("Trees={}", config.trees)
}

/// The ply count of `position` from its start, read off the board: Yuki eats a tree a
/// ply of his (his placement included), and the sides alternate.
pub fn plies_from_start(position: &FrozenForest) -> u32 {
    let eaten = position.trees_eaten();
    2 * eaten - u32::from(eaten > 0 && position.side_to_move() == Player::P2)
}

/// Frozen Forest's solver: the layer's, over [`Rules`].
pub type Prover = exact::Solver<Rules>;

impl Default for Prover {
    /// A prover with no node budget and a table of 2^20 entries (16 MiB).
    fn default() -> Self {
        Self::new(u64::MAX, 20)
    }
}

impl Prover {
    /// A prover that gives up after `budget` nodes in all, with a table of
    /// 2^`log2_entries` entries of 16 bytes.
    pub fn new(budget: u64, log2_entries: u32) -> Self {
        Self::try_new(budget, log2_entries)
            .unwrap_or_else(|| panic!("no memory for the prover's table"))
    }

    /// As [`Prover::new`], or `None` when the system refuses the table's memory.
    pub fn try_new(budget: u64, log2_entries: u32) -> Option<Self> {
        let mut prover = Self::with_game(Rules::default(), log2_entries)?;
        prover.set_budget(budget);
        Some(prover)
    }

    /// Whether the side to move wins `position` under best play.
    pub fn mover_wins(
        &mut self,
        position: &FrozenForest,
        stop: &AtomicBool,
    ) -> Result<bool, Interrupted> {
        self.wins(position, stop)
    }
}

impl Exact for Rules {
    type Game = FrozenForest;
    type Position = FrozenForest;

    fn position(&self, state: &FrozenForest) -> FrozenForest {
        *state
    }

    fn key(&self, position: &FrozenForest) -> Option<Key> {
        key(position).map(|bits| Key {
            bits: u128::from(bits),
            frame: 0,
        })
    }

    fn expand(
        &mut self,
        position: &FrozenForest,
        _key: &Key,
        _table_move: u16,
        children: &mut Vec<Child<FrozenForest>>,
    ) -> Expansion {
        self.moves.clear();
        position.generate_moves(&mut self.moves);
        for &mv in &self.moves {
            let mut child = *position;
            child.play(mv);
            children.push(Child {
                position: child,
                code: u16::from(mv.0),
                order: child.count_moves() as u32,
            });
        }
        children.sort_by_key(|c| c.order);
        match children.first() {
            None => Expansion::Known(Value::Loss(0), NO_MOVE),
            // The opponent is stuck after this move: a win in one, the best there is.
            Some(c) if c.order == 0 => Expansion::Known(Value::Win(1), c.code),
            Some(_) => Expansion::Search {
                floor: None,
                ceiling: None,
            },
        }
    }

    /// The trees left: the larger subtrees are kept.
    fn priority(&self, position: &FrozenForest, _spent: u64) -> u8 {
        position.trees().count_ones() as u8 + 1
    }

    fn ply(&self, position: &FrozenForest) -> Option<u32> {
        Some(plies_from_start(position))
    }

    /// The position with its ply (a book's forest is its own: a forest of another size
    /// has other keys and is never found).
    fn state(&self, position: &FrozenForest, ply: u32) -> Option<FrozenForest> {
        let cell = |c: Option<usize>| c.map_or(NONE, |c| c as u8);
        Some(FrozenForest::from_parts(
            position.options(),
            position.trees(),
            cell(position.yuki()),
            cell(position.mina()),
            position.side_to_move(),
            ply,
        ))
    }

    fn longest(&self, state: &FrozenForest) -> Option<u32> {
        Some(2 * (state.trees().count_ones() + 1))
    }
}

/// The exact key, or `None` for a forest larger than [`MAX_TREES`] or a position with
/// trees outside the block (a FEN may set one): the trees of the block, row by row,
/// then Yuki's and Mina's cells (127 when not on the board) and the side to move.
fn key(position: &FrozenForest) -> Option<u64> {
    let config = position.options();
    let side = usize::from(config.trees);
    if side > usize::from(MAX_TREES) || position.trees() & !config.start_trees() != 0 {
        return None;
    }
    // The block starts `offset` cells from the left and from the top (rank 10).
    let offset = (SIZE - side) / 2;
    let lowest_rank = SIZE - offset - side;
    let row_mask = (1u128 << side) - 1;
    let mut key = 0u64;
    for rank in lowest_rank..lowest_rank + side {
        let row = (position.trees() >> (rank * SIZE + offset)) & row_mask;
        key = key << side | row as u64;
    }
    let cell = |c: Option<usize>| c.map_or(127, |c| c as u64);
    Some(
        key | cell(position.yuki()) << 49
            | cell(position.mina()) << 56
            | (position.side_to_move() as u64) << 63,
    )
}

/// Each move's position after it with the opponent's number of replies there, fewest
/// first.
pub fn children_by_replies(position: &FrozenForest) -> Vec<(u64, FrozenForest)> {
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    let mut children: Vec<(u64, FrozenForest)> = moves
        .iter()
        .map(|&mv| {
            let mut child = *position;
            child.play(mv);
            (child.count_moves(), child)
        })
        .collect();
    children.sort_by_key(|&(replies, _)| replies);
    children
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;
    use crate::games::frozenforest::Config;
    use std::collections::HashSet;

    #[test]
    fn keys_tell_apart_every_tree_of_every_forest_the_solver_takes() {
        for trees in 4..=MAX_TREES {
            let config = Config { trees };
            let start = config.start_trees();
            let mut keys = HashSet::new();
            let position =
                |forest: u128| FrozenForest::from_parts(config, forest, 0, 99, Player::P1, 2);
            assert!(keys.insert(key(&position(start))));
            for cell in 0..SIZE * SIZE {
                if start >> cell & 1 == 1 {
                    let fewer = key(&position(start & !(1u128 << cell)));
                    assert!(keys.insert(fewer), "Trees {trees}: cell {cell}");
                }
            }
            assert_eq!(keys.len(), usize::from(trees) * usize::from(trees) + 1);
        }
        let large = Config {
            trees: MAX_TREES + 1,
        };
        assert_eq!(key(&FrozenForest::start(&large)), None);
        // A tree outside the block (set by a FEN) has no place in the key.
        let config = Config { trees: 4 };
        let outside =
            FrozenForest::from_parts(config, config.start_trees() | 1, 44, 99, Player::P1, 2);
        assert_eq!(key(&outside), None);
    }
}
