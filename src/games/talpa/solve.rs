//! Talpa's exact solver: the value of a position under best play, with the number of
//! plies to the end (the winner as fast as it can, the loser as slow as it can).
//!
//! Method: negamax alpha-beta on distance scores (a win at ply `p` from the root scores
//! `WIN - p`, a loss `p - WIN`) with a transposition table of exact keys and bounds,
//! driven at the root by null-window searches (MTD(f)): the first decides win or loss,
//! the next ones the distance. What suits the game:
//! - Every move empties exactly one square and fills none, so a path that appears runs
//!   through the square just emptied, and a move's outcome depends on that square
//!   alone. Each node labels the components of its empty squares once; then each move
//!   is judged in a few operations: a move that opens the opponent's path loses at once
//!   and is never searched, and a move that opens only the mover's own path wins at
//!   once and ends the node.
//! - The side to move is part of the key, so a blue-to-move position is stored as its
//!   transpose with colours swapped (blue's left–right goal becomes top–bottom), and
//!   every key is the least of its images under the four symmetries that keep both
//!   goals (identity, the two mirrors, the half turn). Those maps preserve the rules:
//!   adjacency, the edges each side connects and the capture and removal moves.
//! - Ordering: the table's move first, then a history heuristic.
//!
//! Bitboards are `u64` with the engine's square index (`rank * size + file`), so the
//! solver takes boards up to 6×6 (an exact key of two 36-bit boards fits 80 bits).

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::{Move, Talpa};
use crate::game::{Game, Outcome, Player, Value};
use crate::search::exact::value::{from_relative, to_relative};

/// The score of a win at ply 0; a win at ply `p` from the root scores `WIN - p`.
const WIN: i32 = 100;
/// Below every score.
const INF: i32 = WIN + 1;
/// The largest board the solver takes.
pub const MAX_SOLVE_SIZE: usize = 6;

const TOP: u8 = 1;
const BOTTOM: u8 = 2;
const LEFT: u8 = 4;
const RIGHT: u8 = 8;
const RED_GOAL: u8 = TOP | BOTTOM;
const BLUE_GOAL: u8 = LEFT | RIGHT;

/// What a move does at once: opens the opponent's path (and loses), makes the
/// mover's (or takes the last enemy piece) and wins, or neither.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Verdict {
    Loses,
    Wins,
    Continues,
}

/// A position as the solver sees it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Board {
    /// `[red, blue]`.
    pub pieces: [u64; 2],
    pub side: Player,
}

impl Board {
    pub fn of(state: &Talpa) -> Board {
        Board {
            pieces: [
                state.pieces(Player::P1) as u64,
                state.pieces(Player::P2) as u64,
            ],
            side: state.side_to_move(),
        }
    }
}

/// One entry of the transposition table: an exact key and the bounds of the score,
/// as distances from the entry's position.
#[derive(Clone, Copy, Default)]
struct Entry {
    key_low: u64,
    key_high: u16,
    /// The best move found, `from | to << 8` in the key's frame (`from == to`: a
    /// removal), or `NO_MOVE`.
    best: u16,
    /// Lower and upper bounds of the score relative to this position.
    low: i8,
    high: i8,
    /// log2 of the nodes spent on it (replacement priority); 0 = empty slot.
    work: u8,
}

const NO_MOVE: u16 = u16::MAX;
/// Entries per bucket (one cache line).
const BUCKET: usize = 4;

/// One entry of the proof-number search's table: proof and disproof numbers of "the
/// side to move wins".
#[derive(Clone, Copy, Default)]
struct ProofEntry {
    key_low: u64,
    key_high: u16,
    /// log2 of the nodes spent on it (replacement priority); 0 = empty slot.
    work: u8,
    proof: u32,
    disproof: u32,
}

/// Proof and disproof numbers at or above this are infinite.
const PN_INF: u32 = u32::MAX / 2;
/// Children a node can have (captures: at most 4 per piece and half the squares).
const MAX_CHILDREN: usize = 128;

/// What a solve found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    pub value: Value,
    /// Best play from the position to the end of the game.
    pub pv: Vec<Move>,
    pub nodes: u64,
}

