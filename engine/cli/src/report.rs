//! `jp report`: read profiles, merge them into one tree and write it out in
//! a report format, to stdout or atomically to a file.
//!
//! A report is all or nothing: a profile that cannot be read would make it
//! silently partial, so every unreadable profile is reported and no report
//! is written (exit code 2).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use jp_profile::{Metric, Profile};
use jp_report::Options;

/// Exit code when no report could be made.
const EXIT_NO_REPORT: u8 = 2;

/// The report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Collapsed stacks, `frame;frame;frame value`, for flame-graph tools.
    Folded,
    /// A text tree with own values, subtree totals, proportional bars and
    /// the hot methods, in the spirit of ProfBuilder's ProfOut.
    Text,
    /// speedscope's JSON file format, both metrics as two profiles, for
    /// the speedscope viewer (speedscope.app, or offline).
    Speedscope,
}

/// The metrics, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MetricFlag {
    /// Invocations.
    Calls,
    /// Bytecodes executed.
    Bytecodes,
}

impl From<MetricFlag> for Metric {
    fn from(flag: MetricFlag) -> Metric {
        match flag {
            MetricFlag::Calls => Metric::Calls,
            MetricFlag::Bytecodes => Metric::Bytecodes,
        }
    }
}

/// Flags of `jp report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Profiles written by the runtime; several are merged into one tree.
    #[arg(required = true, value_name = "PROFILE")]
    profiles: Vec<PathBuf>,
    /// The report format.
    #[arg(long, value_enum)]
    format: Format,
    /// The count to report, for the formats that show one, and the one
    /// that `--threshold` compares (HTML and speedscope show both counts).
    #[arg(long, value_enum, default_value = "bytecodes")]
    metric: MetricFlag,
    /// Leave out contexts whose subtree total is below this percentage of
    /// the whole profile's total.
    #[arg(long, value_name = "PERCENT", default_value = "0", value_parser = percentage)]
    threshold: f64,
    /// Leave out contexts deeper than this (top-level contexts are at depth 1).
    #[arg(long, value_name = "DEPTH", value_parser = clap::value_parser!(u32).range(1..))]
    max_depth: Option<u32>,
    /// Write the report to this file (atomically: complete or not at all)
    /// instead of stdout.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

/// Runs the command and gives its exit code: 0 for a report written (or a
/// closed stdout), 2 when a profile could not be read or the report could
/// not be written.
pub fn main(args: &Args) -> ExitCode {
    let Some(profile) = read_all(&args.profiles) else {
        return ExitCode::from(EXIT_NO_REPORT);
    };
    let options = Options {
        metric: args.metric.into(),
        threshold: args.threshold,
        max_depth: args.max_depth,
    };
    let report = |out: &mut dyn Write| render(&profile, args.format, &options, out);
    let written = match &args.out {
        None => {
            let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
            let written = report(&mut stdout).and_then(|()| stdout.flush());
            written.map_err(|e| with_path(Path::new("stdout"), e))
        }
        Some(path) => write_atomically(path, report).map_err(|e| with_path(path, e)),
    };
    match written {
        Ok(()) => ExitCode::from(crate::EXIT_OK),
        Err(error) if error.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(crate::EXIT_OK),
        Err(error) => {
            eprintln!("jp: {error}");
            ExitCode::from(EXIT_NO_REPORT)
        }
    }
}

/// Every profile merged into one, or `None` once each that failed is reported.
fn read_all(paths: &[PathBuf]) -> Option<Profile> {
    let mut merged: Option<Profile> = None;
    let mut failed = false;
    for path in paths {
        match jp_profile::parse_file(path) {
            Ok(profile) if failed => drop(profile),
            Ok(profile) => match &mut merged {
                None => merged = Some(profile),
                Some(merged) => merged.merge(&profile),
            },
            Err(error) => {
                eprintln!("jp: {error}");
                failed = true;
            }
        }
    }
    if failed {
        None
    } else {
        merged
    }
}

/// Writes `profile` in `format`; the one place a new format is added.
fn render(profile: &Profile, format: Format, options: &Options, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Folded => jp_report::folded::write(profile, options, out),
        Format::Text => jp_report::text::write(profile, options, out),
        Format::Speedscope => jp_report::speedscope::write(profile, options, out),
    }
}

/// A percentage from 0 to 100.
fn percentage(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=100.0).contains(&value) => Ok(value),
        _ => Err(format!("`{text}` is not a percentage from 0 to 100")),
    }
}

/// Writes through a temporary file in the target's directory, renamed over
/// the target once complete, so that a reader never sees half a report.
fn write_atomically(path: &Path, render: impl Fn(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".jp-report-");
    // A report is an ordinary file: readable as the umask allows, not 0600 as temporary files are.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o666));
    let mut temp = builder.tempfile_in(dir)?;
    {
        let mut out = io::BufWriter::with_capacity(1 << 16, temp.as_file_mut());
        render(&mut out)?;
        out.flush()?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// `error` with `path: ` in front, of the same kind.
fn with_path(path: &Path, error: io::Error) -> io::Error {
    io::Error::new(error.kind(), format!("{}: {error}", path.display()))
}
