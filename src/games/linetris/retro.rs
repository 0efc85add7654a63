//! Linetris with the row clear (`RowClear` on), solved exactly by retrograde analysis
//! on small boards: the value of every position, with the distance to the end.
//!
//! - States: every board where each column is a stack of at most `Rows` pieces, the
//!   bottom row is not full (it would have been cleared) and neither side has four in a
//!   line (a position with a line is over, so it is no state). Unreachable boards are
//!   included (the table is a superset); [`Table::reachable`] counts the reachable ones.
//! - Side to move: with an even number of columns it is the parity of the pieces on the
//!   board (a move adds one piece, a row clear takes away `Cols`, so every ply flips the
//!   parity); with an odd number it is not determined by the board and is part of the
//!   state.
//! - Index: a column of height `h` with the pieces of `x` in bits `b` is the field
//!   `2^h + b` (`Rows + 1` bits, the classic "position key" `x + mask + bottom`; 1 is
//!   the empty column, 0 is no column). A state has an empty column (its bottom row is
//!   not full), so the index numbers only boards with one: by their first empty column
//!   `c`, then the other columns' fields as the digits of a mixed-radix number (the
//!   columns left of `c` are not empty, those right of it may be), times 2 plus the
//!   side when the side is part of the state. `F^Cols − (F − 1)^Cols` boards, with
//!   `F = 2^(Rows+1) − 1` fields: 66 million for 7 × 4, where the plain concatenation
//!   of fields would have 2^32 indices. Index and position convert both ways in a few
//!   operations; the boards with a line are the indices that are no state.
//! - Values: one byte per index in the exact layer's encoding ([`byte`]): the
//!   distance in plies to the end under best play (the winner wins as fast as it can,
//!   the loser holds out as long as it can), plus one; an odd distance is a win for the
//!   side to move (it makes the last move), an even one a loss; 0 a draw,
//!   [`byte::NONE`] no state. These bytes are the whole table: [`cache`] saves them to
//!   a file.
//! - Method: positions with a winning move are wins in 1; then layer by layer, from
//!   every state of distance `d` to its predecessors (un-moves, including un-clears: a
//!   new bottom row of any colours under the board shifted up, the mover's piece alone
//!   in a column empty now): a loss makes every undecided predecessor a win in `d + 1`;
//!   a win counts down the predecessor's moves not yet known to lose, and the last one
//!   makes it a loss in `d + 1`. Positions never resolved are draws: neither side can
//!   force a win, so play goes on for ever, which the rules end by threefold
//!   repetition.
//! - The ply limit (`MaxPlies`) is left out: a value here is the value with no limit.
//!   A win in `d` plies is still a win under a limit only if the limit leaves `d` plies.
//! - Mirror symmetry is not used to save work: the table keeps both halves, and that
//!   they agree is a check (see the tests).

pub mod cache;

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};

use super::bits::Geometry;
use super::{Config, Linetris, Move, Rules};
use crate::game::{Game, Outcome, Player, Value};
use crate::search::exact::Counts;
use crate::search::exact::byte::{self, NONE};

/// The byte of an undecided state (a draw once the build is done).
const UNDECIDED: u8 = byte::DRAW;

/// A position of the table: the pieces of `[x, o]` and the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub pieces: [u64; 2],
    pub side: Player,
}

/// What a move from a position leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Child {
    /// The mover made four in a line.
    Won,
    /// The game goes on here.
    Pos(Pos),
}

/// The index of a board size (see the module doc): boards with an empty column, by
/// their first empty column, then the other columns' fields in mixed radix.
#[derive(Clone, Debug)]
struct Layout {
    geo: Geometry<u64>,
    /// Whether the side to move is part of the index (odd number of columns).
    with_side: bool,
    /// `offset[c]`: the first board (before the side bit) whose first empty column is
    /// `c`; `offset[cols]` is the number of boards.
    offset: Vec<u64>,
    /// `weight[c * cols + j]`: the weight of column `j`'s digit when `c` is the first
    /// empty column (0 for `j == c`).
    weight: Vec<u64>,
}

