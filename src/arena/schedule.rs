//! Playing a match: engines checked, then games played in pairs on `--concurrency`
//! worker threads, each with its own engine processes; the main thread gathers the
//! results into the tallies, the `--out` JSON lines, the progress bar and the SPRT.

use std::collections::HashMap;
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::config::{MatchConfig, OpeningSource};
use super::json;
use super::openings::{self, Opening};
use super::referee::{self, EngineSlot, GameReport, RefereeSettings};
use super::sprt::Decision;
use super::stats::{self, MoveTimes, PairGame, Verdict};
use super::summary::{MatchSummary, PairingStats, progress_message};
use crate::game::{Game, Outcome, Player, Scoring};
use crate::games::{self, GameVisitor};
use crate::options;

/// One job: a pair of games from one opening with colours swapped.
struct Job {
    pairing: usize,
    a: usize,
    b: usize,
    pair: u32,
}

/// A finished game, sent from a worker to the main thread.
struct Done {
    job: usize,
    /// 0: `a` was p1; 1: `b` was p1.
    leg: usize,
    pair: u32,
    report: GameReport,
}

/// Plays the match.
pub fn run(config: &MatchConfig) -> Result<MatchSummary, String> {
    games::visit(config.game, RunMatch(config))
        .ok_or_else(|| format!("unknown game '{}'", config.game))?
}

struct RunMatch<'a>(&'a MatchConfig);

impl GameVisitor for RunMatch<'_> {
    type Output = Result<MatchSummary, String>;
    fn visit<G: Game>(self) -> Self::Output {
        run_game::<G>(self.0)
    }
}

