//! JP's engine: everything between the front ends (the `jp` CLI, and the
//! JNI library for the build plugins) and the class-file model.
//!
//! It reads inputs ([`input`]), round-trips classes ([`roundtrip`]) and
//! instruments them into an output directory ([`instrument`]), skipping
//! what did not change since the last run ([`cache`]), and makes hooked
//! copies of library jars ([`hooked_jar`]). The build plugins
//! call it through [`api`], whose request and outcome are serde types; the
//! load-time agent rewrites one class at a time through [`class_rewriter`].
//!
//! ```no_run
//! use jp_driver::api::{run, Request};
//! let outcome = run(&Request {
//!     inputs: vec!["/p/build/classes/java/main".into()],
//!     output: "/p/build/jp/classes/main".into(),
//!     cache_dir: Some("/p/build/jp/cache".into()),
//!     ..Request::default()
//! })?;
//! println!("{} rewritten, {} reused", outcome.rewritten, outcome.reused);
//! # Ok::<(), jp_driver::EngineError>(())
//! ```
#![deny(missing_docs)]

pub mod api;
pub mod cache;
pub mod class_rewriter;
mod class_store;
pub mod config;
mod directory;
pub mod error;
pub mod filter;
pub mod gate;
pub mod hooked_jar;
pub mod input;
pub mod instrument;
mod objects;
mod output;
mod output_jar;
pub mod overlap;
pub mod probes;
pub mod roundtrip;
pub mod scheme;
mod signatures;

pub use error::EngineError;

/// The engine's version: the workspace's, which the Java facade checks
/// against its own.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
