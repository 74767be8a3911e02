//! Reading the text format of `docs/profile-format.md`.

use std::collections::HashMap;
use std::io::BufRead;
use std::path::{Path, PathBuf};

use crate::model::{NodeId, Profile};

/// The newest format version this reader knows.
pub const FORMAT_VERSION: u32 = 1;

/// A profile that cannot be read, with the file and line at fault.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {kind}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ParseError {
    /// The file.
    pub path: PathBuf,
    /// The line (from 1), when the fault is on one.
    pub line: Option<usize>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a profile.
#[derive(Debug, thiserror::Error)]
pub enum ParseErrorKind {
    /// It could not be read.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The first line is not `jp-profile <version>`.
    #[error("not a JP profile (the first line must be `jp-profile <version>`)")]
    NotAProfile,
    /// A newer JP wrote it.
    #[error("written by a newer JP: format version {found}, this JP reads up to version {FORMAT_VERSION}")]
    NewerVersion {
        /// The file's version.
        found: u32,
    },
    /// A record this version does not have.
    #[error("unknown record `{0}`")]
    UnknownRecord(String),
    /// A record with missing or extra fields, or a field that is not a number.
    #[error("malformed `{record}` record: {detail}")]
    Malformed {
        /// The record kind.
        record: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// An id defined twice.
    #[error("{record} {id} is defined twice")]
    Duplicate {
        /// `frame` or `node`.
        record: &'static str,
        /// The id.
        id: u64,
    },
    /// A reference to an id not defined before.
    #[error("node {node} refers to unknown {what} {id}")]
    UnknownReference {
        /// The node.
        node: u64,
        /// `parent` or `frame`.
        what: &'static str,
        /// The missing id.
        id: u64,
    },
    /// Two nodes with the same parent and frame.
    #[error("node {node} repeats the context of node {first}")]
    RepeatedContext {
        /// The second node.
        node: u64,
        /// The first.
        first: u64,
    },
    /// `meta` after the first frame.
    #[error("`meta` record after the first frame")]
    LateMeta,
    /// An escape other than `\\` and `\n` in a frame name.
    #[error("bad escape in frame name")]
    BadEscape,
    /// The file ends before `end`.
    #[error("truncated: the file ends without its `end` record")]
    Truncated,
    /// `end` disagrees with the number of nodes.
    #[error("`end` says {said} nodes, the file has {found}")]
    CountMismatch {
        /// The count in `end`.
        said: u64,
        /// The nodes read.
        found: u64,
    },
    /// Something after `end`.
    #[error("content after the `end` record")]
    AfterEnd,
}

/// Reads one profile; `path` names it in errors.
///
/// # Errors
/// Anything that does not follow the format, with the line at fault.
pub fn parse(reader: impl BufRead, path: &Path) -> Result<Profile, ParseError> {
    let mut parser = Parser {
        profile: Profile::default(),
        frames: HashMap::new(),
        nodes: HashMap::new(),
        node_count: 0,
        seen_frame: false,
    };
    let error = |line: Option<usize>, kind: ParseErrorKind| ParseError {
        path: path.to_owned(),
        line,
        kind,
    };
    let mut lines = reader.split(b'\n').enumerate();
    match lines.next() {
        Some((_, Ok(first))) => check_header(&first).map_err(|kind| error(Some(1), kind))?,
        Some((_, Err(e))) => return Err(error(None, e.into())),
        None => return Err(error(Some(1), ParseErrorKind::NotAProfile)),
    }
    let mut ended = false;
    for (index, line) in lines {
        let number = index + 1;
        let line = line.map_err(|e| error(Some(number), e.into()))?;
        if ended {
            if line.is_empty() {
                continue;
            }
            return Err(error(Some(number), ParseErrorKind::AfterEnd));
        }
        let line = std::str::from_utf8(&line).map_err(|_| {
            error(
                Some(number),
                ParseErrorKind::Malformed {
                    record: "line",
                    detail: "not UTF-8".to_owned(),
                },
            )
        })?;
        ended = parser.record(line).map_err(|kind| error(Some(number), kind))?;
    }
    if !ended {
        return Err(error(None, ParseErrorKind::Truncated));
    }
    parser.profile.files = 1;
    Ok(parser.profile)
}

fn check_header(line: &[u8]) -> Result<(), ParseErrorKind> {
    let line = std::str::from_utf8(line).map_err(|_| ParseErrorKind::NotAProfile)?;
    let version = line
        .strip_prefix("jp-profile ")
        .and_then(|v| v.parse::<u32>().ok())
        .ok_or(ParseErrorKind::NotAProfile)?;
    if version > FORMAT_VERSION {
        return Err(ParseErrorKind::NewerVersion { found: version });
    }
    if version == 0 {
        return Err(ParseErrorKind::NotAProfile);
    }
    Ok(())
}

struct Parser {
    profile: Profile,
    /// File frame id to interned index.
    frames: HashMap<u64, u32>,
    /// File node id to arena id.
    nodes: HashMap<u64, NodeId>,
    node_count: u64,
    seen_frame: bool,
}

impl Parser {
    /// One record; `Ok(true)` for `end`.
    fn record(&mut self, line: &str) -> Result<bool, ParseErrorKind> {
        let (kind, rest) = line.split_once(' ').unwrap_or((line, ""));
        match kind {
            "meta" => {
                if self.seen_frame {
                    return Err(ParseErrorKind::LateMeta);
                }
                let (key, value) = rest.split_once(' ').unwrap_or((rest, ""));
                if key.is_empty() {
                    return Err(malformed("meta", "no key"));
                }
                self.profile.meta.insert(key.to_owned(), unescape(value)?);
            }
            "frame" => {
                self.seen_frame = true;
                let (id, name) = rest
                    .split_once(' ')
                    .ok_or_else(|| malformed("frame", "no name"))?;
                let id = number("frame", id)?;
                if id == 0 {
                    return Err(malformed("frame", "id 0"));
                }
                let index = self.profile.intern(&unescape(name)?);
                if self.frames.insert(id, index).is_some() {
                    return Err(ParseErrorKind::Duplicate { record: "frame", id });
                }
            }
            "node" => {
                self.seen_frame = true;
                self.node(rest)?;
            }
            "end" => {
                let said = number("end", rest)?;
                if said != self.node_count {
                    return Err(ParseErrorKind::CountMismatch {
                        said,
                        found: self.node_count,
                    });
                }
                return Ok(true);
            }
            "" if rest.is_empty() => return Err(malformed("line", "empty line")),
            other => return Err(ParseErrorKind::UnknownRecord(other.to_owned())),
        }
        Ok(false)
    }

