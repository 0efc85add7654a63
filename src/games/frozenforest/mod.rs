//! Frozen Forest (`frozenforest`).
//!
//! Rules (SPEC §2):
//! - 10×10 board. Option `Trees` (4–10, default 10): a Trees×Trees block of trees at
//!   offset ⌊(10 − Trees)/2⌋ from the left and from the top; the rest is snow.
//! - p1 is Yuki (the seeker, `y`), p2 is Mina (the hider, `m`).
//! - Sight: with (dx, dy) = Mina − Yuki and g = gcd(|dx|, |dy|), Mina is *hidden* exactly
//!   when a tree stands on one of the cells Yuki + k·(dx/g, dy/g), 0 < k < g.
//! - Ply 1: Yuki is put on any tree and eats it (it becomes snow). Ply 2: Mina is put on
//!   any tree hidden from Yuki.
//! - Yuki's turn: one step in one of the 8 directions onto a tree that is not Mina's cell
//!   and from which Mina is visible; he eats it.
//! - Mina's turn: a slide of one or more cells in one of the 8 directions, over trees,
//!   snow and Yuki alike, ending on any cell but Yuki's from which she is hidden (judged
//!   after the move; the tree she left, if any, still stands).
//! - The side to move with no legal move loses. No draws.
//! - Moves are the destination square (`e5`).
//!
//! Representation: the trees as one 100-bit bitboard (`u128`, bit `rank * 10 + file`;
//! a tree under Mina stays in it), Yuki's and Mina's cells (or [`NONE`] before they
//! are placed) and the side to move. The phase is read off the board: no Yuki means
//! Yuki's placement, Yuki without Mina means Mina's placement, both means play. The
//! legal moves of any position form a bitboard of destinations ([`FrozenForest::
//! destinations`]), so generation and perft counting are a handful of ANDs.
//!
//! FEN: `t` tree, a digit run for snow, `y` Yuki (always on snow), `m` Mina on snow,
//! `M` Mina on a tree; side `y` or `m`. The FEN does not carry the `Trees` option, so
//! the number of trees Yuki has eaten (`query trees`) is the option's initial count
//! minus the trees now on the board (never below zero).

mod eval;
mod oracle;
mod playout;
pub mod sight;
pub mod solve;

use crate::search::{Method, Strategy};
pub use eval::{FrozenForestEval, Weights, evaluate, evaluate_with, seed_heuristic};
pub use oracle::{FrozenForestOracle, SOLVED_TREES, TREES_5_START};

use crate::game::look::{Colour, Look, piece};
use crate::game::notation::rows_of;
use crate::game::split_fen;
use crate::game::{
    FenError, Game, MoveCode, MoveError, OptionError, OptionKind, OptionSpec, Outcome, Params,
    Player, Scoring, TieBreak, parse_fen_board, read_square, square_name,
};
use crate::hash::mix;
use sight::{CELLS, Cells, SIZE, bit, tables};

/// Marks Yuki or Mina as not yet on the board.
pub const NONE: u8 = u8::MAX;

/// A move: the destination cell (`rank * 10 + file`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(pub u8);

impl MoveCode for Move {
    fn code(self) -> u32 {
        u32::from(self.0)
    }
}

/// The options: the side of the square block of trees.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Config {
    pub trees: u8,
}

impl Config {
    /// The trees of the start position.
    pub fn start_trees(&self) -> u128 {
        let side = self.trees as usize;
        let offset = (SIZE - side) / 2;
        let mut trees = 0;
        for row in offset..offset + side {
            // Rows are counted from the top: row 0 is rank 10.
            let rank = SIZE - 1 - row;
            for file in offset..offset + side {
                trees |= bit(rank * SIZE + file);
            }
        }
        trees
    }
}

/// A Frozen Forest position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct FrozenForest {
    /// Every tree on the board, the one under Mina included.
    trees: u128,
    /// Yuki's cell or [`NONE`].
    yuki: u8,
    /// Mina's cell or [`NONE`].
    mina: u8,
    side: Player,
    plies: u32,
    config: Config,
}

