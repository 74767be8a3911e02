//! The constant pool (JVMS §4.4): parsed once, eagerly, into typed entries
//! that borrow the input; checked so that every reference between entries
//! points at an entry of the right kind.

use std::fmt;

use crate::error::{ClassFileError, Result};
use crate::mutf8;
use crate::reader::Reader;

/// An index into the constant pool. Index 0 is never a valid entry; where
/// the format allows "none" (a class with no superclass), it is 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct CpIndex(pub u16);

impl CpIndex {
    /// Whether this is the "no entry" index 0.
    pub fn is_none(self) -> bool {
        self.0 == 0
    }
}

impl fmt::Display for CpIndex {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "#{}", self.0)
    }
}

/// Constant-pool tags, JVMS Table 4.4-B.
#[allow(missing_docs)]
pub mod tag {
    pub const UTF8: u8 = 1;
    pub const INTEGER: u8 = 3;
    pub const FLOAT: u8 = 4;
    pub const LONG: u8 = 5;
    pub const DOUBLE: u8 = 6;
    pub const CLASS: u8 = 7;
    pub const STRING: u8 = 8;
    pub const FIELDREF: u8 = 9;
    pub const METHODREF: u8 = 10;
    pub const INTERFACE_METHODREF: u8 = 11;
    pub const NAME_AND_TYPE: u8 = 12;
    pub const METHOD_HANDLE: u8 = 15;
    pub const METHOD_TYPE: u8 = 16;
    pub const DYNAMIC: u8 = 17;
    pub const INVOKE_DYNAMIC: u8 = 18;
    pub const MODULE: u8 = 19;
    pub const PACKAGE: u8 = 20;
}

/// One constant-pool entry. Strings stay as their raw modified UTF-8 bytes;
/// floating-point values stay as their bits, so NaN payloads survive.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[allow(missing_docs)]
pub enum Constant<'a> {
    Utf8(&'a [u8]),
    Integer(i32),
    Float(u32),
    Long(i64),
    Double(u64),
    Class {
        name: CpIndex,
    },
    String {
        string: CpIndex,
    },
    Fieldref {
        class: CpIndex,
        name_and_type: CpIndex,
    },
    Methodref {
        class: CpIndex,
        name_and_type: CpIndex,
    },
    InterfaceMethodref {
        class: CpIndex,
        name_and_type: CpIndex,
    },
    NameAndType {
        name: CpIndex,
        descriptor: CpIndex,
    },
    MethodHandle {
        reference_kind: u8,
        reference: CpIndex,
    },
    MethodType {
        descriptor: CpIndex,
    },
    Dynamic {
        bootstrap_method_attr_index: u16,
        name_and_type: CpIndex,
    },
    InvokeDynamic {
        bootstrap_method_attr_index: u16,
        name_and_type: CpIndex,
    },
    Module {
        name: CpIndex,
    },
    Package {
        name: CpIndex,
    },
    /// Index 0, and the slot after a `Long` or `Double` (JVMS §4.4.5).
    Unusable,
}

