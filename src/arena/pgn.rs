//! Game records as PGN-style text: what `match --pgn` and `play` write, and what
//! `--openings` reads back.
//!
//! The form is chess's Portable Game Notation, so that tools which read PGN (viewers,
//! filters, databases) read ours: a block of `[Name "value"]` tags, a blank line, then
//! the moves in the protocol's notation with move numbers, ending in the result
//! (`1-0`, `0-1`, `1/2-1/2`, `*`). A move number counts the first player's moves:
//! `3.` before the first player's third move, `3...` before a second player's move
//! that does not follow a first player's move (a game where a side moves twice).
//!
//! The reader takes any such text: tags in any order, move numbers, `;` comments,
//! `$n` annotations and `(…)` variations are skipped; a `{…}` comment right after a
//! move is kept as that move's comment (`{book}` marks a move of the opening, as
//! cutechess-cli and fastchess write it; see [`BOOK`]), any other is skipped. Each
//! game's moves are returned as written; checking them against the rules is the
//! caller's work.

use std::fmt::Write as _;

use crate::game::{Game, Outcome, Player};

/// One move of a record: who played it (0 for the first player, 1 for the second), its
/// text in the protocol notation and an optional comment written after it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnMove {
    pub player: u8,
    pub text: String,
    pub comment: Option<String>,
}

impl PgnMove {
    pub fn new(player: u8, text: impl Into<String>) -> PgnMove {
        PgnMove {
            player,
            text: text.into(),
            comment: None,
        }
    }
}

/// One game record: its tags in the order written, its moves and its result token.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<PgnMove>,
    /// `1-0`, `0-1`, `1/2-1/2` or `*` (unfinished or unknown).
    pub result: String,
}

impl PgnGame {
    /// The value of the first tag named `name` (tag names are case-sensitive in PGN).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Sets tag `name` (replacing its value where it is already present).
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self.tags.iter_mut().find(|(key, _)| key == name) {
            Some(tag) => tag.1 = value,
            None => self.tags.push((name.to_string(), value)),
        }
    }

    /// The game as PGN text: tags, a blank line, the moves wrapped at 79 columns, the
    /// result, and a blank line after it (so that records can be concatenated).
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        for (name, value) in &self.tags {
            let _ = writeln!(out, "[{name} \"{}\"]", escape(value));
        }
        out.push('\n');
        let mut tokens = Vec::with_capacity(self.moves.len() * 2 + 1);
        let mut number = 0;
        let mut last_player = None;
        for mv in &self.moves {
            if mv.player == 0 {
                number += 1;
                tokens.push(format!("{number}."));
            } else if last_player != Some(0) {
                tokens.push(format!("{}...", number.max(1)));
            }
            tokens.push(mv.text.clone());
            if let Some(comment) = &mv.comment {
                // A `}` would end the comment early.
                tokens.push(format!("{{{}}}", comment.replace('}', ")")));
            }
            last_player = Some(mv.player);
        }
        tokens.push(if self.result.is_empty() {
            "*".to_string()
        } else {
            self.result.clone()
        });
        let mut line_len = 0;
        for token in tokens {
            if line_len > 0 && line_len + 1 + token.len() > 79 {
                out.push('\n');
                line_len = 0;
            } else if line_len > 0 {
                out.push(' ');
                line_len += 1;
            }
            line_len += token.len();
            out.push_str(&token);
        }
        out.push_str("\n\n");
        out
    }
}

/// The result token of a game: `1-0` when p1 won, `0-1` when p2 won, `1/2-1/2` for a
/// draw, `*` while it goes on.
pub fn result_token(outcome: Option<Outcome>) -> &'static str {
    match outcome {
        Some(Outcome::Win(Player::P1)) => "1-0",
        Some(Outcome::Win(Player::P2)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    }
}

