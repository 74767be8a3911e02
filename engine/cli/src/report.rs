//! `jp report`: read profiles, merge them into one tree and write it out in
//! a report format, to stdout or atomically to a file.
//!
//! A report is all or nothing: a profile that cannot be read would make it
//! silently partial, so every unreadable profile is reported and no report
//! is written (exit code 2).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use jp_report::metric::MetricName;
use jp_report::run::ReportWarning;
use jp_report::timeline::{self, TimelineFormat};
use jp_report::{Format, NameStyle, Options, ReportError};

/// Exit code when no report could be made.
const EXIT_NO_REPORT: u8 = 2;

/// The report formats, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FormatFlag {
    /// Collapsed stacks, `frame;frame;frame value`, for flame-graph tools.
    Folded,
    /// A text tree with own values, subtree totals, proportional bars and
    /// the hot methods, in the spirit of ProfBuilder's ProfOut.
    Text,
    /// One self-contained HTML page: an expandable call tree, an icicle
    /// graph and the hot methods, both counts, searchable; opens offline.
    Html,
    /// speedscope's JSON file format, both metrics as two profiles, for
    /// the speedscope viewer (speedscope.app, or offline).
    Speedscope,
    /// pprof's gzipped protocol buffers, both metrics as two sample types,
    /// for `go tool pprof`, Grafana Pyroscope and other pprof tools.
    Pprof,
}

impl From<FormatFlag> for Format {
    fn from(flag: FormatFlag) -> Format {
        match flag {
            FormatFlag::Folded => Format::Folded,
            FormatFlag::Text => Format::Text,
            FormatFlag::Html => Format::Html,
            FormatFlag::Speedscope => Format::Speedscope,
            FormatFlag::Pprof => Format::Pprof,
        }
    }
}

/// Flags of `jp report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Profiles written by the runtime; several are merged into one tree.
    /// With `--timeline`, the snapshots of one run (or their directory).
    #[arg(required = true, value_name = "PROFILE")]
    profiles: Vec<PathBuf>,
    /// Report the snapshots of `-Djp.agent=periodic` as a timeline of
    /// their intervals (text or html): each interval's totals and top
    /// methods. A directory stands for the snapshots in it.
    #[arg(long)]
    timeline: bool,
    /// The report format.
    #[arg(long, value_enum)]
    format: FormatFlag,
    /// The metric to report, for the formats that show one, and the one
    /// that `--threshold` compares (HTML, speedscope and pprof hold every
    /// metric; pprof shows this one first): `calls`, `bytecodes`, or an
    /// extra metric of the profiles by name, such as `cpu-samples` from
    /// `--samples` (the text report lists them).
    #[arg(long, value_name = "NAME", default_value = "bytecodes")]
    metric: String,
    /// A recording of sampled stacks to attach to the profiles' contexts
    /// (repeatable): a JFR recording (`.jfr`, read with the JDK's `jfr`
    /// tool) or async-profiler's collapsed stacks (`frame;frame;... count`).
    /// Its samples become sampled metrics (`cpu-samples`,
    /// `native-samples`), labelled as such; the exact counts are unchanged.
    #[arg(long = "samples", value_name = "FILE", conflicts_with = "timeline")]
    samples: Vec<PathBuf>,
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
    /// Refuse a report larger than this: bytes, or with a suffix K, M, G
    /// or T (powers of 1024: 1G is 1 GiB); `0` or `unlimited` for no limit.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = size_limit)]
    max_output_size: SizeLimit,
    /// How the text and HTML reports name methods: `short`
    /// (`Leaderboard.rank(List)`, the package apart) or `full`
    /// (`demo.Leaderboard.rank(java.util.List):java.util.List`); the HTML
    /// page can switch. Folded and speedscope always write the full form.
    #[arg(long, value_enum, default_value = "short")]
    names: NamesFlag,
    /// The report's title (text and HTML); by default the main class or jar
    /// of the profiled command, or for a build's test worker the profiles'
    /// directory.
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
    /// A directory of source files (repeatable): the HTML report shows the
    /// hot methods' per-line counts beside their source, found as
    /// `DIR/<package path>/<outer class>.java` (or `.kt`).
    #[arg(long = "sources", value_name = "DIR", value_parser = directory)]
    sources: Vec<PathBuf>,
    /// Report one thread group alone: the threads of a name, digits
    /// replaced by `#` (`main`, `pool-#-thread-#`; the text report lists
    /// them). By default every thread, merged.
    #[arg(long, value_name = "NAME")]
    thread: Option<String>,
}

/// The name forms, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum NamesFlag {
    /// `Leaderboard.rank(List)`, the package apart.
    Short,
    /// `demo.Leaderboard.rank(java.util.List):java.util.List`.
    Full,
}

impl From<NamesFlag> for NameStyle {
    fn from(flag: NamesFlag) -> NameStyle {
        match flag {
            NamesFlag::Short => NameStyle::Short,
            NamesFlag::Full => NameStyle::Full,
        }
    }
}

/// `--max-output-size`: a number of bytes, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct SizeLimit(pub(crate) Option<u64>);

