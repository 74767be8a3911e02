//! `jp roundtrip`: parse and write back every class of the inputs, compare
//! the bytes, and end with the summary line
//! `roundtrip: N classes, N identical, D differ, F failed`.

use std::io::{self, Write};
use std::path::Path;

use jp_driver::input::{Entry, Input};
use jp_driver::roundtrip::{roundtrip_entries, Mode, Outcome, Summary};

use crate::output::report_failure;
use crate::Inputs;

/// Flags of `jp roundtrip`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// Print only the summary line.
    #[arg(long, short)]
    quiet: bool,
    /// Re-encode every constant and typed attribute from the model instead
    /// of copying what is unchanged.
    #[arg(long, conflicts_with = "code")]
    deep: bool,
    /// Decode every method body into instructions and lay it out again.
    #[arg(long)]
    code: bool,
}

/// Runs the command; `Ok(false)` when some class differed or failed.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    let mode = match (args.deep, args.code) {
        (true, _) => Mode::Deep,
        (_, true) => Mode::Code,
        _ => Mode::Lazy,
    };
    let mut summary = Summary::default();
    let mut stdout = io::stdout().lock();
    for path in &args.inputs.paths {
        let classes = read_classes(path, &mut summary);
        for (entry, outcome) in classes.iter().zip(roundtrip_entries(&classes, mode)) {
            summary.record(&outcome);
            if !args.quiet && outcome != Outcome::Identical {
                writeln!(stdout, "{}: {outcome}", entry.location)?;
            }
        }
    }
    writeln!(stdout, "{summary}")?;
    Ok(summary.is_clean())
}

/// Every readable class entry of one input; what cannot be read is
/// reported and counted as failed.
fn read_classes(path: &Path, summary: &mut Summary) -> Vec<Entry> {
    let entries = match Input::open(path).and_then(|input| Ok(input.entries()?.collect::<Vec<_>>())) {
        Ok(entries) => entries,
        Err(error) => {
            report_failure(&error);
            summary.record_unreadable();
            return Vec::new();
        }
    };
    let mut classes = Vec::new();
    for entry in entries {
        match entry {
            Ok(entry) if entry.is_class() => classes.push(entry),
            Ok(_) => {}
            Err(error) => {
                report_failure(&error);
                summary.record_unreadable();
            }
        }
    }
    classes
}
