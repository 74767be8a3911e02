//! The unit of work: one input *file* (a file of a directory input, a
//! class file, a jar or a jmod), and the one decision of what its previous
//! run's record lets this run reuse ([`reuse`]).
//!
//! Every unit goes the same way: its stat is compared with its record; if
//! that does not settle it, its bytes are read and their digest compared;
//! only then is it processed (a file here, an archive in `archive.rs`).

use std::cell::OnceCell;
use std::fs;
use std::path::PathBuf;

use super::archive::Layout;
use super::outcome::InstrumentFailure;
use super::{Counts, Run};
use crate::cache::{CacheProblem, EntryWarning, OutputRecord, Sha, Stat, UnitRecord};
use crate::directory::LastDirectory;
use crate::input::{Input, InputError, Location};
use crate::output::write_atomically;

/// One input file, processed (or reused) as a whole.
pub(super) struct Unit {
    /// The input file.
    pub(super) path: PathBuf,
    /// Its absolute path, the manifest's key.
    pub(super) key: String,
    pub(super) kind: UnitKind,
}

pub(super) enum UnitKind {
    /// A file of a directory input, or a class-file input. `name` is its
    /// name relative to the input root, `/`-separated; also its output
    /// file's, relative to the output directory.
    File { name: String },
    /// A jar or jmod, and where its files go.
    Archive { input: Input, layout: Layout },
}

impl Unit {
    /// The output this unit owns before it is processed (claimed by it
    /// first): a file's, or a jar's; a mirrored jmod owns none.
    fn owned_output(&self) -> Option<&str> {
        match &self.kind {
            UnitKind::File { name } => Some(name),
            UnitKind::Archive { layout, .. } => layout.jar_name(),
        }
    }

    /// A failure of this unit, which loses its owned output.
    pub(super) fn failed(&self, failure: InstrumentFailure) -> Failed {
        Failed {
            failure: Box::new(failure),
            stale: self.owned_output().map(str::to_owned).into_iter().collect(),
        }
    }
}

/// Where a thread stats the input and output files of its units: files
/// come in directory order, and each is looked up by name in the directory
/// of the one before when it lies there too ([`LastDirectory`]).
#[derive(Default)]
pub(super) struct UnitStats {
    input: LastDirectory,
    pub(super) output: LastDirectory,
}

/// What became of one unit.
pub(super) struct UnitResult {
    /// Its absolute path, the manifest's key.
    pub(super) key: String,
    /// Where warnings about it (or its entries) point.
    pub(super) location: Location,
    /// Cache entries found damaged on the way.
    pub(super) problems: Vec<CacheProblem>,
    pub(super) outcome: Result<Done, Failed>,
}

/// A unit whose outputs are in place.
pub(super) struct Done {
    pub(super) record: UnitRecord,
    pub(super) counts: Counts,
    /// Whether it did more than find its input's stat as recorded.
    pub(super) checked: bool,
}

impl Done {
    /// A unit that this run processed, from its input of `stat` and
    /// digest `sha`.
    pub(super) fn processed(
        stat: Stat,
        sha: Sha,
        outputs: Vec<OutputRecord>,
        counts: Counts,
        warnings: Vec<EntryWarning>,
    ) -> Done {
        Done {
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
        }
    }
}

/// A unit's input file as read: its stat, its bytes and their digest.
pub(super) struct InputBytes {
    pub(super) stat: Stat,
    pub(super) bytes: Vec<u8>,
    pub(super) sha: Sha,
}

/// A unit that failed, and what of its output must go.
pub(super) struct Failed {
    pub(super) failure: Box<InstrumentFailure>,
    /// Output files (relative) that it wrote before and no longer owns.
    pub(super) stale: Vec<String>,
}

/// A unit's record from the previous run under the same settings (another
/// run fingerprint leaves no previous record), and what this run finds of it.
pub(super) struct Previous<'a> {
    pub(super) record: &'a UnitRecord,
    /// Whether the recorded stat lies too close to the start of the run
    /// that recorded it to be trusted alone.
    pub(super) racy: bool,
    /// Whether every recorded output is in place as recorded; asked only
    /// when the input looks unchanged, as it stats every output.
    pub(super) outputs_in_place: &'a dyn Fn() -> bool,
}

/// What a unit's previous record lets the run reuse.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Reuse {
    /// The input's stat is as recorded and trusted, its outputs in place:
    /// the record stands, and the input is not even read.
    UpToDate,
    /// The input's bytes are as recorded, its outputs in place: the record
    /// stands, with the input's new stat.
    SameBytes,
    /// The stat does not settle it: the bytes must be read and hashed.
    NeedsBytes,
    /// Nothing: the unit is processed.
    Redo,
}