impl Constant<'_> {
    /// The JVMS tag of this entry, 0 for [`Constant::Unusable`].
    pub fn tag(&self) -> u8 {
        match self {
            Constant::Utf8(_) => tag::UTF8,
            Constant::Integer(_) => tag::INTEGER,
            Constant::Float(_) => tag::FLOAT,
            Constant::Long(_) => tag::LONG,
            Constant::Double(_) => tag::DOUBLE,
            Constant::Class { .. } => tag::CLASS,
            Constant::String { .. } => tag::STRING,
            Constant::Fieldref { .. } => tag::FIELDREF,
            Constant::Methodref { .. } => tag::METHODREF,
            Constant::InterfaceMethodref { .. } => tag::INTERFACE_METHODREF,
            Constant::NameAndType { .. } => tag::NAME_AND_TYPE,
            Constant::MethodHandle { .. } => tag::METHOD_HANDLE,
            Constant::MethodType { .. } => tag::METHOD_TYPE,
            Constant::Dynamic { .. } => tag::DYNAMIC,
            Constant::InvokeDynamic { .. } => tag::INVOKE_DYNAMIC,
            Constant::Module { .. } => tag::MODULE,
            Constant::Package { .. } => tag::PACKAGE,
            Constant::Unusable => 0,
        }
    }

    /// The JVMS name of this kind of entry, as `javap -v` prints it.
    pub fn kind_name(&self) -> &'static str {
        match self {
            Constant::Utf8(_) => "Utf8",
            Constant::Integer(_) => "Integer",
            Constant::Float(_) => "Float",
            Constant::Long(_) => "Long",
            Constant::Double(_) => "Double",
            Constant::Class { .. } => "Class",
            Constant::String { .. } => "String",
            Constant::Fieldref { .. } => "Fieldref",
            Constant::Methodref { .. } => "Methodref",
            Constant::InterfaceMethodref { .. } => "InterfaceMethodref",
            Constant::NameAndType { .. } => "NameAndType",
            Constant::MethodHandle { .. } => "MethodHandle",
            Constant::MethodType { .. } => "MethodType",
            Constant::Dynamic { .. } => "Dynamic",
            Constant::InvokeDynamic { .. } => "InvokeDynamic",
            Constant::Module { .. } => "Module",
            Constant::Package { .. } => "Package",
            Constant::Unusable => "unusable",
        }
    }

    /// Whether the entry takes two slots (JVMS §4.4.5).
    pub fn is_wide(&self) -> bool {
        matches!(self, Constant::Long(_) | Constant::Double(_))
    }

    /// Appends the entry's `cp_info` encoding (nothing for `Unusable`).
    pub fn encode(&self, out: &mut Vec<u8>) {
        use crate::reader::ByteSink;
        if matches!(self, Constant::Unusable) {
            return;
        }
        out.put_u1(self.tag());
        match *self {
            Constant::Utf8(bytes) => {
                crate::reader::put_count(out, bytes.len());
                out.put_bytes(bytes);
            }
            Constant::Integer(v) => out.put_u4(v as u32),
            Constant::Float(bits) => out.put_u4(bits),
            Constant::Long(v) => out.put_bytes(&v.to_be_bytes()),
            Constant::Double(bits) => out.put_bytes(&bits.to_be_bytes()),
            Constant::Class { name: i }
            | Constant::String { string: i }
            | Constant::MethodType { descriptor: i }
            | Constant::Module { name: i }
            | Constant::Package { name: i } => out.put_u2(i.0),
            Constant::Fieldref { class, name_and_type }
            | Constant::Methodref { class, name_and_type }
            | Constant::InterfaceMethodref { class, name_and_type } => {
                out.put_u2(class.0);
                out.put_u2(name_and_type.0);
            }
            Constant::NameAndType { name, descriptor } => {
                out.put_u2(name.0);
                out.put_u2(descriptor.0);
            }
            Constant::MethodHandle {
                reference_kind,
                reference,
            } => {
                out.put_u1(reference_kind);
                out.put_u2(reference.0);
            }
            Constant::Dynamic {
                bootstrap_method_attr_index,
                name_and_type,
            }
            | Constant::InvokeDynamic {
                bootstrap_method_attr_index,
                name_and_type,
            } => {
                out.put_u2(bootstrap_method_attr_index);
                out.put_u2(name_and_type.0);
            }
            Constant::Unusable => unreachable!("handled above"),
        }
    }
}

/// Read access to constants by index, shared by the parsed pool and the
/// pool of a class being written (whose appended entries are new).
pub trait ConstantLookup {
    /// The usable entry at `index`.
    fn constant(&self, index: CpIndex) -> Option<Constant<'_>>;

    /// The bytes of the `Utf8` entry at `index`.
    ///
    /// # Errors
    /// When `index` is not a `Utf8` entry.
    fn utf8_bytes(&self, index: CpIndex) -> Result<&[u8]> {
        match self.constant(index) {
            Some(Constant::Utf8(bytes)) => Ok(bytes),
            other => Err(wrong_kind(index, other.as_ref(), "Utf8")),
        }
    }

