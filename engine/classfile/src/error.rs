//! The one error type of this crate.
//!
//! Every variant carries the absolute file offset (printed in hex) of the
//! byte where the problem was found, so a report can be checked with a hex
//! dump of the input.

/// What went wrong while reading or writing a class file.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum ClassFileError {
    /// The input ends before an item that must be there.
    #[error("truncated {item} at offset {offset:#x} (short by {needed} bytes)")]
    Truncated {
        /// What was being read.
        item: &'static str,
        /// Where it starts.
        offset: usize,
        /// How many bytes are missing.
        needed: usize,
    },
    /// The first four bytes are not `0xCAFEBABE`.
    #[error("not a class file: magic is {found:#010x}, expected 0xcafebabe")]
    BadMagic {
        /// The four bytes found.
        found: u32,
    },
    /// The major version is outside what JP reads.
    #[error(
        "unsupported class-file version {major}.{minor}; JP supports {}–{}",
        crate::MIN_MAJOR_VERSION,
        crate::MAX_MAJOR_VERSION
    )]
    UnsupportedVersion {
        /// Major version found.
        major: u16,
        /// Minor version found.
        minor: u16,
    },
    /// A constant-pool entry has a tag that JVMS §4.4 does not define.
    #[error("constant #{index} has unknown tag {tag} at offset {offset:#x}")]
    UnknownConstantTag {
        /// Index of the entry.
        index: u16,
        /// The tag byte.
        tag: u8,
        /// Offset of the tag byte.
        offset: usize,
    },
    /// An index into the constant pool is out of range, points at the
    /// second slot of a `long`/`double`, or at an entry of the wrong kind.
    #[error(
        "{item} at offset {offset:#x} refers to constant #{index}, which is {found}; expected {expected}"
    )]
    BadConstantReference {
        /// What holds the reference.
        item: &'static str,
        /// Offset of the reference.
        offset: usize,
        /// The index found.
        index: u16,
        /// What the entry is (or "out of range").
        found: &'static str,
        /// What the entry should have been.
        expected: &'static str,
    },
    /// A constant-pool entry refers to an entry of the wrong kind, or to
    /// an index that is out of range or unusable.
    #[error("constant #{from} refers to #{index}, which is {found}; expected {expected}")]
    BadPoolReference {
        /// The referring entry.
        from: u16,
        /// The index it holds.
        index: u16,
        /// What is there.
        found: &'static str,
        /// What should be there.
        expected: &'static str,
    },
    /// A constant looked up by index is not of the kind needed.
    #[error("constant #{index} is {found}; expected {expected}")]
    WrongConstant {
        /// The index looked up.
        index: u16,
        /// What is there.
        found: &'static str,
        /// What should be there.
        expected: &'static str,
    },
    /// A count claims more items than the remaining bytes could hold.
    #[error("{count} {item} at offset {offset:#x} cannot fit in the {remaining} bytes that remain")]
    ImpossibleCount {
        /// What is being counted.
        item: &'static str,
        /// The count found.
        count: usize,
        /// Offset of the count.
        offset: usize,
        /// Bytes left in the enclosing structure.
        remaining: usize,
    },
    /// A structure is followed by bytes it does not account for.
    #[error("{extra} unexpected bytes after {item} at offset {offset:#x}")]
    TrailingBytes {
        /// The structure that should have ended.
        item: &'static str,
        /// Offset of the first extra byte.
        offset: usize,
        /// How many bytes are left over.
        extra: usize,
    },
    /// A field has a value the specification does not allow.
    #[error("invalid {item} {value} at offset {offset:#x}")]
    InvalidValue {
        /// What was read.
        item: &'static str,
        /// The value found.
        value: u32,
        /// Where it was.
        offset: usize,
    },
    /// A `CONSTANT_Utf8` entry is not well-formed modified UTF-8 (JVMS §4.4.7).
    #[error("constant #{index} is not valid modified UTF-8 (at byte {position} of the string)")]
    MalformedUtf8 {
        /// The entry.
        index: u16,
        /// Byte position inside the string.
        position: usize,
    },
    /// A `long` or `double` in the last slot of the pool, with no room for
    /// the slot it needs after it (JVMS §4.4.5).
    #[error("constant #{index} is a long or double in the last slot of the pool, which has no room for its second slot")]
    WideConstantAtEnd {
        /// The entry.
        index: u16,
    },
    /// An error inside a named attribute.
    #[error("in attribute {name} at offset {offset:#x}")]
    InAttribute {
        /// The attribute's name.
        name: String,
        /// Offset of its `info`.
        offset: usize,
        /// What went wrong inside it.
        #[source]
        source: Box<ClassFileError>,
    },
    /// Appending to the constant pool would pass its 65535-entry limit.
    #[error("the constant pool is full (65535 entries)")]
    ConstantPoolFull,
    /// A structure to be written exceeds a size limit of the format.
    #[error("{item} is too large for the class-file format ({size}, limit {limit})")]
    TooLarge {
        /// What was too large.
        item: &'static str,
        /// Its size.
        size: usize,
        /// The format's limit.
        limit: usize,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = ClassFileError> = std::result::Result<T, E>;
