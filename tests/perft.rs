//! Perft as data, and the naive reference rules against the engine, for every game.
//!
//! Every count pinned in `tests/data/perft.txt` is checked through the generic `Game`
//! trait, the game chosen at run time by name: by the engine's bulk perft, and the
//! smaller ones also by `perft_full`, by `divide` and by the naive rules of
//! `tests/common/naive/` (see [`CAPS`]). Then the naive rules and the engine play random
//! games side by side, comparing move sets, outcomes and perft at every position. Both
//! checks are shown to catch a deliberate mismatch.

#[path = "common/naive.rs"]
mod naive;
#[path = "common/perft_data.rs"]
mod perft_data;

use naive::{NaiveRules, NaiveVisitor};
use perft_data::Line;
use tabuleiro::game::{Game, OptionKind};
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::perft::{divide, perft, perft_full};
use tabuleiro::rng::Xorshift;

/// Up to which pinned count each check runs in the normal suite.
#[derive(Clone, Copy, Debug)]
struct Caps {
    /// The engine's bulk perft (the ignored test `deep` runs it on every count).
    engine: u64,
    /// `perft_full`, which plays every leaf, and `divide`.
    full: u64,
    /// The naive rules (tens to hundreds of times slower than the engine).
    naive: u64,
}

/// The caps of each game, set so that the suite costs what the five readers of the
/// old per-game data files did: the engine runs at 10–100 M leaves a second, but
/// Fabrik's and Frozen Forest's deepest counts take minutes.
const CAPS: &[(&str, Caps)] = &[
    (
        "linetris",
        Caps {
            engine: u64::MAX,
            full: 1_000_000,
            naive: u64::MAX,
        },
    ),
    (
        "talpa",
        Caps {
            engine: u64::MAX,
            full: 1_200_000,
            naive: 150_000,
        },
    ),
    (
        "fabrik",
        Caps {
            engine: 20_000_000,
            full: 300_000,
            naive: 150_000,
        },
    ),
    (
        "frozenforest",
        Caps {
            engine: 5_000_000,
            full: 200_000,
            naive: 200_000,
        },
    ),
    (
        "neutreeko",
        Caps {
            engine: u64::MAX,
            full: 500_000,
            naive: 500_000,
        },
    ),
];

fn caps(game: &str) -> Caps {
    match CAPS.iter().find(|(name, _)| *name == game) {
        Some(&(_, caps)) => caps,
        None => panic!("no caps for {game}"),
    }
}

fn compare(line: &Line, what: &str, depth: u32, got: u64, pinned: u64) -> Result<(), String> {
    if got == pinned {
        Ok(())
    } else {
        Err(format!(
            "{}: {what} at depth {depth} counts {got}, the data pins {pinned}",
            line.describe()
        ))
    }
}

/// The engine's counts of one line; the number of counts checked.
struct Engine<'a> {
    line: &'a Line,
    caps: Caps,
}

impl GameVisitor for Engine<'_> {
    type Output = Result<usize, String>;

    fn visit<G: Game>(self) -> Result<usize, String> {
        let line = self.line;
        let state: G = line
            .position()
            .map_err(|e| format!("{}: {e}", line.describe()))?;
        let mut checked = 0;
        for &(depth, pinned) in line.counts.iter().filter(|c| c.1 <= self.caps.engine) {
            compare(line, "perft", depth, perft(&state, depth), pinned)?;
            if pinned <= self.caps.full {
                compare(line, "perft_full", depth, perft_full(&state, depth), pinned)?;
                let split = divide(&state, depth).map(|(_, count)| count).sum();
                compare(line, "the sum of divide", depth, split, pinned)?;
            }
            checked += 1;
        }
        Ok(checked)
    }
}

/// The naive rules' counts of one line; the number of counts checked.
struct Naive<'a> {
    line: &'a Line,
    cap: u64,
}

impl NaiveVisitor for Naive<'_> {
    type Output = Result<usize, String>;

    fn visit<N: NaiveRules>(self) -> Result<usize, String> {
        let line = self.line;
        let config = line
            .config::<N::Game>()
            .map_err(|e| format!("{}: {e}", line.describe()))?;
        let rules = match &line.fen {
            None => N::start(&config),
            Some(fen) => N::from_fen(&config, fen),
        };
        let mut checked = 0;
        for &(depth, pinned) in line.counts.iter().filter(|c| c.1 <= self.cap) {
            let got = naive::perft(&rules, depth);
            compare(line, "the naive perft", depth, got, pinned)?;
            checked += 1;
        }
        Ok(checked)
    }
}

/// Checks one line by the engine and by the naive rules; the counts checked by each.
fn check_line(line: &Line, caps: Caps) -> Result<(usize, usize), String> {
    let engine = games::visit(&line.game, Engine { line, caps })
        .ok_or_else(|| format!("{}: no game {}", line.describe(), line.game))??;
    let naive = naive::visit(
        &line.game,
        Naive {
            line,
            cap: caps.naive,
        },
    )
    .ok_or_else(|| format!("{}: no naive rules for {}", line.describe(), line.game))??;
    Ok((engine, naive))
}

