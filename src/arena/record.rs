//! The per-game records of `--out`: one [`GameRecord`] a game, written with serde as
//! one JSON object a line, with the same keys for every game of every game kind. The
//! records are also read back: `match merge` sums the shards' files and `--resume`
//! goes on from a stopped match's file, so a record carries what both need (the
//! pairing of engines, the pair and opening index, the seed, the game options).

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::referee::Reason;
use crate::game::{Outcome, Player};

/// One game, as written to `--out` (the keys in this order).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The game's number in the order games finished (1, 2, …).
    pub game: u32,
    /// The game's protocol name.
    pub name: String,
    /// The pair of games (one opening, colours swapped) within its pairing of engines.
    pub pair: u32,
    /// 0: the pairing's first engine is p1; 1: colours swapped.
    pub leg: u8,
    pub p1: String,
    pub p2: String,
    pub opening: String,
    /// The moves the engines played after the opening (the last one may be the
    /// illegal or unreadable move that lost the game).
    pub moves: Vec<String>,
    /// `p1win`, `p2win` or `draw`.
    pub result: String,
    pub winner: Option<String>,
    /// How the game ended ([`Reason::as_str`]).
    pub reason: String,
    pub detail: String,
    pub final_fen: String,
    /// The tie-break count of a game scored by pairs (Frozen Forest: the trees Yuki
    /// ate); null for the others.
    pub tiebreak: Option<u32>,
    /// The game's wall time.
    pub ms: u64,
    /// The time charged for each answer to `go`.
    pub move_ms: Vec<u64>,
    /// On the second game of a pair of a game scored by pairs: the pair's winner
    /// (null for a drawn pair) and why; null elsewhere.
    pub pair_winner: Option<String>,
    pub pair_reason: Option<String>,
    /// The match indices of the pairing's engines (the first is p1 in leg 0).
    pub pairing: [u32; 2],
    /// The pair's index over the whole match (pairs × pairings, in the order they are
    /// dealt): what `--shard` splits.
    pub job: u32,
    /// Which opening: the line of the openings file (from 0), or the number the random
    /// opening was drawn with; 0 for the start position.
    pub opening_index: u32,
    /// The match's seed (of `--random-plies`), or null.
    pub seed: Option<u64>,
    /// The game options given (`--option`), as `[name, value]`.
    pub options: Vec<(String, String)>,
}

impl GameRecord {
    pub fn outcome(&self) -> Result<Outcome, String> {
        match self.result.as_str() {
            "p1win" => Ok(Outcome::Win(Player::P1)),
            "p2win" => Ok(Outcome::Win(Player::P2)),
            "draw" => Ok(Outcome::Draw),
            other => Err(format!("unknown result '{other}'")),
        }
    }

    pub fn reason(&self) -> Result<Reason, String> {
        Reason::ALL
            .into_iter()
            .find(|r| r.as_str() == self.reason)
            .ok_or_else(|| format!("unknown reason '{}'", self.reason))
    }

    /// The record as one JSON line (without the line break).
    pub fn to_json(&self) -> String {
        // A struct of strings, numbers and lists always serialises.
        serde_json::to_string(self).unwrap_or_default()
    }

    /// Reads one line, checking what serde cannot (the result and the reason).
    pub fn from_json(line: &str) -> Result<GameRecord, String> {
        let record: GameRecord = serde_json::from_str(line).map_err(|e| e.to_string())?;
        record.outcome()?;
        record.reason()?;
        if record.leg > 1 {
            return Err(format!("leg {} is not 0 or 1", record.leg));
        }
        Ok(record)
    }
}

/// Every record of a JSON-lines file (blank lines skipped); an error names the line.
pub fn read_file(path: &Path) -> Result<Vec<GameRecord>, String> {
    let text = std::fs::read_to_string(path)
        .map_err(|e| format!("cannot read '{}': {e}", path.display()))?;
    read_text(&text).map_err(|e| format!("'{}' {e}", path.display()))
}

/// Every record of JSON-lines text.
pub fn read_text(text: &str) -> Result<Vec<GameRecord>, String> {
    let mut records = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let record = GameRecord::from_json(line).map_err(|e| format!("line {}: {e}", index + 1))?;
        records.push(record);
    }
    Ok(records)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> GameRecord {
        GameRecord {
            game: 3,
            name: "neutreeko".into(),
            pair: 1,
            leg: 0,
            p1: "a\"b".into(),
            p2: "c".into(),
            opening: "startpos moves d1c1".into(),
            moves: vec!["b1b4".into(), "x\ny".into()],
            result: "p2win".into(),
            winner: Some("c".into()),
            reason: "garbage".into(),
            detail: "a\"b: bad".into(),
            final_fen: "3w1/3wb/3wb/5/2b2 b 68".into(),
            tiebreak: None,
            ms: 12,
            move_ms: vec![0, 4],
            pair_winner: None,
            pair_reason: None,
            pairing: [0, 1],
            job: 2,
            opening_index: 1,
            seed: Some(7),
            options: vec![("Rows".into(), "6".into())],
        }
    }

    #[test]
    fn a_record_reads_back_as_written() {
        let record = sample();
        let line = record.to_json();
        assert!(
            line.starts_with(r#"{"game":3,"name":"neutreeko","pair":1,"leg":0,"p1":"a\"b""#),
            "{line}"
        );
        assert!(
            line.contains(r#""tiebreak":null"#) && line.contains(r#""options":[["Rows","6"]]"#)
        );
        assert!(!line.contains('\n'));
        assert_eq!(GameRecord::from_json(&line), Ok(record));
    }

    #[test]
    fn bad_lines_are_errors_naming_the_line() {
        let good = sample().to_json();
        let bad = good.replace("p2win", "p3win");
        let error = read_text(&format!("{good}\n\n{bad}\n")).unwrap_err();
        assert!(error.starts_with("line 3: unknown result"), "{error}");
        assert!(read_text("{").is_err());
        assert!(read_text(&good.replace("\"leg\":0", "\"leg\":2")).is_err());
        assert_eq!(read_text(&format!("{good}\n")).unwrap().len(), 1);
    }
}
