//! The generic searcher on Neutreeko positions whose value is known: every claimed
//! property of a position (a win in 3, a single saving move) is first checked by brute
//! force with the naive rules in `tests/common/naive.rs`. Then the search as an arena
//! drives the binary (issue 32): a `Hash` the system refuses, `movetime` used in full,
//! a Linetris table value the ply limit cuts short, the last `info` against `bestmove`.
//! (`TABULEIRO_BIN=path` runs those against another binary, e.g. an older build.)

#[path = "common/naive.rs"]
mod naive;
#[path = "common/neutreeko_positions.rs"]
mod neutreeko_positions;
#[path = "common/process.rs"]
mod process;

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;

use naive::Naive;
use neutreeko_positions::{Move, fen, naive_after, nodes, random_position};
use tabuleiro::game::{Game, Outcome as GameOutcome, Player, Record, Value};
use tabuleiro::games::neutreeko::Neutreeko;
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Info, Policy, Score, SearchLimits, SearchResult};

fn depth(depth: u32) -> SearchLimits {
    SearchLimits {
        depth: Some(depth),
        ..SearchLimits::default()
    }
}

/// Searches `root` after the game `history` (hashes, the root's last) and returns the
/// result with every reported iteration.
fn search_with(
    searcher: &mut Policy<Neutreeko>,
    root: &Neutreeko,
    history: &[u64],
    limits: SearchLimits,
) -> (SearchResult<Move>, Vec<Info<Move>>) {
    let mut infos = Vec::new();
    let stop = Arc::new(AtomicBool::new(false));
    let result = searcher.search(root, history, limits, stop, &mut |info| {
        infos.push(info.clone())
    });
    (result, infos)
}

fn search(root: &Neutreeko, limits: SearchLimits) -> SearchResult<Move> {
    search_with(&mut Policy::standard(4, &()), root, &[root.hash()], limits).0
}

#[test]
fn finds_a_win_in_one() {
    // Black b1, d1, c3: c3c1 completes b1 c1 d1.
    let text = "w3w/5/2b2/5/1b1bw b 10";
    assert!(Naive::from_fen(text).wins_within(1));
    let root = fen(text);
    for limits in [depth(1), depth(5), nodes(10_000)] {
        let result = search(&root, limits);
        let best = result.best.expect("a move");
        assert_eq!(naive_after(&root, best).winner(), Some('b'));
        assert_eq!(root.format_move(best), "c3c1");
        assert_eq!(result.score, Score::Mate(1), "{limits:?}");
        assert_eq!(result.pv.first(), Some(&best));
    }
}

#[test]
fn finds_a_forced_win_in_three() {
    // Black e5, d4, a3; white b5, b4, e3. White threatens e3b3 (b5 b4 b3). Black has
    // no win at once, but a3a1 wins in 3 plies whatever white does.
    let text = "1w2b/1w1b1/b3w/5/5 b 21";
    let naive = Naive::from_fen(text);
    assert!(!naive.wins_within(1), "no win in 1");
    assert!(naive.wins_within(3), "a win in 3");
    let winning: Vec<String> = naive
        .moves()
        .into_iter()
        .filter(|&mv| naive.play(mv).loses_within(2))
        .map(Naive::move_text)
        .collect();
    assert_eq!(winning, ["a3a1"]);

    let root = fen(text);
    // Depth 4, not 3: late quiet moves at the root are searched one ply shallower
    // first (a3a1 is ordered late, being a move to the corner), so a nominal depth-3
    // search does not see this mate; depth 4 does.
    for limits in [depth(4), depth(6), nodes(50_000)] {
        let result = search(&root, limits);
        let best = result.best.expect("a move");
        assert!(
            naive_after(&root, best).loses_within(2),
            "{} does not win in 3 ({limits:?})",
            root.format_move(best)
        );
        assert_eq!(result.score, Score::Mate(3), "{limits:?}");
        // The PV is a legal line towards black's win. It may stop short of the win
        // (a transposition table cut ends it), but never runs past it.
        assert_eq!(result.pv.first(), Some(&best));
        assert!(result.pv.len() <= 3, "{limits:?}");
        let mut line = Record::new(root);
        for &mv in &result.pv {
            assert!(line.legal_moves().contains(&mv));
            line.play(mv);
        }
        // Where the PV ends, black still wins in the plies left.
        let left = 3 - result.pv.len() as u32;
        let after = Naive::from_fen(&line.state().fen());
        if left == 0 {
            assert_eq!(line.outcome(), Some(GameOutcome::Win(Player::P1)));
        } else if left % 2 == 1 {
            assert!(after.wins_within(left), "{limits:?}");
        } else {
            assert!(after.loses_within(left), "{limits:?}");
        }
    }
}

