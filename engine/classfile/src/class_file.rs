//! The structure of a class file (JVMS §4.1): header, constant pool,
//! members and attributes, each member and attribute kept as the byte range
//! it came from so that it can be written back verbatim.

use crate::constant_pool::{Constant, ConstantPool, CpIndex};
use crate::error::{ClassFileError, Result};
use crate::reader::{ByteSink, Reader};

/// The lowest class-file major version JP reads (JDK 1.0.2).
pub const MIN_MAJOR_VERSION: u16 = 45;
/// The highest class-file major version JP reads (Java 25).
pub const MAX_MAJOR_VERSION: u16 = 69;
/// The first major version with StackMapTable frames (Java 6).
pub const FIRST_VERSION_WITH_FRAMES: u16 = 50;

/// An attribute as it appears in the file: its name and its uninterpreted
/// `info` bytes (JVMS §4.7). Typed views are in [`crate::attributes`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RawAttribute<'a> {
    /// `attribute_name_index`.
    pub name_index: CpIndex,
    /// The name it refers to, as raw modified UTF-8.
    pub name: &'a [u8],
    /// The `info` bytes, without the name index and length.
    pub info: &'a [u8],
    /// Absolute file offset of the first `info` byte.
    pub info_offset: usize,
}

impl<'a> RawAttribute<'a> {
    /// A reader over this attribute's `info`, reporting file offsets.
    pub fn reader(&self) -> Reader<'a> {
        Reader::new(self.info, self.info_offset)
    }

    /// Appends the whole `attribute_info`: name index, length and info.
    pub fn encode(&self, out: &mut Vec<u8>) {
        encode_attribute(out, self.name_index, self.info);
    }
}

/// Appends an `attribute_info` with the given name and `info` bytes.
pub fn encode_attribute(out: &mut Vec<u8>, name_index: CpIndex, info: &[u8]) {
    out.put_u2(name_index.0);
    out.put_u4(u32::try_from(info.len()).expect("attribute longer than 4 GiB"));
    out.put_bytes(info);
}

/// Reads an `attributes_count` and the attributes that follow.
///
/// # Errors
/// Truncation, forged counts and names that are not `Utf8` constants.
pub fn read_attributes<'a>(r: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Vec<RawAttribute<'a>>> {
    let count = r.count_u2("attributes_count", 6)?;
    let mut attributes = Vec::with_capacity(count);
    for _ in 0..count {
        let name_offset = r.offset();
        let name_index = CpIndex(r.u2("attribute_name_index")?);
        let name = utf8_at(pool, name_index, "attribute_name_index", name_offset)?;
        let (info, info_offset) = r.u4_prefixed("attribute info")?;
        attributes.push(RawAttribute {
            name_index,
            name,
            info,
            info_offset,
        });
    }
    Ok(attributes)
}

/// Appends `attributes_count` and each attribute verbatim.
pub fn write_attributes(out: &mut Vec<u8>, attributes: &[RawAttribute<'_>]) {
    crate::reader::put_count(out, attributes.len());
    for attribute in attributes {
        attribute.encode(out);
    }
}

/// The `Utf8` entry at `index`, or an error naming the referring item.
pub(crate) fn utf8_at<'a>(
    pool: &ConstantPool<'a>,
    index: CpIndex,
    item: &'static str,
    offset: usize,
) -> Result<&'a [u8]> {
    match pool.get(index) {
        Some(Constant::Utf8(bytes)) => Ok(bytes),
        found => Err(bad_reference(pool, index, found, item, offset, "Utf8")),
    }
}

/// Checks that `index` is a `Class` entry (or 0 where `optional`).
pub(crate) fn class_at(
    pool: &ConstantPool<'_>,
    index: CpIndex,
    item: &'static str,
    offset: usize,
    optional: bool,
) -> Result<()> {
    match pool.get(index) {
        Some(Constant::Class { .. }) => Ok(()),
        _ if optional && index.is_none() => Ok(()),
        found => Err(bad_reference(pool, index, found, item, offset, "Class")),
    }
}

