//! Talpa (`talpa`).
//!
//! Rules (SPEC §2):
//! - A Size×Size board (Size even, 4–10; default 8), at the start full of pieces in a
//!   checkerboard with red `r` (p1) on the top-left corner. Red moves first.
//! - Capture `c3c4`: one of your pieces moves onto an orthogonally adjacent enemy piece,
//!   which is removed; the square it left becomes empty. Captures are compulsory.
//! - Removal `c3`: only when the side to move has no capture, it removes one of its own
//!   pieces.
//! - Paths are orthogonally connected empty squares. Red needs one touching the top and
//!   bottom ranks, blue one touching the left and right files.
//! - After every move: if the mover's opponent has a path, the mover loses (also when the
//!   mover has one too); otherwise, if the mover has a path, the mover wins. A side to
//!   move with no legal move (no pieces left) loses. No draws.
//!
//! Representation: one `u128` bitboard per colour, square index `rank * size + file`
//! (`a1` = 0). Every move empties exactly one square (the capturer's origin or the
//! removed piece) and never fills one, so the set of empty squares only grows and a
//! path that appears after a move runs through the square it emptied: the path test
//! after a move is a single flood fill from that square (see `Geometry::flood`). The outcome is
//! computed once in `play` and kept in the state; the hash is an incremental Zobrist
//! hash.
//!
//! Since captures go both ways (a red piece next to a blue one means both sides can
//! capture), the capture phase ends for both sides at the same moment: when no red
//! piece touches a blue one. From then on only removals are played.

mod eval;
mod oracle;
mod playout;
pub mod solve;

use crate::game::look::{Colour, Look, piece};
use crate::game::notation::rows_of;
use crate::game::split_fen;
use crate::game::{
    FenError, Game, MoveCode, MoveError, OptionError, OptionKind, OptionSpec, Outcome, Params,
    Player, parse_fen_board, read_square, square_name,
};
use crate::hash::SplitMix64;

use crate::search::{Method, Strategy};
pub use eval::{
    EvalParams, TalpaEval, UNREACHABLE, WIN_NOW, completing_squares, contact_separation, cut,
    evaluate_with, latent_wins, safe_captures, safe_removals, separation, separation_through,
};
pub use oracle::TalpaOracle;

/// Smallest board side.
pub const MIN_SIZE: usize = 4;
/// Largest board side (10×10 = 100 squares fits in a `u128`).
pub const MAX_SIZE: usize = 10;

/// A move of Talpa.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Move {
    /// A piece on `from` takes the orthogonally adjacent enemy piece on `to`.
    Capture { from: u8, to: u8 },
    /// The side to move removes its own piece from this square.
    Remove(u8),
}

impl MoveCode for Move {
    fn code(self) -> u32 {
        match self {
            Move::Capture { from, to } => 1 << 16 | u32::from(from) << 8 | u32::from(to),
            Move::Remove(square) => u32::from(square),
        }
    }
}

impl Move {
    /// The square this move empties.
    pub fn emptied(self) -> u8 {
        match self {
            Move::Capture { from, .. } => from,
            Move::Remove(square) => square,
        }
    }
}

/// The options: the board size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Config {
    pub size: usize,
}

/// Masks of one board size.
#[derive(Clone, Copy, Debug)]
pub struct Geometry {
    pub size: usize,
    /// Every square of the board.
    pub board: u128,
    /// The board without file `a`: where a step east may land.
    pub not_first_file: u128,
    /// The board without the last file: where a step west may land.
    pub not_last_file: u128,
    pub top: u128,
    pub bottom: u128,
    pub left: u128,
    pub right: u128,
}

const fn geometry(size: usize) -> Geometry {
    let mut board = 0u128;
    let mut left = 0u128;
    let mut right = 0u128;
    let mut rank = 0;
    while rank < size {
        left |= 1 << (rank * size);
        right |= 1 << (rank * size + size - 1);
        let mut file = 0;
        while file < size {
            board |= 1 << (rank * size + file);
            file += 1;
        }
        rank += 1;
    }
    let bottom = if size == 0 { 0 } else { (1u128 << size) - 1 };
    let top = if size == 0 {
        0
    } else {
        bottom << (size * (size - 1))
    };
    Geometry {
        size,
        board,
        not_first_file: board & !left,
        not_last_file: board & !right,
        top,
        bottom,
        left,
        right,
    }
}

