//! Path tests compared: `cargo run --release --example talpa_flood -- [size] [games]`.
//!
//! Collects the positions of seeded random games with the square each move emptied,
//! then times three ways to answer "does red / blue have a path now?":
//! - `component`: the engine's way, one shift-based flood from the emptied square
//!   (valid because empty squares only ever grow, so a new path runs through it);
//! - `edges`: two shift-based floods, from the top rank and from the left file;
//! - `runs`: the component flood filling whole straight runs per round
//!   ([`flood_runs`] below);
//! - `stack`: a depth-first search over square indices from the emptied square with a
//!   precomputed neighbour table and a `u128` visited set.
//!   All three must give the same answers; the example checks that.

use std::hint::black_box;
use std::time::Instant;

use tabuleiro::game::{Game, Player};
use tabuleiro::games::talpa::{Geometry, Talpa};
use tabuleiro::rng::Xorshift;

/// The same as [`Geometry::flood`], with each round filling whole straight runs
/// (Kogge-Stone doubling in the four directions) instead of one step: fewer rounds,
/// more work per round.
fn flood_runs(g: &Geometry, seeds: u128, within: u128) -> u128 {
    let size = g.size as u32;
    let east_ok = within & g.not_first_file;
    let west_ok = within & g.not_last_file;
    let mut fill = seeds & within;
    loop {
        let before = fill;
        // East (towards higher files).
        let (mut g, mut p) = (fill, east_ok);
        g |= p & (g << 1);
        p &= p << 1;
        g |= p & (g << 2);
        p &= p << 2;
        g |= p & (g << 4);
        p &= p << 4;
        g |= p & (g << 8);
        // West.
        let mut p = west_ok;
        g |= p & (g >> 1);
        p &= p >> 1;
        g |= p & (g >> 2);
        p &= p >> 2;
        g |= p & (g >> 4);
        p &= p >> 4;
        g |= p & (g >> 8);
        // North.
        let mut p = within;
        g |= p & (g << size);
        p &= p << size;
        g |= p & (g << (2 * size));
        p &= p << (2 * size);
        g |= p & (g << (4 * size));
        p &= p << (4 * size);
        g |= p & (g << (8 * size));
        // South.
        let mut p = within;
        g |= p & (g >> size);
        p &= p >> size;
        g |= p & (g >> (2 * size));
        p &= p >> (2 * size);
        g |= p & (g >> (4 * size));
        p &= p >> (4 * size);
        g |= p & (g >> (8 * size));
        fill = g & within;
        if fill == before {
            return fill;
        }
    }
}

/// A path test: (empty squares, emptied square) → (red path, blue path).
type PathTest<'a> = &'a dyn Fn(u128, u8) -> (bool, bool);

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let size: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(8);
    let games: usize = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(2000);
    let config = tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", size.to_string())])
        .unwrap_or_else(|e| panic!("{e}"));
    let g = Geometry::of(size);

    // (empty squares, emptied square) after every move of every game.
    let mut samples: Vec<(u128, u8)> = Vec::new();
    let mut rng = Xorshift::new(0x5eed);
    for _ in 0..games {
        let mut position = Talpa::start(&config);
        let mut moves = Vec::new();
        while position.outcome().is_none() {
            moves.clear();
            position.generate_moves(&mut moves);
            let mv = moves[rng.index(moves.len())];
            position.play(mv);
            samples.push((position.empty(), mv.emptied()));
        }
    }

    let neighbours: Vec<Vec<u8>> = (0..size * size)
        .map(|sq| {
            let (f, r) = (sq % size, sq / size);
            let mut out = Vec::new();
            if f > 0 {
                out.push((sq - 1) as u8);
            }
            if f + 1 < size {
                out.push((sq + 1) as u8);
            }
            if r > 0 {
                out.push((sq - size) as u8);
            }
            if r + 1 < size {
                out.push((sq + size) as u8);
            }
            out
        })
        .collect();

    let component = |empty: u128, sq: u8| -> (bool, bool) {
        if empty.count_ones() < size as u32 {
            return (false, false);
        }
        let c = g.flood(1 << sq, empty);
        (
            c & g.top != 0 && c & g.bottom != 0,
            c & g.left != 0 && c & g.right != 0,
        )
    };
    let runs = |empty: u128, sq: u8| -> (bool, bool) {
        if empty.count_ones() < size as u32 {
            return (false, false);
        }
        let c = flood_runs(g, 1 << sq, empty);
        (
            c & g.top != 0 && c & g.bottom != 0,
            c & g.left != 0 && c & g.right != 0,
        )
    };
    let edges = |empty: u128, _sq: u8| -> (bool, bool) {
        (g.has_path(empty, Player::P1), g.has_path(empty, Player::P2))
    };
    let stack = |empty: u128, sq: u8| -> (bool, bool) {
        let mut seen = 1u128 << sq;
        let mut todo = [0u8; 128];
        todo[0] = sq;
        let mut len = 1;
        while len > 0 {
            len -= 1;
            let s = todo[len];
            for &n in &neighbours[s as usize] {
                let bit = 1u128 << n;
                if empty & bit != 0 && seen & bit == 0 {
                    seen |= bit;
                    todo[len] = n;
                    len += 1;
                }
            }
        }
        (
            seen & g.top != 0 && seen & g.bottom != 0,
            seen & g.left != 0 && seen & g.right != 0,
        )
    };

    for &(empty, sq) in &samples {
        let expected = edges(empty, sq);
        assert_eq!(component(empty, sq), expected);
        assert_eq!(stack(empty, sq), expected);
        assert_eq!(runs(empty, sq), expected);
    }

    let methods: [(&str, PathTest); 4] = [
        ("component", &component),
        ("runs", &runs),
        ("edges", &edges),
        ("stack", &stack),
    ];
    println!(
        "size {size}: {} positions from {games} random games",
        samples.len()
    );
    // The fastest of 9 passes: a shared machine's other jobs only ever slow a pass.
    for (name, method) in methods {
        let mut best = f64::MAX;
        let mut paths = 0u32;
        for _ in 0..9 {
            let t = Instant::now();
            paths = 0;
            for &(empty, sq) in &samples {
                let (red, blue) = method(black_box(empty), black_box(sq));
                paths += u32::from(red) + u32::from(blue);
            }
            best = best.min(t.elapsed().as_nanos() as f64 / samples.len() as f64);
        }
        println!("{name:>10}: {best:6.1} ns per path test ({paths} paths, best of 9 passes)");
    }
}
