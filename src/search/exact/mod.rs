//! The exact-solving layer: what every exact solver and table of the engine shares,
//! naming no game.
//!
//! - [`value`]: the one value-and-distance type ([`Value`]) and its arithmetic.
//! - [`bound`]: the bound table (exact keys, lower and upper bounds, a best move).
//! - [`negamax`]: the generic exact solver ([`Solver`] over a game's [`Exact`]):
//!   negamax on `WIN − plies`, null-window bisection at the root, best move and
//!   principal variation, stop flag, deadline and node budget, a book of one ply
//!   (consulted by both searches at that ply; the game tells a position's ply and its
//!   state), and a `known` hook for the game's own tables.
//! - [`dfpn`]: proof-number search over the same trait, with an optional move filter
//!   (a proof over forcing moves only).
//! - [`oracle`]: the solver an oracle keeps ([`SolverCell`]).
//! - [`byte`]: the one byte encoding of a value and distance in a table (plies + 1,
//!   parity gives the winner; build counters, `WON`, `NONE`).
//! - [`counts`]: a table's census ([`Counts`]: wins, losses, draws, longest of each).
//! - [`build`]: a table built on a thread before `readyok` ([`Background`]: `catch_unwind`,
//!   waiters on a condition variable).
//!
//! Which game uses which part (game-specific keys, pruning and ordering stay in the
//! games):
//!
//! | part      | Talpa | Frozen Forest | Linetris | Neutreeko |
//! |-----------|-------|---------------|----------|-----------|
//! | `value`   | yes   | yes           | yes      | yes       |
//! | `bound`   | yes   | yes           |          |           |
//! | `negamax` | yes   | yes           |          |           |
//! | `dfpn`    | yes (`talpa_solve --pn`) |  |     |           |
//! | books (`Solver::set_book`) | yes | yes (built-in Trees 4) |  |      |
//! | `oracle`  | yes   | yes           |          |           |
//! | `byte`    |       |               | yes (retrograde tables, cache) | yes |
//! | `counts`  |       |               | yes      | yes       |
//! | `build`   |       |               | yes      | yes       |

pub mod bound;
pub mod build;
pub mod byte;
pub mod counts;
pub mod dfpn;
pub mod negamax;
pub mod oracle;
pub mod value;

pub use bound::BoundTable;
pub use build::Background;
pub use counts::Counts;
pub use dfpn::DfPn;
pub use negamax::{Child, Exact, Expansion, Interrupted, Key, Solver};
pub use oracle::SolverCell;
pub use value::Value;
