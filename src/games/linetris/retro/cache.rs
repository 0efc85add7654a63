//! The retrograde tables' cache files: a table that takes seconds to build is saved
//! once and loaded on later starts (a fraction of a second).
//!
//! - Where: `$TABULEIRO_CACHE` if set and not empty, else `$XDG_CACHE_HOME/tabuleiro`
//!   (an absolute path), else `$HOME/.cache/tabuleiro`; one file per board,
//!   `linetris-rowclear-{Rows}x{Cols}.tbl`.
//! - Format (little-endian): a 48-byte header — the magic `TABRETRO`, the format
//!   version, Rows, Cols, a reserved zero, the number of entries, a checksum of the
//!   payload, a reserved zero — then the table's bytes ([`Table::bytes`]). A file that
//!   is short, long, of another version or board, or whose checksum or bytes are wrong
//!   is refused with the reason; the caller logs it and builds the table.
//! - Writing goes to a temporary file in the same directory, renamed over the final
//!   name once complete and synced: two engines starting together never read half a
//!   file (each renames a whole one; they are equal).

use std::ffi::OsString;
use std::fs::File;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use super::Table;

/// The first bytes of every cache file.
const MAGIC: &[u8; 8] = b"TABRETRO";
/// The format; a change of the index or the bytes' meaning changes it. Version 2:
/// the exact layer's byte (`plies + 1`, [`crate::search::exact::byte`]); version 1
/// stored `plies` (odd a win), and its files are refused as another version.
pub const VERSION: u32 = 2;
const HEADER: usize = 48;

/// The cache directory from the environment (see the module doc); `None` when no
/// variable names one.
pub fn dir() -> Option<PathBuf> {
    dir_from(
        std::env::var_os("TABULEIRO_CACHE"),
        std::env::var_os("XDG_CACHE_HOME"),
        std::env::var_os("HOME"),
    )
}

/// The cache directory given `$TABULEIRO_CACHE`, `$XDG_CACHE_HOME` and `$HOME`.
pub fn dir_from(
    tabuleiro: Option<OsString>,
    xdg: Option<OsString>,
    home: Option<OsString>,
) -> Option<PathBuf> {
    let set = |v: Option<OsString>| v.filter(|v| !v.is_empty()).map(PathBuf::from);
    if let Some(dir) = set(tabuleiro) {
        return Some(dir);
    }
    if let Some(xdg) = set(xdg).filter(|p| p.is_absolute()) {
        return Some(xdg.join("tabuleiro"));
    }
    set(home).map(|home| home.join(".cache").join("tabuleiro"))
}

/// The file of a board's table in `dir`.
pub fn path(dir: &Path, rows: u32, cols: u32) -> PathBuf {
    dir.join(format!("linetris-rowclear-{rows}x{cols}.tbl"))
}

/// A 64-bit checksum of the payload: every 8-byte word (the last padded with zeros)
/// mixed in by xor, rotate and an odd multiplier, then the length. Each step is a
/// bijection of the running value, so any one changed word changes the sum.
pub fn checksum(bytes: &[u8]) -> u64 {
    const K: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut h: u64 = 0x243f_6a88_85a3_08d3;
    let mut chunks = bytes.chunks_exact(8);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        h = (h.rotate_left(23) ^ u64::from_le_bytes(word)).wrapping_mul(K);
    }
    let mut last = [0u8; 8];
    last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    h = (h.rotate_left(23) ^ u64::from_le_bytes(last)).wrapping_mul(K);
    (h ^ bytes.len() as u64).wrapping_mul(K) ^ (h >> 29)
}

fn header(rows: u32, cols: u32, entries: u64, sum: u64) -> [u8; HEADER] {
    let mut out = [0u8; HEADER];
    out[0..8].copy_from_slice(MAGIC);
    out[8..12].copy_from_slice(&VERSION.to_le_bytes());
    out[12..16].copy_from_slice(&rows.to_le_bytes());
    out[16..20].copy_from_slice(&cols.to_le_bytes());
    out[24..32].copy_from_slice(&entries.to_le_bytes());
    out[32..40].copy_from_slice(&sum.to_le_bytes());
    out
}

/// Saves a table in `dir` (made if need be), atomically; the file's path.
pub fn save(table: &Table, dir: &Path) -> io::Result<PathBuf> {
    std::fs::create_dir_all(dir)?;
    let target = path(dir, table.rows(), table.cols());
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let temp = dir.join(format!(
        ".linetris-rowclear-{}x{}.{}.{nanos}.tmp",
        table.rows(),
        table.cols(),
        std::process::id()
    ));
    let written = (|| {
        let bytes = table.bytes();
        let mut file = BufWriter::new(File::create(&temp)?);
        file.write_all(&header(
            table.rows(),
            table.cols(),
            bytes.len() as u64,
            checksum(bytes),
        ))?;
        file.write_all(bytes)?;
        file.into_inner().map_err(|e| e.into_error())?.sync_all()?;
        std::fs::rename(&temp, &target)
    })();
    if let Err(why) = written {
        let _ = std::fs::remove_file(&temp);
        return Err(why);
    }
    Ok(target)
}

/// Loads a board's table from `dir`: `Ok(None)` when there is no file, `Err` with the
/// reason when there is one that is not this board's table.
pub fn load(dir: &Path, rows: u32, cols: u32) -> Result<Option<Table>, String> {
    let path = path(dir, rows, cols);
    let mut file = match File::open(&path) {
        Ok(file) => file,
        Err(why) if why.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(why) => return Err(format!("{}: {why}", path.display())),
    };
    read(&mut file, rows, cols)
        .map(Some)
        .map_err(|why| format!("{}: {why}", path.display()))
}

