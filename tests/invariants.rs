//! One random-play invariant suite for every game, generic over the `Game` trait.
//!
//! Each `invariants!` line instantiates the whole suite for one game and option set
//! (fixed, or `random`: drawn anew for every game): a number of random games from the
//! start position, played alongside the game's naive rules (`tests/common/naive/`),
//! and at every position:
//! - the FEN round-trips (same text, hash, side, plies and legal moves), and reads the
//!   same under the default options; the hash does not change with the ply count;
//! - the naive rules agree: the same move set and outcome, as played alongside and as
//!   read from the FEN, and the same FEN as far as they write one;
//! - every legal move's text parses back to the same legal move;
//! - the hash equals the hash recomputed from scratch; equal positions give equal
//!   hashes and different positions different ones;
//! - `count_moves` equals the generated list, which has no duplicates; a position has
//!   moves exactly when the rules say the game goes on;
//! - the ply count rises by one per move, and the evaluation stays inside its bounds;
//! - perft with bulk counting equals perft visiting every leaf (at a sample of positions);
//! - threefold repetition ends a game exactly on the third occurrence (the random
//!   player now and then returns to an earlier position, so that repetitions occur);
//! - no game exceeds the game's known length bound (when it has one);
//! - garbage given to the FEN and move parsers is an error, never a panic.
//!
//! A game's own checks at a move or at the end of a game ([`Checked`]) and a line's
//! expectations of what was covered (endings, notes) come on top. New games join by
//! implementing [`Checked`] and adding one line at the bottom.

#[path = "common/naive.rs"]
mod naive;
#[path = "common/random_config.rs"]
mod random_config;

use std::collections::{BTreeMap, HashMap};

use naive::NaiveRules;
use random_config::random_config;
use tabuleiro::game::{Game, Outcome, Record, default_config};
use tabuleiro::perft::{perft, perft_full};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Evaluator, Strategy};

/// What the suite knows of a game beyond its traits: its naive rules, and checks and
/// tallies of its own.
trait Checked: Strategy {
    type Naive: NaiveRules<Game = Self>;

    /// After every move `mv` from `before` to `after`.
    fn after_move(_before: &Self, _mv: Self::Move, _after: &Self, _coverage: &mut Coverage) {}

    /// At the end of every game played to its end.
    fn at_end(
        _state: &Self,
        _naive: &Self::Naive,
        _config: &Self::Config,
        _coverage: &mut Coverage,
    ) {
    }
}

/// What one suite run covered.
#[derive(Debug, Default)]
struct Coverage {
    games: usize,
    positions: usize,
    moves_checked: usize,
    perft_samples: usize,
    /// Games ended by a win, by a draw of the rules, by repetition, or cut off.
    wins: usize,
    draws: usize,
    repetitions: usize,
    cut_off: usize,
    /// Positions read again with another ply count (or none), keeping their hash.
    ply_free: usize,
    /// Distinct positions (board and side) seen.
    distinct: usize,
    /// Tallies of what a game's own checks saw ([`Checked`]).
    notes: BTreeMap<&'static str, usize>,
}

impl Coverage {
    fn note(&mut self, what: &'static str) {
        *self.notes.entry(what).or_default() += 1;
    }

    fn noted(&self, what: &str) -> usize {
        self.notes.get(what).copied().unwrap_or(0)
    }
}

/// The hashes of the positions seen under each option set, both ways, to check that
/// equal positions have equal hashes and different ones different hashes. (Under other
/// options, as on another board size, two positions may share a hash.)
#[derive(Default)]
struct Seen {
    /// Option set and position → hash.
    hash_of: HashMap<String, u64>,
    /// Option set and hash → position.
    position_of: HashMap<(String, u64), String>,
}

