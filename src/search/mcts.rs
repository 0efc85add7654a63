//! Monte-Carlo tree search (UCT with the MCTS-Solver's proven values), generic over
//! the game.
//!
//! Each iteration walks down the tree by the UCT rule, adds one node, finishes the
//! game from there with the evaluator's playout policy ([`Evaluator::playout_move`],
//! uniform at random unless a game says otherwise) and credits every node on the path with the
//! result, from the point of view of the player who made the move into that node
//! (turns need not alternate): 1 a win, 0 a loss, ½ a draw, unless the game says what
//! an ending is worth ([`Evaluator::playout_result`]: a match may break ties by it).
//! Terminal positions are proven values; a node whose side to move has a proven winning
//! move, or only proven losing moves, is proven in turn, so short forced wins are found
//! exactly and never played around.
//!
//! Unlike alpha-beta, the value it estimates is a chance of winning when both sides
//! play roughly as the playouts do: in a position that best play would lose, it still
//! prefers the move that leaves the opponent the most ways to go wrong. That is why a
//! game can choose it for a role (see [`super::Strategy::method`]).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Instant;

use super::eval::Evaluator;
use super::{Info, MATE, Score, SearchLimits, SearchResult};
use crate::game::{Game, Outcome, Player, Value};
use crate::rng::Xorshift;

/// The exploration constant of UCT (rewards are in 0..=1) unless the game says
/// otherwise ([`Evaluator::exploration`]).
pub const EXPLORATION: f64 = 0.7;
/// Playouts longer than this count as draws (games that could go on for ever).
const PLAYOUT_CAP: u32 = 1_000;
/// The clock is read every this many iterations (the stop flags at every one).
const CHECK_INTERVAL: u64 = 8;
/// Room kept for one expansion: a node's children are added all at once.
const EXPANSION_ROOM: usize = 1024;
/// The fewest nodes the tree may hold, whatever the memory setting.
const MIN_TREE: usize = 1 << 16;
/// How often (in iterations) an `info` line is reported.
const REPORT_INTERVAL: u64 = 200_000;

/// What a tree knows of one move of the root: enough to merge trees.
#[derive(Clone, Debug)]
pub struct RootChild<M> {
    pub mv: M,
    pub visits: u32,
    /// Sum of the results for the mover: 1 a win, ½ a draw, 0 a loss (less or more
    /// where the game's [`Evaluator::playout_result`] says so).
    pub reward: f64,
    /// The winner under best play, once proven, and the plies to the end.
    pub proven: Option<Player>,
    pub proven_plies: u32,
}

/// A node of the tree: the position reached by `mv` from its parent.
#[derive(Clone, Debug)]
struct Node<M> {
    mv: Option<M>,
    /// The player who made `mv` (for the root: the side not to move).
    mover: Player,
    visits: u32,
    /// Sum of the results for `mover`: 1 a win, ½ a draw, 0 a loss (less or more
    /// where the game's [`Evaluator::playout_result`] says so).
    reward: f64,
    /// The children sit at `first_child .. first_child + children`.
    first_child: u32,
    children: u32,
    expanded: bool,
    /// The winner under best play, once proven.
    proven: Option<Player>,
    /// Plies to the end under best play, once proven.
    proven_plies: u32,
}

impl<M> Node<M> {
    fn new(mv: Option<M>, mover: Player) -> Self {
        Node {
            mv,
            mover,
            visits: 0,
            reward: 0.0,
            first_child: 0,
            children: 0,
            expanded: false,
            proven: None,
            proven_plies: 0,
        }
    }
}

/// A Monte-Carlo searcher for one game, playing out with `E`'s policy. The tree is
/// rebuilt for every search.
pub struct Mcts<G: Game, E: Evaluator<G>> {
    eval: E,
    nodes: Vec<Node<G::Move>>,
    /// The playouts' random numbers, seeded per search.
    rng: Xorshift,
    moves: Vec<G::Move>,
    path: Vec<u32>,
    iterations: u64,
    max_depth: u32,
    /// The most nodes the tree may hold; beyond it, leaves are no longer expanded.
    capacity: usize,
}

/// The playouts' seed until [`Mcts::seed`] sets another (the policy seeds every search
/// by its root).
pub const DEFAULT_SEED: u64 = 0x9e37_79b9_7f4a_7c15;

