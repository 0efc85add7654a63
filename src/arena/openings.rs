//! Openings: where each pair of games starts.
//!
//! An opening is a start (the game's start position or a FEN) plus moves played from
//! it. A file holds one opening a line, in any of these forms (blank lines and lines
//! starting with `#` are skipped):
//!
//! ```text
//! 1w1w1/2b2/5/2w2/1b1b1 b 0                 a FEN
//! fen 1w1w1/2b2/5/2w2/1b1b1 b moves b1b4    a FEN and moves from it
//! d1e2 d5e5                                 moves from the start position
//! startpos moves d1e2 d5e5                  the same
//! ```
//!
//! Every line is checked with our own rules when the file is read: a move that is not
//! legal, or an opening whose game is already over, is an error naming the line.
//!
//! A file of game records ([`super::pgn`]; told apart by its first line, a `[Tag
//! "value"]` or a move number `1.`) is read game by game ([`parse_pgn`]): the start is
//! the `FEN` tag (the start position without one), the opening its moves marked
//! `{book}` when any is (what `match --pgn` writes, as cutechess-cli and fastchess do),
//! else all its moves. A record of another game (its `Game` tag) is an error.
//! Random openings play `plies` uniformly random legal moves from the start with a
//! generator seeded by the seed and the opening's number, so they repeat exactly.

use crate::game::{Game, Record};

/// Where a game starts, checked against the rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The FEN the record starts from, or `None` for the start position.
    pub fen: Option<String>,
    /// Moves played from there, in canonical notation.
    pub moves: Vec<String>,
}

impl Opening {
    pub fn startpos() -> Opening {
        Opening {
            fen: None,
            moves: Vec::new(),
        }
    }

    /// The `position …` command for this opening followed by `later` moves.
    pub fn position_command(&self, later: &[String]) -> String {
        let mut text = match &self.fen {
            Some(fen) => format!("position fen {fen}"),
            None => "position startpos".to_string(),
        };
        if !self.moves.is_empty() || !later.is_empty() {
            text.push_str(" moves");
            for mv in self.moves.iter().chain(later) {
                text.push(' ');
                text.push_str(mv);
            }
        }
        text
    }

    /// A one-line description for logs and the JSON output.
    pub fn describe(&self) -> String {
        let start = match &self.fen {
            Some(fen) => format!("fen {fen}"),
            None => "startpos".to_string(),
        };
        if self.moves.is_empty() {
            start
        } else {
            format!("{start} moves {}", self.moves.join(" "))
        }
    }

    /// The record after the opening (its moves known to be legal).
    pub fn record<G: Game>(&self, config: &G::Config) -> Result<Record<G>, String> {
        let state = match &self.fen {
            Some(fen) => G::from_fen(config, fen).map_err(|e| e.to_string())?,
            None => G::start(config),
        };
        let mut record = Record::new(state);
        for mv in &self.moves {
            record.play_text(mv).map_err(|e| e.to_string())?;
        }
        Ok(record)
    }
}

/// Reads one opening line; `Ok(None)` for a blank or comment line.
pub fn parse_line<G: Game>(config: &G::Config, line: &str) -> Result<Option<Opening>, String> {
    let line = line.trim();
    if line.is_empty() || line.starts_with('#') {
        return Ok(None);
    }
    let words: Vec<&str> = line.split_whitespace().collect();
    let (fen_words, move_words): (&[&str], &[&str]) = match words.as_slice() {
        ["startpos", rest @ ..] => match rest {
            [] => (&[], &[]),
            ["moves", moves @ ..] => (&[], moves),
            _ => return Err("expected 'moves' after 'startpos'".to_string()),
        },
        ["fen", rest @ ..] => match rest.iter().position(|w| *w == "moves") {
            Some(at) => (&rest[..at], &rest[at + 1..]),
            None => (rest, &[]),
        },
        _ => {
            // A bare FEN, or bare moves from the start position.
            if G::from_fen(config, line).is_ok() {
                (&words[..], &[])
            } else {
                let moves_from_start = words.as_slice();
                let opening = Opening {
                    fen: None,
                    moves: Vec::new(),
                };
                return finish::<G>(config, opening, moves_from_start).map(Some);
            }
        }
    };
    let fen = if fen_words.is_empty() {
        None
    } else {
        let text = fen_words.join(" ");
        // Normalise through our own reader, so engines see the canonical text.
        let state = G::from_fen(config, &text).map_err(|e| e.to_string())?;
        Some(state.fen())
    };
    finish::<G>(
        config,
        Opening {
            fen,
            moves: Vec::new(),
        },
        move_words,
    )
    .map(Some)
}

