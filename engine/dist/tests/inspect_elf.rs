//! `inspect` and the rules on a real ELF shared object.

mod support;

use jp_dist::inspect::{inspect, Architecture, Format, Kind};
use jp_dist::local_paths::LocalPaths;
use jp_dist::platform::find;
use jp_dist::rules::{self, JNI_EXPORTS};
use jp_dist::version::Version;
use object::elf::{DF_1_NODELETE, DF_1_PIE};

#[test]
fn a_shared_object_yields_its_exports_needs_and_flags() {
    let facts = inspect(&support::shared_object(DF_1_NODELETE), &LocalPaths::new([])).unwrap();
    assert_eq!(
        (facts.format, facts.architecture),
        (Format::Elf64, Architecture::X86_64)
    );
    assert_eq!(facts.kind, Kind::SharedLibrary);
    assert_eq!(facts.exports, JNI_EXPORTS);
    assert_eq!(facts.imports, ["libgcc_s.so.1", "libc.so.6"]);
    assert_eq!(facts.glibc, Some(Version::new(2, 17)));
    assert!(facts.nodelete);
    assert_eq!(rules::check(&facts, find("linux-x86_64").unwrap()), []);
}

#[test]
fn a_shared_object_marked_pie_is_an_executable() {
    let facts = inspect(&support::shared_object(DF_1_PIE), &LocalPaths::new([])).unwrap();
    assert_eq!((facts.kind, facts.nodelete), (Kind::Executable, false));
}
