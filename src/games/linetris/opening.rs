//! The opening table of 6 × 7 with the row clear: for the positions of the first plies
//! (one per mirror pair), the move a long search of the engine chose. The engine's
//! first moves decide games it loses much later (docs/experiments/linetris.md, "Tenth
//! pass"), and a move of a 1 s + 10 ms game gets a few tens of milliseconds; the table
//! gives those moves seconds of search. It is no proof: the oracle plays from it only on
//! the clock, at full strength, with `Tablebase` on, and never in place of a solver.
//!
//! Made by `examples/linetris_opening.rs`, built in from `data/linetris/`, in the text
//! format of every book ([`crate::book`]):
//!
//! ```text
//! linetris-opening rows 6 cols 7 plies 3 movetime 3000 count N fnv1a64 H
//! 1a0 4
//! ```
//!
//! An entry is a position's key (`own + mask` in the layout of [`super::bits`], the
//! smaller of the position's and its mirror image's, as [`super::book`]) and the column
//! (1-based) to play in that orientation. A table that fails its checks (header,
//! checksum, keys, columns) is ignored with a warning, never trusted.
//!
//! Beside it, the moves learned from lost games ([`learned`], `data/linetris/
//! learned-6x7.book`, made by `examples/linetris_learn.rs`): positions of any ply where
//! a game was lost by a move that a proof shows lost, while another move is not shown
//! lost. The engine's search cannot tell them apart at any time a game gives (the
//! losses lie 25 plies and more beyond the position), so the move is looked up:
//!
//! ```text
//! linetris-learned rows 6 cols 7 movetime 120000 count N fnv1a64 H
//! 1a0 2
//! ```
//!
//! `movetime` is the time each move's proof was given. Keys and columns as above; a
//! learned move is played only where it is legal.

use std::sync::OnceLock;

use super::book::pieces_of_key;
use super::{Linetris, Move};
use crate::book::BookText;
use crate::game::Game;

/// The first word of a table.
pub const MAGIC: &str = "linetris-opening";

/// The header's fields, in order.
const FIELDS: [&str; 4] = ["rows", "cols", "plies", "movetime"];

/// The board the table is for.
const ROWS: u32 = 6;
const COLS: u32 = 7;

/// The built-in table.
const EMBEDDED: &str = include_str!("../../../data/linetris/opening-6x7.book");

/// The plies of a table of learned moves: positions of any ply.
pub const ANY_PLY: u32 = u32::MAX;

/// The first word of a table of learned moves.
pub const LEARNED_MAGIC: &str = "linetris-learned";

/// The learned table's header fields, in order.
const LEARNED_FIELDS: [&str; 3] = ["rows", "cols", "movetime"];

/// The built-in learned moves.
const LEARNED: &str = include_str!("../../../data/linetris/learned-6x7.book");

/// A checked table: canonical keys, strictly increasing, with the column (0-based) to
/// play in the canonical orientation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// The most plies of its positions: all of them up to this many for the opening
    /// table, [`ANY_PLY`] for learned moves.
    pub plies: u32,
    entries: Vec<(u128, u8)>,
}

/// The key of `state` (`own + mask`, own for the side to move).
fn key(state: &Linetris) -> u128 {
    let own = state.pieces(state.side_to_move());
    own + state.occupied()
}

/// The key of `state` or of its mirror image, whichever is smaller (as the Connect Four
/// book keys its positions).
pub fn canonical_key(state: &Linetris) -> u128 {
    super::book::canonical_key(
        state.geometry(),
        state.pieces(state.side_to_move()),
        state.occupied(),
    )
}

/// `mv` in `state` as the canonical orientation sees it, or the canonical
/// orientation's move as `state` sees it (mirroring is its own inverse).
pub fn orient(state: &Linetris, mv: Move) -> Move {
    let key = key(state);
    if state.geometry().mirror(key) < key {
        Move((state.cols() - 1) as u8 - mv.0)
    } else {
        mv
    }
}

/// The text of a table with `entries` (canonical key, 1-based column), any order.
pub fn text(plies: u32, movetime: u64, entries: &[(u128, i64)]) -> String {
    let fields = [("plies", u64::from(plies)), ("movetime", movetime)];
    write_text(MAGIC, &fields, entries)
}

/// The text of a table of kind `magic` for this board, the header's `fields` after
/// the board's; entries sorted, one a key.
fn write_text(magic: &str, fields: &[(&str, u64)], entries: &[(u128, i64)]) -> String {
    let mut entries = entries.to_vec();
    entries.sort_unstable();
    entries.dedup_by_key(|e| e.0);
    let fields: Vec<(String, String)> = [("rows", u64::from(ROWS)), ("cols", u64::from(COLS))]
        .iter()
        .chain(fields)
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    crate::book::write(magic, &fields, &entries)
}

/// Reads a table of kind `magic` with the header `fields` and checks that it is for
/// this board.
fn read_text(text: &str, magic: &str, fields: &[&str]) -> Result<BookText, String> {
    let book = BookText::parse(text, magic, fields)?;
    if number(&book, "rows")? != u64::from(ROWS) || number(&book, "cols")? != u64::from(COLS) {
        return Err(format!("header: not a {ROWS}x{COLS} table"));
    }
    Ok(book)
}

