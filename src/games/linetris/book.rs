//! An opening book for the Connect Four solver ([`super::solver`]): the exact score of
//! every position, up to mirror image, `ply` plies from the empty board (games already
//! won before that ply have no entry). The solver returns a book score when its search
//! reaches that ply, so `go solve` near the start costs a few thousand nodes instead of
//! up to a billion (6 × 7: a minute without the book).
//!
//! The books are made by our own solver (`examples/connect_four_book.rs`; see
//! docs/solved.md) and built into the binary from `data/connect-four/`. A book is
//! checked when it is parsed (header, size, ply, count, order, keys, scores and an
//! FNV-1a checksum); one that fails is ignored with a warning, never trusted.
//!
//! Format (text, one entry a line after the header):
//!
//! ```text
//! connect-four-book rows 6 cols 7 ply 4 count 560 fnv1a64 0123456789abcdef
//! 1a0 -1
//! ```
//!
//! An entry is the position's key in hex (`own + mask` in the column-major layout of
//! [`super::bits`], the smaller of the position's and its mirror image's) and the
//! exact score for the side to move, as [`super::solver`] defines it. The checksum is
//! over the entry lines, newlines included.

use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};

use super::bits::{Bits, Geometry};
use super::solver::Solver;

/// The first word of a book.
pub const MAGIC: &str = "connect-four-book";

/// The books built into the binary: rows, cols, text.
const EMBEDDED: &[(u32, u32, &str)] = &[
    (4, 8, include_str!("../../../data/connect-four/4x8.book")),
    (5, 7, include_str!("../../../data/connect-four/5x7.book")),
    (5, 8, include_str!("../../../data/connect-four/5x8.book")),
    (6, 6, include_str!("../../../data/connect-four/6x6.book")),
    (6, 7, include_str!("../../../data/connect-four/6x7.book")),
    (7, 5, include_str!("../../../data/connect-four/7x5.book")),
    (7, 6, include_str!("../../../data/connect-four/7x6.book")),
];

/// The boards with a built-in book (rows, cols).
pub fn built_in() -> impl Iterator<Item = (u32, u32)> {
    EMBEDDED.iter().map(|&(rows, cols, _)| (rows, cols))
}

/// The exact scores of the positions `ply` plies from the start of one board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub rows: u32,
    pub cols: u32,
    pub ply: u32,
    /// Canonical keys, strictly increasing, with their scores.
    entries: Vec<(u128, i8)>,
}

/// FNV-1a, 64 bits.
fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// The key of a position (`own + mask`) or of its mirror image, whichever is smaller.
pub fn canonical_key<B: Bits>(geo: &Geometry<B>, own: B, mask: B) -> B {
    let key = own.plus(mask);
    key.min(geo.mirror(key))
}

/// The number of pieces a key stands for, or `None` if it is no key of this board.
/// In a column of `n` pieces (`mask` = 2^n - 1 there), `own + mask` lies in
/// 2^n - 1 ..= 2^(n+1) - 2, so `n` is the highest bit of `own + mask + 1`.
fn pieces_of_key(geo: &Geometry<u128>, key: u128) -> Option<u32> {
    let width = geo.rows + 1;
    if key >> (geo.cols * width) != 0 {
        return None;
    }
    let field = (1u128 << width) - 1;
    let pieces = (0..geo.cols)
        .map(|col| 127 - (((key >> (col * width)) & field) + 1).leading_zeros())
        .sum();
    Some(pieces)
}

