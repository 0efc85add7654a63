//! Time management: from a clock to a soft and a hard time budget, and the watchdog
//! that makes the hard budget hard.
//!
//! - The hard budget ends the search wherever it is. It is enforced by a
//!   [`Watchdog`] thread that raises a flag at the deadline, which the searchers read at
//!   every node and every playout: a clock read every N nodes is late where nodes are
//!   expensive (a node may order hundreds of moves), and a search that has lost
//!   the CPU to a busy machine cannot notice the time itself.
//! - The soft budget decides whether another iteration starts: one does while less
//!   than half of it has passed ([`START_SHARE`]), however long it may take. A fixed
//!   time per move (`movetime`) has none: UCI and every arena read it as the time to
//!   use, so the search runs until the hard budget ends it (less `MoveOverhead`), and
//!   plays the best move of the iteration it was in when that beat the last one.
//! - Budgets count from the moment the command arrived ([`SearchLimits::started`](
//!   super::SearchLimits::started)), not from when the search thread got going:
//!   arenas charge the wall time from `go` to `bestmove`.
//! - `MoveOverhead` (the time lost per move between engine and arena) is kept back for
//!   this move and for every move to come until the clock is topped up, so a short
//!   clock spends less per move rather than running out on long games. With an
//!   increment a move still spends half of it (`INC_FLOOR_SHARE`): it comes back.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Budgets for one search; `None` means no time limit.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Budget {
    /// Past it no new iteration starts. `None` with a hard budget: the hard budget is
    /// the time to use (a fixed time per move).
    pub soft: Option<Duration>,
    pub hard: Option<Duration>,
}

impl Budget {
    /// The time a search means to spend: the soft budget, or all of the hard one when
    /// there is no soft one.
    pub fn spend(&self) -> Option<Duration> {
        self.soft.or(self.hard)
    }
}

/// What the clock says for the side to move, in milliseconds (the protocol's terms,
/// without its words: the session fills it from `go`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub time: Option<u64>,
    /// The mover's increment per move.
    pub inc: Option<u64>,
    /// Moves until the clock is topped up; `None` (or 0) when not given.
    pub moves_to_go: Option<u32>,
    /// A fixed time for this move.
    pub movetime: Option<u64>,
}

/// Moves assumed left in the game when `movestogo` is not given, unless the game says
/// otherwise ([`super::Strategy::MOVES_TO_GO`]).
pub const DEFAULT_MOVES_TO_GO: u64 = 25;
/// A search may run to this many times its soft budget when an iteration needs it.
const HARD_PER_SOFT: u64 = 3;
/// And never past this share of the usable clock (1/8 of it), unless the game says
/// otherwise ([`super::Strategy::hard_share`]).
pub const DEFAULT_HARD_SHARE: u64 = 8;
/// With the last moves before the control, the share of the clock kept back anyway.
const LAST_MOVE_RESERVE: u64 = 20;
/// However low the clock, a move with an increment may spend half of it, but never
/// more than this share of the usable clock (its hard limit three times that).
const INC_FLOOR_SHARE: u64 = 8;

/// The budget for one move under `clock`, keeping `overhead_ms` per move for the
/// time lost between the engine and the arena.
pub fn budget(clock: &Clock, overhead_ms: u64) -> Budget {
    budget_for(clock, overhead_ms, DEFAULT_MOVES_TO_GO, DEFAULT_HARD_SHARE)
}

