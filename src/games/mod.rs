//! The runtime list of games: the one place that names them all.
//!
//! Code that must work for whichever game the user picks implements [`GameVisitor`]
//! (a generic function over `G: Game`) and calls [`visit`] with the game's name; the
//! visitor is then compiled once per game, so everything below it is statically
//! dispatched.

use crate::search::Strategy;

pub mod fabrik;
pub mod frozenforest;
pub mod linetris;
pub mod neutreeko;
pub mod talpa;

/// The names of the implemented games, in the order the `Game` option lists them.
pub const NAMES: &[&str] = &["linetris", "talpa", "fabrik", "frozenforest", "neutreeko"];

/// The game the engine starts with.
pub const DEFAULT: &str = "neutreeko";

/// Generic code to run for one game chosen at run time (with its rules, [`Game`], and
/// the engine's side of it, [`Strategy`]).
///
/// [`Game`]: crate::game::Game
pub trait GameVisitor {
    type Output;
    fn visit<G: Strategy>(self) -> Self::Output;
}

/// Runs `visitor` for the game called `name` (case-insensitive), or `None` when no
/// such game exists.
pub fn visit<V: GameVisitor>(name: &str, visitor: V) -> Option<V::Output> {
    match name.to_ascii_lowercase().as_str() {
        "linetris" => Some(visitor.visit::<linetris::Linetris>()),
        "talpa" => Some(visitor.visit::<talpa::Talpa>()),
        "fabrik" => Some(visitor.visit::<fabrik::Fabrik>()),
        "frozenforest" => Some(visitor.visit::<frozenforest::FrozenForest>()),
        "neutreeko" => Some(visitor.visit::<neutreeko::Neutreeko>()),
        _ => None,
    }
}

/// The canonical spelling of a game name, if it is one.
pub fn canonical(name: &str) -> Option<&'static str> {
    NAMES
        .iter()
        .copied()
        .find(|known| known.eq_ignore_ascii_case(name))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    struct Name;
    impl GameVisitor for Name {
        type Output = &'static str;
        fn visit<G: Game>(self) -> &'static str {
            G::NAME
        }
    }

    #[test]
    fn every_listed_name_is_visitable_and_matches() {
        for name in NAMES {
            assert_eq!(visit(name, Name), Some(*name));
        }
        assert!(NAMES.contains(&DEFAULT));
        assert_eq!(visit("NeuTreeko", Name), Some("neutreeko"));
        assert_eq!(visit("chess", Name), None);
        assert_eq!(canonical("NEUTREEKO"), Some("neutreeko"));
    }

    struct CheckLook;
    impl GameVisitor for CheckLook {
        type Output = ();
        fn visit<G: Strategy>(self) {
            let (name, look) = (G::NAME, G::LOOK);
            assert!(!look.rules.is_empty(), "{name}");
            for (i, a) in look.pieces.iter().enumerate() {
                for b in &look.pieces[i + 1..] {
                    assert_ne!(a.glyph, b.glyph, "{name}: plain text must tell them apart");
                    assert_ne!(a.letter, b.letter, "{name}");
                }
            }
            // Each side's letter is its own piece, drawn by the look.
            for letter in G::SIDE_LETTERS {
                let letter = letter.chars().next().expect("a letter");
                assert!(look.piece(letter).is_some(), "{name}: {letter}");
            }
        }
    }

    #[test]
    fn every_game_has_distinct_glyphs_and_side_pieces() {
        for name in NAMES {
            visit(name, CheckLook);
        }
        assert_eq!(crate::game::look::Look::GENERIC.side_name(1), "p2");
        // Yuki is "he" and Mina "she", as in the rules module (frozenforest/mod.rs).
        let rules = frozenforest::FrozenForest::LOOK.rules;
        assert!(
            rules.contains("Yuki steps onto a tree from which he sees"),
            "{rules}"
        );
        assert!(rules.contains("Mina slides"), "{rules}");
        assert_eq!(neutreeko::Neutreeko::LOOK.side_name(0), "black (p1)");
    }
}
