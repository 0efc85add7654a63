//! The `nom` parser: one input line to a [`Command`].
//!
//! # How a line is read
//!
//! - **Tokens.** A line is split into tokens by runs of spaces, tabs, `\r` and `\n`; leading and
//!   trailing ones are ignored, so `uci\r` (a Windows line end) is `uci`. (`\r` separates inside
//!   the line too: were it part of a token, a command whose last token ended in `\r` would print
//!   as a line that reads back without it.) Any other character, other control characters and
//!   non-ASCII text included, belongs to a token.
//! - **Keywords are whole words and case-sensitive lower case**, as in UCI: `uci` never matches
//!   the start of `ucinewgame`, `go` never matches `gofoo`, `d` never matches `debug`, and `UCI`
//!   is an unknown command (its error says commands are lower case). Option names, option values,
//!   FENs, moves and game names keep their case.
//! - **Blank lines** (empty or whitespace only) are `Ok(None)`: nothing to do, not an error.
//! - **Extra tokens** after a complete command (`isready now`, `stop 3`, `go perft 5 6`) are an
//!   error naming the extra text.
//!
//! # Choices per command
//!
//! - `setoption name <name> [value <value>]`: the name is the words up to the first word `value`,
//!   joined by single spaces; the value is the rest of the line with its inner spacing kept.
//!   `value` with nothing after it gives an empty value (`Some("")`), which a string option may
//!   want. A missing name (`setoption name`, `setoption name value 3`) is an error.
//! - `position startpos|fen <FEN> [moves …]`: the FEN is the words before `moves`, joined by single
//!   spaces; an empty FEN is an error. `moves` with nothing after it is an empty list. Only `moves`
//!   may follow the position.
//! - `go`: `perft N` and `solve` must come right after `go`, alone. Otherwise any order and
//!   combination of the limits (`wtime btime winc binc` are aliases of `p1time p2time p1inc
//!   p2inc`) and `infinite`; a repeated limit keeps its last value; bare `go` has default limits.
//!   Every limit needs a whole number (digits only: `+5`, `5ms`, `1e3`, `３` are errors); a
//!   number too big for its field (`u32` for `depth` and `movestogo`, `u64` otherwise) is an
//!   error naming the largest allowed, never a wrap or a clamp. **Negative times** (`wtime -50`: some GUIs let
//!   a clock run below zero) are read as 0 for the five millisecond fields (`p1time p2time p1inc
//!   p2inc movetime`); a negative `depth`, `nodes` or `movestogo` is an error.
//! - `query <word>`: exactly one word. The word is **case-insensitive** (`query GameOver` is
//!   `gameover`), because unknown words are stored in lower case as `Query::Other` and printing
//!   then re-reading a command must give it back unchanged.
//! - `game <name>`: exactly one word, case kept. `bench [N]`: at most one whole number.
//! - Every `Command` the parser returns prints (`Display`) as a line that parses back to it.
//!
//! # Errors
//!
//! Messages say what, where and why: `unknown command 'frobnicate'`, `go: 'depth' needs a whole
//! number, found 'abc'`, `position: expected 'startpos' or 'fen', found 'foo'`, `setoption:
//! expected 'name'`, `isready: unexpected extra text 'now'`. Text quoted from the input goes
//! through [`crate::game::quote`], shared with the games' FEN and move messages: control
//! characters are escaped (`\u{1b}`) and the result is cut after 40 characters (`…`), so that a
//! message is always one short printable line fit for `info string error: …`. The parser never
//! panics.
//!
//! # A note on nom 8
//!
//! `Parser::parse` runs parsers in *streaming* mode: the mode-generic leaves (`nom::bytes::tag`
//! and friends) answer `Incomplete` when the input ends early (`tag("uci")` on `u`), and `alt`
//! stops at `Incomplete` instead of trying the next branch. A line is complete input, so this
//! module calls `parse_complete` throughout and builds on the `complete` leaf parsers.

use std::fmt;

use nom::{
    IResult, Parser,
    branch::alt,
    bytes::complete::{tag, take_till1, take_while1},
    character::complete::digit1,
    combinator::{all_consuming, cut, eof, map, opt, peek, rest, value, verify},
    error::ErrorKind,
    multi::{fold_many0, many0},
    sequence::{preceded, terminated},
};

use super::command::{Command, Go, GoLimits, Query, StartPosition};
use crate::game::quote;

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
    let line = line.trim_matches(is_separator);
    if line.is_empty() {
        return Ok(None);
    }
    match command.parse_complete(line) {
        Ok(("", command)) => Ok(Some(command)),
        // Every command checks its own end, so neither of these should happen; they are
        // answered anyway rather than trusted away.
        Ok((extra, _)) => Err(ParseError(format!(
            "unexpected extra text {}",
            quote(extra)
        ))),
        Err(
            nom::Err::Error(Problem::Says(message)) | nom::Err::Failure(Problem::Says(message)),
        ) => Err(ParseError(message)),
        Err(nom::Err::Error(Problem::Nom(kind)) | nom::Err::Failure(Problem::Nom(kind))) => Err(
            ParseError(format!("cannot read the line {} ({kind:?})", quote(line))),
        ),
        Err(nom::Err::Incomplete(_)) => Err(ParseError(format!(
            "cannot read the line {} (incomplete)",
            quote(line)
        ))),
    }
}

/// Every command keyword, for the "commands are lower case" hint (and the tests).
const COMMANDS: [&str; 15] = [
    "ugi",
    "uci",
    "isready",
    "uginewgame",
    "ucinewgame",
    "setoption",
    "position",
    "go",
    "stop",
    "quit",
    "query",
    "game",
    "d",
    "bench",
    "help",
];

/// The error inside the parser: either nom's own "this alternative does not apply" or a message
/// for the user. Messages win over nom's kinds when alternatives are combined.
#[derive(Debug)]
enum Problem {
    Nom(ErrorKind),
    Says(String),
}

impl<I> nom::error::ParseError<I> for Problem {
    fn from_error_kind(_input: I, kind: ErrorKind) -> Self {
        Problem::Nom(kind)
    }

    fn append(_input: I, _kind: ErrorKind, other: Self) -> Self {
        other
    }

    fn or(self, other: Self) -> Self {
        match (self, other) {
            (Problem::Nom(_), other) => other,
            (message, _) => message,
        }
    }
}

