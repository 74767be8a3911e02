//! Release tooling of JP: checks that the JNI libraries in `jp-engine.jar` load on every
//! supported system, and reproducible archives of the `jp` command line.
//!
//! The checks come in two layers. [`inspect`] turns the bytes of an ELF, Mach-O or PE file into
//! [`inspect::LibraryFacts`]; [`rules`] judges those facts for a [`platform::Platform`] and
//! returns [`violation::Violation`]s. [`natives`] cross-builds the libraries and the `jp`
//! command line for every platform with cargo-zigbuild.
//!
//! ```
//! use jp_dist::inspect::{Architecture, Format, Kind, LibraryFacts};
//! use jp_dist::{platform, rules};
//!
//! let facts = LibraryFacts {
//!     exports: rules::JNI_EXPORTS.iter().map(|name| name.to_string()).collect(),
//!     imports: vec!["libc.so.6".into()],
//!     nodelete: true,
//!     ..LibraryFacts::new(Format::Elf64, Architecture::X86_64, Kind::SharedLibrary)
//! };
//! let linux = platform::find("linux-x86_64").unwrap();
//! assert!(rules::check(&facts, linux).is_empty());
//! ```

#![deny(missing_docs)]

pub mod check;
pub mod error;
pub mod inspect;
pub mod local_paths;
pub mod natives;
pub mod pack;
pub mod platform;
pub mod rules;
pub mod version;
pub mod violation;
