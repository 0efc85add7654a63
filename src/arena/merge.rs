//! `tabuleiro match merge FILE…`: the summary of a match played in shards (`--shard
//! K/N`, on one machine or many) from their `--out` JSON lines, as one run would have
//! printed it: the same tallies, Elo, pairs and SPRT (on the whole, as the shards do
//! not stop early), and the time per move.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use super::config::{EngineSpec, Limits, MatchConfig, OpeningSource};
use super::record::{self, GameRecord};
use super::replay;
use super::sprt::{Decision, Sprt};
use super::stats::MoveTimes;
use super::summary::{MatchSummary, PairingStats};
use crate::game::{Game, Player, Scoring};
use crate::games::{self, GameVisitor};
use crate::options;

/// Reads the `--out` files and renders their summary, with the SPRT `sprt` taken on
/// all the games.
pub fn main(files: &[PathBuf], sprt: Option<Sprt>) -> Result<String, String> {
    let mut records = Vec::new();
    for path in files {
        records.extend(record::read_file(path)?);
    }
    let (summary, config) = merge(records, files.len(), sprt)?;
    Ok(summary.render(&config))
}

/// The summary of `records` (from `files` files), and the match they describe.
pub fn merge(
    mut records: Vec<GameRecord>,
    files: usize,
    sprt: Option<Sprt>,
) -> Result<(MatchSummary, MatchConfig), String> {
    let first = records.first().ok_or("no games in the files")?.clone();
    let game = games::NAMES
        .iter()
        .copied()
        .find(|g| *g == first.name)
        .ok_or_else(|| format!("unknown game '{}'", first.name))?;
    for record in &records {
        if record.name != first.name || record.options != first.options || record.seed != first.seed
        {
            return Err(format!(
                "game {} is of another match (game, options or seed differ from game {})",
                record.game, first.game
            ));
        }
    }
    // The engines by their match index, from the pairings.
    let mut names: BTreeMap<u32, String> = BTreeMap::new();
    for record in &records {
        let (a, b) = if record.leg == 0 {
            (&record.p1, &record.p2)
        } else {
            (&record.p2, &record.p1)
        };
        for (index, name) in [(record.pairing[0], a), (record.pairing[1], b)] {
            if let Some(known) = names.insert(index, name.clone())
                && known != *name
            {
                return Err(format!(
                    "engine {index} is '{known}' in one game and '{name}' in game {}",
                    record.game
                ));
            }
        }
    }
    let count = names.keys().next_back().map_or(0, |&i| i as usize + 1);
    let engine_names: Vec<String> = (0..count as u32)
        .map(|i| {
            names
                .get(&i)
                .cloned()
                .unwrap_or_else(|| format!("engine{i}"))
        })
        .collect();
    records.sort_by_key(|r| (r.job, r.leg));
    if let Some(twice) = records
        .windows(2)
        .find(|w| (w[0].job, w[0].leg) == (w[1].job, w[1].leg))
    {
        return Err(format!(
            "pair {} leg {} is in the files twice (games {} and {})",
            twice[0].job, twice[0].leg, twice[0].game, twice[1].game
        ));
    }
    let summary = games::visit(
        game,
        Tally {
            records: &records,
            engine_names,
            files,
            sprt,
        },
    )
    .ok_or_else(|| format!("unknown game '{game}'"))??;
    let config = MatchConfig {
        game,
        game_options: first.options.clone(),
        engines: summary
            .engine_names
            .iter()
            .map(|name| EngineSpec {
                name: name.clone(),
                cmd: PathBuf::new(),
                args: Vec::new(),
                options: Vec::new(),
                limits: Limits::default(),
            })
            .collect(),
        openings: match first.seed {
            Some(seed) => OpeningSource::Random { plies: 0, seed },
            None => OpeningSource::StartPos,
        },
        games: 0,
        concurrency: 1,
        timeout: Duration::ZERO,
        grace: Duration::ZERO,
        max_plies: 0,
        sprt,
        out: None,
        progress: false,
        shard: None,
        resume: None,
        pgn: None,
        log_dir: None,
        gauntlet: false,
        adjudicate: false,
    };
    Ok((summary, config))
}

struct Tally<'a> {
    records: &'a [GameRecord],
    engine_names: Vec<String>,
    files: usize,
    sprt: Option<Sprt>,
}

impl GameVisitor for Tally<'_> {
    type Output = Result<MatchSummary, String>;
    fn visit<G: Game>(self) -> Self::Output {
        let options = self
            .records
            .first()
            .map(|r| r.options.clone())
            .unwrap_or_default();
        let config = options::config_from_pairs::<G>(&options)?;
        let pair_scored = matches!(G::SCORING, Scoring::Pairs(_));
        let mut pairings: Vec<PairingStats> = Vec::new();
        let mut move_times = vec![MoveTimes::default(); self.engine_names.len()];
        for record in self.records {
            let [a, b] = record.pairing.map(|i| i as usize);
            let index = match pairings.iter().position(|p| (p.a, p.b) == (a, b)) {
                Some(index) => index,
                None => {
                    pairings.push(PairingStats::new(a, b, pair_scored));
                    pairings.len() - 1
                }
            };
            // The SPRT is taken on the whole below, as the shards did not stop early.
            pairings[index].add_record(record, None)?;
            let replay = replay::replay::<G>(&config, record)?;
            for (mover, ms) in replay.movers.iter().zip(&record.move_ms) {
                let engine = if (*mover == Player::P1) == (record.leg == 0) {
                    a
                } else {
                    b
                };
                move_times[engine].add(*ms);
            }
        }
        pairings.sort_by_key(|p| (p.a, p.b));
        if let Some(sprt) = self.sprt {
            for p in &mut pairings {
                let llr = p.llr(sprt);
                let decision = sprt.decide_llr(llr);
                if decision != Decision::Continue {
                    let n = if pair_scored {
                        p.units.total()
                    } else {
                        p.pairs.total()
                    };
                    p.sprt = Some((decision, llr, n));
                }
            }
        }
        let games = self.records.len() as u32;
        Ok(MatchSummary {
            game: G::NAME,
            engine_names: self.engine_names,
            pairings,
            pair_scored,
            games_played: games,
            games_planned: games,
            seed: self.records.first().and_then(|r| r.seed),
            elapsed: Duration::ZERO,
            move_times,
            interrupted: false,
            merged_files: Some(self.files),
        })
    }
}
