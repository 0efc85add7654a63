//! Smoke tests of the real binary over pipes: start, search control, exit.
//! Every wait has a timeout, so a hung engine fails the test instead of hanging CI.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

#[path = "common/hog.rs"]
mod hog;
#[path = "common/process.rs"]
mod process;
use hog::Hog;
use process::NotSeen;

const WAIT: Duration = Duration::from_secs(20);

struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    fn start(args: &[&str]) -> Engine {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("the binary starts");
        let lines = process::lines_of(child.stdout.take().expect("stdout is piped"));
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin is open");
        writeln!(stdin, "{line}").expect("the engine reads its input");
        stdin.flush().expect("flush");
    }

    /// Lines up to and including the first that starts with `prefix`.
    fn until(&self, prefix: &str) -> Vec<String> {
        match process::until(&self.lines, WAIT, |line| line.starts_with(prefix)) {
            Ok(seen) => seen,
            Err(NotSeen::Timeout(seen)) => panic!("no '{prefix}' line; saw {seen:?}"),
            Err(NotSeen::Closed(seen)) => {
                panic!("engine closed stdout before '{prefix}'; saw {seen:?}")
            }
        }
    }

    /// Lines that arrive within `window`.
    fn lines_within(&self, window: Duration) -> Vec<String> {
        let deadline = Instant::now() + window;
        let mut seen = Vec::new();
        while let Ok(line) = self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            seen.push(line);
        }
        seen
    }

    fn close_input(&mut self) {
        self.stdin = None;
    }

    fn exit_code(&mut self) -> i32 {
        let status = process::wait_with_limit(&mut self.child, WAIT, "the engine's exit");
        status.code().unwrap_or(-1)
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn end_of_input_quits_with_status_zero() {
    let mut engine = Engine::start(&[]);
    engine.send("ugi");
    let handshake = engine.until("ugiok");
    assert!(handshake.iter().any(|l| l.starts_with("id name tabuleiro")));
    engine.close_input();
    assert_eq!(engine.exit_code(), 0);
}

#[test]
fn stop_ends_go_infinite_with_exactly_one_bestmove() {
    let mut engine = Engine::start(&["--game", "neutreeko"]);
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
    let mut engine = Engine::start(&[]);
    engine.send("go infinite");
    std::thread::sleep(Duration::from_millis(100));
    let sent = Instant::now();
    engine.send("quit");
    assert_eq!(engine.exit_code(), 0);
    assert!(sent.elapsed() < Duration::from_secs(5));
}

#[test]
fn piped_script_runs_every_search_in_full() {
    let mut engine = Engine::start(&[]);
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
    let mut engine = Engine::start(&[]);
    let stdin = engine.stdin.as_mut().expect("stdin");
    stdin.write_all(b"\xff\xfe junk\n").expect("write");
    stdin.write_all(&vec![b'x'; 2 << 20]).expect("write");
    stdin.write_all(b"\nisready\n").expect("write");
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
    let mut engine = Engine::start(&["--game", "fabrik"]);
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
    let mut engine = Engine::start(&["--game", "fabrik"]);
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
