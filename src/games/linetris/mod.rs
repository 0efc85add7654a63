//! Linetris (`linetris`): Connect Four with a Tetris row clear.
//!
//! Rules (SPEC §2):
//! - A board of `Rows` × `Cols` cells (4–10 each, default 6 × 7), empty at the start.
//!   Pieces `x` (p1, moves first) and `o` (p2).
//! - A move is a column number `1` … `Cols`, legal when that column is not full: the
//!   piece drops to the lowest empty cell of the column.
//! - Then, in order: if the mover has 4 or more in a line (horizontal, vertical or
//!   diagonal), the mover wins; otherwise, if `RowClear` is on and the bottom row is
//!   full, the bottom row is removed and every piece moves down one row.
//! - Draws: with `RowClear` off (plain Connect Four), a full board; with it on,
//!   threefold repetition (handled by `Record`). In both, `MaxPlies` plies played
//!   without a win (0 means 4·Rows·Cols, which a Connect Four game never reaches).
//!
//! Representation: one bitboard per player in the column-major layout of [`bits`]
//! (a sentinel bit above each column), in a `u128`. With `RowClear` off the game has
//! an exact solver ([`solver`]), a Connect Four solver in the style of Pascal Pons'.

pub mod bits;
pub mod book;
pub mod eval;
pub mod opening;
pub mod oracle;
pub mod retro;
pub mod solver;

use crate::game::look::{Colour, Look, piece};
use crate::game::notation::{rows_of, with_dots};
use crate::game::split_fen;
use crate::game::{
    FenError, Game, MoveCode, MoveError, OptionError, OptionKind, OptionSpec, Outcome, Params,
    Player, labelled_diagram, parse_fen_board,
};
use crate::hash::{GOLDEN_GAMMA, mix};
use crate::search::Strategy;
use bits::Geometry;
pub use eval::LinetrisEval;
pub use oracle::LinetrisOracle;

/// Smallest and largest number of rows and of columns.
pub const MIN_SIZE: u32 = 4;
pub const MAX_SIZE: u32 = 10;

/// Connect Four positions with at most this many empty cells are probed (solved).
pub const PROBE_EMPTIES: u32 = 12;

/// A move: the column (0-based; the notation is 1-based).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(pub u8);

impl MoveCode for Move {
    fn code(self) -> u32 {
        u32::from(self.0)
    }
}

/// The options of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Config {
    pub rows: u32,
    pub cols: u32,
    pub row_clear: bool,
    /// The `MaxPlies` option: 0 means 4·Rows·Cols of the board actually played.
    pub max_plies: u32,
}

impl Config {
    /// Plain Connect Four (`RowClear` off) on `rows` × `cols`, with the default ply
    /// limit.
    pub fn connect_four(rows: u32, cols: u32) -> Self {
        Config {
            rows,
            cols,
            row_clear: false,
            max_plies: 0,
        }
    }
}

impl Default for Config {
    fn default() -> Self {
        Config {
            rows: 6,
            cols: 7,
            row_clear: true,
            max_plies: 0,
        }
    }
}

/// The rules in force for one board: its geometry, the row clear and the ply limit.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Rules {
    pub geo: Geometry<u128>,
    pub row_clear: bool,
    /// Plies after which the game is drawn (if nobody won).
    pub limit: u32,
}

impl Rules {
    fn new(config: &Config, rows: u32, cols: u32) -> Self {
        let limit = if config.max_plies == 0 {
            4 * rows * cols
        } else {
            config.max_plies
        };
        Rules {
            geo: Geometry::new(rows, cols),
            row_clear: config.row_clear,
            limit,
        }
    }
}

/// A Linetris position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Linetris {
    /// Pieces of each player: `[x, o]`.
    pieces: [u128; 2],
    side: Player,
    plies: u32,
    rules: Rules,
}

const OPTIONS: &[OptionSpec] = &[
    OptionSpec {
        name: "Rows",
        kind: OptionKind::Spin {
            min: MIN_SIZE as i64,
            max: MAX_SIZE as i64,
            default: 6,
        },
    },
    OptionSpec {
        name: "Cols",
        kind: OptionKind::Spin {
            min: MIN_SIZE as i64,
            max: MAX_SIZE as i64,
            default: 7,
        },
    },
    OptionSpec {
        name: "RowClear",
        kind: OptionKind::Check { default: true },
    },
    OptionSpec {
        name: "MaxPlies",
        kind: OptionKind::Spin {
            min: 0,
            max: 1000,
            default: 0,
        },
    },
];

impl Linetris {
    /// The empty board of `config`.
    pub fn empty(config: &Config) -> Self {
        Linetris {
            pieces: [0, 0],
            side: Player::P1,
            plies: 0,
            rules: Rules::new(config, config.rows, config.cols),
        }
    }

    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn geometry(&self) -> &Geometry<u128> {
        &self.rules.geo
    }

    pub fn rows(&self) -> u32 {
        self.rules.geo.rows
    }

    pub fn cols(&self) -> u32 {
        self.rules.geo.cols
    }

