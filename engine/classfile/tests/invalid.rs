//! Broken class files (`testdata/invalid/<defect>.clazz`, written by `make_invalid.py`) are
//! refused with the message in `<defect>.stderr`: the error and its causes joined by `: `, as the
//! CLI prints them. An input whose structure parses is refused by `deep::reencode`, which parses
//! every typed attribute. `BLESS=1` rewrites the `.stderr` files.

mod common;

use common::{chain, short, testdata};
use jp_classfile::{deep, ClassFile};
use jp_testdata::files_with_extension;

/// The message JP gives for `bytes`, or `None` if nothing is wrong with them.
fn refusal(bytes: &[u8]) -> Option<String> {
    let class = match ClassFile::parse(bytes) {
        Ok(class) => class,
        Err(e) => return Some(chain(&e)),
    };
    deep::reencode(&class).err().map(|e| chain(&e))
}

fn bless() -> bool {
    std::env::var_os("BLESS").is_some_and(|v| v != "0")
}

#[test]
fn every_invalid_input_is_refused_with_its_expected_message() {
    let dir = testdata().join("invalid");
    let inputs = files_with_extension(&dir, "clazz");
    assert!(
        inputs.len() >= 20,
        "only {} inputs in {}",
        inputs.len(),
        dir.display()
    );
    let mut failures = Vec::new();
    for input in &inputs {
        let bytes = std::fs::read(input).unwrap();
        let expected_path = input.with_extension("stderr");
        let Some(actual) = refusal(&bytes) else {
            failures.push(format!("{}: accepted", short(input)));
            continue;
        };
        let actual = actual + "\n";
        if bless() {
            std::fs::write(&expected_path, &actual).unwrap();
            continue;
        }
        match std::fs::read_to_string(&expected_path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{}:\n  expected: {}  actual:   {}",
                short(input),
                expected,
                actual
            )),
            Err(_) => failures.push(format!("{}: missing (run with BLESS=1)", short(&expected_path))),
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} invalid inputs did not give their expected message:\n{}",
        failures.len(),
        inputs.len(),
        failures.join("\n")
    );
}

#[test]
fn every_expected_message_belongs_to_an_input() {
    let dir = testdata().join("invalid");
    let orphans: Vec<_> = files_with_extension(&dir, "stderr")
        .into_iter()
        .filter(|stderr| !stderr.with_extension("clazz").exists())
        .map(|stderr| short(&stderr))
        .collect();
    assert!(orphans.is_empty(), "stale .stderr files: {orphans:?}");
}

#[test]
fn the_class_that_the_invalid_inputs_break_is_itself_valid() {
    let bytes = std::fs::read(testdata().join("invalid/baseline.class")).unwrap();
    assert_eq!(refusal(&bytes), None);
}
