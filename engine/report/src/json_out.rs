//! JSON text written through a large buffer, for the formats whose files
//! are mostly JSON (speedscope, and the data inside the HTML page): reports
//! of a million contexts are written without one small write per value.

use std::io::{self, Write};

/// The buffer is handed to the writer once it holds this many bytes.
const FLUSH_AT: usize = 1 << 16;
const HEX: &[u8; 16] = b"0123456789abcdef";

/// Where a JSON string ends up, which decides what must be escaped.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Context {
    /// A JSON file: only what RFC 8259 §7 requires.
    File,
    /// Inside an HTML `<script>` element: also `<`, `>`, `&`, U+2028 and
    /// U+2029, so that no text can close the element or open a comment in it.
    Script,
}

/// Text built in a buffer that is handed to `out` in large pieces. The
/// caller calls [`flush_if_full`](Self::flush_if_full) in its loops and
/// [`flush`](Self::flush) at the end.
pub(crate) struct JsonOut<W: Write> {
    out: W,
    buf: Vec<u8>,
    digits: itoa::Buffer,
    context: Context,
}

impl<W: Write> JsonOut<W> {
    pub(crate) fn new(out: W, context: Context) -> JsonOut<W> {
        JsonOut {
            out,
            buf: Vec::with_capacity(FLUSH_AT + 4096),
            digits: itoa::Buffer::new(),
            context,
        }
    }

    /// Text that is already what the output needs at that point.
    pub(crate) fn raw(&mut self, text: &str) {
        self.buf.extend_from_slice(text.as_bytes());
    }

    pub(crate) fn number(&mut self, value: u64) {
        self.buf.extend_from_slice(self.digits.format(value).as_bytes());
    }

    /// A JSON array of `values`.
    pub(crate) fn numbers(&mut self, values: impl IntoIterator<Item = u64>) -> io::Result<()> {
        self.buf.push(b'[');
        for (position, value) in values.into_iter().enumerate() {
            if position > 0 {
                self.buf.push(b',');
            }
            self.number(value);
            self.flush_if_full()?;
        }
        self.buf.push(b']');
        Ok(())
    }

    /// A JSON string (RFC 8259 §7): `"`, `\` and control characters
    /// escaped, and in a [`Context::Script`] the characters it names;
    /// everything else (UTF-8 included) as is.
    pub(crate) fn string(&mut self, text: &str) {
        let script = self.context == Context::Script;
        self.buf.push(b'"');
        let mut start = 0;
        for (position, c) in text.char_indices() {
            let escape: &[u8] = match c {
                '"' => b"\\\"",
                '\\' => b"\\\\",
                '\n' => b"\\n",
                '\r' => b"\\r",
                '\t' => b"\\t",
                '\u{8}' => b"\\b",
                '\u{c}' => b"\\f",
                '\u{2028}' if script => b"\\u2028",
                '\u{2029}' if script => b"\\u2029",
                '<' | '>' | '&' if script => &unicode_escape(c as u8),
                '\0'..='\u{1f}' => &unicode_escape(c as u8),
                _ => continue,
            };
            self.buf.extend_from_slice(&text.as_bytes()[start..position]);
            self.buf.extend_from_slice(escape);
            start = position + c.len_utf8();
        }
        self.buf.extend_from_slice(&text.as_bytes()[start..]);
        self.buf.push(b'"');
    }

    pub(crate) fn flush_if_full(&mut self) -> io::Result<()> {
        if self.buf.len() >= FLUSH_AT {
            self.out.write_all(&self.buf)?;
            self.buf.clear();
        }
        Ok(())
    }

    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.out.write_all(&self.buf)?;
        self.buf.clear();
        self.out.flush()
    }
}

/// `\u00XX` for an ASCII character.
fn unicode_escape(byte: u8) -> [u8; 6] {
    [
        b'\\',
        b'u',
        b'0',
        b'0',
        HEX[usize::from(byte >> 4)],
        HEX[usize::from(byte & 0xf)],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn string(text: &str, context: Context) -> String {
        let mut bytes = Vec::new();
        let mut out = JsonOut::new(&mut bytes, context);
        out.string(text);
        out.flush().unwrap();
        String::from_utf8(bytes).unwrap()
    }

    #[test]
    fn a_file_string_escapes_what_json_requires_and_nothing_more() {
        let text = "a\"b\\c\n\t\u{8}\u{1}</x>&\u{2028}é";
        let json = string(text, Context::File);
        assert_eq!(json, "\"a\\\"b\\\\c\\n\\t\\b\\u0001</x>&\u{2028}é\"");
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }

    #[test]
    fn a_script_string_cannot_close_the_element() {
        let text = "</script><!--&\u{2028}\u{2029}é";
        let json = string(text, Context::Script);
        assert_eq!(json, "\"\\u003c/script\\u003e\\u003c!--\\u0026\\u2028\\u2029é\"");
        assert_eq!(serde_json::from_str::<String>(&json).unwrap(), text);
    }

    #[test]
    fn numbers_make_an_array_across_flushes() {
        let mut bytes = Vec::new();
        let mut out = JsonOut::new(&mut bytes, Context::File);
        out.numbers(0..20_000).unwrap();
        out.flush().unwrap();
        let values: Vec<u64> = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(values, (0..20_000).collect::<Vec<u64>>());
    }
}
