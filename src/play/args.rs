//! The command line of `tabuleiro play`: who plays each side, the engine's level and
//! time, the game and its options, how the board is drawn.

use crate::games;
use crate::search::Level;

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Human,
    Engine,
}

/// The `play` command line.
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
    pub help: bool,
}

/// The engine's time per move unless `--movetime` says otherwise, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1_000;
const MAX_MOVETIME_MS: u64 = 3_600_000;

pub fn usage() -> String {
    format!(
        "Usage: tabuleiro play [--game NAME] [--option Name=Value ...]
                      [--p1 human|engine] [--p2 human|engine]
                      [--level N] [--movetime MS] [--seed N]
                      [--ascii | --unicode] [--color auto|always|never]

Play a game in the terminal. By default you are p1 against the engine.
  --game NAME         {names} (default {default})
  --option Name=Value a game option, e.g. --option Rows=5 (see 'tabuleiro' UGI options)
  --p1, --p2          who plays each side: human or engine
  --level N           the engine's strength, 1 (random) to 10 (full, the default)
  --movetime MS       the engine's time per move (default {movetime})
  --seed N            repeatable engine choices below level 10
  --ascii, --unicode  draw pieces as FEN letters or as Unicode glyphs
  --color WHEN        ANSI colour: auto (a terminal without NO_COLOR), always, never
At the prompt: a move in the protocol notation, or moves, hint, undo, board, fen,
new, help, quit. Ctrl-D also quits.",
        names = games::NAMES.join(", "),
        default = games::DEFAULT,
        movetime = DEFAULT_MOVETIME_MS,
    )
}

fn kind(text: &str) -> Result<Kind, String> {
    match text.to_ascii_lowercase().as_str() {
        "human" | "h" => Ok(Kind::Human),
        "engine" | "e" | "computer" | "cpu" => Ok(Kind::Engine),
        _ => Err(format!("'{text}' is not human or engine")),
    }
}

/// Reads the arguments after `play`; `game` is the game chosen before them.
pub fn parse_args(args: &[String], game: &str) -> Result<PlayArgs, String> {
    let mut play = PlayArgs {
        game: game.to_string(),
        options: Vec::new(),
        players: [Kind::Human, Kind::Engine],
        level: Level::FULL,
        movetime_ms: DEFAULT_MOVETIME_MS,
        seed: None,
        unicode: None,
        colour: None,
        help: false,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = |what: &str| {
            rest.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{arg} needs {what}"))
        };
        match arg.as_str() {
            "-h" | "--help" | "help" => play.help = true,
            "--game" => {
                let name = value("a game name")?;
                play.game = games::canonical(name)
                    .ok_or_else(|| {
                        format!(
                            "unknown game '{name}' (the games are: {})",
                            games::NAMES.join(", ")
                        )
                    })?
                    .to_string();
            }
            "--option" => {
                let text = value("Name=Value")?;
                let (name, val) = text
                    .split_once('=')
                    .ok_or_else(|| format!("--option '{text}' is not Name=Value"))?;
                play.options
                    .push((name.trim().to_string(), val.trim().to_string()));
            }
            "--p1" => play.players[0] = kind(value("human or engine")?)?,
            "--p2" => play.players[1] = kind(value("human or engine")?)?,
            "--level" => {
                let text = value("a level 1..10")?;
                play.level = text
                    .parse::<u8>()
                    .ok()
                    .and_then(Level::new)
                    .ok_or_else(|| format!("level '{text}' is not 1..10"))?;
            }
            "--movetime" => {
                let text = value("milliseconds")?;
                play.movetime_ms = text
                    .parse::<u64>()
                    .ok()
                    .filter(|ms| (1..=MAX_MOVETIME_MS).contains(ms))
                    .ok_or_else(|| format!("movetime '{text}' is not 1..{MAX_MOVETIME_MS} ms"))?;
            }
            "--seed" => {
                let text = value("a number")?;
                play.seed = Some(
                    text.parse()
                        .map_err(|_| format!("seed '{text}' is not a whole number"))?,
                );
            }
            "--ascii" => play.unicode = Some(false),
            "--unicode" => play.unicode = Some(true),
            "--color" | "--colour" => {
                play.colour = match value("auto, always or never")? {
                    "auto" => None,
                    "always" => Some(true),
                    "never" => Some(false),
                    other => return Err(format!("--color '{other}' is not auto, always or never")),
                }
            }
            "--no-color" | "--no-colour" => play.colour = Some(false),
            other => return Err(format!("play: unknown argument '{other}'")),
        }
    }
    Ok(play)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn arguments() {
        let args: Vec<String> = [
            "--p1", "engine", "--p2", "human", "--level", "3", "--option", "Rows = 5",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let play = parse_args(&args, "neutreeko").unwrap();
        assert_eq!(play.players, [Kind::Engine, Kind::Human]);
        assert_eq!(play.level, Level::new(3).unwrap());
        assert_eq!(play.options, vec![("Rows".to_string(), "5".to_string())]);
        assert_eq!(play.movetime_ms, DEFAULT_MOVETIME_MS);
        let bad = ["--movetime".to_string(), "0".to_string()];
        assert!(parse_args(&bad, "neutreeko").is_err());
        assert!(parse_args(&["--level".to_string()], "neutreeko").is_err());
    }
}
