//! A session that is cheap to make, for fuzzing: a fuzzer builds one per input, and a
//! session as [`Session::new`] makes it costs a 16 MiB transposition table written
//! through and, at the first `isready` or `go`, the Neutreeko tablebase (seconds). This
//! one has the smallest table `Hash` allows (1 MiB, kept when the game changes) and the
//! games' engine switches (`Tablebase`: every game's tables and solvers) off, so that a
//! table is built only when the input turns it on (`setoption name Tablebase value
//! true`).
//! Everything else is the session of the protocol, line for line.

use super::*;

/// The table size of a light session, MiB (the least `Hash` accepts).
pub const LIGHT_HASH_MIB: usize = 1;

impl Session {
    /// A session on `game` with a 1 MiB table and the games' tables off (see the
    /// module doc); for fuzz targets and tests that make many sessions.
    pub fn for_fuzzing(out: Output, game: &str) -> Result<Session, String> {
        let mut options = defaults();
        for engine in options.values_mut().map(|options| &mut options.engine) {
            for spec in engine.specs() {
                if matches!(spec.kind, OptionKind::Check { .. }) {
                    // A check takes `false`: this cannot fail.
                    let _ = engine.set(spec.name, "false");
                }
            }
        }
        Session::with_options(out, game, options, LIGHT_HASH_MIB)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(buffer: &std::sync::Mutex<Vec<u8>>) -> String {
        String::from_utf8_lossy(&buffer.lock().map(|b| b.clone()).unwrap_or_default()).into()
    }

    #[test]
    fn a_light_session_has_a_small_table_and_the_tables_off() {
        let (out, buffer) = Output::capture();
        let mut session = Session::for_fuzzing(out, "neutreeko").expect("a known game");
        session.handle_line("ugi");
        let shown = text(&buffer);
        assert!(
            shown.contains("option name Hash type spin default 1 "),
            "{shown}"
        );
        assert!(
            shown.contains("option name Tablebase type check default false"),
            "{shown}"
        );
        session.handle_line("go depth 2");
        session.wait_for_search();
        assert!(text(&buffer).contains("bestmove "), "{}", text(&buffer));
    }

    #[test]
    fn a_light_session_keeps_its_table_size_across_games() {
        let (out, buffer) = Output::capture();
        let mut session = Session::for_fuzzing(out, "neutreeko").expect("a known game");
        session.handle_line("game talpa");
        session.handle_line("ugi");
        assert!(text(&buffer).contains("option name Hash type spin default 1 "));
    }

    #[test]
    fn an_unknown_game_is_an_error() {
        let (out, _) = Output::capture();
        assert!(Session::for_fuzzing(out, "chess").is_err());
    }
}
