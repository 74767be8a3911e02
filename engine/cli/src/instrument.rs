//! `jp instrument`: rewrite the classes of directories, jars and class
//! files into an output directory, printing warnings for what was kept
//! unrewritten and a summary line.

use std::io::{self, Write};
use std::path::PathBuf;

use jp_engine::instrument::{instrument, InstrumentRequest, Scheme};
use jp_instrument::stress::StressOptions;

use crate::output::report_failure;
use crate::Inputs;

/// The rewrites `jp instrument` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemeName {
    /// Test-only: exercises every bytecode edit while preserving behaviour.
    Stress,
}

/// Flags of `jp instrument`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// The output directory. Directory inputs are mirrored into it, a jar
    /// `x.jar` is written as `OUT/x.jar`, a jmod `x.jmod` as the directory
    /// `OUT/x/`.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// The rewrite to apply.
    #[arg(long, value_enum)]
    scheme: SchemeName,
    /// Stress scheme only: bytes of `nop` padding jumped over once per
    /// method (in its first loop, or at entry), to force branch widening.
    #[arg(long, value_name = "N", default_value_t = 0)]
    stress_pad: u16,
    /// Print only the summary line (and errors).
    #[arg(long, short)]
    quiet: bool,
}

/// Runs the command; `Ok(false)` when some input failed.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    let scheme = match args.scheme {
        SchemeName::Stress => Scheme::Stress(StressOptions { pad: args.stress_pad }),
    };
    let request = InstrumentRequest {
        inputs: args.inputs.paths.clone(),
        output: args.out.clone(),
        scheme,
    };
    let outcome = instrument(&request);
    let mut stdout = io::stdout().lock();
    if !args.quiet {
        for located in &outcome.warnings {
            writeln!(stdout, "warning: {}: {}", located.location, located.warning)?;
        }
    }
    for failure in &outcome.failures {
        report_failure(failure);
    }
    writeln!(
        stdout,
        "instrument: {} classes rewritten, {} unchanged, {} other files copied, {} warnings, {} inputs failed",
        outcome.classes_rewritten,
        outcome.classes_unchanged,
        outcome.resources_copied,
        outcome.warnings.len(),
        outcome.failures.len()
    )?;
    Ok(outcome.failures.is_empty())
}