#[test]
fn avoids_a_loss_in_two() {
    // White b2, a1, b1 threatens a line on the first rank or the b file; of black's 18
    // moves, only d2c1 stops every immediate win.
    let text = "5/1b3/b4/1w1b1/ww3 b 30";
    let naive = Naive::from_fen(text);
    assert!(!naive.wins_within(1));
    let moves = naive.moves();
    let safe: Vec<String> = moves
        .iter()
        .filter(|&&mv| !naive.play(mv).wins_within(1))
        .map(|&mv| Naive::move_text(mv))
        .collect();
    assert_eq!(safe, ["d2c1"]);
    assert!(moves.len() >= 10, "most moves lose");
    // And it is no loss in 4 either, so the search has no excuse.
    let holds = moves
        .iter()
        .find(|&&mv| Naive::move_text(mv) == "d2c1")
        .unwrap();
    assert!(!naive.play(*holds).wins_within(3));

    let root = fen(text);
    for limits in [depth(2), depth(4), depth(8), nodes(20_000)] {
        let result = search(&root, limits);
        let best = result.best.expect("a move");
        assert_eq!(root.format_move(best), "d2c1", "{limits:?}");
        assert!(
            !matches!(result.score, Score::Mate(n) if n < 0),
            "{:?} claims a loss ({limits:?})",
            result.score
        );
    }
}

#[test]
fn an_iteration_the_limit_cuts_plays_no_move_worse_than_the_last_best() {
    // Black is won in 21 here, but c1e3 loses in 4 plies (white wins within 3 after
    // it). Found by the agreement harness (issue 34): at these node counts, the root's
    // table entry replaced, the iteration the limit cut searched c1e3 first and
    // played it, reported as a mate against black; the last completed iteration's
    // move is now searched first.
    let text = "5/5/2b2/w1w2/2bbw b 8";
    let naive = Naive::from_fen(text);
    let losing = naive
        .moves()
        .into_iter()
        .find(|&mv| Naive::move_text(mv) == "c1e3")
        .expect("c1e3 is legal");
    assert!(naive.play(losing).wins_within(3));
    let root = fen(text);
    for count in [650_000, 1_000_000] {
        let result = search_with(
            &mut Policy::standard(16, &()),
            &root,
            &[root.hash()],
            nodes(count),
        )
        .0;
        let best = result.best.expect("a move");
        assert_ne!(root.format_move(best), "c1e3", "{count} nodes");
        assert!(
            !matches!(result.score, Score::Mate(n) if n < 0),
            "{:?} claims a loss at {count} nodes",
            result.score
        );
    }
}

/// What must repeat exactly: the move, the PV, the score, the node count, and every
/// reported iteration except its time.
fn fingerprint(result: &SearchResult<Move>, infos: &[Info<Move>]) -> String {
    let infos: Vec<String> = infos
        .iter()
        .map(|i| {
            format!(
                "{} {} {:?} {} {:?}",
                i.depth, i.seldepth, i.score, i.nodes, i.pv
            )
        })
        .collect();
    format!(
        "{:?} {:?} {:?} {} {} | {}",
        result.best,
        result.pv,
        result.score,
        result.nodes,
        result.depth,
        infos.join(" | ")
    )
}

#[test]
fn node_limited_searches_repeat_exactly() {
    let mut roots = vec![Neutreeko::start(&())];
    roots.push(fen("wb1wb/w4/5/5/b4 b 10"));
    for root in roots {
        let limits = nodes(30_000);
        let mut first = Policy::standard(4, &());
        let (a, infos_a) = search_with(&mut first, &root, &[root.hash()], limits);
        let (b, infos_b) =
            search_with(&mut Policy::standard(4, &()), &root, &[root.hash()], limits);
        assert_eq!(fingerprint(&a, &infos_a), fingerprint(&b, &infos_b));
        assert!(a.best.is_some() && !a.pv.is_empty());
        // A second search on the same table differs (it learnt); clear() forgets that.
        let _ = search_with(&mut first, &root, &[root.hash()], limits);
        first.clear();
        let (c, infos_c) = search_with(&mut first, &root, &[root.hash()], limits);
        assert_eq!(fingerprint(&a, &infos_a), fingerprint(&c, &infos_c));
    }
}

