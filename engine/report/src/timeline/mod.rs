//! `jp report --timeline`: the snapshots that the periodic agent writes
//! (`jp.agent=periodic`, docs/runtime.md) read as one series of intervals,
//! each snapshot holding what the program ran since the one before
//! (docs/profile-format.md, "Snapshot series"). Written as text ([`text`]:
//! each interval's totals and top methods) or as one self-contained HTML
//! page ([`html`]: the top methods and contexts over the intervals).
//!
//! The snapshots are ordered by their number (`meta snapshot`), not by
//! the order given; they must be of one run (the same `pid` and `start`).
//! Their sum is [`Timeline::whole`], the profile at exit of that run.

pub mod html;
pub mod text;

use std::collections::HashMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jp_atomic_file::write_atomically;
use jp_profile::{FrameId, Metric, NodeId, Profile};

use crate::limit::LimitedWriter;
use crate::run::{ReportError, UnreadableProfiles};
use crate::{Format, Options};

/// What a snapshot's file name starts with, in the series' directory.
const SNAPSHOT_PREFIX: &str = "snapshot-";

/// Why a timeline was not made of the profiles given.
#[derive(Debug, thiserror::Error)]
pub enum TimelineError {
    /// A profile has no `snapshot` metadata (or not a number).
    #[error(
        "{}: not a snapshot (no `meta snapshot` record): a timeline is made of the snapshots that `-Djp.agent=periodic` writes",
        path.display()
    )]
    NotASnapshot {
        /// The profile.
        path: PathBuf,
    },
    /// Two snapshots of different runs (`pid` and `start` differ).
    #[error("{}: a snapshot of another run than {} (a timeline shows one run)", path.display(), first.display())]
    OtherRun {
        /// The later snapshot.
        path: PathBuf,
        /// The first one read.
        first: PathBuf,
    },
    /// Two files are the same snapshot of the run.
    #[error("{} and {}: both are snapshot {number}", first.display(), path.display())]
    SameNumber {
        /// The later file.
        path: PathBuf,
        /// The earlier one.
        first: PathBuf,
        /// Their number.
        number: u64,
    },
    /// The formats that hold one tree have no timeline.
    #[error("a timeline is written as text or html, not {0}")]
    Format(&'static str),
}

/// The formats of a timeline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TimelineFormat {
    /// Each interval's totals and top methods.
    Text,
    /// One self-contained page: the top methods and contexts over the intervals.
    Html,
}

impl TryFrom<Format> for TimelineFormat {
    type Error = TimelineError;

    fn try_from(format: Format) -> Result<TimelineFormat, TimelineError> {
        match format {
            Format::Text => Ok(TimelineFormat::Text),
            Format::Html => Ok(TimelineFormat::Html),
            Format::Folded | Format::Speedscope | Format::Pprof => Err(TimelineError::Format(format.name())),
        }
    }
}

impl From<TimelineFormat> for Format {
    fn from(format: TimelineFormat) -> Format {
        match format {
            TimelineFormat::Text => Format::Text,
            TimelineFormat::Html => Format::Html,
        }
    }
}

/// One interval of the run: what its snapshot holds.
#[derive(Debug, Clone, PartialEq)]
pub struct Interval {
    /// The snapshot's number, from 1.
    pub number: u64,
    /// Milliseconds from the run's start to the snapshot (`meta elapsed`).
    pub elapsed_millis: Option<u64>,
    /// What wrote the snapshot: `timer`, `bytecodes` or `exit` (`meta trigger`).
    pub trigger: String,
    /// Invocations in the interval.
    pub calls: u64,
    /// Bytecodes in the interval.
    pub bytecodes: u64,
    /// The own calls and bytecodes of each context of [`Timeline::whole`]
    /// that counted in the interval.
    pub contexts: HashMap<NodeId, [u64; 2]>,
}

impl Interval {
    /// The interval's total in `metric`.
    pub fn total(&self, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.calls,
            Metric::Bytecodes => self.bytecodes,
            // Snapshots hold no extra metrics (`jp report --timeline` refuses one).
            Metric::Extra(_) => 0,
        }
    }

    /// The own calls and bytecodes of each method that counted in the
    /// interval, over its contexts; test contexts are no methods.
    pub fn methods(&self, whole: &Profile) -> HashMap<FrameId, [u64; 2]> {
        let mut methods: HashMap<FrameId, [u64; 2]> = HashMap::new();
        for (&id, &[calls, bytecodes]) in &self.contexts {
            let frame = whole.node(id).frame;
            if is_test(whole, frame) {
                continue;
            }
            let sum = methods.entry(frame).or_default();
            sum[0] = sum[0].saturating_add(calls);
            sum[1] = sum[1].saturating_add(bytecodes);
        }
        methods
    }
}

