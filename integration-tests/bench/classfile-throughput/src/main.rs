//! `classfile-throughput`: how many megabytes of class files per second
//! jp-classfile parses and writes back, on one core and on all cores, side
//! by side with two other Rust class-file crates, `ristretto_classfile`
//! (parses and writes) and `cafebabe` (parses only).
//!
//! This is a benchmark, not a test. It loads every `.class` entry of its
//! inputs into memory, checks in one warm-up pass that JP gives every class
//! back byte for byte (and stops if not), then times each kind of work over
//! the whole set:
//!
//! | row                      | work per class                                        |
//! |--------------------------|-------------------------------------------------------|
//! | `jp parse`               | `ClassFile::parse`                                    |
//! | `jp lazy parse+write`    | parse, then `ClassWriter::new(&class).to_bytes()`     |
//! | `jp deep parse+re-encode`| parse, then `jp_classfile::deep::reencode(&class)`    |
//! | `jp stress rewrite`      | the stress scheme: decode, edit, lay out every method |
//! | `jp profile rewrite`     | the profiling scheme, as `jp instrument` rewrites     |
//! | `ristretto parse`        | `ristretto_classfile::ClassFile::from_slice`          |
//! | `ristretto parse+write`  | `from_slice`, then `to_bytes`                         |
//! | `cafebabe parse`         | `parse_class_with_options`, bytecode not decoded      |
//! | `cafebabe parse+bytecode`| `parse_class` (decodes the bytecode too)              |
//!
//! Throughput is input class bytes per second (MB = 10^6 bytes), from the
//! fastest and the median of repeated passes over the set: a plain loop on
//! one core, and a rayon `par_iter` on all cores. Classes another crate fails on, by
//! an error or a panic, are counted in the warm-up and left out of its rows.
//! Each cell also gives the bytes per second of CPU time the whole process
//! spent, in the pass that took the least of it: on a busy machine, where
//! passes wait for a core, that figure stays what the work costs.

use std::fmt::Display;
use std::hint::black_box;
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use cpu_time::ProcessTime;

use jp_classfile::{deep, ClassFile, ClassWriter};
use jp_driver::input::{Input, InputError};
use jp_rewrite::profile::{profile_class, ProfileOptions};
use jp_stress::{stress_class, StressOptions};
use rayon::prelude::*;

/// The allocator of the `jp` binary, so that the rewrite rows time what `jp instrument` does.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

const NAME: &str = "classfile-throughput";

const USAGE: &str = "\
usage: classfile-throughput [--min-time SECS] [--min-iters N] [PATH...]

Times parsing and writing back every .class entry of PATH (class files,
directories, jars, jmods; default: java.base.jmod of the JDK 17 in
JAVA_HOME or /usr/lib/jvm/java-17-openjdk-amd64).

  --min-time SECS  time each row for at least SECS seconds (default 1)
  --min-iters N    and for at least N passes over the classes (default 5)";

/// The Cargo.lock beside this file, for the versions of the crates compared.
const CARGO_LOCK: &str = include_str!("../Cargo.lock");

