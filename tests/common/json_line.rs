//! Fields of the JSON lines `tabuleiro match --out` writes, read by their layout (our
//! own writer's: `"key":value`, no spaces), so the tests need no JSON crate.

// Each test crate uses a different part of this module.
#![allow(dead_code)]

/// The string value of `"key":"…"`, or `None` for `null` or a missing key.
pub fn field(line: &str, key: &str) -> Option<String> {
    let start = line.find(&format!("\"{key}\":"))? + key.len() + 3;
    let rest = &line[start..];
    if rest.starts_with("null") {
        return None;
    }
    let rest = rest.strip_prefix('"')?;
    let mut value = String::new();
    let mut chars = rest.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => return Some(value),
            '\\' => value.push(chars.next()?),
            c => value.push(c),
        }
    }
    None
}

/// The numbers of `"key":[1,2,…]`; panics when the key or a number is missing.
pub fn numbers(line: &str, key: &str) -> Vec<u64> {
    let start = line.find(&format!("\"{key}\":[")).expect("the field") + key.len() + 4;
    let rest = &line[start..];
    let list = &rest[..rest.find(']').expect("a closed list")];
    list.split(',')
        .filter(|n| !n.is_empty())
        .map(|n| n.parse().expect("a number"))
        .collect()
}

/// How many strings `"key":["…",…]` lists (strings without quotes or `]` inside,
/// such as moves).
pub fn string_count(line: &str, key: &str) -> usize {
    let start = line.find(&format!("\"{key}\":[")).expect("the field") + key.len() + 4;
    let rest = &line[start..];
    rest[..rest.find(']').expect("a closed list")]
        .matches('"')
        .count()
        / 2
}
