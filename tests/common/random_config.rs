//! Random option values for any game, for tests that play under many option sets.

use tabuleiro::game::{Game, OptionKind};
use tabuleiro::rng::Xorshift;

/// Random option values within each option's bounds (a third of them at the default),
/// redrawn until the game accepts them.
pub fn random_config<G: Game>(rng: &mut Xorshift) -> G::Config {
    loop {
        let values: Vec<i64> = G::option_specs()
            .iter()
            .map(|spec| match spec.kind {
                _ if rng.below(3) == 0 => spec.kind.default_value(),
                OptionKind::Spin { min, max, .. } => min + rng.below((max - min + 1) as u64) as i64,
                OptionKind::Check { .. } => rng.below(2) as i64,
            })
            .collect();
        if let Ok(config) = G::config(&values) {
            return config;
        }
    }
}
