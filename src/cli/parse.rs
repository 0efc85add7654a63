//! What every subcommand's flags share: the help layout, the value parsers (game
//! names, whole numbers, `Name=Value` pairs), reading one subcommand's flags alone,
//! and clap's error reduced to its words.

use clap::{Args, FromArgMatches};

use crate::games;
use crate::options;

/// The help layout of `play`, `match` and `bench`: the one-line summary (also shown in
/// `tabuleiro --help`), a paragraph (`before_help`), the usage, the flags, a closing
/// note (`after_help`).
pub const SUBCOMMAND_HELP: &str =
    "{about-with-newline}\n{before-help}{usage-heading} {usage}\n\n{all-args}{after-help}";

/// The help of the `--game` of subcommand `command`.
pub fn game_help(command: &str) -> String {
    format!(
        "{names}\n(default: the game before '{command}', else {default})",
        names = games::NAMES.join(", "),
        default = games::DEFAULT,
    )
}

/// Reads a game name (case-insensitive) as its canonical spelling.
pub fn game_name(text: &str) -> Result<&'static str, String> {
    games::canonical(text).ok_or_else(|| {
        format!(
            "unknown game '{text}' (the games are: {})",
            games::NAMES.join(", ")
        )
    })
}

/// An unsigned type a flag reads with [`whole`].
pub trait Whole: std::str::FromStr + std::fmt::Display + Sized {
    const MAX: Self;
}

impl Whole for u32 {
    const MAX: u32 = u32::MAX;
}

impl Whole for u64 {
    const MAX: u64 = u64::MAX;
}

/// Reads a whole number `0..=T::MAX`.
pub fn whole<T: Whole>(text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("'{text}' is not a whole number 0..{}", T::MAX))
}

/// Reads `Name=Value` ([`options::parse_pair`]).
pub fn option_pair(text: &str) -> Result<(String, String), String> {
    options::parse_pair(text)
}

/// Reads the arguments of subcommand `name` alone (for `parse_args` functions and tests).
pub fn parse_flags<F: Args + FromArgMatches>(
    name: &'static str,
    args: &[String],
) -> Result<F, String> {
    let command = F::augment_args(clap::Command::new(name));
    command
        .try_get_matches_from(std::iter::once(name.to_string()).chain(args.iter().cloned()))
        .and_then(|matches| F::from_arg_matches(&matches))
        .map_err(|error| message(&error))
}

/// The words of a clap error without its `error: ` prefix, usage and help hint (the
/// caller names the help to read).
pub fn message(error: &clap::Error) -> String {
    let text = error.render().to_string();
    let text = text.strip_prefix("error: ").unwrap_or(&text);
    let end = ["\nUsage:", "\nFor more information"]
        .iter()
        .filter_map(|marker| text.find(marker))
        .min()
        .unwrap_or(text.len());
    text[..end].trim_end().to_string()
}