    /// The pieces of `player` as a bitboard (layout of [`bits`]).
    pub fn pieces(&self, player: Player) -> u128 {
        self.pieces[player.index()]
    }

    /// Every occupied cell.
    pub fn occupied(&self) -> u128 {
        self.pieces[0] | self.pieces[1]
    }

    /// The owner of the cell in column `col`, row `row` (both 0-based, row 0 at the bottom).
    pub fn cell(&self, col: u32, row: u32) -> Option<Player> {
        if col >= self.cols() || row >= self.rows() {
            return None;
        }
        let bit = self.rules.geo.cell(col, row);
        if self.pieces[0] & bit != 0 {
            Some(Player::P1)
        } else if self.pieces[1] & bit != 0 {
            Some(Player::P2)
        } else {
            None
        }
    }

    /// The player who has four in a line, if any (the last mover is checked first).
    fn winner(&self) -> Option<Player> {
        let mover = self.side.other();
        if self.rules.geo.has_four(self.pieces[mover.index()]) {
            Some(mover)
        } else if self.rules.geo.has_four(self.pieces[self.side.index()]) {
            // Only reachable through a FEN; `from_fen` rejects it.
            Some(self.side)
        } else {
            None
        }
    }

    fn is_full(&self) -> bool {
        self.occupied() & self.rules.geo.top == self.rules.geo.top
    }
}

impl Game for Linetris {
    type Move = Move;
    type Config = Config;

