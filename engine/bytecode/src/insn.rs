//! Instructions with symbolic branch targets (JVMS §6.5): decoding a
//! `code` array into them, and encoding them back once a layout has placed
//! every label.

mod decode;
mod encode;

use jp_classfile::CpIndex;

use crate::label::Label;
use crate::opcode as op;

pub(crate) use decode::with_pcs;
pub use decode::{decode, Counts, Decoded};
pub(crate) use encode::{encode, size};

/// A local-variable slot (JVMS §2.6.1); a `long` or `double` takes two.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Slot(pub u16);

/// One instruction. Short forms are normalised away: `iload_1` is
/// `Local { opcode: ILOAD, index: Slot(1) }`, `goto_w` is a `Branch` with
/// `GOTO`, `ldc_w` is an `Ldc`. Encoding picks the shortest form again.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Insn {
    /// A position marker, not an instruction.
    Label(Label),
    /// An instruction without operands.
    Plain(u8),
    /// A load, store or `ret` of a local variable.
    Local {
        /// One of `ILOAD..=ALOAD`, `ISTORE..=ASTORE`, `RET`.
        opcode: u8,
        /// The local variable.
        index: Slot,
    },
    /// `iinc`.
    Iinc {
        /// The local variable.
        index: Slot,
        /// The increment.
        delta: i16,
    },
    /// `bipush`.
    Bipush(i8),
    /// `sipush`.
    Sipush(i16),
    /// `ldc`, `ldc_w` or `ldc2_w`.
    Ldc {
        /// The loadable constant.
        index: CpIndex,
        /// Whether it is a `long` or `double` (`ldc2_w`).
        category2: bool,
    },
    /// An instruction whose operand is a constant-pool reference: field
    /// access, `invokevirtual`/`special`/`static`, `new`, `anewarray`,
    /// `checkcast`, `instanceof`.
    Ref {
        /// The opcode.
        opcode: u8,
        /// The referenced constant.
        index: CpIndex,
    },
    /// `invokeinterface`.
    InvokeInterface {
        /// The `InterfaceMethodref`.
        index: CpIndex,
        /// The `count` operand (argument slots plus one).
        count: u8,
    },
    /// `invokedynamic`.
    InvokeDynamic {
        /// The `InvokeDynamic` constant.
        index: CpIndex,
    },
    /// `newarray`.
    NewArray(u8),
    /// `multianewarray`.
    MultiANewArray {
        /// The array class.
        index: CpIndex,
        /// Dimensions to create.
        dimensions: u8,
    },
    /// A conditional branch, `goto` or `jsr` (and their wide forms).
    Branch {
        /// `IFEQ..=JSR`, `IFNULL` or `IFNONNULL`.
        opcode: u8,
        /// Where it goes.
        target: Label,
    },
    /// `tableswitch`.
    TableSwitch {
        /// Target for keys outside the range.
        default: Label,
        /// The lowest key.
        low: i32,
        /// Targets for `low, low+1, …`.
        targets: Vec<Label>,
    },
    /// `lookupswitch`.
    LookupSwitch {
        /// Target for keys not listed.
        default: Label,
        /// Sorted keys and their targets.
        pairs: Vec<(i32, Label)>,
    },
}

impl Insn {
    /// The opcode this instruction is written with in its normal form, or
    /// `None` for a label.
    pub fn opcode(&self) -> Option<u8> {
        Some(match *self {
            Insn::Label(_) => return None,
            Insn::Plain(opcode)
            | Insn::Local { opcode, .. }
            | Insn::Ref { opcode, .. }
            | Insn::Branch { opcode, .. } => opcode,
            Insn::Iinc { .. } => op::IINC,
            Insn::Bipush(_) => op::BIPUSH,
            Insn::Sipush(_) => op::SIPUSH,
            Insn::Ldc { category2: true, .. } => op::LDC2_W,
            Insn::Ldc { .. } => op::LDC,
            Insn::InvokeInterface { .. } => op::INVOKEINTERFACE,
            Insn::InvokeDynamic { .. } => op::INVOKEDYNAMIC,
            Insn::NewArray(_) => op::NEWARRAY,
            Insn::MultiANewArray { .. } => op::MULTIANEWARRAY,
            Insn::TableSwitch { .. } => op::TABLESWITCH,
            Insn::LookupSwitch { .. } => op::LOOKUPSWITCH,
        })
    }

    /// Every label this instruction may transfer control to.
    pub fn targets(&self) -> impl Iterator<Item = Label> + '_ {
        let (first, labels, pairs): (Option<Label>, &[Label], &[(i32, Label)]) = match self {
            Insn::Branch { target, .. } => (Some(*target), &[], &[]),
            Insn::TableSwitch { default, targets, .. } => (Some(*default), targets, &[]),
            Insn::LookupSwitch { default, pairs } => (Some(*default), &[], pairs),
            _ => (None, &[], &[]),
        };
        first
            .into_iter()
            .chain(labels.iter().copied())
            .chain(pairs.iter().map(|&(_, label)| label))
    }

    /// Whether this instruction may transfer control elsewhere than to the
    /// next one (a branch or a switch).
    pub fn has_targets(&self) -> bool {
        matches!(
            self,
            Insn::Branch { .. } | Insn::TableSwitch { .. } | Insn::LookupSwitch { .. }
        )
    }

    /// Whether control never continues to the next instruction.
    pub fn ends_flow(&self) -> bool {
        self.opcode().is_some_and(op::is_unconditional_transfer)
    }
}

/// The bytes between a switch opcode at `pc` and its 4-aligned operands
/// (JVMS §6.5.tableswitch).
fn switch_padding(pc: u32) -> u32 {
    (4 - (pc + 1) % 4) % 4
}
