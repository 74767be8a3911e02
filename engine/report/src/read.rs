//! Reading the profiles of a report and merging them into one tree, with
//! the warnings a reader of the report should see: a profile given twice,
//! two files with the same content, a sum that saturated.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, Read};
use std::path::{Path, PathBuf};

use jp_profile::{Metric, NodeId, Profile};

use crate::run::{ReportError, UnreadableProfiles};

/// The profiles of a report, merged, and what its reader should be told.
#[derive(Debug)]
pub struct Merged {
    /// Every profile read, merged into one.
    pub profile: Profile,
    /// What did not stop the report but may make it other than expected.
    pub warnings: Vec<ReportWarning>,
}

/// Something about the profiles that did not stop the report.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ReportWarning {
    /// The same file was given twice (the same path once symbolic links
    /// and `..` are resolved); it is counted once.
    #[error("{}: the same file as {}, counted once", path.display(), first.display())]
    SameFile {
        /// The later argument, left out.
        path: PathBuf,
        /// The earlier one.
        first: PathBuf,
    },
    /// Two different files have the same content, as a profile copied
    /// beside itself would; both are counted, as given.
    #[error("{}: the same content as {}, both counted", path.display(), first.display())]
    SameContent {
        /// The later file.
        path: PathBuf,
        /// The earlier one.
        first: PathBuf,
    },
    /// A sum of counts reached 2^64-1 while merging and stayed there.
    #[error(
        "{}: merging it, the {} of {context} reached 2^64-1 and stopped there (it and the totals above it are too low)",
        path.display(),
        match metric { Metric::Calls => "calls", Metric::Bytecodes => "bytecodes", Metric::Extra(_) => "values" }
    )]
    Saturated {
        /// The profile whose counts were being added.
        path: PathBuf,
        /// The context, as its frame and depth.
        context: String,
        /// Which count.
        metric: Metric,
    },
    /// No sample of a recording (`--samples`) had an instrumented method
    /// on its stack: all went under `(outside instrumented code)`, as they
    /// would for a recording of another program.
    #[error("{}: no sample ran instrumented code; is it a recording of the profiled run?", path.display())]
    NoSampleMatched {
        /// The recording.
        path: PathBuf,
    },
    /// A diff's extra metric is in the profiles of one side only: the
    /// other counts 0 in it everywhere, as if nothing there had any.
    #[error(
        "metric `{metric}`: the {} profiles have none, so it counts as 0 there \
         (were they instrumented without it?)",
        lacking.name()
    )]
    MetricOnOneSide {
        /// The metric's name.
        metric: String,
        /// The side without it.
        lacking: crate::diff::Lacking,
    },
}

/// Every profile merged into one, each file once; the errors of all that
/// failed otherwise. Only the first sum that saturates is told.
pub fn read_all(paths: &[PathBuf]) -> Result<Merged, ReportError> {
    let mut merged: Option<Profile> = None;
    let mut errors = Vec::new();
    let mut warnings = Vec::new();
    // (canonical path, as given) of the files read.
    let mut read: Vec<(PathBuf, &Path)> = Vec::new();
    let mut saturated = false;
    for path in paths {
        let canonical = std::fs::canonicalize(path).ok();
        if let Some(canonical) = &canonical {
            if let Some((_, first)) = read.iter().find(|(seen, _)| seen == canonical) {
                warnings.push(ReportWarning::SameFile {
                    path: path.clone(),
                    first: first.to_path_buf(),
                });
                continue;
            }
            read.push((canonical.clone(), path));
        }
        match jp_profile::parse_file(path) {
            // Once one failed no report is made, so later profiles are only checked.
            Ok(_) if !errors.is_empty() => {}
            Ok(profile) => match &mut merged {
                None => merged = Some(profile),
                Some(merged) => {
                    if let Some((node, metric)) = merged.merge(&profile) {
                        if !std::mem::replace(&mut saturated, true) {
                            let context = describe(merged, node);
                            warnings.push(ReportWarning::Saturated {
                                path: path.clone(),
                                context,
                                metric,
                            });
                        }
                    }
                }
            },
            Err(error) => errors.push(error),
        }
    }
    if !errors.is_empty() {
        return Err(ReportError::Unreadable(UnreadableProfiles(errors)));
    }
    let profile = merged.ok_or(ReportError::NoProfiles)?;
    let files: Vec<&Path> = read.iter().map(|&(_, path)| path).collect();
    warnings.extend(same_contents(&files));
    Ok(Merged { profile, warnings })
}

