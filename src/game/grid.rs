//! Directions on a square board, shared by the games that move along them.

/// The eight directions as (file step, rank step): the four orthogonal ones, then the
/// four diagonals.
pub const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (1, -1),
    (-1, 1),
    (-1, -1),
];

/// The index in [`DIRECTIONS`] of the direction opposite each one.
pub const OPPOSITE: [usize; 8] = [1, 0, 3, 2, 7, 6, 5, 4];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opposites_are_opposite() {
        for (d, &(df, dr)) in DIRECTIONS.iter().enumerate() {
            assert_eq!(DIRECTIONS[OPPOSITE[d]], (-df, -dr));
        }
    }
}
