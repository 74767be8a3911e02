//! The exact difference of two profiles: their contexts joined into one
//! tree by path of frames, each context with its counts on both sides, and
//! from it the per-method and per-test changes that every diff format shows.
//!
//! Besides calls and bytecodes a diff may carry one exact extra metric
//! ([`Diff::with_metric`]), defined in the joined tree so that
//! [`Metric::Extra`] of [`Diff::tree`] names it; a side without it counts 0.

use jp_profile::{FrameId, Metric, NodeId, Profile};

use crate::metric::{exact, MetricError};

/// Calls, bytecodes and the diff's extra metric (if any) of one side.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// Invocations.
    pub calls: u64,
    /// Bytecodes executed.
    pub bytecodes: u64,
    /// The value of the diff's extra metric ([`Diff::extra`]); 0 without one.
    pub extra: u64,
}

impl Counts {
    /// The count in `metric`: an extra metric is the diff's one, the only
    /// one a diff holds.
    pub fn get(self, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.calls,
            Metric::Bytecodes => self.bytecodes,
            Metric::Extra(_) => self.extra,
        }
    }

    fn add(&mut self, other: Counts) {
        self.calls = self.calls.saturating_add(other.calls);
        self.bytecodes = self.bytecodes.saturating_add(other.bytecodes);
        self.extra = self.extra.saturating_add(other.extra);
    }
}

/// The side of a diff that lacks its extra metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Lacking {
    /// The base profiles have no such metric.
    Base,
    /// The new profiles have no such metric.
    New,
}

impl Lacking {
    /// `base` or `new`.
    pub fn name(self) -> &'static str {
        match self {
            Lacking::Base => "base",
            Lacking::New => "new",
        }
    }
}

/// How an item differs between the sides.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Only in the new profiles.
    Added,
    /// Only in the base profiles.
    Removed,
    /// On both sides, with other counts.
    Changed,
    /// On both sides, with the same counts.
    Unchanged,
}

impl Status {
    /// `added`, `removed`, `changed` or `unchanged`.
    pub fn name(self) -> &'static str {
        match self {
            Status::Added => "added",
            Status::Removed => "removed",
            Status::Changed => "changed",
            Status::Unchanged => "unchanged",
        }
    }
}

/// One item (a context, a method, a test) on both sides.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Change {
    /// Its counts in the base profiles.
    pub base: Counts,
    /// Its counts in the new profiles.
    pub new: Counts,
    /// Whether the base profiles have it.
    pub in_base: bool,
    /// Whether the new profiles have it.
    pub in_new: bool,
}

impl Change {
    /// New minus base in `metric`.
    pub fn delta(&self, metric: Metric) -> i128 {
        i128::from(self.new.get(metric)) - i128::from(self.base.get(metric))
    }

    /// Added or removed by presence; otherwise changed when a count differs.
    pub fn status(&self) -> Status {
        match (self.in_base, self.in_new) {
            (false, true) => Status::Added,
            (true, false) => Status::Removed,
            _ if self.base != self.new => Status::Changed,
            _ => Status::Unchanged,
        }
    }

    fn add(&mut self, other: &Change) {
        self.base.add(other.base);
        self.new.add(other.new);
        self.in_base |= other.in_base;
        self.in_new |= other.in_new;
    }
}

/// Which contexts a diff counts: those on whose path some frame's name
/// contains the filter text (the whole subtree of a matching method);
/// everything without one.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NameFilter(pub Option<String>);

impl NameFilter {
    fn matches(&self, frame: &str) -> bool {
        self.0.as_deref().is_none_or(|text| frame.contains(text))
    }
}

/// Two profiles joined: one tree holding every context of either side.
#[derive(Debug)]
pub struct Diff {
    /// The joined tree; its own counts are unused (zero), see [`Diff::own`].
    pub tree: Profile,
    /// Each context's own counts on both sides, indexed by [`NodeId`] of
    /// `tree`; zero outside what the filter counts.
    pub own: Vec<Change>,
    /// Each context's subtree totals on both sides.
    pub total: Vec<Change>,
    /// Whether each context is counted (the filter matches it or a context above it).
    pub counted: Vec<bool>,
    /// How many profile files each side merged.
    pub files: (u64, u64),
    /// Whether the base and the new side have test contexts (`[test] ...`
    /// top-level frames).
    pub has_tests: (bool, bool),
    /// The extra metric beside calls and bytecodes, as a metric of
    /// [`Diff::tree`] ([`Diff::with_metric`]); `None` for calls and bytecodes alone.
    pub extra: Option<Metric>,
}