/// Every line of `game` in the data file, with its caps.
fn check_game(game: &str) {
    let lines: Vec<Line> = perft_data::lines()
        .into_iter()
        .filter(|line| line.game == game)
        .collect();
    assert!(!lines.is_empty(), "no perft lines for {game}");
    let (mut engine, mut naive) = (0, 0);
    for line in &lines {
        let (e, n) = check_line(line, caps(game)).unwrap_or_else(|why| panic!("{why}"));
        engine += e;
        naive += n;
    }
    // Every line is checked by the engine at least in part, and the naive rules reach
    // every game.
    assert!(engine >= lines.len(), "{game}: {engine} counts checked");
    assert!(naive > 0, "{game}: no count checked by the naive rules");
}

#[test]
fn linetris_counts() {
    check_game("linetris");
}

#[test]
fn talpa_counts() {
    check_game("talpa");
}

#[test]
fn fabrik_counts() {
    check_game("fabrik");
}

#[test]
fn frozenforest_counts() {
    check_game("frozenforest");
}

#[test]
fn neutreeko_counts() {
    check_game("neutreeko");
}

/// Every count by the engine (about a billion leaves, minutes):
/// `cargo test --release --test perft -- --ignored deep`.
#[test]
#[ignore = "slow: every pinned count (run with --release --ignored)"]
fn deep() {
    for line in perft_data::lines() {
        let caps = Caps {
            engine: u64::MAX,
            ..caps(&line.game)
        };
        let engine = games::visit(&line.game, Engine { line: &line, caps }).unwrap();
        assert_eq!(engine, Ok(line.counts.len()));
    }
}

#[test]
fn the_data_keeps_every_pinned_count_and_a_start_of_every_game() {
    let lines = perft_data::lines();
    // The counts pinned per game: none may get lost.
    for (game, pinned) in [
        ("linetris", 24),
        ("talpa", 61),
        ("fabrik", 37),
        ("frozenforest", 50),
        ("neutreeko", 21),
    ] {
        let found: usize = lines
            .iter()
            .filter(|line| line.game == game)
            .map(|line| line.counts.len())
            .sum();
        assert!(
            found >= pinned,
            "{game}: {found} pinned counts, want {pinned}"
        );
    }
    // Every game has a line at a start position, to three plies or more.
    struct StartFen;
    impl GameVisitor for StartFen {
        type Output = String;
        fn visit<G: Game>(self) -> String {
            G::start(&tabuleiro::game::default_config::<G>()).fen()
        }
    }
    for &game in games::NAMES {
        let start = games::visit(game, StartFen).unwrap();
        let board_and_side = |fen: &str| fen.split_whitespace().take(2).collect::<String>();
        assert!(
            lines.iter().any(|line| line.game == game
                && line.counts.len() >= 3
                && line
                    .fen
                    .as_ref()
                    .is_none_or(|fen| board_and_side(fen) == board_and_side(&start))),
            "{game}: no line at a start position ({start} or `startpos`)"
        );
    }
}

#[test]
fn a_wrong_count_is_caught_by_every_check() {
    let mut line = perft_data::parse("neutreeko ; 5/1bw1b/5/5/b2ww b 17 ; 1:15 2:193 3:2294")
        .unwrap()
        .remove(0);
    let caps = caps("neutreeko");
    assert_eq!(check_line(&line, caps), Ok((3, 3)));
    line.counts[1].1 += 1;
    let engine = check_line(&line, caps).unwrap_err();
    assert!(
        engine.contains("perft at depth 2 counts 193, the data pins 194"),
        "{engine}"
    );
    let naive = check_line(&line, Caps { engine: 0, ..caps }).unwrap_err();
    assert!(naive.contains("the naive perft at depth 2"), "{naive}");
}

#[test]
fn malformed_lines_are_errors() {
    for (text, why) in [
        ("neutreeko ; startpos", "three fields"),
        ("neutreeko ; startpos ; 1:14 ; 2", "three fields"),
        (" ; startpos ; 1:14", "no game"),
        ("neutreeko ; ; 1:14", "no position"),
        ("neutreeko ; startpos ; ", "no counts"),
        ("neutreeko ; startpos ; 1 14", "'1' is not <depth>:<count>"),
        ("neutreeko ; startpos ; 2:207 1:14", "depth 1 out of order"),
        (
            "linetris Rows ; startpos ; 1:7",
            "'Rows' is not <Option>=<value>",
        ),
    ] {
        let error = perft_data::parse(&format!("# a comment\n\n{text}\n")).unwrap_err();
        assert!(error.starts_with("line 3: "), "{text}: {error}");
        assert!(error.contains(why), "{text}: {error}");
    }
    let line = |text: &str| perft_data::parse(text).unwrap().remove(0);
    let unknown = line("linetris Colour=red ; startpos ; 1:7");
    assert!(check_line(&unknown, caps("linetris")).is_err());
    let bad_fen = line("neutreeko ; 5/5 b ; 1:7");
    assert!(check_line(&bad_fen, caps("neutreeko")).is_err());
    let no_game = line("chess ; startpos ; 1:20");
    assert!(check_line(&no_game, caps("neutreeko")).is_err());
}

