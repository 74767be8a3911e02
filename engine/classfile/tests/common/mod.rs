//! Helpers shared by the integration tests: finding the checked-in corpus and rendering errors.

#![allow(dead_code)] // each test binary uses its own subset

use std::error::Error;
use std::path::{Path, PathBuf};

/// `engine/classfile/testdata`.
pub fn testdata() -> PathBuf {
    jp_testdata::dir()
}

/// Every `.class` file of the corpus, each with its bytes. Panics if there are none, so that a
/// moved folder cannot make the tests pass vacuously.
pub fn testdata_classes() -> Vec<(PathBuf, Vec<u8>)> {
    let classes: Vec<_> = jp_testdata::files_with_extension(&testdata(), "class")
        .into_iter()
        .map(|path| {
            let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path, bytes)
        })
        .collect();
    assert!(
        classes.len() > 50,
        "only {} classes under testdata/",
        classes.len()
    );
    classes
}

/// `path` relative to `testdata/`, for messages.
pub fn short(path: &Path) -> String {
    path.strip_prefix(testdata())
        .unwrap_or(path)
        .display()
        .to_string()
}

/// An error and its sources, joined with `: ` the way the CLI prints a chain.
pub fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    text
}

/// The offset of the first byte where `a` and `b` differ (or the shorter length).
pub fn first_difference(a: &[u8], b: &[u8]) -> usize {
    a.iter()
        .zip(b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()))
}
