//! Which classes to instrument: include and exclude patterns over binary
//! class names (`com.acme.Main$Inner`).
//!
//! A pattern is a class name in which `*` stands for any part of one
//! package segment or class name (no `.`), `**` for anything (dots too)
//! and `?` for one character other than `.`. A pattern also matches the
//! nested classes of what it names: `com.acme.Main` matches
//! `com.acme.Main$Inner`. Examples: `com.acme.*` (the package's classes),
//! `com.acme.**` (the package and its subpackages), `**Test`.
//!
//! Some classes are left uninstrumented by default ([`LEFT_BY_DEFAULT`]):
//! those that start or attach to other JVMs, where instrumented classes run
//! without JP's runtime. An include pattern that names them wins.

use std::fmt;
use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use serde::{Deserialize, Serialize};

/// A checked include or exclude pattern. In configuration (`jp.toml`, a
/// request's JSON) it is a string, checked when it is read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct ClassPattern {
    text: String,
}

/// A pattern that could match no class, or not the classes it seems to name.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("pattern `{pattern}` {problem}")]
pub struct PatternError {
    /// The pattern as given.
    pub pattern: String,
    /// What is wrong with it.
    pub problem: PatternProblem,
}

/// What is wrong with a pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PatternProblem {
    /// Nothing to match.
    #[error("is empty")]
    Empty,
    /// A path (`com/acme/**`) instead of a class name.
    #[error("uses `/`: patterns name classes with dots, as in `com.acme.**`")]
    Slash,
    /// A character that no binary class name holds (JVMS §4.2.1).
    #[error("holds `{0}`, which no class name holds")]
    Character(char),
    /// `..`, or a dot at the start or the end.
    #[error("has an empty package segment (`..`, or a dot at its start or end)")]
    EmptySegment,
    /// More than two stars in a row.
    #[error("has `***`: `**` stands for anything, `*` for a part of one segment")]
    ThreeStars,
}

impl ClassPattern {
    /// Checks and compiles a pattern.
    ///
    /// # Errors
    /// An empty pattern, a `/`, a character that no class name holds
    /// (`;`, `[`, white space), an empty segment, or `***`.
    pub fn new(text: &str) -> Result<ClassPattern, PatternError> {
        let problem = if text.is_empty() {
            Some(PatternProblem::Empty)
        } else if text.contains('/') {
            Some(PatternProblem::Slash)
        } else if let Some(c) = text.chars().find(|&c| c == ';' || c == '[' || c.is_whitespace()) {
            Some(PatternProblem::Character(c))
        } else if text.split('.').any(str::is_empty) {
            Some(PatternProblem::EmptySegment)
        } else if text.contains("***") {
            Some(PatternProblem::ThreeStars)
        } else {
            None
        };
        match problem {
            Some(problem) => Err(PatternError {
                pattern: text.to_owned(),
                problem,
            }),
            None => Ok(ClassPattern {
                text: text.to_owned(),
            }),
        }
    }

    /// Whether `class` (a binary name) or the class it is nested in matches.
    pub fn matches(&self, class: &str) -> bool {
        matches_text(&self.text, class)
    }
}

/// Whether `class` or the class it is nested in matches the (checked)
/// pattern `pattern`.
fn matches_text(pattern: &str, class: &str) -> bool {
    let pattern = pattern.as_bytes();
    let name = class.as_bytes();
    if glob(pattern, name) {
        return true;
    }
    // Nested classes: every prefix that ends before a `$`.
    name.iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'$')
        .any(|(i, _)| glob(pattern, &name[..i]))
}

impl FromStr for ClassPattern {
    type Err = PatternError;

    fn from_str(text: &str) -> Result<Self, PatternError> {
        ClassPattern::new(text)
    }
}

impl TryFrom<String> for ClassPattern {
    type Error = PatternError;

    fn try_from(text: String) -> Result<Self, PatternError> {
        ClassPattern::new(&text)
    }
}

impl From<ClassPattern> for String {
    fn from(pattern: ClassPattern) -> String {
        pattern.text
    }
}

impl fmt::Display for ClassPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

/// Matches `name` against `pattern` (`**`, `*`, `?`), by backtracking
/// over the positions a star may stop at.
fn glob(pattern: &[u8], name: &[u8]) -> bool {
    match pattern {
        [] => name.is_empty(),
        [b'*', b'*', rest @ ..] => (0..=name.len()).any(|i| glob(rest, &name[i..])),
        [b'*', rest @ ..] => {
            let segment = name.iter().position(|&b| b == b'.').unwrap_or(name.len());
            (0..=segment).any(|i| glob(rest, &name[i..]))
        }
        [b'?', rest @ ..] => matches!(name, [first, tail @ ..] if *first != b'.' && glob(rest, tail)),
        [c, rest @ ..] => matches!(name, [first, tail @ ..] if first == c && glob(rest, tail)),
    }
}

