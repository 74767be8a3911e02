//! Times incremental runs over a directory of many classes: a cold run, two
//! no-op runs (the first hashes inputs written moments before the cold run,
//! the second trusts their stats) and the best of ten more, a run after
//! editing one class, and a change of `bba` and back.
//!
//! ```text
//! cargo run --release -p jp-driver --example incremental [-- CLASSES]
//! ```
//! `CLASSES` is a directory, jar or jmod (default: JDK 17's `java.base.jmod`);
//! the classes of a jar or jmod are first extracted into a directory, as
//! a build's class directory would hold them. `RAYON_NUM_THREADS=1` measures
//! the runs on one thread.

use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use jp_driver::filter::ClassFilter;
use jp_driver::input::{Input, InputKind};
use jp_driver::instrument::{instrument, InstrumentRequest, Outcome};
use jp_rewrite::blocks::Analysis;
use jp_rewrite::profile::ProfileOptions;

const DEFAULT_INPUT: &str = "/usr/lib/jvm/java-17-openjdk-amd64/jmods/java.base.jmod";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let input = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| DEFAULT_INPUT.to_owned()),
    );
    let work = tempfile::tempdir()?;
    let classes = class_directory(&input, work.path())?;
    let count = walkdir::WalkDir::new(&classes)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "class"))
        .count();
    println!(
        "{count} classes from {} ({} rayon threads)",
        input.display(),
        rayon::current_num_threads()
    );

    let request = |out: &str, cache: bool, analysis: Analysis| InstrumentRequest {
        inputs: vec![classes.clone()],
        output: work.path().join(out),
        scheme: Arc::new(ProfileOptions {
            analysis,
            lines: false,
            call_sites: false,
            natives: false,
            allocations: false,
            probes: Default::default(),
        }),
        filter: ClassFilter::default(),
        cache: cache.then(|| work.path().join("cache")),
    };
    let time = |label: &str, request: &InstrumentRequest| -> Result<(), Box<dyn std::error::Error>> {
        let start = Instant::now();
        let outcome = instrument(request)?;
        let elapsed = start.elapsed();
        println!(
            "{label:<34} {:>8.1} ms  {}",
            elapsed.as_secs_f64() * 1000.0,
            summary(&outcome)
        );
        Ok(())
    };

    time("cold, no cache", &request("plain", false, Analysis::Default))?;
    let default = request("out", true, Analysis::Default);
    time("cold, with a cache", &default)?;
    time("no-op (inputs hashed)", &default)?;
    time("no-op (stats trusted)", &default)?;
    let best = (0..10)
        .map(|_| {
            let start = Instant::now();
            instrument(&default).map(|_| start.elapsed().as_secs_f64() * 1000.0)
        })
        .collect::<Result<Vec<f64>, _>>()?
        .into_iter()
        .fold(f64::MAX, f64::min);
    println!("{:<34} {best:>8.1} ms", "no-op, best of 10");
    // The edit: a class's source file name changes, as if it were renamed.
    let edited = pick_class(&classes)?;
    let mut bytes = fs::read(&edited)?;
    let at = bytes
        .windows(5)
        .position(|w| w == b".java")
        .ok_or("no SourceFile to edit")?;
    bytes[at.saturating_sub(1)] ^= 0x01;
    fs::write(&edited, bytes)?;
    time("one class edited", &default)?;
    time(
        "bba precise (everything redone)",
        &request("out", true, Analysis::Precise),
    )?;
    time("bba default again (from the cache)", &default)?;
    Ok(())
}

fn summary(outcome: &Outcome) -> String {
    format!(
        "rewritten {}, reused {}, unchanged {}, copied {}, deleted {}, failed {}",
        outcome.rewritten,
        outcome.reused,
        outcome.unchanged,
        outcome.copied,
        outcome.deleted,
        outcome.errors.len()
    )
}

/// The directory of classes to run on: `input` itself, or the classes of
/// a jar or jmod extracted under `work`.
fn class_directory(input: &Path, work: &Path) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let opened = Input::open(input)?;
    if opened.kind() == InputKind::Directory {
        return Ok(input.to_owned());
    }
    let dir = work.join("classes");
    for entry in opened.entries()? {
        let entry = entry?;
        let name = entry.name.strip_prefix("classes/").unwrap_or(&entry.name);
        if entry.is_class() && !name.contains("..") {
            let path = dir.join(name);
            fs::create_dir_all(path.parent().unwrap_or(&dir))?;
            fs::write(path, &entry.bytes)?;
        }
    }
    Ok(dir)
}

/// A class to edit: `java/lang/String.class` when there is one, else the first.
fn pick_class(dir: &Path) -> Result<PathBuf, Box<dyn std::error::Error>> {
    let string = dir.join("java/lang/String.class");
    if string.is_file() {
        return Ok(string);
    }
    walkdir::WalkDir::new(dir)
        .sort_by_file_name()
        .into_iter()
        .filter_map(Result::ok)
        .map(|e| e.into_path())
        .find(|p| p.extension().is_some_and(|x| x == "class"))
        .ok_or_else(|| "no class to edit".into())
}
