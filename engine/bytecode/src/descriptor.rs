//! Field and method descriptors (JVMS §4.3), read from raw modified UTF-8.

use crate::error::{BytecodeError, Result};

/// One field type of a descriptor.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType<'a> {
    /// `B`.
    Byte,
    /// `C`.
    Char,
    /// `D`.
    Double,
    /// `F`.
    Float,
    /// `I`.
    Int,
    /// `J`.
    Long,
    /// `S`.
    Short,
    /// `Z`.
    Boolean,
    /// `Lname;`: the internal name.
    Object(&'a [u8]),
    /// `[…`: the whole array descriptor, which is also its class name.
    Array(&'a [u8]),
}

impl<'a> FieldType<'a> {
    /// Reads one field type from the start of `bytes`, returning it and the
    /// rest.
    ///
    /// # Errors
    /// [`BytecodeError::BadDescriptor`] when `bytes` does not start with a
    /// field type.
    pub fn parse_prefix(bytes: &'a [u8]) -> Result<(Self, &'a [u8])> {
        let bad = || BytecodeError::BadDescriptor {
            descriptor: String::from_utf8_lossy(bytes).into_owned(),
        };
        let (&first, rest) = bytes.split_first().ok_or_else(bad)?;
        Ok(match first {
            b'B' => (FieldType::Byte, rest),
            b'C' => (FieldType::Char, rest),
            b'D' => (FieldType::Double, rest),
            b'F' => (FieldType::Float, rest),
            b'I' => (FieldType::Int, rest),
            b'J' => (FieldType::Long, rest),
            b'S' => (FieldType::Short, rest),
            b'Z' => (FieldType::Boolean, rest),
            b'L' => {
                let end = rest
                    .iter()
                    .position(|&b| b == b';')
                    .filter(|&e| e > 0)
                    .ok_or_else(bad)?;
                (FieldType::Object(&rest[..end]), &rest[end + 1..])
            }
            b'[' => {
                let dims = bytes.iter().take_while(|&&b| b == b'[').count();
                if dims > 255 {
                    return Err(bad());
                }
                let (_, after) = FieldType::parse_prefix(&bytes[dims..])?;
                let len = bytes.len() - after.len();
                (FieldType::Array(&bytes[..len]), after)
            }
            _ => return Err(bad()),
        })
    }

    /// Parses a whole field descriptor.
    ///
    /// # Errors
    /// When `bytes` is not exactly one field type.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        match FieldType::parse_prefix(bytes)? {
            (field, []) => Ok(field),
            _ => Err(BytecodeError::BadDescriptor {
                descriptor: String::from_utf8_lossy(bytes).into_owned(),
            }),
        }
    }

    /// Local-variable slots (and operand-stack words) the type takes.
    pub fn slots(&self) -> u16 {
        match self {
            FieldType::Long | FieldType::Double => 2,
            _ => 1,
        }
    }
}

/// A parsed method descriptor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MethodDescriptor<'a> {
    /// The parameter types, in order.
    pub parameters: Vec<FieldType<'a>>,
    /// The return type, `None` for `void`.
    pub return_type: Option<FieldType<'a>>,
}

impl<'a> MethodDescriptor<'a> {
    /// Parses `(params)ret`.
    ///
    /// # Errors
    /// [`BytecodeError::BadDescriptor`] for anything else.
    pub fn parse(bytes: &'a [u8]) -> Result<Self> {
        let mut parameters = Vec::new();
        let return_type = Self::walk(bytes, |parameter| parameters.push(parameter))?;
        Ok(MethodDescriptor {
            parameters,
            return_type,
        })
    }

    /// The slots that the parameters of `(params)ret` take (without
    /// `this`) and that its return value takes (0 for `void`), without
    /// collecting the parameters.
    ///
    /// # Errors
    /// As [`MethodDescriptor::parse`].
    pub fn slots(bytes: &'a [u8]) -> Result<(u16, u16)> {
        let mut parameters: u16 = 0;
        let return_type = Self::walk(bytes, |parameter| {
            parameters = parameters.saturating_add(parameter.slots());
        })?;
        Ok((parameters, return_type.map_or(0, |t| t.slots())))
    }

    /// Reads `(params)ret`, handing each parameter to `parameter` in order,
    /// and returns the return type (`None` for `void`).
    fn walk(bytes: &'a [u8], mut parameter: impl FnMut(FieldType<'a>)) -> Result<Option<FieldType<'a>>> {
        let bad = || BytecodeError::BadDescriptor {
            descriptor: String::from_utf8_lossy(bytes).into_owned(),
        };
        let mut rest = bytes.strip_prefix(b"(").ok_or_else(bad)?;
        while rest.first() != Some(&b')') {
            let (field, after) = FieldType::parse_prefix(rest).map_err(|_| bad())?;
            parameter(field);
            rest = after;
        }
        let rest = &rest[1..];
        if rest == b"V" {
            Ok(None)
        } else {
            Ok(Some(FieldType::parse(rest).map_err(|_| bad())?))
        }
    }

    /// Slots the parameters take (without `this`).
    pub fn parameter_slots(&self) -> u16 {
        self.parameters.iter().map(FieldType::slots).sum()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn method_descriptors_split_into_parameters_and_return_type() {
        let d = MethodDescriptor::parse(b"(IJ[Ljava/lang/String;Ljava/util/List;D)[[I").unwrap();
        assert_eq!(
            d.parameters,
            [
                FieldType::Int,
                FieldType::Long,
                FieldType::Array(b"[Ljava/lang/String;"),
                FieldType::Object(b"java/util/List"),
                FieldType::Double
            ]
        );
        assert_eq!(d.return_type, Some(FieldType::Array(b"[[I")));
        assert_eq!(d.parameter_slots(), 7);
        assert_eq!(MethodDescriptor::parse(b"()V").unwrap().return_type, None);
    }

    #[test]
    fn malformed_descriptors_are_errors() {
        for bad in [
            &b""[..],
            b"()",
            b"(L;)V",
            b"(Q)V",
            b"I",
            b"(I",
            b"()VV",
            b"(Ljava/lang/String)V",
        ] {
            assert!(
                MethodDescriptor::parse(bad).is_err(),
                "{:?}",
                String::from_utf8_lossy(bad)
            );
        }
    }
}
