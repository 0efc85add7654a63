//! Board geometry for Fabrik: 128-bit bitboards laid out with a fixed stride of 11.
//!
//! Square index = `rank * 11 + file` (`a1` = 0, `k11` = 120) for every board size; a
//! smaller board is the bottom-left `size × size` corner, selected by [`board_mask`].
//! Rays are computed once for the 11×11 geometry: a ray from a square of a smaller board
//! leaves that (convex) board once and never comes back, so masking with the board is
//! all a smaller size needs.

use std::sync::OnceLock;

/// A set of squares.
pub type Bb = u128;

/// Row stride of the layout, and the largest board side.
pub const STRIDE: usize = 11;
/// Number of square indices.
pub const SQUARES: usize = STRIDE * STRIDE;

/// The 8 directions as (file step, rank step). Directions `0..4` increase the square
/// index, `4..8` decrease it, and `d + 4` is the opposite of `d`: the ray tables and
/// line counts rely on this order, so Fabrik keeps it rather than
/// [`crate::game::grid::DIRECTIONS`].
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// The one-square set.
#[inline(always)]
pub const fn bit(square: usize) -> Bb {
    1u128 << square
}

/// Whether `set` has two squares or more (cheaper than a 128-bit popcount).
#[inline(always)]
pub const fn two_or_more(set: Bb) -> bool {
    set & set.wrapping_sub(1) != 0
}

/// Whether `set` has three squares or more.
#[inline(always)]
pub const fn three_or_more(set: Bb) -> bool {
    let rest = set & set.wrapping_sub(1);
    rest & rest.wrapping_sub(1) != 0
}

/// The squares of a `size × size` board.
pub fn board_mask(size: usize) -> Bb {
    let mut mask = 0;
    for rank in 0..size {
        for file in 0..size {
            mask |= bit(rank * STRIDE + file);
        }
    }
    mask
}

/// Precomputed rays and relations between squares.
pub struct Geometry {
    /// `ray[square][d]`: the squares met walking from `square` in direction `d`,
    /// `square` excluded.
    pub ray: [[Bb; 8]; 128],
    /// `ray_from[square][d]`: `ray[square][d]` plus `square` itself.
    pub ray_from: [[Bb; 8]; 128],
    /// `between[a * SQUARES + b]`: the squares strictly between two aligned squares
    /// (empty when they are not aligned or adjacent).
    pub between: Vec<Bb>,
    /// `direction[a * SQUARES + b]`: the direction from `a` to `b` when they are
    /// aligned (on one row, column or diagonal), 255 otherwise.
    pub direction: Vec<u8>,
    /// The (up to 8) neighbours of each square.
    pub neighbours: [Bb; SQUARES],
    /// The squares within two king steps of each square (its 5×5 box), itself
    /// included: a stone placed outside it changes no neighbour's empty neighbours.
    pub near2: [Bb; SQUARES],
}

impl Geometry {
    /// The *open* squares beside `square`: its empty neighbours that have three or more
    /// empty neighbours of their own. A worker with fewer than three of them can be
    /// walled in by one move.
    #[inline]
    pub fn open_beside(&self, square: usize, empty: Bb) -> Bb {
        let mut open = 0;
        let mut beside = self.neighbours[square] & empty;
        while beside != 0 {
            let s = beside.trailing_zeros() as usize;
            beside &= beside - 1;
            if three_or_more(self.neighbours[s] & empty) {
                open |= bit(s);
            }
        }
        open
    }

