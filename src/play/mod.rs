//! `tabuleiro play`: play any game in the terminal, against the engine or a friend,
//! or watch the engine play itself.
//!
//! - [`parse_args`] reads the command line into [`PlayArgs`]; [`run`] starts the game
//!   chosen at run time through [`crate::games::visit`], so every game plays here
//!   without any code of its own.
//! - The loop draws the board after every move ([`board`], from the game's FEN, with
//!   the glyphs of [`look`]), reads moves in the protocol notation and the commands
//!   `moves`, `undo`, `hint`, `board`, `fen`, `new`, `help` and `quit`, and lets the
//!   in-process [`Searcher`] move for the engine sides (at `--level`, for
//!   `--movetime` ms).
//! - Nothing typed at the prompt can end or spoil the game by mistake: every bad line
//!   gets a message and the prompt again. The end of input (Ctrl-D) ends cleanly.

pub mod board;
pub mod look;

use std::io::{BufRead, IsTerminal, Write};
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use crate::game::{Game, MoveError, Outcome, Player, Record, read_square};
use crate::games::{self, GameVisitor};
use crate::options;
use crate::search::{Level, Score, SearchLimits, Searcher, time::Budget};
use board::Style;
use look::Look;

/// Who plays a side.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    Human,
    Engine,
}

/// The `play` command line.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PlayArgs {
    pub game: String,
    /// `--option Name=Value`, in the order given.
    pub options: Vec<(String, String)>,
    pub players: [Kind; 2],
    pub level: Level,
    pub movetime_ms: u64,
    /// Seeds the engine's random choices below level 10 (repeatable games).
    pub seed: Option<u64>,
    /// `--ascii` / `--unicode`; `None`: Unicode when the locale says UTF-8.
    pub unicode: Option<bool>,
    /// `--color always|never`; `None`: colour when stdout is a terminal and
    /// `NO_COLOR` is unset.
    pub colour: Option<bool>,
    pub help: bool,
}

/// The engine's time per move unless `--movetime` says otherwise, ms.
pub const DEFAULT_MOVETIME_MS: u64 = 1_000;
const MAX_MOVETIME_MS: u64 = 3_600_000;
/// Transposition table of the play engine, MiB.
const HASH_MIB: usize = 32;
/// Longest input line taken as a command.
const MAX_LINE: usize = 1_000;
/// Most moves `moves` lists before asking for a prefix.
const MAX_LISTED: usize = 200;

pub fn usage() -> String {
    format!(
        "Usage: tabuleiro play [--game NAME] [--option Name=Value ...]
                      [--p1 human|engine] [--p2 human|engine]
                      [--level N] [--movetime MS] [--seed N]
                      [--ascii | --unicode] [--color auto|always|never]

Play a game in the terminal. By default you are p1 against the engine.
  --game NAME         {names} (default {default})
  --option Name=Value a game option, e.g. --option Rows=5 (see 'tabuleiro' UGI options)
  --p1, --p2          who plays each side: human or engine
  --level N           the engine's strength, 1 (random) to 10 (full, the default)
  --movetime MS       the engine's time per move (default {movetime})
  --seed N            repeatable engine choices below level 10
  --ascii, --unicode  draw pieces as FEN letters or as Unicode glyphs
  --color WHEN        ANSI colour: auto (a terminal without NO_COLOR), always, never
At the prompt: a move in the protocol notation, or moves, hint, undo, board, fen,
new, help, quit. Ctrl-D also quits.",
        names = games::NAMES.join(", "),
        default = games::DEFAULT,
        movetime = DEFAULT_MOVETIME_MS,
    )
}

fn kind(text: &str) -> Result<Kind, String> {
    match text.to_ascii_lowercase().as_str() {
        "human" | "h" => Ok(Kind::Human),
        "engine" | "e" | "computer" | "cpu" => Ok(Kind::Engine),
        _ => Err(format!("'{text}' is not human or engine")),
    }
}

