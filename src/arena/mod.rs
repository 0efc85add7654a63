//! `tabuleiro match`: engine-versus-engine matches refereed by our own rules.
//!
//! - [`parse_args`] turns the command line into a [`MatchConfig`] (engines, game and
//!   options, limits, openings, scheduling).
//! - [`run`] checks everything against the chosen game (through [`games::visit`], so
//!   each game joins for free), then plays the games on `--concurrency` worker threads,
//!   each with its own engine processes ([`engine_process`]), refereed move by move
//!   ([`referee`]). The main thread gathers results, writes `--out` JSON lines, keeps
//!   the progress bar and the SPRT ([`sprt`]), and prints the summary ([`stats`]).
//! - Games come in pairs from one opening with colours swapped. Games whose start
//!   position answers `query("trees")` (Frozen Forest) are scored by pairs per SPEC §2
//!   ([`stats::score_pair`]); others game by game.

pub mod engine_process;
pub mod json;
pub mod openings;
pub mod referee;
pub mod sprt;
pub mod stats;

use std::collections::{BTreeMap, HashMap};
use std::io::{IsTerminal, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use crate::game::{Game, Outcome, Player};
use crate::games::{self, GameVisitor};
use crate::options;
use openings::Opening;
use referee::{EngineSlot, GameReport, Reason, RefereeSettings};
use sprt::{Decision, Sprt};
use stats::{MoveTimes, PairGame, Score, Tally};

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

/// A clock: base time and increment, ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    /// Reads `BASE+INC` or `BASE` (ms).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let number = |part: &str| {
            part.trim()
                .parse::<u64>()
                .ok()
                .filter(|&ms| ms <= 86_400_000)
                .ok_or_else(|| format!("'{text}' is not a time control BASE+INC in ms"))
        };
        let tc = TimeControl {
            base_ms: number(base)?,
            inc_ms: number(inc)?,
        };
        if tc.base_ms == 0 && tc.inc_ms == 0 {
            return Err(format!("time control '{text}' gives no time"));
        }
        Ok(tc)
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}", self.base_ms, self.inc_ms)
    }
}

/// The limits of an engine's searches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub tc: Option<TimeControl>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
}

impl Limits {
    /// `self`'s limits where set, else `fallback`'s.
    pub fn or(self, fallback: Limits) -> Limits {
        Limits {
            tc: self.tc.or(fallback.tc),
            movetime: self.movetime.or(fallback.movetime),
            depth: self.depth.or(fallback.depth),
            nodes: self.nodes.or(fallback.nodes),
        }
    }

    pub fn is_empty(&self) -> bool {
        *self == Limits::default()
    }

    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(tc) = self.tc {
            parts.push(format!("tc {tc}"));
        }
        if let Some(ms) = self.movetime {
            parts.push(format!("movetime {ms}"));
        }
        if let Some(depth) = self.depth {
            parts.push(format!("depth {depth}"));
        }
        if let Some(nodes) = self.nodes {
            parts.push(format!("nodes {nodes}"));
        }
        parts.join(", ")
    }

    /// Sets one limit from `key=value` words; `Ok(false)` if `key` is not a limit.
    fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let positive = |what: &str| {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{what} '{value}' is not a positive whole number"))
        };
        match key {
            "tc" => self.tc = Some(TimeControl::parse(value)?),
            "movetime" => self.movetime = Some(positive("movetime")?),
            "depth" => {
                let depth = positive("depth")?;
                self.depth = Some(u32::try_from(depth.min(1000)).unwrap_or(1000));
            }
            "nodes" => self.nodes = Some(positive("nodes")?),
            _ => return Ok(false),
        }
        Ok(true)
    }
}

/// One engine of the match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EngineSpec {
    pub name: String,
    pub cmd: PathBuf,
    pub args: Vec<String>,
    /// `setoption` pairs, in the order given.
    pub options: Vec<(String, String)>,
    /// The engine's own limits (merged with the match-wide ones by [`parse_args`]).
    pub limits: Limits,
}