    const NAME: &'static str = "linetris";
    const SIDE_LETTERS: [&'static str; 2] = ["x", "o"];
    const LOOK: Look = Look {
        sides: ["black", "red"],
        pieces: &[
            piece('x', '●', Colour::Yellow, "black"),
            piece('o', '○', Colour::Red, "red"),
        ],
        numbered_columns: true,
        named_ranks: false,
        rules: "A move is a column number (4 drops a piece into column 4). Four in a line wins;\n\
                a full bottom row is cleared and everything falls one row (RowClear).",
    };

    fn without_ply_limit(&self) -> Self {
        let mut unlimited = *self;
        unlimited.rules.limit = u32::MAX;
        unlimited
    }

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn config(params: &Params) -> Result<Config, OptionError> {
        Ok(Config {
            rows: params.spin("Rows")? as u32,
            cols: params.spin("Cols")? as u32,
            row_clear: params.check("RowClear")?,
            max_plies: params.spin("MaxPlies")? as u32,
        })
    }

    fn start(config: &Config) -> Self {
        Linetris::empty(config)
    }

    fn from_fen(config: &Config, fen: &str) -> Result<Self, FenError> {
        let (board, side, plies) = split_fen(fen, Self::SIDE_LETTERS)?;
        let cells = parse_fen_board(board, "xo")?;
        let (rows, cols) = (cells.len() as u32, cells[0].len() as u32);
        for (what, n) in [("rows", rows), ("columns", cols)] {
            if !(MIN_SIZE..=MAX_SIZE).contains(&n) {
                return Err(FenError::Invalid(format!(
                    "the board has {n} {what}; Linetris allows {MIN_SIZE} to {MAX_SIZE}"
                )));
            }
        }
        let mut state = Linetris {
            pieces: [0, 0],
            side,
            plies,
            rules: Rules::new(config, rows, cols),
        };
        let geo = state.rules.geo;
        for (index, line) in cells.iter().enumerate() {
            let row = rows - 1 - index as u32;
            for (col, cell) in line.iter().enumerate() {
                let bit = geo.cell(col as u32, row);
                match cell {
                    Some('x') => state.pieces[0] |= bit,
                    Some('o') => state.pieces[1] |= bit,
                    _ => {}
                }
            }
        }
        let mask = state.occupied();
        for col in 0..cols {
            let column = mask & geo.column(col);
            // Pieces rest on each other: a column's pieces fill it from the bottom.
            if column & column.wrapping_add(geo.bottom_of(col)) != 0 {
                return Err(FenError::Invalid(format!(
                    "column {} has a piece above an empty cell",
                    col + 1
                )));
            }
        }
        if geo.has_four(state.pieces[side.index()]) {
            return Err(FenError::Invalid(
                "the side to move already has four in a line".to_string(),
            ));
        }
        if state.rules.row_clear
            && mask & geo.bottom == geo.bottom
            && !geo.has_four(state.pieces[side.other().index()])
        {
            return Err(FenError::Invalid(
                "the bottom row is full: with RowClear on it would have been cleared".to_string(),
            ));
        }
        Ok(state)
    }

    fn board(&self) -> Vec<Vec<Option<char>>> {
        let (cols, rows) = (self.cols() as usize, self.rows() as usize);
        rows_of(cols, rows, |col, row| {
            self.cell(col as u32, row as u32)
                .map(|player| match player {
                    Player::P1 => 'x',
                    Player::P2 => 'o',
                })
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
        let open = !self.occupied() & self.rules.geo.top;
        for col in 0..self.cols() {
            if open & self.rules.geo.column(col) != 0 {
                moves.push(Move(col as u8));
            }
        }
    }

    fn play(&mut self, mv: Move) {
        let geo = &self.rules.geo;
        let mask = self.occupied();
        let cell = geo.drop_cell(mask, u32::from(mv.0));
        let own = &mut self.pieces[self.side.index()];
        *own |= cell;
        let won = geo.has_four(*own);
        if !won && self.rules.row_clear && (mask | cell) & geo.bottom == geo.bottom {
            // Remove the bottom row: every column moves down one row. A bottom
            // piece lands in the sentinel of the column to its left, masked away.
            for pieces in &mut self.pieces {
                *pieces = (*pieces >> 1) & geo.board;
            }
        }
        self.side = self.side.other();
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner() {
            return Some(Outcome::Win(winner));
        }
        if self.is_full() || self.plies >= self.rules.limit {
            return Some(Outcome::Draw);
        }
        None
    }

    fn hash(&self) -> u64 {
        let side = match self.side {
            Player::P1 => 0x5555_0000_0000_0001u64,
            Player::P2 => 0x2aaa_0000_0000_0002u64,
        };
        // The board size is mixed in too, so that equal bitboards of different sizes
        // (the empty boards, say) never share a hash.
        let size = u64::from(self.rows() << 8 | self.cols()) << 32;
        let mut h = side ^ size;
        for word in [
            self.pieces[0] as u64,
            (self.pieces[0] >> 64) as u64,
            self.pieces[1] as u64,
            (self.pieces[1] >> 64) as u64,
        ] {
            h = mix(h ^ word).wrapping_add(GOLDEN_GAMMA);
        }
        h
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        if text.is_empty() || text.len() > 2 || !text.bytes().all(|b| b.is_ascii_digit()) {
            return Err(syntax());
        }
        if text.starts_with('0') {
            return Err(syntax());
        }
        let col: u32 = text.parse().map_err(|_| syntax())?;
        let cols = self.cols();
        if col > cols {
            // A column number, just not one of this board's: say so rather than
            // calling it foreign notation.
            return Err(MoveError::OffBoard {
                text: text.to_string(),
                why: format!("column {col} is off this {cols}-column board (columns 1-{cols})"),
            });
        }
        Ok(Move((col - 1) as u8))
    }

    fn format_move(&self, mv: Move) -> String {
        (u32::from(mv.0) + 1).to_string()
    }

    fn repetition_rule(&self) -> bool {
        self.rules.row_clear
    }

    fn diagram(&self) -> String {
        let rows = with_dots(&self.board());
        // Columns are labelled by number: a move is the column number.
        let columns: Vec<String> = (1..=self.cols()).map(|col| col.to_string()).collect();
        labelled_diagram(&rows, &columns)
    }

    fn count_moves(&self) -> u64 {
        if self.outcome().is_some() {
            return 0;
        }
        u64::from((!self.occupied() & self.rules.geo.top).count_ones())
    }
}

impl Strategy for Linetris {
    type Eval = LinetrisEval;
    type Oracle = LinetrisOracle;
    /// A game lasts about 20 moves a side: spending a fifteenth of the clock a move
    /// beat a twenty-fifth in games (docs/strength.md, "Time").
    const MOVES_TO_GO: u64 = 15;

    /// `Tablebase`: the exact knowledge of the oracle, on or off.
    fn engine_options() -> &'static [OptionSpec] {
        crate::search::TABLEBASE
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::default_config;

    fn start() -> Linetris {
        Linetris::start(&default_config::<Linetris>())
    }

    fn play(state: &mut Linetris, moves: &str) {
        for c in moves.chars() {
            let mv = state.legal_move(&c.to_string()).unwrap();
            state.play(mv);
        }
    }

    #[test]
    fn start_position_and_notation() {
        let s = start();
        assert_eq!(s.fen(), "7/7/7/7/7/7 x 0");
        assert_eq!(s.count_moves(), 7);
        assert_eq!(s.format_move(Move(3)), "4");
        assert_eq!(s.parse_move("7"), Ok(Move(6)));
        for bad in ["0", "07", "", "a", "-1", "+1", "1 ", "100"] {
            assert!(
                matches!(s.parse_move(bad), Err(MoveError::Syntax(_))),
                "{bad:?}"
            );
        }
        // A column number off this board is notation, just not on this board.
        for off in ["8", "10", "99"] {
            assert!(
                matches!(s.parse_move(off), Err(MoveError::OffBoard { .. })),
                "{off:?}"
            );
        }
        assert_eq!(
            s.parse_move("8").unwrap_err().to_string(),
            "column 8 is off this 7-column board (columns 1-7)"
        );
        assert!(s.repetition_rule());
    }

    #[test]
    fn vertical_four_wins() {
        let mut s = start();
        play(&mut s, "1212121");
        assert_eq!(s.outcome(), Some(Outcome::Win(Player::P1)));
        assert_eq!(s.count_moves(), 0);
        assert_eq!(s.fen(), "7/7/x6/xo5/xo5/xo5 o 7");
    }
}