/// The phase of the game, read off the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// Ply 1: Yuki is put on a tree.
    PlaceYuki,
    /// Ply 2: Mina is put on a tree hidden from Yuki.
    PlaceMina,
    /// Both are on the board.
    Play,
}

impl FrozenForest {
    /// Builds a position from its parts (for tests and tools). `yuki`/`mina` are
    /// cells or [`NONE`]; no check is made that the position is consistent.
    pub fn from_parts(
        config: Config,
        trees: u128,
        yuki: u8,
        mina: u8,
        side: Player,
        plies: u32,
    ) -> Self {
        FrozenForest {
            trees: trees & sight::ALL,
            yuki,
            mina,
            side,
            plies,
            config,
        }
    }

    pub fn trees(&self) -> u128 {
        self.trees
    }

    /// Yuki's cell, once placed.
    pub fn yuki(&self) -> Option<usize> {
        (self.yuki != NONE).then_some(self.yuki as usize)
    }

    /// Mina's cell, once placed.
    pub fn mina(&self) -> Option<usize> {
        (self.mina != NONE).then_some(self.mina as usize)
    }

    /// The options this position is played under (named so as not to shadow
    /// [`Game::config`]).
    pub fn options(&self) -> Config {
        self.config
    }

    pub fn phase(&self) -> Phase {
        if self.yuki == NONE {
            Phase::PlaceYuki
        } else if self.mina == NONE {
            Phase::PlaceMina
        } else {
            Phase::Play
        }
    }

    /// Trees Yuki has eaten: the option's initial count minus the trees on the board.
    pub fn trees_eaten(&self) -> u32 {
        let initial = u32::from(self.config.trees) * u32::from(self.config.trees);
        initial.saturating_sub(self.trees.count_ones())
    }

    /// Whether Mina on `mina` can be seen by Yuki on `yuki` with the current trees.
    #[inline]
    pub fn sees(&self, yuki: usize, mina: usize) -> bool {
        sight::visible(self.trees, yuki, mina)
    }

    /// Yuki's legal steps from `yuki` with Mina on `mina`: adjacent trees other than
    /// Mina's cell from which she is visible.
    #[inline]
    pub fn yuki_steps(&self, yuki: usize, mina: usize) -> u128 {
        let t = tables();
        let mut result = 0;
        for to in Cells(t.king[yuki] & self.trees & !bit(mina)) {
            if self.trees & t.between[to][mina] == 0 {
                result |= bit(to);
            }
        }
        result
    }

    /// Whether Yuki has any legal step (stops at the first one).
    #[inline]
    fn yuki_can_step(&self, yuki: usize, mina: usize) -> bool {
        let t = tables();
        Cells(t.king[yuki] & self.trees & !bit(mina))
            .any(|to| self.trees & t.between[to][mina] == 0)
    }

    /// Mina's legal slides from `mina` with Yuki on `yuki`: cells in line with her,
    /// other than Yuki's, from which she is hidden.
    #[inline]
    pub fn mina_slides(&self, yuki: usize, mina: usize) -> u128 {
        let t = tables();
        let between = &t.between[yuki];
        let mut result = 0;
        for to in Cells(t.queen[mina] & !bit(yuki)) {
            if self.trees & between[to] != 0 {
                result |= bit(to);
            }
        }
        result
    }

    /// Whether Mina on `mina` has any legal slide against Yuki on `yuki`.
    #[inline]
    pub fn mina_can_slide(&self, yuki: usize, mina: usize) -> bool {
        let t = tables();
        let between = &t.between[yuki];
        Cells(t.queen[mina] & !bit(yuki)).any(|to| self.trees & between[to] != 0)
    }

    /// Trees hidden from Yuki on `yuki` (Mina's placements).
    fn hidden_trees(&self, yuki: usize) -> u128 {
        let between = &tables().between[yuki];
        let mut result = 0;
        for to in Cells(self.trees) {
            if self.trees & between[to] != 0 {
                result |= bit(to);
            }
        }
        result
    }

