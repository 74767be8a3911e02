//! The diff as one self-contained HTML page, built as the report's page is
//! ([`crate::html`]: the same Content-Security-Policy, nothing loaded from
//! elsewhere, the data as escaped JSON in a `<script type="application/json">`
//! element that the page's script reads): a differential icicle graph of the
//! joined tree, each frame as wide as its subtree on both sides together and
//! coloured by the change of its own value (red for growth, blue for
//! shrinkage, deeper for larger changes), with hover details and click to
//! zoom; and the ranked tables of methods and tests.
//!
//! The graph holds every context of the joined tree, depth first, siblings
//! by their combined subtree total in the metric, as flat arrays of depth,
//! frame, presence (1: base, 2: new, 3: both) and, for each side, the own
//! values in every metric of the diff (calls, bytecodes and its extra one). The tables hold the rows that the text diff
//! lists (`--threshold`, `--limit`).

use std::io::{self, Write};

use jp_profile::{Metric, NodeId};

use super::{shown, Diff, DiffOptions, Row};
use crate::html::{data_element, Page};
use crate::json_out::JsonOut;

/// The page's style sheet.
const STYLE: &str = include_str!("html/diff.css");
/// The page's body, filled in by the script.
const BODY: &str = include_str!("html/body.html");
/// The page's script: reads the data element and draws everything.
const SCRIPT: &str = include_str!("html/diff.js");

/// Writes the HTML diff.
///
/// # Errors
/// Those of `out`.
pub fn write(diff: &Diff, options: &DiffOptions, mut out: impl Write) -> io::Result<()> {
    let title = match &options.title {
        Some(title) => format!("{title} - JP profile diff"),
        None => "JP profile diff".to_owned(),
    };
    let page = Page {
        title: &title,
        style: STYLE,
        body: BODY,
        script: SCRIPT,
    };
    page.write(&mut out, |page| {
        data_element(page, "jp-data", |data| write_data(diff, options, data))
    })
}

/// Every context, depth first from the root, siblings by combined subtree
/// total in `metric` (largest first, ties by name), with its depth.
fn depth_first(diff: &Diff, metric: Metric) -> Vec<(NodeId, u32)> {
    let size = |id: NodeId| {
        let total = diff.total[id.0 as usize];
        u128::from(total.base.get(metric)) + u128::from(total.new.get(metric))
    };
    let mut out = Vec::with_capacity(diff.own.len());
    let mut work = vec![(NodeId::ROOT, 0u32)];
    let mut siblings = Vec::new();
    while let Some((id, depth)) = work.pop() {
        out.push((id, depth));
        siblings.clear();
        siblings.extend(diff.tree.children(id));
        siblings.sort_by(|&a, &b| {
            size(b)
                .cmp(&size(a))
                .then_with(|| diff.frame_name(a).cmp(diff.frame_name(b)))
        });
        work.extend(siblings.iter().rev().map(|&child| (child, depth + 1)));
    }
    out
}

/// The data element's JSON (see the script's `load`).
fn write_data<W: Write>(diff: &Diff, options: &DiffOptions, page: &mut JsonOut<W>) -> io::Result<()> {
    let metric = options.metric;
    let churn = diff.churn(metric);
    page.raw("{\"version\":1,\"generator\":");
    page.string(concat!("jp ", env!("CARGO_PKG_VERSION")));
    page.raw(",\"metric\":");
    page.string(diff.metric_name(metric));
    page.raw(",\"title\":");
    page.string(options.title.as_deref().unwrap_or("JP profile diff"));
    page.raw(",\"threshold\":");
    page.string(&options.threshold.to_string());
    page.raw(",\"filter\":");
    match &options.filter.0 {
        Some(text) => page.string(text),
        None => page.raw("null"),
    }
    page.raw(",\"files\":[");
    page.number(diff.files.0);
    page.raw(",");
    page.number(diff.files.1);
    page.raw("],\"tested\":");
    page.raw(if diff.both_have_tests() { "true" } else { "false" });
    page.raw(",\n");
    crate::html::write_names(diff.tree.frames(), options.names, page)?;
    let contexts = depth_first(diff, metric);
    page.raw(",\n\"depth\":");
    page.numbers(contexts.iter().map(|&(_, depth)| u64::from(depth)))?;
    // The root has no frame: it is written as frame 0 and never named.
    page.raw(",\n\"frame\":");
    page.numbers(
        contexts
            .iter()
            .map(|&(id, _)| u64::from(diff.tree.node(id).frame.0)),
    )?;
    page.raw(",\n\"present\":");
    page.numbers(contexts.iter().map(|&(id, _)| {
        let own = diff.own[id.0 as usize];
        u64::from(own.in_base) | u64::from(own.in_new) << 1
    }))?;
    let metrics = diff.metrics();
    page.raw(",\n\"metrics\":[");
    for (position, &metric) in metrics.iter().enumerate() {
        if position > 0 {
            page.raw(",");
        }
        page.string(diff.metric_name(metric));
    }
    page.raw("]");
    for (key, side) in [
        ("base", (|c| c.base) as fn(&super::Change) -> super::Counts),
        ("new", |c| c.new),
    ] {
        page.raw(",\n\"");
        page.raw(key);
        page.raw("\":[");
        for (position, &metric) in metrics.iter().enumerate() {
            if position > 0 {
                page.raw(",\n");
            }
            page.numbers(
                contexts
                    .iter()
                    .map(|&(id, _)| side(&diff.own[id.0 as usize]).get(metric)),
            )?;
        }
        page.raw("]");
    }
    let (methods, methods_left) = shown(&diff.methods(metric), churn, options);
    page.raw(",\n\"methods\":");
    rows(page, &metrics, &methods)?;
    page.raw(",\"methodsLeft\":");
    page.number(methods_left as u64);
    let (tests, tests_left) = shown(&diff.tests(metric), churn, options);
    page.raw(",\n\"tests\":");
    rows(page, &metrics, &tests)?;
    page.raw(",\"testsLeft\":");
    page.number(tests_left as u64);
    page.raw("}\n");
    Ok(())
}

