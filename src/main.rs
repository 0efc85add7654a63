//! The `tabuleiro` command: set up logging on stderr, then read the command line
//! ([`tabuleiro::cli`]) and speak UGI on stdin/stdout or run a one-shot command.

use std::process::ExitCode;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    tabuleiro::cli::main(std::env::args_os().collect())
}
