//! A hand-written JSON object writer for the per-game lines of `--out` (no serde for
//! one flat object a line).

use std::fmt::Write;

/// A JSON string literal of `text`, escaped per RFC 8259.
pub fn string(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                // Writing to a String cannot fail.
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Builds one JSON object, fields in the order they are added.
#[derive(Default)]
pub struct Object {
    fields: Vec<(String, String)>,
}

impl Object {
    pub fn new() -> Object {
        Object::default()
    }

    /// A field whose value is already JSON.
    pub fn raw(mut self, key: &str, json: String) -> Object {
        self.fields.push((key.to_string(), json));
        self
    }

    pub fn str(self, key: &str, value: &str) -> Object {
        self.raw(key, string(value))
    }

    pub fn num(self, key: &str, value: impl std::fmt::Display) -> Object {
        self.raw(key, value.to_string())
    }

    pub fn opt_num(self, key: &str, value: Option<impl std::fmt::Display>) -> Object {
        match value {
            Some(value) => self.num(key, value),
            None => self.raw(key, "null".to_string()),
        }
    }

    pub fn opt_str(self, key: &str, value: Option<&str>) -> Object {
        match value {
            Some(value) => self.str(key, value),
            None => self.raw(key, "null".to_string()),
        }
    }

    pub fn strings(self, key: &str, values: &[String]) -> Object {
        let items: Vec<String> = values.iter().map(|v| string(v)).collect();
        self.raw(key, format!("[{}]", items.join(",")))
    }

    pub fn finish(&self) -> String {
        let parts: Vec<String> = self
            .fields
            .iter()
            .map(|(key, value)| format!("{}:{value}", string(key)))
            .collect();
        format!("{{{}}}", parts.join(","))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes() {
        assert_eq!(string("plain"), "\"plain\"");
        assert_eq!(string("a\"b\\c"), "\"a\\\"b\\\\c\"");
        assert_eq!(string("x\ny\t\u{1}"), "\"x\\ny\\t\\u0001\"");
        assert_eq!(string("é"), "\"é\"");
    }

    #[test]
    fn objects() {
        let json = Object::new()
            .str("name", "A")
            .num("n", 3)
            .opt_num("t", None::<u32>)
            .strings("moves", &["b1b4".to_string(), "\"".to_string()])
            .finish();
        assert_eq!(json, r#"{"name":"A","n":3,"t":null,"moves":["b1b4","\""]}"#);
    }
}