#[test]
fn a_node_limit_stops_the_search_near_it() {
    let root = Neutreeko::start(&());
    for limit in [1, 100, 1_000, 25_000] {
        let (result, infos) = search_with(
            &mut Policy::standard(4, &()),
            &root,
            &[root.hash()],
            nodes(limit),
        );
        assert!(result.best.is_some(), "a move even at {limit} nodes");
        assert!(
            result.nodes <= limit,
            "{} nodes for a limit of {limit}",
            result.nodes
        );
        assert!(
            result.nodes >= limit * 9 / 10,
            "stopped at {} nodes for a limit of {limit}",
            result.nodes
        );
        assert!(infos.iter().all(|i| i.nodes <= limit));
        // The move is legal.
        let mut moves = Vec::new();
        root.generate_moves(&mut moves);
        assert!(moves.contains(&result.best.unwrap()));
    }
}

#[test]
fn repeating_when_it_is_the_only_way_not_to_lose_scores_a_draw() {
    // Root: black a1, b4, e4; white c4, d1, e1, black to move. White threatens c4c1
    // (c1 d1 e1); a1c1 is black's only move that does not lose at once.
    let root_text = "5/1bw1b/5/5/b2ww b";
    let naive = Naive::from_fen(root_text);
    assert!(!naive.wins_within(1));
    let safe: Vec<String> = naive
        .moves()
        .into_iter()
        .filter(|&mv| !naive.play(mv).wins_within(1))
        .map(Naive::move_text)
        .collect();
    assert_eq!(safe, ["a1c1"]);

    // A game that reaches the root twice, with a1c1 leading to a position already
    // seen twice: the start, then after every fourth ply.
    let start = fen("5/1bw1b/5/5/2bww w");
    let mut record = Record::new(start);
    for text in ["d1d5", "c1a1", "d5d1", "a1c1", "d1d5", "c1a1", "d5d1"] {
        record.play_text(text).unwrap();
        assert_eq!(record.outcome(), None, "after {text}");
    }
    let root = *record.state();
    assert_eq!(root.fen(), format!("{root_text} 7"));
    assert_eq!(record.occurrences(), 2);
    let mut drawn = record.clone();
    drawn.play_text("a1c1").unwrap();
    assert_eq!(
        drawn.outcome(),
        Some(GameOutcome::Draw),
        "the third occurrence"
    );

    for limits in [depth(1), depth(4), depth(9), nodes(30_000)] {
        let (result, _) = search_with(
            &mut Policy::standard(4, &()),
            &root,
            record.history(),
            limits,
        );
        let best = result.best.expect("a move");
        assert_eq!(root.format_move(best), "a1c1", "{limits:?}");
        assert_eq!(result.score, Score::Cp(0), "{limits:?}");
    }
    // The draw comes from the history: the same position searched as a fresh game
    // gets the ordinary evaluation of a1c1 (black is worse there).
    let fresh = search(&root, depth(8));
    assert_eq!(
        fresh.best.map(|mv| root.format_move(mv)).as_deref(),
        Some("a1c1")
    );
    assert_ne!(fresh.score, Score::Cp(0));
}

#[test]
fn a_finished_position_has_no_best_move() {
    // Black has just made b1 c1 d1: white to move, but the game is over.
    let root = fen("w3w/5/5/5/1bbbw w 11");
    assert_eq!(root.outcome(), Some(GameOutcome::Win(Player::P1)));
    for limits in [depth(3), nodes(1_000)] {
        let (result, infos) =
            search_with(&mut Policy::standard(1, &()), &root, &[root.hash()], limits);
        assert_eq!(result.best, None);
        assert!(result.pv.is_empty());
        assert!(infos.is_empty());
    }
}

