//! The baseline file: the settings a run was recorded with and its exact
//! counts, one entry a line in a stable order, so that a change to it reads
//! well in a code review (docs/regression-testing.md, "The baseline file").
//!
//! ```text
//! jp-baseline 1
//! setting engine 0.1.0
//! setting bba precise
//! setting include com.acme.**
//! method-floor 1000
//! test 5230 12 com.acme.ParserTest#largeFile()
//! method 5230 10 com.acme.Parser.parse(Ljava/lang/String;)I
//! end 2
//! ```
//!
//! Entries hold bytecodes unless a `metric <name>` line before
//! `method-floor` names another exact metric (`metric allocations`): then
//! their first number is the value in that metric, and that is what a
//! check compares.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};

use jp_report::metric::MetricName;
use serde::Serialize;

/// What the first line says: `jp-baseline <version>`.
pub const MAGIC: &str = "jp-baseline";
/// The version of the format this crate writes and reads.
pub const FORMAT_VERSION: u32 = 1;

/// Whether an entry is a test (its whole subtree) or a method (its own
/// counts in every context). Tests come first in a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// A test context, named by its test id: the counts of its subtree.
    Test,
    /// A method, named by its frame: its own counts summed over its contexts.
    Method,
}

impl Kind {
    /// The record's keyword: `test` or `method`.
    pub fn keyword(self) -> &'static str {
        match self {
            Kind::Test => "test",
            Kind::Method => "method",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.keyword())
    }
}

/// The exact counts of an entry.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Counts {
    /// The value in the baseline's metric ([`Baseline::metric`], bytecodes
    /// unless it names another): what the gate compares.
    pub value: u64,
    /// Invocations: shown, not gated.
    pub calls: u64,
}

impl Counts {
    /// Adds `other`, saturating as the profiles' sums do.
    pub fn add(&mut self, other: Counts) {
        self.value = self.value.saturating_add(other.value);
        self.calls = self.calls.saturating_add(other.calls);
    }

    /// As JSON: `{"<metric>": value, "calls": calls}`.
    pub fn to_json(self, metric: &MetricName) -> serde_json::Value {
        let mut object = serde_json::Map::new();
        object.insert(metric.name().to_owned(), self.value.into());
        object.insert("calls".to_owned(), self.calls.into());
        object.into()
    }
}

/// What produced the counts; a baseline is only compared with profiles
/// made with the same settings. Written as `setting <key> <value>` lines in
/// this order, a pattern list one line per pattern.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Settings {
    /// The engine's version (counts may change with the instrumentation).
    pub engine: String,
    /// The block analysis of the profiled classes, from the profiles' `bba`
    /// meta record (`unknown` when they have none).
    pub bba: String,
    /// The classes instrumented, as the build configured them.
    pub includes: Vec<String>,
    /// The classes left out of the instrumentation.
    pub excludes: Vec<String>,
}

impl Settings {
    /// The `(key, value)` pairs of the settings that differ between `self`
    /// (a baseline's) and `now`, as `key: baseline value, now value`.
    pub fn differences(&self, now: &Settings) -> Vec<String> {
        let list = |patterns: &[String]| {
            if patterns.is_empty() {
                "none".to_owned()
            } else {
                patterns.join(" ")
            }
        };
        let mut differences = Vec::new();
        let mut compare = |key: &str, baseline: String, now: String| {
            if baseline != now {
                differences.push(format!("{key} is `{baseline}` in the baseline, `{now}` now"));
            }
        };
        compare("engine", self.engine.clone(), now.engine.clone());
        compare("bba", self.bba.clone(), now.bba.clone());
        compare("include", list(&self.includes), list(&now.includes));
        compare("exclude", list(&self.excludes), list(&now.excludes));
        differences
    }
}

/// A baseline: settings, the metric, the method floor, and the entries by
/// kind and name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    /// What produced the counts.
    pub settings: Settings,
    /// The metric the entries hold and a check compares: bytecodes, or an
    /// exact metric named in the file (`metric allocations`).
    pub metric: MetricName,
    /// Methods whose own value in the metric is below this were left out
    /// (their work still counts in the tests that ran them).
    pub method_floor: u64,
    /// The entries, ordered by kind (tests first), then by name (bytes).
    pub entries: BTreeMap<(Kind, String), Counts>,
}

