//! How often Neutreeko's search without its table keeps a position's value: the
//! first figure of docs/strength.md ("Neutreeko without the table"), now measured by
//! the harness of every game (`examples/agreement.rs`) with that figure's settings.
//!
//! ```text
//! cargo run --release --example neutreeko_agreement                      # 1,000 positions a source, 150,000 nodes a move
//! cargo run --release --example neutreeko_agreement -- --movetime 100    # 100 ms a move instead
//! cargo run --release --example neutreeko_agreement -- --positions 200 --seed 5 --nodes 50000 --verbose
//! ```
//!
//! The same as `cargo run --release --example agreement -- --set neutreeko --nodes
//! 150000 --sources random,sound`: random games and sound games (a random move that
//! keeps the value, one ply in 10 any random move), each stopped at a random ply from 1
//! to 40; any other argument of `agreement` is taken too.

#[path = "agreement.rs"]
#[allow(dead_code)]
mod agreement;

fn main() {
    let mut words: Vec<String> = ["--set", "neutreeko", "--sources", "random,sound"]
        .iter()
        .map(|w| w.to_string())
        .collect();
    let given: Vec<String> = std::env::args().skip(1).collect();
    if !given.iter().any(|w| w == "--nodes" || w == "--movetime") {
        words.extend(["--nodes".to_string(), "150000".to_string()]);
    }
    words.extend(given);
    let result = agreement::Args::parse(&words).and_then(|args| agreement::run(&args));
    if let Err(why) = result {
        eprintln!("neutreeko_agreement: {why}");
        std::process::exit(1);
    }
}
