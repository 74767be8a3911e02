//! A plain-text report in the spirit of ProfBuilder's ProfOut: a header
//! with the profile's metadata and its totals in both metrics, then the
//! calling-context tree twice, once with each context's own value and once
//! with its subtree total, each line with a proportional bar, then the
//! hot methods, and last, for a profile with per-line counts, the lines of
//! the hottest methods ([`crate::lines`]). A profile of a test run also gets a Tests section, before
//! the trees: its tests ranked by their subtree totals, each with the
//! methods that counted the most in it ([`crate::tests_view`]), and a
//! profile with thread groups a Threads section, before the tests, with
//! each group's totals ([`crate::threads`]).
//!
//! ```text
//! bytecodes       %  bar                   context
//!       774   93.0%  ####################  Main.main(String[]) [demo]
//!       750   90.1%  ###################     Main.work(int) [demo]
//! ```
//!
//! The tree is shown by indentation, two spaces per level. Beyond depth
//! 41 (40 levels of indentation) the indentation stops growing and the line
//! says its depth instead (`[depth 57] `), so that a tree 100,000 contexts
//! deep does not become gigabytes of spaces. A context whose method already
//! occurs above it on its path is marked `R ` before its name. Frames are
//! written in [`Options::names`]'s form ([`crate::names::labels`]): short,
//! with the package in brackets after the name, or in full as
//! [`crate::folded`] writes them; either way escaped, so that they hold no
//! control character for a terminal to act on; so are metadata values.
//!
//! The sections depend only on the merged tree (siblings are ordered by
//! value, ties by name), not on the order of the records or of the profiles
//! merged. The header shows the metadata as [`Profile::merge`] left it.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};

use jp_profile::{CallSite, FrameId, Metric, MetricInfo, NodeId, Profile};

use crate::tests_view::{hottest_methods, test_totals, TestScope};
use crate::threads::thread_totals;
use crate::{hot_methods, names, order, HotMethod, Options, Totals, Visible};

/// Width of a full bar, in characters.
const BAR_WIDTH: u64 = 20;
/// The deepest level shown by indentation alone.
const MAX_INDENT_DEPTH: u32 = 40;
/// How many methods the hot-methods section lists at most.
const HOT_METHODS: usize = 50;
/// How many tests the Tests section lists at most, and how many methods under each.
const TESTS: usize = 100;
const METHODS_PER_TEST: usize = 3;
/// Metadata keys shown first, in this order; any others follow by name.
const KNOWN_META: [&str; 8] = ["agent", "jvm", "bba", "threads", "start", "end", "pid", "command"];
/// What the marks of the report mean, written after the header.
const LEGEND: &str = "\
own    what a context counted itself, its callees not included
total  its own value plus those of every context below it (its subtree)
%      share of the whole profile's total in that metric
bar    the value as a share of the largest value in its section
R      recursion: the method already occurs above this context on its path
";

/// Writes the text report of `profile`: the header shows both metrics, the
/// tree and hot-method sections show `options.metric`, and the tree leaves
/// out what `options.threshold` and `options.max_depth` hide, saying how
/// much that was. Writes are buffered here.
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, options: &Options, out: impl Write) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let totals = Totals::of(profile);
    let visible = Visible::of(profile, &totals, options);
    let methods = hot_methods(profile, &totals, options.metric);
    let lines = tree_lines(profile, &totals, &visible, options.metric);
    write_header(
        profile,
        options.title.as_deref(),
        &totals,
        methods.len(),
        &mut out,
    )?;
    out.write_all(b"\n")?;
    out.write_all(LEGEND.as_bytes())?;
    let labels = names::labels(profile.frames(), options.names);
    write_threads(profile, &totals, options.metric, &mut out)?;
    write_tests(profile, &labels, &totals, options.metric, &mut out)?;
    let tree = Tree {
        metric: profile.metric_info(options.metric),
        names: &labels,
        totals: &totals,
        visible: &visible,
        options,
        lines: &lines,
    };
    tree.write(Section::Own, &mut out)?;
    tree.write(Section::Total, &mut out)?;
    write_hot_methods(profile, &labels, &totals, options.metric, &methods, &mut out)?;
    crate::lines::write_text(profile, &labels, &mut out)?;
    out.flush()
}

/// The name of a built-in metric, for the views that hold calls and
/// bytecodes alone (timelines); [`jp_profile::MetricInfo::label`] names any.
pub(crate) fn metric_name(metric: Metric) -> &'static str {
    match metric {
        Metric::Calls => "calls",
        Metric::Bytecodes => "bytecodes",
        Metric::Extra(_) => "extra",
    }
}

