//! Which classes to instrument: include and exclude patterns over binary
//! class names (`com.acme.Main$Inner`).
//!
//! A pattern is a class name in which `*` stands for any part of one
//! package segment or class name (no `.`), `**` for anything (dots too)
//! and `?` for one character other than `.`. A pattern also matches the
//! nested classes of what it names: `com.acme.Main` matches
//! `com.acme.Main$Inner`. Examples: `com.acme.*` (the package's classes),
//! `com.acme.**` (the package and its subpackages), `**Test`.

use std::fmt;

/// A compiled include or exclude pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassPattern {
    text: String,
}

impl ClassPattern {
    /// Compiles a pattern (any text is a valid pattern).
    pub fn new(text: &str) -> ClassPattern {
        ClassPattern {
            text: text.to_owned(),
        }
    }

    /// Whether `class` (a binary name) or the class it is nested in matches.
    pub fn matches(&self, class: &str) -> bool {
        let pattern = self.text.as_bytes();
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

/// Include and exclude patterns together.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ClassFilter {
    /// When not empty, only classes matching one of these are instrumented.
    pub include: Vec<ClassPattern>,
    /// Classes matching one of these are copied unchanged.
    pub exclude: Vec<ClassPattern>,
}

impl ClassFilter {
    /// Whether the class with this binary name is to be instrumented.
    pub fn accepts(&self, class: &str) -> bool {
        (self.include.is_empty() || self.include.iter().any(|p| p.matches(class)))
            && !self.exclude.iter().any(|p| p.matches(class))
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

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(pattern: &str, class: &str) -> bool {
        ClassPattern::new(pattern).matches(class)
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
        let filter = ClassFilter {
            include: vec![ClassPattern::new("com.acme.**")],
            exclude: vec![ClassPattern::new("**Test")],
        };
        assert!(filter.accepts("com.acme.Main"));
        assert!(!filter.accepts("com.acme.MainTest"));
        assert!(!filter.accepts("org.other.Main"));
        assert!(ClassFilter::default().accepts("anything.At.All"));
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
