//! `jp.toml`: instrumentation settings shared by the CLI and the build
//! plugins, so that a project states them once.
//!
//! ```toml
//! [instrument]
//! bba = "precise"            # or "default"
//! metrics = ["allocations"]  # extra exact metrics; none by default
//! include = ["com.acme.**"]
//! exclude = ["**Test", "com.acme.generated.**"]
//!
//! [[probe]]                  # any number; see crate::probes
//! where = "monitorenter"
//! count = "locks"
//! ```
//! Settings given on the command line or in a build script win over the file;
//! probes come from the file alone.
//! Both front ends go through [`effective`]: the CLI with its flags, the
//! request API with a request's fields.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use jp_rewrite::blocks::Analysis;
use jp_rewrite::profile::ProfileOptions;

use crate::filter::{ClassFilter, ClassPattern};
use crate::probes::ProbeConfig;

/// The contents of a `jp.toml`.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    /// The `[instrument]` table.
    #[serde(default)]
    pub instrument: InstrumentConfig,
    /// The `[[probe]]` tables, checked when read.
    #[serde(default)]
    pub probe: Vec<ProbeConfig>,
}

/// The `[instrument]` table.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct InstrumentConfig {
    /// The basic-block analysis.
    pub bba: Option<BbaName>,
    /// Per-line counts (docs/profiling.md, "Per-line counts").
    pub lines: Option<bool>,
    /// Contexts split by call site (docs/profiling.md, "Call sites"), `call-sites` in the file.
    #[serde(rename = "call-sites")]
    pub call_sites: Option<bool>,
    /// Extra exact metrics (docs/profiling.md, "Allocations").
    pub metrics: Option<Vec<MetricName>>,
    /// Include patterns (see [`crate::filter`]), checked when read.
    #[serde(default)]
    pub include: Vec<ClassPattern>,
    /// Exclude patterns, checked when read.
    #[serde(default)]
    pub exclude: Vec<ClassPattern>,
}

/// A basic-block analysis as spelled in configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BbaName {
    /// [`Analysis::Default`].
    Default,
    /// [`Analysis::Precise`].
    Precise,
}

impl From<BbaName> for Analysis {
    fn from(name: BbaName) -> Analysis {
        match name {
            BbaName::Default => Analysis::Default,
            BbaName::Precise => Analysis::Precise,
        }
    }
}

/// An extra exact metric the instrumented classes count, as spelled in
/// configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MetricName {
    /// Allocations per context and type ([`ProfileOptions::allocations`]).
    Allocations,
}

/// Why a configuration file could not be used.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// It could not be read.
    #[error("{}", path.display())]
    Read {
        /// The file.
        path: PathBuf,
        /// The OS error.
        source: std::io::Error,
    },
    /// It is not valid TOML, or holds unknown keys or wrong types.
    #[error("{}", path.display())]
    Parse {
        /// The file.
        path: PathBuf,
        /// What is wrong, with its line and column.
        source: Box<toml::de::Error>,
    },
}

impl Config {
    /// Reads and checks a `jp.toml`.
    ///
    /// # Errors
    /// An unreadable file, invalid TOML, unknown keys or wrong types.
    pub fn load(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_owned(),
            source,
        })?;
        toml::from_str(&text).map_err(|source| ConfigError::Parse {
            path: path.to_owned(),
            source: Box::new(source),
        })
    }
}

impl Config {
    /// The profiling options and class filter that result from this file
    /// and the settings given with a request (a build script's, the command
    /// line's): a given `bba`, `lines`, `call_sites` or `metrics` wins over
    /// the file's, given patterns add to the file's, and the probes are the
    /// file's.
    pub fn resolve(
        &self,
        bba: Option<BbaName>,
        lines: Option<bool>,
        call_sites: Option<bool>,
        metrics: Option<&[MetricName]>,
        include: &[ClassPattern],
        exclude: &[ClassPattern],
    ) -> (ProfileOptions, ClassFilter) {
        let analysis = bba
            .or(self.instrument.bba)
            .map_or(Analysis::Default, Analysis::from);
        let patterns = |from_file: &[ClassPattern], given: &[ClassPattern]| {
            from_file.iter().chain(given).cloned().collect()
        };
        let filter = ClassFilter::new(
            patterns(&self.instrument.include, include),
            patterns(&self.instrument.exclude, exclude),
        );
        let lines = lines.or(self.instrument.lines).unwrap_or(false);
        let call_sites = call_sites.or(self.instrument.call_sites).unwrap_or(false);
        let metrics = metrics.or(self.instrument.metrics.as_deref()).unwrap_or_default();
        let allocations = metrics.contains(&MetricName::Allocations);
        // Native methods only through the class rewriter, under the load-time
        // agent: neither a `jp.toml` nor a build may turn them on.
        let natives = false;
        (
            ProfileOptions {
                analysis,
                lines,
                natives,
                call_sites,
                allocations,
                probes: self.probe.iter().map(|probe| probe.0.clone()).collect(),
            },
            filter,
        )
    }
}