/// Runs the command and gives its exit code: 0 for a report written (or a
/// closed stdout; warnings go to stderr), 2 when a profile could not be
/// read or the report could not be written.
pub fn main(args: &Args) -> ExitCode {
    // Calls and bytecodes are in every profile; another metric is looked
    // up once the profiles are read.
    let (metric, metric_name) = MetricName::parse(&args.metric).into_options();
    let options = Options {
        metric,
        metric_name,
        threshold: args.threshold,
        max_depth: args.max_depth,
        max_output_size: args.max_output_size.0,
        names: args.names.into(),
        title: args.title.clone(),
        sources: args.sources.clone(),
        thread: args.thread.clone(),
        samples: args.samples.clone(),
    };
    let format = args.format.into();
    if args.timeline {
        if let Some(name) = &options.metric_name {
            eprintln!("jp: a timeline shows calls or bytecodes, not `{name}`");
            return ExitCode::from(EXIT_NO_REPORT);
        }
        return exit_code(timeline(&args.profiles, format, &options, args.out.as_deref()));
    }
    let reported = match &args.out {
        Some(path) => jp_report::run::run(&args.profiles, format, &options, path),
        None => to_stdout(&args.profiles, format, &options),
    };
    exit_code(reported)
}

/// Prints the warnings or the errors of a report (or a diff) and gives its
/// exit code: 0 when it was written (or stdout closed), 2 otherwise.
pub(crate) fn exit_code(reported: Result<Vec<ReportWarning>, ReportError>) -> ExitCode {
    match reported {
        Ok(warnings) => {
            for warning in &warnings {
                eprintln!("jp: warning: {warning}");
            }
            ExitCode::from(crate::EXIT_OK)
        }
        Err(ReportError::Write { source, .. }) if source.kind() == io::ErrorKind::BrokenPipe => {
            ExitCode::from(crate::EXIT_OK)
        }
        Err(ReportError::Unreadable(errors)) => {
            for error in &errors.0 {
                eprintln!("jp: {error}");
            }
            ExitCode::from(EXIT_NO_REPORT)
        }
        Err(error) => {
            eprintln!("jp: {error}");
            ExitCode::from(EXIT_NO_REPORT)
        }
    }
}

/// The timeline of the snapshots `profiles`, to `out` or stdout; it has no warnings.
fn timeline(
    profiles: &[PathBuf],
    format: Format,
    options: &Options,
    out: Option<&Path>,
) -> Result<Vec<ReportWarning>, ReportError> {
    let format = TimelineFormat::try_from(format)?;
    match out {
        Some(path) => timeline::run(profiles, format, options, path)?,
        None => {
            let read = timeline::read(profiles)?;
            let options = jp_report::run::titled(options, &read.whole, profiles);
            let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
            timeline::render(&read, format, &options, &mut stdout)
                .and_then(|()| stdout.flush())
                .map_err(|source| ReportError::writing(Path::new("stdout"), source))?;
        }
    }
    Ok(Vec::new())
}

/// The report of `profiles` on stdout, and its warnings.
fn to_stdout(
    profiles: &[PathBuf],
    format: Format,
    options: &Options,
) -> Result<Vec<ReportWarning>, ReportError> {
    let mut merged = jp_report::run::read_all(profiles)?;
    let options = &jp_report::sampled::with_samples(&mut merged, options)?;
    let profile = jp_report::threads::shown(&merged.profile, options)?;
    let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    let options = jp_report::run::titled(options, &profile, profiles);
    jp_report::run::render(&profile, format, &options, &mut stdout)
        .and_then(|()| stdout.flush())
        .map_err(|source| ReportError::writing(Path::new("stdout"), source))?;
    Ok(merged.warnings)
}

/// A percentage from 0 to 100.
pub(crate) fn percentage(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(value) if (0.0..=100.0).contains(&value) => Ok(value),
        _ => Err(format!("`{text}` is not a percentage from 0 to 100")),
    }
}

/// A directory that exists: a mistyped `--sources` would otherwise just
/// show no source.
fn directory(text: &str) -> Result<PathBuf, String> {
    let path = PathBuf::from(text);
    if path.is_dir() {
        Ok(path)
    } else {
        Err(format!("`{text}` is not a directory"))
    }
}

/// A size: bytes, or with a suffix `K`, `M`, `G` or `T` (also `KiB`, ...,
/// any case), powers of 1024; `0` or `unlimited` for no limit.
pub(crate) fn size_limit(text: &str) -> Result<SizeLimit, String> {
    let invalid = || format!("`{text}` is not a size: bytes, or a number with K, M, G or T, or `unlimited`");
    if text.eq_ignore_ascii_case("unlimited") {
        return Ok(SizeLimit(None));
    }
    let digits = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let number: u64 = text[..digits].parse().map_err(|_| invalid())?;
    let shift = match text[digits..].to_ascii_lowercase().as_str() {
        "" | "b" => 0,
        "k" | "kib" => 10,
        "m" | "mib" => 20,
        "g" | "gib" => 30,
        "t" | "tib" => 40,
        _ => return Err(invalid()),
    };
    let bytes = number.checked_mul(1 << shift).ok_or_else(invalid)?;
    Ok(SizeLimit((bytes != 0).then_some(bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_take_binary_suffixes_and_unlimited() {
        assert_eq!(size_limit("1G"), Ok(SizeLimit(Some(1 << 30))));
        assert_eq!(size_limit("1GiB"), Ok(SizeLimit(Some(1 << 30))));
        assert_eq!(size_limit("512k"), Ok(SizeLimit(Some(512 << 10))));
        assert_eq!(size_limit("4096"), Ok(SizeLimit(Some(4096))));
        assert_eq!(size_limit("3T"), Ok(SizeLimit(Some(3 << 40))));
        assert_eq!(size_limit("0"), Ok(SizeLimit(None)));
        assert_eq!(size_limit("unlimited"), Ok(SizeLimit(None)));
        for bad in ["", "G", "1.5G", "-1", "1X", "20000000T", "1 G"] {
            assert!(size_limit(bad).is_err(), "{bad}");
        }
    }
}
