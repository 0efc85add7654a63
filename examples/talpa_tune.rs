//! Fits the Talpa evaluation's weights to exact values (Texel-style): plays 6×6 games
//! (the engine with `Tablebase` off at a few thousand nodes a move, one ply in
//! `BLUNDER` a random move), labels their middle and late positions with the solver's
//! proof (won or lost for the side to move, positions not proven within `--solve-ms`
//! skipped), and fits a logistic model of the win on the evaluation's terms by Newton's
//! method. Prints the weights scaled to a separation of 100, and how well each model
//! (the default evaluation, the existing terms refitted, every term) predicts the
//! winner on positions held out:
//!
//! ```text
//! cargo run --release --example talpa_tune -- --games 300 --seed 1
//! ```
//!
//! Positions whose side to move wins at once (the evaluation's exact `WIN_NOW`) are
//! left out: the evaluation knows them.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Player};
use tabuleiro::games::talpa::solve::Solver;
use tabuleiro::games::talpa::{
    EvalParams, Talpa, WIN_NOW, evaluate_with, safe_captures, separation,
};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Oracle, Policy, SearchLimits};

/// One ply in this many is a random move (so games differ).
const BLUNDER: u64 = 8;

/// The features, from the side to move's view.
const NAMES: [&str; 9] = [
    "separation",
    "touching",
    "tempo (capture phase)",
    "separation, enemy pieces cost 2",
    "separation, enemy pieces walls",
    "material",
    "own separation 1",
    "their separation 1",
    "safe captures",
];

fn features(p: &Talpa) -> [f64; 9] {
    let us = p.side_to_move();
    let them = us.other();
    let g = p.geometry();
    let cap = p.size() as u32 + 1;
    let sep = |player: Player, cost: u32| separation(p, player, cost).min(cap) as f64;
    let (own, enemy) = (p.pieces(us), p.pieces(them));
    let capture = p.in_capture_phase();
    let touching = if capture {
        (own & g.grow(enemy)).count_ones() as f64 - (enemy & g.grow(own)).count_ones() as f64
    } else {
        0.0
    };
    let walled = if capture {
        sep(them, 0) - sep(us, 0)
    } else {
        0.0
    };
    [
        sep(them, 1) - sep(us, 1),
        touching,
        f64::from(u8::from(capture)),
        sep(them, 2) - sep(us, 2),
        walled,
        own.count_ones() as f64 - enemy.count_ones() as f64,
        f64::from(u8::from(sep(us, 1) == 1.0)),
        f64::from(u8::from(sep(them, 1) == 1.0)),
        f64::from(safe_captures(p, us).count_ones())
            - f64::from(safe_captures(p, them).count_ones()),
    ]
}

struct Args {
    games: usize,
    seed: u64,
    nodes: u64,
    solve_ms: u64,
    plies: (u32, u32),
}

fn parse() -> Result<Args, String> {
    let mut args = Args {
        games: 300,
        seed: 1,
        nodes: 3_000,
        solve_ms: 1_000,
        plies: (8, 40),
    };
    let words: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < words.len() {
        let value = words
            .get(i + 1)
            .ok_or_else(|| format!("{} needs a value", words[i]))?;
        let number = |v: &str| v.parse::<u64>().map_err(|e| format!("{}: {e}", words[i]));
        match words[i].as_str() {
            "--games" => args.games = number(value)? as usize,
            "--seed" => args.seed = number(value)?,
            "--nodes" => args.nodes = number(value)?,
            "--solve-ms" => args.solve_ms = number(value)?,
            "--from-ply" => args.plies.0 = number(value)? as u32,
            other => {
                return Err(format!(
                    "unknown argument {other:?} (--games N, --seed S, --nodes N, --solve-ms MS, --from-ply P)"
                ));
            }
        }
        i += 2;
    }
    Ok(args)
}

/// A labelled position: its features, the default evaluation, and whether the side to
/// move wins.
struct Sample {
    x: [f64; 9],
    eval: f64,
    won: bool,
    /// The game it comes from.
    game: usize,
}

fn main() {
    let args = match parse() {
        Ok(args) => args,
        Err(why) => {
            eprintln!("talpa_tune: {why}");
            std::process::exit(2);
        }
    };
    if let Err(why) = run(&args) {
        eprintln!("talpa_tune: {why}");
        std::process::exit(1);
    }
}

