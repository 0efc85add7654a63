//! Fabrik (`fabrik`).
//!
//! Rules (SPEC §2):
//! - A `Size`×`Size` board (7–11, default 11); black stones `x` (p1), white stones `o`
//!   (p2) and two neutral workers `w`. Goal: a line of at least `LineLength` (4 or 5,
//!   default 5) own stones in a row, column or diagonal; workers break lines.
//! - Sight: a worker sees, along each of the 8 directions, the consecutive empty squares
//!   up to the first occupied square (a stone or the other worker) or the edge. A square
//!   is *placeable* when it is empty and seen by both workers.
//! - Setup: ply 1, black puts a worker on any empty square (`d4`); ply 2, white puts the
//!   other one (`f6`); ply 3, black places a stone on a placeable square (`e5`) or plays
//!   `pass`, after which white places the first stone. The first stone is placed without
//!   moving a worker; `pass` is legal nowhere else.
//! - Every later turn: optionally move one worker to another empty square, then place an
//!   own stone on a placeable square: `e5`, or `d4f6e5` (worker d4 → f6, stone on e5). A
//!   worker move is legal only together with a placement.
//! - The mover wins by making a line. A side to move that cannot place a stone, even
//!   after moving a worker, loses (a full board included). No draws.
//!
//! The phase is not stored: the side to move and the numbers of workers and stones tell
//! it ([`Phase`]), so a FEN carries it too.
//!
//! Representation: 128-bit bitboards with a fixed stride of 11 ([`mod@geometry`]); the
//! placeable squares after a relocation are the intersection of two sliding-ray sight
//! sets, so move counting (bulk perft) is a popcount per relocation. The hash is Zobrist,
//! updated incrementally.

pub mod eval;
pub mod features;
pub mod forcing;
pub mod geometry;
pub mod threats;

use std::sync::OnceLock;

use crate::game::look::{Colour, Look, piece};
use crate::game::notation::rows_of;
use crate::game::split_fen;
use crate::game::{
    FenError, Game, MoveCode, MoveError, OptionError, OptionKind, OptionSpec, Outcome, Params,
    Player, parse_fen_board, read_square, square_name,
};
use crate::hash::{GOLDEN_GAMMA, SplitMix64};
use crate::search::{NoOracle, Strategy};
pub use eval::FabrikEval;
use geometry::{
    Bb, Geometry, SQUARES, STRIDE, bit, board_mask, geometry, three_or_more, two_or_more,
};

/// The smallest and largest board sides.
pub const MIN_SIZE: usize = 7;
pub const MAX_SIZE: usize = 11;

/// The options of a game: board side and winning line length.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Config {
    pub size: u8,
    pub line_length: u8,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            size: 11,
            line_length: 5,
        }
    }
}

/// The kinds of move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum MoveKind {
    /// Place a stone without moving a worker (`e5`).
    Place,
    /// Move a worker, then place a stone (`d4f6e5`).
    Relocate,
    /// Put a worker on the board during the setup (`d4`).
    Worker,
    /// Black lets white place the first stone (`pass`, ply 3 only).
    Pass,
}

/// A move packed in 32 bits: bits 0–6 the square placed on (stone or worker), bits
/// 7–13 the worker's origin, bits 14–20 its destination, bits 21–22 the kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub struct Move(u32);

impl MoveCode for Move {
    fn code(self) -> u32 {
        self.0
    }
}

const KIND_SHIFT: u32 = 21;

impl Move {
    /// `pass`.
    pub const PASS: Move = Move(3 << KIND_SHIFT);

    pub fn place(square: usize) -> Move {
        Move(square as u32)
    }

    pub fn worker(square: usize) -> Move {
        Move(2 << KIND_SHIFT | square as u32)
    }

    pub fn relocate(from: usize, to: usize, square: usize) -> Move {
        Move(1 << KIND_SHIFT | (from as u32) << 7 | (to as u32) << 14 | square as u32)
    }

