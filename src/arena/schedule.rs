//! Playing a match: engines checked, then games played in pairs on `--concurrency`
//! worker threads, each with its own engine processes; the main thread gathers the
//! results into the tallies, the `--out` JSON lines, the `--pgn` records, the progress
//! bar and the SPRT.
//!
//! The pairs are dealt in a fixed order (pair 0 of every pairing of engines, then pair
//! 1, …); a pair's index in that order is its `job`. `--shard K/N` plays the jobs
//! whose index is K−1 modulo N, and a job's opening depends only on the match seed and
//! its pair, so N shards play exactly the games of one run. `--resume FILE` reads the
//! games already in FILE, counts them, and plays the rest. Ctrl-C stops the match:
//! games in progress are dropped and the summary of those finished is printed.

use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{IsTerminal, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Once, mpsc};
use std::time::{Duration, Instant};

use super::config::{MatchConfig, OpeningSource};
use super::openings::{self, Opening};
use super::record::{self, GameRecord};
use super::referee::{self, EngineSlot, GameReport, RefereeSettings};
use super::replay::{self, PgnContext};
use super::stats::{MoveTimes, Verdict};
use super::summary::{MatchSummary, PairingStats, progress_message};
use crate::game::{Game, Outcome, Scoring};
use crate::games::{self, GameVisitor};
use crate::options;

/// Raised by Ctrl-C.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// Ctrl-C stops the match at the next move (the summary is still printed); a second
/// Ctrl-C ends the program at once.
fn catch_ctrl_c() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let installed = ctrlc::set_handler(|| {
            if INTERRUPTED.swap(true, Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
        if let Err(e) = installed {
            log::warn!("Ctrl-C will not print a summary: {e}");
        }
    });
}

/// One job: a pair of games from one opening with colours swapped.
struct Job {
    pairing: usize,
    a: usize,
    b: usize,
    pair: u32,
    /// The pair's index over the whole match.
    index: u32,
    /// The legs still to play (0: `a` is p1; 1: `b` is p1).
    legs: Vec<u8>,
}

