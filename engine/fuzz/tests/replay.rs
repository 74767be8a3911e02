//! Replays every saved fuzz input in `regressions/<target>/` through its target's body, on
//! stable Rust: each file is a crash that was fixed (or a seed), and must stay fixed.

use std::path::{Path, PathBuf};

fn inputs(target: &str) -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("regressions")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|entry| entry.expect("readable directory entry").path())
        .filter(|path| path.is_file())
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no inputs in {}", dir.display());
    files
}

/// Runs `run` on each input of `target`, naming the file that panics.
fn replay(target: &str, run: fn(&[u8])) {
    for path in inputs(target) {
        let data = std::fs::read(&path).unwrap();
        if std::panic::catch_unwind(|| run(&data)).is_err() {
            panic!("{} panics again", path.display());
        }
    }
}

#[test]
fn every_saved_parse_input_is_handled_without_a_panic() {
    replay("parse", jp_fuzz::parse::run);
}

#[test]
fn every_saved_roundtrip_input_round_trips() {
    replay("roundtrip", jp_fuzz::roundtrip::run);
}
