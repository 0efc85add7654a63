//! Frozen Forest: the move trees of small forests against the naive rules of
//! `tests/common/naive/frozenforest.rs`, the rules cases of the issue, and mangled
//! FENs. Random games with round trips are in the shared suite (`tests/invariants.rs`).

#[path = "common/naive.rs"]
mod naive;

use naive::{engine_move_texts, engine_play, frozenforest::Naive};
use tabuleiro::game::{Game, MoveError, Outcome, Params, Player, default_config};
use tabuleiro::games::frozenforest::sight::{CELLS, tables};
use tabuleiro::games::frozenforest::{Config, FrozenForest, Move, Phase, evaluate};
use tabuleiro::options::config_from_pairs;
use tabuleiro::rng::Xorshift;

fn start(trees: u8) -> FrozenForest {
    FrozenForest::start(&Config { trees })
}

fn fen(text: &str) -> FrozenForest {
    match FrozenForest::from_fen(&default_config::<FrozenForest>(), text) {
        Ok(position) => position,
        Err(why) => panic!("{text}: {why}"),
    }
}

/// Walks both generators together, comparing the move lists and the boards at every
/// node down to `depth`.
fn compare_tree(naive: &Naive, position: &FrozenForest, depth: u32) {
    let board = position.fen().split(' ').next().unwrap_or("").to_string();
    assert_eq!(naive.board(), board);
    let names = naive.move_names();
    assert_eq!(
        names,
        engine_move_texts(position),
        "moves differ in {}",
        position.fen()
    );
    assert_eq!(names.is_empty(), position.outcome().is_some());
    if depth == 0 {
        return;
    }
    for c in naive.moves() {
        let mut n = naive.clone();
        n.play(c);
        let mut p = *position;
        engine_play(&mut p, &Naive::name(c));
        compare_tree(&n, &p, depth - 1);
    }
}

#[test]
fn naive_generator_agrees_on_small_forests() {
    for trees in 4..=10u8 {
        let depth = if trees <= 6 { 4 } else { 3 };
        compare_tree(&Naive::start(trees as usize), &start(trees), depth);
    }
}

// ---------------------------------------------------------------------------------
// Rules cases.
// ---------------------------------------------------------------------------------

#[test]
fn mina_placements_42_from_a_corner_35_from_e5() {
    for corner in ["a1", "a10", "j1", "j10"] {
        let mut position = start(10);
        engine_play(&mut position, corner);
        assert_eq!(position.phase(), Phase::PlaceMina);
        assert_eq!(position.count_moves(), 42, "Yuki on {corner}");
    }
    let mut position = start(10);
    engine_play(&mut position, "e5");
    assert_eq!(position.count_moves(), 35);
    assert_eq!(
        position.fen(),
        "tttttttttt/tttttttttt/tttttttttt/tttttttttt/tttttttttt/ttttyttttt/tttttttttt/tttttttttt/tttttttttt/tttttttttt m 1"
    );
    // None of the 8 neighbours or the 8 knight cells of e5 is a placement.
    let names = engine_move_texts(&position);
    for near in [
        "d4", "d5", "d6", "e4", "e6", "f4", "f5", "f6", "c4", "c6", "g4", "g6", "d3", "f3", "d7",
        "f7",
    ] {
        assert!(
            !names.contains(&near.to_string()),
            "{near} is visible from e5"
        );
    }
    assert!(names.contains(&"e7".to_string()) && names.contains(&"g7".to_string()));
}

#[test]
fn adjacent_and_knight_pairs_always_see_each_other() {
    let t = tables();
    let full = start(10);
    for a in 0..CELLS {
        for b in 0..CELLS {
            let (fa, ra) = ((a % 10) as i32, (a / 10) as i32);
            let (fb, rb) = ((b % 10) as i32, (b / 10) as i32);
            let (dx, dy) = ((fb - fa).abs(), (rb - ra).abs());
            let close = dx.max(dy) == 1 || (dx.min(dy) == 1 && dx.max(dy) == 2);
            if close {
                assert!(full.sees(a, b), "{a} {b}");
                assert_eq!(t.between[a][b], 0);
            }
            // Under a full forest, sight is exactly coprime offsets.
            if a != b {
                let g = {
                    let (mut x, mut y) = (dx, dy);
                    while y != 0 {
                        (x, y) = (y, x % y);
                    }
                    x
                };
                assert_eq!(full.sees(a, b), g == 1, "{a} {b}");
            }
        }
    }
}

