//! The transposition table: a flat array of entries, one probe per position, shared
//! without locks by every thread of a search.
//!
//! An entry keeps the full 64-bit key (cheap insurance against collisions between
//! positions of very different games and sizes), the best move's [`MoveCode`], the
//! score with mate distances made relative to the node, the depth searched, and the
//! kind of bound. A depth of [`PROVEN`] marks a value that no horizon touched: an
//! exact game value.
//!
//! Each entry is two atomic words: the data packed in one, and in the other the low 48
//! bits of the key XOR the data (the scheme of Hyatt and Mann's "lockless transposition
//! table") under the 16-bit generation of the table when it was written. Two threads
//! writing one slot at once may leave the words of different stores; such a slot fails
//! the key check and reads as empty, so a probe sees a whole entry or none. The words
//! are read and written with relaxed ordering: nothing else is published through them.
//!
//! The 48 bits identify the key exactly: the slot is the key's top bits (a multiply-high
//! onto at least 2^16 slots), so two keys of one slot differ by less than 2^48 and agree
//! on their low 48 bits only if they are equal.
//!
//! Clearing the table (a new game, a proof) costs nothing: it moves to the next
//! generation, and an entry of another generation reads as empty. Only when the 16-bit
//! generation wraps around does a clear wipe every slot, so that no entry of an old
//! generation can come back.
//!
//! [`MoveCode`]: crate::game::MoveCode

use std::sync::atomic::{AtomicU8, AtomicU16, AtomicU64, Ordering};

/// Depth stored for values proven without any heuristic leaf below them.
pub const PROVEN: u8 = u8::MAX;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bound {
    Exact,
    /// The score is a lower bound (the node failed high).
    Lower,
    /// The score is an upper bound (the node failed low).
    Upper,
}

/// One stored search result, unpacked.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Entry {
    pub key: u64,
    /// The best move's code ([`crate::game::MoveCode`]).
    pub mv: Option<u32>,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
    pub age: u8,
}

/// The data word: bits 0–31 the move code (`u32::MAX` for none), 32–47 the score,
/// 48–55 the depth, 56–57 the bound (1–3; a data word of 0 is an empty slot), 58–63
/// the age.
const NO_MOVE: u32 = u32::MAX;
/// Ages wrap within six bits: only equality with the current age matters.
const AGE_MASK: u8 = 0x3f;

impl Entry {
    fn pack(&self) -> u64 {
        let bound = match self.bound {
            Bound::Exact => 1u64,
            Bound::Lower => 2,
            Bound::Upper => 3,
        };
        u64::from(self.mv.unwrap_or(NO_MOVE))
            | u64::from(self.score as u16) << 32
            | u64::from(self.depth) << 48
            | bound << 56
            | u64::from(self.age & AGE_MASK) << 58
    }

    fn unpack(key: u64, data: u64) -> Option<Entry> {
        let bound = match (data >> 56) & 3 {
            1 => Bound::Exact,
            2 => Bound::Lower,
            3 => Bound::Upper,
            _ => return None,
        };
        let code = data as u32;
        Some(Entry {
            key,
            mv: (code != NO_MOVE).then_some(code),
            score: (data >> 32) as u16 as i16,
            depth: (data >> 48) as u8,
            bound,
            age: (data >> 58) as u8,
        })
    }
}

/// A slot: the generation in the top 16 bits and the key XOR the data in the low 48,
/// and the data.
#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// The bits of the key that a slot's check word keeps.
const KEY_BITS: u32 = 48;
const KEY_MASK: u64 = (1 << KEY_BITS) - 1;
/// The fewest slots: enough that the slot fixes every key bit the check word drops.
const MIN_SLOTS: usize = 1 << (64 - KEY_BITS);

impl Slot {
    /// The entry in the slot if it belongs to `generation` (its key only to 48 bits).
    fn read(&self, generation: u16) -> Option<Entry> {
        let data = self.data.load(Ordering::Relaxed);
        let check = self.check.load(Ordering::Relaxed);
        if (check >> KEY_BITS) as u16 != generation {
            return None;
        }
        Entry::unpack((check ^ data) & KEY_MASK, data)
    }
}

/// A table the system has no memory for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TableError {
    pub mib: usize,
}

impl std::fmt::Display for TableError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "no memory for a transposition table of {} MiB", self.mib)
    }
}

impl std::error::Error for TableError {}

/// The table. Its size is set in MiB; it never grows. Every method takes `&self`:
/// threads share it through an `Arc`.
pub struct Tt {
    slots: Box<[Slot]>,
    age: AtomicU8,
    /// Entries of other generations are empty; 0 is never current (a zeroed slot's).
    generation: AtomicU16,
}

