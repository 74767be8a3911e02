//! pprof's profile format (`profile.proto` of github.com/google/pprof,
//! gzipped protocol buffers), for `go tool pprof`, Grafana Pyroscope and
//! the other tools that read it.
//!
//! Both metrics go into one file as two sample types, `calls/count` and
//! `bytecodes/count`; `default_sample_type` is `options.metric`'s. Each
//! shown context with a value of its own is one sample: its own (self)
//! values, and its stack as location ids, innermost first. pprof adds the
//! samples up into its totals, so the subtree totals come out as JP's.
//! Each frame is one function:
//! - `name`: the readable frame ([`crate::names::readable`]) without its
//!   return type, `pkg.Class.method(java.util.List,int)`, which pprof's
//!   views shorten as they do for Java; the return type stays when two
//!   frames of the file would otherwise read the same (bridge methods);
//! - `system_name`: the frame exactly as the profile names it, with its
//!   JVMS descriptor: stable and unambiguous; empty when it is the name
//!   already (a test frame), since pprof would shorten such a name as if it
//!   were a C++ one, dropping a test's parameter list;
//! - `filename`: empty, since a class's source file is not known here.
//!
//! A test frame (`[test] <test id>`) is a function like any other, so that
//! a test stays at the bottom of the stacks under it. Each function has one
//! location, with one line, numbered 0 ([`Locations`]): per-line counts are
//! merged per method over its contexts, so they cannot be given to the
//! stacks of the samples, and are left out (docs/cli.md, `pprof`).
//! One mapping holds every location and says that their functions are
//! known, so that pprof does not look for a binary to symbolize.
//!
//! A profile with thread groups gives each context one sample per group
//! that ran it, with the group's own values and a label `thread group`
//! naming it (none for the contexts in no group), so that
//! `go tool pprof -tagfocus 'thread group=main'` or Pyroscope's label
//! filters show one group; without a filter the samples add up to the
//! merged profile's values.
//!
//! The metadata that describes the run (`jvm`, `bba`, `command`) goes into
//! comments; times and the process id do not, nor does anything else that
//! differs between two runs: the same profile gives the same bytes. Ids,
//! the string table and the samples follow the frames' name order and,
//! depth first, the siblings' name order, so the file depends on neither
//! the order of the records nor that of the profiles merged. pprof's values
//! are signed: a count above `i64::MAX` is written as `i64::MAX`.
//!
//! Contexts that `--threshold` or `--max-depth` hide are left out, as in
//! [`crate::folded`]. As in a folded line, a sample lists every frame above
//! its context, so the file grows with the contexts' depths: [`size`] gives
//! its exact size before compression, which the size limit applies to (it
//! is what a reader decodes and holds), before anything is written.

mod proto;

use std::collections::HashMap;
use std::io::{self, Write};

use flate2::write::GzEncoder;
use flate2::Compression;
use jp_profile::{Metric, MetricKind, Node, NodeId, Profile, ThreadGroup};
use prost::encoding::encoded_len_varint;
use prost::Message;

use crate::limit::StackSize;
use crate::order::{self, FrameIndex};
use crate::{names, Options, Totals, Visible};
use proto::{Function, Line, Location, Mapping, Sample, ValueType};

/// The sample types of the exact counts, in the order of each sample's
/// values; the profile's extra metrics follow, each with its unit.
const SAMPLE_TYPES: [(Metric, &str); 2] = [(Metric::Calls, "calls"), (Metric::Bytecodes, "bytecodes")];

/// The metadata written as comments (`key: value`), in this order.
const COMMENTED_META: [&str; 3] = ["jvm", "bba", "command"];

/// Profile field number of a sample, for writing samples one by one.
const SAMPLE_FIELD: u32 = 2;

/// The id of the one mapping, which every location is in.
const MAPPING: u64 = 1;

/// The key of the samples' thread-group label.
const GROUP_LABEL: &str = "thread group";