/// Splits a spec into words: whitespace separates, single or double quotes group,
/// a backslash escapes the next character (outside single quotes).
pub fn split_words(text: &str) -> Result<Vec<String>, String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('\'') => break,
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed ' in '{text}'")),
                    }
                }
            }
            '"' => {
                in_word = true;
                loop {
                    match chars.next() {
                        Some('"') => break,
                        Some('\\') => match chars.next() {
                            Some(c) => word.push(c),
                            None => return Err(format!("trailing \\ in '{text}'")),
                        },
                        Some(c) => word.push(c),
                        None => return Err(format!("unclosed \" in '{text}'")),
                    }
                }
            }
            '\\' => {
                in_word = true;
                match chars.next() {
                    Some(c) => word.push(c),
                    None => return Err(format!("trailing \\ in '{text}'")),
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            c => {
                in_word = true;
                word.push(c);
            }
        }
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

impl EngineSpec {
    /// Reads an `--engine` spec (see [`USAGE`]); `self_path` is what `self` means.
    /// The name is left empty when not given ([`parse_args`] fills it in).
    pub fn parse(text: &str, self_path: &std::path::Path) -> Result<EngineSpec, String> {
        let mut spec = EngineSpec {
            name: String::new(),
            cmd: PathBuf::new(),
            args: Vec::new(),
            options: Vec::new(),
            limits: Limits::default(),
        };
        let mut have_cmd = false;
        let command = |path: &str| {
            if path == "self" {
                self_path.to_path_buf()
            } else {
                PathBuf::from(path)
            }
        };
        for word in split_words(text)? {
            let split = word.split_once('=');
            match split {
                Some(("name", value)) => {
                    if value.is_empty() {
                        return Err("empty engine name".to_string());
                    }
                    spec.name = value.to_string();
                }
                Some(("cmd", value)) => {
                    if have_cmd {
                        return Err(format!("two commands in engine spec '{text}'"));
                    }
                    if value.is_empty() {
                        return Err("empty engine command".to_string());
                    }
                    spec.cmd = command(value);
                    have_cmd = true;
                }
                Some(("arg", value)) => spec.args.push(value.to_string()),
                Some((key, value)) if key.starts_with("option.") => {
                    let name = &key["option.".len()..];
                    if name.is_empty() {
                        return Err(format!("'{word}' names no option"));
                    }
                    spec.options.push((name.to_string(), value.to_string()));
                }
                Some((key, value)) if spec.limits.set(key, value)? => {}
                _ => {
                    if have_cmd {
                        spec.args.push(word);
                    } else {
                        spec.cmd = command(&word);
                        have_cmd = true;
                    }
                }
            }
        }
        if !have_cmd {
            return Err(format!(
                "engine spec '{text}' has no command (cmd=PATH, or 'self')"
            ));
        }
        Ok(spec)
    }
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    StartPos,
    File(PathBuf),
    Random { plies: u32, seed: u64 },
}

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    pub game: &'static str,
    pub game_options: Vec<(String, String)>,
    pub engines: Vec<EngineSpec>,
    pub openings: OpeningSource,
    /// Games per pair of engines (even).
    pub games: u32,
    pub concurrency: usize,
    pub timeout: Duration,
    pub grace: Duration,
    pub max_plies: u32,
    pub sprt: Option<Sprt>,
    pub out: Option<PathBuf>,
    pub progress: bool,
}

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

/// The results of one pair of engines, from the first engine's side.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// Engine indices.
    pub a: usize,
    pub b: usize,
    /// Every game.
    pub games: Tally,
    /// The scored units: games, or pairs of games where pairs are scored.
    pub units: Tally,
    pub a_as_p1: Tally,
    pub a_as_p2: Tally,
    pub p1_wins: u32,
    pub p2_wins: u32,
    pub draws: u32,
    pub reasons: BTreeMap<Reason, u32>,
    /// The SPRT's decision when it was made, with the LLR and the units then.
    pub sprt: Option<(Decision, f64, u32)>,
}

impl PairingStats {
    fn add_game(&mut self, report: &GameReport) {
        let a_player = if report.engines[0] == self.a {
            Player::P1
        } else {
            Player::P2
        };
        let score = Score::of(a_player, report.outcome);
        self.games.add(score);
        match a_player {
            Player::P1 => self.a_as_p1.add(score),
            Player::P2 => self.a_as_p2.add(score),
        }
        match report.outcome {
            Outcome::Win(Player::P1) => self.p1_wins += 1,
            Outcome::Win(Player::P2) => self.p2_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
        *self.reasons.entry(report.reason).or_default() += 1;
    }
}

/// The whole match's results.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub game: &'static str,
    pub engine_names: Vec<String>,
    pub pairings: Vec<PairingStats>,
    pub pair_scored: bool,
    pub games_played: u32,
    pub games_planned: u32,
    pub seed: Option<u64>,
    pub elapsed: Duration,
    /// Per engine, the time of its moves (as the referee charged them).
    pub move_times: Vec<MoveTimes>,
}