/// Classes copied unchanged unless an include pattern names them, each with
/// why: instrumented, they would run where JP's runtime is not (other JVMs,
/// other classes), counted nowhere or breaking what copies them.
pub const LEFT_BY_DEFAULT: [(&str, &str); 4] = [
    (
        // byte-buddy-agent (Mockito's inline mock maker attaches it): its
        // `Attacher` runs in a child JVM started with only this jar.
        "net.bytebuddy.agent.*",
        "it attaches agents through a JVM that does not have JP's runtime",
    ),
    (
        "com.sun.tools.attach.**",
        "the JDK's attach API, which attaches to other JVMs",
    ),
    (
        "sun.tools.attach.**",
        "the JDK's attach implementation, which attaches to other JVMs",
    ),
    (
        // Byte Buddy's `Advice` copies these methods' code into every class
        // Mockito's inline mock maker mocks, JDK classes included, and
        // checks their frames against its own layout.
        "org.mockito.internal.creation.bytebuddy.MockMethodAdvice",
        "Mockito's inline mock maker copies its code into the classes it mocks",
    ),
];

/// Include and exclude patterns together, and the classes left
/// uninstrumented by default.
#[derive(Clone, Default)]
pub struct ClassFilter {
    /// When not empty, only classes matching one of these are instrumented.
    pub include: Vec<ClassPattern>,
    /// Classes matching one of these are copied unchanged.
    pub exclude: Vec<ClassPattern>,
    /// Per pattern of [`LEFT_BY_DEFAULT`], the classes it left since the
    /// last [`ClassFilter::take_notes`] (shared by clones: a run's workers
    /// each hold one).
    left: Arc<[AtomicU64; LEFT_BY_DEFAULT.len()]>,
}

impl ClassFilter {
    /// A filter of these patterns.
    pub fn new(include: Vec<ClassPattern>, exclude: Vec<ClassPattern>) -> ClassFilter {
        ClassFilter {
            include,
            exclude,
            left: Arc::default(),
        }
    }

    /// Whether the class with this binary name is to be instrumented.
    pub fn accepts(&self, class: &str) -> bool {
        let included = self.include.iter().any(|p| p.matches(class));
        if (!self.include.is_empty() && !included) || self.exclude.iter().any(|p| p.matches(class)) {
            return false;
        }
        match LEFT_BY_DEFAULT
            .iter()
            .position(|(pattern, _)| !included && matches_text(pattern, class))
        {
            Some(i) => {
                self.left[i].fetch_add(1, Ordering::Relaxed);
                false
            }
            None => true,
        }
    }

    /// One note per pattern of [`LEFT_BY_DEFAULT`] that left classes
    /// uninstrumented since the last call, naming them and why.
    pub fn take_notes(&self) -> Vec<String> {
        LEFT_BY_DEFAULT
            .iter()
            .zip(self.left.iter())
            .filter_map(|((pattern, why), count)| match count.swap(0, Ordering::Relaxed) {
                0 => None,
                n => Some(format!(
                    "left uninstrumented: {pattern} ({n} {}): {why}; an include pattern that names them instruments them",
                    if n == 1 { "class" } else { "classes" }
                )),
            })
            .collect()
    }

    /// The binary name of the class an archive or directory entry holds,
    /// from its path (`com/acme/Main.class`, also under a multi-release
    /// jar's `META-INF/versions/N/`).
    pub fn class_name_of_entry(entry: &str) -> String {
        let path = entry.strip_suffix(".class").unwrap_or(entry);
        let path = match path.strip_prefix("META-INF/versions/") {
            Some(versioned) => versioned.split_once('/').map_or(versioned, |(_, rest)| rest),
            None => path,
        };
        path.replace('/', ".")
    }
}

/// The patterns, and the defaults they apply over: what decides which
/// classes a run rewrites (part of the run's fingerprint), not its counts.
impl fmt::Debug for ClassFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClassFilter")
            .field("include", &self.include)
            .field("exclude", &self.exclude)
            .field("left_by_default", &LEFT_BY_DEFAULT.map(|(pattern, _)| pattern))
            .finish()
    }
}

impl PartialEq for ClassFilter {
    fn eq(&self, other: &ClassFilter) -> bool {
        (&self.include, &self.exclude) == (&other.include, &other.exclude)
    }
}

