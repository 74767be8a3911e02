//! Attributes of a class: `InnerClasses` (JVMS §4.7.6), `EnclosingMethod`
//! (§4.7.7), `SourceFile` (§4.7.10), `BootstrapMethods` (§4.7.23),
//! `NestHost` (§4.7.28), `NestMembers` (§4.7.29), `Record` (§4.7.30) and
//! `PermittedSubclasses` (§4.7.31).
//!
//! `Synthetic` and `Deprecated` have no contents and need no type;
//! `SourceDebugExtension` stays a [`RawAttribute`]. The parsers read the
//! layout only; the constant-pool indices they return are neither resolved
//! nor checked (except the names of a record component's attributes, which
//! [`read_attributes`] looks up).

use crate::class_file::{read_attributes, write_attributes, RawAttribute};
use crate::constant_pool::{ConstantPool, CpIndex};
use crate::error::Result;
use crate::reader::{put_count, ByteSink, Reader};

use super::member_attrs::{read_index_list, write_index_list};
use super::AttributeInfo;

/// One `classes` entry of `InnerClasses` (JVMS §4.7.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct InnerClass {
    /// `inner_class_info_index`: the nested class, a `Class` constant.
    pub inner_class_info_index: CpIndex,
    /// `outer_class_info_index`: the enclosing class, or 0 for a local or
    /// anonymous class.
    pub outer_class_info_index: CpIndex,
    /// `inner_name_index`: the simple name, or 0 for an anonymous class.
    pub inner_name_index: CpIndex,
    /// `inner_class_access_flags` (JVMS Table 4.7.6-A).
    pub inner_class_access_flags: u16,
}

/// JVMS §4.7.6, `InnerClasses`: the nested classes a class refers to or
/// is a member of.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InnerClasses {
    /// `classes`, in file order.
    pub classes: Vec<InnerClass>,
}

impl<'a> AttributeInfo<'a> for InnerClasses {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        let count = r.count_u2("number_of_classes", 8)?;
        let mut classes = Vec::with_capacity(count);
        for _ in 0..count {
            classes.push(InnerClass {
                inner_class_info_index: CpIndex(r.u2("inner_class_info_index")?),
                outer_class_info_index: CpIndex(r.u2("outer_class_info_index")?),
                inner_name_index: CpIndex(r.u2("inner_name_index")?),
                inner_class_access_flags: r.u2("inner_class_access_flags")?,
            });
        }
        Ok(InnerClasses { classes })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        put_count(out, self.classes.len());
        for class in &self.classes {
            out.put_u2(class.inner_class_info_index.0);
            out.put_u2(class.outer_class_info_index.0);
            out.put_u2(class.inner_name_index.0);
            out.put_u2(class.inner_class_access_flags);
        }
    }
}

/// JVMS §4.7.7, `EnclosingMethod`: the innermost class, and method if
/// any, that encloses a local or anonymous class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnclosingMethod {
    /// `class_index`: the enclosing class, a `Class` constant.
    pub class_index: CpIndex,
    /// `method_index`: a `NameAndType` constant, or 0 when the class is not
    /// enclosed by a method (for example, in an initializer).
    pub method_index: CpIndex,
}

impl<'a> AttributeInfo<'a> for EnclosingMethod {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        Ok(EnclosingMethod {
            class_index: CpIndex(r.u2("class_index")?),
            method_index: CpIndex(r.u2("method_index")?),
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u2(self.class_index.0);
        out.put_u2(self.method_index.0);
    }
}

index_attribute! {
    /// JVMS §4.7.10, `SourceFile`: the name of the source file.
    SourceFile {
        /// `sourcefile_index`: a `Utf8` constant.
        sourcefile_index
    }
}

/// One `bootstrap_methods` entry of `BootstrapMethods` (JVMS §4.7.23).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootstrapMethod {
    /// `bootstrap_method_ref`: a `MethodHandle` constant.
    pub bootstrap_method_ref: CpIndex,
    /// `bootstrap_arguments`: loadable constants, in order.
    pub bootstrap_arguments: Vec<CpIndex>,
}

