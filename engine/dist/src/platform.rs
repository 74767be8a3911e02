//! The platforms JP ships its JNI library for: the directory id under `native/` in
//! `jp-engine.jar`, the file name there, and what the library must look like to load on the
//! oldest system JP supports.

use crate::inspect::{Architecture, Format};
use crate::version::Version;

/// One shipped platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Platform {
    /// Directory name under `native/` (`linux-x86_64`).
    pub id: &'static str,
    /// File name the Java facade looks for in that directory.
    pub file_name: &'static str,
    /// Object file format, word size included.
    pub format: Format,
    /// Machine the code is for.
    pub architecture: Architecture,
    /// The system's own rules (C library, deployment target, signing).
    pub system: System,
}

/// The system-specific half of a platform's rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum System {
    /// Linux with glibc: no symbol version newer than `max_glibc`.
    LinuxGnu {
        /// Highest `GLIBC_x.y` the library may need (the cross build targets this glibc).
        max_glibc: Version,
    },
    /// Linux with musl, which has no symbol versions.
    LinuxMusl,
    /// macOS: a deployment target no newer than `max_minos`.
    MacOs {
        /// Highest minimum OS version the library may declare.
        max_minos: Version,
        /// Whether the library must carry a code signature (arm64 refuses unsigned code).
        signed: bool,
    },
    /// Windows.
    Windows,
}

const GLIBC_FLOOR: Version = Version::new(2, 17);

/// Every platform id `check-jar` accepts, in the order the jar lists them.
pub const PLATFORMS: &[Platform] = &[
    Platform {
        id: "linux-x86_64",
        file_name: "libjp_jni.so",
        format: Format::Elf64,
        architecture: Architecture::X86_64,
        system: System::LinuxGnu {
            max_glibc: GLIBC_FLOOR,
        },
    },
    Platform {
        id: "linux-aarch64",
        file_name: "libjp_jni.so",
        format: Format::Elf64,
        architecture: Architecture::Aarch64,
        system: System::LinuxGnu {
            max_glibc: GLIBC_FLOOR,
        },
    },
    Platform {
        id: "linux-musl-x86_64",
        file_name: "libjp_jni.so",
        format: Format::Elf64,
        architecture: Architecture::X86_64,
        system: System::LinuxMusl,
    },
    Platform {
        id: "linux-musl-aarch64",
        file_name: "libjp_jni.so",
        format: Format::Elf64,
        architecture: Architecture::Aarch64,
        system: System::LinuxMusl,
    },
    Platform {
        id: "macos-x86_64",
        file_name: "libjp_jni.dylib",
        format: Format::MachO64,
        architecture: Architecture::X86_64,
        system: System::MacOs {
            max_minos: Version::new(10, 12),
            signed: false,
        },
    },
    Platform {
        id: "macos-aarch64",
        file_name: "libjp_jni.dylib",
        format: Format::MachO64,
        architecture: Architecture::Aarch64,
        system: System::MacOs {
            max_minos: Version::new(11, 0),
            signed: true,
        },
    },
    Platform {
        id: "windows-x86_64",
        file_name: "jp_jni.dll",
        format: Format::Pe32Plus,
        architecture: Architecture::X86_64,
        system: System::Windows,
    },
];

/// The platform with this id, if JP ships one.
pub fn find(id: &str) -> Option<&'static Platform> {
    PLATFORMS.iter().find(|platform| platform.id == id)
}

/// The ids of all platforms, comma-separated, for error messages.
pub fn known_ids() -> String {
    PLATFORMS
        .iter()
        .map(|platform| platform.id)
        .collect::<Vec<_>>()
        .join(", ")
}
