//! Metrics beyond calls and bytecodes (format version 4): named values per
//! context, each with a unit and whether it is exact or sampled.
//!
//! A metric is a column of values over the merged tree's contexts, kept
//! beside the nodes rather than in them, so that a profile without extra
//! metrics costs nothing more and a new metric needs no new field. Thread
//! groups keep calls and bytecodes alone: extra values are the merged
//! tree's.

use std::borrow::Cow;

use crate::model::{Metric, NodeId, Profile};

/// An extra metric's position in [`Profile::extra_metrics`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct MetricId(pub u16);

/// Whether a metric's values are reproducible.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum MetricKind {
    /// Counted: the same run gives the same values (`exact` in files).
    Exact,
    /// Sampled: an estimate that changes from run to run (`sampled` in files).
    Sampled,
}

impl MetricKind {
    /// `exact` or `sampled`, as in `metric` records.
    pub fn name(self) -> &'static str {
        match self {
            MetricKind::Exact => "exact",
            MetricKind::Sampled => "sampled",
        }
    }

    /// The kind named `name` in a `metric` record.
    pub fn from_name(name: &str) -> Option<MetricKind> {
        match name {
            "exact" => Some(MetricKind::Exact),
            "sampled" => Some(MetricKind::Sampled),
            _ => None,
        }
    }
}

/// What a metric is: its name (one word, as `--metric` takes it), the unit
/// of its values and its kind.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct MetricInfo {
    /// The name, without spaces; never `calls` or `bytecodes`.
    pub name: Cow<'static, str>,
    /// The unit of a value (`samples`, `ns`, `objects`, ...).
    pub unit: Cow<'static, str>,
    /// Exact or sampled.
    pub kind: MetricKind,
}

impl MetricInfo {
    /// How reports label the metric: its name, and for an extra metric
    /// whether its values are exact counts or estimates from samples (calls
    /// and bytecodes are always exact, and say so nowhere).
    pub fn label(&self) -> String {
        match self.kind {
            MetricKind::Exact if *self == CALLS || *self == BYTECODES => self.name.to_string(),
            MetricKind::Exact => format!("{} (exact)", self.name),
            MetricKind::Sampled => format!("{} (sampled, not reproducible)", self.name),
        }
    }
}

const CALLS: MetricInfo = MetricInfo {
    name: Cow::Borrowed("calls"),
    unit: Cow::Borrowed("calls"),
    kind: MetricKind::Exact,
};

const BYTECODES: MetricInfo = MetricInfo {
    name: Cow::Borrowed("bytecodes"),
    unit: Cow::Borrowed("bytecodes"),
    kind: MetricKind::Exact,
};

/// Whether `name` can name an extra metric: one word, not a built-in metric's.
pub fn valid_metric_name(name: &str) -> bool {
    !name.is_empty() && !name.contains(char::is_whitespace) && name != "calls" && name != "bytecodes"
}

/// One extra metric: what it is and its value per context, indexed by
/// [`NodeId`] (shorter than the arena when the last contexts have none).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct MetricColumn {
    pub(crate) info: MetricInfo,
    values: Vec<u64>,
}

