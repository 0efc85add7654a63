//! `tabuleiro openings` and the openings `match` plays: the generated suite read back
//! by `--openings`, the shipped suite as the default, and game records (PGN) as
//! openings. Every child process runs under a deadline.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use tabuleiro::arena::pgn::{PgnGame, PgnMove};

#[path = "common/process.rs"]
mod process;
use process::wait_with_limit;
#[path = "common/json_line.rs"]
mod json_line;
use json_line::field;

const BIN: &str = env!("CARGO_BIN_EXE_tabuleiro");

fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tabuleiro-openings-{}-{name}", std::process::id()))
}

/// Runs `tabuleiro ARGS`: (success, stdout, stderr).
fn run(args: &[&str], limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabuleiro");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let out = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = wait_with_limit(&mut child, limit, &format!("tabuleiro {args:?}"));
    (
        status.success(),
        out.join().expect("stdout"),
        err.join().expect("stderr"),
    )
}

/// A neutreeko match at depth 1 from `extra` openings arguments; its JSON lines.
fn openings_played(extra: &[&str], name: &str) -> (String, Vec<String>) {
    let out = temp(name);
    let mut args = vec![
        "match",
        "--game",
        "neutreeko",
        "--engine",
        "name=a self",
        "--engine",
        "name=b self",
        "--depth",
        "1",
        "--games",
        "4",
        "--out",
        out.to_str().expect("a path"),
    ];
    args.extend_from_slice(extra);
    let (ok, stdout, stderr) = run(&args, Duration::from_secs(60));
    assert!(ok, "{stdout}{stderr}");
    let lines = std::fs::read_to_string(&out).expect("--out");
    std::fs::remove_file(&out).ok();
    let mut openings: Vec<String> = lines
        .lines()
        .map(|line| field(line, "opening").expect("an opening"))
        .collect();
    openings.sort();
    (stdout, openings)
}

#[test]
fn a_generated_suite_is_an_openings_file() {
    let file = temp("suite.txt");
    let (ok, stdout, stderr) = run(
        &[
            "openings",
            "--game",
            "neutreeko",
            "--count",
            "2",
            "--plies",
            "6",
            "--out",
            file.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert!(ok, "{stdout}{stderr}");
    assert!(stderr.contains("2 openings: 2 by exact value"), "{stderr}");
    let text = std::fs::read_to_string(&file).expect("the suite");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), 2, "{text}");
    // The same seed gives the same suite: the shipped one starts with these.
    let shipped = include_str!("../data/openings/neutreeko.txt");
    let first: Vec<&str> = shipped
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(2)
        .collect();
    assert_eq!(lines, first);
    let (_, played) = openings_played(&["--openings", file.to_str().unwrap()], "gen");
    std::fs::remove_file(&file).ok();
    let mut expected: Vec<String> = lines
        .iter()
        .flat_map(|l| [l.to_string(), l.to_string()])
        .collect();
    expected.sort();
    assert_eq!(played, expected);

    let (ok, _, stderr) = run(&["openings", "--game", "chess"], Duration::from_secs(10));
    assert!(!ok && stderr.contains("chess"), "{stderr}");
}

#[test]
fn match_plays_the_shipped_suite_unless_told_otherwise() {
    let (stdout, played) = openings_played(&[], "default");
    assert!(
        stdout.contains(
            "Openings: the neutreeko suite (data/openings/neutreeko.txt, 500 positions, in order)"
        ),
        "{stdout}"
    );
    let shipped = include_str!("../data/openings/neutreeko.txt");
    let mut expected: Vec<String> = shipped
        .lines()
        .filter(|l| !l.starts_with('#'))
        .take(2)
        .flat_map(|l| [l.to_string(), l.to_string()])
        .collect();
    expected.sort();
    assert_eq!(played, expected);
    // `--random-plies 0`: the start position, as before the suites.
    let (_, played) = openings_played(&["--random-plies", "0", "--seed", "1"], "zero");
    assert!(played.iter().all(|o| o == "startpos"), "{played:?}");
}

