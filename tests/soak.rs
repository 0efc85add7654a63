//! Soak: many fast engine-against-engine games through the real binary over pipes.
//!
//! Ignored by default (it runs for minutes). Run it with
//!
//! ```sh
//! SOAK_GAMES=1000 cargo test --release --test soak -- --ignored --nocapture
//! ```
//!
//! (`SOAK_GAMES` per game, default 200; `SOAK_ONLY=talpa` for one game; `SOAK_SEED`;
//! `SOAK_THREADS=2` for the engines' `Threads` option, default 1.)
//! Each game drives two engine processes the way the cutegames arena does (per ply:
//! `position`, `query p1turn`, `isready`, `position` twice, `query gameover`, `go …`)
//! with random time controls including very short clocks, and random `isready` and
//! `stop` injections during searches. The referee is our own rules code. It reports
//! crashes, time losses (judged against the clock with the default MoveOverhead),
//! illegal moves, protocol errors, and each engine's resident memory over the games,
//! and fails if any count is not zero or memory grows.

use std::io::Write;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::Receiver;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Outcome, Player, Record};
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::rng::Xorshift;

#[path = "common/process.rs"]
mod process;
use process::NotSeen;

/// Replies slower than this mean the engine hangs.
const HANG: Duration = Duration::from_secs(10);
/// A fixed-depth search may legitimately take longer than [`HANG`]: `go depth 4` in a
/// Fabrik middle game on 11x11 takes seconds (its branching is in the hundreds). A
/// depth-limited `go` hangs only past this.
const DEPTH_HANG: Duration = Duration::from_secs(120);
/// How late a bestmove may come past the clock before it is a time loss: the pipe and
/// scheduling between two processes on a loaded two-core machine.
const CLOCK_GRACE_MS: i64 = 25;

struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl Engine {
    fn start(game: &str) -> Result<Engine, String> {
        let mut child = Command::new(env!("CARGO_BIN_EXE_tabuleiro"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("start: {e}"))?;
        let lines = process::lines_of(child.stdout.take().ok_or("no stdout")?);
        let stdin = child.stdin.take().ok_or("no stdin")?;
        let mut engine = Engine {
            child,
            stdin,
            lines,
        };
        engine.send("ugi")?;
        engine.until("ugiok")?;
        engine.send(&format!("setoption name Game value {game}"))?;
        if let Ok(threads) = std::env::var("SOAK_THREADS") {
            engine.send(&format!("setoption name Threads value {threads}"))?;
        }
        engine.send("isready")?;
        engine.until("readyok")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.stdin, "{line}")
            .and_then(|_| self.stdin.flush())
            .map_err(|e| format!("crash: write '{line}': {e}"))
    }

    fn until(&mut self, prefix: &str) -> Result<Vec<String>, String> {
        self.until_within(prefix, HANG)
    }

    /// The lines up to `prefix`; an error line of the engine ends the wait early.
    fn until_within(&mut self, prefix: &str, patience: Duration) -> Result<Vec<String>, String> {
        const ERROR: &str = "info string error";
        let seen = process::until(&self.lines, patience, |line| {
            line.starts_with(ERROR) || line.starts_with(prefix)
        })
        .map_err(|why| match why {
            NotSeen::Timeout(_) => format!("hang: no '{prefix}'"),
            NotSeen::Closed(_) => format!("crash: stdout closed before '{prefix}'"),
        })?;
        match seen.last() {
            Some(line) if line.starts_with(ERROR) => Err(format!("protocol error: {line}")),
            _ => Ok(seen),
        }
    }

    fn answer(&mut self, query: &str) -> Result<String, String> {
        self.send(&format!("query {query}"))?;
        let lines = self.until("response")?;
        Ok(lines.last().cloned().unwrap_or_default())
    }

    /// Resident memory now, and its peak, in KiB (from /proc).
    fn memory_kib(&self) -> (u64, u64) {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .unwrap_or_default();
        let field = |name: &str| {
            status
                .lines()
                .find(|l| l.starts_with(name))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|v| v.parse().ok())
                .unwrap_or(0)
        };
        (field("VmRSS:"), field("VmHWM:"))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[derive(Debug, Default)]
struct Tally {
    games: u64,
    plies: u64,
    crashes: u64,
    hangs: u64,
    time_losses: u64,
    illegal: u64,
    protocol_errors: u64,
    results: [u64; 3],
    /// The slowest `bestmove` of all, in ms (fixed-depth searches included).
    slowest_ms: u64,
}

/// The `go` limits of one game's time control, and whether it is a clock.
fn time_control(rng: &mut Xorshift) -> (String, Option<(i64, i64)>) {
    match rng.below(5) {
        0 => (format!("movetime {}", 5 + rng.below(40)), None),
        1 => (format!("depth {}", 1 + rng.below(4)), None),
        2 => (format!("nodes {}", 100 + rng.below(3000)), None),
        3 => {
            // Very short clocks: 100 to 400 ms for the whole game, small increments.
            let base = 100 + rng.below(300) as i64;
            (String::new(), Some((base, rng.below(20) as i64)))
        }
        _ => {
            let base = 500 + rng.below(2500) as i64;
            (String::new(), Some((base, rng.below(50) as i64)))
        }
    }
}

fn play_game<G: Game>(
    engines: &mut [Engine; 2],
    rng: &mut Xorshift,
    tally: &mut Tally,
) -> Result<(), String> {
    let config = tabuleiro::game::default_config::<G>();
    let mut record = Record::new(G::start(&config));
    let mut texts: Vec<String> = Vec::new();
    let (fixed, clock) = time_control(rng);
    let mut slowest = Duration::ZERO;
    let mut clocks = clock.map(|(base, _)| [base, base]);
    let inc = clock.map_or(0, |(_, inc)| inc);
    for engine in engines.iter_mut() {
        engine.send("uginewgame")?;
    }
    while record.outcome().is_none() {
        let side = record.state().side_to_move();
        let engine = &mut engines[side.index()];
        let position = if texts.is_empty() {
            "position startpos".to_string()
        } else {
            format!("position startpos moves {}", texts.join(" "))
        };
        engine.send(&position)?;
        let turn = engine.answer("p1turn")?;
        if turn != format!("response {}", side == Player::P1) {
            return Err(format!("protocol error: p1turn said {turn}"));
        }
        engine.send("isready")?;
        engine.until("readyok")?;
        engine.send(&position)?;
        engine.send(&position)?;
        let over = engine.answer("gameover")?;
        if over != "response false" {
            return Err(format!("protocol error: gameover said {over}"));
        }
        let go = match clocks {
            Some([p1, p2]) => format!("go p1time {p1} p2time {p2} p1inc {inc} p2inc {inc}"),
            None => format!("go {fixed}"),
        };
        let sent = Instant::now();
        engine.send(&go)?;
        match rng.below(10) {
            0 => {
                engine.send("isready")?;
            }
            1 => {
                std::thread::sleep(Duration::from_millis(rng.below(5)));
                engine.send("stop")?;
            }
            _ => {}
        }
        let patience = if go.contains("depth") {
            DEPTH_HANG
        } else {
            HANG
        };
        let reply = engine
            .until_within("bestmove", patience)
            .map_err(|why| format!("{why} after '{go}' at '{position}'"))?;
        slowest = slowest.max(sent.elapsed());
        tally.slowest_ms = tally.slowest_ms.max(slowest.as_millis() as u64);
        let used = sent.elapsed().as_millis() as i64;
        let last = reply.last().cloned().unwrap_or_default();
        let words: Vec<&str> = last.split_whitespace().collect();
        if words.len() != 2 {
            return Err(format!("protocol error: '{last}'"));
        }
        if let Some(clocks) = clocks.as_mut() {
            let left = &mut clocks[side.index()];
            if used > *left + CLOCK_GRACE_MS {
                tally.time_losses += 1;
                return Err(format!("time: {used} ms used with {} ms left", *left));
            }
            *left = (*left - used).max(1) + inc;
        }
        if record.play_text(words[1]).is_err() {
            tally.illegal += 1;
            return Err(format!(
                "illegal move {} at {}",
                words[1],
                record.state().fen()
            ));
        }
        texts.push(words[1].to_string());
        tally.plies += 1;
    }
    let index = match record.outcome() {
        Some(Outcome::Win(Player::P1)) => 0,
        Some(Outcome::Win(Player::P2)) => 1,
        _ => 2,
    };
    tally.results[index] += 1;
    // Both engines must agree with the referee.
    for engine in engines.iter_mut() {
        let position = format!("position startpos moves {}", texts.join(" "));
        engine.send(&position)?;
        let over = engine.answer("gameover")?;
        if over != "response true" {
            return Err(format!(
                "protocol error: engine thinks the game goes on ({over})"
            ));
        }
    }
    Ok(())
}

struct Soak {
    games: u64,
    seed: u64,
}

impl GameVisitor for Soak {
    type Output = Tally;
    fn visit<G: Game>(self) -> Tally {
        let mut rng = Xorshift::new(self.seed);
        let mut tally = Tally::default();
        let mut memory: Vec<(u64, u64)> = Vec::new();
        let start = || -> [Engine; 2] {
            let first = Engine::start(G::NAME).expect("engine starts");
            let second = Engine::start(G::NAME).expect("engine starts");
            [first, second]
        };
        let mut engines = start();
        let started = Instant::now();
        for game in 0..self.games {
            if let Err(why) = play_game::<G>(&mut engines, &mut rng, &mut tally) {
                eprintln!("{} game {game}: {why}", G::NAME);
                if why.starts_with("crash") {
                    tally.crashes += 1;
                } else if why.starts_with("hang") {
                    tally.hangs += 1;
                } else if why.starts_with("protocol") {
                    tally.protocol_errors += 1;
                }
                engines = start();
            }
            tally.games += 1;
            if game % 10 == 9 {
                memory.push(engines[0].memory_kib());
            }
        }
        let first = memory.get(1).copied().unwrap_or_default();
        let last = memory.last().copied().unwrap_or_default();
        eprintln!(
            "soak {}: {:?} in {:.0?}; engine memory RSS/peak KiB after game 20: {:?}, at the end: {:?}",
            G::NAME,
            tally,
            started.elapsed(),
            first,
            last
        );
        // Flat memory: the peak may not grow by more than a quarter after warm-up.
        if first.1 > 0 {
            assert!(
                last.1 <= first.1 + first.1 / 4 + 1024,
                "memory grew: {first:?} → {last:?}"
            );
        }
        tally
    }
}

#[test]
#[ignore = "minutes long; run by hand (see the file's doc)"]
fn soak_every_game() {
    let games: u64 = std::env::var("SOAK_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(200);
    let seed: u64 = std::env::var("SOAK_SEED")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(20_261_122);
    let only = std::env::var("SOAK_ONLY").ok();
    for name in games::NAMES {
        if only.as_deref().is_some_and(|o| o != *name) {
            continue;
        }
        let tally = games::visit(name, Soak { games, seed }).expect("a known game");
        assert_eq!(tally.crashes, 0, "{name}: crashes");
        assert_eq!(tally.hangs, 0, "{name}: hangs");
        assert_eq!(tally.time_losses, 0, "{name}: time losses");
        assert_eq!(tally.illegal, 0, "{name}: illegal moves");
        assert_eq!(tally.protocol_errors, 0, "{name}: protocol errors");
    }
}