impl Baseline {
    /// Writes the baseline in the file format; the same baseline always
    /// gives the same bytes.
    ///
    /// # Errors
    /// Those of `out`.
    pub fn write(&self, out: &mut dyn Write) -> io::Result<()> {
        writeln!(out, "{MAGIC} {FORMAT_VERSION}")?;
        let settings = &self.settings;
        writeln!(out, "setting engine {}", escape(&settings.engine))?;
        writeln!(out, "setting bba {}", escape(&settings.bba))?;
        for include in &settings.includes {
            writeln!(out, "setting include {}", escape(include))?;
        }
        for exclude in &settings.excludes {
            writeln!(out, "setting exclude {}", escape(exclude))?;
        }
        // A baseline of bytecodes has no `metric` line, as before there were others.
        if self.metric != MetricName::default() {
            writeln!(out, "metric {}", escape(self.metric.name()))?;
        }
        writeln!(out, "method-floor {}", self.method_floor)?;
        for ((kind, name), counts) in &self.entries {
            writeln!(out, "{kind} {} {} {}", counts.value, counts.calls, escape(name))?;
        }
        writeln!(out, "end {}", self.entries.len())
    }
}

/// A name as a baseline line holds it: `\` as `\\`, line breaks as `\n`
/// and `\r` (as the profile format writes frame names).
pub(crate) fn escape(name: &str) -> std::borrow::Cow<'_, str> {
    if !name.contains(['\\', '\n', '\r']) {
        return name.into();
    }
    name.replace('\\', "\\\\")
        .replace('\n', "\\n")
        .replace('\r', "\\r")
        .into()
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(crate) fn sample() -> Baseline {
        let mut entries = BTreeMap::new();
        for (kind, name, bytecodes, calls) in [
            (Kind::Method, "b.Z.z()V", 3000, 3),
            (Kind::Test, "b.ZTest#z()", 5000, 9),
            (Kind::Method, "a.A.weird\\name\nx()V", 1000, 1),
            (Kind::Test, "a.ATest#p(String) > [1] \"a b\"", 10, 1),
        ] {
            entries.insert(
                (kind, name.to_owned()),
                Counts {
                    value: bytecodes,
                    calls,
                },
            );
        }
        Baseline {
            settings: Settings {
                engine: "0.1.0".into(),
                bba: "precise".into(),
                includes: vec!["a.**".into(), "b.**".into()],
                excludes: vec!["a.gen.**".into()],
            },
            metric: MetricName::default(),
            method_floor: 1000,
            entries,
        }
    }

    fn written(baseline: &Baseline) -> String {
        let mut out = Vec::new();
        baseline.write(&mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_baseline_lists_settings_then_tests_then_methods_each_sorted_by_name() {
        assert_eq!(
            written(&sample()),
            "jp-baseline 1\n\
             setting engine 0.1.0\n\
             setting bba precise\n\
             setting include a.**\n\
             setting include b.**\n\
             setting exclude a.gen.**\n\
             method-floor 1000\n\
             test 10 1 a.ATest#p(String) > [1] \"a b\"\n\
             test 5000 9 b.ZTest#z()\n\
             method 1000 1 a.A.weird\\\\name\\nx()V\n\
             method 3000 3 b.Z.z()V\n\
             end 4\n"
        );
    }

    #[test]
    fn a_baseline_read_back_is_the_same_and_writes_the_same_bytes() {
        let text = written(&sample());
        let read = crate::parse(text.as_bytes(), "b.txt".as_ref()).unwrap();
        assert_eq!(read, sample());
        assert_eq!(written(&read), text);
    }

    #[test]
    fn settings_differences_name_each_setting_with_both_values() {
        let baseline = sample().settings;
        let now = Settings {
            bba: "default".into(),
            excludes: vec![],
            ..baseline.clone()
        };
        assert_eq!(
            baseline.differences(&now),
            [
                "bba is `precise` in the baseline, `default` now",
                "exclude is `a.gen.**` in the baseline, `none` now"
            ]
        );
        assert!(baseline.differences(&baseline).is_empty());
    }

    #[test]
    fn a_baseline_of_another_metric_names_it_and_reads_back() {
        let baseline = Baseline {
            metric: MetricName::parse("allocations:int[]"),
            ..sample()
        };
        let text = written(&baseline);
        assert!(
            text.contains("setting exclude a.gen.**\nmetric allocations:int[]\nmethod-floor 1000\n"),
            "{text}"
        );
        let read = crate::parse(text.as_bytes(), "b.txt".as_ref()).unwrap();
        assert_eq!(read, baseline);
        assert!(!written(&sample()).contains("metric"));
    }
}