/// Reads a table file's header and payload, checking both.
fn read(file: &mut File, rows: u32, cols: u32) -> Result<Table, String> {
    let expected = super::entries(rows, cols);
    if expected == 0 {
        return Err(format!("{rows} x {cols} has no table"));
    }
    let mut head = [0u8; HEADER];
    file.read_exact(&mut head)
        .map_err(|_| "shorter than a header".to_string())?;
    let word = |at: usize| u32::from_le_bytes([head[at], head[at + 1], head[at + 2], head[at + 3]]);
    let long = |at: usize| {
        let mut b = [0u8; 8];
        b.copy_from_slice(&head[at..at + 8]);
        u64::from_le_bytes(b)
    };
    if &head[0..8] != MAGIC {
        return Err("not a tabuleiro table (bad magic)".to_string());
    }
    if word(8) != VERSION {
        return Err(format!("format version {}, not {VERSION}", word(8)));
    }
    if (word(12), word(16)) != (rows, cols) {
        return Err(format!(
            "the table of {} x {}, not {rows} x {cols}",
            word(12),
            word(16)
        ));
    }
    let entries = long(24);
    if entries != expected {
        return Err(format!("{entries} entries, not {expected}"));
    }
    let len = file.metadata().map_err(|why| why.to_string())?.len();
    if len != HEADER as u64 + entries {
        return Err(format!(
            "{len} bytes, not {} (truncated or extended)",
            HEADER as u64 + entries
        ));
    }
    let size = usize::try_from(entries).map_err(|_| "too large".to_string())?;
    let mut bytes = Vec::new();
    bytes
        .try_reserve_exact(size)
        .map_err(|_| format!("no memory for {size} bytes"))?;
    file.take(entries)
        .read_to_end(&mut bytes)
        .map_err(|why| why.to_string())?;
    if bytes.len() != size {
        return Err("truncated while reading".to_string());
    }
    if checksum(&bytes) != long(32) {
        return Err("checksum mismatch (corrupted)".to_string());
    }
    Table::from_bytes(rows, cols, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A fresh directory under the system's temporary one, removed by the caller.
    fn temp_dir(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "tabuleiro-cache-test-{name}-{}",
            std::process::id()
        ));
        let _ = std::fs::remove_dir_all(&dir);
        dir
    }

    #[test]
    fn directory_from_the_environment() {
        let s = |v: &str| Some(OsString::from(v));
        assert_eq!(
            dir_from(s("/c"), s("/x"), s("/h")),
            Some(PathBuf::from("/c"))
        );
        assert_eq!(
            dir_from(s(""), s("/x"), s("/h")),
            Some(PathBuf::from("/x/tabuleiro"))
        );
        // A relative XDG_CACHE_HOME is ignored (the XDG base directory spec).
        assert_eq!(
            dir_from(None, s("rel"), s("/h")),
            Some(PathBuf::from("/h/.cache/tabuleiro"))
        );
        assert_eq!(dir_from(None, None, None), None);
    }

    #[test]
    fn round_trip_and_damaged_files() {
        let dir = temp_dir("round-trip");
        assert_eq!(load(&dir, 4, 4).map(|t| t.is_some()), Ok(false));
        let table = Table::build(4, 4);
        let file = save(&table, &dir).unwrap();
        assert_eq!(file, path(&dir, 4, 4));
        let loaded = load(&dir, 4, 4).unwrap().unwrap();
        assert_eq!(loaded.bytes(), table.bytes());
        assert_eq!(loaded.max_dist, table.max_dist);
        // No temporary file is left behind.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 1);

        let good = std::fs::read(&file).unwrap();
        let refused = |bytes: &[u8], rows: u32, cols: u32| {
            std::fs::write(path(&dir, rows, cols), bytes).unwrap();
            load(&dir, rows, cols).err().unwrap_or_default()
        };
        assert!(refused(&good[..good.len() - 1], 4, 4).contains("truncated"));
        assert!(refused(&good[..20], 4, 4).contains("header"));
        let mut flipped = good.clone();
        flipped[HEADER + 1000] ^= 4;
        assert!(refused(&flipped, 4, 4).contains("checksum"));
        let mut magic = good.clone();
        magic[0] = b'X';
        assert!(refused(&magic, 4, 4).contains("magic"));
        let mut version = good.clone();
        version[8] = 9;
        assert!(refused(&version, 4, 4).contains("version"));
        // A file of version 1 (distances stored as `plies`) is refused, never misread.
        version[8] = 1;
        assert!(refused(&version, 4, 4).contains("format version 1, not 2"));
        // The 4 x 4 file under the name of 5 x 4 is the wrong board.
        assert!(refused(&good, 5, 4).contains("4 x 4"));
        // A byte that is no distance (a build's counter, a position won already), with
        // a checksum that matches.
        for wrong in [0xE5, crate::search::exact::byte::WON] {
            let mut bad = good.clone();
            bad[HEADER..].iter_mut().for_each(|b| *b = wrong);
            let sum = checksum(&bad[HEADER..]);
            bad[32..40].copy_from_slice(&sum.to_le_bytes());
            assert!(refused(&bad, 4, 4).contains("distance"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
