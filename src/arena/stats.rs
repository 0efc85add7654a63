//! Scores: win/loss/draw tallies, the Elo difference with its 95 % interval, the
//! scoring of a pair of games with roles swapped (SPEC §2, `Scoring::Pairs`), and the
//! distribution of the time per move.

use std::collections::BTreeMap;

use crate::game::{Outcome, Player};

/// Times per move in whole ms, kept as counts per value so that a long match costs
/// memory by the number of distinct times, not of moves.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveTimes {
    counts: BTreeMap<u64, u64>,
    moves: u64,
}

impl MoveTimes {
    pub fn add(&mut self, ms: u64) {
        *self.counts.entry(ms).or_default() += 1;
        self.moves += 1;
    }

    /// How many moves were timed.
    pub fn moves(&self) -> u64 {
        self.moves
    }

    /// The median (the lower one of an even count: always a time that was seen).
    pub fn median(&self) -> Option<u64> {
        let rank = self.moves.checked_sub(1)? / 2;
        let mut seen = 0;
        for (&ms, &count) in &self.counts {
            seen += count;
            if seen > rank {
                return Some(ms);
            }
        }
        None
    }

    pub fn max(&self) -> Option<u64> {
        self.counts.keys().next_back().copied()
    }

    /// `median 12 ms, max 40 ms, 345 moves`, or `no timed moves`.
    pub fn describe(&self) -> String {
        match (self.median(), self.max()) {
            (Some(median), Some(max)) => {
                format!("median {median} ms, max {max} ms, {} moves", self.moves)
            }
            _ => "no timed moves".to_string(),
        }
    }
}

/// Wins, losses and draws from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub losses: u32,
    pub draws: u32,
}

/// One result from one side's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win,
    Loss,
    Draw,
}

impl Verdict {
    pub fn flip(self) -> Verdict {
        match self {
            Verdict::Win => Verdict::Loss,
            Verdict::Loss => Verdict::Win,
            Verdict::Draw => Verdict::Draw,
        }
    }

    /// The score of `player` in a game that ended with `outcome`.
    pub fn of(player: Player, outcome: Outcome) -> Verdict {
        match outcome {
            Outcome::Draw => Verdict::Draw,
            Outcome::Win(winner) if winner == player => Verdict::Win,
            Outcome::Win(_) => Verdict::Loss,
        }
    }
}

impl Tally {
    pub fn add(&mut self, score: Verdict) {
        match score {
            Verdict::Win => self.wins += 1,
            Verdict::Loss => self.losses += 1,
            Verdict::Draw => self.draws += 1,
        }
    }

    pub fn total(&self) -> u32 {
        self.wins + self.losses + self.draws
    }

    /// The same results from the other side.
    pub fn flipped(&self) -> Tally {
        Tally {
            wins: self.losses,
            losses: self.wins,
            draws: self.draws,
        }
    }

    /// Points per game, 0..1 (`None` before the first game).
    pub fn score(&self) -> Option<f64> {
        let n = self.total();
        (n > 0).then(|| (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n))
    }

    /// The Elo difference and its 95 % interval `(elo, low, high)` ([`elo_interval`]
    /// of the per-game score).
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let s = self.score()?;
        let n = f64::from(self.total());
        let variance = spread_about(&[self.wins, self.draws, self.losses], &[1.0, 0.5, 0.0], s);
        Some(elo_interval(s, variance, n))
    }

    /// `+W -L =D` as cutechess prints it.
    pub fn short(&self) -> String {
        format!("+{} -{} ={}", self.wins, self.losses, self.draws)
    }
}

/// The variance about `mean` of results scoring `scores[i]`, `counts[i]` times each;
/// while a kind of result is unseen, half a result of each kind is added (as the
/// SPRT does), so that a few results that happen to agree (every pair 1–1) do not
/// make an interval of zero width.
fn spread_about(counts: &[u32], scores: &[f64], mean: f64) -> f64 {
    let extra = if counts.contains(&0) { 0.5 } else { 0.0 };
    let n: f64 = counts.iter().map(|&c| f64::from(c) + extra).sum();
    counts
        .iter()
        .zip(scores)
        .map(|(&c, x)| (f64::from(c) + extra) * (x - mean).powi(2))
        .sum::<f64>()
        / n
}

/// z for a two-sided 95 % interval.
const Z95: f64 = 1.959_964;

