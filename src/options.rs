//! Options by name. An option is declared by an [`OptionSpec`] (name, kind, bounds,
//! default); a game's options, a game's engine options (`Tablebase`) and the session's
//! own (`Hash`, `Threads`, …) are lists of them. A [`Params`] holds one value for each
//! option of a list, typed ([`OptionValue`]) and read by name, after OpenSpiel's game
//! parameters: a game builds its config from one ([`Game::config`]), never from values
//! by position.
//!
//! [`resolve`] is the one path from what a user typed (`setoption name Rows value 6`,
//! `--option Rows=6` on a command line, `option.Rows=6` in an engine spec, a test's
//! `("Rows", "6")`) to a checked value: names are case-insensitive, a value is read by
//! its option's kind and kept within its bounds. The game checks the whole set
//! ([`Game::config`]: Talpa's size must be even).

use std::fmt;

use crate::game::{Game, quote};

/// The kind, bounds and default of one option.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum OptionKind {
    /// An integer in `min..=max`.
    Spin { min: i64, max: i64, default: i64 },
    /// A boolean, `true`/`false` in the protocol.
    Check { default: bool },
}

impl OptionKind {
    /// The option's default.
    pub fn default(self) -> OptionValue {
        match self {
            OptionKind::Spin { default, .. } => OptionValue::Spin(default),
            OptionKind::Check { default } => OptionValue::Check(default),
        }
    }

    /// Reads a protocol value (`7`, `true`) for this kind of option.
    pub fn parse_value(self, text: &str) -> Result<OptionValue, OptionError> {
        match self {
            OptionKind::Spin { min, max, .. } => {
                let value: i64 = text
                    .parse()
                    .map_err(|_| OptionError::NotInteger(text.to_string()))?;
                if value < min || value > max {
                    return Err(OptionError::OutOfRange { value, min, max });
                }
                Ok(OptionValue::Spin(value))
            }
            OptionKind::Check { .. } => match text.to_ascii_lowercase().as_str() {
                "true" => Ok(OptionValue::Check(true)),
                "false" => Ok(OptionValue::Check(false)),
                _ => Err(OptionError::NotBoolean(text.to_string())),
            },
        }
    }
}

/// The value of one option, of its kind.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum OptionValue {
    Spin(i64),
    Check(bool),
}

impl OptionValue {
    /// The value as a number: a spin's own, a check's 1 or 0.
    pub fn as_i64(self) -> i64 {
        match self {
            OptionValue::Spin(value) => value,
            OptionValue::Check(on) => i64::from(on),
        }
    }
}

/// The protocol text of a value: `7`, `true`.
impl fmt::Display for OptionValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionValue::Spin(value) => write!(f, "{value}"),
            OptionValue::Check(on) => write!(f, "{on}"),
        }
    }
}

/// A value an option does not take.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum OptionError {
    /// A spin's value that is not an integer (the text given).
    NotInteger(String),
    /// A spin's value outside its bounds.
    OutOfRange { value: i64, min: i64, max: i64 },
    /// A check's value that is not `true` or `false` (the text given).
    NotBoolean(String),
    /// Values within their bounds that the game cannot be played with (Talpa's odd
    /// sizes), in words.
    Rejected(String),
    /// A value asked of a [`Params`] that has no option of that name and kind (a
    /// config read from another game's options): the name and the kind asked for.
    Undeclared { name: String, kind: &'static str },
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::NotInteger(text) => write!(f, "{} is not an integer", quote(text)),
            OptionError::OutOfRange { value, min, max } => {
                write!(f, "{value} is outside {min}..{max}")
            }
            OptionError::NotBoolean(text) => write!(f, "{} is not true or false", quote(text)),
            OptionError::Rejected(why) => f.write_str(why),
            OptionError::Undeclared { name, kind } => {
                write!(f, "there is no {kind} option {}", quote(name))
            }
        }
    }
}

impl std::error::Error for OptionError {}

/// At the protocol's edge an error becomes its text.
impl From<OptionError> for String {
    fn from(error: OptionError) -> String {
        error.to_string()
    }
}

/// One option, such as Linetris's `Rows`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct OptionSpec {
    pub name: &'static str,
    pub kind: OptionKind,
}

impl OptionSpec {
    /// An integer option in `min..=max`.
    pub const fn spin(name: &'static str, min: i64, max: i64, default: i64) -> OptionSpec {
        OptionSpec {
            name,
            kind: OptionKind::Spin { min, max, default },
        }
    }
}

