//! Writing a profile in the text format, the reverse of [`crate::parse`]:
//! what it writes reads back into the same tree.

use std::io::{self, Write};

use crate::model::Profile;
use crate::parse::FORMAT_VERSION;

/// Writes `profile` in format version [`FORMAT_VERSION`]: its metadata,
/// every frame, then every context, parent first. Frames and nodes are
/// numbered from 1 in the model's order.
///
/// # Errors
/// Those of `out`, and `InvalidInput` for a metadata key that is empty or
/// holds a space or a line break (which no file could hold).
pub fn write(profile: &Profile, mut out: impl Write) -> io::Result<()> {
    writeln!(out, "jp-profile {FORMAT_VERSION}")?;
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
    // The model keeps parents before their children, as the format wants.
    for (id, node) in profile.nodes().iter().enumerate().skip(1) {
        writeln!(
            out,
            "node {id} {} {} {} {}",
            node.parent.0,
            node.frame.0 + 1,
            node.calls,
            node.bytecodes
        )?;
    }
    writeln!(out, "end {}", profile.context_count())
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
    fn a_metadata_key_with_a_space_is_refused() {
        let mut p = Profile::new();
        p.meta.insert("two words".into(), "x".into());
        let error = super::write(&p, Vec::new()).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::InvalidInput);
    }
}
