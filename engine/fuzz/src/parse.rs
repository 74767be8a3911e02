//! `parse`: reading any bytes gives a class or an error, never a panic. This covers the
//! structure (`ClassFile::parse`), every typed attribute (through `deep::reencode`, which parses
//! each of them) and the error messages.

use jp_classfile::{deep, ClassFile};

/// Parses `data` as a class file and, if that works, every attribute in it.
///
/// # Panics
/// Only if JP's reader does: any input is allowed.
pub fn run(data: &[u8]) {
    let class = match ClassFile::parse(data) {
        Ok(class) => class,
        Err(error) => {
            let _ = error.to_string();
            return;
        }
    };
    let _ = class.this_class_name();
    let _ = class.super_class_name();
    for member in class.fields.iter().chain(&class.methods) {
        let _ = jp_classfile::mutf8::to_str_lossy(member.name);
        let _ = jp_classfile::mutf8::to_str_lossy(member.descriptor);
    }
    if let Err(error) = deep::reencode(&class) {
        let _ = error.to_string();
    }
}