    /// The name of the `Class` entry at `index`.
    ///
    /// # Errors
    /// When `index` is not a `Class` entry.
    fn class_name_bytes(&self, index: CpIndex) -> Result<&[u8]> {
        match self.constant(index) {
            Some(Constant::Class { name }) => self.utf8_bytes(name),
            other => Err(wrong_kind(index, other.as_ref(), "Class")),
        }
    }

    /// The name and descriptor of the `NameAndType` entry at `index`.
    ///
    /// # Errors
    /// When `index` is not a `NameAndType` entry.
    fn name_and_type(&self, index: CpIndex) -> Result<(&[u8], &[u8])> {
        match self.constant(index) {
            Some(Constant::NameAndType { name, descriptor }) => {
                Ok((self.utf8_bytes(name)?, self.utf8_bytes(descriptor)?))
            }
            other => Err(wrong_kind(index, other.as_ref(), "NameAndType")),
        }
    }

    /// Class, name and descriptor of a `Fieldref`, `Methodref` or
    /// `InterfaceMethodref` (or the name and descriptor of an
    /// `InvokeDynamic`/`Dynamic`, with an empty class).
    ///
    /// # Errors
    /// When `index` is none of those.
    fn member_ref(&self, index: CpIndex) -> Result<(&[u8], &[u8], &[u8])> {
        match self.constant(index) {
            Some(
                Constant::Fieldref { class, name_and_type }
                | Constant::Methodref { class, name_and_type }
                | Constant::InterfaceMethodref { class, name_and_type },
            ) => {
                let (name, descriptor) = self.name_and_type(name_and_type)?;
                Ok((self.class_name_bytes(class)?, name, descriptor))
            }
            Some(Constant::InvokeDynamic { name_and_type, .. } | Constant::Dynamic { name_and_type, .. }) => {
                let (name, descriptor) = self.name_and_type(name_and_type)?;
                Ok((&[], name, descriptor))
            }
            other => Err(wrong_kind(index, other.as_ref(), "a member reference")),
        }
    }
}

impl ConstantLookup for ConstantPool<'_> {
    fn constant(&self, index: CpIndex) -> Option<Constant<'_>> {
        self.get(index).copied()
    }
}

/// The parsed constant pool of one class file.
#[derive(Debug, Clone)]
pub struct ConstantPool<'a> {
    entries: Vec<Constant<'a>>,
    /// The pool's bytes as they appear in the file, after `constant_pool_count`.
    raw: &'a [u8],
}

impl<'a> ConstantPool<'a> {
    /// Reads `constant_pool_count` and the entries that follow, then checks
    /// the references between entries.
    ///
    /// # Errors
    /// Truncation, unknown tags, and references that are out of range or
    /// point at the wrong kind of entry.
    pub fn parse(r: &mut Reader<'a>) -> Result<Self> {
        let count_offset = r.offset();
        let count = r.u2("constant_pool_count")?;
        if count == 0 {
            return Err(ClassFileError::InvalidValue {
                item: "constant_pool_count",
                value: 0,
                offset: count_offset,
            });
        }
        // Every entry takes at least 3 bytes.
        if usize::from(count - 1) * 3 > r.remaining() {
            return Err(ClassFileError::ImpossibleCount {
                item: "constant-pool entries",
                count: usize::from(count - 1),
                offset: count_offset,
                remaining: r.remaining(),
            });
        }
        let start = r.position();
        let mut entries = Vec::with_capacity(usize::from(count));
        entries.push(Constant::Unusable);
        while entries.len() < usize::from(count) {
            let index = entries.len() as u16;
            let entry = read_entry(r, index)?;
            entries.push(entry);
            if entry.is_wide() {
                if entries.len() == usize::from(count) {
                    return Err(ClassFileError::WideConstantAtEnd { index });
                }
                entries.push(Constant::Unusable);
            }
        }
        let raw = &r.data()[start..r.position()];
        let pool = ConstantPool { entries, raw };
        pool.check_references(count_offset + 2)?;
        Ok(pool)
    }

    /// `constant_pool_count`: one more than the highest index.
    pub fn count(&self) -> u16 {
        self.entries.len() as u16
    }