/// The moves of a game played from `start`, each with its mover and its canonical text.
pub fn moves_of<G: Game>(start: &G, moves: &[G::Move]) -> Vec<PgnMove> {
    let mut state = start.clone();
    moves
        .iter()
        .map(|&mv| {
            let record = PgnMove::new(state.side_to_move().index() as u8, state.format_move(mv));
            state.play(mv);
            record
        })
        .collect()
}

/// Tags every record of a game of `G` carries: `Game`, then each of the game's options
/// (`params`, made from [`Game::option_specs`]) with its value, then `FEN` and
/// `SetUp "1"` when `start` is not the game's start position under those options.
pub fn set_game_tags<G: Game>(
    record: &mut PgnGame,
    params: &crate::game::Params,
    start: &G,
    config: &G::Config,
) {
    record.set_tag("Game", G::NAME);
    for (spec, value) in params.iter() {
        record.set_tag(spec.name, value.to_string());
    }
    let fen = start.fen();
    if fen != G::start(config).fen() {
        record.set_tag("FEN", fen);
        record.set_tag("SetUp", "1");
    }
}

/// Today's date in UTC as PGN writes dates: `2026.11.26` (`????.??.??` if the clock is
/// before 1970).
pub fn today() -> String {
    let Ok(since) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) else {
        return "????.??.??".to_string();
    };
    let (year, month, day) = civil_from_days((since.as_secs() / 86_400) as i64);
    format!("{year:04}.{month:02}.{day:02}")
}

/// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's
/// `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = (if mp < 10 { mp + 3 } else { mp - 9 }) as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// A tag value with `\` and `"` escaped, and line breaks made spaces (a tag is a line).
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for c in value.chars() {
        match c {
            '\\' => out.push_str("\\\\"),
            '"' => out.push_str("\\\""),
            '\n' | '\r' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

const RESULTS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];

/// The comment that marks a move as part of the opening (the moves played from a book
/// or an openings file rather than by the engines).
pub const BOOK: &str = "book";

impl PgnMove {
    /// Whether the move's comment marks it as an opening move (`{book}`).
    pub fn is_book(&self) -> bool {
        self.comment
            .as_deref()
            .is_some_and(|c| c.trim().eq_ignore_ascii_case(BOOK))
    }
}

/// Reads every game in `text`. Moves are returned with `player` alternating from 0
/// (the text does not say who moved; the rules do), each with the `{…}` comment that
/// follows it, if any (trimmed; several are joined by a space). An error names the
/// line: a tag that is not `[Name "value"]`, an unclosed comment or variation.
pub fn read(text: &str) -> Result<Vec<PgnGame>, String> {
    let mut games = Vec::new();
    let mut game = PgnGame::default();
    let mut in_moves = false;
    // Comment and variation state carried across lines.
    let mut in_comment = false;
    let mut variation_depth = 0usize;
    // The text of the comment being read, and whether it follows a move of this game.
    let mut comment = String::new();
    let mut after_move = false;
    let mut last_line = 0;
    for (index, line) in text.lines().enumerate() {
        let number = index + 1;
        last_line = number;
        let trimmed = line.trim();
        if !in_comment && variation_depth == 0 && trimmed.starts_with('[') {
            if in_moves {
                // Tags after moves with no result: the last game ended unmarked.
                finish(&mut games, &mut game, "*");
                in_moves = false;
            }
            after_move = false;
            let (name, value) =
                parse_tag(trimmed).ok_or_else(|| format!("line {number}: not a tag: {trimmed}"))?;
            game.tags.push((name, value));
            continue;
        }
        if !in_comment && trimmed.starts_with('%') {
            continue; // an escape line
        }
        let mut rest = line;
        while !rest.is_empty() {
            if in_comment {
                let (inside, next) = match rest.find('}') {
                    Some(end) => {
                        in_comment = false;
                        (&rest[..end], &rest[end + 1..])
                    }
                    None => (rest, ""),
                };
                if !comment.is_empty() {
                    comment.push(' ');
                }
                comment.push_str(inside.trim());
                rest = next;
                if !in_comment {
                    let text = std::mem::take(&mut comment);
                    let text = text.trim();
                    if let Some(mv) = game.moves.last_mut().filter(|_| after_move)
                        && !text.is_empty()
                    {
                        mv.comment = Some(match mv.comment.take() {
                            Some(before) => format!("{before} {text}"),
                            None => text.to_string(),
                        });
                    }
                }
                continue;
            }
            rest = rest.trim_start();
            let Some(first) = rest.chars().next() else {
                break;
            };
            match first {
                '{' => {
                    in_comment = true;
                    // A comment inside a variation belongs to no move of the game.
                    after_move = after_move && variation_depth == 0;
                    rest = &rest[1..];
                }
                ';' => rest = "",
                '(' => {
                    variation_depth += 1;
                    after_move = false;
                    rest = &rest[1..];
                }
                ')' => {
                    if variation_depth == 0 {
                        return Err(format!("line {number}: `)` closes no variation"));
                    }
                    variation_depth -= 1;
                    rest = &rest[1..];
                }
                _ => {
                    let end = rest
                        .find(|c: char| c.is_whitespace() || "{}();".contains(c))
                        .unwrap_or(rest.len());
                    let token = &rest[..end];
                    rest = &rest[end..];
                    if variation_depth > 0 || token.starts_with('$') {
                        continue;
                    }
                    if RESULTS.contains(&token) {
                        finish(&mut games, &mut game, token);
                        in_moves = false;
                        after_move = false;
                        continue;
                    }
                    // A move number, alone (`12.`, `12...`) or glued to the move (`12.e4`).
                    let move_text = token.trim_start_matches(|c: char| c.is_ascii_digit());
                    let move_text = if move_text.len() < token.len() && move_text.starts_with('.') {
                        move_text.trim_start_matches('.')
                    } else {
                        token
                    };
                    if move_text.is_empty() {
                        after_move = false;
                        continue;
                    }
                    let player = (game.moves.len() % 2) as u8;
                    game.moves.push(PgnMove::new(player, move_text));
                    in_moves = true;
                    after_move = true;
                }
            }
        }
    }
    if in_comment {
        return Err(format!("line {last_line}: a `{{` comment is never closed"));
    }
    if variation_depth > 0 {
        return Err(format!("line {last_line}: a `(` variation is never closed"));
    }
    if in_moves || !game.tags.is_empty() {
        finish(&mut games, &mut game, "*");
    }
    Ok(games)
}

fn finish(games: &mut Vec<PgnGame>, game: &mut PgnGame, result: &str) {
    let mut done = std::mem::take(game);
    done.result = result.to_string();
    games.push(done);
}

/// `[Name "value"]` with `\"` and `\\` escapes in the value.
fn parse_tag(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?.trim();
    let space = inner.find(char::is_whitespace)?;
    let name = &inner[..space];
    if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
        return None;
    }
    let quoted = inner[space..].trim();
    let body = quoted.strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::with_capacity(body.len());
    let mut chars = body.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => value.push(chars.next()?),
            '"' => return None,
            c => value.push(c),
        }
    }
    Some((name.to_string(), value))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> PgnGame {
        let mut game = PgnGame::default();
        game.set_tag("Event", "tabuleiro match");
        game.set_tag("P1", "new \"x\"");
        game.set_tag("P2", "back\\slash");
        game.set_tag("Game", "fabrik");
        game.moves = vec![
            PgnMove::new(0, "f6"),
            PgnMove {
                player: 1,
                text: "e5".to_string(),
                comment: Some("+0.12/4 13ms".to_string()),
            },
            PgnMove::new(1, "k2e4e6"),
            PgnMove::new(0, "g7"),
        ];
        game.result = "1-0".to_string();
        game
    }

    #[test]
    fn writes_tags_numbers_and_result() {
        let text = sample().to_text();
        assert_eq!(
            text,
            "[Event \"tabuleiro match\"]\n[P1 \"new \\\"x\\\"\"]\n[P2 \"back\\\\slash\"]\n\
             [Game \"fabrik\"]\n\n1. f6 e5 {+0.12/4 13ms} 1... k2e4e6 2. g7 1-0\n\n"
        );
    }

    #[test]
    fn round_trips_tags_and_moves() {
        let game = sample();
        let text = format!("{}{}", game.to_text(), game.to_text());
        let read = read(&text).expect("reads");
        assert_eq!(read.len(), 2);
        for back in read {
            assert_eq!(back.tags, game.tags);
            assert_eq!(back.result, "1-0");
            let moves: Vec<&str> = back.moves.iter().map(|m| m.text.as_str()).collect();
            assert_eq!(moves, ["f6", "e5", "k2e4e6", "g7"]);
        }
    }

    #[test]
    fn wraps_long_move_lists() {
        let game = PgnGame {
            moves: (0..200)
                .map(|i| PgnMove::new((i % 2) as u8, "a1b2"))
                .collect(),
            ..PgnGame::default()
        };
        let text = game.to_text();
        assert!(text.lines().all(|line| line.len() <= 79), "{text}");
        assert_eq!(read(&text).expect("reads")[0].moves.len(), 200);
    }

    #[test]
    fn skips_comments_variations_and_annotations() {
        let text = "[Game \"linetris\"]\n\n1.d1 {a\ncomment} d2 $1 ; rest of line\n\
                    2. e1 (2. f1 f2 (2... g2)) e2 3... e3 *\n";
        let games = read(text).expect("reads");
        assert_eq!(games.len(), 1);
        let moves: Vec<&str> = games[0].moves.iter().map(|m| m.text.as_str()).collect();
        assert_eq!(moves, ["d1", "d2", "e1", "e2", "e3"]);
        assert_eq!(games[0].result, "*");
        assert_eq!(games[0].tag("Game"), Some("linetris"));
    }

    #[test]
    fn keeps_the_comment_after_a_move() {
        let game = sample();
        let back = read(&game.to_text()).expect("reads");
        let pairs = |moves: &[PgnMove]| -> Vec<(String, Option<String>)> {
            moves
                .iter()
                .map(|m| (m.text.clone(), m.comment.clone()))
                .collect()
        };
        assert_eq!(pairs(&back[0].moves), pairs(&game.moves));
        let text = "{game comment} 1. a1 {book} b1 { Book } 2. c1 $2 {a} {b} (2. d1 {not}) \
                    d2 2... {after a number} e2 *";
        let games = read(text).expect("reads");
        let moves = &games[0].moves;
        let comments: Vec<Option<&str>> = moves.iter().map(|m| m.comment.as_deref()).collect();
        assert_eq!(
            comments,
            [Some("book"), Some("Book"), Some("a b"), None, None]
        );
        assert!(moves[0].is_book() && moves[1].is_book() && !moves[2].is_book());
    }

    #[test]
    fn dates_and_results() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(20_513), (2026, 3, 1));
        assert_eq!(civil_from_days(20_512), (2026, 2, 28));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(today().len(), 10);
        assert_eq!(result_token(Some(Outcome::Win(Player::P2))), "0-1");
        assert_eq!(result_token(None), "*");
    }

    #[test]
    fn games_without_result_or_tags() {
        let games = read("1. a1 b1\n\n[Event \"x\"]\n\n1. c1 1/2-1/2\n").expect("reads");
        assert_eq!(games.len(), 2);
        assert_eq!(games[0].moves.len(), 2);
        assert_eq!(games[0].result, "*");
        assert_eq!(games[1].tag("Event"), Some("x"));
        assert_eq!(games[1].result, "1/2-1/2");
    }

    #[test]
    fn errors_name_the_line() {
        let error = read("[Event \"x\"]\n[Broken\n").expect_err("bad tag");
        assert!(error.starts_with("line 2:"), "{error}");
        let error = read("1. a1 {never closed\n").expect_err("open comment");
        assert!(error.contains("never closed"), "{error}");
        let error = read("1. a1 )\n").expect_err("stray paren");
        assert!(error.starts_with("line 1:"), "{error}");
    }
}