fn write_header(
    profile: &Profile,
    title: Option<&str>,
    totals: &Totals,
    methods: usize,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut rows: Vec<(&str, String)> = KNOWN_META
        .iter()
        .filter_map(|&key| Some((key, profile.meta.get(key)?.clone())))
        .collect();
    let others = profile
        .meta
        .iter()
        .filter(|(key, _)| !KNOWN_META.contains(&key.as_str()));
    rows.extend(others.map(|(key, value)| (key.as_str(), value.clone())));
    rows.push(("files", thousands(profile.files)));
    rows.push(("contexts", thousands(profile.context_count() as u64)));
    rows.push(("methods", thousands(methods as u64)));
    let key_width = rows.iter().map(|(key, _)| key.len()).max().unwrap_or(0);
    match title {
        Some(title) => writeln!(out, "JP profile report: {}", names::escape(title))?,
        None => writeln!(out, "JP profile report")?,
    }
    writeln!(out)?;
    for (key, value) in &rows {
        let (key, value) = (names::escape(key), names::escape(value));
        writeln!(out, "{key:key_width$}  {value}")?;
    }
    writeln!(out)?;
    let rows: Vec<(String, String, String)> = profile
        .metrics()
        .into_iter()
        .map(|metric| {
            let info = profile.metric_info(metric);
            let unit = match metric {
                Metric::Calls | Metric::Bytecodes => String::new(),
                Metric::Extra(_) => format!(" {}", info.unit),
            };
            let label = info.label();
            let note = label.strip_prefix(&*info.name).unwrap_or_default();
            (
                format!("total {}", info.name),
                thousands(totals.grand(metric)),
                format!("{unit}{note}"),
            )
        })
        .collect();
    let key_width = rows.iter().map(|(key, _, _)| key.len()).max().unwrap_or(0);
    let width = rows.iter().map(|(_, value, _)| value.len()).max().unwrap_or(0);
    for (key, value, note) in rows {
        writeln!(out, "{key:key_width$}  {value:>width$}{note}")?;
    }
    Ok(())
}

/// One line of the tree sections. The values are copied here, so that
/// writing reads the lines in order rather than the nodes all over memory.
#[derive(Debug, Clone, Copy)]
struct Line {
    frame: FrameId,
    /// The call site, for a context split by call site.
    site: Option<CallSite>,
    /// 1 for a top-level context.
    depth: u32,
    /// The context's own value in the report's metric.
    own: u64,
    /// The context's subtree total in the report's metric.
    total: u64,
    /// Whether the method occurs above this context on its path.
    recursive: bool,
}

/// The shown contexts in the order the tree sections list them: depth
/// first, siblings by subtree total in `metric` (largest first, ties by
/// name). Both sections use this order, the own-value one included: sorting
/// siblings there by their own values would list the same tree in another
/// shape, and a reader could no longer look a context up at the same place
/// in both; with the subtree order, the hot paths come first in both.
///
/// An explicit stack, as profiles can be deeper than the thread's stack.
fn tree_lines(profile: &Profile, totals: &Totals, visible: &Visible, metric: Metric) -> Vec<Line> {
    let rank = order::frame_ranks(profile);
    let mut lines = Vec::with_capacity(profile.context_count());
    // How many contexts of each frame are on `path`.
    let mut on_path = vec![0u32; profile.frames().len()];
    // The frames from the top-level context down to the last line's.
    let mut path: Vec<FrameId> = Vec::new();
    // (context, depth); pushed in reverse order, popped in order.
    let mut work: Vec<(NodeId, u32)> = Vec::new();
    let mut siblings: Vec<NodeId> = Vec::new();
    let mut push_children = |id: NodeId, depth: u32, work: &mut Vec<(NodeId, u32)>| {
        order::by_total(profile, totals, metric, id, &rank, &mut siblings);
        let shown = siblings.iter().rev().filter(|&&child| visible.is_shown(child));
        work.extend(shown.map(|&child| (child, depth)));
    };
    push_children(NodeId::ROOT, 1, &mut work);
    while let Some((id, depth)) = work.pop() {
        while path.len() >= depth as usize {
            let left = path.pop().expect("the path is not empty");
            on_path[left.0 as usize] -= 1;
        }
        let node = profile.node(id);
        let frame = node.frame;
        let recursive = on_path[frame.0 as usize] > 0;
        on_path[frame.0 as usize] += 1;
        path.push(frame);
        lines.push(Line {
            frame,
            site: profile.site(id),
            depth,
            own: profile.value(id, metric),
            total: totals.get(id, metric),
            recursive,
        });
        push_children(id, depth + 1, &mut work);
    }
    lines
}

/// Which value a tree section shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    /// Each context's own value.
    Own,
    /// Each context's subtree total.
    Total,
}

/// What the two tree sections share.
struct Tree<'a> {
    metric: &'a MetricInfo,
    /// Each frame's name as written, by frame id.
    names: &'a [Cow<'a, str>],
    totals: &'a Totals,
    visible: &'a Visible,
    options: &'a Options,
    lines: &'a [Line],
}

