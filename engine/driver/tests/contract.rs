//! The JSON that crosses into the engine from the Java facade, pinned by
//! sample files (docs/engine-json.md). Each sample is a request or an
//! outcome written by the engine's own serde types; the facade's tests
//! (`ContractTest` in `engine/java`) read the same files and build the same
//! requests, so a field renamed or added on one side fails on the other.
//!
//! A change of the JSON is a change of the contract: rewrite the samples
//! with `JP_BLESS=1 cargo test -p jp-driver --test contract`, then update
//! docs/engine-json.md and the facade.

use std::fmt::Debug;
use std::fs;
use std::path::{Path, PathBuf};

use jp_driver::api::{BbaName, Message, MetricName, Outcome, ReportRequest, Request, Warning};
use jp_driver::class_rewriter::RewriterSettings;
use jp_driver::gate::{BaselineOutcome, BaselineRequest, CheckOutcome, CheckRequest, PatternTolerance};
use jp_driver::hooked_jar::{HookOutcome, HookRequest};
use jp_driver::instrument::KeptWarning;
use jp_profile::Metric;
use jp_report::run::Format;
use serde::de::DeserializeOwned;
use serde::Serialize;

fn samples() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../java/src/test/resources/org/jpprof/engine/contract")
}

/// Compares `value`, as the engine writes it, with the sample `name`, or
/// rewrites the sample under `JP_BLESS=1`; returns the sample.
fn check_written<T: Serialize>(name: &str, value: &T) -> String {
    let path = samples().join(name);
    let written = serde_json::to_string_pretty(value).unwrap() + "\n";
    if std::env::var_os("JP_BLESS").is_some_and(|bless| bless == "1") {
        fs::create_dir_all(samples()).unwrap();
        fs::write(&path, &written).unwrap();
    }
    let sample = fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error} (JP_BLESS=1 writes it)", path.display()));
    assert_eq!(
        written,
        sample,
        "{} is not what the engine writes; if the contract changed on purpose, rerun with JP_BLESS=1 \
         and update docs/engine-json.md and the facade",
        path.display()
    );
    sample
}

/// [`check_written`], and the sample read back gives `value` again: for
/// what the engine reads as well as writes.
fn check_sample<T: Serialize + DeserializeOwned + PartialEq + Debug>(name: &str, value: &T) {
    let sample = check_written(name, value);
    assert_eq!(&serde_json::from_str::<T>(&sample).unwrap(), value, "{name}");
}

#[test]
fn the_class_rewriter_settings_match_their_sample() {
    check_sample(
        "class-rewriter-settings.json",
        &RewriterSettings {
            bba: Some(BbaName::Precise),
            lines: Some(true),
            natives: Some(true),
            include: vec!["com.acme.**".parse().unwrap()],
            exclude: vec!["**Test".parse().unwrap()],
            config_file: Some("/p/jp.toml".into()),
            cache_dir: Some("/home/u/.cache/jp/agent".into()),
        },
    );
}

#[test]
fn an_instrument_request_matches_its_samples() {
    check_sample(
        "instrument-request.json",
        &Request {
            inputs: vec!["/p/build/classes/java/main".into(), "/p/lib/app.jar".into()],
            output: "/p/build/jp/classes/main".into(),
            cache_dir: Some("/p/build/jp/cache".into()),
            bba: Some(BbaName::Precise),
            lines: Some(true),
            call_sites: Some(true),
            metrics: Some(vec![MetricName::Allocations]),
            include: vec!["com.acme.**".parse().unwrap()],
            exclude: vec!["**Test".parse().unwrap(), "com.acme.gen.*".parse().unwrap()],
            config_file: Some("/p/jp.toml".into()),
        },
    );
    check_sample(
        "instrument-request-bare.json",
        &Request {
            inputs: vec!["/p/classes".into()],
            output: "/p/out".into(),
            ..Request::default()
        },
    );
}

