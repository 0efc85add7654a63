//! Game books read by the exact solvers (`src/book/game.rs`, `Exact::known`): a book
//! made by `tabuleiro solve --split`, `--shard` and `--merge` makes the solvers give
//! the values and distances of a solve without it, in fewer nodes, at every ply down
//! to the book's; `--book` uses one, and refuses a damaged book or one of other
//! options without a crash; the built-in Trees 4 book is what a merge makes and
//! `go solve` uses it.

#[path = "common/process.rs"]
mod process;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use process::Engine;
use tabuleiro::book::game::{self, GameBook, embedded};
use tabuleiro::game::{Game, Value};
use tabuleiro::games::frozenforest::FrozenForest;
use tabuleiro::games::frozenforest::solve::{
    Prover, book_options as forest_options, plies_from_start,
};
use tabuleiro::games::talpa::Talpa;
use tabuleiro::games::talpa::solve::{Solver as TalpaSolver, book_options as talpa_options};
use tabuleiro::options::{config_from_pairs, params_from_pairs};
use tabuleiro::solve::adapter::{self, Exact, SolverOf};
use tabuleiro::solve::{Header, Results, merge, solve_one, split};

/// A scratch directory of its own for `name`.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tabuleiro-books-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

/// `tabuleiro ARGS` in `dir`: (exit code, stdout, stderr).
fn tabuleiro(args: &[&str], dir: &Path) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

/// `tabuleiro solve GAME_ARGS REST` in `dir`, which must succeed: (stdout, stderr).
fn solve_ok(game: &[&str], rest: &[&str], dir: &Path) -> (String, String) {
    let args: Vec<&str> = ["solve"].iter().chain(game).chain(rest).copied().collect();
    let (code, out, err) = tabuleiro(&args, dir);
    assert_eq!(code, Some(0), "{args:?}: {err}");
    (out, err)
}

/// The book of `ply` made by the command line: the split, two shards, the merge.
fn book_by_command(game: &[&str], ply: u32, dir: &Path) -> GameBook {
    let ply = ply.to_string();
    solve_ok(game, &["--split", &ply, "--out", "jobs.txt"], dir);
    for k in ["1/2", "2/2"] {
        let out = format!("r{}.txt", &k[..1]);
        solve_ok(
            game,
            &["--jobs", "jobs.txt", "--shard", k, "--out", &out],
            dir,
        );
    }
    let merge = ["--merge", "r1.txt", "r2.txt", "--out", "book.txt"];
    solve_ok(game, &merge, dir);
    GameBook::load(&dir.join("book.txt")).expect("the merged book loads")
}

/// The nodes of a direct solve's result line (`FEN | value | best | N nodes | S s`).
fn nodes_of(line: &str) -> u64 {
    let field = line.split(" | ").nth(3).expect("a result line");
    let nodes = field.strip_suffix(" nodes").expect("N nodes");
    nodes.parse().expect("a number")
}

/// The value of `state` after `best` for the side that played it.
fn after<G: Exact>(solver: &mut SolverOf<G>, state: &G, best: G::Move) -> Value {
    let mut child = state.clone();
    child.play(best);
    match child.outcome() {
        Some(outcome) => Value::of_outcome(outcome, child.side_to_move()).parent(),
        None => adapter::solve(solver, &child, None)
            .value
            .expect("solved")
            .parent(),
    }
}

