//! `jp instrument`: rewrite the classes of directories, jars and class
//! files into an output directory, printing warnings for what was kept
//! unrewritten and a summary line.

use std::io::{self, Write};
use std::path::PathBuf;

use jp_engine::config::Config;
use jp_engine::filter::{ClassFilter, ClassPattern};
use jp_engine::instrument::{instrument, InstrumentRequest, Scheme};
use jp_instrument::blocks::Analysis;
use jp_instrument::profile::ProfileOptions;
use jp_instrument::stress::StressOptions;

use crate::output::report_failure;
use crate::Inputs;

/// The rewrites `jp instrument` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemeName {
    /// Profiling: per-thread calling-context trees with invocation and bytecode counts.
    Profile,
    /// Test-only: exercises every bytecode edit while preserving behaviour.
    Stress,
}

/// The basic-block analyses, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum BbaFlag {
    /// Blocks end at jumps, switches, returns and throws; may overcount
    /// when an exception leaves a block early.
    Default,
    /// Blocks also end after every instruction that can throw: exact.
    Precise,
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
    #[arg(long, value_enum, default_value = "profile")]
    scheme: SchemeName,
    /// The basic-block analysis that places bytecode counters (default:
    /// from `--config`, else `default`).
    #[arg(long, value_enum)]
    bba: Option<BbaFlag>,
    /// Instrument only classes matching a pattern (binary names; `*` within
    /// a package segment, `**` across them). Repeatable; adds to `--config`.
    #[arg(long, value_name = "PATTERN")]
    include: Vec<String>,
    /// Copy classes matching a pattern unchanged. Repeatable; adds to `--config`.
    #[arg(long, value_name = "PATTERN")]
    exclude: Vec<String>,
    /// A `jp.toml` with an `[instrument]` table (bba, include, exclude).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
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
    let config = match &args.config {
        Some(path) => Config::load(path)?,
        None => Config::default(),
    };
    let analysis = match args.bba {
        Some(BbaFlag::Default) => Analysis::Default,
        Some(BbaFlag::Precise) => Analysis::Precise,
        None => config.instrument.bba.map_or(Analysis::Default, Analysis::from),
    };
    let patterns = |from_config: &[String], from_flags: &[String]| {
        from_config
            .iter()
            .chain(from_flags)
            .map(|p| ClassPattern::new(p))
            .collect()
    };
    let filter = ClassFilter {
        include: patterns(&config.instrument.include, &args.include),
        exclude: patterns(&config.instrument.exclude, &args.exclude),
    };
    let scheme = match args.scheme {
        SchemeName::Profile => Scheme::Profile(ProfileOptions { analysis }),
        SchemeName::Stress => Scheme::Stress(StressOptions { pad: args.stress_pad }),
    };
    let request = InstrumentRequest {
        inputs: args.inputs.paths.clone(),
        output: args.out.clone(),
        scheme,
        filter,
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
