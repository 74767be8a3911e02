//! The request API that the build plugins call (through `jp-jni`, as JSON)
//! and its serde types. One call instruments a set of inputs into an output
//! directory, incrementally when the request names a cache directory
//! ([`run`]); another merges profiles into one report file ([`report`]).
//! The regression gate's requests (baseline, check) are in [`crate::gate`].
//!
//! Every field of each request and outcome, its type and whether it may be
//! left out, is written down once, in docs/engine-json.md, and pinned by the
//! sample files that `tests/contract.rs` checks here and the facade's
//! `ContractTest` checks in Java. Settings given in the request win over the
//! configuration file's (`bba`) or add to them (the patterns), as the command
//! line's do, through the one path both take ([`crate::config::effective`]).
//! Every path must be absolute: the engine runs in a build daemon, whose
//! working directory is not the build's. A report either writes the whole
//! file, atomically, or fails naming every profile that cannot be read.
//!
//! ```no_run
//! let outcome = jp_driver::api::run_json(
//!     r#"{"inputs": ["/p/build/classes/java/main"], "output": "/p/build/jp/classes/main",
//!         "cacheDir": "/p/build/jp/cache"}"#,
//! )?;
//! println!("{outcome}");
//! # Ok::<(), jp_driver::EngineError>(())
//! ```

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use jp_profile::Metric;
use jp_report::run::Format;
use serde::{Deserialize, Serialize};

use crate::config;
pub use crate::config::{BbaName, MetricName};
pub use crate::error::EngineError;
use crate::filter::ClassPattern;
use crate::instrument::{instrument, InstrumentRequest};
pub use crate::instrument::{Message, Outcome, Warning};

/// What to instrument, and how.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Request {
    /// Directories, jars, jmods and class files; absolute.
    pub inputs: Vec<PathBuf>,
    /// The output directory; absolute.
    pub output: PathBuf,
    /// The incremental cache's directory; absolute. Without one, every
    /// input is rewritten and no output is ever deleted.
    #[serde(default)]
    pub cache_dir: Option<PathBuf>,
    /// The basic-block analysis; wins over the configuration file's.
    #[serde(default)]
    pub bba: Option<BbaName>,
    /// Per-line counts; wins over the configuration file's. Left out of
    /// the JSON when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub lines: Option<bool>,
    /// Contexts split by call site; wins over the configuration file's.
    /// Left out of the JSON when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_sites: Option<bool>,
    /// Extra exact metrics (`["allocations"]`); win over the configuration
    /// file's. Left out of the JSON when not given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub metrics: Option<Vec<MetricName>>,
    /// Include patterns, added to the configuration file's; checked when
    /// the request is read.
    #[serde(default)]
    pub include: Vec<ClassPattern>,
    /// Exclude patterns, added to the configuration file's; checked when
    /// the request is read.
    #[serde(default)]
    pub exclude: Vec<ClassPattern>,
    /// A `jp.toml`; absolute.
    #[serde(default)]
    pub config_file: Option<PathBuf>,
}

/// Runs a request.
///
/// # Errors
/// When the request cannot be run at all: a relative path, an unreadable
/// or invalid configuration file, inputs, output and cache that overlap,
/// an output or cache directory that cannot be written, a lock that cannot
/// be taken. A bad input is not an error of
/// the run: it is one of the outcome's `errors`.
pub fn run(request: &Request) -> Result<Outcome, EngineError> {
    let started = Instant::now();
    check_absolute("output", &request.output)?;
    for (i, input) in request.inputs.iter().enumerate() {
        check_absolute(&format!("inputs[{i}]"), input)?;
    }
    if let Some(dir) = &request.cache_dir {
        check_absolute("cacheDir", dir)?;
    }
    if let Some(path) = &request.config_file {
        check_absolute("configFile", path)?;
    }
    let (options, filter) = config::effective(
        request.config_file.as_deref(),
        request.bba,
        request.lines,
        request.call_sites,
        request.metrics.as_deref(),
        &request.include,
        &request.exclude,
    )?;
    let mut outcome = instrument(&InstrumentRequest {
        inputs: request.inputs.clone(),
        output: request.output.clone(),
        scheme: Arc::new(options),
        filter,
        cache: request.cache_dir.clone(),
    })?;
    outcome.engine_millis = u64::try_from(started.elapsed().as_millis()).unwrap_or(u64::MAX);
    Ok(outcome)
}

