//! Fabrik's evaluation terms as numbers, for fitting their weights to game outcomes
//! (`examples/fabrik_tune.rs`). The engine's evaluation does not use them: weights
//! fitted this way lost in games (docs/experiments/fabrik.md, tenth pass).
//!
//! Each feature is from the side to move's view and exact by its definition (a count,
//! or a flag of an exact test): the line terms the evaluation has (windows by how many
//! stones they hold, completion squares, the unblockable ones), and the room the
//! workers have, which decides most games (a side to move with no placeable square
//! loses): the placeable squares now and after any relocation, the open squares beside
//! each worker, whether every move leaves a worker cramped, and the size and parity of
//! the empty region around the workers.

use super::eval::{completions, dilate, reach_within, walling_in_threat, window_counts};
use super::geometry::{Bb, geometry};
use super::{Fabrik, Phase, squares, two_squares};
use crate::game::Game;

/// How many features [`features`] returns.
pub const FEATURES: usize = 18;

/// The features' names, by index.
pub const NAMES: [&str; FEATURES] = [
    "tempo",
    "windows one short (own - theirs)",
    "windows two short (own - theirs)",
    "windows three short (own - theirs)",
    "windows four short (own - theirs)",
    "own completion squares (at most 2)",
    "their completion square, one",
    "their completion squares, two or more",
    "their completion squares not in reach",
    "placeable squares now",
    "reach (placeable after a relocation)",
    "open squares beside the workers",
    "open squares beside the worse worker",
    "cramped (walling-in threat)",
    "empty region of the workers, squares",
    "region parity (odd +1, even -1)",
    "region parity, region of 16 or fewer",
    "cramped x region parity",
];

/// The index of the first room term: features `ROOM_FIRST..` are [`room`]'s.
pub const ROOM_FIRST: usize = 9;
/// How many room terms [`room`] returns.
pub const ROOM: usize = FEATURES - ROOM_FIRST;

/// The room terms (features `ROOM_FIRST..`) of a position in the play phase, `reach`
/// being [`reach_within`] the whole board: placeable squares now, reach, open squares
/// beside both workers and beside the worse one, cramped, the workers' empty region's
/// size and parity (+1 odd, -1 even), that parity when the region has 16 squares or
/// fewer, and when cramped.
pub fn room(position: &Fabrik, reach: Bb) -> [i32; ROOM] {
    let g = geometry();
    let empty = position.empty();
    let (a, b) = two_squares(position.workers());
    let (oa, ob) = (
        g.open_beside(a, empty).count_ones() as i32,
        g.open_beside(b, empty).count_ones() as i32,
    );
    let cramped = walling_in_threat(position);
    let region = worker_region(position).count_ones() as i32;
    let parity = if region % 2 == 1 { 1 } else { -1 };
    [
        position.placeable().count_ones() as i32,
        reach.count_ones() as i32,
        oa + ob,
        oa.min(ob),
        i32::from(cramped),
        region,
        parity,
        if region <= 16 { parity } else { 0 },
        if cramped { parity } else { 0 },
    ]
}

/// The empty squares 8-connected to the workers' empty neighbours (the region the
/// workers can still place in and move through), as a set.
pub fn worker_region(position: &Fabrik) -> Bb {
    let g = geometry();
    let empty = position.empty();
    let board = position.board();
    let mut region = 0;
    for w in squares(position.workers()) {
        region |= g.neighbours[w] & empty;
    }
    loop {
        let grown = (region | dilate(region, board)) & empty;
        if grown == region {
            return region;
        }
        region = grown;
    }
}

/// The features of a position in the play phase (all zero in the setup phases).
pub fn features(position: &Fabrik) -> [f64; FEATURES] {
    let mut x = [0.0; FEATURES];
    if position.phase() != Phase::Play {
        return x;
    }
    let us = position.side_to_move();
    let them = us.other();
    let length = position.line_length() as usize;
    let board = position.board();
    let empty = position.empty();
    let (own, theirs) = (position.stones(us), position.stones(them));
    let ours_w = window_counts(own, theirs, board, length);
    let theirs_w = window_counts(theirs, own, board, length);
    x[0] = 1.0;
    // Windows `short` stones short of a line: `length - short` stones (none for the
    // four-short windows of line length 4).
    for (short, slot) in x[1..=4].iter_mut().enumerate().map(|(i, s)| (i + 1, s)) {
        if short < length {
            let k = length - short;
            *slot = f64::from(ours_w[k]) - f64::from(theirs_w[k]);
        }
    }
    let open = empty | position.workers();
    let ours_c = completions(own, open, board, length);
    let theirs_c = completions(theirs, open, board, length);
    let reach = reach_within(position, board);
    x[5] = f64::from(ours_c.count_ones().min(2));
    let n = theirs_c.count_ones();
    x[6] = f64::from(u8::from(n == 1));
    x[7] = f64::from(u8::from(n >= 2));
    x[8] = f64::from((theirs_c & !reach).count_ones());
    for (slot, value) in x[ROOM_FIRST..].iter_mut().zip(room(position, reach)) {
        *slot = f64::from(value);
    }
    x
}
