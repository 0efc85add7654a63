//! The `nom` parser: one input line to a [`Command`]. (Being written.)

use std::fmt;

use super::command::Command;

/// Why a line is not a command: what, where and why, for `info string error: …`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseError(pub String);

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ParseError {}

pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    use super::command::*;
    let w: Vec<&str> = line.split_whitespace().collect();
    let Some(first) = w.first() else {
        return Ok(None);
    };
    let num = |i: usize| -> Result<u64, ParseError> {
        w.get(i)
            .and_then(|t| t.parse().ok())
            .ok_or(ParseError(format!("bad number in '{line}'")))
    };
    Ok(Some(match *first {
        "ugi" => Command::Ugi,
        "uci" => Command::Uci,
        "isready" => Command::IsReady,
        "uginewgame" | "ucinewgame" => Command::NewGame,
        "stop" => Command::Stop,
        "quit" => Command::Quit,
        "d" => Command::Display,
        "bench" => Command::Bench {
            depth: w.get(1).and_then(|t| t.parse().ok()),
        },
        "game" => Command::Game(w.get(1).unwrap_or(&"").to_string()),
        "query" => Command::Query(match w.get(1).copied().unwrap_or("") {
            "gameover" => Query::GameOver,
            "p1turn" => Query::P1Turn,
            "result" => Query::Result,
            "moves" => Query::Moves,
            "fen" => Query::Fen,
            o => Query::Other(o.into()),
        }),
        "setoption" => {
            let v = w.iter().position(|t| *t == "value");
            let name = w[2..v.unwrap_or(w.len())].join(" ");
            Command::SetOption {
                name,
                value: v.map(|v| w[v + 1..].join(" ")),
            }
        }
        "position" => {
            let m = w.iter().position(|t| *t == "moves");
            let moves = m
                .map(|m| w[m + 1..].iter().map(|s| s.to_string()).collect())
                .unwrap_or_default();
            let start = match w.get(1) {
                Some(&"startpos") => StartPosition::StartPos,
                Some(&"fen") => StartPosition::Fen(w[2..m.unwrap_or(w.len())].join(" ")),
                _ => return Err(ParseError("bad position".into())),
            };
            Command::Position { start, moves }
        }
        "go" => {
            let mut l = Limits::default();
            let mut i = 1;
            if w.get(1) == Some(&"perft") {
                return Ok(Some(Command::Go(Go::Perft(num(2)? as u32))));
            }
            if w.get(1) == Some(&"solve") {
                return Ok(Some(Command::Go(Go::Solve)));
            }
            while i < w.len() {
                match w[i] {
                    "infinite" => {
                        l.infinite = true;
                        i += 1;
                        continue;
                    }
                    "p1time" | "wtime" => l.p1time = Some(num(i + 1)?),
                    "p2time" | "btime" => l.p2time = Some(num(i + 1)?),
                    "p1inc" | "winc" => l.p1inc = Some(num(i + 1)?),
                    "p2inc" | "binc" => l.p2inc = Some(num(i + 1)?),
                    "movetime" => l.movetime = Some(num(i + 1)?),
                    "depth" => l.depth = Some(num(i + 1)? as u32),
                    "nodes" => l.nodes = Some(num(i + 1)?),
                    "movestogo" => l.movestogo = Some(num(i + 1)? as u32),
                    o => return Err(ParseError(format!("go: unknown '{o}'"))),
                }
                i += 2;
            }
            Command::Go(Go::Search(l))
        }
        o => return Err(ParseError(format!("unknown command '{o}'"))),
    }))
}
