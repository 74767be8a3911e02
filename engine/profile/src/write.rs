//! Writing a profile in the text format, the reverse of [`crate::parse`]:
//! what it writes reads back into the same tree.

use std::io::{self, Write};

use crate::metrics::MetricId;
use crate::model::{Node, NodeId, Profile};
use crate::parse::{
    LINES_FORMAT_VERSION, METRICS_FORMAT_VERSION, NO_LINES_FORMAT_VERSION, SITES_FORMAT_VERSION,
    THREADS_FORMAT_VERSION,
};
use crate::sites::CallSite;
use crate::threads::ThreadGroup;

/// Writes `profile`: its metadata, every frame, its extra metrics, every
/// context, parent first, the contexts' extra values, then its per-line
/// counts. Frames, metrics and nodes are numbered from 1 in file order. A
/// profile is written as the lowest version that holds it:
/// [`SITES_FORMAT_VERSION`] with call sites (a context's after its counts),
/// else [`METRICS_FORMAT_VERSION`] with extra metrics, else [`THREADS_FORMAT_VERSION`]
/// with thread groups, each group's contexts after its `thread` record
/// (those in no group first, before any), else [`LINES_FORMAT_VERSION`] with
/// per-line counts, else [`NO_LINES_FORMAT_VERSION`], which readers that
/// know nothing of the others read.
///
/// # Errors
/// Those of `out`, and `InvalidInput` for a metadata key that is empty or
/// holds a space or a line break (which no file could hold).
pub fn write(profile: &Profile, mut out: impl Write) -> io::Result<()> {
    let version = if profile.has_sites() {
        SITES_FORMAT_VERSION
    } else if profile.extra_metrics().len() > 0 {
        METRICS_FORMAT_VERSION
    } else if !profile.thread_groups().is_empty() {
        THREADS_FORMAT_VERSION
    } else if profile.has_lines() {
        LINES_FORMAT_VERSION
    } else {
        NO_LINES_FORMAT_VERSION
    };
    writeln!(out, "jp-profile {version}")?;
    for (key, value) in &profile.meta {
        if key.is_empty() || key.contains([' ', '\n']) {
            let message = format!("metadata key {key:?} cannot be written");
            return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
        }
        writeln!(out, "meta {key} {}", escape(value))?;
    }
    for (index, frame) in profile.frames().iter().enumerate() {
        writeln!(out, "frame {} {}", index + 1, escape(frame))?;
    }
    for (index, metric) in profile.extra_metrics().enumerate() {
        let kind = metric.kind.name();
        writeln!(
            out,
            "metric {} {} {kind} {}",
            index + 1,
            metric.name,
            escape(&metric.unit)
        )?;
    }
    // The file id of each context's first node (0: the root, or none yet).
    let mut first_ids = vec![0u64; profile.nodes().len()];
    let mut records = 0;
    if profile.thread_groups().is_empty() {
        // The model keeps parents before their children, as the format wants.
        for (id, node) in profile.nodes().iter().enumerate().skip(1) {
            write_node(
                &mut out,
                id as u64,
                node.parent.0.into(),
                node,
                (node.calls, node.bytecodes),
                profile.site(NodeId(id as u32)),
            )?;
            first_ids[id] = id as u64;
        }
        records = profile.context_count() as u64;
    } else {
        // File ids of the contexts of the group being written (0: the root).
        let mut ids = vec![0u64; profile.nodes().len()];
        for (name, threads, counts) in sections(profile) {
            if !name.is_empty() {
                writeln!(out, "thread {threads} {}", escape(name))?;
            }
            for (context, calls, bytecodes) in counts {
                let node = profile.node(context);
                records += 1;
                ids[context.0 as usize] = records;
                let first = &mut first_ids[context.0 as usize];
                if *first == 0 {
                    *first = records;
                }
                write_node(
                    &mut out,
                    records,
                    ids[node.parent.0 as usize],
                    node,
                    (calls, bytecodes),
                    profile.site(context),
                )?;
            }
        }
    }
    let mut values: Vec<(u64, usize, u64)> = Vec::new();
    for index in 0..profile.extra_metrics().len() {
        let metric = MetricId(index as u16);
        values.extend(
            profile
                .extra_values(metric)
                .map(|(context, value)| (first_ids[context.0 as usize], index + 1, value)),
        );
    }
    values.sort_unstable();
    for (node, metric, value) in values {
        writeln!(out, "value {node} {metric} {value}")?;
    }
    for (frame, line, bytecodes) in profile.lines() {
        writeln!(out, "line {} {line} {bytecodes}", frame.0 + 1)?;
    }
    writeln!(out, "end {records}")
}

