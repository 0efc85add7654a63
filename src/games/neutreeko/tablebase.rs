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
//! **Values.** One byte per position, from the side to move's point of view:
//! - `0`: a draw (never resolved);
//! - `1..=223`: the game ends after `byte - 1` plies of best play (fastest win, slowest
//!   loss); an odd number of plies is a win, an even one a loss (`1` = lost in 0: the
//!   opponent has three in a row, or, never in practice, no move);
//! - `255`: the side to move itself has three in a row and the opponent has not. No move
//!   reaches such a position (the mover would have had the line before moving and the
//!   game would already be over); [`Game::outcome`] scores it a win for the side to move,
//!   so [`Table::value`] says `Win(0)`, and it is left out of [`Counts`]. When both sides
//!   have a line, `outcome` gives the game to the player who just moved, so such a
//!   position is stored as lost in 0 (and also left out of `Counts`).
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

use std::sync::OnceLock;
use std::sync::atomic::{AtomicU8, Ordering};

use super::{Move, Neutreeko, SQUARES};
use crate::game::{Game, Outcome, Value};
use crate::search::RootProbe;

/// 3-subsets of the 25 squares: the rows (the opponent's pieces).
const SETS: usize = 2300;
/// 3-subsets of the 22 squares the opponent leaves free: the columns.
const FREE_SETS: usize = 1540;
/// Placements of the pieces (each serves both colours).
pub const POSITIONS: usize = SETS * FREE_SETS;

/// During the build, an unresolved position holds `COUNTED + moves` (its moves whose
/// value is not yet known to be a win for the opponent), never 0 and below `OWN_LINE`.
const COUNTED: u8 = 0xE0;
/// The byte of a position whose side to move has its own line (see the module doc).
const OWN_LINE: u8 = 255;
/// The largest byte that encodes a distance (below the build's counters).
const MAX_CODE: u8 = COUNTED - 1;
const NONE: u8 = u8::MAX;

/// Directions as (file step, rank step), paired so that `d ^ 1` is the opposite of `d`.
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, -1),
    (1, -1),
    (-1, 1),
];

/// Geometry and ranking tables.
struct Geometry {
    /// `C(x, 2)` and `C(x, 3)`.
    choose2: [u32; SQUARES],
    choose3: [u32; SQUARES],
    /// The bitboard of every 3-subset of the 25 squares, by rank.
    sets: Vec<u32>,
    /// Whether the 3-subset of that rank is three in a row.
    is_line: Vec<bool>,
    /// The three indices (into 22 free squares, ascending) of every column, by rank.
    picks: Vec<[u8; 3]>,
    /// The 22 squares each 3-subset leaves free, ascending, by the subset's rank.
    free: Vec<[u8; 22]>,
    /// The squares adjacent to each square.
    neighbours: [u32; SQUARES],
    /// `rays[square][direction]`: squares met walking from `square`, then `NONE`s.
    rays: [[[u8; 4]; 8]; SQUARES],
    /// `maps[t][square]`: the square's image under symmetry `t` of the board (0 is the
    /// identity; bit 0 of `t` mirrors the files, bit 1 the ranks, bit 2 swaps them).
    maps: [[u8; SQUARES]; 8],
    /// By set rank: the row of the set's class, and (bit `t`) the symmetries that take
    /// the set to the row's set (for the row's own set: its stabilizer).
    set_row: Vec<u16>,
    to_row: Vec<u8>,
    /// By row: the class's set (the one of least rank) and its rank.
    row_sets: Vec<u32>,
    row_ranks: Vec<u16>,
}