impl Layout {
    /// The layout of a board, or `None` when its index would not fit 32 bits or its
    /// bitboard 64.
    fn new(rows: u32, cols: u32) -> Option<Layout> {
        if rows == 0 || cols == 0 || (rows + 1) * cols > 64 {
            return None;
        }
        let fields = (1u64 << (rows + 1)) - 1;
        let with_side = cols % 2 == 1;
        let mut offset = vec![0u64];
        let mut weight = vec![0u64; (cols * cols) as usize];
        for c in 0..cols {
            let mut w: u64 = 1;
            for j in 0..cols {
                let radix = match j.cmp(&c) {
                    std::cmp::Ordering::Less => fields - 1,
                    std::cmp::Ordering::Equal => continue,
                    std::cmp::Ordering::Greater => fields,
                };
                weight[(c * cols + j) as usize] = w;
                w = w.checked_mul(radix)?;
            }
            let last = offset[c as usize];
            offset.push(last.checked_add(w)?);
        }
        let boards = offset[cols as usize];
        let entries = boards.checked_mul(1 + u64::from(with_side))?;
        if entries > 1 << 32 {
            return None;
        }
        Some(Layout {
            geo: Geometry::<u64>::new(rows, cols),
            with_side,
            offset,
            weight,
        })
    }

    fn entries(&self) -> usize {
        let boards = self.offset[self.geo.cols as usize] as usize;
        if self.with_side { 2 * boards } else { boards }
    }

    /// The index of a position; `None` when its bottom row is full.
    #[inline]
    fn index(&self, pos: &Pos) -> Option<usize> {
        let geo = &self.geo;
        let mask = pos.pieces[0] | pos.pieces[1];
        let key = pos.pieces[0] + mask + geo.bottom;
        let width = geo.rows + 1;
        let field_mask = (1u64 << width) - 1;
        let cols = geo.cols;
        // The first empty column: its field is 1.
        let c = (0..cols).find(|&j| (key >> (j * width)) & field_mask == 1)?;
        let weights = &self.weight[(c * cols) as usize..((c + 1) * cols) as usize];
        let mut board = self.offset[c as usize];
        for (j, &w) in weights.iter().enumerate() {
            let field = (key >> (j as u32 * width)) & field_mask;
            // Left of `c` the fields run from 2 (not empty), right of it from 1.
            let digit = match (j as u32).cmp(&c) {
                std::cmp::Ordering::Less => field - 2,
                std::cmp::Ordering::Equal => continue,
                std::cmp::Ordering::Greater => field - 1,
            };
            board += digit * w;
        }
        let board = board as usize;
        Some(if self.with_side {
            board << 1 | pos.side.index()
        } else {
            board
        })
    }

    /// The position of an index, if it is a state.
    fn decode(&self, index: usize) -> Option<Pos> {
        if index >= self.entries() {
            return None;
        }
        let (board, side_bit) = if self.with_side {
            (index as u64 >> 1, index & 1)
        } else {
            (index as u64, 0)
        };
        let cols = self.geo.cols;
        let c = (0..cols)
            .rev()
            .find(|&c| self.offset[c as usize] <= board)?;
        let fields = (1u64 << (self.geo.rows + 1)) - 1;
        let mut rest = board - self.offset[c as usize];
        let mut key = 0u64;
        let width = self.geo.rows + 1;
        for j in 0..cols {
            let field = match j.cmp(&c) {
                std::cmp::Ordering::Less => {
                    let digit = rest % (fields - 1);
                    rest /= fields - 1;
                    digit + 2
                }
                std::cmp::Ordering::Equal => 1,
                std::cmp::Ordering::Greater => {
                    let digit = rest % fields;
                    rest /= fields;
                    digit + 1
                }
            };
            key |= field << (j * width);
        }
        self.pos_of_key(key, side_bit)
    }

    /// The position of a key (every field not zero, one of them empty), if a state.
    #[inline]
    fn pos_of_key(&self, key: u64, side_bit: usize) -> Option<Pos> {
        let geo = &self.geo;
        let width = geo.rows + 1;
        let field_mask = (1u64 << width) - 1;
        let (mut x, mut mask) = (0u64, 0u64);
        for col in 0..geo.cols {
            let field = (key >> (col * width)) & field_mask;
            let height = 63 - field.leading_zeros();
            let below = (1u64 << height) - 1;
            x |= (field & below) << (col * width);
            mask |= below << (col * width);
        }
        let o = mask ^ x;
        if geo.has_four(x) || geo.has_four(o) {
            return None;
        }
        let side = if self.with_side {
            side_bit
        } else {
            mask.count_ones() as usize % 2
        };
        Some(Pos {
            pieces: [x, o],
            side: if side == 0 { Player::P1 } else { Player::P2 },
        })
    }

