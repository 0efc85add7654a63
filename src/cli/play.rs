//! The flags of `tabuleiro play` ([`PlayFlags`], read by clap): who plays each side,
//! the engine's level and time, the game and its options, how the board is drawn;
//! resolved into the plain [`PlayArgs`] that [`crate::play::run`] takes.

use std::path::PathBuf;

use clap::{Args, ValueEnum};

use super::parse::{SUBCOMMAND_HELP, game_help, game_name, option_pair, parse_flags, whole};
use crate::games;
use crate::play::{DEFAULT_MOVETIME_MS, Kind, PlayArgs};
use crate::search::Level;

/// The longest `--movetime`, ms (an hour).
const MAX_MOVETIME_MS: u64 = 3_600_000;

/// Who plays a side, as the flags spell it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum Who {
    #[value(alias = "h")]
    Human,
    #[value(aliases = ["e", "computer", "cpu"])]
    Engine,
}

impl From<Who> for Kind {
    fn from(who: Who) -> Kind {
        match who {
            Who::Human => Kind::Human,
            Who::Engine => Kind::Engine,
        }
    }
}

/// When to colour the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug, ValueEnum)]
pub enum ColourWhen {
    Auto,
    Always,
    Never,
}

/// The flags of `tabuleiro play`, as clap reads them.
#[derive(Args, Clone, Debug)]
#[command(
    about = "Play in the terminal: against the engine, a friend, or watch the engine",
    before_help = "Play a game in the terminal. By default you are p1 against the engine.",
    help_template = SUBCOMMAND_HELP,
    override_usage = "tabuleiro play [--game NAME] [--option Name=Value ...]
                      [--p1 human|engine] [--p2 human|engine]
                      [--level N] [--movetime MS] [--seed N]
                      [--ascii | --unicode] [--color auto|always|never]
                      [--pgn FILE]",
    after_help = "\
At the prompt: a move in the protocol notation, or moves, history, hint, undo,
board, fen, save FILE, new, help, quit. Ctrl-D also quits.",
    args_override_self = true
)]
pub struct PlayFlags {
    #[arg(long, value_name = "NAME", value_parser = game_name, help = game_help("play"))]
    pub game: Option<&'static str>,
    #[arg(
        long = "option",
        value_name = "Name=Value",
        value_parser = option_pair,
        help = "A game option, e.g. --option Rows=5 (see 'tabuleiro'\nUGI options); repeat for more"
    )]
    pub options: Vec<(String, String)>,
    #[arg(
        long,
        value_name = "WHO",
        value_enum,
        ignore_case = true,
        default_value_t = Who::Human,
        hide_default_value = true,
        hide_possible_values = true,
        help = "Who plays p1: human (the default) or engine"
    )]
    pub p1: Who,
    #[arg(
        long,
        value_name = "WHO",
        value_enum,
        ignore_case = true,
        default_value_t = Who::Engine,
        hide_default_value = true,
        hide_possible_values = true,
        help = "Who plays p2: human or engine (the default)"
    )]
    pub p2: Who,
    #[arg(
        long,
        value_name = "N",
        value_parser = level,
        default_value = "10",
        hide_default_value = true,
        help = "The engine's strength, 1 (random) to 10 (full, the\ndefault)"
    )]
    pub level: Level,
    #[arg(
        long,
        value_name = "MS",
        value_parser = movetime,
        default_value_t = DEFAULT_MOVETIME_MS,
        hide_default_value = true,
        help = movetime_help()
    )]
    pub movetime: u64,
    #[arg(
        long,
        value_name = "N",
        value_parser = whole::<u64>,
        help = "Repeatable engine choices below level 10"
    )]
    pub seed: Option<u64>,
    #[arg(
        long,
        overrides_with = "unicode",
        help = "Draw pieces as their FEN letters"
    )]
    pub ascii: bool,
    #[arg(
        long,
        overrides_with = "ascii",
        help = "Draw pieces as Unicode glyphs (default when LC_ALL,\nLC_CTYPE or LANG says UTF-8)"
    )]
    pub unicode: bool,
    #[arg(
        long,
        alias = "colour",
        value_name = "WHEN",
        value_enum,
        default_value_t = ColourWhen::Auto,
        hide_default_value = true,
        hide_possible_values = true,
        overrides_with = "no_color",
        help = "ANSI colour: auto (the default: stdout is a terminal\n\
                and NO_COLOR is unset), always, never; --colour too"
    )]
    pub color: ColourWhen,
    #[arg(
        long,
        alias = "no-colour",
        overrides_with = "color",
        help = "Same as --color never; --no-colour too"
    )]
    pub no_color: bool,
    #[arg(
        long,
        value_name = "FILE",
        help = "Append each game to FILE as a PGN record when it ends\n\
                (or is left unfinished: new, quit)"
    )]
    pub pgn: Option<PathBuf>,
}

