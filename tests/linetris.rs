//! Linetris / Connect Four: rules cases, and the exact solver against the external L3
//! test set and a naive minimax. Random games against the naive rules, with FEN, move
//! and hash round trips, are in the shared suite (`tests/invariants.rs`).

#[path = "common/naive.rs"]
mod naive;

use std::sync::OnceLock;
use std::sync::atomic::AtomicBool;

use naive::Memo;
use naive::linetris::Naive;

use tabuleiro::game::{FenError, Game, MoveError, Outcome, Player, Record, Value};
use tabuleiro::games::linetris::solver::value_to_score;
use tabuleiro::games::linetris::{Config, Linetris, LinetrisOracle, Move};
use tabuleiro::perft::perft;
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Oracle, Solution};

/// The engine's exact solver (one for the whole file: its table is large).
fn solve(state: &Linetris, stop: &AtomicBool) -> Option<Solution<Move>> {
    static ORACLE: OnceLock<LinetrisOracle> = OnceLock::new();
    ORACLE
        .get_or_init(|| LinetrisOracle::new(&Config::default()))
        .solve(state, stop)
}

fn config(rows: u32, cols: u32, row_clear: bool, max_plies: u32) -> Config {
    Config {
        rows,
        cols,
        row_clear,
        max_plies,
    }
}

fn connect_four() -> Config {
    config(6, 7, false, 0)
}

/// Plays moves given as column digits (1-based), checking each is legal.
fn play_digits(state: &mut Linetris, digits: &str) {
    for c in digits.chars() {
        let mv = state
            .legal_move(&c.to_string())
            .unwrap_or_else(|e| panic!("{digits}: {e}"));
        state.play(mv);
    }
}

// ---------------------------------------------------------------------------------
// Perft (the pinned counts are in tests/data/perft.txt, checked by tests/perft.rs)
// ---------------------------------------------------------------------------------

#[test]
fn row_clears_change_perft_on_a_small_board() {
    // On 4x4 the bottom row fills after 4 plies: with clears the tree is larger.
    let on = Linetris::start(&config(4, 4, true, 0));
    let off = Linetris::start(&config(4, 4, false, 0));
    assert!(perft(&on, 8) > perft(&off, 8));
    assert_eq!(perft(&on, 4), perft(&off, 4));
}

// ---------------------------------------------------------------------------------
// Rules cases
// ---------------------------------------------------------------------------------

#[test]
fn a_four_that_fills_the_bottom_row_wins_and_nothing_is_cleared() {
    let c = config(4, 4, true, 0);
    let state = Linetris::from_fen(&c, "4/4/ooo1/xxx1 x 6").unwrap();
    let mut after = state;
    after.play(state.legal_move("4").unwrap());
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(after.fen(), "4/4/ooo1/xxxx o 7");
    assert_eq!(after.count_moves(), 0);
    // A diagonal four whose last piece fills the bottom row (6x7).
    let c = config(6, 7, true, 0);
    let state = Linetris::from_fen(&c, "7/7/3x3/2xo3/1xoo3/1oxoxox x 13").unwrap();
    let mut after = state;
    after.play(state.legal_move("1").unwrap());
    assert_eq!(after.outcome(), Some(Outcome::Win(Player::P1)));
    assert_eq!(after.fen(), "7/7/3x3/2xo3/1xoo3/xoxoxox o 14");
    // The same drop without a four clears the row.
    let state = Linetris::from_fen(&c, "7/7/7/2xo3/1xoo3/1oxoxox x 13").unwrap();
    let mut after = state;
    after.play(state.legal_move("1").unwrap());
    assert_eq!(after.outcome(), None);
    assert_eq!(after.fen(), "7/7/7/7/2xo3/1xoo3 o 14");
}

#[test]
fn a_clear_removes_the_support_of_a_line() {
    let c = config(6, 7, true, 0);
    // x threatens d4 (a1 b2 c3 d4): with x to move, 4 wins.
    let threat = Linetris::from_fen(&c, "7/7/7/2xo3/1xoo3/xooxox1 x 11").unwrap();
    let mut win = threat;
    win.play(threat.legal_move("4").unwrap());
    assert_eq!(win.outcome(), Some(Outcome::Win(Player::P1)));
    // With o to move, o fills the bottom row: it is cleared, and a1 goes with it.
    let mut state = Linetris::from_fen(&c, "7/7/7/2xo3/1xoo3/xooxox1 o 11").unwrap();
    state.play(state.legal_move("7").unwrap());
    assert_eq!(state.fen(), "7/7/7/7/2xo3/1xoo3 x 12");
    assert_eq!(state.outcome(), None);
    // The same column no longer wins: the line lost its first piece.
    state.play(state.legal_move("4").unwrap());
    assert_eq!(state.fen(), "7/7/7/3x3/2xo3/1xoo3 o 13");
    assert_eq!(state.outcome(), None);
}