const GEOMETRIES: [Geometry; MAX_SIZE + 1] = {
    let mut table = [geometry(0); MAX_SIZE + 1];
    let mut size = 0;
    while size <= MAX_SIZE {
        table[size] = geometry(size);
        size += 1;
    }
    table
};

impl Geometry {
    /// The masks of a board side (`MIN_SIZE..=MAX_SIZE`).
    pub fn of(size: usize) -> &'static Geometry {
        &GEOMETRIES[size]
    }

    /// Squares one step east of `b` (on the board).
    #[inline]
    pub fn east(&self, b: u128) -> u128 {
        (b << 1) & self.not_first_file
    }

    #[inline]
    pub fn west(&self, b: u128) -> u128 {
        (b >> 1) & self.not_last_file
    }

    #[inline]
    pub fn north(&self, b: u128) -> u128 {
        (b << self.size) & self.board
    }

    #[inline]
    pub fn south(&self, b: u128) -> u128 {
        b >> self.size
    }

    /// `b` and its orthogonal neighbours.
    #[inline]
    pub fn grow(&self, b: u128) -> u128 {
        b | self.east(b) | self.west(b) | self.north(b) | self.south(b)
    }

    /// The squares of `within` connected to `seeds ∩ within` through `within`.
    #[inline]
    pub fn flood(&self, seeds: u128, within: u128) -> u128 {
        let mut fill = seeds & within;
        loop {
            let next = self.grow(fill) & within;
            if next == fill {
                return fill;
            }
            fill = next;
        }
    }

    /// Whether the empty squares `empty` hold a path for `player` (red: top to bottom,
    /// blue: left to right).
    pub fn has_path(&self, empty: u128, player: Player) -> bool {
        let (from, to) = self.edges(player);
        self.flood(from, empty) & to != 0
    }

    /// The two edges `player` connects: (top, bottom) for red, (left, right) for blue.
    pub fn edges(&self, player: Player) -> (u128, u128) {
        match player {
            Player::P1 => (self.top, self.bottom),
            Player::P2 => (self.left, self.right),
        }
    }

    pub fn square_name(&self, square: u8) -> String {
        square_name(square as usize % self.size, square as usize / self.size)
    }
}

/// Zobrist keys: `[colour][square]`, and the side to move.
struct Keys {
    pieces: [[u64; 128]; 2],
    blue_to_move: u64,
}

const KEYS: Keys = {
    let mut keys = SplitMix64::new(0x7a1f_a000_0000_0001);
    let mut pieces = [[0u64; 128]; 2];
    let mut colour = 0;
    while colour < 2 {
        let mut square = 0;
        while square < 128 {
            pieces[colour][square] = keys.next_u64();
            square += 1;
        }
        colour += 1;
    }
    Keys {
        pieces,
        blue_to_move: keys.next_u64(),
    }
};

/// A Talpa position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Talpa {
    /// Pieces of each player: `[red, blue]`.
    pieces: [u128; 2],
    size: u8,
    side: Player,
    plies: u32,
    /// The outcome by the rules, decided when the position was made.
    result: Option<Outcome>,
    hash: u64,
}

