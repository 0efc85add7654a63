//! Makes the Connect Four opening book of one board (`data/connect-four/RxC.book`,
//! see `src/games/linetris/book.rs`) with our own solver, without a book, by the
//! generator `src/book/make.rs`.
//!
//! `cargo run --release --example connect_four_book ROWS COLS PLY [--start | --sample N]`
//!
//! Solves every position PLY plies from the start (one per mirror pair, games already
//! won left out) and prints a line of progress for each to stderr. With `--start`,
//! only the positions of that ply that `go solve` from the start reaches: the start's
//! solve stops at the first one its book lacks, which is solved and added, and begins
//! again, until it needs none (far fewer: the leaves of a proof; see
//! `make::learn_from_start`); the run then checks that the start's solve with the book
//! finds every position of that ply it reaches in it. Each score is appended to
//! `RxC.book.partial` as it is found, so a run that is stopped resumes where it was
//! (with the same PLY and mode); at the end the book is written and the partial file
//! removed. `--sample N` only times N positions spread over the list and estimates the
//! whole (an overestimate: the real run shares its table between neighbouring
//! positions), writing nothing.

use std::collections::HashMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use tabuleiro::book::make::{self, BookPosition, OnLearned};
use tabuleiro::games::linetris::book::Book;
use tabuleiro::games::linetris::solver::fits_u64;

fn usage() -> ! {
    eprintln!("usage: connect_four_book ROWS COLS PLY [--start | --sample N]");
    std::process::exit(2);
}

