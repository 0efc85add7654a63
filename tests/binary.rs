//! Smoke tests of the real binary over pipes: start, search control, exit.
//! Every wait has a timeout, so a hung engine fails the test instead of hanging CI.

use std::io::Write;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[path = "common/hog.rs"]
mod hog;
#[path = "common/process.rs"]
mod process;
use hog::Hog;
use process::Engine;

const WAIT: Duration = Duration::from_secs(20);

/// The binary with `args`, every wait bounded by [`WAIT`].
fn start(args: &[&str]) -> Engine {
    Engine::start(args, WAIT)
}

#[test]
fn end_of_input_quits_with_status_zero() {
    let mut engine = start(&[]);
    engine.send("ugi");
    let handshake = engine.until("ugiok");
    assert!(handshake.iter().any(|l| l.starts_with("id name tabuleiro")));
    engine.close_input();
    assert_eq!(engine.exit_code(), 0);
}

#[test]
fn stop_ends_go_infinite_with_exactly_one_bestmove() {
    let mut engine = start(&["--game", "neutreeko"]);
    engine.send("position startpos");
    engine.send("go infinite");
    let early = engine.lines_within(Duration::from_millis(300));
    assert!(
        !early.iter().any(|l| l.starts_with("bestmove")),
        "bestmove before stop: {early:?}"
    );
    engine.send("isready");
    let before_ready = engine.until("readyok");
    assert!(!before_ready.iter().any(|l| l.starts_with("bestmove")));
    engine.send("stop");
    let reply = engine.until("bestmove");
    let last = reply.last().expect("a bestmove line");
    assert_eq!(last.split_whitespace().count(), 2, "{last}");
    assert_ne!(last, "bestmove 0000");
    let after = engine.lines_within(Duration::from_millis(300));
    assert!(
        !after.iter().any(|l| l.starts_with("bestmove")),
        "{after:?}"
    );
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
}

#[test]
fn quit_during_a_search_exits_promptly() {
    let mut engine = start(&[]);
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
    assert!(sent.elapsed() < Duration::from_secs(5));
}

/// Issue 32.1: a command that waits for a search used to stop the reading of input,
/// so a later `stop` was never seen and the engine hung.
#[test]
fn stop_reaches_a_search_behind_a_waiting_command() {
    let mut engine = start(&[]);
    engine.send("game talpa");
    engine.send("position startpos");
    engine.send("go depth 40");
    std::thread::sleep(Duration::from_millis(300));
    engine.send("position startpos moves d3d4");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    engine.send("isready");
    // A generous bound for a loaded machine; the stop itself takes milliseconds.
    let reply = engine.within(Duration::from_secs(3), "readyok");
    let bestmoves: Vec<&String> = reply.iter().filter(|l| l.starts_with("bestmove")).collect();
    assert_eq!(bestmoves.len(), 1, "{reply:?}");
    assert!(
        reply.iter().position(|l| l.starts_with("bestmove")) < Some(reply.len() - 1),
        "bestmove comes before readyok: {reply:?}"
    );
    // The waiting `position` was carried out after the bestmove.
    engine.send("query fen");
    let fen = engine.within(Duration::from_secs(3), "response");
    assert!(fen.last().is_some_and(|l| l.ends_with(" b 1")), "{fen:?}");
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
}

/// Lines that wait for a search run the moment it ends, not at the next input line;
/// `isready` and `query` with nothing waiting are answered during the search.
#[test]
fn waiting_lines_run_when_the_search_ends() {
    let mut engine = start(&[]);
    engine.send("setoption name Tablebase value false");
    engine.send("position startpos");
    engine.send("isready");
    engine.until("readyok");
    engine.send("go movetime 400");
    engine.send("query fen");
    engine.send("isready");
    let during = engine.within(Duration::from_millis(300), "readyok");
    assert!(
        !during.iter().any(|l| l.starts_with("bestmove")),
        "{during:?}"
    );
    assert!(
        during
            .iter()
            .any(|l| l == "response 1w1w1/2b2/5/2w2/1b1b1 b 0"),
        "{during:?}"
    );
    engine.send("position startpos moves b1c1");
    engine.send("query fen");
    let after = engine.within(Duration::from_secs(3), "response");
    let at = after.iter().position(|l| l.starts_with("bestmove"));
    assert!(at.is_some_and(|at| at + 2 == after.len()), "{after:?}");
    assert_eq!(
        after.last().map(String::as_str),
        Some("response 1w1w1/2b2/5/2w2/2bb1 w 1"),
        "{after:?}"
    );
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
}

