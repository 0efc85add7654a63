//! Numbering of Neutreeko placements: ranks of 3-subsets, the free squares a set
//! leaves, rays, the 8 symmetries of the board and the classes they make.

use std::sync::OnceLock;

use crate::game::grid::{DIRECTIONS, OPPOSITE};

use super::{FREE_SETS, NONE, SETS};
use crate::games::neutreeko::SQUARES;

/// Geometry and ranking tables.
pub(super) struct Geometry {
    /// `C(x, 2)` and `C(x, 3)`.
    pub(super) choose2: [u32; SQUARES],
    pub(super) choose3: [u32; SQUARES],
    /// The bitboard of every 3-subset of the 25 squares, by rank.
    pub(super) sets: Vec<u32>,
    /// Whether the 3-subset of that rank is three in a row.
    pub(super) is_line: Vec<bool>,
    /// The three indices (into 22 free squares, ascending) of every column, by rank.
    pub(super) picks: Vec<[u8; 3]>,
    /// The 22 squares each 3-subset leaves free, ascending, by the subset's rank.
    pub(super) free: Vec<[u8; 22]>,
    /// The squares adjacent to each square.
    pub(super) neighbours: [u32; SQUARES],
    /// `rays[square][direction]`: squares met walking from `square`, then `NONE`s.
    pub(super) rays: [[[u8; 4]; 8]; SQUARES],
    /// `maps[t][square]`: the square's image under symmetry `t` of the board (0 is the
    /// identity; bit 0 of `t` mirrors the files, bit 1 the ranks, bit 2 swaps them).
    pub(super) maps: [[u8; SQUARES]; 8],
    /// By set rank: the row of the set's class, and (bit `t`) the symmetries that take
    /// the set to the row's set (for the row's own set: its stabilizer).
    pub(super) set_row: Vec<u16>,
    pub(super) to_row: Vec<u8>,
    /// By row: the class's set (the one of least rank) and its rank.
    pub(super) row_sets: Vec<u32>,
    pub(super) row_ranks: Vec<u16>,
}

pub(super) fn geometry() -> &'static Geometry {
    // Immutable once built: a pure function of nothing, computed on first use and
    // shared by every engine and thread (no state that could differ between them).
    static GEOMETRY: OnceLock<Geometry> = OnceLock::new();
    GEOMETRY.get_or_init(|| {
        let mut choose2 = [0u32; SQUARES];
        let mut choose3 = [0u32; SQUARES];
        for x in 0..SQUARES as u32 {
            choose2[x as usize] = x * x.saturating_sub(1) / 2;
            choose3[x as usize] = x * x.saturating_sub(1) * x.saturating_sub(2) / 6;
        }
        // Enumerating c > b > a with c outermost gives ranks a + C(b,2) + C(c,3) in order.
        let mut sets = Vec::with_capacity(SETS);
        for c in 2..SQUARES {
            for b in 1..c {
                for a in 0..b {
                    sets.push((1u32 << a) | (1 << b) | (1 << c));
                }
            }
        }
        let mut picks = Vec::with_capacity(FREE_SETS);
        for c in 2..22u8 {
            for b in 1..c {
                for a in 0..b {
                    picks.push([a, b, c]);
                }
            }
        }
        let free = sets
            .iter()
            .map(|&set| {
                let mut free = [0u8; 22];
                let squares = (0..SQUARES as u8).filter(|&sq| set & (1 << sq) == 0);
                for (slot, square) in free.iter_mut().zip(squares) {
                    *slot = square;
                }
                free
            })
            .collect();
        let lines = &crate::games::neutreeko::tables().lines;
        let is_line = sets.iter().map(|set| lines.contains(set)).collect();
        let mut rays = [[[NONE; 4]; 8]; SQUARES];
        let mut neighbours = [0u32; SQUARES];
        for (square, square_rays) in rays.iter_mut().enumerate() {
            for (direction, &(df, dr)) in DIRECTIONS.iter().enumerate() {
                let (mut f, mut r) = ((square % 5) as i32, (square / 5) as i32);
                let mut k = 0;
                loop {
                    f += df;
                    r += dr;
                    if !(0..5).contains(&f) || !(0..5).contains(&r) {
                        break;
                    }
                    square_rays[direction][k] = (r * 5 + f) as u8;
                    k += 1;
                }
                if square_rays[direction][0] != NONE {
                    neighbours[square] |= 1 << square_rays[direction][0];
                }
            }
        }
        let mut maps = [[0u8; SQUARES]; 8];
        for (t, map) in maps.iter_mut().enumerate() {
            for (square, image) in map.iter_mut().enumerate() {
                let (mut f, mut r) = (square % 5, square / 5);
                if t & 1 != 0 {
                    f = 4 - f;
                }
                if t & 2 != 0 {
                    r = 4 - r;
                }
                if t & 4 != 0 {
                    (f, r) = (r, f);
                }
                *image = (r * 5 + f) as u8;
            }
        }
        let mut geometry = Geometry {
            choose2,
            choose3,
            sets,
            is_line,
            picks,
            free,
            neighbours,
            rays,
            maps,
            set_row: Vec::new(),
            to_row: Vec::new(),
            row_sets: Vec::new(),
            row_ranks: Vec::new(),
        };
        // Classes of sets under the 8 symmetries; rows in the order of their least rank.
        let mut set_row = vec![0u16; SETS];
        let mut to_row = vec![0u8; SETS];
        for rank in 0..SETS {
            let set = geometry.sets[rank];
            let images: Vec<usize> = (0..8)
                .map(|t| geometry.rank(geometry.transform(set, t)))
                .collect();
            let least = *images.iter().min().unwrap_or(&rank);
            if least == rank {
                set_row[rank] = geometry.row_sets.len() as u16;
                geometry.row_sets.push(set);
                geometry.row_ranks.push(rank as u16);
            } else {
                set_row[rank] = set_row[least];
            }
            to_row[rank] = (0..8)
                .filter(|&t| images[t] == least)
                .fold(0, |mask, t| mask | 1 << t);
        }
        geometry.set_row = set_row;
        geometry.to_row = to_row;
        geometry
    })
}

