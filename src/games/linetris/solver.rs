//! An exact Connect Four solver (Linetris with `RowClear` off), after Pascal Pons'
//! well-known solver, for any board up to 10×10 and tuned for 6×7.
//!
//! - Scores: with `e` empty cells, a side to move that wins by its move played when
//!   `e_w` cells are empty scores `(e_w + 1) / 2` (earlier wins score higher), a loss
//!   scores the opponent's score negated, a draw (full board) 0. On 6×7 this is the
//!   usual "22 minus the winner's stones". [`score_to_value`] turns a score into plies.
//! - Negamax with alpha-beta, driven by null-window searches that bisect the score
//!   range (biased towards 0) until it is exact.
//! - Pruning: the side to move never gets a node where it wins at once (the parent
//!   checks); a node only plays *non-losing* moves: if the opponent has a playable
//!   winning cell it must block it (two: lost), and it never plays right under an
//!   opponent's winning cell. No such move: lost. Two or fewer empty cells left: drawn.
//! - Bounds: the score lies within what the empty cells allow, and a transposition
//!   table stores upper and lower bounds.
//! - Transposition table: 8,388,593 entries (a prime near 2^23); the key of a position
//!   is `own + mask` (unique for the column-major layout); an entry keeps only the key's
//!   low 32 bits and the bound in one byte: the index (key mod the prime) and the
//!   stored bits determine the key exactly for keys below 2^55, so the table never
//!   confuses positions on boards of up to 55 bits (6×7 takes 49). Larger boards use
//!   `u128` boards, 2,097,143 entries and 64 stored bits: exact up to 85 bits (8×9,
//!   9×8); beyond that (10×10 is 110 bits) a confusion needs two positions that agree
//!   on 85 bits of their keys, and the solver could not finish such boards anyway.
//! - A second, small table (65,521 entries, whole keys) takes the positions with few
//!   empty cells: their subtrees are cheap, and a table that fits the cache saves the
//!   memory misses that dominate short solves. It also takes every position during
//!   the first 131,072 nodes of a solve (its *small phase*): most solves of early
//!   positions that end soon (Pons' `Test_L1_R1`) never need more, and would otherwise
//!   pay a main-table miss at every node. A solve that goes on moves the small table's
//!   positions with more empty cells to the main table and carries on as before.
//! - Symmetry: deep enough in the tree (many empty cells) the key is that of the
//!   position or its mirror image, whichever is smaller, and a symmetric position
//!   only tries the moves of its left half.
//! - Move ordering: by the number of winning cells the move creates for the mover,
//!   ties centre first.
//! - Opening book ([`super::book`]): [`Solver::new`] takes the built-in book of its
//!   board, if any, and returns the book's exact score at a position of the book's ply
//!   instead of searching it. Each book hit counts as one node, like any visited
//!   position. [`Solver::without_book`] never uses one (the book's generator, tests).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::bits::{Bits, Geometry};
use super::book::{self, Book};
use crate::game::Value;

/// Whether a board fits the `u64` solver (key bits low enough for 32-bit entries).
pub fn fits_u64(rows: u32, cols: u32) -> bool {
    cols * (rows + 1) <= 55
}

/// Entries of the transposition table: a prime near 2^23 (42 MB of 5-byte entries).
pub const TABLE_SIZE: u64 = 8_388_593;
/// The same for boards that need 128 bits (9-byte entries; 19 MB): a prime near 2^21.
pub const LARGE_TABLE_SIZE: u64 = 2_097_143;

/// The value of a score for a side to move with `empties` empty cells, in plies.
pub fn score_to_value(score: i32, empties: u32) -> Value {
    let e = empties as i32;
    // The move that ends the game is played with `e_w` cells empty, where
    // (e_w + 1) / 2 == |score| and e_w has the parity of the player who makes it.
    let last_move = |magnitude: i32, parity: i32| {
        let low = 2 * magnitude - 1;
        if low.rem_euclid(2) == parity.rem_euclid(2) {
            low
        } else {
            low + 1
        }
    };
    match score.signum() {
        1 => Value::Win((e - last_move(score, e) + 1) as u32),
        -1 => Value::Loss((e - last_move(-score, e + 1) + 1) as u32),
        _ => Value::Draw(empties),
    }
}

