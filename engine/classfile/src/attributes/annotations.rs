//! The annotation attributes: `RuntimeVisibleAnnotations` and
//! `RuntimeInvisibleAnnotations` (JVMS §4.7.16, §4.7.17), their parameter
//! forms (§4.7.18, §4.7.19), their type forms (§4.7.20, §4.7.21) and
//! `AnnotationDefault` (§4.7.22).
//!
//! Every constant-pool reference stays a [`CpIndex`]: nothing here looks
//! into the pool. Element values nest (arrays, annotations inside
//! annotations), so parsing refuses inputs nested deeper than
//! [`MAX_ELEMENT_VALUE_DEPTH`] rather than recursing without bound.

use crate::constant_pool::{ConstantPool, CpIndex};
use crate::error::{ClassFileError, Result};
use crate::reader::{put_count, ByteSink, Reader};

use super::AttributeInfo;

/// The deepest nesting of element values that parsing accepts. A value
/// directly in an annotation or in `AnnotationDefault` is at level 1; each
/// array or nested annotation adds a level. Deeper inputs are refused with
/// [`ClassFileError::InvalidValue`] (item `"element_value nesting"`), so a
/// forged input cannot exhaust the stack.
pub const MAX_ELEMENT_VALUE_DEPTH: usize = 256;

/// The smallest `element_value`: a tag and one `u2`.
const MIN_ELEMENT_VALUE_SIZE: usize = 3;
/// The smallest `element_value_pairs` entry.
const MIN_PAIR_SIZE: usize = 2 + MIN_ELEMENT_VALUE_SIZE;
/// The smallest `annotation`: `type_index` and `num_element_value_pairs`.
const MIN_ANNOTATION_SIZE: usize = 4;
/// The smallest `type_annotation`: a `target_type` with an empty target,
/// `path_length`, `type_index` and `num_element_value_pairs`.
const MIN_TYPE_ANNOTATION_SIZE: usize = 6;

/// An `element_value` (JVMS §4.7.16.1). Each variant is one `tag`; the
/// constant variants hold `const_value_index`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ElementValue {
    /// Tag `B`: a `CONSTANT_Integer` holding a `byte`.
    Byte(CpIndex),
    /// Tag `C`: a `CONSTANT_Integer` holding a `char`.
    Char(CpIndex),
    /// Tag `D`: a `CONSTANT_Double`.
    Double(CpIndex),
    /// Tag `F`: a `CONSTANT_Float`.
    Float(CpIndex),
    /// Tag `I`: a `CONSTANT_Integer`.
    Int(CpIndex),
    /// Tag `J`: a `CONSTANT_Long`.
    Long(CpIndex),
    /// Tag `S`: a `CONSTANT_Integer` holding a `short`.
    Short(CpIndex),
    /// Tag `Z`: a `CONSTANT_Integer` holding a `boolean`.
    Boolean(CpIndex),
    /// Tag `s`: a `CONSTANT_Utf8` holding a `String`.
    String(CpIndex),
    /// Tag `e`: `enum_const_value`.
    Enum {
        /// `type_name_index`: a `CONSTANT_Utf8` field descriptor.
        type_name_index: CpIndex,
        /// `const_name_index`: a `CONSTANT_Utf8` simple name.
        const_name_index: CpIndex,
    },
    /// Tag `c`: `class_info_index`, a `CONSTANT_Utf8` return descriptor.
    Class(CpIndex),
    /// Tag `@`: `annotation_value`, a nested annotation.
    Annotation(Annotation),
    /// Tag `[`: `array_value`, `num_values` element values.
    Array(Vec<ElementValue>),
}

impl ElementValue {
    /// The `tag` byte of this value (`b'B'`, `b'e'`, `b'['`, …).
    pub fn tag(&self) -> u8 {
        match self {
            ElementValue::Byte(_) => b'B',
            ElementValue::Char(_) => b'C',
            ElementValue::Double(_) => b'D',
            ElementValue::Float(_) => b'F',
            ElementValue::Int(_) => b'I',
            ElementValue::Long(_) => b'J',
            ElementValue::Short(_) => b'S',
            ElementValue::Boolean(_) => b'Z',
            ElementValue::String(_) => b's',
            ElementValue::Enum { .. } => b'e',
            ElementValue::Class(_) => b'c',
            ElementValue::Annotation(_) => b'@',
            ElementValue::Array(_) => b'[',
        }
    }

