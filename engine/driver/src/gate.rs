//! The regression gate's requests, for the build plugins (through `jp-jni`,
//! as JSON): record a baseline of a run's profiles, or check a run's
//! profiles against one. `jp baseline` and `jp check` do the same.
//!
//! The requests and outcomes cross from the Java facade as JSON, given field
//! by field in docs/engine-json.md. Everything but `profiles`, `out` and
//! `baseline` may be left out; paths are absolute. `keepProfiles` keeps a copy of the baseline's profiles in
//! that directory ([`jp_gate::keep_profiles`]); a check given them as
//! `diffBase` writes the diff of them against its run to `diffOut`. A check that cannot compare (no baseline, a malformed one,
//! one of other settings, unreadable profiles) is an error, not an outcome.

use std::path::PathBuf;

use jp_gate::pattern::Pattern;
use jp_gate::summary::{self, SummaryFormat};
use jp_gate::{DiffReport, GateError, Instrumented, Kind, Tolerances};
use jp_report::metric::MetricName;
use serde::{Deserialize, Serialize};

use crate::api::check_absolute;
use crate::EngineError;

/// Which profiles to record, and where.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BaselineRequest {
    /// The profiles of one run, merged; absolute.
    pub profiles: Vec<PathBuf>,
    /// The baseline file, written atomically; absolute.
    pub out: PathBuf,
    /// Methods with fewer own bytecodes (own value in `metric`) are left
    /// out (default [`jp_gate::DEFAULT_METHOD_FLOOR`]).
    #[serde(default)]
    pub method_floor: Option<u64>,
    /// The metric to record and gate, as `jp baseline --metric` takes it
    /// (`allocations`); bytecodes when absent.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metric: Option<String>,
    /// The include patterns the classes were instrumented with.
    #[serde(default)]
    pub include: Vec<String>,
    /// The exclude patterns the classes were instrumented with.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// A directory to keep a copy of the profiles in, replaced whole; absolute.
    #[serde(default)]
    pub keep_profiles: Option<PathBuf>,
}

/// What a baseline recorded.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BaselineOutcome {
    /// How many tests.
    pub tests: usize,
    /// How many methods (at or above the floor).
    pub methods: usize,
}

/// A tolerance for the tests and methods a pattern names.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PatternTolerance {
    /// `*` stands for any text.
    pub pattern: String,
    /// In percent of the baseline's bytecodes.
    pub percent: f64,
}

/// Which profiles to check against which baseline, and how strictly.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CheckRequest {
    /// The profiles of the run to check, merged; absolute.
    pub profiles: Vec<PathBuf>,
    /// The baseline file; absolute.
    pub baseline: PathBuf,
    /// The include patterns the classes were instrumented with.
    #[serde(default)]
    pub include: Vec<String>,
    /// The exclude patterns the classes were instrumented with.
    #[serde(default)]
    pub exclude: Vec<String>,
    /// The default tolerance in percent ([`jp_gate::DEFAULT_TOLERANCE`] when absent).
    #[serde(default)]
    pub tolerance: Option<f64>,
    /// Tolerances by pattern; the first that matches wins.
    #[serde(default)]
    pub tolerances: Vec<PatternTolerance>,
    /// Tests and methods left out of the check.
    #[serde(default)]
    pub ignore: Vec<String>,
    /// Where to write the summaries (`jp-check.txt`, `.json`, `.md`); absolute.
    #[serde(default)]
    pub report_dir: Option<PathBuf>,
    /// The profiles the baseline was recorded from, to diff against; absolute.
    #[serde(default)]
    pub diff_base: Vec<PathBuf>,
    /// Where the HTML diff goes; absolute, and needed with `diff_base`.
    #[serde(default)]
    pub diff_out: Option<PathBuf>,
}

/// What a check found.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CheckOutcome {
    /// No regression beyond the tolerance.
    pub passed: bool,
    /// How many entries grew beyond their tolerance.
    pub regressions: usize,
    /// How many shrank beyond it.
    pub improvements: usize,
    /// The text summary, for the build log.
    pub summary: String,
    /// The HTML diff written, if any.
    pub diff_report: Option<PathBuf>,
}

/// Records the baseline of a request's profiles.
///
/// # Errors
/// A relative path ([`EngineError::InvalidRequest`]), and the profiles'
/// and the file's errors ([`EngineError::Gate`]).
pub fn baseline(request: &BaselineRequest) -> Result<BaselineOutcome, EngineError> {
    check_absolute("out", &request.out)?;
    check_profiles("profiles", &request.profiles)?;
    if let Some(dir) = &request.keep_profiles {
        check_absolute("keepProfiles", dir)?;
    }
    let instrumented = Instrumented {
        includes: request.include.clone(),
        excludes: request.exclude.clone(),
    };
    let floor = request.method_floor.unwrap_or(jp_gate::DEFAULT_METHOD_FLOOR);
    let metric = request
        .metric
        .as_deref()
        .map(MetricName::parse)
        .unwrap_or_default();
    let (baseline, _warnings) = jp_gate::record(&request.profiles, &instrumented, floor, &metric)?;
    jp_gate::write_baseline(&baseline, &request.out)?;
    if let Some(dir) = &request.keep_profiles {
        jp_gate::keep_profiles(&request.profiles, dir)?;
    }
    let tests = baseline
        .entries
        .keys()
        .filter(|(kind, _)| *kind == Kind::Test)
        .count();
    Ok(BaselineOutcome {
        tests,
        methods: baseline.entries.len() - tests,
    })
}

