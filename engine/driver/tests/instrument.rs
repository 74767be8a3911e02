//! End-to-end behaviour of `instrument` on small inputs made by the test:
//! output layout, resources, refusal of unsafe entry names and of bad
//! class files, with nothing written for a refused input file.

use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use jp_driver::api;
use jp_driver::instrument::{instrument, InstrumentRequest};
use jp_driver::EngineError;
use jp_rewrite::profile::ProfileOptions;
use jp_testdata::write_jar as jar;

fn testdata_class(name: &str) -> Vec<u8> {
    jp_testdata::class(&format!("java8/{name}"))
}

fn request(inputs: Vec<PathBuf>, output: &Path) -> InstrumentRequest {
    InstrumentRequest {
        inputs,
        output: output.to_owned(),
        scheme: Arc::new(ProfileOptions::default()),
        filter: Default::default(),
        cache: None,
    }
}

fn jar_entries(path: &Path) -> Vec<(String, Vec<u8>)> {
    let mut archive = zip::ZipArchive::new(fs::File::open(path).unwrap()).unwrap();
    (0..archive.len())
        .map(|i| {
            let mut file = archive.by_index(i).unwrap();
            let mut bytes = Vec::new();
            file.read_to_end(&mut bytes).unwrap();
            (String::from_utf8_lossy(file.name_raw()).into_owned(), bytes)
        })
        .collect()
}

#[test]
fn a_jar_is_written_as_a_jar_with_resources_unchanged() {
    let dir = tempfile::tempdir().unwrap();
    let class = testdata_class("Enums.class");
    let input = dir.path().join("app.jar");
    jar(
        &input,
        &[
            ("META-INF/MANIFEST.MF", b"Manifest-Version: 1.0\n"),
            ("p/Enums.class", &class),
        ],
    );
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![input], &out)).unwrap();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!((outcome.rewritten, outcome.copied), (1, 1));
    let entries = jar_entries(&out.join("app.jar"));
    assert_eq!(
        entries[0],
        (
            "META-INF/MANIFEST.MF".to_owned(),
            b"Manifest-Version: 1.0\n".to_vec()
        )
    );
    assert_eq!(entries[1].0, "p/Enums.class");
    assert_ne!(entries[1].1, class);
    jp_classfile::ClassFile::parse(&entries[1].1).unwrap();
}

#[test]
fn a_directory_is_mirrored() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("classes");
    fs::create_dir_all(input.join("p")).unwrap();
    fs::write(input.join("p/Enums.class"), testdata_class("Enums.class")).unwrap();
    fs::write(input.join("p/app.properties"), b"k=v").unwrap();
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![input], &out)).unwrap();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!(fs::read(out.join("p/app.properties")).unwrap(), b"k=v");
    assert!(out.join("p/Enums.class").is_file());
}

#[test]
fn an_entry_that_would_escape_refuses_the_whole_jar() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("evil.jar");
    jar(
        &input,
        &[
            ("ok/Enums.class", &testdata_class("Enums.class")),
            ("../../escape.txt", b"x"),
        ],
    );
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![input.clone()], &out)).unwrap();
    let [error] = outcome.errors.as_slice() else {
        panic!("{:?}", outcome.errors)
    };
    assert_eq!(
        error.to_string(),
        format!(
            "{}!../../escape.txt: entry name would escape the output directory; refusing the whole input",
            input.display()
        )
    );
    assert_eq!(fs::read_dir(&out).unwrap().count(), 0, "nothing written");
    assert!(!dir.path().join("escape.txt").exists());
}

#[test]
fn a_bad_class_file_is_reported_naming_the_file_and_the_others_are_still_written() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("classes");
    fs::create_dir_all(&input).unwrap();
    fs::write(input.join("A.class"), testdata_class("Enums.class")).unwrap();
    let mut future = testdata_class("Enums.class");
    future[7] = 70;
    fs::write(input.join("B.class"), future).unwrap();
    let out = dir.path().join("out");
    // A stale output of the bad class goes: it no longer matches its input.
    fs::create_dir_all(&out).unwrap();
    fs::write(out.join("B.class"), b"stale").unwrap();
    let outcome = instrument(&request(vec![input.clone()], &out)).unwrap();
    let [failure] = outcome.errors.as_slice() else {
        panic!("{:?}", outcome.errors)
    };
    assert_eq!(
        failure.to_string(),
        format!(
            "{}: malformed class file: unsupported class-file version 70.0; JP supports 45–69",
            input.join("B.class").display()
        )
    );
    assert_eq!(outcome.rewritten, 1);
    assert!(out.join("A.class").is_file());
    assert!(!out.join("B.class").exists());
}