impl Diff {
    /// Joins `base` and `new` in calls and bytecodes, counting only what
    /// `filter` keeps.
    pub fn of(base: &Profile, new: &Profile, filter: &NameFilter) -> Diff {
        Diff::join(base, new, filter, None)
    }

    /// Joins `base` and `new` in calls, bytecodes and the extra metric
    /// `name`, counting only what `filter` keeps; a side without the
    /// metric counts 0 in it everywhere, and is told.
    ///
    /// # Errors
    /// [`MetricError::Unknown`] when neither side has the metric (listing
    /// those they have), [`MetricError::Sampled`] when it is sampled on
    /// either side: only exact counts make a diff.
    pub fn with_metric(
        base: &Profile,
        new: &Profile,
        filter: &NameFilter,
        name: &str,
    ) -> Result<(Diff, Option<Lacking>), MetricError> {
        let sides = (base.metric(name), new.metric(name));
        let (info, lacking) = match sides {
            (None, None) => return Err(crate::metric::unknown(name, &[base, new])),
            (Some(metric), None) => (base.metric_info(exact(base, metric)?), Some(Lacking::New)),
            (None, Some(metric)) => (new.metric_info(exact(new, metric)?), Some(Lacking::Base)),
            (Some(b), Some(n)) => {
                exact(new, n)?;
                (base.metric_info(exact(base, b)?), None)
            }
        };
        let extra = Joined {
            info: info.clone(),
            base: sides.0,
            new: sides.1,
        };
        Ok((Diff::join(base, new, filter, Some(extra)), lacking))
    }

    /// The name of `metric`, one of [`Diff::metrics`].
    pub fn metric_name(&self, metric: Metric) -> &str {
        &self.tree.metric_info(metric).name
    }

    /// The metrics the diff holds: calls, bytecodes, then its extra one.
    pub fn metrics(&self) -> Vec<Metric> {
        self.tree.metrics()
    }

    fn join(base: &Profile, new: &Profile, filter: &NameFilter, extra: Option<Joined>) -> Diff {
        let mut tree = Profile::new();
        let (extra, base_extra, new_extra) = match extra {
            Some(joined) => (
                Some(Metric::Extra(tree.define_metric(joined.info))),
                joined.base,
                joined.new,
            ),
            None => (None, None, None),
        };
        let mut own: Vec<Change> = vec![Change::default()];
        for (side, profile, metric) in [(Side::Base, base, base_extra), (Side::New, new, new_extra)] {
            // Parents come before their children, so a parent is mapped first.
            let mut mapped = vec![NodeId::ROOT; profile.nodes().len()];
            for (index, node) in profile.nodes().iter().enumerate().skip(1) {
                let frame = tree.intern(profile.frame(node.frame));
                let id = tree.child_or_insert(mapped[node.parent.0 as usize], frame);
                mapped[index] = id;
                if own.len() <= id.0 as usize {
                    own.push(Change::default());
                }
                let counts = Counts {
                    calls: node.calls,
                    bytecodes: node.bytecodes,
                    extra: metric.map_or(0, |metric| profile.value(NodeId(index as u32), metric)),
                };
                side.record(&mut own[id.0 as usize], counts);
            }
        }
        let counted = counted(&tree, filter);
        for (change, counted) in own.iter_mut().zip(&counted) {
            if !counted {
                change.base = Counts::default();
                change.new = Counts::default();
            }
        }
        let mut total = own.clone();
        for index in (1..total.len()).rev() {
            let parent = tree.nodes()[index].parent.0 as usize;
            let child = total[index];
            total[parent].add(&child);
        }
        let has_tests = |profile: &Profile| {
            let mut top = profile.children(NodeId::ROOT);
            top.any(|id| jp_profile::tests::test_id(profile.frame(profile.node(id).frame)).is_some())
        };
        Diff {
            tree,
            own,
            total,
            counted,
            files: (base.files, new.files),
            has_tests: (has_tests(base), has_tests(new)),
            extra,
        }
    }

    /// Whether tests can be compared: both sides have them.
    pub fn both_have_tests(&self) -> bool {
        self.has_tests.0 && self.has_tests.1
    }

