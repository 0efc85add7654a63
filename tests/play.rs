//! `tabuleiro play` driven through the real binary with piped input, for every game
//! on the registry; and the `Level` option (in process, and over UGI).
//!
//! Every child process runs under a deadline and is killed past it, so no test can
//! hang CI.

use std::io::{Read, Write};
use std::process::{Child, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;
use std::time::{Duration, Instant};

use tabuleiro::game::{Game, Outcome, Player, Record, default_config};
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::rng::Xorshift;
use tabuleiro::search::{Level, Policy, SearchLimits, Strategy};

#[path = "common/process.rs"]
mod process;
use process::wait_with_limit;

const BIN: &str = env!("CARGO_BIN_EXE_tabuleiro");

fn spawn(args: &[&str]) -> Child {
    Command::new(BIN)
        .args(args)
        .env("LANG", "C.UTF-8")
        .env_remove("NO_COLOR")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the tabuleiro binary starts")
}

/// Runs `tabuleiro <args>` with `input` on stdin (then end of input) and returns
/// (exit code, stdout, stderr); kills it after `limit`.
fn run(args: &[&str], input: &[u8], limit: Duration) -> (Option<i32>, String, String) {
    let mut child = spawn(args);
    let mut stdin = child.stdin.take().unwrap();
    let input = input.to_vec();
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&input);
    });
    let mut stdout = child.stdout.take().unwrap();
    let mut stderr = child.stderr.take().unwrap();
    let out_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stdout.read_to_string(&mut text);
        text
    });
    let err_reader = std::thread::spawn(move || {
        let mut text = String::new();
        let _ = stderr.read_to_string(&mut text);
        text
    });
    let status = wait_with_limit(&mut child, limit, &format!("tabuleiro {args:?}"));
    let _ = writer.join();
    (
        status.code(),
        out_reader.join().unwrap(),
        err_reader.join().unwrap(),
    )
}

/// A random game played to its end with the library: its moves and its result.
struct RandomGame(u64);
impl GameVisitor for RandomGame {
    type Output = Option<(Vec<String>, Outcome)>;
    fn visit<G: Game>(self) -> Self::Output {
        let mut rng = Xorshift::new(self.0);
        let mut record = Record::new(G::start(&default_config::<G>()));
        let mut texts = Vec::new();
        while record.outcome().is_none() && texts.len() < 1_000 {
            let moves = record.legal_moves();
            let mv = moves[rng.index(moves.len())];
            texts.push(record.state().format_move(mv));
            record.play(mv);
        }
        record.outcome().map(|outcome| (texts, outcome))
    }
}

#[test]
fn human_vs_human_random_games_end_with_the_known_result_in_every_game() {
    for name in games::NAMES {
        for seed in [1u64, 2, 3] {
            // Steps of two: `Xorshift::new` makes a seed odd, so neighbours would collide.
            let Some((moves, outcome)) =
                games::visit(name, RandomGame(0x9e37_79b9 + 2 * seed)).unwrap()
            else {
                continue;
            };
            let mut input = moves.join("\n");
            input.push('\n');
            let args = ["play", "--game", name, "--p1", "human", "--p2", "human"];
            let (code, out, err) = run(&args, input.as_bytes(), Duration::from_secs(30));
            assert_eq!(code, Some(0), "{name}: {err}");
            let expected = format!("Result: {outcome}, after {} plies.", moves.len());
            assert!(
                out.contains(&expected),
                "{name} seed {seed}: no '{expected}' in\n{out}"
            );
            assert!(out.contains("Game over: "), "{name}");
            // Every move was accepted: no complaint at the prompt.
            assert!(!out.contains("is not legal"), "{name}: {out}");
            assert!(!out.contains("neither a command"), "{name}: {out}");
            // A board was drawn after every move (the last one included).
            let boards = out.matches("\n    ").count();
            assert!(boards > moves.len(), "{name}: {boards} boards");
        }
    }
}

