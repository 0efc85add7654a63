//! Linetris / Connect Four (SPEC §2), naively: a plain grid, the rules read off SPEC.
//! The solver tests solve it with the one generic `minimax` of `naive.rs`.

use tabuleiro::game::{Outcome, Player};
use tabuleiro::games::linetris::{Config, Linetris};

use super::{NaiveRules, Solvable, board_rows};

#[derive(Clone)]
pub struct Naive {
    rows: usize,
    cols: usize,
    row_clear: bool,
    limit: u32,
    /// grid[row][col], row 0 at the bottom: 0 empty, 1 x, 2 o.
    grid: [[u8; 10]; 10],
    /// 1 or 2.
    side: u8,
    plies: u32,
    winner: Option<u8>,
}

impl Naive {
    pub fn new(c: &Config) -> Self {
        Naive {
            rows: c.rows as usize,
            cols: c.cols as usize,
            row_clear: c.row_clear,
            limit: if c.max_plies == 0 {
                4 * c.rows * c.cols
            } else {
                c.max_plies
            },
            grid: [[0; 10]; 10],
            side: 1,
            plies: 0,
            winner: None,
        }
    }

    pub fn full(&self) -> bool {
        (0..self.cols).all(|c| self.grid[self.rows - 1][c] != 0)
    }

    pub fn over(&self) -> bool {
        self.winner.is_some() || self.full() || self.plies >= self.limit
    }

    pub fn outcome(&self) -> Option<Outcome> {
        match self.winner {
            Some(1) => Some(Outcome::Win(Player::P1)),
            Some(_) => Some(Outcome::Win(Player::P2)),
            None if self.over() => Some(Outcome::Draw),
            None => None,
        }
    }

    /// Legal columns, 0-based, left to right.
    pub fn moves(&self) -> Vec<usize> {
        if self.over() {
            return Vec::new();
        }
        (0..self.cols)
            .filter(|&c| self.grid[self.rows - 1][c] == 0)
            .collect()
    }

    /// Whether the piece at (row, col) is part of 4 or more in a line.
    pub fn four_through(&self, row: usize, col: usize) -> bool {
        let who = self.grid[row][col];
        for (dr, dc) in [(0i32, 1i32), (1, 0), (1, 1), (1, -1)] {
            let mut count = 1;
            for sign in [1, -1] {
                let (mut r, mut c) = (row as i32, col as i32);
                loop {
                    r += sign * dr;
                    c += sign * dc;
                    if r < 0 || c < 0 || r >= self.rows as i32 || c >= self.cols as i32 {
                        break;
                    }
                    if self.grid[r as usize][c as usize] != who {
                        break;
                    }
                    count += 1;
                }
            }
            if count >= 4 {
                return true;
            }
        }
        false
    }

    pub fn play(&mut self, col: usize) {
        let row = (0..self.rows)
            .find(|&r| self.grid[r][col] == 0)
            .expect("column not full");
        self.grid[row][col] = self.side;
        if self.four_through(row, col) {
            self.winner = Some(self.side);
        } else if self.row_clear && (0..self.cols).all(|c| self.grid[0][c] != 0) {
            for r in 0..self.rows - 1 {
                self.grid[r] = self.grid[r + 1];
            }
            self.grid[self.rows - 1] = [0; 10];
        }
        self.side = 3 - self.side;
        self.plies += 1;
    }

    pub fn fen(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..self.rows).rev() {
            let mut text = String::new();
            let mut run = 0;
            for c in 0..self.cols {
                match self.grid[r][c] {
                    0 => run += 1,
                    v => {
                        if run > 0 {
                            text += &run.to_string();
                            run = 0;
                        }
                        text.push(if v == 1 { 'x' } else { 'o' });
                    }
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            ranks.push(text);
        }
        let side = if self.side == 1 { 'x' } else { 'o' };
        format!("{} {side} {}", ranks.join("/"), self.plies)
    }
}

impl NaiveRules for Naive {
    type Game = Linetris;

    fn start(config: &Config) -> Naive {
        Naive::new(config)
    }

    /// The board's size comes from the FEN, `RowClear` and `MaxPlies` from `config`.
    fn from_fen(config: &Config, fen: &str) -> Naive {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let rows: Vec<Vec<u8>> = board_rows(fields[0])
            .iter()
            .map(|row| {
                row.iter()
                    .map(|&c| match c {
                        'x' => 1,
                        'o' => 2,
                        _ => 0,
                    })
                    .collect()
            })
            .collect();
        let size = Config {
            rows: rows.len() as u32,
            cols: rows[0].len() as u32,
            ..*config
        };
        let mut naive = Naive::new(&size);
        for (r, row) in rows.iter().enumerate() {
            naive.grid[r][..row.len()].copy_from_slice(row);
        }
        naive.side = if fields[1] == "x" { 1 } else { 2 };
        naive.plies = fields.get(2).map_or(0, |p| p.parse().unwrap());
        // A four on the board: its owner won.
        for r in 0..naive.rows {
            for c in 0..naive.cols {
                if naive.grid[r][c] != 0 && naive.four_through(r, c) {
                    naive.winner = Some(naive.grid[r][c]);
                }
            }
        }
        naive
    }

    /// Columns numbered from 1.
    fn move_texts(&self) -> Vec<String> {
        self.moves().iter().map(|c| (c + 1).to_string()).collect()
    }

    fn play_text(&mut self, text: &str) {
        self.play(text.parse::<usize>().unwrap() - 1);
    }

    fn outcome(&self) -> Option<Outcome> {
        Naive::outcome(self)
    }

    fn without_ply_limit(mut self) -> Naive {
        self.limit = u32::MAX;
        self
    }

    fn fen_prefix(&self) -> Option<String> {
        Some(self.fen())
    }
}

impl Solvable for Naive {
    fn side_to_move(&self) -> Player {
        if self.side == 1 {
            Player::P1
        } else {
            Player::P2
        }
    }

    fn key(&self) -> String {
        self.fen()
    }
}
