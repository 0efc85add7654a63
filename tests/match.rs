//! `tabuleiro match` run for real: engine processes, the referee, clocks, SPRT and the
//! JSON output. The misbehaving engine is `tests/fixtures/bad_engine.py`, a Python
//! wrapper around our own binary. Every run has a time limit, so nothing here can hang.

use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::Duration;

use tabuleiro::game::Scoring;
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::search::Strategy;

#[path = "common/process.rs"]
mod process;
use process::wait_with_limit;
#[path = "common/json_line.rs"]
mod json_line;
use json_line::{field, numbers, string_count};

const ENGINE: &str = env!("CARGO_BIN_EXE_tabuleiro");

fn fixture() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/bad_engine.py")
}

/// A file name in the temporary directory, unique to this test.
fn temp(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("tabuleiro-match-{}-{name}", std::process::id()))
}

struct Run {
    success: bool,
    stdout: String,
    stderr: String,
    /// The `--out` lines.
    games: Vec<String>,
}

/// Runs `tabuleiro match ARGS --out FILE`, killed after `limit`.
fn run_match(args: &[&str], out_name: &str, limit: Duration) -> Run {
    let out = temp(out_name);
    let mut child = Command::new(ENGINE)
        .arg("match")
        .args(args)
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabuleiro");
    let status = wait_with_limit(&mut child, limit, &format!("tabuleiro match {args:?}"));
    let mut stdout = String::new();
    let mut stderr = String::new();
    child
        .stdout
        .take()
        .map(|mut s| s.read_to_string(&mut stdout));
    child
        .stderr
        .take()
        .map(|mut s| s.read_to_string(&mut stderr));
    let games = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    std::fs::remove_file(&out).ok();
    Run {
        success: status.success(),
        stdout,
        stderr,
        games,
    }
}

/// Points per engine name over the scored units: games, or pairs where the game is
/// scored by pairs (their second game carries `pair_winner`).
fn points(games: &[String], name: &str) -> f64 {
    let paired = games.iter().any(|g| g.contains("\"pair_reason\""));
    let key = if paired { "pair_winner" } else { "winner" };
    games
        .iter()
        .filter(|g| !paired || g.contains("\"pair_reason\""))
        .map(|g| match field(g, key) {
            Some(winner) if winner == name => 1.0,
            Some(_) => 0.0,
            None => 0.5,
        })
        .sum()
}

fn bad_engine(mode: &str, extra: &str) -> String {
    format!(
        "name=bad cmd=python3 '{}' '{}' {mode} {extra}",
        fixture().display(),
        ENGINE
    )
}

