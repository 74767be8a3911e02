//! Incremental runs with a cache directory (docs/architecture.md, "Incremental rewriting and the cache"): what a run
//! reuses, rewrites and deletes, what it does with a damaged cache, how
//! concurrent runs take turns, and that every incremental output equals a
//! clean build's, byte for byte.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Barrier};
use std::time::Duration;

use jp_driver::api::{self, Request};
use jp_driver::filter::ClassFilter;
use jp_driver::instrument::{instrument, InstrumentRequest, Outcome, Scheme, Warning};
use jp_driver::EngineError;
use jp_rewrite::blocks::Analysis;
use jp_rewrite::profile::ProfileOptions;
use jp_testdata::classes as testdata_classes;

/// A project's class directory: the java8 test classes in `p/`, and a resource.
fn class_dir(root: &Path) -> PathBuf {
    let classes = root.join("classes");
    fs::create_dir_all(classes.join("p")).unwrap();
    for (name, bytes) in testdata_classes("java8") {
        fs::write(classes.join("p").join(name), bytes).unwrap();
    }
    fs::write(classes.join("p/app.properties"), b"k=v\n").unwrap();
    classes
}

/// 19 of the 24 java8 classes have code to rewrite.
const REWRITABLE: u64 = 19;
const CLASSES: u64 = 24;

fn profile(analysis: Analysis) -> Arc<dyn Scheme> {
    Arc::new(ProfileOptions {
        analysis,
        lines: false,
        call_sites: false,
        natives: false,
        allocations: false,
        probes: Default::default(),
    })
}

fn request(inputs: &[&Path], out: &Path, cache: Option<&Path>, scheme: Arc<dyn Scheme>) -> InstrumentRequest {
    InstrumentRequest {
        inputs: inputs.iter().map(|p| p.to_path_buf()).collect(),
        output: out.to_owned(),
        scheme,
        filter: ClassFilter::default(),
        cache: cache.map(Path::to_path_buf),
    }
}

fn run(request: &InstrumentRequest) -> Outcome {
    let outcome = instrument(request).unwrap();
    assert!(outcome.errors.is_empty(), "{:?}", outcome.errors);
    outcome
}

/// (rewritten, reused, unchanged, copied, deleted)
fn counts(outcome: &Outcome) -> (u64, u64, u64, u64, u64) {
    (
        outcome.rewritten,
        outcome.reused,
        outcome.unchanged,
        outcome.copied,
        outcome.deleted,
    )
}

/// The damaged cache entries an outcome reports, as (path, message).
fn cache_problems(outcome: &Outcome) -> Vec<(PathBuf, &str)> {
    let problems = outcome.warnings.iter().filter_map(|warning| match warning {
        Warning::Cache { path, message } => Some((PathBuf::from(path), message.as_str())),
        Warning::Kept { .. } => None,
    });
    problems.collect()
}

/// Every file under `dir` with its bytes, and every directory (as `None`).
fn tree(dir: &Path) -> BTreeMap<String, Option<Vec<u8>>> {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .into_iter()
        .map(|e| e.unwrap())
        .map(|e| {
            let name = e.path().strip_prefix(dir).unwrap().to_string_lossy().into_owned();
            let bytes = e.file_type().is_file().then(|| fs::read(e.path()).unwrap());
            (name, bytes)
        })
        .collect()
}

/// What a run without a cache writes into an empty directory.
fn clean_build(request: &InstrumentRequest) -> BTreeMap<String, Option<Vec<u8>>> {
    let out = tempfile::tempdir().unwrap();
    run(&InstrumentRequest {
        output: out.path().to_owned(),
        cache: None,
        ..request.clone()
    });
    tree(out.path())
}

fn assert_equals_clean_build(request: &InstrumentRequest) {
    let clean = clean_build(request);
    let incremental = tree(&request.output);
    let names = |t: &BTreeMap<String, Option<Vec<u8>>>| t.keys().cloned().collect::<Vec<_>>();
    assert_eq!(names(&incremental), names(&clean));
    assert!(incremental == clean, "same names, different bytes");
}