#[test]
fn a_tree_exactly_between_blocks_and_snow_never_blocks() {
    // Yuki on c3, trees on c4 and c5: Mina can be placed only on c5 (behind c4).
    let position = fen("10/10/10/10/10/2t7/2t7/2y7/10/10 m 1");
    assert_eq!(engine_move_texts(&position), ["c5"]);
    // Without the tree on c4 only snow lies between: no hidden tree, Mina loses.
    let position = fen("10/10/10/10/10/2t7/10/2y7/10/10 m 1");
    assert_eq!(engine_move_texts(&position), Vec::<String>::new());
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::P1)));
    // The gcd lattice: from a1 to c5 (2, 4) only b3 lies on the line.
    let open = fen("10/10/10/10/10/2t7/10/10/10/y9 m 1");
    assert!(open.sees(0, 42));
    let blocked = fen("10/10/10/10/10/2t7/10/1t8/10/y9 m 1");
    assert!(!blocked.sees(0, 42));
    assert_eq!(engine_move_texts(&blocked), ["c5"]);
    // Trees near the line but off the lattice (a2, b2, a3, c4, b4) do not block.
    let near = fen("10/10/10/10/10/2t7/1tt7/t9/tt8/y9 m 1");
    assert!(near.sees(0, 42));
    // A tree two cells down a long diagonal blocks everything beyond it.
    let diagonal = fen("10/10/10/10/10/10/10/2t7/10/y9 m 1");
    for cell in [33, 44, 55, 66, 77, 88, 99] {
        assert!(!diagonal.sees(0, cell));
    }
    assert!(diagonal.sees(0, 11));
}

#[test]
fn the_tree_mina_leaves_blocks_after_her_move() {
    // Yuki on a1 (snow), Mina on a tree on a2, nothing else: she is visible now, and
    // every slide up the a-file puts the tree she leaves between them.
    let mut position = fen("10/10/10/10/10/10/10/10/M9/y9 m 5");
    assert!(position.sees(0, 10));
    assert_eq!(
        engine_move_texts(&position),
        ["a10", "a3", "a4", "a5", "a6", "a7", "a8", "a9"]
    );
    engine_play(&mut position, "a3");
    assert_eq!(position.fen(), "10/10/10/10/10/10/10/m9/t9/y9 y 6");
    assert!(!position.sees(0, 20));
    // Yuki may eat that tree: from a2 Mina is next to him.
    assert_eq!(engine_move_texts(&position), ["a2"]);
}

#[test]
fn mina_may_slide_over_yuki_but_not_stop_on_him() {
    // Mina on e3, Yuki on e5, a tree on e6: sliding up she passes Yuki to e7 … e10.
    let position = fen("10/10/10/10/4t5/4y5/10/4m5/10/10 m 9");
    let names = engine_move_texts(&position);
    for beyond in ["e7", "e8", "e9", "e10"] {
        assert!(names.contains(&beyond.to_string()), "{beyond}: {names:?}");
    }
    assert!(matches!(
        position.legal_move("e5"),
        Err(MoveError::Illegal(_))
    ));
    assert!(matches!(
        position.legal_move("e4"),
        Err(MoveError::Illegal(_))
    ));
    assert!(matches!(
        position.legal_move("e6"),
        Err(MoveError::Illegal(_))
    ));
    assert_eq!(names, ["e10", "e7", "e8", "e9"]);
}

