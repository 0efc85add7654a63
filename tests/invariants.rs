//! One random-play invariant suite for every game, generic over the `Game` trait.
//!
//! Each `invariants!` line instantiates the whole suite for one game and option set:
//! a number of random games from the start position, and at every position:
//! - the FEN round-trips (same text, hash, side, plies and legal moves);
//! - every legal move's text parses back to the same legal move;
//! - the hash equals the hash recomputed from scratch, and equal FENs give equal hashes;
//! - `count_moves` equals the generated list, which has no duplicates; a position has
//!   moves exactly when the rules say the game goes on;
//! - the ply count rises by one per move, and the evaluation stays inside its bounds;
//! - perft with bulk counting equals perft visiting every leaf (at a sample of positions);
//! - no game exceeds the game's known length bound (when it has one);
//! - garbage given to the FEN and move parsers is an error, never a panic.
//!
//! New games join by adding one line at the bottom.

use std::collections::HashMap;

use tabuleiro::game::Record;
use tabuleiro::perft::{perft, perft_full};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Evaluator, Strategy};

/// What one suite run covered.
#[derive(Debug, Default)]
struct Coverage {
    games: usize,
    positions: usize,
    moves_checked: usize,
    perft_samples: usize,
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

fn check_position<G: Strategy>(
    state: &G,
    config: &G::Config,
    rng: &mut Xorshift,
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

    // Hashes.
    assert_eq!(
        state.hash(),
        state.hash_from_scratch(),
        "{name}: incremental hash at {fen}"
    );

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

/// Plays `games` random games of `G` under `options` and checks every position.
fn suite<G: Strategy>(
    options: &[(&str, &str)],
    games: usize,
    max_plies: Option<u32>,
    seed: u64,
) -> Coverage {
    let config = tabuleiro::options::config_from_pairs::<G>(options)
        .unwrap_or_else(|e| panic!("{}: {options:?}: {e}", G::NAME));
    let mut rng = Xorshift::new(seed);
    let mut coverage = Coverage::default();
    // Equal positions (board and side) must have equal hashes, across games.
    let mut hashes: HashMap<String, u64> = HashMap::new();
    let cap = max_plies.unwrap_or(600);
    for _ in 0..games {
        let mut record = Record::new(G::start(&config));
        loop {
            let state = record.state().clone();
            check_position(&state, &config, &mut rng, &mut coverage);
            let fen = state.fen();
            let key = fen
                .rsplit_once(' ')
                .map_or(fen.clone(), |(head, _)| head.to_string());
            let known = *hashes.entry(key).or_insert(state.hash());
            assert_eq!(
                known,
                state.hash(),
                "{}: equal positions, other hashes: {fen}",
                G::NAME
            );
            let moves = record.legal_moves();
            if moves.is_empty() {
                break;
            }
            if let Some(bound) = max_plies {
                assert!(
                    state.plies() < bound,
                    "{}: game longer than {bound} plies",
                    G::NAME
                );
            } else if state.plies() >= cap {
                break;
            }
            let mv = moves[rng.index(moves.len())];
            record.play(mv);
            assert_eq!(
                record.state().plies(),
                state.plies() + 1,
                "{}: plies",
                G::NAME
            );
        }
        coverage.games += 1;
    }
    coverage
}

/// One line per game and option set: `invariants!(test_name, Type, [("Name", "value"),
/// …] (the others at their defaults), games, Some(length bound) or None)`.
macro_rules! invariants {
    ($test:ident, $game:ty, $options:expr, $games:expr, $bound:expr) => {
        #[test]
        fn $test() {
            let coverage = suite::<$game>(&$options, $games, $bound, 0x5eed_0000 ^ line!() as u64);
            eprintln!("{}: {:?}", stringify!($test), coverage);
            assert_eq!(coverage.games, $games);
            assert!(coverage.positions > $games);
        }
    };
}

use tabuleiro::games::neutreeko::Neutreeko;

invariants!(neutreeko_default, Neutreeko, [], 300, None);

use tabuleiro::games::linetris::Linetris;

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

// Every move empties one square: a Talpa game is shorter than Size² plies.
invariants!(talpa_4, Talpa, [("Size", "4")], 300, Some(16));
invariants!(talpa_6, Talpa, [("Size", "6")], 100, Some(36));
invariants!(talpa_8, Talpa, [("Size", "8")], 50, Some(64));
invariants!(talpa_10, Talpa, [("Size", "10")], 20, Some(100));

use tabuleiro::games::frozenforest::FrozenForest;

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
