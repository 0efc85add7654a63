//! Building the table: retrograde analysis level by level (see the module doc of
//! [`super`]), and a slow forward solver that cross-checks it.

use std::sync::atomic::{AtomicU8, Ordering};

use super::index::{Geometry, geometry};
use super::*;
use crate::search::exact::byte::{self, WON, is_counter, of_plies};

/// Starts a build thread in `scope`, or says why the system refused it (the build
/// then fails, and the engine plays without the table).
fn spawn<'scope, T: Send + 'scope>(
    scope: &'scope std::thread::Scope<'scope, '_>,
    work: impl FnOnce() -> T + Send + 'scope,
) -> Result<std::thread::ScopedJoinHandle<'scope, T>, String> {
    std::thread::Builder::new()
        .name("tablebase build".to_string())
        .spawn_scoped(scope, work)
        .map_err(|why| format!("cannot start a build thread: {why}"))
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
                of_plies(0)
            } else if own_line {
                WON
            } else {
                byte::counter(moves)
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
                    if !is_counter(*cell) {
                        return; // resolved already
                    }
                    if self.winning {
                        // A move to a position lost at the last distance: won now.
                        *cell = self.byte;
                    } else {
                        // One more move to a won class; lost now if it was the last.
                        *cell -= 1;
                        if *cell != byte::COUNTER {
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

impl Table {
    /// Solves the game by retrograde analysis on `threads` threads (1 or more).
    pub fn build(threads: usize) -> Result<Table, String> {
        let geo = geometry();
        let threads = threads.clamp(1, 16);
        let rows = geo.rows();
        let size = rows * FREE_SETS;
        let mut cells = Vec::new();
        cells
            .try_reserve_exact(size)
            .map_err(|_| format!("no memory for the table ({size} bytes)"))?;
        cells.resize(size, 0u8);

        // Positions lost in 0, lines of the side to move, and move counters; each
        // thread fills a band of rows.
        let rows_per_band = rows.div_ceil(threads);
        let lost: Vec<Vec<(u16, u32)>> = std::thread::scope(|scope| {
            let handles = cells
                .chunks_mut(rows_per_band * FREE_SETS)
                .enumerate()
                .map(|(band, band_cells)| {
                    spawn(scope, move || {
                        first_pass(geo, band * rows_per_band, band_cells)
                    })
                })
                .collect::<Result<Vec<_>, _>>()?;
            Ok::<_, String>(handles.into_iter().map(join).collect())
        })?;
        let mut frontier = Frontier::from_pairs(rows, lost);

        let mut plies = 0u32;
        while !frontier.indices.is_empty() {
            let found = plies + 1;
            if found > byte::MAX_PLIES {
                return Err(format!("a distance of {found} plies does not fit a byte"));
            }
            let level = Level {
                frontier: &frontier,
                winning: plies.is_multiple_of(2),
                byte: of_plies(found),
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
                        handles.push(spawn(scope, move || level.propagate(geo, rows, band))?);
                    }
                    Ok::<_, String>(handles.into_iter().map(join).collect())
                })?
            };
            frontier = Frontier::from_pairs(rows, found);
            plies += 1;
        }
        for cell in &mut cells {
            if is_counter(*cell) {
                *cell = byte::DRAW;
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
            let first = if geo.is_line(opponent)
                || (geo.count_moves(mover, mover | opponent) == 0 && !own_line)
            {
                of_plies(0)
            } else if own_line {
                WON
            } else {
                open.push(index as u32);
                byte::DRAW
            };
            value.store(first, Ordering::Relaxed);
        }
        let mut pass = 1u32;
        let mut quiet_passes = 0;
        // Wins appear only on odd passes and losses on even ones, so the end is two
        // passes in a row that resolve nothing.
        while quiet_passes < 2 {
            if pass > byte::MAX_PLIES {
                return Err(format!("a distance of {pass} plies does not fit a byte"));
            }
            let found = of_plies(pass);
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
                        match byte::decode(child) {
                            Some(Value::Loss(p)) if p < pass => any_loss = true,
                            Some(Value::Win(p)) if p < pass => {}
                            _ => all_wins = false,
                        }
                    });
                    if (winning && any_loss) || (!winning && all_wins) {
                        values[index as usize].store(found, Ordering::Relaxed);
                    } else {
                        still.push(index);
                    }
                }
                still
            };
            let chunk = open.len().div_ceil(threads.max(1)).max(1);
            let still_open: Vec<u32> = std::thread::scope(|scope| {
                let handles = open
                    .chunks(chunk)
                    .map(|part| spawn(scope, || solve(part)))
                    .collect::<Result<Vec<_>, _>>()?;
                Ok::<_, String>(handles.into_iter().flat_map(join).collect())
            })?;
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
}
