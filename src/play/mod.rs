//! `tabuleiro play`: play any game in the terminal, against the engine or a friend,
//! or watch the engine play itself.
//!
//! - [`args`] holds [`PlayArgs`], what the command line asked for, as plain data;
//!   [`run`] starts the game chosen at run time through [`crate::games::visit`], so
//!   every game plays here without any code of its own.
//! - `game_loop` holds the game (`Play`) and its loop: it draws the board after every
//!   move ([`board`], from the game's FEN, with the glyphs of the game's [`Look`](crate::game::look::Look)) and gives the
//!   turn to a human or to the engine.
//! - `commands` reads the human's lines: moves in the protocol notation and the
//!   commands `moves`, `history`, `undo`, `hint`, `board`, `fen`, `save`, `new`,
//!   `help` and `quit`. `save FILE` writes the game so far as PGN
//!   ([`crate::arena::pgn`], the tags `match --pgn` writes where they apply);
//!   `--pgn FILE` appends every game there when it ends or is left.
//! - `engine` lets the in-process [`Policy`](crate::search::Policy) move for the
//!   engine sides (at `--level`, for `--movetime` ms) and answer `hint`.
//! - Nothing typed at the prompt can end or spoil the game by mistake: every bad line
//!   gets a message and the prompt again. The end of input (Ctrl-D) ends cleanly.

pub mod args;
pub mod board;
mod commands;
mod engine;
mod game_loop;

use std::io::{BufRead, IsTerminal, Write};

use crate::games::{self, GameVisitor};
use crate::options;
use crate::search::Strategy;
pub use args::{DEFAULT_MOVETIME_MS, Kind, PlayArgs};
use board::Style;
use game_loop::Play;

/// Whether the locale asks for UTF-8 (the first of LC_ALL, LC_CTYPE, LANG that is set).
fn locale_is_utf8() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
        .is_some_and(|value| {
            let value = value.to_ascii_lowercase();
            value.contains("utf-8") || value.contains("utf8")
        })
}

/// `tabuleiro play …`: plays on the terminal until the game is left.
pub fn run(args: PlayArgs) -> Result<(), String> {
    let stdout = std::io::stdout();
    let style = Style {
        colour: args.colour.unwrap_or_else(|| {
            stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }),
        unicode: args.unicode.unwrap_or_else(locale_is_utf8),
    };
    let io = Io {
        input: Box::new(std::io::stdin().lock()),
        out: Box::new(stdout),
        echo: !std::io::stdin().is_terminal(),
        terminal: std::io::stdout().is_terminal(),
    };
    let name = args.game.clone();
    games::visit(&name, PlayGame { args, style, io })
        .unwrap_or_else(|| Err(format!("unknown game '{name}'")))
}

/// The terminal: where lines come from and go to.
pub struct Io {
    pub input: Box<dyn BufRead>,
    pub out: Box<dyn Write>,
    /// Repeat each input line after the prompt (when the input is not a terminal, so
    /// that a piped game reads like a session).
    pub echo: bool,
    /// Whether the output is a terminal (the "thinking" note is then erased).
    pub terminal: bool,
}

/// Runs the play loop for the game chosen at run time.
pub struct PlayGame {
    pub args: PlayArgs,
    pub style: Style,
    pub io: Io,
}

impl GameVisitor for PlayGame {
    type Output = Result<(), String>;
    fn visit<G: Strategy>(self) -> Self::Output {
        let params = options::params_from_pairs::<G>(&self.args.options)?;
        let config = options::config_of::<G>(&params)?;
        Play::<G>::new(config, params, self.args, self.style, self.io).run();
        Ok(())
    }
}