fn geometry() -> &'static Geometry {
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
        let lines = &super::tables().lines;
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
    fn rank(&self, mut set: u32) -> usize {
        let a = set.trailing_zeros();
        set &= set - 1;
        let b = set.trailing_zeros() as usize;
        set &= set - 1;
        let c = set.trailing_zeros() as usize;
        (a + self.choose2[b] + self.choose3[c]) as usize
    }

    /// The rank of `set` among the 3-subsets of the squares `taken` leaves free.
    #[inline]
    fn rank_free(&self, taken: u32, mut set: u32) -> usize {
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
    fn transform(&self, mut set: u32, t: u32) -> u32 {
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
    fn column_in(&self, row: usize, mask: u8, mover: u32) -> usize {
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
    fn index(&self, mover: u32, opponent: u32) -> usize {
        let rank = self.rank(opponent);
        let row = usize::from(self.set_row[rank]);
        row * FREE_SETS + self.column_in(row, self.to_row[rank], mover)
    }

    fn rows(&self) -> usize {
        self.row_sets.len()
    }

    /// The stabilizer (bit `t`) of row `row`'s set.
    #[inline]
    fn row_stabilizer(&self, row: usize) -> u8 {
        self.to_row[usize::from(self.row_ranks[row])]
    }

    /// Whether `index` is the stored representative of its class (a row whose set has
    /// symmetries holds each class once, at its least column).
    fn is_canonical(&self, index: usize) -> bool {
        let row = index / FREE_SETS;
        let stabilizer = self.row_stabilizer(row);
        stabilizer == 1
            || self.column_in(row, stabilizer, self.position(index).0) == index % FREE_SETS
    }

    /// The number of positions in the class of the stored position `index` (8 over the
    /// number of symmetries that leave it as it is).
    fn class_size(&self, index: usize) -> u64 {
        let (mover, _) = self.position(index);
        let stabilizer = u32::from(self.row_stabilizer(index / FREE_SETS));
        let fixed = (0..8)
            .filter(|&t| stabilizer & (1 << t) != 0 && self.transform(mover, t) == mover)
            .count() as u64;
        8 / fixed
    }

    #[inline]
    fn is_line(&self, set: u32) -> bool {
        self.is_line[self.rank(set)]
    }

    /// The pieces of the side to move in column `column` of row `row`.
    #[inline]
    fn column_set(&self, row: usize, column: usize) -> u32 {
        let free = &self.free[usize::from(self.row_ranks[row])];
        self.picks[column]
            .iter()
            .fold(0, |set, &pick| set | 1 << free[pick as usize])
    }

    /// The position of an index: (side to move's pieces, opponent's pieces).
    #[inline]
    fn position(&self, index: usize) -> (u32, u32) {
        let row = index / FREE_SETS;
        (self.column_set(row, index % FREE_SETS), self.row_sets[row])
    }

    /// The number of moves of the side to move (each piece has one slide per direction
    /// whose first square is free).
    #[inline]
    fn count_moves(&self, mover: u32, occupied: u32) -> u8 {
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
    fn for_each_move(&self, mover: u32, occupied: u32, mut f: impl FnMut(u32)) {
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
    fn for_each_unmove(&self, mover: u32, opponent: u32, mut f: impl FnMut(u32)) {
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
                for &from in &rays[direction ^ 1] {
                    if from == NONE || occupied & (1 << from) != 0 {
                        break;
                    }
                    f(rest | (1 << from));
                }
            }
        }
    }
}

fn join<T>(handle: std::thread::ScopedJoinHandle<'_, T>) -> T {
    handle
        .join()
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
}

/// A frontier: position indices grouped by the row of their predecessors (the row of
/// the class of their side to move's pieces).
struct Frontier {
    indices: Vec<u32>,
    /// `indices[starts[r]..starts[r + 1]]` are the positions whose predecessors are in
    /// row `r`.
    starts: Vec<usize>,
}

impl Frontier {
    /// Sorts (row, index) pairs into a frontier (a counting sort).
    fn from_pairs(rows: usize, parts: Vec<Vec<(u16, u32)>>) -> Frontier {
        let mut starts = vec![0usize; rows + 1];
        for &(row, _) in parts.iter().flatten() {
            starts[row as usize + 1] += 1;
        }
        for r in 0..rows {
            starts[r + 1] += starts[r];
        }
        let mut fill = starts.clone();
        let mut indices = vec![0u32; starts[rows]];
        for &(row, index) in parts.iter().flatten() {
            indices[fill[row as usize]] = index;
            fill[row as usize] += 1;
        }
        Frontier { indices, starts }
    }

    /// Row boundaries that split the frontier into `threads` parts of about equal size.
    fn bands(&self, threads: usize) -> Vec<usize> {
        let rows = self.starts.len() - 1;
        let total = self.indices.len();
        let mut bounds = vec![0];
        for t in 1..threads {
            let target = total * t / threads;
            let row = self.starts.partition_point(|&s| s < target).min(rows);
            bounds.push(row.max(*bounds.last().unwrap_or(&0)));
        }
        bounds.push(rows);
        bounds
    }
}

/// The first pass over rows `first..` (in `cells`): lost in 0, own line, or a counter
/// of the position's moves to distinct classes. Returns the positions lost in 0 with
/// the row of their predecessors. Cells that do not represent their class stay 0.
fn first_pass(geo: &Geometry, first: usize, cells: &mut [u8]) -> Vec<(u16, u32)> {
    let mut lost = Vec::new();
    let mut children = Vec::new();
    for (offset, row_cells) in cells.chunks_mut(FREE_SETS).enumerate() {
        let row = first + offset;
        let opponent = geo.row_sets[row];
        let opponent_line = geo.is_line(opponent);
        let symmetric = geo.row_stabilizer(row) != 1;
        for (column, cell) in row_cells.iter_mut().enumerate() {
            let index = row * FREE_SETS + column;
            if symmetric && !geo.is_canonical(index) {
                continue;
            }
            let mover = geo.column_set(row, column);
            let mover_rank = geo.rank(mover);
            let mut moves = geo.count_moves(mover, mover | opponent);
            let own_line = geo.is_line[mover_rank];
            if symmetric && moves > 0 {
                // Two moves may reach the same class only when the opponent's set has
                // symmetries: count classes.
                children.clear();
                geo.for_each_move(mover, mover | opponent, |after| {
                    children.push(geo.index(opponent, after));
                });
                children.sort_unstable();
                children.dedup();
                moves = children.len() as u8;
            }
            *cell = if opponent_line || (moves == 0 && !own_line) {
                lost.push((geo.set_row[mover_rank], index as u32));
                code(0)
            } else if own_line {
                OWN_LINE
            } else {
                COUNTED + moves
            };
        }
    }
    lost
}

/// One level of the retrograde build.
struct Level<'a> {
    frontier: &'a Frontier,
    /// Whether the frontier holds losses (so predecessors are wins).
    winning: bool,
    /// The byte of the positions found now.
    byte: u8,
}

impl Level<'_> {
    /// Updates the predecessors of the frontier positions that lie in `rows` (held by
    /// `cells`) and returns those resolved now, with the row of their predecessors.
    fn propagate(
        &self,
        geo: &Geometry,
        rows: std::ops::Range<usize>,
        cells: &mut [u8],
    ) -> Vec<(u16, u32)> {
        let mut next = Vec::new();
        let mut columns = Vec::new();
        let frontier = self.frontier;
        for row in rows.clone() {
            let row_cells = &mut cells[(row - rows.start) * FREE_SETS..][..FREE_SETS];
            for &index in &frontier.indices[frontier.starts[row]..frontier.starts[row + 1]] {
                let (mover, opponent) = geo.position(index as usize);
                // Predecessors: `before` to move against `mover`, mapped by `mask` into
                // this row.
                let mask = geo.to_row[geo.rank(mover)];
                let mut update = |column: usize, before: u32| {
                    let cell = &mut row_cells[column];
                    if *cell <= COUNTED || *cell == OWN_LINE {
                        return; // resolved already
                    }
                    if self.winning {
                        // A move to a position lost at the last distance: won now.
                        *cell = self.byte;
                    } else {
                        // One more move to a won class; lost now if it was the last.
                        *cell -= 1;
                        if *cell != COUNTED {
                            return;
                        }
                        *cell = self.byte;
                    }
                    let key = geo.set_row[geo.rank(before)];
                    next.push((key, (row * FREE_SETS + column) as u32));
                };
                if mask == 1 {
                    geo.for_each_unmove(mover, opponent, |before| {
                        update(geo.rank_free(geo.row_sets[row], before), before);
                    });
                } else {
                    // `mover` has symmetries: several unmoves may reach one class, which
                    // counts once.
                    columns.clear();
                    geo.for_each_unmove(mover, opponent, |before| {
                        columns.push((geo.column_in(row, mask, before), before));
                    });
                    columns.sort_unstable_by_key(|&(column, _)| column);
                    columns.dedup_by_key(|&mut (column, _)| column);
                    for &(column, before) in &columns {
                        update(column, before);
                    }
                }
            }
        }
        next
    }
}

