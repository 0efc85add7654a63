//! Talpa evaluation: the race between the two paths.
//!
//! The default evaluation, from the side to move's view:
//! - *Separation* (100 per piece): for each side, the fewest pieces still standing
//!   between its two edges: a shortest path where empty squares cost 0 and pieces
//!   cost 1, computed on bitboards with one flood fill per cost layer
//!   ([`separation`]). The side closer to its path is better off.
//! - *Touching* (15 per piece, capture phase only): own pieces next to an enemy piece
//!   minus the opponent's. Contacts are symmetric (a red piece next to a blue one
//!   gives both a capture) but the pieces involved are not: more own pieces in
//!   contact means more ways to steer the end of the capture phase.
//! - *Late capture phase* (from the 24th empty square, where 8×8 games are decided):
//!   touching −45 and safe captures +60 a square ([`safe_captures`]), that is +15 a
//!   touching piece and −60 an *unsafe* one, whose capture would open the opponent's
//!   path: each narrows the compulsory captures left. Fitted to positions of that phase
//!   labelled by proofs (`examples/talpa_tune.rs --size 8`), where touching alone
//!   predicts nothing. Also, on 8×8 and up, the *contact separation* (100 per piece):
//!   the separation where every piece in contact with an enemy piece costs nothing
//!   ([`contact_separation`]), since each capture still pending empties one square of
//!   a contact; the labelled positions name it the strongest late term.
//! - A leaf whose side to move has one or two legal moves (captures are compulsory)
//!   is not judged statically but searched one ply on.
//!
//! The search is Fabrik's selective one ([`Selectivity`]): quiet moves ordered by their
//! history of cut-offs, late ones two plies shallower; at equal nodes it sees further.
//!
//! Other terms stay as parameters, off by default, because games did not show them to
//! help; the measurements (and why the material term was dropped) are in
//! `docs/experiments/talpa.md`.

use super::{Geometry, Move, Talpa};
use crate::game::{Game, Player};
use crate::search::Evaluator;
use crate::search::eval::Selectivity;

/// Weights of the evaluation terms (tunable; compared by playing games).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EvalParams {
    /// Cost of crossing an enemy piece in the separation (own pieces cost 1).
    pub enemy_cost: u32,
    /// Score per unit of separation difference.
    pub separation: i32,
    /// Score per piece of material difference.
    pub material: i32,
    /// Score for the side to move in the removal phase (negative: a burden).
    pub tempo: i32,
    /// Score per safe removal more than the opponent, in the removal phase.
    pub safe: i32,
    /// In the removal phase, enemy pieces block the separation for good (nobody
    /// removes them for you).
    pub removal_walls: bool,
    /// Score per own piece touching an enemy piece, more than the opponent's (the
    /// pieces that can still capture), in the capture phase.
    pub touching: i32,
    /// Score per unit of the separation difference where only own pieces can be
    /// crossed (enemy pieces are walls), in the capture phase.
    pub walled: i32,
    /// Score per safe capture square more than the opponent's, in the capture phase
    /// ([`safe_captures`]).
    pub safe_captures: i32,
    /// From this many empty squares on (the late capture phase, where 8×8 games are
    /// decided), `late_touching` and `late_safe_captures` replace `touching` and
    /// `safe_captures`.
    pub late_from: u32,
    pub late_touching: i32,
    pub late_safe_captures: i32,
    /// From `late_from` on (on boards of 8×8 and up), score per unit of the separation
    /// difference where the pieces in contact (either colour) cost nothing
    /// ([`contact_separation`]).
    pub late_contact: i32,
}

impl EvalParams {
    pub const DEFAULT: EvalParams = EvalParams {
        enemy_cost: 1,
        separation: 100,
        material: 0,
        tempo: 0,
        safe: 0,
        removal_walls: false,
        touching: 15,
        walled: 0,
        safe_captures: 0,
        late_from: 24,
        late_touching: -45,
        late_safe_captures: 60,
        late_contact: 100,
    };
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams::DEFAULT
    }
}

/// The fewest pieces `player` needs gone to have a path, where crossing one of
/// `player`'s own pieces costs 1 and an enemy piece `enemy_cost` (1 or 2). 0 means
/// the path exists.
/// `enemy_cost` 0 makes enemy pieces walls; the result is then `UNREACHABLE` when
/// they cut every path.
pub fn separation(position: &Talpa, player: Player, enemy_cost: u32) -> u32 {
    separation_over(position, player, position.empty(), enemy_cost)
}

