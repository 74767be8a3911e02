//! Collapsed stacks for flame-graph tools: one line per context,
//! `frame;frame;frame value`, with the context's own value in one metric.
//!
//! Frames hold `;` inside their descriptors (`(Ljava/lang/String;)V`).
//! Tools that take the value after the last space read the lines right;
//! the frames of a line stay unambiguous, as each ends with its return type.

use std::io::{self, Write};

use crate::model::{Metric, NodeId, Profile};

/// Writes the contexts whose value is not 0, depth first, siblings in
/// frame-name order, so that the output does not depend on the order the
/// profiles were merged in.
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, metric: Metric, mut out: impl Write) -> io::Result<()> {
    let mut path: Vec<&str> = Vec::new();
    // (node, depth): depth is the path length above the node.
    let mut work: Vec<(NodeId, usize)> = sorted_children(profile, 0)
        .into_iter()
        .rev()
        .map(|c| (c, 0))
        .collect();
    let mut line = String::new();
    while let Some((id, depth)) = work.pop() {
        let node = &profile.nodes[id as usize];
        path.truncate(depth);
        path.push(&profile.frames[node.frame as usize]);
        let value = node.value(metric);
        if value != 0 {
            line.clear();
            line.push_str(&path.join(";"));
            line.push(' ');
            line.push_str(&value.to_string());
            line.push('\n');
            out.write_all(line.as_bytes())?;
        }
        work.extend(
            sorted_children(profile, id)
                .into_iter()
                .rev()
                .map(|c| (c, depth + 1)),
        );
    }
    Ok(())
}

fn sorted_children(profile: &Profile, id: NodeId) -> Vec<NodeId> {
    let mut children = profile.nodes[id as usize].children.clone();
    children.sort_by(|a, b| {
        let frame = |n: &NodeId| &profile.frames[profile.nodes[*n as usize].frame as usize];
        frame(a).cmp(frame(b))
    });
    children
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    #[test]
    fn each_context_gets_its_own_value_and_zeros_are_left_out() {
        let text = "jp-profile 1\nframe 1 main\nframe 2 b\nframe 3 a\n\
            node 1 0 1 1 0\nnode 2 1 2 2 20\nnode 3 1 3 3 30\nend 3\n";
        let profile = crate::parse(text.as_bytes(), Path::new("p")).unwrap();
        let mut calls = Vec::new();
        write(&profile, Metric::Calls, &mut calls).unwrap();
        assert_eq!(String::from_utf8(calls).unwrap(), "main 1\nmain;a 3\nmain;b 2\n");
        let mut bytecodes = Vec::new();
        write(&profile, Metric::Bytecodes, &mut bytecodes).unwrap();
        assert_eq!(String::from_utf8(bytecodes).unwrap(), "main;a 30\nmain;b 20\n");
    }
}
