//! Each game's move reader against positions of random play: the bytes choose the game,
//! the moves played, and then move texts to read; a text that reads as legal must
//! format back to itself and play without trouble.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabuleiro::game::{Game, default_config};
use tabuleiro::games::{self, GameVisitor};

struct ReadMoves<'a>(&'a [u8]);

impl GameVisitor for ReadMoves<'_> {
    type Output = ();
    fn visit<G: Game>(self) {
        let mut state = G::start(&default_config::<G>());
        let (plays, texts) = self.0.split_at(self.0.len().min(16));
        let mut moves = Vec::new();
        for &byte in plays {
            moves.clear();
            state.generate_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            state.play(moves[byte as usize % moves.len()]);
        }
        for word in String::from_utf8_lossy(texts).split_whitespace() {
            let _ = state.parse_move(word);
            if let Ok(mv) = state.legal_move(word) {
                assert_eq!(state.legal_move(&state.format_move(mv)), Ok(mv));
                let mut child = state.clone();
                child.play(mv);
                let _ = child.outcome();
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let name = games::NAMES[pick as usize % games::NAMES.len()];
    games::visit(name, ReadMoves(rest));
});