/// JVMS §4.7.23, `BootstrapMethods`: the bootstrap methods that
/// `Dynamic` and `InvokeDynamic` constants refer to by position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BootstrapMethods {
    /// `bootstrap_methods`, in file order (their index is what the
    /// constants hold).
    pub bootstrap_methods: Vec<BootstrapMethod>,
}

impl<'a> AttributeInfo<'a> for BootstrapMethods {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        let count = r.count_u2("num_bootstrap_methods", 4)?;
        let mut bootstrap_methods = Vec::with_capacity(count);
        for _ in 0..count {
            bootstrap_methods.push(BootstrapMethod {
                bootstrap_method_ref: CpIndex(r.u2("bootstrap_method_ref")?),
                bootstrap_arguments: read_index_list(r, "num_bootstrap_arguments")?,
            });
        }
        Ok(BootstrapMethods { bootstrap_methods })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        put_count(out, self.bootstrap_methods.len());
        for method in &self.bootstrap_methods {
            out.put_u2(method.bootstrap_method_ref.0);
            write_index_list(out, &method.bootstrap_arguments);
        }
    }
}

index_attribute! {
    /// JVMS §4.7.28, `NestHost`: the host of the nest this class belongs to.
    NestHost {
        /// `host_class_index`: a `Class` constant.
        host_class_index
    }
}

index_list_attribute! {
    /// JVMS §4.7.29, `NestMembers`: the classes a nest host admits.
    NestMembers {
        /// `classes`: `Class` constants, in file order.
        classes counted by "number_of_classes"
    }
}

/// One `components` entry of `Record` (JVMS §4.7.30,
/// `record_component_info`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordComponent<'a> {
    /// `name_index`: a `Utf8` constant.
    pub name_index: CpIndex,
    /// `descriptor_index`: a `Utf8` constant holding a field descriptor.
    pub descriptor_index: CpIndex,
    /// The component's attributes (`Signature`, annotations, …), kept raw.
    pub attributes: Vec<RawAttribute<'a>>,
}

/// JVMS §4.7.30, `Record`: the components of a record class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record<'a> {
    /// `components`, in declaration order.
    pub components: Vec<RecordComponent<'a>>,
}

impl<'a> AttributeInfo<'a> for Record<'a> {
    fn parse(r: &mut Reader<'a>, pool: &ConstantPool<'a>) -> Result<Self> {
        let count = r.count_u2("components_count", 6)?;
        let mut components = Vec::with_capacity(count);
        for _ in 0..count {
            components.push(RecordComponent {
                name_index: CpIndex(r.u2("name_index")?),
                descriptor_index: CpIndex(r.u2("descriptor_index")?),
                attributes: read_attributes(r, pool)?,
            });
        }
        Ok(Record { components })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        put_count(out, self.components.len());
        for component in &self.components {
            out.put_u2(component.name_index.0);
            out.put_u2(component.descriptor_index.0);
            write_attributes(out, &component.attributes);
        }
    }
}