impl<G: Game, E: Evaluator<G> + Default> Default for Mcts<G, E> {
    fn default() -> Self {
        Self::new(DEFAULT_SEED, E::default())
    }
}

impl<G: Game, E: Evaluator<G>> Mcts<G, E> {
    /// A searcher whose playouts follow `seed` (the same seed, position and node or
    /// iteration limit give the same move) and `eval`'s playout policy.
    pub fn new(seed: u64, eval: E) -> Self {
        Mcts {
            eval,
            nodes: Vec::new(),
            rng: Xorshift::new(seed),
            moves: Vec::new(),
            path: Vec::new(),
            iterations: 0,
            max_depth: 0,
            capacity: MIN_TREE,
        }
    }

    /// Lets the tree use about `mib` MiB (the `Hash` option); it never shrinks below
    /// a small minimum.
    pub fn set_memory(&mut self, mib: usize) {
        let node = std::mem::size_of::<Node<G::Move>>().max(1);
        self.capacity = (mib.saturating_mul(1 << 20) / node).max(MIN_TREE);
    }

    /// Restarts the playouts from `seed`.
    pub fn seed(&mut self, seed: u64) {
        self.rng = Xorshift::new(seed);
    }

    /// Searches `root` within `limits` (`nodes` counts iterations, i.e. playouts;
    /// `depth` is not used), reporting progress to `report`. It ends at once when
    /// `stop` or `time_up` (the hard limit's watchdog) is raised.
    pub fn search(
        &mut self,
        root: &G,
        limits: SearchLimits,
        stop: Arc<AtomicBool>,
        time_up: &AtomicBool,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let team = AtomicU64::new(0);
        self.search_as_main(root, limits, &stop, time_up, &team, report);
        self.conclude(root, limits, &team, &[], report)
    }

    /// Grows the tree of `root` as the main thread of a team whose helpers grow their
    /// own trees of it ([`Mcts::search_as_helper`]) and add their iterations to
    /// `team_nodes`, which count in the node limit and the reports. The result comes
    /// from [`Mcts::conclude`] once the helpers are done.
    pub fn search_as_main(
        &mut self,
        root: &G,
        limits: SearchLimits,
        stop: &AtomicBool,
        time_up: &AtomicBool,
        team_nodes: &AtomicU64,
        report: &mut dyn FnMut(&Info<G::Move>),
    ) {
        let started = limits.started.unwrap_or_else(Instant::now);
        if !self.begin(root) {
            return;
        }
        let node_limit = limits.nodes.unwrap_or(u64::MAX).max(1);
        let mut team = 0;
        // Alone on the clock, a search spends its soft budget: there is no iteration
        // to finish, so the soft limit is where it stops.
        let deadline = limits.budget.soft.or(limits.budget.hard);
        loop {
            self.iterate(root);
            self.iterations += 1;
            if self.nodes[0].proven.is_some() || self.iterations + team >= node_limit {
                break;
            }
            if stop.load(Ordering::Relaxed) || time_up.load(Ordering::Relaxed) {
                break;
            }
            if self.iterations.is_multiple_of(CHECK_INTERVAL) {
                team = team_nodes.load(Ordering::Relaxed);
                if deadline.is_some_and(|d| started.elapsed() >= d) {
                    break;
                }
                if self.iterations.is_multiple_of(REPORT_INTERVAL) {
                    report(&self.info(root, started, team));
                }
            }
        }
    }

    /// Grows a tree of `root` of its own, for a team's main thread to merge its root
    /// statistics ([`Mcts::root_children`]), until `stop` or `time_up` is raised or the
    /// root is proven; adds its iterations to `team_nodes` as it goes.
    pub fn search_as_helper(
        &mut self,
        root: &G,
        stop: &AtomicBool,
        time_up: &AtomicBool,
        team_nodes: &AtomicU64,
    ) {
        if !self.begin(root) {
            return;
        }
        let mut counted = 0;
        loop {
            self.iterate(root);
            self.iterations += 1;
            if self.iterations.is_multiple_of(CHECK_INTERVAL) {
                team_nodes.fetch_add(self.iterations - counted, Ordering::Relaxed);
                counted = self.iterations;
            }
            if self.nodes[0].proven.is_some()
                || stop.load(Ordering::Relaxed)
                || time_up.load(Ordering::Relaxed)
            {
                break;
            }
        }
        team_nodes.fetch_add(self.iterations - counted, Ordering::Relaxed);
    }