/// Reads the arguments after `play`; `game` is the game chosen before them.
pub fn parse_args(args: &[String], game: &str) -> Result<PlayArgs, String> {
    let mut play = PlayArgs {
        game: game.to_string(),
        options: Vec::new(),
        players: [Kind::Human, Kind::Engine],
        level: Level::FULL,
        movetime_ms: DEFAULT_MOVETIME_MS,
        seed: None,
        unicode: None,
        colour: None,
        help: false,
    };
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        let mut value = |what: &str| {
            rest.next()
                .map(String::as_str)
                .ok_or_else(|| format!("{arg} needs {what}"))
        };
        match arg.as_str() {
            "-h" | "--help" | "help" => play.help = true,
            "--game" => {
                let name = value("a game name")?;
                play.game = games::canonical(name)
                    .ok_or_else(|| {
                        format!(
                            "unknown game '{name}' (the games are: {})",
                            games::NAMES.join(", ")
                        )
                    })?
                    .to_string();
            }
            "--option" => {
                let text = value("Name=Value")?;
                let (name, val) = text
                    .split_once('=')
                    .ok_or_else(|| format!("--option '{text}' is not Name=Value"))?;
                play.options
                    .push((name.trim().to_string(), val.trim().to_string()));
            }
            "--p1" => play.players[0] = kind(value("human or engine")?)?,
            "--p2" => play.players[1] = kind(value("human or engine")?)?,
            "--level" => {
                let text = value("a level 1..10")?;
                play.level = text
                    .parse::<u8>()
                    .ok()
                    .and_then(Level::new)
                    .ok_or_else(|| format!("level '{text}' is not 1..10"))?;
            }
            "--movetime" => {
                let text = value("milliseconds")?;
                play.movetime_ms = text
                    .parse::<u64>()
                    .ok()
                    .filter(|ms| (1..=MAX_MOVETIME_MS).contains(ms))
                    .ok_or_else(|| format!("movetime '{text}' is not 1..{MAX_MOVETIME_MS} ms"))?;
            }
            "--seed" => {
                let text = value("a number")?;
                play.seed = Some(
                    text.parse()
                        .map_err(|_| format!("seed '{text}' is not a whole number"))?,
                );
            }
            "--ascii" => play.unicode = Some(false),
            "--unicode" => play.unicode = Some(true),
            "--color" | "--colour" => {
                play.colour = match value("auto, always or never")? {
                    "auto" => None,
                    "always" => Some(true),
                    "never" => Some(false),
                    other => return Err(format!("--color '{other}' is not auto, always or never")),
                }
            }
            "--no-color" | "--no-colour" => play.colour = Some(false),
            other => return Err(format!("play: unknown argument '{other}'")),
        }
    }
    Ok(play)
}

/// Whether the locale asks for UTF-8 (the first of LC_ALL, LC_CTYPE, LANG that is set).
fn locale_is_utf8() -> bool {
    ["LC_ALL", "LC_CTYPE", "LANG"]
        .iter()
        .filter_map(|name| std::env::var(name).ok())
        .find(|value| !value.is_empty())
        .is_some_and(|value| {
            let value = value.to_ascii_lowercase();
            value.contains("utf-8") || value.contains("utf8")
        })
}

/// `tabuleiro play …`: plays on the terminal until the game is left.
pub fn run(args: &[String], game: &str) -> Result<(), String> {
    let args = parse_args(args, game)?;
    if args.help {
        println!("{}", usage());
        return Ok(());
    }
    let stdout = std::io::stdout();
    let style = Style {
        colour: args.colour.unwrap_or_else(|| {
            stdout.is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty())
        }),
        unicode: args.unicode.unwrap_or_else(locale_is_utf8),
    };
    let io = Io {
        input: Box::new(std::io::stdin().lock()),
        out: Box::new(stdout),
        echo: !std::io::stdin().is_terminal(),
        terminal: std::io::stdout().is_terminal(),
    };
    let name = args.game.clone();
    games::visit(&name, PlayGame { args, style, io })
        .unwrap_or_else(|| Err(format!("unknown game '{name}'")))
}

