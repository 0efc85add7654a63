//! The `Tablebase` option in every game with exact knowledge: on, a position the
//! game's solver or table answers at once is played from it (one `info` line, its
//! exact score); off, the same position is searched (iterative deepening from depth
//! 1), and nothing is built. Bad values are refused.
//!
//! These are what `examples/agreement.rs` relies on: it measures the search with the
//! option off against the exact values.

use std::sync::{Arc, Mutex};

use tabuleiro::game::Game;
use tabuleiro::games::frozenforest::FrozenForest;
use tabuleiro::games::linetris::Linetris;
use tabuleiro::games::talpa::Talpa;
use tabuleiro::options::config_from_pairs;
use tabuleiro::session::{Output, Session};

struct Driver {
    session: Session,
    buffer: Arc<Mutex<Vec<u8>>>,
}

impl Driver {
    fn new(game: &str) -> Driver {
        let (out, buffer) = Output::capture();
        let session = Session::new(out, game).expect("a game");
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

/// The `info depth` lines of a search.
fn depth_lines(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info depth "))
        .collect()
}

/// `position startpos moves …` after `plies` plies of `G` under `options`, each the
/// middle one of the legal moves.
fn after<G: Game>(options: &[(&str, &str)], plies: usize) -> String {
    let config = config_from_pairs::<G>(options).expect("good options");
    let mut state = G::start(&config);
    let mut moves = Vec::new();
    let mut played = Vec::new();
    for _ in 0..plies {
        moves.clear();
        state.generate_moves(&mut moves);
        let mv = moves[moves.len() / 2];
        played.push(state.format_move(mv));
        state.play(mv);
    }
    assert!(state.outcome().is_none());
    format!("position startpos moves {}", played.join(" "))
}

/// Searches `position` (a `position …` line) with the option on, then off, then on
/// again, and checks that only the searches with it on are answered by the oracle.
fn on_and_off(game: &str, setup: &[&str], position: &str, go: &str) {
    let mut driver = Driver::new(game);
    let mut lines: Vec<&str> = vec!["ugi"];
    lines.extend_from_slice(setup);
    lines.push("isready");
    let answer = driver.send(&lines);
    assert!(
        answer
            .iter()
            .any(|l| l == "option name Tablebase type check default true"),
        "{answer:?}"
    );
    assert_eq!(answer.last().map(String::as_str), Some("readyok"));

    let oracle = |lines: &[String]| {
        let depths = depth_lines(lines);
        assert_eq!(depths.len(), 1, "answered by the oracle: {lines:?}");
        assert!(
            depths[0].contains(" score mate ") || depths[0].contains(" score cp 0 "),
            "an exact score: {lines:?}"
        );
    };
    let on = driver.send(&[position, go]);
    oracle(&on);

    let off = driver.send(&[
        "setoption name Tablebase value false",
        "isready",
        position,
        go,
    ]);
    assert!(!off.iter().any(|l| l.contains("error")), "{off:?}");
    let depths = depth_lines(&off);
    assert!(depths.len() >= 2, "searched: {off:?}");
    assert!(depths[0].starts_with("info depth 1 "), "{off:?}");
    assert!(off.iter().any(|l| l.starts_with("bestmove ")), "{off:?}");

    // A bad value is refused and changes nothing (still off).
    let bad = driver.send(&["setoption name Tablebase value maybe"]);
    assert!(
        bad.iter()
            .any(|l| l.starts_with("info string error: ") && l.contains("Tablebase")),
        "{bad:?}"
    );
    let still_off = driver.send(&["isready", position, go]);
    assert!(depth_lines(&still_off).len() >= 2, "{still_off:?}");

    let again = driver.send(&[
        "setoption name Tablebase value true",
        "isready",
        position,
        go,
    ]);
    oracle(&again);
}

#[test]
fn talpa_4x4_solver_is_switched_off() {
    // A few plies into the game: the solver proves it in a few milliseconds.
    let position = after::<Talpa>(&[("Size", "4")], 4);
    on_and_off(
        "talpa",
        &["setoption name Size value 4"],
        &position,
        "go movetime 2000",
    );
}

#[test]
fn connect_four_solver_is_switched_off() {
    // Connect Four 4×4 after two plies: the solver on the clock proves it at once.
    let position = after::<Linetris>(&[("Rows", "4"), ("Cols", "4"), ("RowClear", "false")], 2);
    on_and_off(
        "linetris",
        &[
            "setoption name Rows value 4",
            "setoption name Cols value 4",
            "setoption name RowClear value false",
        ],
        &position,
        "go movetime 2000",
    );
}

#[test]
fn row_clear_table_is_switched_off() {
    // Linetris 4×4 with the row clear: the retrograde table (built in about 0.1 s).
    let position = after::<Linetris>(&[("Rows", "4"), ("Cols", "4")], 2);
    on_and_off(
        "linetris",
        &["setoption name Rows value 4", "setoption name Cols value 4"],
        &position,
        "go movetime 2000",
    );
}

#[test]
fn frozen_forest_solver_is_switched_off() {
    // Trees 4 after both placements and a step of Yuki's, Mina to move (Yuki's searches are
    // MCTS, whose `info` lines do not start at depth 1): the prover on the clock.
    let position = after::<FrozenForest>(&[("Trees", "4")], 3);
    on_and_off(
        "frozenforest",
        &["setoption name Trees value 4"],
        &position,
        "go movetime 2000",
    );
}

#[test]
fn the_option_off_builds_no_table() {
    // Off before the game is chosen: isready answers at once and the row-clear table
    // of 4×4 is never built (the search plays; no `tablebase draw` note).
    let mut driver = Driver::new("neutreeko");
    let lines = driver.send(&[
        "setoption name Tablebase value false",
        "setoption name Game value linetris",
        "setoption name Rows value 4",
        "setoption name Cols value 4",
        "isready",
        "position startpos",
        "go depth 2",
    ]);
    assert!(lines.iter().any(|l| l == "readyok"), "{lines:?}");
    assert!(!lines.iter().any(|l| l.contains("tablebase")), "{lines:?}");
    assert!(
        depth_lines(&lines)[0].starts_with("info depth 1 "),
        "{lines:?}"
    );
}