#[test]
fn mate_scores_on_random_positions_are_exact() {
    // Every mate score within reach of brute force is checked against the naive
    // rules: the distance is exact (no shorter one exists) and the move keeps it;
    // a search that reports no mate has missed no short win.
    let mut rng = Xorshift::new(0x1234_5678_9abc_def1);
    let mut checked = 0;
    for _ in 0..150 {
        let Some(naive) = random_position(|| rng.next_u64()) else {
            continue;
        };
        let root = fen(&naive.fen());
        let result = search(&root, depth(6));
        let best = result.best.expect("a move");
        let after = naive_after(&root, best);
        match result.score {
            Score::Mate(n) if (1..=4).contains(&n) => {
                let n = n as u32;
                assert!(naive.wins_within(n), "{} {:?}", naive.fen(), result.score);
                assert!(
                    n < 3 || !naive.wins_within(n - 2),
                    "{}: faster win",
                    naive.fen()
                );
                assert!(
                    after.winner() == Some('b') || after.loses_within(n - 1),
                    "{}: {} does not keep the win",
                    naive.fen(),
                    root.format_move(best)
                );
                checked += 1;
            }
            Score::Mate(n) if (-4..=-1).contains(&n) => {
                let n = n.unsigned_abs();
                assert!(naive.loses_within(n), "{} {:?}", naive.fen(), result.score);
                assert!(
                    n < 3 || !naive.loses_within(n - 2),
                    "{}: faster loss",
                    naive.fen()
                );
                checked += 1;
            }
            Score::Mate(_) => {}
            Score::Cp(_) => {
                assert!(!naive.wins_within(3), "{}: missed a win", naive.fen());
                assert!(!naive.loses_within(2), "{}: missed a loss", naive.fen());
            }
        }
    }
    assert!(checked > 50, "only {checked} mate scores");
}

/// Brute force with memory: whether the side to move wins within `plies` plies.
fn wins_within(n: &Naive, plies: u32, memo: &mut HashMap<(Naive, u32, bool), bool>) -> bool {
    if plies == 0 || n.winner().is_some() {
        return false;
    }
    if let Some(&known) = memo.get(&(*n, plies, true)) {
        return known;
    }
    let side = n.side;
    let wins = n.moves().into_iter().any(|mv| {
        let child = n.play(mv);
        child.winner() == Some(side) || loses_within(&child, plies - 1, memo)
    });
    memo.insert((*n, plies, true), wins);
    wins
}

/// Brute force with memory: whether the side to move loses within `plies` plies.
fn loses_within(n: &Naive, plies: u32, memo: &mut HashMap<(Naive, u32, bool), bool>) -> bool {
    if n.winner().is_some_and(|w| w != n.side) {
        return true;
    }
    if plies == 0 || n.winner().is_some() {
        return false;
    }
    if let Some(&known) = memo.get(&(*n, plies, false)) {
        return known;
    }
    let side = n.side;
    let moves = n.moves();
    let loses = moves.is_empty()
        || moves.into_iter().all(|mv| {
            let child = n.play(mv);
            child.winner() != Some(side) && wins_within(&child, plies - 1, memo)
        });
    memo.insert((*n, plies, false), loses);
    loses
}