/// A finished game, sent from a worker to the main thread.
struct Done {
    job: usize,
    leg: u8,
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

/// The pairings of engines `(a, b)`: every pair, or the first against each other.
pub fn pairings(engines: usize, gauntlet: bool) -> Vec<(usize, usize)> {
    let mut pairs = Vec::new();
    for a in 0..engines {
        for b in a + 1..engines {
            if !gauntlet || a == 0 {
                pairs.push((a, b));
            }
        }
    }
    pairs
}

/// Opens `path` for writing: appended to when resuming, else created.
fn open_output(path: &Path, append: bool) -> Result<File, String> {
    let file = if append {
        OpenOptions::new().create(true).append(true).open(path)
    } else {
        File::create(path)
    };
    file.map_err(|e| format!("cannot create '{}': {e}", path.display()))
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
    if let Some(dir) = &config.log_dir {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create the log directory '{}': {e}", dir.display()))?;
    }
    let settings = RefereeSettings {
        game: G::NAME,
        game_options: config.game_options.clone(),
        timeout: config.timeout,
        grace: config.grace,
        max_plies: config.max_plies,
        log_dir: config.log_dir.clone(),
        adjudicate: config.adjudicate,
    };
    let seed = match config.openings {
        OpeningSource::Random { seed, .. } => Some(seed),
        _ => None,
    };
    let resumed = match &config.resume {
        Some(path) if path.exists() => record::read_file(path)?,
        _ => Vec::new(),
    };
    let out_path = config.resume.as_ref().or(config.out.as_ref());
    let mut out_file = match out_path {
        Some(path) => Some(std::io::BufWriter::new(open_output(
            path,
            config.resume.is_some(),
        )?)),
        None => None,
    };
    let mut pgn_file = match &config.pgn {
        Some(path) => Some(std::io::BufWriter::new(open_output(
            path,
            config.resume.is_some(),
        )?)),
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
    let mut pairings: Vec<PairingStats> = pairings(n, config.gauntlet)
        .into_iter()
        .map(|(a, b)| PairingStats::new(a, b, pair_scored))
        .collect();
    let pairs_per_pairing = config.games / 2;
    let mut jobs = Vec::new();
    for pair in 0..pairs_per_pairing {
        for (index, p) in pairings.iter().enumerate() {
            let job = pair * pairings.len() as u32 + index as u32;
            if let Some((k, of)) = config.shard
                && job % of != k - 1
            {
                continue;
            }
            jobs.push(Job {
                pairing: index,
                a: p.a,
                b: p.b,
                pair,
                index: job,
                legs: vec![0, 1],
            });
        }
    }
    let games_planned = jobs.len() as u32 * 2;
    let names: Vec<String> = config.engines.iter().map(|s| s.name.clone()).collect();
    let mut move_times = vec![MoveTimes::default(); n];

    // The games already played, counted as if just finished.
    let mut games_played = 0u32;
    let mut done_legs: HashSet<(u32, u8)> = HashSet::new();
    for (line, record) in resumed.iter().enumerate() {
        let where_ = || {
            format!(
                "'{}' line {}",
                config
                    .resume
                    .as_ref()
                    .map_or("".into(), |p| p.display().to_string()),
                line + 1
            )
        };
        let job = jobs
            .iter()
            .find(|j| j.index == record.job)
            .filter(|j| {
                let (p1, p2) = if record.leg == 0 { (j.a, j.b) } else { (j.b, j.a) };
                record.name == G::NAME
                    && record.pair == j.pair
                    && record.pairing == [j.a as u32, j.b as u32]
                    && names[p1] == record.p1
                    && names[p2] == record.p2
                    && record.seed == seed
                    && record.options == config.game_options
            })
            .ok_or_else(|| {
                format!(
                    "{}: game {} is not one of this match's (another game, engines, seed, options, --games or --shard)",
                    where_(),
                    record.game
                )
            })?;
        if !done_legs.insert((record.job, record.leg)) {
            return Err(format!("{}: game {} is there twice", where_(), record.game));
        }
        let stats = &mut pairings[job.pairing];
        stats.add_record(record, config.sprt)?;
        let replay = replay::replay::<G>(&game_config, record)?;
        for (mover, ms) in replay.movers.iter().zip(&record.move_ms) {
            let engine = if (*mover == crate::game::Player::P1) == (record.leg == 0) {
                job.a
            } else {
                job.b
            };
            move_times[engine].add(*ms);
        }
        games_played += 1;
    }
    let mut number = resumed.iter().map(|r| r.game).max().unwrap_or(0);
    for job in &mut jobs {
        job.legs
            .retain(|leg| !done_legs.contains(&(job.index, *leg)));
    }
    let decided = pairings.iter().any(|p| p.sprt.is_some());
    jobs.retain(|job| !job.legs.is_empty() && !decided);

    let opening_index = |pair: u32| -> u32 {
        match &config.openings {
            OpeningSource::StartPos => 0,
            OpeningSource::File(_) | OpeningSource::Suite => {
                pair % opening_list.len().max(1) as u32
            }
            OpeningSource::Random { .. } => pair,
        }
    };
    let opening_of = |pair: u32| -> Opening {
        match &config.openings {
            OpeningSource::StartPos => Opening::startpos(),
            OpeningSource::File(_) | OpeningSource::Suite => {
                opening_list[opening_index(pair) as usize].clone()
            }
            OpeningSource::Random { plies, seed } => {
                openings::random::<G>(&game_config, *plies, *seed, u64::from(pair))
            }
        }
    };

    catch_ctrl_c();
    let pgn_context = PgnContext::new(&config.engines);
    let progress = progress_bar(config.progress, u64::from(games_planned));
    progress.set_position(u64::from(games_played));
    let next_job = AtomicUsize::new(0);
    let stop = AtomicBool::new(INTERRUPTED.load(Ordering::SeqCst));
    let mut write_error: Option<String> = None;
    let engines = &config.engines;
    let workers = config.concurrency.min(jobs.len()).max(1);
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::channel::<Done>();
        for worker in 0..workers.min(jobs.len()) {
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
                        for &leg in &job.legs {
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
        let mut sprt_decided = false;
        loop {
            let done = match receiver.recv_timeout(Duration::from_millis(100)) {
                Ok(done) => done,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if INTERRUPTED.load(Ordering::SeqCst) {
                        stop.store(true, Ordering::SeqCst);
                    }
                    continue;
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            };
            if sprt_decided {
                // A worker started this game before the SPRT's stop reached it. Not
                // counted (nor written), so that a match stopped by its SPRT sums the
                // same games on any machine, however fast its workers pick up a job.
                continue;
            }
            if INTERRUPTED.load(Ordering::SeqCst) {
                // Finished as the user stopped the match: still counted.
                stop.store(true, Ordering::SeqCst);
            }
            games_played += 1;
            number += 1;
            let job = &jobs[done.job];
            let stats = &mut pairings[job.pairing];
            for time in &done.report.move_times {
                move_times[done.report.engines[time.player.index()]].add(time.ms);
            }
            let mut record = game_record::<G>(
                &names,
                &done,
                job,
                number,
                opening_index(job.pair),
                seed,
                &config.game_options,
            );
            let pair = match stats.add_record(&record, config.sprt) {
                Ok(pair) => pair,
                Err(e) => {
                    write_error.get_or_insert(e);
                    None
                }
            };
            if let Some(result) = pair {
                let (a, b) = (&names[stats.a], &names[stats.b]);
                record.pair_winner = match result.score {
                    Verdict::Win => Some(a.clone()),
                    Verdict::Loss => Some(b.clone()),
                    Verdict::Draw => None,
                };
                let counted = match G::SCORING {
                    Scoring::Pairs(tiebreak) => tiebreak.words,
                    Scoring::Games => "",
                };
                record.pair_reason = Some(result.reason.describe(a, b, counted));
            }
            if stats.sprt.is_some() {
                sprt_decided = true;
                stop.store(true, Ordering::Relaxed);
            }
            log::info!(
                "game {}: {} vs {}: {} ({}) {}",
                number,
                record.p1,
                record.p2,
                record.result,
                record.reason,
                record.detail
            );
            if let Some(file) = out_file.as_mut()
                && let Err(e) = writeln!(file, "{}", record.to_json()).and_then(|()| file.flush())
            {
                write_error.get_or_insert(format!("cannot write the games file: {e}"));
            }
            if let Some(file) = pgn_file.as_mut() {
                let written =
                    replay::pgn_game::<G>(&game_config, &record, &pgn_context).and_then(|pgn| {
                        file.write_all(pgn.to_text().as_bytes())
                            .and_then(|()| file.flush())
                            .map_err(|e| format!("cannot write the PGN file: {e}"))
                    });
                if let Err(e) = written {
                    write_error.get_or_insert(e);
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
        seed,
        elapsed: began.elapsed(),
        move_times,
        interrupted: INTERRUPTED.load(Ordering::SeqCst),
        merged_files: None,
    })
}

/// The record of a game just played (without the pair's result).
fn game_record<G: Game>(
    names: &[String],
    done: &Done,
    job: &Job,
    number: u32,
    opening_index: u32,
    seed: Option<u64>,
    options: &[(String, String)],
) -> GameRecord {
    let r = &done.report;
    GameRecord {
        game: number,
        name: G::NAME.to_string(),
        pair: job.pair,
        leg: done.leg,
        p1: names[r.engines[0]].clone(),
        p2: names[r.engines[1]].clone(),
        opening: r.opening.clone(),
        moves: r.moves.clone(),
        result: r.outcome.as_str().to_string(),
        winner: match r.outcome {
            Outcome::Win(player) => Some(names[r.engines[player.index()]].clone()),
            Outcome::Draw => None,
        },
        reason: r.reason.as_str().to_string(),
        detail: r.detail.clone(),
        final_fen: r.final_fen.clone(),
        tiebreak: r.count,
        ms: r.duration.as_millis() as u64,
        move_ms: r.move_times.iter().map(|t| t.ms).collect(),
        pair_winner: None,
        pair_reason: None,
        pairing: [job.a as u32, job.b as u32],
        job: job.index,
        opening_index,
        seed,
        options: options.to_vec(),
    }
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

    #[test]
    fn round_robin_and_gauntlet() {
        assert_eq!(pairings(3, false), vec![(0, 1), (0, 2), (1, 2)]);
        assert_eq!(pairings(3, true), vec![(0, 1), (0, 2)]);
        assert_eq!(pairings(2, true), vec![(0, 1)]);
    }
}
