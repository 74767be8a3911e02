//! `jp inspect`: a readable summary of class files, in the manner of
//! `javap -v`, enough to debug what JP writes.

use std::io::{self, Write};

use jp_classfile::ClassFile;
use jp_disasm::{print_class, Options};
use jp_driver::input::{Entry, Input};

use crate::output::report_failure;
use crate::Inputs;

/// Flags of `jp inspect`.
#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(flatten)]
    inputs: Inputs,
    /// Only classes with this internal or binary name (`a/b/C` or `a.b.C`).
    #[arg(long = "class", value_name = "NAME")]
    class: Option<String>,
    /// Also list every constant-pool entry.
    #[arg(long)]
    constants: bool,
}

/// Runs the command; `Ok(false)` when some input could not be read or
/// parsed, or holds no class of the `--class` name.
pub fn run(args: &Args) -> anyhow::Result<bool> {
    let wanted = args.class.as_ref().map(|name| name.replace('.', "/"));
    let mut all_ok = true;
    let mut found = false;
    let mut out = io::stdout().lock();
    for path in &args.inputs.paths {
        let entries = match Input::open(path).and_then(|input| Ok(input.entries()?.collect::<Vec<_>>())) {
            Ok(entries) => entries,
            Err(error) => {
                report_failure(&error);
                all_ok = false;
                continue;
            }
        };
        for entry in entries {
            match entry {
                Ok(entry) if entry.is_class() => {
                    match inspect_entry(&mut out, &entry, wanted.as_deref(), args.constants)? {
                        Inspected::Shown => found = true,
                        Inspected::Other => {}
                        Inspected::Failed => all_ok = false,
                    }
                }
                Ok(_) => {}
                Err(error) => {
                    report_failure(&error);
                    all_ok = false;
                }
            }
        }
    }
    if let (Some(name), false, true) = (&args.class, found, all_ok) {
        let inputs: Vec<String> = args
            .inputs
            .paths
            .iter()
            .map(|p| p.display().to_string())
            .collect();
        eprintln!("jp: no class {name} in {}", inputs.join(", "));
        all_ok = false;
    }
    Ok(all_ok)
}

/// What became of one class file.
enum Inspected {
    Shown,
    /// Not the `--class` asked for.
    Other,
    /// It does not parse (reported).
    Failed,
}

fn inspect_entry(
    out: &mut impl Write,
    entry: &Entry,
    wanted: Option<&str>,
    constants: bool,
) -> io::Result<Inspected> {
    let class = match ClassFile::parse(&entry.bytes) {
        Ok(class) => class,
        Err(error) => {
            eprintln!("jp: {}: {error}", entry.location);
            return Ok(Inspected::Failed);
        }
    };
    if wanted.is_some_and(|name| name.as_bytes() != class.this_class_name()) {
        return Ok(Inspected::Other);
    }
    writeln!(out, "{}", entry.location)?;
    print_class(out, &class, Options { constants })?;
    writeln!(out)?;
    Ok(Inspected::Shown)
}
