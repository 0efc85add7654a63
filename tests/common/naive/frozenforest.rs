//! Frozen Forest (SPEC §2), naively: plain 2D arrays, a plain gcd walk for sight,
//! squares for moves.

use tabuleiro::game::{Outcome, Player};
use tabuleiro::games::frozenforest::{Config, FrozenForest};

use super::{DIRECTIONS, NaiveRules, Solvable, board_rows};

#[derive(Clone)]
pub struct Naive {
    /// `tree[file][rank]`.
    tree: [[bool; 10]; 10],
    yuki: Option<(i32, i32)>,
    mina: Option<(i32, i32)>,
    yuki_to_move: bool,
}

fn naive_gcd(a: i32, b: i32) -> i32 {
    if b == 0 { a.abs() } else { naive_gcd(b, a % b) }
}

impl Naive {
    pub fn start(trees: usize) -> Naive {
        let offset = (10 - trees) / 2;
        let mut tree = [[false; 10]; 10];
        // Offset from the left, and from the top: rows from the top are ranks 9, 8, …
        for from_top in offset..offset + trees {
            for column in tree.iter_mut().skip(offset).take(trees) {
                column[9 - from_top] = true;
            }
        }
        Naive {
            tree,
            yuki: None,
            mina: None,
            yuki_to_move: true,
        }
    }

    fn is_tree(&self, (f, r): (i32, i32)) -> bool {
        self.tree[f as usize][r as usize]
    }

    /// Whether a tree hides `to` from `from`: walk the gcd lattice line.
    fn hidden(&self, from: (i32, i32), to: (i32, i32)) -> bool {
        let (dx, dy) = (to.0 - from.0, to.1 - from.1);
        let g = naive_gcd(dx.abs(), dy.abs());
        (1..g).any(|k| self.is_tree((from.0 + k * dx / g, from.1 + k * dy / g)))
    }

    fn on_board((f, r): (i32, i32)) -> bool {
        (0..10).contains(&f) && (0..10).contains(&r)
    }

    pub fn moves(&self) -> Vec<(i32, i32)> {
        let all: Vec<(i32, i32)> = (0..10).flat_map(|f| (0..10).map(move |r| (f, r))).collect();
        let mut out = Vec::new();
        match (self.yuki, self.mina, self.yuki_to_move) {
            (None, _, true) => out.extend(all.iter().filter(|&&c| self.is_tree(c))),
            (Some(y), None, false) => {
                out.extend(
                    all.iter()
                        .filter(|&&c| self.is_tree(c) && self.hidden(y, c)),
                );
            }
            (Some(y), Some(m), true) => {
                for (df, dr) in DIRECTIONS {
                    let c = (y.0 + df, y.1 + dr);
                    if Self::on_board(c) && self.is_tree(c) && c != m && !self.hidden(c, m) {
                        out.push(c);
                    }
                }
            }
            (Some(y), Some(m), false) => {
                for (df, dr) in DIRECTIONS {
                    let mut c = (m.0 + df, m.1 + dr);
                    while Self::on_board(c) {
                        if c != y && self.hidden(y, c) {
                            out.push(c);
                        }
                        c = (c.0 + df, c.1 + dr);
                    }
                }
            }
            _ => {}
        }
        out
    }

    pub fn yuki_to_move(&self) -> bool {
        self.yuki_to_move
    }

    pub fn name((f, r): (i32, i32)) -> String {
        format!("{}{}", (b'a' + f as u8) as char, r + 1)
    }

    pub fn move_names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.moves().into_iter().map(Self::name).collect();
        names.sort();
        names
    }

    pub fn play(&mut self, c: (i32, i32)) {
        if self.yuki_to_move {
            self.yuki = Some(c);
            self.tree[c.0 as usize][c.1 as usize] = false;
        } else {
            self.mina = Some(c);
        }
        self.yuki_to_move = !self.yuki_to_move;
    }

    /// The board part of the FEN, written plainly.
    pub fn board(&self) -> String {
        let mut ranks = Vec::new();
        for r in (0..10).rev() {
            let mut text = String::new();
            let mut run = 0;
            for f in 0..10 {
                let c = if self.yuki == Some((f, r)) {
                    Some('y')
                } else if self.mina == Some((f, r)) {
                    Some(if self.is_tree((f, r)) { 'M' } else { 'm' })
                } else if self.is_tree((f, r)) {
                    Some('t')
                } else {
                    None
                };
                match c {
                    None => run += 1,
                    Some(c) => {
                        if run > 0 {
                            text += &run.to_string();
                            run = 0;
                        }
                        text.push(c);
                    }
                }
            }
            if run > 0 {
                text += &run.to_string();
            }
            ranks.push(text);
        }
        ranks.join("/")
    }
}

impl NaiveRules for Naive {
    type Game = FrozenForest;

    fn start(config: &Config) -> Naive {
        Naive::start(usize::from(config.trees))
    }

    /// `t` a tree, `y` Yuki, `m` Mina (`M` Mina on a tree); `y` or `m` to move.
    fn from_fen(_config: &Config, fen: &str) -> Naive {
        let fields: Vec<&str> = fen.split_whitespace().collect();
        let mut naive = Naive {
            tree: [[false; 10]; 10],
            yuki: None,
            mina: None,
            yuki_to_move: fields[1] == "y",
        };
        for (r, row) in board_rows(fields[0]).iter().enumerate() {
            for (f, &c) in row.iter().enumerate() {
                let at = (f as i32, r as i32);
                match c {
                    't' => naive.tree[f][r] = true,
                    'y' => naive.yuki = Some(at),
                    'm' => naive.mina = Some(at),
                    'M' => {
                        naive.mina = Some(at);
                        naive.tree[f][r] = true;
                    }
                    _ => {}
                }
            }
        }
        naive
    }

    fn move_texts(&self) -> Vec<String> {
        self.move_names()
    }

    fn play_text(&mut self, text: &str) {
        let file = (text.as_bytes()[0] - b'a') as i32;
        let rank: i32 = text[1..].parse().unwrap();
        self.play((file, rank - 1));
    }

    /// The side to move without a move has lost.
    fn outcome(&self) -> Option<Outcome> {
        self.moves()
            .is_empty()
            .then_some(Outcome::Win(if self.yuki_to_move {
                Player::P2
            } else {
                Player::P1
            }))
    }

    /// The board, then `y` or `m` to move (the engine adds the ply count).
    fn fen_prefix(&self) -> Option<String> {
        Some(format!(
            "{} {}",
            self.board(),
            if self.yuki_to_move { 'y' } else { 'm' }
        ))
    }
}

impl Solvable for Naive {
    fn side_to_move(&self) -> Player {
        if self.yuki_to_move {
            Player::P1
        } else {
            Player::P2
        }
    }

    fn key(&self) -> String {
        format!("{} {}", self.board(), self.yuki_to_move)
    }
}
