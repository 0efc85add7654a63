//! Helpers shared by the search tests on Neutreeko positions: reading a position,
//! the naive rules' view of the position after a move, a node limit.

use tabuleiro::game::Game;
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::search::SearchLimits;

use crate::naive::Naive;

pub type Move = <Neutreeko as Game>::Move;

pub fn fen(text: &str) -> Neutreeko {
    Neutreeko::from_fen(&(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The naive position after the crate's move.
pub fn naive_after(root: &Neutreeko, mv: Move) -> Naive {
    let mut child = *root;
    child.play(mv);
    Naive::from_fen(&child.fen())
}

/// At most `nodes` nodes (playouts, for Monte-Carlo tree search).
pub fn nodes(nodes: u64) -> SearchLimits {
    SearchLimits {
        nodes: Some(nodes),
        ..SearchLimits::default()
    }
}