/// The solver of one board size, with its table.
pub struct Solver {
    size: usize,
    squares: usize,
    board: u64,
    not_first_file: u64,
    not_last_file: u64,
    /// Edge flags of each square.
    edges: Vec<u8>,
    /// Orthogonal neighbours of each square.
    neighbours: Vec<u64>,
    /// `images[sym][byte][value]`: the image under symmetry `sym` of the squares of
    /// `value` placed at byte `byte` of a board. Symmetries 0..4 keep the goals, 4..8
    /// swap them.
    images: Vec<Vec<[u64; 256]>>,
    /// `square_map[sym][square]`, and the inverse maps.
    square_map: [[u8; 64]; 8],
    inverse_map: [[u8; 64]; 8],
    table: Vec<Entry>,
    /// The proof-number search's table, made on its first use, as large as `table`.
    proofs: Vec<ProofEntry>,
    buckets_mask: usize,
    /// History heuristic by `[from][to]`.
    history: Vec<u32>,
    nodes: u64,
    stopped: bool,
    /// When the alpha-beta search gives up as if `stop` were raised (a move on the
    /// clock).
    deadline: Option<Instant>,
}

/// A symmetry of the board: (last index, rank, file) to (rank, file).
type SquareMap = fn(usize, usize, usize) -> (usize, usize);

/// A node's move with its ordering key.
#[derive(Clone, Copy)]
struct Candidate {
    from: u8,
    to: u8,
    key: u32,
}

impl Solver {
    /// A solver for `size` (4 or 6) with a table of `2^log2_entries` entries (16 bytes
    /// each).
    pub fn new(size: usize, log2_entries: u32) -> Result<Solver, String> {
        if !(4..=MAX_SOLVE_SIZE).contains(&size) || !size.is_multiple_of(2) {
            return Err(format!(
                "the solver takes the even sizes 4 to {MAX_SOLVE_SIZE}, not {size}"
            ));
        }
        let squares = size * size;
        let mut board = 0u64;
        let mut left = 0u64;
        let mut right = 0u64;
        let mut edges = vec![0u8; squares];
        let mut neighbours = vec![0u64; squares];
        for rank in 0..size {
            for file in 0..size {
                let sq = rank * size + file;
                board |= 1 << sq;
                let mut flags = 0;
                if rank == size - 1 {
                    flags |= TOP;
                }
                if rank == 0 {
                    flags |= BOTTOM;
                }
                if file == 0 {
                    flags |= LEFT;
                    left |= 1 << sq;
                }
                if file == size - 1 {
                    flags |= RIGHT;
                    right |= 1 << sq;
                }
                edges[sq] = flags;
                let mut n = 0u64;
                if rank > 0 {
                    n |= 1 << (sq - size);
                }
                if rank + 1 < size {
                    n |= 1 << (sq + size);
                }
                if file > 0 {
                    n |= 1 << (sq - 1);
                }
                if file + 1 < size {
                    n |= 1 << (sq + 1);
                }
                neighbours[sq] = n;
            }
        }
        let s = size - 1;
        // (rank, file) -> (rank, file) for each symmetry.
        let maps: [SquareMap; 8] = [
            |_, r, f| (r, f),
            |s, r, f| (r, s - f),
            |s, r, f| (s - r, f),
            |s, r, f| (s - r, s - f),
            |_, r, f| (f, r),
            |s, r, f| (s - f, s - r),
            |s, r, f| (f, s - r),
            |s, r, f| (s - f, r),
        ];
        let mut square_map = [[0u8; 64]; 8];
        let mut inverse_map = [[0u8; 64]; 8];
        for (sym, map) in maps.iter().enumerate() {
            for rank in 0..size {
                for file in 0..size {
                    let (r2, f2) = map(s, rank, file);
                    let from = rank * size + file;
                    let to = r2 * size + f2;
                    square_map[sym][from] = to as u8;
                    inverse_map[sym][to] = from as u8;
                }
            }
        }
        let bytes = squares.div_ceil(8);
        let images = (0..8)
            .map(|sym| {
                (0..bytes)
                    .map(|byte| {
                        let mut table = [0u64; 256];
                        for (value, image) in table.iter_mut().enumerate() {
                            for bit in 0..8 {
                                let sq = byte * 8 + bit;
                                if value >> bit & 1 == 1 && sq < squares {
                                    *image |= 1 << square_map[sym][sq];
                                }
                            }
                        }
                        table
                    })
                    .collect()
            })
            .collect();
        let entries = 1usize << log2_entries.max(4);
        Ok(Solver {
            size,
            squares,
            board,
            not_first_file: board & !left,
            not_last_file: board & !right,
            edges,
            neighbours,
            images,
            square_map,
            inverse_map,
            table: vec![Entry::default(); entries],
            proofs: Vec::new(),
            buckets_mask: entries / BUCKET - 1,
            history: vec![0; 64 * 64],
            nodes: 0,
            stopped: false,
            deadline: None,
        })
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Empties the table and the counters.
    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.proofs.fill(ProofEntry::default());
        self.history.fill(0);
        self.nodes = 0;
    }