/// [`budget`] for a game in which the mover is assumed to have `moves_left` more moves
/// when the clock gives no `movestogo`, and whose move may run to 1/`hard_share` of the
/// usable clock (plus half the increment; at least 2, so a move never takes more than
/// half of it).
pub fn budget_for(clock: &Clock, overhead_ms: u64, moves_left: u64, hard_share: u64) -> Budget {
    const US: u64 = 1000;
    let mut budget = Budget::default();
    // A clock of increments alone (no time left given): each move has its increment.
    let time = clock.time.or(clock.inc);
    if let Some(time) = time {
        // Microseconds: at 100 ms a game, a move gets less than one millisecond.
        let (time, inc, overhead) = (time * US, clock.inc.unwrap_or(0) * US, overhead_ms * US);
        // `movestogo 0` says nothing: treated as not given.
        let given = clock
            .moves_to_go
            .filter(|&m| m > 0)
            .map(|m| u64::from(m).min(100));
        // A game's own assumption is never 1, which would mean the last move.
        let moves_to_go = given.unwrap_or(moves_left.clamp(2, 100));
        // What this move may spend before the flag falls: the clock less the overhead
        // of this move (the increment arrives only after it).
        let usable = time.saturating_sub(overhead);
        let (soft, hard) = if moves_to_go == 1 {
            let hard = usable - usable / LAST_MOVE_RESERVE;
            (hard, hard)
        } else {
            // Share what is left among the moves to come, after keeping the overhead of
            // each of them and of this one. When nothing is left that way (a clock of
            // a few overheads), a small share of what remains (1/400 soft, 1/200 hard
            // when `movestogo` is not given) keeps a reserve for the latencies of a long
            // game: at 100 ms a game, a game of 100 moves a side.
            let pool =
                (time + inc * (moves_to_go - 1)).saturating_sub(overhead * (moves_to_go + 1));
            let floor = usable / (16 * given.unwrap_or(DEFAULT_MOVES_TO_GO));
            // With an increment, a move spends half of it however low the clock (but
            // never more than an eighth of what is usable): the increment comes back
            // after the move, so the clock still grows by the other half less the real
            // latency. An increment under the overhead (1 s + 10 ms with 20 ms kept a
            // move) leaves no pool below a few hundred milliseconds.
            let inc_floor = (inc / 2).min(usable / INC_FLOOR_SHARE);
            let soft = (pool / moves_to_go)
                .min(usable / 2)
                .max(floor)
                .max(inc_floor);
            let hard = (soft * HARD_PER_SOFT).min(usable / hard_share.max(2) + inc / 2);
            // Never past the flag, whatever the increment.
            let hard = hard.max(2 * floor).max(soft).min(usable);
            (soft.min(hard), hard)
        };
        budget.soft = Some(Duration::from_micros(soft));
        budget.hard = Some(Duration::from_micros(hard));
    }
    if let Some(movetime) = clock.movetime {
        // The overhead never takes more than two thirds of a fixed move time: at
        // `movetime 30` a search of 15 ms still lost a game in 400 to a 16 ms stall on
        // a machine with every core busy; 10 ms leaves 20 ms for such stalls.
        let hard = movetime.saturating_sub(overhead_ms).max(movetime / 3);
        let hard = Duration::from_millis(hard);
        budget.hard = Some(budget.hard.map_or(hard, |h| h.min(hard)));
        // Alone, the fixed time is all to be used: no soft budget. With a clock too,
        // the clock's soft budget stands (within the fixed time).
        budget.soft = budget.soft.map(|s| s.min(hard));
    }
    budget
}

/// Why a search with a soft budget starts no further iteration ([`next_iteration`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Stop {
    /// The soft budget is spent.
    Soft,
    /// More than [`START_SHARE`] of the soft budget is spent.
    Share,
}

/// An iteration starts while less than this share of the soft budget has passed,
/// whatever it is predicted to cost: the hard limit cuts it if need be, and a cut
/// iteration is not wasted (the root searches the last best move first, and a move that
/// beat it is played). Predicting an iteration's cost from the growth of the last ones
/// stopped most Fabrik and Linetris moves far below the soft budget (their iterations
/// grow by large, noisy ratios), leaving a third of the clock unused.
pub const START_SHARE: f64 = 0.5;

/// Whether a search under `budget`, `elapsed` into its move, starts another iteration:
/// `None` to start it, else why not. Without a soft budget (a fixed time per move, or no
/// clock) the iterations go on until the hard limit or the depth ends them.
pub fn next_iteration(budget: &Budget, elapsed: Duration) -> Option<Stop> {
    let soft = budget.soft?;
    if elapsed >= soft {
        Some(Stop::Soft)
    } else if elapsed >= soft.mul_f64(START_SHARE) {
        Some(Stop::Share)
    } else {
        None
    }
}

/// Raises `flag` at `deadline` unless dropped first. One short-lived thread per timed
/// search: it sleeps, so it costs nothing while the search runs, and it is woken to
/// end early when the search ends first.
pub struct Watchdog {
    done: Arc<AtomicBool>,
    handle: Option<JoinHandle<()>>,
}

