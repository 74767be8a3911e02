//! Instrumenting inputs into an output directory, incrementally when a
//! cache directory is given.
//!
//! Layout of the output: the contents of a directory input are mirrored
//! into the output directory (relative paths kept); a jar input `lib/x.jar`
//! becomes the jar `OUT/x.jar`; a jmod `x.jmod` becomes the directory
//! `OUT/x/` (a jmod's own format is for the JDK's tools only); a single
//! class file `C.class` becomes `OUT/C.class`. Non-class files are copied
//! unchanged. Every file is written atomically.
//!
//! The unit of work is an input *file*: each file of a directory input, a
//! class file, a jar, a jmod. A unit that fails (a class that does not
//! parse, an archive entry whose name would escape the output directory)
//! writes nothing, loses what it wrote before, and is reported; the other
//! units go on. So one bad class of a directory costs only its own output,
//! and one bad class of a jar costs the jar's.
//!
//! The inputs, the output directory and the cache directory must be apart
//! ([`crate::overlap`]): JP never writes into its inputs. Temporary files
//! that a killed run left in the output or the cache are deleted by the
//! next run, under its locks (`output::remove_temporaries`).
//!
//! With a cache ([`crate::cache`]), an input file that did not change is
//! not read again, and a class whose bytes the cache has seen under the same
//! options is not rewritten again; the outputs of input files that are gone
//! are deleted. The output is the same, byte for byte, as a run without a
//! cache into an empty directory. Runs on the same output directory (and on
//! the same cache) take turns, through file locks held for the whole run.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::SystemTime;

use jp_classfile::ClassFileError;
use jp_rewrite::{InstrumentError, Rewritten};
use rayon::prelude::*;

use crate::cache::{
    nanos_since_epoch, object_key, scheme_fingerprint, Cache, EntryWarning, Manifest, OutputRecord, Sha,
    Stat, UnitRecord,
};
pub use crate::cache::{CacheProblem, KeptWarning};
use crate::error::EngineError;
use crate::filter::ClassFilter;
use crate::input::{Input, InputError, InputKind, Location};
use crate::objects::{CachedRewrite, ObjectStore};
use crate::output::{remove_temporaries, safe_relative_path, temporary_builder, write_atomically};
use crate::output_jar::{build_jar, unsign, OutputFile};
use crate::overlap::{check_apart, PathRole};
use crate::scheme::Scheme;

/// What to instrument, and where to.
#[derive(Debug, Clone)]
pub struct InstrumentRequest {
    /// Directories, jars, jmods and class files.
    pub inputs: Vec<PathBuf>,
    /// The output directory (created when missing).
    pub output: PathBuf,
    /// The rewrite.
    pub scheme: Arc<dyn Scheme>,
    /// Which classes to rewrite; the others are copied unchanged.
    pub filter: ClassFilter,
    /// The incremental cache's directory (created when missing). Without
    /// one, every input is processed and nothing is deleted.
    pub cache: Option<PathBuf>,
}

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

