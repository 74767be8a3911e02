//! One self-contained HTML page: the profile's metadata, an expandable
//! call tree, an icicle graph on a canvas, a hot-methods table and, for a
//! profile of a test run, a Tests table ([`crate::tests_view`]) whose rows
//! open the tree and the graph at that test's context, and, for a profile
//! with per-line counts, a Source view of the hot methods' lines beside
//! their code ([`crate::sources`]), with both metrics in
//! the file and a switch between them. The page loads
//! nothing (no fonts, scripts or styles from elsewhere; its
//! Content-Security-Policy forbids it), so it opens from `file://`, offline.
//!
//! The data is written once, as JSON in a `<script type="application/json">`
//! element that the page's script reads: the frame names as string tables,
//! in both forms of [`names`] (full, and short with a table of packages), so
//! that the page switches between them without a second implementation of
//! the naming rules, then the shown contexts depth first as flat arrays of depth, frame, own
//! calls and own bytecodes (siblings by subtree total in `--metric`, largest
//! first, ties by name, as in [`crate::text`]), so that a million contexts
//! take about 15 MB. The page rebuilds parents and subtree totals from those
//! arrays in one pass. Every `<`, `>` and `&` in the JSON is written as a
//! `\u` escape, so that no frame name can end the element or be read as
//! markup, and the script only ever puts names into text nodes.
//!
//! Contexts that `--threshold` or `--max-depth` hide are left out, as in
//! [`crate::text`]: their values stay in the subtree totals of the contexts
//! above them (written as a `left` entry of the nearest shown context, from
//! [`Totals`]), and the header says how many contexts were left out and how
//! much they held. The hot-methods table ([`hot_methods`]) is over the whole
//! profile, as in the text report.
//!
//! The page builds the tree's rows only when a context is expanded, 200
//! siblings at a time, and draws only the graph's frames wider than a pixel,
//! so that it stays responsive for profiles of a million contexts.

use std::io::{self, Write};

use jp_profile::{Metric, NodeId, Profile};

use std::collections::HashMap;

use crate::json_out::{Context, JsonOut};
use crate::names::{self, NameStyle, ShortNames};
use crate::sources::{method_sources, MethodSource};
use crate::tests_view::test_totals;
use crate::threads::{thread_totals, ThreadTotal};
use crate::{hot_methods, order, HotMethod, Options, Totals, Visible};

/// The page's style sheet.
const STYLE: &str = include_str!("html/report.css");
/// The page's body, filled in by the script.
const BODY: &str = include_str!("html/body.html");
/// The page's script: reads the data element and draws everything.
const SCRIPT: &str = include_str!("html/report.js");
/// The canvas helpers both pages' scripts use, written before each.
const CANVAS_SCRIPT: &str = include_str!("html/canvas.js");
/// Nothing from anywhere else: the inline style and script, and canvas images.
pub(crate) const CSP: &str =
    "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:";
/// Metadata keys shown first, in this order; any others follow by name (as in [`crate::text`]).
const KNOWN_META: [&str; 8] = ["agent", "jvm", "bba", "threads", "start", "end", "pid", "command"];

/// Writes the HTML report of `profile`: both metrics, the tree's first
/// order and the threshold in `options.metric`.
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, options: &Options, mut out: impl Write) -> io::Result<()> {
    let title = match &options.title {
        Some(title) => title.clone(),
        None => crate::title::default_title(profile, &[]),
    };
    let page_title = format!("{title} - JP report");
    let page = Page {
        title: &page_title,
        style: STYLE,
        body: BODY,
        script: SCRIPT,
    };
    // One group is the whole profile: a switch would only repeat it.
    let groups = match profile.thread_groups().len() {
        0 | 1 => Vec::new(),
        _ => thread_totals(profile, options.metric),
    };
    page.write(&mut out, |page| {
        data_element(page, "jp-data", |data| {
            write_data(profile, options, &title, &groups, data)
        })?;
        for (index, group) in groups.iter().enumerate() {
            let group = profile
                .thread_group(&group.name)
                .expect("the totals list the profile's groups");
            // A group's own view has no extra metrics: it is ordered by bytecodes then.
            let group_options = Options {
                metric: if group.metrics().contains(&options.metric) {
                    options.metric
                } else {
                    Metric::Bytecodes
                },
                ..options.clone()
            };
            data_element(page, &format!("jp-thread-{index}"), |data| {
                data.raw("{");
                write_view(&group, &group_options, data)?;
                data.raw("}\n");
                Ok(())
            })?;
        }
        Ok(())
    })
}

