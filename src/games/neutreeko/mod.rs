//! Neutreeko (`neutreeko`).
//!
//! Rules (SPEC §2):
//! - 5×5 board; black `b` (p1) and white `w` (p2) have three pieces each. Start: black
//!   on b1, d1, c4; white on b5, d5, c2; black moves first.
//! - A move (`b1b4`) slides one piece in one of the 8 directions as far as it can go:
//!   until the next square is occupied or off the board, at least one square.
//! - The mover wins with its three pieces adjacent in a row, column or diagonal.
//! - Threefold repetition is a draw. A side to move with no legal move loses.
//!
//! Perfect play: [`tablebase`] solves the whole game in memory (under a second) on a
//! background thread once the engine asks for it; `probe` and `probe_root` answer from it
//! when it is ready and the `Tablebase` option is on.
//!
//! Representation: one 25-bit bitboard per colour, square index `rank * 5 + file`
//! (`a1` = 0, `e5` = 24). The hash is a mix of both bitboards and the side to move,
//! so it is the same however the position was reached.

mod eval;
pub mod oracle;
pub mod tablebase;

use crate::search::Strategy;
pub use eval::{NeutreekoEval, SQUARE_CLASS};
pub use oracle::NeutreekoOracle;

use std::sync::OnceLock;

use crate::game::grid::DIRECTIONS;
use crate::game::look::{Colour, Look, piece};
use crate::game::notation::rows_of;
use crate::game::split_fen;
use crate::game::{
    FenError, Game, MoveCode, MoveError, OptionError, OptionSpec, Outcome, Params, Player,
    parse_fen_board, read_square, square_name,
};
use crate::hash::mix;

/// Board side length.
pub const SIZE: usize = 5;
/// Number of squares.
pub const SQUARES: usize = SIZE * SIZE;

/// A slide of one piece from `from` to `to` (square indices).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move {
    pub from: u8,
    pub to: u8,
}

impl MoveCode for Move {
    fn code(self) -> u32 {
        u32::from(self.from) << 8 | u32::from(self.to)
    }
}

/// A Neutreeko position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Neutreeko {
    /// Pieces of each player: `[black, white]`.
    pieces: [u32; 2],
    side: Player,
    plies: u32,
}

/// Precomputed geometry: rays and the 48 lines of three adjacent squares.
pub(crate) struct Tables {
    /// `rays[square][direction]`: the squares met walking from `square`, in order.
    rays: [[Vec<u8>; 8]; SQUARES],
    /// Every set of three adjacent squares in a row, column or diagonal.
    pub(crate) lines: Vec<u32>,
}

pub(crate) fn tables() -> &'static Tables {
    // Immutable once built: a pure function of nothing, computed on first use and
    // shared by every engine and thread (no state that could differ between them).
    static TABLES: OnceLock<Tables> = OnceLock::new();
    TABLES.get_or_init(|| {
        let rays = std::array::from_fn(|square| {
            std::array::from_fn(|direction| {
                let (df, dr) = DIRECTIONS[direction];
                let (mut f, mut r) = ((square % SIZE) as i32, (square / SIZE) as i32);
                let mut ray = Vec::new();
                loop {
                    f += df;
                    r += dr;
                    if !(0..SIZE as i32).contains(&f) || !(0..SIZE as i32).contains(&r) {
                        break;
                    }
                    ray.push((r * SIZE as i32 + f) as u8);
                }
                ray
            })
        });
        let mut lines = Vec::new();
        for square in 0..SQUARES {
            // Lines are generated from their first square in 4 directions.
            for &(df, dr) in &[(1, 0), (0, 1), (1, 1), (1, -1)] {
                let (f, r) = ((square % SIZE) as i32, (square / SIZE) as i32);
                let (f2, r2) = (f + 2 * df, r + 2 * dr);
                if (0..SIZE as i32).contains(&f2) && (0..SIZE as i32).contains(&r2) {
                    let mut mask = 0u32;
                    for k in 0..3 {
                        mask |= 1 << ((r + k * dr) * SIZE as i32 + f + k * df);
                    }
                    lines.push(mask);
                }
            }
        }
        Tables { rays, lines }
    })
}

/// Whether three pieces stand adjacent in a line.
pub fn is_three_in_a_row(pieces: u32) -> bool {
    tables().lines.iter().any(|&line| line & !pieces == 0)
}

impl Neutreeko {
    /// The pieces of `player` as a bitboard.
    pub fn pieces(&self, player: Player) -> u32 {
        self.pieces[player.index()]
    }

    fn occupied(&self) -> u32 {
        self.pieces[0] | self.pieces[1]
    }

