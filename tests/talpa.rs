//! Talpa: rules cases and notation. Random games against the naive rules of
//! `tests/common/naive/talpa.rs`, with round trips, are in the shared suite
//! (`tests/invariants.rs`).

#[path = "common/naive.rs"]
mod naive;

use naive::engine_move_texts;
use tabuleiro::game::{Game, MoveError, Outcome, Player};
use tabuleiro::games::talpa::{Move, Talpa};
use tabuleiro::options::config_from_pairs;

fn config(size: usize) -> <Talpa as Game>::Config {
    config_from_pairs::<Talpa>(&[("Size", size.to_string())]).expect("even size")
}

fn start(size: usize) -> Talpa {
    Talpa::start(&config(size))
}

fn fen(text: &str) -> Talpa {
    Talpa::from_fen(&config(8), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

#[test]
fn the_starts_are_the_spec_starts() {
    // The positions of the pinned perft counts in tests/data/perft.txt.
    for (size, text) in [
        (4, "rbrb/brbr/rbrb/brbr r 0"),
        (6, "rbrbrb/brbrbr/rbrbrb/brbrbr/rbrbrb/brbrbr r 0"),
        (
            8,
            "rbrbrbrb/brbrbrbr/rbrbrbrb/brbrbrbr/rbrbrbrb/brbrbrbr/rbrbrbrb/brbrbrbr r 0",
        ),
    ] {
        assert_eq!(start(size).fen(), text);
    }
}

fn legal(position: &Talpa, text: &str) -> Move {
    position
        .legal_move(text)
        .unwrap_or_else(|e| panic!("{text} in {}: {e}", position.fen()))
}

#[test]
fn captures_come_first_then_removals() {
    // One contact only: red c3 against blue c2.
    let mut position = fen("rrrr/rrrr/2b1/bbbb r");
    assert_eq!(engine_move_texts(&position), vec!["c3c2"]);
    // A removal while a capture exists is illegal.
    assert!(matches!(
        position.legal_move("a4"),
        Err(MoveError::Illegal(_))
    ));
    position.play(legal(&position, "c3c2"));
    // Red on c2 now touches blue c1 only: blue's one capture.
    assert_eq!(engine_move_texts(&position), vec!["c1c2"]);
    position.play(legal(&position, "c1c2"));
    assert_eq!(position.outcome(), None);
    assert!(!position.in_capture_phase());
    // No contact is left: red must remove one of its seven pieces.
    let moves = engine_move_texts(&position);
    assert_eq!(moves, vec!["a3", "a4", "b3", "b4", "c4", "d3", "d4"]);
    assert_eq!(position.count_moves(), 7);
    assert!(matches!(
        position.legal_move("a3a2"),
        Err(MoveError::Illegal(_))
    ));
}

#[test]
fn a_removal_that_opens_both_paths_loses() {
    // Removing b2 empties file b (red's path) and rank 2 (blue's path).
    let position = fen("r1bb/r1bb/1r2/r1bb r");
    assert_eq!(position.outcome(), None);
    assert_eq!(engine_move_texts(&position), vec!["a1", "a3", "a4", "b2"]);
    let mut after = position;
    after.play(legal(&position, "b2"));
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::P2)));
    assert_eq!(after.count_moves(), 0);
    // The other removals open nothing.
    for safe in ["a1", "a3", "a4"] {
        let mut after = position;
        after.play(legal(&position, safe));
        assert_eq!(after.outcome(), None, "{safe}");
    }
}

#[test]
fn a_capture_that_opens_only_the_movers_path_wins() {
    // a2 takes b2: file a becomes empty, a red path; rank 2 stays blocked by b2.
    let position = fen("1bbb/1bbb/rbbb/1bbb r");
    assert_eq!(engine_move_texts(&position), vec!["a2b2"]);
    let mut after = position;
    after.play(legal(&position, "a2b2"));
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::P1)));
    let mut moves = Vec::new();
    after.generate_moves(&mut moves);
    assert!(moves.is_empty());
    // The same for blue on its own axis: b1 takes b2 and rank 1 empties.
    let blue = fen("rrrr/rrrr/rrrr/1b2 b");
    assert_eq!(engine_move_texts(&blue), vec!["b1b2"]);
    let mut after = blue;
    after.play(legal(&blue, "b1b2"));
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::P2)));
}

#[test]
fn a_move_that_opens_only_the_opponents_path_loses() {
    // Blue's only piece b2 blocks red's file b; blue has no capture and must remove it.
    let position = fen("r1rr/r1rr/1b1r/r1rr b");
    assert_eq!(position.outcome(), None);
    assert_eq!(engine_move_texts(&position), vec!["b2"]);
    let mut after = position;
    after.play(legal(&position, "b2"));
    // File b is empty: red's path. Rank 2 ends at d2, red: no blue path.
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::P1)));
}

#[test]
fn a_side_without_pieces_loses() {
    let position = fen("bbbb/bbbb/bbbb/bbb1 r");
    assert_eq!(position.outcome(), Some(Outcome::Win(Player::P2)));
    assert_eq!(position.count_moves(), 0);
    assert!(matches!(
        position.legal_move("a1"),
        Err(MoveError::GameOver(_))
    ));
}

