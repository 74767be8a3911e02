//! JP's regression gate. A *baseline* records the exact counts of a run:
//! each test's subtree and each method's own counts, with the settings that
//! produced them ([`baseline`]), in bytecodes or another exact metric
//! ([`Baseline::metric`]); a *check* compares the profiles of a later
//! run with it and fails on growth beyond a tolerance ([`compare`]), and
//! says so for people, tools and pull requests ([`summary`]). Reading
//! profiles is `jp-report`'s; this crate only measures and compares.
//!
//! ```
//! use jp_gate::{compare, measure, Baseline, Tolerances};
//! use jp_profile::{Metric, Profile};
//! let mut before = Profile::new();
//! before.add_path(&["[test] demo.AppTest#work()", "demo.App.work()V"], 1, 1000);
//! let entries = measure(&before, Metric::Bytecodes);
//! let baseline = Baseline { method_floor: 0, entries, ..Baseline::default() };
//! let mut after = Profile::new();
//! after.add_path(&["[test] demo.AppTest#work()", "demo.App.work()V"], 1, 1200);
//! let comparison = compare(&baseline, &measure(&after, Metric::Bytecodes), &Tolerances::default());
//! assert!(!comparison.passed());
//! assert_eq!(comparison.regressions[0].name, "demo.AppTest#work()");
//! assert_eq!(comparison.regressions[0].delta(), 200);
//! ```
#![deny(missing_docs)]

pub mod baseline;
pub mod compare;
mod error;
mod measure;
mod parse;
pub mod pattern;
pub mod summary;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

pub use baseline::{Baseline, Counts, Kind, Settings};
pub use compare::{compare, Comparison, Tolerances, DEFAULT_TOLERANCE};
pub use error::GateError;
use jp_report::diff::{DiffFormat, DiffOptions};
use jp_report::metric::{MetricError, MetricName};
use jp_report::run::{read_all, ReportWarning};
pub use measure::measure;
pub use parse::{parse, read};

/// Methods below this many own bytecodes (or own value in the baseline's
/// metric) are left out of a baseline by default: their work still counts
/// in every test that ran them, and a suite's many small methods would
/// otherwise make most of the file.
pub const DEFAULT_METHOD_FLOOR: u64 = 1000;

/// The instrumentation settings a run's build used, which its profiles do
/// not record; the build plugins know them, `jp` takes them as flags.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Instrumented {
    /// The include patterns, as configured.
    pub includes: Vec<String>,
    /// The exclude patterns, as configured.
    pub excludes: Vec<String>,
}

/// The settings of profiles instrumented as `instrumented`, with their
/// block analysis and this engine's version.
fn settings(profile: &jp_profile::Profile, instrumented: &Instrumented) -> Settings {
    Settings {
        engine: env!("CARGO_PKG_VERSION").to_owned(),
        bba: measure::bba(profile),
        includes: instrumented.includes.clone(),
        excludes: instrumented.excludes.clone(),
    }
}

/// The baseline of `profiles` (merged) in `metric`, keeping methods of at
/// least `method_floor` own value in it, and the warnings of reading them.
///
/// # Errors
/// [`GateError::Profiles`] when a profile cannot be read (each is named),
/// [`GateError::Metric`] when they have no such metric or it is sampled.
pub fn record(
    profiles: &[PathBuf],
    instrumented: &Instrumented,
    method_floor: u64,
    metric: &MetricName,
) -> Result<(Baseline, Vec<ReportWarning>), GateError> {
    let merged = read_all(profiles)?;
    let mut entries = measure(&merged.profile, gated(&merged.profile, metric)?);
    entries.retain(|(kind, _), counts| *kind == Kind::Test || counts.value >= method_floor);
    let baseline = Baseline {
        settings: settings(&merged.profile, instrumented),
        metric: metric.clone(),
        method_floor,
        entries,
    };
    Ok((baseline, merged.warnings))
}

