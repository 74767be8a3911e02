//! What the `jp` command-line tests share: running the binary, and the
//! paths of their input files under `tests/testdata`.

// Each test file is a crate of its own and uses only some of these.
#![allow(dead_code)]

use std::ffi::OsStr;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The `jp` binary under test, ready for arguments.
pub fn jp_command() -> Command {
    Command::new(env!("CARGO_BIN_EXE_jp"))
}

/// Runs `jp` with `args` and waits for it.
pub fn jp<S: AsRef<OsStr>>(args: &[S]) -> Output {
    jp_command().args(args).output().unwrap()
}

/// Its stdout, after checking that it exited 0 (else its stderr is shown).
pub fn stdout(output: &Output) -> String {
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout.clone()).unwrap()
}

/// `tests/testdata/<folder>/<name>`.
pub fn testdata(folder: &str, name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/testdata")
        .join(folder)
        .join(name)
}

/// A profile of `tests/testdata/profiles`.
pub fn profile_path(name: &str) -> PathBuf {
    testdata("profiles", name)
}

/// A profile of `tests/testdata/profiles`, as an argument.
pub fn profile(name: &str) -> String {
    profile_path(name).to_str().unwrap().to_owned()
}

/// A file of `tests/testdata/gate`: profiles and baselines.
pub fn gate_data(name: &str) -> PathBuf {
    testdata("gate", name)
}