impl Tree<'_> {
    fn value(section: Section, line: &Line) -> u64 {
        match section {
            Section::Own => line.own,
            Section::Total => line.total,
        }
    }

    fn write(&self, section: Section, out: &mut impl Write) -> io::Result<()> {
        let metric = self.options.metric;
        let (name, label) = (&self.metric.name, self.metric.label());
        let grand = self.totals.grand(metric);
        let max = self
            .lines
            .iter()
            .map(|line| Tree::value(section, line))
            .max()
            .unwrap_or(0);
        let (title, what) = match section {
            Section::Own => ("Contexts by own value", "own"),
            Section::Total => ("Contexts by subtree total", "total"),
        };
        writeln!(out)?;
        writeln!(out, "== {title} ({label}) ==")?;
        writeln!(
            out,
            "Each context's {what} {name}; % of {} in all; a full bar is {}.",
            thousands(grand),
            thousands(max)
        )?;
        writeln!(out)?;
        if self.lines.is_empty() && self.visible.hidden_contexts == 0 {
            return writeln!(out, "(no contexts)");
        }
        let width = thousands(grand).len().max(name.len());
        writeln!(
            out,
            "{name:>width$}       %  {:bar$}  context",
            "bar",
            bar = BAR_WIDTH as usize
        )?;
        let mut line_buf: Vec<u8> = Vec::with_capacity(256);
        for line in self.lines {
            let value = Tree::value(section, line);
            line_buf.clear();
            push_thousands(&mut line_buf, value, width);
            line_buf.extend_from_slice(b"  ");
            push_percent(&mut line_buf, value, grand);
            line_buf.extend_from_slice(b"  ");
            push_bar(&mut line_buf, value, max);
            line_buf.extend_from_slice(b"  ");
            push_indent(&mut line_buf, line.depth);
            if line.recursive {
                line_buf.extend_from_slice(b"R ");
            }
            line_buf.extend_from_slice(self.names[line.frame.0 as usize].as_bytes());
            if let Some(site) = line.site {
                write!(line_buf, " @ {site}")?;
            }
            line_buf.push(b'\n');
            out.write_all(&line_buf)?;
        }
        self.write_hidden(out)
    }

    /// One line on what `--threshold` and `--max-depth` left out, if anything.
    fn write_hidden(&self, out: &mut impl Write) -> io::Result<()> {
        let hidden = self.visible.hidden_contexts;
        if hidden == 0 {
            return Ok(());
        }
        let metric = self.options.metric;
        let mut by = Vec::new();
        if self.options.threshold > 0.0 {
            by.push(format!("--threshold {}", self.options.threshold));
        }
        if let Some(depth) = self.options.max_depth {
            by.push(format!("--max-depth {depth}"));
        }
        let value = self.visible.hidden(metric);
        let mut share = Vec::new();
        push_percent(&mut share, value, self.totals.grand(metric));
        writeln!(
            out,
            "({} {} left out by {}: {} {}, {} of the total)",
            thousands(hidden),
            if hidden == 1 { "context" } else { "contexts" },
            by.join(" and "),
            thousands(value),
            self.metric.name,
            String::from_utf8_lossy(&share).trim_start()
        )
    }
}

fn write_hot_methods(
    profile: &Profile,
    names: &[Cow<'_, str>],
    totals: &Totals,
    metric: Metric,
    methods: &[HotMethod],
    out: &mut impl Write,
) -> io::Result<()> {
    let (name, label) = (
        &profile.metric_info(metric).name,
        profile.metric_info(metric).label(),
    );
    let grand = totals.grand(metric);
    let shown = &methods[..methods.len().min(HOT_METHODS)];
    writeln!(out)?;
    writeln!(out, "== Hot methods ({label}) ==")?;
    if shown.len() < methods.len() {
        write!(
            out,
            "The {} methods with the most own {name}, of {}",
            shown.len(),
            thousands(methods.len() as u64)
        )?;
    } else {
        write!(out, "All {} methods, by own {name}", methods.len())?;
    }
    writeln!(
        out,
        ", summed over their contexts; a total counts recursion once."
    )?;
    writeln!(out)?;
    if methods.is_empty() {
        return writeln!(out, "(no methods)");
    }
    let width = thousands(grand).len().max("total".len());
    let calls_width = thousands(totals.grand(Metric::Calls)).len().max("calls".len());
    let contexts_width = thousands(profile.context_count() as u64)
        .len()
        .max("contexts".len());
    writeln!(
        out,
        "{:>width$}  {:>6}  {:>width$}  {:>6}  {:>calls_width$}  {:>contexts_width$}  method",
        "self", "self%", "total", "total%", "calls", "contexts"
    )?;
    let mut line: Vec<u8> = Vec::with_capacity(256);
    for method in shown {
        line.clear();
        let own = method.self_value(metric);
        let total = method.total_value(metric);
        push_thousands(&mut line, own, width);
        line.extend_from_slice(b"  ");
        push_percent(&mut line, own, grand);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, total, width);
        line.extend_from_slice(b"  ");
        push_percent(&mut line, total, grand);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, method.self_calls, calls_width);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, method.contexts, contexts_width);
        line.extend_from_slice(b"  ");
        if method.recursive {
            line.extend_from_slice(b"R ");
        }
        line.extend_from_slice(names[method.frame.0 as usize].as_bytes());
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

