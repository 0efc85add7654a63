//! One byte for a position's value in a table, so that a table of millions of
//! positions costs a byte each: the distance to the end of the game, with the winner
//! told by its parity. The Linetris retrograde tables (and their cache files) and the
//! Neutreeko table store this byte.
//!
//! | byte | meaning |
//! | --- | --- |
//! | [`DRAW`] (0) | a draw (during a build: not decided yet) |
//! | 1 ..= [`MAX_PLIES`] + 1 | the game ends after `byte − 1` plies of best play: an odd number is a win for the side to move (it makes the last move), an even one a loss (1: lost now) |
//! | [`COUNTER`] + n, n in 1 ..= [`MAX_COUNT`] | a build's count of the moves not yet known to lose (never in a finished table) |
//! | [`WON`] | the side to move has already won ([`Value::Win`]`(0)`, the one win at an even distance) |
//! | [`NONE`] | no position: an index that is no state of the table |
//!
//! The parity holds in games that end by the last mover's win (or a draw): a
//! retrograde build finds wins at odd distances and losses at even ones only. A draw's
//! distance is not kept (a table's draws are draws by endless play).

use super::Value;

/// A draw; during a build, a position not decided yet.
pub const DRAW: u8 = 0;
/// The base of a build's move counters: `COUNTER + n` is a position with `n` moves
/// not yet known to lose.
pub const COUNTER: u8 = 0xE0;
/// The largest count a counter holds.
pub const MAX_COUNT: u8 = WON - COUNTER - 1;
/// A position whose side to move has already won (`Win(0)`).
pub const WON: u8 = 0xFE;
/// No position.
pub const NONE: u8 = 0xFF;
/// The longest distance a byte holds, in plies.
pub const MAX_PLIES: u32 = COUNTER as u32 - 2;

/// The byte of a position decided at `plies` from the end (a win if odd, a loss if
/// even); `plies` is at most [`MAX_PLIES`].
#[inline]
pub const fn of_plies(plies: u32) -> u8 {
    debug_assert!(plies <= MAX_PLIES);
    (plies + 1) as u8
}

/// The byte of a build's counter of `moves` open moves (1 ..= [`MAX_COUNT`]).
#[inline]
pub const fn counter(moves: u8) -> u8 {
    debug_assert!(moves >= 1 && moves <= MAX_COUNT);
    COUNTER + moves
}

/// Whether a byte is a build's counter (an undecided position).
#[inline]
pub const fn is_counter(byte: u8) -> bool {
    byte > COUNTER && byte < WON
}

/// The byte of a value, or `None` where it has none: a win at an even distance other
/// than 0, a loss at an odd one, or a distance beyond [`MAX_PLIES`]. A draw's distance
/// is dropped.
pub fn encode(value: Value) -> Option<u8> {
    match value {
        Value::Draw(_) => Some(DRAW),
        Value::Win(0) => Some(WON),
        Value::Win(n) if n % 2 == 1 && n <= MAX_PLIES => Some(of_plies(n)),
        Value::Loss(n) if n % 2 == 0 && n <= MAX_PLIES => Some(of_plies(n)),
        _ => None,
    }
}

/// The value of a byte; `None` for [`NONE`] and a build's counters.
#[inline]
pub fn decode(byte: u8) -> Option<Value> {
    match byte {
        DRAW => Some(Value::Draw(0)),
        WON => Some(Value::Win(0)),
        b if b < COUNTER => {
            let plies = u32::from(b - 1);
            Some(if plies % 2 == 1 {
                Value::Win(plies)
            } else {
                Value::Loss(plies)
            })
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_decodes_and_encodes_back() {
        let mut values = 0;
        for byte in 0..=u8::MAX {
            match decode(byte) {
                Some(value) => {
                    values += 1;
                    assert_eq!(encode(value), Some(byte), "{byte}");
                    assert!(!is_counter(byte));
                }
                // A counter, or one that has run down (`COUNTER`, never stored).
                None => assert!(byte == NONE || (COUNTER..WON).contains(&byte), "{byte}"),
            }
        }
        // A draw, Win(0), and every distance from 0 to MAX_PLIES.
        assert_eq!(values, 2 + MAX_PLIES + 1);
        assert_eq!(decode(of_plies(0)), Some(Value::Loss(0)));
        assert_eq!(decode(of_plies(1)), Some(Value::Win(1)));
        assert_eq!(decode(of_plies(MAX_PLIES)), Some(Value::Loss(MAX_PLIES)));
        assert_eq!(counter(MAX_COUNT) + 1, WON);
        assert!(is_counter(counter(1)) && is_counter(counter(MAX_COUNT)));
    }

    #[test]
    fn values_without_a_byte() {
        assert_eq!(encode(Value::Win(2)), None);
        assert_eq!(encode(Value::Loss(3)), None);
        assert_eq!(encode(Value::Loss(MAX_PLIES + 2)), None);
        assert_eq!(encode(Value::Draw(7)), Some(DRAW));
    }
}
