//! Verifier frames in expanded form (JVMS §4.10.1): the types of every
//! local and stack entry at a position, with class types named rather than
//! indexed, so frames from the table and frames JP computes compare
//! directly. Conversion to and from the compressed `StackMapTable` lives
//! here too.
//!
//! Locals are kept in the table's *entry* form: a `long` or `double` is
//! one entry that stands for two slots. [`to_slots`] and [`from_slots`]
//! convert when a slot index matters.

use std::borrow::Borrow;
use std::sync::Arc;

use jp_classfile::attributes::{StackMapFrame, StackMapTable, VerificationType};
use jp_classfile::{ConstantPool, PoolBuilder};

use crate::descriptor::{FieldType, MethodDescriptor};
use crate::error::{BytecodeError, Result};
use crate::insn::Slot;
use crate::label::{Label, Pc};

/// A class name as it appears in a `Class` constant: an internal name, or
/// an array descriptor.
pub type ClassName = Arc<[u8]>;

/// A verification type with classes named, and `Uninitialized` pointing at
/// the label of its `new`.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum VType {
    /// Unusable or unknown.
    Top,
    /// `int` and the smaller integer types.
    Integer,
    /// `float`.
    Float,
    /// `long`: one entry, two slots.
    Long,
    /// `double`: one entry, two slots.
    Double,
    /// `null`.
    Null,
    /// `this` in a constructor before `super(...)`/`this(...)`.
    UninitializedThis,
    /// An initialised reference of the named class.
    Object(ClassName),
    /// The result of the `new` at this label, not yet initialised.
    Uninitialized(Label),
}

impl VType {
    /// The type of a value of field type `field` once on the stack or in a local.
    pub fn of_field(field: FieldType<'_>) -> VType {
        match field {
            FieldType::Byte | FieldType::Char | FieldType::Short | FieldType::Boolean | FieldType::Int => {
                VType::Integer
            }
            FieldType::Float => VType::Float,
            FieldType::Long => VType::Long,
            FieldType::Double => VType::Double,
            FieldType::Object(name) | FieldType::Array(name) => VType::Object(name.into()),
        }
    }

    /// Whether the type takes two slots.
    pub fn is_category2(&self) -> bool {
        matches!(self, VType::Long | VType::Double)
    }

    fn from_verification(t: VerificationType, pool: &ConstantPool<'_>) -> Result<VType> {
        Ok(match t {
            VerificationType::Top => VType::Top,
            VerificationType::Integer => VType::Integer,
            VerificationType::Float => VType::Float,
            VerificationType::Long => VType::Long,
            VerificationType::Double => VType::Double,
            VerificationType::Null => VType::Null,
            VerificationType::UninitializedThis => VType::UninitializedThis,
            VerificationType::Object(index) => VType::Object(pool.class_name(index)?.into()),
            VerificationType::Uninitialized(pc) => VType::Uninitialized(Label::original(Pc(u32::from(pc)))),
        })
    }

    fn to_verification(
        &self,
        pool: &mut PoolBuilder<'_>,
        pc_of: &impl Fn(Label) -> Result<u16>,
    ) -> Result<VerificationType> {
        Ok(match self {
            VType::Top => VerificationType::Top,
            VType::Integer => VerificationType::Integer,
            VType::Float => VerificationType::Float,
            VType::Long => VerificationType::Long,
            VType::Double => VerificationType::Double,
            VType::Null => VerificationType::Null,
            VType::UninitializedThis => VerificationType::UninitializedThis,
            VType::Object(name) => VerificationType::Object(pool.add_class_raw(name)?),
            VType::Uninitialized(label) => VerificationType::Uninitialized(pc_of(*label)?),
        })
    }
}

/// The types of the locals and the operand stack at one position.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Frame {
    /// Locals, in entry form (see the module docs).
    pub locals: Vec<VType>,
    /// The operand stack, bottom first.
    pub stack: Vec<VType>,
}

