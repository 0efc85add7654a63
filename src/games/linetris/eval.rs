//! Linetris evaluation: threats first.
//!
//! From the side to move's point of view:
//! - A playable winning cell of the side to move: it wins next move. Two playable
//!   winning cells of the opponent (or one with another right above it): lost.
//! - Lines of four cells free of the opponent's pieces, weighted by how many of our
//!   pieces they hold (1, 2, 3). Central cells lie on more lines, so this also
//!   rewards the centre.
//! - Threats (empty cells that would complete a line) that are not playable yet, as
//!   in Connect Four theory: a threat on a row of the owner's parity (odd rows,
//!   counted from 1 at the bottom, for the first player; even rows for the second) is
//!   worth more, two threats of one side stacked in a column are nearly decisive, and
//!   a threat right above an opponent's threat is worth little (the opponent claims
//!   the lower cell first).
//! - Linetris (RowClear on): a nearly full bottom row is about to vanish, taking every
//!   line through it; such lines count for less (a half with two cells of the bottom
//!   row empty, a quarter with one).
//!
//! Connect Four (RowClear off) uses the threat analysis; Linetris (RowClear on) uses
//! lines only, with the bottom-row discount, because that is what won in games
//! (`docs/experiments/linetris.md`).

use super::{Linetris, Move};
use crate::game::{Game, Player};
use crate::search::Evaluator;

/// The evaluation as a value: the default is the one described above; the switches
/// leave a term out, for matches (`examples/linetris_match.rs`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct LinetrisEval {
    /// The threat analysis (Connect Four only).
    pub threats: bool,
    /// The bottom-row discount (Linetris only).
    pub bottom_discount: bool,
}

impl Default for LinetrisEval {
    fn default() -> Self {
        LinetrisEval {
            threats: true,
            bottom_discount: true,
        }
    }
}

impl Evaluator<Linetris> for LinetrisEval {
    fn evaluate(&mut self, state: &Linetris) -> i32 {
        evaluate_with(state, self)
    }

    fn order_hint(&mut self, state: &Linetris, mv: Move) -> i32 {
        order_hint(state, mv)
    }

    fn is_win_now(&self, score: i32) -> bool {
        // Only a playable winning cell of the mover scores that much.
        score == WIN_NEXT
    }

    fn win_now(&mut self, state: &Linetris) -> Option<Move> {
        let geo = state.geometry();
        let mask = state.occupied();
        let cells =
            geo.winning_cells(state.pieces(state.side_to_move()), mask) & geo.playable(mask);
        (cells != 0).then(|| column_of(state, cells))
    }

    fn forced_replies(&mut self, state: &Linetris, moves: &mut Vec<Move>) -> bool {
        let Some(threats) = threats_now(state) else {
            return false;
        };
        moves.clear();
        let mut cells = threats;
        while cells != 0 {
            let cell = cells & cells.wrapping_neg();
            cells ^= cell;
            moves.push(column_of(state, cell));
        }
        // A move that fills the bottom row clears it and shifts every threat down.
        let geo = state.geometry();
        let mask = state.occupied();
        let open_bottom = geo.bottom & !mask;
        if state.rules().row_clear && open_bottom.count_ones() == 1 {
            let clear = column_of(state, open_bottom);
            if !moves.contains(&clear) {
                moves.push(clear);
            }
        }
        true
    }

    fn threatened(&mut self, state: &Linetris) -> bool {
        threats_now(state).is_some()
    }
}

/// The opponent's winning cells that are playable now, when the side to move must
/// answer them: not when its move may end the game by the ply limit (a draw).
fn threats_now(s: &Linetris) -> Option<u128> {
    if s.plies() + 1 >= s.rules().limit {
        return None;
    }
    let geo = s.geometry();
    let mask = s.occupied();
    let threats = geo.winning_cells(s.pieces(s.side_to_move().other()), mask) & geo.playable(mask);
    (threats != 0).then_some(threats)
}

/// The column of the lowest set cell of `cells`.
fn column_of(s: &Linetris, cells: u128) -> Move {
    Move((cells.trailing_zeros() / (s.geometry().rows + 1)) as u8)
}

/// The side to move wins next move.
const WIN_NEXT: i32 = 5_000;
/// The side to move cannot stop the opponent's win.
const LOST: i32 = -4_500;

/// Weights of a line free of the opponent with 1, 2 and 3 of our pieces.
const LINE_WEIGHTS: [i32; 4] = [0, 1, 5, 20];

/// The default evaluation, from the side to move's point of view.
pub fn evaluate(s: &Linetris) -> i32 {
    evaluate_with(s, &LinetrisEval::default())
}

