//! The diff as text, for a terminal or a CI log: the totals of both sides,
//! the methods ranked by the change of their own value, the tests ranked by
//! the change of their subtree total (when both sides have tests), and the
//! tree of the changed paths, each context with its subtree change.
//!
//! ```text
//! status     base    new  change  change %  method
//! changed     750  1,000    +250    +33.3%  Main.work(int) [demo]
//! ```
//!
//! Frames are written in [`DiffOptions::names`]'s form
//! ([`crate::names::labels`]), tests by their test id.

use std::borrow::Cow;
use std::io::{self, BufWriter, Write};

use jp_profile::Metric;

use super::{changed_paths, percent, shown, Change, Diff, DiffOptions, Row};
use crate::names;
use crate::text::{push_indent, thousands};

/// Writes the text diff; lists are cut by `options.threshold` and `options.limit`.
///
/// # Errors
/// Those of `out`.
pub fn write(diff: &Diff, options: &DiffOptions, out: impl Write) -> io::Result<()> {
    let mut out = BufWriter::with_capacity(1 << 16, out);
    let metric = options.metric;
    let churn = diff.churn(metric);
    let labels = names::labels(diff.tree.frames(), options.names);
    match &options.title {
        Some(title) => writeln!(out, "JP profile diff: {}\n", names::escape(title))?,
        None => writeln!(out, "JP profile diff\n")?,
    }
    write_totals(diff, options, churn, &mut out)?;

    let methods = diff.methods(metric);
    writeln!(
        out,
        "\n== Methods by change in own {} ==",
        diff.metric_name(metric)
    )?;
    let (rows, left_out) = shown(&methods, churn, options);
    write_rows(
        diff, &labels, &rows, left_out, "method", "methods", metric, &mut out,
    )?;

    match diff.has_tests {
        (true, true) => {
            let tests = diff.tests(metric);
            writeln!(out, "\n== Tests by change in {} ==", diff.metric_name(metric))?;
            let (rows, left_out) = shown(&tests, churn, options);
            write_rows(diff, &labels, &rows, left_out, "test", "tests", metric, &mut out)?;
        }
        (true, false) => writeln!(out, "\nOnly the base profiles have tests: no test is compared.")?,
        (false, true) => writeln!(out, "\nOnly the new profiles have tests: no test is compared.")?,
        (false, false) => {}
    }

    writeln!(
        out,
        "\n== Changed paths (subtree change in {}) ==",
        diff.metric_name(metric)
    )?;
    write_paths(diff, &labels, options, &mut out)?;
    out.flush()
}

fn write_totals(diff: &Diff, options: &DiffOptions, churn: u128, out: &mut impl Write) -> io::Result<()> {
    let grand = diff.grand();
    let mut table = Table::new(["", "base", "new", "change", "change %"], false);
    for metric in diff.metrics() {
        table.row(numbers(diff.metric_name(metric), &grand, metric));
    }
    table.write(out)?;
    let (base_files, new_files) = diff.files;
    writeln!(out, "\nprofiles   base {base_files}, new {new_files}")?;
    writeln!(out, "metric     {}", diff.metric_name(options.metric))?;
    if let Some(filter) = &options.filter.0 {
        writeln!(out, "filter     frames containing {:?}", filter)?;
    }
    let churn = u64::try_from(churn).map_or_else(|_| churn.to_string(), thousands);
    writeln!(
        out,
        "changed    {churn} (every context's own change, absolute, summed)"
    )
}

/// The status, base, new, change and change % of `change` in `metric`, after `label`.
fn numbers(label: &str, change: &Change, metric: Metric) -> Vec<String> {
    vec![
        label.to_string(),
        thousands(change.base.get(metric)),
        thousands(change.new.get(metric)),
        signed(change.delta(metric)),
        percent(change, metric),
    ]
}

#[allow(clippy::too_many_arguments)]
fn write_rows(
    diff: &Diff,
    labels: &[Cow<str>],
    rows: &[Row],
    left_out: usize,
    what: &str,
    plural: &str,
    metric: Metric,
    out: &mut impl Write,
) -> io::Result<()> {
    if rows.is_empty() && left_out == 0 {
        return writeln!(out, "No {what} changed.");
    }
    let mut table = Table::new(["status", "base", "new", "change", "change %", what], true);
    for row in rows {
        let mut cells = numbers(row.change.status().name(), &row.change, metric);
        let name = diff.tree.frame(row.frame);
        let name = jp_profile::tests::test_id(name)
            .map_or_else(|| labels[row.frame.0 as usize].clone(), names::escape);
        cells.push(name.into_owned());
        table.row(cells);
    }
    table.write(out)?;
    if left_out > 0 {
        writeln!(
            out,
            "({left_out} more changed {plural} left out by --threshold or --limit)"
        )?;
    }
    Ok(())
}