/// The Elo of mean score `mean` (0..1) of `n` units whose scores have variance
/// `variance`, with its 95 % interval `(elo, low, high)`.
///
/// The interval is Wilson's score interval, with the variance of a unit of mean `s`
/// taken as `r·s(1−s)`, `r` the observed variance over `mean(1−mean)` (the share of
/// draws and balanced pairs narrows it); at a score of 0 % or 100 %, where nothing is
/// observed to vary, `r` is 1 (a binomial). So a 10–0 result has a finite lower bound
/// (`+inf` only above), where the normal interval `mean ± z·σ/√n` collapses to a point.
/// Between the edges the two nearly agree.
pub fn elo_interval(mean: f64, variance: f64, n: f64) -> (f64, f64, f64) {
    let spread = mean * (1.0 - mean);
    let ratio = if spread > 1e-12 {
        (variance / spread).max(0.0)
    } else {
        1.0
    };
    // (mean − s)² = k·s(1−s): (1+k)s² − (2·mean + k)s + mean² = 0.
    let k = Z95 * Z95 * ratio / n;
    let root = (k * (4.0 * spread + k)).max(0.0).sqrt();
    let low = (2.0 * mean + k - root) / (2.0 * (1.0 + k));
    let high = (2.0 * mean + k + root) / (2.0 * (1.0 + k));
    let clamp = |s: f64| {
        if s < 1e-12 {
            0.0
        } else if s > 1.0 - 1e-12 {
            1.0
        } else {
            s
        }
    };
    (
        elo_of_score(mean),
        elo_of_score(clamp(low)),
        elo_of_score(clamp(high)),
    )
}

/// The results of pairs of games (one opening, colours swapped) as fishtest and
/// fastchess count them: how many pairs gave the first engine 0, ½, 1, 1½ and 2 points.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial {
    pub counts: [u32; 5],
}

impl Pentanomial {
    /// The score of each kind of pair, 0..1 (points of 2, halved).
    pub const SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

    /// A pair in which the first engine scored `points` (0, 0.5, …, 2).
    pub fn add(&mut self, points: f64) {
        let index = (points * 2.0).round().clamp(0.0, 4.0) as usize;
        self.counts[index] += 1;
    }

    pub fn total(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// The mean pair score (0..1) and the variance of the pair score.
    pub fn mean_and_variance(&self) -> Option<(f64, f64)> {
        let n = f64::from(self.total());
        if n == 0.0 {
            return None;
        }
        let weighted = |f: &dyn Fn(f64) -> f64| {
            self.counts
                .iter()
                .zip(Self::SCORES)
                .map(|(&c, x)| f64::from(c) * f(x))
                .sum::<f64>()
                / n
        };
        let mean = weighted(&|x| x);
        Some((mean, weighted(&|x| (x - mean).powi(2))))
    }

    /// The Elo and its 95 % interval from the pairs ([`elo_interval`] of the pair
    /// score).
    pub fn elo(&self) -> Option<(f64, f64, f64)> {
        let (mean, _) = self.mean_and_variance()?;
        let variance = spread_about(&self.counts, &Self::SCORES, mean);
        Some(elo_interval(mean, variance, f64::from(self.total())))
    }

    /// `[LL, LD, DD+WL, WD, WW]` as fastchess prints it.
    pub fn short(&self) -> String {
        let c = self.counts;
        format!("[{}, {}, {}, {}, {}]", c[0], c[1], c[2], c[3], c[4])
    }
}

/// The Elo difference that gives an expected score `s` (logistic model).
pub fn elo_of_score(s: f64) -> f64 {
    if s <= 0.0 {
        f64::NEG_INFINITY
    } else if s >= 1.0 {
        f64::INFINITY
    } else {
        -400.0 * (1.0 / s - 1.0).log10()
    }
}

/// The expected score of an Elo difference (logistic model).
pub fn score_of_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// `Elo +12.3 [-4.0, +28.6] (95%)` for an estimate and its interval, `Elo -` for none.
pub fn format_elo_interval(elo: Option<(f64, f64, f64)>) -> String {
    match elo {
        Some((elo, low, high)) => format!(
            "Elo {} [{}, {}] (95%)",
            format_elo(elo),
            format_elo(low),
            format_elo(high)
        ),
        None => "Elo -".to_string(),
    }
}

/// `+12.3`, `-inf`.
pub fn format_elo(elo: f64) -> String {
    if elo.is_infinite() {
        if elo > 0.0 { "+inf" } else { "-inf" }.to_string()
    } else if elo.abs() < 0.05 {
        // No "-0.0".
        "+0.0".to_string()
    } else {
        format!("{elo:+.1}")
    }
}

/// One game of a pair, as the pair scoring needs it, seen from engine A (the pair is
/// between engines A and B; each plays p1 once).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PairGame {
    /// Whether A played p1.
    pub a_is_p1: bool,
    pub outcome: Outcome,
    /// The game's tie-break count at the end ([`crate::game::Game::tiebreak_count`]).
    pub count: u32,
    /// Whether the game ended by a forfeit (illegal move, time, crash, …), not by the rules.
    pub forfeit: bool,
}

