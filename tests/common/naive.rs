//! Naive reference rules: for each game a deliberately plain second implementation of
//! the rules, written from SPEC and sharing no code with the engine (grids of
//! characters, lines walked one square at a time, moves as text), behind one trait,
//! [`NaiveRules`], with one generic perft and one cross-check against the engine.
//!
//! Slow on purpose: clarity over speed. `tests/perft.rs` runs the naive perft on the
//! pinned counts of `tests/data/perft.txt` and [`cross_check`] on random games of every
//! game; `tests/invariants.rs` runs [`compare`] at every position of its random games;
//! the solver tests compare with the one plain [`minimax`]; the search tests use the
//! Neutreeko rules ([`Naive`]) for brute-force proofs.

// Each test crate uses a different part of this module.
#![allow(dead_code)]

use std::collections::HashMap;

use tabuleiro::game::{Game, Outcome, Player, Value};
use tabuleiro::rng::Xorshift;

#[path = "naive/fabrik.rs"]
pub mod fabrik;
#[path = "naive/frozenforest.rs"]
pub mod frozenforest;
#[path = "naive/linetris.rs"]
pub mod linetris;
#[path = "naive/neutreeko.rs"]
pub mod neutreeko;
#[path = "naive/talpa.rs"]
pub mod talpa;

/// The Neutreeko rules, under the name the search tests know them by.
#[allow(unused_imports)]
pub use neutreeko::Naive;

/// The eight directions of a square grid, as (file, rank) steps: north first, then
/// clockwise.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, 1),
    (1, 0),
    (1, -1),
    (0, -1),
    (-1, -1),
    (-1, 0),
    (-1, 1),
];

/// The board field of a FEN (`3x3/x6/...`, top rank first), as rows of characters from
/// the bottom rank up, `'.'` for an empty square.
pub fn board_rows(board: &str) -> Vec<Vec<char>> {
    let mut rows: Vec<Vec<char>> = board
        .split('/')
        .map(|rank| {
            let mut row = Vec::new();
            let mut run = 0;
            for c in rank.chars() {
                match c.to_digit(10) {
                    Some(digit) => run = run * 10 + digit as usize,
                    None => {
                        row.extend(std::iter::repeat_n('.', run));
                        run = 0;
                        row.push(c);
                    }
                }
            }
            row.extend(std::iter::repeat_n('.', run));
            row
        })
        .collect();
    rows.reverse();
    rows
}

/// One game's rules, written plainly. A value is a position.
pub trait NaiveRules: Clone {
    /// The engine's game these rules mirror (for its options and its move notation).
    type Game: Game;

    /// The start position under the engine's options.
    fn start(config: &<Self::Game as Game>::Config) -> Self;

    /// Reads a position string of the engine (SPEC §1); panics on anything odd.
    fn from_fen(config: &<Self::Game as Game>::Config, fen: &str) -> Self;

    /// Every legal move, as text in the game's notation, in any order; none once the
    /// game is over.
    fn move_texts(&self) -> Vec<String>;

    /// Plays one of `move_texts`.
    fn play_text(&mut self, text: &str);

    /// The end of the game by these rules, or `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// The same position without a ply-limit draw: perft applies none (SPEC §3).
    fn without_ply_limit(self) -> Self {
        self
    }

    /// The start of the engine's FEN of this position, as far as these rules write it
    /// (the board and the side to move), if they write one.
    fn fen_prefix(&self) -> Option<String> {
        None
    }
}

/// Naive rules that [`minimax`] can solve.
pub trait Solvable: NaiveRules {
    fn side_to_move(&self) -> Player;

    /// The position as text: equal texts, equal positions (the key of [`Memo`]).
    fn key(&self) -> String;
}

/// The positions [`minimax`] has solved, by [`Solvable::key`].
pub type Memo = HashMap<String, Value>;

/// The value for the side to move by plain minimax over the naive rules, with a memo of
/// solved positions and nothing else (no pruning, no symmetry): a win as fast as
/// possible, then a draw (the longest), then a loss as slow as possible.
pub fn minimax<N: Solvable>(rules: &N, memo: &mut Memo) -> Value {
    if let Some(outcome) = rules.outcome() {
        return Value::of_outcome(outcome, rules.side_to_move());
    }
    let key = rules.key();
    if let Some(&value) = memo.get(&key) {
        return value;
    }
    // Wins above draws above losses; the faster win, the longer draw, the slower loss.
    let rank = |value: Value| match value {
        Value::Win(n) => 2_000_000 - i64::from(n),
        Value::Draw(n) => i64::from(n),
        Value::Loss(n) => i64::from(n) - 2_000_000,
    };
    let mut best: Option<Value> = None;
    for text in rules.move_texts() {
        let mut child = rules.clone();
        child.play_text(&text);
        let value = match minimax(&child, memo) {
            Value::Win(n) => Value::Loss(n + 1),
            Value::Loss(n) => Value::Win(n + 1),
            Value::Draw(n) => Value::Draw(n + 1),
        };
        if best.is_none_or(|best| rank(value) > rank(best)) {
            best = Some(value);
        }
    }
    let value = best.unwrap_or_else(|| panic!("no moves, yet not over: {key}"));
    memo.insert(key, value);
    value
}

