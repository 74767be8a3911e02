//! JP's class-file model: lossless, lazy reading and writing of JVM class
//! files, versions 45 through 69 (JDK 1.0.2 to Java 25).
//!
//! [`ClassFile::parse`] checks the header and the whole constant pool and
//! finds the byte range of every member and attribute, without decoding
//! attribute contents. [`ClassWriter`] writes a class back: the original
//! constant pool first (new entries are only appended, so every original
//! index stays valid), then each member and attribute either copied byte
//! for byte or re-encoded from a typed view in [`attributes`]. An untouched
//! class is written back identically.
//!
//! Bytecode, labels and frames are the business of the bytecode crate;
//! this crate only hands out the raw `code` bytes of a [`attributes::Code`].
//!
//! ```
//! # fn demo(bytes: &[u8]) -> jp_classfile::Result<()> {
//! use jp_classfile::{ClassFile, ClassWriter};
//! let class = ClassFile::parse(bytes)?;
//! for method in &class.methods {
//!     println!("{}", jp_classfile::mutf8::to_str_lossy(method.name));
//! }
//! assert_eq!(ClassWriter::new(&class).to_bytes()?, bytes);
//! # Ok(()) }
//! ```
#![deny(missing_docs)]

pub mod access;
pub mod attributes;
mod class_file;
mod constant_pool;
pub mod deep;
mod error;
pub mod mutf8;
mod reader;
mod writer;

#[cfg(test)]
mod testing;

pub use class_file::{
    encode_attribute, read_attributes, write_attributes, ClassFile, Member, RawAttribute,
    FIRST_VERSION_WITH_FRAMES, MAX_MAJOR_VERSION, MIN_MAJOR_VERSION,
};
pub use constant_pool::{tag, Constant, ConstantLookup, ConstantPool, CpIndex};
pub use error::{ClassFileError, Result};
pub use reader::{ByteSink, Reader};
pub use writer::{AttributeOut, ClassWriter, MemberOut, PoolBuilder};
