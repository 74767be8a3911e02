//! Test inputs made on the spot: a small ELF shared object and a small PE DLL, written with
//! `object`'s writers, that carry exactly what the checks read.

use jp_dist::rules::JNI_EXPORTS;
use object::elf;
use object::write::elf::{FileHeader, Sym, Vernaux, Verneed, Writer};

/// An ELF64 x86_64 `ET_DYN` with only what the checks read: the JNI exports in `.dynsym`,
/// `DT_NEEDED` libc and libgcc_s, `DT_FLAGS_1`, and version needs up to `GLIBC_2.17`.
pub fn shared_object(flags_1: u32) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut writer = Writer::new(object::Endianness::Little, true, &mut bytes);
    writer.reserve_file_header();
    let libc = writer.add_dynamic_string(b"libc.so.6");
    let libgcc = writer.add_dynamic_string(b"libgcc_s.so.1");
    let versions = [b"GLIBC_2.2.5".as_slice(), b"GLIBC_2.17"].map(|name| writer.add_dynamic_string(name));
    let gcc_version = writer.add_dynamic_string(b"GCC_3.0");
    let exports: Vec<_> = JNI_EXPORTS
        .iter()
        .map(|name| writer.add_dynamic_string(name.as_bytes()))
        .collect();
    let dynsym = writer.reserve_dynsym_section_index();
    writer.reserve_dynstr_section_index();
    writer.reserve_dynamic_section_index();
    writer.reserve_gnu_verneed_section_index();
    writer.reserve_shstrtab_section_index();
    writer.reserve_null_dynamic_symbol_index();
    for _ in &exports {
        writer.reserve_dynamic_symbol_index();
    }
    writer.reserve_dynsym();
    writer.reserve_dynstr();
    let dynamic_entries = 4;
    writer.reserve_dynamic(dynamic_entries);
    writer.reserve_gnu_verneed(2, 3);
    writer.reserve_shstrtab();
    writer.reserve_section_headers();

    let header = FileHeader {
        os_abi: elf::ELFOSABI_SYSV,
        abi_version: 0,
        e_type: elf::ET_DYN,
        e_machine: elf::EM_X86_64,
        e_entry: 0,
        e_flags: 0,
    };
    writer.write_file_header(&header).unwrap();
    writer.write_null_dynamic_symbol();
    for name in &exports {
        writer.write_dynamic_symbol(&Sym {
            name: Some(*name),
            section: Some(dynsym),
            st_info: (elf::STB_GLOBAL << 4) | elf::STT_FUNC,
            st_other: elf::STV_DEFAULT,
            st_shndx: 0,
            st_value: 0x1000,
            st_size: 16,
        });
    }
    writer.write_dynstr();
    writer.write_align_dynamic();
    writer.write_dynamic_string(elf::DT_NEEDED, libgcc);
    writer.write_dynamic_string(elf::DT_NEEDED, libc);
    writer.write_dynamic(elf::DT_FLAGS_1, flags_1.into());
    writer.write_dynamic(elf::DT_NULL, 0);
    writer.write_align_gnu_verneed();
    writer.write_gnu_verneed(&Verneed {
        version: 1,
        aux_count: 1,
        file: libgcc,
    });
    writer.write_gnu_vernaux(&Vernaux {
        flags: 0,
        index: 2,
        name: gcc_version,
    });
    writer.write_gnu_verneed(&Verneed {
        version: 1,
        aux_count: 2,
        file: libc,
    });
    for (index, name) in versions.into_iter().enumerate() {
        writer.write_gnu_vernaux(&Vernaux {
            flags: 0,
            index: 3 + index as u16,
            name,
        });
    }
    writer.write_shstrtab();
    writer.write_null_section_header();
    writer.write_dynsym_section_header(0, 1);
    writer.write_dynstr_section_header(0);
    writer.write_dynamic_section_header(0);
    writer.write_gnu_verneed_section_header(0);
    writer.write_shstrtab_section_header();
    bytes
}

