//! The complete retrograde solution of Neutreeko, built in memory.
//!
//! **Positions.** The rules are the same for both colours, so a position is seen from
//! the side to move: its three pieces `S` and the opponent's three `O`. A placement is
//! `rank(O) * 1540 + rank'(S)`, where `rank` numbers the 3-subsets of the 25 squares
//! (C(25,3) = 2300) and `rank'` the 3-subsets of the 22 squares that `O` leaves free
//! (C(22,3) = 1540): 3,542,000 placements, which serve both colours. The table keeps one
//! entry per class of placements under the 8 symmetries of the board: its rows are the
//! 319 classes of opponent sets (each stored as its set of least rank), its columns the
//! 1540 mover sets; where the row's set has symmetries of its own, a class is stored once,
//! at its least column (the other cells are unused). 319 × 1540 = 491,260 bytes. Rows go
//! by the opponent's pieces so that every predecessor of a position lies in one row (its
//! predecessors differ only in the pieces of the side that moved last).
//!
//! **Values.** One byte per position, from the side to move's point of view, in the
//! exact layer's encoding ([`byte`]): `0` a draw (never resolved); `byte - 1` plies to
//! the end under best play (fastest win, slowest loss), an odd number a win, an even one
//! a loss (`1` = lost in 0: the opponent has three in a row, or, never in practice, no
//! move); [`byte::WON`] when the side to move itself has three in a row and the
//! opponent has not. No move reaches such a position (the mover would have had the line
//! before moving and the game would already be over); [`Game::outcome`] scores it a win
//! for the side to move, so [`Table::value`] says `Win(0)`, and it is left out of
//! [`Counts`]. When both sides have a line, `outcome` gives the game to the player who
//! just moved, so such a position is stored as lost in 0 (and also left out of
//! `Counts`).
//!
//! **Build.** Level by level, from the positions lost in 0: the predecessors of a
//! position lost in `n` plies are won in `n + 1` unless already resolved; a predecessor of
//! a position won in `n` loses one from its counter (its number of moves to distinct
//! classes, counted in the first pass) and is lost in `n + 1` when the counter reaches
//! zero; a frontier position whose pieces have symmetries may reach one predecessor
//! class by several unmoves, which count once. Predecessors come
//! from *unmoves*: the piece on `Y` came from `Z` in direction `d` when the square after
//! `Y` in direction `d` is occupied or off the board (a slide stops only there) and every
//! square from `Z` to `Y` is empty. Each level's frontier is sorted by its side to move's
//! pieces, which are the row of all its predecessors, and split by rows over threads:
//! each thread writes only its own rows, so no atomics are needed, and each frontier
//! position's predecessors share one 1.5 KB row of the table (the whole table fits the
//! level-2 cache).
//! [`Table::build_forward`] solves the same table by repeated forward passes instead;
//! it is much slower and serves as a benchmark and a cross-check.

//!
//! The parts: `index` numbers positions and their symmetries, `build` solves the
//! table, `root` chooses a move from it; this file holds the table and its probes.

mod build;
mod index;
mod root;

use super::{Neutreeko, SQUARES};
use crate::game::{Game, Value};
use crate::search::exact::{Counts, byte};
use index::geometry;

/// 3-subsets of the 25 squares: the rows (the opponent's pieces).
const SETS: usize = 2300;
/// 3-subsets of the 22 squares the opponent leaves free: the columns.
const FREE_SETS: usize = 1540;
/// Placements of the pieces (each serves both colours).
pub const POSITIONS: usize = SETS * FREE_SETS;

/// A placeholder square in the rays of [`index`] (no square).
const NONE: u8 = u8::MAX;

/// How a root move ranks (larger is better): a class, then tie-breaks.
type RankKey = (i64, i64, i64, i64);

/// The solved game.
pub struct Table {
    values: Vec<u8>,
}

impl std::fmt::Debug for Table {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Table({} positions)", self.values.len())
    }
}

impl Table {
    /// The value for the side to move with pieces `mover` against `opponent` (3 pieces
    /// each on distinct squares; `None` otherwise).
    pub fn value(&self, mover: u32, opponent: u32) -> Option<Value> {
        let valid = mover.count_ones() == 3
            && opponent.count_ones() == 3
            && mover & opponent == 0
            && (mover | opponent) >> SQUARES == 0;
        if !valid {
            return None;
        }
        byte::decode(self.values[geometry().index(mover, opponent)])
    }

    /// The value of a position for its side to move, ignoring repetition.
    pub fn probe(&self, position: &Neutreeko) -> Option<Value> {
        let side = position.side_to_move();
        self.value(position.pieces(side), position.pieces(side.other()))
    }

    /// Won, lost and drawn positions for the side to move, over every placement where
    /// the side to move does not itself have three in a row.
    pub fn counts(&self) -> Counts {
        let geo = geometry();
        let mut counts = Counts::default();
        for (index, &b) in self.values.iter().enumerate() {
            if !geo.is_canonical(index) || geo.is_line(geo.position(index).0) {
                continue;
            }
            // Each stored position stands for its whole class.
            if let Some(value) = byte::decode(b) {
                counts.add(value, geo.class_size(index));
            }
        }
        counts
    }

    /// The table's bytes, by index (for comparing two builds).
    pub fn bytes(&self) -> &[u8] {
        &self.values
    }

    /// Memory held by the table, in bytes.
    pub fn memory(&self) -> usize {
        self.values.capacity()
    }
}
