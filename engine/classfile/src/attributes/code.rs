//! `Code` (JVMS §4.7.3): the bytecode of a method, its exception table
//! and its nested attributes.

use crate::class_file::{read_attributes, write_attributes, RawAttribute};
use crate::constant_pool::{ConstantPool, CpIndex};
use crate::error::{ClassFileError, Result};
use crate::reader::{put_count, ByteSink, Reader};

use super::AttributeInfo;

/// The largest `code_length` the JVM accepts (JVMS §4.7.3).
pub const MAX_CODE_LENGTH: usize = 65535;

/// One `exception_table` entry. Pcs are offsets in the method's code.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExceptionHandler {
    /// First covered pc.
    pub start_pc: u16,
    /// First pc after the covered range.
    pub end_pc: u16,
    /// Where the handler starts.
    pub handler_pc: u16,
    /// The caught class, or 0 for any (`finally`).
    pub catch_type: CpIndex,
}

/// A method's `Code` attribute.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Code<'a> {
    /// `max_stack`.
    pub max_stack: u16,
    /// `max_locals`.
    pub max_locals: u16,
    /// The bytecode.
    pub code: &'a [u8],
    /// Absolute file offset of the first byte of `code`.
    pub code_offset: usize,
    /// `exception_table`.
    pub exception_table: Vec<ExceptionHandler>,
    /// Nested attributes (StackMapTable, LineNumberTable, …).
    pub attributes: Vec<RawAttribute<'a>>,
}

impl<'a> Code<'a> {
    /// The first nested attribute with this name.
    pub fn attribute(&self, name: &[u8]) -> Option<&RawAttribute<'a>> {
        self.attributes.iter().find(|a| a.name == name)
    }
}

impl<'a> AttributeInfo<'a> for Code<'a> {
    fn parse(r: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Self> {
        let max_stack = r.u2("max_stack")?;
        let max_locals = r.u2("max_locals")?;
        let length_offset = r.offset();
        let (code, code_offset) = r.u4_prefixed("code")?;
        if code.is_empty() || code.len() > MAX_CODE_LENGTH {
            return Err(ClassFileError::InvalidValue {
                item: "code_length",
                value: code.len() as u32,
                offset: length_offset,
            });
        }
        let count = r.count_u2("exception_table_length", 8)?;
        let mut exception_table = Vec::with_capacity(count);
        for _ in 0..count {
            exception_table.push(ExceptionHandler {
                start_pc: r.u2("start_pc")?,
                end_pc: r.u2("end_pc")?,
                handler_pc: r.u2("handler_pc")?,
                catch_type: CpIndex(r.u2("catch_type")?),
            });
        }
        let attributes = read_attributes(r, pool)?;
        Ok(Code {
            max_stack,
            max_locals,
            code,
            code_offset,
            exception_table,
            attributes,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u2(self.max_stack);
        out.put_u2(self.max_locals);
        out.put_u4(self.code.len() as u32);
        out.put_bytes(self.code);
        put_count(out, self.exception_table.len());
        for handler in &self.exception_table {
            out.put_u2(handler.start_pc);
            out.put_u2(handler.end_pc);
            out.put_u2(handler.handler_pc);
            out.put_u2(handler.catch_type.0);
        }
        write_attributes(out, &self.attributes);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::minimal_class;
    use crate::ClassFile;

    #[test]
    fn code_of_a_constructor_parses_and_encodes_back() {
        let bytes = minimal_class(52);
        let class = ClassFile::parse(&bytes).unwrap();
        let raw = class.methods[0].attribute(b"Code").unwrap();
        let code = Code::from_raw(raw, &class.constant_pool).unwrap();
        assert_eq!((code.max_stack, code.max_locals), (1, 1));
        assert_eq!(code.code, [0x2A, 0xB7, 0x00, 0x08, 0xB1]);
        let mut out = Vec::new();
        code.encode(&mut out);
        assert_eq!(out, raw.info);
    }

    #[test]
    fn empty_code_is_invalid() {
        let info = [0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0];
        let pool_bytes = minimal_class(52);
        let class = ClassFile::parse(&pool_bytes).unwrap();
        let mut r = Reader::new(&info, 0x100);
        let err = Code::parse(&mut r, &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::InvalidValue {
                item: "code_length",
                value: 0,
                offset: 0x104
            }
        ));
    }
}
