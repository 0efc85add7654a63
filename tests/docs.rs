//! The command examples of README.md, protocol.md and docs/*.md, run against the
//! release binary: the day an example no longer prints what the docs say, this fails.
//!
//! Markup the runner reads (fenced blocks at the start of a line):
//! - **Shell example**: a block tagged `sh`. It runs under `bash` in a scratch directory,
//!   with the crate's binary first on `PATH` as `tabuleiro` (`cargo run --release` and
//!   `cargo run --release --example NAME [--]` are read as that binary and the built
//!   example). When the next block (only blank lines between) is tagged `text`, that is
//!   its output, stdout and stderr together; otherwise it must exit with status 0.
//! - **Session**: a block whose first line starts with `$ `: that line (and lines after a
//!   trailing `\`) is the command, the rest of the block its output.
//! - **UGI transcript**: a block with lines starting `> `: those lines are typed into a
//!   fresh `tabuleiro` (no arguments, input then closed); every other line is a reply
//!   expected on stdout, in order (a leading `< ` is dropped).
//!
//! In expected lines `…` (or `...`) matches any text, and a line that is only `…` any
//! number of lines. Volatile fields are masked on both sides before comparing: the
//! number after `nps`, `time` and `hashfull`; durations (`0.4 s`, `5 ms`, `15 ns`); the
//! JSON `"game"` (the order games finish in), `"ms"` and `"move_ms"`; runs of spaces
//! count as one. Other blocks (synopses,
//! output shown without its command, JSON) are not examples. Examples that cannot run
//! here are listed in `SKIPPED`, with the reason. Not read: docs/experiments/, the lab
//! notes of past measurements (matches of an hour against builds of their day).
//!
//! `DOCS_BLESS=1 cargo test --release --test docs` rewrites the expected output of every
//! failing example with what the binary printed, keeping each documented line that
//! still matches (so masked fields keep their documented values). In a transcript the
//! replies are put back after the same commands as before, the surplus after the last:
//! check the diff.

#[path = "common/wildcard.rs"]
mod wildcard;

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Examples that do not run in the tests: (file, text of the command, why).
const SKIPPED: &[(&str, &str, &str)] = &[
    (
        "README.md",
        "cargo install --path .",
        "installs into ~/.cargo/bin",
    ),
    ("README.md", "cargo fmt --check", "the test command itself"),
    (
        "docs/match.md",
        "base=$(scripts/baseline)",
        "builds another commit (minutes) and plays 400 games",
    ),
    (
        "docs/match.md",
        "scripts/clock-torture ",
        "minutes to hours with every core busy",
    ),
    (
        "docs/match.md",
        "cargo test --release --test clock_torture",
        "a test of the suite already",
    ),
    (
        "docs/match.md",
        "--game G --engine",
        "a pattern (G stands for each game); the table gives the results",
    ),
    (
        "docs/play.md",
        "--p1 engine --p2 engine --movetime 200",
        "a whole Fabrik game, engine against itself (minutes)",
    ),
    (
        "docs/solved.md",
        "scripts/connect-four-sizes",
        "builds with cargo itself; the larger boards take hours",
    ),
    (
        "docs/solved.md",
        "connect_four_book",
        "builds opening books: minutes to hours",
    ),
    (
        "docs/solved.md",
        "scripts/connect-four-vs-pons",
        "needs Pascal Pons' solver fetched and built; minutes",
    ),
    (
        "docs/solved.md",
        "frozenforest_solve -- start 5",
        "minutes to hours",
    ),
    (
        "docs/solved.md",
        "cargo test --release --test fabrik",
        "a test of the suite already",
    ),
    (
        "docs/solved.md",
        "--option Trees=5 --fen",
        "the Trees 5 demonstration: minutes of solving",
    ),
    (
        "docs/solved.md",
        "--seconds 60 --table 24",
        "the deeper job lists and samples of Trees 6 and Talpa 6x6 jobs: minutes",
    ),
    (
        "docs/strength.md",
        "threads_speedup",
        "a timing measurement (minutes; the figures depend on the machine)",
    ),
    (
        "docs/strength.md",
        "fabrik_depth",
        "a timing measurement (the figures depend on the machine)",
    ),
    (
        "docs/strength.md",
        "tabuleiro match",
        "matches on the clock of hundreds of games (an hour or more each)",
    ),
    (
        "docs/strength.md",
        "frozenforest_match",
        "200 pairs on the clock (an hour)",
    ),
    (
        "docs/strength.md",
        "depth_at_movetime",
        "a timing measurement (the depths depend on the machine)",
    ),
    (
        "docs/strength.md",
        "scripts/weak-opponents",
        "750 games on the clock (hours)",
    ),
    ("docs/strength.md", "neutreeko_agreement", "minutes"),
    ("docs/strength.md", "neutreeko_tune", "a tuning run (hours)"),
    (
        "docs/strength.md",
        "--example agreement",
        "1,000 searches on the clock a set (minutes to an hour)",
    ),
];

