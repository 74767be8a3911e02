//! Methods aggregated over all their contexts: the "hot methods" of a
//! report.

use jp_profile::{FrameId, Metric, NodeId, Profile};

use crate::Totals;

/// One method's counts summed over every context it ran in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HotMethod {
    /// The method.
    pub frame: FrameId,
    /// How many contexts the method has.
    pub contexts: u64,
    /// Invocations, over all contexts.
    pub self_calls: u64,
    /// Its own bytecodes, over all contexts.
    pub self_bytecodes: u64,
    /// Invocations of it and everything it called, directly or not.
    /// Under recursion a context below another context of the same method
    /// is already inside that one's subtree and is not counted again.
    pub total_calls: u64,
    /// Bytecodes of it and everything it called; recursion as for `total_calls`.
    pub total_bytecodes: u64,
    /// Whether the method has a context below another of its own contexts.
    pub recursive: bool,
    /// Per extra metric of the profile (by [`jp_profile::MetricId`]): the
    /// self and the total value, recursion as for `total_calls`.
    pub extra: Vec<(u64, u64)>,
}

impl HotMethod {
    /// The self value in `metric`.
    pub fn self_value(&self, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.self_calls,
            Metric::Bytecodes => self.self_bytecodes,
            Metric::Extra(id) => self.extra[usize::from(id.0)].0,
        }
    }

    /// The total value in `metric`.
    pub fn total_value(&self, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.total_calls,
            Metric::Bytecodes => self.total_bytecodes,
            Metric::Extra(id) => self.extra[usize::from(id.0)].1,
        }
    }
}