    fn build() -> Geometry {
        let on_board =
            |f: i32, r: i32| (0..STRIDE as i32).contains(&f) && (0..STRIDE as i32).contains(&r);
        let mut ray = [[0; 8]; 128];
        let mut ray_from = [[0; 8]; 128];
        let mut between = vec![0; SQUARES * SQUARES];
        let mut direction = vec![255u8; SQUARES * SQUARES];
        let mut neighbours = [0; SQUARES];
        for square in 0..SQUARES {
            let (f0, r0) = ((square % STRIDE) as i32, (square / STRIDE) as i32);
            for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
                let (mut f, mut r) = (f0 + df, r0 + dr);
                let mut walked: Bb = 0;
                while on_board(f, r) {
                    let to = (r * STRIDE as i32 + f) as usize;
                    between[square * SQUARES + to] = walked;
                    direction[square * SQUARES + to] = d as u8;
                    walked |= bit(to);
                    f += df;
                    r += dr;
                }
                ray[square][d] = walked;
                ray_from[square][d] = walked | bit(square);
                if on_board(f0 + df, r0 + dr) {
                    neighbours[square] |= bit(((r0 + dr) * STRIDE as i32 + f0 + df) as usize);
                }
            }
        }
        let mut near2 = [0; SQUARES];
        for (square, near) in near2.iter_mut().enumerate() {
            *near = bit(square) | neighbours[square];
            for n in 0..SQUARES {
                if neighbours[square] & bit(n) != 0 {
                    *near |= neighbours[n];
                }
            }
        }
        Geometry {
            ray,
            ray_from,
            between,
            direction,
            neighbours,
            near2,
        }
    }

    /// What a worker on `square` sees: along each direction, the empty squares up to
    /// (not including) the first square of `occupied`. Off-board squares of a smaller
    /// board are included: callers mask with the empty squares of the board.
    #[inline(always)]
    #[allow(clippy::needless_range_loop)] // `d` also indexes `ray_from`
    pub fn sight(&self, square: usize, occupied: Bb) -> Bb {
        let rays = &self.ray[square & 127];
        let mut seen = 0;
        for d in 0..4 {
            let ray = rays[d];
            let blockers = ray & occupied;
            seen |= if blockers != 0 {
                ray ^ self.ray_from[blockers.trailing_zeros() as usize & 127][d]
            } else {
                ray
            };
        }
        for d in 4..8 {
            let ray = rays[d];
            let blockers = ray & occupied;
            seen |= if blockers != 0 {
                ray ^ self.ray_from[(127 - blockers.leading_zeros() as usize) & 127][d]
            } else {
                ray
            };
        }
        seen
    }

    /// The number of consecutive squares of `stones` met walking from `square` in
    /// direction `d` (`square` itself not counted).
    ///
    /// Counted as the distance to the first square that is not a stone, from the file
    /// (east and west) or the rank (the other directions): a 128-bit popcount costs more
    /// where the processor has no popcount instruction (the default x86-64 target).
    #[inline(always)]
    pub fn run(&self, square: usize, d: usize, stones: Bb) -> u32 {
        let ray = self.ray[square][d];
        let gaps = ray & !stones;
        if gaps == 0 {
            return ray.count_ones();
        }
        let first = if d < 4 {
            gaps.trailing_zeros()
        } else {
            127 - gaps.leading_zeros()
        } as usize;
        let (from, to) = if d == 0 || d == 4 {
            (square % STRIDE, first % STRIDE)
        } else {
            (square / STRIDE, first / STRIDE)
        };
        (from.abs_diff(to) - 1) as u32
    }

    /// The squares strictly between `a` and `b` (empty unless aligned and apart).
    #[inline(always)]
    pub fn between(&self, a: usize, b: usize) -> Bb {
        self.between[a * SQUARES + b]
    }

    /// Whether `a` and `b` lie on one row, column or diagonal (and differ).
    #[inline(always)]
    pub fn aligned(&self, a: usize, b: usize) -> bool {
        self.direction[a * SQUARES + b] != 255
    }

    /// The squares beyond `b` seen from `a` (on the ray from `a` through `b`, past `b`),
    /// or nothing when they are not aligned.
    #[inline(always)]
    pub fn beyond(&self, a: usize, b: usize) -> Bb {
        match self.direction[a * SQUARES + b] {
            255 => 0,
            d => self.ray[b][d as usize],
        }
    }
}

/// The shared geometry tables (built on first use).
pub fn geometry() -> &'static Geometry {
    // Immutable once built: a pure function of nothing, computed on first use and
    // shared by every engine and thread (no state that could differ between them).
    static GEOMETRY: OnceLock<Box<Geometry>> = OnceLock::new();
    GEOMETRY.get_or_init(|| Box::new(Geometry::build()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(file: usize, rank: usize) -> usize {
        rank * STRIDE + file
    }

    #[test]
    fn rays_and_sight() {
        let g = geometry();
        // From a1 east: b1..k1, 10 squares; north-east: b2..k11.
        assert_eq!(g.ray[0][0].count_ones(), 10);
        assert_eq!(g.ray[0][2].count_ones(), 10);
        assert_eq!(g.ray[0][4], 0);
        // Sight from f6 on an empty board: 4 full lines through the centre.
        assert_eq!(g.sight(sq(5, 5), 0).count_ones(), 40);
        // A blocker on f8 cuts the northward ray to f7.
        let seen = g.sight(sq(5, 5), bit(sq(5, 7)));
        assert_eq!(seen.count_ones(), 40 - 4);
        assert!(seen & bit(sq(5, 6)) != 0);
        assert!(seen & bit(sq(5, 7)) == 0);
        // A blocker on d4 (south-west) cuts d4, c3, b2, a1.
        let seen = g.sight(sq(5, 5), bit(sq(3, 3)));
        assert_eq!(seen.count_ones(), 40 - 4);
        assert!(seen & bit(sq(4, 4)) != 0);
    }

    #[test]
    fn runs_between_and_beyond() {
        let g = geometry();
        let stones = bit(sq(1, 0)) | bit(sq(2, 0)) | bit(sq(4, 0));
        assert_eq!(g.run(sq(0, 0), 0, stones), 2);
        assert_eq!(g.run(sq(3, 0), 4, stones), 2);
        assert_eq!(g.run(sq(3, 0), 0, stones), 1);
        assert_eq!(g.run(sq(3, 1), 5, stones), 0);
        assert_eq!(g.between(sq(0, 0), sq(3, 3)), bit(sq(1, 1)) | bit(sq(2, 2)));
        assert_eq!(g.between(sq(0, 0), sq(1, 2)), 0);
        assert!(!g.aligned(sq(0, 0), sq(1, 2)));
        assert!(g.aligned(sq(3, 3), sq(0, 6)));
        assert_eq!(g.beyond(sq(0, 0), sq(9, 9)), bit(sq(10, 10)));
        assert_eq!(g.neighbours[0].count_ones(), 3);
        assert_eq!(g.neighbours[sq(5, 5)].count_ones(), 8);
        assert_eq!(board_mask(7).count_ones(), 49);
        assert_eq!(g.near2[sq(5, 5)].count_ones(), 25);
        assert_eq!(g.near2[0].count_ones(), 9);
        assert_eq!(g.near2[sq(1, 5)].count_ones(), 20);
        for set in [0, 1, 6, 7, 1 << 127, 3 << 126, 7 << 100, u128::MAX] {
            assert_eq!(two_or_more(set), set.count_ones() >= 2, "{set:b}");
            assert_eq!(three_or_more(set), set.count_ones() >= 3, "{set:b}");
        }
    }
}
