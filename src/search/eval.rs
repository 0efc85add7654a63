//! The evaluation side of a game: static scores, move-ordering hints and the
//! Monte-Carlo playout policy.
//!
//! An [`Evaluator`] is a plain value owned by a searcher, so variants (other weights,
//! terms switched off) are other values of the same type or other types, played
//! against each other with no global switch. It takes `&mut self` so that it may keep
//! a cache of its own (per-position data for move ordering); a searcher on
//! another thread clones its own.

use crate::game::{Game, Player};

/// How much of the tree alpha-beta may leave out or search shallower, per game
/// ([`Evaluator::selectivity`]). [`Selectivity::NONE`] is the plain search: late quiet
/// moves one ply shallower from depth 3, nothing pruned, moves ordered by the hints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Selectivity {
    /// At remaining depth 1 and 2: the quiet moves after the first this many (in
    /// order) are not searched, once a move tried does not lose at once (0: all
    /// searched).
    pub late_moves: [usize; 2],
    /// At remaining depth 1: when the static score plus this margin is at most alpha,
    /// the quiet moves after the first are not searched (0: never).
    pub futility: i32,
    /// The least remaining depth at which a late quiet move is first searched one ply
    /// shallower.
    pub reduce_from: i32,
    /// From this move index on (0: never), at remaining depth 4 or more, two plies.
    pub reduce_more_from: usize,
    /// How far a quiet move's history of cut-offs moves its ordering key, up or down
    /// (0: no history heuristic).
    pub history: i32,
    /// Whether a move after which the opponent faces a threat to win at once
    /// ([`Evaluator::threatened`], asked of the child) is never reduced.
    pub full_depth_threats: bool,
}

impl Selectivity {
    /// The plain search.
    pub const NONE: Selectivity = Selectivity {
        late_moves: [0, 0],
        futility: 0,
        reduce_from: 3,
        reduce_more_from: 0,
        history: 0,
        full_depth_threats: false,
    };
}

/// How a searcher judges positions and moves of game `G` it cannot search to the end.
pub trait Evaluator<G: Game>: Clone + Send + std::fmt::Debug + 'static {
    /// Static evaluation from the side to move's point of view, in centi-units roughly
    /// like centipawns; must stay well inside ±20_000 (mate scores live above).
    fn evaluate(&mut self, state: &G) -> i32;

    /// A cheap hint for move ordering, larger first (threats, captures, centre).
    fn order_hint(&mut self, _state: &G, _mv: G::Move) -> i32 {
        0
    }

    /// Fills in the ordering hint of every move of `entries` (the second field),
    /// as [`Self::order_hint`] does one by one; a game may do it faster in bulk.
    fn order_hints(&mut self, state: &G, entries: &mut [(i32, G::Move)]) {
        for entry in entries {
            entry.0 = self.order_hint(state, entry.1);
        }
    }

    /// Whether `score`, returned by [`Self::evaluate`], means that the side to move
    /// wins at once (exactly: the searcher then scores the leaf as that win). `false`
    /// by default.
    fn is_win_now(&self, _score: i32) -> bool {
        false
    }

    /// The remaining depth up to which a node that faces no threat
    /// ([`Self::forced_replies`]) and whose static score is at least beta cuts off
    /// without a move searched: for games where a move rarely makes the mover's position
    /// worse. 0 (never) by default.
    fn stand_pat_depth(&self) -> i32 {
        0
    }

    /// Whether [`Self::legal_move`] judges move codes: then alpha-beta tries the table's
    /// move and the killers before it generates the moves of a node. `false` by default.
    fn checks_legality(&self) -> bool {
        false
    }

    /// The move of `code` ([`crate::game::MoveCode`]) if it is legal in `state`, without
    /// generating the moves. Only asked when [`Self::checks_legality`] says so.
    fn legal_move(&mut self, _state: &G, _code: u32) -> Option<G::Move> {
        None
    }

    /// A move with which the side to move wins at once, if the game can tell it
    /// cheaply (exact: the searcher scores the node as that win). `None` by default.
    fn win_now(&mut self, _state: &G) -> Option<G::Move> {
        None
    }

    /// When the opponent of the side to move threatens to win at once: fills `moves`
    /// with the moves that may stop it, every move left out losing at once (none
    /// listed: the side to move is lost), and returns `true`; the searcher then looks
    /// at those alone. Only asked where [`Self::win_now`] found nothing. `false` by
    /// default (no threat known).
    fn forced_replies(&mut self, _state: &G, _moves: &mut Vec<G::Move>) -> bool {
        false
    }

    /// Whether the opponent of the side to move threatens to win at once (cheap): the
    /// searcher then does not stop at this node but searches the replies
    /// ([`Self::forced_replies`]). `false` by default.
    fn threatened(&mut self, _state: &G) -> bool {
        false
    }

    /// Whether a leaf (depth exhausted) is searched one ply on rather than judged by
    /// [`Self::evaluate`] (asked after it, when it is no win now): for positions whose
    /// static score the game knows to be unreliable, such as a side with a single legal
    /// move. `false` by default.
    fn search_on(&mut self, _state: &G) -> bool {
        false
    }

    /// A forcing search (threats the opponent must answer) from `state`, in at most
    /// about `nodes` nodes, giving up when `stop` (read every few dozen nodes) says so:
    /// a proven win of the side to move in that many plies and its first move. The
    /// distance is that of the forcing line found, an upper bound.
    fn forced_win(
        &mut self,
        _state: &G,
        _nodes: u64,
        _stop: &mut dyn FnMut() -> bool,
    ) -> Option<(u32, G::Move)> {
        None
    }

    /// The nodes the last [`Self::forced_win`] visited.
    fn forced_nodes(&self) -> u64 {
        0
    }

    /// How selective alpha-beta is in this game (asked once a search):
    /// [`Selectivity::NONE`] by default.
    fn selectivity(&self) -> Selectivity {
        Selectivity::NONE
    }

    /// The move a Monte-Carlo playout plays in `state`, chosen from `moves` (its legal
    /// moves, never empty) with the help of `random`. Uniform by default.
    fn playout_move(&mut self, _state: &G, moves: &[G::Move], random: u64) -> G::Move {
        moves[(random % moves.len() as u64) as usize]
    }

    /// What a game that Monte-Carlo search finished (`end`, won by `winner`; `None` a
    /// draw) is worth to p1, from 0 to 1: the share of the result each node on the path
    /// is credited with (p2's is one minus it). A win, a loss, a half by default; a game
    /// whose matches break ties by how a game ended may give a little of it back.
    fn playout_result(&self, _end: &G, winner: Option<Player>) -> f64 {
        match winner {
            Some(Player::P1) => 1.0,
            Some(Player::P2) => 0.0,
            None => 0.5,
        }
    }

    /// The exploration constant of Monte-Carlo tree search's UCT rule (rewards in 0..=1):
    /// lower looks deeper into the moves that have scored best so far. 0.7 by default.
    fn exploration(&self) -> f64 {
        super::mcts::EXPLORATION
    }
}