/// The reuse decision for a unit whose input has `stat` and, once read,
/// the digest `sha`. Without a digest it decides from the stat alone
/// ([`Reuse::UpToDate`] or [`Reuse::NeedsBytes`]); with one, from the
/// bytes ([`Reuse::SameBytes`] or [`Reuse::Redo`]).
pub(super) fn reuse(previous: Option<&Previous<'_>>, stat: &Stat, sha: Option<&Sha>) -> Reuse {
    let Some(previous) = previous else {
        return Reuse::Redo;
    };
    let unchanged = match sha {
        None => previous.record.input == *stat && !previous.racy,
        Some(sha) => previous.record.sha256 == *sha,
    };
    let reusable = unchanged && (previous.outputs_in_place)();
    match (sha, reusable) {
        (None, true) => Reuse::UpToDate,
        (None, false) => Reuse::NeedsBytes,
        (Some(_), true) => Reuse::SameBytes,
        (Some(_), false) => Reuse::Redo,
    }
}

impl Run<'_> {
    /// Processes `unit`, or reuses what its previous run left.
    pub(super) fn unit(&self, unit: Unit, stats: &UnitStats) -> UnitResult {
        let mut problems = Vec::new();
        let outcome = self.unit_outcome(&unit, stats, &mut problems);
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

    fn unit_outcome(
        &self,
        unit: &Unit,
        stats: &UnitStats,
        problems: &mut Vec<CacheProblem>,
    ) -> Result<Done, Failed> {
        if let UnitKind::Archive { layout, .. } = &unit.kind {
            if let Some(name) = layout.jar_name() {
                self.claim(name, &unit.path).map_err(Failed::unowned)?;
            }
        }
        let io_failure = |source| {
            unit.failed(InstrumentFailure::Input(InputError::Io {
                path: unit.path.clone(),
                source,
            }))
        };
        let stat = stats.input.stat(&unit.path).map_err(io_failure)?;
        let record = self.previous(&unit.key).filter(|record| match &unit.kind {
            UnitKind::File { name } => matches!(record.outputs.as_slice(), [o] if o.path == *name),
            UnitKind::Archive { .. } => true,
        });
        let in_place = OnceCell::new();
        let outputs_in_place =
            || *in_place.get_or_init(|| record.is_some_and(|r| self.outputs_in_place(r, stats)));
        let previous = record.map(|record| Previous {
            record,
            racy: self.is_racy(record),
            outputs_in_place: &outputs_in_place,
        });
        if let (Reuse::UpToDate, Some(record)) = (reuse(previous.as_ref(), &stat, None), record) {
            self.claim_recorded(unit, record)?;
            return Ok(Done {
                record: record.clone(),
                counts: Counts::of_record(record),
                checked: false,
            });
        }
        let bytes = fs::read(&unit.path).map_err(io_failure)?;
        let sha = Sha::of(&bytes);
        if let (Reuse::SameBytes, Some(record)) = (reuse(previous.as_ref(), &stat, Some(&sha)), record) {
            self.claim_recorded(unit, record)?;
            return Ok(Done {
                record: UnitRecord {
                    input: stat,
                    ..record.clone()
                },
                counts: Counts::of_record(record),
                checked: true,
            });
        }
        let read = InputBytes { stat, bytes, sha };
        match &unit.kind {
            UnitKind::File { name } => self.write_file(unit, name, read, problems),
            UnitKind::Archive { input, layout } => self.write_archive(unit, input, layout, read, problems),
        }
    }

    /// Claims the recorded outputs of a reused unit that it did not own
    /// before (those of a mirrored jmod).
    fn claim_recorded(&self, unit: &Unit, record: &UnitRecord) -> Result<(), Failed> {
        let owned = unit.owned_output();
        record
            .outputs
            .iter()
            .filter(|output| owned != Some(output.path.as_str()))
            .try_for_each(|output| self.claim(&output.path, &unit.path))
            .map_err(Failed::unowned)
    }

    /// A file unit, rewritten (or copied) to its output file.
    fn write_file(
        &self,
        unit: &Unit,
        name: &str,
        read: InputBytes,
        problems: &mut Vec<CacheProblem>,
    ) -> Result<Done, Failed> {
        let location = Location {
            file: unit.path.clone(),
            entry: None,
        };
        let transformed = self
            .transform(name, &read.bytes, Some(read.sha), problems)
            .map_err(|source| unit.failed(InstrumentFailure::Class { location, source }))?;
        let target = self.request.output.join(name);
        let written = transformed.bytes.as_deref().unwrap_or(&read.bytes);
        let write_failure = |source| {
            unit.failed(InstrumentFailure::Write {
                path: target.clone(),
                source,
            })
        };
        write_atomically(&target, written).map_err(write_failure)?;
        // Before the stat: linking the object changes the output's status time.
        self.store(&transformed, Some(&target), problems);
        let output_stat = Stat::of(&fs::metadata(&target).map_err(write_failure)?);
        let outputs = vec![OutputRecord {
            path: name.to_owned(),
            stat: output_stat,
        }];
        let warnings = transformed
            .warnings
            .into_iter()
            .map(|warning| EntryWarning { entry: None, warning })
            .collect();
        let counts = transformed.kind.counts();
        Ok(Done::processed(read.stat, read.sha, outputs, counts, warnings))
    }
}

