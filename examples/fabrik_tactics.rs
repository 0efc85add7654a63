//! Fabrik's tactical suite (issue 33): positions where the side to move wins by force
//! or must find one of a few defences, each verdict proven by a full-width search.
//!
//! `cargo run --release --example fabrik_tactics -- --movetime MS [--engine PATH]
//! [--limit K] [--file PATH]` scores an engine on `tests/data/fabrik_tactics.txt`: it
//! drives the engine's binary over UGI as a user would (`setoption name Size`,
//! `LineLength`, `uginewgame`, `isready`, `position fen …`, `go movetime MS`), so any
//! build can be scored (the default engine is `target/release/tabuleiro`). `--cold`
//! leaves out the `isready`: the first search after a new board then also pays for
//! readying the engine's tables, which at 30 ms costs it most of its time. `--depth D`
//! plays `go depth D` instead of a movetime: the same moves on any machine. It prints the share of positions where
//! the engine played a move of the recorded set, by board and kind, every failure, and
//! how many won positions it turned into lost ones: after its move the opponent wins by
//! force within the position's N plies, re-proven here by the full-width prover.
//!
//! `cargo run --release --example fabrik_tactics -- generate --seed S --games G` makes
//! the suite: engine self-play games (a node-limited search with random moves mixed in)
//! on 11×11 LineLength 5 and 7×7 LineLength 4, then, walking back from each game's end,
//! the positions where the winner had a forced win (`win`) and where the loser could
//! still hold (`defend`). Records go to standard output as they are proven. Options:
//! `--nodes` (the self-play search, default 3000), `--budget` (prover nodes per
//! position, default 400,000; positions over it are skipped), `--min-legal` (positions
//! with fewer legal moves are skipped, default 8).
//!
//! `cargo run --release --example fabrik_tactics -- forcing [--nodes N] [--file PATH]`
//! runs the engine's forcing search alone (`games::fabrik::forcing`, at most N nodes a
//! call, default 20,000): on each `win` position, whether it proves the win and how fast
//! (a proof shorter than the recorded N would be a bug: it stops the run); on each
//! `defend` position, after every legal move, whether it proves the opponent's win (it
//! must not within N − 1 after a holding move; after the others it shows how many of the
//! losing moves a root pass would spot). `--lines`: line fours only (no walling-in
//! threats); `--by-playing`: walling-in threats found by playing every move (the
//! oracle, slower; same proofs); `--wins`: the win records only; `--no-table`: the
//! search without its table of proofs and failures (each record starts with an empty
//! table).
//!
//! The prover is plain alpha-beta over `generate_moves`/`play`/`outcome` with exact
//! win/loss values (Fabrik has no draws): "the side to move wins within n plies" is true
//! when one of its moves wins at once or leaves every reply a position won within n − 2.
//! Only move order and one exact leaf test (an immediate win: a placement completing a
//! line, or a move after which the opponent cannot place) speed it up; it shares no code
//! with the engine's search or its threat logic.
//!
//! Record format, one position a line, fields split by `;`:
//! `kind; size; line length; N; legal moves; FEN; move move …` where `win` means the
//! side to move wins in N plies (and not fewer) and the moves are every move that wins
//! within N, and `defend` means the opponent, if let be, has moves that win within N − 1:
//! the moves are every move after which the opponent has no forced win within N − 1.

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::{RngExt, SeedableRng, rngs::StdRng};
use tabuleiro::game::{Game, Player};
use tabuleiro::games::fabrik::geometry::{Bb, bit, geometry};
use tabuleiro::games::fabrik::{Config, Fabrik, Move, MoveKind};
use tabuleiro::search::{Policy, SearchLimits};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/fabrik_tactics.txt");

/// The squares of a set.
fn squares(mut set: Bb) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if set == 0 {
            None
        } else {
            let square = set.trailing_zeros() as usize;
            set &= set - 1;
            Some(square)
        }
    })
}

/// The longest line of `player`'s stones through `square` if a stone of theirs stood
/// there (counting it), over the four axes; 0 for an occupied stone square.
fn line_through(pos: &Fabrik, square: usize, player: Player) -> u32 {
    let g = geometry();
    let own = pos.stones(player);
    (0..4)
        .map(|d| 1 + g.run(square, d, own) + g.run(square, d + 4, own))
        .max()
        .unwrap_or(0)
}