/// The terminal: where lines come from and go to.
pub struct Io {
    pub input: Box<dyn BufRead>,
    pub out: Box<dyn Write>,
    /// Repeat each input line after the prompt (when the input is not a terminal, so
    /// that a piped game reads like a session).
    pub echo: bool,
    /// Whether the output is a terminal (the "thinking" note is then erased).
    pub terminal: bool,
}

/// Runs the play loop for the game chosen at run time.
pub struct PlayGame {
    pub args: PlayArgs,
    pub style: Style,
    pub io: Io,
}

impl GameVisitor for PlayGame {
    type Output = Result<(), String>;
    fn visit<G: Game>(self) -> Self::Output {
        let config = options::config_from_pairs::<G>(&self.args.options)?;
        Play::<G>::new(config, self.args, self.style, self.io).run();
        Ok(())
    }
}

/// Who made a move of the record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Made {
    by: Kind,
}

/// What a human's turn led to.
enum Turn {
    /// The position changed (a move, an undo, a new game): draw it.
    Changed,
    Quit,
}

/// One game in the terminal.
struct Play<G: Game> {
    start: G,
    record: Record<G>,
    made: Vec<Made>,
    players: [Kind; 2],
    level: Level,
    movetime: Duration,
    searcher: Searcher<G>,
    look: Look,
    style: Style,
    io: Io,
    /// The text of the last move (for highlighting), if any.
    last_move: Option<(Player, String)>,
}

fn index(player: Player) -> usize {
    player.index()
}

impl<G: Game> Play<G> {
    fn new(config: G::Config, args: PlayArgs, style: Style, io: Io) -> Self {
        let start = G::start(&config);
        let mut searcher = Searcher::new(HASH_MIB);
        if let Some(seed) = args.seed {
            searcher.seed_level(seed);
        }
        Play {
            record: Record::new(start.clone()),
            start,
            made: Vec::new(),
            players: args.players,
            level: args.level,
            movetime: Duration::from_millis(args.movetime_ms),
            searcher,
            look: look::look(G::NAME),
            style,
            io,
            last_move: None,
        }
    }

    fn say(&mut self, text: &str) {
        let _ = writeln!(self.io.out, "{text}");
        let _ = self.io.out.flush();
    }

    fn humans(&self) -> usize {
        self.players.iter().filter(|&&k| k == Kind::Human).count()
    }

    /// `black (p1, you)`, `white (p2, engine)`.
    fn who(&self, player: Player) -> String {
        let i = index(player);
        let role = match (self.players[i], self.humans()) {
            (Kind::Human, 1) => "you".to_string(),
            (Kind::Human, _) => "human".to_string(),
            (Kind::Engine, _) if self.level.is_full() => "engine".to_string(),
            (Kind::Engine, _) => format!("engine level {}", self.level.get()),
        };
        let side = self.look.sides[i];
        let number = format!("p{}", i + 1);
        if side == number {
            format!("{number}, {role}")
        } else {
            format!("{side} ({number}, {role})")
        }
    }

    /// The glyph of a side's own piece, with a space, or nothing.
    fn side_glyph(&self, player: Player) -> String {
        self.look.side_letters[index(player)]
            .map(|letter| format!("{} ", self.style.glyph(&self.look, letter)))
            .unwrap_or_default()
    }

    fn run(mut self) {
        // Built-in tables (the Neutreeko tablebase) build in the background while the
        // board is drawn and the human thinks; `search` waits for them.
        G::prepare_tables();
        self.intro();
        loop {
            self.draw();
            if let Some(outcome) = self.record.outcome() {
                self.announce(outcome);
                if self.humans() == 0 {
                    return;
                }
                self.say("Type 'undo' to take moves back, 'new' for another game, or 'quit'.");
            } else {
                let side = self.record.state().side_to_move();
                if self.players[index(side)] == Kind::Engine {
                    self.engine_move();
                    continue;
                }
            }
            match self.human_turn() {
                Turn::Changed => {}
                Turn::Quit => return,
            }
        }
    }

