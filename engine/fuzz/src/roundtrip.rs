//! `roundtrip`: whatever parses is written back byte for byte, by the lossless writer and, when
//! every typed attribute parses, by deep re-encoding too.

use jp_classfile::{deep, ClassFile, ClassWriter};

/// Checks that `data`, if it is a class file, is written back unchanged.
///
/// # Panics
/// When a class that parsed is not written back identically, or when the writer fails on it.
pub fn run(data: &[u8]) {
    let Ok(class) = ClassFile::parse(data) else {
        return;
    };
    let written = ClassWriter::new(&class)
        .to_bytes()
        .unwrap_or_else(|e| panic!("a class that parsed could not be written: {e}"));
    assert!(
        written == data,
        "ClassWriter changed a class it was not asked to change"
    );
    if let Ok(reencoded) = deep::reencode(&class) {
        assert!(reencoded == data, "deep::reencode changed a class it could parse");
    }
}
