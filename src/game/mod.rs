//! The `Game` trait that every game implements, and the small types around it.
//!
//! Nothing in this file knows a particular game or a protocol word. A game is a
//! *state* type (cheap to clone: search uses copy-make) carrying its own immutable
//! *config* (board size and other options). Everything the engine needs from a game
//! goes through this trait, and search, perft and the session are generic over it,
//! so each game's move generation and search compile to their own code.
//!
//! Rules that span the whole record of a game rather than one state (threefold
//! repetition, a forfeit by an illegal move) live in [`Record`].

pub mod grid;
pub mod look;
pub mod notation;
pub mod symmetry;

use std::fmt;

pub use crate::options::{OptionError, OptionKind, OptionSpec, OptionValue, Params};
pub use notation::{
    QUOTED_CHARS, fen_tail, format_fen_board, labelled_diagram, parse_fen_board, plain_diagram,
    quote, read_square, split_fen, square_name,
};

/// A player. `P1` moves first in every game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Player {
    P1,
    P2,
}

impl Player {
    pub fn other(self) -> Player {
        match self {
            Player::P1 => Player::P2,
            Player::P2 => Player::P1,
        }
    }

    pub fn index(self) -> usize {
        match self {
            Player::P1 => 0,
            Player::P2 => 1,
        }
    }
}

/// The end of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Outcome {
    Win(Player),
    Draw,
}

impl Outcome {
    /// The protocol word: `p1win`, `p2win` or `draw`.
    pub fn as_str(self) -> &'static str {
        match self {
            Outcome::Win(Player::P1) => "p1win",
            Outcome::Win(Player::P2) => "p2win",
            Outcome::Draw => "draw",
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A position string that could not be read. Texts quoted from the input are kept
/// whole here and cut by [`quote`] when shown.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum FenError {
    /// Nothing but white space.
    Empty,
    /// A board with no side to move after it.
    MissingSide,
    /// More fields than `<board> <side> [<plies>]`: how many.
    TooManyFields(usize),
    /// A ply count that is no whole number.
    BadPlies(String),
    /// A side to move that is neither of the game's letters (`found`, p1's, p2's).
    BadSide { found: String, letters: [String; 2] },
    /// More ranks than any board has.
    TooManyRanks,
    /// A run of empty cells too long to be a number, in a rank (ranks count from 1 at
    /// the bottom, as in SPEC §1).
    BadRun { rank: usize, text: String },
    /// A run of empty cells of 0 or more than 32.
    RunOutOfRange { rank: usize, text: String },
    /// A character that is no piece of this game.
    UnexpectedChar { rank: usize, found: char },
    /// A rank longer than any board.
    RankTooLong(usize),
    /// A rank with no cells.
    EmptyRank(usize),
    /// A rank whose width differs from the top rank's.
    RaggedRank {
        rank: usize,
        cells: usize,
        top: usize,
        width: usize,
    },
    /// Well formed, but not a position of this game (piece counts, board size, a line
    /// where none can be), in words.
    Invalid(String),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bad FEN: ")?;
        match self {
            FenError::Empty => f.write_str("empty position string"),
            FenError::MissingSide => f.write_str("missing the side to move"),
            FenError::TooManyFields(n) => {
                write!(f, "expected '<board> <side> [<plies>]', found {n} fields")
            }
            FenError::BadPlies(text) => {
                write!(f, "ply count {} is not a whole number", quote(text))
            }
            FenError::BadSide { found, letters } => write!(
                f,
                "side to move {} is not {} or {}",
                quote(found),
                letters[0],
                letters[1]
            ),
            FenError::TooManyRanks => f.write_str("far too many ranks"),
            FenError::BadRun { rank, text } => {
                write!(f, "bad run {} in rank {rank}", quote(text))
            }
            FenError::RunOutOfRange { rank, text } => {
                write!(f, "bad run of empty cells {} in rank {rank}", quote(text))
            }
            FenError::UnexpectedChar { rank, found } => write!(
                f,
                "unexpected {} in rank {rank} of the board",
                quote(found.encode_utf8(&mut [0; 4]))
            ),
            FenError::RankTooLong(rank) => write!(f, "rank {rank} is far too long"),
            FenError::EmptyRank(rank) => write!(f, "rank {rank} of the board is empty"),
            FenError::RaggedRank {
                rank,
                cells,
                top,
                width,
            } => write!(
                f,
                "rank {rank} has {cells} cells, the top rank ({top}) has {width}"
            ),
            FenError::Invalid(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for FenError {}

/// A move text that is not a move here.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// Not a move of this game's notation at all, or (where the game says no more) off
    /// this board.
    Syntax(String),
    /// In the game's notation, but naming a place that is not on this board (column 5
    /// of a 4-column Linetris board): the move text, and `why` in words.
    OffBoard { text: String, why: String },
    /// Well formed, but not legal in this position.
    Illegal(String),
    /// The game is already over: no move is legal.
    GameOver(String),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Syntax(text) => {
                write!(f, "{} is not a move in this game's notation", quote(text))
            }
            MoveError::OffBoard { why, .. } => f.write_str(why),
            MoveError::Illegal(text) => write!(f, "{} is not legal in this position", quote(text)),
            MoveError::GameOver(text) => {
                write!(f, "{} cannot be played: the game is over", quote(text))
            }
        }
    }
}

impl std::error::Error for MoveError {}

/// The proven value of a position, with its arithmetic: it lives in the exact-solving
/// layer ([`crate::search::exact::value`]); the path `game::Value` stays.
pub use crate::search::exact::value::Value;

/// How a match between two engines scores this game (SPEC §2).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Scoring {
    /// Every game counts on its own.
    Games,
    /// Games are played in pairs with the roles swapped, and a pair won once by each
    /// side is broken by a count the game keeps ([`Game::tiebreak_count`]).
    Pairs(TieBreak),
}