/// Runs a request given as JSON and answers the outcome as JSON.
///
/// # Errors
/// JSON that is not a request (unknown fields included), and the errors of [`run`].
pub fn run_json(request_json: &str) -> Result<String, EngineError> {
    let request: Request = serde_json::from_str(request_json).map_err(EngineError::RequestJson)?;
    let outcome = run(&request)?;
    Ok(serde_json::to_string(&outcome).expect("an outcome always serialises"))
}

/// Which profiles to merge, and the report to write of them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ReportRequest {
    /// The profiles (`*.jpprof`), merged into one tree; absolute.
    pub profiles: Vec<PathBuf>,
    /// The report's format.
    pub format: Format,
    /// The count that single-metric formats show and `threshold` compares.
    #[serde(default = "bytecodes")]
    pub metric: Metric,
    /// Leave out contexts whose subtree total is below this percentage of
    /// the profile's total; 0 keeps everything.
    #[serde(default)]
    pub threshold: f64,
    /// Leave out contexts deeper than this (a top-level context is at depth 1).
    #[serde(default)]
    pub max_depth: Option<u32>,
    /// The report's title (text and HTML); `None`: one derived from the
    /// profiles, as `jp report` does without `--title`.
    #[serde(default)]
    pub title: Option<String>,
    /// Directories of source files: the HTML report shows the hot
    /// methods' per-line counts beside their source; absolute.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub sources: Vec<PathBuf>,
    /// Recordings of sampled stacks attached to the profiles' contexts as
    /// sampled metrics (`jp report --samples`): JFR recordings, directories
    /// of them, or async-profiler's collapsed stacks; absolute.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub samples: Vec<PathBuf>,
    /// The report file, written atomically; absolute.
    pub out: PathBuf,
}

/// Merges a request's profiles and writes the report, complete or not at all.
///
/// # Errors
/// A relative path, a threshold outside 0–100 or a depth of 0
/// ([`EngineError::InvalidRequest`]); no profiles, unreadable profiles (all
/// of them named) or a report that cannot be written ([`EngineError::Report`]).
pub fn report(request: &ReportRequest) -> Result<(), EngineError> {
    check_absolute("out", &request.out)?;
    for (i, profile) in request.profiles.iter().enumerate() {
        check_absolute(&format!("profiles[{i}]"), profile)?;
    }
    for (i, dir) in request.sources.iter().enumerate() {
        check_absolute(&format!("sources[{i}]"), dir)?;
    }
    for (i, recording) in request.samples.iter().enumerate() {
        check_absolute(&format!("samples[{i}]"), recording)?;
    }
    if !(0.0..=100.0).contains(&request.threshold) {
        return Err(EngineError::InvalidRequest(format!(
            "threshold is {}, not a percentage from 0 to 100",
            request.threshold
        )));
    }
    if request.max_depth == Some(0) {
        return Err(EngineError::InvalidRequest(
            "maxDepth is 0; top-level contexts are at depth 1".to_owned(),
        ));
    }
    let options = jp_report::Options {
        threshold: request.threshold,
        max_depth: request.max_depth,
        title: request.title.clone(),
        sources: request.sources.clone(),
        samples: request.samples.clone(),
        ..jp_report::Options::new(request.metric)
    };
    jp_report::run::run(&request.profiles, request.format, &options, &request.out)?;
    Ok(())
}

/// A report request's metric when it names none.
fn bytecodes() -> Metric {
    Metric::Bytecodes
}