/// Writes `profile` as a gzipped pprof file: the tables first, then the
/// samples one by one (a protocol buffer's fields may come in any number
/// of pieces, so the samples never need to be held together).
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, options: &Options, out: impl Write) -> io::Result<()> {
    let file = File::of(profile, options);
    let mut gzip = GzEncoder::new(out, Compression::default());
    gzip.write_all(&file.tables.encode_to_vec())?;
    let mut buffer: Vec<u8> = Vec::with_capacity(1 << 16);
    let mut sample = Sample::default();
    // Location ids of the current path, outermost first.
    let mut stack: Vec<u64> = Vec::new();
    // (context, number of frames above it); pushed in reverse order, popped in order.
    let mut work: Vec<(NodeId, usize)> = Vec::new();
    let mut siblings: Vec<NodeId> = Vec::new();
    let mut push_children = |id: NodeId, depth: usize, work: &mut Vec<(NodeId, usize)>| {
        order::by_name(profile, id, &file.frames.rank, &mut siblings);
        let shown = siblings
            .iter()
            .rev()
            .filter(|&&child| file.visible.is_shown(child));
        work.extend(shown.map(|&child| (child, depth)));
    };
    push_children(NodeId::ROOT, 0, &mut work);
    while let Some((id, depth)) = work.pop() {
        let node = profile.node(id);
        stack.truncate(depth);
        stack.push(file.location[node.frame.0 as usize]);
        for (label, values) in file.samples(profile, id, node) {
            sample.location_id.clear();
            sample.location_id.extend(stack.iter().rev());
            sample.value.clear();
            sample.value.extend(values);
            sample.label.clear();
            sample.label.extend(label.cloned());
            prost::encoding::message::encode(SAMPLE_FIELD, &sample, &mut buffer);
            if buffer.len() >= 1 << 16 {
                gzip.write_all(&buffer)?;
                buffer.clear();
            }
        }
        push_children(id, depth + 1, &mut work);
    }
    gzip.write_all(&buffer)?;
    gzip.finish()?.flush()
}

/// The size of the file that [`write()`] would write with these options,
/// before compression, computed without writing it: the tables, then one
/// pass over the nodes (a parent comes before its children, so each
/// stack's ids take its parent's bytes and its own frame's).
pub fn size(profile: &Profile, options: &Options) -> StackSize {
    let file = File::of(profile, options);
    let nodes = profile.nodes();
    // Per node: the bytes of its stack's location ids, and its depth.
    let mut stacks = vec![(0u64, 0u32); nodes.len()];
    let mut size = StackSize {
        bytes: file.tables.encoded_len() as u64,
        stacks: 0,
        deepest: 0,
    };
    for (index, node) in nodes.iter().enumerate().skip(1) {
        if !file.visible.is_shown(NodeId(index as u32)) {
            continue;
        }
        let (above, depth) = stacks[node.parent.0 as usize];
        let ids = above.saturating_add(varint_len(file.location[node.frame.0 as usize]));
        stacks[index] = (ids, depth + 1);
        for (label, values) in file.samples(profile, NodeId(index as u32), node) {
            let values: u64 = values.iter().map(|&value| varint_len(value as u64)).sum();
            let labels = label.map_or(0, |label| field_len(label.encoded_len() as u64));
            let sample = packed_len(ids)
                .saturating_add(packed_len(values))
                .saturating_add(labels);
            size.bytes = size.bytes.saturating_add(field_len(sample));
            size.stacks += 1;
            size.deepest = size.deepest.max(depth + 1);
        }
    }
    size
}

/// A count as a sample value, capped at `i64::MAX`.
fn sample_value(count: u64) -> i64 {
    i64::try_from(count).unwrap_or(i64::MAX)
}

/// Each context's own values in each thread group that ran it, for a
/// profile with groups: the entries of node `n` are
/// `entries[first[n]..first[n + 1]]`.
struct GroupValues {
    first: Vec<usize>,
    /// (the group's label, `None` for the contexts in no group; calls; bytecodes)
    entries: Vec<(Option<proto::Label>, u64, u64)>,
}