fn main() -> ExitCode {
    let options = match Options::parse(std::env::args().skip(1)) {
        Ok(Some(options)) => options,
        Ok(None) => {
            println!("{USAGE}");
            return ExitCode::SUCCESS;
        }
        Err(message) => {
            eprintln!("{NAME}: {message}\n\n{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&options) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure::Usage(message)) => {
            eprintln!("{NAME}: {message}");
            ExitCode::from(2)
        }
        Err(Failure::NotIdentical(message)) => {
            eprintln!("{NAME}: {message}");
            ExitCode::from(1)
        }
    }
}

/// Why the benchmark stopped.
enum Failure {
    /// The inputs could not be found or read (exit 2).
    Usage(String),
    /// JP did not give a class back byte for byte (exit 1).
    NotIdentical(String),
}

/// The command line.
struct Options {
    min_time: Duration,
    min_iters: usize,
    paths: Vec<PathBuf>,
}

impl Options {
    /// `Ok(None)` asks for the usage text.
    fn parse(mut args: impl Iterator<Item = String>) -> Result<Option<Self>, String> {
        let mut options = Options {
            min_time: Duration::from_secs(1),
            min_iters: 5,
            paths: Vec::new(),
        };
        while let Some(arg) = args.next() {
            match arg.as_str() {
                "-h" | "--help" => return Ok(None),
                "--min-time" => {
                    let value = args.next().ok_or("--min-time needs a value")?;
                    let secs: f64 = value
                        .parse()
                        .ok()
                        .filter(|s: &f64| s.is_finite() && *s >= 0.0)
                        .ok_or_else(|| format!("--min-time: not a number of seconds: {value}"))?;
                    options.min_time = Duration::from_secs_f64(secs);
                }
                "--min-iters" => {
                    let value = args.next().ok_or("--min-iters needs a value")?;
                    options.min_iters = value
                        .parse()
                        .ok()
                        .filter(|n| *n > 0)
                        .ok_or_else(|| format!("--min-iters: not a positive count: {value}"))?;
                }
                flag if flag.starts_with('-') => return Err(format!("unknown flag {flag}")),
                path => options.paths.push(PathBuf::from(path)),
            }
        }
        Ok(Some(options))
    }
}

/// One class file in memory and where it came from.
struct Class {
    location: String,
    bytes: Vec<u8>,
}

fn run(options: &Options) -> Result<(), Failure> {
    let paths = if options.paths.is_empty() {
        vec![default_input().ok_or_else(|| {
            Failure::Usage(
                "no JDK 17 java.base.jmod found in JAVA_HOME or \
                 /usr/lib/jvm/java-17-openjdk-amd64; give input paths"
                    .to_owned(),
            )
        })?]
    } else {
        options.paths.clone()
    };
    let classes = load(&paths)?;
    let total: usize = classes.iter().map(|c| c.bytes.len()).sum();
    println!(
        "input: {} classes, {:.1} MB of class bytes, from {}",
        classes.len(),
        mb(total),
        paths
            .iter()
            .map(|p| p.display().to_string())
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "machine: {}, {} threads, load average {} before the run",
        cpu_model(),
        rayon::current_num_threads(),
        load_average()
    );
    println!(
        "compared with: ristretto_classfile {}, cafebabe {}",
        locked_version("ristretto_classfile"),
        locked_version("cafebabe")
    );
    println!();

    // The warm-up pass: check everything once, and find the classes each
    // other crate handles. Their panics are counted, not printed.
    let default_hook = panic::take_hook();
    panic::set_hook(Box::new(|_| {}));
    let checked = warm_up(&classes);
    panic::set_hook(default_hook);
    let warm = checked?;
    for line in &warm.notes {
        println!("warm-up: {line}");
    }
    println!();

    let all: Vec<usize> = (0..classes.len()).collect();
    let rows = [
        Row::new("jp parse", jp_parse, &all),
        Row::new("jp lazy parse+write", jp_lazy_write, &all),
        Row::new("jp deep parse+re-encode", jp_deep_reencode, &all),
        Row::new("jp stress rewrite", jp_stress_rewrite, &all),
        Row::new("jp profile rewrite", jp_profile_rewrite, &all),
        Row::new("ristretto parse", ristretto_parse, &warm.ristretto_parsed),
        Row::new("ristretto parse+write", ristretto_write, &warm.ristretto_written),
        Row::new("cafebabe parse", cafebabe_parse, &warm.cafebabe_parsed),
        Row::new(
            "cafebabe parse+bytecode",
            cafebabe_parse_bytecode,
            &warm.cafebabe_bytecode_parsed,
        ),
    ];
    let threads = rayon::current_num_threads();
    let cores = format!("{threads} {}", if threads == 1 { "core" } else { "cores" });
    println!(
        "timing: best and median of at least {} passes and {:.1} s per cell; \
         MB = 10^6 bytes of input",
        options.min_iters,
        options.min_time.as_secs_f64()
    );
    println!(
        "{:<24} {:>7} {:>6}   {:-^21}   {:-^21}             {:-^21}",
        "",
        "",
        "",
        " 1 core MB/s ",
        format!(" {cores} MB/s "),
        " MB per CPU second "
    );
    println!(
        "{:<24} {:>7} {:>6}   {:>10} {:>10}   {:>10} {:>10} {:>9}   {:>10} {:>10}",
        "work", "classes", "MB", "best", "median", "best", "median", "speed-up", "1 core", cores
    );
    let mut results = Vec::new();
    for row in &rows {
        let set: Vec<&[u8]> = row.indices.iter().map(|&i| &classes[i].bytes[..]).collect();
        let bytes: usize = set.iter().map(|b| b.len()).sum();
        let one = measure(&set, bytes, row.work, false, options);
        let many = measure(&set, bytes, row.work, true, options);
        println!(
            "{:<24} {:>7} {:>6.1}   {:>10.1} {:>10.1}   {:>10.1} {:>10.1} {:>8.2}x   {:>10} {:>10}",
            row.name,
            set.len(),
            mb(bytes),
            one.best,
            one.median,
            many.best,
            many.median,
            many.best / one.best,
            per_cpu_second(one),
            per_cpu_second(many)
        );
        results.push((row.name, one, many));
    }
    println!();

    for (name, one, many) in &results {
        println!(
            "{name}: 1 core {:.1} MB/s, {cores} {:.1} MB/s; {} and {} MB per CPU second",
            one.best,
            many.best,
            per_cpu_second(*one),
            per_cpu_second(*many)
        );
    }
    // Rewriting is also counted in classes, as users think of a build.
    for (name, one, many) in results.iter().filter(|(n, ..)| n.ends_with(" rewrite")) {
        let per_mb = classes.len() as f64 / mb(total);
        println!(
            "{name}: 1 core {:.0} classes/s, {cores} {:.0} classes/s",
            one.best * per_mb,
            many.best * per_mb
        );
    }
    let rate = |name: &str| {
        let (_, one, many) = results.iter().find(|(n, ..)| *n == name).expect("a row");
        (one.best, many.best)
    };
    for (label, jp, other) in [
        ("jp/ristretto (parse", "jp parse", "ristretto parse"),
        (
            "jp/ristretto (parse+write",
            "jp lazy parse+write",
            "ristretto parse+write",
        ),
        (
            "jp deep/ristretto (parse+re-encode",
            "jp deep parse+re-encode",
            "ristretto parse+write",
        ),
        ("jp/cafebabe (parse", "jp parse", "cafebabe parse"),
        (
            "jp/cafebabe+bytecode (parse",
            "jp parse",
            "cafebabe parse+bytecode",
        ),
    ] {
        let (jp_one, jp_many) = rate(jp);
        let (other_one, other_many) = rate(other);
        println!(
            "ratio {label}, 1 core): {:.1}x ({cores}: {:.1}x)",
            jp_one / other_one,
            jp_many / other_many
        );
    }
    Ok(())
}

/// The JDK 17 `java.base.jmod`: that of `JAVA_HOME` when it is a JDK 17,
/// else that of the Debian package.
fn default_input() -> Option<PathBuf> {
    let java_home = std::env::var_os("JAVA_HOME").map(PathBuf::from);
    java_home
        .into_iter()
        .chain([PathBuf::from("/usr/lib/jvm/java-17-openjdk-amd64")])
        .filter(|jdk| is_jdk17(jdk))
        .map(|jdk| jdk.join("jmods/java.base.jmod"))
        .find(|jmod| jmod.is_file())
}

/// Whether the JDK's `release` file says `JAVA_VERSION="17..."`.
fn is_jdk17(jdk: &Path) -> bool {
    std::fs::read_to_string(jdk.join("release"))
        .is_ok_and(|release| release.lines().any(|line| line.starts_with("JAVA_VERSION=\"17")))
}

/// Every `.class` entry of `paths`, in input order.
fn load(paths: &[PathBuf]) -> Result<Vec<Class>, Failure> {
    let mut classes = Vec::new();
    for path in paths {
        let input = Input::open(path).map_err(unreadable)?;
        for entry in input.entries().map_err(unreadable)? {
            let entry = entry.map_err(unreadable)?;
            if entry.is_class() {
                classes.push(Class {
                    location: entry.location.to_string(),
                    bytes: entry.bytes,
                });
            }
        }
    }
    if classes.is_empty() {
        return Err(Failure::Usage("no .class entries in the inputs".to_owned()));
    }
    Ok(classes)
}

/// An input error with its sources, joined by `: `.
fn unreadable(error: InputError) -> Failure {
    let mut text = error.to_string();
    let mut source = std::error::Error::source(&error);
    while let Some(cause) = source {
        text.push_str(": ");
        text.push_str(&cause.to_string());
        source = cause.source();
    }
    Failure::Usage(text)
}

/// What the warm-up pass found.
struct WarmUp {
    /// One line per crate and kind of work.
    notes: Vec<String>,
    /// Indices of the classes each other crate handles.
    ristretto_parsed: Vec<usize>,
    ristretto_written: Vec<usize>,
    cafebabe_parsed: Vec<usize>,
    cafebabe_bytecode_parsed: Vec<usize>,
}

/// Runs every kind of work once on every class. JP must parse every class
/// and give it back identically, lazily and deeply; the other crates' errors
/// and panics are counted.
fn warm_up(classes: &[Class]) -> Result<WarmUp, Failure> {
    for class in classes {
        let bytes = &class.bytes[..];
        let check = |how: &str, attempt: Attempt<Vec<u8>>| match attempt {
            Attempt::Done(out) if out == bytes => Ok(()),
            Attempt::Done(out) => Err(Failure::NotIdentical(format!(
                "{}: jp {how} gives {} bytes that differ from the {} input bytes",
                class.location,
                out.len(),
                bytes.len()
            ))),
            Attempt::Failed(e) | Attempt::Panicked(e) => Err(Failure::NotIdentical(format!(
                "{}: jp {how} failed: {e}",
                class.location
            ))),
        };
        check(
            "parse+lazy write",
            attempt(|| ClassFile::parse(bytes).and_then(|c| ClassWriter::new(&c).to_bytes())),
        )?;
        check(
            "parse+deep re-encode",
            attempt(|| ClassFile::parse(bytes).and_then(|c| deep::reencode(&c))),
        )?;
    }
    let n = classes.len();
    let mut notes = vec![format!(
        "jp: {n} of {n} classes written back identically, lazily and by deep re-encoding"
    )];

    let mut parse = Tally::default();
    let mut write = Tally::default();
    let mut identical = 0;
    let mut first_difference = None;
    let mut ristretto_parsed = Vec::new();
    let mut ristretto_written = Vec::new();
    for (i, class) in classes.iter().enumerate() {
        let bytes = &class.bytes[..];
        let Some(parsed) = parse.record(
            &class.location,
            attempt(|| ristretto_classfile::ClassFile::from_slice(bytes)),
        ) else {
            continue;
        };
        ristretto_parsed.push(i);
        let written = attempt(|| {
            let mut out = Vec::with_capacity(bytes.len());
            parsed.to_bytes(&mut out).map(|()| out)
        });
        let Some(out) = write.record(&class.location, written) else {
            continue;
        };
        ristretto_written.push(i);
        if out == bytes {
            identical += 1;
        } else if first_difference.is_none() {
            let offset = out
                .iter()
                .zip(bytes)
                .position(|(a, b)| a != b)
                .unwrap_or(out.len().min(bytes.len()));
            first_difference = Some(format!(
                "{} ({} bytes out of {} in, first difference at offset {offset:#x})",
                class.location,
                out.len(),
                bytes.len()
            ));
        }
    }
    notes.push(format!("ristretto parse: {}", parse.summary(n)));
    notes.push(format!(
        "ristretto write (of the parsed): {}; {identical} of {n} classes written back identically{}",
        write.summary(ristretto_parsed.len()),
        first_difference
            .map(|l| format!(" (first that differs: {l})"))
            .unwrap_or_default()
    ));

    let mut cafebabe = Tally::default();
    let mut cafebabe_bytecode = Tally::default();
    let mut cafebabe_parsed = Vec::new();
    let mut cafebabe_bytecode_parsed = Vec::new();
    for (i, class) in classes.iter().enumerate() {
        let bytes = &class.bytes[..];
        let plain = attempt(|| cafebabe::parse_class_with_options(bytes, &no_bytecode()));
        if cafebabe.record(&class.location, plain).is_some() {
            cafebabe_parsed.push(i);
        }
        let full = attempt(|| cafebabe::parse_class(bytes));
        if cafebabe_bytecode.record(&class.location, full).is_some() {
            cafebabe_bytecode_parsed.push(i);
        }
    }
    notes.push(format!("cafebabe parse: {}", cafebabe.summary(n)));
    notes.push(format!(
        "cafebabe parse+bytecode: {}",
        cafebabe_bytecode.summary(n)
    ));
    notes.push("cafebabe does not write class files".to_owned());

    Ok(WarmUp {
        notes,
        ristretto_parsed,
        ristretto_written,
        cafebabe_parsed,
        cafebabe_bytecode_parsed,
    })
}

/// The outcome of one call into a crate.
enum Attempt<T> {
    Done(T),
    Failed(String),
    Panicked(String),
}

/// Calls `f`, turning its error or panic into a message.
fn attempt<T, E: Display>(f: impl FnOnce() -> Result<T, E>) -> Attempt<T> {
    match panic::catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(value)) => Attempt::Done(value),
        Ok(Err(e)) => Attempt::Failed(e.to_string()),
        Err(payload) => Attempt::Panicked(
            payload
                .downcast_ref::<&str>()
                .map(|s| (*s).to_owned())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "(no message)".to_owned()),
        ),
    }
}