/// [`separation`] with the squares of `open` (the empty ones, and maybe some pieces)
/// costing nothing.
fn separation_over(position: &Talpa, player: Player, open: u128, enemy_cost: u32) -> u32 {
    let g: &Geometry = position.geometry();
    let own = position.pieces(player);
    let enemy = position.pieces(player.other());
    let (cheap, dear) = match enemy_cost {
        0 => (own, 0),
        1 => (own | enemy, 0),
        _ => (own, enemy),
    };
    let (start, goal) = g.edges(player);
    let mut reach = g.flood(start, open);
    let mut pending = 0u128;
    let mut cost = 0;
    while reach & goal == 0 {
        let touched = (g.grow(reach) | start) & g.board & !reach;
        let entering = (touched & cheap) | pending;
        pending = touched & dear & !entering;
        reach = g.flood(reach | entering, open | reach | entering);
        cost += 1;
        if entering == 0 && pending == 0 {
            return UNREACHABLE; // walls cut every path
        }
    }
    cost
}

/// The separation of a side whose path is cut by walls.
pub const UNREACHABLE: u32 = 99;

/// The separation of `player` where the squares of `free` cost nothing, like empty
/// ones (every other piece costs 1): for example the pieces that captures still pending
/// will empty.
pub fn separation_through(position: &Talpa, player: Player, free: u128) -> u32 {
    let open = (position.empty() | free) & position.geometry().board;
    separation_over(position, player, open, 1)
}

/// The separation of `player` where every piece in contact with an enemy piece costs
/// nothing: the capture phase goes on until no contact is left, and every capture
/// empties one square of a contact (the capturer's), so these are the pieces the
/// captures still pending may take off a path.
pub fn contact_separation(position: &Talpa, player: Player) -> u32 {
    let g = position.geometry();
    let (red, blue) = (position.pieces(Player::P1), position.pieces(Player::P2));
    let contact = (red & g.grow(blue)) | (blue & g.grow(red));
    separation_through(position, player, contact)
}

/// The cut `player`'s opponent holds: the fewest pieces (of either colour) whose staying
/// blocks every path of `player`, which is also (Menger) the most paths of `player`
/// that share no piece (empty squares may be shared). Pieces never come back, so while
/// any such cut stands `player` has no path. On the grid a set of squares blocks every
/// path of orthogonal steps between two opposite edges exactly when it holds a chain of
/// king steps between the other two: the cut is the shortest chain of pieces across the
/// opponent's two edges, one king-step flood a piece of the chain; 0 when `player` has a
/// path. A king step crosses at most one file, so a cut is never shorter than the
/// board's side: what it tells is how far above that the thinnest line stands (a
/// feature of `examples/talpa_tune.rs`, not of the evaluation).
pub fn cut(position: &Talpa, player: Player) -> u32 {
    let g: &Geometry = position.geometry();
    let occupied = g.board & !position.empty();
    let (a, b) = g.edges(player.other());
    let mut reach = a & occupied;
    let mut cost = 1;
    while reach & b == 0 {
        let wide = reach | g.east(reach) | g.west(reach);
        let next = (wide | g.north(wide) | g.south(wide)) & occupied;
        if next == reach {
            return 0;
        }
        reach = next;
        cost += 1;
    }
    cost
}

/// The removals of `player`'s own pieces that do not open the opponent's path (in the
/// removal phase, the moves that side can still spend), and whether one of them opens
/// its own path (a win).
pub fn safe_removals(position: &Talpa, player: Player) -> (u32, bool) {
    let g = position.geometry();
    let empty = position.empty();
    let (own_a, own_b) = g.edges(player);
    let (their_a, their_b) = g.edges(player.other());
    let mut safe = 0;
    let mut wins = false;
    let mut pieces = position.pieces(player);
    // A piece with no empty neighbour leaves a lone empty square: always safe.
    let lonely = pieces & !g.grow(empty);
    safe += lonely.count_ones();
    pieces &= !lonely;
    while pieces != 0 {
        let bit = pieces & pieces.wrapping_neg();
        pieces &= pieces - 1;
        let region = g.flood(bit, empty | bit);
        if region & their_a != 0 && region & their_b != 0 {
            continue;
        }
        safe += 1;
        if region & own_a != 0 && region & own_b != 0 {
            wins = true;
        }
    }
    (safe, wins)
}

