//! Samples to contexts: each stack is matched through its instrumented
//! frames, those of methods in the profile's frame table.
//!
//! The instrumented frames of a stack, outermost first, are the path of a
//! JP context: its top-level context is under the root or, in a profile of
//! a test run, under a test's context (a sample's stack does not say which
//! test ran, so the one where the path goes deepest is taken, the first in
//! the profile's order on a tie). Frames between instrumented ones are left
//! out, as JP does not see them either; what ran above the deepest
//! instrumented frame goes under its context as sampled-only contexts
//! (no calls, no bytecodes). Where the path leaves the tree (a stack that
//! the recorder cut short, say), the rest of the stack is sampled-only
//! below the last context reached. A stack without instrumented frames goes
//! under [`OUTSIDE_FRAME`].

use std::collections::HashMap;

use jp_profile::{FrameId, Metric, MetricId, NodeId, Profile};

use crate::{names, Samples};

/// The top-level context of the samples without an instrumented frame.
pub const OUTSIDE_FRAME: &str = "(outside instrumented code)";

/// What [`attach`] did with the samples of one metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Attached {
    /// The metric the samples count in.
    pub metric: Metric,
    /// Samples whose stack had an instrumented frame.
    pub matched: u64,
    /// Samples under [`OUTSIDE_FRAME`].
    pub outside: u64,
}

/// Adds every stack of `samples` to `profile` as values of its metric
/// (defined in the profile, as sampled); the exact counts stay as they are.
pub fn attach(profile: &mut Profile, samples: &[Samples]) -> Vec<Attached> {
    // Built before anything is added: sampled-only frames are no instrumented methods.
    let methods = Methods::of(profile);
    let tops = tops(profile);
    samples
        .iter()
        .map(|samples| {
            let metric = profile.define_metric(samples.metric.clone());
            let mut attached = Attached {
                metric: Metric::Extra(metric),
                matched: 0,
                outside: 0,
            };
            for stack in &samples.stacks {
                let outside = add_stack(profile, &methods, &tops, metric, &stack.frames, stack.count);
                let sum = if outside {
                    &mut attached.outside
                } else {
                    &mut attached.matched
                };
                *sum = sum.saturating_add(stack.count);
            }
            attached
        })
        .collect()
}

/// Adds one stack; true when it had no instrumented frame.
fn add_stack(
    profile: &mut Profile,
    methods: &Methods,
    tops: &[NodeId],
    metric: MetricId,
    frames: &[String],
    count: u64,
) -> bool {
    let candidates: Vec<Option<&[FrameId]>> = frames.iter().map(|frame| methods.get(frame)).collect();
    let Some(deepest) = candidates.iter().rposition(Option::is_some) else {
        let outside = profile.intern(OUTSIDE_FRAME);
        let at = profile.child_or_insert(NodeId::ROOT, outside);
        add_sampled_only(profile, at, frames, metric, count);
        return true;
    };
    // Reversed, as `max_by_key` takes the last of equals.
    let (at, unmatched) = tops
        .iter()
        .rev()
        .map(|&top| follow(profile, top, &candidates))
        .max_by_key(|&(_, unmatched, depth)| (unmatched.is_none(), depth, std::cmp::Reverse(unmatched)))
        .map(|(at, unmatched, _)| (at, unmatched))
        .expect("the root is a top");
    let rest = unmatched.unwrap_or(deepest + 1);
    add_sampled_only(profile, at, &frames[rest..], metric, count);
    false
}

/// Follows the instrumented frames from `top`: the context reached, the
/// index of the first instrumented frame with no context there (`None`
/// when all have one) and how many were matched.
fn follow(
    profile: &Profile,
    top: NodeId,
    candidates: &[Option<&[FrameId]>],
) -> (NodeId, Option<usize>, usize) {
    let mut at = top;
    let mut depth = 0;
    for (index, frames) in candidates.iter().enumerate() {
        let Some(frames) = frames else { continue };
        // Without a descriptor a name may stand for overloads: the one called here.
        let child = frames
            .iter()
            .filter_map(|&frame| profile.child(at, frame))
            .max_by_key(|&child| (profile.value(child, Metric::Calls), std::cmp::Reverse(child)));
        match child {
            Some(child) => {
                at = child;
                depth += 1;
            }
            None => return (at, Some(index), depth),
        }
    }
    (at, None, depth)
}

/// Adds `count` to the context `frames` below `at`, created as needed.
fn add_sampled_only(profile: &mut Profile, mut at: NodeId, frames: &[String], metric: MetricId, count: u64) {
    for frame in frames {
        let frame = profile.intern(frame);
        at = profile.child_or_insert(at, frame);
    }
    profile.add_value(at, metric, count);
}

/// Where a stack's path may start: the root, then the test contexts.
fn tops(profile: &Profile) -> Vec<NodeId> {
    let tests = profile
        .children(NodeId::ROOT)
        .filter(|&top| jp_profile::tests::test_id(profile.frame(profile.node(top).frame)).is_some());
    let mut tests: Vec<NodeId> = tests.collect();
    tests.sort_unstable();
    std::iter::once(NodeId::ROOT).chain(tests).collect()
}

/// The instrumented methods: the profile's frames by full name and by
/// name without descriptor (async-profiler writes none by default).
struct Methods {
    exact: HashMap<String, Vec<FrameId>>,
    without_descriptor: HashMap<String, Vec<FrameId>>,
}

