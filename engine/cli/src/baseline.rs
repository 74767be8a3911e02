//! `jp baseline`: record the exact counts of a run's profiles, with the
//! settings that produced them, in a baseline file that `jp check` compares
//! later runs with. The file is written atomically, or not at all.

use std::path::PathBuf;
use std::process::ExitCode;

use jp_gate::{GateError, Instrumented, DEFAULT_METHOD_FLOOR};
use jp_report::metric::MetricName;

/// Flags of `jp baseline`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Profiles of one run; several are merged.
    #[arg(required = true, value_name = "PROFILE")]
    profiles: Vec<PathBuf>,
    /// The baseline file to write (atomically).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Record only methods with at least this many own bytecodes, or own
    /// value in `--metric` (tests are always recorded, and count the work
    /// of every method they ran).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_METHOD_FLOOR)]
    include_methods_above: u64,
    /// The metric to record, which `jp check` then compares: `bytecodes`,
    /// `calls`, or an exact extra metric of the profiles by name
    /// (`allocations`, `allocations:int[]`).
    #[arg(long, value_name = "NAME", default_value = "bytecodes")]
    metric: String,
    #[command(flatten)]
    instrumented: InstrumentedArgs,
}

/// The instrumentation settings of the profiles' run, which the profiles
/// do not record; a baseline keeps them and a check compares them.
#[derive(Debug, clap::Args)]
pub struct InstrumentedArgs {
    /// An include pattern the classes were instrumented with (repeatable).
    #[arg(long = "include", value_name = "PATTERN")]
    includes: Vec<String>,
    /// An exclude pattern the classes were instrumented with (repeatable).
    #[arg(long = "exclude", value_name = "PATTERN")]
    excludes: Vec<String>,
}

impl InstrumentedArgs {
    pub fn settings(&self) -> Instrumented {
        Instrumented {
            includes: self.includes.clone(),
            excludes: self.excludes.clone(),
        }
    }
}

/// Runs the command: 0 when the baseline was written, 2 when a profile
/// could not be read or the file could not be written.
pub fn main(args: &Args) -> ExitCode {
    let recorded = jp_gate::record(
        &args.profiles,
        &args.instrumented.settings(),
        args.include_methods_above,
        &MetricName::parse(&args.metric),
    )
    .and_then(|(baseline, warnings)| {
        jp_gate::write_baseline(&baseline, &args.out)?;
        Ok((baseline, warnings))
    });
    match recorded {
        Ok((baseline, warnings)) => {
            for warning in &warnings {
                eprintln!("jp: warning: {warning}");
            }
            let tests = baseline
                .entries
                .keys()
                .filter(|(kind, _)| *kind == jp_gate::Kind::Test)
                .count();
            eprintln!(
                "jp: {}: {tests} tests and {} methods recorded",
                args.out.display(),
                baseline.entries.len() - tests
            );
            ExitCode::from(crate::EXIT_OK)
        }
        Err(error) => exit_on(&error),
    }
}

/// Prints `error` (every unreadable profile on its own line) and gives 2.
pub fn exit_on(error: &GateError) -> ExitCode {
    eprintln!("jp: {}", error.to_string().replace('\n', "\njp: "));
    ExitCode::from(crate::EXIT_USAGE)
}
