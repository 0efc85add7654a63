//! Game books: the exact values of the positions `ply` plies from the start of one
//! game with one set of options, up to the board's symmetries, as `tabuleiro solve
//! --merge` writes them from the results of a proof split into jobs (docs/solved.md,
//! "Proofs split into jobs"). The format is the one of every book ([`crate::book`]):
//!
//! ```text
//! tabuleiro-book game talpa options Size=4 ply 2 count 3 fnv1a64 0123456789abcdef
//! 1c3e… 9
//! ```
//!
//! - The key of a position is the FNV-1a 128-bit hash of its canonical FEN: the least
//!   of its FENs under the game's symmetries ([`crate::game::symmetry::canonical_key`]),
//!   so every image of a position finds its entry, whatever the game's own encoding.
//! - The value, for the side to move: `+n` a win in `n` plies, `-n` a loss in `n`
//!   plies, `0` a draw (its plies are not kept). Positions where the game is over are
//!   not in books.
//! - `options` lists every option of the game as `Name=value`, comma-separated, in
//!   the game's order (`-` for a game without options).
//!
//! - `ply` is the ply count of its positions (their FENs' last field, which the key
//!   hashes): the plies from the start, also for a book split from a later root.
//!
//! A book is found as the Connect Four books are: built in from `data/books/` (listed
//! in [`EMBEDDED`], checked when first used, ignored with a warning when damaged), or
//! read from a file ([`GameBook::load`]). The exact-solving layer consults one
//! (`search::exact::Solver::set_book`, [`Consult`]) in both its searches: only at
//! positions of the book's ply, which the game counts cheaply from the position (the key, a canonical FEN's hash, costs some
//! microseconds), so a solve with a book gives the values of one without, in fewer
//! nodes.

use std::sync::{Arc, OnceLock};

use super::{BookText, fnv1a128};
use crate::game::{Game, Params, Value};

/// The first word of a game book.
pub const MAGIC: &str = "tabuleiro-book";

/// The header's fields, in order.
const FIELDS: [&str; 3] = ["game", "options", "ply"];

/// The books built into the binary: their text (each names its game and options).
/// Frozen Forest Trees 4 at ply 2 (10 positions, 459 bytes): `go solve` from the start
/// of Trees 4 or after Yuki's placement takes the solver a hundred nodes with it,
/// 2.5 million and 0.4 million without (docs/solved.md, "Books from split proofs").
pub const EMBEDDED: &[&str] = &[include_str!("../../data/books/frozenforest-trees4.book")];

/// The exact values of the positions of one ply of one game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameBook {
    pub game: String,
    pub options: String,
    pub ply: u32,
    /// Keys strictly increasing, with encoded values (see the module doc).
    entries: Vec<(u128, i64)>,
}

/// A value as a book writes it; `None` for a game already over (a win or loss in 0).
pub fn encode(value: Value) -> Option<i64> {
    match value {
        Value::Win(n) if n > 0 => Some(i64::from(n)),
        Value::Loss(n) if n > 0 => Some(-i64::from(n)),
        Value::Draw(_) => Some(0),
        _ => None,
    }
}

/// The value a book's number stands for.
pub fn decode(number: i64) -> Option<Value> {
    let plies = u32::try_from(number.unsigned_abs()).ok()?;
    Some(match number.signum() {
        1 => Value::Win(plies),
        -1 => Value::Loss(plies),
        _ => Value::Draw(0),
    })
}

/// The key of a position in a book: the hash of its canonical FEN.
pub fn key_of<G: Game>(state: &G) -> u128 {
    fnv1a128(crate::game::symmetry::canonical_key(state).as_bytes())
}

