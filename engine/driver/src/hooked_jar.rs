//! Hooked jars: a copy of a library jar in which the constructors of one
//! class hand each new object to a static method of one's own
//! ([`jp_rewrite::hook`]). The Gradle plugin puts such a copy of junit's
//! jar on the test class path, so that each JUnit 4 `RunNotifier` gets JP's
//! test listener (docs/gradle.md, "Per-test profiles").
//!
//! The library jar is never written. The copy's name holds a digest of the
//! jar's bytes and of the hook (and of the engine's build), so a copy in
//! place is the right one and is reused, and a changed jar or hook gets a
//! new file. The copy is written atomically; its other entries are copied
//! as they were, compressed bytes included.
//!
//! The request and outcome ([`HookRequest`], [`HookOutcome`]) cross from
//! the Java facade as JSON, given field by field in docs/engine-json.md.

use std::fs;
use std::io;
use std::path::{Path, PathBuf};

use jp_rewrite::hook::{hook_constructors, HookError, StaticHook};
use serde::{Deserialize, Serialize};

use crate::api::check_absolute;
use crate::cache::{object_key, scheme_fingerprint, Sha};
use crate::error::EngineError;
use crate::input::{Input, InputError, InputKind, Location};
use crate::output::write_atomically;
use crate::output_jar::{build_jar, unsign, OutputFile};

/// Which class of which jar gets the hook, and where the copy goes.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HookRequest {
    /// The library jar; absolute. Only read.
    pub jar: PathBuf,
    /// Internal name of the class whose constructors call the hook.
    pub class: String,
    /// Internal name of the class that declares the hook.
    pub hook_class: String,
    /// The hook's name; it takes the object and returns nothing.
    pub hook_method: String,
    /// The directory of the copies; absolute, created when missing.
    pub output_dir: PathBuf,
}

/// The copy.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct HookOutcome {
    /// The hooked jar.
    pub jar: PathBuf,
    /// Whether it was in place already.
    pub reused: bool,
}