impl Geometry {
    /// The rank of a 3-subset of the 25 squares.
    #[inline]
    pub(super) fn rank(&self, mut set: u32) -> usize {
        let a = set.trailing_zeros();
        set &= set - 1;
        let b = set.trailing_zeros() as usize;
        set &= set - 1;
        let c = set.trailing_zeros() as usize;
        (a + self.choose2[b] + self.choose3[c]) as usize
    }

    /// The rank of `set` among the 3-subsets of the squares `taken` leaves free.
    #[inline]
    pub(super) fn rank_free(&self, taken: u32, mut set: u32) -> usize {
        let squeeze = |square: u32| square - (taken & ((1u32 << square) - 1)).count_ones();
        let a = squeeze(set.trailing_zeros());
        set &= set - 1;
        let b = squeeze(set.trailing_zeros()) as usize;
        set &= set - 1;
        let c = squeeze(set.trailing_zeros()) as usize;
        (a + self.choose2[b] + self.choose3[c]) as usize
    }

    /// The image of a set under symmetry `t`.
    #[inline]
    pub(super) fn transform(&self, mut set: u32, t: u32) -> u32 {
        let map = &self.maps[t as usize];
        let mut image = 0;
        while set != 0 {
            image |= 1 << map[set.trailing_zeros() as usize];
            set &= set - 1;
        }
        image
    }

    /// The column of `mover` in row `row`, whose set is the image of the opponent's
    /// set under the symmetries `mask`: the least over them.
    #[inline]
    pub(super) fn column_in(&self, row: usize, mask: u8, mover: u32) -> usize {
        let taken = self.row_sets[row];
        if mask == 1 {
            return self.rank_free(taken, mover);
        }
        let mut bits = u32::from(mask);
        let mut column = usize::MAX;
        while bits != 0 {
            let t = bits.trailing_zeros();
            bits &= bits - 1;
            column = column.min(self.rank_free(taken, self.transform(mover, t)));
        }
        column
    }