    fn intro(&mut self) {
        let title = format!(
            "tabuleiro play: {} — {} vs {}",
            G::NAME,
            self.who(Player::P1),
            self.who(Player::P2)
        );
        let title = self.style.bold(&title);
        self.say(&title);
        if self.players.contains(&Kind::Engine) {
            let line = format!("The engine thinks {} ms a move.", self.movetime.as_millis());
            self.say(&line);
        }
        if !self.look.rules.is_empty() {
            let rules = self.look.rules;
            self.say(rules);
        }
        let legend = self.legend();
        if !legend.is_empty() {
            self.say(&legend);
        }
        if self.humans() > 0 {
            self.say("Type a move, or 'help' for the commands ('moves' lists the legal moves).");
        }
    }

    /// `● black   ○ white   ◆ worker`.
    fn legend(&self) -> String {
        self.look
            .pieces
            .iter()
            .map(|piece| {
                format!(
                    "{} {}",
                    self.style.glyph(&self.look, piece.letter),
                    piece.name
                )
            })
            .collect::<Vec<_>>()
            .join("   ")
    }

    /// The board, then a status line: whose move it is and the last move.
    fn draw(&mut self) {
        let state = self.record.state();
        let fen = state.fen();
        let text = match board::cells_of_fen(&fen) {
            Some(cells) => {
                let marked = self
                    .last_move
                    .as_ref()
                    .map(|(_, text)| board::move_cells(&cells, text))
                    .unwrap_or_default();
                board::render(&self.look, &cells, &marked, self.style)
            }
            // Not a board this reader understands: the game's own diagram.
            None => state.diagram(),
        };
        let mut status = Vec::new();
        if self.record.outcome().is_none() {
            let side = state.side_to_move();
            let arrow = if self.style.unicode { "▶" } else { ">>" };
            // Bold around the glyph, whose own colour codes end the bold.
            let to_move = format!(
                "{} {}{}",
                self.style.bold(arrow),
                self.side_glyph(side),
                self.style.bold(&format!("{} to move", self.who(side)))
            );
            status.push(to_move);
        }
        status.push(format!("ply {}", state.plies()));
        if let Some((player, mv)) = &self.last_move {
            status.push(format!(
                "last move {mv} by {}",
                self.look.sides[index(*player)]
            ));
        }
        let status = status.join("   ");
        self.say("");
        self.say(text.trim_end());
        self.say(&status);
    }

    fn announce(&mut self, outcome: Outcome) {
        let text = match outcome {
            Outcome::Win(player) => {
                let mut text = format!(
                    "Game over: {}{} wins",
                    self.side_glyph(player),
                    self.look.side_name(index(player))
                );
                if self.humans() == 1 {
                    text.push_str(match self.players[index(player)] {
                        Kind::Human => ". You win, well played!",
                        Kind::Engine => ". You lose this one.",
                    });
                } else {
                    text.push('.');
                }
                text
            }
            Outcome::Draw if self.record.state().outcome().is_none() => {
                "Game over: draw by threefold repetition.".to_string()
            }
            Outcome::Draw => "Game over: draw.".to_string(),
        };
        let text = self.style.bold(&text);
        self.say(&text);
        self.say(&format!(
            "Result: {outcome}, after {} plies.",
            self.record.moves().len()
        ));
    }

