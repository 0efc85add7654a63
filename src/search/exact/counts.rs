//! The counts of a solved table: won, lost and drawn positions for the side to move,
//! and the longest win and loss. The Linetris retrograde tables and the Neutreeko
//! table report them.

use super::Value;
use super::byte;

/// Won, lost and drawn positions for the side to move, and the longest win and loss
/// in plies.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    pub longest_win: u32,
    pub longest_loss: u32,
}

impl Counts {
    pub fn total(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Counts `positions` positions of one value (a stored position may stand for a
    /// class of symmetric ones).
    pub fn add(&mut self, value: Value, positions: u64) {
        match value {
            Value::Win(n) => {
                self.wins += positions;
                self.longest_win = self.longest_win.max(n);
            }
            Value::Loss(n) => {
                self.losses += positions;
                self.longest_loss = self.longest_loss.max(n);
            }
            Value::Draw(_) => self.draws += positions,
        }
    }

    /// Counts a table's byte ([`byte`]): one position of its value; nothing for
    /// [`byte::NONE`] or a build's counter.
    pub fn add_byte(&mut self, b: u8) {
        if let Some(value) = byte::decode(b) {
            self.add(value, 1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_bytes_and_classes() {
        let mut counts = Counts::default();
        for b in [
            byte::of_plies(1),
            byte::of_plies(7),
            byte::of_plies(4),
            0,
            byte::NONE,
        ] {
            counts.add_byte(b);
        }
        counts.add(Value::Loss(10), 8);
        assert_eq!(
            counts,
            Counts {
                wins: 2,
                losses: 9,
                draws: 1,
                longest_win: 7,
                longest_loss: 10,
            }
        );
        assert_eq!(counts.total(), 12);
    }
}