/// The score of a value for a side to move with `empties` empty cells.
pub fn value_to_score(value: Value, empties: u32) -> i32 {
    let e = empties as i32;
    match value {
        Value::Win(plies) => (e - plies as i32 + 2) / 2,
        Value::Loss(plies) => -((e - plies as i32 + 2) / 2),
        Value::Draw(_) => 0,
    }
}

#[repr(C, packed)]
#[derive(Clone, Copy, Default)]
struct Entry<K: Copy + Default> {
    key: K,
    /// 0: empty; otherwise a bound, encoded by the solver.
    value: u8,
}

/// A transposition table that remembers which entries it wrote, so that clearing
/// it after a small search costs little.
struct Table<K: Copy + Default> {
    entries: Vec<Entry<K>>,
    /// A prime: the number of entries.
    size: u64,
    touched: Vec<u32>,
    /// Too many writes to track: the next clear wipes everything.
    overflow: bool,
}

impl<K: Copy + Default + Eq> Table<K> {
    /// `None` when the system refuses the memory.
    fn try_new(size: u64) -> Option<Self> {
        let mut entries = crate::memory::try_filled(
            "connect four solver table",
            size as usize,
            Entry::default(),
        )?;
        // The zeroed allocation maps its pages on first write: write one entry of each
        // page now, so that no solve pays for the page faults (the table is made before
        // `readyok`).
        let per_page = (4096 / size_of::<Entry<K>>()).max(1);
        for index in (0..entries.len()).step_by(per_page) {
            entries[index] = std::hint::black_box(Entry::default());
        }
        Some(Table {
            entries,
            size,
            touched: Vec::new(),
            overflow: false,
        })
    }

    #[inline(always)]
    fn get(&self, index: usize, key: K) -> u8 {
        let entry = self.entries[index];
        let stored = entry.key;
        if stored == key { entry.value } else { 0 }
    }

    #[inline(always)]
    fn put(&mut self, index: usize, key: K, value: u8) {
        let old = self.entries[index].value;
        if old == 0 && !self.overflow {
            if self.touched.len() < (self.size / 16) as usize {
                self.touched.push(index as u32);
            } else {
                self.overflow = true;
            }
        }
        self.entries[index] = Entry { key, value };
    }

    fn clear(&mut self) {
        if self.overflow {
            self.entries.fill(Entry::default());
        } else {
            for &index in &self.touched {
                self.entries[index as usize] = Entry::default();
            }
        }
        self.touched.clear();
        self.overflow = false;
    }
}

/// A position for the solver: the side to move's pieces, all pieces, empty cells.
#[derive(Clone, Copy, Debug)]
pub struct Pos<B> {
    pub own: B,
    pub mask: B,
    pub empties: u32,
}

impl<B: Bits> Pos<B> {
    #[inline(always)]
    fn play(self, cell: B) -> Pos<B> {
        Pos {
            own: self.own ^ self.mask,
            mask: self.mask | cell,
            empties: self.empties - 1,
        }
    }
}

/// The solver: geometry, transposition table, counters.
pub struct Solver<B: Bits> {
    geo: Geometry<B>,
    /// Columns, centre first.
    order: [u32; 10],
    columns: [B; 10],
    /// Columns 0 ..= (cols - 1) / 2: the moves worth trying in a symmetric position.
    left_half: B,
    /// Encoding bounds of the table's byte.
    min_score: i32,
    max_score: i32,
    table: Table<B::Key>,
    /// A small table for positions with few empty cells (`near_max_empties` or fewer):
    /// their subtrees are cheap to search again, and a table that stays in the cache
    /// costs far less to probe. It keeps whole keys.
    near: Table<B>,
    nodes: u64,
    aborted: bool,
    /// When a search gives up as if `stop` were raised (a move on the clock).
    deadline: Option<Instant>,
    /// Use the table only with at least this many empty cells.
    pub table_min_empties: u32,
    /// Use mirror-canonical keys only with at least this many empty cells.
    pub mirror_min_empties: u32,
    /// Positions with this many empty cells or fewer use the small table.
    pub near_max_empties: u32,
    /// The first this many nodes of a solve use the small table at any depth.
    pub small_solve_nodes: u64,
    /// Whether the current solve is in its small phase.
    small_phase: bool,
    /// `nodes` from which the current solve leaves its small phase.
    small_until: u64,
    /// Whether to take the built-in book of each board size.
    use_book: bool,
    book: Option<Arc<Book>>,
    /// The empty cells of the book's positions (`u32::MAX` without a book).
    book_empties: u32,
    /// Book hits since the last `reset_nodes` (counted in `nodes` too).
    book_hits: u64,
    /// Positions at the book's ply that were not in it, since the last `reset_nodes`.
    book_misses: u64,
    /// Whether a search stops at the first position of the book's ply missing from
    /// the book (see [`Solver::stop_at_miss`]).
    stop_at_miss: bool,
    /// The position (own, mask) a search stopped at, when it did.
    missed: Option<(B, B)>,
}