impl MatchSummary {
    /// The summary text.
    pub fn render(&self, config: &MatchConfig) -> String {
        let mut out = String::new();
        let line = |out: &mut String, text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        line(
            &mut out,
            format!(
                "Match: {} ({}), {} of {} games in {:.1} s",
                self.game,
                if config.game_options.is_empty() {
                    "default options".to_string()
                } else {
                    config
                        .game_options
                        .iter()
                        .map(|(n, v)| format!("{n}={v}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                },
                self.games_played,
                self.games_planned,
                self.elapsed.as_secs_f64()
            ),
        );
        for spec in &config.engines {
            let mut text = format!("  {}: {}", spec.name, spec.limits.describe());
            for (name, value) in &spec.options {
                text.push_str(&format!(", {name}={value}"));
            }
            line(&mut out, text);
        }
        match &config.openings {
            OpeningSource::StartPos => line(&mut out, "Openings: the start position".into()),
            OpeningSource::File(path) => {
                line(&mut out, format!("Openings: {}", path.display()));
            }
            OpeningSource::Random { plies, seed } => {
                line(
                    &mut out,
                    format!("Openings: {plies} random plies, seed {seed}"),
                );
            }
        }
        for p in &self.pairings {
            let (a, b) = (&self.engine_names[p.a], &self.engine_names[p.b]);
            let unit = if self.pair_scored { "pairs" } else { "games" };
            let score = p
                .units
                .score()
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
            let elo = match p.units.elo() {
                Some((elo, low, high)) => format!(
                    "Elo {} [{}, {}] (95%)",
                    stats::format_elo(elo),
                    stats::format_elo(low),
                    stats::format_elo(high)
                ),
                None => "Elo -".to_string(),
            };
            line(
                &mut out,
                format!(
                    "{a} vs {b}: {} {}  score {score}  {elo}",
                    unit,
                    p.units.short()
                ),
            );
            if self.pair_scored {
                line(
                    &mut out,
                    format!("  games {} (pairs scored per SPEC §2)", p.games.short()),
                );
            }
            line(
                &mut out,
                format!(
                    "  {a} as p1 {}, as p2 {}; p1 won {}, p2 won {}, draws {}",
                    p.a_as_p1.short(),
                    p.a_as_p2.short(),
                    p.p1_wins,
                    p.p2_wins,
                    p.draws
                ),
            );
            let ends: Vec<String> = Reason::ALL
                .iter()
                .map(|r| format!("{} {}", r.as_str(), p.reasons.get(r).copied().unwrap_or(0)))
                .collect();
            line(&mut out, format!("  ends: {}", ends.join(", ")));
            if let Some(sprt) = config.sprt {
                let (lower, upper) = sprt.bounds();
                let now = sprt.llr(&p.units);
                let verdict = match p.sprt {
                    Some((decision, llr, n)) => {
                        format!("{} at LLR {llr:.2} after {n} {unit}", decision.describe())
                    }
                    None => Decision::Continue.describe().to_string(),
                };
                line(
                    &mut out,
                    format!(
                        "  SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {now:.2} [{lower:.2}, {upper:.2}], {verdict}",
                        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
                    ),
                );
            }
        }
        line(
            &mut out,
            "Time per move (wall time from go to bestmove):".into(),
        );
        for (name, times) in self.engine_names.iter().zip(&self.move_times) {
            line(&mut out, format!("  {name}: {}", times.describe()));
        }
        if self.engine_names.len() > 2 {
            line(&mut out, "Standings (points per scored unit):".into());
            let mut points: Vec<(f64, u32, &str)> = self
                .engine_names
                .iter()
                .enumerate()
                .map(|(index, name)| {
                    let mut pts = 0.0;
                    let mut n = 0;
                    for p in &self.pairings {
                        let tally = if p.a == index {
                            p.units
                        } else if p.b == index {
                            p.units.flipped()
                        } else {
                            continue;
                        };
                        pts += f64::from(tally.wins) + 0.5 * f64::from(tally.draws);
                        n += tally.total();
                    }
                    (pts, n, name.as_str())
                })
                .collect();
            points.sort_by(|x, y| y.0.total_cmp(&x.0));
            for (rank, (pts, n, name)) in points.iter().enumerate() {
                line(&mut out, format!("  {}. {name}: {pts} of {n}", rank + 1));
            }
        }
        out
    }
}

/// One job: a pair of games from one opening with colours swapped.
struct Job {
    pairing: usize,
    a: usize,
    b: usize,
    pair: u32,
}

/// A finished game, sent from a worker to the main thread.
struct Done {
    job: usize,
    /// 0: `a` was p1; 1: `b` was p1.
    leg: usize,
    pair: u32,
    report: GameReport,
}

/// Runs `tabuleiro match ARGS`: prints the summary on stdout.
pub fn main(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        println!("{USAGE}");
        return Ok(());
    }
    let config = parse_args(args)?;
    let summary = run(&config)?;
    // A closed stdout (`| head`) must not panic: the games are played and written.
    let mut stdout = std::io::stdout().lock();
    let _ = stdout
        .write_all(summary.render(&config).as_bytes())
        .and_then(|()| stdout.flush());
    Ok(())
}

/// Plays the match.
pub fn run(config: &MatchConfig) -> Result<MatchSummary, String> {
    games::visit(config.game, RunMatch(config))
        .ok_or_else(|| format!("unknown game '{}'", config.game))?
}

struct RunMatch<'a>(&'a MatchConfig);

impl GameVisitor for RunMatch<'_> {
    type Output = Result<MatchSummary, String>;
    fn visit<G: Game>(self) -> Self::Output {
        run_game::<G>(self.0)
    }
}