impl Tt {
    /// A table of about `mib` MiB (at least 2^16 entries, 1 MiB).
    ///
    /// Every slot is written once here: the allocator hands out zeroed memory that the
    /// system maps page by page on first write, and a table left so would pay for
    /// those faults during the first searches instead of where it is allocated (before
    /// `readyok`, or before the clock starts).
    ///
    /// # Panics
    /// When the system refuses the memory (an abort, as any failed allocation):
    /// [`Tt::try_new`] reports it instead.
    pub fn new(mib: usize) -> Self {
        match Tt::try_new(mib) {
            Ok(tt) => tt,
            Err(error) => panic!("{error}"),
        }
    }

    /// [`Tt::new`], or an error when the system refuses the memory (a `Hash` larger
    /// than the machine or the process's limit allows).
    pub fn try_new(mib: usize) -> Result<Self, TableError> {
        let bytes = mib.max(1).saturating_mul(1024 * 1024);
        let count = (bytes / size_of::<Slot>()).max(MIN_SLOTS);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(count)
            .map_err(|_| TableError { mib })?;
        slots.extend((0..count).map(|_| Slot::default()));
        let tt = Tt {
            slots: slots.into_boxed_slice(),
            age: AtomicU8::new(0),
            generation: AtomicU16::new(1),
        };
        tt.wipe();
        Ok(tt)
    }

    pub fn len(&self) -> usize {
        self.slots.len()
    }

    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    fn slot(&self, key: u64) -> &Slot {
        // Multiply-high maps the key onto any table length without a modulo.
        &self.slots[((u128::from(key) * self.slots.len() as u128) >> 64) as usize]
    }

    fn age(&self) -> u8 {
        self.age.load(Ordering::Relaxed)
    }

    fn generation(&self) -> u16 {
        self.generation.load(Ordering::Relaxed)
    }

    /// Forgets everything (a new game): a new generation, and a wipe of every slot only
    /// when the generations wrap around. Not to be called while a search runs.
    pub fn clear(&self) {
        let next = self.generation().wrapping_add(1);
        if next == 0 {
            self.wipe();
            self.generation.store(1, Ordering::Relaxed);
        } else {
            self.generation.store(next, Ordering::Relaxed);
        }
        self.age.store(0, Ordering::Relaxed);
    }