#[test]
fn yuki_may_not_step_onto_mina() {
    // Mina on a tree next to Yuki; the only other tree is d4 (Mina visible from it).
    let position = fen("10/10/10/10/4M5/4y5/3t6/10/10/10 y 9");
    assert_eq!(engine_move_texts(&position), ["d4"]);
    assert!(matches!(
        position.legal_move("e6"),
        Err(MoveError::Illegal(_))
    ));
    // Without d4 Yuki has no move at all and loses.
    let stuck = fen("10/10/10/10/4M5/4y5/10/10/10/10 y 9");
    assert_eq!(stuck.count_moves(), 0);
    assert_eq!(stuck.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn yuki_steps_only_where_mina_stays_visible() {
    // Yuki on a1, trees on a2 and b1 and b2, Mina on a tree on c3 (b2 between a1 and c3).
    // From a2 the offset is (2, 1): visible. From b1, (1, 2): visible. From b2 Mina is
    // adjacent: visible. All three are legal.
    let position = fen("10/10/10/10/10/10/10/2M7/tt8/yt8 y 3");
    assert_eq!(engine_move_texts(&position), ["a2", "b1", "b2"]);
    // Mina on e5 instead (offset from b2 is (3, 3): c3, d4 between; c3 now a tree).
    let position = fen("10/10/10/10/10/4M5/10/2t7/tt8/yt8 y 3");
    // From a2: (4, 3) visible; from b1: (3, 4) visible; from b2: (3, 3) through c3 (tree).
    assert_eq!(engine_move_texts(&position), ["a2", "b1"]);
}

#[test]
fn the_end_comes_when_a_side_has_no_move() {
    // Mina with no hidden destination loses.
    let mina_stuck = fen("10/10/10/10/10/4m5/10/4y5/10/10 m 12");
    assert_eq!(mina_stuck.count_moves(), 0);
    assert_eq!(mina_stuck.outcome(), Some(Outcome::Win(Player::P1)));
    assert!(matches!(
        mina_stuck.legal_move("e6"),
        Err(MoveError::GameOver(_))
    ));
    // Yuki on snow with no tree around loses.
    let yuki_stuck = fen("10/10/10/10/10/m9/10/4y5/10/9t y 12");
    assert_eq!(yuki_stuck.outcome(), Some(Outcome::Win(Player::P2)));
    let mut moves = Vec::new();
    yuki_stuck.generate_moves(&mut moves);
    assert!(moves.is_empty());
    // A live position has no outcome.
    let mut position = start(10);
    assert_eq!(position.outcome(), None);
    engine_play(&mut position, "e5");
    assert_eq!(position.outcome(), None);
    // A forest with no tree left: Yuki cannot even be placed.
    let bare = fen("10/10/10/10/10/10/10/10/10/10 y 0");
    assert_eq!(bare.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn the_tiebreak_count_is_what_yuki_ate() {
    let mut position = start(10);
    assert_eq!(position.tiebreak_count(), 0);
    engine_play(&mut position, "a1");
    assert_eq!(position.tiebreak_count(), 1);
    engine_play(&mut position, "c3");
    assert_eq!(position.tiebreak_count(), 1);
    // a1 → b2 would face c3 through nothing (adjacent): legal.
    engine_play(&mut position, "b2");
    assert_eq!(position.tiebreak_count(), 2);
    // With Trees 4, counted from 16.
    let mut small = start(4);
    engine_play(&mut small, "d4");
    assert_eq!(small.tiebreak_count(), 1);
    assert_eq!(small.trees_eaten(), 1);
    // A FEN is read under the config's Trees option: 100 − 97 trees on the board
    // (Mina's tree counts as a tree).
    let from_fen = fen(
        "tttttttttt/tttttttttt/tttttttttt/tttttttttt/tttttttttt/tttttttttt/tttttttttt/ttMttttttt/t2ttttttt/yttttttttt y 4",
    );
    assert_eq!(from_fen.tiebreak_count(), 3);
}

// ---------------------------------------------------------------------------------
// Notation, FEN, hashing.
// ---------------------------------------------------------------------------------

#[test]
fn bad_fens_are_errors() {
    let config = default_config::<FrozenForest>();
    for bad in [
        "",
        "10/10/10/10/10/10/10/10/10/10",
        "10/10/10/10/10/10/10/10/10/10 x",
        "10/10/10/10/10/10/10/10/10 y",
        "10/10/10/10/10/10/10/10/10/9 y",
        "10/10/10/10/10/10/10/10/10/11 y",
        "10/10/10/10/10/10/10/10/10/9q y",
        "10/10/10/10/10/10/10/10/10/yy8 m",
        "10/10/10/10/10/10/10/10/10/ymM7 y",
        "10/10/10/10/10/10/10/10/10/m9 y",
        "10/10/10/10/10/10/10/10/10/10 m",
        "10/10/10/10/10/10/10/10/10/y9 y",
        "10/10/10/10/10/10/10/10/10/ym8 y -1",
        "10/10/10/10/10/10/10/10/10/ym8 y 1 2",
        "5/5/5/5/5 y",
        "10/10/10/10/10/10/10/10/10/10/10 y",
        "00/10/10/10/10/10/10/10/10/10 y",
    ] {
        assert!(
            FrozenForest::from_fen(&config, bad).is_err(),
            "{bad:?} accepted"
        );
    }
}

#[test]
fn bad_moves_are_errors() {
    let position = start(10);
    for bad in [
        "", "e", "k1", "a11", "a0", "e5e6", "E5", "5e", "e5 ", "0000", "é5",
    ] {
        assert!(
            matches!(position.parse_move(bad), Err(MoveError::Syntax(_))),
            "{bad:?} accepted"
        );
    }
    let small = start(4);
    assert!(matches!(small.legal_move("a1"), Err(MoveError::Illegal(_))));
    assert!(small.legal_move("d4").is_ok());
    assert_eq!(position.format_move(Move(99)), "j10");
    assert_eq!(position.parse_move("j10"), Ok(Move(99)));
}

#[test]
fn mangled_fens_never_panic() {
    let mut rng = Xorshift::new(42);
    let alphabet = b"tymM0123456789/ x-";
    let base = "tttttttttt/tttttttttt/tttttttttt/tttttttttt/ttttMttttt/tttttyyttt/tttttttttt/tttttttttt/tttttttttt/tttttttttt y 2";
    let config = default_config::<FrozenForest>();
    for _ in 0..5000 {
        let mut bytes = base.as_bytes().to_vec();
        for _ in 0..1 + rng.index(4) {
            let at = rng.index(bytes.len());
            match rng.index(3) {
                0 => bytes[at] = alphabet[rng.index(alphabet.len())],
                1 => {
                    bytes.remove(at);
                }
                _ => bytes.insert(at, alphabet[rng.index(alphabet.len())]),
            }
        }
        let text = String::from_utf8_lossy(&bytes);
        if let Ok(position) = FrozenForest::from_fen(&config, &text) {
            // Whatever was accepted is a position the engine can work with.
            let again = FrozenForest::from_fen(&config, &position.fen()).expect("round trip");
            assert_eq!(again, position);
            let _ = position.outcome();
            let _ = evaluate(&position);
        }
    }
}

#[test]
fn the_ply_count_does_not_change_the_hash() {
    let a = fen("10/10/10/10/4t5/4y5/10/4m5/10/10 m 9");
    let b = fen("10/10/10/10/4t5/4y5/10/4m5/10/10 m 31");
    assert_eq!(a.hash(), b.hash());
    let c = fen("10/10/10/10/4t5/4y5/10/4m5/10/10 y 9");
    assert_ne!(a.hash(), c.hash());
    let d = fen("10/10/10/10/4t5/4y5/10/4M5/10/10 m 9");
    assert_ne!(a.hash(), d.hash());
}

#[test]
fn the_trees_option_builds_configs_and_rejects_others() {
    let trees = |text: &str| config_from_pairs::<FrozenForest>(&[("Trees", text)]);
    assert_eq!(trees("7"), Ok(Config { trees: 7 }));
    assert!(trees("3").is_err());
    assert!(trees("11").is_err());
    // Options without Trees make no config.
    assert!(FrozenForest::config(&Params::defaults(&[])).is_err());
    assert_eq!(FrozenForest::option_specs()[0].name, "Trees");
    assert_eq!(default_config::<FrozenForest>(), Config { trees: 10 });
    assert_eq!(start(7).options(), Config { trees: 7 });
}