/// A PE32+ AMD64 DLL exporting the JNI entry points, importing `KERNEL32.dll`, and delay-loading
/// `delay_loaded`.
pub fn dll(delay_loaded: &str) -> Vec<u8> {
    use object::pe;
    use object::write::pe::{NtHeaders, Writer};

    let mut bytes = Vec::new();
    let mut writer = Writer::new(true, 0x1000, 0x200, &mut bytes);
    writer.reserve_dos_header_and_stub();
    writer.reserve_nt_headers(pe::IMAGE_NUMBEROF_DIRECTORY_ENTRIES);
    writer.reserve_section_headers(2);
    let text = writer.reserve_text_section(16);
    // The tables' size does not depend on where they are, their contents do.
    let size = rdata(0, 0, delay_loaded).0.len() as u32;
    let range = writer.reserve_rdata_section(size);
    let (tables, directories) = rdata(range.virtual_address, text.virtual_address, delay_loaded);
    let entries = [
        pe::IMAGE_DIRECTORY_ENTRY_IMPORT,
        pe::IMAGE_DIRECTORY_ENTRY_DELAY_IMPORT,
        pe::IMAGE_DIRECTORY_ENTRY_EXPORT,
    ];
    for (entry, (address, size)) in entries.into_iter().zip(directories) {
        writer.set_data_directory(entry, address, size);
    }
    writer.write_dos_header_and_stub().unwrap();
    writer.write_nt_headers(NtHeaders {
        machine: pe::IMAGE_FILE_MACHINE_AMD64,
        time_date_stamp: 0,
        characteristics: pe::IMAGE_FILE_EXECUTABLE_IMAGE | pe::IMAGE_FILE_DLL,
        major_linker_version: 0,
        minor_linker_version: 0,
        address_of_entry_point: 0,
        image_base: 0x1_8000_0000,
        major_operating_system_version: 6,
        minor_operating_system_version: 0,
        major_image_version: 0,
        minor_image_version: 0,
        major_subsystem_version: 6,
        minor_subsystem_version: 0,
        subsystem: pe::IMAGE_SUBSYSTEM_WINDOWS_CUI,
        dll_characteristics: 0,
        size_of_stack_reserve: 0x10_0000,
        size_of_stack_commit: 0x1000,
        size_of_heap_reserve: 0x10_0000,
        size_of_heap_commit: 0x1000,
    });
    writer.write_section_headers();
    writer.write_section(text.file_offset, &[0xc3; 16]);
    writer.write_section(range.file_offset, &tables);
    bytes
}

/// The DLL's read-only data at address `base`: one import descriptor, one delay-load descriptor,
/// the export directory with its three tables, then the strings. Returns the bytes and the
/// `(address, size)` of the import, delay-load import and export directories.
fn rdata(base: u32, function: u32, delay_loaded: &str) -> (Vec<u8>, [(u32, u32); 3]) {
    const IMPORT_DESCRIPTORS: u32 = 2 * 20;
    const DELAY_DESCRIPTORS: u32 = 2 * 32;
    const EXPORT_DIRECTORY: u32 = 40;
    let count = JNI_EXPORTS.len() as u32;
    let exports = IMPORT_DESCRIPTORS + DELAY_DESCRIPTORS;
    let functions = exports + EXPORT_DIRECTORY;
    let names = functions + 4 * count;
    let ordinals = names + 4 * count;

    let mut strings = Vec::new();
    let mut string = |text: &str| {
        let address = base + ordinals + 2 * count + strings.len() as u32;
        strings.extend_from_slice(text.as_bytes());
        strings.push(0);
        address
    };
    let kernel32 = string("KERNEL32.dll");
    let delay_loaded = string(delay_loaded);
    let dll_name = string("jp_jni.dll");
    let mut sorted = JNI_EXPORTS.to_vec();
    sorted.sort();
    let export_names: Vec<u32> = sorted.into_iter().map(&mut string).collect();

    let mut out = Vec::new();
    let mut words = |values: &[u32]| {
        values
            .iter()
            .for_each(|v| out.extend_from_slice(&v.to_le_bytes()))
    };
    // IMAGE_IMPORT_DESCRIPTOR: name table, time, forwarder chain, name, address table; then null.
    words(&[0, 0, 0, kernel32, 0, 0, 0, 0, 0, 0]);
    // IMAGE_DELAYLOAD_DESCRIPTOR: attributes, name, six tables left empty; then null.
    words(&[1, delay_loaded, 0, 0, 0, 0, 0, 0]);
    words(&[0; 8]);
    // IMAGE_EXPORT_DIRECTORY: flags, time, version, name, ordinal base, counts, the three tables.
    words(&[
        0,
        0,
        0,
        dll_name,
        1,
        count,
        count,
        base + functions,
        base + names,
        base + ordinals,
    ]);
    words(&vec![function; JNI_EXPORTS.len()]);
    words(&export_names);
    (0..count as u16).for_each(|ordinal| out.extend_from_slice(&ordinal.to_le_bytes()));
    out.extend_from_slice(&strings);
    let size = out.len() as u32;
    let directories = [
        (base, IMPORT_DESCRIPTORS),
        (base + IMPORT_DESCRIPTORS, DELAY_DESCRIPTORS),
        (base + exports, size - exports),
    ];
    (out, directories)
}
