//! `jp diff` beyond the golden cases: every format of a profile against
//! itself says that nothing changed, `--out` gets what stdout would, and a
//! diff that fails leaves nothing behind.

mod common;

use std::fs;

use common::{jp, profile, stdout};

#[test]
fn a_profile_against_itself_shows_no_change_in_any_format() {
    let base = profile("diff_base.jpprof");
    let diff = |format: &str| stdout(&jp(&["diff", &base, "--against", &base, "--format", format]));
    let text = diff("text");
    for nothing in ["No method changed.", "No test changed.", "No path changed."] {
        assert!(text.contains(nothing), "{nothing}: {text}");
    }
    let json = diff("json");
    for empty in [
        "\"methods\":[]",
        "\"tests\":[]",
        "\"contexts\":[]",
        "\"changed\":0,",
    ] {
        assert!(json.contains(empty), "{empty}: {json}");
    }
    let html = diff("html");
    assert!(html.contains("\"methods\":[],\"methodsLeft\":0"), "{html}");
    assert!(html.contains("\"tests\":[],\"testsLeft\":0"), "{html}");
    // Own counts alike on both sides: the arrays of every metric of each side.
    let side = |key: &str, next: &str| {
        let start = html.find(&format!("\"{key}\":[")).unwrap();
        let end = start + html[start..].find(&format!("\"{next}\":[")).unwrap();
        html[start + key.len() + 3..end].to_string()
    };
    assert_eq!(side("base", "new"), side("new", "methods"));
    assert!(html.contains("\"metrics\":[\"calls\",\"bytecodes\"]"), "{html}");
}

#[test]
fn an_extra_metric_reaches_every_format_with_its_exact_deltas() {
    let (base, new) = (profile("allocations.jpprof"), profile("allocations_new.jpprof"));
    let diff = |format: &str| {
        stdout(&jp(&[
            "diff",
            &base,
            "--against",
            &new,
            "--metric",
            "allocations",
            "--format",
            format,
        ]))
    };
    let json: serde_json::Value = serde_json::from_str(&diff("json")).unwrap();
    assert_eq!(json["totals"]["delta"]["allocations"], 6);
    assert_eq!(json["methods"][0]["method"], "demo.Alloc.fill(I)[I");
    assert_eq!(json["methods"][0]["delta"]["allocations"], 5);
    let html = diff("html");
    assert!(
        html.contains("\"metric\":\"allocations\"")
            && html.contains("\"metrics\":[\"calls\",\"bytecodes\",\"allocations\"]"),
        "{html}"
    );
}

#[test]
fn the_method_made_to_do_more_work_ranks_first() {
    let (base, new) = (profile("diff_base.jpprof"), profile("diff_new.jpprof"));
    // The HTML page's table is ranked by its script: see integration-tests/reports/diff.test.mjs.
    for format in ["text", "json"] {
        let out = stdout(&jp(&["diff", &base, "--against", &new, "--format", format]));
        let first = ["demo.Parser.parse", "demo.Parser.validate", "demo.Lexer.peek"]
            .into_iter()
            .min_by_key(|name| out.find(name).unwrap_or(usize::MAX))
            .unwrap();
        assert_eq!(first, "demo.Parser.parse", "{format}: {out}");
    }
}

#[test]
fn out_receives_what_stdout_would_and_a_failure_writes_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("diff.json");
    let (base, new) = (profile("diff_base.jpprof"), profile("diff_new.jpprof"));
    let args = ["diff", &base, "--against", &new, "--format", "json"];
    let to_stdout = stdout(&jp(&args));
    let to_file = jp(&[&args[..], &["--out", target.to_str().unwrap()]].concat());
    assert_eq!(to_file.status.code(), Some(0));
    assert!(to_file.stdout.is_empty() && to_file.stderr.is_empty());
    assert_eq!(fs::read_to_string(&target).unwrap(), to_stdout);

    fs::write(&target, "the last good diff\n").unwrap();
    let truncated = profile("truncated.jpprof");
    for (base, new) in [(&truncated, &new), (&base, &truncated)] {
        let output = jp(&["diff", base, "--against", new, "--out", target.to_str().unwrap()]);
        assert_eq!(output.status.code(), Some(2));
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(stderr.contains("truncated.jpprof:9: truncated"), "{stderr}");
        assert_eq!(fs::read_to_string(&target).unwrap(), "the last good diff\n");
        assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    }
}

#[test]
fn a_diff_over_the_size_limit_is_refused_and_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("diff.html");
    let (base, new) = (profile("diff_base.jpprof"), profile("diff_new.jpprof"));
    let output = jp(&[
        "diff",
        &base,
        "--against",
        &new,
        "--format",
        "html",
        "--max-output-size",
        "1K",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("the html diff reached the limit of 1 KiB"),
        "{stderr}"
    );
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}
