//! The diff as JSON, for scripts and CI (the schema is in docs/cli.md):
//! the totals, the methods, the tests and the contexts, each with its
//! `base`, `new` and `delta` counts (`calls`, `bytecodes` and the diff's
//! extra metric by its name) and its `status`. Lists hold only what changed, ranked by the absolute change in
//! the metric, cut by the threshold and the limit, which `left_out` counts.

use std::io::{self, Write};

use jp_profile::{Metric, NodeId};

use super::{shown, Change, Diff, DiffOptions, Row, Status};
use crate::json_out::{Context, JsonOut};

/// The version of the schema, written as `version`.
const VERSION: u64 = 1;

/// Writes the JSON diff.
///
/// # Errors
/// Those of `out`.
pub fn write(diff: &Diff, options: &DiffOptions, mut out: impl Write) -> io::Result<()> {
    let metric = options.metric;
    let churn = diff.churn(metric);
    let mut json = JsonOut::new(&mut out, Context::File);
    json.raw("{\"version\":");
    json.number(VERSION);
    json.raw(",\"generator\":");
    json.string(concat!("jp ", env!("CARGO_PKG_VERSION")));
    json.raw(",\"metric\":");
    json.string(diff.metric_name(metric));
    json.raw(",\"threshold\":");
    json.raw(&options.threshold.to_string());
    json.raw(",\"filter\":");
    match &options.filter.0 {
        Some(text) => json.string(text),
        None => json.raw("null"),
    }
    json.raw(",\"files\":{\"base\":");
    json.number(diff.files.0);
    json.raw(",\"new\":");
    json.number(diff.files.1);
    json.raw("},\"changed\":");
    json.raw(&churn.to_string());
    json.raw(",\n\"totals\":{");
    let grand = diff.grand();
    let metrics = diff.metrics();
    let moved = metrics.iter().any(|&metric| diff.churn(metric) > 0);
    changes(
        &mut json,
        diff,
        &metrics,
        &grand,
        if moved { Status::Changed } else { Status::Unchanged },
    );
    json.raw("}");

    let (methods, methods_left) = shown(&diff.methods(metric), churn, options);
    json.raw(",\n\"methods\":[");
    rows(&mut json, diff, &methods, "method", |name| name)?;
    let (tests, tests_left) = shown(&diff.tests(metric), churn, options);
    json.raw("],\n\"tests\":[");
    rows(&mut json, diff, &tests, "test", |name| {
        jp_profile::tests::test_id(name).unwrap_or(name)
    })?;
    json.raw("],\n\"contexts\":[");
    let (contexts, contexts_left) = changed_contexts(diff, options, churn);
    for (position, &id) in contexts.iter().enumerate() {
        json.raw(if position == 0 {
            "\n{\"path\":["
        } else {
            ",\n{\"path\":["
        });
        for (depth, frame) in diff.tree.path(id).iter().enumerate() {
            if depth > 0 {
                json.raw(",");
            }
            json.string(frame);
        }
        json.raw("],");
        let change = diff.own[id.0 as usize];
        changes(&mut json, diff, &metrics, &change, change.status());
        json.raw("}");
        json.flush_if_full()?;
    }
    json.raw("],\n\"left_out\":{\"methods\":");
    json.number(methods_left as u64);
    json.raw(",\"tests\":");
    json.number(tests_left as u64);
    json.raw(",\"contexts\":");
    json.number(contexts_left as u64);
    json.raw("}}\n");
    json.flush()
}

/// The contexts whose own counts changed (or that were added or removed),
/// by absolute own change, ties by path, cut as the lists are; and how
/// many were cut.
fn changed_contexts(diff: &Diff, options: &DiffOptions, churn: u128) -> (Vec<NodeId>, usize) {
    let metric = options.metric;
    let mut changed: Vec<NodeId> = (1..diff.own.len() as u32)
        .map(NodeId)
        .filter(|id| diff.own[id.0 as usize].status() != Status::Unchanged)
        .collect();
    let delta = |id: &NodeId| diff.own[id.0 as usize].delta(metric).unsigned_abs();
    let order = diff.path_order();
    changed.sort_unstable_by_key(|id| (std::cmp::Reverse(delta(id)), order[id.0 as usize]));
    let all = changed.len();
    changed.retain(|id| options.above_threshold(delta(id), churn));
    changed.truncate(options.limit.unwrap_or(usize::MAX));
    let kept = changed.len();
    (changed, all - kept)
}