    /// The whole profiles' totals on both sides.
    pub fn grand(&self) -> Change {
        self.total[0]
    }

    /// The sum of every context's absolute own change in `metric`: the
    /// total change that `--threshold` takes a share of.
    pub fn churn(&self, metric: Metric) -> u128 {
        self.own
            .iter()
            .map(|change| change.delta(metric).unsigned_abs())
            .sum()
    }

    /// Each context's churn: the absolute own changes in `metric` summed
    /// over its subtree; nonzero exactly where something below changed.
    pub fn subtree_churn(&self, metric: Metric) -> Vec<u128> {
        let mut churn: Vec<u128> = self.own.iter().map(|c| c.delta(metric).unsigned_abs()).collect();
        for index in (1..churn.len()).rev() {
            let parent = self.tree.nodes()[index].parent.0 as usize;
            churn[parent] += churn[index];
        }
        churn
    }

    /// Every method with a counted context, its own counts summed over all
    /// its contexts; the largest absolute change in `metric` first. Test
    /// frames are not methods and are left out.
    pub fn methods(&self, metric: Metric) -> Vec<Row> {
        let mut methods = vec![Change::default(); self.tree.frames().len()];
        let mut seen = vec![false; methods.len()];
        for (index, node) in self.tree.nodes().iter().enumerate().skip(1) {
            let test = jp_profile::tests::test_id(self.tree.frame(node.frame)).is_some();
            if self.counted[index] && !test {
                methods[node.frame.0 as usize].add(&self.own[index]);
                seen[node.frame.0 as usize] = true;
            }
        }
        let rows = methods
            .into_iter()
            .enumerate()
            .filter(|&(frame, _)| seen[frame])
            .map(|(frame, change)| Row {
                frame: FrameId(frame as u32),
                change,
            });
        self.ranked(rows.collect(), metric)
    }

    /// The subtree totals of every test context (a top-level `[test] ...`
    /// frame), the largest absolute change in `metric` first; none unless
    /// both sides have tests.
    pub fn tests(&self, metric: Metric) -> Vec<Row> {
        if !self.both_have_tests() {
            return Vec::new();
        }
        let rows = self
            .tree
            .children(NodeId::ROOT)
            .filter(|&id| jp_profile::tests::test_id(self.frame_name(id)).is_some())
            .map(|id| Row {
                frame: self.tree.node(id).frame,
                change: self.total[id.0 as usize],
            });
        self.ranked(rows.collect(), metric)
    }

    /// Each context's position in the order of paths (depth first,
    /// siblings by name), indexed by [`NodeId`]: a tie-break that depends
    /// on neither side's record order.
    pub fn path_order(&self) -> Vec<u32> {
        let rank = crate::order::frame_ranks(&self.tree);
        let mut position = vec![0u32; self.own.len()];
        let mut next = 0;
        let mut work = vec![NodeId::ROOT];
        let mut siblings = Vec::new();
        while let Some(id) = work.pop() {
            position[id.0 as usize] = next;
            next += 1;
            crate::order::by_name(&self.tree, id, &rank, &mut siblings);
            work.extend(siblings.iter().rev());
        }
        position
    }

    /// The frame name of context `id`.
    pub fn frame_name(&self, id: NodeId) -> &str {
        self.tree.frame(self.tree.node(id).frame)
    }

    /// `rows` by absolute change in `metric`, largest first, ties by name.
    fn ranked(&self, mut rows: Vec<Row>, metric: Metric) -> Vec<Row> {
        rows.sort_by(|a, b| {
            let (da, db) = (a.change.delta(metric), b.change.delta(metric));
            db.unsigned_abs()
                .cmp(&da.unsigned_abs())
                .then_with(|| self.tree.frame(a.frame).cmp(self.tree.frame(b.frame)))
        });
        rows
    }
}

/// A method or a test, and how it changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Row {
    /// The method's frame, or the test's frame (`[test] <test id>`), in [`Diff::tree`].
    pub frame: FrameId,
    /// Its counts on both sides.
    pub change: Change,
}

/// The extra metric a diff joins: what it is, and which metric it is in
/// the base and in the new profiles (`None` on a side without it).
struct Joined {
    info: jp_profile::MetricInfo,
    base: Option<Metric>,
    new: Option<Metric>,
}

