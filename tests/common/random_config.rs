//! Random option values for any game, for tests that play under many option sets.

use tabuleiro::game::{Game, OptionKind};
use tabuleiro::rng::Xorshift;

/// Random option values within each option's bounds (a third of them at the default),
/// redrawn until the game accepts them.
pub fn random_config<G: Game>(rng: &mut Xorshift) -> G::Config {
    loop {
        let pairs: Vec<(&str, String)> = G::option_specs()
            .iter()
            .filter_map(|spec| {
                let value = match spec.kind {
                    _ if rng.below(3) == 0 => return None,
                    OptionKind::Spin { min, max, .. } => {
                        (min + rng.below((max - min + 1) as u64) as i64).to_string()
                    }
                    OptionKind::Check { .. } => (rng.below(2) == 1).to_string(),
                };
                Some((spec.name, value))
            })
            .collect();
        if let Ok(config) = tabuleiro::options::config_from_pairs::<G>(&pairs) {
            return config;
        }
    }
}
