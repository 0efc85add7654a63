//! The playout policy of Monte-Carlo tree search, and the role it is used for.
//!
//! Yuki is searched with MCTS rather than alpha-beta (`Strategy::method` in mod.rs):
//! against best play his position is usually lost from the start, and alpha-beta, which
//! assumes Mina's best reply, then has nothing to prefer. MCTS estimates his chance of
//! winning when both sides play about as the playouts below do, so it steers towards the
//! positions where Mina has the fewest safe hiding places and the most ways to go wrong.
//! A playout he loses still credits him with a little for every tree he ate by its end
//! (`eval::TIE_BREAK_SHARE`): a match breaks ties by the trees eaten, so where every move
//! loses he plays the one that lasts.
//!
//! A playout move, for either side:
//! 1. an immediate win if there is one (Yuki: a step after which Mina has no hidden cell
//!    to slide to; Mina: a cell after which Yuki has no step);
//! 2. otherwise, [`GREEDY_PERCENT`] times in 100, the greedy move (Yuki: the step that
//!    leaves Mina the fewest hidden cells; Mina: the cell that leaves Yuki the fewest
//!    steps), or the next best of the first [`CHECKED`] if it is a blunder;
//! 3. otherwise a move at random, drawn again (up to [`CHECKED`] draws) while it is a
//!    blunder.
//!
//! A blunder hands the opponent an immediate win: a step of Yuki's after which Mina has
//! a cell that leaves him no step, a cell of Mina's after which Yuki has a step that
//! leaves her no hidden cell.
//!
//! Why this policy, and what else was measured (none better): see
//! `docs/experiments/frozenforest.md`.

use super::sight::{Cells, bit};
use super::{FrozenForest, Move, Phase};
use crate::game::Player;

/// In how many playout moves out of 100 a side plays its greedy move.
const GREEDY_PERCENT: u64 = 75;
/// How many candidate moves are checked for blunders before one is played anyway.
const CHECKED: usize = 3;

impl FrozenForest {
    /// A move for a playout (see the module's documentation).
    pub(super) fn playout_choice(&self, moves: &[Move], random: u64) -> Move {
        if self.phase() != Phase::Play {
            return moves[(random % moves.len() as u64) as usize];
        }
        // Each move with the opponent's replies to it, worked out once for both the
        // greedy order and the blunder check. At most 8 steps for Yuki, at most 35
        // cells in line for Mina.
        let mut keyed = [(0u32, Move(0), 0u128); 64];
        let count = moves.len().min(keyed.len());
        for (slot, &mv) in keyed.iter_mut().zip(&moves[..count]) {
            let replies = self.replies(mv);
            if replies == 0 {
                return mv;
            }
            *slot = (replies.count_ones(), mv, replies);
        }
        let keyed = &mut keyed[..count];
        let safe = |&(_, mv, replies): &(u32, Move, u128)| !self.hands_over(mv, replies);
        if (random >> 40) % 100 < GREEDY_PERCENT {
            keyed.sort_unstable_by_key(|&(key, Move(cell), _)| (key, cell));
            return keyed
                .iter()
                .take(CHECKED)
                .find(|&candidate| safe(candidate))
                .unwrap_or(&keyed[0])
                .1;
        }
        let at_random = |draw: u64| keyed[((random >> (8 * draw)) % count as u64) as usize];
        let mut pick = at_random(0);
        for draw in 1..=CHECKED as u64 {
            if safe(&pick) {
                break;
            }
            pick = at_random(draw);
        }
        pick.1
    }

    /// The opponent's replies to a move: for Yuki's step the hidden cells Mina can
    /// slide to, for Mina's slide the steps Yuki has. None is an immediate win; their
    /// number is the greedy order.
    fn replies(&self, Move(to): Move) -> u128 {
        let (yuki, mina, to) = (self.yuki as usize, self.mina as usize, to as usize);
        match self.side {
            Player::P1 => self.after_yuki_eats(to).mina_slides(to, mina),
            Player::P2 => self.yuki_steps(yuki, to),
        }
    }