impl Methods {
    fn of(profile: &Profile) -> Methods {
        let mut methods = Methods {
            exact: HashMap::new(),
            without_descriptor: HashMap::new(),
        };
        for (index, name) in profile.frames().iter().enumerate() {
            let frame = FrameId(index as u32);
            if jp_profile::tests::test_id(name).is_some() {
                continue;
            }
            methods.exact.entry(name.to_string()).or_default().push(frame);
            let key = names::method_key(name).to_owned();
            methods.without_descriptor.entry(key).or_default().push(frame);
        }
        methods
    }

    /// The frames a sample's frame may be: its own, or every overload.
    fn get(&self, frame: &str) -> Option<&[FrameId]> {
        let found = match frame.contains('(') {
            true => self.exact.get(frame),
            false => self.without_descriptor.get(frame),
        };
        found.map(Vec::as_slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Stack;
    use jp_profile::{MetricInfo, MetricKind};

    const MAIN: &str = "demo.Spin.main([Ljava/lang/String;)V";
    const SPIN: &str = "demo.Spin.spin(J)J";
    const NAP: &str = "demo.Spin.nap()V";

    fn profile() -> Profile {
        let mut p = Profile::new();
        p.add_path(&[MAIN], 1, 10);
        p.add_path(&[MAIN, SPIN], 30, 9000);
        p.add_path(&[MAIN, NAP], 1, 4);
        p
    }

    fn samples(stacks: &[(&[&str], u64)]) -> Samples {
        Samples {
            metric: MetricInfo {
                name: "cpu-samples".into(),
                unit: "samples".into(),
                kind: MetricKind::Sampled,
            },
            stacks: stacks
                .iter()
                .map(|&(frames, count)| Stack {
                    frames: frames.iter().map(|&frame| frame.to_owned()).collect(),
                    count,
                })
                .collect(),
        }
    }

    /// Every context with a value, as `path value`, sorted.
    fn values(p: &Profile, metric: Metric) -> Vec<String> {
        let mut lines: Vec<String> = (1..p.nodes().len() as u32)
            .map(NodeId)
            .filter(|&id| p.value(id, metric) > 0)
            .map(|id| format!("{} {}", p.path(id).join(";"), p.value(id, metric)))
            .collect();
        lines.sort();
        lines
    }

    #[test]
    fn instrumented_frames_find_the_context_and_frames_above_them_are_sampled_only() {
        let mut p = profile();
        let before = p.clone();
        let attached = attach(
            &mut p,
            &[samples(&[
                (
                    &[
                        "java.lang.Thread.run()V",
                        MAIN,
                        "jdk.internal.Misc.helper()V",
                        SPIN,
                    ],
                    70,
                ),
                (&[MAIN, NAP, "java.lang.Thread.sleep(J)V"], 20),
                (&["JavaThread::run", "GCTaskThread::run"], 10),
            ])],
        );
        let metric = attached[0].metric;
        assert_eq!((attached[0].matched, attached[0].outside), (90, 10));
        assert_eq!(
            values(&p, metric),
            [
                "(outside instrumented code);JavaThread::run;GCTaskThread::run 10".to_owned(),
                format!("{MAIN};{NAP};java.lang.Thread.sleep(J)V 20"),
                format!("{MAIN};{SPIN} 70"),
            ]
        );
        // The exact counts are untouched: the sampled-only contexts have none.
        for id in 1..before.nodes().len() as u32 {
            assert_eq!(p.node(NodeId(id)).calls, before.node(NodeId(id)).calls);
        }
        assert_eq!(p.total(Metric::Bytecodes), before.total(Metric::Bytecodes));
        assert_eq!(p.total(Metric::Calls), before.total(Metric::Calls));
    }

    #[test]
    fn names_without_descriptors_match_the_method_called_there() {
        let mut p = profile();
        let attached = attach(
            &mut p,
            &[samples(&[
                (&["demo.Spin.main", "demo.Spin.spin"], 5),
                (&["demo.Spin.main", "demo.Spin.nap", "__nanosleep"], 2),
            ])],
        );
        assert_eq!(
            values(&p, attached[0].metric),
            [format!("{MAIN};{NAP};__nanosleep 2"), format!("{MAIN};{SPIN} 5")]
        );
    }

    #[test]
    fn where_the_path_leaves_the_tree_the_rest_of_the_stack_is_sampled_only() {
        let mut p = profile();
        let attached = attach(&mut p, &[samples(&[(&[SPIN, "java.lang.Math.abs(J)J"], 3)])]);
        assert_eq!(
            values(&p, attached[0].metric),
            [format!("{SPIN};java.lang.Math.abs(J)J 3")]
        );
    }

    #[test]
    fn a_test_run_matches_under_the_test_whose_path_goes_deepest() {
        let mut p = Profile::new();
        p.add_path(
            &["[test] demo.SpinTest#spins()", "demo.SpinTest.spins()V", SPIN],
            1,
            100,
        );
        p.add_path(
            &["[test] demo.SpinTest#naps()", "demo.SpinTest.naps()V", NAP],
            1,
            10,
        );
        let attached = attach(
            &mut p,
            &[samples(&[
                (&["org.junit.Runner.run()V", "demo.SpinTest.spins()V", SPIN], 8),
                (&["demo.SpinTest.naps()V", NAP, "java.lang.Thread.sleep(J)V"], 4),
            ])],
        );
        assert_eq!(
            values(&p, attached[0].metric),
            [
                format!(
                    "[test] demo.SpinTest#naps();demo.SpinTest.naps()V;{NAP};java.lang.Thread.sleep(J)V 4"
                ),
                format!("[test] demo.SpinTest#spins();demo.SpinTest.spins()V;{SPIN} 8"),
            ]
        );
    }
}