/// Garbage for the parsers: mutations of real text plus fixed nasties.
fn garbage(rng: &mut Xorshift, real: &str) -> String {
    const NASTY: &[&str] = &[
        "",
        " ",
        "/",
        "//",
        "0",
        "99",
        "a0",
        "z9",
        "a99",
        "k12",
        "\u{0}",
        "é",
        "1/1/1 x",
        "x 0 0 0",
        "-1",
        "18446744073709551616",
        "a1a1a1a1",
        "pass",
        "0000",
    ];
    let mut chars: Vec<char> = real.chars().collect();
    match rng.index(4) {
        0 => NASTY[rng.index(NASTY.len())].to_string(),
        1 if !chars.is_empty() => {
            let at = rng.index(chars.len());
            chars.remove(at);
            chars.into_iter().collect()
        }
        2 => {
            let at = rng.index(chars.len() + 1);
            let pick = b"0123456789abcdefghijklmnopqrstuvwxyz/ MWTmwty-"[rng.index(46)] as char;
            chars.insert(at, pick);
            chars.into_iter().collect()
        }
        _ => {
            let cut = rng.index(chars.len() + 1);
            chars.truncate(cut);
            chars.into_iter().collect()
        }
    }
}

/// The FEN without its ply count (when it ends in the position's ply count), and the
/// ply count's text.
fn without_plies<G: Game>(state: &G, fen: &str) -> Option<String> {
    let (head, last) = fen.rsplit_once(' ')?;
    (last.parse::<u32>().ok()? == state.plies()).then(|| head.to_string())
}

/// Checks one position; `played` is the naive rules' position reached alongside.
fn check_position<G: Checked>(
    state: &G,
    played: &G::Naive,
    config: &G::Config,
    rng: &mut Xorshift,
    seen: &mut Seen,
    coverage: &mut Coverage,
) {
    let name = G::NAME;
    let fen = state.fen();
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);

    // FEN round trip.
    let back = G::from_fen(config, &fen).unwrap_or_else(|e| panic!("{name}: {fen}: {e}"));
    assert_eq!(back.fen(), fen, "{name}: FEN round trip");
    assert_eq!(
        back.hash(),
        state.hash(),
        "{name}: hash after FEN round trip of {fen}"
    );
    assert_eq!(
        back.side_to_move(),
        state.side_to_move(),
        "{name}: side of {fen}"
    );
    assert_eq!(back.plies(), state.plies(), "{name}: plies of {fen}");
    let mut back_moves = Vec::new();
    back.generate_moves(&mut back_moves);
    assert_eq!(
        back_moves, moves,
        "{name}: moves after FEN round trip of {fen}"
    );
    // The FEN carries the board's dimensions: the default options read it the same.
    if let Ok(other) = G::from_fen(&default_config::<G>(), &fen) {
        assert_eq!(other.fen(), fen, "{name}: {fen} under the default options");
    }

    // The naive rules agree.
    naive::compare(config, state, played).unwrap_or_else(|why| panic!("{name}: {why}"));

    // Hashes: incremental equals from scratch; the ply count is not part of them; equal
    // positions, equal hashes; different positions, different hashes.
    assert_eq!(
        state.hash(),
        state.hash_from_scratch(),
        "{name}: incremental hash at {fen}"
    );
    let key = match without_plies(state, &fen) {
        Some(head) => {
            // Another ply count, or none (ply 0).
            for (text, plies) in [
                (format!("{head} {}", state.plies() + 7), state.plies() + 7),
                (head.clone(), 0),
            ] {
                if let Ok(other) = G::from_fen(config, &text) {
                    assert_eq!(other.hash(), state.hash(), "{name}: {text} against {fen}");
                    assert_eq!(other.plies(), plies, "{name}: {text}");
                    coverage.ply_free += 1;
                }
            }
            head
        }
        None => fen.clone(),
    };
    let options = format!("{config:?}");
    let known = *seen
        .hash_of
        .entry(format!("{options} {key}"))
        .or_insert(state.hash());
    assert_eq!(
        known,
        state.hash(),
        "{name}: equal positions, other hashes: {fen}"
    );
    match seen
        .position_of
        .insert((options, state.hash()), key.clone())
    {
        Some(other) => assert_eq!(other, key, "{name}: two positions share a hash"),
        None => coverage.distinct += 1,
    }

    // Moves: counted, unique, present exactly while the game goes on, text round trip.
    assert_eq!(
        state.count_moves(),
        moves.len() as u64,
        "{name}: count_moves at {fen}"
    );
    assert_eq!(
        moves.is_empty(),
        state.outcome().is_some(),
        "{name}: moves exist exactly while the game goes on, at {fen}"
    );
    for (index, &mv) in moves.iter().enumerate() {
        assert!(
            !moves[..index].contains(&mv),
            "{name}: duplicate move at {fen}"
        );
        let text = state.format_move(mv);
        assert_eq!(
            state.parse_move(&text),
            Ok(mv),
            "{name}: move text '{text}' at {fen}"
        );
        assert_eq!(
            state.legal_move(&text),
            Ok(mv),
            "{name}: move text '{text}' at {fen}"
        );
        assert!(
            !text.is_empty() && !text.contains(char::is_whitespace),
            "{name}: move text '{text}' must be one token"
        );
        coverage.moves_checked += 1;
    }

    // Evaluation bounds.
    if state.outcome().is_none() {
        let eval = G::Eval::default().evaluate(state);
        assert!(eval.abs() < 20_000, "{name}: evaluation {eval} at {fen}");
    }

    // Bulk perft equals leaf-visiting perft, on a sample.
    if rng.index(12) == 0 {
        assert_eq!(
            perft(state, 2),
            perft_full(state, 2),
            "{name}: perft 2 at {fen}"
        );
        coverage.perft_samples += 1;
    }

    // Garbage never panics.
    for _ in 0..3 {
        let text = garbage(rng, &fen);
        let _ = G::from_fen(config, &text);
        if let Some(&mv) = moves.first() {
            let text = garbage(rng, &state.format_move(mv));
            let _ = state.parse_move(&text);
            let _ = state.legal_move(&text);
        }
    }
    coverage.positions += 1;
}