/// The number of the header field `name`.
fn number(book: &BookText, name: &str) -> Result<u64, String> {
    book.field(name)
        .unwrap_or_default()
        .parse::<u64>()
        .map_err(|e| format!("header: {name}: {e}"))
}

/// The `movetime` of a table's header (either kind), if it has one.
pub fn movetime_of(text: &str) -> Option<u64> {
    text.lines()
        .next()?
        .split_whitespace()
        .skip_while(|w| *w != "movetime")
        .nth(1)?
        .parse()
        .ok()
}

impl Table {
    /// Parses and checks a table; the error says what is wrong.
    pub fn parse(text: &str) -> Result<Table, String> {
        let book = read_text(text, MAGIC, &FIELDS)?;
        let plies = number(&book, "plies")?;
        if plies >= u64::from(ROWS) {
            return Err(format!("header: plies {plies}: a column could be full"));
        }
        let plies = plies as u32;
        let entries = checked_entries(&book, Some(plies))?;
        Ok(Table { plies, entries })
    }

    /// Parses and checks a table of learned moves; the error says what is wrong.
    pub fn parse_learned(text: &str) -> Result<Table, String> {
        let book = read_text(text, LEARNED_MAGIC, &LEARNED_FIELDS)?;
        number(&book, "movetime")?;
        Ok(Table {
            plies: ANY_PLY,
            entries: checked_entries(&book, None)?,
        })
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries as the text holds them: canonical key, 1-based column.
    pub fn entries(&self) -> impl Iterator<Item = (u128, i64)> + '_ {
        self.entries
            .iter()
            .map(|&(key, col)| (key, i64::from(col) + 1))
    }

    /// The table's move in `state`, if `state` is a position of the table's board and
    /// rules and the table has it.
    pub fn get(&self, state: &Linetris) -> Option<Move> {
        if !on_board(state) || state.plies > self.plies {
            return None;
        }
        let mv = lookup(&self.entries, state)?;
        if self.plies < ROWS {
            // Every column holds at most `plies` < `ROWS` pieces: the move is legal.
            return Some(mv);
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        moves.contains(&mv).then_some(mv)
    }
}

/// The entries of `book` as (canonical key, 0-based column), each checked: a key of
/// the board (of at most `plies` pieces when given), canonical, and a column.
fn checked_entries(book: &BookText, plies: Option<u32>) -> Result<Vec<(u128, u8)>, String> {
    let geo = super::bits::Geometry::<u128>::new(ROWS, COLS);
    let mut entries = Vec::with_capacity(book.entries.len());
    for (n, &(key, col)) in book.entries.iter().enumerate() {
        let bad = |why: &str| format!("entry {}: {why}: `{key:x} {col}`", n + 1);
        let pieces = pieces_of_key(&geo, key);
        if pieces.is_none_or(|pieces| plies.is_some_and(|plies| pieces > plies)) {
            return Err(bad("no key of this board and plies"));
        }
        if geo.mirror(key) < key {
            return Err(bad("key not canonical"));
        }
        if !(1..=i64::from(COLS)).contains(&col) {
            return Err(bad("no column"));
        }
        entries.push((key, (col - 1) as u8));
    }
    Ok(entries)
}

/// Whether `state` is a position of the tables' board and rules, not over.
fn on_board(state: &Linetris) -> bool {
    state.rules().row_clear
        && state.rows() == ROWS
        && state.cols() == COLS
        && state.outcome().is_none()
}

/// The move of `entries` (sorted canonical keys) in `state`, in `state`'s orientation.
fn lookup(entries: &[(u128, u8)], state: &Linetris) -> Option<Move> {
    let canonical = canonical_key(state);
    let at = entries.binary_search_by_key(&canonical, |&(k, _)| k).ok()?;
    Some(orient(state, Move(entries[at].1)))
}

/// The text of a learned table with `entries` (canonical key, 1-based column), any
/// order; `movetime` the time each proof was given.
pub fn learned_text(movetime: u64, entries: &[(u128, i64)]) -> String {
    write_text(LEARNED_MAGIC, &[("movetime", movetime)], entries)
}

/// The built-in learned moves, parsed and checked once; `None` (with a warning) when
/// they fail.
pub fn learned() -> Option<&'static Table> {
    static TABLE: OnceLock<Option<Table>> = OnceLock::new();
    checked_once(&TABLE, "linetris learned moves", || {
        Table::parse_learned(LEARNED)
    })
}

/// The built-in table, parsed and checked once; `None` (with a warning) when it fails.
pub fn embedded() -> Option<&'static Table> {
    static TABLE: OnceLock<Option<Table>> = OnceLock::new();
    checked_once(&TABLE, "linetris opening table", || Table::parse(EMBEDDED))
}

