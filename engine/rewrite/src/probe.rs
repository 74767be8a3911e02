//! User-defined probes (docs/profiling.md, "Probes"): *where* (a kind of
//! instruction, or calls to methods matching a pattern) and *what* (count a
//! named exact metric, or call a user's static method), checked when read.
//!
//! ```
//! use jp_rewrite::probe::{Probe, ProbeAction, ProbeSite};
//! let probe = Probe {
//!     site: "java.sql.Statement.execute*".parse::<jp_rewrite::probe::CallPattern>().map(ProbeSite::Call).unwrap(),
//!     action: ProbeAction::count("sql-statements").unwrap(),
//! };
//! assert!(probe.site.matches_call(b"java/sql/Statement", b"executeQuery"));
//! assert!(!probe.site.matches_call(b"java/sql/PreparedStatement", b"executeQuery"));
//! ```

use std::fmt;
use std::str::FromStr;

/// A probe: where it counts or calls, and what it does there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Probe {
    /// The instructions it applies before.
    pub site: ProbeSite,
    /// What it does before each of them.
    pub action: ProbeAction,
}

/// The instructions a probe applies before.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeSite {
    /// Every instruction of one kind.
    Instruction(InstructionKind),
    /// Every invoke (not `invokedynamic`) whose symbolic reference matches.
    Call(CallPattern),
}

/// A kind of instruction a probe may choose, as spelled in configuration.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstructionKind {
    /// `monitorenter`: a lock taken by a `synchronized` block (not a
    /// `synchronized` method, whose lock the JVM takes without an instruction).
    MonitorEnter,
    /// `athrow`: an exception thrown by the method's own code.
    Athrow,
    /// `iaload` to `saload`: an element read from an array.
    ArrayLoad,
    /// `iastore` to `sastore`: an element written to an array.
    ArrayStore,
}

impl InstructionKind {
    /// Every kind, with its name in configuration.
    pub const ALL: [(&'static str, InstructionKind); 4] = [
        ("monitorenter", InstructionKind::MonitorEnter),
        ("athrow", InstructionKind::Athrow),
        ("array-load", InstructionKind::ArrayLoad),
        ("array-store", InstructionKind::ArrayStore),
    ];

    /// Whether `opcode` is an instruction of this kind.
    pub fn has_opcode(self, opcode: u8) -> bool {
        use jp_bytecode::opcode as op;
        match self {
            InstructionKind::MonitorEnter => opcode == op::MONITORENTER,
            InstructionKind::Athrow => opcode == op::ATHROW,
            InstructionKind::ArrayLoad => (op::IALOAD..=op::SALOAD).contains(&opcode),
            InstructionKind::ArrayStore => (op::IASTORE..=op::SASTORE).contains(&opcode),
        }
    }

    fn name(self) -> &'static str {
        InstructionKind::ALL
            .iter()
            .find(|(_, kind)| *kind == self)
            .map_or("", |(name, _)| name)
    }
}

impl FromStr for InstructionKind {
    type Err = ProbeError;

    fn from_str(text: &str) -> Result<Self, ProbeError> {
        InstructionKind::ALL
            .iter()
            .find(|(name, _)| *name == text)
            .map(|(_, kind)| *kind)
            .ok_or_else(|| ProbeError::UnknownKind {
                kind: text.to_owned(),
            })
    }
}

/// `class.method`, each part a glob: `*` matches any run of characters but
/// `.`, `**` any run at all (in the class part). It matches an invoke whose
/// constant-pool reference names a matching class and method: the owner as
/// the compiler wrote it (the static type the call is made through), not
/// the class whose method runs, so a count never depends on dispatch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallPattern {
    class: String,
    method: String,
}

impl CallPattern {
    /// Whether a call whose reference names `owner` (an internal name) and
    /// method `name` matches.
    pub fn matches(&self, owner: &[u8], name: &[u8]) -> bool {
        let owner: Vec<u8> = owner.iter().map(|&b| if b == b'/' { b'.' } else { b }).collect();
        glob(self.class.as_bytes(), &owner) && glob(self.method.as_bytes(), name)
    }
}

impl FromStr for CallPattern {
    type Err = ProbeError;

    fn from_str(text: &str) -> Result<Self, ProbeError> {
        let bad = |why: &'static str| ProbeError::BadPattern {
            pattern: text.to_owned(),
            why,
        };
        let (class, method) = text
            .rsplit_once('.')
            .ok_or_else(|| bad("it needs a class and a method: `class.method`"))?;
        if class.is_empty() || method.is_empty() || class.split('.').any(str::is_empty) {
            return Err(bad("a part between dots is empty"));
        }
        if text.contains("***") || method.contains("**") {
            return Err(bad("`**` is for the class part, and `***` means nothing"));
        }
        if text.chars().any(|c| c.is_whitespace() || "/;[]()".contains(c)) {
            return Err(bad(
                "names are written with dots, as in Java source, without spaces or descriptors",
            ));
        }
        if !is_method_name(method, true) {
            return Err(bad(
                "the method part is not a method name (or `<init>`, `<clinit>`)",
            ));
        }
        Ok(CallPattern {
            class: class.to_owned(),
            method: method.to_owned(),
        })
    }
}

