//! Typed protocol commands: what one input line asks for.
//!
//! `Display` prints each command in canonical form, so that parsing the printed
//! text gives the same command back (the parser's round-trip tests rely on it).

use std::fmt;

/// One line of input, understood.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Command {
    /// `ugi`: the handshake, answered with `ugiok`.
    Ugi,
    /// `uci`: the same handshake, answered with `uciok`.
    Uci,
    /// `isready`.
    IsReady,
    /// `uginewgame` or `ucinewgame`.
    NewGame,
    /// `setoption name <name> [value <value>]`; both may contain spaces.
    SetOption { name: String, value: Option<String> },
    /// `position startpos|fen <FEN> [moves m1 m2 …]`.
    Position {
        start: StartPosition,
        moves: Vec<String>,
    },
    /// `go …`.
    Go(Go),
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
    /// `query <what>`.
    Query(Query),
    /// `game <name>` (extension): same as `setoption name Game value <name>`.
    Game(String),
    /// `d` (extension): board diagram and FEN.
    Display,
    /// `bench [depth]` (extension).
    Bench { depth: Option<u32> },
    /// `help` (extension): a short list of the commands.
    Help,
}

/// Where a `position` command starts.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum StartPosition {
    StartPos,
    /// The FEN text, its words joined by single spaces.
    Fen(String),
}

/// What a `go` asks for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Go {
    /// A search under these limits.
    Search(GoLimits),
    /// `go perft N` (extension).
    Perft(u32),
    /// `go solve` (extension).
    Solve,
}

/// The limits of a search; the first one reached ends it. Times in milliseconds.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct GoLimits {
    /// `p1time` (alias `wtime`).
    pub p1time: Option<u64>,
    /// `p2time` (alias `btime`).
    pub p2time: Option<u64>,
    /// `p1inc` (alias `winc`).
    pub p1inc: Option<u64>,
    /// `p2inc` (alias `binc`).
    pub p2inc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
}

impl GoLimits {
    /// Whether anything but `stop` ends the search: a depth, a node count, a move
    /// time or a clock (`infinite` aside).
    pub fn has_limit(&self) -> bool {
        self.depth.is_some()
            || self.nodes.is_some()
            || self.movetime.is_some()
            || [self.p1time, self.p2time, self.p1inc, self.p2inc]
                .iter()
                .any(Option::is_some)
    }
}

/// `query` subjects.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Query {
    GameOver,
    P1Turn,
    Result,
    /// Extension: all legal moves.
    Moves,
    /// Extension: the position string.
    Fen,
    /// Any other single word; a game may answer it (Frozen Forest's `trees`), otherwise
    /// it is an error. Stored in lower case.
    Other(String),
}

impl fmt::Display for GoLimits {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut words: Vec<String> = Vec::new();
        let mut push = |name: &str, value: Option<u64>| {
            if let Some(value) = value {
                words.push(format!("{name} {value}"));
            }
        };
        push("p1time", self.p1time);
        push("p2time", self.p2time);
        push("p1inc", self.p1inc);
        push("p2inc", self.p2inc);
        push("movestogo", self.movestogo.map(u64::from));
        push("movetime", self.movetime);
        push("depth", self.depth.map(u64::from));
        push("nodes", self.nodes);
        if self.infinite {
            words.push("infinite".to_string());
        }
        f.write_str(&words.join(" "))
    }
}

impl fmt::Display for Query {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Query::GameOver => "gameover",
            Query::P1Turn => "p1turn",
            Query::Result => "result",
            Query::Moves => "moves",
            Query::Fen => "fen",
            Query::Other(word) => word,
        })
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Command::Ugi => f.write_str("ugi"),
            Command::Uci => f.write_str("uci"),
            Command::IsReady => f.write_str("isready"),
            Command::NewGame => f.write_str("uginewgame"),
            Command::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                if let Some(value) = value {
                    write!(f, " value {value}")?;
                }
                Ok(())
            }
            Command::Position { start, moves } => {
                match start {
                    StartPosition::StartPos => f.write_str("position startpos")?,
                    StartPosition::Fen(fen) => write!(f, "position fen {fen}")?,
                }
                if !moves.is_empty() {
                    write!(f, " moves {}", moves.join(" "))?;
                }
                Ok(())
            }
            Command::Go(Go::Search(limits)) => {
                let limits = limits.to_string();
                if limits.is_empty() {
                    f.write_str("go")
                } else {
                    write!(f, "go {limits}")
                }
            }
            Command::Go(Go::Perft(depth)) => write!(f, "go perft {depth}"),
            Command::Go(Go::Solve) => f.write_str("go solve"),
            Command::Stop => f.write_str("stop"),
            Command::Quit => f.write_str("quit"),
            Command::Query(query) => write!(f, "query {query}"),
            Command::Game(name) => write!(f, "game {name}"),
            Command::Display => f.write_str("d"),
            Command::Bench { depth: None } => f.write_str("bench"),
            Command::Bench { depth: Some(depth) } => write!(f, "bench {depth}"),
            Command::Help => f.write_str("help"),
        }
    }
}