/// Move sequences of exactly `depth` plies (SPEC §3): finished positions have no moves,
/// no ply-limit or repetition draw applies.
pub fn perft<N: NaiveRules>(rules: &N, depth: u32) -> u64 {
    fn count<N: NaiveRules>(rules: &N, depth: u32) -> u64 {
        let moves = rules.move_texts();
        if depth <= 1 {
            return if depth == 0 { 1 } else { moves.len() as u64 };
        }
        moves
            .iter()
            .map(|text| {
                let mut child = rules.clone();
                child.play_text(text);
                count(&child, depth - 1)
            })
            .sum()
    }
    count(&rules.clone().without_ply_limit(), depth)
}

/// Runs `visitor` for the naive rules of the game called `name`, as
/// `tabuleiro::games::visit` does for the engine's, or `None` when there are none.
pub fn visit<V: NaiveVisitor>(name: &str, visitor: V) -> Option<V::Output> {
    match name {
        "linetris" => Some(visitor.visit::<linetris::Naive>()),
        "talpa" => Some(visitor.visit::<talpa::Naive>()),
        "fabrik" => Some(visitor.visit::<fabrik::Naive>()),
        "frozenforest" => Some(visitor.visit::<frozenforest::Naive>()),
        "neutreeko" => Some(visitor.visit::<neutreeko::Naive>()),
        _ => None,
    }
}

/// Code generic over the naive rules of a game chosen at run time (see [`visit`]).
pub trait NaiveVisitor {
    type Output;
    fn visit<N: NaiveRules>(self) -> Self::Output;
}

/// The engine's legal moves as sorted text.
pub fn engine_move_texts<G: Game>(state: &G) -> Vec<String> {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|&mv| state.format_move(mv)).collect();
    texts.sort();
    texts
}

/// Plays the move `text` in the engine; panics, naming the position, when it is not
/// legal there.
pub fn engine_play<G: Game>(state: &mut G, text: &str) {
    match state.legal_move(text) {
        Ok(mv) => state.play(mv),
        Err(why) => panic!("{text} in {}: {why}", state.fen()),
    }
}

/// The naive rules' legal moves as sorted text.
pub fn sorted_move_texts<N: NaiveRules>(rules: &N) -> Vec<String> {
    let mut texts = rules.move_texts();
    texts.sort();
    texts
}

/// What [`cross_check`] compared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Compared {
    pub games: usize,
    pub positions: usize,
    /// Positions where the game was over (by both rules).
    pub endings: usize,
    /// Positions where the perft counts were compared.
    pub perfts: usize,
}

/// Plays `games` random games with `config` in the engine and in the naive rules side by
/// side, from the start, and compares at every position: the move sets as text, the
/// outcome, and the same of the naive rules read from the engine's FEN; at one position
/// in `perft_every` (drawn at random), perft to `perft_depth` plies. A game stops at its
/// end or after `max_plies` plies. The first difference is the error.
pub fn cross_check<N: NaiveRules>(
    config: &<N::Game as Game>::Config,
    games: usize,
    max_plies: usize,
    (perft_every, perft_depth): (usize, u32),
    rng: &mut Xorshift,
) -> Result<Compared, String> {
    let mut compared = Compared::default();
    for _ in 0..games {
        let mut state = <N::Game as Game>::start(config);
        let mut naive = N::start(config);
        for _ in 0..=max_plies {
            let fen = state.fen();
            let moves = engine_move_texts(&state);
            compare(config, &state, &naive)?;
            let read = N::from_fen(config, &fen);
            compared.positions += 1;
            if rng.index(perft_every) == 0 {
                let (engine, naive) = (
                    tabuleiro::perft::perft(&state, perft_depth),
                    perft(&read, perft_depth),
                );
                if engine != naive {
                    return Err(format!(
                        "{fen}: perft {perft_depth} is {engine} by the engine, {naive} by \
                         the naive rules"
                    ));
                }
                compared.perfts += 1;
            }
            if moves.is_empty() {
                compared.endings += 1;
                break;
            }
            let text = &moves[rng.index(moves.len())];
            let mv = state
                .legal_move(text)
                .map_err(|e| format!("{fen}: {text}: {e}"))?;
            state.play(mv);
            naive.play_text(text);
        }
        compared.games += 1;
    }
    Ok(compared)
}

/// Compares the engine's position `state` with the same position in the naive rules,
/// as `played` alongside and as read from the engine's FEN: the move sets as text, the
/// outcome, and the FEN as far as the naive rules write one. The first difference is
/// the error.
pub fn compare<N: NaiveRules>(
    config: &<N::Game as Game>::Config,
    state: &N::Game,
    played: &N,
) -> Result<(), String> {
    let fen = state.fen();
    let moves = engine_move_texts(state);
    let read = N::from_fen(config, &fen);
    for (what, rules) in [("played", played), ("read from the FEN", &read)] {
        let naive_moves = sorted_move_texts(rules);
        if naive_moves != moves {
            return Err(format!(
                "{fen}: the engine's moves {moves:?}, the naive rules' ({what}) \
                 {naive_moves:?}"
            ));
        }
        if rules.outcome() != state.outcome() {
            return Err(format!(
                "{fen}: the engine's outcome {:?}, the naive rules' ({what}) {:?}",
                state.outcome(),
                rules.outcome()
            ));
        }
        if let Some(prefix) = rules.fen_prefix()
            && !fen.starts_with(&prefix)
        {
            return Err(format!(
                "{fen}: the naive rules ({what}) write it as '{prefix}'"
            ));
        }
    }
    Ok(())
}
