//! Drawing a board from any game's FEN: the board part is read generically into
//! letters per cell (SPEC §1), so no game module is involved.

use crate::game::look::Look;
use crate::game::{parse_fen_board, read_square};

/// Every letter a FEN board may use.
const LETTERS: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

/// Rows of cells, top rank first: `None` for an empty cell, the FEN letter otherwise.
pub type Cells = Vec<Vec<Option<char>>>;

/// How to draw: ANSI colour or not, Unicode glyphs or the FEN letters.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Style {
    pub colour: bool,
    pub unicode: bool,
}

/// The SGR sequences used.
const RESET: &str = "\x1b[0m";
const MARK_BG: &str = "\x1b[100m";
const DIM: &str = "\x1b[90m";
const BOLD: &str = "\x1b[1m";

impl Style {
    /// Bold text in colour mode, unchanged in plain mode.
    pub fn bold(&self, text: &str) -> String {
        if self.colour {
            format!("{BOLD}{text}{RESET}")
        } else {
            text.to_string()
        }
    }

    /// A FEN letter as it is drawn (coloured in colour mode).
    pub fn glyph(&self, look: &Look, letter: char) -> String {
        match look.piece(letter) {
            Some(piece) => {
                let glyph = if self.unicode { piece.glyph } else { letter };
                if self.colour {
                    format!("\x1b[1;{}m{glyph}\x1b[22;39m", piece.colour.sgr())
                } else {
                    glyph.to_string()
                }
            }
            None => letter.to_string(),
        }
    }
}

/// The cells of a FEN's board part, or `None` if it cannot be read.
pub fn cells_of_fen(fen: &str) -> Option<Cells> {
    let board = fen.split_whitespace().next()?;
    parse_fen_board(board, LETTERS).ok()
}

/// The cells (row from the top, file) that a move names, for highlighting: the squares
/// of its text (`b1b4`, `d4f6e5`, `c3`), or for a column number (`4`) the topmost
/// piece of that column. Nothing for other moves (`pass`).
pub fn move_cells(cells: &Cells, text: &str) -> Vec<(usize, usize)> {
    let height = cells.len();
    let width = cells.first().map_or(0, Vec::len);
    if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
        let Some(file) = text.parse::<usize>().ok().and_then(|n| n.checked_sub(1)) else {
            return Vec::new();
        };
        if file >= width {
            return Vec::new();
        }
        return (0..height)
            .find(|&row| cells[row][file].is_some())
            .map(|row| vec![(row, file)])
            .unwrap_or_default();
    }
    let mut marked = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let Some((file, rank, used)) = read_square(rest) else {
            return Vec::new();
        };
        if file < width && rank < height {
            marked.push((height - 1 - rank, file));
        }
        rest = &rest[used..];
    }
    marked
}

/// The column labels: letters, or numbers for games that name columns by number.
fn column_label(look: &Look, file: usize) -> String {
    if look.numbered_columns {
        (file + 1).to_string()
    } else {
        char::from(b'a' + (file as u8 % 26)).to_string()
    }
}

