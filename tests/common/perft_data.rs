//! The reader of `tests/data/perft.txt` (its header describes the format): lines of
//! pinned perft counts, and the position each line names, for any game.

// The example uses less of it than the test.
#![allow(dead_code)]

use tabuleiro::game::Game;

/// The data file, read at compile time.
pub const TEXT: &str = include_str!("../data/perft.txt");

/// One line of the data file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// The line number in the file, from 1.
    pub number: usize,
    pub game: String,
    /// `(name, value)` as written.
    pub options: Vec<(String, String)>,
    /// `None` for `startpos`, else the FEN.
    pub fen: Option<String>,
    /// `(depth, count)`, depths increasing.
    pub counts: Vec<(u32, u64)>,
}

impl Line {
    /// The line as the data file would write it (for messages).
    pub fn describe(&self) -> String {
        let mut text = self.game.clone();
        for (name, value) in &self.options {
            text += &format!(" {name}={value}");
        }
        format!(
            "line {}: {text} ; {}",
            self.number,
            self.fen.as_deref().unwrap_or("startpos")
        )
    }

    /// The game's config: the line's options set by name, the others at their defaults.
    pub fn config<G: Game>(&self) -> Result<G::Config, String> {
        tabuleiro::options::config_from_pairs::<G>(&self.options)
    }

    /// The position the line names, under its config.
    pub fn position<G: Game>(&self) -> Result<G, String> {
        let config = self.config::<G>()?;
        match &self.fen {
            None => Ok(G::start(&config)),
            Some(fen) => G::from_fen(&config, fen).map_err(|e| e.to_string()),
        }
    }
}

/// Reads the data file's text: every line that is not blank or a comment.
pub fn parse(text: &str) -> Result<Vec<Line>, String> {
    let mut lines = Vec::new();
    for (index, raw) in text.lines().enumerate() {
        let number = index + 1;
        let raw = raw.trim();
        if raw.is_empty() || raw.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = raw.split(';').map(str::trim).collect();
        let [head, position, counts] = fields[..] else {
            return Err(format!("line {number}: want three fields separated by ';'"));
        };
        let mut words = head.split_whitespace();
        let game = words
            .next()
            .ok_or_else(|| format!("line {number}: no game"))?
            .to_string();
        let options = words
            .map(|word| {
                word.split_once('=')
                    .map(|(name, value)| (name.to_string(), value.to_string()))
                    .ok_or_else(|| format!("line {number}: '{word}' is not <Option>=<value>"))
            })
            .collect::<Result<_, _>>()?;
        let fen = match position {
            "" => return Err(format!("line {number}: no position")),
            "startpos" => None,
            fen => Some(fen.to_string()),
        };
        let mut pinned: Vec<(u32, u64)> = Vec::new();
        for pair in counts.split_whitespace() {
            let parsed = pair
                .split_once(':')
                .and_then(|(d, c)| Some((d.parse().ok()?, c.parse().ok()?)));
            let Some((depth, count)) = parsed else {
                return Err(format!("line {number}: '{pair}' is not <depth>:<count>"));
            };
            if pinned.last().is_some_and(|&(last, _)| last >= depth) {
                return Err(format!("line {number}: depth {depth} out of order"));
            }
            pinned.push((depth, count));
        }
        if pinned.is_empty() {
            return Err(format!("line {number}: no counts"));
        }
        lines.push(Line {
            number,
            game,
            options,
            fen,
            counts: pinned,
        });
    }
    Ok(lines)
}

/// The lines of the data file.
pub fn lines() -> Vec<Line> {
    parse(TEXT).unwrap_or_else(|why| panic!("tests/data/perft.txt: {why}"))
}
