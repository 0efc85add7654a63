//! Fabrik evaluation: lines, and which squares the workers let a side reach.
//!
//! - *Reach*: the squares where the side to move can place a stone this turn, after
//!   any relocation ([`reach`]; exact, computed per square from the geometry).
//! - *Completion squares*: empty (or worker) squares that would finish a line of
//!   `LineLength` for a colour. A completion square of the side to move inside its reach
//!   is a win now; the opponent's completion squares are threats the side to move must
//!   block with a stone or hide from the workers. Two cost more than one, but far less
//!   than a lost game: one is blocked while the workers' sight leaves the others.
//! - *Walling in*: most games end not with a line but with a side to move that has no
//!   placeable square, both workers walled in by stones. A move that does that to the
//!   opponent is a win now too ([`can_leave_no_move`], exact and cheap: only workers
//!   with few open squares around them are tried).
//! - *Windows*: every segment of `LineLength` squares holding stones of one colour only
//!   scores for that colour by how many it holds (open and half-open runs score in
//!   several windows, dead ones in none); workers do not kill a window (they move).
//! - *Dead squares and room*: a square with fewer than two neighbours that are not
//!   stones can never take a stone ([`fillable`]). Windows through one score nothing,
//!   and such a completion square is no threat: late in a game many lines are dead this
//!   way. A window whose squares all have three, four, or five such neighbours scores
//!   again for each of those tiers ([`open_tiers`]), with lines of 5 more for the
//!   roomiest: the workers can reach its squares from more sides, and a stone beside
//!   them does not kill them.

use super::forcing::Forcing;
use super::geometry::{
    Bb, DIRECTIONS, Geometry, STRIDE, bit, geometry, three_or_more, two_or_more,
};
use super::{Fabrik, KIND_SHIFT, Move, MoveKind, Phase, two_squares};
use crate::game::{Game, Player};
use crate::search::Evaluator;

/// Score of a window holding `k` stones of one colour, by line length 4 and 5, for
/// each tier of [`open_tiers`] that holds all its squares without a stone (2, 3, 4 and
/// 5 or more neighbours that are not stones): a window scores the sum over its tiers.
/// A window one stone short of a line of 5 is worth much more than the ladder below
/// it: its completion square is a threat the opponent must keep answering. Windows of
/// 5 with room all round (the top two tiers) are worth more than the ladder's steps:
/// the workers can bring them into reach from every side. Both fitted to the share of
/// safe playouts won (docs/experiments/fabrik.md, twenty-fifth and twenty-sixth
/// passes).
const WINDOW_4: [[i32; 4]; 4] = [[0; 4], [2; 4], [14; 4], [60; 4]];
const WINDOW_5: [[i32; 4]; 5] = [
    [0; 4],
    [1, 1, 3, 9],
    [6, 6, 11, 14],
    [30, 30, 45, 70],
    [200; 4],
];
/// The side to move has a completion square it can reach: it wins at once.
pub const WIN_NOW: i32 = 10_000;
/// The opponent has two or more completion squares, one has. Two are no forced loss:
/// the side to move blocks one and takes the workers' sight off the others. Fitted to
/// the games' outcomes, two cost about 200 in all, not 1,500; half that cut is
/// taken (docs/experiments/fabrik.md, twenty-seventh pass).
const DOUBLE_THREAT: i32 = 700;
const SINGLE_THREAT: i32 = 120;
/// Each opponent completion square the side to move cannot reach (cannot block by
/// placing there), in the experiment with quarter threat terms only. The engine as
/// played does not charge it: the workers are shared, so such a square is mostly out
/// of the opponent's reach too (fitted to 11×11 outcomes the term came out slightly
/// positive; without it the engine won more games on 11×11 and on 7×7;
/// docs/experiments/fabrik.md, tenth and eleventh passes).
const UNBLOCKABLE: i32 = 400;
/// The side to move cannot win at once and every move it has lets the opponent wall
/// the workers in ([`has_safe_move`]): lost in two plies (below every other score).
const LOST_IN_TWO: i32 = WIN_NOW - 1;
/// How many moves [`has_safe_move`] may test exactly (each a look at the opponent's
/// walling-in moves) at a leaf, and at an inner node (where a proven loss is stored
/// in the table and so pays for itself).
const LEAF_BUDGET: u32 = 24;
const INNER_BUDGET: u32 = 400;
/// The move.
const TEMPO: i32 = 10;
/// Each empty square of a window with `LineLength - 2` or more own stones (and no
/// opposing one) that the side to move can place on now, or that the opponent's
/// workers see (so that it can place there next turn after relocating).
const LIVE: i32 = 6;

/// Which terms the evaluation and its search hooks use: [`Terms::SHIPPED`] is the
/// engine as played, the others are experiments for engine-against-engine matches
/// (`examples/fabrik_match.rs`, which name them by number: [`Terms::experiment`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Terms {
    /// How the completion squares (threats of a line) score.
    pub threats: ThreatTerms,
    /// Worker control ([`live_score`]): needs the reach of every square.
    pub live: bool,
    /// A move that walls the opponent in is a win now ([`can_leave_no_move`]).
    pub walling_in: bool,
    /// No move that escapes walling in: lost in two ([`has_safe_move`]), at the leaves
    /// and at inner nodes.
    pub mobility_end: bool,
    /// A node facing a walling-in threat searches only its answers (at most
    /// [`WALL_REPLIES_MAX`]; more, and all its moves).
    pub wall_replies: bool,
    /// A move after which the opponent is cramped (no move of its keeps three open
    /// squares beside both workers, [`walling_in_threat`]) counts as a threat
    /// ([`Evaluator::threatened`]): with `Selectivity::full_depth_threats`, never reduced.
    pub wall_threats: bool,
}

/// The scale of the threat terms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThreatTerms {
    Full,
    Quarter,
    Off,
}

impl Terms {
    /// The engine as played.
    pub const SHIPPED: Terms = Terms {
        threats: ThreatTerms::Full,
        live: false,
        walling_in: true,
        mobility_end: true,
        wall_replies: false,
        wall_threats: false,
    };

    /// The experiments by number, as the examples take them: 0 as shipped, 1 no threat
    /// terms, 2 worker control added, 3 threat terms a quarter as large, 4 no walling-in
    /// win, 5 no mobility end, 6 walling-in replies (instead of the mobility end found
    /// by [`has_safe_move`] at inner nodes), 7 walling-in threats not reduced. Other
    /// numbers: as shipped.
    pub fn experiment(number: u8) -> Terms {
        let shipped = Terms::SHIPPED;
        match number {
            1 => Terms {
                threats: ThreatTerms::Off,
                ..shipped
            },
            2 => Terms {
                live: true,
                ..shipped
            },
            3 => Terms {
                threats: ThreatTerms::Quarter,
                ..shipped
            },
            4 => Terms {
                walling_in: false,
                ..shipped
            },
            5 => Terms {
                mobility_end: false,
                ..shipped
            },
            6 => Terms {
                wall_replies: true,
                ..shipped
            },
            7 => Terms {
                wall_threats: true,
                ..shipped
            },
            _ => shipped,
        }
    }
}

/// The evaluation as a value: which terms, and the move-ordering cache of the searcher
/// that owns it.
#[derive(Clone, Debug)]
pub struct FabrikEval {
    pub terms: Terms,
    hints: Box<HintCache>,
    stone_terms: StoneTerms,
    /// The forcing search the searcher asks for proofs ([`Evaluator::forced_win`]).
    forcing: Forcing,
}

