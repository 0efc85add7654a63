//! The notation shared by the games (SPEC §1): square names, position strings (FEN)
//! as rows of cells, plain-text diagrams, and how error messages quote input.

use crate::game::{FenError, Player};

/// The most characters of input text an error message quotes (protocol.md, Errors).
pub const QUOTED_CHARS: usize = 40;

/// Input text for an error message: in single quotes, control characters escaped
/// (`\u{1b}`), cut after [`QUOTED_CHARS`] characters of the escaped text (marked `…`,
/// never inside an escape). Every message that repeats input goes through it, so a
/// 100 kB move or FEN field gives a short line.
pub fn quote(text: &str) -> String {
    let mut quoted = String::from("'");
    let mut count = 0;
    for c in text.chars() {
        let shown: String = if c.is_control() {
            c.escape_default().collect()
        } else {
            c.to_string()
        };
        let width = shown.chars().count();
        if count + width > QUOTED_CHARS {
            quoted.push('…');
            break;
        }
        quoted.push_str(&shown);
        count += width;
    }
    quoted.push('\'');
    quoted
}

/// Reads the `<side> [<plies>]` tail of a FEN whose board part the game has read:
/// returns the side letter and the ply count. Shared by every game's FEN reader.
pub fn fen_tail<'a>(fields: &[&'a str]) -> Result<(&'a str, u32), FenError> {
    match fields {
        [side] => Ok((side, 0)),
        [side, plies] => {
            let plies = plies
                .parse::<u32>()
                .map_err(|_| FenError::BadPlies(plies.to_string()))?;
            Ok((side, plies))
        }
        [] => Err(FenError::MissingSide),
        _ => Err(FenError::TooManyFields(fields.len() + 1)),
    }
}

/// Splits a position string into its board part, the side to move (given the side
/// letters of p1 and p2) and the ply count. Shared by every game's FEN reader.
pub fn split_fen<'a>(fen: &'a str, sides: [&str; 2]) -> Result<(&'a str, Player, u32), FenError> {
    let fields: Vec<&str> = fen.split_whitespace().collect();
    let Some((board, tail)) = fields.split_first() else {
        return Err(FenError::Empty);
    };
    let (side, plies) = fen_tail(tail)?;
    let side = match side {
        s if s == sides[0] => Player::P1,
        s if s == sides[1] => Player::P2,
        other => {
            return Err(FenError::BadSide {
                found: other.to_string(),
                letters: sides.map(str::to_string),
            });
        }
    };
    Ok((board, side, plies))
}

/// Reads a FEN board part into rows of cells (top rank first): `None` for empty, the
/// letter otherwise. Checks that every rank has the same width and that only the given
/// letters occur. Shared by every game's FEN reader. Its messages number the ranks as
/// SPEC §1 does: rank 1 is the bottom rank, the last `/`-separated field.
pub fn parse_fen_board(board: &str, letters: &str) -> Result<Vec<Vec<Option<char>>>, FenError> {
    let fields: Vec<&str> = board.split('/').collect();
    if fields.len() > 32 {
        return Err(FenError::TooManyRanks);
    }
    let height = fields.len();
    let mut rows = Vec::new();
    for (index, rank_text) in fields.iter().enumerate() {
        let rank = height - index;
        let mut row = Vec::new();
        let mut digits = String::new();
        let flush = |digits: &mut String, row: &mut Vec<Option<char>>| -> Result<(), FenError> {
            if digits.is_empty() {
                return Ok(());
            }
            let run: usize = digits.parse().map_err(|_| FenError::BadRun {
                rank,
                text: digits.clone(),
            })?;
            if run == 0 || run > 32 {
                let text = digits.clone();
                return Err(FenError::RunOutOfRange { rank, text });
            }
            row.extend(std::iter::repeat_n(None, run));
            digits.clear();
            Ok(())
        };
        for c in rank_text.chars() {
            if c.is_ascii_digit() {
                digits.push(c);
            } else if letters.contains(c) {
                flush(&mut digits, &mut row)?;
                row.push(Some(c));
            } else {
                return Err(FenError::UnexpectedChar { rank, found: c });
            }
            if row.len() > 32 {
                return Err(FenError::RankTooLong(rank));
            }
        }
        flush(&mut digits, &mut row)?;
        if row.is_empty() {
            return Err(FenError::EmptyRank(rank));
        }
        rows.push(row);
    }
    let width = rows[0].len();
    if let Some(bad) = rows.iter().position(|row| row.len() != width) {
        return Err(FenError::RaggedRank {
            rank: height - bad,
            cells: rows[bad].len(),
            top: height,
            width,
        });
    }
    Ok(rows)
}

