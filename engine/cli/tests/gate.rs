//! `jp baseline` and `jp check` on files: what they write, and that they
//! write nothing when they fail.

mod common;

use std::fs;

use common::{gate_data, jp, profile};

#[test]
fn the_same_profiles_give_byte_identical_baselines() {
    let dir = tempfile::tempdir().unwrap();
    let (first, second) = (dir.path().join("1.txt"), dir.path().join("2.txt"));
    for out in [&first, &second] {
        let output = jp(&[
            "baseline".as_ref(),
            gate_data("before.jpprof").as_os_str(),
            "--out".as_ref(),
            out.as_os_str(),
        ]);
        assert!(output.status.success(), "{output:?}");
    }
    let bytes = fs::read(&first).unwrap();
    assert_eq!(bytes, fs::read(&second).unwrap());
    assert_eq!(bytes, fs::read(gate_data("baseline.txt")).unwrap());
}

#[test]
fn a_baseline_of_an_unreadable_profile_leaves_the_old_file_as_it_was() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("jp-baseline.txt");
    fs::write(&out, "old\n").unwrap();
    let truncated = dir.path().join("truncated.jpprof");
    let text = fs::read_to_string(gate_data("before.jpprof")).unwrap();
    fs::write(&truncated, &text[..text.len() - "end 10\n".len()]).unwrap();
    let output = jp(&[
        "baseline".as_ref(),
        truncated.as_os_str(),
        "--out".as_ref(),
        out.as_os_str(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(stderr.contains("truncated.jpprof:"), "{stderr}");
    assert_eq!(fs::read_to_string(&out).unwrap(), "old\n");
    assert_eq!(
        fs::read_dir(dir.path()).unwrap().count(),
        2,
        "no temporary file left"
    );
}

#[test]
fn a_check_writes_every_summary_into_the_report_dir_and_nothing_when_it_cannot_compare() {
    let dir = tempfile::tempdir().unwrap();
    let reports = dir.path().join("reports");
    let check = |baseline: &str| {
        jp(&[
            "check".as_ref(),
            gate_data("after.jpprof").as_os_str(),
            "--baseline".as_ref(),
            gate_data(baseline).as_os_str(),
            "--report-dir".as_ref(),
            reports.as_os_str(),
        ])
    };
    assert_eq!(check("truncated-baseline.txt").status.code(), Some(2));
    assert!(!reports.exists());
    let output = check("baseline.txt");
    assert_eq!(output.status.code(), Some(1));
    let text = fs::read_to_string(reports.join("jp-check.txt")).unwrap();
    assert_eq!(text.as_bytes(), output.stdout);
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(reports.join("jp-check.json")).unwrap()).unwrap();
    assert_eq!(json["passed"], false);
    assert_eq!(json["regressions"][1]["name"], "demo.Lexer.next()I");
    assert_eq!(json["regressions"][1]["delta"], 3000);
    let markdown = fs::read_to_string(reports.join("jp-check.md")).unwrap();
    assert!(markdown.contains("| method | `demo.Lexer.next()I` | 20600 | 23600 | +3000 | +14.56% | 1% |"));
}

#[test]
fn a_check_given_the_baselines_profiles_writes_their_diff_and_every_summary_names_it() {
    let dir = tempfile::tempdir().unwrap();
    let (reports, page) = (dir.path().join("reports"), dir.path().join("diff.html"));
    let check = |base: &std::path::Path| {
        jp(&[
            "check".as_ref(),
            gate_data("after.jpprof").as_os_str(),
            "--baseline".as_ref(),
            gate_data("baseline.txt").as_os_str(),
            "--report-dir".as_ref(),
            reports.as_os_str(),
            "--diff-base".as_ref(),
            base.as_os_str(),
            "--diff-out".as_ref(),
            page.as_os_str(),
        ])
    };
    let unreadable = check(&dir.path().join("gone.jpprof"));
    assert_eq!(unreadable.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unreadable.stderr).contains("gone.jpprof"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0, "nothing written");

    let output = check(&gate_data("before.jpprof"));
    assert_eq!(output.status.code(), Some(1));
    let named = format!(
        "Where the counts changed (the baseline's run against this one): {}",
        page.display()
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains(&named));
    let markdown = fs::read_to_string(reports.join("jp-check.md")).unwrap();
    assert!(markdown.contains(&format!("`{}`", page.display())), "{markdown}");
    let json: serde_json::Value =
        serde_json::from_str(&fs::read_to_string(reports.join("jp-check.json")).unwrap()).unwrap();
    assert_eq!(json["diffReport"], page.to_str().unwrap());
    let html = fs::read_to_string(&page).unwrap();
    let text = jp(&[
        "diff".as_ref(),
        gate_data("before.jpprof").as_os_str(),
        "--against".as_ref(),
        gate_data("after.jpprof").as_os_str(),
        "--format".as_ref(),
        "html".as_ref(),
    ]);
    assert_eq!(html.as_bytes(), text.stdout, "the page jp diff writes");
}

#[test]
fn a_check_without_the_baselines_profiles_says_how_to_diff() {
    let output = jp(&[
        "check".as_ref(),
        gate_data("after.jpprof").as_os_str(),
        "--baseline".as_ref(),
        gate_data("baseline.txt").as_os_str(),
        "--format".as_ref(),
        "markdown".as_ref(),
    ]);
    assert_eq!(output.status.code(), Some(1));
    let markdown = String::from_utf8(output.stdout).unwrap();
    assert!(
        markdown.contains("```\njp diff <profiles of the baseline's run>... --against "),
        "{markdown}"
    );
}

#[test]
fn a_diff_beyond_the_size_limit_fails_the_check_and_leaves_no_page() {
    let dir = tempfile::tempdir().unwrap();
    let page = dir.path().join("diff.html");
    let output = jp(&[
        "check".as_ref(),
        gate_data("after.jpprof").as_os_str(),
        "--baseline".as_ref(),
        gate_data("baseline.txt").as_os_str(),
        "--diff-base".as_ref(),
        gate_data("before.jpprof").as_os_str(),
        "--diff-out".as_ref(),
        page.as_os_str(),
        "--max-output-size".as_ref(),
        "1K".as_ref(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("diff.html"));
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[test]
fn a_baseline_of_allocations_gates_their_growth_and_refuses_profiles_without_them() {
    let dir = tempfile::tempdir().unwrap();
    let baseline = dir.path().join("jp-baseline.txt");
    let baseline = baseline.to_str().unwrap();
    let recorded = jp(&[
        "baseline",
        &profile("allocations.jpprof"),
        "--metric",
        "allocations",
        "--include-methods-above",
        "1",
        "--out",
        baseline,
    ]);
    assert!(recorded.status.success(), "{recorded:?}");
    let text = fs::read_to_string(baseline).unwrap();
    // fill: 10 + 5 objects in its two contexts; names: 2; <clinit> and main: 1 each.
    for line in [
        "metric allocations\nmethod-floor 1\n",
        "method 15 15 demo.Alloc.fill(I)[I\n",
        "method 2 2 demo.Alloc.names(I)[[Ljava/lang/String;\n",
    ] {
        assert!(text.contains(line), "{line}: {text}");
    }

    let check = |profile_name: &str| jp(&["check", &profile(profile_name), "--baseline", baseline]);
    let grown = check("allocations_new.jpprof");
    assert_eq!(grown.status.code(), Some(1));
    let summary = String::from_utf8(grown.stdout).unwrap();
    for line in [
        "regression: method demo.Alloc.names(I)[[Ljava/lang/String;: 2 -> 3 allocations (+1, +50.00%; tolerance 1%)",
        "regression: method demo.Alloc.fill(I)[I: 15 -> 20 allocations (+5, +33.33%; tolerance 1%)",
        "--metric allocations --include-methods-above 1",
    ] {
        assert!(summary.contains(line), "{line}: {summary}");
    }
    assert_eq!(check("allocations.jpprof").status.code(), Some(0));

    // The page of where the counts changed is in the baseline's metric too.
    let page = dir.path().join("jp-diff.html");
    let with_page = jp(&[
        "check",
        &profile("allocations_new.jpprof"),
        "--baseline",
        baseline,
        "--diff-base",
        &profile("allocations.jpprof"),
        "--diff-out",
        page.to_str().unwrap(),
    ]);
    assert_eq!(with_page.status.code(), Some(1));
    let html = fs::read_to_string(&page).unwrap();
    assert!(html.contains("\"metric\":\"allocations\""), "{html}");

    let without = check("diff_base.jpprof");
    assert_eq!(without.status.code(), Some(2));
    let stderr = String::from_utf8(without.stderr).unwrap();
    assert!(
        stderr.contains("no metric `allocations` in the profiles"),
        "{stderr}"
    );
}

#[test]
fn a_sampled_metric_makes_no_baseline() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("jp-baseline.txt");
    let output = jp(&[
        "baseline",
        &profile("sampled.jpprof"),
        "--metric",
        "cpu-samples",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.contains("metric `cpu-samples` is sampled, not exact"),
        "{stderr}"
    );
    assert!(!out.exists());
}