    /// Builds a position from bitboards (for the tablebase and tests).
    pub fn from_parts(black: u32, white: u32, side: Player, plies: u32) -> Self {
        Neutreeko {
            pieces: [black, white],
            side,
            plies,
        }
    }

    /// The destination of a slide from `from` in `direction`, if it moves at all.
    fn slide(&self, from: usize, direction: usize) -> Option<u8> {
        let occupied = self.occupied();
        let mut last = None;
        for &square in &tables().rays[from][direction] {
            if occupied & (1 << square) != 0 {
                break;
            }
            last = Some(square);
        }
        last
    }

    /// Every square a piece on `from` can slide to.
    pub fn destinations(&self, from: usize) -> impl Iterator<Item = u8> + '_ {
        (0..8).filter_map(move |direction| self.slide(from, direction))
    }
}

impl Game for Neutreeko {
    type Move = Move;
    type Config = ();

    const NAME: &'static str = "neutreeko";
    const SIDE_LETTERS: [&'static str; 2] = ["b", "w"];
    const LOOK: Look = Look {
        sides: ["black", "white"],
        pieces: &[
            piece('b', '●', Colour::Yellow, "black"),
            piece('w', '○', Colour::White, "white"),
        ],
        numbered_columns: false,
        named_ranks: true,
        rules: "A move slides a piece as far as it goes in one of 8 directions: b1b4 is from b1\n\
                to b4. Get your three pieces adjacent in a row, column or diagonal to win.",
    };

    fn option_specs() -> &'static [OptionSpec] {
        &[]
    }

    fn config(_params: &Params) -> Result<(), OptionError> {
        Ok(())
    }

    fn start(_config: &()) -> Self {
        let bit = |name: &str| match read_square(name) {
            Some((file, rank, _)) => 1u32 << (rank * SIZE + file),
            None => unreachable!("start squares are constants"),
        };
        Neutreeko {
            pieces: [
                bit("b1") | bit("d1") | bit("c4"),
                bit("b5") | bit("d5") | bit("c2"),
            ],
            side: Player::P1,
            plies: 0,
        }
    }

    fn from_fen(_config: &(), fen: &str) -> Result<Self, FenError> {
        let (board, side, plies) = split_fen(fen, Self::SIDE_LETTERS)?;
        let rows = parse_fen_board(board, "bw")?;
        if rows.len() != SIZE || rows[0].len() != SIZE {
            return Err(FenError::Invalid(format!(
                "the board is {}x{}, Neutreeko is played on 5x5",
                rows[0].len(),
                rows.len()
            )));
        }
        let mut pieces = [0u32; 2];
        for (index, row) in rows.iter().enumerate() {
            let rank = SIZE - 1 - index;
            for (file, cell) in row.iter().enumerate() {
                match cell {
                    Some('b') => pieces[0] |= 1 << (rank * SIZE + file),
                    Some('w') => pieces[1] |= 1 << (rank * SIZE + file),
                    _ => {}
                }
            }
        }
        for (player, name) in [(0, "black"), (1, "white")] {
            let count = pieces[player].count_ones();
            if count != 3 {
                return Err(FenError::Invalid(format!(
                    "{name} has {count} pieces, not 3"
                )));
            }
        }
        Ok(Neutreeko {
            pieces,
            side,
            plies,
        })
    }

    fn board(&self) -> Vec<Vec<Option<char>>> {
        rows_of(SIZE, SIZE, |file, rank| {
            let bit = 1 << (rank * SIZE + file);
            if self.pieces[0] & bit != 0 {
                Some('b')
            } else if self.pieces[1] & bit != 0 {
                Some('w')
            } else {
                None
            }
        })
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.outcome().is_some() {
            return;
        }
        let mut own = self.pieces[self.side.index()];
        while own != 0 {
            let from = own.trailing_zeros() as usize;
            own &= own - 1;
            for to in self.destinations(from) {
                moves.push(Move {
                    from: from as u8,
                    to,
                });
            }
        }
    }

    fn play(&mut self, mv: Move) {
        let own = &mut self.pieces[self.side.index()];
        *own = (*own & !(1 << mv.from)) | (1 << mv.to);
        self.side = self.side.other();
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        let mover = self.side.other();
        if is_three_in_a_row(self.pieces[mover.index()]) {
            return Some(Outcome::Win(mover));
        }
        if is_three_in_a_row(self.pieces[self.side.index()]) {
            return Some(Outcome::Win(self.side));
        }
        // A side to move that cannot slide any piece loses (never happens in play).
        let mut own = self.pieces[self.side.index()];
        while own != 0 {
            let from = own.trailing_zeros() as usize;
            own &= own - 1;
            if self.destinations(from).next().is_some() {
                return None;
            }
        }
        Some(Outcome::Win(mover))
    }