#[test]
fn threefold_repetition_is_a_draw_with_row_clear_only() {
    let c = config(4, 4, true, 0);
    let mut record = Record::new(Linetris::start(&c));
    // x o x o fills the bottom row, which is cleared: the empty board again.
    for (i, m) in "12341234".chars().enumerate() {
        assert_eq!(record.outcome(), None, "before move {i}");
        record.play_text(&m.to_string()).unwrap();
    }
    assert_eq!(record.state().fen(), "4/4/4/4 x 8");
    assert_eq!(record.occurrences(), 3);
    assert_eq!(record.outcome(), Some(Outcome::Draw));
    assert!(record.legal_moves().is_empty());
    assert!(matches!(record.play_text("1"), Err(MoveError::GameOver(_))));
    // After 4 plies (second occurrence) the game goes on.
    let mut record = Record::new(Linetris::start(&c));
    for m in "1234".chars() {
        record.play_text(&m.to_string()).unwrap();
    }
    assert_eq!(record.occurrences(), 2);
    assert_eq!(record.outcome(), None);
    // Without the clear there is no repetition rule (and positions cannot repeat).
    assert!(!Linetris::start(&config(4, 4, false, 0)).repetition_rule());
    assert!(Linetris::start(&c).repetition_rule());
}

#[test]
fn the_ply_limit_draws_but_a_win_on_the_last_ply_stands() {
    let c = config(6, 7, true, 5);
    let mut state = Linetris::start(&c);
    play_digits(&mut state, "1234");
    assert_eq!(state.outcome(), None);
    play_digits(&mut state, "5");
    assert_eq!(state.outcome(), Some(Outcome::Draw));
    assert_eq!(state.count_moves(), 0);
    assert!(matches!(state.legal_move("1"), Err(MoveError::GameOver(_))));
    // MaxPlies 7: x's fourth stone in column 1 on ply 7 wins.
    let mut state = Linetris::start(&config(6, 7, true, 7));
    play_digits(&mut state, "121212");
    assert_eq!(state.outcome(), None);
    play_digits(&mut state, "1");
    assert_eq!(state.outcome(), Some(Outcome::Win(Player::P1)));
    // The default is 4·Rows·Cols, also for a board size chosen by FEN.
    let state = Linetris::from_fen(&config(6, 7, true, 0), "4/4/4/4 x 63").unwrap();
    assert_eq!(state.outcome(), None);
    let state = Linetris::from_fen(&config(6, 7, true, 0), "4/4/4/4 x 64").unwrap();
    assert_eq!(state.outcome(), Some(Outcome::Draw));
}

#[test]
fn a_full_board_is_a_draw_without_row_clear() {
    let c = config(4, 4, false, 0);
    let state = Linetris::from_fen(&c, "oox1/xxoo/ooxx/xxoo x 15").unwrap();
    assert_eq!(state.outcome(), None);
    let mut after = state;
    after.play(state.legal_move("4").unwrap());
    assert_eq!(after.fen(), "ooxx/xxoo/ooxx/xxoo o 16");
    assert_eq!(after.outcome(), Some(Outcome::Draw));
    assert_eq!(after.count_moves(), 0);
    let solved = solve(&state, &AtomicBool::new(false)).unwrap();
    assert_eq!(solved.value, Value::Draw(1));
    assert_eq!(solved.best, Some(Move(3)));
    // With RowClear on, a full bottom row cannot stand.
    assert!(Linetris::from_fen(&config(4, 4, true, 0), "oox1/xxoo/ooxx/xxoo x 15").is_err());
}

