//! JP's profiles: the calling-context trees that the runtime's agents
//! write (`docs/profile-format.md`), read back ([`parse`], [`parse_file`]),
//! merged ([`Profile::merge`]) and written again ([`write()`]). The reports
//! made of them are the `jp-report` crate's.
//!
//! A [`Profile`] is an arena of [`Node`]s under one root, which stands for
//! the thread roots of every JVM merged in. Frames are interned names,
//! `binary.class.Name.method(Descriptor)`. A profile of format version 3
//! also keeps what each thread group ran ([`Profile::thread_groups`],
//! [`Profile::thread_group`]). This crate knows nothing of
//! class files or of the instrumentation: the names are only text here.
//!
//! ```
//! use jp_profile::{Metric, Profile};
//! let a = "jp-profile 1\nframe 1 demo.Main.main([Ljava/lang/String;)V\nframe 2 demo.Main.work(I)J\n\
//!          node 1 0 1 1 12\nnode 2 1 2 10 500\nend 2\n";
//! let b = "jp-profile 1\nframe 1 demo.Main.main([Ljava/lang/String;)V\nnode 1 0 1 1 30\nend 1\n";
//! let mut profile = jp_profile::parse(a.as_bytes(), "a.jpprof".as_ref())?;
//! profile.merge(&jp_profile::parse(b.as_bytes(), "b.jpprof".as_ref())?);
//! assert_eq!((profile.context_count(), profile.total(Metric::Bytecodes)), (2, 542));
//!
//! let error = jp_profile::parse("jp-profile 1\nframe 1 x\n".as_bytes(), "c.jpprof".as_ref()).unwrap_err();
//! assert_eq!(error.to_string(), "c.jpprof:3: truncated: the file ends without its `end` record");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
#![deny(missing_docs)]

mod hash;
mod ids;
mod merge;
mod metrics;
mod model;
mod parse;
mod sites;
pub mod tests;
mod threads;
mod write;

pub use metrics::{valid_metric_name, MetricId, MetricInfo, MetricKind};
pub use model::{Children, FrameId, Metric, Node, NodeId, Profile};
pub use parse::{parse, parse_file, ParseError, ParseErrorKind, FORMAT_VERSION};
pub use sites::CallSite;
pub use threads::ThreadGroup;
pub use write::write;