/// The empty or worker squares where a stone of `player` would complete a line.
fn completion_squares(pos: &Fabrik, player: Player) -> Bb {
    let g = geometry();
    let own = pos.stones(player);
    let mut near: Bb = 0;
    for s in squares(own) {
        near |= g.neighbours[s];
    }
    let targets = (pos.empty() | pos.workers()) & pos.board() & near;
    let need = pos.line_length();
    let mut found = 0;
    for s in squares(targets) {
        if line_through(pos, s, player) >= need {
            found |= bit(s);
        }
    }
    found
}

/// Whether, whatever the side to move plays, the other side keeps a placement: each
/// worker has three empty neighbours with three empty neighbours each, so after one move
/// (a stone and a worker's new square: two empty squares fewer) the worker that stayed
/// still has an empty neighbour `s` with an empty neighbour `t`, and the other worker
/// can move to `t` and place on `s`.
fn reply_always_exists(pos: &Fabrik) -> bool {
    let g = geometry();
    let empty = pos.empty();
    squares(pos.workers()).all(|k| {
        squares(g.neighbours[k] & empty)
            .filter(|&s| (g.neighbours[s] & empty).count_ones() >= 3)
            .count()
            >= 3
    })
}

fn places(mv: Move) -> bool {
    matches!(mv.kind(), MoveKind::Place | MoveKind::Relocate)
}

/// Full-width win prover with a table of proven bounds.
struct Prover {
    /// Per position hash: (no win within this many plies, win within this many plies).
    table: HashMap<u64, (u8, u8)>,
    buffers: Vec<Vec<Move>>,
    nodes: u64,
    /// A node budget: past it every answer is `false` and `aborted` is set, so the
    /// caller throws the prover (and its table) away with the position.
    budget: u64,
    aborted: bool,
}

impl Prover {
    fn new() -> Prover {
        Prover {
            table: HashMap::new(),
            buffers: Vec::new(),
            nodes: 0,
            budget: u64::MAX,
            aborted: false,
        }
    }

    fn take_buffer(&mut self) -> Vec<Move> {
        let mut buffer = self.buffers.pop().unwrap_or_default();
        buffer.clear();
        buffer
    }

    /// Whether the side to move wins with its next move (a line, or the opponent left
    /// without a placement). Exact.
    fn immediate_win(&mut self, pos: &Fabrik) -> bool {
        let side = pos.side_to_move();
        let targets = completion_squares(pos, side);
        let check_all = !reply_always_exists(pos);
        if targets == 0 && !check_all {
            return false;
        }
        let mut moves = self.take_buffer();
        pos.generate_moves(&mut moves);
        let mut won = moves
            .iter()
            .any(|&mv| places(mv) && targets & bit(mv.square()) != 0);
        if !won && check_all {
            won = moves.iter().any(|&mv| {
                let mut child = *pos;
                child.play(mv);
                child.outcome().is_some()
            });
        }
        self.buffers.push(moves);
        won
    }

    /// Whether the side to move (the game not over) wins within `depth` plies.
    fn wins(&mut self, pos: &Fabrik, depth: u32) -> bool {
        self.nodes += 1;
        if self.nodes > self.budget {
            self.aborted = true;
            return false;
        }
        if self.immediate_win(pos) {
            return true;
        }
        if depth < 3 {
            return false;
        }
        let key = pos.hash();
        let (no_win, win) = self.table.get(&key).copied().unwrap_or((0, u8::MAX));
        if u32::from(win) <= depth {
            return true;
        }
        if u32::from(no_win) >= depth {
            return false;
        }
        let mut moves = self.take_buffer();
        pos.generate_moves(&mut moves);
        order_attack(pos, &mut moves);
        let mut result = false;
        for &mv in &moves {
            let mut child = *pos;
            child.play(mv);
            if child.outcome().is_some() || !self.holds(&child, depth - 2) {
                result = true;
                break;
            }
        }
        self.buffers.push(moves);
        if self.aborted {
            return false;
        }
        let entry = self.table.entry(key).or_insert((0, u8::MAX));
        if result {
            entry.1 = entry.1.min(depth as u8);
        } else {
            entry.0 = entry.0.max(depth as u8);
        }
        result
    }

