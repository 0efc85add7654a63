//! Typed replies, and the one place that turns them into protocol text.

use std::fmt;

use crate::game::QUOTED_CHARS;

/// One option line of the handshake.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionLine {
    Spin {
        name: String,
        default: i64,
        min: i64,
        max: i64,
    },
    Check {
        name: String,
        default: bool,
    },
    Combo {
        name: String,
        default: String,
        vars: Vec<String>,
    },
}

/// The score of an `info` line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InfoScore {
    Cp(i32),
    /// Plies to the end; negative when the side to move loses.
    Mate(i32),
}

/// The fields of an `info` line about a search.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct InfoLine {
    pub depth: u32,
    pub seldepth: u32,
    pub score: InfoScore,
    pub nodes: u64,
    pub nps: u64,
    pub time_ms: u64,
    pub hashfull: u32,
    /// The moves of the principal variation, as text.
    pub pv: Vec<String>,
}

/// A reply line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Response {
    IdName(String),
    IdAuthor(String),
    Option(OptionLine),
    UgiOk,
    UciOk,
    ReadyOk,
    /// `bestmove <move>`; `0000` when the game is over.
    BestMove(String),
    Info(InfoLine),
    /// `info string <text>`.
    InfoString(String),
    /// `info string error: <text>`.
    Error(String),
    /// `response <text>` (answers to `query`).
    Answer(String),
    /// Free text of the extensions (`d`, perft counts, `bench`), one or more lines.
    Text(String),
}

/// The longest `info string error: …` line, in characters. Input quoted in a message is
/// already cut to [`QUOTED_CHARS`], so only a message with very many excerpts (or a bug)
/// reaches this; it is the last guarantee that an error is one short line.
pub const MAX_ERROR_LINE_CHARS: usize = 300;

/// The start of every error line.
const ERROR_PREFIX: &str = "info string error: ";

impl fmt::Display for OptionLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionLine::Spin {
                name,
                default,
                min,
                max,
            } => write!(
                f,
                "option name {name} type spin default {default} min {min} max {max}"
            ),
            OptionLine::Check { name, default } => {
                write!(f, "option name {name} type check default {default}")
            }
            OptionLine::Combo {
                name,
                default,
                vars,
            } => {
                write!(f, "option name {name} type combo default {default}")?;
                for var in vars {
                    write!(f, " var {var}")?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Response::IdName(name) => write!(f, "id name {name}"),
            Response::IdAuthor(author) => write!(f, "id author {author}"),
            Response::Option(option) => write!(f, "{option}"),
            Response::UgiOk => f.write_str("ugiok"),
            Response::UciOk => f.write_str("uciok"),
            Response::ReadyOk => f.write_str("readyok"),
            Response::BestMove(mv) => write!(f, "bestmove {mv}"),
            Response::Info(info) => {
                write!(
                    f,
                    "info depth {} seldepth {} score ",
                    info.depth, info.seldepth
                )?;
                match info.score {
                    InfoScore::Cp(cp) => write!(f, "cp {cp}")?,
                    InfoScore::Mate(plies) => write!(f, "mate {plies}")?,
                }
                write!(
                    f,
                    " nodes {} nps {} time {} hashfull {}",
                    info.nodes, info.nps, info.time_ms, info.hashfull
                )?;
                if !info.pv.is_empty() {
                    write!(f, " pv {}", info.pv.join(" "))?;
                }
                Ok(())
            }
            Response::InfoString(text) => write!(f, "info string {}", one_line(text)),
            Response::Error(text) => {
                let text = cut_excerpts(&one_line(text));
                let room = MAX_ERROR_LINE_CHARS - ERROR_PREFIX.chars().count();
                if text.chars().count() > room {
                    let cut: String = text.chars().take(room - 1).collect();
                    write!(f, "{ERROR_PREFIX}{cut}…")
                } else {
                    write!(f, "{ERROR_PREFIX}{text}")
                }
            }
            Response::Answer(text) => {
                if text.is_empty() {
                    f.write_str("response")
                } else {
                    write!(f, "response {text}")
                }
            }
            Response::Text(text) => f.write_str(text.trim_end_matches('\n')),
        }
    }
}

/// Control characters and line breaks would break the line protocol: show them escaped.
fn one_line(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            if c.is_control() {
                c.escape_default().collect::<Vec<_>>()
            } else {
                vec![c]
            }
        })
        .collect()
}