/// The table in `cell`, parsed by `parse` the first time; a table that fails its checks
/// is warned of (as `what`) and never used.
fn checked_once(
    cell: &'static OnceLock<Option<Table>>,
    what: &str,
    parse: impl FnOnce() -> Result<Table, String>,
) -> Option<&'static Table> {
    cell.get_or_init(|| {
        parse()
            .map_err(|why| log::warn!("{what}: {why}; ignored"))
            .ok()
    })
    .as_ref()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::default_config;

    fn after(moves: &str) -> Linetris {
        let mut state = Linetris::start(&default_config::<Linetris>());
        for c in moves.chars() {
            let mv = state.legal_move(&c.to_string()).unwrap();
            state.play(mv);
        }
        state
    }

    #[test]
    fn the_built_in_table_is_sound_and_complete() {
        let table = embedded().expect("the built-in table passes its checks");
        assert_eq!(table.plies, 3);
        // Every position of up to 3 plies, one per mirror pair: 1 + 4 + 25 + 121.
        assert_eq!(table.len(), 151);
        for line in ["", "4", "31", "311", "541", "757", "534", "561"] {
            let state = after(line);
            let mv = table.get(&state).expect("in the table");
            // Mirror images get mirrored moves.
            let mirrored: String = line
                .chars()
                .map(|c| char::from(b'8' - (c as u8 - b'0')))
                .collect();
            let image = table.get(&after(&mirrored)).expect("in the table");
            assert_eq!(image.0, 6 - mv.0, "{line}");
        }
        assert_eq!(table.get(&after("1234")), None);
    }

    #[test]
    fn other_boards_and_rules_have_no_table_move() {
        let table = embedded().expect("the built-in table");
        let mut config = default_config::<Linetris>();
        config.row_clear = false;
        assert_eq!(table.get(&Linetris::start(&config)), None);
        let mut config = default_config::<Linetris>();
        config.rows = 5;
        config.cols = 5;
        assert_eq!(table.get(&Linetris::start(&config)), None);
    }

    #[test]
    fn a_damaged_table_is_refused() {
        let good = text(3, 10, &[(1_u128, 4)]);
        assert!(Table::parse(&good).is_ok());
        assert!(Table::parse(&good.replace(" 4\n", " 5\n")).is_err());
        assert!(Table::parse(&text(3, 10, &[(1_u128, 8)])).is_err());
        assert!(Table::parse(&text(9, 10, &[(1_u128, 4)])).is_err());
        // A key that is not the smaller of the mirror pair.
        let geo = super::super::bits::Geometry::<u128>::new(ROWS, COLS);
        let key = geo.cell(0, 0);
        let (small, large) = if geo.mirror(key) < key {
            (geo.mirror(key), key)
        } else {
            (key, geo.mirror(key))
        };
        assert!(Table::parse(&text(3, 10, &[(small, 1)])).is_ok());
        assert!(Table::parse(&text(3, 10, &[(large, 1)])).is_err());
    }

    #[test]
    fn a_learned_move_is_played_where_it_is_legal_and_nowhere_else() {
        // Column 1 full (`x o x o x o` from the bottom), `x` on 2, `o` to move.
        let full = after("1111112");
        let key = canonical_key(&full);
        let column = i64::from(orient(&full, Move(0)).0) + 1;
        let table = Table::parse_learned(&learned_text(10, &[(key, column)])).expect("a table");
        assert_eq!(table.get(&full), None, "column 1 is full");
        let free = i64::from(orient(&full, Move(1)).0) + 1;
        let table = Table::parse_learned(&learned_text(10, &[(key, free)])).expect("a table");
        assert_eq!(table.get(&full), Some(Move(1)));
        // Its mirror image gets the mirrored move.
        assert_eq!(table.get(&after("7777776")), Some(Move(5)));
        // Other positions, boards and rules: none.
        assert_eq!(table.get(&after("1111113")), None);
        let mut config = default_config::<Linetris>();
        config.row_clear = false;
        let mut state = Linetris::start(&config);
        for c in "1111112".chars() {
            let mv = state.legal_move(&c.to_string()).unwrap();
            state.play(mv);
        }
        assert_eq!(table.get(&state), None);
    }

    #[test]
    fn a_damaged_learned_table_is_refused() {
        let good = learned_text(10, &[(1_u128, 4)]);
        assert!(Table::parse_learned(&good).is_ok());
        assert!(Table::parse_learned(&good.replace(" 4\n", " 5\n")).is_err());
        assert!(Table::parse_learned(&learned_text(10, &[(1_u128, 8)])).is_err());
        assert!(Table::parse_learned(&learned_text(10, &[(1_u128, 0)])).is_err());
        // An opening table is no learned table, and the other way round.
        assert!(Table::parse_learned(&text(3, 10, &[(1_u128, 4)])).is_err());
        assert!(Table::parse(&good).is_err());
    }

    #[test]
    fn the_built_in_learned_moves_are_sound() {
        let table = learned().expect("the built-in learned moves pass their checks");
        assert!(!table.is_empty());
        // The line of docs/experiments/linetris.md, "Eighteenth pass": at ply 12 the
        // game's `5` was proven lost and `2` was not.
        assert_eq!(table.get(&after("45544454554")), Some(Move(1)));
    }
}
