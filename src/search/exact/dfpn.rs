//! Depth-first proof-number search (df-pn, Nagai 2002, with the 1 + ε threshold of
//! Pawlewicz and Lew 2007) over any game of the [`Exact`] trait: whether the side to
//! move wins, no distance. It proves where alpha-beta gets lost in wide trees,
//! spending its effort where the proof looks cheapest.
//!
//! A move filter makes it a proof over chosen moves only: at the nodes where the
//! prover is to move only the children the filter keeps are tried, at the opponent's
//! every one. "Not proven" then means no win by such moves, not a loss. With a
//! filter that keeps the forcing moves (threats), it is a threat-space search.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::bound::{BUCKET, NO_MOVE, bucket_of};
use super::negamax::{Child, Exact, Expansion, Interrupted};
use super::value::Value;
use crate::book::game::Consult;

/// Proof and disproof numbers at or above this are infinite.
const PN_INF: u32 = u32::MAX / 2;

/// Which children the prover tries at its own nodes: `filter(position, child)`.
pub type MoveFilter<'a, P> = &'a dyn Fn(&P, &Child<P>) -> bool;

/// One entry of the table: proof and disproof numbers of "the side to move wins".
#[derive(Clone, Copy, Default)]
struct Entry {
    key_low: u64,
    key_high: u8,
    /// log2 of the nodes spent on it (replacement priority); 0 = empty slot.
    work: u8,
    proof: u32,
    disproof: u32,
}

/// A node's children with their keys and numbers, kept per depth.
struct Frame<P> {
    children: Vec<Child<P>>,
    keys: Vec<u128>,
    numbers: Vec<(u32, u32)>,
}

impl<P> Default for Frame<P> {
    fn default() -> Self {
        Frame {
            children: Vec::new(),
            keys: Vec::new(),
            numbers: Vec::new(),
        }
    }
}

/// The proof-number search with its table.
pub struct DfPn<P> {
    table: Vec<Entry>,
    buckets_mask: usize,
    stack: Vec<Frame<P>>,
    nodes: u64,
    deadline: Option<Instant>,
    stopped: bool,
}

impl<P: Copy> DfPn<P> {
    /// A search with a table of `2^log2_entries` entries, or `None` when the system
    /// refuses the memory.
    pub fn new(log2_entries: u32) -> Option<Self> {
        let entries = 1usize << log2_entries.clamp(4, 34);
        Some(DfPn {
            table: crate::memory::try_filled("proof-number table", entries, Entry::default())?,
            buckets_mask: entries / BUCKET - 1,
            stack: Vec::new(),
            nodes: 0,
            deadline: None,
            stopped: false,
        })
    }