#[test]
fn a_bad_class_in_a_jar_refuses_the_whole_jar() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("app.jar");
    let mut future = testdata_class("Enums.class");
    future[7] = 70;
    jar(
        &input,
        &[("A.class", &testdata_class("Enums.class")), ("B.class", &future)],
    );
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![input.clone()], &out)).unwrap();
    let [failure] = outcome.errors.as_slice() else {
        panic!("{:?}", outcome.errors)
    };
    assert_eq!(failure.path, format!("{}!B.class", input.display()));
    assert!(!out.join("app.jar").exists());
}

#[test]
fn two_inputs_writing_the_same_file_conflict() {
    let dir = tempfile::tempdir().unwrap();
    let (a, b) = (dir.path().join("a"), dir.path().join("b"));
    for input in [&a, &b] {
        fs::create_dir_all(input).unwrap();
        fs::write(input.join("same.txt"), b"x").unwrap();
    }
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![a.clone(), b.clone()], &out)).unwrap();
    let [conflict] = outcome.errors.as_slice() else {
        panic!("{:?}", outcome.errors)
    };
    assert_eq!(
        conflict.to_string(),
        format!(
            "{}: written by more than one input: {} and {}",
            out.join("same.txt").display(),
            a.join("same.txt").display(),
            b.join("same.txt").display()
        )
    );
    // Two jars of the same name.
    let (lib1, lib2) = (dir.path().join("lib1"), dir.path().join("lib2"));
    for lib in [&lib1, &lib2] {
        fs::create_dir_all(lib).unwrap();
        jar(&lib.join("x.jar"), &[("r.txt", b"r")]);
    }
    let outcome = instrument(&request(vec![lib1.join("x.jar"), lib2.join("x.jar")], &out)).unwrap();
    let message = outcome.errors[0].to_string();
    assert!(
        message.ends_with(&format!(
            "{} and {}",
            lib1.join("x.jar").display(),
            lib2.join("x.jar").display()
        )),
        "{message}"
    );
}

#[test]
fn a_signed_jar_loses_its_signature_once_its_classes_are_rewritten() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("signed.jar");
    let class = testdata_class("AllInstructions.class");
    let manifest = b"Manifest-Version: 1.0\r\n\r\nName: AllInstructions.class\r\nSHA-256-Digest: x=\r\n\r\n";
    jar(
        &input,
        &[
            ("META-INF/MANIFEST.MF", manifest),
            ("META-INF/SIGNER.SF", b"Signature-Version: 1.0\r\n"),
            ("META-INF/SIGNER.RSA", b"binary"),
            ("AllInstructions.class", &class),
        ],
    );
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![input], &out)).unwrap();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    let entries = jar_entries(&out.join("signed.jar"));
    let names: Vec<&str> = entries.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(names, ["META-INF/MANIFEST.MF", "AllInstructions.class"]);
    assert_eq!(entries[0].1, b"Manifest-Version: 1.0\r\n\r\n");
}

/// Every file under `dir` with its bytes, to compare before and after.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(Result::unwrap)
        .filter(|e| e.file_type().is_file())
        .map(|e| (e.path().to_owned(), fs::read(e.path()).unwrap()))
        .collect();
    files.sort();
    files
}

#[test]
fn an_output_or_cache_overlapping_an_input_is_refused_before_anything_is_written() {
    let dir = tempfile::tempdir().unwrap();
    let classes = dir.path().join("classes");
    fs::create_dir_all(&classes).unwrap();
    fs::write(classes.join("A.class"), testdata_class("AllInstructions.class")).unwrap();
    let lib = dir.path().join("lib");
    fs::create_dir_all(&lib).unwrap();
    let jar_input = lib.join("app.jar");
    jar(
        &jar_input,
        &[("A.class", &testdata_class("AllInstructions.class"))],
    );
    let before = snapshot(dir.path());
    let out = dir.path().join("out");
    let cases: [(PathBuf, PathBuf, Option<PathBuf>); 6] = [
        (classes.clone(), classes.clone(), None),
        (classes.clone(), classes.join("jp"), None),
        (jar_input.clone(), lib.clone(), None),
        (classes.clone(), dir.path().to_owned(), None),
        (classes.clone(), out.clone(), Some(out.join("cache"))),
        (classes.clone(), out.clone(), Some(classes.join("cache"))),
    ];
    for (input, output, cache) in cases {
        // Twice: the second run must find everything as the first left it.
        for _ in 0..2 {
            let error = instrument(&InstrumentRequest {
                cache: cache.clone(),
                ..request(vec![input.clone()], &output)
            })
            .unwrap_err();
            assert!(matches!(error, EngineError::Overlap(_)), "{error}");
            let message = error.to_string();
            let named = [&input, &output].into_iter().chain(&cache);
            let both = named.filter(|p| message.contains(&*p.to_string_lossy())).count();
            assert!(both >= 2, "{message}");
            assert_eq!(snapshot(dir.path()), before, "{message}");
            assert!(!out.exists() && !classes.join("jp").exists());
        }
    }
}