/// The result of a pair for A, and why.
#[derive(Clone, Debug, PartialEq)]
pub struct PairResult {
    pub score: Verdict,
    pub reason: PairReason,
}

/// How a pair was decided.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PairReason {
    /// By points (A's points of 2), including a 1–1 with a drawn game.
    Points(f64),
    /// 1–1, and one game was lost by forfeit.
    Forfeit,
    /// 1–1, both won as p1: what each counted in the game it won.
    BothWonAsP1 { a: u32, b: u32 },
    /// 1–1, both won as p2: what each counted as p1 (in the game it lost).
    BothWonAsP2 { a: u32, b: u32 },
}

impl PairReason {
    /// In words, with the engines' names and what the tie-break counts (`counted`,
    /// from [`crate::game::TieBreak::words`]).
    pub fn describe(&self, a: &str, b: &str, counted: &str) -> String {
        match *self {
            PairReason::Points(points) => format!("{a} {points} of 2"),
            PairReason::Forfeit => "1-1, one game lost by forfeit".to_string(),
            PairReason::BothWonAsP1 { a: x, b: y } => format!(
                "1-1, both won as p1; {counted} when winning: {a} {x}, {b} {y} (fewer wins)"
            ),
            PairReason::BothWonAsP2 { a: x, b: y } => {
                format!("1-1, both won as p2; {counted} as p1: {a} {x}, {b} {y} (more wins)")
            }
        }
    }
}

/// Scores two games with roles swapped as one match (SPEC §2, `Scoring::Pairs`): 2–0
/// wins; at 1–1 the tie-break count decides: if both won as p1, the one who counted
/// fewer in the game they won wins; if both won as p2, the one who counted more
/// as p1 (in the game they lost) wins; equal counts draw. Our addition where the SPEC
/// is silent: at 1–1 with exactly one game lost by forfeit, the side that forfeited
/// loses the pair (a forfeit must not buy a tie-break). Draws count half as usual.
pub fn score_pair(games: [PairGame; 2]) -> PairResult {
    let points: f64 = games
        .iter()
        .map(|g| match Verdict::of(a_player(g), g.outcome) {
            Verdict::Win => 1.0,
            Verdict::Draw => 0.5,
            Verdict::Loss => 0.0,
        })
        .sum();
    if points > 1.0 {
        return PairResult {
            score: Verdict::Win,
            reason: PairReason::Points(points),
        };
    }
    if points < 1.0 {
        return PairResult {
            score: Verdict::Loss,
            reason: PairReason::Points(points),
        };
    }
    // Level. Only a 1–1 with both games decided goes to the tie-break.
    let decided = games.iter().all(|g| g.outcome != Outcome::Draw);
    if !decided {
        return PairResult {
            score: Verdict::Draw,
            reason: PairReason::Points(points),
        };
    }
    match (games[0].forfeit, games[1].forfeit) {
        (true, false) | (false, true) => {
            let forfeited = if games[0].forfeit { games[0] } else { games[1] };
            // The loser of the forfeited game loses the pair.
            let score = Verdict::of(a_player(&forfeited), forfeited.outcome);
            return PairResult {
                score,
                reason: PairReason::Forfeit,
            };
        }
        _ => {}
    }
    // Each side won once; roles swap, so both wins came with the same role.
    let (a_won, b_won) = if Verdict::of(a_player(&games[0]), games[0].outcome) == Verdict::Win {
        (games[0], games[1])
    } else {
        (games[1], games[0])
    };
    if a_won.a_is_p1 {
        // Both won as p1: fewer counted wins.
        let (a, b) = (a_won.count, b_won.count);
        let reason = PairReason::BothWonAsP1 { a, b };
        let score = match a.cmp(&b) {
            std::cmp::Ordering::Less => Verdict::Win,
            std::cmp::Ordering::Greater => Verdict::Loss,
            std::cmp::Ordering::Equal => Verdict::Draw,
        };
        PairResult { score, reason }
    } else {
        // Both won as p2: A was p1 in the game A lost (b_won), B was p1 in a_won.
        let (a, b) = (b_won.count, a_won.count);
        let reason = PairReason::BothWonAsP2 { a, b };
        let score = match a.cmp(&b) {
            std::cmp::Ordering::Greater => Verdict::Win,
            std::cmp::Ordering::Less => Verdict::Loss,
            std::cmp::Ordering::Equal => Verdict::Draw,
        };
        PairResult { score, reason }
    }
}

