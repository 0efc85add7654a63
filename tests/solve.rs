//! Proofs split into jobs (`tabuleiro solve`, `src/solve/`): a split, its shards and
//! their merge give the value of the direct solve, on Talpa 4×4 and Frozen Forest
//! (Trees 4 from the start, Trees 5 from a late position: small enough for CI; the
//! whole Trees 5 demonstration is a command in docs/solved.md), every job's result is
//! the direct solve of its position, and bad or incomplete files are refused.

use std::path::PathBuf;
use std::process::Command;

use tabuleiro::arena::suite::{canonical_key, symmetries, transformed_fen};
use tabuleiro::book::game::GameBook;
use tabuleiro::game::{Game, Value};
use tabuleiro::games::frozenforest::FrozenForest;
use tabuleiro::games::talpa::Talpa;
use tabuleiro::options::config_from_pairs;
use tabuleiro::solve::adapter::{self, Exact};
use tabuleiro::solve::{Header, Jobs, Results, merge, root_value, solve_one, split};

fn pairs(name: &str, value: &str) -> Vec<(String, String)> {
    vec![(name.to_string(), value.to_string())]
}

/// Splits `root` at `ply`, solves the jobs in `shards` shards (each with its own
/// solver, through the text forms), merges them: the book and the root's value from
/// it, with the job list.
fn split_solve_merge<G: Exact>(
    config: &G::Config,
    options: &str,
    root: &G,
    ply: u32,
    shards: usize,
) -> (GameBook, Option<Value>, Jobs) {
    let (positions, _) = split(root, ply);
    let jobs = Jobs {
        header: Header {
            game: G::NAME.to_string(),
            options: options.to_string(),
            ply,
            root: root.fen(),
        },
        fens: positions.iter().map(Game::fen).collect(),
    };
    let jobs = Jobs::parse(&jobs.to_text()).expect("the job list reads back");
    let mut files = Vec::new();
    for k in 1..=shards {
        let mut solver = G::solver(config, 18).expect("a solver");
        let mut results = Results {
            header: jobs.header.clone(),
            jobs: jobs.fens.len(),
            shard: (k, shards),
            results: Vec::new(),
        };
        for index in jobs.shard(k, shards) {
            let state = G::from_fen(config, &jobs.fens[index]).expect("a job's FEN");
            results.results.push(solve_one(&mut solver, &state, None));
        }
        let mut text = format!("{}\n", results.header_lines());
        for result in &results.results {
            text.push_str(&result.line());
            text.push('\n');
        }
        files.push(Results::parse(&text).expect("the results read back"));
    }
    let book = merge::<G>(config, &files).expect("a complete merge");
    let book = GameBook::parse(&book.to_text()).expect("the book reads back");
    let value = root_value(root, &book);
    (book, value, jobs)
}

fn direct<G: Exact>(config: &G::Config, state: &G) -> Value {
    let mut solver = G::solver(config, 18).expect("a solver");
    adapter::solve(&mut solver, state, None)
        .value
        .expect("solved")
}

#[test]
fn talpa_4x4_split_at_ply_3_gives_the_direct_value() {
    let config = config_from_pairs::<Talpa>(&pairs("Size", "4")).expect("4x4");
    let start = Talpa::start(&config);
    let (book, value, jobs) = split_solve_merge(&config, "Size=4", &start, 3, 3);
    assert_eq!(direct(&config, &start), Value::Win(11));
    assert_eq!(value, Some(Value::Win(11)));
    assert_eq!(book.len(), jobs.fens.len());
    // Every entry is the direct solve of its position, and of its images.
    for fen in jobs.fens.iter().step_by(97) {
        let state = Talpa::from_fen(&config, fen).expect("a job");
        let want = direct(&config, &state);
        assert_eq!(book.value_of(&state), Some(want), "{fen}");
        for &symmetry in symmetries("talpa") {
            let image =
                Talpa::from_fen(&config, &transformed_fen(&state, symmetry)).expect("an image");
            assert_eq!(book.value_of(&image), Some(want), "{fen} {symmetry:?}");
        }
    }
    // A position of another ply is not in the book.
    assert_eq!(book.value_of(&start), None);
}

#[test]
fn frozen_forest_trees_4_split_at_ply_4_gives_the_direct_value() {
    let config = config_from_pairs::<FrozenForest>(&pairs("Trees", "4")).expect("Trees 4");
    let start = FrozenForest::start(&config);
    let (book, value, _) = split_solve_merge(&config, "Trees=4", &start, 4, 2);
    assert_eq!(value, Some(Value::Loss(26)));
    assert_eq!(direct(&config, &start), Value::Loss(26));
    assert_eq!(book.len(), 169);
}

#[test]
fn frozen_forest_trees_5_from_a_late_position_gives_the_direct_value() {
    let config = config_from_pairs::<FrozenForest>(&pairs("Trees", "5")).expect("Trees 5");
    // Six plies in: Yuki has eaten three trees (docs/solved.md has the whole start).
    let root = FrozenForest::from_fen(
        &config,
        "10/10/2ttttt3/2tt1tt3/2ttt1t3/2tMtyt3/2ttttt3/10/10/10 y 6",
    )
    .expect("a Trees 5 position");
    let (_, value, jobs) = split_solve_merge(&config, "Trees=5", &root, 2, 2);
    assert!(jobs.fens.len() > 10, "{}", jobs.fens.len());
    assert_eq!(value, Some(direct(&config, &root)));
    assert_eq!(value, Some(Value::Loss(20)));
}

