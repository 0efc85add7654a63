//! Proofs split into jobs, for many machines (`tabuleiro solve`, docs/solved.md):
//! - **split**: the distinct positions `ply` plies from the start, up to the board's
//!   symmetries ([`crate::game::symmetry::canonical_key`]) and with games already over
//!   left out, as a job list: a header, then one FEN a line;
//! - **shard** `K/N`: solves the jobs `K, K + N, K + 2N, …` of a list (so every shard
//!   gets early and late ones alike, and shard 1 of N is an even sample of the whole)
//!   with the game's exact solver ([`adapter`]), one result line each;
//! - **merge**: the result files of every shard into a book ([`crate::book::game`]),
//!   checked complete and consistent, and the root's value computed from the book
//!   alone by minimax over the first `ply` plies, which must equal a direct solve.
//!
//! The plies count from the start, or from the position given with `--fen` (the
//! root, written on each file's second line).
//!
//! The text forms (a ` | ` between fields, as a FEN holds spaces):
//!
//! ```text
//! tabuleiro-jobs game talpa options Size=4 ply 2 count 5
//! root FEN
//! FEN
//! tabuleiro-results game talpa options Size=4 ply 2 jobs 5 shard 1/2
//! root FEN
//! FEN | win 9 | c3 | 1234 nodes | 0.010 s
//! ```
//!
//! A job not solved within `--seconds` gets `unsolved` and no best move; a merge
//! refuses results with one. A shard writes each line as it is found; run again with
//! the same `--out`, it keeps the jobs solved there and solves the rest.

pub mod adapter;

use std::collections::{BTreeMap, HashSet};
use std::io::Write as _;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::book::game::{GameBook, key_of};
use crate::game::symmetry::canonical_key;
use crate::game::{Game, Value};
use adapter::{Exact, ExactVisitor, SolverOf};

/// The first word of a job list.
pub const JOBS_MAGIC: &str = "tabuleiro-jobs";
/// The first word of a results file.
pub const RESULTS_MAGIC: &str = "tabuleiro-results";

/// What `tabuleiro solve` is asked to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Mode {
    /// Solve the root and print its result line.
    Direct,
    /// Write the job list of the positions this many plies from the root.
    Split(u32),
    /// Solve shard `k` of `n` of a job list.
    Shard {
        jobs: PathBuf,
        k: usize,
        n: usize,
        /// Give up on a job after this long (`unsolved`).
        seconds: Option<f64>,
    },
    /// Merge result files into a book.
    Merge(Vec<PathBuf>),
}

/// The arguments of `tabuleiro solve`, read by the command line (`cli/solve.rs`).
#[derive(Clone, Debug, PartialEq)]
pub struct SolveArgs {
    pub game: &'static str,
    pub options: Vec<(String, String)>,
    /// The position to solve or split from (the start when `None`).
    pub fen: Option<String>,
    pub mode: Mode,
    /// Where the job list, results or book go (stdout when `None`).
    pub out: Option<PathBuf>,
    /// The solver's table: 2^`table` entries.
    pub table: u32,
    /// A book the solver consults (direct and shard modes).
    pub book: Option<PathBuf>,
}

/// The header of a job list or results file: game, options (canonical text), ply,
/// and the position the plies count from (its second line, `root FEN`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Header {
    pub game: String,
    pub options: String,
    pub ply: u32,
    pub root: String,
}

/// A job list: its header and one FEN a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Jobs {
    pub header: Header,
    pub fens: Vec<String>,
}

/// One solved (or not) job.
#[derive(Clone, Debug, PartialEq)]
pub struct JobResult {
    pub fen: String,
    /// `None`: not solved within the time given.
    pub value: Option<Value>,
    pub best: Option<String>,
    pub nodes: u64,
    pub seconds: f64,
}

/// A shard's results: its header, the size of the job list, the shard, the results.
#[derive(Clone, Debug, PartialEq)]
pub struct Results {
    pub header: Header,
    pub jobs: usize,
    pub shard: (usize, usize),
    pub results: Vec<JobResult>,
}