fn run_game<G: Game>(config: &MatchConfig) -> Result<MatchSummary, String> {
    let began = Instant::now();
    let game_config = options::config_from_pairs::<G>(&config.game_options)?;
    let opening_list: Vec<Opening> = match &config.openings {
        OpeningSource::File(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
            openings::parse_file::<G>(&game_config, &text)
                .map_err(|e| format!("openings '{}': {e}", path.display()))?
        }
        _ => Vec::new(),
    };
    let pair_scored = G::start(&game_config).query("trees").is_some();
    let settings = RefereeSettings {
        game: G::NAME,
        game_options: config.game_options.clone(),
        timeout: config.timeout,
        grace: config.grace,
        max_plies: config.max_plies,
    };
    let mut out_file = match &config.out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create '{}': {e}", path.display()))?,
        )),
        None => None,
    };

    // Every engine must start and answer the handshake before the match begins: a
    // wrong path or a program that is no engine is the user's error, not a game loss.
    for (index, spec) in config.engines.iter().enumerate() {
        let mut slot = EngineSlot::new(index, spec.clone());
        slot.ensure_started(&settings).map_err(|e| match e {
            referee::StartError::Rejected { .. } => format!("engine '{}' {e}", spec.name),
            referee::StartError::Failed(_) => format!("engine '{}' does not start: {e}", spec.name),
        })?;
        slot.quit();
    }

    let n = config.engines.len();
    let mut pairings = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            pairings.push(PairingStats {
                a,
                b,
                ..PairingStats::default()
            });
        }
    }
    let pairs_per_pairing = config.games / 2;
    let mut jobs = Vec::new();
    for pair in 0..pairs_per_pairing {
        for (index, p) in pairings.iter().enumerate() {
            jobs.push(Job {
                pairing: index,
                a: p.a,
                b: p.b,
                pair,
            });
        }
    }
    let games_planned = jobs.len() as u32 * 2;
    let opening_of = |pair: u32| -> Opening {
        match &config.openings {
            OpeningSource::StartPos => Opening::startpos(),
            OpeningSource::File(_) => opening_list[pair as usize % opening_list.len()].clone(),
            OpeningSource::Random { plies, seed } => {
                openings::random::<G>(&game_config, *plies, *seed, u64::from(pair))
            }
        }
    };

    let progress = progress_bar(config.progress, u64::from(games_planned));
    let next_job = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let names: Vec<String> = config.engines.iter().map(|s| s.name.clone()).collect();
    let mut games_played = 0u32;
    let mut write_error: Option<String> = None;
    let engines = &config.engines;
    let workers = config.concurrency.min(jobs.len()).max(1);
    let mut first_legs: HashMap<usize, GameReport> = HashMap::new();
    let mut move_times = vec![MoveTimes::default(); n];
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Done>();
        for worker in 0..workers {
            let sender = sender.clone();
            let (jobs, next_job, stop, settings, game_config) =
                (&jobs, &next_job, &stop, &settings, &game_config);
            let opening_of = &opening_of;
            let spawned = std::thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    let mut slots: Vec<EngineSlot> = engines
                        .iter()
                        .enumerate()
                        .map(|(index, spec)| EngineSlot::new(index, spec.clone()))
                        .collect();
                    'jobs: while !stop.load(Ordering::Relaxed) {
                        let index = next_job.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(index) else { break };
                        let opening = opening_of(job.pair);
                        for leg in 0..2 {
                            let (p1, p2) = if leg == 0 {
                                (job.a, job.b)
                            } else {
                                (job.b, job.a)
                            };
                            let [first, second] = two_mut(&mut slots, p1, p2);
                            let Some(report) = referee::play_game::<G>(
                                game_config,
                                settings,
                                &opening,
                                [first, second],
                                stop,
                            ) else {
                                break 'jobs;
                            };
                            let done = Done {
                                job: index,
                                leg,
                                pair: job.pair,
                                report,
                            };
                            if sender.send(done).is_err() {
                                break 'jobs;
                            }
                        }
                    }
                    for slot in &mut slots {
                        slot.quit();
                    }
                });
            if let Err(e) = spawned {
                log::error!("cannot start match worker {worker}: {e}");
            }
        }
        drop(sender);
        for done in receiver {
            games_played += 1;
            let job = &jobs[done.job];
            let stats = &mut pairings[job.pairing];
            stats.add_game(&done.report);
            for time in &done.report.move_times {
                move_times[done.report.engines[time.player.index()]].add(time.ms);
            }
            let mut pair_note = None;
            if pair_scored {
                if let Some(other) = first_legs.remove(&done.job) {
                    let (first, second) = if done.leg == 0 {
                        (&done.report, &other)
                    } else {
                        (&other, &done.report)
                    };
                    let result =
                        stats::score_pair([pair_game(first, stats.a), pair_game(second, stats.a)]);
                    stats.units.add(result.score);
                    pair_note = Some(result);
                } else {
                    first_legs.insert(done.job, done.report.clone());
                }
            } else {
                stats.units.add(Score::of(
                    if done.report.engines[0] == stats.a {
                        Player::P1
                    } else {
                        Player::P2
                    },
                    done.report.outcome,
                ));
            }
            if let (Some(sprt), None) = (config.sprt, stats.sprt) {
                let decision = sprt.decide(&stats.units);
                if decision != Decision::Continue {
                    stats.sprt = Some((decision, sprt.llr(&stats.units), stats.units.total()));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            log::info!(
                "game {}: {} vs {}: {} ({}) {}",
                games_played,
                names[done.report.engines[0]],
                names[done.report.engines[1]],
                done.report.outcome,
                done.report.reason.as_str(),
                done.report.detail
            );
            if let Some(file) = out_file.as_mut() {
                let line = game_json(
                    G::NAME,
                    &names,
                    &done,
                    games_played,
                    pair_note.as_ref().map(|r| (r, stats.a, stats.b)),
                );
                if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                    write_error.get_or_insert(format!("cannot write the games file: {e}"));
                }
            }
            progress.set_position(u64::from(games_played));
            progress.set_message(progress_message(stats, &names, config.sprt));
        }
    });
    progress.finish_and_clear();
    if let Some(error) = write_error {
        return Err(error);
    }
    Ok(MatchSummary {
        game: G::NAME,
        engine_names: names,
        pairings,
        pair_scored,
        games_played,
        games_planned,
        seed: match config.openings {
            OpeningSource::Random { seed, .. } => Some(seed),
            _ => None,
        },
        elapsed: began.elapsed(),
        move_times,
    })
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(items: &mut [T], i: usize, j: usize) -> [&mut T; 2] {
    assert!(i != j, "an engine cannot play itself");
    if i < j {
        let (left, right) = items.split_at_mut(j);
        [&mut left[i], &mut right[0]]
    } else {
        let (left, right) = items.split_at_mut(i);
        [&mut right[0], &mut left[j]]
    }
}

