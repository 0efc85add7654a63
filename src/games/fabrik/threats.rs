//! Threats in Fabrik: wins now, fours and the answers to them.
//!
//! - A side *wins now* when it can make a line this turn (a completion square of its
//!   colour in its reach: at most one worker move, then the stone) or leave the opponent
//!   no placement at all (walling in, [`wall_in_move`]).
//! - A *four* is a move after which the mover has a completion square in its reach:
//!   it wins next turn unless the other side answers ([`line_threats`]).
//! - The *answers* to a four are the moves after which the attacker has no win now
//!   ([`answers`]). They are computed per (worker moved, square placed) pair of the
//!   move generator, with set operations over the worker's destinations: the attacker
//!   reaches a completion square `c` either by moving the relocated worker (then the
//!   other one must see `c`, which does not depend on where the relocated one went) or
//!   by moving the other one (then the relocated one must see `c`: a sight set from `c`
//!   tells which destinations do). Walling in is checked by playing each answer out.
//!
//! - A *walling-in threat* is a move after which the other side has no move that keeps
//!   three open squares beside both workers ([`wall_threat_moves`]): it must then find
//!   a move after which no walling-in move (and no line) is left ([`any_answers`]),
//!   and its own stone may be the one that walls it in.
//!
//! The answers are the only moves worth searching when the opponent has a four: every
//! other move loses at once. Tested against brute force in `tests/fabrik.rs`.

use super::eval::{completions, reach_within, roomy_after_some_move, wall_in_move};
use super::geometry::{Bb, bit, geometry, three_or_more, two_or_more};
use super::{Fabrik, Move, Phase, squares, two_squares};
use crate::game::{Game, Player};

/// The completion squares of `player`: empty or worker squares where a stone of its
/// colour makes a line.
pub fn completion_squares(position: &Fabrik, player: Player) -> Bb {
    let open = position.empty() | position.workers;
    completions(
        position.stones[player.index()],
        open,
        position.board,
        usize::from(position.line_length),
    )
}

/// The completion squares of `player` that it could fill this turn if it were to move
/// (whoever is to move): nonempty when `player` threatens to win now.
pub fn line_threats(position: &Fabrik, player: Player) -> Bb {
    if position.phase() != Phase::Play {
        return 0;
    }
    let done = completion_squares(position, player);
    if done == 0 {
        return 0;
    }
    reach_within(position, done)
}

/// A move of the side to move that puts a stone on `square`, which must be in its
/// reach ([`super::eval::reach`]); `None` when it is not.
pub fn move_onto(position: &Fabrik, square: usize) -> Option<Move> {
    if position.placeable() & bit(square) != 0 {
        return Some(Move::place(square));
    }
    if position.phase() != Phase::Play {
        return None;
    }
    let g = geometry();
    let stones = position.stones[0] | position.stones[1];
    let empty = position.empty();
    let (a, b) = two_squares(position.workers);
    for (moved, fixed) in [(a, b), (b, a)] {
        if g.sight(fixed, stones) & bit(square) == 0 || (empty | bit(moved)) & bit(square) == 0 {
            continue;
        }
        // A landing square beside `square` (the moved worker then sees it) off the
        // way to the fixed worker.
        let landing = g.neighbours[square] & empty & !g.between(fixed, square);
        if landing != 0 {
            return Some(Move::relocate(
                moved,
                landing.trailing_zeros() as usize,
                square,
            ));
        }
    }
    None
}

/// A move with which the side to move wins at once (a line, or the opponent walled
/// in), if it has one. Exact.
pub fn win_now(position: &Fabrik) -> Option<Move> {
    if position.winner.is_some() || position.phase() != Phase::Play {
        return None;
    }
    let ours = line_threats(position, position.side);
    if ours != 0 {
        return move_onto(position, ours.trailing_zeros() as usize);
    }
    wall_in_move(position)
}

/// When the opponent of the side to move threatens a line ([`line_threats`]): appends
/// to `out` every move after which it has no win now (no line, no walling in), and
/// returns `true`. Otherwise returns `false` and leaves `out` alone.
///
/// Assumes the side to move has no win now itself ([`win_now`] is `None`): a move that
/// wins on the spot is no answer here, it is played first.
pub fn answers(position: &Fabrik, out: &mut Vec<Move>) -> bool {
    let start = out.len();
    if !line_answers(position, out) {
        return false;
    }
    // Walling in: the attacker may have that win left after any answer.
    let mut kept = start;
    for i in start..out.len() {
        let mv = out[i];
        let mut child = *position;
        child.play(mv);
        if wall_in_move(&child).is_none() {
            out[kept] = mv;
            kept += 1;
        }
    }
    out.truncate(kept);
    true
}