/// The metric `name` names in `profile`, which a baseline can hold: an
/// exact one (sampled values change from run to run, so no tolerance
/// could gate them).
fn gated(profile: &jp_profile::Profile, name: &MetricName) -> Result<jp_profile::Metric, MetricError> {
    jp_report::metric::exact(profile, jp_report::metric::resolve(name, profile)?)
}

/// Writes `baseline` to `path` atomically: the whole file or, on an error,
/// the old one untouched.
///
/// # Errors
/// [`GateError::Write`], naming the file.
pub fn write_baseline(baseline: &Baseline, path: &Path) -> Result<(), GateError> {
    jp_atomic_file::write_atomically(path, |out| baseline.write(out)).map_err(|source| GateError::Write {
        path: path.to_owned(),
        source,
    })
}

/// A check made: what it compared and what it found.
#[derive(Debug, Clone)]
pub struct Check {
    /// The baseline file.
    pub baseline_path: PathBuf,
    /// The profiles of now.
    pub profiles: Vec<PathBuf>,
    /// Their settings (the baseline's, since only equal ones are compared).
    pub settings: Settings,
    /// The metric compared: the baseline's.
    pub metric: MetricName,
    /// The baseline's method floor, which an update keeps.
    pub method_floor: u64,
    /// What the comparison found.
    pub comparison: Comparison,
    /// The HTML diff of the baseline's run against this one, when the
    /// check was given the baseline's profiles and wrote it.
    pub diff_report: Option<PathBuf>,
}

impl Check {
    /// The `jp baseline` command that records these profiles' counts in the
    /// same file with the same settings.
    pub fn update_command(&self) -> String {
        let mut command = format!(
            "jp baseline {} --out {}",
            self.profile_args(),
            quote(&self.baseline_path.to_string_lossy())
        );
        if self.metric != MetricName::default() {
            command += &format!(" --metric {}", quote(self.metric.name()));
        }
        if self.method_floor != DEFAULT_METHOD_FLOOR {
            command += &format!(" --include-methods-above {}", self.method_floor);
        }
        for include in &self.settings.includes {
            command += &format!(" --include {}", quote(include));
        }
        for exclude in &self.settings.excludes {
            command += &format!(" --exclude {}", quote(exclude));
        }
        command
    }

    /// Whether the baseline no longer describes the run: an entry changed
    /// beyond its tolerance, or appeared, or went away.
    pub fn baseline_outdated(&self) -> bool {
        let c = &self.comparison;
        [&c.regressions, &c.improvements, &c.new, &c.missing]
            .iter()
            .any(|list| !list.is_empty())
    }

    /// The `jp diff` command that shows where counts changed, given the
    /// profiles the baseline was recorded from (which it does not hold).
    pub fn diff_command(&self) -> String {
        format!(
            "jp diff <profiles of the baseline's run>... --against {} --format html --out jp-diff.html",
            self.profile_args()
        )
    }

    fn profile_args(&self) -> String {
        let args: Vec<String> = self
            .profiles
            .iter()
            .map(|p| quote(&p.to_string_lossy()))
            .collect();
        args.join(" ")
    }
}

/// `text` as one shell word.
fn quote(text: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "-_./=:,@+%".contains(c);
    if !text.is_empty() && text.chars().all(plain) {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', r"'\''"))
    }
}

/// A diff report for a check to write: the profiles the baseline was
/// recorded from against the run's, as `jp diff --format html` writes it.
#[derive(Debug, Clone)]
pub struct DiffReport {
    /// The profiles of the baseline's run, merged.
    pub base: Vec<PathBuf>,
    /// The page to write, atomically.
    pub out: PathBuf,
    /// The most bytes the page may take (`None`: no limit).
    pub max_output_size: Option<u64>,
}

