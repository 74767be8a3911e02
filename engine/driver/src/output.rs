//! Writing outputs: atomic file writes and entry names that cannot escape
//! the output directory.

use std::ffi::OsStr;
use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Writes `bytes` to `path` atomically: into a temporary file beside it,
/// then renamed over it, so readers never see a partial file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    jp_report::run::write_atomically(path, |out| out.write_all(bytes))
}

/// How JP's temporary files are named: `.jp-` and six random letters or
/// digits ([`write_atomically`]'s files, the object store's links).
const TEMPORARY_PREFIX: &str = ".jp-";
const TEMPORARY_RANDOM_LEN: usize = 6;

/// A builder of temporary files named as JP names them.
pub(crate) fn temporary_builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMPORARY_PREFIX).rand_bytes(TEMPORARY_RANDOM_LEN);
    builder
}

/// Whether `name` is the name of one of JP's temporary files.
fn is_temporary_name(name: &OsStr) -> bool {
    name.to_str()
        .and_then(|name| name.strip_prefix(TEMPORARY_PREFIX))
        .is_some_and(|random| {
            random.len() == TEMPORARY_RANDOM_LEN && random.bytes().all(|b| b.is_ascii_alphanumeric())
        })
}

/// Deletes JP's temporary files under `dir`, at most `max_depth` levels
/// down (1: in `dir` itself), without following links; how many it
/// deleted. A run that is killed leaves the temporary file it was writing
/// behind; the next run, holding the same lock, deletes it. Nothing else is
/// touched, and a file that cannot be deleted is left for the next run.
pub(crate) fn remove_temporaries(dir: &Path, max_depth: usize) -> usize {
    walkdir::WalkDir::new(dir)
        .min_depth(1)
        .max_depth(max_depth)
        .into_iter()
        .filter_map(Result::ok)
        .filter(|entry| entry.file_type().is_file() && is_temporary_name(entry.file_name()))
        .filter(|entry| fs::remove_file(entry.path()).is_ok())
        .count()
}

/// The relative path an archive entry name stands for, or `None` when the
/// name is absolute, has `..` or drive components, or uses backslashes:
/// anything that could point outside the output directory once extracted.
pub(crate) fn safe_relative_path(name: &str) -> Option<PathBuf> {
    if name.is_empty() || name.contains('\\') || name.contains(':') || name.starts_with('/') {
        return None;
    }
    let path = Path::new(name);
    path.components()
        .all(|c| matches!(c, Component::Normal(_)))
        .then(|| path.to_path_buf())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg(unix)]
    #[test]
    fn a_written_file_gets_the_modes_of_an_ordinary_file() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("p/A.class");
        write_atomically(&path, b"bytes").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"bytes");
        // 0666 less the umask: readable by others under any common umask.
        let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode & 0o044, 0o044, "{mode:o}");
        assert_eq!(mode & 0o111, 0, "{mode:o}");
    }

    #[test]
    fn only_temporary_files_of_jp_are_removed() {
        let dir = tempfile::tempdir().unwrap();
        let left = temporary_builder()
            .tempfile_in(dir.path())
            .unwrap()
            .keep()
            .unwrap()
            .1;
        fs::create_dir_all(dir.path().join("a/b")).unwrap();
        let deep = temporary_builder()
            .tempfile_in(dir.path().join("a/b"))
            .unwrap()
            .keep()
            .unwrap()
            .1;
        let kept = [
            ".jp-lock",
            ".jp-abcdefg",
            ".jp-abc-de",
            "jp-abcdef",
            "A.class",
            "a/.jp-x",
        ];
        for name in kept {
            fs::write(dir.path().join(name), b"x").unwrap();
        }
        assert_eq!(remove_temporaries(dir.path(), 1), 1);
        assert!(!left.exists() && deep.exists());
        assert_eq!(remove_temporaries(dir.path(), usize::MAX), 1);
        assert!(!deep.exists());
        for name in kept {
            assert!(dir.path().join(name).exists(), "{name}");
        }
    }

    #[test]
    fn atomic_writes_and_the_builder_use_temporary_names() {
        let dir = tempfile::tempdir().unwrap();
        let mut seen = Vec::new();
        jp_report::run::write_atomically(&dir.path().join("x"), |_| {
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
    fn entry_names_that_could_escape_are_refused() {
        for bad in ["../x.class", "a/../../x", "/etc/passwd", "C:/x", "a\\..\\x", ""] {
            assert_eq!(safe_relative_path(bad), None, "{bad}");
        }
        assert_eq!(
            safe_relative_path("a/b/C.class"),
            Some(PathBuf::from("a/b/C.class"))
        );
        assert_eq!(safe_relative_path("META-INF/"), Some(PathBuf::from("META-INF")));
    }

    #[test]
    fn atomic_writes_create_parents_and_replace() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("a/b/c.bin");
        write_atomically(&path, b"one").unwrap();
        write_atomically(&path, b"two").unwrap();
        assert_eq!(fs::read(&path).unwrap(), b"two");
        assert_eq!(fs::read_dir(path.parent().unwrap()).unwrap().count(), 1);
    }
}
