//! `jp instrument`: rewrite the classes of directories, jars and class
//! files into an output directory (incrementally with `--cache`), printing
//! warnings for what was kept unrewritten and a summary line.

use std::io;
use std::path::PathBuf;
use std::sync::Arc;

use jp_driver::config::{self, BbaName, MetricName};
use jp_driver::filter::ClassPattern;
use jp_driver::instrument::{instrument, InstrumentRequest};

use crate::Inputs;

/// The rewrites `jp instrument` offers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SchemeName {
    /// Profiling: per-thread calling-context trees with invocation and bytecode counts.
    Profile,
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

/// The extra exact metrics, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MetricFlag {
    /// Allocations per context and allocated type.
    Allocations,
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
    /// The rewrite to apply: the profiling scheme is the only one (the
    /// flag stays for the command lines that name it).
    #[arg(long = "scheme", value_enum, default_value = "profile")]
    _scheme: SchemeName,
    /// The basic-block analysis that places bytecode counters (default:
    /// from `--config`, else `default`).
    #[arg(long, value_enum)]
    bba: Option<BbaFlag>,
    /// Also count the bytecodes each method runs per source line (default:
    /// from `--config`, else off); see docs/profiling.md.
    #[arg(long)]
    lines: bool,
    /// Split each method's contexts by the call site it was called from
    /// (default: from `--config`, else off); see docs/profiling.md.
    #[arg(long)]
    call_sites: bool,
    /// Extra exact metrics to count, comma-separated: `allocations` counts
    /// every object and array created, per context and type (default: from
    /// `--config`, else none); see docs/profiling.md.
    #[arg(long, value_enum, value_delimiter = ',', value_name = "METRIC")]
    metrics: Vec<MetricFlag>,
    /// Instrument only classes matching a pattern (binary names; `*` within
    /// a package segment, `**` across them). Repeatable; adds to `--config`.
    #[arg(long, value_name = "PATTERN")]
    include: Vec<ClassPattern>,
    /// Copy classes matching a pattern unchanged. Repeatable; adds to `--config`.
    #[arg(long, value_name = "PATTERN")]
    exclude: Vec<ClassPattern>,
    /// A `jp.toml` with an `[instrument]` table (bba, lines, call-sites, metrics, include, exclude).
    #[arg(long, value_name = "FILE")]
    config: Option<PathBuf>,
    /// A cache directory for incremental runs: inputs that did not change
    /// since the last run into the same `--out` are not processed again,
    /// classes seen before are not rewritten again, and the outputs of
    /// inputs that are gone are deleted.
    #[arg(long, value_name = "DIR")]
    cache: Option<PathBuf>,
    /// Print only the summary line (and errors).
    #[arg(long, short)]
    quiet: bool,
}

/// Runs the command; `Ok(false)` when some input failed.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    let bba = args.bba.map(|flag| match flag {
        BbaFlag::Default => BbaName::Default,
        BbaFlag::Precise => BbaName::Precise,
    });
    let metrics: Option<Vec<MetricName>> = (!args.metrics.is_empty()).then(|| {
        args.metrics
            .iter()
            .map(|flag| match flag {
                MetricFlag::Allocations => MetricName::Allocations,
            })
            .collect()
    });
    let (options, filter) = config::effective(
        args.config.as_deref(),
        bba,
        args.lines.then_some(true),
        args.call_sites.then_some(true),
        metrics.as_deref(),
        &args.include,
        &args.exclude,
    )?;
    let request = InstrumentRequest {
        inputs: args.inputs.paths.clone(),
        output: args.out.clone(),
        scheme: Arc::new(options),
        filter,
        cache: args.cache.clone(),
    };
    let outcome = instrument(&request)?;
    outcome.write_text(
        "jp",
        args.quiet,
        &mut io::stdout().lock(),
        &mut io::stderr().lock(),
    )?;
    Ok(outcome.errors.is_empty())
}
