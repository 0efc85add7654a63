//! `match --adjudicate`: a game whose exact value the referee knows ends with it.
//!
//! The referee asks the game's own oracle ([`Oracle`]) before each move: its tables
//! (the Neutreeko tablebase, the Linetris row-clear tables, the Connect Four solver's
//! probe near the end) and its solver within [`SOLVE_BUDGET`] (the Connect Four
//! solver, the Talpa and Frozen Forest provers). A known value ends the game as a win
//! for the side that wins under best play, or a draw; the game's report says
//! `adjudicated` with the value in its detail. Off by default: engines then play on.
//!
//! One oracle per game and options serves the whole process (tables take time and
//! memory to build), kept in a cache; the position comes as the `position` command
//! text, so the referee needs nothing from the game but its name.

use std::any::Any;
use std::collections::HashMap;
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Mutex, OnceLock, PoisonError};
use std::time::Duration;

use crate::game::{Game, Outcome, Record, Value};
use crate::games::{self, GameVisitor};
use crate::options;
use crate::search::{Oracle, Strategy};

/// Time the solver may spend on one position before the referee gives up on it.
pub const SOLVE_BUDGET: Duration = Duration::from_millis(20);

/// The verdict on a position: how the game ends and why, in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    pub outcome: Outcome,
    /// `p1 wins in 7 plies (exact value)`, `draw (exact value)`.
    pub detail: String,
}

/// The cache of oracles, by game and options.
type Cache = Mutex<HashMap<String, Arc<dyn Any + Send + Sync>>>;

fn cache() -> &'static Cache {
    static CACHE: OnceLock<Cache> = OnceLock::new();
    CACHE.get_or_init(|| Mutex::new(HashMap::new()))
}

/// The verdict on the position of `position` (a `position startpos|fen … [moves …]`
/// command) in game `game` with `game_options`, when the referee knows its value.
/// `None` when it does not, or when the text is no position of the game.
pub fn verdict(game: &str, game_options: &[(String, String)], position: &str) -> Option<Verdict> {
    struct Judge<'a> {
        options: &'a [(String, String)],
        position: &'a str,
    }
    impl GameVisitor for Judge<'_> {
        type Output = Option<Verdict>;
        fn visit<G: Strategy>(self) -> Option<Verdict> {
            let config = options::config_from_pairs::<G>(self.options).ok()?;
            let record = record_of::<G>(&config, self.position)?;
            if record.outcome().is_some() {
                return None;
            }
            let oracle = oracle_of::<G>(&config);
            judge::<G>(&*oracle, &record)
        }
    }
    games::visit(
        game,
        Judge {
            options: game_options,
            position,
        },
    )
    .flatten()
}

/// The shared oracle of `G` under `config`, ready (its tables built).
fn oracle_of<G: Strategy>(config: &G::Config) -> Arc<G::Oracle> {
    let key = format!("{} {config:?}", G::NAME);
    let mut map = cache().lock().unwrap_or_else(PoisonError::into_inner);
    if let Some(oracle) = map
        .get(&key)
        .and_then(|any| Arc::clone(any).downcast::<G::Oracle>().ok())
    {
        return oracle;
    }
    let oracle = Arc::new(<G::Oracle as Oracle<G>>::new(config));
    oracle.wait(&AtomicBool::new(false), None);
    map.insert(key, Arc::clone(&oracle) as Arc<dyn Any + Send + Sync>);
    oracle
}

/// The record a `position …` command describes.
fn record_of<G: Game>(config: &G::Config, position: &str) -> Option<Record<G>> {
    let rest = position.trim().strip_prefix("position")?.trim();
    let (start, moves) = match rest.split_once(" moves") {
        Some((start, moves)) => (start.trim(), moves),
        None => (rest, ""),
    };
    let state = if start == "startpos" {
        G::start(config)
    } else {
        G::from_fen(config, start.strip_prefix("fen")?.trim()).ok()?
    };
    let mut record = Record::new(state);
    for mv in moves.split_whitespace() {
        record.play_text(mv).ok()?;
    }
    Some(record)
}

/// The verdict on the record's position from the oracle's tables, then its solver.
pub fn judge<G: Strategy>(oracle: &G::Oracle, record: &Record<G>) -> Option<Verdict> {
    let state = record.state();
    let value = oracle
        .probe(state)
        .or_else(|| super::suite::solve_within(oracle, state, SOLVE_BUDGET))?;
    let side = state.side_to_move();
    let (outcome, detail) = match value {
        Value::Win(plies) => (
            Outcome::Win(side),
            format!("p{} wins in {plies} plies (exact value)", side.index() + 1),
        ),
        Value::Loss(plies) => (
            Outcome::Win(side.other()),
            format!(
                "p{} wins in {plies} plies (exact value)",
                side.other().index() + 1
            ),
        ),
        Value::Draw(_) => (Outcome::Draw, "draw (exact value)".to_string()),
    };
    Some(Verdict { outcome, detail })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Player;

    #[test]
    // Neutreeko's config is `()`.
    #[allow(clippy::let_unit_value)]
    fn known_values_are_verdicts() {
        // Neutreeko: every position is in the tablebase; the start is a draw.
        let start = verdict("neutreeko", &[], "position startpos").expect("a value");
        assert_eq!(start.outcome, Outcome::Draw);
        assert_eq!(start.detail, "draw (exact value)");
        // After each first move: the tablebase's value, some of them wins.
        let table = crate::games::neutreeko::tablebase::Table::build(1).expect("the table");
        let start = crate::games::neutreeko::Neutreeko::start(&());
        let mut wins = 0;
        for mv in Record::new(start).legal_moves() {
            let text = start.format_move(mv);
            let got = verdict("neutreeko", &[], &format!("position startpos moves {text}"))
                .expect("a value");
            let mut after = start;
            after.play(mv);
            let expected = match table.probe(&after).expect("in the table") {
                Value::Draw(_) => Outcome::Draw,
                Value::Win(_) => Outcome::Win(Player::P2),
                Value::Loss(_) => Outcome::Win(Player::P1),
            };
            assert_eq!(got.outcome, expected, "{text}: {got:?}");
            wins += usize::from(got.outcome != Outcome::Draw);
        }
        assert!(wins > 0);
        // Connect Four with 12 empty cells: the solver knows it at once.
        let c4 = [("RowClear".to_string(), "false".to_string())];
        let config =
            options::config_from_pairs::<crate::games::linetris::Linetris>(&c4).expect("options");
        let mut rng = crate::rng::Xorshift::new(3);
        let mut found = false;
        for _ in 0..50 {
            let mut record = Record::new(crate::games::linetris::Linetris::start(&config));
            let mut texts = Vec::new();
            while texts.len() < 30 && record.outcome().is_none() {
                let moves = record.legal_moves();
                let mv = moves[rng.index(moves.len())];
                texts.push(record.state().format_move(mv));
                record.play(mv);
            }
            if record.outcome().is_none() {
                let position = format!("position startpos moves {}", texts.join(" "));
                assert!(verdict("linetris", &c4, &position).is_some(), "{position}");
                found = true;
                break;
            }
        }
        assert!(found);
        // Fabrik's opening: nothing is known; bad text: no verdict.
        assert_eq!(verdict("fabrik", &[], "position startpos"), None);
        assert_eq!(
            verdict("neutreeko", &[], "position startpos moves zz"),
            None
        );
        assert_eq!(verdict("chess", &[], "position startpos"), None);
    }
}