#[test]
fn neutreeko_repetition_draw_and_a_win_are_announced() {
    if !games::NAMES.contains(&"neutreeko") {
        return;
    }
    // Black shuttles c1<->e1 and white c5<->e5: the position after ply 2 comes back
    // at plies 6 and 10, a draw by threefold repetition; later moves are refused.
    let script = "d1e1\nd5e5\ne1c1\ne5c5\nc1e1\nc5e5\ne1c1\ne5c5\nc1e1\nc5e5\ne1c1\ne5c5\nb1b2\n";
    let args = ["play", "--p1", "human", "--p2", "human", "--ascii"];
    let (code, out, _) = run(&args, script.as_bytes(), Duration::from_secs(20));
    assert_eq!(code, Some(0));
    assert!(
        out.contains("Game over: draw by threefold repetition."),
        "{out}"
    );
    assert!(out.contains("Result: draw, after 10 plies."), "{out}");
    // A move after the end is refused with a way out.
    assert!(out.contains("The game is over: type 'undo'"), "{out}");
    // ASCII board: the FEN letters, the last move in brackets.
    assert!(out.contains("  5  .  w [.] . [w] 5"), "{out}");

    // Black lines up c1 d1 e1 while white wanders: a win in 5 plies.
    let script = "b1c1\nc2e2\nc4e4\ne2a2\ne4e1\n";
    let args = ["play", "--p1", "human", "--p2", "human", "--unicode"];
    let (code, out, _) = run(&args, script.as_bytes(), Duration::from_secs(20));
    assert_eq!(code, Some(0));
    assert!(out.contains("Game over: ● black (p1) wins."), "{out}");
    assert!(out.contains("Result: p1win, after 5 plies."), "{out}");
    assert!(out.contains("  1  ·  ·  ●  ● [●] 1"), "{out}");
}

#[test]
fn engine_vs_engine_plays_every_game_to_the_end() {
    for name in games::NAMES {
        let args = [
            "play",
            "--game",
            name,
            "--p1",
            "engine",
            "--p2",
            "engine",
            "--movetime",
            "15",
            "--level",
            "6",
            "--seed",
            "11",
        ];
        let (code, out, err) = run(&args, b"", Duration::from_secs(50));
        assert_eq!(code, Some(0), "{name}: {err}");
        assert!(out.contains("Game over: "), "{name}: {out}");
        assert!(out.contains("Result: "), "{name}");
        assert!(out.contains(" plays "), "{name}");
        assert!(
            out.contains("score "),
            "{name}: the engine's evaluation is shown"
        );
        // Nobody was prompted.
        assert!(!out.contains(")> "), "{name}: {out}");
    }
}

/// Drives an interactive child: reads its output until a prompt, answers.
struct Session {
    child: Child,
    stdin: std::process::ChildStdin,
    chunks: mpsc::Receiver<String>,
    seen: String,
    deadline: Instant,
}

impl Session {
    fn start(args: &[&str], limit: Duration) -> Session {
        let mut child = spawn(args);
        let stdin = child.stdin.take().unwrap();
        let mut stdout = child.stdout.take().unwrap();
        let (sender, chunks) = mpsc::channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 4096];
            loop {
                match stdout.read(&mut buffer) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        let text = String::from_utf8_lossy(&buffer[..n]).to_string();
                        if sender.send(text).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Session {
            child,
            stdin,
            chunks,
            seen: String::new(),
            deadline: Instant::now() + limit,
        }
    }

    /// Everything printed up to the next prompt (`…> `), or `None` at the end.
    fn until_prompt(&mut self) -> Option<String> {
        let mut text = String::new();
        loop {
            if text.ends_with("> ") {
                return Some(text);
            }
            let left = self.deadline.saturating_duration_since(Instant::now());
            match self.chunks.recv_timeout(left) {
                Ok(chunk) => {
                    self.seen.push_str(&chunk);
                    text.push_str(&chunk);
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => return None,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!("no prompt in time; the output so far:\n{}", self.seen);
                }
            }
        }
    }