/// Plays `moves` on top of `opening`, canonicalising them, and checks the game goes on.
fn finish<G: Game>(
    config: &G::Config,
    mut opening: Opening,
    moves: &[&str],
) -> Result<Opening, String> {
    let mut record = opening.record::<G>(config)?;
    for text in moves {
        let before = record.state().clone();
        let mv = record.play_text(text).map_err(|e| e.to_string())?;
        opening.moves.push(before.format_move(mv));
    }
    if let Some(outcome) = record.outcome() {
        return Err(format!(
            "the game is already over ({outcome}) after this opening"
        ));
    }
    Ok(opening)
}

/// Reads an openings file's text: every opening, or the first error with its line
/// (game records are read by [`parse_pgn`]).
pub fn parse_file<G: Game>(config: &G::Config, text: &str) -> Result<Vec<Opening>, String> {
    if looks_like_pgn(text) {
        return parse_pgn::<G>(config, text);
    }
    let mut openings = Vec::new();
    for (index, line) in text.lines().enumerate() {
        match parse_line::<G>(config, line) {
            Ok(Some(opening)) => openings.push(opening),
            Ok(None) => {}
            Err(why) => return Err(format!("line {}: {why}: '{}'", index + 1, line.trim())),
        }
    }
    if openings.is_empty() {
        return Err("no openings in the file".to_string());
    }
    Ok(openings)
}

/// Whether the first line that is not blank or a `#` comment begins a game record: a
/// tag (`[Event "…"]`) or a move number (`1.`, `1...`, `1.d1e2`). No line of the other
/// form starts so (a FEN starts with its board, moves with a square or a column).
pub fn looks_like_pgn(text: &str) -> bool {
    let Some(first) = text
        .lines()
        .map(str::trim)
        .find(|line| !line.is_empty() && !line.starts_with('#'))
    else {
        return false;
    };
    if first.starts_with('[') || first.starts_with('{') {
        return true;
    }
    let digits = first.trim_start_matches(|c: char| c.is_ascii_digit());
    digits.len() < first.len() && digits.starts_with('.')
}

/// The openings of game records ([`super::pgn::read`]): for each game, its `FEN` tag
/// (unless `SetUp` is `0`) or the start position, then its moves marked `{book}` if
/// any move is, else all its moves. Errors name the record (its number, and its
/// `Round` when it has one): a record of another game (`Game` tag), a bad FEN, an
/// illegal move, or an opening after which the game is over.
pub fn parse_pgn<G: Game>(config: &G::Config, text: &str) -> Result<Vec<Opening>, String> {
    let games = super::pgn::read(text)?;
    let mut openings = Vec::new();
    for (index, game) in games.iter().enumerate() {
        let name = match game.tag("Round") {
            Some(round) => format!("game record {} (Round {round})", index + 1),
            None => format!("game record {}", index + 1),
        };
        let opening = pgn_opening::<G>(config, game).map_err(|why| format!("{name}: {why}"))?;
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err("no game records in the file".to_string());
    }
    Ok(openings)
}