fn run(args: &Args) -> Result<(), String> {
    let config = tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", "6")])?;
    let player = Policy::<Talpa>::standard(16, &config);
    let off = tabuleiro::game::Params::defaults(tabuleiro::search::TABLEBASE)
        .with("Tablebase", "false")
        .map_err(|e| e.to_string())?;
    player.oracle().set_options(&off);
    let mut player = player;
    let mut solver = Solver::new(6, 22)?;
    let mut random = Xorshift::new(args.seed);
    let never = AtomicBool::new(false);
    let mut samples = Vec::new();
    let (mut unproven, mut win_now) = (0, 0);
    let started = Instant::now();
    for game in 0..args.games {
        // A game, then its positions labelled from the last to the first (the solver's
        // table keeps the later proofs), until one is not proven in time.
        let mut position = Talpa::start(&config);
        let mut history = vec![position.hash()];
        let mut seen = Vec::new();
        player.clear();
        while position.outcome().is_none() {
            if position.plies() >= args.plies.0 && position.plies() <= args.plies.1 {
                seen.push(position);
            }
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            let mv = if position.plies() < 2 || random.below(BLUNDER) == 0 {
                moves[random.index(moves.len())]
            } else {
                let limits = SearchLimits {
                    nodes: Some(args.nodes),
                    ..SearchLimits::default()
                };
                let stop = Arc::new(AtomicBool::new(false));
                let result = player.search(&position, &history, limits, stop, &mut |_| {});
                result.best.unwrap_or(moves[0])
            };
            position.play(mv);
            history.push(position.hash());
        }
        for p in seen.iter().rev() {
            let eval = evaluate_with(p, &EvalParams::DEFAULT);
            if eval == WIN_NOW {
                win_now += 1;
                continue;
            }
            solver.set_deadline(Some(Instant::now() + Duration::from_millis(args.solve_ms)));
            let proved = solver.prove_by(p, &never, None);
            solver.set_deadline(None);
            let Ok((won, _)) = proved else {
                unproven += 1;
                break;
            };
            samples.push(Sample {
                x: features(p),
                eval: f64::from(eval),
                won,
                game,
            });
        }
    }
    println!(
        "{} positions labelled from {} games (plies {}..={}, {} nodes a move), {} not proven within {} ms, {} wins now left out, {:.0} s",
        samples.len(),
        args.games,
        args.plies.0,
        args.plies.1,
        args.nodes,
        unproven,
        args.solve_ms,
        win_now,
        started.elapsed().as_secs_f64()
    );
    // The positions of every fifth game held out (a game's positions are alike).
    let (test, train): (Vec<&Sample>, Vec<&Sample>) = samples.iter().partition(|s| s.game % 5 == 0);
    let wins = samples.iter().filter(|s| s.won).count();
    println!(
        "side to move wins {wins} of {} ({:.1} %); fit on {}, held out {}",
        samples.len(),
        100.0 * wins as f64 / samples.len().max(1) as f64,
        train.len(),
        test.len()
    );
    // The default evaluation: only its scale is fitted.
    let scale = fit(&train, |s| vec![s.eval / 100.0]);
    report("default evaluation", &scale, &test, |s| {
        vec![s.eval / 100.0]
    });
    let models: [(&str, &[usize]); 6] = [
        ("separation and touching refitted", &[0, 1]),
        ("separation and safe captures", &[0, 8]),
        ("separation, touching and safe captures", &[0, 1, 8]),
        ("with the capture-phase tempo", &[0, 1, 2]),
        ("with the separation-1 flags", &[0, 1, 2, 6, 7]),
        ("every term", &[0, 1, 2, 3, 4, 5, 6, 7, 8]),
    ];
    for (name, terms) in models {
        let pick = |s: &Sample| terms.iter().map(|&t| s.x[t]).collect::<Vec<f64>>();
        let w = fit(&train, pick);
        report(name, &w, &test, pick);
        let unit = w[0];
        for (k, &t) in terms.iter().enumerate() {
            println!("    {:<34} {:>8.1}", NAMES[t], 100.0 * w[k] / unit);
        }
    }
    Ok(())
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Logistic regression without intercept (the features are from the side to move's
/// view; the tempo is a feature), by Newton's method with a little ridge.
fn fit(samples: &[&Sample], x: impl Fn(&Sample) -> Vec<f64>) -> Vec<f64> {
    let n = x(samples[0]).len();
    let mut w = vec![0.0; n];
    for _ in 0..50 {
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for s in samples {
            let xs = x(s);
            let z: f64 = xs.iter().zip(&w).map(|(a, b)| a * b).sum();
            let p = sigmoid(z);
            let y = f64::from(u8::from(s.won));
            for i in 0..n {
                grad[i] += (p - y) * xs[i];
                for j in 0..n {
                    hess[i][j] += p * (1.0 - p) * xs[i] * xs[j];
                }
            }
        }
        for i in 0..n {
            grad[i] += 1e-3 * w[i];
            hess[i][i] += 1e-3;
        }
        let step = solve(hess, grad);
        for i in 0..n {
            w[i] -= step[i];
        }
    }
    w
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting.
fn solve(mut a: Vec<Vec<f64>>, mut b: Vec<f64>) -> Vec<f64> {
    let n = b.len();
    for c in 0..n {
        let pivot = (c..n)
            .max_by(|&i, &j| a[i][c].abs().total_cmp(&a[j][c].abs()))
            .unwrap_or(c);
        a.swap(c, pivot);
        b.swap(c, pivot);
        if a[c][c].abs() < 1e-12 {
            continue;
        }
        let pivot_row = a[c].clone();
        for r in c + 1..n {
            let f = a[r][c] / pivot_row[c];
            for (x, p) in a[r][c..].iter_mut().zip(&pivot_row[c..]) {
                *x -= f * p;
            }
            b[r] -= f * b[c];
        }
    }
    let mut x = vec![0.0; n];
    for c in (0..n).rev() {
        let rest: f64 = (c + 1..n).map(|k| a[c][k] * x[k]).sum();
        x[c] = if a[c][c].abs() < 1e-12 {
            0.0
        } else {
            (b[c] - rest) / a[c][c]
        };
    }
    x
}

/// Log-loss and the share of positions whose winner the model's sign names.
fn report(name: &str, w: &[f64], test: &[&Sample], x: impl Fn(&Sample) -> Vec<f64>) {
    let (mut loss, mut right) = (0.0, 0);
    for s in test {
        let z: f64 = x(s).iter().zip(w).map(|(a, b)| a * b).sum();
        let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
        loss -= if s.won { p.ln() } else { (1.0 - p).ln() };
        right += usize::from((z > 0.0) == s.won);
    }
    println!(
        "{name}: held-out log-loss {:.4}, winner named {:.1} %",
        loss / test.len().max(1) as f64,
        100.0 * right as f64 / test.len().max(1) as f64
    );
}
