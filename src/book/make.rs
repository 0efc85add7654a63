//! Making Connect Four opening books ([`crate::games::linetris::book`]) with the
//! Connect Four solver: the positions of a ply, their solves, and start books (only the
//! positions `go solve` from the start needs). The engine only reads books; this is the
//! generator, for `examples/connect_four_book.rs` and the tests, kept out of the solver.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use crate::games::linetris::bits::{Bits, Geometry};
use crate::games::linetris::book::{Book, canonical_key};
use crate::games::linetris::solver::{Solver, fits_u64};

/// A position of the book: its canonical key, the side to move's pieces, all pieces.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookPosition {
    pub key: u128,
    pub own: u128,
    pub mask: u128,
}

/// Called with each position a start book gains: the canonical key, the exact score,
/// the nodes of its solve.
pub type OnLearned = Box<dyn FnMut(u128, i32, u64) + Send>;

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
/// start reaches (a proof tree's leaves rather than every position): the start is
/// solved as the engine solves it, with the book so far, until its search meets a
/// position of the book's ply that the book lacks ([`Solver::stop_at_miss`]); that one
/// is solved exactly (by a second solver without a book), added, and the start's solve
/// begins again (its table keeps what it proved), until it ends with no miss.
/// `known`: scores from an earlier run; `on_new` hears of each new one.
pub fn learn_from_start<B: Bits>(
    rows: u32,
    cols: u32,
    ply: u32,
    known: impl IntoIterator<Item = (u128, i8)>,
    mut on_new: OnLearned,
) -> Book {
    let mut scores: BTreeMap<u128, i8> = known.into_iter().collect();
    let mut start = Solver::<B>::without_book(rows, cols);
    let mut exact = Solver::<B>::without_book(rows, cols);
    let never = AtomicBool::new(false);
    loop {
        start.set_book(Some(Arc::new(Book::new(
            rows,
            cols,
            ply,
            scores.iter().map(|(&k, &s)| (k, s)),
        ))));
        start.stop_at_miss(true);
        if start.solve_with_move(B::ZERO, B::ZERO, &never).is_some() {
            return Book::new(rows, cols, ply, scores);
        }
        let Some((own, mask)) = start.missed() else {
            // Only a miss stops the solve (`never` is never raised); keep what is known.
            return Book::new(rows, cols, ply, scores);
        };
        let key = canonical_key(start.geometry(), own, mask).to_u128();
        exact.reset_nodes();
        let p = exact.position(own, mask);
        let score = exact.solve_score(p, &never).unwrap_or(0);
        scores.insert(key, score as i8);
        on_new(key, score, exact.nodes());
    }
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
    if fits_u64(rows, cols) {
        solve_positions::<u64>(rows, cols, &todo, &mut push);
    } else {
        solve_positions::<u128>(rows, cols, &todo, &mut push);
    }
    Book::new(rows, cols, ply, entries)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::linetris::book::{built_in, embedded};

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

    #[test]
    fn a_start_book_answers_the_start_with_no_miss() {
        // 5 × 5 at ply 4: far fewer positions than the whole ply, and enough.
        let counter = Arc::new(std::sync::Mutex::new(0));
        let seen = Arc::clone(&counter);
        let book = learn_from_start::<u64>(
            5,
            5,
            4,
            [],
            Box::new(move |_, _, _| *seen.lock().unwrap() += 1),
        );
        let all = positions(5, 5, 4);
        assert_eq!(*counter.lock().unwrap(), book.len());
        assert!(!book.is_empty() && book.len() < all.len(), "{}", book.len());
        let whole = generate(5, 5, 4);
        for &(key, score) in book.entries() {
            assert_eq!(whole.get(key), Some(i32::from(score)), "{key:x}");
        }
        let (_, hits, misses) = start_with_book::<u64>(Arc::new(book));
        assert!(hits > 0);
        assert_eq!(misses, 0);
    }
}
