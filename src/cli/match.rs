//! The flags of `tabuleiro match` ([`MatchFlags`], read by clap) and of `match merge`
//! ([`MergeFlags`]), and their resolution into the plain [`MatchConfig`] that
//! [`crate::arena`] plays: engine specs read, named and given the match-wide limits,
//! openings chosen, cross-checks made.

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;

use super::parse::{SUBCOMMAND_HELP, game_name, option_pair, parse_flags, whole};
use crate::arena::sprt::Sprt;
use crate::arena::{EngineSpec, Limits, MatchConfig, OpeningSource};
use crate::game::{Scoring, TieBreak};
use crate::games::{self, GameVisitor};
use crate::search::Strategy;

const ENGINES: &str = "Engines (two or more; with more, every pair plays)";
const GAME: &str = "Game";
const LIMITS: &str = "Limits (for every engine; combine freely, the first reached ends a search)";
const OPENINGS: &str = "Openings (each is played twice, colours swapped)";
const SCHEDULING: &str = "Scheduling and output";

/// The words of an `--engine` SPEC, closing the help.
const AFTER_HELP: &str = "\
An engine SPEC is words, quoted as in a shell where they hold spaces:
  self | cmd=PATH     the command ('self': this tabuleiro binary; a first bare
                      word is the command too)
  WORD … | arg=WORD   arguments after the command (arg= for one that looks like
                      a key=value below)
  name=NAME           the name in results (default: the command's file name,
                      made unique with -2, -3 …)
  option.NAME=VALUE   sent as 'setoption name NAME value VALUE'
  tc=, movetime=, depth=, nodes=
                      this engine's own limits, replacing the match-wide ones
e.g. --engine \"name=deep self depth=4 option.Hash=8\"";

/// What a game that is scored by pairs counts to break a 1–1 pair, if it is.
struct PairScoring;

impl GameVisitor for PairScoring {
    type Output = Option<TieBreak>;
    fn visit<G: Strategy>(self) -> Self::Output {
        match G::SCORING {
            Scoring::Pairs(tiebreak) => Some(tiebreak),
            Scoring::Games => None,
        }
    }
}

/// The engine SPEC words, then a line for each game scored by pairs.
fn after_help() -> String {
    let mut text = AFTER_HELP.to_string();
    for name in games::NAMES {
        if let Some(Some(tiebreak)) = games::visit(name, PairScoring) {
            text.push_str(&format!(
                "\n\n{name} games are scored by pairs (SPEC §2: {} break a 1-1 tie).",
                tiebreak.words
            ));
        }
    }
    text
}

