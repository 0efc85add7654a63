//! A finished game replayed from its [`GameRecord`] with our rules: who made each move
//! (for the time-per-move tallies of records read back, and for PGN) and the game as
//! a [`PgnGame`] for `--pgn`.

use super::config::EngineSpec;
use super::openings;
use super::pgn::{self, PgnGame, PgnMove};
use super::record::GameRecord;
use super::referee::Reason;
use crate::game::{Game, Player, Record};

/// A record's game, move by move.
pub struct Replay {
    /// The FEN the game started from, when not the start position.
    pub fen: Option<String>,
    /// Every move from the start (the opening's, then the engines'), with who made it;
    /// a last move the rules rejected is left out.
    pub moves: Vec<(Player, String)>,
    /// How many of `moves` are the opening's.
    pub opening_plies: usize,
    /// Who answered each `go` of `move_ms`, in order.
    pub movers: Vec<Player>,
}

/// Replays `record` under `config` (the game's config from the record's options).
pub fn replay<G: Game>(config: &G::Config, record: &GameRecord) -> Result<Replay, String> {
    let opening = openings::parse_line::<G>(config, &record.opening)
        .map_err(|e| format!("game {}: opening '{}': {e}", record.game, record.opening))?
        .unwrap_or_else(openings::Opening::startpos);
    let mut game: Record<G> = opening.record::<G>(config)?;
    let start = match &opening.fen {
        Some(fen) => G::from_fen(config, fen).map_err(|e| e.to_string())?,
        None => G::start(config),
    };
    let mut moves = Vec::new();
    let mut walk = Record::new(start);
    for text in &opening.moves {
        let side = walk.state().side_to_move();
        walk.play_text(text).map_err(|e| e.to_string())?;
        moves.push((side, text.clone()));
    }
    let opening_plies = moves.len();
    let mut movers = Vec::new();
    for text in &record.moves {
        let side = game.state().side_to_move();
        movers.push(side);
        if game.play_text(text).is_err() {
            // The illegal or unreadable move that lost the game: it ends the record.
            break;
        }
        moves.push((side, text.clone()));
    }
    // One answer more than the moves: a late or malformed one, by the side to move.
    while movers.len() < record.move_ms.len() {
        movers.push(game.state().side_to_move());
    }
    Ok(Replay {
        fen: opening.fen,
        moves,
        opening_plies,
        movers,
    })
}

/// What every PGN record of a match shares.
pub struct PgnContext<'a> {
    pub site: String,
    pub date: String,
    pub engines: &'a [EngineSpec],
}

impl PgnContext<'_> {
    pub fn new(engines: &[EngineSpec]) -> PgnContext<'_> {
        PgnContext {
            site: site(),
            date: pgn::today(),
            engines,
        }
    }
}

/// The PGN `Termination` of a referee's reason.
fn termination(reason: Reason) -> &'static str {
    match reason {
        Reason::Rules => "normal",
        Reason::MaxPlies | Reason::Adjudicated => "adjudication",
        Reason::Time | Reason::Timeout => "time forfeit",
        Reason::Illegal | Reason::Garbage | Reason::Malformed => "rules infraction",
        Reason::Crash => "abandoned",
    }
}

/// A PGN `TimeControl`: `BASE+INC` in seconds, `1/S` for a fixed time per move, `-`
/// for none (depth or nodes only).
fn time_control(spec: &EngineSpec) -> String {
    let seconds = |ms: u64| format!("{}", ms as f64 / 1000.0);
    if let Some(tc) = spec.limits.tc {
        format!("{}+{}", seconds(tc.base_ms), seconds(tc.inc_ms))
    } else if let Some(ms) = spec.limits.movetime {
        format!("1/{}", seconds(ms))
    } else {
        "-".to_string()
    }
}

/// The game of `record` as PGN: the tags (Event, Site, Date, Round, P1, P2, White,
/// Black, Result, Game, each game option (given or default), FEN and SetUp when the start is not the
/// start position, TimeControl, Termination, and the referee's Reason and Detail)
/// and every move from the start with who made it.
pub fn pgn_game<G: Game>(
    config: &G::Config,
    record: &GameRecord,
    context: &PgnContext<'_>,
) -> Result<PgnGame, String> {
    let replay = replay::<G>(config, record)?;
    let result = match record.result.as_str() {
        "p1win" => "1-0",
        "p2win" => "0-1",
        _ => "1/2-1/2",
    };
    let mut pgn = PgnGame::default();
    pgn.set_tag("Event", "tabuleiro match");
    pgn.set_tag("Site", context.site.clone());
    pgn.set_tag("Date", context.date.clone());
    pgn.set_tag("Round", format!("{}.{}", record.job + 1, record.leg + 1));
    pgn.set_tag("P1", record.p1.clone());
    pgn.set_tag("P2", record.p2.clone());
    pgn.set_tag("White", record.p1.clone());
    pgn.set_tag("Black", record.p2.clone());
    pgn.set_tag("Result", result);
    pgn.set_tag("Game", record.name.clone());
    // Every option of the game, given or default, by its own name.
    let params = crate::options::params_from_pairs::<G>(&record.options)?;
    for (spec, value) in params.iter() {
        pgn.set_tag(spec.name, value.to_string());
    }
    if let Some(fen) = &replay.fen {
        pgn.set_tag("FEN", fen.clone());
        pgn.set_tag("SetUp", "1");
    }
    let spec_of = |name: &str| context.engines.iter().find(|s| s.name == name);
    let controls: Vec<String> = [&record.p1, &record.p2]
        .iter()
        .map(|name| spec_of(name).map_or("?".to_string(), time_control))
        .collect();
    if controls[0] == controls[1] {
        pgn.set_tag("TimeControl", controls[0].clone());
    } else {
        pgn.set_tag("WhiteTimeControl", controls[0].clone());
        pgn.set_tag("BlackTimeControl", controls[1].clone());
    }
    let reason = record.reason()?;
    pgn.set_tag("Termination", termination(reason));
    pgn.set_tag("Reason", reason.as_str());
    if !record.detail.is_empty() {
        pgn.set_tag("Detail", record.detail.clone());
    }
    // The opening's moves marked `{book}`, so that the record read back by
    // `--openings` starts where this game started.
    let opening_plies = replay.opening_plies;
    pgn.moves = replay
        .moves
        .into_iter()
        .enumerate()
        .map(|(ply, (player, text))| PgnMove {
            comment: (ply < opening_plies).then(|| pgn::BOOK.to_string()),
            ..PgnMove::new(player.index() as u8, text)
        })
        .collect();
    pgn.result = result.to_string();
    Ok(pgn)
}

