//! The generic exact solver: the value of a position under best play with its
//! distance (the winner as fast as it can, the loser as slow as it can), a move that
//! keeps it and a principal variation.
//!
//! Method: negamax alpha-beta, fail-soft, on distance scores counted from the root (a
//! win at ply `p` scores `WIN − p`, a loss `p − WIN`, a draw 0), with a [`BoundTable`]
//! of exact keys holding scores counted from each position. At the root, null-window
//! searches: the first, around 0, decides the winner (a proof, as an AND/OR search
//! makes it), the next ones bisect the distance, each narrowing the range by the bound
//! it returns. There is no depth limit: the games solved are finite.
//!
//! A game takes part through [`Exact`]: its exact key, its children in the order to
//! try them (with the moves it can judge at once: a win now ends the node, a move
//! that loses at once need not be searched), its move ordering's memory, and what a
//! book or table already knows. Keys, pruning and ordering stay in the game.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::bound::{BoundTable, NO_MOVE, work_of};
use super::dfpn::{DfPn, MoveFilter};
use super::value::{INF, Value, WIN, from_relative, to_relative};
use crate::book::game::{Consult, GameBook, embedded};
use crate::game::Game;
use crate::search::Solution;

/// A position's exact key (at most 72 bits) and the frame it was taken in (a game
/// whose key is the least image under its symmetries stores moves in the key's frame).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Key {
    pub bits: u128,
    pub frame: u8,
}

/// A child of a node: the position after a move, the move's code (below [`NO_MOVE`],
/// in the game's own frame) and a key for the game's ordering.
#[derive(Clone, Copy, Debug)]
pub struct Child<P> {
    pub position: P,
    pub code: u16,
    pub order: u32,
}

/// What a game says of a node before it is searched.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Expansion {
    /// Its value is known at once (a move wins now, every move loses at once, there is
    /// no move), with the code of a move that keeps it or [`NO_MOVE`].
    Known(Value, u16),
    /// Search the children, in their order. `floor`: a value the node has at least
    /// (from moves left out because they lose at once); `ceiling`: the best it can
    /// have (no win now: a win in 2 at best).
    Search {
        floor: Option<Value>,
        ceiling: Option<Value>,
    },
}

/// A game as the exact solver sees it.
pub trait Exact {
    /// The game whose positions are solved (the root, the principal variation).
    type Game: Game;
    /// The position inside the search: the game's state or a leaner copy of it.
    type Position: Copy;

    /// The search's position of a game state.
    fn position(&self, state: &Self::Game) -> Self::Position;

    /// The exact key (two positions share it only when their values are equal), or
    /// `None` for a position the solver cannot take (the solve is then interrupted).
    fn key(&self, position: &Self::Position) -> Option<Key>;

    /// Fills `children` (empty on the call) in the order to search them, or says the
    /// node's value at once. `table_move` is the best move the table holds, in the
    /// key's frame ([`NO_MOVE`]: none).
    fn expand(
        &mut self,
        position: &Self::Position,
        key: &Key,
        table_move: u16,
        children: &mut Vec<Child<Self::Position>>,
    ) -> Expansion;

    /// A move code in the frame of `key` (as the table keeps it).
    fn framed(&self, _key: &Key, code: u16) -> u16 {
        code
    }

    /// The replacement priority of a node whose search took `spent` nodes (at least 1).
    fn priority(&self, _position: &Self::Position, spent: u64) -> u8 {
        work_of(spent)
    }

    /// The `index`-th child of a node refuted it (history heuristic).
    fn cutoff(&mut self, _child: &Child<Self::Position>, _index: usize) {}

    /// The value of a position a table of the game's own knows, or `None`. It must be
    /// exact, distance included: the solver stores it as an exact bound, and every
    /// window and bisection step above it reads it as the value of a search would be.
    /// Called at every node the table does not settle, so it must be cheap where it
    /// knows nothing. (Books are the solver's: [`Solver::set_book`].)
    fn known(&mut self, _position: &Self::Position) -> Option<Value> {
        None
    }

    /// The ply of `position` counted from the start of the game, told cheaply (a book
    /// is looked up only at its own ply); `None` where the game keeps no books.
    fn ply(&self, _position: &Self::Position) -> Option<u32> {
        None
    }

    /// `position` as a game state of ply `ply` (what a book's key is taken of).
    fn state(&self, _position: &Self::Position, _ply: u32) -> Option<Self::Game> {
        None
    }

    /// The most plies the game can last from `state` (narrows the first bisection).
    fn longest(&self, _state: &Self::Game) -> Option<u32> {
        None
    }

