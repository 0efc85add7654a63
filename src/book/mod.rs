//! Books: exact values of positions a few plies from a game's start, as checked text
//! files. One format for every book, so that a book is read, checked and written by
//! one piece of code whichever game or solver made it:
//!
//! ```text
//! MAGIC name value name value … count N fnv1a64 H
//! KEY VALUE
//! ```
//!
//! The header's magic word names the kind of book, its fields the game, options and
//! ply it holds (each kind has its own, in a fixed order); then the number of entries
//! and the FNV-1a (64 bits) checksum of the entry lines, newlines included. An entry is
//! a position's key in hex and a signed whole number, its value; keys are strictly
//! increasing. Two kinds use it:
//! - the Connect Four opening books (`connect-four-book rows R cols C ply P`,
//!   [`crate::games::linetris::book`]): key and score as that solver defines them;
//! - game books (`tabuleiro-book game G options O ply P`, [`game`]): made by `tabuleiro
//!   solve --merge` from the results of solves split into jobs (`crate::solve`).
//!
//! [`make`] makes Connect Four books with the solver (the generator, out of the engine).

pub mod game;
pub mod make;

/// A book as the format holds it: the header's fields and the entries.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BookText {
    pub magic: String,
    /// The header's (name, value) pairs between the magic word and `count`.
    pub fields: Vec<(String, String)>,
    /// Keys strictly increasing, with their values.
    pub entries: Vec<(u128, i64)>,
}

/// FNV-1a, 64 bits.
pub fn fnv1a64(bytes: &[u8]) -> u64 {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0000_0100_0000_01b3);
    }
    hash
}

/// FNV-1a, 128 bits (the key of a text, such as a FEN, in game books).
pub fn fnv1a128(bytes: &[u8]) -> u128 {
    let mut hash: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for &b in bytes {
        hash ^= u128::from(b);
        hash = hash.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    hash
}

/// The text of a book: the header, then `key value` lines (entries sorted by key,
/// which the caller guarantees).
pub fn write(magic: &str, fields: &[(String, String)], entries: &[(u128, i64)]) -> String {
    let body: String = entries
        .iter()
        .map(|(key, value)| format!("{key:x} {value}\n"))
        .collect();
    let fields: String = fields
        .iter()
        .map(|(name, value)| format!(" {name} {value}"))
        .collect();
    format!(
        "{magic}{fields} count {} fnv1a64 {:016x}\n{body}",
        entries.len(),
        fnv1a64(body.as_bytes())
    )
}

impl BookText {
    /// Reads and checks a book of kind `magic` whose header has the fields `names`, in
    /// this order: the header's shape, the checksum, the count, every entry's form and
    /// the keys' order. The error says what is wrong (an entry by its number and line).
    pub fn parse(text: &str, magic: &str, names: &[&str]) -> Result<BookText, String> {
        let (header, body) = text.split_once('\n').ok_or("no header line")?;
        let words: Vec<&str> = header.split_whitespace().collect();
        let shape = || {
            let fields: String = names.iter().map(|n| format!(" {n} V")).collect();
            format!("header: expected `{magic}{fields} count N fnv1a64 H`")
        };
        if words.first() != Some(&magic) || words.len() != 2 * names.len() + 5 {
            return Err(shape());
        }
        let mut fields = Vec::with_capacity(names.len());
        for (i, name) in names.iter().enumerate() {
            if words[1 + 2 * i] != *name {
                return Err(shape());
            }
            fields.push((name.to_string(), words[2 + 2 * i].to_string()));
        }
        let tail = &words[1 + 2 * names.len()..];
        if tail[0] != "count" || tail[2] != "fnv1a64" {
            return Err(shape());
        }
        let count: usize = tail[1].parse().map_err(|e| format!("header: count: {e}"))?;
        let checksum =
            u64::from_str_radix(tail[3], 16).map_err(|e| format!("header: fnv1a64: {e}"))?;
        if fnv1a64(body.as_bytes()) != checksum {
            return Err("checksum mismatch".to_string());
        }
        let mut entries: Vec<(u128, i64)> = Vec::with_capacity(count.min(1 << 24));
        for (n, line) in body.lines().enumerate() {
            let bad = |why: &str| format!("entry {}: {why}: `{line}`", n + 1);
            let (key, value) = line.split_once(' ').ok_or_else(|| bad("not `key value`"))?;
            let key = u128::from_str_radix(key, 16).map_err(|_| bad("key"))?;
            let value: i64 = value.parse().map_err(|_| bad("value"))?;
            if entries.last().is_some_and(|&(last, _)| last >= key) {
                return Err(bad("keys out of order"));
            }
            entries.push((key, value));
        }
        if entries.len() != count {
            return Err(format!("count {count} but {} entries", entries.len()));
        }
        Ok(BookText {
            magic: magic.to_string(),
            fields,
            entries,
        })
    }

    /// The value of the header field `name`.
    pub fn field(&self, name: &str) -> Option<&str> {
        self.fields
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// The book as text (the inverse of [`BookText::parse`]).
    pub fn to_text(&self) -> String {
        write(&self.magic, &self.fields, &self.entries)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> BookText {
        BookText {
            magic: "test-book".to_string(),
            fields: vec![("game".to_string(), "x".to_string())],
            entries: vec![(1, -3), (0x1f, 0), (0xabc, 12)],
        }
    }

    #[test]
    fn a_book_reads_back_and_damage_is_refused() {
        let book = sample();
        let text = book.to_text();
        assert!(text.starts_with("test-book game x count 3 fnv1a64 "));
        assert!(text.ends_with("1 -3\n1f 0\nabc 12\n"));
        assert_eq!(BookText::parse(&text, "test-book", &["game"]), Ok(book));
        for bad in [
            text.replace("abc 12", "abc 13"),
            text.replace("count 3", "count 4"),
            text.replace("test-book", "other-book"),
            text.replace(" game x", " game x extra"),
            text[..text.len() - 2].to_string(),
            String::new(),
            "test-book game x count".to_string(),
        ] {
            assert!(
                BookText::parse(&bad, "test-book", &["game"]).is_err(),
                "{bad}"
            );
        }
        assert!(BookText::parse(&text, "test-book", &["ply"]).is_err());
        // Keys out of order are refused even with a right checksum.
        let swapped = write(
            "test-book",
            &[("game".to_string(), "x".to_string())],
            &[(2, 0), (1, 0)],
        );
        let error = BookText::parse(&swapped, "test-book", &["game"]).unwrap_err();
        assert!(error.contains("out of order"), "{error}");
    }

    #[test]
    fn the_hashes_are_the_published_fnv_1a() {
        // Test vectors of the FNV reference (the empty text and "a").
        assert_eq!(fnv1a64(b""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(fnv1a64(b"a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(fnv1a128(b""), 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d);
        assert_eq!(fnv1a128(b"a"), 0xd228_cb69_6f1a_8caf_7891_2b70_4e4a_8964);
    }
}