/// Reads `key value` pairs of a header line after its magic word, in this order.
fn header_fields<'a>(line: &'a str, magic: &str, names: &[&str]) -> Result<Vec<&'a str>, String> {
    let words: Vec<&str> = line.split_whitespace().collect();
    let shape = || {
        let fields: String = names.iter().map(|n| format!(" {n} V")).collect();
        format!("expected a header `{magic}{fields}`, not `{line}`")
    };
    if words.len() != 1 + 2 * names.len() || words[0] != magic {
        return Err(shape());
    }
    names
        .iter()
        .enumerate()
        .map(|(i, name)| {
            if words[1 + 2 * i] == *name {
                Ok(words[2 + 2 * i])
            } else {
                Err(shape())
            }
        })
        .collect()
}

fn number<T: std::str::FromStr>(name: &str, text: &str) -> Result<T, String> {
    text.parse()
        .map_err(|_| format!("{name} `{text}` is not a whole number"))
}

impl Header {
    fn words(&self) -> String {
        format!(
            "game {} options {} ply {}",
            self.game, self.options, self.ply
        )
    }

    /// Reads the `root FEN` line.
    fn root(line: Option<&str>) -> Result<String, String> {
        line.and_then(|l| l.strip_prefix("root "))
            .map(str::to_string)
            .ok_or_else(|| "no second line `root FEN`".to_string())
    }
}

impl Jobs {
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "{JOBS_MAGIC} {} count {}\nroot {}\n",
            self.header.words(),
            self.fens.len(),
            self.header.root
        );
        for fen in &self.fens {
            out.push_str(fen);
            out.push('\n');
        }
        out
    }

    pub fn parse(text: &str) -> Result<Jobs, String> {
        let mut lines = text.lines();
        let first = lines.next().ok_or("an empty job list")?;
        let f = header_fields(first, JOBS_MAGIC, &["game", "options", "ply", "count"])?;
        let header = Header {
            game: f[0].to_string(),
            options: f[1].to_string(),
            ply: number("ply", f[2])?,
            root: Header::root(lines.next())?,
        };
        let count: usize = number("count", f[3])?;
        let fens: Vec<String> = lines.map(str::to_string).collect();
        if fens.len() != count || fens.iter().any(|f| f.trim().is_empty()) {
            return Err(format!(
                "the header says {count} jobs; the list has {} lines",
                fens.len()
            ));
        }
        Ok(Jobs { header, fens })
    }

    /// The indices of shard `k` of `n` (1-based `k`): `k - 1`, `k - 1 + n`, …
    pub fn shard(&self, k: usize, n: usize) -> impl Iterator<Item = usize> + use<> {
        (k.saturating_sub(1)..self.fens.len()).step_by(n.max(1))
    }
}

/// A value as a result line writes it: `win 9`, `loss 12`, `draw 0`.
pub fn value_text(value: Value) -> String {
    format!("{} {}", value.word(), value.plies())
}

fn parse_value(text: &str) -> Result<Option<Value>, String> {
    if text == "unsolved" {
        return Ok(None);
    }
    let (word, plies) = text
        .split_once(' ')
        .ok_or_else(|| format!("no value `{text}`"))?;
    let plies: u32 = number("plies", plies)?;
    match word {
        "win" => Ok(Some(Value::Win(plies))),
        "loss" => Ok(Some(Value::Loss(plies))),
        "draw" => Ok(Some(Value::Draw(plies))),
        _ => Err(format!("no value `{text}`")),
    }
}

impl JobResult {
    pub fn line(&self) -> String {
        format!(
            "{} | {} | {} | {} nodes | {:.3} s",
            self.fen,
            self.value.map_or("unsolved".to_string(), value_text),
            self.best.as_deref().unwrap_or("-"),
            self.nodes,
            self.seconds
        )
    }

    pub fn parse(line: &str) -> Result<JobResult, String> {
        let fields: Vec<&str> = line.split(" | ").collect();
        let [fen, value, best, nodes, seconds] = fields[..] else {
            return Err(format!(
                "not `FEN | value | best | N nodes | S s`: `{line}`"
            ));
        };
        let nodes = nodes
            .strip_suffix(" nodes")
            .ok_or_else(|| format!("no `N nodes` in `{line}`"))?;
        let seconds = seconds
            .strip_suffix(" s")
            .and_then(|s| s.parse::<f64>().ok())
            .ok_or_else(|| format!("no `S s` in `{line}`"))?;
        Ok(JobResult {
            fen: fen.to_string(),
            value: parse_value(value)?,
            best: (best != "-").then(|| best.to_string()),
            nodes: number("nodes", nodes)?,
            seconds,
        })
    }
}