    fn send(&mut self, line: &str) {
        writeln!(self.stdin, "{line}").unwrap();
    }

    /// Closes the input and waits for the exit code.
    fn finish(mut self) -> (Option<i32>, String) {
        drop(self.stdin);
        while let Ok(chunk) = self.chunks.recv_timeout(Duration::from_secs(10)) {
            self.seen.push_str(&chunk);
        }
        let code = self.child.wait().ok().and_then(|s| s.code());
        (code, self.seen)
    }
}

/// The complete moves listed by `moves` in `text`, and the beginnings of the
/// groups it lists when there are too many.
fn listed_moves(text: &str) -> (Vec<String>, Vec<String>) {
    let mut lines = text.lines().skip_while(|l| !l.starts_with("Legal moves"));
    lines.next();
    let mut moves = Vec::new();
    let mut groups = Vec::new();
    let mut in_groups = false;
    for line in lines {
        if line.ends_with("> ") || line.starts_with("Type ") {
            break;
        }
        if line.starts_with("More moves") {
            in_groups = true;
            continue;
        }
        for word in line.split_whitespace() {
            if in_groups {
                if let Some(start) = word.strip_suffix('…') {
                    groups.push(start.to_string());
                }
            } else {
                moves.push(word.to_string());
            }
        }
    }
    (moves, groups)
}

#[test]
fn human_vs_engine_with_undo_and_hint_in_every_game() {
    for name in games::NAMES {
        for human in ["p1", "p2"] {
            let engine = if human == "p1" { "p2" } else { "p1" };
            let args = [
                "play",
                "--game",
                name,
                &format!("--{human}"),
                "human",
                &format!("--{engine}"),
                "engine",
                "--movetime",
                "15",
                "--level",
                "4",
                "--seed",
                "5",
            ];
            let mut session = Session::start(&args, Duration::from_secs(50));
            let mut rng = Xorshift::new(77);
            let mut human_moves = 0;
            let mut tested_undo = false;
            let mut next = session.until_prompt();
            while let Some(text) = next.take() {
                if text.ends_with("game over> ") || human_moves >= 40 {
                    session.send("quit");
                    break;
                }
                if human_moves == 2 && !tested_undo {
                    tested_undo = true;
                    session.send("hint");
                    let reply = session.until_prompt().unwrap();
                    assert!(reply.contains("Hint: "), "{name}: {reply}");
                    session.send("undo");
                    let reply = session.until_prompt().unwrap();
                    assert!(reply.contains("Took back 2 moves: "), "{name}: {reply}");
                    human_moves -= 1;
                    next = Some(reply);
                    continue;
                }
                // `moves`, narrowed by the first group while the list is grouped.
                let mut prefix = String::new();
                let moves = loop {
                    session.send(&format!("moves {prefix}"));
                    let listing = session.until_prompt().unwrap();
                    let (moves, groups) = listed_moves(&listing);
                    if !moves.is_empty() {
                        break moves;
                    }
                    assert!(!groups.is_empty(), "{name}: {listing}");
                    prefix = groups[0].clone();
                };
                let pick = &moves[rng.index(moves.len())];
                session.send(pick);
                human_moves += 1;
                next = session.until_prompt();
            }
            let (code, out) = session.finish();
            assert_eq!(code, Some(0), "{name}: {out}");
            assert!(tested_undo || out.contains("Game over"), "{name}: {out}");
            let engine_moves = out.matches(" plays ").count();
            assert!(engine_moves >= 1, "{name}: the engine never moved:\n{out}");
            assert!(!out.contains("is not legal"), "{name}: {out}");
        }
    }
}

