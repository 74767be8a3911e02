//! Golden tests of the `jp` command line. Each folder in `tests/cases/`
//! holds `cmd` (the arguments, one line; `{testdata}` stands for the class
//! files in `engine/classfile/testdata`, `{out}` for a fresh temporary
//! directory), and the expected `stdout`, `stderr` and exit `status`.
//! `BLESS=1 cargo test -p jp-cli` rewrites the expected files.

mod common;

use std::fs;
use std::path::{Path, PathBuf};

use common::jp_command;

fn run_case(dir: &Path) -> Result<(), String> {
    let cmd = fs::read_to_string(dir.join("cmd")).map_err(|e| format!("{}: {e}", dir.display()))?;
    let out = tempfile::tempdir().unwrap();
    let testdata = jp_testdata::dir();
    let substitute = |arg: &str| {
        arg.replace("{testdata}", &testdata.to_string_lossy())
            .replace("{out}", &out.path().to_string_lossy())
    };
    let args: Vec<String> = cmd.split_whitespace().map(substitute).collect();
    let output = jp_command().args(&args).current_dir(dir).output().unwrap();
    let unsubstitute = |bytes: &[u8]| {
        String::from_utf8_lossy(bytes)
            .replace(&*testdata.to_string_lossy(), "{testdata}")
            .replace(&*out.path().to_string_lossy(), "{out}")
    };
    let actual = [
        ("stdout", unsubstitute(&output.stdout)),
        ("stderr", unsubstitute(&output.stderr)),
        ("status", format!("{}\n", output.status.code().unwrap_or(-1))),
    ];
    let bless = std::env::var_os("BLESS").is_some();
    let mut problems = Vec::new();
    for (name, text) in actual {
        let path = dir.join(name);
        if bless {
            fs::write(&path, &text).unwrap();
            continue;
        }
        let expected = fs::read_to_string(&path).unwrap_or_default();
        if expected != text {
            problems.push(format!(
                "{name} differs\n--- expected\n{expected}--- actual\n{text}"
            ));
        }
    }
    if problems.is_empty() {
        Ok(())
    } else {
        Err(format!("case {}:\n{}", dir.display(), problems.join("\n")))
    }
}

#[test]
fn every_cli_case_matches_its_expected_output() {
    let cases = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cases");
    let mut dirs: Vec<PathBuf> = fs::read_dir(&cases).unwrap().map(|e| e.unwrap().path()).collect();
    dirs.sort();
    assert!(!dirs.is_empty());
    let failures: Vec<String> = dirs.iter().filter_map(|dir| run_case(dir).err()).collect();
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