impl Frame {
    /// The implicit frame at a method's entry (JVMS §4.10.1.6).
    ///
    /// # Errors
    /// A malformed descriptor.
    pub fn initial(
        class_name: &[u8],
        method_name: &[u8],
        descriptor: &[u8],
        is_static: bool,
    ) -> Result<Frame> {
        let descriptor = MethodDescriptor::parse(descriptor)?;
        let mut locals = Vec::with_capacity(descriptor.parameters.len() + 1);
        if !is_static {
            locals.push(if method_name == b"<init>" && class_name != b"java/lang/Object" {
                VType::UninitializedThis
            } else {
                VType::Object(class_name.into())
            });
        }
        locals.extend(descriptor.parameters.iter().map(|&p| VType::of_field(p)));
        Ok(Frame {
            locals,
            stack: Vec::new(),
        })
    }
}

/// Locals in slot form: a `long` or `double` is followed by a `Top` for
/// its second slot.
pub fn to_slots(locals: &[VType]) -> Vec<VType> {
    let mut slots = Vec::with_capacity(locals.len() + 2);
    for local in locals {
        slots.push(local.clone());
        if local.is_category2() {
            slots.push(VType::Top);
        }
    }
    slots
}

/// Locals back in entry form, with trailing `Top`s dropped (a frame lists
/// only the locals that matter; the rest are `Top`).
pub fn from_slots(slots: &[VType]) -> Vec<VType> {
    let mut locals = Vec::with_capacity(slots.len());
    let mut i = 0;
    while i < slots.len() {
        let local = slots[i].clone();
        i += if local.is_category2() { 2 } else { 1 };
        locals.push(local);
    }
    while locals.last() == Some(&VType::Top) {
        locals.pop();
    }
    locals
}

/// `locals` with slot `slot` set to `vtype` (padding with `Top` below it,
/// and clearing a wide value that the new one overlaps).
pub fn with_local(locals: &[VType], slot: Slot, vtype: &VType) -> Vec<VType> {
    let slot = usize::from(slot.0);
    let used: usize = locals.iter().map(|l| if l.is_category2() { 2 } else { 1 }).sum();
    if slot >= used && *vtype != VType::Top {
        // The common case of a new local past the declared ones: appended
        // after `Top`s, without a round trip through slots.
        let mut out = Vec::with_capacity(locals.len() + slot - used + 1);
        out.extend_from_slice(locals);
        out.resize(locals.len() + slot - used, VType::Top);
        out.push(vtype.clone());
        return out;
    }
    let mut slots = to_slots(locals);
    let width = if vtype.is_category2() { 2 } else { 1 };
    if slots.len() < slot + width {
        slots.resize(slot + width, VType::Top);
    }
    if slot > 0 && slots[slot - 1].is_category2() {
        slots[slot - 1] = VType::Top;
    }
    slots[slot] = vtype.clone();
    if width == 2 {
        slots[slot + 1] = VType::Top;
    }
    from_slots(&slots)
}

/// Expands a `StackMapTable` into frames at absolute pcs.
///
/// # Errors
/// Constant-pool errors, chops past the start of the locals, and offsets
/// past the 16-bit pc range.
pub fn expand(table: &StackMapTable, initial: &Frame, pool: &ConstantPool<'_>) -> Result<Vec<(Pc, Frame)>> {
    let convert = |types: &[VerificationType]| -> Result<Vec<VType>> {
        types.iter().map(|&t| VType::from_verification(t, pool)).collect()
    };
    let mut frames = Vec::with_capacity(table.frames.len());
    let mut previous = initial.clone();
    let mut pc: i64 = -1;
    for frame in &table.frames {
        pc += i64::from(frame.offset_delta()) + 1;
        let locals = match frame {
            StackMapFrame::Same { .. }
            | StackMapFrame::SameExtended { .. }
            | StackMapFrame::SameLocals1StackItem { .. }
            | StackMapFrame::SameLocals1StackItemExtended { .. } => previous.locals.clone(),
            StackMapFrame::Chop { chopped, .. } => {
                let keep = previous.locals.len().checked_sub(usize::from(*chopped)).ok_or(
                    BytecodeError::BadFrame {
                        pc: Pc(pc as u32),
                        reason: "chop_frame removes more locals than there are",
                    },
                )?;
                previous.locals[..keep].to_vec()
            }
            StackMapFrame::Append { locals, .. } => {
                let mut all = previous.locals.clone();
                all.extend(convert(locals)?);
                all
            }
            StackMapFrame::Full { locals, .. } => convert(locals)?,
        };
        let stack = match frame {
            StackMapFrame::SameLocals1StackItem { stack, .. }
            | StackMapFrame::SameLocals1StackItemExtended { stack, .. } => convert(&[*stack])?,
            StackMapFrame::Full { stack, .. } => convert(stack)?,
            _ => Vec::new(),
        };
        let current = Frame { locals, stack };
        frames.push((Pc(pc as u32), current.clone()));
        previous = current;
    }
    Ok(frames)
}