/// The Tests section, if `profile` has tests: the tests by subtree total in
/// `metric`, each with both totals, its share of the whole and, below it,
/// its hottest methods by own value in `metric`.
/// The Threads section: each thread group's totals, largest first; none
/// for a profile without groups.
fn write_threads(profile: &Profile, totals: &Totals, metric: Metric, out: &mut impl Write) -> io::Result<()> {
    let groups = thread_totals(profile, metric);
    // Groups keep calls and bytecodes alone.
    if groups.is_empty() || matches!(metric, Metric::Extra(_)) {
        return Ok(());
    }
    let (name, label) = (
        &profile.metric_info(metric).name,
        profile.metric_info(metric).label(),
    );
    let grand = totals.grand(metric);
    let threads = groups
        .iter()
        .fold(0u64, |sum, group| sum.saturating_add(group.threads));
    writeln!(out)?;
    writeln!(out, "== Threads ({label}) ==")?;
    writeln!(
        out,
        "{} thread {} ({} {}), by total {name}; % of {} in all. `jp report --thread NAME` reports one alone.",
        thousands(groups.len() as u64),
        if groups.len() == 1 { "group" } else { "groups" },
        thousands(threads),
        if threads == 1 { "thread" } else { "threads" },
        thousands(grand)
    )?;
    writeln!(out)?;
    let width = thousands(grand).len().max(name.len());
    let calls_width = thousands(totals.grand(Metric::Calls)).len().max("calls".len());
    let threads_width = thousands(threads).len().max("threads".len());
    writeln!(
        out,
        "{name:>width$}       %  {:>calls_width$}  {:>threads_width$}  thread group",
        "calls", "threads"
    )?;
    let mut line: Vec<u8> = Vec::with_capacity(128);
    for group in &groups {
        line.clear();
        push_thousands(&mut line, group.value(metric), width);
        line.extend_from_slice(b"  ");
        push_percent(&mut line, group.value(metric), grand);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, group.calls, calls_width);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, group.threads, threads_width);
        line.extend_from_slice(b"  ");
        line.extend_from_slice(names::escape(group.label()).as_bytes());
        line.push(b'\n');
        out.write_all(&line)?;
    }
    Ok(())
}

fn write_tests(
    profile: &Profile,
    names: &[Cow<'_, str>],
    totals: &Totals,
    metric: Metric,
    out: &mut impl Write,
) -> io::Result<()> {
    let mut tests = test_totals(profile, totals);
    if tests.is_empty() {
        return Ok(());
    }
    tests.sort_unstable_by_key(|test| test.rank(metric));
    let (name, label) = (
        &profile.metric_info(metric).name,
        profile.metric_info(metric).label(),
    );
    let grand = totals.grand(metric);
    let classes = tests.iter().filter(|test| test.scope == TestScope::Class).count();
    let count = |n: usize, one: &str, many: &str| {
        format!("{} {}", thousands(n as u64), if n == 1 { one } else { many })
    };
    let shown = &tests[..tests.len().min(TESTS)];
    writeln!(out)?;
    writeln!(out, "== Tests ({label}) ==")?;
    write!(
        out,
        "{} and {}",
        count(tests.len() - classes, "test", "tests"),
        count(classes, "test class", "test classes")
    )?;
    if shown.len() < tests.len() {
        write!(out, " (the {} with the most {name} listed)", shown.len())?;
    }
    writeln!(
        out,
        ", by total {name}; % of {} in all. Under each, its {METHODS_PER_TEST} methods with the most own {name}.",
        thousands(grand)
    )?;
    writeln!(out)?;
    let width = thousands(grand).len().max(name.len());
    let calls_width = thousands(totals.grand(Metric::Calls)).len().max("calls".len());
    let rank_width = thousands(tests.len() as u64).len().max("rank".len());
    writeln!(
        out,
        "{:>rank_width$}  {name:>width$}       %  {:>calls_width$}  test",
        "rank", "calls"
    )?;
    let mut line: Vec<u8> = Vec::with_capacity(256);
    for test in shown {
        line.clear();
        push_thousands(&mut line, test.rank(metric) as u64, rank_width);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, test.value(metric), width);
        line.extend_from_slice(b"  ");
        push_percent(&mut line, test.value(metric), grand);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, test.calls, calls_width);
        line.extend_from_slice(b"  ");
        let label = &names[profile.node(test.node).frame.0 as usize];
        line.extend_from_slice(label[jp_profile::tests::TEST_FRAME_PREFIX.len()..].as_bytes());
        if test.scope == TestScope::Class {
            line.extend_from_slice(b" (class-level)");
        }
        line.push(b'\n');
        for (frame, value) in hottest_methods(profile, test.node, metric, METHODS_PER_TEST) {
            line.resize(line.len() + rank_width + 2, b' ');
            push_thousands(&mut line, value, width);
            line.extend_from_slice(b"  ");
            push_percent(&mut line, value, grand);
            line.resize(line.len() + 2 + calls_width + 4, b' ');
            line.extend_from_slice(names[frame.0 as usize].as_bytes());
            line.push(b'\n');
        }
        out.write_all(&line)?;
    }
    Ok(())
}

