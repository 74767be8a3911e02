//! JP's engine: everything between the front ends (the `jp` CLI, and the
//! JNI library for the build plugins) and the class-file model.
//!
//! It reads inputs ([`input`]), round-trips classes ([`roundtrip`]) and
//! instruments them into an output directory ([`instrument`]).
//!
//! ```no_run
//! use jp_engine::input::Input;
//! for entry in Input::open("app.jar".as_ref())?.entries()? {
//!     let entry = entry?;
//!     println!("{} ({} bytes)", entry.location, entry.bytes.len());
//! }
//! # Ok::<(), jp_engine::input::InputError>(())
//! ```
#![deny(missing_docs)]

pub mod config;
pub mod filter;
pub mod input;
pub mod instrument;
mod output;
pub mod roundtrip;
mod signatures;