/// The flags of `tabuleiro match`, as clap reads them.
#[derive(Args, Clone, Debug)]
#[command(
    about = "Play engines against each other, refereed by our rules",
    before_help = "\
Plays games between UGI engines and referees them with tabuleiro's own rules:
illegal moves, garbage, a flag fall, a hang or a crash lose the game for the
engine at fault; the match goes on (a crashed or hung engine is restarted).",
    help_template = SUBCOMMAND_HELP,
    override_usage = "tabuleiro match --engine SPEC --engine SPEC [--engine SPEC …] [options]\n       \
                      tabuleiro match merge [--sprt E0,E1] FILE…",
    disable_help_subcommand = true,
    after_help = after_help(),
    args_override_self = true
)]
pub struct MatchFlags {
    #[arg(
        long = "engine",
        value_name = "SPEC",
        allow_hyphen_values = true,
        help_heading = ENGINES,
        help = "An engine: 'self' or a command, with its arguments,\n\
                name=, option.NAME=VALUE and its own limits (see below)"
    )]
    pub engines: Vec<String>,

    #[arg(
        long,
        value_name = "NAME",
        value_parser = game_name,
        help_heading = GAME,
        help = game_help()
    )]
    pub game: Option<&'static str>,
    #[arg(
        long = "option",
        value_name = "N=V",
        value_parser = option_pair,
        help_heading = GAME,
        help = "A game option (e.g. Rows=6), checked here and sent\n\
                to every engine; repeat for more"
    )]
    pub options: Vec<(String, String)>,

    #[arg(
        long,
        value_name = "BASE+INC",
        help_heading = LIMITS,
        help = "Clock: ms (1000+10) or with units (60s+1s, 1m+0.5s);\n\
                the referee keeps the clocks"
    )]
    pub tc: Option<String>,
    #[arg(
        long,
        value_name = "MS",
        help_heading = LIMITS,
        help = "Fixed time per move (ms, or with a unit: 2s, 500ms)"
    )]
    pub movetime: Option<String>,
    #[arg(long, value_name = "N", help_heading = LIMITS, help = "Depth of each search")]
    pub depth: Option<String>,
    #[arg(long, value_name = "N", help_heading = LIMITS, help = "Nodes of each search")]
    pub nodes: Option<String>,
    #[arg(
        long,
        value_parser = whole::<u64>,
        value_name = "MS",
        default_value_t = 0,
        hide_default_value = true,
        help_heading = LIMITS,
        help = "An answer this late past the clock or movetime still\n\
                counts (default 0: as in cutegames, a move is charged\n\
                its wall time from 'go' to 'bestmove' in whole ms, and\n\
                loses on time when it leaves 0 ms or less on the\n\
                clock, or exceeds the movetime)"
    )]
    pub grace: u64,
    #[arg(
        long,
        value_parser = whole::<u64>,
        value_name = "MS",
        default_value_t = 30_000,
        hide_default_value = true,
        help_heading = LIMITS,
        help = "How long to wait for an engine without a clock or\n\
                movetime before it loses by timeout and is restarted\n\
                (default 30000); after a flag fall, how long to wait\n\
                for its answer to 'stop' before killing it; start-up\n\
                and isready get at least 10000"
    )]
    pub timeout: u64,
    #[arg(
        long,
        value_parser = whole::<u32>,
        value_name = "N",
        default_value_t = 1000,
        hide_default_value = true,
        help_heading = LIMITS,
        help = "Adjudicate a draw after N engine plies (default 1000,\n0: never)"
    )]
    pub max_plies: u32,
    #[arg(
        long,
        help_heading = LIMITS,
        help = "End a game as soon as the referee knows its exact\n\
                value (tables, or a solver within 20 ms): reason\n\
                'adjudicated'"
    )]
    pub adjudicate: bool,

    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "random_plies",
        help_heading = OPENINGS,
        help = "One opening a line: a FEN, 'fen FEN moves M…', moves\n\
                from the start, or 'startpos moves M…'; '#' starts a\n\
                comment. Or game records (PGN): each game's FEN tag\n\
                and its {book} moves (all its moves if none is\n\
                marked). Neither this nor --random-plies: the\n\
                game's balanced suite (default options only; else\n\
                the start position)"
    )]
    pub openings: Option<PathBuf>,
    #[arg(
        long,
        value_parser = whole::<u32>,
        value_name = "N",
        help_heading = OPENINGS,
        help = "N random legal plies from the start instead (0:\nthe start position)"
    )]
    pub random_plies: Option<u32>,
    #[arg(
        long,
        value_parser = whole::<u64>,
        value_name = "S",
        help_heading = OPENINGS,
        help = "Seed for --random-plies (default: from the clock,\nprinted)"
    )]
    pub seed: Option<u64>,

    #[arg(
        long,
        value_name = "N",
        default_value_t = 10,
        hide_default_value = true,
        value_parser = clap::value_parser!(u32).range(1..=1_000_000),
        help_heading = SCHEDULING,
        help = "Games per pair of engines (default 10; odd N is\nrounded up)"
    )]
    pub games: u32,
    #[arg(
        long,
        value_name = "K",
        default_value_t = 1,
        hide_default_value = true,
        value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..=256),
        help_heading = SCHEDULING,
        help = "Games at once (default 1); each worker runs its own\nengines"
    )]
    pub concurrency: usize,
    #[arg(
        long,
        value_name = "E0,E1",
        allow_hyphen_values = true,
        value_parser = Sprt::parse,
        help_heading = SCHEDULING,
        help = "E0,E1[,ALPHA,BETA]: stop when the SPRT decides\n\
                whether the first engine is E1 rather than E0 Elo\n\
                stronger (two engines only; alpha and beta default\n\
                to 0.05)"
    )]
    pub sprt: Option<Sprt>,
    #[arg(
        long,
        value_name = "FILE",
        help_heading = SCHEDULING,
        help = "One JSON object a line per game"
    )]
    pub out: Option<PathBuf>,
    #[arg(
        long,
        help_heading = SCHEDULING,
        help = "No progress bar (it is shown only when stderr is a\nterminal)"
    )]
    pub no_progress: bool,
    #[arg(
        long,
        value_name = "FILE",
        help_heading = SCHEDULING,
        help = "Every game as PGN (tags, moves in protocol notation)"
    )]
    pub pgn: Option<PathBuf>,
    #[arg(
        long,
        value_name = "K/N",
        value_parser = parse_shard,
        help_heading = SCHEDULING,
        help = "Play only shard K of N (K from 1): the pairs whose\n\
                index is K-1 modulo N; 'tabuleiro match merge' sums\n\
                the shards' --out files"
    )]
    pub shard: Option<(u32, u32)>,
    #[arg(
        long,
        value_name = "FILE",
        conflicts_with = "out",
        help_heading = SCHEDULING,
        help = "Go on from the games in FILE (an --out file of the\n\
                same match, stopped): play the rest, appending to it"
    )]
    pub resume: Option<PathBuf>,
    #[arg(
        long,
        value_name = "DIR",
        help_heading = SCHEDULING,
        help = "Each engine process's traffic in DIR/NAME-N.log\n\
                ('>' sent, '<' read, '!' its stderr)"
    )]
    pub log_dir: Option<PathBuf>,
    #[arg(
        long,
        help_heading = ENGINES,
        help = "The first engine against each of the others (not\nevery pair)"
    )]
    pub gauntlet: bool,
    #[command(subcommand)]
    pub command: Option<MatchCommand>,
}