/// The intervals of one run, in order, and their sum.
#[derive(Debug, Clone)]
pub struct Timeline {
    /// The intervals, by snapshot number.
    pub intervals: Vec<Interval>,
    /// Every snapshot merged: the run's profile at exit.
    pub whole: Profile,
}

impl Timeline {
    /// The timeline of `snapshots` (each with its file), in any order.
    ///
    /// # Errors
    /// A profile that is no snapshot, snapshots of two runs, or one snapshot twice.
    pub fn of(snapshots: Vec<(PathBuf, Profile)>) -> Result<Timeline, TimelineError> {
        let mut numbered = Vec::with_capacity(snapshots.len());
        for (path, profile) in snapshots {
            let Some(number) = meta_number(&profile, "snapshot") else {
                return Err(TimelineError::NotASnapshot { path });
            };
            numbered.push((number, path, profile));
        }
        numbered.sort_by_key(|(number, _, _)| *number);
        let run = |profile: &Profile| {
            (
                profile.meta.get("pid").cloned(),
                profile.meta.get("start").cloned(),
            )
        };
        let mut whole = Profile::new();
        let mut intervals = Vec::with_capacity(numbered.len());
        for (index, (number, path, profile)) in numbered.iter().enumerate() {
            let (_, first, first_profile) = &numbered[0];
            if run(profile) != run(first_profile) {
                return Err(TimelineError::OtherRun {
                    path: path.clone(),
                    first: first.clone(),
                });
            }
            if index > 0 && numbered[index - 1].0 == *number {
                return Err(TimelineError::SameNumber {
                    path: path.clone(),
                    first: numbered[index - 1].1.clone(),
                    number: *number,
                });
            }
            whole.merge(profile);
            intervals.push(Interval {
                number: *number,
                elapsed_millis: meta_number(profile, "elapsed"),
                trigger: profile.meta.get("trigger").cloned().unwrap_or_default(),
                calls: profile.total(Metric::Calls),
                bytecodes: profile.total(Metric::Bytecodes),
                contexts: contexts_in(profile, &whole),
            });
        }
        Ok(Timeline { intervals, whole })
    }

    /// The methods of the whole run, the largest own value in `metric` first
    /// (ties by name), with it; test contexts are no methods.
    pub fn ranked_methods(&self, metric: Metric) -> Vec<(FrameId, u64)> {
        let mut sums: HashMap<FrameId, u64> = HashMap::new();
        for interval in &self.intervals {
            for (frame, values) in interval.methods(&self.whole) {
                let sum = sums.entry(frame).or_default();
                *sum = sum.saturating_add(pick(values, metric));
            }
        }
        let mut ranked: Vec<(FrameId, u64)> = sums.into_iter().filter(|&(_, value)| value > 0).collect();
        ranked.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then_with(|| self.whole.frame(a.0).cmp(self.whole.frame(b.0)))
        });
        ranked
    }

    /// The contexts of the whole run, the largest own value in `metric`
    /// first (ties by path), with it.
    pub fn ranked_contexts(&self, metric: Metric) -> Vec<(NodeId, u64)> {
        let mut ranked: Vec<(NodeId, u64)> = (1..self.whole.nodes().len() as u32)
            .map(NodeId)
            .map(|id| (id, self.whole.value(id, metric)))
            .filter(|&(_, value)| value > 0)
            .collect();
        ranked.sort_by(|a, b| {
            b.1.cmp(&a.1)
                .then_with(|| self.whole.path(a.0).cmp(&self.whole.path(b.0)))
        });
        ranked
    }
}

/// `[calls, bytecodes]`'s value in `metric`.
pub(crate) fn pick(values: [u64; 2], metric: Metric) -> u64 {
    match metric {
        Metric::Calls => values[0],
        Metric::Bytecodes => values[1],
        // Snapshots hold no extra metrics (`jp report --timeline` refuses one).
        Metric::Extra(_) => 0,
    }
}