    /// A search from the current position at `level`.
    fn search(&mut self, level: Level) -> crate::search::Outcome<G::Move> {
        let limits = SearchLimits {
            budget: Budget {
                soft: Some(self.movetime),
                hard: Some(self.movetime),
            },
            level,
            ..SearchLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        // A game's built-in tables (the Neutreeko tablebase) decide its best moves; a
        // search that starts before they are built plays without them (b1b4 at ply 0,
        // a lost move). So every engine move and hint waits for them, once: this
        // returns at once for games without tables and after the build.
        G::await_tables(&stop);
        let state = self.record.state().clone();
        let history = self.record.history().to_vec();
        self.searcher
            .search(&state, &history, limits, stop, &mut |_| {})
    }

    /// `score cp 35, depth 9` for the side that searched.
    fn evaluation(&self, outcome: &crate::search::Outcome<G::Move>, player: Player) -> String {
        let side = self.look.sides[index(player)];
        let other = self.look.sides[index(player.other())];
        let score = match (outcome.score, outcome.proven) {
            (Score::Mate(n), _) if n > 0 => format!("score mate {n} ({side} wins in {})", plies(n)),
            (Score::Mate(n), _) => format!("score mate {n} ({other} wins in {})", plies(-n)),
            (Score::Cp(_), Some(crate::game::Value::Draw(_))) => {
                "score cp 0 (a proven draw)".to_string()
            }
            (Score::Cp(cp), _) => format!("score cp {cp} for {side}"),
        };
        format!("{score}, depth {}", outcome.depth)
    }

    fn engine_move(&mut self) {
        let side = self.record.state().side_to_move();
        if self.io.terminal {
            let note = format!("{} is thinking…", self.look.side_name(index(side)));
            let _ = write!(self.io.out, "{note}");
            let _ = self.io.out.flush();
        }
        let started = Instant::now();
        let level = self.level;
        let outcome = self.search(level);
        if self.io.terminal {
            let _ = write!(self.io.out, "\r\x1b[2K");
        }
        let mv = match outcome.best {
            Some(mv) => mv,
            None => match self.record.legal_moves().first() {
                Some(&mv) => mv,
                None => return,
            },
        };
        let text = self.record.state().format_move(mv);
        self.record.play(mv);
        self.made.push(Made { by: Kind::Engine });
        self.last_move = Some((side, text.clone()));
        let line = format!(
            "{}{} plays {}   ({}; {} nodes in {:.1} s)",
            self.side_glyph(side),
            self.look.side_name(index(side)),
            self.style.bold(&text),
            self.evaluation(&outcome, side),
            outcome.nodes,
            started.elapsed().as_secs_f64()
        );
        self.say(&line);
    }

    /// Reads a line, `None` at the end of input.
    fn read_line(&mut self, prompt: &str) -> Option<String> {
        let _ = write!(self.io.out, "{prompt}");
        let _ = self.io.out.flush();
        let mut bytes = Vec::new();
        match self.io.input.read_until(b'\n', &mut bytes) {
            Ok(0) | Err(_) => {
                // Ctrl-D: end the prompt's line so the shell starts on a fresh one.
                self.say("");
                None
            }
            Ok(_) => {
                let line = String::from_utf8_lossy(&bytes).trim().to_string();
                if self.io.echo {
                    self.say(&line);
                }
                Some(line)
            }
        }
    }

    fn prompt(&self) -> String {
        if self.record.outcome().is_some() {
            return "game over> ".to_string();
        }
        let side = self.record.state().side_to_move();
        let name = self.look.sides[index(side)];
        let number = format!("p{}", index(side) + 1);
        if name == number {
            format!("{number}> ")
        } else {
            format!("{name} ({number})> ")
        }
    }

    fn human_turn(&mut self) -> Turn {
        loop {
            let prompt = self.prompt();
            let Some(line) = self.read_line(&prompt) else {
                return Turn::Quit;
            };
            if line.len() > MAX_LINE {
                self.say("That line is far too long; type a move or 'help'.");
                continue;
            }
            let lower = line.to_lowercase();
            let mut words = lower.split_whitespace();
            let Some(first) = words.next() else {
                continue;
            };
            let argument = words.next();
            match first {
                "quit" | "exit" | "q" => return Turn::Quit,
                "help" | "h" | "?" => self.help(),
                "moves" | "m" => self.list_moves(argument.unwrap_or("")),
                "board" | "b" if argument.is_none() => return Turn::Changed,
                "fen" => {
                    let fen = self.record.state().fen();
                    self.say(&fen);
                }
                "hint" => self.hint(),
                "undo" | "u" | "back" => {
                    if self.undo() {
                        return Turn::Changed;
                    }
                }
                "new" | "restart" => {
                    self.record = Record::new(self.start.clone());
                    self.made.clear();
                    self.last_move = None;
                    self.searcher.clear();
                    self.say("A new game.");
                    return Turn::Changed;
                }
                _ => {
                    // A move; `b1 b4` is read as `b1b4`.
                    let text: String = lower.split_whitespace().collect();
                    if self.human_move(&text) {
                        return Turn::Changed;
                    }
                }
            }
        }
    }

    /// Plays a human's move; on a bad one says why and returns false.
    fn human_move(&mut self, text: &str) -> bool {
        let before = self.record.state().clone();
        let side = before.side_to_move();
        match self.record.play_text(text) {
            Ok(mv) => {
                self.made.push(Made { by: Kind::Human });
                // Shown in its canonical spelling.
                self.last_move = Some((side, before.format_move(mv)));
                true
            }
            Err(MoveError::GameOver(_)) => {
                self.say("The game is over: type 'undo' to take moves back, 'new' or 'quit'.");
                false
            }
            Err(MoveError::Illegal(_)) => {
                let near = self.moves_near(text);
                let message = if let Some(why) = self.not_yours(text).filter(|_| near.is_empty()) {
                    format!(
                        "{text} is not legal here: {why}. Type 'moves' to list the legal moves."
                    )
                } else if near.is_empty() {
                    format!("{text} is not legal here. Type 'moves' to list the legal moves.")
                } else {
                    format!(
                        "{text} is not legal here. Legal moves like it: {}",
                        near.join(" ")
                    )
                };
                self.say(&message);
                false
            }
            Err(MoveError::OffBoard { why, .. }) => {
                let mut message = format!("{why}. Type 'moves' to list the legal moves.");
                if let Some(first) = message.get_mut(..1) {
                    first.make_ascii_uppercase();
                }
                self.say(&message);
                false
            }
            Err(MoveError::Syntax(_)) => {
                let example = self
                    .legal_texts()
                    .into_iter()
                    .next()
                    .map(|m| format!(" (a move here looks like {m})"))
                    .unwrap_or_default();
                let message = format!(
                    "'{text}' is neither a command nor a move{example}. Type 'help' for the commands."
                );
                self.say(&message);
                false
            }
        }
    }

    fn legal_texts(&self) -> Vec<String> {
        let state = self.record.state();
        self.record
            .legal_moves()
            .into_iter()
            .map(|mv| state.format_move(mv))
            .collect()
    }

    /// For a move from a square (`a1a2`) when that square holds no piece of the side
    /// to move: `a1 holds none of red's pieces`.
    fn not_yours(&self, text: &str) -> Option<String> {
        let (file, rank, used) = read_square(text)?;
        if used == text.len() {
            return None;
        }
        let state = self.record.state();
        let side = state.side_to_move();
        let own = self.look.side_letters[index(side)]?;
        let cells = board::cells_of_fen(&state.fen())?;
        let row = cells.len().checked_sub(rank + 1)?;
        let cell = *cells.get(row)?.get(file)?;
        let square = &text[..used];
        let name = self.look.sides[index(side)];
        match cell {
            Some(letter) if letter == own => None,
            Some(_) => Some(format!("{square} holds none of {name}'s pieces")),
            None => Some(format!("{square} is empty")),
        }
    }

    /// Legal moves that start from the same square as `text` (for a wrong slide).
    fn moves_near(&self, text: &str) -> Vec<String> {
        let Some((_, _, used)) = read_square(text) else {
            return Vec::new();
        };
        let prefix = &text[..used];
        let mut near: Vec<String> = self
            .legal_texts()
            .into_iter()
            .filter(|m| m.starts_with(prefix) && m.len() > used)
            .collect();
        near.sort_by_key(|m| natural_key(m));
        near.truncate(20);
        near
    }

    fn list_moves(&mut self, prefix: &str) {
        let mut moves: Vec<String> = self
            .legal_texts()
            .into_iter()
            .filter(|m| m.starts_with(prefix))
            .collect();
        moves.sort_by_key(|m| natural_key(m));
        if moves.is_empty() {
            let message = if self.record.outcome().is_some() {
                "No legal moves: the game is over.".to_string()
            } else {
                format!("No legal move starts with '{prefix}'.")
            };
            self.say(&message);
            return;
        }
        let what = if prefix.is_empty() {
            String::new()
        } else {
            format!(" starting with {prefix}")
        };
        self.say(&format!("Legal moves{what} ({}):", moves.len()));
        // Too many to read (Fabrik's worker moves): the complete moves one square
        // longer than the prefix, and the longer ones grouped by how they begin.
        let (complete, groups) = if moves.len() > MAX_LISTED {
            group_moves(&moves, prefix)
        } else {
            (moves, Vec::new())
        };
        self.say_wrapped(complete.iter().take(MAX_LISTED).map(String::as_str));
        if let Some((first, _)) = groups.first() {
            self.say("More moves, by how they begin:");
            let texts: Vec<String> = groups
                .iter()
                .map(|(start, count)| format!("{start}… ({count})"))
                .collect();
            self.say_wrapped(texts.iter().map(String::as_str));
            self.say(&format!(
                "Type 'moves {first}' to list those beginning with {first}."
            ));
        }
    }

    /// Words on lines of at most 78 characters.
    fn say_wrapped<'a>(&mut self, words: impl Iterator<Item = &'a str>) {
        let mut line = String::new();
        for word in words {
            if !line.is_empty() && line.chars().count() + word.chars().count() + 1 > 78 {
                self.say(line.trim_end());
                line.clear();
            }
            line.push_str(word);
            line.push(' ');
        }
        if !line.is_empty() {
            self.say(line.trim_end());
        }
    }