    /// A new tree of `root`; false when the game is over there.
    fn begin(&mut self, root: &G) -> bool {
        self.nodes.clear();
        self.iterations = 0;
        self.max_depth = 0;
        self.nodes
            .push(Node::new(None, root.side_to_move().other()));
        root.outcome().is_none()
    }

    /// The statistics of the root's children, in the order of the root's moves.
    pub fn root_children(&self) -> Vec<RootChild<G::Move>> {
        let root = &self.nodes[0];
        if !root.expanded {
            return Vec::new();
        }
        let range = root.first_child as usize..(root.first_child + root.children) as usize;
        self.nodes[range]
            .iter()
            .filter_map(|node| {
                Some(RootChild {
                    mv: node.mv?,
                    visits: node.visits,
                    reward: node.reward,
                    proven: node.proven,
                    proven_plies: node.proven_plies,
                })
            })
            .collect()
    }

    /// The result of the search of `root`: this tree's root statistics with those of
    /// the helpers' trees (`merged`) added, the move to play and its line, reported
    /// once more to `report`. `team_nodes` counts the helpers' iterations.
    pub fn conclude(
        &mut self,
        root: &G,
        limits: SearchLimits,
        team_nodes: &AtomicU64,
        merged: &[Vec<RootChild<G::Move>>],
        report: &mut dyn FnMut(&Info<G::Move>),
    ) -> SearchResult<G::Move> {
        let started = limits.started.unwrap_or_else(Instant::now);
        let mut result = SearchResult::fallback(None);
        if root.outcome().is_some() || self.nodes.is_empty() {
            return result;
        }
        for children in merged {
            self.absorb(children);
        }
        let team = team_nodes.load(Ordering::Relaxed);
        let info = self.info(root, started, team);
        report(&info);
        // The principal line starts with the move to play.
        result.best = info.pv.first().copied();
        result.score = info.score;
        result.pv = info.pv;
        result.depth = info.depth;
        result.nodes = self.iterations + team;
        if let Some(winner) = self.nodes[0].proven {
            let plies = self.nodes[0].proven_plies;
            result.proven = Some(if winner == root.side_to_move() {
                Value::Win(plies)
            } else {
                Value::Loss(plies)
            });
        }
        result
    }

    /// Adds another tree's root statistics to this tree's root children (matched by
    /// move) and takes over its proofs, which are exact in any tree.
    fn absorb(&mut self, children: &[RootChild<G::Move>]) {
        let root = &self.nodes[0];
        if !root.expanded {
            return;
        }
        let range = root.first_child as usize..(root.first_child + root.children) as usize;
        let mut added = 0;
        for (offset, other) in children.iter().enumerate() {
            // The same root generates its moves in the same order: look there first.
            let same_place = range.start + offset;
            let index =
                if range.contains(&same_place) && self.nodes[same_place].mv == Some(other.mv) {
                    same_place
                } else {
                    match range.clone().find(|&i| self.nodes[i].mv == Some(other.mv)) {
                        Some(index) => index,
                        None => continue,
                    }
                };
            let node = &mut self.nodes[index];
            node.visits += other.visits;
            node.reward += other.reward;
            if node.proven.is_none() && other.proven.is_some() {
                node.proven = other.proven;
                node.proven_plies = other.proven_plies;
            }
            added += other.visits;
        }
        self.nodes[0].visits += added;
        self.try_prove(0);
    }

    /// One iteration: select, expand, play out, back up.
    fn iterate(&mut self, root: &G) {
        let mut state = root.clone();
        let mut current = 0u32;
        self.path.clear();
        self.path.push(0);
        // Selection: down to a leaf: a node not yet expanded, proven, or finished (a draw).
        while self.nodes[current as usize].expanded
            && self.nodes[current as usize].proven.is_none()
            && self.nodes[current as usize].children > 0
        {
            let child = self.select(current);
            if let Some(mv) = self.nodes[child as usize].mv {
                state.play(mv);
            }
            current = child;
            self.path.push(current);
        }
        let depth = self.path.len() as u32 - 1;
        self.max_depth = self.max_depth.max(depth);
        // Expansion and playout.
        let winner = match self.nodes[current as usize].proven {
            Some(winner) => Some(winner),
            None => self.expand_and_play(current, &mut state),
        };
        // Back-propagation: the game's worth to p1 of how it ended (for a proven node,
        // of the position where the proof stands, which is not yet the end).
        let p1_share = self.eval.playout_result(&state, winner);
        for &index in self.path.iter().rev() {
            let node = &mut self.nodes[index as usize];
            node.visits += 1;
            node.reward += match node.mover {
                Player::P1 => p1_share,
                Player::P2 => 1.0 - p1_share,
            };
        }
        // Proofs climb as far as they go.
        for i in (0..self.path.len().saturating_sub(1)).rev() {
            if !self.try_prove(self.path[i]) {
                break;
            }
        }
    }