    fn image(&self, sym: usize, bits: u64) -> u64 {
        let mut out = 0;
        let mut rest = bits;
        let mut byte = 0;
        while rest != 0 {
            out |= self.images[sym][byte][(rest & 0xff) as usize];
            rest >>= 8;
            byte += 1;
        }
        out
    }

    /// The exact key of a position (the least image of the mover's and the opponent's
    /// boards, in the frame where the mover connects top and bottom) and the symmetry
    /// that gives it.
    fn key(&self, b: &Board) -> (u128, usize) {
        let (mover, opponent, syms) = match b.side {
            Player::P1 => (b.pieces[0], b.pieces[1], 0..4),
            Player::P2 => (b.pieces[1], b.pieces[0], 4..8),
        };
        let mut best = (u128::MAX, 0);
        for sym in syms {
            let key = u128::from(self.image(sym, mover))
                | u128::from(self.image(sym, opponent)) << self.squares;
            if key < best.0 {
                best = (key, sym);
            }
        }
        best
    }

    fn bucket(&self, key: u128) -> usize {
        let mixed = (key as u64 ^ (key >> 64) as u64 ^ (key >> 29) as u64)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((mixed >> 20) as usize & self.buckets_mask) * BUCKET
    }

    fn probe(&self, key: u128) -> Option<Entry> {
        let start = self.bucket(key);
        self.table[start..start + BUCKET]
            .iter()
            .find(|e| e.work != 0 && e.key_low == key as u64 && e.key_high == (key >> 64) as u16)
            .copied()
    }

    /// Stores bounds (relative to the position) merged with what the entry knew.
    fn store(&mut self, key: u128, low: i32, high: i32, best: u16, work: u8) {
        let start = self.bucket(key);
        let (key_low, key_high) = (key as u64, (key >> 64) as u16);
        let bucket = &mut self.table[start..start + BUCKET];
        let slot = match bucket
            .iter()
            .position(|e| e.work != 0 && e.key_low == key_low && e.key_high == key_high)
        {
            Some(i) => {
                let e = &mut bucket[i];
                e.low = e.low.max(low as i8);
                e.high = e.high.min(high as i8);
                if best != NO_MOVE {
                    e.best = best;
                }
                e.work = e.work.max(work);
                return;
            }
            None => (0..BUCKET).min_by_key(|&i| bucket[i].work).unwrap_or(0),
        };
        bucket[slot] = Entry {
            key_low,
            key_high,
            best,
            low: low as i8,
            high: high as i8,
            work: work.max(1),
        };
    }

