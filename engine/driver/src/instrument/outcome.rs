//! What a run reports, in one type ([`Outcome`]) that the run returns, the
//! `jp` CLI prints and the request API ([`crate::api`]) hands the build
//! plugins as JSON.
//!
//! The JSON, the plugins' contract, is described in [`crate::api`]: there
//! the whole classes kept are `skipped`, the methods kept and the damaged
//! cache entries are `warnings`, and the input files that produced no
//! output are `errors`. The outcome keeps its warnings in one list, in the
//! order they were found, as the CLI prints them.

use std::fmt;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jp_rewrite::RewriteError;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use crate::cache::{CacheProblem, KeptWarning};
use crate::input::{InputError, Location};

/// What an instrument run did. Every class is counted once, as rewritten,
/// reused or unchanged.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Outcome {
    /// Classes rewritten by this run.
    pub rewritten: u64,
    /// Classes whose rewritten output came from the cache, or was in place
    /// and up to date already.
    pub reused: u64,
    /// Non-class files copied (or in place already).
    pub copied: u64,
    /// Classes written as they were: excluded by the filter, nothing to
    /// rewrite, or kept whole with a warning.
    pub unchanged: u64,
    /// Output files deleted because their input is gone.
    pub deleted: u64,
    /// Classes and methods kept as they were, in the order of their
    /// inputs, then the damaged cache entries found and recomputed.
    pub warnings: Vec<Warning>,
    /// Input files that produced no output.
    pub errors: Vec<Message>,
    /// What the run did by default that its user should know: classes left
    /// uninstrumented, and why ([`crate::filter::LEFT_BY_DEFAULT`]). Printed
    /// by the CLI; not part of the plugins' JSON.
    pub notes: Vec<String>,
    /// How long the run took in the engine, in milliseconds; set by the
    /// request API.
    pub engine_millis: u64,
}

/// Something a run worked around, about one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Warning {
    /// A class or a method kept as it was.
    Kept {
        /// The class file (`lib/app.jar!com/acme/Foo.class` inside archives).
        path: String,
        /// What was kept, and why.
        kept: KeptWarning,
    },
    /// A damaged cache entry, recomputed.
    Cache {
        /// The cache file.
        path: String,
        /// What was wrong.
        message: String,
    },
}

/// A message about one file: an input file's error, or, in the JSON, a
/// warning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Message {
    /// The file (`lib/app.jar!com/acme/Foo.class` inside archives).
    pub path: String,
    /// What happened, with its causes.
    pub message: String,
}

impl Warning {
    /// A warning about the class file at `location`.
    pub(crate) fn kept(location: &Location, kept: KeptWarning) -> Warning {
        Warning::Kept {
            path: location.to_string(),
            kept,
        }
    }

    /// Whether it says that a whole class was kept (`skipped` in the JSON).
    fn is_whole_class(&self) -> bool {
        matches!(self, Warning::Kept { kept, .. } if kept.method.is_none())
    }
}

impl From<CacheProblem> for Warning {
    fn from(problem: CacheProblem) -> Warning {
        Warning::Cache {
            path: problem.path.display().to_string(),
            message: problem.message,
        }
    }
}

impl From<&InstrumentFailure> for Message {
    fn from(failure: &InstrumentFailure) -> Message {
        let path = failure.location().to_string();
        let chain = crate::error::chain(failure);
        let message = match chain.strip_prefix(&path).and_then(|m| m.strip_prefix(": ")) {
            Some(message) => message.to_owned(),
            None => chain,
        };
        Message { path, message }
    }
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Warning::Kept { path, kept } => write!(f, "{path}: {kept}"),
            Warning::Cache { path, message } => write!(f, "{path}: {message}"),
        }
    }
}

impl fmt::Display for Message {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.path, self.message)
    }
}

impl Outcome {
    /// What a command line prints for the run: a `warning:` line per
    /// warning (unless `quiet`) and the summary line to `out`, and a line
    /// per failed input, after `program: `, to `err`.
    pub fn write_text(
        &self,
        program: &str,
        quiet: bool,
        out: &mut dyn Write,
        err: &mut dyn Write,
    ) -> io::Result<()> {
        if !quiet {
            for note in &self.notes {
                writeln!(out, "note: {note}")?;
            }
            for warning in &self.warnings {
                writeln!(out, "warning: {warning}")?;
            }
        }
        for error in &self.errors {
            writeln!(err, "{program}: {error}")?;
        }
        writeln!(
            out,
            "instrument: {} classes rewritten, {} reused, {} unchanged, {} other files copied, {} deleted, \
             {} warnings, {} inputs failed",
            self.rewritten,
            self.reused,
            self.unchanged,
            self.copied,
            self.deleted,
            self.warnings.len(),
            self.errors.len()
        )
    }
}

impl Serialize for Outcome {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        /// A whole class kept, as `skipped` lists it.
        #[derive(Serialize)]
        struct Skipped<'a> {
            path: &'a str,
            reason: &'a str,
        }
        let skipped: Vec<Skipped<'_>> = self
            .warnings
            .iter()
            .filter_map(|warning| match warning {
                Warning::Kept { path, kept } if kept.method.is_none() => Some(Skipped {
                    path,
                    reason: &kept.reason,
                }),
                _ => None,
            })
            .collect();
        let warnings: Vec<Message> = self
            .warnings
            .iter()
            .filter(|warning| !warning.is_whole_class())
            .map(|warning| match warning {
                Warning::Kept { path, kept } => Message {
                    path: path.clone(),
                    message: kept.to_string(),
                },
                Warning::Cache { path, message } => Message {
                    path: path.clone(),
                    message: message.clone(),
                },
            })
            .collect();
        let mut outcome = serializer.serialize_struct("Outcome", 9)?;
        outcome.serialize_field("rewritten", &self.rewritten)?;
        outcome.serialize_field("reused", &self.reused)?;
        outcome.serialize_field("copied", &self.copied)?;
        outcome.serialize_field("unchanged", &self.unchanged)?;
        outcome.serialize_field("deleted", &self.deleted)?;
        outcome.serialize_field("skipped", &skipped)?;
        outcome.serialize_field("warnings", &warnings)?;
        outcome.serialize_field("errors", &self.errors)?;
        outcome.serialize_field("engineMillis", &self.engine_millis)?;
        outcome.end()
    }
}

/// Why an input file produced no output.
#[derive(Debug, thiserror::Error)]
pub(crate) enum InstrumentFailure {
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
        source: RewriteError,
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
    fn location(&self) -> Location {
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
