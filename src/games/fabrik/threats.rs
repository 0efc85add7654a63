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
//!   and its own stone may be the one that walls it in. Moves that leave the other
//!   side an *escape* found beforehand ([`Escape`]) are not played; the answers skip
//!   the replies that leave a walling-in move standing. Both are tested against their
//!   play-every-move versions (`*_by_playing`).
//!
//! The answers are the only moves worth searching when the opponent has a four: every
//! other move loses at once. Tested against brute force in `tests/fabrik.rs`.

use super::eval::{WallInStart, completions, reach_within, roomy_after_some_move, wall_in_move};
use super::geometry::{Bb, Geometry, bit, geometry, three_or_more, two_or_more};
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
///
/// Only the moves that no [`Escape`] rules out are played and tested (the same test as
/// [`wall_threat_moves_by_playing`], which plays them all): in a middle game a few
/// dozen of the ~700, and the same moves in the same order.
pub fn wall_threat_moves(position: &Fabrik, out: &mut Vec<(u8, Move)>) {
    if position.winner.is_some() || position.phase() != Phase::Play {
        return;
    }
    let g = geometry();
    let start = out.len();
    let mut try_move = |mv: Move| test_threat(position, mv, out);
    let empty = position.empty();
    let stones = position.stones[0] | position.stones[1];
    let (a, b) = two_squares(position.workers);
    // Placements (the workers stay): escapes in the position as it is, for the other
    // side, whose moves are the same.
    let mut placing = Escapes::new();
    let mut seen = 0;
    for s in squares(position.placeable()) {
        if placing.full() || seen == MAX_ESCAPES {
            break;
        }
        let after = empty & !bit(s);
        if roomy(a, after) && roomy(b, after) {
            seen += 1;
            placing.add(Escape {
                touch: g.between(a, s)
                    | g.between(b, s)
                    | bit(s)
                    | critical(g, a, after)
                    | critical(g, b, after),
                landing: NO_SQUARE,
            });
        }
    }
    for (moved, fixed) in [(b, a), (a, b)] {
        escapes(
            g,
            fixed,
            stones,
            empty | bit(moved),
            !bit(moved),
            &mut placing,
        );
    }
    // Relocations of `moved` to `t`, `fixed` staying: the other side may move the worker
    // on `t` on (escapes found once, without `t`), or move `fixed` (escapes found for
    // each `t` that needs them).
    let mut relocating = Escapes::new();
    let mut relocating_for = NO_SQUARE;
    let mut known: Bb = 0;
    let mut per_target = [0 as Bb; 128];
    position.each_relocation(g, |relocation, targets| {
        match relocation {
            // The placement escapes land no worker the attacker moved.
            None => squares(targets & placing.common).for_each(|s| try_move(Move::place(s))),
            Some((moved, s)) => {
                let fixed = if moved == a { b } else { a };
                if relocating_for != moved {
                    relocating_for = moved;
                    relocating = Escapes::new();
                    escapes(g, fixed, stones, empty | bit(moved), !0, &mut relocating);
                    known = 0;
                }
                for t in squares(targets) {
                    if relocating.hold(s, t) {
                        continue;
                    }
                    if known & bit(t) == 0 {
                        known |= bit(t);
                        let mut by_fixed = Escapes::new();
                        let free = (empty | bit(moved) | bit(fixed)) & !bit(t);
                        escapes_within(g, t, stones, free, !bit(fixed), &mut by_fixed, false);
                        per_target[t & 127] = by_fixed.common;
                    }
                    if per_target[t & 127] & bit(s) != 0 {
                        try_move(Move::relocate(moved, t, s));
                    }
                }
            }
        }
        true
    });
    out[start..].sort_by_key(|&(room, _)| room);
}