    /// Reads one element value at nesting level `depth` (1 at the top).
    fn parse(r: &mut Reader<'_>, depth: usize) -> Result<Self> {
        let tag_offset = r.offset();
        if depth > MAX_ELEMENT_VALUE_DEPTH {
            return Err(ClassFileError::InvalidValue {
                item: "element_value nesting",
                value: u32::try_from(depth).unwrap_or(u32::MAX),
                offset: tag_offset,
            });
        }
        let tag = r.u1("element_value tag")?;
        let value = match tag {
            b'B' | b'C' | b'D' | b'F' | b'I' | b'J' | b'S' | b'Z' | b's' => {
                let index = CpIndex(r.u2("const_value_index")?);
                match tag {
                    b'B' => ElementValue::Byte(index),
                    b'C' => ElementValue::Char(index),
                    b'D' => ElementValue::Double(index),
                    b'F' => ElementValue::Float(index),
                    b'I' => ElementValue::Int(index),
                    b'J' => ElementValue::Long(index),
                    b'S' => ElementValue::Short(index),
                    b'Z' => ElementValue::Boolean(index),
                    _ => ElementValue::String(index),
                }
            }
            b'e' => ElementValue::Enum {
                type_name_index: CpIndex(r.u2("type_name_index")?),
                const_name_index: CpIndex(r.u2("const_name_index")?),
            },
            b'c' => ElementValue::Class(CpIndex(r.u2("class_info_index")?)),
            b'@' => ElementValue::Annotation(Annotation::parse(r, depth + 1)?),
            b'[' => {
                let count = r.count_u2("num_values", MIN_ELEMENT_VALUE_SIZE)?;
                let mut values = Vec::with_capacity(count);
                for _ in 0..count {
                    values.push(ElementValue::parse(r, depth + 1)?);
                }
                ElementValue::Array(values)
            }
            _ => {
                return Err(ClassFileError::InvalidValue {
                    item: "element_value tag",
                    value: u32::from(tag),
                    offset: tag_offset,
                })
            }
        };
        Ok(value)
    }

    /// Appends the value's bytes, tag first.
    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u1(self.tag());
        match self {
            ElementValue::Byte(index)
            | ElementValue::Char(index)
            | ElementValue::Double(index)
            | ElementValue::Float(index)
            | ElementValue::Int(index)
            | ElementValue::Long(index)
            | ElementValue::Short(index)
            | ElementValue::Boolean(index)
            | ElementValue::String(index)
            | ElementValue::Class(index) => out.put_u2(index.0),
            ElementValue::Enum {
                type_name_index,
                const_name_index,
            } => {
                out.put_u2(type_name_index.0);
                out.put_u2(const_name_index.0);
            }
            ElementValue::Annotation(annotation) => annotation.encode(out),
            ElementValue::Array(values) => {
                put_count(out, values.len());
                for value in values {
                    value.encode(out);
                }
            }
        }
    }
}

/// One `element_value_pairs` entry (JVMS §4.7.16).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ElementValuePair {
    /// `element_name_index`: a `CONSTANT_Utf8` naming the element.
    pub element_name_index: CpIndex,
    /// `value`.
    pub value: ElementValue,
}

/// An `annotation` structure (JVMS §4.7.16).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotation {
    /// `type_index`: a `CONSTANT_Utf8` field descriptor of the annotation
    /// interface.
    pub type_index: CpIndex,
    /// `element_value_pairs`, in file order.
    pub element_value_pairs: Vec<ElementValuePair>,
}

impl Annotation {
    /// Reads an annotation whose element values sit at nesting level `depth`.
    fn parse(r: &mut Reader<'_>, depth: usize) -> Result<Self> {
        let type_index = CpIndex(r.u2("type_index")?);
        let element_value_pairs = parse_pairs(r, depth)?;
        Ok(Annotation {
            type_index,
            element_value_pairs,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u2(self.type_index.0);
        encode_pairs(out, &self.element_value_pairs);
    }
}

fn parse_pairs(r: &mut Reader<'_>, depth: usize) -> Result<Vec<ElementValuePair>> {
    let count = r.count_u2("num_element_value_pairs", MIN_PAIR_SIZE)?;
    let mut pairs = Vec::with_capacity(count);
    for _ in 0..count {
        pairs.push(ElementValuePair {
            element_name_index: CpIndex(r.u2("element_name_index")?),
            value: ElementValue::parse(r, depth)?,
        });
    }
    Ok(pairs)
}

fn encode_pairs(out: &mut Vec<u8>, pairs: &[ElementValuePair]) {
    put_count(out, pairs.len());
    for pair in pairs {
        out.put_u2(pair.element_name_index.0);
        pair.value.encode(out);
    }
}

/// Reads `num_annotations` and the annotations that follow.
fn parse_annotation_list(r: &mut Reader<'_>) -> Result<Vec<Annotation>> {
    let count = r.count_u2("num_annotations", MIN_ANNOTATION_SIZE)?;
    let mut annotations = Vec::with_capacity(count);
    for _ in 0..count {
        annotations.push(Annotation::parse(r, 1)?);
    }
    Ok(annotations)
}

fn encode_annotation_list(out: &mut Vec<u8>, annotations: &[Annotation]) {
    put_count(out, annotations.len());
    for annotation in annotations {
        annotation.encode(out);
    }
}

/// `RuntimeVisibleAnnotations` (JVMS §4.7.16) or
/// `RuntimeInvisibleAnnotations` (§4.7.17): the two share one layout, and
/// the attribute's name tells them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Annotations {
    /// `annotations`, in file order.
    pub annotations: Vec<Annotation>,
}

impl<'a> AttributeInfo<'a> for Annotations {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        Ok(Annotations {
            annotations: parse_annotation_list(r)?,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        encode_annotation_list(out, &self.annotations);
    }
}

/// `RuntimeVisibleParameterAnnotations` (JVMS §4.7.18) or
/// `RuntimeInvisibleParameterAnnotations` (§4.7.19): a `u1`
/// `num_parameters`, then the annotations of each parameter.
/// `num_parameters` need not match the method descriptor (javac leaves out
/// synthetic parameters), so it is kept as found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParameterAnnotations {
    /// `parameter_annotations`: one list per parameter, in order.
    pub parameter_annotations: Vec<Vec<Annotation>>,
}

impl<'a> AttributeInfo<'a> for ParameterAnnotations {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        // Each parameter holds at least its u2 `num_annotations`.
        let count = r.count_u1("num_parameters", 2)?;
        let mut parameter_annotations = Vec::with_capacity(count);
        for _ in 0..count {
            parameter_annotations.push(parse_annotation_list(r)?);
        }
        Ok(ParameterAnnotations {
            parameter_annotations,
        })
    }