    fn hint(&mut self) {
        if self.record.outcome().is_some() {
            self.say("The game is over: no hint.");
            return;
        }
        let side = self.record.state().side_to_move();
        let outcome = self.search(Level::FULL);
        match outcome.best {
            Some(mv) => {
                let text = format!(
                    "Hint: {}   ({})",
                    self.style.bold(&self.record.state().format_move(mv)),
                    self.evaluation(&outcome, side)
                );
                self.say(&text);
            }
            None => self.say("No hint: there is no legal move."),
        }
    }

    /// Takes back the last human move and the engine moves after it (one move when
    /// nobody is the engine). Returns whether anything changed.
    fn undo(&mut self) -> bool {
        let Some(last_human) = self.made.iter().rposition(|m| m.by == Kind::Human) else {
            self.say("Nothing to undo: you have not moved yet.");
            return false;
        };
        let taken = self.made.len() - last_human;
        let keep = self.record.moves()[..last_human].to_vec();
        let mut taken_texts = Vec::new();
        let mut state = self.start.clone();
        let mut record = Record::new(self.start.clone());
        for &mv in &keep {
            record.play(mv);
        }
        let mut last = None;
        for (i, &mv) in self.record.moves().iter().enumerate() {
            if i < last_human {
                if i + 1 == last_human {
                    last = Some((state.side_to_move(), state.format_move(mv)));
                }
            } else {
                taken_texts.push(state.format_move(mv));
            }
            state.play(mv);
        }
        self.record = record;
        self.made.truncate(last_human);
        self.last_move = last;
        let plural = if taken == 1 { "" } else { "s" };
        self.say(&format!(
            "Took back {taken} move{plural}: {}.",
            taken_texts.join(" ")
        ));
        true
    }

