//! Fabrik's evaluation features (`tabuleiro::games::fabrik::features`) against plain
//! counts from the board's coordinates on the positions of random games: windows,
//! completion squares, placeable squares, reach (the placements of the generated
//! moves), open squares beside the workers, the workers' empty region; and the cramped
//! flag against playing every move.

use tabuleiro::game::{Game, Player};
use tabuleiro::games::fabrik::features::{FEATURES, NAMES, features};
use tabuleiro::games::fabrik::{Config, Fabrik, MoveKind, Phase};
use tabuleiro::rng::Xorshift;

const STRIDE: i32 = 11;
const DIRS: [(i32, i32); 8] = [
    (1, 0),
    (0, 1),
    (1, 1),
    (-1, 1),
    (-1, 0),
    (0, -1),
    (-1, -1),
    (1, -1),
];

/// The board as a grid: `b'x'`, `b'o'`, `b'w'` or `b'.'`, indexed `[rank][file]`.
struct Grid {
    size: i32,
    cells: Vec<Vec<u8>>,
}

impl Grid {
    fn of(p: &Fabrik) -> Grid {
        let size = p.size() as i32;
        let at = |set: u128, f: i32, r: i32| set >> (r * STRIDE + f) & 1 == 1;
        let cells = (0..size)
            .map(|r| {
                (0..size)
                    .map(|f| {
                        if at(p.stones(Player::P1), f, r) {
                            b'x'
                        } else if at(p.stones(Player::P2), f, r) {
                            b'o'
                        } else if at(p.workers(), f, r) {
                            b'w'
                        } else {
                            b'.'
                        }
                    })
                    .collect()
            })
            .collect();
        Grid { size, cells }
    }

    fn get(&self, f: i32, r: i32) -> Option<u8> {
        (f >= 0 && r >= 0 && f < self.size && r < self.size)
            .then(|| self.cells[r as usize][f as usize])
    }

    fn empty(&self, f: i32, r: i32) -> bool {
        self.get(f, r) == Some(b'.')
    }

    fn all(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        (0..self.size).flat_map(move |r| (0..self.size).map(move |f| (f, r)))
    }

    fn workers(&self) -> Vec<(i32, i32)> {
        self.all()
            .filter(|&(f, r)| self.get(f, r) == Some(b'w'))
            .collect()
    }

    /// Windows of `length` with `k` stones of `own` and none of the other colour.
    fn windows(&self, own: u8, length: i32) -> [i32; 6] {
        let other = if own == b'x' { b'o' } else { b'x' };
        let mut counts = [0; 6];
        for (f, r) in self.all() {
            for &(df, dr) in &DIRS[..4] {
                let cells: Vec<Option<u8>> = (0..length)
                    .map(|k| self.get(f + k * df, r + k * dr))
                    .collect();
                if cells.iter().any(|c| c.is_none() || *c == Some(other)) {
                    continue;
                }
                counts[cells.iter().filter(|c| **c == Some(own)).count()] += 1;
            }
        }
        counts
    }

    /// Squares (empty or a worker's) where a stone of `own` makes a line of `length`.
    fn completions(&self, own: u8, length: i32) -> Vec<(i32, i32)> {
        self.all()
            .filter(|&(f, r)| matches!(self.get(f, r), Some(b'.') | Some(b'w')))
            .filter(|&(f, r)| {
                DIRS[..4].iter().any(|&(df, dr)| {
                    let run = |sign: i32| {
                        (1..)
                            .take_while(|k| {
                                self.get(f + sign * k * df, r + sign * k * dr) == Some(own)
                            })
                            .count() as i32
                    };
                    1 + run(1) + run(-1) >= length
                })
            })
            .collect()
    }

    /// The empty squares a worker on (f, r) sees.
    fn sight(&self, (f, r): (i32, i32)) -> Vec<(i32, i32)> {
        let mut seen = Vec::new();
        for &(df, dr) in &DIRS {
            let (mut x, mut y) = (f + df, r + dr);
            while self.empty(x, y) {
                seen.push((x, y));
                x += df;
                y += dr;
            }
        }
        seen
    }

    fn open_beside(&self, (f, r): (i32, i32)) -> i32 {
        DIRS.iter()
            .filter(|&&(df, dr)| {
                let (x, y) = (f + df, r + dr);
                self.empty(x, y)
                    && DIRS
                        .iter()
                        .filter(|&&(ex, ey)| self.empty(x + ex, y + ey))
                        .count()
                        >= 3
            })
            .count() as i32
    }

    /// The empty squares connected (king steps through empty squares) to a worker's
    /// empty neighbour.
    fn region(&self) -> usize {
        let mut seen = vec![vec![false; self.size as usize]; self.size as usize];
        let mut todo = Vec::new();
        for (f, r) in self.workers() {
            for &(df, dr) in &DIRS {
                todo.push((f + df, r + dr));
            }
        }
        let mut count = 0;
        while let Some((f, r)) = todo.pop() {
            if !self.empty(f, r) || seen[r as usize][f as usize] {
                continue;
            }
            seen[r as usize][f as usize] = true;
            count += 1;
            for &(df, dr) in &DIRS {
                todo.push((f + df, r + dr));
            }
        }
        count
    }
}