    /// Forgets what the game's ordering learnt.
    fn clear(&mut self) {}
}

/// A move of the game an [`Exact`] solves.
pub type MoveOf<E> = <<E as Exact>::Game as Game>::Move;

/// Why a solve gave no answer: `stop` was raised, the deadline or the node budget
/// passed, or the game could not key a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Interrupted;

/// The stop flag and the deadline are read every this many nodes.
const CHECK_INTERVAL: u64 = 1024;

/// The solver of one game, with its table.
pub struct Solver<E: Exact> {
    game: E,
    table: BoundTable,
    /// A buffer of children per ply (no allocation once warm).
    stack: Vec<Vec<Child<E::Position>>>,
    nodes: u64,
    /// The most nodes the searches may visit in all.
    budget: u64,
    deadline: Option<Instant>,
    /// The proof-number search, made on its first use with a table as large.
    proofs: Option<DfPn<E::Position>>,
    /// A book of positions of one ply, consulted at that ply by both searches.
    book: Option<Consult>,
}

/// What is known of `position` before it is searched: the book's value at the book's
/// ply, else the game's own [`Exact::known`].
pub(super) fn known<E: Exact>(
    game: &mut E,
    book: &mut Option<Consult>,
    position: &E::Position,
) -> Option<Value> {
    if let Some(book) = book
        && game.ply(position) == Some(book.ply())
    {
        return game
            .state(position, book.ply())
            .and_then(|state| book.value_of(&state));
    }
    game.known(position)
}

impl<E: Exact> Solver<E> {
    /// A solver over `game` with a table of `2^log2_entries` entries of 16 bytes and no
    /// node budget, or `None` when the system refuses the table's memory.
    pub fn with_game(game: E, log2_entries: u32) -> Option<Self> {
        Some(Solver {
            game,
            table: BoundTable::new(log2_entries)?,
            stack: Vec::new(),
            nodes: 0,
            budget: u64::MAX,
            deadline: None,
            proofs: None,
            book: None,
        })
    }

    /// Consults `book` from now on (`None`: no book), whose header must name this
    /// game and `options` (the options as a book writes them); an error, and the book
    /// of before kept, for a book of another game or options. The table is emptied:
    /// what it holds was proven without the book (right, but a solve's node count
    /// would depend on it).
    pub fn set_book(&mut self, book: Option<Arc<GameBook>>, options: &str) -> Result<(), String> {
        if let Some(book) = &book {
            book.check_for(<E::Game as Game>::NAME, options)?;
        }
        self.book = book.map(Consult::new);
        self.clear();
        Ok(())
    }

    /// Consults the built-in book of this game and `options`, if there is one
    /// ([`crate::book::game::embedded`]); whether one was taken.
    pub fn use_embedded_book(&mut self, options: &str) -> bool {
        let name = <E::Game as Game>::NAME;
        let Some(book) = embedded(name, options) else {
            return false;
        };
        match self.set_book(Some(book), options) {
            Ok(()) => true,
            Err(why) => {
                log::warn!("the built-in book of {name} {options}: {why}; not used");
                false
            }
        }
    }

    /// The book consulted, with its hits and misses.
    pub fn book(&self) -> Option<&Consult> {
        self.book.as_ref()
    }

    pub fn game(&self) -> &E {
        &self.game
    }