impl Talpa {
    pub fn geometry(&self) -> &'static Geometry {
        Geometry::of(self.size as usize)
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }

    /// The pieces of `player` as a bitboard.
    pub fn pieces(&self, player: Player) -> u128 {
        self.pieces[player.index()]
    }

    /// The empty squares.
    pub fn empty(&self) -> u128 {
        self.geometry().board & !(self.pieces[0] | self.pieces[1])
    }

    /// Builds a position from bitboards; the outcome is judged with the side not to
    /// move as the last mover.
    pub fn from_parts(size: usize, red: u128, blue: u128, side: Player, plies: u32) -> Self {
        let board = Geometry::of(size).board;
        let mut position = Talpa {
            pieces: [red & board, blue & board & !red],
            size: size as u8,
            side,
            plies,
            result: None,
            hash: 0,
        };
        position.hash = position.compute_hash();
        position.result = position.judge(position.empty(), false);
        position
    }

    /// The outcome with the side not to move as the last mover, when any path must
    /// lie inside `region`: the whole empty set, or (`connected`) the one component of
    /// the square the last move emptied, where touching both edges is a path.
    fn judge(&self, region: u128, connected: bool) -> Option<Outcome> {
        let g = self.geometry();
        let to_move = self.side;
        let mover = to_move.other();
        let touches = |player: Player| {
            let (a, b) = g.edges(player);
            region & a != 0 && region & b != 0
        };
        // Quick tests first; the flood only when the region touches both edges.
        let connects = |player: Player| {
            if !touches(player) {
                return false;
            }
            if connected {
                return true;
            }
            let (a, b) = g.edges(player);
            g.flood(region & a, region) & b != 0
        };
        if connects(to_move) {
            Some(Outcome::Win(to_move))
        } else if connects(mover) {
            Some(Outcome::Win(mover))
        } else if self.pieces[to_move.index()] == 0 {
            // No pieces: no capture and nothing to remove.
            Some(Outcome::Win(mover))
        } else {
            None
        }
    }

    fn compute_hash(&self) -> u64 {
        let mut hash = match self.side {
            Player::P1 => 0,
            Player::P2 => KEYS.blue_to_move,
        };
        for colour in 0..2 {
            let mut bits = self.pieces[colour];
            while bits != 0 {
                let square = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                hash ^= KEYS.pieces[colour][square];
            }
        }
        hash
    }

    /// Calls `f(from, to)` for every capture of the side to move, direction by
    /// direction (north, south, east, west of the capturing piece).
    #[inline]
    fn for_each_capture(&self, mut f: impl FnMut(u8, u8)) {
        let g = self.geometry();
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.other().index()];
        let size = g.size as i16;
        for (targets, step) in [
            (g.north(own) & enemy, size),
            (g.south(own) & enemy, -size),
            (g.east(own) & enemy, 1),
            (g.west(own) & enemy, -1),
        ] {
            let mut bits = targets;
            while bits != 0 {
                let to = bits.trailing_zeros() as i16;
                bits &= bits - 1;
                f((to - step) as u8, to as u8);
            }
        }
    }

    /// The number of captures available to the side to move.
    pub fn capture_count(&self) -> u32 {
        let g = self.geometry();
        let own = self.pieces[self.side.index()];
        let enemy = self.pieces[self.side.other().index()];
        (g.north(own) & enemy).count_ones()
            + (g.south(own) & enemy).count_ones()
            + (g.east(own) & enemy).count_ones()
            + (g.west(own) & enemy).count_ones()
    }

    /// Whether any red piece touches a blue piece (then both sides have captures).
    pub fn in_capture_phase(&self) -> bool {
        let g = self.geometry();
        g.grow(self.pieces[0]) & self.pieces[1] != 0
    }

    fn cell(&self, rank: usize, file: usize) -> Option<char> {
        let bit = 1u128 << (rank * self.size() + file);
        if self.pieces[0] & bit != 0 {
            Some('r')
        } else if self.pieces[1] & bit != 0 {
            Some('b')
        } else {
            None
        }
    }
}

impl Game for Talpa {
    type Move = Move;
    type Config = Config;

    const NAME: &'static str = "talpa";
    const SIDE_LETTERS: [&'static str; 2] = ["r", "b"];
    const LOOK: Look = Look {
        sides: ["red", "blue"],
        pieces: &[
            piece('r', '●', Colour::Red, "red"),
            piece('b', '○', Colour::Blue, "blue"),
        ],
        numbered_columns: false,
        named_ranks: true,
        rules: "c3c4 captures the enemy piece on c4 with yours from c3 (captures are compulsory);\n\
                with no capture, c3 removes your own piece. Red wants an empty path top to bottom,\n\
                blue left to right; opening a path for your opponent loses.",
    };

    fn option_specs() -> &'static [OptionSpec] {
        &[OptionSpec {
            name: "Size",
            kind: OptionKind::Spin {
                min: MIN_SIZE as i64,
                max: MAX_SIZE as i64,
                default: 8,
            },
        }]
    }

    fn config(params: &Params) -> Result<Config, OptionError> {
        let size = params.spin("Size")?;
        if !(MIN_SIZE as i64..=MAX_SIZE as i64).contains(&size) {
            return Err(OptionError::Rejected(format!(
                "Size {size} is outside {MIN_SIZE}..{MAX_SIZE}"
            )));
        }
        if size % 2 != 0 {
            return Err(OptionError::Rejected(format!(
                "Size must be even (4, 6, 8 or 10), {size} is odd"
            )));
        }
        Ok(Config {
            size: size as usize,
        })
    }

