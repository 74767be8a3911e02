//! Sampled metrics in a report: the recordings of [`Options::samples`]
//! attached to the merged profile's contexts ([`jp_samples::attach`]), and
//! the metric that [`Options::metric_name`] names resolved against the
//! profile, once it has them.

use jp_profile::Metric;

use crate::run::{Merged, ReportError, ReportWarning};
use crate::Options;

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
}

/// Attaches the samples of `options.samples` to `merged` and gives the
/// options with `metric` resolved from `metric_name`; a recording none of
/// whose samples ran instrumented code is told as a warning.
///
/// # Errors
/// A recording that cannot be read, or a metric the profile does not have.
pub fn with_samples(merged: &mut Merged, options: &Options) -> Result<Options, ReportError> {
    for path in &options.samples {
        let samples = jp_samples::read(path)?;
        let attached = jp_samples::attach(&mut merged.profile, &samples);
        if attached.iter().all(|attached| attached.matched == 0) {
            merged
                .warnings
                .push(ReportWarning::NoSampleMatched { path: path.clone() });
        }
    }
    let Some(name) = &options.metric_name else {
        return Ok(options.clone());
    };
    let profile = &merged.profile;
    let metric = profile.metric(name).ok_or_else(|| {
        let known: Vec<String> = profile
            .metrics()
            .into_iter()
            .map(|metric| format!("`{}`", profile.metric_info(metric).name))
            .collect();
        MetricError::Unknown {
            name: name.clone(),
            known: known.join(", "),
        }
    })?;
    if matches!(metric, Metric::Extra(_)) && options.thread.is_some() {
        return Err(MetricError::PerThread(name.clone()).into());
    }
    Ok(Options {
        metric,
        ..options.clone()
    })
}