/// The option set of a suite.
enum Options<'a> {
    /// These values, in the order of the game's options.
    Fixed(&'a [(&'a str, &'a str)]),
    /// Drawn anew for every game.
    Random,
}

/// Plays `games` random games of `G` under `options` and checks every position.
fn suite<G: Checked>(
    options: Options,
    games: usize,
    max_plies: Option<u32>,
    seed: u64,
) -> Coverage {
    let mut rng = Xorshift::new(seed);
    let mut coverage = Coverage::default();
    let mut seen = Seen::default();
    let cap = max_plies.unwrap_or(600);
    for _ in 0..games {
        let config = match options {
            Options::Fixed(values) => tabuleiro::options::config_from_pairs::<G>(values)
                .unwrap_or_else(|e| panic!("{}: {values:?}: {e}", G::NAME)),
            Options::Random => random_config::<G>(&mut rng),
        };
        let mut record = Record::new(G::start(&config));
        let mut naive = G::Naive::start(&config);
        loop {
            let state = record.state().clone();
            check_position(&state, &naive, &config, &mut rng, &mut seen, &mut coverage);
            if let Some(outcome) = record.outcome() {
                if state.outcome().is_none() {
                    // Only threefold repetition ends a game the rules go on with.
                    assert!(state.repetition_rule(), "{}: {}", G::NAME, state.fen());
                    assert_eq!(outcome, Outcome::Draw, "{}", G::NAME);
                    assert_eq!(record.occurrences(), 3, "{}: {}", G::NAME, state.fen());
                    coverage.repetitions += 1;
                } else if outcome == Outcome::Draw {
                    coverage.draws += 1;
                } else {
                    coverage.wins += 1;
                }
                assert!(record.legal_moves().is_empty());
                G::at_end(&state, &naive, &config, &mut coverage);
                break;
            }
            assert!(record.occurrences() <= 2 || !state.repetition_rule());
            if let Some(bound) = max_plies {
                assert!(
                    state.plies() < bound,
                    "{}: game longer than {bound} plies",
                    G::NAME
                );
            } else if state.plies() >= cap {
                coverage.cut_off += 1;
                break;
            }
            let moves = record.legal_moves();
            let mut mv = moves[rng.index(moves.len())];
            // Now and then back to an earlier position, so that repetitions occur.
            if state.repetition_rule() && rng.index(3) == 0 {
                let back: Vec<G::Move> = moves
                    .iter()
                    .copied()
                    .filter(|&mv| {
                        let mut child = state.clone();
                        child.play(mv);
                        record.history().contains(&child.hash())
                    })
                    .collect();
                if !back.is_empty() {
                    mv = back[rng.index(back.len())];
                }
            }
            let text = state.format_move(mv);
            record.play(mv);
            naive.play_text(&text);
            assert_eq!(
                record.state().plies(),
                state.plies() + 1,
                "{}: plies",
                G::NAME
            );
            G::after_move(&state, mv, record.state(), &mut coverage);
        }
        coverage.games += 1;
    }
    coverage
}

