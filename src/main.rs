//! The `tabuleiro` command: parse flags, set up logging on stderr, then speak UGI on
//! stdin/stdout or run a one-shot command.

use std::process::ExitCode;

use tabuleiro::bench;
use tabuleiro::games;
use tabuleiro::session;

fn usage() -> String {
    format!(
        "tabuleiro {version}: an engine for Linetris, Talpa, Fabrik, Frozen Forest and Neutreeko

Usage:
  tabuleiro [--game NAME]          speak UGI (and UCI) on stdin/stdout
  tabuleiro play [--game NAME] [--p1 human|engine] [--p2 human|engine]
                 [--level N] [--movetime MS] [--option Name=Value ...]
                                   play in the terminal ('tabuleiro play --help')
  tabuleiro match --engine SPEC --engine SPEC [options]
                                   play engines against each other, refereed by
                                   our rules ('tabuleiro match --help')
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

fn bench_usage() -> String {
    format!(
        "Usage: tabuleiro bench [DEPTH]

Searches fixed positions of every game ({names}) from a cleared table, each to
its game's bench depth or to DEPTH (1..64), and prints an 'info string' line per
game, then 'N nodes M nps'. N, the node count, is the search's signature: it
changes only when search or move generation behaviour changes. The Neutreeko
tablebase is not used. Over UGI, 'bench [DEPTH]' does the same; 'stop' or 'quit'
end it early, without the last line.",
        names = games::NAMES.join(", "),
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
            // The help of the subcommand that failed, if one did.
            let help = match args
                .iter()
                .find(|a| ["play", "match", "bench"].contains(&a.as_str()))
            {
                Some(command) => format!("tabuleiro {command} --help"),
                None => "tabuleiro --help".to_string(),
            };
            eprintln!("Try '{help}'.");
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
            "play" => {
                let rest: Vec<String> = rest.cloned().collect();
                return tabuleiro::play::run(&rest, &game);
            }
            "match" => {
                let rest: Vec<String> = rest.cloned().collect();
                return tabuleiro::arena::main(&rest);
            }
            "bench" => {
                let depth = match rest.next() {
                    Some(help) if matches!(help.as_str(), "-h" | "--help" | "help") => {
                        println!("{}", bench_usage());
                        return Ok(());
                    }
                    Some(text) => Some(
                        text.parse::<u32>()
                            .ok()
                            .filter(|d| bench::DEPTHS.contains(d))
                            .ok_or_else(|| {
                                let (min, max) = (bench::DEPTHS.start(), bench::DEPTHS.end());
                                format!("bench depth '{text}' is not {min}..{max}")
                            })?,
                    ),
                    None => None,
                };
                let report = bench::run(depth, &|part| println!("info string {part}"));
                println!("{}", report.summary());
                return Ok(());
            }
            other => return Err(format!("unknown argument '{other}'")),
        }
    }
    session::run(&game)
}
