//! Metrics as `--metric` names them, shared by `jp report`, `jp diff` and
//! `jp baseline`: `calls` and `bytecodes` are in every profile; any other
//! name is an extra metric ([`jp_profile::MetricInfo`]), looked up once the
//! profiles are read, and refused with the names the profiles have when
//! none of them has it.

use jp_profile::{Metric, MetricKind, Profile};

/// A metric as the command line names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MetricName {
    /// `calls` or `bytecodes`, which every profile has.
    BuiltIn(Metric),
    /// Another name (`allocations`, `allocations:int[]`, `cpu-samples`):
    /// an extra metric that some profiles may have.
    Extra(String),
}

impl Default for MetricName {
    /// Bytecodes, what reports, diffs and baselines show unless told.
    fn default() -> MetricName {
        MetricName::BuiltIn(Metric::Bytecodes)
    }
}

impl MetricName {
    /// The metric `text` names.
    pub fn parse(text: &str) -> MetricName {
        match text {
            "calls" => MetricName::BuiltIn(Metric::Calls),
            "bytecodes" => MetricName::BuiltIn(Metric::Bytecodes),
            name => MetricName::Extra(name.to_owned()),
        }
    }

    /// The name as written on the command line.
    pub fn name(&self) -> &str {
        match self {
            MetricName::BuiltIn(Metric::Calls) => "calls",
            MetricName::BuiltIn(_) => "bytecodes",
            MetricName::Extra(name) => name,
        }
    }

    /// As report and diff options hold it: the metric, and the name to
    /// resolve once the profiles are read (`None` for a built-in metric,
    /// whose metric is already the one; bytecodes until then otherwise).
    pub fn into_options(self) -> (Metric, Option<String>) {
        match self {
            MetricName::BuiltIn(metric) => (metric, None),
            MetricName::Extra(name) => (Metric::Bytecodes, Some(name)),
        }
    }

    /// The metric in `profile`, if it has it.
    pub fn find(&self, profile: &Profile) -> Option<Metric> {
        match self {
            MetricName::BuiltIn(metric) => Some(*metric),
            MetricName::Extra(name) => profile.metric(name),
        }
    }
}

/// Why a metric cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum MetricError {
    /// No profile (or recording) has a metric of that name.
    #[error("no metric `{name}` in the profiles; they have {known}")]
    Unknown {
        /// The name asked for.
        name: String,
        /// The metrics there are, comma-separated.
        known: String,
    },
    /// Extra metrics are the merged tree's: thread groups keep none.
    #[error("metric `{0}` is not kept per thread group: report it without `--thread`")]
    PerThread(String),
    /// A sampled metric's values change from run to run, so their
    /// difference is no exact change: diffs and baselines refuse it.
    #[error(
        "metric `{0}` is sampled, not exact: its values change from run to run, so they are not compared; \
         report each side with `jp report --metric {0}`"
    )]
    Sampled(String),
}

/// The metric `name` names in `profile`.
///
/// # Errors
/// [`MetricError::Unknown`], listing the metrics `profile` has.
pub fn resolve(name: &MetricName, profile: &Profile) -> Result<Metric, MetricError> {
    name.find(profile).ok_or_else(|| unknown(name.name(), &[profile]))
}

/// The error for a metric that none of `profiles` has, listing every
/// metric they have, each once, in order of first appearance.
pub fn unknown(name: &str, profiles: &[&Profile]) -> MetricError {
    let mut known: Vec<String> = Vec::new();
    for profile in profiles {
        for metric in profile.metrics() {
            let listed = format!("`{}`", profile.metric_info(metric).name);
            if !known.contains(&listed) {
                known.push(listed);
            }
        }
    }
    MetricError::Unknown {
        name: name.to_owned(),
        known: known.join(", "),
    }
}

/// Refuses a sampled metric where only exact counts can be compared.
///
/// # Errors
/// [`MetricError::Sampled`] when `metric` is sampled in `profile`.
pub fn exact(profile: &Profile, metric: Metric) -> Result<Metric, MetricError> {
    let info = profile.metric_info(metric);
    match info.kind {
        MetricKind::Exact => Ok(metric),
        MetricKind::Sampled => Err(MetricError::Sampled(info.name.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_names_parse_to_their_metric_and_others_are_looked_up() {
        assert_eq!(MetricName::parse("calls"), MetricName::BuiltIn(Metric::Calls));
        assert_eq!(MetricName::parse("bytecodes").name(), "bytecodes");
        let (profile, samples) = crate::sampled_profile();
        let name = MetricName::parse("cpu-samples");
        assert_eq!(resolve(&name, &profile).unwrap(), samples);
        assert_eq!(
            resolve(&MetricName::parse("allocations"), &profile)
                .unwrap_err()
                .to_string(),
            "no metric `allocations` in the profiles; they have `calls`, `bytecodes`, `cpu-samples`"
        );
    }

    #[test]
    fn a_sampled_metric_is_refused_where_exact_counts_are_compared() {
        let (profile, samples) = crate::sampled_profile();
        assert_eq!(exact(&profile, Metric::Calls).unwrap(), Metric::Calls);
        assert!(exact(&profile, samples)
            .unwrap_err()
            .to_string()
            .starts_with("metric `cpu-samples` is sampled, not exact"));
    }
}
