//! The flags of `tabuleiro openings` ([`OpeningsFlags`], read by clap), resolved into
//! the plain [`SuiteSpec`] that [`crate::arena::suite::run`] makes a suite from.

use std::path::PathBuf;

use super::parse::{SUBCOMMAND_HELP, game_help, game_name, option_pair, whole};
use crate::arena::suite::{self, SuiteSpec};
use crate::games;

/// The flags of `tabuleiro openings`, as clap reads them.
#[derive(clap::Args, Clone, Debug)]
#[command(
    about = "Write a suite of balanced openings for match --openings",
    before_help = "\
Writes positions PLIES plies from the start that are balanced: by their exact value
where the game's tables or solver know it (a draw; for Connect Four also a win or
loss on one of the last CLOSE plies), else by a search of DEPTH whose score is
within MARGIN; distinct up to the board's symmetries. One 'startpos moves ...'
line each, after '#' lines saying how they were made.",
    help_template = SUBCOMMAND_HELP,
    override_usage = "tabuleiro openings [--game NAME] [--option N=V ...] [--count N]
                          [--plies P] [--seed S] [--depth D] [--margin CP]
                          [--solve-ms MS] [--close N] [--out FILE]",
    args_override_self = true
)]
pub struct OpeningsFlags {
    #[arg(long, value_name = "NAME", value_parser = game_name, help = game_help("openings"))]
    pub game: Option<&'static str>,
    #[arg(
        long = "option",
        value_name = "N=V",
        value_parser = option_pair,
        help = "A game option (e.g. Rows=5); repeat for more"
    )]
    pub options: Vec<(String, String)>,
    #[arg(long, value_name = "N", default_value_t = 500, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=1_000_000), help = "How many openings (default 500)", hide_default_value = true)]
    pub count: usize,
    #[arg(long, value_name = "P", default_value_t = 4, value_parser = clap::value_parser!(u32).range(0..=200), help = "Plies from the start (default 4)", hide_default_value = true)]
    pub plies: u32,
    #[arg(long, value_name = "S", default_value_t = 1, value_parser = whole::<u64>, help = "Seed of the random walks (default 1)", hide_default_value = true)]
    pub seed: u64,
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64), help = "Depth of the judging search (default: the game's\nbench depth less 2)")]
    pub depth: Option<u32>,
    #[arg(long, value_name = "CP", default_value_t = 50, value_parser = clap::value_parser!(i32).range(0..=100_000), help = "Largest score a balanced position may have, in\ncentipawn-like units (default 50)", hide_default_value = true)]
    pub margin: i32,
    #[arg(long, value_name = "MS", default_value_t = 200, value_parser = whole::<u64>, help = "Time the game's exact solver may spend on a\nposition (default 200; 0: tables only)", hide_default_value = true)]
    pub solve_ms: u64,
    #[arg(long, value_name = "N", default_value_t = 0, value_parser = whole::<u32>, help = "Connect Four: a win or loss on one of the last N\nplies counts as balanced (default 0: draws only)", hide_default_value = true)]
    pub close: u32,
    #[arg(long, value_name = "FILE", help = "Write to FILE (default: stdout)")]
    pub out: Option<PathBuf>,
}

impl OpeningsFlags {
    /// What to make: the suite's spec.
    pub fn spec(&self) -> SuiteSpec {
        SuiteSpec {
            count: self.count,
            plies: self.plies,
            seed: self.seed,
            depth: self.depth,
            margin: self.margin,
            solve_ms: self.solve_ms,
            close: self.close,
            tries: 0,
        }
    }
}

/// Runs `tabuleiro openings`; `game` is the game chosen before the subcommand.
pub fn run(flags: OpeningsFlags, game: Option<&'static str>) -> Result<(), String> {
    let name = flags.game.or(game).unwrap_or(games::DEFAULT);
    suite::run(name, &flags.options, &flags.spec(), flags.out.as_deref())
}