type Res<'a, T> = IResult<&'a str, T, Problem>;

/// Stops the parse with a message for the user.
fn failure<T>(message: String) -> Result<T, nom::Err<Problem>> {
    Err(nom::Err::Failure(Problem::Says(message)))
}

fn is_separator(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r' | '\n')
}

/// A run of separators.
fn space1(input: &str) -> Res<'_, &str> {
    take_while1(is_separator).parse_complete(input)
}

/// One token: a run of anything but separators.
fn word(input: &str) -> Res<'_, &str> {
    take_till1(is_separator).parse_complete(input)
}

/// The next token after the separator, if there is one.
fn next_word(input: &str) -> Res<'_, Option<&str>> {
    opt(preceded(space1, word)).parse_complete(input)
}

/// `kw` as a whole word: it must be followed by a separator or the end of the line.
fn keyword<'a>(kw: &'static str) -> impl Parser<&'a str, Output = &'a str, Error = Problem> {
    terminated(tag(kw), peek(alt((space1, eof))))
}

/// A separator, then `kw` as a whole word.
fn keyword_after_space<'a>(
    kw: &'static str,
) -> impl Parser<&'a str, Output = &'a str, Error = Problem> {
    preceded(space1, keyword(kw))
}

/// The first of `keywords` that matches, as a whole word.
fn any_keyword<'a>(
    keywords: &'static [&'static str],
) -> impl Parser<&'a str, Output = &'a str, Error = Problem> {
    move |input: &'a str| {
        keywords
            .iter()
            .find_map(|&kw| keyword(kw).parse_complete(input).ok())
            .ok_or(nom::Err::Error(Problem::Nom(ErrorKind::Tag)))
    }
}

/// The end of the line; anything left is an error naming it.
fn end<'a>(context: &'static str) -> impl Parser<&'a str, Output = (), Error = Problem> {
    move |input: &'a str| {
        if input.is_empty() {
            Ok((input, ()))
        } else {
            let extra = input.trim_start_matches(is_separator);
            failure(format!("{context}: unexpected extra text {}", quote(extra)))
        }
    }
}

/// The last alternative where `what` was expected: an error saying what was found instead.
fn expected<'a, T>(
    context: &'static str,
    what: &'static str,
) -> impl Parser<&'a str, Output = T, Error = Problem> {
    move |input: &'a str| match next_word(input)? {
        (_, None) => failure(format!("{context}: expected {what}")),
        (_, Some(found)) => failure(format!(
            "{context}: expected {what}, found {}",
            quote(found)
        )),
    }
}

/// The next words up to (not including) the whole word `stop`, or to the end of the line.
fn words_until<'a>(
    stop: &'static str,
) -> impl Parser<&'a str, Output = Vec<&'a str>, Error = Problem> {
    many0(preceded(space1, verify(word, move |w: &str| w != stop)))
}

/// A command of one keyword and nothing else.
fn bare<'a>(
    kw: &'static str,
    command: Command,
) -> impl Parser<&'a str, Output = Command, Error = Problem> {
    terminated(value(command, keyword(kw)), cut(end(kw)))
}

/// What a number may be in [`number_after`].
#[derive(Clone, Copy)]
struct NumberRule {
    max: u64,
    /// Whether `-digits` reads as 0 (times) rather than an error.
    negative_is_zero: bool,
}

const COUNT_U32: NumberRule = NumberRule {
    max: u32::MAX as u64,
    negative_is_zero: false,
};
const COUNT_U64: NumberRule = NumberRule {
    max: u64::MAX,
    negative_is_zero: false,
};
const MILLISECONDS: NumberRule = NumberRule {
    max: u64::MAX,
    negative_is_zero: true,
};

/// A separator, then a whole number (digits only) for `what` in `context`; every problem is
/// a failure naming both.
fn number_after<'a>(input: &'a str, context: &str, what: &str, rule: NumberRule) -> Res<'a, u64> {
    let (rest, token) = next_word(input)?;
    let Some(token) = token else {
        return failure(format!(
            "{context}: {what} needs a whole number, found nothing"
        ));
    };
    let (digits, negative) = match token.strip_prefix('-') {
        Some(digits) if rule.negative_is_zero => (digits, true),
        _ => (token, false),
    };
    if all_consuming(digit1::<&str, Problem>)
        .parse_complete(digits)
        .is_err()
    {
        return failure(format!(
            "{context}: {what} needs a whole number, found {}",
            quote(token)
        ));
    }
    if negative {
        return Ok((rest, 0));
    }
    match digits.parse::<u64>() {
        Ok(number) if number <= rule.max => Ok((rest, number)),
        _ => failure(format!(
            "{context}: {what} needs a whole number up to {}, found {}",
            rule.max,
            quote(token)
        )),
    }
}

/// [`number_after`] for a `u32` field.
fn u32_after<'a>(input: &'a str, context: &str, what: &str) -> Res<'a, u32> {
    let (rest, number) = number_after(input, context, what, COUNT_U32)?;
    Ok((rest, checked_u32(number)))
}

/// The whole grammar: a trimmed, non-empty line to a command.
fn command(input: &str) -> Res<'_, Command> {
    alt((
        bare("ugi", Command::Ugi),
        bare("uci", Command::Uci),
        bare("isready", Command::IsReady),
        bare("uginewgame", Command::NewGame),
        bare("ucinewgame", Command::NewGame),
        preceded(keyword("setoption"), cut(setoption)),
        preceded(keyword("position"), cut(position)),
        preceded(keyword("go"), cut(map(go, Command::Go))),
        bare("stop", Command::Stop),
        bare("quit", Command::Quit),
        preceded(keyword("query"), cut(query)),
        preceded(keyword("game"), cut(game)),
        bare("d", Command::Display),
        preceded(keyword("bench"), cut(bench)),
        bare("help", Command::Help),
        unknown_command,
    ))
    .parse_complete(input)
}

fn unknown_command(input: &str) -> Res<'_, Command> {
    let (_, found) = word(input)?;
    let hint = if COMMANDS.contains(&found.to_lowercase().as_str()) {
        " (commands are lower case)"
    } else {
        ""
    };
    failure(format!("unknown command {}{hint}", quote(found)))
}

