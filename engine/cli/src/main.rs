//! The `jp` command line: glue over the engine crates. It parses flags,
//! calls the engine and prints results; it computes nothing itself.

mod baseline;
mod check;
mod diff;
mod inspect;
mod instrument;
mod output;
mod report;
mod roundtrip;

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Rewriting allocates many small, short-lived buffers on every thread;
/// mimalloc serves them several times faster than the system allocator.
#[cfg(not(windows))]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// JP, the exact profiler for the JVM.
#[derive(Debug, Parser)]
#[command(name = "jp", version)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Print a readable summary of classes: header, constant pool size,
    /// members and their attributes (in the manner of javap).
    Inspect(inspect::Args),
    /// Parse and write back every class, and compare the bytes.
    Roundtrip(roundtrip::Args),
    /// Rewrite the classes of the inputs into an output directory.
    Instrument(instrument::Args),
    /// Merge profiles and write a report.
    Report(report::Args),
    /// Compare profiles: what changed, per context, method and test.
    Diff(diff::Args),
    /// Record the exact counts of a run's tests and methods in a baseline file.
    Baseline(baseline::Args),
    /// Compare a run's profiles with a baseline; exit 1 on a regression.
    Check(check::Args),
}

/// Exit code when every input was handled.
const EXIT_OK: u8 = 0;
/// Exit code when some input failed (or a round trip differed).
const EXIT_FAILED: u8 = 1;
/// Exit code when the command could not do its work (bad input or settings).
const EXIT_USAGE: u8 = 2;

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Inspect(args) => inspect::run(&args),
        Command::Roundtrip(args) => roundtrip::run(&args),
        Command::Instrument(args) => instrument::run(&args),
        Command::Report(args) => return report::main(&args),
        Command::Diff(args) => return diff::main(&args),
        Command::Baseline(args) => return baseline::main(&args),
        Command::Check(args) => return check::main(&args),
    };
    match result {
        Ok(true) => ExitCode::from(EXIT_OK),
        Ok(false) => ExitCode::from(EXIT_FAILED),
        Err(error) if output::is_broken_pipe(&error) => ExitCode::from(EXIT_OK),
        Err(error) => {
            eprintln!("jp: {}", jp_driver::error::chain(error.as_ref()));
            ExitCode::from(EXIT_FAILED)
        }
    }
}

/// Inputs shared by the subcommands.
#[derive(Debug, clap::Args)]
struct Inputs {
    /// Class files, directories, jars or jmods.
    #[arg(required = true, value_name = "PATH")]
    paths: Vec<PathBuf>,
}
