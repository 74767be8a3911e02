//! `inspect` and the rules on real ELF and Mach-O files.

mod support;

use jp_dist::inspect::{inspect, Architecture, Format, Kind, LibraryFacts};
use jp_dist::local_paths::LocalPaths;
use jp_dist::platform::find;
use jp_dist::rules::{self, JNI_EXPORTS};
use jp_dist::version::Version;
use jp_dist::violation::Violation;
use object::elf::{DF_1_NODELETE, DF_1_PIE};

/// The facts of `bytes`, looking for no local paths.
fn facts_of(bytes: &[u8]) -> LibraryFacts {
    inspect(bytes, &LocalPaths::new([])).unwrap()
}

#[test]
fn a_shared_object_yields_its_exports_needs_and_flags() {
    let facts = facts_of(&support::shared_object(DF_1_NODELETE));
    assert_eq!(
        (facts.format, facts.architecture),
        (Format::Elf64, Architecture::X86_64)
    );
    assert_eq!(facts.kind, Kind::SharedLibrary);
    assert_eq!(facts.exports, JNI_EXPORTS);
    assert_eq!(facts.imports, ["libgcc_s.so.1", "libc.so.6"]);
    assert_eq!(facts.glibc, Some(Version::new(2, 17)));
    assert!(facts.nodelete);
    assert_eq!(rules::check(&facts, find("linux-x86_64").unwrap()), []);
}

#[test]
fn a_shared_object_marked_pie_is_an_executable() {
    let facts = facts_of(&support::shared_object(DF_1_PIE));
    assert_eq!((facts.kind, facts.nodelete), (Kind::Executable, false));
}

#[test]
fn a_dll_yields_its_exports_and_every_imported_dll_delay_loaded_too() {
    let facts = facts_of(&support::dll("libwinpthread-1.dll"));
    assert_eq!(
        (facts.format, facts.architecture),
        (Format::Pe32Plus, Architecture::X86_64)
    );
    assert_eq!(facts.kind, Kind::SharedLibrary);
    let mut expected: Vec<_> = JNI_EXPORTS.to_vec();
    expected.sort();
    assert_eq!(facts.exports, expected);
    assert_eq!(facts.imports, ["KERNEL32.dll", "libwinpthread-1.dll"]);
    let violations = rules::check(&facts, find("windows-x86_64").unwrap());
    let library = "libwinpthread-1.dll".to_string();
    assert_eq!(
        violations,
        [Violation::ForeignImport {
            library,
            allowed: "Windows system DLLs"
        }]
    );
}

/// Bytes at an odd address, as a buffer read from a file may be: the object crate must not
/// assume its tables are aligned (a cross-built arm64 dylib failed with "Invalid Mach-O number of
/// sections").
fn misaligned(bytes: &[u8]) -> Vec<u8> {
    let mut buffer = Vec::with_capacity(bytes.len() + 1);
    buffer.push(0);
    buffer.extend_from_slice(bytes);
    buffer
}

#[test]
fn a_macho_file_is_read_at_any_alignment() {
    use object::write::{Object, Symbol, SymbolSection};
    use object::{BinaryFormat, Endianness, SectionKind, SymbolFlags, SymbolKind, SymbolScope};

    let mut macho = Object::new(
        BinaryFormat::MachO,
        object::Architecture::Aarch64,
        Endianness::Little,
    );
    let text = macho.add_section(Vec::new(), b"__text".to_vec(), SectionKind::Text);
    macho.append_section_data(text, &[0xc0, 0x03, 0x5f, 0xd6], 4);
    macho.add_symbol(Symbol {
        name: b"JNI_OnLoad".to_vec(),
        value: 0,
        size: 4,
        kind: SymbolKind::Text,
        scope: SymbolScope::Dynamic,
        weak: false,
        section: SymbolSection::Section(text),
        flags: SymbolFlags::None,
    });
    let buffer = misaligned(&macho.write().unwrap());
    let facts = facts_of(&buffer[1..]);
    assert_eq!(
        (facts.format, facts.architecture),
        (Format::MachO64, Architecture::Aarch64)
    );
    assert_eq!(facts.kind, Kind::Other, "a relocatable object is no library");
}

#[test]
fn an_elf_file_is_read_at_any_alignment() {
    let buffer = misaligned(&support::shared_object(DF_1_NODELETE));
    let facts = facts_of(&buffer[1..]);
    assert_eq!(facts.exports, JNI_EXPORTS);
}