    fn start(config: &Config) -> Self {
        let size = config.size;
        let g = Geometry::of(size);
        // Red on the top-left corner: square (rank size-1, file 0). With size even,
        // rank + file is odd there, so red holds the squares with rank + file odd.
        let mut red = 0u128;
        for rank in 0..size {
            for file in 0..size {
                if (rank + file) % 2 == 1 {
                    red |= 1 << (rank * size + file);
                }
            }
        }
        Talpa::from_parts(size, red, g.board & !red, Player::P1, 0)
    }

    fn from_fen(_config: &Config, fen: &str) -> Result<Self, FenError> {
        let (board, side, plies) = split_fen(fen, Self::SIDE_LETTERS)?;
        let rows = parse_fen_board(board, "rb")?;
        let (height, width) = (rows.len(), rows[0].len());
        if height != width {
            return Err(FenError::Invalid(format!(
                "the board is {width}x{height}, Talpa boards are square"
            )));
        }
        if !(MIN_SIZE..=MAX_SIZE).contains(&width) || width % 2 != 0 {
            return Err(FenError::Invalid(format!(
                "the board is {width}x{width}, Talpa needs an even size from {MIN_SIZE} to {MAX_SIZE}"
            )));
        }
        let size = width;
        let mut pieces = [0u128; 2];
        for (index, row) in rows.iter().enumerate() {
            let rank = size - 1 - index;
            for (file, cell) in row.iter().enumerate() {
                let bit = 1u128 << (rank * size + file);
                match cell {
                    Some('r') => pieces[0] |= bit,
                    Some('b') => pieces[1] |= bit,
                    _ => {}
                }
            }
        }
        Ok(Talpa::from_parts(size, pieces[0], pieces[1], side, plies))
    }

    fn board(&self) -> Vec<Vec<Option<char>>> {
        let size = self.size();
        rows_of(size, size, |file, rank| self.cell(rank, file))
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.result.is_some() {
            return;
        }
        let before = moves.len();
        self.for_each_capture(|from, to| moves.push(Move::Capture { from, to }));
        if moves.len() == before {
            let mut own = self.pieces[self.side.index()];
            while own != 0 {
                let square = own.trailing_zeros() as u8;
                own &= own - 1;
                moves.push(Move::Remove(square));
            }
        }
    }

    fn play(&mut self, mv: Move) {
        let us = self.side.index();
        let them = 1 - us;
        match mv {
            Move::Capture { from, to } => {
                self.pieces[us] = (self.pieces[us] & !(1 << from)) | (1 << to);
                self.pieces[them] &= !(1 << to);
                self.hash ^= KEYS.pieces[us][from as usize]
                    ^ KEYS.pieces[us][to as usize]
                    ^ KEYS.pieces[them][to as usize];
            }
            Move::Remove(square) => {
                self.pieces[us] &= !(1 << square);
                self.hash ^= KEYS.pieces[us][square as usize];
            }
        }
        self.hash ^= KEYS.blue_to_move;
        self.side = self.side.other();
        self.plies += 1;
        // No path existed before (the game went on), and no square was filled: a path
        // now must run through the square just emptied.
        let g = self.geometry();
        let empty = self.empty();
        let region = if empty.count_ones() < g.size as u32 {
            0 // too few empty squares for any path
        } else {
            g.flood(1 << mv.emptied(), empty)
        };
        self.result = self.judge(region, true);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.compute_hash()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let size = self.size();
        let (f1, r1, used) = read_square(text).ok_or_else(syntax)?;
        if f1 >= size || r1 >= size {
            return Err(syntax());
        }
        let from = (r1 * size + f1) as u8;
        if used == text.len() {
            return Ok(Move::Remove(from));
        }
        let (f2, r2, used2) = read_square(&text[used..]).ok_or_else(syntax)?;
        if used + used2 != text.len() || f2 >= size || r2 >= size {
            return Err(syntax());
        }
        Ok(Move::Capture {
            from,
            to: (r2 * size + f2) as u8,
        })
    }

    fn format_move(&self, mv: Move) -> String {
        let g = self.geometry();
        match mv {
            Move::Capture { from, to } => {
                format!("{}{}", g.square_name(from), g.square_name(to))
            }
            Move::Remove(square) => g.square_name(square),
        }
    }