impl Eq for ClassFilter {}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, class: &str) -> bool {
        ClassPattern::new(pattern).unwrap().matches(class)
    }

    #[test]
    fn a_single_star_stays_within_a_package_segment() {
        assert!(matches("com.acme.*", "com.acme.Main"));
        assert!(!matches("com.acme.*", "com.acme.util.Strings"));
        assert!(matches("com.*.Main", "com.acme.Main"));
    }

    #[test]
    fn a_double_star_crosses_packages() {
        assert!(matches("com.acme.**", "com.acme.util.Strings"));
        assert!(matches("**Test", "com.acme.MainTest"));
        assert!(!matches("**Test", "com.acme.Tester"));
    }

    #[test]
    fn a_class_pattern_covers_its_nested_classes() {
        assert!(matches("com.acme.Main", "com.acme.Main$Inner"));
        assert!(matches("com.acme.Main", "com.acme.Main$1"));
        assert!(!matches("com.acme.Main", "com.acme.MainHelper"));
    }

    #[test]
    fn question_mark_is_one_character_but_not_a_dot() {
        assert!(matches("com.acme.A?", "com.acme.AB"));
        assert!(!matches("com.acme?Main", "com.acme.Main"));
    }

    #[test]
    fn excludes_win_over_includes() {
        let filter = ClassFilter::new(
            vec!["com.acme.**".parse().unwrap()],
            vec!["**Test".parse().unwrap()],
        );
        assert!(filter.accepts("com.acme.Main"));
        assert!(!filter.accepts("com.acme.MainTest"));
        assert!(!filter.accepts("org.other.Main"));
        assert!(ClassFilter::default().accepts("anything.At.All"));
    }

    #[test]
    fn agents_and_attach_classes_are_left_by_default_with_one_note_per_pattern() {
        let filter = ClassFilter::default();
        for class in [
            "net.bytebuddy.agent.ByteBuddyAgent",
            "net.bytebuddy.agent.ByteBuddyAgent$AttachmentProvider",
            "net.bytebuddy.agent.Attacher",
            "sun.tools.attach.HotSpotVirtualMachine",
        ] {
            assert!(!filter.accepts(class), "{class}");
        }
        assert!(!filter.accepts("org.mockito.internal.creation.bytebuddy.MockMethodAdvice$ForStatic"));
        // Byte Buddy's own agent builder starts no JVM; Mockito's other classes copy no code.
        assert!(filter.accepts("net.bytebuddy.agent.builder.AgentBuilder"));
        assert!(filter.accepts("org.mockito.internal.creation.bytebuddy.InlineBytecodeGenerator"));
        let notes = filter.clone().take_notes();
        assert_eq!(notes.len(), 3, "{notes:?}");
        assert!(notes[0]
            .starts_with("left uninstrumented: net.bytebuddy.agent.* (3 classes): it attaches agents"));
        assert!(notes[1].starts_with("left uninstrumented: sun.tools.attach.** (1 class): "));
        assert!(notes[2].contains("copies its code into the classes it mocks"));
        assert!(filter.take_notes().is_empty(), "taken once");
    }

    #[test]
    fn an_include_that_names_a_class_left_by_default_instruments_it() {
        let filter = ClassFilter::new(vec!["net.bytebuddy.**".parse().unwrap()], Vec::new());
        assert!(filter.accepts("net.bytebuddy.agent.Attacher"));
        let excluded = ClassFilter::new(
            vec!["net.bytebuddy.**".parse().unwrap()],
            vec!["net.bytebuddy.agent.*".parse().unwrap()],
        );
        assert!(!excluded.accepts("net.bytebuddy.agent.Attacher"));
        assert!(filter.take_notes().is_empty() && excluded.take_notes().is_empty());
    }

    #[test]
    fn patterns_that_name_no_class_are_refused_saying_why() {
        for (text, problem) in [
            ("", PatternProblem::Empty),
            ("com/acme/**", PatternProblem::Slash),
            ("com.acme.Main;", PatternProblem::Character(';')),
            ("[Lcom.acme.Main", PatternProblem::Character('[')),
            ("com.acme. Main", PatternProblem::Character(' ')),
            ("com..acme", PatternProblem::EmptySegment),
            ("com.acme.", PatternProblem::EmptySegment),
            (".Main", PatternProblem::EmptySegment),
            ("com.***", PatternProblem::ThreeStars),
        ] {
            let error = ClassPattern::new(text).unwrap_err();
            assert_eq!(error.problem, problem, "{text}");
            assert!(
                error.to_string().starts_with(&format!("pattern `{text}` ")),
                "{error}"
            );
        }
        for text in ["**", "*", "com.acme.*", "**Test", "com.acme.Main$1", "a.b?"] {
            assert!(ClassPattern::new(text).is_ok(), "{text}");
        }
    }

    #[test]
    fn entry_paths_give_binary_names() {
        assert_eq!(
            ClassFilter::class_name_of_entry("com/acme/Main$1.class"),
            "com.acme.Main$1"
        );
        assert_eq!(
            ClassFilter::class_name_of_entry("META-INF/versions/11/com/acme/Main.class"),
            "com.acme.Main"
        );
    }
}