/// Runs a request. Failures of single input files are collected in the
/// outcome; the other inputs are still instrumented.
///
/// # Errors
/// When the run cannot be done at all: inputs, output and cache overlap,
/// the output or cache directory is a file or cannot be created or
/// written, or a lock cannot be taken. Nothing is written then.
pub fn instrument(request: &InstrumentRequest) -> Result<InstrumentOutcome, EngineError> {
    check_paths(request)?;
    let output_error = |source| EngineError::Output {
        path: request.output.clone(),
        source,
    };
    fs::create_dir_all(&request.output).map_err(output_error)?;
    let output_dir = fs::canonicalize(&request.output).map_err(output_error)?;

    let cache = match &request.cache {
        Some(dir) => Some(Cache::open(dir).map_err(|source| EngineError::Cache {
            path: dir.clone(),
            source,
        })?),
        None => None,
    };
    // Locks: the cache's first, then the output directory's, always in
    // that order. They are advisory `flock`s, released when the files close
    // (also when the process dies).
    let mut cache_lock = match &cache {
        Some(cache) => {
            let path = cache.lock_path();
            let file = cache.lock_file().map_err(|source| EngineError::Lock {
                path: path.clone(),
                source,
            })?;
            Some((path, fd_lock::RwLock::new(file)))
        }
        None => None,
    };
    let _cache_guard = match &mut cache_lock {
        Some((path, lock)) => Some(lock.write().map_err(|source| EngineError::Lock {
            path: path.clone(),
            source,
        })?),
        None => None,
    };
    let (lock_path, lock_file) = output_lock_file(&request.output).map_err(output_error)?;
    let mut output_lock = fd_lock::RwLock::new(lock_file);
    let _output_guard = output_lock.write().map_err(|source| EngineError::Lock {
        path: lock_path,
        source,
    })?;
    temporary_builder()
        .tempfile_in(&request.output)
        .map_err(output_error)?;
    // Under both locks: what is left is from a run that was killed.
    remove_temporaries(&request.output, usize::MAX);
    if let Some(cache) = &cache {
        cache.remove_temporaries();
    }

    let started = nanos_since_epoch(SystemTime::now());
    let fingerprint = scheme_fingerprint(&request.scheme.identifier());
    let run_fingerprint = Sha::of(format!("{fingerprint} filter {:?}", request.filter).as_bytes());
    let mut outcome = InstrumentOutcome::default();
    let (previous, problem) = match &cache {
        Some(cache) => cache.load_manifest(&output_dir),
        None => (None, None),
    };
    outcome.cache_problems.extend(problem);
    let objects = cache.as_ref().map(Cache::objects);
    let usable = previous.as_ref().filter(|m| m.fingerprint == run_fingerprint);
    let run = Run {
        request,
        fingerprint,
        objects: objects.as_ref(),
        previous: usable,
        index: usable
            .map(|m| m.units.iter().map(|(k, r)| (k.as_str(), r)).collect())
            .unwrap_or_default(),
    };

    let mut tally = Tally::default();
    let mut claims = Claims::default();
    for path in &request.inputs {
        match Input::open(path) {
            Ok(input) => match input.kind() {
                InputKind::Directory | InputKind::ClassFile => run.files(&input, &mut claims, &mut tally),
                InputKind::Jar | InputKind::Jmod => {
                    let result = run.archive(&input, &mut claims);
                    tally.add(result);
                }
            },
            Err(error) => {
                tally.failures.push(error.into());
                tally.changed = true;
            }
        }
    }

    let Tally {
        counts,
        records,
        warnings,
        mut problems,
        failures,
        failed_keys,
        stale,
        mut changed,
    } = tally;
    for path in stale {
        if remove_output(&request.output, &path) {
            changed = true;
        }
    }
    // Every record of a run that checked nothing is a previous one, kept
    // under its key with its outputs: the same number of them means the
    // same manifest, and nothing to delete.
    let unchanged = !changed && run.previous.is_some_and(|p| p.units.len() == records.len());
    if let Some(previous) = previous.as_ref().filter(|_| !unchanged) {
        let produced: HashSet<&str> = records
            .iter()
            .flat_map(|(_, record)| record.outputs.iter().map(|o| o.path.as_str()))
            .collect();
        for (key, record) in &previous.units {
            for output in &record.outputs {
                if !produced.contains(output.path.as_str())
                    && remove_output(&request.output, &output.path)
                    && !failed_keys.contains(key)
                {
                    outcome.outputs_deleted += 1;
                }
            }
        }
    }
    if let Some(objects) = &objects {
        problems.extend(objects.finish());
    }
    if let Some(cache) = cache.as_ref().filter(|_| !unchanged) {
        let mut manifest = Manifest::new(run_fingerprint, &output_dir, started);
        manifest.units = records.into_iter().collect();
        problems.extend(cache.save_manifest(&manifest).err());
    }
    outcome.classes_rewritten = counts.rewritten;
    outcome.classes_reused = counts.reused;
    outcome.classes_unchanged = counts.unchanged;
    outcome.resources_copied = counts.copied;
    outcome.warnings = warnings;
    outcome.cache_problems.extend(problems);
    outcome.failures = failures;
    Ok(outcome)
}

/// Refuses, before anything is written, a request whose inputs, output
/// and cache overlap ([`crate::overlap`]), or whose output or cache
/// directory exists as something else than a directory.
fn check_paths(request: &InstrumentRequest) -> Result<(), EngineError> {
    let inputs = request
        .inputs
        .iter()
        .map(|input| (PathRole::Input, input.as_path()));
    let output = std::iter::once((PathRole::Output, request.output.as_path()));
    let cache = request
        .cache
        .iter()
        .map(|cache| (PathRole::Cache, cache.as_path()));
    let paths: Vec<(PathRole, &Path)> = inputs.chain(output).chain(cache).collect();
    check_apart(&paths)?;
    for dir in std::iter::once(&request.output).chain(&request.cache) {
        if fs::metadata(dir).is_ok_and(|m| !m.is_dir()) {
            return Err(EngineError::NotADirectory { path: dir.clone() });
        }
    }
    Ok(())
}

