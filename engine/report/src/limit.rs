//! The size limit of a report: a folded report too large is refused
//! before it is written (its size is known from the tree, see
//! [`crate::folded::size`]), and every format goes through a
//! [`LimitedWriter`] that stops at the limit, so that no report, whatever
//! its shape, fills a disk.

use std::fmt;
use std::io::{self, Write};

use crate::folded::FoldedSize;
use crate::Format;

/// The default of [`crate::Options::max_output_size`]: 1 GiB, some 70
/// times the HTML report of a million contexts.
pub const DEFAULT_MAX_OUTPUT_SIZE: u64 = 1 << 30;

/// A report larger than the limit; carried inside the `io::Error` of the
/// write that met it (kind `FileTooLarge`), see [`OutputTooLarge::of`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputTooLarge {
    /// The report's format.
    pub format: Format,
    /// The limit, in bytes.
    pub limit: u64,
    /// The size of a folded report, known before writing; `None` when
    /// the limit was met while writing.
    pub folded: Option<FoldedSize>,
}

impl OutputTooLarge {
    /// The size error inside `error`, if that is what it is.
    pub fn of(error: &io::Error) -> Option<&OutputTooLarge> {
        error.get_ref()?.downcast_ref()
    }
}

impl From<OutputTooLarge> for io::Error {
    fn from(error: OutputTooLarge) -> io::Error {
        io::Error::new(io::ErrorKind::FileTooLarge, error)
    }
}

impl fmt::Display for OutputTooLarge {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let limit = human(self.limit);
        match &self.folded {
            Some(size) => write!(
                f,
                "the folded report would be {} ({} lines, up to {} frames deep), more than the limit of {limit}, \
                 so nothing was written: a folded line repeats every frame above its context. \
                 Leave contexts out with --threshold or --max-depth, raise the limit with --max-output-size, \
                 or use --format text, html or speedscope, which grow with the number of contexts, not their depth",
                human(size.bytes),
                size.lines,
                size.deepest
            ),
            None => write!(
                f,
                "the {} report reached the limit of {limit} and was stopped there. \
                 Leave contexts out with --threshold or --max-depth, or raise the limit with --max-output-size",
                self.format.name()
            ),
        }
    }
}

impl std::error::Error for OutputTooLarge {}

/// `bytes` in binary units, one decimal: `1 GiB`, `72.3 GiB`, `512 bytes`.
pub fn human(bytes: u64) -> String {
    const UNITS: [&str; 6] = ["KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    if bytes < 1024 {
        return format!("{bytes} bytes");
    }
    let mut value = bytes as f64 / 1024.0;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < UNITS.len() {
        value /= 1024.0;
        unit += 1;
    }
    let text = format!("{value:.1}");
    let text = text.strip_suffix(".0").unwrap_or(&text);
    format!("{text} {}", UNITS[unit])
}

/// A writer that fails, writing nothing more, once `limit` bytes would be exceeded.
pub struct LimitedWriter<W> {
    inner: W,
    written: u64,
    limit: Option<u64>,
    format: Format,
}

impl<W: Write> LimitedWriter<W> {
    /// `inner` limited to `limit` bytes (none for `None`); `format` names the report in the error.
    pub fn new(inner: W, limit: Option<u64>, format: Format) -> Self {
        LimitedWriter {
            inner,
            written: 0,
            limit,
            format,
        }
    }
}

impl<W: Write> Write for LimitedWriter<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        if let Some(limit) = self.limit {
            if self.written.saturating_add(buf.len() as u64) > limit {
                return Err(OutputTooLarge {
                    format: self.format,
                    limit,
                    folded: None,
                }
                .into());
            }
        }
        let written = self.inner.write(buf)?;
        self.written += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_in_binary_units() {
        assert_eq!(human(512), "512 bytes");
        assert_eq!(human(1 << 30), "1 GiB");
        assert_eq!(human(77_309_411_328), "72 GiB");
        assert_eq!(human(1_600_000), "1.5 MiB");
    }

    #[test]
    fn a_limited_writer_stops_before_the_limit_and_says_why() {
        let mut out = LimitedWriter::new(Vec::new(), Some(10), Format::Html);
        out.write_all(b"0123456789").unwrap();
        let error = out.write_all(b"x").unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::FileTooLarge);
        let too_large = OutputTooLarge::of(&error).unwrap();
        assert_eq!((too_large.format, too_large.limit), (Format::Html, 10));
        assert!(error
            .to_string()
            .starts_with("the html report reached the limit of 10 bytes"));
        assert_eq!(out.inner, b"0123456789");
        let mut unlimited = LimitedWriter::new(Vec::new(), None, Format::Text);
        unlimited.write_all(&[0; 100]).unwrap();
    }
}
