//! The text side of the engine: input lines to typed commands, typed replies to text.
//!
//! Nothing here knows a game or the search; the session turns commands into calls.

pub mod command;
pub mod parse;
pub mod response;

pub use command::{Command, Go, GoLimits, Query, StartPosition};
pub use parse::{ParseError, parse_command};
