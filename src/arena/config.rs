//! What a match is: its engines ([`EngineSpec`], with their [`Limits`] and
//! [`TimeControl`]), its openings ([`OpeningSource`]) and the rest of [`MatchConfig`];
//! with the readers of an `--engine` spec and a time control.

use std::path::PathBuf;
use std::time::Duration;

use super::sprt::Sprt;

/// A clock: base time and increment, ms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimeControl {
    pub base_ms: u64,
    pub inc_ms: u64,
}

impl TimeControl {
    /// Reads `BASE+INC` or `BASE`: each a time with a unit (`60s`, `1m`, `0.5s`,
    /// `250ms`), or a plain whole number of ms (`1000+10`).
    pub fn parse(text: &str) -> Result<TimeControl, String> {
        let (base, inc) = text.split_once('+').unwrap_or((text, "0"));
        let number = |part: &str| {
            parse_ms(part)
                .filter(|&ms| ms <= 86_400_000)
                .ok_or_else(|| {
                    format!(
                        "'{text}' is not a time control BASE+INC (ms, or with units: 60s+1s, 1m+0.5s)"
                    )
                })
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

/// A time in whole ms: a plain whole number (ms), or a number with a unit `ms`, `s`
/// or `m` (`1.5s`); `None` if it is neither, negative, or not whole ms.
pub fn parse_ms(text: &str) -> Option<u64> {
    let text = text.trim();
    if let Ok(ms) = text.parse::<u64>() {
        return Some(ms);
    }
    let (number, scale) = if let Some(n) = text.strip_suffix("ms") {
        (n, 1.0)
    } else if let Some(n) = text.strip_suffix('s') {
        (n, 1000.0)
    } else if let Some(n) = text.strip_suffix('m') {
        (n, 60_000.0)
    } else {
        return None;
    };
    if number.is_empty() || !number.chars().all(|c| c.is_ascii_digit() || c == '.') {
        return None;
    }
    let ms = number.parse::<f64>().ok()? * scale;
    (ms.is_finite() && ms <= 1e12 && (ms - ms.round()).abs() < 1e-6).then(|| ms.round() as u64)
}

/// A time with its unit, as the summary shows it: `1m`, `2s`, `1.5s`, `10ms`.
pub fn format_ms(ms: u64) -> String {
    if ms >= 60_000 && ms.is_multiple_of(60_000) {
        format!("{}m", ms / 60_000)
    } else if ms >= 1000 {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        format!("{}s", text.trim_end_matches('0').trim_end_matches('.'))
    } else {
        format!("{ms}ms")
    }
}

impl std::fmt::Display for TimeControl {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}+{}", format_ms(self.base_ms), format_ms(self.inc_ms))
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
            parts.push(format!("movetime {}", format_ms(ms)));
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
    pub fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
        let positive = |what: &str| {
            value
                .parse::<u64>()
                .ok()
                .filter(|&n| n > 0)
                .ok_or_else(|| format!("{what} '{value}' is not a positive whole number"))
        };
        match key {
            "tc" => self.tc = Some(TimeControl::parse(value)?),
            "movetime" => {
                let ms = parse_ms(value).filter(|&ms| ms > 0).ok_or_else(|| {
                    format!("movetime '{value}' is not a positive time (ms, or 2s, 500ms)")
                })?;
                self.movetime = Some(ms);
            }
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
    /// The engine's own limits (merged with the match-wide ones by the command line).
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
    /// Reads an `--engine` spec (see `tabuleiro match --help`); `self_path` is what
    /// `self` means. The name is left empty when not given (the command line
    /// fills it in).
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
                // A word that looks like a key is one: a typo must not become an argument.
                Some((key, _)) if looks_like_key(key) => {
                    return Err(format!(
                        "unknown key '{key}' in engine spec '{text}' (keys: name, cmd, arg, \
                         option.NAME, tc, movetime, depth, nodes; give an argument with '=' \
                         as arg=WORD)"
                    ));
                }
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

/// Whether `key` (of a `key=value` word) looks like a spec key rather than part of
/// an argument: letters, digits, `_` and `.`, starting with a letter.
fn looks_like_key(key: &str) -> bool {
    key.starts_with(|c: char| c.is_ascii_alphabetic())
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.')
}

/// Where openings come from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OpeningSource {
    StartPos,
    /// The game's shipped suite ([`super::suite`]) for its default options; the start
    /// position under other options.
    Suite,
    File(PathBuf),
    Random {
        plies: u32,
        seed: u64,
    },
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
    /// `--adjudicate`: end games whose exact value the referee knows.
    pub adjudicate: bool,
    pub sprt: Option<Sprt>,
    pub out: Option<PathBuf>,
    pub progress: bool,
    /// `--shard K/N`: play only the pairs whose index is K−1 modulo N (K from 1).
    pub shard: Option<(u32, u32)>,
    /// `--resume FILE`: go on from the games in FILE (and append to it).
    pub resume: Option<PathBuf>,
    /// `--pgn FILE`: every game as PGN.
    pub pgn: Option<PathBuf>,
    /// `--log-dir DIR`: each engine process's traffic in a file there.
    pub log_dir: Option<PathBuf>,
    /// `--gauntlet`: the first engine against each other one (not every pair).
    pub gauntlet: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // A key nobody knows is an error, not an argument; arg= passes one on.
        let error = EngineSpec::parse("self foo=bar", me).unwrap_err();
        assert!(error.contains("unknown key 'foo'"), "{error}");
        assert!(EngineSpec::parse("self Depth=3", me).is_err());
        let spec = EngineSpec::parse("self arg=foo=bar --x=1", me).unwrap();
        assert_eq!(spec.args, vec!["foo=bar", "--x=1"]);
        assert_eq!(
            EngineSpec::parse("self movetime=2s", me)
                .unwrap()
                .limits
                .movetime,
            Some(2000)
        );
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
        // Units: s, m, ms; plain numbers are ms.
        let tc = |base_ms, inc_ms| TimeControl { base_ms, inc_ms };
        assert_eq!(TimeControl::parse("60s+1s").unwrap(), tc(60_000, 1000));
        assert_eq!(TimeControl::parse("1m+0.5s").unwrap(), tc(60_000, 500));
        assert_eq!(TimeControl::parse("1s+1").unwrap(), tc(1000, 1));
        assert_eq!(TimeControl::parse("250ms").unwrap(), tc(250, 0));
        assert!(TimeControl::parse("1.5").is_err());
        assert!(TimeControl::parse("1h").is_err());
        assert!(TimeControl::parse("0.0001s").is_err());
        assert_eq!(tc(60_000, 500).to_string(), "1m+500ms");
        assert_eq!(tc(1500, 10).to_string(), "1.5s+10ms");
        assert_eq!(tc(2000, 0).to_string(), "2s+0ms");
        assert!(TimeControl::parse("-5+1").is_err());
    }
}