    /// Every legal move of the side to move, as a bitboard of destination cells.
    pub fn destinations(&self) -> u128 {
        match self.phase() {
            Phase::PlaceYuki => match self.side {
                Player::P1 => self.trees,
                Player::P2 => 0,
            },
            Phase::PlaceMina => match self.side {
                Player::P2 => self.hidden_trees(self.yuki as usize),
                Player::P1 => 0,
            },
            Phase::Play => {
                let (yuki, mina) = (self.yuki as usize, self.mina as usize);
                match self.side {
                    Player::P1 => self.yuki_steps(yuki, mina),
                    Player::P2 => self.mina_slides(yuki, mina),
                }
            }
        }
    }

    /// Whether the side to move has a legal move (cheaper than counting them).
    pub fn has_move(&self) -> bool {
        match (self.phase(), self.side) {
            (Phase::Play, Player::P1) => self.yuki_can_step(self.yuki as usize, self.mina as usize),
            (Phase::Play, Player::P2) => {
                self.mina_can_slide(self.yuki as usize, self.mina as usize)
            }
            _ => self.destinations() != 0,
        }
    }

    fn cell_char(&self, cell: usize) -> Option<char> {
        let tree = self.trees & bit(cell) != 0;
        if cell == self.yuki as usize {
            Some('y')
        } else if cell == self.mina as usize {
            Some(if tree { 'M' } else { 'm' })
        } else if tree {
            Some('t')
        } else {
            None
        }
    }
}

const OPTIONS: &[OptionSpec] = &[OptionSpec {
    name: "Trees",
    kind: OptionKind::Spin {
        min: 4,
        max: 10,
        default: 10,
    },
}];

impl Game for FrozenForest {
    type Move = Move;
    type Config = Config;

    const NAME: &'static str = "frozenforest";
    const SIDE_LETTERS: [&'static str; 2] = ["y", "m"];
    const LOOK: Look = Look {
        sides: ["Yuki", "Mina"],
        pieces: &[
            piece('t', '♣', Colour::Green, "tree"),
            piece('y', '●', Colour::Cyan, "Yuki"),
            piece('m', '◆', Colour::Magenta, "Mina"),
            piece('M', '◈', Colour::Magenta, "Mina in a tree"),
        ],
        numbered_columns: false,
        named_ranks: true,
        rules: "Moves name the square moved to (e5). Yuki steps onto a tree from which he sees\n\
                Mina and eats it; Mina slides to a square hidden from Yuki. Whoever cannot move loses.",
    };
    /// SPEC §2: games in pairs with roles swapped, trees eaten break a 1–1 tie.
    const SCORING: Scoring = Scoring::Pairs(TieBreak {
        name: "trees",
        words: "trees eaten",
    });

    fn option_specs() -> &'static [OptionSpec] {
        OPTIONS
    }

    fn config(params: &Params) -> Result<Config, OptionError> {
        match params.spin("Trees")? {
            trees @ 4..=10 => Ok(Config { trees: trees as u8 }),
            trees => Err(OptionError::Rejected(format!(
                "Trees {trees} is outside 4..10"
            ))),
        }
    }

    fn start(config: &Config) -> Self {
        FrozenForest {
            trees: config.start_trees(),
            yuki: NONE,
            mina: NONE,
            side: Player::P1,
            plies: 0,
            config: *config,
        }
    }

    fn from_fen(config: &Config, fen: &str) -> Result<Self, FenError> {
        let (board, side, plies) = split_fen(fen, Self::SIDE_LETTERS)?;
        let rows = parse_fen_board(board, "tymM")?;
        if rows.len() != SIZE || rows[0].len() != SIZE {
            return Err(FenError::Invalid(format!(
                "the board is {}x{}, Frozen Forest is played on 10x10",
                rows[0].len(),
                rows.len()
            )));
        }
        let mut trees = 0u128;
        let mut yuki = NONE;
        let mut mina = NONE;
        for (index, row) in rows.iter().enumerate() {
            let rank = SIZE - 1 - index;
            for (file, cell) in row.iter().enumerate() {
                let here = rank * SIZE + file;
                match cell {
                    Some('t') => trees |= bit(here),
                    Some('y') => {
                        if yuki != NONE {
                            return Err(FenError::Invalid("more than one Yuki (y)".to_string()));
                        }
                        yuki = here as u8;
                    }
                    Some(c @ ('m' | 'M')) => {
                        if mina != NONE {
                            return Err(FenError::Invalid("more than one Mina (m/M)".to_string()));
                        }
                        mina = here as u8;
                        if *c == 'M' {
                            trees |= bit(here);
                        }
                    }
                    _ => {}
                }
            }
        }
        match (yuki == NONE, mina == NONE, side) {
            (true, false, _) => {
                return Err(FenError::Invalid(
                    "Mina is on the board but Yuki is not".to_string(),
                ));
            }
            (true, true, Player::P2) => {
                return Err(FenError::Invalid(
                    "Yuki is not on the board yet, so Yuki (y) must be to move".to_string(),
                ));
            }
            (false, true, Player::P1) => {
                return Err(FenError::Invalid(
                    "Mina is not on the board yet, so Mina (m) must be to move".to_string(),
                ));
            }
            _ => {}
        }
        Ok(FrozenForest {
            trees,
            yuki,
            mina,
            side,
            plies,
            config: *config,
        })
    }