fn is_test(profile: &Profile, frame: FrameId) -> bool {
    profile.frame(frame).starts_with("[test] ")
}

fn meta_number(profile: &Profile, key: &str) -> Option<u64> {
    profile.meta.get(key)?.parse().ok()
}

/// The own values of `snapshot`'s contexts, as contexts of `whole` (which
/// has every one of them merged in), merged over thread groups.
fn contexts_in(snapshot: &Profile, whole: &Profile) -> HashMap<NodeId, [u64; 2]> {
    let mut mapped = vec![NodeId::ROOT; snapshot.nodes().len()];
    let mut contexts: HashMap<NodeId, [u64; 2]> = HashMap::new();
    for (index, node) in snapshot.nodes().iter().enumerate().skip(1) {
        let frame = whole
            .frame_id(snapshot.frame(node.frame))
            .expect("the snapshot is merged into whole");
        let into = whole
            .child(mapped[node.parent.0 as usize], frame)
            .expect("the snapshot is merged into whole");
        mapped[index] = into;
        if node.calls != 0 || node.bytecodes != 0 {
            let sum = contexts.entry(into).or_default();
            sum[0] = sum[0].saturating_add(node.calls);
            sum[1] = sum[1].saturating_add(node.bytecodes);
        }
    }
    contexts
}

/// The profiles to read: each file given, and for a directory the
/// snapshots in it (`snapshot-*.jpprof`).
fn snapshot_files(paths: &[PathBuf]) -> Vec<PathBuf> {
    let mut files = Vec::new();
    for path in paths {
        let listed = path.is_dir().then(|| std::fs::read_dir(path).ok()).flatten();
        let Some(entries) = listed else {
            files.push(path.clone());
            continue;
        };
        let mut inside: Vec<PathBuf> = entries
            .filter_map(|entry| entry.ok().map(|entry| entry.path()))
            .filter(|file| {
                let name = file.file_name().and_then(|name| name.to_str()).unwrap_or("");
                name.starts_with(SNAPSHOT_PREFIX) && name.ends_with(".jpprof")
            })
            .collect();
        inside.sort();
        files.extend(inside);
    }
    files
}

/// Reads the snapshots of `paths` (files, or directories of snapshots).
///
/// # Errors
/// Every unreadable profile, else what [`Timeline::of`] refuses.
pub fn read(paths: &[PathBuf]) -> Result<Timeline, ReportError> {
    let files = snapshot_files(paths);
    if files.is_empty() {
        return Err(ReportError::NoProfiles);
    }
    let mut snapshots = Vec::with_capacity(files.len());
    let mut errors = Vec::new();
    for file in files {
        match jp_profile::parse_file(&file) {
            Ok(profile) => snapshots.push((file, profile)),
            Err(error) => errors.push(error),
        }
    }
    if !errors.is_empty() {
        return Err(ReportError::Unreadable(UnreadableProfiles(errors)));
    }
    Ok(Timeline::of(snapshots)?)
}

/// Reads the snapshots of `paths` and writes their timeline to `out`, atomically.
pub fn run(
    paths: &[PathBuf],
    format: TimelineFormat,
    options: &Options,
    out: &Path,
) -> Result<(), ReportError> {
    let timeline = read(paths)?;
    let options = &crate::run::titled(options, &timeline.whole, paths);
    write_atomically(out, |sink| render(&timeline, format, options, sink))
        .map_err(|source| ReportError::writing(out, source))
}

