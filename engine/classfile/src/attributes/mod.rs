//! Typed views of the attributes JP needs (JVMS §4.7).
//!
//! Each attribute type implements [`AttributeInfo`]: `parse` reads exactly
//! the attribute's `info` bytes and `encode` writes them back, so that
//! `encode(parse(info)) == info` for every well-formed attribute. The
//! attributes JP does not interpret stay [`RawAttribute`]s and are copied.

use crate::class_file::RawAttribute;
use crate::constant_pool::ConstantPool;
use crate::error::Result;
use crate::reader::Reader;

/// An attribute whose `info` is one constant-pool index.
macro_rules! index_attribute {
    ($(#[$doc:meta])* $name:ident { $(#[$field_doc:meta])* $field:ident }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name {
            $(#[$field_doc])*
            pub $field: $crate::CpIndex,
        }

        impl<'a> $crate::attributes::AttributeInfo<'a> for $name {
            fn parse(r: &mut $crate::Reader<'a>, _: &$crate::ConstantPool<'a>) -> $crate::Result<Self> {
                Ok($name { $field: $crate::CpIndex(r.u2(stringify!($field))?) })
            }

            fn encode(&self, out: &mut Vec<u8>) {
                $crate::ByteSink::put_u2(out, self.$field.0);
            }
        }
    };
}

/// An attribute whose `info` is a `u2` count and that many constant-pool
/// indices.
macro_rules! index_list_attribute {
    ($(#[$doc:meta])* $name:ident { $(#[$field_doc:meta])* $field:ident counted by $count:literal }) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name {
            $(#[$field_doc])*
            pub $field: Vec<$crate::CpIndex>,
        }

        impl<'a> $crate::attributes::AttributeInfo<'a> for $name {
            fn parse(r: &mut $crate::Reader<'a>, _: &$crate::ConstantPool<'a>) -> $crate::Result<Self> {
                Ok($name { $field: $crate::attributes::member_attrs::read_index_list(r, $count)? })
            }

            fn encode(&self, out: &mut Vec<u8>) {
                $crate::attributes::member_attrs::write_index_list(out, &self.$field);
            }
        }
    };
}

mod annotations;
mod class_attrs;
mod code;
mod debug;
mod member_attrs;
mod module;
mod stack_map;

pub use annotations::*;
pub use class_attrs::*;
pub use code::*;
pub use debug::*;
pub use member_attrs::*;
pub use module::*;
pub use stack_map::*;

/// Attribute names, in the order of JVMS Table 4.7-A.
#[allow(missing_docs)]
pub mod names {
    pub const CONSTANT_VALUE: &[u8] = b"ConstantValue";
    pub const CODE: &[u8] = b"Code";
    pub const STACK_MAP_TABLE: &[u8] = b"StackMapTable";
    pub const EXCEPTIONS: &[u8] = b"Exceptions";
    pub const INNER_CLASSES: &[u8] = b"InnerClasses";
    pub const ENCLOSING_METHOD: &[u8] = b"EnclosingMethod";
    pub const SYNTHETIC: &[u8] = b"Synthetic";
    pub const SIGNATURE: &[u8] = b"Signature";
    pub const SOURCE_FILE: &[u8] = b"SourceFile";
    pub const SOURCE_DEBUG_EXTENSION: &[u8] = b"SourceDebugExtension";
    pub const LINE_NUMBER_TABLE: &[u8] = b"LineNumberTable";
    pub const LOCAL_VARIABLE_TABLE: &[u8] = b"LocalVariableTable";
    pub const LOCAL_VARIABLE_TYPE_TABLE: &[u8] = b"LocalVariableTypeTable";
    pub const DEPRECATED: &[u8] = b"Deprecated";
    pub const RUNTIME_VISIBLE_ANNOTATIONS: &[u8] = b"RuntimeVisibleAnnotations";
    pub const RUNTIME_INVISIBLE_ANNOTATIONS: &[u8] = b"RuntimeInvisibleAnnotations";
    pub const RUNTIME_VISIBLE_PARAMETER_ANNOTATIONS: &[u8] = b"RuntimeVisibleParameterAnnotations";
    pub const RUNTIME_INVISIBLE_PARAMETER_ANNOTATIONS: &[u8] = b"RuntimeInvisibleParameterAnnotations";
    pub const RUNTIME_VISIBLE_TYPE_ANNOTATIONS: &[u8] = b"RuntimeVisibleTypeAnnotations";
    pub const RUNTIME_INVISIBLE_TYPE_ANNOTATIONS: &[u8] = b"RuntimeInvisibleTypeAnnotations";
    pub const ANNOTATION_DEFAULT: &[u8] = b"AnnotationDefault";
    pub const BOOTSTRAP_METHODS: &[u8] = b"BootstrapMethods";
    pub const METHOD_PARAMETERS: &[u8] = b"MethodParameters";
    pub const MODULE: &[u8] = b"Module";
    pub const MODULE_PACKAGES: &[u8] = b"ModulePackages";
    pub const MODULE_MAIN_CLASS: &[u8] = b"ModuleMainClass";
    pub const NEST_HOST: &[u8] = b"NestHost";
    pub const NEST_MEMBERS: &[u8] = b"NestMembers";
    pub const RECORD: &[u8] = b"Record";
    pub const PERMITTED_SUBCLASSES: &[u8] = b"PermittedSubclasses";
}

/// An attribute with a typed view.
pub trait AttributeInfo<'a>: Sized {
    /// Parses the attribute's `info`. `r` covers exactly those bytes; the
    /// pool is there to resolve the names of nested attributes.
    ///
    /// # Errors
    /// Truncation, forged counts and invalid values; bytes left over after
    /// the structure are [`crate::ClassFileError::TrailingBytes`].
    fn parse(r: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Self>;

    /// Appends the attribute's `info` bytes.
    fn encode(&self, out: &mut Vec<u8>);

    /// Parses a whole raw attribute, checking that nothing is left over.
    ///
    /// # Errors
    /// As [`AttributeInfo::parse`].
    fn from_raw(raw: &RawAttribute<'a>, pool: &ConstantPool<'a>) -> Result<Self> {
        let mut r = raw.reader();
        let parsed = Self::parse(&mut r, pool)?;
        r.expect_end("attribute")?;
        Ok(parsed)
    }
}