#[test]
fn bad_fens_and_moves_are_errors() {
    let c = connect_four();
    for bad in [
        "",
        "7/7/7/7/7/7",
        "7/7/7/7/7/7 y",
        "7/7/7/7/7/7 x -1",
        "7/7/7/7/7/7 x 1 2",
        "7/7/7/7/7/7/7/7/7/7/7 x",
        "3/3/3/3 x",
        "11/11/11/11 x",
        "7/7/7/7/x6/7 x",
        "7/7/7/7/7/6q x",
        "7/7/7/7/7/8 x",
        "7/7/x6/x6/x6/x6 x",
        "7/7/7/7/7/7 X",
    ] {
        let result: Result<Linetris, FenError> = Linetris::from_fen(&c, bad);
        assert!(result.is_err(), "{bad:?} accepted");
    }
    // Five ranks of 7 is a legal 5x7 board; spaces around the fields do not matter.
    assert!(Linetris::from_fen(&c, " 7/7/7/7/7  x 0 ").is_ok());
    // o has four and x is to move: a finished game, accepted.
    let over = Linetris::from_fen(&c, "7/7/o6/o6/o6/ox2xx1 x 7").unwrap();
    assert_eq!(over.outcome(), Some(Outcome::Win(Player::P2)));
    let state = Linetris::from_fen(&c, "7/7/7/7/7/7 x").unwrap();
    assert_eq!(state.plies(), 0);
    for bad in ["0", "a", "", "1x", "x1", "-3", "٣"] {
        assert!(
            matches!(state.parse_move(bad), Err(MoveError::Syntax(_))),
            "{bad:?}"
        );
    }
    for off in ["8", "10"] {
        assert!(
            matches!(state.parse_move(off), Err(MoveError::OffBoard { .. })),
            "{off:?}"
        );
    }
    let full = Linetris::from_fen(&c, "x6/o6/x6/o6/x6/o6 x 6").unwrap();
    assert!(matches!(full.legal_move("1"), Err(MoveError::Illegal(_))));
    // A 10-column board reads "10".
    let wide = Linetris::from_fen(&c, "10/10/10/10 x").unwrap();
    assert_eq!(wide.parse_move("10"), Ok(Move(9)));
    assert_eq!(wide.format_move(Move(9)), "10");
}

// ---------------------------------------------------------------------------------
// The exact solver
// ---------------------------------------------------------------------------------

/// Pascal Pons' L3 test set, found only beside the repository (`../shared/data`, as
/// the project's checkouts have it). `None`, with a message on stderr saying what is
/// missing, when it is not there: the tests that need it then skip.
fn l3_text() -> Option<String> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../shared/data/connect4/Test_L3_R1");
    match std::fs::read_to_string(&path) {
        Ok(text) => Some(text),
        Err(e) => {
            eprintln!(
                "skipped: the L3 test set is missing ({}: {e}); put Pons' Test_L3_R1 there to run this test",
                path.display()
            );
            None
        }
    }
}

#[test]
fn the_solver_matches_all_l3_scores_and_its_moves_keep_the_value() {
    let Some(text) = l3_text() else { return };
    let stop = AtomicBool::new(false);
    let mut checked = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let (moves, score) = line.split_once(' ').expect("moves and score");
        let score: i32 = score.trim().parse().expect("score");
        let mut state = Linetris::start(&connect_four());
        play_digits(&mut state, moves);
        let solution = solve(&state, &stop).expect("RowClear off is solvable");
        let empties = 42 - moves.len() as u32;
        assert_eq!(
            value_to_score(solution.value, empties),
            score,
            "{line}: {:?}",
            solution.value
        );
        // The best move keeps the value, one ply nearer the end.
        let best = solution.best.expect("a move");
        let mut child = state;
        child.play(best);
        let child_value = match child.outcome() {
            Some(Outcome::Draw) => Value::Draw(0),
            Some(Outcome::Win(_)) => Value::Loss(0),
            None => solve(&child, &stop).unwrap().value,
        };
        let expected = match solution.value {
            Value::Win(p) => Value::Loss(p - 1),
            Value::Loss(p) => Value::Win(p - 1),
            Value::Draw(p) => Value::Draw(p - 1),
        };
        assert_eq!(child_value, expected, "{line}: move {}", best.0 + 1);
        checked += 1;
    }
    assert_eq!(checked, 1000);
}

