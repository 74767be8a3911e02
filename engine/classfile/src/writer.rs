//! Writing class files back: the original constant pool is copied as it
//! is and only appended to; members and attributes that were not changed
//! are copied byte for byte.

use std::collections::HashMap;

use foldhash::fast::RandomState;

use crate::class_file::{encode_attribute, ClassFile, Member, RawAttribute};
use crate::constant_pool::{read_entry, tag, Constant, ConstantLookup, ConstantPool, CpIndex};
use crate::error::{ClassFileError, Result};
use crate::reader::{put_count, ByteSink, Reader};

/// The constant pool of a class being written: the original entries,
/// verbatim, followed by appended ones. Adding a constant that already
/// exists returns the existing index.
#[derive(Debug, Clone)]
pub struct PoolBuilder<'a> {
    original: &'a ConstantPool<'a>,
    appended: Vec<u8>,
    /// Offset in `appended` of each appended entry (wide entries once).
    appended_offsets: Vec<(CpIndex, u32)>,
    count: u16,
    /// Original entry → its first index, built on the first lookup. Keyed
    /// by the borrowed entries themselves, so building it allocates nothing
    /// per entry; the hasher is seeded per process, as the keys come from
    /// input files.
    original_index: Option<HashMap<Constant<'a>, CpIndex, RandomState>>,
    /// Encoded appended entry → index.
    appended_index: HashMap<Vec<u8>, CpIndex, RandomState>,
    /// The entry being looked up, encoded: reused, as most lookups find an
    /// entry and need no copy of their own.
    scratch: Vec<u8>,
    /// Class name → its `Class` entry: the frames of every method and the
    /// member references name the same few classes again and again, and
    /// each would otherwise look up both the name and the class.
    class_index: HashMap<Box<[u8]>, CpIndex, RandomState>,
}

impl<'a> PoolBuilder<'a> {
    /// A builder that starts from `original`'s entries.
    pub fn new(original: &'a ConstantPool<'a>) -> Self {
        PoolBuilder {
            original,
            appended: Vec::new(),
            appended_offsets: Vec::new(),
            count: original.count(),
            original_index: None,
            appended_index: HashMap::default(),
            scratch: Vec::new(),
            class_index: HashMap::default(),
        }
    }

    /// `constant_pool_count` so far.
    pub fn count(&self) -> u16 {
        self.count
    }

    /// Whether anything was appended.
    pub fn is_extended(&self) -> bool {
        self.count != self.original.count()
    }

    /// Adds `constant` unless an equal entry exists, returning its index.
    ///
    /// # Errors
    /// [`ClassFileError::ConstantPoolFull`] past 65535 entries, and
    /// [`ClassFileError::TooLarge`] for a string over 65535 bytes.
    pub fn add(&mut self, constant: Constant<'_>) -> Result<CpIndex> {
        if let Constant::Utf8(bytes) = constant {
            if bytes.len() > usize::from(u16::MAX) {
                return Err(ClassFileError::TooLarge {
                    item: "string constant",
                    size: bytes.len(),
                    limit: usize::from(u16::MAX),
                });
            }
        }
        let original = self.original;
        let original_index = self.original_index.get_or_insert_with(|| {
            let mut map =
                HashMap::with_capacity_and_hasher(usize::from(original.count()), RandomState::default());
            for (i, c) in original.iter() {
                if *c != Constant::Unusable {
                    map.entry(*c).or_insert(i);
                }
            }
            map
        });
        // Shared, so that it takes a key of a shorter lifetime than `'a`.
        let original_index: &HashMap<Constant<'_>, CpIndex, RandomState> = original_index;
        if let Some(&existing) = original_index.get(&constant) {
            return Ok(existing);
        }
        self.scratch.clear();
        constant.encode(&mut self.scratch);
        if let Some(&existing) = self.appended_index.get(self.scratch.as_slice()) {
            return Ok(existing);
        }
        self.append_scratch(constant.is_wide())
    }

    /// Adds `constant`, which refers to `parts`, added by the caller since
    /// the pool had `count_before` entries. When one of them is that new, no
    /// entry can refer to it yet: `constant` is appended without a lookup.
    fn add_referring(
        &mut self,
        constant: Constant<'_>,
        parts: &[CpIndex],
        count_before: u16,
    ) -> Result<CpIndex> {
        if !parts.iter().any(|part| part.0 >= count_before) {
            return self.add(constant);
        }
        self.scratch.clear();
        constant.encode(&mut self.scratch);
        self.append_scratch(constant.is_wide())
    }

