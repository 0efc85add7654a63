//! The results of a match: per pair of engines ([`PairingStats`]), the whole
//! ([`MatchSummary`]) and its text, and the line the progress bar shows.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::hash::{Hash, Hasher};
use std::time::Duration;

use super::config::{MatchConfig, OpeningSource};
use super::record::GameRecord;
use super::referee::Reason;
use super::sprt::{Decision, Sprt};
use super::stats::{self, MoveTimes, PairGame, PairResult, Pentanomial, Tally, Verdict};
use crate::game::{Outcome, Player};

/// The results of one pair of engines, from the first engine's side.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// Engine indices.
    pub a: usize,
    pub b: usize,
    /// Whether the game is scored by pairs (SPEC §2): then the units are pairs.
    pub pair_scored: bool,
    /// Every game.
    pub games: Tally,
    /// The scored units: games, or pairs of games where pairs are scored.
    pub units: Tally,
    /// Every finished pair of games, by the first engine's points.
    pub pairs: Pentanomial,
    pub a_as_p1: Tally,
    pub a_as_p2: Tally,
    pub p1_wins: u32,
    pub p2_wins: u32,
    pub draws: u32,
    pub reasons: BTreeMap<Reason, u32>,
    /// The SPRT's decision when it was made, with the LLR and the units then.
    pub sprt: Option<(Decision, f64, u32)>,
    /// Games whose opening, engines and moves repeat an earlier game's.
    pub repeats: u32,
    seen: HashSet<u64>,
    /// First games of pairs whose other game is not in yet, by pair.
    pending: HashMap<u32, PairGame>,
}

impl PairingStats {
    pub fn new(a: usize, b: usize, pair_scored: bool) -> PairingStats {
        PairingStats {
            a,
            b,
            pair_scored,
            ..PairingStats::default()
        }
    }

