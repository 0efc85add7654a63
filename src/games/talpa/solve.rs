//! Talpa's exact solver: the value of a position under best play, with the number of
//! plies to the end (the winner as fast as it can, the loser as slow as it can).
//!
//! The search is the exact-solving layer's ([`crate::search::exact`]: negamax on
//! distance scores with a bound table and null-window bisection at the root, and its
//! df-pn for win or loss alone); this file gives it what suits the game ([`Rules`]):
//! - Every move empties exactly one square and fills none, so a path that appears runs
//!   through the square just emptied, and a move's outcome depends on that square
//!   alone. Each node labels the components of its empty squares once; then each move
//!   is judged in a few operations: a move that opens the opponent's path loses at once
//!   and is never searched, and a move that opens only the mover's own path wins at
//!   once and ends the node. With no win now, a win in two is the best left.
//! - The side to move is part of the key, so a blue-to-move position is stored as its
//!   transpose with colours swapped (blue's left–right goal becomes top–bottom), and
//!   every key is the least of its images under the four symmetries that keep both
//!   goals (identity, the two mirrors, the half turn). Those maps preserve the rules:
//!   adjacency, the edges each side connects and the capture and removal moves.
//! - Ordering: the table's move first, then a history heuristic.
//! - Every ply removes one piece, so a game lasts at most as many plies as there are
//!   pieces left (the range of the first bisection), and a position's ply count is the
//!   pieces gone: a book ([`crate::book::game`]) is looked up only at its ply.
//!
//! Bitboards are `u64` with the engine's square index (`rank * size + file`), so the
//! solver takes boards up to 8×8. The layer's tables hold keys of 72 bits: up to 6×6 the
//! key is exact (two 36-bit boards); on 8×8 it is a 72-bit hash of the exact 128-bit key
//! (two positions share an entry only if 72 mixed bits agree: the odds of a false match
//! in a solve are far below the engine's own transposition table's).

use std::sync::atomic::AtomicBool;

use super::Talpa;
use crate::game::{Game, Player, Value};
use crate::hash::{GOLDEN_GAMMA, mix};
use crate::search::exact::bound::NO_MOVE;
use crate::search::exact::dfpn::MoveFilter;
use crate::search::exact::{self, Child, Exact, Expansion, Interrupted, Key};

/// The largest board the solver takes.
pub const MAX_SOLVE_SIZE: usize = 8;
/// The most squares whose exact key fits the tables' 72 bits.
const EXACT_KEY_SQUARES: usize = 36;

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

/// The game as the exact solver sees it: the board's geometry and symmetries, and the
/// history heuristic.
pub struct Rules {
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
    /// History heuristic by `[from][to]`.
    history: Vec<u32>,
}

/// The options of a board of `size` as a book's header writes them.
pub fn book_options(size: usize) -> String {
    format!("Size={size}")
}

/// Talpa's solver: the layer's, over [`Rules`].
pub type Solver = exact::Solver<Rules>;

/// A symmetry of the board: (last index, rank, file) to (rank, file).
type SquareMap = fn(usize, usize, usize) -> (usize, usize);

impl Solver {
    /// A solver for `size` (4, 6 or 8) with a table of `2^log2_entries` entries (16 bytes
    /// each).
    pub fn new(size: usize, log2_entries: u32) -> Result<Solver, String> {
        let rules = Rules::new(size)?;
        Solver::with_game(rules, log2_entries)
            .ok_or_else(|| format!("no memory for a table of 2^{log2_entries} entries"))
    }

    pub fn size(&self) -> usize {
        self.game().size
    }

    /// Whether the side to move wins `state`, by proof-number search, with the nodes
    /// expanded (no distance); `filter` keeps the moves tried at the prover's nodes.
    pub fn prove_by(
        &mut self,
        state: &Talpa,
        stop: &AtomicBool,
        filter: Option<MoveFilter<'_, Board>>,
    ) -> Result<(bool, u64), Interrupted> {
        assert_eq!(state.size(), self.size(), "the solver's board size");
        self.prove(state, stop, filter)
    }
}