    /// # Panics
    /// If there are more than 255 parameters, which parsing never yields.
    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u1(
            u8::try_from(self.parameter_annotations.len())
                .expect("num_parameters exceeds u1; the caller must check limits"),
        );
        for annotations in &self.parameter_annotations {
            encode_annotation_list(out, annotations);
        }
    }
}

/// `AnnotationDefault` (JVMS §4.7.22): the default value of an element of
/// an annotation interface.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnnotationDefault {
    /// `default_value`.
    pub default_value: ElementValue,
}

impl<'a> AttributeInfo<'a> for AnnotationDefault {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        Ok(AnnotationDefault {
            default_value: ElementValue::parse(r, 1)?,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        self.default_value.encode(out);
    }
}

/// The `target_type` values of JVMS Tables 4.7.20-A and 4.7.20-B, named
/// after their "kind of target".
pub mod target_type {
    /// Type parameter declaration of a generic class or interface.
    pub const CLASS_TYPE_PARAMETER: u8 = 0x00;
    /// Type parameter declaration of a generic method or constructor.
    pub const METHOD_TYPE_PARAMETER: u8 = 0x01;
    /// Type in `extends`/`implements` of a class, or `extends` of an interface.
    pub const CLASS_EXTENDS: u8 = 0x10;
    /// Bound of a type parameter of a generic class or interface.
    pub const CLASS_TYPE_PARAMETER_BOUND: u8 = 0x11;
    /// Bound of a type parameter of a generic method or constructor.
    pub const METHOD_TYPE_PARAMETER_BOUND: u8 = 0x12;
    /// Type in a field or record component declaration.
    pub const FIELD: u8 = 0x13;
    /// Return type of a method, or type of a newly constructed object.
    pub const METHOD_RETURN: u8 = 0x14;
    /// Receiver type of a method or constructor.
    pub const METHOD_RECEIVER: u8 = 0x15;
    /// Type in a formal parameter declaration.
    pub const METHOD_FORMAL_PARAMETER: u8 = 0x16;
    /// Type in a `throws` clause.
    pub const THROWS: u8 = 0x17;
    /// Type in a local variable declaration.
    pub const LOCAL_VARIABLE: u8 = 0x40;
    /// Type in a resource variable declaration.
    pub const RESOURCE_VARIABLE: u8 = 0x41;
    /// Type in an exception parameter declaration.
    pub const EXCEPTION_PARAMETER: u8 = 0x42;
    /// Type in an `instanceof` expression.
    pub const INSTANCEOF: u8 = 0x43;
    /// Type in a `new` expression.
    pub const NEW: u8 = 0x44;
    /// Type in a method reference expression using `::new`.
    pub const CONSTRUCTOR_REFERENCE: u8 = 0x45;
    /// Type in a method reference expression using `::Identifier`.
    pub const METHOD_REFERENCE: u8 = 0x46;
    /// Type in a cast expression.
    pub const CAST: u8 = 0x47;
    /// Type argument of a generic constructor in a `new` or explicit
    /// constructor invocation.
    pub const CONSTRUCTOR_INVOCATION_TYPE_ARGUMENT: u8 = 0x48;
    /// Type argument of a generic method in a method invocation.
    pub const METHOD_INVOCATION_TYPE_ARGUMENT: u8 = 0x49;
    /// Type argument of a generic constructor in a `::new` reference.
    pub const CONSTRUCTOR_REFERENCE_TYPE_ARGUMENT: u8 = 0x4A;
    /// Type argument of a generic method in a `::Identifier` reference.
    pub const METHOD_REFERENCE_TYPE_ARGUMENT: u8 = 0x4B;
}

/// One `table` entry of a `localvar_target` (JVMS §4.7.20.1): a code range
/// in which a local variable slot holds the annotated variable.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LocalVarTargetEntry {
    /// First pc where the variable has a value.
    pub start_pc: u16,
    /// Length of the range, in bytes of code.
    pub length: u16,
    /// The local variable slot.
    pub index: u16,
}