#[test]
fn bad_input_gets_a_message_and_the_prompt_again() {
    let name = games::DEFAULT;
    let mut input: Vec<u8> = Vec::new();
    input.extend_from_slice(b"\n   \nxyz\nundo\nmoves zz\nzz99\n");
    input.extend_from_slice(&[0xff, 0xfe, b'\n']);
    input.extend_from_slice("x".repeat(5_000).as_bytes());
    input.extend_from_slice(b"\nHELP\n");
    let args = ["play", "--game", name, "--p1", "human", "--p2", "human"];
    let (code, out, err) = run(&args, &input, Duration::from_secs(20));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("'xyz' is neither a command nor a move"),
        "{out}"
    );
    assert!(out.contains("Nothing to undo"), "{out}");
    assert!(out.contains("No legal move starts with 'zz'."), "{out}");
    assert!(out.contains("far too long"), "{out}");
    assert!(out.contains("Commands:"), "{out}");
    // The position never changed: one board, still ply 0.
    assert_eq!(out.matches("ply 0").count(), 1, "{out}");
    assert!(!out.contains("ply 1"), "{out}");

    if name == "neutreeko" {
        let (code, out, _) = run(
            &["play", "--p1", "human", "--p2", "human"],
            b"b1b3\nb5b4\na1a2\nb1b4\nquit\nc2c3\n",
            Duration::from_secs(20),
        );
        assert_eq!(code, Some(0));
        assert!(
            out.contains("b1b3 is not legal here. Legal moves like it: b1a1 b1a2 b1b4 b1c1"),
            "{out}"
        );
        assert!(
            out.contains("b5b4 is not legal here: b5 holds none of black's pieces."),
            "{out}"
        );
        assert!(
            out.contains("a1a2 is not legal here: a1 is empty."),
            "{out}"
        );
        assert!(out.contains("last move b1b4 by black"), "{out}");
        // `quit` ends the loop: the line after it is never read as a move.
        assert!(!out.contains("last move c2c3"), "{out}");
    }
}

/// Neutreeko's tablebase is built in the background when play starts; the first hint
/// and engine move must wait for it, or a short search plays b1b4/d1d4, which lose.
/// b1c1 and d1c1 are the only first moves that keep the draw.
#[test]
fn neutreeko_first_hint_and_engine_move_use_the_tablebase() {
    let drawing = ["b1c1", "d1c1"];
    // The hint to a human p1, then the move of an engine p1: the word after `said`.
    for (p1, input, said) in [
        ("human", "hint\nquit\n", "Hint: "),
        ("engine", "quit\n", " plays "),
    ] {
        let args = [
            "play",
            "--game",
            "neutreeko",
            "--p1",
            p1,
            "--p2",
            "human",
            "--movetime",
            "20",
        ];
        let (code, out, err) = run(&args, input.as_bytes(), Duration::from_secs(60));
        assert_eq!(code, Some(0), "{err}");
        let first = out
            .lines()
            .find_map(|line| line.split(said).nth(1))
            .and_then(|rest| rest.split_whitespace().next())
            .unwrap_or_else(|| panic!("no '{said}' in:\n{out}"));
        assert!(
            drawing.contains(&first),
            "{p1} p1: {first} at ply 0:\n{out}"
        );
    }
}

#[test]
fn linetris_column_off_the_board_is_explained() {
    let args = [
        "play", "--game", "linetris", "--option", "Cols=4", "--p1", "human", "--p2", "human",
    ];
    let (code, out, err) = run(&args, b"5\nquit\n", Duration::from_secs(20));
    assert_eq!(code, Some(0), "{err}");
    assert!(
        out.contains("Column 5 is off this 4-column board (columns 1-4)."),
        "{out}"
    );
}

#[test]
fn bad_command_lines_are_refused_with_exit_code_2() {
    for args in [
        &["play", "--level", "0"][..],
        &["play", "--level", "11"],
        &["play", "--p1", "robot"],
        &["play", "--game", "chess"],
        &["play", "--movetime", "x"],
        &["play", "--option", "Nonsense=1"],
        &["play", "--option", "novalue"],
        &["play", "--color", "sometimes"],
        &["play", "--frobnicate"],
    ] {
        let (code, _, err) = run(args, b"", Duration::from_secs(10));
        assert_eq!(code, Some(2), "{args:?}");
        assert!(err.contains("tabuleiro: "), "{args:?}: {err}");
    }
    let (code, out, _) = run(&["play", "--help"], b"", Duration::from_secs(10));
    assert_eq!(code, Some(0));
    assert!(out.contains("--level N"), "{out}");
}

