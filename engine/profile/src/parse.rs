//! Reading the text format of `docs/profile-format.md`, line by line.
//!
//! The reader is strict: anything the format does not allow is an error
//! that names the file and the line, and a file that stops before its
//! `end` record is reported as truncated rather than read in part.
//!
//! Two `frame` records may carry the same name (the format only asks ids
//! to be unique). Their contexts under one parent then become one context
//! of the model, as they would in a merge; duplicate contexts are still
//! told apart by the file's own ids.

use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fs::File;
use std::io::{self, BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use crate::hash::IntHash;
use crate::ids::IdMap;
use crate::metrics::{valid_metric_name, MetricId, MetricInfo, MetricKind};
use crate::model::{FrameId, NodeId, Profile};
use crate::sites::CallSite;

/// The newest format version this reader knows: version 4 with call
/// sites, a sixth field of `node` records. [`crate::write()`] writes it
/// only for a profile that has them.
pub const FORMAT_VERSION: u64 = 5;

/// The version of profiles whose `node` records may end with a call site.
pub const SITES_FORMAT_VERSION: u64 = 5;

/// The version of profiles with extra metrics, the `metric` and `value`
/// records, and no call sites.
pub const METRICS_FORMAT_VERSION: u64 = 4;

pub const THREADS_FORMAT_VERSION: u64 = 3;

/// The version of profiles with per-line counts, the `line` records, and
/// no thread groups.
pub const LINES_FORMAT_VERSION: u64 = 2;

/// The version of profiles without per-line counts or thread groups, which
/// readers that know nothing of either read.
pub const NO_LINES_FORMAT_VERSION: u64 = 1;

/// A profile that cannot be read: the file, the line and what is wrong,
/// displayed as `profiles/a.jpprof:12: node 7 refers to unknown parent 9`.
#[derive(Debug, thiserror::Error)]
#[error("{}{}: {kind}", path.display(), line.map(|l| format!(":{l}")).unwrap_or_default())]
pub struct ParseError {
    /// The file.
    pub path: PathBuf,
    /// The line, from 1; `None` when the file could not be opened or not
    /// read at all. A truncated file names the line after its last one.
    pub line: Option<u64>,
    /// What is wrong.
    pub kind: ParseErrorKind,
}

/// What is wrong with a profile.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ParseErrorKind {
    /// The file could not be opened or read.
    #[error("{0}")]
    Io(#[from] io::Error),
    /// The file is empty.
    #[error("empty file, not a JP profile")]
    Empty,
    /// The first line is not `jp-profile <version>`.
    #[error("not a JP profile: the first line must be `jp-profile <version>`")]
    NotAProfile,
    /// A newer JP wrote the file.
    #[error("written by a newer JP: format version {found}, this JP reads up to version {FORMAT_VERSION}")]
    NewerVersion {
        /// The file's version.
        found: u64,
    },
    /// A line that is not a record of this version.
    #[error("unknown record `{0}`")]
    UnknownRecord(String),
    /// An empty line.
    #[error("empty line")]
    EmptyLine,
    /// A record with missing or extra fields, or a field that is not what it should be.
    #[error("malformed `{record}` record: {detail}")]
    Malformed {
        /// The record kind.
        record: &'static str,
        /// What is wrong with it.
        detail: String,
    },
    /// `meta` after the first `frame`.
    #[error("`meta` record after the first `frame` record")]
    LateMeta,
    /// An escape other than `\\` and `\n`.
    #[error("bad escape `{escape}` in {record} record: only `\\\\` and `\\n` are escapes")]
    BadEscape {
        /// `frame` or `meta`.
        record: &'static str,
        /// The escape, a backslash and what follows it (if anything).
        escape: String,
    },
    /// Two `line` records for the same frame and line.
    #[error("line {line} of frame {frame} is counted twice")]
    RepeatedLine {
        /// The file's frame id.
        frame: u64,
        /// The line.
        line: u64,
    },
    /// A `line` record of an unknown frame.
    #[error("a `line` record refers to unknown frame {0}")]
    UnknownLineFrame(u64),
    /// An id defined twice.
    #[error("{record} {id} is defined twice")]
    Duplicate {
        /// `frame` or `node`.
        record: &'static str,
        /// The id.
        id: u64,
    },
    /// A reference to an id no earlier record defines.
    #[error("node {node} refers to unknown {what} {id}")]
    UnknownReference {
        /// The node.
        node: u64,
        /// `parent` or `frame`.
        what: &'static str,
        /// The id it refers to.
        id: u64,
    },
    /// Two `metric` records with the same name.
    #[error("metric `{0}` is defined twice")]
    RepeatedMetric(String),
    /// A `value` record of an unknown node or metric.
    #[error("a `value` record refers to unknown {what} {id}")]
    UnknownValueReference {
        /// `node` or `metric`.
        what: &'static str,
        /// The id it refers to.
        id: u64,
    },
    /// Two `value` records for the same node and metric.
    #[error("node {node} has two values of metric {metric}")]
    RepeatedValue {
        /// The file's node id.
        node: u64,
        /// The file's metric id.
        metric: u64,
    },
    /// Two `thread` records with the same name.
    #[error("thread group `{0}` is defined twice")]
    RepeatedThreadGroup(String),
    /// A node whose parent is a node of another thread group.
    #[error("node {node} has parent {parent}, a node of another thread group")]
    ParentInOtherGroup {
        /// The node.
        node: u64,
        /// Its parent.
        parent: u64,
    },
    /// Two nodes of one thread group with the same parent and frame.
    #[error("node {node} has the same parent and frame as node {first}")]
    RepeatedContext {
        /// The second node.
        node: u64,
        /// The first.
        first: u64,
    },
    /// The file ends before its `end` record, or inside a line.
    #[error("truncated: {0}")]
    Truncated(&'static str),
    /// `end` disagrees with the number of `node` records.
    #[error("`end` says {said} nodes, the file has {found}")]
    CountMismatch {
        /// The count in `end`.
        said: u64,
        /// The `node` records read.
        found: u64,
    },
    /// A line after `end`.
    #[error("content after the `end` record")]
    AfterEnd,
}

/// Reads the profile at `path`.
///
/// # Errors
/// If the file cannot be opened or read, or does not follow the format.
pub fn parse_file(path: &Path) -> Result<Profile, ParseError> {
    let file = File::open(path).map_err(|e| ParseError {
        path: path.to_owned(),
        line: None,
        kind: e.into(),
    })?;
    parse(BufReader::with_capacity(1 << 16, file), path)
}

/// Reads one profile from `reader`; `path` names it in errors. Text
/// works too: `parse(text.as_bytes(), path)`.
///
/// # Errors
/// If `reader` fails, or what it gives does not follow the format: the
/// error names `path`, the line and what is wrong.
pub fn parse(mut reader: impl BufRead, path: &Path) -> Result<Profile, ParseError> {
    let fail = |line: u64, kind: ParseErrorKind| ParseError {
        path: path.to_owned(),
        line: Some(line),
        kind,
    };
    let mut parser = Parser::default();
    let mut buf = Vec::with_capacity(256);
    let mut number = 0;
    // Whether lines end with `\r\n` (a file that went through a Windows
    // editor or checkout), as the first one tells; only then is a `\r`
    // before a line break not part of the record.
    let mut crlf = false;
    loop {
        number += 1;
        buf.clear();
        let read = if number == 1 {
            // Not the whole of a large file that is not a profile.
            (&mut reader).take(HEADER_MAX).read_until(b'\n', &mut buf)
        } else {
            reader.read_until(b'\n', &mut buf)
        };
        let read = read.map_err(|e| ParseError {
            // Not "line 1" for a file that cannot be read at all (a directory, say).
            line: (number > 1).then_some(number),
            ..fail(number, e.into())
        })?;
        if read == 0 {
            break;
        }
        let (mut line, complete) = match buf.split_last() {
            Some((b'\n', line)) => (line, true),
            _ => (&buf[..], false),
        };
        if number == 1 {
            crlf = complete && line.ends_with(b"\r");
        }
        if crlf && complete {
            line = line.strip_suffix(b"\r").unwrap_or(line);
        }
        parser.line(line, complete).map_err(|kind| fail(number, kind))?;
    }
    // `number` is now the line after the last one, where `end` was due.
    parser.finish().map_err(|kind| fail(number, kind))
}

/// The most of the first line read: `jp-profile <version>` and room to spare.
const HEADER_MAX: u64 = 64;

#[derive(Debug, Default, PartialEq, Eq)]
enum State {
    #[default]
    Header,
    Meta,
    Body,
    Ended,
}

#[derive(Default)]
struct Parser {
    profile: Profile,
    state: State,
    /// The file's format version.
    version: u64,
    /// (file frame id, line) of the `line` records read.
    line_records: HashSet<(u64, u32)>,
    /// File metric id to the model's extra metric, in file order.
    metrics: Vec<(u64, MetricId)>,
    /// (file node id, file metric id) of the `value` records read.
    value_records: HashSet<(u64, u64)>,
    /// File frame id to [`FrameId`].
    frames: IdMap,
    /// File node id to [`NodeId`].
    nodes: IdMap,
    node_records: u64,
    /// Set once two frames share a name: (file parent id, file frame id, call site) to
    /// the file id of the node that has them (a top-level node's parent is
    /// written as its section, see [`Parser::parent_key`]). Until then, the
    /// model's child index and [`Parser::section_of`] tell repeated
    /// contexts apart.
    pairs: Option<HashMap<FileContext, u64, IntHash>>,
    /// The thread group being read: 0 before the first `thread` record,
    /// then 1, 2, ... for each.
    section: u32,
    /// The last section that has a node of each context of the model,
    /// plus one (0: none yet). Sections are contiguous, so a context has a
    /// node of the current section exactly when it is marked with it.
    section_of: Vec<u32>,
}

impl Parser {
    fn line(&mut self, line: &[u8], complete: bool) -> Result<(), ParseErrorKind> {
        match self.state {
            State::Header => {
                self.version = check_header(line)?;
                self.state = State::Meta;
            }
            State::Ended => return Err(ParseErrorKind::AfterEnd),
            State::Meta | State::Body => {
                if !complete {
                    return Err(ParseErrorKind::Truncated("the last line has no line break"));
                }
                if self.record(line)? {
                    self.state = State::Ended;
                }
                return Ok(());
            }
        }
        if complete {
            Ok(())
        } else {
            Err(ParseErrorKind::Truncated("the last line has no line break"))
        }
    }

    fn finish(mut self) -> Result<Profile, ParseErrorKind> {
        match self.state {
            State::Header => Err(ParseErrorKind::Empty),
            State::Meta | State::Body => Err(ParseErrorKind::Truncated(
                "the file ends without its `end` record",
            )),
            State::Ended => {
                self.profile.files = 1;
                for group in &mut self.profile.threads {
                    group.normalize();
                }
                Ok(self.profile)
            }
        }
    }

    /// One record; `Ok(true)` for `end`.
    fn record(&mut self, line: &[u8]) -> Result<bool, ParseErrorKind> {
        let (kind, rest) = split_field(line);
        match kind {
            b"node" => self.node(rest)?,
            b"frame" => self.frame(rest)?,
            b"meta" => self.meta(rest)?,
            b"line" if self.version >= 2 => self.line_count(rest)?,
            b"thread" if self.version >= 3 => self.thread(rest)?,
            b"metric" if self.version >= 4 => self.metric(rest)?,
            b"value" if self.version >= 4 => self.value(rest)?,
            b"end" => {
                let said = number("end", "node count", rest)?;
                if said != self.node_records {
                    return Err(ParseErrorKind::CountMismatch {
                        said,
                        found: self.node_records,
                    });
                }
                return Ok(true);
            }
            _ if line.is_empty() => return Err(ParseErrorKind::EmptyLine),
            _ => return Err(ParseErrorKind::UnknownRecord(printable(kind))),
        }
        Ok(false)
    }

    fn meta(&mut self, rest: &[u8]) -> Result<(), ParseErrorKind> {
        if self.state != State::Meta {
            return Err(ParseErrorKind::LateMeta);
        }
        let (key, value) = split_field(rest);
        if key.is_empty() {
            return Err(malformed("meta", "missing key".to_owned()));
        }
        let key = utf8("meta", "key", key)?;
        let value = unescape("meta", utf8("meta", "value", value)?)?;
        if key == "threads" {
            number("meta", "threads", value.as_bytes())?;
        }
        self.profile.meta.insert(key.to_owned(), value);
        Ok(())
    }

    fn frame(&mut self, rest: &[u8]) -> Result<(), ParseErrorKind> {
        self.state = State::Body;
        let (id, name) = split_field(rest);
        let id = number("frame", "id", id)?;
        if id == 0 {
            return Err(malformed("frame", "id 0 (ids are positive)".to_owned()));
        }
        if name.is_empty() {
            return Err(malformed("frame", "missing name".to_owned()));
        }
        if self.section > 0 {
            // Frames first: a repeated frame name then maps file nodes to
            // the model's one to one (see tell_contexts_by_file_ids).
            return Err(malformed("frame", "after a `thread` record".to_owned()));
        }
        if self.frames.get(id).is_some() {
            return Err(ParseErrorKind::Duplicate { record: "frame", id });
        }
        let name = unescape("frame", utf8("frame", "name", name)?)?;
        let known = self.profile.frames().len();
        let frame = self.profile.intern(&name);
        if (frame.0 as usize) < known && self.pairs.is_none() {
            self.tell_contexts_by_file_ids();
        }
        self.frames.insert(id, frame.0);
        Ok(())
    }

    fn node(&mut self, rest: &[u8]) -> Result<(), ParseErrorKind> {
        let mut fields = rest.split(|&b| b == b' ');
        let mut next = |what| number("node", what, fields.next().unwrap_or_default());
        let id = next("id")?;
        let parent = next("parent")?;
        let frame = next("frame")?;
        let calls = next("calls")?;
        let bytecodes = next("bytecodes")?;
        let site = match fields.next() {
            Some(field) if self.version >= SITES_FORMAT_VERSION => Some(call_site(field)?),
            Some(_) => return Err(malformed("node", "more than 5 fields".to_owned())),
            None => None,
        };
        if fields.next().is_some() {
            return Err(malformed("node", "more than 6 fields".to_owned()));
        }
        if id == 0 {
            return Err(malformed("node", "id 0 (ids are positive)".to_owned()));
        }
        if !self.line_records.is_empty() {
            return Err(malformed("node", "after a `line` record".to_owned()));
        }
        if !self.value_records.is_empty() {
            return Err(malformed("node", "after a `value` record".to_owned()));
        }
        if self.nodes.get(id).is_some() {
            return Err(ParseErrorKind::Duplicate { record: "node", id });
        }
        let unknown = |what, to| ParseErrorKind::UnknownReference {
            node: id,
            what,
            id: to,
        };
        let parent_node = match parent {
            0 => NodeId::ROOT,
            _ => NodeId(self.nodes.get(parent).ok_or_else(|| unknown("parent", parent))?),
        };
        if parent_node != NodeId::ROOT && !self.in_section(parent_node) {
            return Err(ParseErrorKind::ParentInOtherGroup { node: id, parent });
        }
        let frame_id = FrameId(self.frames.get(frame).ok_or_else(|| unknown("frame", frame))?);
        let key = (self.parent_key(parent), frame, site);
        if let Some(pairs) = &mut self.pairs {
            match pairs.entry(key) {
                Entry::Occupied(first) => {
                    return Err(ParseErrorKind::RepeatedContext {
                        node: id,
                        first: *first.get(),
                    })
                }
                Entry::Vacant(slot) => {
                    slot.insert(id);
                }
            }
        }
        let (node, _) = self.profile.insert_child(parent_node, frame_id, site);
        if self.in_section(node) && self.pairs.is_none() {
            let first = self.nodes.id_of(node.0).unwrap_or_default();
            return Err(ParseErrorKind::RepeatedContext { node: id, first });
        }
        self.profile.add(node, calls, bytecodes);
        if self.section > 0 {
            let group = self.profile.threads.last_mut().expect("a group per section");
            group.push(node, calls, bytecodes);
        }
        self.mark_section(node);
        self.nodes.insert(id, node.0);
        self.node_records += 1;
        Ok(())
    }

    /// `thread <threads> <name>`: the nodes that follow are that group's.
    fn thread(&mut self, rest: &[u8]) -> Result<(), ParseErrorKind> {
        self.state = State::Body;
        if !self.line_records.is_empty() {
            return Err(malformed("thread", "after a `line` record".to_owned()));
        }
        let (threads, name) = split_field(rest);
        let threads = number("thread", "thread count", threads)?;
        if name.is_empty() {
            return Err(malformed("thread", "missing name".to_owned()));
        }
        let name = unescape("thread", utf8("thread", "name", name)?)?;
        if self.profile.threads.iter().any(|group| group.name() == name) {
            return Err(ParseErrorKind::RepeatedThreadGroup(name));
        }
        // Nodes read before the first group are in none.
        if self.section == 0 {
            self.profile.group_all_contexts();
        }
        self.profile.group_mut(&name).add_threads(threads);
        self.section += 1;
        Ok(())
    }

    /// `metric <id> <name> <exact|sampled> <unit>`: an extra metric, before
    /// any `thread` or `node` record.
    fn metric(&mut self, rest: &[u8]) -> Result<(), ParseErrorKind> {
        self.state = State::Body;
        if self.section > 0 || self.node_records > 0 {
            return Err(malformed(
                "metric",
                "after a `thread` or `node` record".to_owned(),
            ));
        }
        let (id, rest) = split_field(rest);
        let (name, rest) = split_field(rest);
        let (kind, unit) = split_field(rest);
        let id = number("metric", "id", id)?;
        if id == 0 {
            return Err(malformed("metric", "id 0 (ids are positive)".to_owned()));
        }
        if self.metrics.iter().any(|&(known, _)| known == id) {
            return Err(ParseErrorKind::Duplicate { record: "metric", id });
        }
        let name = utf8("metric", "name", name)?;
        if !valid_metric_name(name) {
            let detail = format!("`{}` cannot name a metric", printable(name.as_bytes()));
            return Err(malformed("metric", detail));
        }
        if self.profile.metric(name).is_some() {
            return Err(ParseErrorKind::RepeatedMetric(name.to_owned()));
        }
        let kind = MetricKind::from_name(utf8("metric", "kind", kind)?).ok_or_else(|| {
            let detail = format!("kind `{}` is neither `exact` nor `sampled`", printable(kind));
            malformed("metric", detail)
        })?;
        if unit.is_empty() {
            return Err(malformed("metric", "missing unit".to_owned()));
        }
        let unit = unescape("metric", utf8("metric", "unit", unit)?)?;
        let info = MetricInfo {
            name: name.to_owned().into(),
            unit: unit.into(),
            kind,
        };
        let metric = self.profile.define_metric(info);
        self.metrics.push((id, metric));
        Ok(())
    }

    /// `value <node> <metric> <value>`: a context's own value in an extra
    /// metric, after the last `node` record.
    fn value(&mut self, rest: &[u8]) -> Result<(), ParseErrorKind> {
        let mut fields = rest.split(|&b| b == b' ');
        let mut next = |what| number("value", what, fields.next().unwrap_or_default());
        let node = next("node")?;
        let metric = next("metric")?;
        let value = next("value")?;
        if fields.next().is_some() {
            return Err(malformed("value", "more than 3 fields".to_owned()));
        }
        if !self.line_records.is_empty() {
            return Err(malformed("value", "after a `line` record".to_owned()));
        }
        let unknown = |what, id| ParseErrorKind::UnknownValueReference { what, id };
        let context = NodeId(self.nodes.get(node).ok_or_else(|| unknown("node", node))?);
        let &(_, extra) = self
            .metrics
            .iter()
            .find(|&&(id, _)| id == metric)
            .ok_or_else(|| unknown("metric", metric))?;
        if !self.value_records.insert((node, metric)) {
            return Err(ParseErrorKind::RepeatedValue { node, metric });
        }
        self.profile.add_value(context, extra, value);
        Ok(())
    }

    /// Whether the current section has a node of `context`.
    fn in_section(&self, context: NodeId) -> bool {
        self.section_of.get(context.0 as usize) == Some(&(self.section + 1))
    }

    fn mark_section(&mut self, context: NodeId) {
        let index = context.0 as usize;
        if self.section_of.len() <= index {
            self.section_of.resize(index + 1, 0);
        }
        self.section_of[index] = self.section + 1;
    }

    /// The file parent id of a node, as [`Parser::pairs`] keys it: a
    /// top-level node's parent 0 becomes one past the largest id, less the
    /// section, as top-level nodes of two groups may share a frame.
    fn parent_key(&self, parent: u64) -> u64 {
        match parent {
            0 => u64::MAX - u64::from(self.section),
            _ => parent,
        }
    }

    fn line_count(&mut self, rest: &[u8]) -> Result<(), ParseErrorKind> {
        self.state = State::Body;
        let mut fields = rest.split(|&b| b == b' ');
        let mut next = |what| number("line", what, fields.next().unwrap_or_default());
        let frame = next("frame")?;
        let line = next("line")?;
        let bytecodes = next("bytecodes")?;
        if fields.next().is_some() {
            return Err(malformed("line", "more than 3 fields".to_owned()));
        }
        let line = u32::try_from(line)
            .ok()
            .filter(|&l| l > 0)
            .ok_or_else(|| malformed("line", format!("line {line} (lines are from 1 to 2^32 - 1)")))?;
        let id = FrameId(
            self.frames
                .get(frame)
                .ok_or(ParseErrorKind::UnknownLineFrame(frame))?,
        );
        if !self.line_records.insert((frame, line)) {
            return Err(ParseErrorKind::RepeatedLine {
                frame,
                line: u64::from(line),
            });
        }
        self.profile.add_line(id, line, bytecodes);
        Ok(())
    }

    /// Switches to telling contexts apart by (parent id, frame id), once a
    /// frame name repeats. Until now frames and nodes of the file map one
    /// to one onto the model's, so their pairs are read back from it.
    fn tell_contexts_by_file_ids(&mut self) {
        let mut node_ids = vec![0; self.profile.nodes().len()];
        for (id, node) in self.nodes.iter() {
            node_ids[node as usize] = id;
        }
        let mut frame_ids = vec![0; self.profile.frames().len()];
        for (id, frame) in self.frames.iter() {
            frame_ids[frame as usize] = id;
        }
        let pairs = self
            .profile
            .nodes()
            .iter()
            .enumerate()
            .skip(1)
            .map(|(index, node)| {
                let parent = self.parent_key(node_ids[node.parent.0 as usize]);
                let key = (
                    parent,
                    frame_ids[node.frame.0 as usize],
                    self.profile.site(NodeId(index as u32)),
                );
                (key, node_ids[index])
            });
        self.pairs = Some(pairs.collect());
    }
}

fn check_header(line: &[u8]) -> Result<u64, ParseErrorKind> {
    let version = line
        .strip_prefix(b"jp-profile ")
        .and_then(|v| number("jp-profile", "version", v).ok())
        .ok_or(ParseErrorKind::NotAProfile)?;
    match version {
        0 => Err(ParseErrorKind::NotAProfile),
        1..=FORMAT_VERSION => Ok(version),
        found => Err(ParseErrorKind::NewerVersion { found }),
    }
}

/// The text before the first space and the text after it.
fn split_field(line: &[u8]) -> (&[u8], &[u8]) {
    match line.iter().position(|&b| b == b' ') {
        Some(space) => (&line[..space], &line[space + 1..]),
        None => (line, &[]),
    }
}

/// An unsigned decimal that fits in 64 bits.
/// A context as the file names it: (file parent id, file frame id, call site).
type FileContext = (u64, u64, Option<CallSite>);

/// A `node` record's call site, `<bci>` or `<bci>:<line>`.
fn call_site(field: &[u8]) -> Result<CallSite, ParseErrorKind> {
    std::str::from_utf8(field)
        .ok()
        .and_then(CallSite::from_record)
        .ok_or_else(|| {
            let field = printable(field);
            malformed(
                "node",
                format!("call site `{field}` is not <bci> or <bci>:<line>"),
            )
        })
}

fn number(record: &'static str, what: &str, field: &[u8]) -> Result<u64, ParseErrorKind> {
    if field.is_empty() {
        return Err(malformed(record, format!("missing {what}")));
    }
    let mut value: u64 = 0;
    for &byte in field {
        if !byte.is_ascii_digit() {
            let field = printable(field);
            return Err(malformed(
                record,
                format!("{what} `{field}` is not an unsigned decimal number"),
            ));
        }
        value = value
            .checked_mul(10)
            .and_then(|v| v.checked_add(u64::from(byte - b'0')))
            .ok_or_else(|| {
                malformed(
                    record,
                    format!("{what} {} does not fit in 64 bits", printable(field)),
                )
            })?;
    }
    Ok(value)
}

fn utf8<'a>(record: &'static str, what: &str, field: &'a [u8]) -> Result<&'a str, ParseErrorKind> {
    std::str::from_utf8(field).map_err(|_| malformed(record, format!("{what} is not UTF-8")))
}

/// `\\` is `\` and `\n` a line break; any other escape is an error.
fn unescape(record: &'static str, text: &str) -> Result<String, ParseErrorKind> {
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
            other => {
                let escape = other
                    .map(|c| format!("\\{}", c.escape_debug()))
                    .unwrap_or("\\".into());
                return Err(ParseErrorKind::BadEscape { record, escape });
            }
        }
    }
    Ok(out)
}

