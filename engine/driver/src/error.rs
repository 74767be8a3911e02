//! Why a whole run failed ([`EngineError`]), and how every front end prints
//! an error with its causes ([`chain`]). A single input that fails (a bad
//! class file, an unreadable jar) does not fail the run: it is reported in
//! the outcome and the other inputs go on. These errors are about the run
//! itself.

use std::error::Error;
use std::io;
use std::path::PathBuf;

use crate::config::ConfigError;
use crate::hooked_jar::HookJarError;
use crate::overlap::OverlapError;

/// Why a run could not be done at all.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The request is not JSON of the request's shape (an unknown field, a
    /// missing one, a wrong type or value).
    #[error("invalid request")]
    RequestJson(#[source] serde_json::Error),
    /// The request is well formed but cannot be run.
    #[error("invalid request: {0}")]
    InvalidRequest(String),
    /// The configuration file is unreadable or invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// Two paths of the request are the same, or one holds the other:
    /// nothing was written.
    #[error(transparent)]
    Overlap(#[from] OverlapError),
    /// The output or cache directory is a file (or another kind of
    /// non-directory).
    #[error("{} is not a directory", path.display())]
    NotADirectory {
        /// The path given as a directory.
        path: PathBuf,
    },
    /// The output directory cannot be created or written.
    #[error("{}: cannot write the output directory", path.display())]
    Output {
        /// The output directory.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// The cache directory cannot be created or written.
    #[error("{}: cannot use the cache directory", path.display())]
    Cache {
        /// The cache directory.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// A report could not be made: no profiles, unreadable profiles (each
    /// one named, with its line), or a report file that cannot be written.
    #[error(transparent)]
    Report(#[from] jp_report::ReportError),
    /// A baseline could not be recorded or a check not made: unreadable
    /// profiles, no baseline, a malformed one (with its line), one of other
    /// settings, or a file that cannot be written.
    #[error(transparent)]
    Gate(#[from] jp_gate::GateError),
    /// A hooked copy of a jar could not be made (see
    /// [`crate::hooked_jar`]); the message names the jar or the copy.
    /// Boxed: it is rare, and large.
    #[error(transparent)]
    HookJar(Box<HookJarError>),
    /// The lock that serialises runs on the same output could not be taken.
    #[error("{}: cannot lock", path.display())]
    Lock {
        /// The file or directory locked.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
}

impl From<HookJarError> for EngineError {
    fn from(error: HookJarError) -> Self {
        EngineError::HookJar(Box::new(error))
    }
}

/// `error` and each of its sources, outermost first, joined by `": "`: the
/// one message that the CLI, the JNI library and the request API print for
/// an error.
///
/// Each layer displays only itself and keeps its cause as its source, so
/// the chain is the whole story. A layer whose text already ends with its
/// cause's (a message that embeds the cause, such as `"{path}: {source}"`)
/// does not get the cause again.
pub fn chain(error: &dyn Error) -> String {
    let mut message = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        let text = cause.to_string();
        if !message.ends_with(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        source = cause.source();
    }
    message
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, thiserror::Error)]
    #[error("{path}")]
    struct Names {
        path: &'static str,
        #[source]
        source: Embeds,
    }

    #[derive(Debug, thiserror::Error)]
    #[error("cannot write: {source}")]
    struct Embeds {
        source: io::Error,
    }

    #[test]
    fn a_chain_reads_outermost_first_joined_by_colons() {
        let error = ConfigError::Read {
            path: "/p/jp.toml".into(),
            source: io::Error::other("denied"),
        };
        assert_eq!(chain(&error), "/p/jp.toml: denied");
        assert_eq!(chain(&io::Error::other("alone")), "alone");
    }

    #[test]
    fn a_cause_that_its_layer_already_shows_is_not_repeated() {
        let error = Names {
            path: "out/A.class",
            source: Embeds {
                source: io::Error::other("disk full"),
            },
        };
        assert_eq!(chain(&error), "out/A.class: cannot write: disk full");
    }
}
