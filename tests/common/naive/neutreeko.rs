//! Neutreeko (SPEC §2), naively: a 5×5 array of chars, slides walked one square at a
//! time, moves as text, and its own three-in-a-row scan over rows, columns and both
//! diagonal directions. Also brute-force proofs (`wins_within`) for the search tests.

use tabuleiro::game::{Outcome, Player};
use tabuleiro::games::neutreeko::Neutreeko;

use super::{DIRECTIONS, NaiveRules};

/// `board[rank][file]`, rank 0 = rank `1` (the bottom), file 0 = file `a`.
/// Cells are `'b'`, `'w'` or `'.'`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Naive {
    pub board: [[char; 5]; 5],
    /// `'b'` or `'w'`.
    pub side: char,
}

/// A slide from (file, rank) to (file, rank).
pub type NaiveMove = ((usize, usize), (usize, usize));

impl Naive {
    /// Reads `<board> <side> [<plies>]`; panics on anything odd (test inputs only).
    pub fn from_fen(fen: &str) -> Naive {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let ranks: Vec<&str> = fields[0].split('/').collect();
        assert_eq!(ranks.len(), 5, "{fen}");
        let mut board = [['.'; 5]; 5];
        for (index, text) in ranks.iter().enumerate() {
            let rank = 4 - index;
            let mut file = 0;
            for c in text.chars() {
                if let Some(run) = c.to_digit(10) {
                    file += run as usize;
                } else {
                    assert!(c == 'b' || c == 'w', "{fen}");
                    board[rank][file] = c;
                    file += 1;
                }
            }
            assert_eq!(file, 5, "{fen}");
        }
        let side = fields[1].chars().next().unwrap();
        assert!(side == 'b' || side == 'w', "{fen}");
        Naive { board, side }
    }

    pub fn start() -> Naive {
        Naive::from_fen("1w1w1/2b2/5/2w2/1b1b1 b")
    }

    /// `<board> <side>` (no ply count).
    pub fn fen(&self) -> String {
        let mut out = String::new();
        for rank in (0..5).rev() {
            let mut empty = 0;
            for file in 0..5 {
                let c = self.board[rank][file];
                if c == '.' {
                    empty += 1;
                } else {
                    if empty > 0 {
                        out.push_str(&empty.to_string());
                        empty = 0;
                    }
                    out.push(c);
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if rank > 0 {
                out.push('/');
            }
        }
        out.push(' ');
        out.push(self.side);
        out
    }

    fn other(side: char) -> char {
        if side == 'b' { 'w' } else { 'b' }
    }

    /// Whether `piece` has three adjacent cells in a row, column or diagonal.
    pub fn three_in_a_row(&self, piece: char) -> bool {
        let at = |file: i32, rank: i32| -> bool {
            (0..5).contains(&file)
                && (0..5).contains(&rank)
                && self.board[rank as usize][file as usize] == piece
        };
        for rank in 0..5 {
            for file in 0..5 {
                // Rows, columns, rising and falling diagonals starting here.
                for (df, dr) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    if at(file, rank)
                        && at(file + df, rank + dr)
                        && at(file + 2 * df, rank + 2 * dr)
                    {
                        return true;
                    }
                }
            }
        }
        false
    }

    /// The winner, if someone has three in a row (the player who just moved first).
    pub fn winner(&self) -> Option<char> {
        let mover = Naive::other(self.side);
        if self.three_in_a_row(mover) {
            Some(mover)
        } else if self.three_in_a_row(self.side) {
            Some(self.side)
        } else {
            None
        }
    }

    /// Every legal slide; none once someone has three in a row.
    pub fn moves(&self) -> Vec<NaiveMove> {
        let mut out = Vec::new();
        if self.winner().is_some() {
            return out;
        }
        for rank in 0..5 {
            for file in 0..5 {
                if self.board[rank][file] != self.side {
                    continue;
                }
                for (df, dr) in DIRECTIONS {
                    let (mut f, mut r) = (file as i32, rank as i32);
                    loop {
                        let (nf, nr) = (f + df, r + dr);
                        if !(0..5).contains(&nf) || !(0..5).contains(&nr) {
                            break;
                        }
                        if self.board[nr as usize][nf as usize] != '.' {
                            break;
                        }
                        f = nf;
                        r = nr;
                    }
                    if (f, r) != (file as i32, rank as i32) {
                        out.push(((file, rank), (f as usize, r as usize)));
                    }
                }
            }
        }
        out
    }

    pub fn play(&self, mv: NaiveMove) -> Naive {
        let ((f1, r1), (f2, r2)) = mv;
        let mut next = *self;
        assert_eq!(next.board[r1][f1], self.side);
        assert_eq!(next.board[r2][f2], '.');
        next.board[r1][f1] = '.';
        next.board[r2][f2] = self.side;
        next.side = Naive::other(self.side);
        next
    }

    pub fn move_text(mv: NaiveMove) -> String {
        let ((f1, r1), (f2, r2)) = mv;
        let name = |f: usize, r: usize| format!("{}{}", (b'a' + f as u8) as char, r + 1);
        format!("{}{}", name(f1, r1), name(f2, r2))
    }

    /// The exact result for the side to move within `plies` plies by brute force
    /// (no repetition, no pruning): `Some(true)` if it can force a win in at most
    /// `plies` plies, false otherwise. Only for tiny depths.
    pub fn wins_within(&self, plies: u32) -> bool {
        if plies == 0 || self.winner().is_some() {
            return false;
        }
        self.moves().into_iter().any(|mv| {
            let child = self.play(mv);
            child.winner() == Some(self.side) || child.loses_within(plies - 1)
        })
    }

    /// Whether the side to move loses by force within `plies` plies, whatever it plays.
    pub fn loses_within(&self, plies: u32) -> bool {
        if self.winner() == Some(Naive::other(self.side)) {
            return true;
        }
        if plies == 0 || self.winner().is_some() {
            return false;
        }
        let moves = self.moves();
        // No legal move: a loss (SPEC §2).
        moves.is_empty()
            || moves.into_iter().all(|mv| {
                let child = self.play(mv);
                child.winner() != Some(self.side) && child.wins_within(plies - 1)
            })
    }
}

impl NaiveRules for Naive {
    type Game = Neutreeko;

    fn start(_config: &()) -> Naive {
        Naive::start()
    }

    fn from_fen(_config: &(), fen: &str) -> Naive {
        Naive::from_fen(fen)
    }

    fn move_texts(&self) -> Vec<String> {
        self.moves().into_iter().map(Naive::move_text).collect()
    }

    fn play_text(&mut self, text: &str) {
        let square = |at: usize| {
            let bytes = text.as_bytes();
            ((bytes[at] - b'a') as usize, (bytes[at + 1] - b'1') as usize)
        };
        *self = self.play((square(0), square(2)));
    }

    /// A three in a row wins; a side to move without a move loses.
    fn outcome(&self) -> Option<Outcome> {
        let player = |side: char| if side == 'b' { Player::P1 } else { Player::P2 };
        match self.winner() {
            Some(side) => Some(Outcome::Win(player(side))),
            None if self.moves().is_empty() => Some(Outcome::Win(player(Naive::other(self.side)))),
            None => None,
        }
    }

    /// The board and the side to move (the engine adds the ply count).
    fn fen_prefix(&self) -> Option<String> {
        Some(self.fen())
    }
}