/// Nodes this close to the leaves may stand pat ([`Evaluator::stand_pat_depth`]): a
/// placement rarely hurts its owner.
const STAND_PAT_DEPTH: i32 = 0;

/// The most answers to a walling-in threat searched alone ([`Terms::wall_replies`]).
const WALL_REPLIES_MAX: usize = 48;

/// The longest forcing line looked for, in plies.
const FORCING_PLIES: u32 = 15;

impl FabrikEval {
    /// The evaluation with `terms`.
    pub fn with_terms(terms: Terms) -> Self {
        FabrikEval {
            terms,
            hints: Box::new(HintCache::EMPTY),
            stone_terms: StoneTerms::EMPTY,
            forcing: Forcing::new(),
        }
    }
}

impl Default for FabrikEval {
    fn default() -> Self {
        FabrikEval::with_terms(Terms::SHIPPED)
    }
}

impl Evaluator<Fabrik> for FabrikEval {
    fn evaluate(&mut self, state: &Fabrik) -> i32 {
        evaluate_terms(state, self.terms, &mut self.stone_terms)
    }

    fn order_hint(&mut self, state: &Fabrik, mv: Move) -> i32 {
        self.hints.order_hint(state, mv)
    }

    fn order_hints(&mut self, state: &Fabrik, entries: &mut [(i32, Move)]) {
        self.hints.order_hints(state, entries);
    }

    fn is_win_now(&self, score: i32) -> bool {
        // Only the exact wins now score that much (a line in reach, or walling in).
        score == WIN_NOW
    }

    fn checks_legality(&self) -> bool {
        true
    }

    fn stand_pat_depth(&self) -> i32 {
        STAND_PAT_DEPTH
    }

    fn legal_move(&mut self, state: &Fabrik, code: u32) -> Option<Move> {
        let mv = Move::from_code(code);
        state.is_legal(mv).then_some(mv)
    }

    fn win_now(&mut self, state: &Fabrik) -> Option<Move> {
        super::threats::win_now(state)
    }

    fn forced_replies(&mut self, state: &Fabrik, moves: &mut Vec<Move>) -> bool {
        if super::threats::line_answers(state, moves) {
            return true;
        }
        if !self.terms.mobility_end {
            return false;
        }
        if self.terms.wall_replies {
            // No threat of a line, but maybe a walling-in threat (no move keeps three
            // open squares beside both workers): then only the moves after which the
            // opponent cannot win at once, when there are few; none, and the node is
            // lost in two (an exact score, kept in the table).
            if state.phase() != Phase::Play {
                return false;
            }
            let (a, b) = two_squares(state.workers());
            if roomy_after_some_move(geometry(), state, a, b) {
                return false;
            }
            moves.clear();
            return super::threats::any_answers(state, moves, WALL_REPLIES_MAX);
        }
        // No threat of a line, but maybe no move that escapes walling in: then every
        // move loses at once and the node is lost (an exact score, kept in the table).
        if has_safe_move(state, INNER_BUDGET) == Some(false) {
            moves.clear();
            return true;
        }
        false
    }

    fn threatened(&mut self, state: &Fabrik) -> bool {
        super::threats::line_threats(state, state.side_to_move().other()) != 0
            || (self.terms.wall_threats && walling_in_threat(state))
    }

    fn forced_win(
        &mut self,
        state: &Fabrik,
        nodes: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<(u32, Move)> {
        self.forcing.win_until(state, FORCING_PLIES, nodes, stop)
    }

    fn forced_nodes(&self) -> u64 {
        self.forcing.nodes()
    }

    fn selectivity(&self) -> crate::search::eval::Selectivity {
        // Quiet moves ordered by their history of cut-offs beside the hints, and quiet
        // moves from the ninth on two plies shallower at depth 4 or more: won games on
        // the clock (docs/experiments/fabrik.md, fifth pass); pruning and futility lost.
        // A move that threatens a line is not reduced: reduced, a forced win behind it
        // was missed (the sixth pass).
        crate::search::eval::Selectivity {
            reduce_more_from: 8,
            history: 100,
            full_depth_threats: true,
            ..crate::search::eval::Selectivity::NONE
        }
    }
}

/// The squares where the side to move can place a stone this turn (after any worker
/// relocation allowed in this phase).
///
/// In the play phase a square `s` (empty, or a worker's square that worker leaves) is
/// reachable by moving worker `m` while `f` stays exactly when `f` is aligned with `s`
/// with no stone between them, and `s` has a neighbour that is empty (or is `m` itself)
/// and not on the way to `f`: `m` goes there (or stays) and sees `s`.
pub fn reach(position: &Fabrik) -> Bb {
    reach_within(position, position.board())
}

/// [`reach`] `& within`, computed for the squares of `within` only (the evaluation asks
/// only about completion squares, mostly none or a few).
pub(super) fn reach_within(position: &Fabrik, within: Bb) -> Bb {
    match position.phase() {
        Phase::Workers => 0,
        Phase::Choose | Phase::FirstStone => position.placeable() & within,
        Phase::Play => {
            if within == 0 {
                return 0;
            }
            let g = geometry();
            let stones = position.stones[0] | position.stones[1];
            let empty = position.empty();
            let (a, b) = two_squares(position.workers);
            let mut reach = 0;
            for (moved, fixed) in [(a, b), (b, a)] {
                let landing = empty | bit(moved);
                // Candidates: squares the fixed worker sees once `moved` is gone.
                for s in super::squares(g.sight(fixed, stones) & (empty | bit(moved)) & within) {
                    if g.neighbours[s] & landing & !g.between(s, fixed) != 0 {
                        reach |= bit(s);
                    }
                }
            }
            reach
        }
    }
}

/// Whether the side to move has a move after which the opponent has no placeable
/// square (and so wins at once, unless the move makes a line and wins anyway). Exact.
///
/// Call *open* an empty square with three or more empty neighbours. After any move, an
/// open square beside a worker is still empty and still has an empty neighbour (the
/// move fills two squares at most), so the opponent can place there, with the other
/// worker moved beside it, unless the move itself filled it. So a move walls the
/// workers in only if it fills every open square beside the worker that stays (with
/// its stone or the moved worker) and every open square beside the moved worker's new
/// square (with its stone). Only the moves that pass that test are played out, taken
/// from the move generator's relocations without listing the others.
pub fn can_leave_no_move(position: &Fabrik) -> bool {
    wall_in_move(position).is_some()
}

/// Where every search for walling-in moves starts: the workers and the open squares
/// beside each ([`Geometry::open_beside`]). A move walls the workers in only if it fills
/// every open square beside the worker that stays and beside the moved worker's landing
/// (see [`can_leave_no_move`]): [`WallInStart::of`] is `None` when no move can (not the
/// play phase, or three open squares beside both workers), and
/// [`WallInStart::candidates`] keeps the moves of one relocation that pass the test.
pub(super) struct WallInStart<'p> {
    pub position: &'p Fabrik,
    pub g: &'static Geometry,
    pub empty: Bb,
    pub a: usize,
    pub b: usize,
    pub open_a: Bb,
    pub open_b: Bb,
}