    /// The entries as they appear in the file, encoded, without the count.
    pub fn raw_bytes(&self) -> &'a [u8] {
        self.raw
    }

    /// Every entry, with its index; the unusable slots are included.
    pub fn iter(&self) -> impl Iterator<Item = (CpIndex, &Constant<'a>)> {
        self.entries
            .iter()
            .enumerate()
            .map(|(i, c)| (CpIndex(i as u16), c))
    }

    /// The entry at `index`, if it is a usable one.
    pub fn get(&self, index: CpIndex) -> Option<&Constant<'a>> {
        match self.entries.get(usize::from(index.0)) {
            Some(Constant::Unusable) | None => None,
            Some(c) => Some(c),
        }
    }

    /// The entry at `index`, or an error naming `item` and its file `offset`.
    ///
    /// # Errors
    /// [`ClassFileError::BadConstantReference`] for an out-of-range or unusable index.
    pub fn entry(&self, index: CpIndex, item: &'static str, offset: usize) -> Result<&Constant<'a>> {
        self.get(index)
            .ok_or_else(|| ClassFileError::BadConstantReference {
                item,
                offset,
                index: index.0,
                found: if usize::from(index.0) < self.entries.len() {
                    "unusable"
                } else {
                    "out of range"
                },
                expected: "a constant",
            })
    }

    /// The raw bytes of the `Utf8` entry at `index`.
    ///
    /// # Errors
    /// When `index` is not a `Utf8` entry.
    pub fn utf8(&self, index: CpIndex) -> Result<&'a [u8]> {
        match self.get(index) {
            Some(Constant::Utf8(bytes)) => Ok(bytes),
            other => Err(wrong_kind(index, other, "Utf8")),
        }
    }

    /// The `Utf8` entry at `index` decoded for display (lossy).
    pub fn utf8_lossy(&self, index: CpIndex) -> std::borrow::Cow<'a, str> {
        match self.get(index) {
            Some(Constant::Utf8(bytes)) => mutf8::to_str_lossy(bytes),
            _ => std::borrow::Cow::Owned(format!("<invalid {index}>")),
        }
    }

    /// The raw internal name of the `Class` entry at `index`.
    ///
    /// # Errors
    /// When `index` is not a `Class` entry.
    pub fn class_name(&self, index: CpIndex) -> Result<&'a [u8]> {
        match self.get(index) {
            Some(Constant::Class { name }) => self.utf8(*name),
            other => Err(wrong_kind(index, other, "Class")),
        }
    }

    /// Index of the first `Utf8` entry whose bytes equal `bytes`.
    pub fn find_utf8(&self, bytes: &[u8]) -> Option<CpIndex> {
        self.iter()
            .find(|(_, c)| matches!(c, Constant::Utf8(b) if *b == bytes))
            .map(|(i, _)| i)
    }

    /// Checks every reference between entries (JVMS §4.4: each must point
    /// at an entry of the stated kind).
    fn check_references(&self, pool_offset: usize) -> Result<()> {
        use Constant as C;
        let utf8 = |c: &Constant| matches!(c, C::Utf8(_));
        let class = |c: &Constant| matches!(c, C::Class { .. });
        let nat = |c: &Constant| matches!(c, C::NameAndType { .. });
        for (from, entry) in self.iter() {
            let expect = |index: CpIndex, ok: fn(&Constant) -> bool, expected| match self.get(index) {
                Some(c) if ok(c) => Ok(()),
                found => Err(ClassFileError::BadPoolReference {
                    from: from.0,
                    index: index.0,
                    found: match found {
                        Some(c) => c.kind_name(),
                        None if index.0 < self.count() => "unusable",
                        None => "out of range",
                    },
                    expected,
                }),
            };
            match *entry {
                C::Class { name: i }
                | C::Module { name: i }
                | C::Package { name: i }
                | C::String { string: i }
                | C::MethodType { descriptor: i } => expect(i, utf8, "Utf8")?,
                C::NameAndType { name, descriptor } => {
                    expect(name, utf8, "Utf8")?;
                    expect(descriptor, utf8, "Utf8")?;
                }
                C::Fieldref {
                    class: c,
                    name_and_type,
                }
                | C::Methodref {
                    class: c,
                    name_and_type,
                }
                | C::InterfaceMethodref {
                    class: c,
                    name_and_type,
                } => {
                    expect(c, class, "Class")?;
                    expect(name_and_type, nat, "NameAndType")?;
                }
                C::Dynamic { name_and_type, .. } | C::InvokeDynamic { name_and_type, .. } => {
                    expect(name_and_type, nat, "NameAndType")?
                }
                C::MethodHandle {
                    reference_kind,
                    reference,
                } => {
                    let (ok, expected): (fn(&Constant) -> bool, _) = match reference_kind {
                        1..=4 => (|c| matches!(c, C::Fieldref { .. }), "Fieldref"),
                        5 | 8 => (|c| matches!(c, C::Methodref { .. }), "Methodref"),
                        6 | 7 => (
                            |c| matches!(c, C::Methodref { .. } | C::InterfaceMethodref { .. }),
                            "Methodref or InterfaceMethodref",
                        ),
                        9 => (
                            |c| matches!(c, C::InterfaceMethodref { .. }),
                            "InterfaceMethodref",
                        ),
                        _ => {
                            return Err(ClassFileError::InvalidValue {
                                item: "MethodHandle reference_kind",
                                value: u32::from(reference_kind),
                                offset: pool_offset,
                            })
                        }
                    };
                    expect(reference, ok, expected)?;
                }
                _ => {}
            }
        }
        Ok(())
    }
}

