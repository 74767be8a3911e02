//! What a release check can find wrong, one variant per rule.

use std::fmt;

use crate::inspect::{Architecture, Format, Kind};
use crate::version::Version;

/// How many names a violation about many symbols shows.
const SHOWN_NAMES: usize = 3;

/// One broken rule. `Display` says what is wrong and what was expected, without naming the
/// library: the report puts that in front.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Violation {
    /// Format or word size differs from the platform's.
    WrongFormat {
        /// What the platform needs.
        expected: Format,
        /// What the file is.
        found: Format,
    },
    /// The code is for another machine.
    WrongArchitecture {
        /// What the platform needs.
        expected: Architecture,
        /// What the file is for.
        found: Architecture,
    },
    /// The file is not a shared library.
    NotSharedLibrary {
        /// What it is instead.
        found: Kind,
    },
    /// A JNI entry point the Java facade calls is not exported.
    MissingExport {
        /// The symbol, as the format spells it.
        name: String,
    },
    /// A `Java_*` symbol the facade does not declare is exported.
    UnexpectedJavaExport {
        /// The symbol, as the format spells it.
        name: String,
    },
    /// ELF only: exports beyond the JNI ones (the version script should hide them). One
    /// violation for all of them: a missing version script exports thousands.
    UnexpectedExports {
        /// The symbols, in table order.
        names: Vec<String>,
    },
    /// A linked library the JVM host does not provide.
    ForeignImport {
        /// The library as the file names it.
        library: String,
        /// Which libraries are allowed, in words.
        allowed: &'static str,
    },
    /// A glibc symbol version newer than the oldest supported glibc.
    GlibcTooNew {
        /// Highest version needed.
        needed: Version,
        /// Highest version allowed.
        max: Version,
    },
    /// A glibc symbol version on a musl platform.
    GlibcOnMusl {
        /// Highest version needed.
        needed: Version,
    },
    /// ELF: `DF_1_NODELETE` is missing, so `dlclose` may unmap code that threads still run.
    NotNodelete,
    /// Mach-O: the library declares no minimum OS version.
    MissingMinOs,
    /// Mach-O: the minimum OS version is newer than the oldest supported macOS.
    MinOsTooNew {
        /// Declared minimum.
        found: Version,
        /// Highest allowed.
        max: Version,
    },
    /// Mach-O arm64: no `LC_CODE_SIGNATURE`, so macOS refuses to load it.
    Unsigned,
    /// Mach-O: the install name is not `@rpath/…`.
    InstallName {
        /// The `LC_ID_DYLIB` name, if any.
        found: Option<String>,
    },
    /// A local-path string of the build machine is in the bytes.
    LocalPath {
        /// The string found.
        needle: String,
    },
    /// A jar entry under `native/` that is not `native/<platform>/<file>`.
    MisplacedEntry {
        /// The entry name.
        entry: String,
    },
    /// A `native/<id>/` directory for a platform JP does not know.
    UnknownPlatform {
        /// The entry name.
        entry: String,
    },
    /// A library whose file name is not the one the facade loads on its platform.
    WrongFileName {
        /// The entry name.
        entry: String,
        /// The file name expected there.
        expected: &'static str,
    },
    /// The jar has no library under `native/` at all.
    NoLibraries,
    /// A platform required on the command line has no library in the jar.
    MissingPlatform {
        /// The platform id.
        id: &'static str,
    },
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Violation::WrongFormat { expected, found } => write!(f, "is {found}, expected {expected}"),
            Violation::WrongArchitecture { expected, found } => {
                write!(f, "is for {found}, expected {expected}")
            }
            Violation::NotSharedLibrary { found } => write!(f, "is {found}, not a shared library"),
            Violation::MissingExport { name } => write!(f, "does not export {name}"),
            Violation::UnexpectedJavaExport { name } => {
                write!(f, "exports {name}, which NativeEngine does not declare")
            }
            Violation::UnexpectedExports { names } => {
                let shown = names.iter().take(SHOWN_NAMES).map(String::as_str);
                let more = if names.len() > SHOWN_NAMES { ", …" } else { "" };
                let shown = shown.collect::<Vec<_>>().join(", ");
                write!(
                    f,
                    "exports {} symbols beyond the JNI entry points: {shown}{more}",
                    names.len()
                )
            }
            Violation::ForeignImport { library, allowed } => {
                write!(f, "links {library}, allowed are only {allowed}")
            }
            Violation::GlibcTooNew { needed, max } => {
                write!(f, "needs GLIBC_{needed}, newer than the supported GLIBC_{max}")
            }
            Violation::GlibcOnMusl { needed } => {
                write!(f, "needs GLIBC_{needed}, which musl does not provide")
            }
            Violation::NotNodelete => f.write_str("lacks DF_1_NODELETE (link with -z nodelete)"),
            Violation::MissingMinOs => f.write_str("declares no minimum macOS version"),
            Violation::MinOsTooNew { found, max } => {
                write!(f, "needs macOS {found}, newer than the supported {max}")
            }
            Violation::Unsigned => f.write_str("has no code signature (LC_CODE_SIGNATURE)"),
            Violation::InstallName { found: Some(name) } => {
                write!(f, "has install name {name}, expected @rpath/…")
            }
            Violation::InstallName { found: None } => f.write_str("has no install name (LC_ID_DYLIB)"),
            Violation::LocalPath { needle } => write!(f, "contains the local path {needle:?}"),
            Violation::MisplacedEntry { entry } => {
                write!(f, "{entry}: not of the form native/<platform>/<file>")
            }
            Violation::UnknownPlatform { entry } => write!(f, "{entry}: unknown platform"),
            Violation::WrongFileName { entry, expected } => {
                write!(f, "{entry}: the library of this platform is named {expected}")
            }
            Violation::NoLibraries => f.write_str("no native/<platform>/<file> library at all"),
            Violation::MissingPlatform { id } => write!(f, "no library for required platform {id}"),
        }
    }
}
