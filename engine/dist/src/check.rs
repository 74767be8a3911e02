//! The `check-lib` and `check-jar` commands without their printing: read the bytes, inspect,
//! apply the rules, and for a jar also check its `native/` layout.

use std::fs::File;
use std::io::Read;
use std::path::Path;

use crate::error::{DistError, Location};
use crate::inspect::{inspect, LibraryFacts};
use crate::local_paths::LocalPaths;
use crate::platform::{self, Platform};
use crate::rules;
use crate::violation::Violation;

/// Directory of the native libraries inside `jp-engine.jar`.
const NATIVE_DIR: &str = "native/";

/// The verdict on one library.
#[derive(Debug)]
pub struct LibraryReport {
    /// The platform it ships for.
    pub platform: &'static Platform,
    /// What it is.
    pub facts: LibraryFacts,
    /// What is wrong with it; empty when it may ship.
    pub violations: Vec<Violation>,
}

impl LibraryReport {
    /// Inspects `bytes` and applies the platform's rules.
    ///
    /// # Errors
    ///
    /// [`DistError::Parse`] when the bytes are no library `object` can read.
    fn new(
        bytes: &[u8],
        platform: &'static Platform,
        local_paths: &LocalPaths,
        location: impl FnOnce() -> Location,
    ) -> Result<Self, DistError> {
        let facts = inspect(bytes, local_paths).map_err(|source| DistError::Parse {
            location: location(),
            source,
        })?;
        let violations = rules::check(&facts, platform);
        Ok(LibraryReport {
            platform,
            facts,
            violations,
        })
    }

    /// `ELF x86_64, 7 exports, glibc 2.17`: what the release notes want to know at a glance.
    pub fn summary(&self) -> String {
        let facts = &self.facts;
        let mut summary = format!(
            "{} {}, {} exports",
            facts.format.family(),
            facts.architecture,
            facts.exports.len()
        );
        if let Some(glibc) = facts.glibc {
            summary += &format!(", glibc {glibc}");
        }
        if let Some(min_os) = facts.min_os {
            summary += &format!(", macOS {min_os}");
        }
        if facts.code_signature {
            summary += ", signed";
        }
        summary
    }
}

/// The verdict on a jar: its libraries, and what is wrong with its layout.
#[derive(Debug)]
pub struct JarReport {
    /// One report per library found under `native/`, in entry order.
    pub libraries: Vec<LibraryReport>,
    /// Layout violations: misplaced or misnamed entries, unknown or missing platforms.
    pub violations: Vec<Violation>,
}

impl JarReport {
    /// Whether the jar may ship.
    pub fn passed(&self) -> bool {
        self.violations.is_empty() && self.libraries.iter().all(|library| library.violations.is_empty())
    }
}

/// `check-lib`: one library file for one platform.
///
/// # Errors
///
/// When the file cannot be read or parsed.
pub fn check_library(
    path: &Path,
    platform: &'static Platform,
    local_paths: &LocalPaths,
) -> Result<LibraryReport, DistError> {
    let bytes = std::fs::read(path).map_err(DistError::reading(path))?;
    LibraryReport::new(&bytes, platform, local_paths, || Location::file(path))
}

/// `check-jar`: every `native/<platform>/<file>` entry of the jar, and that each `required`
/// platform has one.
///
/// # Errors
///
/// When the jar or one of its native entries cannot be read, or a library cannot be parsed.
pub fn check_jar(
    path: &Path,
    required: &[&'static Platform],
    local_paths: &LocalPaths,
) -> Result<JarReport, DistError> {
    let jar_error = |source| DistError::Jar {
        location: Location::file(path),
        source,
    };
    let file = File::open(path).map_err(DistError::reading(path))?;
    let mut jar = zip::ZipArchive::new(file).map_err(jar_error)?;
    let mut report = JarReport {
        libraries: Vec::new(),
        violations: Vec::new(),
    };
    for index in 0..jar.len() {
        let mut entry = jar.by_index(index).map_err(jar_error)?;
        let name = entry.name().map_err(jar_error)?.into_owned();
        let Some(platform) = native_platform(&name, &mut report.violations) else {
            continue;
        };
        let mut bytes = Vec::new();
        entry.read_to_end(&mut bytes).map_err(|source| DistError::Read {
            location: Location::entry(path, &name),
            source,
        })?;
        let library = LibraryReport::new(&bytes, platform, local_paths, || Location::entry(path, &name))?;
        report.libraries.push(library);
    }
    let present = |id| report.libraries.iter().any(|library| library.platform.id == id);
    let missing = required.iter().filter(|platform| !present(platform.id));
    let missing = missing.map(|platform| Violation::MissingPlatform { id: platform.id });
    report.violations.extend(missing);
    if report.libraries.is_empty() {
        report.violations.push(Violation::NoLibraries);
    }
    Ok(report)
}

/// The platform of a `native/<id>/<file>` entry whose name is right; anything else under
/// `native/` is a violation, and entries outside it (and directories) are none of our business.
fn native_platform(name: &str, violations: &mut Vec<Violation>) -> Option<&'static Platform> {
    let relative = name.strip_prefix(NATIVE_DIR)?;
    if relative.is_empty() || relative.ends_with('/') {
        return None;
    }
    let entry = name.to_owned();
    let Some((id, file_name)) = relative.split_once('/').filter(|(_, file)| !file.contains('/')) else {
        violations.push(Violation::MisplacedEntry { entry });
        return None;
    };
    let Some(platform) = platform::find(id) else {
        violations.push(Violation::UnknownPlatform { entry });
        return None;
    };
    if file_name != platform.file_name() {
        violations.push(Violation::WrongFileName {
            entry,
            expected: platform.file_name(),
        });
        return None;
    }
    Some(platform)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout(name: &str) -> (Option<&'static str>, Vec<Violation>) {
        let mut violations = Vec::new();
        let platform = native_platform(name, &mut violations);
        (platform.map(|platform| platform.id), violations)
    }

    #[test]
    fn a_library_in_its_platform_directory_is_checked() {
        assert_eq!(
            layout("native/linux-x86_64/libjp_jni.so"),
            (Some("linux-x86_64"), vec![])
        );
        assert_eq!(
            layout("native/windows-x86_64/jp_jni.dll"),
            (Some("windows-x86_64"), vec![])
        );
    }

    #[test]
    fn directories_and_other_entries_are_ignored() {
        let names = [
            "native/",
            "native/linux-x86_64/",
            "org/jpprof/engine/NativeEngine.class",
        ];
        for name in names {
            assert_eq!(layout(name), (None, vec![]), "{name}");
        }
    }

    #[test]
    fn a_misnamed_library_is_a_violation() {
        let entry = "native/macos-aarch64/libjp_jni.so".to_string();
        let expected = "libjp_jni.dylib";
        assert_eq!(
            layout(&entry),
            (None, vec![Violation::WrongFileName { entry, expected }])
        );
    }

    #[test]
    fn an_unknown_platform_is_a_violation() {
        let entry = "native/freebsd-x86_64/libjp_jni.so".to_string();
        assert_eq!(layout(&entry), (None, vec![Violation::UnknownPlatform { entry }]));
    }

    #[test]
    fn entries_outside_platform_directories_are_violations() {
        for entry in ["native/libjp_jni.so", "native/linux-x86_64/lib/libjp_jni.so"] {
            let expected = vec![Violation::MisplacedEntry {
                entry: entry.to_string(),
            }];
            assert_eq!(layout(entry), (None, expected), "{entry}");
        }
    }
}