/// One `<script type="application/json">` element whose JSON `data` writes.
pub(crate) fn data_element<W: Write>(
    page: &mut JsonOut<W>,
    id: &str,
    data: impl FnOnce(&mut JsonOut<W>) -> io::Result<()>,
) -> io::Result<()> {
    page.raw("<script type=\"application/json\" id=\"");
    page.raw(id);
    page.raw("\">");
    data(page)?;
    page.raw("</script>\n");
    Ok(())
}

/// The parts of one self-contained page (the report's or the diff's).
pub(crate) struct Page<'a> {
    /// The title, as text (escaped when written).
    pub(crate) title: &'a str,
    /// The style sheet.
    pub(crate) style: &'a str,
    /// The body's markup.
    pub(crate) body: &'a str,
    /// The page's script, written after the shared canvas helpers.
    pub(crate) script: &'a str,
}

impl Page<'_> {
    /// Writes the page: the CSP, title and style, the body, the data
    /// elements that `data` writes ([`data_element`]), then the scripts.
    pub(crate) fn write<W: Write>(
        &self,
        out: W,
        data: impl FnOnce(&mut JsonOut<W>) -> io::Result<()>,
    ) -> io::Result<()> {
        let mut page = JsonOut::new(out, Context::Script);
        page.raw("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
        page.raw("<meta http-equiv=\"Content-Security-Policy\" content=\"");
        page.raw(CSP);
        page.raw("\">\n<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>");
        html_text(&mut page, self.title);
        page.raw("</title>\n<style>\n");
        page.raw(self.style);
        page.raw("</style>\n</head>\n<body>\n");
        page.raw(self.body);
        data(&mut page)?;
        page.raw("<script>\n");
        page.raw(CANVAS_SCRIPT);
        page.raw(self.script);
        page.raw("</script>\n</body>\n</html>\n");
        page.flush()
    }
}

/// The shown contexts in the order written: depth first, siblings by
/// subtree total in the report's metric; the root first, at depth 0.
struct Contexts {
    ids: Vec<NodeId>,
    depths: Vec<u32>,
    /// `(position in ids, calls, bytecodes)`: what `--threshold` and
    /// `--max-depth` hid right below a shown context, subtree totals included.
    left: Vec<(usize, u64, u64)>,
}

impl Contexts {
    /// An explicit stack, as profiles can be deeper than the thread's stack.
    fn of(profile: &Profile, totals: &Totals, visible: &Visible, metric: Metric) -> Contexts {
        let rank = order::frame_ranks(profile);
        let mut contexts = Contexts {
            ids: Vec::with_capacity(profile.nodes().len()),
            depths: Vec::with_capacity(profile.nodes().len()),
            left: Vec::new(),
        };
        let mut work: Vec<(NodeId, u32)> = vec![(NodeId::ROOT, 0)];
        let mut siblings: Vec<NodeId> = Vec::new();
        while let Some((id, depth)) = work.pop() {
            let position = contexts.ids.len();
            contexts.ids.push(id);
            contexts.depths.push(depth);
            order::by_total(profile, totals, metric, id, &rank, &mut siblings);
            let (mut calls, mut bytecodes) = (0u64, 0u64);
            for &child in siblings.iter().rev() {
                if visible.is_shown(child) {
                    work.push((child, depth + 1));
                } else {
                    calls = calls.saturating_add(totals.get(child, Metric::Calls));
                    bytecodes = bytecodes.saturating_add(totals.get(child, Metric::Bytecodes));
                }
            }
            if calls != 0 || bytecodes != 0 {
                contexts.left.push((position, calls, bytecodes));
            }
        }
        contexts
    }
}

/// The frames' names in both forms ([`names`]), for this page and the
/// diff's: `names` (the full form), `short` (the short form), `package`
/// (an index into `packages` for each frame) and `nameStyle`, the form shown
/// first. Packages are written once, as a profile's frames share few.
pub(crate) fn write_names<W: Write>(
    frames: &[Box<str>],
    style: NameStyle,
    page: &mut JsonOut<W>,
) -> io::Result<()> {
    page.raw("\"nameStyle\":");
    page.string(match style {
        NameStyle::Short => "short",
        NameStyle::Full => "full",
    });
    page.raw(",\n\"names\":[");
    for (position, name) in frames.iter().enumerate() {
        page.raw(if position == 0 { "\n" } else { ",\n" });
        page.string(&names::java_form(name));
        page.flush_if_full()?;
    }
    let shorts = ShortNames::of_names(frames.iter().map(|name| &**name));
    page.raw("],\n\"short\":[");
    for (position, short) in shorts.0.iter().enumerate() {
        page.raw(if position == 0 { "\n" } else { ",\n" });
        page.string(&short.text);
        page.flush_if_full()?;
    }
    let mut packages: HashMap<&str, u64> = HashMap::new();
    let indices = shorts.0.iter().map(|short| {
        let next = packages.len() as u64;
        *packages.entry(short.package).or_insert(next)
    });
    page.raw("],\n\"package\":");
    page.numbers(indices)?;
    let mut by_index: Vec<(&str, u64)> = packages.into_iter().collect();
    by_index.sort_by_key(|&(_, index)| index);
    page.raw(",\n\"packages\":[");
    for (position, (package, _)) in by_index.iter().enumerate() {
        page.raw(if position == 0 { "" } else { "," });
        page.string(package);
    }
    page.raw("]");
    Ok(())
}

