//! Errors of the bytecode layer. Pcs are decimal, as `javap -c` prints them.

use jp_classfile::ClassFileError;

use crate::label::{Label, Pc};
use crate::opcode::mnemonic;

/// What went wrong while decoding, editing or encoding a method's code.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum BytecodeError {
    /// An instruction runs past the end of the code.
    #[error("truncated instruction at pc {pc}")]
    Truncated {
        /// Its pc.
        pc: Pc,
    },
    /// An opcode the JVM does not define.
    #[error("invalid opcode {opcode:#04x} at pc {pc}")]
    InvalidOpcode {
        /// Where.
        pc: Pc,
        /// The byte found.
        opcode: u8,
    },
    /// A branch to a pc that is not the start of an instruction.
    #[error("branch at pc {pc} targets {target}, which is not an instruction")]
    BadBranchTarget {
        /// The branch's pc.
        pc: Pc,
        /// Its target.
        target: Pc,
    },
    /// A `tableswitch` with `low > high`, or a negative `lookupswitch` count.
    #[error("malformed switch at pc {pc}")]
    BadSwitch {
        /// Its pc.
        pc: Pc,
    },
    /// A table (exception table, debug tables, frames) refers to a pc that
    /// is not an instruction boundary.
    #[error("{item} refers to pc {pc}, which is not an instruction boundary")]
    BadPc {
        /// The table.
        item: &'static str,
        /// The pc found.
        pc: Pc,
    },
    /// A descriptor that JVMS §4.3 does not allow.
    #[error("malformed descriptor {descriptor:?}")]
    BadDescriptor {
        /// The descriptor, decoded lossily.
        descriptor: String,
    },
    /// More than 65535 local-variable slots.
    #[error("too many local variables (limit 65535)")]
    TooManyLocals,
    /// More than 65535 exception-table entries.
    #[error("too many exception handlers (limit 65535)")]
    TooManyHandlers,
    /// A label that the method body being edited did not make.
    #[error("{label} is not a label of this method")]
    ForeignLabel {
        /// The label.
        label: Label,
    },
    /// A label that code refers to but that no inserted code places.
    #[error("{label} is used but never placed in the code")]
    UnplacedLabel {
        /// The label.
        label: Label,
    },
    /// A new exception-table entry whose range does not run forward over
    /// original code.
    #[error("exception handler range {start}..{end} is not a range of original code")]
    BadHandlerRange {
        /// The range's first label.
        start: Label,
        /// The label after the range.
        end: Label,
    },
    /// The rewritten code would be longer than the JVM allows.
    #[error("code would be {length} bytes, over the limit of 65535")]
    CodeTooLarge {
        /// The length the code would have.
        length: usize,
    },
    /// A StackMapTable frame that cannot apply where it stands.
    #[error("frame at pc {pc}: {reason}")]
    BadFrame {
        /// Where.
        pc: Pc,
        /// Why.
        reason: &'static str,
    },
    /// A class-file-level error (constant pool, attributes).
    #[error(transparent)]
    ClassFile(#[from] ClassFileError),
    /// Simulating an instruction pops more than the stack holds.
    #[error("{at}: `{}` pops more than the stack holds", mnemonic(*.opcode))]
    StackUnderflow {
        /// The instruction's label.
        at: Label,
        /// Its opcode.
        opcode: u8,
    },
    /// An operand, on the stack or in a local, has the wrong category or
    /// kind for the instruction.
    #[error("{at}: `{}` expects {expected}", mnemonic(*.opcode))]
    OperandMismatch {
        /// The instruction's label.
        at: Label,
        /// Its opcode.
        opcode: u8,
        /// What it needs.
        expected: &'static str,
    },
    /// An `ldc`/`ldc2_w` of a constant that it cannot load.
    #[error("{at}: `{}` of constant #{index}, which is {found}; expected {expected}", mnemonic(*.opcode))]
    WrongConstantKind {
        /// The instruction's label.
        at: Label,
        /// Its opcode.
        opcode: u8,
        /// The constant's index.
        index: u16,
        /// What the constant is.
        found: &'static str,
        /// What the instruction can load.
        expected: &'static str,
    },
    /// A `newarray` type code outside JVMS Table 6.5.newarray-A.
    #[error("{at}: `newarray` of unknown array type {atype}")]
    BadArrayType {
        /// The instruction's label.
        at: Label,
        /// The type code found.
        atype: u8,
    },
    /// `jsr` or `ret`: frames cannot be simulated through subroutines.
    /// Only class files older than version 50 use them, and those have
    /// no frames.
    #[error("{at}: cannot simulate frames through the subroutine instruction `{}`", mnemonic(*.opcode))]
    Subroutine {
        /// The instruction's label.
        at: Label,
        /// `jsr` or `ret`.
        opcode: u8,
    },
    /// An [`Insn`](crate::Insn) variant holding an opcode that does not
    /// take that form (`Plain(BIPUSH)`, a `Local` with `IADD`).
    #[error("opcode {opcode:#04x} (`{}`) in an instruction form it does not take", mnemonic(*.opcode))]
    MalformedInsn {
        /// The opcode.
        opcode: u8,
    },
}

/// Shorthand for results of this crate.
pub type Result<T, E = BytecodeError> = std::result::Result<T, E>;