    pub fn kind(self) -> MoveKind {
        match self.0 >> KIND_SHIFT {
            0 => MoveKind::Place,
            1 => MoveKind::Relocate,
            2 => MoveKind::Worker,
            _ => MoveKind::Pass,
        }
    }

    /// The move of a code ([`MoveCode::code`]); it may be no move at all: see
    /// [`Fabrik::is_legal`].
    pub fn from_code(code: u32) -> Move {
        Move(code)
    }

    /// The square a stone (or, in the setup, a worker) is put on.
    pub fn square(self) -> usize {
        (self.0 & 127) as usize
    }

    /// The origin of a relocated worker.
    pub fn from(self) -> usize {
        (self.0 >> 7 & 127) as usize
    }

    /// The destination of a relocated worker.
    pub fn to(self) -> usize {
        (self.0 >> 14 & 127) as usize
    }
}

/// Where the game stands, read from the side to move and the pieces on the board.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Phase {
    /// Fewer than two workers: the side to move puts one on the board.
    Workers,
    /// Two workers, no stone, black to move: place the first stone or pass.
    Choose,
    /// Two workers, no stone, white to move (black passed): place without relocating.
    FirstStone,
    /// Stones on the board: optionally relocate, then place.
    Play,
}

/// A Fabrik position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fabrik {
    /// Stones of each player: `[black, white]`.
    stones: [Bb; 2],
    workers: Bb,
    /// The squares of this board.
    board: Bb,
    hash: u64,
    plies: u32,
    size: u8,
    line_length: u8,
    side: Player,
    /// The player who made a line (the game is over).
    winner: Option<Player>,
}

/// Zobrist keys: `[black stone, white stone, worker][square]`, then the side key.
struct Keys {
    pieces: [[u64; SQUARES]; 3],
    side: u64,
}

fn keys() -> &'static Keys {
    // Immutable once built: a pure function of nothing, computed on first use and
    // shared by every engine and thread (no state that could differ between them).
    static KEYS: OnceLock<Keys> = OnceLock::new();
    KEYS.get_or_init(|| {
        let mut keys = SplitMix64::new(GOLDEN_GAMMA);
        let mut next = || keys.next_u64();
        let mut pieces = [[0; SQUARES]; 3];
        for row in pieces.iter_mut() {
            for key in row.iter_mut() {
                *key = next();
            }
        }
        Keys {
            pieces,
            side: next(),
        }
    })
}

/// Iterates over the squares of a set.
#[inline(always)]
fn squares(mut set: Bb) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let square = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(square)
        }
    })
}

/// Appends `Move(base | square << shift)` for each square of `set`, in increasing
/// order: one 64-bit half of the set at a time (cheaper than 128-bit arithmetic per
/// square), and into room made first (no capacity test per move).
#[inline(always)]
fn push_moves(moves: &mut Vec<Move>, set: Bb, base: u32, shift: u32) {
    let start = moves.len();
    moves.resize(start + set.count_ones() as usize, Move(0));
    let mut slots = moves[start..].iter_mut();
    for (half, offset) in [(set as u64, 0), ((set >> 64) as u64, 64)] {
        let mut bits = half;
        while bits != 0 {
            let square = bits.trailing_zeros() + offset;
            bits &= bits - 1;
            if let Some(slot) = slots.next() {
                *slot = Move(base | square << shift);
            }
        }
    }
}

/// The two squares of a two-worker set.
#[inline(always)]
fn two_squares(set: Bb) -> (usize, usize) {
    let a = set.trailing_zeros() as usize;
    let b = 127 - set.leading_zeros() as usize;
    (a, b)
}

fn name(square: usize) -> String {
    square_name(square % STRIDE, square / STRIDE)
}

impl Fabrik {
    /// Stones of `player`.
    pub fn stones(&self, player: Player) -> Bb {
        self.stones[player.index()]
    }

    /// The worker squares.
    pub fn workers(&self) -> Bb {
        self.workers
    }

    /// The squares of the board.
    pub fn board(&self) -> Bb {
        self.board
    }