    fn node(&mut self, fields: &str) -> Result<(), ParseErrorKind> {
        let mut parts = fields.split(' ');
        let mut next = |what: &str| {
            parts
                .next()
                .ok_or_else(|| malformed("node", &format!("missing {what}")))
                .and_then(|field| number("node", field))
        };
        let id = next("id")?;
        let parent = next("parent")?;
        let frame = next("frame")?;
        let calls = next("calls")?;
        let bytecodes = next("bytecodes")?;
        if parts.next().is_some() {
            return Err(malformed("node", "too many fields"));
        }
        if id == 0 {
            return Err(malformed("node", "id 0"));
        }
        if self.nodes.contains_key(&id) {
            return Err(ParseErrorKind::Duplicate { record: "node", id });
        }
        let parent_node = match parent {
            0 => 0,
            _ => *self.nodes.get(&parent).ok_or(ParseErrorKind::UnknownReference {
                node: id,
                what: "parent",
                id: parent,
            })?,
        };
        let frame_index = *self.frames.get(&frame).ok_or(ParseErrorKind::UnknownReference {
            node: id,
            what: "frame",
            id: frame,
        })?;
        if let Some(existing) = self.profile.child(parent_node, frame_index) {
            let first = self
                .nodes
                .iter()
                .find_map(|(&file_id, &arena)| (arena == existing).then_some(file_id))
                .unwrap_or(0);
            return Err(ParseErrorKind::RepeatedContext { node: id, first });
        }
        let arena = self.profile.child_or_insert(parent_node, frame_index);
        let node = &mut self.profile.nodes[arena as usize];
        node.calls = calls;
        node.bytecodes = bytecodes;
        self.nodes.insert(id, arena);
        self.node_count += 1;
        Ok(())
    }
}

fn malformed(record: &'static str, detail: &str) -> ParseErrorKind {
    ParseErrorKind::Malformed {
        record,
        detail: detail.to_owned(),
    }
}

fn number(record: &'static str, field: &str) -> Result<u64, ParseErrorKind> {
    if field.is_empty() || !field.bytes().all(|b| b.is_ascii_digit()) {
        return Err(malformed(record, &format!("`{field}` is not an unsigned number")));
    }
    field
        .parse::<u64>()
        .map_err(|_| malformed(record, &format!("`{field}` does not fit in 64 bits")))
}

/// `\\` is `\` and `\n` a line break; other escapes are errors.
fn unescape(text: &str) -> Result<String, ParseErrorKind> {
    if !text.contains('\\') {
        return Ok(text.to_owned());
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            _ => return Err(ParseErrorKind::BadEscape),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> Result<Profile, ParseError> {
        parse(text.as_bytes(), Path::new("p.jpprof"))
    }

    fn message(text: &str) -> String {
        read(text).unwrap_err().to_string()
    }

    const GOOD: &str = "jp-profile 1\nmeta agent default\nmeta jvm OpenJDK 17\n\
        frame 1 demo.A.main([Ljava/lang/String;)V\nframe 2 demo.A.f()V\n\
        node 1 0 1 1 5\nnode 2 1 2 10 100\nend 2\n";

    #[test]
    fn a_well_formed_profile_reads_into_a_tree() {
        let profile = read(GOOD).unwrap();
        assert_eq!(profile.nodes.len(), 3);
        assert_eq!(
            profile.path(2),
            ["demo.A.main([Ljava/lang/String;)V", "demo.A.f()V"]
        );
        assert_eq!((profile.nodes[2].calls, profile.nodes[2].bytecodes), (10, 100));
        assert_eq!(profile.meta["jvm"], "OpenJDK 17");
    }

    #[test]
    fn a_newer_version_is_refused_saying_so() {
        assert_eq!(
            message("jp-profile 2\nend 0\n"),
            "p.jpprof:1: written by a newer JP: format version 2, this JP reads up to version 1"
        );
    }

    #[test]
    fn a_file_without_end_is_truncated() {
        let truncated = &GOOD[..GOOD.find("end").unwrap()];
        assert_eq!(
            message(truncated),
            "p.jpprof: truncated: the file ends without its `end` record"
        );
        assert_eq!(
            message(""),
            "p.jpprof:1: not a JP profile (the first line must be `jp-profile <version>`)"
        );
    }

    #[test]
    fn references_must_point_back() {
        let text = GOOD.replace("node 2 1 2", "node 2 9 2");
        assert_eq!(message(&text), "p.jpprof:7: node 2 refers to unknown parent 9");
        let text = GOOD.replace("node 2 1 2", "node 2 1 7");
        assert_eq!(message(&text), "p.jpprof:7: node 2 refers to unknown frame 7");
    }

    #[test]
    fn bad_numbers_duplicates_and_counts_are_named() {
        assert!(message(&GOOD.replace("10 100", "10 x")).contains("`x` is not an unsigned number"));
        assert!(
            message(&GOOD.replace("10 100", "10 99999999999999999999")).contains("does not fit in 64 bits")
        );
        assert!(message(&GOOD.replace("node 2 1 2", "node 1 1 2")).contains("node 1 is defined twice"));
        assert!(message(&GOOD.replace("node 2 1 2", "node 2 0 1")).contains("repeats the context of node 1"));
        assert!(message(&GOOD.replace("end 2", "end 3")).contains("`end` says 3 nodes, the file has 2"));
        assert!(message(&format!("{GOOD}node 3 0 2 1 1\n")).contains("content after the `end` record"));
        assert!(message(&GOOD.replace("meta agent", "metadata agent")).contains("unknown record `metadata`"));
    }

    #[test]
    fn frame_names_are_unescaped() {
        let profile = read(&GOOD.replace("demo.A.f()V", "demo.A.a\\\\b\\nc()V")).unwrap();
        assert!(profile.frames.contains(&"demo.A.a\\b\nc()V".to_owned()));
        assert!(message(&GOOD.replace("demo.A.f()V", "demo.A.\\t()V")).contains("bad escape"));
    }
}