/// What a run locks to keep other runs off its output directory: the
/// directory itself where it can be opened as a file (Unix), else a
/// `.jp-lock` file in it.
fn output_lock_file(output: &Path) -> io::Result<(PathBuf, fs::File)> {
    if cfg!(unix) {
        Ok((output.to_owned(), fs::File::open(output)?))
    } else {
        let path = output.join(".jp-lock");
        let file = fs::File::options()
            .write(true)
            .create(true)
            .truncate(false)
            .open(&path)?;
        Ok((path, file))
    }
}

/// Deletes the output file at `relative` (when it is a safe relative path)
/// and the directories it leaves empty; whether a file was deleted.
fn remove_output(output: &Path, relative: &str) -> bool {
    let Some(relative) = safe_relative_path(relative) else {
        return false;
    };
    let path = output.join(&relative);
    if fs::remove_file(&path).is_err() {
        return false;
    }
    let mut dir = relative.parent();
    while let Some(parent) = dir.filter(|d| !d.as_os_str().is_empty()) {
        if fs::remove_dir(output.join(parent)).is_err() {
            break;
        }
        dir = parent.parent();
    }
    true
}

/// How many files of each kind a unit wrote (or found in place).
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    rewritten: usize,
    reused: usize,
    unchanged: usize,
    copied: usize,
}

impl Counts {
    fn add(&mut self, other: Counts) {
        self.rewritten += other.rewritten;
        self.reused += other.reused;
        self.unchanged += other.unchanged;
        self.copied += other.copied;
    }

    /// The counts of a unit found up to date: its rewritten classes are reused.
    fn of_record(record: &UnitRecord) -> Counts {
        Counts {
            rewritten: 0,
            reused: record.instrumented as usize,
            unchanged: record.unchanged as usize,
            copied: record.copied as usize,
        }
    }
}

/// What became of one unit (an input file).
struct UnitResult {
    /// Its absolute path, the manifest's key.
    key: String,
    /// Where warnings about it (or its entries) point.
    location: Location,
    /// Cache entries found damaged on the way.
    problems: Vec<CacheProblem>,
    outcome: Result<Done, Failed>,
}

/// A unit whose outputs are in place.
struct Done {
    record: UnitRecord,
    counts: Counts,
    /// Whether it did more than find its input's stat as recorded.
    checked: bool,
}

/// A unit that failed, and what of its output must go.
struct Failed {
    failure: Box<InstrumentFailure>,
    /// Output files (relative) that it wrote before and no longer owns.
    stale: Vec<String>,
}

/// What the units of a run add up to.
#[derive(Default)]
struct Tally {
    counts: Counts,
    records: Vec<(String, UnitRecord)>,
    warnings: Vec<LocatedWarning>,
    problems: Vec<CacheProblem>,
    failures: Vec<InstrumentFailure>,
    failed_keys: HashSet<String>,
    stale: Vec<String>,
    /// Whether anything differs from the previous manifest's view.
    changed: bool,
}

impl Tally {
    fn add(&mut self, result: UnitResult) {
        self.problems.extend(result.problems);
        match result.outcome {
            Ok(done) => {
                self.counts.add(done.counts);
                self.changed |= done.checked;
                self.warnings
                    .extend(done.record.warnings.iter().map(|w| LocatedWarning {
                        location: match &w.entry {
                            Some(entry) => Location {
                                file: result.location.file.clone(),
                                entry: Some(entry.clone()),
                            },
                            None => result.location.clone(),
                        },
                        warning: w.warning.clone(),
                    }));
                self.records.push((result.key, done.record));
            }
            Err(failed) => {
                self.changed = true;
                self.failures.push(*failed.failure);
                self.stale.extend(failed.stale);
                self.failed_keys.insert(result.key);
            }
        }
    }
}

/// Which input file writes each output file (relative, `/`-separated).
#[derive(Default)]
struct Claims(HashMap<String, PathBuf>);