    /// Whether the move, whose opponent's replies are `replies`, hands the opponent an
    /// immediate win.
    fn hands_over(&self, Move(to): Move, replies: u128) -> bool {
        let to = to as usize;
        match self.side {
            Player::P1 => {
                let after = self.after_yuki_eats(to);
                Cells(replies).any(|hide| !after.yuki_can_step(to, hide))
            }
            Player::P2 => {
                Cells(replies).any(|step| !self.after_yuki_eats(step).mina_can_slide(step, to))
            }
        }
    }

    /// The trees once Yuki has eaten the one on `cell` (nothing else changes: the
    /// sight helpers take both cells as arguments).
    fn after_yuki_eats(&self, cell: usize) -> FrozenForest {
        FrozenForest {
            trees: self.trees & !bit(cell),
            ..*self
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Game, default_config};
    use crate::rng::Xorshift;

    /// The greedy order of a move (0: an immediate win).
    fn greedy_key(position: &FrozenForest, mv: Move) -> u32 {
        position.replies(mv).count_ones()
    }

    /// Whether a move hands the opponent an immediate win.
    fn blunders(position: &FrozenForest, mv: Move) -> bool {
        position.hands_over(mv, position.replies(mv))
    }

    /// Play-phase positions from seeded random games.
    fn positions() -> Vec<FrozenForest> {
        let mut rng = Xorshift::new(0x1dea_5eed);
        let mut found = Vec::new();
        for _ in 0..60 {
            let mut position = FrozenForest::start(&default_config::<FrozenForest>());
            while position.outcome().is_none() {
                if position.phase() == Phase::Play {
                    found.push(position);
                }
                let mut moves = Vec::new();
                position.generate_moves(&mut moves);
                position.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        found
    }

    #[test]
    fn playouts_take_an_immediate_win_and_avoid_blunders_when_greedy() {
        let (mut wins, mut dodged) = (0, 0);
        for position in positions() {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            let winning: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|&mv| {
                    let mut child = position;
                    child.play(mv);
                    child.outcome().is_some()
                })
                .collect();
            // Bits 40 and up choose greedy (below GREEDY_PERCENT) or random play.
            for random in [0u64, 7 << 8, 99 << 40, 0xdead_beef] {
                let choice = position.playout_choice(&moves, random);
                assert!(moves.contains(&choice));
                if !winning.is_empty() {
                    assert!(winning.contains(&choice), "{}", position.fen());
                    wins += 1;
                }
            }
            if winning.is_empty() {
                // Greedy: the smallest key among the moves that do not blunder, when
                // one of the three best does not.
                let mut keyed: Vec<(u32, Move)> = moves
                    .iter()
                    .map(|&mv| (greedy_key(&position, mv), mv))
                    .collect();
                keyed.sort_by_key(|&(key, Move(cell))| (key, cell));
                let choice = position.playout_choice(&moves, 0);
                if let Some(&(_, safe)) = keyed
                    .iter()
                    .take(CHECKED)
                    .find(|&&(_, mv)| !blunders(&position, mv))
                {
                    assert_eq!(choice, safe, "{}", position.fen());
                    if keyed[0].1 != safe {
                        dodged += 1;
                    }
                } else {
                    assert_eq!(choice, keyed[0].1);
                }
            }
        }
        assert!(wins > 50, "{wins} immediate wins seen");
        assert!(dodged > 10, "{dodged} blunders dodged");
    }

    #[test]
    fn a_blunder_hands_over_an_immediate_win() {
        // Checked against playing the move and every reply.
        let mut checked = 0;
        for position in positions().into_iter().step_by(7) {
            let mut moves = Vec::new();
            position.generate_moves(&mut moves);
            for &mv in &moves {
                let mut child = position;
                child.play(mv);
                if child.outcome().is_some() {
                    continue;
                }
                let mut replies = Vec::new();
                child.generate_moves(&mut replies);
                let loses = replies.iter().any(|&reply| {
                    let mut grandchild = child;
                    grandchild.play(reply);
                    grandchild.outcome() == Some(crate::game::Outcome::Win(child.side_to_move()))
                });
                assert_eq!(
                    blunders(&position, mv),
                    loses,
                    "{} {}",
                    position.fen(),
                    position.format_move(mv)
                );
                checked += 1;
            }
        }
        assert!(checked > 500, "{checked} moves checked");
    }
}
