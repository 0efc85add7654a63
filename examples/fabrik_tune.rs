//! Fits weights of Fabrik's evaluation terms to game outcomes (Texel-style): plays
//! games between varied players (the engine at depth 2 or a few thousand nodes a move,
//! the first four plies and one ply in `BLUNDER` a random move, so that games differ),
//! labels their middle and late positions won or lost for the side to move by the
//! game's result (and, with `--solve-ms`, the last positions of each game by a proof
//! of the engine's `go solve` within that time, from the end back until one is not
//! proven), and fits a logistic model of the win on the features of
//! `tabuleiro::games::fabrik::features` by Newton's method. Prints how well each model
//! (the shipped evaluation's scale, its terms refitted, the evaluation plus the room
//! terms, every term) predicts the winner on positions held out (every fourth game's),
//! and the weights in the evaluation's units (centipawns of the shipped evaluation).
//!
//! ```text
//! cargo run --release --example fabrik_tune -- --games 1500 --seed 1135 --dump F.tsv
//! cargo run --release --example fabrik_tune -- --load F.tsv
//! cargo run --release --example fabrik_tune -- --size 7 --line 4 --games 600 --seed 1136
//! ```
//!
//! `--dump FILE` writes the labelled positions (FEN, game, ply, won, exact, shipped
//! evaluation; tab-separated); `--load FILE` fits on such a file instead of playing
//! (the features are computed again from the FENs). `--plies A..B` keeps the positions
//! of those plies (default 30..120), `--exact` only those labelled by a proof.
//! Positions the evaluation scores exactly (a win now, lost in two) are left out: it
//! knows them.

#[path = "tuning/mod.rs"]
mod tuning;
use tuning::report;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Outcome};
use tabuleiro::games::fabrik::eval::{WIN_NOW, evaluate};
use tabuleiro::games::fabrik::features::{FEATURES, NAMES, features};
use tabuleiro::games::fabrik::{Fabrik, MoveKind};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Policy, SearchLimits};

/// One ply in this many (after the opening) is a random move.
const BLUNDER: u64 = 16;
/// At most this many positions of a game are labelled by a proof.
const PROOFS_PER_GAME: usize = 12;

struct Args {
    games: usize,
    seed: u64,
    size: u32,
    line: u32,
    plies: (u32, u32),
    solve_ms: u64,
    dump: Option<String>,
    load: Option<String>,
    /// Fit on the exact labels only.
    exact: bool,
}

struct Sample {
    fen: String,
    game: usize,
    ply: u32,
    won: bool,
    exact: bool,
    eval: f64,
    x: [f64; FEATURES],
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        games: 200,
        seed: 1,
        size: 11,
        line: 5,
        plies: (30, 120),
        solve_ms: 0,
        dump: None,
        load: None,
        exact: false,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        let number = |v: String| v.parse::<u64>().map_err(|e| format!("{flag}: {e}"));
        match flag.as_str() {
            "--games" => args.games = number(value()?)? as usize,
            "--seed" => args.seed = number(value()?)?,
            "--size" => args.size = number(value()?)? as u32,
            "--line" => args.line = number(value()?)? as u32,
            "--solve-ms" => args.solve_ms = number(value()?)?,
            "--plies" => {
                let v = value()?;
                let (a, b) = v.split_once("..").ok_or("--plies A..B")?;
                args.plies = (
                    a.parse().map_err(|_| "--plies A..B")?,
                    b.parse().map_err(|_| "--plies A..B")?,
                );
            }
            "--dump" => args.dump = Some(value()?),
            "--load" => args.load = Some(value()?),
            "--exact" => args.exact = true,
            other => return Err(format!("unknown argument {other}")),
        }
    }
    Ok(args)
}

fn main() {
    let args = match parse() {
        Ok(args) => args,
        Err(why) => {
            eprintln!("fabrik_tune: {why}");
            std::process::exit(2);
        }
    };
    if let Err(why) = run(&args) {
        eprintln!("fabrik_tune: {why}");
        std::process::exit(1);
    }
}

/// A player of the labelled games: the engine at a depth, or at a number of nodes.
#[derive(Clone, Copy, Debug)]
enum Player {
    Depth(u32),
    Nodes(u64),
}

const PLAYERS: [Player; 4] = [
    Player::Depth(2),
    Player::Nodes(1_000),
    Player::Nodes(3_000),
    Player::Nodes(10_000),
];

fn sample(fen: String, game: usize, ply: u32, won: bool, exact: bool, p: &Fabrik) -> Sample {
    Sample {
        fen,
        game,
        ply,
        won,
        exact,
        eval: f64::from(evaluate(p)),
        x: features(p),
    }
}

