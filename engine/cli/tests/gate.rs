//! `jp baseline` and `jp check` on files: what they write, and that they
//! write nothing when they fail.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn gate_data(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/testdata/gate")
        .join(name)
}

fn jp(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_jp"))
        .args(args)
        .output()
        .unwrap()
}

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