/// How long one example may run before it counts as hung.
const TIMEOUT: Duration = Duration::from_secs(90);

#[derive(Debug, Clone, Copy, PartialEq)]
enum Kind {
    /// A `sh` block: `command` runs under bash.
    Shell,
    /// `> ` lines typed into `tabuleiro`.
    Transcript,
}

/// One example found in a document.
#[derive(Debug)]
struct Example {
    kind: Kind,
    /// The shell command, or the typed lines.
    input: Vec<String>,
    /// The expected output, `None` when only the exit status is checked.
    expected: Option<Vec<String>>,
    /// 0-based line range of the expected lines in the file (to rewrite them).
    lines: (usize, usize),
    /// The first line of the example's block, 1-based, for messages.
    at: usize,
    /// For transcripts: how many expected lines follow each typed line.
    slots: Vec<usize>,
    /// For transcripts: the block's lines, to rebuild it when blessing.
    block: Vec<String>,
}

/// A fenced block: its info string, its lines and where they are.
struct Block {
    info: String,
    body: Vec<String>,
    /// 0-based index of the first body line.
    start: usize,
}

fn blocks(text: &str) -> Vec<Block> {
    let mut out = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        if let Some(rest) = line.strip_prefix("```") {
            match open.take() {
                Some(block) => out.push(block),
                None => {
                    open = Some(Block {
                        info: rest.trim().to_string(),
                        body: Vec::new(),
                        start: i + 1,
                    })
                }
            }
        } else if let Some(block) = open.as_mut() {
            block.body.push(line.to_string());
        }
    }
    out
}

/// The lines of a command as one text (bash reads the `\` continuations itself).
fn join_continued(lines: &[String]) -> String {
    lines.join("\n")
}

