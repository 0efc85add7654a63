//! Game options from (name, value) text pairs: the one path from what a user typed
//! (`--option Rows=6` on a command line, `option.Rows=6` in an engine spec) to a
//! game's config. Names are case-insensitive, values are read by
//! [`OptionKind::parse_value`](crate::game::OptionKind::parse_value), unknown names are
//! rejected with the game's list of options, and the game checks the whole set
//! ([`Game::config`]).

use crate::game::{Game, OptionSpec, quote};

/// The index and spec of `G`'s option called `name` (case-insensitive).
pub fn find_option<G: Game>(name: &str) -> Result<(usize, &'static OptionSpec), String> {
    let specs = G::option_specs();
    specs
        .iter()
        .enumerate()
        .find(|(_, spec)| spec.name.eq_ignore_ascii_case(name))
        .ok_or_else(|| {
            let known: Vec<&str> = specs.iter().map(|s| s.name).collect();
            format!(
                "{} has no option {} ({})",
                G::NAME,
                quote(name),
                if known.is_empty() {
                    "it has none".to_string()
                } else {
                    format!("its options: {}", known.join(", "))
                }
            )
        })
}

/// `G`'s option values, in the order of [`Game::option_specs`]: the defaults, then
/// each pair in turn (a later pair for the same option wins). Each value is checked
/// on its own; [`config_from_pairs`] also checks them together.
pub fn values_from_pairs<G: Game>(pairs: &[(String, String)]) -> Result<Vec<i64>, String> {
    let mut values: Vec<i64> = G::option_specs()
        .iter()
        .map(|spec| spec.kind.default_value())
        .collect();
    for (name, text) in pairs {
        let (index, spec) = find_option::<G>(name)?;
        values[index] = spec
            .kind
            .parse_value(text)
            .map_err(|why| format!("bad value for {}: {why}", spec.name))?;
    }
    Ok(values)
}

/// `G`'s config from option (name, value) pairs; options not given keep their defaults.
pub fn config_from_pairs<G: Game>(pairs: &[(String, String)]) -> Result<G::Config, String> {
    let values = values_from_pairs::<G>(pairs)?;
    G::config(&values).map_err(|why| format!("{}: {why}", G::NAME))
}

/// Reads `Name=Value` (spaces around either part are dropped; neither may be empty).
pub fn parse_pair(text: &str) -> Result<(String, String), String> {
    text.split_once('=')
        .map(|(name, value)| (name.trim(), value.trim()))
        .filter(|(name, value)| !name.is_empty() && !value.is_empty())
        .map(|(name, value)| (name.to_string(), value.to_string()))
        .ok_or_else(|| format!("{} is not Name=Value", quote(text)))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::default_config;
    use crate::games::linetris::Linetris;
    use crate::games::neutreeko::Neutreeko;

    fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
        list.iter()
            .map(|(n, v)| (n.to_string(), v.to_string()))
            .collect()
    }

    #[test]
    fn defaults_without_pairs() {
        let values = values_from_pairs::<Linetris>(&[]).unwrap();
        let defaults: Vec<i64> = Linetris::option_specs()
            .iter()
            .map(|s| s.kind.default_value())
            .collect();
        assert_eq!(values, defaults);
        assert!(config_from_pairs::<Neutreeko>(&[]).is_ok());
        let start = Neutreeko::start(&config_from_pairs::<Neutreeko>(&[]).unwrap());
        assert_eq!(
            start.fen(),
            Neutreeko::start(&default_config::<Neutreeko>()).fen()
        );
    }

    #[test]
    fn names_are_case_insensitive_and_checked() {
        let spec = &Linetris::option_specs()[0];
        let (index, found) = find_option::<Linetris>(&spec.name.to_uppercase()).unwrap();
        assert_eq!((index, found.name), (0, spec.name));
        let error = config_from_pairs::<Neutreeko>(&pairs(&[("Rows", "6")])).unwrap_err();
        assert!(error.contains("no option 'Rows'"), "{error}");
        assert!(error.contains("it has none"), "{error}");
        let error = config_from_pairs::<Linetris>(&pairs(&[("Nope", "1")])).unwrap_err();
        assert!(error.contains("its options: "), "{error}");
    }

    #[test]
    fn values_are_checked() {
        let name = Linetris::option_specs()[0].name;
        let error = config_from_pairs::<Linetris>(&pairs(&[(name, "many")])).unwrap_err();
        assert!(
            error.starts_with(&format!("bad value for {name}: ")),
            "{error}"
        );
    }

    #[test]
    fn pairs_are_read() {
        assert_eq!(
            parse_pair(" Rows = 5 "),
            Ok(("Rows".to_string(), "5".to_string()))
        );
        assert_eq!(
            parse_pair("Move Overhead=5"),
            Ok(("Move Overhead".to_string(), "5".to_string()))
        );
        assert!(parse_pair("Rows").is_err());
        assert!(parse_pair("=5").is_err());
        assert!(parse_pair("Rows=").is_err());
    }
}