impl Results {
    /// The first two lines.
    pub fn header_lines(&self) -> String {
        format!(
            "{RESULTS_MAGIC} {} jobs {} shard {}/{}\nroot {}",
            self.header.words(),
            self.jobs,
            self.shard.0,
            self.shard.1,
            self.header.root
        )
    }

    pub fn parse(text: &str) -> Result<Results, String> {
        let mut lines = text.lines();
        let first = lines.next().ok_or("an empty results file")?;
        let names = ["game", "options", "ply", "jobs", "shard"];
        let f = header_fields(first, RESULTS_MAGIC, &names)?;
        let (k, n) = parse_shard(f[4])?;
        Ok(Results {
            header: Header {
                game: f[0].to_string(),
                options: f[1].to_string(),
                ply: number("ply", f[2])?,
                root: Header::root(lines.next())?,
            },
            jobs: number("jobs", f[3])?,
            shard: (k, n),
            results: lines.map(JobResult::parse).collect::<Result<_, _>>()?,
        })
    }
}

/// Reads `K/N` with `1 <= K <= N`.
pub fn parse_shard(text: &str) -> Result<(usize, usize), String> {
    let bad = || format!("shard '{text}' is not K/N with 1 <= K <= N");
    let (k, n) = text.split_once('/').ok_or_else(bad)?;
    let (k, n): (usize, usize) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
    if k == 0 || k > n {
        return Err(bad());
    }
    Ok((k, n))
}

/// The canonical text of a game's options ([`crate::book::game::options_text`]).
pub fn options_text<G: Game>(pairs: &[(String, String)]) -> Result<String, String> {
    let params = crate::options::params_from_pairs::<G>(pairs)?;
    Ok(crate::book::game::options_text(&params))
}

/// The distinct positions `ply` plies from `start`, up to symmetry, with games over
/// left out; each the first image reached (breadth first, moves in the game's order).
/// Also the number of moves from the previous ply's distinct positions (the list
/// before images and transpositions of the last ply are merged).
pub fn split<G: Game>(start: &G, ply: u32) -> (Vec<G>, u64) {
    let mut level = vec![start.clone()];
    let mut paths: u64 = 1;
    let mut moves = Vec::new();
    for _ in 0..ply {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        paths = 0;
        for state in &level {
            if state.outcome().is_some() {
                continue;
            }
            moves.clear();
            state.generate_moves(&mut moves);
            for &mv in &moves {
                let mut child = state.clone();
                child.play(mv);
                paths += 1;
                if seen.insert(canonical_key(&child)) {
                    next.push(child);
                }
            }
        }
        level = next;
    }
    level.retain(|s| s.outcome().is_none());
    (level, paths)
}

/// Solves one position with `solver`, timed, as a result line.
pub fn solve_one<G: Exact>(solver: &mut SolverOf<G>, state: &G, seconds: Option<f64>) -> JobResult {
    let started = Instant::now();
    let deadline = seconds.map(|s| started + Duration::from_secs_f64(s.max(0.0)));
    let solved = adapter::solve(solver, state, deadline);
    JobResult {
        fen: state.fen(),
        value: solved.value,
        best: solved.best.map(|m| state.format_move(m)),
        nodes: solved.nodes,
        seconds: started.elapsed().as_secs_f64(),
    }
}

