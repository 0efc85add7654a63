//! Least-squares fit of the square weights of Neutreeko's evaluation against the exact
//! table (Texel-style): how the weights of `SQUARE` in `src/games/neutreeko/eval.rs`
//! were found.
//!
//! ```text
//! cargo run --release --example neutreeko_tune                    # 50,000 + 50,000 positions, seed 1001
//! cargo run --release --example neutreeko_tune -- --positions 20000 --seed 7
//! ```
//!
//! Draws positions as `neutreeko_agreement` does (random games and sound games, each
//! stopped at a random ply from 1 to 40) but from another seed (default 1001, and
//! 1002 for the sound games; the measurement sets use seed 1), labels each by the table
//! (won 1, drawn 0.5, lost 0 for the side to move), and fits `sigmoid(score / 100)` to
//! the labels by mean squared error, with Adam. The score is the evaluation's threat
//! terms (fixed at their weights: threat 120, threatened square 50, chance 25, for the
//! side to move minus the other side), a bias (the tempo), and one weight per class of
//! squares under the board's symmetries for the difference of the two sides' pieces
//! on that class (a corner is the class of weight 0). The evaluation uses half the
//! fitted weights (the full ones kept fewer drawn positions of the sound games).

use tabuleiro::game::{Game, Player, Value};
use tabuleiro::games::neutreeko::tablebase::Table;
use tabuleiro::games::neutreeko::{Neutreeko, SQUARE_CLASS};

#[path = "neutreeko_common/mod.rs"]
mod common;
use common::random_positions;

/// The classes of `SQUARE_CLASS` that are fitted (the corner is 0).
const CLASSES: usize = 5;
const NAMES: [&str; CLASSES] = [
    "edge by corner",
    "edge middle",
    "inner diagonal",
    "inner middle",
    "centre",
];

fn lines() -> Vec<u32> {
    let mut lines = Vec::new();
    for square in 0..25i32 {
        for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
            let (f, r) = (square % 5, square / 5);
            if (0..5).contains(&(f + 2 * df)) && (0..5).contains(&(r + 2 * dr)) {
                lines.push((0..3).fold(0u32, |m, k| m | 1 << ((r + k * dr) * 5 + f + k * df)));
            }
        }
    }
    lines
}

/// The evaluation's threat terms for `player` (as in `eval.rs`).
fn threats(position: &Neutreeko, player: Player, lines: &[u32]) -> f64 {
    let own = position.pieces(player);
    let occupied = own | position.pieces(player.other());
    let (mut score, mut threatened) = (0.0, 0u32);
    for &line in lines {
        let gap = line & !own;
        if (own & line).count_ones() != 2 || gap & occupied != 0 {
            continue;
        }
        let third = (own & !line).trailing_zeros() as usize;
        if position.destinations(third).any(|to| 1 << to == gap) {
            score += 120.0;
            threatened |= gap;
        } else {
            score += 25.0;
        }
    }
    score + 50.0 * f64::from(threatened.count_ones())
}

/// The fixed part of the score, and the side to move's pieces minus the other's per class.
fn features(position: &Neutreeko, lines: &[u32]) -> (f64, [f64; CLASSES]) {
    let us = position.side_to_move();
    let fixed = threats(position, us, lines) - threats(position, us.other(), lines);
    let mut classes = [0.0; CLASSES];
    for (player, sign) in [(us, 1.0), (us.other(), -1.0)] {
        let own = position.pieces(player);
        for (square, class) in SQUARE_CLASS.iter().enumerate() {
            if own & 1 << square != 0 && *class > 0 {
                classes[class - 1] += sign;
            }
        }
    }
    (fixed, classes)
}

fn main() {
    let mut args = std::env::args().skip(1);
    let (mut count, mut seed) = (50_000usize, 1001u64);
    while let Some(word) = args.next() {
        let number = args.next().and_then(|w| w.parse::<u64>().ok());
        match (word.as_str(), number) {
            ("--positions", Some(n)) => count = n as usize,
            ("--seed", Some(s)) => seed = s,
            _ => panic!("usage: neutreeko_tune [--positions N] [--seed S]"),
        }
    }
    let table = Table::build(1).expect("the table builds");
    let lines = lines();
    let mut set = random_positions(count, seed, None);
    set.extend(random_positions(count, seed + 1, Some(&table)));
    let data: Vec<_> = set
        .iter()
        .map(|position| {
            let label = match table.probe(position).expect("a valid position") {
                Value::Win(_) => 1.0,
                Value::Draw(_) => 0.5,
                Value::Loss(_) => 0.0,
            };
            (features(position, &lines), label)
        })
        .collect();
    // Weights: one per class, then the bias.
    let mut w = [0.0f64; CLASSES + 1];
    let (mut m1, mut m2) = ([0.0f64; CLASSES + 1], [0.0f64; CLASSES + 1]);
    let error = |w: &[f64; CLASSES + 1], fit: bool| -> (f64, [f64; CLASSES + 1]) {
        let mut gradient = [0.0; CLASSES + 1];
        let mut sum = 0.0;
        for ((fixed, classes), label) in &data {
            let weighted: f64 = if fit {
                classes.iter().zip(w).map(|(x, w)| x * w).sum()
            } else {
                0.0
            };
            let score = fixed + w[CLASSES] + weighted;
            let p = 1.0 / (1.0 + (-score / 100.0).exp());
            sum += (p - label) * (p - label);
            let d = 2.0 * (p - label) * p * (1.0 - p) / 100.0;
            for j in 0..CLASSES {
                gradient[j] += d * classes[j];
            }
            gradient[CLASSES] += d;
        }
        let n = data.len() as f64;
        (sum / n, gradient.map(|g| g / n))
    };
    for step in 1..=2000 {
        let (_, gradient) = error(&w, true);
        for j in 0..=CLASSES {
            m1[j] = 0.9 * m1[j] + 0.1 * gradient[j];
            m2[j] = 0.999 * m2[j] + 0.001 * gradient[j] * gradient[j];
            let mh = m1[j] / (1.0 - 0.9f64.powi(step));
            let vh = m2[j] / (1.0 - 0.999f64.powi(step));
            w[j] -= 2.0 * mh / (vh.sqrt() + 1e-12);
        }
    }
    let mut bias_only = [0.0; CLASSES + 1];
    for _ in 0..200 {
        let (_, gradient) = error(&bias_only, false);
        bias_only[CLASSES] -= 2e5 * gradient[CLASSES];
    }
    println!(
        "{} positions (seeds {seed} and {}), labels from the table",
        data.len(),
        seed + 1
    );
    println!(
        "mean squared error, threat terms only: {:.5}",
        error(&bias_only, false).0
    );
    println!(
        "mean squared error, with the squares:  {:.5}",
        error(&w, true).0
    );
    println!("corner: 0 (the reference)");
    for j in 0..CLASSES {
        println!("{}: {:.1}", NAMES[j], w[j]);
    }
    println!("tempo (bias): {:.1}", w[CLASSES]);
}
