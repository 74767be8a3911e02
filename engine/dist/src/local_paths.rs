//! Strings that give away the machine a library was built on: home directories, the temporary
//! directory, Cargo's registry, and paths the caller names (the checkout). Debug information,
//! panic locations and linker defaults are where they come from.

use std::path::PathBuf;

use memchr::memmem;

/// Fixed strings no shipped binary may contain, whatever machine built it.
const ALWAYS_FORBIDDEN: &[&str] = &["/root/", "/home/", "/tmp/", ".cargo/registry"];

/// Environment variables whose values are local paths when set.
const PATH_VARIABLES: &[&str] = &["HOME", "CARGO_HOME"];

/// The set of forbidden strings to look for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LocalPaths {
    needles: Vec<String>,
}

impl LocalPaths {
    /// The fixed strings, `$HOME` and `$CARGO_HOME` when set, and `forbid` (the checkout).
    pub fn from_environment(forbid: &[PathBuf]) -> Self {
        let variables = PATH_VARIABLES.iter().filter_map(std::env::var_os);
        let paths = variables.map(PathBuf::from).chain(forbid.iter().cloned());
        Self::new(paths.map(|path| path.to_string_lossy().into_owned()))
    }

    /// The fixed strings and `extra`. Trailing slashes are dropped from each extra path so that
    /// the path itself matches, and a path that is then empty (`/`) is left out: it would match
    /// every binary.
    pub fn new(extra: impl IntoIterator<Item = String>) -> Self {
        let mut needles: Vec<String> = ALWAYS_FORBIDDEN.iter().map(|s| s.to_string()).collect();
        for path in extra {
            let path = path.trim_end_matches('/');
            let known = needles.iter().any(|needle| needle.trim_end_matches('/') == path);
            if !path.is_empty() && !known {
                needles.push(path.to_string());
            }
        }
        LocalPaths { needles }
    }

    /// The forbidden strings that occur in `bytes`, in the order they were given.
    pub fn found_in(&self, bytes: &[u8]) -> Vec<String> {
        self.needles
            .iter()
            .filter(|needle| memmem::find(bytes, needle.as_bytes()).is_some())
            .cloned()
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_strings_and_given_paths_are_found() {
        let paths = LocalPaths::new(["/work/checkout/".to_string()]);
        let bytes = b"\0panicked at /work/checkout/engine/jni/src/lib.rs\0/home/u/.cargo/registry/x\0";
        assert_eq!(
            paths.found_in(bytes),
            ["/home/", ".cargo/registry", "/work/checkout"]
        );
    }

    #[test]
    fn clean_bytes_have_no_local_paths() {
        let paths = LocalPaths::new(["/work/checkout".to_string()]);
        assert!(paths
            .found_in(b"src/lib.rs\0/usr/lib/libSystem.B.dylib\0")
            .is_empty());
    }

    #[test]
    fn the_root_directory_is_not_a_needle() {
        assert_eq!(LocalPaths::new(["/".to_string()]), LocalPaths::new([]));
    }

    #[test]
    fn a_home_under_a_fixed_needle_is_not_reported_twice() {
        assert_eq!(LocalPaths::new(["/root".to_string()]), LocalPaths::new([]));
    }
}
