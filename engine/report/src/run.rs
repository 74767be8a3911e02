//! One report from profile files: read them all, merge them into one tree
//! and write it in a format, atomically. `jp report` and the build plugins
//! (through the engine's API) share this.
//!
//! A report is all or nothing: a profile that cannot be read would make it
//! silently partial, so every unreadable profile is an error and no report
//! is written.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jp_profile::{ParseError, Profile};

use crate::Options;

/// The report formats; `folded`, `text`, `html` or `speedscope` in requests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    /// Collapsed stacks, `frame;frame;frame value`, for flame-graph tools.
    Folded,
    /// A text tree with own values, subtree totals, proportional bars and
    /// the hot methods.
    Text,
    /// One self-contained HTML page: call tree, icicle graph and hot
    /// methods, both metrics.
    Html,
    /// speedscope's JSON file format, both metrics as two profiles.
    Speedscope,
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
    /// The report could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The report's path (`stdout` for the standard output).
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
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

/// Reads `profiles`, merges them and writes the report to `out` atomically.
pub fn run(profiles: &[PathBuf], format: Format, options: &Options, out: &Path) -> Result<(), ReportError> {
    let profile = read_all(profiles)?;
    write_atomically(out, |sink| render(&profile, format, options, sink)).map_err(|source| {
        ReportError::Write {
            path: out.to_path_buf(),
            source,
        }
    })
}

/// Every profile merged into one; the errors of all that failed otherwise.
pub fn read_all(paths: &[PathBuf]) -> Result<Profile, ReportError> {
    let mut merged: Option<Profile> = None;
    let mut errors = Vec::new();
    for path in paths {
        match jp_profile::parse_file(path) {
            // Once one failed no report is made, so later profiles are only checked.
            Ok(_) if !errors.is_empty() => {}
            Ok(profile) => match &mut merged {
                None => merged = Some(profile),
                Some(merged) => merged.merge(&profile),
            },
            Err(error) => errors.push(error),
        }
    }
    if !errors.is_empty() {
        return Err(ReportError::Unreadable(UnreadableProfiles(errors)));
    }
    merged.ok_or(ReportError::NoProfiles)
}

/// Writes `profile` in `format`; the one place a new format is added.
pub fn render(profile: &Profile, format: Format, options: &Options, out: &mut dyn Write) -> io::Result<()> {
    match format {
        Format::Folded => crate::folded::write(profile, options, out),
        Format::Text => crate::text::write(profile, options, out),
        Format::Html => crate::html::write(profile, options, out),
        Format::Speedscope => crate::speedscope::write(profile, options, out),
    }
}

/// Writes through a temporary file in the target's directory (created when
/// missing), renamed over the target once complete, so that a reader never
/// sees half a file. The engine writes its instrumented classes this way too.
pub fn write_atomically(
    path: &Path,
    render: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(dir)?;
    let mut builder = tempfile::Builder::new();
    builder.prefix(".jp-");
    // An ordinary file, readable as the umask allows (as a compiler's
    // output is), not 0600 as temporary files are.
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

#[cfg(test)]
mod tests {
    use super::*;
    use jp_profile::Metric;

    fn write_profile(dir: &Path, name: &str, paths: &[(&[&str], u64, u64)]) -> PathBuf {
        let path = dir.join(name);
        let mut bytes = Vec::new();
        jp_profile::write(&crate::profile(paths), &mut bytes).unwrap();
        std::fs::write(&path, bytes).unwrap();
        path
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