/// Entries of the small table: a prime near 2^16.
pub const NEAR_SIZE: u64 = 65_521;
/// Nodes of a solve's small phase (see [`Solver::small_solve_nodes`]).
pub const SMALL_SOLVE_NODES: u64 = 1 << 17;

impl<B: Bits> Solver<B> {
    /// A solver for a board, with its built-in opening book if there is one.
    pub fn new(rows: u32, cols: u32) -> Self {
        Self::try_new(rows, cols).unwrap_or_else(|| panic!("no memory for the solver's table"))
    }

    /// As [`Solver::new`], or `None` when the system refuses its table's memory (the
    /// engine's way: a table that does not fit is no solver, not an abort).
    pub fn try_new(rows: u32, cols: u32) -> Option<Self> {
        Self::make(rows, cols, true)
    }

    /// A solver that never uses an opening book.
    pub fn without_book(rows: u32, cols: u32) -> Self {
        Self::make(rows, cols, false).unwrap_or_else(|| panic!("no memory for the solver's table"))
    }

    fn make(rows: u32, cols: u32, use_book: bool) -> Option<Self> {
        let mut solver = Solver {
            geo: Geometry::new(rows, cols),
            order: [0; 10],
            columns: [B::ZERO; 10],
            left_half: B::ZERO,
            min_score: 0,
            max_score: 0,
            table: Table::try_new(Self::table_size())?,
            near: Table::try_new(NEAR_SIZE)?,
            nodes: 0,
            aborted: false,
            deadline: None,
            table_min_empties: 0,
            mirror_min_empties: 0,
            near_max_empties: 0,
            small_solve_nodes: 0,
            small_phase: false,
            small_until: 0,
            use_book,
            book: None,
            book_empties: u32::MAX,
            book_hits: 0,
            book_misses: 0,
            stop_at_miss: false,
            missed: None,
        };
        solver.set_geometry(rows, cols);
        Some(solver)
    }

    /// Entries of the main table: keys of up to 55 bits (u64 boards) are exact with
    /// 32 stored bits and 2^23 entries; u128 boards store 64 bits, exact up to 85 bits.
    fn table_size() -> u64 {
        if B::BITS == 64 {
            TABLE_SIZE
        } else {
            LARGE_TABLE_SIZE
        }
    }

    fn set_geometry(&mut self, rows: u32, cols: u32) {
        self.geo = Geometry::new(rows, cols);
        let mut order: Vec<u32> = (0..cols).collect();
        order.sort_by_key(|&c| ((2 * c as i32 - (cols as i32 - 1)).abs(), c));
        for (i, &c) in order.iter().enumerate() {
            self.order[i] = c;
            self.columns[c as usize] = self.geo.column(c);
        }
        self.left_half = (0..cols.div_ceil(2)).fold(B::ZERO, |acc, c| acc | self.geo.column(c));
        let cells = (rows * cols) as i32;
        self.min_score = -(cells / 2) - 1;
        self.max_score = (cells + 1) / 2 + 1;
        self.table_min_empties = 0;
        self.mirror_min_empties = if rows == 6 && cols == 7 { 20 } else { 0 };
        self.near_max_empties = 16;
        self.small_solve_nodes = SMALL_SOLVE_NODES;
        let book = if self.use_book {
            book::embedded(rows, cols)
        } else {
            None
        };
        self.set_book(book);
        // Entries of another size mean nothing here (the tables track every write,
        // so this clears them all).
        self.clear();
    }

    /// Switches to another board size (clearing the table) if needed.
    pub fn resize(&mut self, rows: u32, cols: u32) {
        if self.geo.rows != rows || self.geo.cols != cols {
            self.set_geometry(rows, cols);
        }
    }

