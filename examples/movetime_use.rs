//! How much of `go movetime MS` the engine uses, per game (issue 32, item 3).
//!
//! `cargo run --release --example movetime_use [BINARY] [MS]` (default
//! `target/release/tabuleiro`, 1000 ms) starts the engine binary, and for every game's
//! `bench` positions sends `position fen …` then `go movetime MS`, timing from the `go`
//! written to the `bestmove` read, as an arena does. It prints per position the time
//! used and its share of `MS − MoveOverhead` (the default overhead), marked `proven`
//! when the last `info` gave a mate score or an `info string` said the value is solved
//! or from a table (a proven answer may come early), and per game the least share of the
//! positions not proven. Driving the binary rather than the library measures the whole
//! path, session included.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::time::Instant;

use tabuleiro::bench;
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::search::Strategy;

/// `MoveOverhead`'s default, as the session uses it.
const OVERHEAD_MS: u64 = tabuleiro::session::OVERHEAD_DEFAULT as u64;

struct Fens;

impl GameVisitor for Fens {
    type Output = Vec<String>;
    fn visit<G: Strategy>(self) -> Vec<String> {
        bench::positions::<G>().iter().map(|s| s.fen()).collect()
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let binary = args
        .first()
        .cloned()
        .unwrap_or_else(|| "target/release/tabuleiro".to_string());
    let movetime: u64 = args.get(1).map_or(Ok(1000), |a| a.parse())?;
    let target = movetime.saturating_sub(OVERHEAD_MS).max(1) as f64;
    let mut child = Command::new(&binary)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()?;
    let mut input = child.stdin.take().ok_or("no stdin")?;
    let mut output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
    let mut line = String::new();
    let mut read_until = |prefix: &str, seen: &mut dyn FnMut(&str)| -> std::io::Result<()> {
        loop {
            line.clear();
            if output.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("the engine closed its output"));
            }
            seen(line.trim_end());
            if line.starts_with(prefix) {
                return Ok(());
            }
        }
    };
    println!(
        "binary {binary}, go movetime {movetime}, target {target} ms (less MoveOverhead {OVERHEAD_MS})"
    );
    for name in games::NAMES {
        let fens = games::visit(name, Fens).ok_or("unknown game")?;
        writeln!(input, "game {name}\nisready")?;
        read_until("readyok", &mut |_| {})?;
        let mut least: Option<f64> = None;
        let mut shares = Vec::new();
        for fen in &fens {
            writeln!(input, "uginewgame\nposition fen {fen}\nisready")?;
            read_until("readyok", &mut |_| {})?;
            let started = Instant::now();
            writeln!(input, "go movetime {movetime}")?;
            let mut proven = false;
            read_until("bestmove", &mut |l| {
                if l.starts_with("info") && l.contains(" score ") {
                    proven = l.contains(" score mate ");
                }
                if l.starts_with("info string") && (l.contains("solved") || l.contains("table")) {
                    proven = true;
                }
            })?;
            let used = started.elapsed().as_secs_f64() * 1000.0;
            let share = used / target * 100.0;
            println!(
                "{name:<13} {used:7.1} ms {share:6.1} %{}  {fen}",
                if proven { " proven" } else { "       " }
            );
            if !proven {
                least = Some(least.map_or(share, |l: f64| l.min(share)));
                shares.push(share);
            }
        }
        match least {
            Some(least) => println!(
                "{name:<13} least share (not proven) {least:.1} %, mean {:.1} % over {} of {}",
                shares.iter().sum::<f64>() / shares.len() as f64,
                shares.len(),
                fens.len()
            ),
            None => println!("{name:<13} every position proven"),
        }
    }
    writeln!(input, "quit")?;
    child.wait()?;
    Ok(())
}
