//! Arbitrary command sequences through an in-process session (searches capped at
//! depth 3 or 200 nodes, `Threads` at 4). The session is a light one
//! ([`Session::for_fuzzing`]: a 1 MiB table, the Neutreeko tablebase off; a line that
//! turns it on is dropped, as it would cost seconds), so that an input costs what its
//! lines ask for, not a table build.
//! Invariants: every `go` that parses gets exactly one `bestmove` (none for `go perft`),
//! every reply line is well formed, and a line answered with an error leaves the
//! position unchanged (except `position`, whose illegal-move rule may change it).
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabuleiro::protocol::{Command, Go, parse_command};
use tabuleiro::session::{Output, Session};

/// Keeps searches short: depth and node limits are capped, time limits dropped.
fn tame(line: &str) -> Option<String> {
    match parse_command(line) {
        Ok(Some(Command::Go(Go::Search(mut limits)))) => {
            limits.infinite = false;
            limits.p1time = None;
            limits.p2time = None;
            limits.movetime = None;
            // A fixed depth stays small; without one, the node cap alone bounds the
            // search, so that Monte-Carlo tree search (never used for `go depth`) is
            // fuzzed too.
            limits.depth = limits.depth.map(|depth| depth.min(3));
            limits.nodes = Some(limits.nodes.unwrap_or(100).min(200));
            Some(Command::Go(Go::Search(limits)).to_string())
        }
        Ok(Some(Command::Go(Go::Perft(depth)))) => Some(format!("go perft {}", depth.min(2))),
        Ok(Some(Command::Go(Go::Solve))) => None,
        Ok(Some(Command::Bench { .. })) => None,
        Ok(Some(Command::SetOption { name, .. })) if name.eq_ignore_ascii_case("hash") => None,
        // The Neutreeko tablebase takes seconds to build (instrumented): an input that
        // turned it on would slow every one of its mutations as much. Its probes are
        // covered by the unit tests; bad values are still errors to exercise.
        Ok(Some(Command::SetOption { name, value }))
            if name.eq_ignore_ascii_case("tablebase")
                && value
                    .as_deref()
                    .is_some_and(|v| v.eq_ignore_ascii_case("true")) =>
        {
            None
        }
        // Threads stay within 1-4 (bad values are kept: they are errors to exercise).
        Ok(Some(Command::SetOption { name, value })) if name.eq_ignore_ascii_case("threads") => {
            match value.as_deref().map(str::parse::<u64>) {
                Some(Ok(n)) if n > 4 => Some("setoption name Threads value 4".to_string()),
                _ => Some(line.to_string()),
            }
        }
        _ => Some(line.to_string()),
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let (out, buffer) = Output::capture();
    let Ok(mut session) = Session::for_fuzzing(out, "neutreeko") else {
        return;
    };
    let mut gos = 0;
    for raw in text.lines().take(40) {
        let Some(line) = tame(raw) else { continue };
        let searches = matches!(parse_command(&line), Ok(Some(Command::Go(Go::Search(_)))));
        let changes_position = matches!(
            parse_command(&line),
            Ok(Some(
                Command::Position { .. } | Command::SetOption { .. } | Command::Game(_)
            ))
        );
        session.wait_for_search();
        let before_len = buffer.lock().map(|b| b.len()).unwrap_or(0);
        session.handle_line("query fen");
        session.wait_for_search();
        let fen_before = String::from_utf8_lossy(&buffer.lock().unwrap()[before_len..]).to_string();
        let mark = buffer.lock().map(|b| b.len()).unwrap_or(0);
        session.handle_line(&line);
        session.wait_for_search();
        if searches {
            gos += 1;
        }
        let reply = String::from_utf8_lossy(&buffer.lock().unwrap()[mark..]).to_string();
        if reply.contains("info string error:") && !changes_position {
            let mark = buffer.lock().map(|b| b.len()).unwrap_or(0);
            session.handle_line("query fen");
            let fen_after = String::from_utf8_lossy(&buffer.lock().unwrap()[mark..]).to_string();
            assert_eq!(
                fen_before, fen_after,
                "position changed after an error in {line:?}"
            );
        }
    }
    session.stop_search();
    drop(session);
    let output = String::from_utf8_lossy(&buffer.lock().unwrap()).to_string();
    let mut bestmoves = 0;
    for line in output.lines() {
        let first = line.split_whitespace().next().unwrap_or("");
        assert!(
            [
                "id", "option", "ugiok", "uciok", "readyok", "bestmove", "info", "response",
                "Fen:", "Game:", "total:",
            ]
            .contains(&first)
                || line.starts_with(' ')
                || line.contains(": "),
            "malformed reply line {line:?}"
        );
        if first == "bestmove" {
            assert_eq!(line.split_whitespace().count(), 2, "{line:?}");
            bestmoves += 1;
        }
    }
    assert_eq!(bestmoves, gos, "one bestmove per go");
});
