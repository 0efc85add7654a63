//! How a game looks to a person (`play`): a glyph, a colour and a name for every FEN
//! letter (SPEC §2), the names of the two sides and a two-line reminder of the rules.
//!
//! Each game states its own ([`crate::game::Game::LOOK`]); a game that does not still
//! plays with [`Look::GENERIC`]: its FEN letters drawn as they are, its sides `p1`/`p2`.

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
    pub pieces: &'static [Piece],
    /// Whether columns are named by number (Linetris) rather than by letter.
    pub numbered_columns: bool,
    /// Whether the board has ranks a move can name (not Linetris).
    pub named_ranks: bool,
    /// A reminder of the notation and the aim, shown at the start and in `help`.
    pub rules: &'static str,
}

pub const fn piece(letter: char, glyph: char, colour: Colour, name: &'static str) -> Piece {
    Piece {
        letter,
        glyph,
        colour,
        name,
    }
}

impl Look {
    /// The look of a game that states none.
    pub const GENERIC: Look = Look {
        sides: ["p1", "p2"],
        pieces: &[],
        numbered_columns: false,
        named_ranks: true,
        rules: "",
    };

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