impl GameBook {
    /// A book from (key, value) pairs in any order; an error for a value a book cannot
    /// hold or two values for one key.
    pub fn new(
        game: &str,
        options: &str,
        ply: u32,
        entries: impl IntoIterator<Item = (u128, Value)>,
    ) -> Result<GameBook, String> {
        let mut encoded = Vec::new();
        for (key, value) in entries {
            let number = encode(value)
                .ok_or_else(|| format!("{key:x}: {value:?} is a game already over"))?;
            encoded.push((key, number));
        }
        encoded.sort_unstable();
        encoded.dedup();
        if let Some(pair) = encoded.windows(2).find(|w| w[0].0 == w[1].0) {
            return Err(format!("{:x}: two values", pair[0].0));
        }
        Ok(GameBook {
            game: game.to_string(),
            options: options.to_string(),
            ply,
            entries: encoded,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The value of the position with this key, if the book has it.
    pub fn get(&self, key: u128) -> Option<Value> {
        self.entries
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .and_then(|i| decode(self.entries[i].1))
    }

    /// The value of `state` (any image of it under the game's symmetries), if the book
    /// has it. The caller makes sure the book is of `state`'s game and options.
    pub fn value_of<G: Game>(&self, state: &G) -> Option<Value> {
        self.get(key_of(state))
    }

    /// The book as text (see the module doc).
    pub fn to_text(&self) -> String {
        let fields: Vec<(String, String)> = FIELDS
            .iter()
            .zip([
                self.game.clone(),
                self.options.clone(),
                self.ply.to_string(),
            ])
            .map(|(name, value)| (name.to_string(), value))
            .collect();
        super::write(MAGIC, &fields, &self.entries)
    }

    /// Reads and checks a book (the format's checks, a known game, a number for the
    /// ply and values a book can hold).
    pub fn parse(text: &str) -> Result<GameBook, String> {
        let book = BookText::parse(text, MAGIC, &FIELDS)?;
        let game = book.field("game").unwrap_or_default();
        let game = crate::games::canonical(game).ok_or(format!("header: no game {game}"))?;
        let options = book.field("options").unwrap_or_default().to_string();
        let ply: u32 = book
            .field("ply")
            .unwrap_or_default()
            .parse()
            .map_err(|e| format!("header: ply: {e}"))?;
        if let Some(&(key, number)) = book.entries.iter().find(|e| decode(e.1).is_none()) {
            return Err(format!("entry {key:x}: no value {number}"));
        }
        Ok(GameBook {
            game: game.to_string(),
            options,
            ply,
            entries: book.entries,
        })
    }

    /// Whether this is a book of `game` with `options` (as a header writes them); an
    /// error naming both when not.
    pub fn check_for(&self, game: &str, options: &str) -> Result<(), String> {
        if self.game == game && self.options == options {
            Ok(())
        } else {
            Err(format!(
                "the book is for {} {}, not {game} {options}",
                self.game, self.options
            ))
        }
    }

    /// Reads and checks the book in the file at `path`.
    pub fn load(path: &std::path::Path) -> Result<GameBook, String> {
        let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
        GameBook::parse(&text).map_err(|why| format!("{}: {why}", path.display()))
    }
}

/// The canonical text of a game's options as a book's header (and a job list's) writes
/// them: every option `Name=value` in the game's order, comma-separated (`-` for none).
pub fn options_text(params: &Params) -> String {
    let text: Vec<String> = params
        .iter()
        .map(|(spec, value)| format!("{}={value}", spec.name))
        .collect();
    if text.is_empty() {
        "-".to_string()
    } else {
        text.join(",")
    }
}

/// A book as an exact solver consults it: the book, looked up only at its ply (the
/// solver's game counts the plies of a position and builds the state to key), with
/// the lookups that found a value and those that did not.
#[derive(Clone, Debug)]
pub struct Consult {
    book: Arc<GameBook>,
    pub hits: u64,
    pub misses: u64,
}

impl Consult {
    pub fn new(book: Arc<GameBook>) -> Consult {
        Consult {
            book,
            hits: 0,
            misses: 0,
        }
    }

    /// The ply of the book's positions: the only one worth a lookup.
    pub fn ply(&self) -> u32 {
        self.book.ply
    }

    pub fn book(&self) -> &GameBook {
        &self.book
    }

    /// The book's value of `state` (which has the book's ply), counted.
    pub fn value_of<G: Game>(&mut self, state: &G) -> Option<Value> {
        let value = self.book.value_of(state);
        if value.is_some() {
            self.hits += 1;
        } else {
            self.misses += 1;
        }
        value
    }
}

/// The built-in book of a game with these options (as a book's header writes them),
/// parsed and checked once; `None` when there is none or it is damaged (with a warning
/// the first time).
pub fn embedded(game: &str, options: &str) -> Option<Arc<GameBook>> {
    static BOOKS: OnceLock<Vec<Arc<GameBook>>> = OnceLock::new();
    let books = BOOKS.get_or_init(|| {
        EMBEDDED
            .iter()
            .filter_map(|text| match GameBook::parse(text) {
                Ok(book) => Some(Arc::new(book)),
                Err(why) => {
                    let header = text.lines().next().unwrap_or_default();
                    log::warn!("book `{header}`: {why}; ignored");
                    None
                }
            })
            .collect()
    });
    books
        .iter()
        .find(|b| b.game == game && b.options == options)
        .cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_survive_their_encoding() {
        for value in [
            Value::Win(1),
            Value::Win(37),
            Value::Loss(2),
            Value::Draw(0),
        ] {
            assert_eq!(encode(value).and_then(decode), Some(value));
        }
        assert_eq!(encode(Value::Draw(12)), Some(0));
        assert_eq!(encode(Value::Win(0)), None);
        assert_eq!(encode(Value::Loss(0)), None);
        assert_eq!(decode(i64::MIN), None);
    }

    #[test]
    fn a_book_reads_back_and_refuses_nonsense() {
        let book = GameBook::new(
            "talpa",
            "Size=4",
            2,
            [(7, Value::Win(9)), (3, Value::Loss(4))],
        )
        .expect("a book");
        let text = book.to_text();
        assert!(text.starts_with("tabuleiro-book game talpa options Size=4 ply 2 count 2 "));
        let read = GameBook::parse(&text).expect("reads back");
        assert_eq!(read, book);
        assert_eq!(read.get(3), Some(Value::Loss(4)));
        assert_eq!(read.get(4), None);
        assert!(GameBook::parse(&text.replace("talpa", "chess")).is_err());
        assert!(GameBook::new("talpa", "-", 1, [(1, Value::Win(0))]).is_err());
        assert!(GameBook::new("talpa", "-", 1, [(1, Value::Win(3)), (1, Value::Win(5))]).is_err());
    }

    #[test]
    fn every_built_in_book_loads() {
        for text in EMBEDDED {
            let book = GameBook::parse(text).expect("a built-in book");
            assert!(embedded(&book.game, &book.options).is_some());
            assert!(!book.is_empty());
        }
    }
}