/// Successes, errors and panics of one crate on one kind of work.
#[derive(Default)]
struct Tally {
    done: usize,
    failed: usize,
    panicked: usize,
    /// The first error and the first panic, with the class.
    examples: Vec<String>,
}

impl Tally {
    fn record<T>(&mut self, location: &str, attempt: Attempt<T>) -> Option<T> {
        match attempt {
            Attempt::Done(value) => {
                self.done += 1;
                return Some(value);
            }
            Attempt::Failed(e) => {
                self.failed += 1;
                if self.failed == 1 {
                    self.examples.push(format!("error at {location}: {e}"));
                }
            }
            Attempt::Panicked(e) => {
                self.panicked += 1;
                if self.panicked == 1 {
                    self.examples.push(format!("panic at {location}: {e}"));
                }
            }
        }
        None
    }

    fn summary(&self, of: usize) -> String {
        let mut text = format!(
            "{} of {of} ok, {} errors, {} panics",
            self.done, self.failed, self.panicked
        );
        for example in &self.examples {
            text.push_str("; first ");
            text.push_str(example);
        }
        text
    }
}

/// The work done on one class. It returns a number computed from its
/// result, which the timing loop adds up, so that no work is optimised away.
type Work = fn(&[u8]) -> usize;

const CHECKED: &str = "checked in the warm-up";

