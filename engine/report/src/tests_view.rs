//! The tests of a profile and what each cost: the one place that finds the
//! test contexts (top-level contexts whose frame is `[test] <test id>`, see
//! [`jp_profile::tests`]) and sums their subtrees, for the reports' Tests
//! sections and for anything else that compares tests.
//!
//! ```
//! use jp_profile::Profile;
//! use jp_report::tests_view::{test_totals, TestScope};
//! use jp_report::Totals;
//! let mut profile = Profile::new();
//! profile.add_path(&["[test] demo.ParserTest#small()", "demo.Parser.parse(Ljava/lang/String;)I"], 1, 40);
//! profile.add_path(&["[test] demo.ParserTest#large()", "demo.Parser.parse(Ljava/lang/String;)I"], 1, 900);
//! profile.add_path(&["[test] demo.ParserTest", "demo.Parser.<clinit>()V"], 1, 12);
//! profile.add_path(&["demo.Worker.run()V"], 1, 5_000);
//! let tests = test_totals(&profile, &Totals::of(&profile));
//! let ids: Vec<&str> = tests.iter().map(|test| test.test_id).collect();
//! assert_eq!(ids, ["demo.ParserTest#large()", "demo.ParserTest#small()", "demo.ParserTest"]);
//! assert_eq!((tests[0].calls, tests[0].bytecodes, tests[0].rank_by_bytecodes), (1, 900, 1));
//! assert_eq!(tests[2].scope, TestScope::Class);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use jp_profile::{FrameId, Metric, MetricId, NodeId, Profile};

use crate::Totals;

/// Whether a test context holds one test or what ran for its class as a whole.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TestScope {
    /// A test method, or one invocation of a parameterized, repeated or
    /// dynamic test: the test id holds a `#`.
    Test,
    /// The class-level work of a test class (`@BeforeClass`/`@BeforeAll`,
    /// `@AfterClass`/`@AfterAll`, class rules): the test id is the class's
    /// binary name alone.
    Class,
}

/// One test context of a profile and its subtree totals.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TestTotal<'a> {
    /// The top-level context of the test.
    pub node: NodeId,
    /// The test id, its frame's name without `[test] `
    /// (`com.acme.ParserTest#parses(String) > [2] "a,b"`).
    pub test_id: &'a str,
    /// A test or a class's own work.
    pub scope: TestScope,
    /// Invocations in the test's subtree (the test context's own included).
    pub calls: u64,
    /// Bytecodes executed in the test's subtree.
    pub bytecodes: u64,
    /// 1 for the test with the most bytecodes; ties go by test id, so that
    /// every test has its own rank.
    pub rank_by_bytecodes: usize,
    /// 1 for the test with the most calls; ties by test id.
    pub rank_by_calls: usize,
    /// Per extra metric of the profile (by [`jp_profile::MetricId`]): the
    /// subtree total and the rank in it, ties by test id.
    pub extra: Vec<(u64, usize)>,
}

impl TestTotal<'_> {
    /// The subtree total in `metric`.
    pub fn value(&self, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.calls,
            Metric::Bytecodes => self.bytecodes,
            Metric::Extra(id) => self.extra[usize::from(id.0)].0,
        }
    }

    /// The rank in `metric`.
    pub fn rank(&self, metric: Metric) -> usize {
        match metric {
            Metric::Calls => self.rank_by_calls,
            Metric::Bytecodes => self.rank_by_bytecodes,
            Metric::Extra(id) => self.extra[usize::from(id.0)].1,
        }
    }
}

/// Every test context of `profile` (a top-level context with a test frame)
/// with its subtree totals from `totals` ([`Totals::of`] the same profile),
/// the most bytecodes first, ties by test id. Class-level contexts are
/// listed and ranked with the tests, marked [`TestScope::Class`]. Empty
/// for a profile without tests. A test frame below the top level is not a
/// test context and is not listed. The result depends only on the merged
/// tree, not on the order of the profiles or records it came from.
pub fn test_totals<'a>(profile: &'a Profile, totals: &Totals) -> Vec<TestTotal<'a>> {
    let mut tests: Vec<TestTotal<'a>> = profile
        .children(NodeId::ROOT)
        .filter_map(|node| {
            let test_id = jp_profile::tests::test_id(profile.frame(profile.node(node).frame))?;
            Some(TestTotal {
                node,
                test_id,
                scope: if test_id.contains('#') {
                    TestScope::Test
                } else {
                    TestScope::Class
                },
                calls: totals.get(node, Metric::Calls),
                bytecodes: totals.get(node, Metric::Bytecodes),
                rank_by_bytecodes: 0,
                rank_by_calls: 0,
                extra: (0..profile.extra_metrics().len())
                    .map(|index| (totals.get(node, Metric::Extra(MetricId(index as u16))), 0))
                    .collect(),
            })
        })
        .collect();
    for index in 0..profile.extra_metrics().len() {
        tests.sort_unstable_by(|a, b| {
            b.extra[index]
                .0
                .cmp(&a.extra[index].0)
                .then_with(|| a.test_id.cmp(b.test_id))
        });
        for (position, test) in tests.iter_mut().enumerate() {
            test.extra[index].1 = position + 1;
        }
    }
    tests.sort_unstable_by(|a, b| b.calls.cmp(&a.calls).then_with(|| a.test_id.cmp(b.test_id)));
    for (position, test) in tests.iter_mut().enumerate() {
        test.rank_by_calls = position + 1;
    }
    tests.sort_unstable_by(|a, b| {
        b.bytecodes
            .cmp(&a.bytecodes)
            .then_with(|| a.test_id.cmp(b.test_id))
    });
    for (position, test) in tests.iter_mut().enumerate() {
        test.rank_by_bytecodes = position + 1;
    }
    tests
}