/// Depth shows only without the Neutreeko tablebase (`Tablebase`, on by default),
/// with which every depth plays perfectly.
#[test]
fn the_deeper_engine_scores_higher_in_every_game() {
    for game in games::NAMES {
        let run = run_match(
            &[
                "--game",
                game,
                "--engine",
                "name=shallow self depth=1 option.Tablebase=false",
                "--engine",
                "name=deep self depth=3 option.Tablebase=false",
                "--games",
                "20",
                "--random-plies",
                "2",
                "--seed",
                "1",
                "--timeout",
                "20000",
                "--concurrency",
                "2",
            ],
            &format!("depths-{game}"),
            // A bound against hanging, far above the few seconds a game takes.
            Duration::from_secs(120),
        );
        assert!(run.success, "{game}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.games.len(), 20, "{game}: {}", run.stdout);
        let (deep, shallow) = (points(&run.games, "deep"), points(&run.games, "shallow"));
        assert!(
            deep > shallow,
            "{game}: deep {deep} shallow {shallow}\n{}",
            run.stdout
        );
        // Nothing went wrong: every game ended by the rules (or the ply limit).
        for g in &run.games {
            let reason = field(g, "reason").unwrap_or_default();
            assert!(reason == "rules" || reason == "max plies", "{game}: {g}");
            // One schema for every game: the tie-break key is always there.
            let tiebreak = if *game == "frozenforest" {
                !g.contains("\"tiebreak\":null")
            } else {
                g.contains("\"tiebreak\":null")
            };
            assert!(tiebreak, "{game}: {g}");
        }
        assert!(run.stdout.contains("shallow vs deep: "), "{}", run.stdout);
    }
}

/// Plays `bad` (misbehaving as `mode`) against our engine at depth 1 and checks that
/// every game is lost by `bad` for `reason`, and that the match finished.
fn misbehaviour_loses(mode: &str, reason: &str, detail: &str) {
    let bad = bad_engine(mode, "--at 2");
    let run = run_match(
        &[
            "--engine",
            &bad,
            "--engine",
            "name=good self",
            "--depth",
            "1",
            "--games",
            "4",
            "--timeout",
            "3000",
        ],
        mode,
        Duration::from_secs(50),
    );
    assert!(run.success, "{mode}: {}{}", run.stdout, run.stderr);
    assert_eq!(run.games.len(), 4, "{mode}: {}", run.stdout);
    for g in &run.games {
        assert_eq!(field(g, "winner").as_deref(), Some("good"), "{mode}: {g}");
        assert_eq!(field(g, "reason").as_deref(), Some(reason), "{mode}: {g}");
        let text = field(g, "detail").unwrap_or_default();
        assert!(text.starts_with("bad: ") && text.contains(detail), "{g}");
    }
    assert!(
        run.stdout.contains(&format!("{reason} 4")),
        "{mode}: {}",
        run.stdout
    );
    assert!(
        run.stdout.contains("bad vs good: games +0 -4 =0"),
        "{}",
        run.stdout
    );
}

#[test]
fn a_crashing_engine_loses_and_is_restarted() {
    misbehaviour_loses("crash", "crash", "output ended");
}

#[test]
fn a_hanging_engine_loses_by_timeout_and_is_restarted() {
    misbehaviour_loses("hang", "timeout", "no bestmove within 3000 ms");
}

#[test]
fn an_illegal_move_loses() {
    misbehaviour_loses("illegal", "illegal", "'a1a1' is not legal");
}

#[test]
fn garbage_loses() {
    misbehaviour_loses("garbage", "garbage", "'xyzzy!' is not a move");
}

#[test]
fn bestmove_with_extra_tokens_loses() {
    misbehaviour_loses("extra", "malformed", "extra tokens");
}

#[test]
fn bestmove_without_a_move_loses() {
    misbehaviour_loses("empty", "malformed", "without a move");
}

#[test]
fn the_illegal_move_is_recorded_in_the_moves() {
    let bad = bad_engine("illegal", "--at 2");
    let run = run_match(
        &[
            "--engine", &bad, "--engine", "self", "--depth", "1", "--games", "2",
        ],
        "illegal-moves",
        Duration::from_secs(30),
    );
    assert!(run.success);
    for g in &run.games {
        assert!(
            g.contains("\"a1a1\"]"),
            "the last move is the illegal one: {g}"
        );
    }
}

#[test]
fn a_slow_engine_loses_on_time() {
    let slow = bad_engine("slow", "--delay 300");
    let run = run_match(
        &[
            "--engine",
            &slow,
            "--engine",
            // A long clock for the good engine, so that a loaded machine cannot make
            // it lose on time too.
            "name=good self tc=60000+0",
            "--tc",
            "500+0",
            "--games",
            "2",
        ],
        "slow",
        Duration::from_secs(30),
    );
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.games.len(), 2);
    for g in &run.games {
        assert_eq!(field(g, "winner").as_deref(), Some("good"), "{g}");
        assert_eq!(field(g, "reason").as_deref(), Some("time"), "{g}");
        assert!(
            field(g, "detail")
                .unwrap_or_default()
                .contains("0 ms grace")
        );
        // The late answer is timed too: one time more than the moves.
        let moves = string_count(g, "moves");
        assert_eq!(numbers(g, "move_ms").len(), moves + 1, "{g}");
    }
}

#[test]
fn our_engine_keeps_its_clock() {
    let run = run_match(
        &[
            "--engine",
            "name=a self",
            "--engine",
            "name=b self",
            "--tc",
            "2000+20",
            // The flag itself is tested above; here a loaded CI machine that stalls a
            // process for a moment must not make our engine lose on time.
            "--grace",
            "400",
            "--games",
            "2",
            "--random-plies",
            "2",
            "--seed",
            "5",
        ],
        "clock",
        Duration::from_secs(40),
    );
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.games.len(), 2);
    for g in &run.games {
        assert_ne!(field(g, "reason").as_deref(), Some("time"), "{g}");
    }
    assert!(run.stdout.contains("a: tc 2000+20"), "{}", run.stdout);
}

#[test]
fn sprt_stops_early_on_a_clear_difference() {
    let run = run_match(
        &[
            "--engine",
            "name=deep self depth=4 option.Tablebase=false",
            "--engine",
            "name=shallow self depth=1 option.Tablebase=false",
            "--games",
            "400",
            "--random-plies",
            "2",
            "--seed",
            "3",
            "--sprt",
            "0,100",
            "--concurrency",
            "2",
        ],
        "sprt",
        Duration::from_secs(50),
    );
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    assert!(run.stdout.contains("H1 accepted"), "{}", run.stdout);
    assert!(run.games.len() < 400, "{} games", run.games.len());
    assert!(run.games.len() >= 4);
}