fn solve(rows: u32, cols: u32, todo: &[BookPosition], each: impl FnMut(&BookPosition, i32, u64)) {
    if fits_u64(rows, cols) {
        make::solve_positions::<u64>(rows, cols, todo, each);
    } else {
        make::solve_positions::<u128>(rows, cols, todo, each);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let number = |i: usize| -> u32 {
        args.get(i)
            .and_then(|a| a.parse().ok())
            .unwrap_or_else(|| usage())
    };
    let (rows, cols, ply) = (number(0), number(1), number(2));
    if !(4..=10).contains(&rows) || !(4..=10).contains(&cols) || ply >= rows * cols {
        usage();
    }
    let (sample, from_start) = match args.get(3).map(String::as_str) {
        None => (None, false),
        Some("--sample") => (Some(number(4).max(1) as usize), false),
        Some("--start") => (None, true),
        Some(_) => usage(),
    };
    let all = make::positions(rows, cols, ply);
    eprintln!("{rows}x{cols} ply {ply}: {} positions", all.len());

    if let Some(n) = sample {
        let picked: Vec<BookPosition> = (0..n.min(all.len()))
            .map(|i| all[i * all.len() / n.min(all.len())])
            .collect();
        let started = Instant::now();
        let mut done = 0;
        solve(rows, cols, &picked, |pos, score, nodes| {
            done += 1;
            eprintln!(
                "[{done}/{}] {:x} score {score} nodes {nodes} at {:.1} s",
                picked.len(),
                pos.key,
                started.elapsed().as_secs_f64()
            );
        });
        let each = started.elapsed().as_secs_f64() / picked.len() as f64;
        println!(
            "{rows}x{cols} ply {ply}: {:.2} s a position, about {:.0} s for all {}",
            each,
            each * all.len() as f64,
            all.len()
        );
        return;
    }

    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/connect-four");
    let path = dir.join(format!("{rows}x{cols}.book"));
    let partial = dir.join(format!("{rows}x{cols}.book.partial"));
    // Scores found by an earlier run with the same ply (keys of this list only).
    let wanted: HashMap<u128, ()> = all.iter().map(|p| (p.key, ())).collect();
    let mut scores: HashMap<u128, i8> = HashMap::new();
    if let Ok(text) = std::fs::read_to_string(&partial) {
        let header = format!("ply {ply}{}", if from_start { " start" } else { "" });
        let mut lines = text.lines();
        if lines.next() == Some(header.as_str()) {
            for line in lines {
                let parsed = line.split_once(' ').and_then(|(k, s)| {
                    Some((u128::from_str_radix(k, 16).ok()?, s.parse::<i8>().ok()?))
                });
                if let Some((key, score)) = parsed
                    && wanted.contains_key(&key)
                {
                    scores.insert(key, score);
                }
            }
            eprintln!(
                "resuming: {} scores from {}",
                scores.len(),
                partial.display()
            );
        } else {
            eprintln!(
                "{} is for another ply or mode: starting afresh",
                partial.display()
            );
            scores.clear();
        }
    }
    let fresh = scores.is_empty();
    let mut out = std::fs::OpenOptions::new()
        .create(true)
        .append(!fresh)
        .write(true)
        .truncate(fresh)
        .open(&partial)
        .unwrap_or_else(|e| panic!("{}: {e}", partial.display()));
    if fresh {
        let mode = if from_start { " start" } else { "" };
        writeln!(out, "ply {ply}{mode}").unwrap_or_else(|e| panic!("{}: {e}", partial.display()));
    }
    if from_start {
        let started = Instant::now();
        let before = scores.len();
        let mut done = 0;
        let name = partial.display().to_string();
        let on_new: OnLearned = Box::new(move |key, score, nodes| {
            done += 1;
            writeln!(out, "{key:x} {score}")
                .and_then(|()| out.flush())
                .unwrap_or_else(|e| panic!("{name}: {e}"));
            eprintln!(
                "[{}] {key:x} score {score} nodes {nodes}  {:.0} s",
                before + done,
                started.elapsed().as_secs_f64()
            );
        });
        let book = if fits_u64(rows, cols) {
            make::learn_from_start::<u64>(rows, cols, ply, scores, on_new)
        } else {
            make::learn_from_start::<u128>(rows, cols, ply, scores, on_new)
        };
        let book = Arc::new(book);
        let (nodes, hits, misses) = if fits_u64(rows, cols) {
            make::start_with_book::<u64>(Arc::clone(&book))
        } else {
            make::start_with_book::<u128>(Arc::clone(&book))
        };
        println!(
            "go solve from the start with the book: {nodes} nodes, {hits} book hits, {misses} misses"
        );
        if misses > 0 {
            eprintln!("the book misses positions the start's solve reaches: not written");
            std::process::exit(1);
        }
        write_book(&book, &path, &partial, started);
        return;
    }
    let todo: Vec<BookPosition> = all
        .iter()
        .filter(|p| !scores.contains_key(&p.key))
        .copied()
        .collect();
    let started = Instant::now();
    let before = scores.len();
    let mut done = 0;
    solve(rows, cols, &todo, |pos, score, nodes| {
        done += 1;
        scores.insert(pos.key, score as i8);
        writeln!(out, "{:x} {score}", pos.key)
            .and_then(|()| out.flush())
            .unwrap_or_else(|e| panic!("{}: {e}", partial.display()));
        let elapsed = started.elapsed().as_secs_f64();
        eprintln!(
            "[{}/{}] {:x} score {score} nodes {nodes}  {elapsed:.0} s, about {:.0} s to go",
            before + done,
            all.len(),
            pos.key,
            elapsed / done as f64 * (todo.len() - done) as f64
        );
    });
    let book = Book::new(rows, cols, ply, scores);
    write_book(&book, &path, &partial, started);
}

/// Writes the finished `book` to `path`, removes the resumption file `partial`, and
/// says how long the run took since `started`.
fn write_book(book: &Book, path: &Path, partial: &Path, started: Instant) {
    std::fs::write(path, book.to_text()).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let _ = std::fs::remove_file(partial);
    println!(
        "{}: {} entries, {:.0} s",
        path.display(),
        book.len(),
        started.elapsed().as_secs_f64()
    );
}