fn pgn_opening<G: Game>(config: &G::Config, game: &super::pgn::PgnGame) -> Result<Opening, String> {
    if let Some(name) = game.tag("Game")
        && !name.trim().eq_ignore_ascii_case(G::NAME)
    {
        return Err(format!(
            "it is a record of the game '{}', not {}",
            name.trim(),
            G::NAME
        ));
    }
    let fen = match game.tag("FEN") {
        Some(fen) if game.tag("SetUp").is_none_or(|s| s.trim() != "0") => {
            let state = G::from_fen(config, fen.trim()).map_err(|e| format!("FEN: {e}"))?;
            Some(state.fen())
        }
        _ => None,
    };
    let book = game.moves.iter().any(|mv| mv.is_book());
    let moves: Vec<&str> = game
        .moves
        .iter()
        .take_while(|mv| !book || mv.is_book())
        .map(|mv| mv.text.as_str())
        .collect();
    let opening = Opening {
        fen,
        moves: Vec::new(),
    };
    finish::<G>(config, opening, &moves)
}

/// The openings' generator: its output is fixed forever (unlike a library's default
/// generator), so seeds keep giving the same openings.
pub use crate::hash::SplitMix64;

/// Opening number `index` of `plies` random moves under `seed`. Tries again (with the
/// generator going on) when the game ends within the opening; after many failures it
/// returns the longest prefix that leaves the game going.
pub fn random<G: Game>(config: &G::Config, plies: u32, seed: u64, index: u64) -> Opening {
    let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0xD1B5_4A32_D192_ED03));
    let mut best = Opening::startpos();
    for _attempt in 0..100 {
        let mut record = Record::new(G::start(config));
        let mut moves = Vec::new();
        for _ in 0..plies {
            let legal = record.legal_moves();
            if legal.is_empty() {
                break;
            }
            let mv = legal[rng.below(legal.len())];
            let text = record.state().format_move(mv);
            record.play(mv);
            if record.outcome().is_some() {
                break;
            }
            moves.push(text);
        }
        if moves.len() as u32 == plies {
            return Opening { fen: None, moves };
        }
        if moves.len() > best.moves.len() {
            best = Opening { fen: None, moves };
        }
    }
    best
}

#[cfg(test)]
// Neutreeko's config is `()`; the tests keep the shape every game needs.
#[allow(clippy::let_unit_value)]
mod tests {
    use super::*;
    use crate::game::default_config;
    use crate::games::neutreeko::Neutreeko;

    fn config() -> <Neutreeko as Game>::Config {
        default_config::<Neutreeko>()
    }

    #[test]
    fn lines_of_every_form() {
        let c = config();
        let fen = parse_line::<Neutreeko>(&c, "1w1w1/2b2/5/2w2/1b1b1 b")
            .unwrap()
            .unwrap();
        assert_eq!(fen.fen.as_deref(), Some("1w1w1/2b2/5/2w2/1b1b1 b 0"));
        assert!(fen.moves.is_empty());
        let moves = parse_line::<Neutreeko>(&c, "d1e2 d5e5").unwrap().unwrap();
        assert_eq!(moves.fen, None);
        assert_eq!(moves.moves, vec!["d1e2", "d5e5"]);
        let same = parse_line::<Neutreeko>(&c, "startpos moves d1e2 d5e5")
            .unwrap()
            .unwrap();
        assert_eq!(same.moves, moves.moves);
        let both = parse_line::<Neutreeko>(&c, "fen 1w1w1/2b2/5/2w2/1b1b1 b 0 moves b1a2")
            .unwrap()
            .unwrap();
        assert_eq!(
            both.position_command(&["b5b4".to_string()]),
            "position fen 1w1w1/2b2/5/2w2/1b1b1 b 0 moves b1a2 b5b4"
        );
        assert_eq!(parse_line::<Neutreeko>(&c, "  # comment").unwrap(), None);
        assert_eq!(parse_line::<Neutreeko>(&c, "").unwrap(), None);
    }

    #[test]
    fn bad_lines_are_errors_with_their_line_number() {
        let c = config();
        assert!(parse_line::<Neutreeko>(&c, "b1a2 b1a2").is_err());
        assert!(parse_line::<Neutreeko>(&c, "hello").is_err());
        assert!(parse_line::<Neutreeko>(&c, "startpos b1a2").is_err());
        let error = parse_file::<Neutreeko>(&c, "b1a2\n\nzz9\n").unwrap_err();
        assert!(error.starts_with("line 3:"), "{error}");
        assert!(parse_file::<Neutreeko>(&c, "# nothing\n").is_err());
        // A position that is already won is no opening.
        assert!(parse_line::<Neutreeko>(&c, "5/5/5/bbbww/4w w").is_err());
    }

