//! Round trips: parse a class, write it back, compare the bytes. This is
//! how JP proves its class-file model lossless over whole corpora.

use std::fmt;

use jp_bytecode::{BytecodeError, MethodBody};
use jp_classfile::attributes::{names, AttributeInfo, Code};
use jp_classfile::{deep, mutf8, AttributeOut, ClassFile, ClassFileError, ClassWriter, MemberOut};
use rayon::prelude::*;

use crate::input::Entry;

/// How a class is written back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Mode {
    /// The production path: the original constant pool, members and
    /// attributes are copied as they are.
    #[default]
    Lazy,
    /// Everything is re-encoded from the typed model (see
    /// [`jp_classfile::deep`]); this tests every parser and encoder.
    Deep,
    /// Every method body is decoded into labelled instructions and laid
    /// out again (see [`jp_bytecode::MethodBody`]); this tests the
    /// bytecode layer. Code that a compiler wrote in a non-shortest form
    /// (`ldc_w` of a small index, say) comes back shorter and differs.
    Code,
}

/// What happened to one class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Written back byte for byte.
    Identical,
    /// Written back differently.
    Differs {
        /// Offset of the first differing byte.
        first_difference: usize,
        /// Length of the input.
        original_len: usize,
        /// Length of the output.
        written_len: usize,
    },
    /// Could not be parsed or written.
    Failed(RoundtripError),
}

/// Why a class could not be round-tripped.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RoundtripError {
    /// The class file layer refused it.
    #[error(transparent)]
    ClassFile(#[from] ClassFileError),
    /// A method body could not be decoded or laid out.
    #[error("method {method}")]
    Code {
        /// `name(descriptor)`.
        method: String,
        /// What went wrong.
        #[source]
        source: BytecodeError,
    },
}

/// The class with every method body decoded and encoded again.
fn reencode_code(class: &ClassFile<'_>) -> Result<Vec<u8>, RoundtripError> {
    let mut writer = ClassWriter::new(class);
    for (i, method) in class.methods.iter().enumerate() {
        let Some(raw) = method.attribute(names::CODE) else {
            continue;
        };
        let info = Code::from_raw(raw, &class.constant_pool)
            .map_err(BytecodeError::from)
            .and_then(|code| MethodBody::open(class, method, &code)?.encode(&mut writer.constant_pool))
            .map_err(|source| RoundtripError::Code {
                method: format!(
                    "{}{}",
                    mutf8::to_str_lossy(method.name),
                    mutf8::to_str_lossy(method.descriptor)
                ),
                source,
            })?;
        let attributes = method
            .attributes
            .iter()
            .map(|a| match a.name {
                names::CODE => AttributeOut::Built {
                    name_index: a.name_index,
                    info: info.clone(),
                },
                _ => AttributeOut::Verbatim(*a),
            })
            .collect();
        writer.methods[i] = MemberOut::Built {
            access_flags: method.access_flags,
            name_index: method.name_index,
            descriptor_index: method.descriptor_index,
            attributes,
        };
    }
    Ok(writer.to_bytes()?)
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Identical => f.write_str("identical"),
            Outcome::Differs {
                first_difference,
                original_len,
                written_len,
            } => write!(
                f,
                "differs from offset {first_difference:#x} (input {original_len} bytes, output {written_len} bytes)"
            ),
            Outcome::Failed(error) => f.write_str(&crate::error::chain(error)),
        }
    }
}

/// Parses `bytes` and writes them back in `mode`.
pub fn roundtrip_class(bytes: &[u8], mode: Mode) -> Outcome {
    let written = ClassFile::parse(bytes)
        .map_err(RoundtripError::from)
        .and_then(|class| match mode {
            Mode::Lazy => Ok(ClassWriter::new(&class).to_bytes()?),
            Mode::Deep => Ok(deep::reencode(&class)?),
            Mode::Code => reencode_code(&class),
        });
    match written {
        Err(error) => Outcome::Failed(error),
        Ok(written) if written == bytes => Outcome::Identical,
        Ok(written) => Outcome::Differs {
            first_difference: bytes
                .iter()
                .zip(&written)
                .position(|(a, b)| a != b)
                .unwrap_or(bytes.len().min(written.len())),
            original_len: bytes.len(),
            written_len: written.len(),
        },
    }
}

/// Counts over many classes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// Classes seen.
    pub classes: usize,
    /// Written back identically.
    pub identical: usize,
    /// Written back differently.
    pub differ: usize,
    /// Failed to parse or write (and unreadable inputs).
    pub failed: usize,
}

impl Summary {
    /// Adds one outcome.
    pub fn record(&mut self, outcome: &Outcome) {
        self.classes += 1;
        match outcome {
            Outcome::Identical => self.identical += 1,
            Outcome::Differs { .. } => self.differ += 1,
            Outcome::Failed(_) => self.failed += 1,
        }
    }

    /// Counts an input or archive entry that could not be read at all as
    /// one failed class.
    pub fn record_unreadable(&mut self) {
        self.classes += 1;
        self.failed += 1;
    }

    /// Whether every class came back identical.
    pub fn is_clean(&self) -> bool {
        self.differ == 0 && self.failed == 0
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "roundtrip: {} classes, {} identical, {} differ, {} failed",
            self.classes, self.identical, self.differ, self.failed
        )
    }
}

/// Round-trips every class entry of `entries` in parallel, returning the
/// outcomes in input order.
pub fn roundtrip_entries(entries: &[Entry], mode: Mode) -> Vec<Outcome> {
    entries
        .par_iter()
        .map(|entry| roundtrip_class(&entry.bytes, mode))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn garbage_fails_with_the_parse_error() {
        let outcome = roundtrip_class(b"\xCA\xFE\xBA\xBE\x00", Mode::Lazy);
        assert!(matches!(
            outcome,
            Outcome::Failed(RoundtripError::ClassFile(ClassFileError::Truncated { .. }))
        ));
        assert!(outcome.to_string().starts_with("truncated minor_version"));
    }

    #[test]
    fn summary_line_has_the_documented_shape() {
        let mut summary = Summary::default();
        summary.record(&Outcome::Identical);
        summary.record(&Outcome::Failed(ClassFileError::ConstantPoolFull.into()));
        assert_eq!(
            summary.to_string(),
            "roundtrip: 2 classes, 1 identical, 0 differ, 1 failed"
        );
        assert!(!summary.is_clean());
    }
}