/// The data element's JSON: `meta`, `names`, the whole profile's view
/// ([`write_view`]), `source` and `threads`, the thread groups (name,
/// threads, calls, bytecodes; largest first) whose views are in the
/// elements `jp-thread-<index>` (see the script's `load`).
fn write_data(
    profile: &Profile,
    options: &Options,
    title: &str,
    groups: &[ThreadTotal],
    page: &mut JsonOut<impl Write>,
) -> io::Result<()> {
    page.raw("{\"version\":1,\"generator\":");
    page.string(concat!("jp ", env!("CARGO_PKG_VERSION")));
    page.raw(",\"title\":");
    page.string(title);
    page.raw(",\n\"meta\":[");
    let known = KNOWN_META
        .iter()
        .filter_map(|&key| Some((key, profile.meta.get(key)?.as_str())));
    let others = profile
        .meta
        .iter()
        .filter(|(key, _)| !KNOWN_META.contains(&key.as_str()))
        .map(|(key, value)| (key.as_str(), value.as_str()));
    for (position, (key, value)) in known.chain(others).enumerate() {
        page.raw(if position == 0 { "[" } else { ",[" });
        page.string(key);
        page.raw(",");
        page.string(value);
        page.raw("]");
    }
    page.raw("],\n\"files\":");
    page.number(profile.files);
    page.raw(",\"metric\":");
    page.string(&profile.metric_info(options.metric).name);
    page.raw(",\"threshold\":");
    page.string(&options.threshold.to_string());
    page.raw(",\"maxDepth\":");
    match options.max_depth {
        Some(depth) => page.number(u64::from(depth)),
        None => page.raw("null"),
    }
    page.raw(",\n");
    write_names(profile.frames(), options.names, page)?;
    page.raw(",\n");
    write_view(profile, options, page)?;
    page.raw(",\n\"source\":");
    write_sources(&method_sources(profile, &options.sources), page)?;
    page.raw(",\n\"threads\":[");
    for (position, group) in groups.iter().enumerate() {
        page.raw(if position == 0 { "[" } else { ",[" });
        page.string(group.label());
        for value in [group.threads, group.calls, group.bytecodes] {
            page.raw(",");
            page.number(value);
        }
        page.raw("]");
    }
    page.raw("]}\n");
    Ok(())
}

