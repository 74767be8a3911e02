//! JP's reports: a merged [`Profile`](jp_profile::Profile) shown as collapsed stacks
//! ([`folded`]), as a text tree in the spirit of ProfBuilder's ProfOut
//! ([`text`]), as one self-contained interactive HTML page ([`html`]), as
//! a speedscope file ([`speedscope`]) and as a pprof file ([`pprof`]); the
//! snapshots of the periodic agent as a timeline ([`timeline`]).
//!
//! Every format reads the same derived facts, computed once here: the
//! subtree totals of each context ([`Totals`]), the methods aggregated over
//! their contexts ([`hot_methods`]), the tests of a test run and their
//! totals ([`tests_view::test_totals`]), the thread groups' totals
//! ([`threads::thread_totals`]), which contexts a `--threshold` or
//! `--max-depth` keeps ([`Visible`]), and the order in which siblings are
//! listed ([`order`]). The line-oriented formats name frames as Java signatures
//! ([`names`]), and every format stops at a size limit ([`limit`]).
//!
//! ```
//! use jp_profile::{Metric, Profile};
//! use jp_report::Options;
//! let mut profile = Profile::new();
//! profile.add_path(&["demo.Main.main([Ljava/lang/String;)V"], 1, 12);
//! profile.add_path(&["demo.Main.main([Ljava/lang/String;)V", "demo.Main.work(I)J"], 10, 500);
//! let mut out = Vec::new();
//! jp_report::folded::write(&profile, &Options::new(Metric::Bytecodes), &mut out)?;
//! assert_eq!(
//!     String::from_utf8(out)?,
//!     "demo.Main.main(java.lang.String[]):void 12\n\
//!      demo.Main.main(java.lang.String[]):void;demo.Main.work(int):long 500\n"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod diff;
pub mod folded;
mod hot;
pub mod html;
mod json_out;
pub mod limit;
pub mod lines;
pub mod metric;
pub mod names;
pub mod order;
pub mod pprof;
mod read;
pub mod run;
pub mod sampled;
pub mod sources;
pub mod speedscope;
pub mod tests_view;
pub mod text;
pub mod threads;
pub mod timeline;
pub mod title;
mod totals;
mod visible;

pub use diff::DiffFormat;
pub use hot::{hot_methods, HotMethod};
pub use limit::{OutputTooLarge, DEFAULT_MAX_OUTPUT_SIZE};
pub use names::NameStyle;
pub use run::{Format, ReportError};
pub use totals::Totals;
pub use visible::Visible;

use jp_profile::Metric;
#[cfg(test)]
use jp_profile::Profile;

/// What a report shows, from `jp report`'s flags.
#[derive(Debug, Clone, PartialEq)]
pub struct Options {
    /// The count that single-metric formats show, and that `threshold` compares.
    pub metric: Metric,
    /// Leave out contexts whose subtree total in `metric` is below this
    /// percentage of the whole profile's total (0 keeps everything).
    pub threshold: f64,
    /// Leave out contexts deeper than this (a top-level context is at depth 1).
    pub max_depth: Option<u32>,
    /// The most bytes a report may take (`None`: no limit); a larger one
    /// is refused, see [`limit`].
    pub max_output_size: Option<u64>,
    /// How the text and HTML reports name methods (the exports keep the full form).
    pub names: NameStyle,
    /// The report's title (text and HTML); `None`: one derived from the
    /// profiles ([`title::default_title`]).
    pub title: Option<String>,
    /// Directories of source files (`jp report --sources`): the HTML
    /// report shows the hot methods' lines in their source ([`sources`]).
    pub sources: Vec<std::path::PathBuf>,
    /// Report this thread group alone (`jp report --thread NAME`,
    /// [`threads::shown`]); `None`: every thread, merged.
    pub thread: Option<String>,
    /// Recordings of sampled stacks to attach to the profiles' contexts
    /// (`jp report --samples`, [`sampled`]): JFR recordings (`.jfr`) or
    /// async-profiler's collapsed stacks.
    pub samples: Vec<std::path::PathBuf>,
    /// A metric named on the command line (`--metric cpu-samples`): once
    /// the profiles are read and the samples attached, [`sampled::with_samples`]
    /// makes it `metric`. `None`: `metric` as it is.
    pub metric_name: Option<String>,
}

impl Options {
    /// Everything, in `metric`, up to [`DEFAULT_MAX_OUTPUT_SIZE`] bytes.
    pub fn new(metric: Metric) -> Options {
        Options {
            metric,
            threshold: 0.0,
            max_depth: None,
            max_output_size: Some(DEFAULT_MAX_OUTPUT_SIZE),
            names: NameStyle::Short,
            title: None,
            sources: Vec::new(),
            thread: None,
            samples: Vec::new(),
            metric_name: None,
        }
    }
}