    /// Appends the entry encoded in `scratch`, of two slots if `wide`.
    fn append_scratch(&mut self, wide: bool) -> Result<CpIndex> {
        if self.appended_index.is_empty() {
            self.reserve_for_appending();
        }
        let slots: u16 = if wide { 2 } else { 1 };
        let new_index = CpIndex(self.count);
        self.count = self
            .count
            .checked_add(slots)
            .ok_or(ClassFileError::ConstantPoolFull)?;
        self.appended_offsets
            .push((new_index, self.appended.len() as u32));
        self.appended.extend_from_slice(&self.scratch);
        self.appended_index.insert(self.scratch.clone(), new_index);
        Ok(new_index)
    }

    /// Room for the entries a rewrite typically appends, taken at the first
    /// append: a profiled class appends about a hundred (the runtime's
    /// references and the class's identifiers), and growing the index to
    /// that size rehashed it six times.
    fn reserve_for_appending(&mut self) {
        const TYPICAL_ENTRIES: usize = 128;
        self.appended_index.reserve(TYPICAL_ENTRIES);
        self.appended_offsets.reserve(TYPICAL_ENTRIES);
        self.appended.reserve(TYPICAL_ENTRIES * 16);
    }

    /// Adds a `Utf8` entry.
    ///
    /// # Errors
    /// As [`PoolBuilder::add`].
    pub fn add_utf8(&mut self, s: &str) -> Result<CpIndex> {
        self.add(Constant::Utf8(&crate::mutf8::from_str(s)))
    }

    /// Adds a `Class` entry (and its name) for an internal name.
    ///
    /// # Errors
    /// As [`PoolBuilder::add`].
    pub fn add_class(&mut self, internal_name: &str) -> Result<CpIndex> {
        self.add_class_raw(&crate::mutf8::from_str(internal_name))
    }

    /// Adds a `Class` entry for a name given as raw modified UTF-8.
    ///
    /// # Errors
    /// As [`PoolBuilder::add`].
    pub fn add_class_raw(&mut self, name: &[u8]) -> Result<CpIndex> {
        if let Some(&index) = self.class_index.get(name) {
            return Ok(index);
        }
        let count_before = self.count;
        let name_index = self.add(Constant::Utf8(name))?;
        let index = self.add_referring(Constant::Class { name: name_index }, &[name_index], count_before)?;
        self.class_index.insert(name.into(), index);
        Ok(index)
    }

    /// Adds a `NameAndType` entry; name and descriptor are raw modified UTF-8.
    ///
    /// # Errors
    /// As [`PoolBuilder::add`].
    pub fn add_name_and_type(&mut self, name: &[u8], descriptor: &[u8]) -> Result<CpIndex> {
        let count_before = self.count;
        let name = self.add(Constant::Utf8(name))?;
        let descriptor = self.add(Constant::Utf8(descriptor))?;
        self.add_referring(
            Constant::NameAndType { name, descriptor },
            &[name, descriptor],
            count_before,
        )
    }

    /// Adds a member reference of kind `tag` (`Fieldref`, `Methodref` or
    /// `InterfaceMethodref`); names are raw modified UTF-8.
    ///
    /// # Errors
    /// As [`PoolBuilder::add`].
    pub fn add_member_ref(
        &mut self,
        kind: u8,
        class: &[u8],
        name: &[u8],
        descriptor: &[u8],
    ) -> Result<CpIndex> {
        let count_before = self.count;
        let class = self.add_class_raw(class)?;
        let name_and_type = self.add_name_and_type(name, descriptor)?;
        let member = match kind {
            tag::FIELDREF => Constant::Fieldref { class, name_and_type },
            tag::METHODREF => Constant::Methodref { class, name_and_type },
            _ => Constant::InterfaceMethodref { class, name_and_type },
        };
        self.add_referring(member, &[class, name_and_type], count_before)
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u2(self.count);
        out.put_bytes(self.original.raw_bytes());
        out.put_bytes(&self.appended);
    }
}

impl ConstantLookup for PoolBuilder<'_> {
    fn constant(&self, index: CpIndex) -> Option<Constant<'_>> {
        if index.0 < self.original.count() {
            return self.original.get(index).copied();
        }
        let position = self
            .appended_offsets
            .binary_search_by_key(&index, |(i, _)| *i)
            .ok()?;
        let offset = self.appended_offsets[position].1 as usize;
        let mut r = Reader::new(&self.appended[offset..], 0);
        read_entry(&mut r, index.0).ok()
    }
}