/// [`wall_threat_moves`] by playing every move and testing it: the oracle its tests
/// compare it with.
pub fn wall_threat_moves_by_playing(position: &Fabrik, out: &mut Vec<(u8, Move)>) {
    if position.winner.is_some() || position.phase() != Phase::Play {
        return;
    }
    let g = geometry();
    let start = out.len();
    let mut try_move = |mv: Move| test_threat(position, mv, out);
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

/// The exact test of a walling-in threat: plays `mv` and appends it to `out` (keyed by
/// the room left beside the workers) when the opponent then has no roomy move.
fn test_threat(position: &Fabrik, mv: Move, out: &mut Vec<(u8, Move)>) {
    let mut child = *position;
    child.play(mv);
    if child.winner.is_some() {
        return;
    }
    let (a, b) = two_squares(child.workers);
    if !roomy_after_some_move(geometry(), &child, a, b) {
        let empty = child.empty();
        let room = open_count(a, empty) + open_count(b, empty);
        out.push((room as u8, mv));
    }
}

/// No square (an escape that lands no worker the attacker moved).
const NO_SQUARE: usize = usize::MAX;
/// Escapes kept per kind: enough to rule out almost every move that is no threat.
const MAX_ESCAPES: usize = 4;

/// An *escape*: a move of the defender, found before the attacker's move, that leaves
/// both workers three open squares beside them (a move [`roomy_after_some_move`] finds)
/// and is still one after any attacker move that puts its stone outside `touch` (the
/// squares its sight lines cross, its own two squares, and those whose filling would
/// take a worker's third open square) and, when `landing` is a square, does not move
/// a worker to `landing` (where the escape lands the worker the attacker moved). An
/// attacker move that leaves the defender an escape is no walling-in threat.
#[derive(Clone, Copy, Debug)]
struct Escape {
    touch: Bb,
    landing: usize,
}

/// A few escapes, and the squares every one of them touches.
struct Escapes {
    list: [Escape; MAX_ESCAPES],
    len: usize,
    common: Bb,
}

impl Escapes {
    fn new() -> Self {
        Escapes {
            list: [Escape {
                touch: 0,
                landing: NO_SQUARE,
            }; MAX_ESCAPES],
            len: 0,
            common: !0,
        }
    }

    fn full(&self) -> bool {
        self.len == MAX_ESCAPES
    }

    /// Keeps `escape` if it rules out a move that those kept do not.
    fn add(&mut self, escape: Escape) {
        if self.full() || (self.common & !escape.touch == 0 && self.len > 0) {
            return;
        }
        self.list[self.len] = escape;
        self.len += 1;
        self.common &= escape.touch;
    }

    /// Whether one of the escapes holds after the attacker's stone on `stone` with the
    /// worker it moved on `landing` ([`NO_SQUARE`] for none).
    fn hold(&self, stone: usize, landing: usize) -> bool {
        self.common & bit(stone) == 0
            && self.list[..self.len].iter().any(|e| {
                e.touch & bit(stone) == 0 && (e.landing == NO_SQUARE || e.landing != landing)
            })
    }
}

/// Adds to `found` the escapes that keep `fixed` where it is and move the other worker
/// beside a stone of the defender's on a square `fixed` sees: `free` the squares the
/// defender may fill (those empty once the other worker has left), `landing_ok` where
/// that worker may go. The landing is recorded when it can be the attacker's (a worker
/// the attacker moved may stand there).
fn escapes(g: &Geometry, fixed: usize, stones: Bb, free: Bb, landing_ok: Bb, found: &mut Escapes) {
    escapes_within(g, fixed, stones, free, landing_ok, found, true);
}

/// [`escapes`], with `exact` the squares that would take a worker's third open square
/// worked out; otherwise the whole 5×5 boxes of the workers count as touched (cheaper,
/// where the attacker's stone is mostly far from them).
fn escapes_within(
    g: &Geometry,
    fixed: usize,
    stones: Bb,
    free: Bb,
    landing_ok: Bb,
    found: &mut Escapes,
    exact: bool,
) {
    let record_landing = landing_ok == !0;
    // Escapes looked at (kept or not): past a few, more rarely rule out more.
    let mut seen = 0;
    for s in squares(g.sight(fixed, stones) & free) {
        let on_way = g.between(fixed, s);
        for t in squares(g.neighbours[s] & free & landing_ok & !on_way) {
            if found.full() || seen == MAX_ESCAPES {
                return;
            }
            let after = free & !bit(s) & !bit(t);
            if !roomy(fixed, after) || !roomy(t, after) {
                continue;
            }
            seen += 1;
            let boxes = if exact {
                critical(g, fixed, after) | critical(g, t, after)
            } else {
                g.near2[fixed] | g.near2[t]
            };
            found.add(Escape {
                touch: on_way | bit(s) | bit(t) | boxes,
                landing: if record_landing { t } else { NO_SQUARE },
            });
        }
    }
}

/// Whether `worker` has three or more open squares beside it, `empty` the empty squares.
fn roomy(worker: usize, empty: Bb) -> bool {
    open_count(worker, empty) >= 3
}

/// The empty squares whose filling leaves `worker` (which has three open squares
/// beside it) fewer than three. A stone on `s` closes the open square `n` beside the
/// worker when `s` is `n`, or a neighbour of `n` that has exactly three empty
/// neighbours; the critical squares close more of them than the worker can spare.
fn critical(g: &Geometry, worker: usize, empty: Bb) -> Bb {
    // closing[k]: the squares that close more than k open squares.
    let mut closing = [0 as Bb; 8];
    let mut open = 0;
    for n in squares(g.neighbours[worker] & empty) {
        let around = g.neighbours[n] & empty;
        if !three_or_more(around) {
            continue;
        }
        open += 1;
        let closes = bit(n) | if around.count_ones() == 3 { around } else { 0 };
        for k in (1..8).rev() {
            closing[k] |= closing[k - 1] & closes;
        }
        closing[0] |= closes;
    }
    if open < 3 {
        return !0;
    }
    closing[open - 3]
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
/// move has no win now itself. Exact: each move is played and [`win_now`] asked, but
/// for the moves that leave a walling-in move of the position standing
/// ([`WallIns`]), which are none.
pub fn any_answers(position: &Fabrik, out: &mut Vec<Move>, max: usize) -> bool {
    let walls = WallIns::of(position);
    answers_among(position, out, max, |relocation, s| {
        walls.may_answer(relocation, s)
    })
}

/// [`any_answers`] by playing every move: the oracle its tests compare it with.
pub fn any_answers_by_playing(position: &Fabrik, out: &mut Vec<Move>, max: usize) -> bool {
    answers_among(position, out, max, |_, _| true)
}

/// [`any_answers`] among the moves for which `may` (given the worker moved, if any,
/// and the square placed on) is `true`: the others must be no answers.
fn answers_among(
    position: &Fabrik,
    out: &mut Vec<Move>,
    max: usize,
    may: impl Fn(Option<usize>, usize) -> bool,
) -> bool {
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
        None => squares(targets)
            .filter(|&s| may(None, s))
            .all(|s| answer(Move::place(s))),
        Some((moved, s)) => {
            !may(Some(moved), s) || squares(targets).all(|t| answer(Move::relocate(moved, t, s)))
        }
    });
    if !complete {
        out.truncate(start);
    }
    complete
}

