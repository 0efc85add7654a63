//! The transposition table: a flat array of entries, one probe per position.
//!
//! Entries keep the full 64-bit key (cheap insurance against collisions between
//! positions of very different games and sizes), the best move, the score with mate
//! distances made relative to the node, the depth searched, and the kind of bound.
//! A depth of [`PROVEN`] marks a value that no horizon touched: an exact game value.

use std::mem::size_of;

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

#[derive(Clone, Copy, Debug)]
pub struct Entry<M: Copy> {
    pub key: u64,
    pub mv: Option<M>,
    pub score: i16,
    pub depth: u8,
    pub bound: Bound,
    pub age: u8,
}

/// The table. Its size is set in MiB; it never grows.
pub struct Tt<M: Copy> {
    entries: Vec<Option<Entry<M>>>,
    age: u8,
}

impl<M: Copy> Tt<M> {
    /// A table of about `mib` MiB (at least a few thousand entries).
    pub fn new(mib: usize) -> Self {
        let entry_size = size_of::<Option<Entry<M>>>().max(1);
        let count = (mib.max(1) * 1024 * 1024 / entry_size).max(1024);
        Tt {
            entries: vec![None; count],
            age: 0,
        }
    }

    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn index(&self, key: u64) -> usize {
        // Multiply-high maps the key onto any table length without a modulo.
        ((u128::from(key) * self.entries.len() as u128) >> 64) as usize
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|entry| *entry = None);
        self.age = 0;
    }

    /// Marks the start of a new search, so that old entries give way first.
    pub fn new_search(&mut self) {
        self.age = self.age.wrapping_add(1);
    }

    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        self.entries[self.index(key)].filter(|entry| entry.key == key)
    }

    pub fn store(&mut self, key: u64, mv: Option<M>, score: i32, depth: u8, bound: Bound) {
        let index = self.index(key);
        let age = self.age;
        let slot = &mut self.entries[index];
        if let Some(old) = slot {
            let same = old.key == key;
            // Keep a deeper entry of this search for another position; keep the old
            // move when the new store has none.
            if !same && old.age == age && old.depth > depth.saturating_add(2) {
                return;
            }
            if same && old.depth == PROVEN && depth != PROVEN {
                return;
            }
            let mv = if mv.is_none() && same { old.mv } else { mv };
            *slot = Some(Entry {
                key,
                mv,
                score: score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                depth,
                bound,
                age,
            });
        } else {
            *slot = Some(Entry {
                key,
                mv,
                score: score.clamp(i16::MIN.into(), i16::MAX.into()) as i16,
                depth,
                bound,
                age,
            });
        }
    }

    /// Permille of a sample of entries written in the current search.
    pub fn hashfull(&self) -> u32 {
        let sample = self.entries.len().min(1000);
        let used = self.entries[..sample]
            .iter()
            .filter(|entry| entry.is_some_and(|entry| entry.age == self.age))
            .count();
        (used * 1000 / sample.max(1)) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes() {
        let mut tt: Tt<u16> = Tt::new(1);
        assert!(tt.len() >= 1024);
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
}