/// An attribute to be written: copied from the input or built anew.
#[derive(Debug, Clone)]
pub enum AttributeOut<'a> {
    /// Copied byte for byte.
    Verbatim(RawAttribute<'a>),
    /// New `info` bytes under the given name.
    Built {
        /// `attribute_name_index`.
        name_index: CpIndex,
        /// The `info` bytes.
        info: Vec<u8>,
    },
}

impl AttributeOut<'_> {
    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            AttributeOut::Verbatim(raw) => raw.encode(out),
            AttributeOut::Built { name_index, info } => encode_attribute(out, *name_index, info),
        }
    }
}

/// A field or method to be written.
#[derive(Debug, Clone)]
pub enum MemberOut<'a> {
    /// The original `field_info`/`method_info`, copied byte for byte.
    Verbatim(&'a Member<'a>),
    /// A member assembled from parts.
    Built {
        /// `access_flags`.
        access_flags: u16,
        /// `name_index`.
        name_index: CpIndex,
        /// `descriptor_index`.
        descriptor_index: CpIndex,
        /// Its attributes.
        attributes: Vec<AttributeOut<'a>>,
    },
}

impl MemberOut<'_> {
    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            MemberOut::Verbatim(member) => out.put_bytes(member.bytes),
            MemberOut::Built {
                access_flags,
                name_index,
                descriptor_index,
                attributes,
            } => {
                out.put_u2(*access_flags);
                out.put_u2(name_index.0);
                out.put_u2(descriptor_index.0);
                write_attribute_list(out, attributes);
            }
        }
    }
}

fn write_attribute_list(out: &mut Vec<u8>, attributes: &[AttributeOut<'_>]) {
    put_count(out, attributes.len());
    for attribute in attributes {
        attribute.encode(out);
    }
}

/// A class file being written, starting as an exact copy of a parsed one.
///
/// ```
/// # fn demo(bytes: &[u8]) -> jp_classfile::Result<()> {
/// use jp_classfile::{ClassFile, ClassWriter};
/// let class = ClassFile::parse(bytes)?;
/// let written = ClassWriter::new(&class).to_bytes()?;
/// assert_eq!(written, bytes);
/// # Ok(()) }
/// ```
#[derive(Debug, Clone)]
pub struct ClassWriter<'a> {
    class: &'a ClassFile<'a>,
    /// The constant pool, original entries first.
    pub constant_pool: PoolBuilder<'a>,
    /// `access_flags`; changing it or the fields below re-encodes the header.
    pub access_flags: u16,
    /// `interfaces`.
    pub interfaces: Vec<CpIndex>,
    /// The fields to write.
    pub fields: Vec<MemberOut<'a>>,
    /// The methods to write.
    pub methods: Vec<MemberOut<'a>>,
    /// The class attributes to write.
    pub attributes: Vec<AttributeOut<'a>>,
}

impl<'a> ClassWriter<'a> {
    /// A writer whose output, unchanged, equals `class`'s input bytes.
    pub fn new(class: &'a ClassFile<'a>) -> Self {
        ClassWriter {
            class,
            constant_pool: PoolBuilder::new(&class.constant_pool),
            access_flags: class.access_flags,
            interfaces: class.interfaces.clone(),
            fields: class.fields.iter().map(MemberOut::Verbatim).collect(),
            methods: class.methods.iter().map(MemberOut::Verbatim).collect(),
            attributes: class
                .attributes
                .iter()
                .map(|a| AttributeOut::Verbatim(*a))
                .collect(),
        }
    }