    /// The edge flags of the component of empty squares each square would join: the
    /// components of `empty` that touch an edge, as (squares, flags).
    fn edge_components(&self, empty: u64, out: &mut [(u64, u8); 64]) -> usize {
        let mut count = 0;
        let mut rest = empty;
        while rest != 0 {
            let seed = rest & rest.wrapping_neg();
            let component = self.flood(seed, empty);
            rest &= !component;
            let mut flags = 0;
            let mut bits = component;
            while bits != 0 && flags != 15 {
                flags |= self.edges[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            if flags != 0 {
                out[count] = (component, flags);
                count += 1;
            }
        }
        count
    }

    fn flood(&self, seeds: u64, within: u64) -> u64 {
        let mut fill = seeds & within;
        loop {
            let grown = fill
                | (fill << 1 & self.not_first_file)
                | (fill >> 1 & self.not_last_file)
                | (fill << self.size & self.board)
                | fill >> self.size;
            let next = grown & within;
            if next == fill {
                return fill;
            }
            fill = next;
        }
    }

    /// Calls `visit` with each move of `b` (origin, destination) and what it does at
    /// once, until `visit` returns false.
    fn for_each_judged_move(&self, b: &Board, mut visit: impl FnMut(u8, u8, Verdict) -> bool) {
        let us = b.side.index();
        let (my_goal, their_goal) = match b.side {
            Player::P1 => (RED_GOAL, BLUE_GOAL),
            Player::P2 => (BLUE_GOAL, RED_GOAL),
        };
        let empty = self.board & !(b.pieces[0] | b.pieces[1]);
        let mut components = [(0u64, 0u8); 64];
        let count = self.edge_components(empty, &mut components);
        let components = &components[..count];
        let enemy = b.pieces[1 - us];
        let mut going = true;
        self.for_each_move(b, |from, to| {
            if !going {
                return;
            }
            let flags = self.flags_after(from, components);
            let verdict = if flags & their_goal == their_goal {
                Verdict::Loses
            } else if flags & my_goal == my_goal || (from != to && enemy == 1 << to) {
                Verdict::Wins
            } else {
                Verdict::Continues
            };
            going = visit(from, to, verdict);
        });
    }

    /// The edges the component of `square` touches once `square` is emptied.
    fn flags_after(&self, square: u8, components: &[(u64, u8)]) -> u8 {
        let near = self.neighbours[square as usize];
        let mut flags = self.edges[square as usize];
        for &(squares, f) in components {
            if squares & near != 0 {
                flags |= f;
            }
        }
        flags
    }

    /// Calls `f(from, to)` for each move of the side to move (`from == to`: a removal).
    fn for_each_move(&self, b: &Board, mut f: impl FnMut(u8, u8)) {
        let us = b.side.index();
        let own = b.pieces[us];
        let enemy = b.pieces[1 - us];
        let size = self.size as i32;
        let mut any = false;
        for (targets, step) in [
            ((own << size) & self.board & enemy, size),
            ((own >> size) & enemy, -size),
            ((own << 1) & self.not_first_file & enemy, 1),
            ((own >> 1) & self.not_last_file & enemy, -1),
        ] {
            let mut bits = targets;
            while bits != 0 {
                let to = bits.trailing_zeros() as i32;
                bits &= bits - 1;
                f((to - step) as u8, to as u8);
                any = true;
            }
        }
        if !any {
            let mut bits = own;
            while bits != 0 {
                let sq = bits.trailing_zeros() as u8;
                bits &= bits - 1;
                f(sq, sq);
            }
        }
    }

    fn play(b: &Board, from: u8, to: u8) -> Board {
        let us = b.side.index();
        let mut pieces = b.pieces;
        pieces[us] &= !(1 << from);
        if from != to {
            pieces[us] |= 1 << to;
            pieces[1 - us] &= !(1 << to);
        }
        Board {
            pieces,
            side: b.side.other(),
        }
    }

    /// Negamax alpha-beta, fail-soft, scores from the root (`ply` plies deep).
    fn search(
        &mut self,
        b: &Board,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        stop: &AtomicBool,
    ) -> i32 {
        self.nodes += 1;
        if self.nodes & 0xfff == 0
            && (stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|end| Instant::now() >= end))
        {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let nodes_before = self.nodes;
        // Nothing beats a win on the next move.
        let best_possible = WIN - (ply + 1);
        if alpha >= best_possible {
            return best_possible;
        }
        let (key, sym) = self.key(b);
        let mut table_move = NO_MOVE;
        if let Some(entry) = self.probe(key) {
            let low = from_relative(i32::from(entry.low), ply);
            let high = from_relative(i32::from(entry.high), ply);
            if low >= beta || low == high {
                return low;
            }
            if high <= alpha {
                return high;
            }
            alpha = alpha.max(low);
            beta = beta.min(high);
            if entry.best != NO_MOVE {
                let from = self.inverse_map[sym][(entry.best & 0xff) as usize];
                let to = self.inverse_map[sym][(entry.best >> 8) as usize];
                table_move = u16::from(from) | u16::from(to) << 8;
            }
        }

        let mut moves = [Candidate {
            from: 0,
            to: 0,
            key: 0,
        }; 128];
        let mut n = 0;
        let mut losing = false;
        let mut winning = None;
        self.for_each_judged_move(b, |from, to, verdict| {
            match verdict {
                Verdict::Loses => losing = true,
                Verdict::Wins => {
                    winning = Some((from, to));
                    return false;
                }
                Verdict::Continues => {
                    let code = u16::from(from) | u16::from(to) << 8;
                    let key = if code == table_move {
                        u32::MAX
                    } else {
                        self.history[usize::from(from) * 64 + usize::from(to)]
                    };
                    moves[n] = Candidate { from, to, key };
                    n += 1;
                }
            }
            true
        });
        if let Some((from, to)) = winning {
            let score = WIN - (ply + 1);
            let best = self.frame_move(sym, from, to);
            self.store(
                key,
                to_relative(score, ply),
                to_relative(score, ply),
                best,
                1,
            );
            return score;
        }
        if n == 0 {
            // Every move opens the opponent's path (or there is none: no pieces).
            let score = if losing {
                -(WIN - (ply + 1))
            } else {
                -(WIN - ply)
            };
            self.store(
                key,
                to_relative(score, ply),
                to_relative(score, ply),
                NO_MOVE,
                1,
            );
            return score;
        }
        // No win now: the best left is the opponent forced to open our path.
        let best_possible = WIN - (ply + 2);
        if alpha >= best_possible {
            return best_possible;
        }
        let moves = &mut moves[..n];
        moves.sort_unstable_by_key(|c| std::cmp::Reverse(c.key));

        let alpha_start = alpha;
        let mut best = if losing { -(WIN - (ply + 1)) } else { -INF };
        let mut best_move = NO_MOVE;
        for (i, mv) in moves.iter().enumerate() {
            let child = Self::play(b, mv.from, mv.to);
            let score = -self.search(&child, -beta, -alpha.max(best), ply + 1, stop);
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = self.frame_move(sym, mv.from, mv.to);
                if score >= beta {
                    let slot = usize::from(mv.from) * 64 + usize::from(mv.to);
                    self.history[slot] = self.history[slot].saturating_add(1 << (i.min(8)));
                    break;
                }
            }
        }
        let (low, high) = if best <= alpha_start {
            (-INF, best)
        } else if best >= beta {
            (best, INF)
        } else {
            (best, best)
        };
        let spent = self.nodes - nodes_before + 1;
        let work = (64 - spent.leading_zeros()) as u8;
        self.store(
            key,
            to_relative(low, ply),
            to_relative(high, ply),
            best_move,
            work,
        );
        best
    }

    /// A move in the frame of the key of symmetry `sym`.
    fn frame_move(&self, sym: usize, from: u8, to: u8) -> u16 {
        u16::from(self.square_map[sym][usize::from(from)])
            | u16::from(self.square_map[sym][usize::from(to)]) << 8
    }

    /// The exact score of `b` (from its own ply 0) by null-window searches.
    fn exact(&mut self, b: &Board, stop: &AtomicBool) -> Option<i32> {
        let (mut low, mut high) = (-INF, INF);
        let mut guess = 0;
        while low < high {
            let beta = if guess == low { guess + 1 } else { guess };
            let score = self.search(b, beta - 1, beta, 0, stop);
            if self.stopped {
                return None;
            }
            if score < beta {
                high = score;
            } else {
                low = score;
            }
            guess = score;
        }
        Some(low)
    }

    /// The exact value of `state` for the side to move; `None` if `stop` was set first.
    fn value(&mut self, state: &Talpa, stop: &AtomicBool) -> Option<Value> {
        Some(match state.outcome() {
            Some(outcome) => Value::of_outcome(outcome, state.side_to_move()),
            None => Value::of_score_on(self.exact(&Board::of(state), stop)?, WIN),
        })
    }

    /// Makes the alpha-beta searches give up at `deadline` (`None`: never), as if
    /// `stop` were raised then. The table keeps only what was proven.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Solves `state` (its size must be the solver's): the value for the side to move,
    /// the plies to the end under best play, and a principal variation. `None` if
    /// `stop` was set first.
    pub fn solve(&mut self, state: &Talpa, stop: &AtomicBool) -> Option<Solved> {
        assert_eq!(state.size(), self.size, "the solver's board size");
        let nodes_before = self.nodes;
        self.stopped = false;
        let value = self.value(state, stop)?;
        let pv = self.principal_variation(state, value, stop)?;
        Some(Solved {
            value,
            pv,
            nodes: self.nodes - nodes_before,
        })
    }

    /// The values of the moves of `state` for the side to move, each with its move.
    pub fn move_values(&mut self, state: &Talpa, stop: &AtomicBool) -> Option<Vec<(Move, Value)>> {
        self.stopped = false;
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut out = Vec::new();
        for mv in moves {
            let mut child = *state;
            child.play(mv);
            out.push((mv, self.value(&child, stop)?.parent()));
        }
        Some(out)
    }

    /// Best play from `state`, whose value is `value`: at each step a move whose child
    /// has the matching value.
    fn principal_variation(
        &mut self,
        state: &Talpa,
        value: Value,
        stop: &AtomicBool,
    ) -> Option<Vec<Move>> {
        let mut pv = Vec::new();
        let mut position = *state;
        let mut target = value;
        while position.outcome().is_none() {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            let mut next = None;
            for mv in moves {
                let mut child = position;
                child.play(mv);
                let child_value = match child.outcome() {
                    Some(outcome) => Value::of_outcome(outcome, child.side_to_move()),
                    None => {
                        let want = target.child()?.score_on(WIN);
                        let score = self.search(&Board::of(&child), want - 1, want + 1, 0, stop);
                        if self.stopped {
                            return None;
                        }
                        if score != want {
                            continue;
                        }
                        Value::of_score_on(score, WIN)
                    }
                };
                if child_value.parent() == target {
                    next = Some((mv, child, child_value));
                    break;
                }
            }
            let (mv, child, child_value) = next?;
            pv.push(mv);
            position = child;
            target = child_value;
        }
        Some(pv)
    }
}

/// Depth-first proof-number search (df-pn, Nagai 2002, with the 1 + ε threshold of
/// Pawlewicz and Lew 2007): win or loss only, no distance. It proves where alpha-beta
/// gets lost in wide trees, spending its effort where the proof looks cheapest.
impl Solver {
    /// Whether the side to move wins `state`, with the nodes expanded; `None` if `stop`
    /// was set first.
    pub fn prove(&mut self, state: &Talpa, stop: &AtomicBool) -> Option<(bool, u64)> {
        assert_eq!(state.size(), self.size, "the solver's board size");
        if let Some(outcome) = state.outcome() {
            return Some((outcome == Outcome::Win(state.side_to_move()), 0));
        }
        if self.proofs.len() != self.table.len() {
            self.proofs = vec![ProofEntry::default(); self.table.len()];
        }
        self.stopped = false;
        let nodes_before = self.nodes;
        let board = Board::of(state);
        let (key, _) = self.key(&board);
        loop {
            let (proof, disproof) = self.mid(&board, key, PN_INF, PN_INF, stop);
            if self.stopped {
                return None;
            }
            if proof == 0 || disproof == 0 {
                return Some((proof == 0, self.nodes - nodes_before));
            }
        }
    }

