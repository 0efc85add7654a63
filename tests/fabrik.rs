//! Fabrik: the rules cases of SPEC §2, notation, and the threat and forcing helpers on
//! random positions. Random games against the naive rules of
//! `tests/common/naive/fabrik.rs`, with round trips, are in the shared suite
//! (`tests/invariants.rs`).

#[path = "common/naive.rs"]
mod naive;

use naive::{engine_move_texts, engine_play, fabrik::Naive};
use tabuleiro::game::{Game, MoveError, Outcome, Params, Player, default_config};
use tabuleiro::games::fabrik::{Config, Fabrik, Move, MoveKind, Phase};
use tabuleiro::options::config_from_pairs;
use tabuleiro::perft::perft;
use tabuleiro::rng::Xorshift;

fn config(size: u8, line_length: u8) -> Config {
    options(size, line_length).unwrap()
}

fn options(size: u8, line_length: u8) -> Result<Config, String> {
    config_from_pairs::<Fabrik>(&[
        ("Size", size.to_string()),
        ("LineLength", line_length.to_string()),
    ])
}

fn start() -> Fabrik {
    Fabrik::start(&default_config::<Fabrik>())
}

fn fen(text: &str) -> Fabrik {
    Fabrik::from_fen(&default_config::<Fabrik>(), text).unwrap()
}

fn is_legal(state: &Fabrik, text: &str) -> bool {
    state.legal_move(text).is_ok()
}

// ---------------------------------------------------------------------------------
// Rules cases.

#[test]
fn setup_plies_and_the_pass_rule() {
    let mut state = start();
    assert_eq!(state.phase(), Phase::Workers);
    assert!(!is_legal(&state, "pass"), "pass at ply 1");
    engine_play(&mut state, "d4");
    assert_eq!(state.side_to_move(), Player::P2);
    assert!(!is_legal(&state, "pass"), "pass at ply 2");
    assert!(!is_legal(&state, "d4"), "a worker on a worker");
    engine_play(&mut state, "f6");
    assert_eq!(state.phase(), Phase::Choose);
    assert_eq!(state.side_to_move(), Player::P1);
    assert!(is_legal(&state, "pass"));
    // No relocation before the first stone.
    assert!(!is_legal(&state, "d4d5e5"));
    let before = state;
    engine_play(&mut state, "pass");
    assert_eq!(state.fen(), "11/11/11/11/11/5w5/11/3w7/11/11/11 o 3");
    assert_eq!(
        state.side_to_move(),
        Player::P2,
        "white places after a pass"
    );
    assert_eq!(state.phase(), Phase::FirstStone);
    assert!(!is_legal(&state, "pass"), "white cannot pass back");
    assert!(
        !is_legal(&state, "d4d5e5"),
        "the first stone comes without relocation"
    );
    // White places on e5, seen by both (diagonal between d4 and f6).
    assert_eq!(
        engine_move_texts(&state).len(),
        before.count_moves() as usize - 1
    );
    engine_play(&mut state, "e5");
    assert_eq!(state.side_to_move(), Player::P1);
    assert_eq!(state.phase(), Phase::Play);
    assert!(!is_legal(&state, "pass"), "pass later");
    // Black starting instead: after its stone white moves, then black again.
    let mut other = before;
    engine_play(&mut other, "e5");
    assert_eq!(other.side_to_move(), Player::P2);
    assert!(
        !is_legal(&other, "pass"),
        "white at ply 4 after black started"
    );
    engine_play(&mut other, "d6");
    assert_eq!(other.side_to_move(), Player::P1);
    // Passing is also in the FEN: two workers, no stone, white to move.
    let passed = fen("11/11/11/11/11/5w5/11/3w7/11/11/11 o 3");
    assert_eq!(passed.phase(), Phase::FirstStone);
    assert_eq!(passed.count_moves(), before.count_moves() - 1);
}

#[test]
fn relocation_must_go_to_an_empty_square_and_be_followed_by_a_placement() {
    // Workers d4 and f6, black stone e5, white stone d5; black to move.
    let state = fen("11/11/11/11/11/5w5/3ox6/3w7/11/11/11 x 4");
    assert_eq!(state.phase(), Phase::Play);
    // Onto a stone, onto the other worker, onto its own square, from a square
    // without a worker: illegal.
    assert!(!is_legal(&state, "d4e5c3"));
    assert!(!is_legal(&state, "d4f6c3"));
    assert!(!is_legal(&state, "d4d4c4"));
    assert!(!is_legal(&state, "c3c2c4"));
    // A relocation without a placement is not a move of the notation at all.
    assert!(matches!(
        state.legal_move("d4a1"),
        Err(MoveError::Syntax(_))
    ));
    // e7 is not seen from d4, so it needs a relocation: d4 → d8 sees e7, f6 sees e7.
    assert!(!is_legal(&state, "e7"));
    assert!(is_legal(&state, "d4d8e7"));
    // A relocation whose placement is not seen by both workers: f6 still does not see
    // k11 after d4 → a1.
    assert!(!is_legal(&state, "d4a1k11"));
    // The vacated square is placeable only if both see it: d4 → c4, place on d4 is
    // illegal because f6's view of d4 is blocked by the stone on e5.
    assert!(!is_legal(&state, "d4c4d4"));

    // Workers a1 and a3 on an open a-file: a3 → b3 then place on the vacated a3.
    let open = fen("11/11/11/11/11/11/11/11/w9x/11/w9o x 2");
    assert!(is_legal(&open, "a2"), "between the workers");
    assert!(is_legal(&open, "a3b3a3"));
    assert!(is_legal(&open, "a3c5a3"), "c5 sees a3 through b4");
    assert!(is_legal(&open, "a3a5a3"));
    // After a3 → a2, the worker on a2 blocks a1's view of a3.
    assert!(!is_legal(&open, "a3a2a3"));
    // Every move places a stone.
    let mut moves = Vec::new();
    open.generate_moves(&mut moves);
    assert!(
        moves
            .iter()
            .all(|mv| matches!(mv.kind(), MoveKind::Place | MoveKind::Relocate))
    );
}