    /// Encodes the class file.
    ///
    /// # Errors
    /// [`ClassFileError::TooLarge`] when a table passes the format's u2 limit.
    pub fn to_bytes(&self) -> Result<Vec<u8>> {
        for (item, len) in [
            ("interfaces", self.interfaces.len()),
            ("fields", self.fields.len()),
            ("methods", self.methods.len()),
            ("attributes", self.attributes.len()),
        ] {
            if len > usize::from(u16::MAX) {
                return Err(ClassFileError::TooLarge {
                    item,
                    size: len,
                    limit: usize::from(u16::MAX),
                });
            }
        }
        let class = self.class;
        let mut out = Vec::with_capacity(class.bytes().len() + self.constant_pool.appended.len() + 256);
        out.put_u4(0xCAFE_BABE);
        out.put_u2(class.minor_version);
        out.put_u2(class.major_version);
        self.constant_pool.encode(&mut out);
        if self.access_flags == class.access_flags && self.interfaces == class.interfaces {
            out.put_bytes(class.header_after_pool());
        } else {
            out.put_u2(self.access_flags);
            out.put_u2(class.this_class.0);
            out.put_u2(class.super_class.0);
            put_count(&mut out, self.interfaces.len());
            for interface in &self.interfaces {
                out.put_u2(interface.0);
            }
        }
        for members in [&self.fields, &self.methods] {
            put_count(&mut out, members.len());
            for member in members {
                member.encode(&mut out);
            }
        }
        write_attribute_list(&mut out, &self.attributes);
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::minimal_class;

    #[test]
    fn untouched_class_is_written_back_identically() {
        let bytes = minimal_class(52);
        let class = ClassFile::parse(&bytes).unwrap();
        assert_eq!(ClassWriter::new(&class).to_bytes().unwrap(), bytes);
    }

    #[test]
    fn existing_constants_are_reused_and_new_ones_appended() {
        let bytes = minimal_class(52);
        let class = ClassFile::parse(&bytes).unwrap();
        let mut writer = ClassWriter::new(&class);
        assert_eq!(writer.constant_pool.add_utf8("Code").unwrap(), CpIndex(9));
        assert_eq!(
            writer.constant_pool.add_class("java/lang/Object").unwrap(),
            CpIndex(4)
        );
        let added = writer.constant_pool.add_utf8("Marker").unwrap();
        assert_eq!(added, CpIndex(12));
        assert_eq!(writer.constant_pool.add_utf8("Marker").unwrap(), added);
        let long = writer.constant_pool.add(Constant::Long(7)).unwrap();
        assert_eq!(long, CpIndex(13));
        assert_eq!(writer.constant_pool.add_utf8("after").unwrap(), CpIndex(15));
        assert_eq!(writer.constant_pool.constant(long), Some(Constant::Long(7)));
        assert_eq!(writer.constant_pool.utf8_bytes(added).unwrap(), b"Marker");
        assert_eq!(
            writer.constant_pool.class_name_bytes(CpIndex(4)).unwrap(),
            b"java/lang/Object"
        );

        let name_index = writer.constant_pool.add_utf8("Synthetic").unwrap();
        writer.attributes.push(AttributeOut::Built {
            name_index,
            info: Vec::new(),
        });
        let written = writer.to_bytes().unwrap();
        let reparsed = ClassFile::parse(&written).unwrap();
        assert_eq!(reparsed.constant_pool.count(), 17);
        assert_eq!(reparsed.constant_pool.utf8(CpIndex(12)).unwrap(), b"Marker");
        assert_eq!(reparsed.attributes[0].name, b"Synthetic");
        assert_eq!(reparsed.methods[0].bytes, class.methods[0].bytes);
    }

    #[test]
    fn a_member_reference_is_appended_once_and_found_again_by_its_parts() {
        let bytes = minimal_class(52);
        let class = ClassFile::parse(&bytes).unwrap();
        let mut pool = PoolBuilder::new(&class.constant_pool);
        let count = pool.count();
        let member = pool
            .add_member_ref(tag::METHODREF, b"a/Runtime", b"enter", b"(J)V")
            .unwrap();
        // Class, its name, the name, the descriptor, the NameAndType and the reference.
        assert_eq!(pool.count(), count + 6);
        assert_eq!(
            pool.add_member_ref(tag::METHODREF, b"a/Runtime", b"enter", b"(J)V")
                .unwrap(),
            member
        );
        let name_and_type = pool.add_name_and_type(b"enter", b"(J)V").unwrap();
        let class = pool.add_class("a/Runtime").unwrap();
        assert_eq!(
            pool.add(Constant::Methodref { class, name_and_type }).unwrap(),
            member
        );
        assert_eq!(pool.count(), count + 6);
        assert_eq!(
            pool.member_ref(member).unwrap(),
            (&b"a/Runtime"[..], &b"enter"[..], &b"(J)V"[..])
        );
    }

    #[test]
    fn the_pool_refuses_its_65536th_entry() {
        let bytes = minimal_class(52);
        let class = ClassFile::parse(&bytes).unwrap();
        let mut pool = PoolBuilder::new(&class.constant_pool);
        let mut result = Ok(CpIndex(0));
        for i in 0..70_000u32 {
            result = pool.add(Constant::Integer(i as i32));
            if result.is_err() {
                break;
            }
        }
        assert_eq!(result, Err(ClassFileError::ConstantPoolFull));
        assert_eq!(pool.count(), u16::MAX);
    }
}
