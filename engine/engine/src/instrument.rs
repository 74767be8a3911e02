//! Instrumenting inputs into an output directory.
//!
//! Layout of the output: the contents of a directory input are mirrored
//! into the output directory (relative paths kept); a jar input `lib/x.jar`
//! becomes the jar `OUT/x.jar`; a jmod `x.jmod` becomes the directory
//! `OUT/x/` (a jmod's own format is for the JDK's tools only); a single
//! class file `C.class` becomes `OUT/C.class`. Non-class files are copied unchanged. Nothing is written
//! for an input that has a bad class file or an unsafe entry name, and
//! every file is written atomically.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jp_instrument::profile::{profile_class, ProfileOptions};
use jp_instrument::stress::{stress_class, StressOptions};
use jp_instrument::{InstrumentError, Rewritten, Warning};
use rayon::prelude::*;

use crate::filter::ClassFilter;
use crate::input::{Entry, Input, InputError, InputKind, Location};
use crate::output::{safe_relative_path, write_atomically};
use crate::signatures;

/// Which rewrite to apply.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scheme {
    /// The profiling scheme (see [`jp_instrument::profile`]).
    Profile(ProfileOptions),
    /// The test-only stress scheme (see [`jp_instrument::stress`]).
    Stress(StressOptions),
}

/// What to instrument, and where to.
#[derive(Debug, Clone)]
pub struct InstrumentRequest {
    /// Directories, jars and class files.
    pub inputs: Vec<PathBuf>,
    /// The output directory.
    pub output: PathBuf,
    /// The rewrite.
    pub scheme: Scheme,
    /// Which classes to rewrite; the others are copied unchanged.
    pub filter: ClassFilter,
}

/// A warning with the class file it concerns.
#[derive(Debug, Clone)]
pub struct LocatedWarning {
    /// The class file.
    pub location: Location,
    /// What was kept and why.
    pub warning: Warning,
}

/// Why an input produced no output.
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
    #[error("{path}: written by more than one input")]
    Conflict {
        /// The output path.
        path: PathBuf,
    },
    /// An output could not be written.
    #[error("{path}")]
    Write {
        /// The output path.
        path: PathBuf,
        /// The OS error.
        #[source]
        source: io::Error,
    },
}

/// What an instrument run did.
#[derive(Debug, Default)]
pub struct InstrumentOutcome {
    /// Classes written rewritten.
    pub classes_rewritten: usize,
    /// Classes copied unchanged (nothing to rewrite, or kept with a warning).
    pub classes_unchanged: usize,
    /// Non-class files copied.
    pub resources_copied: usize,
    /// Methods or classes kept as they were.
    pub warnings: Vec<LocatedWarning>,
    /// Inputs that produced no output.
    pub failures: Vec<InstrumentFailure>,
}

/// Runs a request. Failures of single inputs are collected in the
/// outcome; the other inputs are still instrumented.
pub fn instrument(request: &InstrumentRequest) -> InstrumentOutcome {
    let mut outcome = InstrumentOutcome::default();
    let mut written = std::collections::HashSet::new();
    for path in &request.inputs {
        if let Err(failure) = instrument_input(path, request, &mut outcome, &mut written) {
            outcome.failures.push(failure);
        }
    }
    outcome
}

/// What became of one input entry.
enum Processed {
    /// A non-class file, copied.
    Resource,
    /// A class, rewritten (`changed`) or kept, with its warnings.
    Class { warnings: Vec<Warning>, changed: bool },
}

/// One output file: where it goes and what it holds.
struct OutputFile {
    name: String,
    bytes: Vec<u8>,
}

