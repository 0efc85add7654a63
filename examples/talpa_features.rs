//! Which static features predict the winner? Plays fixed-node self-play games from
//! random openings and tabulates, per phase, how often the side to move wins given
//! each feature's sign: `cargo run --release --example talpa_features -- [games] [nodes]`.

use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use tabuleiro::game::{Game, Outcome};
use tabuleiro::games::talpa::{Talpa, safe_removals, separation};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Policy, SearchLimits};

fn features(p: &Talpa) -> Vec<(&'static str, i32)> {
    let us = p.side_to_move();
    let them = us.other();
    let g = p.geometry();
    let d1 = separation(p, them, 1) as i32 - separation(p, us, 1) as i32;
    let d2 = separation(p, them, 2) as i32 - separation(p, us, 2) as i32;
    let d0 = separation(p, them, 0).min(20) as i32 - separation(p, us, 0).min(20) as i32;
    let mat = p.pieces(us).count_ones() as i32 - p.pieces(them).count_ones() as i32;
    let (red, blue) = (p.pieces(us), p.pieces(them));
    let contacts = ((g.east(red) & blue).count_ones()
        + (g.west(red) & blue).count_ones()
        + (g.north(red) & blue).count_ones()
        + (g.south(red) & blue).count_ones()) as i32;
    let safe = safe_removals(p, us).0 as i32 - safe_removals(p, them).0 as i32;
    let ours_touching = (red & g.grow(blue)).count_ones() as i32;
    let theirs_touching = (blue & g.grow(red)).count_ones() as i32;
    vec![
        ("sep1", d1),
        ("sep2", d2),
        ("sepwall", d0),
        ("material", mat),
        ("contacts_odd", if contacts % 2 == 1 { 1 } else { -1 }),
        ("safe", safe),
        ("touching", ours_touching - theirs_touching),
    ]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(100);
    let nodes: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let config = tabuleiro::options::config_from_pairs::<Talpa>(&[("Size", "8")]).unwrap();
    let mut searcher = Policy::<Talpa>::standard(32, &config);
    // (phase bucket, feature) -> [wins with >0, games with >0, wins with <0, games with <0]
    let mut table: std::collections::BTreeMap<(u32, &'static str), [u32; 4]> = Default::default();
    for game in 0..games {
        let mut rng = Xorshift::new(game as u64 * 7919 + 13);
        let mut p = Talpa::start(&config);
        let mut seen = Vec::new();
        for _ in 0..4 {
            let mut m = Vec::new();
            p.generate_moves(&mut m);
            p.play(m[rng.index(m.len())]);
        }
        searcher.clear();
        while p.outcome().is_none() {
            seen.push(p);
            let r = searcher.search(
                &p,
                &[p.hash()],
                SearchLimits {
                    nodes: Some(nodes),
                    ..SearchLimits::default()
                },
                Arc::new(AtomicBool::new(false)),
                &mut |_| {},
            );
            p.play(r.best.unwrap());
        }
        let Some(Outcome::Win(winner)) = p.outcome() else {
            unreachable!()
        };
        let end = p.plies();
        for q in &seen {
            // Bucket by plies before the end.
            let left = end - q.plies();
            let bucket = match left {
                0..=4 => 4,
                5..=10 => 10,
                11..=20 => 20,
                _ => 99,
            };
            let won = q.side_to_move() == winner;
            for (name, value) in features(q) {
                let e = table.entry((bucket, name)).or_default();
                if value > 0 {
                    e[0] += u32::from(won);
                    e[1] += 1;
                } else if value < 0 {
                    e[2] += u32::from(won);
                    e[3] += 1;
                }
            }
        }
    }
    for ((bucket, name), e) in table {
        let pct = |w: u32, n: u32| {
            if n == 0 {
                0.0
            } else {
                100.0 * f64::from(w) / f64::from(n)
            }
        };
        println!(
            "plies to end <= {bucket:>2} {name:>13}: >0 wins {:5.1}% of {:5}   <0 wins {:5.1}% of {:5}",
            pct(e[0], e[1]),
            e[1],
            pct(e[2], e[3]),
            e[3]
        );
    }
}