fn only_file_in(dir: &Path) -> PathBuf {
    let files: Vec<PathBuf> = walkdir::WalkDir::new(dir)
        .into_iter()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().is_file())
        .map(|e| e.into_path())
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    files.into_iter().next().unwrap()
}

#[test]
fn a_second_run_rewrites_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    assert_eq!(
        counts(&run(&request)),
        (REWRITABLE, 0, CLASSES - REWRITABLE, 1, 0)
    );
    let before = tree(&out);
    let second = run(&request);
    assert_eq!(counts(&second), (0, REWRITABLE, CLASSES - REWRITABLE, 1, 0));
    assert!(cache_problems(&second).is_empty(), "{:?}", second.warnings);
    assert!(tree(&out) == before);
    assert_equals_clean_build(&request);
}

#[test]
fn a_change_that_keeps_the_size_and_the_modification_time_is_still_seen() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    // Old times: the stats are trusted without reading the files.
    let old = std::time::SystemTime::now() - Duration::from_secs(3600);
    let set_time = |path: &Path| {
        let file = fs::File::options().write(true).open(path).unwrap();
        file.set_modified(old).unwrap();
    };
    for entry in fs::read_dir(classes.join("p")).unwrap() {
        set_time(&entry.unwrap().path());
    }
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    let path = classes.join("p/app.properties");
    fs::write(&path, b"k=w\n").unwrap();
    set_time(&path);
    let second = run(&request);
    assert_eq!(counts(&second), (0, REWRITABLE, CLASSES - REWRITABLE, 1, 0));
    if cfg!(unix) {
        // The status change time moved.
        assert_eq!(fs::read(out.join("p/app.properties")).unwrap(), b"k=w\n");
    }
}

#[test]
fn editing_one_class_reinstruments_only_it_and_the_output_equals_a_clean_build() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    let edited = jp_testdata::class("java17/AllInstructions.class");
    assert_ne!(edited, fs::read(classes.join("p/AllInstructions.class")).unwrap());
    fs::write(classes.join("p/AllInstructions.class"), edited).unwrap();
    let before = tree(&out);
    let outcome = run(&request);
    assert_eq!(counts(&outcome), (1, REWRITABLE - 1, CLASSES - REWRITABLE, 1, 0));
    let after = tree(&out);
    let changed: Vec<&String> = after.keys().filter(|k| after.get(*k) != before.get(*k)).collect();
    assert_eq!(changed, ["p/AllInstructions.class"]);
    assert_equals_clean_build(&request);
}

#[test]
fn deleting_an_input_class_deletes_its_output() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    fs::create_dir_all(classes.join("q/r")).unwrap();
    fs::copy(classes.join("p/Enums.class"), classes.join("q/r/Moved.class")).unwrap();
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    assert!(out.join("q/r/Moved.class").is_file());
    fs::remove_file(classes.join("p/Enums.class")).unwrap();
    fs::remove_file(classes.join("p/app.properties")).unwrap();
    fs::remove_dir_all(classes.join("q")).unwrap();
    let outcome = run(&request);
    assert_eq!(counts(&outcome), (0, REWRITABLE - 1, CLASSES - REWRITABLE, 0, 3));
    assert!(!out.join("p/Enums.class").exists());
    assert!(!out.join("q").exists(), "directories left empty go too");
    assert_equals_clean_build(&request);
}

#[test]
fn an_input_left_out_of_the_request_loses_its_outputs() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let single = dir.path().join("Single.class");
    fs::copy(classes.join("p/Enums.class"), &single).unwrap();
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let both = request(
        &[&classes, &single],
        &out,
        Some(&cache),
        profile(Analysis::Default),
    );
    // The copy has the same bytes as p/Enums.class: its rewrite is found
    // in the cache, even within the run that made it.
    assert_eq!(counts(&run(&both)), (REWRITABLE, 1, CLASSES - REWRITABLE, 1, 0));
    let one = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    assert_eq!(counts(&run(&one)), (0, REWRITABLE, CLASSES - REWRITABLE, 1, 1));
    assert!(!out.join("Single.class").exists());
    assert_equals_clean_build(&one);
}

