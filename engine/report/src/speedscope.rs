//! speedscope's JSON file format
//! (<https://www.speedscope.app/file-format-schema.json>), for the
//! speedscope viewer: both metrics in one file, as two profiles named
//! `bytecodes` and `calls` over one shared table of frames.
//!
//! Each profile is `evented`. Depth first, a context opens (`O`) where the
//! previous event left off, its own value follows, then its children, and
//! it closes (`C`) after them: the span from its opening to its closing is
//! its subtree total, and what its children leave uncovered is its own
//! value. speedscope rebuilds exactly the calling-context tree from that,
//! with the metric's count standing for time (speedscope's own exporter
//! writes this layout too).
//!
//! The other layout, `sampled`, writes one weighted stack per context that
//! has a value of its own, and each stack is the whole path of frame
//! indices. Its size grows with the sum of the contexts' depths, not with
//! their number. A recursion 10,000 levels deep with a value at each level
//! needs 50 million indices as samples, and 20,000 events. Measured on
//! generated trees of 1,000,000 contexts over 5,000 frames, with speedscope
//! 1.25 in Chromium:
//!
//! | mean depth | evented file | sampled file | evented load | sampled load |
//! | ---: | ---: | ---: | ---: | ---: |
//! | 31 | 168 MB | 303 MB | 21 s | 35 s |
//! | 4.2 | 168 MB | 52 MB | 11 s | 16 s |
//!
//! Samples are smaller only for shallow trees, and even then speedscope
//! opens events faster. Events also cost the same at any depth.
//!
//! A profile of a test run needs nothing more: each test is a top-level
//! context, so its totals in both metrics are the span of its frame
//! (`[test] <test id>`), which the *Left Heavy* view ranks and *Sandwich*
//! lists with its total. A speedscope profile per test would repeat the
//! events of every test in a second place and double the file for what
//! these views already show.
//!
//! Both profiles leave out the contexts that `--threshold` and `--max-depth`
//! hide, as [`crate::folded`] does, so `endValue` is the sum of what is
//! written. They also leave out the contexts whose subtree total in that
//! profile's metric is 0. Frames are listed in name order and siblings come
//! in frame-name order, so the file depends on neither the order of the
//! records nor that of the profiles merged. speedscope reads numbers as
//! JavaScript doubles, exact up to 2^53 (about 9 * 10^15 bytecodes).

use std::collections::HashMap;
use std::io::{self, Write};

use jp_profile::{CallSite, FrameId, Metric, NodeId, Profile};

use crate::json_out::{Context, JsonOut};
use crate::order::{self, FrameIndex};
use crate::{Options, Totals, Visible};

/// The value of `$schema` that speedscope recognises its files by.
const SCHEMA: &str = "https://www.speedscope.app/file-format-schema.json";

/// The profiles of a file, in this order: bytecodes, calls, then the
/// profile's extra metrics, each named by its label.
fn profiles(profile: &Profile) -> Vec<(Metric, String)> {
    let mut metrics = profile.metrics();
    metrics.swap(0, 1);
    metrics
        .into_iter()
        .map(|metric| (metric, profile.metric_info(metric).label()))
        .collect()
}