#[test]
fn level_is_a_ugi_option() {
    let input = b"ugi\nsetoption name Level value 0\nsetoption name level value 1\nposition startpos\ngo depth 3\nisready\nquit\n";
    let (code, out, _) = run(&[], input, Duration::from_secs(20));
    assert_eq!(code, Some(0));
    assert!(
        out.contains("option name Level type spin default 10 min 1 max 10"),
        "{out}"
    );
    assert!(
        out.contains("info string error: setoption: bad value for Level: 0 is outside 1..10"),
        "{out}"
    );
    assert_eq!(out.matches("bestmove ").count(), 1, "{out}");
    assert!(out.contains("readyok"), "{out}");
}

/// Plays pairs of games of Level `weak` against full strength in process (the weak
/// side p1 in the first game of a pair, p2 in the second) and scores each pair:
/// (pairs the weak side won, pairs the strong side won, tied pairs).
///
/// A pair goes to whoever won more of its two games. When each won one, both with the
/// same side (a game that favours one role, such as Frozen Forest where Mina usually
/// survives), the pair goes to whoever held out longer with the losing role, which is
/// Frozen Forest's own match rule (more trees eaten as Yuki) in general terms.
struct LevelMatch {
    weak: u8,
    pairs: u32,
    strong_nodes: u64,
}

impl LevelMatch {
    /// One game: (winner is the weak side?, plies), `None` winner on a draw.
    fn game<G: Strategy>(&self, weak_side: Player, seed: u64) -> (Option<bool>, usize) {
        let mut weak = Policy::<G>::standard(4, &default_config::<G>());
        weak.seed_level(seed);
        let mut strong = Policy::<G>::standard(4, &default_config::<G>());
        let mut record = Record::new(G::start(&default_config::<G>()));
        while record.outcome().is_none() && record.moves().len() < 600 {
            let side = record.state().side_to_move();
            let (searcher, limits) = if side == weak_side {
                let level = Level::new(self.weak).unwrap();
                let limits = SearchLimits {
                    level,
                    ..SearchLimits::default()
                };
                (&mut weak, limits)
            } else {
                let limits = SearchLimits {
                    nodes: Some(self.strong_nodes),
                    ..SearchLimits::default()
                };
                (&mut strong, limits)
            };
            let state = record.state().clone();
            let history = record.history().to_vec();
            let stop = Arc::new(AtomicBool::new(false));
            let best = searcher
                .search(&state, &history, limits, stop, &mut |_| {})
                .best
                .expect("a move while the game goes on");
            record.play(best);
        }
        let winner = match record.outcome() {
            Some(Outcome::Win(p)) => Some(p == weak_side),
            _ => None,
        };
        (winner, record.moves().len())
    }
}

impl GameVisitor for LevelMatch {
    type Output = (u32, u32, u32);
    fn visit<G: Strategy>(self) -> (u32, u32, u32) {
        let mut tally = (0, 0, 0);
        for pair in 0..self.pairs {
            let seed = 1_000 + u64::from(pair);
            let (first, first_plies) = self.game::<G>(Player::P1, seed);
            let (second, second_plies) = self.game::<G>(Player::P2, seed);
            let points = |won: Option<bool>| match won {
                Some(true) => 2,
                Some(false) => 0,
                None => 1,
            };
            let weak_points = points(first) + points(second);
            let weak_won_pair = match weak_points {
                3.. => Some(true),
                0..=1 => Some(false),
                // One win each, with the same role (p2 won both, or p1 both): the longer
                // resistance with the losing role decides.
                _ if first == Some(false) && second == Some(true) => {
                    // Weak lost as p1 in `first`, strong lost as p1 in `second`.
                    Some(first_plies > second_plies).filter(|_| first_plies != second_plies)
                }
                _ if first == Some(true) && second == Some(false) => {
                    // Strong lost as p2 in `first`, weak lost as p2 in `second`.
                    Some(second_plies > first_plies).filter(|_| first_plies != second_plies)
                }
                _ => None,
            };
            eprintln!(
                "{} pair {pair}: weak as p1 {first:?} in {first_plies} plies, \
                 weak as p2 {second:?} in {second_plies} plies",
                G::NAME
            );
            match weak_won_pair {
                Some(true) => tally.0 += 1,
                Some(false) => tally.1 += 1,
                None => tally.2 += 1,
            }
        }
        tally
    }
}