#[test]
fn a_request_through_the_api_is_refused_the_same_way() {
    let dir = tempfile::tempdir().unwrap();
    let classes = dir.path().join("classes");
    fs::create_dir_all(&classes).unwrap();
    fs::write(classes.join("A.class"), testdata_class("AllInstructions.class")).unwrap();
    let error = api::run(&api::Request {
        inputs: vec![classes.clone()],
        output: classes.join("out"),
        ..api::Request::default()
    })
    .unwrap_err();
    assert!(matches!(error, EngineError::Overlap(_)), "{error}");
    assert!(!classes.join("out").exists());
}

#[test]
fn an_output_that_is_a_file_is_not_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    let classes = dir.path().join("classes");
    fs::create_dir_all(&classes).unwrap();
    let file = dir.path().join("out.txt");
    fs::write(&file, b"x").unwrap();
    let error = instrument(&request(vec![classes], &file)).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{} is not a directory", file.display())
    );
}

#[test]
fn a_cache_lock_that_is_a_directory_is_named() {
    let dir = tempfile::tempdir().unwrap();
    let classes = dir.path().join("classes");
    fs::create_dir_all(&classes).unwrap();
    let cache = dir.path().join("cache");
    fs::create_dir_all(cache.join("lock")).unwrap();
    let error = instrument(&InstrumentRequest {
        cache: Some(cache.clone()),
        ..request(vec![classes], &dir.path().join("out"))
    })
    .unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with(&format!("{}: ", cache.join("lock").display())),
        "{error}"
    );
}

/// What a jar entry is apart from its data, to compare entry by entry.
#[derive(Debug, PartialEq)]
struct EntryHead {
    name: String,
    is_dir: bool,
    method: zip::CompressionMethod,
    time: Option<zip::DateTime>,
    comment: String,
    extra: Option<Vec<u8>>,
}

fn jar_heads(path: &Path) -> (Vec<EntryHead>, Vec<u8>) {
    let mut archive = zip::ZipArchive::new(fs::File::open(path).unwrap()).unwrap();
    let heads = (0..archive.len())
        .map(|i| {
            let file = archive.by_index_raw(i).unwrap();
            EntryHead {
                name: String::from_utf8_lossy(file.name_raw()).into_owned(),
                is_dir: file.is_dir(),
                method: file.compression(),
                time: file.last_modified(),
                comment: file.comment().to_owned(),
                extra: file.extra_data(),
            }
        })
        .collect();
    (heads, archive.comment().to_vec())
}

#[test]
fn a_jar_output_keeps_what_is_not_a_rewritten_class_as_it_was() {
    use zip::write::{FullFileOptions, SimpleFileOptions};
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("app.jar");
    let time = zip::DateTime::from_date_and_time(2021, 3, 4, 5, 6, 8).unwrap();
    let stored = SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Stored)
        .last_modified_time(time);
    let deflated = stored.compression_method(zip::CompressionMethod::Deflated);
    let class = testdata_class("AllInstructions.class");
    {
        let mut writer = zip::ZipWriter::new(fs::File::create(&input).unwrap());
        writer.add_directory("com/", stored).unwrap();
        writer.add_directory("com/acme/", stored).unwrap();
        let mut commented = FullFileOptions::default()
            .compression_method(zip::CompressionMethod::Stored)
            .last_modified_time(time)
            .with_file_comment("a nested jar");
        commented.add_extra_field(0x4a50, [1, 2, 3], false).unwrap();
        writer.start_file("com/acme/lib.jar", commented).unwrap();
        writer.write_all(b"PK\x05\x06 stored as it is").unwrap();
        let class_options = FullFileOptions::default()
            .compression_method(zip::CompressionMethod::Deflated)
            .last_modified_time(time)
            .with_file_comment("the class");
        writer.start_file("AllInstructions.class", class_options).unwrap();
        writer.write_all(&class).unwrap();
        writer.start_file("com/acme/app.properties", deflated).unwrap();
        writer.write_all(b"name=app\n").unwrap();
        writer.set_comment("the archive").unwrap();
        writer.finish().unwrap();
    }
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![input.clone()], &out)).unwrap();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!(outcome.rewritten, 1);
    let output = out.join("app.jar");
    let (before, comment) = jar_heads(&input);
    let (after, output_comment) = jar_heads(&output);
    assert_eq!(output_comment, comment);
    assert_eq!(after.len(), before.len());
    for (a, b) in after.iter().zip(&before) {
        if a.name.ends_with(".class") {
            // Rewritten: its own data, with the entry's name, time, comment and method.
            assert_eq!(
                (&a.name, a.time, &a.comment, a.method),
                (&b.name, b.time, &b.comment, b.method)
            );
        } else {
            assert_eq!(a, b);
        }
    }
    let data = |path: &Path| {
        jar_entries(path)
            .into_iter()
            .filter(|(n, _)| !n.ends_with(".class"))
    };
    assert!(data(&input).eq(data(&output)));
    let rewritten = jar_entries(&output)
        .into_iter()
        .find(|(n, _)| n.ends_with(".class"))
        .unwrap();
    assert_ne!(rewritten.1, class);
}