    /// Empty squares (no stone, no worker).
    pub fn empty(&self) -> Bb {
        self.board & !(self.stones[0] | self.stones[1] | self.workers)
    }

    pub fn size(&self) -> usize {
        self.size as usize
    }

    pub fn line_length(&self) -> u32 {
        u32::from(self.line_length)
    }

    /// The phase of the game (see [`Phase`]).
    pub fn phase(&self) -> Phase {
        if !two_or_more(self.workers) {
            Phase::Workers
        } else if self.stones[0] | self.stones[1] != 0 {
            Phase::Play
        } else if self.side == Player::P1 {
            Phase::Choose
        } else {
            Phase::FirstStone
        }
    }

    /// The squares where a stone can be placed now without moving a worker.
    pub fn placeable(&self) -> Bb {
        if !two_or_more(self.workers) || three_or_more(self.workers) {
            return 0;
        }
        let g = geometry();
        let occupied = self.stones[0] | self.stones[1] | self.workers;
        let (a, b) = two_squares(self.workers);
        g.sight(a, occupied) & g.sight(b, occupied) & self.board & !occupied
    }

    /// Whether `mv` is a legal move here (any code, e.g. one from the transposition
    /// table of another position, is judged exactly as the move generator would:
    /// without generating the moves).
    pub fn is_legal(&self, mv: Move) -> bool {
        if self.winner.is_some() || mv.0 >> (KIND_SHIFT + 2) != 0 {
            return false;
        }
        let square = mv.square();
        let empty = self.empty();
        match (mv.kind(), self.phase()) {
            (MoveKind::Worker, Phase::Workers) => {
                mv.0 >> 7 & 0x3fff == 0 && empty & bit(square) != 0
            }
            (MoveKind::Pass, Phase::Choose) => mv == Move::PASS,
            (MoveKind::Place, Phase::Choose | Phase::FirstStone | Phase::Play) => {
                mv.0 >> 7 == 0 && self.placeable() & bit(square) != 0
            }
            (MoveKind::Relocate, Phase::Play) => {
                let (from, to) = (mv.from(), mv.to());
                if self.workers & bit(from) == 0
                    || empty & bit(to) == 0
                    || (empty | bit(from)) & bit(square) == 0
                    || square == to
                {
                    return false;
                }
                let g = geometry();
                let workers = self.workers ^ bit(from) ^ bit(to);
                let occupied = self.stones[0] | self.stones[1] | workers;
                let (a, b) = two_squares(workers);
                g.sight(a, occupied) & g.sight(b, occupied) & bit(square) != 0
            }
            _ => false,
        }
    }

    /// Calls `visit(relocation, placeable)` for the placements without relocation
    /// (`relocation` = `None`, `placeable` the squares) and, in the play phase, for
    /// every placement square `s` reachable by moving a worker: `Some((from, s))` with
    /// `placeable` the set of empty squares the worker on `from` may move to so that a
    /// stone can then go on `s`. Stops early and returns `false` when `visit` does.
    ///
    /// Moving worker `m` (the other one, `f`, stays) to `t` and placing on `s` is legal
    /// when `t` is empty, `s` is empty or is `m`'s vacated square, `f` sees `s` with
    /// `m` gone and `t` not between them, and `t` sees `s`, i.e. `s` sees `t` past
    /// stones and `f`. So the squares `s` are those `f` sees through the stones, and for
    /// each the destinations are `sight(s) & empty & !between(f, s)`: one sight set per
    /// placement square rather than one per destination (there are fewer).
    #[inline(always)]
    fn each_relocation(
        &self,
        g: &Geometry,
        mut visit: impl FnMut(Option<(usize, usize)>, Bb) -> bool,
    ) -> bool {
        let stones = self.stones[0] | self.stones[1];
        let occupied = stones | self.workers;
        let empty = self.board & !occupied;
        let (a, b) = two_squares(self.workers);
        let here = g.sight(a, occupied) & g.sight(b, occupied) & empty;
        if !visit(None, here) {
            return false;
        }
        if self.phase() != Phase::Play {
            return true;
        }
        for (moved, fixed) in [(a, b), (b, a)] {
            let blockers = stones | bit(fixed);
            for square in squares(g.sight(fixed, stones) & (empty | bit(moved))) {
                let targets = g.sight(square, blockers) & empty & !g.between(fixed, square);
                if !visit(Some((moved, square)), targets) {
                    return false;
                }
            }
        }
        true
    }