    /// Calls `f` with every index in order and its position when it is a state, going
    /// through the digits like an odometer (no division per index), until `f` breaks.
    fn for_each(
        &self,
        mut f: impl FnMut(usize, Option<Pos>) -> ControlFlow<()>,
    ) -> ControlFlow<()> {
        let cols = self.geo.cols as usize;
        let width = self.geo.rows + 1;
        let fields = (1u64 << width) - 1;
        let mut index = 0usize;
        for c in 0..cols {
            // Fields of every column; column `c` stays empty.
            let mut field: Vec<u64> = (0..cols)
                .map(|j| match j.cmp(&c) {
                    std::cmp::Ordering::Less => 2,
                    _ => 1,
                })
                .collect();
            let count = self.offset[c + 1] - self.offset[c];
            for _ in 0..count {
                let key = field
                    .iter()
                    .enumerate()
                    .fold(0u64, |key, (j, &f)| key | f << (j as u32 * width));
                if self.with_side {
                    f(index, self.pos_of_key(key, 0))?;
                    f(index + 1, self.pos_of_key(key, 1))?;
                    index += 2;
                } else {
                    f(index, self.pos_of_key(key, 0))?;
                    index += 1;
                }
                // The next board: the lowest column other than `c` counts up, carrying.
                for (j, f) in field.iter_mut().enumerate() {
                    if j == c {
                        continue;
                    }
                    if *f < fields {
                        *f += 1;
                        break;
                    }
                    *f = if j < c { 2 } else { 1 };
                }
            }
        }
        ControlFlow::Continue(())
    }
}

/// The table of one board size.
pub struct Table {
    layout: Layout,
    /// The value bytes ([`byte`]), by index.
    dist: Vec<u8>,
    /// The highest distance found in plies (the number of layers).
    pub max_dist: u8,
}

/// Whether a board has a table: an index of at most 2^32 entries and a 64-bit
/// bitboard. Every board up to 7 × 4, 4 × 6 and 5 × 5 fits (and 8 × 4 and 6 × 5, which
/// have not been built).
pub fn fits(rows: u32, cols: u32) -> bool {
    Layout::new(rows, cols).is_some()
}

/// Entries of a board's table (a byte each), boards that are no state included; 0
/// when it does not [`fit`](fits).
pub fn entries(rows: u32, cols: u32) -> u64 {
    Layout::new(rows, cols).map_or(0, |layout| layout.entries() as u64)
}

/// Bytes the build needs for a board (distances and move counters, a byte each).
pub fn build_bytes(rows: u32, cols: u32) -> u64 {
    2 * entries(rows, cols)
}

/// `n` bytes of `value`, or `None` (logged) when the system refuses the memory: a
/// table that does not fit is no table, not an abort.
fn filled(n: usize, value: u8) -> Option<Vec<u8>> {
    crate::memory::try_filled("linetris retrograde table", n, value)
}

impl Table {
    /// Builds the table of a `rows` × `cols` board. Needs [`build_bytes`] of memory.
    pub fn build(rows: u32, cols: u32) -> Table {
        Self::build_until(rows, cols, &AtomicBool::new(false))
            .expect("a build that is never cancelled ends")
    }