fn jp_parse(bytes: &[u8]) -> usize {
    let class = black_box(ClassFile::parse(bytes).expect(CHECKED));
    class.methods.len()
}

fn jp_lazy_write(bytes: &[u8]) -> usize {
    let class = ClassFile::parse(bytes).expect(CHECKED);
    black_box(ClassWriter::new(&class).to_bytes().expect(CHECKED)).len()
}

fn jp_deep_reencode(bytes: &[u8]) -> usize {
    let class = ClassFile::parse(bytes).expect(CHECKED);
    black_box(deep::reencode(&class).expect(CHECKED)).len()
}

fn ristretto_parse(bytes: &[u8]) -> usize {
    let class = black_box(ristretto_classfile::ClassFile::from_slice(bytes).expect(CHECKED));
    class.methods.len()
}

fn ristretto_write(bytes: &[u8]) -> usize {
    let class = ristretto_classfile::ClassFile::from_slice(bytes).expect(CHECKED);
    let mut out = Vec::with_capacity(bytes.len());
    class.to_bytes(&mut out).expect(CHECKED);
    black_box(out).len()
}

fn no_bytecode() -> cafebabe::ParseOptions {
    let mut options = cafebabe::ParseOptions::default();
    options.parse_bytecode(false);
    options
}

fn cafebabe_parse(bytes: &[u8]) -> usize {
    let class = black_box(cafebabe::parse_class_with_options(bytes, &no_bytecode()).expect(CHECKED));
    class.methods.len()
}