impl GroupValues {
    /// `None` for a profile without groups; `key` is the label key's string index.
    fn of(profile: &Profile, key: i64, strings: &mut Strings) -> Option<GroupValues> {
        // By name, so that the samples of a context come in the same order however the
        // profiles were merged.
        let mut groups: Vec<&ThreadGroup> = profile.thread_groups().iter().collect();
        if groups.is_empty() {
            return None;
        }
        groups.sort_by_key(|group| group.name());
        let mut first = vec![0usize; profile.nodes().len() + 1];
        for group in &groups {
            for &(context, _, _) in group.counts() {
                first[context.0 as usize + 1] += 1;
            }
        }
        for index in 1..first.len() {
            first[index] += first[index - 1];
        }
        let mut next = first.clone();
        let mut entries = vec![(None, 0, 0); first[first.len() - 1]];
        for group in groups {
            let label = (!group.name().is_empty()).then(|| proto::Label {
                key,
                str: strings.index(group.name()),
            });
            for &(context, calls, bytecodes) in group.counts() {
                let slot = &mut next[context.0 as usize];
                entries[*slot] = (label.clone(), calls, bytecodes);
                *slot += 1;
            }
        }
        Some(GroupValues { first, entries })
    }
}

fn varint_len(value: u64) -> u64 {
    encoded_len_varint(value) as u64
}

/// The bytes of a length-delimited field of `len` bytes with a one-byte key.
fn field_len(len: u64) -> u64 {
    1 + varint_len(len) + len
}

/// The bytes of a packed repeated field whose values take `len` bytes (none when empty).
fn packed_len(len: u64) -> u64 {
    if len == 0 {
        0
    } else {
        field_len(len)
    }
}

/// What a file holds besides its samples, and what writing them needs.
struct File {
    /// The profile without its samples: sample types, locations,
    /// functions, strings, comments.
    tables: proto::Profile,
    /// Which contexts are written.
    visible: Visible,
    /// The functions' frames, in name order.
    frames: FrameIndex,
    /// The location id of each frame, by frame id (0 for a frame not written).
    location: Vec<u64>,
    /// Each context's values per thread group, when the profile has groups.
    groups: Option<GroupValues>,
    /// The profile's extra metrics, whose values follow calls and bytecodes.
    extra: Vec<Metric>,
}

impl File {
    fn of(profile: &Profile, options: &Options) -> File {
        let visible = Visible::of_every_metric(profile, &Totals::of(profile), options);
        let frames = FrameIndex::of(profile, &visible);
        let mut strings = Strings::new();
        let unit = strings.index("count");
        let sample_type: Vec<ValueType> = SAMPLE_TYPES
            .iter()
            .map(|&(_, name)| ValueType {
                r#type: strings.index(name),
                unit,
            })
            .collect();
        let extra_types: Vec<ValueType> = profile
            .extra_metrics()
            .map(|info| ValueType {
                r#type: strings.index(&info.name),
                unit: strings.index(&info.unit),
            })
            .collect();
        let sample_type: Vec<ValueType> = sample_type.into_iter().chain(extra_types).collect();
        let default_sample_type = strings.index(&profile.metric_info(options.metric).name);
        let mut comment = vec![strings.index(concat!("jp ", env!("CARGO_PKG_VERSION")))];
        for info in profile.extra_metrics() {
            let kind = match info.kind {
                MetricKind::Exact => "exact",
                MetricKind::Sampled => "sampled, not reproducible",
            };
            comment.push(strings.index(&format!("{}: {kind}", info.name)));
        }
        for key in COMMENTED_META {
            if let Some(value) = profile.meta.get(key) {
                comment.push(strings.index(&format!("{key}: {}", names::escape(value))));
            }
        }
        let groups = GroupValues::of(profile, strings.index(GROUP_LABEL), &mut strings);
        let mut function = Vec::with_capacity(frames.names.len());
        let mut locations = Locations::default();
        let mut location = vec![0; profile.frames().len()];
        let function_names = function_names(frames.names.iter().map(|&frame| profile.frame(frame)));
        for (position, (&frame, name)) in frames.names.iter().zip(&function_names).enumerate() {
            let id = position as u64 + 1;
            let exact = profile.frame(frame);
            function.push(Function {
                id,
                name: strings.index(name),
                // pprof shortens a name that is its own system name as if it were C++
                // (`[test] a.T#f()` to `[test] a.T#f`); an empty one keeps it whole.
                system_name: if exact == name { 0 } else { strings.index(exact) },
                filename: 0,
            });
            location[frame.0 as usize] = locations.id(id);
        }
        let tables = proto::Profile {
            sample_type,
            sample: Vec::new(),
            mapping: vec![Mapping {
                id: MAPPING,
                has_functions: true,
            }],
            location: locations.list,
            function,
            string_table: strings.table,
            comment,
            default_sample_type,
        };
        File {
            tables,
            visible,
            frames,
            location,
            groups,
            extra: profile.metrics().split_off(2),
        }
    }

