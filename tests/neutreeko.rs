//! Neutreeko against the rulebook (SPEC §2, perft in §3): perft at a win, random games
//! through every invariant (with the naive rules of `tests/common/naive/neutreeko.rs`),
//! game ends and FEN errors.

#[path = "common/naive.rs"]
mod naive;

use std::collections::HashMap;

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

/// The board and side of a FEN, without the ply count.
fn board_and_side(fen: &str) -> String {
    fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ")
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
// Random games through every invariant

/// Checks one position against the invariants (and against the naive rules).
fn check_position(state: &Neutreeko, hashes: &mut HashMap<String, u64>) {
    // FEN round trip, with and without the ply count.
    let text = state.fen();
    let back = fen(&text);
    assert_eq!(&back, state, "{text}");
    assert_eq!(back.fen(), text);
    let short = board_and_side(&text);
    let no_plies = fen(&short);
    assert_eq!(no_plies.plies(), 0);
    assert_eq!(
        no_plies.hash(),
        state.hash(),
        "the hash ignores the ply count"
    );

    // Hashes: incremental equals from scratch; equal positions, equal hashes;
    // different positions, different hashes.
    assert_eq!(state.hash(), state.hash_from_scratch(), "{text}");
    let known = *hashes.entry(short.clone()).or_insert(state.hash());
    assert_eq!(known, state.hash(), "{text}");

    // Move texts: every generated move prints, parses and checks legal as itself.
    let moves = moves_of(state);
    for &mv in &moves {
        let text = state.format_move(mv);
        assert_eq!(state.parse_move(&text), Ok(mv), "{text}");
        assert_eq!(state.legal_move(&text), Ok(mv), "{text}");
    }
    assert_eq!(state.count_moves(), moves.len() as u64);

    // The naive generator agrees on the move set and on the end of the game.
    let naive = Naive::from_fen(&text);
    assert_eq!(naive.fen(), short);
    assert_eq!(
        engine_move_texts(state),
        naive::sorted_move_texts(&naive),
        "{text}"
    );
    let expected = match naive.winner() {
        Some('b') => Some(Outcome::Win(Player::P1)),
        Some(_) => Some(Outcome::Win(Player::P2)),
        // A side to move without a move loses (SPEC §2).
        None if naive.moves().is_empty() => Some(Outcome::Win(state.side_to_move().other())),
        None => None,
    };
    assert_eq!(state.outcome(), expected, "{text}");
}

#[test]
fn random_games_keep_every_invariant() {
    let mut rng = Xorshift::new(0x2545_f491_4f6c_dd1d);
    let mut hashes: HashMap<String, u64> = HashMap::new();
    let mut endings = [0usize; 3]; // wins, repetition draws, cut off
    for _ in 0..1_000 {
        let mut record = Record::new(Neutreeko::start(&()));
        loop {
            let state = *record.state();
            check_position(&state, &mut hashes);
            if let Some(outcome) = record.outcome() {
                match outcome {
                    Outcome::Win(_) => endings[0] += 1,
                    Outcome::Draw => {
                        // Only repetition draws Neutreeko, on exactly the third time.
                        assert_eq!(state.outcome(), None);
                        assert_eq!(record.occurrences(), 3);
                        endings[1] += 1;
                    }
                }
                assert!(record.legal_moves().is_empty());
                break;
            }
            assert!(record.occurrences() <= 2);
            if state.plies() >= 100 {
                endings[2] += 1;
                break;
            }
            let moves = record.legal_moves();
            let mut mv = moves[rng.index(moves.len())];
            // Now and then slide back the piece this side moved last, so that games
            // also run into repetitions.
            let ply = record.moves().len();
            if ply >= 2 && rng.index(3) == 0 {
                let last = record.moves()[ply - 2];
                if let Some(&back) = moves
                    .iter()
                    .find(|m| m.from == last.to && m.to == last.from)
                {
                    mv = back;
                }
            }
            let text = state.format_move(mv);
            assert_eq!(record.play_text(&text), Ok(mv));
            assert_eq!(record.state().plies(), state.plies() + 1);
            assert_eq!(record.state().side_to_move(), state.side_to_move().other());
        }
    }
    // The games must actually reach the ends being tested.
    assert!(endings[0] > 300, "{endings:?}");
    assert!(endings[1] > 50, "{endings:?}");
    // Distinct positions have distinct hashes (the hash is a bijective mix).
    let mut seen: HashMap<u64, &String> = HashMap::new();
    for (position, hash) in &hashes {
        if let Some(other) = seen.insert(*hash, position) {
            panic!("{position} and {other} share a hash");
        }
    }
    assert!(hashes.len() > 10_000, "{} positions", hashes.len());
}

#[test]
fn random_positions_agree_with_the_naive_generator() {
    // Positions no game from the start may reach quickly: any 3 + 3 placement.
    let mut rng = Xorshift::new(0x9e37_79b9_7f4a_7c15);
    let mut hashes = HashMap::new();
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
        let naive = Naive { board, side };
        let state = fen(&format!("{} {}", naive.fen(), rng.index(100)));
        check_position(&state, &mut hashes);
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