/// The byte of a position found at distance `plies`.
fn code(plies: u32) -> u8 {
    (plies + 1) as u8
}

fn decode(byte: u8) -> Value {
    match byte {
        0 => Value::Draw(0),
        OWN_LINE => Value::Win(0),
        _ => {
            let plies = u32::from(byte - 1);
            if plies % 2 == 1 {
                Value::Win(plies)
            } else {
                Value::Loss(plies)
            }
        }
    }
}

/// Won, lost and drawn positions for the side to move, over every placement where the
/// side to move does not itself have three in a row.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Counts {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// The longest win and the longest loss, in plies.
    pub longest_win: u32,
    pub longest_loss: u32,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.wins + self.losses + self.draws
    }
}

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
    /// Solves the game by retrograde analysis on `threads` threads (1 or more).
    pub fn build(threads: usize) -> Result<Table, String> {
        let geo = geometry();
        let threads = threads.clamp(1, 16);
        let rows = geo.rows();
        let mut cells = vec![0u8; rows * FREE_SETS];

        // Positions lost in 0, lines of the side to move, and move counters; each
        // thread fills a band of rows.
        let rows_per_band = rows.div_ceil(threads);
        let lost: Vec<Vec<(u16, u32)>> = std::thread::scope(|scope| {
            let handles: Vec<_> = cells
                .chunks_mut(rows_per_band * FREE_SETS)
                .enumerate()
                .map(|(band, band_cells)| {
                    scope.spawn(move || first_pass(geo, band * rows_per_band, band_cells))
                })
                .collect();
            handles.into_iter().map(join).collect()
        });
        let mut frontier = Frontier::from_pairs(rows, lost);

        let mut plies = 0u32;
        while !frontier.indices.is_empty() {
            let found = plies + 1;
            if found + 1 > u32::from(MAX_CODE) {
                return Err(format!("a distance of {found} plies does not fit a byte"));
            }
            let level = Level {
                frontier: &frontier,
                winning: plies.is_multiple_of(2),
                byte: code(found),
            };
            let found: Vec<Vec<(u16, u32)>> = if threads == 1 {
                vec![level.propagate(geo, 0..rows, &mut cells)]
            } else {
                let bands = frontier.bands(threads);
                std::thread::scope(|scope| {
                    let level = &level;
                    let mut rest: &mut [u8] = &mut cells;
                    let mut handles = Vec::new();
                    for pair in bands.windows(2) {
                        let (band, tail) = rest.split_at_mut((pair[1] - pair[0]) * FREE_SETS);
                        rest = tail;
                        let rows = pair[0]..pair[1];
                        handles.push(scope.spawn(move || level.propagate(geo, rows, band)));
                    }
                    handles.into_iter().map(join).collect()
                })
            };
            frontier = Frontier::from_pairs(rows, found);
            plies += 1;
        }
        for cell in &mut cells {
            if *cell > COUNTED && *cell != OWN_LINE {
                *cell = 0;
            }
        }
        Ok(Table { values: cells })
    }

    /// Solves the game by repeated forward passes over every unresolved position (pass
    /// `k` finds the wins, or the losses, in `k` plies), on `threads` threads. Much
    /// slower than [`Table::build`]; kept as a benchmark and an independent check of it.
    pub fn build_forward(threads: usize) -> Result<Table, String> {
        let geo = geometry();
        let values: Vec<AtomicU8> = (0..geo.rows() * FREE_SETS)
            .map(|_| AtomicU8::new(0))
            .collect();
        let mut open = Vec::new();
        for (index, value) in values.iter().enumerate() {
            if !geo.is_canonical(index) {
                continue;
            }
            let (mover, opponent) = geo.position(index);
            let own_line = geo.is_line(mover);
            let byte = if geo.is_line(opponent)
                || (geo.count_moves(mover, mover | opponent) == 0 && !own_line)
            {
                code(0)
            } else if own_line {
                OWN_LINE
            } else {
                open.push(index as u32);
                0
            };
            value.store(byte, Ordering::Relaxed);
        }
        let mut pass = 1u32;
        let mut quiet_passes = 0;
        // Wins appear only on odd passes and losses on even ones, so the end is two
        // passes in a row that resolve nothing.
        while quiet_passes < 2 {
            if pass + 1 > u32::from(MAX_CODE) {
                return Err(format!("a distance of {pass} plies does not fit a byte"));
            }
            let byte = code(pass);
            let winning = !pass.is_multiple_of(2);
            // A pass writes only wins (odd) or only losses (even), so reading bytes
            // written during the same pass cannot change its decisions; relaxed atomics
            // let the threads share the table.
            let solve = |part: &[u32]| -> Vec<u32> {
                let mut still = Vec::new();
                for &index in part {
                    let (mover, opponent) = geo.position(index as usize);
                    let mut any_loss = false;
                    let mut all_wins = true;
                    geo.for_each_move(mover, mover | opponent, |after| {
                        let child = values[geo.index(opponent, after)].load(Ordering::Relaxed);
                        match decode(child) {
                            Value::Loss(p) if p < pass => any_loss = true,
                            Value::Win(p) if p < pass => {}
                            _ => all_wins = false,
                        }
                    });
                    if (winning && any_loss) || (!winning && all_wins) {
                        values[index as usize].store(byte, Ordering::Relaxed);
                    } else {
                        still.push(index);
                    }
                }
                still
            };
            let chunk = open.len().div_ceil(threads.max(1)).max(1);
            let still_open: Vec<u32> = std::thread::scope(|scope| {
                let handles: Vec<_> = open
                    .chunks(chunk)
                    .map(|part| scope.spawn(|| solve(part)))
                    .collect();
                handles.into_iter().flat_map(join).collect()
            });
            quiet_passes = if still_open.len() == open.len() {
                quiet_passes + 1
            } else {
                0
            };
            open = still_open;
            pass += 1;
        }
        Ok(Table {
            values: values.into_iter().map(AtomicU8::into_inner).collect(),
        })
    }

    /// The value for the side to move with pieces `mover` against `opponent` (3 pieces
    /// each on distinct squares; `None` otherwise).
    pub fn value(&self, mover: u32, opponent: u32) -> Option<Value> {
        let valid = mover.count_ones() == 3
            && opponent.count_ones() == 3
            && mover & opponent == 0
            && (mover | opponent) >> SQUARES == 0;
        valid.then(|| decode(self.values[geometry().index(mover, opponent)]))
    }

    /// The value of a position for its side to move, ignoring repetition.
    pub fn probe(&self, position: &Neutreeko) -> Option<Value> {
        let side = position.side_to_move();
        self.value(position.pieces(side), position.pieces(side.other()))
    }

    /// Counts over every placement (see [`Counts`]).
    pub fn counts(&self) -> Counts {
        let geo = geometry();
        let mut counts = Counts::default();
        for (index, &byte) in self.values.iter().enumerate() {
            if !geo.is_canonical(index) || geo.is_line(geo.position(index).0) {
                continue;
            }
            // Each stored position stands for its whole class.
            let size = geo.class_size(index);
            match decode(byte) {
                Value::Win(n) => {
                    counts.wins += size;
                    counts.longest_win = counts.longest_win.max(n);
                }
                Value::Loss(n) => {
                    counts.losses += size;
                    counts.longest_loss = counts.longest_loss.max(n);
                }
                Value::Draw(_) => counts.draws += size,
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

    /// The value of `child` (the position after one of our moves) from the mover's
    /// point of view, with the repetition rule: `history` holds the position hashes of
    /// the game so far.
    fn move_value(&self, state: &Neutreeko, child: &Neutreeko, history: &[u64]) -> Value {
        if child.outcome() == Some(Outcome::Win(state.side_to_move())) {
            return Value::Win(1);
        }
        let seen = history.iter().filter(|&&h| h == child.hash()).count();
        if seen >= 2 {
            // The third occurrence: a draw on the spot.
            return Value::Draw(1);
        }
        match self.probe(child) {
            Some(Value::Win(n)) => Value::Loss(n + 1),
            Some(Value::Loss(n)) => Value::Win(n + 1),
            _ => Value::Draw(0),
        }
    }

    /// The replies from `child` (opponent to move) that lose for the opponent, and those
    /// that win for it, by the table.
    fn reply_counts(&self, child: &Neutreeko) -> (u32, u32) {
        let mut replies = Vec::new();
        child.generate_moves(&mut replies);
        let (mut losing, mut winning) = (0, 0);
        for reply in replies {
            let mut after = *child;
            after.play(reply);
            if after.outcome().is_some() {
                winning += 1;
                continue;
            }
            match self.probe(&after) {
                Some(Value::Win(_)) => losing += 1,
                Some(Value::Loss(_)) => winning += 1,
                _ => {}
            }
        }
        (losing, winning)
    }

    /// The best move at the root with the repetition rule: a win as fast as possible
    /// that repeats no earlier position (a repeating win only if there is no other), else
    /// a draw (preferring new positions, then the most losing replies for the opponent:
    /// traps), else the slowest loss (preferring a
    /// threefold repetition, which is a draw, then moves back to earlier positions, then
    /// the fewest winning replies for the opponent). `history` holds the hashes of the
    /// game's positions, the current one last. `None` when the game is over.
    pub fn choose(&self, state: &Neutreeko, history: &[u64]) -> Option<RootProbe<Move>> {
        if state.outcome().is_some() {
            return None;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut best: Option<(RankKey, Move, Value)> = None;
        let mut probes = 0;
        for &mv in &moves {
            let mut child = *state;
            child.play(mv);
            probes += 1;
            let value = self.move_value(state, &child, history);
            let seen = history.iter().filter(|&&h| h == child.hash()).count() as i64;
            let key = match value {
                Value::Win(n) => (4 - seen.min(1), -i64::from(n), 0, 0),
                Value::Draw(_) => {
                    let (traps, _) = self.reply_counts(&child);
                    probes += 1;
                    (2, 2 - seen.min(2), i64::from(traps), 0)
                }
                Value::Loss(n) => {
                    let (_, wins) = self.reply_counts(&child);
                    probes += 1;
                    (1, i64::from(n), seen, -i64::from(wins))
                }
            };
            if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, mv, value));
            }
        }
        let (_, mv, value) = best?;
        let mut pv = vec![mv];
        if !matches!(value, Value::Draw(_)) {
            let mut line = *state;
            line.play(mv);
            self.extend_line(line, &mut pv);
        }
        Some(RootProbe {
            best: mv,
            value,
            pv,
            nodes: probes,
            note: matches!(value, Value::Draw(_)).then(|| "tablebase draw".to_string()),
        })
    }

    /// Extends `pv` with best play (by the table, ignoring repetition) from `state` to
    /// the end of the game.
    fn extend_line(&self, mut state: Neutreeko, pv: &mut Vec<Move>) {
        let mut moves = Vec::new();
        while state.outcome().is_none() && pv.len() < 256 {
            moves.clear();
            state.generate_moves(&mut moves);
            let pick = moves.iter().copied().max_by_key(|&mv| {
                let mut child = state;
                child.play(mv);
                match self.move_value(&state, &child, &[]) {
                    Value::Win(n) => 1000 - i64::from(n),
                    Value::Draw(_) => 0,
                    Value::Loss(n) => -1000 + i64::from(n),
                }
            });
            let Some(mv) = pick else { break };
            pv.push(mv);
            state.play(mv);
        }
    }
}