/// What the views show of `profile` (the whole profile's, or a thread
/// group's), as members of a JSON object: `contexts`, `hidden`, `grand`,
/// the context arrays, `left`, `hot` and `tests`.
fn write_view(profile: &Profile, options: &Options, page: &mut JsonOut<impl Write>) -> io::Result<()> {
    let totals = Totals::of(profile);
    let visible = Visible::of_every_metric(profile, &totals, options);
    let contexts = Contexts::of(profile, &totals, &visible, options.metric);
    page.raw("\"contexts\":");
    page.number(profile.context_count() as u64);
    page.raw(",\"hidden\":[");
    page.number(visible.hidden_contexts);
    page.raw(",");
    page.number(visible.hidden(Metric::Calls));
    page.raw(",");
    page.number(visible.hidden(Metric::Bytecodes));
    page.raw("],\"grand\":[");
    page.number(totals.grand(Metric::Calls));
    page.raw(",");
    page.number(totals.grand(Metric::Bytecodes));
    page.raw("],\n\"depth\":");
    page.numbers(contexts.depths.iter().map(|&depth| u64::from(depth)))?;
    // The root has no frame: -1.
    page.raw(",\n\"frame\":[-1");
    for &id in &contexts.ids[1..] {
        page.raw(",");
        page.number(u64::from(profile.node(id).frame.0));
        page.flush_if_full()?;
    }
    page.raw("]");
    if profile.has_sites() {
        // Only with call sites, so that other pages stay as they were.
        page.raw(",\n\"site\":[\"\"");
        for &id in &contexts.ids[1..] {
            page.raw(",");
            page.string(&profile.site(id).map_or_else(String::new, |site| site.to_string()));
            page.flush_if_full()?;
        }
        page.raw("]");
    }
    page.raw(",\n\"calls\":");
    page.numbers(contexts.ids.iter().map(|&id| profile.node(id).calls))?;
    page.raw(",\n\"bytecodes\":");
    page.numbers(contexts.ids.iter().map(|&id| profile.node(id).bytecodes))?;
    page.raw(",\n\"left\":");
    let left = contexts
        .left
        .iter()
        .flat_map(|&(position, calls, bytecodes)| [position as u64, calls, bytecodes]);
    page.numbers(left)?;
    page.raw(",\n\"hot\":");
    let methods = hot_methods(profile, &totals, options.metric);
    let hot = methods.iter().flat_map(|method| {
        [
            u64::from(method.frame.0),
            method.contexts,
            method.self_calls,
            method.self_bytecodes,
            method.total_calls,
            method.total_bytecodes,
            u64::from(method.recursive),
        ]
    });
    page.numbers(hot)?;
    write_extra_metrics(profile, &totals, &visible, &contexts, &methods, page)?;
    // Per test, by bytecodes: frame, position in the context arrays (0, the
    // root's, when the test is left out), calls, bytecodes, rank by calls.
    page.raw(",\n\"tests\":");
    let top_level: HashMap<NodeId, usize> = contexts
        .ids
        .iter()
        .zip(&contexts.depths)
        .enumerate()
        .filter(|&(_, (_, &depth))| depth == 1)
        .map(|(position, (&id, _))| (id, position))
        .collect();
    let tests = test_totals(profile, &totals);
    let tests = tests.iter().flat_map(|test| {
        [
            u64::from(profile.node(test.node).frame.0),
            top_level.get(&test.node).map_or(0, |&position| position as u64),
            test.calls,
            test.bytecodes,
            test.rank_by_calls as u64,
        ]
    });
    page.numbers(tests)
}

/// The profile's extra metrics (none: no member, so that other pages stay
/// as they were), as `extra`: per metric its `key` (the name), `label`,
/// `unit`, `own` (each shown context's own value, in the order of the
/// context arrays), `left` (`[position, value, ...]`: what is hidden right
/// below a shown context), `grand` and `hot` (`[self, total, ...]` of each
/// hot method, in the order of `hot`).
fn write_extra_metrics(
    profile: &Profile,
    totals: &Totals,
    visible: &Visible,
    contexts: &Contexts,
    methods: &[HotMethod],
    page: &mut JsonOut<impl Write>,
) -> io::Result<()> {
    let extra = &profile.metrics()[2..];
    if extra.is_empty() {
        return Ok(());
    }
    page.raw(",\n\"extra\":[");
    for (index, &metric) in extra.iter().enumerate() {
        let info = profile.metric_info(metric);
        page.raw(if index == 0 { "{\"key\":" } else { ",{\"key\":" });
        page.string(&info.name);
        page.raw(",\"label\":");
        page.string(&info.label());
        page.raw(",\"unit\":");
        page.string(&info.unit);
        page.raw(",\"own\":");
        page.numbers(contexts.ids.iter().map(|&id| profile.value(id, metric)))?;
        page.raw(",\"left\":");
        let left = contexts.ids.iter().enumerate().flat_map(|(position, &id)| {
            let hidden = profile
                .children(id)
                .filter(|&child| !visible.is_shown(child))
                .fold(0u64, |sum, child| sum.saturating_add(totals.get(child, metric)));
            (hidden != 0)
                .then_some([position as u64, hidden])
                .into_iter()
                .flatten()
        });
        page.numbers(left)?;
        page.raw(",\"grand\":");
        page.number(totals.grand(metric));
        page.raw(",\"hot\":");
        page.numbers(
            methods
                .iter()
                .flat_map(|method| [method.self_value(metric), method.total_value(metric)]),
        )?;
        page.raw("}");
    }
    page.raw("]");
    Ok(())
}

/// The Source view's methods ([`crate::sources`]): per method, its frame,
/// own bytecodes, counts as flat `[line, bytecodes, ...]`, and when found,
/// `file`, `first` (the number of the first line) and `text` (the lines);
/// and a `note` when something is missing or cut.
fn write_sources(methods: &[MethodSource], page: &mut JsonOut<impl Write>) -> io::Result<()> {
    page.raw("[");
    for (position, method) in methods.iter().enumerate() {
        page.raw(if position == 0 {
            "\n{\"frame\":"
        } else {
            ",\n{\"frame\":"
        });
        page.number(u64::from(method.method.frame.0));
        page.raw(",\"bytecodes\":");
        page.number(method.method.bytecodes);
        page.raw(",\"counts\":");
        let counts = method.method.lines.iter();
        page.numbers(counts.flat_map(|&(line, bytecodes)| [u64::from(line), bytecodes]))?;
        if let Some(source) = &method.source {
            page.raw(",\"file\":");
            page.string(&source.file);
            page.raw(",\"first\":");
            page.number(u64::from(source.first));
            page.raw(",\"text\":[");
            for (index, line) in source.lines.iter().enumerate() {
                page.raw(if index == 0 { "" } else { "," });
                page.string(line);
            }
            page.raw("]");
        }
        if let Some(note) = &method.note {
            page.raw(",\"note\":");
            page.string(note);
        }
        page.raw("}");
        page.flush_if_full()?;
    }
    page.raw("]");
    Ok(())
}