/// `value` with a `,` between groups of three digits.
pub(crate) fn thousands(value: u64) -> String {
    let mut text = Vec::new();
    push_thousands(&mut text, value, 0);
    String::from_utf8(text).expect("digits and commas")
}

/// `value` with thousands separators, right-aligned in `width` characters.
pub(crate) fn push_thousands(line: &mut Vec<u8>, mut value: u64, width: usize) {
    // u64::MAX has 20 digits and 6 separators.
    let mut digits = [0u8; 26];
    let mut start = digits.len();
    let mut count = 0;
    loop {
        if count > 0 && count % 3 == 0 {
            start -= 1;
            digits[start] = b',';
        }
        start -= 1;
        digits[start] = b'0' + (value % 10) as u8;
        value /= 10;
        count += 1;
        if value == 0 {
            break;
        }
    }
    let text = &digits[start..];
    line.resize(line.len() + width.saturating_sub(text.len()), b' ');
    line.extend_from_slice(text);
}

/// `value` as a percentage of `whole` with one decimal, right-aligned in 6
/// characters (`100.0%`); 0% when `whole` is 0.
pub(crate) fn push_percent(line: &mut Vec<u8>, value: u64, whole: u64) {
    let tenths = if whole == 0 {
        0
    } else {
        ((u128::from(value) * 1000 + u128::from(whole) / 2) / u128::from(whole)) as u64
    };
    push_thousands(line, tenths / 10, 3);
    line.push(b'.');
    line.push(b'0' + (tenths % 10) as u8);
    line.push(b'%');
}

/// A bar of `#` as long as `value` is to `max` what [`BAR_WIDTH`] is to a
/// full bar (rounded), padded with spaces to [`BAR_WIDTH`].
fn push_bar(line: &mut Vec<u8>, value: u64, max: u64) {
    let filled = if max == 0 {
        0
    } else {
        ((u128::from(value) * u128::from(BAR_WIDTH) * 2 + u128::from(max)) / (u128::from(max) * 2)) as usize
    };
    let filled = filled.min(BAR_WIDTH as usize);
    line.resize(line.len() + filled, b'#');
    line.resize(line.len() + BAR_WIDTH as usize - filled, b' ');
}

