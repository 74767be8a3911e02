//! `jp-dist`: the release checks of JP's native libraries and the packing of the `jp` archives.
//! Exit codes: 0 all good, 1 a check found violations, 2 unreadable input or bad arguments.

use std::error::Error;
use std::io::{self, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};
use jp_dist::check::{self, LibraryReport};
use jp_dist::error::DistError;
use jp_dist::local_paths::LocalPaths;
use jp_dist::natives::{self, NativesRequest};
use jp_dist::pack::{self, PackRequest};
use jp_dist::platform::{self, Platform};

#[derive(Parser)]
#[command(
    name = "jp-dist",
    about = "Checks JP's native libraries and packs the jp command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Checks one native library against the rules of its platform.
    CheckLib {
        /// The library file.
        file: PathBuf,
        /// Platform id (linux-x86_64, macos-aarch64, windows-x86_64, ...).
        #[arg(long)]
        platform: String,
        /// A local path the library must not contain, such as the checkout (repeatable).
        #[arg(long, value_name = "PATH")]
        forbid: Vec<PathBuf>,
    },
    /// Checks every native/<platform>/<file> library in jp-engine.jar.
    CheckJar {
        /// The jar.
        jar: PathBuf,
        /// Platforms that must be present, comma-separated.
        #[arg(long, value_delimiter = ',', value_name = "IDS")]
        require: Vec<String>,
        /// A local path no library may contain, such as the checkout (repeatable).
        #[arg(long, value_name = "PATH")]
        forbid: Vec<PathBuf>,
    },
    /// Prints every released platform, one per line: its id and its Rust target.
    Released,
    /// Cross-builds the JNI library of every released platform (and jp where asked) with
    /// cargo-zigbuild, staged as OUT/native/<platform>/<library> and OUT/cli/<platform>/<jp>.
    Natives {
        /// The staging directory, replaced as a whole.
        #[arg(long)]
        out: PathBuf,
        /// A platform that also gets the jp command line (repeatable).
        #[arg(long, value_name = "PLATFORM")]
        cli: Vec<String>,
        /// The cargo workspace to build.
        #[arg(long, default_value = ".")]
        workspace: PathBuf,
        /// Where cargo-zigbuild and Zig are (set by scripts/lib/ensure-tools.sh: ensure_tools cross).
        #[arg(long, env = "JP_CROSS_BIN", value_name = "DIR")]
        tools: PathBuf,
        /// Cargo's target directory and Zig's caches go under DIR/cross.
        #[arg(long, env = "JP_CACHE_DIR", value_name = "DIR", default_value_os_t = default_cache())]
        cache: PathBuf,
    },
    /// Packs jp-<version>-<platform>.tar.gz (.zip on Windows) per binary, then SHA256SUMS.
    Pack {
        /// Release version in the archive names.
        #[arg(long)]
        version: String,
        /// Time stamp of every entry, in seconds since 1970.
        #[arg(long)]
        epoch: u64,
        /// Output directory.
        #[arg(long)]
        out: PathBuf,
        /// The jp binary of each platform, as PLATFORM=PATH.
        #[arg(required = true, value_name = "PLATFORM=PATH")]
        binaries: Vec<String>,
        /// A file to put beside the binary in every archive (repeatable).
        #[arg(long, value_name = "FILE")]
        include: Vec<PathBuf>,
    },
}

fn main() -> ExitCode {
    let result = match Cli::parse().command {
        Command::CheckLib {
            file,
            platform,
            forbid,
        } => check_lib(file, platform, &forbid),
        Command::CheckJar { jar, require, forbid } => check_jar(jar, &require, &forbid),
        Command::Released => print_released(),
        Command::Natives {
            out,
            cli,
            workspace,
            tools,
            cache,
        } => run_natives(out, &cli, workspace, tools, cache),
        Command::Pack {
            version,
            epoch,
            out,
            binaries,
            include,
        } => run_pack(version, epoch, out, &binaries, include),
    };
    match result {
        Ok(Outcome::Passed) => ExitCode::SUCCESS,
        Ok(Outcome::Failed) => ExitCode::from(1),
        Err(Failure::Dist(error)) => {
            eprintln!("jp-dist: {}", chain(&error));
            ExitCode::from(2)
        }
        Err(Failure::Output(error)) => {
            eprintln!("jp-dist: cannot write to standard output: {error}");
            ExitCode::from(2)
        }
    }
}

enum Outcome {
    Passed,
    Failed,
}

impl Outcome {
    fn of(passed: bool) -> Self {
        if passed {
            Outcome::Passed
        } else {
            Outcome::Failed
        }
    }
}

