//! Jar and jmod units: their entries read, each written as
//! [`Run::transform`] says, a signature dropped when classes were
//! rewritten, and the result written as a jar (`OUT/x.jar`) or mirrored
//! into a directory (`OUT/x/` for `x.jmod`). An entry whose name would
//! escape the output directory fails the whole archive.

use std::fs;

use rayon::prelude::*;

use super::outcome::InstrumentFailure;
use super::transform::Transformed;
use super::unit::{Done, Failed, InputBytes, Unit};
use super::{Counts, Run};
use crate::cache::{CacheProblem, EntryWarning, OutputRecord, Stat};
use crate::input::{Input, InputKind};
use crate::output::{safe_relative_path, write_atomically};
use crate::output_jar::{build_jar, unsign, OutputFile};

/// Where an archive's files go.
pub(super) enum Layout {
    /// Into a jar of this name in the output directory.
    Jar { name: String },
    /// Into files under this directory of the output directory.
    Mirror { root: String },
}

impl Layout {
    /// A jar `x.jar` stays a jar; a jmod `x.jmod` becomes the directory
    /// `x/` (a jmod's own format is for the JDK's tools only).
    pub(super) fn of(input: &Input) -> Layout {
        let path = input.path();
        match input.kind() {
            InputKind::Jar => Layout::Jar {
                name: path
                    .file_name()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
            },
            _ => Layout::Mirror {
                root: path
                    .file_stem()
                    .unwrap_or_default()
                    .to_string_lossy()
                    .into_owned(),
            },
        }
    }

    /// The output jar's name, for a jar.
    pub(super) fn jar_name(&self) -> Option<&str> {
        match self {
            Layout::Jar { name } => Some(name),
            Layout::Mirror { .. } => None,
        }
    }
}

impl Run<'_> {
    /// An archive unit whose file holds `bytes`, processed and written.
    pub(super) fn write_archive(
        &self,
        unit: &Unit,
        input: &Input,
        layout: &Layout,
        read: InputBytes,
        problems: &mut Vec<CacheProblem>,
    ) -> Result<Done, Failed> {
        let InputBytes { stat, bytes, sha } = read;
        let failed = |failure| unit.failed(failure);
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
        let outputs = match layout {
            Layout::Jar { name } => {
                let target = self.request.output.join(name);
                let write_failure = |source| {
                    failed(InstrumentFailure::Write {
                        path: target.clone(),
                        source,
                    })
                };
                let jar = build_jar(&mut archive, &files).map_err(write_failure)?;
                write_atomically(&target, &jar).map_err(write_failure)?;
                let output_stat = Stat::of(&fs::metadata(&target).map_err(write_failure)?);
                vec![OutputRecord {
                    path: name.clone(),
                    stat: output_stat,
                }]
            }
            Layout::Mirror { root } => {
                let names: Vec<String> = files.iter().map(|f| format!("{root}/{}", f.name)).collect();
                for name in &names {
                    self.claim(name, &unit.path).map_err(Failed::unowned)?;
                }
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
                        let output_stat = Stat::of(&fs::metadata(&target).map_err(write_failure)?);
                        Ok(OutputRecord {
                            path: name.clone(),
                            stat: output_stat,
                        })
                    })
                    .collect::<Result<Vec<_>, InstrumentFailure>>()
                    .map_err(failed)?
            }
        };
        Ok(Done::processed(stat, sha, outputs, counts, warnings))
    }
}