#[derive(Clone, Copy)]
enum Side {
    Base,
    New,
}

impl Side {
    fn record(self, change: &mut Change, own: Counts) {
        let (counts, present) = match self {
            Side::Base => (&mut change.base, &mut change.in_base),
            Side::New => (&mut change.new, &mut change.in_new),
        };
        counts.add(own);
        *present = true;
    }
}

/// Whether each context of `tree` is counted: it or a context above it has
/// a frame that `filter` matches.
fn counted(tree: &Profile, filter: &NameFilter) -> Vec<bool> {
    let mut counted = vec![false; tree.nodes().len()];
    for (index, node) in tree.nodes().iter().enumerate().skip(1) {
        counted[index] = counted[node.parent.0 as usize] || filter.matches(tree.frame(node.frame));
    }
    counted
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::profile;

    fn names(diff: &Diff, rows: &[Row]) -> Vec<String> {
        rows.iter()
            .map(|row| format!("{} {}", diff.tree.frame(row.frame), row.change.status().name()))
            .collect()
    }

    #[test]
    fn a_profile_against_itself_has_no_change() {
        let p = profile(&[
            (&["main"], 1, 10),
            (&["main", "f"], 3, 30),
            (&["[test] T#t()", "f"], 1, 5),
        ]);
        let diff = Diff::of(&p, &p, &NameFilter::default());
        assert_eq!(diff.churn(Metric::Bytecodes), 0);
        assert_eq!(diff.churn(Metric::Calls), 0);
        assert!(diff.own.iter().skip(1).all(|c| c.status() == Status::Unchanged));
        let methods = diff.methods(Metric::Bytecodes);
        assert!(methods.iter().all(|row| row.change.status() == Status::Unchanged));
        assert_eq!(diff.tests(Metric::Calls).len(), 1);
    }

    #[test]
    fn contexts_join_by_path_and_methods_sum_their_contexts() {
        let base = profile(&[
            (&["main", "a", "f"], 2, 20),
            (&["main", "b", "f"], 1, 10),
            (&["main", "old"], 1, 1),
        ]);
        let new = profile(&[
            (&["main", "a", "f"], 2, 90),
            (&["main", "b", "f"], 1, 10),
            (&["main", "fresh"], 4, 4),
        ]);
        let diff = Diff::of(&base, &new, &NameFilter::default());
        let methods = diff.methods(Metric::Bytecodes);
        assert_eq!(
            names(&diff, &methods),
            [
                "f changed",
                "fresh added",
                "old removed",
                "a unchanged",
                "b unchanged",
                "main unchanged"
            ]
        );
        assert_eq!(
            (methods[0].change.base.bytecodes, methods[0].change.new.bytecodes),
            (30, 100)
        );
        assert_eq!(diff.churn(Metric::Bytecodes), 70 + 4 + 1);
        assert_eq!(diff.grand().delta(Metric::Bytecodes), 73);
        let main = diff
            .tree
            .child(NodeId::ROOT, diff.tree.frame_id("main").unwrap())
            .unwrap();
        assert_eq!(diff.subtree_churn(Metric::Bytecodes)[main.0 as usize], 75);
        assert!(diff.tests(Metric::Bytecodes).is_empty());
    }

    #[test]
    fn a_filter_counts_only_the_subtrees_of_matching_methods() {
        let base = profile(&[
            (&["main"], 1, 100),
            (&["main", "work"], 1, 10),
            (&["main", "work", "f"], 1, 1),
        ]);
        let new = profile(&[
            (&["main"], 1, 500),
            (&["main", "work"], 1, 20),
            (&["main", "work", "f"], 1, 2),
        ]);
        let filter = NameFilter(Some("work".into()));
        let diff = Diff::of(&base, &new, &filter);
        assert_eq!(diff.grand().delta(Metric::Bytecodes), 11);
        let methods = diff.methods(Metric::Bytecodes);
        assert_eq!(names(&diff, &methods), ["work changed", "f changed"]);
    }

    #[test]
    fn tests_are_compared_by_their_subtree_totals_when_both_sides_have_them() {
        let base = profile(&[(&["[test] T#a()", "f"], 1, 10), (&["[test] T#gone()"], 1, 1)]);
        let new = profile(&[(&["[test] T#a()", "f"], 1, 12), (&["[test] T#a()", "g"], 1, 100)]);
        let diff = Diff::of(&base, &new, &NameFilter::default());
        let tests = diff.tests(Metric::Bytecodes);
        assert_eq!(
            names(&diff, &tests),
            ["[test] T#a() changed", "[test] T#gone() removed"]
        );
        assert_eq!(tests[0].change.delta(Metric::Bytecodes), 102);
        let methods = diff.methods(Metric::Calls);
        assert_eq!(names(&diff, &methods), ["g added", "f changed"]);
        let untested = profile(&[(&["main"], 1, 1)]);
        assert!(Diff::of(&base, &untested, &NameFilter::default())
            .tests(Metric::Calls)
            .is_empty());
    }

    /// A profile of `paths` with the exact metric `allocations`, each
    /// path's last context allocating as many objects as given.
    pub(crate) fn allocating(paths: &[(&[&str], u64, u64, u64)]) -> Profile {
        let mut p = profile(&[]);
        let allocations = p.define_metric(jp_profile::MetricInfo {
            name: "allocations".into(),
            unit: "objects".into(),
            kind: jp_profile::MetricKind::Exact,
        });
        for &(path, calls, bytecodes, objects) in paths {
            let id = p.add_path(path, calls, bytecodes);
            p.add_value(id, allocations, objects);
        }
        p
    }

    #[test]
    fn an_extra_metric_is_diffed_per_context_method_and_test() {
        let base = allocating(&[
            (&["[test] T#a()", "m.A.f()V"], 1, 10, 3),
            (&["[test] T#a()", "m.A.g()V"], 1, 10, 5),
        ]);
        let new = allocating(&[
            (&["[test] T#a()", "m.A.f()V"], 1, 10, 7),
            (&["[test] T#a()", "m.A.g()V"], 1, 10, 5),
        ]);
        let (diff, lacking) = Diff::with_metric(&base, &new, &NameFilter::default(), "allocations").unwrap();
        assert_eq!(lacking, None);
        let metric = diff.extra.unwrap();
        assert_eq!(diff.metric_name(metric), "allocations");
        assert_eq!(diff.metrics(), [Metric::Calls, Metric::Bytecodes, metric]);
        assert_eq!(diff.grand().delta(metric), 4);
        assert_eq!(diff.grand().delta(Metric::Bytecodes), 0);
        let methods = diff.methods(metric);
        assert_eq!(names(&diff, &methods), ["m.A.f()V changed", "m.A.g()V unchanged"]);
        assert_eq!(
            (methods[0].change.base.extra, methods[0].change.new.extra),
            (3, 7)
        );
        assert_eq!(diff.tests(metric)[0].change.delta(metric), 4);
        assert_eq!(diff.churn(metric), 4);
    }

    #[test]
    fn an_extra_metric_of_one_side_counts_0_on_the_other_and_is_told() {
        let base = profile(&[(&["main", "f"], 1, 10)]);
        let new = allocating(&[(&["main", "f"], 1, 10, 6)]);
        let (diff, lacking) = Diff::with_metric(&base, &new, &NameFilter::default(), "allocations").unwrap();
        assert_eq!(lacking, Some(Lacking::Base));
        let metric = diff.extra.unwrap();
        assert_eq!((diff.grand().base.extra, diff.grand().new.extra), (0, 6));
        let (_, lacking) = Diff::with_metric(&new, &base, &NameFilter::default(), "allocations").unwrap();
        assert_eq!(lacking, Some(Lacking::New));
        assert_eq!(diff.methods(metric)[0].change.status(), Status::Changed);
    }

    #[test]
    fn a_metric_of_neither_side_or_a_sampled_one_makes_no_diff() {
        let plain = profile(&[(&["main"], 1, 10)]);
        let allocated = allocating(&[(&["main"], 1, 10, 1)]);
        let error = Diff::with_metric(&plain, &allocated, &NameFilter::default(), "wall").unwrap_err();
        assert_eq!(
            error.to_string(),
            "no metric `wall` in the profiles; they have `calls`, `bytecodes`, `allocations`"
        );
        let (sampled, _) = crate::sampled_profile();
        let error = Diff::with_metric(&plain, &sampled, &NameFilter::default(), "cpu-samples").unwrap_err();
        assert!(matches!(error, MetricError::Sampled(name) if name == "cpu-samples"));
    }
}
