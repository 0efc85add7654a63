//! Perft: the number of move sequences of exactly N plies.
//!
//! Finished positions have no moves (the game's `generate_moves` gives none), and
//! repetition draws are not applied (SPEC §3). The last ply is counted in bulk with
//! `count_moves`.

use std::sync::atomic::{AtomicBool, Ordering};

use crate::game::Game;

/// Move sequences of exactly `depth` plies from `state`.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    count(&state.without_ply_limit(), depth, true, &NEVER).unwrap_or(0)
}

/// Perft without bulk counting (every leaf is visited): for cross-checks.
pub fn perft_full<G: Game>(state: &G, depth: u32) -> u64 {
    count(&state.without_ply_limit(), depth, false, &NEVER).unwrap_or(0)
}

/// A stop flag nobody raises: a count with it always finishes.
static NEVER: AtomicBool = AtomicBool::new(false);

/// Perft of `state` as it is; with `bulk`, the last ply is counted with `count_moves`.
/// `None` as soon as `stop` is raised (read at every position two or more plies from
/// the leaves: a few microseconds apart).
fn count<G: Game>(state: &G, depth: u32, bulk: bool, stop: &AtomicBool) -> Option<u64> {
    match depth {
        0 => Some(1),
        1 if bulk => Some(state.count_moves()),
        _ => {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            let mut total = 0;
            for mv in moves {
                let mut child = state.clone();
                child.play(mv);
                total += count(&child, depth - 1, bulk, stop)?;
            }
            Some(total)
        }
    }
}

/// Perft split by root move (`go perft N`): each legal move of `state`, in generation
/// order, with the number of `depth`-ply sequences that begin with it. The counts sum to
/// [`perft`]`(state, depth)`; at depth 0 there is no root move, so nothing is yielded
/// (while perft 0 is 1).
///
/// The iterator is lazy: each item costs one perft of `depth - 1`, counted when it is
/// asked for, so a caller can print every line as it comes and stop between two moves.
/// Like [`perft`], it applies no ply-limit draw.
pub fn divide<G: Game>(state: &G, depth: u32) -> Divide<G> {
    let root = state.without_ply_limit();
    let mut moves = Vec::new();
    if depth > 0 {
        root.generate_moves(&mut moves);
    }
    Divide {
        root,
        moves: moves.into_iter(),
        depth,
    }
}

/// The iterator of [`divide`]: `(root move, count)` pairs.
#[derive(Debug)]
pub struct Divide<G: Game> {
    root: G,
    moves: std::vec::IntoIter<G::Move>,
    depth: u32,
}

impl<G: Game> Iterator for Divide<G> {
    type Item = (G::Move, u64);

    fn next(&mut self) -> Option<(G::Move, u64)> {
        self.next_until(&NEVER).and_then(Result::ok)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.moves.size_hint()
    }
}

impl<G: Game> ExactSizeIterator for Divide<G> {}

/// A count that `stop` interrupted.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Stopped;

impl<G: Game> Divide<G> {
    /// The next root move and its count, as [`Iterator::next`], but `Err(Stopped)` when
    /// `stop` is raised before the move or during its count (not only when the root
    /// move is done: at depth 12 that could be hours).
    pub fn next_until(&mut self, stop: &AtomicBool) -> Option<Result<(G::Move, u64), Stopped>> {
        let mv = self.moves.next()?;
        if stop.load(Ordering::Relaxed) {
            return Some(Err(Stopped));
        }
        let mut child = self.root.clone();
        child.play(mv);
        Some(
            count(&child, self.depth - 1, true, stop)
                .map(|n| (mv, n))
                .ok_or(Stopped),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::neutreeko::Neutreeko;

    #[test]
    fn divide_splits_perft_by_root_move() {
        let start = Neutreeko::start(&());
        let split: Vec<_> = divide(&start, 2).collect();
        assert_eq!(split.len(), 14);
        assert_eq!(split.iter().map(|&(_, n)| n).sum::<u64>(), perft(&start, 2));
        let mut moves = Vec::new();
        start.generate_moves(&mut moves);
        assert_eq!(split.iter().map(|&(mv, _)| mv).collect::<Vec<_>>(), moves);
        // Counted one move at a time; no root move at depth 0.
        assert_eq!(divide(&start, 3).len(), 14);
        assert_eq!(divide(&start, 0).next(), None);
    }

    #[test]
    fn a_raised_stop_ends_a_root_move_count_at_once() {
        let start = Neutreeko::start(&());
        let running = AtomicBool::new(false);
        let mut split = divide(&start, 3);
        let every: Vec<_> = std::iter::from_fn(|| split.next_until(&running)).collect();
        let plain: Vec<_> = divide(&start, 3).map(Ok).collect();
        assert_eq!(every, plain);
        // Depth 12 would take hours; raised, the first root move ends at once.
        let raised = AtomicBool::new(true);
        assert_eq!(divide(&start, 12).next_until(&raised), Some(Err(Stopped)));
    }
}