    fn board(&self) -> Vec<Vec<Option<char>>> {
        rows_of(SIZE, SIZE, |file, rank| self.cell_char(rank * SIZE + file))
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        moves.extend(Cells(self.destinations()).map(|cell| Move(cell as u8)));
    }

    fn play(&mut self, mv: Move) {
        let to = mv.0;
        match self.side {
            Player::P1 => {
                // Yuki lands on a tree and eats it (placement or step alike).
                self.yuki = to;
                self.trees &= !bit(to as usize);
            }
            Player::P2 => self.mina = to,
        }
        self.side = self.side.other();
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if self.has_move() {
            None
        } else {
            Some(Outcome::Win(self.side.other()))
        }
    }

    fn hash(&self) -> u64 {
        let side = match self.side {
            Player::P1 => 0u64,
            Player::P2 => 1u64,
        };
        let low = self.trees as u64;
        // Trees use the low 36 bits of the high word; the pieces and side sit above.
        let high = (self.trees >> 64) as u64
            | u64::from(self.yuki) << 40
            | u64::from(self.mina) << 48
            | side << 56;
        mix(mix(low) ^ high)
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        let (file, rank, used) = read_square(text).ok_or_else(syntax)?;
        if used != text.len() || file >= SIZE || rank >= SIZE {
            return Err(syntax());
        }
        Ok(Move((rank * SIZE + file) as u8))
    }

    fn format_move(&self, mv: Move) -> String {
        let cell = mv.0 as usize % CELLS;
        square_name(cell % SIZE, cell / SIZE)
    }

    fn count_moves(&self) -> u64 {
        u64::from(self.destinations().count_ones())
    }

    fn tiebreak_count(&self) -> u32 {
        self.trees_eaten()
    }
}

impl Strategy for FrozenForest {
    type Eval = FrozenForestEval;
    type Oracle = FrozenForestOracle;

    const BENCH_DEPTH: u32 = 8;

    /// `Tablebase`: the exact knowledge of the oracle, on or off.
    fn engine_options() -> &'static [OptionSpec] {
        crate::search::TABLEBASE
    }

    /// Yuki is searched with MCTS (playout.rs says why); Mina with alpha-beta.
    fn method(&self) -> Method {
        match self.side {
            Player::P1 => Method::Mcts,
            Player::P2 => Method::AlphaBeta,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::default_config;

    #[test]
    fn start_positions_follow_the_trees_option() {
        let full = FrozenForest::start(&default_config::<FrozenForest>());
        assert_eq!(full.fen(), "tttttttttt/".repeat(9) + "tttttttttt y 0");
        assert_eq!(full.count_moves(), 100);
        let four = FrozenForest::start(&Config { trees: 4 });
        assert_eq!(
            four.fen(),
            "10/10/10/3tttt3/3tttt3/3tttt3/3tttt3/10/10/10 y 0"
        );
        // Offset ⌊(10 − 5)/2⌋ = 2 from the left and the top.
        let five = FrozenForest::start(&Config { trees: 5 });
        assert_eq!(
            five.fen(),
            "10/10/2ttttt3/2ttttt3/2ttttt3/2ttttt3/2ttttt3/10/10/10 y 0"
        );
        assert_eq!(full.tiebreak_count(), 0);
    }
}
