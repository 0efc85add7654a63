//! The `tabuleiro` command line, read by clap, and the only code that knows clap:
//! with no command the UGI engine on stdin/stdout; `play`, `match`, `openings`, `solve`
//! and `bench` as subcommands, each with its flags in a file here ([`play`], `match.rs`,
//! [`openings`], `solve.rs`) that resolves them into the plain structs the code below
//! takes ([`crate::play::PlayArgs`], [`crate::arena::MatchConfig`],
//! [`crate::arena::suite::SuiteSpec`], [`crate::solve::SolveArgs`]); nothing below
//! imports this module. [`parse`]
//! holds the value parsers they share. Every error has one form: `tabuleiro: WHAT`,
//! then `Try 'tabuleiro [COMMAND] --help'.`, exit code 2.

pub mod r#match;
pub mod openings;
pub mod parse;
pub mod play;
mod solve;

use std::ffi::OsString;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use crate::arena;
use crate::bench;
use crate::games;
use crate::session;
use r#match::{MatchCommand, MatchFlags};
use openings::OpeningsFlags;
pub use parse::{
    SUBCOMMAND_HELP, Whole, game_help, game_name, message, option_pair, parse_flags, whole,
};
use play::PlayFlags;

/// The whole command line.
#[derive(Parser, Debug)]
#[command(
    name = "tabuleiro",
    version,
    about = concat!(
        "tabuleiro ",
        env!("CARGO_PKG_VERSION"),
        ": an engine for Linetris, Talpa, Fabrik, Frozen Forest and Neutreeko"
    ),
    help_template = "\
{about-with-newline}
Without a command, tabuleiro speaks UGI (and UCI) on stdin/stdout until 'quit' or
the end of its input; the protocol is described in protocol.md.

{usage-heading} {usage}

{all-args}{after-help}",
    override_usage = "tabuleiro [--game NAME] [COMMAND]",
    after_help = "\
Logging: RUST_LOG=debug tabuleiro ... writes diagnostics to stderr ('> ' before a
line the engine read, '< ' before one it wrote); stdout carries only the protocol.",
    args_override_self = true
)]
pub struct Cli {
    #[arg(long, value_name = "NAME", value_parser = game_name, help = start_game_help())]
    pub game: Option<&'static str>,
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// The one-shot commands.
#[derive(Subcommand, Debug)]
pub enum Command {
    Play(PlayFlags),
    Match(Box<MatchFlags>),
    Bench(BenchFlags),
    Openings(OpeningsFlags),
    Solve(solve::SolveFlags),
}

/// The arguments of `tabuleiro bench`.
#[derive(Args, Clone, Debug)]
#[command(
    about = "Search fixed positions of every game; print 'N nodes M nps'",
    before_help = bench_help(),
    help_template = SUBCOMMAND_HELP,
    override_usage = "tabuleiro bench [DEPTH]"
)]
pub struct BenchFlags {
    #[arg(
        value_name = "DEPTH",
        value_parser = bench_depth,
        help = "The depth of every search (default: each game's own)"
    )]
    pub depth: Option<u32>,
}

fn bench_help() -> String {
    format!(
        "Searches fixed positions of every game from a cleared table, each to its game's
bench depth or to DEPTH ({min}..{max}), and prints an 'info string' line per game
({names}), then 'N nodes M nps'.
N, the node count, is the search's signature: it changes only when search or
move generation behaviour changes. The Neutreeko tablebase is not used. Over
UGI, 'bench [DEPTH]' does the same; 'stop' or 'quit' end it early, without the
last line.",
        names = games::NAMES.join(", "),
        min = bench::DEPTHS.start(),
        max = bench::DEPTHS.end(),
    )
}

fn bench_depth(text: &str) -> Result<u32, String> {
    let (min, max) = (bench::DEPTHS.start(), bench::DEPTHS.end());
    text.parse::<u32>()
        .ok()
        .filter(|d| bench::DEPTHS.contains(d))
        .ok_or_else(|| format!("bench depth '{text}' is not {min}..{max}"))
}

fn start_game_help() -> String {
    format!(
        "The game to start with (default {default}):\n\
         {names};\n\
         it can be changed at any time with\n\
         'setoption name Game value NAME'",
        names = games::NAMES.join(", "),
        default = games::DEFAULT,
    )
}

