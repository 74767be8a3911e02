//! Name patterns of tolerances and ignore lists: `*` stands for any run of
//! characters (dots, `#` and parentheses included), everything else for
//! itself; a pattern matches a whole name.

/// A pattern over test ids and method frame names.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pattern(String);

impl Pattern {
    /// The pattern `text`.
    pub fn new(text: &str) -> Pattern {
        Pattern(text.to_owned())
    }

    /// The pattern as given.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// Whether the whole of `name` matches.
    pub fn matches(&self, name: &str) -> bool {
        let mut parts = self.0.split('*');
        let first = parts.next().unwrap_or("");
        let Some(mut rest) = name.strip_prefix(first) else {
            return false;
        };
        let parts: Vec<&str> = parts.collect();
        let Some((last, middle)) = parts.split_last() else {
            return rest.is_empty();
        };
        for part in middle {
            match rest.find(part) {
                Some(at) => rest = &rest[at + part.len()..],
                None => return false,
            }
        }
        rest.len() >= last.len() && rest.ends_with(last)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_star_matches_any_run_and_the_rest_matches_itself() {
        let p = Pattern::new("com.acme.ParserTest#*");
        assert!(p.matches("com.acme.ParserTest#largeFile()"));
        assert!(!p.matches("com.acme.ParserTests#largeFile()"));
        assert!(Pattern::new("*.parse(*").matches("com.acme.Parser.parse(Ljava/lang/String;)I"));
        assert!(Pattern::new("exact").matches("exact"));
        assert!(!Pattern::new("exact").matches("exactly"));
        assert!(Pattern::new("a*a").matches("aa"));
        assert!(!Pattern::new("ab*ba").matches("aba"));
        assert!(Pattern::new("*").matches(""));
    }
}