#[test]
fn level_1_loses_clearly_to_level_10_in_every_game() {
    let handles: Vec<_> = games::NAMES
        .iter()
        .map(|&name| {
            std::thread::Builder::new()
                .stack_size(64 * 1024 * 1024)
                .spawn(move || {
                    let result = games::visit(
                        name,
                        LevelMatch {
                            weak: 1,
                            pairs: 2,
                            strong_nodes: 4_000,
                        },
                    );
                    (name, result.unwrap())
                })
                .unwrap()
        })
        .collect();
    for handle in handles {
        let (name, (weak, strong, tied)) = handle.join().unwrap();
        eprintln!("{name}: pairs won by level 1: {weak}, by level 10: {strong}, tied {tied}");
        assert_eq!(
            (weak, strong, tied),
            (0, 2, 0),
            "{name}: level 10 must win every pair"
        );
    }
}

#[test]
fn seeded_levels_repeat_and_level_10_is_the_plain_search() {
    struct Check;
    impl GameVisitor for Check {
        type Output = ();
        fn visit<G: Strategy>(self) {
            let start = G::start(&default_config::<G>());
            let history = [start.hash()];
            let search = |limits: SearchLimits, seed: Option<u64>| {
                let mut searcher = Policy::<G>::standard(4, &default_config::<G>());
                if let Some(seed) = seed {
                    searcher.seed_level(seed);
                }
                let stop = Arc::new(AtomicBool::new(false));
                let out = searcher.search(&start, &history, limits, stop, &mut |_| {});
                (out.best, out.nodes, out.depth)
            };
            let plain = SearchLimits {
                depth: Some(4),
                ..SearchLimits::default()
            };
            let full = SearchLimits {
                level: Level::FULL,
                ..plain
            };
            assert_eq!(search(plain, None), search(full, Some(3)), "{}", G::NAME);
            let weak = SearchLimits {
                level: Level::new(3).unwrap(),
                ..plain
            };
            assert_eq!(search(weak, Some(9)), search(weak, Some(9)), "{}", G::NAME);
            // Level 3 stops at its depth cap.
            assert!(search(weak, Some(9)).2 <= 2, "{}", G::NAME);
        }
    }
    for name in games::NAMES {
        games::visit(name, Check);
    }
}

/// A file name in the temporary directory, unique to this test run.
fn temp(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!("tabuleiro-play-{}-{name}", std::process::id()))
}

