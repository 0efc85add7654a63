//! The prompt: lines read from the human, the commands (`moves`, `history`, `undo`,
//! `hint`, `board`, `fen`, `save`, `new`, `help`, `quit`), and moves typed in the
//! protocol notation, with a helpful word for every line that is neither.

use std::io::Write;

use super::args::Kind;
use super::board;
use super::game_loop::{Made, Play, Turn, index};
use crate::game::{MoveError, Record, read_square};
use crate::search::Strategy;

/// Longest input line taken as a command.
const MAX_LINE: usize = 1_000;
/// Most moves `moves` lists before asking for a prefix.
const MAX_LISTED: usize = 200;

impl<G: Strategy> Play<G> {
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

    pub(super) fn human_turn(&mut self) -> Turn {
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
                "history" | "record" if argument.is_none() => self.history(),
                "save" => {
                    // The file name as typed (not lowercased), spaces and all.
                    let path = line.trim()[first.len()..].trim();
                    if path.is_empty() {
                        self.say("Save to which file? Type 'save FILE'.");
                    } else {
                        self.save(std::path::Path::new(path));
                    }
                }
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
                    self.append_record();
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
        let own = self.own_letter(side)?;
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
        // Too many to read (moves of several squares): the complete moves one square
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

    /// The moves played so far, numbered as in a PGN record.
    fn history(&mut self) {
        let record = self.pgn_record();
        if record.moves.is_empty() {
            self.say("No moves yet.");
            return;
        }
        let text = record.to_text();
        let plies = record.moves.len();
        let word = if plies == 1 { "ply" } else { "plies" };
        self.say(&format!("The game so far ({plies} {word}):"));
        // The move text of the record: after the tags' blank line, without the result.
        let body = text.split("\n\n").nth(1).unwrap_or("").trim_end();
        let body = body
            .strip_suffix(record.result.as_str())
            .unwrap_or(body)
            .trim_end();
        self.say(body);
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
  history       list the moves played so far
  save FILE     write the game so far to FILE as a PGN record
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
}