#[test]
fn a_table_from_an_earlier_search_does_not_make_a_mate_slower() {
    // A random game (with slide-backs). After ply 29 white wins in 5 plies. A searcher
    // that searched the position at ply 25 first used to stop at a mate in 7 found
    // through its old table entries and call Win(7) proven: `go solve` would have
    // printed a wrong distance, and the search would stop looking for the faster mate.
    let line = "d1e2 b5b2 e2d1 d5e4 d1e2 e4d5 c4c3 c2c1 e2e5 b2a3 c3e3 a3b2 e5c3 d5d1 c3e5 \
                d1d5 b1a2 c1a1 e3c1 b2e2 c1e1 a1d4 a2d2 d5a2 d2d3 a2b1 e5a5 b1c2 a5e5";
    let mut record = Record::new(Neutreeko::start(&()));
    let mut earlier = None;
    for (ply, text) in line.split_whitespace().enumerate() {
        if ply == 25 {
            earlier = Some(record.clone());
        }
        record.play_text(text).unwrap();
    }
    let earlier = earlier.unwrap();
    let root = *record.state();
    assert_eq!(root.fen(), "4b/3w1/3b1/2w1w/4b w 29");
    let naive = Naive::from_fen(&root.fen());
    let mut memo = HashMap::new();
    assert!(!wins_within(&naive, 3, &mut memo));
    assert!(wins_within(&naive, 5, &mut memo));

    let (fresh, _) = search_with(
        &mut Policy::standard(2, &()),
        &root,
        record.history(),
        depth(9),
    );
    assert_eq!(fresh.score, Score::Mate(5));
    // Lines that end in a repetition on the path are not proofs, so an ordinary
    // search may leave the value unproven; it must never prove a wrong one.
    assert!(
        matches!(fresh.proven, None | Some(Value::Win(5))),
        "{:?}",
        fresh.proven
    );
    let solve = SearchLimits {
        solve: true,
        ..SearchLimits::default()
    };
    let (solved, _) = search_with(
        &mut Policy::standard(2, &()),
        &root,
        record.history(),
        solve,
    );
    assert_eq!(solved.proven, Some(Value::Win(5)));

    let mut searcher = Policy::standard(2, &());
    let _ = search_with(&mut searcher, earlier.state(), earlier.history(), depth(9));
    let (reused, _) = search_with(&mut searcher, &root, record.history(), depth(9));
    assert_eq!(reused.score, Score::Mate(5));
    assert!(
        matches!(reused.proven, None | Some(Value::Win(5))),
        "{:?}",
        reused.proven
    );
}

// The binary, as an arena drives it.

use std::process::Command;

use process::Engine;
use std::time::{Duration, Instant};

/// The longest any test here waits for a line.
const PATIENCE: Duration = Duration::from_secs(60);

fn binary() -> String {
    std::env::var("TABULEIRO_BIN").unwrap_or_else(|_| env!("CARGO_BIN_EXE_tabuleiro").to_string())
}

/// The binary, run by `sh -c` after `prefix` (e.g. a `ulimit`), or directly.
fn start(prefix: Option<&str>) -> Engine {
    let command = match prefix {
        Some(prefix) => {
            let mut sh = Command::new("sh");
            sh.arg("-c")
                .arg(format!("{prefix}; exec \"$0\""))
                .arg(binary());
            sh
        }
        None => Command::new(binary()),
    };
    Engine::spawn(command, PATIENCE)
}

/// The last `info … pv` line of `lines` and the `bestmove`'s move.
fn last_pv_and_best(lines: &[String]) -> (Option<String>, String) {
    let pv = lines
        .iter()
        .rev()
        .find_map(|l| l.split_once(" pv ").map(|(_, pv)| pv.to_string()));
    let best = lines
        .last()
        .and_then(|l| l.strip_prefix("bestmove "))
        .expect("a bestmove line")
        .to_string();
    (pv, best)
}

#[test]
fn a_hash_the_system_refuses_is_an_error_and_the_table_of_before_stays() {
    // About 1 GB of address space: a 2 GiB table cannot be had.
    let mut engine = start(Some("ulimit -v 1000000"));
    engine.send("setoption name Hash value 2048");
    engine.send("isready");
    let seen = engine.until("readyok");
    assert!(
        seen.iter()
            .any(|l| l.starts_with("info string error:") && l.contains("Hash")),
        "{seen:?}"
    );
    // The engine still searches, and a size that fits is taken.
    engine.send("position startpos");
    engine.send("go depth 4");
    engine.until("bestmove");
    engine.send("setoption name Hash value 64");
    engine.send("isready");
    let seen = engine.until("readyok");
    assert!(!seen.iter().any(|l| l.contains("error")), "{seen:?}");
    engine.quit();
}

#[test]
fn a_solver_table_the_system_refuses_is_no_solver_not_an_abort() {
    // 45 MB of address space: the engine runs, with a 1 MiB table, but the Connect Four
    // solver's 42 MB table cannot be had (b77fb77 aborted here at `game linetris`).
    let mut engine = start(Some("ulimit -v 45000"));
    engine.send("setoption name Hash value 1");
    engine.send("game linetris");
    engine.send("setoption name RowClear value false");
    engine.send("isready");
    engine.until("readyok");
    engine.send("position startpos moves 4 4 4 4 3 3 3 3 5 5 5");
    engine.send("go movetime 100");
    engine.until("bestmove");
    engine.quit();
}

