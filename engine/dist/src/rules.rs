//! The release rules: [`LibraryFacts`] and the [`Platform`] a library ships for give the list
//! of [`Violation`]s, empty when the library may ship.

use crate::inspect::{Kind, LibraryFacts};
use crate::platform::{Platform, System};
use crate::violation::Violation;

/// Every symbol the Java side resolves in the library: `NativeEngine`'s native methods and the
/// load hook. Mach-O spells each with a leading `_`.
pub const JNI_EXPORTS: &[&str] = &[
    "Java_org_jpprof_engine_NativeEngine_version",
    "Java_org_jpprof_engine_NativeEngine_instrument",
    "Java_org_jpprof_engine_NativeEngine_report",
    "Java_org_jpprof_engine_NativeEngine_baseline",
    "Java_org_jpprof_engine_NativeEngine_check",
    "Java_org_jpprof_engine_NativeEngine_hookJar",
    "Java_org_jpprof_engine_NativeEngine_classRewriter",
    "Java_org_jpprof_engine_NativeEngine_rewriteClass",
    "JNI_OnLoad",
];

/// Libraries every glibc system that runs a JVM has.
const GLIBC_HOST_LIBRARIES: &[&str] = &[
    "libc.so.6",
    "libm.so.6",
    "libpthread.so.0",
    "libdl.so.2",
    "librt.so.1",
    "libgcc_s.so.1",
    "ld-linux-x86-64.so.2",
    "ld-linux-aarch64.so.1",
];

/// musl has all of libc, libm, libpthread and the loader in one file.
const MUSL_HOST_LIBRARIES: &[&str] = &["libc.so"];

/// DLLs of Windows itself (compared without case), plus the `api-ms-win-*` API sets. The MinGW
/// runtime (`libgcc_s_seh-1.dll`, `libwinpthread-1.dll`, `libstdc++-6.dll`) must be linked
/// statically, and `jvm.dll` is not on the loader's path.
const WINDOWS_SYSTEM_DLLS: &[&str] = &[
    "kernel32.dll",
    "ntdll.dll",
    "advapi32.dll",
    "bcrypt.dll",
    "bcryptprimitives.dll",
    "userenv.dll",
    "ws2_32.dll",
    "msvcrt.dll",
    "ucrtbase.dll",
    "shell32.dll",
    "ole32.dll",
    "oleaut32.dll",
    "secur32.dll",
    "crypt32.dll",
    "synchronization.dll",
];

const JAVA_PREFIX: &str = "Java_";

/// Checks one library against the rules of its platform; all violations, in rule order. A
/// library of another format or machine gets only that verdict: the other rules would judge it
/// by a system it is not for.
pub fn check(facts: &LibraryFacts, platform: &Platform) -> Vec<Violation> {
    let mut violations = Vec::new();
    if !check_shape(facts, platform, &mut violations) {
        return violations;
    }
    check_exports(facts, platform, &mut violations);
    check_imports(facts, platform, &mut violations);
    check_system(facts, platform, &mut violations);
    violations.extend(facts.local_paths.iter().map(|needle| Violation::LocalPath {
        needle: needle.clone(),
    }));
    violations
}

/// Whether format and machine are the platform's (the kind alone does not stop the checks).
fn check_shape(facts: &LibraryFacts, platform: &Platform, violations: &mut Vec<Violation>) -> bool {
    let wrong_format = facts.format != platform.format;
    let wrong_architecture = facts.architecture != platform.architecture;
    if wrong_format {
        violations.push(Violation::WrongFormat {
            expected: platform.format,
            found: facts.format,
        });
    }
    if wrong_architecture {
        violations.push(Violation::WrongArchitecture {
            expected: platform.architecture,
            found: facts.architecture,
        });
    }
    if facts.kind != Kind::SharedLibrary {
        violations.push(Violation::NotSharedLibrary { found: facts.kind });
    }
    !wrong_format && !wrong_architecture
}

