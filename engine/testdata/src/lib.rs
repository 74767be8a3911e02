//! Test inputs shared by JP's crates, as a dev-dependency only: the class
//! files checked in under `engine/classfile/testdata` (compiled by
//! several javac versions from the sources beside them by its `build.sh`) and small
//! jars made on the spot.
//!
//! Every function panics with the file's path when something is missing:
//! these are test fixtures, and a test that cannot read its input must fail
//! loudly rather than pass on nothing.

use std::fs;
use std::io::{Cursor, Write};
use std::path::{Path, PathBuf};

use zip::write::SimpleFileOptions;

/// The folders of class files, one per compiler generation.
pub const VERSIONS: [&str; 4] = ["old", "java8", "java17", "java25"];

/// `engine/classfile/testdata`, as an absolute path.
pub fn dir() -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../classfile/testdata");
    path.canonicalize()
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The bytes of `relative` (such as `java8/Enums.class`) under [`dir`].
pub fn class(relative: &str) -> Vec<u8> {
    let path = dir().join(relative);
    fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The class files directly in the folder `version` of [`dir`], each with
/// its file name, sorted by name.
pub fn classes(version: &str) -> Vec<(String, Vec<u8>)> {
    let folder = dir().join(version);
    let entries = fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
    let mut classes: Vec<(String, Vec<u8>)> = entries
        .map(|entry| {
            entry
                .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
                .path()
        })
        .filter(|path| path.extension().is_some_and(|e| e == "class"))
        .map(|path| {
            let bytes = fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (path.file_name().unwrap().to_string_lossy().into_owned(), bytes)
        })
        .collect();
    classes.sort();
    classes
}

/// Every file under `folder`, at any depth, whose name ends with
/// `.{extension}`, sorted.
pub fn files_with_extension(folder: &Path, extension: &str) -> Vec<PathBuf> {
    let mut found = Vec::new();
    let mut pending = vec![folder.to_path_buf()];
    while let Some(folder) = pending.pop() {
        let entries = fs::read_dir(&folder).unwrap_or_else(|e| panic!("{}: {e}", folder.display()));
        for entry in entries {
            let path = entry
                .unwrap_or_else(|e| panic!("{}: {e}", folder.display()))
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|e| e == extension) {
                found.push(path);
            }
        }
    }
    found.sort();
    found
}

/// A jar (a zip file, deflated, entries in the given order) holding `entries`.
pub fn jar(entries: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = zip::ZipWriter::new(Cursor::new(Vec::new()));
    for (name, bytes) in entries {
        writer
            .start_file(*name, SimpleFileOptions::default())
            .unwrap_or_else(|e| panic!("jar entry {name}: {e}"));
        writer
            .write_all(bytes)
            .unwrap_or_else(|e| panic!("jar entry {name}: {e}"));
    }
    writer.finish().expect("a jar in memory").into_inner()
}

/// [`jar`]`(entries)` written to `path`.
pub fn write_jar(path: &Path, entries: &[(&str, &[u8])]) {
    fs::write(path, jar(entries)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_version_folder_holds_class_files() {
        for version in VERSIONS {
            let files = files_with_extension(&dir().join(version), "class");
            assert!(!files.is_empty(), "no classes in {version}");
            for file in files {
                assert!(fs::read(&file).unwrap().starts_with(&[0xCA, 0xFE, 0xBA, 0xBE]));
            }
        }
        assert_eq!(
            class("java8/Enums.class"),
            classes("java8")
                .into_iter()
                .find(|(name, _)| name == "Enums.class")
                .unwrap()
                .1
        );
    }

    #[test]
    fn a_jar_holds_its_entries_in_order() {
        let bytes = jar(&[("a/B.class", b"xyz"), ("META-INF/MANIFEST.MF", b"m")]);
        let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).unwrap();
        assert_eq!(archive.len(), 2);
        let mut text = String::new();
        let mut first = archive.by_index(0).unwrap();
        assert_eq!(first.name().unwrap(), "a/B.class");
        std::io::Read::read_to_string(&mut first, &mut text).unwrap();
        assert_eq!(text, "xyz");
    }
}