/// Writes `timeline` in `format`, stopping at the size limit.
///
/// # Errors
/// Those of `out`, and an [`crate::OutputTooLarge`] at the size limit.
pub fn render(
    timeline: &Timeline,
    format: TimelineFormat,
    options: &Options,
    out: &mut dyn Write,
) -> io::Result<()> {
    let mut out = LimitedWriter::new(out, options.max_output_size, Format::from(format));
    match format {
        TimelineFormat::Text => text::write(timeline, options, &mut out),
        TimelineFormat::Html => html::write(timeline, options, &mut out),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// A snapshot of run `pid` numbered `number`, of `(path, calls, bytecodes)`.
    pub(crate) fn snapshot(pid: &str, number: u64, paths: &[(&[&str], u64, u64)]) -> Profile {
        let mut profile = crate::profile(paths);
        profile.meta.insert("pid".into(), pid.into());
        profile.meta.insert("start".into(), "2025-01-01T00:00:00Z".into());
        profile.meta.insert("snapshot".into(), number.to_string());
        profile.meta.insert("elapsed".into(), (number * 100).to_string());
        profile.meta.insert("trigger".into(), "timer".into());
        profile
    }

    /// Phase A (`main;a`) in snapshots 1 and 2, phase B (`main;b`) in 3, given out of order.
    pub(crate) fn phases() -> Timeline {
        Timeline::of(vec![
            ("3".into(), snapshot("7", 3, &[(&["main", "b"], 4, 40)])),
            (
                "1".into(),
                snapshot("7", 1, &[(&["main"], 1, 2), (&["main", "a"], 5, 50)]),
            ),
            (
                "2".into(),
                snapshot("7", 2, &[(&["main"], 0, 1), (&["main", "a"], 3, 30)]),
            ),
        ])
        .unwrap()
    }

    #[test]
    fn intervals_are_ordered_by_number_and_add_up_to_the_whole_run() {
        let timeline = phases();
        let numbers: Vec<u64> = timeline.intervals.iter().map(|i| i.number).collect();
        assert_eq!(numbers, [1, 2, 3]);
        let totals: Vec<(u64, u64)> = timeline
            .intervals
            .iter()
            .map(|i| (i.calls, i.bytecodes))
            .collect();
        assert_eq!(totals, [(6, 52), (3, 31), (4, 40)]);
        assert_eq!(timeline.whole.total(Metric::Calls), 13);
        assert_eq!(timeline.whole.total(Metric::Bytecodes), 123);
        assert_eq!(timeline.intervals[2].elapsed_millis, Some(300));
        let a = timeline.whole.frame_id("a").unwrap();
        let b = timeline.whole.frame_id("b").unwrap();
        let methods: Vec<(u64, u64)> = timeline
            .intervals
            .iter()
            .map(|interval| {
                let methods = interval.methods(&timeline.whole);
                (
                    methods.get(&a).map_or(0, |v| v[0]),
                    methods.get(&b).map_or(0, |v| v[0]),
                )
            })
            .collect();
        assert_eq!(
            methods,
            [(5, 0), (3, 0), (0, 4)],
            "each phase in its own intervals"
        );
        assert_eq!(
            timeline.ranked_methods(Metric::Bytecodes),
            [(a, 80), (b, 40), (FrameId(0), 3)]
        );
    }

    #[test]
    fn a_profile_that_is_no_snapshot_another_run_or_a_repeated_number_is_refused() {
        let mut plain = crate::profile(&[(&["main"], 1, 1)]);
        plain.meta.insert("pid".into(), "7".into());
        let error = Timeline::of(vec![("p.jpprof".into(), plain)]).unwrap_err();
        assert!(matches!(error, TimelineError::NotASnapshot { ref path } if path == Path::new("p.jpprof")));
        let error = Timeline::of(vec![
            ("a".into(), snapshot("7", 1, &[])),
            ("b".into(), snapshot("8", 2, &[])),
        ])
        .unwrap_err();
        assert_eq!(
            error.to_string(),
            "b: a snapshot of another run than a (a timeline shows one run)"
        );
        let error = Timeline::of(vec![
            ("a".into(), snapshot("7", 1, &[])),
            ("b".into(), snapshot("7", 1, &[])),
        ])
        .unwrap_err();
        assert_eq!(error.to_string(), "a and b: both are snapshot 1");
    }

    #[test]
    fn a_directory_stands_for_its_snapshots_in_order() {
        let dir = tempfile::tempdir().unwrap();
        for number in [2u64, 1, 10] {
            let mut bytes = Vec::new();
            jp_profile::write(&snapshot("7", number, &[(&["main"], number, 1)]), &mut bytes).unwrap();
            std::fs::write(dir.path().join(format!("snapshot-{number:06}.jpprof")), bytes).unwrap();
        }
        std::fs::write(dir.path().join("notes.txt"), "not a profile").unwrap();
        let timeline = read(&[dir.path().to_path_buf()]).unwrap();
        let calls: Vec<u64> = timeline.intervals.iter().map(|i| i.calls).collect();
        assert_eq!(calls, [1, 2, 10]);
        assert!(matches!(read(&[]), Err(ReportError::NoProfiles)));
    }
}