/// [`answers`] but for walling in: the moves after which the attacker has no line to
/// make at once (some of which may let it wall the side to move in). Cheaper, and
/// enough for a search, which sees a walling in one ply later; empty only when
/// [`answers`] is.
pub fn line_answers(position: &Fabrik, out: &mut Vec<Move>) -> bool {
    if position.winner.is_some() || position.phase() != Phase::Play {
        return false;
    }
    let us = position.side;
    let them = us.other();
    let threats = completion_squares(position, them);
    if threats == 0 || reach_within(position, threats) == 0 {
        return false;
    }
    let g = geometry();
    let stones = position.stones[0] | position.stones[1];
    let empty = position.empty();
    let (a, b) = two_squares(position.workers);
    // Placements without a worker move: the workers stay, one stone more.
    for s in squares(position.placeable()) {
        let left = threats & !bit(s);
        let mut child = *position;
        child.stones[us.index()] |= bit(s);
        if left == 0 || reach_within(&child, left) == 0 {
            out.push(Move::place(s));
        }
    }
    for (moved, fixed) in [(a, b), (b, a)] {
        let blockers = stones | bit(fixed);
        for s in squares(g.sight(fixed, stones) & (empty | bit(moved))) {
            let targets = g.sight(s, blockers) & empty & !g.between(fixed, s);
            if targets == 0 {
                continue;
            }
            let left = threats & !bit(s);
            if left == 0 {
                push_relocations(out, moved, s, targets);
                continue;
            }
            let stones_after = stones | bit(s);
            // Empty after the move, or the relocated worker's new square (whichever
            // it is): where the attacker may land a worker it moves, and where the
            // completion squares may be.
            let open = (empty | bit(moved)) & !bit(s);
            // The attacker moves the relocated worker, `fixed` stays: it must see a
            // completion square past the stones, with a landing square beside that
            // square off the way to `fixed`. No destination helps against that.
            let fixed_sees = g.sight(fixed, stones_after);
            let lost = squares(left & fixed_sees & open)
                .any(|c| g.neighbours[c] & open & !g.between(c, fixed) != 0);
            if lost {
                continue;
            }
            // The attacker moves `fixed`, the relocated worker on `t` stays: it must
            // see a completion square `c`, and `c` have a landing square (empty, or
            // `fixed` itself) that is neither `t` nor on the way to `t`: of the
            // neighbours of `c`, only the first step towards `t` is excluded.
            let mut bad = 0;
            for c in squares(left) {
                let seen_from = g.sight(c, stones_after);
                let near = g.neighbours[c] & (open | bit(fixed));
                bad |= if two_or_more(near) {
                    seen_from
                } else if near != 0 {
                    seen_from & !g.beyond(c, near.trailing_zeros() as usize) & !near
                } else {
                    0
                };
            }
            push_relocations(out, moved, s, targets & !bad);
        }
    }
    true
}

/// The walling-in threats of the side to move: moves after which the opponent has no
/// move that leaves both workers three *open* squares beside them (see
/// [`super::eval::has_safe_move`]), so that it may have no move left that escapes
/// walling in, its own stone included (whether it has a win of its own is the
/// caller's to check). Every other move leaves the opponent such a move, after which
/// no walling in is possible. Appended to `out` keyed by how much room the workers
/// keep (open squares beside them, fewest first).
pub fn wall_threat_moves(position: &Fabrik, out: &mut Vec<(u8, Move)>) {
    if position.winner.is_some() || position.phase() != Phase::Play {
        return;
    }
    let g = geometry();
    let start = out.len();
    let mut try_move = |mv: Move| {
        let mut child = *position;
        child.play(mv);
        if child.winner.is_some() {
            return;
        }
        let (a, b) = two_squares(child.workers);
        if !roomy_after_some_move(g, &child, a, b) {
            let empty = child.empty();
            let room = open_count(a, empty) + open_count(b, empty);
            out.push((room as u8, mv));
        }
    };
    position.each_relocation(g, |relocation, targets| {
        match relocation {
            None => squares(targets).for_each(|s| try_move(Move::place(s))),
            Some((moved, s)) => {
                squares(targets).for_each(|t| try_move(Move::relocate(moved, t, s)))
            }
        }
        true
    });
    out[start..].sort_by_key(|&(room, _)| room);
}

/// How many *open* squares (empty, with three or more empty neighbours) are beside
/// `worker`, counted up to three.
fn open_count(worker: usize, empty: Bb) -> u32 {
    let g = geometry();
    let mut open = 0;
    for n in squares(g.neighbours[worker] & empty) {
        if three_or_more(g.neighbours[n] & empty) {
            open += 1;
            if open == 3 {
                break;
            }
        }
    }
    open
}

/// Every move of the side to move after which the opponent has no win now (no line in
/// reach, no walling-in move), whatever the threat, appended to `out`: `true`, or
/// `false` (and `out` as it was) when there are more than `max`. Assumes the side to
/// move has no win now itself. Exact: each move is played and [`win_now`] asked.
pub fn any_answers(position: &Fabrik, out: &mut Vec<Move>, max: usize) -> bool {
    let start = out.len();
    if position.winner.is_some() || position.phase() != Phase::Play {
        return true;
    }
    let g = geometry();
    let mut answer = |mv: Move| -> bool {
        let mut child = *position;
        child.play(mv);
        if child.winner.is_some() || win_now(&child).is_none() {
            out.push(mv);
            if out.len() - start > max {
                return false;
            }
        }
        true
    };
    let complete = position.each_relocation(g, |relocation, targets| match relocation {
        None => squares(targets).all(|s| answer(Move::place(s))),
        Some((moved, s)) => squares(targets).all(|t| answer(Move::relocate(moved, t, s))),
    });
    if !complete {
        out.truncate(start);
    }
    complete
}

fn push_relocations(out: &mut Vec<Move>, moved: usize, square: usize, targets: Bb) {
    out.extend(squares(targets).map(|t| Move::relocate(moved, t, square)));
}