fn examples(text: &str) -> Vec<Example> {
    let blocks = blocks(text);
    let all_lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < blocks.len() {
        let block = &blocks[i];
        let at = block.start;
        if block.info == "sh" {
            let next = blocks.get(i + 1).filter(|next| {
                next.info == "text"
                    && all_lines[block.start + block.body.len() + 1..next.start - 1]
                        .iter()
                        .all(|l| l.trim().is_empty())
            });
            let input: Vec<String> = block.body.clone();
            match next {
                Some(next) => {
                    out.push(Example {
                        kind: Kind::Shell,
                        input,
                        expected: Some(next.body.clone()),
                        lines: (next.start, next.start + next.body.len()),
                        at,
                        slots: Vec::new(),
                        block: Vec::new(),
                    });
                    i += 2;
                }
                None => {
                    out.push(Example {
                        kind: Kind::Shell,
                        input,
                        expected: None,
                        lines: (0, 0),
                        at,
                        slots: Vec::new(),
                        block: Vec::new(),
                    });
                    i += 1;
                }
            }
            continue;
        }
        if block.body.first().is_some_and(|l| l.starts_with("$ ")) {
            // The command: the `$ ` line and the lines its trailing `\` continues.
            let mut rest = 1;
            while rest < block.body.len() && block.body[rest - 1].ends_with('\\') {
                rest += 1;
            }
            let mut command = block.body[..rest].to_vec();
            command[0] = command[0]["$ ".len()..].to_string();
            out.push(Example {
                kind: Kind::Shell,
                input: command,
                expected: Some(block.body[rest..].to_vec()),
                lines: (block.start + rest, block.start + block.body.len()),
                at,
                slots: Vec::new(),
                block: Vec::new(),
            });
        } else if block.body.iter().any(|l| l.starts_with("> ")) {
            let mut input = Vec::new();
            let mut expected = Vec::new();
            let mut slots = vec![0];
            for line in &block.body {
                if let Some(typed) = line.strip_prefix("> ") {
                    input.push(typed.to_string());
                    slots.push(0);
                } else if !line.trim().is_empty() {
                    expected.push(line.strip_prefix("< ").unwrap_or(line).to_string());
                    if let Some(slot) = slots.last_mut() {
                        *slot += 1;
                    }
                }
            }
            out.push(Example {
                kind: Kind::Transcript,
                input,
                expected: Some(expected),
                lines: (block.start, block.start + block.body.len()),
                at,
                slots,
                block: block.body.clone(),
            });
        }
        i += 1;
    }
    out
}

fn is_number(token: &str) -> bool {
    !token.is_empty()
        && token.chars().any(|c| c.is_ascii_digit())
        && token
            .chars()
            .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
}

/// `line` with its volatile fields replaced by `#` and runs of spaces made one.
fn mask(line: &str) -> String {
    let mut line = line.to_string();
    // `game` numbers games in the order they finish, which concurrency changes.
    for key in ["\"game\":", "\"ms\":", "\"move_ms\":"] {
        if let Some(at) = line.find(key) {
            let from = at + key.len();
            let end = line[from..]
                .find([',', '}'])
                .map_or(line.len(), |e| from + e);
            // `move_ms` is a list: up to its closing bracket.
            let end = if line[from..].starts_with('[') {
                line[from..].find(']').map_or(end, |e| from + e + 1)
            } else {
                end
            };
            line.replace_range(from..end, "#");
        }
    }
    let tokens: Vec<&str> = line.split_whitespace().collect();
    let mut out = Vec::with_capacity(tokens.len());
    for (k, token) in tokens.iter().enumerate() {
        let prev = if k > 0 { tokens[k - 1] } else { "" };
        let next = tokens.get(k + 1).copied().unwrap_or("");
        let core = token.trim_start_matches('(');
        let unit = next.trim_end_matches([',', ')', ';', '.', ':']);
        // After `nps`, `time` and `hashfull` only a bare count (an `info` line's field,
        // not the `time 0,` of a match's list of endings).
        let field = matches!(prev, "nps" | "time" | "hashfull")
            && token.chars().all(|c| c.is_ascii_digit());
        let volatile =
            is_number(core) && (field || matches!(unit, "s" | "ms" | "µs" | "us" | "ns"));
        if volatile {
            out.push(format!("{}#", &token[..token.len() - core.len()]));
        } else {
            out.push((*token).to_string());
        }
    }
    out.join(" ")
}

/// Whether `text` matches `pattern`, where `…` or `...` matches any run of characters.
fn matches(pattern: &str, text: &str) -> bool {
    wildcard::matches(&pattern.replace('…', "..."), text)
}

fn is_any_lines(pattern: &str) -> bool {
    matches!(pattern.trim(), "…" | "...")
}