    /// Whether the side to move (the game not over) has a move after which the
    /// opponent has no win within `depth` plies.
    fn holds(&mut self, pos: &Fabrik, depth: u32) -> bool {
        if self.immediate_win(pos) {
            return true;
        }
        // Cheap candidates first: plain placements on the squares the attacker would
        // most like to have (a stone only ever takes options away from the attacker).
        let attacker = pos.side_to_move().other();
        let mut candidates: Vec<(u32, usize)> = squares(pos.placeable())
            .map(|s| (line_through(pos, s, attacker), s))
            .collect();
        candidates.sort_unstable_by(|a, b| b.cmp(a));
        for &(_, s) in candidates.iter().take(3) {
            let mut child = *pos;
            child.play(Move::place(s));
            if child.outcome().is_some() || !self.wins(&child, depth) {
                return true;
            }
        }
        let mut moves = self.take_buffer();
        pos.generate_moves(&mut moves);
        order_defence(pos, &mut moves);
        let mut held = false;
        for &mv in &moves {
            let mut child = *pos;
            child.play(mv);
            if child.outcome().is_some() || !self.wins(&child, depth) {
                held = true;
                break;
            }
        }
        self.buffers.push(moves);
        held
    }

    /// The shortest win of the side to move of 3 to `max` plies, if any.
    fn shortest_win(&mut self, pos: &Fabrik, max: u32) -> Option<u32> {
        (3..=max).step_by(2).find(|&n| self.wins(pos, n))
    }

    /// Every move that wins within `n` plies (n ≥ 3).
    fn winning_moves(&mut self, pos: &Fabrik, n: u32) -> Vec<Move> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        moves
            .into_iter()
            .filter(|&mv| {
                let mut child = *pos;
                child.play(mv);
                child.outcome().is_some() || !self.holds(&child, n - 2)
            })
            .collect()
    }

    /// Every move after which the opponent has no win within `n` plies, or `None` as
    /// soon as more than `most` hold.
    fn holding_moves(&mut self, pos: &Fabrik, n: u32, most: usize) -> Option<Vec<Move>> {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        // Likely defences first, so that a position with many is given up soon.
        order_defence(pos, &mut moves);
        let mut held = Vec::new();
        for mv in moves {
            let mut child = *pos;
            child.play(mv);
            if child.outcome().is_some() || !self.wins(&child, n) {
                held.push(mv);
                if held.len() > most {
                    return None;
                }
            }
        }
        Some(held)
    }
}

/// Attacking moves first: the squares that make the longest own lines, then those that
/// block the opponent's.
fn order_attack(pos: &Fabrik, moves: &mut [Move]) {
    let me = pos.side_to_move();
    let mut value = [0u32; 128];
    for s in squares(pos.empty() | pos.workers()) {
        value[s] = 4 * line_through(pos, s, me) + line_through(pos, s, me.other());
    }
    moves.sort_by_key(|&mv| std::cmp::Reverse(value[mv.square()]));
}

/// Defending moves first: the squares where the opponent's lines would grow most, a
/// worker moved onto such a square counting as well.
fn order_defence(pos: &Fabrik, moves: &mut [Move]) {
    let me = pos.side_to_move();
    let mut value = [0u32; 128];
    for s in squares(pos.empty() | pos.workers()) {
        value[s] = 4 * line_through(pos, s, me.other()) + line_through(pos, s, me);
    }
    moves.sort_by_key(|&mv| {
        let worker = if mv.kind() == MoveKind::Relocate {
            value[mv.to()] / 2
        } else {
            0
        };
        std::cmp::Reverse(value[mv.square()] + worker)
    });
}

/// One board of the suite: size, line length, the longest win searched (plies), the
/// opponent's threat depth for defences, and the largest holding set kept.
#[derive(Clone, Copy)]
struct Board {
    size: u8,
    line_length: u8,
    max_win: u32,
    threat: u32,
    max_holding: usize,
}

const BOARDS: [Board; 2] = [
    Board {
        size: 11,
        line_length: 5,
        max_win: 5,
        threat: 3,
        max_holding: 12,
    },
    Board {
        size: 7,
        line_length: 4,
        max_win: 7,
        threat: 5,
        max_holding: 8,
    },
];