/// Runs a report request given as JSON.
///
/// # Errors
/// JSON that is not a report request (unknown fields included), and the
/// errors of [`report`].
pub fn report_json(request_json: &str) -> Result<(), EngineError> {
    let request: ReportRequest = serde_json::from_str(request_json).map_err(EngineError::RequestJson)?;
    report(&request)
}

pub(crate) fn check_absolute(field: &str, path: &Path) -> Result<(), EngineError> {
    if path.is_absolute() {
        Ok(())
    } else {
        Err(EngineError::InvalidRequest(format!(
            "{field} is not an absolute path: {}",
            path.display()
        )))
    }
}

#[cfg(test)]
mod tests {
    use std::error::Error;

    use super::*;

    #[test]
    fn a_request_reads_and_writes_the_fixed_field_names() {
        let json = r#"{"inputs":["/p/classes","/p/lib/a.jar"],"output":"/p/out","cacheDir":"/p/cache",
            "bba":"precise","include":["com.acme.**"],"exclude":["**Test"],"configFile":"/p/jp.toml"}"#;
        let request: Request = serde_json::from_str(json).unwrap();
        assert_eq!(
            request,
            Request {
                inputs: vec!["/p/classes".into(), "/p/lib/a.jar".into()],
                output: "/p/out".into(),
                cache_dir: Some("/p/cache".into()),
                bba: Some(BbaName::Precise),
                lines: None,
                call_sites: None,
                metrics: None,
                include: vec!["com.acme.**".parse().unwrap()],
                exclude: vec!["**Test".parse().unwrap()],
                config_file: Some("/p/jp.toml".into()),
            }
        );
        let written = serde_json::to_string(&request).unwrap();
        assert_eq!(
            written,
            r#"{"inputs":["/p/classes","/p/lib/a.jar"],"output":"/p/out","cacheDir":"/p/cache","bba":"precise","include":["com.acme.**"],"exclude":["**Test"],"configFile":"/p/jp.toml"}"#
        );
        assert_eq!(serde_json::from_str::<Request>(&written).unwrap(), request);
    }

    #[test]
    fn optional_request_fields_may_be_null_or_absent() {
        let request: Request = serde_json::from_str(
            r#"{"inputs":[],"output":"/o","cacheDir":null,"bba":null,"configFile":null}"#,
        )
        .unwrap();
        assert_eq!(
            request,
            Request {
                output: "/o".into(),
                ..Request::default()
            }
        );
        let bare: Request = serde_json::from_str(r#"{"inputs":["/i"],"output":"/o"}"#).unwrap();
        assert_eq!((bare.cache_dir, bare.bba, bare.config_file), (None, None, None));
    }

    #[test]
    fn an_unknown_request_field_is_rejected_by_name() {
        let error = run_json(r#"{"inputs":[],"output":"/o","cache":"/c"}"#).unwrap_err();
        assert!(matches!(error, EngineError::RequestJson(_)));
        let cause = error.source().unwrap().to_string();
        assert!(cause.contains("unknown field `cache`"), "{cause}");
    }

    #[test]
    fn a_wrong_bba_or_a_missing_output_is_rejected() {
        for json in [
            r#"{"inputs":[],"output":"/o","bba":"exact"}"#,
            r#"{"inputs":[]}"#,
            r#"{"inputs":"/i","output":"/o"}"#,
            "not json",
        ] {
            assert!(
                matches!(run_json(json), Err(EngineError::RequestJson(_))),
                "{json}"
            );
        }
    }

    #[test]
    fn a_bad_pattern_is_refused_naming_it_and_why() {
        let error =
            run_json(r#"{"inputs":[],"output":"/o","exclude":["a.b","com.acme..Main"]}"#).unwrap_err();
        assert!(matches!(error, EngineError::RequestJson(_)));
        let cause = error.source().unwrap().to_string();
        assert!(
            cause.starts_with("pattern `com.acme..Main` has an empty package segment"),
            "{cause}"
        );
    }

    #[test]
    fn relative_paths_are_refused_naming_the_field() {
        let request = Request {
            inputs: vec!["/abs".into(), "build/classes".into()],
            output: "/o".into(),
            ..Request::default()
        };
        let error = run(&request).unwrap_err();
        assert_eq!(
            error.to_string(),
            "invalid request: inputs[1] is not an absolute path: build/classes"
        );
    }

    #[test]
    fn an_outcome_reads_and_writes_the_fixed_field_names() {
        let outcome = Outcome {
            rewritten: 1,
            reused: 2,
            copied: 3,
            unchanged: 4,
            deleted: 5,
            warnings: vec![
                kept("/c/B.class", "B", Some("run()V"), "too large"),
                kept("/c/A.class", "A", None, "class kept as it was: full"),
            ],
            errors: vec![Message {
                path: "/c/C.class".to_owned(),
                message: "malformed class file".to_owned(),
            }],
            notes: Vec::new(),
            engine_millis: 6,
        };
        let json = serde_json::to_string(&outcome).unwrap();
        assert_eq!(
            json,
            r#"{"rewritten":1,"reused":2,"copied":3,"unchanged":4,"deleted":5,"skipped":[{"path":"/c/A.class","reason":"class kept as it was: full"}],"warnings":[{"path":"/c/B.class","message":"B.run()V: too large"}],"errors":[{"path":"/c/C.class","message":"malformed class file"}],"engineMillis":6}"#
        );
    }

    fn kept(path: &str, class: &str, method: Option<&str>, reason: &str) -> Warning {
        Warning::Kept {
            path: path.to_owned(),
            kept: crate::cache::KeptWarning {
                class: class.to_owned(),
                method: method.map(str::to_owned),
                reason: reason.to_owned(),
            },
        }
    }

    #[test]
    fn an_outcome_lists_whole_classes_as_skipped_and_the_rest_as_warnings_in_their_order() {
        let outcome = Outcome {
            warnings: vec![
                kept("/c/A.class", "A", Some("a()V"), "too large"),
                kept("/c/B.class", "B", None, "class kept as it was: full"),
                kept("/c/C.class", "C", Some("c()V"), "too large"),
                Warning::Cache {
                    path: "/cache/objects.idx".to_owned(),
                    message: "damaged".to_owned(),
                },
                kept("/c/D.class", "D", None, "class kept as it was: new"),
            ],
            ..Outcome::default()
        };
        let json: serde_json::Value = serde_json::to_value(&outcome).unwrap();
        assert_eq!(
            json["skipped"],
            serde_json::json!([
                {"path": "/c/B.class", "reason": "class kept as it was: full"},
                {"path": "/c/D.class", "reason": "class kept as it was: new"},
            ])
        );
        assert_eq!(
            json["warnings"],
            serde_json::json!([
                {"path": "/c/A.class", "message": "A.a()V: too large"},
                {"path": "/c/C.class", "message": "C.c()V: too large"},
                {"path": "/cache/objects.idx", "message": "damaged"},
            ])
        );
        let lines: Vec<String> = outcome.warnings.iter().map(ToString::to_string).collect();
        assert_eq!(
            lines,
            [
                "/c/A.class: A.a()V: too large",
                "/c/B.class: B: class kept as it was: full",
                "/c/C.class: C.c()V: too large",
                "/cache/objects.idx: damaged",
                "/c/D.class: D: class kept as it was: new",
            ]
        );
    }

    fn write_profile(path: &Path, paths: &[(&[&str], u64, u64)]) {
        let mut profile = jp_profile::Profile::new();
        for &(frames, calls, bytecodes) in paths {
            profile.add_path(frames, calls, bytecodes);
        }
        let mut bytes = Vec::new();
        jp_profile::write(&profile, &mut bytes).unwrap();
        std::fs::write(path, bytes).unwrap();
    }

    fn report_request(profiles: Vec<PathBuf>, format: Format, out: PathBuf) -> ReportRequest {
        ReportRequest {
            profiles,
            format,
            metric: Metric::Bytecodes,
            threshold: 0.0,
            max_depth: None,
            title: None,
            sources: Vec::new(),
            samples: Vec::new(),
            out,
        }
    }

    #[test]
    fn a_report_request_reads_and_writes_the_fixed_field_names() {
        let json = r#"{"profiles":["/p/a.jpprof","/p/b.jpprof"],"format":"html","metric":"calls",
            "threshold":1.5,"maxDepth":4,"title":"demo","out":"/p/index.html"}"#;
        let request: ReportRequest = serde_json::from_str(json).unwrap();
        assert_eq!(
            request,
            ReportRequest {
                profiles: vec!["/p/a.jpprof".into(), "/p/b.jpprof".into()],
                format: Format::Html,
                metric: Metric::Calls,
                threshold: 1.5,
                max_depth: Some(4),
                title: Some("demo".into()),
                sources: Vec::new(),
                samples: Vec::new(),
                out: "/p/index.html".into(),
            }
        );
        let written = serde_json::to_string(&request).unwrap();
        assert_eq!(
            written,
            r#"{"profiles":["/p/a.jpprof","/p/b.jpprof"],"format":"html","metric":"calls","threshold":1.5,"maxDepth":4,"title":"demo","out":"/p/index.html"}"#
        );
        assert_eq!(serde_json::from_str::<ReportRequest>(&written).unwrap(), request);
        for (name, format) in [
            ("text", Format::Text),
            ("folded", Format::Folded),
            ("speedscope", Format::Speedscope),
            ("html", Format::Html),
            ("pprof", Format::Pprof),
        ] {
            let json = format!(r#"{{"profiles":[],"format":"{name}","out":"/o"}}"#);
            let request: ReportRequest = serde_json::from_str(&json).unwrap();
            assert_eq!(request.format, format);
        }
    }

    #[test]
    fn a_report_request_defaults_to_bytecodes_everything_and_no_depth_limit() {
        let request: ReportRequest =
            serde_json::from_str(r#"{"profiles":["/a.jpprof"],"format":"text","maxDepth":null,"out":"/o"}"#)
                .unwrap();
        assert_eq!(
            request,
            report_request(vec!["/a.jpprof".into()], Format::Text, "/o".into())
        );
    }

    #[test]
    fn a_malformed_report_request_is_rejected() {
        for json in [
            r#"{"profiles":[],"format":"pdf","out":"/o"}"#,
            r#"{"profiles":[],"format":"text","metric":"time","out":"/o"}"#,
            r#"{"profiles":[],"format":"text"}"#,
            r#"{"profiles":[],"format":"text","out":"/o","output":"/o"}"#,
            r#"{"profiles":[],"format":"text","out":"/o","maxDepth":-1}"#,
        ] {
            assert!(
                matches!(report_json(json), Err(EngineError::RequestJson(_))),
                "{json}"
            );
        }
    }

    #[test]
    fn a_report_request_with_bad_settings_is_refused_naming_them() {
        let request = report_request(vec!["a.jpprof".into()], Format::Text, "/o".into());
        assert_eq!(
            report(&request).unwrap_err().to_string(),
            "invalid request: profiles[0] is not an absolute path: a.jpprof"
        );
        let request = ReportRequest {
            sources: vec!["/src".into(), "src/main/java".into()],
            ..report_request(vec![], Format::Html, "/o".into())
        };
        assert_eq!(
            report(&request).unwrap_err().to_string(),
            "invalid request: sources[1] is not an absolute path: src/main/java"
        );
        let request = ReportRequest {
            samples: vec!["build/jp/jfr".into()],
            ..report_request(vec![], Format::Html, "/o".into())
        };
        assert_eq!(
            report(&request).unwrap_err().to_string(),
            "invalid request: samples[0] is not an absolute path: build/jp/jfr"
        );
        let request = ReportRequest {
            threshold: 101.0,
            ..report_request(vec![], Format::Text, "/o".into())
        };
        assert!(
            matches!(report(&request), Err(EngineError::InvalidRequest(m)) if m.contains("threshold is 101"))
        );
        let request = ReportRequest {
            max_depth: Some(0),
            ..report_request(vec![], Format::Text, "/o".into())
        };
        assert!(
            matches!(report(&request), Err(EngineError::InvalidRequest(m)) if m.contains("maxDepth is 0"))
        );
    }

    #[test]
    fn a_report_merges_the_profiles_into_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let a = dir.path().join("a.jpprof");
        let b = dir.path().join("b.jpprof");
        write_profile(&a, &[(&["m.A.main()V", "m.A.sort()V"], 1, 900)]);
        write_profile(
            &b,
            &[
                (&["m.A.main()V"], 1, 10),
                (&["m.A.main()V", "m.A.sort()V"], 1, 100),
            ],
        );
        let out = dir.path().join("report.folded");
        report_json(
            &serde_json::to_string(&report_request(vec![a, b], Format::Folded, out.clone())).unwrap(),
        )
        .unwrap();
        assert_eq!(
            std::fs::read_to_string(&out).unwrap(),
            "m.A.main():void 10\nm.A.main():void;m.A.sort():void 1000\n"
        );
        let html = dir.path().join("index.html");
        let request = ReportRequest {
            metric: Metric::Calls,
            title: Some("demo: jpProfileTest".into()),
            ..report_request(vec![dir.path().join("a.jpprof")], Format::Html, html.clone())
        };
        report(&request).unwrap();
        let page = std::fs::read_to_string(&html).unwrap();
        assert!(page.trim_end().ends_with("</html>") && page.contains("m.A.sort():void"));
        assert!(page.contains("<title>demo: jpProfileTest - JP report</title>"));
    }

    #[test]
    fn a_report_names_every_unreadable_profile_and_writes_nothing() {
        let dir = tempfile::tempdir().unwrap();
        let good = dir.path().join("good.jpprof");
        write_profile(&good, &[(&["m.A.main()V"], 1, 10)]);
        let corrupt = dir.path().join("corrupt.jpprof");
        std::fs::write(&corrupt, "jp-profile 1\nframe 1 x\n").unwrap();
        let missing = dir.path().join("missing.jpprof");
        let out = dir.path().join("report.txt");
        let request = report_request(
            vec![corrupt.clone(), good, missing.clone()],
            Format::Text,
            out.clone(),
        );
        let error = report(&request).unwrap_err();
        assert!(matches!(
            error,
            EngineError::Report(jp_report::ReportError::Unreadable(_))
        ));
        let message = error.to_string();
        assert!(message.contains(&corrupt.display().to_string()), "{message}");
        assert!(message.contains(&missing.display().to_string()), "{message}");
        assert!(!out.exists());
    }

    #[test]
    fn a_report_that_cannot_be_written_names_its_file() {
        let dir = tempfile::tempdir().unwrap();
        let profile = dir.path().join("a.jpprof");
        write_profile(&profile, &[(&["m.A.main()V"], 1, 10)]);
        // Its directory cannot be created: the profile stands where it would be.
        let out = profile.join("report.txt");
        let error = report(&report_request(vec![profile], Format::Text, out.clone())).unwrap_err();
        assert!(matches!(
            error,
            EngineError::Report(jp_report::ReportError::Write { .. })
        ));
        assert!(
            error.to_string().starts_with(&format!("{}: ", out.display())),
            "{error}"
        );
    }

    #[test]
    fn a_report_of_no_profiles_is_an_error() {
        let error = report(&report_request(vec![], Format::Text, "/o/report.txt".into())).unwrap_err();
        assert_eq!(error.to_string(), "no profiles to report on");
    }
}
