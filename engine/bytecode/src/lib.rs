//! JVM bytecode with symbolic labels: decoding a method's code into
//! instructions, editing it (inserting code at entry, at block starts and
//! before chosen instructions, adding locals), and encoding it back with a
//! layout that widens branches and re-pads switches until it is stable,
//! while keeping every offset-bearing table and the StackMapTable valid.
//!
//! The class-file layer ([`jp_classfile`]) owns the bytes; this crate owns
//! the meaning of `code`. Rewriting schemes live in the rewrite crate and
//! use [`MethodBody`]: they name original instructions by [`Pc`], locals by
//! [`Slot`], and positions in new code by [`Label`]s that the body makes.
//!
//! ```
//! use jp_bytecode::opcode as op;
//! use jp_bytecode::{Insn, MethodBody, Pc};
//! use jp_classfile::attributes::{names, AttributeInfo, Code};
//! use jp_classfile::{ClassFile, PoolBuilder};
//!
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../classfile/testdata/java8/AllInstructions.class");
//! let bytes = std::fs::read(path)?;
//! let class = ClassFile::parse(&bytes)?;
//! let method = class.methods.iter().find(|m| m.name == b"<init>").unwrap();
//! let code = Code::from_raw(method.attribute(names::CODE).unwrap(), &class.constant_pool)?;
//! let mut body = MethodBody::open(&class, method, &code)?;
//!
//! // A `nop` before every `return`.
//! let returns: Vec<Pc> = body
//!     .instructions()
//!     .filter(|(_, insn)| **insn == Insn::Plain(op::RETURN))
//!     .map(|(pc, _)| pc)
//!     .collect();
//! for &pc in &returns {
//!     body.insert_before(pc, vec![Insn::Plain(op::NOP)])?;
//! }
//! let mut pool = PoolBuilder::new(&class.constant_pool);
//! let info = body.encode(&mut pool)?; // the new `Code` attribute's contents
//! assert_eq!(info.len(), method.attribute(names::CODE).unwrap().info.len() + returns.len());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
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
