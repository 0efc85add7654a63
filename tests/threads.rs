//! Searches on several threads (`Threads`): the stress test of the protocol around them,
//! and what a multi-threaded search must still get right.
//!
//! The stress test drives an in-process session of every game with random sequences
//! of `position`, `go` (depth, nodes, movetime, infinite), `stop`, `isready`, `query`,
//! `ucinewgame` and `setoption name Threads` (1–8) without waiting for searches, and
//! checks: no panic, no hang, exactly one `bestmove` per `go`, and every bestmove legal
//! in the position its `go` searched.

use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use tabuleiro::game::{Game, Value};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Policy, Score, SearchLimits};
use tabuleiro::session::{Output, Session};

/// A session that takes longer than this over one game's sequence hangs.
const HANG: Duration = Duration::from_secs(240);

fn text_of(buffer: &Arc<Mutex<Vec<u8>>>) -> String {
    String::from_utf8_lossy(&buffer.lock().unwrap()).to_string()
}

/// One random session of `game`; returns the number of `go` commands sent and the
/// output.
fn random_session(game: &str, seed: u64, rounds: usize) -> (usize, String) {
    let (out, buffer) = Output::capture();
    let mut session = Session::new(out, game).unwrap();
    let mut rng = Xorshift::new(seed);
    let mut moves: Vec<String> = Vec::new();
    let mut gos = 0;
    session.handle_line("setoption name Tablebase value false");
    // Fabrik's middle game is slow to search: smaller limits there.
    let (max_depth, max_nodes) = if game == "fabrik" {
        (2, 3_000)
    } else {
        (5, 20_000)
    };
    for _ in 0..rounds {
        // A new position (waits for a bounded search, stops an infinite one), then its
        // legal moves, which the stream's checker reads before the next bestmove.
        if rng.below(4) == 0 || moves.len() > 30 {
            moves.clear();
        }
        let position = if moves.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", moves.join(" "))
        };
        session.handle_line(&position);
        let mark = buffer.lock().unwrap().len();
        session.handle_line("query moves");
        let reply = String::from_utf8_lossy(&buffer.lock().unwrap()[mark..]).to_string();
        let legal: Vec<String> = reply
            .trim()
            .strip_prefix("response")
            .unwrap_or("")
            .split_whitespace()
            .map(str::to_string)
            .collect();
        let go = match rng.below(5) {
            0 => format!("go depth {}", 1 + rng.below(max_depth)),
            1 => format!("go nodes {}", 100 + rng.below(max_nodes)),
            2 => format!("go movetime {}", 1 + rng.below(30)),
            3 => "go infinite".to_string(),
            _ => format!("go wtime {0} btime {0} winc 5 binc 5", 20 + rng.below(300)),
        };
        session.handle_line(&go);
        gos += 1;
        // Meanwhile: a few commands answered during the search, or that wait for it.
        for _ in 0..rng.below(4) {
            match rng.below(8) {
                0 => {
                    session.handle_line("stop");
                }
                1 | 2 => {
                    session.handle_line("isready");
                }
                3 => {
                    session.handle_line("query fen");
                }
                4 => {
                    let threads = 1 + rng.below(8);
                    session.handle_line(&format!("setoption name Threads value {threads}"));
                }
                5 => {
                    session.handle_line("ucinewgame");
                }
                6 => std::thread::sleep(Duration::from_millis(rng.below(20))),
                _ => {
                    session.handle_line("d");
                }
            }
        }
        if go == "go infinite" {
            std::thread::sleep(Duration::from_millis(rng.below(30)));
            session.handle_line("stop");
        }
        if !legal.is_empty() {
            moves.push(legal[rng.index(legal.len())].clone());
        }
    }
    session.stop_search();
    session.wait_for_search();
    drop(session);
    (gos, text_of(&buffer))
}

/// Checks the stream: every bestmove is one of the moves of the last `query moves`
/// reply before it (its `go`'s position), and there are `gos` of them.
fn check_stream(game: &str, gos: usize, output: &str) {
    let mut legal: Vec<&str> = Vec::new();
    let mut bestmoves = 0;
    for line in output.lines() {
        assert!(!line.contains("error"), "{game}: {line}");
        // A `query moves` reply (`response` alone when the game is over); not the
        // reply to `query fen`.
        if let Some(rest) = line.strip_prefix("response")
            && !rest.contains('/')
        {
            legal = rest.split_whitespace().collect();
        }
        if let Some(rest) = line.strip_prefix("bestmove ") {
            bestmoves += 1;
            let words: Vec<&str> = rest.split_whitespace().collect();
            assert_eq!(words.len(), 1, "{game}: {line}");
            if legal.is_empty() {
                assert_eq!(words[0], "0000", "{game}: {line}");
            } else {
                assert!(
                    legal.contains(&words[0]),
                    "{game}: {line} not in {legal:?}\n{output}"
                );
            }
        }
    }
    assert_eq!(bestmoves, gos, "{game}: one bestmove per go");
}

#[test]
fn random_sessions_on_many_threads_stay_sound() {
    for (index, game) in ["linetris", "talpa", "fabrik", "frozenforest", "neutreeko"]
        .into_iter()
        .enumerate()
    {
        let (done, finished) = mpsc::channel();
        std::thread::spawn(move || {
            let result = random_session(game, 0x5eed + index as u64, 80);
            let _ = done.send(result);
        });
        let (gos, output) = finished
            .recv_timeout(HANG)
            .unwrap_or_else(|_| panic!("{game}: the session hangs"));
        check_stream(game, gos, &output);
    }
}

/// A team of threads proves what one thread proves: a Neutreeko win in 5 (checked by
/// brute force in tests/search.rs) is found and proven with helpers on the shared
/// table, without the table of the game.
#[test]
fn helpers_keep_proofs_exact() {
    let root = Neutreeko::from_fen(&(), "4b/3w1/3b1/2w1w/4b w 29").unwrap();
    for threads in [1, 2, 4] {
        for limits in [
            SearchLimits {
                solve: true,
                ..SearchLimits::default()
            },
            SearchLimits {
                depth: Some(9),
                ..SearchLimits::default()
            },
        ] {
            let mut policy: Policy<Neutreeko> = Policy::standard(4, &());
            assert_eq!(policy.set_threads(threads), threads);
            let stop = Arc::new(AtomicBool::new(false));
            let result = policy.search(&root, &[root.hash()], limits, stop, &mut |_| {});
            assert_eq!(
                result.score,
                Score::Mate(5),
                "{threads} threads, {limits:?}"
            );
            if limits.solve {
                assert_eq!(result.proven, Some(Value::Win(5)), "{threads} threads");
            } else {
                assert!(matches!(result.proven, None | Some(Value::Win(5))));
            }
        }
    }
}