#[test]
fn sight_is_blocked_by_stones_and_by_the_other_worker() {
    // Workers a1 and a5 at ply 3: the squares between them count, plus crossings.
    let aligned = fen("11/11/11/11/11/11/w10/11/11/11/w10 x 2");
    let mut expected: Vec<String> = ["a2", "a3", "a4", "c3", "e1", "e5", "pass"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    expected.sort();
    assert_eq!(engine_move_texts(&aligned), expected);
    // A stone on a3 hides a2 from a5 and a4 from a1.
    let blocked = fen("10o/11/11/11/11/11/w10/11/x10/11/w10 x 2");
    let placements: Vec<String> = engine_move_texts(&blocked)
        .into_iter()
        .filter(|m| m.len() <= 3)
        .collect();
    assert_eq!(placements, vec!["c3", "e1", "e5"]);
    // ...but a relocation can restore a view: a5 → b3 sees a2 (adjacent).
    assert!(is_legal(&blocked, "a5b3a2"));
    // The other worker blocks too: workers a1 and a3, the a-file above a3 is not seen
    // from a1, so a4 and a5 are not placeable; a2 is.
    let stacked = fen("11/11/11/11/11/11/11/11/w10/11/w10 x 2");
    assert!(is_legal(&stacked, "a2"));
    assert!(!is_legal(&stacked, "a4"));
    assert!(!is_legal(&stacked, "a5"));
}

#[test]
fn a_line_of_line_length_wins() {
    // Black c5 d5 e5 f5, workers g1 and g9 both see g5.
    let mut state = fen("o1o1o1o4/11/6w4/11/11/11/2xxxx5/11/11/11/6w4 x 8");
    assert_eq!(state.outcome(), None);
    engine_play(&mut state, "g5");
    assert_eq!(state.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(state.count_moves(), 0);
    assert!(engine_move_texts(&state).is_empty());
    assert!(matches!(
        state.legal_move("a2"),
        Err(MoveError::GameOver(_))
    ));
    // Longer than the line length also wins (c5..f5 and h5, g5 joins them: six).
    let mut long = fen("o1o1o1o1o2/11/6w4/11/11/11/2xxxx1x3/11/11/11/6w4 x 10");
    engine_play(&mut long, "g5");
    assert_eq!(long.outcome(), Some(Outcome::Win(Player::P1)));
    // LineLength 4: three plus one.
    let four = config(11, 4);
    let mut short =
        Fabrik::from_fen(&four, "o1o1o6/11/6w4/11/11/11/3xxx5/11/11/11/6w4 x 6").unwrap();
    assert_eq!(short.outcome(), None);
    engine_play(&mut short, "g5");
    assert_eq!(short.outcome(), Some(Outcome::Win(Player::P1)));
    // A FEN with a line already made is over, won by the side that made it.
    let over = fen("o1o1o1o1o2/11/6w4/11/11/11/2xxxxx4/11/11/11/6w4 o 11");
    assert_eq!(over.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(over.count_moves(), 0);
    // White wins the same way.
    let mut white = fen("x1x1x1x1x2/11/6w4/11/11/11/2oooo5/11/11/11/6w4 o 10");
    engine_play(&mut white, "g5");
    assert_eq!(white.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn a_worker_breaks_a_line() {
    // a5 b5 (worker c5) d5 e5: no line, the game goes on.
    let state = fen("11/11/11/11/11/11/xxwxx6/11/11/11/2w4oooo x 8");
    assert_eq!(state.outcome(), None);
    assert!(state.count_moves() > 0);
    // Moving that worker away and filling its square makes the line: c5 → c7 sees c5,
    // and c1 sees c5 up the c-file.
    let mut filled = state;
    engine_play(&mut filled, "c5c7c5");
    assert_eq!(filled.outcome(), Some(Outcome::Win(Player::P1)));
    // With the worker left in place, no other placement makes a line (only c5 joins
    // a5 b5 and d5 e5).
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let mut others = 0;
    for mv in moves {
        if mv.square() != filled_square(&state) {
            let mut after = state;
            after.play(mv);
            assert_eq!(after.outcome(), None, "{}", state.format_move(mv));
            others += 1;
        }
    }
    assert!(others > 100);
}

/// The square index of c5 (`rank * 11 + file`).
fn filled_square(_: &Fabrik) -> usize {
    4 * 11 + 2
}

#[test]
fn a_side_that_cannot_place_loses() {
    // 7x7, one empty square d4 that no worker can see, even after moving one there.
    let stuck = Fabrik::from_fen(
        &config(7, 5),
        "xxooxxw/ooxxoox/xxooxxo/oox1oox/xxooxxo/ooxxoox/wxooxxo x 46",
    )
    .unwrap();
    assert_eq!(stuck.phase(), Phase::Play);
    assert_eq!(stuck.count_moves(), 0);
    assert!(engine_move_texts(&stuck).is_empty());
    assert_eq!(stuck.outcome(), Some(Outcome::Win(Player::P2)));
    // The same board with white to move: white loses.
    let stuck_white = Fabrik::from_fen(
        &config(7, 5),
        "xxooxxw/ooxxoox/xxooxxo/oox1oox/xxooxxo/ooxxoox/wxooxxo o 46",
    )
    .unwrap();
    assert_eq!(stuck_white.outcome(), Some(Outcome::Win(Player::P1)));
    // A full board: the side to move loses.
    let full = Fabrik::from_fen(
        &config(7, 5),
        "xxooxxw/ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/wxooxxo o 47",
    )
    .unwrap();
    assert_eq!(full.outcome(), Some(Outcome::Win(Player::P1)));
    // With e5 and f6 empty there are moves again, e.g. a1 → d4 then a stone on e5
    // (seen from d4 and, through f6, from g7).
    let open = Fabrik::from_fen(
        &config(7, 5),
        "xxooxxw/ooxxo1x/xxoo1xo/oox1oox/xxooxxo/ooxxoox/wxooxxo x 43",
    )
    .unwrap();
    assert_eq!(open.outcome(), None);
    assert!(is_legal(&open, "a1d4e5"));
    // None of these boards holds a line: the losses above are the no-placement rule.
    for board in [
        "xxooxxw/ooxxoox/xxooxxo/oox1oox/xxooxxo/ooxxoox/wxooxxo x",
        "xxooxxw/ooxxoox/xxooxxo/ooxxoox/xxooxxo/ooxxoox/wxooxxo o",
    ] {
        assert!(!Naive::from_fen(board, 5).has_line(), "{board}");
    }
}

// ---------------------------------------------------------------------------------
// Notation, FEN and hashing.

#[test]
fn side_letters_and_phase_come_from_the_fen() {
    let cases = [
        (
            "11/11/11/11/11/11/11/11/11/11/11 x",
            Phase::Workers,
            Player::P1,
        ),
        (
            "11/11/11/11/11/11/11/11/11/11/w10 o",
            Phase::Workers,
            Player::P2,
        ),
        (
            "11/11/11/11/11/11/11/11/11/11/w9w x",
            Phase::Choose,
            Player::P1,
        ),
        (
            "11/11/11/11/11/11/11/11/11/11/w9w o",
            Phase::FirstStone,
            Player::P2,
        ),
        (
            "11/11/11/11/11/11/11/11/11/5x5/w9w o",
            Phase::Play,
            Player::P2,
        ),
        (
            "11/11/11/11/11/11/11/11/11/5o5/w9w x",
            Phase::Play,
            Player::P1,
        ),
    ];
    for (text, phase, side) in cases {
        let state = fen(text);
        assert_eq!(state.phase(), phase, "{text}");
        assert_eq!(state.side_to_move(), side, "{text}");
        assert_eq!(state.plies(), 0);
        assert_eq!(state.fen(), format!("{text} 0"));
    }
    assert_eq!(fen("7/7/7/7/7/7/7 x 12").plies(), 12);
    assert_eq!(fen("7/7/7/7/7/7/7 x").size(), 7, "the FEN chooses the size");
}

#[test]
fn bad_fens_are_errors() {
    for bad in [
        "",
        "   ",
        "11/11/11/11/11/11/11/11/11/11/11",
        "11/11/11/11/11/11/11/11/11/11/11 w",
        "11/11/11/11/11/11/11/11/11/11/11 x -1",
        "11/11/11/11/11/11/11/11/11/11/11 x 1 2",
        "6/6/6/6/6/6 x",
        "12/12/12/12/12/12/12/12/12/12/12/12 x",
        "11/11/11/11/11/11/11/11/11/11 x",
        "11/11/11/11/11/11/11/11/11/11/10 x",
        "11/11/11/11/11/11/11/11/11/11/b10 x",
        "11/11/11/11/11/11/11/11/11/11/www8 x",
        // No worker yet but white to move; one worker but black to move.
        "11/11/11/11/11/11/11/11/11/11/11 o",
        "11/11/11/11/11/11/11/11/11/11/w10 x",
        // Stones before both workers.
        "11/11/11/11/11/11/11/11/11/11/wx9 o",
        // Stone counts that no game reaches with this side to move.
        "11/11/11/11/11/11/11/11/11/11/wxx7w o",
        "11/11/11/11/11/11/11/11/11/11/wx8w x",
        "11/11/11/11/11/11/11/11/11/11/wo8w o",
        "11/11/11/11/11/11/11/11/11/11/w/11 x",
        "99999999999999999999/7/7/7/7/7/7 x",
        "7/7/7/7/7/7/7 x 99999999999999999999",
    ] {
        assert!(
            Fabrik::from_fen(&default_config::<Fabrik>(), bad).is_err(),
            "{bad:?} accepted"
        );
    }
}

#[test]
fn bad_moves_are_errors_and_never_panic() {
    let state = Fabrik::from_fen(&config(7, 5), "7/7/7/3x3/2w4/7/6w o 5").unwrap();
    for bad in [
        "",
        "h1",
        "a8",
        "a0",
        "a01",
        "pas",
        "PASS",
        "d4x",
        "d4d5",
        "d4d5d6d7",
        "a1b2c",
        "z9",
        "é4",
        "a1é",
        "a1 b2 c3",
        "k11k11k11",
        "a1a1a1a1",
    ] {
        assert!(
            matches!(state.parse_move(bad), Err(MoveError::Syntax(_))),
            "{bad:?} parsed"
        );
    }
    // Well-formed but illegal.
    assert!(matches!(
        state.legal_move("pass"),
        Err(MoveError::Illegal(_))
    ));
    assert!(matches!(state.legal_move("d4"), Err(MoveError::Illegal(_))));
    // Random bytes never panic.
    let mut rng = Xorshift::new(3);
    let alphabet: Vec<char> = "abcdefghijkpas0123456789 éw".chars().collect();
    for _ in 0..20_000 {
        let length = rng.index(9);
        let text: String = (0..length)
            .map(|_| alphabet[rng.index(alphabet.len())])
            .collect();
        let _ = state.legal_move(&text);
        let _ = Fabrik::from_fen(&config(7, 5), &text);
    }
}

#[test]
fn options_and_start_positions() {
    assert!(options(6, 5).is_err());
    assert!(options(12, 5).is_err());
    assert!(options(9, 3).is_err());
    assert!(options(9, 6).is_err());
    // A config is read by name: another game's options do not make one.
    let talpa = Params::defaults(tabuleiro::games::talpa::Talpa::option_specs());
    assert!(Fabrik::config(&talpa).is_err());
    let specs = Fabrik::option_specs();
    assert_eq!(specs.len(), 2);
    assert_eq!((specs[0].name, specs[1].name), ("Size", "LineLength"));
    assert_eq!(default_config::<Fabrik>(), config(11, 5));
    let small = Fabrik::start(&config(7, 4));
    assert_eq!(small.fen(), "7/7/7/7/7/7/7 x 0");
    assert_eq!(small.count_moves(), 49);
    assert_eq!(small.line_length(), 4);
    assert_eq!(perft(&small, 2), 49 * 48);
}

/// The board and side of a FEN with the colours swapped: black's stones for white's,
/// and the other side to move (the ply counter is left out).
fn colours_swapped(fen: &str) -> String {
    let mut fields = fen.split(' ');
    let board: String = fields
        .next()
        .unwrap_or_default()
        .chars()
        .map(|c| match c {
            'x' => 'o',
            'o' => 'x',
            c => c,
        })
        .collect();
    let side = match fields.next() {
        Some("x") => "o",
        Some("o") => "x",
        other => panic!("side {other:?} in {fen}"),
    };
    format!("{board} {side}")
}

/// The board and side of a FEN (the ply counter left out).
fn board_and_side(fen: &str) -> String {
    fen.split(' ').take(2).collect::<Vec<_>>().join(" ")
}

/// Black's choice of who places first is the only thing that tells the colours apart:
/// after `pass` the game is the one before it with the colours swapped, move for move.
/// That is why black wins Fabrik from the start on every board (docs/solved.md,
/// Fabrik): from the workers' position, if the side to move wins there black places
/// first, and if it loses black passes. Checked over random games of every size, with
/// the same moves played on both sides of the swap.
#[test]
fn after_a_pass_the_game_is_the_one_before_with_the_colours_swapped() {
    let mut rng = Xorshift::new(77);
    let mut endings = [0usize; 2];
    for size in 7..=11u8 {
        for length in [4u8, 5] {
            for _ in 0..4 {
                let mut chose = Fabrik::start(&config(size, length));
                for _ in 0..2 {
                    let moves = engine_move_texts(&chose);
                    engine_play(&mut chose, &moves[rng.index(moves.len())]);
                }
                assert_eq!(chose.phase(), Phase::Choose);
                let mut passed = chose;
                engine_play(&mut passed, "pass");
                loop {
                    assert_eq!(colours_swapped(&chose.fen()), board_and_side(&passed.fen()));
                    let mut moves = engine_move_texts(&chose);
                    moves.retain(|m| m != "pass");
                    assert_eq!(moves, engine_move_texts(&passed), "in {}", chose.fen());
                    match (chose.outcome(), passed.outcome()) {
                        (None, None) => {}
                        (Some(Outcome::Win(a)), Some(Outcome::Win(b))) => {
                            assert_eq!(a, b.other(), "in {}", chose.fen());
                            endings[usize::from(a == Player::P1)] += 1;
                            break;
                        }
                        other => panic!("{other:?} in {}", chose.fen()),
                    }
                    let mv = &moves[rng.index(moves.len())];
                    engine_play(&mut chose, mv);
                    engine_play(&mut passed, mv);
                }
            }
        }
    }
    // Games of both endings: black's and white's wins on the side before the swap.
    assert!(endings[0] > 0 && endings[1] > 0, "{endings:?}");
}

/// Random positions of random games on 7×7 (lines of 4) and 9×9 (lines of 5), with the
/// players placing beside their own stones half the time so that lines and threats
/// occur. Calls `visit` on every position of the play phase.
fn random_play_positions(seed: u64, games: usize, visit: impl FnMut(&Fabrik)) {
    random_play_positions_on(seed, games, &[(7, 4), (7, 4), (9, 5)], visit);
}

/// [`random_play_positions`] on the boards of `sizes` (size, line length) in turn.
fn random_play_positions_on(
    seed: u64,
    games: usize,
    sizes: &[(u8, u8)],
    mut visit: impl FnMut(&Fabrik),
) {
    use tabuleiro::games::fabrik::threats::win_now;
    let mut rng = Xorshift::new(seed);
    let mut moves = Vec::new();
    for game in 0..games {
        let (size, length) = sizes[game % sizes.len()];
        let mut state = Fabrik::start(&config(size, length));
        while state.outcome().is_none() {
            if state.phase() == Phase::Play {
                visit(&state);
            }
            moves.clear();
            state.generate_moves(&mut moves);
            // Now and then a win is played when there is one, mostly not: threats
            // then stay on the board for the other side to face.
            let mv = match win_now(&state) {
                Some(mv) if rng.next_u64().is_multiple_of(4) => mv,
                _ => {
                    let own = state.stones(state.side_to_move());
                    let near: Vec<_> = moves
                        .iter()
                        .copied()
                        .filter(|mv| {
                            mv.kind() != MoveKind::Pass
                                && [1i32, 10, 11, 12, -1, -10, -11, -12].iter().any(|d| {
                                    let s = mv.square() as i32 + d;
                                    (0..121).contains(&s) && own >> s & 1 == 1
                                })
                        })
                        .collect();
                    if !near.is_empty() && rng.next_u64().is_multiple_of(2) {
                        near[(rng.next_u64() % near.len() as u64) as usize]
                    } else {
                        moves[(rng.next_u64() % moves.len() as u64) as usize]
                    }
                }
            };
            state.play(mv);
        }
    }
}

/// Whether the side to move has a move that wins at once, by playing every move.
fn wins_at_once(state: &Fabrik) -> bool {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let us = state.side_to_move();
    moves.iter().any(|&mv| {
        let mut child = *state;
        child.play(mv);
        child.outcome() == Some(Outcome::Win(us))
    })
}

#[test]
fn win_now_agrees_with_playing_every_move() {
    use tabuleiro::games::fabrik::threats::win_now;
    let (mut yes, mut no) = (0, 0);
    random_play_positions(101, 60, |state| {
        let found = win_now(state);
        assert_eq!(found.is_some(), wins_at_once(state), "{}", state.fen());
        if let Some(mv) = found {
            assert!(state.is_legal(mv), "{}", state.fen());
            let mut child = *state;
            child.play(mv);
            assert_eq!(
                child.outcome(),
                Some(Outcome::Win(state.side_to_move())),
                "{}",
                state.fen()
            );
            yes += 1;
        } else {
            no += 1;
        }
    });
    assert!(yes > 50 && no > 500, "yes {yes}, no {no}");
}

/// Every move after which the opponent has no win now, found by playing them all: the
/// moves, as text, sorted.
fn holding_moves(state: &Fabrik) -> Vec<String> {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let mut holding: Vec<_> = moves
        .iter()
        .copied()
        .filter(|&mv| {
            let mut child = *state;
            child.play(mv);
            !wins_at_once(&child)
        })
        .map(|mv| state.format_move(mv))
        .collect();
    holding.sort();
    holding
}

#[test]
fn answers_are_exactly_the_moves_that_stop_an_immediate_win() {
    use tabuleiro::games::fabrik::threats::{answers, line_threats, win_now};
    let (mut threatened, mut quiet, mut total_answers) = (0, 0, 0);
    random_play_positions(202, 90, |state| {
        if win_now(state).is_some() {
            return;
        }
        let mut computed = Vec::new();
        let threat = answers(state, &mut computed);
        assert_eq!(
            threat,
            line_threats(state, state.side_to_move().other()) != 0,
            "{}",
            state.fen()
        );
        if !threat {
            quiet += 1;
            return;
        }
        threatened += 1;
        let expected = holding_moves(state);
        let mut got: Vec<_> = computed.iter().map(|&mv| state.format_move(mv)).collect();
        got.sort();
        assert_eq!(got, expected, "{}", state.fen());
        total_answers += got.len();
    });
    assert!(
        threatened > 100 && quiet > 100,
        "{threatened} threatened, {quiet} not"
    );
    assert!(total_answers > 0);
}

#[test]
fn walling_in_threats_and_their_answers_agree_with_playing_every_move() {
    use tabuleiro::games::fabrik::forcing::four_moves;
    use tabuleiro::games::fabrik::threats::{any_answers, wall_threat_moves, win_now};
    let (mut answered, mut threat_moves, mut lost) = (0, 0, 0);
    random_play_positions(606, 30, |state| {
        if win_now(state).is_some() {
            return;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let expected = holding_moves(state);
        let mut computed = Vec::new();
        assert!(any_answers(state, &mut computed, usize::MAX));
        let mut got: Vec<_> = computed.iter().map(|&mv| state.format_move(mv)).collect();
        got.sort();
        assert_eq!(got, expected, "{}", state.fen());
        // Over the cap: nothing.
        if expected.len() > 3 {
            let mut capped = Vec::new();
            assert!(!any_answers(state, &mut capped, 3) && capped.is_empty());
        }
        answered += usize::from(expected.len() < moves.len());
        lost += usize::from(expected.is_empty());
        // A move of the side to move that is neither a four nor a walling-in threat
        // leaves the opponent a move after which it cannot be walled in: only those
        // moves can win in three plies without a line.
        let mut threats = Vec::new();
        wall_threat_moves(state, &mut threats);
        four_moves(state, &mut threats);
        threat_moves += threats.len();
        // (A sample of them: each costs a look at every reply and every move after it.)
        let others: Vec<_> = moves
            .iter()
            .copied()
            .filter(|mv| !threats.iter().any(|t| t.1 == *mv))
            .collect();
        for &mv in others.iter().step_by(others.len() / 3 + 1) {
            let mut child = *state;
            child.play(mv);
            if child.outcome().is_some() {
                continue;
            }
            let mut replies = Vec::new();
            child.generate_moves(&mut replies);
            let escapes = replies.iter().any(|&reply| {
                let mut after = child;
                after.play(reply);
                after.outcome().is_some() || {
                    let mut last = Vec::new();
                    after.generate_moves(&mut last);
                    last.iter().all(|&end| {
                        let mut walled = after;
                        walled.play(end);
                        let mut any = Vec::new();
                        walled.generate_moves(&mut any);
                        walled.outcome().is_some() || !any.is_empty()
                    })
                }
            });
            assert!(escapes, "{} {}", state.fen(), state.format_move(mv));
        }
    });
    assert!(
        answered > 100 && threat_moves > 20 && lost > 0,
        "{answered} answered, {threat_moves} threat moves, {lost} lost"
    );
}

#[test]
fn walling_in_threats_without_playing_every_move_are_those_found_by_playing_them() {
    use tabuleiro::games::fabrik::threats::{
        any_answers, any_answers_by_playing, wall_threat_moves, wall_threat_moves_by_playing,
        win_now,
    };
    let mut sizes = Vec::new();
    for size in 7..=11 {
        for length in [4, 5] {
            sizes.push((size, length));
        }
    }
    let (mut positions, mut with_threats, mut threats, mut few_answers) = (0, 0, 0, 0);
    random_play_positions_on(707, 60, &sizes, |state| {
        let mut fast = Vec::new();
        wall_threat_moves(state, &mut fast);
        let mut slow = Vec::new();
        wall_threat_moves_by_playing(state, &mut slow);
        // The same moves in the same order, with the same keys.
        assert_eq!(fast, slow, "{}", state.fen());
        positions += 1;
        with_threats += usize::from(!slow.is_empty());
        threats += slow.len();
        // The answers, with the replies that leave a walling-in move standing never
        // played: the same as playing them all (uncapped, and capped).
        if win_now(state).is_none() {
            for max in [usize::MAX, 3] {
                let (mut fast, mut slow) = (Vec::new(), Vec::new());
                let complete = any_answers(state, &mut fast, max);
                assert_eq!(complete, any_answers_by_playing(state, &mut slow, max));
                assert_eq!(fast, slow, "{}", state.fen());
                if max == usize::MAX {
                    let mut moves = Vec::new();
                    state.generate_moves(&mut moves);
                    few_answers += usize::from(fast.len() < moves.len());
                }
            }
        }
    });
    assert!(
        positions > 1000 && with_threats > 100 && threats > 1000 && few_answers > 100,
        "{positions} positions, {with_threats} with threats, {threats} threats, {few_answers} where some move is no answer"
    );
}

#[test]
fn legality_of_any_move_code_agrees_with_the_generator() {
    use tabuleiro::game::MoveCode;
    let mut rng = Xorshift::new(303);
    let mut moves = Vec::new();
    let mut codes: Vec<u32> = Vec::new();
    for size in 7..=11u8 {
        let mut state = Fabrik::start(&config(size, 5));
        loop {
            moves.clear();
            state.generate_moves(&mut moves);
            let legal: std::collections::HashSet<u32> = moves.iter().map(|mv| mv.code()).collect();
            for mv in &moves {
                assert!(
                    state.is_legal(*mv),
                    "{} {}",
                    state.fen(),
                    state.format_move(*mv)
                );
            }
            // Codes of other positions' moves, and random bits.
            for &code in codes.iter().rev().take(400) {
                assert_eq!(
                    state.is_legal(Move::from_code(code)),
                    legal.contains(&code),
                    "{} {code:#x}",
                    state.fen()
                );
            }
            for _ in 0..50 {
                let code = rng.next_u64() as u32 & 0x7f_ffff;
                assert_eq!(state.is_legal(Move::from_code(code)), legal.contains(&code));
            }
            codes.extend(moves.iter().map(|mv| mv.code()));
            if moves.is_empty() {
                break;
            }
            state.play(moves[(rng.next_u64() % moves.len() as u64) as usize]);
        }
    }
}

#[test]
fn line_answers_add_only_moves_that_are_walled_in() {
    use tabuleiro::games::fabrik::threats::{answers, line_answers, win_now};
    let mut checked = 0;
    random_play_positions(404, 40, |state| {
        if win_now(state).is_some() {
            return;
        }
        let (mut exact, mut lines) = (Vec::new(), Vec::new());
        assert_eq!(answers(state, &mut exact), line_answers(state, &mut lines));
        for mv in &exact {
            assert!(lines.contains(mv), "{}", state.fen());
        }
        for &mv in lines.iter().filter(|mv| !exact.contains(mv)) {
            let mut child = *state;
            child.play(mv);
            assert!(wins_at_once(&child), "{}", state.fen());
        }
        checked += usize::from(!lines.is_empty());
    });
    assert!(checked > 20, "{checked}");
}

/// Whether the side to move wins within 3 plies whatever the opponent does, by playing
/// every move (wins at once checked by playing too).
fn wins_within_3(state: &Fabrik) -> bool {
    let us = state.side_to_move();
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves.iter().any(|&mv| {
        let mut child = *state;
        child.play(mv);
        match child.outcome() {
            Some(Outcome::Win(p)) => p == us,
            Some(_) => false,
            None => {
                let mut replies = Vec::new();
                child.generate_moves(&mut replies);
                replies.iter().all(|&reply| {
                    let mut grandchild = child;
                    grandchild.play(reply);
                    match grandchild.outcome() {
                        Some(Outcome::Win(p)) => p == us,
                        Some(_) => false,
                        None => wins_at_once(&grandchild),
                    }
                })
            }
        }
    })
}

#[test]
fn forcing_wins_are_real_wins() {
    use tabuleiro::games::fabrik::forcing::Forcing;
    let mut forcing = Forcing::new();
    let (mut found, mut in_three) = (0, 0);
    random_play_positions(505, 30, |state| {
        if let Some((plies, mv)) = forcing.win(state, 9, 300) {
            assert!(state.is_legal(mv), "{}", state.fen());
            assert!(plies % 2 == 1, "{}", state.fen());
            found += 1;
            if plies == 3 {
                assert!(wins_within_3(state), "{}", state.fen());
                in_three += 1;
            }
        }
    });
    assert!(
        found > 20 && in_three > 5,
        "{found} found, {in_three} in three"
    );
}

/// Whether the side to move, whatever it plays, lets the opponent wall the workers in
/// (by playing every move and every reply).
fn walled_in_next_turn(state: &Fabrik) -> bool {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves.iter().all(|&mv| {
        let mut child = *state;
        child.play(mv);
        if child.outcome().is_some() {
            return false;
        }
        let mut replies = Vec::new();
        child.generate_moves(&mut replies);
        replies.iter().any(|&reply| {
            let mut grandchild = child;
            grandchild.play(reply);
            grandchild.outcome() == Some(Outcome::Win(child.side_to_move()))
        })
    })
}

#[test]
fn the_mobility_end_is_seen_two_plies_early() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use tabuleiro::games::fabrik::FabrikEval;
    use tabuleiro::games::fabrik::eval::{evaluate, has_safe_move};
    use tabuleiro::search::{NoOracle, Policy, SearchLimits};
    // Issue 33's match (seed 77), game 58: white to move at ply 29 played b9c1a3, black
    // answered a1, and white could not move without being walled in (lost at ply 33).
    let before = fen("3o7/11/1w3x2o2/6x1o2/6ox1x1/4xox3o/3x3o3/7x3/1x3o1ox2/w1oxxoo2x1/3x1o5 o 29");
    let mut lost = before;
    for text in ["b9c1a3", "a1"] {
        engine_play(&mut lost, text);
    }
    assert!(walled_in_next_turn(&lost));
    assert_eq!(has_safe_move(&lost, u32::MAX), Some(false));
    assert!(evaluate(&lost) <= -9_000, "{}", evaluate(&lost));
    // A two-ply search now sees it and plays a move that keeps a way out.
    let mut searcher = Policy::new(1, FabrikEval::default(), Arc::new(NoOracle));
    searcher.prepare();
    let limits = SearchLimits {
        depth: Some(2),
        ..SearchLimits::default()
    };
    let stop = Arc::new(AtomicBool::new(false));
    let result = searcher.search(&before, &[before.hash()], limits, stop, &mut |_| {});
    let best = result.best.expect("a move");
    assert_ne!(before.format_move(best), "b9c1a3");
    let mut after = before;
    after.play(best);
    let mut replies = Vec::new();
    after.generate_moves(&mut replies);
    for reply in replies {
        let mut next = after;
        next.play(reply);
        assert!(
            next.outcome().is_some() || has_safe_move(&next, u32::MAX) == Some(true),
            "{} then {}",
            before.format_move(best),
            after.format_move(reply)
        );
    }
}

/// Under a tiny clock the search answers in time, on middle games and on the tactical
/// positions (where threats make the most work). The bound is loose: machines are noisy.
#[test]
fn a_search_on_a_tiny_clock_answers_in_time() {
    use std::sync::Arc;
    use std::sync::atomic::AtomicBool;
    use std::time::{Duration, Instant};
    use tabuleiro::search::time::Budget;
    use tabuleiro::search::{Policy, SearchLimits};
    let mut fens = Vec::new();
    for (text, size, length) in [
        (include_str!("data/fabrik_middlegames.txt"), 11, 5),
        (include_str!("data/fabrik_tactics_hard.txt"), 0, 0),
    ] {
        for line in text
            .lines()
            .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        {
            let fields: Vec<&str> = line.split(';').map(str::trim).collect();
            if fields.len() == 7 {
                let (s, l) = (fields[1].parse().unwrap(), fields[2].parse().unwrap());
                fens.push((fields[5].to_string(), s, l));
            } else {
                fens.push((line.trim().to_string(), size, length));
            }
        }
    }
    assert!(fens.len() >= 40);
    let mut slowest = Duration::ZERO;
    // The first search of a process builds shared tables: not timed.
    for (index, (fen, size, length)) in [fens[0].clone()].into_iter().chain(fens).enumerate() {
        let config = config(size, length);
        let state = Fabrik::from_fen(&config, &fen).unwrap();
        let mut searcher = Policy::<Fabrik>::standard(4, &config);
        let limits = SearchLimits {
            budget: Budget {
                soft: Some(Duration::from_millis(2)),
                hard: Some(Duration::from_millis(4)),
            },
            ..SearchLimits::default()
        };
        let started = Instant::now();
        let result = searcher.search(
            &state,
            &[state.hash()],
            limits,
            Arc::new(AtomicBool::new(false)),
            &mut |_| {},
        );
        if index > 0 {
            slowest = slowest.max(started.elapsed());
        }
        let best = result.best.expect("a move");
        assert!(state.is_legal(best), "{fen}");
    }
    assert!(
        slowest < Duration::from_millis(250),
        "slowest answer {slowest:?}"
    );
}

/// `wall_in_move` answers the first walling-in move in the move generator's order, as
/// playing every move finds it: on random games of every size and line length, and on
/// games whose moves are chosen to cramp the workers (the stone next to a worker when
/// it can), where walling in is common.
#[test]
fn the_walling_in_move_is_the_first_found_by_playing_every_move() {
    use tabuleiro::games::fabrik::eval::{wall_in_move, wall_in_move_by_generation};
    let mut rng = Xorshift::new(509);
    let (mut found, mut none) = (0, 0);
    let mut moves = Vec::new();
    for game in 0..400 {
        let config = config(7 + (game % 5) as u8, 4 + (game / 5 % 2) as u8);
        let cramp = game % 2 == 1;
        let mut state = Fabrik::start(&config);
        while state.outcome().is_none() {
            assert_eq!(
                wall_in_move(&state),
                wall_in_move_by_generation(&state),
                "{}",
                state.fen()
            );
            moves.clear();
            state.generate_moves(&mut moves);
            // A move that makes a line ends the game, so its child tells nothing of the
            // workers: positions with one are left to the unit test of the answer alone.
            let us = state.side_to_move();
            let mut line = false;
            let mut first = None;
            for &mv in &moves {
                let mut child = state;
                child.play(mv);
                if makes_line(&child, us, mv.square()) {
                    line = true;
                    break;
                }
                if first.is_none() && child.count_moves() == 0 {
                    first = Some(mv);
                }
            }
            if !line {
                assert_eq!(wall_in_move(&state), first, "{}", state.fen());
                if first.is_some() {
                    found += 1;
                } else {
                    none += 1;
                }
            }
            let near: Vec<Move> = if cramp {
                let workers = state.workers();
                moves
                    .iter()
                    .copied()
                    .filter(|mv| {
                        mv.kind() == MoveKind::Place && {
                            let (f, r) = (mv.square() % 11, mv.square() / 11);
                            (0..121).any(|w: usize| {
                                workers >> w & 1 == 1
                                    && (w % 11).abs_diff(f) <= 1
                                    && (w / 11).abs_diff(r) <= 1
                            })
                        }
                    })
                    .collect()
            } else {
                Vec::new()
            };
            let pool = if near.is_empty() { &moves } else { &near };
            state.play(pool[rng.index(pool.len())]);
        }
    }
    assert!(found > 300 && none > 3000, "found {found}, none {none}");
}

/// Whether `player` has a line of the line length through `square` (walked one square
/// at a time).
fn makes_line(state: &Fabrik, player: Player, square: usize) -> bool {
    let own = state.stones(player);
    let size = state.size() as i32;
    let at = |f: i32, r: i32| {
        (0..size).contains(&f) && (0..size).contains(&r) && own >> (r * 11 + f) & 1 == 1
    };
    let (f, r) = ((square % 11) as i32, (square / 11) as i32);
    [(1, 0), (0, 1), (1, 1), (1, -1)].iter().any(|&(df, dr)| {
        let run = |sign: i32| {
            (1..)
                .take_while(|&k| at(f + sign * k * df, r + sign * k * dr))
                .count() as u32
        };
        1 + run(1) + run(-1) >= state.line_length()
    })
}

/// Whether `worker` has three or more open squares beside it (empty squares with three
/// or more empty neighbours), from the board's coordinates alone.
fn roomy_by_counting(state: &Fabrik, worker: usize) -> bool {
    let n = state.size() as i32;
    let empty = state.empty();
    let neighbours = |s: usize| {
        let (f, r) = ((s % 11) as i32, (s / 11) as i32);
        let mut out = Vec::new();
        for df in -1..=1 {
            for dr in -1..=1 {
                let (g, q) = (f + df, r + dr);
                if (df, dr) != (0, 0) && (0..n).contains(&g) && (0..n).contains(&q) {
                    out.push((g + q * 11) as usize);
                }
            }
        }
        out
    };
    let is_empty = |s: usize| empty >> s & 1 == 1;
    neighbours(worker)
        .into_iter()
        .filter(|&s| is_empty(s) && neighbours(s).into_iter().filter(|&t| is_empty(t)).count() >= 3)
        .count()
        >= 3
}

#[test]
fn without_a_walling_in_threat_a_roomy_move_exists_and_no_reply_walls_in() {
    use tabuleiro::games::fabrik::eval::{Terms, can_leave_no_move, walling_in_threat};
    use tabuleiro::games::fabrik::threats::line_threats;
    use tabuleiro::search::Evaluator;
    let mut eval = tabuleiro::games::fabrik::FabrikEval::with_terms(Terms::experiment(7));
    let (mut threats, mut free, mut checked, mut too_many) = (0, 0, 0, 0);
    let mut moves = Vec::new();
    random_play_positions(133, 90, |state| {
        moves.clear();
        state.generate_moves(&mut moves);
        // The definition, by playing every move: no move leaves both workers roomy.
        let roomy_move = moves.iter().copied().find(|&mv| {
            let mut child = *state;
            child.play(mv);
            let w = child.workers();
            let (a, b) = (
                w.trailing_zeros() as usize,
                127 - w.leading_zeros() as usize,
            );
            roomy_by_counting(&child, a) && roomy_by_counting(&child, b)
        });
        // Found without a sight set per relocation, the test may miss a roomy move
        // (a threat too many, never one too few).
        let threat = walling_in_threat(state);
        assert!(threat || roomy_move.is_some(), "{}", state.fen());
        if threat && roomy_move.is_some() {
            too_many += 1;
        }
        let line = line_threats(state, state.side_to_move().other()) != 0;
        assert_eq!(eval.threatened(state), line || threat, "{}", state.fen());
        if threat {
            threats += 1;
        } else {
            free += 1;
        }
        // Without the threat the roomy move is safe: no reply walls the side in.
        if let Some(mv) = roomy_move
            && checked < 300
        {
            let mut child = *state;
            child.play(mv);
            if child.outcome().is_none() {
                checked += 1;
                assert!(
                    !can_leave_no_move(&child),
                    "{} {}",
                    state.fen(),
                    state.format_move(mv)
                );
            }
        }
    });
    println!("threats {threats} (with a roomy move {too_many}), no threat {free}");
    assert!(
        threats > 50 && free > 50 && checked == 300,
        "{threats} {free} {checked}"
    );
}