/// Why a (name, text) pair names no value of a list of options.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ResolveError {
    /// No option of the list has that name (the name given).
    Unknown(String),
    /// The option (its own spelling) does not take the text.
    BadValue {
        name: &'static str,
        why: OptionError,
    },
}

impl fmt::Display for ResolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResolveError::Unknown(name) => write!(f, "unknown option {}", quote(name)),
            ResolveError::BadValue { name, why } => write!(f, "bad value for {name}: {why}"),
        }
    }
}

impl std::error::Error for ResolveError {}

impl From<ResolveError> for String {
    fn from(error: ResolveError) -> String {
        error.to_string()
    }
}

/// Where in `specs` the option called `name` is (case-insensitive): the one place an
/// option's name is looked up.
fn position(specs: &[OptionSpec], name: &str) -> Option<usize> {
    specs
        .iter()
        .position(|spec| spec.name.eq_ignore_ascii_case(name))
}

/// The option of `specs` called `name` (case-insensitive).
pub fn find<'a>(specs: &'a [OptionSpec], name: &str) -> Option<&'a OptionSpec> {
    position(specs, name).map(|index| &specs[index])
}

/// The index in `specs` of the option called `name` and `text` read as its value.
fn resolve_at(
    specs: &[OptionSpec],
    name: &str,
    text: &str,
) -> Result<(usize, OptionValue), ResolveError> {
    let index = position(specs, name).ok_or_else(|| ResolveError::Unknown(name.to_string()))?;
    let spec = &specs[index];
    let value = spec
        .kind
        .parse_value(text)
        .map_err(|why| ResolveError::BadValue {
            name: spec.name,
            why,
        })?;
    Ok((index, value))
}

/// The option of `specs` called `name` (case-insensitive) and `text` read as its value:
/// the one resolver from what a user typed to a checked value.
pub fn resolve<'a>(
    specs: &'a [OptionSpec],
    name: &str,
    text: &str,
) -> Result<(&'a OptionSpec, OptionValue), ResolveError> {
    resolve_at(specs, name, text).map(|(index, value)| (&specs[index], value))
}

/// A value for every option of a list, read by name: a game's options (what
/// [`Game::config`] is built from) or its engine options (what its oracle reads).
/// Values are set only through [`resolve`], so each is of its option's kind and within
/// its bounds.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Params {
    specs: &'static [OptionSpec],
    /// One value a spec, in the order of `specs` (never seen from outside).
    values: Vec<OptionValue>,
}

impl Params {
    /// Every option of `specs` at its default.
    pub fn defaults(specs: &'static [OptionSpec]) -> Params {
        Params {
            specs,
            values: specs.iter().map(|spec| spec.kind.default()).collect(),
        }
    }

    /// The options these values are for.
    pub fn specs(&self) -> &'static [OptionSpec] {
        self.specs
    }

    /// Sets the option called `name` to `text`; on an error nothing changes. The
    /// option's spec on success.
    pub fn set(&mut self, name: &str, text: &str) -> Result<&'static OptionSpec, ResolveError> {
        let (index, value) = resolve_at(self.specs, name, text)?;
        self.values[index] = value;
        Ok(&self.specs[index])
    }

    /// These values with the option called `name` set to `text` (a builder for
    /// [`Params::set`]).
    pub fn with(mut self, name: &str, text: &str) -> Result<Params, ResolveError> {
        self.set(name, text)?;
        Ok(self)
    }

    /// Sets the option called `name` back to its default.
    pub fn reset(&mut self, name: &str) -> Result<&'static OptionSpec, ResolveError> {
        let index =
            position(self.specs, name).ok_or_else(|| ResolveError::Unknown(name.to_string()))?;
        let spec = &self.specs[index];
        self.values[index] = spec.kind.default();
        Ok(spec)
    }

    /// The value of the option called `name`, if there is one.
    pub fn get(&self, name: &str) -> Option<OptionValue> {
        position(self.specs, name).map(|index| self.values[index])
    }

    /// The value of the spin option called `name`.
    pub fn spin(&self, name: &str) -> Result<i64, OptionError> {
        let spin = |value| match value {
            OptionValue::Spin(value) => Some(value),
            OptionValue::Check(_) => None,
        };
        self.get(name)
            .and_then(spin)
            .ok_or_else(|| undeclared(name, "spin"))
    }

    /// The value of the check option called `name`.
    pub fn check(&self, name: &str) -> Result<bool, OptionError> {
        let check = |value| match value {
            OptionValue::Check(on) => Some(on),
            OptionValue::Spin(_) => None,
        };
        self.get(name)
            .and_then(check)
            .ok_or_else(|| undeclared(name, "check"))
    }

    /// Every option with its value, in the order of the specs.
    pub fn iter(&self) -> impl Iterator<Item = (&'static OptionSpec, OptionValue)> + '_ {
        self.specs.iter().zip(self.values.iter().copied())
    }

    /// Whether every option is at its default.
    pub fn is_default(&self) -> bool {
        self.iter()
            .all(|(spec, value)| value == spec.kind.default())
    }
}

