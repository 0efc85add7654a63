//! One game in the terminal ([`Play`]): its state, the loop that alternates the sides,
//! what it prints (the introduction, the board with its status line, the result), and
//! its record as PGN (`save`, `--pgn`).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::Duration;

use super::Io;
use super::args::{Kind, PlayArgs};
use super::board::{self, Style};
use crate::arena::pgn::{self, PgnGame};
use crate::game::look::Look;
use crate::game::{Outcome, Params, Player, Record};
use crate::search::{Level, Oracle, Policy, Strategy};

/// Transposition table of the play engine, MiB.
const HASH_MIB: usize = 32;

/// Who made a move of the record.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Made {
    pub(super) by: Kind,
}

/// What a human's turn led to.
pub(super) enum Turn {
    /// The position changed (a move, an undo, a new game): draw it.
    Changed,
    Quit,
}

/// One game in the terminal.
pub(super) struct Play<G: Strategy> {
    pub(super) start: G,
    pub(super) record: Record<G>,
    pub(super) made: Vec<Made>,
    pub(super) players: [Kind; 2],
    pub(super) level: Level,
    pub(super) movetime: Duration,
    pub(super) searcher: Policy<G>,
    pub(super) look: Look,
    pub(super) style: Style,
    pub(super) io: Io,
    /// The text of the last move (for highlighting), if any.
    pub(super) last_move: Option<(Player, String)>,
    /// The config and the options it was made from, for records.
    pub(super) config: G::Config,
    pub(super) params: Params,
    /// `--pgn FILE`, and the moves of the game as last appended there.
    pub(super) pgn: Option<PathBuf>,
    pub(super) appended: Option<Vec<G::Move>>,
}

pub(super) fn index(player: Player) -> usize {
    player.index()
}

impl<G: Strategy> Play<G> {
    pub(super) fn new(
        config: G::Config,
        params: Params,
        args: PlayArgs,
        style: Style,
        io: Io,
    ) -> Self {
        let start = G::start(&config);
        let mut searcher = Policy::standard(HASH_MIB, &config);
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
            look: G::LOOK,
            style,
            io,
            last_move: None,
            config,
            params,
            pgn: args.pgn,
            appended: None,
        }
    }

    /// A player's name in records: `human`, `tabuleiro` or `tabuleiro level N`.
    fn player_name(&self, player: Player) -> String {
        match self.players[index(player)] {
            Kind::Human => "human".to_string(),
            Kind::Engine if self.level.is_full() => "tabuleiro".to_string(),
            Kind::Engine => format!("tabuleiro level {}", self.level.get()),
        }
    }

    /// The game so far as a PGN record, with the tags `match --pgn` writes where they
    /// apply.
    pub(super) fn pgn_record(&self) -> PgnGame {
        let outcome = self.record.outcome();
        let mut game = PgnGame::default();
        game.set_tag("Event", "tabuleiro play");
        game.set_tag("Site", "?");
        game.set_tag("Date", pgn::today());
        game.set_tag("Round", "-");
        let (p1, p2) = (self.player_name(Player::P1), self.player_name(Player::P2));
        game.set_tag("P1", p1.clone());
        game.set_tag("P2", p2.clone());
        game.set_tag("White", p1);
        game.set_tag("Black", p2);
        game.set_tag("Result", pgn::result_token(outcome));
        pgn::set_game_tags::<G>(&mut game, &self.params, &self.start, &self.config);
        // PGN's words: the game ended by the rules, or has not ended.
        let termination = match outcome {
            Some(_) => "normal",
            None => "unterminated",
        };
        game.set_tag("Termination", termination);
        game.moves = pgn::moves_of(&self.start, self.record.moves());
        game.result = pgn::result_token(outcome).to_string();
        game
    }

    /// Writes the game so far to `path` (replacing the file), or says why it cannot.
    pub(super) fn save(&mut self, path: &Path) {
        let text = self.pgn_record().to_text();
        let message = match std::fs::write(path, text) {
            Ok(()) => format!(
                "Saved the game ({} plies) to {}.",
                self.record.moves().len(),
                path.display()
            ),
            Err(why) => format!("Cannot write {}: {why}", path.display()),
        };
        self.say(&message);
    }

    /// With `--pgn FILE`: appends the game to FILE unless it has no move or is there
    /// already as it stands.
    pub(super) fn append_record(&mut self) {
        let Some(path) = self.pgn.clone() else {
            return;
        };
        let moves = self.record.moves().to_vec();
        if moves.is_empty() || self.appended.as_ref() == Some(&moves) {
            return;
        }
        let text = self.pgn_record().to_text();
        let written = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .and_then(|mut file| file.write_all(text.as_bytes()));
        let message = match written {
            Ok(()) => {
                self.appended = Some(moves);
                format!("The game is saved in {}.", path.display())
            }
            Err(why) => format!("Cannot write {}: {why}", path.display()),
        };
        self.say(&message);
    }

    pub(super) fn say(&mut self, text: &str) {
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

    /// The FEN letter of a side's own piece (its side letter), when the look draws it.
    pub(super) fn own_letter(&self, player: Player) -> Option<char> {
        let letter = G::SIDE_LETTERS[index(player)].chars().next()?;
        self.look.piece(letter).map(|_| letter)
    }

    /// The glyph of a side's own piece, with a space, or nothing.
    pub(super) fn side_glyph(&self, player: Player) -> String {
        self.own_letter(player)
            .map(|letter| format!("{} ", self.style.glyph(&self.look, letter)))
            .unwrap_or_default()
    }

    pub(super) fn run(mut self) {
        // A game's tables build in the background while the
        // board is drawn and the human thinks; `search` waits for them.
        self.searcher.oracle().prepare();
        self.intro();
        loop {
            self.draw();
            if let Some(outcome) = self.record.outcome() {
                self.announce(outcome);
                self.append_record();
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
                Turn::Quit => {
                    self.append_record();
                    return;
                }
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
    pub(super) fn legend(&self) -> String {
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
}
