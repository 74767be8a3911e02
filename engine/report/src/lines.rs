//! Per-line counts in reports (docs/profiling.md, "Per-line counts"): for
//! the methods that ran the most bytecodes, the bytecodes of each of their
//! source lines, summed over the method's contexts. A profile without
//! lines gets no such section, so its reports stay as they were.
//!
//! ```text
//! == Lines of the hot methods (bytecodes) ==
//! ...
//! demo.Fig4.f()  106 bytecodes, 4 lines
//!     line  bytecodes       %
//!       17         55   51.9%
//! ```

use std::borrow::Cow;
use std::collections::BTreeMap;
use std::io::{self, Write};

use jp_profile::{FrameId, Profile};

use crate::text::{push_percent, push_thousands, thousands};

/// How many methods the section lists at most.
const METHODS: usize = 10;
/// How many lines it lists for one method at most (its hottest, in line order).
const LINES_PER_METHOD: usize = 40;

/// One method's lines: `(line, bytecodes)` in line order.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodLines {
    /// The method.
    pub frame: FrameId,
    /// Its own bytecodes over all its contexts.
    pub bytecodes: u64,
    /// Its lines with their bytecodes, in line order.
    pub lines: Vec<(u32, u64)>,
}

/// Every method with per-line counts, the most own bytecodes first (ties:
/// the name), each with its lines: what a report of lines (and the pprof
/// export, as locations) needs.
pub fn method_lines(profile: &Profile) -> Vec<MethodLines> {
    let mut by_frame: BTreeMap<FrameId, Vec<(u32, u64)>> = BTreeMap::new();
    for (frame, line, bytecodes) in profile.lines() {
        by_frame.entry(frame).or_default().push((line, bytecodes));
    }
    if by_frame.is_empty() {
        return Vec::new();
    }
    let mut own = vec![0u64; profile.frames().len()];
    for node in &profile.nodes()[1..] {
        let sum = &mut own[node.frame.0 as usize];
        *sum = sum.saturating_add(node.bytecodes);
    }
    let mut methods: Vec<MethodLines> = by_frame
        .into_iter()
        .map(|(frame, lines)| MethodLines {
            frame,
            bytecodes: own[frame.0 as usize],
            lines,
        })
        .collect();
    methods.sort_by(|a, b| {
        b.bytecodes
            .cmp(&a.bytecodes)
            .then_with(|| profile.frame(a.frame).cmp(profile.frame(b.frame)))
    });
    methods
}

/// The text report's section of lines, when `profile` has any: the
/// [`METHODS`] methods with the most own bytecodes, each with its lines.
/// `names` are the frames as the report writes them.
///
/// # Errors
/// Those of `out`.
pub(crate) fn write_text(profile: &Profile, names: &[Cow<'_, str>], out: &mut impl Write) -> io::Result<()> {
    let methods = method_lines(profile);
    if methods.is_empty() {
        return Ok(());
    }
    let shown = &methods[..methods.len().min(METHODS)];
    writeln!(out)?;
    writeln!(out, "== Lines of the hot methods (bytecodes) ==")?;
    writeln!(
        out,
        "The {} of {} methods with per-line counts that ran the most bytecodes; each line's bytecodes,",
        shown.len(),
        methods.len()
    )?;
    writeln!(
        out,
        "summed over the method's contexts, and its share of the method's own; lines in source order."
    )?;
    let mut row = Vec::with_capacity(64);
    for method in shown {
        writeln!(out)?;
        writeln!(
            out,
            "{}  {} bytecodes, {} line{}",
            names[method.frame.0 as usize],
            thousands(method.bytecodes),
            method.lines.len(),
            if method.lines.len() == 1 { "" } else { "s" }
        )?;
        let width = thousands(method.lines.iter().map(|&(_, b)| b).max().unwrap_or(0))
            .len()
            .max("bytecodes".len());
        writeln!(out, "    {:>6}  {:>width$}  {:>6}", "line", "bytecodes", "%")?;
        for &(line, bytecodes) in &hottest_in_line_order(&method.lines) {
            row.clear();
            row.extend_from_slice(b"    ");
            push_thousands(&mut row, u64::from(line), 6);
            row.extend_from_slice(b"  ");
            push_thousands(&mut row, bytecodes, width);
            row.extend_from_slice(b"  ");
            push_percent(&mut row, bytecodes, method.bytecodes);
            row.push(b'\n');
            out.write_all(&row)?;
        }
        if method.lines.len() > LINES_PER_METHOD {
            writeln!(
                out,
                "    ({} colder lines left out)",
                method.lines.len() - LINES_PER_METHOD
            )?;
        }
    }
    Ok(())
}

/// The [`LINES_PER_METHOD`] lines with the most bytecodes, in line order.
fn hottest_in_line_order(lines: &[(u32, u64)]) -> Vec<(u32, u64)> {
    let mut hottest = lines.to_vec();
    hottest.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    hottest.truncate(LINES_PER_METHOD);
    hottest.sort_unstable();
    hottest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile;

    fn with_lines() -> Profile {
        let mut p = profile(&[
            (&["main"], 1, 10),
            (&["main", "work"], 2, 100),
            (&["main", "log", "work"], 1, 20),
            (&["main", "log"], 1, 5),
        ]);
        let (main, work) = (p.frame_id("main").unwrap(), p.frame_id("work").unwrap());
        p.add_line(work, 12, 90);
        p.add_line(work, 11, 30);
        p.add_line(main, 3, 10);
        p
    }

    fn report(p: &Profile) -> String {
        let mut out = Vec::new();
        crate::text::write(p, &crate::Options::new(jp_profile::Metric::Calls), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn methods_come_with_their_lines_in_line_order_the_hottest_method_first() {
        let p = with_lines();
        let methods = method_lines(&p);
        let work = p.frame_id("work").unwrap();
        assert_eq!(
            methods[0],
            MethodLines {
                frame: work,
                bytecodes: 120,
                lines: vec![(11, 30), (12, 90)]
            }
        );
        assert_eq!(methods.len(), 2, "log has no lines");
    }

    #[test]
    fn the_text_report_ends_with_the_lines_of_its_hot_methods() {
        let text = report(&with_lines());
        let section = &text[text
            .find("== Lines of the hot methods")
            .expect("a section of lines")..];
        assert_eq!(
            section,
            "\
== Lines of the hot methods (bytecodes) ==
The 2 of 2 methods with per-line counts that ran the most bytecodes; each line's bytecodes,
summed over the method's contexts, and its share of the method's own; lines in source order.

work  120 bytecodes, 2 lines
      line  bytecodes       %
        11         30   25.0%
        12         90   75.0%

main  10 bytecodes, 1 line
      line  bytecodes       %
         3         10  100.0%
"
        );
    }

    #[test]
    fn a_profile_without_lines_has_no_section_of_lines() {
        assert!(!report(&profile(&[(&["main"], 1, 10)])).contains("== Lines"));
    }

    #[test]
    fn only_the_hottest_lines_of_a_long_method_are_listed_in_line_order() {
        let lines: Vec<(u32, u64)> = (1..=50).map(|line| (line, u64::from(line))).collect();
        let hottest = hottest_in_line_order(&lines);
        assert_eq!(hottest.len(), LINES_PER_METHOD);
        assert_eq!(hottest[0], (11, 11));
        assert_eq!(hottest[LINES_PER_METHOD - 1], (50, 50));
    }
}
