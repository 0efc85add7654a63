//! What the tuning examples that label positions and fit a logistic model to them share
//! (`talpa_tune`, `fabrik_tune`): a label proven by the engine's own proving search, the
//! fit, by Newton's method, and its held-out report.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use tabuleiro::game::Value;
use tabuleiro::search::eval::Evaluator;
use tabuleiro::search::time::Budget;
use tabuleiro::search::{Policy, SearchLimits, Strategy};

/// Whether the side to move of `p` wins, when `prover`'s proving search (`go solve`)
/// proves it within `limit`.
pub fn proven_win<G: Strategy, E: Evaluator<G>>(
    prover: &mut Policy<G, E>,
    p: &G,
    limit: Duration,
) -> Option<bool> {
    let limits = SearchLimits {
        solve: true,
        budget: Budget {
            soft: None,
            hard: Some(limit),
        },
        ..SearchLimits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let history = [p.hash()];
    let result = prover.search(p, &history, limits, stop, &mut |_| {});
    result.proven.and_then(|value| match value {
        Value::Win(_) => Some(true),
        Value::Loss(_) => Some(false),
        Value::Draw(_) => None,
    })
}

/// A labelled position: whether the side to move won.
pub trait Labelled {
    fn won(&self) -> bool;
}

pub fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}

pub fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Logistic regression without intercept (the features are from the side to move's
/// view; the tempo is a feature), by `iterations` steps of Newton's method with a
/// little ridge.
pub fn fit<S: Labelled>(samples: &[&S], iterations: usize, x: impl Fn(&S) -> Vec<f64>) -> Vec<f64> {
    let n = x(samples[0]).len();
    let mut w = vec![0.0; n];
    for _ in 0..iterations {
        let mut grad = vec![0.0; n];
        let mut hess = vec![vec![0.0; n]; n];
        for s in samples {
            let xs = x(s);
            let p = sigmoid(dot(&xs, &w));
            let y = f64::from(u8::from(s.won()));
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
pub fn report<S: Labelled>(name: &str, w: &[f64], test: &[&S], x: impl Fn(&S) -> Vec<f64>) {
    let (mut loss, mut right) = (0.0, 0);
    for s in test {
        let z = dot(&x(s), w);
        let p = sigmoid(z).clamp(1e-9, 1.0 - 1e-9);
        loss -= if s.won() { p.ln() } else { (1.0 - p).ln() };
        right += usize::from((z > 0.0) == s.won());
    }
    println!(
        "{name}: held-out log-loss {:.4}, winner named {:.1} %",
        loss / test.len().max(1) as f64,
        100.0 * right as f64 / test.len().max(1) as f64
    );
}
