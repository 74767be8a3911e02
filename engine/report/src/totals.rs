//! Subtree totals: a context's own value plus those of every context below it.

use jp_profile::{Metric, NodeId, Profile};

/// The subtree totals of every context, in every metric of the profile,
/// indexed by [`NodeId`]; the root's are the whole profile's.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Totals {
    /// Per metric, in the order of [`Profile::metrics`].
    metrics: Vec<Metric>,
    values: Vec<Vec<u64>>,
}

impl Totals {
    /// Sums in one pass from the last node to the first: a parent always
    /// comes before its children, so each child is complete when it is
    /// added to its parent. Sums saturate.
    pub fn of(profile: &Profile) -> Totals {
        let metrics = profile.metrics();
        let count = profile.nodes().len();
        let values = metrics
            .iter()
            .map(|&metric| {
                let mut sums: Vec<u64> = (0..count)
                    .map(|index| profile.value(NodeId(index as u32), metric))
                    .collect();
                sums[0] = 0;
                for index in (1..count).rev() {
                    let parent = profile.node(NodeId(index as u32)).parent.0 as usize;
                    sums[parent] = sums[parent].saturating_add(sums[index]);
                }
                sums
            })
            .collect();
        Totals { metrics, values }
    }

    /// The total of the subtree under (and including) `id` in `metric`.
    ///
    /// # Panics
    /// If `metric` is not of the profile the totals are of.
    pub fn get(&self, id: NodeId, metric: Metric) -> u64 {
        let column = self
            .metrics
            .iter()
            .position(|&m| m == metric)
            .expect("a metric of the profile");
        self.values[column][id.0 as usize]
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
