//! A forcing search for Fabrik (threat-space search, VCF-like): the attacker plays only
//! threats ([`super::threats`]: fours, then walling-in threats), the defender only the
//! answers to them, and the attacker
//! wins where it wins now (a line, or the defender walled in) or where the defender has
//! no answer. A defender with a win now of its own ends the line of play: no proof.
//!
//! Every win it reports is a proof (each defender move outside the answers loses at
//! once), so the searcher may trust it; its distance is that of the forcing line found,
//! found shortest first by deepening, which a quiet move might beat. It finds nothing
//! where the win needs a quiet move. Bounded by a node budget and by the caller's clock
//! (a `stop` test read every [`CLOCK_INTERVAL`] nodes, so that a search under a clock
//! answers in time); defender nodes with too many answers (a worker moved out of sight
//! has dozens of destinations) are given up.
//!
//! A table keeps what each node found, by position and role: a proof (within so many
//! plies, and the attacker's move) or that none exists within so many plies. Threats
//! played in another order reach the same positions, and most nodes of a search are
//! such transpositions, so the table answers them. What a node finds depends only on
//! the position and the plies left (the caps included), and more plies never find
//! less, so an entry answers any later call with a number of plies it covers; a node
//! cut short by the budget or the clock stores nothing. The table outlives a call.

use super::eval::strong_squares;
use super::geometry::{bit, geometry};
use super::threats::{
    answers, any_answers, completion_squares, wall_threat_moves, wall_threat_moves_by_playing,
    win_now,
};
use super::{Fabrik, Move, Phase, squares, two_squares};
use crate::game::Game;

/// Defender nodes with more answers than this are not searched.
const MAX_ANSWERS: usize = 24;
/// Fours tried per attacker node, double threats first.
const MAX_FOURS: usize = 24;
/// How often (in nodes) the caller's `stop` test is read.
const CLOCK_INTERVAL: u64 = 64;
/// Entries of the table (a power of two): 1 MiB.
const TABLE_ENTRIES: usize = 1 << 16;
/// Told into a defender node's key: the same position may be an attacker's node in a
/// call for one side and a defender's in a call for the other.
const DEFENDER_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

/// What the search found at one node ([`Forcing`]'s table).
#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    /// The attacker wins within this many plies (0: no proof known).
    won: u8,
    /// No proof within this many plies (0: nothing known).
    failed: u8,
    /// The attacker's first move of the proof (attacker nodes).
    mv: Move,
}

impl Entry {
    const EMPTY: Entry = Entry {
        key: 0,
        won: 0,
        failed: 0,
        mv: Move::PASS,
    };
}

/// The forcing searcher: its node count and per-ply buffers.
#[derive(Clone, Debug, Default)]
pub struct Forcing {
    nodes: u64,
    /// Attacker nodes (where threats are generated) of the last call.
    attacks: u64,
    budget: u64,
    /// The caller's `stop` test said so: the search gives up like at the budget.
    stopped: bool,
    buffers: Vec<Vec<Move>>,
    fours: Vec<Vec<(u8, Move)>>,
    /// Whether walling-in threats are played besides the fours.
    walls: bool,
    /// Whether they are found by playing every move (the slow oracle, to compare).
    walls_by_playing: bool,
    /// What earlier nodes found (empty until the first search, and when off).
    table: Vec<Entry>,
    /// Whether the table is used ([`Forcing::without_table`] turns it off, to compare).
    no_table: bool,
}

impl Forcing {
    /// The forcing search with walling-in threats.
    pub fn new() -> Self {
        Forcing {
            walls: true,
            ..Forcing::default()
        }
    }

    /// The forcing search with line fours only (the first version, for comparison).
    pub fn lines_only() -> Self {
        Forcing::default()
    }

    /// The same search finding walling-in threats by playing every move (as before
    /// [`wall_threat_moves`] ruled most moves out without playing them): to compare.
    pub fn playing_every_move(self) -> Self {
        Forcing {
            walls_by_playing: true,
            ..self
        }
    }

    /// The same search without its table (every node searched), to compare.
    pub fn without_table(self) -> Self {
        Forcing {
            no_table: true,
            table: Vec::new(),
            ..self
        }
    }

    /// Nodes visited by the last call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Attacker nodes (those that generate threats) of the last call.
    pub fn attacker_nodes(&self) -> u64 {
        self.attacks
    }