impl Claims {
    /// Records that `input` writes `output`.
    ///
    /// # Errors
    /// A conflict naming both inputs when another input writes it already.
    fn claim(&mut self, output_dir: &Path, output: &str, input: &Path) -> Result<(), InstrumentFailure> {
        match self.0.entry(output.to_owned()) {
            Entry::Occupied(first) => Err(InstrumentFailure::Conflict {
                path: output_dir.join(output),
                first: first.get().clone(),
                second: input.to_owned(),
            }),
            Entry::Vacant(vacant) => {
                vacant.insert(input.to_owned());
                Ok(())
            }
        }
    }
}

/// A file of a directory input, or a class-file input.
struct FileUnit {
    path: PathBuf,
    key: String,
    /// Its name relative to the input root, `/`-separated; also its
    /// output file's, relative to the output directory.
    name: String,
}

/// How one class or resource is written.
struct Transformed {
    /// The bytes to write; `None`: the input's.
    bytes: Option<Vec<u8>>,
    kind: Kind,
    warnings: Vec<KeptWarning>,
    /// The key under which this new rewrite is to be stored, once written.
    new_object: Option<Sha>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Kind {
    Resource,
    Unchanged,
    Rewritten,
    Reused,
}

impl Kind {
    fn counts(self) -> Counts {
        let mut counts = Counts::default();
        match self {
            Kind::Resource => counts.copied = 1,
            Kind::Unchanged => counts.unchanged = 1,
            Kind::Rewritten => counts.rewritten = 1,
            Kind::Reused => counts.reused = 1,
        }
        counts
    }
}

/// The state of one run.
struct Run<'a> {
    request: &'a InstrumentRequest,
    /// See [`scheme_fingerprint`].
    fingerprint: String,
    objects: Option<&'a ObjectStore>,
    /// The previous manifest, when made under the same run fingerprint.
    previous: Option<&'a Manifest>,
    /// Its records by key (faster to look up than its ordered map).
    index: HashMap<&'a str, &'a UnitRecord>,
}