fn arg<T: std::str::FromStr>(args: &[String], name: &str) -> Option<T> {
    let at = args.iter().position(|a| a == name)?;
    match args.get(at + 1).map(|v| v.parse()) {
        Some(Ok(value)) => Some(value),
        _ => {
            eprintln!("{name} needs a value");
            std::process::exit(2);
        }
    }
}

/// Plays one self-play game: random worker setup, then a node-limited search with a
/// random move now and then. Returns the positions before each move and the end.
fn self_play(
    config: &Config,
    rng: &mut StdRng,
    searcher: &mut Policy<Fabrik>,
    nodes: u64,
) -> Vec<Fabrik> {
    let mut state = Fabrik::start(config);
    let mut moves = Vec::new();
    let mut line = Vec::new();
    searcher.clear();
    let mut history = vec![state.hash()];
    while state.outcome().is_none() {
        line.push(state);
        moves.clear();
        state.generate_moves(&mut moves);
        let random = state.plies() < 4 || rng.random_range(0..100) < 12;
        let mv = if random {
            moves.retain(|mv| mv.kind() != MoveKind::Pass);
            moves[rng.random_range(0..moves.len())]
        } else {
            let limits = SearchLimits {
                nodes: Some(nodes),
                ..SearchLimits::default()
            };
            let stop = Arc::new(AtomicBool::new(false));
            let result = searcher.search(&state, &history, limits, stop, &mut |_| {});
            match result.best {
                Some(mv) => mv,
                None => break,
            }
        };
        state.play(mv);
        history.push(state.hash());
    }
    line.push(state);
    line
}

fn format_moves(pos: &Fabrik, moves: &[Move]) -> String {
    let mut names: Vec<String> = moves.iter().map(|&mv| pos.format_move(mv)).collect();
    names.sort();
    names.join(" ")
}

fn generate(args: &[String]) {
    let seed: u64 = arg(args, "--seed").unwrap_or(1);
    let games: usize = arg(args, "--games").unwrap_or(200);
    let nodes: u64 = arg(args, "--nodes").unwrap_or(3000);
    let budget: u64 = arg(args, "--budget").unwrap_or(400_000);
    // Positions with fewer legal moves are not looked at (a harder suite: middle games).
    let min_legal: usize = arg(args, "--min-legal").unwrap_or(8);
    let mut rng = StdRng::seed_from_u64(seed);
    let mut seen = std::collections::HashSet::new();
    let mut out = std::io::stdout().lock();
    for game in 0..games {
        let board = BOARDS[game % BOARDS.len()];
        let config = Config {
            size: board.size,
            line_length: board.line_length,
        };
        let mut searcher = Policy::<Fabrik>::standard(16, &config);
        let line = self_play(&config, &mut rng, &mut searcher, nodes);
        let Some(end) = line.last() else { continue };
        let total = line.len() - 1;
        eprintln!(
            "game {game}: {}x{} {} plies, {:?}",
            board.size,
            board.size,
            total,
            end.outcome()
        );
        let mut prover = Prover::new();
        // Walking back from the end: the winner moved at distance 1, 3, 5, …; the
        // loser at 2, 4, ….
        for distance in 2..=6 {
            if distance > total {
                break;
            }
            let pos = line[total - distance];
            if pos.stones(Player::P1) | pos.stones(Player::P2) == 0 || !seen.insert(pos.hash()) {
                continue;
            }
            let clock = Instant::now();
            prover.nodes = 0;
            prover.budget = budget;
            let mut legal = Vec::new();
            pos.generate_moves(&mut legal);
            // Proofs share a table within a game, and the budget counts nodes, so a
            // skipped proof can change a later one: the pinned suite was made proving
            // the small positions too (and dropping them below), as the default does.
            if (min_legal > 8 && legal.len() < min_legal) || prover.immediate_win(&pos) {
                continue;
            }
            // The winner's win most likely began near its last moves: look for one
            // at most two plies longer than what was played, and for the loser's own
            // wins only the short ones.
            let longest = if distance % 2 == 1 {
                board.max_win.min(distance as u32 + 2)
            } else {
                3
            };
            let record = if let Some(n) = prover.shortest_win(&pos, longest) {
                let set = prover.winning_moves(&pos, n);
                Some(("win", n, set))
            } else if distance % 2 == 0 {
                let held = prover.holding_moves(&pos, board.threat, board.max_holding);
                eprintln!(
                    "  holding: {}",
                    held.as_ref()
                        .map_or("many".to_string(), |h| h.len().to_string())
                );
                held.filter(|held| !held.is_empty() && held.len() < legal.len())
                    .map(|held| ("defend", board.threat + 1, held))
            } else {
                None
            };
            if prover.aborted {
                eprintln!("  distance {distance}: over the node budget, skipped");
                prover = Prover::new();
                continue;
            }
            // Keep only positions with a real choice: enough moves, and at most half
            // of them good.
            let record =
                record.filter(|r| legal.len() >= min_legal && r.2.len() * 2 <= legal.len());
            if let Some((kind, n, set)) = &record {
                let _ = writeln!(
                    out,
                    "{kind}; {}; {}; {n}; {}; {}; {}",
                    board.size,
                    board.line_length,
                    legal.len(),
                    pos.fen(),
                    format_moves(&pos, set)
                );
                let _ = out.flush();
            }
            eprintln!(
                "  distance {distance}: {} in {:.1} s, {} nodes",
                record
                    .as_ref()
                    .map(|r| format!("{} {} ({} moves)", r.0, r.1, r.2.len()))
                    .unwrap_or_else(|| "nothing".to_string()),
                clock.elapsed().as_secs_f64(),
                prover.nodes
            );
        }
    }
}