    fn help(&mut self) {
        let rules = self.look.rules;
        let legend = self.legend();
        let text = format!(
            "Commands:
  <move>        play a move in the protocol notation{rules_sep}
  moves [PRE]   list the legal moves (those starting with PRE)
  hint          ask the engine for a move (at full strength)
  undo          take back your last move (and the engine's reply)
  board         draw the board again      fen   print the position string
  new           start again               quit  leave (Ctrl-D too)",
            rules_sep = if rules.is_empty() { "" } else { ":" },
        );
        self.say(&text);
        if !rules.is_empty() {
            self.say(rules);
        }
        if !legend.is_empty() {
            self.say(&legend);
        }
    }
}

/// Splits move texts that all start with `prefix` into the complete moves that are
/// one square (or word) longer than it and the rest, counted by that beginning.
fn group_moves(moves: &[String], prefix: &str) -> (Vec<String>, Vec<(String, usize)>) {
    let mut complete = Vec::new();
    let mut groups: Vec<(String, usize)> = Vec::new();
    for mv in moves {
        let rest = &mv[prefix.len().min(mv.len())..];
        let step = match read_square(rest) {
            Some((_, _, used)) => used,
            // Not a square (`pass`, a column number): a word of its own.
            None => rest.len(),
        };
        let start = &mv[..prefix.len() + step];
        if start.len() == mv.len() {
            complete.push(mv.clone());
        } else if let Some(group) = groups.iter_mut().find(|(s, _)| s == start) {
            group.1 += 1;
        } else {
            groups.push((start.to_string(), 1));
        }
    }
    (complete, groups)
}

/// `1 ply`, `5 plies`.
fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}

