//! Encoding of [`Insn`]s into a `code` array, in the shortest form that
//! fits, once the layout (`crate::layout`) knows every label's offset and
//! which branches need the wide form.

use jp_classfile::ByteSink;

use super::{switch_padding as padding, Insn, Slot};
use crate::error::Result;
use crate::label::Label;
use crate::opcode as op;

/// Appends `insn`, which starts at `out.len()`. A `wide` branch is written
/// as `goto_w`/`jsr_w`, or a conditional one as `if<!cond> +8; goto_w`.
/// `offset_of` gives the offset of a label.
///
/// # Errors
/// Whatever `offset_of` returns for a target.
pub(crate) fn encode(
    out: &mut Vec<u8>,
    insn: &Insn,
    wide: bool,
    offset_of: impl Fn(Label) -> Result<u32>,
) -> Result<()> {
    let at = out.len() as u32;
    let relative = |label: &Label| -> Result<i32> { Ok(offset_of(*label)? as i32 - at as i32) };
    match insn {
        Insn::Label(_) => {}
        Insn::Plain(opcode) => out.push(*opcode),
        Insn::Local { opcode, index } => encode_local(out, *opcode, *index),
        Insn::Iinc { index, delta } => {
            if let (Ok(index), Ok(delta)) = (u8::try_from(index.0), i8::try_from(*delta)) {
                out.extend_from_slice(&[op::IINC, index, delta as u8]);
            } else {
                out.extend_from_slice(&[op::WIDE, op::IINC]);
                out.put_u2(index.0);
                out.put_u2(*delta as u16);
            }
        }
        Insn::Bipush(value) => out.extend_from_slice(&[op::BIPUSH, *value as u8]),
        Insn::Sipush(value) => {
            out.push(op::SIPUSH);
            out.put_u2(*value as u16);
        }
        Insn::Ldc { index, category2 } => {
            if *category2 {
                out.push(op::LDC2_W);
                out.put_u2(index.0);
            } else if let Ok(small) = u8::try_from(index.0) {
                out.extend_from_slice(&[op::LDC, small]);
            } else {
                out.push(op::LDC_W);
                out.put_u2(index.0);
            }
        }
        Insn::Ref { opcode, index } => {
            out.push(*opcode);
            out.put_u2(index.0);
        }
        Insn::InvokeInterface { index, count } => {
            out.push(op::INVOKEINTERFACE);
            out.put_u2(index.0);
            out.extend_from_slice(&[*count, 0]);
        }
        Insn::InvokeDynamic { index } => {
            out.push(op::INVOKEDYNAMIC);
            out.put_u2(index.0);
            out.put_u2(0);
        }
        Insn::NewArray(atype) => out.extend_from_slice(&[op::NEWARRAY, *atype]),
        Insn::MultiANewArray { index, dimensions } => {
            out.push(op::MULTIANEWARRAY);
            out.put_u2(index.0);
            out.push(*dimensions);
        }
        Insn::Branch { opcode, target } => {
            if !wide {
                out.push(*opcode);
                out.put_u2(relative(target)? as i16 as u16);
            } else if let Some(negated) = op::negate_condition(*opcode) {
                out.push(negated);
                out.put_u2(8);
                out.push(op::GOTO_W);
                // Relative to the goto_w, 3 bytes in.
                out.put_u4((relative(target)? - 3) as u32);
            } else {
                out.push(if *opcode == op::JSR { op::JSR_W } else { op::GOTO_W });
                out.put_u4(relative(target)? as u32);
            }
        }
        Insn::TableSwitch {
            default,
            low,
            targets,
        } => {
            out.push(op::TABLESWITCH);
            pad(out);
            out.put_u4(relative(default)? as u32);
            out.put_u4(*low as u32);
            out.put_u4((*low as i64 + targets.len() as i64 - 1) as i32 as u32);
            for target in targets {
                out.put_u4(relative(target)? as u32);
            }
        }
        Insn::LookupSwitch { default, pairs } => {
            out.push(op::LOOKUPSWITCH);
            pad(out);
            out.put_u4(relative(default)? as u32);
            out.put_u4(pairs.len() as u32);
            for (key, target) in pairs {
                out.put_u4(*key as u32);
                out.put_u4(relative(target)? as u32);
            }
        }
    }
    Ok(())
}

/// The encoded size of `insn` at `offset` (switch padding depends on it),
/// in the form [`encode`] writes.
pub(crate) fn size(insn: &Insn, offset: u32, wide: bool) -> u32 {
    match insn {
        Insn::Label(_) => 0,
        Insn::Plain(_) => 1,
        Insn::Local { opcode, index } => match index.0 {
            0..=3 if *opcode != op::RET => 1,
            0..=255 => 2,
            _ => 4,
        },
        Insn::Iinc { index, delta } => {
            if index.0 <= 255 && i8::try_from(*delta).is_ok() {
                3
            } else {
                6
            }
        }
        Insn::Bipush(_) | Insn::NewArray(_) => 2,
        Insn::Sipush(_) | Insn::Ref { .. } => 3,
        Insn::Ldc { index, category2 } => {
            if !category2 && index.0 <= 255 {
                2
            } else {
                3
            }
        }
        Insn::InvokeInterface { .. } | Insn::InvokeDynamic { .. } => 5,
        Insn::MultiANewArray { .. } => 4,
        Insn::Branch { opcode, .. } => match (wide, op::negate_condition(*opcode).is_some()) {
            (false, _) => 3,
            (true, false) => 5,
            (true, true) => 8,
        },
        Insn::TableSwitch { targets, .. } => 1 + padding(offset) + 12 + 4 * targets.len() as u32,
        Insn::LookupSwitch { pairs, .. } => 1 + padding(offset) + 8 + 8 * pairs.len() as u32,
    }
}

fn pad(out: &mut Vec<u8>) {
    while out.len() % 4 != 0 {
        out.push(0);
    }
}

fn encode_local(out: &mut Vec<u8>, opcode: u8, index: Slot) {
    let short_base = match opcode {
        op::ILOAD..=op::ALOAD => Some(op::ILOAD_0 + (opcode - op::ILOAD) * 4),
        op::ISTORE..=op::ASTORE => Some(op::ISTORE_0 + (opcode - op::ISTORE) * 4),
        _ => None,
    };
    match (short_base, u8::try_from(index.0)) {
        (Some(base), Ok(small)) if small <= 3 => out.push(base + small),
        (_, Ok(small)) => out.extend_from_slice(&[opcode, small]),
        (_, Err(_)) => {
            out.extend_from_slice(&[op::WIDE, opcode]);
            out.put_u2(index.0);
        }
    }
}
