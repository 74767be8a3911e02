//! A check's findings for people and for CI: a text summary for the
//! console, JSON for tools, and Markdown for a pull-request comment. Each
//! names every regression with its numbers and the command that updates
//! the baseline; none holds anything that varies between runs.

use std::fmt::Write as _;
use std::io::{self, Write};

use crate::baseline::Kind;
use crate::compare::Change;
use crate::Check;

/// How many changed tests and methods the summaries rank.
pub const TOP_CHANGES: usize = 10;

/// The summary formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SummaryFormat {
    /// Lines for a console or a build log.
    Text,
    /// One JSON object, for tools.
    Json,
    /// A Markdown summary fit for a pull-request comment.
    Markdown,
}

impl SummaryFormat {
    /// Every format, with the file name `--report-dir` writes it to.
    pub const FILES: [(SummaryFormat, &'static str); 3] = [
        (SummaryFormat::Text, "jp-check.txt"),
        (SummaryFormat::Json, "jp-check.json"),
        (SummaryFormat::Markdown, "jp-check.md"),
    ];
}

/// Writes the summary of `check` in `format`.
///
/// # Errors
/// Those of `out`.
pub fn write(check: &Check, format: SummaryFormat, out: &mut dyn Write) -> io::Result<()> {
    let text = match format {
        SummaryFormat::Text => text(check),
        SummaryFormat::Json => json(check),
        SummaryFormat::Markdown => markdown(check),
    };
    out.write_all(text.as_bytes())
}

/// `+600 (+12.00%)`-style numbers of a change: absolute, then percent.
fn change_numbers(change: &Change) -> (String, String) {
    let delta = change.delta();
    let percent = match change.percent() {
        Some(percent) => format!("{percent:+.2}%"),
        None => "new".to_owned(),
    };
    (format!("{delta:+}"), percent)
}

fn value(counts: Option<crate::Counts>) -> String {
    counts.map_or_else(|| "-".to_owned(), |c| c.value.to_string())
}

fn headline(check: &Check) -> String {
    let c = &check.comparison;
    let plural = |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    let verdict = if c.passed() {
        "passed".to_owned()
    } else {
        format!(
            "FAILED, {} beyond the tolerance",
            plural(c.regressions.len(), "regression", "regressions")
        )
    };
    format!(
        "{verdict} ({} compared with {}, {} ignored)",
        plural(c.compared, "entry", "entries"),
        check.baseline_path.display(),
        c.ignored
    )
}

fn text(check: &Check) -> String {
    let c = &check.comparison;
    let metric = check.metric.name();
    let mut out = format!("jp check: {}\n", headline(check));
    let line = |out: &mut String, label: &str, change: &Change| {
        let (delta, percent) = change_numbers(change);
        let _ = writeln!(
            out,
            "{label} {} {}: {} -> {} {metric} ({delta}, {percent}; tolerance {}%)",
            change.kind,
            change.name,
            value(change.baseline),
            value(change.now),
            change.tolerance
        );
    };
    for change in &c.regressions {
        line(&mut out, "regression:", change);
    }
    for change in &c.improvements {
        line(&mut out, "improvement:", change);
    }
    if !c.within_tolerance.is_empty() {
        let _ = writeln!(out, "changed within the tolerance: {}", c.within_tolerance.len());
    }
    for change in &c.new {
        let _ = writeln!(
            out,
            "new (not gated): {} {}: {} {metric}",
            change.kind,
            change.name,
            value(change.now)
        );
    }
    for change in &c.missing {
        let _ = writeln!(
            out,
            "missing (not gated): {} {}: {} {metric} in the baseline",
            change.kind,
            change.name,
            value(change.baseline)
        );
    }
    if check.baseline_outdated() {
        let _ = writeln!(
            out,
            "To record these counts as the new baseline (when the changes are intended), run:\n  {}",
            check.update_command()
        );
    }
    if let Some(path) = &check.diff_report {
        let _ = writeln!(out, "{DIFF_REPORT_LABEL}: {}", path.display());
    } else if !c.regressions.is_empty() {
        let _ = writeln!(out, "{HOW_TO_DIFF}:\n  {}", check.diff_command());
    }
    out
}

/// What names the diff report in the summaries.
const DIFF_REPORT_LABEL: &str = "Where the counts changed (the baseline's run against this one)";
/// What introduces the `jp diff` command when no diff report was written.
const HOW_TO_DIFF: &str =
    "To see where the growth is, keep the profiles the baseline was recorded from and run";

fn json(check: &Check) -> String {
    let c = &check.comparison;
    let counts = |counts: Option<crate::Counts>| counts.map(|counts| counts.to_json(&check.metric));
    let changes = |list: &[Change]| -> Vec<serde_json::Value> {
        list.iter()
            .map(|change| {
                serde_json::json!({
                    "kind": change.kind,
                    "name": change.name,
                    "baseline": counts(change.baseline),
                    "now": counts(change.now),
                    "delta": i64::try_from(change.delta()).unwrap_or(i64::MAX),
                    "percent": change.percent(),
                    "tolerance": change.tolerance,
                })
            })
            .collect()
    };
    let value = serde_json::json!({
        "passed": c.passed(),
        "baseline": check.baseline_path,
        "profiles": check.profiles,
        "settings": check.settings,
        "metric": check.metric.name(),
        "compared": c.compared,
        "ignored": c.ignored,
        "totals": {
            "tests": { "baseline": c.test_totals.0, "now": c.test_totals.1 },
            "methods": { "baseline": c.method_totals.0, "now": c.method_totals.1 },
        },
        "regressions": changes(&c.regressions),
        "improvements": changes(&c.improvements),
        "withinTolerance": changes(&c.within_tolerance),
        "new": changes(&c.new),
        "missing": changes(&c.missing),
        "updateCommand": check.update_command(),
        "diffCommand": check.diff_command(),
        "diffReport": check.diff_report,
    });
    let mut text = serde_json::to_string_pretty(&value).expect("JSON values serialize");
    text.push('\n');
    text
}

/// `name` as a Markdown table cell: code, with `|` and backticks defused.
fn cell(name: &str) -> String {
    format!("`{}`", name.replace('`', "'").replace('|', "\\|"))
}

fn markdown(check: &Check) -> String {
    let c = &check.comparison;
    let mut out = format!("### JP performance check: {}\n\n", headline(check));
    let (tests, methods) = (c.test_totals, c.method_totals);
    let _ = writeln!(
        out,
        "| {} | baseline | now |\n|---|---:|---:|",
        check.metric.name()
    );
    let _ = writeln!(
        out,
        "| tests | {} | {} |\n| methods | {} | {} |\n",
        tests.0, tests.1, methods.0, methods.1
    );
    let table = |out: &mut String, title: &str, list: &[&Change]| {
        if list.is_empty() {
            return;
        }
        let _ = writeln!(
            out,
            "**{title}**\n\n| | name | baseline | now | change | % | tolerance |"
        );
        let _ = writeln!(out, "|---|---|---:|---:|---:|---:|---:|");
        for change in list {
            let (delta, percent) = change_numbers(change);
            let _ = writeln!(
                out,
                "| {} | {} | {} | {} | {delta} | {percent} | {}% |",
                change.kind,
                cell(&change.name),
                value(change.baseline),
                value(change.now),
                change.tolerance
            );
        }
        out.push('\n');
    };
    table(&mut out, "Regressions", &c.regressions.iter().collect::<Vec<_>>());
    table(
        &mut out,
        "Improvements",
        &c.improvements.iter().collect::<Vec<_>>(),
    );
    table(
        &mut out,
        "Top changed tests",
        &c.top_changes(Kind::Test, TOP_CHANGES),
    );
    table(
        &mut out,
        "Top changed methods",
        &c.top_changes(Kind::Method, TOP_CHANGES),
    );
    let _ = writeln!(
        out,
        "New (not gated): {}. Missing (not gated): {}. Changed within the tolerance: {}.\n",
        c.new.len(),
        c.missing.len(),
        c.within_tolerance.len()
    );
    if let Some(path) = &check.diff_report {
        let _ = writeln!(out, "{DIFF_REPORT_LABEL}: {}\n", cell(&path.to_string_lossy()));
    } else if !c.regressions.is_empty() {
        let _ = writeln!(out, "{HOW_TO_DIFF}:\n\n```\n{}\n```\n", check.diff_command());
    }
    if check.baseline_outdated() {
        let _ = writeln!(
            out,
            "Update the baseline (when the changes are intended):\n\n```\n{}\n```",
            check.update_command()
        );
    }
    out
}
