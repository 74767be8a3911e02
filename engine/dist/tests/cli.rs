//! The `jp-dist` binary end to end: what it prints and its exit codes.

mod support;

use std::path::PathBuf;
use std::process::{Command, Output};

use jp_testdata::write_jar;
use object::elf::DF_1_NODELETE;
use tempfile::TempDir;

fn jp_dist(args: &[&str]) -> Output {
    let output = Command::new(env!("CARGO_BIN_EXE_jp-dist"))
        .args(args)
        .output()
        .unwrap();
    assert!(output.status.code().is_some(), "killed: {output:?}");
    output
}

fn stdout(output: &Output) -> String {
    String::from_utf8_lossy(&output.stdout).into_owned()
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

/// `jp-engine.jar` with `entries`, in a directory that lives as long as the returned guard.
fn jar_of(entries: &[(&str, &[u8])]) -> (TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let jar = dir.path().join("jp-engine.jar");
    write_jar(&jar, entries);
    (dir, jar)
}

/// What `jp-dist` printed on standard output, and its exit code.
fn assert_printed(output: &Output, expected: &str, code: i32) {
    assert_eq!(stdout(output), expected);
    assert_eq!(output.status.code(), Some(code), "{}", stderr(output));
}

#[test]
fn check_jar_passes_good_libraries_and_exits_0() {
    let linux = support::shared_object(DF_1_NODELETE);
    let windows = support::dll("bcryptprimitives.dll");
    let (_dir, jar) = jar_of(&[
        ("native/linux-x86_64/libjp_jni.so", &linux),
        ("native/windows-x86_64/jp_jni.dll", &windows),
        ("META-INF/MANIFEST.MF", b""),
    ]);
    let require = "linux-x86_64,windows-x86_64";
    let output = jp_dist(&["check-jar", jar.to_str().unwrap(), "--require", require]);
    let expected = "ok linux-x86_64 (ELF x86_64, 9 exports, glibc 2.17)\n\
                    ok windows-x86_64 (PE x86_64, 9 exports)\n";
    assert_printed(&output, expected, 0);
}

#[test]
fn check_jar_reports_every_violation_and_exits_1() {
    let library = support::shared_object(0);
    let (_dir, jar) = jar_of(&[
        ("native/linux-x86_64/libjp_jni.so", &library),
        ("native/linux-aarch64/libjp_jni.so", &library),
        ("native/macos-x86_64/libjp_jni.so", &library),
        ("native/solaris-sparc/libjp_jni.so", &library),
    ]);
    let jar_arg = jar.to_str().unwrap();
    let output = jp_dist(&["check-jar", jar_arg, "--require", "linux-x86_64,windows-x86_64"]);
    let expected = format!(
        "FAIL linux-x86_64 (ELF x86_64, 9 exports, glibc 2.17)\n\
         \x20 linux-x86_64: lacks DF_1_NODELETE (link with -z nodelete)\n\
         FAIL linux-aarch64 (ELF x86_64, 9 exports, glibc 2.17)\n\
         \x20 linux-aarch64: is for x86_64, expected aarch64\n\
         FAIL {jar_arg}: native/macos-x86_64/libjp_jni.so: the library of this platform is named libjp_jni.dylib\n\
         FAIL {jar_arg}: native/solaris-sparc/libjp_jni.so: unknown platform\n\
         FAIL {jar_arg}: no library for required platform windows-x86_64\n"
    );
    assert_printed(&output, &expected, 1);
}

#[test]
fn a_jar_without_native_libraries_fails() {
    let (_dir, jar) = jar_of(&[("org/jpprof/engine/NativeEngine.class", b"\xca\xfe\xba\xbe")]);
    let output = jp_dist(&["check-jar", jar.to_str().unwrap()]);
    let expected = format!(
        "FAIL {}: no native/<platform>/<file> library at all\n",
        jar.display()
    );
    assert_printed(&output, &expected, 1);
}

#[test]
fn check_lib_finds_the_forbidden_checkout_path() {
    let dir = tempfile::tempdir().unwrap();
    let library = dir.path().join("libjp_jni.so");
    let mut bytes = support::shared_object(DF_1_NODELETE);
    bytes.extend_from_slice(b"/work/checkout/engine/jni/src/lib.rs\0");
    std::fs::write(&library, bytes).unwrap();
    let path = library.to_str().unwrap();
    let output = jp_dist(&[
        "check-lib",
        path,
        "--platform",
        "linux-x86_64",
        "--forbid",
        "/work/checkout",
    ]);
    assert!(stdout(&output).contains("linux-x86_64: contains the local path \"/work/checkout\"\n"));
    assert_eq!(output.status.code(), Some(1));
}

#[test]
fn unreadable_input_exits_2_and_names_the_file() {
    let dir = tempfile::tempdir().unwrap();
    let jar = dir.path().join("broken.jar");
    std::fs::write(&jar, b"not a zip").unwrap();
    let output = jp_dist(&["check-jar", jar.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with(&format!("jp-dist: {}: not a readable jar: ", jar.display())));

    let garbage_library: &[u8] = b"\x7fELF truncated";
    write_jar(&jar, &[("native/linux-x86_64/libjp_jni.so", garbage_library)]);
    let output = jp_dist(&["check-jar", jar.to_str().unwrap()]);
    assert_eq!(output.status.code(), Some(2));
    let location = format!("{}!native/linux-x86_64/libjp_jni.so", jar.display());
    assert!(stderr(&output).starts_with(&format!("jp-dist: {location}: not a readable native library: ")));
}

#[test]
fn an_unknown_platform_on_the_command_line_exits_2() {
    let output = jp_dist(&["check-lib", "libjp_jni.so", "--platform", "linux-sparc"]);
    assert_eq!(output.status.code(), Some(2));
    assert!(stderr(&output).starts_with("jp-dist: unknown platform `linux-sparc` (known: linux-x86_64, "));
}

#[test]
fn released_lists_the_five_platforms_of_a_release_with_their_rust_targets() {
    let expected = "linux-x86_64 x86_64-unknown-linux-gnu\n\
                    linux-aarch64 aarch64-unknown-linux-gnu\n\
                    macos-x86_64 x86_64-apple-darwin\n\
                    macos-aarch64 aarch64-apple-darwin\n\
                    windows-x86_64 x86_64-pc-windows-gnu\n";
    assert_printed(&jp_dist(&["released"]), expected, 0);
}

#[test]
fn pack_writes_archives_that_sha256sum_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let binary = dir.path().join("jp");
    std::fs::write(&binary, b"binary").unwrap();
    let out = dir.path().join("dist");
    let linux = format!("linux-aarch64={}", binary.display());
    let windows = format!("windows-x86_64={}", binary.display());
    let args = [
        "pack",
        "--version",
        "0.1.0",
        "--epoch",
        "1700000000",
        "--out",
        out.to_str().unwrap(),
    ];
    let output = jp_dist(&[&args[..], &[&linux, &windows]].concat());
    assert_eq!(output.status.code(), Some(0), "{}", stderr(&output));
    let mut names: Vec<_> = std::fs::read_dir(&out)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(
        names,
        [
            "SHA256SUMS",
            "jp-0.1.0-linux-aarch64.tar.gz",
            "jp-0.1.0-windows-x86_64.zip"
        ]
    );
    // The format is sha256sum's own, where the tool is installed.
    if let Ok(check) = Command::new("sha256sum")
        .args(["-c", "SHA256SUMS"])
        .current_dir(&out)
        .output()
    {
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stdout)
        );
    }
}
