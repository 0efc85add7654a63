//! The command line of `tabuleiro match`: its usage text, and the arguments read into
//! a [`MatchConfig`] (engines named and given the match-wide limits, openings chosen).

use std::collections::HashMap;
use std::path::PathBuf;
use std::time::Duration;

use super::config::{EngineSpec, Limits, MatchConfig, OpeningSource};
use super::sprt::Sprt;
use crate::games;

/// The usage text of `tabuleiro match`.
pub const USAGE: &str = "\
Usage: tabuleiro match --engine SPEC --engine SPEC [--engine SPEC …] [options]

Plays games between UGI engines and referees them with tabuleiro's own rules:
illegal moves, garbage, a flag fall, a hang or a crash lose the game for the
engine at fault; the match goes on (a crashed or hung engine is restarted).

Engines (two or more; with more, every pair plays):
  --engine SPEC   words, quoted as in a shell where they hold spaces:
                    self | cmd=PATH     the command ('self': this tabuleiro binary;
                                        a first bare word is the command too)
                    WORD … | arg=WORD   arguments after the command (arg= for one
                                        that looks like a key=value below)
                    name=NAME           the name in results (default: the command's
                                        file name, made unique with -2, -3 …)
                    option.NAME=VALUE   sent as 'setoption name NAME value VALUE'
                    tc=, movetime=, depth=, nodes=   this engine's own limits,
                                        replacing the match-wide ones below
                  e.g. --engine \"name=deep self depth=4 option.Hash=8\"

Game:
  --game NAME     the game (default neutreeko); sent to engines that list a
                  Game option
  --option N=V    a game option (e.g. Rows=6), checked here and sent to every
                  engine; repeat for more

Limits (for every engine; combine freely, the first reached ends a search):
  --tc BASE+INC   clock in ms, e.g. 1000+10; the referee keeps the clocks
  --movetime MS   fixed time per move
  --depth N       --nodes N
  --grace MS      an answer this late past the clock or movetime still counts
                  (default 0: as in cutegames, a move is charged its wall time
                  from 'go' to 'bestmove' in whole ms, and loses on time when it
                  leaves 0 ms or less on the clock, or exceeds the movetime)
  --timeout MS    how long to wait for an engine without a clock or movetime
                  before it loses by timeout and is restarted (default 30000);
                  after a flag fall, how long to wait for its answer to 'stop'
                  before killing it; start-up and isready get at least 10000
  --max-plies N   adjudicate a draw after N engine plies (default 1000, 0: never)

Openings (each is played twice, colours swapped):
  --openings FILE one opening a line: a FEN, 'fen FEN moves M…', moves from
                  the start, or 'startpos moves M…'; '#' starts a comment
  --random-plies N  N random legal plies from the start instead
  --seed S        seed for --random-plies (default: from the clock, printed)
  (neither: every game starts from the start position)

Scheduling and output:
  --games N       games per pair of engines (default 10; odd N is rounded up)
  --concurrency K games at once (default 1); each worker runs its own engines
  --sprt E0,E1[,ALPHA,BETA]  stop when the SPRT decides whether the first
                  engine is E1 rather than E0 Elo stronger (two engines only;
                  alpha and beta default to 0.05)
  --out FILE      one JSON object a line per game
  --no-progress   no progress bar (it is shown only when stderr is a terminal)

Frozen Forest games are scored by pairs (SPEC §2: trees eaten break a 1-1 tie).";

fn number<T: std::str::FromStr>(flag: &str, text: Option<&String>) -> Result<T, String> {
    let text = text.ok_or_else(|| format!("{flag} needs a value"))?;
    text.parse()
        .map_err(|_| format!("{flag}: '{text}' is not a valid number"))
}