fn movetime_help() -> String {
    format!("The engine's time per move (default {DEFAULT_MOVETIME_MS}; also what\n'hint' thinks)")
}

fn movetime(text: &str) -> Result<u64, String> {
    text.parse::<u64>()
        .ok()
        .filter(|ms| (1..=MAX_MOVETIME_MS).contains(ms))
        .ok_or_else(|| format!("movetime '{text}' is not 1..{MAX_MOVETIME_MS} ms"))
}

fn level(text: &str) -> Result<Level, String> {
    text.parse::<u8>()
        .ok()
        .and_then(Level::new)
        .ok_or_else(|| format!("the levels are {}..{}", Level::MIN, Level::MAX))
}

impl PlayFlags {
    /// The resolved arguments; `game` is the game chosen before `play`, if any.
    pub fn resolve(self, game: Option<&str>) -> PlayArgs {
        PlayArgs {
            game: self.game.or(game).unwrap_or(games::DEFAULT).to_string(),
            options: self.options,
            players: [self.p1.into(), self.p2.into()],
            level: self.level,
            movetime_ms: self.movetime,
            seed: self.seed,
            unicode: match (self.ascii, self.unicode) {
                (true, _) => Some(false),
                (_, true) => Some(true),
                _ => None,
            },
            colour: match (self.no_color, self.color) {
                (true, _) | (_, ColourWhen::Never) => Some(false),
                (_, ColourWhen::Always) => Some(true),
                (_, ColourWhen::Auto) => None,
            },
            pgn: self.pgn,
        }
    }
}

/// Reads the arguments after `play`; `game` is the game chosen before them.
pub fn parse_args(args: &[String], game: &str) -> Result<PlayArgs, String> {
    parse_flags::<PlayFlags>("play", args).map(|flags| flags.resolve(Some(game)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<PlayArgs, String> {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        parse_args(&args, "neutreeko")
    }

    #[test]
    fn arguments() {
        let play = parse(&[
            "--p1", "engine", "--p2", "human", "--level", "3", "--option", "Rows = 5",
        ])
        .unwrap();
        assert_eq!(play.players, [Kind::Engine, Kind::Human]);
        assert_eq!(play.level, Level::new(3).unwrap());
        assert_eq!(play.options, vec![("Rows".to_string(), "5".to_string())]);
        assert_eq!(play.movetime_ms, DEFAULT_MOVETIME_MS);
        assert!(parse(&["--movetime", "0"]).is_err());
        assert!(parse(&["--level"]).is_err());
    }

    #[test]
    fn defaults_aliases_and_last_flag_wins() {
        let play = parse(&[]).unwrap();
        assert_eq!(play.game, "neutreeko");
        assert_eq!(play.players, [Kind::Human, Kind::Engine]);
        assert_eq!(play.level, Level::FULL);
        assert_eq!((play.unicode, play.colour, play.seed), (None, None, None));
        let play = parse(&[
            "--game",
            "Talpa",
            "--p1",
            "CPU",
            "--p2",
            "h",
            "--ascii",
            "--unicode",
            "--colour",
            "always",
            "--level",
            "2",
            "--level",
            "4",
        ])
        .unwrap();
        assert_eq!(play.game, "talpa");
        assert_eq!(play.players, [Kind::Engine, Kind::Human]);
        assert_eq!(play.level, Level::new(4).unwrap());
        assert_eq!((play.unicode, play.colour), (Some(true), Some(true)));
        let play = parse(&["--color", "always", "--no-color"]).unwrap();
        assert_eq!(play.colour, Some(false));
        for bad in [
            &["--level", "11"][..],
            &["--p1", "robot"],
            &["--game", "chess"],
            &["--option", "novalue"],
            &["--color", "sometimes"],
            &["--frobnicate"],
            &["help"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