/// The profiling options and class filter of a run: the configuration file
/// (when there is one) resolved with the settings given on the command line
/// or in a request, as [`Config::resolve`] does.
///
/// # Errors
/// The file's: unreadable, invalid TOML, unknown keys or wrong types, each
/// naming the file.
pub fn effective(
    file: Option<&Path>,
    bba: Option<BbaName>,
    lines: Option<bool>,
    call_sites: Option<bool>,
    metrics: Option<&[MetricName]>,
    include: &[ClassPattern],
    exclude: &[ClassPattern],
) -> Result<(ProfileOptions, ClassFilter), ConfigError> {
    let config = match file {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    Ok(config.resolve(bba, lines, call_sites, metrics, include, exclude))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(text: &str) -> ClassPattern {
        text.parse().unwrap()
    }

    #[test]
    fn a_full_file_parses() {
        let config: Config =
            toml::from_str("[instrument]\nbba = \"precise\"\ninclude = [\"a.**\"]\nexclude = [\"**Test\"]\n")
                .unwrap();
        assert_eq!(config.instrument.bba, Some(BbaName::Precise));
        assert_eq!(config.instrument.include, [pattern("a.**")]);
        assert_eq!(config.instrument.exclude, [pattern("**Test")]);
    }

    #[test]
    fn an_empty_file_means_defaults() {
        assert_eq!(toml::from_str::<Config>("").unwrap(), Config::default());
    }

    #[test]
    fn unknown_keys_and_values_are_refused_with_their_position() {
        let error = toml::from_str::<Config>("[instrument]\nbbq = \"precise\"\n").unwrap_err();
        assert!(error.to_string().contains("bbq"), "{error}");
        let error = toml::from_str::<Config>("[instrument]\nbba = \"exact\"\n").unwrap_err();
        assert!(error.to_string().contains("line 2"), "{error}");
    }

    #[test]
    fn given_settings_win_over_the_file_and_add_to_its_patterns() {
        let config: Config =
            toml::from_str("[instrument]\nbba = \"precise\"\ninclude = [\"a.**\"]\n").unwrap();
        let (options, filter) = config.resolve(None, None, None, None, &[pattern("b.**")], &[]);
        assert_eq!(options.analysis, Analysis::Precise);
        assert_eq!(filter.include, [pattern("a.**"), pattern("b.**")]);
        let (options, _) = config.resolve(Some(BbaName::Default), None, None, None, &[], &[]);
        assert_eq!(options.analysis, Analysis::Default);
        let (options, filter) = Config::default().resolve(None, None, None, None, &[], &[pattern("**Test")]);
        assert_eq!(options.analysis, Analysis::Default);
        assert!(!filter.accepts("a.MainTest"));
    }

    #[test]
    fn metrics_come_from_the_file_unless_given_and_are_none_by_default() {
        let config: Config = toml::from_str("[instrument]\nmetrics = [\"allocations\"]\n").unwrap();
        assert!(config.resolve(None, None, None, None, &[], &[]).0.allocations);
        assert!(
            !config
                .resolve(None, None, None, Some(&[]), &[], &[])
                .0
                .allocations
        );
        let given = [MetricName::Allocations];
        assert!(
            Config::default()
                .resolve(None, None, None, Some(&given), &[], &[])
                .0
                .allocations
        );
        assert!(
            !Config::default()
                .resolve(None, None, None, None, &[], &[])
                .0
                .allocations
        );
        let error = toml::from_str::<Config>("[instrument]\nmetrics = [\"heap\"]\n").unwrap_err();
        assert!(error.to_string().contains("allocations"), "{error}");
    }

    #[test]
    fn call_sites_come_from_the_file_unless_given_and_are_off_by_default() {
        let config: Config = toml::from_str("[instrument]\ncall-sites = true\n").unwrap();
        assert!(config.resolve(None, None, None, None, &[], &[]).0.call_sites);
        assert!(
            !config
                .resolve(None, None, Some(false), None, &[], &[])
                .0
                .call_sites
        );
        assert!(
            Config::default()
                .resolve(None, None, Some(true), None, &[], &[])
                .0
                .call_sites
        );
        assert!(
            !Config::default()
                .resolve(None, None, None, None, &[], &[])
                .0
                .call_sites
        );
    }

    #[test]
    fn lines_come_from_the_file_unless_given_and_are_off_by_default() {
        let config: Config = toml::from_str("[instrument]\nlines = true\n").unwrap();
        assert!(config.resolve(None, None, None, None, &[], &[]).0.lines);
        assert!(!config.resolve(None, Some(false), None, None, &[], &[]).0.lines);
        assert!(
            Config::default()
                .resolve(None, Some(true), None, None, &[], &[])
                .0
                .lines
        );
        assert!(
            !Config::default()
                .resolve(None, None, None, None, &[], &[])
                .0
                .lines
        );
    }

    #[test]
    fn a_bad_pattern_is_refused_with_its_position_and_why() {
        let error =
            toml::from_str::<Config>("[instrument]\ninclude = [\"a.**\", \"com/acme/**\"]\n").unwrap_err();
        let message = error.to_string();
        assert!(message.contains("line 2"), "{message}");
        assert!(message.contains("pattern `com/acme/**` uses `/`"), "{message}");
    }

    #[test]
    fn without_a_file_the_given_settings_alone_decide() {
        let (options, filter) = effective(
            None,
            Some(BbaName::Precise),
            None,
            None,
            None,
            &[pattern("a.**")],
            &[],
        )
        .unwrap();
        assert_eq!(options.analysis, Analysis::Precise);
        assert_eq!(filter.include, [pattern("a.**")]);
        assert!(filter.exclude.is_empty());
        let (options, filter) = effective(None, None, None, None, None, &[], &[]).unwrap();
        assert_eq!(options.analysis, Analysis::Default);
        assert!(filter.accepts("any.Class"));
    }

    #[test]
    fn a_file_is_read_and_resolved_with_the_given_settings() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("jp.toml");
        std::fs::write(&file, "[instrument]\nbba = \"precise\"\nexclude = [\"**Test\"]\n").unwrap();
        let (options, filter) =
            effective(Some(&file), None, None, None, None, &[], &[pattern("gen.**")]).unwrap();
        assert_eq!(options.analysis, Analysis::Precise);
        assert_eq!(filter.exclude, [pattern("**Test"), pattern("gen.**")]);
        let (options, _) =
            effective(Some(&file), Some(BbaName::Default), None, None, None, &[], &[]).unwrap();
        assert_eq!(options.analysis, Analysis::Default);
    }

    #[test]
    fn a_bad_file_is_an_error_naming_it() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("jp.toml");
        std::fs::write(&file, "[instrument]\nbba = \"exact\"\n").unwrap();
        let error = effective(Some(&file), None, None, None, None, &[], &[]).unwrap_err();
        assert!(matches!(error, ConfigError::Parse { .. }));
        assert_eq!(error.to_string(), file.display().to_string());
        let missing = dir.path().join("missing.toml");
        let error =
            effective(Some(&missing), Some(BbaName::Precise), None, None, None, &[], &[]).unwrap_err();
        assert!(matches!(error, ConfigError::Read { .. }));
        assert_eq!(error.to_string(), missing.display().to_string());
    }

    #[test]
    fn probes_come_from_the_file() {
        let config: Config =
            toml::from_str("[[probe]]\nwhere = \"monitorenter\"\ncount = \"locks\"\n").unwrap();
        let (options, _) = config.resolve(None, None, None, Some(&[]), &[], &[]);
        let probes: Vec<String> = options.probes.iter().map(ToString::to_string).collect();
        assert_eq!(probes, ["monitorenter -> count locks"]);
        assert!(Config::default()
            .resolve(None, None, None, None, &[], &[])
            .0
            .probes
            .is_empty());
    }

    #[test]
    fn a_malformed_probe_is_an_error_naming_the_file_the_line_and_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("jp.toml");
        std::fs::write(
            &file,
            "[instrument]\nbba = \"precise\"\n\n[[probe]]\ncall = \"java/sql/Statement.execute\"\ncount = \"sql\"\n",
        )
        .unwrap();
        let error = effective(Some(&file), None, None, None, None, &[], &[]).unwrap_err();
        assert_eq!(error.to_string(), file.display().to_string());
        let cause = std::error::Error::source(&error).unwrap().to_string();
        assert!(cause.contains("line 5"), "{cause}");
        assert!(
            cause.contains("bad call pattern `java/sql/Statement.execute`"),
            "{cause}"
        );
    }

    #[test]
    fn a_missing_file_names_the_file() {
        let error = Config::load(Path::new("/nonexistent/jp.toml")).unwrap_err();
        assert_eq!(error.to_string(), "/nonexistent/jp.toml");
        assert!(std::error::Error::source(&error).is_some());
    }
}