/// Compresses frames at increasing offsets into a `StackMapTable`, picking
/// the shortest form for each. Class types get `Class` constants (existing
/// ones are reused); `pc_of` gives the offset of an `Uninitialized` label.
///
/// # Errors
/// A constant pool that is full; offsets that do not increase; whatever
/// `pc_of` returns.
pub fn compress<'f>(
    frames: &'f [(u16, impl Borrow<Frame>)],
    initial: &'f Frame,
    pool: &mut PoolBuilder<'_>,
    pc_of: &impl Fn(Label) -> Result<u16>,
) -> Result<StackMapTable> {
    let mut out = Vec::with_capacity(frames.len());
    let mut previous_locals: &[VType] = &initial.locals;
    let mut previous_pc: i32 = -1;
    for (pc, frame) in frames {
        let frame: &'f Frame = frame.borrow();
        let delta = i32::from(*pc) - previous_pc - 1;
        let offset_delta = u16::try_from(delta).map_err(|_| BytecodeError::BadFrame {
            pc: Pc(u32::from(*pc)),
            reason: "frames are not in increasing pc order",
        })?;
        let mut convert = |types: &[VType]| -> Result<Vec<VerificationType>> {
            // Sized up front: collecting through `Result` would grow the vector step by step.
            let mut converted = Vec::with_capacity(types.len());
            for t in types {
                converted.push(t.to_verification(pool, pc_of)?);
            }
            Ok(converted)
        };
        let locals = &frame.locals;
        let same_locals = locals.as_slice() == previous_locals;
        let compressed = match frame.stack.len() {
            0 if same_locals => StackMapFrame::Same { offset_delta },
            1 if same_locals => StackMapFrame::SameLocals1StackItem {
                offset_delta,
                stack: convert(&frame.stack)?[0],
            },
            0 if locals.len() < previous_locals.len()
                && previous_locals.len() - locals.len() <= 3
                && previous_locals.starts_with(locals) =>
            {
                StackMapFrame::Chop {
                    offset_delta,
                    chopped: (previous_locals.len() - locals.len()) as u8,
                }
            }
            0 if locals.len() > previous_locals.len()
                && locals.len() - previous_locals.len() <= 3
                && locals.starts_with(previous_locals) =>
            {
                StackMapFrame::Append {
                    offset_delta,
                    locals: convert(&locals[previous_locals.len()..])?,
                }
            }
            _ => StackMapFrame::Full {
                offset_delta,
                locals: convert(locals)?,
                stack: convert(&frame.stack)?,
            },
        };
        out.push(compressed);
        previous_locals = locals;
        previous_pc = i32::from(*pc);
    }
    Ok(StackMapTable { frames: out })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn object(name: &str) -> VType {
        VType::Object(name.as_bytes().into())
    }

    #[test]
    fn the_initial_frame_follows_the_descriptor() {
        let frame = Frame::initial(b"a/B", b"<init>", b"(JLjava/lang/String;[I)V", false).unwrap();
        assert_eq!(
            frame.locals,
            [
                VType::UninitializedThis,
                VType::Long,
                object("java/lang/String"),
                object("[I")
            ]
        );
        let frame = Frame::initial(b"java/lang/Object", b"<init>", b"()V", false).unwrap();
        assert_eq!(frame.locals, [object("java/lang/Object")]);
        let frame = Frame::initial(b"a/B", b"m", b"(D)V", true).unwrap();
        assert_eq!(frame.locals, [VType::Double]);
    }

    #[test]
    fn slot_form_gives_wide_types_two_slots() {
        let locals = vec![VType::Integer, VType::Long, object("x")];
        let slots = to_slots(&locals);
        assert_eq!(slots, [VType::Integer, VType::Long, VType::Top, object("x")]);
        assert_eq!(from_slots(&slots), locals);
        assert_eq!(
            from_slots(&[VType::Integer, VType::Top, VType::Top]),
            [VType::Integer]
        );
    }
}
