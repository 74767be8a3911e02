//! Collapsed stacks for flame-graph tools (`flamegraph.pl`, inferno,
//! speedscope's importer): one line per context,
//! `frame;frame;...;frame value`, from the top-level context down to the
//! context itself, with that context's own value in one metric.
//!
//! Frames are written as [`crate::names::readable`] spells them
//! (`pkg.Class.method(java.util.List,int[]):int`): no `;`, line break or
//! other control character, so that every reader splits frames and lines
//! where they are. Method names may hold spaces; the readers take the
//! value after the last space of a line.
//!
//! A line repeats every frame above its context, so the output grows with
//! the number of contexts times their depth: a recursion 15,000 deep of a
//! 350 KB profile is 835 MB of lines. [`size`] computes the exact size
//! beforehand, from the tree, so that a report too large is refused before
//! anything is written.

use std::borrow::Cow;
use std::io::{self, Write};

use jp_profile::{NodeId, Profile};

use crate::limit::StackSize;
use crate::{names, order, Options, Totals, Visible};

/// Writes one line per shown context whose value in `options.metric` is
/// not 0, depth first, siblings in frame-name order, so that the output
/// does not depend on the order of the records or of the profiles merged.
///
/// # Errors
/// Those of `out`.
pub fn write(profile: &Profile, options: &Options, mut out: impl Write) -> io::Result<()> {
    let rank = order::frame_ranks(profile);
    let visible = Visible::of(profile, &Totals::of(profile), options);
    let labels = names::readable_frames(profile);
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
        line.extend_from_slice(labels[node.frame.0 as usize].as_bytes());
        line.extend_from_slice(names::site_suffix(profile, id).as_bytes());
        ends.push(line.len());
        let value = profile.value(id, options.metric);
        if value != 0 {
            out.write_all(&line)?;
            writeln!(out, " {value}")?;
        }
        push_children(id, depth + 1, &mut work);
    }
    Ok(())
}

