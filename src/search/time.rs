//! Time management: from the `go` limits to a soft and a hard time budget.
//!
//! The hard budget ends the search wherever it is; the soft budget decides whether
//! another iteration is worth starting. `MoveOverhead` (the time lost between the
//! engine and the arena) is taken off both.

use std::time::Duration;

use crate::game::Player;
use crate::protocol::Limits;

/// Budgets for one search; `None` means no time limit.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Budget {
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

/// The least time the engine gives itself for a move, whatever the clock says.
const MIN_THINK_MS: u64 = 1;
/// Moves assumed left in the game when `movestogo` is not given.
const DEFAULT_MOVES_TO_GO: u64 = 25;

/// The budget for `side` to move under `limits`.
pub fn budget(limits: &Limits, side: Player, overhead_ms: u64) -> Budget {
    if limits.infinite {
        return Budget::default();
    }
    let mut budget = Budget::default();
    let (time, inc) = match side {
        Player::P1 => (limits.p1time, limits.p1inc),
        Player::P2 => (limits.p2time, limits.p2inc),
    };
    if let Some(time) = time {
        let inc = inc.unwrap_or(0);
        let moves_to_go = limits
            .movestogo
            .map_or(DEFAULT_MOVES_TO_GO, |m| u64::from(m).clamp(1, 100));
        // Keep a reserve so that the clock never falls, however short it is.
        let usable = time.saturating_sub(overhead_ms).saturating_sub(time / 20);
        let soft = (time / moves_to_go + inc * 3 / 4).min(usable);
        let hard = if moves_to_go == 1 {
            usable
        } else {
            (soft * 4).min(usable / 3 + inc / 2).min(usable)
        };
        budget.soft = Some(Duration::from_millis(soft.max(MIN_THINK_MS)));
        budget.hard = Some(Duration::from_millis(hard.max(MIN_THINK_MS)));
    }
    if let Some(movetime) = limits.movetime {
        // The overhead never takes more than half of a fixed move time.
        let hard = movetime
            .saturating_sub(overhead_ms)
            .max(movetime / 2)
            .max(MIN_THINK_MS);
        let hard = Duration::from_millis(hard);
        budget.hard = Some(budget.hard.map_or(hard, |h| h.min(hard)));
        budget.soft = Some(budget.soft.map_or(hard, |s| s.min(hard)));
    }
    budget
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(value: u64) -> Option<Duration> {
        Some(Duration::from_millis(value))
    }

    #[test]
    fn uses_the_clock_of_the_side_to_move() {
        let limits = Limits {
            p1time: Some(600_000),
            p2time: Some(1_000),
            p1inc: Some(0),
            p2inc: Some(0),
            ..Limits::default()
        };
        let p2 = budget(&limits, Player::P2, 10);
        assert!(p2.hard.unwrap() <= Duration::from_millis(400));
        let p1 = budget(&limits, Player::P1, 10);
        assert!(p1.soft.unwrap() > Duration::from_secs(10));
    }

    #[test]
    fn movetime_is_a_hard_limit_less_overhead() {
        let limits = Limits {
            movetime: Some(100),
            ..Limits::default()
        };
        let b = budget(&limits, Player::P1, 10);
        assert_eq!(b.hard, ms(90));
        assert_eq!(b.soft, ms(90));
        let b = budget(&limits, Player::P1, 80);
        assert_eq!(b.hard, ms(50));
    }

    #[test]
    fn no_clock_no_limit_and_tiny_clocks_stay_positive() {
        assert_eq!(
            budget(&Limits::default(), Player::P1, 10),
            Budget::default()
        );
        let limits = Limits {
            p1time: Some(5),
            ..Limits::default()
        };
        let b = budget(&limits, Player::P1, 10);
        assert_eq!(b.hard, ms(1));
        let infinite = Limits {
            infinite: true,
            movetime: Some(5),
            ..Limits::default()
        };
        assert_eq!(budget(&infinite, Player::P1, 10), Budget::default());
    }
}
