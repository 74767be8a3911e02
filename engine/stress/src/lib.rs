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
use sha2::{Digest, Sha256};
// The scheme's module reaches it as `crate::with_code_and_descriptor`.
use jp_rewrite::with_code_and_descriptor;

pub use stress::{stress_class, StressOptions};

impl Scheme for StressOptions {
    fn rewrite_class(&self, bytes: &[u8]) -> Result<Rewritten, RewriteError> {
        stress_class(bytes, *self)
    }

    /// `Stress(StressOptions { pad: 300 }) <hash>`, the hash of this
    /// scheme's source: the driver's build id covers only what ships, so
    /// without it a `jp-stress --cache` would serve classes that an older
    /// stress scheme wrote.
    fn identifier(&self) -> String {
        let source = Sha256::digest(include_str!("stress.rs"));
        let hex: String = source.iter().map(|byte| format!("{byte:02x}")).collect();
        format!("Stress({self:?}) {hex}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_identifier_names_the_scheme_its_padding_and_its_source() {
        let identifier = StressOptions { pad: 300 }.identifier();
        let (scheme, source) = identifier.split_once(' ').unwrap();
        assert_eq!(scheme, "Stress(StressOptions");
        let (padding, hash) = source.rsplit_once(' ').unwrap();
        assert_eq!(padding, "{ pad: 300 })");
        assert_eq!(hash.len(), 64);
        assert_ne!(identifier, StressOptions { pad: 301 }.identifier());
    }
}
