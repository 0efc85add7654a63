//! The `tabuleiro` command: parse flags, set up logging on stderr, then speak UGI on
//! stdin/stdout or run a one-shot command.

use std::process::ExitCode;

use tabuleiro::games;
use tabuleiro::session;

fn usage() -> String {
    format!(
        "tabuleiro {version}: an engine for Linetris, Talpa, Fabrik, Frozen Forest and Neutreeko

Usage:
  tabuleiro [--game NAME]          speak UGI (and UCI) on stdin/stdout
  tabuleiro bench [DEPTH]          search fixed positions of every game; prints
                                   'N nodes M nps' (the search's signature)
  tabuleiro --help | --version

Options:
  --game NAME    the game to start with: {names} (default {default});
                 it can be changed at any time with 'setoption name Game value NAME'

Logging: RUST_LOG=debug tabuleiro ... writes diagnostics to stderr; stdout carries
only the protocol. The protocol is described in protocol.md.",
        version = env!("CARGO_PKG_VERSION"),
        names = games::NAMES.join(", "),
        default = games::DEFAULT,
    )
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("tabuleiro: {message}");
            eprintln!("Try 'tabuleiro --help'.");
            ExitCode::from(2)
        }
    }
}

fn run(args: &[String]) -> Result<(), String> {
    let mut game = games::DEFAULT.to_string();
    let mut rest = args.iter();
    while let Some(arg) = rest.next() {
        match arg.as_str() {
            "-h" | "--help" | "help" => {
                println!("{}", usage());
                return Ok(());
            }
            "-V" | "--version" => {
                println!("tabuleiro {}", env!("CARGO_PKG_VERSION"));
                return Ok(());
            }
            "--game" => {
                let name = rest.next().ok_or("--game needs a game name")?;
                game = games::canonical(name)
                    .ok_or_else(|| {
                        format!(
                            "unknown game '{name}' (the games are: {})",
                            games::NAMES.join(", ")
                        )
                    })?
                    .to_string();
            }
            "bench" => {
                let depth = match rest.next() {
                    Some(text) => Some(
                        text.parse::<u32>()
                            .ok()
                            .filter(|d| (1..=64).contains(d))
                            .ok_or_else(|| format!("bench depth '{text}' is not 1..64"))?,
                    ),
                    None => None,
                };
                let report = tabuleiro::bench::run(depth, &|line| println!("{line}"));
                println!("{}", report.summary());
                return Ok(());
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    session::run(&game)
}