    pub fn geometry(&self) -> &Geometry<B> {
        &self.geo
    }

    /// Uses this book from now on (`None`: none). A book of another board is ignored,
    /// with a warning.
    pub fn set_book(&mut self, book: Option<Arc<Book>>) {
        let fits = |b: &Book| {
            b.rows == self.geo.rows && b.cols == self.geo.cols && b.ply < b.rows * b.cols
        };
        match book {
            Some(b) if fits(&b) => {
                self.book_empties = b.empties();
                self.book = Some(b);
            }
            other => {
                if let Some(b) = other {
                    log::warn!(
                        "connect four book for {}x{} ignored by a {}x{} solver",
                        b.rows,
                        b.cols,
                        self.geo.rows,
                        self.geo.cols
                    );
                }
                self.book = None;
                self.book_empties = u32::MAX;
            }
        }
    }

    /// The book in use, if any.
    pub fn book(&self) -> Option<&Book> {
        self.book.as_deref()
    }

    /// Book hits since the last `reset_nodes` (each counted as a node too).
    pub fn book_hits(&self) -> u64 {
        self.book_hits
    }

    /// Positions at the book's ply that were not in it, since the last `reset_nodes`.
    pub fn book_misses(&self) -> u64 {
        self.book_misses
    }

    /// Makes a search that reaches a position of the book's ply missing from the book
    /// stop there, as if `stop` were raised, and name it ([`Solver::missed`]): how a
    /// book generator ([`crate::book::make`]) finds the positions a solve needs.
    pub fn stop_at_miss(&mut self, on: bool) {
        self.stop_at_miss = on;
        self.missed = None;
    }

    /// The position (side to move's pieces, all pieces) that stopped the last search
    /// under [`Solver::stop_at_miss`], if one did.
    pub fn missed(&self) -> Option<(B, B)> {
        self.missed
    }

    /// The book's score of `p`, if `p` is at the book's ply and in the book.
    #[inline(always)]
    fn book_probe(&mut self, p: Pos<B>) -> Option<i32> {
        if p.empties != self.book_empties {
            return None;
        }
        self.book_lookup(p)
    }

    #[inline(never)]
    fn book_lookup(&mut self, p: Pos<B>) -> Option<i32> {
        let key = book::canonical_key(&self.geo, p.own, p.mask).to_u128();
        let known = self.book.as_ref().and_then(|book| book.get(key));
        if known.is_some() {
            self.book_hits += 1;
        } else {
            self.book_misses += 1;
            if self.stop_at_miss && !self.aborted {
                self.missed = Some((p.own, p.mask));
                self.aborted = true;
            }
        }
        known
    }

    /// Forgets every stored position.
    pub fn clear(&mut self) {
        self.table.clear();
        self.near.clear();
    }

