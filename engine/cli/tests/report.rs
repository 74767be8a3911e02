//! `jp report --out`, which the golden cases cannot see: the file written,
//! its permissions, and what is left behind when writing fails.

mod common;

use std::fs;
use std::path::Path;

use common::{jp, jp_command, profile_path};

#[test]
fn out_receives_what_stdout_would() {
    let dir = tempfile::tempdir().unwrap();
    let a = profile_path("a.jpprof");
    let b = profile_path("b.jpprof");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let target = dir.path().join("flame.folded");
    fs::write(&target, "an older report, replaced\n").unwrap();
    let to_file = jp(&[
        "report",
        a,
        b,
        "--format",
        "folded",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert_eq!(to_file.status.code(), Some(0));
    assert!(to_file.stdout.is_empty() && to_file.stderr.is_empty());
    let to_stdout = jp(&["report", a, b, "--format", "folded"]);
    assert_eq!(fs::read(&target).unwrap(), to_stdout.stdout);
    // Nothing but the report is left in the directory.
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(&target).unwrap().permissions().mode();
        assert_ne!(
            mode & 0o644,
            0o600,
            "mode {mode:o}: a report is not a private temporary file"
        );
    }
}

#[test]
fn a_pprof_report_is_gzip_on_stdout_and_in_a_file_the_same_bytes_every_time() {
    let dir = tempfile::tempdir().unwrap();
    let a = profile_path("a.jpprof");
    let b = profile_path("b.jpprof");
    let (a, b) = (a.to_str().unwrap(), b.to_str().unwrap());
    let target = dir.path().join("profile.pb.gz");
    let to_file = jp(&[
        "report",
        a,
        b,
        "--format",
        "pprof",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert_eq!(to_file.status.code(), Some(0));
    let to_stdout = jp(&["report", b, a, "--format", "pprof"]);
    assert_eq!(to_stdout.status.code(), Some(0));
    let written = fs::read(&target).unwrap();
    assert_eq!(written[..2], [0x1f, 0x8b], "gzip's magic number");
    assert_eq!(written, to_stdout.stdout);
}

#[test]
fn a_failing_profile_leaves_an_existing_report_alone() {
    let dir = tempfile::tempdir().unwrap();
    let target = dir.path().join("flame.folded");
    fs::write(&target, "the last good report\n").unwrap();
    let truncated = profile_path("truncated.jpprof");
    let output = jp(&[
        "report",
        truncated.to_str().unwrap(),
        "--format",
        "folded",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    assert_eq!(fs::read_to_string(&target).unwrap(), "the last good report\n");
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
}

#[test]
fn an_unwritable_out_is_named_and_fails() {
    let dir = tempfile::tempdir().unwrap();
    // Its directory cannot be created: a file stands where it would be.
    fs::write(dir.path().join("taken"), "").unwrap();
    let target = dir.path().join("taken/flame.folded");
    let a = profile_path("a.jpprof");
    let output = jp(&[
        "report",
        a.to_str().unwrap(),
        "--format",
        "folded",
        "--out",
        target.to_str().unwrap(),
    ]);
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8(output.stderr).unwrap();
    assert!(
        stderr.starts_with(&format!("jp: {}: ", target.display())),
        "{stderr}"
    );
}

#[cfg(unix)]
#[test]
fn a_closed_stdout_ends_the_report_quietly() {
    use std::io::Read;
    use std::process::Stdio;
    // A chain of 300 contexts: some 2 MB of folded lines, more than a pipe holds.
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("deep.jpprof");
    let mut text = String::from("jp-profile 1\n");
    for frame in 1..=300 {
        text.push_str(&format!(
            "frame {frame} demo.Generated.method{frame}(Ljava/lang/String;)V\n"
        ));
    }
    for node in 1..=300 {
        text.push_str(&format!("node {node} {} {node} 1 1\n", node - 1));
    }
    text.push_str("end 300\n");
    fs::write(&deep, text).unwrap();
    let mut child = jp_command()
        .args(["report", deep.to_str().unwrap(), "--format", "folded"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = [0u8; 16];
    child.stdout.take().unwrap().read_exact(&mut first).unwrap();
    // The read end is closed now; the rest of the report meets a broken pipe.
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    assert!(
        output.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
}

/// A recursion `depth` deep as a profile file: one method calling itself.
fn write_chain(path: &Path, depth: u32) {
    let mut text = String::from("jp-profile 1\nframe 1 demo.Deep.recurse(I)I\n");
    for node in 1..=depth {
        text.push_str(&format!("node {node} {} 1 1 1\n", node - 1));
    }
    text.push_str(&format!("end {depth}\n"));
    fs::write(path, text).unwrap();
}

#[test]
fn a_folded_report_of_many_gigabytes_is_refused_at_once_and_nothing_is_written() {
    let dir = tempfile::tempdir().unwrap();
    // 200,000 deep: some 503 GiB of folded lines.
    let chain = dir.path().join("chain.jpprof");
    write_chain(&chain, 200_000);
    let out = dir.path().join("chain.folded");
    let started = std::time::Instant::now();
    for target in [Some(out.to_str().unwrap()), None] {
        let mut args = vec!["report", chain.to_str().unwrap(), "--format", "folded"];
        args.extend(target.iter().flat_map(|out| ["--out", out]));
        let output = jp(&args);
        assert_eq!(output.status.code(), Some(2));
        assert!(output.stdout.is_empty());
        let stderr = String::from_utf8(output.stderr).unwrap();
        assert!(
            stderr.contains("the folded report would be 502.9 GiB") && stderr.contains("--max-depth"),
            "{stderr}"
        );
    }
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    assert_eq!(fs::read_dir(dir.path()).unwrap().count(), 1);
    // The other formats still work on it.
    let text = jp(&["report", chain.to_str().unwrap(), "--format", "text"]);
    assert_eq!(text.status.code(), Some(0));
}

#[test]
fn max_output_size_lowers_or_lifts_the_limit() {
    let a = profile_path("a.jpprof");
    let a = a.to_str().unwrap();
    let refused = jp(&["report", a, "--format", "html", "--max-output-size", "4K"]);
    assert_eq!(refused.status.code(), Some(2));
    let stderr = String::from_utf8(refused.stderr).unwrap();
    assert!(
        stderr.starts_with("jp: stdout: the html report reached the limit of 4 KiB"),
        "{stderr}"
    );
    let lifted = jp(&[
        "report",
        a,
        "--format",
        "folded",
        "--max-output-size",
        "unlimited",
    ]);
    assert_eq!(lifted.status.code(), Some(0));
    let bad = jp(&["report", a, "--format", "folded", "--max-output-size", "lots"]);
    assert_eq!(bad.status.code(), Some(2));
}

/// Writes snapshot `number` of one run, `main` calling `method` `calls` times.
fn write_snapshot(dir: &Path, number: u64, method: &str, calls: u64) {
    let text = format!(
        "jp-profile 1\nmeta agent periodic\nmeta pid 7\nmeta start 2025-01-01T00:00:00Z\n\
         meta snapshot {number}\nmeta elapsed {}\nmeta trigger timer\n\
         frame 1 demo.Phases.main([Ljava/lang/String;)V\nframe 2 demo.Phases.{method}()V\n\
         node 1 0 1 0 1\nnode 2 1 2 {calls} {}\nend 2\n",
        number * 100,
        calls * 10
    );
    fs::write(dir.join(format!("snapshot-{number:06}.jpprof")), text).unwrap();
}

#[test]
fn a_timeline_of_a_directory_of_snapshots_lists_each_interval_and_refuses_other_formats() {
    let dir = tempfile::tempdir().unwrap();
    write_snapshot(dir.path(), 1, "a", 5);
    write_snapshot(dir.path(), 2, "b", 3);
    let series = dir.path().to_str().unwrap();
    let text = jp(&["report", "--timeline", series, "--format", "text"]);
    assert_eq!(
        text.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&text.stderr)
    );
    let text = String::from_utf8(text.stdout).unwrap();
    assert!(text.contains("snapshots  2\n"), "{text}");
    let intervals = &text[text.find("== Intervals").unwrap()..];
    let a = intervals.find("Phases.a() [demo]").unwrap();
    let b = intervals.find("Phases.b() [demo]").unwrap();
    let second = intervals.find("       2 ").unwrap();
    assert!(a < second && second < b, "{intervals}");

    let html = dir.path().join("timeline.html");
    let written = jp(&[
        "report",
        "--timeline",
        series,
        "--format",
        "html",
        "--out",
        html.to_str().unwrap(),
    ]);
    assert_eq!(written.status.code(), Some(0));
    assert!(fs::read_to_string(&html).unwrap().contains("JP timeline"));

    let folded = jp(&["report", "--timeline", series, "--format", "folded"]);
    assert_eq!(folded.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&folded.stderr),
        "jp: a timeline is written as text or html, not folded\n"
    );
    let plain = profile_path("a.jpprof");
    let refused = jp(&[
        "report",
        "--timeline",
        plain.to_str().unwrap(),
        "--format",
        "text",
    ]);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not a snapshot"));
}