/// The value of `state`, of ply count `depth`, from the book of ply `ply` alone (minimax down to it; `memo` by canonical key); `None` when a position the
/// minimax needs is missing.
fn value_from_book<G: Game>(
    state: &G,
    depth: u32,
    book: &GameBook,
    memo: &mut BTreeMap<String, Option<Value>>,
) -> Option<Value> {
    if let Some(outcome) = state.outcome() {
        return Some(Value::of_outcome(outcome, state.side_to_move()));
    }
    if depth == book.ply {
        return book.value_of(state);
    }
    let key = canonical_key(state);
    if let Some(&known) = memo.get(&key) {
        return known;
    }
    let mut moves = Vec::new();
    state.generate_moves(&mut moves);
    let mut best: Option<Value> = None;
    let mut complete = true;
    for mv in moves {
        let mut child = state.clone();
        child.play(mv);
        match value_from_book(&child, depth + 1, book, memo) {
            Some(v) => {
                let v = v.parent();
                if best.is_none_or(|b| v.score() > b.score()) {
                    best = Some(v);
                }
            }
            None => complete = false,
        }
    }
    let value = if complete { best } else { None };
    memo.insert(key, value);
    value
}

/// The value of `root` from `book` (see [`value_from_book`]; the plies count from the
/// root's ply count, as the book's do).
pub fn root_value<G: Game>(root: &G, book: &GameBook) -> Option<Value> {
    value_from_book(root, root.plies(), book, &mut BTreeMap::new())
}

/// Merges result files (read) of one job list into a book: the same header and list
/// size everywhere, every job solved once (the same value if twice), every one of the
/// list's positions present. The book's ply is its positions' ply count: the list's
/// plies after the root's.
pub fn merge<G: Game>(config: &G::Config, files: &[Results]) -> Result<GameBook, String> {
    let first = files.first().ok_or("no results to merge")?;
    let root = &first.header.root;
    let root = G::from_fen(config, root).map_err(|e| format!("root {root}: {e}"))?;
    let mut values: BTreeMap<u128, (Value, String)> = BTreeMap::new();
    for file in files {
        if file.header != first.header || file.jobs != first.jobs {
            return Err(format!(
                "results of different job lists: `{}` and `{}`",
                first.header_lines(),
                file.header_lines()
            ));
        }
        for result in &file.results {
            let Some(value) = result.value else {
                return Err(format!("a job was not solved: {}", result.fen));
            };
            let state =
                G::from_fen(config, &result.fen).map_err(|e| format!("{}: {e}", result.fen))?;
            if let Some((old, fen)) = values.insert(key_of(&state), (value, result.fen.clone()))
                && old != value
            {
                return Err(format!(
                    "two values for one position: {fen} {} and {} {}",
                    value_text(old),
                    result.fen,
                    value_text(value)
                ));
            }
        }
    }
    if values.len() != first.jobs {
        return Err(format!(
            "results for {} of the {} jobs: a shard is missing or incomplete",
            values.len(),
            first.jobs
        ));
    }
    GameBook::new(
        &first.header.game,
        &first.header.options,
        root.plies() + first.header.ply,
        values.into_iter().map(|(key, (value, _))| (key, value)),
    )
}

/// Writes `text` to `out`, or stdout.
fn emit(out: &Option<PathBuf>, text: &str) -> Result<(), String> {
    match out {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display())),
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout
                .write_all(text.as_bytes())
                .and_then(|()| stdout.flush())
                .map_err(|e| format!("stdout: {e}"))
        }
    }
}

/// Where a shard's lines go as they are found (a file rewritten from the start, or
/// stdout), each flushed: a shard stopped keeps what it solved.
struct Sink {
    out: Box<dyn std::io::Write>,
    name: String,
}

impl Sink {
    fn open(out: &Option<PathBuf>) -> Result<Sink, String> {
        Ok(match out {
            Some(path) => Sink {
                out: Box::new(
                    std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
                ),
                name: path.display().to_string(),
            },
            None => Sink {
                out: Box::new(std::io::stdout()),
                name: "stdout".to_string(),
            },
        })
    }

    fn line(&mut self, line: &str) -> Result<(), String> {
        writeln!(self.out, "{line}")
            .and_then(|()| self.out.flush())
            .map_err(|e| format!("{}: {e}", self.name))
    }
}

fn read(path: &PathBuf) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))
}

/// Runs `tabuleiro solve`; progress and summaries go to stderr.
pub fn run(args: SolveArgs) -> Result<(), String> {
    adapter::visit(args.game, Run(args))?
}

struct Run(SolveArgs);

