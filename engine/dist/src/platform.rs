//! The platforms JP ships its JNI library for: the directory id under `native/` in
//! `jp-engine.jar`, the file name there, and what the library must look like to load on the
//! oldest system JP supports.

use crate::error::DistError;
use crate::inspect::{Architecture, Format};
use crate::version::Version;

/// One shipped platform.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Platform {
    /// Directory name under `native/` (`linux-x86_64`).
    pub id: &'static str,
    /// The Rust target (`x86_64-unknown-linux-gnu`): the name of cargo's output directory and of
    /// the `CARGO_TARGET_<TRIPLE>_*` variables.
    pub rust_target: &'static str,
    /// rustc flags of the release build beyond those of every platform: `/Brepro` for the
    /// Windows linker, a C library linked dynamically for a musl shared library.
    pub rustflags: &'static str,
    /// Object file format, word size included.
    pub format: Format,
    /// Machine the code is for.
    pub architecture: Architecture,
    /// The system's own rules (C library, deployment target, signing).
    pub system: System,
    /// Every release has it: `jp-dist natives` builds it, `jp-engine.jar` holds it.
    pub released: bool,
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

impl System {
    /// Linux with either C library: the rules of ELF shared objects (exports, `DF_1_NODELETE`)
    /// apply to both.
    pub fn is_linux(self) -> bool {
        matches!(self, System::LinuxGnu { .. } | System::LinuxMusl)
    }
}

const GLIBC_FLOOR: Version = Version::new(2, 17);

/// Every platform id `check-jar` accepts, in the order the jar lists them.
pub const PLATFORMS: &[Platform] = &[
    Platform {
        id: "linux-x86_64",
        rust_target: "x86_64-unknown-linux-gnu",
        rustflags: "",
        format: Format::Elf64,
        architecture: Architecture::X86_64,
        system: System::LinuxGnu {
            max_glibc: GLIBC_FLOOR,
        },
        released: true,
    },
    Platform {
        id: "linux-aarch64",
        rust_target: "aarch64-unknown-linux-gnu",
        rustflags: "",
        format: Format::Elf64,
        architecture: Architecture::Aarch64,
        system: System::LinuxGnu {
            max_glibc: GLIBC_FLOOR,
        },
        released: true,
    },
    Platform {
        id: "linux-musl-x86_64",
        rust_target: "x86_64-unknown-linux-musl",
        rustflags: "-C target-feature=-crt-static",
        format: Format::Elf64,
        architecture: Architecture::X86_64,
        system: System::LinuxMusl,
        released: false,
    },
    Platform {
        id: "linux-musl-aarch64",
        rust_target: "aarch64-unknown-linux-musl",
        rustflags: "-C target-feature=-crt-static",
        format: Format::Elf64,
        architecture: Architecture::Aarch64,
        system: System::LinuxMusl,
        released: false,
    },
    Platform {
        id: "macos-x86_64",
        rust_target: "x86_64-apple-darwin",
        rustflags: "",
        format: Format::MachO64,
        architecture: Architecture::X86_64,
        system: System::MacOs {
            max_minos: Version::new(10, 12),
            signed: false,
        },
        released: true,
    },
    Platform {
        id: "macos-aarch64",
        rust_target: "aarch64-apple-darwin",
        rustflags: "",
        format: Format::MachO64,
        architecture: Architecture::Aarch64,
        system: System::MacOs {
            max_minos: Version::new(11, 0),
            signed: true,
        },
        released: true,
    },
    Platform {
        id: "windows-x86_64",
        rust_target: "x86_64-pc-windows-gnu",
        rustflags: "-C link-arg=-Wl,/Brepro",
        format: Format::Pe32Plus,
        architecture: Architecture::X86_64,
        system: System::Windows,
        released: true,
    },
];

impl Platform {
    /// The JNI library's file name, which the Java facade's `Platform` also derives from the
    /// system alone: `jp_jni` with the system's library prefix and suffix.
    pub fn file_name(&self) -> &'static str {
        match self.system {
            System::LinuxGnu { .. } | System::LinuxMusl => "libjp_jni.so",
            System::MacOs { .. } => "libjp_jni.dylib",
            System::Windows => "jp_jni.dll",
        }
    }

    /// The `jp` command line's file name.
    pub fn executable(&self) -> &'static str {
        match self.system {
            System::Windows => "jp.exe",
            _ => "jp",
        }
    }

    /// The target to give `cargo zigbuild`: on glibc Linux with the glibc to link against as a
    /// suffix (`x86_64-unknown-linux-gnu.2.17`), the newest the rules allow.
    pub fn zigbuild_target(&self) -> String {
        match self.system {
            System::LinuxGnu { max_glibc } => {
                format!("{}.{}.{}", self.rust_target, max_glibc.major, max_glibc.minor)
            }
            _ => self.rust_target.to_string(),
        }
    }

    /// The macOS version to build for (`MACOSX_DEPLOYMENT_TARGET`): the oldest the rules allow.
    pub fn macos_deployment_target(&self) -> Option<Version> {
        match self.system {
            System::MacOs { max_minos, .. } => Some(max_minos),
            _ => None,
        }
    }
}

/// The platform with this id, if JP ships one.
pub fn find(id: &str) -> Option<&'static Platform> {
    PLATFORMS.iter().find(|platform| platform.id == id)
}

/// The platforms every release has, in table order.
pub fn released() -> impl Iterator<Item = &'static Platform> {
    PLATFORMS.iter().filter(|platform| platform.released)
}

/// The platform with an id given on the command line.
///
/// # Errors
///
/// [`DistError::UnknownPlatform`], naming the known ids, for an id JP does not ship.
pub fn named(id: &str) -> Result<&'static Platform, DistError> {
    find(id).ok_or_else(|| DistError::UnknownPlatform {
        id: id.to_owned(),
        known: PLATFORMS
            .iter()
            .map(|platform| platform.id)
            .collect::<Vec<_>>()
            .join(", "),
    })
}
