//! `jp diff`: compare two sets of profiles, the base and the new, and write
//! what changed (per context, method and test) as text, JSON or an HTML
//! page, to stdout or atomically to a file. A diff is not a gate: it exits
//! 0 whatever changed, and 2 when a profile cannot be read, the metric is
//! on neither side or sampled, or the diff cannot be written (nothing is
//! written then).

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use jp_report::diff::{DiffFormat, DiffOptions, NameFilter};
use jp_report::metric::MetricName;
use jp_report::run::ReportWarning;
use jp_report::ReportError;

use crate::report::{percentage, size_limit, NamesFlag, SizeLimit};

/// How many rows each list of the text diff shows unless `--limit` says.
const TEXT_LIMIT: usize = 50;
/// How many rows each list of the JSON diff holds unless `--limit` says:
/// a context is written with its whole path, so two unrelated profiles of
/// a million contexts would make gigabytes.
const JSON_LIMIT: usize = 1000;

/// The diff formats, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DiffFormatFlag {
    /// Ranked tables of methods and tests, and a tree of the changed paths.
    Text,
    /// One self-contained page: a differential icicle graph and the tables.
    Html,
    /// Every change, machine-readable.
    Json,
}

impl From<DiffFormatFlag> for DiffFormat {
    fn from(flag: DiffFormatFlag) -> DiffFormat {
        match flag {
            DiffFormatFlag::Text => DiffFormat::Text,
            DiffFormatFlag::Html => DiffFormat::Html,
            DiffFormatFlag::Json => DiffFormat::Json,
        }
    }
}

/// Flags of `jp diff`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The base profiles, merged into one tree.
    #[arg(required = true, value_name = "BASE")]
    base: Vec<PathBuf>,
    /// The new profiles, merged into one tree and compared with the base.
    #[arg(long, required = true, num_args = 1.., value_name = "NEW")]
    against: Vec<PathBuf>,
    /// The diff format.
    #[arg(long, value_enum, default_value = "text")]
    format: DiffFormatFlag,
    /// The count whose change ranks the lists, colours the graph and
    /// `--threshold` compares: `calls`, `bytecodes`, or an exact extra
    /// metric of the profiles by name (`allocations`, `allocations:int[]`);
    /// a side without it counts 0 there. Sampled metrics are refused.
    #[arg(long, value_name = "NAME", default_value = "bytecodes")]
    metric: String,
    /// Leave out rows whose absolute change is below this percentage of the
    /// total change (every context's absolute own change, summed).
    #[arg(long, value_name = "PERCENT", default_value = "0", value_parser = percentage)]
    threshold: f64,
    /// The most rows of each list (default: 50 in text, 1000 in JSON, all
    /// in HTML); 0 for no limit.
    #[arg(long, value_name = "N")]
    limit: Option<usize>,
    /// Count only the contexts on whose path a frame's name contains this
    /// text (as the profile names it, `demo.Main.work(I)J`): the subtrees
    /// of the matching methods.
    #[arg(long, value_name = "TEXT")]
    filter: Option<String>,
    /// Write the diff to this file (atomically: complete or not at all)
    /// instead of stdout.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
    /// Refuse a diff larger than this: bytes, or with a suffix K, M, G or
    /// T (powers of 1024); `0` or `unlimited` for no limit.
    #[arg(long, value_name = "SIZE", default_value = "1G", value_parser = size_limit)]
    max_output_size: SizeLimit,
    /// How the text and HTML diffs name methods: `short` or `full` (as in
    /// `jp report`); JSON always writes the full form.
    #[arg(long, value_enum, default_value = "short")]
    names: NamesFlag,
    /// The title of the text and HTML diffs (the page's title and header,
    /// the text's first line).
    #[arg(long, value_name = "TEXT")]
    title: Option<String>,
}

/// Runs the command and gives its exit code (see the module's doc).
pub fn main(args: &Args) -> ExitCode {
    let format = args.format.into();
    let limit = match (args.limit, format) {
        (Some(0), _) | (None, DiffFormat::Html) => None,
        (None, DiffFormat::Text) => Some(TEXT_LIMIT),
        (None, DiffFormat::Json) => Some(JSON_LIMIT),
        (limit, _) => limit,
    };
    let (metric, metric_name) = MetricName::parse(&args.metric).into_options();
    let options = DiffOptions {
        metric,
        metric_name,
        threshold: args.threshold,
        limit,
        filter: NameFilter(args.filter.clone()),
        max_output_size: args.max_output_size.0,
        names: args.names.into(),
        title: args.title.clone(),
    };
    let diffed = match &args.out {
        Some(path) => jp_report::diff::run(&args.base, &args.against, format, &options, path),
        None => to_stdout(args, format, &options),
    };
    crate::report::exit_code(diffed)
}

/// The diff on stdout, and its warnings.
fn to_stdout(
    args: &Args,
    format: DiffFormat,
    options: &DiffOptions,
) -> Result<Vec<ReportWarning>, ReportError> {
    let (diff, options, warnings) = jp_report::diff::read(&args.base, &args.against, options)?;
    let mut stdout = io::BufWriter::with_capacity(1 << 16, io::stdout().lock());
    jp_report::diff::render(&diff, format, &options, &mut stdout)
        .and_then(|()| stdout.flush())
        .map_err(|source| ReportError::writing(Path::new("stdout"), source))?;
    Ok(warnings)
}