fn instrument_input(
    path: &Path,
    request: &InstrumentRequest,
    outcome: &mut InstrumentOutcome,
    written: &mut std::collections::HashSet<PathBuf>,
) -> Result<(), InstrumentFailure> {
    let input = Input::open(path)?;
    let entries = input.entries()?.collect::<Result<Vec<Entry>, _>>()?;
    for entry in &entries {
        if safe_relative_path(&entry.name).is_none() {
            return Err(InstrumentFailure::UnsafeEntryName {
                location: entry.location.clone(),
            });
        }
    }
    let results: Vec<Result<(OutputFile, Processed), InstrumentFailure>> = entries
        .into_par_iter()
        .map(|entry| {
            if !entry.is_class() {
                return Ok((
                    OutputFile {
                        name: entry.name,
                        bytes: entry.bytes,
                    },
                    Processed::Resource,
                ));
            }
            if !request
                .filter
                .accepts(&ClassFilter::class_name_of_entry(&entry.name))
            {
                return Ok((
                    OutputFile {
                        name: entry.name,
                        bytes: entry.bytes,
                    },
                    Processed::Class {
                        warnings: Vec::new(),
                        changed: false,
                    },
                ));
            }
            let Rewritten { bytes, warnings } =
                rewrite(&entry.bytes, request.scheme).map_err(|source| InstrumentFailure::Class {
                    location: entry.location.clone(),
                    source,
                })?;
            let changed = bytes.is_some();
            let bytes = bytes.unwrap_or(entry.bytes);
            Ok((
                OutputFile {
                    name: entry.name,
                    bytes,
                },
                Processed::Class { warnings, changed },
            ))
        })
        .collect();

    let mut files = Vec::with_capacity(results.len());
    let mut counts = InstrumentOutcome::default();
    for result in results {
        let (file, processed) = result?;
        match processed {
            Processed::Resource => counts.resources_copied += 1,
            Processed::Class { warnings, changed } => {
                let location = entry_location(&input, &file.name);
                counts
                    .warnings
                    .extend(warnings.into_iter().map(|warning| LocatedWarning {
                        location: location.clone(),
                        warning,
                    }));
                if changed {
                    counts.classes_rewritten += 1;
                } else {
                    counts.classes_unchanged += 1;
                }
            }
        }
        files.push(file);
    }
    if counts.classes_rewritten > 0 {
        unsign(&mut files);
    }
    write_outputs(&input, &request.output, &files, written)?;
    outcome.classes_rewritten += counts.classes_rewritten;
    outcome.classes_unchanged += counts.classes_unchanged;
    outcome.resources_copied += counts.resources_copied;
    outcome.warnings.extend(counts.warnings);
    Ok(())
}

/// Drops the signature of a signed input whose classes were rewritten
/// (see [`crate::signatures`]).
fn unsign(files: &mut Vec<OutputFile>) {
    files.retain(|file| !signatures::is_signature_file(&file.name));
    for file in files.iter_mut() {
        if file.name.eq_ignore_ascii_case("META-INF/MANIFEST.MF") {
            file.bytes = signatures::strip_manifest_digests(&file.bytes);
        }
    }
}

fn rewrite(bytes: &[u8], scheme: Scheme) -> Result<Rewritten, InstrumentError> {
    match scheme {
        Scheme::Profile(options) => profile_class(bytes, options),
        Scheme::Stress(options) => stress_class(bytes, options),
    }
}

fn entry_location(input: &Input, name: &str) -> Location {
    match input.kind() {
        InputKind::Jar | InputKind::Jmod => Location {
            file: input.path().to_owned(),
            entry: Some(name.to_owned()),
        },
        InputKind::Directory => Location {
            file: input.path().join(name),
            entry: None,
        },
        InputKind::ClassFile => Location {
            file: input.path().to_owned(),
            entry: None,
        },
    }
}

fn write_outputs(
    input: &Input,
    output: &Path,
    files: &[OutputFile],
    written: &mut std::collections::HashSet<PathBuf>,
) -> Result<(), InstrumentFailure> {
    let write_error = |path: &Path| {
        let path = path.to_owned();
        move |source| InstrumentFailure::Write { path, source }
    };
    let mut claim = |path: PathBuf| {
        if written.insert(path.clone()) {
            Ok(path)
        } else {
            Err(InstrumentFailure::Conflict { path })
        }
    };
    let mirror_root = match input.kind() {
        InputKind::Jmod => Some(output.join(input.path().file_stem().unwrap_or_default())),
        InputKind::Directory | InputKind::ClassFile => Some(output.to_owned()),
        InputKind::Jar => None,
    };
    match mirror_root {
        Some(root) => {
            let targets = files
                .iter()
                .map(|file| {
                    let relative = safe_relative_path(&file.name).expect("checked before rewriting");
                    claim(root.join(relative))
                })
                .collect::<Result<Vec<_>, _>>()?;
            targets.par_iter().zip(files).try_for_each(|(target, file)| {
                write_atomically(target, &file.bytes).map_err(write_error(target))
            })
        }
        None => {
            let name = input.path().file_name().unwrap_or_default();
            let target = claim(output.join(name))?;
            let jar = build_jar(files).map_err(write_error(&target))?;
            write_atomically(&target, &jar).map_err(write_error(&target))
        }
    }
}

/// A zip archive of `files`, in their order.
fn build_jar(files: &[OutputFile]) -> io::Result<Vec<u8>> {
    let mut cursor = io::Cursor::new(Vec::new());
    let mut writer = zip::ZipWriter::new(&mut cursor);
    let options =
        zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
    for file in files {
        writer
            .start_file(file.name.as_str(), options)
            .map_err(io::Error::other)?;
        writer.write_all(&file.bytes)?;
    }
    writer.finish().map_err(io::Error::other)?;
    Ok(cursor.into_inner())
}
