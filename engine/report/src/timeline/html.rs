//! The timeline as one self-contained HTML page, built as the report's
//! page is ([`crate::html`]: the same Content-Security-Policy, nothing
//! loaded from elsewhere, the data as escaped JSON in a
//! `<script type="application/json">` element that the page's script
//! reads, names only ever put into text nodes): the intervals' totals as
//! bars, and a grid of the top methods (or contexts) of the run over the
//! intervals, each cell shaded by the method's share of its interval, so
//! that which code ran when shows at a glance.
//!
//! The data holds, per interval, its number, elapsed milliseconds (`null`
//! when unknown), trigger and totals; and for the [`ROWS`] methods and
//! contexts with the largest own values in `--metric` over the run, their
//! own calls and bytecodes in every interval, as flat arrays of rows by
//! intervals.

use std::io::{self, Write};

use jp_profile::{Metric, NodeId};

use super::{Interval, Timeline};
use crate::html::{data_element, write_names, Page};
use crate::json_out::JsonOut;
use crate::text::metric_name;
use crate::Options;

/// The page's style sheet.
const STYLE: &str = include_str!("html/timeline.css");
/// The page's body, filled in by the script.
const BODY: &str = include_str!("html/body.html");
/// The page's script: reads the data element and draws everything.
const SCRIPT: &str = include_str!("html/timeline.js");
/// How many methods, and how many contexts, the grid has at most.
pub const ROWS: usize = 40;

/// Writes the HTML timeline.
///
/// # Errors
/// Those of `out`.
pub fn write(timeline: &Timeline, options: &Options, mut out: impl Write) -> io::Result<()> {
    let title = options.title.as_deref().unwrap_or("JP timeline");
    let page_title = format!("{title} - JP timeline");
    let page = Page {
        title: &page_title,
        style: STYLE,
        body: BODY,
        script: SCRIPT,
    };
    page.write(&mut out, |page| {
        data_element(page, "jp-data", |data| write_data(timeline, options, title, data))
    })
}

/// The data element's JSON (see the script's start).
fn write_data<W: Write>(
    timeline: &Timeline,
    options: &Options,
    title: &str,
    page: &mut JsonOut<W>,
) -> io::Result<()> {
    let whole = &timeline.whole;
    let intervals = &timeline.intervals;
    page.raw("{\"version\":1,\"generator\":");
    page.string(concat!("jp ", env!("CARGO_PKG_VERSION")));
    page.raw(",\"title\":");
    page.string(title);
    page.raw(",\"metric\":");
    page.string(metric_name(options.metric));
    page.raw(",\n\"meta\":[");
    let meta = ["agent", "jvm", "pid", "start", "command"]
        .into_iter()
        .filter_map(|key| Some((key, whole.meta.get(key)?)));
    for (position, (key, value)) in meta.enumerate() {
        page.raw(if position == 0 { "[" } else { ",[" });
        page.string(key);
        page.raw(",");
        page.string(value);
        page.raw("]");
    }
    page.raw("],\n");
    write_names(whole.frames(), options.names, page)?;
    page.raw(",\n\"number\":");
    page.numbers(intervals.iter().map(|interval| interval.number))?;
    page.raw(",\n\"elapsed\":[");
    for (position, interval) in intervals.iter().enumerate() {
        page.raw(if position == 0 { "" } else { "," });
        match interval.elapsed_millis {
            Some(millis) => page.number(millis),
            None => page.raw("null"),
        }
    }
    page.raw("],\n\"trigger\":[");
    for (position, interval) in intervals.iter().enumerate() {
        page.raw(if position == 0 { "" } else { "," });
        page.string(&interval.trigger);
    }
    page.raw("],\n\"calls\":");
    page.numbers(intervals.iter().map(|interval| interval.calls))?;
    page.raw(",\n\"bytecodes\":");
    page.numbers(intervals.iter().map(|interval| interval.bytecodes))?;

    // Methods: one frame each; per interval, its own values over its contexts.
    let methods: Vec<_> = timeline
        .ranked_methods(options.metric)
        .into_iter()
        .take(ROWS)
        .collect();
    let per_interval: Vec<_> = intervals.iter().map(|interval| interval.methods(whole)).collect();
    page.raw(",\n\"methods\":{\"frame\":");
    page.numbers(methods.iter().map(|&(frame, _)| u64::from(frame.0)))?;
    for (key, metric) in [("calls", Metric::Calls), ("bytecodes", Metric::Bytecodes)] {
        page.raw(",\"");
        page.raw(key);
        page.raw("\":");
        page.numbers(methods.iter().flat_map(|&(frame, _)| {
            per_interval
                .iter()
                .map(move |values| values.get(&frame).map_or(0, |&v| super::pick(v, metric)))
        }))?;
    }
    // Contexts: a path of frames each, outermost first.
    let contexts: Vec<_> = timeline
        .ranked_contexts(options.metric)
        .into_iter()
        .take(ROWS)
        .collect();
    page.raw("},\n\"contexts\":{\"path\":[");
    for (position, &(id, _)) in contexts.iter().enumerate() {
        page.raw(if position == 0 { "" } else { "," });
        page.numbers(path_frames(timeline, id))?;
    }
    page.raw("]");
    for (key, metric) in [("calls", Metric::Calls), ("bytecodes", Metric::Bytecodes)] {
        page.raw(",\"");
        page.raw(key);
        page.raw("\":");
        page.numbers(contexts.iter().flat_map(|&(id, _)| {
            intervals
                .iter()
                .map(move |interval| context_value(interval, id, metric))
        }))?;
    }
    page.raw("}}\n");
    Ok(())
}

