//! Test inputs made on the spot: a small ELF shared object, written with `object`'s ELF
//! writer, that carries exactly what the checks read.

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