#[cold]
fn bad_reference(
    pool: &ConstantPool<'_>,
    index: CpIndex,
    found: Option<&Constant<'_>>,
    item: &'static str,
    offset: usize,
    expected: &'static str,
) -> ClassFileError {
    let found = match found {
        Some(c) => c.kind_name(),
        None if index.0 < pool.count() => "unusable",
        None => "out of range",
    };
    ClassFileError::BadConstantReference {
        item,
        offset,
        index: index.0,
        found,
        expected,
    }
}

/// A field or method (`field_info`/`method_info`, JVMS §4.5 and §4.6).
#[derive(Debug, Clone)]
pub struct Member<'a> {
    /// `access_flags`.
    pub access_flags: u16,
    /// `name_index`.
    pub name_index: CpIndex,
    /// The name, raw modified UTF-8.
    pub name: &'a [u8],
    /// `descriptor_index`.
    pub descriptor_index: CpIndex,
    /// The descriptor, raw modified UTF-8.
    pub descriptor: &'a [u8],
    /// The member's attributes.
    pub attributes: Vec<RawAttribute<'a>>,
    /// The whole `field_info`/`method_info` as it appears in the file.
    pub bytes: &'a [u8],
    /// Absolute file offset of `bytes`.
    pub offset: usize,
}

impl<'a> Member<'a> {
    fn parse(r: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Self> {
        let start = r.position();
        let offset = r.offset();
        let access_flags = r.u2("access_flags")?;
        let name_index = CpIndex(r.u2("name_index")?);
        let name = utf8_at(pool, name_index, "name_index", offset + 2)?;
        let descriptor_index = CpIndex(r.u2("descriptor_index")?);
        let descriptor = utf8_at(pool, descriptor_index, "descriptor_index", offset + 4)?;
        let attributes = read_attributes(r, pool)?;
        Ok(Member {
            access_flags,
            name_index,
            name,
            descriptor_index,
            descriptor,
            attributes,
            bytes: &r.data()[start..r.position()],
            offset,
        })
    }

    /// The first attribute with this name.
    pub fn attribute(&self, name: &[u8]) -> Option<&RawAttribute<'a>> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

/// A parsed class file that borrows its input.
///
/// Parsing checks the header, the whole constant pool, and the structure
/// of members and attributes; it does not interpret attribute contents.
/// Those are parsed on demand through [`crate::attributes`].
#[derive(Debug, Clone)]
pub struct ClassFile<'a> {
    /// `minor_version`.
    pub minor_version: u16,
    /// `major_version`.
    pub major_version: u16,
    /// The constant pool.
    pub constant_pool: ConstantPool<'a>,
    /// `access_flags`.
    pub access_flags: u16,
    /// `this_class`.
    pub this_class: CpIndex,
    /// `super_class`: 0 for `java/lang/Object` and `module-info`.
    pub super_class: CpIndex,
    /// `interfaces`.
    pub interfaces: Vec<CpIndex>,
    /// `fields`.
    pub fields: Vec<Member<'a>>,
    /// `methods`.
    pub methods: Vec<Member<'a>>,
    /// The class's attributes.
    pub attributes: Vec<RawAttribute<'a>>,
    bytes: &'a [u8],
    /// Where `access_flags` starts, just after the constant pool.
    pool_end: usize,
}

impl<'a> ClassFile<'a> {
    /// Parses a class file.
    ///
    /// # Errors
    /// Any violation of the structure of JVMS §4.1 that JP can detect
    /// without interpreting attribute contents, and versions outside
    /// 45–69.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut r = Reader::new(bytes, 0);
        let magic = r.u4("magic")?;
        if magic != 0xCAFE_BABE {
            return Err(ClassFileError::BadMagic { found: magic });
        }
        let minor_version = r.u2("minor_version")?;
        let major_version = r.u2("major_version")?;
        if !(MIN_MAJOR_VERSION..=MAX_MAJOR_VERSION).contains(&major_version) {
            return Err(ClassFileError::UnsupportedVersion {
                major: major_version,
                minor: minor_version,
            });
        }
        let constant_pool = ConstantPool::parse(&mut r)?;
        let pool_end = r.position();
        let access_flags = r.u2("access_flags")?;
        let this_offset = r.offset();
        let this_class = CpIndex(r.u2("this_class")?);
        class_at(&constant_pool, this_class, "this_class", this_offset, false)?;
        let super_offset = r.offset();
        let super_class = CpIndex(r.u2("super_class")?);
        class_at(&constant_pool, super_class, "super_class", super_offset, true)?;
        let interface_count = r.count_u2("interfaces_count", 2)?;
        let mut interfaces = Vec::with_capacity(interface_count);
        for _ in 0..interface_count {
            let offset = r.offset();
            let interface = CpIndex(r.u2("interface")?);
            class_at(&constant_pool, interface, "interfaces", offset, false)?;
            interfaces.push(interface);
        }
        let fields = Self::members(&mut r, &constant_pool, "fields_count")?;
        let methods = Self::members(&mut r, &constant_pool, "methods_count")?;
        let attributes = read_attributes(&mut r, &constant_pool)?;
        r.expect_end("the class file")?;
        Ok(ClassFile {
            minor_version,
            major_version,
            constant_pool,
            access_flags,
            this_class,
            super_class,
            interfaces,
            fields,
            methods,
            attributes,
            bytes,
            pool_end,
        })
    }