fn undeclared(name: &str, kind: &'static str) -> OptionError {
    OptionError::Undeclared {
        name: name.to_string(),
        kind,
    }
}

/// `G`'s options from (name, value) pairs: the defaults, then each pair in turn (a
/// later pair for the same option wins). Each value is checked on its own;
/// [`config_from_pairs`] also checks them together.
pub fn params_from_pairs<G: Game>(
    pairs: &[(impl AsRef<str>, impl AsRef<str>)],
) -> Result<Params, String> {
    let mut params = Params::defaults(G::option_specs());
    for (name, text) in pairs {
        params
            .set(name.as_ref(), text.as_ref())
            .map_err(|error| match error {
                ResolveError::Unknown(name) => unknown::<G>(&name),
                bad => bad.to_string(),
            })?;
    }
    Ok(params)
}

/// The error for an option `G` does not have, with the options it has.
fn unknown<G: Game>(name: &str) -> String {
    let known: Vec<&str> = G::option_specs().iter().map(|s| s.name).collect();
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
}

/// `G`'s config from option (name, value) pairs; options not given keep their
/// defaults. Tests write `config_from_pairs::<Linetris>(&[("Rows", "4"), ("Cols", "5")])`.
pub fn config_from_pairs<G: Game>(
    pairs: &[(impl AsRef<str>, impl AsRef<str>)],
) -> Result<G::Config, String> {
    config_of::<G>(&params_from_pairs::<G>(pairs)?)
}