    /// Whether the side to move has a legal move (ignoring a line already made).
    fn has_move(&self) -> bool {
        match self.phase() {
            Phase::Workers => self.empty() != 0,
            Phase::Choose => true,
            Phase::FirstStone => self.placeable() != 0,
            Phase::Play => self.beside_a_worker_with_room() || self.reaches_some_square(),
        }
    }

    /// Whether the side to move can place a stone somewhere in the play phase, with or
    /// without a worker move: [`eval::reach`] not empty, asked square by square with
    /// no sight set but the workers' two. A square `s` is reachable by moving worker
    /// `m` while `f` stays when `f` sees it through the stones (and `m`'s square) and
    /// one of its neighbours is empty (or is `m`) and not on the way to `f`: `m` goes
    /// there, or stays. Where no square is (a side walled in), the move generator's
    /// walk would compute a sight set for every square `f` sees.
    fn reaches_some_square(&self) -> bool {
        let g = geometry();
        let stones = self.stones[0] | self.stones[1];
        let empty = self.empty();
        let (a, b) = two_squares(self.workers);
        for (moved, fixed) in [(a, b), (b, a)] {
            let landing = empty | bit(moved);
            if squares(g.sight(fixed, stones) & landing)
                .any(|s| g.neighbours[s] & landing & !g.between(s, fixed) != 0)
            {
                return true;
            }
        }
        false
    }

    /// Whether an empty square beside a worker has an empty square beside it: then the
    /// other worker can move there and a stone go between them (both see it), so the
    /// side to move has a move in the play phase. Most positions show it at once, with
    /// no sight set computed.
    fn beside_a_worker_with_room(&self) -> bool {
        let g = geometry();
        let empty = self.empty();
        let (a, b) = two_squares(self.workers);
        squares((g.neighbours[a] | g.neighbours[b]) & empty).any(|n| g.neighbours[n] & empty != 0)
    }

    /// Whether `player` has a line of at least the line length through `square`.
    fn line_through(&self, g: &Geometry, square: usize, player: Player) -> bool {
        let own = self.stones[player.index()];
        let need = u32::from(self.line_length);
        (0..4).any(|d| 1 + g.run(square, d, own) + g.run(square, d + 4, own) >= need)
    }

    /// Whether `player` has a line anywhere.
    fn has_line(&self, player: Player) -> bool {
        let g = geometry();
        squares(self.stones[player.index()]).any(|square| self.line_through(g, square, player))
    }

    fn hash_of(&self) -> u64 {
        let keys = keys();
        let mut hash = 0;
        for (index, set) in [self.stones[0], self.stones[1], self.workers]
            .into_iter()
            .enumerate()
        {
            for square in squares(set) {
                hash ^= keys.pieces[index][square];
            }
        }
        if self.side == Player::P2 {
            hash ^= keys.side;
        }
        hash
    }

    fn cell(&self, square: usize) -> Option<char> {
        if self.stones[0] & bit(square) != 0 {
            Some('x')
        } else if self.stones[1] & bit(square) != 0 {
            Some('o')
        } else if self.workers & bit(square) != 0 {
            Some('w')
        } else {
            None
        }
    }

    /// Reads one square name on this board.
    fn read_board_square(&self, text: &str) -> Option<(usize, usize)> {
        let (file, rank, used) = read_square(text)?;
        if file >= self.size() || rank >= self.size() {
            return None;
        }
        Some((rank * STRIDE + file, used))
    }

    fn empty_position(config: &Config, size: usize) -> Fabrik {
        Fabrik {
            stones: [0; 2],
            workers: 0,
            board: board_mask(size),
            hash: 0,
            plies: 0,
            size: size as u8,
            line_length: config.line_length,
            side: Player::P1,
            winner: None,
        }
    }
}