/// Runs `tabuleiro ARGS` (the program's name first).
pub fn main(args: Vec<OsString>) -> ExitCode {
    let cli = match Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(error) if !error.use_stderr() => {
            // --help, --version: stdout, success. A closed stdout is no error here.
            let _ = error.print();
            return ExitCode::SUCCESS;
        }
        Err(error) => {
            // The help of the subcommand that failed, if one did.
            let command = args.iter().skip(1).find_map(|arg| {
                ["play", "match", "bench", "openings", "solve"]
                    .into_iter()
                    .find(|command| arg.to_str() == Some(command))
            });
            return fail(&message(&error), command);
        }
    };
    let (command, result) = match cli.command {
        None => (None, session::run(cli.game.unwrap_or(games::DEFAULT))),
        Some(Command::Play(flags)) => (Some("play"), crate::play::run(flags.resolve(cli.game))),
        Some(Command::Match(flags)) => (Some("match"), run_match(*flags, cli.game)),
        Some(Command::Bench(flags)) => {
            let report = bench::run(flags.depth, &|part| println!("info string {part}"));
            println!("{}", report.summary());
            (Some("bench"), Ok(()))
        }
        Some(Command::Openings(flags)) => (Some("openings"), openings::run(flags, cli.game)),
        Some(Command::Solve(flags)) => (
            Some("solve"),
            flags.resolve(cli.game).and_then(crate::solve::run),
        ),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(why) => fail(&why, command),
    }
}

/// Runs `tabuleiro match …` (`game`: the one chosen before `match`): `match merge
/// FILE…`, or a match.
fn run_match(flags: MatchFlags, game: Option<&'static str>) -> Result<(), String> {
    match &flags.command {
        Some(MatchCommand::Merge(merge)) => arena::main_merge(&merge.files, merge.sprt),
        None => arena::main(&flags.config(game)?),
    }
}

fn fail(message: &str, command: Option<&str>) -> ExitCode {
    eprintln!("tabuleiro: {message}");
    let help = match command {
        Some(command) => format!("tabuleiro {command} --help"),
        None => "tabuleiro --help".to_string(),
    };
    eprintln!("Try '{help}'.");
    ExitCode::from(2)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
        Cli::try_parse_from(std::iter::once("tabuleiro").chain(args.iter().copied()))
    }

    #[test]
    fn the_command_line_is_consistent() {
        use clap::CommandFactory;
        Cli::command().debug_assert();
    }

    #[test]
    fn no_command_is_the_engine() {
        let cli = parse(&[]).unwrap();
        assert!(cli.command.is_none() && cli.game.is_none());
        let cli = parse(&["--game", "FABRIK"]).unwrap();
        assert_eq!(cli.game, Some("fabrik"));
        let error = parse(&["--game", "chess"]).unwrap_err();
        assert!(message(&error).contains("unknown game 'chess'"), "{error}");
        assert!(parse(&["--frobnicate"]).is_err());
    }

    #[test]
    fn the_game_before_a_command_is_its_default() {
        let Ok(Cli {
            game,
            command: Some(Command::Play(flags)),
        }) = parse(&["--game", "talpa", "play"])
        else {
            panic!("not play");
        };
        assert_eq!(flags.resolve(game).game, "talpa");
        let Ok(Cli {
            game,
            command: Some(Command::Play(flags)),
        }) = parse(&["--game", "talpa", "play", "--game", "fabrik"])
        else {
            panic!("not play");
        };
        assert_eq!(flags.resolve(game).game, "fabrik");
    }

    #[test]
    fn bench_depths() {
        let Ok(Cli {
            command: Some(Command::Bench(flags)),
            ..
        }) = parse(&["bench", "4"])
        else {
            panic!("not bench");
        };
        assert_eq!(flags.depth, Some(4));
        let error = parse(&["bench", "0"]).unwrap_err();
        assert!(
            message(&error).contains("bench depth '0' is not 1..64"),
            "{error}"
        );
        assert!(parse(&["bench", "x"]).is_err());
        assert!(parse(&["bench", "4", "5"]).is_err());
    }

    #[test]
    fn errors_read_as_one_message() {
        let error = parse(&["play", "--frobnicate"]).unwrap_err();
        let text = message(&error);
        assert!(
            text.starts_with("unexpected argument '--frobnicate'"),
            "{text}"
        );
        assert!(
            !text.contains("Usage:") && !text.contains("For more"),
            "{text}"
        );
    }
}