    fn count_moves(&self) -> u64 {
        if self.result.is_some() {
            return 0;
        }
        match self.capture_count() {
            0 => u64::from(self.pieces[self.side.index()].count_ones()),
            n => u64::from(n),
        }
    }
}

impl Strategy for Talpa {
    type Eval = TalpaEval;
    type Oracle = TalpaOracle;
    /// A game lasts about 20 moves a side: spending a fifteenth of the clock a move
    /// beat a twenty-fifth in games (docs/strength.md, "Time").
    const MOVES_TO_GO: u64 = 15;

    /// The moves the side to move has left, told by the squares emptied (one a ply):
    /// on 8×8 the engines' games are decided by about the 32nd empty square, after
    /// which the proving search plays at once, so the clock is shared among the moves
    /// before it rather than kept for moves that cost nothing; on smaller boards by as
    /// many plies fewer as they have squares. At least [`MIN_MOVES_TO_GO`], at most
    /// [`Strategy::MOVES_TO_GO`]. On 8×8 and up two phases are set apart: the opening
    /// (before the [`EARLY_EMPTY_8`]th empty square) counts [`EARLY_MOVES_TO_GO`],
    /// spending less, and the phase where the games turn (from the [`LATE_EMPTY_8`]th)
    /// counts [`LATE_MOVES_TO_GO`], spending what the moves after it, played at once,
    /// would leave unused.
    fn moves_to_go(&self) -> u64 {
        let squares = (self.size() * self.size()) as u64;
        let emptied = u64::from(self.empty().count_ones());
        if self.size() >= PHASES_FROM_SIZE {
            if emptied < EARLY_EMPTY_8 * squares / 64 {
                return EARLY_MOVES_TO_GO;
            }
            if emptied >= LATE_EMPTY_8 * squares / 64 {
                return LATE_MOVES_TO_GO;
            }
        }
        let end = END_EMPTY_8 * squares / 64;
        let left = end.saturating_sub(emptied) / 2;
        left.clamp(MIN_MOVES_TO_GO, Self::MOVES_TO_GO)
    }

    /// A move may run to a quarter of the usable clock, not an eighth: the games are
    /// decided by about the 32nd empty square, after which the proving search plays at
    /// once, and with an eighth the next iteration was not started with half the clock
    /// still unused at the end of the game.
    fn hard_share(&self) -> u64 {
        HARD_SHARE
    }

    /// `Tablebase`: the exact knowledge of the oracle, on or off.
    fn engine_options() -> &'static [OptionSpec] {
        crate::search::TABLEBASE
    }

    /// MCTS from 8×8 up until the game's late phase, alpha-beta otherwise (playout.rs
    /// says why).
    fn method(&self) -> Method {
        let squares = (self.size() * self.size()) as u64;
        let emptied = u64::from(self.empty().count_ones());
        if self.size() >= playout::MCTS_FROM_SIZE
            && emptied < playout::MCTS_UNTIL_EMPTY_8 * squares / 64
        {
            Method::Mcts
        } else {
            Method::AlphaBeta
        }
    }
}

