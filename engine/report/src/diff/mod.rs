//! `jp diff`: the exact difference between two sets of profiles, the base
//! and the new. Each side is read and merged as a report's profiles are
//! ([`crate::run::read_all`]); the two trees are joined by path of frames
//! ([`Diff`]), and the change of every context, method and test is written
//! as text ([`text`]), JSON ([`json`]) or one self-contained HTML page with
//! a differential icicle graph ([`html`]).
//!
//! Every list is ranked by the absolute change in [`DiffOptions::metric`]:
//! calls, bytecodes, or an exact extra metric named by
//! [`DiffOptions::metric_name`] and resolved once both sides are read
//! ([`read`]; sampled metrics are refused, see [`Diff::with_metric`]).
//! `--threshold` leaves out rows whose change is below a share of the total
//! change ([`Diff::churn`]: every context's absolute own change, summed),
//! and `--limit` cuts each list. A diff is written atomically and stops at
//! the size limit, as a report does.

pub mod html;
pub mod json;
mod model;
pub mod text;

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use jp_profile::{Metric, NodeId, Profile};

pub use model::{Change, Counts, Diff, Lacking, NameFilter, Row, Status};

use crate::limit::LimitedWriter;
use crate::metric::MetricError;
use jp_atomic_file::write_atomically;

use crate::run::{read_all, ReportError, ReportWarning, UnreadableProfiles};

/// The diff formats; `text`, `html` or `json`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiffFormat {
    /// Ranked tables and a tree of the changed paths.
    Text,
    /// One self-contained page: a differential icicle graph and the tables.
    Html,
    /// Every change, machine-readable (schema in docs/cli.md).
    Json,
}

impl DiffFormat {
    /// The format's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            DiffFormat::Text => "text",
            DiffFormat::Html => "html",
            DiffFormat::Json => "json",
        }
    }
}

/// What a diff shows, from `jp diff`'s flags.
#[derive(Debug, Clone, PartialEq)]
pub struct DiffOptions {
    /// The count that ranks, colours and `threshold` compares: calls,
    /// bytecodes, or once resolved ([`read`]) the diff's extra metric.
    pub metric: Metric,
    /// An extra metric named on the command line (`--metric allocations`):
    /// [`read`] joins it and makes it `metric`. `None`: `metric` as it is.
    pub metric_name: Option<String>,
    /// Leave out rows whose absolute change is below this percentage of the
    /// total change (0 keeps every change).
    pub threshold: f64,
    /// The most rows of each list (`None`: all).
    pub limit: Option<usize>,
    /// Which contexts are counted.
    pub filter: NameFilter,
    /// The most bytes a diff may take (`None`: no limit).
    pub max_output_size: Option<u64>,
    /// How the text and HTML diffs name methods (JSON keeps the full form).
    pub names: crate::NameStyle,
    /// What the text and HTML diffs are called (`None`: no title but
    /// "JP profile diff").
    pub title: Option<String>,
}

impl DiffOptions {
    /// Every change, in `metric`, up to [`crate::DEFAULT_MAX_OUTPUT_SIZE`] bytes.
    pub fn new(metric: Metric) -> DiffOptions {
        DiffOptions {
            metric,
            metric_name: None,
            threshold: 0.0,
            limit: None,
            filter: NameFilter::default(),
            max_output_size: Some(crate::DEFAULT_MAX_OUTPUT_SIZE),
            names: crate::NameStyle::Short,
            title: None,
        }
    }

    /// Whether a change of `delta` is at least the threshold's share of `churn`.
    fn above_threshold(&self, delta: u128, churn: u128) -> bool {
        delta as f64 * 100.0 >= self.threshold * churn as f64
    }
}

/// The rows of a list that a diff shows: those that changed (or were added
/// or removed) and pass the threshold, at most `limit`; and how many changed
/// rows were left out.
pub fn shown(rows: &[Row], churn: u128, options: &DiffOptions) -> (Vec<Row>, usize) {
    let changed: Vec<Row> = rows
        .iter()
        .filter(|row| row.change.status() != Status::Unchanged)
        .copied()
        .collect();
    let kept: Vec<Row> = changed
        .iter()
        .filter(|row| options.above_threshold(row.change.delta(options.metric).unsigned_abs(), churn))
        .take(options.limit.unwrap_or(usize::MAX))
        .copied()
        .collect();
    let left_out = changed.len() - kept.len();
    (kept, left_out)
}

