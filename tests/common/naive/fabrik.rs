//! Fabrik (SPEC §2), naively: a plain 2D array of characters, rules written straight
//! from SPEC.

use tabuleiro::game::{Outcome, Player};
use tabuleiro::games::fabrik::{Config, Fabrik};

use super::{DIRECTIONS, NaiveRules, board_rows};

#[derive(Clone, Debug)]
pub struct Naive {
    pub size: usize,
    pub length: usize,
    /// `cells[rank][file]`: '.', 'x', 'o' or 'w'.
    pub cells: Vec<Vec<char>>,
    pub side: char,
    pub winner: Option<char>,
}

impl Naive {
    /// Reads the board and side of a FEN (assumed well formed: it comes from the engine).
    pub fn from_fen(fen: &str, length: usize) -> Naive {
        let mut fields = fen.split(' ');
        let rows = board_rows(fields.next().unwrap());
        let side = fields.next().unwrap().chars().next().unwrap();
        Naive {
            size: rows.len(),
            length,
            cells: rows,
            side,
            winner: None,
        }
    }

    fn count(&self, c: char) -> usize {
        self.cells.iter().flatten().filter(|&&x| x == c).count()
    }

    fn workers(&self) -> Vec<(usize, usize)> {
        let mut found = Vec::new();
        for r in 0..self.size {
            for f in 0..self.size {
                if self.cells[r][f] == 'w' {
                    found.push((f, r));
                }
            }
        }
        found
    }

    /// Whether the worker on `from` sees the empty square `to`: walk one step at a time.
    fn sees(&self, from: (usize, usize), to: (usize, usize)) -> bool {
        let (dx, dy) = (to.0 as i32 - from.0 as i32, to.1 as i32 - from.1 as i32);
        if (dx, dy) == (0, 0) || !(dx == 0 || dy == 0 || dx.abs() == dy.abs()) {
            return false;
        }
        let (sx, sy) = (dx.signum(), dy.signum());
        let (mut x, mut y) = (from.0 as i32 + sx, from.1 as i32 + sy);
        loop {
            if self.cells[y as usize][x as usize] != '.' {
                return false;
            }
            if (x, y) == (to.0 as i32, to.1 as i32) {
                return true;
            }
            x += sx;
            y += sy;
        }
    }

    fn placeable(&self) -> Vec<(usize, usize)> {
        let workers = self.workers();
        let mut result = Vec::new();
        for r in 0..self.size {
            for f in 0..self.size {
                if self.cells[r][f] == '.'
                    && self.sees(workers[0], (f, r))
                    && self.sees(workers[1], (f, r))
                {
                    result.push((f, r));
                }
            }
        }
        result
    }

    fn name((f, r): (usize, usize)) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    pub fn moves(&self) -> Vec<String> {
        if self.winner.is_some() {
            return Vec::new();
        }
        let mut moves = Vec::new();
        let workers = self.workers();
        let stones = self.count('x') + self.count('o');
        if workers.len() < 2 {
            for r in 0..self.size {
                for f in 0..self.size {
                    if self.cells[r][f] == '.' {
                        moves.push(Naive::name((f, r)));
                    }
                }
            }
            return moves;
        }
        for square in self.placeable() {
            moves.push(Naive::name(square));
        }
        if stones == 0 {
            if self.side == 'x' {
                moves.push("pass".to_string());
            }
            return moves;
        }
        for &worker in &workers {
            for r in 0..self.size {
                for f in 0..self.size {
                    if self.cells[r][f] != '.' {
                        continue;
                    }
                    let mut moved = self.clone();
                    moved.cells[worker.1][worker.0] = '.';
                    moved.cells[r][f] = 'w';
                    for square in moved.placeable() {
                        moves.push(format!(
                            "{}{}{}",
                            Naive::name(worker),
                            Naive::name((f, r)),
                            Naive::name(square)
                        ));
                    }
                }
            }
        }
        moves
    }

    fn parse_square(text: &str) -> ((usize, usize), &str) {
        let file = (text.as_bytes()[0] - b'a') as usize;
        let digits = text[1..].chars().take_while(|c| c.is_ascii_digit()).count();
        let rank: usize = text[1..1 + digits].parse().unwrap();
        ((file, rank - 1), &text[1 + digits..])
    }

    fn line_through(&self, (f, r): (usize, usize)) -> bool {
        let colour = self.cells[r][f];
        for &(dx, dy) in &DIRECTIONS {
            let mut run = 1;
            for sign in [1, -1] {
                let (mut x, mut y) = (f as i32 + sign * dx, r as i32 + sign * dy);
                while x >= 0
                    && y >= 0
                    && (x as usize) < self.size
                    && (y as usize) < self.size
                    && self.cells[y as usize][x as usize] == colour
                {
                    run += 1;
                    x += sign * dx;
                    y += sign * dy;
                }
            }
            if run >= self.length {
                return true;
            }
        }
        false
    }

    pub fn has_line(&self) -> bool {
        (0..self.size).any(|r| {
            (0..self.size).any(|f| "xo".contains(self.cells[r][f]) && self.line_through((f, r)))
        })
    }

    pub fn play(&mut self, text: &str) {
        if text == "pass" {
            self.side = if self.side == 'x' { 'o' } else { 'x' };
            return;
        }
        let placing_worker = self.workers().len() < 2;
        let (first, rest) = Naive::parse_square(text);
        let target = if rest.is_empty() {
            first
        } else {
            let (to, rest) = Naive::parse_square(rest);
            let (square, _) = Naive::parse_square(rest);
            self.cells[first.1][first.0] = '.';
            self.cells[to.1][to.0] = 'w';
            square
        };
        if placing_worker {
            self.cells[target.1][target.0] = 'w';
        } else {
            self.cells[target.1][target.0] = self.side;
            if self.line_through(target) {
                self.winner = Some(self.side);
            }
        }
        self.side = if self.side == 'x' { 'o' } else { 'x' };
    }
}

impl NaiveRules for Naive {
    type Game = Fabrik;

    /// An empty board of the `Size` option, x to place the first worker.
    fn start(config: &Config) -> Naive {
        let size = usize::from(config.size);
        Naive {
            size,
            length: usize::from(config.line_length),
            cells: vec![vec!['.'; size]; size],
            side: 'x',
            winner: None,
        }
    }

    /// The board's size comes from the FEN, `LineLength` from `config`; a line on the
    /// board has won.
    fn from_fen(config: &Config, fen: &str) -> Naive {
        let mut naive = Naive::from_fen(fen, usize::from(config.line_length));
        for r in 0..naive.size {
            for f in 0..naive.size {
                let colour = naive.cells[r][f];
                if "xo".contains(colour) && naive.line_through((f, r)) {
                    naive.winner = Some(colour);
                }
            }
        }
        naive
    }

    fn move_texts(&self) -> Vec<String> {
        self.moves()
    }

    fn play_text(&mut self, text: &str) {
        self.play(text);
    }

    /// A line wins; a side to move that cannot place loses.
    fn outcome(&self) -> Option<Outcome> {
        let player = |side: char| if side == 'x' { Player::P1 } else { Player::P2 };
        match self.winner {
            Some(side) => Some(Outcome::Win(player(side))),
            None if self.moves().is_empty() => Some(Outcome::Win(player(if self.side == 'x' {
                'o'
            } else {
                'x'
            }))),
            None => None,
        }
    }
}