#[test]
fn the_split_merges_images_and_leaves_out_games_over() {
    let config = config_from_pairs::<FrozenForest>(&pairs("Trees", "5")).expect("Trees 5");
    let (one, paths) = split(&FrozenForest::start(&config), 1);
    // 25 placements; the forest is off the board's middle, so only the reflection in
    // one diagonal keeps it: 5 placements on it, 10 pairs.
    assert_eq!((one.len(), paths), (15, 25));
    let config = config_from_pairs::<Talpa>(&pairs("Size", "4")).expect("4x4");
    for ply in 0..=4 {
        let (level, _) = split(&Talpa::start(&config), ply);
        assert!(level.iter().all(|s| s.outcome().is_none()));
        let keys: std::collections::HashSet<String> = level.iter().map(canonical_key).collect();
        assert_eq!(keys.len(), level.len());
    }
}

#[test]
fn a_merge_refuses_missing_conflicting_or_foreign_results() {
    let config = config_from_pairs::<Talpa>(&pairs("Size", "4")).expect("4x4");
    let (positions, _) = split(&Talpa::start(&config), 1);
    let header = Header {
        game: "talpa".to_string(),
        options: "Size=4".to_string(),
        ply: 1,
        root: Talpa::start(&config).fen(),
    };
    let mut solver = Talpa::solver(&config, 16).expect("a solver");
    let results: Vec<_> = positions
        .iter()
        .map(|p| solve_one(&mut solver, p, None))
        .collect();
    let file = |results: Vec<_>, header: Header| Results {
        header,
        jobs: positions.len(),
        shard: (1, 1),
        results,
    };
    assert!(merge::<Talpa>(&config, &[file(results.clone(), header.clone())]).is_ok());
    // A job missing.
    let missing = file(results[1..].to_vec(), header.clone());
    assert!(merge::<Talpa>(&config, &[missing]).is_err());
    // A job with another value in a second file.
    let mut wrong = results.clone();
    wrong[0].value = Some(Value::Loss(99));
    let both = [
        file(results.clone(), header.clone()),
        file(wrong, header.clone()),
    ];
    assert!(merge::<Talpa>(&config, &both).is_err());
    // An unsolved job.
    let mut unsolved = results.clone();
    unsolved[0].value = None;
    assert!(merge::<Talpa>(&config, &[file(unsolved, header.clone())]).is_err());
    // Files of two job lists.
    let other = Header {
        ply: 2,
        ..header.clone()
    };
    let mixed = [file(results.clone(), header), file(results, other)];
    assert!(merge::<Talpa>(&config, &mixed).is_err());
    assert!(merge::<Talpa>(&config, &[]).is_err());
}

fn tabuleiro(args: &[&str], dir: &PathBuf) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    )
}

#[test]
fn the_command_splits_shards_and_merges_and_refuses_bad_files() {
    let dir = std::env::temp_dir().join(format!("tabuleiro-solve-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    let game = ["--game", "talpa", "--option", "Size=4"];
    let with =
        |rest: &[&str]| -> Vec<String> { game.iter().chain(rest).map(|s| s.to_string()).collect() };
    let run = |rest: &[&str]| {
        let args = with(rest);
        let args: Vec<&str> = std::iter::once("solve")
            .chain(args.iter().map(String::as_str))
            .collect();
        tabuleiro(&args, &dir)
    };
    let (ok, direct, _) = run(&[]);
    assert!(ok && direct.contains(" | win 11 | "), "{direct}");
    let (ok, _, said) = run(&["--split", "2", "--out", "jobs.txt"]);
    assert!(
        ok && said.contains("talpa Size=4 ply 2: 224 jobs"),
        "{said}"
    );
    for k in ["1/2", "2/2"] {
        let out = format!("r{}.txt", &k[..1]);
        let (ok, _, said) = run(&["--jobs", "jobs.txt", "--shard", k, "--out", &out]);
        assert!(ok, "{said}");
    }
    let (ok, book, said) = run(&["--merge", "r1.txt", "r2.txt"]);
    assert!(ok, "{said}");
    assert!(
        said.contains("224 positions; the root from the book: win 11"),
        "{said}"
    );
    assert!(GameBook::parse(&book).is_ok());
    // One shard missing; results of another game's options; a damaged list.
    let (ok, _, said) = run(&["--merge", "r1.txt"]);
    assert!(
        !ok && said.contains("results for 112 of the 224 jobs"),
        "{said}"
    );
    let (ok, _, said) = tabuleiro(
        &[
            "solve", "--game", "talpa", "--option", "Size=6", "--merge", "r1.txt",
        ],
        &dir,
    );
    assert!(!ok && said.contains("not talpa Size=6"), "{said}");
    std::fs::write(dir.join("bad.txt"), "tabuleiro-jobs game talpa\n").expect("write");
    let (ok, _, said) = run(&["--jobs", "bad.txt", "--shard", "1/1"]);
    assert!(
        !ok && said.starts_with("tabuleiro: bad.txt: expected a header"),
        "{said}"
    );
    let (ok, _, said) = run(&["--jobs", "none.txt", "--shard", "1/1"]);
    assert!(!ok && said.starts_with("tabuleiro: none.txt: "), "{said}");
    let (ok, _, said) = tabuleiro(&["solve", "--game", "fabrik", "--split", "1"], &dir);
    assert!(
        !ok && said.contains("solve takes talpa and frozenforest"),
        "{said}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
