//! The engine at the table: its moves for the engine sides, the `hint` command, and
//! the score of a search told in words.

use std::io::Write;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

use super::args::Kind;
use super::game_loop::{Made, Play, index};
use crate::game::Player;
use crate::search::{Level, Oracle, Score, SearchLimits, SearchResult, Strategy, time::Budget};

impl<G: Strategy> Play<G> {
    /// A search from the current position at `level`.
    fn search(&mut self, level: Level) -> SearchResult<G::Move> {
        let limits = SearchLimits {
            budget: Budget {
                soft: Some(self.movetime),
                hard: Some(self.movetime),
            },
            level,
            ..SearchLimits::default()
        };
        let stop = Arc::new(AtomicBool::new(false));
        // A game's tables decide its best moves; a search that starts before they are
        // built plays without them (and may play a lost move). So every engine move and hint waits for them, once: this
        // returns at once for games without tables and after the build.
        self.searcher.oracle().wait(&stop, None);
        let state = self.record.state().clone();
        let history = self.record.history().to_vec();
        self.searcher
            .search(&state, &history, limits, stop, &mut |_| {})
    }

    /// `score cp 35, depth 9` for the side that searched.
    fn evaluation(&self, outcome: &SearchResult<G::Move>, player: Player) -> String {
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

    pub(super) fn engine_move(&mut self) {
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

    pub(super) fn hint(&mut self) {
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
}

/// `1 ply`, `5 plies`.
fn plies(n: i32) -> String {
    if n == 1 {
        "1 ply".to_string()
    } else {
        format!("{n} plies")
    }
}
