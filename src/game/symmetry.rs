//! The symmetries of a game's board, and the key of a position up to them: the least
//! of its FENs under the symmetries its rules keep. Game-independent (it reads a
//! position through `Game::board` and `Game::fen`), so the opening suites
//! (`arena::suite`), the job lists of split proofs (`solve`) and the game books'
//! keys (`book::game`) share it.

use super::{Game, format_fen_board};

/// A symmetry of a board: how a cell (row from the top, file) moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Symmetry {
    Identity,
    /// Files mirrored (left ↔ right).
    MirrorFiles,
    /// Ranks mirrored (top ↔ bottom).
    MirrorRanks,
    Rotate180,
    /// Rows become files (the main diagonal stays).
    Transpose,
    /// The other diagonal stays.
    AntiTranspose,
    Rotate90,
    Rotate270,
}

impl Symmetry {
    /// The board under this symmetry (square boards only for the four that swap rows
    /// and files).
    pub fn apply(self, board: &[Vec<Option<char>>]) -> Vec<Vec<Option<char>>> {
        let rows = board.len();
        let cols = board.first().map_or(0, Vec::len);
        let (out_rows, out_cols) = match self {
            Symmetry::Identity
            | Symmetry::MirrorFiles
            | Symmetry::MirrorRanks
            | Symmetry::Rotate180 => (rows, cols),
            _ => (cols, rows),
        };
        let mut out = vec![vec![None; out_cols]; out_rows];
        for (r, line) in board.iter().enumerate() {
            for (f, &cell) in line.iter().enumerate() {
                let (nr, nf) = match self {
                    Symmetry::Identity => (r, f),
                    Symmetry::MirrorFiles => (r, cols - 1 - f),
                    Symmetry::MirrorRanks => (rows - 1 - r, f),
                    Symmetry::Rotate180 => (rows - 1 - r, cols - 1 - f),
                    Symmetry::Transpose => (f, r),
                    Symmetry::AntiTranspose => (cols - 1 - f, rows - 1 - r),
                    Symmetry::Rotate90 => (f, rows - 1 - r),
                    Symmetry::Rotate270 => (cols - 1 - f, r),
                };
                if let Some(slot) = out.get_mut(nr).and_then(|line| line.get_mut(nf)) {
                    *slot = cell;
                }
            }
        }
        out
    }
}

const ALL: &[Symmetry] = &[
    Symmetry::Identity,
    Symmetry::MirrorFiles,
    Symmetry::MirrorRanks,
    Symmetry::Rotate180,
    Symmetry::Transpose,
    Symmetry::AntiTranspose,
    Symmetry::Rotate90,
    Symmetry::Rotate270,
];

/// The symmetries of a game's rules, read off its rules (each game's `mod.rs`):
/// Linetris falls down its columns, so only its files mirror; Talpa's red joins top
/// and bottom and blue left and right, so turning the board by a quarter would swap
/// their goals; Neutreeko, Fabrik and Frozen Forest look alike in all 8 directions on
/// a square board. A game not listed has none but the identity.
pub fn symmetries(game: &str) -> &'static [Symmetry] {
    match game {
        "linetris" => &ALL[..2],
        "talpa" => &ALL[..4],
        "neutreeko" | "fabrik" | "frozenforest" => ALL,
        _ => &ALL[..1],
    }
}

/// The position's FEN with its board under `symmetry`.
pub fn transformed_fen<G: Game>(state: &G, symmetry: Symmetry) -> String {
    let fen = state.fen();
    let rest = fen.split_once(' ').map_or("", |(_, rest)| rest);
    format!(
        "{} {rest}",
        format_fen_board(&symmetry.apply(&state.board()))
    )
}

/// A key equal for positions that are the same up to the game's symmetries.
pub fn canonical_key<G: Game>(state: &G) -> String {
    symmetries(G::NAME)
        .iter()
        .map(|&symmetry| transformed_fen(state, symmetry))
        .min()
        .unwrap_or_default()
}
