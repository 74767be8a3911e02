//! What a run reports: its counts, the warnings about what was kept as it
//! was, the damaged cache entries it recomputed, and the input files that
//! produced no output.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use jp_rewrite::InstrumentError;

use crate::cache::{CacheProblem, KeptWarning};
use crate::input::{InputError, Location};

/// A warning with the class file it concerns.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocatedWarning {
    /// The class file.
    pub location: Location,
    /// What was kept and why.
    pub warning: KeptWarning,
}

/// Why an input file produced no output.
#[derive(Debug, thiserror::Error)]
pub enum InstrumentFailure {
    /// The input could not be read.
    #[error(transparent)]
    Input(#[from] InputError),
    /// A class file could not be parsed.
    #[error("{location}")]
    Class {
        /// The class file.
        location: Location,
        /// Why.
        #[source]
        source: InstrumentError,
    },
    /// An archive entry's name would escape the output directory.
    #[error("{location}: entry name would escape the output directory; refusing the whole input")]
    UnsafeEntryName {
        /// The entry.
        location: Location,
    },
    /// Two inputs would write the same output file.
    #[error("{}: written by more than one input: {} and {}", path.display(), first.display(), second.display())]
    Conflict {
        /// The output path.
        path: PathBuf,
        /// The input (file) that claimed it first, and got it.
        first: PathBuf,
        /// The input (file) refused for it.
        second: PathBuf,
    },
    /// An output could not be written.
    #[error("{}", path.display())]
    Write {
        /// The output path.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
}

impl InstrumentFailure {
    /// The file the failure is about: the input file (with its archive
    /// entry), or the output file for conflicts and writes.
    pub fn location(&self) -> Location {
        let file = |path: &Path| Location {
            file: path.to_owned(),
            entry: None,
        };
        match self {
            InstrumentFailure::Input(
                InputError::Io { path, .. }
                | InputError::UnknownKind { path }
                | InputError::LinkLoop { path, .. }
                | InputError::DanglingLink { path, .. },
            ) => file(path),
            InstrumentFailure::Input(InputError::Archive { location, .. })
            | InstrumentFailure::Class { location, .. }
            | InstrumentFailure::UnsafeEntryName { location } => location.clone(),
            InstrumentFailure::Conflict { path, .. } | InstrumentFailure::Write { path, .. } => file(path),
        }
    }
}

/// What an instrument run did. Every class is counted once, as rewritten,
/// reused or unchanged.
#[derive(Debug, Default)]
pub struct InstrumentOutcome {
    /// Classes rewritten by this run.
    pub classes_rewritten: usize,
    /// Classes whose rewritten output came from the cache, or was in place
    /// and up to date already.
    pub classes_reused: usize,
    /// Classes written as they were: excluded by the filter, nothing to
    /// rewrite, or kept whole with a warning.
    pub classes_unchanged: usize,
    /// Non-class files copied (or in place already).
    pub resources_copied: usize,
    /// Output files deleted because their input is gone.
    pub outputs_deleted: usize,
    /// Methods or classes kept as they were.
    pub warnings: Vec<LocatedWarning>,
    /// Damaged cache entries, found and recomputed.
    pub cache_problems: Vec<CacheProblem>,
    /// Input files that produced no output.
    pub failures: Vec<InstrumentFailure>,
}

impl fmt::Display for LocatedWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.warning)
    }
}