    /// Builds the table, or gives up (`None`) soon after `cancel` is set: between
    /// layers (a second at most on the largest boards), and every million indices of
    /// the first scan; or at once when the system refuses the memory (logged).
    pub fn build_until(rows: u32, cols: u32, cancel: &AtomicBool) -> Option<Table> {
        let layout = Layout::new(rows, cols).expect("board too large for the retrograde table");
        let geo = layout.geo;
        let n = layout.entries();
        let mut dist = filled(n, NONE)?;
        // Moves not yet known to lose, per undecided state.
        let mut open = filled(n, 0u8)?;
        // The states of the current distance (indices fit 32 bits: see `fits`).
        let mut layer: Vec<u32> = Vec::new();
        // The system refused memory for a layer: no table rather than an abort.
        let mut refused = false;
        let scanned = layout.for_each(|index, pos| {
            if index % (1 << 20) == 0 && cancel.load(Ordering::Relaxed) {
                return ControlFlow::Break(());
            }
            let Some(pos) = pos else {
                return ControlFlow::Continue(());
            };
            let mask = pos.pieces[0] | pos.pieces[1];
            let own = pos.pieces[pos.side.index()];
            let playable = geo.playable(mask);
            if geo.winning_cells(own, mask) & playable != 0 {
                dist[index] = byte::of_plies(1);
                if layer.try_reserve(1).is_err() {
                    refused = true;
                    return ControlFlow::Break(());
                }
                layer.push(index as u32);
            } else {
                dist[index] = UNDECIDED;
                open[index] = playable.count_ones() as u8;
            }
            ControlFlow::Continue(())
        });
        if scanned.is_break() {
            if refused {
                log::warn!("linetris retrograde table: no memory for the first layer");
            }
            return None;
        }
        let mut d: u8 = 1;
        let mut max_dist = 0;
        while !layer.is_empty() {
            if cancel.load(Ordering::Relaxed) {
                return None;
            }
            if u32::from(d) >= byte::MAX_PLIES {
                log::warn!("linetris retrograde table: distances beyond a byte's");
                return None;
            }
            max_dist = d;
            let mut next = Vec::new();
            for &index in &layer {
                let pos = layout
                    .decode(index as usize)
                    .expect("a decided index is a state");
                table_parents(&layout, pos, |parent| {
                    if dist[parent] != UNDECIDED {
                        return;
                    }
                    let decided = if d.is_multiple_of(2) {
                        true
                    } else {
                        open[parent] -= 1;
                        open[parent] == 0
                    };
                    if decided {
                        if next.try_reserve(1).is_err() {
                            refused = true;
                            return;
                        }
                        dist[parent] = byte::of_plies(u32::from(d) + 1);
                        next.push(parent as u32);
                    }
                });
                if refused {
                    log::warn!("linetris retrograde table: no memory for layer {}", d + 1);
                    return None;
                }
            }
            layer = next;
            d += 1;
        }
        Some(Table {
            layout,
            dist,
            max_dist,
        })
    }

    /// A table from its bytes (as [`Table::bytes`] gave them), or why they are not one:
    /// the wrong number, or a byte that is no value of a state (a build's counter, or
    /// [`byte::WON`]: no state is won already). Whether the bytes are the right ones is
    /// the caller's business (the cache file's checksum).
    pub fn from_bytes(rows: u32, cols: u32, dist: Vec<u8>) -> Result<Table, String> {
        let layout = Layout::new(rows, cols)
            .ok_or_else(|| format!("{rows} x {cols} is too large for the table"))?;
        if dist.len() != layout.entries() {
            return Err(format!(
                "{} entries where {rows} x {cols} has {}",
                dist.len(),
                layout.entries()
            ));
        }
        let mut max_dist = 0;
        for (index, &b) in dist.iter().enumerate() {
            match byte::decode(b) {
                _ if b == NONE => {}
                Some(Value::Win(0)) | None => {
                    return Err(format!("byte {b} at index {index} is no distance"));
                }
                Some(value) => max_dist = max_dist.max(value.plies()),
            }
        }
        let max_dist = max_dist as u8;
        Ok(Table {
            layout,
            dist,
            max_dist,
        })
    }

    /// The table's bytes, one per index (see the module doc).
    pub fn bytes(&self) -> &[u8] {
        &self.dist
    }

    pub fn rows(&self) -> u32 {
        self.layout.geo.rows
    }

    pub fn cols(&self) -> u32 {
        self.layout.geo.cols
    }

    /// Entries of the table (boards that are no state included).
    pub fn len(&self) -> usize {
        self.dist.len()
    }

    pub fn is_empty(&self) -> bool {
        self.dist.is_empty()
    }

    /// The index of a position (a state, or at least a board with an empty column).
    pub fn index(&self, pos: &Pos) -> usize {
        self.layout
            .index(pos)
            .expect("a position of the table has an empty column")
    }

    /// The position of an index, if it is a state (see the module doc).
    pub fn decode(&self, index: usize) -> Option<Pos> {
        self.layout.decode(index)
    }

