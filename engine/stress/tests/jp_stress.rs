//! The `jp-stress` binary on the java8 class files of
//! `engine/classfile/testdata`.

use std::fs;
use std::process::Command;

use jp_classfile::{mutf8, ClassFile};

fn java8() -> std::path::PathBuf {
    jp_testdata::dir().join("java8")
}

fn method_names(class: &[u8]) -> Vec<String> {
    let class = ClassFile::parse(class).unwrap();
    class
        .methods
        .iter()
        .map(|m| mutf8::to_str_lossy(m.name).into_owned())
        .collect()
}

#[test]
fn every_class_with_code_is_rewritten_and_gains_the_poll_method() {
    let out = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_jp-stress"))
        .arg(java8())
        .arg("--out")
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    assert_eq!(
        String::from_utf8_lossy(&output.stdout),
        "instrument: 19 classes rewritten, 0 reused, 5 unchanged, 0 other files copied, 0 deleted, \
         0 warnings, 0 inputs failed\n"
    );
    let rewritten = fs::read(out.path().join("AllInstructions.class")).unwrap();
    assert!(method_names(&rewritten).contains(&"$jp$poll".to_owned()));
}

#[test]
fn padding_past_the_method_limit_is_a_warning_and_the_run_succeeds() {
    let out = tempfile::tempdir().unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_jp-stress"))
        .arg(java8().join("AllInstructions.class"))
        .args(["--pad", "65000", "--out"])
        .arg(out.path())
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(0), "{output:?}");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        stdout
            .lines()
            .any(|l| l.starts_with("warning: ") && l.contains("limit 65535")),
        "{stdout}"
    );
}