/// The frames of `id`'s path, outermost first.
fn path_frames(timeline: &Timeline, id: NodeId) -> Vec<u64> {
    let mut frames = Vec::new();
    let mut at = id;
    while at != NodeId::ROOT {
        let node = timeline.whole.node(at);
        frames.push(u64::from(node.frame.0));
        at = node.parent;
    }
    frames.reverse();
    frames
}

fn context_value(interval: &Interval, id: NodeId, metric: Metric) -> u64 {
    interval
        .contexts
        .get(&id)
        .map_or(0, |&values| super::pick(values, metric))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::tests::data;
    use crate::timeline::tests::phases;
    use serde_json::json;

    fn page(options: &Options) -> String {
        let mut out = Vec::new();
        write(&phases(), options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_grid_holds_each_methods_values_per_interval() {
        let data = data(&page(&Options::new(Metric::Bytecodes)));
        assert_eq!(data["number"], json!([1, 2, 3]));
        assert_eq!(data["elapsed"], json!([100, 200, 300]));
        assert_eq!(data["trigger"], json!(["timer", "timer", "timer"]));
        assert_eq!(data["calls"], json!([6, 3, 4]));
        assert_eq!(data["bytecodes"], json!([52, 31, 40]));
        let names: Vec<&str> = data["methods"]["frame"]
            .as_array()
            .unwrap()
            .iter()
            .map(|frame| data["names"][frame.as_u64().unwrap() as usize].as_str().unwrap())
            .collect();
        assert_eq!(names, ["a", "b", "main"]);
        // Rows by intervals: a in 1 and 2, b in 3, main in 1 and 2.
        assert_eq!(
            data["methods"]["bytecodes"],
            json!([50, 30, 0, 0, 0, 40, 2, 1, 0])
        );
        assert_eq!(data["methods"]["calls"], json!([5, 3, 0, 0, 0, 4, 1, 0, 0]));
        let paths: Vec<Vec<&str>> = data["contexts"]["path"]
            .as_array()
            .unwrap()
            .iter()
            .map(|path| {
                let frames = path.as_array().unwrap();
                frames
                    .iter()
                    .map(|f| data["names"][f.as_u64().unwrap() as usize].as_str().unwrap())
                    .collect()
            })
            .collect();
        assert_eq!(paths, [vec!["main", "a"], vec!["main", "b"], vec!["main"]]);
        assert_eq!(
            data["contexts"]["bytecodes"],
            json!([50, 30, 0, 0, 0, 40, 2, 1, 0])
        );
    }

    #[test]
    fn the_page_is_titled_and_loads_nothing_from_elsewhere() {
        let options = Options {
            title: Some("</title>Phases".into()),
            ..Options::new(Metric::Calls)
        };
        let page = page(&options);
        assert!(page.contains("<title>&lt;/title&gt;Phases - JP timeline</title>"));
        assert_eq!(data(&page)["metric"], "calls");
        for asset in [STYLE, BODY, SCRIPT] {
            assert!(!asset.contains("</script") && !asset.contains("</style"));
            assert!(!asset.contains("http:") && !asset.contains("https:") && !asset.contains("url("));
            assert!(!asset.contains("src="), "no element loads a source");
        }
    }
}
