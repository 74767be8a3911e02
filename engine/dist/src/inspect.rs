//! Bytes of a native library to [`LibraryFacts`]: what the loader and the release rules care
//! about, read with the `object` crate and nothing else. No judgement here; [`crate::rules`]
//! decides what the facts mean for a platform.

use std::fmt;

use object::elf::{DF_1_NODELETE, DF_1_PIE, DT_FLAGS_1, DT_NEEDED, PT_INTERP};
use object::macho::{LC_CODE_SIGNATURE, LC_VERSION_MIN_MACOSX};
use object::read::elf::{Dyn, ElfFile, FileHeader, ProgramHeader};
use object::read::macho::{LoadCommandVariant, MachHeader, MachOFile};
use object::read::pe::{ImageNtHeaders, PeFile};
use object::{LittleEndian as LE, Object, ObjectKind};

use crate::local_paths::LocalPaths;
use crate::version::Version;

/// Object file format and word size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// 32-bit ELF.
    Elf32,
    /// 64-bit ELF.
    Elf64,
    /// 32-bit Mach-O.
    MachO32,
    /// 64-bit Mach-O.
    MachO64,
    /// PE32 (32-bit Windows).
    Pe32,
    /// PE32+ (64-bit Windows).
    Pe32Plus,
    /// Any other format `object` recognises (COFF object, Wasm, XCOFF).
    Other,
}

impl Format {
    /// The family name without word size, as the summary line shows it.
    pub fn family(self) -> &'static str {
        match self {
            Format::Elf32 | Format::Elf64 => "ELF",
            Format::MachO32 | Format::MachO64 => "Mach-O",
            Format::Pe32 | Format::Pe32Plus => "PE",
            Format::Other => "other format",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Format::Elf32 => "ELF32",
            Format::Elf64 => "ELF64",
            Format::MachO32 => "Mach-O 32-bit",
            Format::MachO64 => "Mach-O 64-bit",
            Format::Pe32 => "PE32",
            Format::Pe32Plus => "PE32+",
            Format::Other => "an unsupported format",
        })
    }
}

/// The machine the code runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Architecture {
    /// x86-64 (AMD64).
    X86_64,
    /// 64-bit ARM (arm64 on Apple systems).
    Aarch64,
    /// 32-bit x86.
    I386,
    /// 32-bit ARM.
    Arm,
    /// Anything else.
    Other,
}

impl From<object::Architecture> for Architecture {
    fn from(architecture: object::Architecture) -> Self {
        match architecture {
            object::Architecture::X86_64 => Architecture::X86_64,
            object::Architecture::Aarch64 => Architecture::Aarch64,
            object::Architecture::I386 => Architecture::I386,
            object::Architecture::Arm => Architecture::Arm,
            _ => Architecture::Other,
        }
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Architecture::X86_64 => "x86_64",
            Architecture::Aarch64 => "aarch64",
            Architecture::I386 => "i386",
            Architecture::Arm => "arm",
            Architecture::Other => "another architecture",
        })
    }
}

/// What the loader does with the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// Loadable with `dlopen`/`LoadLibrary` (ELF `ET_DYN` without interpreter, `MH_DYLIB`, DLL).
    SharedLibrary,
    /// A program, position-independent or not.
    Executable,
    /// Relocatable object, core dump, bundle, or unknown.
    Other,
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Kind::SharedLibrary => "a shared library",
            Kind::Executable => "an executable",
            Kind::Other => "neither library nor executable",
        })
    }
}

/// What one native library is, as far as the release rules are concerned.
///
/// Format-specific fields hold their neutral value on other formats (`None`, `false`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LibraryFacts {
    /// Format and word size.
    pub format: Format,
    /// Target machine.
    pub architecture: Architecture,
    /// Library, executable or other.
    pub kind: Kind,
    /// Exported symbol names as the format stores them (Mach-O's carry a leading `_`).
    pub exports: Vec<String>,
    /// Libraries loaded with it: ELF `DT_NEEDED`, Mach-O `LC_LOAD_*DYLIB` paths, PE import DLLs.
    pub imports: Vec<String>,
    /// ELF: highest `GLIBC_x.y` symbol version needed, if any.
    pub glibc: Option<Version>,
    /// ELF: `DF_1_NODELETE` is set (`dlclose` never unmaps the library).
    pub nodelete: bool,
    /// Mach-O: minimum OS version (`LC_BUILD_VERSION` minos or `LC_VERSION_MIN_MACOSX`).
    pub min_os: Option<Version>,
    /// Mach-O: install name (`LC_ID_DYLIB`).
    pub install_name: Option<String>,
    /// Mach-O: an `LC_CODE_SIGNATURE` load command is present.
    pub code_signature: bool,
    /// The local-path strings found anywhere in the bytes.
    pub local_paths: Vec<String>,
}