impl Profile {
    /// The extra metrics, indexed by [`MetricId`]; empty for a profile of
    /// calls and bytecodes alone (format versions 1 to 3).
    pub fn extra_metrics(&self) -> impl ExactSizeIterator<Item = &MetricInfo> + '_ {
        self.metrics.iter().map(|column| &column.info)
    }

    /// Every metric of the profile: calls, bytecodes, then the extra ones.
    pub fn metrics(&self) -> Vec<Metric> {
        let extra = (0..self.metrics.len()).map(|index| Metric::Extra(MetricId(index as u16)));
        [Metric::Calls, Metric::Bytecodes]
            .into_iter()
            .chain(extra)
            .collect()
    }

    /// What `metric` is.
    ///
    /// # Panics
    /// If `metric` is an extra metric of another profile.
    pub fn metric_info(&self, metric: Metric) -> &MetricInfo {
        match metric {
            Metric::Calls => &CALLS,
            Metric::Bytecodes => &BYTECODES,
            Metric::Extra(id) => &self.metrics[usize::from(id.0)].info,
        }
    }

    /// The metric named `name`, if the profile has it.
    pub fn metric(&self, name: &str) -> Option<Metric> {
        self.metrics()
            .into_iter()
            .find(|&metric| self.metric_info(metric).name == name)
    }

    /// The extra metric named as `info`, added if new. A metric already
    /// there keeps its unit, and becomes sampled if `info` is: a sum with
    /// sampled values is no exact count.
    ///
    /// # Panics
    /// If the name is not [valid](valid_metric_name), or on the 2¹⁶th metric.
    pub fn define_metric(&mut self, info: MetricInfo) -> MetricId {
        assert!(
            valid_metric_name(&info.name),
            "{:?} cannot name a metric",
            info.name
        );
        if let Some(index) = self
            .metrics
            .iter()
            .position(|column| column.info.name == info.name)
        {
            if info.kind == MetricKind::Sampled {
                self.metrics[index].info.kind = MetricKind::Sampled;
            }
            return MetricId(index as u16);
        }
        let id = MetricId(u16::try_from(self.metrics.len()).expect("fewer than 2^16 metrics"));
        self.metrics.push(MetricColumn {
            info,
            values: Vec::new(),
        });
        id
    }

    /// The own value of context `id` in `metric`.
    pub fn value(&self, id: NodeId, metric: Metric) -> u64 {
        match metric {
            Metric::Calls => self.node(id).calls,
            Metric::Bytecodes => self.node(id).bytecodes,
            Metric::Extra(extra) => {
                let values = &self.metrics[usize::from(extra.0)].values;
                values.get(id.0 as usize).copied().unwrap_or(0)
            }
        }
    }

    /// Adds `value` to the own value of context `id` in the extra metric
    /// `metric`, saturating, and tells whether the sum saturated.
    ///
    /// # Panics
    /// If `id` or `metric` is not of this profile.
    pub fn add_value(&mut self, id: NodeId, metric: MetricId, value: u64) -> bool {
        assert!((id.0 as usize) < self.nodes().len(), "{id} is not a node");
        let values = &mut self.metrics[usize::from(metric.0)].values;
        if values.len() <= id.0 as usize {
            values.resize(id.0 as usize + 1, 0);
        }
        let (sum, over) = values[id.0 as usize].overflowing_add(value);
        values[id.0 as usize] = if over { u64::MAX } else { sum };
        over
    }

    /// The contexts with a value in `metric` other than 0, with it, in arena order.
    pub fn extra_values(&self, metric: MetricId) -> impl Iterator<Item = (NodeId, u64)> + '_ {
        let values = &self.metrics[usize::from(metric.0)].values;
        values
            .iter()
            .enumerate()
            .filter(|&(_, &value)| value > 0)
            .map(|(index, &value)| (NodeId(index as u32), value))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::tests::profile;

    #[test]
    fn extra_metrics_are_labelled_exact_or_sampled_and_calls_and_bytecodes_plainly() {
        let info = |name: &'static str, kind| MetricInfo {
            name: Cow::Borrowed(name),
            unit: Cow::Borrowed("objects"),
            kind,
        };
        assert_eq!(
            info("allocations", MetricKind::Exact).label(),
            "allocations (exact)"
        );
        assert_eq!(
            info("cpu-samples", MetricKind::Sampled).label(),
            "cpu-samples (sampled, not reproducible)"
        );
        assert_eq!(CALLS.label(), "calls");
        assert_eq!(BYTECODES.label(), "bytecodes");
    }

    fn samples() -> MetricInfo {
        MetricInfo {
            name: "cpu-samples".into(),
            unit: "samples".into(),
            kind: MetricKind::Sampled,
        }
    }

    #[test]
    fn an_extra_metric_is_a_column_of_values_beside_calls_and_bytecodes() {
        let mut p = profile(&[(&["main"], 1, 10), (&["main", "f"], 2, 20)]);
        let cpu = p.define_metric(samples());
        p.add_value(NodeId(2), cpu, 7);
        p.add_value(NodeId(2), cpu, 1);
        let metric = p.metric("cpu-samples").unwrap();
        assert_eq!(metric, Metric::Extra(cpu));
        assert_eq!((p.value(NodeId(1), metric), p.value(NodeId(2), metric)), (0, 8));
        assert_eq!(p.total(metric), 8);
        assert_eq!(p.metrics(), [Metric::Calls, Metric::Bytecodes, metric]);
        assert_eq!(
            p.metric_info(metric).label(),
            "cpu-samples (sampled, not reproducible)"
        );
        assert_eq!(p.metric_info(Metric::Calls).label(), "calls");
        assert_eq!(p.extra_values(cpu).collect::<Vec<_>>(), [(NodeId(2), 8)]);
    }

    #[test]
    fn a_metric_defined_again_is_the_same_and_sampled_if_either_is() {
        let mut p = Profile::new();
        let exact = MetricInfo {
            kind: MetricKind::Exact,
            ..samples()
        };
        let first = p.define_metric(exact);
        assert_eq!(p.define_metric(samples()), first);
        assert_eq!(p.metric_info(Metric::Extra(first)).kind, MetricKind::Sampled);
        assert_eq!(p.extra_metrics().len(), 1);
    }

    #[test]
    fn built_in_names_and_words_with_spaces_name_no_extra_metric() {
        assert!(valid_metric_name("cpu-samples"));
        for name in ["calls", "bytecodes", "", "cpu time"] {
            assert!(!valid_metric_name(name), "{name}");
        }
    }

    #[test]
    fn extra_values_saturate() {
        let mut p = profile(&[(&["main"], 1, 1)]);
        let cpu = p.define_metric(samples());
        assert!(!p.add_value(NodeId(1), cpu, u64::MAX));
        assert!(p.add_value(NodeId(1), cpu, 1));
        assert_eq!(p.value(NodeId(1), Metric::Extra(cpu)), u64::MAX);
    }
}