impl Game for Fabrik {
    type Move = Move;
    type Config = Config;

    const NAME: &'static str = "fabrik";
    const SIDE_LETTERS: [&'static str; 2] = ["x", "o"];
    const LOOK: Look = Look {
        sides: ["black", "white"],
        pieces: &[
            piece('x', '●', Colour::Yellow, "black"),
            piece('o', '○', Colour::White, "white"),
            piece('w', '◆', Colour::Green, "worker"),
        ],
        numbered_columns: false,
        named_ranks: true,
        rules: "First the two workers are placed (d4), then black places a stone or passes (pass).\n\
                Then each turn: e5 places a stone where both workers see it, d4f6e5 first moves\n\
                a worker from d4 to f6. A line of LineLength stones wins.",
    };
    fn option_specs() -> &'static [OptionSpec] {
        &[
            OptionSpec {
                name: "Size",
                kind: OptionKind::Spin {
                    min: MIN_SIZE as i64,
                    max: MAX_SIZE as i64,
                    default: 11,
                },
            },
            OptionSpec {
                name: "LineLength",
                kind: OptionKind::Spin {
                    min: 4,
                    max: 5,
                    default: 5,
                },
            },
        ]
    }

    fn config(params: &Params) -> Result<Config, OptionError> {
        let size = params.spin("Size")?;
        let line_length = params.spin("LineLength")?;
        if !(MIN_SIZE as i64..=MAX_SIZE as i64).contains(&size) {
            return Err(OptionError::Rejected(format!(
                "Size {size} is outside {MIN_SIZE}..{MAX_SIZE}"
            )));
        }
        if !(4..=5).contains(&line_length) {
            return Err(OptionError::Rejected(format!(
                "LineLength {line_length} is not 4 or 5"
            )));
        }
        Ok(Config {
            size: size as u8,
            line_length: line_length as u8,
        })
    }

    fn start(config: &Config) -> Self {
        let mut position = Fabrik::empty_position(config, usize::from(config.size));
        position.hash = position.hash_of();
        position
    }

    fn from_fen(config: &Config, fen: &str) -> Result<Self, FenError> {
        let (board, side, plies) = split_fen(fen, Self::SIDE_LETTERS)?;
        let rows = parse_fen_board(board, "xow")?;
        let size = rows.len();
        if rows[0].len() != size {
            return Err(FenError::Invalid(format!(
                "the board is {}x{size}; Fabrik boards are square",
                rows[0].len()
            )));
        }
        if !(MIN_SIZE..=MAX_SIZE).contains(&size) {
            return Err(FenError::Invalid(format!(
                "the board is {size}x{size}; Fabrik is played on {MIN_SIZE}x{MIN_SIZE} to {MAX_SIZE}x{MAX_SIZE}"
            )));
        }
        let mut position = Fabrik::empty_position(config, size);
        position.side = side;
        position.plies = plies;
        for (index, row) in rows.iter().enumerate() {
            let rank = size - 1 - index;
            for (file, cell) in row.iter().enumerate() {
                let square = bit(rank * STRIDE + file);
                match cell {
                    Some('x') => position.stones[0] |= square,
                    Some('o') => position.stones[1] |= square,
                    Some('w') => position.workers |= square,
                    _ => {}
                }
            }
        }
        let workers = position.workers.count_ones();
        let black = position.stones[0].count_ones();
        let white = position.stones[1].count_ones();
        if workers > 2 {
            return Err(FenError::Invalid(format!(
                "{workers} workers on the board; there are 2"
            )));
        }
        if workers < 2 && black + white > 0 {
            return Err(FenError::Invalid(
                "stones on the board before both workers are placed".to_string(),
            ));
        }
        match (workers, side) {
            (0, Player::P2) => {
                return Err(FenError::Invalid(
                    "no worker on the board: black places the first one".to_string(),
                ));
            }
            (1, Player::P1) => {
                return Err(FenError::Invalid(
                    "one worker on the board: white places the second one".to_string(),
                ));
            }
            _ => {}
        }
        // Turns alternate from the first stone on, whoever placed it.
        let consistent = match side {
            Player::P1 => white == black || white == black + 1,
            Player::P2 => black == white || black == white + 1,
        };
        if !consistent {
            return Err(FenError::Invalid(format!(
                "{black} black and {white} white stones cannot have {} to move",
                if side == Player::P1 { "black" } else { "white" }
            )));
        }
        let mover = side.other();
        position.winner = if position.has_line(mover) {
            Some(mover)
        } else if position.has_line(side) {
            Some(side)
        } else {
            None
        };
        position.hash = position.hash_of();
        Ok(position)
    }

