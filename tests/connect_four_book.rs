//! The Connect Four opening book (`src/games/linetris/book.rs`): the solver gives the
//! same exact answers with and without one, the built-in books agree with fresh solves
//! on a few cheap entries, and the engine's `go solve` uses them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabuleiro::book::make;
use tabuleiro::game::{Game, Value};
use tabuleiro::games::linetris::book::{self, Book};
use tabuleiro::games::linetris::solver::Solver;
use tabuleiro::games::linetris::{Config, Linetris, LinetrisOracle};
use tabuleiro::search::Oracle;

/// Every position up to `ply` plies from the start (games over left out), as the side
/// to move's pieces and all pieces, one per mirror pair.
fn positions_up_to(rows: u32, cols: u32, ply: u32) -> Vec<(u64, u64)> {
    (0..=ply)
        .flat_map(|k| make::positions(rows, cols, k))
        .map(|p| (p.own as u64, p.mask as u64))
        .collect()
}

#[test]
fn a_book_changes_the_nodes_but_not_the_answers() {
    let (rows, cols) = (5, 5);
    let made = Arc::new(make::generate(rows, cols, 2));
    let never = AtomicBool::new(false);
    let mut plain = Solver::<u64>::without_book(rows, cols);
    let mut booked = Solver::<u64>::without_book(rows, cols);
    booked.set_book(Some(Arc::clone(&made)));
    assert!(plain.book().is_none() && booked.book().is_some());

    // The start: the same value, a move that keeps it, far fewer nodes.
    let (value, best, nodes) = plain.solve_with_move(0, 0, &never).unwrap();
    plain.clear();
    let (booked_value, booked_best, booked_nodes) = booked.solve_with_move(0, 0, &never).unwrap();
    assert_eq!(value, Value::Draw(25));
    assert_eq!(booked_value, value);
    assert!(best.is_some() && booked_best.is_some());
    assert!(booked.book_hits() > 0);
    assert!(booked_nodes * 10 < nodes, "{booked_nodes} vs {nodes}");

    // Every position of plies 0..=3 (above, at and below the book's ply), each from
    // cleared tables, and the book's scores themselves.
    for (own, mask) in positions_up_to(rows, cols, 3) {
        plain.clear();
        booked.clear();
        let want = plain.solve_value(own, mask, &never);
        assert_eq!(
            booked.solve_value(own, mask, &never),
            want,
            "{own:x} {mask:x}"
        );
    }
    for &(key, score) in made.entries() {
        let pos = make::positions(rows, cols, 2)
            .into_iter()
            .find(|p| p.key == key)
            .unwrap();
        plain.clear();
        let p = plain.position(pos.own as u64, pos.mask as u64);
        assert_eq!(plain.solve_score(p, &never), Some(i32::from(score)));
    }
}

#[test]
fn a_book_for_another_board_is_ignored() {
    let other = Arc::new(make::generate(4, 4, 1));
    let mut solver = Solver::<u64>::without_book(4, 5);
    solver.set_book(Some(other));
    assert!(solver.book().is_none());
    // Switching the board drops a book of the old one.
    let mut solver = Solver::<u64>::without_book(4, 4);
    solver.set_book(Some(Arc::new(make::generate(4, 4, 1))));
    solver.resize(4, 5);
    assert!(solver.book().is_none());
}

#[test]
fn built_in_book_entries_agree_with_fresh_solves() {
    let never = AtomicBool::new(false);
    // The cheapest books; a few entries of each, spread over the file.
    for (rows, cols) in [(7, 5), (4, 8)] {
        let book = book::embedded(rows, cols).expect("built-in book");
        let all = make::positions(rows, cols, book.ply);
        let mut solver = Solver::<u64>::without_book(rows, cols);
        let entries = book.entries();
        for i in [0, entries.len() / 2, entries.len() - 1] {
            let (key, score) = entries[i];
            let pos = all.iter().find(|p| p.key == key).expect("a book position");
            solver.clear();
            let p = solver.position(pos.own as u64, pos.mask as u64);
            assert_eq!(
                solver.solve_score(p, &never),
                Some(i32::from(score)),
                "{rows}x{cols} entry {key:x}"
            );
        }
    }
}

#[test]
fn the_built_in_books_parse_back_to_their_text() {
    for (rows, cols) in book::built_in() {
        let book = book::embedded(rows, cols).expect("built-in book");
        let text = book.to_text();
        assert_eq!(Book::parse(&text).as_ref(), Ok(book.as_ref()));
        // Written back byte for byte as the file in data/.
        let path = format!(
            "{}/data/connect-four/{rows}x{cols}.book",
            env!("CARGO_MANIFEST_DIR")
        );
        assert_eq!(
            std::fs::read_to_string(&path).ok(),
            Some(text.clone()),
            "{path}"
        );
        assert!(text.len() < 64 << 10, "{rows}x{cols}: {} bytes", text.len());
    }
}

/// The published values of the boards' start positions (docs/solved.md).
fn published(rows: u32, cols: u32) -> Option<Value> {
    Some(match (rows, cols) {
        (4, 8) => Value::Loss(32),
        (5, 7) | (7, 5) => Value::Draw(35),
        (5, 8) => Value::Win(39),
        (6, 6) => Value::Loss(36),
        (6, 7) | (7, 6) => Value::Win(41),
        _ => return None,
    })
}

#[test]
fn go_solve_from_the_start_uses_the_built_in_books() {
    let stop = AtomicBool::new(false);
    for (rows, cols) in book::built_in() {
        let config = Config::connect_four(rows, cols);
        let oracle = LinetrisOracle::new(&config);
        let solution = oracle.solve(&Linetris::start(&config), &stop).unwrap();
        assert_eq!(Some(solution.value), published(rows, cols), "{rows}x{cols}");
        assert!(solution.best.is_some());
        assert!(
            solution.nodes < 100_000,
            "{rows}x{cols}: {} nodes",
            solution.nodes
        );
    }
}