/// The share of the usable clock a move may run to ([`Strategy::hard_share`]).
const HARD_SHARE: u64 = 4;
/// The empty squares by which an 8×8 game is taken to be decided, for the clock
/// ([`Strategy::moves_to_go`]).
const END_EMPTY_8: u64 = 32;
/// The fewest moves a side is taken to have left: it keeps that many moves' overhead in
/// reserve however long the game goes.
const MIN_MOVES_TO_GO: u64 = 4;
/// The smallest board whose clock sets the opening and the turning phase apart: they
/// were measured on 8×8 only.
const PHASES_FROM_SIZE: usize = 8;
/// The empty squares before which an 8×8 game is in its opening, for the clock.
const EARLY_EMPTY_8: u64 = 12;
/// The moves counted left in the opening: more than the rule from the squares (15 to
/// 11), so that the opening's moves take less and leave it to the later phases.
const EARLY_MOVES_TO_GO: u64 = 20;
/// The empty squares from which an 8×8 game is in the phase where it turns, for the
/// clock: its searches decide the games lost to horizons of 10 to 16 plies.
const LATE_EMPTY_8: u64 = 24;
/// The moves counted left from [`LATE_EMPTY_8`]: the moves after it cost next to
/// nothing, so a move of this phase may plan on half the clock (its hard limit stays a
/// [`HARD_SHARE`]th of it).
const LATE_MOVES_TO_GO: u64 = 2;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_clock_share_grows_as_squares_empty() {
        // The first `emptied` squares of an 8×8 board empty, the rest split between
        // the sides.
        let emptied = |emptied: u32| {
            let full = u128::MAX >> (128 - 64);
            let half = (64 - emptied) / 2;
            let red = ((1u128 << half) - 1) << emptied;
            Talpa::from_parts(
                8,
                red,
                full & !red & !((1 << emptied) - 1),
                Player::P1,
                emptied,
            )
        };
        let mut position = start(8);
        assert_eq!(position.moves_to_go(), EARLY_MOVES_TO_GO);
        for mv in [
            "d5d4", "e3e2", "e4e5", "c5c6", "c8c7", "f4f5", "c7c6", "h4h5",
        ] {
            position.play(position.legal_move(mv).unwrap());
        }
        // 8 squares emptied: still the opening.
        assert_eq!(position.moves_to_go(), EARLY_MOVES_TO_GO);
        assert_eq!(emptied(11).moves_to_go(), EARLY_MOVES_TO_GO);
        // From the 12th: the moves left until the 32nd.
        assert_eq!(emptied(12).moves_to_go(), 10);
        assert_eq!(emptied(16).moves_to_go(), 8);
        assert_eq!(emptied(23).moves_to_go(), MIN_MOVES_TO_GO);
        // From the 24th: the turning phase.
        assert_eq!(emptied(24).moves_to_go(), LATE_MOVES_TO_GO);
        let late = emptied(30);
        assert_eq!(late.empty().count_ones(), 30);
        assert_eq!(late.moves_to_go(), LATE_MOVES_TO_GO);
        // 6×6: decided by about the 18th empty square.
        assert_eq!(start(6).moves_to_go(), 9);
        // A middle-game move may run to a quarter of the usable clock, not an eighth:
        // 600 ms + 10 left, 8 moves to go, 10 ms overhead.
        let clock = crate::search::time::Clock {
            time: Some(600),
            inc: Some(10),
            ..Default::default()
        };
        let budget = crate::search::time::budget_for(&clock, 10, 8, start(8).hard_share());
        assert_eq!(budget.hard, Some(std::time::Duration::from_micros(152_500)));
    }

    fn config(size: &str) -> Result<Config, String> {
        crate::options::config_from_pairs::<Talpa>(&[("Size", size)])
    }

    fn start(size: usize) -> Talpa {
        Talpa::start(&config(&size.to_string()).unwrap())
    }

    #[test]
    fn start_positions_match_the_spec() {
        assert_eq!(
            start(8).fen(),
            "rbrbrbrb/brbrbrbr/rbrbrbrb/brbrbrbr/rbrbrbrb/brbrbrbr/rbrbrbrb/brbrbrbr r 0"
        );
        assert_eq!(start(4).fen(), "rbrb/brbr/rbrb/brbr r 0");
        for (size, count) in [(4, 24), (6, 60), (8, 112), (10, 180)] {
            assert_eq!(start(size).count_moves(), count, "size {size}");
            let mut moves = Vec::new();
            start(size).generate_moves(&mut moves);
            assert_eq!(moves.len() as u64, count);
        }
    }

    #[test]
    fn odd_sizes_are_rejected() {
        let err = config("7").unwrap_err();
        assert!(err.contains("even"), "{err}");
        assert!(config("12").is_err());
        assert_eq!(config("6").unwrap().size, 6);
    }

    #[test]
    fn geometry_shifts_do_not_wrap() {
        let g = Geometry::of(8);
        let h1 = 1u128 << 7;
        assert_eq!(g.east(h1), 0);
        let a2 = 1u128 << 8;
        assert_eq!(g.west(a2), 0);
        let h8 = 1u128 << 63;
        assert_eq!(g.north(h8), 0);
        assert_eq!(g.south(1), 0);
        assert_eq!(g.grow(1).count_ones(), 3);
        assert_eq!(g.board.count_ones(), 64);
        assert_eq!(Geometry::of(10).board.count_ones(), 100);
    }
}