    /// The index of (side to move's pieces, opponent's pieces): the position's class
    /// under the board's symmetries.
    #[inline]
    pub(super) fn index(&self, mover: u32, opponent: u32) -> usize {
        let rank = self.rank(opponent);
        let row = usize::from(self.set_row[rank]);
        row * FREE_SETS + self.column_in(row, self.to_row[rank], mover)
    }

    pub(super) fn rows(&self) -> usize {
        self.row_sets.len()
    }

    /// The stabilizer (bit `t`) of row `row`'s set.
    #[inline]
    pub(super) fn row_stabilizer(&self, row: usize) -> u8 {
        self.to_row[usize::from(self.row_ranks[row])]
    }

    /// Whether `index` is the stored representative of its class (a row whose set has
    /// symmetries holds each class once, at its least column).
    pub(super) fn is_canonical(&self, index: usize) -> bool {
        let row = index / FREE_SETS;
        let stabilizer = self.row_stabilizer(row);
        stabilizer == 1
            || self.column_in(row, stabilizer, self.position(index).0) == index % FREE_SETS
    }

    /// The number of positions in the class of the stored position `index` (8 over the
    /// number of symmetries that leave it as it is).
    pub(super) fn class_size(&self, index: usize) -> u64 {
        let (mover, _) = self.position(index);
        let stabilizer = u32::from(self.row_stabilizer(index / FREE_SETS));
        let fixed = (0..8)
            .filter(|&t| stabilizer & (1 << t) != 0 && self.transform(mover, t) == mover)
            .count() as u64;
        8 / fixed
    }

    #[inline]
    pub(super) fn is_line(&self, set: u32) -> bool {
        self.is_line[self.rank(set)]
    }

    /// The pieces of the side to move in column `column` of row `row`.
    #[inline]
    pub(super) fn column_set(&self, row: usize, column: usize) -> u32 {
        let free = &self.free[usize::from(self.row_ranks[row])];
        self.picks[column]
            .iter()
            .fold(0, |set, &pick| set | 1 << free[pick as usize])
    }

    /// The position of an index: (side to move's pieces, opponent's pieces).
    #[inline]
    pub(super) fn position(&self, index: usize) -> (u32, u32) {
        let row = index / FREE_SETS;
        (self.column_set(row, index % FREE_SETS), self.row_sets[row])
    }

    /// The number of moves of the side to move (each piece has one slide per direction
    /// whose first square is free).
    #[inline]
    pub(super) fn count_moves(&self, mover: u32, occupied: u32) -> u8 {
        let mut bits = mover;
        let mut count = 0;
        while bits != 0 {
            let square = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            count += (self.neighbours[square] & !occupied).count_ones();
        }
        count as u8
    }

    /// Calls `f` with the mover's pieces after each of its moves.
    #[inline]
    pub(super) fn for_each_move(&self, mover: u32, occupied: u32, mut f: impl FnMut(u32)) {
        let mut bits = mover;
        while bits != 0 {
            let from = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let rest = mover & !(1 << from);
            for ray in &self.rays[from] {
                let mut last = NONE;
                for &square in ray {
                    if square == NONE || occupied & (1 << square) != 0 {
                        break;
                    }
                    last = square;
                }
                if last != NONE {
                    f(rest | (1 << last));
                }
            }
        }
    }

    /// Calls `f` with every predecessor of the position (`mover`, `opponent`): the
    /// opponent's pieces before its last move (then to move, against `mover`).
    #[inline]
    pub(super) fn for_each_unmove(&self, mover: u32, opponent: u32, mut f: impl FnMut(u32)) {
        let occupied = mover | opponent;
        let mut bits = opponent;
        while bits != 0 {
            let to = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let rest = opponent & !(1 << to);
            let rays = &self.rays[to];
            for direction in 0..8 {
                // A slide in `direction` stops on `to` only if the next square is
                // blocked or off the board.
                let next = rays[direction][0];
                if next != NONE && occupied & (1 << next) == 0 {
                    continue;
                }
                for &from in &rays[OPPOSITE[direction]] {
                    if from == NONE || occupied & (1 << from) != 0 {
                        break;
                    }
                    f(rest | (1 << from));
                }
            }
        }
    }
}
