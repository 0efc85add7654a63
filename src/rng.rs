//! A tiny deterministic generator (xorshift64*), for the places that want repeatable
//! random numbers cheaply: bench positions, Monte-Carlo playouts and the random games
//! of the tests. (`rand` serves where quality or an entropy source matters, such as
//! `Level`'s choices.)

/// xorshift64*: 64 bits of state, never zero.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Xorshift(u64);

impl Xorshift {
    /// A generator from `seed` (a zero seed is made odd: the state must not be zero).
    pub fn new(seed: u64) -> Self {
        Xorshift(seed | 1)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    /// A number in `0..n` (`n` at least 1).
    pub fn below(&mut self, n: u64) -> u64 {
        self.next_u64() % n.max(1)
    }

    /// An index into a slice of `len` items (`len` at least 1): [`Xorshift::below`] in
    /// `usize`, for picking a random element.
    pub fn index(&mut self, len: usize) -> usize {
        self.below(len as u64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sequence_repeats_and_spreads() {
        let mut a = Xorshift::new(42);
        let mut b = Xorshift::new(42);
        let first: Vec<u64> = (0..5).map(|_| a.next_u64()).collect();
        assert_eq!(first, (0..5).map(|_| b.next_u64()).collect::<Vec<_>>());
        assert_ne!(first[0], first[1]);
        // A zero seed still moves.
        let mut zero = Xorshift::new(0);
        assert_ne!(zero.next_u64(), zero.next_u64());
        // `below` covers its range.
        let mut seen = [false; 7];
        for _ in 0..200 {
            seen[a.below(7) as usize] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // `index` is `below` in usize.
        let (mut c, mut d) = (Xorshift::new(9), Xorshift::new(9));
        for len in 1..50 {
            assert_eq!(c.index(len) as u64, d.below(len as u64));
        }
    }
}