#[test]
fn openings_from_a_file_are_played_with_both_colours() {
    let file = temp("openings.txt");
    std::fs::write(
        &file,
        "# two openings\nd1e2 d5e5\nfen 1w1w1/2b2/5/2w2/1b1b1 b 0 moves b1b4\n",
    )
    .unwrap();
    let run = run_match(
        &[
            "--engine",
            "name=a self",
            "--engine",
            "name=b self",
            "--depth",
            "2",
            "--games",
            "4",
            "--openings",
            file.to_str().unwrap(),
            "--concurrency",
            "2",
        ],
        "openings",
        Duration::from_secs(30),
    );
    std::fs::remove_file(&file).ok();
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    let mut seen: Vec<(String, String, String)> = run
        .games
        .iter()
        .map(|g| {
            (
                field(g, "opening").unwrap(),
                field(g, "p1").unwrap(),
                field(g, "p2").unwrap(),
            )
        })
        .collect();
    seen.sort();
    let fen = "fen 1w1w1/2b2/5/2w2/1b1b1 b 0 moves b1b4".to_string();
    let moves = "startpos moves d1e2 d5e5".to_string();
    let (a, b) = ("a".to_string(), "b".to_string());
    assert_eq!(
        seen,
        vec![
            (fen.clone(), a.clone(), b.clone()),
            (fen, b.clone(), a.clone()),
            (moves.clone(), a.clone(), b.clone()),
            (moves, b, a),
        ]
    );
}

#[test]
fn the_json_lines_are_valid_json() {
    let bad = bad_engine("garbage", "--at 3");
    let run = run_match(
        &[
            "--engine", &bad, "--engine", "self", "--depth", "1", "--games", "2",
        ],
        "json",
        Duration::from_secs(30),
    );
    assert!(run.success);
    let file = temp("check.jsonl");
    std::fs::write(&file, run.games.join("\n")).unwrap();
    let check = Command::new("python3")
        .arg("-c")
        .arg(
            "import json,sys\n\
             for line in open(sys.argv[1]):\n\
             \x20   g = json.loads(line)\n\
             \x20   assert g['reason'] == 'garbage' and g['winner'] == 'tabuleiro', g\n\
             \x20   assert isinstance(g['moves'], list) and g['moves'][-1] == 'xyzzy!', g\n\
             \x20   assert len(g['move_ms']) == len(g['moves']), g\n\
             \x20   assert all(isinstance(t, int) and t >= 0 for t in g['move_ms']), g\n\
             print('ok')",
        )
        .arg(&file)
        .output()
        .expect("python3 runs");
    std::fs::remove_file(&file).ok();
    assert_eq!(
        String::from_utf8_lossy(&check.stdout).trim(),
        "ok",
        "{}",
        String::from_utf8_lossy(&check.stderr)
    );
}

#[test]
fn bad_arguments_are_errors_not_panics() {
    for args in [
        vec!["--engine", "self"],
        vec!["--engine", "self", "--engine", "self"],
        vec![
            "--engine", "self", "--engine", "self", "--depth", "1", "--game", "chess",
        ],
        // A program that exits at once is no engine: the match does not start.
        vec!["--engine", "cmd=true", "--engine", "self", "--depth", "1"],
        vec![
            "--engine",
            "/no/such/engine",
            "--engine",
            "self",
            "--depth",
            "1",
        ],
        vec![
            "--engine",
            "self",
            "--engine",
            "self",
            "--depth",
            "1",
            "--openings",
            "/no/file",
        ],
        vec![
            "--engine", "self", "--engine", "self", "--depth", "1", "--option", "Nope=3",
        ],
        vec!["--engine", "self", "--engine", "self", "--tc", "fast"],
    ] {
        let output = Command::new(ENGINE)
            .arg("match")
            .args(&args)
            .output()
            .expect("run");
        assert_eq!(output.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.starts_with("tabuleiro: "), "{args:?}: {stderr}");
        assert!(!stderr.contains("panicked"), "{stderr}");
    }
    let help = Command::new(ENGINE)
        .args(["match", "--help"])
        .output()
        .unwrap();
    assert!(String::from_utf8_lossy(&help.stdout).contains("--engine SPEC"));
}

/// Games scored by pairs (Frozen Forest).
struct PairScored;
impl GameVisitor for PairScored {
    type Output = bool;
    fn visit<G: Strategy>(self) -> bool {
        matches!(G::SCORING, Scoring::Pairs(_))
    }
}