/// `{"method":..., "status":..., "base":..., "new":..., "delta":...}` for each row.
fn rows<W: Write>(
    json: &mut JsonOut<W>,
    diff: &Diff,
    rows: &[Row],
    key: &str,
    name: impl Fn(&str) -> &str,
) -> io::Result<()> {
    let metrics = diff.metrics();
    for (position, row) in rows.iter().enumerate() {
        json.raw(if position == 0 { "\n{\"" } else { ",\n{\"" });
        json.raw(key);
        json.raw("\":");
        json.string(name(diff.tree.frame(row.frame)));
        json.raw(",");
        changes(json, diff, &metrics, &row.change, row.change.status());
        json.raw("}");
        json.flush_if_full()?;
    }
    Ok(())
}

/// `"status":...,"base":{...},"new":{...},"delta":{...}`, without braces
/// around; each of the three holds every metric of the diff by name.
fn changes<W: Write>(
    json: &mut JsonOut<W>,
    diff: &Diff,
    metrics: &[Metric],
    change: &Change,
    status: Status,
) {
    json.raw("\"status\":");
    json.string(status.name());
    for (key, side) in [
        ("base", Some(change.base)),
        ("new", Some(change.new)),
        ("delta", None),
    ] {
        let value = |metric| match side {
            Some(counts) => i128::from(counts.get(metric)),
            None => change.delta(metric),
        };
        json.raw(",\"");
        json.raw(key);
        json.raw("\":{");
        for (position, &metric) in metrics.iter().enumerate() {
            if position > 0 {
                json.raw(",");
            }
            json.string(diff.metric_name(metric));
            json.raw(":");
            json.raw(&value(metric).to_string());
        }
        json.raw("}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::NameFilter;
    use crate::profile;
    use serde_json::Value;

    fn json(diff: &Diff, options: &DiffOptions) -> Value {
        let mut out = Vec::new();
        write(diff, options, &mut out).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    #[test]
    fn every_list_holds_base_new_delta_and_status() {
        let base = profile(&[
            (&["[test] T#a()", "m.A.f()V"], 2, 20),
            (&["[test] T#b()", "m.A.old()V"], 1, 5),
        ]);
        let new = profile(&[
            (&["[test] T#a()", "m.A.f()V"], 2, 50),
            (&["[test] T#b()", "m.A.g()V"], 1, 5),
        ]);
        let diff = Diff::of(&base, &new, &NameFilter::default());
        let json = json(&diff, &DiffOptions::new(Metric::Bytecodes));
        assert_eq!(json["totals"]["delta"]["bytecodes"], 30);
        assert_eq!(json["totals"]["status"], "changed");
        assert_eq!(json["changed"], 40);
        let methods = json["methods"].as_array().unwrap();
        assert_eq!(methods[0]["method"], "m.A.f()V");
        assert_eq!(
            methods[0]["delta"],
            serde_json::json!({"calls": 0, "bytecodes": 30})
        );
        let statuses: Vec<&str> = methods.iter().map(|m| m["status"].as_str().unwrap()).collect();
        assert_eq!(statuses, ["changed", "added", "removed"]);
        assert_eq!(json["methods"][2]["delta"]["bytecodes"], -5);
        assert_eq!(json["tests"][0]["test"], "T#a()");
        assert_eq!(
            json["contexts"][0]["path"],
            serde_json::json!(["[test] T#a()", "m.A.f()V"])
        );
        assert_eq!(json["contexts"].as_array().unwrap().len(), 3);
        assert_eq!(json["left_out"]["contexts"], 0);
    }

    #[test]
    fn a_profile_against_itself_has_empty_lists() {
        let p = profile(&[(&["m.A.main()V"], 1, 10)]);
        let json = json(
            &Diff::of(&p, &p, &NameFilter::default()),
            &DiffOptions::new(Metric::Calls),
        );
        assert_eq!(json["totals"]["status"], "unchanged");
        for list in ["methods", "tests", "contexts"] {
            assert_eq!(json[list], serde_json::json!([]), "{list}");
        }
    }

    #[test]
    fn an_extra_metric_is_written_beside_calls_and_bytecodes_by_its_name() {
        let base = crate::diff::model::tests::allocating(&[(&["m.A.main()V"], 1, 10, 2)]);
        let new = crate::diff::model::tests::allocating(&[(&["m.A.main()V"], 1, 10, 5)]);
        let (diff, _) = Diff::with_metric(&base, &new, &NameFilter::default(), "allocations").unwrap();
        let options = DiffOptions::new(diff.extra.unwrap());
        let json = json(&diff, &options);
        assert_eq!(json["metric"], "allocations");
        assert_eq!(json["changed"], 3);
        assert_eq!(
            json["methods"][0]["delta"],
            serde_json::json!({"calls": 0, "bytecodes": 0, "allocations": 3})
        );
        assert_eq!(json["totals"]["new"]["allocations"], 5);
    }
}
