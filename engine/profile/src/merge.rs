//! Merging profiles: contexts with the same path of frame names add up.

use crate::metrics::MetricId;
use crate::model::{FrameId, Metric, NodeId, Profile};
use crate::threads::ThreadGroup;

impl Profile {
    /// Adds `other` into this profile. A context of `other` joins the one
    /// of `self` that has the same parent context and the same frame name,
    /// or becomes a new one; calls and bytecodes add up (saturating, see
    /// [`Profile::add`]), and so do the per-line counts of each frame and
    /// the values of each extra metric, matched by name
    /// ([`Profile::define_metric`]).
    ///
    /// Metadata: `threads` add up, `bba` becomes `mixed` when the two
    /// disagree, any other key keeps the value it had in `self` (or takes
    /// the one of `other` if `self` had none), and [`Profile::files`] adds up.
    ///
    /// Gives the first context whose sum saturated, and in which metric, if any.
    pub fn merge(&mut self, other: &Profile) -> Option<(NodeId, Metric)> {
        if !other.thread_groups().is_empty() {
            self.group_all_contexts();
        }
        let frames: Vec<FrameId> = other.frames().iter().map(|name| self.intern(name)).collect();
        // Parents come before their children, so each parent is mapped first.
        let mut mapped = vec![NodeId::ROOT; other.nodes().len()];
        let mut saturated = None;
        for (index, node) in other.nodes().iter().enumerate().skip(1) {
            let (parent, frame) = (mapped[node.parent.0 as usize], frames[node.frame.0 as usize]);
            let into = self.child_or_insert_at(parent, frame, other.site(NodeId(index as u32)));
            if let Some(metric) = self.add(into, node.calls, node.bytecodes) {
                saturated = saturated.or(Some((into, metric)));
            }
            mapped[index] = into;
        }
        self.merge_groups(other, &mapped);
        for (index, info) in other.extra_metrics().enumerate() {
            let into = self.define_metric(info.clone());
            for (context, value) in other.extra_values(MetricId(index as u16)) {
                if self.add_value(mapped[context.0 as usize], into, value) {
                    saturated = saturated.or(Some((mapped[context.0 as usize], Metric::Extra(into))));
                }
            }
        }
        for (frame, line, bytecodes) in other.lines() {
            self.add_line(frames[frame.0 as usize], line, bytecodes);
        }
        for (key, value) in &other.meta {
            let Some(mine) = self.meta.get_mut(key) else {
                self.meta.insert(key.clone(), value.clone());
                continue;
            };
            match key.as_str() {
                "threads" => {
                    let sum = count(mine).saturating_add(count(value));
                    *mine = sum.to_string();
                }
                "bba" if mine != value => *mine = "mixed".to_owned(),
                _ => {}
            }
        }
        self.files += other.files;
        saturated
    }
}

impl Profile {
    /// Adds the thread groups of `other`, whose contexts `mapped` maps
    /// into this profile's, to the groups of the same name (new ones last).
    /// A profile without groups merged into one with groups puts its
    /// contexts in no group.
    fn merge_groups(&mut self, other: &Profile, mapped: &[NodeId]) {
        if self.thread_groups().is_empty() {
            return;
        }
        let ungrouped;
        let groups = match other.thread_groups() {
            [] if other.context_count() == 0 => return,
            [] => {
                ungrouped = [ThreadGroup::all_contexts(other)];
                &ungrouped[..]
            }
            groups => groups,
        };
        for group in groups {
            let into = self.group_mut(group.name());
            into.add_threads(group.threads());
            for &(context, calls, bytecodes) in group.counts() {
                into.push(mapped[context.0 as usize], calls, bytecodes);
            }
            into.normalize();
        }
    }
}

