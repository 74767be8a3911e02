//! The size limit of a report: a folded or pprof report too large is
//! refused before it is written (its size is known from the tree, see
//! [`crate::folded::size`] and [`crate::pprof::size`]), and every format
//! goes through a [`LimitedWriter`] that stops at the limit, so that no
//! report, whatever its shape, fills a disk.

use std::fmt;
use std::io::{self, Write};

use crate::{DiffFormat, Format};

/// The default of [`crate::Options::max_output_size`]: 1 GiB, some 70
/// times the HTML report of a million contexts.
pub const DEFAULT_MAX_OUTPUT_SIZE: u64 = 1 << 30;

/// What a limited output is: a report of one profile, or a diff of two.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Output {
    /// `jp report`'s, in its format.
    Report(Format),
    /// `jp diff`'s, in its format.
    Diff(DiffFormat),
}

impl Output {
    /// `the html report`, `the json diff`: how the error names it.
    fn describe(self) -> String {
        match self {
            Output::Report(format) => format!("the {} report", format.name()),
            Output::Diff(format) => format!("the {} diff", format.name()),
        }
    }

    /// The flags that make this output smaller.
    fn narrowing(self) -> &'static str {
        match self {
            Output::Report(_) => "Leave contexts out with --threshold or --max-depth",
            Output::Diff(_) => "Leave rows out with --threshold, --limit or --filter",
        }
    }
}

impl From<Format> for Output {
    fn from(format: Format) -> Output {
        Output::Report(format)
    }
}

impl From<DiffFormat> for Output {
    fn from(format: DiffFormat) -> Output {
        Output::Diff(format)
    }
}

/// The size of a report that writes the whole stack of each context (a
/// folded line, a pprof sample), computed from the tree before writing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct StackSize {
    /// The bytes, exactly (saturating at `u64::MAX`); for pprof, before
    /// compression: what a reader decodes.
    pub bytes: u64,
    /// The stacks: the shown contexts with a value of their own.
    pub stacks: u64,
    /// The most frames in one stack.
    pub deepest: u32,
}

/// A report larger than the limit; carried inside the `io::Error` of the
/// write that met it (kind `FileTooLarge`), see [`OutputTooLarge::of`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutputTooLarge {
    /// What was being written.
    pub format: Output,
    /// The limit, in bytes.
    pub limit: u64,
    /// The size of a folded or pprof report, known before writing; `None`
    /// when the limit was met while writing.
    pub measured: Option<StackSize>,
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
        match &self.measured {
            Some(size) => {
                let (stacks, before, why) = match self.format {
                    Output::Report(Format::Pprof) => (
                        "samples",
                        " before compression",
                        "a pprof sample lists every frame above its context",
                    ),
                    _ => ("lines", "", "a folded line repeats every frame above its context"),
                };
                write!(
                    f,
                    "{} would be {}{before} ({} {stacks}, up to {} frames deep), more than the limit of {limit}, \
                     so nothing was written: {why}. \
                     Leave contexts out with --threshold or --max-depth, raise the limit with --max-output-size, \
                     or use --format text, html or speedscope, which grow with the number of contexts, not their depth",
                    self.format.describe(),
                    human(size.bytes),
                    size.stacks,
                    size.deepest
                )
            }
            None => write!(
                f,
                "{} reached the limit of {limit} and was stopped there. \
                 {}, or raise the limit with --max-output-size",
                self.format.describe(),
                self.format.narrowing()
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
    format: Output,
}

impl<W: Write> LimitedWriter<W> {
    /// `inner` limited to `limit` bytes (none for `None`); `format` names the report in the error.
    pub fn new(inner: W, limit: Option<u64>, format: impl Into<Output>) -> Self {
        LimitedWriter {
            inner,
            written: 0,
            limit,
            format: format.into(),
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
                    measured: None,
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
        assert_eq!(
            (too_large.format, too_large.limit),
            (Output::Report(Format::Html), 10)
        );
        assert!(error
            .to_string()
            .starts_with("the html report reached the limit of 10 bytes"));
        assert_eq!(out.inner, b"0123456789");
        let mut unlimited = LimitedWriter::new(Vec::new(), None, Format::Text);
        unlimited.write_all(&[0; 100]).unwrap();
    }

    #[test]
    fn a_diff_too_large_names_the_flags_of_jp_diff() {
        let mut out = LimitedWriter::new(Vec::new(), Some(1), DiffFormat::Json);
        let error = out.write_all(b"{}").unwrap_err();
        let message = error.to_string();
        assert!(
            message.starts_with("the json diff reached the limit of 1 bytes"),
            "{message}"
        );
        assert!(
            message.contains("--limit") && !message.contains("--max-depth"),
            "{message}"
        );
    }
}
