//! The Neutreeko tablebase through the protocol: the `Tablebase` option, the build on
//! `isready` and not before, `score mate N` / `score cp 0` with `info string tablebase
//! draw`, `go solve` at once, and `bench` unaffected by the table.
//!
//! The table belongs to the session's engine: everything runs in one session, step
//! by step.

use std::sync::{Arc, Mutex};

use tabuleiro::game::{Game, Value, default_config};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::games::neutreeko::tablebase::Table;
use tabuleiro::session::{Output, Session};

struct Driver {
    session: Session,
    buffer: Arc<Mutex<Vec<u8>>>,
}

impl Driver {
    fn new() -> Driver {
        let (out, buffer) = Output::capture();
        let session = Session::new(out, "neutreeko").expect("neutreeko is a game");
        Driver { session, buffer }
    }

    /// Sends lines, waits for a search they started, and returns what came out.
    fn send(&mut self, lines: &[&str]) -> Vec<String> {
        for line in lines {
            self.session.handle_line(line);
        }
        self.session.wait_for_search();
        let mut buffer = self.buffer.lock().expect("not poisoned");
        let text = String::from_utf8_lossy(&buffer).to_string();
        buffer.clear();
        text.lines().map(str::to_string).collect()
    }
}

fn has(lines: &[String], wanted: &str) -> bool {
    lines.iter().any(|l| l == wanted)
}

fn bestmove(lines: &[String]) -> String {
    let found: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("bestmove "))
        .collect();
    assert_eq!(found.len(), 1, "{lines:?}");
    found[0]["bestmove ".len()..].to_string()
}

/// The `score …` of the last `info` line with a score.
fn score(lines: &[String]) -> String {
    let line = lines
        .iter()
        .rev()
        .find(|l| l.contains(" score "))
        .unwrap_or_else(|| panic!("no score in {lines:?}"));
    let words: Vec<&str> = line.split_whitespace().collect();
    let at = words.iter().position(|&w| w == "score").expect("score");
    format!("{} {}", words[at + 1], words[at + 2])
}

fn bench_nodes(lines: &[String]) -> String {
    let last = lines.last().expect("a summary line");
    last.split_whitespace().next().expect("a count").to_string()
}

#[test]
fn the_tablebase_through_the_protocol() {
    let mut driver = Driver::new();

    // Advertised, and nothing built before the first isready (the UGI rule).
    let lines = driver.send(&["ugi", "position startpos"]);
    assert!(
        has(&lines, "option name Tablebase type check default true"),
        "{lines:?}"
    );
    // bench before the table exists.
    let before = driver.send(&["bench 2"]);

    // isready starts the build and answers at once; go depth waits for the table.
    let lines = driver.send(&["isready"]);
    assert_eq!(lines, vec!["readyok".to_string()]);
    let lines = driver.send(&["position startpos", "go depth 3"]);
    assert_eq!(score(&lines), "cp 0");
    assert!(has(&lines, "info string tablebase draw"), "{lines:?}");
    assert!(["b1c1", "d1c1"].contains(&bestmove(&lines).as_str()));

    // go solve answers from the table.
    let lines = driver.send(&["go solve"]);
    assert!(has(&lines, "info string solved draw plies 0"), "{lines:?}");
    assert!(has(&lines, "info string tablebase draw"), "{lines:?}");

    // A win in one for white.
    let lines = driver.send(&["position startpos moves c4e4", "go solve"]);
    assert_eq!(score(&lines), "mate 1");
    assert!(has(&lines, "info string solved win plies 1"), "{lines:?}");
    assert_eq!(bestmove(&lines), "c2c5");
    assert!(!has(&lines, "info string tablebase draw"));

    // A long win: the exact distance, and a move that keeps it.
    let lines = driver.send(&["position startpos moves b1b4", "go movetime 50"]);
    assert_eq!(score(&lines), "mate 21");
    let mut state = Neutreeko::start(&default_config::<Neutreeko>());
    state.play(state.parse_move("b1b4").expect("syntax"));
    let mv = state.legal_move(&bestmove(&lines)).expect("legal");
    state.play(mv);
    let table = Table::build(1).expect("built");
    assert_eq!(table.probe(&state), Some(Value::Loss(20)));
    // ... and from the loser's side: the slowest loss, as a negative mate.
    let pv: Vec<String> = lines
        .iter()
        .rev()
        .find(|l| l.contains(" pv "))
        .map(|l| l.split(" pv ").nth(1).unwrap_or("").to_string())
        .into_iter()
        .collect();
    let reply = pv[0]
        .split_whitespace()
        .next()
        .expect("a pv move")
        .to_string();
    let lines = driver.send(&[
        &format!("position startpos moves b1b4 {reply}"),
        "go nodes 100",
    ]);
    assert_eq!(score(&lines), "mate -20");

    // The same answer every time for a fixed node count.
    let first = driver.send(&["uginewgame", "position startpos", "go nodes 5000"]);
    let second = driver.send(&["uginewgame", "position startpos", "go nodes 5000"]);
    assert_eq!(bestmove(&first), bestmove(&second));
    assert_eq!(score(&first), score(&second));

    // bench does not use the table.
    let after = driver.send(&["bench 2"]);
    assert_eq!(bench_nodes(&before), bench_nodes(&after));

    // Off: the search plays without it.
    let lines = driver.send(&[
        "setoption name Tablebase value false",
        "ugi",
        "position startpos",
        "go depth 2",
    ]);
    assert!(has(
        &lines,
        "option name Tablebase type check default false"
    ));
    assert!(!has(&lines, "info string tablebase draw"), "{lines:?}");
    assert!(
        lines.iter().any(|l| l.starts_with("info depth 2 ")),
        "{lines:?}"
    );
    let lines = driver.send(&["setoption name Tablebase value maybe"]);
    assert!(lines[0].starts_with("info string error"), "{lines:?}");
    let lines = driver.send(&["setoption name tablebase value TRUE", "go depth 2"]);
    assert!(has(&lines, "info string tablebase draw"), "{lines:?}");
}
