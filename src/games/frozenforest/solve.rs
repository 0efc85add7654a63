//! Frozen Forest's exact solver: who wins a position under best play, and in how
//! many plies (the winner as fast as it can, the loser as slow as it can).
//!
//! Method: negamax alpha-beta on distance scores with a table of exact keys. A win in
//! `p` plies scores `WIN - p` and a loss `p - WIN`, from the side to move's point of
//! view; a child's score becomes its parent's by [`parent`] (negated, one ply further
//! from the end), whose inverse [`child`] turns the parent's window into the child's.
//! A game is finite (every move of Yuki's, his placement included, eats a tree, and
//! the sides alternate), so the search needs no depth limit: it runs to the ends. At
//! the root, null-window searches decide first the winner (the window around 0: a
//! proof, as an AND/OR search makes it) and then the distance, by bisection.
//! - Ordering: every move is tried fewest replies for the opponent first (a move that
//!   leaves none wins at once and ends the node).
//! - The table keeps a lower and an upper bound of the score per exact key: the trees
//!   of the forest's block, one bit a cell (at most 49 for Trees 7), both cells and the
//!   side to move, in 64 bits. Its size is fixed: buckets of four entries, where a new
//!   position replaces the entry with the fewest trees (the smallest subtree, the
//!   cheapest to search again). A lost entry costs time, never exactness.
//!
//! The solver takes forests up to Trees 7 ([`MAX_TREES`]); it is fast on small ones
//! (docs/solved.md has the figures of Trees 4, 5 and 6).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::sight::SIZE;
use super::{FrozenForest, Move};
use crate::game::{Game, Value};
use crate::hash::mix;
use crate::search::exact::value::{WIN, parent_score as parent};

/// The largest forest whose positions the table's keys hold exactly.
pub const MAX_TREES: u8 = 7;
/// Entries in a bucket of the table.
const BUCKET: usize = 4;
/// Marks an empty entry (no position has this key: its side bit would be set twice).
const EMPTY: u64 = u64::MAX;

/// The stop flag and the deadline are read every this many nodes (under a millisecond).
const STOP_INTERVAL: u64 = 1024;

/// A position's exact value with a move that keeps it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Solved {
    /// From the side to move's point of view.
    pub value: Value,
    /// A move that keeps the value: the fastest win or the slowest loss (none when the
    /// game is over).
    pub best: Option<Move>,
}

/// One position's bounds in the table.
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    low: i16,
    high: i16,
    /// Trees on the board: the replacement prefers to keep the larger subtrees.
    trees: u8,
}

const VACANT: Entry = Entry {
    key: EMPTY,
    low: -WIN as i16,
    high: WIN as i16,
    trees: 0,
};

/// The search with its table.
pub struct Prover {
    /// Buckets of [`BUCKET`] entries.
    table: Vec<Entry>,
    nodes: u64,
    /// The most nodes the searches may visit in all before they give up.
    budget: u64,
    /// When the searches give up (a move on the clock).
    deadline: Option<Instant>,
}

/// Why a search returned no answer: `stop` was raised, the node budget ran out, or
/// the forest is larger than [`MAX_TREES`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Interrupted;

impl Default for Prover {
    /// A prover with no node budget and a table of 2^20 entries (16 MiB).
    fn default() -> Self {
        Self::new(u64::MAX, 20)
    }
}

