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
    pub(super) fn set(&mut self, key: &str, value: &str) -> Result<bool, String> {
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
    /// The engine's own limits (merged with the match-wide ones by [`parse_args`](super::parse_args)).
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
    /// `self` means. The name is left empty when not given ([`parse_args`](super::parse_args)
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
}