#[test]
fn changing_bba_redoes_everything_and_switching_back_rewrites_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let default = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    let precise = request(&[&classes], &out, Some(&cache), profile(Analysis::Precise));
    run(&default);
    assert_eq!(
        counts(&run(&precise)),
        (REWRITABLE, 0, CLASSES - REWRITABLE, 1, 0)
    );
    assert_equals_clean_build(&precise);
    assert_eq!(
        counts(&run(&default)),
        (0, REWRITABLE, CLASSES - REWRITABLE, 1, 0)
    );
    assert_equals_clean_build(&default);
}

#[test]
fn changing_the_filter_rewrites_only_what_it_newly_admits() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let all = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    let mut some = all.clone();
    some.filter.exclude.push("p.Enums".parse().unwrap());
    let enums = run(&some).unchanged - (CLASSES - REWRITABLE);
    assert_eq!(enums, 4, "Enums and its three nested classes");
    assert_equals_clean_build(&some);
    let outcome = run(&all);
    assert_eq!(
        counts(&outcome),
        (enums, REWRITABLE - enums, CLASSES - REWRITABLE, 1, 0)
    );
    assert_equals_clean_build(&all);
    let outcome = run(&some);
    assert_eq!(
        counts(&outcome),
        (0, REWRITABLE - enums, CLASSES - REWRITABLE + enums, 1, 0)
    );
    assert_equals_clean_build(&some);
}

#[test]
fn a_damaged_manifest_is_reported_and_everything_checked_again() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    let manifest = only_file_in(&cache.join("manifests"));
    let text = fs::read(&manifest).unwrap();
    fs::write(&manifest, &text[..text.len() / 2]).unwrap();
    // Replaced as tools replace files (a new file), so its cache object is untouched.
    fs::remove_file(out.join("p/Enums.class")).unwrap();
    fs::write(out.join("p/Enums.class"), b"tampered").unwrap();
    let outcome = run(&request);
    let [(ref path, message)] = cache_problems(&outcome)[..] else {
        panic!("{:?}", outcome.warnings)
    };
    assert_eq!(*path, manifest);
    assert!(message.starts_with("damaged manifest"), "{message}");
    assert_eq!(counts(&outcome), (0, REWRITABLE, CLASSES - REWRITABLE, 1, 0));
    assert_equals_clean_build(&request);
    assert!(cache_problems(&run(&request)).is_empty());
}

#[test]
fn a_damaged_object_is_detected_and_recomputed() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let only = dir.path().join("only");
    fs::create_dir_all(&only).unwrap();
    fs::copy(
        classes.join("p/AllInstructions.class"),
        only.join("AllInstructions.class"),
    )
    .unwrap();
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&only], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    let object = only_file_in(&cache.join("objects"));
    for damage in [
        |bytes: &mut Vec<u8>| bytes.truncate(bytes.len() - 1),
        |bytes: &mut Vec<u8>| *bytes.last_mut().unwrap() ^= 0x40,
    ] {
        let mut bytes = fs::read(&object).unwrap();
        damage(&mut bytes);
        fs::write(&object, bytes).unwrap();
        // Without the output in place, the class must come from the object.
        fs::remove_dir_all(&out).unwrap();
        let outcome = run(&request);
        let [(ref path, _)] = cache_problems(&outcome)[..] else {
            panic!("{:?}", outcome.warnings)
        };
        assert_eq!(*path, object);
        assert_eq!(counts(&outcome), (1, 0, 0, 0, 0));
        assert_equals_clean_build(&request);
    }
    fs::remove_dir_all(&out).unwrap();
    let outcome = run(&request);
    assert!(
        cache_problems(&outcome).is_empty(),
        "the object was written again"
    );
    assert_eq!(counts(&outcome), (0, 1, 0, 0, 0));
}