/// The squares `player` can empty by a capture (its pieces touching an enemy piece)
/// without opening the opponent's path. Emptying a square joins it to the empty regions
/// beside it, so it opens a path of the opponent's when it lies on, or beside an empty
/// region reaching, each of the opponent's two edges: two flood fills for all squares
/// at once. A side to move in the capture phase with none of them loses at once.
pub fn safe_captures(position: &Talpa, player: Player) -> u128 {
    let g = position.geometry();
    let empty = position.empty();
    let movable = position.pieces(player) & g.grow(position.pieces(player.other()));
    let (a, b) = g.edges(player.other());
    let near_a = g.grow(g.flood(a & empty, empty)) | a;
    let near_b = g.grow(g.flood(b & empty, empty)) | b;
    movable & !(near_a & near_b)
}

/// The occupied squares whose emptying alone would give `player` a path. Emptying a
/// square joins it to the empty regions beside it, so the new region touches an edge
/// when the square lies on it or beside an empty region that does: two flood fills
/// for every square at once (as [`safe_captures`]). Paths are never blocked (no move
/// fills a square), so an own piece here is a win waiting for the mover's chance to
/// empty it, and an enemy piece here is one the enemy may never move.
pub fn completing_squares(position: &Talpa, player: Player) -> u128 {
    let g = position.geometry();
    let empty = position.empty();
    let (a, b) = g.edges(player);
    let near_a = g.grow(g.flood(a & empty, empty)) | a;
    let near_b = g.grow(g.flood(b & empty, empty)) | b;
    near_a & near_b & g.board & !empty
}

/// `player`'s pieces whose emptying would make its own path and not the opponent's:
/// wins held in reserve (taken at once by a capture from there, or a removal).
pub fn latent_wins(position: &Talpa, player: Player) -> u128 {
    completing_squares(position, player)
        & position.pieces(player)
        & !completing_squares(position, player.other())
}

/// The evaluation as a value: its weights.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TalpaEval(pub EvalParams);

impl Default for TalpaEval {
    fn default() -> Self {
        TalpaEval(EvalParams::DEFAULT)
    }
}

impl Evaluator<Talpa> for TalpaEval {
    fn evaluate(&mut self, state: &Talpa) -> i32 {
        evaluate_with(state, &self.0)
    }

    fn order_hint(&mut self, state: &Talpa, mv: Move) -> i32 {
        order_hint(state, mv)
    }

    fn search_on(&mut self, state: &Talpa) -> bool {
        // Compulsory captures leave a side one or two moves at times: such a leaf's
        // static score hides what its few replies do, so they are searched.
        state.outcome().is_none() && state.count_moves() <= FEW_REPLIES
    }

    fn is_win_now(&self, score: i32) -> bool {
        // Only a move that wins at once scores that much (see `evaluate_with`).
        score == WIN_NOW
    }

    fn playout_move(&mut self, state: &Talpa, moves: &[Move], random: u64) -> Move {
        state.playout_choice(moves, random)
    }

    fn exploration(&self) -> f64 {
        super::playout::EXPLORATION
    }

    fn selectivity(&self) -> Selectivity {
        // Fabrik's: quiet moves ordered by their history of cut-offs beside the hints,
        // and from the ninth move on two plies shallower at depth 4 or more; near the
        // leaves the late moves of that order are left out (after the 12th at depth 1,
        // the 24th at depth 2). A narrower tree in the same nodes won games at a fixed
        // node count and on the clock (docs/experiments/talpa.md, thirteenth and
        // fourteenth passes).
        Selectivity {
            late_moves: [12, 24],
            reduce_more_from: 8,
            history: 100,
            ..Selectivity::NONE
        }
    }
}

/// The smallest board whose evaluation has the contact separation: it was fitted to and
/// played on 8×8; smaller boards keep the evaluation checked against their exact values.
const CONTACT_FROM_SIZE: usize = 8;

/// A leaf whose side to move has at most this many legal moves is searched on
/// ([`Evaluator::search_on`]): 2 scored more than 1 and 3 against the same opponent
/// (docs/strength.md, "Fourth pass").
const FEW_REPLIES: u64 = 2;

/// The score of a position whose side to move wins at once.
pub const WIN_NOW: i32 = 5_000;

