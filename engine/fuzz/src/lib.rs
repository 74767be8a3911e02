//! The bodies of JP's fuzz targets, one module per target, each with `pub fn run(data: &[u8])`.
//!
//! The binaries in `fuzz_targets/` are shims that hand libFuzzer's input to these functions, so
//! that `tests/replay.rs` can run every saved crash in `regressions/<target>/` on stable Rust,
//! without libFuzzer. A body panics exactly when it finds a bug.
//!
//! ```
//! // A truncated class is an error, not a crash.
//! jp_fuzz::parse::run(&[0xCA, 0xFE, 0xBA, 0xBE, 0x00]);
//! ```
#![deny(missing_docs)]

pub mod parse;
pub mod roundtrip;