/// The contexts of the tree of changed paths, depth first with their
/// depth: those whose subtree changed in the metric by at least the
/// threshold's share; siblings by absolute subtree change, largest first,
/// ties by name; at most `limit`.
pub fn changed_paths(diff: &Diff, options: &DiffOptions) -> Vec<(NodeId, u32)> {
    let churn = diff.subtree_churn(options.metric);
    let whole = churn[0];
    let limit = options.limit.unwrap_or(usize::MAX);
    let mut out = Vec::new();
    let mut work: Vec<(NodeId, u32)> = vec![(NodeId::ROOT, 0)];
    let mut siblings: Vec<NodeId> = Vec::new();
    while let Some((id, depth)) = work.pop() {
        if id != NodeId::ROOT {
            if out.len() == limit {
                break;
            }
            out.push((id, depth));
        }
        siblings.clear();
        siblings.extend(diff.tree.children(id).filter(|child| {
            let churn = churn[child.0 as usize];
            churn > 0 && options.above_threshold(churn, whole)
        }));
        siblings.sort_by(|&a, &b| {
            let delta = |id: NodeId| diff.total[id.0 as usize].delta(options.metric).unsigned_abs();
            (delta(b), churn[b.0 as usize])
                .cmp(&(delta(a), churn[a.0 as usize]))
                .then_with(|| diff.frame_name(a).cmp(diff.frame_name(b)))
        });
        work.extend(siblings.iter().rev().map(|&child| (child, depth + 1)));
    }
    out
}

/// Reads both sides, joins them and writes the diff to `out` atomically;
/// gives what the reader should be told. When profiles of both sides
/// cannot be read, every one of them is named.
pub fn run(
    base: &[PathBuf],
    new: &[PathBuf],
    format: DiffFormat,
    options: &DiffOptions,
    out: &Path,
) -> Result<Vec<ReportWarning>, ReportError> {
    let (diff, options, warnings) = read(base, new, options)?;
    write_file(&diff, format, &options, out)?;
    Ok(warnings)
}

/// Writes `diff` in `format` to the file `out`, atomically.
///
/// # Errors
/// [`ReportError::TooLarge`] at the size limit, [`ReportError::Write`]
/// otherwise; the file is then left as it was.
pub fn write_file(
    diff: &Diff,
    format: DiffFormat,
    options: &DiffOptions,
    out: &Path,
) -> Result<(), ReportError> {
    write_atomically(out, |sink| render(diff, format, options, sink))
        .map_err(|source| ReportError::writing(out, source))
}

/// Reads and merges both sides and joins them, with the options'
/// metric resolved in the diff, and the warnings of both sides (and one
/// for an extra metric that only one side has).
///
/// # Errors
/// The profiles' as [`read_all`] gives them, and [`ReportError::Metric`]
/// for an extra metric that [`Diff::with_metric`] refuses.
pub fn read(
    base: &[PathBuf],
    new: &[PathBuf],
    options: &DiffOptions,
) -> Result<(Diff, DiffOptions, Vec<ReportWarning>), ReportError> {
    match (read_all(base), read_all(new)) {
        (Ok(base), Ok(new)) => {
            let mut warnings = base.warnings;
            warnings.extend(new.warnings);
            let (diff, options, lacking) = join(&base.profile, &new.profile, options)?;
            warnings.extend(lacking);
            Ok((diff, options, warnings))
        }
        (Err(ReportError::Unreadable(a)), Err(ReportError::Unreadable(b))) => {
            let both = a.0.into_iter().chain(b.0).collect();
            Err(ReportError::Unreadable(UnreadableProfiles(both)))
        }
        (Err(error), _) | (_, Err(error)) => Err(error),
    }
}

/// Joins `base` and `new` in calls, bytecodes and the extra metric that
/// `options.metric_name` names, if any; gives the options with the metric
/// resolved in the diff, and a warning when only one side has it.
///
/// # Errors
/// Those of [`Diff::with_metric`].
pub fn join(
    base: &Profile,
    new: &Profile,
    options: &DiffOptions,
) -> Result<(Diff, DiffOptions, Option<ReportWarning>), MetricError> {
    let Some(name) = &options.metric_name else {
        return Ok((Diff::of(base, new, &options.filter), options.clone(), None));
    };
    let (diff, lacking) = Diff::with_metric(base, new, &options.filter, name)?;
    let warning = lacking.map(|side| ReportWarning::MetricOnOneSide {
        metric: name.clone(),
        lacking: side,
    });
    let options = DiffOptions {
        metric: diff.extra.expect("a diff with a metric has it"),
        ..options.clone()
    };
    Ok((diff, options, warning))
}