#[test]
fn an_instrument_outcome_matches_its_sample() {
    // The engine only writes outcomes: the facade reads them.
    check_written(
        "instrument-outcome.json",
        &Outcome {
            rewritten: 3,
            reused: 2,
            copied: 1,
            unchanged: 4,
            deleted: 1,
            warnings: vec![
                Warning::Kept {
                    path: "/p/lib/app.jar!com/acme/Big.class".to_owned(),
                    kept: KeptWarning {
                        class: "com/acme/Big".to_owned(),
                        method: None,
                        reason: "class kept as it was: the constant pool is full".to_owned(),
                    },
                },
                Warning::Kept {
                    path: "/p/classes/com/acme/Main.class".to_owned(),
                    kept: KeptWarning {
                        class: "com/acme/Main".to_owned(),
                        method: Some("run()V".to_owned()),
                        reason: "too large".to_owned(),
                    },
                },
            ],
            errors: vec![Message {
                path: "/p/classes/com/acme/Broken.class".to_owned(),
                message: "malformed class file: truncated".to_owned(),
            }],
            notes: Vec::new(),
            engine_millis: 42,
        },
    );
}

#[test]
fn a_report_request_matches_its_sample() {
    check_sample(
        "report-request.json",
        &ReportRequest {
            profiles: vec!["/p/a.jpprof".into(), "/p/b.jpprof".into()],
            format: Format::Html,
            metric: Metric::Calls,
            threshold: 1.5,
            max_depth: Some(8),
            title: Some("demo: jpProfileTest".into()),
            sources: vec!["/p/src/main/java".into(), "/p/src/main/kotlin".into()],
            samples: vec!["/p/jfr".into()],
            out: "/p/report/index.html".into(),
        },
    );
}

#[test]
fn the_report_formats_match_their_sample() {
    // Each format's name in requests: the facade's `ReportRequest.Format` has the same ones.
    check_sample("report-formats.json", &Format::ALL.to_vec());
}

#[test]
fn a_baseline_request_and_outcome_match_their_samples() {
    check_sample(
        "baseline-request.json",
        &BaselineRequest {
            profiles: vec!["/p/a.jpprof".into()],
            out: "/p/jp-baseline.txt".into(),
            method_floor: Some(100),
            metric: Some("allocations".to_owned()),
            include: vec!["com.acme.**".to_owned()],
            exclude: vec!["**Test".to_owned()],
            keep_profiles: Some("/p/baseline-profiles".into()),
        },
    );
    check_sample(
        "baseline-outcome.json",
        &BaselineOutcome {
            tests: 12,
            methods: 340,
        },
    );
}

#[test]
fn a_check_request_and_outcome_match_their_samples() {
    check_sample(
        "check-request.json",
        &CheckRequest {
            profiles: vec!["/p/a.jpprof".into()],
            baseline: "/p/jp-baseline.txt".into(),
            include: vec!["com.acme.**".to_owned()],
            exclude: vec!["**Test".to_owned()],
            tolerance: Some(2.5),
            tolerances: vec![PatternTolerance {
                pattern: "com.acme.Slow*".to_owned(),
                percent: 10.0,
            }],
            ignore: vec!["com.acme.Flaky*".to_owned()],
            report_dir: Some("/p/check".into()),
            diff_base: vec!["/p/baseline-profiles/a.jpprof".into()],
            diff_out: Some("/p/check/check-diff.html".into()),
        },
    );
    check_sample(
        "check-outcome.json",
        &CheckOutcome {
            passed: false,
            regressions: 1,
            improvements: 2,
            summary: "jp check: 1 regression, 2 improvements\n".to_owned(),
            diff_report: Some("/p/check/check-diff.html".into()),
        },
    );
}

#[test]
fn a_hook_request_and_outcome_match_their_samples() {
    check_sample(
        "hook-request.json",
        &HookRequest {
            jar: "/p/lib/junit-4.13.2.jar".into(),
            class: "org/junit/runner/notification/RunNotifier".to_owned(),
            hook_class: "org/jpprof/junit/JUnit4Hook".to_owned(),
            hook_method: "attach".to_owned(),
            output_dir: "/p/build/jp/hooked".into(),
        },
    );
    check_sample(
        "hook-outcome.json",
        &HookOutcome {
            jar: "/p/build/jp/hooked/junit-4.13.2-jp-0123456789abcdef.jar".into(),
            reused: true,
        },
    );
}
