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

/// Checks one library against the rules of its platform; all violations, in rule order.
pub fn check(facts: &LibraryFacts, platform: &Platform) -> Vec<Violation> {
    let mut violations = Vec::new();
    check_shape(facts, platform, &mut violations);
    check_exports(facts, platform, &mut violations);
    check_imports(facts, platform, &mut violations);
    check_system(facts, platform, &mut violations);
    violations.extend(facts.local_paths.iter().map(|needle| Violation::LocalPath {
        needle: needle.clone(),
    }));
    violations
}

fn check_shape(facts: &LibraryFacts, platform: &Platform, violations: &mut Vec<Violation>) {
    if facts.format != platform.format {
        violations.push(Violation::WrongFormat {
            expected: platform.format,
            found: facts.format,
        });
    }
    if facts.architecture != platform.architecture {
        violations.push(Violation::WrongArchitecture {
            expected: platform.architecture,
            found: facts.architecture,
        });
    }
    if facts.kind != Kind::SharedLibrary {
        violations.push(Violation::NotSharedLibrary { found: facts.kind });
    }
}

/// All JNI entry points, no other `Java_*` symbol; on ELF nothing else at all, since the
/// linker's version script hides the rest (the Mach-O and PE cross linkers export some Rust
/// internals, harmless there).
fn check_exports(facts: &LibraryFacts, platform: &Platform, violations: &mut Vec<Violation>) {
    let prefix = symbol_prefix(platform);
    let unprefixed = |name: &str| name.strip_prefix(prefix).map(str::to_owned);
    for required in JNI_EXPORTS {
        if !facts
            .exports
            .iter()
            .any(|name| unprefixed(name).as_deref() == Some(*required))
        {
            violations.push(Violation::MissingExport {
                name: format!("{prefix}{required}"),
            });
        }
    }
    let only_jni = matches!(platform.system, System::LinuxGnu { .. } | System::LinuxMusl);
    for name in &facts.exports {
        let plain = unprefixed(name);
        if plain.as_deref().is_some_and(|plain| JNI_EXPORTS.contains(&plain)) {
            continue;
        }
        if plain.is_some_and(|plain| plain.starts_with(JAVA_PREFIX)) {
            violations.push(Violation::UnexpectedJavaExport { name: name.clone() });
        } else if only_jni {
            violations.push(Violation::UnexpectedExport { name: name.clone() });
        }
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
            if !facts.nodelete {
                violations.push(Violation::NotNodelete);
            }
        }
        System::LinuxMusl => {
            if let Some(needed) = facts.glibc {
                violations.push(Violation::GlibcOnMusl { needed });
            }
            if !facts.nodelete {
                violations.push(Violation::NotNodelete);
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
}