/// The solver against plain minimax on small boards and on a board that needs the
/// 128-bit solver (8x7: 63 bits), from nearly full positions reached by random play
/// that avoids completing lines.
#[test]
fn the_solver_agrees_with_minimax_on_other_sizes() {
    let stop = AtomicBool::new(false);
    let mut rng = Xorshift::new(42);
    let mut counts = [0; 3];
    let mut memo = Memo::new();
    for (rows, cols, empties, games) in [(4, 4, 9, 40), (4, 5, 9, 30), (5, 4, 9, 30), (8, 7, 9, 30)]
    {
        let c = config(rows, cols, false, 0);
        let mut done = 0;
        while done < games {
            let mut naive = Naive::new(&c);
            let mut state = Linetris::start(&c);
            while (rows * cols) as usize - (state.occupied().count_ones() as usize) > empties {
                // Random moves that do not end the game.
                let quiet: Vec<usize> = naive
                    .moves()
                    .into_iter()
                    .filter(|&col| {
                        let mut child = naive.clone();
                        child.play(col);
                        !child.over()
                    })
                    .collect();
                if quiet.is_empty() {
                    break;
                }
                let col = quiet[rng.index(quiet.len())];
                naive.play(col);
                state.play(Move(col as u8));
            }
            if naive.over() || (rows * cols - state.occupied().count_ones()) as usize > empties {
                continue;
            }
            done += 1;
            let expected = naive::minimax(&naive, &mut memo);
            let solution = solve(&state, &stop).unwrap();
            match solution.value {
                Value::Win(_) => counts[0] += 1,
                Value::Loss(_) => counts[1] += 1,
                Value::Draw(p) => {
                    counts[2] += 1;
                    assert_eq!(p, (rows * cols) - state.occupied().count_ones());
                }
            }
            assert_eq!(solution.value, expected, "{} ({rows}x{cols})", state.fen());
        }
    }
    assert!(counts.iter().all(|&n| n > 5), "{counts:?}");
}

#[test]
fn the_solver_declines_what_it_cannot_solve_exactly() {
    let stop = AtomicBool::new(false);
    // RowClear on: not Connect Four.
    assert!(solve(&Linetris::start(&config(6, 7, true, 0)), &stop).is_none());
    // A ply limit that could end the game before the board is full.
    assert!(solve(&Linetris::start(&config(6, 7, false, 40)), &stop).is_none());
    // A finished game: its value at once.
    let mut state = Linetris::start(&connect_four());
    play_digits(&mut state, "1212121");
    let solution = solve(&state, &stop).unwrap();
    assert_eq!(solution.value, Value::Loss(0));
    assert_eq!(solution.best, None);
    // A raised stop flag ends a long solve with nothing.
    let stop = AtomicBool::new(true);
    assert!(solve(&Linetris::start(&connect_four()), &stop).is_none());
}

#[test]
fn perft_ignores_the_ply_limit() {
    use tabuleiro::game::{Game, default_config};
    use tabuleiro::games::linetris::Linetris;
    let config = default_config::<Linetris>();
    // 6x7 with the default limit of 168 plies: a FEN at ply 167 is one ply from it.
    let at_limit = Linetris::from_fen(&config, "7/7/7/7/7/7 x 167").unwrap();
    let fresh = Linetris::from_fen(&config, "7/7/7/7/7/7 x 0").unwrap();
    assert_eq!(
        tabuleiro::perft::perft(&at_limit, 3),
        tabuleiro::perft::perft(&fresh, 3)
    );
    assert_eq!(tabuleiro::perft::perft(&at_limit, 3), 7 * 7 * 7);
    assert_eq!(tabuleiro::perft::perft_full(&at_limit, 2), 49);
    // The game itself still ends at the limit.
    let mut state = at_limit;
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    state.play(moves[0]);
    assert!(state.outcome().is_some());
}

