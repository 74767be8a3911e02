//! JVM bytecode with symbolic labels: decoding a method's code into
//! instructions, editing it (inserting code at entry, at block starts and
//! before chosen instructions, adding locals), and encoding it back with a
//! layout that widens branches and re-pads switches until it is stable,
//! while keeping every offset-bearing table and the StackMapTable valid.
//!
//! The class-file layer ([`jp_classfile`]) owns the bytes; this crate owns
//! the meaning of `code`. Instrumentation schemes live in the instrument
//! crate and use [`MethodBody`].
#![deny(missing_docs)]

pub mod body;
pub mod descriptor;
mod error;
pub mod frame;
pub mod insn;
mod label;
mod layout;
pub mod opcode;
pub mod simulate;

pub use body::MethodBody;
pub use error::{BytecodeError, Result};
pub use frame::{Frame, VType};
pub use insn::{Insn, Slot};
pub use label::{Label, Pc};