/// After `setoption`: `name <words> [value <rest>]`.
fn setoption(input: &str) -> Res<'_, Command> {
    let (input, _) = alt((keyword_after_space("name"), expected("setoption", "'name'")))
        .parse_complete(input)?;
    let (input, name) = words_until("value").parse_complete(input)?;
    if name.is_empty() {
        return failure("setoption: missing the option name after 'name'".to_string());
    }
    let (input, value) = opt(preceded(keyword_after_space("value"), rest)).parse_complete(input)?;
    let (input, ()) = end("setoption").parse_complete(input)?;
    let name = name.join(" ");
    let value = value.map(|value| value.trim_matches(is_separator).to_string());
    Ok((input, Command::SetOption { name, value }))
}

/// After `position`: `startpos | fen <words>`, then `[moves <words>]`.
fn position(input: &str) -> Res<'_, Command> {
    let (input, start) = alt((
        value(StartPosition::StartPos, keyword_after_space("startpos")),
        preceded(keyword_after_space("fen"), cut(fen)),
        expected("position", "'startpos' or 'fen'"),
    ))
    .parse_complete(input)?;
    let (input, moves) = opt(preceded(
        keyword_after_space("moves"),
        many0(preceded(space1, word)),
    ))
    .parse_complete(input)?;
    if !input.is_empty() {
        let extra = input.trim_start_matches(is_separator);
        return failure(format!(
            "position: expected 'moves' or the end of the line after the position, found {}",
            quote(extra)
        ));
    }
    let moves = moves
        .unwrap_or_default()
        .into_iter()
        .map(str::to_string)
        .collect();
    Ok((input, Command::Position { start, moves }))
}

/// After `position fen`: the FEN words before `moves`.
fn fen(input: &str) -> Res<'_, StartPosition> {
    let (input, words) = words_until("moves").parse_complete(input)?;
    if words.is_empty() {
        return failure("position fen: the FEN is missing".to_string());
    }
    Ok((input, StartPosition::Fen(words.join(" "))))
}

/// After `go`: `perft N`, `solve`, or search limits.
fn go(input: &str) -> Res<'_, Go> {
    alt((
        preceded(
            keyword_after_space("perft"),
            cut(terminated(
                map(|i| u32_after(i, "go perft", "the depth"), Go::Perft),
                end("go perft"),
            )),
        ),
        terminated(
            value(Go::Solve, keyword_after_space("solve")),
            cut(end("go solve")),
        ),
        map(limits, Go::Search),
    ))
    .parse_complete(input)
}

/// One search limit of `go`, read.
#[derive(Clone, Copy)]
enum Limit {
    P1Time(u64),
    P2Time(u64),
    P1Inc(u64),
    P2Inc(u64),
    MovesToGo(u32),
    MoveTime(u64),
    Depth(u32),
    Nodes(u64),
    Infinite,
}

impl Limit {
    /// Sets this limit in `limits`; a later value replaces an earlier one.
    fn apply(mut limits: GoLimits, limit: Limit) -> GoLimits {
        match limit {
            Limit::P1Time(ms) => limits.p1time = Some(ms),
            Limit::P2Time(ms) => limits.p2time = Some(ms),
            Limit::P1Inc(ms) => limits.p1inc = Some(ms),
            Limit::P2Inc(ms) => limits.p2inc = Some(ms),
            Limit::MovesToGo(moves) => limits.movestogo = Some(moves),
            Limit::MoveTime(ms) => limits.movetime = Some(ms),
            Limit::Depth(depth) => limits.depth = Some(depth),
            Limit::Nodes(nodes) => limits.nodes = Some(nodes),
            Limit::Infinite => limits.infinite = true,
        }
        limits
    }
}

/// The limits of `go`, in any order, into default [`GoLimits`].
fn limits(input: &str) -> Res<'_, GoLimits> {
    fold_many0(
        preceded(space1, cut(limit)),
        GoLimits::default,
        Limit::apply,
    )
    .parse_complete(input)
}

/// `<name> <number>` where `name` is one of `names`; `cut` after the name, so a bad number is an
/// error and never a fallback to another reading.
fn limit_with<'a, T>(
    names: &'static [&'static str],
    rule: NumberRule,
    make: fn(u64) -> T,
) -> impl Parser<&'a str, Output = T, Error = Problem> {
    move |input: &'a str| {
        let (input, name) = any_keyword(names).parse_complete(input)?;
        let what = quote(name);
        let (input, number) = cut(|i| number_after(i, "go", &what, rule)).parse_complete(input)?;
        Ok((input, make(number)))
    }
}

/// A number that [`number_after`] has already checked against [`COUNT_U32`].
fn checked_u32(number: u64) -> u32 {
    u32::try_from(number).unwrap_or(u32::MAX)
}

fn limit(input: &str) -> Res<'_, Limit> {
    alt((
        limit_with(&["p1time", "wtime"], MILLISECONDS, Limit::P1Time),
        limit_with(&["p2time", "btime"], MILLISECONDS, Limit::P2Time),
        limit_with(&["p1inc", "winc"], MILLISECONDS, Limit::P1Inc),
        limit_with(&["p2inc", "binc"], MILLISECONDS, Limit::P2Inc),
        limit_with(&["movestogo"], COUNT_U32, |n| {
            Limit::MovesToGo(checked_u32(n))
        }),
        limit_with(&["movetime"], MILLISECONDS, Limit::MoveTime),
        limit_with(&["depth"], COUNT_U32, |n| Limit::Depth(checked_u32(n))),
        limit_with(&["nodes"], COUNT_U64, Limit::Nodes),
        value(Limit::Infinite, keyword("infinite")),
        go_mode_out_of_place,
        unknown_go_word,
    ))
    .parse_complete(input)
}

/// `perft` or `solve` after a limit.
fn go_mode_out_of_place(input: &str) -> Res<'_, Limit> {
    let (_, mode) = alt((keyword("perft"), keyword("solve"))).parse_complete(input)?;
    failure(format!(
        "go: {} must come right after 'go', with no search limits",
        quote(mode)
    ))
}

fn unknown_go_word(input: &str) -> Res<'_, Limit> {
    let (_, found) = word(input)?;
    failure(format!(
        "go: unknown word {} (expected p1time, p2time, p1inc, p2inc, wtime, btime, winc, binc, \
         movestogo, movetime, depth, nodes, infinite, perft or solve)",
        quote(found)
    ))
}