/// The size of the folded report that [`write()`] would write with these
/// options, computed without writing it, in one pass over the nodes (a parent
/// comes before its children, so each path's length is its parent's plus
/// one frame).
pub fn size(profile: &Profile, options: &Options) -> StackSize {
    let visible = Visible::of(profile, &Totals::of(profile), options);
    let labels: Vec<u64> = names::readable_frames(profile)
        .iter()
        .map(|label: &Cow<'_, str>| label.len() as u64)
        .collect();
    let nodes = profile.nodes();
    // Per node: the bytes of its path (`frame;...;frame`) and its depth.
    let mut paths = vec![(0u64, 0u32); nodes.len()];
    let mut size = StackSize {
        bytes: 0,
        stacks: 0,
        deepest: 0,
    };
    for (index, node) in nodes.iter().enumerate().skip(1) {
        if !visible.is_shown(NodeId(index as u32)) {
            continue;
        }
        let (above, depth) = paths[node.parent.0 as usize];
        let separator = u64::from(depth > 0);
        let suffix = names::site_suffix(profile, NodeId(index as u32)).len() as u64;
        let path = above.saturating_add(separator + labels[node.frame.0 as usize] + suffix);
        paths[index] = (path, depth + 1);
        let value = profile.value(NodeId(index as u32), options.metric);
        if value != 0 {
            // The path, a space, the value and a line break.
            let line = path.saturating_add(decimal_digits(value) + 2);
            size.bytes = size.bytes.saturating_add(line);
            size.stacks += 1;
            size.deepest = size.deepest.max(depth + 1);
        }
    }
    size
}

fn decimal_digits(value: u64) -> u64 {
    u64::from(value.checked_ilog10().unwrap_or(0)) + 1
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
    fn frames_are_java_signatures_without_semicolons_and_the_value_follows_the_last_space() {
        let main = "demo.Main.main([Ljava/lang/String;)V";
        let odd = "demo.Main.odd name(Ljava/util/List;)I";
        let p = profile(&[(&[main, odd], 2, 7)]);
        let text = folded(&p, Metric::Bytecodes);
        let expected = "demo.Main.main(java.lang.String[]):void;demo.Main.odd name(java.util.List):int";
        assert_eq!(text, format!("{expected} 7\n"));
        let (stack, value) = text.trim_end().rsplit_once(' ').unwrap();
        assert_eq!((stack.split(';').count(), value), (2, "7"));
    }

    #[test]
    fn control_characters_in_a_name_are_written_escaped() {
        let p = profile(&[(&["a\nb\u{1b}[2J\r()V"], 1, 1)]);
        assert_eq!(folded(&p, Metric::Calls), "a\\u{a}b\\u{1b}[2J\\u{d}():void 1\n");
    }

    #[test]
    fn a_test_frame_stays_first_with_the_semicolons_of_its_display_name_escaped() {
        let p = profile(&[(
            &[
                "[test] demo.ParserTest#parses(String) > [1] \"a;b\"",
                "demo.Parser.parse(Ljava/lang/String;)I",
            ],
            1,
            40,
        )]);
        let text = folded(&p, Metric::Bytecodes);
        assert_eq!(
            text,
            "[test] demo.ParserTest#parses(String) > [1] \"a\\u{3b}b\";demo.Parser.parse(java.lang.String):int 40\n"
        );
        let (stack, value) = text.trim_end().rsplit_once(' ').unwrap();
        assert_eq!((stack.split(';').count(), value), (2, "40"));
    }

    #[test]
    fn the_size_is_exactly_what_is_written() {
        let p = profile(&[
            (&["m.A.main([Ljava/lang/String;)V"], 1, 0),
            (&["m.A.main([Ljava/lang/String;)V", "m.A.f(I)J"], 12, 1234),
            (&["m.A.main([Ljava/lang/String;)V", "m.A.f(I)J", "x\ny"], 7, 9),
            (&["m.A.main([Ljava/lang/String;)V", "m.A.g()V"], 100, 0),
            (&["z"], 10_000_000_000, 1),
        ]);
        for metric in [Metric::Calls, Metric::Bytecodes] {
            for max_depth in [None, Some(1), Some(2)] {
                let options = Options {
                    max_depth,
                    ..Options::new(metric)
                };
                let mut out = Vec::new();
                write(&p, &options, &mut out).unwrap();
                let size = size(&p, &options);
                assert_eq!(size.bytes, out.len() as u64, "{metric:?} {max_depth:?}");
                assert_eq!(size.stacks, out.iter().filter(|&&b| b == b'\n').count() as u64);
            }
        }
        assert_eq!(size(&p, &Options::new(Metric::Bytecodes)).deepest, 3);
    }

    #[test]
    fn a_deep_chain_is_sized_without_writing_it() {
        // 200,000 deep: some 2.7 TB of lines, sized in one pass.
        let frames: Vec<&str> = (0..200_000)
            .map(|i| {
                if i % 2 == 0 {
                    "demo.Deep.f(I)I"
                } else {
                    "demo.Deep.g(I)I"
                }
            })
            .collect();
        let mut p = profile(&[(&frames, 1, 1)]);
        let mut id = NodeId::ROOT;
        for &name in &frames {
            id = p.child(id, p.frame_id(name).unwrap()).unwrap();
            p.add(id, 1, 1);
        }
        let size = size(&p, &Options::new(Metric::Calls));
        let label = "demo.Deep.f(int):int".len() as u64;
        // Line d holds d frames, d - 1 separators, " 1" or " 2" and a line break.
        let expected: u64 = (1..=200_000u64).map(|d| d * label + d - 1 + 3).sum();
        assert_eq!(
            (size.bytes, size.stacks, size.deepest),
            (expected, 200_000, 200_000)
        );
    }

    #[test]
    fn deep_recursion_does_not_overflow_the_stack() {
        let frames: Vec<&str> = (0..100_000).map(|i| if i % 2 == 0 { "f" } else { "g" }).collect();
        let p = profile(&[(&frames, 1, 1)]);
        let text = folded(&p, Metric::Calls);
        assert_eq!(text.lines().count(), 1);
        assert_eq!(text.len(), 2 * 100_000 - 1 + 3);
    }

    #[test]
    fn an_extra_metric_is_folded_like_the_counts() {
        let (p, cpu) = crate::sampled_profile();
        assert_eq!(
            folded(&p, cpu),
            "demo.Main.main():void 2\n\
             demo.Main.main():void;demo.Main.nap():void;java.lang.Thread.sleep(long):void 8\n\
             demo.Main.main():void;demo.Main.spin(long):long 60\n"
        );
        assert_eq!(size(&p, &Options::new(cpu)).bytes, folded(&p, cpu).len() as u64);
    }
}