// ---------------------------------------------------------------------------------------
// The naive rules against the engine on random games.

/// Random option values within each option's bounds (a third of them at the default),
/// redrawn until the game accepts them.
fn random_config<G: Game>(rng: &mut Xorshift) -> G::Config {
    loop {
        let pairs: Vec<(&str, String)> = G::option_specs()
            .iter()
            .filter_map(|spec| {
                let value = match spec.kind {
                    _ if rng.below(3) == 0 => return None,
                    OptionKind::Spin { min, max, .. } => {
                        (min + rng.below((max - min + 1) as u64) as i64).to_string()
                    }
                    OptionKind::Check { .. } => (rng.below(2) == 1).to_string(),
                };
                Some((spec.name, value))
            })
            .collect();
        if let Ok(config) = tabuleiro::options::config_from_pairs::<G>(&pairs) {
            return config;
        }
    }
}

/// Random games of one game: `games` games (each with random options), perft to
/// `depth` at every `every`-th position.
struct RandomGames {
    seed: u64,
    games: usize,
    max_plies: usize,
    perft: (usize, u32),
}

impl NaiveVisitor for RandomGames {
    type Output = naive::Compared;

    fn visit<N: NaiveRules>(self) -> naive::Compared {
        let mut rng = Xorshift::new(self.seed);
        let mut total = naive::Compared::default();
        for _ in 0..self.games {
            let config = random_config::<N::Game>(&mut rng);
            let one = naive::cross_check::<N>(&config, 1, self.max_plies, self.perft, &mut rng)
                .unwrap_or_else(|why| panic!("{config:?}: {why}"));
            total.games += one.games;
            total.positions += one.positions;
            total.endings += one.endings;
            total.perfts += one.perfts;
        }
        total
    }
}

fn random_games(game: &str, games: usize, perft: (usize, u32)) -> naive::Compared {
    let seed = 0x5eed ^ game.len() as u64;
    let visitor = RandomGames {
        seed,
        games,
        max_plies: 300,
        perft,
    };
    let compared = naive::visit(game, visitor).unwrap();
    // Games reach their end, and perft is compared along the way.
    assert!(compared.endings * 2 >= games, "{game}: {compared:?}");
    assert!(
        compared.perfts * perft.0 * 2 >= compared.positions,
        "{game}: {compared:?}"
    );
    compared
}

#[test]
fn naive_linetris_agrees_on_random_games() {
    random_games("linetris", 300, (7, 3));
}

#[test]
fn naive_talpa_agrees_on_random_games() {
    random_games("talpa", 60, (7, 2));
}

#[test]
fn naive_fabrik_agrees_on_random_games() {
    random_games("fabrik", 12, (40, 1));
}

#[test]
fn naive_frozenforest_agrees_on_random_games() {
    random_games("frozenforest", 200, (7, 2));
}

#[test]
fn naive_neutreeko_agrees_on_random_games() {
    random_games("neutreeko", 200, (7, 3));
}

/// Naive rules with one legal move hidden wherever there are two or more.
#[derive(Clone)]
struct HidesAMove<N>(N);

impl<N: NaiveRules> NaiveRules for HidesAMove<N> {
    type Game = N::Game;

    fn start(config: &<N::Game as Game>::Config) -> Self {
        HidesAMove(N::start(config))
    }

    fn from_fen(config: &<N::Game as Game>::Config, fen: &str) -> Self {
        HidesAMove(N::from_fen(config, fen))
    }

    fn move_texts(&self) -> Vec<String> {
        let mut moves = self.0.move_texts();
        if moves.len() >= 2 {
            moves.pop();
        }
        moves
    }

    fn play_text(&mut self, text: &str) {
        self.0.play_text(text);
    }

    fn outcome(&self) -> Option<tabuleiro::game::Outcome> {
        self.0.outcome()
    }
}

#[test]
fn the_cross_check_catches_a_missing_move_in_every_game() {
    struct Broken;
    impl NaiveVisitor for Broken {
        type Output = Result<naive::Compared, String>;
        fn visit<N: NaiveRules>(self) -> Self::Output {
            let config = tabuleiro::game::default_config::<N::Game>();
            let mut rng = Xorshift::new(1);
            naive::cross_check::<N>(&config, 1, 300, (1, 1), &mut rng)?;
            naive::cross_check::<HidesAMove<N>>(&config, 1, 300, (1, 1), &mut rng)
        }
    }
    for &game in games::NAMES {
        let error = naive::visit(game, Broken).unwrap().unwrap_err();
        assert!(error.contains("the engine's moves"), "{game}: {error}");
    }
}
