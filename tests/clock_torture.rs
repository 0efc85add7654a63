//! The short clock torture (the long one is `scripts/clock-torture`): with every core
//! kept busy by this test, our engine plays itself in every game under four time
//! controls (at 300 ms + 10 ms the increment is below `MoveOverhead`), refereed as
//! cutegames referees (no grace), and must lose no game on time and end none
//! abnormally.
//!
//! - `CLOCK_TORTURE=off` skips it (it then passes, saying so on stderr).
//! - `CLOCK_TORTURE_GAMES=N` plays N games per game and control (default 2, one pair).
//!
//! With the default it takes about a minute on a 2-core machine, most of it in the
//! games of `tc 1000+10`. The figures are printed (`-- --nocapture`) and are part of
//! the failure message.
//!
//! A match whose only faults are time losses is played once more: a busy machine can
//! hold a process off its core for longer than any margin (once, a `bestmove` at
//! `movetime 30` came 33 ms past the engine's 10 ms budget, in a run whose other 2,400
//! moves took 23 ms at most), and such a stall does not strike the same match twice,
//! while an engine that overruns its budget does. The test fails when the replay loses
//! on time too, or on any other fault at once; a stall forgiven is printed.

use std::collections::BTreeMap;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tabuleiro::games;

#[path = "common/hog.rs"]
mod hog;
#[path = "common/json_line.rs"]
mod json_line;
#[path = "common/process.rs"]
mod process;
use hog::Hog;
use json_line::{field, numbers};
use process::wait_with_limit;

const ENGINE: &str = env!("CARGO_BIN_EXE_tabuleiro");

/// The time controls, as `tabuleiro match` arguments.
const CONTROLS: [&[&str]; 4] = [
    &["--tc", "100+0"],
    &["--tc", "300+10"],
    &["--tc", "1000+10"],
    &["--movetime", "30"],
];

/// Endings that are an engine's fault rather than the game's.
const ABNORMAL: [&str; 6] = [
    "time",
    "timeout",
    "crash",
    "illegal",
    "garbage",
    "malformed",
];

/// One match: its summary line, and the details of its abnormal endings.
fn torture(game: &str, control: &[&str], games_per_run: u32) -> (String, Vec<String>) {
    let out = std::env::temp_dir().join(format!(
        "tabuleiro-torture-{}-{game}-{}.jsonl",
        std::process::id(),
        control[1]
    ));
    let games_text = games_per_run.to_string();
    let mut child = Command::new(ENGINE)
        .args(["match", "--game", game, "--engine", "name=a self"])
        .args(["--engine", "name=b self"])
        .args(control)
        .args(["--grace", "0", "--games", &games_text, "--concurrency", "1"])
        .args([
            "--random-plies",
            "2",
            "--seed",
            "1",
            "--no-progress",
            "--out",
        ])
        .arg(&out)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start tabuleiro");
    // A bound against hanging, far above what the games take.
    let limit = Duration::from_secs(60 + 30 * u64::from(games_per_run));
    let status = wait_with_limit(&mut child, limit, &format!("{game} {control:?}: the match"));
    let text = std::fs::read_to_string(&out).unwrap_or_default();
    std::fs::remove_file(&out).ok();
    let label = format!("{game} {}", control.join(" "));
    if !status.success() {
        let mut stderr = String::new();
        if let Some(mut pipe) = child.stderr.take() {
            use std::io::Read;
            pipe.read_to_string(&mut stderr).ok();
        }
        return (format!("{label}: the match failed"), vec![stderr]);
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut reasons: BTreeMap<String, u32> = BTreeMap::new();
    let mut times: Vec<u64> = Vec::new();
    let mut abnormal = Vec::new();
    for line in &lines {
        let reason = field(line, "reason").unwrap_or_default();
        times.extend(numbers(line, "move_ms"));
        if ABNORMAL.contains(&reason.as_str()) {
            let detail = field(line, "detail").unwrap_or_default();
            abnormal.push(format!("{label}: {reason}: {detail}"));
        }
        *reasons.entry(reason).or_default() += 1;
    }
    times.sort_unstable();
    let figures = match times.last() {
        Some(max) => format!(
            "median {} ms, max {max} ms, {} moves",
            times[(times.len() - 1) / 2],
            times.len()
        ),
        None => "no timed moves".to_string(),
    };
    let others: Vec<String> = reasons
        .iter()
        .filter(|(reason, _)| !matches!(reason.as_str(), "rules" | "time"))
        .map(|(reason, n)| format!("{reason} {n}"))
        .collect();
    let line = format!(
        "{label:<26} games {:>3}  time losses {:>3}  other non-rules endings: {}  {figures}",
        lines.len(),
        reasons.get("time").copied().unwrap_or(0),
        if others.is_empty() {
            "none".to_string()
        } else {
            others.join(", ")
        }
    );
    if lines.len() != games_per_run as usize + games_per_run as usize % 2 {
        abnormal.push(format!("{label}: only {} games written", lines.len()));
    }
    (line, abnormal)
}

/// Whether a match's faults are all time losses (and there is at least one).
fn only_time_losses(abnormal: &[String]) -> bool {
    !abnormal.is_empty() && abnormal.iter().all(|fault| fault.contains(": time: "))
}

#[test]
fn our_engine_keeps_its_clock_under_full_load() {
    if std::env::var("CLOCK_TORTURE").is_ok_and(|v| v == "off" || v == "0") {
        eprintln!(
            "clock torture skipped (CLOCK_TORTURE={:?})",
            std::env::var("CLOCK_TORTURE")
        );
        return;
    }
    let games_per_run: u32 = std::env::var("CLOCK_TORTURE_GAMES")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|&n| n > 0)
        .unwrap_or(2);
    let began = Instant::now();
    let mut table = Vec::new();
    let mut failures = Vec::new();
    {
        let _hog = Hog::start();
        for game in games::NAMES {
            for control in CONTROLS {
                let (mut line, mut abnormal) = torture(game, control, games_per_run);
                if only_time_losses(&abnormal) {
                    eprintln!("{line}\n  {}; played again", abnormal.join("; "));
                    let first = abnormal.join("; ");
                    (line, abnormal) = torture(game, control, games_per_run);
                    line = format!("{line}\n  (replayed after a stall: {first})");
                }
                eprintln!("{line}");
                table.push(line);
                failures.extend(abnormal);
            }
        }
    }
    let report = format!(
        "clock torture, {games_per_run} games per game and control under a CPU hog on \
         every core, in {:.0} s:\n{}\n",
        began.elapsed().as_secs_f64(),
        table.join("\n")
    );
    eprintln!("{report}");
    assert!(
        failures.is_empty(),
        "{report}{} abnormal endings:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn only_time_losses_are_played_again() {
    let time = "fabrik --movetime 30: time: no bestmove within 31 ms".to_string();
    let crash = "fabrik --movetime 30: crash: engine not running".to_string();
    let timeout = "fabrik --movetime 30: timeout: no bestmove within 30000 ms".to_string();
    assert!(only_time_losses(std::slice::from_ref(&time)));
    assert!(!only_time_losses(&[]));
    assert!(!only_time_losses(&[time.clone(), crash]));
    assert!(!only_time_losses(&[time, timeout]));
}
