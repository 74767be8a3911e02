//! Attributes of fields and methods: `ConstantValue` (JVMS §4.7.2),
//! `Exceptions` (§4.7.5), `Signature` (§4.7.9) and `MethodParameters`
//! (§4.7.24).
//!
//! The parsers read the layout only; the constant-pool indices they return
//! are neither resolved nor checked.

use crate::constant_pool::{ConstantPool, CpIndex};
use crate::error::Result;
use crate::reader::{put_count, ByteSink, Reader};

use super::AttributeInfo;

/// Reads a `u2` count followed by that many `u2` constant-pool indices, the
/// shape shared by many attributes (`Exceptions`, `NestMembers`, …).
pub(super) fn read_index_list(r: &mut Reader<'_>, count_item: &'static str) -> Result<Vec<CpIndex>> {
    let count = r.count_u2(count_item, 2)?;
    let mut indices = Vec::with_capacity(count);
    for _ in 0..count {
        indices.push(CpIndex(r.u2("constant-pool index")?));
    }
    Ok(indices)
}

/// Appends a `u2` count and the indices, the inverse of [`read_index_list`].
pub(super) fn write_index_list(out: &mut Vec<u8>, indices: &[CpIndex]) {
    put_count(out, indices.len());
    for index in indices {
        out.put_u2(index.0);
    }
}

index_attribute! {
    /// JVMS §4.7.2, `ConstantValue`: the value of a constant field.
    ConstantValue {
        /// `constantvalue_index`: a `Long`, `Float`, `Double`, `Integer` or
        /// `String` constant.
        constantvalue_index
    }
}

index_list_attribute! {
    /// JVMS §4.7.5, `Exceptions`: the checked exceptions a method declares.
    Exceptions {
        /// `exception_index_table`: `Class` constants, in file order.
        exception_index_table counted by "number_of_exceptions"
    }
}

index_attribute! {
    /// JVMS §4.7.9, `Signature`: the generic signature of a class, field,
    /// method or record component.
    Signature {
        /// `signature_index`: a `Utf8` constant holding the signature.
        signature_index
    }
}

/// One `parameters` entry of `MethodParameters` (JVMS §4.7.24).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MethodParameter {
    /// `name_index`: a `Utf8` constant, or 0 for a parameter with no name.
    pub name_index: CpIndex,
    /// `access_flags`: `ACC_FINAL`, `ACC_SYNTHETIC`, `ACC_MANDATED`.
    pub access_flags: u16,
}

/// JVMS §4.7.24, `MethodParameters`: names and flags of a method's formal
/// parameters. Its count is a `u1`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodParameters {
    /// `parameters`, in declaration order.
    pub parameters: Vec<MethodParameter>,
}

impl<'a> AttributeInfo<'a> for MethodParameters {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        let count = r.count_u1("parameters_count", 4)?;
        let mut parameters = Vec::with_capacity(count);
        for _ in 0..count {
            parameters.push(MethodParameter {
                name_index: CpIndex(r.u2("name_index")?),
                access_flags: r.u2("access_flags")?,
            });
        }
        Ok(MethodParameters { parameters })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        let count = u8::try_from(self.parameters.len())
            .expect("parameters_count exceeds u1; the caller must check limits");
        out.put_u1(count);
        for parameter in &self.parameters {
            out.put_u2(parameter.name_index.0);
            out.put_u2(parameter.access_flags);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ClassFileError;
    use crate::testing::{encoded, minimal_class, parse_info};
    use crate::ClassFile;

    #[test]
    fn constant_value_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 10];
        let value: ConstantValue = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(value.constantvalue_index, CpIndex(10));
        assert_eq!(encoded(&value), info);
    }

    #[test]
    fn a_truncated_constant_value_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<ConstantValue>(&[0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "constantvalue_index",
                offset: 0x200,
                needed: 1
            }
        ));
    }

    #[test]
    fn a_constant_value_with_extra_bytes_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<ConstantValue>(&[0, 10, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(err, ClassFileError::TrailingBytes { extra: 1, .. }));
    }

    #[test]
    fn exceptions_round_trip() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 2, 0, 2, 0, 4];
        let exceptions: Exceptions = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(exceptions.exception_index_table, [CpIndex(2), CpIndex(4)]);
        assert_eq!(encoded(&exceptions), info);
    }

    #[test]
    fn no_exceptions_round_trip() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 0];
        let exceptions: Exceptions = parse_info(&info, &class.constant_pool).unwrap();
        assert!(exceptions.exception_index_table.is_empty());
        assert_eq!(encoded(&exceptions), info);
    }

    #[test]
    fn a_forged_exception_count_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<Exceptions>(&[0xFF, 0xFF, 0, 2], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::ImpossibleCount {
                item: "number_of_exceptions",
                count: 65535,
                offset: 0x200,
                remaining: 2
            }
        ));
    }

    #[test]
    fn truncated_exceptions_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<Exceptions>(&[0, 2, 0, 2, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(err, ClassFileError::ImpossibleCount { .. }));
        let err = parse_info::<Exceptions>(&[0, 1, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(err, ClassFileError::ImpossibleCount { .. }));
    }

    #[test]
    fn signature_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 6];
        let signature: Signature = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(signature.signature_index, CpIndex(6));
        assert_eq!(encoded(&signature), info);
    }

    #[test]
    fn a_truncated_signature_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<Signature>(&[], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "signature_index",
                needed: 2,
                ..
            }
        ));
    }

    #[test]
    fn method_parameters_round_trip_with_an_unnamed_parameter() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [2, 0, 1, 0x00, 0x10, 0, 0, 0x80, 0x00];
        let parameters: MethodParameters = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(
            parameters.parameters,
            [
                MethodParameter {
                    name_index: CpIndex(1),
                    access_flags: crate::access::ACC_FINAL
                },
                MethodParameter {
                    name_index: CpIndex(0),
                    access_flags: crate::access::ACC_MANDATED
                },
            ]
        );
        assert_eq!(encoded(&parameters), info);
    }

    #[test]
    fn a_forged_method_parameter_count_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<MethodParameters>(&[0xFF, 0, 1, 0, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::ImpossibleCount {
                item: "parameters_count",
                count: 255,
                remaining: 4,
                ..
            }
        ));
    }

    #[test]
    fn truncated_method_parameters_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        assert!(matches!(
            parse_info::<MethodParameters>(&[], &class.constant_pool).unwrap_err(),
            ClassFileError::Truncated {
                item: "parameters_count",
                ..
            }
        ));
        assert!(matches!(
            parse_info::<MethodParameters>(&[1, 0, 1, 0], &class.constant_pool).unwrap_err(),
            ClassFileError::ImpossibleCount { .. }
        ));
    }
}