/// One position of the suite.
struct Entry {
    kind: String,
    size: u8,
    line_length: u8,
    n: u32,
    fen: String,
    moves: Vec<String>,
}

/// Reads the suite: `#` lines are comments; each other line is one record.
fn read_suite(text: &str) -> Result<Vec<Entry>, String> {
    let mut entries = Vec::new();
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let fields: Vec<&str> = line.split(';').map(str::trim).collect();
        let bad = |why: &str| format!("line {}: {why}", number + 1);
        let [kind, size, line_length, n, _legal, fen, moves] = fields[..] else {
            return Err(bad("expected 7 fields split by ';'"));
        };
        entries.push(Entry {
            kind: kind.to_string(),
            size: size.parse().map_err(|_| bad("bad size"))?,
            line_length: line_length.parse().map_err(|_| bad("bad line length"))?,
            n: n.parse().map_err(|_| bad("bad N"))?,
            fen: fen.to_string(),
            moves: moves.split_whitespace().map(str::to_string).collect(),
        });
    }
    Ok(entries)
}

/// An engine process spoken to over UGI.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(path: &str) -> Result<Engine, String> {
        let mut child = Command::new(path)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start {path}: {e}"))?;
        let input = child.stdin.take().ok_or("no stdin")?;
        let output = BufReader::new(child.stdout.take().ok_or("no stdout")?);
        let mut engine = Engine {
            child,
            input,
            output,
        };
        engine.send("ugi")?;
        engine.wait_for("ugiok")?;
        engine.send("setoption name Game value fabrik")?;
        Ok(engine)
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.input, "{line}")
            .and_then(|_| self.input.flush())
            .map_err(|e| format!("engine input: {e}"))
    }

    /// Reads lines until one starting with `word`; returns it.
    fn wait_for(&mut self, word: &str) -> Result<String, String> {
        let mut line = String::new();
        loop {
            line.clear();
            let read = self
                .output
                .read_line(&mut line)
                .map_err(|e| format!("engine output: {e}"))?;
            if read == 0 {
                return Err(format!("the engine quit before '{word}'"));
            }
            if line.split_whitespace().next() == Some(word) {
                return Ok(line.trim().to_string());
            }
        }
    }

    /// The engine's move in `fen` at `movetime` ms.
    fn best_move(
        &mut self,
        entry: &Entry,
        movetime: u64,
        depth: Option<u32>,
        cold: bool,
    ) -> Result<String, String> {
        self.send(&format!("setoption name Size value {}", entry.size))?;
        self.send(&format!(
            "setoption name LineLength value {}",
            entry.line_length
        ))?;
        self.send("uginewgame")?;
        // As a referee does before a game's first `go`: a new Size or LineLength makes a
        // new engine whose tables are readied by `isready`; without it the first search
        // shares its clock with that work (`--cold`, measured in docs/experiments).
        if !cold {
            self.send("isready")?;
            self.wait_for("readyok")?;
        }
        self.send(&format!("position fen {}", entry.fen))?;
        // The engine must hold the very position: a refused FEN or option would
        // otherwise score the start position.
        self.send("query fen")?;
        let echoed = self.wait_for("response")?;
        let board = |fen: &str| fen.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        if board(echoed.trim_start_matches("response")) != board(&entry.fen) {
            return Err(format!("the engine holds {echoed}, not {}", entry.fen));
        }
        match depth {
            Some(depth) => self.send(&format!("go depth {depth}"))?,
            None => self.send(&format!("go movetime {movetime}"))?,
        }
        let line = self.wait_for("bestmove")?;
        Ok(line.split_whitespace().nth(1).unwrap_or("").to_string())
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.send("quit");
        let _ = self.child.wait();
    }
}

