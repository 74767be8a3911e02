//! `StackMapTable` (JVMS §4.7.4): the verifier's frames, in their
//! compressed file form. Every frame kind is kept as written, so that a
//! parsed table encodes back to the same bytes; the bytecode crate expands
//! frames to absolute pcs and full local/stack lists when it rewrites code.

use crate::constant_pool::{ConstantPool, CpIndex};
use crate::error::{ClassFileError, Result};
use crate::reader::{put_count, ByteSink, Reader};

use super::AttributeInfo;

/// A verification type (JVMS §4.10.1.2, encoded as in §4.7.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum VerificationType {
    /// `Top_variable_info`.
    Top,
    /// `Integer_variable_info`.
    Integer,
    /// `Float_variable_info`.
    Float,
    /// `Double_variable_info`: one entry, two local slots.
    Double,
    /// `Long_variable_info`: one entry, two local slots.
    Long,
    /// `Null_variable_info`.
    Null,
    /// `UninitializedThis_variable_info`.
    UninitializedThis,
    /// `Object_variable_info`: a `Class` constant.
    Object(CpIndex),
    /// `Uninitialized_variable_info`: the pc of the `new` that created it.
    Uninitialized(u16),
}

impl VerificationType {
    fn parse(r: &mut Reader<'_>) -> Result<Self> {
        let offset = r.offset();
        Ok(match r.u1("verification_type_info tag")? {
            0 => VerificationType::Top,
            1 => VerificationType::Integer,
            2 => VerificationType::Float,
            3 => VerificationType::Double,
            4 => VerificationType::Long,
            5 => VerificationType::Null,
            6 => VerificationType::UninitializedThis,
            7 => VerificationType::Object(CpIndex(r.u2("cpool_index")?)),
            8 => VerificationType::Uninitialized(r.u2("Uninitialized offset")?),
            tag => {
                return Err(ClassFileError::InvalidValue {
                    item: "verification_type_info tag",
                    value: u32::from(tag),
                    offset,
                })
            }
        })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        match *self {
            VerificationType::Top => out.put_u1(0),
            VerificationType::Integer => out.put_u1(1),
            VerificationType::Float => out.put_u1(2),
            VerificationType::Double => out.put_u1(3),
            VerificationType::Long => out.put_u1(4),
            VerificationType::Null => out.put_u1(5),
            VerificationType::UninitializedThis => out.put_u1(6),
            VerificationType::Object(class) => {
                out.put_u1(7);
                out.put_u2(class.0);
            }
            VerificationType::Uninitialized(pc) => {
                out.put_u1(8);
                out.put_u2(pc);
            }
        }
    }

    /// Whether the type takes two local-variable slots (JVMS §4.10.1.2).
    pub fn is_category2(&self) -> bool {
        matches!(self, VerificationType::Long | VerificationType::Double)
    }
}

/// One frame, in the form it has in the file. `offset_delta` is relative
/// to the previous frame as JVMS §4.7.4 defines.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum StackMapFrame {
    /// `same_frame` (types 0–63; the delta is the type).
    Same {
        /// `offset_delta`, below 64.
        offset_delta: u16,
    },
    /// `same_locals_1_stack_item_frame` (types 64–127).
    SameLocals1StackItem {
        /// `offset_delta`, below 64.
        offset_delta: u16,
        /// The one stack item.
        stack: VerificationType,
    },
    /// `same_locals_1_stack_item_frame_extended` (type 247).
    SameLocals1StackItemExtended {
        /// `offset_delta`.
        offset_delta: u16,
        /// The one stack item.
        stack: VerificationType,
    },
    /// `chop_frame` (types 248–250).
    Chop {
        /// `offset_delta`.
        offset_delta: u16,
        /// How many locals are removed, 1–3.
        chopped: u8,
    },
    /// `same_frame_extended` (type 251).
    SameExtended {
        /// `offset_delta`.
        offset_delta: u16,
    },
    /// `append_frame` (types 252–254).
    Append {
        /// `offset_delta`.
        offset_delta: u16,
        /// The 1–3 added locals.
        locals: Vec<VerificationType>,
    },
    /// `full_frame` (type 255).
    Full {
        /// `offset_delta`.
        offset_delta: u16,
        /// All locals.
        locals: Vec<VerificationType>,
        /// The operand stack, bottom first.
        stack: Vec<VerificationType>,
    },
}

impl StackMapFrame {
    /// The frame's `offset_delta`.
    pub fn offset_delta(&self) -> u16 {
        match *self {
            StackMapFrame::Same { offset_delta }
            | StackMapFrame::SameLocals1StackItem { offset_delta, .. }
            | StackMapFrame::SameLocals1StackItemExtended { offset_delta, .. }
            | StackMapFrame::Chop { offset_delta, .. }
            | StackMapFrame::SameExtended { offset_delta }
            | StackMapFrame::Append { offset_delta, .. }
            | StackMapFrame::Full { offset_delta, .. } => offset_delta,
        }
    }

