//! Comparing the counts of now with a baseline's: which entries grew or
//! shrank beyond their tolerance, which changed within it, which are new
//! and which are missing.

use std::collections::BTreeMap;

use crate::baseline::{Baseline, Counts, Kind};
use crate::pattern::Pattern;

/// The default tolerance, in percent of an entry's baseline value.
/// Counts of deterministic code are exact, so any growth is real; 1% lets
/// a change that does not matter through while a fixed baseline still
/// catches the sum of many small ones.
pub const DEFAULT_TOLERANCE: f64 = 1.0;

/// How much an entry's value (bytecodes, or the baseline's metric) may
/// change before the check says so.
#[derive(Debug, Clone, PartialEq)]
pub struct Tolerances {
    /// The tolerance of entries that no pattern names, in percent.
    pub default: f64,
    /// Tolerances by name pattern, in percent; the first that matches wins.
    pub per_pattern: Vec<(Pattern, f64)>,
    /// Entries left out of the check.
    pub ignore: Vec<Pattern>,
}

impl Default for Tolerances {
    fn default() -> Tolerances {
        Tolerances {
            default: DEFAULT_TOLERANCE,
            per_pattern: Vec::new(),
            ignore: Vec::new(),
        }
    }
}

impl Tolerances {
    /// The tolerance of the entry `name`, in percent.
    pub fn of(&self, name: &str) -> f64 {
        self.per_pattern
            .iter()
            .find(|(pattern, _)| pattern.matches(name))
            .map_or(self.default, |&(_, percent)| percent)
    }

    /// Whether `name` is left out of the check.
    pub fn ignores(&self, name: &str) -> bool {
        self.ignore.iter().any(|pattern| pattern.matches(name))
    }
}

/// One entry that changed, or appeared, or went away.
#[derive(Debug, Clone, PartialEq)]
pub struct Change {
    /// Test or method.
    pub kind: Kind,
    /// The test id or the method's frame name.
    pub name: String,
    /// Its baseline counts (`None` for a new entry).
    pub baseline: Option<Counts>,
    /// Its counts now (`None` for a missing entry).
    pub now: Option<Counts>,
    /// The tolerance it was held to, in percent.
    pub tolerance: f64,
}

impl Change {
    /// Now's value minus the baseline's (0 for either side absent).
    pub fn delta(&self) -> i128 {
        let value = |counts: Option<Counts>| i128::from(counts.map_or(0, |c| c.value));
        value(self.now) - value(self.baseline)
    }

    /// The change in percent of the baseline's value; `None` when
    /// the baseline is 0 or either side is absent.
    pub fn percent(&self) -> Option<f64> {
        let base = self.baseline?.value;
        self.now?;
        (base != 0).then(|| self.delta() as f64 * 100.0 / base as f64)
    }

    /// Whether the change is beyond the tolerance (a growth from 0 always is).
    fn beyond_tolerance(&self) -> bool {
        match self.percent() {
            Some(percent) => percent.abs() > self.tolerance,
            None => self.delta() != 0,
        }
    }
}

/// What a check found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    /// Entries whose value grew beyond their tolerance: the failures.
    pub regressions: Vec<Change>,
    /// Entries whose value shrank beyond their tolerance.
    pub improvements: Vec<Change>,
    /// Entries whose value changed within their tolerance.
    pub within_tolerance: Vec<Change>,
    /// Entries now that the baseline lacks (not failures).
    pub new: Vec<Change>,
    /// Entries of the baseline that are not there now (not failures).
    pub missing: Vec<Change>,
    /// How many entries were compared (ignored ones left out).
    pub compared: usize,
    /// How many entries the ignore list left out.
    pub ignored: usize,
    /// The sum of every test's value in the baseline and now (0 and 0
    /// when there are no tests), over the tests both have.
    pub test_totals: (u64, u64),
    /// The same for every method in the baseline.
    pub method_totals: (u64, u64),
}

impl Comparison {
    /// Whether the check passes: no regression.
    pub fn passed(&self) -> bool {
        self.regressions.is_empty()
    }