/// Writes `profile` as a speedscope file: one `evented` profile per metric,
/// the one of `options.metric` shown first (`activeProfileIndex`). One line
/// per frame and per event, so that files diff well. The file's `name` is
/// the profile's `command` metadata, or `JP profile`.
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, options: &Options, mut out: impl Write) -> io::Result<()> {
    let visible = Visible::of_every_metric(profile, &Totals::of(profile), options);
    let frames = FrameIndex::of(profile, &visible);
    let sites = SiteFrames::of(profile, &visible, &frames);
    let mut json = JsonOut::new(&mut out, Context::File);
    json.raw("{\"$schema\":");
    json.string(SCHEMA);
    json.raw(",\n\"exporter\":");
    json.string(concat!("jp ", env!("CARGO_PKG_VERSION")));
    json.raw(",\n\"name\":");
    json.string(profile.meta.get("command").map_or("JP profile", String::as_str));
    json.raw(",\n\"activeProfileIndex\":");
    let profiles = profiles(profile);
    let active = profiles.iter().position(|&(metric, _)| metric == options.metric);
    json.number(active.unwrap_or(0) as u64);
    json.raw(",\n\"shared\":{\"frames\":[");
    for (position, &frame) in frames.names.iter().enumerate() {
        json.raw(if position == 0 { "\n" } else { ",\n" });
        json.raw("{\"name\":");
        json.string(profile.frame(frame));
        json.raw("}");
        json.flush_if_full()?;
    }
    for &(frame, site) in &sites.keys {
        json.raw(",\n{\"name\":");
        json.string(&format!("{} @ {site}", profile.frame(frame)));
        json.raw("}");
        json.flush_if_full()?;
    }
    json.raw("\n]},\n\"profiles\":[");
    for (position, (metric, name)) in profiles.iter().enumerate() {
        json.raw(if position == 0 { "\n" } else { ",\n" });
        json.flush_if_full()?;
        write_events(profile, &visible, (&frames, &sites), *metric, name, &mut json)?;
    }
    json.raw("\n]}\n");
    json.flush()
}

/// One `evented` profile: an `O` and a `C` event per context with a value
/// in `metric`, depth first, siblings in frame-name order.
fn write_events(
    profile: &Profile,
    visible: &Visible,
    (frames, sites): (&FrameIndex, &SiteFrames),
    metric: Metric,
    name: &str,
    json: &mut JsonOut<impl Write>,
) -> io::Result<()> {
    let totals = shown_totals(profile, visible, metric);
    json.raw("{\"type\":\"evented\",\"name\":");
    json.string(name);
    json.raw(",\"unit\":\"none\",\"startValue\":0,\"endValue\":");
    json.number(totals[0]);
    json.raw(",\"events\":[");
    let mut at: u64 = 0;
    let mut first = true;
    // (context, whether it is to be closed rather than opened); popped in order.
    let mut work: Vec<(NodeId, bool)> = Vec::new();
    let mut siblings: Vec<NodeId> = Vec::new();
    let mut push_children = |id: NodeId, work: &mut Vec<(NodeId, bool)>| {
        order::by_name(profile, id, &frames.rank, &mut siblings);
        let shown = siblings
            .iter()
            .rev()
            .filter(|child| totals[child.0 as usize] != 0);
        work.extend(shown.map(|&child| (child, false)));
    };
    push_children(NodeId::ROOT, &mut work);
    while let Some((id, close)) = work.pop() {
        let node = profile.node(id);
        json.raw(if first { "\n" } else { ",\n" });
        first = false;
        json.raw(if close {
            "{\"type\":\"C\",\"frame\":"
        } else {
            "{\"type\":\"O\",\"frame\":"
        });
        let position = match profile.site(id) {
            Some(site) => sites.position(node.frame, site),
            None => frames.index[node.frame.0 as usize],
        };
        json.number(u64::from(position));
        json.raw(",\"at\":");
        json.number(at);
        json.raw("}");
        json.flush_if_full()?;
        if !close {
            at = at.saturating_add(profile.value(id, metric));
            work.push((id, true));
            push_children(id, &mut work);
        }
    }
    json.raw("\n]}");
    Ok(())
}

/// The frames of contexts split by call site (docs/profiling.md, "Call
/// sites"), `name @ line 42`, after the methods' own: one per method and
/// site, in frame-name order, then by site. None for a profile without.
struct SiteFrames {
    keys: Vec<(FrameId, CallSite)>,
    /// Each key's position in the file's frame table.
    positions: HashMap<(FrameId, CallSite), u32>,
}

