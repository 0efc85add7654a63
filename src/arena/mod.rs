//! `tabuleiro match`: engine-versus-engine matches refereed by our own rules.
//!
//! - A match is described by a [`MatchConfig`] ([`config`]: engines, game and options,
//!   limits, openings, scheduling), plain data that the command line fills in.
//! - [`schedule`] checks everything against the chosen game (through
//!   [`crate::games::visit`], so each game joins for free), then plays the games on
//!   `--concurrency` worker threads, each with its own engine processes
//!   ([`engine_process`]), refereed move by move ([`referee`]). The main thread gathers
//!   results, writes `--out` JSON lines ([`record`]) and `--pgn` records ([`replay`],
//!   [`pgn`]), keeps the progress bar and the SPRT ([`sprt`]); [`summary`] tallies the
//!   results and writes the summary ([`stats`]: scores, pairs, Elo, move times).
//! - `--shard K/N` splits a match over processes or machines; [`merge`] sums their
//!   JSON lines into the one summary; `--resume` goes on from a stopped match's lines.
//! - [`adjudicate`] ends a game whose exact value the referee knows (`--adjudicate`).
//! - [`suite`] makes balanced opening suites (`tabuleiro openings`) and holds the
//!   shipped ones that `match` plays when it is given no openings.
//! - Games come in pairs from one opening ([`openings`]) with colours swapped. Games
//!   whose [`Game::SCORING`](crate::game::Game::SCORING) is
//!   [`Scoring::Pairs`](crate::game::Scoring::Pairs) are scored by pairs per SPEC §2
//!   ([`stats::score_pair`]); others game by game.

pub mod adjudicate;
pub mod config;
pub mod engine_process;
pub mod merge;
pub mod openings;
pub mod pgn;
pub mod record;
pub mod referee;
pub mod replay;
pub mod schedule;
pub mod sprt;
pub mod stats;
pub mod suite;
pub mod summary;

pub use config::{EngineSpec, Limits, MatchConfig, OpeningSource, TimeControl, split_words};
pub use record::GameRecord;
pub use schedule::run;
pub use summary::{MatchSummary, PairingStats};

use std::io::Write;

/// Runs `tabuleiro match`: plays the match, then prints the summary on stdout.
pub fn main(config: &MatchConfig) -> Result<(), String> {
    let summary = run(config)?;
    print(&summary.render(config));
    Ok(())
}

/// Runs `tabuleiro match merge FILE…`: prints the one summary of the shards' `--out`
/// files, with the SPRT `sprt` on all their games.
pub fn main_merge(files: &[std::path::PathBuf], sprt: Option<sprt::Sprt>) -> Result<(), String> {
    print(&merge::main(files, sprt)?);
    Ok(())
}

fn print(text: &str) {
    // A closed stdout (`| head`) must not panic: the games are played and written.
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(text.as_bytes())
        .and_then(|()| stdout.flush());
}
