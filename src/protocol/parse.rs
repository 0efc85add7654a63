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

/// Parses one line. `Ok(None)` for an empty or blank line.
pub fn parse_command(line: &str) -> Result<Option<Command>, ParseError> {
    let _ = line;
    Err(ParseError("parser not written yet".to_string()))
}
