//! One report from profile files: read them all, merge them into one tree
//! (or take one thread group of it, [`crate::threads::shown`]) and write
//! it in a format, atomically. `jp report` and the build plugins
//! (through the engine's API) share this.
//!
//! A report is all or nothing: a profile that cannot be read would make it
//! silently partial, so every unreadable profile is an error and no report
//! is written.
//! Nor is a report larger than [`Options::max_output_size`] written
//! ([`crate::limit`]). What does not stop a report (a profile given twice,
//! a sum that saturated) comes back as [`ReportWarning`]s.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jp_atomic_file::write_atomically;
use jp_profile::{ParseError, Profile};

use crate::limit::LimitedWriter;
pub use crate::read::{read_all, Merged, ReportWarning};
use crate::threads::NoSuchThreadGroup;
use crate::{Options, OutputTooLarge};

/// The report formats; `folded`, `text`, `html`, `speedscope` or `pprof` in requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Collapsed stacks, `frame;frame;frame value`, for flame-graph tools.
    Folded,
    /// A text tree with own values, subtree totals, proportional bars and
    /// the hot methods; for a profile of a test run, the tests first.
    Text,
    /// One self-contained HTML page: call tree, icicle graph, hot
    /// methods and, for a profile of a test run, the tests; both metrics.
    Html,
    /// speedscope's JSON file format, both metrics as two profiles.
    Speedscope,
    /// pprof's gzipped protocol buffers, both metrics as two sample types.
    Pprof,
}

impl Format {
    /// Every format; the engine's contract samples list their names.
    pub const ALL: [Format; 5] = [
        Format::Folded,
        Format::Text,
        Format::Html,
        Format::Speedscope,
        Format::Pprof,
    ];

    /// The format's name in requests and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Format::Folded => "folded",
            Format::Text => "text",
            Format::Html => "html",
            Format::Speedscope => "speedscope",
            Format::Pprof => "pprof",
        }
    }
}

/// Why no report was written.
#[derive(Debug, thiserror::Error)]
pub enum ReportError {
    /// No profile was given.
    #[error("no profiles to report on")]
    NoProfiles,
    /// Some profiles could not be read; each error names its file.
    #[error("{0}")]
    Unreadable(UnreadableProfiles),
    /// [`Options::thread`] names no thread group of the profiles.
    #[error(transparent)]
    NoSuchThreadGroup(#[from] NoSuchThreadGroup),
    /// A recording of [`Options::samples`] could not be read.
    #[error(transparent)]
    Samples(#[from] jp_samples::SamplesError),
    /// [`Options::metric_name`] names no metric that can be shown.
    #[error(transparent)]
    Metric(#[from] crate::metric::MetricError),
    /// The report would be larger than [`Options::max_output_size`].
    #[error("{}: {source}", path.display())]
    TooLarge {
        /// The report's path (`stdout` for the standard output).
        path: PathBuf,
        /// How large, and what to do.
        source: OutputTooLarge,
    },
    /// The profiles make no timeline ([`crate::timeline`]).
    #[error(transparent)]
    Timeline(#[from] crate::timeline::TimelineError),
    /// The report could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The report's path (`stdout` for the standard output).
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}

impl ReportError {
    /// The error of writing the report to `path`: [`ReportError::TooLarge`]
    /// when `source` is the size limit's, [`ReportError::Write`] otherwise.
    pub fn writing(path: &Path, source: io::Error) -> ReportError {
        let path = path.to_path_buf();
        match OutputTooLarge::of(&source) {
            Some(too_large) => ReportError::TooLarge {
                path,
                source: too_large.clone(),
            },
            None => ReportError::Write { path, source },
        }
    }
}

/// The errors of every profile that could not be read, one per file.
#[derive(Debug)]
pub struct UnreadableProfiles(pub Vec<ParseError>);

impl fmt::Display for UnreadableProfiles {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, error) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str("\n")?;
            }
            write!(f, "{error}")?;
        }
        Ok(())
    }
}