    /// Every changed entry of `kind` (in or beyond tolerance), largest
    /// absolute change first, at most `limit`.
    pub fn top_changes(&self, kind: Kind, limit: usize) -> Vec<&Change> {
        let mut changed: Vec<&Change> = [&self.regressions, &self.improvements, &self.within_tolerance]
            .into_iter()
            .flatten()
            .filter(|change| change.kind == kind)
            .collect();
        changed.sort_by(|a, b| {
            b.delta()
                .abs()
                .cmp(&a.delta().abs())
                .then_with(|| a.name.cmp(&b.name))
        });
        changed.truncate(limit);
        changed
    }
}

/// Compares the counts of now with the baseline's. Methods now below the
/// baseline's floor are neither new nor compared unless the baseline has them.
pub fn compare(
    baseline: &Baseline,
    now: &BTreeMap<(Kind, String), Counts>,
    tolerances: &Tolerances,
) -> Comparison {
    let mut comparison = Comparison::default();
    let entry = |key: &(Kind, String), baseline: Option<Counts>, now: Option<Counts>| Change {
        kind: key.0,
        name: key.1.clone(),
        baseline,
        now,
        tolerance: tolerances.of(&key.1),
    };
    for (key, &base) in &baseline.entries {
        if tolerances.ignores(&key.1) {
            comparison.ignored += 1;
            continue;
        }
        let Some(&counts) = now.get(key) else {
            comparison.missing.push(entry(key, Some(base), None));
            continue;
        };
        comparison.compared += 1;
        let sums = match key.0 {
            Kind::Test => &mut comparison.test_totals,
            Kind::Method => &mut comparison.method_totals,
        };
        sums.0 = sums.0.saturating_add(base.value);
        sums.1 = sums.1.saturating_add(counts.value);
        let change = entry(key, Some(base), Some(counts));
        if change.delta() == 0 {
            continue;
        }
        let list = match (change.beyond_tolerance(), change.delta() > 0) {
            (false, _) => &mut comparison.within_tolerance,
            (true, true) => &mut comparison.regressions,
            (true, false) => &mut comparison.improvements,
        };
        list.push(change);
    }
    for (key, &counts) in now {
        let below_floor = key.0 == Kind::Method && counts.value < baseline.method_floor;
        if !baseline.entries.contains_key(key) && !below_floor && !tolerances.ignores(&key.1) {
            comparison.new.push(entry(key, None, Some(counts)));
        }
    }
    for list in [&mut comparison.regressions, &mut comparison.improvements] {
        list.sort_by(|a, b| {
            b.delta()
                .abs()
                .cmp(&a.delta().abs())
                .then_with(|| (a.kind, &a.name).cmp(&(b.kind, &b.name)))
        });
    }
    comparison
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entries(list: &[(Kind, &str, u64)]) -> BTreeMap<(Kind, String), Counts> {
        list.iter()
            .map(|&(kind, name, bytecodes)| {
                (
                    (kind, name.to_owned()),
                    Counts {
                        value: bytecodes,
                        calls: 1,
                    },
                )
            })
            .collect()
    }

    fn baseline(list: &[(Kind, &str, u64)]) -> Baseline {
        Baseline {
            method_floor: 100,
            entries: entries(list),
            ..Baseline::default()
        }
    }

    fn names(list: &[Change]) -> Vec<&str> {
        list.iter().map(|change| change.name.as_str()).collect()
    }

    #[test]
    fn growth_beyond_the_tolerance_fails_and_growth_within_it_does_not() {
        let base = baseline(&[
            (Kind::Test, "t.grows", 1000),
            (Kind::Test, "t.a_little", 1000),
            (Kind::Method, "m.same", 500),
        ]);
        let now = entries(&[
            (Kind::Test, "t.grows", 1011),
            (Kind::Test, "t.a_little", 1010),
            (Kind::Method, "m.same", 500),
        ]);
        let comparison = compare(&base, &now, &Tolerances::default());
        assert_eq!(names(&comparison.regressions), ["t.grows"]);
        assert_eq!(names(&comparison.within_tolerance), ["t.a_little"]);
        assert_eq!(comparison.regressions[0].delta(), 11);
        assert!((comparison.regressions[0].percent().unwrap() - 1.1).abs() < 1e-9);
        assert_eq!((comparison.compared, comparison.test_totals), (3, (2000, 2021)));
        assert!(!comparison.passed());
    }

    #[test]
    fn a_tolerance_of_zero_reports_every_change_either_way() {
        let base = baseline(&[(Kind::Test, "up", 1000), (Kind::Test, "down", 1000)]);
        let now = entries(&[(Kind::Test, "up", 1001), (Kind::Test, "down", 999)]);
        let tolerances = Tolerances {
            default: 0.0,
            ..Tolerances::default()
        };
        let comparison = compare(&base, &now, &tolerances);
        assert_eq!(names(&comparison.regressions), ["up"]);
        assert_eq!(names(&comparison.improvements), ["down"]);
    }

    #[test]
    fn the_first_matching_pattern_sets_the_tolerance_and_ignored_entries_are_left_out() {
        let base = baseline(&[
            (Kind::Test, "a.SlowTest#x()", 100),
            (Kind::Test, "a.FlakyTest#y()", 100),
            (Kind::Test, "a.T#z()", 100),
        ]);
        let now = entries(&[
            (Kind::Test, "a.SlowTest#x()", 140),
            (Kind::Test, "a.FlakyTest#y()", 900),
            (Kind::Test, "a.T#z()", 150),
        ]);
        let tolerances = Tolerances {
            default: 1.0,
            per_pattern: vec![(Pattern::new("a.Slow*"), 50.0), (Pattern::new("a.*"), 10.0)],
            ignore: vec![Pattern::new("*Flaky*")],
        };
        let comparison = compare(&base, &now, &tolerances);
        assert_eq!(names(&comparison.regressions), ["a.T#z()"]);
        assert_eq!(comparison.regressions[0].tolerance, 10.0);
        assert_eq!(names(&comparison.within_tolerance), ["a.SlowTest#x()"]);
        assert_eq!((comparison.compared, comparison.ignored), (2, 1));
    }

    #[test]
    fn new_and_missing_entries_are_listed_but_do_not_fail() {
        let base = baseline(&[(Kind::Test, "gone", 10), (Kind::Method, "m.gone", 200)]);
        let now = entries(&[
            (Kind::Test, "added", 10),
            (Kind::Method, "m.big", 100),
            (Kind::Method, "m.small", 99),
        ]);
        let comparison = compare(&base, &now, &Tolerances::default());
        assert!(comparison.passed());
        assert_eq!(names(&comparison.new), ["added", "m.big"]);
        assert_eq!(names(&comparison.missing), ["gone", "m.gone"]);
    }

    #[test]
    fn growth_from_zero_is_a_regression_whatever_the_tolerance() {
        let base = baseline(&[(Kind::Test, "t", 0)]);
        let now = entries(&[(Kind::Test, "t", 3)]);
        let tolerances = Tolerances {
            default: 1000.0,
            ..Tolerances::default()
        };
        let comparison = compare(&base, &now, &tolerances);
        assert_eq!(names(&comparison.regressions), ["t"]);
        assert_eq!(comparison.regressions[0].percent(), None);
    }

    #[test]
    fn regressions_are_ranked_by_absolute_growth_and_top_changes_by_size() {
        let base = baseline(&[
            (Kind::Method, "small", 1000),
            (Kind::Method, "large", 1000),
            (Kind::Method, "drop", 1000),
        ]);
        let now = entries(&[
            (Kind::Method, "small", 1100),
            (Kind::Method, "large", 3000),
            (Kind::Method, "drop", 500),
        ]);
        let comparison = compare(&base, &now, &Tolerances::default());
        assert_eq!(names(&comparison.regressions), ["large", "small"]);
        let top: Vec<&str> = comparison
            .top_changes(Kind::Method, 2)
            .iter()
            .map(|c| c.name.as_str())
            .collect();
        assert_eq!(top, ["large", "drop"]);
    }
}