    fn board(&self) -> Vec<Vec<Option<char>>> {
        let size = self.size();
        rows_of(size, size, |file, rank| self.cell(rank * STRIDE + file))
    }

    fn side_to_move(&self) -> Player {
        self.side
    }

    fn plies(&self) -> u32 {
        self.plies
    }

    fn generate_moves(&self, moves: &mut Vec<Move>) {
        if self.winner.is_some() {
            return;
        }
        match self.phase() {
            Phase::Workers => moves.extend(squares(self.empty()).map(Move::worker)),
            phase => {
                self.each_relocation(geometry(), |relocation, placeable| {
                    match relocation {
                        None => push_moves(moves, placeable, Move::place(0).0, 0),
                        Some((from, square)) => {
                            push_moves(moves, placeable, Move::relocate(from, 0, square).0, 14)
                        }
                    }
                    true
                });
                if phase == Phase::Choose {
                    moves.push(Move::PASS);
                }
            }
        }
    }

    fn play(&mut self, mv: Move) {
        let keys = keys();
        let side = self.side.index();
        match mv.kind() {
            MoveKind::Worker => {
                self.workers |= bit(mv.square());
                self.hash ^= keys.pieces[2][mv.square()];
            }
            MoveKind::Pass => {}
            kind => {
                if kind == MoveKind::Relocate {
                    self.workers ^= bit(mv.from()) | bit(mv.to());
                    self.hash ^= keys.pieces[2][mv.from()] ^ keys.pieces[2][mv.to()];
                }
                let square = mv.square();
                self.stones[side] |= bit(square);
                self.hash ^= keys.pieces[side][square];
                if self.line_through(geometry(), square, self.side) {
                    self.winner = Some(self.side);
                }
            }
        }
        self.side = self.side.other();
        self.hash ^= keys.side;
        self.plies += 1;
    }

    fn outcome(&self) -> Option<Outcome> {
        if let Some(winner) = self.winner {
            return Some(Outcome::Win(winner));
        }
        if self.has_move() {
            None
        } else {
            Some(Outcome::Win(self.side.other()))
        }
    }

    fn hash(&self) -> u64 {
        self.hash
    }

    fn hash_from_scratch(&self) -> u64 {
        self.hash_of()
    }

    fn parse_move(&self, text: &str) -> Result<Move, MoveError> {
        let syntax = || MoveError::Syntax(text.to_string());
        if text == "pass" {
            return Ok(Move::PASS);
        }
        let (first, used) = self.read_board_square(text).ok_or_else(syntax)?;
        if used == text.len() {
            return Ok(if self.phase() == Phase::Workers {
                Move::worker(first)
            } else {
                Move::place(first)
            });
        }
        let rest = &text[used..];
        let (second, used2) = self.read_board_square(rest).ok_or_else(syntax)?;
        let (third, used3) = self.read_board_square(&rest[used2..]).ok_or_else(syntax)?;
        if used2 + used3 != rest.len() {
            return Err(syntax());
        }
        Ok(Move::relocate(first, second, third))
    }

    fn format_move(&self, mv: Move) -> String {
        match mv.kind() {
            MoveKind::Pass => "pass".to_string(),
            MoveKind::Place | MoveKind::Worker => name(mv.square()),
            MoveKind::Relocate => {
                format!("{}{}{}", name(mv.from()), name(mv.to()), name(mv.square()))
            }
        }
    }

