//! Fits the Talpa evaluation's weights to exact values (Texel-style): plays games (the
//! engine with `Tablebase` off at a few thousand nodes a move, one ply in `BLUNDER` a
//! random move), labels their middle and late positions won or lost for the side to
//! move by a proof within `--solve-ms` (from each game's last position back, until one
//! is not proven), and fits a logistic model of the win on the evaluation's terms by
//! Newton's method. Prints the weights scaled to a separation of 100, and how well each
//! model (the default evaluation, the existing terms refitted, other terms) predicts the
//! winner on positions held out (every fifth game's):
//!
//! ```text
//! cargo run --release --example talpa_tune -- --games 300 --seed 1
//! cargo run --release --example talpa_tune -- --size 8 --games 300 --seed 1120
//! ```
//!
//! 6×6 (the default: plies 8–40, 1 s a proof) is labelled by the exact solver; 8×8
//! (plies 24–34, where the engine's games are decided, 2 s a proof) by the engine's
//! proving search (`go solve`). `--dump FILE` writes the labelled positions (FEN, game,
//! ply, won, default evaluation, features; tab-separated); `--labels FILE` reads such a
//! file back instead of playing and proving (its features and evaluation computed anew,
//! so new terms are fitted on old labels). Positions whose side to move
//! wins at once (the evaluation's exact `WIN_NOW`) are left out: the evaluation knows
//! them.

#[path = "tuning/mod.rs"]
mod tuning;
use tuning::report;

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Player};
use tabuleiro::games::talpa::solve::Solver;
use tabuleiro::games::talpa::{
    EvalParams, Talpa, WIN_NOW, completing_squares, contact_separation, cut, evaluate_with,
    latent_wins, safe_captures, safe_removals, separation, separation_through,
};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Oracle, Policy, SearchLimits};

/// One ply in this many is a random move (so games differ).
const BLUNDER: u64 = 8;

/// The features, from the side to move's view.
const NAMES: [&str; FEATURES] = [
    "separation",
    "touching",
    "tempo (capture phase)",
    "separation, enemy pieces cost 2",
    "separation, enemy pieces walls",
    "material",
    "own separation 1",
    "their separation 1",
    "safe captures",
    "safe removals",
    "captures odd (capture phase)",
    "tempo (removal phase)",
    "walled race (removal phase)",
    "own separation 2",
    "their separation 2",
    "own separation 1, no capture",
    "their safe captures 0 or 1",
    "own latent wins",
    "their latent wins",
    "own latent win",
    "their latent win",
    "own frozen pieces",
    "their frozen pieces",
    "cut (disjoint paths)",
    "separation, own contact pieces free",
    "separation, contact pieces free",
];

const FEATURES: usize = 26;

fn features(p: &Talpa) -> [f64; FEATURES] {
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
    let flag = |b: bool| f64::from(u8::from(b));
    let (ours1, theirs1) = (sep(us, 1), sep(them, 1));
    let (our_latent, their_latent) = (latent_wins(p, us), latent_wins(p, them));
    let their_safe = safe_captures(p, them).count_ones();
    let odd = if capture {
        if p.capture_count() % 2 == 1 {
            1.0
        } else {
            -1.0
        }
    } else {
        0.0
    };
    [
        theirs1 - ours1,
        touching,
        flag(capture),
        sep(them, 2) - sep(us, 2),
        walled,
        own.count_ones() as f64 - enemy.count_ones() as f64,
        flag(ours1 == 1.0),
        flag(theirs1 == 1.0),
        f64::from(safe_captures(p, us).count_ones()) - f64::from(their_safe),
        f64::from(safe_removals(p, us).0) - f64::from(safe_removals(p, them).0),
        odd,
        flag(!capture),
        if capture {
            0.0
        } else {
            sep(them, 0) - sep(us, 0)
        },
        flag(ours1 == 2.0),
        flag(theirs1 == 2.0),
        flag(ours1 == 1.0 && !capture),
        flag(capture && their_safe <= 1),
        f64::from(our_latent.count_ones()),
        f64::from(their_latent.count_ones()),
        flag(our_latent != 0),
        flag(their_latent != 0),
        f64::from((completing_squares(p, them) & own).count_ones()),
        f64::from((completing_squares(p, us) & enemy).count_ones()),
        f64::from(cut(p, us).min(cap)) - f64::from(cut(p, them).min(cap)),
        own_contact_free(p, them) - own_contact_free(p, us),
        f64::from(contact_separation(p, them).min(cap))
            - f64::from(contact_separation(p, us).min(cap)),
    ]
}