/// This machine's name for the `Site` tag, or `?`.
fn site() -> String {
    std::env::var("HOSTNAME")
        .ok()
        .or_else(|| std::fs::read_to_string("/etc/hostname").ok())
        .map(|name| name.trim().to_string())
        .filter(|name| !name.is_empty())
        .unwrap_or_else(|| "?".to_string())
}

#[cfg(test)]
// Neutreeko's config is `()`; the tests keep the shape every game needs.
#[allow(clippy::let_unit_value)]
mod tests {
    use super::*;
    use crate::game::default_config;
    use crate::games::neutreeko::Neutreeko;

    #[test]
    fn options_are_tags_by_their_ugi_names_and_a_fen_start_is_set_up() {
        use crate::games::linetris::Linetris;
        let options = vec![("rows".to_string(), "5".to_string())];
        let config = crate::options::config_from_pairs::<Linetris>(&options).unwrap();
        let start = Linetris::start(&config).fen();
        let record = GameRecord {
            game: 1,
            name: "linetris".into(),
            pair: 0,
            leg: 0,
            p1: "a".into(),
            p2: "b".into(),
            opening: format!("fen {start}"),
            moves: vec![],
            result: "draw".into(),
            winner: None,
            reason: "max plies".into(),
            detail: "0 plies played".into(),
            final_fen: start.clone(),
            tiebreak: None,
            ms: 0,
            move_ms: vec![],
            pair_winner: None,
            pair_reason: None,
            pairing: [0, 1],
            job: 0,
            opening_index: 0,
            seed: None,
            options,
        };
        let context = PgnContext {
            site: "?".into(),
            date: "?".into(),
            engines: &[],
        };
        let pgn = pgn_game::<Linetris>(&config, &record, &context).unwrap();
        assert_eq!(pgn.tag("Rows"), Some("5"));
        // The options not given are tagged with their defaults.
        let columns = Linetris::option_specs()
            .iter()
            .find(|spec| spec.name == "Cols")
            .map(|spec| spec.kind.default().to_string());
        assert!(columns.is_some());
        assert_eq!(pgn.tag("Cols").map(str::to_string), columns);
        assert_eq!(pgn.tag("FEN"), Some(start.as_str()));
        assert_eq!(pgn.tag("SetUp"), Some("1"));
        assert_eq!(pgn.tag("Termination"), Some("adjudication"));
        assert_eq!(pgn.result, "1/2-1/2");
    }

    #[test]
    fn time_controls_in_seconds() {
        let me = std::path::Path::new("/bin/me");
        let spec = |text: &str| EngineSpec::parse(text, me).unwrap();
        assert_eq!(time_control(&spec("self tc=1m+0.5s")), "60+0.5");
        assert_eq!(time_control(&spec("self movetime=50")), "1/0.05");
        assert_eq!(time_control(&spec("self depth=3")), "-");
    }

    #[test]
    fn a_record_replays_with_its_movers() {
        let config = default_config::<Neutreeko>();
        let record = GameRecord {
            game: 1,
            name: "neutreeko".into(),
            pair: 0,
            leg: 1,
            p1: "a".into(),
            p2: "b".into(),
            opening: "startpos moves d1c1".into(),
            moves: vec!["d5c5".into(), "a1a1".into()],
            result: "p2win".into(),
            winner: Some("b".into()),
            reason: "illegal".into(),
            detail: "a: bad".into(),
            final_fen: String::new(),
            tiebreak: None,
            ms: 1,
            move_ms: vec![1, 2],
            pair_winner: None,
            pair_reason: None,
            pairing: [0, 1],
            job: 4,
            opening_index: 0,
            seed: Some(1),
            options: vec![],
        };
        let replay = replay::<Neutreeko>(&config, &record).unwrap();
        assert_eq!(replay.movers, vec![Player::P2, Player::P1]);
        assert_eq!(replay.moves.len(), 2, "the illegal move is left out");
        let context = PgnContext {
            site: "here".into(),
            date: "2026.01.02".into(),
            engines: &[],
        };
        let pgn = pgn_game::<Neutreeko>(&config, &record, &context).unwrap();
        assert_eq!(pgn.tag("Round"), Some("5.2"));
        assert_eq!(pgn.tag("White"), Some("a"));
        assert_eq!(pgn.tag("Termination"), Some("rules infraction"));
        assert_eq!(pgn.tag("FEN"), None);
        assert_eq!(pgn.result, "0-1");
        assert_eq!(
            pgn.moves,
            vec![
                PgnMove {
                    comment: Some(pgn::BOOK.to_string()),
                    ..PgnMove::new(0, "d1c1")
                },
                PgnMove::new(1, "d5c5")
            ]
        );
    }
}