impl fmt::Display for CallPattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.class, self.method)
    }
}

/// Whether `text` matches `pattern`: `*` any run without `.`, `**` any run.
fn glob(pattern: &[u8], text: &[u8]) -> bool {
    match pattern {
        [] => text.is_empty(),
        [b'*', b'*', rest @ ..] => (0..=text.len()).any(|i| glob(rest, &text[i..])),
        [b'*', rest @ ..] => {
            let run = text.iter().position(|&b| b == b'.').unwrap_or(text.len());
            (0..=run).any(|i| glob(rest, &text[i..]))
        }
        [first, rest @ ..] => text.first() == Some(first) && glob(rest, &text[1..]),
    }
}

/// Whether `name` is a Java identifier; with `globs`, `*` may stand in it,
/// and `<init>` and `<clinit>` count too.
fn is_method_name(name: &str, globs: bool) -> bool {
    if globs && (name == "<init>" || name == "<clinit>") {
        return true;
    }
    let part = |c: char| c.is_alphanumeric() || c == '_' || c == '$' || (globs && c == '*');
    name.chars()
        .next()
        .is_some_and(|c| !c.is_ascii_digit() && part(c))
        && name.chars().all(part)
}

/// What a probe does before each instruction it chose.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ProbeAction {
    /// Adds one to this exact metric of the method's context.
    Count(String),
    /// Calls the static method `class.method` (a binary class name), as
    /// [`ProbeAction::handler`] checked it.
    Handler {
        /// The binary name of the handler's class.
        class: String,
        /// The handler's name.
        method: String,
    },
}

/// The names the built-in metrics take: a probe's metric may not be one, nor
/// one of their parts (`allocations:int[]`).
pub const BUILT_IN_METRICS: [&str; 4] = ["calls", "bytecodes", "allocations", "probe-errors"];

impl ProbeAction {
    /// Counting into the metric `name`: one word of letters, digits and
    /// `-_.:`, where a colon makes the part before it a family that counts
    /// the parts too (`sql:select` counts in `sql`), as `allocations` does.
    ///
    /// # Errors
    /// [`ProbeError::BadMetric`] for another name, or a built-in's.
    pub fn count(name: &str) -> Result<ProbeAction, ProbeError> {
        let bad = |why: &'static str| ProbeError::BadMetric {
            name: name.to_owned(),
            why,
        };
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || "-_.:".contains(c))
        {
            return Err(bad("a metric's name is one word of letters, digits and `-_.:`"));
        }
        let family = name.split(':').next().unwrap_or(name);
        if family.is_empty() || name.ends_with(':') {
            return Err(bad("a colon separates two non-empty parts"));
        }
        if BUILT_IN_METRICS.contains(&family) {
            return Err(bad("it is a built-in metric's name"));
        }
        Ok(ProbeAction::Count(name.to_owned()))
    }

    /// Calling the static method `name`, written `com.acme.Probes.onLock`:
    /// a binary class name (`$` for nested classes), a dot, a method name.
    ///
    /// # Errors
    /// [`ProbeError::BadHandler`] when `name` is not written so.
    pub fn handler(name: &str) -> Result<ProbeAction, ProbeError> {
        let bad = |why: &'static str| ProbeError::BadHandler {
            name: name.to_owned(),
            why,
        };
        let (class, method) = name
            .rsplit_once('.')
            .ok_or_else(|| bad("it needs a class and a method: `com.acme.Probes.onLock`"))?;
        if !class.split('.').all(|part| is_method_name(part, false)) {
            return Err(bad("the class part is not a binary class name"));
        }
        if !is_method_name(method, false) {
            return Err(bad("the method part is not a method name"));
        }
        Ok(ProbeAction::Handler {
            class: class.to_owned(),
            method: method.to_owned(),
        })
    }
}

impl ProbeSite {
    /// Whether a call whose reference names `owner` (an internal name) and
    /// method `name` is chosen.
    pub fn matches_call(&self, owner: &[u8], name: &[u8]) -> bool {
        match self {
            ProbeSite::Call(pattern) => pattern.matches(owner, name),
            ProbeSite::Instruction(_) => false,
        }
    }
}

/// `monitorenter -> count locks`, `call a.B.c* -> handler p.H.on`: how the
/// cache key names a probe, so that another probe rewrites again.
impl fmt::Display for Probe {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.site {
            ProbeSite::Instruction(kind) => write!(f, "{}", kind.name())?,
            ProbeSite::Call(pattern) => write!(f, "call {pattern}")?,
        }
        match &self.action {
            ProbeAction::Count(metric) => write!(f, " -> count {metric}"),
            ProbeAction::Handler { class, method } => write!(f, " -> handler {class}.{method}"),
        }
    }
}