/// Writes rows of cells (top rank first) as a FEN board part.
pub fn format_fen_board(rows: &[Vec<Option<char>>]) -> String {
    let mut out = String::new();
    for (index, row) in rows.iter().enumerate() {
        if index > 0 {
            out.push('/');
        }
        let mut run = 0;
        for cell in row {
            match cell {
                None => run += 1,
                Some(c) => {
                    if run > 0 {
                        out.push_str(&run.to_string());
                        run = 0;
                    }
                    out.push(*c);
                }
            }
        }
        if run > 0 {
            out.push_str(&run.to_string());
        }
    }
    out
}

/// The name of a square: file letter then rank number (`a1` bottom left).
pub fn square_name(file: usize, rank: usize) -> String {
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// Reads a square name at the start of `text`: returns (file, rank, characters read),
/// both zero-based. Does not check the board's bounds.
pub fn read_square(text: &str) -> Option<(usize, usize, usize)> {
    let bytes = text.as_bytes();
    let file = *bytes.first()?;
    if !file.is_ascii_lowercase() {
        return None;
    }
    let digits = bytes[1..].iter().take_while(|b| b.is_ascii_digit()).count();
    if digits == 0 || digits > 2 || bytes[1] == b'0' {
        return None;
    }
    let rank: usize = text[1..1 + digits].parse().ok()?;
    Some(((file - b'a') as usize, rank - 1, 1 + digits))
}

/// The rows of a `files` × `ranks` board, top rank first, from `cell(file, rank)`
/// (both from 0, rank 0 at the bottom): what [`crate::game::Game::board`] returns.
pub fn rows_of(
    files: usize,
    ranks: usize,
    cell: impl Fn(usize, usize) -> Option<char>,
) -> Vec<Vec<Option<char>>> {
    (0..ranks)
        .rev()
        .map(|rank| (0..files).map(|file| cell(file, rank)).collect())
        .collect()
}

/// Rows of cells for a diagram: empty cells as `.`.
pub fn with_dots(rows: &[Vec<Option<char>>]) -> Vec<Vec<char>> {
    rows.iter()
        .map(|row| row.iter().map(|c| c.unwrap_or('.')).collect())
        .collect()
}

/// A plain text diagram of rows of cells (top rank first) with coordinates: rank
/// numbers on the left, file letters below.
pub fn plain_diagram(rows: &[Vec<char>]) -> String {
    let width = rows.first().map_or(0, |row| row.len());
    let files: Vec<String> = (0..width)
        .map(|file| char::from(b'a' + file as u8).to_string())
        .collect();
    labelled_diagram(rows, &files)
}

/// [`plain_diagram`] with the given column labels below (Linetris numbers its columns
/// `1` … `10`, as its moves do); cells are spaced to fit the widest label.
pub fn labelled_diagram(rows: &[Vec<char>], columns: &[String]) -> String {
    let height = rows.len();
    let cell = 1 + columns.iter().map(|l| l.chars().count()).max().unwrap_or(1);
    let mut out = String::new();
    for (index, row) in rows.iter().enumerate() {
        out.push_str(&format!("{:>3} ", height - index));
        for c in row {
            out.push_str(&format!("{c:>cell$}"));
        }
        out.push('\n');
    }
    out.push_str("    ");
    for label in columns {
        out.push_str(&format!("{label:>cell$}"));
    }
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::MoveError;

    #[test]
    fn squares_read_and_write() {
        assert_eq!(read_square("a1"), Some((0, 0, 2)));
        assert_eq!(read_square("k11x"), Some((10, 10, 3)));
        assert_eq!(read_square("a0"), None);
        assert_eq!(read_square("a01"), None);
        assert_eq!(read_square("A1"), None);
        assert_eq!(read_square("b"), None);
        assert_eq!(read_square("c123"), None);
        assert_eq!(square_name(10, 10), "k11");
    }

    #[test]
    fn fen_boards_round_trip() {
        let rows = parse_fen_board("1w1w1/2b2/5/2w2/1b1b1", "bw").unwrap();
        assert_eq!(rows.len(), 5);
        assert_eq!(rows[0], vec![None, Some('w'), None, Some('w'), None]);
        assert_eq!(format_fen_board(&rows), "1w1w1/2b2/5/2w2/1b1b1");
        let wide = parse_fen_board("11/x10", "x").unwrap();
        assert_eq!(wide[1].len(), 11);
        assert_eq!(format_fen_board(&wide), "11/x10");
    }

    #[test]
    fn fen_boards_reject_garbage() {
        assert!(parse_fen_board("1w1w1/2b2/4", "bw").is_err());
        assert!(parse_fen_board("1q3", "bw").is_err());
        assert!(parse_fen_board("0b4", "bw").is_err());
        assert!(parse_fen_board("", "bw").is_err());
        assert!(parse_fen_board("5//5", "bw").is_err());
        assert!(parse_fen_board("99999999999999999999", "bw").is_err());
    }

    #[test]
    fn fen_board_errors_number_ranks_from_the_bottom() {
        let error = |board: &str| {
            let text = parse_fen_board(board, "bw").unwrap_err().to_string();
            text.strip_prefix("bad FEN: ")
                .expect("the prefix")
                .to_string()
        };
        assert_eq!(error("q4/5/5"), "unexpected 'q' in rank 3 of the board");
        assert_eq!(error("5/5/4q"), "unexpected 'q' in rank 1 of the board");
        assert_eq!(error("5/4/5"), "rank 2 has 4 cells, the top rank (3) has 5");
        assert_eq!(error("5/5/"), "rank 1 of the board is empty");
        assert_eq!(error("0b4/5"), "bad run of empty cells '0' in rank 2");
    }

    #[test]
    fn quoted_input_is_cut_after_40_characters() {
        assert_eq!(quote("abc"), "'abc'");
        assert_eq!(quote(&"x".repeat(40)), format!("'{}'", "x".repeat(40)));
        assert_eq!(quote(&"x".repeat(41)), format!("'{}…'", "x".repeat(40)));
        assert_eq!(quote("a\u{1b}b"), "'a\\u{1b}b'");
        // An escape is never split: 38 x, then \u{1b} does not fit.
        let text = format!("{}\u{1b}", "x".repeat(38));
        assert_eq!(quote(&text), format!("'{}…'", "x".repeat(38)));
        let long = "9".repeat(1000);
        let message = split_fen(&format!("5/5 b {long}"), ["b", "w"])
            .unwrap_err()
            .to_string();
        assert_eq!(
            message,
            format!(
                "bad FEN: ply count '{}…' is not a whole number",
                "9".repeat(40)
            )
        );
        let message = MoveError::Syntax(long.clone()).to_string();
        assert!(message.len() < 90, "{message}");
        let message = parse_fen_board(&long, "bw").unwrap_err().to_string();
        assert!(message.len() < 90, "{message}");
    }

    #[test]
    fn fen_splits() {
        assert_eq!(split_fen("5/5 w 3", ["b", "w"]), Ok(("5/5", Player::P2, 3)));
        assert_eq!(split_fen("5/5 b", ["b", "w"]), Ok(("5/5", Player::P1, 0)));
        let error = split_fen("5/5 q", ["b", "w"]).unwrap_err();
        assert_eq!(
            error,
            FenError::BadSide {
                found: "q".to_string(),
                letters: ["b".to_string(), "w".to_string()]
            }
        );
        assert_eq!(error.to_string(), "bad FEN: side to move 'q' is not b or w");
        assert!(split_fen("  ", ["b", "w"]).is_err());
    }

    #[test]
    fn fen_tails() {
        assert_eq!(fen_tail(&["x"]).unwrap(), ("x", 0));
        assert_eq!(fen_tail(&["o", "12"]).unwrap(), ("o", 12));
        assert!(fen_tail(&["o", "-1"]).is_err());
        assert!(fen_tail(&[]).is_err());
        assert!(fen_tail(&["o", "1", "2"]).is_err());
    }
}