fn pair_game(report: &GameReport, a: usize) -> PairGame {
    PairGame {
        a_is_p1: report.engines[0] == a,
        outcome: report.outcome,
        count: report.count.unwrap_or(0),
        forfeit: report.reason.is_forfeit(),
    }
}

fn game_json(
    game: &str,
    names: &[String],
    done: &Done,
    number: u32,
    pair: Option<(&stats::PairResult, usize, usize)>,
) -> String {
    let r = &done.report;
    let winner = match r.outcome {
        Outcome::Win(player) => Some(names[r.engines[player.index()]].as_str()),
        Outcome::Draw => None,
    };
    let mut object = json::Object::new()
        .num("game", number)
        .str("name", game)
        .num("pair", done.pair)
        .num("leg", done.leg)
        .str("p1", &names[r.engines[0]])
        .str("p2", &names[r.engines[1]])
        .str("opening", &r.opening)
        .strings("moves", &r.moves)
        .str("result", r.outcome.as_str())
        .opt_str("winner", winner)
        .str("reason", r.reason.as_str())
        .str("detail", &r.detail)
        .str("final_fen", &r.final_fen)
        .opt_num("trees", r.count)
        .num("ms", r.duration.as_millis())
        .raw(
            "move_ms",
            format!(
                "[{}]",
                r.move_times
                    .iter()
                    .map(|t| t.ms.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        );
    if let Some((result, a, b)) = pair {
        let pair_winner = match result.score {
            Score::Win => Some(names[a].as_str()),
            Score::Loss => Some(names[b].as_str()),
            Score::Draw => None,
        };
        object = object
            .opt_str("pair_winner", pair_winner)
            .str("pair_reason", &result.reason.describe(&names[a], &names[b]));
    }
    object.finish()
}

fn progress_bar(wanted: bool, total: u64) -> indicatif::ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}",
    );
    if let Ok(style) = style {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

fn progress_message(stats: &PairingStats, names: &[String], sprt: Option<Sprt>) -> String {
    let mut text = format!(
        "{} vs {} {}",
        names[stats.a],
        names[stats.b],
        stats.units.short()
    );
    if let Some((elo, low, high)) = stats.units.elo() {
        text.push_str(&format!(
            "  Elo {} [{}, {}]",
            stats::format_elo(elo),
            stats::format_elo(low),
            stats::format_elo(high)
        ));
    }
    if let Some(sprt) = sprt {
        text.push_str(&format!("  LLR {:.2}", sprt.llr(&stats.units)));
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(text: &str) -> Vec<String> {
        split_words(text).unwrap()
    }

    #[test]
    fn words_split_like_a_shell() {
        assert_eq!(
            split_words(r#"a "b c" 'd e' f\ g "h\"i""#).unwrap(),
            vec!["a", "b c", "d e", "f g", "h\"i"]
        );
        assert_eq!(split_words("  ").unwrap(), Vec::<String>::new());
        assert_eq!(split_words("''").unwrap(), vec![""]);
        assert!(split_words("\"open").is_err());
        assert!(split_words("x\\").is_err());
    }

    #[test]
    fn engine_specs() {
        let me = std::path::Path::new("/bin/me");
        let spec = EngineSpec::parse(
            "name=A cmd=/x/eng --fast arg=depth=3 option.Hash=64 'option.Move Overhead=5' depth=4",
            me,
        )
        .unwrap();
        assert_eq!(spec.name, "A");
        assert_eq!(spec.cmd, PathBuf::from("/x/eng"));
        assert_eq!(spec.args, vec!["--fast", "depth=3"]);
        assert_eq!(
            spec.options,
            vec![
                ("Hash".to_string(), "64".to_string()),
                ("Move Overhead".to_string(), "5".to_string())
            ]
        );
        assert_eq!(spec.limits.depth, Some(4));
        let own = EngineSpec::parse("self tc=100+1", me).unwrap();
        assert_eq!(own.cmd, PathBuf::from("/bin/me"));
        assert_eq!(
            own.limits.tc,
            Some(TimeControl {
                base_ms: 100,
                inc_ms: 1
            })
        );
        assert!(EngineSpec::parse("name=A", me).is_err());
        assert!(EngineSpec::parse("self cmd=x", me).is_err());
        assert!(EngineSpec::parse("self depth=0", me).is_err());
        assert!(EngineSpec::parse("self option.=3", me).is_err());
    }

    #[test]
    fn time_controls() {
        assert_eq!(
            TimeControl::parse("1000+10").unwrap(),
            TimeControl {
                base_ms: 1000,
                inc_ms: 10
            }
        );
        assert_eq!(TimeControl::parse("500").unwrap().inc_ms, 0);
        assert!(TimeControl::parse("0+0").is_err());
        assert!(TimeControl::parse("1s+1").is_err());
        assert!(TimeControl::parse("-5+1").is_err());
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

    #[test]
    fn two_distinct_slots() {
        let mut v = vec![1, 2, 3];
        let [x, y] = two_mut(&mut v, 2, 0);
        std::mem::swap(x, y);
        assert_eq!(v, vec![3, 2, 1]);
    }
}