#[test]
fn an_output_changed_in_place_is_recomputed_with_its_linked_object() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    // Written into the same file: the object is a link to it and changes too.
    let mut file = fs::OpenOptions::new()
        .write(true)
        .truncate(true)
        .open(out.join("p/Enums.class"))
        .unwrap();
    std::io::Write::write_all(&mut file, b"tampered").unwrap();
    drop(file);
    let outcome = run(&request);
    let [(ref path, message)] = cache_problems(&outcome)[..] else {
        panic!("{:?}", outcome.warnings)
    };
    assert!(path.starts_with(cache.join("objects")), "{}", path.display());
    assert!(message.starts_with("damaged cache object"), "{message}");
    // Enums rewritten again, every other class up to date.
    assert_eq!(counts(&outcome), (1, REWRITABLE - 1, CLASSES - REWRITABLE, 1, 0));
    assert_equals_clean_build(&request);
    let outcome = run(&request);
    assert!(cache_problems(&outcome).is_empty(), "{:?}", outcome.warnings);
    assert_eq!(counts(&outcome), (0, REWRITABLE, CLASSES - REWRITABLE, 1, 0));
}

#[test]
fn concurrent_runs_on_the_same_output_take_turns_and_equal_a_clean_build() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    for cache in [Some(dir.path().join("cache")), None] {
        let out = dir
            .path()
            .join("out")
            .join(if cache.is_some() { "cached" } else { "plain" });
        let request = request(&[&classes], &out, cache.as_deref(), profile(Analysis::Default));
        let barrier = Arc::new(Barrier::new(2));
        let outcomes: Vec<Outcome> = std::thread::scope(|scope| {
            let handles: Vec<_> = (0..2)
                .map(|_| {
                    let (barrier, request) = (barrier.clone(), &request);
                    scope.spawn(move || {
                        barrier.wait();
                        run(request)
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        });
        if cache.is_some() {
            // One ran first and rewrote; the other found everything done.
            let mut rewritten: Vec<u64> = outcomes.iter().map(|o| o.rewritten).collect();
            rewritten.sort();
            assert_eq!(rewritten, [0, REWRITABLE]);
        }
        assert_equals_clean_build(&request);
    }
}

#[test]
fn a_run_waits_while_another_holds_the_cache_lock() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    let mut lock = fd_lock::RwLock::new(fs::File::open(cache.join("lock")).unwrap());
    let guard = lock.write().unwrap();
    std::thread::scope(|scope| {
        let waiting = scope.spawn(|| run(&request));
        std::thread::sleep(Duration::from_millis(300));
        assert!(!waiting.is_finished(), "the run went on while the lock was held");
        drop(guard);
        assert_eq!(waiting.join().unwrap().reused, REWRITABLE);
    });
}

#[test]
fn an_unwritable_output_dir_gives_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    // Tests may run as root, who may write anywhere: a file in the way
    // makes the directory impossible to create for anyone.
    let blocker = dir.path().join("build");
    fs::write(&blocker, b"a file, not a directory").unwrap();
    let out = blocker.join("jp/classes");
    let error = instrument(&request(&[&classes], &out, None, profile(Analysis::Default))).unwrap_err();
    assert!(matches!(&error, EngineError::Output { path, .. } if *path == out));
    assert_eq!(
        error.to_string(),
        format!("{}: cannot write the output directory", out.display())
    );
    let json = format!(
        r#"{{"inputs":["{}"],"output":"{}"}}"#,
        classes.display(),
        out.display()
    );
    let error = api::run_json(&json).unwrap_err();
    assert!(
        error.to_string().starts_with(&out.display().to_string()),
        "{error}"
    );
}

#[test]
fn an_unusable_cache_dir_gives_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let cache = dir.path().join("cache");
    fs::write(&cache, b"in the way").unwrap();
    let out = dir.path().join("out");
    let error = instrument(&request(
        &[&classes],
        &out,
        Some(&cache),
        profile(Analysis::Default),
    ))
    .unwrap_err();
    assert_eq!(
        error.to_string(),
        format!("{} is not a directory", cache.display())
    );
    assert!(!out.exists(), "nothing is created");
}

