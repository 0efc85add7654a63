//! Perft: the number of move sequences of exactly N plies.
//!
//! Finished positions have no moves (the game's `generate_moves` gives none), and
//! repetition draws are not applied (SPEC §3). The last ply is counted in bulk with
//! `count_moves`.

use crate::game::Game;

/// Move sequences of exactly `depth` plies from `state`.
pub fn perft<G: Game>(state: &G, depth: u32) -> u64 {
    count(&state.without_ply_limit(), depth)
}

fn count<G: Game>(state: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => state.count_moves(),
        _ => {
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            moves
                .into_iter()
                .map(|mv| {
                    let mut child = state.clone();
                    child.play(mv);
                    count(&child, depth - 1)
                })
                .sum()
        }
    }
}

/// Perft without bulk counting (every leaf is visited): for cross-checks.
pub fn perft_full<G: Game>(state: &G, depth: u32) -> u64 {
    full(&state.without_ply_limit(), depth)
}

fn full<G: Game>(state: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = state.clone();
            child.play(mv);
            full(&child, depth - 1)
        })
        .sum()
}

/// Per-move counts (`go perft N`): each root move with its count, in generation order.
pub fn divide<G: Game>(state: &G, depth: u32) -> Vec<(G::Move, u64)> {
    let state = &state.without_ply_limit();
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves
        .into_iter()
        .map(|mv| {
            let mut child = state.clone();
            child.play(mv);
            (mv, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
