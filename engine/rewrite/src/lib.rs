//! JP's rewriting schemes over the bytecode layer: basic-block analysis
//! ([`blocks`]), the profiling scheme ([`profile`]), and the constructor
//! hook ([`hook`]), which makes a library's constructors hand each new
//! object to a static method. The test-only `stress` scheme builds on this
//! crate from `engine/stress`, outside what ships.
//!
//! A class or method that cannot be rewritten is kept as it was, with a
//! [`Warning`] naming it and the reason.
#![deny(missing_docs)]

pub mod blocks;
pub mod hook;
pub mod injected;
pub mod lines;
pub mod probe;
pub mod profile;
pub mod suid;

use std::fmt;

use jp_bytecode::BytecodeError;
use jp_classfile::attributes::names;
use jp_classfile::{AttributeOut, ClassFileError, Member, MemberOut};

/// Why a class could not be read at all.
#[derive(Debug, thiserror::Error)]
pub enum RewriteError {
    /// The class file does not parse.
    #[error("malformed class file")]
    ClassFile(#[from] ClassFileError),
    /// The class carries JP's marker: it is JP's own output.
    #[error("already instrumented by JP; instrument the compiler's output instead")]
    AlreadyInstrumented,
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
    /// Code the scheme does not handle.
    #[error("kept as it was: {what}")]
    Unsupported {
        /// What was found.
        what: String,
    },
}

impl From<BytecodeError> for WarningReason {
    fn from(error: BytecodeError) -> Self {
        match error {
            BytecodeError::CodeTooLarge { length } => WarningReason::MethodTooLarge { length },
            other => WarningReason::Bytecode(other),
        }
    }
}

impl From<ClassFileError> for WarningReason {
    fn from(error: ClassFileError) -> Self {
        WarningReason::Class(error)
    }
}

/// `method` as it will be written, with its `Code` attribute's contents
/// replaced by `info`.
pub fn with_code<'a>(method: &'a Member<'a>, info: &[u8]) -> MemberOut<'a> {
    with_code_and_descriptor(method, info, method.descriptor_index)
}

/// As [`with_code`], also changing the descriptor.
pub fn with_code_and_descriptor<'a>(
    method: &'a Member<'a>,
    info: &[u8],
    descriptor_index: jp_classfile::CpIndex,
) -> MemberOut<'a> {
    let attributes = method
        .attributes
        .iter()
        .map(|a| {
            if a.name == names::CODE {
                AttributeOut::Built {
                    name_index: a.name_index,
                    info: info.to_vec(),
                }
            } else {
                AttributeOut::Verbatim(*a)
            }
        })
        .collect();
    MemberOut::Built {
        access_flags: method.access_flags,
        name_index: method.name_index,
        descriptor_index,
        attributes,
    }
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