impl Watchdog {
    /// Starts the watchdog. If no thread can be started it returns `None`, and the
    /// searchers' own clock reads are the only guard.
    pub fn start(deadline: Instant, flag: Arc<AtomicBool>) -> Option<Watchdog> {
        let done = Arc::new(AtomicBool::new(false));
        let done_in_thread = Arc::clone(&done);
        let handle = std::thread::Builder::new()
            .name("watchdog".to_string())
            .stack_size(64 * 1024)
            .spawn(move || {
                loop {
                    if done_in_thread.load(Ordering::Acquire) {
                        return;
                    }
                    let now = Instant::now();
                    if now >= deadline {
                        flag.store(true, Ordering::Release);
                        return;
                    }
                    std::thread::park_timeout(deadline - now);
                }
            })
            .map_err(|error| log::warn!("no watchdog thread ({error})"))
            .ok()?;
        Some(Watchdog {
            done,
            handle: Some(handle),
        })
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Release);
        if let Some(handle) = self.handle.take() {
            handle.thread().unpark();
            // Not joined: the thread ends on its own at once, and waiting for it to be
            // scheduled on a busy machine would only delay the bestmove.
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(value: u64) -> Option<Duration> {
        Some(Duration::from_millis(value))
    }

    fn us(value: u64) -> Option<Duration> {
        Some(Duration::from_micros(value))
    }

    fn clock(time: u64, inc: u64) -> Clock {
        Clock {
            time: Some(time),
            inc: Some(inc),
            ..Clock::default()
        }
    }

    #[test]
    fn a_move_takes_about_its_share_of_the_clock() {
        // 1 s + 10 ms, 25 moves to go, 10 ms overhead: (1000 + 240 - 260) / 25.
        let b = budget(&clock(1000, 10), 10);
        assert_eq!(b.soft, us(39_200));
        assert_eq!(b.hard, us(117_600));
        // 15 moves to go (a shorter game): (1000 + 140 - 160) / 15; the hard budget is
        // an eighth of the 990 ms usable plus half the increment.
        let b = budget_for(&clock(1000, 10), 10, 15, DEFAULT_HARD_SHARE);
        assert_eq!(b.soft, us(65_333));
        assert_eq!(b.hard, us(128_750));
        // The hard budget never passes an eighth of the clock (plus half the increment).
        let b = budget(&clock(600_000, 0), 10);
        assert_eq!(b.soft, us(23_989_600));
        assert_eq!(b.hard, us(71_968_800));
    }

    #[test]
    fn short_clocks_keep_the_overhead_of_every_move_to_come() {
        // 100 ms + 0 with a 10 ms overhead: nothing to share after 26 overheads, so
        // 1/400 of the 90 ms left is the soft budget, three times that the hard.
        let b = budget(&clock(100, 0), 10);
        assert_eq!((b.soft, b.hard), (us(225), us(675)));
        // The same reserve in a game of 15 moves to go (after 16 overheads).
        assert_eq!(budget_for(&clock(100, 0), 10, 15, DEFAULT_HARD_SHARE), b);
        let b = budget(&clock(100, 0), 1);
        assert_eq!((b.soft, b.hard), (us(2_960), us(8_880)));
        // With a 1 ms overhead and 15 moves to go, (100 - 16) / 15 soft, an eighth of
        // the 99 ms usable hard.
        let b = budget_for(&clock(100, 0), 1, 15, DEFAULT_HARD_SHARE);
        assert_eq!((b.soft, b.hard), (us(5_600), us(12_375)));
        // An exhausted clock still gives a budget, and never a negative one.
        assert_eq!(budget(&clock(0, 0), 10).hard, ms(0));
    }

    #[test]
    fn a_low_clock_with_an_increment_still_spends_half_of_it() {
        // 100 ms + 10 ms with a 20 ms overhead: the 25 moves' overheads leave no pool,
        // and half the increment is the soft budget, three times that the hard.
        let b = budget(&clock(100, 10), 20);
        assert_eq!((b.soft, b.hard), (ms(5), ms(15)));
        // Nearer the flag an eighth of the usable clock binds: 46 ms, 2 moves to go,
        // a quarter of the clock at most: 26 / 8 soft, three times that hard.
        let b = budget_for(&clock(46, 10), 20, 2, 4);
        assert_eq!((b.soft, b.hard), (us(3_250), us(9_750)));
        // And at the overhead itself, nothing.
        let b = budget(&clock(20, 10), 20);
        assert_eq!((b.soft, b.hard), (ms(0), ms(0)));
        // A higher clock shares its pool as before: the floor is below it.
        let b = budget(&clock(1000, 10), 20);
        assert_eq!((b.soft, b.hard), (us(28_800), us(86_400)));
    }

    #[test]
    fn a_game_may_let_a_move_run_to_a_larger_share_of_the_clock() {
        // 1 s + 10 ms, 15 moves to go: a quarter of the clock is more than three times
        // the soft budget, which binds instead.
        let b = budget_for(&clock(1000, 10), 10, 15, 4);
        assert_eq!((b.soft, b.hard), (us(65_333), us(195_999)));
        // 600 ms left, 8 moves to go: (600 + 70 - 90) / 8 soft; an eighth of the 590 ms
        // usable (plus 5) leaves an iteration little room past it, a quarter twice as much.
        let b = budget_for(&clock(600, 10), 10, 8, DEFAULT_HARD_SHARE);
        assert_eq!((b.soft, b.hard), (us(72_500), us(78_750)));
        let b = budget_for(&clock(600, 10), 10, 8, 4);
        assert_eq!((b.soft, b.hard), (us(72_500), us(152_500)));
        // Never more than half the usable clock, whatever the game says.
        for share in [0, 1, 2] {
            let b = budget_for(&clock(600, 0), 10, 2, share);
            assert_eq!(b.hard, us(295_000), "share {share}");
        }
    }

    #[test]
    fn movestogo_zero_means_not_given_and_one_means_the_last_move() {
        let mut c = clock(1000, 0);
        c.moves_to_go = Some(0);
        assert_eq!(budget(&c, 10), budget(&clock(1000, 0), 10));
        c.moves_to_go = Some(1);
        let b = budget(&c, 10);
        assert_eq!((b.soft, b.hard), (us(940_500), us(940_500)));
        assert!(b.hard.unwrap() < Duration::from_millis(990));
    }

    #[test]
    fn increments_alone_give_each_move_its_increment() {
        let c = Clock {
            inc: Some(1000),
            ..Clock::default()
        };
        let b = budget(&c, 10);
        // As a clock of 1 s + 1 s: half the usable second soft, never past the flag.
        assert_eq!((b.soft, b.hard), (us(495_000), us(623_750)));
        // A big increment never lets a move run past a nearly empty clock.
        let b = budget(&clock(20, 5_000), 10);
        assert!(b.hard.unwrap() <= Duration::from_millis(10), "{b:?}");
    }

    #[test]
    fn movetime_is_the_time_to_use_less_overhead() {
        let c = Clock {
            movetime: Some(100),
            ..Clock::default()
        };
        let b = budget(&c, 10);
        assert_eq!(b.hard, ms(90));
        // No soft budget: the search uses all of it.
        assert_eq!(b.soft, None);
        assert_eq!(b.spend(), ms(90));
        let b = budget(&c, 80);
        assert_eq!(b.hard, ms(33));
        // With a clock as well, the clock's soft budget (within the fixed time).
        let c = Clock {
            movetime: Some(1000),
            ..clock(1000, 10)
        };
        let b = budget(&c, 10);
        assert_eq!((b.soft, b.hard), (us(39_200), us(117_600)));
    }

    #[test]
    fn an_iteration_starts_until_half_the_soft_budget_is_spent() {
        let budget = Budget {
            soft: ms(40),
            hard: ms(120),
        };
        let at = |elapsed| next_iteration(&budget, Duration::from_millis(elapsed));
        // 12 ms in, whatever the last iterations cost (1 then 11 ms: the next one, grown
        // as much, would end past the hard limit), the next iteration starts.
        assert_eq!(at(12), None);
        assert_eq!(at(19), None);
        assert_eq!(at(20), Some(Stop::Share));
        assert_eq!(at(40), Some(Stop::Soft));
        assert_eq!(at(500), Some(Stop::Soft));
        // A fixed time per move has no soft budget: the hard limit ends the search.
        let movetime = Budget {
            soft: None,
            hard: ms(90),
        };
        assert_eq!(next_iteration(&movetime, Duration::from_millis(80)), None);
        assert_eq!(
            next_iteration(&Budget::default(), Duration::from_secs(9)),
            None
        );
    }

    #[test]
    fn no_clock_no_limit() {
        assert_eq!(budget(&Clock::default(), 10), Budget::default());
    }

    #[test]
    fn the_watchdog_raises_its_flag_at_the_deadline_and_not_after_a_drop() {
        let flag = Arc::new(AtomicBool::new(false));
        let started = Instant::now();
        let dog = Watchdog::start(started + Duration::from_millis(20), Arc::clone(&flag));
        assert!(dog.is_some());
        while !flag.load(Ordering::Acquire) {
            assert!(started.elapsed() < Duration::from_secs(10), "no flag");
            std::thread::sleep(Duration::from_millis(1));
        }
        assert!(started.elapsed() >= Duration::from_millis(20));
        let flag = Arc::new(AtomicBool::new(false));
        let dog = Watchdog::start(
            Instant::now() + Duration::from_millis(30),
            Arc::clone(&flag),
        );
        drop(dog);
        std::thread::sleep(Duration::from_millis(60));
        assert!(!flag.load(Ordering::Acquire));
    }
}