    /// Zeroes every slot.
    fn wipe(&self) {
        for slot in self.slots.iter() {
            slot.check.store(0, Ordering::Relaxed);
            slot.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks the start of a new search, so that old entries give way first.
    pub fn new_search(&self) {
        self.age
            .store(self.age().wrapping_add(1) & AGE_MASK, Ordering::Relaxed);
    }

    /// Starts reading the slot of `key` from memory, so that a [`Tt::probe`] of it soon
    /// after finds it in the cache (a load whose value is not waited for: the safe
    /// stand-in for a prefetch instruction).
    #[inline(always)]
    pub fn prefetch(&self, key: u64) {
        std::hint::black_box(self.slot(key).data.load(Ordering::Relaxed));
    }

    pub fn probe(&self, key: u64) -> Option<Entry> {
        let entry = self.slot(key).read(self.generation())?;
        (entry.key == key & KEY_MASK).then_some(Entry { key, ..entry })
    }

    pub fn store(&self, key: u64, mv: Option<u32>, score: i32, depth: u8, bound: Bound) {
        let slot = self.slot(key);
        let age = self.age();
        let generation = self.generation();
        let mut mv = mv;
        if let Some(old) = slot.read(generation) {
            let same = old.key == key & KEY_MASK;
            // Keep a deeper entry of this search for another position; keep the old
            // move when the new store has none.
            if !same && old.age == age && old.depth > depth.saturating_add(2) {
                return;
            }
            if same && old.depth == PROVEN && depth != PROVEN {
                return;
            }
            if mv.is_none() && same {
                mv = old.mv;
            }
        }
        let entry = Entry {
            key,
            mv,
            score: score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
            depth,
            bound,
            age,
        };
        let data = entry.pack();
        slot.data.store(data, Ordering::Relaxed);
        slot.check.store(
            u64::from(generation) << KEY_BITS | (key ^ data) & KEY_MASK,
            Ordering::Relaxed,
        );
    }

    /// Permille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.slots.len().min(1000);
        let (age, generation) = (self.age(), self.generation());
        let used = self.slots[..sample]
            .iter()
            .filter(|slot| slot.read(generation).is_some_and(|entry| entry.age == age))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let tt = Tt::new(1);
        assert!(tt.len() >= MIN_SLOTS);
        tt.store(42, Some(7), -150, 5, Bound::Lower);
        let entry = tt.probe(42).unwrap();
        assert_eq!((entry.mv, entry.score, entry.depth), (Some(7), -150, 5));
        assert_eq!(entry.bound, Bound::Lower);
        assert!(tt.probe(43).is_none());
        // A store without a move keeps the old move.
        tt.store(42, None, 10, 6, Bound::Exact);
        assert_eq!(tt.probe(42).unwrap().mv, Some(7));
        // Proven values are not overwritten by heuristic ones.
        tt.store(42, Some(1), 0, PROVEN, Bound::Exact);
        tt.store(42, Some(2), 99, 9, Bound::Exact);
        assert_eq!(tt.probe(42).unwrap().score, 0);
        tt.clear();
        assert!(tt.probe(42).is_none());
        assert_eq!(tt.hashfull(), 0);
    }

    #[test]
    fn a_clear_hides_every_old_entry_even_after_the_generations_wrap() {
        let tt = Tt::new(1);
        let keys: Vec<u64> = (1..=1000u64)
            .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15))
            .collect();
        for &key in &keys {
            tt.store(key, Some(1), 5, 3, Bound::Exact);
        }
        assert!(keys.iter().all(|&k| tt.probe(k).is_some()));
        tt.clear();
        assert!(keys.iter().all(|&k| tt.probe(k).is_none()));
        // A store in the new generation replaces the stale entry whatever its depth.
        tt.store(keys[0], Some(2), 7, 1, Bound::Lower);
        assert_eq!(
            tt.probe(keys[0]).map(|e| (e.mv, e.depth)),
            Some((Some(2), 1))
        );
        // Around the whole cycle of generations: the entries of generation 1 must not
        // come back when it is current again.
        let fresh = Tt::new(1);
        fresh.store(keys[1], Some(3), 0, 2, Bound::Upper);
        for _ in 0..u16::MAX {
            fresh.clear();
        }
        assert_eq!(fresh.generation(), 1);
        assert!(fresh.probe(keys[1]).is_none());
    }

    #[test]
    fn keys_that_share_low_bits_are_told_apart() {
        let tt = Tt::new(1);
        // Same low 48 bits, different top bits: different slots, never confused.
        let a = 0x0001_2345_6789_abcd_u64;
        let b = a | 0xffff << KEY_BITS;
        tt.store(a, Some(1), 10, 4, Bound::Exact);
        assert!(tt.probe(b).is_none());
        assert_eq!(tt.probe(a).map(|e| e.key), Some(a));
    }

    #[test]
    fn packs_every_field() {
        for (mv, score, depth, bound, age) in [
            (None, i16::MIN, 0, Bound::Upper, 0),
            (Some(0), i16::MAX, PROVEN, Bound::Exact, AGE_MASK),
            (Some(u32::MAX - 1), -1, 17, Bound::Lower, 5),
        ] {
            let entry = Entry {
                key: 0xdead_beef_0123_4567,
                mv,
                score,
                depth,
                bound,
                age,
            };
            assert_ne!(entry.pack(), 0);
            assert_eq!(Entry::unpack(entry.key, entry.pack()), Some(entry));
        }
    }

    #[test]
    fn ages_wrap_and_count_in_hashfull() {
        let tt = Tt::new(1);
        for _ in 0..200 {
            tt.new_search();
        }
        assert_eq!(tt.age(), 200 & AGE_MASK);
        // Keys spread over the whole table: some land in the sampled first slots.
        let mut key = 1u64;
        for _ in 0..tt.len() {
            key = key.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(1);
            tt.store(key, None, 0, 1, Bound::Exact);
        }
        assert!(tt.hashfull() > 500, "{}", tt.hashfull());
        tt.new_search();
        assert_eq!(tt.hashfull(), 0);
    }

    /// Threads hammering one slot with keys whose entries' fields all derive from the
    /// key: every entry a probe returns must be one that some thread stored whole.
    #[test]
    fn concurrent_writes_never_tear() {
        let tt = Tt::new(1);
        // The same top bits: the same slot.
        let keys: Vec<u64> = (1..=4u64)
            .map(|i| 0xabcd_0000_0000_0000 | i.wrapping_mul(0x0123_4567_89ab))
            .collect();
        assert!(
            keys.iter()
                .all(|&k| std::ptr::eq(tt.slot(k), tt.slot(keys[0])))
        );
        let derived = |key: u64| {
            (
                Some(key as u32 >> 1),
                (key >> 16) as i16 as i32,
                (key >> 8) as u8 % 4,
            )
        };
        std::thread::scope(|scope| {
            for t in 0..4 {
                let (tt, keys) = (&tt, &keys);
                scope.spawn(move || {
                    for n in 0..200_000usize {
                        let key = keys[(n + t) % keys.len()];
                        let (mv, score, depth) = derived(key);
                        tt.store(key, mv, score, depth, Bound::Exact);
                        let other = keys[(n * 7 + t) % keys.len()];
                        if let Some(entry) = tt.probe(other) {
                            let (mv, score, depth) = derived(other);
                            assert_eq!(
                                (entry.mv, i32::from(entry.score), entry.depth),
                                (mv, score, depth)
                            );
                        }
                    }
                });
            }
        });
    }
}