#[test]
fn the_api_runs_a_request_incrementally_and_reports_bad_class_files() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let mut future = fs::read(classes.join("p/Enums.class")).unwrap();
    future[7] = 70;
    fs::write(classes.join("p/Future.class"), future).unwrap();
    let config = dir.path().join("jp.toml");
    fs::write(&config, "[instrument]\nexclude = [\"p.Nested**\"]\n").unwrap();
    let request = Request {
        inputs: vec![classes.clone()],
        output: dir.path().join("out"),
        cache_dir: Some(dir.path().join("cache")),
        bba: Some(api::BbaName::Precise),
        lines: None,
        call_sites: None,
        metrics: None,
        include: vec![],
        exclude: vec!["p.Generics**".parse().unwrap()],
        config_file: Some(config),
    };
    let json = serde_json::to_string(&request).unwrap();
    let first: serde_json::Value = serde_json::from_str(&api::run_json(&json).unwrap()).unwrap();
    let error = api::Message {
        path: classes.join("p/Future.class").display().to_string(),
        message: "malformed class file: unsupported class-file version 70.0; JP supports 45–69".to_owned(),
    };
    assert_eq!(
        first["errors"],
        serde_json::json!([{"path": error.path, "message": error.message}])
    );
    let count = |name: &str| first[name].as_u64().unwrap();
    assert!(count("rewritten") > 0 && count("reused") == 0, "{first}");
    assert!(
        dir.path().join("out/p/Enums.class").is_file(),
        "the others are written"
    );
    let second = api::run(&request).unwrap();
    assert_eq!(
        (second.rewritten, second.reused, second.unchanged, second.copied),
        (0, count("rewritten"), count("unchanged"), count("copied"))
    );
    assert_eq!(second.errors, [error]);
    // The excluded classes (from the file and from the request) are written as they were.
    for name in ["p/Nested.class", "p/Generics$Inner.class"] {
        assert_eq!(
            fs::read(dir.path().join("out").join(name)).unwrap(),
            fs::read(classes.join(name)).unwrap(),
            "{name}"
        );
    }
}

#[test]
fn a_changed_jar_is_redone_and_an_unchanged_one_is_not() {
    let dir = tempfile::tempdir().unwrap();
    let classes = testdata_classes("java8");
    let (a, b) = (dir.path().join("a.jar"), dir.path().join("b.jar"));
    write_jar(&a, &classes[..10]);
    write_jar(&b, &classes[10..]);
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&a, &b], &out, Some(&cache), profile(Analysis::Default));
    let first = run(&request);
    let b_before = fs::read(out.join("b.jar")).unwrap();
    write_jar(&a, &classes[..9]);
    let second = run(&request);
    assert_eq!(second.rewritten, 0, "its classes come from the cache");
    assert_eq!(
        second.reused + second.unchanged,
        first.rewritten + first.unchanged - 1
    );
    assert_eq!(fs::read(out.join("b.jar")).unwrap(), b_before);
    assert_equals_clean_build(&request);
}

/// `entries` as a jar of classes in the package `p`.
fn write_jar(path: &Path, entries: &[(String, Vec<u8>)]) {
    let names: Vec<String> = entries.iter().map(|(name, _)| format!("p/{name}")).collect();
    let entries: Vec<(&str, &[u8])> = names
        .iter()
        .zip(entries)
        .map(|(name, (_, bytes))| (name.as_str(), bytes.as_slice()))
        .collect();
    jp_testdata::write_jar(path, &entries);
}

/// A small deterministic generator (xorshift64*), so that a failure replays.
struct Random(u64);