#[test]
fn a_future_class_of_a_multi_release_jar_is_kept_with_a_warning_and_the_rest_instrumented() {
    let dir = tempfile::tempdir().unwrap();
    let class = testdata_class("AllInstructions.class");
    let mut future = class.clone();
    future[6..8].copy_from_slice(&70u16.to_be_bytes());
    let input = dir.path().join("mr.jar");
    let versioned = "META-INF/versions/26/AllInstructions.class";
    jar(&input, &[("AllInstructions.class", &class), (versioned, &future)]);
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![input.clone()], &out)).unwrap();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!((outcome.rewritten, outcome.unchanged), (1, 1));
    let [warning] = outcome.warnings.as_slice() else {
        panic!("{:?}", outcome.warnings)
    };
    let text = warning.to_string();
    assert!(
        text.starts_with(&format!(
            "{}!{versioned}: AllInstructions: class kept as it was: ",
            input.display()
        )),
        "{text}"
    );
    assert!(text.contains("70.0"), "{text}");
    let entries = jar_entries(&out.join("mr.jar"));
    assert_eq!(entries[1], (versioned.to_owned(), future.clone()));
    assert_ne!(entries[0].1, class);

    // Outside `META-INF/versions/`, a class JP cannot read still fails its jar.
    jar(&input, &[("AllInstructions.class", &future)]);
    let outcome = instrument(&request(vec![input], &out)).unwrap();
    assert_eq!(outcome.errors.len(), 1);
}

#[cfg(unix)]
#[test]
fn symbolic_links_in_a_directory_input_are_followed_and_bad_ones_named() {
    use std::os::unix::fs::symlink;
    let dir = tempfile::tempdir().unwrap();
    let class = testdata_class("AllInstructions.class");
    let shared = dir.path().join("shared");
    fs::create_dir_all(&shared).unwrap();
    fs::write(shared.join("Linked.class"), &class).unwrap();
    fs::write(dir.path().join("notes.txt"), b"n").unwrap();
    let classes = dir.path().join("classes");
    fs::create_dir_all(classes.join("a")).unwrap();
    fs::write(classes.join("a/Own.class"), &class).unwrap();
    symlink(&shared, classes.join("b")).unwrap();
    symlink(dir.path().join("notes.txt"), classes.join("a/notes.txt")).unwrap();
    let out = dir.path().join("out");
    let outcome = instrument(&request(vec![classes.clone()], &out)).unwrap();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    assert_eq!((outcome.rewritten, outcome.copied), (2, 1));
    assert!(out.join("b/Linked.class").is_file() && !out.join("b").is_symlink());
    assert_eq!(fs::read(out.join("a/notes.txt")).unwrap(), b"n");

    let looping = classes.join("a/loop");
    symlink("..", &looping).unwrap();
    let dangling = classes.join("gone.class");
    symlink("nowhere.class", &dangling).unwrap();
    let outcome = instrument(&request(vec![classes.clone()], &out)).unwrap();
    let messages: Vec<String> = outcome.errors.iter().map(ToString::to_string).collect();
    assert_eq!(
        messages,
        [
            format!(
                "{}: symbolic link loop: it leads back to {}",
                looping.display(),
                classes.display()
            ),
            format!(
                "{}: symbolic link to nowhere.class, which does not exist",
                dangling.display()
            ),
        ]
    );
    assert_eq!(outcome.rewritten, 2, "the other files are still written");
}