/// Rows as a flat array of frame, presence, the base side's value in
/// each of `metrics`, then the new side's.
fn rows<W: Write>(page: &mut JsonOut<W>, metrics: &[Metric], rows: &[Row]) -> io::Result<()> {
    page.numbers(rows.iter().flat_map(|row| {
        let change = row.change;
        let presence = u64::from(change.in_base) | u64::from(change.in_new) << 1;
        let base = metrics.iter().map(move |&metric| change.base.get(metric));
        let new = metrics.iter().map(move |&metric| change.new.get(metric));
        [u64::from(row.frame.0), presence]
            .into_iter()
            .chain(base)
            .chain(new)
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::NameFilter;
    use crate::html::tests::data;
    use crate::html::CSP;
    use crate::profile;

    fn page(diff: &Diff) -> String {
        let mut out = Vec::new();
        write(diff, &DiffOptions::new(Metric::Bytecodes), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_page_holds_every_context_of_both_sides_and_the_ranked_methods() {
        let base = profile(&[
            (&["main"], 1, 10),
            (&["main", "f"], 1, 10),
            (&["main", "old"], 1, 3),
        ]);
        let new = profile(&[(&["main"], 1, 10), (&["main", "f"], 1, 90)]);
        let diff = Diff::of(&base, &new, &NameFilter::default());
        let data = data(&page(&diff));
        assert_eq!(data["depth"], serde_json::json!([0, 1, 2, 2]));
        assert_eq!(data["present"], serde_json::json!([0, 3, 3, 1]));
        assert_eq!(data["metrics"], serde_json::json!(["calls", "bytecodes"]));
        assert_eq!(data["new"][1], serde_json::json!([0, 10, 90, 0]));
        let names = data["names"].as_array().unwrap();
        let first = data["methods"][0].as_u64().unwrap() as usize;
        assert_eq!(names[first], "f");
        assert_eq!(data["methods"].as_array().unwrap().len(), 2 * 6);
    }

    #[test]
    fn a_title_names_the_page_and_its_header_as_text() {
        let p = profile(&[(&["main"], 1, 10)]);
        let diff = Diff::of(&p, &p, &NameFilter::default());
        assert_eq!(data(&page(&diff))["title"], "JP profile diff");
        let options = DiffOptions {
            title: Some("<b>checkout</b>".into()),
            ..DiffOptions::new(Metric::Bytecodes)
        };
        let mut out = Vec::new();
        write(&diff, &options, &mut out).unwrap();
        let titled = String::from_utf8(out).unwrap();
        assert!(
            titled.contains("<title>&lt;b&gt;checkout&lt;/b&gt; - JP profile diff</title>"),
            "{titled}"
        );
        assert_eq!(data(&titled)["title"], "<b>checkout</b>");
        assert!(!titled.contains("<b>"));
    }

    #[test]
    fn the_page_loads_nothing_from_elsewhere_and_no_name_becomes_markup() {
        let evil = "x.Evil.m</script><img src=x onerror=alert(1)>()V";
        let p = profile(&[(&["main", evil], 1, 10)]);
        let page = page(&Diff::of(&p, &profile(&[]), &NameFilter::default()));
        assert!(page.contains(&format!("content=\"{CSP}\"")));
        assert_eq!(page.matches("</script>").count(), 2);
        assert!(!page.contains("<img"));
        for asset in [STYLE, BODY, SCRIPT] {
            assert!(!asset.contains("</script") && !asset.contains("</style"));
            assert!(!asset.contains("http:") && !asset.contains("https:") && !asset.contains("url("));
            assert!(!asset.contains("src="));
        }
    }
}