    fn count_moves(&self) -> u64 {
        if self.winner.is_some() {
            return 0;
        }
        match self.phase() {
            Phase::Workers => u64::from(self.empty().count_ones()),
            phase => {
                let mut count = u64::from(phase == Phase::Choose);
                self.each_relocation(geometry(), |_, placeable| {
                    count += u64::from(placeable.count_ones());
                    true
                });
                count
            }
        }
    }
}

impl Strategy for Fabrik {
    type Eval = FabrikEval;
    type Oracle = NoOracle;

    /// Hundreds of moves per position: depth 3 already takes a while.
    const BENCH_DEPTH: u32 = 3;

    /// Two middle games of 11×11 engine games (plies 52 and 56) with threes and fours of
    /// both colours, where the lines' values change the tree: the playout's positions
    /// (plies 0–11) hold no four.
    const BENCH_FENS: &'static [&'static str] = &[
        "2xxx3oo1/xxo1o3ox1/1xxoo4xx/1oxxxx2o2/oo1oo4o1/1xoo2ox1x1/1xo1xowxxo1/2x1x4o1/o5o1xox/11/o4w5 x 52",
        "1oox1o3x1/xo1xoox1oox/1ow5xx1/xx1ox3x2/1xo8/oo2x1o4/1oxooxw4/xxoox1x4/x1x1o1o2oo/oxo2x1ox2/1xo2x5 x 56",
    ];

    /// The moves the side to move has left, counted from the plies played: games
    /// between engines on 11×11 end at ply 50–90 (walled in, mostly), so the clock's
    /// share of a move grows in the middle and late game, where they are decided,
    /// instead of keeping a reserve of 25 moves' overhead to the end (about half the
    /// clock was left unused at 1 s + 10 ms): at least [`MIN_MOVES_TO_GO`], at most the
    /// default. On 11×11 two phases are set apart: the opening and early middle game
    /// (before ply [`EARLY_PLIES`]), where the games are not lost, counts
    /// [`EARLY_MOVES_TO_GO`] and spends less; the late middle game (from ply
    /// [`LATE_PLIES`]), where they are lost to horizons of 3–15 plies, counts
    /// [`LATE_MOVES_TO_GO`] and spends what the early phase saved, and from ply
    /// [`LATER_PLIES`] [`LATER_MOVES_TO_GO`], so that the moves before the games' fatal
    /// moves (plies 60–80) get more of what would otherwise be left on the clock.
    fn moves_to_go(&self) -> u64 {
        let plies = u64::from(self.plies);
        if self.size >= PHASES_FROM_SIZE {
            if plies < EARLY_PLIES {
                return EARLY_MOVES_TO_GO;
            }
            if plies >= LATER_PLIES {
                return LATER_MOVES_TO_GO;
            }
            if plies >= LATE_PLIES {
                return LATE_MOVES_TO_GO;
            }
        }
        let squares = u64::from(self.size) * u64::from(self.size);
        let end = GAME_PLIES_11 * squares / 121;
        let left = end.saturating_sub(plies) / 2;
        left.clamp(MIN_MOVES_TO_GO, Self::MOVES_TO_GO)
    }
}

