//! Typed replies, and the one place that turns them into protocol text.

use std::fmt;

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

/// The longest error text printed; longer ones (a 100 kB unknown command) are cut.
const MAX_ERROR_CHARS: usize = 300;

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
                let text = one_line(text);
                if text.chars().count() > MAX_ERROR_CHARS {
                    let cut: String = text.chars().take(MAX_ERROR_CHARS).collect();
                    write!(f, "info string error: {cut}…")
                } else {
                    write!(f, "info string error: {text}")
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
        assert!(long.len() < 400);
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
}