/// Counts of one board and kind.
#[derive(Default)]
struct Tally {
    total: usize,
    solved: usize,
    /// Won positions after whose move the opponent wins by force (wins), or missed
    /// defences (each a forced loss by the record).
    lost: usize,
}

fn score(args: &[String]) -> Result<(), String> {
    let movetime: u64 = arg(args, "--movetime").unwrap_or(100);
    let engine_path: String = arg(args, "--engine").unwrap_or_else(|| {
        concat!(env!("CARGO_MANIFEST_DIR"), "/target/release/tabuleiro").to_string()
    });
    let limit: usize = arg(args, "--limit").unwrap_or(usize::MAX);
    let cold = args.iter().any(|a| a == "--cold");
    let depth: Option<u32> = arg(args, "--depth");
    let file: String = arg(args, "--file").unwrap_or_else(|| DATA.to_string());
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let suite = read_suite(&text)?;
    let mut engine = Engine::start(&engine_path)?;
    let mut tallies: std::collections::BTreeMap<(u8, u8, String), Tally> = Default::default();
    let clock = Instant::now();
    println!(
        "# {engine_path} at go {} on {file}{}",
        depth.map_or(format!("movetime {movetime}"), |d| format!("depth {d}")),
        if cold { " (cold: no isready)" } else { "" }
    );
    for (index, entry) in suite.iter().take(limit).enumerate() {
        let config = Config {
            size: entry.size,
            line_length: entry.line_length,
        };
        let pos = Fabrik::from_fen(&config, &entry.fen).map_err(|e| e.to_string())?;
        let played = engine.best_move(entry, movetime, depth, cold)?;
        let parsed = pos.legal_move(&played);
        let canonical = parsed.as_ref().map(|&mv| pos.format_move(mv));
        let solved = canonical
            .as_ref()
            .is_ok_and(|text| entry.moves.iter().any(|m| m == text));
        let tally = tallies
            .entry((entry.size, entry.line_length, entry.kind.clone()))
            .or_default();
        tally.total += 1;
        if solved {
            tally.solved += 1;
            continue;
        }
        // Not a move of the set: does the opponent now win by force?
        let lost = match parsed {
            Err(_) => true,
            Ok(_) if entry.kind == "defend" => true,
            Ok(mv) => {
                let mut child = pos;
                child.play(mv);
                let mut prover = Prover::new();
                child.outcome().is_none() && prover.wins(&child, entry.n | 1)
            }
        };
        if lost {
            tally.lost += 1;
        }
        println!(
            "FAIL {index}: {}x{} {} {}{} {}; played {played}{}; set {}",
            entry.size,
            entry.size,
            entry.kind,
            entry.n,
            if entry.kind == "win" { "" } else { " (threat)" },
            entry.fen,
            if lost { " (now lost)" } else { "" },
            entry.moves.join(" ")
        );
    }
    println!(
        "\n{:<8} {:<7} {:>9} {:>8} {:>7}",
        "board", "kind", "solved", "share", "lost"
    );
    let (mut all, mut solved) = (0, 0);
    for ((size, line_length, kind), tally) in &tallies {
        all += tally.total;
        solved += tally.solved;
        println!(
            "{:<8} {:<7} {:>4}/{:<4} {:>7.1}% {:>7}",
            format!("{size}x{size}/{line_length}"),
            kind,
            tally.solved,
            tally.total,
            100.0 * tally.solved as f64 / tally.total.max(1) as f64,
            tally.lost
        );
    }
    println!(
        "all              {solved:>4}/{all:<4} {:>7.1}%   ({:.0} s)",
        100.0 * solved as f64 / all.max(1) as f64,
        clock.elapsed().as_secs_f64()
    );
    println!(
        "lost: for wins, the engine's move lets the opponent win by force within N plies \
         (re-proven); for defences every miss is a forced loss within N-1."
    );
    Ok(())
}