    #[test]
    fn random_openings_repeat_and_differ() {
        let c = config();
        let a = random::<Neutreeko>(&c, 4, 7, 0);
        let b = random::<Neutreeko>(&c, 4, 7, 0);
        let other = random::<Neutreeko>(&c, 4, 7, 1);
        assert_eq!(a.moves, b.moves);
        assert_eq!(a.moves.len(), 4);
        assert_ne!(a.moves, other.moves);
        assert!(a.record::<Neutreeko>(&c).unwrap().outcome().is_none());
    }

    fn record(tags: &[(&str, &str)], moves: &[(&str, bool)], result: &str) -> String {
        use crate::arena::pgn::{PgnGame, PgnMove};
        let mut game = PgnGame::default();
        for (name, value) in tags {
            game.set_tag(name, *value);
        }
        game.moves = moves
            .iter()
            .enumerate()
            .map(|(i, (text, book))| PgnMove {
                player: (i % 2) as u8,
                text: text.to_string(),
                comment: book.then(|| "book".to_string()),
            })
            .collect();
        game.result = result.to_string();
        game.to_text()
    }

    #[test]
    fn game_records_are_openings() {
        let c = config();
        // A finished game whose opening is marked, from a FEN; and one without marks.
        let text = record(
            &[
                ("Event", "tabuleiro match"),
                ("Round", "1"),
                ("Game", "neutreeko"),
                ("FEN", "1w1w1/2b2/5/2w2/1b1b1 b 0"),
                ("SetUp", "1"),
            ],
            &[("b1a2", true), ("d5e5", true), ("d1e2", false)],
            "1-0",
        ) + &record(&[], &[("d1e2", false), ("d5e5", false)], "*");
        assert!(looks_like_pgn(&text));
        let openings = parse_file::<Neutreeko>(&c, &text).unwrap();
        assert_eq!(openings.len(), 2);
        assert_eq!(
            openings[0].fen.as_deref(),
            Some("1w1w1/2b2/5/2w2/1b1b1 b 0")
        );
        assert_eq!(openings[0].moves, ["b1a2", "d5e5"]);
        assert_eq!(
            openings[1],
            parse_line::<Neutreeko>(&c, "d1e2 d5e5").unwrap().unwrap()
        );
        // Move numbers alone also say PGN; bare moves and FENs do not.
        assert!(looks_like_pgn("# x\n\n1. d1e2 d5e5 *\n"));
        assert!(!looks_like_pgn("d1e2 d5e5\n"));
        assert!(!looks_like_pgn("1w1w1/2b2/5/2w2/1b1b1 b 0\n"));
    }

    #[test]
    fn bad_game_records_are_errors_naming_the_record() {
        let c = config();
        let other = record(&[("Round", "7"), ("Game", "talpa")], &[("c3", false)], "*");
        let text = record(&[], &[("d1e2", false)], "*") + &other;
        let error = parse_file::<Neutreeko>(&c, &text).unwrap_err();
        assert!(error.starts_with("game record 2 (Round 7):"), "{error}");
        assert!(error.contains("'talpa'"), "{error}");
        let illegal = record(&[], &[("d1e2", false), ("d1e2", false)], "*");
        let error = parse_file::<Neutreeko>(&c, &illegal).unwrap_err();
        assert!(error.starts_with("game record 1:"), "{error}");
        let bad_fen = record(&[("FEN", "9/9 b 0")], &[], "*");
        assert!(
            parse_file::<Neutreeko>(&c, &bad_fen)
                .unwrap_err()
                .contains("FEN")
        );
        // Tags alone: the start position.
        assert!(parse_file::<Neutreeko>(&c, "[Event \"x\"]\n").is_ok_and(|o| o.len() == 1));
    }
}
