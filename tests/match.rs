//! `tabuleiro match` run for real: engine processes, the referee, clocks, SPRT and the
//! JSON output. The misbehaving engine is `tests/fixtures/bad_engine.py`, a Python
//! wrapper around our own binary. Every run has a time limit, so nothing here can hang.
//! The `--out` lines are read back with the crate's own typed record ([`GameRecord`]).

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
use tabuleiro::arena::GameRecord;

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
    /// The `--out` lines, as written and as read back.
    lines: Vec<String>,
    games: Vec<GameRecord>,
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
    let lines: Vec<String> = std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect();
    let games = lines
        .iter()
        .map(|line| GameRecord::from_json(line).unwrap_or_else(|e| panic!("{e}: {line}")))
        .collect();
    std::fs::remove_file(&out).ok();
    Run {
        success: status.success(),
        stdout,
        stderr,
        lines,
        games,
    }
}

/// Points per engine name over the scored units: games, or pairs where the game is
/// scored by pairs (their second game carries `pair_winner`).
fn points(games: &[GameRecord], name: &str) -> f64 {
    let paired = games.iter().any(|g| g.pair_reason.is_some());
    games
        .iter()
        .filter(|g| !paired || g.pair_reason.is_some())
        .map(|g| match if paired { &g.pair_winner } else { &g.winner } {
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
            assert!(
                g.reason == "rules" || g.reason == "max plies",
                "{game}: {g:?}"
            );
            // One schema for every game: the tie-break is there for games scored by
            // pairs, null for the others.
            assert_eq!(
                g.tiebreak.is_some(),
                *game == "frozenforest",
                "{game}: {g:?}"
            );
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
        assert_eq!(g.winner.as_deref(), Some("good"), "{mode}: {g:?}");
        assert_eq!(g.reason, reason, "{mode}: {g:?}");
        assert!(
            g.detail.starts_with("bad: ") && g.detail.contains(detail),
            "{g:?}"
        );
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
        assert_eq!(
            g.moves.last().map(String::as_str),
            Some("a1a1"),
            "the last move is the illegal one: {g:?}"
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
        assert_eq!(g.winner.as_deref(), Some("good"), "{g:?}");
        assert_eq!(g.reason, "time", "{g:?}");
        assert!(g.detail.contains("0 ms grace"));
        // The late answer is timed too: one time more than the moves.
        assert_eq!(g.move_ms.len(), g.moves.len() + 1, "{g:?}");
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
        assert_ne!(g.reason, "time", "{g:?}");
    }
    assert!(run.stdout.contains("a: tc 2s+20ms"), "{}", run.stdout);
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
        .map(|g| (g.opening.clone(), g.p1.clone(), g.p2.clone()))
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
    // Checked by another JSON reader than ours.
    std::fs::write(&file, run.lines.join("\n")).unwrap();
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
        vec!["--engine", "self", "--engine", "self", "--tc", "1h"],
        vec![
            "--engine", "self", "--engine", "self", "--depth", "1", "--shard", "3/2",
        ],
        vec![
            "--engine",
            "self foo=bar",
            "--engine",
            "self",
            "--depth",
            "1",
        ],
        vec!["merge", "/no/such/file"],
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
        let with_pair = run.games.iter().filter(|g| g.pair_reason.is_some()).count();
        assert_eq!(with_pair, 2, "{game}: {:?}", run.games);
        assert!(run.games.iter().all(|g| g.tiebreak.is_some()));
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
        assert_eq!(g.winner.as_deref(), Some("good"), "{g:?}");
        assert_eq!(g.reason, "time", "{g:?}");
        assert!(g.detail.contains("no answer to stop either"), "{g:?}");
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
        assert_eq!(g.reason, "max plies", "{g:?}");
        // One time per move; the moves alternate, p1 first.
        assert!(g.moves.len() == 12 && g.move_ms.len() == 12, "{g:?}");
        let slow_first = g.p1 == "bad";
        for (ply, ms) in g.move_ms.iter().enumerate() {
            let by_slow = (ply % 2 == 0) == slow_first;
            if by_slow {
                assert!(*ms >= 100, "ply {ply}: {ms} ms: {g:?}");
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

/// The engines of the quick matches below: deterministic (fixed depth, no tablebase).
const QUICK: [&str; 4] = [
    "--engine",
    "name=d1 self depth=1 option.Tablebase=false",
    "--engine",
    "name=d2 self depth=2 option.Tablebase=false",
];

/// The lines of a summary that carry results (not times, not the header).
fn result_lines(summary: &str) -> Vec<String> {
    summary
        .lines()
        .filter(|l| {
            l.contains(" vs ")
                || ["  pairs ", "  games ", "  ends:", "  warning:", "  SPRT"]
                    .iter()
                    .any(|p| l.starts_with(p))
                || l.contains(" as p1 ")
        })
        .map(str::to_string)
        .collect()
}

/// `tabuleiro ARGS`, killed after `limit`: (success, stdout, stderr).
fn tabuleiro(args: &[&str], limit: Duration) -> (bool, String, String) {
    let mut child = Command::new(ENGINE)
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabuleiro");
    let status = wait_with_limit(&mut child, limit, &format!("tabuleiro {args:?}"));
    let (mut stdout, mut stderr) = (String::new(), String::new());
    child
        .stdout
        .take()
        .map(|mut s| s.read_to_string(&mut stdout));
    child
        .stderr
        .take()
        .map(|mut s| s.read_to_string(&mut stderr));
    (status.success(), stdout, stderr)
}

#[test]
fn shards_merge_into_the_summary_of_one_run() {
    let common = [
        "--games",
        "12",
        "--random-plies",
        "2",
        "--seed",
        "11",
        "--sprt",
        "0,200",
    ];
    let mut args: Vec<&str> = QUICK.to_vec();
    args.extend(common);
    let one = run_match(&args, "one", Duration::from_secs(60));
    assert!(one.success, "{}{}", one.stdout, one.stderr);
    let mut files = Vec::new();
    let mut shard_games = Vec::new();
    for shard in ["1/3", "2/3", "3/3"] {
        let mut shard_args = args.clone();
        shard_args.extend(["--shard", shard]);
        let file = temp(&format!("shard-{}.jsonl", &shard[..1]));
        let path = file.to_str().unwrap().to_string();
        shard_args.extend(["--out", &path]);
        let (ok, stdout, stderr) = tabuleiro(
            &[&["match"], shard_args.as_slice()].concat(),
            Duration::from_secs(60),
        );
        assert!(ok, "{stdout}{stderr}");
        let text = std::fs::read_to_string(&file).unwrap();
        shard_games.extend(tabuleiro::arena::record::read_text(&text).unwrap());
        files.push(path);
    }
    // Every pair of the one run was played by exactly one shard, move for move.
    let key = |g: &GameRecord| (g.job, g.leg, g.opening.clone(), g.moves.clone());
    let mut mine: Vec<_> = one.games.iter().map(key).collect();
    let mut theirs: Vec<_> = shard_games.iter().map(key).collect();
    mine.sort();
    theirs.sort();
    assert_eq!(mine, theirs);
    let mut merge = vec!["match", "merge", "--sprt", "0,200"];
    merge.extend(files.iter().map(String::as_str));
    let (ok, merged, stderr) = tabuleiro(&merge, Duration::from_secs(30));
    for file in &files {
        std::fs::remove_file(file).ok();
    }
    assert!(ok, "{merged}{stderr}");
    assert!(
        merged.starts_with("Merged: neutreeko (default options), 12 games from 3 files"),
        "{merged}"
    );
    // The SPRT does not decide on 6 pairs here, so the one run played them all.
    assert_eq!(one.games.len(), 12, "{}", one.stdout);
    assert_eq!(result_lines(&merged), result_lines(&one.stdout), "{merged}");
    assert!(merged.contains("  pairs 6, ptnml(0-2) ["), "{merged}");
    // A file of another match, or the same shard twice, is refused.
    let (ok, _, stderr) = tabuleiro(
        &["match", "merge", "/no/such/file"],
        Duration::from_secs(10),
    );
    assert!(!ok && stderr.contains("cannot read"), "{stderr}");
}

#[test]
fn a_resumed_match_plays_the_rest() {
    let mut args: Vec<&str> = QUICK.to_vec();
    args.extend(["--games", "8", "--random-plies", "2", "--seed", "4"]);
    let whole = run_match(&args, "whole", Duration::from_secs(60));
    assert!(whole.success, "{}{}", whole.stdout, whole.stderr);
    // Stopped after 3 games (the second pair half played).
    let file = temp("resume.jsonl");
    std::fs::write(&file, whole.lines[..3].join("\n") + "\n").unwrap();
    let path = file.to_str().unwrap();
    let mut resume = vec!["match"];
    resume.extend(&args);
    resume.extend(["--resume", path]);
    let (ok, stdout, stderr) = tabuleiro(&resume, Duration::from_secs(60));
    assert!(ok, "{stdout}{stderr}");
    let games = tabuleiro::arena::record::read_file(&file).unwrap();
    assert_eq!(games.len(), 8);
    assert!(stdout.contains(", 8 of 8 games"), "{stdout}");
    assert_eq!(result_lines(&stdout), result_lines(&whole.stdout));
    // Nothing is left to play; a file of another match is refused.
    let (ok, stdout, _) = tabuleiro(&resume, Duration::from_secs(60));
    assert!(ok && stdout.contains(", 8 of 8 games"), "{stdout}");
    let mut other = resume.clone();
    other[resume.len() - 3] = "5"; // the seed
    let (ok, _, stderr) = tabuleiro(&other, Duration::from_secs(30));
    assert!(
        !ok && stderr.contains("is not one of this match's"),
        "{stderr}"
    );
    std::fs::remove_file(&file).ok();
    // A file not there yet: the match starts, writing to it.
    let (ok, stdout, stderr) = tabuleiro(&resume, Duration::from_secs(60));
    assert!(ok && stdout.contains(", 8 of 8 games"), "{stdout}{stderr}");
    assert_eq!(tabuleiro::arena::record::read_file(&file).unwrap().len(), 8);
    std::fs::remove_file(&file).ok();
}

#[test]
fn ctrl_c_prints_the_summary_of_the_games_finished() {
    let out = temp("interrupted.jsonl");
    let mut child = Command::new(ENGINE)
        .args(["match"])
        .args(QUICK)
        .args(["--games", "2000", "--random-plies", "2", "--seed", "1"])
        .arg("--out")
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start");
    // Wait for a few games, then Ctrl-C.
    let began = std::time::Instant::now();
    while std::fs::read_to_string(&out)
        .unwrap_or_default()
        .lines()
        .count()
        < 4
    {
        assert!(began.elapsed() < Duration::from_secs(60), "no games");
        std::thread::sleep(Duration::from_millis(50));
    }
    let killed = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(killed.success());
    let status = wait_with_limit(&mut child, Duration::from_secs(30), "interrupted match");
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .map(|mut s| s.read_to_string(&mut stdout));
    assert!(status.success(), "{stdout}");
    assert!(stdout.contains("(interrupted)"), "{stdout}");
    let games = std::fs::read_to_string(&out).unwrap().lines().count();
    std::fs::remove_file(&out).ok();
    assert!(
        stdout.contains(&format!(", {games} of 2000 games")),
        "{games}: {stdout}"
    );
}

#[test]
fn every_game_is_written_as_pgn() {
    let pgn = temp("games.pgn");
    let openings = temp("pgn-openings.txt");
    std::fs::write(
        &openings,
        "fen 1w1w1/2b2/5/2w2/1b1b1 b 0 moves b1b4\nd1e2\n",
    )
    .unwrap();
    let mut args: Vec<&str> = QUICK.to_vec();
    args.extend([
        "--games",
        "4",
        "--openings",
        openings.to_str().unwrap(),
        "--pgn",
        pgn.to_str().unwrap(),
        "--max-plies",
        "30",
    ]);
    let run = run_match(&args, "pgn", Duration::from_secs(60));
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    let text = std::fs::read_to_string(&pgn).unwrap();
    std::fs::remove_file(&openings).ok();
    // Read back as openings, the records start the games where they started: each
    // record's `{book}` moves from its FEN are its opening.
    let mut again: Vec<&str> = QUICK.to_vec();
    again.extend(["--games", "8", "--openings", pgn.to_str().unwrap()]);
    again.extend(["--max-plies", "30"]);
    let replayed = run_match(&again, "pgn-again", Duration::from_secs(60));
    std::fs::remove_file(&pgn).ok();
    assert!(replayed.success, "{}{}", replayed.stdout, replayed.stderr);
    let starts = |games: &[GameRecord]| {
        let mut starts: Vec<String> = games.iter().map(|g| g.opening.clone()).collect();
        starts.sort();
        starts
    };
    let twice: Vec<String> = starts(&run.games)
        .into_iter()
        .flat_map(|start| [start.clone(), start])
        .collect();
    assert_eq!(starts(&replayed.games), twice);
    let records = tabuleiro::arena::pgn::read(&text).unwrap();
    assert_eq!(records.len(), 4);
    for (pgn, game) in records.iter().zip(&run.games) {
        for tag in [
            "Event",
            "Site",
            "Date",
            "Round",
            "Result",
            "TimeControl",
            "Termination",
        ] {
            assert!(pgn.tag(tag).is_some(), "{tag}: {pgn:?}");
        }
        assert_eq!(pgn.tag("P1"), Some(game.p1.as_str()));
        assert_eq!(pgn.tag("White"), Some(game.p1.as_str()));
        assert_eq!(pgn.tag("Black"), Some(game.p2.as_str()));
        assert_eq!(pgn.tag("Game"), Some("neutreeko"));
        let result = match game.result.as_str() {
            "p1win" => "1-0",
            "p2win" => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(
            (pgn.tag("Result"), pgn.result.as_str()),
            (Some(result), result)
        );
        // The opening's FEN as the start, its moves and the game's in the movetext.
        let moves: Vec<&str> = pgn.moves.iter().map(|m| m.text.as_str()).collect();
        if game.opening.starts_with("fen ") {
            assert_eq!(pgn.tag("FEN"), Some("1w1w1/2b2/5/2w2/1b1b1 b 0"));
            assert_eq!(pgn.tag("SetUp"), Some("1"));
            assert_eq!(moves[0], "b1b4");
        } else {
            assert_eq!(pgn.tag("FEN"), None);
            assert_eq!(moves[0], "d1e2");
        }
        assert_eq!(&moves[1..], game.moves.as_slice());
    }
}

#[test]
fn usability_checks() {
    let limit = Duration::from_secs(20);
    // Two engines of one name; a key that is no key.
    let (ok, _, stderr) = tabuleiro(
        &[
            "match",
            "--engine",
            "name=x self",
            "--engine",
            "name=x self",
            "--depth",
            "1",
        ],
        limit,
    );
    assert!(
        !ok && stderr.contains("two engines are named 'x'"),
        "{stderr}"
    );
    let (ok, _, stderr) = tabuleiro(
        &[
            "match",
            "--engine",
            "self foo=bar",
            "--engine",
            "self",
            "--depth",
            "1",
        ],
        limit,
    );
    assert!(!ok && stderr.contains("unknown key 'foo'"), "{stderr}");
    // A program that is no engine fails in seconds, not after the timeout.
    let began = std::time::Instant::now();
    let (ok, _, stderr) = tabuleiro(
        &[
            "match", "--engine", "cmd=cat", "--engine", "self", "--depth", "1",
        ],
        limit,
    );
    assert!(!ok && stderr.contains("not a UGI engine"), "{stderr}");
    assert!(
        began.elapsed() < Duration::from_secs(5),
        "{:?}",
        began.elapsed()
    );
    // An engine that dies at start-up: its last stderr lines are shown.
    let (ok, _, stderr) = tabuleiro(
        &[
            "match",
            "--engine",
            "cmd=sh -c 'echo first >&2; echo cannot open the book >&2; exit 3'",
            "--engine",
            "self",
            "--depth",
            "1",
        ],
        limit,
    );
    assert!(
        !ok && stderr.contains("its last stderr lines: 'first' | 'cannot open the book'"),
        "{stderr}"
    );
}

#[test]
fn a_gauntlet_logs_and_units() {
    let dir = temp("logs");
    let run = run_match(
        &[
            "--engine",
            "name=hero self",
            "--engine",
            "name=x self",
            "--engine",
            "name=y self movetime=0.05s",
            "--gauntlet",
            "--tc",
            "1m+0.5s",
            "--depth",
            "1",
            "--games",
            "2",
            "--log-dir",
            dir.to_str().unwrap(),
        ],
        "gauntlet",
        Duration::from_secs(60),
    );
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    // The first engine against each other one, and no other pairing.
    assert!(run.stdout.contains("hero vs x: "), "{}", run.stdout);
    assert!(run.stdout.contains("hero vs y: "), "{}", run.stdout);
    assert!(!run.stdout.contains("x vs y: "), "{}", run.stdout);
    assert_eq!(run.games.len(), 4);
    // Times with their units.
    assert!(
        run.stdout
            .contains("  y: tc 1m+500ms, movetime 50ms, depth 1"),
        "{}",
        run.stdout
    );
    // Each engine process's traffic.
    let logs: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert!(logs.iter().any(|l| l.starts_with("hero-")), "{logs:?}");
    // The start-up check's process, then the workers': every one from `ugi` on.
    let texts: Vec<String> = logs
        .iter()
        .filter(|l| l.starts_with("x-"))
        .map(|l| std::fs::read_to_string(dir.join(l)).unwrap())
        .collect();
    assert!(texts.len() >= 2, "{logs:?}");
    for text in &texts {
        assert!(
            text.starts_with("> ugi\n") && text.contains("< ugiok"),
            "{text}"
        );
    }
    assert!(
        texts
            .iter()
            .any(|t| t.contains("\n> go p1time ") && t.contains("\n< bestmove ")),
        "{texts:?}"
    );
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn repeated_games_are_warned_of() {
    // From the start position (`--random-plies 0`; with no openings at all, the
    // game's suite), deterministic engines play the same two games again.
    let mut args: Vec<&str> = QUICK.to_vec();
    args.extend(["--games", "6", "--random-plies", "0"]);
    let run = run_match(&args, "repeats", Duration::from_secs(60));
    assert!(run.success, "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout
            .contains("  warning: 4 of 6 games repeat an earlier game move for move"),
        "{}",
        run.stdout
    );
}

/// Two shards run by GNU parallel, merged, give the totals of one run (the recipe of
/// docs/match.md). Skipped, saying so, where `parallel` is not installed.
#[test]
fn two_shards_through_gnu_parallel_merge_to_one_run() {
    let found = Command::new("parallel")
        .arg("--version")
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success());
    if !found {
        eprintln!("SKIPPED: GNU parallel is not installed (apt-get install parallel)");
        return;
    }
    let dir = temp("parallel");
    std::fs::create_dir_all(&dir).unwrap();
    let mut args: Vec<&str> = QUICK.to_vec();
    args.extend(["--games", "10", "--random-plies", "2", "--seed", "9"]);
    let one = run_match(&args, "parallel-one", Duration::from_secs(60));
    assert!(one.success, "{}{}", one.stdout, one.stderr);
    let quoted: Vec<String> = args.iter().map(|a| format!("'{a}'")).collect();
    let script = format!(
        "parallel --halt now,fail=1 '{} match {} --shard {{}}/2 --out shard-{{}}.jsonl >/dev/null' ::: 1 2 \
         && {} match merge shard-1.jsonl shard-2.jsonl",
        ENGINE,
        quoted.join(" ").replace('\'', "'\\''"),
        ENGINE
    );
    let mut child = Command::new("bash")
        .arg("-c")
        .arg(&script)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("bash");
    let status = wait_with_limit(&mut child, Duration::from_secs(120), "parallel");
    let (mut merged, mut stderr) = (String::new(), String::new());
    child
        .stdout
        .take()
        .map(|mut s| s.read_to_string(&mut merged));
    child
        .stderr
        .take()
        .map(|mut s| s.read_to_string(&mut stderr));
    std::fs::remove_dir_all(&dir).ok();
    assert!(status.success(), "{script}\n{merged}{stderr}");
    assert!(merged.contains(", 10 games from 2 files"), "{merged}");
    assert_eq!(result_lines(&merged), result_lines(&one.stdout), "{merged}");
}

/// The Slurm recipe's script, as far as this machine allows: each array task (a fake
/// `SLURM_ARRAY_TASK_ID`, ids from 0) plays its shard; the merge gives one run's totals.
#[test]
fn the_slurm_script_plays_its_shard() {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("scripts/match-slurm");
    let dir = temp("slurm");
    let mut args: Vec<&str> = QUICK.to_vec();
    args.extend(["--games", "8", "--random-plies", "2", "--seed", "2"]);
    let one = run_match(&args, "slurm-one", Duration::from_secs(60));
    assert!(one.success, "{}{}", one.stdout, one.stderr);
    for id in ["0", "1"] {
        let mut child = Command::new(&script)
            .args(&args)
            .env("SLURM_ARRAY_TASK_ID", id)
            .env("SLURM_ARRAY_TASK_COUNT", "2")
            .env("SLURM_ARRAY_TASK_MIN", "0")
            .env("MATCH_DIR", &dir)
            .env("TABULEIRO", ENGINE)
            .stdout(Stdio::null())
            .spawn()
            .expect("the script runs");
        let status = wait_with_limit(&mut child, Duration::from_secs(60), "match-slurm");
        assert!(status.success());
    }
    let files: Vec<String> = ["shard-1.jsonl", "shard-2.jsonl"]
        .iter()
        .map(|f| dir.join(f).to_string_lossy().into_owned())
        .collect();
    let (ok, merged, stderr) = tabuleiro(
        &["match", "merge", &files[0], &files[1]],
        Duration::from_secs(30),
    );
    // Without the task id it says what it needs.
    let missing = Command::new(&script).output().expect("runs");
    std::fs::remove_dir_all(&dir).ok();
    assert!(ok, "{merged}{stderr}");
    assert_eq!(result_lines(&merged), result_lines(&one.stdout), "{merged}");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("SLURM_ARRAY_TASK_ID"));
}
