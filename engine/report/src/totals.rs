//! Subtree totals: a context's own value plus those of every context below it.

use jp_profile::{Metric, NodeId, Profile};

/// The subtree totals of every context, in both metrics, indexed by
/// [`NodeId`]; the root's are the whole profile's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    calls: Vec<u64>,
    bytecodes: Vec<u64>,
}

impl Totals {
    /// Sums in one pass from the last node to the first: a parent always
    /// comes before its children, so each child is complete when it is
    /// added to its parent. Sums saturate.
    pub fn of(profile: &Profile) -> Totals {
        let nodes = profile.nodes();
        let mut calls: Vec<u64> = nodes.iter().map(|node| node.calls).collect();
        let mut bytecodes: Vec<u64> = nodes.iter().map(|node| node.bytecodes).collect();
        calls[0] = 0;
        bytecodes[0] = 0;
        for index in (1..nodes.len()).rev() {
            let parent = nodes[index].parent.0 as usize;
            calls[parent] = calls[parent].saturating_add(calls[index]);
            bytecodes[parent] = bytecodes[parent].saturating_add(bytecodes[index]);
        }
        Totals { calls, bytecodes }
    }

    /// The total of the subtree under (and including) `id` in `metric`.
    pub fn get(&self, id: NodeId, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.calls[id.0 as usize],
            Metric::Bytecodes => self.bytecodes[id.0 as usize],
        }
    }

    /// The whole profile's total in `metric`.
    pub fn grand(&self, metric: Metric) -> u64 {
        self.get(NodeId::ROOT, metric)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    #[test]
    fn a_subtree_total_is_its_own_value_plus_its_descendants() {
        let p = profile(&[
            (&["main"], 1, 10),
            (&["main", "a"], 2, 20),
            (&["main", "a", "b"], 3, 30),
            (&["main", "c"], 4, 40),
            (&["other"], 5, 50),
        ]);
        let totals = Totals::of(&p);
        let main = p.child(NodeId::ROOT, p.frame_id("main").unwrap()).unwrap();
        let a = p.child(main, p.frame_id("a").unwrap()).unwrap();
        assert_eq!(totals.get(main, Metric::Calls), 10);
        assert_eq!(totals.get(main, Metric::Bytecodes), 100);
        assert_eq!(totals.get(a, Metric::Bytecodes), 50);
        assert_eq!(totals.grand(Metric::Calls), 15);
        assert_eq!(totals.grand(Metric::Bytecodes), p.total(Metric::Bytecodes));
    }
}