/// The count that breaks a 1–1 pair: if both won as p1, the one who counted fewer in
/// the game it won wins; if both won as p2, the one who counted more as p1 (in the game
/// it lost) wins; equal counts draw.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TieBreak {
    /// Its one-word name, as `query` and match records spell it.
    pub name: &'static str,
    /// What it counts, in words for match summaries.
    pub words: &'static str,
}

/// A move as a number, for tables that threads share: an entry is written as whole
/// atomic words, so it holds a code rather than the move itself.
///
/// Distinct moves of one position must have distinct codes below `u32::MAX` (which
/// means "no move"). A code is never turned back into a move: a searcher compares it
/// with the moves it generated, so a code torn by a concurrent write can misorder
/// moves but never make an illegal one.
pub trait MoveCode: Copy {
    fn code(self) -> u32;
}

/// A game: its rules and notation, on one state.
///
/// Implementations are small copyable states. Required methods are the rules;
/// provided methods are conveniences built on them that a game may override
/// for speed (e.g. `count_moves` for bulk perft), and the few rules that only some
/// games have (repetition, a ply limit, pair scoring). How the engine plays a game
/// (evaluation, tables, searcher) is [`crate::search::Strategy`]'s business.
pub trait Game: Clone + Send + Sync + fmt::Debug + 'static {
    /// A move. Must be small and `Copy`; its [`MoveCode`] is what the transposition
    /// table stores.
    type Move: Copy + Eq + MoveCode + fmt::Debug + Send + Sync + 'static;
    /// The immutable facts chosen by the game's options (board size, line length, …).
    type Config: Clone + fmt::Debug + Send + Sync + 'static;

    /// The game's name in the protocol (`neutreeko`).
    const NAME: &'static str;

    /// How a match scores this game.
    const SCORING: Scoring = Scoring::Games;

    /// How the game looks to a person (`play`): glyphs, side names, a rules reminder.
    const LOOK: look::Look = look::Look::GENERIC;

    /// The game's options: names, kinds, bounds and defaults.
    fn option_specs() -> &'static [OptionSpec];

    /// Builds the config from a value for each of the game's options, read by name
    /// ([`Params::spin`], [`Params::check`]), each already within its bounds. Errors on
    /// constraints the bounds cannot express (Talpa's size must be even).
    fn config(params: &Params) -> Result<Self::Config, OptionError>;

    /// The start position under `config`.
    fn start(config: &Self::Config) -> Self;

    /// Reads a position string (SPEC §1). The board's dimensions come from the text and
    /// must be within the game's bounds; `config` supplies the options the text does not
    /// carry (a FEN may thus choose another board size than the options do).
    fn from_fen(config: &Self::Config, fen: &str) -> Result<Self, FenError>;

    /// The letters of the side to move in position strings, for p1 and p2 (`x`, `o`).
    const SIDE_LETTERS: [&'static str; 2];

    /// The board as rows of cells, top rank first: `None` for an empty cell, else the
    /// piece's letter in position strings (SPEC §1).
    fn board(&self) -> Vec<Vec<Option<char>>>;

    /// The position string, always with the ply count: `<board> <side> <plies>`.
    fn fen(&self) -> String {
        format!(
            "{} {} {}",
            format_fen_board(&self.board()),
            Self::SIDE_LETTERS[self.side_to_move().index()],
            self.plies()
        )
    }

    /// The player to move (also defined when the game is over).
    fn side_to_move(&self) -> Player;

    /// Plies played since the game began.
    fn plies(&self) -> u32;

    /// Appends every legal move to `moves` (which the caller clears). Appends nothing
    /// when the game is over by the rules of this state.
    fn generate_moves(&self, moves: &mut Vec<Self::Move>);

    /// Plays a move that `generate_moves` produced. Playing anything else is a logic
    /// error (it may give a nonsense state, but must not be undefined behaviour).
    fn play(&mut self, mv: Self::Move);

    /// The outcome by the rules of this state alone (wins, full boards, ply limits, no
    /// moves), or `None` while the game goes on. Repetition is [`Record`]'s business.
    fn outcome(&self) -> Option<Outcome>;

    /// A hash of (board, side to move): equal positions in the sense of the repetition
    /// rule have equal hashes. It does not include the ply count.
    fn hash(&self) -> u64;

    /// The same hash computed from scratch (for games that update it incrementally);
    /// tests check that both agree.
    fn hash_from_scratch(&self) -> u64 {
        self.hash()
    }

    /// Reads a move in this game's notation, without checking legality (but checking
    /// that it names squares on this board).
    fn parse_move(&self, text: &str) -> Result<Self::Move, MoveError>;

    /// The canonical text of a move.
    fn format_move(&self, mv: Self::Move) -> String;

    /// Whether the threefold repetition rule applies to this game under its options.
    fn repetition_rule(&self) -> bool {
        false
    }

    /// A human-readable board diagram (for the `d` command), without the FEN line:
    /// the board's letters, `.` for empty cells, with coordinates.
    fn diagram(&self) -> String {
        plain_diagram(&notation::with_dots(&self.board()))
    }

    /// The number of legal moves; games may override it with a faster count for perft.
    fn count_moves(&self) -> u64 {
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        moves.len() as u64
    }

    /// The same position with any ply-limit draw switched off: perft applies no
    /// ply-limit (or repetition) draw (SPEC §3). Games with a ply limit override it.
    fn without_ply_limit(&self) -> Self {
        self.clone()
    }

    /// Reads a move and checks that it is legal here.
    fn legal_move(&self, text: &str) -> Result<Self::Move, MoveError> {
        let mv = self.parse_move(text)?;
        if self.outcome().is_some() {
            return Err(MoveError::GameOver(text.to_string()));
        }
        let mut moves = Vec::new();
        self.generate_moves(&mut moves);
        if moves.contains(&mv) {
            Ok(mv)
        } else {
            Err(MoveError::Illegal(text.to_string()))
        }
    }

    /// The tie-break count of this position under pair scoring ([`Scoring::Pairs`]);
    /// 0 for games scored game by game.
    fn tiebreak_count(&self) -> u32 {
        0
    }
}

