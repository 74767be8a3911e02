//! The `[[probe]]` tables of `jp.toml` (docs/profiling.md, "Probes"):
//! ```toml
//! [[probe]]
//! where = "monitorenter"   # or "athrow", "array-load", "array-store"
//! count = "locks"
//!
//! [[probe]]
//! call = "java.sql.Statement.execute*"
//! handler = "com.acme.Probes.onExecute"
//! ```
//! Each value is checked as it is read, so that a malformed probe is refused
//! with the file, the line and column of the value (of the table, for a
//! missing or doubled key) and what is wrong, as TOML errors are.

use std::fmt;
use std::str::FromStr;

use serde::de::Error as _;
use serde::{Deserialize, Deserializer};

use jp_rewrite::probe::{CallPattern, InstructionKind, Probe, ProbeAction, ProbeSite};

/// One `[[probe]]` table, checked.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(try_from = "ProbeTable")]
pub struct ProbeConfig(pub Probe);

/// A `[[probe]]` table as written, each value checked alone.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProbeTable {
    #[serde(rename = "where", default, deserialize_with = "parsed")]
    instruction: Option<InstructionKind>,
    #[serde(default, deserialize_with = "parsed")]
    call: Option<CallPattern>,
    #[serde(default, deserialize_with = "count")]
    count: Option<ProbeAction>,
    #[serde(default, deserialize_with = "handler")]
    handler: Option<ProbeAction>,
}

/// What a table lacks, or has twice.
#[derive(Debug, thiserror::Error)]
pub enum ShapeError {
    /// Neither or both of `where` and `call`.
    #[error("a probe needs exactly one of `where` (an instruction kind) and `call` (a pattern)")]
    Site,
    /// Neither or both of `count` and `handler`.
    #[error("a probe needs exactly one of `count` (a metric's name) and `handler` (a static method)")]
    Action,
}

impl TryFrom<ProbeTable> for ProbeConfig {
    type Error = ShapeError;

    fn try_from(table: ProbeTable) -> Result<ProbeConfig, ShapeError> {
        let site = match (table.instruction, table.call) {
            (Some(kind), None) => ProbeSite::Instruction(kind),
            (None, Some(pattern)) => ProbeSite::Call(pattern),
            _ => return Err(ShapeError::Site),
        };
        let action = match (table.count, table.handler) {
            (Some(action), None) | (None, Some(action)) => action,
            _ => return Err(ShapeError::Action),
        };
        Ok(ProbeConfig(Probe { site, action }))
    }
}

/// A value read as text and parsed, its error becoming the TOML error at its position.
fn parsed<'de, D, T>(deserializer: D) -> Result<Option<T>, D::Error>
where
    D: Deserializer<'de>,
    T: FromStr,
    T::Err: fmt::Display,
{
    let text = String::deserialize(deserializer)?;
    text.parse().map(Some).map_err(D::Error::custom)
}

fn count<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<ProbeAction>, D::Error> {
    let text = String::deserialize(deserializer)?;
    ProbeAction::count(&text).map(Some).map_err(D::Error::custom)
}

fn handler<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<ProbeAction>, D::Error> {
    let text = String::deserialize(deserializer)?;
    ProbeAction::handler(&text).map(Some).map_err(D::Error::custom)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, Deserialize)]
    struct File {
        probe: Vec<ProbeConfig>,
    }

    fn probes(text: &str) -> Result<Vec<Probe>, String> {
        toml::from_str::<File>(text)
            .map(|file| file.probe.into_iter().map(|p| p.0).collect())
            .map_err(|error| error.to_string())
    }

    #[test]
    fn the_three_examples_read() {
        let read = probes(
            "[[probe]]\ncall = \"java.sql.Statement.execute*\"\ncount = \"sql-statements\"\n\
             [[probe]]\nwhere = \"monitorenter\"\ncount = \"locks\"\n\
             [[probe]]\nwhere = \"athrow\"\nhandler = \"com.acme.Probes.onThrow\"\n",
        )
        .unwrap();
        assert_eq!(
            read.iter().map(ToString::to_string).collect::<Vec<_>>(),
            [
                "call java.sql.Statement.execute* -> count sql-statements",
                "monitorenter -> count locks",
                "athrow -> handler com.acme.Probes.onThrow",
            ]
        );
    }

    /// Each malformed probe, the line its error names, and what it says.
    #[test]
    fn a_malformed_probe_names_its_line_and_what_is_wrong() {
        for (text, line, what) in [
            (
                "[[probe]]\nwhere = \"monitorexit\"\ncount = \"x\"\n",
                2,
                "unknown instruction kind `monitorexit`",
            ),
            (
                "[[probe]]\ncount = \"x\"\ncall = \"execute*\"\n",
                3,
                "bad call pattern `execute*`",
            ),
            (
                "[[probe]]\nwhere = \"athrow\"\ncount = \"calls\"\n",
                3,
                "built-in metric",
            ),
            (
                "[[probe]]\nwhere = \"athrow\"\ncount = \"two words\"\n",
                3,
                "one word",
            ),
            (
                "[[probe]]\nwhere = \"athrow\"\nhandler = \"onThrow\"\n",
                3,
                "bad handler `onThrow`",
            ),
            ("[[probe]]\nwhere = \"athrow\"\n", 1, "exactly one of `count`"),
            (
                "[[probe]]\nwhere = \"athrow\"\ncount = \"x\"\nhandler = \"a.B.c\"\n",
                1,
                "exactly one of `count`",
            ),
            ("[[probe]]\ncount = \"x\"\n", 1, "exactly one of `where`"),
            (
                "[[probe]]\nwhere = \"athrow\"\ncall = \"a.B.c\"\ncount = \"x\"\n",
                1,
                "exactly one of `where`",
            ),
            (
                "\n[[probe]]\nwhere = \"athrow\"\ncount = \"x\"\nwhen = 3\n",
                5,
                "unknown field `when`",
            ),
        ] {
            let message = probes(text).unwrap_err();
            assert!(message.contains(&format!("line {line}")), "{text}: {message}");
            assert!(message.contains(what), "{text}: {message}");
        }
    }
}
