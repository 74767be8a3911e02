//! Output jars: an input archive written again with some of its files
//! changed, everything else copied as it was.

use std::io::{self, Write};

use crate::input::InputArchive;
use crate::signatures;

/// One file (not a directory) of an archive's output: where it goes and
/// what it holds.
pub(crate) struct OutputFile {
    /// Its entry's index in the input archive.
    pub(crate) index: usize,
    pub(crate) name: String,
    pub(crate) bytes: Vec<u8>,
    /// Whether `bytes` differ from the entry's.
    pub(crate) changed: bool,
}

/// Drops the signature of a signed input whose classes were rewritten
/// (see [`crate::signatures`]).
pub(crate) fn unsign(files: &mut Vec<OutputFile>) {
    files.retain(|file| !signatures::is_signature_file(&file.name));
    for file in files.iter_mut() {
        if file.name.eq_ignore_ascii_case("META-INF/MANIFEST.MF") {
            let stripped = signatures::strip_manifest_digests(&file.bytes);
            file.changed |= stripped != file.bytes;
            file.bytes = stripped;
        }
    }
}

/// The output jar of `archive`: its entries in their order, each copied
/// as it is (compressed data, method, times, comments, extra fields), its
/// directory entries included, except that the `files` whose bytes changed
/// are compressed again under their entry's name, time, comment and
/// method, and that entries holding files not in `files` (a dropped
/// signature) are left out. The archive's comment is kept.
pub(crate) fn build_jar(archive: &mut InputArchive, files: &[OutputFile]) -> io::Result<Vec<u8>> {
    let mut cursor = io::Cursor::new(Vec::new());
    let mut writer = zip::ZipWriter::new(&mut cursor);
    let mut files = files.iter().peekable();
    for index in 0..archive.len() {
        let original = archive.by_index_raw(index).map_err(io::Error::other)?;
        match files.next_if(|file| file.index == index) {
            Some(file) if file.changed => {
                let method = match original.compression() {
                    zip::CompressionMethod::Stored => zip::CompressionMethod::Stored,
                    _ => zip::CompressionMethod::Deflated,
                };
                let options = original
                    .options()
                    .compression_method(method)
                    .into_full_options()
                    .with_file_comment(original.comment());
                drop(original);
                writer
                    .start_file(file.name.as_str(), options)
                    .map_err(io::Error::other)?;
                writer.write_all(&file.bytes)?;
            }
            Some(_) => writer.raw_copy_file(original).map_err(io::Error::other)?,
            None if original.is_dir() => writer.raw_copy_file(original).map_err(io::Error::other)?,
            None => {}
        }
    }
    writer
        .set_raw_comment(archive.comment().into())
        .map_err(io::Error::other)?;
    writer.finish().map_err(io::Error::other)?;
    Ok(cursor.into_inner())
}