/// `target_type` and `target_info` of a type annotation (JVMS §4.7.20.1).
///
/// Each variant is one item of the `target_info` union. Where several
/// `target_type` values share an item, the variant keeps the byte, so that
/// encoding gives back the input; it must be one of the values listed on
/// the variant (see [`target_type`]). The pcs inside (`start_pc`,
/// `offset`) are public so that a bytecode rewriter can move them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TargetInfo {
    /// `type_parameter_target`, for `target_type` 0x00 or 0x01.
    TypeParameter {
        /// 0x00 or 0x01.
        target_type: u8,
        /// `type_parameter_index`.
        type_parameter_index: u8,
    },
    /// `supertype_target`, `target_type` 0x10.
    Supertype {
        /// `supertype_index`: an index into `interfaces`, or 65535 for the
        /// superclass.
        supertype_index: u16,
    },
    /// `type_parameter_bound_target`, for `target_type` 0x11 or 0x12.
    TypeParameterBound {
        /// 0x11 or 0x12.
        target_type: u8,
        /// `type_parameter_index`.
        type_parameter_index: u8,
        /// `bound_index`.
        bound_index: u8,
    },
    /// `empty_target`, for `target_type` 0x13, 0x14 or 0x15.
    Empty {
        /// 0x13, 0x14 or 0x15.
        target_type: u8,
    },
    /// `formal_parameter_target`, `target_type` 0x16.
    FormalParameter {
        /// `formal_parameter_index`.
        formal_parameter_index: u8,
    },
    /// `throws_target`, `target_type` 0x17.
    Throws {
        /// `throws_type_index`: an index into the `Exceptions` attribute's
        /// `exception_index_table`.
        throws_type_index: u16,
    },
    /// `localvar_target`, for `target_type` 0x40 or 0x41.
    Localvar {
        /// 0x40 or 0x41.
        target_type: u8,
        /// `table`, in file order.
        table: Vec<LocalVarTargetEntry>,
    },
    /// `catch_target`, `target_type` 0x42.
    Catch {
        /// `exception_table_index`: an index into the `Code` attribute's
        /// `exception_table`.
        exception_table_index: u16,
    },
    /// `offset_target`, for `target_type` 0x43 to 0x46.
    Offset {
        /// 0x43, 0x44, 0x45 or 0x46.
        target_type: u8,
        /// `offset`: the pc of the instruction (named `offset` by the JVMS).
        offset: u16,
    },
    /// `type_argument_target`, for `target_type` 0x47 to 0x4B.
    TypeArgument {
        /// 0x47, 0x48, 0x49, 0x4A or 0x4B.
        target_type: u8,
        /// `offset`: the pc of the instruction (named `offset` by the JVMS).
        offset: u16,
        /// `type_argument_index`.
        type_argument_index: u8,
    },
}

impl TargetInfo {
    /// The `target_type` byte.
    pub fn target_type(&self) -> u8 {
        match self {
            TargetInfo::TypeParameter { target_type, .. }
            | TargetInfo::TypeParameterBound { target_type, .. }
            | TargetInfo::Empty { target_type }
            | TargetInfo::Localvar { target_type, .. }
            | TargetInfo::Offset { target_type, .. }
            | TargetInfo::TypeArgument { target_type, .. } => *target_type,
            TargetInfo::Supertype { .. } => target_type::CLASS_EXTENDS,
            TargetInfo::FormalParameter { .. } => target_type::METHOD_FORMAL_PARAMETER,
            TargetInfo::Throws { .. } => target_type::THROWS,
            TargetInfo::Catch { .. } => target_type::EXCEPTION_PARAMETER,
        }
    }