    /// The position of a Linetris state, if this table's board and not over.
    pub fn pos_of(&self, state: &Linetris) -> Option<Pos> {
        if state.rows() != self.rows() || state.cols() != self.cols() || !state.rules.row_clear {
            return None;
        }
        let pos = Pos {
            pieces: [state.pieces[0] as u64, state.pieces[1] as u64],
            side: state.side,
        };
        // Stacks without holes, pieces on distinct cells, and with an even number of
        // columns the side that the pieces' parity says: then the index is this
        // position's alone. A position that is over is no state.
        let geo = &self.layout.geo;
        let mask = pos.pieces[0] | pos.pieces[1];
        let stacked = mask & !geo.board == 0 && (mask + geo.bottom) & mask == 0;
        let parity_ok = self.layout.with_side || mask.count_ones() as usize % 2 == pos.side.index();
        if !stacked || pos.pieces[0] & pos.pieces[1] != 0 || !parity_ok {
            return None;
        }
        let index = self.layout.index(&pos)?;
        (self.dist[index] != NONE).then_some(pos)
    }

    /// The Linetris state of a position (ply 0, no ply limit).
    pub fn state_of(&self, pos: &Pos) -> Linetris {
        let config = Config {
            rows: self.rows(),
            cols: self.cols(),
            row_clear: true,
            max_plies: 0,
        };
        let mut rules = Rules::new(&config, self.rows(), self.cols());
        rules.limit = u32::MAX;
        Linetris {
            pieces: [u128::from(pos.pieces[0]), u128::from(pos.pieces[1])],
            side: pos.side,
            plies: 0,
            rules,
        }
    }

    /// The value of an index, if it is a state.
    pub fn value_at(&self, index: usize) -> Option<Value> {
        byte::decode(self.dist[index])
    }

    /// The value of a position for its side to move.
    pub fn value(&self, pos: &Pos) -> Value {
        byte::decode(self.dist[self.index(pos)]).unwrap_or(Value::Draw(0))
    }

    /// The value of a Linetris state (RowClear on, this board, not over).
    pub fn probe(&self, state: &Linetris) -> Option<Value> {
        self.pos_of(state).map(|pos| self.value(&pos))
    }

    /// The start position.
    pub fn start(&self) -> Pos {
        Pos {
            pieces: [0, 0],
            side: Player::P1,
        }
    }

    /// The moves of a position and what each leads to.
    pub fn children(&self, pos: &Pos) -> Vec<(Move, Child)> {
        children(&self.layout.geo, pos)
    }

    /// The best move of a position: the fastest win, else a draw, else the slowest
    /// loss; ties to the leftmost column. `None` when no move is left.
    pub fn best(&self, pos: &Pos) -> Option<(Move, Value)> {
        let mut best: Option<(Move, Value)> = None;
        for (mv, child) in self.children(pos) {
            let value = match child {
                Child::Won => Value::Win(1),
                Child::Pos(next) => self.value(&next).parent(),
            };
            if best.is_none_or(|(_, b)| value.score() > b.score()) {
                best = Some((mv, value));
            }
        }
        best
    }

    /// The best play from a position until the end, or `limit` plies for a draw.
    pub fn line(&self, pos: &Pos, limit: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut pos = *pos;
        while line.len() < limit {
            let Some((mv, _)) = self.best(&pos) else {
                break;
            };
            line.push(mv);
            let next = self
                .children(&pos)
                .into_iter()
                .find(|(m, _)| *m == mv)
                .map(|(_, child)| child);
            match next {
                Some(Child::Pos(next)) => pos = next,
                _ => break,
            }
        }
        line
    }

    /// Checks every state's value against its children's by the engine's own rules
    /// (`Linetris::play`, not the table's move code): a win in d has a move that wins
    /// at once or leads to a loss in d − 1, and none shorter; a loss in d has only
    /// moves to wins, the longest in d − 1; a draw has no move to a loss and not only
    /// moves to wins. With the distances this proves the table, by induction on them.
    /// The number of states checked, or the first that fails and why.
    pub fn check(&self) -> Result<u64, String> {
        let mut checked = 0;
        let mut moves = Vec::new();
        for index in 0..self.len() {
            let Some(value) = self.value_at(index) else {
                continue;
            };
            let pos = self
                .decode(index)
                .filter(|pos| self.index(pos) == index)
                .ok_or_else(|| format!("index {index}: a value, but not a state's index"))?;
            let state = self.state_of(&pos);
            if state.outcome().is_some() {
                return Err(format!("index {index}: {} is over", state.fen()));
            }
            moves.clear();
            state.generate_moves(&mut moves);
            let mut best: Option<Value> = None;
            for &mv in &moves {
                let mut next = state;
                next.play(mv);
                let child = match next.outcome() {
                    Some(Outcome::Win(p)) if p == state.side => Value::Win(1),
                    Some(_) => return Err(format!("{}: the mover did not win", next.fen())),
                    None => self
                        .probe(&next)
                        .ok_or_else(|| format!("{}: a child that is no state", next.fen()))?
                        .parent(),
                };
                if best.is_none_or(|b| child.score() > b.score()) {
                    best = Some(child);
                }
            }
            if best != Some(value) {
                return Err(format!(
                    "index {index} ({}): {value:?} in the table, {best:?} by its moves",
                    state.fen()
                ));
            }
            checked += 1;
        }
        Ok(checked)
    }