/// All JNI entry points, no other `Java_*` symbol; on ELF nothing else at all, since the
/// linker's version script hides the rest (the Mach-O and PE cross linkers export some Rust
/// internals, harmless there).
fn check_exports(facts: &LibraryFacts, platform: &Platform, violations: &mut Vec<Violation>) {
    let prefix = symbol_prefix(platform);
    for required in JNI_EXPORTS {
        if !facts
            .exports
            .iter()
            .any(|name| name.strip_prefix(prefix) == Some(*required))
        {
            violations.push(Violation::MissingExport {
                name: format!("{prefix}{required}"),
            });
        }
    }
    let mut others = Vec::new();
    for name in &facts.exports {
        match name.strip_prefix(prefix) {
            Some(plain) if JNI_EXPORTS.contains(&plain) => {}
            Some(plain) if plain.starts_with(JAVA_PREFIX) => {
                violations.push(Violation::UnexpectedJavaExport { name: name.clone() })
            }
            _ => others.push(name.clone()),
        }
    }
    if platform.system.is_linux() && !others.is_empty() {
        violations.push(Violation::UnexpectedExports { names: others });
    }
}

/// Mach-O prefixes C symbol names with `_`; ELF and 64-bit PE do not.
fn symbol_prefix(platform: &Platform) -> &'static str {
    match platform.system {
        System::MacOs { .. } => "_",
        _ => "",
    }
}

fn check_imports(facts: &LibraryFacts, platform: &Platform, violations: &mut Vec<Violation>) {
    let (is_allowed, allowed): (fn(&str) -> bool, &'static str) = match platform.system {
        System::LinuxGnu { .. } => (
            |library| GLIBC_HOST_LIBRARIES.contains(&library),
            "glibc's libraries and libgcc_s.so.1",
        ),
        System::LinuxMusl => (|library| MUSL_HOST_LIBRARIES.contains(&library), "libc.so"),
        System::MacOs { .. } => (|library| library.starts_with("/usr/lib/"), "/usr/lib/ dylibs"),
        System::Windows => (is_windows_system_dll, "Windows system DLLs"),
    };
    for library in facts.imports.iter().filter(|library| !is_allowed(library)) {
        violations.push(Violation::ForeignImport {
            library: library.clone(),
            allowed,
        });
    }
}

fn is_windows_system_dll(library: &str) -> bool {
    let library = library.to_ascii_lowercase();
    library.starts_with("api-ms-win-") || WINDOWS_SYSTEM_DLLS.contains(&library.as_str())
}

