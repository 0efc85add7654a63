//! The Linetris retrograde tables' cache files (`src/games/linetris/retro/cache.rs`):
//! the oracle plays from a table it loaded, rebuilds over a bad file, and the engine
//! finds the file through `$TABULEIRO_CACHE`. Small boards only (4 x 4, 5 x 4: a
//! fraction of a second each), in temporary directories, never the user's cache.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

#[path = "common/process.rs"]
mod process;

use tabuleiro::game::{Game, Value};
use tabuleiro::games::linetris::oracle::TableSource;
use tabuleiro::games::linetris::retro::{Table, cache};
use tabuleiro::games::linetris::{Config, Linetris, LinetrisOracle};
use tabuleiro::search::Oracle;
use tabuleiro::search::exact::byte;

fn config(rows: u32, cols: u32) -> Config {
    Config {
        rows,
        cols,
        row_clear: true,
        max_plies: 0,
    }
}

/// A fresh directory under the system's temporary one.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tabuleiro-retro-cache-{name}-{}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// The 4 x 4 table with the start's distance changed from a loss in 22 to a loss in
/// 20: a table no build makes, so an oracle that says 20 read it from the file.
fn doctored_4x4(dir: &Path) {
    let table = Table::build(4, 4);
    let start = table.index(&table.start());
    let mut bytes = table.bytes().to_vec();
    assert_eq!(byte::decode(bytes[start]), Some(Value::Loss(22)));
    bytes[start] = byte::encode(Value::Loss(20)).unwrap();
    let doctored = Table::from_bytes(4, 4, bytes).unwrap();
    cache::save(&doctored, dir).unwrap();
}

#[test]
fn the_oracle_plays_from_the_table_it_loaded() {
    let dir = temp_dir("oracle");
    doctored_4x4(&dir);
    let cfg = config(4, 4);
    let oracle = LinetrisOracle::with_cache_dir(&cfg, Some(dir.clone()));
    let stop = AtomicBool::new(false);
    oracle.wait(&stop, None);
    assert_eq!(oracle.retro_source(), Some(TableSource::Loaded));
    let start = Linetris::start(&cfg);
    assert_eq!(oracle.probe(&start), Some(Value::Loss(20)));
    assert_eq!(oracle.solve(&start, &stop).unwrap().value, Value::Loss(20));
    let root = oracle.probe_root(&start, &[start.hash()]).unwrap();
    assert_eq!(
        root.value,
        Value::Loss(22),
        "the children are the true table's"
    );

    // A damaged file is ignored (a warning) and the table built: the true value.
    let file = cache::path(&dir, 4, 4);
    let bytes = std::fs::read(&file).unwrap();
    std::fs::write(&file, &bytes[..bytes.len() / 2]).unwrap();
    let rebuilt = LinetrisOracle::with_cache_dir(&cfg, Some(dir.clone()));
    rebuilt.wait(&stop, None);
    assert_eq!(rebuilt.retro_source(), Some(TableSource::Built));
    assert_eq!(rebuilt.probe(&start), Some(Value::Loss(22)));
    // 4 x 4 builds in milliseconds: its file is not rewritten.
    assert_eq!(std::fs::read(&file).unwrap().len(), bytes.len() / 2);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs the engine with `TABULEIRO_CACHE=dir` on `input`; its stdout and stderr.
fn engine(dir: &Path, input: &str) -> (String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
        .env("TABULEIRO_CACHE", dir)
        .env("RUST_LOG", "info")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().unwrap();
    stdin.write_all(input.as_bytes()).unwrap();
    drop(stdin);
    let out = process::lines_of(child.stdout.take().unwrap());
    let err = process::lines_of(child.stderr.take().unwrap());
    process::wait_with_limit(&mut child, Duration::from_secs(60), "the engine");
    let text =
        |lines: std::sync::mpsc::Receiver<String>| lines.iter().collect::<Vec<_>>().join("\n");
    (text(out), text(err))
}

const SESSION_5X4: &str = "setoption name Game value linetris\n\
    setoption name RowClear value true\n\
    setoption name Rows value 5\n\
    setoption name Cols value 4\n\
    isready\n\
    position startpos\n\
    go solve\n\
    position startpos moves 1 1\n\
    go movetime 100\n";

#[test]
fn the_engine_loads_the_cache_file_of_its_board() {
    let dir = temp_dir("engine");
    // No file yet: 5 x 4 is built (in a tenth of a second) and not saved.
    let (out, err) = engine(&dir, SESSION_5X4);
    assert!(out.contains("info string solved win plies 29"), "{out}");
    assert!(err.contains("retrograde table built"), "{err}");
    assert!(!cache::path(&dir, 5, 4).exists());

    // With the file the example writes (`--save`), it is loaded.
    cache::save(&Table::build(5, 4), &dir).unwrap();
    let (loaded_out, err) = engine(&dir, SESSION_5X4);
    assert!(err.contains("retrograde table loaded from"), "{err}");
    assert!(
        loaded_out.contains("info string solved win plies 29"),
        "{loaded_out}"
    );
    // The same moves as from the built table.
    let bestmoves = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| l.starts_with("bestmove"))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(bestmoves(&loaded_out).len(), 2);
    assert_eq!(bestmoves(&loaded_out), bestmoves(&out));

    // A file of another board under this name is refused with a warning, and the
    // table built.
    cache::save(&Table::build(4, 4), &dir).unwrap();
    std::fs::rename(cache::path(&dir, 4, 4), cache::path(&dir, 5, 4)).unwrap();
    let (out, err) = engine(&dir, SESSION_5X4);
    assert!(err.contains("WARN") && err.contains("not 5 x 4"), "{err}");
    assert!(out.contains("info string solved win plies 29"), "{out}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// A `go` on the clock that comes before the table is ready (no `isready`) searches
/// without it once half its hard limit has passed, rather than wait for a build of
/// seconds (4 x 6 takes 20 s and more here) on its clock.
#[test]
fn a_clocked_go_does_not_wait_for_a_long_build() {
    let dir = temp_dir("no-wait");
    let started = std::time::Instant::now();
    let (out, err) = engine(
        &dir,
        "setoption name Game value linetris\n\
         setoption name RowClear value true\n\
         setoption name Rows value 4\n\
         setoption name Cols value 6\n\
         position startpos\n\
         go movetime 200\n",
    );
    let elapsed = started.elapsed();
    assert!(out.contains("bestmove "), "{out}");
    assert!(!out.contains("info string solved"), "{out}");
    assert!(!err.contains("retrograde table built"), "{err}");
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// `stop` ends a `go` that waits for a long build (a search with a depth limit waits
/// for the table in full): the wait looks at the stop flag while the build runs.
#[test]
fn stop_ends_the_wait_for_a_long_build() {
    let dir = temp_dir("stop");
    let started = std::time::Instant::now();
    let (out, err) = engine(
        &dir,
        "setoption name Game value linetris\n\
         setoption name RowClear value true\n\
         setoption name Rows value 4\n\
         setoption name Cols value 6\n\
         position startpos\n\
         go depth 3\n\
         stop\n",
    );
    let elapsed = started.elapsed();
    assert!(out.contains("bestmove "), "{out}");
    assert!(!err.contains("retrograde table built"), "{err}");
    assert!(elapsed < Duration::from_secs(15), "{elapsed:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}
