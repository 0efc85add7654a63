//! Arbitrary bytes → a `Command` or a typed error; what parses prints and parses back
//! to the same command.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabuleiro::protocol::parse_command;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    match parse_command(&line) {
        Ok(Some(command)) => {
            let printed = command.to_string();
            assert_eq!(
                parse_command(&printed),
                Ok(Some(command)),
                "round trip of {printed:?}"
            );
        }
        Ok(None) => assert!(line.trim().is_empty()),
        Err(error) => {
            let text = error.to_string();
            assert!(
                !text.is_empty() && !text.contains('\n'),
                "error text {text:?}"
            );
        }
    }
});