/// The forcing search alone on the suite (see the module doc).
fn forcing(args: &[String]) -> Result<(), String> {
    use tabuleiro::games::fabrik::forcing::Forcing;
    let budget: u64 = arg(args, "--nodes").unwrap_or(20_000);
    let file: String = arg(args, "--file").unwrap_or_else(|| DATA.to_string());
    let text = std::fs::read_to_string(&file).map_err(|e| format!("{file}: {e}"))?;
    let suite = read_suite(&text)?;
    // `--lines`: line fours only, as the first forcing search; `--wins`: the win
    // records only (the defences replay every legal move); `--no-table`: every node
    // searched. A record starts with an empty table (its positions do not help the next).
    let no_table = args.iter().any(|a| a == "--no-table");
    let make = || {
        let search = if args.iter().any(|a| a == "--lines") {
            Forcing::lines_only()
        } else if args.iter().any(|a| a == "--by-playing") {
            Forcing::new().playing_every_move()
        } else {
            Forcing::new()
        };
        if no_table {
            search.without_table()
        } else {
            search
        }
    };
    if args.iter().any(|a| a == "--generators") {
        return generators(&suite);
    }
    let wins_only = args.iter().any(|a| a == "--wins");
    let mut max_time = 0.0f64;
    let (mut wins, mut proven, mut in_set, mut win_nodes) = (0, 0, 0, 0u64);
    let mut win_time = 0.0;
    let (mut defends, mut losing, mut spotted, mut holding) = (0, 0, 0, 0);
    let (mut all_nodes, mut all_time, mut all_attacks) = (0u64, 0.0, 0u64);
    for (index, entry) in suite.iter().enumerate() {
        let config = Config {
            size: entry.size,
            line_length: entry.line_length,
        };
        let pos = Fabrik::from_fen(&config, &entry.fen).map_err(|e| e.to_string())?;
        let in_moves = |mv: Move| entry.moves.iter().any(|m| *m == pos.format_move(mv));
        let mut search = make();
        if entry.kind == "win" {
            wins += 1;
            let clock = Instant::now();
            let found = search.win(&pos, 15, budget);
            let spent = clock.elapsed().as_secs_f64();
            win_time += spent;
            max_time = max_time.max(spent);
            win_nodes += search.nodes();
            all_time += spent;
            all_nodes += search.nodes();
            all_attacks += search.attacker_nodes();
            if let Some((plies, mv)) = found {
                proven += 1;
                if plies < entry.n {
                    return Err(format!("{index}: a win in {plies} < {}", entry.n));
                }
                // A longer forcing line may start with a move that wins only slower.
                if in_moves(mv) {
                    in_set += 1;
                }
            }
            continue;
        }
        if wins_only {
            continue;
        }
        defends += 1;
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        for mv in moves {
            let mut child = pos;
            child.play(mv);
            if child.outcome().is_some() {
                continue;
            }
            let clock = Instant::now();
            let found = search.win(&child, 15, budget);
            all_time += clock.elapsed().as_secs_f64();
            all_nodes += search.nodes();
            all_attacks += search.attacker_nodes();
            let holds = in_moves(mv);
            if holds {
                holding += 1;
                if let Some((plies, _)) = found
                    && plies + 1 < entry.n
                {
                    return Err(format!(
                        "{index}: {} holds, yet lost in {plies}",
                        pos.format_move(mv)
                    ));
                }
            } else {
                losing += 1;
                spotted += usize::from(found.is_some());
            }
        }
    }
    println!(
        "wins: {proven}/{wins} proven, {in_set} with a first move of the set; {:.0} nodes and {:.2} ms a position (slowest {:.1} ms)",
        win_nodes as f64 / wins.max(1) as f64,
        1000.0 * win_time / wins.max(1) as f64,
        1000.0 * max_time
    );
    println!(
        "defences: {defends} positions, {spotted}/{losing} losing moves proven lost, {holding} holding moves never proven lost"
    );
    println!(
        "all: {all_nodes} nodes ({all_attacks} attacker nodes that generate threats) in {:.2} s, {:.2} µs a node, {:.1} µs an attacker node",
        all_time,
        1e6 * all_time / all_nodes.max(1) as f64,
        1e6 * all_time / all_attacks.max(1) as f64
    );
    Ok(())
}