/// The separation of `player` where its own pieces in contact cost nothing (it may
/// empty them by capturing).
fn own_contact_free(p: &Talpa, player: Player) -> f64 {
    let g = p.geometry();
    let free = p.pieces(player) & g.grow(p.pieces(player.other()));
    f64::from(separation_through(p, player, free).min(p.size() as u32 + 1))
}

struct Args {
    size: usize,
    games: usize,
    seed: u64,
    nodes: u64,
    solve_ms: u64,
    plies: (u32, u32),
    /// Where to write the labelled positions (game, ply, won, eval, features; tabs).
    dump: Option<String>,
    /// A dump to read the labelled positions from instead of playing and proving.
    labels: Option<String>,
}

fn parse() -> Result<Args, String> {
    let words: Vec<String> = std::env::args().skip(1).collect();
    // The board first: it sets the other defaults.
    let size = match words.iter().position(|w| w == "--size") {
        Some(i) => match words.get(i + 1).map(|v| v.parse::<usize>()) {
            Some(Ok(size)) if size == 6 || size == 8 => size,
            _ => return Err("--size takes 6 or 8".to_string()),
        },
        None => 6,
    };
    let mut args = if size == 6 {
        Args {
            size,
            games: 300,
            seed: 1,
            nodes: 3_000,
            solve_ms: 1_000,
            plies: (8, 40),
            dump: None,
            labels: None,
        }
    } else {
        Args {
            size,
            games: 100,
            seed: 1,
            nodes: 3_000,
            solve_ms: 2_000,
            plies: (24, 34),
            dump: None,
            labels: None,
        }
    };
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
            "--to-ply" => args.plies.1 = number(value)? as u32,
            "--size" => {}
            "--dump" => args.dump = Some(value.clone()),
            "--labels" => args.labels = Some(value.clone()),
            other => {
                return Err(format!(
                    "unknown argument {other:?} (--size 6|8, --games N, --seed S, --nodes N, --solve-ms MS, --from-ply P, --to-ply P, --dump FILE, --labels FILE)"
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
    x: [f64; FEATURES],
    /// Its ply.
    ply: u32,
    fen: String,
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
    let size = args.size.to_string();
    let config = tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", size.as_str())])?;
    let player = Policy::<Talpa>::standard(16, &config);
    let off = tabuleiro::game::Params::defaults(tabuleiro::search::TABLEBASE)
        .with("Tablebase", "false")
        .map_err(|e| e.to_string())?;
    player.oracle().set_options(&off);
    let mut player = player;
    let mut truth = if args.size <= EXACT_TRUTH_SIZE {
        Truth::Solver(Box::new(Solver::new(args.size, 22)?))
    } else {
        Truth::Proof(Box::new(Policy::<Talpa>::standard(64, &config)))
    };
    let mut random = Xorshift::new(args.seed);
    let never = AtomicBool::new(false);
    let mut samples = Vec::new();
    let (mut unproven, mut win_now) = (0, 0);
    let started = Instant::now();
    if let Some(path) = &args.labels {
        samples = read_labels(path, &config)?;
    }
    let games = if args.labels.is_some() { 0 } else { args.games };
    for game in 0..games {
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
            let Some(won) = truth.wins(p, Duration::from_millis(args.solve_ms), &never) else {
                unproven += 1;
                break;
            };
            samples.push(Sample {
                ply: p.plies(),
                fen: p.fen(),
                x: features(p),
                eval: f64::from(eval),
                won,
                game,
            });
        }
    }
    if let Some(path) = &args.labels {
        println!("{} labelled positions read from {path}", samples.len());
    }
    println!(
        "{} positions labelled from {} games (plies {}..={}, {} nodes a move), {} not proven within {} ms, {} wins now left out, {:.0} s",
        samples.len(),
        games,
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
    let models: [(&str, &[usize]); 14] = [
        ("separation and touching refitted", &[0, 1]),
        ("separation and safe captures", &[0, 8]),
        ("separation, touching and safe captures", &[0, 1, 8]),
        ("with the capture-phase tempo", &[0, 1, 2]),
        ("with the separation-1 flags", &[0, 1, 2, 6, 7]),
        (
            "with the separation-1 and -2 flags",
            &[0, 1, 2, 6, 7, 13, 14],
        ),
        (
            "with safe removals and the capture parity",
            &[0, 1, 2, 9, 10, 11],
        ),
        ("with the removal-phase race", &[0, 1, 2, 11, 12]),
        ("with the latent wins", &[0, 1, 2, 17, 18]),
        (
            "with the latent wins and frozen pieces",
            &[0, 1, 2, 17, 18, 21, 22],
        ),
        ("the late set and the cut", &[0, 1, 8, 23]),
        ("the late set, own contact pieces free", &[0, 1, 8, 24]),
        ("the late set, contact pieces free", &[0, 1, 8, 25]),
        (
            "every term",
            &[
                0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22,
                23, 24, 25,
            ],
        ),
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
    // Each other term beside separation, touching and the tempo, one at a time.
    println!("one term added to separation, touching and the capture-phase tempo:");
    for (t, name) in NAMES.iter().enumerate().skip(3) {
        let terms = [0, 1, 2, t];
        let pick = |s: &Sample| terms.iter().map(|&t| s.x[t]).collect::<Vec<f64>>();
        let w = fit(&train, pick);
        print!("    {name:<34} {:>8.1}  ", 100.0 * w[3] / w[0]);
        report("", &w, &test, pick);
    }
    // By ply: the default evaluation against always naming the side to move.
    println!("held out by ply: positions, side to move wins, default evaluation right");
    for from in (args.plies.0..=args.plies.1).step_by(4) {
        let bucket: Vec<&&Sample> = test
            .iter()
            .filter(|s| s.ply >= from && s.ply < from + 4)
            .collect();
        let n = bucket.len().max(1) as f64;
        let mover = bucket.iter().filter(|s| s.won).count();
        let right = bucket.iter().filter(|s| (s.eval > 0.0) == s.won).count();
        println!(
            "    plies {from}..{}: {:>5}  {:>5.1} %  {:>5.1} %",
            from + 3,
            bucket.len(),
            100.0 * mover as f64 / n,
            100.0 * right as f64 / n
        );
    }
    if let Some(path) = &args.dump {
        let mut text = String::new();
        for s in &samples {
            let x: Vec<String> = s.x.iter().map(|v| v.to_string()).collect();
            text += &format!(
                "{}\t{}\t{}\t{}\t{}\t{}\n",
                s.fen,
                s.game,
                s.ply,
                u8::from(s.won),
                s.eval,
                x.join("\t")
            );
        }
        std::fs::write(path, text).map_err(|e| format!("{path}: {e}"))?;
    }
    Ok(())
}

/// The positions of a `--dump` file, their features and evaluation computed anew.
fn read_labels(path: &str, config: &<Talpa as Game>::Config) -> Result<Vec<Sample>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let mut samples = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let bad = |what: &str| format!("{path}:{}: {what}", n + 1);
        let fields: Vec<&str> = line.split('\t').collect();
        if fields.len() < 4 {
            return Err(bad("fewer than 4 fields"));
        }
        let p = Talpa::from_fen(config, fields[0]).map_err(|e| bad(&e.to_string()))?;
        let game = fields[1].parse().map_err(|_| bad("game"))?;
        let won = fields[3] == "1";
        samples.push(Sample {
            ply: p.plies(),
            fen: p.fen(),
            x: features(&p),
            eval: f64::from(evaluate_with(&p, &EvalParams::DEFAULT)),
            won,
            game,
        });
    }
    Ok(samples)
}

/// The largest board labelled by the exact solver. The solver takes 8×8 too (faster than
/// `go solve` on the late positions), but the 8×8 labels of the tenth pass were the
/// proving search's; moving them to the solver is left to a labelling run of its own.
const EXACT_TRUTH_SIZE: usize = 6;

/// Who wins a position: the exact solver (boards up to 6×6), else the engine's proving
/// search (`go solve`).
enum Truth {
    Solver(Box<Solver>),
    Proof(Box<Policy<Talpa>>),
}

impl Truth {
    /// Whether the side to move wins, when proven within `limit`.
    fn wins(&mut self, p: &Talpa, limit: Duration, never: &AtomicBool) -> Option<bool> {
        match self {
            Truth::Solver(solver) => {
                solver.set_deadline(Some(Instant::now() + limit));
                let proved = solver.prove_by(p, never, None);
                solver.set_deadline(None);
                proved.ok().map(|(won, _)| won)
            }
            Truth::Proof(prover) => tuning::proven_win(prover.as_mut(), p, limit),
        }
    }
}

impl tuning::Labelled for Sample {
    fn won(&self) -> bool {
        self.won
    }
}

/// The logistic fit of `logistic`, 50 Newton steps.
fn fit(samples: &[&Sample], x: impl Fn(&Sample) -> Vec<f64>) -> Vec<f64> {
    tuning::fit(samples, 50, x)
}