/// Reads the arguments after `match`.
pub fn parse_args(args: &[String]) -> Result<MatchConfig, String> {
    let self_path = std::env::current_exe()
        .map_err(|e| format!("cannot tell the path of this program: {e}"))?;
    let mut engine_texts = Vec::new();
    let mut game = games::DEFAULT;
    let mut game_options = Vec::new();
    let mut limits = Limits::default();
    let mut openings_file = None;
    let mut random_plies = None;
    let mut seed = None;
    let mut config = MatchConfig {
        game,
        game_options: Vec::new(),
        engines: Vec::new(),
        openings: OpeningSource::StartPos,
        games: 10,
        concurrency: 1,
        timeout: Duration::from_millis(30_000),
        grace: Duration::ZERO,
        max_plies: 1000,
        sprt: None,
        out: None,
        progress: true,
    };
    let mut rest = args.iter();
    while let Some(flag) = rest.next() {
        let mut value = || {
            rest.next()
                .ok_or_else(|| format!("{flag} needs a value"))
                .cloned()
        };
        match flag.as_str() {
            "--engine" => engine_texts.push(value()?),
            "--game" => {
                let name = value()?;
                game = games::canonical(&name).ok_or_else(|| {
                    format!(
                        "unknown game '{name}' (the games are: {})",
                        games::NAMES.join(", ")
                    )
                })?;
            }
            "--option" => {
                let text = value()?;
                let (name, value) = text
                    .split_once('=')
                    .filter(|(n, v)| !n.is_empty() && !v.is_empty())
                    .ok_or_else(|| format!("--option '{text}' is not NAME=VALUE"))?;
                game_options.push((name.to_string(), value.to_string()));
            }
            "--tc" | "--movetime" | "--depth" | "--nodes" => {
                let text = value()?;
                limits.set(&flag[2..], &text)?;
            }
            "--openings" => openings_file = Some(PathBuf::from(value()?)),
            "--random-plies" => random_plies = Some(number::<u32>(flag, rest.next())?),
            "--seed" => seed = Some(number::<u64>(flag, rest.next())?),
            "--games" => {
                let games = number::<u32>(flag, rest.next())?;
                if games == 0 || games > 1_000_000 {
                    return Err(format!("--games {games} is not 1..1000000"));
                }
                config.games = games + games % 2;
            }
            "--concurrency" => {
                let k = number::<usize>(flag, rest.next())?;
                if !(1..=256).contains(&k) {
                    return Err(format!("--concurrency {k} is not 1..256"));
                }
                config.concurrency = k;
            }
            "--timeout" => {
                config.timeout = Duration::from_millis(number::<u64>(flag, rest.next())?.max(1));
            }
            "--grace" => config.grace = Duration::from_millis(number(flag, rest.next())?),
            "--max-plies" => config.max_plies = number(flag, rest.next())?,
            "--sprt" => config.sprt = Some(Sprt::parse(&value()?)?),
            "--out" => config.out = Some(PathBuf::from(value()?)),
            "--no-progress" => config.progress = false,
            other => return Err(format!("unknown match argument '{other}'")),
        }
    }
    config.game = game;
    config.game_options = game_options;
    if engine_texts.len() < 2 {
        return Err("a match needs at least two --engine".to_string());
    }
    for text in &engine_texts {
        let mut spec = EngineSpec::parse(text, &self_path)?;
        spec.limits = spec.limits.or(limits);
        config.engines.push(spec);
    }
    name_engines(&mut config.engines);
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
    config.openings = match (openings_file, random_plies) {
        (Some(_), Some(_)) => return Err("give --openings or --random-plies, not both".into()),
        (Some(path), None) => OpeningSource::File(path),
        (None, Some(plies)) => OpeningSource::Random {
            plies,
            seed: seed.unwrap_or_else(clock_seed),
        },
        (None, None) => OpeningSource::StartPos,
    };
    Ok(config)
}

fn clock_seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64 % 1_000_000_007)
}

/// Gives every engine without a name its command's file name, and makes names unique.
fn name_engines(engines: &mut [EngineSpec]) {
    let mut seen: HashMap<String, u32> = HashMap::new();
    for spec in engines.iter() {
        if !spec.name.is_empty() {
            seen.insert(spec.name.clone(), 1);
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
}

#[cfg(test)]
mod tests {
    use super::super::config::split_words;
    use super::*;

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
    }
}