    /// The samples of context `id`: its calls and bytecodes (one sample
    /// per thread group that ran it, with the group's label, when there are
    /// groups) and its extra metrics' values (in the first sample, or one of
    /// their own without a group, as groups keep calls and bytecodes
    /// alone); none where every value is 0.
    fn samples<'a>(
        &'a self,
        profile: &'a Profile,
        id: NodeId,
        node: &Node,
    ) -> impl Iterator<Item = (Option<&'a proto::Label>, Vec<i64>)> + 'a {
        let entries: &[(Option<proto::Label>, u64, u64)] = match &self.groups {
            Some(groups) => &groups.entries[groups.first[id.0 as usize]..groups.first[id.0 as usize + 1]],
            None => &[],
        };
        let whole = self
            .groups
            .is_none()
            .then_some((None, node.calls, node.bytecodes));
        let grouped = entries
            .iter()
            .map(|(label, calls, bytecodes)| (label.as_ref(), *calls, *bytecodes));
        let extra: Vec<i64> = self
            .extra
            .iter()
            .map(|&metric| sample_value(profile.value(id, metric)))
            .collect();
        let own_extra =
            (self.groups.is_some() && extra.iter().any(|&value| value != 0)).then_some((None, 0, 0));
        whole
            .into_iter()
            .chain(own_extra)
            .chain(grouped)
            .enumerate()
            .map(move |(position, (label, calls, bytecodes))| {
                let mut values = vec![sample_value(calls), sample_value(bytecodes)];
                match position {
                    0 => values.extend(&extra),
                    _ => values.resize(2 + extra.len(), 0),
                }
                (label, values)
            })
            .filter(|(_, values)| values.iter().any(|&value| value != 0))
    }
}

/// The string table: each string once, by index, "" first.
struct Strings {
    table: Vec<String>,
    index: HashMap<String, i64>,
}

impl Strings {
    fn new() -> Strings {
        Strings {
            table: vec![String::new()],
            index: HashMap::from([(String::new(), 0)]),
        }
    }

    fn index(&mut self, text: &str) -> i64 {
        if let Some(&index) = self.index.get(text) {
            return index;
        }
        let index = self.table.len() as i64;
        self.table.push(text.to_owned());
        self.index.insert(text.to_owned(), index);
        index
    }
}

/// The locations of a file: one per function, at line 0 (unknown),
/// numbered from 1 in the order first asked for.
#[derive(Default)]
struct Locations {
    list: Vec<Location>,
    ids: HashMap<u64, u64>,
}

impl Locations {
    /// The id of the location of the function `function`.
    fn id(&mut self, function: u64) -> u64 {
        let next = self.list.len() as u64 + 1;
        let id = *self.ids.entry(function).or_insert(next);
        if id == next {
            self.list.push(Location {
                id,
                mapping_id: MAPPING,
                line: vec![Line {
                    function_id: function,
                    line: 0,
                }],
            });
        }
        id
    }
}

/// The name of each frame as a person reads it: a method as
/// [`names::readable`] writes it but without the return type, unless two
/// frames would then read the same; a test frame with only its control
/// characters escaped.
fn function_names<'a>(frames: impl Iterator<Item = &'a str>) -> Vec<String> {
    let full: Vec<(String, bool)> = frames
        .map(|frame| match jp_profile::tests::test_id(frame) {
            Some(_) => (names::escape(frame).into_owned(), false),
            None => (names::readable(frame).into_owned(), true),
        })
        .collect();
    let short: Vec<&str> = full
        .iter()
        .map(|(name, method)| if *method { without_return_type(name) } else { name })
        .collect();
    let mut count: HashMap<&str, u32> = HashMap::new();
    for &name in &short {
        *count.entry(name).or_default() += 1;
    }
    full.iter()
        .zip(&short)
        .map(|((full, _), &name)| {
            if count[name] > 1 {
                full.clone()
            } else {
                name.to_owned()
            }
        })
        .collect()
}

