//! JP's test-only `stress` scheme ([`stress_class`]): it rewrites every
//! method with every editing operation of the bytecode layer while keeping
//! behaviour exactly, so that running a corpus before and after proves the
//! rewriter on it. The `jp-stress` binary applies it through the driver
//! (`jp_driver::instrument`), as `jp instrument` applies the profiling
//! scheme. Nothing here ships: the `jp` binary and the JNI library do not
//! depend on this crate.
//!
//! ```no_run
//! use jp_stress::{stress_class, StressOptions};
//! let original = std::fs::read("Foo.class")?;
//! let rewritten = stress_class(&original, StressOptions { pad: 300 })?;
//! for warning in &rewritten.warnings {
//!     eprintln!("kept: {warning}");
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod stress;

use jp_driver::scheme::Scheme;
use jp_rewrite::{RewriteError, Rewritten};
// The scheme's module reaches it as `crate::with_code_and_descriptor`.
use jp_rewrite::with_code_and_descriptor;

pub use stress::{stress_class, StressOptions};

impl Scheme for StressOptions {
    fn rewrite_class(&self, bytes: &[u8]) -> Result<Rewritten, RewriteError> {
        stress_class(bytes, *self)
    }

    /// `Stress(StressOptions { pad: 300 })`: the text the cache key held
    /// when the driver knew this scheme.
    fn identifier(&self) -> String {
        format!("Stress({self:?})")
    }
}

/// A class file of `engine/classfile/testdata`, for unit tests.
#[cfg(test)]
pub(crate) fn testdata(name: &str) -> Vec<u8> {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../classfile/testdata")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identifier_names_the_scheme_and_its_padding() {
        assert_eq!(
            StressOptions { pad: 300 }.identifier(),
            "Stress(StressOptions { pad: 300 })"
        );
    }
}