/// A move with which the side to move wins at once, if any. Every move empties one
/// square; no path existed before it, so a path after it runs through that square:
/// the move wins when that square's empty region joins the mover's two edges and not
/// the opponent's (a path of the opponent's would lose the mover the game).
pub fn winning_move(position: &Talpa) -> Option<Move> {
    let us = position.side_to_move();
    let g = position.geometry();
    let empty = position.empty();
    let (own_a, own_b) = g.edges(us);
    let (their_a, their_b) = g.edges(us.other());
    let mut moves = Vec::new();
    position.generate_moves(&mut moves);
    moves.into_iter().find(|mv| {
        let bit = 1u128 << mv.emptied();
        let region = g.flood(bit, empty | bit);
        region & own_a != 0
            && region & own_b != 0
            && (region & their_a == 0 || region & their_b == 0)
    })
}

/// Evaluation from the side to move's point of view.
pub fn evaluate_with(position: &Talpa, params: &EvalParams) -> i32 {
    let us = position.side_to_move();
    let them = us.other();
    let capture_phase = position.in_capture_phase();
    let cost = if !capture_phase && params.removal_walls {
        0
    } else {
        params.enemy_cost
    };
    let cap = position.size() as u32 + 1;
    let ours = separation(position, us, cost).min(cap) as i32;
    let theirs = separation(position, them, cost).min(cap) as i32;
    let material =
        position.pieces(us).count_ones() as i32 - position.pieces(them).count_ones() as i32;
    // One square from a path: a move may open it now (exact, `is_win_now`).
    if ours == 1 && cost == 1 && position.outcome().is_none() && winning_move(position).is_some() {
        return WIN_NOW;
    }
    let mut score = params.separation * (theirs - ours) + params.material * material;
    if capture_phase {
        let late = position.empty().count_ones() >= params.late_from;
        let (touching, safe) = if late {
            (params.late_touching, params.late_safe_captures)
        } else {
            (params.touching, params.safe_captures)
        };
        if touching != 0 {
            let g = position.geometry();
            let (own, enemy) = (position.pieces(us), position.pieces(them));
            let ours = (own & g.grow(enemy)).count_ones() as i32;
            let theirs = (enemy & g.grow(own)).count_ones() as i32;
            score += touching * (ours - theirs);
        }
        if safe != 0 {
            let ours = safe_captures(position, us).count_ones() as i32;
            let theirs = safe_captures(position, them).count_ones() as i32;
            score += safe * (ours - theirs);
        }
        let contact = if late && position.size() >= CONTACT_FROM_SIZE {
            params.late_contact
        } else {
            0
        };
        if contact != 0 {
            let ours = contact_separation(position, us).min(cap) as i32;
            let theirs = contact_separation(position, them).min(cap) as i32;
            score += contact * (theirs - ours);
        }
        if params.walled != 0 {
            let ours = separation(position, us, 0).min(cap) as i32;
            let theirs = separation(position, them, 0).min(cap) as i32;
            score += params.walled * (theirs - ours);
        }
    } else {
        score += params.tempo;
        if params.safe != 0 {
            let (our_safe, we_win) = safe_removals(position, us);
            if we_win {
                return WIN_NOW;
            }
            let (their_safe, _) = safe_removals(position, them);
            score += params.safe * (our_safe as i32 - their_safe as i32);
        }
    }
    // Below the exact win now, whatever the weights.
    score.clamp(-(WIN_NOW - 1), WIN_NOW - 1)
}