fn run_game<G: Game>(config: &MatchConfig) -> Result<MatchSummary, String> {
    let began = Instant::now();
    let game_config = options::config_from_pairs::<G>(&config.game_options)?;
    let opening_list: Vec<Opening> = match &config.openings {
        OpeningSource::File(path) => {
            let text = std::fs::read_to_string(path)
                .map_err(|e| format!("cannot read openings '{}': {e}", path.display()))?;
            openings::parse_file::<G>(&game_config, &text)
                .map_err(|e| format!("openings '{}': {e}", path.display()))?
        }
        OpeningSource::Suite => match super::suite::shipped(G::NAME, &config.game_options) {
            Some(text) => openings::parse_file::<G>(&game_config, text)
                .map_err(|e| format!("the {} suite: {e}", G::NAME))?,
            None => vec![Opening::startpos()],
        },
        _ => Vec::new(),
    };
    let pair_scored = matches!(G::SCORING, Scoring::Pairs(_));
    let settings = RefereeSettings {
        game: G::NAME,
        game_options: config.game_options.clone(),
        timeout: config.timeout,
        grace: config.grace,
        max_plies: config.max_plies,
        adjudicate: config.adjudicate,
    };
    let mut out_file = match &config.out {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path)
                .map_err(|e| format!("cannot create '{}': {e}", path.display()))?,
        )),
        None => None,
    };

    // Every engine must start and answer the handshake before the match begins: a
    // wrong path or a program that is no engine is the user's error, not a game loss.
    for (index, spec) in config.engines.iter().enumerate() {
        let mut slot = EngineSlot::new(index, spec.clone());
        slot.ensure_started(&settings).map_err(|e| match e {
            referee::StartError::Rejected { .. } => format!("engine '{}' {e}", spec.name),
            referee::StartError::Failed(_) => format!("engine '{}' does not start: {e}", spec.name),
        })?;
        slot.quit();
    }

    let n = config.engines.len();
    let mut pairings = Vec::new();
    for a in 0..n {
        for b in a + 1..n {
            pairings.push(PairingStats {
                a,
                b,
                ..PairingStats::default()
            });
        }
    }
    let pairs_per_pairing = config.games / 2;
    let mut jobs = Vec::new();
    for pair in 0..pairs_per_pairing {
        for (index, p) in pairings.iter().enumerate() {
            jobs.push(Job {
                pairing: index,
                a: p.a,
                b: p.b,
                pair,
            });
        }
    }
    let games_planned = jobs.len() as u32 * 2;
    let opening_of = |pair: u32| -> Opening {
        match &config.openings {
            OpeningSource::StartPos => Opening::startpos(),
            OpeningSource::File(_) | OpeningSource::Suite => {
                opening_list[pair as usize % opening_list.len()].clone()
            }
            OpeningSource::Random { plies, seed } => {
                openings::random::<G>(&game_config, *plies, *seed, u64::from(pair))
            }
        }
    };

    let progress = progress_bar(config.progress, u64::from(games_planned));
    let next_job = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let names: Vec<String> = config.engines.iter().map(|s| s.name.clone()).collect();
    let mut games_played = 0u32;
    let mut write_error: Option<String> = None;
    let engines = &config.engines;
    let workers = config.concurrency.min(jobs.len()).max(1);
    let mut first_legs: HashMap<usize, GameReport> = HashMap::new();
    let mut move_times = vec![MoveTimes::default(); n];
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Done>();
        for worker in 0..workers {
            let sender = sender.clone();
            let (jobs, next_job, stop, settings, game_config) =
                (&jobs, &next_job, &stop, &settings, &game_config);
            let opening_of = &opening_of;
            let spawned = std::thread::Builder::new()
                .name(format!("match-worker-{worker}"))
                .spawn_scoped(scope, move || {
                    let mut slots: Vec<EngineSlot> = engines
                        .iter()
                        .enumerate()
                        .map(|(index, spec)| EngineSlot::new(index, spec.clone()))
                        .collect();
                    'jobs: while !stop.load(Ordering::Relaxed) {
                        let index = next_job.fetch_add(1, Ordering::Relaxed);
                        let Some(job) = jobs.get(index) else { break };
                        let opening = opening_of(job.pair);
                        for leg in 0..2 {
                            let (p1, p2) = if leg == 0 {
                                (job.a, job.b)
                            } else {
                                (job.b, job.a)
                            };
                            let [first, second] = two_mut(&mut slots, p1, p2);
                            let Some(report) = referee::play_game::<G>(
                                game_config,
                                settings,
                                &opening,
                                [first, second],
                                stop,
                            ) else {
                                break 'jobs;
                            };
                            let done = Done {
                                job: index,
                                leg,
                                pair: job.pair,
                                report,
                            };
                            if sender.send(done).is_err() {
                                break 'jobs;
                            }
                        }
                    }
                    for slot in &mut slots {
                        slot.quit();
                    }
                });
            if let Err(e) = spawned {
                log::error!("cannot start match worker {worker}: {e}");
            }
        }
        drop(sender);
        for done in receiver {
            games_played += 1;
            let job = &jobs[done.job];
            let stats = &mut pairings[job.pairing];
            stats.add_game(&done.report);
            for time in &done.report.move_times {
                move_times[done.report.engines[time.player.index()]].add(time.ms);
            }
            let mut pair_note = None;
            if pair_scored {
                if let Some(other) = first_legs.remove(&done.job) {
                    let (first, second) = if done.leg == 0 {
                        (&done.report, &other)
                    } else {
                        (&other, &done.report)
                    };
                    let result =
                        stats::score_pair([pair_game(first, stats.a), pair_game(second, stats.a)]);
                    stats.units.add(result.score);
                    pair_note = Some(result);
                } else {
                    first_legs.insert(done.job, done.report.clone());
                }
            } else {
                stats.units.add(Verdict::of(
                    if done.report.engines[0] == stats.a {
                        Player::P1
                    } else {
                        Player::P2
                    },
                    done.report.outcome,
                ));
            }
            if let (Some(sprt), None) = (config.sprt, stats.sprt) {
                let decision = sprt.decide(&stats.units);
                if decision != Decision::Continue {
                    stats.sprt = Some((decision, sprt.llr(&stats.units), stats.units.total()));
                    stop.store(true, Ordering::Relaxed);
                }
            }
            log::info!(
                "game {}: {} vs {}: {} ({}) {}",
                games_played,
                names[done.report.engines[0]],
                names[done.report.engines[1]],
                done.report.outcome,
                done.report.reason.as_str(),
                done.report.detail
            );
            if let Some(file) = out_file.as_mut() {
                let line = game_json(
                    G::NAME,
                    G::SCORING,
                    &names,
                    &done,
                    games_played,
                    pair_note.as_ref().map(|r| (r, stats.a, stats.b)),
                );
                if let Err(e) = writeln!(file, "{line}").and_then(|()| file.flush()) {
                    write_error.get_or_insert(format!("cannot write the games file: {e}"));
                }
            }
            progress.set_position(u64::from(games_played));
            progress.set_message(progress_message(stats, &names, config.sprt));
        }
    });
    progress.finish_and_clear();
    if let Some(error) = write_error {
        return Err(error);
    }
    Ok(MatchSummary {
        game: G::NAME,
        engine_names: names,
        pairings,
        pair_scored,
        games_played,
        games_planned,
        seed: match config.openings {
            OpeningSource::Random { seed, .. } => Some(seed),
            _ => None,
        },
        elapsed: began.elapsed(),
        move_times,
    })
}