/// Draws the board with coordinates on all four edges (ranks only where the game
/// names them) and the `marked` cells highlighted: a grey background in colour,
/// `[x]` brackets in plain text.
pub fn render(look: &Look, cells: &Cells, marked: &[(usize, usize)], style: Style) -> String {
    let height = cells.len();
    let width = cells.first().map_or(0, Vec::len);
    let mut header = String::from("    ");
    for file in 0..width {
        header.push_str(&format!("{:^3}", column_label(look, file)));
    }
    let header = style.dim(header.trim_end());
    let mut out = String::new();
    out.push_str(&header);
    out.push('\n');
    for (row, line) in cells.iter().enumerate() {
        let rank = height - row;
        let label = if look.named_ranks {
            rank.to_string()
        } else {
            String::new()
        };
        out.push_str(&style.dim(&format!("{label:>3} ")));
        for (file, cell) in line.iter().enumerate() {
            let is_marked = marked.contains(&(row, file));
            let glyph = match cell {
                Some(letter) => style.glyph(look, *letter),
                None => {
                    let dot = if style.unicode { "·" } else { "." };
                    if style.colour {
                        format!("{DIM}{dot}\x1b[39m")
                    } else {
                        dot.to_string()
                    }
                }
            };
            match (is_marked, style.colour) {
                (true, true) => out.push_str(&format!("{MARK_BG} {glyph} {RESET}")),
                (true, false) => out.push_str(&format!("[{glyph}]")),
                (false, _) => out.push_str(&format!(" {glyph} ")),
            }
        }
        if look.named_ranks {
            out.push_str(&style.dim(&format!(" {label}")));
        }
        out.truncate(out.trim_end_matches(' ').len());
        out.push('\n');
    }
    out.push_str(&header);
    out.push('\n');
    out
}

impl Style {
    fn dim(&self, text: &str) -> String {
        if self.colour {
            format!("{DIM}{text}{RESET}")
        } else {
            text.to_string()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;
    use crate::games::linetris::Linetris;
    use crate::games::neutreeko::Neutreeko;

    const PLAIN: Style = Style {
        colour: false,
        unicode: true,
    };

    #[test]
    fn neutreeko_start_with_a_marked_move() {
        let cells = cells_of_fen("1w1w1/2b2/5/2w2/1b1b1 b 0").unwrap();
        let marked = move_cells(&cells, "b1b4");
        assert_eq!(marked, vec![(4, 1), (1, 1)]);
        let text = render(&Neutreeko::LOOK, &cells, &marked, PLAIN);
        let expected = "     a  b  c  d  e
  5  ·  ○  ·  ○  ·  5
  4  · [·] ●  ·  ·  4
  3  ·  ·  ·  ·  ·  3
  2  ·  ·  ○  ·  ·  2
  1  · [●] ·  ●  ·  1
     a  b  c  d  e
";
        assert_eq!(text, expected);
    }

    #[test]
    fn ascii_and_colour() {
        let cells = cells_of_fen("2/wb b").unwrap();
        let ascii = Style {
            colour: false,
            unicode: false,
        };
        let text = render(&Neutreeko::LOOK, &cells, &[], ascii);
        assert!(text.contains("  1  w  b  1"), "{text}");
        let colour = Style {
            colour: true,
            unicode: true,
        };
        let text = render(&Neutreeko::LOOK, &cells, &[(1, 0)], colour);
        assert!(text.contains("\x1b[100m \x1b[1;97m○"), "{text:?}");
        assert!(!render(&Neutreeko::LOOK, &cells, &[], PLAIN).contains('\x1b'));
    }

    #[test]
    fn column_moves_mark_the_top_piece_and_numbers_label_columns() {
        let cells = cells_of_fen("4/4/1o2/xx2 o").unwrap();
        assert_eq!(move_cells(&cells, "2"), vec![(2, 1)]);
        assert_eq!(move_cells(&cells, "3"), vec![]);
        assert_eq!(move_cells(&cells, "9"), vec![]);
        assert_eq!(move_cells(&cells, "pass"), vec![]);
        let text = render(&Linetris::LOOK, &cells, &[], PLAIN);
        assert!(text.starts_with("     1  2  3  4\n"), "{text}");
        assert!(text.contains("\n     ●  ●  ·  ·\n"), "{text}");
    }

    #[test]
    fn unknown_letters_and_bad_fens() {
        let cells = cells_of_fen("qZ b").unwrap();
        let text = render(&Look::GENERIC, &cells, &[], PLAIN);
        assert!(text.contains(" q  Z "), "{text}");
        assert!(cells_of_fen("").is_none());
        assert!(cells_of_fen("1w/3 b").is_none());
        assert_eq!(move_cells(&cells, "z9"), vec![]);
    }
}