    /// Nodes expanded so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    pub fn clear(&mut self) {
        self.table.fill(Entry::default());
        self.nodes = 0;
    }

    /// Whether the side to move wins `position` (by the moves `filter` keeps, if
    /// any), with the nodes expanded.
    pub fn prove<E: Exact<Position = P>>(
        &mut self,
        game: &mut E,
        book: &mut Option<Consult>,
        position: &P,
        stop: &AtomicBool,
        deadline: Option<Instant>,
        filter: Option<MoveFilter<'_, P>>,
    ) -> Result<(bool, u64), Interrupted> {
        self.stopped = false;
        self.deadline = deadline;
        let before = self.nodes;
        let key = game.key(position).ok_or(Interrupted)?.bits;
        loop {
            let (proof, disproof) =
                self.mid(game, book, position, key, PN_INF, PN_INF, 0, stop, filter);
            if self.stopped {
                return Err(Interrupted);
            }
            if proof == 0 || disproof == 0 {
                return Ok((proof == 0, self.nodes - before));
            }
        }
    }

    fn bucket(&self, key: u128) -> usize {
        bucket_of(key, self.buckets_mask)
    }

    fn probe(&self, key: u128) -> Option<(u32, u32)> {
        let start = self.bucket(key);
        let (key_low, key_high) = (key as u64, (key >> 64) as u8);
        self.table[start..start + BUCKET]
            .iter()
            .find(|e| e.work != 0 && e.key_low == key_low && e.key_high == key_high)
            .map(|e| (e.proof, e.disproof))
    }

    fn store(&mut self, key: u128, proof: u32, disproof: u32, work: u8) {
        let start = self.bucket(key);
        let (key_low, key_high) = (key as u64, (key >> 64) as u8);
        let bucket = &mut self.table[start..start + BUCKET];
        // Proven entries outrank open ones of the same work.
        let rank = |e: &Entry| {
            let solved = e.proof == 0 || e.disproof == 0;
            (u16::from(e.work) << 1) | u16::from(solved)
        };
        let work = work.max(1);
        let slot = bucket
            .iter()
            .position(|e| e.work != 0 && e.key_low == key_low && e.key_high == key_high)
            .unwrap_or_else(|| (0..BUCKET).min_by_key(|&i| rank(&bucket[i])).unwrap_or(0));
        bucket[slot] = Entry {
            proof,
            disproof,
            work,
            key_low,
            key_high,
        };
    }

    /// Searches `position` (whose key is `key`, `depth` plies below the root) until
    /// its proof number reaches `proof_limit` or its disproof number
    /// `disproof_limit`; returns both.
    #[allow(clippy::too_many_arguments)]
    fn mid<E: Exact<Position = P>>(
        &mut self,
        game: &mut E,
        book: &mut Option<Consult>,
        position: &P,
        key: u128,
        proof_limit: u32,
        disproof_limit: u32,
        depth: usize,
        stop: &AtomicBool,
        filter: Option<MoveFilter<'_, P>>,
    ) -> (u32, u32) {
        self.nodes += 1;
        if self.nodes & 0xffff == 0
            && (stop.load(Ordering::Relaxed)
                || self.deadline.is_some_and(|end| Instant::now() >= end))
        {
            self.stopped = true;
        }
        if self.stopped {
            return (1, 1);
        }
        if self.stack.len() <= depth {
            self.stack.resize_with(depth + 1, Frame::default);
        }
        let mut frame = std::mem::take(&mut self.stack[depth]);
        let result = self.expand_and_search(
            game,
            book,
            position,
            key,
            (proof_limit, disproof_limit),
            depth,
            stop,
            filter,
            &mut frame,
        );
        self.stack[depth] = frame;
        result
    }

    #[allow(clippy::too_many_arguments)]
    fn expand_and_search<E: Exact<Position = P>>(
        &mut self,
        game: &mut E,
        book: &mut Option<Consult>,
        position: &P,
        key: u128,
        (proof_limit, disproof_limit): (u32, u32),
        depth: usize,
        stop: &AtomicBool,
        filter: Option<MoveFilter<'_, P>>,
        frame: &mut Frame<P>,
    ) -> (u32, u32) {
        let nodes_before = self.nodes;
        frame.children.clear();
        let expansion =
            super::negamax::known(game, book, position).map(|v| Expansion::Known(v, NO_MOVE));
        let expansion = expansion.unwrap_or_else(|| {
            game.expand(
                position,
                &super::negamax::Key {
                    bits: key,
                    frame: 0,
                },
                NO_MOVE,
                &mut frame.children,
            )
        });
        if let Expansion::Known(value, _) = expansion {
            let result = match value {
                Value::Win(_) => (0, PN_INF),
                _ => (PN_INF, 0),
            };
            self.store(key, result.0, result.1, 1);
            return result;
        }
        // The prover's own nodes try only what the filter keeps.
        if let Some(keep) = filter
            && depth.is_multiple_of(2)
        {
            frame.children.retain(|child| keep(position, child));
        }
        let n = frame.children.len();
        if n == 0 {
            self.store(key, PN_INF, 0, 1);
            return (PN_INF, 0);
        }
        frame.keys.clear();
        frame.numbers.clear();
        // The children's (proof, disproof) numbers, from the table, then from their
        // searches (a child's entry may be overwritten while we still need it).
        for child in &frame.children {
            let Some(child_key) = game.key(&child.position) else {
                self.stopped = true;
                return (1, 1);
            };
            frame.keys.push(child_key.bits);
            frame
                .numbers
                .push(self.probe(child_key.bits).unwrap_or((1, 1)));
        }
        loop {
            // The node wins if one child loses: its proof number is the least of the
            // children's disproof numbers, its disproof number their proof numbers' sum.
            let (mut best, mut best_dn, mut second_dn) = (0, PN_INF, PN_INF);
            let mut sum_pn: u32 = 0;
            for (i, &(cp, cd)) in frame.numbers.iter().enumerate() {
                sum_pn = sum_pn.saturating_add(cp).min(PN_INF);
                if cd < best_dn {
                    second_dn = best_dn;
                    best_dn = cd;
                    best = i;
                } else if cd < second_dn {
                    second_dn = cd;
                }
            }
            let (proof, disproof) = (best_dn, sum_pn);
            if proof >= proof_limit || disproof >= disproof_limit || self.stopped {
                let spent = self.nodes - nodes_before + 1;
                if !self.stopped {
                    self.store(key, proof, disproof, (64 - spent.leading_zeros()) as u8);
                }
                return (proof, disproof);
            }
            // The child's disproof limit bounds our proof number: below the second best
            // by a margin (1 + ε, ε = 1/4), and within our own limit.
            let child_disproof_limit =
                proof_limit.min(second_dn.saturating_add(second_dn / 4).saturating_add(1));
            let child_proof_limit = disproof_limit - disproof + frame.numbers[best].0;
            let child = frame.children[best].position;
            frame.numbers[best] = self.mid(
                game,
                book,
                &child,
                frame.keys[best],
                child_proof_limit.min(PN_INF),
                child_disproof_limit.min(PN_INF),
                depth + 1,
                stop,
                filter,
            );
        }
    }
}