/// Checks a request's profiles against its baseline.
///
/// # Errors
/// A relative path or a negative tolerance ([`EngineError::InvalidRequest`]);
/// no comparison possible, or a summary that cannot be written ([`EngineError::Gate`]).
pub fn check(request: &CheckRequest) -> Result<CheckOutcome, EngineError> {
    check_absolute("baseline", &request.baseline)?;
    check_profiles("profiles", &request.profiles)?;
    check_profiles("diffBase", &request.diff_base)?;
    let diff = match (&request.diff_out, request.diff_base.is_empty()) {
        (_, true) => None,
        (Some(out), false) => {
            check_absolute("diffOut", out)?;
            Some(DiffReport {
                base: request.diff_base.clone(),
                out: out.clone(),
                max_output_size: Some(jp_report::DEFAULT_MAX_OUTPUT_SIZE),
            })
        }
        (None, false) => {
            return Err(EngineError::InvalidRequest(
                "diffBase needs diffOut, the diff report's path".to_owned(),
            ))
        }
    };
    let percents = request
        .tolerance
        .iter()
        .chain(request.tolerances.iter().map(|t| &t.percent));
    if let Some(bad) = percents.into_iter().find(|p| !(p.is_finite() && **p >= 0.0)) {
        return Err(EngineError::InvalidRequest(format!(
            "tolerance {bad} is not a percentage, 0 or more"
        )));
    }
    let tolerances = Tolerances {
        default: request.tolerance.unwrap_or(jp_gate::DEFAULT_TOLERANCE),
        per_pattern: request
            .tolerances
            .iter()
            .map(|t| (Pattern::new(&t.pattern), t.percent))
            .collect(),
        ignore: request.ignore.iter().map(|text| Pattern::new(text)).collect(),
    };
    let instrumented = Instrumented {
        includes: request.include.clone(),
        excludes: request.exclude.clone(),
    };
    let (check, _warnings) = jp_gate::check(
        &request.profiles,
        &instrumented,
        &request.baseline,
        &tolerances,
        diff.as_ref(),
    )?;
    if let Some(dir) = &request.report_dir {
        check_absolute("reportDir", dir)?;
        for (format, name) in SummaryFormat::FILES {
            let path = dir.join(name);
            jp_atomic_file::write_atomically(&path, |out| summary::write(&check, format, out))
                .map_err(|source| GateError::Write { path, source })?;
        }
    }
    let mut text = Vec::new();
    summary::write(&check, SummaryFormat::Text, &mut text).expect("writing to memory cannot fail");
    let c = &check.comparison;
    Ok(CheckOutcome {
        passed: c.passed(),
        regressions: c.regressions.len(),
        improvements: c.improvements.len(),
        summary: String::from_utf8(text).expect("summaries are UTF-8"),
        diff_report: check.diff_report,
    })
}

fn check_profiles(field: &str, profiles: &[PathBuf]) -> Result<(), EngineError> {
    for (i, profile) in profiles.iter().enumerate() {
        check_absolute(&format!("{field}[{i}]"), profile)?;
    }
    Ok(())
}

/// Runs a baseline request given as JSON; gives the outcome as JSON.
///
/// # Errors
/// JSON that is not a baseline request, and the errors of [`baseline`].
pub fn baseline_json(request_json: &str) -> Result<String, EngineError> {
    let request: BaselineRequest = serde_json::from_str(request_json).map_err(EngineError::RequestJson)?;
    Ok(serde_json::to_string(&baseline(&request)?).expect("an outcome always serialises"))
}

