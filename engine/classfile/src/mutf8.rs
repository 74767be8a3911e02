//! Modified UTF-8, the string encoding of `CONSTANT_Utf8` (JVMS §4.4.7).
//!
//! It differs from standard UTF-8 in two ways: U+0000 is written as the two
//! bytes `C0 80`, and a code point above U+FFFF is written as its UTF-16
//! surrogate pair, each surrogate as its own three-byte sequence. A Java
//! string may hold unpaired surrogates, which have no Rust `str` form, so
//! the exact decoding is to UTF-16 units ([`to_utf16`]). [`to_str`] gives a
//! Rust string for everything that is valid Unicode, borrowing when the
//! bytes are already standard UTF-8 (the common case for names).
//!
//! Decoding follows the JVMS formulas and accepts what HotSpot accepts:
//! bytes `01`–`7F`, two-byte sequences `110xxxxx 10xxxxxx` and three-byte
//! sequences `1110xxxx 10xxxxxx 10xxxxxx`. The bytes `00` and `F0`–`FF`
//! never appear.

use std::borrow::Cow;

/// Why a byte string is not modified UTF-8.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Mutf8Error {
    /// A byte that cannot start a sequence, or a sequence cut short.
    #[error("malformed modified UTF-8 at byte {position}")]
    Malformed {
        /// Position of the offending byte.
        position: usize,
    },
    /// A surrogate without its partner: legal in Java, but not in a Rust
    /// string. Use [`to_utf16`] for such strings.
    #[error("unpaired surrogate {unit:#06x} at byte {position}")]
    UnpairedSurrogate {
        /// The surrogate found.
        unit: u16,
        /// Position of its first byte.
        position: usize,
    },
}

impl Mutf8Error {
    /// Byte position of the problem in the string.
    pub fn position(&self) -> usize {
        match *self {
            Mutf8Error::Malformed { position } | Mutf8Error::UnpairedSurrogate { position, .. } => position,
        }
    }
}

/// Checks that `bytes` are modified UTF-8, without decoding them.
///
/// # Errors
/// [`Mutf8Error::Malformed`] at the first bad byte.
pub fn validate(bytes: &[u8]) -> Result<(), Mutf8Error> {
    if bytes.iter().all(|&b| (0x01..=0x7F).contains(&b)) {
        return Ok(());
    }
    let mut position = 0;
    while position < bytes.len() {
        position += decode_unit(bytes, position)?.1;
    }
    Ok(())
}

/// Decodes modified UTF-8 to UTF-16 units, exactly.
///
/// # Errors
/// [`Mutf8Error::Malformed`] when the bytes are not modified UTF-8.
pub fn to_utf16(bytes: &[u8]) -> Result<Vec<u16>, Mutf8Error> {
    let mut units = Vec::with_capacity(bytes.len());
    let mut position = 0;
    while position < bytes.len() {
        let (unit, len) = decode_unit(bytes, position)?;
        units.push(unit);
        position += len;
    }
    Ok(units)
}

/// Decodes the unit starting at `position`, returning it and its length.
fn decode_unit(bytes: &[u8], position: usize) -> Result<(u16, usize), Mutf8Error> {
    let malformed = Mutf8Error::Malformed { position };
    let continuation = |i: usize| match bytes.get(position + i) {
        Some(&b) if b & 0xC0 == 0x80 => Ok(u16::from(b & 0x3F)),
        _ => Err(malformed),
    };
    let lead = bytes[position];
    match lead {
        0x01..=0x7F => Ok((u16::from(lead), 1)),
        0xC0..=0xDF => Ok(((u16::from(lead & 0x1F) << 6) | continuation(1)?, 2)),
        0xE0..=0xEF => {
            let unit = (u16::from(lead & 0x0F) << 12) | (continuation(1)? << 6) | continuation(2)?;
            Ok((unit, 3))
        }
        _ => Err(malformed),
    }
}

/// Encodes UTF-16 units as modified UTF-8, exactly (the inverse of
/// [`to_utf16`] for canonically encoded input).
pub fn from_utf16(units: &[u16]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.len());
    for &unit in units {
        push_unit(&mut out, unit);
    }
    out
}

fn push_unit(out: &mut Vec<u8>, unit: u16) {
    match unit {
        0x0001..=0x007F => out.push(unit as u8),
        0x0000 | 0x0080..=0x07FF => {
            out.push(0xC0 | (unit >> 6) as u8);
            out.push(0x80 | (unit & 0x3F) as u8);
        }
        _ => {
            out.push(0xE0 | (unit >> 12) as u8);
            out.push(0x80 | ((unit >> 6) & 0x3F) as u8);
            out.push(0x80 | (unit & 0x3F) as u8);
        }
    }
}

/// Decodes modified UTF-8 to a Rust string, borrowing when the bytes are
/// already plain UTF-8 with the same meaning.
///
/// # Errors
/// [`Mutf8Error::Malformed`] for bytes that are not modified UTF-8 and
/// [`Mutf8Error::UnpairedSurrogate`] for a string Rust cannot represent.
pub fn to_str(bytes: &[u8]) -> Result<Cow<'_, str>, Mutf8Error> {
    if let Some(s) = as_plain_utf8(bytes) {
        return Ok(Cow::Borrowed(s));
    }
    let units = to_utf16(bytes)?;
    let mut out = String::with_capacity(bytes.len());
    let mut positions = unit_positions(bytes);
    for decoded in char::decode_utf16(units.iter().copied()) {
        match decoded {
            Ok(c) => {
                positions.nth(c.len_utf16() - 1);
                out.push(c);
            }
            Err(e) => {
                return Err(Mutf8Error::UnpairedSurrogate {
                    unit: e.unpaired_surrogate(),
                    position: positions.next().unwrap_or(bytes.len()),
                })
            }
        }
    }
    Ok(Cow::Owned(out))
}