fn write_paths(
    diff: &Diff,
    labels: &[Cow<str>],
    options: &DiffOptions,
    out: &mut impl Write,
) -> io::Result<()> {
    let paths = changed_paths(diff, options);
    if paths.is_empty() {
        return writeln!(out, "No path changed.");
    }
    let mut table = Table::new(["status", "base", "new", "change", "change %", "context"], true);
    for &(id, depth) in &paths {
        let total = diff.total[id.0 as usize];
        let status = diff.own[id.0 as usize].status();
        let mut cells = numbers(status.name(), &total, options.metric);
        let mut name = Vec::new();
        push_indent(&mut name, depth);
        name.extend_from_slice(labels[diff.tree.node(id).frame.0 as usize].as_bytes());
        cells.push(String::from_utf8(name).expect("spaces and a name"));
        table.row(cells);
    }
    table.write(out)?;
    let shown = paths.len();
    let changed = diff
        .subtree_churn(options.metric)
        .iter()
        .skip(1)
        .filter(|&&churn| churn > 0)
        .count();
    if shown < changed {
        writeln!(
            out,
            "({} more changed contexts left out by --threshold or --limit)",
            changed - shown
        )?;
    }
    Ok(())
}

/// `+1,234`, `-5`, `0`.
fn signed(delta: i128) -> String {
    let magnitude = thousands(u64::try_from(delta.unsigned_abs()).unwrap_or(u64::MAX));
    match delta {
        0 => magnitude,
        d if d > 0 => format!("+{magnitude}"),
        _ => format!("-{magnitude}"),
    }
}

/// Columns sized to their widest cell, two spaces between: the first
/// column left-aligned, numbers right-aligned, and the last left-aligned
/// when it holds names.
struct Table {
    rows: Vec<Vec<String>>,
    name_last: bool,
}

impl Table {
    fn new<const N: usize>(head: [&str; N], name_last: bool) -> Table {
        Table {
            rows: vec![head.iter().map(|cell| cell.to_string()).collect()],
            name_last,
        }
    }

    fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    fn write(&self, out: &mut impl Write) -> io::Result<()> {
        let columns = self.rows[0].len();
        let mut widths = vec![0; columns];
        for row in &self.rows {
            for (width, cell) in widths.iter_mut().zip(row) {
                *width = (*width).max(cell.chars().count());
            }
        }
        for row in &self.rows {
            let mut line = String::new();
            for (column, cell) in row.iter().enumerate() {
                let pad = " ".repeat(widths[column] - cell.chars().count());
                let name = column + 1 == columns && self.name_last;
                if column > 0 {
                    line.push_str("  ");
                }
                if column == 0 || name {
                    line.push_str(cell);
                    line.push_str(&pad);
                } else {
                    line.push_str(&pad);
                    line.push_str(cell);
                }
            }
            writeln!(out, "{}", line.trim_end())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::NameFilter;
    use crate::profile;

    fn text(diff: &Diff, options: &DiffOptions) -> String {
        let mut out = Vec::new();
        write(diff, options, &mut out).unwrap();
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn a_profile_against_itself_says_nothing_changed() {
        let p = profile(&[(&["m.A.main()V"], 1, 10), (&["m.A.main()V", "m.A.f(I)J"], 3, 30)]);
        let diff = Diff::of(&p, &p, &NameFilter::default());
        let text = text(&diff, &DiffOptions::new(Metric::Bytecodes));
        assert!(text.contains("No method changed.\n"), "{text}");
        assert!(text.contains("No path changed.\n"), "{text}");
        assert!(text.contains("changed    0 "), "{text}");
    }

    #[test]
    fn a_title_follows_the_first_words_escaped() {
        let p = profile(&[(&["m.A.main()V"], 1, 10)]);
        let diff = Diff::of(&p, &p, &NameFilter::default());
        let untitled = text(&diff, &DiffOptions::new(Metric::Bytecodes));
        assert!(untitled.starts_with("JP profile diff\n\n"), "{untitled}");
        let options = DiffOptions {
            title: Some("checkout\u{1b}[2J before and after".into()),
            ..DiffOptions::new(Metric::Bytecodes)
        };
        let titled = text(&diff, &options);
        assert!(
            titled.starts_with("JP profile diff: checkout\\u{1b}[2J before and after\n\n"),
            "{titled}"
        );
    }

    #[test]
    fn signs_and_separators() {
        assert_eq!(signed(1234), "+1,234");
        assert_eq!(signed(-5), "-5");
        assert_eq!(signed(0), "0");
    }
}