/// Runs a check request given as JSON; gives the outcome as JSON.
///
/// # Errors
/// JSON that is not a check request, and the errors of [`check`].
pub fn check_json(request_json: &str) -> Result<String, EngineError> {
    let request: CheckRequest = serde_json::from_str(request_json).map_err(EngineError::RequestJson)?;
    Ok(serde_json::to_string(&check(&request)?).expect("an outcome always serialises"))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PROFILE: &str = "jp-profile 1\nmeta bba default\nframe 1 [test] a.T#t()\nframe 2 a.A.work()V\n\
                           node 1 0 1 0 0\nnode 2 1 2 1 2000\nend 2\n";

    #[test]
    fn a_baseline_then_a_check_of_a_grown_run_fails_naming_the_method() {
        let dir = tempfile::tempdir().unwrap();
        let before = dir.path().join("before.jpprof");
        std::fs::write(&before, PROFILE).unwrap();
        let out = dir.path().join("jp-baseline.txt");
        let request = format!(
            r#"{{"profiles": [{:?}], "out": {:?}, "include": ["a.**"]}}"#,
            before.display().to_string(),
            out.display().to_string()
        );
        assert_eq!(baseline_json(&request).unwrap(), r#"{"tests":1,"methods":1}"#);
        let after = dir.path().join("after.jpprof");
        std::fs::write(&after, PROFILE.replace("1 2000", "1 2100")).unwrap();
        let check_request = |include: &str| CheckRequest {
            profiles: vec![after.clone()],
            baseline: out.clone(),
            include: vec![include.to_owned()],
            exclude: vec![],
            tolerance: None,
            tolerances: vec![],
            ignore: vec![],
            report_dir: Some(dir.path().join("reports")),
            diff_base: vec![],
            diff_out: None,
        };
        let outcome = check(&check_request("a.**")).unwrap();
        assert!(!outcome.passed);
        assert_eq!(outcome.regressions, 2);
        assert!(outcome
            .summary
            .contains("regression: method a.A.work()V: 2000 -> 2100 bytecodes (+100, +5.00%"));
        assert!(dir.path().join("reports/jp-check.md").is_file());
        assert_eq!(outcome.diff_report, None);
        let refused = check(&check_request("b.**")).unwrap_err().to_string();
        assert!(
            refused.contains("include is `a.**` in the baseline, `b.**` now"),
            "{refused}"
        );
    }

    #[test]
    fn a_baseline_keeps_its_profiles_and_a_check_diffs_against_them() {
        let dir = tempfile::tempdir().unwrap();
        let path = |name: &str| dir.path().join(name).display().to_string();
        std::fs::write(path("before.jpprof"), PROFILE).unwrap();
        std::fs::write(path("after.jpprof"), PROFILE.replace("1 2000", "1 2100")).unwrap();
        let kept = dir.path().join("kept");
        std::fs::create_dir(&kept).unwrap();
        std::fs::write(kept.join("stale.jpprof"), PROFILE).unwrap();
        let baseline_request = format!(
            r#"{{"profiles": [{:?}], "out": {:?}, "keepProfiles": {:?}}}"#,
            path("before.jpprof"),
            path("jp-baseline.txt"),
            path("kept")
        );
        baseline_json(&baseline_request).unwrap();
        let copies: Vec<_> = std::fs::read_dir(&kept)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert_eq!(copies, vec![kept.join("0000-before.jpprof")]);

        let check_request = |base: &str| {
            format!(
                r#"{{"profiles": [{:?}], "baseline": {:?}, "diffBase": [{base:?}], "diffOut": {:?}}}"#,
                path("after.jpprof"),
                path("jp-baseline.txt"),
                path("diff.html")
            )
        };
        let unreadable = check_json(&check_request(&path("gone.jpprof")))
            .unwrap_err()
            .to_string();
        assert!(unreadable.contains("gone.jpprof"), "{unreadable}");
        assert!(!dir.path().join("diff.html").exists());

        let base = copies[0].display().to_string();
        let outcome: CheckOutcome =
            serde_json::from_str(&check_json(&check_request(&base)).unwrap()).unwrap();
        assert!(!outcome.passed);
        assert_eq!(outcome.diff_report, Some(dir.path().join("diff.html")));
        assert!(
            outcome.summary.contains(&path("diff.html")),
            "{}",
            outcome.summary
        );
        let page = std::fs::read_to_string(dir.path().join("diff.html")).unwrap();
        assert!(page.contains("a.A.work():void") && page.trim_end().ends_with("</html>"));
    }

    #[test]
    fn gate_requests_refuse_relative_paths_and_unknown_fields() {
        let relative = r#"{"profiles": ["a.jpprof"], "out": "/b.txt"}"#;
        assert!(
            matches!(baseline_json(relative), Err(EngineError::InvalidRequest(m)) if m.contains("profiles[0]"))
        );
        let unknown = r#"{"profiles": [], "baseline": "/b.txt", "colour": 1}"#;
        assert!(matches!(check_json(unknown), Err(EngineError::RequestJson(_))));
        let no_out = r#"{"profiles": [], "baseline": "/b.txt", "diffBase": ["/a.jpprof"]}"#;
        assert!(matches!(check_json(no_out), Err(EngineError::InvalidRequest(m)) if m.contains("diffOut")));
        let negative = r#"{"profiles": [], "baseline": "/b.txt", "tolerance": -1}"#;
        assert!(matches!(
            check_json(negative),
            Err(EngineError::InvalidRequest(_))
        ));
    }
}