/// Whether every output line matches the expected lines (masked), in order.
fn matches_all(expected: &[String], output: &[String]) -> bool {
    match expected.split_first() {
        None => output.is_empty(),
        Some((pattern, rest)) if is_any_lines(pattern) => {
            (0..=output.len()).any(|skip| matches_all(rest, &output[skip..]))
        }
        Some((pattern, rest)) => {
            !output.is_empty()
                && matches(&mask(pattern), &mask(&output[0]))
                && matches_all(rest, &output[1..])
        }
    }
}

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_tabuleiro"))
}

/// A scratch directory for one document's examples (their `--out` files, caches).
fn scratch(doc: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "tabuleiro-docs-{}-{}",
        std::process::id(),
        doc.replace(['/', '.'], "-")
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// The command with `cargo run --release [--example NAME [--]]` read as the binaries
/// themselves; an error when an example program it needs is not built (`cargo test
/// --release` builds them all; `--test docs` alone does not: those examples are then
/// skipped, with a message).
fn shell_command(command: &str) -> Result<String, String> {
    let examples = binary()
        .parent()
        .map(|dir| dir.join("examples"))
        .unwrap_or_default();
    let mut out = String::new();
    let mut rest = command;
    const RUN: &str = "cargo run --release";
    while let Some(at) = rest.find(RUN) {
        out.push_str(&rest[..at]);
        rest = &rest[at + RUN.len()..];
        if let Some(after) = rest.strip_prefix(" --example ") {
            let name_end = after.find([' ', '\n']).unwrap_or(after.len());
            let name = &after[..name_end];
            let path = examples.join(name);
            if !path.exists() {
                return Err(format!(
                    "the example {name} is not built ({}); `cargo test --release` builds it",
                    path.display()
                ));
            }
            out.push_str(&path.display().to_string());
            rest = &after[name_end..];
            if let Some(after) = rest.strip_prefix(" --") {
                rest = after;
            }
        } else {
            out.push_str("tabuleiro");
            if let Some(after) = rest.strip_prefix(" --") {
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// Runs `program` with `input` on stdin; stdout (and stderr when `merge`), as lines.
fn run(mut command: Command, input: &str, dir: &Path) -> Result<(bool, Vec<String>), String> {
    let path = std::env::var_os("PATH").unwrap_or_default();
    let mut paths = vec![binary().parent().map(Path::to_path_buf).unwrap_or_default()];
    paths.extend(std::env::split_paths(&path));
    command
        .current_dir(dir)
        .env(
            "PATH",
            std::env::join_paths(paths).map_err(|e| e.to_string())?,
        )
        .env("TABULEIRO_CACHE", dir.join("cache"))
        .env("NO_COLOR", "1")
        .env("LC_ALL", "C.UTF-8")
        .env_remove("RUST_LOG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().map_err(|e| format!("cannot start: {e}"))?;
    let mut stdin = child.stdin.take().ok_or("no stdin")?;
    let input = input.to_string();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let mut stdout = child.stdout.take().ok_or("no stdout")?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let mut stderr = child.stderr.take().ok_or("no stderr")?;
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let started = Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().map_err(|e| e.to_string())? {
            break status;
        }
        if started.elapsed() > TIMEOUT {
            let _ = child.kill();
            let _ = child.wait();
            return Err(format!("no end within {} s", TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(10));
    };
    let _ = writer.join();
    let text = reader.join().unwrap_or_default();
    let err = err_reader.join().unwrap_or_default();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // Shell examples merge stderr into stdout themselves (`2>&1`); what is left here is
    // the engine's diagnostics of a transcript, which the docs do not show.
    if !status.success() && !err.is_empty() {
        lines.extend(err.lines().map(|l| format!("(stderr) {l}")));
    }
    while lines.last().is_some_and(|l| l.trim().is_empty()) {
        lines.pop();
    }
    Ok((status.success(), lines))
}

/// Runs one example: Ok(None) when it passes, Ok(Some(output)) when its output differs.
fn check(example: &Example, dir: &Path) -> Result<Option<Vec<String>>, String> {
    let (success, output) = match example.kind {
        Kind::Shell => {
            let command = shell_command(&join_continued(&example.input))?;
            let mut bash = Command::new("bash");
            bash.arg("-c").arg(format!("{{\n{command}\n}} 2>&1"));
            run(bash, "", dir)?
        }
        Kind::Transcript => {
            let input: String = example.input.iter().map(|l| format!("{l}\n")).collect();
            run(Command::new(binary()), &input, dir)?
        }
    };
    match &example.expected {
        None if success => Ok(None),
        None => Err(format!("exit status not 0; output:\n{}", output.join("\n"))),
        Some(expected) => {
            let mut expected = expected.clone();
            while expected.last().is_some_and(|l| l.trim().is_empty()) {
                expected.pop();
            }
            if matches_all(&expected, &output) {
                Ok(None)
            } else {
                Ok(Some(output))
            }
        }
    }
}

/// The expected lines to write when blessing: the output, with each documented line
/// kept where it still matches.
fn blessed(expected: &[String], output: &[String]) -> Vec<String> {
    output
        .iter()
        .enumerate()
        .map(|(k, line)| match expected.get(k) {
            Some(old) if !is_any_lines(old) && matches(&mask(old), &mask(line)) => old.clone(),
            _ => line.clone(),
        })
        .collect()
}

/// A transcript block rebuilt with new replies, put after the same commands as before.
fn blessed_transcript(example: &Example, output: &[String]) -> Vec<String> {
    let expected = example.expected.clone().unwrap_or_default();
    let prefixed = example.block.iter().any(|l| l.starts_with("< "));
    let replies = blessed(&expected, output);
    let mut replies = replies.into_iter();
    let mut out = Vec::new();
    let typed: Vec<&String> = example
        .block
        .iter()
        .filter(|l| l.starts_with("> "))
        .collect();
    for (k, slot) in example.slots.iter().enumerate() {
        if k > 0 {
            out.push(typed[k - 1].clone());
        }
        let take = if k + 1 == example.slots.len() {
            usize::MAX
        } else {
            *slot
        };
        for reply in replies.by_ref().take(take) {
            out.push(if prefixed {
                format!("< {reply}")
            } else {
                reply
            });
        }
    }
    out
}

fn check_document(doc: &str) {
    let path = repo().join(doc);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{doc}: {e}"));
    let dir = scratch(doc);
    let bless = std::env::var_os("DOCS_BLESS").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let mut rewrites: Vec<((usize, usize), Vec<String>)> = Vec::new();
    let mut found = 0;
    for example in examples(&text) {
        found += 1;
        let joined = join_continued(&example.input);
        if let Some((_, _, why)) = SKIPPED
            .iter()
            .find(|(file, needle, _)| *file == doc && joined.contains(needle))
        {
            eprintln!(
                "{doc}:{}: skipped ({why}): {}",
                example.at,
                first_line(&joined)
            );
            continue;
        }
        if example.kind == Kind::Shell
            && let Err(why) = shell_command(&joined)
        {
            eprintln!(
                "{doc}:{}: skipped ({why}): {}",
                example.at,
                first_line(&joined)
            );
            continue;
        }
        let started = Instant::now();
        match check(&example, &dir) {
            Ok(None) => {}
            Ok(Some(output)) => {
                let expected = example.expected.clone().unwrap_or_default();
                failures.push(format!(
                    "{doc}:{}: `{}` printed something else.\n--- documented\n{}\n--- printed\n{}\n",
                    example.at,
                    first_line(&joined),
                    expected.join("\n"),
                    output.join("\n")
                ));
                let new = match example.kind {
                    Kind::Shell => blessed(&expected, &output),
                    Kind::Transcript => blessed_transcript(&example, &output),
                };
                rewrites.push((example.lines, new));
            }
            Err(why) => failures.push(format!(
                "{doc}:{}: `{}`: {why}",
                example.at,
                first_line(&joined)
            )),
        }
        eprintln!(
            "{doc}:{}: {:.1} s: {}",
            example.at,
            started.elapsed().as_secs_f64(),
            first_line(&joined)
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    if bless && !rewrites.is_empty() {
        let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
        rewrites.sort_by_key(|(range, _)| std::cmp::Reverse(range.0));
        for ((from, to), new) in rewrites {
            lines.splice(from..to, new);
        }
        let mut new_text = lines.join("\n");
        if text.ends_with('\n') {
            new_text.push('\n');
        }
        std::fs::write(&path, new_text).unwrap_or_else(|e| panic!("{doc}: {e}"));
        eprintln!("{doc}: rewritten (DOCS_BLESS=1); check the diff");
    }
    assert!(found > 0, "{doc}: no example found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn first_line(text: &str) -> &str {
    text.lines().next().unwrap_or("")
}

#[test]
fn readme() {
    check_document("README.md");
}

#[test]
fn protocol() {
    check_document("protocol.md");
}

#[test]
fn docs_match() {
    check_document("docs/match.md");
}

#[test]
fn docs_play() {
    check_document("docs/play.md");
}

#[test]
fn docs_solved() {
    check_document("docs/solved.md");
}

#[test]
fn docs_strength() {
    check_document("docs/strength.md");
}

/// Every document of docs/ has its test above, and every skip names an example that
/// exists (a skip whose example was removed or reworded goes too).
#[test]
fn every_document_is_checked_and_every_skip_is_used() {
    let checked = [
        "docs/match.md",
        "docs/play.md",
        "docs/solved.md",
        "docs/strength.md",
    ];
    let mut found = Vec::new();
    for entry in std::fs::read_dir(repo().join("docs")).expect("docs/") {
        let name = entry.expect("entry").file_name();
        let name = name.to_string_lossy();
        if name.ends_with(".md") {
            found.push(format!("docs/{name}"));
        }
    }
    found.sort();
    assert_eq!(found, checked, "a new document needs its test here");
    for (doc, needle, _) in SKIPPED {
        let text = std::fs::read_to_string(repo().join(doc)).expect("document");
        let used = examples(&text)
            .iter()
            .any(|e| join_continued(&e.input).contains(needle));
        assert!(
            used,
            "{doc}: no example contains '{needle}'; drop it from SKIPPED"
        );
    }
}

#[test]
fn masking_and_wildcards() {
    assert_eq!(
        mask("info depth 1 nodes 27 nps 267724 time 0 hashfull 0 pv d5c5"),
        "info depth 1 nodes 27 nps # time # hashfull # pv d5c5"
    );
    assert_eq!(mask("40 of 40 games in 0.4 s"), "40 of 40 games in # s");
    assert_eq!(
        mask("  d2: median 0 ms, max 31 ms, 239 moves"),
        "d2: median # ms, max # ms, 239 moves"
    );
    assert_eq!(mask("L10 2/4   (33 s)"), "L10 2/4 (# s)");
    assert_eq!(
        mask(r#"{"game":7,"pair":3,"tiebreak":null,"ms":73,"move_ms":[24,33,0]}"#),
        r#"{"game":#,"pair":3,"tiebreak":null,"ms":#,"move_ms":#}"#
    );
    assert!(matches("info nps … pv d5c5", "info nps 12 time 3 pv d5c5"));
    assert!(!matches("info … pv d5c5", "info pv b1b4"));
    assert_eq!(
        shell_command("cargo run --release -- match --depth 1").as_deref(),
        Ok("tabuleiro match --depth 1")
    );
    let lines = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert!(matches_all(
        &lines(&["a", "…", "z"]),
        &lines(&["a", "b", "c", "z"])
    ));
    assert!(!matches_all(&lines(&["a", "z"]), &lines(&["a", "b", "z"])));
}