impl Failed {
    /// A failure that loses no output: a conflict over an output that
    /// another input owns.
    pub(super) fn unowned(failure: InstrumentFailure) -> Failed {
        Failed {
            failure: Box::new(failure),
            stale: Vec::new(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn stat(mtime: u64) -> Stat {
        Stat {
            size: 10,
            mtime,
            ctime: mtime,
        }
    }

    fn record(input: Stat, sha: Sha) -> UnitRecord {
        UnitRecord {
            input,
            sha256: sha,
            outputs: Vec::new(),
            instrumented: 1,
            unchanged: 0,
            copied: 0,
            warnings: Vec::new(),
        }
    }

    fn previous<'a>(
        record: &'a UnitRecord,
        racy: bool,
        outputs_in_place: &'a dyn Fn() -> bool,
    ) -> Previous<'a> {
        Previous {
            record,
            racy,
            outputs_in_place,
        }
    }

    /// The decision before and after reading, for `previous` and an input
    /// with `stat` and digest `sha`.
    fn decide(previous: Option<&Previous<'_>>, stat: Stat, sha: Sha) -> (Reuse, Reuse) {
        (reuse(previous, &stat, None), reuse(previous, &stat, Some(&sha)))
    }

    #[test]
    fn a_unit_without_a_previous_record_is_redone_without_a_look_at_its_bytes() {
        let decided = decide(None, stat(1), Sha::of(b"A"));
        assert_eq!(decided, (Reuse::Redo, Reuse::Redo));
    }

    #[test]
    fn a_trusted_unchanged_stat_with_outputs_in_place_is_up_to_date() {
        let record = record(stat(1), Sha::of(b"A"));
        let previous = previous(&record, false, &|| true);
        assert_eq!(reuse(Some(&previous), &stat(1), None), Reuse::UpToDate);
    }

    #[test]
    fn a_changed_stat_with_the_same_bytes_keeps_the_record() {
        let record = record(stat(1), Sha::of(b"A"));
        let previous = previous(&record, false, &|| true);
        let decided = decide(Some(&previous), stat(2), Sha::of(b"A"));
        assert_eq!(decided, (Reuse::NeedsBytes, Reuse::SameBytes));
    }

    #[test]
    fn a_racy_stat_is_not_trusted_alone() {
        let record = record(stat(1), Sha::of(b"A"));
        let previous = previous(&record, true, &|| true);
        let decided = decide(Some(&previous), stat(1), Sha::of(b"A"));
        assert_eq!(decided, (Reuse::NeedsBytes, Reuse::SameBytes));
    }

    #[test]
    fn changed_bytes_are_redone() {
        let record = record(stat(1), Sha::of(b"A"));
        let previous = previous(&record, false, &|| true);
        let decided = decide(Some(&previous), stat(2), Sha::of(b"B"));
        assert_eq!(decided, (Reuse::NeedsBytes, Reuse::Redo));
    }

    #[test]
    fn an_unchanged_input_whose_outputs_moved_is_redone() {
        let record = record(stat(1), Sha::of(b"A"));
        let previous = previous(&record, false, &|| false);
        let decided = decide(Some(&previous), stat(1), Sha::of(b"A"));
        assert_eq!(decided, (Reuse::NeedsBytes, Reuse::Redo));
    }

    #[test]
    fn outputs_are_not_looked_at_for_a_changed_input() {
        let record = record(stat(1), Sha::of(b"A"));
        let previous = previous(&record, false, &|| panic!("outputs looked at"));
        let decided = decide(Some(&previous), stat(2), Sha::of(b"B"));
        assert_eq!(decided, (Reuse::NeedsBytes, Reuse::Redo));
    }
}