/// Writes `diff` in `format`, stopping at `options.max_output_size`.
///
/// # Errors
/// Those of `out`, and an [`crate::OutputTooLarge`] at the limit.
pub fn render(diff: &Diff, format: DiffFormat, options: &DiffOptions, out: &mut dyn Write) -> io::Result<()> {
    let mut out = LimitedWriter::new(out, options.max_output_size, format);
    match format {
        DiffFormat::Text => text::write(diff, options, &mut out),
        DiffFormat::Html => html::write(diff, options, &mut out),
        DiffFormat::Json => json::write(diff, options, &mut out),
    }
}

/// `+12.5%`, `-100.0%`; `new` when the base is 0 and the new side is not.
pub fn percent(change: &Change, metric: Metric) -> String {
    let base = change.base.get(metric);
    let delta = change.delta(metric);
    match (base, delta) {
        (_, 0) => return "0.0%".into(),
        (0, _) => return "new".into(),
        _ => {}
    }
    format!("{:+.1}%", delta as f64 * 100.0 / base as f64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    #[test]
    fn changed_paths_are_the_contexts_above_a_change_largest_first() {
        let base = profile(&[
            (&["main", "a", "f"], 1, 10),
            (&["main", "b"], 1, 10),
            (&["other"], 1, 5),
        ]);
        let new = profile(&[
            (&["main", "a", "f"], 1, 12),
            (&["main", "b"], 1, 40),
            (&["other"], 1, 5),
        ]);
        let diff = Diff::of(&base, &new, &NameFilter::default());
        let paths: Vec<(Vec<&str>, u32)> = changed_paths(&diff, &DiffOptions::new(Metric::Bytecodes))
            .into_iter()
            .map(|(id, depth)| (diff.tree.path(id), depth))
            .collect();
        assert_eq!(
            paths,
            [
                (vec!["main"], 1),
                (vec!["main", "b"], 2),
                (vec!["main", "a"], 2),
                (vec!["main", "a", "f"], 3)
            ]
        );
        let options = DiffOptions {
            threshold: 10.0,
            limit: Some(2),
            ..DiffOptions::new(Metric::Bytecodes)
        };
        assert_eq!(changed_paths(&diff, &options).len(), 2);
    }

    #[test]
    fn a_threshold_and_a_limit_cut_the_rows_and_count_what_they_left_out() {
        let base = profile(&[(&["a"], 1, 100), (&["b"], 1, 100), (&["c"], 1, 100)]);
        let new = profile(&[(&["a"], 1, 190), (&["b"], 1, 109), (&["c"], 1, 101)]);
        let diff = Diff::of(&base, &new, &NameFilter::default());
        let rows = diff.methods(Metric::Bytecodes);
        let churn = diff.churn(Metric::Bytecodes);
        let all = shown(&rows, churn, &DiffOptions::new(Metric::Bytecodes));
        assert_eq!((all.0.len(), all.1), (3, 0));
        let options = DiffOptions {
            threshold: 5.0,
            ..DiffOptions::new(Metric::Bytecodes)
        };
        assert_eq!(shown(&rows, churn, &options).1, 1);
        let options = DiffOptions {
            limit: Some(1),
            ..DiffOptions::new(Metric::Bytecodes)
        };
        let (kept, left_out) = shown(&rows, churn, &options);
        assert_eq!((diff.tree.frame(kept[0].frame), left_out), ("a", 2));
    }

    #[test]
    fn percentages_are_of_the_base() {
        let change = |base, new| Change {
            base: Counts {
                calls: base,
                ..Counts::default()
            },
            new: Counts {
                calls: new,
                ..Counts::default()
            },
            in_base: true,
            in_new: true,
        };
        assert_eq!(percent(&change(200, 225), Metric::Calls), "+12.5%");
        assert_eq!(percent(&change(10, 0), Metric::Calls), "-100.0%");
        assert_eq!(percent(&change(0, 3), Metric::Calls), "new");
        assert_eq!(percent(&change(0, 0), Metric::Calls), "0.0%");
    }
}