/// `forcing --generators`: the walling-in threat generator and the answers to a
/// threat, each against its play-every-move oracle, timed on the suite's positions
/// and every position one move after them (the outputs are compared too).
fn generators(suite: &[Entry]) -> Result<(), String> {
    let mut roots = Vec::new();
    for entry in suite {
        let config = Config {
            size: entry.size,
            line_length: entry.line_length,
        };
        roots.push(Fabrik::from_fen(&config, &entry.fen).map_err(|e| e.to_string())?);
    }
    println!("the suite's positions and their children:");
    generators_on(&roots)?;
    // The pinned middle games of `examples/fabrik_depth` (11×11, lines of 5).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/data/fabrik_middlegames.txt"
    );
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let config = Config {
        size: 11,
        line_length: 5,
    };
    let mut roots = Vec::new();
    for fen in text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        roots.push(Fabrik::from_fen(&config, fen).map_err(|e| e.to_string())?);
    }
    println!("the pinned middle games and their children:");
    generators_on(&roots)
}

/// [`generators`] on `roots` and every position one move after them.
fn generators_on(roots: &[Fabrik]) -> Result<(), String> {
    use tabuleiro::games::fabrik::threats::{
        any_answers, any_answers_by_playing, wall_threat_moves, wall_threat_moves_by_playing,
        win_now,
    };
    let mut positions = Vec::new();
    for &pos in roots {
        let mut moves = Vec::new();
        pos.generate_moves(&mut moves);
        positions.push(pos);
        for mv in moves {
            let mut child = pos;
            child.play(mv);
            if child.outcome().is_none() {
                positions.push(child);
            }
        }
    }
    let answerable: Vec<Fabrik> = positions
        .iter()
        .copied()
        .filter(|p| win_now(p).is_none())
        .collect();
    let time = |name: &str, run: &mut dyn FnMut() -> usize, count: usize| {
        let clock = Instant::now();
        let found = run();
        let spent = clock.elapsed().as_secs_f64();
        println!(
            "{name}: {count} positions, {found} found, {:.2} µs a position",
            1e6 * spent / count.max(1) as f64
        );
        found
    };
    let mut out = Vec::new();
    let fast = time(
        "wall_threat_moves",
        &mut || {
            positions
                .iter()
                .map(|p| {
                    out.clear();
                    wall_threat_moves(p, &mut out);
                    out.len()
                })
                .sum()
        },
        positions.len(),
    );
    let slow = time(
        "wall_threat_moves_by_playing",
        &mut || {
            positions
                .iter()
                .map(|p| {
                    out.clear();
                    wall_threat_moves_by_playing(p, &mut out);
                    out.len()
                })
                .sum()
        },
        positions.len(),
    );
    let mut answers = Vec::new();
    let fast_answers = time(
        "any_answers (cap 24)",
        &mut || {
            answerable
                .iter()
                .map(|p| {
                    answers.clear();
                    usize::from(any_answers(p, &mut answers, 24))
                })
                .sum()
        },
        answerable.len(),
    );
    let slow_answers = time(
        "any_answers_by_playing (cap 24)",
        &mut || {
            answerable
                .iter()
                .map(|p| {
                    answers.clear();
                    usize::from(any_answers_by_playing(p, &mut answers, 24))
                })
                .sum()
        },
        answerable.len(),
    );
    if fast != slow || fast_answers != slow_answers {
        return Err("a generator disagrees with its oracle".to_string());
    }
    Ok(())
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("generate") {
        generate(&args);
        return;
    }
    if args.first().map(String::as_str) == Some("forcing") {
        if let Err(why) = forcing(&args) {
            eprintln!("fabrik_tactics: {why}");
            std::process::exit(1);
        }
        return;
    }
    if let Err(why) = score(&args) {
        eprintln!("fabrik_tactics: {why}");
        std::process::exit(1);
    }
}