    fn parse(r: &mut Reader<'_>) -> Result<Self> {
        let offset = r.offset();
        let frame_type = r.u1("frame_type")?;
        let delta = |r: &mut Reader<'_>| r.u2("offset_delta");
        Ok(match frame_type {
            0..=63 => StackMapFrame::Same {
                offset_delta: u16::from(frame_type),
            },
            64..=127 => StackMapFrame::SameLocals1StackItem {
                offset_delta: u16::from(frame_type - 64),
                stack: VerificationType::parse(r)?,
            },
            247 => StackMapFrame::SameLocals1StackItemExtended {
                offset_delta: delta(r)?,
                stack: VerificationType::parse(r)?,
            },
            248..=250 => StackMapFrame::Chop {
                offset_delta: delta(r)?,
                chopped: 251 - frame_type,
            },
            251 => StackMapFrame::SameExtended {
                offset_delta: delta(r)?,
            },
            252..=254 => {
                let offset_delta = delta(r)?;
                let locals = (0..frame_type - 251)
                    .map(|_| VerificationType::parse(r))
                    .collect::<Result<_>>()?;
                StackMapFrame::Append { offset_delta, locals }
            }
            255 => {
                let offset_delta = delta(r)?;
                let locals = parse_types(r, "number_of_locals")?;
                let stack = parse_types(r, "number_of_stack_items")?;
                StackMapFrame::Full {
                    offset_delta,
                    locals,
                    stack,
                }
            }
            _ => {
                return Err(ClassFileError::InvalidValue {
                    item: "frame_type (reserved)",
                    value: u32::from(frame_type),
                    offset,
                })
            }
        })
    }

    /// Appends the frame. A `Same` or `SameLocals1StackItem` whose delta
    /// does not fit the compact form is written in its extended form.
    fn encode(&self, out: &mut Vec<u8>) {
        match self {
            StackMapFrame::Same { offset_delta } if *offset_delta < 64 => out.put_u1(*offset_delta as u8),
            StackMapFrame::Same { offset_delta } | StackMapFrame::SameExtended { offset_delta } => {
                out.put_u1(251);
                out.put_u2(*offset_delta);
            }
            StackMapFrame::SameLocals1StackItem { offset_delta, stack } if *offset_delta < 64 => {
                out.put_u1(64 + *offset_delta as u8);
                stack.encode(out);
            }
            StackMapFrame::SameLocals1StackItem { offset_delta, stack }
            | StackMapFrame::SameLocals1StackItemExtended { offset_delta, stack } => {
                out.put_u1(247);
                out.put_u2(*offset_delta);
                stack.encode(out);
            }
            StackMapFrame::Chop {
                offset_delta,
                chopped,
            } => {
                out.put_u1(251 - chopped);
                out.put_u2(*offset_delta);
            }
            StackMapFrame::Append { offset_delta, locals } => {
                out.put_u1(251 + locals.len() as u8);
                out.put_u2(*offset_delta);
                locals.iter().for_each(|t| t.encode(out));
            }
            StackMapFrame::Full {
                offset_delta,
                locals,
                stack,
            } => {
                out.put_u1(255);
                out.put_u2(*offset_delta);
                put_count(out, locals.len());
                locals.iter().for_each(|t| t.encode(out));
                put_count(out, stack.len());
                stack.iter().for_each(|t| t.encode(out));
            }
        }
    }
}

fn parse_types(r: &mut Reader<'_>, item: &'static str) -> Result<Vec<VerificationType>> {
    let count = r.count_u2(item, 1)?;
    (0..count).map(|_| VerificationType::parse(r)).collect()
}

/// `StackMapTable`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StackMapTable {
    /// The frames, in file order.
    pub frames: Vec<StackMapFrame>,
}

impl<'a> AttributeInfo<'a> for StackMapTable {
    fn parse(r: &mut Reader<'a>, _: &ConstantPool<'a>) -> Result<Self> {
        let count = r.count_u2("number_of_entries", 1)?;
        let frames = (0..count)
            .map(|_| StackMapFrame::parse(r))
            .collect::<Result<_>>()?;
        Ok(StackMapTable { frames })
    }

    fn encode(&self, out: &mut Vec<u8>) {
        put_count(out, self.frames.len());
        for frame in &self.frames {
            frame.encode(out);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::minimal_class;
    use crate::ClassFile;

    fn round_trip(info: &[u8]) -> StackMapTable {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let mut r = Reader::new(info, 0);
        let table = StackMapTable::parse(&mut r, &class.constant_pool).unwrap();
        assert!(r.is_at_end());
        let mut out = Vec::new();
        table.encode(&mut out);
        assert_eq!(out, info);
        table
    }

    #[test]
    fn every_frame_kind_round_trips() {
        let table = round_trip(&[
            0,
            7, // 7 frames
            5, // same_frame, delta 5
            64 + 3,
            1, // same_locals_1_stack_item, Integer
            247,
            0,
            200,
            7,
            0,
            4, // extended, Object #4
            249,
            0,
            10, // chop 2
            251,
            0,
            3, // same_frame_extended with a small delta, as some compilers write
            253,
            0,
            1,
            4,
            3, // append Long, Double
            255,
            0,
            2,
            0,
            2,
            6,
            8,
            0,
            12,
            0,
            1,
            5, // full: [UninitializedThis, Uninitialized(12)], [Null]
        ]);
        assert_eq!(table.frames[4], StackMapFrame::SameExtended { offset_delta: 3 });
        assert_eq!(
            table.frames[6],
            StackMapFrame::Full {
                offset_delta: 2,
                locals: vec![
                    VerificationType::UninitializedThis,
                    VerificationType::Uninitialized(12)
                ],
                stack: vec![VerificationType::Null],
            }
        );
    }

    #[test]
    fn reserved_frame_types_are_rejected() {
        let class_bytes = minimal_class(52);
        let class = ClassFile::parse(&class_bytes).unwrap();
        let err =
            StackMapTable::parse(&mut Reader::new(&[0, 1, 128], 0x20), &class.constant_pool).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::InvalidValue {
                value: 128,
                offset: 0x22,
                ..
            }
        ));
    }

    #[test]
    fn large_deltas_fall_back_to_extended_forms() {
        let mut out = Vec::new();
        StackMapFrame::Same { offset_delta: 300 }.encode(&mut out);
        assert_eq!(out, [251, 1, 44]);
    }
}