    fn proof_probe(&self, key: u128) -> Option<(u32, u32)> {
        let start = self.bucket(key);
        self.proofs[start..start + BUCKET]
            .iter()
            .find(|e| e.work != 0 && e.key_low == key as u64 && e.key_high == (key >> 64) as u16)
            .map(|e| (e.proof, e.disproof))
    }

    fn proof_store(&mut self, key: u128, proof: u32, disproof: u32, work: u8) {
        let start = self.bucket(key);
        let (key_low, key_high) = (key as u64, (key >> 64) as u16);
        let bucket = &mut self.proofs[start..start + BUCKET];
        // Proven entries outrank open ones of the same work.
        let rank = |e: &ProofEntry| {
            let solved = e.proof == 0 || e.disproof == 0;
            (u16::from(e.work) << 1) | u16::from(solved)
        };
        let slot = bucket
            .iter()
            .position(|e| e.work != 0 && e.key_low == key_low && e.key_high == key_high)
            .unwrap_or_else(|| (0..BUCKET).min_by_key(|&i| rank(&bucket[i])).unwrap_or(0));
        bucket[slot] = ProofEntry {
            key_low,
            key_high,
            work: work.max(1),
            proof,
            disproof,
        };
    }

    /// The children of `b` that do not lose at once, or `Err(true)` when a move wins at
    /// once and `Err(false)` when every move loses at once.
    fn children(&self, b: &Board, out: &mut [Board; MAX_CHILDREN]) -> Result<usize, bool> {
        let mut n = 0;
        let mut winning = false;
        self.for_each_judged_move(b, |from, to, verdict| {
            match verdict {
                // Opens the opponent's path: lost, never worth searching.
                Verdict::Loses => {}
                Verdict::Wins => {
                    winning = true;
                    return false;
                }
                Verdict::Continues => {
                    out[n] = Self::play(b, from, to);
                    n += 1;
                }
            }
            true
        });
        match (winning, n) {
            (true, _) => Err(true),
            (false, 0) => Err(false),
            (false, n) => Ok(n),
        }
    }

