//! `jp check`: compare the profiles of a run with a baseline, and fail
//! (exit 1) when a test's or a method's bytecodes grew beyond the
//! tolerance. Exit 2 when no comparison could be made: no baseline, a
//! malformed one, one recorded with other settings, unreadable profiles
//! (the run's or those of `--diff-base`), or when an output could not be
//! written. Given the baseline's profiles, it writes the HTML diff of them
//! against the run, as `jp diff` does.

use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use jp_gate::pattern::Pattern;
use jp_gate::summary::{self, SummaryFormat};
use jp_gate::{DiffReport, GateError, Tolerances};

use crate::baseline::{exit_on, InstrumentedArgs};
use crate::report::{size_limit, SizeLimit};

/// The summary formats, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatFlag {
    /// Lines for a console or a build log.
    Text,
    /// One JSON object, for tools.
    Json,
    /// A summary for a pull-request comment.
    Markdown,
}

impl From<FormatFlag> for SummaryFormat {
    fn from(flag: FormatFlag) -> SummaryFormat {
        match flag {
            FormatFlag::Text => SummaryFormat::Text,
            FormatFlag::Json => SummaryFormat::Json,
            FormatFlag::Markdown => SummaryFormat::Markdown,
        }
    }
}

/// Flags of `jp check`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Profiles of the run to check; several are merged.
    #[arg(required = true, value_name = "PROFILE")]
    profiles: Vec<PathBuf>,
    /// The baseline file, written by `jp baseline`.
    #[arg(long, value_name = "FILE")]
    baseline: PathBuf,
    /// How much an entry's bytecodes may grow (or shrink) before it is
    /// reported, in percent of its baseline count.
    #[arg(long, value_name = "PERCENT", default_value_t = jp_gate::DEFAULT_TOLERANCE, value_parser = percent)]
    tolerance: f64,
    /// The tolerance of the tests and methods that PATTERN names (`*` for
    /// any text); the first matching one applies (repeatable).
    #[arg(long, value_name = "PATTERN=PERCENT", value_parser = pattern_tolerance)]
    tolerance_for: Vec<(Pattern, f64)>,
    /// Leave out the tests and methods that PATTERN names (repeatable).
    #[arg(long, value_name = "PATTERN")]
    ignore: Vec<String>,
    /// The summary printed on stdout.
    #[arg(long, value_enum, default_value = "text")]
    format: FormatFlag,
    /// Also write the summary in every format (jp-check.txt, .json, .md) in this directory.
    #[arg(long, value_name = "DIR")]
    report_dir: Option<PathBuf>,
    /// The profiles the baseline was recorded from: the check then writes
    /// the HTML diff of them against this run to `--diff-out`, and the
    /// summaries name it.
    #[arg(long, num_args = 1.., value_name = "PROFILE")]
    diff_base: Vec<PathBuf>,
    /// Where the diff of `--diff-base` goes (atomically).
    #[arg(
        long,
        value_name = "FILE",
        default_value = "jp-diff.html",
        requires = "diff_base"
    )]
    diff_out: PathBuf,
    /// Refuse a diff larger than this: bytes, or with a suffix K, M, G or
    /// T (powers of 1024); `0` or `unlimited` for no limit.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = size_limit)]
    max_output_size: SizeLimit,
    #[command(flatten)]
    instrumented: InstrumentedArgs,
}

/// Runs the command: 0 when no entry regressed, 1 when some did, 2 when
/// no comparison could be made or a summary could not be written.
pub fn main(args: &Args) -> ExitCode {
    let tolerances = Tolerances {
        default: args.tolerance,
        per_pattern: args.tolerance_for.clone(),
        ignore: args.ignore.iter().map(|text| Pattern::new(text)).collect(),
    };
    let diff = DiffReport {
        base: args.diff_base.clone(),
        out: args.diff_out.clone(),
        max_output_size: args.max_output_size.0,
    };
    let (check, warnings) = match jp_gate::check(
        &args.profiles,
        &args.instrumented.settings(),
        &args.baseline,
        &tolerances,
        (!diff.base.is_empty()).then_some(&diff),
    ) {
        Ok(checked) => checked,
        Err(error) => return exit_on(&error),
    };
    for warning in &warnings {
        eprintln!("jp: warning: {warning}");
    }
    if let Some(dir) = &args.report_dir {
        for (format, name) in SummaryFormat::FILES {
            let path = dir.join(name);
            let written = jp_atomic_file::write_atomically(&path, |out| summary::write(&check, format, out));
            if let Err(source) = written {
                return exit_on(&GateError::Write { path, source });
            }
        }
    }
    let mut stdout = io::stdout().lock();
    let printed = summary::write(&check, args.format.into(), &mut stdout).and_then(|()| stdout.flush());
    match printed {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => {
            return exit_on(&GateError::Write {
                path: "stdout".into(),
                source: error,
            });
        }
        _ => {}
    }
    if check.comparison.passed() {
        ExitCode::from(crate::EXIT_OK)
    } else {
        ExitCode::from(crate::EXIT_FAILED)
    }
}

/// A percentage, 0 or more.
fn percent(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if value >= 0.0 && value.is_finite() => Ok(value),
        _ => Err(format!("`{text}` is not a percentage (a number, 0 or more)")),
    }
}

/// `PATTERN=PERCENT`; the last `=` separates them.
fn pattern_tolerance(text: &str) -> Result<(Pattern, f64), String> {
    let (pattern, value) = text
        .rsplit_once('=')
        .ok_or_else(|| format!("`{text}` is not PATTERN=PERCENT"))?;
    Ok((Pattern::new(pattern), percent(value)?))
}