#[test]
fn a_suite_needs_the_default_options() {
    let out = temp("rows.jsonl");
    let (ok, stdout, stderr) = run(
        &[
            "match",
            "--game",
            "linetris",
            "--option",
            "Rows=5",
            "--engine",
            "self",
            "--engine",
            "self",
            "--depth",
            "1",
            "--games",
            "2",
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    std::fs::remove_file(&out).ok();
    assert!(ok, "{stdout}{stderr}");
    assert!(
        stdout.contains("Openings: the start position (no suite for these options)"),
        "{stdout}"
    );
}

fn record(tags: &[(&str, &str)], moves: &[(&str, bool)]) -> String {
    let mut game = PgnGame::default();
    for (name, value) in tags {
        game.set_tag(name, *value);
    }
    game.moves = moves
        .iter()
        .enumerate()
        .map(|(i, (text, book))| PgnMove {
            player: (i % 2) as u8,
            text: text.to_string(),
            comment: book.then(|| "book".to_string()),
        })
        .collect();
    game.result = "*".to_string();
    game.to_text()
}

#[test]
fn game_records_are_openings_for_match() {
    let file = temp("records.pgn");
    // As a match writes them: the start (a FEN here), the opening marked {book},
    // then the engines' moves; and a record with no marks, all of it the opening.
    let text = record(
        &[
            ("Event", "tabuleiro match"),
            ("Game", "neutreeko"),
            ("FEN", "1w1w1/2b2/5/2w2/1b1b1 b 0"),
            ("SetUp", "1"),
        ],
        &[("b1a2", true), ("d5e5", true), ("d1e2", false)],
    ) + &record(&[], &[("d1e2", false), ("d5e5", false)]);
    std::fs::write(&file, text).unwrap();
    let (_, played) = openings_played(&["--openings", file.to_str().unwrap()], "pgn");
    let mut expected = vec![
        "fen 1w1w1/2b2/5/2w2/1b1b1 b 0 moves b1a2 d5e5".to_string(),
        "startpos moves d1e2 d5e5".to_string(),
    ];
    expected.extend(expected.clone());
    expected.sort();
    assert_eq!(played, expected);

    // A record of another game is an error naming the record; no game is played.
    let text = record(&[("Round", "3"), ("Game", "talpa")], &[("c3", false)]);
    std::fs::write(&file, text).unwrap();
    let (ok, stdout, stderr) = run(
        &[
            "match",
            "--engine",
            "self",
            "--engine",
            "self",
            "--depth",
            "1",
            "--openings",
            file.to_str().unwrap(),
        ],
        Duration::from_secs(30),
    );
    std::fs::remove_file(&file).ok();
    assert!(!ok, "{stdout}");
    assert!(
        stderr
            .contains("game record 1 (Round 3): it is a record of the game 'talpa', not neutreeko"),
        "{stderr}"
    );
}

#[test]
fn adjudication_ends_games_whose_value_is_known() {
    let out = temp("adjudicate.jsonl");
    let (ok, stdout, stderr) = run(
        &[
            "match",
            "--game",
            "neutreeko",
            "--engine",
            "name=a self",
            "--engine",
            "name=b self",
            "--depth",
            "1",
            "--games",
            "4",
            "--random-plies",
            "2",
            "--seed",
            "3",
            "--adjudicate",
            "--out",
            out.to_str().unwrap(),
        ],
        Duration::from_secs(60),
    );
    assert!(ok, "{stdout}{stderr}");
    let lines = std::fs::read_to_string(&out).expect("--out");
    std::fs::remove_file(&out).ok();
    // Every Neutreeko position is in the tablebase: each game ends before a move.
    assert_eq!(lines.lines().count(), 4, "{lines}");
    for line in lines.lines() {
        assert_eq!(
            field(line, "reason").as_deref(),
            Some("adjudicated"),
            "{line}"
        );
        assert!(line.contains("\"moves\":[]"), "{line}");
        let detail = field(line, "detail").expect("a detail");
        assert!(detail.ends_with("(exact value)"), "{line}");
    }
    assert!(stdout.contains("crash 0, adjudicated 4"), "{stdout}");
}
