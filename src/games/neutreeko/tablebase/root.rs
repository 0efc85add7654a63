//! Choosing a root move from the table: the value with the repetition rule, then the
//! game's preferences among moves of equal value (fastest win, slowest loss, and in a
//! draw the move that leaves the opponent the most ways to go wrong).

use super::*;
use crate::game::Outcome;
use crate::games::neutreeko::Move;
use crate::search::RootProbe;

impl Table {
    /// The value of `child` (the position after one of our moves) from the mover's
    /// point of view, with the repetition rule: `history` holds the position hashes of
    /// the game so far.
    fn move_value(&self, state: &Neutreeko, child: &Neutreeko, history: &[u64]) -> Value {
        if child.outcome() == Some(Outcome::Win(state.side_to_move())) {
            return Value::Win(1);
        }
        let seen = history.iter().filter(|&&h| h == child.hash()).count();
        if seen >= 2 {
            // The third occurrence: a draw on the spot.
            return Value::Draw(1);
        }
        self.probe(child).map_or(Value::Draw(0), Value::parent)
    }

    /// The replies from `child` (opponent to move) that lose for the opponent, and those
    /// that win for it, by the table.
    fn reply_counts(&self, child: &Neutreeko) -> (u32, u32) {
        let mut replies = Vec::new();
        child.generate_moves(&mut replies);
        let (mut losing, mut winning) = (0, 0);
        for reply in replies {
            let mut after = *child;
            after.play(reply);
            if after.outcome().is_some() {
                winning += 1;
                continue;
            }
            match self.probe(&after) {
                Some(Value::Win(_)) => losing += 1,
                Some(Value::Loss(_)) => winning += 1,
                _ => {}
            }
        }
        (losing, winning)
    }

    /// The best move at the root with the repetition rule: a win as fast as possible
    /// that repeats no earlier position (a repeating win only if there is no other), else
    /// a draw (preferring new positions, then the most losing replies for the opponent:
    /// traps), else the slowest loss (preferring a
    /// threefold repetition, which is a draw, then moves back to earlier positions, then
    /// the fewest winning replies for the opponent). `history` holds the hashes of the
    /// game's positions, the current one last. `None` when the game is over.
    pub fn choose(&self, state: &Neutreeko, history: &[u64]) -> Option<RootProbe<Move>> {
        if state.outcome().is_some() {
            return None;
        }
        let mut moves = Vec::new();
        state.generate_moves(&mut moves);
        let mut best: Option<(RankKey, Move, Value)> = None;
        let mut probes = 0;
        for &mv in &moves {
            let mut child = *state;
            child.play(mv);
            probes += 1;
            let value = self.move_value(state, &child, history);
            let seen = history.iter().filter(|&&h| h == child.hash()).count() as i64;
            let key = match value {
                Value::Win(n) => (4 - seen.min(1), -i64::from(n), 0, 0),
                Value::Draw(_) => {
                    let (traps, _) = self.reply_counts(&child);
                    probes += 1;
                    (2, 2 - seen.min(2), i64::from(traps), 0)
                }
                Value::Loss(n) => {
                    let (_, wins) = self.reply_counts(&child);
                    probes += 1;
                    (1, i64::from(n), seen, -i64::from(wins))
                }
            };
            if best.as_ref().is_none_or(|(k, _, _)| key > *k) {
                best = Some((key, mv, value));
            }
        }
        let (_, mv, value) = best?;
        let mut pv = vec![mv];
        if !matches!(value, Value::Draw(_)) {
            let mut line = *state;
            line.play(mv);
            self.extend_line(line, &mut pv);
        }
        Some(RootProbe {
            best: mv,
            value,
            pv,
            nodes: probes,
            note: matches!(value, Value::Draw(_)).then(|| "tablebase draw".to_string()),
        })
    }

    /// Extends `pv` with best play (by the table, ignoring repetition) from `state` to
    /// the end of the game.
    fn extend_line(&self, mut state: Neutreeko, pv: &mut Vec<Move>) {
        let mut moves = Vec::new();
        while state.outcome().is_none() && pv.len() < 256 {
            moves.clear();
            state.generate_moves(&mut moves);
            let pick = moves.iter().copied().max_by_key(|&mv| {
                let mut child = state;
                child.play(mv);
                self.move_value(&state, &child, &[]).score()
            });
            let Some(mv) = pick else { break };
            pv.push(mv);
            state.play(mv);
        }
    }
}
