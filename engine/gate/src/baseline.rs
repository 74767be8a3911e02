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

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, Write};

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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Bytecodes executed: what the gate compares.
    pub bytecodes: u64,
    /// Invocations: shown, not gated.
    pub calls: u64,
}

impl Counts {
    /// Adds `other`, saturating as the profiles' sums do.
    pub fn add(&mut self, other: Counts) {
        self.bytecodes = self.bytecodes.saturating_add(other.bytecodes);
        self.calls = self.calls.saturating_add(other.calls);
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

/// A baseline: settings, the method floor, and the entries by kind and name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Baseline {
    /// What produced the counts.
    pub settings: Settings,
    /// Methods whose own bytecodes are below this were left out (their
    /// work still counts in the tests that ran them).
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
        writeln!(out, "method-floor {}", self.method_floor)?;
        for ((kind, name), counts) in &self.entries {
            writeln!(
                out,
                "{kind} {} {} {}",
                counts.bytecodes,
                counts.calls,
                escape(name)
            )?;
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
