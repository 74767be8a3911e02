//! Keeping a run's inputs, output directory and cache directory apart.
//!
//! JP never writes into its inputs. An output directory that is an input,
//! holds one or lies inside one would be overwritten by the run, or read
//! back as input by the next; a cache inside either would be deleted or
//! instrumented. So a request whose paths overlap is refused before
//! anything is created, written or deleted. Paths are compared once
//! resolved: absolute, symbolic links followed, `.` and `..` gone (a part
//! that does not exist yet is resolved from its nearest existing parent).

use std::fmt;
use std::path::{Component, Path, PathBuf};

/// What a path is to a run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PathRole {
    /// One of the inputs.
    Input,
    /// The output directory.
    Output,
    /// The cache directory.
    Cache,
}

impl fmt::Display for PathRole {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            PathRole::Input => "an input",
            PathRole::Output => "the output directory",
            PathRole::Cache => "the cache directory",
        })
    }
}

/// Two paths of a request that are the same, or one inside the other.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{} ({first_role}) and {} ({second_role}) overlap: the inputs, the output directory and the \
     cache directory must not be or contain one another",
    first.display(),
    second.display()
)]
pub struct OverlapError {
    /// The first path, as given.
    pub first: PathBuf,
    /// What it is.
    pub first_role: PathRole,
    /// The second path, as given.
    pub second: PathBuf,
    /// What it is.
    pub second_role: PathRole,
}

/// Checks that no two of `paths` overlap, except two inputs (which may
/// share a directory: their outputs are checked for conflicts instead).
///
/// # Errors
/// The first overlapping pair, in the order given.
pub fn check_apart(paths: &[(PathRole, &Path)]) -> Result<(), OverlapError> {
    let resolved: Vec<PathBuf> = paths.iter().map(|(_, path)| resolve(path)).collect();
    for (i, (first_role, first)) in paths.iter().enumerate() {
        for (j, (second_role, second)) in paths.iter().enumerate().skip(i + 1) {
            let both_inputs = *first_role == PathRole::Input && *second_role == PathRole::Input;
            let (a, b) = (&resolved[i], &resolved[j]);
            if !both_inputs && (a.starts_with(b) || b.starts_with(a)) {
                return Err(OverlapError {
                    first: first.to_path_buf(),
                    first_role: *first_role,
                    second: second.to_path_buf(),
                    second_role: *second_role,
                });
            }
        }
    }
    Ok(())
}

/// `path` made absolute, with its longest existing part canonicalized
/// and the rest normalized by its components.
fn resolve(path: &Path) -> PathBuf {
    let absolute = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    let mut existing = absolute.as_path();
    let mut rest = Vec::new();
    loop {
        if let Ok(canonical) = existing.canonicalize() {
            let mut resolved = canonical;
            for component in rest.iter().rev() {
                match component {
                    Component::ParentDir => {
                        resolved.pop();
                    }
                    Component::Normal(name) => resolved.push(name),
                    _ => {}
                }
            }
            return resolved;
        }
        match (existing.parent(), existing.components().next_back()) {
            (Some(parent), Some(last)) => {
                rest.push(last);
                existing = parent;
            }
            _ => return absolute,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn overlap(paths: &[(PathRole, &Path)]) -> Option<(PathBuf, PathBuf)> {
        check_apart(paths).err().map(|e| (e.first, e.second))
    }

    #[test]
    fn an_output_equal_to_inside_or_around_an_input_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("classes");
        std::fs::create_dir(&input).unwrap();
        for output in [
            input.clone(),
            input.join("jp"),
            dir.path().to_owned(),
            input.join("new/../."),
        ] {
            assert_eq!(
                overlap(&[(PathRole::Input, &input), (PathRole::Output, &output)]),
                Some((input.clone(), output.clone())),
                "{}",
                output.display()
            );
        }
        let apart = dir.path().join("out");
        assert_eq!(
            overlap(&[(PathRole::Input, &input), (PathRole::Output, &apart)]),
            None
        );
        // A sibling whose name starts with the input's is apart too.
        let sibling = dir.path().join("classes2");
        assert_eq!(
            overlap(&[(PathRole::Input, &input), (PathRole::Output, &sibling)]),
            None
        );
    }

    #[test]
    fn a_cache_may_not_touch_the_inputs_or_the_output() {
        let dir = tempfile::tempdir().unwrap();
        let (input, output) = (dir.path().join("in.jar"), dir.path().join("out"));
        for cache in [output.join("cache"), output.clone(), input.clone()] {
            let paths = [
                (PathRole::Input, input.as_path()),
                (PathRole::Output, output.as_path()),
                (PathRole::Cache, cache.as_path()),
            ];
            assert!(overlap(&paths).is_some(), "{}", cache.display());
        }
        let paths = [
            (PathRole::Input, input.as_path()),
            (PathRole::Output, output.as_path()),
            (PathRole::Cache, &dir.path().join("cache")),
        ];
        assert_eq!(overlap(&paths), None);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_an_input_is_the_input() {
        let dir = tempfile::tempdir().unwrap();
        let input = dir.path().join("classes");
        std::fs::create_dir(&input).unwrap();
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        assert!(overlap(&[(PathRole::Input, &input), (PathRole::Output, &link.join("out"))]).is_some());
    }

    #[test]
    fn two_inputs_may_share_a_directory() {
        let dir = tempfile::tempdir().unwrap();
        let (a, b) = (dir.path().join("lib"), dir.path().join("lib/a.jar"));
        let paths = [(PathRole::Input, a.as_path()), (PathRole::Input, b.as_path())];
        assert_eq!(overlap(&paths), None);
    }
}
