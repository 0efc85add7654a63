//! Neutreeko against the rulebook (SPEC §2, perft in §3): perft at a win, game ends
//! and FEN errors. Random games and random placements through every invariant (with
//! the naive rules of `tests/common/naive/neutreeko.rs`) are in the shared suite
//! (`tests/invariants.rs`).

#[path = "common/naive.rs"]
mod naive;

use naive::{Naive, engine_move_texts};
use tabuleiro::game::{
    FenError, Game, MoveError, OptionError, OptionSpec, Outcome, Params, Player, Record,
};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::perft::{perft, perft_full};
use tabuleiro::rng::Xorshift;

const START_FEN: &str = "1w1w1/2b2/5/2w2/1b1b1 b";

fn fen(text: &str) -> Neutreeko {
    Neutreeko::from_fen(&(), text).unwrap_or_else(|e| panic!("{text}: {e}"))
}

fn moves_of(state: &Neutreeko) -> Vec<<Neutreeko as Game>::Move> {
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    moves
}

// ---------------------------------------------------------------------------------
// Perft

// The pinned counts are in tests/data/perft.txt, checked by tests/perft.rs.

#[test]
fn perft_stops_at_a_win() {
    // Black wins with c3c1 (b1 c1 d1); sequences through it end there.
    let state = fen("w3w/5/2b2/5/1b1bw b 10");
    let win = state.legal_move("c3c1").unwrap();
    let mut after = state;
    after.play(win);
    assert_eq!(perft(&after, 1), 0);
    assert_eq!(perft_full(&after, 3), 0);
    let naive = Naive::from_fen("w3w/5/2b2/5/1b1bw b");
    for depth in 1..=4 {
        let expected = naive::perft(&naive, depth);
        assert_eq!(perft(&state, depth), expected, "depth {depth}");
        assert_eq!(perft_full(&state, depth), expected, "depth {depth}");
    }
}

// ---------------------------------------------------------------------------------
// Notation