/// A `go` that waited for another search gets its own time: its clock starts when it
/// starts, not when its line arrived.
#[test]
fn a_waiting_go_has_its_own_time() {
    // Frozen Forest's Yuki (Monte-Carlo tree search) uses its move time in full.
    let mut engine = start(&["--game", "frozenforest"]);
    engine.send("position startpos");
    engine.send("isready");
    engine.until("readyok");
    engine.send("go movetime 400");
    engine.send("go movetime 400");
    engine.within(Duration::from_secs(5), "bestmove");
    let first_done = Instant::now();
    engine.within(Duration::from_secs(5), "bestmove");
    // Timed from its arrival it would have had no time left at all.
    assert!(
        first_done.elapsed() > Duration::from_millis(100),
        "{:?}",
        first_done.elapsed()
    );
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
}

/// `stop` ends every task asked for before it: the running search at once, a `go`
/// waiting behind it as soon as it starts; each gets its one `bestmove`.
#[test]
fn stop_ends_the_waiting_searches_too() {
    let mut engine = start(&["--game", "talpa"]);
    engine.send("position startpos");
    engine.send("go depth 40");
    engine.send("position startpos moves d3d4");
    engine.send("go depth 40");
    std::thread::sleep(Duration::from_millis(200));
    engine.send("stop");
    engine.send("isready");
    let reply = engine.within(Duration::from_secs(3), "readyok");
    let bestmoves = reply.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 2, "{reply:?}");
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
}

/// Issue 32.6: `isready` during `bench` took 0.3-0.65 s (it waited for the start
/// game's table, which `bench` does not use).
#[test]
fn isready_during_bench_is_prompt() {
    let mut engine = start(&[]);
    engine.send("bench");
    std::thread::sleep(Duration::from_millis(50));
    let mut latencies = Vec::new();
    for _ in 0..7 {
        let sent = Instant::now();
        engine.send("isready");
        engine.within(Duration::from_secs(5), "readyok");
        latencies.push(sent.elapsed());
        std::thread::sleep(Duration::from_millis(50));
    }
    latencies.sort();
    // Generous for a loaded machine: prompt means well under this.
    assert!(latencies[3] < Duration::from_millis(100), "{latencies:?}");
    engine.send("stop");
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
}

/// `RUST_LOG=debug` marks what the engine was sent `>` and what it says `<`, as the
/// transcripts in the docs and tests do; stdout carries only the protocol (no banner
/// in a pipe).
#[test]
fn the_debug_log_marks_input_and_output_as_the_transcripts_do() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
        .env("RUST_LOG", "debug")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("stdin is piped");
    stdin.write_all(b"isready\nquit\n").expect("write");
    drop(stdin);
    let output = child.wait_with_output().expect("the engine exits");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert_eq!(stdout, "readyok\n");
    let log = String::from_utf8_lossy(&output.stderr);
    let lines: Vec<&str> = log.lines().collect();
    assert!(lines.iter().any(|l| l.ends_with("] > isready")), "{log}");
    assert!(lines.iter().any(|l| l.ends_with("] < readyok")), "{log}");
}

#[test]
fn piped_script_runs_every_search_in_full() {
    let mut engine = start(&[]);
    // (tablebase) The Neutreeko table would answer at depth 1: search for real.
    engine.send("setoption name Tablebase value false");
    engine.send("position startpos");
    engine.send("go depth 6");
    engine.send("go depth 4");
    engine.close_input();
    let first = engine.until("bestmove");
    assert!(
        first.iter().any(|l| l.starts_with("info depth 6 ")),
        "{first:?}"
    );
    let second = engine.until("bestmove");
    assert!(
        second.iter().any(|l| l.starts_with("info depth 4 ")),
        "{second:?}"
    );
    assert_eq!(engine.exit_code(), 0);
}

