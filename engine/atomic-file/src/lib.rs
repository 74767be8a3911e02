//! Writing a file so that a reader sees either the old file or the whole
//! new one: the bytes go into a temporary file in the target's directory
//! (same file system, so the rename cannot turn into a copy), which is
//! renamed over the target once complete. When writing fails, the
//! temporary file is removed and the target is left as it was. Nothing is
//! synced to disk: a crash of the machine may lose the new file, never
//! leave half of it under the target's name.
//!
//! Temporary files are named `.jp-` and six letters or digits
//! ([`temporary_builder`], [`is_temporary_name`]), so that the engine can
//! delete those a killed run left behind.
//!
//! ```
//! # fn main() -> std::io::Result<()> {
//! # let dir = tempfile::tempdir()?;
//! let path = dir.path().join("out/report.txt");
//! jp_atomic_file::write_atomically(&path, |out| out.write_all(b"hello\n"))?;
//! assert_eq!(std::fs::read(&path)?, b"hello\n");
//! # Ok(())
//! # }
//! ```
#![deny(missing_docs)]

use std::ffi::OsStr;
use std::fs::{self, File};
use std::io::{self, Write};
use std::path::Path;

use tempfile::NamedTempFile;

/// How JP's temporary files are named: this prefix, then
/// [`TEMPORARY_RANDOM_LEN`] random letters or digits.
const TEMPORARY_PREFIX: &str = ".jp-";
const TEMPORARY_RANDOM_LEN: usize = 6;

/// A builder of temporary files named as JP names them.
pub fn temporary_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMPORARY_PREFIX).rand_bytes(TEMPORARY_RANDOM_LEN);
    builder
}

/// Whether `name` is the name of one of JP's temporary files.
pub fn is_temporary_name(name: &OsStr) -> bool {
    name.to_str()
        .and_then(|name| name.strip_prefix(TEMPORARY_PREFIX))
        .is_some_and(|random| {
            random.len() == TEMPORARY_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Writes what `render` writes to `path` atomically, creating the missing
/// directories above it. The file gets the modes of an ordinary new file
/// (0666 less the umask, as a compiler's output), not the 0600 of
/// temporary files.
///
/// A target that exists and is a device or a FIFO (`/dev/null`, a named
/// pipe a reader waits on) is written into directly instead: a rename would
/// replace it with a regular file. A socket is refused.
///
/// # Errors
/// Those of `render`, and of creating, writing and renaming the files.
pub fn write_atomically(
    path: &Path,
    render: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write(path, None, render)
}

/// As [`write_atomically`], the file getting exactly the Unix `mode`
/// whatever the umask (release files that must read the same on every
/// machine); elsewhere than on Unix, the mode is ignored.
///
/// # Errors
/// As [`write_atomically`].
pub fn write_atomically_with_mode(
    path: &Path,
    mode: u32,
    render: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    write(path, Some(mode), render)
}

fn write(
    path: &Path,
    exact_mode: Option<u32>,
    render: impl FnOnce(&mut dyn Write) -> io::Result<()>,
) -> io::Result<()> {
    if let Some(special) = open_special(path)? {
        let mut out = io::BufWriter::with_capacity(1 << 16, special);
        render(&mut out)?;
        return out.flush();
    }
    let dir = match path.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    fs::create_dir_all(dir)?;
    let mut temp = new_temporary(dir, exact_mode)?;
    {
        let mut out = io::BufWriter::with_capacity(1 << 16, temp.as_file_mut());
        render(&mut out)?;
        out.flush()?;
    }
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

/// A temporary file in `dir`, with the modes the target is to have.
fn new_temporary(dir: &Path, exact_mode: Option<u32>) -> io::Result<NamedTempFile> {
    let mut builder = temporary_builder();
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Created with 0666, which the umask narrows, as an ordinary file.
        builder.permissions(fs::Permissions::from_mode(0o666));
        let temp = builder.tempfile_in(dir)?;
        if let Some(mode) = exact_mode {
            // Set after creation: the umask applies only when a file is made.
            temp.as_file().set_permissions(fs::Permissions::from_mode(mode))?;
        }
        Ok(temp)
    }
    #[cfg(not(unix))]
    {
        let _ = exact_mode;
        builder.tempfile_in(dir)
    }
}

/// The target opened for writing if it exists (through symbolic links)
/// and is neither a regular file nor a directory.
#[cfg(unix)]
fn open_special(path: &Path) -> io::Result<Option<File>> {
    use std::os::unix::fs::FileTypeExt;
    let Ok(metadata) = fs::metadata(path) else {
        return Ok(None);
    };
    let kind = metadata.file_type();
    if kind.is_file() || kind.is_dir() {
        return Ok(None);
    }
    if kind.is_socket() {
        let message = "a socket, not a file a report can be written to";
        return Err(io::Error::new(io::ErrorKind::InvalidInput, message));
    }
    fs::OpenOptions::new().write(true).open(path).map(Some)
}

#[cfg(not(unix))]
fn open_special(_path: &Path) -> io::Result<Option<File>> {
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_write_creates_parents_and_replaces_the_target() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/c.bin");
        write_atomically(&path, |out| out.write_all(b"one")).unwrap();
        write_atomically(&path, |out| out.write_all(b"two")).unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(names(path.parent().unwrap()), ["c.bin"]);
    }

    #[test]
    fn a_failed_write_leaves_the_target_as_it_was_and_no_temporary_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("report.txt");
        fs::write(&path, "the last good one").unwrap();
        let error = write_atomically(&path, |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("render failed"))
        })
        .unwrap_err();
        assert_eq!(error.to_string(), "render failed");
        assert_eq!(fs::read_to_string(&path).unwrap(), "the last good one");
        assert_eq!(names(dir.path()), ["report.txt"]);
    }

    #[test]
    fn the_temporary_file_is_beside_the_target_and_named_as_jp_names_them() {
        let dir = tempfile::tempdir().unwrap();
        let mut seen = Vec::new();
        write_atomically(&dir.path().join("x"), |_| {
            seen.extend(fs::read_dir(dir.path())?.map(|e| e.unwrap().file_name()));
            Ok(())
        })
        .unwrap();
        let made = temporary_builder().tempfile_in(dir.path()).unwrap();
        seen.push(made.path().file_name().unwrap().to_owned());
        assert_eq!(seen.len(), 2);
        assert!(seen.iter().all(|name| is_temporary_name(name)), "{seen:?}");
    }

    #[test]
    fn only_names_of_the_right_shape_are_temporary() {
        for name in [".jp-abc123", ".jp-ABCxyz"] {
            assert!(is_temporary_name(OsStr::new(name)), "{name}");
        }
        for name in [".jp-lock", ".jp-abcdefg", ".jp-abc-de", "jp-abcdef", "A.class"] {
            assert!(!is_temporary_name(OsStr::new(name)), "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn an_ordinary_write_gets_the_modes_of_a_new_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("A.class");
        write_atomically(&path, |out| out.write_all(b"bytes")).unwrap();
        // 0666 less the umask: readable by others under any common umask.
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode & 0o044, 0o044, "{mode:o}");
        assert_eq!(mode & 0o111, 0, "{mode:o}");
    }

    #[cfg(unix)]
    #[test]
    fn an_exact_mode_is_kept_whatever_the_umask() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        for mode in [0o644, 0o755, 0o600] {
            let path = dir.path().join(format!("{mode:o}"));
            write_atomically_with_mode(&path, mode, |out| out.write_all(b"x")).unwrap();
            assert_eq!(fs::metadata(&path).unwrap().permissions().mode() & 0o777, mode);
        }
    }
}