#[test]
fn move_texts_that_are_not_moves_are_errors() {
    let state = Neutreeko::start(&());
    for bad in [
        "", "b1", "b1b", "b1b44", "f1f2", "a0a1", "a6a1", "B1B4", "b1-b4", " b1b4",
    ] {
        assert!(
            matches!(state.parse_move(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
        assert!(state.legal_move(bad).is_err(), "{bad:?}");
    }
    // Well formed but not a slide as far as it goes, an empty or enemy square, no move.
    for illegal in ["b1b2", "b1b3", "a1a2", "b5b4", "c4c4", "b1e4"] {
        assert!(
            matches!(state.legal_move(illegal), Err(MoveError::Illegal(_))),
            "{illegal:?}"
        );
    }
}

#[test]
fn start_position_has_the_spec_moves() {
    let state = Neutreeko::start(&());
    assert_eq!(state.fen(), format!("{START_FEN} 0"));
    assert_eq!(fen(START_FEN), state);
    // b1: a1, a2, up to b4 (b5 is white), c1 (d1 is black); d1 the mirror image;
    // c4: c5, c3 (c2 is white), a4, e4, a2, e2 (b5 and d5 block the upper diagonals).
    let expected = [
        "b1a1", "b1a2", "b1b4", "b1c1", "c4a2", "c4a4", "c4c3", "c4c5", "c4e2", "c4e4", "d1c1",
        "d1d4", "d1e1", "d1e2",
    ];
    assert_eq!(engine_move_texts(&state), expected);
    assert_eq!(naive::sorted_move_texts(&Naive::start()), expected);
}

// ---------------------------------------------------------------------------------
// The end of the game

#[test]
fn a_win_ends_move_generation() {
    let state = fen("w3w/5/2b2/5/1b1bw b 10");
    let mut record = Record::new(state);
    let win = record.play_text("c3c1").unwrap();
    assert_eq!(state.format_move(win), "c3c1");
    let after = *record.state();
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(record.outcome(), Some(Outcome::Win(Player::P1)));
    assert!(moves_of(&after).is_empty());
    assert_eq!(after.count_moves(), 0);
    assert!(record.legal_moves().is_empty());
    // White's pieces could still slide, but the game is over.
    assert!(matches!(
        after.legal_move("a5a1"),
        Err(MoveError::GameOver(_))
    ));
    assert!(matches!(
        record.play_text("a5a1"),
        Err(MoveError::GameOver(_))
    ));
    // Diagonal and vertical lines win too; a gap or a mixed line does not.
    assert_eq!(
        fen("5/5/2b2/1b3/b1www w").outcome(),
        Some(Outcome::Win(Player::P1))
    );
    assert_eq!(
        fen("w4/w4/w4/5/b1b1b b").outcome(),
        Some(Outcome::Win(Player::P2))
    );
    assert_eq!(fen("w4/w4/1w3/5/b1b1b b").outcome(), None);
    assert_eq!(fen("5/5/b1b1b/5/w1w1w b").outcome(), None);
}

/// Black b1b4 and back, white d5d2 and back: four plies that return to the start.
const CYCLE: [&str; 4] = ["b1b4", "d5d2", "b4b1", "d2d5"];

#[test]
fn threefold_repetition_counts_the_start_and_draws_on_the_third() {
    let mut record = Record::new(Neutreeko::start(&()));
    assert_eq!(record.occurrences(), 1);
    for (ply, text) in CYCLE.iter().cycle().take(8).enumerate() {
        assert_eq!(record.outcome(), None, "over before ply {}", ply + 1);
        record.play_text(text).unwrap();
    }
    assert_eq!(record.state().fen(), format!("{START_FEN} 8"));
    assert_eq!(record.occurrences(), 3);
    assert_eq!(record.outcome(), Some(Outcome::Draw));
    assert!(record.legal_moves().is_empty());
    assert!(matches!(
        record.play_text("b1b4"),
        Err(MoveError::GameOver(_))
    ));
    // The state alone knows nothing of repetition.
    assert_eq!(record.state().outcome(), None);
    assert!(!moves_of(record.state()).is_empty());
}

#[test]
fn repetition_counts_a_fen_start_as_the_first_occurrence() {
    // Same cycle, but the record starts from a FEN with a ply count: the ply count
    // does not make positions different.
    let start = fen("1w1w1/2b2/5/2w2/1b1b1 b 40");
    let mut record = Record::new(start);
    for text in CYCLE.iter().cycle().take(7) {
        record.play_text(text).unwrap();
    }
    assert_eq!(record.outcome(), None);
    // The position after b4b1 has occurred at plies 3 and 7.
    assert_eq!(record.occurrences(), 2);
    record.play_text("d2d5").unwrap();
    assert_eq!(record.outcome(), Some(Outcome::Draw));
    // Position after ply 1 (b1b4) occurred at plies 1 and 5: twice is not a draw.
    let mut record = Record::new(start);
    for text in CYCLE.iter().cycle().take(5) {
        record.play_text(text).unwrap();
    }
    assert_eq!(record.occurrences(), 2);
    assert_eq!(record.outcome(), None);
}

/// Neutreeko whose hash sees only the side to move, so that every other position
/// "repeats" for [`Record`]. A won Neutreeko position can never be a third occurrence
/// (the first would have ended the game), so this is how to see that the win check
/// comes before the repetition check.
#[derive(Clone, Copy, Debug)]
struct SideOnlyHash(Neutreeko);

impl Game for SideOnlyHash {
    type Move = <Neutreeko as Game>::Move;
    type Config = ();
    const NAME: &'static str = "side-only-hash";
    const SIDE_LETTERS: [&'static str; 2] = Neutreeko::SIDE_LETTERS;

    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }
    fn config(_params: &Params) -> Result<(), OptionError> {
        Ok(())
    }
    fn start(config: &()) -> Self {
        SideOnlyHash(Neutreeko::start(config))
    }
    fn from_fen(config: &(), fen: &str) -> Result<Self, FenError> {
        Neutreeko::from_fen(config, fen).map(SideOnlyHash)
    }
    fn board(&self) -> Vec<Vec<Option<char>>> {
        self.0.board()
    }
    fn side_to_move(&self) -> Player {
        self.0.side_to_move()
    }
    fn plies(&self) -> u32 {
        self.0.plies()
    }
    fn generate_moves(&self, moves: &mut Vec<Self::Move>) {
        self.0.generate_moves(moves)
    }
    fn play(&mut self, mv: Self::Move) {
        self.0.play(mv)
    }
    fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
    }
    fn hash(&self) -> u64 {
        self.0.side_to_move().index() as u64
    }
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        self.0.parse_move(text)
    }
    fn format_move(&self, mv: Self::Move) -> String {
        self.0.format_move(mv)
    }
    fn repetition_rule(&self) -> bool {
        true
    }
}

#[test]
fn the_win_check_comes_before_the_repetition_check() {
    // White to move first, so that "white to move" occurs at plies 0, 2 and 4 and
    // black's move at ply 4 makes its third occurrence by this hash.
    // Black b1, d1, a3; white a5, e5, d3.
    let start = SideOnlyHash::from_fen(&(), "w3w/5/b2w1/5/1b1b1 w").unwrap();
    let opening = ["a5a4", "a3c3", "e5a5"];

    // A quiet fourth ply: the third occurrence is a draw.
    let mut record = Record::new(start);
    for text in opening {
        record.play_text(text).unwrap();
        assert_eq!(record.outcome(), None, "after {text}");
    }
    record.play_text("b1a1").unwrap();
    assert_eq!(record.occurrences(), 3);
    assert_eq!(record.outcome(), Some(Outcome::Draw));

    // c3c1 makes b1 c1 d1 on that same third occurrence: the win counts.
    let mut record = Record::new(start);
    for text in opening {
        record.play_text(text).unwrap();
    }
    record.play_text("c3c1").unwrap();
    assert_eq!(record.occurrences(), 3);
    assert_eq!(record.outcome(), Some(Outcome::Win(Player::P1)));
}

// ---------------------------------------------------------------------------------
// FEN errors

#[test]
fn bad_fens_are_errors_not_panics() {
    for bad in [
        // Sizes.
        "",
        " ",
        "b",
        "1w1w1/2b2/5/2w2 b",
        "1w1w1/2b2/5/2w2/1b1b1/5 b",
        "1w1w1/2b2/5/2w2/1b1b b",
        "1w1w1/2b2/5/2w2/1b1b11 b",
        "1w1w1/2b3/5/2w2/1b1b1 b",
        "1w1w/2b2/5/2w2/1b1b1 b",
        "6/6/6/6/6 b",
        "4/4/4/4/4 b",
        "1w1w1/2b2/5/2w2/1b1b1/ b",
        "/1w1w1/2b2/5/2w2/1b1b1 b",
        "1w1w1//2b2/5/2w2/1b1b1 b",
        "1w1w1/2b2/99999999999999999999/2w2/1b1b1 b",
        // Piece counts.
        "5/5/5/5/5 b",
        "1w1w1/2b2/5/5/1b1b1 b",
        "1w1w1/2b2/5/2w2/1b3 b",
        "1w1w1/2b2/5/2w2/bbbb1 b",
        "ww1ww/2b2/5/5/1b1b1 w",
        // Letters.
        "1w1w1/2b2/5/2x2/1b1b1 b",
        "1W1W1/2B2/5/2W2/1B1B1 b",
        "1w1w1/2b2/5/2w2/1b1b1 x",
        "1w1w1/2b2/5/2w2/1b1b1 B",
        "1w1w1/2b2/5/2w2/1b1b1 bw",
        "1w1w1/2b2/5/2w2/1b1b1 white",
        "1w1w1/2b2/5/2w2/1b1b1 1",
        // Missing side, ply counts, extra fields.
        "1w1w1/2b2/5/2w2/1b1b1",
        "1w1w1/2b2/5/2w2/1b1b1 b -1",
        "1w1w1/2b2/5/2w2/1b1b1 b x",
        "1w1w1/2b2/5/2w2/1b1b1 b 1.5",
        "1w1w1/2b2/5/2w2/1b1b1 b 99999999999999999999",
        "1w1w1/2b2/5/2w2/1b1b1 b 4294967296",
        "1w1w1/2b2/5/2w2/1b1b1 b 3 4",
        "1w1w1/2b2/5/2w2/1b1b1 b 0 moves b1b4",
        "startpos",
        "1w1w1/2b2/5/2w2/1b1b1 b é",
        "1w1w1/2b2/5/2w2/1é1b1 b",
    ] {
        assert!(Neutreeko::from_fen(&(), bad).is_err(), "{bad:?} accepted");
    }
    // Accepted: a ply count up to u32::MAX, any whitespace.
    assert_eq!(fen("1w1w1/2b2/5/2w2/1b1b1 b 4294967295").plies(), u32::MAX);
    assert_eq!(fen("  1w1w1/2b2/5/2w2/1b1b1\tw  3 ").plies(), 3);
}

#[test]
fn mangled_fens_never_panic() {
    // Random edits of valid FENs: every result is either an error or a position
    // whose FEN reads back as itself.
    let alphabet: Vec<char> = "bw0123456789/ -xBW".chars().collect();
    let mut rng = Xorshift::new(0xdead_beef_cafe_f00d);
    let seeds = [
        "1w1w1/2b2/5/2w2/1b1b1 b 0",
        "w3w/5/2b2/5/1b1bw b 10",
        "5/1bw1b/5/5/b2ww b 17",
    ];
    let mut accepted = 0;
    for _ in 0..20_000 {
        let mut chars: Vec<char> = seeds[rng.index(seeds.len())].chars().collect();
        for _ in 0..1 + rng.index(3) {
            let at = rng.index(chars.len() + 1);
            match rng.index(3) {
                0 if at < chars.len() => {
                    chars.remove(at);
                }
                1 if at < chars.len() => chars[at] = alphabet[rng.index(alphabet.len())],
                _ => chars.insert(at, alphabet[rng.index(alphabet.len())]),
            }
        }
        let text: String = chars.into_iter().collect();
        if let Ok(state) = Neutreeko::from_fen(&(), &text) {
            accepted += 1;
            assert_eq!(fen(&state.fen()), state, "{text}");
            assert_eq!(state.pieces(Player::P1).count_ones(), 3, "{text}");
            assert_eq!(state.pieces(Player::P2).count_ones(), 3, "{text}");
        }
    }
    assert!(accepted > 0);
}