impl LibraryFacts {
    /// Facts of this shape with no exports, imports or local paths, and every format-specific
    /// field at its neutral value: the reader and the tests fill in the rest.
    pub fn new(format: Format, architecture: Architecture, kind: Kind) -> Self {
        LibraryFacts {
            format,
            architecture,
            kind,
            exports: Vec::new(),
            imports: Vec::new(),
            glibc: None,
            nodelete: false,
            min_os: None,
            install_name: None,
            code_signature: false,
            local_paths: Vec::new(),
        }
    }
}

/// Reads the facts of one library; `local_paths` says which strings betray the build machine.
///
/// # Errors
///
/// When `object` cannot parse the bytes as ELF, Mach-O or PE, or a table in them is broken.
pub fn inspect(bytes: &[u8], local_paths: &LocalPaths) -> Result<LibraryFacts, object::read::Error> {
    let file = object::File::parse(bytes)?;
    let kind = match file.kind() {
        ObjectKind::Dynamic => Kind::SharedLibrary,
        ObjectKind::Executable => Kind::Executable,
        _ => Kind::Other,
    };
    let mut facts = LibraryFacts {
        exports: file
            .exports()?
            .iter()
            .map(|export| lossy(export.name()))
            .collect(),
        local_paths: local_paths.found_in(bytes),
        ..LibraryFacts::new(format_of(&file), file.architecture().into(), kind)
    };
    match &file {
        object::File::Elf32(elf) => read_elf(elf, &mut facts)?,
        object::File::Elf64(elf) => read_elf(elf, &mut facts)?,
        object::File::MachO32(macho) => read_macho(macho, &mut facts)?,
        object::File::MachO64(macho) => read_macho(macho, &mut facts)?,
        object::File::Pe32(pe) => read_pe(pe, &mut facts)?,
        object::File::Pe64(pe) => read_pe(pe, &mut facts)?,
        _ => {}
    }
    Ok(facts)
}

fn format_of(file: &object::File<'_>) -> Format {
    match file {
        object::File::Elf32(_) => Format::Elf32,
        object::File::Elf64(_) => Format::Elf64,
        object::File::MachO32(_) => Format::MachO32,
        object::File::MachO64(_) => Format::MachO64,
        object::File::Pe32(_) => Format::Pe32,
        object::File::Pe64(_) => Format::Pe32Plus,
        _ => Format::Other,
    }
}

/// `DT_NEEDED`, `DT_FLAGS_1` and the version needs. `ET_DYN`, which `object` calls a shared
/// library, is also what a position-independent executable is, so a program interpreter or
/// `DF_1_PIE` makes it an executable.
fn read_elf<Elf: FileHeader>(
    elf: &ElfFile<'_, Elf>,
    facts: &mut LibraryFacts,
) -> Result<(), object::read::Error> {
    let endian = elf.endian();
    let data = elf.data();
    let sections = elf.elf_section_table();
    let mut flags_1 = 0u64;
    if let Some((entries, strings_index)) = sections.dynamic(endian, data)? {
        let strings = sections.strings(endian, data, strings_index)?;
        for entry in entries {
            match entry.tag32(endian) {
                Some(DT_NEEDED) => facts.imports.push(lossy(entry.string(endian, strings)?)),
                Some(DT_FLAGS_1) => flags_1 = entry.d_val(endian).into(),
                _ => {}
            }
        }
    }
    facts.nodelete = flags_1 & u64::from(DF_1_NODELETE) != 0;
    let has_interpreter = elf
        .elf_program_headers()
        .iter()
        .any(|header| header.p_type(endian) == PT_INTERP);
    let pie = flags_1 & u64::from(DF_1_PIE) != 0;
    if facts.kind == Kind::SharedLibrary && (has_interpreter || pie) {
        facts.kind = Kind::Executable;
    }
    if let Some((mut needs, strings_index)) = sections.gnu_verneed(endian, data)? {
        let strings = sections.strings(endian, data, strings_index)?;
        while let Some((_, mut versions)) = needs.next()? {
            while let Some(version) = versions.next()? {
                let name = lossy(version.name(endian, strings)?);
                let glibc = name.strip_prefix("GLIBC_").and_then(Version::parse);
                facts.glibc = facts.glibc.max(glibc);
            }
        }
    }
    Ok(())
}