#[cold]
fn wrong_kind(index: CpIndex, found: Option<&Constant>, expected: &'static str) -> ClassFileError {
    ClassFileError::WrongConstant {
        index: index.0,
        found: found.map_or("out of range or unusable", Constant::kind_name),
        expected,
    }
}

pub(crate) fn read_entry<'a>(r: &mut Reader<'a>, index: u16) -> Result<Constant<'a>> {
    let offset = r.offset();
    let tag = r.u1("constant tag")?;
    let idx = |r: &mut Reader<'a>| r.u2("constant-pool index").map(CpIndex);
    Ok(match tag {
        tag::UTF8 => {
            let len = r.u2("Utf8 length")?;
            let bytes = r.bytes(usize::from(len), "Utf8 bytes")?;
            mutf8::validate(bytes).map_err(|e| ClassFileError::MalformedUtf8 {
                index,
                position: e.position(),
            })?;
            Constant::Utf8(bytes)
        }
        tag::INTEGER => Constant::Integer(r.u4("Integer")? as i32),
        tag::FLOAT => Constant::Float(r.u4("Float")?),
        tag::LONG => Constant::Long(r.u8("Long")? as i64),
        tag::DOUBLE => Constant::Double(r.u8("Double")?),
        tag::CLASS => Constant::Class { name: idx(r)? },
        tag::STRING => Constant::String { string: idx(r)? },
        tag::FIELDREF => Constant::Fieldref {
            class: idx(r)?,
            name_and_type: idx(r)?,
        },
        tag::METHODREF => Constant::Methodref {
            class: idx(r)?,
            name_and_type: idx(r)?,
        },
        tag::INTERFACE_METHODREF => Constant::InterfaceMethodref {
            class: idx(r)?,
            name_and_type: idx(r)?,
        },
        tag::NAME_AND_TYPE => Constant::NameAndType {
            name: idx(r)?,
            descriptor: idx(r)?,
        },
        tag::METHOD_HANDLE => Constant::MethodHandle {
            reference_kind: r.u1("MethodHandle reference_kind")?,
            reference: idx(r)?,
        },
        tag::METHOD_TYPE => Constant::MethodType { descriptor: idx(r)? },
        tag::DYNAMIC => Constant::Dynamic {
            bootstrap_method_attr_index: r.u2("bootstrap_method_attr_index")?,
            name_and_type: idx(r)?,
        },
        tag::INVOKE_DYNAMIC => Constant::InvokeDynamic {
            bootstrap_method_attr_index: r.u2("bootstrap_method_attr_index")?,
            name_and_type: idx(r)?,
        },
        tag::MODULE => Constant::Module { name: idx(r)? },
        tag::PACKAGE => Constant::Package { name: idx(r)? },
        _ => return Err(ClassFileError::UnknownConstantTag { index, tag, offset }),
    })
}