fn malformed(record: &'static str, detail: String) -> ParseErrorKind {
    ParseErrorKind::Malformed { record, detail }
}

/// Bytes from the file, for a message: invalid UTF-8 replaced, control
/// characters (a stray `\r`, say) escaped, and at most 60 characters.
fn printable(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let mut out: String = text.chars().take(60).flat_map(char::escape_debug).collect();
    if text.chars().nth(60).is_some() {
        out.push_str("...");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::CallSite;

    fn read(text: &str) -> Result<Profile, ParseError> {
        parse(text.as_bytes(), Path::new("p.jpprof"))
    }

    fn message(text: &str) -> String {
        match read(text) {
            Ok(_) => panic!("read without error:\n{text}"),
            Err(error) => error.to_string(),
        }
    }

    const GOOD: &str = "jp-profile 1\n\
        meta agent default\n\
        meta jvm OpenJDK 64-Bit Server VM 17.0.15\n\
        meta threads 3\n\
        frame 1 demo.A.main([Ljava/lang/String;)V\n\
        frame 2 demo.A.f(I)J\n\
        node 1 0 1 1 5\n\
        node 2 1 2 10 100\n\
        end 2\n";

    #[test]
    fn a_well_formed_profile_reads_into_a_tree() {
        let profile = read(GOOD).unwrap();
        assert_eq!(profile.context_count(), 2);
        assert_eq!(
            profile.path(NodeId(2)),
            ["demo.A.main([Ljava/lang/String;)V", "demo.A.f(I)J"]
        );
        let f = profile.node(NodeId(2));
        assert_eq!((f.calls, f.bytecodes), (10, 100));
        assert_eq!(profile.meta["jvm"], "OpenJDK 64-Bit Server VM 17.0.15");
        assert_eq!(profile.meta["threads"], "3");
        assert_eq!(profile.files, 1);
    }

    #[test]
    fn the_example_of_the_format_document_reads() {
        let doc = include_str!("../../../docs/profile-format.md");
        let start = doc.find("```\njp-profile").unwrap() + 4;
        let end = start + doc[start..].find("```").unwrap();
        let profile = read(&doc[start..end]).unwrap();
        assert_eq!(profile.context_count(), 2);
        assert_eq!(profile.meta["bba"], "precise");
    }

    #[test]
    fn an_empty_profile_is_a_header_and_an_end() {
        let profile = read("jp-profile 1\nend 0\n").unwrap();
        assert_eq!(profile.context_count(), 0);
        assert!(profile.meta.is_empty());
    }

    #[test]
    fn ids_need_only_be_unique_not_in_order() {
        let text =
            "jp-profile 1\nframe 20 b\nframe 7 a\nnode 9 0 7 1 1\nnode 3 9 20 2 2\nnode 100 3 7 3 3\nend 3\n";
        let profile = read(text).unwrap();
        assert_eq!(profile.path(NodeId(3)), ["a", "b", "a"]);
        assert_eq!(profile.node(NodeId(3)).calls, 3);
    }

    #[test]
    fn a_newer_version_is_refused_saying_so() {
        assert_eq!(
            message("jp-profile 6\nsomething new\n"),
            "p.jpprof:1: written by a newer JP: format version 6, this JP reads up to version 5"
        );
    }

    #[test]
    fn a_call_site_ends_a_node_record_from_version_5_on_and_splits_contexts() {
        let body = "frame 1 a.B.m()V\nframe 2 a.B.f()V\nnode 1 0 1 1 1\nnode 2 1 2 3 30 7:12\nnode 3 1 2 2 20 9\nnode 4 1 2 1 10\nend 4\n";
        assert_eq!(
            message(&format!("jp-profile 4\n{body}")),
            "p.jpprof:5: malformed `node` record: more than 5 fields"
        );
        let profile = read(&format!("jp-profile 5\n{body}")).unwrap();
        let f = profile.frame_id("a.B.f()V").unwrap();
        let at = |site| {
            profile
                .child_at(NodeId(1), f, site)
                .map(|id| profile.node(id).calls)
        };
        assert_eq!(
            at(Some(CallSite {
                bci: 7,
                line: Some(12)
            })),
            Some(3)
        );
        assert_eq!(at(Some(CallSite { bci: 9, line: None })), Some(2));
        assert_eq!(at(None), Some(1));
        let mut written = Vec::new();
        crate::write(&profile, &mut written).unwrap();
        assert_eq!(
            String::from_utf8(written).unwrap(),
            format!("jp-profile 5\n{body}")
        );
    }

    #[test]
    fn bad_or_repeated_call_sites_are_refused_with_their_line() {
        let cases = [
            (
                "node 2 1 1 1 1 x\n",
                "p.jpprof:4: malformed `node` record: call site `x` is not <bci> or <bci>:<line>",
            ),
            (
                "node 2 1 1 1 1 3:0\n",
                "p.jpprof:4: malformed `node` record: call site `3:0` is not <bci> or <bci>:<line>",
            ),
            (
                "node 2 1 1 1 1 3 4\n",
                "p.jpprof:4: malformed `node` record: more than 6 fields",
            ),
            (
                "node 2 1 1 1 1 3:4\nnode 3 1 1 1 1 3:4\n",
                "p.jpprof:5: node 3 has the same parent and frame as node 2",
            ),
        ];
        for (records, expected) in cases {
            let text = format!("jp-profile 5\nframe 1 a\nnode 1 0 1 1 1\n{records}end 9\n");
            assert_eq!(message(&text), expected, "{records}");
        }
    }

    #[test]
    fn metric_and_value_records_belong_to_version_4() {
        let body = "frame 1 a\nmetric 1 cpu-samples sampled samples\nnode 1 0 1 1 1\nvalue 1 1 9\nend 1\n";
        assert_eq!(
            message(&format!("jp-profile 3\n{body}")),
            "p.jpprof:3: unknown record `metric`"
        );
        let profile = read(&format!("jp-profile 4\n{body}")).unwrap();
        let cpu = profile.metric("cpu-samples").unwrap();
        assert_eq!(profile.value(NodeId(1), cpu), 9);
        assert_eq!(profile.metric_info(cpu).kind, crate::MetricKind::Sampled);
    }

    #[test]
    fn bad_metric_and_value_records_are_refused_with_their_line() {
        let cases = [
            (
                "metric 1 calls exact calls\n",
                "p.jpprof:3: malformed `metric` record: `calls` cannot name a metric",
            ),
            (
                "metric 1 t roughly ns\n",
                "p.jpprof:3: malformed `metric` record: kind `roughly` is neither `exact` nor `sampled`",
            ),
            (
                "metric 1 t exact\n",
                "p.jpprof:3: malformed `metric` record: missing unit",
            ),
            (
                "metric 1 t exact ns\nmetric 2 t exact ns\n",
                "p.jpprof:4: metric `t` is defined twice",
            ),
            (
                "metric 1 t exact ns\nmetric 1 u exact ns\n",
                "p.jpprof:4: metric 1 is defined twice",
            ),
            (
                "node 1 0 1 1 1\nmetric 1 t exact ns\n",
                "p.jpprof:4: malformed `metric` record: after a `thread` or `node` record",
            ),
            (
                "metric 1 t exact ns\nnode 1 0 1 1 1\nvalue 2 1 1\n",
                "p.jpprof:5: a `value` record refers to unknown node 2",
            ),
            (
                "metric 1 t exact ns\nnode 1 0 1 1 1\nvalue 1 2 1\n",
                "p.jpprof:5: a `value` record refers to unknown metric 2",
            ),
            (
                "metric 1 t exact ns\nnode 1 0 1 1 1\nvalue 1 1 1\nvalue 1 1 2\n",
                "p.jpprof:6: node 1 has two values of metric 1",
            ),
            (
                "metric 1 t exact ns\nnode 1 0 1 1 1\nvalue 1 1 1\nnode 2 0 1 1 1\n",
                "p.jpprof:6: malformed `node` record: after a `value` record",
            ),
        ];
        for (records, expected) in cases {
            assert_eq!(
                message(&format!("jp-profile 4\nframe 1 a\n{records}end 1\n")),
                expected,
                "{records}"
            );
        }
    }

    #[test]
    fn thread_records_belong_to_version_3_and_start_a_group_of_its_own() {
        let v3 = |body: &str| format!("jp-profile 3\nframe 1 a.B.m()V\nframe 2 a.B.n()V\n{body}");
        assert!(read(&v3(
            "thread 1 main\nnode 1 0 1 1 5\nthread 2 w-#\nnode 2 0 1 1 5\nend 2\n"
        ))
        .is_ok());
        assert_eq!(
            message("jp-profile 2\nthread 1 main\nend 0\n"),
            "p.jpprof:2: unknown record `thread`"
        );
        assert_eq!(
            message(&v3("thread 1 main\nnode 1 0 1 1 5\nnode 2 0 1 1 5\nend 2\n")),
            "p.jpprof:6: node 2 has the same parent and frame as node 1"
        );
        assert_eq!(
            message(&v3(
                "thread 1 main\nnode 1 0 1 1 5\nthread 2 w-#\nnode 2 1 2 1 5\nend 2\n"
            )),
            "p.jpprof:7: node 2 has parent 1, a node of another thread group"
        );
        assert_eq!(
            message(&v3("thread 1 main\nthread 2 main\nend 0\n")),
            "p.jpprof:5: thread group `main` is defined twice"
        );
        assert_eq!(
            message(&v3("thread x main\nend 0\n")),
            "p.jpprof:4: malformed `thread` record: thread count `x` is not an unsigned decimal number"
        );
        assert_eq!(
            message(&v3("thread 1\nend 0\n")),
            "p.jpprof:4: malformed `thread` record: missing name"
        );
        assert_eq!(
            message(&v3("thread 1 main\nframe 3 a.B.o()V\nend 0\n")),
            "p.jpprof:5: malformed `frame` record: after a `thread` record"
        );
    }

    #[test]
    fn nodes_before_the_first_thread_record_are_in_no_group() {
        let profile =
            read("jp-profile 3\nframe 1 a()V\nnode 1 0 1 2 3\nthread 1 main\nnode 2 0 1 1 1\nend 2\n")
                .unwrap();
        let groups: Vec<(&str, (u64, u64))> = profile
            .thread_groups()
            .iter()
            .map(|group| (group.name(), group.totals()))
            .collect();
        assert_eq!(groups, [("", (2, 3)), ("main", (1, 1))]);
        assert_eq!(profile.context_count(), 1);
    }

    #[test]
    fn repeated_frame_names_merge_within_a_group_and_across_groups() {
        let profile = read(
            "jp-profile 3\nframe 1 a()V\nframe 2 a()V\nthread 1 main\nnode 1 0 1 1 1\nnode 2 0 2 1 1\n\
             thread 1 w-#\nnode 3 0 1 5 5\nend 3\n",
        )
        .unwrap();
        assert_eq!(profile.context_count(), 1);
        assert_eq!(profile.thread_groups()[0].counts(), [(NodeId(1), 2, 2)]);
        assert_eq!(profile.node(NodeId(1)).calls, 7);
    }

    #[test]
    fn line_records_belong_to_version_2_after_the_nodes_once_per_frame_and_line() {
        let v2 = |body: &str| format!("jp-profile 2\nframe 1 a.B.m()V\nnode 1 0 1 1 5\n{body}end 1\n");
        assert!(read(&v2("line 1 3 4\nline 1 4 1\n")).is_ok());
        assert_eq!(
            message("jp-profile 1\nframe 1 a.B.m()V\nnode 1 0 1 1 5\nline 1 3 4\nend 1\n"),
            "p.jpprof:4: unknown record `line`"
        );
        assert_eq!(
            message(&v2("line 1 3 4\nline 1 3 1\n")),
            "p.jpprof:5: line 3 of frame 1 is counted twice"
        );
        assert_eq!(
            message(&v2("line 2 3 4\n")),
            "p.jpprof:4: a `line` record refers to unknown frame 2"
        );
        assert!(message(&v2("line 1 0 4\n")).contains("malformed `line` record: line 0"));
        assert!(message(&v2("line 1 3\n")).contains("missing bytecodes"));
        assert!(message(&v2("line 1 3 4 5\n")).contains("more than 3 fields"));
        let late_node = "jp-profile 2\nframe 1 a.B.m()V\nline 1 3 4\nnode 1 0 1 1 5\nend 1\n";
        assert!(message(late_node).contains("after a `line` record"));
    }

    #[test]
    fn a_missing_or_garbled_header_is_not_a_profile() {
        let not = "not a JP profile: the first line must be `jp-profile <version>`";
        assert_eq!(message("frame 1 a\nend 0\n"), format!("p.jpprof:1: {not}"));
        assert_eq!(message("jp-profile one\n"), format!("p.jpprof:1: {not}"));
        assert_eq!(message("jp-profile 0\n"), format!("p.jpprof:1: {not}"));
        assert_eq!(message("jp-profile  1\n"), format!("p.jpprof:1: {not}"));
        assert_eq!(message("\u{feff}jp-profile 1\n"), format!("p.jpprof:1: {not}"));
        assert_eq!(message(""), "p.jpprof:1: empty file, not a JP profile");
        let binary = vec![b'x'; 1 << 20];
        let error = parse(&binary[..], Path::new("p.jpprof")).unwrap_err();
        assert_eq!(error.to_string(), format!("p.jpprof:1: {not}"));
    }

    #[test]
    fn crlf_line_endings_read_as_the_same_profile() {
        let profile = read(&GOOD.replace('\n', "\r\n")).unwrap();
        let expected = read(GOOD).unwrap();
        assert_eq!(profile.nodes(), expected.nodes());
        assert_eq!(profile.frames(), expected.frames());
        assert_eq!(profile.meta, expected.meta);
        // A carriage return in a file of plain line breaks is still an error.
        assert!(message(&GOOD.replace("10 100", "10 100\r")).contains("bytecodes `100\\r` is not"));
        // A CRLF file cut inside its last line is truncated.
        let cut = GOOD.replace('\n', "\r\n");
        assert!(message(cut.trim_end()).contains("truncated: the last line has no line break"));
    }

    #[test]
    fn a_file_without_end_is_truncated() {
        let cut = &GOOD[..GOOD.find("end").unwrap()];
        assert_eq!(
            message(cut),
            "p.jpprof:9: truncated: the file ends without its `end` record"
        );
        assert_eq!(
            message("jp-profile 1\n"),
            "p.jpprof:2: truncated: the file ends without its `end` record"
        );
    }

    #[test]
    fn a_file_cut_inside_a_line_is_truncated() {
        let cut = &GOOD[..GOOD.find("10 100").unwrap() + 4];
        assert_eq!(
            message(cut),
            "p.jpprof:8: truncated: the last line has no line break"
        );
        // `end 2` could have been `end 23`.
        assert_eq!(
            message(GOOD.trim_end()),
            "p.jpprof:9: truncated: the last line has no line break"
        );
        assert_eq!(
            message("jp-profile 1"),
            "p.jpprof:1: truncated: the last line has no line break"
        );
    }

    #[test]
    fn references_must_point_back_to_earlier_records() {
        let text = GOOD.replace("node 2 1 2", "node 2 9 2");
        assert_eq!(message(&text), "p.jpprof:8: node 2 refers to unknown parent 9");
        let text = GOOD.replace("node 2 1 2", "node 2 1 7");
        assert_eq!(message(&text), "p.jpprof:8: node 2 refers to unknown frame 7");
        let forward = "jp-profile 1\nframe 1 a\nnode 1 2 1 1 1\nnode 2 0 1 1 1\nend 2\n";
        assert_eq!(message(forward), "p.jpprof:3: node 1 refers to unknown parent 2");
        let itself = "jp-profile 1\nframe 1 a\nnode 1 1 1 1 1\nend 1\n";
        assert_eq!(message(itself), "p.jpprof:3: node 1 refers to unknown parent 1");
        let frame_later = "jp-profile 1\nnode 1 0 1 1 1\nframe 1 a\nend 1\n";
        assert_eq!(
            message(frame_later),
            "p.jpprof:2: node 1 refers to unknown frame 1"
        );
    }

    #[test]
    fn ids_are_defined_once() {
        assert_eq!(
            message(&GOOD.replace("node 2 1 2", "node 1 1 2")),
            "p.jpprof:8: node 1 is defined twice"
        );
        assert_eq!(
            message(&GOOD.replace("frame 2 ", "frame 1 ")),
            "p.jpprof:6: frame 1 is defined twice"
        );
        assert!(message(&GOOD.replace("frame 2 ", "frame 0 ")).contains("malformed `frame` record: id 0"));
        assert!(message(&GOOD.replace("node 2 1 2", "node 0 1 2")).contains("malformed `node` record: id 0"));
    }

    #[test]
    fn a_parent_has_one_child_per_frame() {
        assert_eq!(
            message(&GOOD.replace("node 2 1 2", "node 2 0 1")),
            "p.jpprof:8: node 2 has the same parent and frame as node 1"
        );
    }

    #[test]
    fn frames_sharing_a_name_make_one_context_under_one_parent() {
        let text = "jp-profile 1\nframe 1 main\nframe 2 f\nframe 3 f\nframe 4 g\n\
            node 1 0 1 1 1\nnode 2 1 2 2 20\nnode 3 1 3 3 30\nnode 4 2 4 1 4\nnode 5 3 4 1 5\nend 5\n";
        let profile = read(text).unwrap();
        assert_eq!(profile.context_count(), 3);
        let f = profile.node(NodeId(2));
        assert_eq!((f.calls, f.bytecodes), (5, 50));
        assert_eq!(profile.node(NodeId(3)).bytecodes, 9);
        // A real repetition is still one.
        let twice = text.replace("node 5 3 4", "node 5 2 4");
        assert_eq!(
            message(&twice),
            "p.jpprof:10: node 5 has the same parent and frame as node 4"
        );
    }

    #[test]
    fn numbers_are_unsigned_decimals_that_fit_in_64_bits() {
        let at_max = GOOD.replace("10 100", "18446744073709551615 0");
        assert_eq!(read(&at_max).unwrap().node(NodeId(2)).calls, u64::MAX);
        assert_eq!(
            message(&GOOD.replace("10 100", "10 18446744073709551616")),
            "p.jpprof:8: malformed `node` record: bytecodes 18446744073709551616 does not fit in 64 bits"
        );
        assert_eq!(
            message(&GOOD.replace("10 100", "10 x")),
            "p.jpprof:8: malformed `node` record: bytecodes `x` is not an unsigned decimal number"
        );
        assert!(message(&GOOD.replace("10 100", "-1 100")).contains("calls `-1` is not"));
        assert!(message(&GOOD.replace("10 100", "+1 100")).contains("calls `+1` is not"));
        assert!(message(&GOOD.replace("10 100", "10 100\r")).contains("bytecodes `100\\r` is not"));
        assert!(message(&GOOD.replace("10 100", "10")).contains("missing bytecodes"));
        assert!(message(&GOOD.replace("10 100", "10 100 7")).contains("more than 5 fields"));
        assert!(message(&GOOD.replace("10 100", "10  100")).contains("missing bytecodes"));
        assert!(message(&GOOD.replace("meta threads 3", "meta threads three")).contains("threads `three`"));
    }

    #[test]
    fn end_counts_the_nodes_and_nothing_follows_it() {
        assert_eq!(
            message(&GOOD.replace("end 2", "end 3")),
            "p.jpprof:9: `end` says 3 nodes, the file has 2"
        );
        assert_eq!(
            message(&format!("{GOOD}node 3 0 2 1 1\n")),
            "p.jpprof:10: content after the `end` record"
        );
        assert_eq!(
            message(&format!("{GOOD}\n")),
            "p.jpprof:10: content after the `end` record"
        );
        assert!(message(&GOOD.replace("end 2", "end")).contains("missing node count"));
    }

    #[test]
    fn unknown_records_empty_lines_and_late_metadata_are_refused() {
        assert_eq!(
            message(&GOOD.replace("meta agent", "metadata agent")),
            "p.jpprof:2: unknown record `metadata`"
        );
        assert_eq!(
            message(&GOOD.replace("meta agent default\n", "\n")),
            "p.jpprof:2: empty line"
        );
        assert_eq!(
            message(&GOOD.replace("node 1 0", "meta late yes\nnode 1 0")),
            "p.jpprof:7: `meta` record after the first `frame` record"
        );
        assert!(message(&GOOD.replace("frame 2 demo.A.f(I)J", "frame 2")).contains("missing name"));
        assert!(message(&GOOD.replace("frame 2 demo.A.f(I)J", "frame 2 ")).contains("missing name"));
    }

    #[test]
    fn unknown_metadata_keys_are_kept_and_the_last_value_wins() {
        let text = GOOD.replace(
            "meta threads 3",
            "meta threads 3\nmeta colour blue\nmeta agent other",
        );
        let profile = read(&text).unwrap();
        assert_eq!(profile.meta["colour"], "blue");
        assert_eq!(profile.meta["agent"], "other");
    }

    #[test]
    fn names_are_unescaped_and_may_hold_spaces() {
        let text = GOOD.replace("demo.A.f(I)J", "demo.A.a\\\\b\\nc d(I)J");
        let profile = read(&text).unwrap();
        assert_eq!(profile.path(NodeId(2))[1], "demo.A.a\\b\nc d(I)J");
        let text = GOOD.replace("OpenJDK", "Open\\\\JDK");
        assert_eq!(
            read(&text).unwrap().meta["jvm"],
            "Open\\JDK 64-Bit Server VM 17.0.15"
        );
    }

    #[test]
    fn other_escapes_are_refused() {
        assert_eq!(
            message(&GOOD.replace("demo.A.f(I)J", "demo.A.\\t()V")),
            "p.jpprof:6: bad escape `\\t` in frame record: only `\\\\` and `\\n` are escapes"
        );
        assert!(message(&GOOD.replace("demo.A.f(I)J", "demo.A.f()V\\")).contains("bad escape `\\`"));
    }

    #[test]
    fn names_must_be_utf8() {
        let mut bytes = GOOD.as_bytes().to_vec();
        let at = GOOD.find("f(I)J").unwrap();
        bytes[at] = 0xff;
        let error = parse(&bytes[..], Path::new("p.jpprof")).unwrap_err();
        assert_eq!(
            error.to_string(),
            "p.jpprof:6: malformed `frame` record: name is not UTF-8"
        );
    }

    #[test]
    fn a_missing_file_is_named_without_a_line() {
        let error = parse_file(Path::new("/nonexistent/p.jpprof")).unwrap_err();
        assert!(error.line.is_none());
        assert!(
            error.to_string().starts_with("/nonexistent/p.jpprof: "),
            "{error}"
        );
    }
}