    fn parse(r: &mut Reader<'_>) -> Result<Self> {
        let offset = r.offset();
        let target_type = r.u1("target_type")?;
        let target = match target_type {
            0x00 | 0x01 => TargetInfo::TypeParameter {
                target_type,
                type_parameter_index: r.u1("type_parameter_index")?,
            },
            0x10 => TargetInfo::Supertype {
                supertype_index: r.u2("supertype_index")?,
            },
            0x11 | 0x12 => TargetInfo::TypeParameterBound {
                target_type,
                type_parameter_index: r.u1("type_parameter_index")?,
                bound_index: r.u1("bound_index")?,
            },
            0x13..=0x15 => TargetInfo::Empty { target_type },
            0x16 => TargetInfo::FormalParameter {
                formal_parameter_index: r.u1("formal_parameter_index")?,
            },
            0x17 => TargetInfo::Throws {
                throws_type_index: r.u2("throws_type_index")?,
            },
            0x40 | 0x41 => {
                let count = r.count_u2("table_length", 6)?;
                let mut table = Vec::with_capacity(count);
                for _ in 0..count {
                    table.push(LocalVarTargetEntry {
                        start_pc: r.u2("start_pc")?,
                        length: r.u2("length")?,
                        index: r.u2("index")?,
                    });
                }
                TargetInfo::Localvar { target_type, table }
            }
            0x42 => TargetInfo::Catch {
                exception_table_index: r.u2("exception_table_index")?,
            },
            0x43..=0x46 => TargetInfo::Offset {
                target_type,
                offset: r.u2("offset")?,
            },
            0x47..=0x4B => TargetInfo::TypeArgument {
                target_type,
                offset: r.u2("offset")?,
                type_argument_index: r.u1("type_argument_index")?,
            },
            _ => {
                return Err(ClassFileError::InvalidValue {
                    item: "target_type",
                    value: u32::from(target_type),
                    offset,
                })
            }
        };
        Ok(target)
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u1(self.target_type());
        match self {
            TargetInfo::TypeParameter {
                type_parameter_index, ..
            } => out.put_u1(*type_parameter_index),
            TargetInfo::Supertype { supertype_index } => out.put_u2(*supertype_index),
            TargetInfo::TypeParameterBound {
                type_parameter_index,
                bound_index,
                ..
            } => {
                out.put_u1(*type_parameter_index);
                out.put_u1(*bound_index);
            }
            TargetInfo::Empty { .. } => {}
            TargetInfo::FormalParameter {
                formal_parameter_index,
            } => out.put_u1(*formal_parameter_index),
            TargetInfo::Throws { throws_type_index } => out.put_u2(*throws_type_index),
            TargetInfo::Localvar { table, .. } => {
                put_count(out, table.len());
                for entry in table {
                    out.put_u2(entry.start_pc);
                    out.put_u2(entry.length);
                    out.put_u2(entry.index);
                }
            }
            TargetInfo::Catch {
                exception_table_index,
            } => out.put_u2(*exception_table_index),
            TargetInfo::Offset { offset, .. } => out.put_u2(*offset),
            TargetInfo::TypeArgument {
                offset,
                type_argument_index,
                ..
            } => {
                out.put_u2(*offset);
                out.put_u1(*type_argument_index);
            }
        }
    }
}

/// One `path` entry of a `type_path` (JVMS §4.7.20.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TypePathEntry {
    /// `type_path_kind`: 0 array, 1 nested type, 2 wildcard bound, 3 type
    /// argument. Kept as found, without checking.
    pub type_path_kind: u8,
    /// `type_argument_index`: which type argument, when the kind is 3.
    pub type_argument_index: u8,
}

/// A `type_path` (JVMS §4.7.20.2): where in the target type the
/// annotation applies. An empty path means the whole type.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TypePath {
    /// `path`, outermost step first.
    pub path: Vec<TypePathEntry>,
}

impl TypePath {
    fn parse(r: &mut Reader<'_>) -> Result<Self> {
        let count = r.count_u1("path_length", 2)?;
        let mut path = Vec::with_capacity(count);
        for _ in 0..count {
            path.push(TypePathEntry {
                type_path_kind: r.u1("type_path_kind")?,
                type_argument_index: r.u1("type_argument_index")?,
            });
        }
        Ok(TypePath { path })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        out.put_u1(
            u8::try_from(self.path.len()).expect("path_length exceeds u1; the caller must check limits"),
        );
        for entry in &self.path {
            out.put_u1(entry.type_path_kind);
            out.put_u1(entry.type_argument_index);
        }
    }
}

/// A `type_annotation` structure (JVMS §4.7.20).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeAnnotation {
    /// `target_type` and `target_info`: which type the annotation is on.
    pub target: TargetInfo,
    /// `target_path`: which part of that type.
    pub target_path: TypePath,
    /// `type_index`: a `CONSTANT_Utf8` field descriptor of the annotation
    /// interface.
    pub type_index: CpIndex,
    /// `element_value_pairs`, in file order.
    pub element_value_pairs: Vec<ElementValuePair>,
}

impl TypeAnnotation {
    fn parse(r: &mut Reader<'_>) -> Result<Self> {
        let target = TargetInfo::parse(r)?;
        let target_path = TypePath::parse(r)?;
        let type_index = CpIndex(r.u2("type_index")?);
        let element_value_pairs = parse_pairs(r, 1)?;
        Ok(TypeAnnotation {
            target,
            target_path,
            type_index,
            element_value_pairs,
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        self.target.encode(out);
        self.target_path.encode(out);
        out.put_u2(self.type_index.0);
        encode_pairs(out, &self.element_value_pairs);
    }
}

/// `RuntimeVisibleTypeAnnotations` (JVMS §4.7.20) or
/// `RuntimeInvisibleTypeAnnotations` (§4.7.21): the two share one layout,
/// and the attribute's name tells them apart.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TypeAnnotations {
    /// `annotations`, in file order.
    pub annotations: Vec<TypeAnnotation>,
}

impl<'a> AttributeInfo<'a> for TypeAnnotations {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        let count = r.count_u2("num_annotations", MIN_TYPE_ANNOTATION_SIZE)?;
        let mut annotations = Vec::with_capacity(count);
        for _ in 0..count {
            annotations.push(TypeAnnotation::parse(r)?);
        }
        Ok(TypeAnnotations { annotations })
    }