    /// Whether the tree can take `more` nodes without a new allocation the system
    /// refuses; when it cannot, the tree is full from now on (playouts go on from its
    /// leaves) rather than the process aborted.
    fn room(&mut self, more: usize) -> bool {
        if self.nodes.capacity() - self.nodes.len() >= more {
            return true;
        }
        if self.nodes.try_reserve(more).is_ok() {
            return true;
        }
        log::warn!(
            "mcts: no memory for more than {} nodes: the tree is full",
            self.nodes.len()
        );
        self.capacity = self.nodes.len();
        false
    }

    /// Expands the leaf `index` (its position is `state`) and plays a game out from one
    /// of its new children; returns the winner (`None` for a draw).
    fn expand_and_play(&mut self, index: u32, state: &mut G) -> Option<Player> {
        if let Some(outcome) = state.outcome() {
            return self.settle(index, outcome);
        }
        if self.nodes.len() + EXPANSION_ROOM <= self.capacity && self.room(EXPANSION_ROOM) {
            self.moves.clear();
            state.generate_moves(&mut self.moves);
            let first = self.nodes.len() as u32;
            let mover = state.side_to_move();
            for &mv in &self.moves {
                self.nodes.push(Node::new(Some(mv), mover));
            }
            let node = &mut self.nodes[index as usize];
            node.first_child = first;
            node.children = self.moves.len() as u32;
            node.expanded = true;
            // Step into one new child at random and play out from there.
            let pick = first + (self.rng.next_u64() % u64::from(node.children)) as u32;
            if let Some(mv) = self.nodes[pick as usize].mv {
                state.play(mv);
            }
            self.path.push(pick);
            if let Some(outcome) = state.outcome() {
                return self.settle(pick, outcome);
            }
        }
        self.playout(state)
    }

    /// Marks the node of a finished position: a win is proven (in 0 plies); a draw is
    /// left unproven and simply scores ½ each time. Returns the winner.
    fn settle(&mut self, index: u32, outcome: Outcome) -> Option<Player> {
        let node = &mut self.nodes[index as usize];
        node.expanded = true;
        node.proven = winner(outcome);
        node.proven_plies = 0;
        node.proven
    }

    /// Finishes the game from `state` with the playout policy.
    fn playout(&mut self, state: &mut G) -> Option<Player> {
        for _ in 0..PLAYOUT_CAP {
            if let Some(outcome) = state.outcome() {
                return winner(outcome);
            }
            self.moves.clear();
            state.generate_moves(&mut self.moves);
            let random = self.rng.next_u64();
            let mv = self.eval.playout_move(state, &self.moves, random);
            state.play(mv);
        }
        None
    }

    /// The child of `index` to descend into: a proven win for the side to move at
    /// once; otherwise the best UCT value among the children not proven lost.
    fn select(&mut self, index: u32) -> u32 {
        let node = &self.nodes[index as usize];
        let (first, count) = (node.first_child, node.children);
        let log_parent = f64::from(node.visits.max(1)).ln();
        let exploration = self.eval.exploration();
        let mut best = first;
        let mut best_value = f64::NEG_INFINITY;
        for child in first..first + count {
            let c = &self.nodes[child as usize];
            let value = match c.proven {
                Some(w) if w == c.mover => return child,
                Some(_) => -1.0,
                None if c.visits == 0 => 1e9 + (self.rng.next_u64() % 1024) as f64,
                None => {
                    let visits = f64::from(c.visits);
                    c.reward / visits + exploration * (log_parent / visits).sqrt()
                }
            };
            if value > best_value {
                best_value = value;
                best = child;
            }
        }
        best
    }