    /// W/L/D counts over every state of the table.
    pub fn counts(&self) -> Counts {
        let mut counts = Counts::default();
        for &b in &self.dist {
            counts.add_byte(b);
        }
        counts
    }

    /// W/L/D counts over the states reachable from the start position.
    pub fn reachable(&self) -> Counts {
        let mut seen = vec![0u64; self.dist.len().div_ceil(64)];
        let mut stack = vec![self.index(&self.start())];
        seen[stack[0] / 64] |= 1 << (stack[0] % 64);
        let mut counts = Counts::default();
        while let Some(index) = stack.pop() {
            counts.add_byte(self.dist[index]);
            let pos = self.decode(index).expect("a reachable index is a state");
            for (_, child) in self.children(&pos) {
                if let Child::Pos(next) = child {
                    let i = self.index(&next);
                    if seen[i / 64] & (1 << (i % 64)) == 0 {
                        seen[i / 64] |= 1 << (i % 64);
                        stack.push(i);
                    }
                }
            }
        }
        counts
    }

    /// The mirror image of a position (columns reversed).
    pub fn mirror(&self, pos: &Pos) -> Pos {
        Pos {
            pieces: pos.pieces.map(|p| self.layout.geo.mirror(p)),
            side: pos.side,
        }
    }

    /// The predecessors of a position: the indices of every state with a move to it.
    pub fn parents(&self, pos: &Pos) -> Vec<usize> {
        let mut out = Vec::new();
        table_parents(&self.layout, *pos, |i| out.push(i));
        out
    }
}

/// The moves of a position, in column order, and where each leads (as `Linetris::play`).
fn children(geo: &Geometry<u64>, pos: &Pos) -> Vec<(Move, Child)> {
    let mask = pos.pieces[0] | pos.pieces[1];
    let me = pos.side.index();
    let mut out = Vec::with_capacity(geo.cols as usize);
    for col in 0..geo.cols {
        let cell = geo.drop_cell(mask, col);
        if cell == 0 {
            continue;
        }
        let mut pieces = pos.pieces;
        pieces[me] |= cell;
        let child = if geo.has_four(pieces[me]) {
            Child::Won
        } else {
            if (mask | cell) & geo.bottom == geo.bottom {
                pieces = pieces.map(|p| (p >> 1) & geo.board);
            }
            Child::Pos(Pos {
                pieces,
                side: pos.side.other(),
            })
        };
        out.push((Move(col as u8), child));
    }
    out
}

