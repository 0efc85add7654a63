//! The sequential probability ratio test: stop a match once the results tell, with the
//! chosen error rates, whether the first engine is `elo1` or only `elo0` stronger.
//!
//! This is the generalised SPRT with logistic Elo (as in Michel Van den Bergh's work
//! behind fishtest), on pairs of games scored 0, ¼, ½, ¾, 1 (pentanomial, as fishtest
//! and fastchess run it) or on win/draw/loss results (trinomial: the pairs of a game
//! scored by pairs per SPEC §2). With the observed frequencies `p̂` of each kind of
//! result over `n` results, and for each hypothesis the distribution closest to `p̂`
//! (maximum likelihood) whose expected score is that of `elo0` (`s0`) or `elo1` (`s1`),
//!
//! ```text
//! LLR = n · Σ p̂ᵢ · ln(p1ᵢ / p0ᵢ),   pᵢ = p̂ᵢ / (1 + λ·(xᵢ − s))  with λ making Σ pᵢ = 1
//! ```
//!
//! (`xᵢ` the score of result kind i). Near the hypotheses this equals the familiar approximation
//! `n·(s1−s0)·(2x̄−s0−s1)/(2σ²)`, but unlike it, it does not overstate the evidence of
//! a few lopsided results. H1 (`elo1`) is accepted when `LLR ≥ ln((1−β)/α)`, H0
//! (`elo0`) when `LLR ≤ ln(β/(1−α))`. When a kind of result has not occurred yet, half
//! a result of each kind is added, so that no outcome has probability zero.

use super::stats::{Pentanomial, Tally, score_of_elo};

/// The test's parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    pub alpha: f64,
    pub beta: f64,
}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// `elo0` holds: the first engine is not `elo1` stronger.
    AcceptH0,
    /// `elo1` holds.
    AcceptH1,
    Continue,
}

impl Decision {
    pub fn describe(self) -> &'static str {
        match self {
            Decision::AcceptH0 => "H0 accepted (elo0)",
            Decision::AcceptH1 => "H1 accepted (elo1)",
            Decision::Continue => "no decision yet",
        }
    }
}

impl Sprt {
    /// Reads `elo0,elo1[,alpha,beta]` (alpha and beta default to 0.05).
    pub fn parse(text: &str) -> Result<Sprt, String> {
        let numbers: Vec<f64> = text
            .split(',')
            .map(|part| {
                part.trim()
                    .parse::<f64>()
                    .ok()
                    .filter(|x| x.is_finite())
                    .ok_or_else(|| format!("'{part}' is not a number"))
            })
            .collect::<Result<_, _>>()?;
        let (elo0, elo1, alpha, beta) = match numbers.as_slice() {
            [elo0, elo1] => (*elo0, *elo1, 0.05, 0.05),
            [elo0, elo1, alpha, beta] => (*elo0, *elo1, *alpha, *beta),
            _ => return Err("expected elo0,elo1 or elo0,elo1,alpha,beta".to_string()),
        };
        if elo1 <= elo0 {
            return Err(format!("elo1 ({elo1}) must be above elo0 ({elo0})"));
        }
        if !(0.0 < alpha && alpha < 0.5 && 0.0 < beta && beta < 0.5) {
            return Err("alpha and beta must be between 0 and 0.5".to_string());
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// The bounds `(lower, upper)` of the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `tally` (from the first
    /// engine's side): trinomial, on games (or on pairs scored as one result).
    pub fn llr(&self, tally: &Tally) -> f64 {
        self.llr_of(
            &[
                f64::from(tally.wins),
                f64::from(tally.draws),
                f64::from(tally.losses),
            ],
            &[1.0, 0.5, 0.0],
        )
    }

    /// The log-likelihood ratio on pairs of games: pentanomial, each pair one result
    /// scoring 0, ¼, ½, ¾ or 1 (as fishtest and fastchess), so that what an opening
    /// gives both sides cancels out.
    pub fn llr_pairs(&self, pairs: &Pentanomial) -> f64 {
        let counts: Vec<f64> = pairs.counts.iter().map(|&c| f64::from(c)).collect();
        self.llr_of(&counts, &Pentanomial::SCORES)
    }

    /// The GSPRT's LLR for results of `counts[i]` each scoring `scores[i]`.
    fn llr_of(&self, counts: &[f64], scores: &[f64]) -> f64 {
        let mut counts = counts.to_vec();
        if counts.iter().sum::<f64>() == 0.0 {
            return 0.0;
        }
        if counts.contains(&0.0) {
            for c in &mut counts {
                *c += 0.5;
            }
        }
        let n: f64 = counts.iter().sum();
        let observed: Vec<f64> = counts.iter().map(|c| c / n).collect();
        let (s0, s1) = (score_of_elo(self.elo0), score_of_elo(self.elo1));
        let (p0, p1) = (
            closest_with_mean(&observed, scores, s0),
            closest_with_mean(&observed, scores, s1),
        );
        n * (0..observed.len())
            .map(|i| observed[i] * (p1[i] / p0[i]).ln())
            .sum::<f64>()
    }

    /// The decision at log-likelihood ratio `llr`.
    pub fn decide_llr(&self, llr: f64) -> Decision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::AcceptH1
        } else if llr <= lower {
            Decision::AcceptH0
        } else {
            Decision::Continue
        }
    }