impl<'p> WallInStart<'p> {
    pub(super) fn of(position: &'p Fabrik) -> Option<Self> {
        if position.phase() != Phase::Play {
            return None;
        }
        let g = geometry();
        let empty = position.empty();
        let (a, b) = two_squares(position.workers());
        let (open_a, open_b) = (g.open_beside(a, empty), g.open_beside(b, empty));
        if three_or_more(open_a) && three_or_more(open_b) {
            return None;
        }
        Some(WallInStart {
            position,
            g,
            empty,
            a,
            b,
            open_a,
            open_b,
        })
    }

    /// Whether `mv` leaves the opponent no placeable square.
    pub(super) fn walls_in(&self, mv: Move) -> bool {
        let mut child = *self.position;
        child.play(mv);
        !child.has_move()
    }

    /// Of the moves of one relocation as the move generator gives it (`relocation`: the
    /// worker moved and the square placed on, or none; `targets`: the placement squares,
    /// or the worker's destinations), the squares of those that fill the open squares
    /// the test asks for: only they may wall in.
    pub(super) fn candidates(&self, relocation: Option<(usize, usize)>, targets: Bb) -> Bb {
        let g = self.g;
        match relocation {
            None => {
                let open = self.open_a | self.open_b;
                if open == 0 {
                    targets
                } else if two_or_more(open) {
                    0
                } else {
                    targets & open
                }
            }
            Some((moved, s)) => {
                let open_fixed = if moved == self.a {
                    self.open_b
                } else {
                    self.open_a
                };
                let left = open_fixed & !bit(s);
                let targets = match left.count_ones() {
                    0 => targets,
                    1 => targets & left,
                    _ => 0,
                };
                let mut kept = 0;
                for t in super::squares(targets) {
                    if g.open_beside(t, self.empty) & !bit(s) == 0 {
                        kept |= bit(t);
                    }
                }
                kept
            }
        }
    }
}

/// A move of the side to move after which the opponent has no placeable square, if
/// there is one (see [`can_leave_no_move`]): the first such move in the move
/// generator's order.
///
/// The necessary conditions of [`can_leave_no_move`] are applied before any sight set
/// is computed: a worker with three open squares beside it cannot stay (no loop over
/// the other worker's moves), with two the stone goes on one of them, and the worker's
/// landing square must have no open square beside it but the stone's (a bitboard
/// count of the open squares' neighbours rules most landings out). Only the placement
/// squares that keep a candidate landing get their sight set; in cramped positions
/// that is a few of the ~80 the generator computes.
pub fn wall_in_move(position: &Fabrik) -> Option<Move> {
    let start = WallInStart::of(position)?;
    let WallInStart {
        g,
        empty,
        a,
        b,
        open_a,
        open_b,
        ..
    } = start;
    let walls_in = |mv: Move| start.walls_in(mv);
    let stones = position.stones[0] | position.stones[1];
    let occupied = stones | position.workers();
    // Placements without a worker move: the stone fills every open square beside both.
    let open = open_a | open_b;
    if !two_or_more(open) {
        let mut here = g.sight(a, occupied) & g.sight(b, occupied) & empty;
        if open != 0 {
            here &= open;
        }
        if let Some(s) = super::squares(here).find(|&s| walls_in(Move::place(s))) {
            return Some(Move::place(s));
        }
    }
    // Landings: a square with no open square beside it, or one only (then the stone
    // must go there): `one` and `two` are the squares with at least one and two.
    let board = position.board();
    let open_squares = empty & at_least_three(empty, board);
    let (one, two) = at_least_one_two(open_squares, board);
    for (moved, fixed, open_fixed) in [(a, b, open_b), (b, a, open_a)] {
        if three_or_more(open_fixed) {
            continue;
        }
        let mut placements = g.sight(fixed, stones) & (empty | bit(moved));
        if two_or_more(open_fixed) {
            placements &= open_fixed;
        }
        let blockers = stones | bit(fixed);
        for s in super::squares(placements) {
            let left = open_fixed & !bit(s);
            if two_or_more(left) {
                continue;
            }
            let mut landings = empty & !g.between(fixed, s) & (!one | (g.neighbours[s] & !two));
            if left != 0 {
                landings &= left;
            }
            if landings == 0 {
                continue;
            }
            let targets = g.sight(s, blockers) & landings;
            if let Some(t) = super::squares(targets).find(|&t| {
                g.open_beside(t, empty) & !bit(s) == 0 && walls_in(Move::relocate(moved, t, s))
            }) {
                return Some(Move::relocate(moved, t, s));
            }
        }
    }
    None
}

/// [`wall_in_move`] as it was before it pruned the placement squares first: the same
/// tests on every relocation the move generator enumerates (a sight set for each
/// placement square). The same answer, slower; kept as the yardstick and a test oracle.
pub fn wall_in_move_by_generation(position: &Fabrik) -> Option<Move> {
    let start = WallInStart::of(position)?;
    // The relocations as the move generator sees them: the worker moved, the square
    // placed on, and the squares the worker may go to for that.
    let mut found = None;
    position.each_relocation(start.g, |relocation, targets| {
        let candidates = super::squares(start.candidates(relocation, targets));
        found = match relocation {
            None => candidates.map(Move::place).find(|&mv| start.walls_in(mv)),
            Some((moved, s)) => candidates
                .map(|t| Move::relocate(moved, t, s))
                .find(|&mv| start.walls_in(mv)),
        };
        found.is_none()
    });
    found
}

/// The squares of the board with at least 1, 2, …, `N` neighbours in `set`
/// (`[i]`: at least `i + 1`).
#[inline(always)]
fn at_least<const N: usize>(set: Bb, board: Bb) -> [Bb; N] {
    let mut counts = [0; N];
    for near in neighbour_planes(set, board) {
        for i in (1..N).rev() {
            counts[i] |= counts[i - 1] & near;
        }
        counts[0] |= near;
    }
    counts
}

/// The squares of the board with three or more neighbours in `set`.
#[inline(always)]
fn at_least_three(set: Bb, board: Bb) -> Bb {
    at_least::<3>(set, board)[2]
}

/// The squares of the board with at least one, and at least two, neighbours in `set`.
#[inline(always)]
fn at_least_one_two(set: Bb, board: Bb) -> (Bb, Bb) {
    let [one, two] = at_least::<2>(set, board);
    (one, two)
}

/// The squares of the board with a neighbour in `set`.
#[inline]
pub(super) fn dilate(set: Bb, board: Bb) -> Bb {
    neighbour_planes(set, board)
        .iter()
        .fold(0, |all, near| all | near)
}

/// For each of the 8 directions, the squares whose neighbour that way is in `set`.
#[inline(always)]
fn neighbour_planes(set: Bb, board: Bb) -> [Bb; 8] {
    [
        step::<0>(set, board),
        step::<1>(set, board),
        step::<2>(set, board),
        step::<3>(set, board),
        step::<4>(set, board),
        step::<5>(set, board),
        step::<6>(set, board),
        step::<7>(set, board),
    ]
}