#[test]
fn bad_bytes_and_huge_lines_are_errors_not_crashes() {
    let mut engine = start(&[]);
    engine.send_bytes(b"\xff\xfe junk\n");
    engine.send_bytes(&vec![b'x'; 2 << 20]);
    engine.send_bytes(b"\nisready\n");
    let lines = engine.until("readyok");
    let errors = lines
        .iter()
        .filter(|l| l.starts_with("info string error:"))
        .count();
    assert_eq!(errors, 2, "{lines:?}");
}

#[test]
fn help_and_unknown_arguments() {
    let help = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
        .arg("--help")
        .output()
        .expect("runs");
    assert!(help.status.success());
    assert!(String::from_utf8_lossy(&help.stdout).contains("Usage:"));
    let bad = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
        .args(["--game", "chess"])
        .output()
        .expect("runs");
    assert_eq!(bad.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&bad.stderr).contains("unknown game 'chess'"));
}

#[test]
fn bench_from_the_shell_is_deterministic() {
    let run = || {
        let output = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
            .args(["bench", "4"])
            .output()
            .expect("runs");
        assert!(output.status.success());
        let text = String::from_utf8_lossy(&output.stdout).to_string();
        let last = text.lines().last().unwrap_or_default().to_string();
        let words: Vec<&str> = last.split_whitespace().collect();
        assert_eq!(words.len(), 4, "{last}");
        assert_eq!((words[1], words[3]), ("nodes", "nps"), "{last}");
        words[0].parse::<u64>().expect("a node count")
    };
    let first = run();
    assert!(first > 0);
    assert_eq!(first, run());
}

#[test]
fn bench_help_prints_its_usage() {
    let help = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
        .args(["bench", "--help"])
        .output()
        .expect("runs");
    assert!(help.status.success());
    let text = String::from_utf8_lossy(&help.stdout);
    assert!(text.contains("Usage: tabuleiro bench [DEPTH]"), "{text}");
}

/// The only first moves of Neutreeko that do not lose (SPEC: the start is a draw).
const DRAWING_FIRST_MOVES: [&str; 2] = ["b1c1", "d1c1"];

/// A fresh engine's first Neutreeko move after `isready`, at `go movetime 10`.
fn first_neutreeko_move() -> String {
    let mut engine = start(&["--game", "fabrik"]);
    engine.send("setoption name Game value neutreeko");
    engine.send("isready");
    engine.until("readyok");
    engine.send("position startpos");
    engine.send("go movetime 10");
    let lines = engine.until("bestmove");
    engine.send("quit");
    let last = lines.last().cloned().unwrap_or_default();
    last.trim_start_matches("bestmove ").to_string()
}

#[test]
fn a_fresh_engine_plays_from_its_table_after_isready() {
    // Before, the table was built in the background and a clocked search ran without
    // it until it was ready: b1b4, a proven loss.
    let mv = first_neutreeko_move();
    assert!(DRAWING_FIRST_MOVES.contains(&mv.as_str()), "{mv}");
    let _hog = Hog::start();
    let mv = first_neutreeko_move();
    assert!(
        DRAWING_FIRST_MOVES.contains(&mv.as_str()),
        "under load: {mv}"
    );
}

#[test]
fn a_clock_of_increments_alone_still_ends_the_search() {
    // It once searched for ever: no time left given meant no time limit.
    let mut engine = start(&["--game", "fabrik"]);
    engine.send("position startpos moves f6 d4 pass");
    engine.send("go p1inc 100 p2inc 100");
    let lines = engine.until("bestmove");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
    engine.send("go p2time 200");
    let lines = engine.until("bestmove");
    assert!(lines.last().is_some_and(|l| l.starts_with("bestmove ")));
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
}
