//! Writing a profile in the text format, the reverse of [`crate::parse`]:
//! what it writes reads back into the same tree.

use std::io::{self, Write};

use crate::model::{Node, Profile};
use crate::parse::{FORMAT_VERSION, LINES_FORMAT_VERSION, NO_LINES_FORMAT_VERSION};
use crate::threads::ThreadGroup;

/// Writes `profile`: its metadata, every frame, every context, parent
/// first, then its per-line counts. Frames are numbered from 1 in the
/// model's order, and so are nodes in file order. A profile with thread
/// groups is written as version [`FORMAT_VERSION`], each group's contexts
/// after its `thread` record (those in no group first, before any); one
/// without them as the lowest version that holds it: [`LINES_FORMAT_VERSION`]
/// with per-line counts, else [`NO_LINES_FORMAT_VERSION`], which readers
/// that know nothing of lines read.
///
/// # Errors
/// Those of `out`, and `InvalidInput` for a metadata key that is empty or
/// holds a space or a line break (which no file could hold).
pub fn write(profile: &Profile, mut out: impl Write) -> io::Result<()> {
    let version = if !profile.thread_groups().is_empty() {
        FORMAT_VERSION
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
    let mut records = 0;
    if profile.thread_groups().is_empty() {
        // The model keeps parents before their children, as the format wants.
        for (id, node) in profile.nodes().iter().enumerate().skip(1) {
            write_node(
                &mut out,
                id as u64,
                node.parent.0.into(),
                node,
                node.calls,
                node.bytecodes,
            )?;
        }
        records = profile.context_count() as u64;
    } else {
        // File ids of the contexts of the group being written (0: the root).
        let mut ids = vec![0u64; profile.nodes().len()];
        let mut groups: Vec<&ThreadGroup> = profile.thread_groups().iter().collect();
        groups.sort_by_key(|group| !group.name().is_empty());
        for group in groups {
            if !group.name().is_empty() {
                writeln!(out, "thread {} {}", group.threads(), escape(group.name()))?;
            }
            for &(context, calls, bytecodes) in group.counts() {
                let node = profile.node(context);
                records += 1;
                ids[context.0 as usize] = records;
                write_node(
                    &mut out,
                    records,
                    ids[node.parent.0 as usize],
                    node,
                    calls,
                    bytecodes,
                )?;
            }
        }
    }
    for (frame, line, bytecodes) in profile.lines() {
        writeln!(out, "line {} {line} {bytecodes}", frame.0 + 1)?;
    }
    writeln!(out, "end {records}")
}

fn write_node(
    out: &mut impl Write,
    id: u64,
    parent: u64,
    node: &Node,
    calls: u64,
    bytecodes: u64,
) -> io::Result<()> {
    writeln!(out, "node {id} {parent} {} {calls} {bytecodes}", node.frame.0 + 1)
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
    fn a_metadata_key_with_a_space_is_refused() {
        let mut p = Profile::new();
        p.meta.insert("two words".into(), "x".into());
        let error = super::write(&p, Vec::new()).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    }
}