/// Whether the evaluation scores the position exactly (left out of the fit).
fn exact_eval(p: &Fabrik) -> bool {
    evaluate(p).abs() >= WIN_NOW - 1
}

fn play(args: &Args, config: &<Fabrik as Game>::Config) -> Vec<Sample> {
    let mut searchers = [
        Policy::<Fabrik>::standard(16, config),
        Policy::<Fabrik>::standard(16, config),
    ];
    let mut prover = Policy::<Fabrik>::standard(32, config);
    let mut random = Xorshift::new(args.seed);
    let mut samples = Vec::new();
    let (mut proven, mut left_out) = (0, 0);
    let started = Instant::now();
    for game in 0..args.games {
        let players = [
            PLAYERS[random.index(PLAYERS.len())],
            PLAYERS[random.index(PLAYERS.len())],
        ];
        for s in searchers.iter_mut() {
            s.clear();
        }
        let mut position = Fabrik::start(config);
        let mut history = vec![position.hash()];
        let mut seen = Vec::new();
        while position.outcome().is_none() {
            if (args.plies.0..=args.plies.1).contains(&position.plies()) {
                seen.push(position);
            }
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            moves.retain(|mv| mv.kind() != MoveKind::Pass);
            let side = position.side_to_move().index();
            let mv = if position.plies() < 4 || random.below(BLUNDER) == 0 {
                moves[random.index(moves.len())]
            } else {
                let limits = match players[side] {
                    Player::Depth(d) => SearchLimits {
                        depth: Some(d),
                        ..SearchLimits::default()
                    },
                    Player::Nodes(n) => SearchLimits {
                        nodes: Some(n),
                        ..SearchLimits::default()
                    },
                };
                let stop = Arc::new(AtomicBool::new(false));
                let result = searchers[side].search(&position, &history, limits, stop, &mut |_| {});
                result.best.unwrap_or(moves[0])
            };
            position.play(mv);
            history.push(position.hash());
        }
        let Some(Outcome::Win(winner)) = position.outcome() else {
            continue;
        };
        // From the end back: a proof while one is found within the time, then the
        // game's result.
        let mut proving = args.solve_ms > 0;
        let mut proofs = 0;
        for p in seen.iter().rev() {
            if exact_eval(p) {
                left_out += 1;
                continue;
            }
            let mut won = p.side_to_move() == winner;
            let mut exact = false;
            if proving && proofs < PROOFS_PER_GAME {
                proofs += 1;
                match tuning::proven_win(&mut prover, p, Duration::from_millis(args.solve_ms)) {
                    Some(w) => {
                        won = w;
                        exact = true;
                        proven += 1;
                    }
                    None => proving = false,
                }
            }
            samples.push(sample(p.fen(), game, p.plies(), won, exact, p));
        }
    }
    println!(
        "{} positions from {} games (plies {}..={}, players {PLAYERS:?}, one ply in {BLUNDER} random), {proven} labelled by a proof within {} ms, {left_out} scored exactly by the evaluation left out, {:.0} s",
        samples.len(),
        args.games,
        args.plies.0,
        args.plies.1,
        args.solve_ms,
        started.elapsed().as_secs_f64()
    );
    samples
}

fn load(path: &str, config: &<Fabrik as Game>::Config) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut samples = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = || format!("{path}:{}: bad line", n + 1);
        let f: Vec<&str> = line.split('\t').collect();
        if f.len() < 5 {
            return Err(bad());
        }
        let p = Fabrik::from_fen(config, f[0]).map_err(|e| format!("{path}:{}: {e}", n + 1))?;
        let game = f[1].parse().map_err(|_| bad())?;
        let ply = f[2].parse().map_err(|_| bad())?;
        samples.push(sample(
            f[0].to_string(),
            game,
            ply,
            f[3] == "1",
            f[4] == "1",
            &p,
        ));
    }
    Ok(samples)
}