impl Random {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

#[test]
fn random_edit_sequences_give_the_same_output_as_clean_builds() {
    let pool: Vec<Vec<u8>> = testdata_classes("java8")
        .into_iter()
        .chain(testdata_classes("java17"))
        .map(|(_, bytes)| bytes)
        .collect();
    let names = ["A", "B", "C", "D", "E", "F"];
    let packages = ["p", "p/q", "r"];
    for seed in [1_u64, 2, 3] {
        let mut random = Random(0x9e37_79b9_7f4a_7c15 ^ seed);
        let dir = tempfile::tempdir().unwrap();
        let classes = dir.path().join("classes");
        let jar = dir.path().join("lib.jar");
        fs::create_dir_all(&classes).unwrap();
        let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
        for step in 0..12 {
            for _ in 0..1 + random.below(4) {
                let path = classes
                    .join(packages[random.below(packages.len())])
                    .join(names[random.below(names.len())]);
                match random.below(5) {
                    0 | 1 => {
                        fs::create_dir_all(path.parent().unwrap()).unwrap();
                        let bytes = &pool[random.below(pool.len())];
                        fs::write(path.with_extension("class"), bytes).unwrap();
                    }
                    2 => {
                        fs::create_dir_all(path.parent().unwrap()).unwrap();
                        fs::write(path.with_extension("txt"), format!("{step}")).unwrap();
                    }
                    3 => {
                        let _ = fs::remove_file(path.with_extension("class"));
                        let _ = fs::remove_file(path.with_extension("txt"));
                    }
                    _ => {
                        let start = random.below(pool.len());
                        let entries: Vec<(String, Vec<u8>)> = pool[start..(start + 3).min(pool.len())]
                            .iter()
                            .enumerate()
                            .map(|(i, bytes)| (format!("J{i}.class"), bytes.clone()))
                            .collect();
                        write_jar(&jar, &entries);
                    }
                }
            }
            let analysis = if random.below(4) == 0 {
                Analysis::Precise
            } else {
                Analysis::Default
            };
            let mut inputs: Vec<&Path> = vec![&classes];
            if jar.exists() && random.below(3) > 0 {
                inputs.push(&jar);
            }
            let request = request(&inputs, &out, Some(&cache), profile(analysis));
            run(&request);
            assert_equals_clean_build(&request);
        }
    }
}

#[test]
fn temporary_files_of_a_killed_run_are_removed_by_the_next_run() {
    let dir = tempfile::tempdir().unwrap();
    let classes = class_dir(dir.path());
    let (out, cache) = (dir.path().join("out"), dir.path().join("cache"));
    let request = request(&[&classes], &out, Some(&cache), profile(Analysis::Default));
    run(&request);
    assert!(
        !cache.join("objects.adding").exists(),
        "a finished run leaves no marker"
    );
    let objects = cache.join("objects/00");
    // What a run killed while writing leaves: temporary files beside the
    // outputs, the objects, the manifests and the index, and the marker of
    // a store being added to.
    let left = [
        out.join(".jp-Zz9Yy8"),
        out.join("p/.jp-a1B2c3"),
        objects.join(".jp-q1w2e3"),
        cache.join("manifests/.jp-r4t5y6"),
        cache.join(".jp-u7i8o9"),
    ];
    for path in &left {
        fs::write(path, b"partial").unwrap();
    }
    fs::write(cache.join("objects.adding"), b"").unwrap();
    let not_ours = [cache.join(".jp-notes"), cache.join("manifests/jp-abcdef")];
    for path in &not_ours {
        fs::write(path, b"mine").unwrap();
    }
    run(&request);
    for path in &left {
        assert!(!path.exists(), "{} is left", path.display());
    }
    assert!(!cache.join("objects.adding").exists());
    assert!(not_ours.iter().all(|path| path.exists()));
    assert_equals_clean_build(&request);

    // Without the marker, no run was killed while adding objects: the
    // store is not walked.
    let unwalked = objects.join(".jp-p0o9i8");
    fs::write(&unwalked, b"").unwrap();
    run(&request);
    assert!(unwalked.exists());
}
