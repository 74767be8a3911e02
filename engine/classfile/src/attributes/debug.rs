//! The debugging tables of `Code`: `LineNumberTable` (JVMS §4.7.12),
//! `LocalVariableTable` (§4.7.13) and `LocalVariableTypeTable` (§4.7.14).

use crate::constant_pool::{ConstantPool, CpIndex};
use crate::error::Result;
use crate::reader::{put_count, ByteSink, Reader};

use super::AttributeInfo;

/// One `line_number_table` entry.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LineNumber {
    /// Pc where the line starts.
    pub start_pc: u16,
    /// The source line.
    pub line_number: u16,
}

/// `LineNumberTable`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LineNumberTable {
    /// The entries, in file order.
    pub entries: Vec<LineNumber>,
}

impl<'a> AttributeInfo<'a> for LineNumberTable {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        let count = r.count_u2("line_number_table_length", 4)?;
        let mut entries = Vec::with_capacity(count);
        for _ in 0..count {
            entries.push(LineNumber {
                start_pc: r.u2("start_pc")?,
                line_number: r.u2("line_number")?,
            });
        }
        Ok(LineNumberTable { entries })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        put_count(out, self.entries.len());
        for entry in &self.entries {
            out.put_u2(entry.start_pc);
            out.put_u2(entry.line_number);
        }
    }
}

/// One entry of a `LocalVariableTable` or `LocalVariableTypeTable`. In the
/// first, `descriptor` is a field descriptor; in the second, it is a
/// field signature.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalVariable {
    /// First pc where the variable has a value.
    pub start_pc: u16,
    /// Length of the range, in bytes of code.
    pub length: u16,
    /// `name_index`.
    pub name: CpIndex,
    /// `descriptor_index` or `signature_index`.
    pub descriptor: CpIndex,
    /// The local variable slot.
    pub index: u16,
}

/// `LocalVariableTable`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalVariableTable {
    /// The entries, in file order.
    pub entries: Vec<LocalVariable>,
}

/// `LocalVariableTypeTable`: the same layout, with signatures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalVariableTypeTable {
    /// The entries, in file order.
    pub entries: Vec<LocalVariable>,
}

fn parse_local_variables(r: &mut Reader<'_>) -> Result<Vec<LocalVariable>> {
    let count = r.count_u2("local_variable_table_length", 10)?;
    let mut entries = Vec::with_capacity(count);
    for _ in 0..count {
        entries.push(LocalVariable {
            start_pc: r.u2("start_pc")?,
            length: r.u2("length")?,
            name: CpIndex(r.u2("name_index")?),
            descriptor: CpIndex(r.u2("descriptor_index")?),
            index: r.u2("index")?,
        });
    }
    Ok(entries)
}

fn encode_local_variables(out: &mut Vec<u8>, entries: &[LocalVariable]) {
    put_count(out, entries.len());
    for entry in entries {
        out.put_u2(entry.start_pc);
        out.put_u2(entry.length);
        out.put_u2(entry.name.0);
        out.put_u2(entry.descriptor.0);
        out.put_u2(entry.index);
    }
}

impl<'a> AttributeInfo<'a> for LocalVariableTable {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        Ok(LocalVariableTable {
            entries: parse_local_variables(r)?,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        encode_local_variables(out, &self.entries);
    }
}

impl<'a> AttributeInfo<'a> for LocalVariableTypeTable {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        Ok(LocalVariableTypeTable {
            entries: parse_local_variables(r)?,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        encode_local_variables(out, &self.entries);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::minimal_class;
    use crate::ClassFile;

    #[test]
    fn line_numbers_round_trip() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 2, 0, 0, 0, 10, 0, 5, 0, 11];
        let table = LineNumberTable::parse(&mut Reader::new(&info, 0), &class.constant_pool).unwrap();
        assert_eq!(
            table.entries[1],
            LineNumber {
                start_pc: 5,
                line_number: 11
            }
        );
        let mut out = Vec::new();
        table.encode(&mut out);
        assert_eq!(out, info);
    }

    #[test]
    fn a_forged_local_variable_count_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0xFF, 0xFF, 0, 0];
        assert!(LocalVariableTable::parse(&mut Reader::new(&info, 0), &class.constant_pool).is_err());
    }
}