    /// Counts one game of this pairing; when it completes a pair of a game scored by
    /// pairs, the pair's result. Then runs the SPRT, if any and not decided yet.
    pub fn add_record(
        &mut self,
        record: &GameRecord,
        sprt: Option<Sprt>,
    ) -> Result<Option<PairResult>, String> {
        let outcome = record.outcome()?;
        let reason = record.reason()?;
        let a_player = if record.leg == 0 {
            Player::P1
        } else {
            Player::P2
        };
        let score = Verdict::of(a_player, outcome);
        self.games.add(score);
        match a_player {
            Player::P1 => self.a_as_p1.add(score),
            Player::P2 => self.a_as_p2.add(score),
        }
        match outcome {
            Outcome::Win(Player::P1) => self.p1_wins += 1,
            Outcome::Win(Player::P2) => self.p2_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
        *self.reasons.entry(reason).or_default() += 1;
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (&record.opening, record.leg, &record.moves).hash(&mut hasher);
        if !self.seen.insert(hasher.finish()) {
            self.repeats += 1;
        }
        let game = PairGame {
            a_is_p1: record.leg == 0,
            outcome,
            count: record.tiebreak.unwrap_or(0),
            forfeit: reason.is_forfeit(),
        };
        let mut result = None;
        if let Some(other) = self.pending.remove(&record.pair) {
            let points = |g: &PairGame| match Verdict::of(
                if g.a_is_p1 { Player::P1 } else { Player::P2 },
                g.outcome,
            ) {
                Verdict::Win => 1.0,
                Verdict::Draw => 0.5,
                Verdict::Loss => 0.0,
            };
            self.pairs.add(points(&game) + points(&other));
            if self.pair_scored {
                let (first, second) = if other.a_is_p1 {
                    (other, game)
                } else {
                    (game, other)
                };
                let pair = stats::score_pair([first, second]);
                self.units.add(pair.score);
                result = Some(pair);
            }
        } else {
            self.pending.insert(record.pair, game);
        }
        if !self.pair_scored {
            self.units.add(score);
        }
        if let (Some(sprt), None) = (sprt, self.sprt) {
            let llr = self.llr(sprt);
            let decision = sprt.decide_llr(llr);
            if decision != Decision::Continue {
                self.sprt = Some((decision, llr, self.sprt_count()));
            }
        }
        Ok(result)
    }

    /// The SPRT's LLR: on pairs (pentanomial), or on the scored pairs of a game scored
    /// by pairs (trinomial).
    pub fn llr(&self, sprt: Sprt) -> f64 {
        if self.pair_scored {
            sprt.llr(&self.units)
        } else {
            sprt.llr_pairs(&self.pairs)
        }
    }

    /// The number of results the SPRT has seen.
    fn sprt_count(&self) -> u32 {
        if self.pair_scored {
            self.units.total()
        } else {
            self.pairs.total()
        }
    }
}

/// The whole match's results.
#[derive(Clone, Debug)]
pub struct MatchSummary {
    pub game: &'static str,
    pub engine_names: Vec<String>,
    pub pairings: Vec<PairingStats>,
    pub pair_scored: bool,
    pub games_played: u32,
    pub games_planned: u32,
    pub seed: Option<u64>,
    pub elapsed: Duration,
    /// Per engine, the time of its moves (as the referee charged them).
    pub move_times: Vec<MoveTimes>,
    /// Stopped by Ctrl-C before the games planned were played.
    pub interrupted: bool,
    /// Summed by `match merge` from this many files, rather than played.
    pub merged_files: Option<usize>,
}

impl MatchSummary {
    /// The summary text.
    pub fn render(&self, config: &MatchConfig) -> String {
        let mut out = String::new();
        let line = |out: &mut String, text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        let options = if config.game_options.is_empty() {
            "default options".to_string()
        } else {
            config
                .game_options
                .iter()
                .map(|(n, v)| format!("{n}={v}"))
                .collect::<Vec<_>>()
                .join(" ")
        };
        let head = match self.merged_files {
            Some(files) => format!(
                "Merged: {} ({options}), {} games from {files} file{}",
                self.game,
                self.games_played,
                if files == 1 { "" } else { "s" }
            ),
            None => format!(
                "Match: {} ({options}), {} of {} games in {:.1} s{}",
                self.game,
                self.games_played,
                self.games_planned,
                self.elapsed.as_secs_f64(),
                if self.interrupted {
                    " (interrupted)"
                } else {
                    ""
                }
            ),
        };
        line(&mut out, head);
        for spec in config
            .engines
            .iter()
            .filter(|_| self.merged_files.is_none())
        {
            let mut text = format!("  {}: {}", spec.name, spec.limits.describe());
            for (name, value) in &spec.options {
                text.push_str(&format!(", {name}={value}"));
            }
            line(&mut out, text);
        }
        match &config.openings {
            _ if self.merged_files.is_some() => line(
                &mut out,
                match self.seed {
                    Some(seed) => format!("Openings: as in the files, seed {seed}"),
                    None => "Openings: as in the files".to_string(),
                },
            ),
            OpeningSource::StartPos => line(&mut out, "Openings: the start position".into()),
            OpeningSource::Suite => line(&mut out, super::suite::describe(config)),
            OpeningSource::File(path) => {
                line(&mut out, format!("Openings: {}", path.display()));
            }
            OpeningSource::Random { plies, seed } => {
                line(
                    &mut out,
                    format!("Openings: {plies} random plies, seed {seed}"),
                );
            }
        }
        for p in &self.pairings {
            let (a, b) = (&self.engine_names[p.a], &self.engine_names[p.b]);
            let unit = if self.pair_scored { "pairs" } else { "games" };
            let score = p
                .units
                .score()
                .map_or("-".to_string(), |s| format!("{:.1}%", 100.0 * s));
            let elo = stats::format_elo_interval(p.units.elo());
            line(
                &mut out,
                format!(
                    "{a} vs {b}: {} {}  score {score}  {elo}",
                    unit,
                    p.units.short()
                ),
            );
            if self.pair_scored {
                line(
                    &mut out,
                    format!("  games {} (pairs scored per SPEC §2)", p.games.short()),
                );
            } else if p.pairs.total() > 0 {
                let (mean, _) = p.pairs.mean_and_variance().unwrap_or((0.5, 0.0));
                let elo = stats::format_elo_interval(p.pairs.elo());
                line(
                    &mut out,
                    format!(
                        "  pairs {}, ptnml(0-2) {}  score {:.1}%  {elo}",
                        p.pairs.total(),
                        p.pairs.short(),
                        100.0 * mean
                    ),
                );
            }
            line(
                &mut out,
                format!(
                    "  {a} as p1 {}, as p2 {}; p1 won {}, p2 won {}, draws {}",
                    p.a_as_p1.short(),
                    p.a_as_p2.short(),
                    p.p1_wins,
                    p.p2_wins,
                    p.draws
                ),
            );
            let ends: Vec<String> = Reason::ALL
                .iter()
                // Adjudication is shown only when it happened (`--adjudicate`).
                .filter(|r| **r != Reason::Adjudicated || p.reasons.contains_key(r))
                .map(|r| format!("{} {}", r.as_str(), p.reasons.get(r).copied().unwrap_or(0)))
                .collect();
            line(&mut out, format!("  ends: {}", ends.join(", ")));
            if p.repeats > 0 {
                line(
                    &mut out,
                    format!(
                        "  warning: {} of {} games repeat an earlier game move for move (deterministic engines? give more openings)",
                        p.repeats,
                        p.games.total()
                    ),
                );
            }
            if let Some(sprt) = config.sprt {
                let (lower, upper) = sprt.bounds();
                let now = p.llr(sprt);
                let verdict = match p.sprt {
                    Some((decision, llr, n)) => {
                        format!("{} at LLR {llr:.2} after {n} pairs", decision.describe())
                    }
                    None => Decision::Continue.describe().to_string(),
                };
                line(
                    &mut out,
                    format!(
                        "  SPRT elo0 {} elo1 {} alpha {} beta {}: LLR {now:.2} [{lower:.2}, {upper:.2}], {verdict}",
                        sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta
                    ),
                );
            }
        }
        line(
            &mut out,
            "Time per move (wall time from go to bestmove):".into(),
        );
        for (name, times) in self.engine_names.iter().zip(&self.move_times) {
            line(&mut out, format!("  {name}: {}", times.describe()));
        }
        if self.engine_names.len() > 2 {
            line(&mut out, "Standings (points per scored unit):".into());
            let mut points: Vec<(f64, u32, &str)> = self
                .engine_names
                .iter()
                .enumerate()
                .map(|(index, name)| {
                    let mut pts = 0.0;
                    let mut n = 0;
                    for p in &self.pairings {
                        let tally = if p.a == index {
                            p.units
                        } else if p.b == index {
                            p.units.flipped()
                        } else {
                            continue;
                        };
                        pts += f64::from(tally.wins) + 0.5 * f64::from(tally.draws);
                        n += tally.total();
                    }
                    (pts, n, name.as_str())
                })
                .collect();
            points.sort_by(|x, y| y.0.total_cmp(&x.0));
            for (rank, (pts, n, name)) in points.iter().enumerate() {
                line(&mut out, format!("  {}. {name}: {pts} of {n}", rank + 1));
            }
        }
        out
    }
}

pub(super) fn progress_message(
    stats: &PairingStats,
    names: &[String],
    sprt: Option<Sprt>,
) -> String {
    let mut text = format!(
        "{} vs {} {}",
        names[stats.a],
        names[stats.b],
        stats.units.short()
    );
    if let Some((elo, low, high)) = stats.units.elo() {
        text.push_str(&format!(
            "  Elo {} [{}, {}]",
            stats::format_elo(elo),
            stats::format_elo(low),
            stats::format_elo(high)
        ));
    }
    if let Some(sprt) = sprt {
        text.push_str(&format!("  LLR {:.2}", stats.llr(sprt)));
    }
    text
}