/// A group's name, its threads and its counts `(context, calls, bytecodes)`.
type Section<'a> = (&'a str, u64, Vec<(NodeId, u64, u64)>);

/// The sections of a profile with thread groups, as written: (name,
/// threads, counts), the contexts in no group first. A context in no
/// group's counts (one added to the merged tree alone, as sampled-only
/// contexts are) goes into that first section with zero counts, with its
/// ancestors, so that every context is written.
fn sections(profile: &Profile) -> Vec<Section<'_>> {
    let mut covered = vec![false; profile.nodes().len()];
    // Whether the section of no group has the context: its parent must be there too.
    let mut ungrouped_has = vec![false; profile.nodes().len()];
    for group in profile.thread_groups() {
        for &(context, _, _) in group.counts() {
            covered[context.0 as usize] = true;
            ungrouped_has[context.0 as usize] |= group.name().is_empty();
        }
    }
    let mut ungrouped = Vec::new();
    for index in 1..profile.nodes().len() {
        if covered[index] {
            continue;
        }
        let mut at = NodeId(index as u32);
        while at != NodeId::ROOT && !ungrouped_has[at.0 as usize] {
            covered[at.0 as usize] = true;
            ungrouped_has[at.0 as usize] = true;
            ungrouped.push((at, 0, 0));
            at = profile.node(at).parent;
        }
    }
    let mut groups: Vec<&ThreadGroup> = profile.thread_groups().iter().collect();
    groups.sort_by_key(|group| !group.name().is_empty());
    let mut sections: Vec<_> = groups
        .into_iter()
        .map(|group| (group.name(), group.threads(), group.counts().to_vec()))
        .collect();
    if !ungrouped.is_empty() {
        if sections[0].0.is_empty() {
            sections[0].2.extend(ungrouped);
        } else {
            sections.insert(0, ("", 0, ungrouped));
        }
        // Parents first: the arena's order.
        sections[0].2.sort_unstable_by_key(|&(context, _, _)| context);
    }
    sections
}

fn write_node(
    out: &mut impl Write,
    id: u64,
    parent: u64,
    node: &Node,
    (calls, bytecodes): (u64, u64),
    site: Option<CallSite>,
) -> io::Result<()> {
    write!(out, "node {id} {parent} {} {calls} {bytecodes}", node.frame.0 + 1)?;
    match site {
        Some(site) => writeln!(out, " {}", site.record()),
        None => writeln!(out),
    }
}

