//! Fits the Linetris row-clear evaluation's weights to exact values (issue 34): a
//! logistic (Texel-style) fit of the terms of `linetris::eval::features` on
//! positions labelled by the row clear's retrograde tables.
//!
//! ```text
//! cargo run --release --example linetris_tune -- [--board 5x5,4x6] [--games N] [--seed S] [--iterations N] [--terms N]
//! ```
//!
//! Positions come from games from the start on each board (the board's table from the
//! cache, else built and saved there): every ply a random move one
//! time in `--random-one-in` (default 2), else a random move that keeps the position's value; one position in
//! four is kept. Positions whose side to move wins next move or is lost at once (what
//! the evaluation scores exactly) are left out. Each is labelled 1, ½ or 0 (won, drawn,
//! lost for the side to move). The current evaluation is fitted first (one scale `S`:
//! the prediction is `1 / (1 + e^(−eval / S))`); then the weights of the terms, by
//! gradient descent on the mean squared error (Adam), on three positions in four; the
//! fourth is the test set (`--terms N` fits only the first N terms). Prints both
//! errors, the test set's accuracy (the share whose nearest label to the prediction
//! is theirs) and the weights in the evaluation's units (that same `S`), which
//! `eval.rs` rounds into its constants.
//!
//! `--labelled F,...` adds 6 × 7 positions labelled by a long search
//! (`examples/linetris_label.rs`): a score `cp` becomes the label `1 / (1 + e^(−cp /
//! S'))` with `--label-scale S'`, a mate 1 or 0; `--labelled-weight K` counts each K
//! times in the fit, and `--board none` fits on them alone (the weights then printed in
//! units of `S'`, the search's own). Errors are printed for the tables' positions and
//! the searched ones apart (the tables' stay the check).

use tabuleiro::game::{Game, Outcome, Value};
use tabuleiro::games::linetris::eval::{FEATURE_NAMES, FEATURES, evaluate, features};
use tabuleiro::games::linetris::retro::{Table, cache};
use tabuleiro::games::linetris::{Config, Linetris};
use tabuleiro::rng::Xorshift;

struct Args {
    boards: Vec<(u32, u32)>,
    games: usize,
    seed: u64,
    iterations: usize,
    /// One ply in this many plays any random move (the others keep the value).
    random_one_in: u64,
    /// Only the first this many terms are fitted (the others stay 0).
    terms: usize,
    /// Files of 6 × 7 positions labelled by a search (`examples/linetris_label.rs`).
    labelled: Vec<String>,
    /// The scale that turns a search's score into a label: `1 / (1 + e^(−cp / S))`.
    label_scale: f64,
    /// Each labelled position counts this many times in the fit.
    labelled_weight: usize,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        boards: vec![(5, 5), (4, 6)],
        games: 40_000,
        seed: 1,
        iterations: 1500,
        random_one_in: 2,
        terms: FEATURES,
        labelled: Vec::new(),
        label_scale: 0.0,
        labelled_weight: 1,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let mut value = || it.next().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--labelled" => args.labelled = value()?.split(',').map(String::from).collect(),
            "--label-scale" => {
                args.label_scale = value()?.parse().map_err(|_| "bad --label-scale")?
            }
            "--labelled-weight" => {
                args.labelled_weight = value()?.parse().map_err(|_| "bad --labelled-weight")?
            }
            "--board" => {
                let text = value()?;
                if text == "none" {
                    args.boards.clear();
                    continue;
                }
                args.boards = text
                    .split(',')
                    .map(|b| {
                        let (r, c) = b.split_once('x').ok_or(format!("bad board {b:?}"))?;
                        let r = r.parse().map_err(|_| format!("bad board {b:?}"))?;
                        let c = c.parse().map_err(|_| format!("bad board {b:?}"))?;
                        Ok((r, c))
                    })
                    .collect::<Result<_, String>>()?;
            }
            "--games" => args.games = value()?.parse().map_err(|_| "bad --games")?,
            "--random-one-in" => {
                args.random_one_in = value()?.parse().map_err(|_| "bad --random-one-in")?
            }
            "--seed" => args.seed = value()?.parse().map_err(|_| "bad --seed")?,
            "--terms" => {
                args.terms = value()?
                    .parse()
                    .ok()
                    .filter(|&n| n <= FEATURES)
                    .ok_or(format!("bad --terms (at most {FEATURES})"))?
            }
            "--iterations" => args.iterations = value()?.parse().map_err(|_| "bad --iterations")?,
            other => {
                return Err(format!(
                    "unknown argument {other:?} (--board RxC,...|none, --games N, --seed S, --iterations N, --random-one-in N, --terms N, --labelled F,..., --label-scale S, --labelled-weight K)"
                ));
            }
        }
    }
    Ok(args)
}

/// A labelled position: its terms, the current evaluation and the label.
#[derive(Clone)]
struct Sample {
    f: [f64; FEATURES],
    eval: f64,
    label: f64,
    /// Labelled by a search (`--labelled`), not by a table.
    searched: bool,
}