/// Whether `worker` has three or more *open* squares beside it (empty, with three or
/// more empty neighbours), `empty` being the empty squares. When both workers do after
/// a move, no reply walls them in ([`wall_in_move`] needs a worker with two at most).
#[inline]
fn roomy(g: &Geometry, worker: usize, empty: Bb) -> bool {
    let mut open = 0;
    for n in super::squares(g.neighbours[worker] & empty) {
        if three_or_more(g.neighbours[n] & empty) {
            open += 1;
            if open == 3 {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move has a move after which both workers have three open
/// squares beside them ([`roomy`]): the quick half of [`has_safe_move`]. Looks at the
/// placements without relocation and at the relocations that land the worker beside the
/// stone (no sight set per placement square: three in all).
pub(super) fn roomy_after_some_move(g: &Geometry, position: &Fabrik, a: usize, b: usize) -> bool {
    let empty = position.empty();
    let stones = position.stones[0] | position.stones[1];
    let here = position.placeable();
    // A stone outside both 5×5 boxes changes no open square beside the workers.
    if roomy(g, a, empty) && roomy(g, b, empty) && here & !(g.near2[a] | g.near2[b]) != 0 {
        return true;
    }
    let roomy_both = |empty_after: Bb| roomy(g, a, empty_after) && roomy(g, b, empty_after);
    if super::squares(here).any(|s| roomy_both(empty & !bit(s))) {
        return true;
    }
    for (moved, fixed) in [(a, b), (b, a)] {
        let freed = empty | bit(moved);
        // Stones and the moved worker only take room away: a cramped `fixed` stays so.
        if !roomy(g, fixed, freed) {
            continue;
        }
        for s in super::squares(g.sight(fixed, stones) & freed) {
            let vacated = freed & !bit(s);
            if g.near2[fixed] & bit(s) != 0 && !roomy(g, fixed, vacated) {
                continue;
            }
            let landings = g.neighbours[s] & empty & !g.between(fixed, s);
            if super::squares(landings).any(|t| {
                let empty_after = vacated & !bit(t);
                (g.near2[fixed] & bit(t) == 0 || roomy(g, fixed, empty_after))
                    && roomy(g, t, empty_after)
            }) {
                return true;
            }
        }
    }
    false
}

/// Whether the side to move faces a *walling-in threat*: no move of its leaves both
/// workers three open squares beside them ([`roomy_after_some_move`]), so that some
/// reply may wall it in whatever it plays. Walling in is the same for both colours (the
/// workers are shared), so "the opponent could wall in if it moved again" would be a win
/// now for the side to move: the threat lies in the room its own stone takes. Without
/// it the side to move has a move after which no walling in is possible; with it, a
/// loss in two ([`has_safe_move`] `Some(false)`) is possible, not certain.
pub fn walling_in_threat(position: &Fabrik) -> bool {
    if position.winner.is_some() || position.phase() != Phase::Play {
        return false;
    }
    let (a, b) = two_squares(position.workers());
    !roomy_after_some_move(geometry(), position, a, b)
}

/// Whether the side to move (which has no win now) has a move after which the opponent
/// cannot wall the workers in: `Some(false)` means it is lost in two plies, whatever it
/// plays (the mobility end: it fills squares it needs, and the opponent takes the last
/// ones). `None` when more than `budget` moves needed the exact test (a full look at
/// the opponent's replies) and no safe move was found among them.
///
/// Cheap where there is room: a move after which both workers have three open squares
/// beside them is safe without a look at the replies (and a stone outside both
/// workers' 5×5 boxes changes no open square beside them), so the moves are first
/// scanned for one, then tested exactly one by one.
pub fn has_safe_move(position: &Fabrik, budget: u32) -> Option<bool> {
    if position.phase() != Phase::Play {
        return Some(true);
    }
    let g = geometry();
    let (a, b) = two_squares(position.workers());
    if roomy_after_some_move(g, position, a, b) {
        return Some(true);
    }
    // Then the exact test, move by move, within the budget.
    let mut exact = 0;
    let mut unknown = false;
    let mut safe = |mv: Move| -> bool {
        if exact >= budget {
            unknown = true;
            return false;
        }
        exact += 1;
        let mut child = *position;
        child.play(mv);
        child.winner.is_some() || wall_in_move(&child).is_none()
    };
    let found = !position.each_relocation(g, |relocation, targets| match relocation {
        None => !super::squares(targets).any(|s| safe(Move::place(s))),
        Some((moved, s)) => !super::squares(targets).any(|t| safe(Move::relocate(moved, t, s))),
    });
    if found {
        Some(true)
    } else if unknown {
        None
    } else {
        Some(false)
    }
}

/// The squares `step::<D>(set)`: those whose neighbour in direction `D` is in `set`
/// (on the board). A constant direction makes it two or three instructions.
#[inline(always)]
fn step<const D: usize>(set: Bb, board: Bb) -> Bb {
    const FILE_0: Bb = {
        let mut m = 0;
        let mut r = 0;
        while r < STRIDE {
            m |= 1 << (r * STRIDE);
            r += 1;
        }
        m
    };
    const FILE_10: Bb = FILE_0 << (STRIDE - 1);
    let (df, dr) = DIRECTIONS[D];
    // s + d ∈ set ⇔ s ∈ set shifted back by d; drop squares that wrap around a rank.
    let delta = df + dr * STRIDE as i32;
    let source = match df {
        1 => set & !FILE_0,   // a stone on file 0 is nobody's east neighbour
        -1 => set & !FILE_10, // a stone on file 10 is nobody's west neighbour
        _ => set,
    };
    let shifted = if delta > 0 {
        source >> delta
    } else {
        source << (-delta)
    };
    shifted & board
}

/// Squares (empty or workers) where a stone of the colour `own` makes a line of
/// `length`.
pub fn completions(own: Bb, open: Bb, board: Bb, length: usize) -> Bb {
    let result = completions_axis::<0, 4>(own, board, length)
        | completions_axis::<1, 5>(own, board, length)
        | completions_axis::<2, 6>(own, board, length)
        | completions_axis::<3, 7>(own, board, length);
    result & open
}

/// [`completions`] along one axis: direction `D` and its opposite `E`.
#[inline(always)]
fn completions_axis<const D: usize, const E: usize>(own: Bb, board: Bb, length: usize) -> Bb {
    // ahead[k]: squares followed by k own stones in direction D; behind: opposite.
    let mut ahead = [board; 5];
    let mut behind = [board; 5];
    let (own_ahead, own_behind) = (step::<D>(own, board), step::<E>(own, board));
    for k in 1..length {
        ahead[k] = own_ahead & step::<D>(ahead[k - 1], board);
        behind[k] = own_behind & step::<E>(behind[k - 1], board);
    }
    let mut result = 0;
    for k in 0..length {
        result |= ahead[k] & behind[length - 1 - k];
    }
    result
}

/// The number of windows (segments of `length` squares in one of the 4 line
/// directions, inside the board) that hold exactly `k` stones of `own` and none of
/// `theirs`, for each `k`.
///
/// Bit-sliced: for each direction, the count of each window is added up in three bit
/// planes indexed by the window's first square, so it takes a few popcounts per
/// direction instead of one or two per window.
pub fn window_counts(own: Bb, theirs: Bb, board: Bb, length: usize) -> [u32; 6] {
    let mut counts = [0; 6];
    for (clear, c0, c1, c2) in [
        window_planes::<0>(own, theirs, board, length),
        window_planes::<1>(own, theirs, board, length),
        window_planes::<2>(own, theirs, board, length),
        window_planes::<3>(own, theirs, board, length),
    ] {
        for (k, count) in counts.iter_mut().enumerate().skip(1) {
            let plane = |c: Bb, bit: usize| if k >> bit & 1 == 1 { c } else { !c };
            *count += (clear & plane(c0, 0) & plane(c1, 1) & plane(c2, 2)).count_ones();
        }
    }
    counts
}

/// Adds the bit plane `plane` (one bit per window) to the counters `c` (bit planes of a
/// count up to 7, lowest first).
#[inline(always)]
fn add_plane([c0, c1, c2]: [&mut Bb; 3], plane: Bb) {
    let carry0 = *c0 & plane;
    *c0 ^= plane;
    let carry1 = *c1 & carry0;
    *c1 ^= carry0;
    *c2 |= carry1;
}

/// For the windows starting on each square and running in direction `D`: whether the
/// window is inside the board and free of `theirs`, and its count of `own` stones as
/// three bit planes.
#[inline(always)]
fn window_planes<const D: usize>(
    own: Bb,
    theirs: Bb,
    board: Bb,
    length: usize,
) -> (Bb, Bb, Bb, Bb) {
    let (mut c0, mut c1, mut c2) = (0 as Bb, 0 as Bb, 0 as Bb);
    let mut clear = board;
    let mut stones = own;
    let mut free = board & !theirs;
    for i in 0..length {
        // Add the plane "square i of the window is own" to the counters.
        add_plane([&mut c0, &mut c1, &mut c2], stones);
        clear &= free;
        if i + 1 < length {
            stones = step::<D>(stones, board);
            free = step::<D>(free, board);
        }
    }
    (clear, c0, c1, c2)
}

/// The squares of the windows holding at least `min` stones of `own` and none of
/// `theirs`.
pub fn strong_squares(own: Bb, theirs: Bb, board: Bb, length: usize, min: u32) -> Bb {
    strong_axis::<0, 4>(own, theirs, board, length, min)
        | strong_axis::<1, 5>(own, theirs, board, length, min)
        | strong_axis::<2, 6>(own, theirs, board, length, min)
        | strong_axis::<3, 7>(own, theirs, board, length, min)
}

#[inline(always)]
fn strong_axis<const D: usize, const E: usize>(
    own: Bb,
    theirs: Bb,
    board: Bb,
    length: usize,
    min: u32,
) -> Bb {
    let (clear, c0, c1, c2) = window_planes::<D>(own, theirs, board, length);
    // Window starts whose count (c2 c1 c0 in binary) is at least `min`.
    let mut starts = 0;
    for k in min as usize..=length {
        let plane = |c: Bb, bit: usize| if k >> bit & 1 == 1 { c } else { !c };
        starts |= plane(c0, 0) & plane(c1, 1) & plane(c2, 2);
    }
    let mut window = starts & clear;
    let mut cover = 0;
    for _ in 0..length {
        cover |= window;
        // The next square of each window: one step in direction D.
        window = step::<E>(window, board);
    }
    cover
}

/// The squares that are not stones, by how many of their neighbours are not stones
/// either: two or more, three or more, four or more, five or more (each set inside the
/// one before).
///
/// The first set is the squares that may still take a stone ([`fillable`]). Both workers
/// must see a square to place on it, so from two different sides, and stones never
/// leave: a square with fewer such neighbours stays empty (or under a worker) for the
/// rest of the game. The others are squares with room: the workers can see them from
/// more sides, and a stone or two beside them do not kill them.
pub fn open_tiers(position: &Fabrik) -> [Bb; 4] {
    let board = position.board();
    let open = board & !(position.stones[0] | position.stones[1]);
    let [_, two, three, four, five] = at_least::<5>(open, board);
    [open & two, open & three, open & four, open & five]
}

/// The squares that may still take a stone ([`open_tiers`]).
pub fn fillable(position: &Fabrik) -> Bb {
    open_tiers(position)[0]
}

/// The windows of `player`, scored by how many stones they hold, by each of the
/// `tiers` ([`open_tiers`]) that holds all their other squares (`WINDOW_4`,
/// `WINDOW_5`): a window through a square that can never be filled scores nothing, one
/// whose squares all have room scores in all four tiers.
fn window_score(position: &Fabrik, player: Player, tiers: &[Bb; 4]) -> i32 {
    let length = position.line_length() as usize;
    let table: &[[i32; 4]] = if length == 4 { &WINDOW_4 } else { &WINDOW_5 };
    let own = position.stones(player);
    let board = position.board();
    tier_axis::<0>(own, tiers, board, length, table)
        + tier_axis::<1>(own, tiers, board, length, table)
        + tier_axis::<2>(own, tiers, board, length, table)
        + tier_axis::<3>(own, tiers, board, length, table)
}

/// [`window_score`] along direction `D`: the count planes of `own` stones are added up
/// once for all tiers; a window scores in a tier when all its squares are own stones or
/// in that tier (which also keeps out the other colour's stones and the board's edge).
#[inline(always)]
fn tier_axis<const D: usize>(
    own: Bb,
    tiers: &[Bb; 4],
    board: Bb,
    length: usize,
    table: &[[i32; 4]],
) -> i32 {
    let (mut c0, mut c1, mut c2) = (0 as Bb, 0 as Bb, 0 as Bb);
    let mut stones = own;
    let mut free = tiers.map(|tier| own | tier);
    let mut clear = free;
    for i in 0..length {
        add_plane([&mut c0, &mut c1, &mut c2], stones);
        if i + 1 < length {
            stones = step::<D>(stones, board);
            for (free, clear) in free.iter_mut().zip(clear.iter_mut()) {
                *free = step::<D>(*free, board);
                *clear &= *free;
            }
        }
    }
    let mut score = 0;
    for (k, values) in table.iter().enumerate().skip(1) {
        let plane = |c: Bb, bit: usize| if k >> bit & 1 == 1 { c } else { !c };
        let windows = plane(c0, 0) & plane(c1, 1) & plane(c2, 2);
        for (&value, &clear) in values.iter().zip(&clear) {
            score += value * (clear & windows).count_ones() as i32;
        }
    }
    score
}

/// The terms of the evaluation that depend on the stones alone, not on the workers nor
/// the side to move, kept for the last stones evaluated: the leaves searched one after
/// another are mostly children of one node that place on one square (without and with
/// the relocations that place there), so their stones are equal (about four leaves in
/// five in the middle games of `examples/fabrik_depth.rs`).
#[derive(Clone, Copy, Debug)]
struct StoneTerms {
    stones: [Bb; 2],
    board: Bb,
    line_length: u32,
    /// [`window_score`] of each player.
    windows: [i32; 2],
    /// [`completions`] of each player that are [`fillable`] (a line that can never be
    /// completed is no threat).
    completions: [Bb; 2],
}

impl StoneTerms {
    /// Matches no position (none has no board).
    const EMPTY: StoneTerms = StoneTerms {
        stones: [0; 2],
        board: 0,
        line_length: 0,
        windows: [0; 2],
        completions: [0; 2],
    };

    /// Makes the terms those of `position`'s stones.
    #[inline(always)]
    fn refresh(&mut self, position: &Fabrik) {
        if self.stones != position.stones
            || self.board != position.board()
            || self.line_length != position.line_length()
        {
            let length = position.line_length() as usize;
            let board = position.board();
            let tiers = open_tiers(position);
            let open = tiers[0];
            *self = StoneTerms {
                stones: position.stones,
                board,
                line_length: position.line_length(),
                windows: [
                    window_score(position, Player::P1, &tiers),
                    window_score(position, Player::P2, &tiers),
                ],
                completions: [
                    completions(position.stones[0], open, board, length),
                    completions(position.stones[1], open, board, length),
                ],
            };
        }
    }
}

/// Evaluation from the side to move's point of view, as shipped.
pub fn evaluate(position: &Fabrik) -> i32 {
    let mut terms = StoneTerms::EMPTY;
    evaluate_terms(position, Terms::SHIPPED, &mut terms)
}

/// Evaluation from the side to move's point of view, with the terms `with`.
fn evaluate_terms(position: &Fabrik, with: Terms, terms: &mut StoneTerms) -> i32 {
    if position.phase() != Phase::Play {
        return 0;
    }
    let us = position.side_to_move();
    let them = us.other();
    terms.refresh(position);
    let ours = terms.completions[us.index()];
    let theirs = terms.completions[them.index()];
    // Only the completion squares are asked about, but for worker control.
    let reach = reach_within(
        position,
        if with.live {
            position.board()
        } else {
            ours | theirs
        },
    );
    if ours & reach != 0 {
        return WIN_NOW;
    }
    if with.walling_in && can_leave_no_move(position) {
        return WIN_NOW;
    }
    if with.mobility_end && has_safe_move(position, LEAF_BUDGET) == Some(false) {
        return -LOST_IN_TWO;
    }
    let mut score = TEMPO + terms.windows[us.index()] - terms.windows[them.index()];
    match with.threats {
        // The same threat terms, a quarter as large.
        ThreatTerms::Quarter => {
            match theirs.count_ones() {
                0 => {}
                1 => score -= SINGLE_THREAT / 4,
                _ => score -= DOUBLE_THREAT / 4,
            }
            score -= UNBLOCKABLE / 4 * (theirs & !reach).count_ones() as i32;
            score += SINGLE_THREAT / 8 * ours.count_ones().min(2) as i32;
        }
        ThreatTerms::Off => {}
        // Counts asked as "none, one, more" where that is all they are used for.
        ThreatTerms::Full => {
            if theirs != 0 {
                score -= if two_or_more(theirs) {
                    DOUBLE_THREAT
                } else {
                    SINGLE_THREAT
                };
            }
            if ours != 0 {
                score += SINGLE_THREAT / 2 * if two_or_more(ours) { 2 } else { 1 };
            }
        }
    }
    if with.live {
        score += live_score(position, reach);
    }
    score.clamp(-LOST_IN_TWO + 1, LOST_IN_TWO - 1)
}

/// Worker control: empty squares of promising windows that the side to move can fill
/// now, against those the opponent's workers see through the stones (reachable for it
/// next turn unless this move blocks or moves them).
fn live_score(position: &Fabrik, reach: Bb) -> i32 {
    let g = geometry();
    let us = position.side_to_move();
    let them = us.other();
    let length = position.line_length() as usize;
    let min = position.line_length() - 2;
    let board = position.board();
    let empty = position.empty();
    let (a, b) = two_squares(position.workers());
    let all_stones = position.stones(us) | position.stones(them);
    let seen = g.sight(a, all_stones) | g.sight(b, all_stones);
    let ours = strong_squares(
        position.stones(us),
        position.stones(them),
        board,
        length,
        min,
    );
    let theirs = strong_squares(
        position.stones(them),
        position.stones(us),
        board,
        length,
        min,
    );
    LIVE * ((ours & empty & reach).count_ones() as i32
        - (theirs & empty & seen).count_ones() as i32)
}

/// Per-position data for move ordering, cached for the last position asked about
/// (search asks for the hint of every move of one position in a row).
#[derive(Clone, Debug)]
struct HintCache {
    hash: u64,
    board: Bb,
    line_length: u32,
    /// The hint of each move code's kind and square, `[kind << 7 | square]` (see
    /// [`Self::index`]), or [`UNKNOWN`] until first asked for: moves place on far fewer
    /// squares than there are empty ones, and a table read costs less than a bit test
    /// of a 128-bit set per move.
    table: [i32; 4 * 128],
    /// Squares placeable without relocating.
    here: Bb,
}

/// A hint not computed yet (below every hint).
const UNKNOWN: i32 = i32::MIN;

impl HintCache {
    const EMPTY: HintCache = HintCache {
        hash: 0,
        board: 0,
        line_length: 0,
        table: [UNKNOWN; 4 * 128],
        here: 0,
    };

    /// Ordering hint: placements that make or block long lines first; among moves
    /// placing on the same square, those that need no relocation (or need it to place
    /// there at all) before relocations that could have been skipped.
    fn order_hint(&mut self, position: &Fabrik, mv: Move) -> i32 {
        self.refresh(position);
        self.hint(geometry(), position, mv)
    }

    /// [`Self::order_hint`] of every move of `entries`.
    fn order_hints(&mut self, position: &Fabrik, entries: &mut [(i32, Move)]) {
        self.refresh(position);
        let g = geometry();
        for entry in entries {
            entry.0 = self.hint(g, position, entry.1);
        }
    }

    /// Makes the cache that of `position`.
    #[inline(always)]
    fn refresh(&mut self, position: &Fabrik) {
        let hash = position.hash();
        if self.hash != hash
            || self.board != position.board()
            || self.line_length != position.line_length()
        {
            self.hash = hash;
            self.board = position.board();
            self.line_length = position.line_length();
            self.here = position.placeable();
            self.table = [UNKNOWN; 4 * 128];
        }
    }

    /// The table index of `mv`: its kind (bits 21–22 of the code) and its square.
    #[inline(always)]
    fn index(mv: Move) -> usize {
        ((mv.0 >> KIND_SHIFT & 3) << 7 | mv.0 & 127) as usize
    }

    /// The hint of `mv` in the position the cache holds.
    #[inline(always)]
    fn hint(&mut self, g: &Geometry, position: &Fabrik, mv: Move) -> i32 {
        let index = Self::index(mv);
        let hint = self.table[index];
        if hint != UNKNOWN {
            return hint;
        }
        self.fill(g, position, mv);
        self.table[index]
    }

    /// Computes the hints of the moves of the kind of `mv` on its square (for a
    /// placement, those of both placements and relocations there).
    #[cold]
    fn fill(&mut self, g: &Geometry, position: &Fabrik, mv: Move) {
        let square = mv.square();
        match mv.kind() {
            MoveKind::Pass => self.table[Self::index(mv)] = 0,
            MoveKind::Worker => self.table[Self::index(mv)] = worker_hint(position, mv),
            MoveKind::Place | MoveKind::Relocate => {
                let value = line_value(g, position, square);
                self.table[Self::index(Move::place(square))] = value;
                self.table[Self::index(Move::relocate(0, 0, square))] =
                    if self.here & bit(square) != 0 {
                        value - 50
                    } else {
                        value
                    };
            }
        }
    }
}

/// Workers are placed on central squares first.
fn worker_hint(position: &Fabrik, mv: Move) -> i32 {
    let size = position.size() as i32;
    let (f, r) = ((mv.square() % STRIDE) as i32, (mv.square() / STRIDE) as i32);
    -((2 * f - size + 1).abs() + (2 * r - size + 1).abs())
}

/// The ordering value of a stone of the side to move on `square`: lines it makes
/// longer and opposing lines it cuts.
fn line_value(g: &Geometry, position: &Fabrik, square: usize) -> i32 {
    let us = position.side_to_move();
    let own = position.stones(us);
    let theirs = position.stones(us.other());
    let length = position.line_length();
    let near = g.neighbours[square];
    let (near_own, near_theirs) = (near & own, near & theirs);
    if near_own | near_theirs == 0 {
        // No stone beside it: a line of one on each of the 4 axes, nothing cut.
        return 4 * 10;
    }
    // A run along a direction is counted only when the first square that way (the
    // neighbour on the ray) holds a stone of that colour; most do not.
    let run = |d: usize, stones: Bb, near: Bb| {
        if g.ray[square][d] & near != 0 {
            g.run(square, d, stones)
        } else {
            0
        }
    };
    let mut value = 0;
    for d in 0..4 {
        let made = 1 + run(d, own, near_own) + run(d + 4, own, near_own);
        let cut = run(d, theirs, near_theirs) + run(d + 4, theirs, near_theirs);
        value += if made >= length {
            1_000_000
        } else {
            (made * made) as i32 * 10
        };
        value += if cut + 1 >= length {
            100_000
        } else {
            (cut * cut) as i32 * 8
        };
    }
    value
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::default_config;
    use crate::games::fabrik::geometry::SQUARES;

    fn position(fen: &str) -> Fabrik {
        Fabrik::from_fen(&default_config::<Fabrik>(), fen).unwrap()
    }

    /// The reach computed by enumerating every legal move.
    fn reach_by_moves(position: &Fabrik) -> Bb {
        let mut moves = Vec::new();
        position.generate_moves(&mut moves);
        moves
            .iter()
            .filter(|mv| mv.kind() != MoveKind::Pass)
            .fold(0, |set, mv| set | bit(mv.square()))
    }

    #[test]
    fn reach_matches_the_moves() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(5);
        let mut checked = 0;
        for game in 0..40 {
            let config = super::super::Config {
                size: 7 + (game % 5) as u8,
                line_length: 5,
            };
            let mut state = Fabrik::start(&config);
            let mut moves = Vec::new();
            while state.outcome().is_none() {
                if state.phase() != Phase::Workers {
                    assert_eq!(reach(&state), reach_by_moves(&state), "{}", state.fen());
                    checked += 1;
                }
                moves.clear();
                state.generate_moves(&mut moves);
                let mv = moves[rng.random_range(0..moves.len())];
                state.play(mv);
            }
        }
        assert!(checked > 500);
    }

    #[test]
    fn walling_in_is_found_exactly() {
        // Every position of random games on every size: the answer agrees with
        // playing out every legal move.
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(17);
        let (mut yes, mut no) = (0, 0);
        let mut moves = Vec::new();
        for game in 0..300 {
            let config = super::super::Config {
                size: 7 + (game % 5) as u8,
                line_length: 4 + (game % 2) as u8,
            };
            let mut state = Fabrik::start(&config);
            while state.outcome().is_none() {
                moves.clear();
                state.generate_moves(&mut moves);
                let walls_in = moves.iter().any(|&mv| {
                    let mut child = state;
                    child.play(mv);
                    !child.has_move()
                });
                let said = can_leave_no_move(&state);
                assert_eq!(said, walls_in, "{}", state.fen());
                if said {
                    yes += 1;
                } else {
                    no += 1;
                }
                state.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        // Random games wall the workers in often enough to test both answers.
        assert!(yes > 100 && no > 1000, "yes {yes}, no {no}");
    }

    #[test]
    fn safe_moves_are_found_exactly() {
        // Every position of random games on every size: the answer agrees with playing
        // every legal move and looking for a walling-in reply.
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(23);
        let (mut lost, mut safe) = (0, 0);
        let mut moves = Vec::new();
        for game in 0..200 {
            let config = super::super::Config {
                size: 7 + (game % 5) as u8,
                line_length: 4 + (game % 2) as u8,
            };
            let mut state = Fabrik::start(&config);
            while state.outcome().is_none() {
                moves.clear();
                state.generate_moves(&mut moves);
                let escapes = moves.iter().any(|&mv| {
                    let mut child = state;
                    child.play(mv);
                    child.winner.is_some() || !can_leave_no_move(&child)
                });
                assert_eq!(
                    has_safe_move(&state, u32::MAX),
                    Some(escapes),
                    "{}",
                    state.fen()
                );
                if escapes {
                    safe += 1;
                } else {
                    lost += 1;
                }
                state.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        assert!(lost > 30 && safe > 1000, "lost {lost}, safe {safe}");
    }

    #[test]
    fn completions_find_gaps_and_ends() {
        // Black x on c5 d5 e5 f5 (rank 5) on 11x11: completion squares b5 and g5.
        let p = position("11/11/11/11/11/11/2xxxx5/11/11/w10/w3oooo3 o 8");
        let board = p.board();
        let open = p.empty() | p.workers();
        let done = completions(p.stones(Player::P1), open, board, 5);
        let names: Vec<String> = super::super::squares(done)
            .map(super::super::name)
            .collect();
        assert_eq!(names, vec!["b5", "g5"]);
        // White o on e1..h1: d1 and i1.
        let done = completions(p.stones(Player::P2), open, board, 5);
        let names: Vec<String> = super::super::squares(done)
            .map(super::super::name)
            .collect();
        assert_eq!(names, vec!["d1", "i1"]);
        // No wrap-around: stones on j1 k1 and a2 b2 c2 do not combine.
        let wrap = position("o1o1o1o1o2/11/11/11/11/w10/11/11/11/xxx8/8wxx o 0");
        let open = wrap.empty() | wrap.workers();
        let done = completions(wrap.stones(Player::P1), open, wrap.board(), 5);
        assert_eq!(done, 0);
    }

    /// Every window of the board (`LineLength` squares in a row along one of the 4 line
    /// directions, inside the board), as its squares, walked coordinate by coordinate.
    fn windows_naive(p: &Fabrik) -> Vec<Vec<Bb>> {
        let size = p.size() as i32;
        let length = p.line_length() as i32;
        let mut windows = Vec::new();
        for square in 0..SQUARES {
            let (f, r) = ((square % STRIDE) as i32, (square / STRIDE) as i32);
            for &(df, dr) in &DIRECTIONS[..4] {
                let cells: Vec<(i32, i32)> =
                    (0..length).map(|k| (f + k * df, r + k * dr)).collect();
                if cells
                    .iter()
                    .all(|&(x, y)| x >= 0 && y >= 0 && x < size && y < size)
                {
                    windows.push(
                        cells
                            .iter()
                            .map(|&(x, y)| bit((y * STRIDE as i32 + x) as usize))
                            .collect(),
                    );
                }
            }
        }
        windows
    }

    /// The windows of `player`'s colour only (no stone of the other), with their count
    /// of its stones.
    fn own_windows_naive(p: &Fabrik, player: Player) -> Vec<(Vec<Bb>, usize)> {
        windows_naive(p)
            .into_iter()
            .filter(|w| w.iter().all(|&b| b & p.stones(player.other()) == 0))
            .map(|w| {
                let k = w.iter().filter(|&&b| b & p.stones(player) != 0).count();
                (w, k)
            })
            .collect()
    }

    /// Squares of windows with at least `min` own stones, window by window.
    fn strong_naive(p: &Fabrik, player: Player, min: usize) -> Bb {
        own_windows_naive(p, player)
            .into_iter()
            .filter(|&(_, k)| k >= min)
            .fold(0, |cover, (w, _)| cover | w.iter().fold(0, |m, &b| m | b))
    }

    /// Window counts by walking every window square by square.
    fn window_counts_naive(p: &Fabrik, player: Player) -> [u32; 6] {
        let mut counts = [0; 6];
        for (_, k) in own_windows_naive(p, player) {
            counts[k] += 1;
        }
        counts[0] = 0;
        counts
    }

    #[test]
    fn window_counts_match_a_plain_count() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(9);
        for game in 0..20 {
            let config = super::super::Config {
                size: 7 + (game % 5) as u8,
                line_length: 4 + (game % 2) as u8,
            };
            let mut state = Fabrik::start(&config);
            let mut moves = Vec::new();
            while state.outcome().is_none() {
                for player in [Player::P1, Player::P2] {
                    let fast = window_counts(
                        state.stones(player),
                        state.stones(player.other()),
                        state.board(),
                        state.line_length() as usize,
                    );
                    let mut fast = fast;
                    fast[0] = 0;
                    assert_eq!(fast, window_counts_naive(&state, player), "{}", state.fen());
                    for min in 1..=3 {
                        assert_eq!(
                            strong_squares(
                                state.stones(player),
                                state.stones(player.other()),
                                state.board(),
                                state.line_length() as usize,
                                min,
                            ),
                            strong_naive(&state, player, min as usize),
                            "{} min {min}",
                            state.fen()
                        );
                    }
                }
                moves.clear();
                state.generate_moves(&mut moves);
                state.play(moves[rng.random_range(0..moves.len())]);
            }
        }
        // An empty 11x11 board has 4 * 7 * 11 + ... windows of 5 with no stone: none scored.
        let empty = Fabrik::start(&default_config::<Fabrik>());
        assert_eq!(window_counts(0, 0, empty.board(), 5)[1], 0);
        // One stone in the centre lies in 5 windows per direction.
        let one = window_counts(bit(60), 0, empty.board(), 5);
        assert_eq!(one[1], 20);
    }

    /// The squares that are not stones with `min` or more neighbours that are not
    /// stones, counted one by one: [`open_tiers`] with 2, 3, 4 and 5.
    fn open_naive(p: &Fabrik, min: usize) -> Bb {
        let size = p.size() as i32;
        let stones = p.stones(Player::P1) | p.stones(Player::P2);
        let mut set = 0;
        for (x, y) in (0..size).flat_map(|y| (0..size).map(move |x| (x, y))) {
            let square = (y * STRIDE as i32 + x) as usize;
            if stones & bit(square) != 0 {
                continue;
            }
            let open = DIRECTIONS
                .iter()
                .map(|&(dx, dy)| (x + dx, y + dy))
                .filter(|&(u, v)| u >= 0 && v >= 0 && u < size && v < size)
                .filter(|&(u, v)| stones & bit((v * STRIDE as i32 + u) as usize) == 0)
                .count();
            if open >= min {
                set |= bit(square);
            }
        }
        set
    }

    /// [`window_score`] window by window: each window free of the other colour scores
    /// its ladder value of each of 2, 3, 4 and 5 that all its squares without a stone
    /// reach in neighbours that are not stones.
    fn window_score_naive(p: &Fabrik, player: Player) -> i32 {
        let table: &[[i32; 4]] = if p.line_length() == 4 {
            &WINDOW_4
        } else {
            &WINDOW_5
        };
        let tiers = [2, 3, 4, 5].map(|min| open_naive(p, min));
        let mut score = 0;
        for (window, k) in own_windows_naive(p, player) {
            for (t, tier) in tiers.into_iter().enumerate() {
                if window
                    .iter()
                    .all(|&b| b & p.stones(player) != 0 || b & tier != 0)
                {
                    score += table[k][t];
                }
            }
        }
        score
    }

    #[test]
    fn open_tiers_and_window_scores_match_a_count_and_dead_squares_stay_empty() {
        use rand::{RngExt, SeedableRng, rngs::StdRng};
        let mut rng = StdRng::seed_from_u64(21);
        let mut dead_seen = 0;
        for game in 0..40 {
            let config = super::super::Config {
                size: 7 + (game % 5) as u8,
                line_length: 4 + (game % 2) as u8,
            };
            let mut state = Fabrik::start(&config);
            let mut moves = Vec::new();
            // Every square found dead so far in this game.
            let mut dead: Bb = 0;
            while state.outcome().is_none() {
                let tiers = open_tiers(&state);
                for (tier, min) in tiers.iter().zip(2..) {
                    assert_eq!(*tier, open_naive(&state, min), "{} {min}", state.fen());
                }
                for player in [Player::P1, Player::P2] {
                    assert_eq!(
                        window_score(&state, player, &tiers),
                        window_score_naive(&state, player),
                        "{}",
                        state.fen()
                    );
                }
                let open = tiers[0];
                dead |=
                    state.board() & !(state.stones(Player::P1) | state.stones(Player::P2)) & !open;
                moves.clear();
                state.generate_moves(&mut moves);
                let before = state.stones(Player::P1) | state.stones(Player::P2);
                state.play(moves[rng.random_range(0..moves.len())]);
                let placed = (state.stones(Player::P1) | state.stones(Player::P2)) & !before;
                assert_eq!(placed & dead, 0, "a dead square filled: {}", state.fen());
            }
            dead_seen += dead.count_ones();
        }
        // The games do make dead squares (the test would pass vacuously otherwise).
        assert!(dead_seen > 100, "{dead_seen}");
    }

    #[test]
    fn dead_windows_and_completion_squares_do_not_score() {
        // Black b1 c1 d1 e1; a1 has only stones beside it (a2 b2 white, b1 black): the
        // line can never be completed, and f1 is white.
        let p = position("11/11/11/11/w10/10w/11/11/11/oo9/1xxxxo5 o 9");
        let a1 = bit(0);
        assert_eq!(fillable(&p) & a1, 0);
        let open = p.empty() | p.workers();
        let plain = completions(p.stones(Player::P1), open, p.board(), 5);
        assert_eq!(plain, a1);
        let mut terms = StoneTerms::EMPTY;
        terms.refresh(&p);
        assert_eq!(terms.completions[Player::P1.index()], 0);
        // Of the windows through a1, only a1..e1 has no white stone: it holds four
        // black ones and is dead; the other windows score as before.
        let tiers = open_tiers(&p);
        let a1_open = [open, tiers[1], tiers[2], tiers[3]];
        assert_eq!(
            window_score(&p, Player::P1, &a1_open) - window_score(&p, Player::P1, &tiers),
            WINDOW_5[4][0]
        );
        // With a2 and b2 empty, the same four stones are a threat white must face.
        let q = position("oo9/11/11/11/w10/10w/11/11/11/11/1xxxxo5 o 9");
        terms.refresh(&q);
        assert_eq!(terms.completions[Player::P1.index()], a1);
        assert!(
            evaluate(&q) < evaluate(&p) - SINGLE_THREAT,
            "{} {}",
            evaluate(&q),
            evaluate(&p)
        );
    }

    #[test]
    fn a_reachable_completion_square_is_a_win_now() {
        // Black to move with four in a row and the workers seeing b5 and g5.
        let p = position("11/11/11/11/11/11/2xxxx5/11/11/1w9/w3oooo3 x 8");
        assert_eq!(evaluate(&p), WIN_NOW);
        // The same with white to move: white must stop two completion squares.
        let p = position("11/11/11/11/11/11/2xxxx5/11/11/1w9/w3ooo4 o 7");
        assert!(evaluate(&p) < -1000, "{}", evaluate(&p));
    }
}