/// A sort key that orders numbers by value inside text: `a2` < `a10`, `9` < `10`.
fn natural_key(text: &str) -> Vec<(bool, u64, String)> {
    let mut key = Vec::new();
    let mut chars = text.chars().peekable();
    while let Some(&c) = chars.peek() {
        let mut run = String::new();
        let digits = c.is_ascii_digit();
        while let Some(&d) = chars.peek() {
            if d.is_ascii_digit() != digits {
                break;
            }
            run.push(d);
            chars.next();
        }
        if digits {
            key.push((false, run.parse().unwrap_or(u64::MAX), String::new()));
        } else {
            key.push((true, 0, run));
        }
    }
    key
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_sort_naturally() {
        let mut moves = vec!["10", "9", "a10", "a2", "b1", "a2a10", "a2a3", "pass"];
        moves.sort_by_key(|m| natural_key(m));
        assert_eq!(
            moves,
            ["9", "10", "a2", "a2a3", "a2a10", "a10", "b1", "pass"]
        );
    }

    #[test]
    fn long_move_lists_are_grouped() {
        let moves: Vec<String> = ["a1", "a4", "d1a1a4", "d1a1a7", "d1b2c3", "d4a1b1", "pass"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let (complete, groups) = group_moves(&moves, "");
        assert_eq!(complete, ["a1", "a4", "pass"]);
        assert_eq!(groups, [("d1".to_string(), 3), ("d4".to_string(), 1)]);
        let (complete, groups) = group_moves(&moves[2..5], "d1");
        assert!(complete.is_empty());
        assert_eq!(groups, [("d1a1".to_string(), 2), ("d1b2".to_string(), 1)]);
    }

    #[test]
    fn arguments() {
        let args: Vec<String> = [
            "--p1", "engine", "--p2", "human", "--level", "3", "--option", "Rows = 5",
        ]
        .iter()
        .map(|s| s.to_string())
        .collect();
        let play = parse_args(&args, "neutreeko").unwrap();
        assert_eq!(play.players, [Kind::Engine, Kind::Human]);
        assert_eq!(play.level, Level::new(3).unwrap());
        assert_eq!(play.options, vec![("Rows".to_string(), "5".to_string())]);
        assert_eq!(play.movetime_ms, DEFAULT_MOVETIME_MS);
        let bad = ["--movetime".to_string(), "0".to_string()];
        assert!(parse_args(&bad, "neutreeko").is_err());
        assert!(parse_args(&["--level".to_string()], "neutreeko").is_err());
    }
}