impl Run<'_> {
    /// The units of a directory or class-file input, processed in parallel.
    fn files(&self, input: &Input, claims: &mut Claims, tally: &mut Tally) {
        let root = std::path::absolute(input.path()).unwrap_or_else(|_| input.path().to_owned());
        let listed: Vec<Result<(PathBuf, String), InputError>> = match input.kind() {
            InputKind::ClassFile => {
                let name = input.path().file_name().unwrap_or_default().to_string_lossy();
                vec![Ok((input.path().to_owned(), name.into_owned()))]
            }
            _ => input.files().map(|f| f.map(|f| (f.path, f.name))).collect(),
        };
        let mut units = Vec::with_capacity(listed.len());
        for item in listed {
            let (path, name) = match item {
                Ok(item) => item,
                Err(error) => {
                    tally.failures.push(error.into());
                    tally.changed = true;
                    continue;
                }
            };
            let key = match input.kind() {
                InputKind::ClassFile => root.to_string_lossy().into_owned(),
                _ => root.join(&name).to_string_lossy().into_owned(),
            };
            if let Err(conflict) = claims.claim(&self.request.output, &name, &path) {
                tally.failures.push(conflict);
                tally.changed = true;
                continue;
            }
            units.push(FileUnit { path, key, name });
        }
        let results: Vec<UnitResult> = units.into_par_iter().map(|unit| self.file(unit)).collect();
        for result in results {
            tally.add(result);
        }
    }

    /// The previous record of `key`, if usable.
    fn previous(&self, key: &str) -> Option<&UnitRecord> {
        self.index.get(key).copied()
    }

    /// Whether `record`'s input stat can be trusted as is.
    fn trusted(&self, record: &UnitRecord, stat: &Stat) -> bool {
        record.input == *stat && self.previous.is_some_and(|m| !m.is_racy(record))
    }

    /// Whether every output of `record` is in place as recorded.
    fn outputs_in_place(&self, record: &UnitRecord) -> bool {
        record.outputs.iter().all(|output| {
            safe_relative_path(&output.path).is_some_and(|relative| {
                Stat::of_path(&self.request.output.join(relative)) == Some(output.stat)
            })
        })
    }

    fn file(&self, unit: FileUnit) -> UnitResult {
        let mut problems = Vec::new();
        let outcome = self.file_outcome(&unit, &mut problems);
        UnitResult {
            key: unit.key,
            location: Location {
                file: unit.path,
                entry: None,
            },
            problems,
            outcome,
        }
    }

    fn file_outcome(&self, unit: &FileUnit, problems: &mut Vec<CacheProblem>) -> Result<Done, Failed> {
        let failed = |failure: InstrumentFailure| Failed {
            failure: Box::new(failure),
            stale: vec![unit.name.clone()],
        };
        let io_failure = |source| {
            failed(InstrumentFailure::Input(InputError::Io {
                path: unit.path.clone(),
                source,
            }))
        };
        let stat = Stat::of(&fs::metadata(&unit.path).map_err(io_failure)?);
        let previous = self
            .previous(&unit.key)
            .filter(|r| matches!(r.outputs.as_slice(), [o] if o.path == unit.name));
        if let Some(record) = previous {
            if self.trusted(record, &stat) && self.outputs_in_place(record) {
                return Ok(Done {
                    record: record.clone(),
                    counts: Counts::of_record(record),
                    checked: false,
                });
            }
        }
        let bytes = fs::read(&unit.path).map_err(io_failure)?;
        let sha = Sha::of(&bytes);
        if let Some(record) = previous {
            if record.sha256 == sha && self.outputs_in_place(record) {
                return Ok(Done {
                    record: UnitRecord {
                        input: stat,
                        ..record.clone()
                    },
                    counts: Counts::of_record(record),
                    checked: true,
                });
            }
        }
        let location = Location {
            file: unit.path.clone(),
            entry: None,
        };
        let transformed = self
            .transform(&unit.name, &bytes, Some(sha), problems)
            .map_err(|source| failed(InstrumentFailure::Class { location, source }))?;
        let target = self.request.output.join(&unit.name);
        let written = transformed.bytes.as_deref().unwrap_or(&bytes);
        let write_failure = |source| {
            failed(InstrumentFailure::Write {
                path: target.clone(),
                source,
            })
        };
        write_atomically(&target, written).map_err(write_failure)?;
        // Before the stat: linking the object changes the output's status time.
        self.store(&transformed, Some(&target), problems);
        let output_stat = Stat::of(&fs::metadata(&target).map_err(write_failure)?);
        let counts = transformed.kind.counts();
        Ok(Done {
            record: UnitRecord {
                input: stat,
                sha256: sha,
                outputs: vec![OutputRecord {
                    path: unit.name.clone(),
                    stat: output_stat,
                }],
                instrumented: (counts.rewritten + counts.reused) as u32,
                unchanged: counts.unchanged as u32,
                copied: counts.copied as u32,
                warnings: transformed
                    .warnings
                    .into_iter()
                    .map(|warning| EntryWarning { entry: None, warning })
                    .collect(),
            },
            counts,
            checked: true,
        })
    }

    /// How the file `name` holding `bytes` is written: resources and
    /// filtered-out classes as they are, other classes rewritten, through
    /// the cache when there is one (`sha`: the bytes' digest, if known).
    fn transform(
        &self,
        name: &str,
        bytes: &[u8],
        sha: Option<Sha>,
        problems: &mut Vec<CacheProblem>,
    ) -> Result<Transformed, InstrumentError> {
        let as_is = |kind| Transformed {
            bytes: None,
            kind,
            warnings: Vec::new(),
            new_object: None,
        };
        if !name.ends_with(".class") {
            return Ok(as_is(Kind::Resource));
        }
        if !self
            .request
            .filter
            .accepts(&ClassFilter::class_name_of_entry(name))
        {
            return Ok(as_is(Kind::Unchanged));
        }
        let cached = self.objects.map(|objects| {
            let key = object_key(&self.fingerprint, &sha.unwrap_or_else(|| Sha::of(bytes)));
            (objects, key)
        });
        if let Some((objects, key)) = &cached {
            match objects.get(key) {
                Ok(Some(CachedRewrite { bytes, warnings })) => {
                    let kind = if bytes.is_some() {
                        Kind::Reused
                    } else {
                        Kind::Unchanged
                    };
                    return Ok(Transformed {
                        bytes,
                        kind,
                        warnings,
                        new_object: None,
                    });
                }
                Ok(None) => {}
                Err(problem) => problems.push(problem),
            }
        }
        let Rewritten { bytes, warnings } = match self.request.scheme.rewrite_class(bytes) {
            Err(InstrumentError::ClassFile(error)) if is_for_a_future_jvm(name, &error) => {
                // Not stored: the same bytes elsewhere are an error.
                let class = name.strip_suffix(".class").unwrap_or(name);
                let class = class.split('/').skip(3).collect::<Vec<_>>().join("/");
                return Ok(Transformed {
                    warnings: vec![KeptWarning {
                        class,
                        method: None,
                        reason: format!("class kept as it was: {error}"),
                    }],
                    ..as_is(Kind::Unchanged)
                });
            }
            result => result?,
        };
        let kind = if bytes.is_some() {
            Kind::Rewritten
        } else {
            Kind::Unchanged
        };
        Ok(Transformed {
            bytes,
            kind,
            warnings: warnings.into_iter().map(KeptWarning::from).collect(),
            new_object: cached.map(|(_, key)| key),
        })
    }

    /// Stores a new rewrite in the cache, if there is one: as a link to
    /// `output` when the class was written to a file of its own, else as a
    /// copy.
    fn store(&self, transformed: &Transformed, output: Option<&Path>, problems: &mut Vec<CacheProblem>) {
        if let (Some(objects), Some(key)) = (self.objects, &transformed.new_object) {
            let stored = objects.put(key, transformed.bytes.as_deref(), &transformed.warnings, output);
            problems.extend(stored.err());
        }
    }

    /// A jar or jmod: one unit, redone as a whole when its bytes change
    /// (its classes still come from the cache when it has them).
    fn archive(&self, input: &Input, claims: &mut Claims) -> UnitResult {
        let key = std::path::absolute(input.path())
            .unwrap_or_else(|_| input.path().to_owned())
            .to_string_lossy()
            .into_owned();
        let mut problems = Vec::new();
        let outcome = self.archive_outcome(input, &key, claims, &mut problems);
        UnitResult {
            key,
            location: Location {
                file: input.path().to_owned(),
                entry: None,
            },
            problems,
            outcome,
        }
    }

    fn archive_outcome(
        &self,
        input: &Input,
        key: &str,
        claims: &mut Claims,
        problems: &mut Vec<CacheProblem>,
    ) -> Result<Done, Failed> {
        let file_name = input.path().file_name().unwrap_or_default().to_string_lossy();
        let (jar_output, mirror_root) = match input.kind() {
            InputKind::Jar => (Some(file_name.into_owned()), None),
            _ => {
                let stem = input.path().file_stem().unwrap_or_default().to_string_lossy();
                (None, Some(stem.into_owned()))
            }
        };
        let failed = |failure: InstrumentFailure| Failed {
            failure: Box::new(failure),
            stale: jar_output.iter().cloned().collect(),
        };
        if let Some(name) = &jar_output {
            if let Err(conflict) = claims.claim(&self.request.output, name, input.path()) {
                return Err(Failed {
                    failure: Box::new(conflict),
                    stale: Vec::new(),
                });
            }
        }
        let mut claim_all = |outputs: &mut dyn Iterator<Item = &str>| {
            for output in outputs {
                if jar_output.as_deref() == Some(output) {
                    continue;
                }
                if let Err(conflict) = claims.claim(&self.request.output, output, input.path()) {
                    return Err(Failed {
                        failure: Box::new(conflict),
                        stale: Vec::new(),
                    });
                }
            }
            Ok(())
        };
        let io_failure = |source| {
            failed(InstrumentFailure::Input(InputError::Io {
                path: input.path().to_owned(),
                source,
            }))
        };
        let stat = Stat::of(&fs::metadata(input.path()).map_err(io_failure)?);
        let previous = self.previous(key);
        if let Some(record) = previous {
            if self.trusted(record, &stat) && self.outputs_in_place(record) {
                claim_all(&mut record.outputs.iter().map(|o| o.path.as_str()))?;
                return Ok(Done {
                    record: record.clone(),
                    counts: Counts::of_record(record),
                    checked: false,
                });
            }
        }
        let bytes = fs::read(input.path()).map_err(io_failure)?;
        let sha = Sha::of(&bytes);
        if let Some(record) = previous {
            if record.sha256 == sha && self.outputs_in_place(record) {
                claim_all(&mut record.outputs.iter().map(|o| o.path.as_str()))?;
                return Ok(Done {
                    record: UnitRecord {
                        input: stat,
                        ..record.clone()
                    },
                    counts: Counts::of_record(record),
                    checked: true,
                });
            }
        }
        let mut archive = input.archive_of(bytes).map_err(|error| failed(error.into()))?;
        let mut indices = Vec::with_capacity(archive.len());
        let mut entries = Vec::with_capacity(archive.len());
        for index in 0..archive.len() {
            if let Some(entry) = input.archive_entry(&mut archive, index) {
                entries.push(entry.map_err(|error| failed(error.into()))?);
                indices.push(index);
            }
        }
        if let Some(entry) = entries.iter().find(|e| safe_relative_path(&e.name).is_none()) {
            return Err(failed(InstrumentFailure::UnsafeEntryName {
                location: entry.location.clone(),
            }));
        }
        let results: Vec<Result<Transformed, InstrumentFailure>> = entries
            .par_iter()
            .map(|entry| {
                let mut problems = Vec::new();
                let result = self.transform(&entry.name, &entry.bytes, None, &mut problems);
                if let Ok(transformed) = &result {
                    self.store(transformed, None, &mut problems);
                }
                (result, problems)
            })
            .collect::<Vec<_>>()
            .into_iter()
            .zip(&entries)
            .map(|((result, entry_problems), entry)| {
                problems.extend(entry_problems);
                result.map_err(|source| InstrumentFailure::Class {
                    location: entry.location.clone(),
                    source,
                })
            })
            .collect();
        let mut files = Vec::with_capacity(entries.len());
        let mut counts = Counts::default();
        let mut warnings = Vec::new();
        for ((result, entry), index) in results.into_iter().zip(entries).zip(indices) {
            let transformed = result.map_err(failed)?;
            counts.add(transformed.kind.counts());
            warnings.extend(transformed.warnings.into_iter().map(|warning| EntryWarning {
                entry: Some(entry.name.clone()),
                warning,
            }));
            files.push(OutputFile {
                index,
                changed: transformed.bytes.is_some(),
                bytes: transformed.bytes.unwrap_or(entry.bytes),
                name: entry.name,
            });
        }
        if counts.rewritten + counts.reused > 0 {
            unsign(&mut files);
        }
        let outputs = match (&jar_output, &mirror_root) {
            (Some(name), _) => {
                let target = self.request.output.join(name);
                let write_failure = |source| {
                    failed(InstrumentFailure::Write {
                        path: target.clone(),
                        source,
                    })
                };
                let jar = build_jar(&mut archive, &files).map_err(write_failure)?;
                write_atomically(&target, &jar).map_err(write_failure)?;
                let stat = Stat::of(&fs::metadata(&target).map_err(write_failure)?);
                vec![OutputRecord {
                    path: name.clone(),
                    stat,
                }]
            }
            (None, root) => {
                let root = root.as_deref().unwrap_or_default();
                let names: Vec<String> = files.iter().map(|f| format!("{root}/{}", f.name)).collect();
                claim_all(&mut names.iter().map(String::as_str))?;
                names
                    .par_iter()
                    .zip(&files)
                    .map(|(name, file)| {
                        let target = self.request.output.join(name);
                        let write_failure = |source| InstrumentFailure::Write {
                            path: target.clone(),
                            source,
                        };
                        write_atomically(&target, &file.bytes).map_err(write_failure)?;
                        let stat = Stat::of(&fs::metadata(&target).map_err(write_failure)?);
                        Ok(OutputRecord {
                            path: name.clone(),
                            stat,
                        })
                    })
                    .collect::<Result<Vec<_>, InstrumentFailure>>()
                    .map_err(failed)?
            }
        };
        Ok(Done {
            record: UnitRecord {
                input: stat,
                sha256: sha,
                outputs,
                instrumented: (counts.rewritten + counts.reused) as u32,
                unchanged: counts.unchanged as u32,
                copied: counts.copied as u32,
                warnings,
            },
            counts,
            checked: true,
        })
    }
}

impl fmt::Display for LocatedWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.warning)
    }
}

/// Whether `error` says that the class `name` is newer than JP reads and
/// the class lies under a multi-release jar's `META-INF/versions/N/`, where
/// only a JVM of release N or later looks. Such a class is kept as it was
/// (with a warning) instead of failing its whole jar.
fn is_for_a_future_jvm(name: &str, error: &ClassFileError) -> bool {
    let versioned = name
        .strip_prefix("META-INF/versions/")
        .and_then(|rest| rest.split_once('/'))
        .is_some_and(|(version, _)| version.parse::<u32>().is_ok());
    versioned
        && matches!(
            error,
            ClassFileError::UnsupportedVersion { major, .. } if *major > jp_classfile::MAX_MAJOR_VERSION
        )
}
