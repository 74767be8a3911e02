//! Collapsed stacks for flame-graph tools (`flamegraph.pl`, inferno,
//! speedscope's importer): one line per context,
//! `frame;frame;...;frame value`, from the top-level context down to the
//! context itself, with that context's own value in one metric.
//!
//! Frames hold `;` inside their descriptors (`(Ljava/lang/String;)V`) and
//! method names may hold spaces. Tools that take the value after the last
//! space still read each line right, and a frame always ends with its
//! return type. A line break in a name is written `\n`, to keep one line
//! per context.

use std::io::{self, Write};

use jp_profile::{NodeId, Profile};

use crate::{order, Options, Totals, Visible};

/// Writes one line per shown context whose value in `options.metric` is
/// not 0, depth first, siblings in frame-name order, so that the output
/// does not depend on the order of the records or of the profiles merged.
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, options: &Options, mut out: impl Write) -> io::Result<()> {
    let rank = order::frame_ranks(profile);
    let visible = Visible::of(profile, &Totals::of(profile), options);
    let mut line: Vec<u8> = Vec::with_capacity(4096);
    // The length of `line` once it holds the first `d + 1` frames of the path, at `d`.
    let mut ends: Vec<usize> = Vec::new();
    // (node, number of frames above it); pushed in reverse order, popped in order.
    let mut work: Vec<(NodeId, usize)> = Vec::new();
    let mut siblings: Vec<NodeId> = Vec::new();
    let mut push_children = |id: NodeId, depth: usize, work: &mut Vec<(NodeId, usize)>| {
        order::by_name(profile, id, &rank, &mut siblings);
        let shown = siblings.iter().rev().filter(|&&child| visible.is_shown(child));
        work.extend(shown.map(|&child| (child, depth)));
    };
    push_children(NodeId::ROOT, 0, &mut work);
    while let Some((id, depth)) = work.pop() {
        let node = profile.node(id);
        ends.truncate(depth);
        line.truncate(ends.last().copied().unwrap_or(0));
        if depth > 0 {
            line.push(b';');
        }
        push_frame(&mut line, profile.frame(node.frame));
        ends.push(line.len());
        let value = node.value(options.metric);
        if value != 0 {
            out.write_all(&line)?;
            writeln!(out, " {value}")?;
        }
        push_children(id, depth + 1, &mut work);
    }
    Ok(())
}

fn push_frame(line: &mut Vec<u8>, name: &str) {
    if name.contains('\n') {
        line.extend_from_slice(name.replace('\n', "\\n").as_bytes());
    } else {
        line.extend_from_slice(name.as_bytes());
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;
    use jp_profile::Metric;

    fn folded(profile: &Profile, metric: Metric) -> String {
        let mut out = Vec::new();
        write(profile, &Options::new(metric), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn each_context_gets_its_own_value_and_zeros_are_left_out() {
        let p = profile(&[
            (&["main"], 1, 0),
            (&["main", "b"], 2, 20),
            (&["main", "a"], 3, 30),
        ]);
        assert_eq!(folded(&p, Metric::Calls), "main 1\nmain;a 3\nmain;b 2\n");
        assert_eq!(folded(&p, Metric::Bytecodes), "main;a 30\nmain;b 20\n");
    }

    #[test]
    fn lines_go_depth_first_with_siblings_in_name_order() {
        let p = profile(&[
            (&["z"], 1, 1),
            (&["m", "y", "q"], 1, 1),
            (&["m", "x"], 1, 1),
            (&["m"], 1, 1),
            (&["m", "y"], 1, 1),
            (&["a"], 1, 1),
        ]);
        assert_eq!(
            folded(&p, Metric::Calls),
            "a 1\nm 1\nm;x 1\nm;y 1\nm;y;q 1\nz 1\n"
        );
    }

    #[test]
    fn the_order_of_insertion_does_not_matter() {
        let a = profile(&[(&["m", "b"], 1, 2), (&["m", "a"], 3, 4), (&["n"], 5, 6)]);
        let b = profile(&[(&["n"], 5, 6), (&["m", "a"], 3, 4), (&["m", "b"], 1, 2)]);
        assert_eq!(folded(&a, Metric::Bytecodes), folded(&b, Metric::Bytecodes));
    }

    #[test]
    fn descriptors_keep_their_semicolons_and_the_value_follows_the_last_space() {
        let main = "demo.Main.main([Ljava/lang/String;)V";
        let odd = "demo.Main.odd name(Ljava/util/List;)I";
        let p = profile(&[(&[main, odd], 2, 7)]);
        let text = folded(&p, Metric::Bytecodes);
        assert_eq!(text, format!("{main};{odd} 7\n"));
        let (stack, value) = text.trim_end().rsplit_once(' ').unwrap();
        assert_eq!((stack, value), (format!("{main};{odd}").as_str(), "7"));
    }

    #[test]
    fn a_line_break_in_a_name_is_written_escaped() {
        let p = profile(&[(&["a\nb()V"], 1, 1)]);
        assert_eq!(folded(&p, Metric::Calls), "a\\nb()V 1\n");
    }

    #[test]
    fn deep_recursion_does_not_overflow_the_stack() {
        let frames: Vec<&str> = (0..100_000).map(|i| if i % 2 == 0 { "f" } else { "g" }).collect();
        let p = profile(&[(&frames, 1, 1)]);
        let text = folded(&p, Metric::Calls);
        assert_eq!(text.lines().count(), 1);
        assert_eq!(text.len(), 2 * 100_000 - 1 + 3);
    }
}