    /// Searches `b` (whose key is `key`) until its proof number reaches `proof_limit`
    /// or its disproof number `disproof_limit`; returns both.
    fn mid(
        &mut self,
        b: &Board,
        key: u128,
        proof_limit: u32,
        disproof_limit: u32,
        stop: &AtomicBool,
    ) -> (u32, u32) {
        self.nodes += 1;
        if self.nodes & 0xffff == 0 && stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if self.stopped {
            return (1, 1);
        }
        let nodes_before = self.nodes;
        let mut children = [*b; MAX_CHILDREN];
        let n = match self.children(b, &mut children) {
            Ok(n) => n,
            Err(win) => {
                let result = if win { (0, PN_INF) } else { (PN_INF, 0) };
                self.proof_store(key, result.0, result.1, 1);
                return result;
            }
        };
        let mut keys = [0u128; MAX_CHILDREN];
        // The children's (proof, disproof) numbers, from the table, then from their
        // searches (a child's entry may be overwritten while we still need it).
        let mut numbers = [(1u32, 1u32); MAX_CHILDREN];
        for i in 0..n {
            keys[i] = self.key(&children[i]).0;
            if let Some(found) = self.proof_probe(keys[i]) {
                numbers[i] = found;
            }
        }
        loop {
            // The node wins if one child loses: its proof number is the least of the
            // children's disproof numbers, its disproof number their proof numbers' sum.
            let (mut best, mut best_dn, mut second_dn) = (0, PN_INF, PN_INF);
            let mut sum_pn: u32 = 0;
            for (i, &(cp, cd)) in numbers[..n].iter().enumerate() {
                sum_pn = sum_pn.saturating_add(cp).min(PN_INF);
                if cd < best_dn {
                    second_dn = best_dn;
                    best_dn = cd;
                    best = i;
                } else if cd < second_dn {
                    second_dn = cd;
                }
            }
            let (proof, disproof) = (best_dn, sum_pn);
            if proof >= proof_limit || disproof >= disproof_limit || self.stopped {
                let spent = self.nodes - nodes_before + 1;
                if !self.stopped {
                    self.proof_store(key, proof, disproof, (64 - spent.leading_zeros()) as u8);
                }
                return (proof, disproof);
            }
            // The child's disproof limit bounds our proof number: below the second best
            // by a margin (1 + ε, ε = 1/4), and within our own limit.
            let child_disproof_limit =
                proof_limit.min(second_dn.saturating_add(second_dn / 4).saturating_add(1));
            let child_proof_limit = disproof_limit - disproof + numbers[best].0;
            let child = children[best];
            numbers[best] = self.mid(
                &child,
                keys[best],
                child_proof_limit.min(PN_INF),
                child_disproof_limit.min(PN_INF),
                stop,
            );
        }
    }
}