/// The methods of the subtree under `test` (the test context itself left
/// out) with the largest own value in `metric`, summed over their contexts
/// there: at most `limit` `(frame, value)` pairs, the largest first, ties
/// by name, methods whose value is 0 left out.
pub fn hottest_methods(profile: &Profile, test: NodeId, metric: Metric, limit: usize) -> Vec<(FrameId, u64)> {
    let mut sums: std::collections::HashMap<FrameId, u64> = std::collections::HashMap::new();
    // An explicit stack, as profiles can be deeper than the thread's stack.
    let mut work: Vec<NodeId> = profile.children(test).collect();
    while let Some(id) = work.pop() {
        let sum = sums.entry(profile.node(id).frame).or_insert(0);
        *sum = sum.saturating_add(profile.value(id, metric));
        work.extend(profile.children(id));
    }
    let mut methods: Vec<(FrameId, u64)> = sums.into_iter().filter(|&(_, value)| value > 0).collect();
    methods.sort_unstable_by(|a, b| {
        b.1.cmp(&a.1)
            .then_with(|| profile.frame(a.0).cmp(profile.frame(b.0)))
    });
    methods.truncate(limit);
    methods
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;
    use crate::profile_with_tests as with_tests;

    #[test]
    fn tests_are_the_top_level_test_contexts_with_their_subtree_totals() {
        let p = with_tests();
        let tests = test_totals(&p, &Totals::of(&p));
        let rows: Vec<(&str, TestScope, u64, u64, usize, usize)> = tests
            .iter()
            .map(|t| {
                (
                    t.test_id,
                    t.scope,
                    t.calls,
                    t.bytecodes,
                    t.rank_by_bytecodes,
                    t.rank_by_calls,
                )
            })
            .collect();
        assert_eq!(
            rows,
            [
                ("demo.ParserTest#large()", TestScope::Test, 52, 1300, 1, 2),
                // Ties in bytecodes go by test id.
                (
                    "demo.ParserTest#parses(String) > [1] \"a;b\"",
                    TestScope::Test,
                    1,
                    100,
                    2,
                    4
                ),
                (
                    "demo.ParserTest#parses(String) > [2] \"c\"",
                    TestScope::Test,
                    1,
                    100,
                    3,
                    5
                ),
                ("demo.ParserTest#small()", TestScope::Test, 71, 100, 4, 1),
                ("demo.ParserTest", TestScope::Class, 1, 30, 5, 3),
            ]
        );
        let large = p.child(
            NodeId::ROOT,
            p.frame_id("[test] demo.ParserTest#large()").unwrap(),
        );
        assert_eq!(Some(tests[0].node), large);
        assert_eq!(
            (tests[3].value(Metric::Calls), tests[3].rank(Metric::Calls)),
            (71, 1)
        );
    }

    #[test]
    fn a_profile_without_tests_has_none() {
        let p = profile(&[(&["main"], 1, 10), (&["main", "[test] a.B#c()"], 1, 1)]);
        assert!(test_totals(&p, &Totals::of(&p)).is_empty());
    }

    #[test]
    fn the_order_of_insertion_does_not_matter() {
        let a = profile(&[(&["[test] a.T#y()"], 1, 5), (&["[test] a.T#x()"], 2, 5)]);
        let b = profile(&[(&["[test] a.T#x()"], 2, 5), (&["[test] a.T#y()"], 1, 5)]);
        let ids = |p: &Profile| -> Vec<String> {
            test_totals(p, &Totals::of(p))
                .iter()
                .map(|t| format!("{} {} {}", t.test_id, t.rank_by_bytecodes, t.rank_by_calls))
                .collect()
        };
        assert_eq!(ids(&a), ["a.T#x() 1 1", "a.T#y() 2 2"]);
        assert_eq!(ids(&a), ids(&b));
    }

    #[test]
    fn the_hottest_methods_of_a_test_are_summed_over_its_contexts_only() {
        let p = with_tests();
        let small = p
            .child(
                NodeId::ROOT,
                p.frame_id("[test] demo.ParserTest#small()").unwrap(),
            )
            .unwrap();
        let named = |methods: Vec<(FrameId, u64)>| -> Vec<(String, u64)> {
            methods
                .into_iter()
                .map(|(frame, value)| (p.frame(frame).to_owned(), value))
                .collect()
        };
        assert_eq!(
            named(hottest_methods(&p, small, Metric::Bytecodes, 5)),
            [
                ("demo.Lexer.next()I".to_owned(), 60),
                ("demo.Parser.parse(I)I".to_owned(), 40)
            ]
        );
        assert_eq!(
            named(hottest_methods(&p, small, Metric::Calls, 1)),
            [("demo.Lexer.next()I".to_owned(), 70)]
        );
    }
}