/// What `tabuleiro match` does instead of playing.
#[derive(clap::Subcommand, Clone, Debug)]
pub enum MatchCommand {
    /// The one summary of a match played in shards, from their --out files.
    Merge(MergeFlags),
}

/// The flags of `tabuleiro match merge`.
#[derive(Args, Clone, Debug)]
#[command(
    about = "The one summary of a match played in shards, from their JSON lines",
    help_template = SUBCOMMAND_HELP,
    override_usage = "tabuleiro match merge [--sprt E0,E1] FILE…"
)]
pub struct MergeFlags {
    #[arg(
        value_name = "FILE",
        required = true,
        help = "The --out files of the shards"
    )]
    pub files: Vec<PathBuf>,
    #[arg(
        long,
        value_name = "E0,E1",
        allow_hyphen_values = true,
        value_parser = Sprt::parse,
        help = "E0,E1[,ALPHA,BETA]: the SPRT on all the games"
    )]
    pub sprt: Option<Sprt>,
}

/// Reads `K/N` (1 ≤ K ≤ N).
fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let (k, n) = text
        .split_once('/')
        .and_then(|(k, n)| Some((k.trim().parse::<u32>().ok()?, n.trim().parse::<u32>().ok()?)))
        .ok_or_else(|| format!("'{text}' is not K/N"))?;
    if k == 0 || n == 0 || k > n {
        return Err(format!("shard '{text}': need 1 <= K <= N"));
    }
    Ok((k, n))
}

fn game_help() -> String {
    format!(
        "{};\nsent to engines that list a Game option",
        super::parse::game_help("match")
    )
}

impl MatchFlags {
    /// The match these flags describe; `game` is the game chosen before `match`, if any.
    pub fn config(self, game: Option<&'static str>) -> Result<MatchConfig, String> {
        let self_path = std::env::current_exe()
            .map_err(|e| format!("cannot tell the path of this program: {e}"))?;
        let mut limits = Limits::default();
        for (key, value) in [
            ("tc", &self.tc),
            ("movetime", &self.movetime),
            ("depth", &self.depth),
            ("nodes", &self.nodes),
        ] {
            if let Some(text) = value {
                limits.set(key, text)?;
            }
        }
        let mut config = MatchConfig {
            game: self.game.or(game).unwrap_or(games::DEFAULT),
            game_options: self.options,
            engines: Vec::new(),
            openings: OpeningSource::StartPos,
            games: self.games + self.games % 2,
            concurrency: self.concurrency,
            timeout: Duration::from_millis(self.timeout.max(1)),
            grace: Duration::from_millis(self.grace),
            max_plies: self.max_plies,
            adjudicate: self.adjudicate,
            sprt: self.sprt,
            out: self.out,
            progress: !self.no_progress,
            shard: self.shard,
            resume: self.resume,
            pgn: self.pgn,
            log_dir: self.log_dir,
            gauntlet: self.gauntlet,
        };
        if self.engines.len() < 2 {
            return Err("a match needs at least two --engine".to_string());
        }
        for text in &self.engines {
            let mut spec = EngineSpec::parse(text, &self_path)?;
            spec.limits = spec.limits.or(limits);
            config.engines.push(spec);
        }
        name_engines(&mut config.engines)?;
        for spec in &config.engines {
            if spec.limits.is_empty() {
                return Err(format!(
                    "engine '{}' has no limit: give --tc, --movetime, --depth or --nodes",
                    spec.name
                ));
            }
        }
        if config.sprt.is_some() && config.engines.len() != 2 {
            return Err("--sprt needs exactly two engines".to_string());
        }
        config.openings = match (self.openings, self.random_plies) {
            (Some(_), Some(_)) => return Err("give --openings or --random-plies, not both".into()),
            (Some(path), None) => OpeningSource::File(path),
            (None, Some(plies)) => {
                if self.seed.is_none() && (config.shard.is_some() || config.resume.is_some()) {
                    // Each shard (or the resumed run) would draw other openings.
                    return Err("--shard and --resume with --random-plies need --seed".into());
                }
                OpeningSource::Random {
                    plies,
                    seed: self.seed.unwrap_or_else(clock_seed),
                }
            }
            // Neither: the game's shipped suite (`--random-plies 0`: the start position).
            (None, None) => OpeningSource::Suite,
        };
        Ok(config)
    }
}

