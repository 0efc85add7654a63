//! An opening book for the Connect Four solver ([`super::solver`]): the exact score of
//! every position, up to mirror image, `ply` plies from the empty board (games already
//! won before that ply have no entry). The solver returns a book score when its search
//! reaches that ply, so `go solve` near the start costs a few thousand nodes instead of
//! up to a billion (6 × 7: a minute without the book).
//!
//! The books are made by our own solver (`examples/connect_four_book.rs` with
//! [`crate::book::make`]; see docs/solved.md) and built into the binary from
//! `data/connect-four/`. The text format is the one of every book ([`crate::book`]);
//! this module adds what a Connect Four book must hold. A book is
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
use std::sync::{Arc, OnceLock};

use super::bits::{Bits, Geometry};
use crate::book::BookText;

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

/// The key of a position (`own + mask`) or of its mirror image, whichever is smaller.
pub fn canonical_key<B: Bits>(geo: &Geometry<B>, own: B, mask: B) -> B {
    let key = own.plus(mask);
    key.min(geo.mirror(key))
}

/// The number of pieces a key stands for, or `None` if it is no key of this board.
/// In a column of `n` pieces (`mask` = 2^n - 1 there), `own + mask` lies in
/// 2^n - 1 ..= 2^(n+1) - 2, so `n` is the highest bit of `own + mask + 1`.
pub fn pieces_of_key(geo: &Geometry<u128>, key: u128) -> Option<u32> {
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

    /// The header's fields: rows, cols, ply.
    const FIELDS: [&'static str; 3] = ["rows", "cols", "ply"];

    /// The book as text (see the module doc).
    pub fn to_text(&self) -> String {
        let fields: Vec<(String, String)> = Self::FIELDS
            .iter()
            .zip([self.rows, self.cols, self.ply])
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect();
        let entries: Vec<(u128, i64)> = self
            .entries
            .iter()
            .map(|&(key, score)| (key, i64::from(score)))
            .collect();
        crate::book::write(MAGIC, &fields, &entries)
    }

    /// Parses and checks a book (see the module doc); the error says what is wrong.
    pub fn parse(text: &str) -> Result<Book, String> {
        let book = BookText::parse(text, MAGIC, &Self::FIELDS)?;
        let number = |name: &str| -> Result<u32, String> {
            book.field(name)
                .unwrap_or_default()
                .parse::<u32>()
                .map_err(|e| format!("header: {name}: {e}"))
        };
        let rows = number("rows")?;
        let cols = number("cols")?;
        let ply = number("ply")?;
        if !(super::MIN_SIZE..=super::MAX_SIZE).contains(&rows)
            || !(super::MIN_SIZE..=super::MAX_SIZE).contains(&cols)
        {
            return Err(format!("header: no {rows}x{cols} board"));
        }
        let cells = rows * cols;
        if ply >= cells {
            return Err(format!("header: ply {ply} on a board of {cells} cells"));
        }
        let geo = Geometry::<u128>::new(rows, cols);
        let bound = i64::from((cells - ply).div_ceil(2));
        let mut entries = Vec::with_capacity(book.entries.len());
        for (n, &(key, score)) in book.entries.iter().enumerate() {
            let bad = |why: &str| format!("entry {}: {why}: `{key:x} {score}`", n + 1);
            if pieces_of_key(&geo, key) != Some(ply) {
                return Err(bad("no key of this board and ply"));
            }
            if geo.mirror(key) < key {
                return Err(bad("key not canonical"));
            }
            if score.abs() > bound {
                return Err(bad("score out of range"));
            }
            entries.push((key, score as i8));
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_damaged_book_is_refused() {
        // Ply 1 on 4 × 4: a piece at the foot of column 0 or 1 (their mirror images are
        // the larger keys), the side to move owning none.
        let book = Book::new(4, 4, 1, [(1, 0i8), (1 << 5, 1)]);
        let text = book.to_text();
        assert_eq!(Book::parse(&text), Ok(book));
        assert!(Book::parse("connect-four-book rows 99 cols 7").is_err());
        // Keys of another ply, of no board, not canonical; a score out of range.
        for entries in [
            vec![(0b111u128, 0i8)],
            vec![(1u128 << 126, 0)],
            vec![(1 << 15, 0)],
            vec![(1, 9)],
        ] {
            let text = Book::new(4, 4, 1, entries).to_text();
            assert!(Book::parse(&text).is_err(), "{text}");
        }
    }
}
