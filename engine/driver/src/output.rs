//! Writing outputs: atomic file writes (through `jp-atomic-file`, whose
//! temporary files a killed run may leave behind) and entry names that
//! cannot escape the output directory.

use std::fs;
use std::io;
use std::path::{Component, Path, PathBuf};

use jp_atomic_file::is_temporary_name;
pub(crate) use jp_atomic_file::temporary_builder;

/// Writes `bytes` to `path` atomically: into a temporary file beside it,
/// then renamed over it, so readers never see a partial file.
pub(crate) fn write_atomically(path: &Path, bytes: &[u8]) -> io::Result<()> {
    jp_atomic_file::write_atomically(path, |out| out.write_all(bytes))
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
}
