//! Why a command could not do its work (as opposed to a [`crate::violation::Violation`], which
//! is a finding about input it could read).

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

/// A file, or an entry inside a jar, displayed `jp-engine.jar!native/linux-x86_64/libjp_jni.so`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Location {
    /// The file on disk.
    pub file: PathBuf,
    /// The entry inside it, for archives.
    pub entry: Option<String>,
}

impl Location {
    /// A plain file.
    pub fn file(file: impl Into<PathBuf>) -> Self {
        Location {
            file: file.into(),
            entry: None,
        }
    }

    /// An entry of an archive.
    pub fn entry(file: impl Into<PathBuf>, entry: impl Into<String>) -> Self {
        Location {
            file: file.into(),
            entry: Some(entry.into()),
        }
    }
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file.display())?;
        if let Some(entry) = &self.entry {
            write!(f, "!{entry}")?;
        }
        Ok(())
    }
}

/// Everything that stops `jp-dist` with exit code 2.
#[derive(Debug, thiserror::Error)]
pub enum DistError {
    /// Reading a file or a jar entry failed.
    #[error("{location}: cannot read")]
    Read {
        /// What was read.
        location: Location,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// The bytes are not ELF, Mach-O or PE, or a table in them is broken.
    #[error("{location}: not a readable native library")]
    Parse {
        /// The library.
        location: Location,
        /// The cause.
        #[source]
        source: object::read::Error,
    },
    /// The jar's central directory or an entry's header is broken.
    #[error("{location}: not a readable jar")]
    Jar {
        /// The jar.
        location: Location,
        /// The cause.
        #[source]
        source: zip::result::ZipError,
    },
    /// A platform id on the command line that JP does not ship.
    #[error("unknown platform `{id}` (known: {known})")]
    UnknownPlatform {
        /// The id given.
        id: String,
        /// The known ids.
        known: String,
    },
    /// A `pack` argument that is not `PLATFORM=PATH`.
    #[error("`{argument}`: expected PLATFORM=PATH")]
    PackArgument {
        /// The argument given.
        argument: String,
    },
    /// The same platform given twice to `pack`.
    #[error("platform `{id}` given twice")]
    DuplicatePlatform {
        /// The platform id.
        id: String,
    },
    /// A release version that is not a plain file-name component.
    #[error("version `{version}`: use letters, digits and . - _ + only")]
    Version {
        /// The version given.
        version: String,
    },
    /// Two files of one archive with the same name.
    #[error("`{name}` would be in each archive twice")]
    DuplicateMember {
        /// The clashing name.
        name: String,
    },
    /// An `--include` path without a file name.
    #[error("{path}: not a file name")]
    IncludeName {
        /// The path given.
        path: PathBuf,
    },
    /// An epoch that zip's time stamps cannot hold.
    #[error("epoch {epoch} is outside the years 1980 to 2107 that zip time stamps can hold")]
    ZipEpoch {
        /// The epoch given.
        epoch: u64,
    },
    /// A program could not be started.
    #[error("cannot run {program}")]
    Spawn {
        /// The program.
        program: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
    /// A cross build failed; cargo's own messages are above.
    #[error("cargo zigbuild of {package} for {targets} failed ({status})")]
    Build {
        /// The package built.
        package: String,
        /// The targets built for.
        targets: String,
        /// How it ended.
        status: std::process::ExitStatus,
    },
    /// Writing an output file failed.
    #[error("{path}: cannot write")]
    Write {
        /// The output file.
        path: PathBuf,
        /// The cause.
        #[source]
        source: io::Error,
    },
}

impl DistError {
    /// For `map_err`: reading the file `path` failed.
    pub(crate) fn reading(path: &Path) -> impl Fn(io::Error) -> Self + '_ {
        move |source| DistError::Read {
            location: Location::file(path),
            source,
        }
    }

    /// For `map_err`: writing `path` failed.
    pub(crate) fn writing(path: &Path) -> impl Fn(io::Error) -> Self + '_ {
        move |source| DistError::Write {
            path: path.to_path_buf(),
            source,
        }
    }
}
