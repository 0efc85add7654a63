//! Each game's FEN reader on arbitrary text (the first byte picks the game): an error or
//! a position whose FEN reads back to the same position.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tabuleiro::game::default_config;
use tabuleiro::games::{self, GameVisitor};
use tabuleiro::search::{Evaluator, Strategy};

struct ReadFen<'a>(&'a str);

impl GameVisitor for ReadFen<'_> {
    type Output = ();
    fn visit<G: Strategy>(self) {
        let config = default_config::<G>();
        if let Ok(state) = G::from_fen(&config, self.0) {
            let fen = state.fen();
            let back = G::from_fen(&config, &fen).expect("a printed FEN reads back");
            assert_eq!(back.fen(), fen);
            assert_eq!(back.hash(), state.hash());
            let mut moves = Vec::new();
            state.generate_moves(&mut moves);
            assert_eq!(moves.len() as u64, state.count_moves());
            let _ = state.outcome();
            if state.outcome().is_none() {
                let _ = G::Eval::default().evaluate(&state);
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let name = games::NAMES[pick as usize % games::NAMES.len()];
    let text = String::from_utf8_lossy(rest);
    games::visit(name, ReadFen(&text));
});