#[test]
fn a_fen_with_paths_is_judged_with_the_side_not_to_move_as_mover() {
    // Both paths exist; red to move, so blue moved last and loses.
    let both = fen("b1bb/4/b1bb/b1bb r");
    assert_eq!(both.outcome(), Some(Outcome::Win(Player::P1)));
    let both = fen("b1bb/4/b1bb/b1bb b");
    assert_eq!(both.outcome(), Some(Outcome::Win(Player::P2)));
    // Only red's path (file b), blue to move: red moved last and wins.
    let red_only = fen("r1rr/r1rr/r1rr/r1rr b");
    assert_eq!(red_only.outcome(), Some(Outcome::Win(Player::P1)));
}

#[test]
fn bad_fens_are_errors() {
    for bad in [
        "",
        "rbrb/brbr/rbrb/brbr",
        "rbrb/brbr/rbrb/brbr x",
        "rbrb/brbr/rbrb/brbr r -1",
        "rbrb/brbr/rbrb/brbr r 1 2",
        "rbr/brb/rbr r",
        "rbrbr/brbrb/rbrbr/brbrb/rbrbr r",
        "rbrb/brbr/rbrb r",
        "rbrb/brbr/rbrb/brb r",
        "rbrb/brbr/rbrb/brbw r",
        "12/12/12/12/12/12/12/12/12/12/12/12 r",
        "rb/br r",
        "///// r",
        "0rbr/brbr/rbrb/brbr r",
    ] {
        assert!(
            Talpa::from_fen(&config(8), bad).is_err(),
            "{bad:?} accepted"
        );
    }
    // A FEN may choose another size than the option.
    let six = Talpa::from_fen(&config(8), "6/6/6/6/6/rbrbrb b 3").unwrap();
    assert_eq!(six.size(), 6);
    assert_eq!(six.plies(), 3);
    assert_eq!(six.side_to_move(), Player::P2);
}

#[test]
fn bad_move_texts_are_errors() {
    let position = start(4);
    for bad in [
        "", "a", "a0", "e1", "a5", "a1a", "a1e1", "a1b1c1", "A1", "a1 ", "a01", "1a", "a1-b1",
        "z99", "a100",
    ] {
        assert!(
            matches!(position.parse_move(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
    }
    // Well formed but not legal: not adjacent, not an enemy, a removal while captures exist.
    for illegal in ["a4c4", "a4b4x", "a4a2", "b4c4", "a4", "a1b1"] {
        assert!(position.legal_move(illegal).is_err(), "{illegal}");
    }
    assert_eq!(position.format_move(legal(&position, "a4b4")), "a4b4");
    let ten = start(10);
    assert_eq!(ten.format_move(legal(&ten, "a10b10")), "a10b10");
    assert_eq!(ten.format_move(legal(&ten, "j9j10")), "j9j10");
}

#[test]
fn equal_positions_have_equal_hashes() {
    // Two move orders to the same position.
    let position = start(4);
    let mut a = position;
    for mv in ["a4b4", "c1d1", "b3a3", "d2c2"] {
        a.play(legal(&a, mv));
    }
    let mut b = position;
    for mv in ["b3a3", "d2c2", "a4b4", "c1d1"] {
        b.play(legal(&b, mv));
    }
    assert_eq!(a.fen(), b.fen());
    assert_eq!(a.hash(), b.hash());
    // The side to move is part of the hash.
    let red = fen("r1bb/r1bb/1r2/r1bb r");
    let blue = fen("r1bb/r1bb/1r2/r1bb b");
    assert_ne!(red.hash(), blue.hash());
}

#[test]
fn separation_counts_the_pieces_between_the_edges() {
    use tabuleiro::games::talpa::{UNREACHABLE, safe_removals, separation};
    let full = start(8);
    assert_eq!(separation(&full, Player::P1, 1), 8);
    assert_eq!(separation(&full, Player::P2, 1), 8);
    assert_eq!(separation(&full, Player::P1, 2), 12);
    // b2 alone separates both sides.
    let position = fen("r1bb/r1bb/1r2/r1bb r");
    assert_eq!(separation(&position, Player::P1, 1), 1);
    assert_eq!(separation(&position, Player::P2, 1), 1);
    // With red pieces as walls, blue cannot leave a2.
    assert_eq!(separation(&position, Player::P2, 0), UNREACHABLE);
    assert_eq!(separation(&position, Player::P1, 0), 1);
    // Red's removals: b2 opens blue's path, a1, a3 and a4 are safe, none wins.
    assert_eq!(safe_removals(&position, Player::P1), (3, false));
    // A path that exists costs nothing.
    let open = fen("r1rr/r1rr/r1rr/r1rr b");
    assert_eq!(separation(&open, Player::P1, 1), 0);
    // Blue's only removal opens red's file b: not safe.
    let forced = fen("r1rr/r1rr/1b1r/r1rr b");
    assert_eq!(safe_removals(&forced, Player::P2), (0, false));
    // Red removing b2... is red's own win in the mirrored case.
    let winning = fen("b1bb/b1bb/1r1b/b1bb r");
    assert_eq!(safe_removals(&winning, Player::P1), (1, true));
}
