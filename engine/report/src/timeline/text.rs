//! The timeline as text: a header with the run and its totals, then one
//! row per interval (its snapshot's number, when and why it was written,
//! its calls and bytecodes) with, below it, the methods that counted the
//! most in it in `--metric`, as shares of the interval's total.
//!
//! ```text
//! == Intervals (top methods by bytecodes) ==
//! snapshot  elapsed ms  trigger              calls        bytecodes
//!        1         100  timer                   6               52
//!                                          96.2%  a
//! ```

use std::io::{self, Write};

use jp_profile::{FrameId, Metric};

use super::{pick, Timeline};
use crate::names;
use crate::text::{metric_name, push_percent, push_thousands, thousands};
use crate::Options;

/// How many methods each interval lists at most.
const METHODS_PER_INTERVAL: usize = 3;
/// Metadata of the run shown in the header, in this order.
const RUN_META: [&str; 5] = ["agent", "jvm", "pid", "start", "command"];

/// Writes the text timeline.
///
/// # Errors
/// Those of `out`.
pub fn write(timeline: &Timeline, options: &Options, mut out: impl Write) -> io::Result<()> {
    let whole = &timeline.whole;
    let title = options.title.as_deref().unwrap_or("JP timeline");
    writeln!(out, "JP timeline: {}", names::escape(title))?;
    for key in RUN_META {
        if let Some(value) = whole.meta.get(key) {
            writeln!(out, "{key:<10} {}", names::escape(value))?;
        }
    }
    writeln!(out, "{:<10} {}", "snapshots", timeline.intervals.len())?;
    for metric in [Metric::Calls, Metric::Bytecodes] {
        writeln!(
            out,
            "{:<10} {}",
            metric_name(metric),
            thousands(whole.total(metric))
        )?;
    }
    let metric = options.metric;
    let labels = names::labels(whole.frames(), options.names);
    writeln!(out, "\n== Intervals (top methods by {}) ==", metric_name(metric))?;
    writeln!(
        out,
        "snapshot  elapsed ms  trigger   {:>15}  {:>15}",
        "calls", "bytecodes"
    )?;
    let mut line = Vec::new();
    for interval in &timeline.intervals {
        line.clear();
        push_thousands(&mut line, interval.number, 8);
        line.extend_from_slice(b"  ");
        match interval.elapsed_millis {
            Some(millis) => push_thousands(&mut line, millis, 10),
            None => line.extend_from_slice(b"         -"),
        }
        line.extend_from_slice(format!("  {:<8}  ", names::escape(&interval.trigger)).as_bytes());
        push_thousands(&mut line, interval.calls, 15);
        line.extend_from_slice(b"  ");
        push_thousands(&mut line, interval.bytecodes, 15);
        line.push(b'\n');
        for (frame, value) in top_methods(timeline, interval, metric) {
            line.resize(line.len() + 40, b' ');
            push_percent(&mut line, value, interval.total(metric));
            line.extend_from_slice(b"  ");
            line.extend_from_slice(labels[frame.0 as usize].as_bytes());
            line.push(b'\n');
        }
        out.write_all(&line)?;
    }
    Ok(())
}

/// The methods of `interval` with the largest own values in `metric`
/// (ties by name), at most [`METHODS_PER_INTERVAL`], none of value 0.
fn top_methods(timeline: &Timeline, interval: &super::Interval, metric: Metric) -> Vec<(FrameId, u64)> {
    let whole = &timeline.whole;
    let mut methods: Vec<(FrameId, u64)> = interval
        .methods(whole)
        .into_iter()
        .map(|(frame, values)| (frame, pick(values, metric)))
        .filter(|&(_, value)| value > 0)
        .collect();
    methods.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| whole.frame(a.0).cmp(whole.frame(b.0))));
    methods.truncate(METHODS_PER_INTERVAL);
    methods
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::timeline::tests::phases;

    fn text(metric: Metric) -> String {
        let mut out = Vec::new();
        write(&phases(), &Options::new(metric), &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn each_interval_has_its_totals_and_top_methods() {
        let text = text(Metric::Bytecodes);
        let intervals = &text[text.find("== Intervals").unwrap()..];
        assert_eq!(
            intervals,
            "== Intervals (top methods by bytecodes) ==\n\
             snapshot  elapsed ms  trigger             calls        bytecodes\n\
             \x20      1         100  timer                   6               52\n\
             \x20                                        96.2%  a\n\
             \x20                                         3.8%  main\n\
             \x20      2         200  timer                   3               31\n\
             \x20                                        96.8%  a\n\
             \x20                                         3.2%  main\n\
             \x20      3         300  timer                   4               40\n\
             \x20                                       100.0%  b\n"
        );
        assert!(
            text.contains("snapshots  3\ncalls      13\nbytecodes  123\n"),
            "{text}"
        );
        assert!(
            text.starts_with("JP timeline: JP timeline\npid        7\n"),
            "{text}"
        );
    }

    #[test]
    fn the_top_methods_follow_the_metric() {
        let text = text(Metric::Calls);
        assert!(text.contains("== Intervals (top methods by calls) =="));
        // Interval 2: a() 3 calls, main 0 calls: main is left out.
        let second = text.split("       2 ").nth(1).unwrap();
        let rows: Vec<&str> = second.lines().skip(1).take_while(|l| l.contains('%')).collect();
        assert_eq!(rows, ["                                        100.0%  a"]);
    }
}