/// Why a jar could not be hooked.
#[derive(Debug, thiserror::Error)]
pub enum HookJarError {
    /// The jar cannot be read, or is not an archive.
    #[error(transparent)]
    Input(#[from] InputError),
    /// The jar does not hold the class.
    #[error("{}: has no {class}.class to hook", jar.display())]
    MissingClass {
        /// The jar.
        jar: PathBuf,
        /// Internal name of the class.
        class: String,
    },
    /// The class cannot be rewritten.
    #[error("{location}")]
    Hook {
        /// The class in the jar.
        location: Location,
        /// Why; boxed, as it is rare and large.
        #[source]
        source: Box<HookError>,
    },
    /// The copy cannot be written.
    #[error("{}: cannot write the hooked jar", path.display())]
    Write {
        /// The copy.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
}

/// Writes the hooked copy of the request's jar, unless it is in place.
///
/// # Errors
/// A relative path or a path that is not a jar
/// ([`EngineError::InvalidRequest`]); a jar that cannot be read, lacks the
/// class or whose class cannot be rewritten, and a copy that cannot be
/// written ([`EngineError::HookJar`], naming the file).
pub fn hook_jar(request: &HookRequest) -> Result<HookOutcome, EngineError> {
    check_absolute("jar", &request.jar)?;
    check_absolute("outputDir", &request.output_dir)?;
    let input = Input::open(&request.jar).map_err(HookJarError::from)?;
    if input.kind() != InputKind::Jar {
        return Err(EngineError::InvalidRequest(format!(
            "jar is not a jar: {}",
            request.jar.display()
        )));
    }
    let bytes = fs::read(&request.jar).map_err(|source| {
        HookJarError::from(InputError::Io {
            path: request.jar.clone(),
            source,
        })
    })?;
    let hook = StaticHook {
        owner: request.hook_class.clone(),
        name: request.hook_method.clone(),
    };
    let target = request
        .output_dir
        .join(copy_name(&request.jar, &request.class, &hook, &bytes));
    if target.is_file() {
        return Ok(HookOutcome {
            jar: target,
            reused: true,
        });
    }
    let jar = hooked_copy(&input, bytes, &request.class, &hook)?;
    write_atomically(&target, &jar).map_err(|source| HookJarError::Write {
        path: target.clone(),
        source,
    })?;
    Ok(HookOutcome {
        jar: target,
        reused: false,
    })
}

/// Runs a hook request given as JSON and answers the outcome as JSON.
///
/// # Errors
/// JSON that is not a hook request (unknown fields included), and the
/// errors of [`hook_jar`].
pub fn hook_jar_json(request_json: &str) -> Result<String, EngineError> {
    let request: HookRequest = serde_json::from_str(request_json).map_err(EngineError::RequestJson)?;
    let outcome = hook_jar(&request)?;
    Ok(serde_json::to_string(&outcome).expect("an outcome always serialises"))
}

/// `<jar's stem>-jp-<16 hex digits>.jar`, the digits naming the jar's
/// bytes, the class, the hook and the engine's build.
fn copy_name(jar: &Path, class: &str, hook: &StaticHook, bytes: &[u8]) -> String {
    let stem = jar.file_stem().map(|s| s.to_string_lossy()).unwrap_or_default();
    let key = object_key(
        &scheme_fingerprint(&format!("{:?}", (class, hook))),
        &Sha::of(bytes),
    )
    .to_string();
    format!("{stem}-jp-{}.jar", &key[..16])
}

/// The jar's bytes with `class` hooked; a signature, which the change
/// would break, is dropped.
fn hooked_copy(
    input: &Input,
    bytes: Vec<u8>,
    class: &str,
    hook: &StaticHook,
) -> Result<Vec<u8>, HookJarError> {
    let entry_name = format!("{class}.class");
    let mut archive = input.archive_of(bytes)?;
    let mut files = Vec::with_capacity(archive.len());
    for index in 0..archive.len() {
        let Some(entry) = input.archive_entry(&mut archive, index) else {
            continue;
        };
        let entry = entry?;
        let (bytes, changed) = if entry.name == entry_name {
            let hooked = hook_constructors(&entry.bytes, hook).map_err(|source| HookJarError::Hook {
                location: entry.location.clone(),
                source: Box::new(source),
            })?;
            (hooked, true)
        } else {
            (entry.bytes, false)
        };
        files.push(OutputFile {
            index,
            name: entry.name,
            bytes,
            changed,
        });
    }
    if !files.iter().any(|file| file.changed) {
        return Err(HookJarError::MissingClass {
            jar: input.path().to_owned(),
            class: class.to_owned(),
        });
    }
    unsign(&mut files);
    build_jar(&mut archive, &files).map_err(|source| HookJarError::Write {
        path: input.path().to_owned(),
        source,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const CLASS: &str = "AllInstructions";

    /// A jar with a manifest, a directory, the class and a resource.
    fn library_jar(path: &Path) {
        let mut writer = zip::ZipWriter::new(fs::File::create(path).unwrap());
        let options = zip::write::SimpleFileOptions::default();
        writer.add_directory("META-INF/", options).unwrap();
        writer.start_file("META-INF/MANIFEST.MF", options).unwrap();
        io::Write::write_all(&mut writer, b"Manifest-Version: 1.0\r\n\r\n").unwrap();
        writer.start_file(format!("{CLASS}.class"), options).unwrap();
        io::Write::write_all(&mut writer, &jp_testdata::class("java8/AllInstructions.class")).unwrap();
        writer.start_file("notes.txt", options).unwrap();
        io::Write::write_all(&mut writer, b"kept").unwrap();
        writer.finish().unwrap();
    }

    fn request(dir: &Path) -> HookRequest {
        HookRequest {
            jar: dir.join("lib-1.0.jar"),
            class: CLASS.to_owned(),
            hook_class: "org/example/Hook".to_owned(),
            hook_method: "attach".to_owned(),
            output_dir: dir.join("hooked"),
        }
    }

    fn entries(jar: &Path) -> Vec<(String, Vec<u8>)> {
        let mut archive = zip::ZipArchive::new(fs::File::open(jar).unwrap()).unwrap();
        (0..archive.len())
            .map(|i| {
                let mut file = archive.by_index(i).unwrap();
                let mut bytes = Vec::new();
                io::Read::read_to_end(&mut file, &mut bytes).unwrap();
                (String::from_utf8_lossy(file.name_raw()).into_owned(), bytes)
            })
            .collect()
    }

    #[test]
    fn the_copy_has_the_class_hooked_and_every_other_entry_as_it_was() {
        let dir = tempfile::tempdir().unwrap();
        library_jar(&dir.path().join("lib-1.0.jar"));
        let original = fs::read(dir.path().join("lib-1.0.jar")).unwrap();
        let outcome = hook_jar(&request(dir.path())).unwrap();
        assert!(!outcome.reused);
        let name = outcome.jar.file_name().unwrap().to_string_lossy().into_owned();
        assert!(
            name.starts_with("lib-1.0-jp-") && name.len() == "lib-1.0-jp-.jar".len() + 16,
            "{name}"
        );
        assert_eq!(fs::read(dir.path().join("lib-1.0.jar")).unwrap(), original);
        let (before, after) = (entries(&dir.path().join("lib-1.0.jar")), entries(&outcome.jar));
        assert_eq!(before.len(), after.len());
        for ((name, bytes), (copied_name, copied)) in before.iter().zip(&after) {
            assert_eq!(name, copied_name);
            if name == "AllInstructions.class" {
                let hook = StaticHook {
                    owner: "org/example/Hook".to_owned(),
                    name: "attach".to_owned(),
                };
                assert_eq!(copied, &hook_constructors(bytes, &hook).unwrap());
            } else {
                assert_eq!(copied, bytes, "{name}");
            }
        }
    }

    #[test]
    fn a_copy_in_place_is_reused_and_a_changed_hook_gets_another() {
        let dir = tempfile::tempdir().unwrap();
        library_jar(&dir.path().join("lib-1.0.jar"));
        let first = hook_jar(&request(dir.path())).unwrap();
        let again = hook_jar(&request(dir.path())).unwrap();
        assert!(again.reused);
        assert_eq!(again.jar, first.jar);
        let other = hook_jar(&HookRequest {
            hook_method: "other".to_owned(),
            ..request(dir.path())
        })
        .unwrap();
        assert!(!other.reused);
        assert_ne!(other.jar, first.jar);
    }

    #[test]
    fn a_jar_without_the_class_is_refused_naming_both() {
        let dir = tempfile::tempdir().unwrap();
        library_jar(&dir.path().join("lib-1.0.jar"));
        let error = hook_jar(&HookRequest {
            class: "org/example/Missing".to_owned(),
            ..request(dir.path())
        })
        .unwrap_err();
        let message = crate::error::chain(&error);
        assert!(
            message.ends_with("lib-1.0.jar: has no org/example/Missing.class to hook"),
            "{message}"
        );
        assert!(!dir.path().join("hooked").exists());
    }

    #[test]
    fn the_request_is_read_from_json_with_camel_case_fields() {
        let dir = tempfile::tempdir().unwrap();
        library_jar(&dir.path().join("lib-1.0.jar"));
        let json = serde_json::to_string(&request(dir.path())).unwrap();
        assert!(
            json.contains("\"hookClass\"") && json.contains("\"outputDir\""),
            "{json}"
        );
        let outcome: HookOutcome = serde_json::from_str(&hook_jar_json(&json).unwrap()).unwrap();
        assert!(outcome.jar.is_file());
    }
}