/// `G`'s config from its options, the error naming the game.
pub fn config_of<G: Game>(params: &Params) -> Result<G::Config, String> {
    G::config(params).map_err(|why| format!("{}: {why}", G::NAME))
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
    use crate::games::GameVisitor;
    use crate::games::linetris::{Config, Linetris};
    use crate::games::neutreeko::Neutreeko;
    use crate::games::talpa::Talpa;
    use crate::search::Strategy;

    const SPECS: &[OptionSpec] = &[
        OptionSpec {
            name: "Rows",
            kind: OptionKind::Spin {
                min: 4,
                max: 10,
                default: 6,
            },
        },
        OptionSpec {
            name: "RowClear",
            kind: OptionKind::Check { default: true },
        },
    ];

    #[test]
    fn option_values() {
        let spin = SPECS[0].kind;
        assert_eq!(spin.parse_value("7"), Ok(OptionValue::Spin(7)));
        assert!(spin.parse_value("11").is_err());
        assert!(spin.parse_value("x").is_err());
        let check = SPECS[1].kind;
        assert_eq!(check.parse_value("False"), Ok(OptionValue::Check(false)));
        assert!(check.parse_value("1").is_err());
        assert_eq!(OptionValue::Check(true).to_string(), "true");
        assert_eq!(check.default(), OptionValue::Check(true));
    }

    #[test]
    fn params_are_read_and_set_by_name() {
        let mut params = Params::defaults(SPECS);
        assert!(params.is_default());
        assert_eq!(
            (params.spin("Rows"), params.check("rowclear")),
            (Ok(6), Ok(true))
        );
        assert_eq!(params.set("ROWS", "9").map(|spec| spec.name), Ok("Rows"));
        assert_eq!(params.get("rows"), Some(OptionValue::Spin(9)));
        assert!(!params.is_default());
        // A bad value or name changes nothing.
        let before = params.clone();
        let error = params.set("Rows", "11").unwrap_err();
        assert_eq!(error.to_string(), "bad value for Rows: 11 is outside 4..10");
        let error = params.set("Cols", "5").unwrap_err();
        assert_eq!(error, ResolveError::Unknown("Cols".to_string()));
        assert_eq!(error.to_string(), "unknown option 'Cols'");
        assert_eq!(params, before);
        // A value of another kind or name is an error, not a default.
        assert!(params.spin("RowClear").is_err());
        assert_eq!(
            params.check("Cols").unwrap_err().to_string(),
            "there is no check option 'Cols'"
        );
        params.reset("rows").unwrap();
        assert!(params.is_default());
        let built = Params::defaults(SPECS).with("RowClear", "false").unwrap();
        let shown: Vec<String> = built
            .iter()
            .map(|(spec, value)| format!("{}={value}", spec.name))
            .collect();
        assert_eq!(shown, ["Rows=6", "RowClear=false"]);
    }

    #[test]
    fn resolve_gives_the_spec_and_value() {
        let (spec, value) = resolve(SPECS, "rowclear", "TRUE").unwrap();
        assert_eq!((spec.name, value), ("RowClear", OptionValue::Check(true)));
        assert!(matches!(
            resolve(SPECS, "Rows", "four"),
            Err(ResolveError::BadValue { name: "Rows", .. })
        ));
        assert!(find(SPECS, "ROWCLEAR").is_some() && find(SPECS, "Row").is_none());
    }

    #[test]
    fn defaults_without_pairs() {
        let none: &[(&str, &str)] = &[];
        assert!(params_from_pairs::<Linetris>(none).unwrap().is_default());
        let start = Neutreeko::start(&config_from_pairs::<Neutreeko>(none).unwrap());
        assert_eq!(
            start.fen(),
            Neutreeko::start(&default_config::<Neutreeko>()).fen()
        );
    }

    #[test]
    fn configs_are_built_by_name() {
        let config =
            config_from_pairs::<Linetris>(&[("Cols", "5"), ("rowclear", "false")]).unwrap();
        assert_eq!(
            config,
            Config {
                cols: 5,
                ..Config::connect_four(6, 7)
            }
        );
        // A later pair wins; the game checks the whole set.
        let size = 4.to_string();
        let config = config_from_pairs::<Talpa>(&[("Size", "6"), ("Size", size.as_str())]);
        assert_eq!(config.map(|c| c.size), Ok(4));
        let error = config_from_pairs::<Talpa>(&[("Size", "7")]).unwrap_err();
        assert!(error.starts_with("talpa: Size must be even"), "{error}");
    }

    /// Every option a game declares reaches its config by name: another value of it
    /// alone makes another config.
    #[test]
    fn every_game_reads_each_of_its_options() {
        struct Each;
        impl GameVisitor for Each {
            type Output = ();
            fn visit<G: Strategy>(self) {
                let base = format!("{:?}", default_config::<G>());
                for spec in G::option_specs() {
                    let text = match spec.kind {
                        OptionKind::Spin { min, max, default } if default == min => max.to_string(),
                        OptionKind::Spin { min, .. } => min.to_string(),
                        OptionKind::Check { default } => (!default).to_string(),
                    };
                    let config = config_from_pairs::<G>(&[(spec.name, &text)])
                        .unwrap_or_else(|e| panic!("{} {}={text}: {e}", G::NAME, spec.name));
                    assert_ne!(format!("{config:?}"), base, "{} {}", G::NAME, spec.name);
                }
            }
        }
        for game in crate::games::NAMES {
            assert_eq!(crate::games::visit(game, Each), Some(()), "{game}");
        }
    }

    #[test]
    fn names_are_case_insensitive_and_checked() {
        let spec = &Linetris::option_specs()[0];
        let params = params_from_pairs::<Linetris>(&[(spec.name.to_uppercase(), "5")]).unwrap();
        assert_eq!(params.spin(spec.name), Ok(5));
        let error = config_from_pairs::<Neutreeko>(&[("Rows", "6")]).unwrap_err();
        assert!(error.contains("no option 'Rows'"), "{error}");
        assert!(error.contains("it has none"), "{error}");
        let error = config_from_pairs::<Linetris>(&[("Nope", "1")]).unwrap_err();
        assert!(error.contains("its options: "), "{error}");
    }

    #[test]
    fn values_are_checked() {
        let name = Linetris::option_specs()[0].name;
        let error = config_from_pairs::<Linetris>(&[(name, "many")]).unwrap_err();
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