fn cafebabe_parse_bytecode(bytes: &[u8]) -> usize {
    let class = black_box(cafebabe::parse_class(bytes).expect(CHECKED));
    class.methods.len()
}

fn jp_stress_rewrite(bytes: &[u8]) -> usize {
    let rewritten = stress_class(bytes, StressOptions::default()).expect(CHECKED);
    black_box(rewritten.bytes.map_or(0, |b| b.len()))
}

fn jp_profile_rewrite(bytes: &[u8]) -> usize {
    let rewritten = profile_class(bytes, &ProfileOptions::default()).expect(CHECKED);
    black_box(rewritten.bytes.map_or(0, |b| b.len()))
}

/// One line of the table: a kind of work and the classes it runs on.
struct Row<'a> {
    name: &'static str,
    work: Work,
    indices: &'a [usize],
}

impl<'a> Row<'a> {
    fn new(name: &'static str, work: Work, indices: &'a [usize]) -> Self {
        Row { name, work, indices }
    }
}

/// Times passes of `work` over `classes` (`bytes` in all), at least
/// `min_iters` of them and for at least `min_time`.
fn measure(classes: &[&[u8]], bytes: usize, work: Work, parallel: bool, options: &Options) -> Speed {
    // Per pass: the wall time, and the whole process's CPU time (None where it cannot be read).
    let mut times: Vec<(Duration, Option<Duration>)> = Vec::new();
    let mut spent = Duration::ZERO;
    while times.len() < options.min_iters || spent < options.min_time {
        let cpu = ProcessTime::try_now().ok();
        let start = Instant::now();
        let sum: usize = if parallel {
            classes.par_iter().map(|bytes| work(bytes)).sum()
        } else {
            classes.iter().map(|bytes| work(bytes)).sum()
        };
        black_box(sum);
        let time = start.elapsed();
        times.push((time, cpu.and_then(|cpu| cpu.try_elapsed().ok())));
        spent += time;
    }
    times.sort_unstable_by_key(|&(wall, _)| wall);
    let speed = |time: Duration| mb(bytes) / time.as_secs_f64().max(f64::MIN_POSITIVE);
    Speed {
        best: speed(times[0].0),
        median: speed(times[times.len() / 2].0),
        cpu_best: times.iter().filter_map(|&(_, cpu)| cpu).min().map(speed),
    }
}