/// Moves that wall the workers in (whoever plays them), gathered to rule out the
/// opponent's replies that leave one standing. A walling-in move `W` stays one after a
/// reply that adds a stone off the squares `W` needs (the sight lines it uses, its
/// stone's square and its worker's landing), because stones only take placements
/// away; when the reply moves the worker `W` moves, `W` is still played from the
/// worker's new square (it lands where `W` lands), and when `W` moves no worker, the
/// worker moved by the reply can go back where it was (unless the reply's stone is
/// there).
struct WallIns {
    /// The squares every walling-in move without a worker move needs.
    placing: Bb,
    /// The same for the walling-in moves that move each worker (the first, the second
    /// of [`two_squares`]).
    moving: [Bb; 2],
    workers: [usize; 2],
}

/// Walling-in moves gathered per kind: a few rule out almost every reply.
const MAX_WALL_INS: u32 = 4;

impl WallIns {
    fn of(position: &Fabrik) -> WallIns {
        let g = geometry();
        let (a, b) = two_squares(position.workers);
        let mut found = WallIns {
            placing: !0,
            moving: [!0, !0],
            workers: [a, b],
        };
        if position.winner.is_some() {
            return found;
        }
        let Some(start) = WallInStart::of(position) else {
            return found;
        };
        // As in `wall_in_move`: a walling-in move fills every open square beside the
        // worker that stays and beside the moved worker's landing.
        let mut counts = [0u32; 3];
        position.each_relocation(g, |relocation, targets| {
            let candidates = start.candidates(relocation, targets);
            match relocation {
                None => {
                    for s in squares(candidates) {
                        if counts[0] < MAX_WALL_INS && start.walls_in(Move::place(s)) {
                            counts[0] += 1;
                            found.placing &= g.between(a, s) | g.between(b, s) | bit(s);
                        }
                    }
                }
                Some((moved, s)) => {
                    let kind = usize::from(moved == b);
                    let fixed = if moved == a { b } else { a };
                    for t in squares(candidates) {
                        if counts[1 + kind] < MAX_WALL_INS
                            && start.walls_in(Move::relocate(moved, t, s))
                        {
                            counts[1 + kind] += 1;
                            found.moving[kind] &=
                                g.between(fixed, s) | g.between(s, t) | bit(s) | bit(t);
                        }
                    }
                }
            }
            counts.iter().any(|&c| c < MAX_WALL_INS)
        });
        found
    }

    /// Whether a reply that moves `moved` (if any) and places on `stone` may leave no
    /// walling-in move standing.
    fn may_answer(&self, moved: Option<usize>, stone: usize) -> bool {
        match moved {
            None => self.placing & self.moving[0] & self.moving[1] & bit(stone) != 0,
            Some(worker) => {
                let kind = usize::from(worker == self.workers[1]);
                self.moving[kind] & (self.placing | bit(worker)) & bit(stone) != 0
            }
        }
    }
}

fn push_relocations(out: &mut Vec<Move>, moved: usize, square: usize, targets: Bb) {
    out.extend(squares(targets).map(|t| Move::relocate(moved, t, square)));
}