    /// Proves `index` from its children if it can; says whether it did.
    fn try_prove(&mut self, index: u32) -> bool {
        let node = &self.nodes[index as usize];
        if node.proven.is_some() {
            return true;
        }
        if !node.expanded || node.children == 0 {
            return false;
        }
        let (first, count) = (node.first_child, node.children);
        let to_move = self.nodes[first as usize].mover;
        let mut fastest_win: Option<u32> = None;
        let mut slowest_loss = 0;
        let mut all_lost = true;
        for child in first..first + count {
            let c = &self.nodes[child as usize];
            match c.proven {
                Some(w) if w == to_move => {
                    fastest_win =
                        Some(fastest_win.map_or(c.proven_plies, |f| f.min(c.proven_plies)));
                }
                Some(_) => slowest_loss = slowest_loss.max(c.proven_plies),
                None => all_lost = false,
            }
        }
        let (winner, plies) = match fastest_win {
            Some(plies) => (to_move, plies),
            None if all_lost => (to_move.other(), slowest_loss),
            None => return false,
        };
        let node = &mut self.nodes[index as usize];
        node.proven = Some(winner);
        node.proven_plies = plies + 1;
        true
    }

    /// The move to play: a proven win if there is one (the fastest), otherwise the most
    /// visited child not proven lost, otherwise (all lost) the slowest loss.
    fn best_child(&self) -> Option<usize> {
        let root = &self.nodes[0];
        if !root.expanded || root.children == 0 {
            return None;
        }
        let range = root.first_child as usize..(root.first_child + root.children) as usize;
        let mover = self.nodes[range.start].mover;
        let wins = range
            .clone()
            .filter(|&c| self.nodes[c].proven == Some(mover))
            .min_by_key(|&c| self.nodes[c].proven_plies);
        if wins.is_some() {
            return wins;
        }
        let open = range
            .clone()
            .filter(|&c| self.nodes[c].proven.is_none())
            .max_by_key(|&c| self.nodes[c].visits);
        if open.is_some() {
            return open;
        }
        range.max_by_key(|&c| (self.nodes[c].proven_plies, self.nodes[c].visits))
    }

    /// The principal line (most visited children) and its statistics; `team` counts
    /// the iterations of the helpers' trees.
    fn info(&self, root: &G, started: Instant, team: u64) -> Info<G::Move> {
        let best = self.best_child();
        let mut pv = Vec::new();
        let mut index = best;
        while let Some(child) = index {
            let node = &self.nodes[child];
            let Some(mv) = node.mv else { break };
            pv.push(mv);
            if !node.expanded || node.children == 0 || node.visits < 2 {
                break;
            }
            let range = node.first_child as usize..(node.first_child + node.children) as usize;
            index = range.max_by_key(|&c| self.nodes[c].visits);
        }
        let score = match (self.nodes[0].proven, best) {
            (Some(w), _) if w == root.side_to_move() => {
                Score::Mate(self.nodes[0].proven_plies as i32)
            }
            (Some(_), _) => Score::Mate(-(self.nodes[0].proven_plies as i32)),
            (None, Some(child)) => {
                let node = &self.nodes[child];
                let rate = if node.visits == 0 {
                    0.5
                } else {
                    node.reward / f64::from(node.visits)
                };
                Score::Cp(win_rate_to_cp(rate))
            }
            (None, None) => Score::Cp(0),
        };
        let elapsed = started.elapsed();
        Info {
            depth: pv.len() as u32,
            seldepth: self.max_depth,
            score,
            nodes: self.iterations + team,
            time: elapsed,
            hashfull: (self.nodes.len() as u64 * 1000 / self.capacity as u64).min(1000) as u32,
            pv,
        }
    }
}

/// The winner of a finished game, `None` for a draw.
fn winner(outcome: Outcome) -> Option<Player> {
    match outcome {
        Outcome::Win(p) => Some(p),
        Outcome::Draw => None,
    }
}

/// A chance of winning as centi-units: 50 % is 0, 75 % about +190, 90 % about +380
/// (the logistic scale chess engines use, 400 per factor of ten in the odds).
pub fn win_rate_to_cp(rate: f64) -> i32 {
    let rate = rate.clamp(0.001, 0.999);
    let cp = 400.0 * (rate / (1.0 - rate)).log10();
    (cp.round() as i32).clamp(-(MATE - 3_000), MATE - 3_000)
}
