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

/// Three black and three white pieces on squares drawn from `next`, black to move;
/// `None` when the drawn position is already won.
pub fn random_position(mut next: impl FnMut() -> u64) -> Option<Naive> {
    let mut board = [['.'; 5]; 5];
    let mut placed = 0;
    while placed < 6 {
        let square = (next() % 25) as usize;
        if board[square / 5][square % 5] == '.' {
            board[square / 5][square % 5] = if placed < 3 { 'b' } else { 'w' };
            placed += 1;
        }
    }
    let naive = Naive { board, side: 'b' };
    naive.winner().is_none().then_some(naive)
}
