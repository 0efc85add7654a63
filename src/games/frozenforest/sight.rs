//! Precomputed geometry of the 10×10 board: lines of sight, king steps and queen rays.
//!
//! Every set of cells is a `u128` bitboard with bit `rank * 10 + file` (`a1` = bit 0,
//! `j10` = bit 99). The sight rule (SPEC): with (dx, dy) = Mina − Yuki and
//! g = gcd(|dx|, |dy|), the line is blocked exactly when a tree stands on one of the
//! cells Yuki + k·(dx/g, dy/g), 0 < k < g. Those cells depend only on the two end
//! cells, so [`Tables::between`] holds them for every ordered pair and sight is a
//! single AND with the tree bitboard. The relation is symmetric (the same cells are
//! met walking from Mina towards Yuki), which the tests check.

use std::sync::OnceLock;

/// Board side length.
pub const SIZE: usize = 10;

pub use crate::game::grid::DIRECTIONS;

/// Number of cells.
pub const CELLS: usize = SIZE * SIZE;
/// Every cell of the board.
pub const ALL: u128 = (1u128 << CELLS) - 1;

/// The bit of a cell.
#[inline]
pub const fn bit(cell: usize) -> u128 {
    1u128 << cell
}

pub(crate) fn gcd(a: i32, b: i32) -> i32 {
    let (mut a, mut b) = (a.abs(), b.abs());
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

/// The precomputed tables.
pub struct Tables {
    /// `between[a][b]`: the cells strictly between `a` and `b` on the gcd lattice line,
    /// i.e. the cells whose trees hide `b` from `a` (empty for adjacent cells, knight
    /// offsets and every other pair with coprime offsets).
    pub between: Box<[[u128; CELLS]; CELLS]>,
    /// `king[a]`: the up to 8 cells one step from `a`.
    pub king: [u128; CELLS],
    /// `queen[a]`: every cell reachable from `a` in a straight line in one of the
    /// 8 directions, at any distance (Mina slides over everything).
    pub queen: [u128; CELLS],
    /// Chebyshev (king-step) distance between two cells.
    pub distance: Box<[[u8; CELLS]; CELLS]>,
}

/// The tables, built on first use.
pub fn tables() -> &'static Tables {
    // Immutable once built: a pure function of nothing, computed on first use and
    // shared by every engine and thread (no state that could differ between them).
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(build)
}

fn build() -> Tables {
    let mut between = Box::new([[0u128; CELLS]; CELLS]);
    let mut distance = Box::new([[0u8; CELLS]; CELLS]);
    let mut king = [0u128; CELLS];
    let mut queen = [0u128; CELLS];
    for a in 0..CELLS {
        let (fa, ra) = ((a % SIZE) as i32, (a / SIZE) as i32);
        for b in 0..CELLS {
            let (fb, rb) = ((b % SIZE) as i32, (b / SIZE) as i32);
            let (dx, dy) = (fb - fa, rb - ra);
            distance[a][b] = dx.abs().max(dy.abs()) as u8;
            if a == b {
                continue;
            }
            let g = gcd(dx, dy);
            let (sx, sy) = (dx / g, dy / g);
            let mut mask = 0u128;
            for k in 1..g {
                mask |= bit(((ra + k * sy) * SIZE as i32 + fa + k * sx) as usize);
            }
            between[a][b] = mask;
        }
        for &(df, dr) in &DIRECTIONS {
            let (mut f, mut r) = (fa + df, ra + dr);
            if (0..SIZE as i32).contains(&f) && (0..SIZE as i32).contains(&r) {
                king[a] |= bit((r * SIZE as i32 + f) as usize);
            }
            while (0..SIZE as i32).contains(&f) && (0..SIZE as i32).contains(&r) {
                queen[a] |= bit((r * SIZE as i32 + f) as usize);
                f += df;
                r += dr;
            }
        }
    }
    Tables {
        between,
        king,
        queen,
        distance,
    }
}

/// Whether `b` can be seen from `a` given the trees.
#[inline]
pub fn visible(trees: u128, a: usize, b: usize) -> bool {
    trees & tables().between[a][b] == 0
}

/// Iterates over the cells of a bitboard, lowest first.
pub struct Cells(pub u128);

impl Iterator for Cells {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        if self.0 == 0 {
            return None;
        }
        let cell = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(cell)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn between_masks_are_symmetric_and_exact() {
        let t = tables();
        for a in 0..CELLS {
            for b in 0..CELLS {
                assert_eq!(t.between[a][b], t.between[b][a]);
                assert_eq!(t.between[a][b] & (bit(a) | bit(b)), 0);
            }
        }
        // a1 → j10: the 8 cells b2 … i9 of the long diagonal.
        assert_eq!(t.between[0][99].count_ones(), 8);
        // a1 → c5 (dx 2, dy 4, g 2): only b3.
        assert_eq!(t.between[0][42], bit(21));
        // a1 → b3 (a knight offset): nothing.
        assert_eq!(t.between[0][21], 0);
        assert_eq!(t.king[0].count_ones(), 3);
        assert_eq!(t.king[44].count_ones(), 8);
        // a queen on a1 reaches 9 + 9 + 9 cells; on e5 (index 44) 9 + 9 + 8 + 9.
        assert_eq!(t.queen[0].count_ones(), 27);
        assert_eq!(t.queen[44].count_ones(), 35);
        assert_eq!(t.distance[0][99], 9);
        assert_eq!(gcd(0, 7), 7);
        assert_eq!(gcd(-4, 6), 2);
    }
}