index_list_attribute! {
    /// JVMS §4.7.31, `PermittedSubclasses`: the classes allowed to extend or
    /// implement a sealed class or interface.
    PermittedSubclasses {
        /// `classes`: `Class` constants, in file order.
        classes counted by "number_of_classes"
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ClassFileError;
    use crate::testing::{encoded, minimal_class, parse_info};
    use crate::ClassFile;

    #[test]
    fn inner_classes_round_trip() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        // A member class Hello$1 would be #2 in #4 named #1; an anonymous one has zeros.
        let info = [0, 2, 0, 2, 0, 4, 0, 1, 0, 0x19, 0, 2, 0, 0, 0, 0, 0x10, 0x00];
        let inner: InnerClasses = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(
            inner.classes[0],
            InnerClass {
                inner_class_info_index: CpIndex(2),
                outer_class_info_index: CpIndex(4),
                inner_name_index: CpIndex(1),
                inner_class_access_flags: 0x0019,
            }
        );
        assert_eq!(inner.classes[1].outer_class_info_index, CpIndex(0));
        assert_eq!(inner.classes[1].inner_name_index, CpIndex(0));
        assert_eq!(encoded(&inner), info);
    }

    #[test]
    fn a_forged_inner_class_count_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0x80, 0x00, 0, 2, 0, 4, 0, 1, 0, 0x19];
        let err = parse_info::<InnerClasses>(&info, &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::ImpossibleCount {
                item: "number_of_classes",
                count: 0x8000,
                offset: 0x200,
                remaining: 8
            }
        ));
    }

    #[test]
    fn truncated_inner_classes_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<InnerClasses>(&[0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "number_of_classes",
                ..
            }
        ));
        let err = parse_info::<InnerClasses>(&[0, 1, 0, 2, 0, 4, 0, 1, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(err, ClassFileError::ImpossibleCount { .. }));
    }

    #[test]
    fn enclosing_method_round_trips_with_and_without_a_method() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        for info in [[0, 2, 0, 7], [0, 2, 0, 0]] {
            let enclosing: EnclosingMethod = parse_info(&info, &class.constant_pool).unwrap();
            assert_eq!(enclosing.class_index, CpIndex(2));
            assert_eq!(enclosing.method_index, CpIndex(u16::from(info[3])));
            assert_eq!(encoded(&enclosing), info);
        }
    }

    #[test]
    fn a_truncated_enclosing_method_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<EnclosingMethod>(&[0, 2, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "method_index",
                offset: 0x202,
                needed: 1
            }
        ));
    }

    #[test]
    fn source_file_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 1];
        let source: SourceFile = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(source.sourcefile_index, CpIndex(1));
        assert_eq!(encoded(&source), info);
        let err = parse_info::<SourceFile>(&[0, 1, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(err, ClassFileError::TrailingBytes { extra: 1, .. }));
    }

    #[test]
    fn a_truncated_source_file_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err = parse_info::<SourceFile>(&[0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "sourcefile_index",
                ..
            }
        ));
    }

    #[test]
    fn bootstrap_methods_round_trip() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 2, 0, 8, 0, 2, 0, 10, 0, 1, 0, 8, 0, 0];
        let methods: BootstrapMethods = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(
            methods.bootstrap_methods,
            [
                BootstrapMethod {
                    bootstrap_method_ref: CpIndex(8),
                    bootstrap_arguments: vec![CpIndex(10), CpIndex(1)],
                },
                BootstrapMethod {
                    bootstrap_method_ref: CpIndex(8),
                    bootstrap_arguments: vec![],
                },
            ]
        );
        assert_eq!(encoded(&methods), info);
    }

    #[test]
    fn a_forged_bootstrap_argument_count_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 1, 0, 8, 0xFF, 0xFF, 0, 10];
        let err = parse_info::<BootstrapMethods>(&info, &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::ImpossibleCount {
                item: "num_bootstrap_arguments",
                count: 65535,
                offset: 0x204,
                remaining: 2
            }
        ));
        let err =
            parse_info::<BootstrapMethods>(&[0xFF, 0xFF, 0, 8, 0, 0], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::ImpossibleCount {
                item: "num_bootstrap_methods",
                ..
            }
        ));
    }

    #[test]
    fn truncated_bootstrap_methods_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        // The second method's argument count is cut off.
        let info = [0, 2, 0, 8, 0, 1, 0, 10, 0, 8, 0];
        let err = parse_info::<BootstrapMethods>(&info, &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "num_bootstrap_arguments",
                offset: 0x20A,
                needed: 1
            }
        ));
    }

    #[test]
    fn nest_host_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 4];
        let host: NestHost = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(host.host_class_index, CpIndex(4));
        assert_eq!(encoded(&host), info);
        let err = parse_info::<NestHost>(&[], &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "host_class_index",
                ..
            }
        ));
    }

    #[test]
    fn nest_members_and_permitted_subclasses_round_trip() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 2, 0, 2, 0, 4];
        let members: NestMembers = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(members.classes, [CpIndex(2), CpIndex(4)]);
        assert_eq!(encoded(&members), info);
        let permitted: PermittedSubclasses = parse_info(&info, &class.constant_pool).unwrap();
        assert_eq!(permitted.classes, [CpIndex(2), CpIndex(4)]);
        assert_eq!(encoded(&permitted), info);
    }

    #[test]
    fn forged_class_list_counts_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = [0, 3, 0, 2, 0, 4];
        assert!(matches!(
            parse_info::<NestMembers>(&info, &class.constant_pool).unwrap_err(),
            ClassFileError::ImpossibleCount {
                item: "number_of_classes",
                count: 3,
                remaining: 4,
                ..
            }
        ));
        assert!(matches!(
            parse_info::<PermittedSubclasses>(&info, &class.constant_pool).unwrap_err(),
            ClassFileError::ImpossibleCount {
                item: "number_of_classes",
                count: 3,
                remaining: 4,
                ..
            }
        ));
    }

    #[test]
    fn truncated_class_lists_are_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        assert!(matches!(
            parse_info::<NestMembers>(&[0], &class.constant_pool).unwrap_err(),
            ClassFileError::Truncated { .. }
        ));
        assert!(matches!(
            parse_info::<PermittedSubclasses>(&[0, 1, 0], &class.constant_pool).unwrap_err(),
            ClassFileError::ImpossibleCount { .. }
        ));
    }

    /// Two components with arbitrary indices: the first has one nested
    /// attribute named by #9 ("Code"; any Utf8 works for the raw round
    /// trip), the second has none.
    const RECORD_INFO: [u8; 23] = [
        0, 2, // components_count
        0, 1, 0, 6, // name_index, descriptor_index
        0, 1, // attributes_count
        0, 9, 0, 0, 0, 3, 0xAA, 0xBB, 0xCC, // attribute #9, length 3
        0, 5, 0, 6, // name_index, descriptor_index
        0, 0, // attributes_count
    ];

    #[test]
    fn a_record_with_a_nested_attribute_round_trips() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let info = &RECORD_INFO[..];
        let record: Record = parse_info(info, &class.constant_pool).unwrap();
        assert_eq!(record.components.len(), 2);
        let first = &record.components[0];
        assert_eq!(
            (first.name_index, first.descriptor_index),
            (CpIndex(1), CpIndex(6))
        );
        assert_eq!(first.attributes.len(), 1);
        assert_eq!(first.attributes[0].name, b"Code");
        assert_eq!(first.attributes[0].info, [0xAA, 0xBB, 0xCC]);
        assert_eq!(first.attributes[0].info_offset, 0x20E);
        assert!(record.components[1].attributes.is_empty());
        assert_eq!(encoded(&record), info);
    }

    #[test]
    fn a_forged_record_component_count_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let mut info = RECORD_INFO.to_vec();
        info[..2].copy_from_slice(&[0x10, 0x00]);
        assert!(matches!(
            parse_info::<Record>(&info, &class.constant_pool).unwrap_err(),
            ClassFileError::ImpossibleCount {
                item: "components_count",
                count: 0x1000,
                ..
            }
        ));
        // A forged attributes_count inside a component is caught as well.
        let mut info = RECORD_INFO.to_vec();
        info[6..8].copy_from_slice(&[0xFF, 0xFF]);
        assert!(matches!(
            parse_info::<Record>(&info, &class.constant_pool).unwrap_err(),
            ClassFileError::ImpossibleCount {
                item: "attributes_count",
                count: 65535,
                offset: 0x206,
                ..
            }
        ));
    }

    #[test]
    fn a_truncated_record_is_refused() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        // The nested attribute claims 3 bytes of info but only 2 follow.
        let info = &RECORD_INFO[..16];
        let err = parse_info::<Record>(info, &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                offset: 0x20E,
                needed: 1,
                ..
            }
        ));
        // The second component's attributes_count is cut off.
        let info = &RECORD_INFO[..22];
        let err = parse_info::<Record>(info, &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::Truncated {
                item: "attributes_count",
                ..
            }
        ));
    }
}
