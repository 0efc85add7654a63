//! The results of a match: per pair of engines ([`PairingStats`]), the whole
//! ([`MatchSummary`]) and its text, and the line the progress bar shows.

use std::collections::BTreeMap;
use std::time::Duration;

use super::config::{MatchConfig, OpeningSource};
use super::referee::{GameReport, Reason};
use super::sprt::{Decision, Sprt};
use super::stats::{self, MoveTimes, Tally, Verdict};
use crate::game::{Outcome, Player};

/// The results of one pair of engines, from the first engine's side.
#[derive(Clone, Debug, Default)]
pub struct PairingStats {
    /// Engine indices.
    pub a: usize,
    pub b: usize,
    /// Every game.
    pub games: Tally,
    /// The scored units: games, or pairs of games where pairs are scored.
    pub units: Tally,
    pub a_as_p1: Tally,
    pub a_as_p2: Tally,
    pub p1_wins: u32,
    pub p2_wins: u32,
    pub draws: u32,
    pub reasons: BTreeMap<Reason, u32>,
    /// The SPRT's decision when it was made, with the LLR and the units then.
    pub sprt: Option<(Decision, f64, u32)>,
}

impl PairingStats {
    pub(super) fn add_game(&mut self, report: &GameReport) {
        let a_player = if report.engines[0] == self.a {
            Player::P1
        } else {
            Player::P2
        };
        let score = Verdict::of(a_player, report.outcome);
        self.games.add(score);
        match a_player {
            Player::P1 => self.a_as_p1.add(score),
            Player::P2 => self.a_as_p2.add(score),
        }
        match report.outcome {
            Outcome::Win(Player::P1) => self.p1_wins += 1,
            Outcome::Win(Player::P2) => self.p2_wins += 1,
            Outcome::Draw => self.draws += 1,
        }
        *self.reasons.entry(report.reason).or_default() += 1;
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
}

impl MatchSummary {
    /// The summary text.
    pub fn render(&self, config: &MatchConfig) -> String {
        let mut out = String::new();
        let line = |out: &mut String, text: String| {
            out.push_str(&text);
            out.push('\n');
        };
        line(
            &mut out,
            format!(
                "Match: {} ({}), {} of {} games in {:.1} s",
                self.game,
                if config.game_options.is_empty() {
                    "default options".to_string()
                } else {
                    config
                        .game_options
                        .iter()
                        .map(|(n, v)| format!("{n}={v}"))
                        .collect::<Vec<_>>()
                        .join(" ")
                },
                self.games_played,
                self.games_planned,
                self.elapsed.as_secs_f64()
            ),
        );
        for spec in &config.engines {
            let mut text = format!("  {}: {}", spec.name, spec.limits.describe());
            for (name, value) in &spec.options {
                text.push_str(&format!(", {name}={value}"));
            }
            line(&mut out, text);
        }
        match &config.openings {
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
            let elo = match p.units.elo() {
                Some((elo, low, high)) => format!(
                    "Elo {} [{}, {}] (95%)",
                    stats::format_elo(elo),
                    stats::format_elo(low),
                    stats::format_elo(high)
                ),
                None => "Elo -".to_string(),
            };
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
            if let Some(sprt) = config.sprt {
                let (lower, upper) = sprt.bounds();
                let now = sprt.llr(&p.units);
                let verdict = match p.sprt {
                    Some((decision, llr, n)) => {
                        format!("{} at LLR {llr:.2} after {n} {unit}", decision.describe())
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
        text.push_str(&format!("  LLR {:.2}", sprt.llr(&stats.units)));
    }
    text
}
