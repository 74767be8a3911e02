//! Sampled metrics in a report: the recordings of [`Options::samples`]
//! attached to the merged profile's contexts ([`jp_samples::attach`]), and
//! the metric that [`Options::metric_name`] names resolved against the
//! profile, once it has them. A directory stands for the JFR recordings in
//! it, as the build plugins write one per test JVM.

use std::path::PathBuf;

use jp_profile::Metric;

use crate::metric::{MetricError, MetricName};
use crate::run::{Merged, ReportError, ReportWarning};
use crate::Options;

/// `paths` with each directory replaced by the `.jfr` files in it, by name.
fn recordings(paths: &[PathBuf]) -> Result<Vec<PathBuf>, ReportError> {
    let mut recordings = Vec::new();
    for path in paths {
        if !path.is_dir() {
            recordings.push(path.clone());
            continue;
        }
        let unreadable = |source| jp_samples::SamplesError::Io {
            path: path.clone(),
            source,
        };
        let mut found = Vec::new();
        for entry in std::fs::read_dir(path).map_err(unreadable)? {
            let entry = entry.map_err(unreadable)?.path();
            if entry.extension().is_some_and(|extension| extension == "jfr") {
                found.push(entry);
            }
        }
        found.sort();
        recordings.extend(found);
    }
    Ok(recordings)
}

/// Attaches the samples of `options.samples` to `merged` and gives the
/// options with `metric` resolved from `metric_name`; a recording none of
/// whose samples ran instrumented code is told as a warning.
///
/// # Errors
/// A recording that cannot be read, or a metric the profile does not have.
pub fn with_samples(merged: &mut Merged, options: &Options) -> Result<Options, ReportError> {
    for path in &recordings(&options.samples)? {
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
    let metric = crate::metric::resolve(&MetricName::Extra(name.clone()), &merged.profile)?;
    if matches!(metric, Metric::Extra(_)) && options.thread.is_some() {
        return Err(MetricError::PerThread(name.clone()).into());
    }
    Ok(Options {
        metric,
        ..options.clone()
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::run::read_all;

    fn merged_with(dir: &std::path::Path, collapsed: &str) -> (Merged, PathBuf) {
        let profile = crate::write_profile(
            dir,
            "p.jpprof",
            &[(&["demo.Main.main()V", "demo.Main.spin()V"], 1, 100)],
        );
        let samples = dir.join("cpu.collapsed");
        std::fs::write(&samples, collapsed).unwrap();
        (read_all(&[profile]).unwrap(), samples)
    }

    fn options(samples: &std::path::Path, name: &str) -> Options {
        Options {
            samples: vec![samples.to_owned()],
            metric_name: Some(name.to_owned()),
            ..Options::new(Metric::Bytecodes)
        }
    }

    #[test]
    fn the_samples_are_attached_and_the_metric_named_resolved() {
        let dir = tempfile::tempdir().unwrap();
        let (mut merged, samples) = merged_with(dir.path(), "demo/Main.main;demo/Main.spin 7\n");
        let resolved = with_samples(&mut merged, &options(&samples, "cpu-samples")).unwrap();
        assert_eq!(merged.profile.total(resolved.metric), 7);
        assert!(merged.warnings.is_empty());
    }

    #[test]
    fn an_unknown_metric_is_refused_with_the_ones_there_are() {
        let dir = tempfile::tempdir().unwrap();
        let (mut merged, samples) = merged_with(dir.path(), "demo/Main.main 1\n");
        let error = with_samples(&mut merged, &options(&samples, "wall")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "no metric `wall` in the profiles; they have `calls`, `bytecodes`, `cpu-samples`"
        );
    }

    #[test]
    fn a_sampled_metric_of_one_thread_group_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let (mut merged, samples) = merged_with(dir.path(), "demo/Main.main 1\n");
        let per_thread = Options {
            thread: Some("main".to_owned()),
            ..options(&samples, "cpu-samples")
        };
        let error = with_samples(&mut merged, &per_thread).unwrap_err();
        assert!(
            error
                .to_string()
                .starts_with("metric `cpu-samples` is not kept per thread group"),
            "{error}"
        );
    }

    #[test]
    fn a_recording_of_another_program_is_told() {
        let dir = tempfile::tempdir().unwrap();
        let (mut merged, samples) = merged_with(dir.path(), "com/acme/Other.main 3\n");
        with_samples(&mut merged, &options(&samples, "cpu-samples")).unwrap();
        assert!(matches!(
            &merged.warnings[..],
            [ReportWarning::NoSampleMatched { .. }]
        ));
    }
}