    /// # Panics
    /// If a `target_path` has more than 255 steps, which parsing never
    /// yields.
    fn encode(&self, out: &mut Vec<u8>) {
        put_count(out, self.annotations.len());
        for annotation in &self.annotations {
            annotation.encode(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::minimal_class;
    use crate::ClassFile;

    /// Parses `info` as a whole attribute at file offset 0x100, checks
    /// that every byte was used and that encoding gives `info` back.
    fn round_trip<T>(info: &[u8]) -> T
    where
        T: for<'a> AttributeInfo<'a> + std::fmt::Debug,
    {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let mut r = Reader::new(info, 0x100);
        let parsed = T::parse(&mut r, &class.constant_pool).unwrap();
        r.expect_end("attribute").unwrap();
        let mut out = Vec::new();
        parsed.encode(&mut out);
        assert_eq!(out, info, "{parsed:?}");
        parsed
    }

    /// Parses `info` at file offset 0x100 and returns the error.
    fn parse_error<T>(info: &[u8]) -> ClassFileError
    where
        T: for<'a> AttributeInfo<'a> + std::fmt::Debug,
    {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        T::parse(&mut Reader::new(info, 0x100), &class.constant_pool).unwrap_err()
    }

    #[test]
    fn every_element_value_tag_round_trips() {
        let mut info = vec![0, 1, 0, 20, 0, 13]; // one annotation #20, 13 pairs
        for (name, tag) in (1u8..).zip(*b"BCDFIJSZsc") {
            info.extend_from_slice(&[0, name, tag, 0, 30 + name]);
        }
        info.extend_from_slice(&[0, 11, b'e', 0, 40, 0, 41]);
        info.extend_from_slice(&[0, 12, b'@', 0, 50, 0, 0]);
        info.extend_from_slice(&[0, 13, b'[', 0, 0]);
        let parsed: Annotations = round_trip(&info);
        let annotation = &parsed.annotations[0];
        assert_eq!(annotation.type_index, CpIndex(20));
        let values: Vec<_> = annotation
            .element_value_pairs
            .iter()
            .map(|pair| pair.value.clone())
            .collect();
        assert_eq!(
            values,
            [
                ElementValue::Byte(CpIndex(31)),
                ElementValue::Char(CpIndex(32)),
                ElementValue::Double(CpIndex(33)),
                ElementValue::Float(CpIndex(34)),
                ElementValue::Int(CpIndex(35)),
                ElementValue::Long(CpIndex(36)),
                ElementValue::Short(CpIndex(37)),
                ElementValue::Boolean(CpIndex(38)),
                ElementValue::String(CpIndex(39)),
                ElementValue::Class(CpIndex(40)),
                ElementValue::Enum {
                    type_name_index: CpIndex(40),
                    const_name_index: CpIndex(41)
                },
                ElementValue::Annotation(Annotation {
                    type_index: CpIndex(50),
                    element_value_pairs: vec![]
                }),
                ElementValue::Array(vec![]),
            ]
        );
        assert_eq!(annotation.element_value_pairs[12].element_name_index, CpIndex(13));
    }

    #[test]
    fn nested_arrays_and_annotations_round_trip() {
        // @A(x = {@B(y = {1, 2}), @B(y = {})})
        let info = [
            0, 1, // num_annotations
            0, 20, 0, 1, // @A, one pair
            0, 21, b'[', 0, 2, // x = array of 2
            b'@', 0, 22, 0, 1, // @B, one pair
            0, 23, b'[', 0, 2, b'I', 0, 30, b'I', 0, 31, // y = {1, 2}
            b'@', 0, 22, 0, 1, // @B, one pair
            0, 23, b'[', 0, 0, // y = {}
        ];
        let parsed: Annotations = round_trip(&info);
        let ElementValue::Array(outer) = &parsed.annotations[0].element_value_pairs[0].value else {
            panic!("not an array")
        };
        let ElementValue::Annotation(first) = &outer[0] else {
            panic!("not an annotation")
        };
        assert_eq!(
            first.element_value_pairs[0].value,
            ElementValue::Array(vec![
                ElementValue::Int(CpIndex(30)),
                ElementValue::Int(CpIndex(31))
            ])
        );
    }

    #[test]
    fn parameter_annotations_round_trip() {
        // Three parameters: none, @A, and @A @B(v = 'c').
        let info = [
            3, // num_parameters
            0, 0, // parameter 0
            0, 1, 0, 20, 0, 0, // parameter 1
            0, 2, 0, 20, 0, 0, 0, 21, 0, 1, 0, 22, b'C', 0, 30, // parameter 2
        ];
        let parsed: ParameterAnnotations = round_trip(&info);
        let counts: Vec<_> = parsed.parameter_annotations.iter().map(Vec::len).collect();
        assert_eq!(counts, [0, 1, 2]);
        assert_eq!(parsed.parameter_annotations[2][1].type_index, CpIndex(21));
    }

    #[test]
    fn annotation_default_round_trips() {
        let parsed: AnnotationDefault = round_trip(&[b'e', 0, 40, 0, 41]);
        assert_eq!(parsed.default_value.tag(), b'e');
        let parsed: AnnotationDefault = round_trip(&[b'[', 0, 1, b's', 0, 7]);
        assert_eq!(
            parsed.default_value,
            ElementValue::Array(vec![ElementValue::String(CpIndex(7))])
        );
    }

    /// A `RuntimeVisibleTypeAnnotations` holding one annotation `#20`
    /// with no pairs and an empty path, on the given target bytes.
    fn type_annotation_info(target: &[u8]) -> Vec<u8> {
        let mut info = vec![0, 1];
        info.extend_from_slice(target);
        info.extend_from_slice(&[0, 0, 20, 0, 0]);
        info
    }

    fn single_target(target: &[u8]) -> TargetInfo {
        let parsed: TypeAnnotations = round_trip(&type_annotation_info(target));
        let annotation = &parsed.annotations[0];
        assert_eq!(annotation.type_index, CpIndex(20));
        assert_eq!(annotation.target.target_type(), target[0]);
        annotation.target.clone()
    }

    #[test]
    fn every_target_type_group_round_trips() {
        for target_type in [0x00, 0x01] {
            assert_eq!(
                single_target(&[target_type, 2]),
                TargetInfo::TypeParameter {
                    target_type,
                    type_parameter_index: 2
                }
            );
        }
        assert_eq!(
            single_target(&[0x10, 0xFF, 0xFF]),
            TargetInfo::Supertype {
                supertype_index: 65535
            }
        );
        for target_type in [0x11, 0x12] {
            assert_eq!(
                single_target(&[target_type, 1, 3]),
                TargetInfo::TypeParameterBound {
                    target_type,
                    type_parameter_index: 1,
                    bound_index: 3
                }
            );
        }
        for target_type in [0x13, 0x14, 0x15] {
            assert_eq!(single_target(&[target_type]), TargetInfo::Empty { target_type });
        }
        assert_eq!(
            single_target(&[0x16, 4]),
            TargetInfo::FormalParameter {
                formal_parameter_index: 4
            }
        );
        assert_eq!(
            single_target(&[0x17, 0, 1]),
            TargetInfo::Throws { throws_type_index: 1 }
        );
        for target_type in [0x40, 0x41] {
            assert_eq!(
                single_target(&[target_type, 0, 2, 0, 5, 0, 10, 0, 3, 0, 20, 0, 4, 0, 3]),
                TargetInfo::Localvar {
                    target_type,
                    table: vec![
                        LocalVarTargetEntry {
                            start_pc: 5,
                            length: 10,
                            index: 3
                        },
                        LocalVarTargetEntry {
                            start_pc: 20,
                            length: 4,
                            index: 3
                        },
                    ]
                }
            );
        }
        assert_eq!(
            single_target(&[0x42, 0, 2]),
            TargetInfo::Catch {
                exception_table_index: 2
            }
        );
        for target_type in 0x43..=0x46 {
            assert_eq!(
                single_target(&[target_type, 0x01, 0x2C]),
                TargetInfo::Offset {
                    target_type,
                    offset: 300
                }
            );
        }
        for target_type in 0x47..=0x4B {
            assert_eq!(
                single_target(&[target_type, 0, 17, 1]),
                TargetInfo::TypeArgument {
                    target_type,
                    offset: 17,
                    type_argument_index: 1
                }
            );
        }
    }

    #[test]
    fn type_path_and_pairs_of_a_type_annotation_round_trip() {
        // @A(v = "x") on the 2nd type argument of an array's component.
        let info = [
            0, 2,    // num_annotations
            0x13, // field
            2, 0, 0, 3, 1, // path: [array, type argument 1]
            0, 20, 0, 1, 0, 21, b's', 0, 30, // @A(v = #30)
            0x47, 0, 9, 0, // cast at pc 9, first type of the cast
            0, 0, 22, 0, 0, // empty path, @B
        ];
        let parsed: TypeAnnotations = round_trip(&info);
        assert_eq!(
            parsed.annotations[0].target_path.path,
            [
                TypePathEntry {
                    type_path_kind: 0,
                    type_argument_index: 0
                },
                TypePathEntry {
                    type_path_kind: 3,
                    type_argument_index: 1
                },
            ]
        );
        assert_eq!(
            parsed.annotations[0].element_value_pairs[0].value,
            ElementValue::String(CpIndex(30))
        );
        assert!(parsed.annotations[1].target_path.path.is_empty());
    }

    #[test]
    fn a_moved_pc_is_encoded_in_place() {
        let info = type_annotation_info(&[0x44, 0, 7]);
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let mut parsed = TypeAnnotations::parse(&mut Reader::new(&info, 0), &class.constant_pool).unwrap();
        if let TargetInfo::Offset { offset, .. } = &mut parsed.annotations[0].target {
            *offset = 0x1234;
        }
        let mut out = Vec::new();
        parsed.encode(&mut out);
        assert_eq!(out, type_annotation_info(&[0x44, 0x12, 0x34]));
    }

    #[test]
    fn an_unknown_element_value_tag_is_invalid_at_the_tag_byte() {
        let info = [0, 1, 0, 20, 0, 1, 0, 21, b'X', 0, 0];
        assert_eq!(
            parse_error::<Annotations>(&info),
            ClassFileError::InvalidValue {
                item: "element_value tag",
                value: u32::from(b'X'),
                offset: 0x108
            }
        );
    }

    #[test]
    fn an_unknown_target_type_is_invalid() {
        let info = type_annotation_info(&[0x18, 0, 0]);
        assert_eq!(
            parse_error::<TypeAnnotations>(&info),
            ClassFileError::InvalidValue {
                item: "target_type",
                value: 0x18,
                offset: 0x102
            }
        );
    }

    #[test]
    fn forged_counts_are_refused_before_allocating() {
        for err in [
            parse_error::<Annotations>(&[0xFF, 0xFF, 0, 20, 0, 0]),
            parse_error::<Annotations>(&[0, 1, 0, 20, 0xFF, 0xFF, 0, 1, b'I', 0, 2]),
            parse_error::<AnnotationDefault>(&[b'[', 0xFF, 0xFF, b'I', 0, 2]),
            parse_error::<ParameterAnnotations>(&[0xFF, 0, 0]),
            parse_error::<TypeAnnotations>(&[0xFF, 0xFF, 0x13, 0, 0, 20, 0, 0]),
            parse_error::<TypeAnnotations>(&type_annotation_info(&[0x40, 0xFF, 0xFF])),
            parse_error::<TypeAnnotations>(&[0, 1, 0x13, 0xFF, 0, 0, 0, 20, 0, 0]),
        ] {
            assert!(matches!(err, ClassFileError::ImpossibleCount { .. }), "{err:?}");
        }
    }

    #[test]
    fn truncated_annotations_are_refused() {
        assert!(matches!(
            parse_error::<Annotations>(&[0, 1, 0, 20, 0, 1, 0, 21, b'e', 0, 40, 0]),
            ClassFileError::Truncated { .. }
        ));
        assert!(matches!(
            parse_error::<TypeAnnotations>(&[0, 1, 0x47, 0, 9, 0, 0, 0, 0, 0]),
            ClassFileError::Truncated { .. }
        ));
    }

    /// `depth` nested one-element arrays around an int.
    fn nested_arrays(depth: usize) -> Vec<u8> {
        let mut info = Vec::new();
        for _ in 1..depth {
            info.extend_from_slice(&[b'[', 0, 1]);
        }
        info.extend_from_slice(&[b'I', 0, 2]);
        info
    }

    #[test]
    fn nesting_up_to_the_limit_is_accepted() {
        let parsed: AnnotationDefault = round_trip(&nested_arrays(MAX_ELEMENT_VALUE_DEPTH));
        let mut value = &parsed.default_value;
        let mut depth = 1;
        while let ElementValue::Array(values) = value {
            value = &values[0];
            depth += 1;
        }
        assert_eq!(depth, MAX_ELEMENT_VALUE_DEPTH);
    }

    #[test]
    fn nesting_beyond_the_limit_is_refused() {
        let info = nested_arrays(MAX_ELEMENT_VALUE_DEPTH + 1);
        assert_eq!(
            parse_error::<AnnotationDefault>(&info),
            ClassFileError::InvalidValue {
                item: "element_value nesting",
                value: MAX_ELEMENT_VALUE_DEPTH as u32 + 1,
                offset: 0x100 + 3 * MAX_ELEMENT_VALUE_DEPTH
            }
        );
    }

    #[test]
    fn deeply_nested_annotations_are_refused_without_overflowing() {
        // 100,000 levels of @A(v = @A(v = …)); must fail, not crash.
        let mut info = vec![b'@'];
        for _ in 0..100_000 {
            info.extend_from_slice(&[0, 20, 0, 1, 0, 21, b'@']);
        }
        assert!(matches!(
            parse_error::<AnnotationDefault>(&info),
            ClassFileError::InvalidValue {
                item: "element_value nesting",
                ..
            }
        ));
    }
}
