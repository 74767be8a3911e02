//! Writing a profile in the text format (the reverse of [`crate::parse`]).

use std::io::{self, Write};

use crate::model::Profile;
use crate::parse::FORMAT_VERSION;

/// Writes `profile`: its metadata, every frame, then the nodes parent first.
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, mut out: impl Write) -> io::Result<()> {
    writeln!(out, "jp-profile {FORMAT_VERSION}")?;
    for (key, value) in &profile.meta {
        writeln!(out, "meta {key} {}", escape(value))?;
    }
    for (index, frame) in profile.frames.iter().enumerate() {
        writeln!(out, "frame {} {}", index + 1, escape(frame))?;
    }
    // Arena ids already put every parent before its children.
    for (id, node) in profile.nodes.iter().enumerate().skip(1) {
        writeln!(
            out,
            "node {id} {} {} {} {}",
            node.parent,
            node.frame + 1,
            node.calls,
            node.bytecodes
        )?;
    }
    writeln!(out, "end {}", profile.nodes.len() - 1)
}

fn escape(text: &str) -> String {
    text.replace('\\', "\\\\").replace('\n', "\\n")
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    #[test]
    fn what_is_written_reads_back_the_same() {
        let text = "jp-profile 1\nmeta agent default\nframe 1 a.B.m(\\\\)V\nframe 2 a.B.n()V\n\
            node 1 0 1 1 5\nnode 2 1 2 3 9\nnode 3 0 2 1 1\nend 3\n";
        let profile = crate::parse(text.as_bytes(), Path::new("p")).unwrap();
        let mut out = Vec::new();
        super::write(&profile, &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), text);
    }
}