impl Book {
    /// A book from its entries (any order, canonical keys).
    pub fn new(
        rows: u32,
        cols: u32,
        ply: u32,
        entries: impl IntoIterator<Item = (u128, i8)>,
    ) -> Self {
        let map: BTreeMap<u128, i8> = entries.into_iter().collect();
        Book {
            rows,
            cols,
            ply,
            entries: map.into_iter().collect(),
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    pub fn entries(&self) -> &[(u128, i8)] {
        &self.entries
    }

    /// The empty cells of the positions in the book.
    pub fn empties(&self) -> u32 {
        self.rows * self.cols - self.ply
    }

    /// The score of the position with this canonical key, if the book has it.
    #[inline]
    pub fn get(&self, key: u128) -> Option<i32> {
        self.entries
            .binary_search_by_key(&key, |&(k, _)| k)
            .ok()
            .map(|i| i32::from(self.entries[i].1))
    }

    /// The book as text (see the module doc).
    pub fn to_text(&self) -> String {
        let body: String = self
            .entries
            .iter()
            .map(|(key, score)| format!("{key:x} {score}\n"))
            .collect();
        format!(
            "{MAGIC} rows {} cols {} ply {} count {} fnv1a64 {:016x}\n{body}",
            self.rows,
            self.cols,
            self.ply,
            self.entries.len(),
            fnv1a64(body.as_bytes())
        )
    }

    /// Parses and checks a book (see the module doc); the error says what is wrong.
    pub fn parse(text: &str) -> Result<Book, String> {
        let (header, body) = text.split_once('\n').ok_or("no header line")?;
        let words: Vec<&str> = header.split_whitespace().collect();
        let field = |name: &str, at: usize| -> Result<&str, String> {
            match (words.get(at), words.get(at + 1)) {
                (Some(&w), Some(&v)) if w == name => Ok(v),
                _ => Err(format!("header: expected `{name}` at word {}", at + 1)),
            }
        };
        if words.first() != Some(&MAGIC) || words.len() != 11 {
            return Err(format!(
                "header: expected `{MAGIC} rows R cols C ply P count N fnv1a64 H`"
            ));
        }
        let number = |name: &str, at: usize| -> Result<u32, String> {
            field(name, at)?
                .parse::<u32>()
                .map_err(|e| format!("header: {name}: {e}"))
        };
        let rows = number("rows", 1)?;
        let cols = number("cols", 3)?;
        let ply = number("ply", 5)?;
        let count = number("count", 7)?;
        let checksum = u64::from_str_radix(field("fnv1a64", 9)?, 16)
            .map_err(|e| format!("header: fnv1a64: {e}"))?;
        if !(super::MIN_SIZE..=super::MAX_SIZE).contains(&rows)
            || !(super::MIN_SIZE..=super::MAX_SIZE).contains(&cols)
        {
            return Err(format!("header: no {rows}x{cols} board"));
        }
        let cells = rows * cols;
        if ply >= cells {
            return Err(format!("header: ply {ply} on a board of {cells} cells"));
        }
        if fnv1a64(body.as_bytes()) != checksum {
            return Err("checksum mismatch".to_string());
        }
        let geo = Geometry::<u128>::new(rows, cols);
        let bound = (cells - ply).div_ceil(2) as i32;
        let mut entries = Vec::with_capacity(count as usize);
        for (n, line) in body.lines().enumerate() {
            let bad = |why: &str| format!("entry {}: {why}: `{line}`", n + 1);
            let (key, score) = line.split_once(' ').ok_or_else(|| bad("not `key score`"))?;
            let key = u128::from_str_radix(key, 16).map_err(|_| bad("key"))?;
            let score: i8 = score.parse().map_err(|_| bad("score"))?;
            if pieces_of_key(&geo, key) != Some(ply) {
                return Err(bad("no key of this board and ply"));
            }
            if geo.mirror(key) < key {
                return Err(bad("key not canonical"));
            }
            if i32::from(score).abs() > bound {
                return Err(bad("score out of range"));
            }
            if entries.last().is_some_and(|&(last, _)| last >= key) {
                return Err(bad("keys out of order"));
            }
            entries.push((key, score));
        }
        if entries.len() != count as usize {
            return Err(format!("count {count} but {} entries", entries.len()));
        }
        Ok(Book {
            rows,
            cols,
            ply,
            entries,
        })
    }
}

/// The built-in book of a board, parsed and checked once; `None` (with a warning the
/// first time) when its file is malformed or is for another board, and when there is
/// no book for the board.
pub fn embedded(rows: u32, cols: u32) -> Option<Arc<Book>> {
    /// Each built-in book's board and the book, if it passed its checks.
    type Loaded = (u32, u32, Option<Arc<Book>>);
    static BOOKS: OnceLock<Vec<Loaded>> = OnceLock::new();
    let books = BOOKS.get_or_init(|| {
        EMBEDDED
            .iter()
            .map(|&(r, c, text)| {
                let book = match Book::parse(text) {
                    Ok(book) if book.rows == r && book.cols == c => Some(Arc::new(book)),
                    Ok(book) => {
                        log::warn!(
                            "connect four book {r}x{c}: the file is for {}x{}; ignored",
                            book.rows,
                            book.cols
                        );
                        None
                    }
                    Err(why) => {
                        log::warn!("connect four book {r}x{c}: {why}; ignored");
                        None
                    }
                };
                (r, c, book)
            })
            .collect()
    });
    books
        .iter()
        .find(|&&(r, c, _)| r == rows && c == cols)
        .and_then(|(_, _, book)| book.clone())
}

/// A position of the book: its canonical key, the side to move's pieces, all pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookPosition {
    pub key: u128,
    pub own: u128,
    pub mask: u128,
}

/// Every position `ply` plies from the empty board where the game is not over, one per
/// mirror pair, in key order.
pub fn positions(rows: u32, cols: u32, ply: u32) -> Vec<BookPosition> {
    fn walk(
        geo: &Geometry<u128>,
        own: u128,
        mask: u128,
        left: u32,
        out: &mut BTreeMap<u128, BookPosition>,
    ) {
        if left == 0 {
            let key = canonical_key(geo, own, mask);
            out.entry(key).or_insert(BookPosition { key, own, mask });
            return;
        }
        for col in 0..geo.cols {
            let cell = geo.drop_cell(mask, col);
            if cell == 0 {
                continue;
            }
            let mover = own | cell;
            let next_mask = mask | cell;
            if geo.has_four(mover) || next_mask == geo.board {
                continue;
            }
            walk(geo, next_mask ^ mover, next_mask, left - 1, out);
        }
    }
    let geo = Geometry::<u128>::new(rows, cols);
    let mut out = BTreeMap::new();
    if ply < rows * cols {
        walk(&geo, 0, 0, ply, &mut out);
    }
    out.into_values().collect()
}

/// Solves `positions` one after another with one solver without a book (its table is
/// kept from one position to the next: its bounds hold whatever the root), calling
/// `each` with the position, its score and the nodes of its solve.
pub fn solve_positions<B: Bits>(
    rows: u32,
    cols: u32,
    positions: &[BookPosition],
    mut each: impl FnMut(&BookPosition, i32, u64),
) {
    let mut solver = Solver::<B>::without_book(rows, cols);
    let never = AtomicBool::new(false);
    for pos in positions {
        solver.reset_nodes();
        let p = solver.position(B::from_u128(pos.own), B::from_u128(pos.mask));
        // `never` is never raised: the solve always ends.
        let score = solver.solve_score(p, &never).unwrap_or(0);
        each(pos, score, solver.nodes());
    }
}

/// A book of only the positions `ply` plies from the start that `go solve` from the
/// start reaches (a proof tree's leaves rather than every position): a solver without
/// a book, learning (see [`Solver::learn`]), solves the start with its move as the
/// engine does, from an empty table. `known`: scores from an earlier run; `on_new`
/// hears of each new one.
pub fn learn_from_start<B: Bits>(
    rows: u32,
    cols: u32,
    ply: u32,
    known: impl IntoIterator<Item = (u128, i8)>,
    on_new: super::solver::OnLearned,
) -> Book {
    let mut solver = Solver::<B>::without_book(rows, cols);
    solver.learn(ply, known, on_new);
    let never = AtomicBool::new(false);
    let _ = solver.solve_with_move(B::ZERO, B::ZERO, &never);
    Book::new(rows, cols, ply, solver.learned())
}

/// `go solve` from the start with `book`, as the engine runs it (from an empty
/// table): its nodes, book hits and misses (positions at the book's ply not in it).
pub fn start_with_book<B: Bits>(book: Arc<Book>) -> (u64, u64, u64) {
    let mut solver = Solver::<B>::without_book(book.rows, book.cols);
    solver.set_book(Some(book));
    let never = AtomicBool::new(false);
    let nodes = solver
        .solve_with_move(B::ZERO, B::ZERO, &never)
        .map_or(0, |(_, _, nodes)| nodes);
    (nodes, solver.book_hits(), solver.book_misses())
}

/// A whole book, made by [`solve_positions`] (for tests and small boards).
pub fn generate(rows: u32, cols: u32, ply: u32) -> Book {
    let todo = positions(rows, cols, ply);
    let mut entries = Vec::with_capacity(todo.len());
    let mut push = |pos: &BookPosition, score: i32, _nodes: u64| {
        entries.push((pos.key, score as i8));
    };
    if super::solver::fits_u64(rows, cols) {
        solve_positions::<u64>(rows, cols, &todo, &mut push);
    } else {
        solve_positions::<u128>(rows, cols, &todo, &mut push);
    }
    Book::new(rows, cols, ply, entries)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_book_survives_text_and_a_damaged_one_is_refused() {
        let book = generate(4, 4, 2);
        assert_eq!(book.len(), positions(4, 4, 2).len());
        let text = book.to_text();
        assert_eq!(Book::parse(&text), Ok(book.clone()));
        // A changed score breaks the checksum.
        let last_line = text.lines().last().unwrap_or_default().to_string();
        let (key, score) = last_line.split_once(' ').unwrap_or_default();
        let flipped = format!("{key} {}", if score == "0" { "1" } else { "0" });
        assert!(Book::parse(&text.replace(&last_line, &flipped)).is_err());
        // So do a truncated file, a wrong count, a header only and garbage.
        assert!(Book::parse(&text[..text.len() - 3]).is_err());
        assert!(Book::parse(&text.replacen("count ", "count 1", 1)).is_err());
        assert!(Book::parse(text.lines().next().unwrap_or_default()).is_err());
        assert!(Book::parse("").is_err());
        assert!(Book::parse("connect-four-book rows 99 cols 7").is_err());
    }

    #[test]
    fn positions_count_mirror_pairs_once() {
        // 7 first moves: 4 up to mirror image; 49 two-ply positions: 25 (only d d
        // is its own mirror image).
        assert_eq!(positions(6, 7, 1).len(), 4);
        assert_eq!(positions(6, 7, 2).len(), 25);
        assert_eq!(positions(6, 7, 0).len(), 1);
    }

    /// The books made with `--start`: only the positions the start's solve reaches.
    const START_ONLY: &[(u32, u32)] = &[(5, 8), (6, 7)];

    #[test]
    fn every_built_in_book_loads() {
        for (rows, cols) in built_in() {
            let book = embedded(rows, cols);
            let book = book.unwrap_or_else(|| panic!("book {rows}x{cols} refused"));
            let keys: Vec<u128> = positions(rows, cols, book.ply)
                .iter()
                .map(|p| p.key)
                .collect();
            let book_keys: Vec<u128> = book.entries().iter().map(|e| e.0).collect();
            if START_ONLY.contains(&(rows, cols)) {
                // Positions of its ply, all in the game.
                assert!(book_keys.iter().all(|k| keys.binary_search(k).is_ok()));
            } else {
                // Complete: one entry for every position of its ply.
                assert_eq!(book_keys, keys, "book {rows}x{cols}");
            }
        }
    }
}