fn check_system(facts: &LibraryFacts, platform: &Platform, violations: &mut Vec<Violation>) {
    match platform.system {
        System::LinuxGnu { max_glibc } => {
            if let Some(needed) = facts.glibc.filter(|needed| *needed > max_glibc) {
                violations.push(Violation::GlibcTooNew {
                    needed,
                    max: max_glibc,
                });
            }
        }
        System::LinuxMusl => {
            if let Some(needed) = facts.glibc {
                violations.push(Violation::GlibcOnMusl { needed });
            }
        }
        System::MacOs { max_minos, signed } => {
            match facts.min_os {
                None => violations.push(Violation::MissingMinOs),
                Some(found) if found > max_minos => violations.push(Violation::MinOsTooNew {
                    found,
                    max: max_minos,
                }),
                Some(_) => {}
            }
            if signed && !facts.code_signature {
                violations.push(Violation::Unsigned);
            }
            if !facts
                .install_name
                .as_deref()
                .is_some_and(|name| name.starts_with("@rpath/"))
            {
                violations.push(Violation::InstallName {
                    found: facts.install_name.clone(),
                });
            }
        }
        System::Windows => {}
    }
    if platform.system.is_linux() && !facts.nodelete {
        violations.push(Violation::NotNodelete);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspect::{Architecture, Format};
    use crate::platform::{find, PLATFORMS};
    use crate::version::Version;

    /// Facts of a library that may ship for `platform`.
    fn good_facts(platform: &Platform) -> LibraryFacts {
        let prefix = symbol_prefix(platform);
        let mut facts = LibraryFacts {
            exports: JNI_EXPORTS.iter().map(|name| format!("{prefix}{name}")).collect(),
            ..LibraryFacts::new(platform.format, platform.architecture, Kind::SharedLibrary)
        };
        match platform.system {
            System::LinuxGnu { max_glibc } => {
                facts.imports = vec!["libgcc_s.so.1".into(), "libc.so.6".into()];
                facts.glibc = Some(max_glibc);
                facts.nodelete = true;
            }
            System::LinuxMusl => {
                facts.imports = vec!["libc.so".into()];
                facts.nodelete = true;
            }
            System::MacOs { max_minos, signed } => {
                facts.imports = vec!["/usr/lib/libSystem.B.dylib".into()];
                facts.min_os = Some(max_minos);
                facts.code_signature = signed;
                facts.install_name = Some("@rpath/libjp_jni.dylib".into());
            }
            System::Windows => {
                facts.imports = vec!["KERNEL32.dll".into(), "api-ms-win-core-synch-l1-2-0.dll".into()];
            }
        }
        facts
    }

    fn violations_on(id: &str, change: impl FnOnce(&mut LibraryFacts)) -> Vec<Violation> {
        let platform = find(id).unwrap();
        let mut facts = good_facts(platform);
        change(&mut facts);
        check(&facts, platform)
    }

    #[test]
    fn good_libraries_pass_on_every_platform() {
        for platform in PLATFORMS {
            assert_eq!(check(&good_facts(platform), platform), [], "{}", platform.id);
        }
    }

    #[test]
    fn a_32_bit_library_is_the_wrong_format() {
        let violations = violations_on("linux-x86_64", |facts| facts.format = Format::Elf32);
        assert_eq!(
            violations,
            [Violation::WrongFormat {
                expected: Format::Elf64,
                found: Format::Elf32
            }]
        );
    }

    #[test]
    fn a_library_of_another_system_gets_no_verdict_on_that_system_s_rules() {
        let platform = find("linux-x86_64").unwrap();
        let windows = good_facts(find("windows-x86_64").unwrap());
        let expected = Format::Elf64;
        assert_eq!(
            check(&windows, platform),
            [Violation::WrongFormat {
                expected,
                found: Format::Pe32Plus
            }]
        );
    }

    #[test]
    fn a_library_for_another_machine_is_reported() {
        let violations = violations_on("macos-aarch64", |facts| facts.architecture = Architecture::X86_64);
        let expected = Architecture::Aarch64;
        assert_eq!(
            violations,
            [Violation::WrongArchitecture {
                expected,
                found: Architecture::X86_64
            }]
        );
    }

    #[test]
    fn an_executable_is_not_a_shared_library() {
        let violations = violations_on("windows-x86_64", |facts| facts.kind = Kind::Executable);
        assert_eq!(
            violations,
            [Violation::NotSharedLibrary {
                found: Kind::Executable
            }]
        );
    }

    #[test]
    fn every_jni_entry_point_must_be_exported() {
        for platform in PLATFORMS {
            let violations = violations_on(platform.id, |facts| {
                facts.exports.retain(|name| !name.ends_with("JNI_OnLoad"))
            });
            let name = format!("{}JNI_OnLoad", symbol_prefix(platform));
            assert_eq!(violations, [Violation::MissingExport { name }], "{}", platform.id);
        }
    }

    #[test]
    fn macho_exports_carry_a_leading_underscore() {
        let violations = violations_on("macos-x86_64", |facts| {
            facts.exports = JNI_EXPORTS.iter().map(|name| name.to_string()).collect()
        });
        assert_eq!(violations.len(), JNI_EXPORTS.len());
        assert!(violations
            .iter()
            .all(|violation| matches!(violation, Violation::MissingExport { .. })));
    }

    #[test]
    fn an_undeclared_java_export_is_reported_everywhere() {
        for platform in PLATFORMS {
            let name = format!(
                "{}Java_org_jpprof_engine_NativeEngine_gone",
                symbol_prefix(platform)
            );
            let violations = violations_on(platform.id, |facts| facts.exports.push(name.clone()));
            assert_eq!(
                violations,
                [Violation::UnexpectedJavaExport { name }],
                "{}",
                platform.id
            );
        }
    }

    #[test]
    fn elf_exports_nothing_else_but_macho_and_pe_may() {
        let rust_internal = |facts: &mut LibraryFacts| facts.exports.push("rust_eh_personality".into());
        let names = vec!["rust_eh_personality".to_string()];
        assert_eq!(
            violations_on("linux-aarch64", rust_internal),
            [Violation::UnexpectedExports { names }]
        );
        assert_eq!(violations_on("macos-aarch64", rust_internal), []);
        assert_eq!(violations_on("windows-x86_64", rust_internal), []);
    }

    #[test]
    fn libraries_a_jvm_host_lacks_are_foreign_imports() {
        let cases = [
            ("linux-x86_64", "libstdc++.so.6"),
            ("linux-musl-x86_64", "libc.so.6"),
            ("macos-x86_64", "/opt/homebrew/lib/libz.1.dylib"),
            ("macos-aarch64", "@rpath/libstd.dylib"),
            ("windows-x86_64", "libgcc_s_seh-1.dll"),
            ("windows-x86_64", "libwinpthread-1.dll"),
            ("windows-x86_64", "libstdc++-6.dll"),
            ("windows-x86_64", "jvm.dll"),
        ];
        for (id, library) in cases {
            let violations = violations_on(id, |facts| facts.imports.push(library.into()));
            assert!(
                matches!(&violations[..], [Violation::ForeignImport { library: found, .. }] if found == library),
                "{id} {library}: {violations:?}"
            );
        }
    }

    #[test]
    fn windows_system_dlls_match_without_case() {
        let violations = violations_on("windows-x86_64", |facts| {
            facts.imports.extend([
                "ntdll.dll".into(),
                "WS2_32.dll".into(),
                "bcryptprimitives.dll".into(),
            ])
        });
        assert_eq!(violations, []);
    }

    #[test]
    fn glibc_newer_than_2_17_is_reported() {
        let needed = Version::new(2, 34);
        let violations = violations_on("linux-x86_64", |facts| facts.glibc = Some(needed));
        assert_eq!(
            violations,
            [Violation::GlibcTooNew {
                needed,
                max: Version::new(2, 17)
            }]
        );
    }

    #[test]
    fn glibc_versions_on_musl_are_reported() {
        let needed = Version::new(2, 2);
        let violations = violations_on("linux-musl-aarch64", |facts| facts.glibc = Some(needed));
        assert_eq!(violations, [Violation::GlibcOnMusl { needed }]);
    }

    #[test]
    fn linux_libraries_must_be_nodelete() {
        for id in ["linux-x86_64", "linux-musl-x86_64"] {
            assert_eq!(
                violations_on(id, |facts| facts.nodelete = false),
                [Violation::NotNodelete]
            );
        }
    }

    #[test]
    fn a_deployment_target_newer_than_the_platform_floor_is_reported() {
        let found = Version::new(10, 13);
        let violations = violations_on("macos-x86_64", |facts| facts.min_os = Some(found));
        assert_eq!(
            violations,
            [Violation::MinOsTooNew {
                found,
                max: Version::new(10, 12)
            }]
        );
        let violations = violations_on("macos-aarch64", |facts| facts.min_os = None);
        assert_eq!(violations, [Violation::MissingMinOs]);
    }

    #[test]
    fn arm64_macos_libraries_must_be_signed() {
        let unsigned = |facts: &mut LibraryFacts| facts.code_signature = false;
        assert_eq!(violations_on("macos-aarch64", unsigned), [Violation::Unsigned]);
        assert_eq!(violations_on("macos-x86_64", unsigned), []);
    }

    #[test]
    fn the_install_name_must_be_relative_to_rpath() {
        let found = Some("/work/target/dist/deps/libjp_jni.dylib".to_string());
        let violations = violations_on("macos-x86_64", |facts| facts.install_name = found.clone());
        assert_eq!(violations, [Violation::InstallName { found }]);
        let violations = violations_on("macos-x86_64", |facts| facts.install_name = None);
        assert_eq!(violations, [Violation::InstallName { found: None }]);
    }

    #[test]
    fn local_paths_are_reported_on_every_platform() {
        for platform in PLATFORMS {
            let needle = "/home/".to_string();
            let violations = violations_on(platform.id, |facts| facts.local_paths.push(needle.clone()));
            assert_eq!(violations, [Violation::LocalPath { needle }], "{}", platform.id);
        }
    }
}
