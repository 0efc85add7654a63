//! How each game looks in the terminal: a glyph, a colour and a name for every FEN
//! letter (SPEC §2), the names of the two sides and a two-line reminder of the rules.
//!
//! This is the only place in `play` that knows game names. A game without an entry
//! still plays: its FEN letters are drawn as they are and its sides are `p1`/`p2`.

/// A terminal colour (the 8 ANSI colours, drawn bright).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Colour {
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    White,
}

impl Colour {
    /// The SGR code of the bright foreground colour.
    pub fn sgr(self) -> u8 {
        match self {
            Colour::Red => 91,
            Colour::Green => 92,
            Colour::Yellow => 93,
            Colour::Blue => 94,
            Colour::Magenta => 95,
            Colour::Cyan => 96,
            Colour::White => 97,
        }
    }
}

/// One kind of cell content: a FEN letter and how to draw it.
#[derive(Clone, Copy, Debug)]
pub struct Piece {
    pub letter: char,
    pub glyph: char,
    pub colour: Colour,
    pub name: &'static str,
}

/// How one game is drawn.
#[derive(Clone, Copy, Debug)]
pub struct Look {
    /// The names of p1 and p2 (`black`, `white`).
    pub sides: [&'static str; 2],
    /// The FEN letter of each side's own piece (for the side-to-move marker).
    pub side_letters: [Option<char>; 2],
    pub pieces: &'static [Piece],
    /// Whether columns are named by number (Linetris) rather than by letter.
    pub numbered_columns: bool,
    /// Whether the board has ranks a move can name (not Linetris).
    pub named_ranks: bool,
    /// A reminder of the notation and the aim, shown at the start and in `help`.
    pub rules: &'static str,
}

const fn piece(letter: char, glyph: char, colour: Colour, name: &'static str) -> Piece {
    Piece {
        letter,
        glyph,
        colour,
        name,
    }
}

const NEUTREEKO: Look = Look {
    sides: ["black", "white"],
    side_letters: [Some('b'), Some('w')],
    pieces: &[
        piece('b', '●', Colour::Yellow, "black"),
        piece('w', '○', Colour::White, "white"),
    ],
    numbered_columns: false,
    named_ranks: true,
    rules: "A move slides a piece as far as it goes in one of 8 directions: b1b4 is from b1\n\
            to b4. Get your three pieces adjacent in a row, column or diagonal to win.",
};

const LINETRIS: Look = Look {
    sides: ["black", "red"],
    side_letters: [Some('x'), Some('o')],
    pieces: &[
        piece('x', '●', Colour::Yellow, "black"),
        piece('o', '○', Colour::Red, "red"),
    ],
    numbered_columns: true,
    named_ranks: false,
    rules: "A move is a column number (4 drops a piece into column 4). Four in a line wins;\n\
            a full bottom row is cleared and everything falls one row (RowClear).",
};

const TALPA: Look = Look {
    sides: ["red", "blue"],
    side_letters: [Some('r'), Some('b')],
    pieces: &[
        piece('r', '●', Colour::Red, "red"),
        piece('b', '○', Colour::Blue, "blue"),
    ],
    numbered_columns: false,
    named_ranks: true,
    rules: "c3c4 captures the enemy piece on c4 with yours from c3 (captures are compulsory);\n\
            with no capture, c3 removes your own piece. Red wants an empty path top to bottom,\n\
            blue left to right; opening a path for your opponent loses.",
};

const FABRIK: Look = Look {
    sides: ["black", "white"],
    side_letters: [Some('x'), Some('o')],
    pieces: &[
        piece('x', '●', Colour::Yellow, "black"),
        piece('o', '○', Colour::White, "white"),
        piece('w', '◆', Colour::Green, "worker"),
    ],
    numbered_columns: false,
    named_ranks: true,
    rules: "First the two workers are placed (d4), then black places a stone or passes (pass).\n\
            Then each turn: e5 places a stone where both workers see it, d4f6e5 first moves\n\
            a worker from d4 to f6. A line of LineLength stones wins.",
};

const FROZEN_FOREST: Look = Look {
    sides: ["Yuki", "Mina"],
    side_letters: [Some('y'), Some('m')],
    pieces: &[
        piece('t', '♣', Colour::Green, "tree"),
        piece('y', '●', Colour::Cyan, "Yuki"),
        piece('m', '◆', Colour::Magenta, "Mina"),
        piece('M', '◈', Colour::Magenta, "Mina in a tree"),
    ],
    numbered_columns: false,
    named_ranks: true,
    rules: "Moves name the square moved to (e5). Yuki steps onto a tree from which he sees\n\
            Mina and eats it; Mina slides to a square hidden from Yuki. Whoever cannot move loses.",
};

const GENERIC: Look = Look {
    sides: ["p1", "p2"],
    side_letters: [None, None],
    pieces: &[],
    numbered_columns: false,
    named_ranks: true,
    rules: "",
};

/// The look of the game called `name` (a generic look for a game it does not know).
pub fn look(name: &str) -> Look {
    match name {
        "neutreeko" => NEUTREEKO,
        "linetris" => LINETRIS,
        "talpa" => TALPA,
        "fabrik" => FABRIK,
        "frozenforest" => FROZEN_FOREST,
        _ => GENERIC,
    }
}

impl Look {
    /// The piece drawn for a FEN letter, if the look knows it.
    pub fn piece(&self, letter: char) -> Option<&Piece> {
        self.pieces.iter().find(|piece| piece.letter == letter)
    }

    /// A side's name with its player number: `black (p1)`.
    pub fn side_name(&self, index: usize) -> String {
        let side = self.sides[index.min(1)];
        let number = format!("p{}", index.min(1) + 1);
        if side == number {
            number
        } else {
            format!("{side} ({number})")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_known_game_has_distinct_glyphs_and_side_pieces() {
        for name in ["neutreeko", "linetris", "talpa", "fabrik", "frozenforest"] {
            let look = look(name);
            assert!(!look.rules.is_empty(), "{name}");
            for (i, a) in look.pieces.iter().enumerate() {
                for b in &look.pieces[i + 1..] {
                    assert_ne!(a.glyph, b.glyph, "{name}: plain text must tell them apart");
                    assert_ne!(a.letter, b.letter, "{name}");
                }
            }
            for letter in look.side_letters.iter().flatten() {
                assert!(look.piece(*letter).is_some(), "{name}: {letter}");
            }
        }
        assert_eq!(look("chess").side_name(1), "p2");
        // Yuki is "he" and Mina "she", as in the rules module (frozenforest/mod.rs).
        let rules = look("frozenforest").rules;
        assert!(
            rules.contains("Yuki steps onto a tree from which he sees"),
            "{rules}"
        );
        assert!(rules.contains("Mina slides"), "{rules}");
        assert_eq!(look("neutreeko").side_name(0), "black (p1)");
    }
}