/// Ordering hint: empty squares next to existing empty regions first (they grow the
/// regions that become paths), then the centre.
pub fn order_hint(position: &Talpa, mv: Move) -> i32 {
    let g = position.geometry();
    let square = mv.emptied();
    let bit = 1u128 << square;
    let neighbours = (g.grow(bit) & !bit & position.empty()).count_ones() as i32;
    let size = g.size as i32;
    let (file, rank) = (square as i32 % size, square as i32 / size);
    let centre = -((2 * file - size + 1).abs() + (2 * rank - size + 1).abs());
    neighbours * 16 + centre
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Outcome;

    #[test]
    fn leaves_with_one_or_two_replies_are_searched_on() {
        // Random games on 6×6 and 8×8: exactly the positions whose mover has one or
        // two legal moves are searched on, and such positions occur.
        let mut rng = crate::rng::Xorshift::new(13);
        let mut eval = TalpaEval::default();
        let mut few = 0;
        for size in [6, 8] {
            for _ in 0..100 {
                let mut s = Talpa::start(&super::super::Config { size });
                while s.outcome().is_none() {
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    assert_eq!(eval.search_on(&s), moves.len() <= 2, "{}", s.fen());
                    few += usize::from(moves.len() <= 2);
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
                assert!(!eval.search_on(&s));
            }
        }
        assert!(few > 100, "{few}");
    }

    #[test]
    fn the_win_now_is_a_win_and_none_is_missed() {
        // Random games on 4×4, 6×6 and 8×8: a winning move found wins at once, and
        // where none is found no move wins at once.
        let mut rng = crate::rng::Xorshift::new(11);
        let mut eval = TalpaEval::default();
        let mut wins = 0;
        for size in [4, 6, 8] {
            for _ in 0..200 {
                let mut s = Talpa::start(&super::super::Config { size });
                while s.outcome().is_none() {
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    let us = s.side_to_move();
                    let exists = moves.iter().any(|&mv| {
                        let mut child = s;
                        child.play(mv);
                        child.outcome() == Some(Outcome::Win(us))
                    });
                    let found = (separation(&s, us, 1) == 1)
                        .then(|| winning_move(&s))
                        .flatten();
                    match found {
                        Some(mv) => {
                            let mut child = s;
                            child.play(mv);
                            assert_eq!(child.outcome(), Some(Outcome::Win(us)));
                            assert_eq!(eval.evaluate(&s), WIN_NOW);
                            wins += 1;
                        }
                        None => {
                            assert!(!exists);
                            assert_ne!(eval.evaluate(&s), WIN_NOW);
                        }
                    }
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        assert!(wins > 50, "{wins}");
    }

    #[test]
    fn safe_captures_are_the_captures_that_do_not_lose_at_once() {
        // Random games on 4×4, 6×6 and 8×8: in the capture phase, a capture loses at
        // once (the opponent's path opens) exactly when it leaves a square that
        // `safe_captures` does not list; and every listed square has a capture.
        let mut rng = crate::rng::Xorshift::new(17);
        let (mut safe, mut unsafe_) = (0, 0);
        for size in [4, 6, 8] {
            for _ in 0..100 {
                let mut s = Talpa::start(&super::super::Config { size });
                while s.outcome().is_none() {
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    let us = s.side_to_move();
                    if s.in_capture_phase() {
                        let listed = safe_captures(&s, us);
                        let mut leaves = 0u128;
                        for &mv in &moves {
                            let bit = 1u128 << mv.emptied();
                            leaves |= bit;
                            let mut child = s;
                            child.play(mv);
                            let loses = child.outcome() == Some(Outcome::Win(us.other()));
                            assert_eq!(loses, listed & bit == 0, "{} {mv:?}", s.fen());
                            if loses {
                                unsafe_ += 1;
                            } else {
                                safe += 1;
                            }
                        }
                        assert_eq!(listed & !leaves, 0, "{}", s.fen());
                    }
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        assert!(safe > 1000 && unsafe_ > 50, "{safe} {unsafe_}");
    }

    #[test]
    fn completing_squares_are_the_squares_that_open_a_path() {
        // Random games on 4×4, 6×6 and 8×8: an occupied square is listed exactly when
        // emptying it alone (a slow flood from it) makes the player's path.
        let mut rng = crate::rng::Xorshift::new(19);
        let mut listed_count = 0;
        for size in [4, 6, 8] {
            for _ in 0..100 {
                let mut s = Talpa::start(&super::super::Config { size });
                while s.outcome().is_none() {
                    let g = s.geometry();
                    let empty = s.empty();
                    for player in [Player::P1, Player::P2] {
                        let listed = completing_squares(&s, player);
                        let latent = latent_wins(&s, player);
                        let mut occupied = g.board & !empty;
                        while occupied != 0 {
                            let bit = occupied & occupied.wrapping_neg();
                            occupied &= occupied - 1;
                            let opens = |who: Player| g.has_path(empty | bit, who);
                            assert_eq!(listed & bit != 0, opens(player), "{}", s.fen());
                            let reserve = s.pieces(player) & bit != 0
                                && opens(player)
                                && !opens(player.other());
                            assert_eq!(latent & bit != 0, reserve, "{}", s.fen());
                            listed_count += usize::from(listed & bit != 0);
                        }
                    }
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        assert!(listed_count > 500, "{listed_count}");
    }

    /// The most paths of `player` sharing no piece, by augmenting paths (Ford–Fulkerson
    /// on the squares split in two, a piece passing one path and an empty square any
    /// number): Menger's count, found without the grid's duality.
    fn disjoint_paths(s: &Talpa, player: Player) -> u32 {
        let n = s.size();
        let squares = n * n;
        // Node 2q is square q's entry, 2q+1 its exit; then the source and the sink.
        let (source, sink) = (2 * squares, 2 * squares + 1);
        let nodes = 2 * squares + 2;
        let mut cap = vec![vec![0u32; nodes]; nodes];
        let big = squares as u32;
        let empty = s.empty();
        let (a, b) = s.geometry().edges(player);
        for q in 0..squares {
            let bit = 1u128 << q;
            cap[2 * q][2 * q + 1] = if empty & bit != 0 { big } else { 1 };
            if a & bit != 0 {
                cap[source][2 * q] = big;
            }
            if b & bit != 0 {
                cap[2 * q + 1][sink] = big;
            }
            let (file, rank) = (q % n, q / n);
            let mut link = |r: usize| cap[2 * q + 1][2 * r] = big;
            if file > 0 {
                link(q - 1);
            }
            if file + 1 < n {
                link(q + 1);
            }
            if rank > 0 {
                link(q - n);
            }
            if rank + 1 < n {
                link(q + n);
            }
        }
        let mut flow = 0;
        loop {
            let mut parent = vec![usize::MAX; nodes];
            parent[source] = source;
            let mut queue = std::collections::VecDeque::from([source]);
            while let Some(u) = queue.pop_front() {
                for v in 0..nodes {
                    if parent[v] == usize::MAX && cap[u][v] > 0 {
                        parent[v] = u;
                        queue.push_back(v);
                    }
                }
            }
            if parent[sink] == usize::MAX {
                return flow;
            }
            let mut v = sink;
            while v != source {
                let u = parent[v];
                cap[u][v] -= 1;
                cap[v][u] += 1;
                v = u;
            }
            flow += 1;
            if flow >= big {
                return flow; // a path of empty squares: any number of paths
            }
        }
    }

    /// The fewest pieces to cross with `free` costing nothing, by Dijkstra's relaxation
    /// square by square.
    fn slow_separation(s: &Talpa, player: Player, free: u128) -> u32 {
        let n = s.size();
        let open = s.empty() | free;
        let cost = |q: usize| u32::from(open & (1u128 << q) == 0);
        let (a, b) = s.geometry().edges(player);
        let mut dist = vec![u32::MAX; n * n];
        for (q, d) in dist.iter_mut().enumerate() {
            if a & (1u128 << q) != 0 {
                *d = cost(q);
            }
        }
        loop {
            let mut changed = false;
            for q in 0..n * n {
                let (file, rank) = (q % n, q / n);
                let mut near = Vec::new();
                if file > 0 {
                    near.push(q - 1);
                }
                if file + 1 < n {
                    near.push(q + 1);
                }
                if rank > 0 {
                    near.push(q - n);
                }
                if rank + 1 < n {
                    near.push(q + n);
                }
                for r in near {
                    if dist[r] != u32::MAX && dist[r] + cost(q) < dist[q] {
                        dist[q] = dist[r] + cost(q);
                        changed = true;
                    }
                }
            }
            if !changed {
                break;
            }
        }
        (0..n * n)
            .filter(|&q| b & (1u128 << q) != 0)
            .map(|q| dist[q])
            .min()
            .unwrap_or(u32::MAX)
    }

    #[test]
    fn the_cut_is_the_most_disjoint_paths_and_contact_pieces_can_be_free() {
        // Random games on 4×4, 6×6 and 8×8: the cut is Menger's count of paths sharing
        // no piece (0 exactly when the player has a path), and the separation through
        // free squares is Dijkstra's, with the contact pieces free or none.
        let mut rng = crate::rng::Xorshift::new(31);
        let mut seen = [0usize; 4];
        for size in [4, 6, 8] {
            for _ in 0..40 {
                let mut s = Talpa::start(&super::super::Config { size });
                loop {
                    let g = s.geometry();
                    for player in [Player::P1, Player::P2] {
                        let c = cut(&s, player);
                        let has_path = g.has_path(s.empty(), player);
                        assert_eq!(c == 0, has_path, "{}", s.fen());
                        if !has_path {
                            assert_eq!(c, disjoint_paths(&s, player), "{}", s.fen());
                        }
                        // The cut 0 (a path), the side, the side and 1, more.
                        let above = (c as usize + 1).saturating_sub(size);
                        seen[if c == 0 { 0 } else { above.min(3) }] += 1;
                        let (own, enemy) = (s.pieces(player), s.pieces(player.other()));
                        let contact = (own & g.grow(enemy)) | (enemy & g.grow(own));
                        assert_eq!(
                            contact_separation(&s, player),
                            slow_separation(&s, player, contact),
                            "{}",
                            s.fen()
                        );
                        for free in [0, own & g.grow(enemy), (own | enemy) & g.grow(s.empty())] {
                            assert_eq!(
                                separation_through(&s, player, free),
                                slow_separation(&s, player, free),
                                "{}",
                                s.fen()
                            );
                        }
                        assert_eq!(
                            separation_through(&s, player, 0),
                            separation(&s, player, 1),
                            "{}",
                            s.fen()
                        );
                    }
                    if s.outcome().is_some() {
                        break;
                    }
                    let mut moves = Vec::new();
                    s.generate_moves(&mut moves);
                    s.play(moves[rng.below(moves.len() as u64) as usize]);
                }
            }
        }
        // Cuts above the board's side are rare in random games, but they occur.
        assert!(
            seen[0] > 50 && seen[1] > 1000 && seen[2] + seen[3] > 10,
            "{seen:?}"
        );
    }

    #[test]
    fn late_in_the_capture_phase_unsafe_capture_squares_cost() {
        // Random 8×8 games: in the capture phase with no win now, the evaluation is the
        // separation and 15 a touching piece, and from the 24th empty square on also
        // -60 a square whose every capture opens the opponent's path (found by playing
        // the captures, for each side as if it were to move) and 100 a piece of the
        // separation with the pieces in contact free.
        let mut rng = crate::rng::Xorshift::new(29);
        let mut eval = TalpaEval::default();
        let mut late = 0;
        let unsafe_squares = |s: &Talpa, player: Player| {
            let mover = Talpa::from_parts(
                8,
                s.pieces(Player::P1),
                s.pieces(Player::P2),
                player,
                s.plies(),
            );
            let mut moves = Vec::new();
            mover.generate_moves(&mut moves);
            let (mut safe, mut all) = (0u128, 0u128);
            for mv in moves {
                let bit = 1u128 << mv.emptied();
                all |= bit;
                let mut child = mover;
                child.play(mv);
                if child.outcome() != Some(Outcome::Win(player.other())) {
                    safe |= bit;
                }
            }
            (all & !safe).count_ones() as i32
        };
        for _ in 0..200 {
            let mut s = Talpa::start(&super::super::Config { size: 8 });
            while s.outcome().is_none() {
                let score = eval.evaluate(&s);
                if s.in_capture_phase() && score != WIN_NOW {
                    let (us, them) = (s.side_to_move(), s.side_to_move().other());
                    let g = s.geometry();
                    let touching =
                        |p: Player| (s.pieces(p) & g.grow(s.pieces(p.other()))).count_ones() as i32;
                    let sep = |p: Player| separation(&s, p, 1).min(9) as i32;
                    let mut expected =
                        100 * (sep(them) - sep(us)) + 15 * (touching(us) - touching(them));
                    if s.empty().count_ones() >= 24 {
                        expected -= 60 * (unsafe_squares(&s, us) - unsafe_squares(&s, them));
                        // Every piece in contact free, by the slow separation.
                        let (red, blue) = (s.pieces(Player::P1), s.pieces(Player::P2));
                        let contact = (red & g.grow(blue)) | (blue & g.grow(red));
                        let free = |p: Player| slow_separation(&s, p, contact).min(9) as i32;
                        expected += 100 * (free(them) - free(us));
                        late += 1;
                    }
                    assert_eq!(score, expected, "{}", s.fen());
                }
                let mut moves = Vec::new();
                s.generate_moves(&mut moves);
                s.play(moves[rng.below(moves.len() as u64) as usize]);
            }
        }
        assert!(late > 200, "{late}");
    }
}