    /// Positions visited since the last `reset_nodes`.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn reset_nodes(&mut self) {
        self.nodes = 0;
        self.book_hits = 0;
        self.book_misses = 0;
    }

    /// A solver position from the side to move's pieces and all pieces.
    pub fn position(&self, own: B, mask: B) -> Pos<B> {
        Pos {
            own,
            mask,
            empties: (self.geo.board & !mask).count(),
        }
    }

    /// The cells the side to move can play without losing at once (see the module doc).
    #[inline(always)]
    fn non_losing(&self, p: Pos<B>) -> B {
        let possible = self.geo.playable(p.mask);
        let threats = self.geo.winning_cells(p.own ^ p.mask, p.mask);
        let forced = possible & threats;
        let candidates = if forced != B::ZERO {
            if forced.count() > 1 {
                return B::ZERO;
            }
            forced
        } else {
            possible
        };
        candidates & !(threats >> 1)
    }

    /// The side to move's playable winning cells.
    #[inline(always)]
    fn winning_moves(&self, p: Pos<B>) -> B {
        self.geo.winning_cells(p.own, p.mask) & self.geo.playable(p.mask)
    }

    /// Non-losing moves, best first: by winning cells created, then centre first.
    #[inline(always)]
    fn sorted_moves(&self, p: Pos<B>, candidates: B, out: &mut [B; 10]) -> usize {
        let mut scores = [0u32; 10];
        let mut len = 0;
        for &col in self.order[..self.geo.cols as usize].iter().rev() {
            let cell = candidates & self.columns[col as usize];
            if cell == B::ZERO {
                continue;
            }
            let score = self.geo.winning_cells(p.own | cell, p.mask | cell).count();
            // Insertion sort; the last element is tried first, and among equal scores
            // the one inserted last (more central).
            let mut i = len;
            while i > 0 && scores[i - 1] > score {
                scores[i] = scores[i - 1];
                out[i] = out[i - 1];
                i -= 1;
            }
            scores[i] = score;
            out[i] = cell;
            len += 1;
        }
        len
    }

    /// Bounds on the score of a position where neither side wins at once: nobody wins
    /// before its second move from now, and a side with no line left free of the
    /// other's pieces cannot win at all.
    #[inline(always)]
    fn bounds(&self, p: Pos<B>) -> (i32, i32) {
        let e = p.empties as i32;
        let mut min = -(e - 2) / 2;
        let mut max = (e - 1) / 2;
        let empty = self.geo.board & !p.mask;
        let opp = p.own ^ p.mask;
        if !self.geo.has_four(p.own | empty) {
            max = max.min(0);
        }
        if !self.geo.has_four(opp | empty) {
            min = min.max(0);
        }
        (min, max)
    }

    #[inline(always)]
    fn key(&self, p: Pos<B>) -> (B, bool) {
        let key = p.own.plus(p.mask);
        if p.empties >= self.mirror_min_empties {
            let mirrored = self.geo.mirror(key);
            (key.min(mirrored), key == mirrored)
        } else {
            (key, false)
        }
    }

    /// Ends a solve's small phase: the small table's positions with more empty cells
    /// than `near_max_empties` move to the main table, where they are looked up from
    /// now on.
    #[cold]
    #[inline(never)]
    fn end_small_phase(&mut self) {
        self.small_phase = false;
        let width = self.geo.rows + 1;
        let field = (1u128 << width) - 1;
        let cells = self.geo.rows * self.geo.cols;
        for i in 0..self.near.entries.len() {
            let entry = self.near.entries[i];
            let (key, value) = (entry.key, entry.value);
            if value == 0 {
                continue;
            }
            // A column of height h holds own + 2^h - 1 in [2^h - 1, 2^(h+1) - 2]: its
            // height is the bit length of the field plus 1, less 1.
            let k = key.to_u128();
            let pieces: u32 = (0..self.geo.cols)
                .map(|c| 127 - (((k >> (c * width)) & field) + 1).leading_zeros())
                .sum();
            if cells - pieces > self.near_max_empties {
                self.table.put(Self::main_index(key), key.truncate(), value);
            }
        }
    }

    /// The main table's index of a key (a constant modulus: no division).
    #[inline(always)]
    fn main_index(key: B) -> usize {
        if B::BITS == 64 {
            key.modulo(TABLE_SIZE)
        } else {
            key.modulo(LARGE_TABLE_SIZE)
        }
    }

    #[inline(always)]
    fn store(&mut self, near: bool, index: usize, key: B, code: u8) {
        if near {
            self.near.put(index, key, code);
        } else {
            self.table.put(index, key.truncate(), code);
        }
    }

    /// The score of `p` within (alpha, beta) in the fail-soft sense; `p` must not have
    /// a winning move for the side to move.
    fn negamax(&mut self, p: Pos<B>, mut alpha: i32, mut beta: i32, stop: &AtomicBool) -> i32 {
        self.nodes += 1;
        if self.nodes & 0x3fff == 0 {
            if self.small_phase && self.nodes >= self.small_until {
                self.end_small_phase();
            }
            if stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|end| Instant::now() >= end)
            {
                self.aborted = true;
            }
        }
        if self.aborted {
            return 0;
        }
        // An exact score is right in any window.
        if let Some(score) = self.book_probe(p) {
            return score;
        }
        let e = p.empties as i32;
        let mut candidates = self.non_losing(p);
        if candidates == B::ZERO {
            return -e / 2;
        }
        if e <= 2 {
            return 0;
        }
        // The opponent cannot win at once: at worst we lose on its second move; and
        // not at all if no line is free of our pieces.
        let (min, max) = self.bounds(p);
        if alpha < min {
            alpha = min;
            if alpha >= beta {
                return alpha;
            }
        }
        // We cannot win at once: at best on our second move.
        if beta > max {
            beta = max;
            if alpha >= beta {
                return beta;
            }
        }
        let use_table = p.empties >= self.table_min_empties;
        let near = p.empties <= self.near_max_empties || self.small_phase;
        let mut index = 0;
        let mut key = B::ZERO;
        if use_table {
            let symmetric;
            (key, symmetric) = self.key(p);
            if symmetric {
                candidates &= self.left_half;
            }
            let value = if near {
                index = key.modulo(NEAR_SIZE);
                i32::from(self.near.get(index, key))
            } else {
                index = Self::main_index(key);
                i32::from(self.table.get(index, key.truncate()))
            };
            if value != 0 {
                if value > self.max_score - self.min_score + 1 {
                    let lower = value + 2 * self.min_score - self.max_score - 2;
                    if alpha < lower {
                        alpha = lower;
                        if alpha >= beta {
                            return alpha;
                        }
                    }
                } else {
                    let upper = value + self.min_score - 1;
                    if beta > upper {
                        beta = upper;
                        if alpha >= beta {
                            return beta;
                        }
                    }
                }
            }
        }
        let mut moves = [B::ZERO; 10];
        let len = self.sorted_moves(p, candidates, &mut moves);
        for &cell in moves[..len].iter().rev() {
            let score = -self.negamax(p.play(cell), -beta, -alpha, stop);
            // An aborted child's score means nothing: store no bound from it.
            if self.aborted {
                return 0;
            }
            if score >= beta {
                if use_table {
                    let code = score + self.max_score - 2 * self.min_score + 2;
                    self.store(near, index, key, code as u8);
                }
                return score;
            }
            if score > alpha {
                alpha = score;
            }
        }
        if use_table {
            self.store(near, index, key, (alpha - self.min_score + 1) as u8);
        }
        alpha
    }

    /// Makes the searches give up at `deadline` (`None`: never), as if `stop` were
    /// raised then (within 16,384 nodes). The table keeps only what was proven.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// The exact score of a position that is not over (see the module doc), or `None`
    /// if `stop` was raised. Does not clear the table.
    pub fn solve_score(&mut self, p: Pos<B>, stop: &AtomicBool) -> Option<i32> {
        // A search checks `stop` only every 16,384 nodes: a flag raised before the
        // start must stop a short (book) solve too.
        if stop.load(Ordering::Relaxed) {
            return None;
        }
        self.aborted = false;
        self.missed = None;
        self.small_phase = self.small_solve_nodes > 0;
        self.small_until = self.nodes.saturating_add(self.small_solve_nodes);
        if self.winning_moves(p) != B::ZERO {
            return Some((p.empties as i32 + 1) / 2);
        }
        self.bisect(p, stop)
    }

    /// The exact score of `p`, which has no winning move for the side to move, by
    /// null-window searches; `None` if `stop` was raised.
    fn bisect(&mut self, p: Pos<B>, stop: &AtomicBool) -> Option<i32> {
        let e = p.empties as i32;
        let mut min = -e / 2;
        let mut max = (e + 1) / 2;
        while min < max {
            let mut med = min + (max - min) / 2;
            if med <= 0 && min / 2 < med {
                med = min / 2;
            } else if med >= 0 && max / 2 > med {
                med = max / 2;
            }
            let r = self.negamax(p, med, med + 1, stop);
            if self.aborted {
                return None;
            }
            if r <= med {
                max = r;
            } else {
                min = r;
            }
        }
        Some(min)
    }

    /// The value of a position that is not over, without a move; `None` if `stop` was
    /// raised.
    pub fn solve_value(&mut self, own: B, mask: B, stop: &AtomicBool) -> Option<Value> {
        let p = self.position(own, mask);
        if self.geo.playable(p.mask) == B::ZERO {
            return Some(Value::Draw(0));
        }
        let score = self.solve_score(p, stop)?;
        Some(score_to_value(score, p.empties))
    }

    /// The value of a position that is not over, with a move that keeps it (the column)
    /// and the nodes visited (at least 1: the position itself, even when it needs no
    /// search); `None` if `stop` was raised.
    pub fn solve_with_move(
        &mut self,
        own: B,
        mask: B,
        stop: &AtomicBool,
    ) -> Option<(Value, Option<u32>, u64)> {
        self.reset_nodes();
        let p = self.position(own, mask);
        let column_of = |solver: &Self, cell: B| {
            (0..solver.geo.cols).find(|&c| solver.columns[c as usize] & cell != B::ZERO)
        };
        let playable = self.geo.playable(p.mask);
        if playable == B::ZERO {
            return Some((Value::Draw(0), None, 1));
        }
        let wins = self.winning_moves(p);
        if wins != B::ZERO {
            return Some((Value::Win(1), column_of(self, wins), 1));
        }
        let score = self.solve_score(p, stop)?;
        let value = score_to_value(score, p.empties);
        let candidates = self.non_losing(p);
        if candidates == B::ZERO {
            // Every move loses at once: any move will do.
            let best = self.order[..self.geo.cols as usize]
                .iter()
                .copied()
                .find(|&c| playable & self.columns[c as usize] != B::ZERO);
            return Some((value, best, self.nodes));
        }
        let mut moves = [B::ZERO; 10];
        let len = self.sorted_moves(p, candidates, &mut moves);
        for &cell in moves[..len].iter().rev() {
            let child = p.play(cell);
            // Our score is -child's: it reaches `score` iff the child's is <= -score.
            let r = self.negamax(child, -score, -score + 1, stop);
            if self.aborted {
                return None;
            }
            if r <= -score {
                return Some((value, column_of(self, cell), self.nodes));
            }
        }
        // Unreachable when the solver is right; keep a legal move anyway.
        Some((value, column_of(self, moves[len - 1]), self.nodes))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scores_and_plies_agree() {
        // 6x7, 42 empties: a first-player win with its 4th stone (7 plies) scores 18.
        for e in 0..=42u32 {
            for score in -21..=21 {
                let value = score_to_value(score, e);
                if score != 0 {
                    assert_eq!(value_to_score(value, e), score, "e {e} score {score}");
                }
            }
        }
        assert_eq!(score_to_value(18, 42), Value::Win(7));
        assert_eq!(score_to_value(0, 5), Value::Draw(5));
        // One empty cell... a win now scores (1 + 1) / 2 = 1.
        assert_eq!(score_to_value(1, 1), Value::Win(1));
        assert_eq!(score_to_value(-1, 2), Value::Loss(2));
    }

    /// The first `count` lines of Pons' test set `name` (tests/data/connect4): the
    /// position (side to move's pieces, all pieces) and its exact score.
    fn pons_set(geo: &Geometry<u64>, name: &str, count: usize) -> Vec<(String, u64, u64, i32)> {
        let path = format!(
            "{}/tests/data/connect4/Test_{name}",
            env!("CARGO_MANIFEST_DIR")
        );
        let text = std::fs::read_to_string(&path).expect("the test sets are in the repository");
        let mut out = Vec::new();
        for line in text.lines().take(count) {
            let (moves, score) = line.split_once(' ').expect("moves and score");
            let (mut own, mut mask) = (0u64, 0u64);
            for c in moves.bytes() {
                let cell = geo.drop_cell(mask, u32::from(c - b'1'));
                assert_ne!(cell, 0, "{line}: a full column");
                own ^= mask;
                mask |= cell;
            }
            out.push((line.to_string(), own, mask, score.parse().expect("a score")));
        }
        out
    }

    #[test]
    fn the_small_phase_keeps_every_score_of_pons_sets() {
        // Without the small phase, with it, and with a short one that ends (moving
        // positions to the main table) in most of the longer solves.
        let stop = AtomicBool::new(false);
        let mut solver = Solver::<u64>::without_book(6, 7);
        let geo = *solver.geometry();
        let sets = [
            ("L3_R1", 100),
            ("L2_R1", 100),
            ("L1_R1", 100),
            ("L2_R2", 10),
            ("L1_R2", 2),
        ];
        let mut ended = 0;
        for phase in [0, 1 << 14, SMALL_SOLVE_NODES] {
            solver.small_solve_nodes = phase;
            for (name, count) in sets {
                for (line, own, mask, score) in pons_set(&geo, name, count) {
                    solver.clear();
                    solver.reset_nodes();
                    let p = solver.position(own, mask);
                    assert_eq!(
                        solver.solve_score(p, &stop),
                        Some(score),
                        "{line}, phase {phase}"
                    );
                    if phase > 0 && solver.nodes() >= phase + (1 << 14) {
                        ended += 1;
                    }
                }
            }
        }
        // The phase ended in some solves (the migration was exercised).
        assert!(ended >= 3, "{ended}");
    }
}