/// Two spaces per level above `depth`, up to [`MAX_INDENT_DEPTH`] levels;
/// deeper, the indentation of the level after it and `[depth N] `.
pub(crate) fn push_indent(line: &mut Vec<u8>, depth: u32) {
    let levels = depth.min(MAX_INDENT_DEPTH + 1) - 1;
    line.resize(line.len() + 2 * levels as usize, b' ');
    if depth > MAX_INDENT_DEPTH + 1 {
        line.extend_from_slice(b"[depth ");
        push_thousands(line, u64::from(depth), 0);
        line.extend_from_slice(b"] ");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    fn text(profile: &Profile, options: &Options) -> String {
        let mut out = Vec::new();
        write(profile, options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    /// The lines of the section titled `title`, its heading left out.
    fn section<'a>(report: &'a str, title: &str) -> Vec<&'a str> {
        let start = report.find(&format!("== {title}")).unwrap();
        let body = &report[start..];
        let end = body[1..].find("\n== ").map_or(body.len(), |end| end + 1);
        body[..end]
            .lines()
            .skip(3)
            .filter(|line| !line.is_empty())
            .collect()
    }

    #[test]
    fn thread_groups_are_listed_with_their_totals_before_the_trees() {
        let report = text(&crate::grouped_profile(), &Options::new(Metric::Bytecodes));
        let threads = report.find("== Threads (bytecodes) ==").unwrap();
        assert!(threads < report.find("== Contexts by own value").unwrap());
        assert!(report[threads..].starts_with(
            "== Threads (bytecodes) ==\n\
             2 thread groups (5 threads), by total bytecodes; % of 26,192 in all. \
             `jp report --thread NAME` reports one alone.\n\n\
             bytecodes       %  calls  threads  thread group\n\
             \x20  20,920   79.9%     40        4  pool-#-thread-#\n\
             \x20   5,272   20.1%     11        1  main\n"
        ));
        let plain = text(&profile(&[(&["main"], 1, 1)]), &Options::new(Metric::Bytecodes));
        assert!(!plain.contains("== Threads"));
    }

    #[test]
    fn a_small_profile_gives_this_report() {
        let mut p = profile(&[
            (&["main"], 1, 1_200),
            (&["main", "work"], 10, 50_000),
            (&["main", "log"], 10, 1_000),
            (&["<clinit>"], 1, 300),
        ]);
        p.meta.insert("agent".into(), "default".into());
        p.meta.insert("threads".into(), "2".into());
        p.meta.insert("zone".into(), "test".into());
        assert_eq!(
            text(&p, &Options::new(Metric::Bytecodes)),
            "\
JP profile report

agent     default
threads   2
zone      test
files     1
contexts  4
methods   4

total calls          22
total bytecodes  52,500

own    what a context counted itself, its callees not included
total  its own value plus those of every context below it (its subtree)
%      share of the whole profile's total in that metric
bar    the value as a share of the largest value in its section
R      recursion: the method already occurs above this context on its path

== Contexts by own value (bytecodes) ==
Each context's own bytecodes; % of 52,500 in all; a full bar is 50,000.

bytecodes       %  bar                   context
    1,200    2.3%                        main
   50,000   95.2%  ####################    work
    1,000    1.9%                          log
      300    0.6%                        <clinit>

== Contexts by subtree total (bytecodes) ==
Each context's total bytecodes; % of 52,500 in all; a full bar is 52,200.

bytecodes       %  bar                   context
   52,200   99.4%  ####################  main
   50,000   95.2%  ###################     work
    1,000    1.9%                          log
      300    0.6%                        <clinit>

== Hot methods (bytecodes) ==
All 4 methods, by own bytecodes, summed over their contexts; a total counts recursion once.

  self   self%   total  total%  calls  contexts  method
50,000   95.2%  50,000   95.2%     10         1  work
 1,200    2.3%  52,200   99.4%      1         1  main
 1,000    1.9%   1,000    1.9%     10         1  log
   300    0.6%     300    0.6%      1         1  <clinit>
"
        );
    }

    #[test]
    fn names_are_short_by_default_full_on_request_and_a_title_heads_the_report() {
        let p = profile(&[(
            &[
                "demo.Main.main([Ljava/lang/String;)V",
                "demo.Box.get()Ljava/lang/Object;",
            ],
            1,
            1,
        )]);
        let short = text(&p, &Options::new(Metric::Calls));
        assert!(short.starts_with("JP profile report\n"), "{short}");
        assert!(short.contains("  Main.main(String[]) [demo]\n"), "{short}");
        assert!(short.contains("    Box.get() [demo]\n"), "{short}");
        let options = Options {
            names: crate::NameStyle::Full,
            title: Some("Checkout\u{1b}[2J".into()),
            ..Options::new(Metric::Calls)
        };
        let full = text(&p, &options);
        assert!(
            full.starts_with("JP profile report: Checkout\\u{1b}[2J\n"),
            "{full}"
        );
        assert!(
            full.contains("  demo.Main.main(java.lang.String[]):void\n"),
            "{full}"
        );
        assert!(full.contains("    demo.Box.get():java.lang.Object\n"), "{full}");
    }

    #[test]
    fn a_profile_of_a_test_run_gets_a_tests_section() {
        let report = text(&crate::profile_with_tests(), &Options::new(Metric::Bytecodes));
        let start = report.find("\n== Tests").unwrap();
        let end = report.find("\n== Contexts by own value").unwrap();
        assert_eq!(
            &report[start..end],
            "
== Tests (bytecodes) ==
4 tests and 1 test class, by total bytecodes; % of 1,637 in all. Under each, its 3 methods with the most own bytecodes.

rank  bytecodes       %  calls  test
   1      1,300   79.4%     52  demo.ParserTest#large()
            900   55.0%           Parser.parse(int) [demo]
            400   24.4%           Lexer.next() [demo]
   2        100    6.1%      1  demo.ParserTest#parses(String) > [1] \"a\\u{3b}b\"
            100    6.1%           Parser.parse(int) [demo]
   3        100    6.1%      1  demo.ParserTest#parses(String) > [2] \"c\"
            100    6.1%           Parser.parse(int) [demo]
   4        100    6.1%     71  demo.ParserTest#small()
             60    3.7%           Lexer.next() [demo]
             40    2.4%           Parser.parse(int) [demo]
   5         30    1.8%      1  demo.ParserTest (class-level)
             30    1.8%           Parser.<clinit>() [demo]
"
        );
    }

    #[test]
    fn tests_are_ranked_in_the_reports_metric_and_a_profile_without_tests_has_no_section() {
        let report = text(&crate::profile_with_tests(), &Options::new(Metric::Calls));
        let tests = section(&report, "Tests (calls)");
        assert!(
            tests[1].starts_with("   1") && tests[1].ends_with("  demo.ParserTest#small()"),
            "{}",
            tests[1]
        );
        assert!(tests[2].ends_with("  Lexer.next() [demo]"), "{}", tests[2]);
        let plain = text(&profile(&[(&["main"], 1, 1)]), &Options::new(Metric::Calls));
        assert!(!plain.contains("== Tests"));
    }

    #[test]
    fn recursion_is_marked() {
        let p = profile(&[
            (&["f"], 1, 1),
            (&["f", "g"], 1, 1),
            (&["f", "g", "f"], 1, 1),
            (&["f", "h"], 1, 1),
        ]);
        let report = text(&p, &Options::new(Metric::Calls));
        let names: Vec<&str> = section(&report, "Contexts by own")[1..]
            .iter()
            .map(|line| line.split("  ").last().unwrap())
            .collect();
        assert_eq!(names, ["f", "g", "R f", "h"]);
        let hot = section(&report, "Hot methods");
        assert!(hot[1].ends_with("  R f"), "{}", hot[1]);
        assert!(hot[2].ends_with("  g"), "{}", hot[2]);
    }

    #[test]
    fn a_threshold_leaves_out_small_contexts_and_says_so() {
        let (p, options) = crate::threshold_case();
        let report = text(&p, &options);
        let lines = section(&report, "Contexts by subtree total");
        assert_eq!(lines.len(), 1 + 3 + 1, "{report}");
        assert!(lines
            .iter()
            .all(|line| !line.contains("small") && !line.contains("tiny")));
        assert_eq!(
            lines[4],
            "(2 contexts left out by --threshold 6: 5 bytecodes, 4.9% of the total)"
        );
        assert_eq!(section(&report, "Contexts by own value")[4], lines[4]);
    }

    #[test]
    fn max_depth_leaves_out_deeper_contexts_and_says_so() {
        let p = profile(&[(&["a", "b", "c"], 1, 1), (&["a", "b"], 1, 1)]);
        let options = Options {
            max_depth: Some(1),
            ..Options::new(Metric::Calls)
        };
        let report = text(&p, &options);
        let lines = section(&report, "Contexts by own value");
        assert_eq!(
            lines[1..],
            [
                "    0    0.0%                        a",
                "(2 contexts left out by --max-depth 1: 2 calls, 100.0% of the total)"
            ]
        );
    }

    #[test]
    fn siblings_go_by_subtree_total_in_both_sections() {
        // `a` has the larger own value, `b` the larger subtree.
        let p = profile(&[(&["m", "a"], 5, 5), (&["m", "b"], 1, 1), (&["m", "b", "c"], 9, 9)]);
        let report = text(&p, &Options::new(Metric::Calls));
        for title in ["Contexts by own value", "Contexts by subtree total"] {
            let names: Vec<&str> = section(&report, title)[1..]
                .iter()
                .map(|line| line.rsplit("  ").next().unwrap().trim())
                .collect();
            assert_eq!(names, ["m", "b", "c", "a"], "{title}");
        }
    }

    #[test]
    fn the_order_of_insertion_does_not_matter() {
        let a = profile(&[(&["m", "b"], 1, 2), (&["m", "a"], 3, 2), (&["n"], 5, 6)]);
        let b = profile(&[(&["n"], 5, 6), (&["m", "a"], 3, 2), (&["m", "b"], 1, 2)]);
        let options = Options::new(Metric::Bytecodes);
        assert_eq!(text(&a, &options), text(&b, &options));
    }

    #[test]
    fn numbers_get_thousands_separators() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1_000), "1,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(thousands(u64::MAX), "18,446,744,073,709,551,615");
        let mut line = Vec::new();
        push_thousands(&mut line, 12_345, 8);
        assert_eq!(line, b"  12,345");
    }

    #[test]
    fn percentages_and_bars_are_rounded() {
        let percent = |value, whole| {
            let mut line = Vec::new();
            push_percent(&mut line, value, whole);
            String::from_utf8(line).unwrap()
        };
        assert_eq!(percent(1, 3), " 33.3%");
        assert_eq!(percent(2, 3), " 66.7%");
        assert_eq!(percent(5, 5), "100.0%");
        assert_eq!(percent(0, 0), "  0.0%");
        assert_eq!(percent(u64::MAX, u64::MAX), "100.0%");
        let bar = |value, max| {
            let mut line = Vec::new();
            push_bar(&mut line, value, max);
            String::from_utf8(line).unwrap()
        };
        assert_eq!(bar(10, 10), "#".repeat(20));
        assert_eq!(bar(1, 2), format!("{}{}", "#".repeat(10), " ".repeat(10)));
        assert_eq!(bar(1, 100), " ".repeat(20));
        assert_eq!(bar(3, 100), format!("#{}", " ".repeat(19)));
        assert_eq!(bar(0, 0), " ".repeat(20));
    }

    #[test]
    fn deep_contexts_are_indented_no_further_than_the_cap() {
        let frames: Vec<String> = (0..45).map(|i| format!("m{i}")).collect();
        let frames: Vec<&str> = frames.iter().map(String::as_str).collect();
        let p = profile(&[(&frames, 1, 1)]);
        let report = text(&p, &Options::new(Metric::Calls));
        let lines = section(&report, "Contexts by own value");
        let tree = |line: &str| line[line.find('%').unwrap() + 1 + 2 + 20 + 2..].to_owned();
        assert_eq!(tree(lines[1]), "m0");
        assert_eq!(tree(lines[2]), "  m1");
        assert_eq!(tree(lines[41]), format!("{}m40", " ".repeat(80)));
        assert_eq!(tree(lines[42]), format!("{}[depth 42] m41", " ".repeat(80)));
        assert_eq!(tree(lines[45]), format!("{}[depth 45] m44", " ".repeat(80)));
    }

    #[test]
    fn deep_recursion_does_not_overflow_the_stack() {
        let frames: Vec<&str> = (0..100_000).map(|i| if i % 2 == 0 { "f" } else { "g" }).collect();
        let p = profile(&[(&frames, 1, 1)]);
        let report = text(&p, &Options::new(Metric::Calls));
        let lines = section(&report, "Contexts by subtree total");
        assert_eq!(lines.len(), 1 + 100_000);
        assert!(lines.last().unwrap().ends_with("[depth 100,000] R g"));
        assert!(report.lines().all(|line| line.len() < 200));
    }

    #[test]
    fn control_characters_in_names_and_metadata_are_written_escaped() {
        let mut p = profile(&[(&["a\nb\u{1b}[2J()V"], 1, 1)]);
        p.meta.insert("command".into(), "run\u{1b}]0;owned\u{7}".into());
        let report = text(&p, &Options::new(Metric::Calls));
        assert!(report.contains("  a\\u{a}b\\u{1b}[2J()\n"), "{report}");
        assert!(report.contains("  run\\u{1b}]0;owned\\u{7}\n"), "{report}");
        assert!(!report.contains(['\u{1b}', '\u{7}']));
        assert!(!report.contains("a\nb"));
    }

    #[test]
    fn an_empty_profile_says_so() {
        let report = text(&Profile::new(), &Options::new(Metric::Calls));
        assert_eq!(section(&report, "Contexts by own value"), ["(no contexts)"]);
        assert_eq!(section(&report, "Hot methods"), ["(no methods)"]);
        assert!(report.contains("total calls      0\n"));
    }

    #[test]
    fn the_hot_methods_are_capped() {
        let names: Vec<String> = (0..60).map(|i| format!("m{i:02}")).collect();
        let paths: Vec<[&str; 1]> = names.iter().map(|name| [name.as_str()]).collect();
        let triples: Vec<(&[&str], u64, u64)> = paths
            .iter()
            .enumerate()
            .map(|(i, path)| (&path[..], i as u64 + 1, 1))
            .collect();
        let report = text(&profile(&triples), &Options::new(Metric::Calls));
        assert!(report.contains("The 50 methods with the most own calls, of 60, summed"));
        let hot = section(&report, "Hot methods");
        assert_eq!(hot.len(), 1 + 50);
        assert!(hot[1].ends_with(" m59") && hot[50].ends_with(" m10"));
    }

    #[test]
    fn extra_metrics_are_totalled_in_the_header_and_a_sampled_one_is_labelled_so() {
        let (p, cpu) = crate::sampled_profile();
        let report = text(&p, &Options::new(Metric::Bytecodes));
        assert!(
            report.contains(
                "total calls          7\n\
                 total bytecodes    914\n\
                 total cpu-samples   70 samples (sampled, not reproducible)\n"
            ),
            "{report}"
        );
        // What only the sampler saw is no context in bytecodes, nor a method.
        assert!(!report.contains("Thread.sleep"), "{report}");
        let by_samples = text(&p, &Options::new(cpu));
        assert!(
            by_samples.contains("== Contexts by own value (cpu-samples (sampled, not reproducible)) =="),
            "{by_samples}"
        );
        assert!(by_samples.contains("Thread.sleep(long)"), "{by_samples}");
    }
}
