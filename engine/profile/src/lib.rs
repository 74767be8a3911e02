//! JP's profiles: the calling-context trees that the runtime's agents
//! write (`docs/profile-format.md`), read back ([`parse`]), merged
//! ([`Profile::merge`]) and written out as reports ([`folded`]).
//!
//! ```
//! let text = "jp-profile 1\nframe 1 demo.Main.main([Ljava/lang/String;)V\nnode 1 0 1 1 42\nend 1\n";
//! let profile = jp_profile::parse(text.as_bytes(), "a.jpprof".as_ref())?;
//! let mut out = Vec::new();
//! jp_profile::folded::write(&profile, jp_profile::Metric::Bytecodes, &mut out)?;
//! assert_eq!(out, b"demo.Main.main([Ljava/lang/String;)V 42\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

pub mod folded;
mod model;
mod parse;
mod write;

pub use model::{Metric, Node, NodeId, Profile};
pub use parse::{parse, ParseError, ParseErrorKind, FORMAT_VERSION};
pub use write::write;
