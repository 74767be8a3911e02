//! Computes `JP_BUILD_ID`, a hash of the sources that decide what the
//! engine writes (the class-file, bytecode, rewrite and driver crates).
//!
//! The incremental cache keys every output on it, next to the version
//! (see `src/cache.rs`): between two releases the version stays the same
//! while the rewriting code changes, and a cache filled by the old code must
//! not be served by the new one. A release built from the same sources gets
//! the same id on every machine.

use std::fs;
use std::path::{Path, PathBuf};

/// The crates whose sources the output depends on, relative to this one.
const SOURCES: [&str; 4] = ["../classfile/src", "../bytecode/src", "../rewrite/src", "src"];

fn main() {
    let root = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    // A packaged crate has none of the other crates' sources; a checkout must have them all, or
    // a renamed crate would silently drop out of the id.
    let missing: Vec<&str> = SOURCES
        .into_iter()
        .filter(|dir| !root.join(dir).is_dir())
        .collect();
    if !missing.is_empty() && missing.len() < SOURCES.len() - 1 {
        panic!("JP_BUILD_ID: no sources at {missing:?}; update SOURCES in build.rs");
    }
    let mut files = Vec::new();
    let mut hashed = Vec::new();
    for source in SOURCES {
        let dir = root.join(source);
        // A directory makes cargo rerun this script when any file in it changes.
        println!("cargo:rerun-if-changed={}", dir.display());
        let before = files.len();
        collect(&dir, &mut files);
        if files.len() > before {
            hashed.push(source);
        }
    }
    files.sort();
    let mut hash = Fnv::default();
    for file in &files {
        let relative = file.strip_prefix(&root).unwrap_or(file);
        hash.write(relative.to_string_lossy().as_bytes());
        hash.write(&[0]);
        hash.write(&fs::read(file).unwrap_or_default());
        hash.write(&[0]);
    }
    println!("cargo:rustc-env=JP_BUILD_ID={:016x}", hash.0);
    // The directories that held sources, for a test to check the list.
    println!("cargo:rustc-env=JP_BUILD_SOURCES={}", hashed.join(" "));
}

/// Every file under `dir`; nothing when it is missing (a packaged crate).
fn collect(dir: &Path, files: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            collect(&path, files);
        } else {
            files.push(path);
        }
    }
}

/// FNV-1a, 64 bits: stable across compilers, and enough to notice a change.
struct Fnv(u64);

impl Default for Fnv {
    fn default() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
}

impl Fnv {
    fn write(&mut self, bytes: &[u8]) {
        for &byte in bytes {
            self.0 ^= u64::from(byte);
            self.0 = self.0.wrapping_mul(0x0100_0000_01b3);
        }
    }
}