    pub fn decide(&self, tally: &Tally) -> Decision {
        self.decide_llr(self.llr(tally))
    }
}

/// The maximum-likelihood distribution over results scoring `x` for the observed
/// frequencies `p` (all positive) under the constraint that its expected score is `s`
/// (0 < s < 1): `p_i / (1 + λ (x_i − s))`, with λ found by bisection (the constraint's
/// left side falls as λ grows).
fn closest_with_mean(p: &[f64], x: &[f64], s: f64) -> Vec<f64> {
    let f = |lambda: f64| -> f64 {
        (0..p.len())
            .map(|i| p[i] * (x[i] - s) / (1.0 + lambda * (x[i] - s)))
            .sum()
    };
    // 1 + λ(x − s) > 0 for x in 0..1.
    let (mut lo, mut hi) = (-1.0 / (1.0 - s) + 1e-12, 1.0 / s - 1e-12);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    (0..p.len())
        .map(|i| p[i] / (1.0 + lambda * (x[i] - s)))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tally(wins: u32, losses: u32, draws: u32) -> Tally {
        Tally {
            wins,
            losses,
            draws,
        }
    }

    #[test]
    fn parses_and_rejects() {
        let sprt = Sprt::parse("0,10").unwrap();
        assert_eq!(
            (sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta),
            (0.0, 10.0, 0.05, 0.05)
        );
        let sprt = Sprt::parse("-5, 5, 0.1, 0.2").unwrap();
        assert_eq!((sprt.alpha, sprt.beta), (0.1, 0.2));
        assert!(Sprt::parse("10,0").is_err());
        assert!(Sprt::parse("0").is_err());
        assert!(Sprt::parse("0,x").is_err());
        assert!(Sprt::parse("0,5,0.7,0.05").is_err());
        assert!(Sprt::parse("0,5,NaN,0.05").is_err());
    }

    #[test]
    fn bounds_for_five_percent() {
        let (lower, upper) = Sprt::parse("0,10").unwrap().bounds();
        assert!((lower + 2.944_44).abs() < 1e-4, "{lower}");
        assert!((upper - 2.944_44).abs() < 1e-4, "{upper}");
    }

    #[test]
    fn llr_matches_an_independent_computation() {
        // Reference values from a separate Python implementation of the same
        // definition (bisection for λ), and the textbook approximation nearby.
        let sprt = Sprt::parse("0,20").unwrap();
        let llr = sprt.llr(&tally(60, 40, 100));
        assert!((llr - 1.647_04).abs() < 1e-3, "{llr}");
        // The approximation n·(s1−s0)·(2x̄−s0−s1)/(2σ²) gives 1.672 here.
        assert!((llr - 1.6723).abs() < 0.05);
        let wide = Sprt::parse("0,100").unwrap();
        assert!((wide.llr(&tally(0, 4, 0)) + 1.498_03).abs() < 1e-3);
        assert!((wide.llr(&tally(30, 2, 0)) - 6.805_31).abs() < 1e-3);
        assert!((wide.llr(&tally(8, 2, 0)) - 1.318_63).abs() < 1e-3);
        assert_eq!(sprt.llr(&tally(0, 0, 0)), 0.0);
    }

    #[test]
    fn the_closest_distribution_has_the_wanted_mean() {
        let q = closest_with_mean(&[0.5, 0.3, 0.2], &[1.0, 0.5, 0.0], 0.4);
        assert!((q.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!((q[0] + 0.5 * q[1] - 0.4).abs() < 1e-9);
    }

    #[test]
    fn stops_on_a_clear_difference_and_not_before() {
        let sprt = Sprt::parse("0,100").unwrap();
        assert_eq!(sprt.decide(&tally(2, 0, 0)), Decision::Continue);
        assert_eq!(sprt.decide(&tally(30, 2, 0)), Decision::AcceptH1);
        assert_eq!(sprt.decide(&tally(2, 30, 0)), Decision::AcceptH0);
        assert_eq!(sprt.decide(&tally(0, 4, 0)), Decision::Continue);
        assert_eq!(sprt.decide(&tally(0, 10, 0)), Decision::AcceptH0);
        // Even results accept H0 in time, never H1.
        // Pairs: a 2-0 pair is one strong result, 1-1 pairs are evidence of equality.
        let pairs = |counts| Pentanomial { counts };
        assert_eq!(
            sprt.decide_llr(sprt.llr_pairs(&pairs([0, 0, 0, 0, 2]))),
            Decision::Continue
        );
        assert_eq!(
            sprt.decide_llr(sprt.llr_pairs(&pairs([0, 1, 2, 3, 16]))),
            Decision::AcceptH1
        );
        assert_eq!(
            sprt.decide_llr(sprt.llr_pairs(&pairs([2, 3, 40, 3, 2]))),
            Decision::AcceptH0
        );
        let even = tally(100, 100, 0);
        assert_eq!(sprt.decide(&even), Decision::AcceptH0);
        assert!(sprt.llr(&even) < 0.0);
    }
}
