//! Why a baseline could not be written or a check could not be made; each
//! error names its file, and a baseline's also its line.

use std::io;
use std::path::PathBuf;

use jp_report::ReportError;

/// Why no baseline was written, or no comparison made.
#[derive(Debug, thiserror::Error)]
pub enum GateError {
    /// The profiles could not be read (each error names its file).
    #[error(transparent)]
    Profiles(#[from] ReportError),
    /// No baseline at the given path.
    #[error(
        "{}: no baseline here; record one from the profiles of a run with `jp baseline <profiles>... --out {}` (or `gradle jpBaseline`, `mvn jp:baseline`) and commit it",
        path.display(),
        path.display()
    )]
    MissingBaseline {
        /// The baseline's path.
        path: PathBuf,
    },
    /// The baseline could not be read.
    #[error("{}: {source}", path.display())]
    ReadBaseline {
        /// The baseline's path.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// The baseline is not in the format, or cut short.
    #[error("{}:{line}: {message}", path.display())]
    Malformed {
        /// The baseline's path.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong there.
        message: String,
    },
    /// The baseline was recorded with other settings than the profiles'.
    #[error(
        "{}: recorded with other settings than these profiles, so their counts cannot be compared: {}; record the baseline again with these settings (`jp baseline`, `gradle jpBaseline`, `mvn jp:baseline`)",
        path.display(),
        differences.join("; ")
    )]
    OtherSettings {
        /// The baseline's path.
        path: PathBuf,
        /// Each setting that differs, with both values.
        differences: Vec<String>,
    },
    /// The profiles have no such metric to gate, or it is sampled.
    #[error(transparent)]
    Metric(#[from] jp_report::metric::MetricError),
    /// The diff report could not be written (its error names it).
    #[error(transparent)]
    DiffReport(ReportError),
    /// The copy of a baseline's profiles could not be made.
    #[error("{}: keeping the baseline's profiles: {source}", path.display())]
    KeepProfiles {
        /// The file or directory.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
    /// A file could not be written.
    #[error("{}: {source}", path.display())]
    Write {
        /// The file.
        path: PathBuf,
        /// Why.
        source: io::Error,
    },
}
