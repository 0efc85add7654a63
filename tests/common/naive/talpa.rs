//! Talpa (SPEC §2), naively: a grid of cells, moves as text, paths by breadth-first
//! search. Shares nothing with the engine but the FEN text.

use std::collections::VecDeque;

use tabuleiro::game::{Outcome, Player};
use tabuleiro::games::talpa::{Config, Talpa};

use super::{NaiveRules, Solvable, board_rows};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Cell {
    Empty,
    Red,
    Blue,
}

#[derive(Clone, Debug)]
pub struct Naive {
    pub size: usize,
    /// `cells[rank][file]`, rank 0 at the bottom.
    pub cells: Vec<Vec<Cell>>,
    pub red_to_move: bool,
    /// The winner once the game is over: `Some(true)` red, `Some(false)` blue.
    pub winner: Option<bool>,
}

fn name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

fn neighbours(size: usize, file: usize, rank: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    if file > 0 {
        out.push((file - 1, rank));
    }
    if file + 1 < size {
        out.push((file + 1, rank));
    }
    if rank > 0 {
        out.push((file, rank - 1));
    }
    if rank + 1 < size {
        out.push((file, rank + 1));
    }
    out
}

impl Naive {
    pub fn from_fen(text: &str) -> Naive {
        let mut fields = text.split(' ');
        let board = fields.next().unwrap();
        let side = fields.next().unwrap();
        let rows: Vec<Vec<Cell>> = board_rows(board)
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&c| match c {
                        'r' => Cell::Red,
                        'b' => Cell::Blue,
                        _ => Cell::Empty,
                    })
                    .collect()
            })
            .collect();
        let mut board = Naive {
            size: rows.len(),
            cells: rows,
            red_to_move: side == "r",
            winner: None,
        };
        board.winner = board.judge();
        board
    }

    /// BFS over empty cells from one edge to the other.
    pub fn has_path(&self, red: bool) -> bool {
        let n = self.size;
        let mut seen = vec![vec![false; n]; n];
        let mut queue = VecDeque::new();
        for i in 0..n {
            let (file, rank) = if red { (i, n - 1) } else { (0, i) };
            if self.cells[rank][file] == Cell::Empty {
                seen[rank][file] = true;
                queue.push_back((file, rank));
            }
        }
        while let Some((file, rank)) = queue.pop_front() {
            if (red && rank == 0) || (!red && file == n - 1) {
                return true;
            }
            for (f, r) in neighbours(n, file, rank) {
                if !seen[r][f] && self.cells[r][f] == Cell::Empty {
                    seen[r][f] = true;
                    queue.push_back((f, r));
                }
            }
        }
        false
    }

    /// The rule after a move, the side not to move being the mover.
    fn judge(&self) -> Option<bool> {
        let mover_red = !self.red_to_move;
        if self.has_path(!mover_red) {
            return Some(!mover_red);
        }
        if self.has_path(mover_red) {
            return Some(mover_red);
        }
        if self.moves_ignoring_end().is_empty() {
            return Some(mover_red);
        }
        None
    }

    fn moves_ignoring_end(&self) -> Vec<String> {
        let n = self.size;
        let (own, enemy) = if self.red_to_move {
            (Cell::Red, Cell::Blue)
        } else {
            (Cell::Blue, Cell::Red)
        };
        let mut captures = Vec::new();
        let mut removals = Vec::new();
        for rank in 0..n {
            for file in 0..n {
                if self.cells[rank][file] != own {
                    continue;
                }
                removals.push(name(file, rank));
                for (f, r) in neighbours(n, file, rank) {
                    if self.cells[r][f] == enemy {
                        captures.push(format!("{}{}", name(file, rank), name(f, r)));
                    }
                }
            }
        }
        if captures.is_empty() {
            removals
        } else {
            captures
        }
    }

    pub fn moves(&self) -> Vec<String> {
        if self.winner.is_some() {
            return Vec::new();
        }
        self.moves_ignoring_end()
    }

    fn square(text: &str) -> (usize, usize) {
        let file = (text.as_bytes()[0] - b'a') as usize;
        let rank: usize = text[1..].parse().unwrap();
        (file, rank - 1)
    }

    pub fn play(&mut self, mv: &str) {
        // Split after the digits of the first square.
        let split = 1 + mv[1..]
            .find(|c: char| c.is_ascii_lowercase())
            .unwrap_or(mv.len() - 1);
        let (ff, fr) = Naive::square(&mv[..split]);
        let piece = self.cells[fr][ff];
        self.cells[fr][ff] = Cell::Empty;
        if split < mv.len() {
            let (tf, tr) = Naive::square(&mv[split..]);
            self.cells[tr][tf] = piece;
        }
        self.red_to_move = !self.red_to_move;
        self.winner = self.judge();
    }
}

impl NaiveRules for Naive {
    type Game = Talpa;

    /// Red holds the squares with rank + file odd (red on the top-left corner), and
    /// moves first.
    fn start(config: &Config) -> Naive {
        let n = config.size;
        let cells = (0..n)
            .map(|rank| {
                (0..n)
                    .map(|file| {
                        if (rank + file) % 2 == 1 {
                            Cell::Red
                        } else {
                            Cell::Blue
                        }
                    })
                    .collect()
            })
            .collect();
        Naive {
            size: n,
            cells,
            red_to_move: true,
            winner: None,
        }
    }

    fn from_fen(_config: &Config, fen: &str) -> Naive {
        Naive::from_fen(fen)
    }

    fn move_texts(&self) -> Vec<String> {
        self.moves()
    }

    fn play_text(&mut self, text: &str) {
        self.play(text);
    }

    fn outcome(&self) -> Option<Outcome> {
        self.winner
            .map(|red| Outcome::Win(if red { Player::P1 } else { Player::P2 }))
    }
}

impl Solvable for Naive {
    fn side_to_move(&self) -> Player {
        if self.red_to_move {
            Player::P1
        } else {
            Player::P2
        }
    }

    /// A letter a cell, then the side to move.
    fn key(&self) -> String {
        self.cells
            .iter()
            .flatten()
            .map(|cell| match cell {
                Cell::Empty => '.',
                Cell::Red => 'r',
                Cell::Blue => 'b',
            })
            .chain([if self.red_to_move { 'r' } else { 'b' }])
            .collect()
    }
}