    fn members(r: &mut Reader<'a>, pool: &ConstantPool<'a>, item: &'static str) -> Result<Vec<Member<'a>>> {
        let count = r.count_u2(item, 8)?;
        let mut members = Vec::with_capacity(count);
        for _ in 0..count {
            members.push(Member::parse(r, pool)?);
        }
        Ok(members)
    }

    /// The bytes this class was parsed from.
    pub fn bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// The internal name of this class (`java/lang/String`), raw.
    pub fn this_class_name(&self) -> &'a [u8] {
        self.constant_pool
            .class_name(self.this_class)
            .expect("checked by parse")
    }

    /// The internal name of the superclass, if there is one.
    pub fn super_class_name(&self) -> Option<&'a [u8]> {
        (!self.super_class.is_none()).then(|| {
            self.constant_pool
                .class_name(self.super_class)
                .expect("checked by parse")
        })
    }

    /// Whether frames (StackMapTable) are part of this version's format.
    pub fn has_frames(&self) -> bool {
        self.major_version >= FIRST_VERSION_WITH_FRAMES
    }

    /// The first class attribute with this name.
    pub fn attribute(&self, name: &[u8]) -> Option<&RawAttribute<'a>> {
        self.attributes.iter().find(|a| a.name == name)
    }

    /// The bytes from `access_flags` through the interfaces, verbatim.
    pub(crate) fn header_after_pool(&self) -> &'a [u8] {
        let len = 6 + 2 + 2 * self.interfaces.len();
        &self.bytes[self.pool_end..self.pool_end + len]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::minimal_class;

    #[test]
    fn parses_a_minimal_class() {
        let bytes = minimal_class(52);
        let class = ClassFile::parse(&bytes).unwrap();
        assert_eq!(class.major_version, 52);
        assert_eq!(class.this_class_name(), b"Hello");
        assert_eq!(class.super_class_name(), Some(&b"java/lang/Object"[..]));
        assert_eq!(class.methods.len(), 1);
        assert_eq!(class.methods[0].name, b"<init>");
        assert_eq!(class.methods[0].attributes[0].name, b"Code");
    }

    #[test]
    fn future_versions_are_refused_with_the_supported_range() {
        let bytes = minimal_class(70);
        let err = ClassFile::parse(&bytes).unwrap_err();
        assert_eq!(
            err.to_string(),
            "unsupported class-file version 70.0; JP supports 45–69"
        );
    }

    #[test]
    fn wrong_magic_is_named() {
        let mut bytes = minimal_class(52);
        bytes[0] = 0xCB;
        let err = ClassFile::parse(&bytes).unwrap_err();
        assert_eq!(err, ClassFileError::BadMagic { found: 0xCBFE_BABE });
    }

    #[test]
    fn every_truncation_is_an_error_not_a_panic() {
        let bytes = minimal_class(52);
        for len in 0..bytes.len() {
            assert!(
                ClassFile::parse(&bytes[..len]).is_err(),
                "prefix of {len} bytes parsed"
            );
        }
    }

    #[test]
    fn trailing_bytes_are_rejected() {
        let mut bytes = minimal_class(52);
        bytes.push(0);
        assert!(matches!(
            ClassFile::parse(&bytes),
            Err(ClassFileError::TrailingBytes { extra: 1, .. })
        ));
    }
}
