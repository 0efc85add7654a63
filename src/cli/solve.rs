//! The flags of `tabuleiro solve`, read by clap into the plain
//! [`crate::solve::SolveArgs`] that the command runs on.

use std::path::PathBuf;

use clap::{ArgGroup, Args};

use crate::solve::{Mode, SolveArgs, adapter, parse_shard};

/// The arguments of `tabuleiro solve`.
#[derive(Args, Clone, Debug)]
#[command(
    about = "Solve a position exactly, or a proof split into jobs for many machines",
    before_help = "Solves the start (or --fen) of a game with its exact solver and prints
'FEN | value | best move | N nodes | S s'. With --split PLY, writes instead the
distinct positions PLY plies from there (up to the board's symmetries, games
over left out) as a job list; with --jobs FILE --shard K/N, solves jobs K, K+N,
K+2N, ... of the list, one result line each; with --merge, makes the result
files of all shards into a book and prints the root's value computed from the
book alone (docs/solved.md, Proofs split into jobs). With --book FILE, a direct
solve or a shard consults that book (made by --merge for the same options).",
    help_template = super::SUBCOMMAND_HELP,
    override_usage = "tabuleiro solve --game NAME [--option Name=Value ...] [--table LOG2]
                       [--fen FEN] [--split PLY | --jobs FILE --shard K/N [--seconds S]
                        | --merge FILE...] [--book FILE] [--out FILE]",
    group(ArgGroup::new("mode").args(["split", "jobs", "merge"]).multiple(false)),
    args_override_self = true
)]
pub struct SolveFlags {
    #[arg(long, value_name = "NAME", value_parser = super::game_name, help = "talpa or frozenforest (default: the game before 'solve')")]
    pub game: Option<&'static str>,
    #[arg(
        long = "option",
        value_name = "Name=Value",
        value_parser = super::option_pair,
        help = "A game option, e.g. --option Trees=5; repeat for more"
    )]
    pub options: Vec<(String, String)>,
    #[arg(long, value_name = "FEN", conflicts_with_all = ["jobs", "merge"], help = "Solve or split this position instead of the start")]
    pub fen: Option<String>,
    #[arg(long, value_name = "PLY", value_parser = super::whole::<u32>, help = "Write the job list of the positions PLY plies in")]
    pub split: Option<u32>,
    #[arg(
        long,
        value_name = "FILE",
        requires = "shard",
        help = "Solve jobs of this list (with --shard)"
    )]
    pub jobs: Option<PathBuf>,
    #[arg(long, value_name = "K/N", value_parser = parse_shard, requires = "jobs", help = "Which jobs: K, K+N, K+2N, ... (1 <= K <= N)")]
    pub shard: Option<(usize, usize)>,
    #[arg(long, value_name = "S", requires = "jobs", value_parser = seconds, help = "Give up on a job after S seconds ('unsolved')")]
    pub seconds: Option<f64>,
    #[arg(long, value_name = "FILE", num_args = 1.., help = "Merge these result files into a book")]
    pub merge: Vec<PathBuf>,
    #[arg(
        long,
        value_name = "FILE",
        help = "Write the list, results or book here (default: stdout)"
    )]
    pub out: Option<PathBuf>,
    #[arg(long, value_name = "FILE", conflicts_with_all = ["split", "merge"], help = "Consult this book (of the same game and options) while solving")]
    pub book: Option<PathBuf>,
    #[arg(long, value_name = "LOG2", default_value_t = 22, hide_default_value = true, value_parser = table, help = "The solver's table: 2^LOG2 entries of 16 bytes (default 22: 64 MiB)")]
    pub table: u32,
}

fn seconds(text: &str) -> Result<f64, String> {
    text.parse::<f64>()
        .ok()
        .filter(|s| s.is_finite() && *s > 0.0)
        .ok_or_else(|| format!("'{text}' is not a number of seconds above 0"))
}

fn table(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|t| (10..=34).contains(t))
        .ok_or_else(|| format!("table '{text}' is not 10..34"))
}

impl SolveFlags {
    /// The plain arguments, `game` being the one named before `solve`.
    pub fn resolve(self, game: Option<&'static str>) -> Result<SolveArgs, String> {
        let game = self
            .game
            .or(game)
            .ok_or_else(|| format!("solve needs --game ({})", adapter::GAMES.join(" or ")))?;
        let mode = if let Some(ply) = self.split {
            Mode::Split(ply)
        } else if let (Some(jobs), Some((k, n))) = (self.jobs, self.shard) {
            Mode::Shard {
                jobs,
                k,
                n,
                seconds: self.seconds,
            }
        } else if !self.merge.is_empty() {
            Mode::Merge(self.merge)
        } else {
            Mode::Direct
        };
        Ok(SolveArgs {
            game,
            options: self.options,
            fen: self.fen,
            mode,
            out: self.out,
            table: self.table,
            book: self.book,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn flags(args: &[&str]) -> Result<SolveFlags, String> {
        let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        super::super::parse_flags::<SolveFlags>("solve", &args)
    }

    #[test]
    fn modes_read_and_clash() {
        let args = flags(&["--game", "talpa", "--split", "3"]).and_then(|f| f.resolve(None));
        assert_eq!(args.map(|a| a.mode), Ok(Mode::Split(3)));
        let args = flags(&["--jobs", "j", "--shard", "2/5"]).and_then(|f| f.resolve(Some("talpa")));
        assert!(matches!(
            args.map(|a| a.mode),
            Ok(Mode::Shard {
                k: 2,
                n: 5,
                seconds: None,
                ..
            })
        ));
        let args = flags(&["--merge", "a", "b"]).and_then(|f| f.resolve(Some("frozenforest")));
        assert_eq!(
            args.map(|a| a.mode),
            Ok(Mode::Merge(vec!["a".into(), "b".into()]))
        );
        assert!(flags(&["--split", "2", "--merge", "a"]).is_err());
        assert!(flags(&["--jobs", "j"]).is_err());
        assert!(flags(&["--shard", "0/2", "--jobs", "j"]).is_err());
        assert!(flags(&["--split", "x"]).is_err());
        assert!(flags(&["--table", "99"]).is_err());
        let args = flags(&["--book", "b"]).and_then(|f| f.resolve(Some("talpa")));
        assert_eq!(args.map(|a| a.book), Ok(Some("b".into())));
        assert!(flags(&["--book", "b", "--split", "2"]).is_err());
        assert!(flags(&["--book", "b", "--merge", "a"]).is_err());
        assert!(flags(&[]).and_then(|f| f.resolve(None)).is_err());
    }
}