fn a_player(game: &PairGame) -> Player {
    if game.a_is_p1 { Player::P1 } else { Player::P2 }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(a_is_p1: bool, winner: Player, trees: u32) -> PairGame {
        PairGame {
            a_is_p1,
            outcome: Outcome::Win(winner),
            count: trees,
            forfeit: false,
        }
    }

    #[test]
    fn move_times_median_and_max() {
        let mut times = MoveTimes::default();
        assert_eq!(times.describe(), "no timed moves");
        for ms in [5, 1, 9, 1] {
            times.add(ms);
        }
        // Sorted 1 1 5 9: the lower median is 1.
        assert_eq!(
            (times.median(), times.max(), times.moves()),
            (Some(1), Some(9), 4)
        );
        times.add(7);
        assert_eq!(times.median(), Some(5));
        assert_eq!(times.describe(), "median 5 ms, max 9 ms, 5 moves");
    }

    #[test]
    fn elo_of_known_scores() {
        let even = Tally {
            wins: 10,
            losses: 10,
            draws: 0,
        };
        let (elo, low, high) = even.elo().unwrap();
        assert!(elo.abs() < 1e-9);
        assert!((low + high).abs() < 1e-6);
        // s = 0.5, sd per game 0.5, n = 20: Wilson's interval is s ± 0.1998 here
        // (the normal one ± 0.2191).
        let (_, low, high) = elo_interval(0.5, 0.25, 20.0);
        let k = Z95 * Z95 / 20.0;
        let half = (k * (1.0 + k)).sqrt() / (2.0 * (1.0 + k));
        assert!((high - elo_of_score(0.5 + half)).abs() < 0.01, "{high}");
        assert!((half - 0.1998).abs() < 1e-3, "{half}");
        assert!((low + high).abs() < 1e-6);
        let better = Tally {
            wins: 3,
            losses: 1,
            draws: 0,
        };
        // 75 % is +190.8 Elo.
        assert!((better.elo().unwrap().0 - 190.85).abs() < 0.05);
        let all = Tally {
            wins: 4,
            losses: 0,
            draws: 0,
        };
        assert_eq!(all.elo().unwrap().0, f64::INFINITY);
        // A finite lower bound at 100 %: 4/(4 + z²) = 0.5101.
        let (_, low, high) = all.elo().unwrap();
        assert!(
            (low - elo_of_score(4.0 / (4.0 + Z95 * Z95))).abs() < 1e-6,
            "{low}"
        );
        assert!(low.is_finite() && high == f64::INFINITY);
        assert_eq!(format_elo(f64::INFINITY), "+inf");
        assert_eq!(format_elo(-0.0), "+0.0");
        assert_eq!(format_elo(-12.34), "-12.3");
        assert_eq!(Tally::default().elo(), None);
        assert!((score_of_elo(elo_of_score(0.3)) - 0.3).abs() < 1e-12);
    }

    #[test]
    fn pentanomial_counts_and_elo() {
        let mut p = Pentanomial::default();
        for points in [0.0, 0.5, 1.0, 1.0, 1.5, 2.0, 2.0, 2.0] {
            p.add(points);
        }
        assert_eq!(p.counts, [1, 1, 2, 1, 3]);
        assert_eq!(p.short(), "[1, 1, 2, 1, 3]");
        let (mean, variance) = p.mean_and_variance().unwrap();
        assert!((mean - 10.0 / 16.0).abs() < 1e-12);
        assert!(variance > 0.0);
        // Five pairs won 2-0 (a 10-0 match): finite below, +inf above.
        let all = Pentanomial {
            counts: [0, 0, 0, 0, 5],
        };
        let (elo, low, high) = all.elo().unwrap();
        assert_eq!((elo, high), (f64::INFINITY, f64::INFINITY));
        assert!(low.is_finite() && low > 0.0, "{low}");
        assert_eq!(Pentanomial::default().elo(), None);
        // Every pair 1-1: even, but not known to the last Elo.
        let level = Pentanomial {
            counts: [0, 0, 20, 0, 0],
        };
        let (elo, low, high) = level.elo().unwrap();
        assert!(
            elo.abs() < 1e-9 && low < -10.0 && high > 10.0,
            "{low} {high}"
        );
    }

    #[test]
    fn pairs_two_nil_and_nil_two() {
        // A wins as Yuki (p1) and as Mina (p2).
        let r = score_pair([game(true, Player::P1, 30), game(false, Player::P2, 5)]);
        assert_eq!(r.score, Verdict::Win);
        let r = score_pair([game(true, Player::P2, 30), game(false, Player::P1, 5)]);
        assert_eq!(r.score, Verdict::Loss);
    }

    #[test]
    fn pairs_both_won_as_yuki_fewer_trees_wins() {
        // Game 1: A is Yuki and wins having eaten 20; game 2: B is Yuki and wins with 25.
        let r = score_pair([game(true, Player::P1, 20), game(false, Player::P1, 25)]);
        assert_eq!(r.score, Verdict::Win, "{:?}", r.reason);
        assert_eq!(r.reason, PairReason::BothWonAsP1 { a: 20, b: 25 });
        assert_eq!(
            r.reason.describe("A", "B", "trees eaten"),
            "1-1, both won as p1; trees eaten when winning: A 20, B 25 (fewer wins)"
        );
        let r = score_pair([game(true, Player::P1, 25), game(false, Player::P1, 20)]);
        assert_eq!(r.score, Verdict::Loss);
        let r = score_pair([game(true, Player::P1, 22), game(false, Player::P1, 22)]);
        assert_eq!(r.score, Verdict::Draw);
        // Order of the games does not matter.
        let r = score_pair([game(false, Player::P1, 25), game(true, Player::P1, 20)]);
        assert_eq!(r.score, Verdict::Win);
    }

    #[test]
    fn pairs_both_won_as_mina_more_trees_as_yuki_wins() {
        // Game 1: A is Yuki, eats 40 and loses; game 2: B is Yuki, eats 30 and loses.
        let r = score_pair([game(true, Player::P2, 40), game(false, Player::P2, 30)]);
        assert_eq!(r.score, Verdict::Win, "{:?}", r.reason);
        assert_eq!(r.reason, PairReason::BothWonAsP2 { a: 40, b: 30 });
        let r = score_pair([game(true, Player::P2, 30), game(false, Player::P2, 40)]);
        assert_eq!(r.score, Verdict::Loss);
        let r = score_pair([game(true, Player::P2, 33), game(false, Player::P2, 33)]);
        assert_eq!(r.score, Verdict::Draw);
    }

    #[test]
    fn pairs_a_forfeit_loses_the_tie_break() {
        // A would win the tree count (40 > 2), but lost its Yuki game by crashing.
        let mut crash = game(true, Player::P2, 40);
        crash.forfeit = true;
        let r = score_pair([crash, game(false, Player::P2, 2)]);
        assert_eq!(r.score, Verdict::Loss, "{:?}", r.reason);
        // B forfeits instead.
        let mut crash = game(false, Player::P2, 2);
        crash.forfeit = true;
        let r = score_pair([game(true, Player::P2, 1), crash]);
        assert_eq!(r.score, Verdict::Win);
        // Both forfeits: trees decide as usual.
        let mut one = game(true, Player::P2, 40);
        one.forfeit = true;
        let mut two = game(false, Player::P2, 30);
        two.forfeit = true;
        assert_eq!(score_pair([one, two]).score, Verdict::Win);
    }

    #[test]
    fn pairs_with_draws() {
        let draw = PairGame {
            a_is_p1: true,
            outcome: Outcome::Draw,
            count: 0,
            forfeit: false,
        };
        let r = score_pair([draw, game(false, Player::P2, 3)]);
        assert_eq!(r.score, Verdict::Win);
        let mut other = draw;
        other.a_is_p1 = false;
        assert_eq!(score_pair([draw, other]).score, Verdict::Draw);
    }
}
