//! tabuleiro: one engine for five abstract board games, speaking UGI.
//!
//! The crate is layered so that dependencies point one way:
//! `protocol` (text ↔ typed commands) → `session` (the line loop and the search
//! worker) → `search` (generic alpha-beta, transposition table, time) → `game`
//! (the [`game::Game`] trait) and `games` (the five rulebooks).
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
pub mod cli;
pub mod game;
pub mod games;
pub mod hash;
pub mod options;
pub mod perft;
pub mod play;
pub mod protocol;
pub mod rng;
pub mod search;
pub mod session;