/// Every method of `profile`, the largest self value in `metric` first
/// (ties: the larger total, then the name). Test frames (`[test] <test id>`)
/// are no methods and are left out; the tests have [`crate::tests_view`].
pub fn hot_methods(profile: &Profile, totals: &Totals, metric: Metric) -> Vec<HotMethod> {
    let mut methods: Vec<HotMethod> = (0..profile.frames().len() as u32)
        .map(|frame| HotMethod {
            frame: FrameId(frame),
            contexts: 0,
            self_calls: 0,
            self_bytecodes: 0,
            total_calls: 0,
            total_bytecodes: 0,
            recursive: false,
            extra: vec![(0, 0); profile.extra_metrics().len()],
        })
        .collect();
    let extra_metrics: Vec<Metric> = profile.metrics().split_off(2);
    // How many contexts of each frame are on the path to the current node.
    let mut on_path = vec![0u32; methods.len()];
    // Depth-first with an explicit stack (profiles can be deeper than the
    // thread's stack): `Some` enters a node, `None` leaves the last one entered.
    let mut work: Vec<Option<NodeId>> = profile.children(NodeId::ROOT).map(Some).collect();
    let mut path: Vec<NodeId> = Vec::new();
    while let Some(step) = work.pop() {
        let Some(id) = step else {
            let left = path.pop().expect("a node was entered");
            on_path[profile.node(left).frame.0 as usize] -= 1;
            continue;
        };
        let node = profile.node(id);
        let frame = node.frame.0 as usize;
        let method = &mut methods[frame];
        method.contexts += 1;
        method.self_calls = method.self_calls.saturating_add(node.calls);
        method.self_bytecodes = method.self_bytecodes.saturating_add(node.bytecodes);
        for (sums, &extra) in method.extra.iter_mut().zip(&extra_metrics) {
            sums.0 = sums.0.saturating_add(profile.value(id, extra));
        }
        if on_path[frame] == 0 {
            method.total_calls = method.total_calls.saturating_add(totals.get(id, Metric::Calls));
            method.total_bytecodes = method
                .total_bytecodes
                .saturating_add(totals.get(id, Metric::Bytecodes));
            for (sums, &extra) in method.extra.iter_mut().zip(&extra_metrics) {
                sums.1 = sums.1.saturating_add(totals.get(id, extra));
            }
        } else {
            method.recursive = true;
        }
        on_path[frame] += 1;
        path.push(id);
        work.push(None);
        work.extend(profile.children(id).map(Some));
    }
    // A method that only a sampler saw is listed in a metric it has a value in.
    let sampled_only = |method: &HotMethod| {
        method.total_calls == 0
            && method.total_bytecodes == 0
            && method.extra.iter().any(|&(_, total)| total > 0)
    };
    methods.retain(|method| {
        method.contexts > 0
            && jp_profile::tests::test_id(profile.frame(method.frame)).is_none()
            && !(sampled_only(method) && method.total_value(metric) == 0)
    });
    methods.sort_unstable_by(|a, b| {
        b.self_value(metric)
            .cmp(&a.self_value(metric))
            .then(b.total_value(metric).cmp(&a.total_value(metric)))
            .then_with(|| profile.frame(a.frame).cmp(profile.frame(b.frame)))
    });
    methods
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    fn find<'a>(p: &Profile, methods: &'a [HotMethod], name: &str) -> &'a HotMethod {
        let frame = p.frame_id(name).unwrap();
        methods.iter().find(|m| m.frame == frame).unwrap()
    }

    #[test]
    fn a_method_sums_its_contexts_and_sorts_by_self_value() {
        let p = profile(&[
            (&["main"], 1, 5),
            (&["main", "a", "d"], 2, 200),
            (&["main", "b", "d"], 1, 100),
            (&["main", "a"], 1, 50),
            (&["main", "b"], 1, 60),
        ]);
        let methods = hot_methods(&p, &Totals::of(&p), Metric::Bytecodes);
        let names: Vec<&str> = methods.iter().map(|m| p.frame(m.frame)).collect();
        assert_eq!(names, ["d", "b", "a", "main"]);
        let d = find(&p, &methods, "d");
        assert_eq!((d.contexts, d.self_calls, d.self_bytecodes), (2, 3, 300));
        assert_eq!((d.total_calls, d.total_bytecodes), (3, 300));
        let main = find(&p, &methods, "main");
        assert_eq!((main.total_calls, main.total_bytecodes), (6, 415));
        assert!(!main.recursive);
    }

    #[test]
    fn test_frames_are_no_methods() {
        let p = crate::profile_with_tests();
        let methods = hot_methods(&p, &Totals::of(&p), Metric::Bytecodes);
        let names: Vec<&str> = methods.iter().map(|m| p.frame(m.frame)).collect();
        assert_eq!(
            names,
            [
                "demo.Parser.parse(I)I",
                "demo.Lexer.next()I",
                "demo.Parser.<clinit>()V",
                "demo.Worker.run()V"
            ]
        );
    }

    #[test]
    fn recursion_is_counted_once_in_totals() {
        // f -> g -> f -> g: f's total is its outer subtree, not outer + inner.
        let p = profile(&[
            (&["f"], 1, 10),
            (&["f", "g"], 1, 20),
            (&["f", "g", "f"], 1, 30),
            (&["f", "g", "f", "g"], 1, 40),
        ]);
        let methods = hot_methods(&p, &Totals::of(&p), Metric::Bytecodes);
        let f = find(&p, &methods, "f");
        assert_eq!((f.self_bytecodes, f.total_bytecodes, f.contexts), (40, 100, 2));
        assert!(f.recursive);
        let g = find(&p, &methods, "g");
        assert_eq!((g.self_bytecodes, g.total_bytecodes), (60, 90));
    }

    #[test]
    fn deep_recursion_does_not_overflow_the_stack() {
        let frames: Vec<&str> = (0..100_000).map(|i| if i % 2 == 0 { "f" } else { "g" }).collect();
        let p = profile(&[(&frames, 1, 1)]);
        let methods = hot_methods(&p, &Totals::of(&p), Metric::Calls);
        assert_eq!(methods.len(), 2);
        assert_eq!(methods[0].total_calls, 1);
    }
}