/// The default config of a game: every option at its default.
pub fn default_config<G: Game>() -> G::Config {
    match G::config(&Params::defaults(G::option_specs())) {
        Ok(config) => config,
        // The defaults are part of each game's definition; a game whose defaults do
        // not form a valid config is a programming error caught by every test.
        Err(why) => panic!("{}: default options rejected: {why}", G::NAME),
    }
}

/// A game as it was played: the state now, the hashes of every position since the
/// record began (for repetition), and a forfeit by an illegal move.
#[derive(Clone, Debug)]
pub struct Record<G: Game> {
    state: G,
    /// Hash of every position of the record, the start included, the current last.
    history: Vec<u64>,
    moves: Vec<G::Move>,
    forfeit: Option<Player>,
}

impl<G: Game> Record<G> {
    pub fn new(state: G) -> Self {
        let history = vec![state.hash()];
        Record {
            state,
            history,
            moves: Vec::new(),
            forfeit: None,
        }
    }

    pub fn state(&self) -> &G {
        &self.state
    }

    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Hashes of every position so far, the current one last.
    pub fn history(&self) -> &[u64] {
        &self.history
    }

    /// How many times the current position has occurred in this record.
    pub fn occurrences(&self) -> usize {
        let now = self.state.hash();
        self.history.iter().filter(|&&h| h == now).count()
    }

    /// The outcome: a forfeit, then the rules of the state, then threefold repetition.
    pub fn outcome(&self) -> Option<Outcome> {
        if let Some(loser) = self.forfeit {
            return Some(Outcome::Win(loser.other()));
        }
        if let Some(outcome) = self.state.outcome() {
            return Some(outcome);
        }
        if self.state.repetition_rule() && self.occurrences() >= 3 {
            return Some(Outcome::Draw);
        }
        None
    }

    /// Plays a move given as text, if it is legal and the game is not over.
    pub fn play_text(&mut self, text: &str) -> Result<G::Move, MoveError> {
        if self.outcome().is_some() {
            return Err(MoveError::GameOver(text.to_string()));
        }
        let mv = self.state.legal_move(text)?;
        self.play(mv);
        Ok(mv)
    }

    /// Plays a legal move (unchecked).
    pub fn play(&mut self, mv: G::Move) {
        self.state.play(mv);
        self.history.push(self.state.hash());
        self.moves.push(mv);
    }

    /// Records that the side to move tried an illegal move and so lost the game.
    pub fn forfeit_by_side_to_move(&mut self) {
        self.forfeit = Some(self.state.side_to_move());
    }

    /// Legal moves now, taking the record's own end (forfeit, repetition) into account.
    pub fn legal_moves(&self) -> Vec<G::Move> {
        let mut moves = Vec::new();
        if self.outcome().is_none() {
            self.state.generate_moves(&mut moves);
        }
        moves
    }
}