enum Failure {
    Dist(DistError),
    Output(io::Error),
}

impl From<DistError> for Failure {
    fn from(error: DistError) -> Self {
        Failure::Dist(error)
    }
}

/// Prints to standard output. A closed pipe (`jp-dist check-jar … | head`) is not an error, and
/// the verdict, decided before printing, stands.
fn print(lines: impl FnOnce(&mut io::StdoutLock<'_>) -> io::Result<()>) -> Result<(), Failure> {
    match lines(&mut io::stdout().lock()) {
        Err(error) if error.kind() != io::ErrorKind::BrokenPipe => Err(Failure::Output(error)),
        _ => Ok(()),
    }
}

fn check_lib(file: PathBuf, id: String, forbid: &[PathBuf]) -> Result<Outcome, Failure> {
    let platform = platform::named(&id)?;
    let report = check::check_library(&file, platform, &LocalPaths::from_environment(forbid))?;
    print(|out| print_library(out, &report))?;
    Ok(Outcome::of(report.violations.is_empty()))
}

fn check_jar(jar: PathBuf, require: &[String], forbid: &[PathBuf]) -> Result<Outcome, Failure> {
    let required = platforms(require)?;
    let report = check::check_jar(&jar, &required, &LocalPaths::from_environment(forbid))?;
    print(|out| {
        for library in &report.libraries {
            print_library(out, library)?;
        }
        for violation in &report.violations {
            writeln!(out, "FAIL {}: {violation}", jar.display())?;
        }
        Ok(())
    })?;
    Ok(Outcome::of(report.passed()))
}

/// The platforms of a list of ids given on the command line.
fn platforms(ids: &[String]) -> Result<Vec<&'static Platform>, DistError> {
    ids.iter().map(|id| platform::named(id)).collect()
}

/// `ok <id> (<summary>)`, or `FAIL <id> (<summary>)` and one indented line per violation.
fn print_library(out: &mut impl Write, report: &LibraryReport) -> io::Result<()> {
    let verdict = if report.violations.is_empty() {
        "ok"
    } else {
        "FAIL"
    };
    writeln!(out, "{verdict} {} ({})", report.platform.id, report.summary())?;
    for violation in &report.violations {
        writeln!(out, "  {}: {violation}", report.platform.id)?;
    }
    Ok(())
}

fn print_released() -> Result<Outcome, Failure> {
    print(|out| {
        for platform in platform::released() {
            writeln!(out, "{} {}", platform.id, platform.rust_target)?;
        }
        Ok(())
    })?;
    Ok(Outcome::Passed)
}

/// `~/.cache/jp`, the cache directory of every JP script.
fn default_cache() -> PathBuf {
    let home = std::env::var_os("HOME").unwrap_or_default();
    PathBuf::from(home).join(".cache").join("jp")
}

fn run_natives(
    out: PathBuf,
    cli: &[String],
    workspace: PathBuf,
    tools: PathBuf,
    cache: PathBuf,
) -> Result<Outcome, Failure> {
    let cli = platforms(cli)?;
    let staged = natives::build(&NativesRequest {
        workspace,
        out: out.clone(),
        cli,
        tools,
        cache: cache.join("cross"),
    })?;
    print(|stdout| {
        for file in &staged {
            writeln!(stdout, "staged {}", out.join(file).display())?;
        }
        Ok(())
    })?;
    Ok(Outcome::Passed)
}

fn run_pack(
    version: String,
    epoch: u64,
    out: PathBuf,
    arguments: &[String],
    includes: Vec<PathBuf>,
) -> Result<Outcome, Failure> {
    let mut binaries: Vec<(&'static Platform, PathBuf)> = Vec::new();
    for argument in arguments {
        let (id, path) = argument.split_once('=').ok_or_else(|| DistError::PackArgument {
            argument: argument.clone(),
        })?;
        let platform = platform::named(id)?;
        if binaries.iter().any(|(known, _)| known.id == platform.id) {
            return Err(DistError::DuplicatePlatform { id: id.to_string() }.into());
        }
        binaries.push((platform, PathBuf::from(path)));
    }
    let written = pack::pack(&PackRequest {
        version,
        epoch,
        out,
        binaries,
        includes,
    })?;
    print(|out| {
        for path in &written {
            writeln!(out, "wrote {}", path.display())?;
        }
        Ok(())
    })?;
    Ok(Outcome::Passed)
}

/// The error and its causes, `: `-separated.
fn chain(error: &dyn Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(cause) = source {
        text += &format!(": {cause}");
        source = cause.source();
    }
    text
}