/// The evaluation with some terms left out, from the side to move's point of view.
pub fn evaluate_with(s: &Linetris, terms: &LinetrisEval) -> i32 {
    let us = s.side_to_move();
    let them = us.other();
    let own = s.pieces(us);
    let opp = s.pieces(them);
    let geo = s.geometry();
    let mask = own | opp;
    let playable = geo.playable(mask);
    let own_threats = geo.winning_cells(own, mask);
    if own_threats & playable != 0 {
        return WIN_NEXT;
    }
    let opp_threats = geo.winning_cells(opp, mask);
    let opp_now = opp_threats & playable;
    if opp_now.count_ones() >= 2 || (opp_now != 0 && (opp_now << 1) & opp_threats != 0) {
        return LOST;
    }
    // How much lines through the bottom row count, in quarters.
    let row_clear = s.rules().row_clear;
    let bottom_filled = (mask & geo.bottom).count_ones();
    let bottom_quarters = if !row_clear || bottom_filled + 2 < geo.cols || !terms.bottom_discount {
        4
    } else if bottom_filled + 2 == geo.cols {
        2
    } else {
        1
    };
    let mut score = lines(s, own, opp, bottom_quarters) - lines(s, opp, own, bottom_quarters);
    // Threat analysis pays in Connect Four only (see the module doc).
    if !row_clear && terms.threats {
        score += threats(s, us, own_threats, opp_threats, opp_now)
            - threats(s, them, opp_threats, own_threats, 0);
    }
    score.clamp(-3_000, 3_000)
}

/// Lines of four free of `opp`, weighted by the pieces of `own` they hold; lines
/// through the bottom row count `bottom_quarters` quarters.
fn lines(s: &Linetris, own: u128, opp: u128, bottom_quarters: i32) -> i32 {
    let geo = s.geometry();
    let h = geo.rows;
    let free = geo.board & !opp;
    let mut total = 0;
    // (shift, the start cells of the lines that use the bottom row)
    for (shift, bottom_starts) in [
        (1, geo.bottom),
        (h + 1, geo.bottom),
        (h + 2, geo.bottom),
        (h, geo.bottom << 3),
    ] {
        // Bit i: the cells i, i+shift, i+2·shift, i+3·shift are all free.
        let open = free & (free >> shift) & (free >> (2 * shift)) & (free >> (3 * shift));
        if open == 0 {
            continue;
        }
        let (a, b, c, d) = (own, own >> shift, own >> (2 * shift), own >> (3 * shift));
        // A bit-parallel count of our pieces in each line: ones, twos, fours.
        let (s1, c1) = (a ^ b, a & b);
        let (s2, c2) = (c ^ d, c & d);
        let ones = s1 ^ s2;
        let carry = s1 & s2;
        let twos = c1 ^ c2 ^ carry;
        let fours = (c1 & c2) | ((c1 ^ c2) & carry);
        let counts = [
            0,
            ones & !twos & !fours,
            !ones & twos & !fours,
            ones & twos & !fours,
        ];
        for k in 1..4 {
            let lines = counts[k] & open;
            let weight = LINE_WEIGHTS[k];
            let low = (lines & bottom_starts).count_ones() as i32;
            let high = (lines & !bottom_starts).count_ones() as i32;
            total += weight * (4 * high + bottom_quarters * low);
        }
    }
    total / 4
}

/// The worth of `player`'s threats that are not playable yet.
fn threats(s: &Linetris, player: Player, mine: u128, theirs: u128, forced: u128) -> i32 {
    let geo = s.geometry();
    let mask = s.occupied();
    let playable = geo.playable(mask);
    let mut total = 0;
    let mut cells = mine & !playable;
    // Our threat directly above a cell we must block now is no threat.
    cells &= !(forced << 1);
    while cells != 0 {
        let cell = cells & cells.wrapping_neg();
        cells ^= cell;
        let index = cell.trailing_zeros();
        let row = index % (geo.rows + 1);
        let below = cell >> 1;
        let mut worth = 15;
        if theirs & below != 0 {
            // The opponent's threat is claimed first.
            total += 3;
            continue;
        }
        if mine & below != 0 {
            // Two stacked threats: whoever fills the column up to the lower one loses
            // it to us.
            worth += 60;
        }
        let good_parity = match player {
            Player::P1 => row.is_multiple_of(2),
            Player::P2 => !row.is_multiple_of(2),
        };
        if good_parity {
            worth += 35;
        }
        total += worth;
    }
    total
}