#[test]
fn movetime_is_used_in_full_unless_the_value_is_proven() {
    // Positions where a search that will not start an iteration it does not expect to
    // finish answered after about half the time (Talpa's start, Fabrik's third bench
    // position). MoveOverhead is 20 by default: 480 ms to use; 95 % of it at least.
    let cases = [
        ("talpa", "startpos"),
        ("fabrik", "fen 7w3/11/11/1x9/2w8/2o1o6/2x8/11/11/11/11 x 6"),
        ("linetris", "fen 7/7/7/7/x3o2/x1oxo2 x 6"),
    ];
    let mut engine = start(None);
    for (game, position) in cases {
        engine.send(&format!("game {game}"));
        engine.send(&format!("position {position}"));
        engine.send("isready");
        engine.until("readyok");
        let started = Instant::now();
        engine.send("go movetime 500");
        let seen = engine.until("bestmove");
        let used = started.elapsed();
        let proven = seen.iter().any(|l| l.contains(" score mate "));
        assert!(
            proven || used >= Duration::from_millis(456),
            "{game}: answered after {used:?} of 480 ms: {seen:?}"
        );
    }
    engine.quit();
}

#[test]
fn a_linetris_table_loss_the_ply_limit_cuts_short_is_a_draw_answered_at_once() {
    // 5 × 4 with RowClear: the table says o loses in 42, but the limit (80 plies)
    // ends the game 37 plies from here, first: a draw under the rules.
    let mut engine = start(None);
    for line in [
        "game linetris",
        "setoption name Rows value 5",
        "setoption name Cols value 4",
        "setoption name RowClear value true",
        "isready",
    ] {
        engine.send(line);
    }
    engine.until("readyok");
    engine.send("position fen 4/4/2o1/oxx1/xxo1 o 43");
    let started = Instant::now();
    engine.send("go solve");
    let seen = engine.until("bestmove");
    assert!(
        seen.iter().any(|l| l == "info string solved draw plies 37"),
        "{seen:?}"
    );
    assert!(started.elapsed() < Duration::from_secs(1), "{seen:?}");
    // On the clock the table answers too, at once.
    let started = Instant::now();
    engine.send("go movetime 1000");
    let seen = engine.until("bestmove");
    assert!(
        seen.iter().any(|l| l == "info string tablebase draw"),
        "{seen:?}"
    );
    assert!(started.elapsed() < Duration::from_millis(500), "{seen:?}");
    engine.quit();
}

#[test]
fn the_last_info_line_starts_with_the_bestmove() {
    // A search cut short (by `stop`, or at the end of a movetime) may change its mind
    // after its last report: the move played is then reported once more. Talpa (alpha-
    // beta) and Frozen Forest's Yuki (MCTS), stopped at various moments.
    let mut engine = start(None);
    let mut tries = 0;
    for (game, position) in [
        ("talpa", "startpos"),
        (
            "talpa",
            "fen rbrb1rrb/brbr1rbr/rbr1b1bb/rrbbbrbr/1brr1rrb/brbrb2r/rr1bbbbb/r1br1rbr b 11",
        ),
        ("frozenforest", "startpos"),
    ] {
        engine.send(&format!("game {game}"));
        engine.send(&format!("position {position}"));
        engine.send("isready");
        engine.until("readyok");
        for wait in [37, 120, 250, 433, 610] {
            engine.send("go infinite");
            std::thread::sleep(Duration::from_millis(wait));
            engine.send("stop");
            let seen = engine.until("bestmove");
            let (pv, best) = last_pv_and_best(&seen);
            let pv = pv.unwrap_or_else(|| panic!("{game}: no info line: {seen:?}"));
            assert_eq!(
                pv.split_whitespace().next(),
                Some(best.as_str()),
                "{game} after {wait} ms: the last pv is not the bestmove's: {seen:?}"
            );
            tries += 1;
        }
        for movetime in [60, 150, 333] {
            engine.send(&format!("go movetime {movetime}"));
            let seen = engine.until("bestmove");
            let (pv, best) = last_pv_and_best(&seen);
            let pv = pv.unwrap_or_else(|| panic!("{game}: no info line: {seen:?}"));
            assert_eq!(
                pv.split_whitespace().next(),
                Some(best.as_str()),
                "{game} at movetime {movetime}: {seen:?}"
            );
        }
    }
    assert_eq!(tries, 15);
    engine.quit();
}