    fn hash(&self) -> u64 {
        let side = match self.side {
            Player::P1 => 0u64,
            Player::P2 => 1u64,
        };
        mix(u64::from(self.pieces[0]) | u64::from(self.pieces[1]) << 25 | side << 50)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let (f1, r1, used) = read_square(text).ok_or_else(syntax)?;
        let (f2, r2, used2) = read_square(&text[used..]).ok_or_else(syntax)?;
        if used + used2 != text.len() || f1.max(f2) >= SIZE || r1.max(r2) >= SIZE {
            return Err(syntax());
        }
        Ok(Move {
            from: (r1 * SIZE + f1) as u8,
            to: (r2 * SIZE + f2) as u8,
        })
    }

    fn format_move(&self, mv: Move) -> String {
        let name = |square: u8| square_name(square as usize % SIZE, square as usize / SIZE);
        format!("{}{}", name(mv.from), name(mv.to))
    }

    fn repetition_rule(&self) -> bool {
        true
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        let mut own = self.pieces[self.side.index()];
        let mut count = 0;
        while own != 0 {
            let from = own.trailing_zeros() as usize;
            own &= own - 1;
            count += self.destinations(from).count() as u64;
        }
        count
    }
}

impl Strategy for Neutreeko {
    type Eval = NeutreekoEval;
    type Oracle = NeutreekoOracle;

    const BENCH_DEPTH: u32 = 10;

    fn engine_options() -> &'static [OptionSpec] {
        NeutreekoOracle::OPTIONS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn start() -> Neutreeko {
        Neutreeko::start(&())
    }

    #[test]
    fn start_position_matches_the_spec() {
        assert_eq!(start().fen(), "1w1w1/2b2/5/2w2/1b1b1 b 0");
        let mut moves = Vec::new();
        start().generate_moves(&mut moves);
        assert_eq!(moves.len(), 14);
        assert_eq!(tables().lines.len(), 48);
    }

    #[test]
    fn slides_go_as_far_as_they_can() {
        let position = start();
        let b1 = position.parse_move("b1b4").unwrap();
        assert!(position.legal_move("b1b4").is_ok());
        // b1 upwards: b2, b3, b4, then b5 is white: stops on b4, never b2 or b3.
        assert!(matches!(
            position.legal_move("b1b2"),
            Err(MoveError::Illegal(_))
        ));
        assert_eq!(position.format_move(b1), "b1b4");
        // c4 down is blocked at once by... c3 empty, c2 white: stops on c3.
        assert!(position.legal_move("c4c3").is_ok());
        assert!(matches!(
            position.parse_move("b1f1"),
            Err(MoveError::Syntax(_))
        ));
        assert!(matches!(
            position.parse_move("b1b4x"),
            Err(MoveError::Syntax(_))
        ));
    }

    #[test]
    fn three_adjacent_in_a_line_wins_for_the_mover() {
        // Black b1, d1 and a piece that slides to c1 from c4... c2 is white; use a FEN.
        let position = Neutreeko::from_fen(&(), "w3w/5/2b2/5/1b1bw b 10").unwrap();
        let mut after = position;
        // c3 slides down to c1 (c2 empty): b1 c1 d1.
        let mv = position.legal_move("c3c1").unwrap();
        after.play(mv);
        assert_eq!(after.outcome(), Some(Outcome::Win(Player::P1)));
        assert_eq!(after.count_moves(), 0);
        // Three in a row with a gap does not count.
        assert!(!is_three_in_a_row(0b10101));
        assert!(is_three_in_a_row(0b01110));
        // A row wrapping around the edge is not a line.
        assert!(!is_three_in_a_row((1 << 3) | (1 << 4) | (1 << 5)));
    }

    #[test]
    fn fen_errors() {
        for bad in [
            "",
            "1w1w1/2b2/5/2w2/1b1b1",
            "1w1w1/2b2/5/2w2/1b1b1 x",
            "1w1w1/2b2/5/2w2/1b1b b",
            "1w1w1/2b2/5/2w2/1b1bb b",
            "1w1w1/2b2/5/2w2/1b1b1/5 b",
            "1w1w1/2b2/5/2w2/1b1b1 b -3",
            "1w1w1/2b2/5/2w2/1b1b1 b 3 4",
        ] {
            assert!(Neutreeko::from_fen(&(), bad).is_err(), "{bad:?} accepted");
        }
        let position = Neutreeko::from_fen(&(), "1w1w1/2b2/5/2w2/1b1b1 w 7").unwrap();
        assert_eq!(position.side_to_move(), Player::P2);
        assert_eq!(position.plies(), 7);
    }
}
