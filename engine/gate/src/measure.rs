//! The counts a baseline holds, taken from a merged profile: each test
//! context's subtree, and each method's own counts over all its contexts.

use std::collections::BTreeMap;

use jp_profile::tests::test_id;
use jp_profile::{NodeId, Profile};

use crate::baseline::{Counts, Kind};

/// Every test's and every method's counts, by kind and name. Test contexts
/// themselves are not methods, so their own counts go to their test only.
pub fn measure(profile: &Profile) -> BTreeMap<(Kind, String), Counts> {
    let nodes = profile.nodes();
    // The test each context is under, as an index into `tests`, if any.
    let mut test_of: Vec<Option<usize>> = vec![None; nodes.len()];
    let mut tests: Vec<(&str, Counts)> = Vec::new();
    let mut methods: BTreeMap<&str, Counts> = BTreeMap::new();
    for (index, node) in nodes.iter().enumerate().skip(1) {
        let frame = profile.frame(node.frame);
        let counts = Counts {
            bytecodes: node.bytecodes,
            calls: node.calls,
        };
        test_of[index] = if node.parent == NodeId::ROOT {
            test_id(frame).map(|id| {
                tests.push((id, Counts::default()));
                tests.len() - 1
            })
        } else {
            test_of[node.parent.0 as usize]
        };
        if let Some(test) = test_of[index] {
            tests[test].1.add(counts);
        }
        if node.parent != NodeId::ROOT || test_id(frame).is_none() {
            methods.entry(frame).or_default().add(counts);
        }
    }
    let tests = tests
        .into_iter()
        .map(|(id, counts)| ((Kind::Test, id.to_owned()), counts));
    let methods = methods
        .into_iter()
        .map(|(name, counts)| ((Kind::Method, name.to_owned()), counts));
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
        let entries = measure(&profile);
        let get = |kind, name: &str| entries[&(kind, name.to_owned())];
        assert_eq!(
            get(Kind::Test, "a.T#one()"),
            Counts {
                bytecodes: 115,
                calls: 4
            }
        );
        assert_eq!(
            get(Kind::Test, "a.T#two()"),
            Counts {
                bytecodes: 50,
                calls: 1
            }
        );
        assert_eq!(
            get(Kind::Method, "a.P.parse()I"),
            Counts {
                bytecodes: 180,
                calls: 6
            }
        );
        assert_eq!(get(Kind::Method, "a.Worker.run()V"), Counts::default());
        assert!(!entries.contains_key(&(Kind::Method, "[test] a.T#one()".to_owned())));
        assert_eq!(entries.len(), 6);
    }

    #[test]
    fn profiles_without_tests_give_methods_only() {
        let mut profile = Profile::new();
        profile.add_path(&["a.Main.main()V", "a.P.parse()I"], 1, 7);
        let entries = measure(&profile);
        assert!(entries.keys().all(|(kind, _)| *kind == Kind::Method));
        assert_eq!(entries.len(), 2);
        assert_eq!(bba(&profile), "unknown");
    }
}
