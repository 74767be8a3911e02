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
//!
//! This module runs a request's inputs and keeps the manifest; `unit.rs`
//! holds the unit of work and its reuse decision, `archive.rs` jars and
//! jmods, `transform.rs` one class or resource, `lock.rs` the locks and
//! `outcome.rs` what a run reports.

mod archive;
mod lock;
mod outcome;
mod transform;
mod unit;

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::SystemTime;

use rayon::prelude::*;

use self::archive::Layout;
use self::lock::Lock;
use self::outcome::InstrumentFailure;
pub use self::outcome::{Message, Outcome, Warning};
use self::unit::{Unit, UnitKind, UnitResult, UnitStats};
pub use crate::cache::KeptWarning;
use crate::cache::{nanos_since_epoch, scheme_fingerprint, Cache, CacheProblem, Manifest, Sha, UnitRecord};
use crate::error::EngineError;
use crate::filter::ClassFilter;
use crate::input::{Input, InputError, InputKind, Location};
use crate::objects::ObjectStore;
use crate::output::{remove_temporaries, safe_relative_path, temporary_builder};
use crate::overlap::{check_apart, PathRole};
pub use crate::scheme::Scheme;

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

/// Runs a request. Failures of single input files are collected in the
/// outcome; the other inputs are still instrumented.
///
/// # Errors
/// When the run cannot be done at all: inputs, output and cache overlap,
/// the output or cache directory is a file or cannot be created or
/// written, or a lock cannot be taken. Nothing is written then.
pub fn instrument(request: &InstrumentRequest) -> Result<Outcome, EngineError> {
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
    // The cache's lock first, then the output directory's, always in that
    // order (see `lock.rs`).
    let mut cache_lock = cache.as_ref().map(Lock::of_cache).transpose()?;
    let _cache_guard = cache_lock.as_mut().map(Lock::hold).transpose()?;
    let mut output_lock = Lock::of_output(&request.output)?;
    let _output_guard = output_lock.hold()?;
    temporary_builder()
        .tempfile_in(&request.output)
        .map_err(output_error)?;
    let started = nanos_since_epoch(SystemTime::now());
    // Side by side, as none touches the others' files: under both locks,
    // what is left is from a run that was killed; the inputs are listed
    // meanwhile, since that needs no manifest.
    let ((), ((previous, manifest_problem), opened)) = rayon::join(
        || {
            remove_temporaries(&request.output, usize::MAX);
            if let Some(cache) = &cache {
                cache.remove_temporaries();
            }
        },
        || {
            rayon::join(
                || match &cache {
                    Some(cache) => cache.load_manifest(&output_dir),
                    None => (None, None),
                },
                || {
                    request
                        .inputs
                        .iter()
                        .map(|path| open_input(path))
                        .collect::<Vec<_>>()
                },
            )
        },
    );
    let fingerprint = scheme_fingerprint(&request.scheme.identifier());
    let run_fingerprint = Sha::of(format!("{fingerprint} filter {:?}", request.filter).as_bytes());
    let mut outcome = Outcome::default();
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
        claims: Mutex::default(),
    };

    let mut tally = Tally::default();
    for (opened, listed) in opened {
        match opened {
            Ok(input) => match input.kind() {
                InputKind::Directory | InputKind::ClassFile => run.files(&input, listed, &mut tally),
                InputKind::Jar | InputKind::Jmod => {
                    let unit = Unit {
                        path: input.path().to_owned(),
                        key: absolute(input.path()).to_string_lossy().into_owned(),
                        kind: UnitKind::Archive {
                            layout: Layout::of(&input),
                            input,
                        },
                    };
                    tally.add(run.unit(unit, &UnitStats::default()));
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
                    outcome.deleted += 1;
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
    let count = |n: usize| n as u64;
    outcome.rewritten = count(counts.rewritten);
    outcome.reused = count(counts.reused);
    outcome.unchanged = count(counts.unchanged);
    outcome.copied = count(counts.copied);
    outcome.warnings = warnings;
    let problems = manifest_problem.into_iter().chain(problems);
    outcome.warnings.extend(problems.map(Warning::from));
    outcome.errors = failures.iter().map(Message::from).collect();
    outcome.notes = request.filter.take_notes();
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

/// What the units of a run add up to.
#[derive(Default)]
struct Tally {
    counts: Counts,
    records: Vec<(String, UnitRecord)>,
    warnings: Vec<Warning>,
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
                self.warnings.extend(done.record.warnings.iter().map(|w| {
                    let location = Location {
                        file: result.location.file.clone(),
                        entry: w.entry.clone(),
                    };
                    Warning::kept(&location, w.warning.clone())
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
    /// The outputs claimed so far.
    claims: Mutex<Claims>,
}

impl Run<'_> {
    /// The units of a directory or class-file input, its files `listed`
    /// ([`open_input`]), processed in parallel.
    fn files(&self, input: &Input, listed: Vec<Listed>, tally: &mut Tally) {
        let root = absolute(input.path());
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
            if let Err(conflict) = self.claim(&name, &path) {
                tally.failures.push(conflict);
                tally.changed = true;
                continue;
            }
            units.push(Unit {
                path,
                key,
                kind: UnitKind::File { name },
            });
        }
        let results: Vec<UnitResult> = units
            .into_par_iter()
            .map_init(UnitStats::default, |stats, unit| self.unit(unit, stats))
            .collect();
        for result in results {
            tally.add(result);
        }
    }

    /// Records that `input` writes `output` (see [`Claims::claim`]).
    fn claim(&self, output: &str, input: &Path) -> Result<(), InstrumentFailure> {
        let mut claims = self.claims.lock().unwrap_or_else(PoisonError::into_inner);
        claims.claim(&self.request.output, output, input)
    }

    /// The previous record of `key`, if usable.
    fn previous(&self, key: &str) -> Option<&UnitRecord> {
        self.index.get(key).copied()
    }

    /// Whether `record`'s input stat was taken too close to the previous
    /// run's start to be trusted alone.
    fn is_racy(&self, record: &UnitRecord) -> bool {
        self.previous.is_none_or(|manifest| manifest.is_racy(record))
    }

    /// Whether every output of `record` is in place as recorded.
    fn outputs_in_place(&self, record: &UnitRecord, stats: &UnitStats) -> bool {
        record.outputs.iter().all(|output| {
            safe_relative_path(&output.path).is_some_and(|relative| {
                stats.output.stat(&self.request.output.join(relative)).ok() == Some(output.stat)
            })
        })
    }
}

/// A file of a directory or class-file input: its path, and its name
/// relative to the input (see [`crate::input::DirFile`]).
type Listed = Result<(PathBuf, String), InputError>;

/// The input at `path`, with its files when it is a directory or a class
/// file (none for an archive, whose unit reads it whole).
fn open_input(path: &Path) -> (Result<Input, InputError>, Vec<Listed>) {
    let input = Input::open(path);
    let listed = match &input {
        Ok(opened) if opened.kind() == InputKind::ClassFile => {
            let name = path.file_name().unwrap_or_default().to_string_lossy();
            vec![Ok((path.to_owned(), name.into_owned()))]
        }
        // A directory's files; an archive has none (`Input::files`).
        Ok(opened) => opened.files().map(|f| f.map(|f| (f.path, f.name))).collect(),
        Err(_) => Vec::new(),
    };
    (input, listed)
}

/// `path` made absolute (as it is when that fails): the manifest's keys.
fn absolute(path: &Path) -> PathBuf {
    std::path::absolute(path).unwrap_or_else(|_| path.to_owned())
}