/// Move ordering: wins, then blocks, then the threats a move makes, centre first;
/// moves right under an opponent's winning cell last.
pub fn order_hint(s: &Linetris, mv: Move) -> i32 {
    let geo = s.geometry();
    let us = s.side_to_move();
    let own = s.pieces(us);
    let opp = s.pieces(us.other());
    let mask = own | opp;
    let col = u32::from(mv.0);
    let cell = geo.drop_cell(mask, col);
    if cell == 0 {
        return i32::MIN / 2;
    }
    if geo.has_four(own | cell) {
        return 100_000;
    }
    let centre = geo.cols as i32 - (2 * col as i32 - (geo.cols as i32 - 1)).abs();
    let mut hint = centre;
    if geo.has_four(opp | cell) {
        hint += 50_000;
    }
    let above = (cell << 1) & geo.board;
    if above != 0 && geo.has_four(opp | above) {
        hint -= 20_000;
    }
    hint += 10 * geo.winning_cells(own | cell, mask | cell).count_ones() as i32;
    hint
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::linetris::Config;

    fn fen(text: &str, row_clear: bool) -> Linetris {
        let config = Config {
            row_clear,
            ..Config::default()
        };
        Linetris::from_fen(&config, text).unwrap()
    }

    #[test]
    fn immediate_wins_and_losses() {
        // x to move with three in the bottom row: wins next move.
        assert_eq!(evaluate(&fen("7/7/7/7/ooo4/xxx4 x 6", false)), WIN_NEXT);
        // o to move facing two open ends of x's three: lost.
        assert_eq!(evaluate(&fen("7/7/7/7/7/1xxx1oo o 5", false)), LOST);
        // The empty board is even.
        assert_eq!(evaluate(&fen("7/7/7/7/7/7 x 0", false)), 0);
    }

    #[test]
    fn the_centre_and_good_threats_count() {
        let centre = evaluate(&fen("7/7/7/7/7/3x3 o 1", false));
        let edge = evaluate(&fen("7/7/7/7/7/x6 o 1", false));
        // Seen by o: x's centre piece is worse for o than x's edge piece.
        assert!(centre < edge, "{centre} {edge}");
        // Order: the winning move first, the block second.
        let s = fen("7/7/7/7/ooo4/xxx4 x 6", false);
        assert!(order_hint(&s, Move(3)) > order_hint(&s, Move(2)));
        let s = fen("7/7/7/7/xxx4/ooo4 x 6", false);
        assert!(order_hint(&s, Move(3)) > order_hint(&s, Move(4)));
    }

    /// Whether the side to move of `s` can win at once.
    fn wins_at_once(s: &Linetris) -> bool {
        let mut moves = Vec::new();
        s.generate_moves(&mut moves);
        moves.iter().any(|&mv| {
            let mut child = *s;
            child.play(mv);
            child.outcome() == Some(crate::game::Outcome::Win(s.side_to_move()))
        })
    }

    #[test]
    fn wins_now_and_forced_replies_agree_with_play() {
        // Random games on both rule sets and two sizes: the win found is a win, none
        // found means none exists, and every move left out of the forced replies lets
        // the opponent win at once.
        let mut rng = crate::rng::Xorshift::new(7);
        let mut eval = LinetrisEval::default();
        let mut checked = 0;
        for (rows, cols, row_clear, max_plies) in [
            (6, 7, true, 0),
            (6, 7, false, 0),
            (5, 5, true, 30),
            (4, 6, true, 0),
        ] {
            let config = Config {
                rows,
                cols,
                row_clear,
                max_plies,
            };
            for _ in 0..300 {
                let mut s = Linetris::empty(&config);
                while s.outcome().is_none() {
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    match eval.win_now(&s) {
                        Some(mv) => {
                            let mut child = s;
                            child.play(mv);
                            assert_eq!(
                                child.outcome(),
                                Some(crate::game::Outcome::Win(s.side_to_move()))
                            );
                        }
                        None => assert!(!wins_at_once(&s), "{}", s.fen()),
                    }
                    // Forced replies are only asked where no win is at hand.
                    let mut forced = Vec::new();
                    if eval.win_now(&s).is_none() && eval.forced_replies(&s, &mut forced) {
                        assert!(eval.threatened(&s));
                        for &mv in moves.iter().filter(|mv| !forced.contains(mv)) {
                            let mut child = s;
                            child.play(mv);
                            assert!(
                                child.outcome().is_none() && wins_at_once(&child),
                                "{}",
                                s.fen()
                            );
                            checked += 1;
                        }
                    }
                    let mv = moves[rng.below(moves.len() as u64) as usize];
                    s.play(mv);
                }
            }
        }
        assert!(checked > 100, "{checked}");
    }

    #[test]
    fn a_nearly_full_bottom_row_discounts_its_lines() {
        // x's three on the bottom row with one cell left: with RowClear on the line is
        // about to vanish (unless x plays there and wins, but o is to move: it blocks
        // or fills the row). Compare the lines term alone.
        let s_on = fen("7/7/7/7/7/xxx1ooo o 6", true);
        let s_off = fen("7/7/7/7/7/xxx1ooo o 6", false);
        let on = lines(&s_on, s_on.pieces(Player::P1), s_on.pieces(Player::P2), 1);
        let off = lines(
            &s_off,
            s_off.pieces(Player::P1),
            s_off.pieces(Player::P2),
            4,
        );
        assert!(on < off, "{on} {off}");
    }
}
