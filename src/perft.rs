//! Perft: the number of move sequences of exactly N plies.
//!
//! Finished positions have no moves (the game's `generate_moves` gives none), and
//! repetition draws are not applied (SPEC §3). The last ply is counted in bulk with
//! `count_moves`.

use crate::game::Game;

/// Move sequences of exactly `depth` plies from `state`.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    count(&state.without_ply_limit(), depth, true)
}

/// Perft without bulk counting (every leaf is visited): for cross-checks.
pub fn perft_full<G: Game>(state: &G, depth: u32) -> u64 {
    count(&state.without_ply_limit(), depth, false)
}

/// Perft of `state` as it is; with `bulk`, the last ply is counted with `count_moves`.
fn count<G: Game>(state: &G, depth: u32, bulk: bool) -> u64 {
    match depth {
        0 => 1,
        1 if bulk => state.count_moves(),
        _ => {
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            moves
                .into_iter()
                .map(|mv| {
                    let mut child = state.clone();
                    child.play(mv);
                    count(&child, depth - 1, bulk)
                })
                .sum()
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
        let mv = self.moves.next()?;
        let mut child = self.root.clone();
        child.play(mv);
        Some((mv, count(&child, self.depth - 1, true)))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        self.moves.size_hint()
    }
}

impl<G: Game> ExactSizeIterator for Divide<G> {}

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
}