impl SiteFrames {
    fn of(profile: &Profile, visible: &Visible, frames: &FrameIndex) -> SiteFrames {
        let mut keys: Vec<(FrameId, CallSite)> = (1..profile.nodes().len())
            .map(|index| NodeId(index as u32))
            .filter(|&id| visible.is_shown(id))
            .filter_map(|id| Some((profile.node(id).frame, profile.site(id)?)))
            .collect();
        keys.sort_unstable_by_key(|&(frame, site)| (frames.rank[frame.0 as usize], site));
        keys.dedup();
        let first = frames.names.len() as u32;
        let positions = keys
            .iter()
            .enumerate()
            .map(|(i, &key)| (key, first + i as u32))
            .collect();
        SiteFrames { keys, positions }
    }

    fn position(&self, frame: FrameId, site: CallSite) -> u32 {
        self.positions[&(frame, site)]
    }
}

/// Each context's subtree total in `metric` over the shown contexts only
/// (0 for a hidden one), indexed by [`NodeId`]; the root's is the sum of
/// everything written.
fn shown_totals(profile: &Profile, visible: &Visible, metric: Metric) -> Vec<u64> {
    let nodes = profile.nodes();
    let mut totals = vec![0u64; nodes.len()];
    for index in (1..nodes.len()).rev() {
        if visible.is_shown(NodeId(index as u32)) {
            let node = &nodes[index];
            let total = totals[index].saturating_add(profile.value(NodeId(index as u32), metric));
            totals[index] = total;
            let parent = node.parent.0 as usize;
            totals[parent] = totals[parent].saturating_add(total);
        }
    }
    totals
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;
    use serde_json::Value;
    use std::collections::BTreeMap;

    fn export(profile: &Profile, options: &Options) -> Value {
        let mut out = Vec::new();
        write(profile, options, &mut out).unwrap();
        serde_json::from_slice(&out).unwrap()
    }

    fn frame_names(file: &Value) -> Vec<&str> {
        let frames = file["shared"]["frames"].as_array().unwrap();
        frames
            .iter()
            .map(|frame| frame["name"].as_str().unwrap())
            .collect()
    }

    /// Replays a profile's events: each context's own value (its span less
    /// its children's), by path; checks that events nest and never go back.
    fn own_values(file: &Value, profile: usize) -> BTreeMap<String, u64> {
        let names = frame_names(file);
        let profile = &file["profiles"][profile];
        assert_eq!(profile["type"], "evented");
        // (frame, opened at, the children's spans so far)
        let mut stack: Vec<(u64, u64, u64)> = Vec::new();
        let mut own = BTreeMap::new();
        let mut last = 0;
        for event in profile["events"].as_array().unwrap() {
            let (frame, at) = (event["frame"].as_u64().unwrap(), event["at"].as_u64().unwrap());
            assert!(at >= last, "events go back from {last} to {at}");
            last = at;
            if event["type"] == "O" {
                stack.push((frame, at, 0));
                continue;
            }
            let path: Vec<&str> = stack.iter().map(|&(frame, _, _)| names[frame as usize]).collect();
            let (open, opened, inner) = stack.pop().unwrap();
            assert_eq!(open, frame, "closes a frame that is not on top");
            own.insert(path.join(";"), at - opened - inner);
            if let Some(parent) = stack.last_mut() {
                parent.2 += at - opened;
            }
        }
        assert!(stack.is_empty());
        assert_eq!(profile["endValue"].as_u64(), Some(last));
        own
    }

    fn values(pairs: &[(&str, u64)]) -> BTreeMap<String, u64> {
        pairs
            .iter()
            .map(|&(path, value)| (path.to_string(), value))
            .collect()
    }

    fn sample() -> Profile {
        profile(&[
            (&["main"], 1, 12),
            (&["main", "work"], 10, 500),
            (&["main", "work", "help"], 5, 0),
            (&["clinit"], 1, 4),
        ])
    }

    #[test]
    fn each_test_spans_its_totals_in_both_profiles() {
        let p = crate::profile_with_tests();
        let file = export(&p, &Options::new(Metric::Bytecodes));
        let names = frame_names(&file);
        for (index, metric) in [(0, Metric::Bytecodes), (1, Metric::Calls)] {
            // The span of each top-level frame, from its opening to its closing.
            let mut spans = BTreeMap::new();
            let (mut depth, mut opened) = (0, 0);
            for event in file["profiles"][index]["events"].as_array().unwrap() {
                let at = event["at"].as_u64().unwrap();
                if event["type"] == "O" {
                    depth += 1;
                    if depth == 1 {
                        opened = at;
                    }
                    continue;
                }
                depth -= 1;
                if depth == 0 {
                    spans.insert(names[event["frame"].as_u64().unwrap() as usize], at - opened);
                }
            }
            let tests = crate::tests_view::test_totals(&p, &Totals::of(&p));
            assert_eq!(tests.len(), 5);
            for test in tests {
                let frame = jp_profile::tests::test_frame(test.test_id);
                assert_eq!(spans[frame.as_str()], test.value(metric), "{frame} in {metric:?}");
            }
        }
    }

    #[test]
    fn both_metrics_are_written_and_the_metric_picks_the_active_profile() {
        for (metric, active) in [(Metric::Bytecodes, 0), (Metric::Calls, 1)] {
            let file = export(&sample(), &Options::new(metric));
            assert_eq!(file["$schema"], SCHEMA);
            assert_eq!(file["exporter"], format!("jp {}", env!("CARGO_PKG_VERSION")));
            assert_eq!(file["name"], "JP profile");
            assert_eq!(file["activeProfileIndex"], active);
            let profiles = file["profiles"].as_array().unwrap();
            let names: Vec<&Value> = profiles.iter().map(|profile| &profile["name"]).collect();
            assert_eq!(names, ["bytecodes", "calls"]);
            assert!(profiles
                .iter()
                .all(|p| p["unit"] == "none" && p["startValue"] == 0));
        }
    }

    #[test]
    fn the_command_names_the_file() {
        let mut p = sample();
        p.meta.insert("command".into(), "demo.Main --fast".into());
        assert_eq!(
            export(&p, &Options::new(Metric::Calls))["name"],
            "demo.Main --fast"
        );
    }

    #[test]
    fn own_values_and_totals_are_the_profiles_and_zeros_are_left_out() {
        let p = sample();
        let file = export(&p, &Options::new(Metric::Bytecodes));
        assert_eq!(
            own_values(&file, 0),
            values(&[("clinit", 4), ("main", 12), ("main;work", 500)])
        );
        assert_eq!(
            own_values(&file, 1),
            values(&[
                ("clinit", 1),
                ("main", 1),
                ("main;work", 10),
                ("main;work;help", 5)
            ])
        );
        assert_eq!(file["profiles"][0]["endValue"], p.total(Metric::Bytecodes));
        assert_eq!(file["profiles"][1]["endValue"], p.total(Metric::Calls));
    }

    #[test]
    fn a_context_without_a_value_of_its_own_still_holds_its_callees() {
        let p = profile(&[(&["main", "a"], 0, 3), (&["main", "b"], 0, 4), (&["other"], 2, 0)]);
        let file = export(&p, &Options::new(Metric::Bytecodes));
        assert_eq!(
            own_values(&file, 0),
            values(&[("main", 0), ("main;a", 3), ("main;b", 4)])
        );
        assert_eq!(own_values(&file, 1), values(&[("other", 2)]));
    }

    #[test]
    fn frames_and_siblings_go_by_name_whatever_the_order_of_insertion() {
        let a = profile(&[(&["m", "b"], 1, 2), (&["m", "a"], 3, 4), (&["n"], 5, 6)]);
        let b = profile(&[(&["n"], 5, 6), (&["m", "a"], 3, 4), (&["m", "b"], 1, 2)]);
        let (mut first, mut second) = (Vec::new(), Vec::new());
        write(&a, &Options::new(Metric::Calls), &mut first).unwrap();
        write(&b, &Options::new(Metric::Calls), &mut second).unwrap();
        assert_eq!(String::from_utf8(first.clone()), String::from_utf8(second));
        let file: Value = serde_json::from_slice(&first).unwrap();
        assert_eq!(frame_names(&file), ["a", "b", "m", "n"]);
        let opened: Vec<u64> = file["profiles"][1]["events"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|event| event["type"] == "O")
            .map(|event| event["frame"].as_u64().unwrap())
            .collect();
        assert_eq!(opened, [2, 0, 1, 3]);
    }

    #[test]
    fn frame_names_are_escaped() {
        let odd = "a\"b\\c\nd\re\tf\u{8}\u{c}\u{1}\u{1f}\u{7f} ü→😀 \u{2028}.m()V";
        let p = profile(&[(&[odd], 1, 1)]);
        let mut out = Vec::new();
        write(&p, &Options::new(Metric::Calls), &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.contains(r#"{"name":"a\"b\\c\nd\re\tf\b\f\u0001\u001f"#),
            "{text}"
        );
        let file: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(frame_names(&file), [odd]);
    }

    #[test]
    fn threshold_and_max_depth_leave_out_what_they_hide() {
        let (p, options) = crate::threshold_case();
        let file = export(&p, &options);
        let expected = values(&[("main", 10), ("main;big", 80), ("main;big;deep", 7)]);
        assert_eq!(own_values(&file, 0), expected);
        assert_eq!(file["profiles"][0]["endValue"], 97);
        assert_eq!(frame_names(&file), ["big", "deep", "main"]);
        let options = Options {
            max_depth: Some(1),
            ..Options::new(Metric::Calls)
        };
        let file = export(&p, &options);
        assert_eq!(own_values(&file, 1), values(&[("main", 1)]));
        assert_eq!(frame_names(&file), ["main"]);
    }

    #[test]
    fn an_empty_profile_is_a_valid_file() {
        let file = export(&Profile::new(), &Options::new(Metric::Calls));
        assert_eq!(frame_names(&file).len(), 0);
        assert_eq!(file["profiles"][0]["events"].as_array().unwrap().len(), 0);
        assert_eq!(file["profiles"][1]["endValue"], 0);
    }

    #[test]
    fn deep_recursion_does_not_overflow_the_stack() {
        let frames: Vec<&str> = (0..100_000).map(|i| if i % 2 == 0 { "f" } else { "g" }).collect();
        let mut p = profile(&[(&frames, 1, 2)]);
        let mut id = NodeId::ROOT;
        for &name in &frames {
            id = p.child(id, p.frame_id(name).unwrap()).unwrap();
            p.add(id, 1, 1);
        }
        let file = export(&p, &Options::new(Metric::Bytecodes));
        for (index, total) in [(0, 100_002), (1, 100_001)] {
            let events = file["profiles"][index]["events"].as_array().unwrap();
            assert_eq!(events.len(), 200_000);
            assert_eq!(file["profiles"][index]["endValue"], total);
            assert_eq!(events[99_999]["at"], 99_999);
            assert_eq!(
                events[100_000],
                serde_json::json!({"type": "C", "frame": 1, "at": total})
            );
        }
    }

    #[test]
    fn each_extra_metric_is_a_profile_named_by_its_label() {
        let (p, cpu) = crate::sampled_profile();
        let file = export(&p, &Options::new(cpu));
        let names: Vec<&str> = file["profiles"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            names,
            ["bytecodes", "calls", "cpu-samples (sampled, not reproducible)"]
        );
        assert_eq!(file["activeProfileIndex"], 2);
        assert_eq!(file["profiles"][2]["endValue"], 70);
    }
}