/// Reads `profiles`, merges them and writes the report to `out`
/// atomically; gives what the report's reader should be told.
pub fn run(
    profiles: &[PathBuf],
    format: Format,
    options: &Options,
    out: &Path,
) -> Result<Vec<ReportWarning>, ReportError> {
    let mut merged = read_all(profiles)?;
    let options = &crate::sampled::with_samples(&mut merged, options)?;
    let profile = crate::threads::shown(&merged.profile, options)?;
    let options = &titled(options, &profile, profiles);
    write_atomically(out, |sink| render(&profile, format, options, sink))
        .map_err(|source| ReportError::writing(out, source))?;
    Ok(merged.warnings)
}

/// `options` with a title: the one given, else the default of `profile`
/// read from `profiles` ([`crate::title::default_title`]).
pub fn titled(options: &Options, profile: &Profile, profiles: &[PathBuf]) -> Options {
    let title = options
        .title
        .clone()
        .unwrap_or_else(|| crate::title::default_title(profile, profiles));
    Options {
        title: Some(title),
        ..options.clone()
    }
}

/// Writes `profile` in `format`; the one place a new format is added.
///
/// # Errors
/// Those of `out`, and an [`OutputTooLarge`] (see [`ReportError::writing`])
/// when the report would exceed `options.max_output_size`: a folded or
/// pprof report, which writes the whole stack of each context, is measured
/// first and then nothing is written; the other formats grow with the
/// number of contexts and stop at the limit.
pub fn render(profile: &Profile, format: Format, options: &Options, out: &mut dyn Write) -> io::Result<()> {
    let limit = options.max_output_size;
    if let Some(limit) = limit {
        let measured = match format {
            Format::Folded => Some(crate::folded::size(profile, options)),
            Format::Pprof => Some(crate::pprof::size(profile, options)),
            Format::Text | Format::Html | Format::Speedscope => None,
        };
        if let Some(size) = measured.filter(|size| size.bytes > limit) {
            return Err(OutputTooLarge {
                format: format.into(),
                limit,
                measured: Some(size),
            }
            .into());
        }
    }
    let mut out = LimitedWriter::new(out, limit, format);
    match format {
        Format::Folded => crate::folded::write(profile, options, &mut out),
        Format::Text => crate::text::write(profile, options, &mut out),
        Format::Html => crate::html::write(profile, options, &mut out),
        Format::Speedscope => crate::speedscope::write(profile, options, &mut out),
        Format::Pprof => crate::pprof::write(profile, options, &mut out),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_profile::Metric;

    use crate::write_profile;

    /// A recursion `depth` deep: one method calling itself, one call and
    /// one bytecode per context.
    fn write_chain(dir: &Path, name: &str, depth: u32) -> PathBuf {
        let path = dir.join(name);
        let mut text = String::from("jp-profile 1\nframe 1 demo.Deep.recurse(I)I\n");
        for node in 1..=depth {
            text.push_str(&format!("node {node} {} 1 1 1\n", node - 1));
        }
        text.push_str(&format!("end {depth}\n"));
        std::fs::write(&path, text).unwrap();
        path
    }

    fn entries(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn every_format_has_the_same_name_in_requests_and_on_the_command_line() {
        for format in Format::ALL {
            let json = serde_json::to_string(&format).unwrap();
            assert_eq!(json, format!("\"{}\"", format.name()));
            assert_eq!(serde_json::from_str::<Format>(&json).unwrap(), format);
        }
    }

    #[test]
    fn a_folded_report_of_a_deep_chain_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().unwrap();
        // 15,000 deep: 3 GB of folded lines.
        let chain = write_chain(dir.path(), "chain.jpprof", 15_000);
        let out = dir.path().join("chain.folded");
        let started = std::time::Instant::now();
        let error = run(
            std::slice::from_ref(&chain),
            Format::Folded,
            &Options::new(Metric::Calls),
            &out,
        )
        .unwrap_err();
        assert!(started.elapsed().as_secs() < 10);
        let ReportError::TooLarge { path, source } = &error else {
            panic!("{error}");
        };
        let label = "demo.Deep.recurse(int):int".len() as u64;
        let bytes: u64 = (1..=15_000u64).map(|d| d * label + d - 1 + 3).sum();
        assert_eq!((path, source.limit), (&out, crate::DEFAULT_MAX_OUTPUT_SIZE));
        assert_eq!(
            source.measured,
            Some(crate::limit::StackSize {
                bytes,
                stacks: 15_000,
                deepest: 15_000
            })
        );
        let message = error.to_string();
        for hint in [
            "2.8 GiB",
            "15000 lines",
            "--threshold",
            "--max-depth",
            "--max-output-size",
            "--format",
        ] {
            assert!(message.contains(hint), "{hint}: {message}");
        }
        assert_eq!(entries(dir.path()), ["chain.jpprof"]);
        // The formats of one record per context grow with the number of contexts only.
        for format in [Format::Text, Format::Html, Format::Speedscope] {
            let out = dir.path().join(format!("chain.{}", format.name()));
            run(
                std::slice::from_ref(&chain),
                format,
                &Options::new(Metric::Calls),
                &out,
            )
            .unwrap();
            let size = std::fs::metadata(&out).unwrap().len();
            // Two tree sections of lines capped in width, or events of a few numbers.
            assert!(size < 500 * 15_000, "{format:?}: {size} bytes");
        }
        let shallow = Options {
            max_depth: Some(1000),
            ..Options::new(Metric::Calls)
        };
        run(&[chain], Format::Folded, &shallow, &out).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap().lines().count(), 1000);
    }

    #[test]
    fn a_pprof_report_of_a_deep_chain_is_refused_by_its_size_before_compression() {
        let dir = tempfile::tempdir().unwrap();
        // 50,000 deep: 1.2 GiB of samples, a location id (one byte) per frame.
        let chain = write_chain(dir.path(), "chain.jpprof", 50_000);
        let out = dir.path().join("chain.pb.gz");
        let started = std::time::Instant::now();
        let error = run(
            std::slice::from_ref(&chain),
            Format::Pprof,
            &Options::new(Metric::Calls),
            &out,
        )
        .unwrap_err();
        assert!(started.elapsed().as_secs() < 10);
        let ReportError::TooLarge { source, .. } = &error else {
            panic!("{error}");
        };
        let size = source.measured.unwrap();
        assert_eq!((size.stacks, size.deepest), (50_000, 50_000));
        let ids: u64 = (1..=50_000u64).sum();
        assert!(size.bytes > ids && size.bytes < ids + 20 * 50_000, "{size:?}");
        let message = error.to_string();
        for hint in [
            "the pprof report would be 1.2 GiB before compression",
            "50000 samples",
            "a pprof sample lists every frame",
            "--max-depth",
            "--max-output-size",
        ] {
            assert!(message.contains(hint), "{hint}: {message}");
        }
        assert_eq!(entries(dir.path()), ["chain.jpprof"]);
    }

    #[test]
    fn a_report_that_reaches_the_limit_while_written_leaves_nothing_behind() {
        let dir = tempfile::tempdir().unwrap();
        let chain = write_chain(dir.path(), "chain.jpprof", 2000);
        let out = dir.path().join("report.html");
        std::fs::write(&out, "the last good report\n").unwrap();
        let options = Options {
            max_output_size: Some(10_000),
            ..Options::new(Metric::Calls)
        };
        for format in [
            Format::Text,
            Format::Html,
            Format::Speedscope,
            Format::Folded,
            Format::Pprof,
        ] {
            let error = run(std::slice::from_ref(&chain), format, &options, &out).unwrap_err();
            let ReportError::TooLarge { source, .. } = &error else {
                panic!("{format:?}: {error}");
            };
            let measured_first = matches!(format, Format::Folded | Format::Pprof);
            assert_eq!(
                (source.format, source.measured.is_some()),
                (format.into(), measured_first)
            );
            assert_eq!(entries(dir.path()), ["chain.jpprof", "report.html"]);
            assert_eq!(std::fs::read_to_string(&out).unwrap(), "the last good report\n");
        }
        let unlimited = Options {
            max_output_size: None,
            ..Options::new(Metric::Calls)
        };
        run(&[chain], Format::Folded, &unlimited, &out).unwrap();
        assert!(std::fs::metadata(&out).unwrap().len() > 10_000);
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_written_into_not_replaced() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let profile = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let fifo = dir.path().join("report.fifo");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
        };
        run(
            &[profile],
            Format::Folded,
            &Options::new(Metric::Bytecodes),
            &fifo,
        )
        .unwrap();
        // Checked before joining: a FIFO replaced by a file would leave the reader waiting.
        assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
        assert_eq!(reader.join().unwrap(), "m.A.main():void 10\n");
        assert_eq!(entries(dir.path()), ["a.jpprof", "report.fifo"]);
    }

    #[cfg(unix)]
    #[test]
    fn dev_null_stays_a_device() {
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let profile = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let null = Path::new("/dev/null");
        run(&[profile], Format::Text, &Options::new(Metric::Calls), null).unwrap();
        assert!(std::fs::metadata(null).unwrap().file_type().is_char_device());
    }

    #[cfg(unix)]
    #[test]
    fn a_socket_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let profile = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let socket = dir.path().join("report.sock");
        let _listener = std::os::unix::net::UnixListener::bind(&socket).unwrap();
        let error = run(&[profile], Format::Text, &Options::new(Metric::Calls), &socket).unwrap_err();
        assert!(error.to_string().contains("a socket"), "{error}");
        assert_eq!(entries(dir.path()), ["a.jpprof", "report.sock"]);
    }

    #[test]
    fn merges_profiles_into_one_report() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let b = write_profile(dir.path(), "b.jpprof", &[(&["m.A.main()V"], 2, 5)]);
        let out = dir.path().join("report.folded");
        run(&[a, b], Format::Folded, &Options::new(Metric::Bytecodes), &out).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "m.A.main():void 15\n");
    }

    #[test]
    fn names_every_unreadable_profile_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let good = write_profile(dir.path(), "good.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let bad = dir.path().join("bad.jpprof");
        std::fs::write(&bad, "not a profile\n").unwrap();
        let missing = dir.path().join("missing.jpprof");
        let out = dir.path().join("report.txt");
        let error = run(
            &[bad.clone(), good, missing.clone()],
            Format::Text,
            &Options::new(Metric::Calls),
            &out,
        )
        .unwrap_err();
        let message = error.to_string();
        assert!(matches!(error, ReportError::Unreadable(UnreadableProfiles(ref e)) if e.len() == 2));
        assert!(message.contains(&bad.display().to_string()), "{message}");
        assert!(message.contains(&missing.display().to_string()), "{message}");
        assert!(!out.exists());
    }

    #[test]
    fn no_profiles_is_an_error() {
        assert!(matches!(read_all(&[]), Err(ReportError::NoProfiles)));
    }

    #[test]
    fn a_missing_report_directory_is_created() {
        let dir = tempfile::tempdir().unwrap();
        let profile = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let out = dir.path().join("site").join("jp").join("report.folded");
        run(&[profile], Format::Folded, &Options::new(Metric::Calls), &out).unwrap();
        assert_eq!(std::fs::read_to_string(&out).unwrap(), "m.A.main():void 1\n");
    }

    #[test]
    fn an_unwritable_report_names_its_path() {
        let dir = tempfile::tempdir().unwrap();
        let profile = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        // A directory that cannot be made: its would-be parent is a file.
        let out = dir.path().join("a.jpprof").join("report.txt");
        let error = run(&[profile], Format::Text, &Options::new(Metric::Calls), &out).unwrap_err();
        assert!(matches!(error, ReportError::Write { ref path, .. } if path == &out));
        assert!(error.to_string().starts_with(&out.display().to_string()));
    }
}
