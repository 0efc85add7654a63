//! Perft counts and speed, for any game:
//! `cargo run --release --example perft -- [--full] [--max N] [LINE]`.
//!
//! LINE is a line in the format of `tests/data/perft.txt` (its header describes it), such
//! as `"talpa Size=6 ; startpos ; 1:60 2:3244 3:157408"`: each depth of it is counted and
//! timed, and compared with the count the line gives (to count a new depth, give any
//! count and read the one found). Without LINE, every line of the data file. `--full`
//! counts without bulk counting at the last ply (`perft_full`: every leaf is played);
//! `--max N` skips pinned counts above N (default: 20 million without LINE, none with).

#[path = "../tests/common/perft_data.rs"]
mod perft_data;

use std::time::Instant;

use perft_data::Line;
use tabuleiro::game::Game;
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::perft::{perft, perft_full};

struct Count<'a> {
    line: &'a Line,
    full: bool,
    max: u64,
}

impl GameVisitor for Count<'_> {
    /// Whether every count agreed.
    type Output = Result<bool, String>;

    fn visit<G: Game>(self) -> Result<bool, String> {
        let state: G = self.line.position()?;
        println!("{}", self.line.describe());
        let mut agreed = true;
        for &(depth, pinned) in self.line.counts.iter().filter(|c| c.1 <= self.max) {
            let clock = Instant::now();
            let count = if self.full {
                perft_full(&state, depth)
            } else {
                perft(&state, depth)
            };
            let seconds = clock.elapsed().as_secs_f64();
            let verdict = if count == pinned {
                "ok".to_string()
            } else {
                agreed = false;
                format!("DIFFERS from {pinned}")
            };
            println!(
                "  depth {depth}: {count} {verdict} ({seconds:.3} s, {:.1} M leaves/s)",
                count as f64 / seconds.max(1e-9) / 1e6
            );
        }
        Ok(agreed)
    }
}

fn main() {
    let mut args = std::env::args().skip(1).peekable();
    let mut full = false;
    let mut max = None;
    let mut text = None;
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--full" => full = true,
            "--max" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => max = Some(n),
                None => fail("--max needs a number"),
            },
            _ => text = Some(arg),
        }
    }
    let lines = match &text {
        Some(text) => perft_data::parse(text).unwrap_or_else(|why| fail(&why)),
        None => perft_data::lines(),
    };
    let max = max.unwrap_or(if text.is_some() { u64::MAX } else { 20_000_000 });
    let mut all_agreed = true;
    for line in &lines {
        let count = Count { line, full, max };
        match games::visit(&line.game, count) {
            Some(Ok(agreed)) => all_agreed &= agreed,
            Some(Err(why)) => fail(&format!("{}: {why}", line.describe())),
            None => fail(&format!("no game {}", line.game)),
        }
    }
    if !all_agreed {
        std::process::exit(1);
    }
}

fn fail(why: &str) -> ! {
    eprintln!("{why}");
    std::process::exit(2);
}