/// What is wrong with a probe as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ProbeError {
    /// `where` names no kind of instruction JP knows.
    #[error("unknown instruction kind `{kind}` (known: monitorenter, athrow, array-load, array-store)")]
    UnknownKind {
        /// What was written.
        kind: String,
    },
    /// `call` is not a pattern.
    #[error("bad call pattern `{pattern}`: {why}")]
    BadPattern {
        /// What was written.
        pattern: String,
        /// Why it is refused.
        why: &'static str,
    },
    /// `count` is not a metric a probe may count.
    #[error("bad metric name `{name}`: {why}")]
    BadMetric {
        /// What was written.
        name: String,
        /// Why it is refused.
        why: &'static str,
    },
    /// `handler` is not a static method's name.
    #[error("bad handler `{name}`: {why}")]
    BadHandler {
        /// What was written.
        name: String,
        /// Why it is refused.
        why: &'static str,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pattern(text: &str) -> CallPattern {
        text.parse().unwrap()
    }

    #[test]
    fn a_star_stays_within_a_name_and_two_cross_packages() {
        let statement = pattern("java.sql.Statement.execute*");
        assert!(statement.matches(b"java/sql/Statement", b"execute"));
        assert!(statement.matches(b"java/sql/Statement", b"executeUpdate"));
        assert!(!statement.matches(b"java/sql/Statement", b"close"));
        assert!(!statement.matches(b"java/sql/PreparedStatement", b"execute"));
        let any_read = pattern("java.io.*.read*");
        assert!(any_read.matches(b"java/io/InputStream", b"read"));
        assert!(!any_read.matches(b"java/io/sub/InputStream", b"read"));
        let deep = pattern("com.**.Dao.find");
        assert!(deep.matches(b"com/acme/shop/Dao", b"find"));
        assert!(!deep.matches(b"org/acme/Dao", b"find"));
        assert!(pattern("a.B$Inner.<init>").matches(b"a/B$Inner", b"<init>"));
    }

    #[test]
    fn malformed_patterns_say_why() {
        for (text, why) in [
            ("execute", "class and a method"),
            ("java..Statement.execute", "empty"),
            ("java.sql.Statement.", "empty"),
            ("java/sql/Statement.execute", "dots"),
            ("java.sql.Statement.execute(I)V", "dots"),
            ("java.sql.Statement.exe-cute", "method name"),
            ("a.B.**", "`**`"),
        ] {
            let error = text.parse::<CallPattern>().unwrap_err();
            assert!(error.to_string().contains(why), "{text}: {error}");
        }
    }

    #[test]
    fn instruction_kinds_have_their_opcodes() {
        use jp_bytecode::opcode as op;
        assert!(InstructionKind::MonitorEnter.has_opcode(op::MONITORENTER));
        assert!(!InstructionKind::MonitorEnter.has_opcode(op::MONITOREXIT));
        assert!(InstructionKind::ArrayLoad.has_opcode(op::AALOAD));
        assert!(InstructionKind::ArrayStore.has_opcode(op::SASTORE));
        assert!(!InstructionKind::ArrayStore.has_opcode(op::SALOAD));
        assert_eq!(
            "array-store".parse::<InstructionKind>(),
            Ok(InstructionKind::ArrayStore)
        );
        let error = "monitorexit".parse::<InstructionKind>().unwrap_err();
        assert!(error
            .to_string()
            .contains("unknown instruction kind `monitorexit`"));
    }

    #[test]
    fn metric_names_are_one_word_and_not_a_built_in() {
        assert!(ProbeAction::count("sql-statements").is_ok());
        assert!(ProbeAction::count("sql:select").is_ok());
        for name in [
            "",
            "two words",
            "calls",
            "allocations",
            "allocations:int",
            "probe-errors",
            "a:",
            ":b",
        ] {
            assert!(ProbeAction::count(name).is_err(), "{name}");
        }
    }

    #[test]
    fn handlers_are_a_class_and_a_method() {
        assert_eq!(
            ProbeAction::handler("com.acme.Probes$Sql.onExecute"),
            Ok(ProbeAction::Handler {
                class: "com.acme.Probes$Sql".into(),
                method: "onExecute".into(),
            })
        );
        for name in [
            "onExecute",
            "com.acme.Probes.on-execute",
            "com..Probes.on",
            "com.acme.1Probes.on",
            "a.B.*",
        ] {
            assert!(ProbeAction::handler(name).is_err(), "{name}");
        }
    }

    #[test]
    fn a_probe_is_named_by_where_and_what() {
        let probe = Probe {
            site: ProbeSite::Instruction(InstructionKind::MonitorEnter),
            action: ProbeAction::count("locks").unwrap(),
        };
        assert_eq!(probe.to_string(), "monitorenter -> count locks");
        let probe = Probe {
            site: ProbeSite::Call(pattern("a.B.c*")),
            action: ProbeAction::handler("p.H.on").unwrap(),
        };
        assert_eq!(probe.to_string(), "call a.B.c* -> handler p.H.on");
    }
}