    /// A forced win of the side to move by fours within `max_plies` plies (its last
    /// move included), looked for in at most about `budget` nodes: the number of plies
    /// of the line found (odd: the attacker plays first and last) and its first move.
    pub fn win(&mut self, position: &Fabrik, max_plies: u32, budget: u64) -> Option<(u32, Move)> {
        self.win_until(position, max_plies, budget, &mut || false)
    }

    /// [`Forcing::win`], giving up as soon as `stop` says so (read every
    /// [`CLOCK_INTERVAL`] nodes): for searches under a clock.
    pub fn win_until(
        &mut self,
        position: &Fabrik,
        max_plies: u32,
        budget: u64,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<(u32, Move)> {
        self.nodes = 0;
        self.attacks = 0;
        self.budget = budget;
        self.stopped = false;
        if position.phase() != Phase::Play || position.winner.is_some() {
            return None;
        }
        if let Some(mv) = win_now(position) {
            return Some((1, mv));
        }
        let mut plies = 3;
        while plies <= max_plies && !self.out_of_time(stop) {
            if let Some(found) = self.attack(position, plies, 0, stop) {
                return Some(found);
            }
            plies += 2;
        }
        None
    }

    /// The attacker (the side to move) wins within `left` plies by fours.
    fn attack(
        &mut self,
        position: &Fabrik,
        left: u32,
        ply: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<(u32, Move)> {
        self.nodes += 1;
        let key = table_key(position, 0);
        if let Some(known) = self.known(key, left) {
            return known;
        }
        if let Some(mv) = win_now(position) {
            self.store(key, Some((1, mv)), left);
            return Some((1, mv));
        }
        if left < 3 || self.out_of_time(stop) {
            return None;
        }
        self.attacks += 1;
        while self.fours.len() <= ply {
            self.fours.push(Vec::new());
        }
        let mut fours = std::mem::take(&mut self.fours[ply]);
        fours.clear();
        four_moves(position, &mut fours);
        if self.walls {
            let lines = fours.len();
            if self.walls_by_playing {
                wall_threat_moves_by_playing(position, &mut fours);
            } else {
                wall_threat_moves(position, &mut fours);
            }
            // A four that also threatens to wall in is tried once, as a four.
            let (head, tail) = fours.split_at_mut(lines);
            for entry in tail.iter_mut() {
                if head.iter().any(|&(_, mv)| mv == entry.1) {
                    entry.1 = Move::PASS;
                }
            }
            fours.retain(|&(_, mv)| mv != Move::PASS);
        }
        let mut found = None;
        for &(_, mv) in fours.iter().take(MAX_FOURS) {
            let mut child = *position;
            child.play(mv);
            if let Some(plies) = self.defend(&child, left - 1, ply + 1, stop) {
                found = Some((plies + 1, mv));
                break;
            }
            if self.out_of_time(stop) {
                break;
            }
        }
        self.fours[ply] = fours;
        self.store(key, found, left);
        found
    }

    /// The defender (the side to move, facing a four) loses within `left` plies: the
    /// plies to the attacker's win by the longest defence found.
    fn defend(
        &mut self,
        position: &Fabrik,
        left: u32,
        ply: usize,
        stop: &mut dyn FnMut() -> bool,
    ) -> Option<u32> {
        self.nodes += 1;
        let key = table_key(position, DEFENDER_KEY);
        if let Some(known) = self.known(key, left) {
            return known.map(|(plies, _)| plies);
        }
        if position.winner.is_some() || win_now(position).is_some() {
            // No proof at any depth: the defender wins first.
            self.store(key, None, u32::from(u8::MAX));
            return None;
        }
        while self.buffers.len() <= ply {
            self.buffers.push(Vec::new());
        }
        let mut moves = std::mem::take(&mut self.buffers[ply]);
        moves.clear();
        let answered = answers(position, &mut moves)
            || (self.walls && any_answers(position, &mut moves, MAX_ANSWERS));
        let result = if !answered {
            None
        } else if moves.is_empty() {
            Some(2)
        } else if left < 2 || moves.len() > MAX_ANSWERS {
            None
        } else {
            let mut longest = 0;
            for &mv in &moves {
                let mut child = *position;
                child.play(mv);
                match self.attack(&child, left - 1, ply + 1, stop) {
                    Some((plies, _)) => longest = longest.max(plies + 1),
                    None => {
                        longest = 0;
                        break;
                    }
                }
            }
            (longest > 0).then_some(longest)
        };
        // Cut short by the budget or the clock, a node returns no proof (never a
        // false one): a proof found before is still one.
        self.buffers[ply] = moves;
        self.store(key, result.map(|plies| (plies, Move::PASS)), left);
        result
    }

    /// What the table knows of the node of `key` searched with `left` plies: its
    /// answer (a proof within `left`, or none) when an entry covers it.
    fn known(&self, key: u64, left: u32) -> Option<Option<(u32, Move)>> {
        let entry = *self.table.get(key as usize & (TABLE_ENTRIES - 1))?;
        if entry.key != key {
            None
        } else if entry.won != 0 && u32::from(entry.won) <= left {
            Some(Some((u32::from(entry.won), entry.mv)))
        } else if u32::from(entry.failed) >= left {
            Some(None)
        } else {
            None
        }
    }

    /// Records what the node of `key` found with `left` plies: a proof (`found`), or
    /// none, which is kept only when the node was not cut short.
    fn store(&mut self, key: u64, found: Option<(u32, Move)>, left: u32) {
        if self.no_table || (found.is_none() && self.stopped) {
            return;
        }
        if self.table.is_empty() {
            self.table = vec![Entry::EMPTY; TABLE_ENTRIES];
        }
        let slot = &mut self.table[key as usize & (TABLE_ENTRIES - 1)];
        if slot.key != key {
            *slot = Entry {
                key,
                ..Entry::EMPTY
            };
        }
        match found {
            Some((plies, mv)) => {
                let plies = plies.min(u32::from(u8::MAX)) as u8;
                if slot.won == 0 || plies < slot.won {
                    slot.won = plies;
                    slot.mv = mv;
                }
            }
            None => slot.failed = slot.failed.max(left.min(u32::from(u8::MAX)) as u8),
        }
    }

    /// Whether the budget is spent or the caller's clock says stop (read every
    /// [`CLOCK_INTERVAL`] nodes, and remembered).
    fn out_of_time(&mut self, stop: &mut dyn FnMut() -> bool) -> bool {
        if !self.stopped
            && (self.nodes >= self.budget || (self.nodes.is_multiple_of(CLOCK_INTERVAL) && stop()))
        {
            self.stopped = true;
        }
        self.stopped
    }
}

/// The table key of `position` in a role (`0` attacker, [`DEFENDER_KEY`] defender): the
/// Zobrist hash, with the board's size and line length told in (a searcher may be asked
/// about several boards).
fn table_key(position: &Fabrik, role: u64) -> u64 {
    let board = (u64::from(position.size) << 8 | u64::from(position.line_length))
        .wrapping_mul(0xbf58_476d_1ce4_e5b9);
    position.hash ^ role ^ board
}

/// The fours of the side to move (moves after which it threatens a line), keyed by how
/// many completion squares it then reaches, double threats first.
pub fn four_moves(position: &Fabrik, out: &mut Vec<(u8, Move)>) {
    if position.phase() != Phase::Play {
        return;
    }
    let us = position.side;
    let own = position.stones[us.index()];
    let theirs = position.stones[us.other().index()];
    let length = usize::from(position.line_length);
    let candidates = strong_squares(own, theirs, position.board, length, length as u32 - 2)
        & (position.empty() | position.workers);
    if candidates == 0 {
        return;
    }
    let start = out.len();
    let g = geometry();
    let stones = own | theirs;
    let empty = position.empty();
    let (a, b) = two_squares(position.workers);
    let here = position.placeable();
    for s in squares(candidates) {
        // The completion squares with a stone on `s`: the same whatever the workers do.
        let mut after = *position;
        after.stones[us.index()] |= bit(s);
        let done = completion_squares(&after, us);
        if done == 0 {
            continue;
        }
        let mut try_move = |mv: Move| {
            let mut child = *position;
            child.play(mv);
            let reached = super::eval::reach_within(&child, done);
            if reached != 0 {
                out.push((reached.count_ones().min(255) as u8, mv));
            }
        };
        if here & bit(s) != 0 {
            try_move(Move::place(s));
        }
        for (moved, fixed) in [(a, b), (b, a)] {
            if g.sight(fixed, stones) & bit(s) == 0 || (empty | bit(moved)) & bit(s) == 0 {
                continue;
            }
            let targets = g.sight(s, stones | bit(fixed)) & empty & !g.between(fixed, s);
            for t in squares(targets) {
                try_move(Move::relocate(moved, t, s));
            }
        }
    }
    out[start..].sort_by_key(|&(reached, _)| std::cmp::Reverse(reached));
}
