//! `jp-stress`: applies the test-only stress scheme to directories, jars,
//! jmods and class files, through the same driver as `jp instrument`, and
//! prints the same warning and summary lines. The stress suite and the
//! benchmarks run it; it is never shipped.

use std::io;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use clap::Parser;
use jp_driver::error::chain;
use jp_driver::instrument::{instrument, InstrumentRequest};
use jp_stress::StressOptions;

/// Rewrites every method of the inputs with the stress scheme.
#[derive(Debug, Parser)]
#[command(name = "jp-stress", version)]
struct Args {
    /// Class files, directories, jars or jmods.
    #[arg(required = true, value_name = "PATH")]
    inputs: Vec<PathBuf>,
    /// The output directory, laid out as by `jp instrument`.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Bytes of `nop` padding jumped over once per method (in its first
    /// loop, or at entry), to force branch widening.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pad: u16,
    /// A cache directory for incremental runs, as for `jp instrument`.
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Print only the summary line (and errors).
    #[arg(long, short)]
    quiet: bool,
}

fn main() -> ExitCode {
    match run(&Args::parse()) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(error) => {
            eprintln!("jp-stress: {}", chain(&*error));
            ExitCode::from(1)
        }
    }
}

/// Runs the rewrite; `Ok(false)` when some input failed.
fn run(args: &Args) -> Result<bool, Box<dyn std::error::Error>> {
    let outcome = instrument(&InstrumentRequest {
        inputs: args.inputs.clone(),
        output: args.out.clone(),
        scheme: Arc::new(StressOptions { pad: args.pad }),
        filter: Default::default(),
        cache: args.cache.clone(),
    })?;
    outcome.write_text(
        "jp-stress",
        args.quiet,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )?;
    Ok(outcome.errors.is_empty())
}
