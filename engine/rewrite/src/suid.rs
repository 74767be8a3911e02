//! The default `serialVersionUID` of a class, as `java.io.ObjectStreamClass`
//! computes it (Java Object Serialization Specification §4.6). Adding a
//! static initializer changes that value, so when JP adds one to a class
//! that may be serializable, it first pins the original value in a
//! `serialVersionUID` field.

use sha1::{Digest, Sha1};

use jp_classfile::access::{
    ACC_ABSTRACT, ACC_FINAL, ACC_INTERFACE, ACC_NATIVE, ACC_PRIVATE, ACC_PROTECTED, ACC_PUBLIC, ACC_STATIC,
    ACC_STRICT, ACC_SYNCHRONIZED, ACC_TRANSIENT, ACC_VOLATILE,
};
use jp_classfile::attributes::{names, AttributeInfo, InnerClasses};
use jp_classfile::{mutf8, ByteSink, ClassFile, ConstantLookup, Member};

const CLASS_MODIFIERS: u16 = ACC_PUBLIC | ACC_FINAL | ACC_INTERFACE | ACC_ABSTRACT;
const FIELD_MODIFIERS: u16 =
    ACC_PUBLIC | ACC_PRIVATE | ACC_PROTECTED | ACC_STATIC | ACC_FINAL | ACC_VOLATILE | ACC_TRANSIENT;
const METHOD_MODIFIERS: u16 = ACC_PUBLIC
    | ACC_PRIVATE
    | ACC_PROTECTED
    | ACC_STATIC
    | ACC_FINAL
    | ACC_SYNCHRONIZED
    | ACC_NATIVE
    | ACC_ABSTRACT
    | ACC_STRICT;

/// The value to pin before adding a static initializer to `class`, or
/// `None` when serialization does not use it: interfaces, enums and
/// records (whose values are fixed or not checked), classes that declare
/// one, and classes that cannot be serializable (a direct subclass of
/// `Object` without interfaces).
///
/// # Errors
/// Broken constant-pool references.
pub fn uid_to_keep(class: &ClassFile<'_>) -> jp_classfile::Result<Option<i64>> {
    let super_name = class.super_class_name();
    let cannot_serialize = class.access_flags & ACC_INTERFACE != 0
        || matches!(super_name, Some(b"java/lang/Enum" | b"java/lang/Record"))
        || (super_name == Some(b"java/lang/Object") && class.interfaces.is_empty())
        || class.fields.iter().any(|f| f.name == b"serialVersionUID");
    if cannot_serialize {
        return Ok(None);
    }
    default_uid(class).map(Some)
}

/// `ObjectStreamClass.computeDefaultSUID` for the class as it is.
///
/// # Errors
/// Broken constant-pool references.
pub fn default_uid(class: &ClassFile<'_>) -> jp_classfile::Result<i64> {
    let pool = &class.constant_pool;
    let mut out = Vec::new();
    let this = class.this_class_name();
    write_utf(&mut out, &dotted(this));
    out.put_u4(u32::from(class_modifiers(class)? & CLASS_MODIFIERS));

    let mut interfaces = Vec::with_capacity(class.interfaces.len());
    for &index in &class.interfaces {
        interfaces.push(dotted(pool.class_name_bytes(index)?));
    }
    interfaces.sort_by_key(|name| utf16(name));
    for name in &interfaces {
        write_utf(&mut out, name);
    }

    let mut fields: Vec<&Member<'_>> = class
        .fields
        .iter()
        .filter(|f| f.access_flags & ACC_PRIVATE == 0 || f.access_flags & (ACC_STATIC | ACC_TRANSIENT) == 0)
        .collect();
    fields.sort_by_key(|f| utf16(f.name));
    for field in fields {
        write_utf(&mut out, field.name);
        out.put_u4(u32::from(field.access_flags & FIELD_MODIFIERS));
        write_utf(&mut out, field.descriptor);
    }

    if class.methods.iter().any(|m| m.name == b"<clinit>") {
        write_utf(&mut out, b"<clinit>");
        out.put_u4(u32::from(ACC_STATIC));
        write_utf(&mut out, b"()V");
    }

    let visible = |m: &&Member<'_>| m.access_flags & ACC_PRIVATE == 0;
    let mut constructors: Vec<&Member<'_>> = class
        .methods
        .iter()
        .filter(|m| m.name == b"<init>")
        .filter(visible)
        .collect();
    constructors.sort_by_key(|m| utf16(m.descriptor));
    let mut methods: Vec<&Member<'_>> = class
        .methods
        .iter()
        .filter(|m| m.name != b"<init>" && m.name != b"<clinit>")
        .filter(visible)
        .collect();
    methods.sort_by_key(|m| (utf16(m.name), utf16(m.descriptor)));
    for method in constructors.into_iter().chain(methods) {
        write_utf(&mut out, method.name);
        out.put_u4(u32::from(method.access_flags & METHOD_MODIFIERS));
        write_utf(&mut out, &dotted(method.descriptor));
    }

    let digest = Sha1::digest(&out);
    Ok(i64::from_le_bytes(
        digest[..8].try_into().expect("SHA-1 has 20 bytes"),
    ))
}

/// `Class.getModifiers()`: a member class's flags come from its own
/// `InnerClasses` entry.
fn class_modifiers(class: &ClassFile<'_>) -> jp_classfile::Result<u16> {
    let pool = &class.constant_pool;
    if let Some(raw) = class.attribute(names::INNER_CLASSES) {
        let inner = InnerClasses::from_raw(raw, pool)?;
        for entry in &inner.classes {
            if !entry.inner_class_info_index.is_none()
                && pool.class_name_bytes(entry.inner_class_info_index)? == class.this_class_name()
            {
                return Ok(entry.inner_class_access_flags);
            }
        }
    }
    Ok(class.access_flags)
}

/// `DataOutputStream.writeUTF` of a string already in modified UTF-8.
fn write_utf(out: &mut Vec<u8>, mutf8: &[u8]) {
    out.put_u2(mutf8.len() as u16);
    out.put_bytes(mutf8);
}

/// Sort key of a name: Java compares strings by UTF-16 unit. Names of a
/// parsed class are valid modified UTF-8.
fn utf16(name: &[u8]) -> Vec<u16> {
    mutf8::to_utf16(name).unwrap_or_default()
}

fn dotted(name: &[u8]) -> Vec<u8> {
    name.iter().map(|&b| if b == b'/' { b'.' } else { b }).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use jp_testdata::class as testdata;

    /// The expected values are what `ObjectStreamClass.lookup(c).getSerialVersionUID()`
    /// printed for these classes on JDK 17.
    #[test]
    fn the_default_uid_is_the_one_java_computes() {
        for (name, expected) in [
            ("java8/AllInstructions.class", 5525037500962814804),
            ("java8/Generics$Named.class", -3078603144372475431),
            ("java17/Generics$Inner.class", -1790966580865950518),
        ] {
            let bytes = testdata(name);
            let class = ClassFile::parse(&bytes).unwrap();
            assert_eq!(default_uid(&class).unwrap(), expected, "{name}");
        }
    }

    #[test]
    fn enums_interfaces_and_plain_object_subclasses_need_no_pinning() {
        for name in [
            "java8/Enums.class",
            "java8/Interfaces.class",
            "java8/Nested$StaticNested.class",
        ] {
            let bytes = testdata(name);
            let class = ClassFile::parse(&bytes).unwrap();
            assert_eq!(uid_to_keep(&class).unwrap(), None, "{name}");
        }
    }
}