/// A profile from `(path, calls, bytecodes)` triples, for tests.
#[cfg(test)]
pub(crate) fn profile(paths: &[(&[&str], u64, u64)]) -> Profile {
    let mut profile = Profile::new();
    for &(path, calls, bytecodes) in paths {
        profile.add_path(path, calls, bytecodes);
    }
    profile.files = 1;
    profile
}

/// A profile of two thread groups, `main` (1 thread: `main` 1 call and 42
/// bytecodes, `main;work` 10 and 5,230) and `pool-#-thread-#` (4 threads:
/// `work` 40 and 20,920), for tests.
#[cfg(test)]
pub(crate) fn grouped_profile() -> Profile {
    let text = "jp-profile 3\nmeta threads 5\n\
        frame 1 demo.Main.main()V\nframe 2 demo.Main.work(I)J\n\
        thread 1 main\nnode 1 0 1 1 42\nnode 2 1 2 10 5230\n\
        thread 4 pool-#-thread-#\nnode 3 0 2 40 20920\nend 3\n";
    jp_profile::parse(text.as_bytes(), "grouped.jpprof".as_ref()).unwrap()
}

/// A profile in which `--threshold 6` (in bytecodes, the options given
/// with it) keeps `main`, `main;big` and `main;big;deep` and leaves out
/// `main;small` and `main;small;tiny`, for tests.
#[cfg(test)]
pub(crate) fn threshold_case() -> (Profile, Options) {
    let profile = profile(&[
        (&["main"], 1, 10),
        (&["main", "big"], 1, 80),
        (&["main", "big", "deep"], 1, 7),
        (&["main", "small"], 1, 4),
        (&["main", "small", "tiny"], 1, 1),
    ]);
    let options = Options {
        threshold: 6.0,
        ..Options::new(Metric::Bytecodes)
    };
    (profile, options)
}

/// A profile with an extra, sampled metric, for tests: `main` (1 call, 10
/// bytecodes, 2 samples) calls `spin` (5 calls, 900 bytecodes, 60 samples)
/// and `nap` (1 call, 4 bytecodes), under which `Thread.sleep` is sampled
/// only (8 samples).
#[cfg(test)]
pub(crate) fn sampled_profile() -> (Profile, Metric) {
    let text =
        "jp-profile 4\nframe 1 demo.Main.main()V\nframe 2 demo.Main.spin(J)J\nframe 3 demo.Main.nap()V\n\
        frame 4 java.lang.Thread.sleep(J)V\nmetric 1 cpu-samples sampled samples\n\
        node 1 0 1 1 10\nnode 2 1 2 5 900\nnode 3 1 3 1 4\nnode 4 3 4 0 0\n\
        value 1 1 2\nvalue 2 1 60\nvalue 4 1 8\nend 4\n";
    let profile = jp_profile::parse(text.as_bytes(), "sampled.jpprof".as_ref()).unwrap();
    let metric = profile.metric("cpu-samples").unwrap();
    (profile, metric)
}

/// Writes [`profile`]`(paths)` as the file `name` in `dir`, for tests.
#[cfg(test)]
pub(crate) fn write_profile(
    dir: &std::path::Path,
    name: &str,
    paths: &[(&[&str], u64, u64)],
) -> std::path::PathBuf {
    let path = dir.join(name);
    let mut bytes = Vec::new();
    jp_profile::write(&profile(paths), &mut bytes).unwrap();
    std::fs::write(&path, bytes).unwrap();
    path
}

/// A profile of a test run, for tests: three tests, one of them
/// parameterized with two invocations, a class-level context, and a
/// thread that is no test.
#[cfg(test)]
pub(crate) fn profile_with_tests() -> Profile {
    profile(&[
        (&["[test] demo.ParserTest", "demo.Parser.<clinit>()V"], 1, 30),
        (
            &["[test] demo.ParserTest#large()", "demo.Parser.parse(I)I"],
            2,
            900,
        ),
        (
            &[
                "[test] demo.ParserTest#large()",
                "demo.Parser.parse(I)I",
                "demo.Lexer.next()I",
            ],
            50,
            400,
        ),
        (
            &["[test] demo.ParserTest#small()", "demo.Parser.parse(I)I"],
            1,
            40,
        ),
        (&["[test] demo.ParserTest#small()", "demo.Lexer.next()I"], 70, 60),
        (
            &[
                "[test] demo.ParserTest#parses(String) > [1] \"a;b\"",
                "demo.Parser.parse(I)I",
            ],
            1,
            100,
        ),
        (
            &[
                "[test] demo.ParserTest#parses(String) > [2] \"c\"",
                "demo.Parser.parse(I)I",
            ],
            1,
            100,
        ),
        (&["demo.Worker.run()V", "[test] demo.NotATest#x()"], 1, 7),
    ])
}