/// With RowClear on and a small board, the oracle answers from the retrograde table
/// (`src/games/linetris/retro.rs`): 4 x 4 is a loss for p1 in 22 plies.
#[test]
fn the_row_clear_oracle_plays_from_the_retrograde_table() {
    let cfg = config(4, 4, true, 0);
    let oracle = LinetrisOracle::new(&cfg);
    let stop = AtomicBool::new(false);
    let start = Linetris::start(&cfg);
    // Nothing before the table is built.
    assert_eq!(oracle.probe(&start), None);
    oracle.wait(&stop, None);
    assert_eq!(oracle.probe(&start), Some(Value::Loss(22)));
    let solution = oracle.solve(&start, &stop).unwrap();
    assert_eq!(solution.value, Value::Loss(22));
    // The best move keeps the value: its child is a win in 21 for p2.
    let mut child = start;
    child.play(solution.best.unwrap());
    assert_eq!(oracle.probe(&child), Some(Value::Win(21)));
    // The root choice agrees, and its line is the whole game, ending in p2's four.
    let root = oracle.probe_root(&start, &[start.hash()]).unwrap();
    assert_eq!(root.value, Value::Loss(22));
    assert_eq!(root.pv.len(), 22);
    let mut end = start;
    for &mv in &root.pv {
        assert_eq!(end.outcome(), None);
        end.play(mv);
    }
    assert_eq!(end.outcome(), Some(Outcome::Win(Player::P2)));
    // The table ignores the ply limit: a loss the limit ends first is a draw by the
    // limit (issue 32), in as many plies as the limit leaves.
    let short = config(4, 4, true, 21);
    let limited = LinetrisOracle::new(&short);
    limited.wait(&stop, None);
    assert_eq!(
        limited.probe(&Linetris::start(&short)),
        Some(Value::Draw(21))
    );
    let solved = limited.solve(&Linetris::start(&short), &stop).unwrap();
    assert_eq!(solved.value, Value::Draw(21));
    // Boards too large to build on demand (8 x 4 takes 1 GiB) have no table without
    // a cache file.
    let big = LinetrisOracle::with_cache_dir(&config(8, 4, true, 0), None);
    big.wait(&stop, None);
    assert_eq!(big.probe(&Linetris::start(&config(8, 4, true, 0))), None);
}

/// A move into a threefold repetition is a draw for the root choice, even where the
/// table (which knows no history) says it loses or wins.
#[test]
fn the_row_clear_root_choice_counts_repetitions() {
    let cfg = config(4, 5, true, 0);
    let oracle = LinetrisOracle::new(&cfg);
    oracle.wait(&AtomicBool::new(false), None);
    let start = Linetris::start(&cfg);
    assert_eq!(oracle.probe(&start), Some(Value::Draw(0)));
    // Find a position where some move loses by the table, and say its child was seen
    // twice: that move becomes a draw by repetition (the root value is at least a draw).
    let mut state = start;
    let mut rng = Xorshift::new(7);
    for _ in 0..200 {
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let losing = moves.iter().copied().find(|&mv| {
            let mut child = state;
            child.play(mv);
            child.outcome().is_none() && matches!(oracle.probe(&child), Some(Value::Win(_)))
        });
        if let Some(mv) = losing
            && matches!(oracle.probe(&state), Some(Value::Loss(_)))
        {
            let mut child = state;
            child.play(mv);
            let history = [child.hash(), child.hash(), state.hash()];
            let root = oracle.probe_root(&state, &history).unwrap();
            assert_eq!(root.value, Value::Draw(1));
            assert_eq!(root.best, mv);
            return;
        }
        let mv = moves[rng.index(moves.len())];
        state.play(mv);
        if state.outcome().is_some() {
            state = start;
        }
    }
    panic!("no lost position found");
}

/// A solve on the clock that runs out of time leaves the solver's table sound: the
/// positions it gave up on, solved again on the same table, agree with a solver that
/// never gave up.
#[test]
fn a_solve_cut_short_by_its_deadline_leaves_the_table_sound() {
    let Some(text) = l3_text() else { return };
    let stop = AtomicBool::new(false);
    let cut = LinetrisOracle::new(&connect_four());
    let whole = LinetrisOracle::new(&connect_four());
    let mut cut_short = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()).take(80) {
        let (moves, _) = line.split_once(' ').expect("moves and score");
        // 26 empty cells: more nodes than a search runs before it first looks at
        // the clock.
        let prefix = &moves[..16.min(moves.len())];
        let mut state = Linetris::start(&connect_four());
        play_digits(&mut state, prefix);
        if state.outcome().is_some() {
            continue;
        }
        if cut
            .solve_on_clock(&state, &stop, std::time::Instant::now())
            .is_none()
        {
            cut_short += 1;
        }
        let again = cut.solve(&state, &stop).expect("solvable");
        let truth = whole.solve(&state, &stop).expect("solvable");
        assert_eq!(again.value, truth.value, "{prefix}");
    }
    assert!(cut_short >= 20, "only {cut_short} solves were cut short");
}