/// Text in an element's content: `&`, `<`, `>` and quotes as character references.
fn html_text(page: &mut JsonOut<impl Write>, text: &str) {
    let mut start = 0;
    for (position, c) in text.char_indices() {
        let reference = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            _ => continue,
        };
        page.raw(&text[start..position]);
        page.raw(reference);
        start = position + c.len_utf8();
    }
    page.raw(&text[start..]);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::profile;
    use serde_json::Value;
    use std::collections::BTreeMap;

    fn page(profile: &Profile, options: &Options) -> String {
        let mut out = Vec::new();
        write(profile, options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The JSON of the data element of a page (the report's or the diff's).
    pub(crate) fn data(page: &str) -> Value {
        let open = "<script type=\"application/json\" id=\"jp-data\">";
        let start = page.find(open).unwrap() + open.len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end]).unwrap()
    }

    fn numbers(value: &Value) -> Vec<u64> {
        value
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_u64().unwrap())
            .collect()
    }

    /// The page's names, and each context's depth and frame index (-1 for the root).
    fn shape(data: &Value) -> (Vec<&str>, Vec<u64>, Vec<i64>) {
        let names = data["names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        let frame = data["frame"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_i64().unwrap())
            .collect();
        (names, numbers(&data["depth"]), frame)
    }

    /// The contexts as the page reads them: path -> (own calls, own bytecodes,
    /// total calls, total bytecodes), the totals summed as the script does.
    fn contexts(data: &Value) -> Vec<(String, [u64; 4])> {
        let (names, depth, frame) = shape(data);
        let (calls, bytecodes) = (numbers(&data["calls"]), numbers(&data["bytecodes"]));
        assert_eq!((frame[0], depth[0]), (-1, 0), "the root comes first");
        let mut parent = vec![0usize; depth.len()];
        let mut path: Vec<usize> = vec![0];
        let mut paths = vec![String::new()];
        let mut values: Vec<[u64; 4]> = (0..depth.len())
            .map(|i| [calls[i], bytecodes[i], calls[i], bytecodes[i]])
            .collect();
        for i in 1..depth.len() {
            let d = depth[i] as usize;
            assert!(
                d >= 1 && d <= path.len(),
                "depth {d} after a path of {}",
                path.len()
            );
            path.truncate(d);
            parent[i] = path[d - 1];
            let name = names[frame[i] as usize];
            paths.push(if d == 1 {
                name.to_string()
            } else {
                format!("{};{name}", paths[parent[i]])
            });
            path.push(i);
        }
        for left in numbers(&data["left"]).chunks(3) {
            values[left[0] as usize][2] += left[1];
            values[left[0] as usize][3] += left[2];
        }
        for i in (1..depth.len()).rev() {
            let [_, _, c, b] = values[i];
            values[parent[i]][2] += c;
            values[parent[i]][3] += b;
        }
        paths.into_iter().zip(values).skip(1).collect()
    }

    fn sample() -> Profile {
        profile(&[
            (&["main"], 1, 12),
            (&["main", "work"], 10, 500),
            (&["main", "work", "help"], 5, 0),
            (&["main", "small"], 2, 20),
            (&["main", "small", "tiny"], 1, 1),
            (&["clinit"], 1, 4),
        ])
    }

    /// Pages of profiles without call sites stay as they were: no `site` array.
    #[test]
    fn contexts_split_by_call_site_name_their_site_and_other_pages_have_none() {
        let text = "jp-profile 5\nframe 1 a.M.main()V\nframe 2 a.M.f()V\n\
                    node 1 0 1 1 1\nnode 2 1 2 2 2 4:17\nnode 3 1 2 3 3 9\nend 3\n";
        let sited = jp_profile::parse(text.as_bytes(), "p.jpprof".as_ref()).unwrap();
        let sited = data(&page(&sited, &Options::new(Metric::Calls)));
        let mut sites: Vec<&str> = sited["site"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        sites.sort_unstable();
        assert_eq!(sites, ["", "", "bci 9", "line 17"]);
        let plain = data(&page(&sample(), &Options::new(Metric::Calls)));
        assert!(plain.get("site").is_none());
    }

    #[test]
    fn the_page_holds_every_context_with_both_metrics_and_the_totals_of_totals() {
        let p = sample();
        let totals = Totals::of(&p);
        let data = data(&page(&p, &Options::new(Metric::Bytecodes)));
        let read = contexts(&data);
        let paths: Vec<&str> = read.iter().map(|(path, _)| path.as_str()).collect();
        // Depth first, siblings by total bytecodes.
        assert_eq!(
            paths,
            [
                "main",
                "main;work",
                "main;work;help",
                "main;small",
                "main;small;tiny",
                "clinit"
            ]
        );
        for (path, values) in &read {
            let frames: Vec<&str> = path.split(';').collect();
            let mut id = NodeId::ROOT;
            for frame in &frames {
                id = p.child(id, p.frame_id(frame).unwrap()).unwrap();
            }
            let node = p.node(id);
            let expected = [
                node.calls,
                node.bytecodes,
                totals.get(id, Metric::Calls),
                totals.get(id, Metric::Bytecodes),
            ];
            assert_eq!(values, &expected, "{path}");
        }
        assert_eq!(
            numbers(&data["grand"]),
            [totals.grand(Metric::Calls), totals.grand(Metric::Bytecodes)]
        );
        assert_eq!(data["contexts"], 6);
        assert_eq!(data["files"], 1);
        assert_eq!(numbers(&data["hidden"]), [0, 0, 0]);
    }

    #[test]
    fn the_hot_methods_are_those_of_the_whole_profile() {
        let p = sample();
        let data = data(&page(&p, &Options::new(Metric::Calls)));
        let names: Vec<&str> = data["names"]
            .as_array()
            .unwrap()
            .iter()
            .map(|n| n.as_str().unwrap())
            .collect();
        let hot = numbers(&data["hot"]);
        let methods = hot_methods(&p, &Totals::of(&p), Metric::Calls);
        assert_eq!(hot.len(), 7 * methods.len());
        let rows: BTreeMap<&str, &[u64]> = hot
            .chunks(7)
            .map(|row| (names[row[0] as usize], &row[1..]))
            .collect();
        assert_eq!(rows["work"], [1, 10, 500, 15, 500, 0]);
        assert_eq!(rows["main"], [1, 1, 12, 19, 533, 0]);
    }

    #[test]
    fn a_threshold_leaves_contexts_out_and_keeps_their_values_in_the_totals_above() {
        let p = sample();
        let options = Options {
            threshold: 5.0,
            ..Options::new(Metric::Bytecodes)
        };
        let data = data(&page(&p, &options));
        let read = contexts(&data);
        let paths: Vec<&str> = read.iter().map(|(path, _)| path.as_str()).collect();
        // small (21 of 537 bytecodes), clinit (4) and help (0) are below 5%.
        assert_eq!(paths, ["main", "main;work"]);
        assert_eq!(read[0].1, [1, 12, 19, 533]);
        assert_eq!(read[1].1, [10, 500, 15, 500]);
        assert_eq!(numbers(&data["hidden"]), [4, 9, 25]);
        // (position, calls, bytecodes) under the root, main and work.
        assert_eq!(numbers(&data["left"]), [0, 1, 4, 1, 3, 21, 2, 5, 0]);
        assert_eq!(data["threshold"], "5");
        assert_eq!(data["metric"], "bytecodes");
    }

    #[test]
    fn max_depth_is_written_and_cuts_the_tree() {
        let options = Options {
            max_depth: Some(1),
            ..Options::new(Metric::Calls)
        };
        let data = data(&page(&sample(), &options));
        assert_eq!(data["maxDepth"], 1);
        assert_eq!(numbers(&data["depth"]), [0, 1, 1]);
    }

    #[test]
    fn no_name_can_close_the_script_element_or_become_markup() {
        let evil = "x.Evil.m</script><img src=x onerror=alert(1)><!--\u{2028}&amp;()V";
        let mut p = profile(&[(&["main", evil], 1, 10)]);
        p.meta
            .insert("command".into(), "</title><script>alert(2)</script>".into());
        p.meta.insert("jvm".into(), "<b>VM</b>".into());
        let page = page(&p, &Options::new(Metric::Calls));
        // The style, the data and the script: three elements closed, and nothing else.
        assert_eq!(page.matches("</script>").count(), 2, "{page}");
        assert!(!page.contains("<img") && !page.contains("<b>") && !page.contains("<!--"));
        assert!(
            page.contains("<title>&lt;/title&gt;&lt;script&gt;alert(2)&lt;/script&gt; - JP report</title>")
        );
        let data = data(&page);
        let full = evil.replace("()V", "():void");
        assert!(data["names"]
            .as_array()
            .unwrap()
            .iter()
            .any(|name| *name == *full));
        let short = "Evil.m</script><img src=x onerror=alert(1)><!--\u{2028}&amp;()";
        assert!(data["short"].as_array().unwrap().iter().any(|name| name == short));
        assert_eq!(data["meta"][0], serde_json::json!(["jvm", "<b>VM</b>"]));
    }

    #[test]
    fn names_are_written_in_both_forms_with_each_package_once_and_the_title() {
        let p = profile(&[
            (
                &[
                    "demo.Main.main([Ljava/lang/String;)V",
                    "demo.Box.get()Ljava/lang/Object;",
                ],
                1,
                1,
            ),
            (
                &[
                    "demo.Main.main([Ljava/lang/String;)V",
                    "demo.Box.get()Ljava/lang/String;",
                ],
                1,
                1,
            ),
            (
                &["other.Main.main([Ljava/lang/String;)V", "[test] demo.T#t()"],
                1,
                1,
            ),
        ]);
        let options = Options {
            title: Some("Checkout".into()),
            ..Options::new(Metric::Calls)
        };
        let page = page(&p, &options);
        assert!(page.contains("<title>Checkout - JP report</title>"));
        let data = data(&page);
        assert_eq!(data["title"], "Checkout");
        assert_eq!(data["nameStyle"], "short");
        let strings = |key: &str| -> Vec<String> {
            let list = data[key].as_array().unwrap();
            list.iter()
                .map(|value| value.as_str().unwrap().to_owned())
                .collect()
        };
        let (full, short, packages) = (strings("names"), strings("short"), strings("packages"));
        let package = numbers(&data["package"]);
        let rows: BTreeMap<&str, (&str, &str)> = (0..full.len())
            .map(|f| {
                (
                    full[f].as_str(),
                    (short[f].as_str(), packages[package[f] as usize].as_str()),
                )
            })
            .collect();
        assert_eq!(
            rows,
            BTreeMap::from([
                (
                    "demo.Main.main(java.lang.String[]):void",
                    ("Main.main(String[])", "demo")
                ),
                ("demo.Box.get():java.lang.Object", ("Box.get():Object", "demo")),
                ("demo.Box.get():java.lang.String", ("Box.get():String", "demo")),
                (
                    "other.Main.main(java.lang.String[]):void",
                    ("Main.main(String[])", "other")
                ),
                ("[test] demo.T#t()", ("[test] demo.T#t()", "")),
            ])
        );
        assert_eq!(packages.len(), 3, "{packages:?}");
    }

    #[test]
    fn the_page_loads_nothing_from_elsewhere() {
        let page = page(&sample(), &Options::new(Metric::Calls));
        assert!(page.starts_with("<!DOCTYPE html>") && page.ends_with("</html>\n"));
        assert!(page.contains(&format!("content=\"{CSP}\"")));
        for asset in [STYLE, BODY, SCRIPT, CANVAS_SCRIPT] {
            assert!(!asset.contains("</script") && !asset.contains("</style"));
            assert!(!asset.contains("http:") && !asset.contains("https:") && !asset.contains("url("));
            assert!(!asset.contains("src="), "no element loads a source");
        }
    }

    #[test]
    fn the_tests_are_written_by_bytecodes_with_their_contexts_and_totals() {
        let p = crate::profile_with_tests();
        let options = Options {
            threshold: 5.0,
            ..Options::new(Metric::Calls)
        };
        let data = data(&page(&p, &options));
        let (names, depth, frame) = shape(&data);
        let rows: Vec<(&str, bool, u64, u64, u64)> = numbers(&data["tests"])
            .chunks(5)
            .map(|row| {
                let position = row[1] as usize;
                if position != 0 {
                    assert_eq!((depth[position], frame[position]), (1, row[0] as i64));
                }
                (names[row[0] as usize], position != 0, row[2], row[3], row[4])
            })
            .collect();
        // Below 5% of the calls, the class-level context and the invocations are left out.
        assert_eq!(
            rows,
            [
                ("[test] demo.ParserTest#large()", true, 52, 1300, 2),
                (
                    "[test] demo.ParserTest#parses(String) > [1] \"a;b\"",
                    false,
                    1,
                    100,
                    4
                ),
                (
                    "[test] demo.ParserTest#parses(String) > [2] \"c\"",
                    false,
                    1,
                    100,
                    5
                ),
                ("[test] demo.ParserTest#small()", true, 71, 100, 1),
                ("[test] demo.ParserTest", false, 1, 30, 3),
            ]
        );
        let without = super::tests::data(&page(&sample(), &options));
        assert_eq!(numbers(&without["tests"]), Vec::<u64>::new());
    }

    #[test]
    fn the_hot_methods_lines_come_with_their_source_written_as_text() {
        let src = tempfile::tempdir().unwrap();
        std::fs::create_dir(src.path().join("demo")).unwrap();
        let code = "class Fib {\n  int f() { return \"</script><b>\"; }\n}\n";
        std::fs::write(src.path().join("demo/Fib.java"), code).unwrap();
        let mut p = profile(&[(&["demo.Fib.f()I"], 1, 9), (&["demo.Gone.g()V"], 1, 3)]);
        let (fib, gone) = (
            p.frame_id("demo.Fib.f()I").unwrap(),
            p.frame_id("demo.Gone.g()V").unwrap(),
        );
        p.add_line(fib, 2, 9);
        p.add_line(gone, 7, 3);
        let options = Options {
            sources: vec![src.path().to_owned()],
            ..Options::new(Metric::Bytecodes)
        };
        let page = page(&p, &options);
        assert!(!page.contains("<b>"), "markup in a source stays text");
        let data = data(&page);
        let source = &data["source"];
        assert_eq!(source[0]["frame"], fib.0);
        assert_eq!(numbers(&source[0]["counts"]), [2, 9]);
        assert_eq!(source[0]["file"], "demo/Fib.java");
        assert_eq!(source[0]["first"], 1);
        assert_eq!(source[0]["text"][1], "  int f() { return \"</script><b>\"; }");
        assert_eq!(numbers(&source[1]["counts"]), [7, 3]);
        assert!(source[1].get("text").is_none());
        assert!(source[1]["note"].as_str().unwrap().starts_with("no source found"));
        let without = super::tests::data(&super::tests::page(&sample(), &Options::new(Metric::Calls)));
        assert_eq!(without["source"], serde_json::json!([]));
    }

    #[test]
    fn an_empty_profile_gives_a_page_with_the_root_alone() {
        let data = data(&page(&Profile::new(), &Options::new(Metric::Bytecodes)));
        assert_eq!(numbers(&data["depth"]), [0]);
        assert_eq!(numbers(&data["hot"]), Vec::<u64>::new());
    }

    #[test]
    fn extra_metrics_are_in_the_data_with_their_labels_and_sampled_only_contexts_are_shown() {
        let (p, _) = crate::sampled_profile();
        let data = data(&page(&p, &Options::new(Metric::Bytecodes)));
        let extra = &data["extra"][0];
        assert_eq!(extra["key"], "cpu-samples");
        assert_eq!(extra["label"], "cpu-samples (sampled, not reproducible)");
        assert_eq!(
            (extra["unit"].as_str(), extra["grand"].as_u64()),
            (Some("samples"), Some(70))
        );
        // Every context is on the page, Thread.sleep (sampled only) too: the root, then 4.
        let own: Vec<u64> = extra["own"]
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_u64().unwrap())
            .collect();
        assert_eq!(own.len(), 5);
        assert_eq!(own.iter().sum::<u64>(), 70);
        assert_eq!(
            extra["hot"].as_array().unwrap().len(),
            2 * data["hot"].as_array().unwrap().len() / 7
        );
        let without = data_of_plain_profile();
        assert!(without.get("extra").is_none());
    }

    #[test]
    fn a_report_by_an_exact_extra_metric_labels_it_exact_and_orders_thread_groups_by_bytecodes() {
        let text = "jp-profile 4\nframe 1 demo.Main.main()V\nframe 2 demo.Main.make()V\n\
            metric 1 allocations exact objects\nmetric 2 allocations:int[] exact objects\n\
            thread 1 main\nnode 1 0 1 1 10\nnode 2 1 2 3 30\nthread 2 worker-#\nnode 3 0 2 2 20\n\
            value 2 1 3\nvalue 2 2 3\nvalue 3 1 2\nvalue 3 2 2\nend 3\n";
        let p = jp_profile::parse(text.as_bytes(), "allocations.jpprof".as_ref()).unwrap();
        let options = Options::new(p.metric("allocations:int[]").unwrap());
        let page = page(&p, &options);
        let data = data(&page);
        assert_eq!(data["extra"][1]["label"], "allocations:int[] (exact)");
        assert_eq!(data["extra"][1]["grand"], 5);
        assert!(page.contains("jp-thread-1"), "both groups have their view");
    }

    fn data_of_plain_profile() -> Value {
        data(&page(
            &profile(&[(&["main"], 1, 1)]),
            &Options::new(Metric::Calls),
        ))
    }
}