/// `\` as `\\` and a line break as `\n`.
fn escape(text: &str) -> std::borrow::Cow<'_, str> {
    if text.contains(['\\', '\n']) {
        text.replace('\\', "\\\\").replace('\n', "\\n").into()
    } else {
        text.into()
    }
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::model::tests::profile;
    use crate::model::Profile;

    fn written(profile: &Profile) -> String {
        let mut out = Vec::new();
        super::write(profile, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_profile_in_writer_order_is_written_back_byte_for_byte() {
        let text =
            "jp-profile 1\nmeta agent default\nmeta threads 2\nframe 1 a.B.m(\\\\)V\nframe 2 a.B.n\\nx()V\n\
            node 1 0 1 1 5\nnode 2 1 2 3 9\nnode 3 0 2 1 1\nend 3\n";
        let profile = crate::parse(text.as_bytes(), Path::new("p")).unwrap();
        assert_eq!(written(&profile), text);
    }

    #[test]
    fn what_is_written_reads_back_into_the_same_tree() {
        let mut p = profile(&[(&["main"], 1, 5), (&["main", "f\\g"], 2, 9), (&["x\ny"], 0, 0)]);
        p.meta.insert("jvm".into(), "Open\\JDK\n17".into());
        let back = crate::parse(written(&p).as_bytes(), Path::new("p")).unwrap();
        assert_eq!(back.nodes(), p.nodes());
        assert_eq!(back.frames(), p.frames());
        assert_eq!(back.meta, p.meta);
    }

    #[test]
    fn a_merged_profile_is_written_parent_first() {
        let mut a = profile(&[(&["main", "f"], 1, 1)]);
        a.merge(&profile(&[
            (&["main", "g", "h"], 1, 1),
            (&["main", "f", "k"], 1, 1),
        ]));
        let back = crate::parse(written(&a).as_bytes(), Path::new("p")).unwrap();
        assert_eq!(back.nodes(), a.nodes());
    }

    #[test]
    fn a_profile_with_lines_is_version_2_and_reads_back_with_its_lines() {
        let text = "jp-profile 2\nframe 1 a.B.m()V\nframe 2 a.B.n()V\nnode 1 0 1 1 5\nnode 2 1 2 3 9\n\
            line 1 3 4\nline 1 7 1\nline 2 12 9\nend 2\n";
        let profile = crate::parse(text.as_bytes(), Path::new("p")).unwrap();
        assert_eq!(written(&profile), text);
    }

    #[test]
    fn merged_profiles_add_their_lines_per_frame_and_line() {
        let text = |lines: &str| format!("jp-profile 2\nframe 1 a.B.m()V\nnode 1 0 1 1 5\n{lines}end 1\n");
        let mut a = crate::parse(text("line 1 3 4\n").as_bytes(), Path::new("a")).unwrap();
        let b = crate::parse(text("line 1 3 6\nline 1 9 2\n").as_bytes(), Path::new("b")).unwrap();
        a.merge(&b);
        a.merge(&profile(&[(&["x"], 1, 1)]));
        let back = crate::parse(written(&a).as_bytes(), Path::new("p")).unwrap();
        let m = back.frame_id("a.B.m()V").unwrap();
        assert_eq!(back.lines().collect::<Vec<_>>(), [(m, 3, 10), (m, 9, 2)]);
    }

    #[test]
    fn a_profile_without_lines_is_still_written_as_version_1() {
        assert!(written(&profile(&[(&["main"], 1, 5)])).starts_with("jp-profile 1\n"));
    }

    #[test]
    fn a_profile_with_extra_metrics_is_version_4_and_reads_back_byte_for_byte() {
        let text = "jp-profile 4\nframe 1 a.B.m()V\nframe 2 java.lang.Thread.sleep(J)V\n\
            metric 1 cpu-samples sampled samples\nmetric 2 allocations exact objects\n\
            node 1 0 1 1 5\nnode 2 1 2 0 0\nvalue 1 1 3\nvalue 1 2 8\nvalue 2 1 40\nline 1 3 4\nend 2\n";
        let profile = crate::parse(text.as_bytes(), Path::new("p")).unwrap();
        assert_eq!(written(&profile), text);
    }

    #[test]
    fn a_grouped_profile_keeps_contexts_added_outside_its_groups() {
        let text = "jp-profile 3\nframe 1 a.B.m()V\nthread 1 main\nnode 1 0 1 1 5\nend 1\n";
        let mut profile = crate::parse(text.as_bytes(), Path::new("p")).unwrap();
        let metric = profile.define_metric(crate::MetricInfo {
            name: "cpu-samples".into(),
            unit: "samples".into(),
            kind: crate::MetricKind::Sampled,
        });
        let m = profile.add_path(&["a.B.m()V"], 0, 0);
        let sleep = profile.add_path(&["a.B.m()V", "java.lang.Thread.sleep(J)V"], 0, 0);
        profile.add_value(m, metric, 2);
        profile.add_value(sleep, metric, 9);
        assert_eq!(
            written(&profile),
            "jp-profile 4\nframe 1 a.B.m()V\nframe 2 java.lang.Thread.sleep(J)V\n\
            metric 1 cpu-samples sampled samples\nnode 1 0 1 0 0\nnode 2 1 2 0 0\n\
            thread 1 main\nnode 3 0 1 1 5\nvalue 1 1 2\nvalue 2 1 9\nend 3\n"
        );
        let back = crate::parse(written(&profile).as_bytes(), Path::new("p")).unwrap();
        assert_eq!(back.nodes(), profile.nodes());
    }

    #[test]
    fn a_metadata_key_with_a_space_is_refused() {
        let mut p = Profile::new();
        p.meta.insert("two words".into(), "x".into());
        let error = super::write(&p, Vec::new()).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    }
}