/// A `threads` value; the parser has checked it is a number.
fn count(text: &str) -> u64 {
    text.parse().unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use crate::model::tests::profile;
    use crate::model::{Metric, NodeId, Profile};

    fn counts(p: &Profile, path: &[&str]) -> (u64, u64) {
        let mut at = NodeId::ROOT;
        for name in path {
            at = p.child(at, p.frame_id(name).unwrap()).unwrap();
        }
        (p.node(at).calls, p.node(at).bytecodes)
    }

    #[test]
    fn the_same_paths_add_up_and_the_others_are_kept() {
        let mut a = profile(&[(&["main"], 1, 10), (&["main", "f"], 2, 20)]);
        let b = profile(&[(&["main"], 1, 5), (&["main", "g"], 3, 30), (&["<clinit>"], 1, 7)]);
        a.merge(&b);
        assert_eq!(counts(&a, &["main"]), (2, 15));
        assert_eq!(counts(&a, &["main", "f"]), (2, 20));
        assert_eq!(counts(&a, &["main", "g"]), (3, 30));
        assert_eq!(counts(&a, &["<clinit>"]), (1, 7));
        assert_eq!(a.context_count(), 4);
        assert_eq!(a.files, 2);
    }

    #[test]
    fn a_sum_that_saturates_is_told_with_its_context() {
        let mut a = profile(&[(&["main"], 1, 1), (&["main", "f"], 1, u64::MAX - 1)]);
        let b = profile(&[(&["main"], 1, 1), (&["main", "f"], 1, 1)]);
        assert_eq!(a.merge(&b), None);
        let saturated = a.merge(&b);
        let f = a.child(NodeId(1), a.frame_id("f").unwrap()).unwrap();
        assert_eq!(saturated, Some((f, Metric::Bytecodes)));
        assert_eq!(counts(&a, &["main", "f"]), (3, u64::MAX));
    }

    #[test]
    fn frames_numbered_differently_in_each_file_are_matched_by_name() {
        let mut a = profile(&[(&["x", "y"], 1, 1)]);
        let b = profile(&[(&["y"], 1, 1), (&["x", "y"], 1, 1)]);
        a.merge(&b);
        assert_eq!(counts(&a, &["x", "y"]), (2, 2));
        assert_eq!(counts(&a, &["y"]), (1, 1));
        assert_eq!(a.frames().len(), 2);
    }

    #[test]
    fn merging_into_an_empty_profile_copies_the_other() {
        let b = profile(&[(&["main"], 1, 5), (&["main", "g"], 3, 30)]);
        let mut a = Profile::new();
        a.merge(&b);
        assert_eq!(a.nodes(), b.nodes());
        assert_eq!(a.files, 1);
    }

    #[test]
    fn extra_metrics_add_up_by_name_whatever_their_ids() {
        use crate::{MetricInfo, MetricKind};
        let info = |name: &str| MetricInfo {
            name: name.to_owned().into(),
            unit: "samples".into(),
            kind: MetricKind::Sampled,
        };
        let mut a = profile(&[(&["main"], 1, 1)]);
        let cpu = a.define_metric(info("cpu-samples"));
        a.add_value(NodeId(1), cpu, 3);
        let mut b = profile(&[(&["main", "f"], 1, 1), (&["main"], 1, 1)]);
        let native = b.define_metric(info("native-samples"));
        let cpu_b = b.define_metric(info("cpu-samples"));
        b.add_value(NodeId(1), cpu_b, 4);
        b.add_value(NodeId(2), cpu_b, 5);
        b.add_value(NodeId(2), native, 6);
        a.merge(&b);
        let cpu = a.metric("cpu-samples").unwrap();
        let native = a.metric("native-samples").unwrap();
        let f = a.child(NodeId(1), a.frame_id("f").unwrap()).unwrap();
        assert_eq!(
            (a.value(NodeId(1), cpu), a.value(f, cpu), a.value(f, native)),
            (7, 5, 6)
        );
    }

    #[test]
    fn threads_add_up_and_different_analyses_are_mixed() {
        let mut a = Profile::new();
        a.meta.insert("threads".into(), "2".into());
        a.meta.insert("bba".into(), "precise".into());
        a.meta.insert("jvm".into(), "OpenJDK 17".into());
        let mut b = Profile::new();
        b.meta.insert("threads".into(), "3".into());
        b.meta.insert("bba".into(), "default".into());
        b.meta.insert("jvm".into(), "OpenJDK 21".into());
        b.meta.insert("agent".into(), "default".into());
        a.merge(&b);
        assert_eq!(a.meta["threads"], "5");
        assert_eq!(a.meta["bba"], "mixed");
        assert_eq!(a.meta["jvm"], "OpenJDK 17");
        assert_eq!(a.meta["agent"], "default");
    }

    #[test]
    fn the_same_analysis_stays_as_it_is() {
        let mut a = Profile::new();
        a.meta.insert("bba".into(), "precise".into());
        let b = a.clone();
        a.merge(&b);
        assert_eq!(a.meta["bba"], "precise");
    }
}
