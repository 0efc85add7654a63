//! tabuleiro: one engine for five abstract board games, speaking UGI.
//!
//! The crate is layered so that dependencies point one way:
//! `cli` (the command line: the only code that knows clap, handing plain argument
//! structs down) → `session` (the UGI line loop, reading `protocol`'s typed
//! commands), `arena` (matches), `play` (the terminal) → `search` (generic: the
//! [`search::Strategy`] a game gives the engine — [`search::Evaluator`],
//! [`search::Oracle`] — the [`search::Policy`] that picks alpha-beta, MCTS or a table,
//! time) → `game` (the rules trait [`game::Game`], notation) ← `games` (the five
//! games: rules, evaluation, tables, each in its own folder, listed once in
//! `games/mod.rs`). Only `games` names a game.
//!
//! ```
//! use tabuleiro::game::{Game, default_config};
//! use tabuleiro::games::neutreeko::Neutreeko;
//!
//! let start = Neutreeko::start(&default_config::<Neutreeko>());
//! assert_eq!(start.fen(), "1w1w1/2b2/5/2w2/1b1b1 b 0");
//! assert_eq!(tabuleiro::perft::perft(&start, 1), 14);
//! ```

pub mod arena;
pub mod bench;
pub mod book;
pub mod cli;
pub mod game;
pub mod games;
pub mod hash;
pub mod memory;
pub mod options;
pub mod perft;
pub mod play;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod session;
pub mod solve;