fn run(args: &Args) -> Result<(), String> {
    let (size, line) = (args.size.to_string(), args.line.to_string());
    let config = tabuleiro::options::config_from_pairs::<Fabrik>(&[
        ("Size", size.as_str()),
        ("LineLength", line.as_str()),
    ])?;
    let mut samples = match &args.load {
        Some(path) => load(path, &config)?,
        None => play(args, &config),
    };
    if samples.is_empty() {
        return Err("no positions".into());
    }
    if let Some(path) = &args.dump {
        let mut text = String::new();
        for s in &samples {
            text += &format!(
                "{}\t{}\t{}\t{}\t{}\t{}\n",
                s.fen,
                s.game,
                s.ply,
                u8::from(s.won),
                u8::from(s.exact),
                s.eval
            );
        }
        std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
    }
    // The plies asked for, and the exact labels only if asked.
    samples.retain(|s| (args.plies.0..=args.plies.1).contains(&s.ply) && (s.exact || !args.exact));
    // Every fourth game's positions held out (a game's positions are alike).
    let (test, train): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| s.game % 4 == 0);
    let wins = samples.iter().filter(|s| s.won).count();
    let exact = samples.iter().filter(|s| s.exact).count();
    println!(
        "side to move wins {wins} of {} ({:.1} %), {exact} labels exact; fit on {}, held out {}",
        samples.len(),
        100.0 * wins as f64 / samples.len() as f64,
        train.len(),
        test.len()
    );
    let eval = |s: &Sample| s.eval / 100.0;
    let scale = fit(&train, |s| vec![eval(s)]);
    report(
        "shipped evaluation (its scale fitted)",
        &scale,
        &test,
        |s| vec![eval(s)],
    );
    let shipped: Vec<usize> = (0..=8).collect();
    let room: Vec<usize> = (9..FEATURES).collect();
    let all: Vec<usize> = (0..FEATURES).collect();
    for (name, terms) in [
        ("the shipped terms refitted", &shipped),
        ("every term", &all),
    ] {
        let pick = |s: &Sample| terms.iter().map(|&t| s.x[t]).collect::<Vec<f64>>();
        let w = fit(&train, pick);
        report(name, &w, &test, pick);
        // In the shipped evaluation's units (a weight per unit of the feature, times
        // 100 / the fitted scale of the shipped evaluation per 100), and at 100 a
        // logit (a score of 100 is odds of e to 1).
        println!(
            "    (the shipped evaluation: {:.3} logit per 100)",
            scale[0]
        );
        for (k, &t) in terms.iter().enumerate() {
            println!(
                "    {:<42} {:>9.1} {:>9.1}",
                NAMES[t],
                100.0 * w[k] / scale[0],
                100.0 * w[k]
            );
        }
    }
    // The shipped evaluation kept whole, the room terms added: what can go into the
    // engine without touching the terms it has.
    let pick = |s: &Sample| {
        let mut v = vec![eval(s)];
        v.extend(room.iter().map(|&t| s.x[t]));
        v
    };
    let w = fit(&train, pick);
    report("shipped evaluation + room terms", &w, &test, pick);
    for (k, &t) in room.iter().enumerate() {
        println!("    {:<42} {:>9.1} cp", NAMES[t], 100.0 * w[k + 1] / w[0]);
    }
    println!("one room term added to the shipped evaluation (weight in its cp):");
    for &t in &room {
        let pick = |s: &Sample| vec![eval(s), s.x[t]];
        let w = fit(&train, pick);
        print!("    {:<42} {:>9.1}  ", NAMES[t], 100.0 * w[1] / w[0]);
        report("", &w, &test, pick);
    }
    // By ply: the shipped evaluation's sign, and the fit of every term, on held-out
    // positions.
    let pick_all = |s: &Sample| all.iter().map(|&t| s.x[t]).collect::<Vec<f64>>();
    let w_all = fit(&train, pick_all);
    println!(
        "held out by ply: positions, side to move wins, shipped evaluation right, every-term fit right"
    );
    let last = samples.iter().map(|s| s.ply).max().unwrap_or(0);
    let first = samples.iter().map(|s| s.ply).min().unwrap_or(0);
    for from in (first..=last).step_by(10) {
        let bucket: Vec<&&Sample> = test
            .iter()
            .filter(|s| s.ply >= from && s.ply < from + 10)
            .collect();
        if bucket.is_empty() {
            continue;
        }
        let n = bucket.len() as f64;
        let mover = bucket.iter().filter(|s| s.won).count();
        let right = bucket.iter().filter(|s| (s.eval > 0.0) == s.won).count();
        let fitted = bucket
            .iter()
            .filter(|s| (tuning::dot(&pick_all(s), &w_all) > 0.0) == s.won)
            .count();
        println!(
            "    plies {from}..{}: {:>6}  {:>5.1} %  {:>5.1} %  {:>5.1} %",
            from + 9,
            bucket.len(),
            100.0 * mover as f64 / n,
            100.0 * right as f64 / n,
            100.0 * fitted as f64 / n
        );
    }
    Ok(())
}

impl tuning::Labelled for Sample {
    fn won(&self) -> bool {
        self.won
    }
}

/// The logistic fit of `logistic`, 30 Newton steps.
fn fit(samples: &[&Sample], x: impl Fn(&Sample) -> Vec<f64>) -> Vec<f64> {
    tuning::fit(samples, 30, x)
}