/// The positions of `--labelled` files: `FEN<TAB>cp N` or `FEN<TAB>mate N`. A mate is
/// labelled 1 or 0, a score `1 / (1 + e^(−cp / scale))`; positions the evaluation
/// scores exactly are left out, as in the tables' samples.
fn labelled(files: &[String], scale: f64) -> Result<Vec<Sample>, String> {
    let config = Config::default();
    let mut out = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(file).map_err(|e| format!("{file}: {e}"))?;
        for (n, line) in text.lines().enumerate() {
            let bad = |why: &str| format!("{file}:{}: {why}", n + 1);
            let (fen, score) = line.split_once('\t').ok_or_else(|| bad("no tab"))?;
            let s = Linetris::from_fen(&config, fen).map_err(|e| bad(&format!("{e:?}")))?;
            let (kind, number) = score.split_once(' ').ok_or_else(|| bad("no score"))?;
            let number: f64 = number.parse().map_err(|_| bad("score"))?;
            let label = match kind {
                "mate" if number > 0.0 => 1.0,
                "mate" => 0.0,
                "cp" => sigmoid(number / scale),
                _ => return Err(bad("neither cp nor mate")),
            };
            if let Some(f) = features(&s) {
                out.push(Sample {
                    f: f.map(f64::from),
                    eval: f64::from(evaluate(&s)),
                    label,
                    searched: true,
                });
            }
        }
    }
    Ok(out)
}

fn label(value: Value) -> f64 {
    match value {
        Value::Win(_) => 1.0,
        Value::Draw(_) => 0.5,
        Value::Loss(_) => 0.0,
    }
}

/// The value of every move of `s` for its mover.
fn move_values(table: &Table, s: &Linetris) -> Vec<(tabuleiro::games::linetris::Move, f64)> {
    let mut moves = Vec::new();
    s.generate_moves(&mut moves);
    moves
        .into_iter()
        .filter_map(|mv| {
            let mut child = *s;
            child.play(mv);
            match child.outcome() {
                Some(Outcome::Win(p)) if p == s.side_to_move() => Some((mv, 1.0)),
                Some(_) => Some((mv, 0.5)),
                None => table.probe(&child).map(|v| (mv, 1.0 - label(v))),
            }
        })
        .collect()
}

