//! `jp report`: merge profiles and write them out in a report format.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use jp_profile::{Metric, Profile};

/// The report formats.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// Collapsed stacks, `frame;frame value`, for flame-graph tools.
    Folded,
}

/// The metrics, as flags.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum MetricFlag {
    /// Invocations.
    Calls,
    /// Executed bytecodes.
    Bytecodes,
}

/// Flags of `jp report`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// Profiles written by the runtime (`*.jpprof`); several are merged.
    #[arg(required = true, value_name = "PROFILE")]
    profiles: Vec<PathBuf>,
    /// The report format.
    #[arg(long, value_enum)]
    format: Format,
    /// The count to show.
    #[arg(long, value_enum, default_value = "bytecodes")]
    metric: MetricFlag,
    /// Where to write the report (atomically); stdout without it.
    #[arg(long, value_name = "PATH")]
    out: Option<PathBuf>,
}

/// Runs the command. Any unreadable profile fails the whole report.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    let mut merged = Profile::default();
    for path in &args.profiles {
        let file = File::open(path).with_context(|| path.display().to_string())?;
        let profile = jp_profile::parse(BufReader::new(file), path)?;
        merged.merge(&profile);
    }
    let metric = match args.metric {
        MetricFlag::Calls => Metric::Calls,
        MetricFlag::Bytecodes => Metric::Bytecodes,
    };
    let render = |out: &mut dyn Write| match args.format {
        Format::Folded => jp_profile::folded::write(&merged, metric, out),
    };
    match &args.out {
        None => {
            let mut stdout = io::BufWriter::new(io::stdout().lock());
            render(&mut stdout)?;
            stdout.flush()?;
        }
        Some(path) => write_atomically(path, render).with_context(|| path.display().to_string())?,
    }
    Ok(true)
}

/// Writes through a temporary file in the target's directory, renamed into place when complete.
fn write_atomically(path: &Path, render: impl Fn(&mut dyn Write) -> io::Result<()>) -> io::Result<()> {
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    let mut temp = tempfile::NamedTempFile::new_in(dir)?;
    {
        let mut out = io::BufWriter::new(temp.as_file_mut());
        render(&mut out)?;
        out.flush()?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}