/// Calls `f` with the index of every state that has a move leading to `pos` (each
/// once: two moves of one position never lead to the same board).
fn table_parents(layout: &Layout, pos: Pos, mut f: impl FnMut(usize)) {
    let geo = &layout.geo;
    let mover = pos.side.other();
    let (m, o) = (mover.index(), pos.side.index());
    let mask = pos.pieces[0] | pos.pieces[1];
    let mut parent = |pieces: [u64; 2]| {
        let parent = Pos {
            pieces,
            side: mover,
        };
        // A parent's bottom row is not full: the un-move empties a cell of it or
        // leaves it as the child's.
        f(layout.index(&parent).expect("a parent has an empty column"))
    };
    // Moves without a clear: take back the mover's piece on top of a column.
    for col in 0..geo.cols {
        let column = mask & geo.column(col);
        if column == 0 {
            continue;
        }
        let top = 1u64 << (63 - column.leading_zeros());
        if pos.pieces[m] & top != 0 {
            let mut pieces = pos.pieces;
            pieces[m] ^= top;
            parent(pieces);
        }
    }
    // Moves that cleared a row: the board came from one a row higher, over a full
    // bottom row whose last piece was the mover's, dropped into a column empty now.
    if mask & geo.top != 0 {
        return;
    }
    let shifted = pos.pieces.map(|p| p << 1);
    for col in 0..geo.cols {
        if mask & geo.column(col) != 0 {
            continue;
        }
        let dropped = geo.bottom_of(col);
        let others = geo.bottom ^ dropped;
        let mut mine = others;
        loop {
            let mut full = [0u64; 2];
            full[m] = shifted[m] | dropped | mine;
            full[o] = shifted[o] | (others ^ mine);
            // The mover did not win by the drop, and the position before it had no line.
            if !geo.has_four(full[m]) && !geo.has_four(full[o]) {
                let mut pieces = full;
                pieces[m] ^= dropped;
                parent(pieces);
            }
            if mine == 0 {
                break;
            }
            mine = (mine - 1) & others;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::OnceLock;

    fn table_4x4() -> &'static Table {
        static TABLE: OnceLock<Table> = OnceLock::new();
        TABLE.get_or_init(|| Table::build(4, 4))
    }

    /// The index and the position convert both ways, the odometer walk agrees with
    /// `decode`, and every board with an empty column and no line is a state.
    #[test]
    fn index_and_decode_are_inverse() {
        for (rows, cols) in [(4, 4), (4, 5), (5, 4)] {
            let layout = Layout::new(rows, cols).unwrap();
            let fields = (1u64 << (rows + 1)) - 1;
            let boards = fields.pow(cols) - (fields - 1).pow(cols);
            let sides = if cols % 2 == 1 { 2 } else { 1 };
            assert_eq!(layout.entries() as u64, boards * sides);
            let mut walked = 0;
            let walk = layout.for_each(|index, pos| {
                assert_eq!(index, walked);
                walked += 1;
                assert_eq!(pos, layout.decode(index));
                if let Some(pos) = pos {
                    assert_eq!(layout.index(&pos), Some(index));
                }
                ControlFlow::Continue(())
            });
            assert!(walk.is_continue());
            assert_eq!(walked, layout.entries());
            assert_eq!(layout.decode(layout.entries()), None);
        }
        // A full bottom row has no index.
        let layout = Layout::new(4, 4).unwrap();
        let full = Pos {
            pieces: [layout.geo.bottom, 0],
            side: Player::P1,
        };
        assert_eq!(layout.index(&full), None);
    }

    #[test]
    fn a_cancelled_build_gives_up() {
        assert!(Table::build_until(4, 4, &AtomicBool::new(true)).is_none());
        assert!(Table::build_until(4, 4, &AtomicBool::new(false)).is_some());
    }

    /// The published counts (docs/solved.md).
    #[test]
    fn four_by_four_counts() {
        let counts = table_4x4().counts();
        assert_eq!(
            (counts.wins, counts.losses, counts.draws),
            (54_854, 37_771, 0)
        );
        let reachable = table_4x4().reachable();
        assert_eq!(
            (reachable.wins, reachable.losses, reachable.draws),
            (46_132, 32_775, 0)
        );
        assert_eq!(table_4x4().max_dist, 40);
        assert_eq!(table_4x4().value(&table_4x4().start()), Value::Loss(22));
    }

    #[test]
    fn four_by_four_is_consistent_with_the_rules() {
        let table = table_4x4();
        assert_eq!(table.check(), Ok(table.counts().total()));
    }

    /// The check finds a value its children contradict.
    #[test]
    fn the_check_finds_a_wrong_value() {
        let table = table_4x4();
        let mut bytes = table.bytes().to_vec();
        bytes[table.index(&table.start())] = byte::encode(Value::Loss(20)).unwrap();
        let doctored = Table::from_bytes(4, 4, bytes).unwrap();
        let why = doctored.check().unwrap_err();
        assert!(
            why.contains("Loss(20) in the table, Some(Loss(22))"),
            "{why}"
        );
    }

    #[test]
    fn four_by_four_start() {
        let table = table_4x4();
        let counts = table.counts();
        assert_eq!(
            counts.total(),
            (0..table.len()).filter_map(|i| table.decode(i)).count() as u64
        );
        let reachable = table.reachable();
        assert!(reachable.total() <= counts.total());
        // The table's value of the start agrees with its best move.
        let start = table.start();
        let (_, best) = table.best(&start).unwrap();
        assert_eq!(best, table.value(&start));
    }

    #[test]
    fn mirror_images_have_equal_values() {
        let table = table_4x4();
        for index in 0..table.len() {
            if let Some(pos) = table.decode(index) {
                assert_eq!(
                    table.value_at(table.index(&table.mirror(&pos))),
                    table.value_at(index)
                );
            }
        }
    }

    /// Predecessors and moves are inverse: `p` is a parent of `s` exactly when a move of
    /// `p` leads to `s`.
    #[test]
    fn parents_are_the_inverse_of_moves() {
        let table = table_4x4();
        let mut edges = 0u64;
        let mut back = 0u64;
        for index in 0..table.len() {
            let Some(pos) = table.decode(index) else {
                continue;
            };
            for (_, child) in table.children(&pos) {
                if let Child::Pos(next) = child {
                    edges += 1;
                    assert_eq!(table.decode(table.index(&next)), Some(next));
                    assert!(table.parents(&next).contains(&index));
                }
            }
            for parent in table.parents(&pos) {
                back += 1;
                let p = table.decode(parent).expect("a parent is a state");
                assert!(
                    table
                        .children(&p)
                        .iter()
                        .any(|(_, c)| *c == Child::Pos(pos))
                );
            }
        }
        assert_eq!(edges, back);
    }

    /// Plain depth-limited minimax by the engine's rules: the exact value when some side
    /// forces a win within `depth` plies, else `None`. Knows nothing of the table.
    fn minimax(state: &Linetris, depth: u32) -> Option<Value> {
        if depth == 0 {
            return None;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut win: Option<u32> = None;
        let mut longest_loss = 0;
        let mut unknown = false;
        for mv in moves {
            let mut next = *state;
            next.play(mv);
            if next.outcome().is_some() {
                return Some(Value::Win(1));
            }
            match minimax(&next, depth - 1) {
                Some(Value::Loss(d)) => win = Some(win.map_or(d + 1, |w| w.min(d + 1))),
                Some(Value::Win(d)) => longest_loss = longest_loss.max(d + 1),
                _ => unknown = true,
            }
        }
        match win {
            Some(d) => Some(Value::Win(d)),
            None if !unknown => Some(Value::Loss(longest_loss)),
            None => None,
        }
    }

    /// Samples states of each kind (win or loss within `depth` plies, longer, draw) and
    /// checks them against plain minimax; the start too.
    fn agrees_with_minimax(table: &Table, depth: u32, per_kind: u32) -> [u32; 4] {
        let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut checked = [0u32; 4];
        for _ in 0..4_000_000 {
            if checked.iter().all(|&c| c >= per_kind) {
                break;
            }
            seed = seed
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let index = (seed >> 20) as usize % table.len();
            let Some(pos) = table.decode(index) else {
                continue;
            };
            let value = table.value(&pos);
            let (kind, expected) = match value {
                Value::Draw(_) => (3, None),
                v if v.plies() > depth => (2, None),
                Value::Win(_) => (0, Some(value)),
                _ => (1, Some(value)),
            };
            if checked[kind] >= per_kind {
                continue;
            }
            checked[kind] += 1;
            let state = table.state_of(&pos);
            assert_eq!(minimax(&state, depth), expected, "{}", state.fen());
        }
        // And the start, from the engine's own start position.
        let config = Config {
            rows: table.rows(),
            cols: table.cols(),
            row_clear: true,
            max_plies: 0,
        };
        let start = Linetris::start(&config).without_ply_limit();
        let value = table.probe(&start).unwrap();
        let expected = if matches!(value, Value::Draw(_)) || value.plies() > depth {
            None
        } else {
            Some(value)
        };
        assert_eq!(minimax(&start, depth), expected);
        checked
    }

    #[test]
    fn four_by_four_agrees_with_minimax() {
        // 4 x 4 has no draws at all (every state is decided).
        let table = table_4x4();
        assert_eq!(table.counts().draws, 0);
        assert_eq!(agrees_with_minimax(table, 7, 200), [200, 200, 200, 0]);
    }

    /// 4 x 5: an odd number of columns (the side to move is part of the state), and draws.
    #[test]
    fn four_by_five_is_consistent_and_agrees_with_minimax() {
        let table = Table::build(4, 5);
        let counts = table.counts();
        assert_eq!(
            (counts.wins, counts.losses, counts.draws),
            (3_308_548, 1_468_318, 1_051_176)
        );
        assert_eq!(table.check(), Ok(counts.total()));
        assert_eq!(agrees_with_minimax(&table, 6, 50), [50; 4]);
    }
}