fn samples(table: &Table, rows: u32, cols: u32, args: &Args, rng: &mut Xorshift) -> Vec<Sample> {
    let config = Config {
        rows,
        cols,
        row_clear: true,
        max_plies: 0,
    };
    let mut out = Vec::new();
    for _ in 0..args.games {
        let mut s = Linetris::start(&config);
        for _ in 0..80 {
            if s.outcome().is_some() {
                break;
            }
            if rng.below(4) == 0
                && let (Some(f), Some(value)) = (features(&s), table.probe(&s))
            {
                out.push(Sample {
                    f: f.map(f64::from),
                    eval: f64::from(evaluate(&s)),
                    label: label(value),
                    searched: false,
                });
            }
            let values = move_values(table, &s);
            if values.is_empty() {
                break;
            }
            let mv = if rng.below(args.random_one_in.max(1)) == 0 {
                values[rng.index(values.len())].0
            } else {
                let best = values.iter().map(|v| v.1).fold(0.0, f64::max);
                let keep: Vec<_> = values.iter().filter(|v| v.1 == best).collect();
                keep[rng.index(keep.len())].0
            };
            s.play(mv);
        }
    }
    out
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

fn mse(samples: &[Sample], predict: impl Fn(&Sample) -> f64) -> f64 {
    samples
        .iter()
        .map(|s| (predict(s) - s.label).powi(2))
        .sum::<f64>()
        / samples.len() as f64
}

/// The share of positions whose nearest label (0, ½, 1) to the prediction is theirs.
fn accuracy(samples: &[Sample], predict: impl Fn(&Sample) -> f64) -> f64 {
    let right = samples
        .iter()
        .filter(|s| ((predict(s) * 2.0).round() / 2.0 - s.label).abs() < 0.25)
        .count();
    right as f64 / samples.len() as f64
}

/// The scale `S` that fits the current evaluation best (golden-section search on a log
/// scale).
fn fit_scale(samples: &[Sample]) -> f64 {
    let error = |log_s: f64| {
        let s = log_s.exp();
        mse(samples, |x| sigmoid(x.eval / s))
    };
    let (mut lo, mut hi) = (0.0f64, 8.0f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) * 0.382;
        let b = lo + (hi - lo) * 0.618;
        if error(a) < error(b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    ((lo + hi) / 2.0).exp()
}

/// The weights (in logits) that minimise the squared error of `sigmoid(w · f)`.
fn fit_weights(samples: &[Sample], iterations: usize, terms: usize) -> [f64; FEATURES] {
    let mut w = [0.0; FEATURES];
    let (mut m, mut v) = ([0.0; FEATURES], [0.0; FEATURES]);
    let (rate, b1, b2) = (0.01, 0.9, 0.999);
    for t in 1..=iterations {
        let mut grad = [0.0; FEATURES];
        for s in samples {
            let z: f64 = w.iter().zip(&s.f).map(|(w, f)| w * f).sum();
            let p = sigmoid(z);
            let g = 2.0 * (p - s.label) * p * (1.0 - p);
            for (gi, fi) in grad.iter_mut().zip(&s.f) {
                *gi += g * fi;
            }
        }
        for i in 0..terms {
            let g = grad[i] / samples.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(t as i32));
            let vh = v[i] / (1.0 - b2.powi(t as i32));
            w[i] -= rate * mh / (vh.sqrt() + 1e-8);
        }
    }
    w
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(why) => {
            eprintln!("linetris_tune: {why}");
            std::process::exit(2);
        }
    };
    let Some(dir) = cache::dir() else {
        eprintln!("linetris_tune: no cache directory (set TABULEIRO_CACHE or HOME)");
        std::process::exit(1);
    };
    let mut rng = Xorshift::new(args.seed);
    let mut all = Vec::new();
    for &(rows, cols) in &args.boards {
        let table = match cache::load(&dir, rows, cols) {
            Ok(Some(table)) => table,
            other => {
                if let Err(why) = other {
                    eprintln!("linetris_tune: {why}; building the table again");
                }
                let start = std::time::Instant::now();
                let table = Table::build(rows, cols);
                eprintln!("built {rows}x{cols} in {:.0?}", start.elapsed());
                if let Err(why) = cache::save(&table, &dir) {
                    eprintln!("linetris_tune: not saved: {why}");
                }
                table
            }
        };
        let got = samples(&table, rows, cols, &args, &mut rng);
        let wins = got.iter().filter(|s| s.label == 1.0).count();
        let draws = got.iter().filter(|s| s.label == 0.5).count();
        println!(
            "{rows}x{cols}: {} positions ({wins} won, {draws} drawn, {} lost for the side to move)",
            got.len(),
            got.len() - wins - draws
        );
        all.extend(got);
    }
    if !args.labelled.is_empty() {
        if args.label_scale <= 0.0 {
            eprintln!("linetris_tune: --labelled needs --label-scale S (S > 0)");
            std::process::exit(2);
        }
        match labelled(&args.labelled, args.label_scale) {
            Ok(got) => {
                println!("labelled 6x7: {} positions", got.len());
                all.extend(got);
            }
            Err(why) => {
                eprintln!("linetris_tune: {why}");
                std::process::exit(1);
            }
        }
    }
    if all.len() < 100 {
        eprintln!("linetris_tune: too few positions ({})", all.len());
        std::process::exit(1);
    }
    let (train, test): (Vec<_>, Vec<_>) =
        all.into_iter().enumerate().partition(|(i, _)| i % 4 != 3);
    let train: Vec<Sample> = train
        .into_iter()
        .flat_map(|(_, s)| {
            let times = if s.searched { args.labelled_weight } else { 1 };
            std::iter::repeat_n(s, times)
        })
        .collect();
    let test: Vec<Sample> = test.into_iter().map(|(_, s)| s).collect();
    // The scale of the tables' positions when there are any (the evaluation's units).
    let tables: Vec<Sample> = train.iter().filter(|s| !s.searched).cloned().collect();
    // Without them (`--board none`) the labels' own scale: a weight then reads in the
    // units of the search's scores, which are the evaluation's.
    let scale = if tables.is_empty() {
        println!(
            "the current evaluation's own scale on the searched positions: {:.1}",
            fit_scale(&train)
        );
        args.label_scale
    } else {
        fit_scale(&tables)
    };
    let current = |x: &Sample| sigmoid(x.eval / scale);
    let w = fit_weights(&train, args.iterations, args.terms);
    let fitted = |x: &Sample| sigmoid(w.iter().zip(&x.f).map(|(w, f)| w * f).sum());
    println!("current evaluation: S = {scale:.1}");
    for (name, searched) in [("table", false), ("searched", true)] {
        let train: Vec<Sample> = train
            .iter()
            .filter(|s| s.searched == searched)
            .cloned()
            .collect();
        let test: Vec<Sample> = test
            .iter()
            .filter(|s| s.searched == searched)
            .cloned()
            .collect();
        if test.is_empty() || train.is_empty() {
            continue;
        }
        println!(
            "{name} positions: current error train {:.5}, test {:.5}, test accuracy {:.4}",
            mse(&train, current),
            mse(&test, current),
            accuracy(&test, current)
        );
        println!(
            "{name} positions: fitted ({} terms) error train {:.5}, test {:.5}, test accuracy {:.4}",
            args.terms,
            mse(&train, fitted),
            mse(&test, fitted),
            accuracy(&test, fitted)
        );
    }
    println!("weights in the evaluation's units (× S):");
    for (name, w) in FEATURE_NAMES.iter().zip(w) {
        println!("  {name:<36} {:>8.2}", w * scale);
    }
    let quarters: Vec<String> = w
        .iter()
        .map(|w| format!("{}", (w * scale * 4.0).round() as i32))
        .collect();
    println!("in quarters: [{}]", quarters.join(", "));
}