/// Every position of plies 0 to the book's (up to symmetry) from `start`: the solver
/// with the book gives the value and distance of a fresh solver without it, and a
/// best move that keeps it; from the start, in fewer nodes. Returns the nodes of all
/// the solves with and without the book.
fn same_values<G: Exact>(
    start: &G,
    with_book: &mut SolverOf<G>,
    fresh: impl Fn() -> SolverOf<G>,
) -> (u64, u64) {
    let book_ply = with_book.book().expect("a book").ply();
    let mut plain = fresh();
    let (mut nodes_with, mut nodes_without) = (0, 0);
    for ply in 0..=book_ply {
        for state in split(start, ply).0 {
            let got = adapter::solve(with_book, &state, None);
            let want = adapter::solve(&mut plain, &state, None);
            assert_eq!(got.value, want.value, "{}", state.fen());
            let value = got.value.expect("solved");
            let best = got.best.expect("a best move");
            assert_eq!(after(&mut plain, &state, best), value, "{}", state.fen());
            nodes_with += got.nodes;
            nodes_without += want.nodes;
        }
    }
    let hits = with_book.book().map_or(0, |b| b.hits);
    assert!(hits > 0, "the book was consulted");
    (nodes_with, nodes_without)
}

#[test]
fn a_merged_talpa_book_gives_the_direct_values_in_fewer_nodes() {
    let dir = scratch("talpa");
    let game = ["--game", "talpa", "--option", "Size=4"];
    let book = book_by_command(&game, 3, &dir);
    assert_eq!((book.ply, book.len()), (3, 1537));
    // The command line: the same line but for the nodes, far fewer.
    let (plain, _) = solve_ok(&game, &[], &dir);
    let (with, said) = solve_ok(&game, &["--book", "book.txt"], &dir);
    assert!(plain.contains(" | win 11 | "), "{plain}");
    let cut = |line: &str| line.rsplitn(3, " | ").last().map(str::to_string);
    assert_eq!(cut(&plain), cut(&with));
    assert!(nodes_of(&with) * 10 < nodes_of(&plain), "{with} {plain}");
    assert!(said.contains("1537 positions): "), "{said}");
    // A shard with the book: the same results as without.
    let (out, _) = solve_ok(&game, &["--split", "2"], &dir);
    std::fs::write(dir.join("two.txt"), out).expect("write");
    let shard = ["--jobs", "two.txt", "--shard", "1/8"];
    let (a, _) = solve_ok(&game, &shard, &dir);
    let (b, _) = solve_ok(&game, &[&shard[..], &["--book", "book.txt"]].concat(), &dir);
    let values = |text: &str| -> Vec<String> {
        text.lines()
            .skip(2)
            .filter_map(|line| line.rsplitn(3, " | ").last().map(str::to_string))
            .collect()
    };
    assert_eq!(values(&a), values(&b));
    assert!(!values(&a).is_empty());

    // Every position of plies 0 to 3, through the library.
    let config = config_from_pairs::<Talpa>(&[("Size", "4")]).expect("4x4");
    let start = Talpa::start(&config);
    let fresh = || TalpaSolver::new(4, 18).expect("a solver");
    let mut solver = fresh();
    solver
        .set_book(Some(Arc::new(book)), &talpa_options(4))
        .expect("a 4x4 book");
    let (with, without) = same_values(&start, &mut solver, fresh);
    assert!(with < without, "{with} {without}");
    // Win or loss by proof numbers, with the book too.
    let stop = AtomicBool::new(false);
    assert_eq!(solver.prove(&start, &stop, None).map(|p| p.0), Ok(true));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_merged_frozen_forest_book_gives_the_direct_values_in_fewer_nodes() {
    let dir = scratch("trees4");
    let game = ["--game", "frozenforest", "--option", "Trees=4"];
    let book = book_by_command(&game, 3, &dir);
    assert_eq!((book.ply, book.len()), (3, 37));
    let config = config_from_pairs::<FrozenForest>(&[("Trees", "4")]).expect("Trees 4");
    let start = FrozenForest::start(&config);
    let fresh = || Prover::try_new(u64::MAX, 20).expect("a prover");
    let mut prover = fresh();
    prover
        .set_book(Some(Arc::new(book)), &forest_options(&config))
        .expect("a Trees 4 book");
    let (with, without) = same_values(&start, &mut prover, fresh);
    assert!(with < without, "{with} {without}");
    // From the start, with fresh tables: a hundredth of the nodes at most.
    let mut plain = fresh();
    prover.clear();
    let with = adapter::solve(&mut prover, &start, None);
    let without = adapter::solve(&mut plain, &start, None);
    assert_eq!(with.value, without.value);
    assert!(
        with.nodes * 100 < without.nodes,
        "{} {}",
        with.nodes,
        without.nodes
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The book of the Trees 4 positions `ply` plies from `root` (solved in one shard,
/// merged in the library), with those positions.
fn trees_4_book(root: &FrozenForest, ply: u32) -> (GameBook, Vec<FrozenForest>) {
    let config = root.options();
    let (positions, _) = split(root, ply);
    let mut solver = Prover::try_new(u64::MAX, 20).expect("a prover");
    let results = Results {
        header: Header {
            game: "frozenforest".to_string(),
            options: "Trees=4".to_string(),
            ply,
            root: root.fen(),
        },
        jobs: positions.len(),
        shard: (1, 1),
        results: positions
            .iter()
            .map(|p| solve_one::<FrozenForest>(&mut solver, p, None))
            .collect(),
    };
    let book = merge::<FrozenForest>(&config, &[results]).expect("a merge");
    (book, positions)
}

#[test]
fn a_book_from_a_later_root_holds_its_positions_ply_count() {
    // The book's ply is the ply count of its positions (which their keys hash), so a
    // solver finds them whatever root the split started from.
    let config = config_from_pairs::<FrozenForest>(&[("Trees", "4")]).expect("Trees 4");
    let mut root = FrozenForest::start(&config);
    root.play(root.parse_move("e5").expect("a placement"));
    let (book, positions) = trees_4_book(&root, 2);
    assert_eq!(book.ply, 3);
    assert!(positions.iter().all(|p| plies_from_start(p) == 3));
    let mut solver = Prover::try_new(u64::MAX, 18).expect("a prover");
    let plain = adapter::solve(&mut solver, &root, None);
    let mut prover = Prover::try_new(u64::MAX, 18).expect("a prover");
    prover
        .set_book(Some(Arc::new(book)), &forest_options(&config))
        .expect("a Trees 4 book");
    let with = adapter::solve(&mut prover, &root, None);
    assert_eq!(with.value, plain.value);
    assert!(prover.book().is_some_and(|b| b.hits > 0 && b.misses == 0));
}

#[test]
fn damaged_and_foreign_books_are_refused_without_a_crash() {
    let dir = scratch("bad");
    let game = ["--game", "talpa", "--option", "Size=4"];
    let book = book_by_command(&game, 2, &dir);
    let text = book.to_text();
    // A changed value, a cut file, nonsense, an empty file, another game's header.
    let second = text.lines().nth(1).expect("an entry");
    let changed = second.replace(' ', " 1");
    let bad: [(&str, String, &str); 5] = [
        ("changed", text.replacen(second, &changed, 1), "checksum"),
        ("cut", text[..text.len() / 2].to_string(), "checksum"),
        ("nonsense", "\u{0}\u{1}garbage\n".to_string(), "header"),
        ("empty", String::new(), "no header line"),
        (
            "chess",
            text.replace("game talpa", "game chess"),
            "no game chess",
        ),
    ];
    for (name, content, why) in bad {
        std::fs::write(dir.join(name), content).expect("write");
        let args = ["solve", game[0], game[1], game[2], game[3], "--book", name];
        let (code, out, err) = tabuleiro(&args, &dir);
        assert_eq!(code, Some(2), "{name}: {err}");
        assert!(out.is_empty() && err.contains(why), "{name}: {err}");
    }
    // A book of other options or of another game.
    let (code, _, err) = tabuleiro(
        &[
            "solve", "--game", "talpa", "--option", "Size=6", "--book", "book.txt",
        ],
        &dir,
    );
    assert_eq!(code, Some(2));
    assert!(
        err.contains("the book is for talpa Size=4, not talpa Size=6"),
        "{err}"
    );
    let (code, _, err) = tabuleiro(
        &["solve", "--game", "frozenforest", "--book", "book.txt"],
        &dir,
    );
    assert_eq!(code, Some(2));
    assert!(err.contains("not frozenforest Trees=10"), "{err}");
    let args = [
        "solve", game[0], game[1], game[2], game[3], "--book", "none.txt",
    ];
    let (code, _, err) = tabuleiro(&args, &dir);
    assert!(code == Some(2) && err.contains("none.txt"), "{err}");
    // In the library: the book of before is kept.
    let mut solver = TalpaSolver::new(6, 10).expect("a 6x6 solver");
    assert!(
        solver
            .set_book(Some(Arc::new(book.clone())), &talpa_options(6))
            .is_err()
    );
    assert!(solver.book().is_none());
    let mut solver = TalpaSolver::new(4, 10).expect("a 4x4 solver");
    solver
        .set_book(Some(Arc::new(book)), &talpa_options(4))
        .expect("a 4x4 book");
    let trees = config_from_pairs::<FrozenForest>(&[("Trees", "4")]).expect("Trees 4");
    let mut prover = Prover::try_new(u64::MAX, 10).expect("a prover");
    let talpa_book = solver.book().map(|b| Arc::new(b.book().clone()));
    assert!(
        prover
            .set_book(talpa_book, &forest_options(&trees))
            .is_err()
    );
    assert!(prover.book().is_none());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_built_in_trees_4_book_is_a_merge_of_its_jobs() {
    let pairs = [("Trees", "4")];
    let config = config_from_pairs::<FrozenForest>(&pairs).expect("Trees 4");
    let options = game::options_text(&params_from_pairs::<FrozenForest>(&pairs).expect("ok"));
    assert_eq!(
        options,
        tabuleiro::games::frozenforest::solve::book_options(&config)
    );
    assert_eq!(
        tabuleiro::games::talpa::solve::book_options(4),
        game::options_text(&params_from_pairs::<Talpa>(&[("Size", "4")]).expect("ok"))
    );
    let built_in = embedded("frozenforest", &options).expect("the built-in Trees 4 book");
    let (made, _) = trees_4_book(&FrozenForest::start(&config), built_in.ply);
    assert_eq!(made.to_text(), built_in.to_text());
    assert_eq!(game::EMBEDDED.len(), 1);
}

/// The nodes of the `info depth` line of a `go solve`.
fn nodes_in(lines: &[String]) -> u64 {
    let info = lines
        .iter()
        .find(|l| l.starts_with("info depth"))
        .expect("an info line");
    info.split_whitespace()
        .skip_while(|w| *w != "nodes")
        .nth(1)
        .and_then(|n| n.parse().ok())
        .expect("nodes")
}

#[test]
fn go_solve_uses_the_built_in_book() {
    let mut engine = Engine::start(&[], Duration::from_secs(60));
    for line in [
        "game frozenforest",
        "setoption name Trees value 4",
        "position startpos",
        "go solve",
    ] {
        engine.send(line);
    }
    let lines = engine.until("bestmove");
    let text = lines.join("\n");
    assert!(text.contains("info string solved loss plies 26"), "{text}");
    assert!(text.contains("bestmove d4"), "{text}");
    // Without the book: 2.5 million nodes; with it, a hundred.
    assert!(nodes_in(&lines) < 1000, "{text}");
    // After Yuki's placement too (without the book: 0.4 million nodes).
    engine.send("position startpos moves e5");
    engine.send("go solve");
    let lines = engine.until("bestmove");
    let text = lines.join("\n");
    assert!(text.contains("info string solved win plies 21"), "{text}");
    assert!(nodes_in(&lines) < 1000, "{text}");
    engine.quit();
}