/// Compares `profiles` (merged) with the baseline at `baseline_path`, and
/// writes `diff` when given. Every input is read before anything is
/// written.
///
/// # Errors
/// [`GateError::MissingBaseline`], [`GateError::ReadBaseline`] and
/// [`GateError::Malformed`] for the baseline, [`GateError::Profiles`] for
/// the profiles (the run's and the diff's base), [`GateError::OtherSettings`]
/// when the baseline was recorded with other settings than the profiles',
/// [`GateError::Metric`] when the profiles lack the baseline's metric, and
/// [`GateError::DiffReport`] when the diff cannot be written.
pub fn check(
    profiles: &[PathBuf],
    instrumented: &Instrumented,
    baseline_path: &Path,
    tolerances: &Tolerances,
    diff: Option<&DiffReport>,
) -> Result<(Check, Vec<ReportWarning>), GateError> {
    let baseline = read(baseline_path)?;
    let merged = read_all(profiles)?;
    let mut warnings = merged.warnings;
    let diff_base = match diff {
        Some(diff) => {
            let base = read_all(&diff.base)?;
            warnings.extend(base.warnings);
            Some(base.profile)
        }
        None => None,
    };
    let settings = settings(&merged.profile, instrumented);
    let differences = baseline.settings.differences(&settings);
    if !differences.is_empty() {
        return Err(GateError::OtherSettings {
            path: baseline_path.to_owned(),
            differences,
        });
    }
    let metric = gated(&merged.profile, &baseline.metric)?;
    let now: BTreeMap<(Kind, String), Counts> = measure(&merged.profile, metric);
    let comparison = compare(&baseline, &now, tolerances);
    if let (Some(diff), Some(base)) = (diff, &diff_base) {
        let (metric, metric_name) = baseline.metric.clone().into_options();
        let options = DiffOptions {
            max_output_size: diff.max_output_size,
            metric_name,
            ..DiffOptions::new(metric)
        };
        let (page, options, lacking) = jp_report::diff::join(base, &merged.profile, &options)?;
        warnings.extend(lacking);
        jp_report::diff::write_file(&page, DiffFormat::Html, &options, &diff.out)
            .map_err(GateError::DiffReport)?;
    }
    let check = Check {
        baseline_path: baseline_path.to_owned(),
        profiles: profiles.to_vec(),
        settings,
        metric: baseline.metric.clone(),
        method_floor: baseline.method_floor,
        comparison,
        diff_report: diff.map(|diff| diff.out.clone()),
    };
    Ok((check, warnings))
}

/// Keeps a copy of `profiles` in the directory `dir`, for later checks to
/// diff against: the copies are made in a new directory beside it, which
/// then takes its place, so that `dir` holds the profiles of one run only.
/// Each copy is named `<n>-<file name>`, `n` its place in `profiles`, as
/// two runs' profiles may share names.
///
/// # Errors
/// [`GateError::KeepProfiles`], naming the file or directory.
pub fn keep_profiles(profiles: &[PathBuf], dir: &Path) -> Result<(), GateError> {
    let failed = |path: &Path| {
        let path = path.to_owned();
        move |source| GateError::KeepProfiles { path, source }
    };
    let parent = match dir.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    std::fs::create_dir_all(parent).map_err(failed(parent))?;
    let fresh = tempfile::Builder::new()
        .prefix(".jp-new-")
        .tempdir_in(parent)
        .map_err(failed(parent))?;
    for (i, profile) in profiles.iter().enumerate() {
        let name = profile
            .file_name()
            .unwrap_or(profile.as_os_str())
            .to_string_lossy();
        std::fs::copy(profile, fresh.path().join(format!("{i:04}-{name}"))).map_err(failed(profile))?;
    }
    // A directory cannot be renamed over a non-empty one: the old copy
    // moves aside into a directory that is removed when dropped.
    let trash = tempfile::Builder::new()
        .prefix(".jp-old-")
        .tempdir_in(parent)
        .map_err(failed(parent))?;
    let old = trash.path().join("profiles");
    match std::fs::rename(dir, &old) {
        Err(error) if error.kind() != std::io::ErrorKind::NotFound => return Err(failed(dir)(error)),
        _ => {}
    }
    if let Err(error) = std::fs::rename(fresh.path(), dir) {
        // The old copy goes back rather than being lost with the trash.
        let _ = std::fs::rename(&old, dir);
        return Err(failed(dir)(error));
    }
    // Renamed away: nothing is left for the guard to remove.
    let _ = fresh.keep();
    Ok(())
}