impl ExactVisitor for Run {
    type Output = Result<(), String>;
    fn visit<G: Exact>(self) -> Result<(), String> {
        let args = self.0;
        let config = crate::options::config_from_pairs::<G>(&args.options)?;
        let root = match &args.fen {
            Some(fen) => G::from_fen(&config, fen).map_err(|e| format!("{fen}: {e}"))?,
            None => G::start(&config),
        };
        let header = Header {
            game: G::NAME.to_string(),
            options: options_text::<G>(&args.options)?,
            ply: 0,
            root: root.fen(),
        };
        let check = |other: &Header| {
            if other.game == header.game && other.options == header.options {
                Ok(())
            } else {
                Err(format!(
                    "the file is for {} {}, not {} {}",
                    other.game, other.options, header.game, header.options
                ))
            }
        };
        // The solver, consulting the book if one is given (refused for other options).
        let solver = || -> Result<SolverOf<G>, String> {
            let mut solver = G::solver(&config, args.table)?;
            if let Some(path) = &args.book {
                let book = GameBook::load(path)?;
                solver
                    .set_book(Some(Arc::new(book)), &G::book_options(&config))
                    .map_err(|why| format!("{}: {why}", path.display()))?;
            }
            Ok(solver)
        };
        let report = |solver: &SolverOf<G>| {
            if let Some(book) = solver.book() {
                eprintln!(
                    "book of {} {} ply {} ({} positions): {} hits, {} misses",
                    book.book().game,
                    book.book().options,
                    book.ply(),
                    book.book().len(),
                    book.hits,
                    book.misses
                );
            }
        };
        if args.book.is_some() && matches!(args.mode, Mode::Split(_) | Mode::Merge(_)) {
            return Err("--book is for a direct solve or a shard".to_string());
        }
        match args.mode {
            Mode::Direct => {
                let mut solver = solver()?;
                let result = solve_one(&mut solver, &root, None);
                report(&solver);
                emit(&args.out, &format!("{}\n", result.line()))
            }
            Mode::Split(ply) => {
                let (positions, paths) = split(&root, ply);
                let jobs = Jobs {
                    header: Header { ply, ..header },
                    fens: positions.iter().map(Game::fen).collect(),
                };
                eprintln!(
                    "{} {} ply {ply}: {} jobs ({paths} before merging images and transpositions)",
                    jobs.header.game,
                    jobs.header.options,
                    jobs.fens.len()
                );
                emit(&args.out, &jobs.to_text())
            }
            Mode::Shard {
                jobs,
                k,
                n,
                seconds,
            } => {
                let list = Jobs::parse(&read(&jobs)?)
                    .map_err(|why| format!("{}: {why}", jobs.display()))?;
                check(&list.header)?;
                let mut results = Results {
                    header: list.header.clone(),
                    jobs: list.fens.len(),
                    shard: (k, n),
                    results: Vec::new(),
                };
                // A results file of this shard from an earlier run: its solved jobs
                // are kept and skipped (a stopped shard resumes).
                let earlier: Vec<JobResult> = match &args.out {
                    Some(path) if path.exists() => {
                        let old = Results::parse(&read(path)?)
                            .map_err(|why| format!("{}: {why}", path.display()))?;
                        if old.header != results.header
                            || old.jobs != results.jobs
                            || old.shard != results.shard
                        {
                            return Err(format!(
                                "{} holds results of another job list or shard",
                                path.display()
                            ));
                        }
                        old.results
                            .into_iter()
                            .filter(|r| r.value.is_some())
                            .collect()
                    }
                    _ => Vec::new(),
                };
                let done: HashSet<&str> = earlier.iter().map(|r| r.fen.as_str()).collect();
                let mut sink = Sink::open(&args.out)?;
                sink.line(&results.header_lines())?;
                for result in &earlier {
                    sink.line(&result.line())?;
                }
                if !earlier.is_empty() {
                    eprintln!("shard {k}/{n}: {} jobs solved before", earlier.len());
                }
                let mut solver = solver()?;
                let started = Instant::now();
                for index in list.shard(k, n) {
                    let fen = &list.fens[index];
                    if done.contains(fen.as_str()) {
                        continue;
                    }
                    let state = G::from_fen(&config, fen)
                        .map_err(|e| format!("{}: job {}: {e}", jobs.display(), index + 1))?;
                    let result = solve_one(&mut solver, &state, seconds);
                    sink.line(&result.line())?;
                    results.results.push(result);
                }
                let solved = results.results.iter().filter(|r| r.value.is_some()).count();
                let nodes: u64 = results.results.iter().map(|r| r.nodes).sum();
                let each = started.elapsed().as_secs_f64() / results.results.len().max(1) as f64;
                eprintln!(
                    "shard {k}/{n}: {solved} of {} jobs solved, {nodes} nodes, {:.3} s a job",
                    results.results.len(),
                    each
                );
                report(&solver);
                Ok(())
            }
            Mode::Merge(files) => {
                let read_all: Vec<Results> = files
                    .iter()
                    .map(|path| {
                        Results::parse(&read(path)?)
                            .map_err(|why| format!("{}: {why}", path.display()))
                    })
                    .collect::<Result<_, _>>()?;
                for file in &read_all {
                    check(&file.header)?;
                }
                let book = merge::<G>(&config, &read_all)?;
                let fen = &read_all[0].header.root;
                let root = G::from_fen(&config, fen).map_err(|e| format!("root {fen}: {e}"))?;
                let value = root_value(&root, &book);
                eprintln!(
                    "book of {} {} ply {}: {} positions; the root from the book: {}",
                    book.game,
                    book.options,
                    book.ply,
                    book.len(),
                    value.map_or("unknown".to_string(), value_text)
                );
                emit(&args.out, &book.to_text())
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::talpa::Talpa;

    #[test]
    fn texts_read_back() {
        let jobs = Jobs {
            header: Header {
                game: "talpa".to_string(),
                options: "Size=4".to_string(),
                ply: 1,
                root: "r b 0".to_string(),
            },
            fens: vec!["a b 0".to_string(), "c d 1".to_string(), "e".to_string()],
        };
        assert_eq!(Jobs::parse(&jobs.to_text()), Ok(jobs.clone()));
        assert!(Jobs::parse(&jobs.to_text().replace("count 3", "count 4")).is_err());
        assert_eq!(jobs.shard(1, 2).collect::<Vec<_>>(), [0, 2]);
        assert_eq!(jobs.shard(2, 2).collect::<Vec<_>>(), [1]);
        let result = JobResult {
            fen: "rb/br r 0".to_string(),
            value: Some(Value::Loss(7)),
            best: Some("a1".to_string()),
            nodes: 12,
            seconds: 0.5,
        };
        assert_eq!(
            result.line(),
            "rb/br r 0 | loss 7 | a1 | 12 nodes | 0.500 s"
        );
        assert_eq!(JobResult::parse(&result.line()), Ok(result));
        let unsolved = "x y | unsolved | - | 0 nodes | 2.000 s";
        assert_eq!(JobResult::parse(unsolved).map(|r| r.value), Ok(None));
        assert!(JobResult::parse("x | win | - | 0 nodes | 1 s").is_err());
        assert!(JobResult::parse("x | win 3 | -").is_err());
        assert_eq!(parse_shard("2/3"), Ok((2, 3)));
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(parse_shard(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_split_counts_positions_up_to_symmetry() {
        let pairs = [("Size".to_string(), "4".to_string())];
        let config = crate::options::config_from_pairs::<Talpa>(&pairs).expect("4x4");
        assert_eq!(options_text::<Talpa>(&pairs).as_deref(), Ok("Size=4"));
        let start = Talpa::start(&config);
        let (one, paths) = split(&start, 1);
        let mut moves = Vec::new();
        start.generate_moves(&mut moves);
        assert_eq!(paths, moves.len() as u64);
        // Fewer distinct positions than moves: the four symmetries of the board.
        assert!(!one.is_empty() && one.len() < moves.len(), "{}", one.len());
        let keys: HashSet<String> = one.iter().map(canonical_key).collect();
        assert_eq!(keys.len(), one.len());
        assert_eq!(split(&start, 0).0.len(), 1);
    }
}