    pub fn game_mut(&mut self) -> &mut E {
        &mut self.game
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Makes the searches give up once they have visited `budget` nodes in all.
    pub fn set_budget(&mut self, budget: u64) {
        self.budget = budget;
    }

    /// Makes the searches give up at `deadline` (`None`: never), as if `stop` were
    /// raised then. The table keeps only what was proven.
    pub fn set_deadline(&mut self, deadline: Option<Instant>) {
        self.deadline = deadline;
    }

    /// Empties the table, the game's ordering and the node count.
    pub fn clear(&mut self) {
        self.table.clear();
        self.game.clear();
        if let Some(proofs) = &mut self.proofs {
            proofs.clear();
        }
        self.nodes = 0;
    }

    /// Whether the side to move wins `state`, by proof-number search ([`DfPn`]) over
    /// the moves `filter` keeps at the prover's nodes (all without one), with the
    /// nodes expanded. Its own table, as large as the bound table, is made on the
    /// first call.
    pub fn prove(
        &mut self,
        state: &E::Game,
        stop: &AtomicBool,
        filter: Option<MoveFilter<'_, E::Position>>,
    ) -> Result<(bool, u64), Interrupted> {
        if let Some(outcome) = state.outcome() {
            let value = Value::of_outcome(outcome, state.side_to_move());
            return Ok((matches!(value, Value::Win(_)), 0));
        }
        if self.proofs.is_none() {
            self.proofs = Some(DfPn::new(self.table.len().trailing_zeros()).ok_or(Interrupted)?);
        }
        let position = self.game.position(state);
        let proofs = self.proofs.as_mut().ok_or(Interrupted)?;
        let proved = proofs.prove(
            &mut self.game,
            &mut self.book,
            &position,
            stop,
            self.deadline,
            filter,
        );
        if let Ok((_, nodes)) = proved {
            self.nodes += nodes;
        }
        proved
    }

    /// Whether the side to move wins `state` (one null-window search).
    pub fn wins(&mut self, state: &E::Game, stop: &AtomicBool) -> Result<bool, Interrupted> {
        if let Some(outcome) = state.outcome() {
            return Ok(matches!(
                Value::of_outcome(outcome, state.side_to_move()),
                Value::Win(_)
            ));
        }
        let position = self.game.position(state);
        Ok(self.search(&position, -1, 1, 0, stop)? > 0)
    }

    /// The exact value of `state` for the side to move.
    pub fn value(&mut self, state: &E::Game, stop: &AtomicBool) -> Result<Value, Interrupted> {
        if let Some(outcome) = state.outcome() {
            return Ok(Value::of_outcome(outcome, state.side_to_move()));
        }
        let position = self.game.position(state);
        // The sign, then bisection within what is left.
        let mut score = self.search(&position, -1, 1, 0, stop)?;
        let longest = self
            .game
            .longest(state)
            .map_or(WIN, |n| n.min(WIN as u32) as i32);
        let (mut low, mut high) = match score {
            0 => return Ok(Value::Draw(0)),
            s if s > 0 => (s, WIN - 1),
            s => (-WIN, s),
        };
        if score > 0 {
            low = low.max(WIN - longest);
        } else {
            high = high.min(longest - WIN);
        }
        while low < high {
            let middle = low + (high - low + 1) / 2;
            score = self.search(&position, middle - 1, middle, 0, stop)?;
            if score >= middle {
                low = score;
            } else {
                high = score;
            }
        }
        Ok(Value::of_score(low))
    }

    /// The value of `state` with a move that keeps it (the fastest win, the slowest
    /// loss; none when the game is over) as a line of one move.
    pub fn solve(
        &mut self,
        state: &E::Game,
        stop: &AtomicBool,
    ) -> Result<Solution<<E::Game as Game>::Move>, Interrupted> {
        self.solve_to(state, stop, 1)
    }

    /// The value of `state` with best play to the end of the game (or its first move
    /// only, for a draw).
    pub fn solve_line(
        &mut self,
        state: &E::Game,
        stop: &AtomicBool,
    ) -> Result<Solution<<E::Game as Game>::Move>, Interrupted> {
        self.solve_to(state, stop, usize::MAX)
    }

    fn solve_to(
        &mut self,
        state: &E::Game,
        stop: &AtomicBool,
        length: usize,
    ) -> Result<Solution<<E::Game as Game>::Move>, Interrupted> {
        let before = self.nodes;
        let value = self.value(state, stop)?;
        let pv = self.line(state, value, length, stop)?;
        Ok(Solution {
            value,
            best: pv.first().copied(),
            pv,
            nodes: self.nodes - before,
        })
    }

    /// The values of the moves of `state` for the side to move, each with its move.
    pub fn move_values(
        &mut self,
        state: &E::Game,
        stop: &AtomicBool,
    ) -> Result<Vec<(MoveOf<E>, Value)>, Interrupted> {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut out = Vec::new();
        for mv in moves {
            let mut child = state.clone();
            child.play(mv);
            out.push((mv, self.value(&child, stop)?.parent()));
        }
        Ok(out)
    }

    /// Best play from `state`, whose value is `value`, up to `length` moves: at each
    /// step the first move whose child has the matching value.
    fn line(
        &mut self,
        state: &E::Game,
        value: Value,
        length: usize,
        stop: &AtomicBool,
    ) -> Result<Vec<<E::Game as Game>::Move>, Interrupted> {
        let mut pv = Vec::new();
        let mut position = state.clone();
        let mut target = value;
        let mut moves = Vec::new();
        while position.outcome().is_none() && pv.len() < length {
            // What the child must be worth; a draw's distance is not known.
            let Some(want) = (match target {
                Value::Draw(_) => Some(Value::Draw(0)),
                _ => target.child(),
            }) else {
                break;
            };
            moves.clear();
            position.generate_moves(&mut moves);
            let mut next = None;
            for &mv in &moves {
                let mut child = position.clone();
                child.play(mv);
                let child_value = match child.outcome() {
                    Some(outcome) => Value::of_outcome(outcome, child.side_to_move()),
                    None => {
                        let score = want.score();
                        let inner = self.game.position(&child);
                        if self.search(&inner, score - 1, score + 1, 0, stop)? != score {
                            continue;
                        }
                        want
                    }
                };
                if child_value == want {
                    next = Some((mv, child));
                    break;
                }
            }
            let Some((mv, child)) = next else {
                break;
            };
            pv.push(mv);
            position = child;
            target = want;
            if matches!(target, Value::Draw(_)) {
                break;
            }
        }
        Ok(pv)
    }

    /// The score of `position` (`ply` plies below the root) when it lies strictly
    /// between `alpha` and `beta`; otherwise a bound beyond the edge of the window it
    /// crosses (fail-soft).
    fn search(
        &mut self,
        position: &E::Position,
        alpha: i32,
        beta: i32,
        ply: i32,
        stop: &AtomicBool,
    ) -> Result<i32, Interrupted> {
        self.nodes += 1;
        if self.nodes > self.budget
            || (self.nodes.is_multiple_of(CHECK_INTERVAL)
                && (stop.load(Ordering::Relaxed)
                    || self.deadline.is_some_and(|end| Instant::now() >= end)))
        {
            return Err(Interrupted);
        }
        // Nothing beats a win on the next move.
        let best_possible = WIN - (ply + 1);
        if alpha >= best_possible {
            return Ok(best_possible);
        }
        let depth = ply as usize;
        if self.stack.len() <= depth {
            self.stack.resize_with(depth + 1, Vec::new);
        }
        let mut children = std::mem::take(&mut self.stack[depth]);
        children.clear();
        let result = self.node(position, alpha, beta, ply, stop, &mut children);
        self.stack[depth] = children;
        result
    }

    fn node(
        &mut self,
        position: &E::Position,
        mut alpha: i32,
        mut beta: i32,
        ply: i32,
        stop: &AtomicBool,
        children: &mut Vec<Child<E::Position>>,
    ) -> Result<i32, Interrupted> {
        let nodes_before = self.nodes;
        let key = self.game.key(position).ok_or(Interrupted)?;
        let mut table_move = NO_MOVE;
        if let Some(bounds) = self.table.probe(key.bits) {
            let low = from_relative(bounds.low, ply);
            let high = from_relative(bounds.high, ply);
            if low >= beta || low == high {
                return Ok(low);
            }
            if high <= alpha {
                return Ok(high);
            }
            alpha = alpha.max(low);
            beta = beta.min(high);
            table_move = bounds.best;
        }
        if let Some(value) = known(&mut self.game, &mut self.book, position) {
            let score = value.score();
            self.table.store(key.bits, score, score, NO_MOVE, 1);
            return Ok(from_relative(score, ply));
        }
        let (floor, ceiling) = match self.game.expand(position, &key, table_move, children) {
            Expansion::Known(value, code) => {
                let score = value.score();
                let best = if code == NO_MOVE {
                    NO_MOVE
                } else {
                    self.game.framed(&key, code)
                };
                self.table.store(key.bits, score, score, best, 1);
                return Ok(from_relative(score, ply));
            }
            Expansion::Search { floor, ceiling } => (floor, ceiling),
        };
        if let Some(ceiling) = ceiling {
            let best_possible = from_relative(ceiling.score(), ply);
            if alpha >= best_possible {
                return Ok(best_possible);
            }
        }
        let alpha_start = alpha;
        let mut best = floor.map_or(-INF, |v| from_relative(v.score(), ply));
        let mut best_move = NO_MOVE;
        for (i, child) in children.iter().enumerate() {
            let score = -self.search(&child.position, -beta, -alpha.max(best), ply + 1, stop)?;
            if score > best {
                best = score;
                best_move = child.code;
                if score >= beta {
                    self.game.cutoff(child, i);
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
        if best_move != NO_MOVE {
            best_move = self.game.framed(&key, best_move);
        }
        let work = self.game.priority(position, self.nodes - nodes_before + 1);
        self.table.store(
            key.bits,
            to_relative(low, ply),
            to_relative(high, ply),
            best_move,
            work,
        );
        Ok(best)
    }
}
