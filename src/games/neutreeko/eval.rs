//! Neutreeko evaluation: lines of three that a side is one slide away from.
//!
//! For each of the 48 lines of three, a side with two pieces on it and the third
//! square empty has a *threat* if its third piece can slide exactly onto that square
//! (an immediate win when it is that side's turn), and a weaker *chance* otherwise.
//! Each distinct square a side threatens to complete a line on counts once more: the
//! opponent blocks one square with one move, not two.
//!
//! Each piece also counts by its square ([`SQUARE_CLASS`]): a piece in a corner has three
//! directions and two lines through it, and is worth least. The weights are half those
//! of a least-squares fit against the exact table (`examples/neutreeko_tune.rs`, on
//! positions drawn apart from the measurement sets). With them the search without the
//! table plays a drawing move from the start (`b1c1` or `d1c1` at every depth from 8 to
//! 13, where it played `b1b4` or `d1d4`, lost in 22) and keeps the value of 99.2 % and
//! 98.4 % of won or drawn positions of random and sound games (99.1 % and 98.6 %
//! before; see `examples/neutreeko_agreement.rs`).
//!
//! The centre orders moves but is not scored as such: with it (3 per point of `CENTRE`)
//! the search without the table kept the value of 95.4 % of won or drawn positions of
//! sound games, without it and with the threatened squares 98.6 %.

use super::{Move, Neutreeko, SIZE, tables};
use crate::game::{Game, Player};
use crate::search::Evaluator;

/// The evaluation as a value (it has no parameters).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct NeutreekoEval;

impl Evaluator<Neutreeko> for NeutreekoEval {
    fn evaluate(&mut self, state: &Neutreeko) -> i32 {
        evaluate(state)
    }

    fn order_hint(&mut self, state: &Neutreeko, mv: Move) -> i32 {
        order_hint(state, mv)
    }
}

const THREAT: i32 = 120;
const CHANCE: i32 = 25;
/// Each distinct square on which a side threatens to complete a line.
const THREAT_SQUARE: i32 = 50;
/// The class of each square for what a piece is worth there: 0 a corner, 1 an edge
/// square beside a corner, 2 the middle of an edge, 3 an inner square on a diagonal, 4
/// an inner square beside the centre, 5 the centre.
pub const SQUARE_CLASS: [usize; 25] = [
    0, 1, 2, 1, 0, //
    1, 3, 4, 3, 1, //
    2, 4, 5, 4, 2, //
    1, 3, 4, 3, 1, //
    0, 1, 2, 1, 0,
];
/// What a piece is worth on a square of each class: about half the fit's values (92,
/// 159, 132, 130, 156 beside the corner's 0: at full scale the sound games kept 97.6 %).
const CLASS_WEIGHT: [i32; 6] = [0, 46, 80, 66, 65, 78];
const CENTRE: [i32; 25] = [
    0, 1, 2, 1, 0, //
    1, 4, 5, 4, 1, //
    2, 5, 8, 5, 2, //
    1, 4, 5, 4, 1, //
    0, 1, 2, 1, 0,
];

fn side_score(position: &Neutreeko, player: Player) -> i32 {
    let own = position.pieces(player);
    let occupied = own | position.pieces(player.other());
    let mut score = 0;
    let mut threatened = 0u32;
    for &line in &tables().lines {
        let on_line = own & line;
        if on_line.count_ones() != 2 {
            continue;
        }
        let gap = line & !own;
        if gap & occupied != 0 {
            continue;
        }
        let third = (own & !line).trailing_zeros() as usize;
        let target = gap.trailing_zeros() as u8;
        if position.destinations(third).any(|to| to == target) {
            score += THREAT;
            threatened |= gap;
        } else {
            score += CHANCE;
        }
    }
    let mut pieces = own;
    while pieces != 0 {
        score += CLASS_WEIGHT[SQUARE_CLASS[pieces.trailing_zeros() as usize]];
        pieces &= pieces - 1;
    }
    score + THREAT_SQUARE * threatened.count_ones() as i32
}

/// Evaluation from the side to move's point of view.
pub fn evaluate(position: &Neutreeko) -> i32 {
    let us = position.side_to_move();
    side_score(position, us) - side_score(position, us.other())
}

/// Ordering hint: moves towards the centre first.
pub fn order_hint(_position: &Neutreeko, mv: Move) -> i32 {
    let to = mv.to as usize;
    let from = mv.from as usize;
    debug_assert!(to < SIZE * SIZE && from < SIZE * SIZE);
    CENTRE[to] - CENTRE[from]
}
