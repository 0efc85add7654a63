//! Memory the system may refuse: tables are allocated with [`try_filled`], so that a
//! table that does not fit (a small `ulimit -v`, a busy machine) is no table and an
//! error line, never an abort of the engine.

/// `n` copies of `value`, or `None` (logged, with `what` naming the table) when the
/// system refuses the memory.
pub fn try_filled<T: Clone>(what: &str, n: usize, value: T) -> Option<Vec<T>> {
    let mut items = Vec::new();
    if items.try_reserve_exact(n).is_err() {
        log::warn!(
            "{what}: no memory for {n} entries of {} bytes",
            size_of::<T>()
        );
        return None;
    }
    items.resize(n, value);
    Some(items)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_size_that_fits_is_filled_and_one_that_cannot_is_refused() {
        assert_eq!(try_filled("test", 3, 7u8), Some(vec![7, 7, 7]));
        // More than any address space: refused, not an abort.
        assert_eq!(try_filled("test", usize::MAX / 2, 0u64), None);
    }
}
