//! Bitboards for Linetris and its Connect Four solver.
//!
//! Layout (the classic Connect Four one): column-major, `rows + 1` bits per column,
//! bit `col * (rows + 1) + row` is the cell in column `col` (0 = left) and row `row`
//! (0 = bottom). The top bit of every column is a sentinel that is never set, so
//! shifting a board never carries a line from one column into the next. Up to 10×10
//! that is 110 bits: the rules use `u128`; the solver uses `u64` when the board fits.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// An unsigned integer used as a bitboard (`u64` or `u128`).
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Debug
    + Default
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
    + BitOrAssign
    + BitAndAssign
{
    const ZERO: Self;
    const ONE: Self;
    /// Width of the integer.
    const BITS: u32;
    /// The truncated key a transposition table stores.
    type Key: Copy + Eq + Default + Debug + Send + Sync + 'static;

    fn count(self) -> u32;
    /// Wrapping addition (carries are how drops are computed).
    fn plus(self, other: Self) -> Self;
    fn from_u128(value: u128) -> Self;
    fn to_u128(self) -> u128;
    /// `self mod modulus`, for transposition table indices.
    fn modulo(self, modulus: u64) -> usize;
    /// The low bits of `self` kept as the table's key.
    fn truncate(self) -> Self::Key;
}

impl Bits for u64 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 64;
    type Key = u32;

    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn plus(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn from_u128(value: u128) -> Self {
        value as u64
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        u128::from(self)
    }
    #[inline(always)]
    fn modulo(self, modulus: u64) -> usize {
        (self % modulus) as usize
    }
    #[inline(always)]
    fn truncate(self) -> u32 {
        self as u32
    }
}

impl Bits for u128 {
    const ZERO: Self = 0;
    const ONE: Self = 1;
    const BITS: u32 = 128;
    type Key = u64;

    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn plus(self, other: Self) -> Self {
        self.wrapping_add(other)
    }
    #[inline(always)]
    fn from_u128(value: u128) -> Self {
        value
    }
    #[inline(always)]
    fn to_u128(self) -> u128 {
        self
    }
    #[inline(always)]
    fn modulo(self, modulus: u64) -> usize {
        (self % u128::from(modulus)) as usize
    }
    #[inline(always)]
    fn truncate(self) -> u64 {
        self as u64
    }
}

/// The masks of one board size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Geometry<B> {
    pub rows: u32,
    pub cols: u32,
    /// Row 0 of every column.
    pub bottom: B,
    /// Every real cell (no sentinels).
    pub board: B,
    /// The top real cell of every column.
    pub top: B,
}

impl<B: Bits> Geometry<B> {
    /// The geometry of a `rows`×`cols` board; needs `cols * (rows + 1) <= B::BITS`.
    pub fn new(rows: u32, cols: u32) -> Self {
        assert!(
            cols * (rows + 1) <= B::BITS,
            "board too large for the bitboard"
        );
        let mut bottom = B::ZERO;
        let mut board = B::ZERO;
        let mut top = B::ZERO;
        for col in 0..cols {
            bottom |= B::ONE << (col * (rows + 1));
            top |= B::ONE << (col * (rows + 1) + rows - 1);
            for row in 0..rows {
                board |= B::ONE << (col * (rows + 1) + row);
            }
        }
        Geometry {
            rows,
            cols,
            bottom,
            board,
            top,
        }
    }

    /// The bit of a cell.
    #[inline(always)]
    pub fn cell(&self, col: u32, row: u32) -> B {
        B::ONE << (col * (self.rows + 1) + row)
    }

    /// Every real cell of a column.
    #[inline(always)]
    pub fn column(&self, col: u32) -> B {
        // `rows` ones, shifted into place.
        (B::ONE << self.rows).plus(!B::ZERO) << (col * (self.rows + 1))
    }

    /// The bottom cell of a column.
    #[inline(always)]
    pub fn bottom_of(&self, col: u32) -> B {
        B::ONE << (col * (self.rows + 1))
    }

    /// The cell a piece dropped into `col` lands on (zero when the column is full):
    /// adding the column's bottom bit carries through the column's pieces.
    #[inline(always)]
    pub fn drop_cell(&self, mask: B, col: u32) -> B {
        mask.plus(self.bottom_of(col)) & self.column(col)
    }

    /// The cells where a piece can be dropped now, one per non-full column.
    #[inline(always)]
    pub fn playable(&self, mask: B) -> B {
        mask.plus(self.bottom) & self.board
    }

    /// Whether `pieces` holds four or more in a line.
    #[inline(always)]
    pub fn has_four(&self, pieces: B) -> bool {
        let h = self.rows;
        for shift in [1, h + 1, h, h + 2] {
            let pairs = pieces & (pieces >> shift);
            if pairs & (pairs >> (2 * shift)) != B::ZERO {
                return true;
            }
        }
        false
    }

    /// Every empty cell (playable or not) that would give `own` four in a line.
    #[inline(always)]
    pub fn winning_cells(&self, own: B, mask: B) -> B {
        let h = self.rows;
        // Vertical: three below.
        let mut r = (own << 1) & (own << 2) & (own << 3);
        for shift in [h + 1, h, h + 2] {
            let mut p = (own << shift) & (own << (2 * shift));
            r |= p & (own << (3 * shift));
            r |= p & (own >> shift);
            p = (own >> shift) & (own >> (2 * shift));
            r |= p & (own << shift);
            r |= p & (own >> (3 * shift));
        }
        r & (self.board ^ mask)
    }

    /// The mirror image of a board (column `c` to column `cols - 1 - c`). Works on
    /// keys too, since a key's columns never carry into each other.
    #[inline(always)]
    pub fn mirror(&self, b: B) -> B {
        let width = self.rows + 1;
        let field = (B::ONE << width).plus(!B::ZERO);
        let mut out = B::ZERO;
        for col in 0..self.cols {
            out |= ((b >> (col * width)) & field) << ((self.cols - 1 - col) * width);
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks_of_a_six_by_seven_board() {
        let g = Geometry::<u64>::new(6, 7);
        assert_eq!(g.bottom.count_ones(), 7);
        assert_eq!(g.board.count_ones(), 42);
        assert_eq!(g.column(0), 0b111111);
        assert_eq!(g.column(1), 0b111111 << 7);
        assert_eq!(g.drop_cell(0, 2), 1 << 14);
        let full = g.column(2);
        assert_eq!(g.drop_cell(full, 2), 0);
        assert_eq!(g.mirror(g.cell(0, 3)), g.cell(6, 3));
        assert_eq!(g.mirror(g.cell(3, 5)), g.cell(3, 5));
    }

    #[test]
    fn fours_and_winning_cells() {
        let g = Geometry::<u128>::new(10, 10);
        let row: u128 = (0..4).map(|c| g.cell(c + 6, 9)).fold(0, |a, b| a | b);
        assert!(g.has_four(row));
        let diag: u128 = (0..4).map(|k| g.cell(k + 2, 9 - k)).fold(0, |a, b| a | b);
        assert!(g.has_four(diag));
        // Three on the top row of one column and the bottom of the next is no line.
        let wrap = g.cell(0, 8) | g.cell(0, 9) | g.cell(1, 0) | g.cell(1, 1);
        assert!(!g.has_four(wrap));
        let three = g.cell(1, 0) | g.cell(2, 0) | g.cell(3, 0);
        let cells = g.winning_cells(three, three);
        assert_eq!(cells, g.cell(0, 0) | g.cell(4, 0));
    }
}