/// A test's seed, from its name (FNV-1a), so that moving a line does not change it.
fn seed_of(name: &str) -> u64 {
    name.bytes().fold(0xcbf2_9ce4_8422_2325, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// One line per game and option set: `invariants!(test_name, Type, [("Name", "value"), …],
/// games, Some(length bound) or None)`, or `invariants!(test_name, Type, random, games)`
/// for random option sets; then, optionally, what the games must have covered (a
/// function of the [`Coverage`]).
macro_rules! invariants {
    (@run $test:ident, $game:ty, $options:expr, $games:expr, $bound:expr $(, $expect:expr)?) => {
        #[test]
        fn $test() {
            let seed = seed_of(stringify!($test));
            let coverage = suite::<$game>($options, $games, $bound, seed);
            eprintln!("{}: {:?}", stringify!($test), coverage);
            assert_eq!(coverage.games, $games);
            assert!(coverage.positions > $games);
            $( ($expect)(&coverage); )?
        }
    };
    ($test:ident, $game:ty, random, $games:expr $(, $expect:expr)?) => {
        invariants!(@run $test, $game, Options::Random, $games, None $(, $expect)?);
    };
    ($test:ident, $game:ty, $values:expr, $games:expr, $bound:expr $(, $expect:expr)?) => {
        invariants!(@run $test, $game, Options::Fixed(&$values), $games, $bound $(, $expect)?);
    };
}

use tabuleiro::games::neutreeko::Neutreeko;

impl Checked for Neutreeko {
    type Naive = naive::neutreeko::Naive;
}

// Wins, and draws by repetition (the random player seeks them now and then).
invariants!(
    neutreeko_default,
    Neutreeko,
    [],
    1000,
    None,
    |c: &Coverage| {
        assert!(c.wins > 300 && c.repetitions > 50, "{c:?}");
        assert!(c.distinct > 10_000, "{c:?}");
    }
);

/// Positions no game from the start may reach quickly: any 3 + 3 placement, either side
/// to move, any ply count; each through every check of a position.
#[test]
fn neutreeko_random_placements() {
    let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let (mut seen, mut coverage) = (Seen::default(), Coverage::default());
    for _ in 0..3_000 {
        let mut cells = ['.'; 25];
        let mut placed = 0;
        while placed < 6 {
            let square = rng.index(25);
            if cells[square] == '.' {
                cells[square] = if placed < 3 { 'b' } else { 'w' };
                placed += 1;
            }
        }
        let mut board = [['.'; 5]; 5];
        for (square, &c) in cells.iter().enumerate() {
            board[square / 5][square % 5] = c;
        }
        let side = if rng.index(2) == 0 { 'b' } else { 'w' };
        let naive = naive::neutreeko::Naive { board, side };
        let fen = format!("{} {}", naive.fen(), rng.index(100));
        let state = Neutreeko::from_fen(&(), &fen).unwrap_or_else(|e| panic!("{fen}: {e}"));
        check_position(&state, &naive, &(), &mut rng, &mut seen, &mut coverage);
    }
    assert_eq!(coverage.positions, 3_000);
}

use tabuleiro::games::linetris::Linetris;

impl Checked for Linetris {
    type Naive = naive::linetris::Naive;

    fn after_move(before: &Self, _mv: Self::Move, after: &Self, coverage: &mut Coverage) {
        if after.occupied().count_ones() < before.occupied().count_ones() {
            coverage.note("row clear");
        }
    }
}

// The defaults: Rows 6, Cols 7, RowClear true, MaxPlies 0 (4·Rows·Cols).
invariants!(linetris_default, Linetris, [], 150, Some(4 * 6 * 7 + 1));
invariants!(
    linetris_connect_four,
    Linetris,
    [("RowClear", "false")],
    200,
    Some(6 * 7 + 1)
);
invariants!(
    linetris_small_clears,
    Linetris,
    [("Rows", "4"), ("Cols", "4")],
    200,
    Some(4 * 4 * 4 + 1)
);
invariants!(
    linetris_wide_short_limit,
    Linetris,
    [("Rows", "10"), ("Cols", "10"), ("MaxPlies", "50")],
    40,
    Some(51)
);
use tabuleiro::games::talpa::Talpa;

impl Checked for Talpa {
    type Naive = naive::talpa::Naive;

    fn at_end(state: &Self, naive: &Self::Naive, config: &Self::Config, _: &mut Coverage) {
        let fen = state.fen();
        // Every game ends by a path, never by a side without moves.
        assert!(
            naive.has_path(true) || naive.has_path(false),
            "{fen}: ended without a path"
        );
        if let Some(Outcome::Win(winner)) = state.outcome() {
            let mover = state.side_to_move();
            assert!(state.pieces(mover) != 0 || winner != mover, "{fen}");
        }
        // Games run into the removal phase and beyond: at least Size plies each.
        assert!(state.plies() as usize >= config.size, "{fen}");
    }
}

// Every move empties one square: a Talpa game is shorter than Size² plies.
invariants!(talpa_4, Talpa, [("Size", "4")], 300, Some(16));
invariants!(talpa_6, Talpa, [("Size", "6")], 100, Some(36));
invariants!(talpa_8, Talpa, [("Size", "8")], 50, Some(64));
invariants!(talpa_10, Talpa, [("Size", "10")], 20, Some(100));

use tabuleiro::games::frozenforest::FrozenForest;

impl Checked for FrozenForest {
    type Naive = naive::frozenforest::Naive;
}

// Trees. Yuki eats a tree a turn and Mina always has a cell to stop on or loses:
// a game is shorter than twice the trees plus the two placements.
invariants!(
    frozenforest_10,
    FrozenForest,
    [("Trees", "10")],
    60,
    Some(2 * 100 + 3)
);
invariants!(
    frozenforest_7,
    FrozenForest,
    [("Trees", "7")],
    100,
    Some(2 * 49 + 3)
);
invariants!(
    frozenforest_4,
    FrozenForest,
    [("Trees", "4")],
    200,
    Some(2 * 16 + 3)
);

use tabuleiro::games::fabrik::Fabrik;

impl Checked for Fabrik {
    type Naive = naive::fabrik::Naive;

    fn after_move(before: &Self, mv: Self::Move, _after: &Self, coverage: &mut Coverage) {
        if before.format_move(mv).len() > 4 {
            coverage.note("relocation");
        }
    }

    fn at_end(_state: &Self, naive: &Self::Naive, _config: &Self::Config, coverage: &mut Coverage) {
        if naive.winner.is_none() {
            // Over without a line: the side to move could not place.
            coverage.note("no placement");
        }
    }
}

// Fabrik: at most Size² + 1 plies (two workers, a pass, a stone on every other square).
// Hundreds of moves per position make the per-move checks slow: few games.
invariants!(
    fabrik_7_line_4,
    Fabrik,
    [("Size", "7"), ("LineLength", "4")],
    30,
    Some(51)
);
invariants!(fabrik_9_line_5, Fabrik, [("Size", "9")], 8, Some(83));
invariants!(fabrik_default, Fabrik, [], 4, Some(123));

// Random option sets: every size, clear rule, ply limit and tree count.
invariants!(
    linetris_random_options,
    Linetris,
    random,
    600,
    |c: &Coverage| {
        assert!(c.wins > 100 && c.draws > 10, "{c:?}");
        assert!(c.noted("row clear") > 100 && c.repetitions > 0, "{c:?}");
    }
);
invariants!(
    frozenforest_random_options,
    FrozenForest,
    random,
    200,
    |c: &Coverage| assert!(c.distinct > 2000, "{c:?}")
);
invariants!(talpa_random_options, Talpa, random, 60);
invariants!(fabrik_random_options, Fabrik, random, 12, |c: &Coverage| {
    // Relocations played, and games lost by a side that could not place.
    assert!(
        c.noted("relocation") > 300 && c.noted("no placement") > 0,
        "{c:?}"
    );
});