/// Install name, linked dylibs, deployment target and signature, from the load commands.
fn read_macho<Mach: MachHeader>(
    macho: &MachOFile<'_, Mach>,
    facts: &mut LibraryFacts,
) -> Result<(), object::read::Error> {
    let endian = macho.endian();
    let mut commands = macho.macho_load_commands()?;
    while let Some(command) = commands.next()? {
        match command.variant()? {
            LoadCommandVariant::IdDylib(dylib) => {
                facts.install_name = Some(lossy(command.string(endian, dylib.dylib.name)?));
            }
            LoadCommandVariant::Dylib(dylib) => {
                push_unique(
                    &mut facts.imports,
                    lossy(command.string(endian, dylib.dylib.name)?),
                );
            }
            LoadCommandVariant::BuildVersion(build) => {
                facts.min_os = Some(Version::from_macho(build.minos.get(endian)));
            }
            LoadCommandVariant::VersionMin(min) if command.cmd() == LC_VERSION_MIN_MACOSX => {
                facts.min_os = Some(Version::from_macho(min.version.get(endian)));
            }
            LoadCommandVariant::LinkeditData(_) if command.cmd() == LC_CODE_SIGNATURE => {
                facts.code_signature = true;
            }
            _ => {}
        }
    }
    Ok(())
}

/// The DLLs of the import table and of the delay-load import table: a delay-loaded DLL must be
/// on the machine all the same, only later.
fn read_pe<Pe: ImageNtHeaders>(
    pe: &PeFile<'_, Pe>,
    facts: &mut LibraryFacts,
) -> Result<(), object::read::Error> {
    if let Some(table) = pe.import_table()? {
        let mut descriptors = table.descriptors()?;
        while let Some(descriptor) = descriptors.next()? {
            push_unique(&mut facts.imports, lossy(table.name(descriptor.name.get(LE))?));
        }
    }
    let sections = pe.section_table();
    if let Some(table) = pe
        .data_directories()
        .delay_load_import_table(pe.data(), &sections)?
    {
        let mut descriptors = table.descriptors()?;
        while let Some(descriptor) = descriptors.next()? {
            push_unique(
                &mut facts.imports,
                lossy(table.name(descriptor.dll_name_rva.get(LE))?),
            );
        }
    }
    Ok(())
}

fn push_unique(names: &mut Vec<String>, name: String) {
    if !names.contains(&name) {
        names.push(name);
    }
}

fn lossy(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::platform::find;
    use crate::rules;
    use crate::violation::Violation;

    #[test]
    fn the_test_binary_is_an_executable_not_a_library() {
        let bytes = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        let facts = inspect(&bytes, &LocalPaths::new([])).unwrap();
        if cfg!(all(target_os = "linux", target_pointer_width = "64")) {
            assert_eq!(facts.format, Format::Elf64);
            assert!(facts.imports.iter().any(|library| library.starts_with("libc.so")));
        }
        if cfg!(target_arch = "x86_64") {
            assert_eq!(facts.architecture, Architecture::X86_64);
        }
        assert_eq!(facts.kind, Kind::Executable);
        let platform = find("linux-x86_64").unwrap();
        let violations = rules::check(&facts, platform);
        assert!(violations.contains(&Violation::NotSharedLibrary {
            found: Kind::Executable
        }));
    }

    #[test]
    fn local_paths_in_the_bytes_become_facts() {
        let bytes = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        let checkout = env!("CARGO_MANIFEST_DIR").to_string();
        let facts = inspect(&bytes, &LocalPaths::new([checkout.clone()])).unwrap();
        // The test binary keeps its debug information and with it the source paths.
        assert!(facts.local_paths.contains(&checkout), "{:?}", facts.local_paths);
    }

    #[test]
    fn bytes_of_no_known_format_are_an_error() {
        assert!(inspect(b"PK\x03\x04 not a library", &LocalPaths::new([])).is_err());
    }
}