/// `a.B.f(int)` for `a.B.f(int):long`; a name without a return type as it is.
fn without_return_type(readable: &str) -> &str {
    match readable.rsplit_once("):") {
        Some((head, returns)) if !returns.contains(['(', ')']) => &readable[..head.len() + 1],
        _ => readable,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;
    use flate2::read::GzDecoder;
    use std::io::Read;

    fn bytes(profile: &Profile, options: &Options) -> Vec<u8> {
        let mut out = Vec::new();
        write(profile, options, &mut out).unwrap();
        out
    }

    fn unzipped(gzipped: &[u8]) -> Vec<u8> {
        let mut raw = Vec::new();
        GzDecoder::new(gzipped).read_to_end(&mut raw).unwrap();
        raw
    }

    fn decode(profile: &Profile, options: &Options) -> proto::Profile {
        proto::Profile::decode(&unzipped(&bytes(profile, options))[..]).unwrap()
    }

    fn string(file: &proto::Profile, index: i64) -> &str {
        &file.string_table[index as usize]
    }

    fn function(file: &proto::Profile, location: u64) -> &Function {
        let location = file.location.iter().find(|l| l.id == location).unwrap();
        let id = location.line[0].function_id;
        file.function.iter().find(|f| f.id == id).unwrap()
    }

    /// The frame a function stands for: its system name, or its name when that is exact.
    fn exact<'a>(file: &'a proto::Profile, function: &Function) -> &'a str {
        let index = if function.system_name == 0 {
            function.name
        } else {
            function.system_name
        };
        string(file, index)
    }

    /// Each sample as (stack outermost first, by exact frame, joined by `;`, values).
    fn samples(file: &proto::Profile) -> Vec<(String, Vec<i64>)> {
        file.sample
            .iter()
            .map(|sample| {
                let mut frames: Vec<&str> = sample
                    .location_id
                    .iter()
                    .map(|&id| exact(file, function(file, id)))
                    .collect();
                frames.reverse();
                (frames.join(";"), sample.value.clone())
            })
            .collect()
    }

    fn sample() -> Profile {
        profile(&[
            (&["demo.Main.main([Ljava/lang/String;)V"], 1, 12),
            (
                &["demo.Main.main([Ljava/lang/String;)V", "demo.Main.work(I)J"],
                10,
                500,
            ),
            (
                &[
                    "demo.Main.main([Ljava/lang/String;)V",
                    "demo.Main.work(I)J",
                    "demo.Main.help()V",
                ],
                5,
                0,
            ),
            (
                &["demo.Main.main([Ljava/lang/String;)V", "demo.Main.idle()V"],
                0,
                0,
            ),
            (&["demo.Main.<clinit>()V"], 1, 4),
        ])
    }

    #[test]
    fn each_context_is_a_sample_of_its_own_values_with_its_stack_leaf_first() {
        let file = decode(&sample(), &Options::new(Metric::Bytecodes));
        let main = "demo.Main.main([Ljava/lang/String;)V";
        assert_eq!(
            samples(&file),
            [
                ("demo.Main.<clinit>()V".to_owned(), vec![1, 4]),
                (main.to_owned(), vec![1, 12]),
                (format!("{main};demo.Main.work(I)J"), vec![10, 500]),
                (format!("{main};demo.Main.work(I)J;demo.Main.help()V"), vec![5, 0]),
            ]
        );
        let help = &file.sample[3];
        assert_eq!(
            string(&file, function(&file, help.location_id[0]).system_name),
            "demo.Main.help()V"
        );
    }

    #[test]
    fn two_sample_types_and_the_metric_shown_first() {
        for (metric, name) in [(Metric::Bytecodes, "bytecodes"), (Metric::Calls, "calls")] {
            let file = decode(&sample(), &Options::new(metric));
            let types: Vec<(&str, &str)> = file
                .sample_type
                .iter()
                .map(|t| (string(&file, t.r#type), string(&file, t.unit)))
                .collect();
            assert_eq!(types, [("calls", "count"), ("bytecodes", "count")]);
            assert_eq!(string(&file, file.default_sample_type), name);
        }
    }

    #[test]
    fn per_line_counts_are_left_out() {
        let options = Options::new(Metric::Bytecodes);
        let mut with_lines = sample();
        let work = with_lines.frame_id("demo.Main.work(I)J").unwrap();
        with_lines.add_line(work, 12, 400);
        assert_eq!(decode(&with_lines, &options), decode(&sample(), &options));
    }

    #[test]
    fn ids_are_not_zero_and_every_reference_resolves() {
        let file = decode(&crate::profile_with_tests(), &Options::new(Metric::Calls));
        assert_eq!(file.string_table[0], "");
        let functions: Vec<u64> = file.function.iter().map(|f| f.id).collect();
        let locations: Vec<u64> = file.location.iter().map(|l| l.id).collect();
        assert_eq!(functions, (1..=functions.len() as u64).collect::<Vec<_>>());
        assert_eq!(locations, (1..=locations.len() as u64).collect::<Vec<_>>());
        assert_eq!(
            file.mapping,
            [Mapping {
                id: 1,
                has_functions: true
            }]
        );
        for location in &file.location {
            assert_eq!((location.line.len(), location.mapping_id), (1, 1));
            assert!(functions.contains(&location.line[0].function_id));
            assert_eq!(location.line[0].line, 0);
        }
        for sample in &file.sample {
            assert!(sample.location_id.iter().all(|id| locations.contains(id)));
            assert_eq!(sample.value.len(), 2);
        }
        for f in &file.function {
            let test = string(&file, f.name).starts_with("[test] ");
            assert!(f.name > 0 && (f.system_name > 0) != test && f.filename == 0);
        }
        let strings = file.string_table.len() as i64;
        assert!(file.comment.iter().all(|&c| c > 0 && c < strings));
    }

    #[test]
    fn functions_are_named_as_java_signatures_and_keep_the_exact_frame_as_system_name() {
        let p = profile(&[
            (&["demo.Main.main([Ljava/lang/String;)V"], 1, 1),
            (&["a.B.f(Ljava/util/List;[I)J"], 1, 1),
            (&["a.B.f(I)J"], 1, 1),
            (&["a.B.get()Ljava/lang/Object;"], 1, 1),
            (&["a.B.get()Ljava/lang/String;"], 1, 1),
            (&["[test] a.BTest#parses(String) > [1] \"x;y\""], 1, 1),
            (&["[test] a.BTest#bell\u{7}()"], 1, 1),
            (&["odd\u{1b}[2J()V"], 1, 1),
        ]);
        let file = decode(&p, &Options::new(Metric::Calls));
        let mut named: Vec<(&str, &str)> = file
            .function
            .iter()
            .map(|f| (string(&file, f.system_name), string(&file, f.name)))
            .collect();
        named.sort();
        assert_eq!(
            named,
            [
                ("", "[test] a.BTest#parses(String) > [1] \"x;y\""),
                ("[test] a.BTest#bell\u{7}()", "[test] a.BTest#bell\\u{7}()"),
                ("a.B.f(I)J", "a.B.f(int)"),
                ("a.B.f(Ljava/util/List;[I)J", "a.B.f(java.util.List,int[])"),
                ("a.B.get()Ljava/lang/Object;", "a.B.get():java.lang.Object"),
                ("a.B.get()Ljava/lang/String;", "a.B.get():java.lang.String"),
                (
                    "demo.Main.main([Ljava/lang/String;)V",
                    "demo.Main.main(java.lang.String[])"
                ),
                ("odd\u{1b}[2J()V", "odd\\u{1b}[2J()"),
            ]
        );
    }

    #[test]
    fn a_test_frame_stays_a_frame_at_the_bottom_of_its_stacks() {
        let file = decode(&crate::profile_with_tests(), &Options::new(Metric::Bytecodes));
        let stacks = samples(&file);
        let large = "[test] demo.ParserTest#large();demo.Parser.parse(I)I";
        assert!(stacks.contains(&(large.to_owned(), vec![2, 900])), "{stacks:?}");
        assert!(stacks.contains(&(format!("{large};demo.Lexer.next()I"), vec![50, 400])));
    }

    #[test]
    fn the_run_is_described_in_comments_without_times() {
        let mut p = sample();
        for (key, value) in [
            ("jvm", "OpenJDK 64-Bit Server VM 17.0.15"),
            ("bba", "precise"),
            ("command", "demo.Main --fast"),
            ("start", "2026-01-01T00:00:00Z"),
            ("end", "2026-01-01T00:00:01Z"),
            ("pid", "4242"),
        ] {
            p.meta.insert(key.into(), value.into());
        }
        let file = decode(&p, &Options::new(Metric::Calls));
        let comments: Vec<&str> = file.comment.iter().map(|&c| string(&file, c)).collect();
        assert_eq!(
            comments,
            [
                concat!("jp ", env!("CARGO_PKG_VERSION")),
                "jvm: OpenJDK 64-Bit Server VM 17.0.15",
                "bba: precise",
                "command: demo.Main --fast"
            ]
        );
    }

    #[test]
    fn the_same_profile_gives_the_same_bytes_whatever_the_order_of_insertion() {
        let a = profile(&[(&["m", "b"], 1, 2), (&["m", "a"], 3, 4), (&["n"], 5, 6)]);
        let b = profile(&[(&["n"], 5, 6), (&["m", "a"], 3, 4), (&["m", "b"], 1, 2)]);
        let options = Options::new(Metric::Bytecodes);
        assert_eq!(bytes(&a, &options), bytes(&a, &options));
        assert_eq!(bytes(&a, &options), bytes(&b, &options));
        let file = decode(&b, &options);
        let names: Vec<&str> = file.function.iter().map(|f| string(&file, f.name)).collect();
        assert_eq!(names, ["a", "b", "m", "n"]);
        let stacks: Vec<String> = samples(&file).into_iter().map(|(stack, _)| stack).collect();
        assert_eq!(stacks, ["m;a", "m;b", "n"]);
    }

    #[test]
    fn threshold_and_max_depth_leave_out_what_they_hide() {
        let (p, options) = crate::threshold_case();
        let file = decode(&p, &options);
        let stacks: Vec<String> = samples(&file).into_iter().map(|(stack, _)| stack).collect();
        assert_eq!(stacks, ["main", "main;big", "main;big;deep"]);
        assert_eq!(file.function.len(), 3);
        let options = Options {
            max_depth: Some(1),
            ..Options::new(Metric::Calls)
        };
        assert_eq!(samples(&decode(&p, &options)), [("main".to_owned(), vec![1, 10])]);
    }

    #[test]
    fn counts_beyond_a_signed_64_bit_value_are_capped() {
        let p = profile(&[(&["main"], u64::MAX, 7)]);
        let file = decode(&p, &Options::new(Metric::Calls));
        assert_eq!(file.sample[0].value, [i64::MAX, 7]);
    }

    #[test]
    fn an_empty_profile_is_a_valid_file() {
        let file = decode(&Profile::new(), &Options::new(Metric::Calls));
        assert!(file.sample.is_empty() && file.function.is_empty());
        assert_eq!(file.sample_type.len(), 2);
    }

    #[test]
    fn each_thread_group_has_samples_of_its_own_labelled_with_its_name() {
        let mut merged = crate::profile(&[(&["demo.Main.main()V"], 2, 2)]);
        merged.merge(&crate::grouped_profile());
        let file = decode(&merged, &Options::new(Metric::Bytecodes));
        let mut rows: Vec<(String, String, Vec<i64>)> = file
            .sample
            .iter()
            .zip(samples(&file))
            .map(|(sample, (stack, values))| {
                let group = sample
                    .label
                    .iter()
                    .map(|label| format!("{}={}", string(&file, label.key), string(&file, label.str)))
                    .collect();
                (stack, group, values)
            })
            .collect();
        rows.sort();
        let row = |stack: &str, group: &str, values: [i64; 2]| {
            (stack.to_owned(), group.to_owned(), values.to_vec())
        };
        assert_eq!(
            rows,
            [
                row("demo.Main.main()V", "", [2, 2]),
                row("demo.Main.main()V", "thread group=main", [1, 42]),
                row(
                    "demo.Main.main()V;demo.Main.work(I)J",
                    "thread group=main",
                    [10, 5230]
                ),
                row("demo.Main.work(I)J", "thread group=pool-#-thread-#", [40, 20920]),
            ]
        );
        let options = Options::new(Metric::Calls);
        assert_eq!(
            size(&merged, &options).bytes,
            unzipped(&bytes(&merged, &options)).len() as u64
        );
    }

    #[test]
    fn the_size_is_exactly_what_is_written_before_compression() {
        let p = profile(&[
            (&["m.A.main([Ljava/lang/String;)V"], 1, 0),
            (&["m.A.main([Ljava/lang/String;)V", "m.A.f(I)J"], 12, 1234),
            (&["m.A.main([Ljava/lang/String;)V", "m.A.f(I)J", "x\ny"], 7, 9),
            (&["m.A.main([Ljava/lang/String;)V", "m.A.g()V"], 0, 0),
            (&["z"], 10_000_000_000, u64::MAX),
        ]);
        for metric in [Metric::Calls, Metric::Bytecodes] {
            for max_depth in [None, Some(1), Some(2)] {
                let options = Options {
                    max_depth,
                    ..Options::new(metric)
                };
                let raw = unzipped(&bytes(&p, &options));
                let size = size(&p, &options);
                assert_eq!(size.bytes, raw.len() as u64, "{metric:?} {max_depth:?}");
                let file = proto::Profile::decode(&raw[..]).unwrap();
                assert_eq!(size.stacks, file.sample.len() as u64);
            }
        }
        assert_eq!(size(&p, &Options::new(Metric::Calls)).deepest, 3);
    }

    #[test]
    fn deep_recursion_does_not_overflow_the_stack_and_is_sized_exactly() {
        let frames: Vec<&str> = (0..3000).map(|i| if i % 2 == 0 { "f" } else { "g" }).collect();
        let mut p = profile(&[(&frames, 1, 1)]);
        let mut id = NodeId::ROOT;
        for &name in &frames {
            id = p.child(id, p.frame_id(name).unwrap()).unwrap();
            p.add(id, 1, 1);
        }
        let options = Options::new(Metric::Calls);
        let raw = unzipped(&bytes(&p, &options));
        assert_eq!(size(&p, &options).bytes, raw.len() as u64);
        let file = proto::Profile::decode(&raw[..]).unwrap();
        assert_eq!(file.sample.len(), 3000);
        assert_eq!(file.sample[2999].location_id.len(), 3000);
        assert_eq!(file.sample[2999].value, [2, 2]);
    }

    #[test]
    fn each_extra_metric_is_a_sample_type_in_its_unit() {
        let (p, cpu) = crate::sampled_profile();
        let file = decode(&p, &Options::new(cpu));
        let types: Vec<(&str, &str)> = file
            .sample_type
            .iter()
            .map(|t| (string(&file, t.r#type), string(&file, t.unit)))
            .collect();
        assert_eq!(
            types,
            [
                ("calls", "count"),
                ("bytecodes", "count"),
                ("cpu-samples", "samples")
            ]
        );
        assert_eq!(string(&file, file.default_sample_type), "cpu-samples");
        let comments: Vec<&str> = file.comment.iter().map(|&c| string(&file, c)).collect();
        assert!(
            comments.contains(&"cpu-samples: sampled, not reproducible"),
            "{comments:?}"
        );
        let sleep = samples(&file)
            .into_iter()
            .find(|(stack, _)| stack.ends_with("java.lang.Thread.sleep(J)V"))
            .unwrap();
        assert_eq!(sleep.1, [0, 0, 8]);
    }
}