impl Rules {
    /// The rules of the board of `size` (4, 6 or 8).
    pub fn new(size: usize) -> Result<Rules, String> {
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
        Ok(Rules {
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
            history: vec![0; 64 * 64],
        })
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
        if self.squares > EXACT_KEY_SQUARES {
            best.0 = fold(best.0);
        }
        best
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

    /// A move in the frame of the key of symmetry `sym`.
    fn frame_move(&self, sym: usize, from: u8, to: u8) -> u16 {
        u16::from(self.square_map[sym][usize::from(from)])
            | u16::from(self.square_map[sym][usize::from(to)]) << 8
    }
}

/// A 72-bit hash of a 128-bit key (the keys of boards beyond 6×6).
fn fold(key: u128) -> u128 {
    let (low, high) = (key as u64, (key >> 64) as u64);
    let a = mix(low ^ mix(high ^ GOLDEN_GAMMA));
    let b = mix(high ^ mix(low).rotate_left(17));
    u128::from(a) | u128::from(b & 0xff) << 64
}

impl Exact for Rules {
    type Game = Talpa;
    type Position = Board;

    fn position(&self, state: &Talpa) -> Board {
        assert_eq!(state.size(), self.size, "the solver's board size");
        Board::of(state)
    }

    fn key(&self, b: &Board) -> Option<Key> {
        let (bits, sym) = self.key(b);
        Some(Key {
            bits,
            frame: sym as u8,
        })
    }

    fn expand(
        &mut self,
        b: &Board,
        key: &Key,
        table_move: u16,
        children: &mut Vec<Child<Board>>,
    ) -> Expansion {
        let sym = usize::from(key.frame);
        let table_move = if table_move == NO_MOVE {
            NO_MOVE
        } else {
            let from = self.inverse_map[sym][(table_move & 0xff) as usize];
            let to = self.inverse_map[sym][(table_move >> 8) as usize];
            u16::from(from) | u16::from(to) << 8
        };
        let mut losing = false;
        let mut winning = None;
        self.for_each_judged_move(b, |from, to, verdict| {
            match verdict {
                Verdict::Loses => losing = true,
                Verdict::Wins => {
                    winning = Some(u16::from(from) | u16::from(to) << 8);
                    return false;
                }
                Verdict::Continues => {
                    let code = u16::from(from) | u16::from(to) << 8;
                    let order = if code == table_move {
                        u32::MAX
                    } else {
                        self.history[usize::from(from) * 64 + usize::from(to)]
                    };
                    children.push(Child {
                        position: Self::play(b, from, to),
                        code,
                        order,
                    });
                }
            }
            true
        });
        if let Some(code) = winning {
            return Expansion::Known(Value::Win(1), code);
        }
        if children.is_empty() {
            // Every move opens the opponent's path (or there is none: no pieces).
            let plies = if losing { 1 } else { 0 };
            return Expansion::Known(Value::Loss(plies), NO_MOVE);
        }
        children.sort_unstable_by_key(|c| std::cmp::Reverse(c.order));
        Expansion::Search {
            floor: losing.then_some(Value::Loss(1)),
            // No win now: the best left is the opponent forced to open our path.
            ceiling: Some(Value::Win(2)),
        }
    }

    fn framed(&self, key: &Key, code: u16) -> u16 {
        self.frame_move(
            usize::from(key.frame),
            (code & 0xff) as u8,
            (code >> 8) as u8,
        )
    }

    fn cutoff(&mut self, child: &Child<Board>, index: usize) {
        let slot = usize::from(child.code & 0xff) * 64 + usize::from(child.code >> 8);
        self.history[slot] = self.history[slot].saturating_add(1 << index.min(8));
    }

    /// The pieces gone: one a ply.
    fn ply(&self, b: &Board) -> Option<u32> {
        Some(self.squares as u32 - (b.pieces[0] | b.pieces[1]).count_ones())
    }

    fn state(&self, b: &Board, ply: u32) -> Option<Talpa> {
        Some(Talpa::from_parts(
            self.size,
            u128::from(b.pieces[0]),
            u128::from(b.pieces[1]),
            b.side,
            ply,
        ))
    }

    fn longest(&self, state: &Talpa) -> Option<u32> {
        Some((state.pieces(Player::P1) | state.pieces(Player::P2)).count_ones())
    }

    fn clear(&mut self) {
        self.history.fill(0);
    }
}