/// The squares the side to move can place on (any relocation), from the generated moves.
fn reach_by_moves(p: &Fabrik) -> Vec<(i32, i32)> {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    let mut squares: Vec<(i32, i32)> = moves
        .iter()
        .filter(|mv| matches!(mv.kind(), MoveKind::Place | MoveKind::Relocate))
        .map(|mv| {
            let s = mv.square() as i32;
            (s % STRIDE, s / STRIDE)
        })
        .collect();
    squares.sort_unstable();
    squares.dedup();
    squares
}

/// Whether some move leaves both workers three open squares beside them.
fn roomy_move_exists(p: &Fabrik) -> bool {
    let mut moves = Vec::new();
    p.generate_moves(&mut moves);
    moves.iter().any(|&mv| {
        let mut child = *p;
        child.play(mv);
        let grid = Grid::of(&child);
        grid.workers().iter().all(|&w| grid.open_beside(w) >= 3)
    })
}

/// The features by the plain counts above.
fn naive(p: &Fabrik) -> [f64; FEATURES] {
    let grid = Grid::of(p);
    let length = p.line_length() as i32;
    let (us, them) = if p.side_to_move() == Player::P1 {
        (b'x', b'o')
    } else {
        (b'o', b'x')
    };
    let mut x = [0.0; FEATURES];
    x[0] = 1.0;
    let (wu, wt) = (grid.windows(us, length), grid.windows(them, length));
    for short in 1..=4 {
        let k = length - short;
        if k > 0 {
            x[short as usize] = f64::from(wu[k as usize] - wt[k as usize]);
        }
    }
    let reach = reach_by_moves(p);
    let (ours, theirs) = (grid.completions(us, length), grid.completions(them, length));
    x[5] = ours.len().min(2) as f64;
    x[6] = f64::from(u8::from(theirs.len() == 1));
    x[7] = f64::from(u8::from(theirs.len() >= 2));
    x[8] = theirs.iter().filter(|s| !reach.contains(s)).count() as f64;
    let workers = grid.workers();
    let (sa, sb) = (grid.sight(workers[0]), grid.sight(workers[1]));
    x[9] = sa.iter().filter(|s| sb.contains(s)).count() as f64;
    x[10] = reach.len() as f64;
    let (oa, ob) = (grid.open_beside(workers[0]), grid.open_beside(workers[1]));
    x[11] = f64::from(oa + ob);
    x[12] = f64::from(oa.min(ob));
    // x[13] (cramped) is checked apart: the quick test is a superset.
    let region = grid.region();
    let parity = if region % 2 == 1 { 1.0 } else { -1.0 };
    x[14] = region as f64;
    x[15] = parity;
    x[16] = if region <= 16 { parity } else { 0.0 };
    x
}

#[test]
fn features_match_plain_counts_on_random_games() {
    let mut rng = Xorshift::new(1138);
    let mut moves = Vec::new();
    let (mut checked, mut cramped, mut cramped_checked, mut small_regions) = (0, 0, 0, 0);
    for game in 0..60 {
        let (size, line_length) = [(11, 5), (7, 4), (9, 5), (8, 4)][game % 4];
        let mut p = Fabrik::start(&Config { size, line_length });
        while p.outcome().is_none() {
            if p.phase() == Phase::Play {
                let x = features(&p);
                let want = naive(&p);
                for t in 0..FEATURES {
                    if t == 13 || t == 17 {
                        continue;
                    }
                    assert_eq!(x[t], want[t], "{} in {}", NAMES[t], p.fen());
                }
                checked += 1;
                small_regions += usize::from(want[14] <= 16.0);
                let is_cramped = x[13] == 1.0;
                assert_eq!(x[17], if is_cramped { want[15] } else { 0.0 });
                // The quick test may call cramped a position with a roomy move (it
                // does not try every relocation), never the reverse.
                if is_cramped || checked % 7 == 0 {
                    let roomy = roomy_move_exists(&p);
                    assert!(
                        is_cramped || roomy,
                        "not cramped without a roomy move: {}",
                        p.fen()
                    );
                    cramped += usize::from(is_cramped && !roomy);
                    cramped_checked += 1;
                }
            }
            moves.clear();
            p.generate_moves(&mut moves);
            moves.retain(|mv| mv.kind() != MoveKind::Pass);
            // Stones beside the workers half the time, so that the workers get cramped.
            let workers = p.workers();
            let near: Vec<_> = moves
                .iter()
                .copied()
                .filter(|mv| {
                    mv.kind() == MoveKind::Place
                        && [1i32, 10, 11, 12, -1, -10, -11, -12].iter().any(|d| {
                            let s = mv.square() as i32 + d;
                            (0..121).contains(&s) && workers >> s & 1 == 1
                        })
                })
                .collect();
            let mv = if !near.is_empty() && rng.below(2) == 0 {
                near[rng.index(near.len())]
            } else {
                moves[rng.index(moves.len())]
            };
            p.play(mv);
        }
    }
    assert!(
        checked > 1500 && cramped > 20 && cramped_checked > 200 && small_regions > 50,
        "checked {checked}, cramped {cramped} of {cramped_checked}, small regions {small_regions}"
    );
}
