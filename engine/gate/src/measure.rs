//! The counts a baseline holds, taken from a merged profile: each test
//! context's subtree, and each method's own counts over all its contexts.

use std::collections::BTreeMap;

use jp_profile::{Metric, Profile};
use jp_report::tests_view::test_totals;
use jp_report::{hot_methods, Totals};

use crate::baseline::{Counts, Kind};

/// Every test's and every method's counts in `metric` (and calls), by
/// kind and name: a test's subtree totals (the report's Tests view), a
/// method's own counts summed over all its contexts (the report's hot
/// methods). Test contexts are not methods, so their own counts go to
/// their test only.
pub fn measure(profile: &Profile, metric: Metric) -> BTreeMap<(Kind, String), Counts> {
    let totals = Totals::of(profile);
    let tests = test_totals(profile, &totals).into_iter().map(|test| {
        let counts = Counts {
            value: test.value(metric),
            calls: test.calls,
        };
        ((Kind::Test, test.test_id.to_owned()), counts)
    });
    let methods = hot_methods(profile, &totals, metric)
        .into_iter()
        .filter(|method| method.contexts > 0)
        .map(|method| {
            let counts = Counts {
                value: method.self_value(metric),
                calls: method.self_calls,
            };
            ((Kind::Method, profile.frame(method.frame).to_owned()), counts)
        });
    tests.chain(methods).collect()
}

/// The profiles' block analysis, from their `bba` meta record.
pub fn bba(profile: &Profile) -> String {
    profile
        .meta
        .get("bba")
        .cloned()
        .unwrap_or_else(|| "unknown".to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_test_counts_its_subtree_and_methods_count_their_own_work_everywhere() {
        let mut profile = Profile::new();
        profile.add_path(&["[test] a.T#one()", "a.T.setUp()V"], 1, 10);
        profile.add_path(&["[test] a.T#one()", "a.T.one()V", "a.P.parse()I"], 2, 100);
        profile.add_path(&["[test] a.T#one()", "a.T.one()V"], 1, 5);
        profile.add_path(&["[test] a.T#two()", "a.P.parse()I"], 1, 50);
        profile.add_path(&["a.Worker.run()V", "a.P.parse()I"], 3, 30);
        let entries = measure(&profile, Metric::Bytecodes);
        let get = |kind, name: &str| entries[&(kind, name.to_owned())];
        assert_eq!(get(Kind::Test, "a.T#one()"), Counts { value: 115, calls: 4 });
        assert_eq!(get(Kind::Test, "a.T#two()"), Counts { value: 50, calls: 1 });
        assert_eq!(get(Kind::Method, "a.P.parse()I"), Counts { value: 180, calls: 6 });
        assert_eq!(get(Kind::Method, "a.Worker.run()V"), Counts::default());
        assert!(!entries.contains_key(&(Kind::Method, "[test] a.T#one()".to_owned())));
        assert_eq!(entries.len(), 6);
    }

    #[test]
    fn profiles_without_tests_give_methods_only() {
        let mut profile = Profile::new();
        profile.add_path(&["a.Main.main()V", "a.P.parse()I"], 1, 7);
        let entries = measure(&profile, Metric::Bytecodes);
        assert!(entries.keys().all(|(kind, _)| *kind == Kind::Method));
        assert_eq!(entries.len(), 2);
        assert_eq!(bba(&profile), "unknown");
    }

    #[test]
    fn an_extra_metric_is_measured_as_bytecodes_are() {
        let mut profile = Profile::new();
        let allocations = profile.define_metric(jp_profile::MetricInfo {
            name: "allocations".into(),
            unit: "objects".into(),
            kind: jp_profile::MetricKind::Exact,
        });
        let parse = profile.add_path(&["[test] a.T#one()", "a.T.one()V", "a.P.parse()I"], 2, 100);
        profile.add_value(parse, allocations, 7);
        let one = profile.add_path(&["[test] a.T#one()", "a.T.one()V"], 1, 5);
        profile.add_value(one, allocations, 1);
        let entries = measure(&profile, Metric::Extra(allocations));
        let get = |kind, name: &str| entries[&(kind, name.to_owned())];
        assert_eq!(get(Kind::Test, "a.T#one()"), Counts { value: 8, calls: 3 });
        assert_eq!(get(Kind::Method, "a.P.parse()I"), Counts { value: 7, calls: 2 });
        assert_eq!(get(Kind::Method, "a.T.one()V"), Counts { value: 1, calls: 1 });
    }
}
