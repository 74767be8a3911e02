//! JP's rewriting schemes over the bytecode layer: basic-block analysis
//! ([`blocks`]) and, for now, the `stress` scheme ([`stress`]) that
//! exercises every editing operation of the bytecode crate to prove that
//! rewritten classes stay valid and behave as before.
//!
//! A class or method that cannot be rewritten is kept as it was, with a
//! [`Warning`] naming it and the reason.
#![deny(missing_docs)]

pub mod blocks;
pub mod injected;
pub mod stress;

use std::fmt;

use jp_bytecode::BytecodeError;
use jp_classfile::ClassFileError;

/// Why a class could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum InstrumentError {
    /// The class file does not parse.
    #[error("malformed class file")]
    ClassFile(#[from] ClassFileError),
}

/// A method or class that was kept as it was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Warning {
    /// Internal name of the class.
    pub class: String,
    /// `name(descriptor)` of the method, if the warning is about one.
    pub method: Option<String>,
    /// Why it was kept.
    pub reason: WarningReason,
}

/// Why something was kept unrewritten.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WarningReason {
    /// The rewritten code would pass 65535 bytes.
    #[error("the rewritten method would have {length} bytes of code (limit 65535); kept as it was")]
    MethodTooLarge {
        /// The length it would have had.
        length: usize,
    },
    /// The method's code could not be analysed or rewritten.
    #[error("kept as it was: {0}")]
    Bytecode(BytecodeError),
    /// The class-level rewrite failed (for example, a full constant pool).
    #[error("class kept as it was: {0}")]
    Class(ClassFileError),
}

impl fmt::Display for Warning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.method {
            Some(method) => write!(f, "{}.{}: {}", self.class, method, self.reason),
            None => write!(f, "{}: {}", self.class, self.reason),
        }
    }
}

/// What a scheme did with one class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Rewritten {
    /// The new class file, or `None` when it is to be copied unchanged.
    pub bytes: Option<Vec<u8>>,
    /// Methods (or the class) kept as they were.
    pub warnings: Vec<Warning>,
}