/// A cell's MB per CPU second, or `-` where the CPU time could not be read.
fn per_cpu_second(speed: Speed) -> String {
    speed
        .cpu_best
        .map_or_else(|| "-".to_owned(), |rate| format!("{rate:.1}"))
}

/// The MB/s of one cell: of the fastest pass, and of the median pass.
/// Other work on the machine slows some passes, so the best is the steadier
/// figure; a median far below it says the run was disturbed.
#[derive(Clone, Copy)]
struct Speed {
    best: f64,
    median: f64,
    /// Of the pass that took the least CPU time, over the whole process: the
    /// work's cost whatever else ran on the machine.
    cpu_best: Option<f64>,
}

fn mb(bytes: usize) -> f64 {
    bytes as f64 / 1e6
}

/// The one-minute load average, from `/proc/loadavg` where there is one.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|text| text.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The CPU's model name, from `/proc/cpuinfo` where there is one.
fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|info| {
            info.lines()
                .find_map(|line| line.strip_prefix("model name"))
                .and_then(|rest| rest.split_once(':'))
                .map(|(_, model)| model.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

/// The version of `package` that Cargo.lock pins.
fn locked_version(package: &str) -> &'static str {
    let header = format!("name = \"{package}\"\n");
    CARGO_LOCK
        .split("[[package]]")
        .find(|block| block.trim_start().starts_with(&header))
        .and_then(|block| block.lines().find_map(|l| l.strip_prefix("version = \"")))
        .and_then(|rest| rest.strip_suffix('"'))
        .unwrap_or("(version unknown)")
}