/// `demo.A.f(int):int at depth 3`: a context's frame as the text report
/// writes it, and its depth.
fn describe(profile: &Profile, node: NodeId) -> String {
    let mut depth = 0;
    let mut at = node;
    while at != NodeId::ROOT {
        depth += 1;
        at = profile.node(at).parent;
    }
    let frame = crate::names::readable(profile.frame(profile.node(node).frame)).into_owned();
    format!("{frame} at depth {depth}")
}

/// A warning for each file whose bytes equal those of an earlier one;
/// only files of the same length are compared, which few are.
fn same_contents(files: &[&Path]) -> Vec<ReportWarning> {
    let lengths: Vec<Option<u64>> = files
        .iter()
        .map(|path| std::fs::metadata(path).ok().map(|m| m.len()))
        .collect();
    let mut copies = HashSet::new();
    let mut warnings = Vec::new();
    for later in 1..files.len() {
        for first in 0..later {
            if lengths[later].is_none() || lengths[first] != lengths[later] || copies.contains(&first) {
                continue;
            }
            if equal_files(files[first], files[later]).unwrap_or(false) {
                copies.insert(later);
                warnings.push(ReportWarning::SameContent {
                    path: files[later].to_path_buf(),
                    first: files[first].to_path_buf(),
                });
                break;
            }
        }
    }
    warnings
}

fn equal_files(a: &Path, b: &Path) -> io::Result<bool> {
    let (mut a, mut b) = (File::open(a)?, File::open(b)?);
    let (mut chunk_a, mut chunk_b) = (vec![0u8; 1 << 16], vec![0u8; 1 << 16]);
    loop {
        let read = fill(&mut a, &mut chunk_a)?;
        if read != fill(&mut b, &mut chunk_b)? || chunk_a[..read] != chunk_b[..read] {
            return Ok(false);
        }
        if read == 0 {
            return Ok(true);
        }
    }
}

/// Reads until `buf` is full or the file ends; the bytes read.
fn fill(file: &mut File, buf: &mut [u8]) -> io::Result<usize> {
    let mut filled = 0;
    while filled < buf.len() {
        match file.read(&mut buf[filled..])? {
            0 => break,
            read => filled += read,
        }
    }
    Ok(filled)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::write_profile;

    fn own_calls(profile: &Profile) -> u64 {
        profile.total(Metric::Calls)
    }

    #[test]
    fn the_same_file_given_twice_is_counted_once_and_told() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let again = dir.path().join(".").join("a.jpprof");
        let merged = read_all(&[a.clone(), again.clone()]).unwrap();
        assert_eq!((own_calls(&merged.profile), merged.profile.files), (1, 1));
        assert_eq!(
            merged.warnings,
            [ReportWarning::SameFile {
                path: again.clone(),
                first: a.clone()
            }]
        );
        assert!(merged.warnings[0].to_string().ends_with("a.jpprof, counted once"));
    }

    #[test]
    fn two_files_with_the_same_content_are_both_counted_and_told() {
        let dir = tempfile::tempdir().unwrap();
        let a = write_profile(dir.path(), "a.jpprof", &[(&["m.A.main()V"], 1, 10)]);
        let b = write_profile(dir.path(), "b.jpprof", &[(&["m.A.main()V"], 2, 10)]);
        let copy = dir.path().join("copy.jpprof");
        std::fs::copy(&a, &copy).unwrap();
        let merged = read_all(&[a.clone(), b, copy.clone()]).unwrap();
        assert_eq!(own_calls(&merged.profile), 4);
        assert_eq!(
            merged.warnings,
            [ReportWarning::SameContent { path: copy, first: a }]
        );
    }

    #[test]
    fn a_sum_that_saturates_is_told_once_with_its_file_and_context() {
        let dir = tempfile::tempdir().unwrap();
        let big = [(&["m.A.main()V", "m.A.f(I)J"][..], 1, u64::MAX - 5)];
        let a = write_profile(dir.path(), "a.jpprof", &big);
        let b = write_profile(dir.path(), "b.jpprof", &[(&["m.A.main()V", "m.A.f(I)J"], 1, 6)]);
        let c = write_profile(dir.path(), "c.jpprof", &[(&["m.A.main()V", "m.A.f(I)J"], 1, 7)]);
        let merged = read_all(&[a, b.clone(), c]).unwrap();
        assert_eq!(merged.profile.total(Metric::Bytecodes), u64::MAX);
        assert_eq!(
            merged.warnings,
            [ReportWarning::Saturated {
                path: b,
                context: "m.A.f(int):long at depth 2".into(),
                metric: Metric::Bytecodes
            }]
        );
    }
}