/// Byte positions of each unit of already-validated modified UTF-8.
fn unit_positions(bytes: &[u8]) -> impl Iterator<Item = usize> + '_ {
    let mut position = 0;
    std::iter::from_fn(move || {
        let start = position;
        let (_, len) = decode_unit(bytes, start).ok()?;
        position += len;
        Some(start)
    })
}

/// Like [`to_str`], but replaces what cannot be decoded with U+FFFD. For
/// display only.
pub fn to_str_lossy(bytes: &[u8]) -> Cow<'_, str> {
    if let Some(s) = as_plain_utf8(bytes) {
        return Cow::Borrowed(s);
    }
    match to_utf16(bytes) {
        Ok(units) => Cow::Owned(String::from_utf16_lossy(&units)),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// The bytes as a `str` when standard UTF-8 reads them the same way: valid
/// UTF-8 with no four-byte sequences (modified UTF-8 never has them) and no
/// `C0 80` (which standard UTF-8 rejects anyway).
fn as_plain_utf8(bytes: &[u8]) -> Option<&str> {
    if bytes.is_ascii() {
        return if bytes.contains(&0) {
            None
        } else {
            std::str::from_utf8(bytes).ok()
        };
    }
    let s = std::str::from_utf8(bytes).ok()?;
    if s.chars().any(|c| c == '\0' || c.len_utf8() == 4) {
        None
    } else {
        Some(s)
    }
}

/// Encodes a Rust string as modified UTF-8, borrowing when no byte changes.
pub fn from_str(s: &str) -> Cow<'_, [u8]> {
    if !s.bytes().any(|b| b == 0 || b >= 0xF0) {
        return Cow::Borrowed(s.as_bytes());
    }
    let mut out = Vec::with_capacity(s.len() + 8);
    for unit in s.encode_utf16() {
        push_unit(&mut out, unit);
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ascii_is_borrowed_unchanged() {
        assert!(matches!(
            to_str(b"java/lang/Object"),
            Ok(Cow::Borrowed("java/lang/Object"))
        ));
        assert!(matches!(from_str("main"), Cow::Borrowed(b"main")));
    }

    #[test]
    fn nul_is_two_bytes() {
        assert_eq!(from_str("a\0b").as_ref(), &[b'a', 0xC0, 0x80, b'b']);
        assert_eq!(to_str(&[b'a', 0xC0, 0x80, b'b']).unwrap(), "a\0b");
    }

    #[test]
    fn supplementary_characters_are_surrogate_pairs() {
        let encoded = from_str("x\u{1F600}");
        assert_eq!(encoded.as_ref(), &[b'x', 0xED, 0xA0, 0xBD, 0xED, 0xB8, 0x80]);
        assert_eq!(to_str(&encoded).unwrap(), "x\u{1F600}");
    }

    #[test]
    fn unpaired_surrogates_round_trip_through_utf16() {
        let bytes = [b'a', 0xED, 0xA0, 0x80, b'b'];
        let units = to_utf16(&bytes).unwrap();
        assert_eq!(units, [0x61, 0xD800, 0x62]);
        assert_eq!(from_utf16(&units), bytes);
        assert_eq!(
            to_str(&bytes),
            Err(Mutf8Error::UnpairedSurrogate {
                unit: 0xD800,
                position: 1
            })
        );
        assert_eq!(to_str_lossy(&bytes), "a\u{FFFD}b");
    }

    #[test]
    fn four_byte_utf8_and_bare_nul_are_malformed() {
        assert!(to_utf16(&[0xF0, 0x9F, 0x98, 0x80]).is_err());
        assert_eq!(to_utf16(&[b'a', 0]), Err(Mutf8Error::Malformed { position: 1 }));
        assert_eq!(
            to_utf16(&[0xE0, 0x80]),
            Err(Mutf8Error::Malformed { position: 0 })
        );
        assert_eq!(to_utf16(&[0x80]), Err(Mutf8Error::Malformed { position: 0 }));
    }

    #[test]
    fn validation_accepts_what_decoding_accepts() {
        assert_eq!(validate(b"java/lang/Object"), Ok(()));
        assert_eq!(validate(&[0xC0, 0x80, 0xED, 0xA0, 0x80]), Ok(()));
        assert_eq!(
            validate(&[b'a', 0xF0, 0x9F, 0x98, 0x80]),
            Err(Mutf8Error::Malformed { position: 1 })
        );
        assert_eq!(validate(&[b'a', 0]), Err(Mutf8Error::Malformed { position: 1 }));
    }

    #[test]
    fn every_utf16_unit_round_trips() {
        let units: Vec<u16> = (0..=u16::MAX).collect();
        assert_eq!(to_utf16(&from_utf16(&units)).unwrap(), units);
    }

    #[test]
    fn two_and_three_byte_forms_decode_by_the_jvms_formulas() {
        assert_eq!(to_str(&[0xC3, 0xA9]).unwrap(), "é");
        assert_eq!(to_str(&[0xE2, 0x82, 0xAC]).unwrap(), "€");
    }
}