#[test]
fn pair_scored_games_report_each_pair() {
    let paired: Vec<&str> = games::NAMES
        .iter()
        .copied()
        .filter(|g| games::visit(g, PairScored) == Some(true))
        .collect();
    for game in paired {
        let run = run_match(
            &[
                "--game",
                game,
                "--engine",
                "name=a self depth=1",
                "--engine",
                "name=b self depth=2",
                "--games",
                "4",
                "--random-plies",
                "2",
                "--seed",
                "1",
            ],
            &format!("pairs-{game}"),
            Duration::from_secs(50),
        );
        assert!(run.success, "{game}: {}{}", run.stdout, run.stderr);
        assert_eq!(run.games.len(), 4);
        // The second game of each pair carries the pair's result.
        let with_pair = run
            .games
            .iter()
            .filter(|g| g.contains("\"pair_reason\""))
            .count();
        assert_eq!(with_pair, 2, "{game}: {:?}", run.games);
        assert!(
            run.games
                .iter()
                .all(|g| g.contains("\"tiebreak\":") && !g.contains("\"tiebreak\":null"))
        );
        assert!(run.stdout.contains("a vs b: pairs "), "{}", run.stdout);
    }
}

#[test]
fn a_hanging_engine_with_a_clock_loses_on_time_and_the_match_goes_on() {
    let hang = bad_engine("hang", "--at 2");
    let run = run_match(
        &[
            "--engine",
            &hang,
            "--engine",
            "name=good self tc=60000+0",
            "--tc",
            "300+0",
            "--timeout",
            "1000",
            "--games",
            "2",
        ],
        "hang-clock",
        Duration::from_secs(30),
    );
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.games.len(), 2);
    for g in &run.games {
        assert_eq!(field(g, "winner").as_deref(), Some("good"), "{g}");
        assert_eq!(field(g, "reason").as_deref(), Some("time"), "{g}");
        let detail = field(g, "detail").unwrap_or_default();
        assert!(detail.contains("no answer to stop either"), "{g}");
    }
}

#[test]
fn every_move_is_timed_from_go_to_bestmove() {
    // `slow` sleeps 100 ms before it passes each `go` on: that is charged to it.
    let slow = bad_engine("slow", "--delay 100");
    let run = run_match(
        &[
            "--engine",
            &slow,
            "--engine",
            "name=good self",
            "--depth",
            "1",
            "--games",
            "2",
            "--max-plies",
            "12",
        ],
        "times",
        Duration::from_secs(60),
    );
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    assert_eq!(run.games.len(), 2);
    for g in &run.games {
        assert_eq!(field(g, "reason").as_deref(), Some("max plies"), "{g}");
        let moves = string_count(g, "moves");
        let times = numbers(g, "move_ms");
        // One time per move; the moves alternate, p1 first.
        assert!(moves == 12 && times.len() == moves, "{g}");
        let slow_first = field(g, "p1").as_deref() == Some("bad");
        for (ply, ms) in times.iter().enumerate() {
            let by_slow = (ply % 2 == 0) == slow_first;
            if by_slow {
                assert!(*ms >= 100, "ply {ply}: {ms} ms: {g}");
            }
        }
    }
    // Per engine in the summary: median and max, and the number of moves.
    let line = run
        .stdout
        .lines()
        .find(|l| l.starts_with("  bad: median "))
        .unwrap_or_else(|| panic!("{}", run.stdout));
    let median: u64 = line["  bad: median ".len()..]
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert!(median >= 100, "{line}");
    assert!(line.ends_with(" ms, 12 moves"), "{line}");
    assert!(run.stdout.contains("Time per move"), "{}", run.stdout);
    assert!(run.stdout.contains("  good: median "), "{}", run.stdout);
}

#[test]
fn a_rejected_engine_option_stops_the_match_before_any_game() {
    for (option, said) in [
        ("option.Hash=0", "Hash=0"),
        ("option.NoSuchOption=1", "NoSuchOption=1"),
    ] {
        let spec = format!("name=picky self {option}");
        let out = temp("rejected.jsonl");
        let output = Command::new(ENGINE)
            .args([
                "match", "--engine", &spec, "--engine", "self", "--depth", "1",
            ])
            .arg("--out")
            .arg(&out)
            .output()
            .expect("run");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{option}: {stderr}");
        // The engine, the option and the engine's own words.
        assert!(
            stderr.contains("engine 'picky' rejected option ")
                && stderr.contains(said)
                && stderr.contains("info string error: "),
            "{option}: {stderr}"
        );
        assert!(output.stdout.is_empty(), "no summary");
        // No game was played.
        let games = std::fs::read_to_string(&out).unwrap_or_default();
        std::fs::remove_file(&out).ok();
        assert!(games.is_empty(), "{games}");
    }
}