/// Reads the arguments after `match`.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    parse_flags::<MatchFlags>("match", args)?.config(None)
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
}

/// Gives every engine without a name its command's file name, made unique; two
/// engines given the same name are an error (their results could not be told apart).
fn name_engines(engines: &mut [EngineSpec]) -> Result<(), String> {
    let mut seen: HashMap<String, u32> = HashMap::new();
    for spec in engines.iter() {
        if !spec.name.is_empty() && seen.insert(spec.name.clone(), 1).is_some() {
            return Err(format!("two engines are named '{}'", spec.name));
        }
    }
    for spec in engines.iter_mut() {
        if !spec.name.is_empty() {
            continue;
        }
        let base = spec
            .cmd
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .filter(|s| !s.is_empty())
            .unwrap_or_else(|| "engine".to_string());
        let mut name = base.clone();
        let mut n = 1;
        while seen.contains_key(&name) {
            n += 1;
            name = format!("{base}-{n}");
        }
        seen.insert(name.clone(), 1);
        spec.name = name;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::split_words;

    fn args(text: &str) -> Vec<String> {
        split_words(text).unwrap()
    }

    #[test]
    fn match_arguments() {
        let config = parse_args(&args(
            "--engine self --engine 'self depth=3' --depth 1 --games 3 --option x=1 \
             --random-plies 2 --seed 9 --sprt 0,50",
        ))
        .unwrap();
        assert_eq!(config.engines.len(), 2);
        assert_eq!(config.engines[0].limits.depth, Some(1));
        assert_eq!(config.engines[1].limits.depth, Some(3));
        assert_ne!(config.engines[0].name, config.engines[1].name);
        assert_eq!(config.games, 4);
        assert_eq!(config.openings, OpeningSource::Random { plies: 2, seed: 9 });
        // No grace unless asked for, as in cutegames.
        assert_eq!(config.grace, Duration::ZERO);
        let graced = parse_args(&args("--engine self --engine self --tc 100 --grace 20")).unwrap();
        assert_eq!(graced.grace, Duration::from_millis(20));
        assert!(parse_args(&args("--engine self --depth 1")).is_err());
        assert!(parse_args(&args("--engine self --engine self")).is_err());
        assert!(parse_args(&args("--engine self --engine self --depth x")).is_err());
        assert!(parse_args(&args("--engine self --engine self --depth 1 --game chess")).is_err());
        assert!(parse_args(&args("--engine self --engine self --depth 1 --bogus")).is_err());
        assert!(parse_args(&args("--engine self --engine self --depth 1 --option Rows")).is_err());
        assert!(
            parse_args(&args(
                "--engine self --engine self --engine self --depth 1 --sprt 0,5"
            ))
            .is_err()
        );
        // Two engines of one name; shards without a seed.
        let error = parse_args(&args(
            "--engine 'name=a self' --engine 'name=a self' --depth 1",
        ))
        .unwrap_err();
        assert!(error.contains("two engines are named 'a'"), "{error}");
        assert!(
            parse_args(&args(
                "--engine self --engine self --depth 1 --random-plies 2 --shard 1/2"
            ))
            .is_err()
        );
        let shard = parse_args(&args(
            "--engine self --engine self --depth 1 --random-plies 2 --seed 1 --shard 2/3 --gauntlet",
        ))
        .unwrap();
        assert_eq!(shard.shard, Some((2, 3)));
        assert!(shard.gauntlet);
        for bad in ["0/2", "3/2", "1", "a/b"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }
}
