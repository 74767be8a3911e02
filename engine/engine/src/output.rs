//! Writing outputs: atomic file writes and entry names that cannot escape
//! the output directory.

use std::io;
use std::path::{Component, Path, PathBuf};

/// Writes `bytes` to `path` atomically: into a temporary file beside it,
/// then renamed over it, so readers never see a partial file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    jp_report::run::write_atomically(path, |out| out.write_all(bytes))
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
    use std::fs;

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