/// Two distinct elements of a slice, mutably.
fn two_mut<T>(items: &mut [T], i: usize, j: usize) -> [&mut T; 2] {
    assert!(i != j, "an engine cannot play itself");
    if i < j {
        let (left, right) = items.split_at_mut(j);
        [&mut left[i], &mut right[0]]
    } else {
        let (left, right) = items.split_at_mut(i);
        [&mut right[0], &mut left[j]]
    }
}

fn pair_game(report: &GameReport, a: usize) -> PairGame {
    PairGame {
        a_is_p1: report.engines[0] == a,
        outcome: report.outcome,
        count: report.count.unwrap_or(0),
        forfeit: report.reason.is_forfeit(),
    }
}

fn game_json(
    game: &str,
    scoring: Scoring,
    names: &[String],
    done: &Done,
    number: u32,
    pair: Option<(&stats::PairResult, usize, usize)>,
) -> String {
    let r = &done.report;
    let tiebreak = match scoring {
        Scoring::Pairs(tiebreak) => Some(tiebreak),
        Scoring::Games => None,
    };
    let winner = match r.outcome {
        Outcome::Win(player) => Some(names[r.engines[player.index()]].as_str()),
        Outcome::Draw => None,
    };
    let mut object = json::Object::new()
        .num("game", number)
        .str("name", game)
        .num("pair", done.pair)
        .num("leg", done.leg)
        .str("p1", &names[r.engines[0]])
        .str("p2", &names[r.engines[1]])
        .str("opening", &r.opening)
        .strings("moves", &r.moves)
        .str("result", r.outcome.as_str())
        .opt_str("winner", winner)
        .str("reason", r.reason.as_str())
        .str("detail", &r.detail)
        .str("final_fen", &r.final_fen)
        // One key for every game: the tie-break count of a game scored by pairs
        // (Frozen Forest: the trees Yuki ate), null for the others.
        .opt_num("tiebreak", r.count)
        .num("ms", r.duration.as_millis())
        .raw(
            "move_ms",
            format!(
                "[{}]",
                r.move_times
                    .iter()
                    .map(|t| t.ms.to_string())
                    .collect::<Vec<_>>()
                    .join(",")
            ),
        );
    if let Some((result, a, b)) = pair {
        let pair_winner = match result.score {
            Verdict::Win => Some(names[a].as_str()),
            Verdict::Loss => Some(names[b].as_str()),
            Verdict::Draw => None,
        };
        object = object.opt_str("pair_winner", pair_winner).str(
            "pair_reason",
            &result
                .reason
                .describe(&names[a], &names[b], tiebreak.map_or("", |t| t.words)),
        );
    }
    object.finish()
}

fn progress_bar(wanted: bool, total: u64) -> indicatif::ProgressBar {
    if !wanted || !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    let style = indicatif::ProgressStyle::with_template(
        "{elapsed_precise} [{bar:30}] {pos}/{len} games  {msg}",
    );
    if let Ok(style) = style {
        bar.set_style(style.progress_chars("=> "));
    }
    bar.enable_steady_tick(Duration::from_millis(250));
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_distinct_slots() {
        let mut v = vec![1, 2, 3];
        let [x, y] = two_mut(&mut v, 2, 0);
        std::mem::swap(x, y);
        assert_eq!(v, vec![3, 2, 1]);
    }
}
