//! What `tabuleiro play` is asked to do, as plain data ([`PlayArgs`]): who plays each
//! side, the engine's level and time, the game and its options, how the board is
//! drawn. The command line fills it in; nothing here reads text.

use std::path::PathBuf;

use crate::search::Level;

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Human,
    Engine,
}

/// The `play` command line, resolved.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayArgs {
    pub game: String,
    /// `--option Name=Value`, in the order given.
    pub options: Vec<(String, String)>,
    pub players: [Kind; 2],
    pub level: Level,
    pub movetime_ms: u64,
    /// Seeds the engine's random choices below level 10 (repeatable games).
    pub seed: Option<u64>,
    /// `--ascii` / `--unicode`; `None`: Unicode when the locale says UTF-8.
    pub unicode: Option<bool>,
    /// `--color always|never`; `None`: colour when stdout is a terminal and
    /// `NO_COLOR` is unset.
    pub colour: Option<bool>,
    /// `--pgn FILE`: every game is appended to FILE as a PGN record when it ends (or
    /// is left unfinished).
    pub pgn: Option<PathBuf>,
}

/// The engine's time per move unless `--movetime` says otherwise, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1_000;
