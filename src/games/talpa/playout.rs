//! Monte-Carlo tree search for Talpa: the boards and phase it plays, and its playout
//! policy.
//!
//! From 8×8 up the engine searches Talpa's middle game with MCTS
//! ([`crate::search::mcts`]), not alpha-beta (`Strategy::method` in mod.rs). Talpa is a
//! connection game: the two paths race through squares that both sides empty, and like
//! Hex it is told better by how often games played on from a position end in a path of
//! one's own than by a static score: the evaluation's separation and contacts name the
//! winner of 8×8 middle-game positions about two times in three. Head to head at 1 s +
//! 10 ms the tree search won about two games in three against alpha-beta
//! (docs/strength.md, "Nineteenth pass"). From the 24th empty square (on 8×8), where
//! short exact lines decide, alpha-beta takes over again: the tree threw away wins there
//! that alpha-beta proves at once.
//!
//! A playout move: up to [`TRIES`] moves drawn at random, the first that wins at once
//! played at once, else the first drawn that does not lose at once (a capture or removal
//! that opens the opponent's path), else the first drawn. A uniform playout often ends
//! by such a move, which says little of what the position was worth. Four draws scored
//! better head to head than two and than eight (within the noise); the experiments are
//! in docs/experiments/talpa.md.

use super::{Move, Talpa};
use crate::game::{Game, Outcome};

/// How many moves a playout draws before it plays one that loses at once.
pub(super) const TRIES: u32 = 4;

/// The exploration constant of UCT for Talpa: lower than the default 0.7, since a
/// position has a hundred moves or so and the few thousand playouts of a move on the
/// clock are better spent on the best of them (0.45 beat 0.7, 0.3 beat 0.45, 0.2 lost
/// to 0.45, in games).
pub(super) const EXPLORATION: f64 = 0.3;

/// The smallest board searched with MCTS; smaller ones keep alpha-beta (4×4 has its
/// exact solver, and 6×6 was not shown to gain).
pub(super) const MCTS_FROM_SIZE: usize = 8;

/// The empty squares (on 8×8; as many more in proportion on larger boards) from which
/// alpha-beta takes over again: late in the game short exact lines decide, which
/// alpha-beta proves and the tree, with a few thousand playouts a move, may miss.
pub(super) const MCTS_UNTIL_EMPTY_8: u64 = 24;

impl Talpa {
    /// A move for a playout (see the module's documentation): `random` gives the
    /// draws, sixteen bits each.
    pub(super) fn playout_choice(&self, moves: &[Move], random: u64) -> Move {
        let n = moves.len() as u64;
        let drawn = |draw: u32| moves[((random >> (16 * draw)) & 0xFFFF) as usize % n as usize];
        if n == 1 {
            return moves[0];
        }
        let us = self.side_to_move();
        let mut safe = None;
        for draw in 0..TRIES {
            let mv = drawn(draw);
            let mut child = *self;
            child.play(mv);
            match child.outcome() {
                Some(Outcome::Win(winner)) if winner == us => return mv,
                Some(Outcome::Win(_)) => {}
                _ => {
                    safe.get_or_insert(mv);
                }
            }
        }
        safe.unwrap_or_else(|| drawn(0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Method, Strategy};

    /// What a move does to the mover at once: 1 wins, −1 loses, 0 neither.
    fn at_once(s: &Talpa, mv: Move) -> i32 {
        let mut child = *s;
        child.play(mv);
        match child.outcome() {
            Some(Outcome::Win(w)) if w == s.side_to_move() => 1,
            Some(Outcome::Win(_)) => -1,
            _ => 0,
        }
    }

    #[test]
    fn a_playout_move_is_the_best_of_its_draws() {
        // Random games on 4×4, 6×6 and 8×8, every position with many random words:
        // the move played is one of the legal moves, the best (win, else neither, else
        // loss) of the moves the word draws, and the first drawn of that kind.
        let mut rng = crate::rng::Xorshift::new(23);
        let (mut wins, mut saves) = (0, 0);
        for size in [4, 6, 8] {
            for _ in 0..60 {
                let mut s = Talpa::start(&super::super::Config { size });
                while s.outcome().is_none() {
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    for _ in 0..8 {
                        let random = rng.next_u64();
                        let chosen = s.playout_choice(&moves, random);
                        assert!(moves.contains(&chosen));
                        if moves.len() == 1 {
                            continue;
                        }
                        let draws: Vec<Move> = (0..TRIES)
                            .map(|d| moves[((random >> (16 * d)) & 0xFFFF) as usize % moves.len()])
                            .collect();
                        let best = draws.iter().map(|&mv| at_once(&s, mv)).max().unwrap();
                        let first = draws.iter().find(|&&mv| at_once(&s, mv) == best).unwrap();
                        assert_eq!(chosen, *first, "{}", s.fen());
                        wins += usize::from(best == 1);
                        saves += usize::from(best == 0 && at_once(&s, draws[0]) == -1);
                    }
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        assert!(wins > 100 && saves > 100, "{wins} {saves}");
    }

    #[test]
    fn mcts_plays_the_large_boards_until_the_late_phase() {
        // Random games: MCTS exactly on 8×8 and 10×10 before the 24th (37th) empty
        // square.
        let mut rng = crate::rng::Xorshift::new(29);
        let mut seen = [0; 2];
        for (size, late) in [(4, 0), (6, 0), (8, 24), (10, 37)] {
            for _ in 0..20 {
                let mut s = Talpa::start(&super::super::Config { size });
                while s.outcome().is_none() {
                    let empty = s.empty().count_ones();
                    let expected = if empty < late {
                        Method::Mcts
                    } else {
                        Method::AlphaBeta
                    };
                    assert_eq!(s.method(), expected, "{}", s.fen());
                    seen[usize::from(expected == Method::Mcts)] += 1;
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        assert!(seen[0] > 100 && seen[1] > 100, "{seen:?}");
    }
}
