//! Which contexts a report shows under `--threshold` and `--max-depth`.

use jp_profile::{Metric, NodeId, Profile};

use crate::{Options, Totals};

/// The contexts a report shows: a context is shown when its parent is, it
/// is no deeper than the maximum depth, and its subtree total reaches the
/// threshold. What is left out is counted, so that a report can say so.
/// A sampled-only subtree (no calls, no bytecodes: what a sampler saw
/// outside instrumented code) is not shown, nor counted, by a report of one
/// metric in which it has nothing ([`Visible::of`]); the reports that hold
/// every metric show it ([`Visible::of_every_metric`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Visible {
    shown: Vec<bool>,
    /// How many contexts are left out.
    pub hidden_contexts: u64,
    /// The sums of the values left out, per metric of [`Profile::metrics`].
    hidden: Vec<(Metric, u64)>,
}

impl Visible {
    /// The contexts a report of `options.metric` alone shows (text, folded).
    pub fn of(profile: &Profile, totals: &Totals, options: &Options) -> Visible {
        Visible::decide(profile, totals, options, true)
    }

    /// The contexts a report of every metric shows (HTML, speedscope,
    /// pprof), `options.metric` first: sampled-only ones too.
    pub fn of_every_metric(profile: &Profile, totals: &Totals, options: &Options) -> Visible {
        Visible::decide(profile, totals, options, false)
    }

    /// Decides for every context of `profile`, in one pass from the root
    /// down (a parent always comes before its children).
    fn decide(profile: &Profile, totals: &Totals, options: &Options, one_metric: bool) -> Visible {
        let nodes = profile.nodes();
        let threshold = options.threshold.max(0.0) / 100.0 * totals.grand(options.metric) as f64;
        let max_depth = options.max_depth.unwrap_or(u32::MAX);
        let mut shown = vec![false; nodes.len()];
        let mut depth = vec![0u32; nodes.len()];
        shown[0] = true;
        let mut visible = Visible {
            shown: Vec::new(),
            hidden_contexts: 0,
            hidden: profile.metrics().into_iter().map(|metric| (metric, 0)).collect(),
        };
        let extra = &profile.metrics()[2..];
        for (index, node) in nodes.iter().enumerate().skip(1) {
            let parent = node.parent.0 as usize;
            depth[index] = depth[parent] + 1;
            let id = NodeId(index as u32);
            let sampled_only = totals.get(id, Metric::Calls) == 0
                && totals.get(id, Metric::Bytecodes) == 0
                && extra.iter().any(|&metric| totals.get(id, metric) > 0);
            if one_metric && sampled_only && totals.get(id, options.metric) == 0 {
                continue;
            }
            shown[index] = shown[parent]
                && depth[index] <= max_depth
                && (options.threshold <= 0.0 || totals.get(id, options.metric) as f64 >= threshold);
            if !shown[index] {
                visible.hidden_contexts += 1;
                if shown[parent] {
                    for (metric, sum) in &mut visible.hidden {
                        *sum = sum.saturating_add(totals.get(id, *metric));
                    }
                }
            }
        }
        visible.shown = shown;
        visible
    }

    /// Whether the context `id` is shown (the root always is).
    pub fn is_shown(&self, id: NodeId) -> bool {
        self.shown[id.0 as usize]
    }

    /// The sum of the values left out, in `metric`.
    pub fn hidden(&self, metric: Metric) -> u64 {
        self.hidden
            .iter()
            .find(|&&(hidden, _)| hidden == metric)
            .map_or(0, |&(_, sum)| sum)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shown_paths(p: &Profile, visible: &Visible) -> Vec<String> {
        let mut paths: Vec<String> = (1..p.nodes().len() as u32)
            .map(NodeId)
            .filter(|&id| visible.is_shown(id))
            .map(|id| p.path(id).join(";"))
            .collect();
        paths.sort();
        paths
    }

    fn sample() -> Profile {
        crate::threshold_case().0
    }

    #[test]
    fn everything_is_shown_by_default() {
        let p = sample();
        let visible = Visible::of(&p, &Totals::of(&p), &Options::new(Metric::Bytecodes));
        assert_eq!(shown_paths(&p, &visible).len(), 5);
        assert_eq!(visible.hidden_contexts, 0);
    }

    #[test]
    fn a_threshold_hides_small_subtrees_and_counts_them_once() {
        let p = sample();
        let options = Options {
            threshold: 6.0,
            ..Options::new(Metric::Bytecodes)
        };
        let visible = Visible::of(&p, &Totals::of(&p), &options);
        assert_eq!(shown_paths(&p, &visible), ["main", "main;big", "main;big;deep"]);
        assert_eq!(visible.hidden_contexts, 2);
        assert_eq!(
            (visible.hidden(Metric::Bytecodes), visible.hidden(Metric::Calls)),
            (5, 2)
        );
    }

    #[test]
    fn max_depth_cuts_deeper_contexts() {
        let p = sample();
        let options = Options {
            max_depth: Some(2),
            ..Options::new(Metric::Calls)
        };
        let visible = Visible::of(&p, &Totals::of(&p), &options);
        assert_eq!(shown_paths(&p, &visible), ["main", "main;big", "main;small"]);
        assert_eq!(
            (visible.hidden_contexts, visible.hidden(Metric::Bytecodes)),
            (2, 8)
        );
    }
}