/// After `query`: exactly one word, case-insensitive.
fn query(input: &str) -> Res<'_, Command> {
    let (input, subject) = alt((
        preceded(space1, word),
        expected(
            "query",
            "what to ask (gameover, p1turn, result, moves or fen)",
        ),
    ))
    .parse_complete(input)?;
    let (input, ()) = end("query").parse_complete(input)?;
    let subject = subject.to_lowercase();
    let query = match subject.as_str() {
        "gameover" => Query::GameOver,
        "p1turn" => Query::P1Turn,
        "result" => Query::Result,
        "moves" => Query::Moves,
        "fen" => Query::Fen,
        _ => Query::Other(subject),
    };
    Ok((input, Command::Query(query)))
}

/// After `game`: exactly one word, the game's name.
fn game(input: &str) -> Res<'_, Command> {
    let (input, name) =
        alt((preceded(space1, word), expected("game", "a game name"))).parse_complete(input)?;
    let (input, ()) = end("game").parse_complete(input)?;
    Ok((input, Command::Game(name.to_string())))
}

/// After `bench`: an optional depth.
fn bench(input: &str) -> Res<'_, Command> {
    let (input, depth) = if input.is_empty() {
        (input, None)
    } else {
        let (input, depth) = u32_after(input, "bench", "the depth")?;
        (input, Some(depth))
    };
    let (input, ()) = end("bench").parse_complete(input)?;
    Ok((input, Command::Bench { depth }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Xorshift;

    fn ok(line: &str) -> Command {
        match parse_command(line) {
            Ok(Some(command)) => command,
            other => panic!("{line:?} should parse, got {other:?}"),
        }
    }

    fn err(line: &str) -> String {
        match parse_command(line) {
            Err(ParseError(message)) => message,
            other => panic!("{line:?} should be an error, got {other:?}"),
        }
    }

    fn search(limits: GoLimits) -> Command {
        Command::Go(Go::Search(limits))
    }

    fn position(start: StartPosition, moves: &[&str]) -> Command {
        Command::Position {
            start,
            moves: moves.iter().map(|m| m.to_string()).collect(),
        }
    }

    fn fen(text: &str) -> StartPosition {
        StartPosition::Fen(text.to_string())
    }

    fn setoption(name: &str, value: Option<&str>) -> Command {
        Command::SetOption {
            name: name.to_string(),
            value: value.map(str::to_string),
        }
    }

    #[test]
    fn blank_lines_are_nothing() {
        for line in ["", " ", "\t", "  \t  ", "\r", "\n", "\r\n", " \t\r\n"] {
            assert_eq!(parse_command(line), Ok(None), "{line:?}");
        }
    }

    #[test]
    fn simple_commands() {
        assert_eq!(ok("ugi"), Command::Ugi);
        assert_eq!(ok("uci"), Command::Uci);
        assert_eq!(ok("isready"), Command::IsReady);
        assert_eq!(ok("uginewgame"), Command::NewGame);
        assert_eq!(ok("ucinewgame"), Command::NewGame);
        assert_eq!(ok("stop"), Command::Stop);
        assert_eq!(ok("quit"), Command::Quit);
        assert_eq!(ok("d"), Command::Display);
        assert_eq!(ok("help"), Command::Help);
        assert!(err("help me").contains("extra text"));
        assert_eq!(ok("bench"), Command::Bench { depth: None });
        assert_eq!(ok("bench 7"), Command::Bench { depth: Some(7) });
        assert_eq!(ok("bench 0"), Command::Bench { depth: Some(0) });
    }

    #[test]
    fn whitespace_variants() {
        assert_eq!(ok("  uci  "), Command::Uci);
        assert_eq!(ok("\tisready\t"), Command::IsReady);
        assert_eq!(ok("quit\r"), Command::Quit);
        assert_eq!(ok("quit\r\n"), Command::Quit);
        assert_eq!(ok("quit\n"), Command::Quit);
        assert_eq!(
            ok(" \t go \t depth\t\t 5   nodes  9 \r"),
            search(GoLimits {
                depth: Some(5),
                nodes: Some(9),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("position\tstartpos\t moves\t e2 \t e4"),
            position(StartPosition::StartPos, &["e2", "e4"])
        );
        assert_eq!(
            ok("position  fen  a/b   c   moves  x"),
            position(fen("a/b c"), &["x"])
        );
        assert_eq!(ok("bench \t 3 "), Command::Bench { depth: Some(3) });
        assert_eq!(ok("query\t\tfen"), Command::Query(Query::Fen));
        assert_eq!(
            ok("game \t neutreeko \r"),
            Command::Game("neutreeko".to_string())
        );
    }

    #[test]
    fn other_whitespace_is_part_of_a_token() {
        // Only spaces, tabs, \r and \n separate tokens; a vertical tab does not.
        assert_eq!(err("uci\u{b}"), "unknown command 'uci\\u{b}'");
        assert_eq!(err("uci\rquit"), "uci: unexpected extra text 'quit'");
        // An inner \r is a separator, so a FEN or a move list never ends in one (found by
        // the protocol_parser fuzz target: the command printed without the \r).
        assert_eq!(
            ok("position fen 1w1\rw1/2b2 b\r moves"),
            position(fen("1w1 w1/2b2 b"), &[])
        );
        assert_eq!(
            ok("position startpos moves \r"),
            position(StartPosition::StartPos, &[])
        );
        assert_eq!(err("go\u{a0}depth 3"), "unknown command 'go\u{a0}depth'");
    }

    #[test]
    fn keywords_are_whole_words() {
        assert_eq!(ok("ucinewgame"), Command::NewGame);
        assert_eq!(ok("uginewgame"), Command::NewGame);
        assert_eq!(err("ucinew"), "unknown command 'ucinew'");
        assert_eq!(err("ucix"), "unknown command 'ucix'");
        assert_eq!(err("ugiok"), "unknown command 'ugiok'");
        assert_eq!(err("gofoo"), "unknown command 'gofoo'");
        assert_eq!(err("gofoo depth 3"), "unknown command 'gofoo'");
        assert_eq!(err("debug on"), "unknown command 'debug'");
        assert_eq!(err("dd"), "unknown command 'dd'");
        assert_eq!(err("isreadyy"), "unknown command 'isreadyy'");
        assert_eq!(err("stopp"), "unknown command 'stopp'");
        assert_eq!(err("quitx"), "unknown command 'quitx'");
        assert_eq!(err("benchmark"), "unknown command 'benchmark'");
        assert_eq!(err("games neutreeko"), "unknown command 'games'");
        assert_eq!(err("queryfen"), "unknown command 'queryfen'");
        assert_eq!(
            err("positionstartpos"),
            "unknown command 'positionstartpos'"
        );
        assert_eq!(err("setoptionname Hash"), "unknown command 'setoptionname'");
        assert!(err("go depthx 3").contains("unknown word 'depthx'"));
        assert!(err("go infinitely").contains("unknown word 'infinitely'"));
        assert!(err("go wtimes 3").contains("unknown word 'wtimes'"));
        assert!(err("go perftx 3").contains("unknown word 'perftx'"));
        assert!(err("go solved").contains("unknown word 'solved'"));
        assert_eq!(
            err("position startposx"),
            "position: expected 'startpos' or 'fen', found 'startposx'"
        );
        assert_eq!(
            err("position fenx a b"),
            "position: expected 'startpos' or 'fen', found 'fenx'"
        );
        assert_eq!(
            err("setoption names Hash"),
            "setoption: expected 'name', found 'names'"
        );
    }

    #[test]
    fn keywords_are_case_sensitive() {
        assert_eq!(
            err("UCI"),
            "unknown command 'UCI' (commands are lower case)"
        );
        assert_eq!(
            err("Go depth 3"),
            "unknown command 'Go' (commands are lower case)"
        );
        assert_eq!(
            err("IsReady"),
            "unknown command 'IsReady' (commands are lower case)"
        );
        assert!(err("go DEPTH 3").contains("unknown word 'DEPTH'"));
        assert_eq!(
            err("position StartPos"),
            "position: expected 'startpos' or 'fen', found 'StartPos'"
        );
        assert_eq!(
            err("setoption Name Hash"),
            "setoption: expected 'name', found 'Name'"
        );
        // `Value` is not the keyword, so it is part of the name.
        assert_eq!(
            ok("setoption name Foo Value 3"),
            setoption("Foo Value 3", None)
        );
    }

    #[test]
    fn setoption_forms() {
        assert_eq!(
            ok("setoption name Hash value 64"),
            setoption("Hash", Some("64"))
        );
        assert_eq!(ok("setoption name Hash"), setoption("Hash", None));
        assert_eq!(
            ok("setoption name Clear Hash"),
            setoption("Clear Hash", None)
        );
        assert_eq!(
            ok("setoption name Move  Overhead value  10 ms  "),
            setoption("Move Overhead", Some("10 ms"))
        );
        assert_eq!(
            ok("setoption name Book File value C:\\My  Books\\x.bin"),
            setoption("Book File", Some("C:\\My  Books\\x.bin"))
        );
        assert_eq!(
            ok("setoption name Game value Neutreeko"),
            setoption("Game", Some("Neutreeko"))
        );
        assert_eq!(ok("setoption name X value"), setoption("X", Some("")));
        assert_eq!(ok("setoption name X value  \t "), setoption("X", Some("")));
        assert_eq!(
            ok("setoption name X value a value b"),
            setoption("X", Some("a value b"))
        );
        assert_eq!(
            ok("setoption name valuex value 1"),
            setoption("valuex", Some("1"))
        );
        assert_eq!(
            ok("setoption name name value name"),
            setoption("name", Some("name"))
        );
        assert_eq!(
            ok("setoption name Ünïcode value ✓"),
            setoption("Ünïcode", Some("✓"))
        );
    }

    #[test]
    fn setoption_errors() {
        assert_eq!(err("setoption"), "setoption: expected 'name'");
        assert_eq!(err("setoption   "), "setoption: expected 'name'");
        assert_eq!(
            err("setoption Hash value 3"),
            "setoption: expected 'name', found 'Hash'"
        );
        assert_eq!(
            err("setoption name"),
            "setoption: missing the option name after 'name'"
        );
        assert_eq!(
            err("setoption name value 3"),
            "setoption: missing the option name after 'name'"
        );
        assert_eq!(
            err("setoption name value"),
            "setoption: missing the option name after 'name'"
        );
        assert_eq!(
            err("setoption value 3"),
            "setoption: expected 'name', found 'value'"
        );
    }

    #[test]
    fn position_forms() {
        assert_eq!(
            ok("position startpos"),
            position(StartPosition::StartPos, &[])
        );
        assert_eq!(
            ok("position startpos moves"),
            position(StartPosition::StartPos, &[])
        );
        assert_eq!(
            ok("position startpos moves b1b4"),
            position(StartPosition::StartPos, &["b1b4"])
        );
        assert_eq!(
            ok("position startpos moves b1b4 b5b2 d1d4"),
            position(StartPosition::StartPos, &["b1b4", "b5b2", "d1d4"])
        );
        assert_eq!(
            ok("position fen 1w1w1/2b2/5/2w2/1b1b1 b 0"),
            position(fen("1w1w1/2b2/5/2w2/1b1b1 b 0"), &[])
        );
        assert_eq!(
            ok("position fen 1w1w1/2b2/5/2w2/1b1b1   b\t0 moves b1b4 pass"),
            position(fen("1w1w1/2b2/5/2w2/1b1b1 b 0"), &["b1b4", "pass"])
        );
        assert_eq!(ok("position fen x moves"), position(fen("x"), &[]));
        assert_eq!(ok("position fen movesx"), position(fen("movesx"), &[]));
        assert_eq!(ok("position fen Ab moves"), position(fen("Ab"), &[]));
        // After `moves`, every word is a move, even another `moves`.
        assert_eq!(
            ok("position startpos moves a1 moves b2"),
            position(StartPosition::StartPos, &["a1", "moves", "b2"])
        );
    }

    #[test]
    fn position_errors() {
        assert_eq!(err("position"), "position: expected 'startpos' or 'fen'");
        assert_eq!(
            err("position foo"),
            "position: expected 'startpos' or 'fen', found 'foo'"
        );
        assert_eq!(
            err("position moves a1"),
            "position: expected 'startpos' or 'fen', found 'moves'"
        );
        assert_eq!(err("position fen"), "position fen: the FEN is missing");
        assert_eq!(
            err("position fen moves a1"),
            "position fen: the FEN is missing"
        );
        assert_eq!(
            err("position fen  moves"),
            "position fen: the FEN is missing"
        );
        assert_eq!(
            err("position startpos foo"),
            "position: expected 'moves' or the end of the line after the position, found 'foo'"
        );
        assert_eq!(
            err("position startpos b1b4 moves"),
            "position: expected 'moves' or the end of the line after the position, found 'b1b4 moves'"
        );
        assert_eq!(
            err("position startpos fen x"),
            "position: expected 'moves' or the end of the line after the position, found 'fen x'"
        );
    }

    #[test]
    fn go_limits() {
        assert_eq!(ok("go"), search(GoLimits::default()));
        assert_eq!(
            ok(
                "go p1time 1000 p2time 2000 p1inc 10 p2inc 20 movestogo 30 movetime 500 depth 12 nodes 123456 infinite"
            ),
            search(GoLimits {
                p1time: Some(1000),
                p2time: Some(2000),
                p1inc: Some(10),
                p2inc: Some(20),
                movestogo: Some(30),
                movetime: Some(500),
                depth: Some(12),
                nodes: Some(123456),
                infinite: true,
            })
        );
        assert_eq!(
            ok("go winc 5 btime 7 wtime 6 binc 8"),
            search(GoLimits {
                p1time: Some(6),
                p2time: Some(7),
                p1inc: Some(5),
                p2inc: Some(8),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go infinite"),
            search(GoLimits {
                infinite: true,
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go infinite infinite"),
            search(GoLimits {
                infinite: true,
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go depth 3 depth 5"),
            search(GoLimits {
                depth: Some(5),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go wtime 3 p1time 4"),
            search(GoLimits {
                p1time: Some(4),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go depth 007"),
            search(GoLimits {
                depth: Some(7),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go depth 0"),
            search(GoLimits {
                depth: Some(0),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go depth 4294967295 nodes 18446744073709551615"),
            search(GoLimits {
                depth: Some(u32::MAX),
                nodes: Some(u64::MAX),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go movestogo 4294967295 movetime 18446744073709551615"),
            search(GoLimits {
                movestogo: Some(u32::MAX),
                movetime: Some(u64::MAX),
                ..GoLimits::default()
            })
        );
    }

    #[test]
    fn go_negative_times_are_zero() {
        assert_eq!(
            ok("go wtime -50 btime -1 winc -0 binc -3 movetime -9"),
            search(GoLimits {
                p1time: Some(0),
                p2time: Some(0),
                p1inc: Some(0),
                p2inc: Some(0),
                movetime: Some(0),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            ok("go p1time -99999999999999999999999999"),
            search(GoLimits {
                p1time: Some(0),
                ..GoLimits::default()
            })
        );
        assert_eq!(
            err("go depth -1"),
            "go: 'depth' needs a whole number, found '-1'"
        );
        assert_eq!(
            err("go nodes -1"),
            "go: 'nodes' needs a whole number, found '-1'"
        );
        assert_eq!(
            err("go movestogo -1"),
            "go: 'movestogo' needs a whole number, found '-1'"
        );
        assert_eq!(
            err("go wtime -"),
            "go: 'wtime' needs a whole number, found '-'"
        );
        assert_eq!(
            err("go wtime --5"),
            "go: 'wtime' needs a whole number, found '--5'"
        );
        assert_eq!(
            err("go wtime -5x"),
            "go: 'wtime' needs a whole number, found '-5x'"
        );
    }

    #[test]
    fn go_modes() {
        assert_eq!(ok("go perft 5"), Command::Go(Go::Perft(5)));
        assert_eq!(ok("go perft 0"), Command::Go(Go::Perft(0)));
        assert_eq!(ok("go  perft\t5 "), Command::Go(Go::Perft(5)));
        assert_eq!(ok("go solve"), Command::Go(Go::Solve));
    }

    #[test]
    fn go_errors() {
        assert_eq!(
            err("go depth abc"),
            "go: 'depth' needs a whole number, found 'abc'"
        );
        assert_eq!(
            err("go depth"),
            "go: 'depth' needs a whole number, found nothing"
        );
        assert_eq!(
            err("go depth 3 nodes"),
            "go: 'nodes' needs a whole number, found nothing"
        );
        assert_eq!(
            err("go wtime abc"),
            "go: 'wtime' needs a whole number, found 'abc'"
        );
        assert_eq!(
            err("go depth infinite"),
            "go: 'depth' needs a whole number, found 'infinite'"
        );
        assert_eq!(
            err("go depth +5"),
            "go: 'depth' needs a whole number, found '+5'"
        );
        assert_eq!(
            err("go depth 5ms"),
            "go: 'depth' needs a whole number, found '5ms'"
        );
        assert_eq!(
            err("go movetime 1e3"),
            "go: 'movetime' needs a whole number, found '1e3'"
        );
        assert_eq!(
            err("go depth 3.5"),
            "go: 'depth' needs a whole number, found '3.5'"
        );
        assert_eq!(
            err("go depth ３"),
            "go: 'depth' needs a whole number, found '３'"
        );
        assert_eq!(
            err("go depth 4294967296"),
            "go: 'depth' needs a whole number up to 4294967295, found '4294967296'"
        );
        assert_eq!(
            err("go movestogo 99999999999"),
            "go: 'movestogo' needs a whole number up to 4294967295, found '99999999999'"
        );
        assert_eq!(
            err("go nodes 18446744073709551616"),
            "go: 'nodes' needs a whole number up to 18446744073709551615, found '18446744073709551616'"
        );
        assert!(err("go wtime 99999999999999999999999999").contains("up to 18446744073709551615"));
        assert!(err("go frobnicate").starts_with("go: unknown word 'frobnicate' (expected p1time"));
        assert!(err("go depth 3 foo").starts_with("go: unknown word 'foo'"));
        assert!(err("go 5").starts_with("go: unknown word '5'"));
        assert_eq!(
            err("go perft"),
            "go perft: the depth needs a whole number, found nothing"
        );
        assert_eq!(
            err("go perft x"),
            "go perft: the depth needs a whole number, found 'x'"
        );
        assert_eq!(
            err("go perft -1"),
            "go perft: the depth needs a whole number, found '-1'"
        );
        assert_eq!(err("go perft 5 6"), "go perft: unexpected extra text '6'");
        assert_eq!(
            err("go perft 5 depth 3"),
            "go perft: unexpected extra text 'depth 3'"
        );
        assert_eq!(err("go solve now"), "go solve: unexpected extra text 'now'");
        assert_eq!(
            err("go depth 3 perft 5"),
            "go: 'perft' must come right after 'go', with no search limits"
        );
        assert_eq!(
            err("go infinite solve"),
            "go: 'solve' must come right after 'go', with no search limits"
        );
    }

    #[test]
    fn query_forms() {
        assert_eq!(ok("query gameover"), Command::Query(Query::GameOver));
        assert_eq!(ok("query p1turn"), Command::Query(Query::P1Turn));
        assert_eq!(ok("query result"), Command::Query(Query::Result));
        assert_eq!(ok("query moves"), Command::Query(Query::Moves));
        assert_eq!(ok("query fen"), Command::Query(Query::Fen));
        assert_eq!(
            ok("query trees"),
            Command::Query(Query::Other("trees".to_string()))
        );
        assert_eq!(
            ok("query Trees"),
            Command::Query(Query::Other("trees".to_string()))
        );
        assert_eq!(ok("query GameOver"), Command::Query(Query::GameOver));
        assert_eq!(ok("query FEN"), Command::Query(Query::Fen));
        assert_eq!(
            ok("query ÄÖ"),
            Command::Query(Query::Other("äö".to_string()))
        );
    }

    #[test]
    fn query_errors() {
        assert_eq!(
            err("query"),
            "query: expected what to ask (gameover, p1turn, result, moves or fen)"
        );
        assert_eq!(
            err("query gameover now"),
            "query: unexpected extra text 'now'"
        );
        assert_eq!(err("query a b c"), "query: unexpected extra text 'b c'");
    }

    #[test]
    fn game_forms_and_errors() {
        assert_eq!(ok("game neutreeko"), Command::Game("neutreeko".to_string()));
        assert_eq!(
            ok("game FrozenForest"),
            Command::Game("FrozenForest".to_string())
        );
        assert_eq!(err("game"), "game: expected a game name");
        assert_eq!(
            err("game frozen forest"),
            "game: unexpected extra text 'forest'"
        );
    }

    #[test]
    fn extra_text_after_a_complete_command() {
        assert_eq!(err("isready now"), "isready: unexpected extra text 'now'");
        assert_eq!(err("stop 3"), "stop: unexpected extra text '3'");
        assert_eq!(
            err("quit  now  please"),
            "quit: unexpected extra text 'now  please'"
        );
        assert_eq!(err("uci x"), "uci: unexpected extra text 'x'");
        assert_eq!(err("ugi x"), "ugi: unexpected extra text 'x'");
        assert_eq!(err("uginewgame x"), "uginewgame: unexpected extra text 'x'");
        assert_eq!(err("ucinewgame x"), "ucinewgame: unexpected extra text 'x'");
        assert_eq!(err("d board"), "d: unexpected extra text 'board'");
        assert_eq!(err("bench 5 6"), "bench: unexpected extra text '6'");
        assert_eq!(
            err("bench x"),
            "bench: the depth needs a whole number, found 'x'"
        );
        assert_eq!(
            err("bench 4294967296"),
            "bench: the depth needs a whole number up to 4294967295, found '4294967296'"
        );
    }

    #[test]
    fn unknown_commands() {
        assert_eq!(err("frobnicate"), "unknown command 'frobnicate'");
        assert_eq!(err("frobnicate the board"), "unknown command 'frobnicate'");
        assert_eq!(err("  frobnicate  "), "unknown command 'frobnicate'");
        assert_eq!(err("ugiok"), "unknown command 'ugiok'");
        assert_eq!(err("é"), "unknown command 'é'");
        assert_eq!(err("\u{1b}[2J"), "unknown command '\\u{1b}[2J'");
        assert_eq!(err("\0"), "unknown command '\\u{0}'");
    }

    #[test]
    fn messages_are_short_and_printable() {
        let long = "x".repeat(100_000);
        let message = err(&long);
        assert_eq!(message, format!("unknown command '{}…'", "x".repeat(40)));
        let message = err(&format!("go depth {long}"));
        assert!(message.len() < 120, "{message}");
        let message = err("isready \u{7}\u{8}\u{7f}\u{9b}");
        assert!(!message.chars().any(char::is_control), "{message:?}");
        assert_eq!(
            message,
            "isready: unexpected extra text '\\u{7}\\u{8}\\u{7f}\\u{9b}'"
        );
    }

    #[test]
    fn huge_lines() {
        let many_moves = "a1b2 ".repeat(200_000);
        match ok(&format!("position startpos moves {many_moves}")) {
            Command::Position { moves, .. } => assert_eq!(moves.len(), 200_000),
            other => panic!("{other:?}"),
        }
        let many_limits = "depth 5 wtime 3 ".repeat(100_000);
        assert_eq!(
            ok(&format!("go {many_limits} depth 9")),
            search(GoLimits {
                depth: Some(9),
                p1time: Some(3),
                ..GoLimits::default()
            })
        );
        let long_fen = "8/".repeat(100_000);
        assert_eq!(
            ok(&format!("position fen {long_fen}")),
            position(fen(&long_fen), &[])
        );
        let long_name = "Name ".repeat(100_000);
        assert!(matches!(
            ok(&format!("setoption name {long_name}")),
            Command::SetOption { .. }
        ));
        let digits = "9".repeat(100_000);
        assert!(err(&format!("go nodes {digits}")).contains("needs a whole number up to"));
        assert_eq!(
            ok(&format!("go wtime -{digits}")),
            search(GoLimits {
                p1time: Some(0),
                ..GoLimits::default()
            })
        );
    }

    /// Commands whose printed form must read back as the same command.
    fn round_trip_commands() -> Vec<Command> {
        let mut commands = vec![
            Command::Ugi,
            Command::Uci,
            Command::IsReady,
            Command::NewGame,
            Command::Stop,
            Command::Quit,
            Command::Display,
            Command::Help,
            Command::Bench { depth: None },
            Command::Bench { depth: Some(0) },
            Command::Bench {
                depth: Some(u32::MAX),
            },
            setoption("Hash", Some("64")),
            setoption("Hash", None),
            setoption("Clear Hash", None),
            setoption("Move Overhead", Some("10")),
            setoption("Book File", Some("C:\\My  Books\\x.bin")),
            setoption("X", Some("")),
            setoption("X", Some("a value b")),
            setoption("Ünïcode", Some("✓ ✓")),
            position(StartPosition::StartPos, &[]),
            position(StartPosition::StartPos, &["b1b4", "b5b2"]),
            position(fen("1w1w1/2b2/5/2w2/1b1b1 b 0"), &[]),
            position(
                fen("11/11/11/11/11/11/11/11/11/11/11 x"),
                &["d4", "f6", "pass", "d4f6e5"],
            ),
            position(fen("x"), &["moves"]),
            Command::Go(Go::Perft(0)),
            Command::Go(Go::Perft(6)),
            Command::Go(Go::Perft(u32::MAX)),
            Command::Go(Go::Solve),
            search(GoLimits::default()),
            search(GoLimits {
                infinite: true,
                ..GoLimits::default()
            }),
            search(GoLimits {
                depth: Some(5),
                ..GoLimits::default()
            }),
            search(GoLimits {
                movetime: Some(1000),
                nodes: Some(7),
                ..GoLimits::default()
            }),
            search(GoLimits {
                p1time: Some(60_000),
                p2time: Some(0),
                p1inc: Some(1000),
                p2inc: Some(u64::MAX),
                movestogo: Some(40),
                movetime: Some(3),
                depth: Some(u32::MAX),
                nodes: Some(u64::MAX),
                infinite: true,
            }),
            Command::Query(Query::GameOver),
            Command::Query(Query::P1Turn),
            Command::Query(Query::Result),
            Command::Query(Query::Moves),
            Command::Query(Query::Fen),
            Command::Query(Query::Other("trees".to_string())),
            Command::Query(Query::Other("äö".to_string())),
            Command::Game("neutreeko".to_string()),
            Command::Game("FrozenForest".to_string()),
        ];
        for name in ["linetris", "talpa", "fabrik", "frozenforest", "neutreeko"] {
            commands.push(setoption("Game", Some(name)));
        }
        commands
    }

    #[test]
    fn display_round_trip() {
        for command in round_trip_commands() {
            let text = command.to_string();
            assert_eq!(parse_command(&text), Ok(Some(command.clone())), "{text:?}");
            // And with a GUI's decorations around it.
            assert_eq!(
                parse_command(&format!(" \t{text}\t \r\n")),
                Ok(Some(command)),
                "{text:?}"
            );
        }
    }

    /// Checks what holds for every line: no panic, a printable one-line message that is never
    /// the internal fallback, and a parsed command that survives printing and re-reading.
    fn check_line(line: &str) {
        match parse_command(line) {
            Ok(None) => assert!(
                line.trim_matches([' ', '\t', '\r', '\n']).is_empty(),
                "{line:?}"
            ),
            Ok(Some(command)) => {
                let text = command.to_string();
                assert_eq!(
                    parse_command(&text),
                    Ok(Some(command)),
                    "{line:?} printed as {text:?}"
                );
            }
            Err(ParseError(message)) => {
                assert!(!message.is_empty(), "{line:?}");
                assert!(
                    !message.chars().any(char::is_control),
                    "{line:?}: {message:?}"
                );
                assert!(!message.starts_with("cannot read"), "{line:?}: {message:?}");
            }
        }
    }

    #[test]
    fn random_bytes_never_panic() {
        let mut rng = Xorshift::new(0x9E37_79B9_7F4A_7C15);
        for _ in 0..3000 {
            let len = rng.index(80);
            let bytes: Vec<u8> = (0..len)
                .map(|_| match rng.index(4) {
                    // Mostly printable ASCII and separators, to reach past the first word.
                    0 => b' ',
                    1 => b"\t\r\n"[rng.index(3)],
                    2 => 0x20 + rng.index(0x5f) as u8,
                    _ => rng.next_u64() as u8,
                })
                .collect();
            check_line(&String::from_utf8_lossy(&bytes));
        }
    }

    #[test]
    fn random_token_soup_never_panics() {
        const VOCABULARY: &[&str] = &[
            "name",
            "value",
            "startpos",
            "fen",
            "moves",
            "p1time",
            "p2time",
            "p1inc",
            "p2inc",
            "wtime",
            "btime",
            "winc",
            "binc",
            "movestogo",
            "movetime",
            "depth",
            "nodes",
            "infinite",
            "perft",
            "solve",
            "gameover",
            "p1turn",
            "result",
            "trees",
            "Hash",
            "Game",
            "0",
            "1",
            "42",
            "-50",
            "-",
            "+3",
            "4294967295",
            "4294967296",
            "18446744073709551616",
            "b1b4",
            "1w1w1/2b2/5/2w2/1b1b1",
            "b",
            "x",
            "UCI",
            "Value",
            "é",
            "\u{1b}",
            "\r",
            "",
        ];
        const SEPARATORS: &[&str] = &[" ", " ", " ", "\t", "  ", " \t "];
        let mut rng = Xorshift::new(0x0123_4567_89AB_CDEF);
        let mut parsed = 0;
        for _ in 0..20_000 {
            let mut line = String::new();
            if rng.index(8) == 0 {
                line.push_str(SEPARATORS[rng.index(SEPARATORS.len())]);
            }
            if rng.index(10) != 0 {
                line.push_str(COMMANDS[rng.index(COMMANDS.len())]);
            }
            for _ in 0..rng.index(7) {
                line.push_str(SEPARATORS[rng.index(SEPARATORS.len())]);
                let token = if rng.index(3) == 0 {
                    COMMANDS[rng.index(COMMANDS.len())]
                } else {
                    VOCABULARY[rng.index(VOCABULARY.len())]
                };
                line.push_str(token);
            }
            if rng.index(8) == 0 {
                line.push_str(["\r", "\r\n", " ", "\t"][rng.index(4)]);
            }
            if let Ok(Some(_)) = parse_command(&line) {
                parsed += 1;
            }
            check_line(&line);
        }
        // The soup must reach the commands, not only their errors.
        assert!(parsed > 1000, "only {parsed} lines parsed");
    }
}
