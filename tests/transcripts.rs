//! Protocol transcripts through an in-process session.
//!
//! Each file in `tests/transcripts/` is a conversation: `> line` is sent to the
//! session, `< line` is an expected reply. `...` inside an expected line matches any
//! text; a line `<...` alone matches any number of lines (including none). Search
//! `info depth` lines are ignored unless the file expects some. `#` starts a comment.
//! Every search is waited for before the output is compared, so the order is fixed.

#[path = "common/wildcard.rs"]
mod wildcard;

use std::fs;
use std::path::Path;

use tabuleiro::session::{Flow, Output, Session};

enum Expect {
    Line(String),
    AnyLines,
}

/// Matches output lines against expectations, with `AnyLines` backtracking.
fn matches_all(expect: &[Expect], output: &[String]) -> bool {
    match expect.split_first() {
        None => output.is_empty(),
        Some((Expect::AnyLines, rest)) => {
            (0..=output.len()).any(|skip| matches_all(rest, &output[skip..]))
        }
        Some((Expect::Line(pattern), rest)) => {
            !output.is_empty()
                && wildcard::matches(pattern, &output[0])
                && matches_all(rest, &output[1..])
        }
    }
}

fn run_transcript(path: &Path) -> Result<(), String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let (out, buffer) = Output::capture();
    let mut session = Session::new(out, "neutreeko")?;
    let mut expect = Vec::new();
    let mut wants_search_info = false;
    for line in text.lines() {
        if let Some(sent) = line
            .strip_prefix("> ")
            .or(line.strip_prefix(">").filter(|s| s.is_empty()))
        {
            if session.handle_line(sent) == Flow::Quit {
                break;
            }
        } else if line.trim_end() == "<..." {
            expect.push(Expect::AnyLines);
        } else if let Some(reply) = line.strip_prefix("< ") {
            wants_search_info |= reply.starts_with("info depth");
            expect.push(Expect::Line(reply.to_string()));
        } else if !line.trim().is_empty() && !line.starts_with('#') {
            return Err(format!("{}: unreadable line {line:?}", path.display()));
        }
    }
    session.wait_for_search();
    drop(session);
    let bytes = buffer.lock().map_err(|_| "output buffer poisoned")?.clone();
    let output: Vec<String> = String::from_utf8_lossy(&bytes)
        .lines()
        .filter(|line| wants_search_info || !line.starts_with("info depth"))
        .map(str::to_string)
        .collect();
    if matches_all(&expect, &output) {
        Ok(())
    } else {
        let expected: Vec<String> = expect
            .iter()
            .map(|e| match e {
                Expect::Line(line) => format!("< {line}"),
                Expect::AnyLines => "<...".to_string(),
            })
            .collect();
        Err(format!(
            "{}: output does not match.\n--- expected\n{}\n--- got\n{}",
            path.display(),
            expected.join("\n"),
            output.join("\n")
        ))
    }
}

#[test]
fn transcripts() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts");
    let mut files: Vec<_> = fs::read_dir(&dir)
        .expect("tests/transcripts exists")
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.extension().is_some_and(|ext| ext == "txt"))
        .collect();
    files.sort();
    assert!(
        files.len() >= 5,
        "expected the transcript files, found {files:?}"
    );
    let failures: Vec<String> = files
        .iter()
        .filter_map(|path| run_transcript(path).err())
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

#[test]
fn the_matcher_itself() {
    assert!(wildcard::matches("bestmove ...", "bestmove b1b4"));
    assert!(wildcard::matches("a...c...e", "abcde"));
    assert!(!wildcard::matches("a...c...e", "abde"));
    assert!(!wildcard::matches("bestmove b1b4", "bestmove b1b5"));
    let any = [Expect::AnyLines, Expect::Line("x".into())];
    assert!(matches_all(&any, &["a".into(), "b".into(), "x".into()]));
    assert!(!matches_all(&any, &["a".into()]));
}
