//! Sampled metrics beside JP's exact counts: the stacks of a JDK Flight
//! Recorder recording ([`jfr`]) or of async-profiler's collapsed output
//! ([`collapsed`]), attached to the calling contexts of a profile
//! ([`attach()`]) as extra metrics that are labelled sampled.
//!
//! A sample's stack is matched through its instrumented frames, those
//! whose method is in the profile's frame table ([`names`] normalises the
//! tools' names); what ran above the deepest of them (JDK, native, JIT, GC
//! or kernel frames) becomes sampled-only contexts under it.
#![deny(missing_docs)]

mod attach;
pub mod collapsed;
pub mod jfr;
pub mod names;

use std::path::{Path, PathBuf};

use jp_profile::MetricInfo;

pub use attach::{attach, Attached, OUTSIDE_FRAME};

/// One stack and how often it was sampled.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Stack {
    /// The frames, outermost first, as JP names methods where the tool
    /// tells a Java method ([`names`]), as the tool names them otherwise.
    pub frames: Vec<String>,
    /// How many samples had this stack.
    pub count: u64,
}

/// The stacks of one sampled metric.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Samples {
    /// The metric the samples count in.
    pub metric: MetricInfo,
    /// The stacks.
    pub stacks: Vec<Stack>,
}

/// Why a recording could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SamplesError {
    /// The file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The recording.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The JDK's `jfr` tool could not be run, or failed.
    #[error("{}: `jfr print` {detail}", path.display())]
    JfrTool {
        /// The recording.
        path: PathBuf,
        /// What went wrong.
        detail: String,
    },
    /// `jfr print --json` gave what is not its JSON.
    #[error("{}: reading `jfr print --json`: {source}", path.display())]
    JfrJson {
        /// The recording.
        path: PathBuf,
        /// Why.
        source: serde_json::Error,
    },
    /// A line of a collapsed file is not `frame;frame;... count`.
    #[error("{}:{line}: {detail}", path.display())]
    Collapsed {
        /// The file.
        path: PathBuf,
        /// The line, from 1.
        line: u64,
        /// What is wrong.
        detail: String,
    },
}

/// The samples in `path`: a JFR recording when its name ends in `.jfr`,
/// else async-profiler's collapsed stacks.
///
/// # Errors
/// When the file cannot be read or is not what its name says.
pub fn read(path: &Path) -> Result<Vec<Samples>, SamplesError> {
    if path.extension().is_some_and(|extension| extension == "jfr") {
        jfr::read(path)
    } else {
        collapsed::read(path).map(|samples| vec![samples])
    }
}