#[test]
fn history_save_and_pgn_record_the_game() {
    if !games::NAMES.contains(&"neutreeko") {
        return;
    }
    let saved = temp("saved game.pgn");
    let all = temp("all.pgn");
    std::fs::remove_file(&all).ok();
    // Two humans: black wins in 5 plies (as above); `save` before the end, `history`,
    // a save to a directory that does not exist, then `new` and one move, then quit.
    let script = format!(
        "history\nb1c1\nc2e2\nhistory\nsave {}\nsave /nonexistent-dir/x.pgn\nsave\n\
         c4e4\ne2a2\ne4e1\nnew\nd1e2\nquit\n",
        saved.display()
    );
    let args = [
        "play",
        "--p1",
        "human",
        "--p2",
        "human",
        "--ascii",
        "--pgn",
        all.to_str().unwrap(),
    ];
    let (code, out, _) = run(&args, script.as_bytes(), Duration::from_secs(20));
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("No moves yet."), "{out}");
    assert!(
        out.contains("The game so far (2 plies):\n1. b1c1 c2e2\n"),
        "{out}"
    );
    assert!(out.contains("Saved the game (2 plies) to"), "{out}");
    assert!(out.contains("Cannot write /nonexistent-dir/x.pgn"), "{out}");
    assert!(out.contains("Save to which file?"), "{out}");
    assert_eq!(
        out.matches(&format!("The game is saved in {}.", all.display()))
            .count(),
        2,
        "{out}"
    );

    let text = std::fs::read_to_string(&saved).expect("save wrote the file");
    std::fs::remove_file(&saved).ok();
    let records = tabuleiro::arena::pgn::read(&text).expect("a PGN record");
    assert_eq!(records.len(), 1);
    let game = &records[0];
    for (tag, value) in [
        ("Event", "tabuleiro play"),
        ("P1", "human"),
        ("White", "human"),
        ("Result", "*"),
        ("Game", "neutreeko"),
        ("Termination", "unterminated"),
    ] {
        assert_eq!(game.tag(tag), Some(value), "{tag} in\n{text}");
    }
    assert!(game.tag("Date").is_some_and(|d| d.len() == 10), "{text}");

    let text = std::fs::read_to_string(&all).expect("--pgn wrote the file");
    std::fs::remove_file(&all).ok();
    let records = tabuleiro::arena::pgn::read(&text).expect("PGN records");
    assert_eq!(records.len(), 2, "{text}");
    assert_eq!(records[0].result, "1-0");
    assert_eq!(records[0].tag("Result"), Some("1-0"));
    assert_eq!(records[0].tag("Termination"), Some("normal"));
    let moves: Vec<&str> = records[0].moves.iter().map(|m| m.text.as_str()).collect();
    assert_eq!(moves, ["b1c1", "c2e2", "c4e4", "e2a2", "e4e1"]);
    assert_eq!(records[1].result, "*");
    assert_eq!(records[1].moves.len(), 1);
}

#[test]
fn engine_games_are_saved_with_their_options_and_result() {
    let all = temp("engine.pgn");
    std::fs::remove_file(&all).ok();
    let args = [
        "play",
        "--game",
        "linetris",
        "--option",
        "Rows=4",
        "--option",
        "Cols=5",
        "--p1",
        "engine",
        "--p2",
        "engine",
        "--movetime",
        "10",
        "--level",
        "3",
        "--seed",
        "5",
        "--pgn",
        all.to_str().unwrap(),
    ];
    let (code, out, _) = run(&args, b"", Duration::from_secs(60));
    assert_eq!(code, Some(0), "{out}");
    let text = std::fs::read_to_string(&all).expect("--pgn wrote the file");
    std::fs::remove_file(&all).ok();
    let records = tabuleiro::arena::pgn::read(&text).expect("a PGN record");
    assert_eq!(records.len(), 1, "{text}");
    let game = &records[0];
    assert_eq!(game.tag("P1"), Some("tabuleiro level 3"), "{text}");
    assert_eq!(game.tag("Rows"), Some("4"), "{text}");
    assert_eq!(game.tag("Cols"), Some("5"), "{text}");
    assert_eq!(game.tag("RowClear"), Some("true"), "{text}");
    assert_ne!(game.result, "*", "{text}");
    // The record replays to the result it states.
    let config = tabuleiro::options::config_from_pairs::<tabuleiro::games::linetris::Linetris>(&[
        ("Rows", "4"),
        ("Cols", "5"),
    ])
    .unwrap();
    let mut record = Record::new(tabuleiro::games::linetris::Linetris::start(&config));
    for mv in &game.moves {
        record.play_text(&mv.text).expect("a legal move");
    }
    let token = match record.outcome() {
        Some(Outcome::Win(Player::P1)) => "1-0",
        Some(Outcome::Win(Player::P2)) => "0-1",
        Some(Outcome::Draw) => "1/2-1/2",
        None => "*",
    };
    assert_eq!(token, game.result, "{text}");
    assert!(out.contains("The game is saved in"), "{out}");
}