/// The ply by which a Fabrik game on 11×11 is assumed to end, for the clock
/// ([`Strategy::moves_to_go`]); by as many plies fewer as a smaller board has squares.
const GAME_PLIES_11: u64 = 76;
/// The fewest moves a side is assumed to have left: it keeps that many moves' overhead
/// in reserve however long the game goes.
const MIN_MOVES_TO_GO: u64 = 6;
/// The smallest board whose clock sets the early and the late phase apart: they were
/// measured on 11×11 only.
const PHASES_FROM_SIZE: u8 = 11;
/// The ply before which an 11×11 game is in its early phase, for the clock.
const EARLY_PLIES: u64 = 50;
/// The moves counted left in the early phase: more than the rule from the plies (25 to
/// 13), so that its moves take about 20 ms, not 30, and leave the time to the late
/// middle game.
const EARLY_MOVES_TO_GO: u64 = 32;
/// The ply from which an 11×11 game is in its late middle game, for the clock: the
/// moves that lose the games against the two-ply player lie at plies 56–81.
const LATE_PLIES: u64 = 56;
/// The moves counted left from [`LATE_PLIES`]: a quarter of the clock (less four moves'
/// overhead) a move, decreasing as the clock does.
const LATE_MOVES_TO_GO: u64 = 4;
/// The ply from which an 11×11 game counts [`LATER_MOVES_TO_GO`]: the clock there is
/// about 380 ms, and the moves after ply 72 mostly end early on a proven score, so a
/// larger share does not run the clock down (it settles near 130 ms by ply 75).
const LATER_PLIES: u64 = 62;
/// The moves counted left from [`LATER_PLIES`]: a third of the clock (less four moves'
/// overhead, plus two increments) a move; soft and hard limit alike, as the hard share
/// (an eighth of the clock) is less.
const LATER_MOVES_TO_GO: u64 = 3;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::default_config;

    fn start() -> Fabrik {
        Fabrik::start(&default_config::<Fabrik>())
    }

    #[test]
    fn start_position_and_setup_counts() {
        let position = start();
        assert_eq!(position.fen(), "11/11/11/11/11/11/11/11/11/11/11 x 0");
        assert_eq!(position.phase(), Phase::Workers);
        assert_eq!(position.count_moves(), 121);
        let mut after = position;
        after.play(position.legal_move("a1").unwrap());
        assert_eq!(after.count_moves(), 120);
        assert_eq!(after.side_to_move(), Player::P2);
    }

    #[test]
    fn the_clock_share_grows_as_the_game_goes_on() {
        // 11×11: the early phase, the rule from the plies, the late middle game.
        let mut position = start();
        assert_eq!(position.moves_to_go(), EARLY_MOVES_TO_GO);
        position.plies = 49;
        assert_eq!(position.moves_to_go(), EARLY_MOVES_TO_GO);
        position.plies = 50;
        assert_eq!(position.moves_to_go(), 13);
        position.plies = 55;
        assert_eq!(position.moves_to_go(), 10);
        position.plies = 56;
        assert_eq!(position.moves_to_go(), LATE_MOVES_TO_GO);
        position.plies = 61;
        assert_eq!(position.moves_to_go(), LATE_MOVES_TO_GO);
        position.plies = 62;
        assert_eq!(position.moves_to_go(), LATER_MOVES_TO_GO);
        position.plies = 200;
        assert_eq!(position.moves_to_go(), LATER_MOVES_TO_GO);
        assert_eq!((LATE_MOVES_TO_GO, LATER_MOVES_TO_GO), (4, 3));
        // 7×7: a game of 30 plies or so, and no phases.
        let config = Config {
            size: 7,
            line_length: 4,
        };
        let mut small = Fabrik::start(&config);
        small.plies = 6;
        assert_eq!(small.moves_to_go(), 12);
        small.plies = 22;
        assert_eq!(small.moves_to_go(), MIN_MOVES_TO_GO);
        // 10×10: the rule from the plies alone (a game of 62 plies).
        let mut ten = Fabrik::start(&Config {
            size: 10,
            line_length: 5,
        });
        assert_eq!(ten.moves_to_go(), 25);
        ten.plies = 40;
        assert_eq!(ten.moves_to_go(), 11);
    }

    #[test]
    fn moves_pack_and_unpack() {
        let mv = Move::relocate(120, 0, 60);
        assert_eq!(mv.kind(), MoveKind::Relocate);
        assert_eq!((mv.from(), mv.to(), mv.square()), (120, 0, 60));
        assert_eq!(Move::worker(7).kind(), MoveKind::Worker);
        assert_eq!(Move::place(7).kind(), MoveKind::Place);
        assert_eq!(Move::PASS.kind(), MoveKind::Pass);
        assert_ne!(Move::worker(7), Move::place(7));
    }
}
