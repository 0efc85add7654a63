//! The bound table of the exact solvers: for each position met, by an exact key of at
//! most 72 bits, a lower and an upper bound of its score (counted from the position
//! itself, so an entry holds wherever it is met) and the best move found.
//!
//! Its size is fixed: buckets of four 16-byte entries (one cache line), where a new
//! position replaces the entry of least priority (the caller's measure of the work
//! it would cost to search again: the log of the nodes spent, or the pieces left).
//! A lost entry costs time, never exactness: keys are exact, not hashes.

use crate::hash::GOLDEN_GAMMA;

/// Entries in a bucket.
pub const BUCKET: usize = 4;
/// The best move of an entry that has none.
pub const NO_MOVE: u16 = u16::MAX;
/// Keys hold at most this many bits.
pub const KEY_BITS: u32 = 72;

/// One position's entry; `work == 0` marks an empty slot.
#[derive(Clone, Copy, Default, Debug)]
struct Entry {
    key_low: u64,
    key_high: u8,
    /// The replacement priority (never 0 in a used entry).
    work: u8,
    /// A move code of the caller's, or [`NO_MOVE`].
    best: u16,
    low: i16,
    high: i16,
}

/// What the table knows of a position.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Bounds {
    /// The score is at least `low` and at most `high` (relative to the position).
    pub low: i32,
    pub high: i32,
    /// The best move found, or [`NO_MOVE`].
    pub best: u16,
}

/// The table: `2^log2` entries in buckets of [`BUCKET`].
pub struct BoundTable {
    entries: Vec<Entry>,
    buckets_mask: usize,
}

impl BoundTable {
    /// A table of `2^log2_entries` entries (at least 16, at most 2^34) of 16 bytes, or
    /// `None` when the system refuses the memory.
    pub fn new(log2_entries: u32) -> Option<BoundTable> {
        let entries = 1usize << log2_entries.clamp(4, 34);
        Some(BoundTable {
            entries: crate::memory::try_filled("exact solver table", entries, Entry::default())?,
            buckets_mask: entries / BUCKET - 1,
        })
    }

    /// Entries in all.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::default());
    }

    /// The first entry of the bucket of `key`.
    fn bucket(&self, key: u128) -> usize {
        bucket_of(key, self.buckets_mask)
    }

    /// The bounds stored for `key`.
    #[inline]
    pub fn probe(&self, key: u128) -> Option<Bounds> {
        debug_assert!(key >> KEY_BITS == 0, "a key of more than {KEY_BITS} bits");
        let start = self.bucket(key);
        let (key_low, key_high) = (key as u64, (key >> 64) as u8);
        self.entries[start..start + BUCKET]
            .iter()
            .find(|e| e.work != 0 && e.key_low == key_low && e.key_high == key_high)
            .map(|e| Bounds {
                low: i32::from(e.low),
                high: i32::from(e.high),
                best: e.best,
            })
    }

    /// Records that the score of `key` lies in `low..=high` (merged with what the
    /// entry knew), with `best` (kept from before when [`NO_MOVE`]) and the priority
    /// `work`. Scores must fit 16 bits.
    pub fn store(&mut self, key: u128, low: i32, high: i32, best: u16, work: u8) {
        debug_assert!(key >> KEY_BITS == 0, "a key of more than {KEY_BITS} bits");
        let start = self.bucket(key);
        let (key_low, key_high) = (key as u64, (key >> 64) as u8);
        let bucket = &mut self.entries[start..start + BUCKET];
        if let Some(e) = bucket
            .iter_mut()
            .find(|e| e.work != 0 && e.key_low == key_low && e.key_high == key_high)
        {
            e.low = e.low.max(low as i16);
            e.high = e.high.min(high as i16);
            if best != NO_MOVE {
                e.best = best;
            }
            e.work = e.work.max(work);
            return;
        }
        let slot = (0..BUCKET).min_by_key(|&i| bucket[i].work).unwrap_or(0);
        bucket[slot] = Entry {
            key_low,
            key_high,
            work: work.max(1),
            best,
            low: low as i16,
            high: high as i16,
        };
    }
}

/// The first entry of the bucket of `key` in a table of `buckets_mask + 1` buckets
/// of [`BUCKET`] (the proof-number table's too).
pub fn bucket_of(key: u128, buckets_mask: usize) -> usize {
    let mixed = (key as u64 ^ (key >> 64) as u64 ^ (key >> 29) as u64).wrapping_mul(GOLDEN_GAMMA);
    ((mixed >> 20) as usize & buckets_mask) * BUCKET
}

/// The replacement priority of a subtree of `spent` nodes: its bits (1 to 64).
pub fn work_of(spent: u64) -> u8 {
    (64 - spent.max(1).leading_zeros()) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bounds_merge_and_the_least_work_makes_room() {
        let mut table = BoundTable::new(4).expect("a small table");
        let key = (1u128 << 70) | 12345;
        assert_eq!(table.probe(key), None);
        table.store(key, -1001, 40, NO_MOVE, 3);
        table.store(key, -5, 1001, 7, 1);
        assert_eq!(
            table.probe(key),
            Some(Bounds {
                low: -5,
                high: 40,
                best: 7
            })
        );
        // The same low 64 bits with another high byte is another position.
        assert_eq!(table.probe(12345), None);
        table.clear();
        assert_eq!(table.probe(key), None);
        assert_eq!(work_of(0), 1);
        assert_eq!(work_of(1), 1);
        assert_eq!(work_of(1000), 10);
    }
}
