//! A bounds-checked cursor over borrowed class-file bytes.
//!
//! A `Reader` remembers the absolute offset of its first byte, so readers
//! made for an attribute's contents still report offsets in the whole file.

use crate::error::{ClassFileError, Result};

/// A cursor over a borrowed byte slice. Every read is bounds-checked and
/// fails with [`ClassFileError::Truncated`] rather than panicking.
#[derive(Debug, Clone)]
pub struct Reader<'a> {
    data: &'a [u8],
    position: usize,
    base_offset: usize,
}

impl<'a> Reader<'a> {
    /// A reader over `data`, whose first byte is at `base_offset` in the file.
    pub fn new(data: &'a [u8], base_offset: usize) -> Self {
        Reader {
            data,
            position: 0,
            base_offset,
        }
    }

    /// Absolute file offset of the next byte.
    pub fn offset(&self) -> usize {
        self.base_offset + self.position
    }

    /// Position relative to the start of this reader's slice.
    pub fn position(&self) -> usize {
        self.position
    }

    /// Bytes not yet read.
    pub fn remaining(&self) -> usize {
        self.data.len() - self.position
    }

    /// Whether every byte has been read.
    pub fn is_at_end(&self) -> bool {
        self.position == self.data.len()
    }

    /// The whole slice this reader walks.
    pub fn data(&self) -> &'a [u8] {
        self.data
    }

    #[cold]
    fn truncated(&self, item: &'static str, len: usize) -> ClassFileError {
        ClassFileError::Truncated {
            item,
            offset: self.offset(),
            needed: len - self.remaining(),
        }
    }

    /// Reads `len` bytes as a borrowed slice.
    pub fn bytes(&mut self, len: usize, item: &'static str) -> Result<&'a [u8]> {
        if len > self.remaining() {
            return Err(self.truncated(item, len));
        }
        let slice = &self.data[self.position..self.position + len];
        self.position += len;
        Ok(slice)
    }

    fn array<const N: usize>(&mut self, item: &'static str) -> Result<[u8; N]> {
        let bytes = self.bytes(N, item)?;
        let mut array = [0; N];
        array.copy_from_slice(bytes);
        Ok(array)
    }

    /// Reads a `u1`.
    pub fn u1(&mut self, item: &'static str) -> Result<u8> {
        Ok(self.array::<1>(item)?[0])
    }

    /// Reads a big-endian `u2`.
    pub fn u2(&mut self, item: &'static str) -> Result<u16> {
        Ok(u16::from_be_bytes(self.array(item)?))
    }

    /// Reads a big-endian `u4`.
    pub fn u4(&mut self, item: &'static str) -> Result<u32> {
        Ok(u32::from_be_bytes(self.array(item)?))
    }

    /// Reads a big-endian 8-byte value.
    pub fn u8(&mut self, item: &'static str) -> Result<u64> {
        Ok(u64::from_be_bytes(self.array(item)?))
    }

    /// Reads a `u2` count of items that each take at least `min_item_size`
    /// bytes, and rejects counts the remaining input cannot hold. This keeps
    /// a forged count from causing a huge allocation.
    pub fn count_u2(&mut self, item: &'static str, min_item_size: usize) -> Result<usize> {
        let offset = self.offset();
        let count = usize::from(self.u2(item)?);
        self.check_count(item, count, min_item_size, offset)?;
        Ok(count)
    }

    /// Like [`Reader::count_u2`], for a `u1` count.
    pub fn count_u1(&mut self, item: &'static str, min_item_size: usize) -> Result<usize> {
        let offset = self.offset();
        let count = usize::from(self.u1(item)?);
        self.check_count(item, count, min_item_size, offset)?;
        Ok(count)
    }

    fn check_count(
        &self,
        item: &'static str,
        count: usize,
        min_item_size: usize,
        offset: usize,
    ) -> Result<()> {
        if count.saturating_mul(min_item_size) > self.remaining() {
            return Err(ClassFileError::ImpossibleCount {
                item,
                count,
                offset,
                remaining: self.remaining(),
            });
        }
        Ok(())
    }

    /// Reads a `u4` length followed by that many bytes, returning the bytes
    /// and the absolute offset of their first byte.
    pub fn u4_prefixed(&mut self, item: &'static str) -> Result<(&'a [u8], usize)> {
        let len = self.u4(item)? as usize;
        let offset = self.offset();
        Ok((self.bytes(len, item)?, offset))
    }

    /// Fails unless every byte has been read.
    pub fn expect_end(&self, item: &'static str) -> Result<()> {
        if self.is_at_end() {
            Ok(())
        } else {
            Err(ClassFileError::TrailingBytes {
                item,
                offset: self.offset(),
                extra: self.remaining(),
            })
        }
    }
}

/// Big-endian appends to an output buffer.
pub trait ByteSink {
    /// Appends a `u1`.
    fn put_u1(&mut self, value: u8);
    /// Appends a big-endian `u2`.
    fn put_u2(&mut self, value: u16);
    /// Appends a big-endian `u4`.
    fn put_u4(&mut self, value: u32);
    /// Appends raw bytes.
    fn put_bytes(&mut self, bytes: &[u8]);
}

impl ByteSink for Vec<u8> {
    fn put_u1(&mut self, value: u8) {
        self.push(value);
    }
    fn put_u2(&mut self, value: u16) {
        self.extend_from_slice(&value.to_be_bytes());
    }
    fn put_u4(&mut self, value: u32) {
        self.extend_from_slice(&value.to_be_bytes());
    }
    fn put_bytes(&mut self, bytes: &[u8]) {
        self.extend_from_slice(bytes);
    }
}

/// Appends `count` as a `u2`. Counts come from collections that were read
/// from (or checked against) the format, so they fit; a larger one is a
/// bug in the caller.
pub(crate) fn put_count(out: &mut Vec<u8>, count: usize) {
    out.put_u2(u16::try_from(count).expect("count exceeds u2; the caller must check limits"));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_big_endian_values_and_tracks_offsets() {
        let mut r = Reader::new(&[0xCA, 0xFE, 0xBA, 0xBE, 0x00, 0x01, 0x07], 16);
        assert_eq!(r.u4("magic").unwrap(), 0xCAFEBABE);
        assert_eq!(r.offset(), 20);
        assert_eq!(r.u2("x").unwrap(), 1);
        assert_eq!(r.u1("y").unwrap(), 7);
        assert!(r.is_at_end());
    }

    #[test]
    fn truncation_reports_offset_and_missing_bytes() {
        let mut r = Reader::new(&[0, 1, 2], 0x40);
        r.u1("a").unwrap();
        let err = r.u4("b").unwrap_err();
        assert_eq!(
            err,
            ClassFileError::Truncated {
                item: "b",
                offset: 0x41,
                needed: 2
            }
        );
    }

    #[test]
    fn forged_count_is_rejected_before_allocating() {
        let mut r = Reader::new(&[0xFF, 0xFF, 1, 2, 3], 0);
        let err = r.count_u2("methods", 8).unwrap_err();
        assert!(matches!(
            err,
            ClassFileError::ImpossibleCount {
                count: 65535,
                remaining: 3,
                ..
            }
        ));
    }
}