/// The inverse of [`parent`], extended to window bounds: the child's score that maps
/// to `bound` (no score lies near 0, so 0 may map to either side of it).
fn child(bound: i32) -> i32 {
    if bound <= 0 { 1 - bound } else { -bound - 1 }
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
        let entries = 1usize << log2_entries.clamp(4, 34);
        Some(Prover {
            table: crate::memory::try_filled("frozen forest prover table", entries, VACANT)?,
            nodes: 0,
            budget,
            deadline: None,
        })
    }

    /// Makes the searches give up at `deadline` (`None`: never), as if `stop` were
    /// raised then. What they stored in the table stays.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The bucket of `key`: its first entry's index.
    fn bucket(&self, key: u64) -> usize {
        (mix(key) as usize & (self.table.len() - 1)) & !(BUCKET - 1)
    }

    /// The bounds the table holds for `key`.
    fn probe(&self, key: u64) -> Option<(i32, i32)> {
        let start = self.bucket(key);
        self.table[start..start + BUCKET]
            .iter()
            .find(|e| e.key == key)
            .map(|e| (i32::from(e.low), i32::from(e.high)))
    }

    /// Records that the score of `key` is at least `low` and at most `high`.
    fn store(&mut self, key: u64, trees: u8, low: i32, high: i32) {
        let start = self.bucket(key);
        let bucket = &mut self.table[start..start + BUCKET];
        let slot = match bucket.iter().position(|e| e.key == key) {
            Some(slot) => slot,
            None => {
                let slot = (0..BUCKET)
                    .min_by_key(|&i| (bucket[i].key != EMPTY, bucket[i].trees))
                    .unwrap_or(0);
                bucket[slot] = Entry {
                    key,
                    trees,
                    ..VACANT
                };
                slot
            }
        };
        let entry = &mut bucket[slot];
        entry.low = entry.low.max(low as i16);
        entry.high = entry.high.min(high as i16);
    }

    /// Whether the side to move wins `position` under best play.
    pub fn mover_wins(
        &mut self,
        position: &FrozenForest,
        stop: &AtomicBool,
    ) -> Result<bool, Interrupted> {
        Ok(self.search(position, -1, 1, stop)? > 0)
    }

    /// The exact value of `position` and a move that keeps it.
    pub fn solve(
        &mut self,
        position: &FrozenForest,
        stop: &AtomicBool,
    ) -> Result<Solved, Interrupted> {
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        if moves.is_empty() {
            return Ok(Solved {
                value: Value::Loss(0),
                best: None,
            });
        }
        // The score lies in `low ..= high`: first its sign, then bisection. No game
        // lasts longer than two plies a tree, and two for the placements.
        let longest = 2 * (position.trees().count_ones() as i32 + 1);
        let (mut low, mut high) = if self.mover_wins(position, stop)? {
            (WIN - longest, WIN - 1)
        } else {
            (-WIN, longest - WIN)
        };
        while low < high {
            let middle = low + (high - low + 1) / 2;
            log::debug!(
                "frozen forest solve: score in {low}..={high} after {} nodes",
                self.nodes
            );
            if self.search(position, middle - 1, middle, stop)? >= middle {
                low = middle;
            } else {
                high = middle - 1;
            }
        }
        let score = low;
        let target = child(score);
        let mut best = None;
        for &mv in &moves {
            let mut next = *position;
            next.play(mv);
            if self.search(&next, target - 1, target + 1, stop)? == target {
                best = Some(mv);
                break;
            }
        }
        Ok(Solved {
            value: Value::of_score_on(score, WIN),
            best,
        })
    }

    /// The score of `position` when it lies strictly between `alpha` and `beta`;
    /// otherwise a bound beyond the edge of the window it crosses (fail-soft).
    fn search(
        &mut self,
        position: &FrozenForest,
        mut alpha: i32,
        mut beta: i32,
        stop: &AtomicBool,
    ) -> Result<i32, Interrupted> {
        let key = key(position).ok_or(Interrupted)?;
        let (low, high) = self.probe(key).unwrap_or((-WIN, WIN));
        if low >= beta || low == high {
            return Ok(low);
        }
        if high <= alpha {
            return Ok(high);
        }
        alpha = alpha.max(low);
        beta = beta.min(high);
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes.is_multiple_of(STOP_INTERVAL)
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|end| Instant::now() >= end)))
        {
            return Err(Interrupted);
        }
        let children = children_by_replies(position);
        let best = match children.first() {
            None => -WIN,
            // The opponent is stuck after this move: a win in one, the best there is.
            Some(&(0, _)) => WIN - 1,
            Some(_) => {
                let mut best = -WIN;
                let mut floor = alpha;
                for (_, next) in &children {
                    let score = parent(self.search(next, child(beta), child(floor), stop)?);
                    if score > best {
                        best = score;
                        if score > floor {
                            floor = score;
                            if floor >= beta {
                                break;
                            }
                        }
                    }
                }
                best
            }
        };
        let trees = position.trees().count_ones() as u8;
        if best <= alpha {
            self.store(key, trees, -WIN, best);
        } else if best >= beta {
            self.store(key, trees, best, WIN);
        } else {
            self.store(key, trees, best, best);
        }
        Ok(best)
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