/// Cuts every excerpt of input in an error text to [`QUOTED_CHARS`] characters (then
/// `…`): text in single quotes (`unknown option '…'`), and a bracketed word without
/// spaces (`move 3 (…)`). Messages built with [`crate::game::quote`] are cut already;
/// this also holds the promise of protocol.md for any message that quotes input by
/// hand. A quote opens at the start of a word and closes at the first `'` that ends
/// one, so apostrophes inside words (`game's`) are left alone.
fn cut_excerpts(text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    let starts_word = |i: usize| i == 0 || chars[i - 1].is_whitespace() || chars[i - 1] == '(';
    let ends_word = |i: usize| {
        chars
            .get(i + 1)
            .is_none_or(|c| c.is_whitespace() || ")]:;,.!?".contains(*c))
    };
    let mut out = String::with_capacity(text.len());
    let mut i = 0;
    while i < chars.len() {
        let open = chars[i];
        let close = match open {
            '\'' if starts_word(i) => {
                (i + 1..chars.len()).find(|&j| chars[j] == '\'' && ends_word(j))
            }
            '(' if starts_word(i) => (i + 1..chars.len())
                .find(|&j| chars[j] == ')' || chars[j].is_whitespace())
                .filter(|&j| chars[j] == ')'),
            _ => None,
        };
        match close {
            // 40 characters and a `…` from `quote` are left as they are.
            Some(j) if j - i - 1 > QUOTED_CHARS + 1 => {
                out.push(open);
                out.extend(&chars[i + 1..i + 1 + QUOTED_CHARS]);
                out.push('…');
                out.push(chars[j]);
                i = j + 1;
            }
            _ => {
                out.push(open);
                i += 1;
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_print_as_the_protocol_says() {
        assert_eq!(
            Response::BestMove("b1b4".into()).to_string(),
            "bestmove b1b4"
        );
        assert_eq!(Response::Answer("true".into()).to_string(), "response true");
        assert_eq!(Response::Answer(String::new()).to_string(), "response");
        assert_eq!(
            Response::Error("bad\nthing".into()).to_string(),
            "info string error: bad\\nthing"
        );
        let long = Response::Error("x".repeat(100_000)).to_string();
        assert_eq!(long.chars().count(), MAX_ERROR_LINE_CHARS);
        assert!(long.ends_with('…'));
        let info = Response::Info(InfoLine {
            depth: 3,
            seldepth: 5,
            score: InfoScore::Mate(-4),
            nodes: 100,
            nps: 1000,
            time_ms: 100,
            hashfull: 2,
            pv: vec!["1".into(), "2".into()],
        });
        assert_eq!(
            info.to_string(),
            "info depth 3 seldepth 5 score mate -4 nodes 100 nps 1000 time 100 hashfull 2 pv 1 2"
        );
        let combo = OptionLine::Combo {
            name: "Game".into(),
            default: "talpa".into(),
            vars: vec!["linetris".into(), "talpa".into()],
        };
        assert_eq!(
            combo.to_string(),
            "option name Game type combo default talpa var linetris var talpa"
        );
    }

    #[test]
    fn quoted_input_in_errors_is_cut_after_40_characters() {
        let x40 = "x".repeat(40);
        let long = "x".repeat(500);
        let error = |text: String| Response::Error(text).to_string();
        assert_eq!(
            error(format!("unknown option '{long}'")),
            format!("info string error: unknown option '{x40}…'")
        );
        assert_eq!(
            error(format!("position: move 1 ({long}): '{long}' is not a move")),
            format!("info string error: position: move 1 ({x40}…): '{x40}…' is not a move")
        );
        // Quotes with spaces or apostrophes inside, and one already cut by `quote`.
        let words = "a b ".repeat(100);
        assert_eq!(
            error(format!("unknown option '{words}it's'")),
            format!("info string error: unknown option '{}…'", &words[..40])
        );
        let cut = crate::game::quote(&long);
        assert_eq!(
            error(format!("x {cut}")),
            format!("info string error: x {cut}")
        );
        // Prose is untouched: apostrophes in words, short quotes, long bracketed prose.
        let prose = "'9' is not a move in this game's notation (a move here looks like \
                     one of the column numbers from 1 to 7)";
        assert_eq!(
            error(prose.to_string()),
            format!("info string error: {prose}")
        );
        // A quote that never closes is left alone (and the line cap still holds).
        let open = error(format!("it's '{long}"));
        assert_eq!(open.chars().count(), MAX_ERROR_LINE_CHARS);
    }
}
